// st_ref_pic_set( stRpsIdx ) (7.3.7) and its semantics (7.4.8): a set sent
// as deltas, or predicted from an earlier set (inter_ref_pic_set_prediction),
// resolved to DeltaPocS0 / DeltaPocS1 and their used_by_curr_pic flags.
import type { BitReader } from '../h264/bit-reader';
import { H265BitstreamError } from './errors';
import type { H265ShortTermRps } from './types';

/** The largest |DeltaPoc| a set may reach (7.4.8: delta_poc_s0_minus1 and abs_delta_rps_minus1 are at most 2^15 - 1). */
const MAX_DELTA_POC = 2 ** 15;

/** The set of an IDR picture, or of a picture with no short-term references. */
export const emptyShortTermRps: H265ShortTermRps = {
  interRefPicSetPredictionFlag: false,
  deltaIdxMinus1: 0,
  deltaRpsSign: false,
  absDeltaRpsMinus1: 0,
  usedByCurrPicFlag: [],
  useDeltaFlag: [],
  numNegativePics: 0,
  numPositivePics: 0,
  deltaPocS0: [],
  deltaPocS1: [],
  usedByCurrPicS0: [],
  usedByCurrPicS1: [],
};

/**
 * st_ref_pic_set( stRpsIdx ). `sets` are the SPS's sets read so far (the
 * candidates for prediction), `numSets` num_short_term_ref_pic_sets (a set
 * with stRpsIdx === numSets is a slice header's), `maxDecPicBufferingMinus1`
 * sps_max_dec_pic_buffering_minus1[sps_max_sub_layers_minus1], which bounds the set's size.
 */
export function readShortTermRps(
  r: BitReader,
  stRpsIdx: number,
  sets: readonly H265ShortTermRps[],
  numSets: number,
  maxDecPicBufferingMinus1: number,
  what: string,
): H265ShortTermRps {
  const inSlice = stRpsIdx === numSets;
  const interRefPicSetPredictionFlag = stRpsIdx !== 0 ? r.flag('inter_ref_pic_set_prediction_flag') : false;
  if (!interRefPicSetPredictionFlag) {
    const numNegativePics = r.ue('num_negative_pics', maxDecPicBufferingMinus1);
    const numPositivePics = r.ue('num_positive_pics', maxDecPicBufferingMinus1 - numNegativePics);
    const deltaPocS0: number[] = [];
    const deltaPocS1: number[] = [];
    const usedByCurrPicS0: boolean[] = [];
    const usedByCurrPicS1: boolean[] = [];
    let poc = 0;
    for (let i = 0; i < numNegativePics; i++) {
      poc -= r.ue('delta_poc_s0_minus1', MAX_DELTA_POC - 1) + 1;
      deltaPocS0.push(poc);
      usedByCurrPicS0.push(r.flag('used_by_curr_pic_s0_flag'));
    }
    poc = 0;
    for (let i = 0; i < numPositivePics; i++) {
      poc += r.ue('delta_poc_s1_minus1', MAX_DELTA_POC - 1) + 1;
      deltaPocS1.push(poc);
      usedByCurrPicS1.push(r.flag('used_by_curr_pic_s1_flag'));
    }
    return { ...emptyShortTermRps, numNegativePics, numPositivePics, deltaPocS0, deltaPocS1, usedByCurrPicS0, usedByCurrPicS1 };
  }

  const deltaIdxMinus1 = inSlice ? r.ue('delta_idx_minus1', stRpsIdx - 1) : 0;
  const ref = sets[stRpsIdx - (deltaIdxMinus1 + 1)];
  if (!ref)
    throw new H265BitstreamError(`${what}: st_ref_pic_set(${stRpsIdx}) predicts from set ${stRpsIdx - (deltaIdxMinus1 + 1)}, not read (7.4.8)`);
  const deltaRpsSign = r.flag('delta_rps_sign');
  const absDeltaRpsMinus1 = r.ue('abs_delta_rps_minus1', MAX_DELTA_POC - 1);
  const deltaRps = (deltaRpsSign ? -1 : 1) * (absDeltaRpsMinus1 + 1);
  const numDeltaPocs = ref.numNegativePics + ref.numPositivePics;
  const usedByCurrPicFlag: boolean[] = [];
  const useDeltaFlag: boolean[] = [];
  for (let j = 0; j <= numDeltaPocs; j++) {
    const used = r.flag('used_by_curr_pic_flag');
    usedByCurrPicFlag.push(used);
    // 7.4.8: use_delta_flag is inferred 1 when not sent.
    useDeltaFlag.push(used ? true : r.flag('use_delta_flag'));
  }

  // 7.4.8, equations 7-61 and 7-62: the reference set's pictures shifted by deltaRps, and the reference picture itself
  // (index numDeltaPocs), kept where use_delta_flag says, in order of increasing distance from the current picture.
  const keep = (deltas: number[], used: boolean[], d: number, u: boolean) => {
    deltas.push(d);
    used.push(u);
  };
  const s0: number[] = [];
  const u0: boolean[] = [];
  const s1: number[] = [];
  const u1: boolean[] = [];
  const nNeg = ref.numNegativePics;
  for (let j = ref.numPositivePics - 1; j >= 0; j--) {
    const d = ref.deltaPocS1[j]! + deltaRps;
    if (d < 0 && useDeltaFlag[nNeg + j]) keep(s0, u0, d, usedByCurrPicFlag[nNeg + j]!);
  }
  if (deltaRps < 0 && useDeltaFlag[numDeltaPocs]) keep(s0, u0, deltaRps, usedByCurrPicFlag[numDeltaPocs]!);
  for (let j = 0; j < nNeg; j++) {
    const d = ref.deltaPocS0[j]! + deltaRps;
    if (d < 0 && useDeltaFlag[j]) keep(s0, u0, d, usedByCurrPicFlag[j]!);
  }
  for (let j = nNeg - 1; j >= 0; j--) {
    const d = ref.deltaPocS0[j]! + deltaRps;
    if (d > 0 && useDeltaFlag[j]) keep(s1, u1, d, usedByCurrPicFlag[j]!);
  }
  if (deltaRps > 0 && useDeltaFlag[numDeltaPocs]) keep(s1, u1, deltaRps, usedByCurrPicFlag[numDeltaPocs]!);
  for (let j = 0; j < ref.numPositivePics; j++) {
    const d = ref.deltaPocS1[j]! + deltaRps;
    if (d > 0 && useDeltaFlag[nNeg + j]) keep(s1, u1, d, usedByCurrPicFlag[nNeg + j]!);
  }
  // 7.4.8: the derived set obeys the same bounds as one sent as deltas.
  if (s0.length + s1.length > maxDecPicBufferingMinus1)
    throw new H265BitstreamError(
      `${what}: st_ref_pic_set(${stRpsIdx}) predicts ${s0.length} + ${s1.length} pictures, past sps_max_dec_pic_buffering_minus1 ${maxDecPicBufferingMinus1} (7.4.8)`,
    );
  const far = [...s0, ...s1].find((d) => Math.abs(d) > MAX_DELTA_POC);
  if (far !== undefined) throw new H265BitstreamError(`${what}: st_ref_pic_set(${stRpsIdx}) derives DeltaPoc ${far}, past ±${MAX_DELTA_POC} (7.4.8)`);
  return {
    interRefPicSetPredictionFlag,
    deltaIdxMinus1,
    deltaRpsSign,
    absDeltaRpsMinus1,
    usedByCurrPicFlag,
    useDeltaFlag,
    numNegativePics: s0.length,
    numPositivePics: s1.length,
    deltaPocS0: s0,
    deltaPocS1: s1,
    usedByCurrPicS0: u0,
    usedByCurrPicS1: u1,
  };
}
