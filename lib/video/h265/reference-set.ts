// The reference picture set (8.3.2) of a picture, in two steps: derive()
// finds, without changing anything, the pictures its five lists name
// (PocStCurrBefore, PocStCurrAfter, PocStFoll, PocLtCurr, PocLtFoll); apply()
// marks the DPB (long-term, and unused for every reference picture in none of
// the lists) and fills the lists' holes.
//
// Holes ("no reference picture"):
// - 8.3.3: at a BLA picture or a CRA picture with NoRaslOutputFlag 1, a
//   picture is generated for each missing RefPicSetStFoll / RefPicSetLtFoll
//   entry (their RASL pictures, which would use them, are not decoded).
// - A hole in RefPicSetStCurrBefore, RefPicSetStCurrAfter or RefPicSetLtCurr
//   (a stream that lost a picture, or was cut mid-GOP) is concealed the way the
//   H.264 room treats a frame_num gap: a picture generated as 8.3.3.2 does
//   (no decoded samples; short- or long-term as its list), with a slot of its
//   own, so every reference list entry is a valid slot and the decoder, told
//   by H265ReferenceEntry.generated, can fill it. Chosen over leaving the
//   entry out: the lists' indices (and so the slices' ref_idx) stay as the
//   encoder meant them, and nothing downstream sees a hole.
// - A hole in a Foll list elsewhere is left alone, as 8.3.2 allows.
import { type DecodedPictures, type DpbPicture, LONG, SHORT, UNUSED } from './dpb';
import { H265BitstreamError } from './errors';
import { lsbOf } from './poc';
import type { H265RpsPocs } from './sequencer-types';
import type { H265SliceHeader, H265Sps } from './types';

/** A list entry: its POC, whether the POC is full (long-term entries sent without MSB match on the LSBs only), and the picture found. */
interface Entry {
  readonly poc: number;
  readonly fullPoc: boolean;
  readonly picture: DpbPicture | null;
}

export interface RpsPlan {
  readonly irapWithNoRaslOutputFlag: boolean;
  readonly stCurrBefore: readonly Entry[];
  readonly stCurrAfter: readonly Entry[];
  readonly stFoll: readonly Entry[];
  readonly ltCurr: readonly Entry[];
  readonly ltFoll: readonly Entry[];
  readonly pocs: H265RpsPocs;
}

/** The lists with their pictures after apply(): Curr lists have no holes. */
export interface ReferenceSet {
  readonly stCurrBefore: readonly DpbPicture[];
  readonly stCurrAfter: readonly DpbPicture[];
  readonly ltCurr: readonly DpbPicture[];
}

/** 8.3.2: the lists of the picture with slice header `h` and PicOrderCntVal `poc`, and the pictures of `dpb` they name. */
export function derive(h: H265SliceHeader, sps: H265Sps, poc: number, dpb: DecodedPictures, irapWithNoRaslOutputFlag: boolean): RpsPlan {
  const rps = h.stRps;
  const numLt = h.numLongTermSps + h.numLongTermPics;
  const most = sps.ordering.maxDecPicBufferingMinus1[sps.spsMaxSubLayersMinus1]!;
  // 8.3.2: the set holds at most sps_max_dec_pic_buffering_minus1 pictures (the DPB less the current one).
  if (rps.numNegativePics + rps.numPositivePics + numLt > most)
    throw new H265BitstreamError(
      `the reference picture set has ${rps.numNegativePics + rps.numPositivePics} short-term and ${numLt} long-term pictures, more than sps_max_dec_pic_buffering_minus1 ${most} (8.3.2)`,
    );
  // At an IRAP picture with NoRaslOutputFlag 1 every reference picture is marked unused first: none can be found.
  const candidates = irapWithNoRaslOutputFlag ? [] : dpb.references();
  const max = sps.maxPicOrderCntLsb;
  const ltCurr: Entry[] = [];
  const ltFoll: Entry[] = [];
  const taken = new Set<DpbPicture>();
  for (let i = 0; i < numLt; i++) {
    const msb = h.deltaPocMsbPresentFlag[i]!;
    let pocLt = h.pocLsbLt[i]!;
    if (msb) pocLt += poc - h.deltaPocMsbCycleLtSum[i]! * max - lsbOf(poc, max);
    const picture = candidates.find((p) => (msb ? p.poc : lsbOf(p.poc, max)) === pocLt) ?? null;
    if (picture) taken.add(picture);
    (h.usedByCurrPicLt[i] ? ltCurr : ltFoll).push({ poc: pocLt, fullPoc: msb, picture });
  }
  // Short-term entries are short-term pictures, those just named long-term excepted.
  const shortTerm = candidates.filter((p) => p.reference === SHORT && !taken.has(p));
  const st = (delta: number) => {
    const target = poc + delta;
    return { poc: target, fullPoc: true, picture: shortTerm.find((p) => p.poc === target) ?? null };
  };
  const stCurrBefore: Entry[] = [];
  const stCurrAfter: Entry[] = [];
  const stFoll: Entry[] = [];
  for (let i = 0; i < rps.numNegativePics; i++) (rps.usedByCurrPicS0[i] ? stCurrBefore : stFoll).push(st(rps.deltaPocS0[i]!));
  for (let i = 0; i < rps.numPositivePics; i++) (rps.usedByCurrPicS1[i] ? stCurrAfter : stFoll).push(st(rps.deltaPocS1[i]!));
  const pocsOf = (list: Entry[]) => list.map((e) => e.poc);
  return {
    irapWithNoRaslOutputFlag,
    stCurrBefore,
    stCurrAfter,
    stFoll,
    ltCurr,
    ltFoll,
    pocs: {
      stCurrBefore: pocsOf(stCurrBefore),
      stCurrAfter: pocsOf(stCurrAfter),
      stFoll: pocsOf(stFoll),
      ltCurr: pocsOf(ltCurr),
      ltFoll: pocsOf(ltFoll),
    },
  };
}

/** 8.3.2 marking: the long-term lists' pictures long-term, every reference picture in no list unused. */
export function mark(plan: RpsPlan, dpb: DecodedPictures): void {
  const keep = new Set<DpbPicture>();
  for (const list of [plan.stCurrBefore, plan.stCurrAfter, plan.stFoll, plan.ltCurr, plan.ltFoll])
    for (const e of list) if (e.picture) keep.add(e.picture);
  for (const e of [...plan.ltCurr, ...plan.ltFoll]) if (e.picture) e.picture.reference = LONG;
  for (const p of dpb.references()) if (!keep.has(p)) dpb.unmark(p);
}

/**
 * Fills the holes (see the top of this file): `generate` makes a picture
 * (with a slot) of a POC and marking. Call after mark() and the C.5.2.2 output
 * of the DPB, as the generated pictures take slots.
 */
export function fill(
  plan: RpsPlan,
  generateFoll: boolean,
  generate: (poc: number, reference: typeof SHORT | typeof LONG) => DpbPicture,
): ReferenceSet {
  const filled = (list: readonly Entry[], reference: typeof SHORT | typeof LONG) =>
    list.map((e) => (e.picture && e.picture.reference !== UNUSED ? e.picture : generate(e.poc, reference)));
  if (generateFoll) {
    for (const e of plan.stFoll) if (!e.picture) generate(e.poc, SHORT);
    for (const e of plan.ltFoll) if (!e.picture) generate(e.poc, LONG);
  }
  return { stCurrBefore: filled(plan.stCurrBefore, SHORT), stCurrAfter: filled(plan.stCurrAfter, SHORT), ltCurr: filled(plan.ltCurr, LONG) };
}
