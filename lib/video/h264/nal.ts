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
function nextStart(bytes: Buffer, from: number): number {
  // Buffer's indexOf searches natively, several times faster than a loop here.
  const at = bytes.indexOf(START_CODE, from);
  return at < 0 ? -1 : at + 3;
}

const START_CODE = Buffer.from([0, 0, 1]);

/** AnnexBSplitter's default bound on one NAL unit: past the largest coded picture of 4096x4096 (maxPictureBytes, limits.ts). */
const DEFAULT_MAX_UNIT_BYTES = 64 << 20;

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
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
  const search = asBuffer(bytes);
  let start = nextStart(search, 0);
  while (start >= 0) {
    const next = nextStart(search, start);
    const end = trimZeros(bytes, start, next < 0 ? bytes.length : next - 3);
    if (end > start) out.push(bytes.subarray(start, end));
    start = next;
  }
  return out;
}

/**
 * An Annex-B byte stream fed in chunks of any size (a file read in pieces, a
 * network stream): push() returns the NAL units completed so far (a unit is
 * complete once the next start code arrives), end() the last one. A unit that
 * lies within one chunk is a view of it; the unfinished end of a chunk is
 * copied into the splitter's own buffer, so a chunk may be refilled once
 * push() has returned and its units are read.
 */
export class AnnexBSplitter {
  /** Whether units that run across chunks are assembled in #scratch (reuseBuffer). */
  readonly #reuse: boolean;
  #scratch = new Uint8Array(0);
  readonly #maxUnitBytes: number;
  /** The unit being collected (after its start code), its first #held bytes, from earlier chunks; reused. */
  #carry = new Uint8Array(0);
  #held = 0;
  /** Whether a start code has been seen (bytes before the first one are not a unit). */
  #inUnit = false;
  /** Zero bytes at the end of what was pushed so far (0, 1 or 2: enough to finish a start code split across chunks). */
  #zeros = 0;
  /** Units completed by a push() that then threw: the next call returns them first. */
  #owed: Uint8Array[] = [];

  /**
   * `reuseBuffer`: assemble units that run across chunks in one buffer the splitter keeps, each valid until the
   * next push() or end() (for a caller that copies them at once, as H264Sequencer.push does); else each is a copy of
   * its own. `maxUnitBytes` (default 64 MiB): a unit that grows past it with no start code after it is an
   * H264BitstreamError (its bytes are dropped up to the next start code), so a stream that never sends one cannot
   * fill memory.
   */
  constructor(options?: { reuseBuffer?: boolean; maxUnitBytes?: number }) {
    this.#reuse = options?.reuseBuffer === true;
    const most = options?.maxUnitBytes ?? DEFAULT_MAX_UNIT_BYTES;
    if (!Number.isInteger(most) || most < 1)
      throw new RangeError(`AnnexBSplitter: options.maxUnitBytes must be a positive integer; got ${String(options?.maxUnitBytes)}`);
    this.#maxUnitBytes = most;
  }

  push(chunk: Uint8Array): Uint8Array[] {
    if (!(chunk instanceof Uint8Array)) throw new TypeError(`AnnexBSplitter.push: chunk must be a Uint8Array; got ${typeof chunk}`);
    const out: Uint8Array[] = this.#owed;
    this.#owed = [];
    // A start code begun in earlier chunks (00 00 | 01, 00 | 00 01): the unit before it ends in them.
    let from = 0;
    if (this.#zeros === 2 && chunk.length >= 1 && chunk[0] === 1) from = this.#restart(out, chunk, -2, 1);
    else if (this.#zeros >= 1 && chunk.length >= 2 && chunk[0] === 0 && chunk[1] === 1) from = this.#restart(out, chunk, -1, 2);
    const search = asBuffer(chunk);
    for (let next = nextStart(search, from); next >= 0; next = nextStart(search, from)) from = this.#restart(out, chunk, next - 3 - from, next, from);
    this.#zeros = trailingZeros(chunk, this.#zeros);
    if (this.#inUnit && from < chunk.length) {
      const rest = chunk.length - from;
      if (this.#held + rest > this.#maxUnitBytes) {
        const size = this.#held + rest;
        this.#held = 0;
        this.#inUnit = false; // what follows, up to the next start code, is not a unit
        // The units before it are not lost: the next call returns them (copied: the chunk may be refilled by then).
        this.#owed = out.map((unit) => unit.slice());
        throw new H264BitstreamError(
          `a NAL unit runs past ${this.#maxUnitBytes} bytes (${size} so far) with no start code after it (B.2); it is dropped up to the next one`,
        );
      }
      this.#keep(chunk.subarray(from));
    }
    return out;
  }

  /** Appends the unfinished end of a chunk to #carry (grown by doubling, never shrunk). */
  #keep(bytes: Uint8Array): void {
    const need = this.#held + bytes.length;
    if (need > this.#carry.length) {
      const carry = new Uint8Array(Math.min(Math.max(need, 2 * this.#carry.length, 1 << 16), Math.max(need, this.#maxUnitBytes)));
      carry.set(this.#carry.subarray(0, this.#held));
      this.#carry = carry;
    }
    this.#carry.set(bytes, this.#held);
    this.#held = need;
  }

  /**
   * A start code ends at `next` in `chunk`: the unit collected so far plus `length` bytes of the chunk from `from`
   * (negative: that many bytes of #carry belong to the start code) is complete. Returns where the next unit begins.
   */
  #restart(out: Uint8Array[], chunk: Uint8Array, length: number, next: number, from = 0): number {
    if (this.#inUnit) {
      let unit: Uint8Array;
      if (this.#held === 0) unit = chunk.subarray(from, from + Math.max(length, 0));
      else {
        const kept = Math.max(this.#held + Math.min(length, 0), 0);
        unit = this.#unitBuffer(kept + Math.max(length, 0));
        unit.set(this.#carry.subarray(0, kept));
        if (length > 0) unit.set(chunk.subarray(from, from + length), kept);
        this.#held = 0;
      }
      const end = trimZeros(unit, 0, unit.length);
      if (end > 0) out.push(end === unit.length ? unit : unit.subarray(0, end));
    }
    this.#inUnit = true;
    return next;
  }

  #unitBuffer(length: number): Uint8Array {
    if (!this.#reuse) return new Uint8Array(length);
    if (this.#scratch.length < length) this.#scratch = new Uint8Array(Math.max(length, 2 * this.#scratch.length, 1 << 16));
    return this.#scratch.subarray(0, length);
  }

  /** The end of the stream: the last unit, if any. */
  end(): Uint8Array[] {
    const out: Uint8Array[] = this.#owed;
    this.#owed = [];
    if (this.#inUnit) this.#restart(out, new Uint8Array(0), 0, 0);
    this.#held = 0;
    this.#inUnit = false;
    this.#zeros = 0;
    return out;
  }
}

/** Zero bytes at the end of `chunk`, counting on from `before` (those at the end of earlier chunks) for a chunk of zeros; at most 2. */
function trailingZeros(chunk: Uint8Array, before: number): number {
  let n = 0;
  while (n < 2 && n < chunk.length && chunk[chunk.length - 1 - n] === 0) n++;
  return n === chunk.length ? Math.min(2, before + n) : n;
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
