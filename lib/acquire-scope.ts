// What queue.acquire() returns: shared objects (made from a Direct3D or VA-API
// resource, or imported external memory) acquired for OpenCL through their
// extensions' entry points (reached through lib/sharing-hooks.ts), and the
// release that gives them back.
import type { EnqueueOptions, Event } from './event';
import { OpenCLStateError } from './errors';
import type { QueueLink } from './links';
import type { MemObject } from './memory';
import { enqueueShared } from './sharing-hooks';

/**
 * Objects acquired by queue.acquire(). release() gives them back.
 * `await using scope = queue.acquire(...)` enqueues the release at the end of
 * the block and waits for it, so the other API's code after the block (Direct3D,
 * VA-API, Vulkan, ...) sees what OpenCL wrote. Plain `using` only enqueues (and flushes) the release.
 */
export class AcquireScope {
  readonly queue: QueueLink;
  readonly objects: readonly MemObject[];
  /** The acquire command's event (one marker when several extensions are involved). */
  readonly event: Event;
  #released = false;

  /** @internal */
  constructor(queue: QueueLink, objects: readonly MemObject[], options: EnqueueOptions) {
    this.queue = queue;
    this.objects = Object.freeze([...objects]);
    this.event = enqueueShared('acquire', queue, this.objects, options.waitFor);
  }

  /**
   * True until release() (or dispose), and while the acquire is not known to
   * have failed: a failed acquire acquired nothing, so there is nothing to
   * release. One behind a failed user event is the driver's to fail or to run
   * (NVIDIA runs it): active until the driver has failed it.
   */
  get active(): boolean {
    return !this.#released && this.event.outcome() !== 'failed';
  }

  /** Enqueues the release of every object; later commands on the objects need a new acquire. */
  release(options: EnqueueOptions = {}): Event {
    if (this.#released) throw new OpenCLStateError('this acquire scope was already released');
    const outcome = this.event.outcome();
    if (outcome === 'failed') {
      throw new OpenCLStateError(
        `the acquire of this scope failed: ${this.event.knownFailure()}; its objects were never acquired, so there is nothing to release`,
      );
    }
    if (outcome === 'undecided') {
      throw new OpenCLStateError(
        `the acquire of this scope waits on ${this.event.failedGate()} and has not ended: drivers differ on whether such a command fails or ` +
          'runs (NVIDIA runs it), so whether its objects are acquired is not known yet; await scope.event first',
      );
    }
    const event = enqueueShared('release', this.queue, this.objects, options.waitFor);
    this.#released = true;
    return event;
  }

  /**
   * `using`: enqueues the release (if still active) and flushes; it does not
   * wait for it (the queue lets go of its event once it has ended). Reads and
   * writes through the VA and Direct3D modules wait for it themselves. An
   * acquire behind a failed user event is first waited for, so that the
   * release follows what the driver did with it.
   */
  [Symbol.dispose](): void {
    if (this.#released) return;
    if (this.event.outcome() === 'undecided') settle(this.event);
    if (!this.active) return;
    this.release();
    this.queue.flush();
  }

  /** `await using`: enqueues the release (if still active) and waits until it has completed. */
  async [Symbol.asyncDispose](): Promise<void> {
    if (this.#released) return;
    if (this.event.outcome() === 'undecided') await this.event.then(undefined, () => {});
    if (!this.active) {
      this.#released = true;
      this.event.release();
      return;
    }
    const released = this.release();
    this.queue.flush();
    try {
      await released;
    } finally {
      released.release();
      this.event.release();
    }
  }
}

/** Blocks until a command behind a failed user event has ended, whichever way its driver took: only its own failure is expected. */
function settle(event: Event): void {
  try {
    event.waitSync();
  } catch (error) {
    if (event.outcome() === 'undecided') throw error;
  }
}
