// The decoder's output frames: exportable Vulkan buffers holding one NV12
// picture each (rows of `pitch` bytes, the UV plane at `uvOffset`), imported
// into OpenCL once as an ImportedFrame, with the semaphores that order the
// decoder's copy and OpenCL's use where both sides have them. A frame is the
// user's from the moment the decoder yields it until release().
import type { Context } from '../context';
import type { Device } from '../device';
import { getExternalMemory } from '../interop/external-memory';
import type { ImportedFrame } from '../interop/external-frames';
import { getSemaphores, type Semaphore } from '../interop/semaphore';
import type { CLBuffer, CLImage } from '../memory';
import type { CommandQueue } from '../queue';
import type { VulkanBuffer } from '../vulkan/memory';
import type { VulkanDevice } from '../vulkan/device';
import type { VulkanSemaphore } from '../vulkan/semaphore';
import { VideoDecoderDisposedError, VideoDecoderStateError } from './errors';

/** How the decoder's copy and OpenCL's use of a frame are ordered. */
export type VideoFrameSync = 'semaphores' | 'host';

/** The layout of one NV12 output frame. */
export interface VideoFrameLayout {
  readonly width: number;
  readonly height: number;
  /** Bytes from one row to the next, in both planes. */
  readonly pitch: number;
  /** Where the UV plane starts. */
  readonly uvOffset: number;
  readonly size: number;
}

export function frameLayout(width: number, height: number): VideoFrameLayout {
  const pitch = Math.ceil(width / 256) * 256;
  const uvOffset = Math.ceil((pitch * height) / 4096) * 4096;
  return Object.freeze({ width, height, pitch, uvOffset, size: uvOffset + (pitch * height) / 2 });
}

/** @internal Where a pool frame is. */
export type FrameState = 'free' | 'decoding' | 'waiting' | 'user' | 'returning';

/**
 * One decoded picture in OpenCL memory (NV12: `planes[0]` the Y rows,
 * `planes[1]` the interleaved UV rows, both `pitch` bytes apart). Before
 * OpenCL uses it: `frame.wait(queue)` (a semaphore wait where the decoder
 * signals one; nothing otherwise, the decode being finished already), and
 * acquire `frame.memory`. Give it back with `release()`: the decoder writes
 * its next picture into it.
 */
export class VideoFrame {
  /** Visible size (cropping applied). */
  readonly width: number;
  readonly height: number;
  readonly pitch: number;
  readonly uvOffset: number;
  /** The imported allocation: what queue.acquire() takes. */
  readonly memory: readonly CLBuffer[];
  /** [Y, UV] sub-buffers. */
  readonly planes: readonly (CLBuffer | CLImage)[];
  /** The ImportedFrame behind it. */
  readonly imported: ImportedFrame;
  /** Picture order count (display order within a coded video sequence). */
  poc = 0;
  /** Decode order index of the picture it holds. */
  decodeIndex = -1;
  /** 0, 1, 2, ... in display order over the decoder's life. */
  displayIndex = -1;
  /** The timestamp of the packet it was decoded from (decode() given packets), else undefined. */
  timestamp: number | bigint | undefined = undefined;

  /** @internal */ state: FrameState = 'free';
  /** @internal */ readonly buffer: VulkanBuffer;
  /**
   * @internal Signalled by the decode (semaphores sync); waited on by OpenCL (wait(), or release(queue) when
   * nobody waited), else by the next decode into the frame.
   */
  readonly ready: VulkanSemaphore | null;
  /** @internal Signalled by OpenCL at release(queue); waited on by the next decode into the frame. */
  readonly free: VulkanSemaphore | null;
  /** @internal */ readyPending = false;
  /** @internal The decode queue of its last decode (-1: none yet). */ queue = -1;
  /** @internal */ freePending = false;
  /** @internal The decode's completion. */ done: Promise<void> | null = null;
  readonly #clReady: Semaphore | null;
  readonly #clFree: Semaphore | null;
  readonly #onRelease: (frame: VideoFrame, after: Promise<unknown> | null) => void;
  #disposed = false;

  /** @internal */
  constructor(
    vulkan: VulkanDevice,
    context: Context,
    clDevice: Device,
    layout: VideoFrameLayout,
    sync: VideoFrameSync,
    onRelease: (frame: VideoFrame, after: Promise<unknown> | null) => void,
  ) {
    this.width = layout.width;
    this.height = layout.height;
    this.pitch = layout.pitch;
    this.uvOffset = layout.uvOffset;
    this.#onRelease = onRelease;
    this.buffer = vulkan.createBuffer({ size: layout.size });
    const platform = context.platform;
    try {
      this.imported = getExternalMemory(platform).importPlanes(context, this.buffer.exportMemory(), {
        format: 'NV12',
        width: layout.width,
        height: layout.height,
        planes: [
          { offset: 0, pitch: layout.pitch },
          { offset: layout.uvOffset, pitch: layout.pitch },
        ],
      });
      this.memory = this.imported.memory;
      this.planes = this.imported.planes;
      if (sync === 'semaphores') {
        const semaphores = getSemaphores(platform);
        this.ready = vulkan.createSemaphore();
        this.free = vulkan.createSemaphore();
        this.#clReady = semaphores.import(context, this.ready.exportHandle('opaque-fd'), { device: clDevice });
        this.#clFree = semaphores.import(context, this.free.exportHandle('opaque-fd'), { device: clDevice });
      } else {
        this.ready = this.free = null;
        this.#clReady = this.#clFree = null;
      }
    } catch (error) {
      this.buffer.dispose();
      throw error;
    }
  }

  /** True while the frame is yours (yielded, not yet released). */
  get held(): boolean {
    return this.state === 'user';
  }

  #check(what: string): void {
    if (this.#disposed) throw new VideoDecoderDisposedError('VideoFrame');
    if (this.state !== 'user') throw new VideoDecoderStateError(`${what}: this frame is not yours now (it was released, or not yet yielded)`);
  }

  /**
   * Orders `queue`'s next commands after the decoder's copy into this frame:
   * enqueues a wait on the frame's semaphore where the decoder signals one
   * (once per picture; a second call enqueues nothing), nothing where the
   * decoder waited on the host before yielding it.
   */
  wait(queue: CommandQueue): void {
    this.#check('wait()');
    if (this.#clReady && this.readyPending) {
      this.#clReady.wait(queue).release();
      this.readyPending = false;
    }
  }

  /**
   * Gives the frame back to the decoder. With `queue` (the queue whose
   * commands used it): the decoder's next write into it waits for those
   * commands (a semaphore OpenCL signals, or an event the host waits for).
   * Without: the caller says OpenCL is done with it (e.g. the
   * `await using queue.acquire()` scope around its use has ended).
   */
  release(queue?: CommandQueue): void {
    this.#check('release()');
    let after: Promise<unknown> | null = null;
    if (queue !== undefined) {
      if (this.#clFree) {
        if (this.#clReady && this.readyPending) {
          this.#clReady.wait(queue).release(); // nobody waited on this picture's signal: consumed here
          this.readyPending = false;
        }
        this.#clFree.signal(queue).release();
        queue.flush(); // the signal is submitted before the decode that waits on it (a binary semaphore's rule)
        this.freePending = true;
      } else {
        const marker = queue.enqueueMarker();
        queue.flush();
        after = marker.completed.finally(() => marker.release());
      }
    }
    this.state = after ? 'returning' : 'free';
    this.#onRelease(this, after);
  }

  /** @internal Frees what it owns (its OpenCL import, semaphores, memory). Idempotent. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    for (const mem of this.memory) if (mem.acquired) return void this.#leak();
    this.imported.release();
    this.#clReady?.release();
    this.#clFree?.release();
    this.ready?.dispose();
    this.free?.dispose();
    this.buffer.dispose();
  }

  // Still acquired by the user's queue: OpenCL keeps the memory; the Vulkan side stays until the process ends.
  #leak(): void {}
}
