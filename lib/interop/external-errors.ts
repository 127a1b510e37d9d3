// The errors of the external memory / semaphore family that name what the
// device or the driver refused: a handle type it cannot import or export, an
// image layout it would read another way, a handle the driver did not take.
import { OpenCLError, OpenCLExtensionError } from '../errors';

/**
 * A handle type the devices cannot import (or export): names the handle
 * type, the extension that defines it, and what the device does support.
 */
export class OpenCLHandleTypeError extends OpenCLExtensionError {
  override name = 'OpenCLHandleTypeError';
  readonly handleType: string;
  /** The handle types the device (or platform) supports. */
  readonly supported: readonly string[];
  readonly device: string | undefined;
  constructor(
    extension: string,
    platform: string,
    handleType: string,
    supported: readonly string[],
    device: string | undefined,
    action: 'import' | 'export',
  ) {
    const where = device === undefined ? `the platform's devices` : `device "${device}"`;
    super(extension, platform, `${where} cannot ${action} ${handleType} handles; ${action}able: ${supported.length ? supported.join(', ') : 'none'}`);
    this.handleType = handleType;
    this.supported = Object.freeze([...supported]);
    this.device = device;
  }
}

/**
 * An image import the driver would read with another layout than the
 * exporter's: a linear image of a handle type the device does not list as
 * assumed linear (it reads those in its own, implementation-defined layout),
 * or an optimal-tiling image of one it does list (it reads those as rows).
 */
export class OpenCLImageLayoutError extends Error {
  override name = 'OpenCLImageLayoutError';
  readonly handleType: string;
  /** How the exporter laid the image out (ExporterTiling). */
  readonly tiling: 'linear' | 'optimal';
  readonly device: string;
  constructor(handleType: string, tiling: 'linear' | 'optimal', device: string) {
    const listed = tiling === 'optimal';
    super(
      `importImage: a ${tiling} image would be read in another layout: device "${device}" ${listed ? 'lists' : 'does not list'} ${handleType} in ` +
        `CL_DEVICE_EXTERNAL_MEMORY_IMPORT_ASSUME_LINEAR_IMAGES_HANDLE_TYPES_KHR, so it reads images imported from such handles ` +
        `${listed ? 'as linear rows' : 'in a layout of its own (implementation-defined)'} and the pixels would come out scrambled. ` +
        (listed
          ? 'Export a linear image and pass its row pitch.'
          : "Export an optimal-tiling image (the driver's layout where the two APIs share one), or import the linear image's memory as a buffer (importBuffer, or importPlanes with its offset and row pitch)."),
    );
    this.handleType = handleType;
    this.tiling = tiling;
    this.device = device;
  }
}

/** The status outside the spec NVIDIA's driver (580) answers a descriptor it cannot import with. */
const notImportable = 999;

/**
 * A driver refused an imported handle: a negative status the spec names for
 * an invalid property value, or a status outside the spec (NVIDIA answers
 * a descriptor it cannot import with 999, and a buffer import larger than the
 * allocation the handle was exported with with 1). Keeps the driver's status.
 * `bytes`: the size a buffer import asked for, where it did.
 */
export class OpenCLImportError extends OpenCLError {
  override name = 'OpenCLImportError';
  readonly handleType: string;
  constructor(status: number, call: string, handleType: string, handle: string, expected: string, bytes?: number) {
    super(
      status,
      call,
      status > 0 && status !== notImportable && bytes !== undefined
        ? `the driver refused ${handle} as a ${handleType} handle of ${bytes} bytes (with a status outside the OpenCL spec): most likely ` +
            `${bytes} bytes is more than the allocation the handle was exported with (import at most that size: options.size, or the ` +
            `handle's size); else it is not ${expected} that this device can import`
        : status > 0
          ? `the driver refused ${handle} as a ${handleType} handle (with a status outside the OpenCL spec): it is not ${expected} that this device can import`
          : `the driver found a property of the import invalid: most likely ${handle} is not ${expected} that this device can import`,
    );
    this.handleType = handleType;
  }
}
