// The records the H.264 bitstream room hands to a decoder back end: parameter
// sets, slice headers and, per coded picture, everything Vulkan Video
// (StdVideoH264SequenceParameterSet / PictureParameterSet, StdVideoDecodeH264PictureInfo,
// StdVideoDecodeH264ReferenceInfo) and VA-API (VAPictureParameterBufferH264,
// VASliceParameterBufferH264, VAIQMatrixBufferH264) take. Field names follow the
// spec's syntax element names in camelCase (Rec. ITU-T H.264, clause 7.3/7.4).
// Pure data: no GPU, no addon.

/**
 * Scaling lists in the spec's syntax order (ScalingList4x4[i][j] and
 * ScalingList8x8[i][j] of 7.3.2.1.1.1, i.e. zig-zag scan order: j is the
 * position in the scan, not in the block; `zigzag4x4` / `zigzag8x8` in
 * lib/video/h264/scaling.ts map a scan index to its raster position).
 * Every list is filled: lists not sent, or sent as "use default", hold the
 * values the fall-back rules (Table 7-2: rule A for an SPS, and for a PPS
 * whose SPS sent no matrix; rule B for a PPS whose SPS did) give, so a back end can use `list4x4` / `list8x8` as the final weights.
 */
export interface H264ScalingLists {
  /** Bit i set: scaling_list_present_flag[i] was 1 (i = 0..11; 0-5 are 4x4, 6-11 are 8x8). */
  readonly presentMask: number;
  /** Bit i set: list i was sent as "use default" (UseDefaultScalingMatrix4x4Flag / 8x8Flag). */
  readonly useDefaultMask: number;
  /** Six 4x4 lists (Intra Y, Intra Cb, Intra Cr, Inter Y, Inter Cb, Inter Cr), 16 entries each, scan order. */
  readonly list4x4: readonly Uint8Array[];
  /** Six 8x8 lists (Intra Y, Inter Y, Intra Cb, Inter Cb, Intra Cr, Inter Cr), 64 entries each, scan order. Only 0-1 are used unless 4:4:4. */
  readonly list8x8: readonly Uint8Array[];
}

/** hrd_parameters() (E.1.2). Arrays have cpbCntMinus1 + 1 entries. */
export interface H264HrdParameters {
  readonly cpbCntMinus1: number;
  readonly bitRateScale: number;
  readonly cpbSizeScale: number;
  readonly bitRateValueMinus1: readonly number[];
  readonly cpbSizeValueMinus1: readonly number[];
  readonly cbrFlag: readonly boolean[];
  readonly initialCpbRemovalDelayLengthMinus1: number;
  readonly cpbRemovalDelayLengthMinus1: number;
  readonly dpbOutputDelayLengthMinus1: number;
  readonly timeOffsetLength: number;
}

/** vui_parameters() (E.1.1). Absent elements hold the values E.2.1 infers. */
/**
 * The start of vui_parameters(), the same syntax in H.264 and H.265 (E.1.1 / E.2.1 of each): aspect ratio, overscan,
 * video signal type and chroma sample location, with the values absent fields take.
 */
export interface VuiHead {
  readonly aspectRatioInfoPresentFlag: boolean;
  readonly aspectRatioIdc: number;
  readonly sarWidth: number;
  readonly sarHeight: number;
  readonly overscanInfoPresentFlag: boolean;
  readonly overscanAppropriateFlag: boolean;
  readonly videoSignalTypePresentFlag: boolean;
  /** 5 (unspecified) when absent. */
  readonly videoFormat: number;
  readonly videoFullRangeFlag: boolean;
  readonly colourDescriptionPresentFlag: boolean;
  /** 2 (unspecified) when absent, as are the next two. */
  readonly colourPrimaries: number;
  readonly transferCharacteristics: number;
  /** matrix_coefficients (H.264), matrix_coeffs (H.265). */
  readonly matrixCoefficients: number;
  readonly chromaLocInfoPresentFlag: boolean;
  readonly chromaSampleLocTypeTopField: number;
  readonly chromaSampleLocTypeBottomField: number;
}

export interface H264Vui extends VuiHead {
  readonly timingInfoPresentFlag: boolean;
  readonly numUnitsInTick: number;
  readonly timeScale: number;
  readonly fixedFrameRateFlag: boolean;
  readonly nalHrdParametersPresentFlag: boolean;
  readonly nalHrd: H264HrdParameters | null;
  readonly vclHrdParametersPresentFlag: boolean;
  readonly vclHrd: H264HrdParameters | null;
  readonly lowDelayHrdFlag: boolean;
  readonly picStructPresentFlag: boolean;
  readonly bitstreamRestrictionFlag: boolean;
  readonly motionVectorsOverPicBoundariesFlag: boolean;
  readonly maxBytesPerPicDenom: number;
  readonly maxBitsPerMbDenom: number;
  readonly log2MaxMvLengthHorizontal: number;
  readonly log2MaxMvLengthVertical: number;
  /** As sent, or inferred per E.2.1 when bitstream_restriction_flag is 0 (see H264Sps.dpbFrames for what the sequencer uses). */
  readonly maxNumReorderFrames: number;
  readonly maxDecFrameBuffering: number;
}

/** seq_parameter_set_data() (7.3.2.1.1) plus the values derived from it. */
export interface H264Sps {
  readonly spsId: number;
  /** Increments each time an SPS with this id arrives with different content (starts at 1). */
  readonly version: number;
  readonly profileIdc: number;
  /** constraint_set0_flag..constraint_set5_flag as bits 0..5. */
  readonly constraintFlags: number;
  readonly levelIdc: number;
  /** 1 = 4:2:0 (inferred 1 when the profile does not send it). */
  readonly chromaFormatIdc: number;
  readonly separateColourPlaneFlag: boolean;
  readonly bitDepthLumaMinus8: number;
  readonly bitDepthChromaMinus8: number;
  readonly qpprimeYZeroTransformBypassFlag: boolean;
  readonly seqScalingMatrixPresentFlag: boolean;
  /** Resolved by fall-back rule A; flat 16 everywhere when seq_scaling_matrix_present_flag is 0. */
  readonly scalingLists: H264ScalingLists;
  readonly log2MaxFrameNumMinus4: number;
  readonly picOrderCntType: number;
  readonly log2MaxPicOrderCntLsbMinus4: number;
  readonly deltaPicOrderAlwaysZeroFlag: boolean;
  readonly offsetForNonRefPic: number;
  readonly offsetForTopToBottomField: number;
  readonly numRefFramesInPicOrderCntCycle: number;
  readonly offsetForRefFrame: readonly number[];
  readonly maxNumRefFrames: number;
  readonly gapsInFrameNumValueAllowedFlag: boolean;
  readonly picWidthInMbsMinus1: number;
  readonly picHeightInMapUnitsMinus1: number;
  readonly frameMbsOnlyFlag: boolean;
  readonly mbAdaptiveFrameFieldFlag: boolean;
  readonly direct8x8InferenceFlag: boolean;
  readonly frameCroppingFlag: boolean;
  readonly frameCropLeftOffset: number;
  readonly frameCropRightOffset: number;
  readonly frameCropTopOffset: number;
  readonly frameCropBottomOffset: number;
  readonly vuiParametersPresentFlag: boolean;
  readonly vui: H264Vui | null;

  // Derived (7.4.2.1.1).
  /** MaxFrameNum = 2^(log2_max_frame_num_minus4 + 4). */
  readonly maxFrameNum: number;
  /** MaxPicOrderCntLsb (POC type 0). */
  readonly maxPicOrderCntLsb: number;
  /** ExpectedDeltaPerPicOrderCntCycle (POC type 1). */
  readonly expectedDeltaPerPicOrderCntCycle: number;
  /** Coded size in luma samples (multiples of 16; frames only). */
  readonly codedWidth: number;
  readonly codedHeight: number;
  /** The visible rectangle after frame cropping, in luma samples. */
  readonly crop: H264Crop;
  /**
   * DPB size in frames the sequencer bumps with (C.4.5.3): max_dec_frame_buffering
   * when the VUI sends it, else MaxDpbFrames of Table A-1 for the level and size
   * (at least max_num_ref_frames, at most 16).
   */
  readonly dpbFrames: number;
  /** max_num_reorder_frames when the VUI sends it, else dpbFrames. */
  readonly maxNumReorderFrames: number;
}

/** pic_parameter_set_rbsp() (7.3.2.2). */
export interface H264Pps {
  readonly ppsId: number;
  readonly spsId: number;
  /** Increments each time a PPS with this id arrives with different content (starts at 1). */
  readonly version: number;
  readonly entropyCodingModeFlag: boolean;
  readonly bottomFieldPicOrderInFramePresentFlag: boolean;
  readonly numSliceGroupsMinus1: number;
  readonly numRefIdxL0DefaultActiveMinus1: number;
  readonly numRefIdxL1DefaultActiveMinus1: number;
  readonly weightedPredFlag: boolean;
  readonly weightedBipredIdc: number;
  readonly picInitQpMinus26: number;
  readonly picInitQsMinus26: number;
  readonly chromaQpIndexOffset: number;
  readonly deblockingFilterControlPresentFlag: boolean;
  readonly constrainedIntraPredFlag: boolean;
  readonly redundantPicCntPresentFlag: boolean;
  readonly transform8x8ModeFlag: boolean;
  readonly picScalingMatrixPresentFlag: boolean;
  /**
   * The lists in force for pictures using this PPS: when pic_scaling_matrix_present_flag
   * is 1, resolved by fall-back rule B (lists 0, 3, 6, 7 fall back to the SPS's) when
   * the SPS sent a matrix, else by rule A (to the defaults); when it is 0, the SPS's
   * lists (7.4.2.2). Resolved against the SPS active when the PPS is used.
   */
  readonly scalingLists: H264ScalingLists;
  /** Equal to chroma_qp_index_offset when not sent (7.4.2.2). */
  readonly secondChromaQpIndexOffset: number;
}

/** Visible rectangle in luma samples. */
export interface H264Crop {
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
}

/** One ref_pic_list_modification() operation (7.3.3.1). */
export interface H264RefPicListModification {
  /** modification_of_pic_nums_idc: 0 subtract, 1 add (abs_diff_pic_num_minus1), 2 long_term_pic_num. */
  readonly idc: number;
  /** abs_diff_pic_num_minus1 for idc 0/1, long_term_pic_num for idc 2. */
  readonly value: number;
}

/** One memory_management_control_operation of dec_ref_pic_marking() (7.3.3.3). */
export interface H264Mmco {
  /** memory_management_control_operation, 1..6. */
  readonly op: number;
  /** difference_of_pic_nums_minus1 (ops 1, 3). */
  readonly differenceOfPicNumsMinus1: number;
  /** long_term_pic_num (op 2). */
  readonly longTermPicNum: number;
  /** long_term_frame_idx (ops 3, 6). */
  readonly longTermFrameIdx: number;
  /** max_long_term_frame_idx_plus1 (op 4). */
  readonly maxLongTermFrameIdxPlus1: number;
}

/** pred_weight_table() (7.3.3.2), entries per reference index with the inferred defaults filled in. */
export interface H264PredWeightTable {
  readonly lumaLog2WeightDenom: number;
  readonly chromaLog2WeightDenom: number;
  /** Per list (0, 1): luma_weight_lX_flag per index, as a bit mask over indices 0..31. */
  readonly lumaWeightFlags: readonly [number, number];
  readonly chromaWeightFlags: readonly [number, number];
  /** Per list, per index: luma weight and offset (defaults 2^denom and 0 when the flag is 0). */
  readonly lumaWeight: readonly [readonly number[], readonly number[]];
  readonly lumaOffset: readonly [readonly number[], readonly number[]];
  /** Per list, per index * 2 + (0 Cb, 1 Cr). */
  readonly chromaWeight: readonly [readonly number[], readonly number[]];
  readonly chromaOffset: readonly [readonly number[], readonly number[]];
}

/** slice_header() (7.3.3) of one slice NAL unit. */
export interface H264SliceHeader {
  readonly nalUnitType: number;
  readonly nalRefIdc: number;
  readonly firstMbInSlice: number;
  /** slice_type as sent (0..9). */
  readonly sliceType: number;
  /** slice_type % 5: 0 P, 1 B, 2 I, 3 SP, 4 SI. */
  readonly sliceKind: number;
  readonly ppsId: number;
  readonly colourPlaneId: number;
  readonly frameNum: number;
  readonly fieldPicFlag: boolean;
  readonly bottomFieldFlag: boolean;
  readonly idrPicId: number;
  readonly picOrderCntLsb: number;
  readonly deltaPicOrderCntBottom: number;
  readonly deltaPicOrderCnt0: number;
  readonly deltaPicOrderCnt1: number;
  readonly redundantPicCnt: number;
  readonly directSpatialMvPredFlag: boolean;
  readonly numRefIdxActiveOverrideFlag: boolean;
  /** num_ref_idx_l0_active_minus1 after the override / PPS default (0 for I slices). */
  readonly numRefIdxL0ActiveMinus1: number;
  /** Likewise for list 1 (0 unless B). */
  readonly numRefIdxL1ActiveMinus1: number;
  readonly refPicListModificationL0: readonly H264RefPicListModification[];
  readonly refPicListModificationL1: readonly H264RefPicListModification[];
  /** Present for P/SP slices with weighted_pred_flag and B slices with weighted_bipred_idc 1. */
  readonly predWeightTable: H264PredWeightTable | null;
  readonly noOutputOfPriorPicsFlag: boolean;
  readonly longTermReferenceFlag: boolean;
  readonly adaptiveRefPicMarkingModeFlag: boolean;
  readonly mmcos: readonly H264Mmco[];
  readonly cabacInitIdc: number;
  readonly sliceQpDelta: number;
  readonly spForSwitchFlag: boolean;
  readonly sliceQsDelta: number;
  readonly disableDeblockingFilterIdc: number;
  readonly sliceAlphaC0OffsetDiv2: number;
  readonly sliceBetaOffsetDiv2: number;
  readonly sliceGroupChangeCycle: number;
  /**
   * Bits of slice_header() in the RBSP after the 1-byte NAL header, emulation
   * prevention bytes removed, cabac_alignment_one_bit not counted
   * (VASliceParameterBufferH264.slice_data_bit_offset is 8 + headerBits).
   */
  readonly headerBits: number;
  /** Emulation prevention bytes (00 00 03) met inside the header: its length in the NAL unit as sent is 8 + headerBits + 8 * this. */
  readonly headerEmulationBytes: number;
}

/** A picture marked "used for reference" before the current picture is decoded. */
export interface H264ReferenceEntry {
  /** The DPB slot it was decoded into. */
  readonly slot: number;
  /** FrameNum for a short-term reference, LongTermFrameIdx when `longTerm`. */
  readonly frameNum: number;
  readonly longTerm: boolean;
  /** A frame the decoder inferred for a frame_num gap (8.2.5.2): its slot holds no decoded picture. */
  readonly nonExisting: boolean;
  readonly poc: { readonly top: number; readonly bottom: number };
  /** decodeIndex of the picture (-1 for a non-existing frame). */
  readonly decodeIndex: number;
}

/** One slice of a picture: its header and its reference lists as DPB slots. */
export interface H264Slice {
  readonly header: H264SliceHeader;
  /** Byte offset of this slice's start code in H264Picture.data. */
  readonly offset: number;
  /** Byte length of the slice NAL unit in data, start code included. */
  readonly size: number;
  /** RefPicList0 / RefPicList1 after modification (8.2.4), as slots; -1 for "no reference picture". */
  readonly refPicList0: readonly number[];
  readonly refPicList1: readonly number[];
}

/** A coded frame in decode order, ready for a decoder back end. */
export interface H264Picture {
  /** 0, 1, 2, ... in decode order; output notifications name pictures by it. */
  readonly decodeIndex: number;
  readonly sps: H264Sps;
  readonly pps: H264Pps;
  readonly spsId: number;
  readonly ppsId: number;
  /** Increments whenever any SPS or PPS changes content (or a new id arrives): re-create session parameters when it moves. */
  readonly parametersVersion: number;
  /** The picture's slice NAL units, each after a 00 00 01 start code, emulation prevention bytes kept. */
  readonly data: Uint8Array;
  /** Byte offset of each slice's start code in data. */
  readonly sliceOffsets: readonly number[];
  readonly slices: readonly H264Slice[];
  readonly frameNum: number;
  readonly idrPicId: number;
  readonly isIdr: boolean;
  /** Every slice is I or SI. */
  readonly isIntra: boolean;
  /** nal_ref_idc != 0. */
  readonly isReference: boolean;
  /** Marked long-term by its own dec_ref_pic_marking (long_term_reference_flag or MMCO 6). */
  readonly isLongTerm: boolean;
  /**
   * Had memory_management_control_operation 5: it is decoded with the POCs
   * below, then (8.2.1) counts as frame_num 0 with its POCs reduced by
   * tempPicOrderCnt, as later pictures' `references` show it.
   */
  readonly hasMmco5: boolean;
  /** PicOrderCnt of the frame's top and bottom fields (8.2.1) it is decoded with. */
  readonly poc: { readonly top: number; readonly bottom: number };
  /** Min(top, bottom): PicOrderCnt(CurrPic) (8-1). */
  readonly picOrderCnt: number;
  /** The DPB slot this picture is decoded into. */
  readonly setupSlot: number;
  /** Every picture marked "used for reference" before this one is decoded (pReferenceSlots), non-existing frames included. */
  readonly references: readonly H264ReferenceEntry[];
  /** Per slice: RefPicList0 / RefPicList1 as slots (same as slices[i].refPicList0/1). */
  readonly refPicList0: readonly (readonly number[])[];
  readonly refPicList1: readonly (readonly number[])[];
  readonly crop: H264Crop;
  readonly codedWidth: number;
  readonly codedHeight: number;
}

/** What the sequencer produces, in the order a decoder must act on it. */
export type H264Event =
  /** Decode this picture now (into setupSlot). */
  | { readonly type: 'picture'; readonly picture: H264Picture }
  /**
   * Output (display) the picture with this decodeIndex now; it was decoded by an
   * earlier 'picture' event. `discard` is true when the stream asks for it not
   * to be shown (an IDR's no_output_of_prior_pics_flag, C.4.4): release it unseen.
   */
  | { readonly type: 'output'; readonly decodeIndex: number; readonly discard?: boolean };

/** Limits a decoder passes from its device; a stream past them is refused with H264UnsupportedError before any picture. */
export interface H264SequencerOptions {
  /** Largest coded width in luma samples (default 4096). */
  readonly maxWidth?: number;
  /** Largest coded height in luma samples (default 4096). */
  readonly maxHeight?: number;
  /** DPB slots the decoder has (default 17): max_num_ref_frames + 1 must fit. */
  readonly maxSlots?: number;
  /** Highest level_idc accepted (default 62 = level 6.2). */
  readonly maxLevelIdc?: number;
  /** profile_idc values accepted (default Constrained Baseline / Baseline 66, Main 77, Extended 88 without its extras, High 100). */
  readonly profiles?: readonly number[];
}

/**
 * The stream is malformed: a read past the end, a value out of the range the
 * spec allows, a reference to a missing parameter set. `reason` says what, in
 * words naming the syntax element and clause.
 */
export class H264BitstreamError extends Error {
  override name = 'H264BitstreamError';
  /** What was wrong, e.g. "pic_parameter_set_id 300 is past 255 (7.4.3)". */
  readonly reason: string;
  constructor(reason: string) {
    super(`H.264 bitstream error: ${reason}`);
    this.reason = reason;
  }
}

/**
 * The stream is valid H.264 but uses something this decoder does not do
 * (fields, MBAFF, 4:2:2 / 4:4:4, more than 8 bits, slice groups, a profile,
 * level or size past the decoder's limits). `feature` names it;
 * `found` says what the stream had.
 */
export class H264UnsupportedError extends Error {
  override name = 'H264UnsupportedError';
  /** e.g. 'interlaced', 'mbaff', 'chroma_format_idc', 'bit_depth', 'profile', 'level', 'size', 'dpb_slots', 'slice_groups'. */
  readonly feature: string;
  /** What the stream had, e.g. "chroma_format_idc 2 (4:2:2)". */
  readonly found: string;
  constructor(feature: string, found: string) {
    super(`H.264 stream not supported: ${feature}: ${found}`);
    this.feature = feature;
    this.found = found;
  }
}
