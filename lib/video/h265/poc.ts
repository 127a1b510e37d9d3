// Picture order count (8.3.1): PicOrderCntMsb from the previous TemporalId 0
// picture that is not a RASL, RADL or sub-layer non-reference picture
// (prevTid0Pic), reset to 0 at an IRAP picture with NoRaslOutputFlag 1.
import { H265BitstreamError } from './errors';
import { isRadl, isRasl, isSubLayerNonReference } from './nal';

/** x mod m for m a power of two, also for negative x (the spec's x & (m - 1) on two's complement). */
export function lsbOf(x: number, m: number): number {
  return ((x % m) + m) % m;
}

export class PocState {
  /** PicOrderCntVal of prevTid0Pic. */
  #prevTid0Poc = 0;

  /** PicOrderCntVal (8-1, 8-2) of a picture with slice_pic_order_cnt_lsb `lsb`; nothing is stored (see update()). */
  compute(lsb: number, maxPicOrderCntLsb: number, irapWithNoRaslOutputFlag: boolean): number {
    let msb = 0;
    if (!irapWithNoRaslOutputFlag) {
      const prevLsb = lsbOf(this.#prevTid0Poc, maxPicOrderCntLsb);
      const prevMsb = this.#prevTid0Poc - prevLsb;
      if (lsb < prevLsb && prevLsb - lsb >= maxPicOrderCntLsb / 2) msb = prevMsb + maxPicOrderCntLsb;
      else if (lsb > prevLsb && lsb - prevLsb > maxPicOrderCntLsb / 2) msb = prevMsb - maxPicOrderCntLsb;
      else msb = prevMsb;
    }
    const poc = msb + lsb;
    // 8.3.1: PicOrderCntVal lies in -2^31..2^31 - 1.
    if (poc < -(2 ** 31) || poc > 2 ** 31 - 1) throw new H265BitstreamError(`PicOrderCntVal ${poc} is outside -2^31..2^31-1 (8.3.1)`);
    return poc;
  }

  /** After the picture is decoded: it becomes prevTid0Pic when TemporalId is 0 and it is not RASL, RADL or SLNR. */
  update(poc: number, temporalId: number, nalUnitType: number): void {
    if (temporalId === 0 && !isRasl(nalUnitType) && !isRadl(nalUnitType) && !isSubLayerNonReference(nalUnitType)) this.#prevTid0Poc = poc;
  }
}
