// What a decoder back end can take (H265SequencerOptions), checked when a
// picture activates its SPS: anything past it is refused with
// H265UnsupportedError before the picture is given out.
import { H265UnsupportedError } from './errors';
import { positiveInteger } from '../h264/limits';
import type { H265RpsPocs, H265SequencerOptions } from './sequencer-types';
import type { H265Sps } from './types';

export interface Limits {
  readonly maxWidth: number;
  readonly maxHeight: number;
  readonly maxSlots: number;
  readonly maxLevelIdc: number;
  readonly maxBitDepth: number;
  readonly maxRefPicSetEntries: number;
}

/** The options with their defaults, checked. */
export function limitsOf(options: H265SequencerOptions | undefined): Limits {
  if (options !== undefined && (options === null || typeof options !== 'object'))
    throw new TypeError(`H265Sequencer options must be an object; got ${options === null ? 'null' : typeof options}`);
  const o = options ?? {};
  for (const key of Object.keys(o))
    if (!['maxWidth', 'maxHeight', 'maxSlots', 'maxLevelIdc', 'maxBitDepth', 'maxRefPicSetEntries'].includes(key))
      throw new TypeError(`H265Sequencer options: unknown option '${key}'`);
  return {
    maxWidth: positiveInteger(o.maxWidth, 'maxWidth', 4096, 65536),
    maxHeight: positiveInteger(o.maxHeight, 'maxHeight', 4096, 65536),
    maxSlots: positiveInteger(o.maxSlots, 'maxSlots', 17, 64),
    maxLevelIdc: positiveInteger(o.maxLevelIdc, 'maxLevelIdc', 186, 255),
    maxBitDepth: positiveInteger(o.maxBitDepth, 'maxBitDepth', 10, 16),
    maxRefPicSetEntries: positiveInteger(o.maxRefPicSetEntries, 'maxRefPicSetEntries', 16, 16),
  };
}

/** sps_max_dec_pic_buffering_minus1 + 1 at HighestTid (every sub-layer is decoded): the DPB size in pictures. */
export function dpbSize(sps: H265Sps): number {
  return sps.ordering.maxDecPicBufferingMinus1[sps.spsMaxSubLayersMinus1]! + 1;
}

/**
 * The most bytes the slice segments of one picture may take: twice the raw
 * samples (4:2:0 at the SPS's bit depth) plus 1 MiB for headers and emulation
 * prevention. More is a malformed (or hostile) stream, refused before it is held.
 */
export function maxPictureBytes(sps: H265Sps): number {
  return Math.ceil((sps.picWidthInLumaSamples * sps.picHeightInLumaSamples * 3 * sps.bitDepthLuma) / 8) + (1 << 20);
}

/** Throws H265UnsupportedError naming the first thing about `sps` the decoder cannot take. */
export function checkSps(sps: H265Sps, limits: Limits): void {
  const level = sps.profileTierLevel.generalLevelIdc;
  if (level > limits.maxLevelIdc)
    throw new H265UnsupportedError('level', `general_level_idc ${level} (level ${level / 30}); this decoder goes up to ${limits.maxLevelIdc}`);
  if (sps.picWidthInLumaSamples > limits.maxWidth || sps.picHeightInLumaSamples > limits.maxHeight)
    throw new H265UnsupportedError(
      'size',
      `${sps.picWidthInLumaSamples}x${sps.picHeightInLumaSamples} coded; this decoder takes up to ${limits.maxWidth}x${limits.maxHeight}`,
    );
  if (sps.bitDepthLuma > limits.maxBitDepth || sps.bitDepthChroma > limits.maxBitDepth)
    throw new H265UnsupportedError(
      'bit_depth',
      `bit_depth_luma_minus8 ${sps.bitDepthLumaMinus8}, bit_depth_chroma_minus8 ${sps.bitDepthChromaMinus8} (SPS ${sps.spsId}: ${Math.max(sps.bitDepthLuma, sps.bitDepthChroma)}-bit); this decoder takes up to ${limits.maxBitDepth} bits`,
    );
  const size = dpbSize(sps);
  if (size > limits.maxSlots)
    throw new H265UnsupportedError(
      'dpb_slots',
      `sps_max_dec_pic_buffering_minus1 ${size - 1} (SPS ${sps.spsId}) needs ${size} DPB slots; this decoder has ${limits.maxSlots}`,
    );
}

/**
 * Throws H265UnsupportedError when one of the lists a decoder is given with
 * the picture (RefPicSetStCurrBefore, RefPicSetStCurrAfter, RefPicSetLtCurr)
 * holds more pictures than it takes (Vulkan Video: 8 each).
 */
export function checkRefPicSets(pocs: H265RpsPocs, poc: number, limits: Limits): void {
  const lists: [string, readonly number[]][] = [
    ['RefPicSetStCurrBefore', pocs.stCurrBefore],
    ['RefPicSetStCurrAfter', pocs.stCurrAfter],
    ['RefPicSetLtCurr', pocs.ltCurr],
  ];
  for (const [name, list] of lists)
    if (list.length > limits.maxRefPicSetEntries)
      throw new H265UnsupportedError(
        name,
        `${list.length} pictures for the picture of PicOrderCntVal ${poc}; this decoder takes up to ${limits.maxRefPicSetEntries} (Vulkan Video's STD_VIDEO_DECODE_H265_REF_PIC_SET_LIST_SIZE)`,
      );
}
