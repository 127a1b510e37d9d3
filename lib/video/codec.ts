// What the decoder (decoder.ts) needs of a codec, chosen at construction
// (options.codec): its input (bytes to the bitstream room's pictures and
// outputs), the device profile its session uses, the parameter sets its
// session holds and each picture's descriptor for the native side. One per
// decoder: it keeps the parameter sets seen. h264-codec.ts, h265-codec.ts.
import type { NativeVideoDecoder } from './native-types';
import type { VideoPacket } from './nal-input';
import type { VideoCodec, VideoDecodeProfile } from './support';

/** What the decoder reads of every codec's pictures. */
export interface CodecPicture {
  /** 0, 1, 2, ... in decode order; output events name pictures by it. */
  readonly decodeIndex: number;
  readonly codedWidth: number;
  readonly codedHeight: number;
  /** The part to show, in luma samples. */
  readonly crop: { readonly left: number; readonly top: number; readonly width: number; readonly height: number };
  /** The picture's slice NAL units after start codes, and where each starts. */
  readonly data: Uint8Array;
  readonly sliceOffsets: readonly number[];
}

/** The bitstream room's events, as the decoder acts on them. */
export type CodecEvent<P extends CodecPicture> =
  | { readonly type: 'picture'; readonly picture: P }
  | { readonly type: 'output'; readonly decodeIndex: number; readonly discard?: boolean };

/** A decode run's input (nal-input.ts). */
export interface CodecInput<P extends CodecPicture> {
  push(chunk: Uint8Array | VideoPacket): CodecEvent<P>[];
  flush(): CodecEvent<P>[];
  reclaim(): void;
  takeTimestamp(decodeIndex: number): number | bigint | undefined;
}

/** decode()'s options: the stream's format, and the MP4 extradata ('avcc': H.264's avcC; 'hvcc': H.265's hvcC). */
export interface VideoInputOptions {
  format?: 'annexb' | 'avcc' | 'hvcc';
  extradata?: Uint8Array;
}

export interface DecoderCodec<P extends CodecPicture = CodecPicture> {
  readonly codec: VideoCodec;
  /** An output event's `discard` is honoured (the frame goes back unseen); H.264's decoder shows it. */
  readonly discards: boolean;
  /** A run's input, limited by what `profiles` (the device's of this codec that the decoder can use) take. */
  input(options: VideoInputOptions | undefined, profiles: readonly VideoDecodeProfile[]): CodecInput<P>;
  /** The profile a session is made for, from the stream's first picture. */
  profileFor(picture: P, profiles: readonly VideoDecodeProfile[]): VideoDecodeProfile;
  /** Pictures the stream keeps for reordering and reference (the output pool holds at least this + 2). */
  dpbFrames(picture: P): number;
  /** The picture references nothing decoded before it: it may start on another session. */
  startsSequence(picture: P): boolean;
  /** The picture is to be shown: it gets an output event (H.265: PicOutputFlag 1); else its frame goes back once decoded. */
  shown(picture: P): boolean;
  /** The picture order count the frame carries. */
  poc(picture: P): number;
  /** Keeps the picture's parameter sets; true when what the session parameters are to hold changed. */
  keepParameters(picture: P): boolean;
  /** Sends every parameter set kept to a session (new session parameters). */
  sendParameters(native: NativeVideoDecoder): void;
  /** The picture's descriptor (native/video/decoder_state.h). */
  descriptor(picture: P): Int32Array;
}
