// A decoder's output frames: made for the stream's picture size (at least its
// DPB + 2), handed out free, and back once released (at once, or once the work
// of the queue release() names is done). Frames of an old size go as they come
// back.
import type { Context } from '../context';
import type { Device } from '../device';
import type { VulkanDevice } from '../vulkan/device';
import { VideoDecoderStateError } from './errors';
import { VideoFrame, frameLayout, type VideoFrameLayout, type VideoFrameSync } from './frames';

export class FramePool {
  readonly #vulkan: VulkanDevice;
  readonly #context: Context;
  readonly #device: Device;
  readonly #sync: VideoFrameSync;
  /** options.frames (undefined: what the stream needs + 4). */
  readonly #size: number | undefined;
  #frames: VideoFrame[] = [];
  #layout: VideoFrameLayout | null = null;
  #changed: (() => void) | null = null;
  #closed = false;
  /** When each frame last came back free (0: never used), in the order they came back. */
  readonly #freedAt = new Map<VideoFrame, number>();
  #returns = 0;

  constructor(vulkan: VulkanDevice, context: Context, device: Device, sync: VideoFrameSync, size: number | undefined) {
    this.#vulkan = vulkan;
    this.#context = context;
    this.#device = device;
    this.#sync = sync;
    this.#size = size;
  }

  /** Frames in the pool (0 before the first picture). */
  get size(): number {
    return this.#frames.length;
  }

  /** The frames' layout (null before the first picture). */
  get layout(): VideoFrameLayout | null {
    return this.#layout;
  }

  /** Makes the pool anew where the picture to show (`crop`) is of another size than its frames; `dpbFrames`: the stream's DPB size. */
  fit(crop: { readonly width: number; readonly height: number }, dpbFrames: number): void {
    const layout = this.#layout;
    if (layout && layout.width === crop.width && layout.height === crop.height) return;
    const needed = dpbFrames + 2;
    const size = this.#size ?? needed + 4;
    if (size < needed)
      throw new VideoDecoderStateError(
        `options.frames is ${size}: this stream keeps up to ${dpbFrames} decoded pictures waiting for display, so the pool needs at least ${needed} frames`,
      );
    // Frames of the old size go once released (those waiting for display are shown first).
    for (const frame of this.#frames) if (frame.state === 'free') frame.dispose();
    this.#layout = frameLayout(crop.width, crop.height);
    this.#frames = [];
    this.#freedAt.clear();
    for (let i = 0; i < size; i++)
      this.#frames.push(new VideoFrame(this.#vulkan, this.#context, this.#device, this.#layout, this.#sync, this.released));
  }

  /**
   * The free frame that came back first, or null when none is free now (the caller shows frames or waits). A frame
   * released at once may still be decoding; the one free the longest most likely is not, so a decode into it moving
   * to another queue does not wait for it (decoder.ts).
   */
  free(): VideoFrame | null {
    let oldest: VideoFrame | null = null;
    for (const frame of this.#frames)
      if (frame.state === 'free' && (!oldest || (this.#freedAt.get(frame) ?? 0) < (this.#freedAt.get(oldest) ?? 0))) oldest = frame;
    return oldest;
  }

  /** The next frame to come back free; `check` runs after each wait (it throws once the decoder is disposed or failed). */
  async waitForFree(check: () => void): Promise<VideoFrame> {
    for (;;) {
      const frame = this.free();
      if (frame) return frame;
      const returning = this.#frames.some((f) => f.state === 'returning');
      if (!returning) {
        const held = this.#frames.filter((f) => f.state === 'user').length;
        const waiting = this.#frames.filter((f) => f.state === 'waiting' || f.state === 'decoding').length;
        throw new VideoDecoderStateError(
          `no free output frame: of ${this.#frames.length}, ${held} are held by you and ${waiting} wait for display; release frames before asking for the next one, or give a larger options.frames`,
        );
      }
      await new Promise<void>((resolve) => (this.#changed = resolve));
      check();
    }
  }

  /** Wakes a waitForFree(). */
  notify(): void {
    const changed = this.#changed;
    this.#changed = null;
    changed?.();
  }

  /** A frame back from its user or from a stopped run: free once `after` settles (disposed if no longer the pool's). */
  released = (frame: VideoFrame, after: Promise<unknown> | null): void => {
    const settle = () => {
      if (frame.state === 'returning') frame.state = 'free';
      this.#freedAt.set(frame, ++this.#returns);
      if (this.#closed || !this.#frames.includes(frame)) {
        this.#freedAt.delete(frame);
        frame.dispose();
      }
      this.notify();
    };
    if (after) after.then(settle, settle);
    else settle();
  };

  /** The decoder is disposed: free frames go now, those in flight once decoded, those held by the user when released. */
  close(): void {
    this.#closed = true;
    for (const frame of this.#frames) {
      if (frame.state === 'free') frame.dispose();
      else if (frame.state !== 'user') {
        const gone = () => frame.dispose();
        (frame.done ?? Promise.resolve()).then(gone, gone);
      }
    }
    this.notify();
  }
}
