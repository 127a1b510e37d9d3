// The H.264 bitstream room: pure TypeScript, no GPU, no addon. It turns an
// H.264 byte stream (Annex-B) or MP4 samples (avcC, length-prefixed) into
// coded pictures in decode order with everything a hardware decoder needs
// (parameter sets, slice headers, POC, DPB slots, reference sets and lists)
// and tells the caller when to display each picture.
export * from './types';
export { AnnexBSplitter, type AvcConfiguration, NalType, nalUnitType, parseAvcC, splitAnnexB, splitLengthPrefixed } from './nal';
export { default4x4Inter, default4x4Intra, default8x8Inter, default8x8Intra, zigzag4x4, zigzag8x8 } from './scaling';
export { H264Sequencer } from './sequencer';
