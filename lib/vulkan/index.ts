// The Vulkan module: the producer and consumer side of external memory and
// semaphore sharing (not a general Vulkan binding). The loader is loaded at
// run time; it needs no OpenCL (lib/interop imports what it exports).
export {
  VulkanCommands,
  VulkanRecorder,
  type NV12FrameOptions,
  type VulkanCopyOptions,
  type VulkanFillOptions,
  type VulkanImageCopyOptions,
  type VulkanRecordOptions,
  type VulkanWaitStage,
} from './commands';
export {
  VulkanDevice,
  VulkanQueue,
  VulkanSubmission,
  type VulkanBufferOptions,
  type VulkanImageOptions,
  type VulkanSemaphoreOptions,
  type VulkanSubmitOptions,
} from './device';
export {
  VULKAN_PACKAGES,
  VulkanDisposedError,
  VulkanError,
  VulkanNotSupportedError,
  VulkanStateError,
  VulkanUnavailableError,
  vkResultName,
} from './errors';
export { nv12TestFrame, type NV12TestFrame } from './frames';
export { VulkanExportedHandle, type VulkanMemoryHandleType, type VulkanSemaphoreHandleType } from './handles';
export { VulkanInstance, createVulkanInstance, type VulkanDeviceOptions, type VulkanInstanceOptions } from './instance';
export type { VulkanDeviceType, VulkanHandleTypeSupport, VulkanPhysicalDevice } from './physical-device';
// The core's formatUuid under the name this module first gave it.
export { formatUuid as uuidString } from '../uuid';
export { VULKAN_LOADER_ENV, loadVulkan, loadedVulkan, vulkanVersionString, type LoadedVulkan, type VulkanLoadOptions } from './loader';
export { VulkanBuffer, VulkanImage, type VulkanImageFormat, type VulkanImagePlane, type VulkanPlaneOptions } from './memory';
export { VulkanSemaphore } from './semaphore';
