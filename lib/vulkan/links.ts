// The link from a buffer, image, semaphore, recorder or command sequence to
// the VulkanDevice that made it, as those modules (below the device's) see it.
// device.ts completes it (`interface VulkanDeviceLink extends VulkanDevice {}`),
// so `buffer.device` has VulkanDevice's full type while no module imports the
// one above it: the device imports its children, never the other way round.
import type { VulkanMemoryHandleType, VulkanSemaphoreHandleType } from './handles';

/** The VulkanDevice an object belongs to (device.ts completes it); what the objects themselves read of it. */
export interface VulkanDeviceLink {
  readonly name: string;
  /** Memory handle types its buffers and images can be exported as. */
  readonly memoryHandleTypes: readonly VulkanMemoryHandleType[];
  readonly semaphoreHandleTypes: readonly VulkanSemaphoreHandleType[];
}
