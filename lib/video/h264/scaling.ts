// Scaling lists (7.3.2.1.1.1, 7.4.2.1.1 Table 7-2): parsing, the default
// lists of Tables 7-3 and 7-4, and fall-back rules A (SPS) and B (PPS). All
// lists are kept in the syntax's zig-zag scan order.
import type { BitReader } from './bit-reader';
import type { H264ScalingLists } from './types';

/** zigzag4x4[i]: raster position (row * 4 + column) of scan position i (frame zig-zag scan, 8.5.6). */
export const zigzag4x4: readonly number[] = [0, 1, 4, 8, 5, 2, 3, 6, 9, 12, 13, 10, 7, 11, 14, 15];

/** zigzag8x8[i]: raster position (row * 8 + column) of scan position i (8x8 frame zig-zag scan, 8.5.7). */
export const zigzag8x8: readonly number[] = [
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57, 50, 43,
  36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
];

/** Default_4x4_Intra and Default_4x4_Inter (Table 7-3), scan order. */
export const default4x4Intra = Uint8Array.of(6, 13, 13, 20, 20, 20, 28, 28, 28, 28, 32, 32, 32, 37, 37, 42);
export const default4x4Inter = Uint8Array.of(10, 14, 14, 20, 20, 20, 24, 24, 24, 24, 27, 27, 27, 30, 30, 34);
/** Default_8x8_Intra and Default_8x8_Inter (Table 7-4), scan order. */
export const default8x8Intra = Uint8Array.of(
  6,
  10,
  10,
  13,
  11,
  13,
  16,
  16,
  16,
  16,
  18,
  18,
  18,
  18,
  18,
  23,
  23,
  23,
  23,
  23,
  23,
  25,
  25,
  25,
  25,
  25,
  25,
  25,
  27,
  27,
  27,
  27,
  27,
  27,
  27,
  27,
  29,
  29,
  29,
  29,
  29,
  29,
  29,
  31,
  31,
  31,
  31,
  31,
  31,
  33,
  33,
  33,
  33,
  33,
  36,
  36,
  36,
  36,
  38,
  38,
  38,
  40,
  40,
  42,
);
export const default8x8Inter = Uint8Array.of(
  9,
  13,
  13,
  15,
  13,
  15,
  17,
  17,
  17,
  17,
  19,
  19,
  19,
  19,
  19,
  21,
  21,
  21,
  21,
  21,
  21,
  22,
  22,
  22,
  22,
  22,
  22,
  22,
  24,
  24,
  24,
  24,
  24,
  24,
  24,
  24,
  25,
  25,
  25,
  25,
  25,
  25,
  25,
  27,
  27,
  27,
  27,
  27,
  27,
  28,
  28,
  28,
  28,
  28,
  30,
  30,
  30,
  30,
  32,
  32,
  32,
  33,
  33,
  35,
);
const flat4x4 = new Uint8Array(16).fill(16);
const flat8x8 = new Uint8Array(64).fill(16);

/** Flat_4x4_16 / Flat_8x8_16 everywhere: what applies when no matrix is sent. */
export const flatScalingLists: H264ScalingLists = Object.freeze({
  presentMask: 0,
  useDefaultMask: 0,
  list4x4: Object.freeze(Array.from({ length: 6 }, () => flat4x4)),
  list8x8: Object.freeze(Array.from({ length: 6 }, () => flat8x8)),
});

/** One scaling_list() of `size` entries into `out`; returns useDefaultScalingMatrixFlag. */
function scalingList(r: BitReader, out: Uint8Array, size: number, element: string): boolean {
  let last = 8;
  let next = 8;
  for (let j = 0; j < size; j++) {
    if (next !== 0) {
      const delta = r.se(element, -128, 127);
      next = (last + delta + 256) % 256;
      if (j === 0 && next === 0) return true;
    }
    out[j] = next === 0 ? last : next;
    last = out[j]!;
  }
  return false;
}

/**
 * The scaling lists of an SPS (`count` = 8, or 12 for 4:4:4) or a PPS
 * (6 + 2 or 6 per transform_8x8_mode_flag), resolved: lists not sent take the
 * fall-back rule's list (A: defaults for 0, 3, 6, 7; B: the sequence's lists
 * `sequence` for those), lists sent as "use default" take the default.
 */
export function readScalingLists(r: BitReader, count: number, sequence: H264ScalingLists | null, what: string): H264ScalingLists {
  const list4x4: Uint8Array[] = [];
  const list8x8: Uint8Array[] = [];
  let presentMask = 0;
  let useDefaultMask = 0;
  for (let i = 0; i < 12; i++) {
    const is4x4 = i < 6;
    const present = i < count && r.flag(`${what}_scaling_list_present_flag[${i}]`);
    let list: Uint8Array;
    if (present) {
      presentMask |= 1 << i;
      list = new Uint8Array(is4x4 ? 16 : 64);
      if (scalingList(r, list, list.length, `delta_scale of ${what} scaling list ${i}`)) {
        useDefaultMask |= 1 << i;
        list = defaultList(i);
      }
    } else {
      list = fallBack(i, list4x4, list8x8, sequence);
    }
    if (is4x4) list4x4.push(list);
    else list8x8.push(list);
  }
  return { presentMask, useDefaultMask, list4x4, list8x8 };
}

function defaultList(i: number): Uint8Array {
  if (i < 6) return i < 3 ? default4x4Intra : default4x4Inter;
  return (i - 6) % 2 === 0 ? default8x8Intra : default8x8Inter;
}

/** Table 7-2: rule A when `sequence` is null, else rule B. */
function fallBack(i: number, list4x4: Uint8Array[], list8x8: Uint8Array[], sequence: H264ScalingLists | null): Uint8Array {
  switch (i) {
    case 0:
    case 3:
      return sequence ? sequence.list4x4[i]! : defaultList(i);
    case 6:
    case 7:
      return sequence ? sequence.list8x8[i - 6]! : defaultList(i);
    default:
      // 1, 2, 4, 5: the previous 4x4 list; 8..11: the 8x8 list two before (same intra/inter kind).
      return i < 6 ? list4x4[i - 1]! : list8x8[i - 8]!;
  }
}
