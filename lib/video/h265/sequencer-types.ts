// What H265Sequencer hands on: pictures to decode, each with its DPB slot and
// references as a Vulkan Video decode wants them (StdVideoDecodeH265PictureInfo,
// StdVideoDecodeH265ReferenceInfo), and pictures to output in display order.
import type { H265Pps, H265SliceHeader, H265Sps, H265Vps } from './types';

/** One picture of the DPB marked "used for reference" when a picture is decoded (a pReferenceSlots entry). */
export interface H265ReferenceEntry {
  /** The DPB slot it is in. */
  readonly slot: number;
  /** PicOrderCntVal (StdVideoDecodeH265ReferenceInfo.PicOrderCntVal). */
  readonly picOrderCntVal: number;
  /** Marked "used for long-term reference" (used_for_long_term_reference). */
  readonly longTerm: boolean;
  /**
   * No decoded picture is in the slot: a picture generated for an unavailable
   * reference (8.3.3), or one put in place of a reference the stream lacks
   * (concealment). The decoder fills the slot (8.3.3.2 says mid-grey:
   * 1 << (BitDepth - 1) in every sample) before anything predicts from it.
   */
  readonly generated: boolean;
  /** The picture's decodeIndex; -1 for a generated picture. */
  readonly decodeIndex: number;
}

/** One slice segment NAL unit of a picture. */
export interface H265Slice {
  /** Its header (a dependent slice segment's slice fields are those of the independent one before it). */
  readonly header: H265SliceHeader;
  /** Byte offset of its start code in H265Picture.data. */
  readonly offset: number;
  /** Byte length in data, start code included. */
  readonly size: number;
  /** RefPicList0 / RefPicList1 after modification (8.3.4), as DPB slots; empty for lists the slice type does not have. */
  readonly refPicList0: readonly number[];
  readonly refPicList1: readonly number[];
}

/** The POCs of the five lists of the reference picture set (8.3.2), as derived for the picture. */
export interface H265RpsPocs {
  readonly stCurrBefore: readonly number[];
  readonly stCurrAfter: readonly number[];
  readonly stFoll: readonly number[];
  readonly ltCurr: readonly number[];
  readonly ltFoll: readonly number[];
}

/** A coded picture in decode order, ready for a decoder back end. */
export interface H265Picture {
  /** 0, 1, 2, ... in decode order over the pictures given out; output events name pictures by it. */
  readonly decodeIndex: number;
  readonly vps: H265Vps;
  readonly sps: H265Sps;
  readonly pps: H265Pps;
  readonly vpsId: number;
  readonly spsId: number;
  readonly ppsId: number;
  /** Increments whenever any VPS, SPS or PPS changes content (or a new id arrives): re-create session parameters when it moves. */
  readonly parametersVersion: number;
  /** The picture's slice segment NAL units, each after a 00 00 01 start code, emulation prevention bytes kept. */
  readonly data: Uint8Array;
  /** Byte offset of each slice segment's start code in data. */
  readonly sliceOffsets: readonly number[];
  readonly slices: readonly H265Slice[];
  readonly nalUnitType: number;
  readonly temporalId: number;
  readonly isIrap: boolean;
  readonly isIdr: boolean;
  /** NoRaslOutputFlag (8.1.3): 1 for IDR, BLA, and a CRA first in the stream or after an end of sequence. */
  readonly noRaslOutputFlag: boolean;
  /**
   * Vulkan's IsReference: the picture is not a sub-layer non-reference
   * picture (nal_unit_type not TRAIL_N, TSA_N, STSA_N, RADL_N, RASL_N, Table
   * 7-1), so later pictures of its sub-layer may predict from it. (Every
   * decoded picture is marked "used for short-term reference" until the next
   * picture's RPS says otherwise, and keeps its slot until then.)
   */
  readonly isReference: boolean;
  /** PicOrderCntVal (8.3.1). */
  readonly picOrderCntVal: number;
  /** The DPB slot this picture is decoded into; never one of its references' slots. */
  readonly setupSlot: number;
  /** Every picture marked "used for reference" after this picture's RPS (8.3.2) is applied, the five lists' pictures, generated ones included. */
  readonly references: readonly H265ReferenceEntry[];
  /** RefPicSetStCurrBefore, RefPicSetStCurrAfter, RefPicSetLtCurr as slots (StdVideoDecodeH265PictureInfo; at most 8 each for Vulkan). */
  readonly refPicSetStCurrBefore: readonly number[];
  readonly refPicSetStCurrAfter: readonly number[];
  readonly refPicSetLtCurr: readonly number[];
  /** The POCs the RPS named (8.3.2), found or not. */
  readonly rps: H265RpsPocs;
  /** NumBitsForSTRefPicSetInSlice: bits of the st_ref_pic_set() sent in the slice header; 0 when the SPS's set is used. */
  readonly numBitsForStRefPicSetInSlice: number;
  /** NumDeltaPocsOfRefRpsIdx: NumDeltaPocs[RefRpsIdx] of the set a slice header's set predicts from (7.4.8); 0 otherwise. */
  readonly numDeltaPocsOfRefRpsIdx: number;
  /** PicOutputFlag (8.1.3): false when pic_output_flag is 0; such a picture gets no output event. */
  readonly picOutputFlag: boolean;
  /** The conformance window in luma samples: the part to show. */
  readonly crop: H265Sps['crop'];
  /** pic_width_in_luma_samples / pic_height_in_luma_samples: the size the decoder is set up for. */
  readonly codedWidth: number;
  readonly codedHeight: number;
}

/** What the sequencer produces, in the order a decoder must act on it. */
export type H265Event =
  /** Decode this picture now (into setupSlot). */
  | { readonly type: 'picture'; readonly picture: H265Picture }
  /**
   * Output (display) the picture with this decodeIndex now; it was decoded by
   * an earlier 'picture' event. `discard`: the stream asks for it not to be
   * shown (an IRAP's NoOutputOfPriorPicsFlag, C.5.2.2): release it unseen.
   */
  | { readonly type: 'output'; readonly decodeIndex: number; readonly discard?: boolean };

/** Limits a decoder passes from its device; a stream past them is refused with H265UnsupportedError before any of its pictures. */
export interface H265SequencerOptions {
  /** Largest pic_width_in_luma_samples (default 4096). */
  readonly maxWidth?: number;
  /** Largest pic_height_in_luma_samples (default 4096). */
  readonly maxHeight?: number;
  /** DPB slots the decoder has (default 17): sps_max_dec_pic_buffering_minus1 + 1 at the highest sub-layer must fit. */
  readonly maxSlots?: number;
  /** Highest general_level_idc accepted (default 186 = level 6.2). */
  readonly maxLevelIdc?: number;
  /** Highest BitDepthY and BitDepthC accepted (default 10; 8 for a Main decoder). */
  readonly maxBitDepth?: number;
  /** Most pictures in each of RefPicSetStCurrBefore, RefPicSetStCurrAfter, RefPicSetLtCurr (default 16; Vulkan Video takes 8). */
  readonly maxRefPicSetEntries?: number;
}
