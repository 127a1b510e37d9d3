// The decoded picture buffer as the H.265 decoding process sees it: the
// pictures held, their marking (unused / short-term / long-term, 8.3.2),
// whether they wait for output (C.5.2), and the DPB slots of a hardware
// decoder. Output order (bumping) is output.ts; the reference picture set
// that does the marking is reference-set.ts.
//
// Slots, as lib/video/h264/dpb.ts: a new picture takes the lowest free slot;
// a slot is free when no picture holds it. Where H.265 differs: a picture
// keeps its slot while it is used for reference OR waits for output (the DPB
// of C.5.2 holds both, and its size sps_max_dec_pic_buffering counts both),
// where the H.264 room lets go of a slot once its frame is unused for
// reference. Pictures generated for unavailable references (8.3.3) hold slots
// too, as H.264's frames inferred for a frame_num gap do.
import { H265UnsupportedError } from './errors';

export const UNUSED = 0;
export const SHORT = 1;
export const LONG = 2;

/** One picture in the DPB. */
export interface DpbPicture {
  /** The picture's decodeIndex; -1 for a generated one. */
  readonly decodeIndex: number;
  /** PicOrderCntVal. */
  readonly poc: number;
  /** 0 unused for reference, 1 short-term, 2 long-term. */
  reference: 0 | 1 | 2;
  /** No decoded picture: generated for an unavailable or missing reference. */
  readonly generated: boolean;
  /** The DPB slot, or -1 once it no longer holds one. */
  slot: number;
  /** Marked "needed for output" (C.5.2). */
  neededForOutput: boolean;
  /** PicLatencyCount (C.5.2.3). */
  latency: number;
}

export class DecodedPictures {
  /** Pictures held for reference or for output, in the order they were stored. */
  readonly pictures: DpbPicture[] = [];
  readonly #slotUsed: boolean[];

  constructor(readonly maxSlots: number) {
    this.#slotUsed = new Array<boolean>(maxSlots).fill(false);
  }

  /** Whether a slot is free. */
  hasFreeSlot(): boolean {
    return this.#slotUsed.includes(false);
  }

  /** The lowest free slot; the caller makes sure one is free (see OutputOrder.makeRoom). */
  takeSlot(): number {
    const slot = this.#slotUsed.indexOf(false);
    if (slot < 0) throw new H265UnsupportedError('dpb_slots', `more than ${this.maxSlots} pictures held for reference or output at once`);
    this.#slotUsed[slot] = true;
    return slot;
  }

  add(picture: DpbPicture): void {
    this.pictures.push(picture);
  }

  /** Takes a picture out of the DPB and frees its slot. */
  remove(picture: DpbPicture): void {
    const i = this.pictures.indexOf(picture);
    if (i >= 0) this.pictures.splice(i, 1);
    if (picture.slot >= 0) this.#slotUsed[picture.slot] = false;
    picture.slot = -1;
  }

  /** Marks a picture unused for reference; it leaves the DPB unless it waits for output. */
  unmark(picture: DpbPicture): void {
    picture.reference = UNUSED;
    if (!picture.neededForOutput) this.remove(picture);
  }

  /** Pictures marked used for reference. */
  references(): DpbPicture[] {
    return this.pictures.filter((p) => p.reference !== UNUSED);
  }
}
