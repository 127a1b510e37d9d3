import type { NativeEvent } from './addon';
import { CL } from './constants';
import type { Context } from './context';
import { OpenCLError, contextMismatch } from './errors';
import { decode } from './info';
import { ready } from './loader';
import { Resource } from './resource';

export type ExecutionStatus = 'queued' | 'submitted' | 'running' | 'complete';

const statusCodes: Record<ExecutionStatus, number> = {
  complete: CL.CL_COMPLETE,
  running: CL.CL_RUNNING,
  submitted: CL.CL_SUBMITTED,
  queued: CL.CL_QUEUED,
};

function statusName(code: number): ExecutionStatus | number {
  const entry = Object.entries(statusCodes).find(([, value]) => value === code);
  return entry ? (entry[0] as ExecutionStatus) : code;
}

const commandTypeNames = new Map<number, string>(
  Object.entries(CL)
    .filter(([name]) => name.startsWith('CL_COMMAND_'))
    .map(([name, value]) => [value, name]),
);

// Extension command types; NV D3D9 and Intel DX9 share values, so an event
// made by an extension is named by that extension first.
const extensionCommandTypes = new Map<string, Map<number, string>>();

/** @internal Extensions add their command types (acquire/release) here. */
export function registerCommandTypes(extension: string, names: Record<string, number>): void {
  const own = new Map<number, string>();
  for (const [name, value] of Object.entries(names)) {
    own.set(value, name);
    const previous = commandTypeNames.get(value);
    commandTypeNames.set(value, previous && !previous.split(' | ').includes(name) ? `${previous} | ${name}` : name);
  }
  extensionCommandTypes.set(extension, own);
}

export interface ProfilingInfo {
  queued: bigint;
  submitted: bigint;
  start: bigint;
  end: bigint;
}

/** A command's event. Every enqueue returns one. */
export class Event extends Resource<NativeEvent> {
  #completed?: Promise<void>;
  #commandType?: number;
  /** @internal The sharing extension whose entry point made this event, if any. */
  extension?: string;

  /** The context of the command (or of the user event). */
  readonly context: Context;

  /** @internal */
  constructor(native: NativeEvent, context: Context) {
    super(native);
    this.context = context;
  }

  get kind(): string {
    return 'Event';
  }

  /** Raw clGetEventInfo bytes for any parameter. */
  info(param: number): Uint8Array {
    return this.native.info(param);
  }

  /** The execution status now: 'queued' .. 'complete', or the negative error code of a failed command. */
  get status(): ExecutionStatus | number {
    return statusName(decode.int(this.native.info(CL.CL_EVENT_COMMAND_EXECUTION_STATUS)));
  }

  /** The CL_COMMAND_* type of the command. */
  get commandType(): number {
    return (this.#commandType ??= decode.uint(this.native.info(CL.CL_EVENT_COMMAND_TYPE)));
  }

  /** The spec name of the command type, e.g. 'CL_COMMAND_NDRANGE_KERNEL'. */
  get commandTypeName(): string {
    const type = this.commandType;
    const own = this.extension ? extensionCommandTypes.get(this.extension)?.get(type) : undefined;
    return own ?? commandTypeNames.get(type) ?? `0x${type.toString(16)}`;
  }

  /** @internal Keeps the process alive until the command ends (user events do not). */
  protected get keepsProcessAlive(): boolean {
    return true;
  }

  /**
   * Resolves with the status reported when the event reaches `status` (or
   * fails), through clSetEventCallback: awaiting never blocks the event loop.
   */
  whenStatus(status: ExecutionStatus = 'complete'): Promise<ExecutionStatus | number> {
    const code = statusCodes[status];
    if (code === undefined) throw new TypeError(`status must be one of ${Object.keys(statusCodes).join(', ')}`);
    return this.native.whenStatus(code, this.keepsProcessAlive).then(statusName);
  }

  /** Resolves when the command completes; rejects with an OpenCLError when it fails. */
  get completed(): Promise<void> {
    return (this.#completed ??= this.native.whenStatus(CL.CL_COMPLETE, this.keepsProcessAlive).then((status) => {
      // Some drivers (PoCL) pass CL_COMPLETE to a callback registered after
      // the event already failed; the event's own status is authoritative.
      const final = status < 0 || this.released ? status : decode.int(this.native.info(CL.CL_EVENT_COMMAND_EXECUTION_STATUS));
      if (final < 0) throw new OpenCLError(final, 'event', `the ${this.#safeCommandName()} command failed`);
    }));
  }

  #safeCommandName(): string {
    try {
      return this.commandTypeName;
    } catch {
      return 'enqueued';
    }
  }

  /** Blocks until the command completes (clWaitForEvents). Prefer `await event.completed`. */
  waitSync(): void {
    ready().waitForEvents([this.native]);
  }

  /** Profiling timestamps in nanoseconds (the queue must have profiling enabled). */
  get profiling(): ProfilingInfo {
    const read = (param: number) => this.native.profilingInfo(param);
    return {
      queued: read(CL.CL_PROFILING_COMMAND_QUEUED),
      submitted: read(CL.CL_PROFILING_COMMAND_SUBMIT),
      start: read(CL.CL_PROFILING_COMMAND_START),
      end: read(CL.CL_PROFILING_COMMAND_END),
    };
  }
}

/** An event the application completes itself (clCreateUserEvent). */
export class UserEvent extends Event {
  #set = false;
  /** Promises on this event not yet settled: once it is set they keep the process alive. */
  readonly #waiting = new Set<Promise<unknown>>();

  override get kind(): string {
    return 'UserEvent';
  }

  /** @internal Records a command that waits on this event (see holdDependent in native/event.cc). */
  gate(dependent: Event): void {
    if (!this.#set && !this.released) this.native.holdDependent(dependent.native);
  }

  protected override get keepsProcessAlive(): boolean {
    return false;
  }

  override whenStatus(status: ExecutionStatus = 'complete'): Promise<ExecutionStatus | number> {
    return this.#track(super.whenStatus(status));
  }

  override get completed(): Promise<void> {
    return this.#track(super.completed);
  }

  #track<T>(promise: Promise<T>): Promise<T> {
    if (!this.#set && !this.#waiting.has(promise)) {
      this.#waiting.add(promise);
      const forget = () => this.#waiting.delete(promise);
      promise.then(forget, forget);
    }
    return promise;
  }

  /** Completes the event, or fails it with a negative error code. */
  setStatus(status: 'complete' | number): void {
    const code = status === 'complete' ? CL.CL_COMPLETE : status;
    if (!Number.isInteger(code) || code > 0) {
      throw new RangeError("status must be 'complete' or a negative error code");
    }
    this.native.setUserStatus(code);
    this.#set = true;
    // An unset user event must not keep the process alive, but once set, the
    // callbacks are on their way: wait for them as for any other command.
    if (this.#waiting.size > 0) {
      const keepAlive = setInterval(() => {}, 1 << 30);
      Promise.allSettled([...this.#waiting]).then(() => clearInterval(keepAlive));
    }
  }
}

/** Blocks until every event completes (events of one context). */
export function waitForEvents(events: readonly Event[]): void {
  if (!Array.isArray(events) || !events.every((event) => event instanceof Event)) {
    throw new TypeError('events must be an array of Event');
  }
  if (events.some((event) => event.context !== events[0]!.context)) throw contextMismatch('clWaitForEvents', 'an event');
  if (events.length) ready().waitForEvents(events.map((event) => event.native));
}

/** @internal Links a new command's event to the unset user events it waits on. */
export function gateOn(event: Event, waitFor: readonly Event[] | undefined): Event {
  if (waitFor) for (const w of waitFor) if (w instanceof UserEvent) w.gate(event);
  return event;
}

/** @internal Converts an options.waitFor list to native events, checking types and context. */
export function nativeWaitList(waitFor: readonly Event[] | undefined, context: Context): NativeEvent[] | undefined {
  if (waitFor === undefined) return undefined;
  if (!Array.isArray(waitFor)) throw new TypeError('waitFor must be an array of Event');
  return waitFor.map((event, i) => {
    if (!(event instanceof Event)) throw new TypeError(`waitFor[${i}] is not an Event`);
    const native = event.native; // a released event throws OpenCLReleasedError first
    if (event.context !== context) throw contextMismatch('enqueue', `waitFor[${i}]`);
    return native;
  });
}
