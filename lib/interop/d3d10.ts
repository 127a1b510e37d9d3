// cl_khr_d3d10_sharing: Direct3D 10 buffers, 2D and 3D textures. A typed shell
// over the shape all three Direct3D sharing extensions share (direct3d-sharing.ts).
import * as T from '../facts/sharing-tokens';
import { ready } from '../loader';
import type { Platform } from '../platform';
import { type Direct3DDeviceSource, type Direct3DObjectInfo, Direct3DSharing } from './direct3d-sharing';
import { d3d10Record } from './extensions';

/** Where to find the OpenCL devices: an ID3D10Device or an IDXGIAdapter. */
export type D3D10DeviceSource = Direct3DDeviceSource;

/** CL_MEM_D3D10_RESOURCE_KHR, and CL_IMAGE_D3D10_SUBRESOURCE_KHR for textures. */
export type D3D10ObjectInfo = Direct3DObjectInfo;

/** cl_khr_d3d10_sharing on one platform. */
export class D3D10Sharing extends Direct3DSharing {
  /** @internal */
  constructor(platform: Platform) {
    super(
      platform,
      d3d10Record,
      {
        queries: {
          resource: T.CL_MEM_D3D10_RESOURCE_KHR,
          subresource: T.CL_IMAGE_D3D10_SUBRESOURCE_KHR,
          preferSharedResources: T.CL_CONTEXT_D3D10_PREFER_SHARED_RESOURCES_KHR,
        },
        label: 'D3D10',
      },
      (legacy, names) => new (ready().NativeD3D10Sharing)(platform.native, legacy, names),
    );
  }
}
