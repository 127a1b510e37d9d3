// cl_khr_d3d11_sharing and cl_nv_d3d11_sharing: Direct3D 11 buffers, 2D and 3D
// textures, and NV12 video textures as Y/UV planes. One facade shape for both
// extensions, parameterised by the record (they differ only in names).
import type { NativeD3D11Sharing } from './native-types';
import type { Context } from '../context';
import type { Device } from '../device';
import { OpenCLExtensionError } from '../errors';
import { decode } from '../info';
import { ready } from '../loader';
import type { CLBuffer, CLImage, MemObject } from '../memory';
import type { Platform } from '../platform';
import { type D3D11Queries, type ExtensionRecord, khrD3D11Record, nvD3D11Record } from './extensions';
import { type CreateSharedOptions, type DeviceSet, type NativeAddress, type SharedContextOptions, SharingFacade, sharedRecord } from './sharing';
import { checkObject } from '../validate';

/** Where to find the OpenCL devices: an ID3D11Device or an IDXGIAdapter. */
export type D3D11DeviceSource = { device: NativeAddress } | { dxgiAdapter: NativeAddress };

export interface D3D11ObjectInfo {
  /** CL_MEM_D3D11_RESOURCE_KHR / _NV */
  resource: bigint;
  /** CL_IMAGE_D3D11_SUBRESOURCE_KHR / _NV (textures). */
  subresource?: number;
}

export interface NV12TextureOptions extends CreateSharedOptions {
  /** The array slice of the NV12 texture (default 0): Y is subresource 2 * slice, UV 2 * slice + 1. */
  arraySlice?: number;
}

/** The extension that lets an NV12 ID3D11Texture2D be shared plane by plane. */
export const NV12_EXTENSION = 'cl_intel_d3d11_nv12_media_sharing';

type D3D11Record = ExtensionRecord & { readonly queries: D3D11Queries };

/** A Direct3D 11 sharing extension on one platform (the KHR or the NV one: see `name`). */
export abstract class D3D11Sharing extends SharingFacade<NativeD3D11Sharing> {
  readonly #queries: D3D11Queries;
  readonly #label: string;

  /** @internal */
  constructor(platform: Platform, record: D3D11Record) {
    super(platform, record, (legacy, names) => new (ready().NativeD3D11Sharing)(platform.native, legacy, names));
    this.#queries = record.queries;
    this.#label = `D3D11 (${record.name})`;
  }

  /** clGetDeviceIDsFromD3D11KHR / NV: devices for an ID3D11Device or an IDXGIAdapter. */
  getDevices(source: D3D11DeviceSource, set: DeviceSet = 'preferred'): Device[] {
    const sources = this.record.deviceSources;
    const bits = this.deviceSetToken(set);
    if (source && typeof source === 'object' && 'dxgiAdapter' in source) {
      const adapter = SharingFacade.checkAddress(source.dxgiAdapter, 'source.dxgiAdapter');
      return this.devicesFrom(() => this.native.deviceIds(sources.dxgiAdapter!.source, adapter, bits));
    }
    const device = SharingFacade.checkAddress((source as { device?: unknown })?.device, 'source.device');
    return this.devicesFrom(() => this.native.deviceIds(sources.device!.source, device, bits));
  }

  /** A context sharing with an ID3D11Device (CL_CONTEXT_D3D11_DEVICE_KHR / _NV). */
  createContext(device: NativeAddress, options: SharedContextOptions = {}): Context {
    const handle = SharingFacade.checkAddress(device, 'device');
    return this.createSharedContext(this.record.deviceSources.device!.contextProperty, handle, options, (set) =>
      this.getDevices({ device: handle }, set),
    );
  }

  /**
   * CL_CONTEXT_D3D11_PREFER_SHARED_RESOURCES_KHR: whether the driver prefers D3D11
   * resources created shared. cl_nv_d3d11_sharing defines no such query:
   * OpenCLExtensionError there.
   */
  prefersSharedResources(context: Context): boolean {
    const token = this.#queries.preferSharedResources;
    if (token === undefined) {
      throw new OpenCLExtensionError(
        this.name,
        this.platform.name,
        'it defines no CL_CONTEXT_D3D11_PREFER_SHARED_RESOURCES query (only cl_khr_d3d11_sharing does)',
      );
    }
    return decode.bool(context.info(token));
  }

  /** A buffer over an ID3D11Buffer. */
  createFromBuffer(context: Context, resource: NativeAddress, options?: CreateSharedOptions): CLBuffer {
    const r = SharingFacade.checkAddress(resource, 'resource');
    return this.shared<CLBuffer>(context, `b:${r}`, `${this.#label} buffer 0x${r.toString(16)}`, 'buffer', { resource: r }, options, (flags) =>
      this.native.createFromBuffer(context.native, flags, r),
    );
  }

  /** A 2D image over one subresource (mip + slice * mipLevels) of an ID3D11Texture2D. */
  createFromTexture2D(context: Context, resource: NativeAddress, subresource: number, options?: CreateSharedOptions): CLImage {
    const r = SharingFacade.checkAddress(resource, 'resource');
    const sub = SharingFacade.checkUint32(subresource, 'subresource');
    return this.shared<CLImage>(
      context,
      `2d:${r}:${sub}`,
      `${this.#label} 2D texture 0x${r.toString(16)} subresource ${sub}`,
      'image',
      { resource: r, subresource: sub },
      options,
      (flags) => this.native.createFromTexture2D(context.native, flags, r, sub),
    );
  }

  /** A 3D image over one subresource (mip level) of an ID3D11Texture3D. */
  createFromTexture3D(context: Context, resource: NativeAddress, subresource: number, options?: CreateSharedOptions): CLImage {
    const r = SharingFacade.checkAddress(resource, 'resource');
    const sub = SharingFacade.checkUint32(subresource, 'subresource');
    return this.shared<CLImage>(
      context,
      `3d:${r}:${sub}`,
      `${this.#label} 3D texture 0x${r.toString(16)} subresource ${sub}`,
      'image',
      { resource: r, subresource: sub },
      options,
      (flags) => this.native.createFromTexture3D(context.native, flags, r, sub),
    );
  }

  /** Whether the platform shares NV12 ID3D11Texture2D planes (it advertises cl_intel_d3d11_nv12_media_sharing). */
  get sharesNV12(): boolean {
    return this.platform.supports(NV12_EXTENSION);
  }

  /**
   * The Y (CL_R) and UV (CL_RG, half size) planes of an NV12 ID3D11Texture2D, as
   * cl_intel_d3d11_nv12_media_sharing and FFmpeg's OpenCL hwcontext create them:
   * subresources 2 * arraySlice and 2 * arraySlice + 1 of the texture.
   */
  createFromNV12Texture(context: Context, resource: NativeAddress, options: NV12TextureOptions = {}): { y: CLImage; uv: CLImage } {
    checkObject(options, 'options');
    if (!this.sharesNV12) {
      throw new OpenCLExtensionError(NV12_EXTENSION, this.platform.name, 'neither the platform nor its devices advertise it (NV12 planes need it)');
    }
    const slice = SharingFacade.checkUint32(options.arraySlice ?? 0, 'options.arraySlice');
    if (slice > 0x7fffffff) throw new RangeError(`options.arraySlice must be at most 2^31-1; got ${slice}`);
    const { arraySlice: _, ...createOptions } = options;
    const y = this.createFromTexture2D(context, resource, 2 * slice, createOptions);
    // Y may be a wrapper the caller already holds (one per subresource): it is not
    // released if UV fails; a new one is collected with the rest of the context.
    const uv = this.createFromTexture2D(context, resource, 2 * slice + 1, createOptions);
    return { y, uv };
  }

  /** The extension's memory and image queries, decoded (subresource only for textures). */
  objectInfo(mem: MemObject): D3D11ObjectInfo {
    const record = sharedRecord(mem, this);
    const info: D3D11ObjectInfo = { resource: decode.pointer(mem.info(this.#queries.resource)) };
    if ('subresource' in record.details) info.subresource = decode.uint(mem.native.imageInfo(this.#queries.subresource));
    return info;
  }
}

/** cl_khr_d3d11_sharing on one platform (Intel, AMD). */
export class KhrD3D11Sharing extends D3D11Sharing {
  /** @internal */
  constructor(platform: Platform) {
    super(platform, khrD3D11Record);
  }
}

/** cl_nv_d3d11_sharing on one platform (NVIDIA): the same as KhrD3D11Sharing under NV names. */
export class NvD3D11Sharing extends D3D11Sharing {
  /** @internal */
  constructor(platform: Platform) {
    super(platform, nvD3D11Record);
  }
}
