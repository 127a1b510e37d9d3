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
import { getSemaphores, type Semaphores } from '../interop/semaphore';
import { refuseCloning } from '../os-handle';
import { CommandQueue } from '../queue';
import { checkChoice, checkInt, checkObject, checkOptions } from '../validate';
import { VulkanDevice } from '../vulkan/device';
import { VulkanDisposedError } from '../vulkan/errors';
import { FramePipelineDisposedError, FramePipelineStateError } from './errors';
import { type FrameRun, SlotRun, type SlotState, emptySlot, makeSlot, releaseSlot } from './frame-slot';
import { StepWaits } from './step-waits';
import type { FrameConsumer, FrameOrder, FramePipelineOptions, FrameProducer, FrameRunOptions, FrameSlot, FrameSync, FrameTiming } from './types';

/** The most slots a pipeline may have. */
export const MAX_FRAME_SLOTS = 256;

const RUN_KEYS = ['frames', 'order', 'lag', 'onConsumed', 'timing'] as const;
const OPTION_KEYS = ['queue', 'slots', 'vulkan', 'resources', 'acquire', 'produce', 'process', 'consume', 'sync', 'stepTimeout'] as const;
const TOTALS = ['produce', 'opencl', 'consume', 'wait'] as const;
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
  readonly #process: (slot: FrameSlot<R>, frame: number) => void | PromiseLike<unknown>;
  readonly #stepTimeout: number | undefined;
  /** The run's stop: ends the waits for its steps' promises (dispose()). */
  #stopRun: (() => void) | null = null;
  #semaphores: Semaphores | null = null;
  #slots: SlotState<R>[] = [];
  readonly #count: number;
  #running: Promise<unknown> | null = null;
  /** end() was called during the current run's produce step. */
  #ended = false;
  #disposing = false;
  #released: Promise<void> | null = null;

  constructor(options: FramePipelineOptions<R>) {
    const o = checkOptions<FramePipelineOptions<R>>(options, 'options', OPTION_KEYS);
    if (options === undefined) throw new TypeError('options must be an object { queue, slots, produce, process, consume }; got undefined');
    // Each option read once.
    const { queue, slots, vulkan, resources, acquire, produce, process, consume, sync, stepTimeout } = o;
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
    this.#stepTimeout = stepTimeout === undefined ? undefined : checkInt(stepTimeout, 'options.stepTimeout', 1, 0x7fffffff);
    this.queue = queue;
    this.vulkan = vulkan ?? null;
    this.sync = !needsVulkan ? 'host' : (syncChoice ?? (semaphoresWork(vulkan!, queue) ? 'semaphores' : 'host'));
    this.#produce = produce!;
    this.#consume = consume!;
    this.#process = process!;
    this.#count = count;
    refuseCloning(this, 'a FramePipeline runs in the thread that made it: make one in the other thread');
    try {
      if (this.sync === 'semaphores') this.#semaphores = getSemaphores(queue.context.platform);
      const making = {
        queue,
        vulkan: this.vulkan,
        semaphores: this.#semaphores,
        vulkanProducer: produceKind === 'vulkan',
        vulkanConsumer: consumeKind === 'vulkan',
        resources,
        acquire,
      };
      for (let index = 0; index < count; index++) {
        const slot = emptySlot<R>(index);
        this.#slots.push(slot);
        makeSlot(slot, making);
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
    const running = run.then(
      () => this.#afterRun(null),
      (error: unknown) => this.#afterRun(error),
    );
    this.#running = running;
    return running;
  }

  #run(options: FrameRunOptions<R>): Promise<void> {
    checkObject(options, 'options');
    const o = checkOptions<FrameRunOptions<R>>(options, 'options', RUN_KEYS);
    const { frames: framesOption, order: orderOption, lag: lagOption, onConsumed, timing } = o;
    const frames = framesOption === Infinity && this.#produce.host ? Infinity : checkInt(framesOption, 'options.frames', 0);
    const order = checkChoice(orderOption, 'options.order', ORDERS, 'ahead');
    const n = this.#count;
    const lag = checkInt(lagOption, 'options.lag', 0, n - 1, 0);
    if (lag > 0 && order !== 'ahead') throw new RangeError(`options.lag must be 0 with the 'naive' order; got ${lag}`);
    checkFunction(onConsumed, 'options.onConsumed', true);
    if (timing !== undefined) checkTiming(timing);
    if (this.queue.released) throw new FramePipelineStateError("the pipeline's queue has been released");
    if (this.vulkan?.disposed) throw new VulkanDisposedError("VulkanDevice (the pipeline's options.vulkan)");
    return this.#frames(frames, order, lag, onConsumed, timing);
  }

  /**
   * Ends the current run from a host producer: called from
   * options.produce.host(slot, f) (or before its promise settles), it says
   * there is no frame f; the frames before it are processed and consumed as
   * usual and run() resolves. Outside a run it does nothing.
   */
  end(): void {
    if (this.#running) this.#ended = true;
  }

  async #frames(
    framesOption: number,
    order: FrameOrder,
    lag: number,
    onConsumed: FrameRunOptions<R>['onConsumed'],
    timing: FrameTiming | undefined,
  ): Promise<void> {
    const n = this.#count;
    let frames = framesOption;
    this.#ended = false;
    const now = timing ? () => performance.now() : () => 0;
    const t = (timing ?? { produce: 0, opencl: 0, consume: 0, wait: 0 }) as FrameRun<R>['t'];
    const calls = timing?.calls;
    const waits = new StepWaits(this.#stepTimeout);
    this.#stopRun = () => waits.stop();
    const run: FrameRun<R> = {
      queue: this.queue,
      semaphores: this.#semaphores,
      vkQueue: this.vulkan?.queue,
      produce: this.#produce,
      process: this.#process,
      consume: this.#consume,
      hostSync: this.sync === 'host',
      waits,
      onConsumed,
      t,
      calls,
      now,
      framesDone: 0,
    };
    const slots = this.#slots.map((slot) => new SlotRun(slot, run));
    const at = (frame: number): SlotRun<R> => slots[frame % n]!;
    const vulkanProducer = this.#produce.vulkan !== undefined;
    const hostProducer = this.#produce.host !== undefined;
    let failure: unknown = null;
    try {
      if (order === 'ahead' && vulkanProducer)
        for (let f = 0; f < n && f < frames; f++) {
          const p = at(f).produceVulkan(f);
          if (p) await p;
        }
      for (let i = 0; i < frames + lag && !this.#disposing; i++) {
        if (i < frames) {
          const s = at(i);
          if (hostProducer) {
            await s.produceHost(i);
            if (this.#ended) frames = i; // end(): there is no frame i; the frames before it are consumed below
          } else if (order === 'naive') {
            const p = s.produceVulkan(i);
            if (p) await p;
          }
          if (i < frames) {
            if (run.hostSync && vulkanProducer) await s.waitProduced(i);
            const p = s.process(i);
            if (p) await p;
          }
        }
        const f = i - lag; // the frame consumed now
        if (f < 0 || f >= frames) continue;
        await at(f).consume(f);
        if (order === 'ahead' && vulkanProducer && f + n < frames) {
          const p = at(f + n).produceVulkan(f + n);
          if (p) await p;
        }
      }
    } catch (error) {
      failure = error;
    }
    // The frames in flight finish whatever happened (nothing the slots hold is released under them), consumed in
    // frame order.
    const t0 = now();
    const inFlight = slots.filter((s) => s.pendingFrame >= 0).sort((a, b) => a.pendingFrame - b.pendingFrame);
    for (const s of [...inFlight, ...slots.filter((s) => !inFlight.includes(s))]) {
      try {
        await s.finish();
      } catch (error) {
        failure ??= error;
      }
    }
    try {
      await this.queue.finish();
    } catch (error) {
      failure ??= error;
    }
    t.wait += now() - t0;
    this.#stopRun = null;
    if (failure && failure !== waits.stopped) throw failure;
    if (this.#disposing && run.framesDone < frames) {
      throw new FramePipelineDisposedError(
        `the FramePipeline was disposed during run(): ${run.framesDone} of ${frames} frames were done; the frames in flight finished`,
        run.framesDone,
      );
    }
  }

  /**
   * Disposes of the pipeline: its semaphores (OpenCL's released, Vulkan's
   * destroyed once no submission uses them) and the slots' resources that
   * have [Symbol.dispose], every slot even where one throws; their errors
   * are then thrown together as an AggregateError. During a run it starts no
   * new frame and lets go of everything once the frames in flight have
   * finished: once OpenCL's work in flight is done, a step whose promise has
   * not settled is dropped (its late result ignored). The run then rejects
   * with FramePipelineDisposedError (its cause the AggregateError, if any).
   * Idempotent.
   */
  dispose(): void {
    if (this.#disposing) return;
    this.#disposing = true;
    if (!this.#running) {
      const error = this.#releaseNow();
      if (error) throw error;
      return;
    }
    const stop = (): void => {
      setImmediate(() => this.#stopRun?.());
    };
    try {
      this.queue.finish().then(stop, stop);
    } catch {
      stop(); // the queue was released: nothing of OpenCL's is in flight
    }
  }

  /** dispose(), resolving once everything is let go of (after the frames in flight of a run have finished); rejects with dispose()'s AggregateError. */
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

  /** A run has ended (`error`: how it failed): let go of everything if dispose() was called meanwhile. */
  #afterRun(error: unknown): void {
    this.#running = null;
    const released = this.#disposing ? this.#releaseNow() : null;
    if (released && error instanceof FramePipelineDisposedError)
      throw new FramePipelineDisposedError(`${error.message}; then ${released.message}`, error.framesDone, released);
    if (error) throw error;
  }

  /** Releases every slot; the errors of those that threw, as one AggregateError (null when none did). */
  #releaseNow(): AggregateError | null {
    const slots = this.#slots;
    this.#slots = [];
    const errors: unknown[] = [];
    for (const slot of slots) errors.push(...releaseSlot(slot));
    const error =
      errors.length === 0
        ? null
        : new AggregateError(
            errors,
            `disposing the FramePipeline: ${errors.length} of the ${slots.length} slots' resources failed to dispose; every slot was disposed`,
          );
    if (!this.#released) {
      this.#released = error ? Promise.reject(error) : Promise.resolve();
      this.#released.catch(swallow);
    }
    return error;
  }
}

/** options.timing: an object whose totals run() adds to (each a number where present), made ready (absent totals 0). */
function checkTiming(timing: unknown): asserts timing is FrameTiming {
  checkObject(timing, 'options.timing');
  const t = timing as Record<string, unknown>;
  const ready = (target: Record<string, unknown>, keys: readonly string[], what: string): void => {
    for (const key of keys) {
      const value = target[key];
      if (value !== undefined && typeof value !== 'number')
        throw new TypeError(`${what}.${key} must be a number (a total in milliseconds run() adds to) or absent; got ${describeValue(value)}`);
    }
    try {
      for (const key of keys) target[key] = (target[key] as number | undefined) ?? 0;
    } catch (error) {
      throw new TypeError(
        `${what} must be an object run() can add its totals to (${keys.join(', ')}); got ${Object.isFrozen(target) ? 'a frozen object' : Object.isExtensible(target) ? 'an object with a read-only total' : 'an object that is not extensible'} (${(error as Error).message})`,
      );
    }
  };
  const calls = t.calls;
  if (calls !== undefined) {
    checkObject(calls, 'options.timing.calls');
    ready(calls as Record<string, unknown>, CALLS, 'options.timing.calls');
  }
  ready(t, TOTALS, 'options.timing');
}
