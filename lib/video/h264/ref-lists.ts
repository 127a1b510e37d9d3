// Reference picture lists of a frame's slices (8.2.4): initial lists for P
// and SP slices (8.2.4.2.1) and B slices (8.2.4.2.3), then the slice's
// ref_pic_list_modification() (8.2.4.3). Frames only: PicNum = FrameNumWrap,
// LongTermPicNum = LongTermFrameIdx, CurrPicNum = frame_num.
import { type DpbFrame, LONG, SHORT } from './dpb';
import type { H264RefPicListModification } from './types';

/** RefPicList0 of P/SP slices before modification: short-term by descending PicNum, then long-term by ascending LongTermPicNum. */
export function initialListP(refs: readonly DpbFrame[]): DpbFrame[] {
  const short = refs.filter((f) => f.reference === SHORT).sort((a, b) => b.frameNumWrap - a.frameNumWrap);
  const long = refs.filter((f) => f.reference === LONG).sort((a, b) => a.longTermFrameIdx - b.longTermFrameIdx);
  return short.concat(long);
}

/**
 * RefPicList0 and RefPicList1 of B slices before modification (8.2.4.2.3),
 * around the current POC. With POC type 0, frames inferred for gaps are left
 * out (8.2.5.2: their POC is not derived).
 */
export function initialListsB(refs: readonly DpbFrame[], currPoc: number, pocType: number): [DpbFrame[], DpbFrame[]] {
  const usable = pocType === 0 ? refs.filter((f) => !f.nonExisting) : refs;
  const short = usable.filter((f) => f.reference === SHORT);
  const before = short.filter((f) => f.poc < currPoc).sort((a, b) => b.poc - a.poc);
  const after = short.filter((f) => f.poc > currPoc).sort((a, b) => a.poc - b.poc);
  const long = usable.filter((f) => f.reference === LONG).sort((a, b) => a.longTermFrameIdx - b.longTermFrameIdx);
  const list0 = before.concat(after, long);
  const list1 = after.concat(before, long);
  // When list 1 has more than one entry and equals list 0, its first two entries swap.
  if (list1.length > 1 && list1.every((f, i) => f === list0[i])) {
    const first = list1[0]!;
    list1[0] = list1[1]!;
    list1[1] = first;
  }
  return [list0, list1];
}

/**
 * The list a slice uses: the initial list cut or padded ("no reference
 * picture", null) to num_ref_idx_lX_active_minus1 + 1 entries, then modified
 * (8.2.4.3.1 short-term, 8.2.4.3.2 long-term). A modification naming a
 * picture that is not there puts null in its place.
 */
export function modifiedList(
  initial: readonly DpbFrame[],
  mods: readonly H264RefPicListModification[],
  numActive: number,
  refs: readonly DpbFrame[],
  currPicNum: number,
  maxPicNum: number,
): (DpbFrame | null)[] {
  const list: (DpbFrame | null)[] = new Array(numActive + 1).fill(null);
  for (let i = 0; i < numActive && i < initial.length; i++) list[i] = initial[i]!;
  let picNumPred = currPicNum;
  let refIdx = 0;
  for (const m of mods) {
    if (refIdx >= numActive) break;
    let pic: DpbFrame | null;
    let matches: (f: DpbFrame | null) => boolean;
    if (m.idc === 0 || m.idc === 1) {
      const abs = m.value + 1;
      let picNumNoWrap: number;
      if (m.idc === 0) picNumNoWrap = picNumPred - abs < 0 ? picNumPred - abs + maxPicNum : picNumPred - abs;
      else picNumNoWrap = picNumPred + abs >= maxPicNum ? picNumPred + abs - maxPicNum : picNumPred + abs;
      picNumPred = picNumNoWrap;
      const picNum = picNumNoWrap > currPicNum ? picNumNoWrap - maxPicNum : picNumNoWrap;
      pic = refs.find((f) => f.reference === SHORT && f.frameNumWrap === picNum) ?? null;
      matches = (f) => f !== null && f.reference === SHORT && f.frameNumWrap === picNum;
    } else {
      const longTermPicNum = m.value;
      pic = refs.find((f) => f.reference === LONG && f.longTermFrameIdx === longTermPicNum) ?? null;
      matches = (f) => f !== null && f.reference === LONG && f.longTermFrameIdx === longTermPicNum;
    }
    for (let c = numActive; c > refIdx; c--) list[c] = list[c - 1]!;
    list[refIdx++] = pic;
    let n = refIdx;
    for (let c = refIdx; c <= numActive; c++) if (!matches(list[c]!)) list[n++] = list[c]!;
    // Entries past n are stale copies; the list is cut to numActive below.
    for (let c = n; c <= numActive; c++) list[c] = null;
  }
  list.length = numActive;
  return list;
}
