// The operating system's handles the binding owns or hands on (twin of
// native/os_handle.cc): POSIX file descriptors and Windows HANDLEs, closed
// natively, and the one rule for an object that owns one (an exported
// memory or semaphore handle, a handle received from another process).
import { fstatSync } from 'node:fs';
import { nativeAddon } from './native-addon';

/** A file descriptor (number) or a Windows HANDLE (bigint). */
export type OsHandle = number | bigint;

/** @internal close(fd): false when it was not open. Natively: fs.closeSync warns in a worker about descriptors fs did not open there. */
export function closeFd(fd: number): boolean {
  return nativeAddon().closeFd(fd);
}

/** @internal fcntl(F_DUPFD_CLOEXEC): another descriptor of the same open file. */
export function duplicateFd(fd: number): number {
  return nativeAddon().duplicateFd(fd);
}

/** @internal Whether the number names an open descriptor of this process. */
export function isOpenFd(fd: number): boolean {
  if (process.platform !== 'win32') return nativeAddon().isOpenFd(fd);
  // The C runtime's descriptors: fstat through libuv, which asks without tripping the CRT's invalid-parameter handler.
  try {
    fstatSync(fd);
    return true;
  } catch {
    return false;
  }
}

/**
 * @internal Closes a descriptor or a Windows HANDLE. Never throws: one
 * already closed (behind the owner's back) is no error, and a negative
 * descriptor (sync-fd's -1, a fence already signaled) is none.
 */
export function closeOsHandle(handle: OsHandle): void {
  try {
    if (typeof handle === 'number') {
      if (handle >= 0) nativeAddon().closeFd(handle);
    } else {
      nativeAddon().closeHandle(handle);
    }
  } catch {
    // the environment is going away, or nothing of the kind exists here
  }
}

/**
 * Whether a handle of this type is the process's to close: a KMT handle
 * (opaque-win32-kmt) is a global name that holds no reference, so nothing
 * closes it; every other handle type is a descriptor or an NT handle.
 */
export function closesHandleType(handleType: string): boolean {
  return handleType !== 'opaque-win32-kmt';
}

// The rule for every object that owns a handle: close() / dispose() (or
// `using`) closes it, an importer that took it calls relinquish(), and
// garbage collection closes one nobody closed or handed over.
const forgotten = new FinalizationRegistry<OsHandle>(closeOsHandle);

/**
 * @internal `owner` now owns `handle` (of `handleType`): garbage collection
 * closes it unless closeOwned() or relinquishOwned() ran first, and the owner
 * is not cloneable to another thread (refuseCloning).
 */
export function ownHandle(owner: object, handle: OsHandle, handleType: string): void {
  if (!closesHandleType(handleType) || (typeof handle === 'number' && handle < 0)) return;
  forgotten.register(owner, handle, owner);
  const name = owner.constructor.name;
  const what = typeof handle === 'number' ? `file descriptor ${handle}` : `handle 0x${handle.toString(16)}`;
  refuseCloning(
    owner,
    `${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name} owns ${what}: use it in this thread${'relinquish' in owner ? ', or relinquish() it and post { handleType, handle, ... } (the other thread then owns it)' : ''}`,
  );
}

/** @internal The owner closes its handle now (once: the caller makes it idempotent). */
export function closeOwned(owner: object, handle: OsHandle, handleType: string): void {
  forgotten.unregister(owner);
  if (closesHandleType(handleType)) closeOsHandle(handle);
}

/** @internal Another API took the owner's handle: closing it is that API's business now. */
export function relinquishOwned(owner: object): void {
  forgotten.unregister(owner);
}

/**
 * @internal Makes structuredClone() and postMessage() of `target` (and of a
 * spread copy of it) throw a DataCloneError whose message carries `why`: an
 * object that owns a descriptor cloned to another thread would be a second
 * owner of the same number, and each would close it (the second close then
 * closes whatever file took the number in between). The value is a symbol
 * (HTML StructuredSerialize refuses symbols) in an enumerable own property
 * named `cloning`: the serialiser reads every enumerable own property.
 */
export function refuseCloning(target: object, why: string): void {
  if (Object.hasOwn(target, 'cloning')) return; // an owner of several handles: the first one says it
  Object.defineProperty(target, 'cloning', { value: Symbol(`refused: ${why}`), enumerable: true });
}

/**
 * An object that owns one handle (a file descriptor or a Windows HANDLE) of
 * a handle type: the rule above as a class. dispose() (or `using`, or
 * garbage collection) closes the handle, unless an importer took it over
 * with relinquish(); it is not cloneable to another thread. The exported
 * handles of the Vulkan module and of OpenCL's semaphores, and the handles
 * received from another process, are its subclasses.
 */
export abstract class OwnedHandle<T extends string = string> {
  /** The handle type. */
  readonly handleType: T;
  /** The file descriptor (number) or HANDLE (bigint). */
  readonly handle: OsHandle;
  #owned = true;
  #disposed = false;
  #relinquished = false;

  /** @internal The subclass calls own() once its own fields are set. */
  protected constructor(handleType: T, handle: OsHandle) {
    this.handleType = handleType;
    this.handle = handle;
  }

  /** @internal This object owns its handle from here on (see ownHandle). */
  protected own(): void {
    ownHandle(this, this.handle, this.handleType);
  }

  /** @internal The error relinquish() throws once the handle is gone: `relinquished` when an importer took it, else it was closed. */
  protected abstract gone(relinquished: boolean): Error;

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
   * afterwards this object never closes it. Throws once disposed or
   * relinquished (its number may name another file by then).
   */
  relinquish(): void {
    if (this.#disposed) throw this.gone(this.#relinquished);
    this.#owned = false;
    this.#disposed = true;
    this.#relinquished = true;
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
