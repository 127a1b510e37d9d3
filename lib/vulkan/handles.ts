// Exported handles: a file descriptor (Linux) or a Win32 handle (Windows) that
// an export made. The object owns the handle until an importer takes it over
// (relinquish()) or it is disposed; garbage collection closes one forgotten
// (lib/os-handle.ts's OwnedHandle, the one rule of every owner of a handle).
import { OwnedHandle } from '../os-handle';
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
 * took it over with relinquish() (which throws VulkanDisposedError once the
 * handle is gone).
 */
export class VulkanExportedHandle<T extends string = VulkanMemoryHandleType | VulkanSemaphoreHandleType> extends OwnedHandle<T> {
  /** Memory: bytes of the allocation (VkMemoryRequirements.size); semaphores: 0. */
  readonly size: number;
  /** Memory: whether the allocation is dedicated to its buffer or image (importers that care must say so). */
  readonly dedicated: boolean;
  /** Memory of an image: its tiling (importers check it against how their driver reads imported images); otherwise undefined. */
  readonly tiling?: 'linear' | 'optimal';

  /** @internal */
  constructor(handleType: T, handle: number | bigint, size: number, dedicated: boolean, tiling?: 'linear' | 'optimal') {
    super(handleType, handle);
    this.size = size;
    this.dedicated = dedicated;
    if (tiling !== undefined) this.tiling = tiling;
    this.own();
  }

  /** @internal */
  protected gone(relinquished: boolean): Error {
    return new VulkanDisposedError('exported handle', relinquished ? 'was relinquished already' : 'was disposed: its handle is closed');
  }
}
