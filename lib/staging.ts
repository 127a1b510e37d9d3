// Staging copies: how a transfer's host memory reaches the driver. JavaScript
// memory is lent directly only to blocking calls (lib/host-memory.ts says
// why); a non-blocking write copies it into a staging block now, and a
// non-blocking read lands in one and is copied into its target when the
// command is seen to end. HostMemory is used in place. The native side keeps
// each staging block until its command has ended (native/host_memory.cc,
// HeldTransfers).
import type { EventId, NativeHostBlock } from './addon';
import { CL } from './facts/cl-constants';
import { describeValue } from './errors';
import type { EnqueueOptions, Event, EventHandle } from './event';
import type { CheckedHost } from './host-memory';
import type { QueueLink } from './links';

export interface TransferOptions extends EnqueueOptions {
  /**
   * Block until the transfer is done (the caller's memory is used directly).
   * Default false: JavaScript memory is staged (a write copies it now; a read
   * fills the target when the command is seen to complete: await the event,
   * or a later finish()), and HostMemory is used in place.
   */
  blocking?: boolean;
}

/** A transfer's native call: blocking or not, with the host memory to hand the driver. */
export type RunTransfer = (blocking: boolean, memory: ArrayBufferView | NativeHostBlock, waitList: EventId[] | undefined) => EventId;

/**
 * A read whose bytes land in a staging block first; copied into the target when the command is seen to end: by its
 * Event's end, or by the queue's settle() after a finish or a blocking wait. The read borrows its Event's id
 * (EventHandle.lend), so that settle() can ask the command's status after the caller released the Event.
 */
class StagedRead {
  #block: NativeHostBlock | null;
  /** The borrowed id; none where the queue had already retired the ended command's event (its status is cached). */
  readonly #handle: EventHandle | undefined;
  /** Why the bytes were dropped, for whichever of the two ends comes second. */
  #error: Error | undefined;
  constructor(
    block: NativeHostBlock,
    readonly target: ArrayBufferView,
    readonly event: Event,
  ) {
    this.#block = block;
    const handle = event.handleGone ? undefined : event.native;
    handle?.lend();
    this.#handle = handle;
  }
  /** The command's status now: the Event's while the caller holds it or once it was seen to end, else the borrowed id's. */
  status(): number {
    const event = this.event;
    return event.released && !event.seenEnded ? this.#handle!.status() : event.statusCode();
  }
  /** Idempotent. An error when the target can no longer take the bytes. */
  finish(status: number): Error | undefined {
    const block = this.#block;
    if (!block) return this.#error;
    this.#block = null;
    this.#handle?.giveBack();
    const copied = status === CL.CL_COMPLETE ? block.copyTo(this.target) : true;
    block.release();
    if (!copied) this.#error = new TypeError('the read completed, but its target was detached or shrunk meanwhile: the bytes were dropped');
    return this.#error;
  }
}

/** @internal One queue's transfers of host memory, and its staged reads whose bytes have not reached their targets yet. */
export class StagedTransfers {
  readonly #queue: QueueLink;
  readonly #reads = new Set<StagedRead>();

  constructor(queue: QueueLink) {
    this.#queue = queue;
  }

  /** Staged reads whose bytes have not reached their target yet. */
  get pending(): number {
    return this.#reads.size;
  }

  /** Enqueues a transfer of `bytes` bytes of checked host memory through `run`. */
  transfer(call: string, direction: 'read' | 'write', host: CheckedHost, bytes: number, options: TransferOptions, run: RunTransfer): Event {
    if (options.blocking !== undefined && typeof options.blocking !== 'boolean') {
      throw new TypeError(`options.blocking must be a boolean; got ${describeValue(options.blocking)}`);
    }
    const queue = this.#queue;
    const blocking = options.blocking === true;
    if (host.kind === 'owned') {
      const block = host.memory.native;
      return queue.submit({ call, waitFor: options.waitFor, blocking }, (waitList) => run(blocking, block, waitList));
    }
    if (blocking) {
      const event = queue.submit({ call, waitFor: options.waitFor, blocking }, (waitList) => run(true, host.view, waitList));
      this.settle();
      return event;
    }
    const addon = queue.context.addon;
    const block = direction === 'write' ? addon.stageHostBlock(host.view, bytes) : addon.allocateHostBlock(bytes, false);
    let event: Event;
    try {
      event = queue.submit({ call, waitFor: options.waitFor }, (waitList) => run(false, block, waitList));
    } catch (error) {
      block.release();
      throw error;
    }
    if (direction === 'write') {
      block.release(); // the command holds its own reference until it ends
      return event;
    }
    const read = new StagedRead(block, host.view, event);
    this.#reads.add(read);
    event.onEnd = (status) => {
      this.#reads.delete(read);
      return read.finish(status);
    };
    event.completed.catch(() => {}); // watched so the bytes arrive; errors belong to whoever awaits
    return event;
  }

  /** Copies the bytes of staged reads whose commands have ended into their targets (after blocking waits, which no callback precedes). */
  settle(): void {
    for (const read of this.#reads) {
      let status: number;
      try {
        status = read.status();
      } catch {
        continue;
      }
      if (status > CL.CL_COMPLETE) continue;
      this.#reads.delete(read);
      read.finish(status);
    }
  }
}
