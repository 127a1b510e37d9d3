// Vulkan instances and physical devices: what each device can share, and a
// device chosen to match an OpenCL device by UUID (cl_khr_device_uuid's
// CL_DEVICE_UUID_KHR bytes) or by index.
import type { NativeVkHandleTypeRow, NativeVkInstance, NativeVkPhysicalDevice } from './native-types';
import { describeValue } from '../errors';
import { NativeHolder } from '../holder';
import { formatUuid as uuidString } from '../uuid';
import { checkChoice, checkInt, checkOptions } from '../validate';
import { VulkanDevice } from './device';
import { VulkanDisposedError, VulkanNotSupportedError, VulkanUnavailableError } from './errors';
import { MEMORY_HANDLE_BITS, SEMAPHORE_HANDLE_BITS, type VulkanMemoryHandleType, type VulkanSemaphoreHandleType } from './handles';
import { loadVulkan, vulkan, vulkanVersionString } from './loader';
import type { VulkanDeviceType, VulkanHandleTypeSupport, VulkanPhysicalDevice } from './physical-device';

export type { VulkanDeviceType, VulkanHandleTypeSupport, VulkanPhysicalDevice } from './physical-device';

const DEVICE_TYPES: readonly VulkanDeviceType[] = ['other', 'integrated-gpu', 'discrete-gpu', 'virtual-gpu', 'cpu'];

const QUEUE_COMPUTE = 0x2,
  QUEUE_TRANSFER = 0x4,
  QUEUE_GRAPHICS = 0x1;
const FEATURE_EXPORTABLE = 0x2,
  FEATURE_IMPORTABLE = 0x4,
  FEATURE_DEDICATED_ONLY = 0x1;
const SEMAPHORE_EXPORTABLE = 0x1,
  SEMAPHORE_IMPORTABLE = 0x2;

/** The device extension each handle type needs. */
const MEMORY_EXTENSIONS: Readonly<Record<VulkanMemoryHandleType, readonly string[]>> = {
  'opaque-fd': ['VK_KHR_external_memory_fd'],
  'dma-buf': ['VK_KHR_external_memory_fd', 'VK_EXT_external_memory_dma_buf'],
  'opaque-win32': ['VK_KHR_external_memory_win32'],
  'opaque-win32-kmt': ['VK_KHR_external_memory_win32'],
};
const SEMAPHORE_EXTENSIONS: Readonly<Record<VulkanSemaphoreHandleType, readonly string[]>> = {
  'opaque-fd': ['VK_KHR_external_semaphore_fd'],
  'sync-fd': ['VK_KHR_external_semaphore_fd'],
  'opaque-win32': ['VK_KHR_external_semaphore_win32'],
  'opaque-win32-kmt': ['VK_KHR_external_semaphore_win32'],
};

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

function describeDevice(native: NativeVkPhysicalDevice, index: number): VulkanPhysicalDevice {
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
    pciBus: native.pciBus && Object.freeze({ ...native.pciBus }),
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

export interface VulkanInstanceOptions {
  /** The application name given to the driver (default 'opencl-interop'). */
  applicationName?: string;
  /** The Vulkan version asked for: '1.1' (default; what external memory needs), '1.2' or '1.3'. */
  apiVersion?: '1.1' | '1.2' | '1.3';
}

export interface VulkanDeviceOptions {
  /** Match this deviceUUID: pass an OpenCL device's CL_DEVICE_UUID_KHR (cl_khr_device_uuid) bytes. */
  uuid?: Uint8Array;
  /** Or the index in physicalDevices(). Default: the first device with a compute queue. */
  index?: number;
}

/** A Vulkan instance (Vulkan 1.1 or later). dispose() lets go; its devices keep it alive natively until they are gone. */
export class VulkanInstance extends NativeHolder<NativeVkInstance> {
  /** The Vulkan version the instance was made for, e.g. '1.1.0'. */
  readonly apiVersion: string;
  #devices?: readonly VulkanPhysicalDevice[];

  /** @internal */
  constructor(native: NativeVkInstance, apiVersion: string) {
    super(native);
    this.apiVersion = apiVersion;
  }

  /** @internal */
  protected disposedError(): Error {
    return new VulkanDisposedError('VulkanInstance');
  }

  /** The physical devices, with what each can share. */
  physicalDevices(): readonly VulkanPhysicalDevice[] {
    const native = this.native;
    return (this.#devices ??= Object.freeze(native.physicalDevices().map(describeDevice)));
  }

  /**
   * A logical device with one queue (compute + transfer) and the extensions
   * its sharing needs, chosen by `uuid` (an OpenCL device's
   * cl_khr_device_uuid bytes), by `index`, or the first with a compute queue.
   */
  createDevice(options?: VulkanDeviceOptions): VulkanDevice {
    const o = checkOptions<VulkanDeviceOptions>(options, 'options', ['uuid', 'index']);
    const devices = this.physicalDevices();
    let chosen: VulkanPhysicalDevice | undefined;
    if (o.uuid !== undefined && o.index !== undefined) throw new TypeError('options.uuid and options.index do not go together: give one');
    if (o.uuid !== undefined) {
      if (!(o.uuid instanceof Uint8Array) || o.uuid.length !== 16) {
        throw new TypeError(`options.uuid must be a Uint8Array of 16 bytes (CL_DEVICE_UUID_KHR); got ${describeValue(o.uuid)}`);
      }
      const uuid = o.uuid;
      chosen = devices.find((d) => d.deviceUUID.every((b, i) => b === uuid[i]));
      if (!chosen) {
        const listed = devices.map((d) => `${d.name} (${uuidString(d.deviceUUID)})`).join(', ') || 'none';
        throw new VulkanNotSupportedError(
          `a device with UUID ${uuidString(uuid)}`,
          'This Vulkan instance',
          `no physical device has that deviceUUID; the devices are: ${listed}`,
        );
      }
    } else if (o.index !== undefined) {
      const index = checkInt(o.index, 'options.index', 0, Math.max(0, devices.length - 1));
      chosen = devices[index];
      if (!chosen) throw new RangeError(`options.index ${index}: this instance has no physical devices`);
    } else {
      chosen = devices.find((d) => d.queueFamily !== null);
      if (!chosen)
        throw new VulkanNotSupportedError(
          'a device with a compute queue',
          'This Vulkan instance',
          `it lists ${devices.length} physical device(s), none with one`,
        );
    }
    if (chosen.queueFamily === null)
      throw new VulkanNotSupportedError('a compute + transfer queue', chosen.name, 'the device has no compute queue family');
    const wanted = new Set<string>();
    for (const t of chosen.memoryExport) for (const e of MEMORY_EXTENSIONS[t]) wanted.add(e);
    for (const t of chosen.semaphoreExport) for (const e of SEMAPHORE_EXTENSIONS[t]) wanted.add(e);
    if (chosen.extensions.includes('VK_KHR_external_memory_fd') && chosen.memoryHandleTypes.some((s) => s.importable))
      wanted.add('VK_KHR_external_memory_fd');
    const extensions = [...wanted].filter((e) => chosen!.extensions.includes(e));
    const memoryBits = chosen.memoryExport.reduce((m, t) => m | MEMORY_HANDLE_BITS[t], 0);
    const semaphoreBits = chosen.semaphoreExport.reduce((m, t) => m | SEMAPHORE_HANDLE_BITS[t], 0);
    const native = this.native.createDevice(chosen.index, chosen.queueFamily, extensions, chosen.ycbcr, memoryBits, semaphoreBits);
    return new VulkanDevice(native, chosen, extensions);
  }
}

/**
 * Creates a Vulkan instance (loading the loader first if needed): throws
 * VulkanUnavailableError without a loader, or with one older than Vulkan 1.1.
 */
export function createVulkanInstance(options?: VulkanInstanceOptions): VulkanInstance {
  const o = checkOptions<VulkanInstanceOptions>(options, 'options', ['applicationName', 'apiVersion']);
  const version = checkChoice(o.apiVersion, 'options.apiVersion', ['1.1', '1.2', '1.3'] as const, '1.1');
  if (o.applicationName !== undefined && typeof o.applicationName !== 'string') {
    throw new TypeError(`options.applicationName must be a string; got ${describeValue(o.applicationName)}`);
  }
  const native = vulkan();
  const loaded = loadVulkan();
  const minor = Number(version.split('.')[1]);
  const apiVersion = (1 << 22) | (minor << 12);
  if (loaded.apiVersion < apiVersion) {
    throw new VulkanUnavailableError(
      [],
      `The Vulkan loader ${loaded.path} supports Vulkan ${loaded.version}; external memory needs ${version} or later.`,
    );
  }
  return new VulkanInstance(native.vkCreateInstance(apiVersion, [], o.applicationName ?? 'opencl-interop'), `${version}.0`);
}
