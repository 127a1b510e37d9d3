// Lifetime base of every OpenCL object wrapper: explicit, idempotent release,
// `using` support, and a typed error on any use after release. The native
// object's finalizer releases the handle if the wrapper is garbage-collected.
import type { NativeHandle } from './addon';
import { OpenCLReleasedError } from './errors';

export abstract class Resource<N extends NativeHandle = NativeHandle> {
  #native: N | null;

  /** @internal */
  constructor(native: N) {
    this.#native = native;
  }

  /** The kind of object, for messages ("Context", "CLBuffer", ...). */
  abstract get kind(): string;

  /** True once release() has been called. */
  get released(): boolean {
    return this.#native === null && !this.#retired;
  }

  #retired = false;
  /** What keepAlive() holds; most objects (every event) have none, so no array until then. */
  #dependents?: (() => void)[];

  /** @internal The native object; throws OpenCLReleasedError after release. */
  get native(): N {
    if (this.#native === null) {
      if (this.#retired) throw this.retiredError();
      throw new OpenCLReleasedError(this.kind);
    }
    return this.#native;
  }

  #slot?: number;

  /** @internal The native object's slot (see NativeHandle.slot); throws OpenCLReleasedError after release. */
  get slot(): number {
    const native = this.native;
    return (this.#slot ??= native.slot);
  }

  /** @internal True once the binding let go of the handle on its own (see retire()). */
  protected get retired(): boolean {
    return this.#retired;
  }

  /**
   * @internal Releases the handle while the wrapper stays usable for what it
   * cached; `released` stays false. Idempotent; never throws.
   */
  protected retire(): void {
    const native = this.#native;
    if (native === null) return;
    this.#retired = true;
    this.#native = null;
    native.release();
    const dependents = this.#dependents;
    this.#dependents = undefined;
    if (dependents) for (const letGo of dependents) letGo();
  }

  /** @internal The error for a query that needs the handle after retire(). */
  protected retiredError(): Error {
    return new OpenCLReleasedError(this.kind);
  }

  /** The raw OpenCL handle (cl_context, cl_mem, ...) as a bigint, for other native libraries. */
  get address(): bigint {
    return this.native.address;
  }

  /**
   * Releases this object's reference to the OpenCL object. Idempotent and
   * never throws. Objects the driver still needs (a buffer used by a queued
   * kernel, a context with live children) stay alive inside the driver.
   */
  release(): void {
    const native = this.#native;
    if (native === null) {
      this.#retired = false;
      return;
    }
    try {
      this.beforeRelease();
    } finally {
      this.#native = null;
      native.release();
      const dependents = this.#dependents;
      this.#dependents = undefined;
      if (dependents) for (const letGo of dependents) letGo();
    }
  }

  /**
   * @internal Keeps another library's resource alive for as long as this
   * object: `letGo` runs once this object is released, and `nativeObject`
   * (the resource's native object), if given, is held by this one's native
   * object, so that garbage collection releases the OpenCL object first.
   */
  keepAlive(letGo: () => void, nativeObject?: object): void {
    if (nativeObject) this.native.keep(nativeObject);
    (this.#dependents ??= []).push(letGo);
  }

  [Symbol.dispose](): void {
    this.release();
  }

  /** Hook for subclasses: runs once, just before the handle is released. Must not throw. */
  protected beforeRelease(): void {}
}
