// Output order (Annex C.4.4, C.4.5): the "bumping" process that outputs the
// frame with the smallest POC when the DPB needs room, the immediate output
// of a non-reference picture that precedes everything waiting, and the
// flushes at IDR pictures, MMCO 5 and the end of the stream. The DPB size is
// max_dec_frame_buffering (or MaxDpbFrames); frames also leave early once more
// than max_num_reorder_frames wait (E.2.1 guarantees none can come before them).
import type { DpbFrame, ReferenceFrames } from './dpb';
import type { H264Event } from './types';

export class OutputOrder {
  constructor(readonly dpb: ReferenceFrames) {}

  /** Outputs the waiting frame with the smallest POC (C.4.5.3); false when none waits. */
  bump(events: H264Event[]): boolean {
    let first: DpbFrame | null = null;
    for (const f of this.dpb.frames) if (f.neededForOutput && (!first || f.poc < first.poc)) first = f;
    if (!first) return false;
    first.neededForOutput = false;
    events.push({ type: 'output', decodeIndex: first.decodeIndex });
    if (first.reference === 0) this.dpb.remove(first);
    return true;
  }

  /** Every waiting frame out in POC order (or discarded, with `discard`), and frames no longer referenced gone. */
  flush(events: H264Event[], discard = false): void {
    if (discard) {
      for (const f of [...this.dpb.frames]) {
        if (!f.neededForOutput) continue;
        f.neededForOutput = false;
        events.push({ type: 'output', decodeIndex: f.decodeIndex, discard: true });
        if (f.reference === 0) this.dpb.remove(f);
      }
    }
    while (this.bump(events));
  }

  #waiting(): number {
    let n = 0;
    for (const f of this.dpb.frames) if (f.neededForOutput) n++;
    return n;
  }

  /**
   * Stores a decoded (or inferred) frame after marking (C.4.5.1, C.4.5.2):
   * bumping while the DPB is full; a non-reference picture that comes before
   * every waiting frame is output at once instead of stored.
   */
  store(frame: DpbFrame, dpbFrames: number, maxNumReorderFrames: number, events: H264Event[]): void {
    let stored = true;
    if (frame.reference === 0) {
      while (this.dpb.frames.length >= dpbFrames) {
        let min = Number.POSITIVE_INFINITY;
        for (const f of this.dpb.frames) if (f.neededForOutput && f.poc < min) min = f.poc;
        // C.4.5.2: output directly (also when nothing waits: the DPB holds only references).
        if (!(frame.poc >= min) || !this.bump(events)) {
          events.push({ type: 'output', decodeIndex: frame.decodeIndex });
          frame.neededForOutput = false;
          stored = false;
          break;
        }
      }
    } else {
      while (this.dpb.frames.length >= dpbFrames && this.bump(events));
    }
    if (stored && (frame.reference !== 0 || frame.neededForOutput)) this.dpb.frames.push(frame);
    while (this.#waiting() > maxNumReorderFrames && this.bump(events));
  }
}
