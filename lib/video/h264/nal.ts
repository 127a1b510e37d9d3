// NAL units out of the two framings H.264 travels in: the Annex-B byte
// stream (start codes 00 00 01, as in .h264 files and transport streams) and
// MP4's length-prefixed samples with their avcC record (ISO/IEC 14496-15).
// NAL units are returned as views of the input (no copies), except where a
// unit spans two chunks fed to AnnexBSplitter.
import { H264BitstreamError } from './types';

/** nal_unit_type values (Table 7-1) the room acts on. */
export const NalType = {
  slice: 1,
  partitionA: 2,
  partitionB: 3,
  partitionC: 4,
  idr: 5,
  sei: 6,
  sps: 7,
  pps: 8,
  aud: 9,
  endOfSequence: 10,
  endOfStream: 11,
  filler: 12,
  spsExtension: 13,
  prefix: 14,
  subsetSps: 15,
  auxiliarySlice: 19,
  sliceExtension: 20,
} as const;

/** nal_unit_type of a NAL unit (its first byte's low 5 bits). */
export function nalUnitType(nal: Uint8Array): number {
  return nal.length > 0 ? nal[0]! & 31 : -1;
}

/** Index of the byte after the next 00 00 01 at or after `from`, or -1. */
function nextStart(bytes: Uint8Array, from: number, end: number): number {
  let i = from;
  while (i + 2 < end) {
    const b2 = bytes[i + 2]!;
    if (b2 > 1) i += 3;
    else if (b2 === 1) {
      if (bytes[i + 1] === 0 && bytes[i] === 0) return i + 3;
      i += 3;
    } else i += 1;
  }
  return -1;
}

/** End of a NAL unit that runs up to `end`: trailing zero bytes (the next start code's zero_byte, trailing_zero_8bits) dropped. */
function trimZeros(bytes: Uint8Array, start: number, end: number): number {
  while (end > start && bytes[end - 1] === 0) end--;
  return end;
}

/**
 * The NAL units of an Annex-B byte stream (B.2): what lies between start
 * codes, without the start codes and the zero bytes around them. Bytes before
 * the first start code are ignored; empty units are dropped.
 */
export function splitAnnexB(bytes: Uint8Array): Uint8Array[] {
  if (!(bytes instanceof Uint8Array)) throw new TypeError(`splitAnnexB: bytes must be a Uint8Array; got ${typeof bytes}`);
  const out: Uint8Array[] = [];
  let start = nextStart(bytes, 0, bytes.length);
  while (start >= 0) {
    const next = nextStart(bytes, start, bytes.length);
    const end = trimZeros(bytes, start, next < 0 ? bytes.length : next - 3);
    if (end > start) out.push(bytes.subarray(start, end));
    start = next;
  }
  return out;
}

/**
 * An Annex-B byte stream fed in chunks of any size (a file read in pieces, a
 * network stream): push() returns the NAL units completed so far (a unit is
 * complete once the next start code arrives), end() the last one.
 */
export class AnnexBSplitter {
  #buffer = new Uint8Array(0);
  /** Start of the unit being collected in #buffer (after its start code), or -1 before the first start code. */
  #unitStart = -1;
  /** Where the next start-code search resumes. */
  #scanFrom = 0;

  push(chunk: Uint8Array): Uint8Array[] {
    if (!(chunk instanceof Uint8Array)) throw new TypeError(`AnnexBSplitter.push: chunk must be a Uint8Array; got ${typeof chunk}`);
    const keep = this.#unitStart >= 0 ? this.#unitStart : Math.max(0, this.#buffer.length - 2);
    const kept = this.#buffer.length - keep;
    const buffer = new Uint8Array(kept + chunk.length);
    buffer.set(this.#buffer.subarray(keep), 0);
    buffer.set(chunk, kept);
    this.#scanFrom = Math.max(0, this.#scanFrom - keep - 2);
    if (this.#unitStart >= 0) this.#unitStart -= keep;
    this.#buffer = buffer;
    const out: Uint8Array[] = [];
    for (;;) {
      const next = nextStart(buffer, Math.max(this.#scanFrom, this.#unitStart < 0 ? 0 : this.#unitStart), buffer.length);
      if (next < 0) {
        this.#scanFrom = Math.max(0, buffer.length - 2);
        break;
      }
      if (this.#unitStart >= 0) {
        const end = trimZeros(buffer, this.#unitStart, next - 3);
        if (end > this.#unitStart) out.push(buffer.slice(this.#unitStart, end));
      }
      this.#unitStart = next;
      this.#scanFrom = next;
    }
    return out;
  }

  /** The end of the stream: the last unit, if any. */
  end(): Uint8Array[] {
    const out: Uint8Array[] = [];
    if (this.#unitStart >= 0) {
      const end = trimZeros(this.#buffer, this.#unitStart, this.#buffer.length);
      if (end > this.#unitStart) out.push(this.#buffer.slice(this.#unitStart, end));
    }
    this.#buffer = new Uint8Array(0);
    this.#unitStart = -1;
    this.#scanFrom = 0;
    return out;
  }
}

/** The payload of an avcC box (AVCDecoderConfigurationRecord, ISO/IEC 14496-15 5.3.3.1). */
export interface AvcConfiguration {
  readonly profileIdc: number;
  readonly profileCompatibility: number;
  readonly levelIdc: number;
  /** Bytes in each NAL unit's length field in the samples: 1, 2 or 4. */
  readonly nalLengthSize: number;
  readonly sps: Uint8Array[];
  readonly pps: Uint8Array[];
}

/** Parses an avcC record (MP4 extradata). Throws H264BitstreamError on a malformed one. */
export function parseAvcC(extradata: Uint8Array): AvcConfiguration {
  if (!(extradata instanceof Uint8Array)) throw new TypeError(`parseAvcC: extradata must be a Uint8Array; got ${typeof extradata}`);
  const bad = (what: string) => new H264BitstreamError(`avcC: ${what} (ISO/IEC 14496-15 5.3.3.1)`);
  if (extradata.length < 7) throw bad(`${extradata.length} bytes, shorter than the 7-byte header`);
  if (extradata[0] !== 1) throw bad(`configurationVersion is ${extradata[0]}, expected 1`);
  const nalLengthSize = (extradata[4]! & 3) + 1;
  if (nalLengthSize === 3) throw bad('lengthSizeMinusOne is 2 (3-byte lengths are not allowed)');
  let at = 6;
  const sets = (count: number, kind: string): Uint8Array[] => {
    const out: Uint8Array[] = [];
    for (let i = 0; i < count; i++) {
      if (at + 2 > extradata.length) throw bad(`${kind} ${i}'s length runs past the end`);
      const length = (extradata[at]! << 8) | extradata[at + 1]!;
      at += 2;
      if (at + length > extradata.length) throw bad(`${kind} ${i} (${length} bytes) runs past the end`);
      if (length > 0) out.push(extradata.subarray(at, at + length));
      at += length;
    }
    return out;
  };
  const sps = sets(extradata[5]! & 31, 'SPS');
  if (at >= extradata.length) throw bad('numOfPictureParameterSets is missing');
  const ppsCount = extradata[at++]!;
  const pps = sets(ppsCount, 'PPS');
  for (const s of sps) if ((s[0]! & 31) !== NalType.sps) throw bad(`an SPS entry has nal_unit_type ${s[0]! & 31}`);
  for (const p of pps) if ((p[0]! & 31) !== NalType.pps) throw bad(`a PPS entry has nal_unit_type ${p[0]! & 31}`);
  return { profileIdc: extradata[1]!, profileCompatibility: extradata[2]!, levelIdc: extradata[3]!, nalLengthSize, sps, pps };
}

/** The NAL units of one MP4 sample: each after a big-endian length of nalLengthSize bytes. Zero-length units are skipped. */
export function splitLengthPrefixed(packet: Uint8Array, nalLengthSize: number): Uint8Array[] {
  if (!(packet instanceof Uint8Array)) throw new TypeError(`splitLengthPrefixed: packet must be a Uint8Array; got ${typeof packet}`);
  if (nalLengthSize !== 1 && nalLengthSize !== 2 && nalLengthSize !== 4)
    throw new RangeError(`splitLengthPrefixed: nalLengthSize must be 1, 2 or 4; got ${String(nalLengthSize)}`);
  const out: Uint8Array[] = [];
  let at = 0;
  while (at < packet.length) {
    if (at + nalLengthSize > packet.length)
      throw new H264BitstreamError(`sample: a ${nalLengthSize}-byte NAL unit length at byte ${at} runs past the end (${packet.length} bytes)`);
    let length = 0;
    for (let i = 0; i < nalLengthSize; i++) length = length * 256 + packet[at + i]!;
    at += nalLengthSize;
    if (at + length > packet.length)
      throw new H264BitstreamError(`sample: the NAL unit at byte ${at} is ${length} bytes, past the end (${packet.length - at} left)`);
    if (length > 0) out.push(packet.subarray(at, at + length));
    at += length;
  }
  return out;
}
