// pic_parameter_set_rbsp() (7.3.2.2). A PPS is read against the SPS it names
// (chroma_format_idc decides how many 8x8 lists it may carry; fall-back rule B
// takes the SPS's lists), so the sequencer reads it when a slice activates it.
import type { BitReader } from './bit-reader';
import { readScalingLists } from './scaling';
import { H264BitstreamError, type H264Pps, type H264Sps } from './types';

/** The PPS's seq_parameter_set_id (read without the SPS, to find it). */
export function ppsIds(r: BitReader): { ppsId: number; spsId: number } {
  return { ppsId: r.ue('pic_parameter_set_id', 255), spsId: r.ue('seq_parameter_set_id', 31) };
}

/** Parses a PPS NAL unit's RBSP (`r` after the NAL header byte) against `sps`. */
export function readPps(r: BitReader, sps: H264Sps, version: number): H264Pps {
  const { ppsId, spsId } = ppsIds(r);
  if (spsId !== sps.spsId) throw new H264BitstreamError(`PPS ${ppsId} names SPS ${spsId}, read against SPS ${sps.spsId}`);
  const entropyCodingModeFlag = r.flag('entropy_coding_mode_flag');
  const bottomFieldPicOrderInFramePresentFlag = r.flag('bottom_field_pic_order_in_frame_present_flag');
  const numSliceGroupsMinus1 = r.ue('num_slice_groups_minus1', 7);
  if (numSliceGroupsMinus1 > 0) {
    // Slice groups (FMO) are refused when a slice uses this PPS; their syntax is read past here.
    const mapType = r.ue('slice_group_map_type', 6);
    if (mapType === 0) {
      for (let i = 0; i <= numSliceGroupsMinus1; i++) r.ue('run_length_minus1');
    } else if (mapType === 2) {
      for (let i = 0; i < numSliceGroupsMinus1; i++) {
        r.ue('top_left');
        r.ue('bottom_right');
      }
    } else if (mapType >= 3 && mapType <= 5) {
      r.flag('slice_group_change_direction_flag');
      r.ue('slice_group_change_rate_minus1');
    } else if (mapType === 6) {
      const units = r.ue('pic_size_in_map_units_minus1') + 1;
      const bits = Math.ceil(Math.log2(numSliceGroupsMinus1 + 1));
      r.skip(units * bits, 'slice_group_id');
    }
  }
  const numRefIdxL0DefaultActiveMinus1 = r.ue('num_ref_idx_l0_default_active_minus1', 31);
  const numRefIdxL1DefaultActiveMinus1 = r.ue('num_ref_idx_l1_default_active_minus1', 31);
  const weightedPredFlag = r.flag('weighted_pred_flag');
  const weightedBipredIdc = r.u(2, 'weighted_bipred_idc');
  if (weightedBipredIdc === 3) throw new H264BitstreamError(`PPS ${ppsId}: weighted_bipred_idc is 3 (reserved, 7.4.2.2)`);
  const picInitQpMinus26 = r.se('pic_init_qp_minus26', -26 - 6 * sps.bitDepthLumaMinus8, 25);
  const picInitQsMinus26 = r.se('pic_init_qs_minus26', -26, 25);
  const chromaQpIndexOffset = r.se('chroma_qp_index_offset', -12, 12);
  const deblockingFilterControlPresentFlag = r.flag('deblocking_filter_control_present_flag');
  const constrainedIntraPredFlag = r.flag('constrained_intra_pred_flag');
  const redundantPicCntPresentFlag = r.flag('redundant_pic_cnt_present_flag');
  let transform8x8ModeFlag = false;
  let picScalingMatrixPresentFlag = false;
  let scalingLists = sps.scalingLists;
  let secondChromaQpIndexOffset = chromaQpIndexOffset;
  if (r.moreRbspData()) {
    transform8x8ModeFlag = r.flag('transform_8x8_mode_flag');
    picScalingMatrixPresentFlag = r.flag('pic_scaling_matrix_present_flag');
    if (picScalingMatrixPresentFlag) {
      const count = 6 + (transform8x8ModeFlag ? (sps.chromaFormatIdc !== 3 ? 2 : 6) : 0);
      // 7.4.2.2: lists not sent fall back by rule A when the SPS sent no matrix, by rule B (to the SPS's lists) when it did.
      scalingLists = readScalingLists(r, count, sps.seqScalingMatrixPresentFlag ? sps.scalingLists : null, 'pic');
    }
    secondChromaQpIndexOffset = r.se('second_chroma_qp_index_offset', -12, 12);
  }
  return {
    ppsId,
    spsId,
    version,
    entropyCodingModeFlag,
    bottomFieldPicOrderInFramePresentFlag,
    numSliceGroupsMinus1,
    numRefIdxL0DefaultActiveMinus1,
    numRefIdxL1DefaultActiveMinus1,
    weightedPredFlag,
    weightedBipredIdc,
    picInitQpMinus26,
    picInitQsMinus26,
    chromaQpIndexOffset,
    deblockingFilterControlPresentFlag,
    constrainedIntraPredFlag,
    redundantPicCntPresentFlag,
    transform8x8ModeFlag,
    picScalingMatrixPresentFlag,
    scalingLists,
    secondChromaQpIndexOffset,
  };
}
