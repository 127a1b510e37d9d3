// Output order (C.5.2, "bumping"): the picture with the smallest POC among
// those waiting goes out when more than sps_max_num_reorder_pics wait, when
// one has waited SpsMaxLatencyPictures pictures, or when the DPB is full
// (C.5.2.2 before a picture is decoded, C.5.2.3 after); all of them at an
// IRAP picture with NoRaslOutputFlag 1 (or discarded, NoOutputOfPriorPicsFlag),
// at an end of sequence and at the end of the stream. The values are those of
// HighestTid, the highest sub-layer, as every sub-layer is decoded.
import { type DecodedPictures, type DpbPicture, UNUSED } from './dpb';
import type { H265Event } from './sequencer-types';
import type { H265Sps } from './types';

/** The C.5.2 limits of an SPS at HighestTid. */
export interface OutputLimits {
  readonly maxNumReorder: number;
  /** SpsMaxLatencyPictures, or -1 when sps_max_latency_increase_plus1 is 0 (no limit). */
  readonly maxLatency: number;
  /** sps_max_dec_pic_buffering_minus1 + 1. */
  readonly dpbSize: number;
}

export function outputLimits(sps: H265Sps): OutputLimits {
  const t = sps.spsMaxSubLayersMinus1;
  const reorder = sps.ordering.maxNumReorderPics[t]!;
  const plus1 = sps.ordering.maxLatencyIncreasePlus1[t]!;
  return { maxNumReorder: reorder, maxLatency: plus1 !== 0 ? reorder + plus1 - 1 : -1, dpbSize: sps.ordering.maxDecPicBufferingMinus1[t]! + 1 };
}

export class OutputOrder {
  constructor(readonly dpb: DecodedPictures) {}

  /** Outputs the waiting picture with the smallest POC (C.5.2.4); false when none waits. */
  bump(events: H265Event[]): boolean {
    let first: DpbPicture | null = null;
    for (const p of this.dpb.pictures) if (p.neededForOutput && (!first || p.poc < first.poc)) first = p;
    if (!first) return false;
    first.neededForOutput = false;
    events.push({ type: 'output', decodeIndex: first.decodeIndex });
    if (first.reference === UNUSED) this.dpb.remove(first);
    return true;
  }

  /** Every waiting picture out in POC order, or discarded with `discard`. */
  flush(events: H265Event[], discard = false): void {
    if (discard) {
      for (const p of [...this.dpb.pictures]) {
        if (!p.neededForOutput) continue;
        p.neededForOutput = false;
        events.push({ type: 'output', decodeIndex: p.decodeIndex, discard: true });
        if (p.reference === UNUSED) this.dpb.remove(p);
      }
    }
    while (this.bump(events));
  }

  #waiting(): number {
    let n = 0;
    for (const p of this.dpb.pictures) if (p.neededForOutput) n++;
    return n;
  }

  #overdue(limits: OutputLimits): boolean {
    if (this.#waiting() > limits.maxNumReorder) return true;
    return limits.maxLatency >= 0 && this.dpb.pictures.some((p) => p.neededForOutput && p.latency >= limits.maxLatency);
  }

  /** C.5.2.2, a picture that is not an IRAP with NoRaslOutputFlag 1: bumping until the DPB has room and nothing is overdue. */
  beforeDecode(limits: OutputLimits, events: H265Event[]): void {
    while ((this.#overdue(limits) || this.dpb.pictures.length >= limits.dpbSize) && this.bump(events));
  }

  /**
   * Before a slot is taken: a stream that holds more pictures than its
   * sps_max_dec_pic_buffering says may leave no slot free; waiting pictures
   * go out early (smallest POC first) until one is. References alone never
   * fill the slots: a picture's RPS has at most sps_max_dec_pic_buffering_minus1
   * pictures (checked before it is decoded), fewer than the slots.
   */
  makeRoom(events: H265Event[]): void {
    while (!this.dpb.hasFreeSlot() && this.bump(events));
  }

  /**
   * C.5.2.3: the current picture is stored (waiting for output when
   * PicOutputFlag is 1, PicLatencyCount 0), those already waiting count one
   * more picture of latency, and bumping goes on while something is overdue.
   */
  afterDecode(current: DpbPicture, limits: OutputLimits, events: H265Event[]): void {
    for (const p of this.dpb.pictures) if (p.neededForOutput) p.latency++;
    this.dpb.add(current);
    while (this.#overdue(limits) && this.bump(events));
  }
}
