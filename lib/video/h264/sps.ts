// seq_parameter_set_rbsp() (7.3.2.1) and what is derived from it (7.4.2.1.1),
// with the level limits of Table A-1 the DPB size comes from.
import type { BitReader } from './bit-reader';
import { flatScalingLists, readScalingLists } from './scaling';
import { H264BitstreamError, type H264Sps } from './types';
import { readVui } from './vui';

/** profile_idc values whose SPS carries chroma_format_idc and the rest (7.3.2.1.1). */
const HIGH_PROFILES = new Set([100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]);

/** [level_idc, MaxDpbMbs] of Table A-1, ascending (level 1b is handled apart). */
const MAX_DPB_MBS: readonly (readonly [number, number])[] = [
  [10, 396],
  [11, 900],
  [12, 2376],
  [13, 2376],
  [20, 2376],
  [21, 4752],
  [22, 8100],
  [30, 8100],
  [31, 18000],
  [32, 20480],
  [40, 32768],
  [41, 32768],
  [42, 34816],
  [50, 110400],
  [51, 184320],
  [52, 184320],
  [60, 696320],
  [61, 696320],
  [62, 696320],
];

/** MaxDpbMbs of a level (Table A-1); level 1b (level_idc 9, or 11 with constraint_set3_flag in Baseline/Main/Extended) is 396. */
export function maxDpbMbs(profileIdc: number, constraintFlags: number, levelIdc: number): number {
  if (levelIdc === 9 || (levelIdc === 11 && (constraintFlags & 8) !== 0 && (profileIdc === 66 || profileIdc === 77 || profileIdc === 88))) return 396;
  for (const [level, mbs] of MAX_DPB_MBS) if (levelIdc <= level) return mbs;
  return MAX_DPB_MBS[MAX_DPB_MBS.length - 1]![1];
}

/** The largest picture size in macroblocks this parser accepts before the decoder's limits are applied (a sanity bound). */
const MAX_DIMENSION_MBS = 4096;

/** Parses an SPS NAL unit's RBSP; `r` is positioned after the NAL header byte. */
export function readSps(r: BitReader, version: number): H264Sps {
  const profileIdc = r.u(8, 'profile_idc');
  const constraintByte = r.u(8, 'constraint_set_flags');
  // constraint_set0_flag is the most significant bit: bit i of constraintFlags is constraint_set{i}_flag.
  let constraintFlags = 0;
  for (let i = 0; i < 6; i++) if (constraintByte & (0x80 >> i)) constraintFlags |= 1 << i;
  const levelIdc = r.u(8, 'level_idc');
  const spsId = r.ue('seq_parameter_set_id', 31);
  let chromaFormatIdc = 1;
  let separateColourPlaneFlag = false;
  let bitDepthLumaMinus8 = 0;
  let bitDepthChromaMinus8 = 0;
  let qpprimeYZeroTransformBypassFlag = false;
  let seqScalingMatrixPresentFlag = false;
  let scalingLists = flatScalingLists;
  if (HIGH_PROFILES.has(profileIdc)) {
    chromaFormatIdc = r.ue('chroma_format_idc', 3);
    if (chromaFormatIdc === 3) separateColourPlaneFlag = r.flag('separate_colour_plane_flag');
    bitDepthLumaMinus8 = r.ue('bit_depth_luma_minus8', 6);
    bitDepthChromaMinus8 = r.ue('bit_depth_chroma_minus8', 6);
    qpprimeYZeroTransformBypassFlag = r.flag('qpprime_y_zero_transform_bypass_flag');
    seqScalingMatrixPresentFlag = r.flag('seq_scaling_matrix_present_flag');
    if (seqScalingMatrixPresentFlag) scalingLists = readScalingLists(r, chromaFormatIdc !== 3 ? 8 : 12, null, 'seq');
  }
  const log2MaxFrameNumMinus4 = r.ue('log2_max_frame_num_minus4', 12);
  const picOrderCntType = r.ue('pic_order_cnt_type', 2);
  let log2MaxPicOrderCntLsbMinus4 = 0;
  let deltaPicOrderAlwaysZeroFlag = false;
  let offsetForNonRefPic = 0;
  let offsetForTopToBottomField = 0;
  const offsetForRefFrame: number[] = [];
  let expectedDeltaPerPicOrderCntCycle = 0;
  if (picOrderCntType === 0) {
    log2MaxPicOrderCntLsbMinus4 = r.ue('log2_max_pic_order_cnt_lsb_minus4', 12);
  } else if (picOrderCntType === 1) {
    deltaPicOrderAlwaysZeroFlag = r.flag('delta_pic_order_always_zero_flag');
    offsetForNonRefPic = r.se('offset_for_non_ref_pic', -(2 ** 31) + 1, 2 ** 31 - 1);
    offsetForTopToBottomField = r.se('offset_for_top_to_bottom_field', -(2 ** 31) + 1, 2 ** 31 - 1);
    const n = r.ue('num_ref_frames_in_pic_order_cnt_cycle', 255);
    for (let i = 0; i < n; i++) {
      const o = r.se('offset_for_ref_frame', -(2 ** 31) + 1, 2 ** 31 - 1);
      offsetForRefFrame.push(o);
      expectedDeltaPerPicOrderCntCycle += o;
    }
  }
  const maxNumRefFrames = r.ue('max_num_ref_frames', 16);
  const gapsInFrameNumValueAllowedFlag = r.flag('gaps_in_frame_num_value_allowed_flag');
  const picWidthInMbsMinus1 = r.ue('pic_width_in_mbs_minus1', MAX_DIMENSION_MBS - 1);
  const picHeightInMapUnitsMinus1 = r.ue('pic_height_in_map_units_minus1', MAX_DIMENSION_MBS - 1);
  const frameMbsOnlyFlag = r.flag('frame_mbs_only_flag');
  const mbAdaptiveFrameFieldFlag = frameMbsOnlyFlag ? false : r.flag('mb_adaptive_frame_field_flag');
  const direct8x8InferenceFlag = r.flag('direct_8x8_inference_flag');
  const frameCroppingFlag = r.flag('frame_cropping_flag');
  let frameCropLeftOffset = 0;
  let frameCropRightOffset = 0;
  let frameCropTopOffset = 0;
  let frameCropBottomOffset = 0;
  if (frameCroppingFlag) {
    frameCropLeftOffset = r.ue('frame_crop_left_offset', 8 * MAX_DIMENSION_MBS);
    frameCropRightOffset = r.ue('frame_crop_right_offset', 8 * MAX_DIMENSION_MBS);
    frameCropTopOffset = r.ue('frame_crop_top_offset', 8 * MAX_DIMENSION_MBS);
    frameCropBottomOffset = r.ue('frame_crop_bottom_offset', 8 * MAX_DIMENSION_MBS);
  }

  const codedWidth = (picWidthInMbsMinus1 + 1) * 16;
  const frameHeightInMbs = (2 - (frameMbsOnlyFlag ? 1 : 0)) * (picHeightInMapUnitsMinus1 + 1);
  const codedHeight = frameHeightInMbs * 16;
  // 7.4.2.1.1: CropUnitX / CropUnitY from ChromaArrayType.
  const chromaArrayType = separateColourPlaneFlag ? 0 : chromaFormatIdc;
  const subWidthC = chromaFormatIdc === 3 ? 1 : 2;
  const subHeightC = chromaFormatIdc === 1 ? 2 : 1;
  const cropUnitX = chromaArrayType === 0 ? 1 : subWidthC;
  const cropUnitY = (chromaArrayType === 0 ? 1 : subHeightC) * (2 - (frameMbsOnlyFlag ? 1 : 0));
  const cropWidth = codedWidth - cropUnitX * (frameCropLeftOffset + frameCropRightOffset);
  const cropHeight = codedHeight - cropUnitY * (frameCropTopOffset + frameCropBottomOffset);
  if (cropWidth <= 0 || cropHeight <= 0)
    throw new H264BitstreamError(`SPS ${spsId}: frame cropping leaves ${cropWidth}x${cropHeight} of ${codedWidth}x${codedHeight} (7.4.2.1.1)`);

  const maxDpbFrames = Math.min(Math.floor(maxDpbMbs(profileIdc, constraintFlags, levelIdc) / ((picWidthInMbsMinus1 + 1) * frameHeightInMbs)), 16);
  // E.2.1: absent bitstream restrictions infer MaxDpbFrames, or 0 for the intra profiles with constraint_set3_flag.
  const intraOnly = (constraintFlags & 8) !== 0 && [44, 86, 100, 110, 122, 244].includes(profileIdc);
  const inferredDpb = intraOnly ? 0 : maxDpbFrames;
  const vuiParametersPresentFlag = r.flag('vui_parameters_present_flag');
  const vui = vuiParametersPresentFlag ? readVui(r, inferredDpb) : null;
  const signalled = vui?.bitstreamRestrictionFlag ? vui : null;
  const dpbFrames = Math.max(1, Math.min(16, Math.max(signalled ? signalled.maxDecFrameBuffering : maxDpbFrames, maxNumRefFrames)));
  const maxNumReorderFrames = Math.min(signalled ? signalled.maxNumReorderFrames : inferredDpb, dpbFrames);

  return {
    spsId,
    version,
    profileIdc,
    constraintFlags,
    levelIdc,
    chromaFormatIdc,
    separateColourPlaneFlag,
    bitDepthLumaMinus8,
    bitDepthChromaMinus8,
    qpprimeYZeroTransformBypassFlag,
    seqScalingMatrixPresentFlag,
    scalingLists,
    log2MaxFrameNumMinus4,
    picOrderCntType,
    log2MaxPicOrderCntLsbMinus4,
    deltaPicOrderAlwaysZeroFlag,
    offsetForNonRefPic,
    offsetForTopToBottomField,
    numRefFramesInPicOrderCntCycle: offsetForRefFrame.length,
    offsetForRefFrame,
    maxNumRefFrames,
    gapsInFrameNumValueAllowedFlag,
    picWidthInMbsMinus1,
    picHeightInMapUnitsMinus1,
    frameMbsOnlyFlag,
    mbAdaptiveFrameFieldFlag,
    direct8x8InferenceFlag,
    frameCroppingFlag,
    frameCropLeftOffset,
    frameCropRightOffset,
    frameCropTopOffset,
    frameCropBottomOffset,
    vuiParametersPresentFlag,
    vui,
    maxFrameNum: 2 ** (log2MaxFrameNumMinus4 + 4),
    maxPicOrderCntLsb: 2 ** (log2MaxPicOrderCntLsbMinus4 + 4),
    expectedDeltaPerPicOrderCntCycle,
    codedWidth,
    codedHeight,
    crop: { left: cropUnitX * frameCropLeftOffset, top: cropUnitY * frameCropTopOffset, width: cropWidth, height: cropHeight },
    dpbFrames,
    maxNumReorderFrames,
  };
}
