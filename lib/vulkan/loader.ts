// Finds and loads the Vulkan loader at run time: importing the package never
// needs Vulkan; the first Vulkan call without it is a VulkanUnavailableError
// naming what to install.
import type { Addon } from '../addon';
import type { NativeVkLoad } from './native-types';
import { describeValue } from '../errors';
import { addon } from '../loader';
import { VulkanUnavailableError } from './errors';
import { spirv } from './shaders';

/** The environment variable that names the Vulkan loader to load (a path to libvulkan.so.1 / vulkan-1.dll). */
export const VULKAN_LOADER_ENV = 'OPENCL_INTEROP_VULKAN_LOADER';

export interface VulkanLoadOptions {
  /** The loader library to load instead of the system's ($OPENCL_INTEROP_VULKAN_LOADER, else libvulkan.so.1 / vulkan-1.dll). */
  library?: string;
}

/** What loadVulkan() loaded. */
export interface LoadedVulkan {
  /** The library, as it was named. */
  readonly path: string;
  /** The instance-level API version the loader supports (vkEnumerateInstanceVersion), e.g. '1.3.239'. */
  readonly version: string;
  /** The same as a VK_MAKE_API_VERSION number. */
  readonly apiVersion: number;
}

/** 'major.minor.patch' of a Vulkan version number. */
export function vulkanVersionString(version: number): string {
  return `${(version >>> 22) & 0x7f}.${(version >>> 12) & 0x3ff}.${version & 0xfff}`;
}

let loaded: LoadedVulkan | undefined;

function describe(result: NativeVkLoad & { ok: true }): LoadedVulkan {
  return Object.freeze({ path: result.path, version: vulkanVersionString(result.version), apiVersion: result.version >>> 0 });
}

function defaultCandidates(): string[] {
  if (process.platform === 'win32') return ['vulkan-1.dll'];
  if (process.platform === 'darwin') return ['libvulkan.1.dylib', 'libMoltenVK.dylib'];
  return ['libvulkan.so.1', 'libvulkan.so'];
}

/**
 * Loads the Vulkan loader now (optional: every Vulkan call loads it on first
 * use). Once loaded it stays loaded for the life of the process; asking for
 * another library then throws.
 */
export function loadVulkan(options: VulkanLoadOptions = {}): LoadedVulkan {
  if (options === null || typeof options !== 'object') throw new TypeError(`options must be an object; got ${describeValue(options)}`);
  if (options.library !== undefined && (typeof options.library !== 'string' || options.library === '')) {
    throw new TypeError(`options.library must be a non-empty string (a path to the Vulkan loader); got ${describeValue(options.library)}`);
  }
  const native = vulkanAddon();
  const already = native.vkLoadedLibrary();
  if (already) {
    if (options.library !== undefined && options.library !== already.path) {
      throw new VulkanUnavailableError(
        [{ path: options.library, error: `the Vulkan loader is already loaded from ${already.path} in this process` }],
        'Another Vulkan loader is already loaded.',
      );
    }
    return (loaded = describe(already));
  }
  const fromEnv = process.env[VULKAN_LOADER_ENV];
  const candidates = options.library ? [options.library] : fromEnv ? [fromEnv] : defaultCandidates();
  const result = native.vkLoad(candidates);
  if (!result.ok) {
    throw new VulkanUnavailableError(
      result.attempts.map((a) => (fromEnv && !options.library ? { ...a, path: `${a.path} (from ${VULKAN_LOADER_ENV})` } : a)),
    );
  }
  return (loaded = describe(result));
}

/** The Vulkan loader as loaded, or null when it is not loaded yet. */
export function loadedVulkan(): LoadedVulkan | null {
  if (loaded) return loaded;
  const already = vulkanAddon().vkLoadedLibrary();
  return already ? (loaded = describe(already)) : null;
}

let prepared = false;

/** @internal The addon with the shaders installed (the loader not necessarily loaded). */
export function vulkanAddon(): Addon {
  const native = addon();
  if (!prepared) {
    native.vkSetShaders(spirv);
    prepared = true;
  }
  return native;
}

/** @internal Loads the Vulkan loader if needed and returns the addon. */
export function vulkan(): Addon {
  if (!loaded) loadVulkan();
  return vulkanAddon();
}
