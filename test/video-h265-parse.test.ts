// H.265 parsing: the NAL unit header, and every VPS, SPS, PPS and slice
// segment header of the fixture streams (test/fixtures/h265, made by x265)
// against the syntax elements FFmpeg's trace_headers printed for them, field
// by field, with the bit where each header ends; then hand-built units for
// what x265 does not make, out-of-range values, unsupported streams, and
// every truncation and thousands of bit flips (typed errors only).
import { describe, expect, it } from 'vitest';
import {
  H265BitstreamError,
  H265NalType,
  type H265Pps,
  type H265SliceHeader,
  type H265Sps,
  H265UnsupportedError,
  type H265Vps,
  isIrap,
  isRasl,
  isSubLayerNonReference,
  parsePps,
  parseSliceHeader,
  parseSps,
  parseVps,
  readNalHeader,
} from '../lib/video/h265';
import { type BitWriter, basePps, baseSps, type PpsFields, ppsNal, type SpsFields, sliceNal, spsNal } from './fixtures/h265/syntax-writer';
import { checkTrace, ppsTrace, spsTrace, vpsTrace } from './fixtures/h265/trace';
import { sliceTrace } from './fixtures/h265/trace-slice';
import { streamNals, streams, type TracedNal, tracedNals } from './fixtures/h265/streams';
import { mulberry32 } from './helpers/random.mjs';

function load(name: string): { nals: Uint8Array[]; trace: TracedNal[] } {
  return { nals: streamNals(name), trace: tracedNals(name) };
}

const TRACED = new Set([H265NalType.VPS_NUT, H265NalType.SPS_NUT, H265NalType.PPS_NUT]);

/** Parses a whole stream: every parameter set and slice segment header, in order, each with its NAL unit. */
function parseStream(nals: readonly Uint8Array[]) {
  const out: { nal: Uint8Array; record: H265Vps | H265Sps | H265Pps | H265SliceHeader; kind: 'vps' | 'sps' | 'pps' | 'slice' }[] = [];
  const spss = new Map<number, H265Sps>();
  const ppss = new Map<number, H265Pps>();
  let previous: H265SliceHeader | null = null;
  for (const nal of nals) {
    const { nalUnitType: t } = readNalHeader(nal);
    if (t === H265NalType.VPS_NUT) out.push({ nal, record: parseVps(nal)!, kind: 'vps' });
    else if (t === H265NalType.SPS_NUT) {
      const sps = parseSps(nal)!;
      spss.set(sps.spsId, sps);
      out.push({ nal, record: sps, kind: 'sps' });
    } else if (t === H265NalType.PPS_NUT) {
      const pps = parsePps(nal, spss.get(0)!)!;
      ppss.set(pps.ppsId, pps);
      out.push({ nal, record: pps, kind: 'pps' });
    } else if (t < 32) {
      const pps = ppss.get(0)!;
      const slice: H265SliceHeader = parseSliceHeader(nal, spss.get(pps.spsId)!, pps, previous)!;
      previous = slice;
      out.push({ nal, record: slice, kind: 'slice' });
    }
  }
  return { out, spss, ppss };
}

describe('7.3 every header of the x265 fixtures against FFmpeg trace_headers', () => {
  for (const name of streams) {
    it(`${name}: 7.3.2.1 VPS, 7.3.2.2 SPS (with E.2.1 VUI, E.2.2 HRD, 7.3.4 scaling lists), 7.3.2.3 PPS and 7.3.6.1 slice segment headers, field by field, and where the slice data begins`, () => {
      const { nals, trace } = load(name);
      const { out } = parseStream(nals);
      expect(out.length).toBe(trace.length);
      let sps: H265Sps | null = null;
      let pps: H265Pps | null = null;
      for (const [i, { nal, record, kind }] of out.entries()) {
        const t = trace[i]!;
        const header = readNalHeader(nal);
        let fields: (string | number)[];
        if (kind === 'vps') fields = vpsTrace(header, record as H265Vps);
        else if (kind === 'sps') fields = spsTrace(header, (sps = record as H265Sps));
        else if (kind === 'pps') fields = ppsTrace(header, (pps = record as H265Pps), sps!);
        else fields = sliceTrace(header, record as H265SliceHeader, sps!, pps!);
        checkTrace(`${name} #${i} ${t.name}`, fields, t.fields);
        if (kind === 'slice') {
          // FFmpeg prints alignment_bit_equal_to_one at t.end; the slice data begins at the next byte boundary.
          expect((record as H265SliceHeader).sliceDataBit, `${name} #${i} slice data`).toBe(Math.ceil((t.end + 1) / 8) * 8);
        } else expect(TRACED.has(header.nalUnitType as 32 | 33 | 34)).toBe(true);
      }
    });
  }

  it('Table 7-1: the fixtures hold the NAL unit types they were made for (IDR_N_LP, IDR_W_RADL + RADL, CRA + RASL, TSA_N, TRAIL_N/R)', () => {
    const types = (name: string) => new Set(load(name).nals.map((n) => readNalHeader(n).nalUnitType));
    expect([...types('closed-gop')]).toContain(H265NalType.IDR_N_LP);
    expect([...types('radl')]).toEqual(expect.arrayContaining([H265NalType.IDR_W_RADL, H265NalType.RADL_N]));
    const open = types('open-gop');
    expect([...open]).toEqual(expect.arrayContaining([H265NalType.CRA_NUT, H265NalType.RASL_N]));
    expect([...open].some(isRasl)).toBe(true);
    expect([...types('tools')]).toContain(H265NalType.TSA_N);
    expect([...types('b-pyramid')]).toEqual(expect.arrayContaining([H265NalType.TRAIL_N, H265NalType.TRAIL_R]));
  });

  it('7.4.3.2.1 derived sizes: 350x198 with 16x16 CTBs and 8x8 minimum CBs is 352x200 coded, 22x13 CTBs, cropped to 350x198; Main 10 has 10-bit depths', () => {
    const sps = parseStream(load('crop-350x198').nals).spss.get(0)!;
    expect([sps.picWidthInLumaSamples, sps.picHeightInLumaSamples, sps.ctbSizeY]).toEqual([352, 200, 16]);
    expect([sps.picWidthInCtbsY, sps.picHeightInCtbsY, sps.picSizeInCtbsY]).toEqual([22, 13, 286]);
    expect(sps.crop).toEqual({ left: 0, top: 0, width: 350, height: 198 });
    const ten = parseStream(load('main10').nals).spss.get(0)!;
    expect([ten.profileTierLevel.general.profileIdc, ten.bitDepthLuma, ten.bitDepthChroma]).toEqual([2, 10, 10]);
  });

  it('7.3.4 / 7.4.5 scaling lists: defaults (Table 7-6) when enabled without data; custom.scl as sent, V lists predicted from U (pred_matrix_id_delta 1)', () => {
    const def = parseStream(load('scaling-default').nals).spss.get(0)!.scalingLists!;
    expect([...def.list8x8[0]!.subarray(0, 16)]).toEqual([16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 17, 16, 17, 16, 17, 18]);
    expect(def.list32x32[1]![63]).toBe(91);
    const custom = parseStream(load('scaling-custom').nals).spss.get(0)!.scalingLists!;
    for (const lists of [custom.list4x4, custom.list8x8, custom.list16x16]) {
      expect(lists[2]).toEqual(lists[1]);
      expect(lists[5]).toEqual(lists[4]);
    }
    expect(custom.dcCoef16x16[2]).toBe(custom.dcCoef16x16[1]);
    // custom.scl's INTRA4X4_LUMA is 16 + (3r + 5c + 28) % 40, row by row: scan position 1 (up-right diagonal) is (x 0, y 1).
    expect(custom.list4x4[0]![0]).toBe(16 + (28 % 40));
    expect(custom.list4x4[0]![1]).toBe(16 + ((3 + 28) % 40));
  });
});

describe('7.3.1.2 the NAL unit header', () => {
  it('reads nal_unit_type, nuh_layer_id, nuh_temporal_id_plus1; refuses forbidden_zero_bit 1, TemporalId 0 + 1 = 0, a short unit', () => {
    expect(readNalHeader(Uint8Array.of(0x40, 0x01))).toEqual({ nalUnitType: 32, nuhLayerId: 0, nuhTemporalIdPlus1: 1, temporalId: 0 });
    expect(readNalHeader(Uint8Array.of(0x05, 0x0b))).toEqual({ nalUnitType: 2, nuhLayerId: 33, nuhTemporalIdPlus1: 3, temporalId: 2 });
    expect(() => readNalHeader(Uint8Array.of(0xc0, 0x01))).toThrow(/forbidden_zero_bit/);
    expect(() => readNalHeader(Uint8Array.of(0x02, 0x00))).toThrow(/nuh_temporal_id_plus1 is 0/);
    expect(() => readNalHeader(Uint8Array.of(0x02))).toThrow(H265BitstreamError);
    expect(() => readNalHeader(Uint8Array.of(0x26, 0x02))).toThrow(/nal_unit_type 19 has TemporalId 1/);
  });

  it('Table 7-1 predicates: IRAP 16..23, RASL 8/9, sub-layer non-reference = even types up to 14', () => {
    expect([15, 16, 21, 23, 24].map(isIrap)).toEqual([false, true, true, true, false]);
    expect([0, 1, 6, 8, 9, 14, 16].map(isSubLayerNonReference)).toEqual([true, false, true, true, false, true, false]);
  });

  it('7.4.2.2 units of layers above the base layer parse to null (skipped, as a base-layer decoder does)', () => {
    expect(parseSps(spsNal(baseSps, 1))).toBeNull();
  });
});

/** An SPS, PPS and slice header built by hand, parsed in turn. */
function build(spsFields: Partial<SpsFields>, ppsFields: Partial<PpsFields>, slices: Uint8Array[]) {
  const sps = parseSps(spsNal({ ...baseSps, ...spsFields }))!;
  const pps = parsePps(ppsNal({ ...basePps, ...ppsFields }), sps)!;
  let previous: H265SliceHeader | null = null;
  const headers = slices.map((n) => (previous = parseSliceHeader(n, sps, pps, previous)!));
  return { sps, pps, headers };
}

/** The fields of a P slice after the RPS / long-term part: TMVP off, SAO off, no override, merge 5, QP delta 0, loop filter flag. */
function pTail(w: BitWriter, override?: number): void {
  w.flag(false).flag(false).flag(false); // slice_temporal_mvp_enabled_flag, slice_sao_luma_flag, slice_sao_chroma_flag
  w.flag(override !== undefined);
  if (override !== undefined) w.ue(override);
}

describe('7.3.7 / 7.4.8 st_ref_pic_set: inter-RPS prediction (x265 sends no SPS sets, so these are hand-built)', () => {
  const rps0 = {
    s0: [
      [-1, true],
      [-3, true],
    ] as [number, boolean][],
    s1: [[2, true]] as [number, boolean][],
  };
  const rps1 = { sign: true, absMinus1: 0, used: [true, true, true, true], useDelta: [true, true, true, true] };

  it('7.4.8 (7-61, 7-62): an SPS set predicted from set 0 with deltaRps -1 gives S0 {-1, -2, -4}, S1 {1}', () => {
    const sps = parseSps(spsNal({ ...baseSps, rps: [rps0, rps1] }))!;
    const set = sps.shortTermRefPicSets[1]!;
    expect([set.interRefPicSetPredictionFlag, set.deltaPocS0, set.deltaPocS1]).toEqual([true, [-1, -2, -4], [1]]);
    expect([set.usedByCurrPicS0, set.usedByCurrPicS1]).toEqual([[true, true, true], [true]]);
  });

  it('7.3.7 a slice header set (idx = num_short_term_ref_pic_sets) predicted from set 0 by delta_idx_minus1 1, deltaRps +1, one delta unused: S1 {1, 3}, NumPicTotalCurr 2', () => {
    const slice = sliceNal(H265NalType.TRAIL_R, true, (w) => {
      w.ue(1).u(8, 5).flag(false); // slice_type P, slice_pic_order_cnt_lsb, short_term_ref_pic_set_sps_flag
      w.flag(true).ue(1).flag(false).ue(0); // inter_ref_pic_set_prediction_flag, delta_idx_minus1, delta_rps_sign, abs_delta_rps_minus1
      w.flag(true).flag(false).flag(false).flag(true).flag(true); // used_by_curr_pic_flag[0], [1] = 0 with use_delta_flag 0, [2], [3]
      pTail(w);
      w.ue(0).se(0).flag(true); // five_minus_max_num_merge_cand, slice_qp_delta, slice_loop_filter_across_slices_enabled_flag
    });
    const { headers } = build({ rps: [rps0, rps1] }, {}, [slice]);
    const h = headers[0]!;
    expect(h.shortTermRefPicSet?.deltaIdxMinus1).toBe(1);
    expect([h.stRps.deltaPocS0, h.stRps.deltaPocS1, h.stRps.usedByCurrPicS1, h.numPicTotalCurr]).toEqual([[], [1, 3], [true, true], 2]);
    expect(h.stRpsBits).toBe(1 + 3 + 1 + 1 + 5);
    expect(h.sliceDataBit % 8).toBe(0);
  });

  it('7.4.8 num_negative_pics past sps_max_dec_pic_buffering_minus1 names the element and the value', () => {
    expect(() =>
      parseSps(
        spsNal({
          ...baseSps,
          rps: [
            {
              s0: [
                [-1, true],
                [-2, true],
                [-3, true],
                [-4, true],
                [-5, true],
              ],
              s1: [],
            },
          ],
        }),
      ),
    ).toThrow(/num_negative_pics is 5, outside 0\.\.4/);
  });
});

describe('7.3.6.1 slice segment headers x265 does not make', () => {
  it('long-term pictures: lt_idx_sps (1 bit of 2 SPS entries), poc_lsb_lt, delta_poc_msb_cycle_lt summed per part (7-52); 7.3.6.2 list_entry_l0 of Ceil(Log2(NumPicTotalCurr)) bits', () => {
    const slice = sliceNal(H265NalType.TRAIL_R, true, (w) => {
      w.ue(1).u(8, 9).flag(true); // P, POC lsb 9, the SPS's one set (no index: one set)
      w.ue(1).ue(1); // num_long_term_sps, num_long_term_pics
      w.u(1, 1).flag(true).ue(2); // lt_idx_sps[0], delta_poc_msb_present_flag[0], delta_poc_msb_cycle_lt[0]
      w.u(8, 20).flag(true).flag(true).ue(3); // poc_lsb_lt[1], used_by_curr_pic_lt_flag[1], delta_poc_msb_present_flag[1], cycle
      pTail(w, 1);
      w.flag(true).u(1, 1).u(1, 0); // ref_pic_list_modification_flag_l0, list_entry_l0[0..1]
      w.ue(0).se(-2).flag(true);
    });
    const { headers } = build({ rps: [{ s0: [[-1, true]], s1: [] }], longTerm: { lsb: [3, 7], used: [true, false] } }, { listsModification: true }, [
      slice,
    ]);
    const h = headers[0]!;
    expect([h.numLongTermSps, h.numLongTermPics, h.ltIdxSps, h.pocLsbLt, h.usedByCurrPicLt]).toEqual([1, 1, [1, 0], [7, 20], [false, true]]);
    expect([h.deltaPocMsbCycleLt, h.deltaPocMsbCycleLtSum, h.numPicTotalCurr]).toEqual([[2, 3], [2, 3], 2]);
    expect([h.numRefIdxL0ActiveMinus1, h.refPicListModificationFlagL0, h.listEntryL0, h.sliceQpDelta]).toEqual([1, true, [1, 0], -2]);
  });

  it('7.3.2.3.1 / 6.5.1 tiles (3x2, sizes sent) with wavefronts: column widths 1, 2, 1 and row heights 1, 2; num_entry_point_offsets up to columns x CTB rows - 1', () => {
    const tiles = { cols: 3, rows: 2, widths: [1, 2], heights: [1], loopFilter: false };
    const idr = (entries: number) =>
      sliceNal(H265NalType.IDR_W_RADL, true, (w) => {
        w.ue(2).flag(false).flag(false).se(0).flag(true); // I, SAO off, QP delta, loop filter across slices
        w.ue(entries);
        if (entries > 0) {
          w.ue(9);
          for (let i = 0; i < entries; i++) w.u(10, 100 + i);
        }
      });
    const { pps, headers } = build({}, { tiles, entropySync: true }, [idr(8)]);
    expect([pps.colWidth, pps.rowHeight, pps.loopFilterAcrossTilesEnabledFlag]).toEqual([[1, 2, 1], [1, 2], false]);
    expect([headers[0]!.numEntryPointOffsets, headers[0]!.offsetLenMinus1, headers[0]!.entryPointOffsetMinus1[7]]).toEqual([8, 9, 107]);
    expect(() => build({}, { tiles, entropySync: true }, [idr(9)])).toThrow(/num_entry_point_offsets is 9, outside 0\.\.8/);
    const uniform = build({}, { tiles: { ...tiles, widths: null, heights: null } }, []).pps;
    expect([uniform.colWidth, uniform.rowHeight]).toEqual([
      [1, 1, 2],
      [1, 2],
    ]);
    expect(() => build({}, { tiles: { ...tiles, widths: [2, 2] } }, [])).toThrow(/column_width_minus1 values sum to 4 CTBs, leaving none of 4/);
  });

  it('7.4.7.1 dependent slice segments: slice_segment_address of Ceil(Log2(PicSizeInCtbsY)) bits, slice fields taken from the segment before', () => {
    const first = sliceNal(H265NalType.IDR_N_LP, true, (w) => w.ue(2).flag(true).flag(false).se(3).flag(true));
    const dependent = sliceNal(H265NalType.IDR_N_LP, false, (w) => w.flag(true).u(4, 5));
    const { headers } = build({}, { dependentSlices: true }, [first, dependent]);
    const [a, d] = headers as [H265SliceHeader, H265SliceHeader];
    expect([d.dependentSliceSegmentFlag, d.sliceSegmentAddress, d.sliceType, d.sliceQpDelta, d.sliceSaoLumaFlag]).toEqual([true, 5, 2, 3, true]);
    expect(d.sliceDataBit).toBe(16 + 8 + 8); // header bytes, then 1 + 1 + 1 + 4 bits and byte_alignment()
    expect(a.sliceDataBit).toBe(16 + 16);
    const sps = parseSps(spsNal(baseSps))!;
    const pps = parsePps(ppsNal({ ...basePps, dependentSlices: true }), sps)!;
    expect(() => parseSliceHeader(dependent, sps, pps, null)).toThrow(/dependent slice segment with no slice segment before it/);
    const past = sliceNal(H265NalType.IDR_N_LP, false, (w) => w.flag(false).u(4, 12));
    expect(() => parseSliceHeader(past, sps, pps, a)).toThrow(/slice_segment_address is 12, outside 0\.\.11/);
  });
});

describe('7.4 values out of range and unsupported streams: typed errors naming the element', () => {
  it('ue(v) ranges name the element and the value (SPS id, slice_type, five_minus_max_num_merge_cand); an IRAP P slice is refused', () => {
    expect(() => parseSps(spsNal({ ...baseSps, spsId: 16 }))).toThrow(/sps_seq_parameter_set_id is 16, outside 0\.\.15/);
    const sps = parseSps(spsNal(baseSps))!;
    const pps = parsePps(ppsNal(basePps), sps)!;
    expect(() =>
      parseSliceHeader(
        sliceNal(H265NalType.IDR_N_LP, true, (w) => w.ue(3)),
        sps,
        pps,
      ),
    ).toThrow(/slice_type is 3, outside 0\.\.2/);
    expect(() =>
      parseSliceHeader(
        sliceNal(H265NalType.IDR_N_LP, true, (w) => w.ue(1)),
        sps,
        pps,
      ),
    ).toThrow(/slice_type is 1 in an IRAP picture/);
    const merge = sliceNal(H265NalType.TRAIL_R, true, (w) => {
      w.ue(1).u(8, 1).flag(false).ue(1).ue(0).ue(0).flag(true);
      pTail(w);
      w.ue(5);
    });
    expect(() => parseSliceHeader(merge, sps, pps)).toThrow(/five_minus_max_num_merge_cand is 5, outside 0\.\.4/);
    try {
      parseSps(spsNal({ ...baseSps, spsId: 16 }));
    } catch (e) {
      expect(e).toBeInstanceOf(H265BitstreamError);
    }
  });

  it('H265UnsupportedError: chroma_format_idc 2 (named, before anything after it), 12 bits, the range extension, and the x265 streams of profile 4', () => {
    const error = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(H265UnsupportedError);
        return e as H265UnsupportedError;
      }
      throw new Error('no error');
    };
    const chroma = error(() => parseSps(spsNal({ ...baseSps, chromaFormatIdc: 2, width: 0 })));
    expect([chroma.feature, chroma.found]).toEqual(['chroma_format_idc', 'chroma_format_idc 2 (4:2:2), not 1 (4:2:0)']);
    expect(error(() => parseSps(spsNal({ ...baseSps, bitDepthLumaMinus8: 4 }))).feature).toBe('bit_depth');
    expect(error(() => parseSps(spsNal({ ...baseSps, rangeExtension: true }))).feature).toBe('sps_range_extension');
    expect(error(() => parseSps(spsNal({ ...baseSps, profileIdc: 4 }))).found).toMatch(/general_profile_idc 4 \(format range extensions\)/);
    for (const name of ['unsupported-main-intra', 'unsupported-422', 'unsupported-12bit']) {
      const nals = streamNals(name);
      const sps = nals.find((n) => readNalHeader(n).nalUnitType === H265NalType.SPS_NUT)!;
      expect(error(() => parseSps(sps)).feature, name).toBe('profile');
    }
  });
});

/** The first VPS, SPS, PPS and slice of a fixture, with the bit where each header ends. */
function firstUnits(name: string) {
  const { nals, trace } = load(name);
  const units = nals.filter((n) => readNalHeader(n).nalUnitType <= H265NalType.PPS_NUT);
  return units.slice(0, 4).map((nal, i) => ({ nal, end: trace[i]!.end }));
}

function typedOnly(f: () => unknown): boolean {
  try {
    f();
    return true;
  } catch (e) {
    if (e instanceof H265BitstreamError || e instanceof H265UnsupportedError) return false;
    throw e;
  }
}

describe('breaking it: truncations and bit flips give typed errors only', () => {
  it('every truncation of each fixture parameter set and first slice header before its last field is H265BitstreamError, never a read past the cut', () => {
    for (const name of streams) {
      const [vps, sps, pps, slice] = firstUnits(name) as { nal: Uint8Array; end: number }[];
      const fullSps = parseSps(sps!.nal)!;
      const fullPps = parsePps(pps!.nal, fullSps)!;
      const parsers: [{ nal: Uint8Array; end: number }, (n: Uint8Array) => unknown][] = [
        [vps!, (n) => parseVps(n)],
        [sps!, (n) => parseSps(n)],
        [pps!, (n) => parsePps(n, fullSps)],
        [slice!, (n) => parseSliceHeader(n, fullSps, fullPps)],
      ];
      for (const [unit, parse] of parsers)
        for (let k = 0; k < unit.nal.length; k++) {
          // A copy of exactly k bytes: nothing past the cut exists to be read.
          const cut = unit.nal.slice(0, k);
          const ok = typedOnly(() => parse(cut));
          if (k * 8 < unit.end) expect(ok, `${name} ${readNalHeader(unit.nal).nalUnitType} cut at ${k}`).toBe(false);
        }
    }
  });

  it('3000 units with 1-4 random bits flipped (fixed seed) parse or throw H265BitstreamError / H265UnsupportedError, never another exception', () => {
    const random = mulberry32(0x2650);
    const sets = streams.map((name) => {
      const units = firstUnits(name).map((u) => u.nal);
      const sps = parseSps(units[1]!)!;
      return { units, sps, pps: parsePps(units[2]!, sps)! };
    });
    let parsed = 0;
    for (let n = 0; n < 3000; n++) {
      const set = sets[Math.floor(random() * sets.length)]!;
      const which = Math.floor(random() * 4);
      const nal = set.units[which]!.slice();
      const flips = 1 + Math.floor(random() * 4);
      // Flip within the header's bytes (past the 2-byte NAL header for most cases, so the unit keeps its type).
      for (let i = 0; i < flips; i++) {
        const bit = 16 + Math.floor(random() * (Math.min(nal.length, 48) * 8 - 16));
        nal[bit >> 3]! ^= 0x80 >> (bit & 7);
      }
      const ok = typedOnly(() => {
        if (which === 0) return parseVps(nal);
        if (which === 1) {
          const sps = parseSps(nal)!;
          const pps = parsePps(set.units[2]!, sps)!;
          return parseSliceHeader(set.units[3]!, sps, pps);
        }
        if (which === 2) return parseSliceHeader(set.units[3]!, set.sps, parsePps(nal, set.sps)!);
        return parseSliceHeader(nal, set.sps, set.pps);
      });
      if (ok) parsed++;
    }
    // Some flips land in fields any value of which is valid: both outcomes occur.
    expect(parsed).toBeGreaterThan(0);
    expect(parsed).toBeLessThan(3000);
  });
});
