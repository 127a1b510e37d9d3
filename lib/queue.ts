import type { NativeEvent, NativeQueue } from './addon';
import { CL } from './constants';
import type { Context } from './context';
import type { Device } from './device';
import { Event, gateOn, nativeWaitList } from './event';
import { OpenCLStateError, contextMismatch } from './errors';
import { decode } from './info';
import { Kernel } from './kernel';
import { CLBuffer, CLImage, Mapping, MemObject, checkCount } from './memory';
import { Resource } from './resource';
import { enqueueShared } from './sharing-hooks';

/** Objects acquired by queue.acquire(); release() or dispose gives them back. */
export class AcquireScope {
  readonly queue: CommandQueue;
  readonly objects: readonly MemObject[];
  /** The acquire command's event (one marker when several extensions are involved). */
  readonly event: Event;
  #released = false;

  /** @internal */
  constructor(queue: CommandQueue, objects: readonly MemObject[], options: EnqueueOptions) {
    this.queue = queue;
    this.objects = Object.freeze([...objects]);
    this.event = enqueueShared('acquire', queue, this.objects, options.waitFor);
  }

  /** True until release() (or dispose). */
  get active(): boolean {
    return !this.#released;
  }

  /** Enqueues the release of every object; later commands on the objects need a new acquire. */
  release(options: EnqueueOptions = {}): Event {
    if (this.#released) throw new OpenCLStateError('this acquire scope was already released');
    const event = enqueueShared('release', this.queue, this.objects, options.waitFor);
    this.#released = true;
    return event;
  }

  /** Releases (if still active) and flushes; for `using scope = queue.acquire(...)`. */
  [Symbol.dispose](): void {
    if (this.#released) return;
    this.release().release();
    this.queue.flush();
  }
}

type Triple = [number, number, number];
type HostMemory = ArrayBufferView | ArrayBuffer;

export interface EnqueueOptions {
  /** Events that must complete before this command starts. */
  waitFor?: readonly Event[];
}
export interface TransferOptions extends EnqueueOptions {
  /**
   * Block until the transfer is done. Default false: the host memory is kept
   * alive until the returned event completes; don't touch it before then.
   */
  blocking?: boolean;
}
export interface BufferTransferOptions extends TransferOptions {
  offset?: number;
  /** Bytes to move; defaults to the host memory's byteLength. */
  size?: number;
}
export interface ImageRegionOptions extends EnqueueOptions {
  origin?: Triple;
  /** Defaults to the whole image from origin. */
  region?: Triple;
}
export interface ImageTransferOptions extends ImageRegionOptions {
  blocking?: boolean;
  /** Host row pitch in bytes (0: tightly packed). */
  rowPitch?: number;
  /** Host slice pitch in bytes (0: tightly packed). */
  slicePitch?: number;
}
export interface KernelRunOptions extends EnqueueOptions {
  globalOffset?: readonly number[];
  localSize?: readonly number[];
}
export type MapAccess = 'read' | 'write' | 'read-write' | 'write-invalidate';
export interface QueueOptions {
  outOfOrder?: boolean;
  profiling?: boolean;
}

const mapBits: Record<MapAccess, number> = {
  read: CL.CL_MAP_READ,
  write: CL.CL_MAP_WRITE,
  'read-write': CL.CL_MAP_READ | CL.CL_MAP_WRITE,
  'write-invalidate': CL.CL_MAP_WRITE_INVALIDATE_REGION,
};

function mapFlags(access: MapAccess | undefined): bigint {
  const bits = mapBits[access ?? 'read-write'];
  if (bits === undefined) throw new TypeError(`access must be one of ${Object.keys(mapBits).join(', ')}`);
  return BigInt(bits);
}

function byteLengthOf(host: unknown, what: string): number {
  if (host instanceof ArrayBuffer) return host.byteLength;
  if (ArrayBuffer.isView(host)) return host.byteLength;
  throw new TypeError(`${what} must be an ArrayBuffer or a typed array`);
}

function checkTriple(value: unknown, what: string, min: number): Triple {
  if (!Array.isArray(value) || value.length !== 3) throw new TypeError(`${what} must be [x, y, z]`);
  value.forEach((v, i) => checkCount(v, `${what}[${i}]`, min));
  return value as Triple;
}

function expectMem<T extends MemObject>(
  queue: CommandQueue,
  value: unknown,
  type: abstract new (...args: never[]) => T,
  what: string,
  call: string,
): T {
  if (!(value instanceof type)) throw new TypeError(`${what} must be a ${type.name}`);
  value.checkCommandUse(what, call);
  if (value.context !== queue.context) throw contextMismatch(call, `the ${what}`);
  return value;
}

/** A command queue on one device of a context. */
export class CommandQueue extends Resource<NativeQueue> {
  readonly context: Context;
  readonly device: Device;
  /** Host memory of non-blocking transfers, held until their events complete. */
  readonly #pinned = new Set<HostMemory>();
  /** @internal Mappings made through this queue; unmapped when it is released. */
  readonly mappings = new Set<Mapping>();

  /** @internal */
  constructor(native: NativeQueue, context: Context, device: Device) {
    super(native);
    this.context = context;
    this.device = device;
  }

  get kind(): string {
    return 'CommandQueue';
  }

  info(param: number): Uint8Array {
    return this.native.info(param);
  }

  get properties(): Required<QueueOptions> {
    const bits = decode.ulong(this.native.info(CL.CL_QUEUE_PROPERTIES));
    return {
      outOfOrder: (bits & BigInt(CL.CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) !== 0n,
      profiling: (bits & BigInt(CL.CL_QUEUE_PROFILING_ENABLE)) !== 0n,
    };
  }

  /** Number of host memory blocks held for non-blocking transfers still in flight. */
  get pendingTransfers(): number {
    return this.#pinned.size;
  }

  #event(native: NativeEvent, waitFor?: readonly Event[]): Event {
    return gateOn(new Event(native, this.context), waitFor);
  }

  #pin(event: Event, host: HostMemory): void {
    this.#pinned.add(host);
    const unpin = () => this.#pinned.delete(host);
    event.native.whenStatus(CL.CL_COMPLETE, true).then(unpin, unpin);
  }

  #transfer(options: TransferOptions, host: HostMemory, run: (blocking: boolean) => NativeEvent): Event {
    const blocking = options.blocking;
    const event = this.#event(run(blocking === true), options.waitFor);
    if (blocking !== true) this.#pin(event, host);
    return event;
  }

  /** Runs a kernel over an NDRange of 1 to 3 dimensions. */
  enqueueKernel(kernel: Kernel, globalSize: number | readonly number[], options: KernelRunOptions = {}): Event {
    if (!(kernel instanceof Kernel)) throw new TypeError('kernel must be a Kernel');
    if (kernel.program.context !== this.context) throw contextMismatch('clEnqueueNDRangeKernel', 'the kernel');
    const global = typeof globalSize === 'number' ? [globalSize] : [...globalSize];
    if (global.length < 1 || global.length > 3) throw new RangeError('globalSize must have 1 to 3 dimensions');
    global.forEach((v, i) => checkCount(v, `globalSize[${i}]`, 1));
    const check = (sizes: readonly number[] | undefined, what: string, min: number) => {
      if (sizes === undefined) return null;
      if (!Array.isArray(sizes) || sizes.length !== global.length) {
        throw new RangeError(`${what} must have ${global.length} dimension(s) like globalSize`);
      }
      sizes.forEach((v, i) => checkCount(v, `${what}[${i}]`, min));
      return [...sizes];
    };
    const offset = check(options.globalOffset, 'globalOffset', 0);
    const local = check(options.localSize, 'localSize', 1);
    kernel.checkArgsForEnqueue('clEnqueueNDRangeKernel');
    const waitList = nativeWaitList(options.waitFor, this.context);
    return this.#event(
      this.context.addon.enqueueNDRange(this.native, kernel.native, offset, global, local, waitList),
      options.waitFor,
    );
  }

  /** Copies bytes from a buffer into host memory. */
  readBuffer(buffer: CLBuffer, target: HostMemory, options: BufferTransferOptions = {}): Event {
    expectMem(this, buffer, CLBuffer, 'buffer', 'clEnqueueReadBuffer');
    const { offset, size } = this.#bufferRange(buffer, target, options, 'target');
    const waitList = nativeWaitList(options.waitFor, this.context);
    return this.#transfer(options, target, (blocking) =>
      this.context.addon.enqueueReadBuffer(this.native, buffer.native, blocking, offset, size, target, waitList),
    );
  }

  /** Copies bytes from host memory into a buffer. */
  writeBuffer(buffer: CLBuffer, source: HostMemory, options: BufferTransferOptions = {}): Event {
    expectMem(this, buffer, CLBuffer, 'buffer', 'clEnqueueWriteBuffer');
    const { offset, size } = this.#bufferRange(buffer, source, options, 'source');
    const waitList = nativeWaitList(options.waitFor, this.context);
    return this.#transfer(options, source, (blocking) =>
      this.context.addon.enqueueWriteBuffer(this.native, buffer.native, blocking, offset, size, source, waitList),
    );
  }

  #bufferRange(buffer: CLBuffer, host: HostMemory, options: BufferTransferOptions, what: string) {
    const available = byteLengthOf(host, what);
    const offset = options.offset ?? 0;
    const size = options.size ?? available;
    checkCount(offset, 'offset');
    checkCount(size, 'size', 1);
    if (size > available) throw new RangeError(`${what} has ${available} bytes; size is ${size}`);
    if (offset + size > buffer.size) {
      throw new RangeError(`offset + size (${offset + size}) exceeds the buffer's ${buffer.size} bytes`);
    }
    return { offset, size };
  }

  /** Copies between buffers. */
  copyBuffer(
    source: CLBuffer,
    destination: CLBuffer,
    options: EnqueueOptions & { srcOffset?: number; dstOffset?: number; size?: number } = {},
  ): Event {
    expectMem(this, source, CLBuffer, 'source', 'clEnqueueCopyBuffer');
    expectMem(this, destination, CLBuffer, 'destination', 'clEnqueueCopyBuffer');
    const srcOffset = options.srcOffset ?? 0;
    const dstOffset = options.dstOffset ?? 0;
    const size = options.size ?? Math.min(source.size - srcOffset, destination.size - dstOffset);
    checkCount(srcOffset, 'srcOffset');
    checkCount(dstOffset, 'dstOffset');
    checkCount(size, 'size', 1);
    const waitList = nativeWaitList(options.waitFor, this.context);
    return this.#event(
      this.context.addon.enqueueCopyBuffer(this.native, source.native, destination.native, srcOffset, dstOffset, size, waitList),
      options.waitFor,
    );
  }

  /** Fills a buffer range with a repeated pattern (1, 2, 4, ... 128 bytes). */
  fillBuffer(buffer: CLBuffer, pattern: ArrayBufferView, options: EnqueueOptions & { offset?: number; size?: number } = {}): Event {
    expectMem(this, buffer, CLBuffer, 'buffer', 'clEnqueueFillBuffer');
    if (!ArrayBuffer.isView(pattern)) throw new TypeError('pattern must be a typed array');
    const offset = options.offset ?? 0;
    const size = options.size ?? buffer.size - offset;
    checkCount(offset, 'offset');
    checkCount(size, 'size', 1);
    const waitList = nativeWaitList(options.waitFor, this.context);
    return this.#event(
this.context.addon.enqueueFillBuffer(this.native, buffer.native, pattern, offset, size, waitList));
  }

  #imageRegion(image: CLImage, options: ImageRegionOptions): { origin: Triple; region: Triple } {
    const origin = options.origin ? checkTriple(options.origin, 'origin', 0) : ([0, 0, 0] as Triple);
    const full = image.region;
    const region = options.region
      ? checkTriple(options.region, 'region', 1)
      : ([full[0] - origin[0], full[1] - origin[1], full[2] - origin[2]] as Triple);
    return { origin, region };
  }

  /** Copies an image region into host memory (tightly packed unless pitches are given). */
  readImage(image: CLImage, target: HostMemory, options: ImageTransferOptions = {}): Event {
    expectMem(this, image, CLImage, 'image', 'clEnqueueReadImage');
    byteLengthOf(target, 'target');
    const { origin, region } = this.#imageRegion(image, options);
    const waitList = nativeWaitList(options.waitFor, this.context);
    return this.#transfer(options, target, (blocking) =>
      this.context.addon.enqueueReadImage(this.native, image.native, blocking, origin, region,
        options.rowPitch ?? 0, options.slicePitch ?? 0, target, waitList),
    );
  }

  /** Copies host memory into an image region. */
  writeImage(image: CLImage, source: HostMemory, options: ImageTransferOptions = {}): Event {
    expectMem(this, image, CLImage, 'image', 'clEnqueueWriteImage');
    byteLengthOf(source, 'source');
    const { origin, region } = this.#imageRegion(image, options);
    const waitList = nativeWaitList(options.waitFor, this.context);
    return this.#transfer(options, source, (blocking) =>
      this.context.addon.enqueueWriteImage(this.native, image.native, blocking, origin, region,
        options.rowPitch ?? 0, options.slicePitch ?? 0, source, waitList),
    );
  }

  /** Copies a region between images of the same format. */
  copyImage(source: CLImage, destination: CLImage, options: EnqueueOptions & { srcOrigin?: Triple; dstOrigin?: Triple; region?: Triple } = {}): Event {
    expectMem(this, source, CLImage, 'source', 'clEnqueueCopyImage');
    expectMem(this, destination, CLImage, 'destination', 'clEnqueueCopyImage');
    const srcOrigin = options.srcOrigin ? checkTriple(options.srcOrigin, 'srcOrigin', 0) : ([0, 0, 0] as Triple);
    const dstOrigin = options.dstOrigin ? checkTriple(options.dstOrigin, 'dstOrigin', 0) : ([0, 0, 0] as Triple);
    const region = options.region ? checkTriple(options.region, 'region', 1) : source.region;
    const waitList = nativeWaitList(options.waitFor, this.context);
    return this.#event(
      this.context.addon.enqueueCopyImage(this.native, source.native, destination.native, srcOrigin, dstOrigin, region, waitList),
      options.waitFor,
    );
  }

  /**
   * Fills an image region with one color: four floats for normalized and float
   * formats, four signed or unsigned integers for integer formats.
   */
  fillImage(image: CLImage, color: readonly number[], options: ImageRegionOptions = {}): Event {
    expectMem(this, image, CLImage, 'image', 'clEnqueueFillImage');
    if (!Array.isArray(color) || color.length !== 4 || !color.every((c) => typeof c === 'number')) {
      throw new TypeError('color must be an array of four numbers');
    }
    const type = image.channelType;
    const packed = type.startsWith('SIGNED_INT')
      ? new Int32Array(color)
      : type.startsWith('UNSIGNED_INT')
        ? new Uint32Array(color)
        : new Float32Array(color);
    const { origin, region } = this.#imageRegion(image, options);
    const waitList = nativeWaitList(options.waitFor, this.context);
    return this.#event(
this.context.addon.enqueueFillImage(this.native, image.native, packed, origin, region, waitList));
  }

  copyImageToBuffer(image: CLImage, buffer: CLBuffer, options: ImageRegionOptions & { dstOffset?: number } = {}): Event {
    expectMem(this, image, CLImage, 'image', 'clEnqueueCopyImageToBuffer');
    expectMem(this, buffer, CLBuffer, 'buffer', 'clEnqueueCopyImageToBuffer');
    const { origin, region } = this.#imageRegion(image, options);
    const dstOffset = options.dstOffset ?? 0;
    checkCount(dstOffset, 'dstOffset');
    const waitList = nativeWaitList(options.waitFor, this.context);
    return this.#event(
      this.context.addon.enqueueCopyImageToBuffer(this.native, image.native, buffer.native, origin, region, dstOffset, waitList),
    );
  }

  copyBufferToImage(buffer: CLBuffer, image: CLImage, options: ImageRegionOptions & { srcOffset?: number } = {}): Event {
    expectMem(this, buffer, CLBuffer, 'buffer', 'clEnqueueCopyBufferToImage');
    expectMem(this, image, CLImage, 'image', 'clEnqueueCopyBufferToImage');
    const { origin, region } = this.#imageRegion(image, options);
    const srcOffset = options.srcOffset ?? 0;
    checkCount(srcOffset, 'srcOffset');
    const waitList = nativeWaitList(options.waitFor, this.context);
    return this.#event(
      this.context.addon.enqueueCopyBufferToImage(this.native, buffer.native, image.native, srcOffset, origin, region, waitList),
      options.waitFor,
    );
  }

  #mapBuffer(buffer: CLBuffer, blocking: boolean, options: EnqueueOptions & { access?: MapAccess; offset?: number; size?: number }): Mapping {
    expectMem(this, buffer, CLBuffer, 'buffer', 'clEnqueueMapBuffer');
    const flags = mapFlags(options.access);
    const offset = options.offset ?? 0;
    const size = options.size ?? buffer.size - offset;
    checkCount(offset, 'offset');
    checkCount(size, 'size', 1);
    const waitList = nativeWaitList(options.waitFor, this.context);
    const result = this.context.addon.enqueueMapBuffer(this.native, buffer.native, blocking, flags, offset, size, waitList);
    return this.#track(new Mapping(buffer, this, result.buffer, this.#event(result.event, options.waitFor)));
  }

  #mapImage(image: CLImage, blocking: boolean, options: ImageRegionOptions & { access?: MapAccess }): Mapping {
    expectMem(this, image, CLImage, 'image', 'clEnqueueMapImage');
    const flags = mapFlags(options.access);
    const { origin, region } = this.#imageRegion(image, options);
    const waitList = nativeWaitList(options.waitFor, this.context);
    const result = this.context.addon.enqueueMapImage(this.native, image.native, blocking, flags, origin, region, waitList);
    return this.#track(new Mapping(image, this, result.buffer, this.#event(result.event, options.waitFor), result.rowPitch, result.slicePitch));
  }

  #track(mapping: Mapping): Mapping {
    this.mappings.add(mapping);
    return mapping;
  }

  /** Maps a buffer range; resolves once the bytes are readable. */
  async mapBuffer(buffer: CLBuffer, options: EnqueueOptions & { access?: MapAccess; offset?: number; size?: number } = {}): Promise<Mapping> {
    const mapping = this.#mapBuffer(buffer, false, options);
    await this.#settle(mapping);
    return mapping;
  }
  /** Maps a buffer range, blocking until the bytes are readable. */
  mapBufferSync(buffer: CLBuffer, options: EnqueueOptions & { access?: MapAccess; offset?: number; size?: number } = {}): Mapping {
    return this.#mapBuffer(buffer, true, options);
  }
  /** Maps an image region; rows are `mapping.rowPitch` bytes apart. */
  async mapImage(image: CLImage, options: ImageRegionOptions & { access?: MapAccess } = {}): Promise<Mapping> {
    const mapping = this.#mapImage(image, false, options);
    await this.#settle(mapping);
    return mapping;
  }
  mapImageSync(image: CLImage, options: ImageRegionOptions & { access?: MapAccess } = {}): Mapping {
    return this.#mapImage(image, true, options);
  }

  async #settle(mapping: Mapping): Promise<void> {
    try {
      await mapping.event.completed;
    } catch (error) {
      mapping.abandon();
      throw error;
    }
  }

  /** @internal Used by Mapping.unmap. */
  unmapRaw(memory: MemObject, mapped: ArrayBuffer, waitFor: readonly Event[] | undefined): Event {
    const waitList = nativeWaitList(waitFor, this.context);
    return this.#event(this.context.addon.enqueueUnmap(this.native, memory.native, mapped, waitList), waitFor);
  }

  /** A marker: completes when the listed events (or all earlier commands) complete. */
  enqueueMarker(options: EnqueueOptions = {}): Event {
    return this.#event(this.context.addon.enqueueMarker(this.native, nativeWaitList(options.waitFor, this.context)), options.waitFor);
  }
  /** A barrier: later commands wait for the listed events (or all earlier commands). */
  enqueueBarrier(options: EnqueueOptions = {}): Event {
    return this.#event(this.context.addon.enqueueBarrier(this.native, nativeWaitList(options.waitFor, this.context)), options.waitFor);
  }

  /**
   * Acquires objects created from Direct3D / VA-API resources for OpenCL,
   * each through its own extension's entry point. Returns a scope whose
   * release() (or [Symbol.dispose], so `using` works) gives them back.
   */
  acquire(objects: readonly MemObject[], options: EnqueueOptions = {}): AcquireScope {
    return new AcquireScope(this, objects, options);
  }

  /**
   * Acquires the objects, runs fn, and releases them even when fn throws or
   * rejects. Resolves with fn's result once the release has completed, so
   * Direct3D / VA-API may use the resources again. The scope's events are
   * released then too.
   */
  async withAcquired<T>(
    objects: readonly MemObject[],
    fn: (scope: AcquireScope) => T | Promise<T>,
    options: EnqueueOptions & { releaseWaitFor?: readonly Event[] } = {},
  ): Promise<Awaited<T>> {
    if (typeof fn !== 'function') throw new TypeError('fn must be a function');
    const scope = this.acquire(objects, options);
    let result: Awaited<T>;
    try {
      result = await fn(scope);
    } finally {
      if (scope.active) {
        const released = scope.release({ waitFor: options.releaseWaitFor });
        this.native.flush();
        try {
          await released.completed;
        } finally {
          released.release();
          scope.event.release();
        }
      }
    }
    return result;
  }

  /** clEnqueueAcquire*: the lower-level form of acquire(). */
  enqueueAcquireShared(objects: readonly MemObject[], options: EnqueueOptions = {}): Event {
    return enqueueShared('acquire', this, objects, options.waitFor);
  }

  /** clEnqueueRelease*: gives acquired objects back to Direct3D / VA-API. */
  enqueueReleaseShared(objects: readonly MemObject[], options: EnqueueOptions = {}): Event {
    return enqueueShared('release', this, objects, options.waitFor);
  }

  flush(): void {
    this.native.flush();
  }

  /** Resolves when every command enqueued so far has completed, without blocking the event loop. */
  async finish(): Promise<void> {
    const marker = this.enqueueMarker();
    this.native.flush();
    try {
      await marker.completed;
    } finally {
      marker.release();
    }
  }

  /** Blocks until every command enqueued so far has completed (clFinish). */
  finishSync(): void {
    this.native.finish();
  }

  protected override beforeRelease(): void {
    if (this.mappings.size === 0) return;
    for (const mapping of [...this.mappings]) mapping.abandon();
    // Submitted, not awaited: a command on this queue may wait for a user
    // event that only this thread can set.
    try {
      this.native.flush();
    } catch {
      // A failing queue has nothing left to unmap with; release it regardless.
    }
  }
}
