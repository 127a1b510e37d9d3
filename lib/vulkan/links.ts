// A Vulkan object's link to the device it belongs to: the VulkanDevice
// (device.ts completes it), so that buffers, images, semaphores and command
// sequences name their device without importing the module that creates them
// (as lib/links.ts does for the core).

/** The device of a buffer, image, semaphore or command sequence: the VulkanDevice. */
// biome-ignore lint/suspicious/noEmptyInterface: completed by declaration merging in the module that owns it
export interface VulkanDeviceLink {}
