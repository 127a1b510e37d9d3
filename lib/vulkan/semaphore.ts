// Binary semaphores that may be exported for another API (OpenCL's
// cl_khr_external_semaphore) to wait on or signal.
import type { NativeVkSemaphore } from './native-types';
import { NativeHolder } from '../holder';
import type { VulkanDeviceLink } from './links';
import { VulkanDisposedError, VulkanNotSupportedError, VulkanStateError } from './errors';
import { SEMAPHORE_HANDLE_BITS, VulkanExportedHandle, type VulkanSemaphoreHandleType } from './handles';

/**
 * A binary semaphore. While only Vulkan uses it, the module tracks whether a
 * signal is pending and refuses a wait nothing will satisfy (that would never
 * finish); once exported, the other API may wait and signal too, and the
 * caller orders them.
 * dispose() destroys the semaphore once no submission in flight uses it.
 */
export class VulkanSemaphore extends NativeHolder<NativeVkSemaphore> {
  readonly device: VulkanDeviceLink;
  /** The handle types it may be exported as (fixed at creation). */
  readonly exportTypes: readonly VulkanSemaphoreHandleType[];
  #shared = false;
  #signalPending = false;

  /** @internal */
  constructor(device: VulkanDeviceLink, native: NativeVkSemaphore, exportTypes: VulkanSemaphoreHandleType[]) {
    super(native);
    this.device = device;
    this.exportTypes = Object.freeze(exportTypes);
  }

  /** @internal */
  protected disposedError(): Error {
    return new VulkanDisposedError('VulkanSemaphore');
  }

  /** True once exported: another API may signal or wait on it, so its state is no longer tracked. */
  get shared(): boolean {
    return this.#shared;
  }

  /** Vulkan-only semaphores: whether a submitted signal has not been waited on yet. */
  get signalPending(): boolean {
    return this.#signalPending;
  }

  /** @internal A submit waits on it. */
  checkWait(): void {
    if (!this.#shared && !this.#signalPending) {
      throw new VulkanStateError(
        'a submit waits on a semaphore with no signal pending: nothing would ever signal it (signal it in an earlier submit, or export it to the API that will)',
      );
    }
  }
  /** @internal A submit signals it. */
  checkSignal(): void {
    if (!this.#shared && this.#signalPending) {
      throw new VulkanStateError('a submit signals a binary semaphore whose previous signal nothing has waited on yet');
    }
  }
  /** @internal The submit went in. */
  waited(): void {
    this.#signalPending = false;
  }
  /** @internal */
  signaled(): void {
    this.#signalPending = true;
  }

  /**
   * Exports the semaphore (vkGetSemaphoreFdKHR / vkGetSemaphoreWin32HandleKHR).
   * 'sync-fd' has copy semantics: it needs a pending signal and consumes it,
   * as a wait would.
   */
  exportHandle(handleType?: VulkanSemaphoreHandleType): VulkanExportedHandle<VulkanSemaphoreHandleType> {
    const native = this.native;
    const type = handleType ?? this.exportTypes[0];
    if (type === undefined) {
      throw new VulkanNotSupportedError(
        'semaphore export',
        this.device.name,
        'this semaphore was created without export types (the device exports none)',
      );
    }
    if (!(type in SEMAPHORE_HANDLE_BITS)) {
      throw new TypeError(
        `handleType must be one of ${Object.keys(SEMAPHORE_HANDLE_BITS)
          .map((t) => `'${t}'`)
          .join(', ')}; got ${String(type)}`,
      );
    }
    if (!this.exportTypes.includes(type)) {
      throw new VulkanNotSupportedError(
        `semaphore export as '${type}'`,
        this.device.name,
        `this semaphore was created exportable as ${this.exportTypes.map((t) => `'${t}'`).join(', ') || 'nothing'} (the device exports ${this.device.semaphoreHandleTypes.map((t) => `'${t}'`).join(', ') || 'none'})`,
      );
    }
    if (type === 'sync-fd' && !this.#shared && !this.#signalPending) {
      throw new VulkanStateError("a 'sync-fd' export needs a pending signal: submit one that signals this semaphore first");
    }
    const handle = native.exportHandle(SEMAPHORE_HANDLE_BITS[type]);
    if (type === 'sync-fd') this.#signalPending = false;
    else this.#shared = true;
    return new VulkanExportedHandle(type, handle, 0, false);
  }
}
