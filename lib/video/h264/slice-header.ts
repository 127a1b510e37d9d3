// slice_header() (7.3.3) with ref_pic_list_modification() (7.3.3.1),
// pred_weight_table() (7.3.3.2) and dec_ref_pic_marking() (7.3.3.3). Only
// the header is read: slice_data() is never touched.
import type { BitReader } from './bit-reader';
import {
  H264BitstreamError,
  type H264Mmco,
  type H264Pps,
  type H264PredWeightTable,
  type H264RefPicListModification,
  type H264SliceHeader,
  type H264Sps,
  H264UnsupportedError,
} from './types';

/** slice_type % 5. */
export const SliceKind = { P: 0, B: 1, I: 2, SP: 3, SI: 4 } as const;

/** The fields of a slice header read before the PPS is known. */
export function slicePpsId(r: BitReader): { firstMbInSlice: number; sliceType: number; ppsId: number } {
  const firstMbInSlice = r.ue('first_mb_in_slice', 139264 * 2);
  const sliceType = r.ue('slice_type', 9);
  const ppsId = r.ue('pic_parameter_set_id', 255);
  return { firstMbInSlice, sliceType, ppsId };
}

function modifications(r: BitReader, list: number, numRefIdxActiveMinus1: number): H264RefPicListModification[] {
  const out: H264RefPicListModification[] = [];
  if (!r.flag(`ref_pic_list_modification_flag_l${list}`)) return out;
  for (;;) {
    const idc = r.ue(`modification_of_pic_nums_idc (list ${list})`, 5);
    if (idc === 3) break;
    if (idc > 3) throw new H264UnsupportedError('mvc', `modification_of_pic_nums_idc ${idc} (inter-view, Annex H) in a base-view slice`);
    // 7.4.3.1: at most num_ref_idx_lX_active_minus1 + 1 operations before the terminating 3.
    if (out.length > numRefIdxActiveMinus1)
      throw new H264BitstreamError(
        `slice header: more than ${numRefIdxActiveMinus1 + 1} ref_pic_list_modification operations in list ${list} (7.4.3.1)`,
      );
    const value = idc === 2 ? r.ue(`long_term_pic_num (list ${list})`) : r.ue(`abs_diff_pic_num_minus1 (list ${list})`, 131071);
    out.push({ idc, value });
  }
  return out;
}

function predWeightTable(r: BitReader, chromaArrayType: number, counts: readonly [number, number]): H264PredWeightTable {
  const lumaLog2WeightDenom = r.ue('luma_log2_weight_denom', 7);
  const chromaLog2WeightDenom = chromaArrayType !== 0 ? r.ue('chroma_log2_weight_denom', 7) : 0;
  const lumaWeightFlags: [number, number] = [0, 0];
  const chromaWeightFlags: [number, number] = [0, 0];
  // Plain arrays: a typed array per list would cost more to make than the whole header.
  const filled = (n: number, v: number) => new Array<number>(n).fill(v);
  const lumaWeight: [number[], number[]] = [filled(counts[0], 1 << lumaLog2WeightDenom), filled(counts[1], 1 << lumaLog2WeightDenom)];
  const lumaOffset: [number[], number[]] = [filled(counts[0], 0), filled(counts[1], 0)];
  const chromaWeight: [number[], number[]] = [filled(counts[0] * 2, 1 << chromaLog2WeightDenom), filled(counts[1] * 2, 1 << chromaLog2WeightDenom)];
  const chromaOffset: [number[], number[]] = [filled(counts[0] * 2, 0), filled(counts[1] * 2, 0)];
  for (let list = 0; list < 2; list++) {
    for (let i = 0; i < counts[list]!; i++) {
      if (r.flag(`luma_weight_l${list}_flag`)) {
        lumaWeightFlags[list]! |= 1 << i;
        lumaWeight[list]![i] = r.se(`luma_weight_l${list}`, -128, 127);
        lumaOffset[list]![i] = r.se(`luma_offset_l${list}`, -128, 127);
      }
      if (chromaArrayType !== 0) {
        const present = r.flag(`chroma_weight_l${list}_flag`);
        if (present) chromaWeightFlags[list]! |= 1 << i;
        if (present) {
          for (let j = 0; j < 2; j++) {
            chromaWeight[list]![i * 2 + j] = r.se(`chroma_weight_l${list}`, -128, 127);
            chromaOffset[list]![i * 2 + j] = r.se(`chroma_offset_l${list}`, -128, 127);
          }
        }
      }
    }
  }
  return { lumaLog2WeightDenom, chromaLog2WeightDenom, lumaWeightFlags, chromaWeightFlags, lumaWeight, lumaOffset, chromaWeight, chromaOffset };
}

/** The most MMCOs one header may carry here (each op but 5 names a distinct picture or index: well under this). */
const MAX_MMCOS = 66;

function mmcos(r: BitReader): H264Mmco[] {
  const out: H264Mmco[] = [];
  for (;;) {
    const op = r.ue('memory_management_control_operation', 6);
    if (op === 0) return out;
    if (out.length >= MAX_MMCOS) throw new H264BitstreamError(`slice header: more than ${MAX_MMCOS} memory_management_control_operations (7.4.3.3)`);
    let differenceOfPicNumsMinus1 = 0;
    let longTermPicNum = 0;
    let longTermFrameIdx = 0;
    let maxLongTermFrameIdxPlus1 = 0;
    if (op === 1 || op === 3) differenceOfPicNumsMinus1 = r.ue('difference_of_pic_nums_minus1', 131071);
    if (op === 2) longTermPicNum = r.ue('long_term_pic_num', 31);
    if (op === 3 || op === 6) longTermFrameIdx = r.ue('long_term_frame_idx', 15);
    if (op === 4) maxLongTermFrameIdxPlus1 = r.ue('max_long_term_frame_idx_plus1', 16);
    out.push({ op, differenceOfPicNumsMinus1, longTermPicNum, longTermFrameIdx, maxLongTermFrameIdxPlus1 });
  }
}

/**
 * Reads a slice header. `r` is positioned after the NAL header byte and the
 * three fields slicePpsId() read; `start` holds those.
 */
export function readSliceHeader(
  r: BitReader,
  nalUnitType: number,
  nalRefIdc: number,
  start: { firstMbInSlice: number; sliceType: number; ppsId: number },
  sps: H264Sps,
  pps: H264Pps,
): H264SliceHeader {
  const { firstMbInSlice, sliceType, ppsId } = start;
  const kind = sliceType % 5;
  const idr = nalUnitType === 5;
  if (idr && kind !== SliceKind.I && kind !== SliceKind.SI)
    throw new H264BitstreamError(`slice header: an IDR slice has slice_type ${sliceType} (7.4.3: I or SI only)`);
  if (pps.numSliceGroupsMinus1 > 0)
    throw new H264UnsupportedError(
      'slice_groups',
      `PPS ${ppsId} has num_slice_groups_minus1 ${pps.numSliceGroupsMinus1} (flexible macroblock ordering)`,
    );
  const picSizeInMbs = (sps.picWidthInMbsMinus1 + 1) * (sps.picHeightInMapUnitsMinus1 + 1) * (sps.frameMbsOnlyFlag ? 1 : 2);
  if (firstMbInSlice >= picSizeInMbs)
    throw new H264BitstreamError(`slice header: first_mb_in_slice ${firstMbInSlice} is past the picture's ${picSizeInMbs} macroblocks (7.4.3)`);
  const colourPlaneId = sps.separateColourPlaneFlag ? r.u(2, 'colour_plane_id') : 0;
  const frameNum = r.u(sps.log2MaxFrameNumMinus4 + 4, 'frame_num');
  let fieldPicFlag = false;
  let bottomFieldFlag = false;
  if (!sps.frameMbsOnlyFlag) {
    fieldPicFlag = r.flag('field_pic_flag');
    if (fieldPicFlag) bottomFieldFlag = r.flag('bottom_field_flag');
  }
  const idrPicId = idr ? r.ue('idr_pic_id', 65535) : 0;
  let picOrderCntLsb = 0;
  let deltaPicOrderCntBottom = 0;
  let deltaPicOrderCnt0 = 0;
  let deltaPicOrderCnt1 = 0;
  if (sps.picOrderCntType === 0) {
    picOrderCntLsb = r.u(sps.log2MaxPicOrderCntLsbMinus4 + 4, 'pic_order_cnt_lsb');
    if (pps.bottomFieldPicOrderInFramePresentFlag && !fieldPicFlag)
      deltaPicOrderCntBottom = r.se('delta_pic_order_cnt_bottom', -(2 ** 31) + 1, 2 ** 31 - 1);
  }
  if (sps.picOrderCntType === 1 && !sps.deltaPicOrderAlwaysZeroFlag) {
    deltaPicOrderCnt0 = r.se('delta_pic_order_cnt[0]', -(2 ** 31) + 1, 2 ** 31 - 1);
    if (pps.bottomFieldPicOrderInFramePresentFlag && !fieldPicFlag) deltaPicOrderCnt1 = r.se('delta_pic_order_cnt[1]', -(2 ** 31) + 1, 2 ** 31 - 1);
  }
  const redundantPicCnt = pps.redundantPicCntPresentFlag ? r.ue('redundant_pic_cnt', 127) : 0;
  const isB = kind === SliceKind.B;
  const isPOrB = kind === SliceKind.P || kind === SliceKind.SP || isB;
  const directSpatialMvPredFlag = isB ? r.flag('direct_spatial_mv_pred_flag') : false;
  let numRefIdxActiveOverrideFlag = false;
  let numRefIdxL0ActiveMinus1 = isPOrB ? pps.numRefIdxL0DefaultActiveMinus1 : 0;
  let numRefIdxL1ActiveMinus1 = isB ? pps.numRefIdxL1DefaultActiveMinus1 : 0;
  const maxRefIdx = fieldPicFlag ? 31 : 15;
  if (isPOrB) {
    numRefIdxActiveOverrideFlag = r.flag('num_ref_idx_active_override_flag');
    if (numRefIdxActiveOverrideFlag) {
      numRefIdxL0ActiveMinus1 = r.ue('num_ref_idx_l0_active_minus1', maxRefIdx);
      if (isB) numRefIdxL1ActiveMinus1 = r.ue('num_ref_idx_l1_active_minus1', maxRefIdx);
    }
  }
  // 7.4.3: without an override, the PPS default must fit a frame's range too.
  if (numRefIdxL0ActiveMinus1 > maxRefIdx || numRefIdxL1ActiveMinus1 > maxRefIdx)
    throw new H264BitstreamError(
      `slice header: ${Math.max(numRefIdxL0ActiveMinus1, numRefIdxL1ActiveMinus1) + 1} active references, past ${maxRefIdx + 1} (7.4.3)`,
    );
  const none: readonly H264RefPicListModification[] = [];
  const refPicListModificationL0 = kind !== SliceKind.I && kind !== SliceKind.SI ? modifications(r, 0, numRefIdxL0ActiveMinus1) : none;
  const refPicListModificationL1 = isB ? modifications(r, 1, numRefIdxL1ActiveMinus1) : none;
  const chromaArrayType = sps.separateColourPlaneFlag ? 0 : sps.chromaFormatIdc;
  const weighted = (pps.weightedPredFlag && (kind === SliceKind.P || kind === SliceKind.SP)) || (pps.weightedBipredIdc === 1 && isB);
  const predWeightTable_ = weighted
    ? predWeightTable(r, chromaArrayType, [numRefIdxL0ActiveMinus1 + 1, isB ? numRefIdxL1ActiveMinus1 + 1 : 0])
    : null;
  let noOutputOfPriorPicsFlag = false;
  let longTermReferenceFlag = false;
  let adaptiveRefPicMarkingModeFlag = false;
  let mmcoList: readonly H264Mmco[] = [];
  if (nalRefIdc !== 0) {
    if (idr) {
      noOutputOfPriorPicsFlag = r.flag('no_output_of_prior_pics_flag');
      longTermReferenceFlag = r.flag('long_term_reference_flag');
    } else {
      adaptiveRefPicMarkingModeFlag = r.flag('adaptive_ref_pic_marking_mode_flag');
      if (adaptiveRefPicMarkingModeFlag) mmcoList = mmcos(r);
    }
  }
  const cabacInitIdc = pps.entropyCodingModeFlag && kind !== SliceKind.I && kind !== SliceKind.SI ? r.ue('cabac_init_idc', 2) : 0;
  const qpBdOffset = 6 * sps.bitDepthLumaMinus8;
  const sliceQpDelta = r.se('slice_qp_delta', -(26 + pps.picInitQpMinus26) - qpBdOffset, 51 - (26 + pps.picInitQpMinus26));
  let spForSwitchFlag = false;
  let sliceQsDelta = 0;
  if (kind === SliceKind.SP || kind === SliceKind.SI) {
    if (kind === SliceKind.SP) spForSwitchFlag = r.flag('sp_for_switch_flag');
    sliceQsDelta = r.se('slice_qs_delta', -51, 51);
  }
  let disableDeblockingFilterIdc = 0;
  let sliceAlphaC0OffsetDiv2 = 0;
  let sliceBetaOffsetDiv2 = 0;
  if (pps.deblockingFilterControlPresentFlag) {
    disableDeblockingFilterIdc = r.ue('disable_deblocking_filter_idc', 2);
    if (disableDeblockingFilterIdc !== 1) {
      sliceAlphaC0OffsetDiv2 = r.se('slice_alpha_c0_offset_div2', -6, 6);
      sliceBetaOffsetDiv2 = r.se('slice_beta_offset_div2', -6, 6);
    }
  }
  return {
    nalUnitType,
    nalRefIdc,
    firstMbInSlice,
    sliceType,
    sliceKind: kind,
    ppsId,
    colourPlaneId,
    frameNum,
    fieldPicFlag,
    bottomFieldFlag,
    idrPicId,
    picOrderCntLsb,
    deltaPicOrderCntBottom,
    deltaPicOrderCnt0,
    deltaPicOrderCnt1,
    redundantPicCnt,
    directSpatialMvPredFlag,
    numRefIdxActiveOverrideFlag,
    numRefIdxL0ActiveMinus1,
    numRefIdxL1ActiveMinus1,
    refPicListModificationL0,
    refPicListModificationL1,
    predWeightTable: predWeightTable_,
    noOutputOfPriorPicsFlag,
    longTermReferenceFlag,
    adaptiveRefPicMarkingModeFlag,
    mmcos: mmcoList,
    cabacInitIdc,
    sliceQpDelta,
    spForSwitchFlag,
    sliceQsDelta,
    disableDeblockingFilterIdc,
    sliceAlphaC0OffsetDiv2,
    sliceBetaOffsetDiv2,
    sliceGroupChangeCycle: 0,
    headerBits: r.bitPosition,
    headerEmulationBytes: r.emulationBytes,
  };
}
