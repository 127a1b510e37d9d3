// Platforms (cl_platform_id): the ICD loader's list, each platform's info and
// devices, and its sharing facades (getSharing, through lib/sharing-hooks.ts).
import type { NativePlatform } from './addon';
import { CL } from './facts/cl-constants';
import { STATUS } from './facts/cl-status';
import { Device, type DeviceType, deviceTypeMask } from './device';
import { OpenCLError, OpenCLNoPlatformError } from './errors';
import { decode, parseVersion } from './info';
import { type SharingExtension, type SharingFacades, sharingFacade } from './sharing-hooks';
import { loadedLibrary, preservingIcdEnvironment, ready } from './loader';

const platformCache = new Map<bigint, Platform>();

/** An OpenCL platform (one installed driver). Platforms live as long as the process. */
export class Platform {
  /** @internal */
  readonly native: NativePlatform;
  readonly #devices = new Map<bigint, Device>();
  readonly #strings = new Map<number, string>();

  /** @internal */
  constructor(native: NativePlatform) {
    this.native = native;
  }

  /** The raw cl_platform_id as a bigint. */
  get address(): bigint {
    return this.native.address;
  }

  /** Raw clGetPlatformInfo bytes for any parameter. */
  info(param: number): Uint8Array {
    return this.native.info(param);
  }

  #string(param: number): string {
    let value = this.#strings.get(param);
    if (value === undefined) this.#strings.set(param, (value = decode.string(this.native.info(param))));
    return value;
  }

  get name(): string {
    return this.#string(CL.CL_PLATFORM_NAME);
  }
  get vendor(): string {
    return this.#string(CL.CL_PLATFORM_VENDOR);
  }
  get version(): string {
    return this.#string(CL.CL_PLATFORM_VERSION);
  }
  get profile(): string {
    return this.#string(CL.CL_PLATFORM_PROFILE);
  }
  /** { major, minor } parsed from `version`. */
  get versionNumber(): { major: number; minor: number } {
    return parseVersion(this.version);
  }
  /** The platform's extension names. */
  get extensions(): string[] {
    return decode.words(this.#string(CL.CL_PLATFORM_EXTENSIONS));
  }
  /** The ICD suffix (cl_khr_icd), or '' when the platform does not report one. */
  get icdSuffix(): string {
    try {
      return this.#string(CL.CL_PLATFORM_ICD_SUFFIX_KHR);
    } catch {
      return '';
    }
  }

  /** Devices of the given type; an empty list when there are none (CL_DEVICE_NOT_FOUND). */
  getDevices(type: DeviceType = 'all'): Device[] {
    let natives;
    try {
      natives = this.native.devices(deviceTypeMask(type));
    } catch (error) {
      if (error instanceof OpenCLError && error.status === STATUS.CL_DEVICE_NOT_FOUND) return [];
      throw error;
    }
    return natives.map((native) => this.deviceFor(native));
  }

  /** @internal One Device wrapper per cl_device_id. */
  deviceFor(native: import('./addon').NativeDevice): Device {
    let device = this.#devices.get(native.address);
    if (!device) this.#devices.set(native.address, (device = new Device(native, this)));
    return device;
  }

  /**
   * The facade of a sharing extension on this platform (see getSharing):
   * platform.getSharing('cl_intel_va_api_media_sharing').createContext(display).
   */
  getSharing<K extends SharingExtension>(extension: K): SharingFacades[K] {
    return sharingFacade(this, extension);
  }

  /** True when the platform or any of its devices lists the extension. */
  supports(extension: string): boolean {
    if (this.extensions.includes(extension)) return true;
    return this.getDevices().some((device) => device.extensions.includes(extension));
  }

  /**
   * The address of an extension entry point for this platform (0n when it
   * does not resolve). Uses clGetExtensionFunctionAddressForPlatform, or
   * clGetExtensionFunctionAddress on OpenCL 1.1 platforms.
   */
  extensionFunctionAddress(name: string): bigint {
    if (typeof name !== 'string' || name === '') throw new TypeError('name must be a non-empty string');
    const { major, minor } = this.versionNumber;
    const legacy = major === 1 && minor < 2;
    return this.native.extensionFunction(name, legacy);
  }

  toString(): string {
    return `${this.name} (${this.version})`;
  }
}

/**
 * Every OpenCL platform the loaded library reports (loading the default
 * library on first use). An empty list when the loader finds no driver.
 */
export function getPlatforms(): Platform[] {
  const native = ready();
  let natives;
  try {
    natives = preservingIcdEnvironment(() => native.getPlatformIDs());
  } catch (error) {
    // ocl-icd and the Khronos loader report "no driver" as CL_PLATFORM_NOT_FOUND_KHR.
    if (error instanceof OpenCLError && error.status === STATUS.CL_PLATFORM_NOT_FOUND_KHR) return [];
    throw error;
  }
  return natives.map((platform) => {
    let wrapper = platformCache.get(platform.address);
    if (!wrapper) platformCache.set(platform.address, (wrapper = new Platform(platform)));
    return wrapper;
  });
}

/** Like getPlatforms(), but throws OpenCLNoPlatformError when there is none. */
export function requirePlatforms(): Platform[] {
  const platforms = getPlatforms();
  if (platforms.length === 0) {
    throw new OpenCLNoPlatformError(loadedLibrary()?.path ?? 'OpenCL', 'clGetPlatformIDs found none');
  }
  return platforms;
}

declare module './links' {
  // Platform is what links.ts calls PlatformLink.
  interface PlatformLink extends Platform {}
}
