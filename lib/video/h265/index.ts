// The H.265 bitstream room: pure TypeScript, no GPU. The NAL unit header and
// the parsers of VPS, SPS, PPS and slice segment headers of Main / Main 10 /
// Main Still Picture streams, each checked against the ranges the spec gives
// (Rec. ITU-T H.265); and H265Sequencer, which turns NAL units in decode
// order into pictures to decode (DPB slot, references, lists) and pictures to
// output in display order.
//
//   for (const nal of splitAnnexB(bytes)) {
//     const { nalUnitType } = readNalHeader(nal);
//     if (nalUnitType === H265NalType.SPS_NUT) sps = parseSps(nal);
//     ...
//   }
//
// Errors: H265BitstreamError (malformed stream, `reason`) and
// H265UnsupportedError (`feature`, `found`). Units of layers above the base
// layer parse to null.
export * from './types';
export { H265BitstreamError, H265UnsupportedError } from './errors';
export {
  AnnexBSplitter,
  H265NalType,
  isBla,
  isCra,
  isIdr,
  isIrap,
  isRadl,
  isRasl,
  isSubLayerNonReference,
  isVcl,
  readNalHeader,
  splitAnnexB,
} from './nal';
export { parseHvcC, type HevcConfiguration } from './hvcc';
export { parsePps, parseSliceHeader, parseSps, parseVps, ppsSpsId, slicePpsId } from './parse';
export { H265Profile } from './profile-tier-level';
export { defaultScalingInter, defaultScalingIntra } from './scaling';
export { H265Sequencer } from './sequencer';
export type { H265Event, H265Picture, H265ReferenceEntry, H265RpsPocs, H265SequencerOptions, H265Slice } from './sequencer-types';
