// The decoded picture buffer as the decoding process sees it: reference
// marking (8.2.5: sliding window 8.2.5.3, MMCO 1-6 8.2.5.4, long-term
// indices), frames inferred for frame_num gaps (8.2.5.2), and the DPB slots
// a hardware decoder decodes into (a slot is held while its picture is used
// for reference). Output order (Annex C bumping) is lib/video/h264/output.ts.
import type { H264Mmco } from './types';
import { H264UnsupportedError } from './types';

/** One frame in the DPB (a frame buffer of Annex C). */
export interface DpbFrame {
  /** The picture's decodeIndex; -1 for a frame inferred for a gap. */
  readonly decodeIndex: number;
  /** FrameNum (0 after the picture's own MMCO 5). */
  frameNum: number;
  /** FrameNumWrap (8-27), recomputed for each picture. */
  frameNumWrap: number;
  longTermFrameIdx: number;
  /** 0 unused for reference, 1 short-term, 2 long-term. */
  reference: 0 | 1 | 2;
  readonly nonExisting: boolean;
  top: number;
  bottom: number;
  /** PicOrderCnt(frame) = Min(top, bottom). */
  poc: number;
  /** The DPB slot, or -1 once the frame no longer holds one. */
  slot: number;
  /** Waiting to be output (C.4.5). */
  neededForOutput: boolean;
}

export const SHORT = 1;
export const LONG = 2;

export class ReferenceFrames {
  /** Frames held for reference or for output, in the order they were stored. */
  readonly frames: DpbFrame[] = [];
  /** MaxLongTermFrameIdx, or -1 for "no long-term frame indices". */
  maxLongTermFrameIdx = -1;
  readonly #slotUsed: boolean[];

  constructor(readonly maxSlots: number) {
    this.#slotUsed = new Array<boolean>(maxSlots).fill(false);
  }

  /** The lowest free slot (a slot is free when no reference frame holds it). */
  takeSlot(): number {
    const slot = this.#slotUsed.indexOf(false);
    if (slot < 0) throw new H264UnsupportedError('dpb_slots', `more than ${this.maxSlots} pictures held for reference at once`);
    this.#slotUsed[slot] = true;
    return slot;
  }

  releaseSlot(frame: DpbFrame): void {
    if (frame.slot >= 0) this.#slotUsed[frame.slot] = false;
    frame.slot = -1;
  }

  /** Frames used for reference (short- then long-term as stored). */
  references(): DpbFrame[] {
    return this.frames.filter((f) => f.reference !== 0);
  }

  /** Frames marked used for short-term and for long-term reference (set by count()). */
  short = 0;
  long = 0;
  count(): void {
    let short = 0;
    let long = 0;
    for (const f of this.frames) {
      if (f.reference === SHORT) short++;
      else if (f.reference === LONG) long++;
    }
    this.short = short;
    this.long = long;
  }

  /** Marks a frame unused for reference and lets go of its slot; frames neither referenced nor awaiting output leave the DPB. */
  unmark(frame: DpbFrame): void {
    frame.reference = 0;
    this.releaseSlot(frame);
    if (!frame.neededForOutput) this.remove(frame);
  }

  remove(frame: DpbFrame): void {
    const i = this.frames.indexOf(frame);
    if (i >= 0) this.frames.splice(i, 1);
    this.releaseSlot(frame);
  }

  /** Every reference frame marked unused (IDR, MMCO 5). */
  unmarkAll(): void {
    for (const f of [...this.frames]) if (f.reference !== 0) this.unmark(f);
    this.maxLongTermFrameIdx = -1;
  }

  /** FrameNumWrap of every short-term frame for a picture with frame_num `currFrameNum` (8.2.4.1). */
  computeFrameNumWrap(currFrameNum: number, maxFrameNum: number): void {
    for (const f of this.frames) if (f.reference === SHORT) f.frameNumWrap = f.frameNum > currFrameNum ? f.frameNum - maxFrameNum : f.frameNum;
  }

  /** The sliding window (8.2.5.3): at Max(max_num_ref_frames, 1) references, the short-term one with the smallest FrameNumWrap goes. */
  slidingWindow(maxNumRefFrames: number): void {
    const limit = Math.max(maxNumRefFrames, 1);
    for (;;) {
      this.count();
      if (this.short + this.long < limit || this.short === 0) return;
      let oldest: DpbFrame | null = null;
      for (const f of this.frames) if (f.reference === SHORT && (!oldest || f.frameNumWrap < oldest.frameNumWrap)) oldest = f;
      this.unmark(oldest!);
    }
  }

  /** Keeps at most Max(max_num_ref_frames, 1) references after marking (a stream that breaks 8.2.5.4's limit loses its oldest short-term ones). */
  enforceLimit(maxNumRefFrames: number, current: DpbFrame): void {
    const limit = Math.max(maxNumRefFrames, 1);
    const extra = this.frames.includes(current) ? 0 : 1;
    for (;;) {
      this.count();
      if (this.short + this.long + extra <= limit) return;
      let oldest: DpbFrame | null = null;
      for (const f of this.frames) if (f !== current && f.reference === SHORT && (!oldest || f.frameNumWrap < oldest.frameNumWrap)) oldest = f;
      if (!oldest)
        for (const f of this.frames)
          if (f !== current && f.reference === LONG && (!oldest || f.longTermFrameIdx < oldest.longTermFrameIdx)) oldest = f;
      if (!oldest) return;
      this.unmark(oldest);
    }
  }

  /**
   * memory_management_control_operations 1-4 and 6 of the current frame
   * (8.2.5.4; 5 is the sequencer's, as it also resets POC and frame_num).
   * `current` is in `frames` already; returns whether op 6 marked it long-term.
   * Operations naming a picture that is not there are ignored.
   */
  applyMmco(m: H264Mmco, current: DpbFrame, currPicNum: number): boolean {
    switch (m.op) {
      case 1: {
        const picNumX = currPicNum - (m.differenceOfPicNumsMinus1 + 1);
        const f = this.frames.find((x) => x !== current && x.reference === SHORT && x.frameNumWrap === picNumX);
        if (f) this.unmark(f);
        return false;
      }
      case 2: {
        const f = this.frames.find((x) => x !== current && x.reference === LONG && x.longTermFrameIdx === m.longTermPicNum);
        if (f) this.unmark(f);
        return false;
      }
      case 3: {
        const picNumX = currPicNum - (m.differenceOfPicNumsMinus1 + 1);
        const f = this.frames.find((x) => x !== current && x.reference === SHORT && x.frameNumWrap === picNumX);
        const holder = this.frames.find((x) => x !== current && x !== f && x.reference === LONG && x.longTermFrameIdx === m.longTermFrameIdx);
        if (holder) this.unmark(holder);
        if (f && m.longTermFrameIdx <= this.maxLongTermFrameIdx) {
          f.reference = LONG;
          f.longTermFrameIdx = m.longTermFrameIdx;
        }
        return false;
      }
      case 4: {
        this.maxLongTermFrameIdx = m.maxLongTermFrameIdxPlus1 - 1;
        for (const f of [...this.frames]) if (f.reference === LONG && f.longTermFrameIdx > this.maxLongTermFrameIdx) this.unmark(f);
        return false;
      }
      case 6: {
        const holder = this.frames.find((x) => x !== current && x.reference === LONG && x.longTermFrameIdx === m.longTermFrameIdx);
        if (holder) this.unmark(holder);
        if (m.longTermFrameIdx > this.maxLongTermFrameIdx) return false;
        current.reference = LONG;
        current.longTermFrameIdx = m.longTermFrameIdx;
        return true;
      }
      default:
        return false;
    }
  }
}
