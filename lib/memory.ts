import type { NativeMem } from './addon';
import { CL } from './constants';
import type { Context } from './context';
import { OpenCLReleasedError, OpenCLStateError } from './errors';
import type { Event } from './event';
import { decode } from './info';
import { type ResolvedImageFormat, resolveImageFormat, type ChannelOrder, type ChannelType } from './formats';
import type { CommandQueue } from './queue';
import { Resource } from './resource';

/** @internal What lib/interop attaches to a shared memory object. */
export interface SharingState {
  readonly extension: string;
  /** e.g. "VA surface 7, plane 1". */
  readonly description: string;
  readonly acquired: boolean;
  checkAcquired(call: string, what: string): void;
}

/** How kernels may access a memory object. */
export type Access = 'read' | 'write' | 'read-write';

const accessBits: Record<Access, number> = {
  read: CL.CL_MEM_READ_ONLY,
  write: CL.CL_MEM_WRITE_ONLY,
  'read-write': CL.CL_MEM_READ_WRITE,
};

/** @internal CL_MEM_* bits for an access mode; anything else is a TypeError. */
export function accessFlags(access: Access | undefined, fallback: Access = 'read-write'): bigint {
  const bits = accessBits[access === undefined ? fallback : access];
  if (bits === undefined) {
    throw new TypeError(`access must be 'read', 'write' or 'read-write'; got ${String(access)}`);
  }
  return BigInt(bits);
}

/** Base of buffers and images. */
export class MemObject extends Resource<NativeMem> {
  readonly context: Context;
  /** @internal Mappings not yet unmapped; unmapped (detached) on release. */
  readonly mappings = new Set<Mapping>();

  /** @internal */
  constructor(native: NativeMem, context: Context) {
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

  /** @internal Set on objects created from a Direct3D / VA-API resource (lib/interop). */
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
      throw new OpenCLStateError(
        `${this.sharing.description} is still acquired by OpenCL: release it back (scope.release() or queue.enqueueReleaseShared()) before disposing it`,
      );
    }
    super.release();
  }
  /** The CL_MEM_* flags it was created with. */
  get flags(): bigint {
    return decode.ulong(this.native.info(CL.CL_MEM_FLAGS));
  }
  /** CL_MEM_OBJECT_BUFFER, CL_MEM_OBJECT_IMAGE2D, ... */
  get type(): number {
    return decode.uint(this.native.info(CL.CL_MEM_TYPE));
  }
  get mapCount(): number {
    return decode.uint(this.native.info(CL.CL_MEM_MAP_COUNT));
  }
  /** The driver's reference count (for diagnostics only; it may be stale at once). */
  get referenceCount(): number {
    return decode.uint(this.native.info(CL.CL_MEM_REFERENCE_COUNT));
  }

  protected override beforeRelease(): void {
    for (const mapping of [...this.mappings]) mapping.abandon();
  }
}

export class CLBuffer extends MemObject {
  /** The buffer a sub-buffer was made from. */
  readonly parent?: CLBuffer;

  /** @internal */
  constructor(native: NativeMem, context: Context, parent?: CLBuffer) {
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

/** A mapped region of a buffer or image. Unmapping detaches `buffer`, so no view outlives the mapping. */
export class Mapping {
  readonly memory: MemObject;
  readonly queue: CommandQueue;
  /** The map command's event. */
  readonly event: Event;
  /** Row and slice pitch of a mapped image region (0 for buffers). */
  readonly rowPitch: number;
  readonly slicePitch: number;
  #buffer: ArrayBuffer | null;

  /** @internal */
  constructor(memory: MemObject, queue: CommandQueue, buffer: ArrayBuffer, event: Event, rowPitch = 0, slicePitch = 0) {
    this.memory = memory;
    this.queue = queue;
    this.#buffer = buffer;
    this.event = event;
    this.rowPitch = rowPitch;
    this.slicePitch = slicePitch;
    memory.mappings.add(this);
  }

  get mapped(): boolean {
    return this.#buffer !== null;
  }

  /** The mapped bytes. Throws once unmapped; views taken earlier become empty (detached). */
  get buffer(): ArrayBuffer {
    if (this.#buffer === null) throw new OpenCLStateError('this mapping has been unmapped');
    return this.#buffer;
  }

  /** A Uint8Array over the mapped bytes. */
  bytes(): Uint8Array {
    return new Uint8Array(this.buffer);
  }

  /** Unmaps (clEnqueueUnmapMemObject) and detaches the buffer. */
  unmap(options: { waitFor?: readonly Event[] } = {}): Event {
    const buffer = this.buffer;
    const event = this.queue.unmapRaw(this.memory, buffer, options.waitFor);
    this.#forget();
    return event;
  }

  [Symbol.dispose](): void {
    if (this.mapped) this.abandon();
  }

  /** @internal Unmaps without throwing (release paths). */
  abandon(): void {
    if (this.#buffer === null) return;
    try {
      this.unmap().release();
    } catch {
      this.queue.context.addon.detachArrayBuffer(this.#buffer!);
      this.#forget();
    }
  }

  #forget(): void {
    this.#buffer = null;
    this.memory.mappings.delete(this);
    this.queue.mappings.delete(this);
  }
}

/** @internal */
export function checkCount(value: unknown, what: string, min = 0): asserts value is number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw new RangeError(`${what} must be an integer >= ${min}; got ${String(value)}`);
  }
}
