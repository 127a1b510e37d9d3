// The decoder's H.264 side (codec.ts): the H.264 room's input, the profile
// of the stream's profile_idc (High where there is none), and the SPS and
// PPS the session parameters hold.
import type { DecoderCodec } from './codec';
import type { H264Picture, H264Pps, H264Sps } from './h264/types';
import { H264Input, type H264InputOptions } from './h264-input';
import { pictureDescriptor, stdPps, stdSps } from './h264-vulkan';
import type { NativeVideoDecoder } from './native-types';
import type { VideoDecodeProfile } from './support';

export class H264Codec implements DecoderCodec<H264Picture> {
  readonly codec = 'h264' as const;
  readonly discards = false;
  readonly #sps = new Map<number, H264Sps>();
  readonly #pps = new Map<number, H264Pps>();

  input(options: H264InputOptions | undefined, profiles: readonly VideoDecodeProfile[]): H264Input {
    const profile = profiles.find((p) => p.profileIdc === 100) ?? profiles[0]!;
    return new H264Input(options, {
      maxWidth: profile.maxWidth,
      maxHeight: profile.maxHeight,
      maxSlots: profile.maxDpbSlots,
      maxLevelIdc: profile.maxLevelIdc,
    });
  }

  profileFor(picture: H264Picture, profiles: readonly VideoDecodeProfile[]): VideoDecodeProfile {
    return profiles.find((p) => p.profileIdc === picture.sps.profileIdc) ?? profiles.find((p) => p.profileIdc === 100) ?? profiles[0]!;
  }

  dpbFrames(picture: H264Picture): number {
    return picture.sps.dpbFrames;
  }

  startsSequence(picture: H264Picture): boolean {
    return picture.isIdr && picture.references.length === 0;
  }

  shown(): boolean {
    return true;
  }

  poc(picture: H264Picture): number {
    return picture.picOrderCnt;
  }

  // The session parameters hold every SPS and PPS seen, as last sent (the sequencer makes a new record whenever one
  // changes).
  keepParameters(picture: H264Picture): boolean {
    if (this.#sps.get(picture.sps.spsId) === picture.sps && this.#pps.get(picture.pps.ppsId) === picture.pps) return false;
    this.#sps.set(picture.sps.spsId, picture.sps);
    this.#pps.set(picture.pps.ppsId, picture.pps);
    return true;
  }

  sendParameters(native: NativeVideoDecoder): void {
    native.setParameters([...this.#sps.values()].map(stdSps), [...this.#pps.values()].map(stdPps));
  }

  descriptor(picture: H264Picture): Int32Array {
    return pictureDescriptor(picture);
  }
}
