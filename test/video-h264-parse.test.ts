// Parsing: NAL units out of Annex-B and MP4 framing, the RBSP reader
// (emulation prevention, Exp-Golomb limits, reads past the end), and every
// SPS, PPS and slice header of the fixture streams against the syntax
// elements FFmpeg's trace_headers printed for them (test/fixtures/h264).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AnnexBSplitter,
  H264BitstreamError,
  type H264Pps,
  type H264ScalingLists,
  type H264SliceHeader,
  type H264Sps,
  parseAvcC,
  parsePps,
  parseSliceHeader,
  parseSps,
  splitAnnexB,
  splitLengthPrefixed,
  zigzag4x4,
  zigzag8x8,
} from '../lib/video/h264';
import { decodeStream, ffmpegView, fixtureDir, sequence, streamBytes, streams } from './fixtures/h264/streams';
import { vuiHeadFields } from './fixtures/vui-fields';
import { BitWriter, nalUnit, ppsNal, sliceNal, spsNal } from './fixtures/h264/syntax-writer';

type Fields = (string | number)[];
const b = (x: boolean) => (x ? 1 : 0);

/** The syntax elements of an SPS as trace_headers names them (delta_scale left out: only the lists are kept). */
function spsTrace(s: H264Sps): Fields {
  const f: Fields = ['forbidden_zero_bit', 0, 'nal_ref_idc', 3, 'nal_unit_type', 7, 'profile_idc', s.profileIdc];
  for (let i = 0; i < 6; i++) f.push(`constraint_set${i}_flag`, (s.constraintFlags >> i) & 1);
  f.push('reserved_zero_2bits', 0, 'level_idc', s.levelIdc, 'seq_parameter_set_id', s.spsId);
  if ([100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135].includes(s.profileIdc)) {
    f.push('chroma_format_idc', s.chromaFormatIdc);
    if (s.chromaFormatIdc === 3) f.push('separate_colour_plane_flag', b(s.separateColourPlaneFlag));
    f.push('bit_depth_luma_minus8', s.bitDepthLumaMinus8, 'bit_depth_chroma_minus8', s.bitDepthChromaMinus8);
    f.push(
      'qpprime_y_zero_transform_bypass_flag',
      b(s.qpprimeYZeroTransformBypassFlag),
      'seq_scaling_matrix_present_flag',
      b(s.seqScalingMatrixPresentFlag),
    );
    if (s.seqScalingMatrixPresentFlag)
      for (let i = 0; i < (s.chromaFormatIdc !== 3 ? 8 : 12); i++)
        f.push(`seq_scaling_list_present_flag[${i}]`, (s.scalingLists.presentMask >> i) & 1);
  }
  f.push('log2_max_frame_num_minus4', s.log2MaxFrameNumMinus4, 'pic_order_cnt_type', s.picOrderCntType);
  if (s.picOrderCntType === 0) f.push('log2_max_pic_order_cnt_lsb_minus4', s.log2MaxPicOrderCntLsbMinus4);
  if (s.picOrderCntType === 1) {
    f.push('delta_pic_order_always_zero_flag', b(s.deltaPicOrderAlwaysZeroFlag), 'offset_for_non_ref_pic', s.offsetForNonRefPic);
    f.push('offset_for_top_to_bottom_field', s.offsetForTopToBottomField, 'num_ref_frames_in_pic_order_cnt_cycle', s.numRefFramesInPicOrderCntCycle);
    for (const [i, o] of s.offsetForRefFrame.entries()) f.push(`offset_for_ref_frame[${i}]`, o);
  }
  f.push('max_num_ref_frames', s.maxNumRefFrames, 'gaps_in_frame_num_allowed_flag', b(s.gapsInFrameNumValueAllowedFlag));
  f.push('pic_width_in_mbs_minus1', s.picWidthInMbsMinus1, 'pic_height_in_map_units_minus1', s.picHeightInMapUnitsMinus1);
  f.push('frame_mbs_only_flag', b(s.frameMbsOnlyFlag));
  if (!s.frameMbsOnlyFlag) f.push('mb_adaptive_frame_field_flag', b(s.mbAdaptiveFrameFieldFlag));
  f.push('direct_8x8_inference_flag', b(s.direct8x8InferenceFlag), 'frame_cropping_flag', b(s.frameCroppingFlag));
  if (s.frameCroppingFlag)
    f.push(
      'frame_crop_left_offset',
      s.frameCropLeftOffset,
      'frame_crop_right_offset',
      s.frameCropRightOffset,
      'frame_crop_top_offset',
      s.frameCropTopOffset,
      'frame_crop_bottom_offset',
      s.frameCropBottomOffset,
    );
  f.push('vui_parameters_present_flag', b(s.vuiParametersPresentFlag));
  const v = s.vui;
  if (!v) return f;
  f.push(...vuiHeadFields(v));
  f.push('timing_info_present_flag', b(v.timingInfoPresentFlag));
  if (v.timingInfoPresentFlag)
    f.push('num_units_in_tick', v.numUnitsInTick, 'time_scale', v.timeScale, 'fixed_frame_rate_flag', b(v.fixedFrameRateFlag));
  for (const [present, hrd, name] of [
    [v.nalHrdParametersPresentFlag, v.nalHrd, 'nal_hrd_parameters_present_flag'],
    [v.vclHrdParametersPresentFlag, v.vclHrd, 'vcl_hrd_parameters_present_flag'],
  ] as const) {
    f.push(name, b(present));
    if (!hrd) continue;
    f.push('cpb_cnt_minus1', hrd.cpbCntMinus1, 'bit_rate_scale', hrd.bitRateScale, 'cpb_size_scale', hrd.cpbSizeScale);
    for (let i = 0; i <= hrd.cpbCntMinus1; i++)
      f.push(
        `bit_rate_value_minus1[${i}]`,
        hrd.bitRateValueMinus1[i]!,
        `cpb_size_value_minus1[${i}]`,
        hrd.cpbSizeValueMinus1[i]!,
        `cbr_flag[${i}]`,
        b(hrd.cbrFlag[i]!),
      );
    f.push(
      'initial_cpb_removal_delay_length_minus1',
      hrd.initialCpbRemovalDelayLengthMinus1,
      'cpb_removal_delay_length_minus1',
      hrd.cpbRemovalDelayLengthMinus1,
    );
    f.push('dpb_output_delay_length_minus1', hrd.dpbOutputDelayLengthMinus1, 'time_offset_length', hrd.timeOffsetLength);
  }
  if (v.nalHrdParametersPresentFlag || v.vclHrdParametersPresentFlag) f.push('low_delay_hrd_flag', b(v.lowDelayHrdFlag));
  f.push('pic_struct_present_flag', b(v.picStructPresentFlag), 'bitstream_restriction_flag', b(v.bitstreamRestrictionFlag));
  if (v.bitstreamRestrictionFlag)
    f.push(
      'motion_vectors_over_pic_boundaries_flag',
      b(v.motionVectorsOverPicBoundariesFlag),
      'max_bytes_per_pic_denom',
      v.maxBytesPerPicDenom,
      'max_bits_per_mb_denom',
      v.maxBitsPerMbDenom,
      'log2_max_mv_length_horizontal',
      v.log2MaxMvLengthHorizontal,
      'log2_max_mv_length_vertical',
      v.log2MaxMvLengthVertical,
      'max_num_reorder_frames',
      v.maxNumReorderFrames,
      'max_dec_frame_buffering',
      v.maxDecFrameBuffering,
    );
  return f;
}

function ppsTrace(p: H264Pps, sps: H264Sps, extended: boolean): Fields {
  const f: Fields = ['forbidden_zero_bit', 0, 'nal_ref_idc', 3, 'nal_unit_type', 8, 'pic_parameter_set_id', p.ppsId, 'seq_parameter_set_id', p.spsId];
  f.push(
    'entropy_coding_mode_flag',
    b(p.entropyCodingModeFlag),
    'bottom_field_pic_order_in_frame_present_flag',
    b(p.bottomFieldPicOrderInFramePresentFlag),
  );
  f.push('num_slice_groups_minus1', p.numSliceGroupsMinus1);
  f.push(
    'num_ref_idx_l0_default_active_minus1',
    p.numRefIdxL0DefaultActiveMinus1,
    'num_ref_idx_l1_default_active_minus1',
    p.numRefIdxL1DefaultActiveMinus1,
  );
  f.push('weighted_pred_flag', b(p.weightedPredFlag), 'weighted_bipred_idc', p.weightedBipredIdc);
  f.push('pic_init_qp_minus26', p.picInitQpMinus26, 'pic_init_qs_minus26', p.picInitQsMinus26, 'chroma_qp_index_offset', p.chromaQpIndexOffset);
  f.push(
    'deblocking_filter_control_present_flag',
    b(p.deblockingFilterControlPresentFlag),
    'constrained_intra_pred_flag',
    b(p.constrainedIntraPredFlag),
  );
  f.push('redundant_pic_cnt_present_flag', b(p.redundantPicCntPresentFlag));
  if (!extended) return f;
  f.push('transform_8x8_mode_flag', b(p.transform8x8ModeFlag), 'pic_scaling_matrix_present_flag', b(p.picScalingMatrixPresentFlag));
  if (p.picScalingMatrixPresentFlag)
    for (let i = 0; i < 6 + (p.transform8x8ModeFlag ? (sps.chromaFormatIdc !== 3 ? 2 : 6) : 0); i++)
      f.push(`pic_scaling_list_present_flag[${i}]`, (p.scalingLists.presentMask >> i) & 1);
  f.push('second_chroma_qp_index_offset', p.secondChromaQpIndexOffset);
  return f;
}

function sliceTrace(h: H264SliceHeader, sps: H264Sps, pps: H264Pps): Fields {
  const f: Fields = ['forbidden_zero_bit', 0, 'nal_ref_idc', h.nalRefIdc, 'nal_unit_type', h.nalUnitType];
  f.push('first_mb_in_slice', h.firstMbInSlice, 'slice_type', h.sliceType, 'pic_parameter_set_id', h.ppsId);
  if (sps.separateColourPlaneFlag) f.push('colour_plane_id', h.colourPlaneId);
  f.push('frame_num', h.frameNum);
  if (!sps.frameMbsOnlyFlag) {
    f.push('field_pic_flag', b(h.fieldPicFlag));
    if (h.fieldPicFlag) f.push('bottom_field_flag', b(h.bottomFieldFlag));
  }
  if (h.nalUnitType === 5) f.push('idr_pic_id', h.idrPicId);
  if (sps.picOrderCntType === 0) {
    f.push('pic_order_cnt_lsb', h.picOrderCntLsb);
    if (pps.bottomFieldPicOrderInFramePresentFlag && !h.fieldPicFlag) f.push('delta_pic_order_cnt_bottom', h.deltaPicOrderCntBottom);
  }
  if (sps.picOrderCntType === 1 && !sps.deltaPicOrderAlwaysZeroFlag) {
    f.push('delta_pic_order_cnt[0]', h.deltaPicOrderCnt0);
    if (pps.bottomFieldPicOrderInFramePresentFlag && !h.fieldPicFlag) f.push('delta_pic_order_cnt[1]', h.deltaPicOrderCnt1);
  }
  if (pps.redundantPicCntPresentFlag) f.push('redundant_pic_cnt', h.redundantPicCnt);
  const k = h.sliceKind;
  if (k === 1) f.push('direct_spatial_mv_pred_flag', b(h.directSpatialMvPredFlag));
  if (k === 0 || k === 1 || k === 3) {
    f.push('num_ref_idx_active_override_flag', b(h.numRefIdxActiveOverrideFlag));
    if (h.numRefIdxActiveOverrideFlag) {
      f.push('num_ref_idx_l0_active_minus1', h.numRefIdxL0ActiveMinus1);
      if (k === 1) f.push('num_ref_idx_l1_active_minus1', h.numRefIdxL1ActiveMinus1);
    }
  }
  const mods = (list: number, m: H264SliceHeader['refPicListModificationL0']) => {
    f.push(`ref_pic_list_modification_flag_l${list}`, b(m.length > 0));
    if (m.length === 0) return;
    for (const op of m) f.push('modification_of_pic_nums_idc', op.idc, op.idc === 2 ? 'long_term_pic_num' : 'abs_diff_pic_num_minus1', op.value);
    f.push('modification_of_pic_nums_idc', 3);
  };
  if (k !== 2 && k !== 4) mods(0, h.refPicListModificationL0);
  if (k === 1) mods(1, h.refPicListModificationL1);
  const w = h.predWeightTable;
  if (w) {
    f.push('luma_log2_weight_denom', w.lumaLog2WeightDenom, 'chroma_log2_weight_denom', w.chromaLog2WeightDenom);
    for (let list = 0; list < (k === 1 ? 2 : 1); list++) {
      const n = (list === 0 ? h.numRefIdxL0ActiveMinus1 : h.numRefIdxL1ActiveMinus1) + 1;
      for (let i = 0; i < n; i++) {
        const luma = (w.lumaWeightFlags[list]! >> i) & 1;
        f.push(`luma_weight_l${list}_flag[${i}]`, luma);
        if (luma) f.push(`luma_weight_l${list}[${i}]`, w.lumaWeight[list]![i]!, `luma_offset_l${list}[${i}]`, w.lumaOffset[list]![i]!);
        const chroma = (w.chromaWeightFlags[list]! >> i) & 1;
        f.push(`chroma_weight_l${list}_flag[${i}]`, chroma);
        if (chroma)
          for (let j = 0; j < 2; j++)
            f.push(
              `chroma_weight_l${list}[${i}][${j}]`,
              w.chromaWeight[list]![i * 2 + j]!,
              `chroma_offset_l${list}[${i}][${j}]`,
              w.chromaOffset[list]![i * 2 + j]!,
            );
      }
    }
  }
  if (h.nalRefIdc !== 0) {
    if (h.nalUnitType === 5)
      f.push('no_output_of_prior_pics_flag', b(h.noOutputOfPriorPicsFlag), 'long_term_reference_flag', b(h.longTermReferenceFlag));
    else {
      f.push('adaptive_ref_pic_marking_mode_flag', b(h.adaptiveRefPicMarkingModeFlag));
      if (h.adaptiveRefPicMarkingModeFlag) {
        for (const m of h.mmcos) {
          f.push('memory_management_control_operation', m.op);
          if (m.op === 1 || m.op === 3) f.push('difference_of_pic_nums_minus1', m.differenceOfPicNumsMinus1);
          if (m.op === 2) f.push('long_term_pic_num', m.longTermPicNum);
          if (m.op === 3 || m.op === 6) f.push('long_term_frame_idx', m.longTermFrameIdx);
          if (m.op === 4) f.push('max_long_term_frame_idx_plus1', m.maxLongTermFrameIdxPlus1);
        }
        f.push('memory_management_control_operation', 0);
      }
    }
  }
  if (pps.entropyCodingModeFlag && k !== 2 && k !== 4) f.push('cabac_init_idc', h.cabacInitIdc);
  f.push('slice_qp_delta', h.sliceQpDelta);
  if (pps.deblockingFilterControlPresentFlag) {
    f.push('disable_deblocking_filter_idc', h.disableDeblockingFilterIdc);
    if (h.disableDeblockingFilterIdc !== 1)
      f.push('slice_alpha_c0_offset_div2', h.sliceAlphaC0OffsetDiv2, 'slice_beta_offset_div2', h.sliceBetaOffsetDiv2);
  }
  return f;
}

const withoutDeltas = (fields: Fields): Fields => {
  const out: Fields = [];
  for (let i = 0; i < fields.length; i += 2) if (!String(fields[i]).startsWith('delta_scale')) out.push(fields[i]!, fields[i + 1]!);
  return out;
};

describe.each(streams)('%s: headers against trace_headers', (name) => {
  const view = ffmpegView(name);
  const { pictures } = decodeStream(name);

  it('7.3.2.1.1 / E.1.1 SPS: every syntax element (VUI, HRD, scaling list flags)', () => {
    const traced = view.nals.filter((n) => n.name === 'Sequence Parameter Set');
    expect(traced.length).toBeGreaterThan(0);
    for (const t of traced) expect(spsTrace(pictures[0]!.sps)).toEqual(withoutDeltas(t.fields));
  });

  it('7.3.2.2 PPS: every syntax element, transform_8x8_mode_flag and second_chroma_qp_index_offset when sent', () => {
    const traced = view.nals.filter((n) => n.name === 'Picture Parameter Set');
    expect(traced.length).toBeGreaterThan(0);
    for (const t of traced)
      expect(ppsTrace(pictures[0]!.pps, pictures[0]!.sps, t.fields.includes('transform_8x8_mode_flag'))).toEqual(withoutDeltas(t.fields));
  });

  it('7.3.3 slice headers: every syntax element (modification, weights, marking) and the header length in bits', () => {
    const traced = view.nals.filter((n) => n.name === 'Slice Header');
    const slices = pictures.flatMap((p) => p.slices.map((s) => ({ s, p })));
    expect(slices.length).toBe(traced.length);
    slices.forEach(({ s, p }, i) => {
      expect(sliceTrace(s.header, p.sps, p.pps)).toEqual(traced[i]!.fields);
      expect(s.header.headerBits).toBe(traced[i]!.end - 8);
    });
  });
});

/** The JM-format lists of a cqmfile, raster order. */
function cqmFile(path: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  const text = readFileSync(path, 'utf8').replace(/#.*$/gm, '');
  for (const m of text.matchAll(/([A-Z0-9_]+)\s*=\s*([\d,\s]+)/g))
    out.set(
      m[1]!,
      m[2]!
        .split(/[,\s]+/)
        .filter(Boolean)
        .map(Number),
    );
  return out;
}
const raster4 = (list: Uint8Array) => zigzag4x4.map((_, r) => list[zigzag4x4.indexOf(r)]!);
const raster8 = (list: Uint8Array) => zigzag8x8.map((_, r) => list[zigzag8x8.indexOf(r)]!);

describe('7.4.2.1.1 / 7.4.2.2 scaling lists', () => {
  it('Table 7-2 fall-back rule A in a PPS whose SPS sent none: x264 cqmfile lists, as the file has them (raster order)', () => {
    const cqm = cqmFile(join(fixtureDir, 'custom.cqm'));
    const { pps } = decodeStream('cqm-custom').pictures[0]!;
    const lists: H264ScalingLists = pps.scalingLists;
    const names4 = ['INTRA4X4_LUMA', 'INTRA4X4_CHROMAU', 'INTRA4X4_CHROMAV', 'INTER4X4_LUMA', 'INTER4X4_CHROMAU', 'INTER4X4_CHROMAV'];
    for (const [i, n] of names4.entries()) expect(raster4(lists.list4x4[i]!), n).toEqual(cqm.get(n));
    expect(raster8(lists.list8x8[0]!)).toEqual(cqm.get('INTRA8X8_LUMA'));
    expect(raster8(lists.list8x8[1]!)).toEqual(cqm.get('INTER8X8_LUMA'));
    // Lists 1, 2 and 3 were not sent (1, 2 fall back to list 0; 3 to Default_4x4_Inter, which the file's inter list is).
    expect(lists.presentMask & 0b1110).toBe(0);
  });

  it('Tables 7-3 / 7-4: cqm=jvt resolves to the default lists', () => {
    const { pps, sps } = decodeStream('cqm-jvt').pictures[0]!;
    const lists = pps.picScalingMatrixPresentFlag ? pps.scalingLists : sps.scalingLists;
    const jvt4Intra = [6, 13, 20, 28, 13, 20, 28, 32, 20, 28, 32, 37, 28, 32, 37, 42];
    const jvt4Inter = [10, 14, 20, 24, 14, 20, 24, 27, 20, 24, 27, 30, 24, 27, 30, 34];
    for (let i = 0; i < 6; i++) expect(raster4(lists.list4x4[i]!)).toEqual(i < 3 ? jvt4Intra : jvt4Inter);
    // Default_8x8_Intra / Default_8x8_Inter (Table 7-4) in raster order.
    const intra8 = [6, 10, 13, 16, 18, 23, 25, 27, 10, 11, 16, 18, 23, 25, 27, 29, 13, 16, 18, 23, 25, 27, 29, 31, 16, 18, 23, 25, 27, 29, 31, 33];
    intra8.push(18, 23, 25, 27, 29, 31, 33, 36, 23, 25, 27, 29, 31, 33, 36, 38, 25, 27, 29, 31, 33, 36, 38, 40, 27, 29, 31, 33, 36, 38, 40, 42);
    const inter8 = [9, 13, 15, 17, 19, 21, 22, 24, 13, 13, 17, 19, 21, 22, 24, 25, 15, 17, 19, 21, 22, 24, 25, 27, 17, 19, 21, 22, 24, 25, 27, 28];
    inter8.push(19, 21, 22, 24, 25, 27, 28, 30, 21, 22, 24, 25, 27, 28, 30, 32, 22, 24, 25, 27, 28, 30, 32, 33, 24, 25, 27, 28, 30, 32, 33, 35);
    expect(raster8(lists.list8x8[0]!)).toEqual(intra8);
    expect(raster8(lists.list8x8[1]!)).toEqual(inter8);
  });

  it('no matrix sent: Flat_4x4_16 and Flat_8x8_16', () => {
    const { pps } = decodeStream('high').pictures[0]!;
    for (const l of [...pps.scalingLists.list4x4, ...pps.scalingLists.list8x8]) expect([...new Set(l)]).toEqual([16]);
  });
});

describe('B.2 Annex-B byte stream and ISO/IEC 14496-15 samples', () => {
  it('splitAnnexB: 3- and 4-byte start codes, leading bytes, trailing zeros, empty units', () => {
    const bytes = Uint8Array.of(9, 9, 0, 0, 1, 0x67, 1, 2, 0, 0, 0, 0, 1, 0x68, 3, 0, 0, 1, 0, 0, 1, 0x65, 4, 0, 0);
    expect(splitAnnexB(bytes).map((n) => [...n])).toEqual([
      [0x67, 1, 2],
      [0x68, 3],
      [0x65, 4],
    ]);
    expect(splitAnnexB(new Uint8Array(0))).toEqual([]);
    expect(() => splitAnnexB('x' as never)).toThrow(TypeError);
  });

  it('AnnexBSplitter: chunks of every size from 1 byte give the NAL units splitAnnexB gives', () => {
    const bytes = streamBytes('slices4');
    const whole = splitAnnexB(bytes).map((n) => Buffer.from(n).toString('hex'));
    for (const size of [1, 2, 3, 4, 5, 7, 64, 1000, 4096, bytes.length]) {
      const s = new AnnexBSplitter();
      const got: Uint8Array[] = [];
      for (let i = 0; i < bytes.length; i += size) got.push(...s.push(bytes.subarray(i, i + size)));
      got.push(...s.end());
      expect(
        got.map((n) => Buffer.from(n).toString('hex')),
        `chunks of ${size}`,
      ).toEqual(whole);
    }
  });

  it('AnnexBSplitter: a chunk refilled once push() returned (one read buffer, reused) gives the same units', () => {
    const bytes = streamBytes('slices4');
    const whole = splitAnnexB(bytes).map((n) => Buffer.from(n).toString('hex'));
    for (const size of [7, 1000, 65536]) {
      const s = new AnnexBSplitter();
      const buffer = new Uint8Array(size);
      const got: string[] = [];
      for (let at = 0; at < bytes.length; at += size) {
        const n = Math.min(size, bytes.length - at);
        buffer.set(bytes.subarray(at, at + n));
        got.push(...s.push(buffer.subarray(0, n)).map((u) => Buffer.from(u).toString('hex')));
        buffer.fill(0xa5); // the next read overwrites it
      }
      got.push(...s.end().map((u) => Buffer.from(u).toString('hex')));
      expect(got, `a ${size}-byte buffer`).toEqual(whole);
    }
  });

  it("AnnexBSplitter: start codes and zero runs cut at every place give splitAnnexB's units; a unit inside one chunk is a view of it", () => {
    const bytes = Uint8Array.of(9, 0, 0, 1, 0x67, 1, 0, 0, 0, 0, 0, 1, 0x68, 0, 3, 0, 0, 0, 1, 0x65, 0, 0, 2, 0, 0, 1, 0, 0, 1, 0x41, 7, 0, 0, 0);
    const whole = splitAnnexB(bytes).map((n) => [...n]);
    expect(whole).toEqual([
      [0x67, 1],
      [0x68, 0, 3],
      [0x65, 0, 0, 2],
      [0x41, 7],
    ]);
    for (let a = 0; a <= bytes.length; a++)
      for (let b = a; b <= bytes.length; b++) {
        for (const reuseBuffer of [false, true]) {
          // With reuseBuffer a unit is read before the next push (it may be overwritten then).
          const s = new AnnexBSplitter({ reuseBuffer });
          const got = [bytes.subarray(0, a), bytes.subarray(a, b), bytes.subarray(b)].flatMap((chunk) => s.push(chunk).map((n) => [...n]));
          got.push(...s.end().map((n) => [...n]));
          expect(got, `cut at ${a} and ${b}${reuseBuffer ? ', reuseBuffer' : ''}`).toEqual(whole);
        }
      }
    const s = new AnnexBSplitter();
    const chunk = bytes.slice();
    const units = s.push(chunk);
    expect(units.map((n) => n.buffer === chunk.buffer)).toEqual([true, true, true]);
  });

  it('avcC and length-prefixed samples: the MP4 of b-pyramid gives the same pictures and order as its Annex-B stream', () => {
    const avc = parseAvcC(new Uint8Array(readFileSync(join(fixtureDir, 'b-pyramid.avcc'))));
    expect(avc.nalLengthSize).toBe(4);
    const annexB = splitAnnexB(streamBytes('b-pyramid'));
    expect(Buffer.from(avc.sps[0]!).equals(Buffer.from(annexB.find((n) => (n[0]! & 31) === 7)!))).toBe(true);
    expect(Buffer.from(avc.pps[0]!).equals(Buffer.from(annexB.find((n) => (n[0]! & 31) === 8)!))).toBe(true);
    // The samples lie one after another in mdat: its payload is a run of length-prefixed NAL units.
    const mp4 = readFileSync(join(fixtureDir, 'b-pyramid.mp4'));
    let at = 0;
    let mdat: Uint8Array | null = null;
    while (at + 8 <= mp4.length) {
      const size = mp4.readUInt32BE(at);
      if (mp4.toString('latin1', at + 4, at + 8) === 'mdat') mdat = new Uint8Array(mp4.subarray(at + 8, at + size));
      at += size;
    }
    const nals = [...avc.sps, ...avc.pps, ...splitLengthPrefixed(mdat!, avc.nalLengthSize)];
    const fromMp4 = sequence(nals);
    const fromAnnexB = decodeStream('b-pyramid');
    expect(fromMp4.output).toEqual(fromAnnexB.output);
    expect(fromMp4.pictures.map((p) => [p.picOrderCnt, p.frameNum, p.setupSlot])).toEqual(
      fromAnnexB.pictures.map((p) => [p.picOrderCnt, p.frameNum, p.setupSlot]),
    );
    for (const [i, p] of fromMp4.pictures.entries()) expect(Buffer.from(p.data).equals(Buffer.from(fromAnnexB.pictures[i]!.data))).toBe(true);
  });

  it('parseAvcC refuses malformed records with H264BitstreamError naming the field', () => {
    const good = new Uint8Array(readFileSync(join(fixtureDir, 'b-pyramid.avcc')));
    expect(() => parseAvcC(good.subarray(0, 5))).toThrow(/shorter than the 7-byte header/);
    expect(() => parseAvcC(Uint8Array.of(2, ...good.subarray(1)))).toThrow(/configurationVersion is 2/);
    const three = good.slice();
    three[4] = 0xfe;
    expect(() => parseAvcC(three)).toThrow(/3-byte lengths/);
    expect(() => parseAvcC(good.subarray(0, 12))).toThrow(H264BitstreamError);
    for (let n = 0; n < good.length; n++) {
      try {
        parseAvcC(good.subarray(0, n));
      } catch (e) {
        expect(e).toBeInstanceOf(H264BitstreamError);
      }
    }
  });

  it('splitLengthPrefixed: a length past the end is H264BitstreamError; a length size other than 1, 2, 4 a RangeError', () => {
    expect(splitLengthPrefixed(Uint8Array.of(0, 2, 0x65, 1, 0, 0, 0, 1, 0x41), 2).map((n) => [...n])).toEqual(
      [[0x65, 1], [], [0x41]].filter((n) => n.length),
    );
    expect(() => splitLengthPrefixed(Uint8Array.of(0, 9, 0x65), 2)).toThrow(/past the end/);
    expect(() => splitLengthPrefixed(Uint8Array.of(0), 2)).toThrow(H264BitstreamError);
    expect(() => splitLengthPrefixed(Uint8Array.of(0), 3)).toThrow(RangeError);
  });
});

describe('7.2 / 7.4.1 / 9.1 the RBSP reader', () => {
  it('7.4.1 emulation prevention: 00 00 03 inside a header is skipped and counted; the fields read as written', () => {
    const sps = { log2MaxFrameNumMinus4: 12, log2MaxPocLsbMinus4: 12 };
    const nal = sliceNal({ sliceType: 0, frameNum: 0, pocLsb: 0 }, sps);
    // frame_num and pic_order_cnt_lsb of 16 zero bits each make 00 00 00.
    expect(Buffer.from(nal).includes(Buffer.from([0, 0, 3]))).toBe(true);
    const s = parseSps(spsNal(sps));
    const p = parsePps(ppsNal(), s);
    const h = parseSliceHeader(nal, s, p);
    expect([h.frameNum, h.picOrderCntLsb, h.sliceType]).toEqual([0, 0, 5]);
    expect(h.headerEmulationBytes).toBeGreaterThan(0);
    // 8 + headerBits + 8 * emulation bytes is where slice data starts in the NAL unit as sent: the filler byte 0xa5.
    const bits = 8 + h.headerBits + 8 * h.headerEmulationBytes;
    const byte = (nal[bits >> 3]! << 8) | (nal[(bits >> 3) + 1] ?? 0);
    expect((byte >> (8 - (bits & 7))) & 0xff).toBe(0xa5);
  });

  it("9.1 ue(v) ranges: a value past its syntax element's range names the element", () => {
    expect(() => parseSps(spsNal({ spsId: 32 }))).toThrow(/seq_parameter_set_id is 32, outside 0..31/);
    expect(() => parseSps(spsNal({ log2MaxFrameNumMinus4: 13 }))).toThrow(/log2_max_frame_num_minus4 is 13/);
    expect(() => parseSps(spsNal({ maxNumRefFrames: 17 }))).toThrow(/max_num_ref_frames is 17/);
    expect(() => parseSps(spsNal({ pocType: 3 }))).toThrow(/pic_order_cnt_type is 3/);
    const s = parseSps(spsNal());
    expect(() => parsePps(ppsNal({ numRefIdxL0DefaultMinus1: 32 }), s)).toThrow(/num_ref_idx_l0_default_active_minus1 is 32/);
  });

  it('9.1 an Exp-Golomb code longer than 32 bits is refused, not read as a huge number', () => {
    const w = new BitWriter().u(8, 100).u(8, 0).u(8, 40).u(40, 0).u(1, 1);
    expect(() => parseSps(nalUnit(3, 7, w.rbsp()))).toThrow(/seq_parameter_set_id has an Exp-Golomb code longer than 32 bits/);
  });

  it('every truncation of an SPS, a PPS and a slice header reads past the end with H264BitstreamError, never further', () => {
    const view = splitAnnexB(streamBytes('hrd'));
    const spsNalUnit = view.find((n) => (n[0]! & 31) === 7)!;
    const ppsNalUnit = view.find((n) => (n[0]! & 31) === 8)!;
    const sliceNalUnit = view.find((n) => (n[0]! & 31) === 1)!;
    const sps = parseSps(spsNalUnit);
    const pps = parsePps(ppsNalUnit, sps);
    const header = parseSliceHeader(sliceNalUnit, sps, pps);
    for (let n = 1; n < spsNalUnit.length - 1; n++) expect(() => parseSps(spsNalUnit.subarray(0, n))).toThrow(H264BitstreamError);
    for (let n = 1; n < ppsNalUnit.length - 1; n++) expect(() => parsePps(ppsNalUnit.subarray(0, n), sps)).toThrow(H264BitstreamError);
    const headerBytes = Math.ceil((8 + header.headerBits) / 8);
    for (let n = 1; n < headerBytes; n++) expect(() => parseSliceHeader(sliceNalUnit.subarray(0, n), sps, pps)).toThrow(H264BitstreamError);
  });

  it('7.2 more_rbsp_data(): a PPS without the High fields infers second_chroma_qp_index_offset = chroma_qp_index_offset', () => {
    const s = parseSps(spsNal());
    const p = parsePps(ppsNal({ transform8x8: null }), s);
    expect([p.transform8x8ModeFlag, p.picScalingMatrixPresentFlag, p.secondChromaQpIndexOffset]).toEqual([false, false, p.chromaQpIndexOffset]);
    expect(parsePps(ppsNal({ transform8x8: true }), s).transform8x8ModeFlag).toBe(true);
  });

  it('parse functions check what they are given', () => {
    const s = parseSps(spsNal());
    expect(() => parseSps(ppsNal())).toThrow(/nal_unit_type is 8, expected 7/);
    expect(() => parseSps(new Uint8Array(0))).toThrow(H264BitstreamError);
    expect(() => parseSps(Uint8Array.of(0xe7))).toThrow(/forbidden_zero_bit/);
    expect(() => parsePps(null as never, s)).toThrow(TypeError);
  });
});

describe('7.4.2.1.1 / E.2.1 / Table A-1 DPB size', () => {
  it('from the VUI when sent (max_dec_frame_buffering, max_num_reorder_frames)', () => {
    const s = parseSps(spsNal({ dpb: [1, 3], maxNumRefFrames: 3 }));
    expect([s.dpbFrames, s.maxNumReorderFrames]).toEqual([3, 1]);
  });

  it('else MaxDpbFrames = Min(MaxDpbMbs / (PicWidthInMbs * FrameHeightInMbs), 16): level 1.1 at 176x144 is 9, level 4 is 16', () => {
    expect(parseSps(spsNal({ dpb: null, levelIdc: 11, maxNumRefFrames: 1 })).dpbFrames).toBe(9);
    expect(parseSps(spsNal({ dpb: null, levelIdc: 40 })).dpbFrames).toBe(16);
    // Level 1b (level_idc 11 with constraint_set3_flag in Main): 396 / 99 = 4.
    expect(parseSps(spsNal({ dpb: null, levelIdc: 11, profileIdc: 77, constraintFlags: 8, maxNumRefFrames: 1 })).dpbFrames).toBe(4);
  });
});
