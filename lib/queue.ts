// Command queues: every core enqueue command goes through submit() (wait
// lists, user-event gates, blocking refusals, event bookkeeping; the gates a
// queue tracks are lib/queue-gates.ts's); the commands on memory objects are
// lib/memory-commands.ts's, transfers of host memory are staged by
// lib/staging.ts, maps made by lib/mapping.ts, and acquire and release of
// shared objects reach lib/interop/ through lib/sharing-hooks.ts.
import { type EventId, type NativeQueue, callArrays } from './addon';
import { CL } from './facts/cl-constants';
import type { ContextLink } from './links';
import type { Device } from './device';
import { AcquireScope } from './acquire-scope';
import {
  type CompletionMechanism,
  Event,
  type EnqueueOptions,
  type Gate,
  completionMechanism,
  gateOn,
  gatesOf,
  nativeWaitList,
  refuseToBlock,
} from './event';
import { OpenCLError, OpenCLStateError, contextMismatch, describeValue } from './errors';
import type { CheckedHost, HostData } from './host-memory';
import { decode } from './info';
import { Kernel } from './kernel';
import { type MapAccess, type MapBufferOptions, type Mapping, mapBuffer, mapImage, mapped } from './mapping';
import { CLBuffer, CLImage, LiveSet, type MemObject } from './memory';
import * as memoryCommands from './memory-commands';
import { type BufferTransferOptions, type ImageRegionOptions, type ImageTransferOptions, expectMem } from './memory-commands';
import { noteCrossQueueWaits, pruneFailedGates, refuseBehindFailed, refuseFinishBehindFailed } from './queue-gates';
import { Resource } from './resource';
import { enqueueShared } from './sharing-hooks';
import { type RunTransfer, StagedTransfers, type TransferOptions } from './staging';
import { checkCount } from './validate';

type Triple = [number, number, number];

export type { EnqueueOptions } from './event';
export type { MapAccess } from './mapping';
export type { TransferOptions } from './staging';
export type { BufferTransferOptions, ImageRegionOptions, ImageTransferOptions } from './memory-commands';
export interface KernelRunOptions extends EnqueueOptions {
  globalOffset?: readonly number[];
  localSize?: readonly number[];
}
export interface QueueOptions {
  outOfOrder?: boolean;
  profiling?: boolean;
  /**
   * How awaits on this queue's commands learn that they ended (default: what
   * measured best on the driver, `poll` on NVIDIA, `callback` elsewhere;
   * OPENCL_INTEROP_COMPLETION overrides the default). `waiter` blocks a
   * thread in clWaitForEvents, which on NVIDIA spins a core while an await is
   * pending; `poll` asks the status with sleeps growing with the wait (10 to
   * 250 us). `waiter` and `poll` need an in-order queue. docs/drivers.md
   * compares them.
   */
  completion?: CompletionMechanism;
}

/** A queue's OpenCL properties. */
export interface QueueProperties {
  outOfOrder: boolean;
  profiling: boolean;
}

/** @internal How one command is enqueued: see CommandQueue.submit(). */
export interface CommandSpec {
  /** The entry point, for errors. */
  call: string;
  waitFor?: readonly Event[];
  /**
   * The call blocks: refused when the command can only start after an unset user event. A string: the call
   * returns only once its wait list has ended on some driver (this says which and why), refused the same way.
   */
  blocking?: boolean | string;
  /** Waits on every earlier command even on an out-of-order queue (markers and barriers without a wait list). */
  waitsOnAll?: boolean;
  /** A barrier: every later command of the queue waits for it, out-of-order queues too. */
  blocksLater?: boolean;
}

const noGates: readonly Gate[] = [];

const noOptions: KernelRunOptions = Object.freeze({});

/** A command queue on one device of a context. */
export class CommandQueue extends Resource<NativeQueue> {
  readonly context: ContextLink;
  readonly device: Device;
  /** @internal Mappings made through this queue and not yet unmapped. */
  readonly mappings = new LiveSet<Mapping>();
  readonly #transfers = new StagedTransfers(this);
  /**
   * Events of commands on this queue the binding may still have to let go of
   * (see retireIfEnded). Released ones leave at the next pass: an array push
   * per command costs less than a Set's add and delete.
   */
  #events: Event[] = [];
  #retireAt = 64;
  /**
   * User events that commands on this queue wait on (for an in-order queue, its last command): those not set, and
   * those that failed while a command behind them may not have ended (#pruneFailed).
   */
  #gates: readonly Gate[] = [];
  /** Out-of-order queues: the user events the last barrier waits on, which every later command waits on too. */
  #barrierGates: readonly Gate[] = [];
  #properties?: QueueProperties;
  #compilesInProcess?: boolean;

  /** @internal */
  constructor(native: NativeQueue, context: ContextLink, device: Device, options?: QueueProperties, completion?: CompletionMechanism) {
    super(native);
    this.context = context;
    this.device = device;
    this.#properties = options;
    this.#completion = completion;
  }

  get kind(): string {
    return 'CommandQueue';
  }

  info(param: number): Uint8Array {
    return this.native.info(param);
  }

  get properties(): QueueProperties {
    if (this.#properties) return this.#properties;
    const bits = decode.ulong(this.native.info(CL.CL_QUEUE_PROPERTIES));
    return (this.#properties = {
      outOfOrder: (bits & BigInt(CL.CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) !== 0n,
      profiling: (bits & BigInt(CL.CL_QUEUE_PROFILING_ENABLE)) !== 0n,
    });
  }

  #completion?: CompletionMechanism;

  /**
   * How awaits on this queue's commands learn that they ended (the
   * `completion` option, else the driver's default). The queue's waiting
   * thread waits in the order of the awaits, which is the order an in-order
   * queue ends its commands: an out-of-order queue's awaits take the
   * driver's callbacks.
   */
  get completion(): CompletionMechanism {
    if (this.#completion) return this.#completion;
    const chosen = completionMechanism(this.device.platform.name);
    return (this.#completion = chosen !== 'callback' && this.properties.outOfOrder ? 'callback' : chosen);
  }

  /** @internal */
  get profilingEnabled(): boolean {
    return this.properties.profiling;
  }

  /** Number of non-blocking reads whose bytes have not reached their target yet. */
  get pendingTransfers(): number {
    return this.#transfers.pending;
  }

  /**
   * @internal The one path of every command: checks the wait list (types,
   * context, released or failed events), refuses a blocking call that could
   * only return after an unset user event is set, enqueues, and links the
   * new event to the user events it waits on, directly or through earlier
   * commands of an in-order queue.
   */
  submit(spec: CommandSpec, run: (waitList: EventId[] | undefined) => EventId): Event {
    const waitList = this.#admit(spec.call, spec.waitFor, spec.blocking, spec.waitsOnAll);
    const gates = this.#admitted;
    const id = run(waitList);
    this.#admitted = gates; // whatever run() did meanwhile
    return this.#enter(id, spec.blocksLater);
  }

  /** The gates #admit() found for the command being enqueued, for #enter(). */
  #admitted: readonly Gate[] = noGates;

  /** Why this queue takes no more commands (see markBroken), else undefined. */
  #brokenBy: string | undefined;

  /**
   * @internal A user event failed while a command of another queue waited on
   * one of this queue's commands behind it. PoCL (3.1) then counts this
   * queue's commands one too few and aborts the process when its next command
   * ends (test/misuse.test.ts); refused on every driver, so
   * that a script behaves the same everywhere. Finishing and releasing it are
   * fine.
   */
  markBroken(gate: string): void {
    this.#brokenBy ??=
      `this queue takes no more commands: a command of another queue waited on one of its commands when ${gate} failed them, ` +
      "after which PoCL's bookkeeping of this queue is wrong and its next command aborts the process (refused on every driver). " +
      'Create a new queue (context.createQueue()); this one can still be finished and released';
  }

  // submit() in two halves, so that the hottest command (enqueueKernel) needs
  // no closure and no spec object: #admit() checks and returns the native wait
  // list, the caller enqueues, #enter() makes and links the event.
  #admit(call: string, waitFor: readonly Event[] | undefined, blocking?: boolean | string, waitsOnAll?: boolean): EventId[] | undefined {
    if (this.#brokenBy !== undefined) throw new OpenCLStateError(`${call}: ${this.#brokenBy}`);
    if (waitFor === undefined && this.#gates.length === 0 && this.#barrierGates.length === 0) {
      this.#admitted = noGates;
      return undefined;
    }
    this.#pruneFailed();
    const waitList = nativeWaitList(waitFor, this.context, call);
    // Out of order, a command waits on earlier ones only through a barrier (or as a marker or barrier without a wait list).
    const inherited = waitsOnAll || !this.properties.outOfOrder ? this.#gates : this.#barrierGates;
    const implicit = inherited.length ? inherited : undefined;
    const gates = waitFor === undefined && implicit === undefined ? noGates : gatesOf(waitFor, implicit);
    if (waitFor !== undefined && gates.length) noteCrossQueueWaits(waitFor, this);
    if (blocking) refuseBehindFailed(gates, call);
    if (typeof blocking === 'string') {
      refuseToBlock(gates, `${call} (${blocking})`, 'the command', 'Set it first (userEvent.setStatus()), then enqueue this command.');
    } else if (blocking) {
      refuseToBlock(gates, `a blocking ${call}`, 'the command');
    }
    this.#admitted = gates;
    return waitList;
  }

  #enter(id: EventId, blocksLater?: boolean): Event {
    const gates = this.#admitted;
    this.#admitted = noGates;
    const event = new Event(id, this.context, this);
    if (gates.length) gateOn(event, gates);
    if (gates.length || this.#gates.length) {
      this.#gates = this.properties.outOfOrder ? gatesOf(undefined, [...this.#gates, ...gates]) : gates;
    }
    if (blocksLater && this.properties.outOfOrder) this.#barrierGates = gates;
    this.#events.push(event);
    if (this.#events.length >= this.#retireAt) this.#retireEnded();
    return event;
  }

  /** See pruneFailedGates (lib/queue-gates.ts). */
  #pruneFailed(): void {
    this.#gates = pruneFailedGates(this.#gates, this.#events);
    this.#barrierGates = pruneFailedGates(this.#barrierGates, this.#events);
  }

  // Commands whose events nobody releases must not keep the driver's objects
  // (queue, context, memory) alive until garbage collection: ended ones let
  // go of their handle here, amortized over enqueues, and all at release.
  #retireEnded(): void {
    this.#events = this.#events.filter((event) => !event.retireIfEnded());
    this.#retireAt = Math.max(64, this.#events.length * 2);
  }

  /** Runs a kernel over an NDRange of 1 to 3 dimensions. */
  enqueueKernel(kernel: Kernel, globalSize: number | readonly number[], options: KernelRunOptions = noOptions): Event {
    if (!(kernel instanceof Kernel)) throw new TypeError(`kernel must be a Kernel; got ${describeValue(kernel)}`);
    if (kernel.program.context !== this.context) throw contextMismatch('clEnqueueNDRangeKernel', 'the kernel');
    // Arrays are copied as they are checked: the native call reads only the copies.
    const global =
      typeof globalSize === 'number' ? (checkCount(globalSize, 'globalSize', 1), globalSize) : checkSizes(globalSize, 'globalSize', 1, 0);
    const dims = typeof global === 'number' ? 1 : global.length;
    const offset = options.globalOffset === undefined ? undefined : checkSizes(options.globalOffset, 'globalOffset', 0, dims);
    const local = options.localSize === undefined ? undefined : checkSizes(options.localSize, 'localSize', 1, dims);
    kernel.checkArgsForEnqueue('clEnqueueNDRangeKernel', this.device);
    const waitList = this.#admit('clEnqueueNDRangeKernel', options.waitFor);
    const sizes = callArrays.ndrangeSizes;
    sizes[0] = dims;
    sizes[1] = offset === undefined ? 0 : 1;
    sizes[2] = local === undefined ? 0 : 1;
    for (let d = 0; d < dims; d++) {
      sizes[3 + d] = typeof global === 'number' ? global : global[d]!;
      sizes[6 + d] = offset === undefined ? 0 : offset[d]!;
      sizes[9 + d] = local === undefined ? 1 : local[d]!;
    }
    kernel.pendingArgs(callArrays.kernelArgOps);
    // CPU drivers (PoCL) compile a kernel on their own threads at its first
    // run: the addon keeps such commands until they end, so that the process
    // exit can wait for them (see native/completion.h, NoteKernelCommand).
    const compilesInProcess = (this.#compilesInProcess ??= this.device.type === 'cpu');
    let id: EventId;
    try {
      id = this.context.addon.enqueueNDRange(this.slot, kernel.slot, waitList, compilesInProcess);
    } catch (error) {
      // Which argument the driver refused: handed over one by one, the refusal names it.
      if (error instanceof OpenCLError && error.call === 'clSetKernelArg') kernel.applyPendingNow();
      throw error;
    }
    kernel.pendingArgsApplied();
    return this.#enter(id);
  }

  /** Copies bytes from a buffer into host memory. */
  readBuffer(buffer: CLBuffer, target: HostData, options: BufferTransferOptions = {}): Event {
    return memoryCommands.readBuffer(this, buffer, target, options);
  }

  /** Copies bytes from host memory into a buffer. */
  writeBuffer(buffer: CLBuffer, source: HostData, options: BufferTransferOptions = {}): Event {
    return memoryCommands.writeBuffer(this, buffer, source, options);
  }

  /** @internal A transfer of checked host memory, staged where it must be (lib/staging.ts). */
  stageTransfer(call: string, direction: 'read' | 'write', host: CheckedHost, bytes: number, options: TransferOptions, run: RunTransfer): Event {
    return this.#transfers.transfer(call, direction, host, bytes, options, run);
  }

  /**
   * @internal Copies the bytes of staged reads whose commands have ended
   * into their targets (after blocking waits, which no callback precedes).
   */
  settleTransfers(): void {
    this.#transfers.settle();
  }

  /** Copies between buffers. */
  copyBuffer(
    source: CLBuffer,
    destination: CLBuffer,
    options: EnqueueOptions & { srcOffset?: number; dstOffset?: number; size?: number } = {},
  ): Event {
    return memoryCommands.copyBuffer(this, source, destination, options);
  }

  /** Fills a buffer range with a repeated pattern of 1, 2, 4, ... 128 bytes; offset and size are multiples of it. */
  fillBuffer(buffer: CLBuffer, pattern: ArrayBufferView, options: EnqueueOptions & { offset?: number; size?: number } = {}): Event {
    return memoryCommands.fillBuffer(this, buffer, pattern, options);
  }

  /** Copies an image region into host memory (tightly packed unless pitches are given). */
  readImage(image: CLImage, target: HostData, options: ImageTransferOptions = {}): Event {
    return memoryCommands.imageTransfer(this, 'clEnqueueReadImage', 'read', image, target, 'target', options);
  }

  /** Copies host memory into an image region. */
  writeImage(image: CLImage, source: HostData, options: ImageTransferOptions = {}): Event {
    return memoryCommands.imageTransfer(this, 'clEnqueueWriteImage', 'write', image, source, 'source', options);
  }

  /** Copies a region between images of the same format. */
  copyImage(
    source: CLImage,
    destination: CLImage,
    options: EnqueueOptions & { srcOrigin?: Triple; dstOrigin?: Triple; region?: Triple } = {},
  ): Event {
    return memoryCommands.copyImage(this, source, destination, options);
  }

  /**
   * Fills an image region with one color: four floats for normalized and float
   * formats, four signed or unsigned integers for integer formats.
   */
  fillImage(image: CLImage, color: readonly number[], options: ImageRegionOptions = {}): Event {
    return memoryCommands.fillImage(this, image, color, options);
  }

  copyImageToBuffer(image: CLImage, buffer: CLBuffer, options: ImageRegionOptions & { dstOffset?: number } = {}): Event {
    return memoryCommands.copyImageToBuffer(this, image, buffer, options);
  }

  copyBufferToImage(buffer: CLBuffer, image: CLImage, options: ImageRegionOptions & { srcOffset?: number } = {}): Event {
    return memoryCommands.copyBufferToImage(this, buffer, image, options);
  }

  /** Maps a buffer range; resolves once the bytes are readable. */
  async mapBuffer(buffer: CLBuffer, options: MapBufferOptions = {}): Promise<Mapping> {
    expectMem(this, buffer, CLBuffer, 'buffer', 'clEnqueueMapBuffer');
    return mapped(mapBuffer(this, buffer, false, options));
  }
  /** Maps a buffer range, blocking until the bytes are readable. */
  mapBufferSync(buffer: CLBuffer, options: MapBufferOptions = {}): Mapping {
    expectMem(this, buffer, CLBuffer, 'buffer', 'clEnqueueMapBuffer');
    return mapBuffer(this, buffer, true, options);
  }
  /** Maps an image region; rows are `mapping.rowPitch` bytes apart. */
  async mapImage(image: CLImage, options: ImageRegionOptions & { access?: MapAccess } = {}): Promise<Mapping> {
    return mapped(this.#mapImage(image, false, options));
  }
  mapImageSync(image: CLImage, options: ImageRegionOptions & { access?: MapAccess } = {}): Mapping {
    return this.#mapImage(image, true, options);
  }

  #mapImage(image: CLImage, blocking: boolean, options: ImageRegionOptions & { access?: MapAccess }): Mapping {
    expectMem(this, image, CLImage, 'image', 'clEnqueueMapImage');
    return mapImage(this, image, blocking, options, () => memoryCommands.imageRegion(image, options));
  }

  /** A marker: completes when the listed events (or all earlier commands) complete. */
  enqueueMarker(options: EnqueueOptions = {}): Event {
    return this.submit({ call: 'clEnqueueMarkerWithWaitList', waitFor: options.waitFor, waitsOnAll: !options.waitFor?.length }, (waitList) =>
      this.context.addon.enqueueMarker(this.slot, waitList),
    );
  }
  /** A barrier: later commands wait for the listed events (or all earlier commands). */
  enqueueBarrier(options: EnqueueOptions = {}): Event {
    return this.submit(
      { call: 'clEnqueueBarrierWithWaitList', waitFor: options.waitFor, waitsOnAll: !options.waitFor?.length, blocksLater: true },
      (waitList) => this.context.addon.enqueueBarrier(this.slot, waitList),
    );
  }

  /**
   * Acquires shared objects for OpenCL (made from a Direct3D or VA-API
   * resource, or imported from memory another API exported: Vulkan,
   * DMA-BUF), each through its own extension's entry point. Returns a scope: use
   * `await using` to release at the end of a block and wait for the release.
   */
  acquire(objects: readonly MemObject[], options: EnqueueOptions = {}): AcquireScope {
    return new AcquireScope(this, objects, options);
  }

  /**
   * Acquires the objects, runs fn, and releases them even when fn throws or
   * rejects. Resolves with fn's result once the release has completed, so
   * the API they came from may use the resources again. The scope's events are
   * released then too.
   */
  async withAcquired<T>(
    objects: readonly MemObject[],
    fn: (scope: AcquireScope) => T | Promise<T>,
    options: EnqueueOptions & { releaseWaitFor?: readonly Event[] } = {},
  ): Promise<Awaited<T>> {
    if (typeof fn !== 'function') throw new TypeError(`fn must be a function; got ${describeValue(fn)}`);
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

  /** clEnqueueRelease*: gives acquired objects back to the API they came from. */
  enqueueReleaseShared(objects: readonly MemObject[], options: EnqueueOptions = {}): Event {
    return enqueueShared('release', this, objects, options.waitFor);
  }

  flush(): void {
    this.context.addon.flushQueue(this.slot);
  }

  /**
   * Resolves when every command enqueued so far has completed, without
   * blocking the event loop. Does not keep the process alive while those
   * commands wait on a user event that is not set. Rejects when one of them
   * failed, once the driver has ended them (so that the commands enqueued
   * after are not behind the failure).
   */
  async finish(): Promise<void> {
    if (this.#brokenBy !== undefined) {
      // No marker: on the queue markBroken describes, PoCL aborts at the next command. Its failed commands have ended.
      await Promise.resolve();
      this.finishSync();
      return;
    }
    const marker = this.enqueueMarker();
    this.native.flush();
    try {
      await marker.completed.catch(async (error) => {
        // Failed in the binding's view at once (a command behind a failed user event): the driver's end comes first.
        if (marker.failedInView() !== undefined) await marker.driverEnded(true);
        throw error;
      });
    } finally {
      marker.release();
      this.settleTransfers();
    }
  }

  /**
   * Blocks until every command enqueued so far has completed (clFinish).
   * Throws OpenCLStateError instead when a command waits on a user event that
   * is not set (it would never return), and OpenCLError
   * CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST at once while a command
   * behind a user event that failed has not ended in its driver (the binding
   * counts it failed; a driver may never end it).
   */
  finishSync(): void {
    this.#pruneFailed();
    refuseFinishBehindFailed(this.#gates);
    refuseToBlock(this.#gates, 'finishSync()', 'a command on this queue');
    this.native.finish();
    this.settleTransfers();
  }

  protected override beforeRelease(): void {
    for (const mapping of this.mappings) mapping.abandon();
    // Submitted, not awaited: a command on this queue may wait for a user
    // event that only this thread can set.
    try {
      this.native.flush();
    } catch {
      // A failing queue has nothing left to flush; release it regardless.
    }
    for (const event of this.#events) {
      if (!event.retireIfEnded()) event.driverEnded().then(() => event.retireIfEnded());
    }
    this.#events = [];
  }
}

/**
 * Copies an NDRange size list, checking it: an array of 1 to 3 integers >= min,
 * of `dims` entries where given (0: any). Each element is read once.
 */
function checkSizes(value: unknown, what: string, min: number, dims: number): number[] {
  if (!Array.isArray(value)) throw new TypeError(`${what} must be a number or an array of numbers; got ${describeValue(value)}`);
  const copy: number[] = [];
  for (let i = 0, length = value.length; i < length && i < 4; i++) {
    const v: unknown = value[i];
    checkCount(v, `${what}[${i}]`, min);
    copy.push(v);
  }
  const length = copy.length;
  if (dims === 0 && (length < 1 || length > 3)) throw new RangeError(`${what} must have 1 to 3 dimensions; got ${value.length}`);
  if (dims !== 0 && length !== dims) throw new RangeError(`${what} must have ${dims} dimension(s) like globalSize; got ${value.length}`);
  return copy;
}

declare module './links' {
  // CommandQueue is what links.ts calls QueueLink.
  interface QueueLink extends CommandQueue {}
}
