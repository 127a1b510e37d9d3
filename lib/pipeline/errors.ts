// The frame pipeline's typed errors. It calls no native code of its own (its
// steps reach the drivers through the core, lib/interop/ and lib/vulkan/,
// whose errors they throw), so nothing here is registered for native throws.

/** The steps of a frame: what a FrameStepError names. */
export type FrameStepName = 'resources' | 'acquire' | 'produce' | 'process' | 'consume' | 'onConsumed';

/** A FramePipeline was used after dispose(), or disposed while run() was still going. */
export class FramePipelineDisposedError extends Error {
  override name = 'FramePipelineDisposedError';
  /** Frames whose consumer had finished when the run stopped (0 for a call on a disposed pipeline). */
  readonly framesDone: number;
  /** `cause`: where letting go of the slots failed too, their AggregateError. */
  constructor(message: string, framesDone = 0, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.framesDone = framesDone;
  }
}

/** run() was called while another run() of the same pipeline was in progress. */
export class FramePipelineStateError extends Error {
  override name = 'FramePipelineStateError';
}

/**
 * A step of a frame threw or rejected: `cause` is what it threw. The run
 * stops submitting, lets the frames already in flight finish, and rejects
 * with this error; the pipeline stays usable.
 */
export class FrameStepError extends Error {
  override name = 'FrameStepError';
  readonly step: FrameStepName;
  /** The slot's index. */
  readonly slot: number;
  /** The frame number, or -1 for a step of the slot rather than of a frame (resources, acquire). */
  readonly frame: number;
  constructor(step: FrameStepName, slot: number, frame: number, cause: unknown) {
    const what = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
    super(`the ${step} step of ${frame >= 0 ? `frame ${frame} (slot ${slot})` : `slot ${slot}`} failed: ${what}`, { cause });
    this.step = step;
    this.slot = slot;
    this.frame = frame;
  }
}
