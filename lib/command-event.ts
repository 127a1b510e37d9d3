// A command's event: the binding's own view of its status (CL_COMPLETE ..
// CL_QUEUED, fed by the native completion hub), the promises and blocking
// waits over it, and how it waits behind the user events that gate it (the
// Gate interface; lib/event.ts has the user events themselves).
import type { Addon, EventId, NativeHandle } from './addon';
import { type ExecutionStatus, commandTypeName, hasFailed, statusCodes, statusName } from './event-status';
import { CL } from './facts/cl-constants';
import { STATUS } from './facts/cl-status';
import { OpenCLCommandError, OpenCLStateError, describeValue } from './errors';
import { decode } from './info';
import { ready } from './loader';
import type { ContextLink, QueueLink } from './links';
import { Resource } from './resource';

/** What every enqueue takes: the events it waits for. */
export interface EnqueueOptions {
  /** Events that must complete before this command starts. */
  waitFor?: readonly Event[];
}

export interface ProfilingInfo {
  queued: bigint;
  submitted: bigint;
  start: bigint;
  end: bigint;
}

/**
 * How an await learns that a command ended: `callback`, the driver's event
 * callback; `waiter`, a thread of the queue's own blocked in clWaitForEvents;
 * `poll`, that thread asking the command's status, sleeping a quarter of the
 * time waited so far between asks (10 to 250 us). docs/drivers.md says what
 * each costs on each driver.
 */
export type CompletionMechanism = 'callback' | 'waiter' | 'poll';

export const completionMechanisms: readonly CompletionMechanism[] = ['callback', 'waiter', 'poll'];

/** @internal The native side's code for each mechanism (native/completion.cc, eventWhenStatus). */
export const COMPLETION_BY = { callback: 0, waiter: 1, poll: 2 } as const satisfies Record<CompletionMechanism, number>;

/**
 * @internal Chosen per driver from measurements (bench/README.md, "Awaiting"):
 * on NVIDIA's driver the driver's callback thread calls back later than a
 * thread of ours sees the command end, and a thread blocked in
 * clWaitForEvents spins (a core while an await is pending), so a polling
 * thread, as soon and nearly free; on PoCL the callback is as fast and costs
 * no thread. OPENCL_INTEROP_COMPLETION=callback|waiter|poll overrides.
 */
export function completionMechanism(platformName: string): CompletionMechanism {
  const chosen = process.env.OPENCL_INTEROP_COMPLETION;
  if (completionMechanisms.includes(chosen as CompletionMechanism)) return chosen as CompletionMechanism;
  return /NVIDIA/i.test(platformName) ? 'poll' : 'callback';
}

/** The status a command behind a failed user event ends with in the binding's view (see Event.failedInView). */
/** @internal */
export const failedWait = STATUS.CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;

/** How long the binding polls a command whose user event failed, for drivers that never call back then (PoCL). */
const failedGatePollMs = 10_000;

/** @internal Polls a command behind a failed gate until it ends (bounded). */
export function pollUntilEnded(event: Event, settle: (status: number) => void, keepsAlive = true): void {
  const started = Date.now();
  let delay = 1;
  const later = (ms: number) => {
    const timer = setTimeout(tick, ms);
    if (!keepsAlive) timer.unref();
  };
  const tick = () => {
    let status: number;
    try {
      status = event.statusCode();
    } catch {
      settle(STATUS.CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
      return;
    }
    if (status <= CL.CL_COMPLETE) settle(status);
    else if (Date.now() - started < failedGatePollMs) later((delay = Math.min(delay * 2, 50)));
  };
  later(0);
}

/** @internal A pending `completed` of a command held back by unset user events. */
export interface Waiter {
  readonly event: Event;
  readonly settle: (status: number) => void;
  readonly promise: Promise<unknown>;
  /** Once its gates are set, the promise keeps the process alive until it settles. */
  readonly keepsAlive: boolean;
}

export type UserEventState = 'unset' | 'complete' | 'failed';

/**
 * A user event as the commands behind it see it (lib/event.ts, UserEvent): what holds them back, or failed them in
 * the binding's view.
 */
export interface Gate {
  readonly state: UserEventState;
  /** @internal For messages: what happened to this user event. */
  describe(): string;
  /** @internal Records a command that waits on this event. */
  gate(dependent: Event): void;
  /** @internal A command of another queue waits on a command of `queue` behind this (unset) event. */
  noteCrossQueueWait(queue: QueueLink): void;
  /** @internal */
  addWaiter(waiter: Waiter): void;
}

const noGates: readonly Gate[] = Object.freeze([]);

/**
 * An event's id in the addon's table (native/event.cc), with the calls that
 * take it: what an Event holds instead of a wrapped native object. Events are not wrapped native objects: a command costs
 * a number, not a JS object with a finalizer. Every id is released
 * explicitly: by its Event's release(), by its queue (ended events, and all
 * at the queue's release), or natively with a queue collected unreleased.
 */
export class EventHandle implements NativeHandle {
  /** 0; 1 while lent (see lend()); 2 once released while lent: the borrower lets go of the id. */
  #lent = 0;
  constructor(
    readonly addon: Addon,
    readonly id: EventId,
  ) {}
  info(param: number): Uint8Array {
    return this.addon.eventInfo(this.id, param);
  }
  status(): number {
    return this.addon.eventStatus(this.id);
  }
  profilingInfo(param: number): bigint {
    return this.addon.eventProfilingInfo(this.id, param);
  }
  /** by: how completion is seen (COMPLETION_BY): the driver's callback, the queue's waiting or polling thread. */
  whenStatus(status: number, keepAlive: boolean, by: number = COMPLETION_BY.callback): Promise<number> {
    return this.addon.eventWhenStatus(this.id, status, keepAlive, by);
  }
  release(): void {
    if (this.#lent === 0) this.addon.releaseEvent(this.id);
    else this.#lent = 2;
  }
  /**
   * @internal Keeps the id alive past its Event's release (or retirement) until giveBack(): a staged read's copy is
   * settled by its command's status whether or not the caller kept the Event (lib/staging.ts).
   */
  lend(): void {
    this.#lent = 1;
  }
  /** @internal The borrower is done: the id goes now if its Event let go of it meanwhile. */
  giveBack(): void {
    const released = this.#lent === 2;
    this.#lent = 0;
    if (released) this.addon.releaseEvent(this.id);
  }
  keep(): void {
    throw new TypeError("an event cannot hold another library's object");
  }
  get address(): bigint {
    return this.addon.eventAddress(this.id);
  }
  get slot(): number {
    return this.id;
  }
}

/**
 * A command's event. Every enqueue returns one. It is a PromiseLike:
 * `await queue.readBuffer(...)` waits for the command and throws its error.
 */
export class Event extends Resource<EventHandle> implements PromiseLike<void> {
  #completed?: Promise<void>;
  #commandType?: number;
  /** The execution status once the command has ended (0 or negative). */
  #ended?: number;
  #profiling?: ProfilingInfo;
  /** @internal The sharing extension whose entry point made this event, if any. */
  extension?: string;
  /**
   * @internal User events this command waits on, directly or through earlier commands, that were not set when
   * it was enqueued, or had failed (see gatesOf).
   */
  gates: readonly Gate[] = noGates;
  /**
   * @internal Runs once when the command has ended, before `completed`
   * settles (a staged read copies its bytes here); an error it returns
   * rejects `completed`.
   */
  onEnd?: (status: number) => Error | undefined;

  /**
   * @internal True for a real Event (made by the binding), false for anything
   * else, including objects made from Event.prototype and Proxies of events.
   */
  static isEvent(value: unknown): value is Event {
    return typeof value === 'object' && value !== null && #settlers in value;
  }

  /** The context of the command (or of the user event). */
  readonly context: ContextLink;
  /** The queue the command was enqueued on (undefined for a user event). */
  readonly queue?: QueueLink;

  /** @internal */
  constructor(id: EventId, context: ContextLink, queue?: QueueLink) {
    super(new EventHandle(context.addon, id));
    this.context = context;
    this.queue = queue;
  }

  get kind(): string {
    return 'Event';
  }

  /** Raw clGetEventInfo bytes for any parameter. */
  info(param: number): Uint8Array {
    return this.native.info(param);
  }

  /** @internal True once the binding has seen the command end (awaited, waited for, or retired): statusCode() then needs no handle. */
  get seenEnded(): boolean {
    return this.#ended !== undefined;
  }

  /** @internal The execution status code now (cached once the command has ended). */
  statusCode(): number {
    return this.#ended ?? this.native.status();
  }

  /** The execution status now: 'queued' .. 'complete', or the negative error code of a failed command. */
  get status(): ExecutionStatus | number {
    return statusName(this.statusCode());
  }

  /** The CL_COMMAND_* type of the command. */
  get commandType(): number {
    return (this.#commandType ??= decode.uint(this.native.info(CL.CL_EVENT_COMMAND_TYPE)));
  }

  /** The spec name of the command type, e.g. 'CL_COMMAND_NDRANGE_KERNEL'. */
  get commandTypeName(): string {
    return commandTypeName(this.commandType, this.extension);
  }

  #commandName(): string {
    try {
      return this.commandTypeName;
    } catch {
      return 'enqueued';
    }
  }

  /** What a blocking wait of this event waits for, for messages. */
  protected waitedFor(): string {
    return `the ${this.#commandName()} command`;
  }

  /** @internal Keeps the process alive until the command ends (user events do not). */
  protected get keepsProcessAlive(): boolean {
    return true;
  }

  /** @internal True once the binding released the handle of the ended command (see retireIfEnded). */
  get handleGone(): boolean {
    return this.retired;
  }

  /** @internal The user events that must be set before this event can complete (itself, for an unset user event). */
  blockers(): readonly Gate[] {
    return this.unsetGates();
  }

  /** @internal The gates that are still unset. */
  unsetGates(): readonly Gate[] {
    return this.gates.length === 0 ? noGates : this.gates.filter((gate) => gate.state === 'unset');
  }

  /**
   * @internal Whether the command failed: 'failed', 'ok' (it ended well, or nothing says it will fail), or
   * 'undecided'. A command behind a failed user event is the driver's to fail or to run (the reference
   * driver and PoCL fail it, NVIDIA runs it): until it is seen to end, the driver's own status answers, and
   * one still queued or submitted there is undecided. An event released before that cannot be asked.
   */
  outcome(): 'failed' | 'ok' | 'undecided' {
    if (this.#ended !== undefined) return hasFailed(this.#ended) ? 'failed' : 'ok';
    if (this.gates.length === 0 || !this.gates.some((gate) => gate.state === 'failed')) return 'ok';
    let status: number;
    try {
      status = this.native.status();
    } catch {
      return 'undecided';
    }
    return hasFailed(status) ? 'failed' : status <= CL.CL_RUNNING ? 'ok' : 'undecided';
  }

  /** @internal Why this command is known to fail, or may (it waits on a failed gate the driver has not decided on), else undefined. */
  knownFailure(): string | undefined {
    if (this.outcome() === 'ok') return undefined;
    if (this.#ended !== undefined) return `its ${this.#commandName()} command failed (status ${this.#ended})`;
    return `it waits on ${this.failedGate()}`;
  }

  /** @internal The first gate that failed, described ("a user event set to -5"), else undefined. */
  failedGate(): string | undefined {
    return this.gates.find((gate) => gate.state === 'failed')?.describe();
  }

  /**
   * @internal The failed user event this command is behind (by its wait list or its in-order queue, directly or
   * through other commands), described, when the binding counts it failed: then every wait and await of it ends at
   * once with CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, whatever its driver does with it (PoCL and the reference
   * driver fail such a command, NVIDIA's runs it, and PoCL never ends some). Not for the sharing extensions'
   * acquires and releases and the semaphore commands (`extension` set): what they did decides what is acquired or
   * signalled, so their waits follow the driver (see outcome()).
   */
  failedInView(): string | undefined {
    if (this.gates.length === 0 || this.extension !== undefined || this.#ended !== undefined) return undefined;
    return this.failedGate();
  }

  /** @internal The error a wait of this command ends with when failedInView() says it is failed, else undefined. */
  failureInView(): OpenCLCommandError | undefined {
    return this.failedInView() === undefined ? undefined : this.#failure(this.#statusInView());
  }

  /** The status of a command failedInView(): its driver's, once that has failed it; else CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST. */
  #statusInView(): number {
    try {
      const status = this.native.status();
      if (hasFailed(status)) return (this.#ended = status);
    } catch {
      // released meanwhile: the binding's view answers
    }
    return failedWait;
  }

  /**
   * Resolves with `status` once the event has reached it or a later one,
   * through clSetEventCallback: awaiting never blocks the event loop. Rejects
   * with an OpenCLCommandError when the command fails (before or after it
   * was asked).
   */
  whenStatus(status: ExecutionStatus = 'complete'): Promise<ExecutionStatus> {
    const code = typeof status === 'string' && Object.hasOwn(statusCodes, status) ? statusCodes[status] : undefined;
    if (code === undefined) throw new TypeError(`status must be one of ${Object.keys(statusCodes).join(', ')}; got ${describeValue(status)}`);
    if (this.#ended !== undefined) return hasFailed(this.#ended) ? Promise.reject(this.#failure(this.#ended)) : Promise.resolve(status);
    const reached = (reported: number): ExecutionStatus => {
      const failed = this.#failedStatus(reported);
      if (failed !== undefined) throw this.#failure(failed);
      return status;
    };
    if (code === CL.CL_COMPLETE) return this.#watch(CL.CL_COMPLETE).then(reached);
    // Drivers call back only for the statuses a command passes through, and
    // some skip one (PoCL takes a user event from submitted to complete, a
    // failed command may never be running): completion implies every
    // earlier status. Only the completion watch keeps the process alive.
    const passed = this.native.whenStatus(code, false);
    return Promise.race([passed, this.#watch(CL.CL_COMPLETE)]).then(reached);
  }

  /**
   * The failure status behind a reported one, else undefined. Some drivers
   * (PoCL) pass CL_COMPLETE to a callback registered after the event failed:
   * the event's own status is authoritative. The waiting thread reports that
   * status already.
   */
  #failedStatus(reported: number): number | undefined {
    if (reported < 0) return reported;
    if (this.#ended !== undefined) return hasFailed(this.#ended) ? this.#ended : undefined;
    if (this.#byWaiter || this.released || this.retired) return undefined;
    try {
      const own = this.statusCode();
      return hasFailed(own) ? own : undefined;
    } catch {
      return undefined; // released meanwhile: the callback's word stands
    }
  }

  #failure(status: number): OpenCLCommandError {
    const failed = this.gates.find((gate) => gate.state === 'failed');
    return new OpenCLCommandError(status, this.#commandName(), failed?.describe());
  }

  /** Resolves when the command completes; rejects with an OpenCLCommandError when it fails. */
  get completed(): Promise<void> {
    return (this.#completed ??=
      this.#ended !== undefined
        ? Promise.resolve().then(() => this.#end(this.#ended!))
        : this.#watch(CL.CL_COMPLETE).then((status) => this.#end(status)));
  }

  // biome-ignore lint/suspicious/noThenProperty: an Event is awaitable on purpose (it settles when its command completes)
  then<A = void, B = never>(
    onfulfilled?: ((value: void) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.completed.then(onfulfilled, onrejected);
  }

  #settlers?: ((status: number) => void)[];
  /** Completion is watched by the waiting thread, which reports the event's own status. */
  #byWaiter = false;

  /** @internal Settles every pending promise of this event with `status` (the driver may never call back). */
  protected endWatchers(status: number): void {
    const settlers = this.#settlers ?? [];
    this.#settlers = undefined;
    for (const settle of settlers) settle(status);
  }

  /** @internal The pending `completed`, if anything awaits it. */
  protected get pendingCompletion(): Promise<void> | undefined {
    return this.#ended === undefined ? this.#completed : undefined;
  }

  // A command held back by an unset user event must not keep the process
  // alive: its promise is registered without a hold, and the user event
  // takes it over once it is set (see UserEvent.setStatus).
  #watch(execStatus: number): Promise<number> {
    if (this.failedInView() !== undefined) return Promise.resolve(this.#statusInView());
    return this.#watchDriver(execStatus);
  }

  /**
   * @internal Settles once the driver has ended the command, whatever the binding's view (one behind a failed user
   * event is polled for a bounded time: PoCL may never call back for it). keepsAlive: the process waits for it.
   */
  driverEnded(keepsAlive = false): Promise<unknown> {
    if (this.#ended !== undefined || this.released || this.retired) return Promise.resolve();
    return this.#watchDriver(CL.CL_COMPLETE, keepsAlive);
  }

  #watchDriver(execStatus: number, keepsAlive = true): Promise<number> {
    const native = this.native;
    const gates = this.unsetGates();
    const ends = keepsAlive && this.keepsProcessAlive && gates.length === 0;
    const failed = gates.length === 0 && this.knownFailure() !== undefined;
    if (ends && !failed) {
      // The common case: the native promise is the answer (one promise hop less per await).
      // Only commands known to end go to the queue's waiting thread: it waits on one at a time.
      const by = execStatus === CL.CL_COMPLETE ? COMPLETION_BY[this.queue?.completion ?? 'callback'] : COMPLETION_BY.callback;
      if (by !== COMPLETION_BY.callback) this.#byWaiter = true;
      return native.whenStatus(execStatus, true, by);
    }
    let settle!: (status: number) => void;
    const settled = new Promise<number>((resolve) => (settle = resolve));
    native.whenStatus(execStatus, ends).then(settle);
    if (!this.keepsProcessAlive) (this.#settlers ??= []).push(settle);
    for (const gate of gates) gate.addWaiter({ event: this, settle, promise: settled, keepsAlive });
    if (failed) pollUntilEnded(this, settle, keepsAlive);
    return settled;
  }

  #end(reported: number): void {
    const status = this.#failedStatus(reported) ?? CL.CL_COMPLETE;
    // Failed in the binding's view only: the driver's status stays the driver's to report.
    if (!hasFailed(status) || this.failedInView() === undefined) this.#ended ??= status;
    const hook = this.onEnd;
    this.onEnd = undefined;
    const error = hook?.(status);
    if (hasFailed(status)) throw this.#failure(status);
    if (error) throw error;
  }

  /** Blocks until the command completes (clWaitForEvents). Prefer `await event`. */
  waitSync(): void {
    if (this.#ended === undefined) {
      const failure = this.failureInView();
      if (failure) throw failure;
      refuseToBlock(this.blockers(), 'waitSync()', this.waitedFor());
      ready().waitForEvents([this.native.id]);
    }
    this.queue?.settleTransfers();
  }

  /** Profiling timestamps in nanoseconds (the queue must have profiling enabled). */
  get profiling(): ProfilingInfo {
    if (this.#profiling) return this.#profiling;
    if (!this.queue) throw new OpenCLStateError('a user event has no profiling information');
    if (!this.queue.profilingEnabled) {
      throw new OpenCLStateError('the queue was created without profiling: create it with context.createQueue(device, { profiling: true })');
    }
    const read = (param: number) => this.native.profilingInfo(param);
    const info = {
      queued: read(CL.CL_PROFILING_COMMAND_QUEUED),
      submitted: read(CL.CL_PROFILING_COMMAND_SUBMIT),
      start: read(CL.CL_PROFILING_COMMAND_START),
      end: read(CL.CL_PROFILING_COMMAND_END),
    };
    if (this.#ended === CL.CL_COMPLETE) this.#profiling = info;
    return info;
  }

  /**
   * @internal Lets go of the handle once the command has ended, keeping its
   * status, command type and profiling. True when the handle is gone.
   */
  retireIfEnded(): boolean {
    if (this.released || this.retired) return true;
    let status: number;
    try {
      status = this.statusCode();
    } catch {
      return true;
    }
    if (status > CL.CL_COMPLETE) return false;
    this.#ended = status;
    try {
      this.#commandType ??= decode.uint(this.native.info(CL.CL_EVENT_COMMAND_TYPE));
      if (status === CL.CL_COMPLETE && this.queue?.profilingEnabled) this.#profiling ??= this.profiling;
    } catch {
      // what could not be read stays unanswered
    }
    this.retire();
    return true;
  }

  protected override retiredError(): Error {
    return new OpenCLStateError(
      `the ${this.#commandName()} command has ended and the binding released its event; ` +
        'status, commandType, profiling and completed still answer',
    );
  }
}

/** @internal Throws instead of blocking on work that only an unset user event of this process can start (failed gates pass). */
export function refuseToBlock(
  blockers: readonly Gate[],
  call: string,
  what: string,
  instead = 'Set it first (userEvent.setStatus()), or await the event instead of blocking.',
): void {
  if (blockers.length === 0) return;
  const gates = blockers.some((gate) => gate.state !== 'unset') ? blockers.filter((gate) => gate.state === 'unset') : blockers;
  if (gates.length === 0) return;
  throw new OpenCLStateError(
    `${call} would block for ever: ${what} ${gates.length === 1 ? 'waits on a user event that is' : `waits on ${gates.length} user events that are`} ` +
      `not set yet. ${instead}`,
  );
}
