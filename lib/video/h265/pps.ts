// pic_parameter_set_rbsp() (7.3.2.3.1), read against the SPS it names (the
// ranges of its tile, QP and merge-level fields depend on the picture size,
// bit depth and CTB size), with the tile sizes of 6.5.1.
import type { BitReader } from '../h264/bit-reader';
import { H265BitstreamError } from './errors';
import { readScalingListData } from './scaling';
import { readExtensionFlags } from './sps';
import type { H265Pps, H265ScalingLists, H265Sps } from './types';

/** The most tile columns and rows of any level (A.4.1, Table A.8: MaxTileCols 20, MaxTileRows 22). */
const MAX_TILE_COLUMNS = 20;
const MAX_TILE_ROWS = 22;

/** The fields before the SPS is needed: pps_pic_parameter_set_id and pps_seq_parameter_set_id. */
export function readPpsIds(r: BitReader): { ppsId: number; spsId: number } {
  const ppsId = r.ue('pps_pic_parameter_set_id', 63);
  const spsId = r.ue('pps_seq_parameter_set_id', 15);
  return { ppsId, spsId };
}

/** Tile sizes in CTBs (6.5.1): sent (the last one takes the rest) or spread evenly. */
function tileSizes(uniform: boolean, sent: readonly number[], count: number, total: number, what: string, name: string): number[] {
  const sizes: number[] = [];
  if (uniform) {
    for (let i = 0; i < count; i++) sizes.push(Math.floor(((i + 1) * total) / count) - Math.floor((i * total) / count));
    return sizes;
  }
  let used = 0;
  for (const s of sent) {
    sizes.push(s + 1);
    used += s + 1;
  }
  // 7.4.3.3.1: the sent sizes leave at least one CTB for the last column / row.
  if (used >= total)
    throw new H265BitstreamError(`${what}: the ${name}_minus1 values sum to ${used} CTBs, leaving none of ${total} for the last (7.4.3.3.1)`);
  sizes.push(total - used);
  return sizes;
}

/** Reads the rest of a PPS after readPpsIds(), against its SPS. */
export function readPps(r: BitReader, ids: { ppsId: number; spsId: number }, sps: H265Sps): H265Pps {
  const { ppsId, spsId } = ids;
  const what = `PPS ${ppsId}`;
  if (spsId !== sps.spsId) throw new H265BitstreamError(`${what} names SPS ${spsId}, given SPS ${sps.spsId}`);
  const dependentSliceSegmentsEnabledFlag = r.flag('dependent_slice_segments_enabled_flag');
  const outputFlagPresentFlag = r.flag('output_flag_present_flag');
  const numExtraSliceHeaderBits = r.u(3, 'num_extra_slice_header_bits');
  const signDataHidingEnabledFlag = r.flag('sign_data_hiding_enabled_flag');
  const cabacInitPresentFlag = r.flag('cabac_init_present_flag');
  const numRefIdxL0DefaultActiveMinus1 = r.ue('num_ref_idx_l0_default_active_minus1', 14);
  const numRefIdxL1DefaultActiveMinus1 = r.ue('num_ref_idx_l1_default_active_minus1', 14);
  const qpBdOffsetY = 6 * sps.bitDepthLumaMinus8;
  const initQpMinus26 = r.se('init_qp_minus26', -(26 + qpBdOffsetY), 25);
  const constrainedIntraPredFlag = r.flag('constrained_intra_pred_flag');
  const transformSkipEnabledFlag = r.flag('transform_skip_enabled_flag');
  const cuQpDeltaEnabledFlag = r.flag('cu_qp_delta_enabled_flag');
  const diffCuQpDeltaDepth = cuQpDeltaEnabledFlag ? r.ue('diff_cu_qp_delta_depth', sps.log2DiffMaxMinLumaCodingBlockSize) : 0;
  const ppsCbQpOffset = r.se('pps_cb_qp_offset', -12, 12);
  const ppsCrQpOffset = r.se('pps_cr_qp_offset', -12, 12);
  const ppsSliceChromaQpOffsetsPresentFlag = r.flag('pps_slice_chroma_qp_offsets_present_flag');
  const weightedPredFlag = r.flag('weighted_pred_flag');
  const weightedBipredFlag = r.flag('weighted_bipred_flag');
  const transquantBypassEnabledFlag = r.flag('transquant_bypass_enabled_flag');
  const tilesEnabledFlag = r.flag('tiles_enabled_flag');
  const entropyCodingSyncEnabledFlag = r.flag('entropy_coding_sync_enabled_flag');
  let numTileColumnsMinus1 = 0;
  let numTileRowsMinus1 = 0;
  let uniformSpacingFlag = true;
  const columnWidthMinus1: number[] = [];
  const rowHeightMinus1: number[] = [];
  let loopFilterAcrossTilesEnabledFlag = true;
  if (tilesEnabledFlag) {
    numTileColumnsMinus1 = r.ue('num_tile_columns_minus1', Math.min(sps.picWidthInCtbsY, MAX_TILE_COLUMNS) - 1);
    numTileRowsMinus1 = r.ue('num_tile_rows_minus1', Math.min(sps.picHeightInCtbsY, MAX_TILE_ROWS) - 1);
    // 7.4.3.3.1: tiles_enabled_flag 1 means more than one tile.
    if (numTileColumnsMinus1 === 0 && numTileRowsMinus1 === 0)
      throw new H265BitstreamError(
        `${what}: tiles_enabled_flag is 1 with one tile (num_tile_columns_minus1 and num_tile_rows_minus1 both 0, 7.4.3.3.1)`,
      );
    uniformSpacingFlag = r.flag('uniform_spacing_flag');
    if (!uniformSpacingFlag) {
      for (let i = 0; i < numTileColumnsMinus1; i++) columnWidthMinus1.push(r.ue(`column_width_minus1[${i}]`, sps.picWidthInCtbsY - 2));
      for (let i = 0; i < numTileRowsMinus1; i++) rowHeightMinus1.push(r.ue(`row_height_minus1[${i}]`, sps.picHeightInCtbsY - 2));
    }
    loopFilterAcrossTilesEnabledFlag = r.flag('loop_filter_across_tiles_enabled_flag');
  }
  const colWidth = tileSizes(uniformSpacingFlag, columnWidthMinus1, numTileColumnsMinus1 + 1, sps.picWidthInCtbsY, what, 'column_width');
  const rowHeight = tileSizes(uniformSpacingFlag, rowHeightMinus1, numTileRowsMinus1 + 1, sps.picHeightInCtbsY, what, 'row_height');
  const ppsLoopFilterAcrossSlicesEnabledFlag = r.flag('pps_loop_filter_across_slices_enabled_flag');
  const deblockingFilterControlPresentFlag = r.flag('deblocking_filter_control_present_flag');
  let deblockingFilterOverrideEnabledFlag = false;
  let ppsDeblockingFilterDisabledFlag = false;
  let ppsBetaOffsetDiv2 = 0;
  let ppsTcOffsetDiv2 = 0;
  if (deblockingFilterControlPresentFlag) {
    deblockingFilterOverrideEnabledFlag = r.flag('deblocking_filter_override_enabled_flag');
    ppsDeblockingFilterDisabledFlag = r.flag('pps_deblocking_filter_disabled_flag');
    if (!ppsDeblockingFilterDisabledFlag) {
      ppsBetaOffsetDiv2 = r.se('pps_beta_offset_div2', -6, 6);
      ppsTcOffsetDiv2 = r.se('pps_tc_offset_div2', -6, 6);
    }
  }
  const ppsScalingListDataPresentFlag = r.flag('pps_scaling_list_data_present_flag');
  // 7.4.3.3.1: lists in the PPS only when the SPS enables scaling lists.
  if (ppsScalingListDataPresentFlag && !sps.scalingListEnabledFlag)
    throw new H265BitstreamError(`${what}: pps_scaling_list_data_present_flag is 1 but SPS ${sps.spsId} has scaling_list_enabled_flag 0 (7.4.3.3.1)`);
  const scalingLists: H265ScalingLists | null = ppsScalingListDataPresentFlag ? readScalingListData(r, what) : null;
  const listsModificationPresentFlag = r.flag('lists_modification_present_flag');
  const log2ParallelMergeLevelMinus2 = r.ue('log2_parallel_merge_level_minus2', sps.ctbLog2SizeY - 2);
  const sliceSegmentHeaderExtensionPresentFlag = r.flag('slice_segment_header_extension_present_flag');
  const extensions = readExtensionFlags(r, 'pps');
  return {
    ppsId,
    spsId,
    dependentSliceSegmentsEnabledFlag,
    outputFlagPresentFlag,
    numExtraSliceHeaderBits,
    signDataHidingEnabledFlag,
    cabacInitPresentFlag,
    numRefIdxL0DefaultActiveMinus1,
    numRefIdxL1DefaultActiveMinus1,
    initQpMinus26,
    constrainedIntraPredFlag,
    transformSkipEnabledFlag,
    cuQpDeltaEnabledFlag,
    diffCuQpDeltaDepth,
    ppsCbQpOffset,
    ppsCrQpOffset,
    ppsSliceChromaQpOffsetsPresentFlag,
    weightedPredFlag,
    weightedBipredFlag,
    transquantBypassEnabledFlag,
    tilesEnabledFlag,
    entropyCodingSyncEnabledFlag,
    numTileColumnsMinus1,
    numTileRowsMinus1,
    uniformSpacingFlag,
    columnWidthMinus1,
    rowHeightMinus1,
    colWidth,
    rowHeight,
    loopFilterAcrossTilesEnabledFlag,
    ppsLoopFilterAcrossSlicesEnabledFlag,
    deblockingFilterControlPresentFlag,
    deblockingFilterOverrideEnabledFlag,
    ppsDeblockingFilterDisabledFlag,
    ppsBetaOffsetDiv2,
    ppsTcOffsetDiv2,
    ppsScalingListDataPresentFlag,
    scalingLists,
    listsModificationPresentFlag,
    log2ParallelMergeLevelMinus2,
    sliceSegmentHeaderExtensionPresentFlag,
    extensions,
  };
}
