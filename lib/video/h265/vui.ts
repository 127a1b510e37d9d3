// vui_parameters() (E.2.1) and hrd_parameters() (E.2.2, E.2.3), with the
// values E.3 infers for what is absent. The HRD is read in full so that what
// follows it is read from the right place; nothing here acts on it.
import type { BitReader } from '../h264/bit-reader';
import { readVuiHead } from '../h264/vui';
import type { H265Hrd, H265SubLayerHrd, H265Vui } from './types';

const MAX_UE = 0xfffffffe;

function subLayerHrd(r: BitReader, cpbCnt: number, subPic: boolean): H265SubLayerHrd {
  const out = { bitRateValueMinus1: [] as number[], cpbSizeValueMinus1: [] as number[], cpbSizeDuValueMinus1: [] as number[] };
  const bitRateDuValueMinus1: number[] = [];
  const cbrFlag: boolean[] = [];
  for (let i = 0; i < cpbCnt; i++) {
    out.bitRateValueMinus1.push(r.ue('bit_rate_value_minus1', MAX_UE));
    out.cpbSizeValueMinus1.push(r.ue('cpb_size_value_minus1', MAX_UE));
    if (subPic) {
      out.cpbSizeDuValueMinus1.push(r.ue('cpb_size_du_value_minus1', MAX_UE));
      bitRateDuValueMinus1.push(r.ue('bit_rate_du_value_minus1', MAX_UE));
    }
    cbrFlag.push(r.flag('cbr_flag'));
  }
  return { ...out, bitRateDuValueMinus1, cbrFlag };
}

/** hrd_parameters( commonInfPresentFlag, maxNumSubLayersMinus1 ) (E.2.2). */
export function readHrd(r: BitReader, commonInfPresentFlag: boolean, maxNumSubLayersMinus1: number): H265Hrd {
  let nalHrdParametersPresentFlag = false;
  let vclHrdParametersPresentFlag = false;
  let subPicHrdParamsPresentFlag = false;
  let tickDivisorMinus2 = 0;
  let duCpbRemovalDelayIncrementLengthMinus1 = 0;
  let subPicCpbParamsInPicTimingSeiFlag = false;
  let dpbOutputDelayDuLengthMinus1 = 0;
  let bitRateScale = 0;
  let cpbSizeScale = 0;
  let cpbSizeDuScale = 0;
  // E.3.2: the three lengths are inferred as 23 when not sent.
  let initialCpbRemovalDelayLengthMinus1 = 23;
  let auCpbRemovalDelayLengthMinus1 = 23;
  let dpbOutputDelayLengthMinus1 = 23;
  if (commonInfPresentFlag) {
    nalHrdParametersPresentFlag = r.flag('nal_hrd_parameters_present_flag');
    vclHrdParametersPresentFlag = r.flag('vcl_hrd_parameters_present_flag');
    if (nalHrdParametersPresentFlag || vclHrdParametersPresentFlag) {
      subPicHrdParamsPresentFlag = r.flag('sub_pic_hrd_params_present_flag');
      if (subPicHrdParamsPresentFlag) {
        tickDivisorMinus2 = r.u(8, 'tick_divisor_minus2');
        duCpbRemovalDelayIncrementLengthMinus1 = r.u(5, 'du_cpb_removal_delay_increment_length_minus1');
        subPicCpbParamsInPicTimingSeiFlag = r.flag('sub_pic_cpb_params_in_pic_timing_sei_flag');
        dpbOutputDelayDuLengthMinus1 = r.u(5, 'dpb_output_delay_du_length_minus1');
      }
      bitRateScale = r.u(4, 'bit_rate_scale');
      cpbSizeScale = r.u(4, 'cpb_size_scale');
      if (subPicHrdParamsPresentFlag) cpbSizeDuScale = r.u(4, 'cpb_size_du_scale');
      initialCpbRemovalDelayLengthMinus1 = r.u(5, 'initial_cpb_removal_delay_length_minus1');
      auCpbRemovalDelayLengthMinus1 = r.u(5, 'au_cpb_removal_delay_length_minus1');
      dpbOutputDelayLengthMinus1 = r.u(5, 'dpb_output_delay_length_minus1');
    }
  }
  const fixedPicRateGeneralFlag: boolean[] = [];
  const fixedPicRateWithinCvsFlag: boolean[] = [];
  const elementalDurationInTcMinus1: number[] = [];
  const lowDelayHrdFlag: boolean[] = [];
  const cpbCntMinus1: number[] = [];
  const nal: (H265SubLayerHrd | null)[] = [];
  const vcl: (H265SubLayerHrd | null)[] = [];
  for (let i = 0; i <= maxNumSubLayersMinus1; i++) {
    const general = r.flag('fixed_pic_rate_general_flag');
    // E.3.2: fixed_pic_rate_within_cvs_flag is inferred 1 when fixed_pic_rate_general_flag is 1.
    const withinCvs = general ? true : r.flag('fixed_pic_rate_within_cvs_flag');
    let duration = 0;
    let lowDelay = false;
    if (withinCvs) duration = r.ue('elemental_duration_in_tc_minus1', 2047);
    else lowDelay = r.flag('low_delay_hrd_flag');
    const cpbCnt = lowDelay ? 0 : r.ue('cpb_cnt_minus1', 31);
    fixedPicRateGeneralFlag.push(general);
    fixedPicRateWithinCvsFlag.push(withinCvs);
    elementalDurationInTcMinus1.push(duration);
    lowDelayHrdFlag.push(lowDelay);
    cpbCntMinus1.push(cpbCnt);
    nal.push(nalHrdParametersPresentFlag ? subLayerHrd(r, cpbCnt + 1, subPicHrdParamsPresentFlag) : null);
    vcl.push(vclHrdParametersPresentFlag ? subLayerHrd(r, cpbCnt + 1, subPicHrdParamsPresentFlag) : null);
  }
  return {
    commonInfPresentFlag,
    nalHrdParametersPresentFlag,
    vclHrdParametersPresentFlag,
    subPicHrdParamsPresentFlag,
    tickDivisorMinus2,
    duCpbRemovalDelayIncrementLengthMinus1,
    subPicCpbParamsInPicTimingSeiFlag,
    dpbOutputDelayDuLengthMinus1,
    bitRateScale,
    cpbSizeScale,
    cpbSizeDuScale,
    initialCpbRemovalDelayLengthMinus1,
    auCpbRemovalDelayLengthMinus1,
    dpbOutputDelayLengthMinus1,
    fixedPicRateGeneralFlag,
    fixedPicRateWithinCvsFlag,
    elementalDurationInTcMinus1,
    lowDelayHrdFlag,
    cpbCntMinus1,
    nal,
    vcl,
  };
}

/** vui_parameters() (E.2.1); `maxSubLayersMinus1` is sps_max_sub_layers_minus1 (for the HRD). */
export function readVui(r: BitReader, maxSubLayersMinus1: number): H265Vui {
  const head = readVuiHead(r);
  const neutralChromaIndicationFlag = r.flag('neutral_chroma_indication_flag');
  const fieldSeqFlag = r.flag('field_seq_flag');
  const frameFieldInfoPresentFlag = r.flag('frame_field_info_present_flag');
  const defaultDisplayWindowFlag = r.flag('default_display_window_flag');
  const window = [0, 0, 0, 0];
  if (defaultDisplayWindowFlag)
    for (const [i, side] of ['left', 'right', 'top', 'bottom'].entries()) window[i] = r.ue(`def_disp_win_${side}_offset`, 16888);
  const vuiTimingInfoPresentFlag = r.flag('vui_timing_info_present_flag');
  let vuiNumUnitsInTick = 0;
  let vuiTimeScale = 0;
  let vuiPocProportionalToTimingFlag = false;
  let vuiNumTicksPocDiffOneMinus1 = 0;
  let vuiHrdParametersPresentFlag = false;
  let hrd: H265Hrd | null = null;
  if (vuiTimingInfoPresentFlag) {
    vuiNumUnitsInTick = r.u(32, 'vui_num_units_in_tick');
    vuiTimeScale = r.u(32, 'vui_time_scale');
    vuiPocProportionalToTimingFlag = r.flag('vui_poc_proportional_to_timing_flag');
    if (vuiPocProportionalToTimingFlag) vuiNumTicksPocDiffOneMinus1 = r.ue('vui_num_ticks_poc_diff_one_minus1', MAX_UE);
    vuiHrdParametersPresentFlag = r.flag('vui_hrd_parameters_present_flag');
    if (vuiHrdParametersPresentFlag) hrd = readHrd(r, true, maxSubLayersMinus1);
  }
  const bitstreamRestrictionFlag = r.flag('bitstream_restriction_flag');
  let tilesFixedStructureFlag = false;
  let motionVectorsOverPicBoundariesFlag = true;
  let restrictedRefPicListsFlag = false;
  let minSpatialSegmentationIdc = 0;
  let maxBytesPerPicDenom = 2;
  let maxBitsPerMinCuDenom = 1;
  let log2MaxMvLengthHorizontal = 15;
  let log2MaxMvLengthVertical = 15;
  if (bitstreamRestrictionFlag) {
    tilesFixedStructureFlag = r.flag('tiles_fixed_structure_flag');
    motionVectorsOverPicBoundariesFlag = r.flag('motion_vectors_over_pic_boundaries_flag');
    restrictedRefPicListsFlag = r.flag('restricted_ref_pic_lists_flag');
    minSpatialSegmentationIdc = r.ue('min_spatial_segmentation_idc', 4095);
    maxBytesPerPicDenom = r.ue('max_bytes_per_pic_denom', 16);
    maxBitsPerMinCuDenom = r.ue('max_bits_per_min_cu_denom', 16);
    log2MaxMvLengthHorizontal = r.ue('log2_max_mv_length_horizontal', 15);
    log2MaxMvLengthVertical = r.ue('log2_max_mv_length_vertical', 15);
  }
  return {
    ...head,
    neutralChromaIndicationFlag,
    fieldSeqFlag,
    frameFieldInfoPresentFlag,
    defaultDisplayWindowFlag,
    defDispWinLeftOffset: window[0]!,
    defDispWinRightOffset: window[1]!,
    defDispWinTopOffset: window[2]!,
    defDispWinBottomOffset: window[3]!,
    vuiTimingInfoPresentFlag,
    vuiNumUnitsInTick,
    vuiTimeScale,
    vuiPocProportionalToTimingFlag,
    vuiNumTicksPocDiffOneMinus1,
    vuiHrdParametersPresentFlag,
    hrd,
    bitstreamRestrictionFlag,
    tilesFixedStructureFlag,
    motionVectorsOverPicBoundariesFlag,
    restrictedRefPicListsFlag,
    minSpatialSegmentationIdc,
    maxBytesPerPicDenom,
    maxBitsPerMinCuDenom,
    log2MaxMvLengthHorizontal,
    log2MaxMvLengthVertical,
  };
}
