// The Vulkan module's typed errors: a Vulkan call that returned a VkResult,
// the loader missing, something the device cannot do, and use after dispose.
import { registerNativeErrorClasses } from '../errors';

const RESULT_NAMES: Readonly<Record<number, string>> = {
  0: 'VK_SUCCESS',
  1: 'VK_NOT_READY',
  2: 'VK_TIMEOUT',
  3: 'VK_EVENT_SET',
  4: 'VK_EVENT_RESET',
  5: 'VK_INCOMPLETE',
  [-1]: 'VK_ERROR_OUT_OF_HOST_MEMORY',
  [-2]: 'VK_ERROR_OUT_OF_DEVICE_MEMORY',
  [-3]: 'VK_ERROR_INITIALIZATION_FAILED',
  [-4]: 'VK_ERROR_DEVICE_LOST',
  [-5]: 'VK_ERROR_MEMORY_MAP_FAILED',
  [-6]: 'VK_ERROR_LAYER_NOT_PRESENT',
  [-7]: 'VK_ERROR_EXTENSION_NOT_PRESENT',
  [-8]: 'VK_ERROR_FEATURE_NOT_PRESENT',
  [-9]: 'VK_ERROR_INCOMPATIBLE_DRIVER',
  [-10]: 'VK_ERROR_TOO_MANY_OBJECTS',
  [-11]: 'VK_ERROR_FORMAT_NOT_SUPPORTED',
  [-12]: 'VK_ERROR_FRAGMENTED_POOL',
  [-13]: 'VK_ERROR_UNKNOWN',
  [-1000069000]: 'VK_ERROR_OUT_OF_POOL_MEMORY',
  [-1000072003]: 'VK_ERROR_INVALID_EXTERNAL_HANDLE',
  [-1000161000]: 'VK_ERROR_FRAGMENTATION',
  [-1000257000]: 'VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS',
  1000297000: 'VK_PIPELINE_COMPILE_REQUIRED',
  [-1000011001]: 'VK_ERROR_VALIDATION_FAILED_EXT',
  [-1000174001]: 'VK_ERROR_NOT_PERMITTED_KHR',
  [-1000338000]: 'VK_ERROR_COMPRESSION_EXHAUSTED_EXT',
};

/** The vulkan_core.h name of a VkResult ('VK_ERROR_DEVICE_LOST'), or 'VkResult <n>' for one it does not know. */
export function vkResultName(result: number): string {
  return RESULT_NAMES[result] ?? `VkResult ${result}`;
}

/** A Vulkan call returned an error VkResult. */
export class VulkanError extends Error {
  override name = 'VulkanError';
  /** The VkResult, e.g. -2. */
  readonly result: number;
  /** Its name, e.g. 'VK_ERROR_OUT_OF_DEVICE_MEMORY'. */
  readonly code: string;
  /** The Vulkan entry point that failed, e.g. 'vkAllocateMemory'. */
  readonly call: string;
  readonly detail: string;
  constructor(result: number, call: string, detail = '') {
    const code = vkResultName(result);
    super(`${call} failed: ${code} (${result})${detail ? `: ${detail}` : ''}`);
    this.result = result;
    this.code = code;
    this.call = call;
    this.detail = detail;
  }
}
// native/vulkan/ throws it by name: new VulkanError(result, call, detail).
registerNativeErrorClasses({ VulkanError });

/** The Debian/Ubuntu packages that provide the Vulkan loader and a driver. */
export const VULKAN_PACKAGES = 'libvulkan1 mesa-vulkan-drivers';

/** The Vulkan loader could not be loaded: says what was tried and what to install. */
export class VulkanUnavailableError extends Error {
  override name = 'VulkanUnavailableError';
  readonly attempts: readonly { path: string; error: string }[];
  constructor(attempts: { path: string; error: string }[], why?: string) {
    const tried = attempts.map((a) => `  - ${a.path}: ${a.error}`).join('\n');
    super(
      `${why ?? 'The Vulkan loader could not be loaded.'}${tried ? ` Tried:\n${tried}\n` : ' '}` +
        `Install it: Debian/Ubuntu: apt-get install libvulkan1 plus a Vulkan driver (mesa-vulkan-drivers, or your GPU vendor's, ` +
        "e.g. NVIDIA's driver package); Fedora: vulkan-loader; Windows: the GPU driver installs vulkan-1.dll. " +
        'Or name the loader with loadVulkan({ library }) or the OPENCL_INTEROP_VULKAN_LOADER environment variable.',
    );
    this.attempts = attempts;
  }
}

/** The device or driver cannot do what was asked (a handle type, a format, an extension). */
export class VulkanNotSupportedError extends Error {
  override name = 'VulkanNotSupportedError';
  /** What was asked for, e.g. "semaphore export as 'sync-fd'". */
  readonly feature: string;
  /** The device it was asked of. */
  readonly device: string;
  constructor(feature: string, device: string, reason: string) {
    super(`${device} cannot do ${feature}: ${reason}`);
    this.feature = feature;
    this.device = device;
  }
}

/** A Vulkan object was used after dispose() (or an exported handle after relinquish()/dispose()). */
export class VulkanDisposedError extends Error {
  override name = 'VulkanDisposedError';
  readonly kind: string;
  constructor(kind: string, what = 'was disposed') {
    super(`this ${kind} ${what}`);
    this.kind = kind;
  }
}

/** An operation the object's state does not allow (a wait on a semaphore nothing will signal, ...). */
export class VulkanStateError extends Error {
  override name = 'VulkanStateError';
}
