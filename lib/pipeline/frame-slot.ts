// One slot of a FramePipeline: what is made for it once (its resources, the
// shared objects it acquires, its semaphores) and its part of a run (the
// producer, OpenCL's work and the consumer of each frame f with f mod N = its
// index, in that order, with the submissions and promises of its last frame).
// lib/pipeline/frame-pipeline.ts orders the slots; this file runs the steps.
import { describeValue } from '../errors';
import { Event } from '../event';
import type { Semaphore, Semaphores } from '../interop/semaphore';
import { MemObject } from '../memory';
import type { CommandQueue } from '../queue';
import { VulkanCommands } from '../vulkan/commands';
import type { VulkanDevice, VulkanQueue, VulkanSubmission } from '../vulkan/device';
import type { VulkanSemaphore } from '../vulkan/semaphore';
import { FrameStepError, type FrameStepName } from './errors';
import type { StepWaits } from './step-waits';
import type { FrameConsumer, FrameProducer, FrameRunOptions, FrameSlot, FrameTiming } from './types';

const swallow = (): void => {};

/** Whether a step's result is a promise (a thenable); reading `then` may throw (the caller makes that the step's error). */
function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as PromiseLike<unknown>).then === 'function';
}

/** A slot as the pipeline keeps it: FrameSlot, plus OpenCL's imports of its semaphores and the objects it acquires. */
export interface SlotState<R> {
  readonly index: number;
  resources: R;
  inputReady: VulkanSemaphore | null;
  outputReady: VulkanSemaphore | null;
  clInputReady: Semaphore | null;
  clOutputReady: Semaphore | null;
  objects: MemObject[];
}

/** What makeSlot() needs of the pipeline's options. */
export interface SlotMaking<R> {
  queue: CommandQueue;
  vulkan: VulkanDevice | null;
  /** OpenCL's semaphores where the Vulkan steps are ordered by semaphores, else null. */
  semaphores: Semaphores | null;
  vulkanProducer: boolean;
  vulkanConsumer: boolean;
  resources: ((index: number) => R) | undefined;
  acquire: ((slot: FrameSlot<R>) => readonly MemObject[]) | undefined;
}

/**
 * Makes slot `index` into `slot` (already listed by the caller, so that what
 * is made before a failure is released with it): its semaphores, its
 * resources, the objects it acquires.
 */
export function makeSlot<R>(slot: SlotState<R>, o: SlotMaking<R>): void {
  const index = slot.index;
  if (o.semaphores && o.vulkanProducer) {
    slot.inputReady = o.vulkan!.createSemaphore();
    slot.clInputReady = o.semaphores.import(o.queue.context, slot.inputReady.exportHandle());
  }
  if (o.semaphores && o.vulkanConsumer) {
    slot.outputReady = o.vulkan!.createSemaphore();
    slot.clOutputReady = o.semaphores.import(o.queue.context, slot.outputReady.exportHandle());
  }
  if (o.resources) {
    try {
      slot.resources = o.resources(index);
    } catch (error) {
      throw new FrameStepError('resources', index, -1, error);
    }
  }
  if (o.acquire) {
    let objects: unknown;
    try {
      objects = o.acquire(slot);
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

/** A new slot, nothing made yet. */
export function emptySlot<R>(index: number): SlotState<R> {
  return { index, resources: undefined as R, inputReady: null, outputReady: null, clInputReady: null, clOutputReady: null, objects: [] };
}

/** Lets go of what a slot holds: OpenCL's semaphores, Vulkan's, and its resources where they have [Symbol.dispose]; every one, whatever throws. The errors thrown. */
export function releaseSlot<R>(slot: SlotState<R>): unknown[] {
  const errors: unknown[] = [];
  const attempt = (what: string, release: () => void): void => {
    try {
      release();
    } catch (error) {
      errors.push(error instanceof Error ? error : new Error(`slot ${slot.index} ${what}: ${String(error)}`, { cause: error }));
    }
  };
  attempt('OpenCL input semaphore', () => slot.clInputReady?.release());
  attempt('OpenCL output semaphore', () => slot.clOutputReady?.release());
  attempt('Vulkan input semaphore', () => slot.inputReady?.dispose());
  attempt('Vulkan output semaphore', () => slot.outputReady?.dispose());
  const resources = slot.resources as { [Symbol.dispose]?: unknown } | null | undefined;
  if (resources !== null && typeof resources === 'object' && typeof resources[Symbol.dispose] === 'function')
    attempt('resources', () => (resources[Symbol.dispose] as () => void).call(resources));
  return errors;
}

/** What every slot of one run shares: the pipeline's queue and steps, the run's options, its clock and counters. */
export interface FrameRun<R> {
  readonly queue: CommandQueue;
  readonly semaphores: Semaphores | null;
  readonly vkQueue: VulkanQueue | undefined;
  readonly produce: FrameProducer<R>;
  readonly process: (slot: FrameSlot<R>, frame: number) => void | PromiseLike<unknown>;
  readonly consume: FrameConsumer<R>;
  /** The waits for the steps' promises (dispose() and options.stepTimeout end them). */
  readonly waits: StepWaits;
  /** The Vulkan steps are ordered from the host (sync 'host'). */
  readonly hostSync: boolean;
  readonly onConsumed: FrameRunOptions<R>['onConsumed'];
  /** The run's totals (options.timing, or a scratch object). */
  readonly t: Required<Omit<FrameTiming, 'calls'>>;
  readonly calls: Record<string, number> | undefined;
  readonly now: () => number;
  /** Frames whose consumer has finished. */
  framesDone: number;
}

/** One slot's part of one run: its prepared submissions and the promises and events of its last frame. */
export class SlotRun<R> {
  readonly slot: SlotState<R>;
  readonly #run: FrameRun<R>;
  readonly #produceSubmissions = new Map<VulkanCommands, VulkanSubmission>();
  readonly #consumeSubmissions = new Map<VulkanCommands, VulkanSubmission>();
  readonly #waitList: Semaphore[] | null;
  readonly #signalList: Semaphore[] | null;
  readonly #acquired: MemObject[] | null;
  /** What OpenCL's work of the slot's next frame waits for: a producer's Event (host) or promise. */
  #producedEvent: Event | null = null;
  #produced: PromiseLike<unknown> | null = null;
  /** The last consumer: its promise, its frame, and (host) the done event to release after it. */
  #consumed: PromiseLike<unknown> | null = null;
  #consumedFrame = -1;
  #doneEvent: Event | null = null;
  /** Host sync with a Vulkan consumer: a marker after the frame's OpenCL work, awaited before the consumer is submitted. */
  #processedEvent: Event | null = null;

  constructor(slot: SlotState<R>, run: FrameRun<R>) {
    this.slot = slot;
    this.#run = run;
    this.#waitList = slot.clInputReady ? [slot.clInputReady] : null;
    this.#signalList = slot.clOutputReady ? [slot.clOutputReady] : null;
    this.#acquired = slot.objects.length ? slot.objects : null;
  }

  /** The frame whose consumer is still to be settled, or -1. */
  get pendingFrame(): number {
    return this.#consumed ? this.#consumedFrame : -1;
  }

  #fail(step: FrameStepName, frame: number, error: unknown): never {
    if (error === this.#run.waits.stopped) throw error;
    throw new FrameStepError(step, this.slot.index, frame, error);
  }

  #prepared(
    cache: Map<VulkanCommands, VulkanSubmission>,
    commands: unknown,
    what: string,
    submitOptions: { wait?: VulkanSemaphore[]; signal?: VulkanSemaphore[] },
  ): VulkanSubmission {
    let submission = cache.get(commands as VulkanCommands);
    if (!submission) {
      if (!(commands instanceof VulkanCommands)) throw new TypeError(`${what} must return VulkanCommands; got ${describeValue(commands)}`);
      cache.set(commands, (submission = this.#run.vkQueue!.prepare(commands, submitOptions)));
    }
    return submission;
  }

  /** Waits for the slot's last consumer (and onConsumed), then lets go of its done event. */
  async settleConsumer(): Promise<void> {
    if (!this.#consumed) return;
    const run = this.#run;
    const consumed = this.#consumed;
    this.#consumed = null;
    const frame = this.#consumedFrame;
    const t0 = run.now();
    try {
      // A Vulkan consumer's submission is the GPU's, awaited as it is; a host consumer's promise is a step's.
      await (run.consume.vulkan ? consumed : run.waits.guard(consumed));
    } catch (error) {
      this.#fail('consume', frame, error);
    } finally {
      this.#doneEvent?.release();
      this.#doneEvent = null;
      run.t.wait += run.now() - t0;
    }
    run.framesDone++;
    if (run.onConsumed) {
      try {
        const result = run.onConsumed(this.slot, frame);
        if (isThenable(result)) await run.waits.guard(result);
      } catch (error) {
        this.#fail('onConsumed', frame, error);
      }
    }
  }

  /**
   * A Vulkan producer: no host wait unless the consumer is not Vulkan (then
   * nothing on the Vulkan queue orders this after the slot's last frame, so
   * that frame must be consumed first).
   */
  produceVulkan(frame: number): Promise<void> | undefined {
    if (this.#run.consume.vulkan) {
      this.#submitProducer(frame);
      return undefined;
    }
    return this.settleConsumer().then(() => this.#submitProducer(frame));
  }

  #submitProducer(frame: number): void {
    const run = this.#run;
    const t0 = run.now();
    let promise: Promise<void>;
    try {
      promise = this.#prepared(
        this.#produceSubmissions,
        run.produce.vulkan!(this.slot, frame),
        'options.produce.vulkan()',
        this.slot.inputReady ? { signal: [this.slot.inputReady] } : {},
      ).submit();
    } catch (error) {
      this.#fail('produce', frame, error);
    }
    promise!.catch(swallow); // awaited at the end; a rejection must not be unhandled before then
    this.#produced = promise!;
    run.t.produce += run.now() - t0;
  }

  /** A host producer writes the slot: its previous frame must be consumed first; what it returns is waited for. */
  async produceHost(frame: number): Promise<void> {
    const run = this.#run;
    await this.settleConsumer();
    const t0 = run.now();
    let result: unknown;
    let promise = false;
    try {
      result = run.produce.host!(this.slot, frame);
      promise = !(result instanceof Event) && isThenable(result);
    } catch (error) {
      this.#fail('produce', frame, error);
    }
    if (result instanceof Event) {
      // The pipeline's from here: released once OpenCL's work of the frame is enqueued behind it.
      if (result.released)
        this.#fail(
          'produce',
          frame,
          new TypeError('options.produce.host() returned an Event that was released: return it as enqueued (the pipeline releases it)'),
        );
      this.#producedEvent = result;
    } else if (result !== undefined && !promise)
      this.#fail('produce', frame, new TypeError(`options.produce.host() must return nothing, an Event or a promise; got ${describeValue(result)}`));
    run.t.produce += run.now() - t0;
    if (promise) {
      const t1 = run.now();
      try {
        await run.waits.guard(result as PromiseLike<unknown>);
      } catch (error) {
        this.#fail('produce', frame, error);
      } finally {
        run.t.wait += run.now() - t1;
      }
    }
  }

  /** Host sync with a Vulkan producer: OpenCL's work starts once the producer's submission has completed. */
  async waitProduced(frame: number): Promise<void> {
    const run = this.#run;
    const produced = this.#produced!;
    this.#produced = null;
    const t0 = run.now();
    try {
      await produced;
    } catch (error) {
      this.#fail('produce', frame, error);
    } finally {
      run.t.wait += run.now() - t0;
    }
  }

  /**
   * OpenCL's work of a frame on the pipeline's queue: wait, acquire, the
   * process step, release, signal, flush. Where the process step returns a
   * promise, what follows it is enqueued once that settles (the promise this
   * returns); otherwise all of it now.
   */
  process(frame: number): Promise<void> | undefined {
    const run = this.#run;
    const { queue, semaphores, calls, now } = run;
    const t0 = now();
    const waitList = this.#waitList;
    const acquired = this.#acquired;
    let acquiring = false;
    let result: unknown;
    let promise = false;
    let c1 = 0,
      c2 = 0;
    try {
      const c0 = calls ? now() : 0;
      const producedEvent = this.#producedEvent;
      this.#producedEvent = null;
      try {
        const waitFor = producedEvent ? [producedEvent] : undefined;
        if (waitList) semaphores!.wait(queue, waitList, waitFor && { waitFor }).release();
        if (calls) c1 = now();
        if (acquired) {
          queue.enqueueAcquireShared(acquired, waitFor && !waitList ? { waitFor } : undefined).release();
          acquiring = true;
        } else if (waitFor && !waitList) queue.enqueueBarrier({ waitFor }).release();
      } finally {
        producedEvent?.release(); // the commands enqueued behind it hold it now
      }
      if (calls) {
        c2 = now();
        calls.wait! += c1 - c0;
        calls.acquire! += c2 - c1;
      }
      result = run.process(this.slot, frame);
      promise = !(result instanceof Event) && isThenable(result); // an Event (a concise arrow's enqueue) is not waited for
      if (calls) calls.kernels! += now() - c2;
    } catch (error) {
      this.#abandon(acquiring);
      this.#fail('process', frame, error);
    }
    if (!promise) {
      this.#afterProcess(frame);
      run.t.opencl += now() - t0;
      return undefined;
    }
    run.t.opencl += now() - t0;
    return (async () => {
      const t1 = now();
      try {
        await run.waits.guard(result as PromiseLike<unknown>);
      } catch (error) {
        this.#abandon(acquiring);
        this.#fail('process', frame, error);
      } finally {
        run.t.wait += now() - t1;
      }
      const t2 = now();
      this.#afterProcess(frame);
      run.t.opencl += now() - t2;
    })();
  }

  /** The end of a frame's OpenCL work: release, signal, the marker a Vulkan consumer waits for, flush. */
  #afterProcess(frame: number): void {
    const run = this.#run;
    const { queue, semaphores, calls, now } = run;
    try {
      const c3 = calls ? now() : 0;
      if (this.#acquired) queue.enqueueReleaseShared(this.#acquired).release();
      const c4 = calls ? now() : 0;
      if (this.#signalList) semaphores!.signal(queue, this.#signalList).release();
      if (run.hostSync && run.consume.vulkan !== undefined) this.#processedEvent = queue.enqueueMarker();
      const c5 = calls ? now() : 0;
      queue.flush();
      if (calls) {
        calls.release! += c4 - c3;
        calls.signal! += c5 - c4;
        calls.flush! += now() - c5;
      }
    } catch (error) {
      this.#fail('process', frame, error);
    }
  }

  /** A process step failed after the acquire was enqueued: the release follows it, so the shared objects are not left acquired. */
  #abandon(acquiring: boolean): void {
    if (!acquiring) return;
    try {
      this.#run.queue.enqueueReleaseShared(this.#acquired!).release();
      this.#run.queue.flush();
    } catch {
      // the step's own error is the one reported
    }
  }

  async #waitProcessed(frame: number): Promise<void> {
    const run = this.#run;
    const processed = this.#processedEvent!;
    this.#processedEvent = null;
    const t0 = run.now();
    try {
      await processed;
    } catch (error) {
      this.#fail('process', frame, error);
    } finally {
      processed.release();
      run.t.wait += run.now() - t0;
    }
  }

  /** Submits (Vulkan) or calls (host) the consumer of a frame whose OpenCL work is enqueued. */
  async consume(frame: number): Promise<void> {
    const run = this.#run;
    const vulkanConsumer = run.consume.vulkan;
    if (vulkanConsumer) {
      await this.settleConsumer();
      if (this.#processedEvent) await this.#waitProcessed(frame);
    }
    const t0 = run.now();
    if (vulkanConsumer) {
      let promise: Promise<void>;
      try {
        promise = this.#prepared(
          this.#consumeSubmissions,
          vulkanConsumer(this.slot, frame),
          'options.consume.vulkan()',
          this.slot.outputReady ? { wait: [this.slot.outputReady] } : {},
        ).submit();
      } catch (error) {
        this.#fail('consume', frame, error);
      }
      promise!.catch(swallow);
      this.#consumed = promise!;
    } else {
      // The marker completes once the frame's OpenCL work has (the queue is in order).
      const done = run.queue.enqueueMarker();
      this.#doneEvent = done;
      let result: unknown;
      let promise = false;
      try {
        result = run.consume.host!(this.slot, frame, done);
        promise = isThenable(result);
      } catch (error) {
        done.release();
        this.#doneEvent = null;
        this.#fail('consume', frame, error);
      }
      if (result !== undefined && !promise) {
        done.release();
        this.#doneEvent = null;
        this.#fail('consume', frame, new TypeError(`options.consume.host() must return nothing or a promise; got ${describeValue(result)}`));
      }
      const waitDone = Promise.resolve(done.completed);
      waitDone.catch(swallow);
      const consumed = result === undefined ? waitDone : Promise.all([waitDone, Promise.resolve(result)]);
      consumed.catch(swallow);
      this.#consumed = consumed;
    }
    this.#consumedFrame = frame;
    run.t.consume += run.now() - t0;
  }

  /** The end of a run, whatever happened: the slot's frame in flight finishes; its events are let go of. */
  async finish(): Promise<void> {
    if (this.#produced) await Promise.resolve(this.#produced).catch(swallow);
    this.#produced = null;
    this.#producedEvent?.release();
    this.#producedEvent = null;
    this.#processedEvent?.release();
    this.#processedEvent = null;
    await this.settleConsumer();
  }
}
