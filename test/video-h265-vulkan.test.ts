// The H.265 records the Vulkan back end's native side reads (lib/video/h265-vulkan.ts
// through the decoder's H.265 side, lib/video/h265-codec.ts): for every committed
// x265 stream, the StdVideoH265VideoParameterSet / SequenceParameterSet /
// PictureParameterSet plain objects checked field by field against FFmpeg's
// trace_headers view (*.ffmpeg.jsonl), and each picture's descriptor (the ids,
// flags, PicOrderCntVal, the references bound and the three RefPicSet lists as
// DPB slots) against the trace's slice headers and FFmpeg's decode order; the
// StdVideoH265LevelIdc mapping; what a Vulkan H.265 Main session cannot take
// (more than 8 pictures in a RefPicSet list, Main 10, 4:2:2, 12 bits, Main
// Intra) refused with the room's typed H265UnsupportedError before any picture
// is given out. No GPU. The input in chunks and as MP4 samples with their
// hvcC: test/video-h265-input.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeVideoSupport, type VideoDecodeSupport } from '../lib';
import type { CodecEvent } from '../lib/video/codec';
import { DESC_HEADER, DESC_REF } from '../lib/video/h264-vulkan';
import { type H265Event, H265NalType as T, type H265Picture, H265Sequencer, H265UnsupportedError } from '../lib/video/h265';
import { H265Codec } from '../lib/video/h265-codec';
import {
  FLAG_IDR,
  FLAG_IRAP,
  FLAG_REFERENCE,
  FLAG_ST_RPS_SPS,
  H265_LEVELS,
  NO_ENTRY,
  REF_PIC_SET_SIZE,
  pictureDescriptor,
  stdLevel,
} from '../lib/video/h265-vulkan';
import { type BitWriter, basePps, baseSps, ppsNal, type SpsFields, sliceNal, spsNal, writeRps } from './fixtures/h265/syntax-writer';
import { ffmpegDecode, fixtureDir, mainProfile as main, streamNals, streams, tracedNals, type TracedNal } from './fixtures/h265/streams';

const supported = streams.filter((s) => s !== 'main10');
const file = (name: string) => new Uint8Array(readFileSync(join(fixtureDir, `${name}.h265`)));

/** The pictures of a run of the decoder's H.265 input over `chunks`, and its outputs. */
function run(chunks: readonly Uint8Array[], options?: { format?: 'annexb' | 'hvcc'; extradata?: Uint8Array }) {
  const codec = new H265Codec();
  const input = codec.input(options, [main]);
  const events: CodecEvent<H265Picture>[] = [];
  for (const chunk of chunks) events.push(...input.push(chunk));
  events.push(...input.flush());
  const pictures = events.filter((e) => e.type === 'picture').map((e) => e.picture);
  return { codec, pictures, outputs: events.filter((e) => e.type === 'output').map((e) => e.decodeIndex) };
}

/** A traced unit's fields by name (names that occur more than once: the first). */
function fieldsOf(nal: TracedNal): Map<string, number> {
  const map = new Map<string, number>();
  for (let i = 0; i < nal.fields.length; i += 2) if (!map.has(String(nal.fields[i]))) map.set(String(nal.fields[i]), Number(nal.fields[i + 1]));
  return map;
}

/** Names that occur more than once in a traced unit (e.g. one per short-term set): not comparable by name. */
function repeated(nal: TracedNal): Set<string> {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (let i = 0; i < nal.fields.length; i += 2) {
    const name = String(nal.fields[i]);
    if (seen.has(name)) twice.add(name);
    seen.add(name);
  }
  return twice;
}

/** The number and boolean fields of a StdVideo plain object and of its flags / vui / profileTierLevel, by StdVideo name. */
function flatten(o: Record<string, unknown>, out = new Map<string, number>()): Map<string, number> {
  for (const [key, value] of Object.entries(o)) {
    if (typeof value === 'number') out.set(key, value);
    else if (typeof value === 'boolean') out.set(key, value ? 1 : 0);
    else if (value && typeof value === 'object' && !Array.isArray(value) && ['flags', 'vui', 'profileTierLevel'].includes(key))
      flatten(value as Record<string, unknown>, out);
  }
  return out;
}

/**
 * Every field of `std` that FFmpeg's trace of the unit names the same way, compared; the number compared. Left out:
 * general_level_idc (StdVideoH265LevelIdc, an index: compared apart) and vui_hrd_parameters_present_flag (sent 0: no
 * HRD parameters are passed).
 */
function compareByName(std: Record<string, unknown>, nal: TracedNal, what: string): number {
  const traced = fieldsOf(nal);
  const twice = repeated(nal);
  let compared = 0;
  for (const [name, value] of flatten(std)) {
    if (name === 'general_level_idc' || name === 'vui_hrd_parameters_present_flag' || twice.has(name) || !traced.has(name)) continue;
    expect(value, `${what}: ${name}`).toBe(traced.get(name));
    compared++;
  }
  return compared;
}

/** The POCs a descriptor's three RefPicSet lists name, through its references. */
function descriptorLists(d: Int32Array): {
  before: number[];
  after: number[];
  lt: number[];
  refs: { slot: number; longTerm: boolean; poc: number }[];
} {
  const count = d[12]!;
  const refs = Array.from({ length: count }, (_, i) => {
    const o = DESC_HEADER + i * DESC_REF;
    return { slot: d[o]!, longTerm: (d[o + 2]! & 1) === 1, poc: d[o + 3]! };
  });
  const at = DESC_HEADER + count * DESC_REF;
  const list = (l: number) => {
    const out: number[] = [];
    for (let k = 0; k < REF_PIC_SET_SIZE; k++) {
      const slot = d[at + l * REF_PIC_SET_SIZE + k]!;
      if (slot === NO_ENTRY) continue;
      out.push(refs.find((r) => r.slot === slot)!.poc);
    }
    return out;
  };
  return { before: list(0), after: list(1), lt: list(2), refs };
}

describe('the parameter sets as StdVideoH265* plain objects, against FFmpeg’s trace of every committed stream', () => {
  for (const name of supported) {
    it(`${name}: VPS, SPS and PPS fields equal the traced syntax elements; the level is its StdVideoH265LevelIdc`, () => {
      const { codec, pictures } = run([file(name)]);
      expect(pictures.length).toBeGreaterThan(0);
      const sent: { sps: Record<string, unknown>[]; pps: Record<string, unknown>[]; vps: Record<string, unknown>[] } = { sps: [], pps: [], vps: [] };
      for (const p of pictures) codec.keepParameters(p);
      codec.sendParameters({
        setParameters: (sps: Record<string, unknown>[], pps: Record<string, unknown>[], vps?: Record<string, unknown>[]) => {
          sent.sps = sps;
          sent.pps = pps;
          sent.vps = vps ?? [];
        },
      } as never);
      const traced = tracedNals(name);
      const last = (type: number) => traced.filter((n) => fieldsOf(n).get('nal_unit_type') === type).at(-1)!;
      const [vps] = sent.vps;
      const [sps] = sent.sps;
      const [pps] = sent.pps;
      expect([sent.vps.length, sent.sps.length, sent.pps.length]).toEqual([1, 1, 1]);
      expect(compareByName(vps!, last(T.VPS_NUT), 'VPS')).toBeGreaterThanOrEqual(8);
      expect(compareByName(sps!, last(T.SPS_NUT), 'SPS')).toBeGreaterThanOrEqual(25);
      expect(compareByName(pps!, last(T.PPS_NUT), 'PPS')).toBeGreaterThanOrEqual(25);
      const spsFields = fieldsOf(last(T.SPS_NUT));
      const level = spsFields.get('general_level_idc')!;
      expect((sps!.profileTierLevel as { general_level_idc: number }).general_level_idc).toBe(H265_LEVELS.indexOf(level));
      expect((vps!.profileTierLevel as { general_level_idc: number }).general_level_idc).toBe(H265_LEVELS.indexOf(level));
      const dpb = sps!.decPicBufMgr as Record<string, number[]>;
      expect(dpb.max_dec_pic_buffering_minus1![0]).toBe(spsFields.get('sps_max_dec_pic_buffering_minus1[0]'));
      expect(dpb.max_num_reorder_pics![0]).toBe(spsFields.get('sps_max_num_reorder_pics[0]'));
      expect((sps!.shortTermRefPicSets as unknown[]).length).toBe(spsFields.get('num_short_term_ref_pic_sets'));
      // Scaling lists: passed where scaling_list_enabled_flag is set (the SPS's, or the defaults), the PPS's where it sends them.
      expect(sps!.scaling === null).toBe(spsFields.get('scaling_list_enabled_flag') === 0);
      if (sps!.scaling) {
        const s = sps!.scaling as Record<string, number[]>;
        expect([s.ScalingList4x4!.length, s.ScalingList8x8!.length, s.ScalingList16x16!.length, s.ScalingList32x32!.length]).toEqual([
          96, 384, 384, 128,
        ]);
        expect([s.ScalingListDCCoef16x16!.length, s.ScalingListDCCoef32x32!.length]).toEqual([6, 2]);
        for (const [key, dc] of [
          ['ScalingListDCCoef16x16', 0],
          ['ScalingListDCCoef32x32', 1],
        ] as const) {
          const sent16 = s[key]!;
          for (let m = 0; m < sent16.length; m++) {
            const coded = spsFields.get(`scaling_list_dc_coef_minus8[${dc}][${key.endsWith('32x32') ? m * 3 : m}]`);
            if (coded !== undefined) expect(sent16[m], `${key}[${m}]`).toBe(coded + 8);
          }
        }
      }
    });
  }

  it('SPS short-term sets: delta_poc_s0_minus1 / s1 and the used masks as st_ref_pic_set() codes them (an SPS set of b-pyramid, explicitly coded)', () => {
    const { codec, pictures } = run([file('b-pyramid')]);
    for (const p of pictures) codec.keepParameters(p);
    let sps: Record<string, unknown> = {};
    codec.sendParameters({ setParameters: (s: Record<string, unknown>[]) => (sps = s[0]!) } as never);
    const sets = sps.shortTermRefPicSets as Record<string, unknown>[];
    const room = pictures[0]!.sps.shortTermRefPicSets;
    for (const [i, set] of sets.entries()) {
      const r = room[i]!;
      // Whatever the coding, the deltas rebuild DeltaPocS0 / DeltaPocS1 (7-61, 7-62).
      let poc = 0;
      const s0 = (set.delta_poc_s0_minus1 as number[]).map((d) => (poc -= d + 1));
      poc = 0;
      const s1 = (set.delta_poc_s1_minus1 as number[]).map((d) => (poc += d + 1));
      expect(s0).toEqual(r.deltaPocS0);
      expect(s1).toEqual(r.deltaPocS1);
      expect(set.num_negative_pics).toBe(r.numNegativePics);
      expect(set.used_by_curr_pic_s0_flag).toBe(r.usedByCurrPicS0.reduce((m, u, k) => m | ((u ? 1 : 0) << k), 0));
    }
  });
});

describe('each picture’s descriptor, against FFmpeg’s decode and trace of every committed stream', () => {
  for (const name of supported) {
    it(`${name}: POC, ids, flags, slice segment offsets, and the RefPicSet lists as slots of the references bound`, () => {
      const { pictures } = run([file(name)]);
      expect(pictures.map((p) => p.picOrderCntVal)).toEqual(ffmpegDecode(name).decoded);
      // The traced first slice segment of each picture, in order (RASL pictures FFmpeg skipped too are passed over).
      const firsts = tracedNals(name)
        .map(fieldsOf)
        .filter((f) => (f.get('nal_unit_type') ?? 99) <= 31 && f.get('first_slice_segment_in_pic_flag') === 1);
      const segments = tracedNals(name)
        .map(fieldsOf)
        .filter((f) => (f.get('nal_unit_type') ?? 99) <= 31);
      let t = 0;
      for (const p of pictures) {
        const lsb = p.picOrderCntVal & (p.sps.maxPicOrderCntLsb - 1);
        while (firsts[t]!.get('nal_unit_type') !== p.nalUnitType || (firsts[t]!.get('slice_pic_order_cnt_lsb') ?? 0) !== lsb) t++;
        const f = firsts[t++]!;
        const d = pictureDescriptor(p);
        const type = f.get('nal_unit_type')!;
        expect(d[0]).toBe(p.setupSlot);
        expect(d[1]! & FLAG_IRAP).toBe(type >= 16 && type <= 23 ? FLAG_IRAP : 0);
        expect(d[1]! & FLAG_IDR).toBe(type === T.IDR_W_RADL || type === T.IDR_N_LP ? FLAG_IDR : 0);
        // IsReference: not a sub-layer non-reference picture (even types up to 14) of the highest sub-layer.
        const highest = (f.get('nuh_temporal_id_plus1') ?? 1) - 1 === p.sps.spsMaxSubLayersMinus1;
        expect(d[1]! & FLAG_REFERENCE).toBe(type <= 14 && type % 2 === 0 && highest ? 0 : FLAG_REFERENCE);
        expect(d[1]! & FLAG_ST_RPS_SPS).toBe(f.get('short_term_ref_pic_set_sps_flag') === 1 ? FLAG_ST_RPS_SPS : 0);
        expect([d[2], d[3], d[4]]).toEqual([p.vps.vpsId, p.sps.spsId, f.get('slice_pic_parameter_set_id')]);
        expect(d[6]).toBe(p.picOrderCntVal);
        // NumBitsForSTRefPicSetInSlice: the set coded in the header (not for IDR, nor when the SPS's is named).
        if (f.get('short_term_ref_pic_set_sps_flag') === 0) expect(d[7]).toBeGreaterThan(0);
        else expect(d[7]).toBe(0);
        // NumDeltaPocsOfRefRpsIdx: of the set in use where it is predicted (the header's: as the sequencer gives it).
        const stRps = p.slices[0]!.header.stRps;
        expect(d[5]).toBe(stRps.interRefPicSetPredictionFlag ? stRps.usedByCurrPicFlag.length - 1 : 0);
        if (f.get('short_term_ref_pic_set_sps_flag') === 0)
          expect(d[5]).toBe(f.get('inter_ref_pic_set_prediction_flag') === 1 ? p.numDeltaPocsOfRefRpsIdx : 0);
        expect([d[8], d[9], d[10], d[11]]).toEqual([p.crop.left, p.crop.top, p.crop.width, p.crop.height]);
        // The lists, through the references bound: the sequencer's POCs; and where the header codes the set explicitly,
        // the POCs its deltas give (7-61, 7-62), read from FFmpeg's trace.
        const lists = descriptorLists(d);
        expect(lists.before).toEqual(p.rps.stCurrBefore);
        expect(lists.after).toEqual(p.rps.stCurrAfter);
        expect(lists.lt).toEqual(p.rps.ltCurr);
        if (f.get('short_term_ref_pic_set_sps_flag') === 0 && f.get('inter_ref_pic_set_prediction_flag') !== 1) {
          const before: number[] = [];
          const after: number[] = [];
          let poc = p.picOrderCntVal;
          for (let i = 0; i < (f.get('num_negative_pics') ?? 0); i++) {
            poc -= f.get(`delta_poc_s0_minus1[${i}]`)! + 1;
            if (f.get(`used_by_curr_pic_s0_flag[${i}]`) === 1) before.push(poc);
          }
          poc = p.picOrderCntVal;
          for (let i = 0; i < (f.get('num_positive_pics') ?? 0); i++) {
            poc += f.get(`delta_poc_s1_minus1[${i}]`)! + 1;
            if (f.get(`used_by_curr_pic_s1_flag[${i}]`) === 1) after.push(poc);
          }
          expect(lists.before).toEqual(before);
          expect(lists.after).toEqual(after);
        }
        // The references bound are exactly the lists' pictures, once each, none in the setup slot.
        const inLists = new Set([...p.refPicSetStCurrBefore, ...p.refPicSetStCurrAfter, ...p.refPicSetLtCurr]);
        expect(lists.refs.map((r) => r.slot).sort()).toEqual([...inLists].sort());
        expect(lists.refs.some((r) => r.slot === p.setupSlot)).toBe(false);
        for (const r of lists.refs) expect(r.longTerm).toBe(p.refPicSetLtCurr.includes(r.slot));
        expect(d.length).toBe(DESC_HEADER + lists.refs.length * DESC_REF + 3 * REF_PIC_SET_SIZE);
        // Each slice segment offset is a start code followed by one of the picture's slice segment NAL units.
        expect(p.sliceOffsets.length).toBe(p.slices.length);
        for (const offset of p.sliceOffsets) {
          expect([...p.data.subarray(offset, offset + 3)]).toEqual([0, 0, 1]);
          expect((p.data[offset + 3]! >> 1) & 63).toBe(p.nalUnitType);
        }
      }
      // Slice segments in all: as FFmpeg traced them, less those of the pictures not decoded (RASL after the first CRA).
      const skipped = segments.length - pictures.reduce((n, p) => n + p.slices.length, 0);
      expect(skipped).toBeGreaterThanOrEqual(0);
      if (!['open-gop'].includes(name)) expect(skipped).toBe(0);
    });
  }
});

describe('StdVideoH265LevelIdc', () => {
  it('general_level_idc (30 x the level) maps to the index 1.0 = 0 ... 6.2 = 12; between levels to the next; past 6.2 to 6.2', () => {
    expect(H265_LEVELS.map(stdLevel)).toEqual([...Array(13).keys()]);
    expect([stdLevel(93), stdLevel(153), stdLevel(186)]).toEqual([4, 8, 12]);
    expect([stdLevel(1), stdLevel(91), stdLevel(255)]).toEqual([0, 4, 12]);
  });

  it('`info` prints an H.265 profile’s level from its general_level_idc (153: 5.1, 150: 5.0)', () => {
    const support = (maxLevelIdc: number): VideoDecodeSupport => ({
      device: 'test',
      decodeFamily: 1,
      decodeQueues: 1,
      decodeTransfers: true,
      transferGranularity: 1,
      codecs: ['h264', 'h265'],
      profiles: [{ ...main, maxLevelIdc }],
    });
    expect(describeVideoSupport(support(153))[1]).toBe('h265 Main: 16x16 to 4096x4096, level 5.1, 17 DPB slots, 16 references, nv12 (DPB = output)');
    expect(describeVideoSupport(support(150))[1]).toContain('level 5.0,');
    expect(describeVideoSupport(support(186))[1]).toContain('level 6.2,');
  });
});

// A hand-built stream (test/fixtures/h265/syntax-writer.ts): an IDR picture, then P pictures each predicting from every
// picture before it, up to `count` pictures.
const vps = streamNals('ip')[0]!;
function manyReferences(count: number): Uint8Array[] {
  const sps: SpsFields = { ...baseSps, log2MaxPocLsbMinus4: 0, sao: false, temporalMvp: false, maxDecPicBufferingMinus1: 15 };
  const nals = [vps, spsNal(sps), ppsNal(basePps), sliceNal(T.IDR_N_LP, true, (w: BitWriter) => w.ue(2).se(0).flag(true))];
  for (let poc = 1; poc < count; poc++) {
    const s0 = Array.from({ length: poc }, (_, i) => [-(i + 1), true] as [number, boolean]);
    nals.push(
      sliceNal(T.TRAIL_R, true, (w: BitWriter) => {
        w.ue(1).u(4, poc).flag(false);
        writeRps(w, 0, 0, { s0, s1: [] });
        w.flag(true)
          .ue(poc - 1)
          .ue(0); // num_ref_idx_active_override_flag, num_ref_idx_l0_active_minus1, five_minus_max_num_merge_cand
        w.se(0).flag(true);
      }),
    );
  }
  return nals;
}

describe('what a Vulkan H.265 Main session cannot take: typed errors before any of its pictures', () => {
  it('a picture with 9 pictures in RefPicSetStCurrBefore: H265UnsupportedError naming the list, the room unlimited (16) decodes it', () => {
    const nals = manyReferences(10);
    // The room alone (its default: 16 a list) gives the tenth picture with 9.
    const seq = new H265Sequencer();
    const all: H265Event[] = [];
    for (const nal of nals) all.push(...seq.push(nal));
    all.push(...seq.flush());
    const tenth = all.filter((e) => e.type === 'picture').at(-1)!;
    expect(tenth.type === 'picture' && tenth.picture.refPicSetStCurrBefore.length).toBe(9);
    // The writer refuses such a picture outright (RangeError): it never reaches the native side.
    expect(() => pictureDescriptor((tenth as { picture: H265Picture }).picture)).toThrow(/RefPicSet list of 9 pictures; Vulkan Video takes 8/);
    // The decoder's input: the nine pictures before it, then the typed error naming the list, before the tenth is given out.
    const input = new H265Codec().input(undefined, [main]);
    const pictures: H265Picture[] = [];
    let error: unknown = null;
    try {
      for (const nal of nals) for (const e of input.push(Uint8Array.of(0, 0, 0, 1, ...nal))) if (e.type === 'picture') pictures.push(e.picture);
      for (const e of input.flush()) if (e.type === 'picture') pictures.push(e.picture);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(H265UnsupportedError);
    expect((error as H265UnsupportedError).feature).toBe('RefPicSetStCurrBefore');
    expect((error as H265UnsupportedError).found).toMatch(/^9 pictures for the picture of PicOrderCntVal 9; this decoder takes up to 8/);
    expect(pictures.length).toBeLessThanOrEqual(9);
    for (const p of pictures) expect(p.refPicSetStCurrBefore.length).toBeLessThanOrEqual(8);
    // 8 a list is taken.
    expect(run(manyReferences(9).map((n) => Uint8Array.of(0, 0, 1, ...n))).pictures.at(-1)!.refPicSetStCurrBefore).toHaveLength(8);
  });

  it('a reference the stream lacks (8.3.3, generated): its list entry is "no reference picture" (0xff) and it is not bound', () => {
    const sps: SpsFields = { ...baseSps, log2MaxPocLsbMinus4: 0, sao: false, temporalMvp: false, maxDecPicBufferingMinus1: 4 };
    const nals = [
      vps,
      spsNal(sps),
      ppsNal(basePps),
      sliceNal(T.IDR_N_LP, true, (w: BitWriter) => w.ue(2).se(0).flag(true)),
      // POC 2 predicting from POC 1 (never sent) and POC 0.
      sliceNal(T.TRAIL_R, true, (w: BitWriter) => {
        w.ue(1).u(4, 2).flag(false);
        writeRps(w, 0, 0, {
          s0: [
            [-1, true],
            [-2, true],
          ],
          s1: [],
        });
        w.flag(true).ue(1).ue(0).se(0).flag(true);
      }),
    ];
    const { pictures } = run(nals.map((n) => Uint8Array.of(0, 0, 1, ...n)));
    const p = pictures[1]!;
    expect(p.rps.stCurrBefore).toEqual([1, 0]);
    expect(p.references.find((r) => r.picOrderCntVal === 1)?.generated).toBe(true);
    const d = pictureDescriptor(p);
    expect(d[12]).toBe(1);
    expect(d[DESC_HEADER]).toBe(pictures[0]!.setupSlot);
    const at = DESC_HEADER + DESC_REF;
    expect([...d.subarray(at, at + 3)]).toEqual([NO_ENTRY, pictures[0]!.setupSlot, NO_ENTRY]);
  });

  for (const [name, feature] of [
    ['main10', /^bit_depth$/],
    ['unsupported-422', /chroma_format_idc|profile/],
    ['unsupported-12bit', /bit_depth|profile/],
    ['unsupported-main-intra', /profile|range_extension/],
  ] as const) {
    it(`${name}: H265UnsupportedError (${feature.source}) before any picture is given out`, () => {
      const input = new H265Codec().input(undefined, [main]);
      const events: CodecEvent<H265Picture>[] = [];
      let error: unknown = null;
      for (const step of [() => input.push(file(name)), () => input.flush()])
        try {
          events.push(...step());
        } catch (e) {
          error ??= e;
        }
      expect(error).toBeInstanceOf(H265UnsupportedError);
      expect((error as H265UnsupportedError).feature).toMatch(feature);
      expect(events.filter((e) => e.type === 'picture')).toEqual([]);
    });
  }
});
