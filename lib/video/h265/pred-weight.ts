// pred_weight_table() (7.3.6.3) and ref_pic_lists_modification() (7.3.6.2)
// of a slice segment header.
import type { BitReader } from '../h264/bit-reader';
import { H265BitstreamError } from './errors';
import type { H265PredWeightTable } from './types';

/** Ceil(Log2(n)) for n >= 1: the bits of an index below n. */
export function ceilLog2(n: number): number {
  let bits = 0;
  while (2 ** bits < n) bits++;
  return bits;
}

/**
 * pred_weight_table(). `counts` are num_ref_idx_l0/l1_active_minus1 + 1 (l1: 0
 * for a P slice). A single-layer stream without the current picture as a
 * reference never has a reference with the current picture's POC, so every
 * luma_weight / chroma_weight flag is sent (7.3.6.3). Offsets are the 8-bit
 * ranges (high_precision_offsets_enabled_flag is a range extension, refused).
 */
export function readPredWeightTable(r: BitReader, chromaArrayType: number, counts: readonly [number, number], what: string): H265PredWeightTable {
  const lumaLog2WeightDenom = r.ue('luma_log2_weight_denom', 7);
  let deltaChromaLog2WeightDenom = 0;
  if (chromaArrayType !== 0) {
    deltaChromaLog2WeightDenom = r.se('delta_chroma_log2_weight_denom', -lumaLog2WeightDenom, 7 - lumaLog2WeightDenom);
  }
  const lumaWeightFlags: [number, number] = [0, 0];
  const chromaWeightFlags: [number, number] = [0, 0];
  const deltaLumaWeight: [number[], number[]] = [[], []];
  const lumaOffset: [number[], number[]] = [[], []];
  const deltaChromaWeight: [number[], number[]] = [[], []];
  const deltaChromaOffset: [number[], number[]] = [[], []];
  for (let list = 0; list < 2; list++) {
    const n = counts[list]!;
    for (let i = 0; i < n; i++) if (r.flag(`luma_weight_l${list}_flag`)) lumaWeightFlags[list] |= 1 << i;
    if (chromaArrayType !== 0) for (let i = 0; i < n; i++) if (r.flag(`chroma_weight_l${list}_flag`)) chromaWeightFlags[list] |= 1 << i;
    for (let i = 0; i < n; i++) {
      let dw = 0;
      let off = 0;
      if (lumaWeightFlags[list] & (1 << i)) {
        dw = r.se(`delta_luma_weight_l${list}`, -128, 127);
        off = r.se(`luma_offset_l${list}`, -128, 127);
      }
      deltaLumaWeight[list]!.push(dw);
      lumaOffset[list]!.push(off);
      for (let j = 0; j < 2; j++) {
        let cw = 0;
        let co = 0;
        if (chromaWeightFlags[list] & (1 << i)) {
          cw = r.se(`delta_chroma_weight_l${list}`, -128, 127);
          co = r.se(`delta_chroma_offset_l${list}`, -512, 511);
        }
        deltaChromaWeight[list]!.push(cw);
        deltaChromaOffset[list]!.push(co);
      }
    }
  }
  if (counts[0] > 15 || counts[1] > 15) throw new H265BitstreamError(`${what}: pred_weight_table for more than 15 references (7.4.7.1)`);
  return {
    lumaLog2WeightDenom,
    deltaChromaLog2WeightDenom,
    lumaWeightFlags,
    chromaWeightFlags,
    deltaLumaWeight,
    lumaOffset,
    deltaChromaWeight,
    deltaChromaOffset,
  };
}

/** ref_pic_lists_modification(): list_entry_lX[i] (Ceil(Log2(NumPicTotalCurr)) bits each, below NumPicTotalCurr). */
export function readListEntries(
  r: BitReader,
  list: number,
  count: number,
  numPicTotalCurr: number,
  what: string,
): { flag: boolean; entries: number[] } {
  const flag = r.flag(`ref_pic_list_modification_flag_l${list}`);
  const entries: number[] = [];
  if (!flag) return { flag, entries };
  const bits = ceilLog2(numPicTotalCurr);
  for (let i = 0; i < count; i++) {
    const e = r.u(bits, `list_entry_l${list}`);
    if (e >= numPicTotalCurr) throw new H265BitstreamError(`${what}: list_entry_l${list}[${i}] is ${e}, outside 0..${numPicTotalCurr - 1} (7.4.7.2)`);
    entries.push(e);
  }
  return { flag, entries };
}
