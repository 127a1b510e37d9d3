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
import type { FrameConsumer, FrameProducer, FrameRunOptions, FrameSlot, FrameTiming } from './types';

const swallow = (): void => {};

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

/** Lets go of what a slot holds: OpenCL's semaphores, Vulkan's, and its resources where they have [Symbol.dispose]. */
export function releaseSlot<R>(slot: SlotState<R>): void {
  slot.clInputReady?.release();
  slot.clOutputReady?.release();
  slot.inputReady?.dispose();
  slot.outputReady?.dispose();
  const resources = slot.resources as { [Symbol.dispose]?: unknown } | null | undefined;
  if (resources !== null && typeof resources === 'object' && typeof resources[Symbol.dispose] === 'function')
    (resources[Symbol.dispose] as () => void)();
}

/** What every slot of one run shares: the pipeline's queue and steps, the run's options, its clock and counters. */
export interface FrameRun<R> {
  readonly queue: CommandQueue;
  readonly semaphores: Semaphores | null;
  readonly vkQueue: VulkanQueue | undefined;
  readonly produce: FrameProducer<R>;
  readonly process: (slot: FrameSlot<R>, frame: number) => void;
  readonly consume: FrameConsumer<R>;
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
    const t0 = run.now();
    try {
      await consumed;
    } catch (error) {
      this.#fail('consume', this.#consumedFrame, error);
    } finally {
      this.#doneEvent?.release();
      this.#doneEvent = null;
      run.t.wait += run.now() - t0;
    }
    run.framesDone++;
    if (run.onConsumed) {
      try {
        await run.onConsumed(this.slot, this.#consumedFrame);
      } catch (error) {
        this.#fail('onConsumed', this.#consumedFrame, error);
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
    try {
      result = run.produce.host!(this.slot, frame);
    } catch (error) {
      this.#fail('produce', frame, error);
    }
    if (result instanceof Event) this.#producedEvent = result;
    else if (result !== undefined && typeof (result as PromiseLike<unknown>)?.then === 'function') this.#produced = result as PromiseLike<unknown>;
    else if (result !== undefined)
      this.#fail('produce', frame, new TypeError(`options.produce.host() must return nothing, an Event or a promise; got ${describeValue(result)}`));
    run.t.produce += run.now() - t0;
    if (this.#produced) {
      const produced = this.#produced;
      this.#produced = null;
      const t1 = run.now();
      try {
        await produced;
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

  /** OpenCL's work of a frame on the pipeline's queue: wait, acquire, the process step, release, signal, flush. */
  process(frame: number): void {
    const run = this.#run;
    const { queue, semaphores, calls, now } = run;
    const t0 = now();
    let waitFor: Event[] | undefined;
    if (this.#producedEvent) {
      waitFor = [this.#producedEvent];
      this.#producedEvent = null;
    }
    const waitList = this.#waitList;
    const acquired = this.#acquired;
    const signalList = this.#signalList;
    const markProcessed = run.hostSync && run.consume.vulkan !== undefined;
    try {
      if (calls) {
        const c0 = now();
        if (waitList) semaphores!.wait(queue, waitList, waitFor && { waitFor }).release();
        const c1 = now();
        if (acquired) queue.enqueueAcquireShared(acquired, waitFor && !waitList ? { waitFor } : undefined).release();
        else if (waitFor && !waitList) queue.enqueueBarrier({ waitFor }).release();
        const c2 = now();
        run.process(this.slot, frame);
        const c3 = now();
        if (acquired) queue.enqueueReleaseShared(acquired).release();
        const c4 = now();
        if (signalList) semaphores!.signal(queue, signalList).release();
        if (markProcessed) this.#processedEvent = queue.enqueueMarker();
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
        if (waitList) semaphores!.wait(queue, waitList, waitFor && { waitFor }).release();
        if (acquired) queue.enqueueAcquireShared(acquired, waitFor && !waitList ? { waitFor } : undefined).release();
        else if (waitFor && !waitList) queue.enqueueBarrier({ waitFor }).release();
        run.process(this.slot, frame);
        if (acquired) queue.enqueueReleaseShared(acquired).release();
        if (signalList) semaphores!.signal(queue, signalList).release();
        if (markProcessed) this.#processedEvent = queue.enqueueMarker();
        queue.flush();
      }
    } catch (error) {
      this.#fail('process', frame, error);
    } finally {
      waitFor?.[0]?.release();
    }
    run.t.opencl += now() - t0;
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
      try {
        result = run.consume.host!(this.slot, frame, done);
      } catch (error) {
        done.release();
        this.#doneEvent = null;
        this.#fail('consume', frame, error);
      }
      if (result !== undefined && typeof (result as PromiseLike<unknown>)?.then !== 'function') {
        done.release();
        this.#doneEvent = null;
        this.#fail('consume', frame, new TypeError(`options.consume.host() must return nothing or a promise; got ${describeValue(result)}`));
      }
      const waitDone = Promise.resolve(done.completed);
      waitDone.catch(swallow);
      const consumed = result === undefined ? waitDone : Promise.all([waitDone, result]);
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
