// opencl-interop: OpenCL for Node.js with its sharing extensions (Direct3D
// 9/10/11, DX9 media, VA-API), external memory and semaphores, and the
// producers beside them (VA-API, Direct3D, Vulkan). The public API: what
// each layer exports, put together. See README.md and docs/ARCHITECTURE.md.
export { CL, type CLName } from './facts/cl-constants';
export {
  Context,
  createContext,
  type ContextInterop,
  type ContextOptions,
  type ContextProperty,
  type BufferOptions,
  type ImageOptions,
  type ImageType,
} from './context';
export { Device, formatPciBus, type DeviceType, type PciBusInfo } from './device';
export {
  OpenCLError,
  OpenCLCommandError,
  OpenCLBuildError,
  OpenCLNotAvailableError,
  OpenCLRegistryError,
  OpenCLNoPlatformError,
  OpenCLEntryPointError,
  OpenCLReleasedError,
  OpenCLStateError,
  OpenCLExtensionError,
  errorName,
  type D3D9Family,
} from './errors';
export {
  Event,
  UserEvent,
  completionMechanisms,
  waitForEvents,
  type CompletionMechanism,
  type ExecutionStatus,
  type ProfilingInfo,
  type UserEventState,
} from './event';
export { HostMemory, allocateHostMemory, type HostData } from './host-memory';
export {
  elementSize,
  resolveImageFormat,
  type ChannelOrder,
  type ChannelType,
  type ImageFormat,
  type ResolvedImageFormat,
} from './facts/cl-image-formats';
export {
  Kernel,
  LocalMemory,
  localMemory,
  packArg,
  type ArgType,
  type KernelArg,
  type ScalarType,
  type VectorType,
  type WorkGroupInfo,
  type KernelArgInfo,
  type AddressQualifier,
  type AccessQualifier,
  type TypeQualifier,
} from './kernel';
export { LIBRARY_ENV, loadOpenCL, loadedLibrary, type LoadOptions, type LoadedLibrary } from './loader';
export { CLBuffer, CLImage, MemObject, type Access } from './memory';
export { Mapping } from './mapping';
export { Platform, getPlatforms, requirePlatforms } from './platform';
export { Program, type BuildOptions } from './program';
export { AcquireScope } from './acquire-scope';
export {
  CommandQueue,
  type BufferTransferOptions,
  type EnqueueOptions,
  type ImageRegionOptions,
  type ImageTransferOptions,
  type KernelRunOptions,
  type MapAccess,
  type QueueOptions,
  type QueueProperties,
  type TransferOptions,
} from './queue';
export { Resource } from './resource';
export { formatUuid } from './uuid';
export { Sampler, type AddressingMode, type FilterMode, type SamplerOptions } from './sampler';

// The sharing extensions.
export { getSharing, sharingOf, type SharingFacades } from './interop';
export { sharingExtensions, sharingExtensionNames, sharingRecords, type ExtensionRecord, type SharingExtension } from './interop/extensions';
export {
  SharingFacade,
  type ComObjectRef,
  type CreateSharedOptions,
  type DeviceSet,
  type NativeAddress,
  type SharedContextOptions,
} from './interop/sharing';
export { NvD3D9Sharing, type CubeFace, type D3D9DeviceSource, type NvD3D9ObjectInfo } from './interop/nv-d3d9';
export { D3D10Sharing, type D3D10DeviceSource, type D3D10ObjectInfo } from './interop/d3d10';
export {
  D3D11Sharing,
  KhrD3D11Sharing,
  NvD3D11Sharing,
  NV12_EXTENSION,
  type D3D11DeviceSource,
  type D3D11ObjectInfo,
  type NV12TextureOptions,
} from './interop/d3d11';
export { IntelDX9Sharing, type IntelDX9ImageInfo, type IntelDX9Source, type IntelDX9SurfaceOptions } from './interop/intel-dx9';
export {
  KhrDX9MediaSharing,
  type KhrDX9ImageInfo,
  type KhrDX9SurfaceOptions,
  type MediaAdapter,
  type MediaAdapterType,
} from './interop/khr-dx9-media';
export { VaApiSharing, type VaApiImageInfo } from './interop/va-api';
// The Khronos external memory and semaphore family (cl_khr_external_memory, cl_khr_semaphore, cl_khr_external_semaphore).
export {
  externalExtensions,
  externalRecords,
  type ExternalExtension,
  type ExternalHandleTypeRecord,
  type HandleOwnership,
} from './interop/extensions';
export {
  ExternalMemory,
  externalMemoryHandleTypes,
  getExternalMemory,
  importDmaBuf,
  type DmaBufImportOptions,
  type ExternalBufferOptions,
  type ExternalImageOptions,
  type ExternalImportOptions,
  type ExternalMemoryDetails,
  type ExternalMemoryHandle,
  type ExternalMemoryHandleType,
  type PlanesOptions,
} from './interop/external-memory';
export { OpenCLHandleTypeError, OpenCLImageLayoutError, OpenCLImportError } from './interop/external-errors';
export {
  ImportedFrame,
  type DmaBufPlanes,
  type ElectronTextureInfo,
  type ExternalPlane,
  type NativePixmap,
  type PlaneFormat,
} from './interop/external-frames';
export type { ExporterTiling } from './interop/external-handles';
export {
  ExportedSemaphoreHandle,
  Semaphore,
  Semaphores,
  getSemaphores,
  type CreateSemaphoreOptions,
  type ExternalSemaphoreHandle,
  type ImportSemaphoreOptions,
  type SemaphoreEnqueueOptions,
  type SemaphoreHandleType,
  type SemaphoreOptions,
  type SemaphoreType,
} from './interop/semaphore';
export * from './facts/sharing-tokens';
export * from './facts/sharing-formats';
export * from './interop/shared-image';

// VA-API: displays, surfaces, DMA-BUF (libva loaded at run time).
export * from './va';
// Direct3D objects from Node (Windows; elsewhere each call throws Direct3DUnavailableError).
export * from './direct3d';
// Vulkan: the producer and consumer side of external memory and semaphores (the loader loaded at run time).
export * from './vulkan';
// Exported handles between processes (SCM_RIGHTS over a Unix socket).
export * from './ipc';
// The frame pipeline: N frames in flight through OpenCL between any producer and consumer (Vulkan, VA, Direct3D, host).
export * from './pipeline';
// Video: the H.264 bitstream room and the decoder on the GPU's video decode queue, frames into OpenCL (Vulkan Video).
export * from './video';
