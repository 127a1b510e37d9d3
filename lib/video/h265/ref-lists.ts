// Reference picture lists (8.3.4): RefPicListTemp0 / RefPicListTemp1 built
// from the RPS's Curr lists, repeated up to NumRpsCurrTempListX entries, then
// list_entry_lX picks from them when ref_pic_list_modification_flag_lX is 1.
import type { H265SliceHeader } from './types';
import { H265SliceType } from './types';

function list(order: readonly (readonly number[])[], active: number, total: number, modified: boolean, entries: readonly number[]): number[] {
  const all = order.flat();
  if (all.length === 0) return [];
  const numRpsCurrTempList = Math.max(active, total);
  const temp: number[] = [];
  while (temp.length < numRpsCurrTempList) for (const slot of all) if (temp.length < numRpsCurrTempList) temp.push(slot);
  const out: number[] = [];
  for (let i = 0; i < active; i++) out.push(temp[modified ? entries[i]! : i]!);
  return out;
}

/** RefPicList0 and RefPicList1 of a slice as slots, from RefPicSetStCurrBefore, RefPicSetStCurrAfter, RefPicSetLtCurr as slots. */
export function refPicLists(h: H265SliceHeader, before: readonly number[], after: readonly number[], lt: readonly number[]): [number[], number[]] {
  if (h.sliceType === H265SliceType.I) return [[], []];
  const l0 = list([before, after, lt], h.numRefIdxL0ActiveMinus1 + 1, h.numPicTotalCurr, h.refPicListModificationFlagL0, h.listEntryL0);
  if (h.sliceType !== H265SliceType.B) return [l0, []];
  const l1 = list([after, before, lt], h.numRefIdxL1ActiveMinus1 + 1, h.numPicTotalCurr, h.refPicListModificationFlagL1, h.listEntryL1);
  return [l0, l1];
}
