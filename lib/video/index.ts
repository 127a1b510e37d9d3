// Video decoding: the H.264 bitstream room (lib/video/h264), and the decoder
// on the GPU's video decode queue whose frames reach OpenCL (Vulkan Video).
export * from './h264';
export { VideoDecoder, createVideoDecoder, type VideoDecoderOptions, type VideoInput } from './decoder';
export { VideoDecodeUnsupportedError, VideoDecoderDisposedError, VideoDecoderStateError } from './errors';
export { VideoFrame, frameLayout, type VideoFrameLayout, type VideoFrameSync } from './frames';
export type { H264InputOptions } from './h264-input';
export { describeVideoSupport, videoDecodeSupport, type VideoCodec, type VideoDecodeProfile, type VideoDecodeSupport } from './support';
export { PipelineFrameSource, type PipelineFrame, type PipelineFrameWork } from './pipeline-source';
