// Buffers and 2D images with memory of their own, exportable for another API
// (OpenCL's cl_khr_external_memory) to import; contents go in and out through
// staging buffers, off the JavaScript thread's way (every transfer is a promise).
import { constants as bufferConstants } from 'node:buffer';
import type { NativeVkBuffer, NativeVkImage } from './native-types';
import { describeValue } from '../errors';
import { NativeHolder } from '../holder';
import { checkBytes, checkInt, checkOptions } from '../validate';
import type { VulkanDeviceLink } from './links';
import { VulkanDisposedError, VulkanNotSupportedError } from './errors';
import { MEMORY_HANDLE_BITS, VulkanExportedHandle, handleTypeNames, type VulkanMemoryHandleType } from './handles';

/** @internal */
export function checkMemoryHandleType(
  device: VulkanDeviceLink,
  exportTypes: readonly VulkanMemoryHandleType[],
  handleType: unknown,
): VulkanMemoryHandleType {
  const type = handleType ?? exportTypes[0];
  if (type === undefined)
    throw new VulkanNotSupportedError('memory export', device.name, 'this memory was made without export types (the device exports none)');
  if (typeof type !== 'string' || !(type in MEMORY_HANDLE_BITS)) {
    throw new TypeError(
      `handleType must be one of ${Object.keys(MEMORY_HANDLE_BITS)
        .map((t) => `'${t}'`)
        .join(', ')}; got ${describeValue(type)}`,
    );
  }
  const t = type as VulkanMemoryHandleType;
  if (!exportTypes.includes(t)) {
    throw new VulkanNotSupportedError(
      `memory export as '${t}'`,
      device.name,
      `this memory was made exportable as ${exportTypes.map((x) => `'${x}'`).join(', ') || 'nothing'} (the device exports ${device.memoryHandleTypes.map((x) => `'${x}'`).join(', ') || 'none'})`,
    );
  }
  return t;
}

/** The most bytes one read-back returns: the largest Uint8Array this Node.js makes (buffer.constants.MAX_LENGTH). */
const MAX_READ_BYTES = bufferConstants.MAX_LENGTH;

// The array a read-back fills, made before anything is submitted: a failed
// allocation is a RangeError here, where in the completion callback it would abort the process.
function readTarget(bytes: number, what: string): Uint8Array {
  try {
    return new Uint8Array(bytes);
  } catch (error) {
    throw new RangeError(`${what} needs ${bytes} bytes of JavaScript memory, which could not be allocated (${(error as Error).message})`, {
      cause: error,
    });
  }
}

/**
 * dispose() frees the memory once no submission in flight uses it (importers
 * keep their own reference to it).
 */
abstract class VulkanMemoryResource<N extends NativeVkBuffer | NativeVkImage> extends NativeHolder<N> {
  readonly device: VulkanDeviceLink;
  /** The handle types the memory may be exported as (fixed at creation). */
  readonly exportTypes: readonly VulkanMemoryHandleType[];
  /** Bytes of the allocation (VkMemoryRequirements.size): what an importer maps. */
  readonly allocationSize: number;
  /** Whether the allocation is dedicated to this resource (VkMemoryDedicatedAllocateInfo). */
  readonly dedicated: boolean;
  /** Whether the memory is host-visible (it is device-local where the device has such memory). */
  readonly hostVisible: boolean;

  /** @internal */
  constructor(device: VulkanDeviceLink, native: N) {
    super(native);
    this.device = device;
    const info = native.info();
    this.allocationSize = info.allocationSize;
    this.dedicated = info.dedicated;
    this.hostVisible = (info.memoryFlags & 0x2) !== 0;
    this.exportTypes = Object.freeze(handleTypeNames(MEMORY_HANDLE_BITS, info.exportTypes));
  }

  /** @internal */
  protected disposedError(): Error {
    return new VulkanDisposedError(this.kind);
  }

  abstract get kind(): string;

  /** @internal What an export says of the layout: an image's tiling; nothing for a buffer. */
  protected get exportedTiling(): 'linear' | 'optimal' | undefined {
    return undefined;
  }

  /**
   * Exports the memory (vkGetMemoryFdKHR / vkGetMemoryWin32HandleKHR): a new
   * handle each call, owned by the returned object. Default: the first of exportTypes.
   */
  exportMemory(handleType?: VulkanMemoryHandleType): VulkanExportedHandle<VulkanMemoryHandleType> {
    const native = this.native;
    const type = checkMemoryHandleType(this.device, this.exportTypes, handleType);
    return new VulkanExportedHandle(type, native.exportMemory(MEMORY_HANDLE_BITS[type]), this.allocationSize, this.dedicated, this.exportedTiling);
  }
}

/** A buffer (transfer source/destination and storage) with memory of its own. */
export class VulkanBuffer extends VulkanMemoryResource<NativeVkBuffer> {
  /** Bytes asked for. */
  readonly size: number;

  /** @internal */
  constructor(device: VulkanDeviceLink, native: NativeVkBuffer) {
    super(device, native);
    this.size = native.info().size;
  }

  get kind(): string {
    return 'VulkanBuffer';
  }

  /** Copies `data` into the buffer at `offset` (through a staging buffer, after the work submitted before it). */
  write(data: ArrayBufferView | ArrayBuffer, offset = 0): Promise<void> {
    const native = this.native;
    const bytes = checkBytes(data, 'data');
    checkInt(offset, 'offset', 0, this.size);
    if (bytes.byteLength === 0) return Promise.resolve();
    if (offset + bytes.byteLength > this.size) {
      throw new RangeError(`${bytes.byteLength} bytes at offset ${offset} do not fit in a buffer of ${this.size} bytes`);
    }
    return native.write(offset, bytes);
  }

  /** Copies `length` bytes at `offset` out of the buffer (default: to its end), after the work submitted before. */
  read(offset = 0, length?: number): Promise<Uint8Array> {
    const native = this.native;
    checkInt(offset, 'offset', 0, this.size);
    const n = length === undefined ? this.size - offset : checkInt(length, 'length', 0, this.size - offset);
    if (n === 0) return Promise.resolve(new Uint8Array(0));
    if (n > MAX_READ_BYTES) {
      throw new RangeError(
        `a read returns at most ${MAX_READ_BYTES} bytes (the largest Uint8Array); ${length === undefined ? `the buffer holds ${n} bytes from offset ${offset}: give a length` : `got length ${n}`}`,
      );
    }
    return native.read(offset, readTarget(n, `a read of ${n} bytes`));
  }
}

export type VulkanImageFormat = 'rgba8' | 'nv12';
/** @internal VkFormat */
export const IMAGE_FORMATS: Readonly<Record<VulkanImageFormat, number>> = { rgba8: 37, nv12: 1000156003 };

/** One plane of an image. */
export interface VulkanImagePlane {
  readonly width: number;
  readonly height: number;
  /** Bytes of a texel (NV12: Y 1, UV 2; RGBA8: 4) and of a row of texels. */
  readonly texelBytes: number;
  readonly rowBytes: number;
  /** Linear tiling: where the plane lies in the memory (vkGetImageSubresourceLayout); null for optimal tiling. */
  readonly offset: number | null;
  readonly rowPitch: number | null;
  readonly size: number | null;
}

export interface VulkanPlaneOptions {
  /** Bytes from one row to the next in the JavaScript memory (default: rowBytes, packed). */
  pitch?: number;
}

/** A 2D image (RGBA8 or NV12) in VK_IMAGE_LAYOUT_GENERAL, with memory of its own. */
export class VulkanImage extends VulkanMemoryResource<NativeVkImage> {
  readonly format: VulkanImageFormat;
  readonly width: number;
  readonly height: number;
  readonly tiling: 'linear' | 'optimal';
  readonly planes: readonly VulkanImagePlane[];

  /** @internal */
  constructor(
    device: VulkanDeviceLink,
    native: NativeVkImage,
    format: VulkanImageFormat,
    width: number,
    height: number,
    tiling: 'linear' | 'optimal',
  ) {
    super(device, native);
    this.format = format;
    this.width = width;
    this.height = height;
    this.tiling = tiling;
    this.planes = Object.freeze(
      native.info().planes.map((p) =>
        Object.freeze({
          width: p.width,
          height: p.height,
          texelBytes: p.texelBytes,
          rowBytes: p.width * p.texelBytes,
          offset: p.offset ?? null,
          rowPitch: p.rowPitch ?? null,
          size: p.size ?? null,
        }),
      ),
    );
  }

  protected override get exportedTiling(): 'linear' | 'optimal' {
    return this.tiling;
  }

  get kind(): string {
    return 'VulkanImage';
  }

  #plane(plane: unknown): VulkanImagePlane {
    const index = checkInt(plane, 'plane', 0, this.planes.length - 1);
    return this.planes[index]!;
  }

  /** Writes one plane: rows of rowBytes bytes, options.pitch apart in `data`. */
  writePlane(plane: number, data: ArrayBufferView | ArrayBuffer, options?: VulkanPlaneOptions): Promise<void> {
    const native = this.native;
    const p = this.#plane(plane);
    const bytes = checkBytes(data, 'data');
    const { pitch = p.rowBytes } = checkOptions<VulkanPlaneOptions>(options, 'options', ['pitch']);
    checkInt(pitch, 'options.pitch', p.rowBytes);
    const needed = pitch * (p.height - 1) + p.rowBytes;
    if (bytes.byteLength < needed) {
      throw new RangeError(
        `plane ${plane} of a ${this.width}x${this.height} ${this.format} image is ${p.height} rows of ${p.rowBytes} bytes: data needs ${needed} bytes at pitch ${pitch}; it has ${bytes.byteLength}`,
      );
    }
    return native.write(plane, bytes, pitch);
  }

  /** Reads one plane: rows of rowBytes bytes, options.pitch apart in the result. */
  readPlane(plane: number, options?: VulkanPlaneOptions): Promise<Uint8Array> {
    const native = this.native;
    const p = this.#plane(plane);
    const { pitch = p.rowBytes } = checkOptions<VulkanPlaneOptions>(options, 'options', ['pitch']);
    // The result is pitch x (rows - 1) + rowBytes bytes: the pitch is bounded so that it fits in one Uint8Array.
    const maxPitch = p.height > 1 ? Math.floor((MAX_READ_BYTES - p.rowBytes) / (p.height - 1)) : Number.MAX_SAFE_INTEGER;
    if (typeof pitch !== 'number' || !Number.isInteger(pitch) || pitch < p.rowBytes || pitch > maxPitch) {
      throw new RangeError(
        `options.pitch must be an integer from ${p.rowBytes} (a row of plane ${plane}) to ${maxPitch} (the result, pitch x ${p.height - 1} + ${p.rowBytes} bytes, ` +
          `must fit in a Uint8Array of at most ${MAX_READ_BYTES} bytes); got ${describeValue(pitch)}`,
      );
    }
    return native.read(plane, pitch, readTarget(pitch * (p.height - 1) + p.rowBytes, `plane ${plane} at pitch ${pitch}`));
  }
}
