// Lifetime base of the objects that are not OpenCL's (the Vulkan, Direct3D
// and VA objects, HostMemory): one native wrapper held until dispose(),
// `using` support, and the area's own error on a use after dispose(). The
// native wrapper's finalizer is the safety net for one never disposed. The
// OpenCL objects' base is lib/resource.ts (release(), a handle, a slot).

/** What a holder holds: a native wrapper whose release() drops its reference. */
export interface Releasable {
  release(): void;
}

export abstract class NativeHolder<N extends Releasable> {
  #native: N | null;

  /** @internal */
  constructor(native: N) {
    this.#native = native;
  }

  /** @internal The error a use after dispose() throws: the area's own (VulkanDisposedError, OpenCLReleasedError, ...). */
  protected abstract disposedError(): Error;

  /** @internal The native wrapper; throws disposedError() once disposed. */
  get native(): N {
    if (this.#native === null) throw this.disposedError();
    return this.#native;
  }

  /** True once dispose() has run. */
  get disposed(): boolean {
    return this.#native === null;
  }

  /**
   * Lets go of the native object. Idempotent; never throws. What still needs
   * it (children, OpenCL objects made from it, work in flight) keeps it alive
   * natively.
   */
  dispose(): void {
    const native = this.#native;
    if (native === null) return;
    this.#native = null;
    native.release();
  }

  [Symbol.dispose](): void {
    this.dispose();
  }
}
