// Exported handles: a file descriptor (Linux) or a Win32 handle (Windows) that
// an export made. The object owns the handle until an importer takes it over
// (relinquish()) or it is disposed; garbage collection closes one forgotten
// (the rule of lib/os-handle.ts, which every owner of a handle follows).
import { closeOwned, ownHandle, relinquishOwned } from '../os-handle';
import { VulkanDisposedError } from './errors';

/** How memory is exported: an opaque fd, a DMA-BUF fd (Linux), an NT handle or a KMT handle (Windows). */
export type VulkanMemoryHandleType = 'opaque-fd' | 'dma-buf' | 'opaque-win32' | 'opaque-win32-kmt';
/** How a semaphore is exported: the memory kinds' opaque ones, or a sync fd (a Linux sync_file). */
export type VulkanSemaphoreHandleType = 'opaque-fd' | 'opaque-win32' | 'opaque-win32-kmt' | 'sync-fd';

/** @internal VkExternalMemoryHandleTypeFlagBits */
export const MEMORY_HANDLE_BITS: Readonly<Record<VulkanMemoryHandleType, number>> = {
  'opaque-fd': 0x1,
  'opaque-win32': 0x2,
  'opaque-win32-kmt': 0x4,
  'dma-buf': 0x200,
};
/** @internal VkExternalSemaphoreHandleTypeFlagBits */
export const SEMAPHORE_HANDLE_BITS: Readonly<Record<VulkanSemaphoreHandleType, number>> = {
  'opaque-fd': 0x1,
  'opaque-win32': 0x2,
  'opaque-win32-kmt': 0x4,
  'sync-fd': 0x10,
};

/** @internal The names of the bits set in `mask`. */
export function handleTypeNames<T extends string>(bits: Readonly<Record<T, number>>, mask: number): T[] {
  return (Object.keys(bits) as T[]).filter((name) => (mask & bits[name]) !== 0);
}

/**
 * A handle an export made, as the OpenCL import side (lib/interop) takes it:
 * `{ handleType, handle, size, relinquish(), dispose() }`. It owns the handle:
 * dispose() (or `using`, or garbage collection) closes it, unless an importer
 * took it over with relinquish().
 */
export class VulkanExportedHandle<T extends string = VulkanMemoryHandleType | VulkanSemaphoreHandleType> {
  /** The handle type. */
  readonly handleType: T;
  /** The file descriptor (number) or HANDLE (bigint). */
  readonly handle: number | bigint;
  /** Memory: bytes of the allocation (VkMemoryRequirements.size); semaphores: 0. */
  readonly size: number;
  /** Memory: whether the allocation is dedicated to its buffer or image (importers that care must say so). */
  readonly dedicated: boolean;
  /** Memory of an image: its tiling (importers check it against how their driver reads imported images); otherwise undefined. */
  readonly tiling?: 'linear' | 'optimal';
  #owned = true;
  #disposed = false;

  /** @internal */
  constructor(handleType: T, handle: number | bigint, size: number, dedicated: boolean, tiling?: 'linear' | 'optimal') {
    this.handleType = handleType;
    this.handle = handle;
    this.size = size;
    this.dedicated = dedicated;
    if (tiling !== undefined) this.tiling = tiling;
    ownHandle(this, handle, handleType);
  }

  /** True once dispose() or relinquish() ran. */
  get disposed(): boolean {
    return this.#disposed;
  }

  /** True while this object still owns (and will close) the handle. */
  get owned(): boolean {
    return this.#owned;
  }

  /**
   * Called by an importer after an import that took ownership of the handle:
   * afterwards this object never closes it. Throws once disposed.
   */
  relinquish(): void {
    if (this.#disposed)
      throw new VulkanDisposedError('exported handle', this.#owned ? 'was disposed: its handle is closed' : 'was relinquished already');
    this.#owned = false;
    this.#disposed = true;
    relinquishOwned(this);
  }

  /** Closes the handle if this object still owns it. Idempotent; never throws. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    if (!this.#owned) return;
    this.#owned = false;
    closeOwned(this, this.handle, this.handleType);
  }

  [Symbol.dispose](): void {
    this.dispose();
  }
}
