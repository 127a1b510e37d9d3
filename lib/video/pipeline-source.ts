// Decoded frames as the producer of a FramePipeline (decode -> OpenCL ->
// consumer) with no copy: the pipeline's slots order the work, while each
// frame's memory is the decoder's own output frame, which comes per frame
// (from whichever pool frame the decode used). The produce step takes the
// next frame in display order, enqueues OpenCL's wait for its decode and its
// acquire on the pipeline's queue; the process step gives the frame to the
// caller's function, then enqueues its release and hands the frame back to
// the decoder behind that work (frame.release(queue)); at the end of the
// stream the produce step ends the run (pipeline.end()). lib/video/ sits
// beside lib/pipeline/ and imports nothing of it: the source takes the
// pipeline, its slots and its run options by shape (a FramePipeline, its
// FrameSlot and FrameRunOptions fit them).
import type { MemObject } from '../memory';
import type { CommandQueue } from '../queue';
import { describeValue } from '../errors';
import { VideoDecoderStateError } from './errors';

/** What a source frame must offer (a VideoFrame does). */
export interface PipelineFrame {
  /** The shared objects acquired around OpenCL's work. */
  readonly memory: readonly MemObject[];
  /** Enqueues OpenCL's wait for the frame's write on `queue`. */
  wait(queue: CommandQueue): void;
  /** Gives the frame back; its next write waits for `queue`'s work enqueued so far. */
  release(queue?: CommandQueue): void;
}

/** What the source and the caller's work see of a pipeline's slot (a FrameSlot is one). */
export interface PipelineSlot<R> {
  readonly index: number;
  readonly resources: R;
}

/** The pipeline a source runs (a FramePipeline is one): its run(options) with `frames` set by the source, and end(). */
export interface PipelineRun<O> {
  run(options: O & { frames: number }): Promise<void>;
  end(): void;
}

/** The caller's OpenCL work on one frame: enqueue it on the pipeline's queue (it may return a promise). */
export type PipelineFrameWork<F, R> = (frame: F, slot: PipelineSlot<R>, index: number) => void | PromiseLike<unknown>;

/**
 * Frames (a decoder's decode() run, or any async iterable of frames with
 * memory, wait() and release()) as a FramePipeline's producer. Give the
 * pipeline `produce: source.produce` and `process: source.process(work)`,
 * then `await source.run(pipeline)`.
 */
export class PipelineFrameSource<F extends PipelineFrame, R = unknown> {
  readonly #frames: AsyncIterator<F>;
  readonly #queue: CommandQueue;
  readonly #current = new Map<number, F>();
  #pipeline: PipelineRun<never> | null = null;
  #ended = false;
  /** Frames given to the pipeline so far. */
  produced = 0;

  constructor(frames: AsyncIterable<F>, queue: CommandQueue) {
    if (typeof frames !== 'object' || frames === null || !(Symbol.asyncIterator in frames))
      throw new TypeError(`frames must be an async iterable of frames; got ${describeValue(frames)}`);
    this.#frames = frames[Symbol.asyncIterator]();
    this.#queue = queue;
  }

  /** The pipeline's produce step (a host producer). */
  readonly produce: { readonly host: (slot: PipelineSlot<R>, index: number) => Promise<void> } = {
    host: async (_slot: PipelineSlot<R>, index: number): Promise<void> => {
      const next = this.#ended ? { done: true as const, value: undefined } : await this.#frames.next();
      if (next.done) {
        this.#ended = true;
        this.#pipeline?.end();
        return;
      }
      const frame = next.value;
      this.#current.set(index, frame);
      this.produced++;
      frame.wait(this.#queue);
      if (frame.memory.length) this.#queue.enqueueAcquireShared(frame.memory).release();
    },
  };

  /** The pipeline's process step: `work` on the frame, then its release and its return to the decoder, behind that work. */
  process(work: PipelineFrameWork<F, R>): (slot: PipelineSlot<R>, index: number) => Promise<void> {
    if (typeof work !== 'function') throw new TypeError(`work must be a function (frame, slot, index); got ${describeValue(work)}`);
    return async (slot, index) => {
      const frame = this.#current.get(index);
      if (!frame) throw new VideoDecoderStateError(`frame ${index} was not produced by this source`);
      try {
        await work(frame, slot, index);
      } finally {
        this.#current.delete(index);
        if (frame.memory.length) this.#queue.enqueueReleaseShared(frame.memory).release();
        frame.release(this.#queue);
      }
    };
  }

  /**
   * Runs `pipeline` (made with this source's produce and process) until the
   * frames end; stops the frames' iterator when the run ends early (a failed
   * step, the pipeline disposed).
   */
  async run<O extends { frames: number }>(pipeline: PipelineRun<O>, options?: Omit<O, 'frames'>): Promise<void> {
    if (this.#pipeline) throw new VideoDecoderStateError('this source has run already: make one per run');
    this.#pipeline = pipeline as PipelineRun<never>;
    try {
      await pipeline.run({ ...options, frames: Infinity } as O);
    } finally {
      // A frame produced whose process step never ran (the run stopped between them): back, once the queue is done.
      if (this.#current.size) {
        await this.#queue.finish().catch(() => {});
        for (const frame of this.#current.values()) {
          if (frame.memory.length) this.#queue.enqueueReleaseShared(frame.memory).release();
          frame.release(this.#queue);
        }
        this.#current.clear();
      }
      if (!this.#ended) await this.#frames.return?.();
    }
  }
}
