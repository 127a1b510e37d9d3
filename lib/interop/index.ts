// The sharing facades, one per (platform, extension), created lazily and cached.
import type { Context } from '../context';
import { OpenCLExtensionError } from '../errors';
import type { Platform } from '../platform';
import { D3D10Sharing } from './d3d10';
import type { SharingExtension } from './extensions';
import { IntelDX9Sharing } from './intel-dx9';
import { KhrDX9MediaSharing } from './khr-dx9-media';
import { NvD3D9Sharing } from './nv-d3d9';
import { VaApiSharing } from './va-api';

/** The facade class of each extension. */
export interface SharingFacades {
  cl_nv_d3d9_sharing: NvD3D9Sharing;
  cl_khr_d3d10_sharing: D3D10Sharing;
  cl_intel_dx9_media_sharing: IntelDX9Sharing;
  cl_khr_dx9_media_sharing: KhrDX9MediaSharing;
  cl_intel_va_api_media_sharing: VaApiSharing;
}

const constructors: { [K in SharingExtension]: new (platform: Platform) => SharingFacades[K] } = {
  cl_nv_d3d9_sharing: NvD3D9Sharing,
  cl_khr_d3d10_sharing: D3D10Sharing,
  cl_intel_dx9_media_sharing: IntelDX9Sharing,
  cl_khr_dx9_media_sharing: KhrDX9MediaSharing,
  cl_intel_va_api_media_sharing: VaApiSharing,
};

const cache = new WeakMap<Platform, Map<SharingExtension, unknown>>();

/**
 * The facade of a sharing extension on a platform. Its entry points are
 * resolved for that platform on first use and cached. Throws
 * OpenCLExtensionError when the platform and its devices do not advertise
 * the extension, or some entry point does not resolve.
 */
export function getSharing<K extends SharingExtension>(platform: Platform, extension: K): SharingFacades[K] {
  const create = constructors[extension];
  if (!create) {
    throw new TypeError(`unknown sharing extension ${String(extension)}; one of ${Object.keys(constructors).join(', ')}`);
  }
  let facades = cache.get(platform);
  if (!facades) cache.set(platform, (facades = new Map()));
  let facade = facades.get(extension) as SharingFacades[K] | undefined;
  if (!facade) facades.set(extension, (facade = new create(platform) as SharingFacades[K]));
  return facade;
}

/** The facade of the extension a context was made for (by a facade's createContext). */
export function sharingOf(context: Context): SharingFacades[SharingExtension] {
  const extension = context.interop?.extension as SharingExtension | undefined;
  if (!extension) {
    throw new OpenCLExtensionError('(none)', context.platform.name, 'this context was not created by a sharing extension\'s createContext');
  }
  return getSharing(context.platform, extension);
}
