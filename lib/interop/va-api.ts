// cl_intel_va_api_media_sharing: VA-API video surfaces (NV12: plane 0 = Y, plane 1 = UV).
import type { NativeIntelVaApiSharing } from '../addon';
import type { Context } from '../context';
import type { Device } from '../device';
import { decode } from '../info';
import { ready } from '../loader';
import { CLImage } from '../memory';
import type { Platform } from '../platform';
import { type CreateSharedOptions, type DeviceSet, type SharedContextOptions, SharingFacade, sharedRecord } from './sharing';
import { intelVaApiRecord } from './extensions';
import * as T from './tokens';

/** What CL_MEM_VA_API_MEDIA_SURFACE_INTEL and CL_IMAGE_VA_API_PLANE_INTEL report. */
export interface VaApiImageInfo {
  /** The VASurfaceID* the driver was given (storage owned by the memory object). */
  surfacePointer: bigint;
  /** The VASurfaceID stored there. */
  surfaceId: number;
  plane: number;
}

/** cl_intel_va_api_media_sharing on one platform. Get it with getSharing(platform, 'cl_intel_va_api_media_sharing'). */
export class VaApiSharing extends SharingFacade<NativeIntelVaApiSharing> {
  /** @internal */
  constructor(platform: Platform) {
    super(platform, intelVaApiRecord, (legacy, names) => new (ready().NativeIntelVaApiSharing)(platform.native, legacy, names));
  }

  /** OpenCL devices that can share surfaces with a VADisplay (clGetDeviceIDsFromVA_APIMediaAdapterINTEL). */
  getDevices(display: bigint, set: DeviceSet = 'preferred'): Device[] {
    const handle = SharingFacade.checkAddress(display, 'display');
    const bits = this.deviceSetToken(set);
    return this.devicesFrom(() => this.native.deviceIds(intelVaApiRecord.deviceSources.display.source, handle, bits));
  }

  /**
   * A context that shares surfaces of `display` (CL_CONTEXT_VA_API_DISPLAY_INTEL).
   * Default devices: the preferred ones, else all that can share. The display
   * must outlive the context.
   */
  createContext(display: bigint, options: SharedContextOptions = {}): Context {
    const handle = SharingFacade.checkAddress(display, 'display');
    return this.createSharedContext(intelVaApiRecord.deviceSources.display.contextProperty, handle, options, (set) => this.getDevices(handle, set));
  }

  /**
   * A 2D image over one plane of a VA surface (clCreateFromVA_APIMediaSurfaceINTEL).
   * NV12: plane 0 is Y (CL_R, W x H), plane 1 is UV (CL_RG, W/2 x H/2).
   * One image per (context, surface, plane): asking again returns the same one.
   */
  createFromSurface(context: Context, surfaceId: number, plane: number, options?: CreateSharedOptions): CLImage {
    const id = SharingFacade.checkUint32(surfaceId, 'surfaceId');
    const planeIndex = SharingFacade.checkUint32(plane, 'plane');
    // NV12 is the one format of table 9.X.4.1.
    if (planeIndex > 1) throw new RangeError(`NV12 has planes 0 and 1; got ${planeIndex}`);
    return this.shared<CLImage>(context, `${id}:${planeIndex}`, `VA surface ${id} plane ${planeIndex}`, 'image', { surfaceId: id, plane: planeIndex }, options, (flags) =>
      this.native.createFromSurface(context.native, flags, id, planeIndex),
    );
  }

  /** Both planes of an NV12 surface, [Y, UV]. */
  createFromNV12Surface(context: Context, surfaceId: number, options?: CreateSharedOptions): [CLImage, CLImage] {
    return [this.createFromSurface(context, surfaceId, 0, options), this.createFromSurface(context, surfaceId, 1, options)];
  }

  /** The extension's memory and image queries, decoded. */
  imageInfo(image: CLImage): VaApiImageInfo {
    const record = sharedRecord(image, this);
    const surfacePointer = decode.pointer(image.info(T.CL_MEM_VA_API_MEDIA_SURFACE_INTEL));
    const plane = decode.uint(image.imageInfo(T.CL_IMAGE_VA_API_PLANE_INTEL));
    return { surfacePointer, surfaceId: record.details.surfaceId as number, plane };
  }

  /** @internal The address of the VASurfaceID storage the image owns (for tests and diagnostics). */
  surfaceStorage(image: CLImage): bigint {
    sharedRecord(image, this);
    return image.native.storageAddress;
  }
}
