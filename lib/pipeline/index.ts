// The frame pipeline: frames in flight through OpenCL between any producer
// and consumer. It sits above the core, lib/interop/ and lib/vulkan/ (it uses
// all three); nothing but the wiring (lib/index.ts) imports it.
export { FramePipeline, MAX_FRAME_SLOTS } from './frame-pipeline';
export type {
  FrameConsumer,
  FrameOrder,
  FramePipelineOptions,
  FrameProducer,
  FrameRunOptions,
  FrameSlot,
  FrameSync,
  FrameTiming,
} from './types';
export { FramePipelineDisposedError, FramePipelineStateError, FrameStepError, type FrameStepName } from './errors';
