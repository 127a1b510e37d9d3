// cl_khr_external_memory (+ _opaque_fd, _dma_buf, _win32): buffers and images
// imported from memory another API exported (Vulkan, a VA-API surface's
// DMA-BUF, Electron's shared textures), acquired and released through the
// one enqueue path (queue.acquire(), `await using`). Ordinary contexts: no
// interop context property, no device query.
import { type Stats, fstatSync, readlinkSync, statSync } from 'node:fs';
import type { NativeExternalMemory, NativePropertyList } from '../addon';
import { CL } from '../facts/cl-constants';
import { Context } from '../context';
import { Device } from '../device';
import { OpenCLError, OpenCLExtensionError, OpenCLReleasedError, describeValue } from '../errors';
import { STATUS } from '../facts/cl-status';
import type { Event } from '../event';
import { type ImageFormat, resolveImageFormat } from '../facts/cl-image-formats';
import { decode } from '../info';
import { ready } from '../loader';
import { type Access, CLBuffer, CLImage, type MemObject } from '../memory';
import type { Platform } from '../platform';
import type { CommandQueue } from '../queue';
import { VaDmaBuf } from '../va/dma-buf';
import { type ExternalHandleTypeRecord, type HandleOwnership, externalMemoryRecord } from './extensions';
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

/**
 * How an exporter laid an image out: 'linear' (rows at a pitch) or 'optimal'
 * (the GPU's own tiling, as Vulkan's VK_IMAGE_TILING_OPTIMAL).
 */
export type ExporterTiling = 'linear' | 'optimal';

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

/** One plane of an imported allocation: where its first row starts and the bytes from one row to the next. */
export interface ExternalPlane {
  offset: number;
  pitch: number;
}

/** Formats whose planes importPlanes() and importDmaBuf() know. */
export type PlaneFormat = 'NV12' | 'P010' | 'RGBA' | 'BGRA';

interface PlaneFacts {
  /** Divisors of width and height. */
  sub: number;
  bytesPerPixel: number;
  format: ImageFormat;
}
const planeFacts: Readonly<Record<PlaneFormat, readonly PlaneFacts[]>> = {
  NV12: [
    { sub: 1, bytesPerPixel: 1, format: { order: 'R', type: 'UNORM_INT8' } },
    { sub: 2, bytesPerPixel: 2, format: { order: 'RG', type: 'UNORM_INT8' } },
  ],
  P010: [
    { sub: 1, bytesPerPixel: 2, format: { order: 'R', type: 'UNORM_INT16' } },
    { sub: 2, bytesPerPixel: 4, format: { order: 'RG', type: 'UNORM_INT16' } },
  ],
  RGBA: [{ sub: 1, bytesPerPixel: 4, format: { order: 'RGBA', type: 'UNORM_INT8' } }],
  BGRA: [{ sub: 1, bytesPerPixel: 4, format: { order: 'BGRA', type: 'UNORM_INT8' } }],
};

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

/** Planes of imported memory. Acquire `memory`; the planes follow it. */
export class ImportedFrame {
  readonly format: PlaneFormat;
  readonly width: number;
  readonly height: number;
  /** The imported allocations (one per distinct file descriptor): what queue.acquire() takes. */
  readonly memory: readonly CLBuffer[];
  /** One per plane: sub-buffers, or images over them. */
  readonly planes: readonly (CLBuffer | CLImage)[];
  readonly #owned: MemObject[];

  /** @internal */
  constructor(format: PlaneFormat, width: number, height: number, memory: CLBuffer[], planes: (CLBuffer | CLImage)[], owned: MemObject[]) {
    this.format = format;
    this.width = width;
    this.height = height;
    this.memory = Object.freeze(memory);
    this.planes = Object.freeze(planes);
    this.#owned = owned;
  }

  /** Releases the planes and the imported memory (it must not be acquired). Idempotent. */
  release(): void {
    for (const mem of this.memory) {
      if (mem.acquired) mem.release(); // throws the "still acquired" OpenCLStateError before anything is released
    }
    for (const mem of [...this.planes, ...this.#owned, ...this.memory]) mem.release();
  }

  [Symbol.dispose](): void {
    this.release();
  }
}

/** Electron's Linux shared texture (`paint` event, `texture.textureInfo.handle.nativePixmap`). */
export interface NativePixmap {
  readonly planes: readonly { readonly fd: number; readonly stride: number; readonly offset: number; readonly size: number }[];
  /** DRM format modifier, a decimal string as Electron gives it (or a bigint). */
  readonly modifier?: string | bigint;
}

/** What importDmaBuf() takes: planes of DMA-BUF file descriptors with their layout. */
export interface DmaBufPlanes {
  format: PlaneFormat;
  width: number;
  height: number;
  planes: readonly { fd: number; offset?: number; pitch: number; size?: number }[];
  /** DRM format modifier (default linear). */
  modifier?: string | bigint;
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

const DRM_FORMAT_MOD_LINEAR = 0n;
const DRM_FORMAT_MOD_INVALID = 0xffffffffffffffn;

/**
 * A handle type the devices cannot import (or export): names the handle
 * type, the extension that defines it, and what the device does support.
 */
export class OpenCLHandleTypeError extends OpenCLExtensionError {
  override name = 'OpenCLHandleTypeError';
  readonly handleType: string;
  /** The handle types the device (or platform) supports. */
  readonly supported: readonly string[];
  readonly device: string | undefined;
  constructor(extension: string, platform: string, handleType: string, supported: readonly string[], device: string | undefined, action: 'import' | 'export') {
    const where = device === undefined ? `the platform's devices` : `device "${device}"`;
    super(
      extension,
      platform,
      `${where} cannot ${action} ${handleType} handles; ${action}able: ${supported.length ? supported.join(', ') : 'none'}`,
    );
    this.handleType = handleType;
    this.supported = Object.freeze([...supported]);
    this.device = device;
  }
}

/**
 * An image import the driver would read with another layout than the
 * exporter's: a linear image of a handle type the device does not list as
 * assumed linear (it reads those in its own, implementation-defined layout),
 * or an optimal-tiling image of one it does list (it reads those as rows).
 */
export class OpenCLImageLayoutError extends Error {
  override name = 'OpenCLImageLayoutError';
  readonly handleType: string;
  readonly tiling: ExporterTiling;
  readonly device: string;
  constructor(handleType: string, tiling: ExporterTiling, device: string) {
    const listed = tiling === 'optimal';
    super(
      `importImage: a ${tiling} image would be read in another layout: device "${device}" ${listed ? 'lists' : 'does not list'} ${handleType} in ` +
        `CL_DEVICE_EXTERNAL_MEMORY_IMPORT_ASSUME_LINEAR_IMAGES_HANDLE_TYPES_KHR, so it reads images imported from such handles ` +
        `${listed ? 'as linear rows' : 'in a layout of its own (implementation-defined)'} and the pixels would come out scrambled. ` +
        (listed
          ? 'Export a linear image and pass its row pitch.'
          : "Export an optimal-tiling image (the driver's layout where the two APIs share one), or import the linear image's memory as a buffer (importBuffer, or importPlanes with its offset and row pitch)."),
    );
    this.handleType = handleType;
    this.tiling = tiling;
    this.device = device;
  }
}

/** @internal Names of the handle types a query's tokens stand for (unknown tokens as 0x hex). */
export function handleTypeNames(tokens: readonly number[], table: Readonly<Record<string, ExternalHandleTypeRecord>>): string[] {
  return tokens.map((token) => Object.keys(table).find((name) => table[name]!.token === token) ?? `0x${token.toString(16)}`);
}

/** @internal A uint-list query that a device without the extension answers with CL_INVALID_VALUE: then []. */
export function optionalUints(query: () => Uint8Array): number[] {
  try {
    return decode.uints(query());
  } catch (error) {
    if (error instanceof OpenCLError && error.status === STATUS.CL_INVALID_VALUE) return [];
    throw error;
  }
}

/** @internal A checked handle: its record and the value the property list carries. */
export interface CheckedHandle<T extends string> {
  handleType: T;
  record: ExternalHandleTypeRecord;
  value: number | bigint | string;
  source: { relinquish?(): void };
  /** The argument's name in errors. */
  what: string;
  /** The handle object's size and tiling, read with the rest (each property is read once). */
  size: unknown;
  tiling: unknown;
}

/** What each file-descriptor handle type is, for the message that refuses something else. */
const expectedExports: Readonly<Record<string, string>> = {
  cl_khr_external_memory_opaque_fd:
    "memory exported as an opaque fd (vkGetMemoryFdKHR with VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT, e.g. a VulkanBuffer's or VulkanImage's exportMemory())",
  cl_khr_external_memory_dma_buf:
    "an exported DMA-BUF (vkGetMemoryFdKHR with VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT, a VA surface's exportDmaBuf(), a DRM PRIME export)",
  cl_khr_external_semaphore_opaque_fd:
    "a semaphore exported as an opaque fd (vkGetSemaphoreFdKHR with VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT, a VulkanSemaphore's exportHandle('opaque-fd'), an OpenCL semaphore's exportHandle())",
  cl_khr_external_semaphore_sync_fd:
    "a sync file (vkGetSemaphoreFdKHR with VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_SYNC_FD_BIT, a semaphore's exportHandle('sync-fd')), or -1 for a fence already signaled",
};

/**
 * @internal What an open descriptor is when that rules out an exported
 * handle (a pipe, a socket, a directory, a file with a name in the file
 * system), else undefined. Exports are memfds (lavapipe, the reference
 * driver: regular files with no name), DMA-BUFs and sync files (anonymous
 * inodes) or device files: those, and whatever cannot be told, go to the
 * driver.
 */
export function notAnExport(fd: number): string | undefined {
  let stat: Stats;
  try {
    stat = fstatSync(fd);
  } catch {
    return undefined;
  }
  if (stat.isFIFO()) return 'a pipe or FIFO';
  if (stat.isSocket()) return 'a socket';
  if (stat.isDirectory()) return 'a directory';
  if (stat.isBlockDevice()) return 'a block device';
  if (!stat.isFile()) return undefined;
  let path: string;
  try {
    path = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
  // A memfd reads "/memfd:NAME (deleted)" and a DMA-BUF "/dmabuf:...": no such path exists.
  if (!path.startsWith('/')) return undefined;
  try {
    const named = statSync(path);
    if (named.dev === stat.dev && named.ino === stat.ino) return `the regular file ${path}`;
  } catch {
    // no file of that name: not a plain file
  }
  return undefined;
}

/** @internal Checks an import's handle object against a handle-type table. Each of its properties is read once. */
export function checkHandle<T extends string>(handle: unknown, table: Readonly<Record<T, ExternalHandleTypeRecord>>, what: string): CheckedHandle<T> {
  if (handle === null || typeof handle !== 'object') throw new TypeError(`${what} must be an object { handleType, handle }; got ${describeValue(handle)}`);
  const { handleType, handle: value, disposed, size, tiling } = handle as { handleType?: unknown; handle?: unknown; disposed?: unknown; size?: unknown; tiling?: unknown };
  if (typeof handleType !== 'string' || !Object.hasOwn(table, handleType)) {
    throw new TypeError(`${what}.handleType must be one of ${Object.keys(table).join(', ')}; got ${describeValue(handleType)}`);
  }
  if (disposed === true) throw new OpenCLReleasedError(`${handleType} handle (its exporter was disposed)`);
  const record = table[handleType as T];
  switch (record.handle) {
    case 'fd': {
      // sync-fd alone takes -1 (an already signaled fence): the semaphore facade checks that.
      if (typeof value !== 'number' || !Number.isInteger(value) || value < -1 || value > 0x7fffffff) {
        throw new TypeError(`${what}.handle of ${handleType} must be a file descriptor (an integer); got ${describeValue(value)}`);
      }
      if (value < 0) break;
      // A descriptor that is not open never reaches a driver (which would take whatever opens under that number next).
      if (!isOpenFd(value)) throw new TypeError(`${what}.handle: file descriptor ${value} (${handleType}) is not open`);
      // What the driver would refuse with a status of its own (NVIDIA: 999) or take as memory it is not.
      const kind = notAnExport(value);
      if (kind !== undefined) {
        throw new TypeError(`${what}.handle: file descriptor ${value} is ${kind}, not an exported ${handleType} handle; expected ${expectedExports[record.extension] ?? `a ${handleType} descriptor from the exporting API`}`);
      }
      break;
    }
    case 'nt':
    case 'kmt':
      if (typeof value !== 'bigint' || value <= 0n || value >= 2n ** 64n) {
        throw new TypeError(`${what}.handle of ${handleType} must be a non-zero HANDLE as a bigint; got ${describeValue(value)}`);
      }
      break;
    case 'name':
      if (typeof value !== 'string' || value === '' || value.includes('\0')) {
        throw new TypeError(`${what}.handle of ${handleType} must be the object's name (a non-empty string); got ${describeValue(value)}`);
      }
      break;
  }
  return { handleType: handleType as T, record, value: value as number | bigint | string, source: handle as { relinquish?(): void }, what, size, tiling };
}

/**
 * A driver refused an imported handle: a negative status the spec names for
 * an invalid property value, or a status outside the spec (NVIDIA answers
 * a descriptor it cannot import with 999). Keeps the driver's status.
 */
export class OpenCLImportError extends OpenCLError {
  override name = 'OpenCLImportError';
  readonly handleType: string;
  constructor(status: number, call: string, handleType: string, handle: string, expected: string) {
    super(
      status,
      call,
      status > 0
        ? `the driver refused ${handle} as a ${handleType} handle (with a status outside the OpenCL spec): it is not ${expected} that this device can import`
        : `the driver found a property of the import invalid: most likely ${handle} is not ${expected} that this device can import`,
    );
    this.handleType = handleType;
  }
}

/** The import's error, as an OpenCLImportError where the driver refused the handle. */
function refusedHandle(error: unknown, checked: CheckedHandle<string>): unknown {
  if (!(error instanceof OpenCLError) || error instanceof OpenCLImportError) return error;
  if (error.status <= 0 && error.status !== STATUS.CL_INVALID_PROPERTY) return error;
  const handle = checked.record.handle === 'fd' ? `file descriptor ${checked.value}` : checked.record.handle === 'name' ? `the name "${checked.value}"` : `HANDLE 0x${(checked.value as bigint).toString(16)}`;
  return new OpenCLImportError(error.status, error.call, checked.handleType, handle, expectedExports[checked.record.extension] ?? `a ${checked.handleType} handle`);
}

/**
 * @internal Runs an import with the handle's ownership rules. A descriptor
 * is never handed to the driver itself: drivers close the one they take at
 * different times (NVIDIA's at the import, the reference driver's when the
 * object goes), so the number would be free, or not, depending on the
 * driver, and a second import of it would close whatever was opened under it
 * meanwhile (issue 22 item 5). The driver gets a duplicate; after a
 * successful import that takes the caller's descriptor (no `duplicate`),
 * the caller's is closed here, once, and the exporter's relinquish() runs.
 * A failed import closes the duplicate and leaves the caller's open.
 */
export function importWithOwnership<R, W>(
  checked: CheckedHandle<string>,
  duplicate: boolean,
  run: (value: number | bigint | string) => R,
  adopt: (native: R) => W,
): W {
  const fd = checked.record.handle === 'fd' && (checked.value as number) >= 0;
  // A sync fd is consumed by the wait it is imported for: the driver takes it as it is.
  const viaCopy = fd && checked.record.extension !== 'cl_khr_external_semaphore_sync_fd';
  const value = viaCopy ? duplicateOpen(checked) : checked.value;
  let result: R;
  try {
    result = run(value);
  } catch (error) {
    if (viaCopy) closeQuietly(value as number);
    throw refusedHandle(error, checked);
  }
  const wrapper = adopt(result);
  if (!duplicate && checked.record.ownership === 'transferred') {
    if (viaCopy) closeQuietly(checked.value as number);
    const relinquish = checked.source.relinquish;
    if (typeof relinquish === 'function') relinquish.call(checked.source);
  }
  return wrapper;
}

/**
 * A duplicate of the checked descriptor. One closed since its check (by a
 * getter of the options, or by another thread when the number was reused) is
 * refused as the check refuses it, not with fcntl's EBADF.
 */
function duplicateOpen(checked: CheckedHandle<string>): number {
  const fd = checked.value as number;
  try {
    return ready().duplicateFd(fd);
  } catch (error) {
    if (isOpenFd(fd)) throw error;
    throw new TypeError(`${checked.what}.handle: file descriptor ${fd} (${checked.handleType}) is not open (it was closed during the import)`);
  }
}

function isOpenFd(fd: number): boolean {
  try {
    fstatSync(fd);
    return true;
  } catch {
    return false;
  }
}

/** @internal Closes a descriptor a driver or an exporter made (natively: see closeFd); one already gone is no error. */
export function closeQuietly(fd: number): void {
  ready().closeFd(fd);
}

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
    super(platform, externalMemoryRecord, (legacy, names) =>
      new (ready().NativeExternalMemory)(platform.native, legacy, names, externalMemoryRecord.creatingCalls, true),
    );
  }

  /**
   * Handle types the platform's devices can all import
   * (CL_PLATFORM_EXTERNAL_MEMORY_IMPORT_HANDLE_TYPES_KHR), or one device can
   * (CL_DEVICE_EXTERNAL_MEMORY_IMPORT_HANDLE_TYPES_KHR).
   */
  importHandleTypes(device?: Device): ExternalMemoryHandleType[] {
    const { queries, handleTypes } = externalMemoryRecord;
    if (device === undefined) return handleTypeNames(optionalUints(() => this.platform.info(queries.platformImportHandleTypes)), handleTypes) as ExternalMemoryHandleType[];
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
    return handleTypeNames(optionalUints(() => this.#device(device, 'device').info(queries.deviceAssumeLinearImageHandleTypes)), handleTypes) as ExternalMemoryHandleType[];
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
    );
  }

  /** Imports memory as an image (clCreateImageWithProperties with the handle); otherwise as importBuffer(). */
  importImage(context: Context, handle: ExternalMemoryHandle, options: ExternalImageOptions): CLImage {
    if (options === null || typeof options !== 'object') throw new TypeError(`options must be an object { format, width, ... }; got ${describeValue(options)}`);
    const opts = readOnce(options, 'options', ['access', 'devices', 'duplicate', 'format', 'width', 'height', 'depth', 'arraySize', 'type', 'rowPitch', 'slicePitch', 'tiling']);
    const format = resolveImageFormat(opts.format);
    const { width, height = 0, depth = 0, arraySize = 0, rowPitch = 0, slicePitch = 0 } = opts;
    checkCount(width, 'width', 1);
    for (const [name, value] of Object.entries({ height, depth, arraySize, rowPitch, slicePitch })) checkCount(value, name);
    const type = opts.type ?? (depth > 1 ? '3d' : height > 0 ? '2d' : '1d');
    const typeValue = imageTypes[type as keyof typeof imageTypes];
    if (!Object.hasOwn(imageTypes, type) || typeValue === undefined) throw new TypeError(`type must be one of ${Object.keys(imageTypes).join(', ')}; got ${describeValue(type)}`);
    const prepared = this.#prepare(context, handle, opts, 'handle');
    const { checked, flags, devices, properties } = prepared;
    // Only an absent options.tiling defers to the handle's (null is a wrong value, as for every option).
    const fromOptions = opts.tiling !== undefined;
    const given = fromOptions ? opts.tiling : checked.tiling;
    const tiling = given === undefined ? undefined : checkChoice(given, fromOptions ? 'options.tiling' : 'handle.tiling', ['linear', 'optimal'] as const);
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
    if (options === null || typeof options !== 'object') throw new TypeError(`options must be an object { format, width, height, planes }; got ${describeValue(options)}`);
    const opts = readOnce(options, 'options', ['access', 'devices', 'duplicate', 'size', 'format', 'width', 'height', 'planes', 'as']);
    const layout = checkLayout(opts.format, opts.width, opts.height, opts.planes, opts.as);
    const prepared = this.#prepare(context, handle, opts, 'handle');
    const size = opts.size ?? prepared.checked.size;
    checkCount(size, opts.size === undefined ? 'handle.size' : 'options.size', 1);
    checkPlacement(context, layout.planes, () => size);
    const memory = this.#importBuffer(context, prepared, { size, duplicate: opts.duplicate });
    return this.#planesOf(context, [memory], layout.planes.map((p) => ({ ...p, object: 0 })), layout, opts.access);
  }

  /**
   * Imports DMA-BUF planes (cl_khr_external_memory_dma_buf): a VaDmaBuf the
   * VA module exported, Electron's Linux shared texture (its `nativePixmap`,
   * or the textureInfo holding it), or planes of fds. The descriptors are
   * duplicated: their owner keeps (and closes) its own.
   */
  importDmaBuf(context: Context, source: VaDmaBuf | NativePixmap | DmaBufPlanes | ElectronTextureInfo, options: DmaBufImportOptions = {}): ImportedFrame {
    const opts = readOnce(options, 'options', ['access', 'devices', 'as', 'format', 'width', 'height', 'assumeLinear']);
    const desc = dmaBufDescriptor(source, opts);
    const layout = checkLayout(desc.format, desc.width, desc.height, desc.planes, opts.as);
    const fds = [...new Set(desc.planes.map((p) => p.fd))];
    const sizes = fds.map((fd) => {
      let size = 0;
      for (const [i, plane] of desc.planes.entries()) {
        if (plane.fd === fd) size = Math.max(size, plane.offset + Math.max(plane.size ?? 0, layout.planes[i]!.bytes));
      }
      // The object's own size where the kernel reports one (a DMA-BUF's inode size is its length).
      let fileSize: number;
      try {
        fileSize = fstatSync(fd).size;
      } catch (error) {
        const at = desc.planes.findIndex((p) => p.fd === fd);
        throw new TypeError(
          `planes[${at}].fd must be an open file descriptor; ${fd} is not (${(error as NodeJS.ErrnoException).code ?? String(error)})` +
            (source instanceof VaDmaBuf ? ': the VaDmaBuf\'s fds were closed behind its back (close() it instead)' : ''),
        );
      }
      if (fileSize > 0 && fileSize < size) throw new RangeError(`DMA-BUF fd ${fd} has ${fileSize} bytes; its planes reach ${size}`);
      return Math.max(fileSize, size);
    });
    const planes = desc.planes.map((p, i) => ({ ...layout.planes[i]!, offset: p.offset, object: fds.indexOf(p.fd) }));
    checkPlacement(context, planes, (object) => sizes[object]!);
    const memory: CLBuffer[] = [];
    try {
      for (const [object, fd] of fds.entries()) {
        const size = sizes[object]!;
        memory.push(this.importBuffer(context, { handleType: 'dma-buf', handle: fd, size }, { access: opts.access, devices: opts.devices, duplicate: true }));
      }
    } catch (error) {
      for (const mem of memory) mem.release();
      const fd = fds[memory.length]!;
      if (error instanceof TypeError && !isOpenFd(fd)) {
        throw new TypeError(`planes[${desc.planes.findIndex((p) => p.fd === fd)}].fd must be an open file descriptor; ${fd} was closed during the import (EBADF)`);
      }
      throw error;
    }
    return this.#planesOf(context, memory, planes, layout, opts.access);
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
          -36,
          externalMemoryRecord.entryPoints[which],
          `${(mem.sharing as SharedObject).description} was imported for ${devices.map((d) => `"${d.name}"`).join(', ')}; the queue is on "${queue.device.name}"`,
        );
      }
    }
    return super.enqueue(which, queue, mems, waitFor);
  }

  #device(device: unknown, what: string): Device {
    if (!(device instanceof Device)) throw new TypeError(`${what} must be a Device; got ${describeValue(device)}`);
    if (device.platform !== this.platform) throw new TypeError(`${what} "${device.name}" belongs to "${device.platform.name}", not "${this.platform.name}"`);
    return device;
  }

  /** Checks context, handle, access and devices (options read once by the caller); refuses a handle type a device cannot import, naming what it can. */
  #prepare(context: Context, handle: ExternalMemoryHandle, options: Pick<ExternalImportOptions, 'access' | 'devices'>, what: string): Prepared {
    if (!(context instanceof Context)) throw new TypeError(`context must be a Context; got ${describeValue(context)}`);
    if (context.platform !== this.platform) throw new TypeError(`the context belongs to "${context.platform.name}", not to "${this.platform.name}"`);
    const checked = checkHandle(handle, externalMemoryRecord.handleTypes, what);
    if (checked.record.handle === 'fd' && (checked.value as number) < 0) throw new TypeError(`${what}.handle of ${checked.handleType} must be a file descriptor (>= 0); got ${checked.value}`);
    const flags = SharingFacade.accessFlagsOf(options);
    let devices: Device[] | null = null;
    const list: unknown = options.devices;
    if (list !== undefined) {
      const length = Array.isArray(list) ? list.length : 0;
      if (length === 0) throw new TypeError(`options.devices must be a non-empty array of the context's devices; got ${describeValue(list)}`);
      devices = [];
      for (let i = 0; i < length; i++) {
        const checkedDevice = this.#device((list as unknown[])[i], `options.devices[${i}]`);
        if (!context.devices.includes(checkedDevice)) throw new TypeError(`options.devices[${i}] "${checkedDevice.name}" is not a device of the context`);
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

  #adopt<T extends CLBuffer | CLImage>(mem: T, checked: CheckedHandle<ExternalMemoryHandleType>, flags: bigint, devices: Device[] | null, description: string): T {
    const details: Record<string, number | bigint> = { handleType: checked.record.token };
    if (typeof checked.value !== 'string') details.handle = checked.value;
    mem.sharing = new SharedObject(this as SharingFacade<NativeExternalMemory>, description, details, flags);
    this.#details.set(mem, Object.freeze({ handleType: checked.handleType, ownership: checked.record.ownership, devices: devices && Object.freeze(devices) }));
    // A KMT handle holds no reference to the memory: the exporter's object stays alive as long as the import.
    if (checked.record.handle === 'kmt' && typeof checked.source === 'object') mem.keepAlive(() => {}, checked.source);
    return mem;
  }

  #planesOf(context: Context, memory: CLBuffer[], planes: (PlaneLayout & { object: number })[], layout: FrameLayout, access: Access | undefined): ImportedFrame {
    const made: MemObject[] = [];
    const owned: MemObject[] = [];
    try {
      const views = planes.map((plane, i) => {
        const parent = memory[plane.object]!;
        const sub = parent.createSubBuffer(plane.offset, plane.bytes, { access });
        made.push(sub);
        if (layout.as === 'buffers') return sub;
        const image = imageOverBuffer(context, sub, plane, i, access);
        owned.push(sub);
        made.push(image);
        return image;
      });
      return new ImportedFrame(layout.format, layout.width, layout.height, memory, views, owned);
    } catch (error) {
      for (const mem of made.reverse()) mem.release();
      for (const mem of memory) mem.release();
      throw error;
    }
  }
}

/** Electron's textureInfo (the parts importDmaBuf reads). */
export interface ElectronTextureInfo {
  readonly pixelFormat?: string;
  readonly codedSize?: { readonly width: number; readonly height: number };
  readonly handle: { readonly nativePixmap: NativePixmap };
}

const imageTypes = {
  '1d': CL.CL_MEM_OBJECT_IMAGE1D,
  '2d': CL.CL_MEM_OBJECT_IMAGE2D,
  '3d': CL.CL_MEM_OBJECT_IMAGE3D,
  '1d-array': CL.CL_MEM_OBJECT_IMAGE1D_ARRAY,
  '2d-array': CL.CL_MEM_OBJECT_IMAGE2D_ARRAY,
} as const;

interface PlaneLayout {
  offset: number;
  pitch: number;
  width: number;
  rows: number;
  /** Bytes from the first row's start to the last row's end. */
  bytes: number;
  format: ImageFormat;
  bytesPerPixel: number;
}
interface FrameLayout {
  format: PlaneFormat;
  width: number;
  height: number;
  as: 'buffers' | 'images';
  planes: PlaneLayout[];
}

function checkLayout(format: unknown, width: unknown, height: unknown, planes: unknown, as: unknown): FrameLayout {
  if (typeof format !== 'string' || !Object.hasOwn(planeFacts, format)) {
    throw new TypeError(`format must be one of ${Object.keys(planeFacts).join(', ')}; got ${describeValue(format)}`);
  }
  const facts = planeFacts[format as PlaneFormat];
  checkCount(width, 'width', 1);
  checkCount(height, 'height', 1);
  if (facts.length > 1 && (width % 2 !== 0 || height % 2 !== 0)) throw new RangeError(`${format} needs an even width and height; got ${width}x${height}`);
  if (as !== undefined && as !== 'buffers' && as !== 'images') throw new TypeError(`as must be 'buffers' or 'images'; got ${describeValue(as)}`);
  if (!Array.isArray(planes) || planes.length !== facts.length) {
    throw new TypeError(`planes must be ${facts.length} { offset, pitch } for ${format}; got ${describeValue(planes)}`);
  }
  const layouts = facts.map((fact, i) => {
    const plane: unknown = planes[i];
    if (plane === null || typeof plane !== 'object') throw new TypeError(`planes[${i}] must be { offset, pitch }; got ${describeValue(plane)}`);
    const { offset = 0, pitch } = plane as { offset?: unknown; pitch?: unknown };
    checkCount(offset, `planes[${i}].offset`);
    checkCount(pitch, `planes[${i}].pitch`, 1);
    const planeWidth = width / fact.sub;
    const rows = height / fact.sub;
    const rowBytes = planeWidth * fact.bytesPerPixel;
    if (pitch < rowBytes) throw new RangeError(`planes[${i}].pitch ${pitch} is less than a row of plane ${i} of a ${width}x${height} ${format} frame (${rowBytes} bytes)`);
    return { offset, pitch, width: planeWidth, rows, bytes: pitch * (rows - 1) + rowBytes, format: fact.format, bytesPerPixel: fact.bytesPerPixel };
  });
  return { format: format as PlaneFormat, width, height, as: (as ?? 'buffers') as 'buffers' | 'images', planes: layouts };
}

/** Planes inside their allocation, at offsets every device can make a sub-buffer at: checked before anything is imported. */
function checkPlacement(context: Context, planes: readonly (PlaneLayout & { object?: number })[], sizeOf: (object: number) => number): void {
  planes.forEach((plane, i) => {
    const size = sizeOf(plane.object ?? 0);
    if (plane.offset + plane.bytes > size) {
      throw new RangeError(`plane ${i} (offset ${plane.offset}, ${plane.bytes} bytes) runs past the ${size} bytes of its allocation`);
    }
    for (const device of context.devices) {
      const align = device.memBaseAddrAlign / 8;
      if (plane.offset % align !== 0) {
        throw new RangeError(`plane ${i}'s offset ${plane.offset} is not a multiple of ${align} bytes, the sub-buffer alignment of "${device.name}" (CL_DEVICE_MEM_BASE_ADDR_ALIGN)`);
      }
    }
  });
}

const IMAGE_PITCH_ALIGNMENT = 0x104a; // CL_DEVICE_IMAGE_PITCH_ALIGNMENT (pixels; OpenCL 2.0 / cl_khr_image2d_from_buffer)

/** A 2D image over a plane's sub-buffer (cl_khr_image2d_from_buffer); it follows the sub-buffer's acquire state. */
function imageOverBuffer(context: Context, sub: CLBuffer, plane: PlaneLayout, index: number, access: Access | undefined): CLImage {
  for (const device of context.devices) {
    const { major } = device.versionNumber;
    if (major < 2 && !device.extensions.includes('cl_khr_image2d_from_buffer')) {
      throw new OpenCLExtensionError('cl_khr_image2d_from_buffer', context.platform.name, `device "${device.name}" cannot make images over buffers: import the planes with as: 'buffers'`);
    }
    const alignment = decode.uint(device.info(IMAGE_PITCH_ALIGNMENT)) * plane.bytesPerPixel;
    if (alignment > 0 && plane.pitch % alignment !== 0) {
      throw new RangeError(`planes[${index}].pitch ${plane.pitch} is not a multiple of ${alignment} bytes, the image pitch alignment of "${device.name}"`);
    }
  }
  const format = resolveImageFormat(plane.format);
  const desc = { type: CL.CL_MEM_OBJECT_IMAGE2D, width: plane.width, height: plane.rows, depth: 0, arraySize: 0, rowPitch: plane.pitch, slicePitch: 0, buffer: sub.native, hostBytes: 0 };
  const what = `a ${plane.width}x${plane.rows} ${format.order}/${format.type} image at a row pitch of ${plane.pitch} bytes over plane ${index}`;
  const wayOut = "import the planes with as: 'buffers' (sub-buffers a kernel reads at the plane's offset and pitch)";
  const names = context.devices.map((d) => `"${d.name}"`).join(', ');
  let native;
  try {
    native = context.addon.createImage(context.native, SharingFacade.accessFlagsOf({ access }), [format.orderValue, format.typeValue], desc);
  } catch (error) {
    if (!(error instanceof OpenCLError)) throw error;
    let listed = true;
    try {
      listed = context.supportedImageFormats({ access, type: '2d' }).some((f) => f.orderValue === format.orderValue && f.typeValue === format.typeValue);
    } catch {
      // the query failing says nothing more
    }
    // NVIDIA (driver 580) answers CL_INVALID_OPERATION here: it makes no image over an imported buffer's sub-buffer.
    throw new OpenCLError(
      error.status,
      error.call,
      listed
        ? `${names} made no ${what} of imported memory (cl_khr_image2d_from_buffer over external memory): ${wayOut}`
        : `${names} cannot make ${what}: ${format.order}/${format.type} is not among the context's 2D image formats (context.supportedImageFormats()); ${wayOut}`,
    );
  }
  const image = new CLImage(native, context);
  image.sharing = { ...sub.sharing!, description: `an image over ${sub.sharing!.description}`, checkAcquired: sub.sharing!.checkAcquired };
  image.keepAlive(() => {}, sub.native);
  return image;
}

function checkModifier(value: unknown, assumeLinear: boolean): void {
  let modifier: bigint | undefined;
  if (value === undefined) return;
  if (typeof value === 'bigint') modifier = value;
  else if (typeof value === 'string' && /^(0x[0-9a-f]+|[0-9]+)$/i.test(value)) modifier = BigInt(value);
  if (modifier === undefined) throw new TypeError(`modifier must be a DRM format modifier (bigint or decimal string); got ${describeValue(value)}`);
  if (modifier === DRM_FORMAT_MOD_LINEAR || (assumeLinear && modifier === DRM_FORMAT_MOD_INVALID)) return;
  throw new TypeError(
    `DRM format modifier 0x${modifier.toString(16)} is not linear: offsets and pitches do not describe that layout, so its planes cannot be imported` +
      (modifier === DRM_FORMAT_MOD_INVALID ? ' (DRM_FORMAT_MOD_INVALID: pass assumeLinear: true if the producer\'s implicit layout is linear)' : ''),
  );
}

/** The planes of a VaDmaBuf, an Electron pixmap or plain planes, checked. */
function dmaBufDescriptor(source: unknown, options: DmaBufImportOptions): { format: PlaneFormat; width: number; height: number; planes: { fd: number; offset: number; pitch: number; size?: number }[] } {
  if (source instanceof VaDmaBuf) {
    const desc = source.toImport();
    checkModifier(desc.modifier, options.assumeLinear === true);
    return { format: desc.format as PlaneFormat, width: desc.width, height: desc.height, planes: desc.planes.map((p) => ({ fd: p.fd, offset: p.offset ?? 0, pitch: p.pitch })) };
  }
  if (source === null || typeof source !== 'object') throw new TypeError(`source must be a VaDmaBuf, an Electron textureInfo / nativePixmap, or { format, width, height, planes }; got ${describeValue(source)}`);
  const info = source as Partial<ElectronTextureInfo> & Partial<NativePixmap> & Partial<DmaBufPlanes>;
  if (info.handle && typeof info.handle === 'object' && 'nativePixmap' in info.handle) {
    const electronFormat = typeof info.pixelFormat === 'string' ? info.pixelFormat.toUpperCase() : undefined;
    return dmaBufDescriptor(info.handle.nativePixmap, {
      ...options,
      format: options.format ?? (electronFormat as PlaneFormat | undefined),
      width: options.width ?? info.codedSize?.width,
      height: options.height ?? info.codedSize?.height,
    });
  }
  if (!Array.isArray(info.planes)) throw new TypeError(`source.planes must be an array of { fd, offset, pitch | stride }; got ${describeValue(info.planes)}`);
  checkModifier(info.modifier, options.assumeLinear === true);
  const format = info.format ?? options.format;
  const width = info.width ?? options.width;
  const height = info.height ?? options.height;
  if (format === undefined || width === undefined || height === undefined) {
    throw new TypeError('a nativePixmap does not say its format and size: pass options.format, width and height (Electron: textureInfo.pixelFormat and codedSize)');
  }
  const planes = info.planes.map((plane: unknown, i) => {
    if (plane === null || typeof plane !== 'object') throw new TypeError(`planes[${i}] must be an object; got ${describeValue(plane)}`);
    const p = plane as { fd?: unknown; offset?: unknown; pitch?: unknown; stride?: unknown; size?: unknown };
    if (typeof p.fd !== 'number' || !Number.isInteger(p.fd) || p.fd < 0 || p.fd > 0x7fffffff) throw new TypeError(`planes[${i}].fd must be a file descriptor; got ${describeValue(p.fd)}`);
    const pitch = p.pitch ?? p.stride;
    const offset = p.offset ?? 0;
    checkCount(offset, `planes[${i}].offset`);
    checkCount(pitch, `planes[${i}].pitch`, 1);
    if (p.size !== undefined) checkCount(p.size, `planes[${i}].size`, 1);
    return { fd: p.fd, offset, pitch, size: p.size as number | undefined };
  });
  return { format: format as PlaneFormat, width: width as number, height: height as number, planes };
}

const cache = new WeakMap<Platform, ExternalMemory>();

/**
 * The cl_khr_external_memory facade of a platform (created once). Throws
 * OpenCLExtensionError when the platform and its devices do not advertise
 * the extension or an entry point does not resolve.
 */
export function getExternalMemory(platform: Platform): ExternalMemory {
  let facade = cache.get(platform);
  if (!facade) cache.set(platform, (facade = new ExternalMemory(platform)));
  return facade;
}

/**
 * Imports DMA-BUF planes into a context (see ExternalMemory.importDmaBuf):
 * an OpenCLExtensionError naming cl_khr_external_memory_dma_buf where the
 * platform does not advertise it.
 */
export function importDmaBuf(context: Context, source: VaDmaBuf | NativePixmap | DmaBufPlanes | ElectronTextureInfo, options?: DmaBufImportOptions): ImportedFrame {
  if (!(context instanceof Context)) throw new TypeError(`context must be a Context; got ${describeValue(context)}`);
  const extension = externalMemoryRecord.handleTypes['dma-buf'].extension;
  if (!context.platform.supports(extension)) {
    throw new OpenCLExtensionError(extension, context.platform.name, 'neither the platform nor its devices advertise it: DMA-BUF planes cannot be imported here');
  }
  return getExternalMemory(context.platform).importDmaBuf(context, source, options);
}
