// External handles, shared by external memory and semaphores: the checks of
// an import's handle object (kind, open descriptor, not a plain file or a
// pipe), the handle-type queries, and who owns a descriptor through an
// import (importWithOwnership: the driver always gets a duplicate).
import { type Stats, fstatSync, readlinkSync, statSync } from 'node:fs';
import { OpenCLError, OpenCLReleasedError, describeValue } from '../errors';
import { STATUS } from '../facts/cl-status';
import { decode } from '../info';
import { closeFd, duplicateFd, isOpenFd } from '../os-handle';
import type { ExternalHandleTypeRecord } from './extensions';
import { OpenCLImportError } from './external-errors';

/**
 * How an exporter laid an image out: 'linear' (rows at a pitch) or 'optimal'
 * (the GPU's own tiling, as Vulkan's VK_IMAGE_TILING_OPTIMAL).
 */
export type ExporterTiling = 'linear' | 'optimal';

/** @internal Names of the handle types a query's tokens stand for (unknown tokens as 0x hex). */
export function handleTypeNames(tokens: readonly number[], table: Readonly<Record<string, ExternalHandleTypeRecord>>): string[] {
  return tokens.map((token) => Object.keys(table).find((name) => table[name]!.token === token) ?? `0x${token.toString(16)}`);
}

/** @internal A uint-list query that a device without the extension answers with CL_INVALID_VALUE: then []. */
export function optionalUints(query: () => Uint8Array): number[] {
  try {
    return decode.uints(query());
  } catch (error) {
    if (error instanceof OpenCLError && error.status === STATUS.CL_INVALID_VALUE) return [];
    throw error;
  }
}

/** @internal A checked handle: its record and the value the property list carries. */
export interface CheckedHandle<T extends string> {
  handleType: T;
  record: ExternalHandleTypeRecord;
  value: number | bigint | string;
  source: { relinquish?(): void };
  /** The argument's name in errors. */
  what: string;
  /** The handle object's size and tiling, read with the rest (each property is read once). */
  size: unknown;
  tiling: unknown;
}

/** What each file-descriptor handle type is, for the message that refuses something else. */
const expectedExports: Readonly<Record<string, string>> = {
  cl_khr_external_memory_opaque_fd:
    "memory exported as an opaque fd (vkGetMemoryFdKHR with VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT, e.g. a VulkanBuffer's or VulkanImage's exportMemory())",
  cl_khr_external_memory_dma_buf:
    "an exported DMA-BUF (vkGetMemoryFdKHR with VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT, a VA surface's exportDmaBuf(), a DRM PRIME export)",
  cl_khr_external_semaphore_opaque_fd:
    "a semaphore exported as an opaque fd (vkGetSemaphoreFdKHR with VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT, a VulkanSemaphore's exportHandle('opaque-fd'), an OpenCL semaphore's exportHandle())",
  cl_khr_external_semaphore_sync_fd:
    "a sync file (vkGetSemaphoreFdKHR with VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_SYNC_FD_BIT, a semaphore's exportHandle('sync-fd')), or -1 for a fence already signaled",
};

/**
 * @internal What an open descriptor is when that rules out an exported
 * handle (a pipe, a socket, a directory, a file with a name in the file
 * system), else undefined. Exports are memfds (lavapipe, the reference
 * driver: regular files with no name), DMA-BUFs and sync files (anonymous
 * inodes) or device files: those, and whatever cannot be told, go to the
 * driver.
 */
export function notAnExport(fd: number): string | undefined {
  let stat: Stats;
  try {
    stat = fstatSync(fd);
  } catch {
    return undefined;
  }
  if (stat.isFIFO()) return 'a pipe or FIFO';
  if (stat.isSocket()) return 'a socket';
  if (stat.isDirectory()) return 'a directory';
  if (stat.isBlockDevice()) return 'a block device';
  if (!stat.isFile()) return undefined;
  let path: string;
  try {
    path = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
  // A memfd reads "/memfd:NAME (deleted)" and a DMA-BUF "/dmabuf:...": no such path exists.
  if (!path.startsWith('/')) return undefined;
  try {
    const named = statSync(path);
    if (named.dev === stat.dev && named.ino === stat.ino) return `the regular file ${path}`;
  } catch {
    // no file of that name: not a plain file
  }
  return undefined;
}

/** @internal Checks an import's handle object against a handle-type table. Each of its properties is read once. */
export function checkHandle<T extends string>(handle: unknown, table: Readonly<Record<T, ExternalHandleTypeRecord>>, what: string): CheckedHandle<T> {
  if (handle === null || typeof handle !== 'object')
    throw new TypeError(`${what} must be an object { handleType, handle }; got ${describeValue(handle)}`);
  const {
    handleType,
    handle: value,
    disposed,
    size,
    tiling,
  } = handle as { handleType?: unknown; handle?: unknown; disposed?: unknown; size?: unknown; tiling?: unknown };
  if (typeof handleType !== 'string' || !Object.hasOwn(table, handleType)) {
    throw new TypeError(`${what}.handleType must be one of ${Object.keys(table).join(', ')}; got ${describeValue(handleType)}`);
  }
  if (disposed === true) throw new OpenCLReleasedError(`${handleType} handle (its exporter was disposed)`);
  const record = table[handleType as T];
  switch (record.handle) {
    case 'fd': {
      // sync-fd alone takes -1 (an already signaled fence): the semaphore facade checks that.
      if (typeof value !== 'number' || !Number.isInteger(value) || value < -1 || value > 0x7fffffff) {
        throw new TypeError(`${what}.handle of ${handleType} must be a file descriptor (an integer); got ${describeValue(value)}`);
      }
      if (value < 0) break;
      // A descriptor that is not open never reaches a driver (which would take whatever opens under that number next).
      if (!isOpenFd(value)) throw new TypeError(`${what}.handle: file descriptor ${value} (${handleType}) is not open`);
      // What the driver would refuse with a status of its own (NVIDIA: 999) or take as memory it is not.
      const kind = notAnExport(value);
      if (kind !== undefined) {
        throw new TypeError(
          `${what}.handle: file descriptor ${value} is ${kind}, not an exported ${handleType} handle; expected ${expectedExports[record.extension] ?? `a ${handleType} descriptor from the exporting API`}`,
        );
      }
      break;
    }
    case 'nt':
    case 'kmt':
      if (typeof value !== 'bigint' || value <= 0n || value >= 2n ** 64n) {
        throw new TypeError(`${what}.handle of ${handleType} must be a non-zero HANDLE as a bigint; got ${describeValue(value)}`);
      }
      break;
    case 'name':
      if (typeof value !== 'string' || value === '' || value.includes('\0')) {
        throw new TypeError(`${what}.handle of ${handleType} must be the object's name (a non-empty string); got ${describeValue(value)}`);
      }
      break;
  }
  return {
    handleType: handleType as T,
    record,
    value: value as number | bigint | string,
    source: handle as { relinquish?(): void },
    what,
    size,
    tiling,
  };
}

/** The import's error, as an OpenCLImportError where the driver refused the handle (`bytes`: a buffer import's size). */
function refusedHandle(error: unknown, checked: CheckedHandle<string>, bytes?: number): unknown {
  if (!(error instanceof OpenCLError) || error instanceof OpenCLImportError) return error;
  if (error.status <= 0 && error.status !== STATUS.CL_INVALID_PROPERTY) return error;
  const handle =
    checked.record.handle === 'fd'
      ? `file descriptor ${checked.value}`
      : checked.record.handle === 'name'
        ? `the name "${checked.value}"`
        : `HANDLE 0x${(checked.value as bigint).toString(16)}`;
  return new OpenCLImportError(
    error.status,
    error.call,
    checked.handleType,
    handle,
    expectedExports[checked.record.extension] ?? `a ${checked.handleType} handle`,
    bytes,
  );
}

/**
 * @internal Runs an import with the handle's ownership rules. A descriptor
 * is never handed to the driver itself: drivers close the one they take at
 * different times (NVIDIA's at the import, the reference driver's when the
 * object goes), so the number would be free, or not, depending on the
 * driver, and a second import of it would close whatever was opened under it
 * meanwhile. The driver gets a duplicate; after a
 * successful import that takes the caller's descriptor (no `duplicate`),
 * the caller's is closed here, once, and the exporter's relinquish() runs.
 * A failed import closes the duplicate and leaves the caller's open.
 */
export function importWithOwnership<R, W>(
  checked: CheckedHandle<string>,
  duplicate: boolean,
  run: (value: number | bigint | string) => R,
  adopt: (native: R) => W,
  bytes?: number,
): W {
  const fd = checked.record.handle === 'fd' && (checked.value as number) >= 0;
  // A sync fd is consumed by the wait it is imported for: the driver takes it as it is.
  const viaCopy = fd && checked.record.extension !== 'cl_khr_external_semaphore_sync_fd';
  const value = viaCopy ? duplicateOpen(checked) : checked.value;
  let result: R;
  try {
    result = run(value);
  } catch (error) {
    if (viaCopy) closeFd(value as number);
    throw refusedHandle(error, checked, bytes);
  }
  const wrapper = adopt(result);
  if (!duplicate && checked.record.ownership === 'transferred') {
    if (viaCopy) closeFd(checked.value as number);
    const relinquish = checked.source.relinquish;
    if (typeof relinquish === 'function') relinquish.call(checked.source);
  }
  return wrapper;
}

/**
 * A duplicate of the checked descriptor. One closed since its check (by a
 * getter of the options, or by another thread when the number was reused) is
 * refused as the check refuses it, not with fcntl's EBADF.
 */
function duplicateOpen(checked: CheckedHandle<string>): number {
  const fd = checked.value as number;
  try {
    return duplicateFd(fd);
  } catch (error) {
    if (isOpenFd(fd)) throw error;
    throw new TypeError(`${checked.what}.handle: file descriptor ${fd} (${checked.handleType}) is not open (it was closed during the import)`);
  }
}
