// cl_intel_dx9_media_sharing: DX9 media surfaces (NV12 / YV12 planes) with Intel's entry points.
import type { NativeIntelDX9Sharing } from './native-types';
import type { Context } from '../context';
import type { Device } from '../device';
import { decode } from '../info';
import { ready } from '../loader';
import type { CLImage } from '../memory';
import type { Platform } from '../platform';
import { type CreateSharedOptions, type DeviceSet, type NativeAddress, type SharedContextOptions, SharingFacade, sharedRecord } from './sharing';
import { intelDX9Record } from './extensions';
import * as T from '../facts/sharing-tokens';

/** The DX9 object whose devices are wanted: an IDirect3DDevice9, IDirect3DDevice9Ex or IDXVAHD_Device. */
export type IntelDX9Source = { d3d9Device: NativeAddress } | { d3d9ExDevice: NativeAddress } | { dxvaDevice: NativeAddress };

export interface IntelDX9SurfaceOptions extends CreateSharedOptions {
  /** The surface's shared HANDLE, if it has one (0n: none). */
  sharedHandle?: bigint;
}

export interface IntelDX9ImageInfo {
  /** CL_MEM_DX9_RESOURCE_INTEL */
  resource: bigint;
  /** CL_MEM_DX9_SHARED_HANDLE_INTEL */
  sharedHandle: bigint;
  /** CL_IMAGE_DX9_PLANE_INTEL */
  plane: number;
}

function sourceOf(source: IntelDX9Source): { handle: bigint; token: number; property: number } {
  const key = Object.keys(intelDX9Record.deviceSources).find((k) => source && typeof source === 'object' && k in source);
  if (!key) throw new TypeError('source must be { d3d9Device }, { d3d9ExDevice } or { dxvaDevice }');
  const { source: token, contextProperty: property } = intelDX9Record.deviceSources[key as keyof typeof intelDX9Record.deviceSources];
  return { handle: SharingFacade.checkAddress((source as Record<string, unknown>)[key], `source.${key}`), token, property };
}

/** cl_intel_dx9_media_sharing on one platform. */
export class IntelDX9Sharing extends SharingFacade<NativeIntelDX9Sharing> {
  /** @internal */
  constructor(platform: Platform) {
    super(platform, intelDX9Record, (legacy, names) => new (ready().NativeIntelDX9Sharing)(platform.native, legacy, names));
  }

  /** clGetDeviceIDsFromDX9INTEL */
  getDevices(source: IntelDX9Source, set: DeviceSet = 'preferred'): Device[] {
    const { handle, token } = sourceOf(source);
    const bits = this.deviceSetToken(set);
    return this.devicesFrom(() => this.native.deviceIds(token, handle, bits));
  }

  /** A context sharing with the DX9 device (CL_CONTEXT_D3D9_DEVICE_INTEL, _D3D9EX_ or _DXVA_). */
  createContext(source: IntelDX9Source, options: SharedContextOptions = {}): Context {
    const { handle, property } = sourceOf(source);
    return this.createSharedContext(property, handle, options, (set) => this.getDevices(source, set));
  }

  /**
   * A 2D image over a plane of an IDirect3DSurface9 (clCreateFromDX9MediaSurfaceINTEL):
   * NV12 planes 0 (Y) and 1 (UV); YV12 planes 0 (Y), 1 (V), 2 (U); other formats plane 0.
   */
  createFromSurface(context: Context, surface: NativeAddress, plane: number, options: IntelDX9SurfaceOptions = {}): CLImage {
    const r = SharingFacade.checkAddress(surface, 'surface');
    const p = SharingFacade.checkUint32(plane, 'plane');
    if (p > 2) throw new RangeError(`DX9 media surfaces have at most three planes (NV12: 0 and 1; YV12: 0 to 2); got ${p}`);
    const shared = options.sharedHandle ?? SharingFacade.sharedHandleOf(surface) ?? 0n;
    if (typeof shared !== 'bigint') throw new TypeError('sharedHandle must be a bigint');
    return this.shared<CLImage>(
      context,
      `${r}:${p}`,
      `DX9 surface 0x${r.toString(16)} plane ${p}`,
      'image',
      { resource: r, plane: p },
      options,
      (flags) => this.native.createFromMediaSurface(context.native, flags, r, shared, p),
    );
  }

  imageInfo(image: CLImage): IntelDX9ImageInfo {
    sharedRecord(image, this);
    return {
      resource: decode.pointer(image.info(T.CL_MEM_DX9_RESOURCE_INTEL)),
      sharedHandle: decode.pointer(image.info(T.CL_MEM_DX9_SHARED_HANDLE_INTEL)),
      plane: decode.uint(image.imageInfo(T.CL_IMAGE_DX9_PLANE_INTEL)),
    };
  }
}
