// What every object of the Direct3D module shares: the native side (Windows
// only, else Direct3DUnavailableError), the lifetime (dispose(), `using`,
// the native wrapper's finalizer as the safety net; a child holds its parent
// natively, so a disposed device's textures keep working), the COM pointer
// the sharing facades take (`comPointer`) and shared handles (bigint, the
// bytes Electron hands out, or a SharedHandle this module created). Argument
// checks are lib/validate.ts's.
import type { NativeComObject, NativeDirect3D } from './native-types';
import { nativeAddon } from '../native-addon';
import { OpenCLReleasedError, describeValue } from '../errors';
import { NativeHolder } from '../holder';
import { closeOsHandle } from '../os-handle';
import { settleAddress } from '../sharing-hooks';
import { Direct3DUnavailableError } from './errors';

let installed: NativeDirect3D | undefined;

/** @internal The native Direct3D functions; `call` names the public function for the error where there are none. */
export function direct3dNative(call: string): NativeDirect3D {
  if (installed) return installed;
  if (process.platform !== 'win32') throw new Direct3DUnavailableError(call);
  const native = nativeAddon().direct3d;
  if (!native) {
    throw new Direct3DUnavailableError(call, `${call}(): this build of the opencl-interop addon has no Direct3D module (rebuild it on Windows)`);
  }
  installed = native;
  return native;
}

/**
 * @internal Throws Direct3DUnavailableError off Windows: every entry of the
 * module that needs Direct3D starts here (its classes too, so that none
 * makes an inert object).
 */
export function requireWindows(call: string): void {
  if (process.platform !== 'win32') throw new Direct3DUnavailableError(call);
}

/**
 * Base of every Direct3D object of the module: one COM reference, dropped by
 * dispose() or by garbage collection.
 * dispose() drops this object's reference; what still needs the object keeps
 * it alive: its textures and surfaces hold a device, an OpenCL context or
 * memory object made from it holds its own reference.
 */
export abstract class Direct3DObject extends NativeHolder<NativeComObject> {
  /** @internal */
  constructor(native: NativeComObject) {
    super(native);
    requireWindows(`new ${new.target.name}`);
  }

  /** @internal */
  protected disposedError(): Error {
    return new OpenCLReleasedError(this.kind);
  }

  /** The object's kind, e.g. 'D3D11Texture2D'. */
  abstract get kind(): string;

  /**
   * The COM interface pointer (ID3D11Texture2D*, IDirect3DDevice9Ex*, ...) as a
   * bigint: what the sharing facades and other native libraries take. Valid
   * while this object is not disposed (OpenCLReleasedError after).
   */
  get comPointer(): bigint {
    return this.native.address;
  }

  /**
   * @internal Before a host read or write: refused while an OpenCL memory
   * object made from this resource is acquired; a release in flight is
   * waited for (see HostAccessGuard).
   */
  settleOpenCL(call: string): void {
    settleAddress(this.comPointer, `${this.kind}.${call}`);
  }
}

/** An IDXGIAdapter (for cl_khr_d3d11_sharing / cl_khr_d3d10_sharing device queries by adapter). */
export class DxgiAdapter extends Direct3DObject {
  get kind(): string {
    return 'DXGIAdapter';
  }
}

// ------------------------------------------------------- shared handles ----

/** A shared handle as the module takes it: a bigint, its bytes (Electron's `textureInfo.handle.ntHandle` Buffer), or a SharedHandle. */
export type SharedHandleInput = bigint | Uint8Array | SharedHandle;

/**
 * An NT handle this module created (IDXGIResource1::CreateSharedHandle). It
 * is this process's to close: dispose() closes it (CloseHandle); a resource
 * opened from it does not need it any more.
 */
export class SharedHandle {
  #handle: bigint | null;
  /** @internal */
  constructor(handle: bigint) {
    requireWindows('new SharedHandle');
    this.#handle = handle;
  }

  /** The HANDLE value. OpenCLReleasedError once closed. */
  get handle(): bigint {
    if (this.#handle === null) throw new OpenCLReleasedError('SharedHandle');
    return this.#handle;
  }

  /**
   * The HANDLE as 8 little-endian bytes: the form Electron's offscreen `paint`
   * event gives it (`texture.textureInfo.handle.ntHandle`, a Buffer).
   */
  toBytes(): Uint8Array {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setBigUint64(0, this.handle, true);
    return bytes;
  }

  get disposed(): boolean {
    return this.#handle === null;
  }

  /** Closes the handle. Idempotent; never throws. */
  dispose(): void {
    const handle = this.#handle;
    if (handle === null) return;
    this.#handle = null;
    closeOsHandle(handle);
  }

  [Symbol.dispose](): void {
    this.dispose();
  }
}

/** @internal A handle value from what the caller passed: non-zero, pointer-sized. */
export function handleValue(value: unknown, what: string): bigint {
  let handle: bigint;
  if (value instanceof SharedHandle) handle = value.handle;
  else if (typeof value === 'bigint') handle = value;
  else if (value instanceof Uint8Array && (value.byteLength === 8 || value.byteLength === 4)) {
    const view = new DataView(value.buffer, value.byteOffset, value.byteLength);
    handle = value.byteLength === 8 ? view.getBigUint64(0, true) : BigInt(view.getUint32(0, true));
  } else {
    throw new TypeError(
      `${what} must be a bigint, the handle's 8 (or 4) little-endian bytes (a Buffer, as Electron gives it) or a SharedHandle; got ${describeValue(value)}` +
        (value instanceof Uint8Array ? ` of ${value.byteLength} bytes` : ''),
    );
  }
  if (handle <= 0n || handle >= 2n ** 64n) throw new RangeError(`${what} must be a non-zero handle; got ${handle}`);
  return handle;
}
