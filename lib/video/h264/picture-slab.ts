// Where a bitstream room's sequencer (H.264, H.265) keeps each picture's
// slice NAL units, each after a 00 00 01 start code, as the decoder sends
// them: cut from slabs, one allocation for many pictures, each unit copied
// once, straight to where the picture's data will be (a slab lives while any
// picture of it does).
const SLAB_BYTES = 1 << 20;

/** One picture's units, being collected at the slab's free end. */
export interface CollectedUnits {
  /** Byte offset of each unit's start code in the picture's data. */
  readonly offsets: number[];
  /** Each unit's length, start code included. */
  readonly sizes: number[];
  /** Where in the slab the picture's bytes start, and how many there are. */
  base: number;
  length: number;
}

export class PictureSlab {
  #slab = new Uint8Array(0);
  /** Start of the slab's free end. */
  #at = 0;

  /** A new picture's units, at the free end. */
  begin(): CollectedUnits {
    return { offsets: [], sizes: [], base: this.#at, length: 0 };
  }

  /** Appends `nal` after a start code. */
  append(p: CollectedUnits, nal: Uint8Array): void {
    const need = p.length + 3 + nal.length;
    if (p.base + need > this.#slab.length) {
      // A new slab, with what the picture has so far moved to its start.
      const slab = new Uint8Array(Math.max(SLAB_BYTES, 2 * need));
      slab.set(this.#slab.subarray(p.base, p.base + p.length));
      this.#slab = slab;
      p.base = 0;
    }
    const at = p.base + p.length;
    p.offsets.push(p.length);
    p.sizes.push(3 + nal.length);
    this.#slab[at] = 0;
    this.#slab[at + 1] = 0;
    this.#slab[at + 2] = 1;
    this.#slab.set(nal, at + 3);
    p.length = need;
  }

  /** The picture's data; the next picture starts 8-byte aligned after it. */
  end(p: CollectedUnits): Uint8Array {
    const data = this.#slab.subarray(p.base, p.base + p.length);
    this.#at = p.base + ((p.length + 7) & ~7);
    return data;
  }

  /** The pictures given out so far are done with: the one being collected, if any, moves to the slab's start. */
  reclaim(p: CollectedUnits | null): void {
    if (p && p.base > 0) {
      this.#slab.copyWithin(0, p.base, p.base + p.length);
      p.base = 0;
    }
    this.#at = 0;
  }
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
