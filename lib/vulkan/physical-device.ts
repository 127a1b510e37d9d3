// Physical devices as vkEnumeratePhysicalDevices lists them: what each can
// share (handle types, the extensions they need), described once per instance.
import type { NativeVkHandleTypeRow, NativeVkPhysicalDevice } from '../addon';
import { MEMORY_HANDLE_BITS, SEMAPHORE_HANDLE_BITS, type VulkanMemoryHandleType, type VulkanSemaphoreHandleType } from './handles';
import { vulkanVersionString } from './loader';

export type VulkanDeviceType = 'other' | 'integrated-gpu' | 'discrete-gpu' | 'virtual-gpu' | 'cpu';
const DEVICE_TYPES: readonly VulkanDeviceType[] = ['other', 'integrated-gpu', 'discrete-gpu', 'virtual-gpu', 'cpu'];

const QUEUE_COMPUTE = 0x2, QUEUE_TRANSFER = 0x4, QUEUE_GRAPHICS = 0x1;
const FEATURE_EXPORTABLE = 0x2, FEATURE_IMPORTABLE = 0x4, FEATURE_DEDICATED_ONLY = 0x1;
const SEMAPHORE_EXPORTABLE = 0x1, SEMAPHORE_IMPORTABLE = 0x2;

/** @internal The device extension each handle type needs. */
export const MEMORY_EXTENSIONS: Readonly<Record<VulkanMemoryHandleType, readonly string[]>> = {
  'opaque-fd': ['VK_KHR_external_memory_fd'],
  'dma-buf': ['VK_KHR_external_memory_fd', 'VK_EXT_external_memory_dma_buf'],
  'opaque-win32': ['VK_KHR_external_memory_win32'],
  'opaque-win32-kmt': ['VK_KHR_external_memory_win32'],
};
/** @internal */
export const SEMAPHORE_EXTENSIONS: Readonly<Record<VulkanSemaphoreHandleType, readonly string[]>> = {
  'opaque-fd': ['VK_KHR_external_semaphore_fd'],
  'sync-fd': ['VK_KHR_external_semaphore_fd'],
  'opaque-win32': ['VK_KHR_external_semaphore_win32'],
  'opaque-win32-kmt': ['VK_KHR_external_semaphore_win32'],
};

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

function support<T extends string>(
  rows: NativeVkHandleTypeRow[],
  bits: Readonly<Record<T, number>>,
  extensionsOf: Readonly<Record<T, readonly string[]>>,
  present: readonly string[],
  exportBit: number,
  importBit: number,
): VulkanHandleTypeSupport<T>[] {
  return (Object.keys(bits) as T[]).map((handleType) => {
    const row = rows.find((r) => r[0] === bits[handleType]);
    const features = row?.[1] ?? 0;
    const extensions = extensionsOf[handleType];
    return Object.freeze({
      handleType,
      exportable: (features & exportBit) !== 0,
      importable: (features & importBit) !== 0,
      dedicatedOnly: exportBit === FEATURE_EXPORTABLE && (features & FEATURE_DEDICATED_ONLY) !== 0,
      extensions,
      extensionsPresent: extensions.every((e) => present.includes(e)),
    });
  });
}

/** @internal */
export function describeDevice(native: NativeVkPhysicalDevice, index: number): VulkanPhysicalDevice {
  const memory = support(native.memoryHandleTypes, MEMORY_HANDLE_BITS, MEMORY_EXTENSIONS, native.extensions, FEATURE_EXPORTABLE, FEATURE_IMPORTABLE);
  const semaphores = support(
    native.semaphoreHandleTypes,
    SEMAPHORE_HANDLE_BITS,
    SEMAPHORE_EXTENSIONS,
    native.extensions,
    SEMAPHORE_EXPORTABLE,
    SEMAPHORE_IMPORTABLE,
  );
  const family = native.queueFamilies.findIndex((f) => (f.flags & QUEUE_COMPUTE) !== 0 && f.count > 0);
  const usable = <T>(s: VulkanHandleTypeSupport<T & string>, which: 'exportable' | 'importable') => s[which] && s.extensionsPresent;
  return Object.freeze({
    index,
    name: native.name,
    type: DEVICE_TYPES[native.type] ?? 'other',
    apiVersion: vulkanVersionString(native.apiVersion),
    driverVersion: native.driverVersion,
    vendorId: native.vendorId,
    deviceId: native.deviceId,
    deviceUUID: native.deviceUUID,
    driverUUID: native.driverUUID,
    deviceLUID: native.deviceLUID,
    nodeMask: native.nodeMask,
    driverName: native.driverName,
    driverInfo: native.driverInfo,
    extensions: Object.freeze(native.extensions),
    // Compute queues also transfer (the spec: a compute or graphics queue family supports transfer).
    queueFamily: family >= 0 && (native.queueFamilies[family]!.flags & (QUEUE_COMPUTE | QUEUE_GRAPHICS | QUEUE_TRANSFER)) !== 0 ? family : null,
    memoryHandleTypes: Object.freeze(memory),
    semaphoreHandleTypes: Object.freeze(semaphores),
    memoryExport: Object.freeze(memory.filter((s) => usable(s, 'exportable')).map((s) => s.handleType)),
    memoryImport: Object.freeze(memory.filter((s) => usable(s, 'importable')).map((s) => s.handleType)),
    semaphoreExport: Object.freeze(semaphores.filter((s) => usable(s, 'exportable')).map((s) => s.handleType)),
    semaphoreImport: Object.freeze(semaphores.filter((s) => usable(s, 'importable')).map((s) => s.handleType)),
    ycbcr: native.ycbcr,
  });
}
