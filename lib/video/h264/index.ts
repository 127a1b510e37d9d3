// The H.264 bitstream room: pure TypeScript, no GPU, no addon. It turns an
// H.264 stream into coded pictures in decode order with everything a
// hardware decoder needs (parameter sets, slice headers, POC, DPB slots,
// reference sets and lists) and tells the caller when to show each picture.
//
//   const sequencer = new H264Sequencer({ maxWidth, maxHeight, maxSlots, maxLevelIdc });
//   const splitter = new AnnexBSplitter();          // Annex-B read in chunks of any size
//   for (const chunk of chunks)
//     for (const nal of splitter.push(chunk))
//       for (const event of sequencer.push(nal)) act(event);
//   for (const nal of splitter.end()) for (const event of sequencer.push(nal)) act(event);
//   for (const event of sequencer.flush()) act(event);
//
// act(): a 'picture' event is a picture to decode now, into picture.setupSlot,
// with picture.references as the DPB slots it may read; an 'output' event
// names (by decodeIndex) a decoded picture to show now, in display order.
// A picture is given out once the next access unit starts; with MP4 samples
// (parseAvcC, splitLengthPrefixed), call endAccessUnit() after each sample to
// have it at once. splitAnnexB() splits a whole buffer (not a chunk: a NAL
// unit cut by a chunk boundary would be cut in two). Errors: H264BitstreamError
// (malformed stream, `reason`) and H264UnsupportedError (`feature`, `found`),
// thrown before the picture they concern is given out.
export * from './types';
export { AnnexBSplitter, type AvcConfiguration, parseAvcC, splitAnnexB, splitLengthPrefixed } from './nal';
export { parsePps, parseSliceHeader, parseSps } from './parse';
export { zigzag4x4, zigzag8x8 } from './scaling';
export { H264Sequencer } from './sequencer';
