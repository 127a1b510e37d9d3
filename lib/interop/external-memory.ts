// cl_khr_external_memory (+ _opaque_fd, _dma_buf, _win32): buffers and images
// imported from memory another API exported (Vulkan, a VA-API surface's
// DMA-BUF, Electron's shared textures), acquired and released through the
// one enqueue path (queue.acquire(), `await using`). Ordinary contexts: no
// interop context property, no device query.
import type { NativeExternalMemory, NativePropertyList } from './native-types';
import { CL } from '../facts/cl-constants';
import { Context } from '../context';
import { Device } from '../device';
import { OpenCLError, OpenCLExtensionError, describeValue } from '../errors';
import { STATUS } from '../facts/cl-status';
import type { Event } from '../event';
import { type ImageFormat, resolveImageFormat } from '../facts/cl-image-formats';
import { type Access, CLBuffer, CLImage, type MemObject } from '../memory';
import { ready } from '../loader';
import type { Platform } from '../platform';
import type { CommandQueue } from '../queue';
import type { VaDmaBuf } from '../va/dma-buf';
import { type HandleOwnership, externalMemoryRecord } from './extensions';
import { OpenCLHandleTypeError, OpenCLImageLayoutError } from './external-errors';
import {
  type DmaBufPlanes,
  type ElectronTextureInfo,
  type ExternalPlane,
  type ImportedFrame,
  type NativePixmap,
  type PlaneFormat,
  checkLayout,
  checkPlacement,
  dmaBufDescriptor,
  dmaBufObjects,
  planesOf,
} from './external-frames';
import { type CheckedHandle, type ExporterTiling, checkHandle, handleTypeNames, importWithOwnership, optionalUints } from './external-handles';
import { facadeOf } from './facades';
import { isOpenFd } from '../os-handle';
import { checkChoice, checkCount, readOnce } from '../validate';
import { SharedObject, SharingFacade, sharedRecord } from './sharing';

export type ExternalMemoryHandleType = keyof typeof externalMemoryRecord.handleTypes;
export const externalMemoryHandleTypes = Object.freeze(Object.keys(externalMemoryRecord.handleTypes)) as readonly ExternalMemoryHandleType[];

/**
 * Memory another API exported. A plain object does, and so do the Vulkan
 * module's exports (which add relinquish() and disposed).
 */
export interface ExternalMemoryHandle {
  readonly handleType: ExternalMemoryHandleType;
  /** A file descriptor (opaque-fd, dma-buf), a HANDLE as a bigint (opaque-win32, -kmt), or the object's name (opaque-win32-name). */
  readonly handle: number | bigint | string;
  /** Bytes of the allocation. */
  readonly size: number;
  /** The exporter gives up the handle (its dispose will not close it): called after an import that took it. */
  relinquish?(): void;
  /** An exporter's object already disposed: its handle is gone. */
  readonly disposed?: boolean;
  /** Images: how the exporter laid the image out (a VulkanImage's exportMemory() says). */
  readonly tiling?: ExporterTiling;
}

export interface ExternalImportOptions {
  /** How kernels may access the memory (default 'read-write'). */
  access?: Access;
  /**
   * The context's devices that use the memory (CL_MEM_DEVICE_HANDLE_LIST_KHR):
   * acquire and release then run on their queues only. Default: every device
   * of the context (no list is passed).
   */
  devices?: readonly Device[];
  /**
   * File descriptors: import a duplicate, so the caller keeps its own
   * descriptor (and closes it). Default false: a successful import takes the
   * descriptor, as the spec says, and calls the handle's relinquish().
   */
  duplicate?: boolean;
}

export interface ExternalBufferOptions extends ExternalImportOptions {
  /** Bytes to import (default: the handle's size). */
  size?: number;
}

export interface ExternalImageOptions extends ExternalImportOptions {
  format: ImageFormat;
  width: number;
  height?: number;
  depth?: number;
  arraySize?: number;
  /** Default: '3d' when depth > 1, '2d' when height is given, else '1d'. */
  type?: '1d' | '2d' | '3d' | '1d-array' | '2d-array';
  /** The exporter's layout, where the driver takes one (default 0: the driver's own). */
  rowPitch?: number;
  slicePitch?: number;
  /**
   * How the exporter laid the image out (default: the handle's `tiling`; a
   * VulkanImage's exportMemory() carries it). Checked against the devices'
   * CL_DEVICE_EXTERNAL_MEMORY_IMPORT_ASSUME_LINEAR_IMAGES_HANDLE_TYPES_KHR: a
   * driver reads images of the handle types it lists as linear rows, and the
   * others in a layout of its own, so an import whose tiling the driver would
   * read another way is refused (OpenCLImageLayoutError). Not given anywhere:
   * not checked.
   */
  tiling?: ExporterTiling;
}

export interface PlanesOptions extends ExternalBufferOptions {
  format: PlaneFormat;
  width: number;
  height: number;
  /** One per plane of the format (NV12 / P010: Y, then UV). */
  planes: readonly ExternalPlane[];
  /**
   * 'buffers' (default): a sub-buffer per plane. 'images': a 2D image per
   * plane over that sub-buffer (cl_khr_image2d_from_buffer; the pitch and
   * offset must meet the device's alignments).
   */
  as?: 'buffers' | 'images';
}

export interface DmaBufImportOptions extends Omit<ExternalImportOptions, 'duplicate'> {
  as?: 'buffers' | 'images';
  /** For a NativePixmap: its format, width and height (Electron's textureInfo gives pixelFormat and codedSize). */
  format?: PlaneFormat;
  width?: number;
  height?: number;
  /**
   * Accept DRM_FORMAT_MOD_INVALID (the producer's implicit layout) as linear.
   * Any other non-linear modifier is refused: offsets and pitches do not
   * describe tiled memory.
   */
  assumeLinear?: boolean;
}

const imageTypes = {
  '1d': CL.CL_MEM_OBJECT_IMAGE1D,
  '2d': CL.CL_MEM_OBJECT_IMAGE2D,
  '3d': CL.CL_MEM_OBJECT_IMAGE3D,
  '1d-array': CL.CL_MEM_OBJECT_IMAGE1D_ARRAY,
  '2d-array': CL.CL_MEM_OBJECT_IMAGE2D_ARRAY,
} as const;

/** An import checked and ready for the driver (ExternalMemory's #prepare). */
interface Prepared {
  checked: CheckedHandle<ExternalMemoryHandleType>;
  flags: bigint;
  devices: Device[] | null;
  properties: (value: number | bigint | string) => NativePropertyList;
}

/** What the binding records of one imported memory object (ExternalMemory.importInfo). */
export interface ExternalMemoryDetails {
  handleType: ExternalMemoryHandleType;
  /** Whose the handle is now: 'transferred' (OpenCL's) or 'kept' (the caller's). */
  ownership: HandleOwnership;
  /** The devices it was imported for (CL_MEM_DEVICE_HANDLE_LIST_KHR), or null for every device of the context. */
  devices: readonly Device[] | null;
}

/**
 * cl_khr_external_memory on one platform. Get it with
 * getExternalMemory(platform) (or platform.getSharing('cl_khr_external_memory')).
 */
export class ExternalMemory extends SharingFacade<NativeExternalMemory> {
  readonly #details = new WeakMap<MemObject, ExternalMemoryDetails>();

  /** @internal */
  constructor(platform: Platform) {
    // The creating calls are OpenCL 3.0's, which cl_khr_external_memory builds on: a platform that
    // advertises it fills their dispatch slots, so the loader's export reaches them when the platform
    // does not answer for them by name (the reference driver, an OpenCL 1.2 platform, does the same).
    super(
      platform,
      externalMemoryRecord,
      (legacy, names) => new (ready().NativeExternalMemory)(platform.native, legacy, names, externalMemoryRecord.creatingCalls, true),
    );
  }

  /**
   * Handle types the platform's devices can all import
   * (CL_PLATFORM_EXTERNAL_MEMORY_IMPORT_HANDLE_TYPES_KHR), or one device can
   * (CL_DEVICE_EXTERNAL_MEMORY_IMPORT_HANDLE_TYPES_KHR).
   */
  importHandleTypes(device?: Device): ExternalMemoryHandleType[] {
    const { queries, handleTypes } = externalMemoryRecord;
    if (device === undefined)
      return handleTypeNames(
        optionalUints(() => this.platform.info(queries.platformImportHandleTypes)),
        handleTypes,
      ) as ExternalMemoryHandleType[];
    return [...this.#deviceImportTypes(device)];
  }

  // A device's import handle types do not change: asked once (every import checks them).
  readonly #importTypes = new WeakMap<Device, readonly ExternalMemoryHandleType[]>();
  #deviceImportTypes(device: Device): readonly ExternalMemoryHandleType[] {
    let types = this.#importTypes.get(device);
    if (!types) {
      const { queries, handleTypes } = externalMemoryRecord;
      const tokens = optionalUints(() => this.#device(device, 'device').info(queries.deviceImportHandleTypes));
      this.#importTypes.set(device, (types = Object.freeze(handleTypeNames(tokens, handleTypes) as ExternalMemoryHandleType[])));
    }
    return types;
  }

  /** Handle types whose imported images the device lays out linearly when nothing else is said (..._ASSUME_LINEAR_IMAGES_...). */
  assumeLinearImageHandleTypes(device: Device): ExternalMemoryHandleType[] {
    const { queries, handleTypes } = externalMemoryRecord;
    return handleTypeNames(
      optionalUints(() => this.#device(device, 'device').info(queries.deviceAssumeLinearImageHandleTypes)),
      handleTypes,
    ) as ExternalMemoryHandleType[];
  }

  /**
   * Imports memory as a buffer (clCreateBufferWithProperties with the
   * handle). Acquire it before commands use it: `await using scope =
   * queue.acquire([buffer])`. A file descriptor becomes OpenCL's on success
   * (see ExternalImportOptions.duplicate); Windows handles stay the caller's.
   */
  importBuffer(context: Context, handle: ExternalMemoryHandle, options: ExternalBufferOptions = {}): CLBuffer {
    const opts = readOnce(options, 'options', ['access', 'devices', 'duplicate', 'size']);
    const prepared = this.#prepare(context, handle, opts, 'handle');
    return this.#importBuffer(context, prepared, opts);
  }

  #importBuffer(context: Context, prepared: Prepared, opts: Pick<ExternalBufferOptions, 'size' | 'duplicate'>): CLBuffer {
    const { checked, flags, devices, properties } = prepared;
    const size = opts.size ?? checked.size;
    checkCount(size, opts.size === undefined ? 'handle.size' : 'options.size', 1);
    const description = `external memory (${checked.handleType}, ${size} bytes)`;
    return importWithOwnership(
      checked,
      opts.duplicate === true,
      (value) => this.native.createBuffer(context.native, properties(value), flags, size),
      (native) => this.#adopt(new CLBuffer(native, context), checked, flags, devices, description),
      size,
    );
  }

  /** Imports memory as an image (clCreateImageWithProperties with the handle); otherwise as importBuffer(). */
  importImage(context: Context, handle: ExternalMemoryHandle, options: ExternalImageOptions): CLImage {
    if (options === null || typeof options !== 'object')
      throw new TypeError(`options must be an object { format, width, ... }; got ${describeValue(options)}`);
    const opts = readOnce(options, 'options', [
      'access',
      'devices',
      'duplicate',
      'format',
      'width',
      'height',
      'depth',
      'arraySize',
      'type',
      'rowPitch',
      'slicePitch',
      'tiling',
    ]);
    const format = resolveImageFormat(opts.format);
    const { width, height = 0, depth = 0, arraySize = 0, rowPitch = 0, slicePitch = 0 } = opts;
    checkCount(width, 'width', 1);
    for (const [name, value] of Object.entries({ height, depth, arraySize, rowPitch, slicePitch })) checkCount(value, name);
    const type = opts.type ?? (depth > 1 ? '3d' : height > 0 ? '2d' : '1d');
    const typeValue = imageTypes[type as keyof typeof imageTypes];
    if (!Object.hasOwn(imageTypes, type) || typeValue === undefined)
      throw new TypeError(`type must be one of ${Object.keys(imageTypes).join(', ')}; got ${describeValue(type)}`);
    const prepared = this.#prepare(context, handle, opts, 'handle');
    const { checked, flags, devices, properties } = prepared;
    // Only an absent options.tiling defers to the handle's (null is a wrong value, as for every option).
    const fromOptions = opts.tiling !== undefined;
    const given = fromOptions ? opts.tiling : checked.tiling;
    const tiling =
      given === undefined ? undefined : checkChoice(given, fromOptions ? 'options.tiling' : 'handle.tiling', ['linear', 'optimal'] as const);
    if (tiling !== undefined) {
      for (const device of devices ?? context.devices) {
        const assumedLinear = this.assumeLinearImageHandleTypes(device).includes(checked.handleType);
        if (assumedLinear !== (tiling === 'linear')) {
          throw new OpenCLImageLayoutError(checked.handleType, tiling, device.name);
        }
      }
    }
    const desc = { type: typeValue, width, height, depth, arraySize, rowPitch, slicePitch };
    const description = `external image (${checked.handleType}, ${width}x${Math.max(height, 1)} ${format.order}/${format.type})`;
    return importWithOwnership(
      checked,
      opts.duplicate === true,
      (value) => this.native.createImage(context.native, properties(value), flags, [format.orderValue, format.typeValue], desc),
      (native) => this.#adopt(new CLImage(native, context), checked, flags, devices, description),
    );
  }

  /**
   * Imports one allocation that holds the planes of a frame (NV12 / P010: Y
   * then UV, each at `{ offset, pitch }`; RGBA / BGRA: one plane) and gives a
   * sub-buffer, or an image over it, per plane. Acquire `frame.memory`.
   */
  importPlanes(context: Context, handle: ExternalMemoryHandle, options: PlanesOptions): ImportedFrame {
    if (options === null || typeof options !== 'object')
      throw new TypeError(`options must be an object { format, width, height, planes }; got ${describeValue(options)}`);
    const opts = readOnce(options, 'options', ['access', 'devices', 'duplicate', 'size', 'format', 'width', 'height', 'planes', 'as']);
    const layout = checkLayout(opts.format, opts.width, opts.height, opts.planes, opts.as);
    const prepared = this.#prepare(context, handle, opts, 'handle');
    const size = opts.size ?? prepared.checked.size;
    checkCount(size, opts.size === undefined ? 'handle.size' : 'options.size', 1);
    checkPlacement(context, layout.planes, () => size);
    const memory = this.#importBuffer(context, prepared, { size, duplicate: opts.duplicate });
    return planesOf(
      context,
      [memory],
      layout.planes.map((p) => ({ ...p, object: 0 })),
      layout,
      opts.access,
    );
  }

  /**
   * Imports DMA-BUF planes (cl_khr_external_memory_dma_buf): a VaDmaBuf the
   * VA module exported, Electron's Linux shared texture (its `nativePixmap`,
   * or the textureInfo holding it), or planes of fds. The descriptors are
   * duplicated: their owner keeps (and closes) its own.
   */
  importDmaBuf(
    context: Context,
    source: VaDmaBuf | NativePixmap | DmaBufPlanes | ElectronTextureInfo,
    options: DmaBufImportOptions = {},
  ): ImportedFrame {
    const opts = readOnce(options, 'options', ['access', 'devices', 'as', 'format', 'width', 'height', 'assumeLinear']);
    const desc = dmaBufDescriptor(source, opts);
    const layout = checkLayout(desc.format, desc.width, desc.height, desc.planes, opts.as);
    const { fds, sizes, planes } = dmaBufObjects(source, desc, layout);
    checkPlacement(context, planes, (object) => sizes[object]!);
    const memory: CLBuffer[] = [];
    try {
      for (const [object, fd] of fds.entries()) {
        const size = sizes[object]!;
        memory.push(
          this.importBuffer(context, { handleType: 'dma-buf', handle: fd, size }, { access: opts.access, devices: opts.devices, duplicate: true }),
        );
      }
    } catch (error) {
      for (const mem of memory) mem.release();
      const fd = fds[memory.length]!;
      if (error instanceof TypeError && !isOpenFd(fd)) {
        throw new TypeError(
          `planes[${desc.planes.findIndex((p) => p.fd === fd)}].fd must be an open file descriptor; ${fd} was closed during the import (EBADF)`,
        );
      }
      throw error;
    }
    return planesOf(context, memory, planes, layout, opts.access);
  }

  /** What the binding knows of an imported object: its handle type, whose the handle is now, the devices it was imported for. */
  importInfo(mem: MemObject): ExternalMemoryDetails {
    sharedRecord(mem, this);
    return this.#details.get(mem)!;
  }

  /** @internal Acquire / release: a queue must be on one of the devices the memory was imported for. */
  override enqueue(which: 'acquire' | 'release', queue: CommandQueue, mems: readonly MemObject[], waitFor: readonly Event[] | undefined): Event {
    for (let i = 0; i < mems.length; i++) {
      const mem = mems[i]!;
      const devices = this.#details.get(mem)?.devices;
      if (devices && !devices.includes(queue.device)) {
        throw new OpenCLError(
          STATUS.CL_INVALID_COMMAND_QUEUE,
          externalMemoryRecord.entryPoints[which],
          `${(mem.sharing as SharedObject).description} was imported for ${devices.map((d) => `"${d.name}"`).join(', ')}; the queue is on "${queue.device.name}"`,
        );
      }
    }
    return super.enqueue(which, queue, mems, waitFor);
  }

  #device(device: unknown, what: string): Device {
    if (!(device instanceof Device)) throw new TypeError(`${what} must be a Device; got ${describeValue(device)}`);
    if (device.platform !== this.platform)
      throw new TypeError(`${what} "${device.name}" belongs to "${device.platform.name}", not "${this.platform.name}"`);
    return device;
  }

  /** Checks context, handle, access and devices (options read once by the caller); refuses a handle type a device cannot import, naming what it can. */
  #prepare(context: Context, handle: ExternalMemoryHandle, options: Pick<ExternalImportOptions, 'access' | 'devices'>, what: string): Prepared {
    if (!(context instanceof Context)) throw new TypeError(`context must be a Context; got ${describeValue(context)}`);
    if (context.platform !== this.platform) throw new TypeError(`the context belongs to "${context.platform.name}", not to "${this.platform.name}"`);
    const checked = checkHandle(handle, externalMemoryRecord.handleTypes, what);
    if (checked.record.handle === 'fd' && (checked.value as number) < 0)
      throw new TypeError(`${what}.handle of ${checked.handleType} must be a file descriptor (>= 0); got ${checked.value}`);
    const flags = SharingFacade.accessFlagsOf(options);
    let devices: Device[] | null = null;
    const list: unknown = options.devices;
    if (list !== undefined) {
      const length = Array.isArray(list) ? list.length : 0;
      if (length === 0) throw new TypeError(`options.devices must be a non-empty array of the context's devices; got ${describeValue(list)}`);
      devices = [];
      for (let i = 0; i < length; i++) {
        const checkedDevice = this.#device((list as unknown[])[i], `options.devices[${i}]`);
        if (!context.devices.includes(checkedDevice))
          throw new TypeError(`options.devices[${i}] "${checkedDevice.name}" is not a device of the context`);
        devices.push(checkedDevice);
      }
    }
    for (const device of devices ?? context.devices) {
      const supported = this.#deviceImportTypes(device);
      if (!supported.includes(checked.handleType)) {
        throw new OpenCLHandleTypeError(checked.record.extension, this.platform.name, checked.handleType, supported, device.name, 'import');
      }
    }
    const deviceList = devices;
    const properties = (value: number | bigint | string): NativePropertyList => {
      const entries: NativePropertyList = [[checked.record.token, value]];
      if (deviceList) entries.push([externalMemoryRecord.properties.deviceHandleList, deviceList.map((d) => d.native)]);
      return entries;
    };
    return { checked, flags, devices, properties };
  }

  #adopt<T extends CLBuffer | CLImage>(
    mem: T,
    checked: CheckedHandle<ExternalMemoryHandleType>,
    flags: bigint,
    devices: Device[] | null,
    description: string,
  ): T {
    const details: Record<string, number | bigint> = { handleType: checked.record.token };
    if (typeof checked.value !== 'string') details.handle = checked.value;
    mem.sharing = new SharedObject(this as SharingFacade<NativeExternalMemory>, description, details, flags);
    this.#details.set(
      mem,
      Object.freeze({ handleType: checked.handleType, ownership: checked.record.ownership, devices: devices && Object.freeze(devices) }),
    );
    // A KMT handle holds no reference to the memory: the exporter's object stays alive as long as the import.
    if (checked.record.handle === 'kmt' && typeof checked.source === 'object') mem.keepAlive(() => {}, checked.source);
    return mem;
  }
}

/**
 * The cl_khr_external_memory facade of a platform (created once). Throws
 * OpenCLExtensionError when the platform and its devices do not advertise
 * the extension or an entry point does not resolve.
 */
export function getExternalMemory(platform: Platform): ExternalMemory {
  return facadeOf(platform, externalMemoryRecord.name, ExternalMemory);
}

/**
 * Imports DMA-BUF planes into a context (see ExternalMemory.importDmaBuf):
 * an OpenCLExtensionError naming cl_khr_external_memory_dma_buf where the
 * platform does not advertise it.
 */
export function importDmaBuf(
  context: Context,
  source: VaDmaBuf | NativePixmap | DmaBufPlanes | ElectronTextureInfo,
  options?: DmaBufImportOptions,
): ImportedFrame {
  if (!(context instanceof Context)) throw new TypeError(`context must be a Context; got ${describeValue(context)}`);
  const extension = externalMemoryRecord.handleTypes['dma-buf'].extension;
  if (!context.platform.supports(extension)) {
    throw new OpenCLExtensionError(
      extension,
      context.platform.name,
      'neither the platform nor its devices advertise it: DMA-BUF planes cannot be imported here',
    );
  }
  return getExternalMemory(context.platform).importDmaBuf(context, source, options);
}
