// cl_khr_d3d11_sharing and cl_nv_d3d11_sharing: Direct3D 11 buffers, 2D and 3D
// textures, and NV12 video textures as Y/UV planes. One facade for both
// extensions, parameterised by the record (they differ only in names): a typed
// shell over the shape all three Direct3D sharing extensions share
// (direct3d-sharing.ts), with the NV12 planes on top.
import type { Context } from '../context';
import { OpenCLExtensionError } from '../errors';
import { ready } from '../loader';
import type { CLImage } from '../memory';
import type { Platform } from '../platform';
import { checkObject } from '../validate';
import { type Direct3DDeviceSource, type Direct3DObjectInfo, Direct3DSharing } from './direct3d-sharing';
import { type D3D11Queries, type ExtensionRecord, khrD3D11Record, nvD3D11Record } from './extensions';
import { type CreateSharedOptions, type NativeAddress, SharingFacade } from './sharing';

/** Where to find the OpenCL devices: an ID3D11Device or an IDXGIAdapter. */
export type D3D11DeviceSource = Direct3DDeviceSource;

/** CL_MEM_D3D11_RESOURCE_KHR / _NV, and CL_IMAGE_D3D11_SUBRESOURCE_KHR / _NV for textures. */
export type D3D11ObjectInfo = Direct3DObjectInfo;

export interface NV12TextureOptions extends CreateSharedOptions {
  /** The array slice of the NV12 texture (default 0): Y is subresource 2 * slice, UV 2 * slice + 1. */
  arraySlice?: number;
}

/** The extension that lets an NV12 ID3D11Texture2D be shared plane by plane. */
export const NV12_EXTENSION = 'cl_intel_d3d11_nv12_media_sharing';

type D3D11Record = ExtensionRecord & { readonly queries: D3D11Queries };

/** A Direct3D 11 sharing extension on one platform (the KHR or the NV one: see `name`). */
export abstract class D3D11Sharing extends Direct3DSharing {
  /** @internal */
  constructor(platform: Platform, record: D3D11Record) {
    super(
      platform,
      record,
      {
        queries: record.queries,
        label: `D3D11 (${record.name})`,
        noPreferQuery: 'it defines no CL_CONTEXT_D3D11_PREFER_SHARED_RESOURCES query (only cl_khr_d3d11_sharing does)',
      },
      (legacy, names) => new (ready().NativeD3D11Sharing)(platform.native, legacy, names),
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
