// Which GPU a Direct3D device is made on: the default adapter, one by LUID or
// by index, or the adapter of an OpenCL device: the LUID the device reports
// (cl_khr_device_uuid's CL_DEVICE_LUID_KHR, where CL_DEVICE_LUID_VALID_KHR),
// else the adapter that the device's D3D11 / D3D10 sharing extension lists it
// for (clGetDeviceIDsFromD3D11KHR with CL_D3D11_DXGI_ADAPTER_KHR).
import type { NativeAdapterDesc } from './native-types';
import type { Device } from '../device';
import { describeValue } from '../errors';
import type { Platform } from '../platform';
import { checkInt } from '../validate';
import { DxgiAdapter, direct3dNative, requireWindows } from './object';

/** A DXGI adapter (IDXGIFactory1::EnumAdapters1, IDXGIAdapter::GetDesc). */
export interface AdapterInfo {
  /** Its index in listAdapters() (-1 when it came from a device). */
  readonly index: number;
  readonly description: string;
  readonly vendorId: number;
  readonly deviceId: number;
  readonly subSysId: number;
  readonly revision: number;
  readonly dedicatedVideoMemory: bigint;
  readonly dedicatedSystemMemory: bigint;
  readonly sharedSystemMemory: bigint;
  /** The adapter's LUID as one number: HighPart << 32 | LowPart (what CL_DEVICE_LUID_KHR's 8 bytes read as, little-endian). */
  readonly luid: bigint;
  /** DXGI_ADAPTER_FLAG_SOFTWARE (WARP, the Basic Render Driver). */
  readonly software: boolean;
}

/** Where to make a device. At most one of the three; none: the default adapter. */
export interface AdapterChoice {
  /** The adapter an OpenCL device runs on (its LUID, else its platform's D3D11/D3D10 sharing extension tells). */
  openclDevice?: Device;
  /** An adapter by LUID (AdapterInfo.luid). */
  adapterLuid?: bigint;
  /** An adapter by its index in listAdapters(). */
  adapterIndex?: number;
}

/** The adapters DXGI enumerates, in its order (the first is the default). */
export function listAdapters(): AdapterInfo[] {
  return direct3dNative('listAdapters')
    .adapters()
    .map((a) => Object.freeze({ ...a }));
}

const CL_DEVICE_LUID_VALID_KHR = 0x106c;
const CL_DEVICE_LUID_KHR = 0x106d;

/** The LUID an OpenCL device reports (cl_khr_device_uuid), or undefined. */
export function openclDeviceLuid(device: Device): bigint | undefined {
  requireWindows('openclDeviceLuid');
  if (typeof device !== 'object' || device === null || !('extensions' in device) || typeof device.info !== 'function') {
    throw new TypeError(`device must be an OpenCL Device; got ${describeValue(device)}`);
  }
  if (!device.extensions.includes('cl_khr_device_uuid')) return undefined;
  const valid = device.info(CL_DEVICE_LUID_VALID_KHR);
  if (!valid.some((b) => b !== 0)) return undefined;
  const bytes = device.info(CL_DEVICE_LUID_KHR);
  if (bytes.byteLength < 8) return undefined;
  return new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, true);
}

const hex = (value: bigint): string => `0x${value.toString(16)}`;
const listed = (adapters: readonly { description: string; luid: bigint }[]): string =>
  adapters.map((a, i) => `${i}: ${a.description} (LUID ${hex(a.luid)})`).join('; ') || 'none';

/** The adapter whose DXGI adapter the device's sharing extension lists the device for, by index. */
function adapterBySharing(device: Device, adapters: readonly NativeAdapterDesc[]): number | undefined {
  const platform = device.platform as Platform;
  const native = direct3dNative('listAdapters');
  for (const extension of ['cl_khr_d3d11_sharing', 'cl_nv_d3d11_sharing', 'cl_khr_d3d10_sharing'] as const) {
    if (!platform.supports(extension)) continue;
    const facade = platform.getSharing(extension);
    for (const adapter of adapters) {
      // An IDXGIAdapter of the enumeration, asked about, then let go.
      const object = new DxgiAdapter(native.adapterObject(adapter.index));
      try {
        if (facade.getDevices({ dxgiAdapter: object.comPointer }, 'all').some((d) => d.address === device.address)) return adapter.index;
      } finally {
        object.dispose();
      }
    }
  }
  return undefined;
}

/**
 * @internal The DXGI adapter index a choice names (null: the default adapter).
 * `call` is the public function, for messages.
 */
export function chooseAdapter(choice: AdapterChoice, call: string): { index: number | null; luid?: bigint } {
  const given = (['openclDevice', 'adapterLuid', 'adapterIndex'] as const).filter((key) => choice[key] !== undefined);
  if (given.length > 1) throw new TypeError(`${call}: give at most one of openclDevice, adapterLuid and adapterIndex; got ${given.join(', ')}`);
  if (given.length === 0) return { index: null };
  const adapters = direct3dNative(call).adapters();
  if (choice.adapterIndex !== undefined) {
    const index = checkInt(choice.adapterIndex, 'options.adapterIndex', 0, 0xffff);
    if (index >= adapters.length) throw new RangeError(`options.adapterIndex ${index} is out of range; the adapters are ${listed(adapters)}`);
    return { index, luid: adapters[index]!.luid };
  }
  if (choice.adapterLuid !== undefined) {
    const luid = choice.adapterLuid;
    if (typeof luid !== 'bigint' || luid < 0n || luid >= 2n ** 64n)
      throw new TypeError(`options.adapterLuid must be a 64-bit bigint; got ${describeValue(luid)}`);
    const found = adapters.find((a) => a.luid === luid);
    if (!found) throw new RangeError(`no adapter has LUID ${hex(luid)}; the adapters are ${listed(adapters)}`);
    return { index: found.index, luid };
  }
  const device = choice.openclDevice as Device;
  if (device === null || typeof device !== 'object' || typeof (device as { info?: unknown }).info !== 'function' || !('platform' in device)) {
    throw new TypeError(`options.openclDevice must be an OpenCL Device; got ${describeValue(device)}`);
  }
  const luid = openclDeviceLuid(device);
  if (luid !== undefined) {
    const found = adapters.find((a) => a.luid === luid);
    if (!found)
      throw new RangeError(
        `the OpenCL device "${device.name}" reports LUID ${hex(luid)}, which no DXGI adapter has; the adapters are ${listed(adapters)}`,
      );
    return { index: found.index, luid };
  }
  const index = adapterBySharing(device, adapters);
  if (index === undefined) {
    throw new RangeError(
      `cannot tell which adapter the OpenCL device "${device.name}" runs on: it reports no LUID (cl_khr_device_uuid), ` +
        'and no D3D11 / D3D10 sharing extension of its platform lists it for an adapter; pass adapterLuid or adapterIndex ' +
        `(the adapters are ${listed(adapters)})`,
    );
  }
  return { index, luid: adapters[index]!.luid };
}
