// The decoder's H.265 side (codec.ts): the H.265 room's input limited to
// what a Vulkan Video H.265 Main session takes (8 bits, the device's size,
// DPB slots and level, 8 pictures per RefPicSet list), the Main profile, and
// the VPS, SPS and PPS the session parameters hold.
import type { DecoderCodec } from './codec';
import { dpbSize } from './h265/limits';
import type { H265Picture } from './h265/sequencer-types';
import type { H265Pps, H265Sps, H265Vps } from './h265/types';
import { H265Input, type H265InputOptions } from './h265-input';
import { REF_PIC_SET_SIZE, pictureDescriptor, stdPps, stdSps, stdVps } from './h265-vulkan';
import type { NativeVideoDecoder } from './native-types';
import type { VideoDecodeProfile } from './support';

/** general_profile_idc of H.265 Main (StdVideoH265ProfileIdc STD_VIDEO_H265_PROFILE_IDC_MAIN). */
export const H265_MAIN = 1;

export class H265Codec implements DecoderCodec<H265Picture> {
  readonly codec = 'h265' as const;
  readonly discards = true;
  readonly #vps = new Map<number, H265Vps>();
  readonly #sps = new Map<number, H265Sps>();
  /** Each PPS with the VPS id of its SPS (StdVideoH265PictureParameterSet carries it). */
  readonly #pps = new Map<number, { pps: H265Pps; vpsId: number }>();

  input(options: H265InputOptions | undefined, profiles: readonly VideoDecodeProfile[]): H265Input {
    const profile = profiles.find((p) => p.profileIdc === H265_MAIN) ?? profiles[0]!;
    return new H265Input(options, {
      maxWidth: profile.maxWidth,
      maxHeight: profile.maxHeight,
      maxSlots: profile.maxDpbSlots,
      maxLevelIdc: profile.maxLevelIdc,
      maxBitDepth: 8,
      maxRefPicSetEntries: REF_PIC_SET_SIZE,
    });
  }

  profileFor(_picture: H265Picture, profiles: readonly VideoDecodeProfile[]): VideoDecodeProfile {
    return profiles.find((p) => p.profileIdc === H265_MAIN) ?? profiles[0]!;
  }

  dpbFrames(picture: H265Picture): number {
    return dpbSize(picture.sps);
  }

  startsSequence(picture: H265Picture): boolean {
    return picture.isIrap && picture.noRaslOutputFlag && picture.references.length === 0;
  }

  shown(picture: H265Picture): boolean {
    return picture.picOutputFlag;
  }

  poc(picture: H265Picture): number {
    return picture.picOrderCntVal;
  }

  // The session parameters hold every VPS, SPS and PPS seen, as last sent (the sequencer makes a new record whenever
  // one changes, and reads a PPS anew when its SPS changed).
  keepParameters(picture: H265Picture): boolean {
    const { vps, sps, pps } = picture;
    if (this.#vps.get(vps.vpsId) === vps && this.#sps.get(sps.spsId) === sps && this.#pps.get(pps.ppsId)?.pps === pps) return false;
    this.#vps.set(vps.vpsId, vps);
    this.#sps.set(sps.spsId, sps);
    this.#pps.set(pps.ppsId, { pps, vpsId: sps.vpsId });
    return true;
  }

  sendParameters(native: NativeVideoDecoder): void {
    native.setParameters(
      [...this.#sps.values()].map(stdSps),
      [...this.#pps.values()].map((p) => stdPps(p.pps, p.vpsId)),
      [...this.#vps.values()].map(stdVps),
    );
  }

  descriptor(picture: H265Picture): Int32Array {
    return pictureDescriptor(picture);
  }
}
