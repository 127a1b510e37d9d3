// What a physical device is, as vkEnumeratePhysicalDevices lists it and
// instance.ts describes it: types only, which the device (device.ts) names
// without importing the instance that creates it.
import type { VulkanMemoryHandleType, VulkanSemaphoreHandleType } from './handles';
import type { PciBusInfo } from '../device';

export type VulkanDeviceType = 'other' | 'integrated-gpu' | 'discrete-gpu' | 'virtual-gpu' | 'cpu';

/** What a physical device can do with one handle type (buffers with transfer + storage usage; binary semaphores). */
export interface VulkanHandleTypeSupport<T extends string> {
  readonly handleType: T;
  readonly exportable: boolean;
  readonly importable: boolean;
  /** Memory: the allocation must be dedicated to one buffer or image. */
  readonly dedicatedOnly: boolean;
  /** The device extensions the handle type needs, and whether the device has them. */
  readonly extensions: readonly string[];
  readonly extensionsPresent: boolean;
}

/** One physical device as vkEnumeratePhysicalDevices lists it. */
export interface VulkanPhysicalDevice {
  readonly index: number;
  readonly name: string;
  readonly type: VulkanDeviceType;
  /** The Vulkan version the device supports, e.g. '1.3.230'. */
  readonly apiVersion: string;
  readonly driverVersion: number;
  readonly vendorId: number;
  readonly deviceId: number;
  /** VkPhysicalDeviceIDProperties: what OpenCL's cl_khr_device_uuid reports for the same device. */
  readonly deviceUUID: Uint8Array;
  readonly driverUUID: Uint8Array;
  /** The LUID (Windows), or null when the driver says it is not valid. */
  readonly deviceLUID: Uint8Array | null;
  readonly nodeMask: number;
  /** Its PCI address (VK_EXT_pci_bus_info), or null where the device lacks the extension. */
  readonly pciBus: PciBusInfo | null;
  /** VK_KHR_driver_properties, where the device has it. */
  readonly driverName: string | null;
  readonly driverInfo: string | null;
  readonly extensions: readonly string[];
  /** The first queue family with compute and transfer (the one a device gets), or null. */
  readonly queueFamily: number | null;
  readonly memoryHandleTypes: readonly VulkanHandleTypeSupport<VulkanMemoryHandleType>[];
  readonly semaphoreHandleTypes: readonly VulkanHandleTypeSupport<VulkanSemaphoreHandleType>[];
  /** Memory handle types buffers can be exported as (supported and the extensions present). */
  readonly memoryExport: readonly VulkanMemoryHandleType[];
  readonly memoryImport: readonly VulkanMemoryHandleType[];
  readonly semaphoreExport: readonly VulkanSemaphoreHandleType[];
  readonly semaphoreImport: readonly VulkanSemaphoreHandleType[];
  /** samplerYcbcrConversion: multi-planar (NV12) images are possible. */
  readonly ycbcr: boolean;
}
