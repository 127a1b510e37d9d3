// The HEVC decoder configuration record (hvcC, MP4's extradata for H.265;
// ISO/IEC 14496-15 8.3.3.1): the NAL unit length field size and the parameter
// set NAL units (VPS, SPS, PPS, and any SEI) it carries, in its order.
import { H265BitstreamError } from './errors';

export interface HevcConfiguration {
  /** general_profile_idc and general_level_idc as the record states them. */
  readonly profileIdc: number;
  readonly levelIdc: number;
  /** lengthSizeMinusOne + 1: 1, 2 or 4. */
  readonly nalLengthSize: number;
  /** Every NAL unit of its arrays, in order (VPS, SPS, PPS first as the record lists them). */
  readonly nalUnits: readonly Uint8Array[];
}

/** Bytes before numOfArrays. */
const HEADER = 23;

/** Parses an hvcC record (its box's payload). Throws H265BitstreamError on a malformed one. */
export function parseHvcC(extradata: Uint8Array): HevcConfiguration {
  if (!(extradata instanceof Uint8Array)) throw new TypeError(`parseHvcC: extradata must be a Uint8Array; got ${typeof extradata}`);
  const bad = (what: string) => new H265BitstreamError(`hvcC: ${what} (ISO/IEC 14496-15 8.3.3.1)`);
  if (extradata.length < HEADER) throw bad(`${extradata.length} bytes, shorter than the ${HEADER}-byte header`);
  if (extradata[0] !== 1) throw bad(`configurationVersion is ${extradata[0]}, expected 1`);
  const nalLengthSize = (extradata[21]! & 3) + 1;
  if (nalLengthSize === 3) throw bad('lengthSizeMinusOne is 2 (3-byte lengths are not allowed)');
  const arrays = extradata[22]!;
  const nalUnits: Uint8Array[] = [];
  let at = HEADER;
  for (let a = 0; a < arrays; a++) {
    if (at + 3 > extradata.length) throw bad(`array ${a}'s header runs past the end`);
    const type = extradata[at]! & 63;
    const count = (extradata[at + 1]! << 8) | extradata[at + 2]!;
    at += 3;
    for (let i = 0; i < count; i++) {
      if (at + 2 > extradata.length) throw bad(`NAL unit ${i} of array ${a}'s length runs past the end`);
      const length = (extradata[at]! << 8) | extradata[at + 1]!;
      at += 2;
      if (at + length > extradata.length) throw bad(`NAL unit ${i} of array ${a} (${length} bytes) runs past the end`);
      const nal = extradata.subarray(at, at + length);
      at += length;
      if (length === 0) continue;
      if (((nal[0]! >> 1) & 63) !== type) throw bad(`a unit of nal_unit_type ${(nal[0]! >> 1) & 63} in the array of type ${type}`);
      nalUnits.push(nal);
    }
  }
  return { profileIdc: extradata[1]! & 31, levelIdc: extradata[12]!, nalLengthSize, nalUnits };
}
