// Host memory and what transfers accept as host memory.
//
// The driver reads or writes the host side of a non-blocking transfer after
// the call returns, on its own threads. JavaScript memory cannot be lent for
// that long: a worker that ends frees its heap, an ArrayBuffer can be
// transferred, detached or resized, and none of that waits for the driver.
// So the binding lends the driver only memory it owns:
//   - blocking transfers use the caller's memory directly (no JavaScript runs
//     until the driver is done with it);
//   - non-blocking transfers of JavaScript memory are staged: a write copies
//     the bytes at enqueue, a read lands in a staging block that is copied
//     into the target when the command is seen to complete;
//   - HostMemory is memory the binding allocates: non-blocking transfers use
//     it in place (zero copy), and each command in flight keeps it alive.
import { constants as bufferConstants } from 'node:buffer';
import type { NativeHostBlock } from './addon';
import { OpenCLReleasedError, describeValue } from './errors';
import { NativeHolder } from './holder';
import { isDetached } from './memory';
import { checkCount } from './validate';
import { ready } from './loader';

/**
 * Page-aligned host memory owned by the binding. Transfers use it without
 * copying, blocking or not; commands in flight keep it alive, so releasing it,
 * ending the worker that made it, or dropping it never frees memory the
 * driver still uses. It says release() and released, as the OpenCL objects
 * do; dispose() and disposed (of its base) are the same.
 */
export class HostMemory extends NativeHolder<NativeHostBlock> {
  readonly size: number;
  #buffer?: ArrayBuffer;

  /** @internal */
  constructor(native: NativeHostBlock) {
    super(native);
    this.size = native.size;
  }

  /** @internal */
  protected disposedError(): Error {
    return new OpenCLReleasedError('HostMemory');
  }

  get released(): boolean {
    return this.disposed;
  }

  /** The memory as an ArrayBuffer (the same one each time). Views stay valid as long as they are referenced. */
  get buffer(): ArrayBuffer {
    if (this.#buffer) return this.#buffer;
    if (this.size > bufferConstants.MAX_LENGTH)
      throw new RangeError(
        `HostMemory of ${this.size} bytes has no ArrayBuffer: one holds at most ${bufferConstants.MAX_LENGTH} bytes here (buffer.constants.MAX_LENGTH); transfers take the memory whole`,
      );
    this.#buffer = this.native.arrayBuffer();
    return this.#buffer;
  }

  /** A Uint8Array over the whole memory. */
  bytes(): Uint8Array {
    return new Uint8Array(this.buffer);
  }

  /** Drops this object's hold; the memory goes once no command and no view uses it. Idempotent. */
  release(): void {
    this.dispose();
  }
}

/** Host memory the binding owns, for zero-copy non-blocking transfers. */
export function allocateHostMemory(size: number): HostMemory {
  checkCount(size, 'size', 1);
  return new HostMemory(ready().allocateHostBlock(size, true));
}

/** What transfers take as host memory. */
export type HostData = ArrayBufferView | ArrayBuffer | SharedArrayBuffer | HostMemory;

/** @internal Host memory checked and normalized: a HostMemory, or a view of JS memory. */
export type CheckedHost = { kind: 'owned'; memory: HostMemory; byteLength: number } | { kind: 'js'; view: ArrayBufferView; byteLength: number };

/** @internal Validates host memory for a transfer; `what` names the argument in errors. */
export function checkHost(host: unknown, what: string): CheckedHost {
  if (host instanceof HostMemory) {
    if (host.released) throw new OpenCLReleasedError(`HostMemory (${what})`);
    return { kind: 'owned', memory: host, byteLength: host.size };
  }
  let view: ArrayBufferView;
  if (ArrayBuffer.isView(host)) view = host;
  else if (host instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && host instanceof SharedArrayBuffer)) {
    view = new Uint8Array(host);
  } else {
    throw new TypeError(`${what} must be a typed array, DataView, ArrayBuffer, SharedArrayBuffer or HostMemory; got ${describeValue(host)}`);
  }
  if (view.buffer instanceof ArrayBuffer && isDetached(view.buffer))
    throw new TypeError(`${what} is detached (its ArrayBuffer was transferred); it has no memory to use`);
  return { kind: 'js', view, byteLength: view.byteLength };
}
