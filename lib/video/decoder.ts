// The video decoder: H.264 access units in, NV12 frames in OpenCL memory out,
// in display order. The bitstream room (lib/video/h264) turns NAL units into
// pictures (with DPB slots and references) and output notifications; this
// front gives each picture an output frame of its pool and a ring slot, and
// the Vulkan back end (native/video) decodes it and copies it into the frame.
// A second back end (VA-API) or codec (H.265) plugs in at `#decodePicture`
// and the native calls; the pool, ordering and lifetimes stay.
import type { Context } from '../context';
import { describeValue } from '../errors';
import type { Device } from '../device';
import { getSemaphores } from '../interop/semaphore';
import { checkChoice, checkInt, checkOptions } from '../validate';
import type { VulkanDevice } from '../vulkan/device';
import { createVulkanInstance, type VulkanInstance } from '../vulkan/instance';
import type { VulkanSemaphore } from '../vulkan/semaphore';
import { VideoDecodeUnsupportedError, VideoDecoderDisposedError, VideoDecoderStateError } from './errors';
import { CommandQueue } from '../queue';
import type { DecodeQueueClient } from './decode-queues';
import { PipelineFrameSource } from './pipeline-source';
import { VideoFrame, frameLayout, type VideoFrameLayout, type VideoFrameSync } from './frames';
import { H264Input, type H264InputOptions } from './h264-input';
import { pictureDescriptor, stdPps, stdSps } from './h264-vulkan';
import type { H264Event, H264Picture, H264Pps, H264Sps } from './h264/types';
import type { NativeVideoDecoder } from './native-types';
import { FORMAT_NV12, videoDecodeSupport, type VideoDecodeProfile, type VideoDecodeSupport } from './support';
import { videoDevice, type VideoDevice } from './video-device';

export interface VideoDecoderOptions {
  /** The OpenCL context the frames are imported into. */
  context: Context;
  /** Its device the frames are used on (default: the context's first). Its UUID picks the Vulkan device. */
  device?: Device;
  /** 'h264' (the only codec now). */
  codec?: 'h264';
  /** Output frames in the pool (default: what the stream needs for reordering + 4). At least the stream's DPB size + 2. */
  frames?: number;
  /** Decodes in flight on the decode queue (1 to 16, default 4). */
  inFlight?: number;
  /** 'semaphores' (default where Vulkan exports and OpenCL imports opaque-fd semaphores) or 'host'. */
  sync?: VideoFrameSync;
  /**
   * 'own' (default): its frames go to one decode queue of its own (decoders
   * take the queues in turn). 'shared': while the device has more decoders
   * than decode queues, each frame goes to a queue with room (needs timeline
   * semaphores to move a frame in flight; see docs/video.md).
   */
  queues?: 'own' | 'shared';
  /** The Vulkan instance to use (default: one the module keeps). */
  instance?: VulkanInstance;
}

/** What a decode() call reads: a whole stream, or its chunks. */
export type VideoInput = Uint8Array | Iterable<Uint8Array> | AsyncIterable<Uint8Array>;

let sharedInstance: VulkanInstance | null = null;

function isAsyncIterable(value: unknown): value is AsyncIterable<Uint8Array> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

/**
 * An H.264 decoder on the GPU's video decode queue (Vulkan Video), its frames
 * imported into OpenCL. Make it with createVideoDecoder(); run decode() (one
 * run at a time); dispose() when done.
 */
export class VideoDecoder {
  readonly codec = 'h264' as const;
  readonly sync: VideoFrameSync;
  /** What the Vulkan device decodes. */
  readonly support: VideoDecodeSupport;
  /** The Vulkan device (matched to the OpenCL device by UUID). */
  readonly vulkan: VulkanDevice;
  /**
   * Its own decode queue: where its frames go while the device has no more
   * decoders than decode queues. With more, each frame goes to a queue with
   * room (see docs/video.md).
   */
  readonly queueIndex: number;
  readonly context: Context;
  readonly device: Device;
  readonly #video: VideoDevice;
  readonly #queue: DecodeQueueClient;
  readonly #framesOption: number | undefined;
  readonly #inFlight: number;
  #native: NativeVideoDecoder | null = null;
  #profile: VideoDecodeProfile | null = null;
  #session = '';
  #paramsKey = '';
  readonly #sps = new Map<number, H264Sps>();
  readonly #pps = new Map<number, H264Pps>();
  #layout: VideoFrameLayout | null = null;
  #pool: VideoFrame[] = [];
  #ring: (Promise<void> | null)[];
  readonly #byDecodeIndex = new Map<number, VideoFrame>();
  readonly #display: VideoFrame[] = [];
  #displayed = 0;
  #running = false;
  #disposed = false;
  #failure: unknown = null;
  #changed: (() => void) | null = null;

  /** @internal */
  constructor(options: VideoDecoderOptions) {
    const o = checkOptions<VideoDecoderOptions>(options, 'options', [
      'context',
      'device',
      'codec',
      'frames',
      'inFlight',
      'sync',
      'instance',
      'queues',
    ]);
    if (options === undefined) throw new TypeError('options must be an object { context }; got undefined');
    const context = o.context;
    if (typeof context !== 'object' || context === null || !('platform' in context))
      throw new TypeError(`options.context must be an OpenCL Context; got ${describeValue(context)}`);
    this.context = context;
    checkChoice(o.codec, 'options.codec', ['h264'] as const, 'h264');
    const shareQueues = checkChoice(o.queues, 'options.queues', ['own', 'shared'] as const, 'own') === 'shared';
    this.#framesOption = o.frames === undefined ? undefined : checkInt(o.frames, 'options.frames', 3, 64);
    this.#inFlight = o.inFlight === undefined ? 4 : checkInt(o.inFlight, 'options.inFlight', 1, 16);
    const device = o.device ?? context.devices[0];
    if (!device || !context.devices.includes(device)) throw new TypeError('options.device must be a device of options.context');
    this.device = device;
    const uuid = device.uuidBytes;
    if (!uuid)
      throw new VideoDecodeUnsupportedError(
        'no-uuid',
        device.name,
        'the OpenCL device reports no UUID (cl_khr_device_uuid), so no Vulkan device can be matched to it',
      );
    const instance = o.instance ?? (sharedInstance ??= createVulkanInstance());
    const physical = instance.physicalDevices().find((p) => p.deviceUUID.every((b, i) => b === uuid[i]));
    if (!physical) throw new VideoDecodeUnsupportedError('no-device', device.name, "no Vulkan device has the OpenCL device's UUID");
    const support = videoDecodeSupport(instance, physical);
    this.support = support;
    if (support.decodeFamily === null)
      throw new VideoDecodeUnsupportedError('no-decode-queue', physical.name, 'this device has no video decode queue (VK_KHR_video_decode_queue)');
    if (!support.codecs.includes('h264')) throw new VideoDecodeUnsupportedError('no-codec', physical.name, 'its decode queues do not decode H.264');
    if (!support.profiles.some((p) => p.coincide && p.copyable))
      throw new VideoDecodeUnsupportedError(
        'no-format',
        physical.name,
        'no H.264 profile decodes into NV12 pictures that are both DPB and output and can be copied',
      );
    if (!support.decodeTransfers)
      throw new VideoDecodeUnsupportedError(
        'no-transfer',
        physical.name,
        'its decode queue family does not transfer (the copy out would need another queue; not supported yet)',
      );
    if (support.transferGranularity !== 1)
      throw new VideoDecodeUnsupportedError(
        'no-transfer',
        physical.name,
        `its decode queue copies whole images only (granularity ${support.transferGranularity})`,
      );
    if (physical.queueFamily === null) throw new VideoDecodeUnsupportedError('no-device', physical.name, 'the device has no compute queue');
    this.#video = videoDevice(instance, physical, support);
    this.vulkan = this.#video.vulkan;
    this.#queue = this.#video.queues.join(shareQueues);
    this.queueIndex = this.#queue.own;
    const wanted = o.sync;
    const semaphores = this.vulkan.semaphoreHandleTypes.includes('opaque-fd') && this.#clImportsSemaphores();
    if (wanted !== undefined) checkChoice(wanted, 'options.sync', ['semaphores', 'host'] as const);
    if (wanted === 'semaphores' && !semaphores)
      throw new VideoDecodeUnsupportedError(
        'no-semaphores',
        physical.name,
        'Vulkan does not export, or OpenCL does not import, opaque-fd semaphores',
      );
    this.sync = wanted ?? (semaphores ? 'semaphores' : 'host');
    this.#ring = new Array(this.#inFlight).fill(null);
  }

  #clImportsSemaphores(): boolean {
    try {
      return getSemaphores(this.context.platform).importHandleTypes(this.device).includes('opaque-fd');
    } catch {
      return false;
    }
  }

  /** Frames decoded so far. */
  get decoded(): number {
    return this.#native ? this.#native.info().decoded : 0;
  }

  /** The output pool's size (0 before the first picture). */
  get poolSize(): number {
    return this.#pool.length;
  }

  get disposed(): boolean {
    return this.#disposed;
  }

  #check(): void {
    if (this.#disposed) throw new VideoDecoderDisposedError();
    if (this.#failure) throw this.#failure;
  }

  #notify(): void {
    const changed = this.#changed;
    this.#changed = null;
    changed?.();
  }

  /** The decoder's own OpenCL queue: it consumes the signals of pictures nobody waited on (made on first use). */
  #clQueue: CommandQueue | null = null;

  #returnReady(frame: VideoFrame): void {
    if (!frame.readyPending || this.#disposed) return;
    this.#clQueue ??= this.context.createQueue(this.device);
    frame.returnReady(this.#clQueue);
  }

  #released = (frame: VideoFrame, after: Promise<unknown> | null): void => {
    const settle = () => {
      if (frame.state === 'returning') frame.state = 'free';
      if (this.#disposed || !this.#pool.includes(frame)) frame.dispose();
      this.#notify();
    };
    if (after) after.then(settle, settle);
    else settle();
  };

  // ---- session, parameters, pool ------------------------------------------------------------

  async #drain(): Promise<void> {
    await Promise.all(this.#ring.map((p) => p?.catch(() => {})));
  }

  async #prepare(picture: H264Picture): Promise<void> {
    const sps = picture.sps;
    if (!this.#native) {
      const profiles = this.support.profiles.filter((p) => p.coincide && p.copyable);
      this.#profile = profiles.find((p) => p.profileIdc === sps.profileIdc) ?? profiles.find((p) => p.profileIdc === 100) ?? profiles[0]!;
      this.#native = this.#video.native.createDecoder(this.queueIndex, this.#profile.profileIdc, this.#inFlight);
    }
    const profile = this.#profile!;
    if (picture.codedWidth > profile.maxWidth || picture.codedHeight > profile.maxHeight)
      throw new VideoDecodeUnsupportedError(
        'size',
        this.support.device,
        `the stream is ${picture.codedWidth}x${picture.codedHeight}; the device decodes at most ${profile.maxWidth}x${profile.maxHeight}`,
      );
    const session = `${picture.codedWidth}x${picture.codedHeight}`;
    if (session !== this.#session) {
      await this.#drain();
      this.#native.configure(picture.codedWidth, picture.codedHeight, profile.maxDpbSlots, profile.maxActiveReferences, FORMAT_NV12);
      this.#session = session;
      this.#paramsKey = '';
    }
    const layout = this.#layout;
    if (!layout || layout.width !== picture.crop.width || layout.height !== picture.crop.height) this.#makePool(picture);
    // Parameter sets: the session parameters hold every SPS and PPS seen, as last sent.
    this.#sps.set(sps.spsId, sps);
    this.#pps.set(picture.pps.ppsId, picture.pps);
    const key =
      [...this.#sps.values()].map((s) => `s${s.spsId}:${s.version}`).join(',') +
      [...this.#pps.values()].map((p) => `p${p.ppsId}:${p.version}`).join(',');
    if (key !== this.#paramsKey) {
      this.#native.setParameters([...this.#sps.values()].map(stdSps), [...this.#pps.values()].map(stdPps));
      this.#paramsKey = key;
    }
  }

  #makePool(picture: H264Picture): void {
    const needed = picture.sps.dpbFrames + 2;
    const size = this.#framesOption ?? needed + 4;
    if (size < needed)
      throw new VideoDecoderStateError(
        `options.frames is ${size}: this stream keeps up to ${picture.sps.dpbFrames} decoded pictures waiting for display, so the pool needs at least ${needed} frames`,
      );
    // Frames of the old size go once released (those waiting for display are shown first).
    for (const frame of this.#pool) if (frame.state === 'free') frame.dispose();
    this.#layout = frameLayout(picture.crop.width, picture.crop.height);
    this.#pool = [];
    for (let i = 0; i < size; i++) this.#pool.push(new VideoFrame(this.vulkan, this.context, this.device, this.#layout, this.sync, this.#released));
  }

  // ---- one picture ----------------------------------------------------------------------------

  /** A free frame of the pool, or null when none is free now (the caller shows frames or waits). */
  #freeFrame(): VideoFrame | null {
    for (const frame of this.#pool) if (frame.state === 'free') return frame;
    return null;
  }

  async #waitForFrame(): Promise<VideoFrame> {
    for (;;) {
      const frame = this.#freeFrame();
      if (frame) return frame;
      const returning = this.#pool.some((f) => f.state === 'returning');
      if (!returning) {
        const held = this.#pool.filter((f) => f.state === 'user').length;
        const waiting = this.#pool.filter((f) => f.state === 'waiting' || f.state === 'decoding').length;
        throw new VideoDecoderStateError(
          `no free output frame: of ${this.#pool.length}, ${held} are held by you and ${waiting} wait for display; release frames before asking for the next one, or give a larger options.frames`,
        );
      }
      await new Promise<void>((resolve) => (this.#changed = resolve));
      this.#check();
    }
  }

  async #ringSlot(): Promise<number> {
    for (;;) {
      const free = this.#ring.indexOf(null);
      if (free >= 0) return free;
      await Promise.race(this.#ring.map((p) => p!.catch(() => {})));
    }
  }

  async #decodePicture(picture: H264Picture, frame: VideoFrame): Promise<void> {
    const native = this.#native!;
    const ring = await this.#ringSlot();
    this.#check();
    const queues = this.#video.queues;
    const taken = queues.take(this.#queue);
    const queue = typeof taken === 'number' ? taken : await taken;
    let done: Promise<void>;
    try {
      this.#check();
      done = this.#submit(native, ring, queue, picture, frame);
    } catch (error) {
      queues.give(this.#queue, queue);
      throw error;
    }
    queues.submitted(this.#queue, queue);
    const back = () => queues.give(this.#queue, queue);
    done.then(back, back);
  }

  #submit(native: NativeVideoDecoder, ring: number, queue: number, picture: H264Picture, frame: VideoFrame): Promise<void> {
    const wait: VulkanSemaphore[] = [];
    const signal: VulkanSemaphore[] = [];
    // The last picture's signal, if nobody waited on it: consumed by this decode on the same queue (a queue's own
    // order), else by OpenCL first (the decoder's own queue), so that no decode waits on a signal of another queue's.
    if (frame.ready && frame.readyPending) {
      if (frame.queue === queue) wait.push(frame.ready);
      else this.#returnReady(frame);
    }
    if (frame.free && frame.freePending) wait.push(frame.free);
    if (frame.ready) signal.push(frame.ready);
    const layout = this.#layout!;
    const done = native.decode(
      ring,
      pictureDescriptor(picture),
      Uint32Array.from(picture.sliceOffsets),
      picture.data,
      frame.buffer.native,
      [0, layout.pitch, layout.uvOffset, layout.pitch],
      wait.length ? wait.map((s) => s.native) : undefined,
      signal.length ? signal.map((s) => s.native) : undefined,
      queue,
    );
    frame.freePending = false;
    frame.readyPending = frame.ready !== null;
    frame.queue = queue;
    frame.state = 'waiting';
    frame.poc = picture.picOrderCnt;
    frame.decodeIndex = picture.decodeIndex;
    frame.done = done;
    this.#byDecodeIndex.set(picture.decodeIndex, frame);
    const slot = done.then(
      () => {
        this.#ring[ring] = null;
      },
      (error: unknown) => {
        this.#ring[ring] = null;
        this.#failure ??= error;
      },
    );
    this.#ring[ring] = slot;
    return done;
  }

  #output(decodeIndex: number): void {
    const frame = this.#byDecodeIndex.get(decodeIndex);
    if (!frame) return; // a picture the back end never decoded (it failed before): nothing to show
    this.#byDecodeIndex.delete(decodeIndex);
    frame.displayIndex = this.#displayed++;
    this.#display.push(frame);
  }

  async #nextShown(): Promise<VideoFrame> {
    const frame = this.#display.shift()!;
    if (this.sync === 'host') await frame.done;
    this.#check();
    frame.state = 'user';
    return frame;
  }

  /** Acts on the sequencer's events in order: decodes pictures, queues outputs, and yields what is due. */
  async *#act(events: readonly H264Event[]): AsyncGenerator<VideoFrame, void, undefined> {
    for (const event of events) {
      if (event.type === 'output') {
        this.#output(event.decodeIndex);
        continue;
      }
      await this.#prepare(event.picture);
      // Room for the picture: show what is ready first, then wait for a frame.
      let frame = this.#freeFrame();
      while (!frame && this.#display.length) {
        yield await this.#nextShown();
        this.#check();
        frame = this.#freeFrame();
      }
      await this.#decodePicture(event.picture, frame ?? (await this.#waitForFrame()));
    }
    while (this.#display.length) yield await this.#nextShown();
  }

  /**
   * Decodes a stream: Annex-B bytes (a whole `.h264` file, or chunks of it of
   * any size), or with `{ format: 'avcc', extradata }`
   * MP4 samples (length-prefixed NAL units, one access unit per chunk). Yields
   * the frames in display order; each is yours until frame.release().
   */
  async *decode(input: VideoInput, options?: H264InputOptions): AsyncGenerator<VideoFrame, void, undefined> {
    this.#check();
    if (this.#running) throw new VideoDecoderStateError('decode() is already running on this decoder: one run at a time');
    if (!(input instanceof Uint8Array) && !isAsyncIterable(input) && !(typeof input === 'object' && input !== null && Symbol.iterator in input))
      throw new TypeError(`input must be a Uint8Array or an (async) iterable of Uint8Array; got ${describeValue(input)}`);
    const profile = this.support.profiles.find((p) => p.profileIdc === 100) ?? this.support.profiles[0]!;
    const source = new H264Input(options, {
      maxWidth: profile.maxWidth,
      maxHeight: profile.maxHeight,
      maxSlots: profile.maxDpbSlots,
      maxLevelIdc: profile.maxLevelIdc,
    });
    this.#running = true;
    try {
      const chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array> = input instanceof Uint8Array ? [input] : input;
      for await (const chunk of chunks) {
        if (!(chunk instanceof Uint8Array)) throw new TypeError(`every chunk must be a Uint8Array; got ${describeValue(chunk)}`);
        yield* this.#act(source.push(chunk));
      }
      yield* this.#act(source.flush());
      while (this.#display.length) yield await this.#nextShown();
      await this.#drain();
      this.#check();
    } finally {
      this.#running = false;
      // Stopped early: what was decoded but not shown goes back to the pool once its decode is done.
      const unshown = [...this.#display, ...this.#byDecodeIndex.values()];
      this.#display.length = 0;
      this.#byDecodeIndex.clear();
      for (const frame of unshown) {
        frame.state = 'returning';
        const back = () => this.#released(frame, null);
        (frame.done ?? Promise.resolve()).then(back, back);
      }
    }
  }

  /**
   * This decoder's frames of `input` (as decode() takes it) as the producer
   * of a FramePipeline whose queue is `queue`: give the pipeline
   * `produce: source.produce` and `process: source.process((frame) => ...)`,
   * then `await source.run(pipeline)`. Each frame is waited for and acquired
   * on `queue` before your work, released and given back to the decoder
   * behind it; the run ends with the stream.
   */
  pipelineSource<R = unknown>(queue: CommandQueue, input: VideoInput, options?: H264InputOptions): PipelineFrameSource<VideoFrame, R> {
    this.#check();
    if (!(queue instanceof CommandQueue)) throw new TypeError(`queue must be a CommandQueue (the pipeline's); got ${describeValue(queue)}`);
    if (queue.context !== this.context) throw new TypeError("queue must be a queue of the decoder's context");
    return new PipelineFrameSource<VideoFrame, R>(this.decode(input, options), queue);
  }

  /**
   * Lets go of the decoder: no new decode starts; decodes in flight finish
   * (natively: nothing waits here), then the session, DPB and ring go. Frames
   * you hold stay valid until you release them. Idempotent.
   */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#video.queues.leave(this.#queue);
    this.#native?.release();
    // Its commands (semaphore waits and signals) finish on their own; the queue goes once they have.
    this.#clQueue?.release();
    this.#clQueue = null;
    this.#native = null;
    for (const frame of this.#pool) {
      if (frame.state === 'free') frame.dispose();
      else if (frame.state !== 'user') {
        const gone = () => frame.dispose();
        (frame.done ?? Promise.resolve()).then(gone, gone);
      }
    }
    this.#notify();
  }

  /** dispose(), resolving once the decodes in flight have finished. */
  async asyncDispose(): Promise<void> {
    const inFlight = this.#drain();
    this.dispose();
    await inFlight;
  }

  [Symbol.dispose](): void {
    this.dispose();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.asyncDispose();
  }
}

/**
 * A decoder on the Vulkan device that is `options.device`'s GPU (matched by
 * UUID). Throws VideoDecodeUnsupportedError where that device cannot decode
 * (reason 'no-decode-queue' on a device without a video decode queue).
 */
export function createVideoDecoder(options: VideoDecoderOptions): VideoDecoder {
  return new VideoDecoder(options);
}
