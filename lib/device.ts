// Devices (cl_device_id): their info as typed getters (versions, limits,
// extensions, the UUIDs and PCI bus where the driver reports them).
import type { NativeDevice } from './addon';
import { CL } from './facts/cl-constants';
import { OpenCLError } from './errors';
import { decode, parseVersion } from './info';
import type { PlatformLink } from './links';
import { formatUuid } from './uuid';

export type DeviceType = 'default' | 'cpu' | 'gpu' | 'accelerator' | 'custom' | 'all';

const deviceTypeBits: Record<DeviceType, number> = {
  default: CL.CL_DEVICE_TYPE_DEFAULT,
  cpu: CL.CL_DEVICE_TYPE_CPU,
  gpu: CL.CL_DEVICE_TYPE_GPU,
  accelerator: CL.CL_DEVICE_TYPE_ACCELERATOR,
  custom: CL.CL_DEVICE_TYPE_CUSTOM,
  all: CL.CL_DEVICE_TYPE_ALL,
};

/** @internal */
export function deviceTypeMask(type: DeviceType | bigint): bigint {
  if (typeof type === 'bigint') return type;
  const bits = deviceTypeBits[type];
  if (bits === undefined) {
    throw new TypeError(`device type must be one of ${Object.keys(deviceTypeBits).join(', ')}; got ${String(type)}`);
  }
  return BigInt(bits);
}

// cl_khr_device_uuid (values from the OpenCL headers, CL/cl_ext.h).
const DEVICE_UUID = Object.freeze({
  CL_UUID_SIZE_KHR: 16,
  CL_LUID_SIZE_KHR: 8,
  CL_DEVICE_UUID_KHR: 0x106a,
  CL_DRIVER_UUID_KHR: 0x106b,
  CL_DEVICE_LUID_VALID_KHR: 0x106c,
  CL_DEVICE_LUID_KHR: 0x106d,
  CL_DEVICE_NODE_MASK_KHR: 0x106e,
});

// cl_khr_pci_bus_info (CL/cl_ext.h): a cl_device_pci_bus_info_khr, four cl_uint.
const CL_DEVICE_PCI_BUS_INFO_KHR = 0x410f;

/** A device's PCI address: cl_khr_pci_bus_info's cl_device_pci_bus_info_khr, Vulkan's VK_EXT_pci_bus_info. */
export interface PciBusInfo {
  readonly domain: number;
  readonly bus: number;
  readonly device: number;
  readonly function: number;
}

/** 'dddd:bb:dd.f', as lspci and /sys/bus/pci write it. */
export function formatPciBus(pci: PciBusInfo): string {
  const hex = (value: number, digits: number) => value.toString(16).padStart(digits, '0');
  return `${hex(pci.domain, 4)}:${hex(pci.bus, 2)}:${hex(pci.device, 2)}.${hex(pci.function, 1)}`;
}

/** An OpenCL device. Root devices live as long as their platform. */
export class Device {
  /** @internal */
  readonly native: NativeDevice;
  readonly platform: PlatformLink;

  /** @internal */
  constructor(native: NativeDevice, platform: PlatformLink) {
    this.native = native;
    this.platform = platform;
  }

  /** The raw cl_device_id as a bigint. */
  get address(): bigint {
    return this.native.address;
  }
  /** Raw clGetDeviceInfo bytes for any parameter. */
  info(param: number): Uint8Array {
    return this.native.info(param);
  }

  #string(param: number): string {
    return decode.string(this.native.info(param));
  }
  #uint(param: number): number {
    return decode.uint(this.native.info(param));
  }
  #ulong(param: number): bigint {
    return decode.ulong(this.native.info(param));
  }
  #size(param: number): number {
    return decode.size(this.native.info(param));
  }
  #bool(param: number): boolean {
    return decode.bool(this.native.info(param));
  }

  get name(): string {
    return this.#string(CL.CL_DEVICE_NAME);
  }
  get vendor(): string {
    return this.#string(CL.CL_DEVICE_VENDOR);
  }
  get version(): string {
    return this.#string(CL.CL_DEVICE_VERSION);
  }
  get versionNumber(): { major: number; minor: number } {
    return parseVersion(this.version);
  }
  get driverVersion(): string {
    return this.#string(CL.CL_DRIVER_VERSION);
  }
  get openclCVersion(): string {
    return this.#string(CL.CL_DEVICE_OPENCL_C_VERSION);
  }
  get profile(): string {
    return this.#string(CL.CL_DEVICE_PROFILE);
  }
  get extensions(): string[] {
    return decode.words(this.#string(CL.CL_DEVICE_EXTENSIONS));
  }
  /** Built-in kernel names (clCreateProgramWithBuiltInKernels). */
  get builtInKernels(): string[] {
    return decode.words(this.#string(CL.CL_DEVICE_BUILT_IN_KERNELS));
  }
  /** The type bitfield (CL_DEVICE_TYPE_*). */
  get typeMask(): bigint {
    return this.#ulong(CL.CL_DEVICE_TYPE);
  }
  /** The device's main type: 'gpu', 'cpu', 'accelerator', 'custom' or 'default'. */
  get type(): Exclude<DeviceType, 'all'> {
    const mask = this.typeMask;
    for (const type of ['gpu', 'cpu', 'accelerator', 'custom'] as const) {
      if (mask & BigInt(deviceTypeBits[type])) return type;
    }
    return 'default';
  }
  get vendorId(): number {
    return this.#uint(CL.CL_DEVICE_VENDOR_ID);
  }
  get maxComputeUnits(): number {
    return this.#uint(CL.CL_DEVICE_MAX_COMPUTE_UNITS);
  }
  get maxClockFrequency(): number {
    return this.#uint(CL.CL_DEVICE_MAX_CLOCK_FREQUENCY);
  }
  get maxWorkGroupSize(): number {
    return this.#size(CL.CL_DEVICE_MAX_WORK_GROUP_SIZE);
  }
  get maxWorkItemSizes(): number[] {
    return decode.sizes(this.native.info(CL.CL_DEVICE_MAX_WORK_ITEM_SIZES));
  }
  get globalMemSize(): bigint {
    return this.#ulong(CL.CL_DEVICE_GLOBAL_MEM_SIZE);
  }
  /** 32 or 64: the width of size_t and pointers on the device. */
  get addressBits(): number {
    return this.#uint(CL.CL_DEVICE_ADDRESS_BITS);
  }
  get localMemSize(): bigint {
    return this.#ulong(CL.CL_DEVICE_LOCAL_MEM_SIZE);
  }
  get maxMemAllocSize(): bigint {
    return this.#ulong(CL.CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  }
  get maxConstantBufferSize(): bigint {
    return this.#ulong(CL.CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE);
  }
  /** CL_DEVICE_MEM_BASE_ADDR_ALIGN in bits: sub-buffer origins must be multiples of it / 8. */
  get memBaseAddrAlign(): number {
    return this.#uint(CL.CL_DEVICE_MEM_BASE_ADDR_ALIGN);
  }
  get imageSupport(): boolean {
    return this.#bool(CL.CL_DEVICE_IMAGE_SUPPORT);
  }
  /** Image size limits (0 when images are unsupported). */
  get imageLimits(): { width2d: number; height2d: number; width3d: number; height3d: number; depth3d: number } {
    return {
      width2d: this.#size(CL.CL_DEVICE_IMAGE2D_MAX_WIDTH),
      height2d: this.#size(CL.CL_DEVICE_IMAGE2D_MAX_HEIGHT),
      width3d: this.#size(CL.CL_DEVICE_IMAGE3D_MAX_WIDTH),
      height3d: this.#size(CL.CL_DEVICE_IMAGE3D_MAX_HEIGHT),
      depth3d: this.#size(CL.CL_DEVICE_IMAGE3D_MAX_DEPTH),
    };
  }
  get available(): boolean {
    return this.#bool(CL.CL_DEVICE_AVAILABLE);
  }
  get compilerAvailable(): boolean {
    return this.#bool(CL.CL_DEVICE_COMPILER_AVAILABLE);
  }
  get littleEndian(): boolean {
    return this.#bool(CL.CL_DEVICE_ENDIAN_LITTLE);
  }
  get hostUnifiedMemory(): boolean {
    return this.#bool(CL.CL_DEVICE_HOST_UNIFIED_MEMORY);
  }
  /** Profiling timer resolution in nanoseconds. */
  get profilingTimerResolution(): number {
    return this.#size(CL.CL_DEVICE_PROFILING_TIMER_RESOLUTION);
  }
  /** Queue properties the device supports on the host (CL_QUEUE_* bits). */
  get queueProperties(): { outOfOrder: boolean; profiling: boolean } {
    const bits = this.#ulong(CL.CL_DEVICE_QUEUE_PROPERTIES);
    return {
      outOfOrder: (bits & BigInt(CL.CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) !== 0n,
      profiling: (bits & BigInt(CL.CL_QUEUE_PROFILING_ENABLE)) !== 0n,
    };
  }
  /**
   * CL_DEVICE_PREFERRED_INTEROP_USER_SYNC: true when the device prefers the
   * application to synchronize shared objects itself (OpenCL 1.2+).
   */
  get preferredInteropUserSync(): boolean {
    return this.#bool(CL.CL_DEVICE_PREFERRED_INTEROP_USER_SYNC);
  }

  /** cl_khr_device_uuid: the bytes of a query, or null when the device does not answer it (CL_INVALID_VALUE: no such query). */
  #optionalInfo(param: number, size: number): Uint8Array | null {
    let bytes: Uint8Array;
    try {
      bytes = this.native.info(param);
    } catch (error) {
      if (error instanceof OpenCLError) return null;
      throw error;
    }
    return bytes.byteLength === size ? bytes : null;
  }

  /**
   * The device's UUID (cl_khr_device_uuid, CL_DEVICE_UUID_KHR) as 8-4-4-4-12
   * lowercase hex (formatUuid): the same bytes as Vulkan's
   * VkPhysicalDeviceIDProperties.deviceUUID for the same GPU, so it finds the
   * Vulkan device to share memory with. null when the device does not report one.
   */
  get uuid(): string | null {
    const bytes = this.#optionalInfo(DEVICE_UUID.CL_DEVICE_UUID_KHR, DEVICE_UUID.CL_UUID_SIZE_KHR);
    return bytes && formatUuid(bytes);
  }
  /** Its PCI address (cl_khr_pci_bus_info, CL_DEVICE_PCI_BUS_INFO_KHR), or null where the device does not advertise the extension. */
  get pciBus(): PciBusInfo | null {
    if (!this.extensions.includes('cl_khr_pci_bus_info')) return null;
    const bytes = this.#optionalInfo(CL_DEVICE_PCI_BUS_INFO_KHR, 16);
    if (!bytes) return null;
    const [domain, bus, device, fn] = decode.uints(bytes) as [number, number, number, number];
    return Object.freeze({ domain, bus, device, function: fn });
  }
  /** The UUID's 16 bytes (what a Vulkan device chooser takes), or null. */
  get uuidBytes(): Uint8Array | null {
    return this.#optionalInfo(DEVICE_UUID.CL_DEVICE_UUID_KHR, DEVICE_UUID.CL_UUID_SIZE_KHR);
  }
  /** The driver's UUID (CL_DRIVER_UUID_KHR; Vulkan's driverUUID), or null. */
  get driverUuid(): string | null {
    const bytes = this.#optionalInfo(DEVICE_UUID.CL_DRIVER_UUID_KHR, DEVICE_UUID.CL_UUID_SIZE_KHR);
    return bytes && formatUuid(bytes);
  }
  /**
   * The device's LUID (CL_DEVICE_LUID_KHR) as 16 hex digits, byte order as
   * the driver gives it (on Windows: the DXGI adapter's LUID); null unless
   * CL_DEVICE_LUID_VALID_KHR says it is valid.
   */
  get luid(): string | null {
    const valid = this.#optionalInfo(DEVICE_UUID.CL_DEVICE_LUID_VALID_KHR, 4);
    if (!valid || !decode.bool(valid)) return null;
    const bytes = this.#optionalInfo(DEVICE_UUID.CL_DEVICE_LUID_KHR, DEVICE_UUID.CL_LUID_SIZE_KHR);
    return bytes && Buffer.from(bytes).toString('hex');
  }
  /** The node mask (CL_DEVICE_NODE_MASK_KHR; Direct3D 12 node of the device), or null unless the LUID is valid. */
  get nodeMask(): number | null {
    if (this.luid === null) return null;
    const bytes = this.#optionalInfo(DEVICE_UUID.CL_DEVICE_NODE_MASK_KHR, 4);
    return bytes && decode.uint(bytes);
  }

  toString(): string {
    return `${this.name} (${this.type}, ${this.version})`;
  }
}
