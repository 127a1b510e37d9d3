// H265Sequencer (the decoding process a hardware decoder leaves to its
// driver, Rec. ITU-T H.265 8.1.3, 8.3, C.5.2) against FFmpeg's own decode of
// every fixture stream (test/fixtures/h265/*.ffmpeg.jsonl: the POC of each
// picture its hevc decoder decoded, in decode order, and of each frame it
// output, in output order; *.framemd5: the frames it output), then
// hand-built streams for what x265 does not make, then broken streams.
import { describe, expect, it } from 'vitest';
import {
  H265BitstreamError,
  type H265Event,
  H265NalType as T,
  type H265Picture,
  H265Sequencer,
  type H265SequencerOptions,
  H265SliceType,
  H265UnsupportedError,
} from '../lib/video/h265';
import {
  type BitWriter,
  basePps,
  baseSps,
  type PpsFields,
  ppsNal,
  type RpsSpec,
  type SpsFields,
  sliceNal,
  spsNal,
  writeRps,
} from './fixtures/h265/syntax-writer';
import { ffmpegDecode, streamNals, streams } from './fixtures/h265/streams';
import { mulberry32 } from './helpers/random.mjs';

/**
 * Follows the events as a decoder would and checks the slot rules on each:
 * slots below maxSlots; a picture's setup slot is none of its references';
 * a slot is given to a new picture only once the picture in it was output
 * (or will never be) and is no longer referenced (a reference names the
 * picture that is in its slot); lists name only the picture's Curr slots;
 * each picture with PicOutputFlag 1 output once, by decodeIndex, after it was decoded.
 */
class Decoder {
  readonly pictures: H265Picture[] = [];
  readonly outputs: { decodeIndex: number; discard: boolean }[] = [];
  /** Slot -> decodeIndex in it (-1: a generated picture). */
  readonly #inSlot = new Map<number, number>();
  readonly #pending = new Set<number>();
  constructor(readonly maxSlots = 17) {}

  take(events: readonly H265Event[]): void {
    for (const e of events) {
      if (e.type === 'output') {
        expect(this.#pending.has(e.decodeIndex)).toBe(true);
        this.#pending.delete(e.decodeIndex);
        this.outputs.push({ decodeIndex: e.decodeIndex, discard: e.discard === true });
        continue;
      }
      const p = e.picture;
      expect(p.decodeIndex).toBe(this.pictures.length);
      const slots = p.references.map((r) => r.slot);
      expect(new Set(slots).size).toBe(slots.length);
      for (const s of [...slots, p.setupSlot]) expect(s >= 0 && s < this.maxSlots).toBe(true);
      expect(slots).not.toContain(p.setupSlot);
      for (const r of p.references) {
        if (r.generated) {
          expect(r.decodeIndex).toBe(-1);
          const was = this.#inSlot.get(r.slot);
          if (was !== undefined && was >= 0) expect(this.#pending.has(was)).toBe(false);
          this.#inSlot.set(r.slot, -1);
        } else {
          expect(this.#inSlot.get(r.slot)).toBe(r.decodeIndex);
          expect(this.pictures[r.decodeIndex]!.picOrderCntVal).toBe(r.picOrderCntVal);
        }
      }
      const was = this.#inSlot.get(p.setupSlot);
      if (was !== undefined && was >= 0) expect(this.#pending.has(was)).toBe(false);
      const curr = [...p.refPicSetStCurrBefore, ...p.refPicSetStCurrAfter, ...p.refPicSetLtCurr];
      for (const s of curr) expect(slots).toContain(s);
      for (const sl of p.slices) for (const s of [...sl.refPicList0, ...sl.refPicList1]) expect(curr).toContain(s);
      this.#inSlot.set(p.setupSlot, p.decodeIndex);
      if (p.picOutputFlag) this.#pending.add(p.decodeIndex);
      this.pictures.push(p);
    }
  }

  /** After flush(): nothing left waiting. */
  done(): void {
    expect([...this.#pending]).toEqual([]);
  }

  pocs(): number[] {
    return this.pictures.map((p) => p.picOrderCntVal);
  }

  shown(): number[] {
    return this.outputs.filter((o) => !o.discard).map((o) => this.pictures[o.decodeIndex]!.picOrderCntVal);
  }
}

function run(nals: readonly Uint8Array[], options?: H265SequencerOptions): { d: Decoder; seq: H265Sequencer } {
  const seq = new H265Sequencer(options);
  const d = new Decoder(options?.maxSlots);
  for (const nal of nals) d.take(seq.push(nal));
  d.take(seq.flush());
  d.done();
  return { d, seq };
}

describe.each(streams)('%s against FFmpeg', (name) => {
  const nals = streamNals(name);
  const ffmpeg = ffmpegDecode(name);

  it('8.3.1 picture order count: the pictures decoded, in decode order, as FFmpeg decoded them (8.1.3 RASL skipped where it skipped them)', () => {
    const { d, seq } = run(nals);
    expect(d.pocs()).toEqual(ffmpeg.decoded);
    expect(seq.skippedRasl + seq.skippedBeforeIrap).toBe(0);
  });

  it('C.5.2 output order ("bumping"): the frames FFmpeg output, in its order, as many as the framemd5 has', () => {
    const { d } = run(nals);
    expect(d.shown()).toEqual(ffmpeg.output);
    expect(d.outputs.length).toBe(ffmpeg.frames);
  });

  it('8.3.2 reference picture set and 8.3.4 lists: the sets as the slice headers say, found in the DPB, lists of the active size', () => {
    const { d } = run(nals);
    for (const p of d.pictures) {
      const h = p.slices[0]!.header;
      const poc = p.picOrderCntVal;
      const used = (deltas: readonly number[], flags: readonly boolean[], want: boolean) =>
        deltas.filter((_, i) => flags[i] === want).map((x) => poc + x);
      expect(p.rps.stCurrBefore).toEqual(used(h.stRps.deltaPocS0, h.stRps.usedByCurrPicS0, true));
      expect(p.rps.stCurrAfter).toEqual(used(h.stRps.deltaPocS1, h.stRps.usedByCurrPicS1, true));
      expect(p.rps.stFoll).toEqual([
        ...used(h.stRps.deltaPocS0, h.stRps.usedByCurrPicS0, false),
        ...used(h.stRps.deltaPocS1, h.stRps.usedByCurrPicS1, false),
      ]);
      const bySlot = new Map(p.references.map((r) => [r.slot, r]));
      expect(p.refPicSetStCurrBefore.map((s) => bySlot.get(s)!.picOrderCntVal)).toEqual(p.rps.stCurrBefore);
      expect(p.refPicSetStCurrAfter.map((s) => bySlot.get(s)!.picOrderCntVal)).toEqual(p.rps.stCurrAfter);
      for (const r of p.references) expect(r.generated).toBe(false);
      expect(p.references.length).toBe(
        p.rps.stCurrBefore.length + p.rps.stCurrAfter.length + p.rps.stFoll.length + p.rps.ltCurr.length + p.rps.ltFoll.length,
      );
      for (const s of p.slices) {
        const t = s.header.sliceType;
        expect(s.refPicList0.length).toBe(t === H265SliceType.I ? 0 : s.header.numRefIdxL0ActiveMinus1 + 1);
        expect(s.refPicList1.length).toBe(t === H265SliceType.B ? s.header.numRefIdxL1ActiveMinus1 + 1 : 0);
        // 8.3.4 without modification: RefPicList0 starts with StCurrBefore, RefPicList1 with StCurrAfter.
        if (t !== H265SliceType.I && !s.header.refPicListModificationFlagL0)
          expect(s.refPicList0[0]).toBe([...p.refPicSetStCurrBefore, ...p.refPicSetStCurrAfter, ...p.refPicSetLtCurr][0]);
        if (t === H265SliceType.B && !s.header.refPicListModificationFlagL1)
          expect(s.refPicList1[0]).toBe([...p.refPicSetStCurrAfter, ...p.refPicSetStCurrBefore, ...p.refPicSetLtCurr][0]);
      }
      expect(p.sliceOffsets.length).toBe(p.slices.length);
      for (const off of p.sliceOffsets) expect([...p.data.subarray(off, off + 3)]).toEqual([0, 0, 1]);
      expect(p.numBitsForStRefPicSetInSlice).toBe(h.shortTermRefPicSetSpsFlag ? 0 : h.stRpsBits);
      expect(p.codedWidth).toBe(p.sps.picWidthInLumaSamples);
      expect(p.isReference).toBe(h.nalUnitType > 14 || h.nalUnitType % 2 === 1);
    }
  });

  it('C.5.2.2 DPB slots: a stream refused when sps_max_dec_pic_buffering passes the slots, with the numbers named', () => {
    const sps = run(nals).d.pictures[0]!.sps;
    const size = sps.ordering.maxDecPicBufferingMinus1[sps.spsMaxSubLayersMinus1]! + 1;
    const seq = new H265Sequencer({ maxSlots: size - 1 });
    const events: H265Event[] = [];
    let error: unknown = null;
    try {
      for (const nal of nals) events.push(...seq.push(nal));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(H265UnsupportedError);
    expect((error as H265UnsupportedError).feature).toBe('dpb_slots');
    expect((error as H265UnsupportedError).found).toContain(`needs ${size} DPB slots; this decoder has ${size - 1}`);
    expect(events.filter((e) => e.type === 'picture')).toEqual([]);
  });
});

// Hand-built streams: a 64x48 SPS with 4-bit POC LSBs (MaxPicOrderCntLsb 16), a PPS, and the VPS of ip.h265.
const vps = streamNals('ip')[0]!;
const sps0: SpsFields = { ...baseSps, log2MaxPocLsbMinus4: 0, sao: false, temporalMvp: false, maxDecPicBufferingMinus1: 4 };

interface PicSpec {
  type: number;
  lsb?: number;
  st?: [number, boolean][];
  s1?: [number, boolean][];
  lt?: { lsb: number; used: boolean; msbCycle?: number }[];
  sliceType?: number;
  output?: boolean;
  noOutputOfPriorPics?: boolean;
}

function pic(sps: SpsFields, pps: PpsFields, p: PicSpec): Uint8Array {
  const sliceType = p.sliceType ?? (p.type >= 16 ? H265SliceType.I : H265SliceType.P);
  const idr = p.type === T.IDR_W_RADL || p.type === T.IDR_N_LP;
  const refs = [...(p.st ?? []), ...(p.s1 ?? []), ...(p.lt ?? []).map((l) => [0, l.used] as [number, boolean])].filter(([, u]) => u).length;
  return sliceNal(
    p.type,
    true,
    (w: BitWriter) => {
      w.ue(sliceType);
      if (pps.outputFlagPresent) w.flag(p.output ?? true);
      if (!idr) {
        w.u(sps.log2MaxPocLsbMinus4 + 4, p.lsb ?? 0).flag(false);
        const rps: RpsSpec = { s0: p.st ?? [], s1: p.s1 ?? [] };
        writeRps(w, sps.rps.length, sps.rps.length, rps);
        if (sps.longTerm) {
          w.ue((p.lt ?? []).length);
          for (const l of p.lt ?? []) {
            w.u(sps.log2MaxPocLsbMinus4 + 4, l.lsb)
              .flag(l.used)
              .flag(l.msbCycle !== undefined);
            if (l.msbCycle !== undefined) w.ue(l.msbCycle);
          }
        }
      }
      if (sliceType !== H265SliceType.I) {
        w.flag(true).ue(refs - 1);
        if (sliceType === H265SliceType.B) w.ue(refs - 1).flag(false);
        w.ue(0); // five_minus_max_num_merge_cand
      }
      w.se(0).flag(true); // slice_qp_delta, slice_loop_filter_across_slices_enabled_flag
    },
    0,
    1,
    p.noOutputOfPriorPics ?? false,
  );
}

function stream(pics: (PicSpec | 'eos')[], sps: SpsFields = sps0, pps: PpsFields = basePps): Uint8Array[] {
  return [vps, spsNal(sps), ppsNal(pps), ...pics.map((p) => (p === 'eos' ? Uint8Array.of(T.EOS_NUT << 1, 1) : pic(sps, pps, p)))];
}

describe('hand-built streams', () => {
  it('8.3.2 reference picture set: a long-term picture kept by its LSBs, then with delta_poc_msb_present_flag when the LSBs repeat', () => {
    const sps = { ...sps0, longTerm: { lsb: [], used: [] } };
    const pics: PicSpec[] = [{ type: T.IDR_N_LP }, { type: T.TRAIL_R, lsb: 1, st: [[-1, true]] }];
    for (let poc = 2; poc <= 20; poc++) {
      // POC 0 as long-term: by its LSBs alone until another picture (POC 16) has LSB 0 too; then with its MSB cycle.
      const lt = poc < 16 ? { lsb: 0, used: true } : { lsb: 0, used: true, msbCycle: Math.floor(poc / 16) };
      pics.push({ type: T.TRAIL_R, lsb: poc % 16, st: [[-1, true]], lt: [lt] });
    }
    const { d } = run(stream(pics, sps));
    expect(d.pocs()).toEqual([...Array(21).keys()]);
    expect(d.shown()).toEqual([...Array(21).keys()]);
    const slot0 = d.pictures[0]!.setupSlot;
    for (const p of d.pictures.slice(2)) {
      expect(p.rps.ltCurr).toEqual([0]);
      expect(p.refPicSetLtCurr).toEqual([slot0]);
      expect(p.references.find((r) => r.slot === slot0)).toMatchObject({ longTerm: true, decodeIndex: 0, picOrderCntVal: 0 });
      expect(p.refPicSetStCurrBefore.map((s) => p.references.find((r) => r.slot === s)!.picOrderCntVal)).toEqual([p.picOrderCntVal - 1]);
      expect(p.slices[0]!.refPicList0).toEqual([...p.refPicSetStCurrBefore, slot0]);
    }
  });

  it('8.1.3 NoRaslOutputFlag: a CRA after an end of sequence drops its RASL pictures (8.3.3 generates the one they use); mid-stream it does not', () => {
    const tail: PicSpec[] = [
      { type: T.CRA_NUT, lsb: 8, st: [[-4, false]] },
      { type: T.RASL_N, lsb: 6, st: [[-2, true]], s1: [[2, true]], sliceType: H265SliceType.B },
      { type: T.RADL_N, lsb: 7, s1: [[1, true]] },
      { type: T.TRAIL_R, lsb: 9, st: [[-1, true]] },
    ];
    const head: PicSpec[] = [{ type: T.IDR_N_LP }, { type: T.TRAIL_R, lsb: 4, st: [[-4, true]] }];
    // Two pictures may wait for output (the RADL picture comes before the CRA in output order).
    const sps = { ...sps0, maxNumReorderPics: 2 };
    const afterEos = run(stream([...head, 'eos', ...tail], sps));
    expect(afterEos.seq.skippedRasl).toBe(1);
    expect(afterEos.d.pocs()).toEqual([0, 4, 8, 7, 9]);
    expect(afterEos.d.shown()).toEqual([0, 4, 7, 8, 9]);
    const cra = afterEos.d.pictures[2]!;
    expect(cra.noRaslOutputFlag).toBe(true);
    expect(cra.references).toEqual([expect.objectContaining({ picOrderCntVal: 4, generated: true, longTerm: false })]);
    const midStream = run(stream([...head, ...tail], sps));
    expect(midStream.seq.skippedRasl).toBe(0);
    expect(midStream.d.pocs()).toEqual([0, 4, 8, 6, 7, 9]);
    expect(midStream.d.shown()).toEqual([0, 4, 6, 7, 8, 9]);
    expect(midStream.d.pictures[2]!.noRaslOutputFlag).toBe(false);
    expect(midStream.d.pictures[3]!.references.every((r) => !r.generated)).toBe(true);
  });

  it('8.1.3 BLA: POC restarts, RASL pictures dropped, the pictures before it output (C.5.2.2), 8.3.3 generates its Foll pictures', () => {
    const { d, seq } = run(
      stream([
        { type: T.IDR_N_LP },
        { type: T.TRAIL_R, lsb: 4, st: [[-4, true]] },
        { type: T.TRAIL_R, lsb: 12, st: [[-8, true]] },
        { type: T.BLA_W_LP, lsb: 8, st: [[-4, false]] },
        { type: T.RASL_N, lsb: 6, st: [[-2, true]], s1: [[2, true]], sliceType: H265SliceType.B },
        { type: T.TRAIL_R, lsb: 9, st: [[-1, true]] },
      ]),
    );
    expect(seq.skippedRasl).toBe(1);
    expect(d.pocs()).toEqual([0, 4, 12, 8, 9]);
    expect(d.shown()).toEqual([0, 4, 12, 8, 9]);
    expect(d.pictures[3]!.references).toEqual([expect.objectContaining({ picOrderCntVal: 4, generated: true })]);
    expect(d.pictures[4]!.references.map((r) => r.picOrderCntVal)).toEqual([8]);
  });

  it('8.1.3 PicOutputFlag: a picture with pic_output_flag 0 is decoded and used for reference, never output', () => {
    const pps = { ...basePps, outputFlagPresent: true };
    const { d } = run(
      stream(
        [{ type: T.IDR_N_LP }, { type: T.TRAIL_R, lsb: 1, st: [[-1, true]], output: false }, { type: T.TRAIL_R, lsb: 2, st: [[-1, true]] }],
        sps0,
        pps,
      ),
    );
    expect(d.pocs()).toEqual([0, 1, 2]);
    expect(d.pictures.map((p) => p.picOutputFlag)).toEqual([true, false, true]);
    expect(d.shown()).toEqual([0, 2]);
    expect(d.pictures[2]!.references.map((r) => r.decodeIndex)).toEqual([1]);
  });

  it('C.5.2.2 no_output_of_prior_pics_flag: an IDR discards what waits (discard events); without it they are output first', () => {
    const sps = { ...sps0, maxNumReorderPics: 2 };
    const pics = (flag: boolean): PicSpec[] => [
      { type: T.IDR_N_LP },
      { type: T.TRAIL_R, lsb: 4, st: [[-4, true]] },
      { type: T.TRAIL_R, lsb: 8, st: [[-4, true]] },
      { type: T.IDR_N_LP, noOutputOfPriorPics: flag },
    ];
    const discarded = run(stream(pics(true), sps)).d;
    expect(discarded.outputs.map((o) => [discarded.pictures[o.decodeIndex]!.picOrderCntVal, o.discard])).toEqual([
      [0, false],
      [4, true],
      [8, true],
      [0, false],
    ]);
    const shown = run(stream(pics(false), sps)).d;
    expect(shown.shown()).toEqual([0, 4, 8, 0]);
  });

  it('8.3.2 a missing reference in RefPicSetStCurrBefore is concealed: a generated picture in a slot of its own, never a crash', () => {
    const { d } = run(
      stream([
        { type: T.IDR_N_LP },
        { type: T.TRAIL_R, lsb: 1, st: [[-1, true]] },
        {
          type: T.TRAIL_R,
          lsb: 3,
          st: [
            [-1, true],
            [-2, true],
          ],
        },
        {
          type: T.TRAIL_R,
          lsb: 4,
          st: [
            [-1, true],
            [-2, true],
          ],
        },
      ]),
    );
    expect(d.pocs()).toEqual([0, 1, 3, 4]);
    expect(d.shown()).toEqual([0, 1, 3, 4]);
    const p = d.pictures[2]!;
    expect(p.rps.stCurrBefore).toEqual([2, 1]);
    const gen = p.references.find((r) => r.picOrderCntVal === 2)!;
    expect(gen).toMatchObject({ generated: true, decodeIndex: -1, longTerm: false });
    expect(p.refPicSetStCurrBefore).toEqual([gen.slot, d.pictures[1]!.setupSlot]);
    expect(p.slices[0]!.refPicList0).toEqual(p.refPicSetStCurrBefore);
    // The generated picture stays while the next picture's set names it.
    expect(d.pictures[3]!.references.find((r) => r.picOrderCntVal === 2)).toMatchObject({ generated: true, slot: gen.slot });
  });

  it('C.5.2.2 more references than the device has slots: H265UnsupportedError naming both numbers, before any picture', () => {
    const seq = new H265Sequencer({ maxSlots: 3 });
    const events: H265Event[] = [];
    const nals = stream([{ type: T.IDR_N_LP }, { type: T.TRAIL_R, lsb: 1, st: [[-1, true]] }]);
    expect(() => {
      for (const nal of nals) events.push(...seq.push(nal));
    }).toThrow(/sps_max_dec_pic_buffering_minus1 4 \(SPS 0\) needs 5 DPB slots; this decoder has 3/);
    expect(events).toEqual([]);
  });

  it('8.3.2 a set larger than sps_max_dec_pic_buffering_minus1 is H265BitstreamError, and the sequencer goes on', () => {
    const sps = { ...sps0, maxDecPicBufferingMinus1: 2, longTerm: { lsb: [], used: [] } };
    const nals = stream(
      [
        { type: T.IDR_N_LP },
        {
          type: T.TRAIL_R,
          lsb: 1,
          st: [
            [-1, true],
            [-2, false],
          ],
          lt: [{ lsb: 5, used: false }],
        },
        { type: T.TRAIL_R, lsb: 2, st: [[-1, true]] },
      ],
      sps,
    );
    const seq = new H265Sequencer();
    const d = new Decoder();
    const errors: unknown[] = [];
    for (const nal of nals)
      try {
        d.take(seq.push(nal));
      } catch (e) {
        errors.push(e);
      }
    d.take(seq.flush());
    expect(errors.length).toBe(1);
    expect(errors[0]).toBeInstanceOf(H265BitstreamError);
    expect(d.pocs()).toEqual([0, 2]);
  });
});

describe('broken streams', () => {
  /** Feeds `nals`; typed errors are counted and feeding goes on; any other exception fails; slot rules are checked on every event. */
  function feed(nals: readonly Uint8Array[], maxSlots?: number): number {
    const seq = new H265Sequencer(maxSlots ? { maxSlots } : undefined);
    const d = new Decoder(maxSlots);
    let typed = 0;
    const step = (f: () => H265Event[]) => {
      try {
        d.take(f());
      } catch (e) {
        if (e instanceof H265BitstreamError || e instanceof H265UnsupportedError) typed++;
        else throw e;
      }
    };
    for (const nal of nals) step(() => seq.push(nal));
    step(() => seq.flush());
    d.done();
    return typed;
  }

  const all = streams.map((name) => streamNals(name));

  it('truncated NAL units, bit flips and streams spliced mid-GOP: typed errors only, slot rules on every picture (fixed seed, 3000 cases)', () => {
    const rnd = mulberry32(0x265);
    const pick = (n: number) => Math.floor(rnd() * n);
    let typed = 0;
    for (let c = 0; c < 3000; c++) {
      const base = all[pick(all.length)]!;
      let nals = base.map((n) => n);
      const kind = c % 3;
      if (kind === 0) {
        for (let k = 0; k < 1 + pick(3); k++) {
          const i = pick(nals.length);
          nals[i] = nals[i]!.subarray(0, pick(nals[i]!.length + 1));
        }
      } else if (kind === 1) {
        for (let k = 0; k < 1 + pick(4); k++) {
          const i = pick(nals.length);
          const copy = nals[i]!.slice();
          const bit = pick(Math.min(copy.length, 40) * 8);
          copy[bit >> 3]! ^= 1 << (bit & 7);
          nals[i] = copy;
        }
      } else {
        // Another stream's tail after this one's head, each cut anywhere (parameter sets of either, or none).
        const other = all[pick(all.length)]!;
        nals = [...nals.slice(0, pick(nals.length + 1)), ...other.slice(pick(other.length))];
        if (rnd() < 0.3) nals.splice(pick(nals.length), 1);
      }
      typed += feed(nals, rnd() < 0.2 ? 6 + pick(4) : undefined);
    }
    expect(typed).toBeGreaterThan(0);
  });
});
