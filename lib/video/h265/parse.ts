// One NAL unit at a time: a VPS, an SPS, a PPS (against its SPS) or a slice
// segment header (against both). Units of layers above the base layer
// (nuh_layer_id > 0) are not for this decoder: each function returns null for
// them, as a base-layer decoder drops them (7.4.2.2). Errors are
// H265BitstreamError and H265UnsupportedError only.
import { BitReader } from '../h264/bit-reader';
import { H265BitstreamError, h265Errors } from './errors';
import { H265NalType, isVcl, readNalHeader } from './nal';
import { readPps, readPpsIds } from './pps';
import { readSliceHeader, readSliceStart } from './slice-header';
import { readSps } from './sps';
import type { H265NalHeader, H265Pps, H265SliceHeader, H265Sps, H265Vps } from './types';
import { readVps } from './vps';

/** The header of `nal` if it is for the base layer and of the wanted type, else null (another layer). */
function open(nal: unknown, wanted: (type: number) => boolean, expected: string, what: string): H265NalHeader | null {
  if (!(nal instanceof Uint8Array)) throw new TypeError(`${what}: nal must be a Uint8Array; got ${nal === null ? 'null' : typeof nal}`);
  const header = readNalHeader(nal);
  if (header.nuhLayerId > 0) return null;
  if (!wanted(header.nalUnitType)) throw new H265BitstreamError(`${what}: nal_unit_type is ${header.nalUnitType}, expected ${expected}`);
  return header;
}

function reader(nal: Uint8Array, what: string): BitReader {
  return new BitReader().reset(nal, 2, nal.length, what);
}

/** Parses a VPS NAL unit (nal_unit_type 32, no start code). */
export function parseVps(nal: Uint8Array): H265Vps | null {
  return h265Errors(() => (open(nal, (t) => t === H265NalType.VPS_NUT, '32 (VPS_NUT)', 'parseVps') ? readVps(reader(nal, 'VPS')) : null));
}

/** Parses an SPS NAL unit (nal_unit_type 33). */
export function parseSps(nal: Uint8Array): H265Sps | null {
  return h265Errors(() => (open(nal, (t) => t === H265NalType.SPS_NUT, '33 (SPS_NUT)', 'parseSps') ? readSps(reader(nal, 'SPS')) : null));
}

/** pps_seq_parameter_set_id of a PPS NAL unit: the SPS to parse it against (null for another layer's PPS). */
export function ppsSpsId(nal: Uint8Array): number | null {
  return h265Errors(() => (open(nal, (t) => t === H265NalType.PPS_NUT, '34 (PPS_NUT)', 'ppsSpsId') ? readPpsIds(reader(nal, 'PPS')).spsId : null));
}

/** Parses a PPS NAL unit (nal_unit_type 34) against the SPS it names. */
export function parsePps(nal: Uint8Array, sps: H265Sps): H265Pps | null {
  return h265Errors(() => {
    if (!open(nal, (t) => t === H265NalType.PPS_NUT, '34 (PPS_NUT)', 'parsePps')) return null;
    const r = reader(nal, 'PPS');
    return readPps(r, readPpsIds(r), sps);
  });
}

/** slice_pic_parameter_set_id of a slice segment NAL unit: the PPS to parse it against (null for another layer's). */
export function slicePpsId(nal: Uint8Array): number | null {
  return h265Errors(() => {
    const header = open(nal, isVcl, 'a slice segment (0..31)', 'slicePpsId');
    return header ? readSliceStart(reader(nal, 'slice segment header'), header.nalUnitType).ppsId : null;
  });
}

/**
 * Parses the header of a slice segment NAL unit (nal_unit_type 0..31)
 * against its SPS and PPS; `previous` is the slice segment before it in the
 * same picture, needed when this one is a dependent slice segment.
 */
export function parseSliceHeader(nal: Uint8Array, sps: H265Sps, pps: H265Pps, previous: H265SliceHeader | null = null): H265SliceHeader | null {
  return h265Errors(() => {
    const header = open(nal, isVcl, 'a slice segment (0..31)', 'parseSliceHeader');
    if (!header) return null;
    // 7.4.2.2: 10..15 and 22..31 are reserved VCL types; their content is not defined.
    if ((header.nalUnitType >= 10 && header.nalUnitType <= 15) || header.nalUnitType >= 22)
      throw new H265BitstreamError(`parseSliceHeader: nal_unit_type ${header.nalUnitType} is reserved (Table 7-1)`);
    const r = reader(nal, 'slice segment header');
    const start = readSliceStart(r, header.nalUnitType);
    return readSliceHeader(r, header, start, sps, pps, previous);
  });
}
