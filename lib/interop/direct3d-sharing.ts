// cl_khr_d3d10_sharing, cl_khr_d3d11_sharing and cl_nv_d3d11_sharing share one
// shape: the OpenCL devices of an ID3D1xDevice or an IDXGIAdapter, a context
// sharing with the device, buffers, 2D and 3D texture subresources, and the
// memory and image queries. This is that shape, given the extension's record,
// its queries and its label; d3d10.ts and d3d11.ts are typed shells over it
// (native/interop/direct3d_sharing.h is its native twin).
import type { Context } from '../context';
import type { Device } from '../device';
import { OpenCLExtensionError } from '../errors';
import { decode } from '../info';
import type { CLBuffer, CLImage, MemObject } from '../memory';
import type { Platform } from '../platform';
import type { D3D11Queries, ExtensionRecord } from './extensions';
import type { NativeDirect3DSharing } from './native-types';
import {
  type CreateSharedOptions,
  type DeviceSet,
  type NativeAddress,
  type NativeFactory,
  type SharedContextOptions,
  SharingFacade,
  sharedRecord,
} from './sharing';

/** Where to find the OpenCL devices: an ID3D10Device / ID3D11Device, or an IDXGIAdapter. */
export type Direct3DDeviceSource = { device: NativeAddress } | { dxgiAdapter: NativeAddress };

/** The extension's memory and image queries of a shared object, decoded. */
export interface Direct3DObjectInfo {
  /** CL_MEM_D3D10_RESOURCE_KHR, CL_MEM_D3D11_RESOURCE_KHR / _NV */
  resource: bigint;
  /** CL_IMAGE_D3D10_SUBRESOURCE_KHR, CL_IMAGE_D3D11_SUBRESOURCE_KHR / _NV (textures). */
  subresource?: number;
}

/** What distinguishes one Direct3D sharing extension from another beside its record. */
export interface Direct3DShape {
  /** The memory, image and context queries (preferSharedResources undefined where the extension has none). */
  queries: D3D11Queries;
  /** How objects are described in messages: 'D3D10', 'D3D11 (cl_khr_d3d11_sharing)'. */
  label: string;
  /** Why prefersSharedResources() has no answer, where the extension defines no such query. */
  noPreferQuery?: string;
}

/** A Direct3D 10 or 11 sharing extension on one platform. */
export abstract class Direct3DSharing extends SharingFacade<NativeDirect3DSharing> {
  readonly #shape: Direct3DShape;

  /** @internal */
  constructor(platform: Platform, record: ExtensionRecord, shape: Direct3DShape, create: NativeFactory<NativeDirect3DSharing>) {
    super(platform, record, create);
    this.#shape = shape;
  }

  /** clGetDeviceIDsFromD3D10KHR / D3D11KHR / D3D11NV: devices for an ID3D1xDevice or an IDXGIAdapter. */
  getDevices(source: Direct3DDeviceSource, set: DeviceSet = 'preferred'): Device[] {
    const sources = this.record.deviceSources;
    const bits = this.deviceSetToken(set);
    if (source && typeof source === 'object' && 'dxgiAdapter' in source) {
      const adapter = SharingFacade.checkAddress(source.dxgiAdapter, 'source.dxgiAdapter');
      return this.devicesFrom(() => this.native.deviceIds(sources.dxgiAdapter!.source, adapter, bits));
    }
    const device = SharingFacade.checkAddress((source as { device?: unknown })?.device, 'source.device');
    return this.devicesFrom(() => this.native.deviceIds(sources.device!.source, device, bits));
  }

  /** A context sharing with an ID3D1xDevice (CL_CONTEXT_D3D10_DEVICE_KHR, CL_CONTEXT_D3D11_DEVICE_KHR / _NV). */
  createContext(device: NativeAddress, options: SharedContextOptions = {}): Context {
    const handle = SharingFacade.checkAddress(device, 'device');
    return this.createSharedContext(this.record.deviceSources.device!.contextProperty, handle, options, (set) =>
      this.getDevices({ device: handle }, set),
    );
  }

  /**
   * CL_CONTEXT_D3D10_PREFER_SHARED_RESOURCES_KHR / CL_CONTEXT_D3D11_PREFER_SHARED_RESOURCES_KHR:
   * whether the driver prefers Direct3D resources created shared. cl_nv_d3d11_sharing defines
   * no such query: OpenCLExtensionError there.
   */
  prefersSharedResources(context: Context): boolean {
    const token = this.#shape.queries.preferSharedResources;
    if (token === undefined) throw new OpenCLExtensionError(this.name, this.platform.name, this.#shape.noPreferQuery ?? 'it defines no such query');
    return decode.bool(context.info(token));
  }

  /** A buffer over an ID3D10Buffer / ID3D11Buffer. */
  createFromBuffer(context: Context, resource: NativeAddress, options?: CreateSharedOptions): CLBuffer {
    const r = SharingFacade.checkAddress(resource, 'resource');
    return this.shared<CLBuffer>(context, `b:${r}`, `${this.#shape.label} buffer 0x${r.toString(16)}`, 'buffer', { resource: r }, options, (flags) =>
      this.native.createFromBuffer(context.native, flags, r),
    );
  }

  /** A 2D image over one subresource (mip + slice * mipLevels) of an ID3D10Texture2D / ID3D11Texture2D. */
  createFromTexture2D(context: Context, resource: NativeAddress, subresource: number, options?: CreateSharedOptions): CLImage {
    return this.#texture(context, resource, subresource, options, '2d', '2D', (flags, r, sub) =>
      this.native.createFromTexture2D(context.native, flags, r, sub),
    );
  }

  /** A 3D image over one subresource (mip level) of an ID3D10Texture3D / ID3D11Texture3D. */
  createFromTexture3D(context: Context, resource: NativeAddress, subresource: number, options?: CreateSharedOptions): CLImage {
    return this.#texture(context, resource, subresource, options, '3d', '3D', (flags, r, sub) =>
      this.native.createFromTexture3D(context.native, flags, r, sub),
    );
  }

  /** The extension's memory and image queries, decoded (subresource only for textures). */
  objectInfo(mem: MemObject): Direct3DObjectInfo {
    const record = sharedRecord(mem, this);
    const info: Direct3DObjectInfo = { resource: decode.pointer(mem.info(this.#shape.queries.resource)) };
    if ('subresource' in record.details) info.subresource = decode.uint(mem.native.imageInfo(this.#shape.queries.subresource));
    return info;
  }

  #texture(
    context: Context,
    resource: NativeAddress,
    subresource: number,
    options: CreateSharedOptions | undefined,
    key: string,
    kind: string,
    create: (flags: bigint, resource: bigint, subresource: number) => ReturnType<NativeDirect3DSharing['createFromTexture2D']>,
  ): CLImage {
    const r = SharingFacade.checkAddress(resource, 'resource');
    const sub = SharingFacade.checkUint32(subresource, 'subresource');
    return this.shared<CLImage>(
      context,
      `${key}:${r}:${sub}`,
      `${this.#shape.label} ${kind} texture 0x${r.toString(16)} subresource ${sub}`,
      'image',
      { resource: r, subresource: sub },
      options,
      (flags) => create(flags, r, sub),
    );
  }
}
