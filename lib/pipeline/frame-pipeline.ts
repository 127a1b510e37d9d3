// Frames in flight through OpenCL: N slots, each with its own resources, a
// producer that fills a slot, OpenCL's work on it, and a consumer that takes
// the result, with no wait per frame. One frame f uses slot f mod N:
//
//   produce(f)  Vulkan: the caller's commands, submitted signalling the slot's
//               "input ready" semaphore (Vulkan makes it, exports it, OpenCL
//               imports it); host: the caller's function (a VA or Direct3D
//               write, or an upload enqueued on the pipeline's queue)
//   process(f)  on the pipeline's queue: wait "input ready" (Vulkan producer)
//               or the Event the host producer returned, acquire the slot's
//               shared objects, the caller's kernels, release, signal "output
//               ready" (Vulkan consumer), flush
//   consume(f)  Vulkan: the caller's commands, submitted waiting on "output
//               ready"; host: the caller's function, given an Event that
//               completes when the frame's OpenCL work has
//
// Orders: 'naive' runs produce, process and consume of each frame in turn;
// 'ahead' produces the first N frames, then for each frame process(f),
// consume(f), produce(f + N), so N frames are in flight; `lag` L submits the
// consumer of frame f after the OpenCL work of frame f + L. Before a slot is
// used again, its previous consumer is awaited (usually long finished).
import { describeValue } from '../errors';
import { Event } from '../event';
import { getSemaphores, type Semaphore, type Semaphores } from '../interop/semaphore';
import { MemObject } from '../memory';
import { CommandQueue } from '../queue';
import { refuseCloning } from '../os-handle';
import { checkChoice, checkInt, checkObject, checkOptions } from '../validate';
import { VulkanCommands } from '../vulkan/commands';
import { VulkanDevice, type VulkanSubmission } from '../vulkan/device';
import { VulkanDisposedError } from '../vulkan/errors';
import type { VulkanSemaphore } from '../vulkan/semaphore';
import { FramePipelineDisposedError, FramePipelineStateError, FrameStepError, type FrameStepName } from './errors';

/** The most slots a pipeline may have. */
export const MAX_FRAME_SLOTS = 256;

/** One slot: its index, the resources made for it, and the Vulkan semaphores that order its steps (null when that side is not Vulkan). */
export interface FrameSlot<R = unknown> {
  readonly index: number;
  readonly resources: R;
  /** Signalled by a Vulkan producer, waited on by OpenCL. */
  readonly inputReady: VulkanSemaphore | null;
  /** Signalled by OpenCL, waited on by a Vulkan consumer. */
  readonly outputReady: VulkanSemaphore | null;
}

/**
 * A producer step: `{ vulkan }` returns the Vulkan commands that fill the
 * slot (recorded once, submitted many times; the pipeline submits them on
 * options.vulkan's queue signalling the slot's inputReady); `{ host }` fills
 * the slot itself and returns nothing (done, or enqueued on the pipeline's
 * in-order queue), an Event OpenCL's work waits for (an upload on another
 * queue of the same context), or a promise the pipeline awaits before
 * OpenCL's work. A host producer is called only once the slot's previous
 * frame is consumed; a Vulkan producer's commands are ordered after it on
 * the Vulkan queue.
 */
export type FrameProducer<R> =
  | { readonly vulkan: (slot: FrameSlot<R>, frame: number) => VulkanCommands; readonly host?: undefined }
  | { readonly host: (slot: FrameSlot<R>, frame: number) => void | Event | PromiseLike<unknown>; readonly vulkan?: undefined };

/**
 * A consumer step: `{ vulkan }` returns the Vulkan commands that take the
 * frame (submitted waiting on the slot's outputReady); `{ host }` is called
 * right after OpenCL's work is enqueued, with an Event that completes when
 * that work has, and returns nothing or a promise; the slot is reused once
 * both the event and the promise have settled. A host consumer may enqueue
 * a read on the pipeline's queue (it runs after the frame's work) and return
 * its event.
 */
export type FrameConsumer<R> =
  | { readonly vulkan: (slot: FrameSlot<R>, frame: number) => VulkanCommands; readonly host?: undefined }
  | { readonly host: (slot: FrameSlot<R>, frame: number, done: Event) => void | PromiseLike<unknown>; readonly vulkan?: undefined };

export interface FramePipelineOptions<R = unknown> {
  /** The in-order queue OpenCL's work of every frame is enqueued on. */
  queue: CommandQueue;
  /** How many frames may be in flight: 1 to 256. */
  slots: number;
  /** The Vulkan device of the Vulkan steps (required when produce or consume is `{ vulkan }`; the same GPU as the queue's device). */
  vulkan?: VulkanDevice;
  /** Makes a slot's resources once (slot.resources); ones with [Symbol.dispose] are disposed with the pipeline. */
  resources?: (index: number) => R;
  /** The shared objects (imported external memory, VA surfaces' images, Direct3D textures' images) acquired around OpenCL's work of each frame. */
  acquire?: (slot: FrameSlot<R>) => readonly MemObject[];
  produce: FrameProducer<R>;
  /** OpenCL's work of a frame: enqueue it on options.queue (release the events you do not need). */
  process: (slot: FrameSlot<R>, frame: number) => void;
  consume: FrameConsumer<R>;
  /**
   * How a Vulkan step and OpenCL's work are ordered: 'semaphores' (Vulkan
   * binary semaphores exported as opaque fds and imported into OpenCL; no
   * host wait) or 'host' (the pipeline awaits the producer's submission
   * before OpenCL's work, and OpenCL's work before the consumer's
   * submission). Default: 'semaphores' where the Vulkan device exports and
   * the OpenCL device imports opaque-fd semaphores, else 'host'.
   */
  sync?: FrameSync;
}

export type FrameSync = 'semaphores' | 'host';

export type FrameOrder = 'naive' | 'ahead';

/** Host milliseconds per phase, added to by run() when options.timing is given. */
export interface FrameTiming {
  produce?: number;
  opencl?: number;
  consume?: number;
  wait?: number;
  /** When an object: host milliseconds per OpenCL call of a frame (wait, acquire, kernels, release, signal, flush). */
  calls?: Record<string, number>;
}

export interface FrameRunOptions<R = unknown> {
  /** How many frames: 0 or more. */
  frames: number;
  /** 'ahead' (default) or 'naive'. */
  order?: FrameOrder;
  /** 'ahead' only: the consumer of frame f is submitted after OpenCL's work of frame f + lag (0 to slots - 1; default 0). */
  lag?: number;
  /** Called once frame's consumer has finished, before its slot is used again. */
  onConsumed?: (slot: FrameSlot<R>, frame: number) => void | PromiseLike<unknown>;
  timing?: FrameTiming;
}

const RUN_KEYS = ['frames', 'order', 'lag', 'onConsumed', 'timing'] as const;
const OPTION_KEYS = ['queue', 'slots', 'vulkan', 'resources', 'acquire', 'produce', 'process', 'consume', 'sync'] as const;
const SYNCS: readonly FrameSync[] = ['semaphores', 'host'];
const ORDERS: readonly FrameOrder[] = ['naive', 'ahead'];
const CALLS = ['wait', 'acquire', 'kernels', 'release', 'signal', 'flush'] as const;
const swallow = (): void => {};

type Step = { vulkan?: unknown; host?: unknown };
function checkStep(value: unknown, what: string): 'vulkan' | 'host' {
  checkObject(value, what);
  const step = value as Step;
  const kinds = (['vulkan', 'host'] as const).filter((kind) => step[kind] !== undefined);
  if (kinds.length !== 1) throw new TypeError(`${what} must be { vulkan: function } or { host: function }; got ${describeValue(value)}`);
  const kind = kinds[0]!;
  if (typeof step[kind] !== 'function') throw new TypeError(`${what}.${kind} must be a function; got ${describeValue(step[kind])}`);
  return kind;
}

/** Whether the Vulkan device exports, and the queue's OpenCL device imports, opaque-fd semaphores. */
function semaphoresWork(vulkan: VulkanDevice, queue: CommandQueue): boolean {
  if (!vulkan.semaphoreHandleTypes.includes('opaque-fd')) return false;
  try {
    return getSemaphores(queue.context.platform).importHandleTypes(queue.device).includes('opaque-fd');
  } catch {
    return false; // the platform has no cl_khr_semaphore
  }
}

function checkFunction(value: unknown, what: string, optional: boolean): void {
  if (value === undefined && optional) return;
  if (typeof value !== 'function') throw new TypeError(`${what} must be a function; got ${describeValue(value)}`);
}

interface SlotState<R> {
  readonly index: number;
  resources: R;
  inputReady: VulkanSemaphore | null;
  outputReady: VulkanSemaphore | null;
  clInputReady: Semaphore | null;
  clOutputReady: Semaphore | null;
  objects: MemObject[];
}

/**
 * N frames in flight through OpenCL between any producer and consumer
 * (Vulkan submissions, VA surfaces, Direct3D textures, host uploads and
 * reads). Make it once, run() it as often as you like (one run at a time),
 * dispose() it (or `await using`) when done.
 */
export class FramePipeline<R = unknown> {
  readonly queue: CommandQueue;
  readonly vulkan: VulkanDevice | null;
  /** How the Vulkan steps are ordered with OpenCL's work ('host' when no step is a Vulkan one). */
  readonly sync: FrameSync;
  readonly #produce: FrameProducer<R>;
  readonly #consume: FrameConsumer<R>;
  readonly #process: (slot: FrameSlot<R>, frame: number) => void;
  #semaphores: Semaphores | null = null;
  #slots: SlotState<R>[] = [];
  readonly #count: number;
  #running: Promise<unknown> | null = null;
  #disposing = false;
  #released: Promise<void> | null = null;

  constructor(options: FramePipelineOptions<R>) {
    const o = checkOptions<FramePipelineOptions<R>>(options, 'options', OPTION_KEYS);
    if (options === undefined) throw new TypeError('options must be an object { queue, slots, produce, process, consume }; got undefined');
    // Each option read once.
    const { queue, slots, vulkan, resources, acquire, produce, process, consume, sync } = o;
    if (!(queue instanceof CommandQueue)) throw new TypeError(`options.queue must be a CommandQueue; got ${describeValue(queue)}`);
    if (queue.released) throw new FramePipelineStateError('options.queue has been released');
    if (queue.properties.outOfOrder)
      throw new TypeError('options.queue must be an in-order queue (the steps of a frame are ordered by it); got an out-of-order queue');
    const count = checkInt(slots, 'options.slots', 1, MAX_FRAME_SLOTS);
    const produceKind = checkStep(produce, 'options.produce');
    const consumeKind = checkStep(consume, 'options.consume');
    checkFunction(process, 'options.process', false);
    checkFunction(resources, 'options.resources', true);
    checkFunction(acquire, 'options.acquire', true);
    const needsVulkan = produceKind === 'vulkan' || consumeKind === 'vulkan';
    if (vulkan !== undefined && !(vulkan instanceof VulkanDevice))
      throw new TypeError(`options.vulkan must be a VulkanDevice; got ${describeValue(vulkan)}`);
    if (needsVulkan && vulkan === undefined) {
      throw new TypeError(
        `options.vulkan must be the VulkanDevice of the ${produceKind === 'vulkan' ? 'producer' : 'consumer'}'s commands (options.${produceKind === 'vulkan' ? 'produce' : 'consume'} is a Vulkan step); got undefined`,
      );
    }
    if (vulkan?.disposed) throw new VulkanDisposedError('VulkanDevice (options.vulkan)');
    const syncChoice = sync === undefined ? undefined : checkChoice(sync, 'options.sync', SYNCS);
    this.queue = queue;
    this.vulkan = vulkan ?? null;
    this.sync = !needsVulkan ? 'host' : (syncChoice ?? (semaphoresWork(vulkan!, queue) ? 'semaphores' : 'host'));
    this.#produce = produce!;
    this.#consume = consume!;
    this.#process = process!;
    this.#count = count;
    refuseCloning(this, 'a FramePipeline runs in the thread that made it: make one in the other thread');
    try {
      const useSemaphores = this.sync === 'semaphores';
      if (useSemaphores) this.#semaphores = getSemaphores(queue.context.platform);
      for (let index = 0; index < count; index++) {
        const slot: SlotState<R> = {
          index,
          resources: undefined as R,
          inputReady: null,
          outputReady: null,
          clInputReady: null,
          clOutputReady: null,
          objects: [],
        };
        this.#slots.push(slot);
        if (useSemaphores && produceKind === 'vulkan') {
          slot.inputReady = vulkan!.createSemaphore();
          slot.clInputReady = this.#semaphores!.import(queue.context, slot.inputReady.exportHandle());
        }
        if (useSemaphores && consumeKind === 'vulkan') {
          slot.outputReady = vulkan!.createSemaphore();
          slot.clOutputReady = this.#semaphores!.import(queue.context, slot.outputReady.exportHandle());
        }
        if (resources) {
          try {
            slot.resources = resources(index);
          } catch (error) {
            throw new FrameStepError('resources', index, -1, error);
          }
        }
        if (acquire) {
          let objects: unknown;
          try {
            objects = acquire(slot);
          } catch (error) {
            throw new FrameStepError('acquire', index, -1, error);
          }
          if (!Array.isArray(objects) || !objects.every((m) => m instanceof MemObject)) {
            throw new TypeError(
              `options.acquire(slot ${index}) must return an array of MemObject (the shared objects to acquire); got ${describeValue(objects)}`,
            );
          }
          slot.objects = [...objects];
        }
      }
    } catch (error) {
      this.#releaseNow();
      throw error;
    }
  }

  /** How many slots. */
  get count(): number {
    return this.#count;
  }

  /** The slots (empty once disposed). */
  get slots(): readonly FrameSlot<R>[] {
    return this.#slots;
  }

  /** Whether dispose() was called. */
  get disposed(): boolean {
    return this.#disposing;
  }

  /** Whether a run() is in progress. */
  get running(): boolean {
    return this.#running !== null;
  }

  /**
   * Runs `frames` frames through the slots. Resolves once every frame is
   * consumed and the queue is finished. A step that throws or rejects stops
   * the run: the frames in flight finish, then it rejects with a
   * FrameStepError. dispose() during a run stops it the same way (a
   * FramePipelineDisposedError).
   */
  run(options: FrameRunOptions<R>): Promise<void> {
    if (this.#disposing) return Promise.reject(new FramePipelineDisposedError('this FramePipeline has been disposed'));
    if (this.#running)
      return Promise.reject(new FramePipelineStateError('run() was called while another run() of this FramePipeline is in progress: await it first'));
    let run: Promise<void>;
    try {
      run = this.#run(options);
    } catch (error) {
      return Promise.reject(error);
    }
    const running = run.finally(() => {
      this.#running = null;
      if (this.#disposing) this.#releaseNow();
    });
    this.#running = running;
    return running;
  }

  #run(options: FrameRunOptions<R>): Promise<void> {
    checkObject(options, 'options');
    const o = checkOptions<FrameRunOptions<R>>(options, 'options', RUN_KEYS);
    const { frames: framesOption, order: orderOption, lag: lagOption, onConsumed, timing } = o;
    const frames = checkInt(framesOption, 'options.frames', 0);
    const order = checkChoice(orderOption, 'options.order', ORDERS, 'ahead');
    const n = this.#count;
    const lag = checkInt(lagOption, 'options.lag', 0, n - 1, 0);
    if (lag > 0 && order !== 'ahead') throw new RangeError(`options.lag must be 0 with the 'naive' order; got ${lag}`);
    checkFunction(onConsumed, 'options.onConsumed', true);
    if (timing !== undefined) checkObject(timing, 'options.timing');
    if (this.queue.released) throw new FramePipelineStateError("the pipeline's queue has been released");
    if (this.vulkan?.disposed) throw new VulkanDisposedError("VulkanDevice (the pipeline's options.vulkan)");
    return this.#frames(frames, order, lag, onConsumed, timing);
  }

  async #frames(
    frames: number,
    order: FrameOrder,
    lag: number,
    onConsumed: FrameRunOptions<R>['onConsumed'],
    timing: FrameTiming | undefined,
  ): Promise<void> {
    const n = this.#count;
    const queue = this.queue;
    const semaphores = this.#semaphores;
    const vkQueue = this.vulkan?.queue;
    const processStep = this.#process;
    const vulkanProducer = this.#produce.vulkan;
    const hostProducer = this.#produce.host;
    const vulkanConsumer = this.#consume.vulkan;
    const hostConsumer = this.#consume.host;
    const now = timing ? () => performance.now() : () => 0;
    const t = timing ?? {};
    t.produce ??= 0;
    t.opencl ??= 0;
    t.consume ??= 0;
    t.wait ??= 0;
    const calls = timing?.calls;
    if (calls) for (const key of CALLS) calls[key] ??= 0;

    // Per slot and run: prepared submissions (cached per commands object), the last promises of each side.
    const state = this.#slots.map((slot) => ({
      slot,
      produceSubmissions: new Map<VulkanCommands, VulkanSubmission>(),
      consumeSubmissions: new Map<VulkanCommands, VulkanSubmission>(),
      waitList: slot.clInputReady ? [slot.clInputReady] : null,
      signalList: slot.clOutputReady ? [slot.clOutputReady] : null,
      acquired: slot.objects.length ? slot.objects : null,
      /** What OpenCL's work of the slot's next frame waits for: a producer's Event (host) or promise. */
      producedEvent: null as Event | null,
      produced: null as PromiseLike<unknown> | null,
      producedFrame: -1,
      /** The last consumer: its promise, its frame, and (host) the done event to release after it. */
      consumed: null as PromiseLike<unknown> | null,
      consumedFrame: -1,
      doneEvent: null as Event | null,
      /** Host sync with a Vulkan consumer: a marker after the frame's OpenCL work, awaited before the consumer is submitted. */
      processedEvent: null as Event | null,
    }));
    const hostSync = this.sync === 'host';
    type State = (typeof state)[number];
    let failure: unknown = null;
    let framesDone = 0;
    const fail = (step: FrameStepName, s: State, frame: number, error: unknown): never => {
      throw new FrameStepError(step, s.slot.index, frame, error);
    };
    const prepared = (
      cache: Map<VulkanCommands, VulkanSubmission>,
      commands: unknown,
      what: string,
      submitOptions: { wait?: VulkanSemaphore[]; signal?: VulkanSemaphore[] },
    ): VulkanSubmission => {
      let submission = cache.get(commands as VulkanCommands);
      if (!submission) {
        if (!(commands instanceof VulkanCommands)) throw new TypeError(`${what} must return VulkanCommands; got ${describeValue(commands)}`);
        cache.set(commands, (submission = vkQueue!.prepare(commands, submitOptions)));
      }
      return submission;
    };

    // Waits for the slot's last consumer (and onConsumed), then lets go of its done event.
    const settleConsumer = async (s: State): Promise<void> => {
      if (!s.consumed) return;
      const consumed = s.consumed;
      s.consumed = null;
      const t0 = now();
      try {
        await consumed;
      } catch (error) {
        fail('consume', s, s.consumedFrame, error);
      } finally {
        s.doneEvent?.release();
        s.doneEvent = null;
        t.wait! += now() - t0;
      }
      framesDone++;
      if (onConsumed) {
        try {
          await onConsumed(s.slot, s.consumedFrame);
        } catch (error) {
          fail('onConsumed', s, s.consumedFrame, error);
        }
      }
    };

    // A Vulkan producer: no host wait unless the consumer is not Vulkan (then nothing on the Vulkan queue orders
    // this after the slot's last frame, so that frame must be consumed first).
    const produceVulkan = (frame: number): void => {
      const s = state[frame % n]!;
      const t0 = now();
      let promise: Promise<void>;
      try {
        promise = prepared(
          s.produceSubmissions,
          vulkanProducer!(s.slot, frame),
          'options.produce.vulkan()',
          s.slot.inputReady ? { signal: [s.slot.inputReady] } : {},
        ).submit();
      } catch (error) {
        fail('produce', s, frame, error);
      }
      promise!.catch(swallow); // awaited at the end; a rejection must not be unhandled before then
      s.produced = promise!;
      s.producedFrame = frame;
      t.produce! += now() - t0;
    };
    // A host producer writes the slot: its previous frame must be consumed first; what it returns is waited for.
    const produceHost = async (frame: number): Promise<void> => {
      const s = state[frame % n]!;
      await settleConsumer(s);
      const t0 = now();
      let result: unknown;
      try {
        result = hostProducer!(s.slot, frame);
      } catch (error) {
        fail('produce', s, frame, error);
      }
      if (result instanceof Event) s.producedEvent = result;
      else if (result !== undefined && typeof (result as PromiseLike<unknown>)?.then === 'function') s.produced = result as PromiseLike<unknown>;
      else if (result !== undefined)
        fail('produce', s, frame, new TypeError(`options.produce.host() must return nothing, an Event or a promise; got ${describeValue(result)}`));
      s.producedFrame = frame;
      t.produce! += now() - t0;
      if (s.produced) {
        const produced = s.produced;
        s.produced = null;
        const t1 = now();
        try {
          await produced;
        } catch (error) {
          fail('produce', s, frame, error);
        } finally {
          t.wait! += now() - t1;
        }
      }
    };

    const produceVulkanAfter = vulkanConsumer
      ? (frame: number): Promise<void> | void => produceVulkan(frame)
      : async (frame: number): Promise<void> => {
          await settleConsumer(state[frame % n]!);
          produceVulkan(frame);
        };

    const processFrame = (frame: number): void => {
      const s = state[frame % n]!;
      const t0 = now();
      let waitFor: Event[] | undefined;
      if (s.producedEvent) {
        waitFor = [s.producedEvent];
        s.producedEvent = null;
      }
      try {
        if (calls) {
          const c0 = now();
          if (s.waitList) semaphores!.wait(queue, s.waitList, waitFor && { waitFor }).release();
          const c1 = now();
          if (s.acquired) queue.enqueueAcquireShared(s.acquired, waitFor && !s.waitList ? { waitFor } : undefined).release();
          else if (waitFor && !s.waitList) queue.enqueueBarrier({ waitFor }).release();
          const c2 = now();
          processStep(s.slot, frame);
          const c3 = now();
          if (s.acquired) queue.enqueueReleaseShared(s.acquired).release();
          const c4 = now();
          if (s.signalList) semaphores!.signal(queue, s.signalList).release();
          if (hostSync && vulkanConsumer) s.processedEvent = queue.enqueueMarker();
          const c5 = now();
          queue.flush();
          const c6 = now();
          calls.wait! += c1 - c0;
          calls.acquire! += c2 - c1;
          calls.kernels! += c3 - c2;
          calls.release! += c4 - c3;
          calls.signal! += c5 - c4;
          calls.flush! += c6 - c5;
        } else {
          if (s.waitList) semaphores!.wait(queue, s.waitList, waitFor && { waitFor }).release();
          if (s.acquired) queue.enqueueAcquireShared(s.acquired, waitFor && !s.waitList ? { waitFor } : undefined).release();
          else if (waitFor && !s.waitList) queue.enqueueBarrier({ waitFor }).release();
          processStep(s.slot, frame);
          if (s.acquired) queue.enqueueReleaseShared(s.acquired).release();
          if (s.signalList) semaphores!.signal(queue, s.signalList).release();
          if (hostSync && vulkanConsumer) s.processedEvent = queue.enqueueMarker();
          queue.flush();
        }
      } catch (error) {
        fail('process', s, frame, error);
      } finally {
        waitFor?.[0]?.release();
      }
      t.opencl! += now() - t0;
    };

    const waitProcessed = async (s: State, frame: number): Promise<void> => {
      const processed = s.processedEvent!;
      s.processedEvent = null;
      const t0 = now();
      try {
        await processed;
      } catch (error) {
        fail('process', s, frame, error);
      } finally {
        processed.release();
        t.wait! += now() - t0;
      }
    };
    // Host sync with a Vulkan producer: OpenCL's work starts once the producer's submission has completed.
    const waitProduced = async (s: State, frame: number): Promise<void> => {
      const produced = s.produced!;
      s.produced = null;
      const t0 = now();
      try {
        await produced;
      } catch (error) {
        fail('produce', s, frame, error);
      } finally {
        t.wait! += now() - t0;
      }
    };

    const consumeFrame = async (frame: number): Promise<void> => {
      const s = state[frame % n]!;
      if (vulkanConsumer) {
        await settleConsumer(s);
        if (s.processedEvent) await waitProcessed(s, frame);
      }
      const t0 = now();
      if (vulkanConsumer) {
        let promise: Promise<void>;
        try {
          promise = prepared(
            s.consumeSubmissions,
            vulkanConsumer(s.slot, frame),
            'options.consume.vulkan()',
            s.slot.outputReady ? { wait: [s.slot.outputReady] } : {},
          ).submit();
        } catch (error) {
          fail('consume', s, frame, error);
        }
        promise!.catch(swallow);
        s.consumed = promise!;
      } else {
        // The marker completes once the frame's OpenCL work has (the queue is in order).
        const done = queue.enqueueMarker();
        s.doneEvent = done;
        let result: unknown;
        try {
          result = hostConsumer!(s.slot, frame, done);
        } catch (error) {
          done.release();
          s.doneEvent = null;
          fail('consume', s, frame, error);
        }
        if (result !== undefined && typeof (result as PromiseLike<unknown>)?.then !== 'function') {
          done.release();
          s.doneEvent = null;
          fail('consume', s, frame, new TypeError(`options.consume.host() must return nothing or a promise; got ${describeValue(result)}`));
        }
        const waitDone = Promise.resolve(done.completed);
        waitDone.catch(swallow);
        const consumed = result === undefined ? waitDone : Promise.all([waitDone, result]);
        consumed.catch(swallow);
        s.consumed = consumed;
      }
      s.consumedFrame = frame;
      t.consume! += now() - t0;
    };

    try {
      if (order === 'ahead' && vulkanProducer)
        for (let f = 0; f < n && f < frames; f++) {
          const p = produceVulkanAfter(f);
          if (p) await p;
        }
      for (let i = 0; i < frames + lag && !this.#disposing; i++) {
        if (i < frames) {
          if (hostProducer) await produceHost(i);
          else if (order === 'naive') {
            const p = produceVulkanAfter(i);
            if (p) await p;
          }
          if (hostSync && vulkanProducer) await waitProduced(state[i % n]!, i);
          processFrame(i);
        }
        const f = i - lag; // the frame consumed now
        if (f < 0) continue;
        await consumeFrame(f);
        if (order === 'ahead' && vulkanProducer && f + n < frames) {
          const p = produceVulkanAfter(f + n);
          if (p) await p;
        }
      }
    } catch (error) {
      failure = error;
    }
    // The frames in flight finish whatever happened: nothing the slots hold is released under them.
    const t0 = now();
    for (const s of state) {
      if (s.produced) await Promise.resolve(s.produced).catch(swallow);
      s.produced = null;
      s.producedEvent?.release();
      s.producedEvent = null;
      s.processedEvent?.release();
      s.processedEvent = null;
      try {
        await settleConsumer(s);
      } catch (error) {
        failure ??= error;
      }
    }
    try {
      await queue.finish();
    } catch (error) {
      failure ??= error;
    }
    t.wait! += now() - t0;
    if (failure) throw failure;
    if (this.#disposing && framesDone < frames) {
      throw new FramePipelineDisposedError(
        `the FramePipeline was disposed during run(): ${framesDone} of ${frames} frames were done; the frames in flight finished`,
        framesDone,
      );
    }
  }

  /**
   * Disposes of the pipeline: its semaphores (OpenCL's released, Vulkan's
   * destroyed once no submission uses them) and the slots' resources that
   * have [Symbol.dispose]. During a run it stops submitting at once and
   * lets go of everything once the frames in flight have finished (the run
   * rejects with FramePipelineDisposedError). Idempotent.
   */
  dispose(): void {
    if (this.#disposing) return;
    this.#disposing = true;
    if (!this.#running) this.#releaseNow();
  }

  /** dispose(), resolving once everything is let go of (after the frames in flight of a run have finished). */
  async asyncDispose(): Promise<void> {
    this.dispose();
    await this.#running?.catch(swallow);
    await this.#released;
  }

  [Symbol.dispose](): void {
    this.dispose();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.asyncDispose();
  }

  #releaseNow(): void {
    this.#released ??= Promise.resolve();
    const slots = this.#slots;
    this.#slots = [];
    for (const slot of slots) {
      slot.clInputReady?.release();
      slot.clOutputReady?.release();
      slot.inputReady?.dispose();
      slot.outputReady?.dispose();
      const resources = slot.resources as { [Symbol.dispose]?: unknown } | null | undefined;
      if (resources !== null && typeof resources === 'object' && typeof resources[Symbol.dispose] === 'function')
        (resources[Symbol.dispose] as () => void)();
    }
  }
}
