// cl_khr_dx9_media_sharing: DX9 media surfaces through KHR media adapters.
import type { NativeKhrDX9MediaSharing } from './native-types';
import type { Context } from '../context';
import type { Device } from '../device';
import { decode } from '../info';
import { ready } from '../loader';
import type { CLImage } from '../memory';
import type { Platform } from '../platform';
import { type CreateSharedOptions, type DeviceSet, type NativeAddress, type SharedContextOptions, SharingFacade, sharedRecord } from './sharing';
import { type DeviceSource, khrDX9MediaRecord } from './extensions';
import * as T from '../facts/sharing-tokens';

/** The adapter kinds: D3D9 (IDirect3DDevice9*), D3D9EX (IDirect3DDevice9Ex*), DXVA (IDXVAHD_Device*). */
export type MediaAdapterType = 'd3d9' | 'd3d9ex' | 'dxva';
export interface MediaAdapter {
  type: MediaAdapterType;
  adapter: NativeAddress;
}

const adapterTypes: Readonly<Record<MediaAdapterType, DeviceSource>> = khrDX9MediaRecord.deviceSources;

function adapterType(type: unknown): { value: number; property: number } {
  const entry = Object.hasOwn(adapterTypes, type as PropertyKey) ? adapterTypes[type as MediaAdapterType] : undefined;
  if (!entry) throw new TypeError(`adapter type must be one of ${Object.keys(adapterTypes).join(', ')}; got ${String(type)}`);
  return { value: entry.source, property: entry.contextProperty };
}

export interface KhrDX9SurfaceOptions extends CreateSharedOptions {
  /** The surface's shared HANDLE (cl_dx9_surface_info_khr.shared_handle); default: a D3D9Surface's own `sharedHandle`, else 0n. */
  sharedHandle?: bigint;
}

export interface KhrDX9ImageInfo {
  /** CL_MEM_DX9_MEDIA_ADAPTER_TYPE_KHR */
  adapterType: MediaAdapterType;
  /** CL_MEM_DX9_MEDIA_SURFACE_INFO_KHR: the cl_dx9_surface_info_khr it was created with. */
  surfaceInfo: { resource: bigint; sharedHandle: bigint };
  /** CL_IMAGE_DX9_MEDIA_PLANE_KHR */
  plane: number;
}

/** cl_khr_dx9_media_sharing on one platform. */
export class KhrDX9MediaSharing extends SharingFacade<NativeKhrDX9MediaSharing> {
  /** @internal */
  constructor(platform: Platform) {
    super(platform, khrDX9MediaRecord, (legacy, names) => new (ready().NativeKhrDX9MediaSharing)(platform.native, legacy, names));
  }

  /** clGetDeviceIDsFromDX9MediaAdapterKHR over an array of media adapters. */
  getDevices(adapters: readonly MediaAdapter[], set: DeviceSet = 'preferred'): Device[] {
    if (!Array.isArray(adapters) || adapters.length === 0) throw new TypeError('adapters must be a non-empty array of { type, adapter }');
    const types = adapters.map((a) => adapterType(a?.type).value);
    const handles = adapters.map((a, i) => SharingFacade.checkAddress(a.adapter, `adapters[${i}].adapter`));
    const bits = this.deviceSetToken(set);
    return this.devicesFrom(() => this.native.deviceIds(types, handles, bits));
  }

  /** A context sharing with one media adapter (CL_CONTEXT_ADAPTER_D3D9_KHR, _D3D9EX_ or _DXVA_). */
  createContext(adapter: MediaAdapter, options: SharedContextOptions = {}): Context {
    const { property } = adapterType(adapter?.type);
    const handle = SharingFacade.checkAddress(adapter.adapter, 'adapter.adapter');
    return this.createSharedContext(property, handle, options, (set) => this.getDevices([adapter], set));
  }

  /**
   * A 2D image over a plane of an IDirect3DSurface9 (clCreateFromDX9MediaSurfaceKHR).
   * `adapterType` must be the kind of adapter the surface belongs to.
   */
  createFromSurface(
    context: Context,
    adapterType_: MediaAdapterType,
    surface: NativeAddress,
    plane: number,
    options: KhrDX9SurfaceOptions = {},
  ): CLImage {
    const { value } = adapterType(adapterType_);
    const r = SharingFacade.checkAddress(surface, 'surface');
    const p = SharingFacade.checkUint32(plane, 'plane');
    if (p > 2) throw new RangeError(`DX9 media surfaces have at most three planes (NV12: 0 and 1; YV12: 0 to 2); got ${p}`);
    const shared = options.sharedHandle ?? SharingFacade.sharedHandleOf(surface) ?? 0n;
    if (typeof shared !== 'bigint') throw new TypeError('sharedHandle must be a bigint');
    return this.shared<CLImage>(
      context,
      `${r}:${p}`,
      `DX9 media surface 0x${r.toString(16)} plane ${p}`,
      'image',
      { resource: r, plane: p },
      options,
      (flags) => this.native.createFromMediaSurface(context.native, flags, value, r, shared, p),
    );
  }

  imageInfo(image: CLImage): KhrDX9ImageInfo {
    sharedRecord(image, this);
    const typeValue = decode.uint(image.info(T.CL_MEM_DX9_MEDIA_ADAPTER_TYPE_KHR));
    const [resource, sharedHandle] = decode.pointers(image.info(T.CL_MEM_DX9_MEDIA_SURFACE_INFO_KHR));
    const type = (Object.keys(adapterTypes) as MediaAdapterType[]).find((k) => adapterTypes[k].source === typeValue);
    if (!type) throw new RangeError(`unknown media adapter type 0x${typeValue.toString(16)}`);
    return {
      adapterType: type,
      surfaceInfo: { resource: resource ?? 0n, sharedHandle: sharedHandle ?? 0n },
      plane: decode.uint(image.imageInfo(T.CL_IMAGE_DX9_MEDIA_PLANE_KHR)),
    };
  }
}
