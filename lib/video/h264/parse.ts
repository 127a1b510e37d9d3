// One NAL unit at a time, outside a sequencer: an SPS, a PPS (against its
// SPS) or a slice header (against both). For inspecting streams; the
// sequencer uses the same readers.
import { BitReader } from './bit-reader';
import { NalType } from './nal';
import { readPps } from './pps';
import { readSliceHeader, slicePpsId } from './slice-header';
import { readSps } from './sps';
import { H264BitstreamError, type H264Pps, type H264SliceHeader, type H264Sps } from './types';

function check(nal: unknown, types: readonly number[], what: string): Uint8Array {
  if (!(nal instanceof Uint8Array)) throw new TypeError(`${what}: nal must be a Uint8Array; got ${nal === null ? 'null' : typeof nal}`);
  if (nal.length === 0) throw new H264BitstreamError(`${what}: an empty NAL unit`);
  if (nal[0]! & 0x80) throw new H264BitstreamError(`${what}: forbidden_zero_bit is 1 (7.4.1)`);
  const type = nal[0]! & 31;
  if (!types.includes(type)) throw new H264BitstreamError(`${what}: nal_unit_type is ${type}, expected ${types.join(' or ')}`);
  return nal;
}

/** Parses an SPS NAL unit (nal_unit_type 7, no start code). */
export function parseSps(nal: Uint8Array): H264Sps {
  check(nal, [NalType.sps], 'parseSps');
  return readSps(new BitReader().reset(nal, 1, nal.length, 'SPS'), 1);
}

/** Parses a PPS NAL unit (nal_unit_type 8) against the SPS it names. */
export function parsePps(nal: Uint8Array, sps: H264Sps): H264Pps {
  check(nal, [NalType.pps], 'parsePps');
  return readPps(new BitReader().reset(nal, 1, nal.length, 'PPS'), sps, 1);
}

/** Parses the header of a slice NAL unit (nal_unit_type 1 or 5) against its SPS and PPS. */
export function parseSliceHeader(nal: Uint8Array, sps: H264Sps, pps: H264Pps): H264SliceHeader {
  check(nal, [NalType.slice, NalType.idr], 'parseSliceHeader');
  const r = new BitReader().reset(nal, 1, nal.length, 'slice header');
  const start = slicePpsId(r);
  if (start.ppsId !== pps.ppsId) throw new H264BitstreamError(`parseSliceHeader: the slice names PPS ${start.ppsId}, given PPS ${pps.ppsId}`);
  return readSliceHeader(r, nal[0]! & 31, (nal[0]! >> 5) & 3, start, sps, pps);
}
