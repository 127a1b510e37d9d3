// Video decoding: the H.264 bitstream room (lib/video/h264), the H.265 room's
// typed errors and hvcC parser (lib/video/h265), and the decoder
// on the GPU's video decode queue whose frames reach OpenCL (Vulkan Video).
// Of the bitstream room, what a caller that splits and sequences a stream
// itself needs: the splitters, avcC, the sequencer, its records and typed
// errors. The single-unit parsers (parseSps, parsePps, parseSliceHeader) and
// the scan tables (zigzag4x4, zigzag8x8) are the back ends' (lib/video/h264).
export * from './h264/types';
export { AnnexBSplitter, H264Sequencer, parseAvcC, splitAnnexB, splitLengthPrefixed, type AvcConfiguration } from './h264';
export { H265BitstreamError, H265UnsupportedError, parseHvcC, type HevcConfiguration } from './h265';
export { VideoDecoder, createVideoDecoder, type VideoInput } from './decoder';
export type { VideoInputOptions } from './codec';
export type { H265InputOptions } from './h265-input';
export type { VideoDecoderOptions } from './decoder-setup';
export { VideoDecodeUnsupportedError, VideoDecoderDisposedError, VideoDecoderStateError } from './errors';
export { VideoFrame, frameLayout, type VideoFrameLayout, type VideoFrameSync } from './frames';
export type { H264InputOptions, VideoPacket } from './h264-input';
export { describeVideoSupport, videoDecodeSupport, type VideoCodec, type VideoDecodeProfile, type VideoDecodeSupport } from './support';
export { PipelineFrameSource, type PipelineFrame, type PipelineFrameWork, type PipelineRun, type PipelineSlot } from './pipeline-source';
