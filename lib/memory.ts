// Memory objects: buffers, sub-buffers and images, the mappings they keep
// (lib/mapping.ts makes them), and the sharing state lib/interop/ sets on the
// ones made from another API's resource.
import type { NativeMem } from './addon';
import { CL } from './facts/cl-constants';
import { OpenCLReleasedError, OpenCLStateError } from './errors';
import { decode } from './info';
import { type ResolvedImageFormat, resolveImageFormat, type ChannelOrder, type ChannelType } from './facts/cl-image-formats';
import type { ContextLink } from './links';
import { Resource } from './resource';
import { checkCount } from './validate';

/** @internal What lib/interop attaches to a shared memory object. */
export interface SharingState {
  readonly extension: string;
  /** e.g. "VA surface 7, plane 1". */
  readonly description: string;
  readonly acquired: boolean;
  /** Why whether it is acquired is not known yet (its acquire waits on a failed user event the driver has not decided on). */
  readonly undecided?: string;
  checkAcquired(call: string, what: string): void;
}

/** How kernels may access a memory object. */
export type Access = 'read' | 'write' | 'read-write';

const accessBits: Record<Access, number> = {
  read: CL.CL_MEM_READ_ONLY,
  write: CL.CL_MEM_WRITE_ONLY,
  'read-write': CL.CL_MEM_READ_WRITE,
};

/** @internal The access mode of CL_MEM_* bits. */
export function accessName(flags: bigint): Access | 'unknown' {
  const bits = Number(flags & 7n);
  return (Object.keys(accessBits) as Access[]).find((access) => accessBits[access] === bits) ?? 'unknown';
}

/** @internal CL_MEM_* bits for an access mode; anything else is a TypeError. */
export function accessFlags(access: Access | undefined, fallback: Access = 'read-write'): bigint {
  const key = access === undefined ? fallback : access;
  const bits = typeof key === 'string' && Object.hasOwn(accessBits, key) ? accessBits[key] : undefined;
  if (bits === undefined) {
    throw new TypeError(`access must be 'read', 'write' or 'read-write'; got ${String(access)}`);
  }
  return BigInt(bits);
}

/** Base of buffers and images. */
export class MemObject extends Resource<NativeMem> {
  readonly context: ContextLink;
  /** @internal Mappings not yet unmapped; unmapped (detached) on release. */
  readonly mappings = new LiveSet<HeldMapping>();

  /** @internal */
  constructor(native: NativeMem, context: ContextLink) {
    super(native);
    this.context = context;
  }

  get kind(): string {
    return 'MemObject';
  }

  /** Raw clGetMemObjectInfo bytes for any parameter. */
  info(param: number): Uint8Array {
    return this.native.info(param);
  }
  #size?: number;
  /** Size in bytes. */
  get size(): number {
    return (this.#size ??= decode.size(this.native.info(CL.CL_MEM_SIZE)));
  }

  /** @internal Set on shared objects (made from a Direct3D or VA-API resource, or imported external memory: lib/interop). */
  sharing?: SharingState;

  /** The sharing extension this object was created through, if any. */
  get sharedWith(): string | undefined {
    return this.sharing?.extension;
  }

  /** For a shared object: whether it is acquired by OpenCL now (a sub-buffer: never itself). */
  get acquired(): boolean {
    return this.sharing?.acquired ?? false;
  }

  /**
   * @internal Called before a command uses this object; throws when it may
   * not be used now (released, or a shared object that is not acquired).
   */
  checkCommandUse(what: string, call = 'enqueue'): void {
    if (this.released) throw new OpenCLReleasedError(`${this.kind} (${what})`);
    this.sharing?.checkAcquired(call, what);
  }

  /**
   * Releases the object. A shared object that is still acquired is not
   * released: that throws an OpenCLStateError (release it back first).
   */
  override release(): void {
    if (!this.released && this.sharing?.acquired) {
      const undecided = this.sharing.undecided;
      if (undecided !== undefined) throw new OpenCLStateError(`${this.kind} was not released: ${undecided}`);
      throw new OpenCLStateError(
        `${this.sharing.description} is still acquired by OpenCL: release it back (scope.release() or queue.enqueueReleaseShared()) before disposing it`,
      );
    }
    super.release();
  }
  /** The CL_MEM_* flags it was created with. */
  // Neither changes in an object's life: asked once (kernel argument checks read them at every setArg).
  #flags?: bigint;
  #type?: number;
  get flags(): bigint {
    const native = this.native;
    return (this.#flags ??= decode.ulong(native.info(CL.CL_MEM_FLAGS)));
  }
  /** CL_MEM_OBJECT_BUFFER, CL_MEM_OBJECT_IMAGE2D, ... */
  get type(): number {
    const native = this.native;
    return (this.#type ??= decode.uint(native.info(CL.CL_MEM_TYPE)));
  }
  get mapCount(): number {
    return decode.uint(this.native.info(CL.CL_MEM_MAP_COUNT));
  }
  /** The driver's reference count (for diagnostics only; it may be stale at once). */
  get referenceCount(): number {
    return decode.uint(this.native.info(CL.CL_MEM_REFERENCE_COUNT));
  }

  /**
   * @internal Overlapping mappings where one of them writes are undefined
   * behaviour in OpenCL: refused.
   */
  checkMapOverlap(range: MapRange): void {
    for (const other of this.mappings) {
      const overlaps = range.start < other.range.end && other.range.start < range.end;
      if (overlaps && (range.writes || other.range.writes)) {
        throw new OpenCLStateError(
          `this region overlaps a mapping of the same ${this.kind} that is still mapped` +
            `${other.range.writes ? ' for writing' : ''}: unmap it first (bytes ${other.range.start}..${Math.min(other.range.end, this.size)})`,
        );
      }
    }
  }

  protected override beforeRelease(): void {
    for (const mapping of this.mappings) mapping.abandon();
  }
}

export class CLBuffer extends MemObject {
  /** The buffer a sub-buffer was made from. */
  readonly parent?: CLBuffer;

  /** @internal */
  constructor(native: NativeMem, context: ContextLink, parent?: CLBuffer) {
    super(native, context);
    this.parent = parent;
  }

  override get kind(): string {
    return 'CLBuffer';
  }

  /** Offset in the parent buffer (0 for a buffer that is not a sub-buffer). */
  get offset(): number {
    return decode.size(this.native.info(CL.CL_MEM_OFFSET));
  }

  /** A sub-buffer over [origin, origin + size); it keeps this buffer alive. */
  createSubBuffer(origin: number, size: number, options: { access?: Access } = {}): CLBuffer {
    const flags = accessFlags(options.access, 'read-write');
    checkCount(origin, 'origin');
    checkCount(size, 'size', 1);
    const native = this.context.addon.createSubBuffer(this.native, flags, origin, size);
    const sub = new CLBuffer(native, this.context, this);
    const parent = this.sharing;
    if (parent) {
      // A region of a shared buffer may be used only while the buffer is
      // acquired; it is acquired and released through the buffer itself.
      sub.sharing = {
        extension: parent.extension,
        description: `a sub-buffer of ${parent.description}`,
        acquired: false,
        checkAcquired: (call, what) => parent.checkAcquired(call, `${what} (a sub-buffer)`),
      };
    }
    return sub;
  }
}

export class CLImage extends MemObject {
  #format?: ResolvedImageFormat;
  #elementSize?: number;

  override get kind(): string {
    return 'CLImage';
  }

  /** Raw clGetImageInfo bytes for any parameter. */
  imageInfo(param: number): Uint8Array {
    return this.native.imageInfo(param);
  }
  get format(): ResolvedImageFormat {
    if (!this.#format) {
      const [order, type] = decode.uints(this.native.imageInfo(CL.CL_IMAGE_FORMAT));
      this.#format = resolveImageFormat({ order: order!, type: type! });
    }
    return this.#format;
  }
  get channelOrder(): ChannelOrder {
    return this.format.order;
  }
  get channelType(): ChannelType {
    return this.format.type;
  }
  get elementSize(): number {
    return (this.#elementSize ??= decode.size(this.native.imageInfo(CL.CL_IMAGE_ELEMENT_SIZE)));
  }
  get width(): number {
    return decode.size(this.native.imageInfo(CL.CL_IMAGE_WIDTH));
  }
  get height(): number {
    return decode.size(this.native.imageInfo(CL.CL_IMAGE_HEIGHT));
  }
  get depth(): number {
    return decode.size(this.native.imageInfo(CL.CL_IMAGE_DEPTH));
  }
  get arraySize(): number {
    return decode.size(this.native.imageInfo(CL.CL_IMAGE_ARRAY_SIZE));
  }
  get rowPitch(): number {
    return decode.size(this.native.imageInfo(CL.CL_IMAGE_ROW_PITCH));
  }
  get slicePitch(): number {
    return decode.size(this.native.imageInfo(CL.CL_IMAGE_SLICE_PITCH));
  }
  /** The whole image as a region: [width, height or 1, depth or 1]. */
  get region(): [number, number, number] {
    return [this.width, Math.max(this.height, 1), Math.max(this.depth, 1)];
  }
}

/** @internal The byte range a mapping covers (images: all of it). */
export interface MapRange {
  start: number;
  end: number;
  writes: boolean;
}

/** @internal What a memory object keeps of a mapping of it (a Mapping: lib/mapping.ts). */
export interface HeldMapping {
  readonly range: MapRange;
  /** Ends the mapping without waiting or throwing. */
  abandon(): void;
}

/** @internal Whether an ArrayBuffer was detached (transferred); `detached` where the engine has it. */
export function isDetached(buffer: ArrayBuffer): boolean {
  const flag = (buffer as ArrayBuffer & { detached?: boolean }).detached;
  if (typeof flag === 'boolean') return flag;
  if (buffer.byteLength !== 0) return false;
  try {
    buffer.slice(0, 0);
    return false;
  } catch {
    return true;
  }
}

/**
 * @internal A set that does not keep its members alive: what is dropped
 * elsewhere can be garbage-collected. Iteration yields live members only.
 */
export class LiveSet<T extends object> {
  readonly #refs = new Map<T | WeakRef<T>, WeakRef<T>>();
  readonly #index = new WeakMap<T, WeakRef<T>>();
  #pruneAt = 32;

  add(value: T): void {
    if (this.#index.has(value)) return;
    const ref = new WeakRef(value);
    this.#index.set(value, ref);
    this.#refs.set(ref, ref);
    if (this.#refs.size >= this.#pruneAt) {
      for (const [key, live] of this.#refs) if (live.deref() === undefined) this.#refs.delete(key);
      this.#pruneAt = Math.max(32, this.#refs.size * 2);
    }
  }

  delete(value: T): void {
    const ref = this.#index.get(value);
    if (!ref) return;
    this.#index.delete(value);
    this.#refs.delete(ref);
  }

  /** Live members (a snapshot: deleting while iterating is fine). */
  *[Symbol.iterator](): IterableIterator<T> {
    for (const ref of [...this.#refs.values()]) {
      const value = ref.deref();
      if (value !== undefined) yield value;
    }
  }

  get size(): number {
    let n = 0;
    for (const ref of this.#refs.values()) if (ref.deref() !== undefined) n++;
    return n;
  }
}

/**
 * @internal Bytes a host region of an image occupies. Pitches of 0 mean
 * tightly packed; given pitches must hold a row (and a slice). For a 1D image
 * array the slice pitch steps between the rows of the array.
 */
export function hostImageBytes(image: CLImage, region: readonly number[], rowPitch: number, slicePitch: number, hasRows: boolean): number {
  checkCount(rowPitch, 'rowPitch');
  checkCount(slicePitch, 'slicePitch');
  const rowBytes = region[0]! * image.elementSize;
  if (rowPitch !== 0 && rowPitch < rowBytes) {
    throw new RangeError(`rowPitch (${rowPitch}) is smaller than a row of the region (${rowBytes} bytes)`);
  }
  const row = rowPitch || rowBytes;
  const rows = hasRows ? region[1]! : 1;
  const slices = hasRows ? region[2]! : region[1]!;
  const sliceBytes = row * rows;
  if (slicePitch !== 0 && slicePitch < sliceBytes) {
    throw new RangeError(`slicePitch (${slicePitch}) is smaller than a slice of the region (${sliceBytes} bytes)`);
  }
  const slice = slicePitch || sliceBytes;
  const total = slice * (slices - 1) + row * (rows - 1) + rowBytes;
  if (!Number.isSafeInteger(total)) throw new RangeError(`the host region (${total} bytes) is larger than any host memory`);
  return total;
}
