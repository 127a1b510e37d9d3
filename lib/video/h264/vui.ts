// vui_parameters() and hrd_parameters() (Annex E.1), with the values E.2.1
// infers for what is absent.
import type { BitReader } from './bit-reader';
import type { H264HrdParameters, H264Vui, VuiHead } from './types';

const EXTENDED_SAR = 255;

function hrd(r: BitReader): H264HrdParameters {
  const cpbCntMinus1 = r.ue('cpb_cnt_minus1', 31);
  const bitRateScale = r.u(4, 'bit_rate_scale');
  const cpbSizeScale = r.u(4, 'cpb_size_scale');
  const bitRateValueMinus1: number[] = [];
  const cpbSizeValueMinus1: number[] = [];
  const cbrFlag: boolean[] = [];
  for (let i = 0; i <= cpbCntMinus1; i++) {
    bitRateValueMinus1.push(r.ue('bit_rate_value_minus1'));
    cpbSizeValueMinus1.push(r.ue('cpb_size_value_minus1'));
    cbrFlag.push(r.flag('cbr_flag'));
  }
  return {
    cpbCntMinus1,
    bitRateScale,
    cpbSizeScale,
    bitRateValueMinus1,
    cpbSizeValueMinus1,
    cbrFlag,
    initialCpbRemovalDelayLengthMinus1: r.u(5, 'initial_cpb_removal_delay_length_minus1'),
    cpbRemovalDelayLengthMinus1: r.u(5, 'cpb_removal_delay_length_minus1'),
    dpbOutputDelayLengthMinus1: r.u(5, 'dpb_output_delay_length_minus1'),
    timeOffsetLength: r.u(5, 'time_offset_length'),
  };
}

/** The start of vui_parameters() (VuiHead): the same syntax in H.264 (E.1.1) and H.265 (E.2.1). */
export function readVuiHead(r: BitReader): VuiHead {
  const aspectRatioInfoPresentFlag = r.flag('aspect_ratio_info_present_flag');
  let aspectRatioIdc = 0;
  let sarWidth = 0;
  let sarHeight = 0;
  if (aspectRatioInfoPresentFlag) {
    aspectRatioIdc = r.u(8, 'aspect_ratio_idc');
    if (aspectRatioIdc === EXTENDED_SAR) {
      sarWidth = r.u(16, 'sar_width');
      sarHeight = r.u(16, 'sar_height');
    }
  }
  const overscanInfoPresentFlag = r.flag('overscan_info_present_flag');
  const overscanAppropriateFlag = overscanInfoPresentFlag ? r.flag('overscan_appropriate_flag') : false;
  const videoSignalTypePresentFlag = r.flag('video_signal_type_present_flag');
  let videoFormat = 5;
  let videoFullRangeFlag = false;
  let colourDescriptionPresentFlag = false;
  let colourPrimaries = 2;
  let transferCharacteristics = 2;
  let matrixCoefficients = 2;
  if (videoSignalTypePresentFlag) {
    videoFormat = r.u(3, 'video_format');
    videoFullRangeFlag = r.flag('video_full_range_flag');
    colourDescriptionPresentFlag = r.flag('colour_description_present_flag');
    if (colourDescriptionPresentFlag) {
      colourPrimaries = r.u(8, 'colour_primaries');
      transferCharacteristics = r.u(8, 'transfer_characteristics');
      matrixCoefficients = r.u(8, 'matrix_coefficients');
    }
  }
  const chromaLocInfoPresentFlag = r.flag('chroma_loc_info_present_flag');
  let chromaSampleLocTypeTopField = 0;
  let chromaSampleLocTypeBottomField = 0;
  if (chromaLocInfoPresentFlag) {
    chromaSampleLocTypeTopField = r.ue('chroma_sample_loc_type_top_field', 5);
    chromaSampleLocTypeBottomField = r.ue('chroma_sample_loc_type_bottom_field', 5);
  }
  return {
    aspectRatioInfoPresentFlag,
    aspectRatioIdc,
    sarWidth,
    sarHeight,
    overscanInfoPresentFlag,
    overscanAppropriateFlag,
    videoSignalTypePresentFlag,
    videoFormat,
    videoFullRangeFlag,
    colourDescriptionPresentFlag,
    colourPrimaries,
    transferCharacteristics,
    matrixCoefficients,
    chromaLocInfoPresentFlag,
    chromaSampleLocTypeTopField,
    chromaSampleLocTypeBottomField,
  };
}

/**
 * vui_parameters(). `inferredDpb` is what max_num_reorder_frames and
 * max_dec_frame_buffering take when bitstream_restriction_flag is 0 (E.2.1:
 * MaxDpbFrames, or 0 for the intra-only profiles).
 */
export function readVui(r: BitReader, inferredDpb: number): H264Vui {
  const head = readVuiHead(r);
  const timingInfoPresentFlag = r.flag('timing_info_present_flag');
  let numUnitsInTick = 0;
  let timeScale = 0;
  let fixedFrameRateFlag = false;
  if (timingInfoPresentFlag) {
    numUnitsInTick = r.u(32, 'num_units_in_tick');
    timeScale = r.u(32, 'time_scale');
    fixedFrameRateFlag = r.flag('fixed_frame_rate_flag');
  }
  const nalHrdParametersPresentFlag = r.flag('nal_hrd_parameters_present_flag');
  const nalHrd = nalHrdParametersPresentFlag ? hrd(r) : null;
  const vclHrdParametersPresentFlag = r.flag('vcl_hrd_parameters_present_flag');
  const vclHrd = vclHrdParametersPresentFlag ? hrd(r) : null;
  const lowDelayHrdFlag = nalHrdParametersPresentFlag || vclHrdParametersPresentFlag ? r.flag('low_delay_hrd_flag') : false;
  const picStructPresentFlag = r.flag('pic_struct_present_flag');
  const bitstreamRestrictionFlag = r.flag('bitstream_restriction_flag');
  let motionVectorsOverPicBoundariesFlag = true;
  let maxBytesPerPicDenom = 2;
  let maxBitsPerMbDenom = 1;
  let log2MaxMvLengthHorizontal = 15;
  let log2MaxMvLengthVertical = 15;
  let maxNumReorderFrames = inferredDpb;
  let maxDecFrameBuffering = inferredDpb;
  if (bitstreamRestrictionFlag) {
    motionVectorsOverPicBoundariesFlag = r.flag('motion_vectors_over_pic_boundaries_flag');
    maxBytesPerPicDenom = r.ue('max_bytes_per_pic_denom', 16);
    maxBitsPerMbDenom = r.ue('max_bits_per_mb_denom', 16);
    log2MaxMvLengthHorizontal = r.ue('log2_max_mv_length_horizontal', 16);
    log2MaxMvLengthVertical = r.ue('log2_max_mv_length_vertical', 16);
    maxNumReorderFrames = r.ue('max_num_reorder_frames', 16);
    maxDecFrameBuffering = r.ue('max_dec_frame_buffering', 16);
  }
  return {
    ...head,
    timingInfoPresentFlag,
    numUnitsInTick,
    timeScale,
    fixedFrameRateFlag,
    nalHrdParametersPresentFlag,
    nalHrd,
    vclHrdParametersPresentFlag,
    vclHrd,
    lowDelayHrdFlag,
    picStructPresentFlag,
    bitstreamRestrictionFlag,
    motionVectorsOverPicBoundariesFlag,
    maxBytesPerPicDenom,
    maxBitsPerMbDenom,
    log2MaxMvLengthHorizontal,
    log2MaxMvLengthVertical,
    maxNumReorderFrames,
    maxDecFrameBuffering,
  };
}
