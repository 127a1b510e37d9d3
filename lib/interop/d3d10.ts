// cl_khr_d3d10_sharing: Direct3D 10 buffers, 2D and 3D textures.
import type { NativeD3D10Sharing } from './native-types';
import type { Context } from '../context';
import type { Device } from '../device';
import { decode } from '../info';
import { ready } from '../loader';
import type { CLBuffer, CLImage, MemObject } from '../memory';
import type { Platform } from '../platform';
import { type CreateSharedOptions, type DeviceSet, type NativeAddress, type SharedContextOptions, SharingFacade, sharedRecord } from './sharing';
import { d3d10Record } from './extensions';
import * as T from '../facts/sharing-tokens';

/** Where to find the OpenCL devices: an ID3D10Device or an IDXGIAdapter. */
export type D3D10DeviceSource = { device: NativeAddress } | { dxgiAdapter: NativeAddress };

export interface D3D10ObjectInfo {
  /** CL_MEM_D3D10_RESOURCE_KHR */
  resource: bigint;
  /** CL_IMAGE_D3D10_SUBRESOURCE_KHR (textures). */
  subresource?: number;
}

/** cl_khr_d3d10_sharing on one platform. */
export class D3D10Sharing extends SharingFacade<NativeD3D10Sharing> {
  /** @internal */
  constructor(platform: Platform) {
    super(platform, d3d10Record, (legacy, names) => new (ready().NativeD3D10Sharing)(platform.native, legacy, names));
  }

  /** clGetDeviceIDsFromD3D10KHR */
  getDevices(source: D3D10DeviceSource, set: DeviceSet = 'preferred'): Device[] {
    const bits = this.deviceSetToken(set);
    if (source && typeof source === 'object' && 'dxgiAdapter' in source) {
      const adapter = SharingFacade.checkAddress(source.dxgiAdapter, 'source.dxgiAdapter');
      return this.devicesFrom(() => this.native.deviceIds(d3d10Record.deviceSources.dxgiAdapter.source, adapter, bits));
    }
    const device = SharingFacade.checkAddress((source as { device?: unknown })?.device, 'source.device');
    return this.devicesFrom(() => this.native.deviceIds(d3d10Record.deviceSources.device.source, device, bits));
  }

  /** A context sharing with an ID3D10Device (CL_CONTEXT_D3D10_DEVICE_KHR). */
  createContext(device: NativeAddress, options: SharedContextOptions = {}): Context {
    const handle = SharingFacade.checkAddress(device, 'device');
    return this.createSharedContext(d3d10Record.deviceSources.device.contextProperty, handle, options, (set) =>
      this.getDevices({ device: handle }, set),
    );
  }

  /** CL_CONTEXT_D3D10_PREFER_SHARED_RESOURCES_KHR: whether the driver prefers D3D10 resources created shared. */
  prefersSharedResources(context: Context): boolean {
    return decode.bool(context.info(T.CL_CONTEXT_D3D10_PREFER_SHARED_RESOURCES_KHR));
  }

  /** A buffer over an ID3D10Buffer. */
  createFromBuffer(context: Context, resource: NativeAddress, options?: CreateSharedOptions): CLBuffer {
    const r = SharingFacade.checkAddress(resource, 'resource');
    return this.shared<CLBuffer>(context, `b:${r}`, `D3D10 buffer 0x${r.toString(16)}`, 'buffer', { resource: r }, options, (flags) =>
      this.native.createFromBuffer(context.native, flags, r),
    );
  }

  /** A 2D image over one subresource (mip + slice * mipLevels) of an ID3D10Texture2D. */
  createFromTexture2D(context: Context, resource: NativeAddress, subresource: number, options?: CreateSharedOptions): CLImage {
    const r = SharingFacade.checkAddress(resource, 'resource');
    const sub = SharingFacade.checkUint32(subresource, 'subresource');
    return this.shared<CLImage>(
      context,
      `2d:${r}:${sub}`,
      `D3D10 2D texture 0x${r.toString(16)} subresource ${sub}`,
      'image',
      { resource: r, subresource: sub },
      options,
      (flags) => this.native.createFromTexture2D(context.native, flags, r, sub),
    );
  }

  /** A 3D image over one subresource (mip level) of an ID3D10Texture3D. */
  createFromTexture3D(context: Context, resource: NativeAddress, subresource: number, options?: CreateSharedOptions): CLImage {
    const r = SharingFacade.checkAddress(resource, 'resource');
    const sub = SharingFacade.checkUint32(subresource, 'subresource');
    return this.shared<CLImage>(
      context,
      `3d:${r}:${sub}`,
      `D3D10 3D texture 0x${r.toString(16)} subresource ${sub}`,
      'image',
      { resource: r, subresource: sub },
      options,
      (flags) => this.native.createFromTexture3D(context.native, flags, r, sub),
    );
  }

  objectInfo(mem: MemObject): D3D10ObjectInfo {
    const record = sharedRecord(mem, this);
    const info: D3D10ObjectInfo = { resource: decode.pointer(mem.info(T.CL_MEM_D3D10_RESOURCE_KHR)) };
    if ('subresource' in record.details) info.subresource = decode.uint(mem.native.imageInfo(T.CL_IMAGE_D3D10_SUBRESOURCE_KHR));
    return info;
  }
}
