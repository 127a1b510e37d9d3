// User events and the gates they put on later commands, and wait lists: what
// a command waits on, checked before the driver. The event of a command is
// lib/command-event.ts's; statuses and command-type names are
// lib/event-status.ts's. Every event export of the package is reached here.
import type { EventId } from './addon';
import { CL } from './facts/cl-constants';
import { STATUS } from './facts/cl-status';
import { OpenCLError, OpenCLReleasedError, OpenCLStateError, contextMismatch, describeValue } from './errors';
import { ready } from './loader';
import type { ContextLink, QueueLink } from './links';
import { Event, type EventHandle, type Gate, type UserEventState, type Waiter, failedWait, pollUntilEnded, refuseToBlock } from './command-event';
import { type ExecutionStatus, hasFailed } from './event-status';

export {
  type CompletionMechanism,
  type EnqueueOptions,
  Event,
  EventHandle,
  type Gate,
  type ProfilingInfo,
  type UserEventState,
} from './command-event';
export { completionMechanisms } from './command-event';
/** @internal */
export { completionMechanism, refuseToBlock } from './command-event';
export type { ExecutionStatus } from './event-status';
/** @internal */
export { registerCommandTypes } from './event-status';

const noGates: readonly Gate[] = Object.freeze([]);

/**
 * Keeps the event loop alive while promises that will settle are pending
 * (those of commands no longer held back by an unset user event).
 */
const keepAlive = {
  count: 0,
  timer: undefined as ReturnType<typeof setInterval> | undefined,
  hold(promise: Promise<unknown>): void {
    if (this.count++ === 0) this.timer = setInterval(() => {}, 1 << 30);
    const done = () => {
      if (--this.count === 0) clearInterval(this.timer);
    };
    promise.then(done, done);
  },
};

/** User events are not owned by a queue: one collected unreleased is released here. */
const userEventsCollected = new FinalizationRegistry<EventHandle>((handle) => handle.release());

/**
 * @internal The user events a command waiting on `waitFor` (and on `implicit`) is behind: those not set yet (they
 * hold it back) and those that failed (the binding counts it failed: Event.failedInView).
 */
export function gatesOf(waitFor: readonly Event[] | undefined, implicit: readonly Gate[] = noGates): readonly Gate[] {
  let gates: Gate[] | undefined;
  const add = (gate: Gate) => {
    if (gate.state !== 'complete' && !gates?.includes(gate)) (gates ??= []).push(gate);
  };
  if (waitFor) {
    for (const event of waitFor) {
      if (event instanceof UserEvent) add(event);
      else if (event.gates.length) {
        // A failed gate is inherited from a command the binding counts failed, not from one that follows its driver.
        const inheritsFailed = event.failedInView() !== undefined;
        for (const gate of event.gates) if (gate.state === 'unset' || inheritsFailed) add(gate);
      }
    }
  }
  for (const gate of implicit) add(gate);
  return gates ?? noGates;
}

/** @internal Links a new command's event to the unset user events it waits on. */
export function gateOn<E extends Event>(event: E, gates: readonly Gate[]): E {
  if (gates.length === 0) return event;
  event.gates = gates;
  for (const gate of gates) gate.gate(event);
  return event;
}

/** An event the application completes itself (clCreateUserEvent). */
export class UserEvent extends Event implements Gate {
  #state: UserEventState = 'unset';
  #failure: number = CL.CL_COMPLETE;
  #waiters = new Set<Waiter>();
  /** Queues whose commands behind this event a command of another queue waits on: broken if it fails (CommandQueue.markBroken). */
  #crossQueueWaits: Set<QueueLink> | undefined;
  /** whenStatus() promises pending while unset: once set they keep the process alive. */
  readonly #statusPromises = new Set<Promise<unknown>>();

  /** @internal */
  constructor(id: EventId, context: ContextLink) {
    super(id, context);
    userEventsCollected.register(this, this.native);
  }

  override get kind(): string {
    return 'UserEvent';
  }

  /** 'unset' until setStatus(); 'failed' when set to an error or released unset. */
  get state(): UserEventState {
    return this.#state;
  }

  protected override waitedFor(): string {
    return 'this user event';
  }

  override blockers(): readonly Gate[] {
    return this.#state === 'unset' && !this.released ? [this] : [];
  }

  /** @internal For messages: what happened to this user event. */
  describe(): string {
    if (this.#state === 'unset') return 'a user event that is not set';
    if (this.#failure === STATUS.CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST && this.released) {
      return 'a user event released before it was set';
    }
    return this.#state === 'complete' ? 'a completed user event' : `a user event set to ${this.#failure}`;
  }

  /** @internal Records a command that waits on this event (see holdDependent in native/event.cc). */
  gate(dependent: Event): void {
    if (this.#state === 'unset' && !this.released) this.native.addon.holdDependent(this.native.id, dependent.native.id);
  }

  /** @internal A command of another queue waits on a command of `queue` behind this (unset) event. */
  noteCrossQueueWait(queue: QueueLink): void {
    if (this.#state === 'unset') (this.#crossQueueWaits ??= new Set()).add(queue);
  }

  /** @internal */
  addWaiter(waiter: Waiter): void {
    if (this.#state !== 'unset') return;
    this.#waiters.add(waiter);
    const forget = () => this.#waiters.delete(waiter);
    waiter.promise.then(forget, forget);
  }

  protected override get keepsProcessAlive(): boolean {
    return false;
  }

  override whenStatus(status: ExecutionStatus = 'complete'): Promise<ExecutionStatus> {
    const promise = super.whenStatus(status);
    if (this.#state === 'unset') {
      this.#statusPromises.add(promise);
      const forget = () => this.#statusPromises.delete(promise);
      promise.then(forget, forget);
    }
    return promise;
  }

  /** Completes the event, or fails it with a negative error code. */
  setStatus(status: 'complete' | number): void {
    const code = status === 'complete' ? CL.CL_COMPLETE : status;
    if (typeof code !== 'number') throw new TypeError(`status must be 'complete' or a negative error code; got ${describeValue(status)}`);
    // clSetUserEventStatus takes a cl_int: anything else would wrap (-2^32 to 0, "complete").
    if (!Number.isInteger(code) || code > 0 || code < -(2 ** 31)) {
      throw new RangeError(`status must be 'complete' (0) or a negative error code from -1 to -2147483648 (a cl_int); got ${describeValue(status)}`);
    }
    if (this.#state !== 'unset') throw new OpenCLStateError(`this user event was already set (${this.describe()})`);
    this.native.addon.setUserEventStatus(this.native.id, code);
    this.#settled(code);
  }

  override release(): void {
    const wasUnset = !this.released && this.#state === 'unset';
    super.release();
    // The native release fails an unset user event (see native/event.cc).
    if (wasUnset) this.#settled(STATUS.CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  }

  #settled(code: number): void {
    this.#state = code === CL.CL_COMPLETE ? 'complete' : 'failed';
    this.#failure = code;
    const crossQueueWaits = this.#crossQueueWaits;
    this.#crossQueueWaits = undefined;
    if (crossQueueWaits && hasFailed(code)) for (const queue of crossQueueWaits) queue.markBroken(this.describe());
    if (hasFailed(code)) {
      // Drivers need not call back for a user event that failed (PoCL does not): its status is known.
      this.endWatchers(code);
    } else {
      // Once set, the callbacks are on their way: wait for them as for any other command.
      const own = this.pendingCompletion;
      if (own) keepAlive.hold(own);
      for (const promise of this.#statusPromises) keepAlive.hold(promise);
    }
    this.#statusPromises.clear();
    const waiters = [...this.#waiters];
    this.#waiters.clear();
    for (const waiter of waiters) {
      // Failed in the binding's view: its waits end now, whatever its other gates.
      if (hasFailed(code) && waiter.keepsAlive && waiter.event.failedInView() !== undefined) {
        waiter.settle(failedWait);
        continue;
      }
      if (waiter.event.unsetGates().length > 0) continue;
      // A command behind a failed event may never be called back for (PoCL):
      // its polling timers keep the process alive, for a bounded time.
      if (waiter.event.knownFailure()) pollUntilEnded(waiter.event, waiter.settle, waiter.keepsAlive);
      else if (waiter.keepsAlive) keepAlive.hold(waiter.promise);
    }
  }
}

function notAnEvent(what: string, value: unknown): TypeError {
  let inherits = false;
  try {
    inherits = value instanceof Event;
  } catch {
    // a Proxy whose getPrototypeOf trap throws
  }
  const forged = inherits
    ? 'an object that only inherits from Event.prototype (made with Object.create, or a Proxy of an Event)'
    : describeValue(value);
  return new TypeError(`${what} must be an Event the binding made (an enqueue's result or a user event); got ${forged}`);
}

/** Blocks until every event completes (events of one context). */
export function waitForEvents(events: readonly Event[]): void {
  if (!Array.isArray(events)) throw new TypeError(`events must be an array of Event; got ${describeValue(events)}`);
  events.forEach((event, i) => {
    if (!Event.isEvent(event)) throw notAnEvent(`events[${i}]`, event);
  });
  if (events.some((event) => event.context !== events[0]!.context)) throw contextMismatch('clWaitForEvents', 'an event');
  for (const event of events) {
    const failure = event.failureInView();
    if (failure) throw failure;
  }
  events.forEach((event, i) => {
    refuseToBlock(event.blockers(), 'waitForEvents()', `events[${i}]`);
  });
  const pending = events.filter((event) => !event.handleGone);
  if (pending.length) ready().waitForEvents(pending.map((event) => event.native.id));
  for (const queue of new Set(events.map((event) => event.queue))) queue?.settleTransfers();
}

/**
 * @internal Converts an options.waitFor list to native events, checking types,
 * context and events known to have failed (a driver would leave the new
 * command queued for ever behind them).
 */
export function nativeWaitList(waitFor: readonly Event[] | undefined, context: ContextLink, call = 'enqueue'): EventId[] | undefined {
  if (waitFor === undefined) return undefined;
  if (!Array.isArray(waitFor)) throw new TypeError(`waitFor must be an array of Event; got ${typeof waitFor}`);
  const list: EventId[] = [];
  waitFor.forEach((event, i) => {
    if (!Event.isEvent(event)) throw notAnEvent(`waitFor[${i}]`, event);
    if (event.released) throw new OpenCLReleasedError(`Event (waitFor[${i}])`);
    if (event.context !== context) throw contextMismatch(call, `waitFor[${i}]`);
    const failure = event instanceof UserEvent && event.state === 'failed' ? event.describe() : (event.failedInView() ?? event.knownFailure());
    if (failure) {
      throw new OpenCLError(STATUS.CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, call, `waitFor[${i}] has failed: ${failure}`);
    }
    if (!event.handleGone) list.push(event.native.id);
  });
  return list;
}
