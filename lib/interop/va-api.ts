// cl_intel_va_api_media_sharing: VA-API video surfaces (NV12: plane 0 = Y, plane 1 = UV).
import type { NativeIntelVaApiSharing } from './native-types';
import type { Context } from '../context';
import type { Device } from '../device';
import { decode } from '../info';
import { ready } from '../loader';
import type { CLImage } from '../memory';
import type { Platform } from '../platform';
import { OpenCLError, OpenCLReleasedError, describeValue } from '../errors';
import { VaDisplay } from '../va/display';
import { VaDisplayError } from '../va/errors';
import { VaSurface } from '../va/surface';
import { type CreateSharedOptions, type DeviceSet, type SharedContextOptions, type SharedObject, SharingFacade, sharedRecord } from './sharing';
import { intelVaApiRecord } from './extensions';
import { STATUS } from '../facts/cl-status';
import * as T from '../facts/sharing-tokens';

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

  /**
   * OpenCL devices that can share surfaces with a VA display
   * (clGetDeviceIDsFromVA_APIMediaAdapterINTEL): a VaDisplay, or a VADisplay address.
   */
  getDevices(display: VaDisplay | bigint, set: DeviceSet = 'preferred'): Device[] {
    const handle = VaApiSharing.displayHandle(display);
    const bits = this.deviceSetToken(set);
    return this.devicesFrom(() => this.native.deviceIds(intelVaApiRecord.deviceSources.display.source, handle, bits));
  }

  /**
   * A context that shares surfaces of `display` (CL_CONTEXT_VA_API_DISPLAY_INTEL):
   * a VaDisplay, or a VADisplay address. Default devices: the preferred ones,
   * else all that can share. A VaDisplay outlives the context: it is not
   * terminated before the context is released, even if disposed first. An
   * address must be kept alive by its owner.
   */
  createContext(display: VaDisplay | bigint, options: SharedContextOptions = {}): Context {
    const handle = VaApiSharing.displayHandle(display);
    const context = this.createSharedContext(intelVaApiRecord.deviceSources.display.contextProperty, handle, options, (set) =>
      this.getDevices(handle, set),
    );
    if (display instanceof VaDisplay) {
      const hold = display.hold();
      context.keepAlive(() => hold.release(), hold);
    }
    return context;
  }

  /**
   * A 2D image over one plane of a VA surface (clCreateFromVA_APIMediaSurfaceINTEL):
   * a VaSurface of the context's display, or a VASurfaceID.
   * NV12: plane 0 is Y (CL_R, W x H), plane 1 is UV (CL_RG, W/2 x H/2).
   * One image per (context, surface, plane): asking again returns the same one.
   * A VaSurface is not destroyed while the image lives (spec 9.X.2).
   */
  createFromSurface(context: Context, surface: VaSurface | number, plane: number, options?: CreateSharedOptions): CLImage {
    const call = 'clCreateFromVA_APIMediaSurfaceINTEL';
    if (surface instanceof VaSurface) {
      if (surface.disposed) throw new OpenCLReleasedError('VaSurface');
      // Table 9.X.4.1 lists NV12 only; 9.X.4: a surface of another display is CL_INVALID_VA_API_MEDIA_SURFACE_INTEL.
      if (surface.format !== 'NV12') {
        throw new OpenCLError(
          STATUS.CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
          call,
          `VA surface ${surface.id} is ${surface.format}; ${this.name} shares NV12 surfaces (table 9.X.4.1)`,
        );
      }
      this.checkContext(context);
      // A disposed display lives on natively while its surfaces and contexts do: its address still names it.
      const display = surface.display.heldAddress;
      if (display !== context.interop!.handle) {
        throw new OpenCLError(
          intelVaApiRecord.errors.invalidResource,
          call,
          `VA surface ${surface.id} belongs to VA display 0x${display.toString(16)}${surface.display.disposed ? ' (disposed, kept alive by its surfaces)' : ''}; the context was made on 0x${context.interop!.handle.toString(16)}`,
        );
      }
    }
    const id = surface instanceof VaSurface ? surface.id : SharingFacade.checkUint32(surface, 'surfaceId');
    const planeIndex = SharingFacade.checkUint32(plane, 'plane');
    // NV12 is the one format of table 9.X.4.1.
    if (planeIndex > 1) throw new RangeError(`NV12 has planes 0 and 1; got ${planeIndex}`);
    let image: CLImage;
    try {
      image = this.shared<CLImage>(
        context,
        `${id}:${planeIndex}`,
        `VA surface ${id} plane ${planeIndex}`,
        'image',
        { surfaceId: id, plane: planeIndex },
        options,
        (flags) => this.native.createFromSurface(context.native, flags, id, planeIndex),
      );
    } catch (error) {
      // 9.X.4: CL_INVALID_VA_API_MEDIA_SURFACE_INTEL; a bare id is all the binding was told, so say what the driver's code means.
      if (error instanceof OpenCLError && error.status === -1099 && !(surface instanceof VaSurface)) {
        throw new OpenCLError(
          -1099,
          call,
          `VA surface ${id} plane ${planeIndex}: the driver knows no such surface of the context's VA display 0x${context.interop!.handle.toString(16)} ` +
            '(an id of another display, a destroyed surface, or a format it cannot share)',
        );
      }
      throw error;
    }
    if (surface instanceof VaSurface && !this.#holding.has(image)) {
      this.#holding.add(image);
      image.keepAlive(surface.hold(image.sharing as SharedObject), surface.native);
    }
    return image;
  }

  /** Images whose VaSurface they keep alive. */
  readonly #holding = new WeakSet<CLImage>();

  /** @internal A display argument: a live VaDisplay's address, or a checked address. */
  static displayHandle(display: unknown): bigint {
    if (display instanceof VaDisplay) {
      if (display.disposed) throw new OpenCLReleasedError('VaDisplay');
      return display.address;
    }
    if (typeof display !== 'bigint')
      throw new TypeError(`display must be a VaDisplay or a non-zero bigint VADisplay address; got ${describeValue(display)}`);
    const address = SharingFacade.checkAddress(display, 'display');
    // libva frees that memory: a driver handed it would read freed memory (or crash).
    const reason = ready().vaTerminated(address);
    if (reason !== null) {
      throw new VaDisplayError(`display 0x${address.toString(16)} is not a live VADisplay: ${reason}`, [
        { kind: 'adopt', target: `0x${address.toString(16)}`, reason },
      ]);
    }
    return address;
  }

  /** Both planes of an NV12 surface, [Y, UV]. */
  createFromNV12Surface(context: Context, surface: VaSurface | number, options?: CreateSharedOptions): [CLImage, CLImage] {
    return [this.createFromSurface(context, surface, 0, options), this.createFromSurface(context, surface, 1, options)];
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
