// The video decoder: H.264 or H.265 access units in, NV12 frames in OpenCL
// memory out, in display order. The codec's bitstream room (lib/video/h264,
// lib/video/h265) turns NAL units into pictures (with DPB slots and
// references) and output notifications; this front gives each picture an
// output frame of its pool and a ring slot, and the Vulkan back end
// (native/video) decodes it and copies it into the frame. What differs per
// codec (input, profile, parameter sets, descriptor) is its DecoderCodec
// (codec.ts), chosen at construction; a second back end (VA-API) plugs in at
// `#decodePicture` and the native calls; the pool (frame-pool.ts), ordering
// and lifetimes stay. Its options and device are checked in decoder-setup.ts.
import type { Context } from '../context';
import { describeValue } from '../errors';
import type { Device } from '../device';
import type { VulkanDevice } from '../vulkan/device';
import type { VulkanSemaphore } from '../vulkan/semaphore';
import { VideoDecoderDisposedError, VideoDecoderStateError, VideoDecodeUnsupportedError } from './errors';
import { CommandQueue } from '../queue';
import { DecodeLane } from './decode-lane';
import type { DecodeQueueClient } from './decode-queues';
import { setUpDecoder, type VideoDecoderOptions } from './decoder-setup';
import { FramePool } from './frame-pool';
import { PipelineFrameSource } from './pipeline-source';
import type { VideoFrame, VideoFrameSync } from './frames';
import type { CodecEvent, CodecInput, CodecPicture, DecoderCodec, VideoInputOptions } from './codec';
import { H264Codec } from './h264-codec';
import { H265Codec } from './h265-codec';
import { checkChunk, type VideoPacket } from './nal-input';
import type { VideoCodec, VideoDecodeProfile, VideoDecodeSupport } from './support';
import type { VideoDevice } from './video-device';

export type { VideoDecoderOptions } from './decoder-setup';

/**
 * What a decode() call reads: a whole stream, or its chunks, or packets (one
 * access unit each, with the timestamp its frame is to carry).
 */
export type VideoInput = Uint8Array | Iterable<Uint8Array | VideoPacket> | AsyncIterable<Uint8Array | VideoPacket>;

function isAsyncIterable(value: unknown): value is AsyncIterable<Uint8Array> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

/**
 * An H.264 or H.265 decoder on the GPU's video decode queue (Vulkan Video),
 * its frames imported into OpenCL. Make it with createVideoDecoder(); run
 * decode() (one run at a time); dispose() when done.
 */
export class VideoDecoder {
  /** options.codec: 'h264' (default) or 'h265'. */
  readonly codec: VideoCodec;
  readonly sync: VideoFrameSync;
  /** What the Vulkan device decodes. */
  readonly support: VideoDecodeSupport;
  /** The Vulkan device (matched to the OpenCL device by UUID). */
  readonly vulkan: VulkanDevice;
  readonly context: Context;
  readonly device: Device;
  readonly #video: VideoDevice;
  readonly #queue: DecodeQueueClient;
  readonly #inFlight: number;
  /** Its decode sessions (at most two: see #switchLane) and the one its next picture goes to. */
  readonly #lanes: DecodeLane[] = [];
  #lane: DecodeLane | null = null;
  #profile: VideoDecodeProfile | null = null;
  /** The codec's side: its input, profile, parameter sets (it keeps them) and descriptors. */
  readonly #codec: DecoderCodec;
  /** The device's profiles of the codec, and those that decode into copyable NV12 pictures that are DPB and output at once. */
  readonly #codecProfiles: readonly VideoDecodeProfile[];
  readonly #profiles: readonly VideoDecodeProfile[];
  /** Moves whenever the parameter sets kept change: a lane re-sends its session parameters when it last sent another. */
  #paramsVersion = 0;
  #spareStarts = 0;
  readonly #pool: FramePool;
  readonly #byDecodeIndex = new Map<number, VideoFrame>();
  readonly #display: VideoFrame[] = [];
  #displayed = 0;
  #running = false;
  #disposed = false;
  #failure: unknown = null;

  /** @internal */
  constructor(options: VideoDecoderOptions) {
    const setup = setUpDecoder(options);
    this.codec = setup.codec;
    this.#codec = setup.codec === 'h265' ? new H265Codec() : new H264Codec();
    this.#codecProfiles = setup.support.profiles.filter((p) => p.codec === setup.codec);
    this.#profiles = this.#codecProfiles.filter((p) => p.coincide && p.copyable);
    this.context = setup.context;
    this.device = setup.device;
    this.support = setup.support;
    this.#video = setup.video;
    this.vulkan = setup.video.vulkan;
    this.#queue = setup.queue;
    this.sync = setup.sync;
    this.#inFlight = setup.inFlight;
    this.#pool = new FramePool(this.vulkan, this.context, this.device, this.sync, setup.frames);
  }

  /**
   * Its own decode queue: where its frames go while the device has no more
   * decoders than decode queues. With more, the decoders take turns sharing
   * a queue, changing queue once their frames are done (see docs/video.md).
   */
  get queueIndex(): number {
    return this.#queue.own;
  }

  /** Frames decoded so far. */
  get decoded(): number {
    return this.#lanes.reduce((n, lane) => n + lane.native.info().decoded, 0);
  }

  /**
   * Its decode sessions, each with a DPB (0 before the first picture): 2
   * where the device has a spare decode queue (one no decoder owns) that a new
   * coded video sequence may start on while the last one still decodes, else 1.
   */
  get sessions(): number {
    return this.#lanes.length;
  }

  /** Coded video sequences started on a spare decode queue while the last one still decoded. */
  get spareStarts(): number {
    return this.#spareStarts;
  }

  /** The output pool's size (0 before the first picture). */
  get poolSize(): number {
    return this.#pool.size;
  }

  get disposed(): boolean {
    return this.#disposed;
  }

  #check(): void {
    if (this.#disposed) throw new VideoDecoderDisposedError();
    if (this.#failure) throw this.#failure;
  }

  // ---- session, parameters, pool ------------------------------------------------------------

  async #drain(): Promise<void> {
    await Promise.all(this.#lanes.map((lane) => lane.drain()));
  }

  /** Checks the picture against the device, fits the pool to it and keeps its parameter sets. */
  #prepare(picture: CodecPicture): void {
    this.#profile ??= this.#codec.profileFor(picture, this.#profiles);
    const profile = this.#profile;
    if (picture.codedWidth > profile.maxWidth || picture.codedHeight > profile.maxHeight)
      throw new VideoDecodeUnsupportedError(
        'size',
        this.support.device,
        `the stream is ${picture.codedWidth}x${picture.codedHeight}; the device decodes at most ${profile.maxWidth}x${profile.maxHeight}`,
      );
    this.#pool.fit(picture.crop, this.#codec.dpbFrames(picture));
    // Parameter sets: the session parameters hold every one seen, as last sent.
    if (this.#codec.keepParameters(picture)) this.#paramsVersion++;
  }

  #newLane(): DecodeLane {
    const native = this.#video.native.createDecoder(this.queueIndex, this.#profile!.profileIdc, this.#inFlight, this.codec);
    const lane = new DecodeLane(native, this.#inFlight);
    this.#lanes.push(lane);
    return lane;
  }

  /**
   * An IDR picture (H.265: an IRAP picture that starts a coded video sequence) references nothing decoded before it:
   * while this decoder's frames are still in flight, it may
   * start on its other session (made on first use) on a spare decode queue, which then decodes beside the one
   * finishing the last sequence. The spare queue taken, or -1 (the picture stays on the current session).
   */
  #switchLane(picture: CodecPicture): number {
    const lane = this.#lane;
    if (!lane || !this.#codec.startsSequence(picture) || !lane.busy) return -1;
    const other = this.#lanes.find((l) => l !== lane);
    if (other?.busy) return -1;
    const queue = this.#video.queues.takeSpare(this.#queue);
    if (queue >= 0) {
      this.#lane = other ?? this.#newLane();
      this.#spareStarts++;
    }
    return queue;
  }

  // ---- one picture ----------------------------------------------------------------------------

  async #decodePicture(picture: CodecPicture, frame: VideoFrame): Promise<void> {
    // Disposed meanwhile: no session is made for a decoder that has let its sessions go.
    this.#check();
    const queues = this.#video.queues;
    if (!this.#lane) {
      this.#lane = this.#newLane();
      // Where a spare queue may take a later sequence, its session is made now, not when a sequence waits for it.
      if (queues.hasSpare(this.#queue)) {
        await this.#newLane().fit(picture, this.#profile!, this.#paramsVersion, this.#codec);
        this.#check();
      }
    }
    let queue = this.#switchLane(picture);
    let done: Promise<void>;
    try {
      const lane = this.#lane!;
      await lane.fit(picture, this.#profile!, this.#paramsVersion, this.#codec);
      const ring = await lane.slot();
      this.#check();
      if (queue < 0) {
        const taken = queues.take(this.#queue);
        queue = typeof taken === 'number' ? taken : await taken;
      }
      // The frame's last decode, on another queue, has executed its signal before this one waits on it.
      if (frame.queue !== queue && frame.done) await frame.done.catch(() => {});
      this.#check();
      done = this.#submit(lane, ring, queue, picture, frame);
    } catch (error) {
      if (queue >= 0) queues.give(this.#queue, queue);
      // A session disposed while fit() waited says so in the native layer's words; the decoder's are these.
      if (this.#disposed) throw new VideoDecoderDisposedError();
      throw error;
    }
    queues.submitted(this.#queue, queue);
    const back = () => queues.give(this.#queue, queue);
    done.then(back, back);
  }

  #submit(lane: DecodeLane, ring: number, queue: number, picture: CodecPicture, frame: VideoFrame): Promise<void> {
    const wait: VulkanSemaphore[] = [];
    const signal: VulkanSemaphore[] = [];
    // The last picture's signal, if nobody waited on it, is consumed here (on another queue, it has been signalled).
    if (frame.ready && frame.readyPending) wait.push(frame.ready);
    if (frame.free && frame.freePending) wait.push(frame.free);
    if (frame.ready) signal.push(frame.ready);
    const layout = this.#pool.layout!;
    const done = lane.native.decode(
      ring,
      this.#codec.descriptor(picture),
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
    frame.poc = this.#codec.poc(picture);
    frame.decodeIndex = picture.decodeIndex;
    frame.done = done;
    this.#byDecodeIndex.set(picture.decodeIndex, frame);
    const slot = done.then(
      () => {
        lane.ring[ring] = null;
      },
      (error: unknown) => {
        lane.ring[ring] = null;
        this.#failure ??= error;
      },
    );
    lane.ring[ring] = slot;
    return done;
  }

  #output(decodeIndex: number, discard: boolean): void {
    const frame = this.#byDecodeIndex.get(decodeIndex);
    if (!frame) return; // a picture the back end never decoded (it failed before): nothing to show
    this.#byDecodeIndex.delete(decodeIndex);
    if (discard) {
      // The stream asks for it not to be shown (H.265's NoOutputOfPriorPicsFlag, pic_output_flag): back to the pool once decoded.
      frame.state = 'returning';
      const back = () => this.#pool.released(frame, null);
      (frame.done ?? Promise.resolve()).then(back, back);
      return;
    }
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
  async *#act(events: readonly CodecEvent<CodecPicture>[], source: CodecInput<CodecPicture>): AsyncGenerator<VideoFrame, void, undefined> {
    for (const event of events) {
      if (event.type === 'output') {
        this.#output(event.decodeIndex, this.#codec.discards && event.discard === true);
        continue;
      }
      this.#check();
      this.#prepare(event.picture);
      // Room for the picture: show what is ready first, then wait for a frame.
      let frame = this.#pool.free();
      while (!frame && this.#display.length) {
        yield await this.#nextShown();
        this.#check();
        frame = this.#pool.free();
      }
      const into = frame ?? (await this.#pool.waitForFree(() => this.#check()));
      into.timestamp = source.takeTimestamp(event.picture.decodeIndex);
      await this.#decodePicture(event.picture, into);
      // A picture not to be shown (H.265's pic_output_flag 0) gets no output event: its frame goes back once decoded.
      if (!this.#codec.shown(event.picture)) this.#output(event.picture.decodeIndex, true);
    }
    while (this.#display.length) yield await this.#nextShown();
  }

  /**
   * Decodes a stream: Annex-B bytes (a whole `.h264` / `.h265` file, or
   * chunks of it of any size), or with `{ format: 'avcc', extradata }` (H.264)
   * or `{ format: 'hvcc', extradata }` (H.265)
   * MP4 samples (length-prefixed NAL units, one access unit per chunk). A
   * chunk may be a packet `{ data, timestamp }` (one whole access unit, as a
   * demuxer gives it): the frame decoded from it carries its timestamp. Yields
   * the frames in display order; each is yours until frame.release().
   */
  async *decode(input: VideoInput, options?: VideoInputOptions): AsyncGenerator<VideoFrame, void, undefined> {
    this.#check();
    if (this.#running) throw new VideoDecoderStateError('decode() is already running on this decoder: one run at a time');
    if (!(input instanceof Uint8Array) && !isAsyncIterable(input) && !(typeof input === 'object' && input !== null && Symbol.iterator in input))
      throw new TypeError(`input must be a Uint8Array or an (async) iterable of Uint8Array chunks or packets; got ${describeValue(input)}`);
    const source = this.#codec.input(options, this.#codecProfiles);
    this.#running = true;
    try {
      const chunks: AsyncIterable<unknown> | Iterable<unknown> = input instanceof Uint8Array ? [input] : input;
      for await (const chunk of chunks) {
        yield* this.#act(source.push(checkChunk(chunk)), source);
        // Each of its pictures was copied into the decoder's bitstream ring when it was sent.
        source.reclaim();
      }
      yield* this.#act(source.flush(), source);
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
        const back = () => this.#pool.released(frame, null);
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
  pipelineSource<R = unknown>(queue: CommandQueue, input: VideoInput, options?: VideoInputOptions): PipelineFrameSource<VideoFrame, R> {
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
    for (const lane of this.#lanes) lane.native.release();
    this.#lanes.length = 0;
    this.#lane = null;
    this.#pool.close();
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
