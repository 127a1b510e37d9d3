// Contexts (clCreateContext): the devices they hold, the interop properties a
// sharing facade made them with, and the buffers, images, samplers, programs
// and queues they create. createContext() is the plain entry.
import type { Addon, NativeContext } from './addon';
import { CL } from './facts/cl-constants';
import { Device, type DeviceType, deviceTypeMask } from './device';
import { UserEvent, completionMechanisms } from './event';
import { type ImageFormat, elementSize, resolveImageFormat, type ResolvedImageFormat } from './facts/cl-image-formats';
import { OpenCLError, describeValue } from './errors';
import { checkHost } from './host-memory';
import { decode } from './info';
import { hasEntryPoint, ready } from './loader';
import { type Access, CLBuffer, CLImage, accessFlags } from './memory';
import { checkCount } from './validate';
import { Platform, requirePlatforms } from './platform';
import { Program } from './program';
import { CommandQueue, type QueueOptions } from './queue';
import { Resource } from './resource';
import { type SharingExtension, type SharingFacades, sharingFacadeOf } from './sharing-hooks';
import { Sampler, type SamplerOptions, addressingModes, filterModes } from './sampler';

export type ContextProperty = readonly [name: number, value: number | bigint];

export interface ContextOptions {
  /** Devices of one platform. Without them, every device of `deviceType` on `platform`. */
  devices?: readonly Device[];
  platform?: Platform;
  deviceType?: DeviceType;
  /** Extra context properties as [name, value] pairs (interop handles as bigint). */
  properties?: readonly ContextProperty[];
  /** CL_CONTEXT_INTEROP_USER_SYNC: the application synchronizes shared objects itself. */
  interopUserSync?: boolean;
  /** Called with the driver's message when it reports an error in this context. */
  onError?: (message: string) => void;
}

export type ImageType = '1d' | '2d' | '3d' | '1d-array' | '2d-array';
const imageTypes: Record<ImageType, number> = {
  '1d': CL.CL_MEM_OBJECT_IMAGE1D,
  '2d': CL.CL_MEM_OBJECT_IMAGE2D,
  '3d': CL.CL_MEM_OBJECT_IMAGE3D,
  '1d-array': CL.CL_MEM_OBJECT_IMAGE1D_ARRAY,
  '2d-array': CL.CL_MEM_OBJECT_IMAGE2D_ARRAY,
};

export interface BufferOptions {
  access?: Access;
  /** Let the driver allocate host-accessible memory (CL_MEM_ALLOC_HOST_PTR). */
  allocHostPointer?: boolean;
}

export interface ImageOptions {
  format: ImageFormat;
  width: number;
  height?: number;
  depth?: number;
  arraySize?: number;
  /** Default: '3d' when depth > 1, '2d' when height is given, else '1d'. */
  type?: ImageType;
  access?: Access;
  /** Initial contents (copied); rows `rowPitch` bytes apart (default: packed). */
  data?: ArrayBufferView | ArrayBuffer;
  rowPitch?: number;
  slicePitch?: number;
}

function checkProperties(properties: unknown): ContextProperty[] {
  if (properties === undefined) return [];
  if (!Array.isArray(properties)) throw new TypeError('properties must be an array of [name, value] pairs');
  return properties.map((pair, i) => {
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'number' || !['number', 'bigint'].includes(typeof pair[1])) {
      throw new TypeError(`properties[${i}] must be [name: number, value: number | bigint]`);
    }
    if (pair[0] === CL.CL_CONTEXT_PLATFORM || pair[0] === CL.CL_CONTEXT_INTEROP_USER_SYNC) {
      throw new TypeError('CL_CONTEXT_PLATFORM and CL_CONTEXT_INTEROP_USER_SYNC come from options.platform/devices and options.interopUserSync');
    }
    return pair as unknown as ContextProperty;
  });
}

/** What a context was made for, when it was made by a sharing extension's createContext. */
export interface ContextInterop {
  extension: string;
  /** The context property that names the interop device (e.g. CL_CONTEXT_VA_API_DISPLAY_INTEL). */
  property: number;
  /** The Direct3D device / adapter or VADisplay, as given. It must outlive the context. */
  handle: bigint;
}

const CL_IMAGE_FORMAT_NOT_SUPPORTED = -10;
const CL_INVALID_OPERATION = -59;

export class Context extends Resource<NativeContext> {
  readonly platform: Platform;
  #devices?: Device[];
  /** Set when a sharing extension's createContext made this context. */
  interop?: ContextInterop;

  /** @internal */
  constructor(native: NativeContext, platform: Platform) {
    super(native);
    this.platform = platform;
  }

  /** Creates a context. See ContextOptions. */
  static create(options: ContextOptions = {}): Context {
    const addon = ready();
    const { devices, deviceType, onError, interopUserSync } = options;
    if (devices !== undefined && (!Array.isArray(devices) || devices.length === 0 || !devices.every((d) => d instanceof Device))) {
      throw new TypeError('devices must be a non-empty array of Device');
    }
    if (onError !== undefined && typeof onError !== 'function') throw new TypeError('onError must be a function');
    if (interopUserSync !== undefined && typeof interopUserSync !== 'boolean') throw new TypeError('interopUserSync must be a boolean');
    const platform = options.platform ?? devices?.[0]?.platform ?? requirePlatforms()[0]!;
    if (!(platform instanceof Platform)) throw new TypeError('platform must be a Platform');
    if (devices?.some((d) => d.platform !== platform)) {
      throw new TypeError("all devices must belong to one platform (the context's platform)");
    }
    const flat: bigint[] = [BigInt(CL.CL_CONTEXT_PLATFORM), platform.address];
    for (const [name, value] of checkProperties(options.properties)) flat.push(BigInt(name), BigInt(value));
    if (interopUserSync !== undefined) flat.push(BigInt(CL.CL_CONTEXT_INTEROP_USER_SYNC), interopUserSync ? 1n : 0n);
    const notify = onError
      ? (message: string) => {
          try {
            onError(message);
          } catch (error) {
            queueMicrotask(() => {
              throw error;
            });
          }
        }
      : undefined;
    const native = devices
      ? addon.createContext(
          flat,
          devices.map((d) => d.native),
          notify,
        )
      : addon.createContextFromType(flat, deviceTypeMask(deviceType ?? 'all'), notify);
    return new Context(native, platform);
  }

  get kind(): string {
    return 'Context';
  }

  /** The facade of the sharing extension this context was made for. */
  get sharing(): SharingFacades[SharingExtension] {
    return sharingFacadeOf(this);
  }

  /** @internal */
  get addon(): Addon {
    return ready();
  }

  info(param: number): Uint8Array {
    return this.native.info(param);
  }

  /** The context's devices. */
  get devices(): Device[] {
    if (!this.#devices) {
      const addresses = decode.pointers(this.native.info(CL.CL_CONTEXT_DEVICES));
      const known = this.platform.getDevices('all');
      this.#devices = addresses.map((address) => {
        const device = known.find((d) => d.address === address);
        if (!device) throw new Error(`context device 0x${address.toString(16)} is not a device of ${this.platform.name}`);
        return device;
      });
    }
    return this.#devices;
  }

  /** The properties the context was created with, as [name, value] pairs. */
  get properties(): [number, bigint][] {
    const values = decode.intptrs(this.native.info(CL.CL_CONTEXT_PROPERTIES));
    const pairs: [number, bigint][] = [];
    for (let i = 0; i + 1 < values.length && values[i] !== 0n; i += 2) pairs.push([Number(values[i]), values[i + 1]!]);
    return pairs;
  }

  /** CL_CONTEXT_INTEROP_USER_SYNC as created (false when not given). */
  get interopUserSync(): boolean {
    const pair = this.properties.find(([name]) => name === CL.CL_CONTEXT_INTEROP_USER_SYNC);
    return pair ? pair[1] !== 0n : false;
  }

  get referenceCount(): number {
    return decode.uint(this.native.info(CL.CL_CONTEXT_REFERENCE_COUNT));
  }

  #modern(): boolean {
    return this.platform.versionNumber.major >= 2;
  }

  /** A command queue on `device` (default: the context's first device). */
  createQueue(device: Device = this.devices[0]!, options: QueueOptions = {}): CommandQueue {
    if (!(device instanceof Device) || !this.devices.includes(device)) {
      throw new TypeError("device must be one of the context's devices");
    }
    const { completion } = options;
    if (completion !== undefined && !completionMechanisms.includes(completion))
      throw new TypeError(
        `options.completion must be ${completionMechanisms.map((m) => `'${m}'`).join(', ')} or undefined; got ${describeValue(completion)}`,
      );
    if (options.outOfOrder && (completion === 'waiter' || completion === 'poll'))
      throw new TypeError(
        `options.completion '${completion}' needs an in-order queue (its thread waits on the awaits in order); an out-of-order queue's awaits take the driver's callbacks: leave completion out or make it 'callback'`,
      );
    let bits = 0n;
    if (options.outOfOrder) bits |= BigInt(CL.CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    if (options.profiling) bits |= BigInt(CL.CL_QUEUE_PROFILING_ENABLE);
    const withProperties = this.#modern() && hasEntryPoint('clCreateCommandQueueWithProperties');
    const props = withProperties ? (bits ? [BigInt(CL.CL_QUEUE_PROPERTIES), bits] : []) : null;
    const native = this.addon.createQueue(this.native, device.native, props, bits);
    return new CommandQueue(native, this, device, { outOfOrder: options.outOfOrder === true, profiling: options.profiling === true }, completion);
  }

  /** A buffer of `size` bytes, or initialized with a copy of `data`. */
  createBuffer(sizeOrData: number | ArrayBufferView | ArrayBuffer, options: BufferOptions = {}): CLBuffer {
    let flags = accessFlags(options.access);
    if (options.allocHostPointer) flags |= BigInt(CL.CL_MEM_ALLOC_HOST_PTR);
    if (typeof sizeOrData === 'number') {
      checkCount(sizeOrData, 'size', 1);
      return new CLBuffer(this.addon.createBuffer(this.native, flags, sizeOrData), this);
    }
    if (!(sizeOrData instanceof ArrayBuffer) && !ArrayBuffer.isView(sizeOrData)) {
      throw new TypeError('createBuffer takes a size in bytes or an ArrayBuffer / typed array');
    }
    checkCount(sizeOrData.byteLength, 'data.byteLength', 1);
    flags |= BigInt(CL.CL_MEM_COPY_HOST_PTR);
    return new CLBuffer(this.addon.createBuffer(this.native, flags, sizeOrData.byteLength, sizeOrData), this);
  }

  /** An image. See ImageOptions. */
  createImage(options: ImageOptions): CLImage {
    if (typeof options !== 'object' || options === null) throw new TypeError('createImage takes an options object');
    const format = resolveImageFormat(options.format);
    const { width, height = 0, depth = 0, arraySize = 0, rowPitch = 0, slicePitch = 0 } = options;
    checkCount(width, 'width', 1);
    for (const [name, value] of Object.entries({ height, depth, arraySize, rowPitch, slicePitch })) checkCount(value, name);
    const type = options.type ?? (depth > 1 ? '3d' : height > 0 ? '2d' : '1d');
    const typeValue = ownValue(imageTypes, type);
    if (typeValue === undefined) throw new TypeError(`type must be one of ${Object.keys(imageTypes).join(', ')}`);
    let flags = accessFlags(options.access);
    let hostBytes = 0;
    if (options.data !== undefined) {
      if (!(options.data instanceof ArrayBuffer) && !ArrayBuffer.isView(options.data)) {
        throw new TypeError('data must be an ArrayBuffer or a typed array');
      }
      flags |= BigInt(CL.CL_MEM_COPY_HOST_PTR);
      const rowBytes = width * elementSize(format);
      if (rowPitch && rowPitch < rowBytes) throw new RangeError(`rowPitch (${rowPitch}) is smaller than a row (${rowBytes} bytes)`);
      const row = rowPitch || rowBytes;
      // A 1D image array has one row per slice: the driver steps by slicePitch.
      const rows = type === '1d-array' ? 1 : Math.max(height, 1);
      const minSlice = row * rows;
      if (slicePitch && slicePitch < minSlice) throw new RangeError(`slicePitch (${slicePitch}) is smaller than a slice (${minSlice} bytes)`);
      const slice = slicePitch || minSlice;
      const slices = type === '3d' ? depth : type.endsWith('array') ? arraySize : 1;
      // Drivers copy whole slices, the last one included (PoCL reads arraySize * slicePitch).
      hostBytes = slice * Math.max(slices, 1);
      if (!Number.isSafeInteger(hostBytes)) throw new RangeError(`the image's host data (${hostBytes} bytes) is larger than any host memory`);
      if (checkHost(options.data, 'data').byteLength < hostBytes) {
        throw new RangeError(`data has ${options.data.byteLength} bytes; the image needs ${hostBytes}`);
      }
    } else if (rowPitch || slicePitch) {
      throw new TypeError('rowPitch and slicePitch describe options.data; give data too');
    }
    this.#checkImageLimits(type, width, height, depth);
    const desc = { type: typeValue, width, height, depth, arraySize, rowPitch, slicePitch, hostBytes };
    let native;
    try {
      native = this.addon.createImage(this.native, flags, [format.orderValue, format.typeValue], desc, options.data);
    } catch (error) {
      throw this.#unsupportedFormat(error, format, options.access, type) ?? error;
    }
    return new CLImage(native, this);
  }

  // Some drivers (PoCL) answer a format they lack with CL_INVALID_OPERATION, not
  // CL_IMAGE_FORMAT_NOT_SUPPORTED: say what was asked and what there is.
  #unsupportedFormat(error: unknown, format: ResolvedImageFormat, access: Access | undefined, type: ImageType): OpenCLError | undefined {
    if (!(error instanceof OpenCLError) || (error.status !== CL_INVALID_OPERATION && error.status !== CL_IMAGE_FORMAT_NOT_SUPPORTED))
      return undefined;
    let supported: ResolvedImageFormat[];
    try {
      supported = this.supportedImageFormats({ access, type });
    } catch {
      return undefined;
    }
    if (supported.some((f) => f.orderValue === format.orderValue && f.typeValue === format.typeValue)) return undefined;
    const orders = [...new Set(supported.filter((f) => f.typeValue === format.typeValue).map((f) => f.order))];
    return new OpenCLError(
      error.status,
      error.call,
      `the format ${format.order}/${format.type} is not among the ${type} image formats this context supports for access '${access ?? 'read-write'}' ` +
        `(context.supportedImageFormats()); with ${format.type} it has ${orders.length ? orders.join(', ') : 'none'}`,
    );
  }

  // Sizes beyond every device's limits: the driver's error would not say which limit.
  #checkImageLimits(type: ImageType, width: number, height: number, depth: number): void {
    const limits = this.devices.map((device) => device.imageLimits);
    const check = (value: number, what: string, pick: (l: (typeof limits)[number]) => number) => {
      const max = Math.max(...limits.map(pick));
      if (max > 0 && value > max) throw new RangeError(`${what} ${value} exceeds the devices' limit of ${max}`);
    };
    if (type === '3d') {
      check(width, 'width', (l) => l.width3d);
      check(height, 'height', (l) => l.height3d);
      check(depth, 'depth', (l) => l.depth3d);
    } else {
      check(width, 'width', (l) => l.width2d);
      if (type === '2d' || type === '2d-array') check(height, 'height', (l) => l.height2d);
    }
  }

  /** Image formats the context supports for an access mode and image type. */
  supportedImageFormats(options: { access?: Access; type?: ImageType } = {}): ResolvedImageFormat[] {
    const typeValue = ownValue(imageTypes, options.type ?? '2d');
    if (typeValue === undefined) throw new TypeError(`type must be one of ${Object.keys(imageTypes).join(', ')}`);
    const pairs = this.addon.supportedImageFormats(this.native, accessFlags(options.access), typeValue);
    const formats: ResolvedImageFormat[] = [];
    for (let i = 0; i + 1 < pairs.length; i += 2) {
      try {
        formats.push(resolveImageFormat({ order: pairs[i]!, type: pairs[i + 1]! }));
      } catch {
        // A vendor-specific format this package has no name for.
      }
    }
    return formats;
  }

  /** A program from OpenCL C source; call build() next. */
  createProgram(source: string): Program {
    if (typeof source !== 'string' || source === '') throw new TypeError('source must be a non-empty string');
    return new Program(this.addon.createProgramWithSource(this.native, source), this);
  }

  /** A program of the devices' built-in kernels (see Device.builtInKernels). */
  createProgramWithBuiltInKernels(names: readonly string[], devices: readonly Device[] = this.devices): Program {
    if (!Array.isArray(names) || names.length === 0 || !names.every((n) => typeof n === 'string' && n !== '')) {
      throw new TypeError('names must be a non-empty array of kernel names');
    }
    if (!Array.isArray(devices) || devices.length === 0 || devices.some((d) => !this.devices.includes(d))) {
      throw new TypeError('devices must be devices of this context');
    }
    const native = this.addon.createProgramWithBuiltInKernels(
      this.native,
      devices.map((d) => d.native),
      names.join(';'),
    );
    return new Program(native, this);
  }

  createSampler(options: SamplerOptions = {}): Sampler {
    const addressing = ownValue(addressingModes, options.addressing ?? 'clamp-to-edge');
    const filter = ownValue(filterModes, options.filter ?? 'nearest');
    if (addressing === undefined) throw new TypeError(`addressing must be one of ${Object.keys(addressingModes).join(', ')}`);
    if (filter === undefined) throw new TypeError(`filter must be one of ${Object.keys(filterModes).join(', ')}`);
    const normalized = options.normalizedCoords ?? false;
    const props =
      this.#modern() && hasEntryPoint('clCreateSamplerWithProperties')
        ? [
            BigInt(CL.CL_SAMPLER_NORMALIZED_COORDS),
            normalized ? 1n : 0n,
            BigInt(CL.CL_SAMPLER_ADDRESSING_MODE),
            BigInt(addressing),
            BigInt(CL.CL_SAMPLER_FILTER_MODE),
            BigInt(filter),
          ]
        : null;
    return new Sampler(this.addon.createSampler(this.native, normalized, addressing, filter, props), this);
  }

  /** An event the application completes with setStatus(). */
  createUserEvent(): UserEvent {
    return new UserEvent(this.addon.createUserEvent(this.native), this);
  }
}

/** A table's own value for a key (never an inherited one such as 'toString'). */
function ownValue<T>(table: Readonly<Record<string, T>>, key: unknown): T | undefined {
  return typeof key === 'string' && Object.hasOwn(table, key) ? table[key] : undefined;
}

/** Shorthand for Context.create(options). */
export function createContext(options: ContextOptions = {}): Context {
  return Context.create(options);
}

declare module './links' {
  // Context is what links.ts calls ContextLink.
  interface ContextLink extends Context {}
}
