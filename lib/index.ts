// opencl-interop: OpenCL for Node.js with the Direct3D 9/10, DX9 media and
// VA-API sharing extensions. See README.md.
export { CL, type CLName } from './constants';
export { Context, createContext, type ContextOptions, type ContextProperty, type BufferOptions, type ImageOptions, type ImageType } from './context';
export { Device, type DeviceType } from './device';
export {
  OpenCLError,
  OpenCLBuildError,
  OpenCLNotAvailableError,
  OpenCLNoPlatformError,
  OpenCLEntryPointError,
  OpenCLReleasedError,
  OpenCLStateError,
  errorName,
  type D3D9Family,
} from './errors';
export { Event, UserEvent, waitForEvents, type ExecutionStatus, type ProfilingInfo } from './event';
export { elementSize, resolveImageFormat, type ChannelOrder, type ChannelType, type ImageFormat, type ResolvedImageFormat } from './formats';
export { Kernel, LocalMemory, localMemory, packArg, type ArgType, type KernelArg, type ScalarType, type VectorType, type WorkGroupInfo, type KernelArgInfo } from './kernel';
export { LIBRARY_ENV, loadOpenCL, loadedLibrary, type LoadOptions, type LoadedLibrary } from './loader';
export { CLBuffer, CLImage, Mapping, MemObject, type Access } from './memory';
export { Platform, getPlatforms, requirePlatforms } from './platform';
export { Program, type BuildOptions } from './program';
export {
  CommandQueue,
  type BufferTransferOptions,
  type EnqueueOptions,
  type ImageRegionOptions,
  type ImageTransferOptions,
  type KernelRunOptions,
  type MapAccess,
  type QueueOptions,
  type TransferOptions,
} from './queue';
export { Resource } from './resource';
export { Sampler, type AddressingMode, type FilterMode, type SamplerOptions } from './sampler';
