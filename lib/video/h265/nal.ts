// The H.265 NAL unit header (7.3.1.2) and what its nal_unit_type says
// (Table 7-1). Annex-B splitting is the same byte stream format as H.264's
// (B.2), so the H.264 room's splitters are used as they are.
import { H265BitstreamError } from './errors';
import type { H265NalHeader } from './types';

export { AnnexBSplitter, splitAnnexB } from '../h264/nal';

/** nal_unit_type values (Table 7-1), by the spec's names. */
export const H265NalType = {
  TRAIL_N: 0,
  TRAIL_R: 1,
  TSA_N: 2,
  TSA_R: 3,
  STSA_N: 4,
  STSA_R: 5,
  RADL_N: 6,
  RADL_R: 7,
  RASL_N: 8,
  RASL_R: 9,
  BLA_W_LP: 16,
  BLA_W_RADL: 17,
  BLA_N_LP: 18,
  IDR_W_RADL: 19,
  IDR_N_LP: 20,
  CRA_NUT: 21,
  /** RSV_IRAP_VCL22..23: reserved IRAP types; 24..31 reserved non-IRAP VCL types. */
  RSV_IRAP_VCL23: 23,
  VPS_NUT: 32,
  SPS_NUT: 33,
  PPS_NUT: 34,
  AUD_NUT: 35,
  EOS_NUT: 36,
  EOB_NUT: 37,
  FD_NUT: 38,
  PREFIX_SEI_NUT: 39,
  SUFFIX_SEI_NUT: 40,
} as const;

/** Reads the two header bytes (7.3.1.2). forbidden_zero_bit 1, a unit shorter than its header or nuh_temporal_id_plus1 0 is H265BitstreamError. */
export function readNalHeader(nal: Uint8Array): H265NalHeader {
  if (nal.length < 2) throw new H265BitstreamError(`a NAL unit of ${nal.length} bytes, shorter than its 2-byte header (7.3.1.2)`);
  const b0 = nal[0]!;
  const b1 = nal[1]!;
  if (b0 & 0x80) throw new H265BitstreamError('forbidden_zero_bit is 1 (7.4.2.1)');
  const nalUnitType = (b0 >> 1) & 63;
  const nuhLayerId = ((b0 & 1) << 5) | (b1 >> 3);
  const nuhTemporalIdPlus1 = b1 & 7;
  if (nuhTemporalIdPlus1 === 0) throw new H265BitstreamError('nuh_temporal_id_plus1 is 0 (7.4.2.2)');
  const temporalId = nuhTemporalIdPlus1 - 1;
  // 7.4.2.2: IRAP pictures, and parameter sets, EOS / EOB, have TemporalId 0 (VPS, SPS: 0; PPS may be higher).
  if (
    temporalId !== 0 &&
    ((nalUnitType >= 16 && nalUnitType <= 23) || nalUnitType === 32 || nalUnitType === 33 || nalUnitType === 36 || nalUnitType === 37)
  )
    throw new H265BitstreamError(`nal_unit_type ${nalUnitType} has TemporalId ${temporalId}, must be 0 (7.4.2.2)`);
  return { nalUnitType, nuhLayerId, nuhTemporalIdPlus1, temporalId };
}

/** A VCL NAL unit (a slice segment): types 0..31. */
export function isVcl(nalUnitType: number): boolean {
  return nalUnitType >= 0 && nalUnitType <= 31;
}

/** An intra random access point: BLA, IDR, CRA or reserved IRAP (16..23). */
export function isIrap(nalUnitType: number): boolean {
  return nalUnitType >= 16 && nalUnitType <= 23;
}

/** IDR_W_RADL or IDR_N_LP. */
export function isIdr(nalUnitType: number): boolean {
  return nalUnitType === H265NalType.IDR_W_RADL || nalUnitType === H265NalType.IDR_N_LP;
}

/** BLA_W_LP, BLA_W_RADL or BLA_N_LP. */
export function isBla(nalUnitType: number): boolean {
  return nalUnitType >= 16 && nalUnitType <= 18;
}

export function isCra(nalUnitType: number): boolean {
  return nalUnitType === H265NalType.CRA_NUT;
}

/** Random access skipped leading picture (RASL_N, RASL_R). */
export function isRasl(nalUnitType: number): boolean {
  return nalUnitType === H265NalType.RASL_N || nalUnitType === H265NalType.RASL_R;
}

/** Random access decodable leading picture (RADL_N, RADL_R). */
export function isRadl(nalUnitType: number): boolean {
  return nalUnitType === H265NalType.RADL_N || nalUnitType === H265NalType.RADL_R;
}

/** A sub-layer non-reference picture (TRAIL_N, TSA_N, STSA_N, RADL_N, RASL_N, RSV_VCL_N10/12/14): even types up to 14. */
export function isSubLayerNonReference(nalUnitType: number): boolean {
  return nalUnitType >= 0 && nalUnitType <= 14 && nalUnitType % 2 === 0;
}
