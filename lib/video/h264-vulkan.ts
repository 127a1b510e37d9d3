// The bitstream room's H.264 records in the shapes the Vulkan back end's
// native side reads: StdVideoH264SequenceParameterSet / PictureParameterSet
// as plain objects (their field names), and each picture as one Int32Array
// (native/video/decoder_state.h's Desc) plus its slice offsets.
import type { H264Picture, H264Pps, H264ScalingLists, H264Sps } from './h264/types';
import type { NativeStdParameterSet } from './native-types';

/** level_idc of each StdVideoH264LevelIdc value, in order. */
const LEVELS = [10, 11, 12, 13, 20, 21, 22, 30, 31, 32, 40, 41, 42, 50, 51, 52, 60, 61, 62];

/** StdVideoH264LevelIdc of a level_idc (9, level 1b, is 1.1's value; past 6.2: 6.2). */
export function stdLevel(levelIdc: number): number {
  if (levelIdc === 9) return 1;
  const i = LEVELS.findIndex((l) => l >= levelIdc);
  return i < 0 ? LEVELS.length - 1 : i;
}

function scaling(lists: H264ScalingLists): NativeStdParameterSet {
  const list4x4: number[] = [];
  const list8x8: number[] = [];
  for (let i = 0; i < 6; i++) list4x4.push(...(lists.list4x4[i] ?? new Uint8Array(16).fill(16)));
  for (let i = 0; i < 6; i++) list8x8.push(...(lists.list8x8[i] ?? new Uint8Array(64).fill(16)));
  // The lists are resolved (fall-back rules applied): none is left to "use default".
  return { presentMask: lists.presentMask, defaultMask: 0, list4x4, list8x8 };
}

export function stdSps(sps: H264Sps): NativeStdParameterSet {
  const c = sps.constraintFlags;
  const vui = sps.vui;
  return {
    flags: {
      constraint_set0_flag: (c & 1) !== 0,
      constraint_set1_flag: (c & 2) !== 0,
      constraint_set2_flag: (c & 4) !== 0,
      constraint_set3_flag: (c & 8) !== 0,
      constraint_set4_flag: (c & 16) !== 0,
      constraint_set5_flag: (c & 32) !== 0,
      direct_8x8_inference_flag: sps.direct8x8InferenceFlag,
      mb_adaptive_frame_field_flag: sps.mbAdaptiveFrameFieldFlag,
      frame_mbs_only_flag: sps.frameMbsOnlyFlag,
      delta_pic_order_always_zero_flag: sps.deltaPicOrderAlwaysZeroFlag,
      separate_colour_plane_flag: sps.separateColourPlaneFlag,
      gaps_in_frame_num_value_allowed_flag: sps.gapsInFrameNumValueAllowedFlag,
      qpprime_y_zero_transform_bypass_flag: sps.qpprimeYZeroTransformBypassFlag,
      frame_cropping_flag: sps.frameCroppingFlag,
      seq_scaling_matrix_present_flag: sps.seqScalingMatrixPresentFlag,
      vui_parameters_present_flag: sps.vuiParametersPresentFlag,
    },
    profile_idc: sps.profileIdc,
    level_idc: stdLevel(sps.levelIdc),
    chroma_format_idc: sps.chromaFormatIdc,
    seq_parameter_set_id: sps.spsId,
    bit_depth_luma_minus8: sps.bitDepthLumaMinus8,
    bit_depth_chroma_minus8: sps.bitDepthChromaMinus8,
    log2_max_frame_num_minus4: sps.log2MaxFrameNumMinus4,
    pic_order_cnt_type: sps.picOrderCntType,
    offset_for_non_ref_pic: sps.offsetForNonRefPic,
    offset_for_top_to_bottom_field: sps.offsetForTopToBottomField,
    log2_max_pic_order_cnt_lsb_minus4: sps.log2MaxPicOrderCntLsbMinus4,
    num_ref_frames_in_pic_order_cnt_cycle: sps.numRefFramesInPicOrderCntCycle,
    max_num_ref_frames: sps.maxNumRefFrames,
    pic_width_in_mbs_minus1: sps.picWidthInMbsMinus1,
    pic_height_in_map_units_minus1: sps.picHeightInMapUnitsMinus1,
    frame_crop_left_offset: sps.frameCropLeftOffset,
    frame_crop_right_offset: sps.frameCropRightOffset,
    frame_crop_top_offset: sps.frameCropTopOffset,
    frame_crop_bottom_offset: sps.frameCropBottomOffset,
    offsetForRefFrame: [...sps.offsetForRefFrame],
    scaling: scaling(sps.scalingLists),
    vui: vui && {
      flags: {
        aspect_ratio_info_present_flag: vui.aspectRatioInfoPresentFlag,
        overscan_info_present_flag: vui.overscanInfoPresentFlag,
        overscan_appropriate_flag: vui.overscanAppropriateFlag,
        video_signal_type_present_flag: vui.videoSignalTypePresentFlag,
        video_full_range_flag: vui.videoFullRangeFlag,
        color_description_present_flag: vui.colourDescriptionPresentFlag,
        chroma_loc_info_present_flag: vui.chromaLocInfoPresentFlag,
        timing_info_present_flag: vui.timingInfoPresentFlag,
        fixed_frame_rate_flag: vui.fixedFrameRateFlag,
        bitstream_restriction_flag: vui.bitstreamRestrictionFlag,
      },
      aspect_ratio_idc: vui.aspectRatioIdc,
      sar_width: vui.sarWidth,
      sar_height: vui.sarHeight,
      video_format: vui.videoFormat,
      colour_primaries: vui.colourPrimaries,
      transfer_characteristics: vui.transferCharacteristics,
      matrix_coefficients: vui.matrixCoefficients,
      num_units_in_tick: vui.numUnitsInTick,
      time_scale: vui.timeScale,
      max_num_reorder_frames: vui.maxNumReorderFrames,
      max_dec_frame_buffering: vui.maxDecFrameBuffering,
      chroma_sample_loc_type_top_field: vui.chromaSampleLocTypeTopField,
      chroma_sample_loc_type_bottom_field: vui.chromaSampleLocTypeBottomField,
    },
  };
}

export function stdPps(pps: H264Pps): NativeStdParameterSet {
  return {
    flags: {
      transform_8x8_mode_flag: pps.transform8x8ModeFlag,
      redundant_pic_cnt_present_flag: pps.redundantPicCntPresentFlag,
      constrained_intra_pred_flag: pps.constrainedIntraPredFlag,
      deblocking_filter_control_present_flag: pps.deblockingFilterControlPresentFlag,
      weighted_pred_flag: pps.weightedPredFlag,
      bottom_field_pic_order_in_frame_present_flag: pps.bottomFieldPicOrderInFramePresentFlag,
      entropy_coding_mode_flag: pps.entropyCodingModeFlag,
      pic_scaling_matrix_present_flag: pps.picScalingMatrixPresentFlag,
    },
    seq_parameter_set_id: pps.spsId,
    pic_parameter_set_id: pps.ppsId,
    num_ref_idx_l0_default_active_minus1: pps.numRefIdxL0DefaultActiveMinus1,
    num_ref_idx_l1_default_active_minus1: pps.numRefIdxL1DefaultActiveMinus1,
    weighted_bipred_idc: pps.weightedBipredIdc,
    pic_init_qp_minus26: pps.picInitQpMinus26,
    pic_init_qs_minus26: pps.picInitQsMinus26,
    chroma_qp_index_offset: pps.chromaQpIndexOffset,
    second_chroma_qp_index_offset: pps.secondChromaQpIndexOffset,
    scaling: scaling(pps.scalingLists),
  };
}

/** Ints before the references in a picture's descriptor, and per reference. */
export const DESC_HEADER = 13;
export const DESC_REF = 5;

/** The picture's descriptor (native/video/decoder.cc reads it). */
export function pictureDescriptor(picture: H264Picture): Int32Array {
  const refs = picture.references;
  const d = new Int32Array(DESC_HEADER + refs.length * DESC_REF);
  d[0] = picture.setupSlot;
  d[1] = (picture.isIntra ? 1 : 0) | (picture.isIdr ? 2 : 0) | (picture.isReference ? 4 : 0) | (picture.isLongTerm ? 8 : 0);
  d[2] = picture.spsId;
  d[3] = picture.ppsId;
  d[4] = picture.frameNum;
  d[5] = picture.idrPicId;
  d[6] = picture.poc.top;
  d[7] = picture.poc.bottom;
  d[8] = picture.crop.left;
  d[9] = picture.crop.top;
  d[10] = picture.crop.width;
  d[11] = picture.crop.height;
  d[12] = refs.length;
  for (let i = 0; i < refs.length; i++) {
    const r = refs[i]!;
    const o = DESC_HEADER + i * DESC_REF;
    d[o] = r.slot;
    d[o + 1] = r.frameNum;
    d[o + 2] = (r.longTerm ? 1 : 0) | (r.nonExisting ? 2 : 0);
    d[o + 3] = r.poc.top;
    d[o + 4] = r.poc.bottom;
  }
  return d;
}
