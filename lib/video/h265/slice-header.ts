// slice_segment_header() (7.3.6.1) up to byte_alignment(): where the slice
// segment data begins. slice_segment_data() is never touched.
import type { BitReader } from '../h264/bit-reader';
import { H265BitstreamError } from './errors';
import { isIdr, isIrap } from './nal';
import { ceilLog2, readListEntries, readPredWeightTable } from './pred-weight';
import { emptyShortTermRps, readShortTermRps } from './rps';
import { type H265NalHeader, type H265Pps, type H265ShortTermRps, type H265SliceHeader, H265SliceType, type H265Sps } from './types';

/** The fields of a slice segment header read before its PPS is known. */
export interface H265SliceStart {
  firstSliceSegmentInPicFlag: boolean;
  noOutputOfPriorPicsFlag: boolean;
  ppsId: number;
}

export function readSliceStart(r: BitReader, nalUnitType: number): H265SliceStart {
  const firstSliceSegmentInPicFlag = r.flag('first_slice_segment_in_pic_flag');
  const noOutputOfPriorPicsFlag = isIrap(nalUnitType) ? r.flag('no_output_of_prior_pics_flag') : false;
  const ppsId = r.ue('slice_pic_parameter_set_id', 63);
  return { firstSliceSegmentInPicFlag, noOutputOfPriorPicsFlag, ppsId };
}

/** num_entry_point_offsets' upper bound (7.4.7.1), from tiles and wavefronts. */
function maxEntryPoints(sps: H265Sps, pps: H265Pps): number {
  const tiles = (pps.numTileColumnsMinus1 + 1) * (pps.numTileRowsMinus1 + 1);
  if (pps.tilesEnabledFlag && pps.entropyCodingSyncEnabledFlag) return (pps.numTileColumnsMinus1 + 1) * sps.picHeightInCtbsY - 1;
  if (pps.tilesEnabledFlag) return tiles - 1;
  return sps.picHeightInCtbsY - 1;
}

/**
 * Reads the rest of a slice segment header after readSliceStart(), against
 * its SPS and PPS. A dependent slice segment takes its slice fields from
 * `previous`, the slice segment before it in the picture.
 */
export function readSliceHeader(
  r: BitReader,
  nal: H265NalHeader,
  start: H265SliceStart,
  sps: H265Sps,
  pps: H265Pps,
  previous: H265SliceHeader | null,
): H265SliceHeader {
  const { nalUnitType } = nal;
  const what = 'slice segment header';
  if (start.ppsId !== pps.ppsId) throw new H265BitstreamError(`${what}: names PPS ${start.ppsId}, given PPS ${pps.ppsId}`);
  if (pps.spsId !== sps.spsId) throw new H265BitstreamError(`${what}: PPS ${pps.ppsId} names SPS ${pps.spsId}, given SPS ${sps.spsId}`);
  let dependentSliceSegmentFlag = false;
  let sliceSegmentAddress = 0;
  if (!start.firstSliceSegmentInPicFlag) {
    if (pps.dependentSliceSegmentsEnabledFlag) dependentSliceSegmentFlag = r.flag('dependent_slice_segment_flag');
    sliceSegmentAddress = r.u(ceilLog2(sps.picSizeInCtbsY), 'slice_segment_address');
    if (sliceSegmentAddress >= sps.picSizeInCtbsY)
      throw new H265BitstreamError(`${what}: slice_segment_address is ${sliceSegmentAddress}, outside 0..${sps.picSizeInCtbsY - 1} (7.4.7.1)`);
  }
  const common = {
    nalUnitType,
    temporalId: nal.temporalId,
    firstSliceSegmentInPicFlag: start.firstSliceSegmentInPicFlag,
    noOutputOfPriorPicsFlag: start.noOutputOfPriorPicsFlag,
    ppsId: start.ppsId,
    dependentSliceSegmentFlag,
    sliceSegmentAddress,
  };
  if (dependentSliceSegmentFlag) {
    if (!previous) throw new H265BitstreamError(`${what}: a dependent slice segment with no slice segment before it (7.4.7.1)`);
    if (previous.ppsId !== start.ppsId)
      throw new H265BitstreamError(
        `${what}: a dependent slice segment names PPS ${start.ppsId}, the segment before it PPS ${previous.ppsId} (7.4.7.1)`,
      );
    const tail = readTail(r, sps, pps, what);
    return { ...previous, ...common, ...tail };
  }

  let sliceReservedFlags = 0;
  for (let i = 0; i < pps.numExtraSliceHeaderBits; i++) if (r.flag('slice_reserved_flag')) sliceReservedFlags |= 1 << i;
  const sliceType = r.ue('slice_type', 2);
  // 7.4.7.1: an IRAP picture of the base layer has I slices only.
  if (isIrap(nalUnitType) && sliceType !== H265SliceType.I)
    throw new H265BitstreamError(`${what}: slice_type is ${sliceType} in an IRAP picture (nal_unit_type ${nalUnitType}); must be 2 (I) (7.4.7.1)`);
  const picOutputFlag = pps.outputFlagPresentFlag ? r.flag('pic_output_flag') : true;
  const colourPlaneId = 0; // separate_colour_plane_flag is refused in the SPS.
  let slicePicOrderCntLsb = 0;
  let shortTermRefPicSetSpsFlag = false;
  let shortTermRefPicSetIdx = 0;
  let shortTermRefPicSet: H265ShortTermRps | null = null;
  let stRps: H265ShortTermRps = emptyShortTermRps;
  let stRpsBits = 0;
  let numLongTermSps = 0;
  let numLongTermPics = 0;
  const ltIdxSps: number[] = [];
  const pocLsbLt: number[] = [];
  const usedByCurrPicLt: boolean[] = [];
  const deltaPocMsbPresentFlag: boolean[] = [];
  const deltaPocMsbCycleLt: number[] = [];
  const deltaPocMsbCycleLtSum: number[] = [];
  let sliceTemporalMvpEnabledFlag = false;
  const maxDec = sps.ordering.maxDecPicBufferingMinus1[sps.spsMaxSubLayersMinus1]!;
  if (!isIdr(nalUnitType)) {
    const pocBits = sps.log2MaxPicOrderCntLsbMinus4 + 4;
    slicePicOrderCntLsb = r.u(pocBits, 'slice_pic_order_cnt_lsb');
    shortTermRefPicSetSpsFlag = r.flag('short_term_ref_pic_set_sps_flag');
    const numSets = sps.shortTermRefPicSets.length;
    if (!shortTermRefPicSetSpsFlag) {
      const before = r.bitPosition;
      shortTermRefPicSet = readShortTermRps(r, numSets, sps.shortTermRefPicSets, numSets, maxDec, what);
      stRpsBits = r.bitPosition - before;
      stRps = shortTermRefPicSet;
    } else {
      if (numSets === 0) throw new H265BitstreamError(`${what}: short_term_ref_pic_set_sps_flag is 1 but SPS ${sps.spsId} has no sets (7.4.7.1)`);
      if (numSets > 1) shortTermRefPicSetIdx = r.u(ceilLog2(numSets), 'short_term_ref_pic_set_idx');
      if (shortTermRefPicSetIdx >= numSets)
        throw new H265BitstreamError(`${what}: short_term_ref_pic_set_idx is ${shortTermRefPicSetIdx}, outside 0..${numSets - 1} (7.4.7.1)`);
      stRps = sps.shortTermRefPicSets[shortTermRefPicSetIdx]!;
    }
    if (sps.longTermRefPicsPresentFlag) {
      const inSps = sps.ltRefPicPocLsbSps.length;
      if (inSps > 0) numLongTermSps = r.ue('num_long_term_sps', inSps);
      // 7.4.7.1: the long-term pictures fit the DPB beside the short-term ones.
      const room = maxDec - stRps.numNegativePics - stRps.numPositivePics - numLongTermSps;
      numLongTermPics = r.ue('num_long_term_pics', Math.max(room, 0));
      const cycleMax = 2 ** (32 - pocBits);
      for (let i = 0; i < numLongTermSps + numLongTermPics; i++) {
        if (i < numLongTermSps) {
          const idx = inSps > 1 ? r.u(ceilLog2(inSps), 'lt_idx_sps') : 0;
          if (idx >= inSps) throw new H265BitstreamError(`${what}: lt_idx_sps[${i}] is ${idx}, outside 0..${inSps - 1} (7.4.7.1)`);
          ltIdxSps.push(idx);
          pocLsbLt.push(sps.ltRefPicPocLsbSps[idx]!);
          usedByCurrPicLt.push(sps.usedByCurrPicLtSpsFlag[idx]!);
        } else {
          ltIdxSps.push(0);
          pocLsbLt.push(r.u(pocBits, 'poc_lsb_lt'));
          usedByCurrPicLt.push(r.flag('used_by_curr_pic_lt_flag'));
        }
        const present = r.flag('delta_poc_msb_present_flag');
        const cycle = present ? r.ue('delta_poc_msb_cycle_lt', cycleMax) : 0;
        deltaPocMsbPresentFlag.push(present);
        deltaPocMsbCycleLt.push(cycle);
        // 7-52: the cycles accumulate within the SPS entries and within the header's own.
        deltaPocMsbCycleLtSum.push(i === 0 || i === numLongTermSps ? cycle : cycle + deltaPocMsbCycleLtSum[i - 1]!);
      }
    }
    if (sps.spsTemporalMvpEnabledFlag) sliceTemporalMvpEnabledFlag = r.flag('slice_temporal_mvp_enabled_flag');
  }
  let sliceSaoLumaFlag = false;
  let sliceSaoChromaFlag = false;
  if (sps.sampleAdaptiveOffsetEnabledFlag) {
    sliceSaoLumaFlag = r.flag('slice_sao_luma_flag');
    sliceSaoChromaFlag = r.flag('slice_sao_chroma_flag'); // ChromaArrayType is 1 here
  }
  const isB = sliceType === H265SliceType.B;
  const isPOrB = sliceType !== H265SliceType.I;
  let numRefIdxActiveOverrideFlag = false;
  let numRefIdxL0ActiveMinus1 = isPOrB ? pps.numRefIdxL0DefaultActiveMinus1 : 0;
  let numRefIdxL1ActiveMinus1 = isB ? pps.numRefIdxL1DefaultActiveMinus1 : 0;
  // 7-55: NumPicTotalCurr counts the pictures the current one may reference.
  let numPicTotalCurr = 0;
  for (const used of [...stRps.usedByCurrPicS0, ...stRps.usedByCurrPicS1, ...usedByCurrPicLt]) if (used) numPicTotalCurr++;
  let refPicListModificationFlagL0 = false;
  let listEntryL0: number[] = [];
  let refPicListModificationFlagL1 = false;
  let listEntryL1: number[] = [];
  let mvdL1ZeroFlag = false;
  let cabacInitFlag = false;
  let collocatedFromL0Flag = true;
  let collocatedRefIdx = 0;
  let predWeightTable = null;
  let fiveMinusMaxNumMergeCand = 0;
  if (isPOrB) {
    // 7.4.7.1: a P or B slice needs a picture to reference.
    if (numPicTotalCurr === 0)
      throw new H265BitstreamError(`${what}: a ${isB ? 'B' : 'P'} slice with NumPicTotalCurr 0 (no reference the picture may use, 7.4.7.1)`);
    numRefIdxActiveOverrideFlag = r.flag('num_ref_idx_active_override_flag');
    if (numRefIdxActiveOverrideFlag) {
      numRefIdxL0ActiveMinus1 = r.ue('num_ref_idx_l0_active_minus1', 14);
      if (isB) numRefIdxL1ActiveMinus1 = r.ue('num_ref_idx_l1_active_minus1', 14);
    }
    if (pps.listsModificationPresentFlag && numPicTotalCurr > 1) {
      ({ flag: refPicListModificationFlagL0, entries: listEntryL0 } = readListEntries(r, 0, numRefIdxL0ActiveMinus1 + 1, numPicTotalCurr, what));
      if (isB)
        ({ flag: refPicListModificationFlagL1, entries: listEntryL1 } = readListEntries(r, 1, numRefIdxL1ActiveMinus1 + 1, numPicTotalCurr, what));
    }
    if (isB) mvdL1ZeroFlag = r.flag('mvd_l1_zero_flag');
    if (pps.cabacInitPresentFlag) cabacInitFlag = r.flag('cabac_init_flag');
    if (sliceTemporalMvpEnabledFlag) {
      if (isB) collocatedFromL0Flag = r.flag('collocated_from_l0_flag');
      const most = collocatedFromL0Flag ? numRefIdxL0ActiveMinus1 : numRefIdxL1ActiveMinus1;
      if (most > 0) collocatedRefIdx = r.ue('collocated_ref_idx', most);
    }
    if ((pps.weightedPredFlag && !isB) || (pps.weightedBipredFlag && isB))
      predWeightTable = readPredWeightTable(r, 1, [numRefIdxL0ActiveMinus1 + 1, isB ? numRefIdxL1ActiveMinus1 + 1 : 0], what);
    fiveMinusMaxNumMergeCand = r.ue('five_minus_max_num_merge_cand', 4);
  }
  const sliceQpY = 26 + pps.initQpMinus26;
  const qpBdOffsetY = 6 * sps.bitDepthLumaMinus8;
  // 7.4.7.1: SliceQpY = 26 + init_qp_minus26 + slice_qp_delta lies in -QpBdOffsetY..51.
  const sliceQpDelta = r.se('slice_qp_delta', -qpBdOffsetY - sliceQpY, 51 - sliceQpY);
  let sliceCbQpOffset = 0;
  let sliceCrQpOffset = 0;
  if (pps.ppsSliceChromaQpOffsetsPresentFlag) {
    // 7.4.7.1: each in -12..12, and with the PPS's offset in -12..12.
    sliceCbQpOffset = r.se('slice_cb_qp_offset', Math.max(-12, -12 - pps.ppsCbQpOffset), Math.min(12, 12 - pps.ppsCbQpOffset));
    sliceCrQpOffset = r.se('slice_cr_qp_offset', Math.max(-12, -12 - pps.ppsCrQpOffset), Math.min(12, 12 - pps.ppsCrQpOffset));
  }
  const deblockingFilterOverrideFlag = pps.deblockingFilterOverrideEnabledFlag ? r.flag('deblocking_filter_override_flag') : false;
  let sliceDeblockingFilterDisabledFlag = pps.ppsDeblockingFilterDisabledFlag;
  let sliceBetaOffsetDiv2 = pps.ppsBetaOffsetDiv2;
  let sliceTcOffsetDiv2 = pps.ppsTcOffsetDiv2;
  if (deblockingFilterOverrideFlag) {
    sliceDeblockingFilterDisabledFlag = r.flag('slice_deblocking_filter_disabled_flag');
    if (!sliceDeblockingFilterDisabledFlag) {
      sliceBetaOffsetDiv2 = r.se('slice_beta_offset_div2', -6, 6);
      sliceTcOffsetDiv2 = r.se('slice_tc_offset_div2', -6, 6);
    }
  }
  let sliceLoopFilterAcrossSlicesEnabledFlag = pps.ppsLoopFilterAcrossSlicesEnabledFlag;
  if (pps.ppsLoopFilterAcrossSlicesEnabledFlag && (sliceSaoLumaFlag || sliceSaoChromaFlag || !sliceDeblockingFilterDisabledFlag))
    sliceLoopFilterAcrossSlicesEnabledFlag = r.flag('slice_loop_filter_across_slices_enabled_flag');
  const tail = readTail(r, sps, pps, what);
  return {
    ...common,
    sliceReservedFlags,
    sliceType,
    picOutputFlag,
    colourPlaneId,
    slicePicOrderCntLsb,
    shortTermRefPicSetSpsFlag,
    shortTermRefPicSetIdx,
    shortTermRefPicSet,
    stRps,
    stRpsBits,
    numLongTermSps,
    numLongTermPics,
    ltIdxSps,
    pocLsbLt,
    usedByCurrPicLt,
    deltaPocMsbPresentFlag,
    deltaPocMsbCycleLt,
    deltaPocMsbCycleLtSum,
    sliceTemporalMvpEnabledFlag,
    sliceSaoLumaFlag,
    sliceSaoChromaFlag,
    numRefIdxActiveOverrideFlag,
    numRefIdxL0ActiveMinus1,
    numRefIdxL1ActiveMinus1,
    numPicTotalCurr,
    refPicListModificationFlagL0,
    listEntryL0,
    refPicListModificationFlagL1,
    listEntryL1,
    mvdL1ZeroFlag,
    cabacInitFlag,
    collocatedFromL0Flag,
    collocatedRefIdx,
    predWeightTable,
    fiveMinusMaxNumMergeCand,
    sliceQpDelta,
    sliceCbQpOffset,
    sliceCrQpOffset,
    deblockingFilterOverrideFlag,
    sliceDeblockingFilterDisabledFlag,
    sliceBetaOffsetDiv2,
    sliceTcOffsetDiv2,
    sliceLoopFilterAcrossSlicesEnabledFlag,
    ...tail,
  };
}

/** Entry points, the header extension and byte_alignment(), which every slice segment has. */
function readTail(r: BitReader, sps: H265Sps, pps: H265Pps, what: string) {
  let numEntryPointOffsets = 0;
  let offsetLenMinus1 = 0;
  const entryPointOffsetMinus1: number[] = [];
  if (pps.tilesEnabledFlag || pps.entropyCodingSyncEnabledFlag) {
    numEntryPointOffsets = r.ue('num_entry_point_offsets', maxEntryPoints(sps, pps));
    if (numEntryPointOffsets > 0) {
      offsetLenMinus1 = r.ue('offset_len_minus1', 31);
      for (let i = 0; i < numEntryPointOffsets; i++) entryPointOffsetMinus1.push(r.u(offsetLenMinus1 + 1, 'entry_point_offset_minus1'));
    }
  }
  let sliceSegmentHeaderExtensionLength = 0;
  if (pps.sliceSegmentHeaderExtensionPresentFlag) {
    sliceSegmentHeaderExtensionLength = r.ue('slice_segment_header_extension_length', 256);
    r.skip(8 * sliceSegmentHeaderExtensionLength, 'slice_segment_header_extension_data_byte');
  }
  // byte_alignment() (7.3.2.12): a one bit, then zero bits up to the byte boundary.
  if (!r.flag('alignment_bit_equal_to_one')) throw new H265BitstreamError(`${what}: alignment_bit_equal_to_one is 0 (7.3.2.12)`);
  while (r.bitPosition % 8)
    if (r.flag('alignment_bit_equal_to_zero')) throw new H265BitstreamError(`${what}: alignment_bit_equal_to_zero is 1 (7.3.2.12)`);
  const sliceDataBit = 16 + r.bitPosition;
  return {
    numEntryPointOffsets,
    offsetLenMinus1,
    entryPointOffsetMinus1,
    sliceSegmentHeaderExtensionLength,
    sliceDataBit,
    sliceDataByteOffset: sliceDataBit / 8 + r.emulationBytes,
  };
}
