// Picture order counts (8.2.1): TopFieldOrderCnt and BottomFieldOrderCnt of
// each frame for pic_order_cnt_type 0 (8.2.1.1), 1 (8.2.1.2) and 2 (8.2.1.3),
// with the state each type carries from picture to picture and its reset at
// IDR pictures and memory_management_control_operation 5. Frames only.

import type { H264Sps } from './types';

/** What 8.2.1 needs of the current picture (a slice header has it). */
export interface PocInput {
  readonly nalRefIdc: number;
  readonly frameNum: number;
  readonly picOrderCntLsb: number;
  readonly deltaPicOrderCntBottom: number;
  readonly deltaPicOrderCnt0: number;
  readonly deltaPicOrderCnt1: number;
}

export class PocState {
  // Type 0: of the previous reference picture (8.2.1.1).
  #prevMsb = 0;
  #prevLsb = 0;
  // Types 1 and 2: of the previous picture (8.2.1.2).
  #prevFrameNumOffset = 0;
  #prevFrameNum = 0;
  /** FrameNumOffset of the last picture computed. */
  frameNumOffset = 0;

  /** The POCs of the current frame; `top`, `bottom` as 8-1 defines them before any MMCO 5 reset. */
  compute(sps: H264Sps, p: PocInput, idr: boolean): { top: number; bottom: number } {
    if (sps.picOrderCntType === 0) {
      if (idr) {
        this.#prevMsb = 0;
        this.#prevLsb = 0;
      }
      const max = sps.maxPicOrderCntLsb;
      let msb: number;
      if (p.picOrderCntLsb < this.#prevLsb && this.#prevLsb - p.picOrderCntLsb >= max / 2) msb = this.#prevMsb + max;
      else if (p.picOrderCntLsb > this.#prevLsb && p.picOrderCntLsb - this.#prevLsb > max / 2) msb = this.#prevMsb - max;
      else msb = this.#prevMsb;
      const top = msb + p.picOrderCntLsb;
      const bottom = top + p.deltaPicOrderCntBottom;
      if (p.nalRefIdc !== 0) {
        this.#prevMsb = msb;
        this.#prevLsb = p.picOrderCntLsb;
      }
      return { top, bottom };
    }
    const frameNumOffset = this.#frameNumOffset(sps, p, idr);
    if (sps.picOrderCntType === 1) {
      const n = sps.numRefFramesInPicOrderCntCycle;
      let absFrameNum = n !== 0 ? frameNumOffset + p.frameNum : 0;
      if (p.nalRefIdc === 0 && absFrameNum > 0) absFrameNum--;
      let expected = 0;
      if (absFrameNum > 0) {
        const cycle = Math.floor((absFrameNum - 1) / n);
        const inCycle = (absFrameNum - 1) % n;
        expected = cycle * sps.expectedDeltaPerPicOrderCntCycle;
        for (let i = 0; i <= inCycle; i++) expected += sps.offsetForRefFrame[i]!;
      }
      if (p.nalRefIdc === 0) expected += sps.offsetForNonRefPic;
      const top = expected + p.deltaPicOrderCnt0;
      const bottom = top + sps.offsetForTopToBottomField + p.deltaPicOrderCnt1;
      return { top, bottom };
    }
    // Type 2 (8.2.1.3).
    const temp = idr ? 0 : p.nalRefIdc === 0 ? 2 * (frameNumOffset + p.frameNum) - 1 : 2 * (frameNumOffset + p.frameNum);
    return { top: temp, bottom: temp };
  }

  #frameNumOffset(sps: H264Sps, p: PocInput, idr: boolean): number {
    let offset: number;
    if (idr) offset = 0;
    else if (this.#prevFrameNum > p.frameNum) offset = this.#prevFrameNumOffset + sps.maxFrameNum;
    else offset = this.#prevFrameNumOffset;
    this.frameNumOffset = offset;
    this.#prevFrameNumOffset = offset;
    this.#prevFrameNum = p.frameNum;
    return offset;
  }

  /**
   * After a picture with memory_management_control_operation 5: the next
   * picture sees prevFrameNumOffset 0 and prevFrameNum 0 (8.2.1.2, 7.4.3),
   * and for type 0 prevPicOrderCntMsb 0 and prevPicOrderCntLsb the picture's
   * TopFieldOrderCnt after the reset (`topAfterReset`, 8.2.1.1).
   */
  afterMmco5(topAfterReset: number): void {
    this.#prevFrameNumOffset = 0;
    this.#prevFrameNum = 0;
    this.#prevMsb = 0;
    this.#prevLsb = topAfterReset;
  }

  /** A frame inferred for a frame_num gap (8.2.5.2): for types 1 and 2 its POC is derived as for a reference frame with no deltas. */
  inferred(sps: H264Sps, frameNum: number): { top: number; bottom: number } {
    if (sps.picOrderCntType === 0) return { top: 0, bottom: 0 };
    return this.compute(
      sps,
      { nalRefIdc: 1, frameNum, picOrderCntLsb: 0, deltaPicOrderCntBottom: 0, deltaPicOrderCnt0: 0, deltaPicOrderCnt1: 0 },
      false,
    );
  }
}
