// The records the H.265 bitstream room hands on: the NAL unit header, the
// parameter sets and slice segment headers of Main / Main 10 / Main Still
// Picture streams, as Vulkan Video (StdVideoH265VideoParameterSet,
// StdVideoH265SequenceParameterSet, StdVideoH265PictureParameterSet,
// StdVideoDecodeH265PictureInfo) will take them. Field names follow the
// syntax element names of Rec. ITU-T H.265 (clause 7.3, Annex E) in
// camelCase; derived variables (7.4) are named as the spec names them.
// Absent elements hold the values the spec infers. Pure data: no GPU.
import type { VuiHead } from '../h264/types';

/** nal_unit_header() (7.3.1.2). */
export interface H265NalHeader {
  readonly nalUnitType: number;
  readonly nuhLayerId: number;
  readonly nuhTemporalIdPlus1: number;
  /** TemporalId = nuh_temporal_id_plus1 - 1. */
  readonly temporalId: number;
}

/** The profile part of profile_tier_level() (7.3.3), general or of a sub-layer. */
export interface H265ProfileInfo {
  readonly profileSpace: number;
  readonly tierFlag: boolean;
  readonly profileIdc: number;
  /** Bit j set: profile_compatibility_flag[j]. */
  readonly profileCompatibilityFlags: number;
  readonly progressiveSourceFlag: boolean;
  readonly interlacedSourceFlag: boolean;
  readonly nonPackedConstraintFlag: boolean;
  readonly frameOnlyConstraintFlag: boolean;
  /** The 43 bits after frame_only_constraint_flag as read (the range extensions' constraint flags, or reserved bits), most significant first. */
  readonly constraintBits: number;
  /** one_picture_only_constraint_flag where the profile sends it (Main 10 branch: bit 35 of constraintBits; range extensions: bit 33), else false. */
  readonly onePictureOnlyConstraintFlag: boolean;
  /** inbld_flag (profiles 1-5, 9) or the reserved bit in its place. */
  readonly inbldFlag: boolean;
}

/** profile_tier_level( 1, maxNumSubLayersMinus1 ) (7.3.3). */
export interface H265ProfileTierLevel {
  readonly general: H265ProfileInfo;
  /** general_level_idc: 30 times the level number (93 = level 3.1). */
  readonly generalLevelIdc: number;
  /** One per sub-layer 0..maxNumSubLayersMinus1 - 1. */
  readonly subLayers: readonly {
    readonly profilePresentFlag: boolean;
    readonly levelPresentFlag: boolean;
    readonly profile: H265ProfileInfo | null;
    /** sub_layer_level_idc, 0 when not sent. */
    readonly levelIdc: number;
  }[];
}

/**
 * The sub-layer ordering info of a VPS or SPS (StdVideoH265DecPicBufMgr):
 * one entry per sub-layer 0..max_sub_layers_minus1. Entries below the ones
 * sent (sub_layer_ordering_info_present_flag 0) copy the highest (7.4.3.1).
 */
export interface H265SubLayerOrdering {
  readonly subLayerOrderingInfoPresentFlag: boolean;
  readonly maxDecPicBufferingMinus1: readonly number[];
  readonly maxNumReorderPics: readonly number[];
  readonly maxLatencyIncreasePlus1: readonly number[];
}

/** sub_layer_hrd_parameters() (E.2.3): one entry per CPB. */
export interface H265SubLayerHrd {
  readonly bitRateValueMinus1: readonly number[];
  readonly cpbSizeValueMinus1: readonly number[];
  readonly cpbSizeDuValueMinus1: readonly number[];
  readonly bitRateDuValueMinus1: readonly number[];
  readonly cbrFlag: readonly boolean[];
}

/** hrd_parameters() (E.2.2). Per-sub-layer arrays have maxNumSubLayersMinus1 + 1 entries. */
export interface H265Hrd {
  readonly commonInfPresentFlag: boolean;
  readonly nalHrdParametersPresentFlag: boolean;
  readonly vclHrdParametersPresentFlag: boolean;
  readonly subPicHrdParamsPresentFlag: boolean;
  readonly tickDivisorMinus2: number;
  readonly duCpbRemovalDelayIncrementLengthMinus1: number;
  readonly subPicCpbParamsInPicTimingSeiFlag: boolean;
  readonly dpbOutputDelayDuLengthMinus1: number;
  readonly bitRateScale: number;
  readonly cpbSizeScale: number;
  readonly cpbSizeDuScale: number;
  /** 23 (a 24-bit field) when not sent, as E.3.2 infers. */
  readonly initialCpbRemovalDelayLengthMinus1: number;
  readonly auCpbRemovalDelayLengthMinus1: number;
  readonly dpbOutputDelayLengthMinus1: number;
  readonly fixedPicRateGeneralFlag: readonly boolean[];
  readonly fixedPicRateWithinCvsFlag: readonly boolean[];
  readonly elementalDurationInTcMinus1: readonly number[];
  readonly lowDelayHrdFlag: readonly boolean[];
  readonly cpbCntMinus1: readonly number[];
  /** Per sub-layer, null where nal_hrd_parameters_present_flag is 0. */
  readonly nal: readonly (H265SubLayerHrd | null)[];
  readonly vcl: readonly (H265SubLayerHrd | null)[];
}

/** video_parameter_set_rbsp() (7.3.2.1). */
export interface H265Vps {
  readonly vpsId: number;
  readonly vpsBaseLayerInternalFlag: boolean;
  readonly vpsBaseLayerAvailableFlag: boolean;
  readonly vpsMaxLayersMinus1: number;
  readonly vpsMaxSubLayersMinus1: number;
  readonly vpsTemporalIdNestingFlag: boolean;
  readonly profileTierLevel: H265ProfileTierLevel;
  readonly ordering: H265SubLayerOrdering;
  readonly vpsMaxLayerId: number;
  readonly vpsNumLayerSetsMinus1: number;
  /** layerIdIncludedFlag[i - 1][j] = layer_id_included_flag[i][j], i = 1..vps_num_layer_sets_minus1. */
  readonly layerIdIncludedFlag: readonly (readonly boolean[])[];
  readonly vpsTimingInfoPresentFlag: boolean;
  readonly vpsNumUnitsInTick: number;
  readonly vpsTimeScale: number;
  readonly vpsPocProportionalToTimingFlag: boolean;
  readonly vpsNumTicksPocDiffOneMinus1: number;
  readonly hrdLayerSetIdx: readonly number[];
  readonly cprmsPresentFlag: readonly boolean[];
  readonly hrd: readonly H265Hrd[];
  readonly vpsExtensionFlag: boolean;
}

/**
 * scaling_list_data() (7.3.4) resolved to the lists a decoder uses
 * (ScalingList[sizeId][matrixId][i] in up-right diagonal scan order, as
 * StdVideoH265ScalingLists holds them): lists predicted from another or from
 * the defaults (Tables 7-5, 7-6) are filled in.
 */
export interface H265ScalingLists {
  /** scaling_list_pred_mode_flag[sizeId][matrixId] (sizeId 3: matrixId 0 and 3 at indices 0 and 1). */
  readonly predModeFlag: readonly (readonly boolean[])[];
  /** scaling_list_pred_matrix_id_delta, 0 where not sent. */
  readonly predMatrixIdDelta: readonly (readonly number[])[];
  /** Six lists of 16. */
  readonly list4x4: readonly Uint8Array[];
  /** Six lists of 64 (8x8, 16x16 and 32x32 are sent as 8x8 and upsampled). */
  readonly list8x8: readonly Uint8Array[];
  readonly list16x16: readonly Uint8Array[];
  /** Two lists (matrixId 0 and 3). */
  readonly list32x32: readonly Uint8Array[];
  /** scaling_list_dc_coef_minus8 + 8 (or the DC of the list predicted from; 16 by default). */
  readonly dcCoef16x16: readonly number[];
  readonly dcCoef32x32: readonly number[];
}

/**
 * st_ref_pic_set() (7.3.7) with the derived lists of 7.4.8 (predicted sets
 * are resolved): DeltaPocS0 (negative, decreasing) and DeltaPocS1 (positive,
 * increasing), and which of them the current picture uses.
 */
export interface H265ShortTermRps {
  readonly interRefPicSetPredictionFlag: boolean;
  /** delta_idx_minus1: only sent in a slice header's set; 0 otherwise. */
  readonly deltaIdxMinus1: number;
  readonly deltaRpsSign: boolean;
  readonly absDeltaRpsMinus1: number;
  /** used_by_curr_pic_flag[j] and use_delta_flag[j], j = 0..NumDeltaPocs[RefRpsIdx] (predicted sets only). */
  readonly usedByCurrPicFlag: readonly boolean[];
  readonly useDeltaFlag: readonly boolean[];
  readonly numNegativePics: number;
  readonly numPositivePics: number;
  readonly deltaPocS0: readonly number[];
  readonly deltaPocS1: readonly number[];
  readonly usedByCurrPicS0: readonly boolean[];
  readonly usedByCurrPicS1: readonly boolean[];
}

/** vui_parameters() (E.2.1). */
export interface H265Vui extends VuiHead {
  readonly neutralChromaIndicationFlag: boolean;
  readonly fieldSeqFlag: boolean;
  readonly frameFieldInfoPresentFlag: boolean;
  readonly defaultDisplayWindowFlag: boolean;
  readonly defDispWinLeftOffset: number;
  readonly defDispWinRightOffset: number;
  readonly defDispWinTopOffset: number;
  readonly defDispWinBottomOffset: number;
  readonly vuiTimingInfoPresentFlag: boolean;
  readonly vuiNumUnitsInTick: number;
  readonly vuiTimeScale: number;
  readonly vuiPocProportionalToTimingFlag: boolean;
  readonly vuiNumTicksPocDiffOneMinus1: number;
  readonly vuiHrdParametersPresentFlag: boolean;
  readonly hrd: H265Hrd | null;
  readonly bitstreamRestrictionFlag: boolean;
  readonly tilesFixedStructureFlag: boolean;
  /** 1 when absent (E.3.1). */
  readonly motionVectorsOverPicBoundariesFlag: boolean;
  readonly restrictedRefPicListsFlag: boolean;
  readonly minSpatialSegmentationIdc: number;
  /** 2 when absent, as E.3.1 infers. */
  readonly maxBytesPerPicDenom: number;
  /** 1 when absent. */
  readonly maxBitsPerMinCuDenom: number;
  /** 15 when absent, as is the vertical one. */
  readonly log2MaxMvLengthHorizontal: number;
  readonly log2MaxMvLengthVertical: number;
}

/** The extension flags of an SPS or PPS (7.3.2.2.1, 7.3.2.3.1); all false when *_extension_present_flag is 0. */
export interface H265ExtensionFlags {
  readonly extensionPresentFlag: boolean;
  readonly rangeExtensionFlag: boolean;
  readonly multilayerExtensionFlag: boolean;
  readonly extension3dFlag: boolean;
  readonly sccExtensionFlag: boolean;
  readonly extension4bits: number;
}

/** seq_parameter_set_rbsp() (7.3.2.2.1) and the variables of 7.4.3.2.1 a decoder uses. */
export interface H265Sps {
  readonly vpsId: number;
  readonly spsMaxSubLayersMinus1: number;
  readonly spsTemporalIdNestingFlag: boolean;
  readonly profileTierLevel: H265ProfileTierLevel;
  readonly spsId: number;
  readonly chromaFormatIdc: number;
  readonly separateColourPlaneFlag: boolean;
  readonly picWidthInLumaSamples: number;
  readonly picHeightInLumaSamples: number;
  readonly conformanceWindowFlag: boolean;
  /** In chroma sample units (SubWidthC / SubHeightC luma samples each). */
  readonly confWinLeftOffset: number;
  readonly confWinRightOffset: number;
  readonly confWinTopOffset: number;
  readonly confWinBottomOffset: number;
  readonly bitDepthLumaMinus8: number;
  readonly bitDepthChromaMinus8: number;
  readonly log2MaxPicOrderCntLsbMinus4: number;
  readonly ordering: H265SubLayerOrdering;
  readonly log2MinLumaCodingBlockSizeMinus3: number;
  readonly log2DiffMaxMinLumaCodingBlockSize: number;
  readonly log2MinLumaTransformBlockSizeMinus2: number;
  readonly log2DiffMaxMinLumaTransformBlockSize: number;
  readonly maxTransformHierarchyDepthInter: number;
  readonly maxTransformHierarchyDepthIntra: number;
  readonly scalingListEnabledFlag: boolean;
  readonly spsScalingListDataPresentFlag: boolean;
  /** The lists sent, or the defaults (Tables 7-5, 7-6) when scaling is on and none were sent; null when scaling_list_enabled_flag is 0. */
  readonly scalingLists: H265ScalingLists | null;
  readonly ampEnabledFlag: boolean;
  readonly sampleAdaptiveOffsetEnabledFlag: boolean;
  readonly pcmEnabledFlag: boolean;
  readonly pcmSampleBitDepthLumaMinus1: number;
  readonly pcmSampleBitDepthChromaMinus1: number;
  readonly log2MinPcmLumaCodingBlockSizeMinus3: number;
  readonly log2DiffMaxMinPcmLumaCodingBlockSize: number;
  readonly pcmLoopFilterDisabledFlag: boolean;
  /** num_short_term_ref_pic_sets entries. */
  readonly shortTermRefPicSets: readonly H265ShortTermRps[];
  readonly longTermRefPicsPresentFlag: boolean;
  readonly ltRefPicPocLsbSps: readonly number[];
  readonly usedByCurrPicLtSpsFlag: readonly boolean[];
  readonly spsTemporalMvpEnabledFlag: boolean;
  readonly strongIntraSmoothingEnabledFlag: boolean;
  readonly vuiParametersPresentFlag: boolean;
  readonly vui: H265Vui | null;
  readonly extensions: H265ExtensionFlags;

  /** Derived (7.4.3.2.1). */
  readonly bitDepthLuma: number;
  readonly bitDepthChroma: number;
  readonly maxPicOrderCntLsb: number;
  readonly minCbLog2SizeY: number;
  readonly ctbLog2SizeY: number;
  readonly ctbSizeY: number;
  readonly picWidthInCtbsY: number;
  readonly picHeightInCtbsY: number;
  readonly picSizeInCtbsY: number;
  /** The conformance window in luma samples: the picture to show. */
  readonly crop: { readonly left: number; readonly top: number; readonly width: number; readonly height: number };
}

/** pic_parameter_set_rbsp() (7.3.2.3.1). */
export interface H265Pps {
  readonly ppsId: number;
  readonly spsId: number;
  readonly dependentSliceSegmentsEnabledFlag: boolean;
  readonly outputFlagPresentFlag: boolean;
  readonly numExtraSliceHeaderBits: number;
  readonly signDataHidingEnabledFlag: boolean;
  readonly cabacInitPresentFlag: boolean;
  readonly numRefIdxL0DefaultActiveMinus1: number;
  readonly numRefIdxL1DefaultActiveMinus1: number;
  readonly initQpMinus26: number;
  readonly constrainedIntraPredFlag: boolean;
  readonly transformSkipEnabledFlag: boolean;
  readonly cuQpDeltaEnabledFlag: boolean;
  readonly diffCuQpDeltaDepth: number;
  readonly ppsCbQpOffset: number;
  readonly ppsCrQpOffset: number;
  readonly ppsSliceChromaQpOffsetsPresentFlag: boolean;
  readonly weightedPredFlag: boolean;
  readonly weightedBipredFlag: boolean;
  readonly transquantBypassEnabledFlag: boolean;
  readonly tilesEnabledFlag: boolean;
  readonly entropyCodingSyncEnabledFlag: boolean;
  readonly numTileColumnsMinus1: number;
  readonly numTileRowsMinus1: number;
  /** 1 when tiles are off (one tile). */
  readonly uniformSpacingFlag: boolean;
  /** As sent (num_tile_columns_minus1 entries when uniform_spacing_flag is 0), else empty. */
  readonly columnWidthMinus1: readonly number[];
  readonly rowHeightMinus1: readonly number[];
  /** Every tile column's width and row's height in CTBs (6.5.1: colWidth, rowHeight), sent or uniform. */
  readonly colWidth: readonly number[];
  readonly rowHeight: readonly number[];
  /** 1 when absent (7.4.3.3.1). */
  readonly loopFilterAcrossTilesEnabledFlag: boolean;
  readonly ppsLoopFilterAcrossSlicesEnabledFlag: boolean;
  readonly deblockingFilterControlPresentFlag: boolean;
  readonly deblockingFilterOverrideEnabledFlag: boolean;
  readonly ppsDeblockingFilterDisabledFlag: boolean;
  readonly ppsBetaOffsetDiv2: number;
  readonly ppsTcOffsetDiv2: number;
  readonly ppsScalingListDataPresentFlag: boolean;
  /** The PPS's lists when sent, else null (the SPS's apply). */
  readonly scalingLists: H265ScalingLists | null;
  readonly listsModificationPresentFlag: boolean;
  readonly log2ParallelMergeLevelMinus2: number;
  readonly sliceSegmentHeaderExtensionPresentFlag: boolean;
  readonly extensions: H265ExtensionFlags;
}

/** pred_weight_table() (7.3.6.3) as sent; arrays indexed by reference index (chroma: [i * 2 + j], j = 0 Cb, 1 Cr). */
export interface H265PredWeightTable {
  readonly lumaLog2WeightDenom: number;
  readonly deltaChromaLog2WeightDenom: number;
  /** Bit i set: luma_weight_lX_flag[i], per list. */
  readonly lumaWeightFlags: readonly [number, number];
  readonly chromaWeightFlags: readonly [number, number];
  readonly deltaLumaWeight: readonly [readonly number[], readonly number[]];
  readonly lumaOffset: readonly [readonly number[], readonly number[]];
  readonly deltaChromaWeight: readonly [readonly number[], readonly number[]];
  readonly deltaChromaOffset: readonly [readonly number[], readonly number[]];
}

/** slice_type (7.4.7.1). */
export const H265SliceType = { B: 0, P: 1, I: 2 } as const;

/** slice_segment_header() (7.3.6.1). A dependent slice segment's slice fields are those of the segment before it. */
export interface H265SliceHeader {
  readonly nalUnitType: number;
  readonly temporalId: number;
  readonly firstSliceSegmentInPicFlag: boolean;
  readonly noOutputOfPriorPicsFlag: boolean;
  readonly ppsId: number;
  readonly dependentSliceSegmentFlag: boolean;
  readonly sliceSegmentAddress: number;
  /** slice_reserved_flag[i]: bit i. */
  readonly sliceReservedFlags: number;
  readonly sliceType: number;
  /** 1 when absent. */
  readonly picOutputFlag: boolean;
  readonly colourPlaneId: number;
  readonly slicePicOrderCntLsb: number;
  readonly shortTermRefPicSetSpsFlag: boolean;
  readonly shortTermRefPicSetIdx: number;
  /** The set sent in the header (index num_short_term_ref_pic_sets), or null. */
  readonly shortTermRefPicSet: H265ShortTermRps | null;
  /** The set in use: the header's, the SPS's chosen one, or an empty one (IDR). */
  readonly stRps: H265ShortTermRps;
  /** Bits st_ref_pic_set() took in the header (Vulkan's NumBitsForSTRefPicSetInSlice); 0 when not sent. */
  readonly stRpsBits: number;
  readonly numLongTermSps: number;
  readonly numLongTermPics: number;
  /** Per long-term entry i (num_long_term_sps + num_long_term_pics). */
  readonly ltIdxSps: readonly number[];
  readonly pocLsbLt: readonly number[];
  readonly usedByCurrPicLt: readonly boolean[];
  readonly deltaPocMsbPresentFlag: readonly boolean[];
  readonly deltaPocMsbCycleLt: readonly number[];
  /** DeltaPocMsbCycleLt (7-52): the cycles summed within the SPS part and within the header part. */
  readonly deltaPocMsbCycleLtSum: readonly number[];
  readonly sliceTemporalMvpEnabledFlag: boolean;
  readonly sliceSaoLumaFlag: boolean;
  readonly sliceSaoChromaFlag: boolean;
  readonly numRefIdxActiveOverrideFlag: boolean;
  /** As in use (the PPS default unless overridden); 0 for lists the slice type does not have. */
  readonly numRefIdxL0ActiveMinus1: number;
  readonly numRefIdxL1ActiveMinus1: number;
  /** NumPicTotalCurr (7-55). */
  readonly numPicTotalCurr: number;
  readonly refPicListModificationFlagL0: boolean;
  readonly listEntryL0: readonly number[];
  readonly refPicListModificationFlagL1: boolean;
  readonly listEntryL1: readonly number[];
  readonly mvdL1ZeroFlag: boolean;
  readonly cabacInitFlag: boolean;
  /** 1 when absent. */
  readonly collocatedFromL0Flag: boolean;
  readonly collocatedRefIdx: number;
  readonly predWeightTable: H265PredWeightTable | null;
  readonly fiveMinusMaxNumMergeCand: number;
  readonly sliceQpDelta: number;
  readonly sliceCbQpOffset: number;
  readonly sliceCrQpOffset: number;
  readonly deblockingFilterOverrideFlag: boolean;
  /** The PPS's values unless overridden. */
  readonly sliceDeblockingFilterDisabledFlag: boolean;
  readonly sliceBetaOffsetDiv2: number;
  readonly sliceTcOffsetDiv2: number;
  readonly sliceLoopFilterAcrossSlicesEnabledFlag: boolean;
  readonly numEntryPointOffsets: number;
  readonly offsetLenMinus1: number;
  readonly entryPointOffsetMinus1: readonly number[];
  readonly sliceSegmentHeaderExtensionLength: number;
  /** Where the slice segment data begins: in RBSP bits from the start of the NAL unit (its 2-byte header included), a multiple of 8. */
  readonly sliceDataBit: number;
  /** The same place in the NAL unit's bytes as sent (emulation prevention bytes within the header counted). */
  readonly sliceDataByteOffset: number;
}
