// The H.265 bitstream room's records in the shapes the Vulkan back end's
// native side reads (native/video/h265_params.cc, h265_picture.cc):
// StdVideoH265VideoParameterSet / SequenceParameterSet / PictureParameterSet
// as plain objects (their field names; what their pointers point at as
// nested objects or null), and each picture as one Int32Array
// (native/video/decoder_state.h's Desc header, H265Desc) plus its slice
// segment offsets.
import type { H265Picture } from './h265/sequencer-types';
import type {
  H265Pps,
  H265ProfileTierLevel,
  H265ScalingLists,
  H265ShortTermRps,
  H265Sps,
  H265SubLayerOrdering,
  H265Vps,
  H265Vui,
} from './h265/types';
import { DESC_HEADER, DESC_REF } from './h264-vulkan';
import type { NativeStdParameterSet } from './native-types';

/** general_level_idc (30 x the level) of each StdVideoH265LevelIdc value, in order: 1, 2, 2.1, 3, 3.1, 4, 4.1, 5, 5.1, 5.2, 6, 6.1, 6.2. */
export const H265_LEVELS: readonly number[] = [30, 60, 63, 90, 93, 120, 123, 150, 153, 156, 180, 183, 186];

/** StdVideoH265LevelIdc of a general_level_idc (the first level at or above it; past 6.2: 6.2). */
export function stdLevel(generalLevelIdc: number): number {
  const i = H265_LEVELS.findIndex((l) => l >= generalLevelIdc);
  return i < 0 ? H265_LEVELS.length - 1 : i;
}

/** Entries of each RefPicSet list (STD_VIDEO_DECODE_H265_REF_PIC_SET_LIST_SIZE), and the value of an unused one. */
export const REF_PIC_SET_SIZE = 8;
export const NO_ENTRY = 0xff;

/** Bit i of the mask: flags[i]. */
function mask(flags: readonly boolean[]): number {
  return flags.reduce((m, f, i) => (f ? m | (1 << i) : m), 0);
}

function ptl(p: H265ProfileTierLevel): NativeStdParameterSet {
  const g = p.general;
  return {
    flags: {
      general_tier_flag: g.tierFlag,
      general_progressive_source_flag: g.progressiveSourceFlag,
      general_interlaced_source_flag: g.interlacedSourceFlag,
      general_non_packed_constraint_flag: g.nonPackedConstraintFlag,
      general_frame_only_constraint_flag: g.frameOnlyConstraintFlag,
    },
    general_profile_idc: g.profileIdc,
    general_level_idc: stdLevel(p.generalLevelIdc),
  };
}

function decPicBufMgr(o: H265SubLayerOrdering): NativeStdParameterSet {
  return {
    max_latency_increase_plus1: [...o.maxLatencyIncreasePlus1],
    max_dec_pic_buffering_minus1: [...o.maxDecPicBufferingMinus1],
    max_num_reorder_pics: [...o.maxNumReorderPics],
  };
}

function scaling(l: H265ScalingLists): NativeStdParameterSet {
  const flat = (lists: readonly Uint8Array[]) => lists.flatMap((list) => [...list]);
  return {
    ScalingList4x4: flat(l.list4x4),
    ScalingList8x8: flat(l.list8x8),
    ScalingList16x16: flat(l.list16x16),
    ScalingList32x32: flat(l.list32x32),
    ScalingListDCCoef16x16: [...l.dcCoef16x16],
    ScalingListDCCoef32x32: [...l.dcCoef32x32],
  };
}

/**
 * StdVideoH265ShortTermRefPicSet: the syntax elements as sent, and for a
 * predicted set (inter_ref_pic_set_prediction_flag) the derived lists too
 * (num_negative_pics, num_positive_pics, delta_poc_s*_minus1 and
 * used_by_curr_pic_s*_flag written back from DeltaPocS0/S1, UsedByCurrPicS0/S1
 * as an explicitly coded set would carry them), so that either reading works.
 */
export function stdShortTermRps(rps: H265ShortTermRps): NativeStdParameterSet {
  const s0 = rps.deltaPocS0.map((d, i) => (i === 0 ? -d : rps.deltaPocS0[i - 1]! - d) - 1);
  const s1 = rps.deltaPocS1.map((d, i) => (i === 0 ? d : d - rps.deltaPocS1[i - 1]!) - 1);
  return {
    flags: { inter_ref_pic_set_prediction_flag: rps.interRefPicSetPredictionFlag, delta_rps_sign: rps.deltaRpsSign },
    delta_idx_minus1: rps.deltaIdxMinus1,
    use_delta_flag: mask(rps.useDeltaFlag),
    abs_delta_rps_minus1: rps.absDeltaRpsMinus1,
    used_by_curr_pic_flag: mask(rps.usedByCurrPicFlag),
    used_by_curr_pic_s0_flag: mask(rps.usedByCurrPicS0),
    used_by_curr_pic_s1_flag: mask(rps.usedByCurrPicS1),
    num_negative_pics: rps.numNegativePics,
    num_positive_pics: rps.numPositivePics,
    delta_poc_s0_minus1: s0,
    delta_poc_s1_minus1: s1,
  };
}

function vui(v: H265Vui): NativeStdParameterSet {
  return {
    flags: {
      aspect_ratio_info_present_flag: v.aspectRatioInfoPresentFlag,
      overscan_info_present_flag: v.overscanInfoPresentFlag,
      overscan_appropriate_flag: v.overscanAppropriateFlag,
      video_signal_type_present_flag: v.videoSignalTypePresentFlag,
      video_full_range_flag: v.videoFullRangeFlag,
      colour_description_present_flag: v.colourDescriptionPresentFlag,
      chroma_loc_info_present_flag: v.chromaLocInfoPresentFlag,
      neutral_chroma_indication_flag: v.neutralChromaIndicationFlag,
      field_seq_flag: v.fieldSeqFlag,
      frame_field_info_present_flag: v.frameFieldInfoPresentFlag,
      default_display_window_flag: v.defaultDisplayWindowFlag,
      vui_timing_info_present_flag: v.vuiTimingInfoPresentFlag,
      vui_poc_proportional_to_timing_flag: v.vuiPocProportionalToTimingFlag,
      // No HRD parameters are passed (pHrdParameters stays null): decoding does not use them.
      vui_hrd_parameters_present_flag: false,
      bitstream_restriction_flag: v.bitstreamRestrictionFlag,
      tiles_fixed_structure_flag: v.tilesFixedStructureFlag,
      motion_vectors_over_pic_boundaries_flag: v.motionVectorsOverPicBoundariesFlag,
      restricted_ref_pic_lists_flag: v.restrictedRefPicListsFlag,
    },
    aspect_ratio_idc: v.aspectRatioIdc,
    sar_width: v.sarWidth,
    sar_height: v.sarHeight,
    video_format: v.videoFormat,
    colour_primaries: v.colourPrimaries,
    transfer_characteristics: v.transferCharacteristics,
    matrix_coeffs: v.matrixCoefficients,
    chroma_sample_loc_type_top_field: v.chromaSampleLocTypeTopField,
    chroma_sample_loc_type_bottom_field: v.chromaSampleLocTypeBottomField,
    def_disp_win_left_offset: v.defDispWinLeftOffset,
    def_disp_win_right_offset: v.defDispWinRightOffset,
    def_disp_win_top_offset: v.defDispWinTopOffset,
    def_disp_win_bottom_offset: v.defDispWinBottomOffset,
    vui_num_units_in_tick: v.vuiNumUnitsInTick,
    vui_time_scale: v.vuiTimeScale,
    vui_num_ticks_poc_diff_one_minus1: v.vuiNumTicksPocDiffOneMinus1,
    min_spatial_segmentation_idc: v.minSpatialSegmentationIdc,
    max_bytes_per_pic_denom: v.maxBytesPerPicDenom,
    max_bits_per_min_cu_denom: v.maxBitsPerMinCuDenom,
    log2_max_mv_length_horizontal: v.log2MaxMvLengthHorizontal,
    log2_max_mv_length_vertical: v.log2MaxMvLengthVertical,
  };
}

export function stdVps(vps: H265Vps): NativeStdParameterSet {
  return {
    flags: {
      vps_temporal_id_nesting_flag: vps.vpsTemporalIdNestingFlag,
      vps_sub_layer_ordering_info_present_flag: vps.ordering.subLayerOrderingInfoPresentFlag,
      vps_timing_info_present_flag: vps.vpsTimingInfoPresentFlag,
      vps_poc_proportional_to_timing_flag: vps.vpsPocProportionalToTimingFlag,
    },
    vps_video_parameter_set_id: vps.vpsId,
    vps_max_sub_layers_minus1: vps.vpsMaxSubLayersMinus1,
    vps_num_units_in_tick: vps.vpsNumUnitsInTick,
    vps_time_scale: vps.vpsTimeScale,
    vps_num_ticks_poc_diff_one_minus1: vps.vpsNumTicksPocDiffOneMinus1,
    profileTierLevel: ptl(vps.profileTierLevel),
    decPicBufMgr: decPicBufMgr(vps.ordering),
  };
}

export function stdSps(sps: H265Sps): NativeStdParameterSet {
  const e = sps.extensions;
  return {
    flags: {
      sps_temporal_id_nesting_flag: sps.spsTemporalIdNestingFlag,
      separate_colour_plane_flag: sps.separateColourPlaneFlag,
      conformance_window_flag: sps.conformanceWindowFlag,
      sps_sub_layer_ordering_info_present_flag: sps.ordering.subLayerOrderingInfoPresentFlag,
      scaling_list_enabled_flag: sps.scalingListEnabledFlag,
      sps_scaling_list_data_present_flag: sps.spsScalingListDataPresentFlag,
      amp_enabled_flag: sps.ampEnabledFlag,
      sample_adaptive_offset_enabled_flag: sps.sampleAdaptiveOffsetEnabledFlag,
      pcm_enabled_flag: sps.pcmEnabledFlag,
      pcm_loop_filter_disabled_flag: sps.pcmLoopFilterDisabledFlag,
      long_term_ref_pics_present_flag: sps.longTermRefPicsPresentFlag,
      sps_temporal_mvp_enabled_flag: sps.spsTemporalMvpEnabledFlag,
      strong_intra_smoothing_enabled_flag: sps.strongIntraSmoothingEnabledFlag,
      vui_parameters_present_flag: sps.vuiParametersPresentFlag,
      sps_extension_present_flag: e.extensionPresentFlag,
      sps_range_extension_flag: e.rangeExtensionFlag,
      sps_scc_extension_flag: e.sccExtensionFlag,
    },
    chroma_format_idc: sps.chromaFormatIdc,
    pic_width_in_luma_samples: sps.picWidthInLumaSamples,
    pic_height_in_luma_samples: sps.picHeightInLumaSamples,
    sps_video_parameter_set_id: sps.vpsId,
    sps_max_sub_layers_minus1: sps.spsMaxSubLayersMinus1,
    sps_seq_parameter_set_id: sps.spsId,
    bit_depth_luma_minus8: sps.bitDepthLumaMinus8,
    bit_depth_chroma_minus8: sps.bitDepthChromaMinus8,
    log2_max_pic_order_cnt_lsb_minus4: sps.log2MaxPicOrderCntLsbMinus4,
    log2_min_luma_coding_block_size_minus3: sps.log2MinLumaCodingBlockSizeMinus3,
    log2_diff_max_min_luma_coding_block_size: sps.log2DiffMaxMinLumaCodingBlockSize,
    log2_min_luma_transform_block_size_minus2: sps.log2MinLumaTransformBlockSizeMinus2,
    log2_diff_max_min_luma_transform_block_size: sps.log2DiffMaxMinLumaTransformBlockSize,
    max_transform_hierarchy_depth_inter: sps.maxTransformHierarchyDepthInter,
    max_transform_hierarchy_depth_intra: sps.maxTransformHierarchyDepthIntra,
    num_long_term_ref_pics_sps: sps.ltRefPicPocLsbSps.length,
    pcm_sample_bit_depth_luma_minus1: sps.pcmSampleBitDepthLumaMinus1,
    pcm_sample_bit_depth_chroma_minus1: sps.pcmSampleBitDepthChromaMinus1,
    log2_min_pcm_luma_coding_block_size_minus3: sps.log2MinPcmLumaCodingBlockSizeMinus3,
    log2_diff_max_min_pcm_luma_coding_block_size: sps.log2DiffMaxMinPcmLumaCodingBlockSize,
    conf_win_left_offset: sps.confWinLeftOffset,
    conf_win_right_offset: sps.confWinRightOffset,
    conf_win_top_offset: sps.confWinTopOffset,
    conf_win_bottom_offset: sps.confWinBottomOffset,
    profileTierLevel: ptl(sps.profileTierLevel),
    decPicBufMgr: decPicBufMgr(sps.ordering),
    scaling: sps.scalingListEnabledFlag && sps.scalingLists ? scaling(sps.scalingLists) : null,
    shortTermRefPicSets: sps.shortTermRefPicSets.map(stdShortTermRps),
    longTermRefPicsSps: sps.longTermRefPicsPresentFlag
      ? { used_by_curr_pic_lt_sps_flag: mask(sps.usedByCurrPicLtSpsFlag), lt_ref_pic_poc_lsb_sps: [...sps.ltRefPicPocLsbSps] }
      : null,
    vui: sps.vui ? vui(sps.vui) : null,
  };
}

/** `vpsId`: the VPS of the SPS the PPS refers to (StdVideoH265PictureParameterSet carries it). */
export function stdPps(pps: H265Pps, vpsId: number): NativeStdParameterSet {
  const e = pps.extensions;
  return {
    flags: {
      dependent_slice_segments_enabled_flag: pps.dependentSliceSegmentsEnabledFlag,
      output_flag_present_flag: pps.outputFlagPresentFlag,
      sign_data_hiding_enabled_flag: pps.signDataHidingEnabledFlag,
      cabac_init_present_flag: pps.cabacInitPresentFlag,
      constrained_intra_pred_flag: pps.constrainedIntraPredFlag,
      transform_skip_enabled_flag: pps.transformSkipEnabledFlag,
      cu_qp_delta_enabled_flag: pps.cuQpDeltaEnabledFlag,
      pps_slice_chroma_qp_offsets_present_flag: pps.ppsSliceChromaQpOffsetsPresentFlag,
      weighted_pred_flag: pps.weightedPredFlag,
      weighted_bipred_flag: pps.weightedBipredFlag,
      transquant_bypass_enabled_flag: pps.transquantBypassEnabledFlag,
      tiles_enabled_flag: pps.tilesEnabledFlag,
      entropy_coding_sync_enabled_flag: pps.entropyCodingSyncEnabledFlag,
      uniform_spacing_flag: pps.uniformSpacingFlag,
      loop_filter_across_tiles_enabled_flag: pps.loopFilterAcrossTilesEnabledFlag,
      pps_loop_filter_across_slices_enabled_flag: pps.ppsLoopFilterAcrossSlicesEnabledFlag,
      deblocking_filter_control_present_flag: pps.deblockingFilterControlPresentFlag,
      deblocking_filter_override_enabled_flag: pps.deblockingFilterOverrideEnabledFlag,
      pps_deblocking_filter_disabled_flag: pps.ppsDeblockingFilterDisabledFlag,
      pps_scaling_list_data_present_flag: pps.ppsScalingListDataPresentFlag,
      lists_modification_present_flag: pps.listsModificationPresentFlag,
      slice_segment_header_extension_present_flag: pps.sliceSegmentHeaderExtensionPresentFlag,
      pps_extension_present_flag: e.extensionPresentFlag,
      pps_range_extension_flag: e.rangeExtensionFlag,
    },
    pps_pic_parameter_set_id: pps.ppsId,
    pps_seq_parameter_set_id: pps.spsId,
    sps_video_parameter_set_id: vpsId,
    num_extra_slice_header_bits: pps.numExtraSliceHeaderBits,
    num_ref_idx_l0_default_active_minus1: pps.numRefIdxL0DefaultActiveMinus1,
    num_ref_idx_l1_default_active_minus1: pps.numRefIdxL1DefaultActiveMinus1,
    init_qp_minus26: pps.initQpMinus26,
    diff_cu_qp_delta_depth: pps.diffCuQpDeltaDepth,
    pps_cb_qp_offset: pps.ppsCbQpOffset,
    pps_cr_qp_offset: pps.ppsCrQpOffset,
    pps_beta_offset_div2: pps.ppsBetaOffsetDiv2,
    pps_tc_offset_div2: pps.ppsTcOffsetDiv2,
    log2_parallel_merge_level_minus2: pps.log2ParallelMergeLevelMinus2,
    num_tile_columns_minus1: pps.numTileColumnsMinus1,
    num_tile_rows_minus1: pps.numTileRowsMinus1,
    column_width_minus1: [...pps.columnWidthMinus1],
    row_height_minus1: [...pps.rowHeightMinus1],
    scaling: pps.ppsScalingListDataPresentFlag && pps.scalingLists ? scaling(pps.scalingLists) : null,
  };
}

/** Bits of the descriptor's flags int (native/video/decoder_state.h, H265Desc). */
export const FLAG_IRAP = 1,
  FLAG_IDR = 2,
  FLAG_REFERENCE = 4,
  FLAG_ST_RPS_SPS = 8;

/**
 * The picture's descriptor: the common header (setup slot, flags, the ids,
 * NumDeltaPocsOfRefRpsIdx, PicOrderCntVal, NumBitsForSTRefPicSetInSlice, crop,
 * reference count), then per reference (every picture of the three RefPicSet
 * lists, once: the references begin coding binds; generated pictures are left
 * out) its slot, 0, long-term flag, PicOrderCntVal, 0; then
 * RefPicSetStCurrBefore, RefPicSetStCurrAfter, RefPicSetLtCurr as DPB slots, 8
 * each, 0xff where unused or generated.
 */
export function pictureDescriptor(picture: H265Picture): Int32Array {
  const lists = [picture.refPicSetStCurrBefore, picture.refPicSetStCurrAfter, picture.refPicSetLtCurr];
  for (const list of lists)
    if (list.length > REF_PIC_SET_SIZE) throw new RangeError(`a RefPicSet list of ${list.length} pictures; Vulkan Video takes ${REF_PIC_SET_SIZE}`);
  // A generated picture (8.3.3: one the stream lacks) was never decoded into its slot, which Vulkan would not take as
  // a reference: its entries are "no reference picture" (STD_VIDEO_H265_NO_REFERENCE_PICTURE) and it is not bound.
  const decoded = (slot: number) => picture.references.some((r) => r.slot === slot && !r.generated);
  const slots = [...new Set(lists.flat())].filter(decoded);
  // IsReference (Vulkan: H.265 3.132, a picture that may be used for inter prediction of later pictures): every
  // picture but a sub-layer non-reference picture of the highest sub-layer, which nothing can predict from. (A
  // sub-layer non-reference picture below it may still be a reference of higher sub-layers; with IsReference 0 its
  // DPB slot would be invalidated.)
  const reference = picture.isReference || picture.temporalId < picture.sps.spsMaxSubLayersMinus1;
  // NumDeltaPocsOfRefRpsIdx: NumDeltaPocs[RefRpsIdx] of the short-term set in use (the header's or the SPS's) where
  // that set is predicted from another, else 0.
  const stRps = picture.slices[0]?.header.stRps;
  const numDeltaPocsOfRefRpsIdx = stRps?.interRefPicSetPredictionFlag ? stRps.usedByCurrPicFlag.length - 1 : 0;
  const d = new Int32Array(DESC_HEADER + slots.length * DESC_REF + 3 * REF_PIC_SET_SIZE);
  d[0] = picture.setupSlot;
  d[1] =
    (picture.isIrap ? FLAG_IRAP : 0) |
    (picture.isIdr ? FLAG_IDR : 0) |
    (reference ? FLAG_REFERENCE : 0) |
    (picture.slices[0]?.header.shortTermRefPicSetSpsFlag ? FLAG_ST_RPS_SPS : 0);
  d[2] = picture.vpsId;
  d[3] = picture.spsId;
  d[4] = picture.ppsId;
  d[5] = numDeltaPocsOfRefRpsIdx;
  d[6] = picture.picOrderCntVal;
  d[7] = picture.numBitsForStRefPicSetInSlice;
  d[8] = picture.crop.left;
  d[9] = picture.crop.top;
  d[10] = picture.crop.width;
  d[11] = picture.crop.height;
  d[12] = slots.length;
  for (const [i, slot] of slots.entries()) {
    const entry = picture.references.find((r) => r.slot === slot);
    if (!entry) throw new RangeError(`slot ${slot} of a RefPicSet list holds no reference picture`);
    const o = DESC_HEADER + i * DESC_REF;
    d[o] = slot;
    d[o + 2] = entry.longTerm ? 1 : 0;
    d[o + 3] = entry.picOrderCntVal;
  }
  const at = DESC_HEADER + slots.length * DESC_REF;
  d.fill(NO_ENTRY, at);
  for (const [l, list] of lists.entries()) for (const [k, slot] of list.entries()) if (decoded(slot)) d[at + l * REF_PIC_SET_SIZE + k] = slot;
  return d;
}
