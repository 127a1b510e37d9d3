// cl_khr_semaphore and cl_khr_external_semaphore (+ _opaque_fd, _sync_fd,
// _win32): semaphores made in OpenCL or imported from another API's handle,
// waited on and signaled on a queue, exported where the device can.
import type { NativePropertyList, NativeSemaphore, NativeSemaphores } from './native-types';
import { Context } from '../context';
import { Device } from '../device';
import { OpenCLError, OpenCLExtensionError, OpenCLReleasedError, OpenCLStateError, describeValue } from '../errors';
import { STATUS } from '../facts/cl-status';
import { type Event, registerCommandTypes } from '../event';
import { decode } from '../info';
import { ready } from '../loader';
import { OwnedHandle } from '../os-handle';
import type { Platform } from '../platform';
import { CommandQueue } from '../queue';
import { OpenCLHandleTypeError } from './external-errors';
import { checkHandle, handleTypeNames, importWithOwnership, optionalUints } from './external-handles';
import { externalSemaphoreRecord, externalSemaphoreSyncFdRecord, onlyAfterWaitList, semaphoreRecord } from './extensions';
import { facadeOf } from './facades';
import { externalTokens } from '../facts/sharing-tokens';
import { readOnce } from '../validate';

export type SemaphoreHandleType = keyof typeof externalSemaphoreRecord.handleTypes;
export type SemaphoreType = keyof typeof semaphoreRecord.types;

/** A semaphore another API exported (a plain object, or the Vulkan module's export). */
export interface ExternalSemaphoreHandle {
  readonly handleType: SemaphoreHandleType;
  /** A file descriptor (opaque-fd; sync-fd, where -1 is a fence already signaled), a HANDLE as a bigint, or a name. */
  readonly handle: number | bigint | string;
  relinquish?(): void;
  readonly disposed?: boolean;
}

export interface SemaphoreOptions {
  /**
   * The device the semaphore is for (CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR, one
   * device): required in a context of several devices; in a context of one,
   * no list is passed unless this is given.
   */
  device?: Device;
}

export interface CreateSemaphoreOptions extends SemaphoreOptions {
  /** A handle type it will be exported as (CL_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR). */
  exportAs?: SemaphoreHandleType;
}

export interface ImportSemaphoreOptions extends SemaphoreOptions {
  /** File descriptors: import a duplicate, so the caller keeps its own (default false: the import takes it). */
  duplicate?: boolean;
}

export interface SemaphoreEnqueueOptions {
  waitFor?: readonly Event[];
  /** One payload per semaphore, for semaphore types that take one (binary semaphores ignore them). */
  payloads?: readonly bigint[];
}

/**
 * A handle exported from a semaphore (clGetSemaphoreHandleForTypeKHR). It
 * owns the handle: close() (or `using`, or garbage collection) closes it,
 * unless an API whose import took it called relinquish() (the Vulkan
 * module's semaphore import does). Keep the object while you use `handle`.
 * The rule of every owned handle (lib/os-handle.ts), the Vulkan module's
 * exported handles' too; a KMT handle is a global name and is never closed.
 */
export class ExportedSemaphoreHandle extends OwnedHandle<SemaphoreHandleType> implements ExternalSemaphoreHandle {
  /** @internal */
  constructor(handleType: SemaphoreHandleType, handle: number | bigint) {
    super(handleType, handle);
    this.own();
  }

  /** @internal relinquish() once closed or relinquished: its number may belong to another file by then. */
  protected gone(): Error {
    return new OpenCLReleasedError('exported semaphore handle (closed or relinquished already)');
  }

  /** Closes the handle (a file descriptor; a Windows NT handle): dispose() by its other name. Idempotent. */
  close(): void {
    this.dispose();
  }
}

/** Binary semaphore states the spec's CL_SEMAPHORE_PAYLOAD_KHR reports: 0 unsignaled, 1 signaled. */
export class Semaphore {
  readonly context: Context;
  readonly facade: Semaphores;
  /** The device it is for (CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR), or null for the context's (one) device. */
  readonly device: Device | null;
  /** The handle type it was imported from, or null for a semaphore made in OpenCL. */
  readonly importedFrom: SemaphoreHandleType | null;
  /** The handle type it may be exported as, or null. */
  readonly exportAs: SemaphoreHandleType | null;
  /**
   * True when the device handle list was left out of the import because the
   * driver refused it with CL_INVALID_PROPERTY (NVIDIA) in a one-device context.
   */
  readonly deviceListDropped: boolean;
  #native: NativeSemaphore | null;
  /** Imported or exported: another API may signal and wait on it, so its state is not the binding's to know. */
  #shared: boolean;
  /** The last signal enqueued, and the wait enqueued since that consumes it (see signalPending). */
  #signal: Event | undefined;
  #waitedBy: Event | undefined;

  /** @internal */
  constructor(
    facade: Semaphores,
    native: NativeSemaphore,
    context: Context,
    device: Device | null,
    importedFrom: SemaphoreHandleType | null,
    exportAs: SemaphoreHandleType | null,
    deviceListDropped: boolean,
  ) {
    this.facade = facade;
    this.#native = native;
    this.context = context;
    this.device = device;
    this.importedFrom = importedFrom;
    this.exportAs = exportAs;
    this.deviceListDropped = deviceListDropped;
    this.#shared = importedFrom !== null;
  }

  get kind(): string {
    return 'Semaphore';
  }

  /** True once imported or exported: another API may signal and wait on it too, and the caller orders them. */
  get shared(): boolean {
    return this.#shared;
  }

  /**
   * Semaphores only OpenCL uses: whether a signal is enqueued that no wait
   * has consumed yet. A signal or a wait known to have failed (a user event it
   * waits on failed) did nothing.
   */
  get signalPending(): boolean {
    const signal = this.#signal;
    if (signal === undefined || signal.knownFailure() !== undefined) return false;
    const wait = this.#waitedBy;
    return wait === undefined || wait.knownFailure() !== undefined;
  }

  /**
   * @internal Refuses what would hang or is undefined on a semaphore only
   * OpenCL can signal (cl_khr_semaphore, "Waiting On and Signaling
   * Semaphores"): a wait with no signal pending (nothing would ever signal
   * it), a second signal before a wait (undefined; NVIDIA hangs).
   */
  checkEnqueue(which: 'wait' | 'signal', what: string): void {
    if (this.#shared) return;
    if (which === 'wait' && !this.signalPending) {
      throw new OpenCLStateError(
        `${what}: a wait on a semaphore with no signal pending would never end: it was made in OpenCL and never exported, so only a signal ` +
          'enqueued here can signal it. Enqueue the signal first (semaphore.signal(queue)), or create it with { exportAs } and export it to the API that signals it',
      );
    }
    if (which === 'signal' && this.signalPending) {
      throw new OpenCLStateError(
        `${what}: this binary semaphore's previous signal has not been waited on yet; signaling it again before a wait is undefined ` +
          '(cl_khr_semaphore) and hangs some drivers. Enqueue a wait on it between the two signals',
      );
    }
  }

  /** @internal A wait or a signal of it was enqueued. */
  enqueued(which: 'wait' | 'signal', event: Event): void {
    if (this.#shared) return;
    if (which === 'signal') {
      this.#signal = event;
      this.#waitedBy = undefined;
    } else {
      this.#waitedBy = event;
    }
  }

  /** @internal */
  get native(): NativeSemaphore {
    if (!this.#native) throw new OpenCLReleasedError('Semaphore');
    return this.#native;
  }

  get released(): boolean {
    return this.#native === null;
  }

  /** The raw cl_semaphore_khr as a bigint. */
  get address(): bigint {
    return this.native.address;
  }

  /** Raw clGetSemaphoreInfoKHR bytes. */
  info(param: number): Uint8Array {
    return this.facade.native.info(this.native, param);
  }

  get type(): SemaphoreType {
    const token = decode.uint(this.info(semaphoreRecord.queries.type));
    const name = (Object.keys(semaphoreRecord.types) as SemaphoreType[]).find((t) => semaphoreRecord.types[t] === token);
    if (!name) throw new OpenCLError(STATUS.CL_INVALID_VALUE, semaphoreRecord.entryPoints.info, `unknown semaphore type 0x${token.toString(16)}`);
    return name;
  }
  /** Binary semaphores: 0n unsignaled, 1n signaled (CL_SEMAPHORE_PAYLOAD_KHR). */
  get payload(): bigint {
    return decode.ulong(this.info(semaphoreRecord.queries.payload));
  }
  /** The driver's reference count (diagnostics only). */
  get referenceCount(): number {
    return decode.uint(this.info(semaphoreRecord.queries.referenceCount));
  }
  /** The properties it was created with, as the driver reports them (CL_SEMAPHORE_PROPERTIES_KHR). */
  get properties(): bigint[] {
    const bytes = this.info(semaphoreRecord.queries.properties);
    return Array.from({ length: bytes.byteLength / 8 }, (_, i) => new DataView(bytes.buffer, bytes.byteOffset + i * 8, 8).getBigUint64(0, true));
  }
  /** The handle types it can be exported as (CL_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR). */
  get exportHandleTypes(): string[] {
    return handleTypeNames(
      optionalUints(() => this.info(externalSemaphoreRecord.queries.exportHandleTypes)),
      externalSemaphoreRecord.handleTypes,
    );
  }
  /** CL_SEMAPHORE_EXPORTABLE_KHR. */
  get exportable(): boolean {
    return decode.bool(this.info(externalSemaphoreRecord.queries.exportable));
  }

  /** Enqueues a wait on this semaphore (clEnqueueWaitSemaphoresKHR). */
  wait(queue: CommandQueue, options?: SemaphoreEnqueueOptions): Event {
    return this.facade.wait(queue, [this], options);
  }
  /** Enqueues a signal of this semaphore (clEnqueueSignalSemaphoresKHR). */
  signal(queue: CommandQueue, options?: SemaphoreEnqueueOptions): Event {
    return this.facade.signal(queue, [this], options);
  }

  /**
   * Exports a handle (clGetSemaphoreHandleForTypeKHR) of the type the
   * semaphore was created to export. The handle is the caller's (close it,
   * or pass it to an API whose import takes it).
   */
  exportHandle(device: Device | undefined = this.device ?? undefined): ExportedSemaphoreHandle {
    const handleType = this.exportAs;
    const call = externalSemaphoreRecord.entryPoints.exportHandle;
    if (!handleType)
      throw new OpenCLError(STATUS.CL_INVALID_VALUE, call, 'this semaphore was not created to be exported: create it with { exportAs }');
    this.facade.requireEntryPoint(call, externalSemaphoreRecord.name);
    const target = device ?? this.context.devices[0]!;
    if (!(target instanceof Device) || !this.context.devices.includes(target))
      throw new TypeError(`device must be a device of the semaphore's context; got ${describeValue(device)}`);
    const record = externalSemaphoreRecord.handleTypes[handleType];
    const handle = this.facade.native.exportHandle(this.native, target.native, record.token, record.handle !== 'fd');
    this.#shared = true;
    return new ExportedSemaphoreHandle(handleType, handle);
  }

  /**
   * Re-imports a sync_fd into a semaphore imported from a sync_fd
   * (clReImportSemaphoreSyncFdKHR): as if it were made again from `handle`.
   * The fd becomes OpenCL's on success (-1: a fence already signaled).
   */
  reimportSyncFd(handle: ExternalSemaphoreHandle | number): void {
    const call = externalSemaphoreSyncFdRecord.entryPoints.reimportSyncFd;
    this.facade.requireEntryPoint(call, externalSemaphoreSyncFdRecord.name);
    if (this.importedFrom !== 'sync-fd') {
      throw new OpenCLError(
        externalTokens.CL_INVALID_SEMAPHORE_KHR,
        call,
        `this semaphore was ${this.importedFrom ? `imported from ${this.importedFrom}` : 'made in OpenCL'}; only one imported from a sync-fd can re-import`,
      );
    }
    const source = typeof handle === 'number' ? { handleType: 'sync-fd', handle } : handle;
    const checked = checkHandle(source, externalSemaphoreRecord.handleTypes, 'handle');
    if (checked.handleType !== 'sync-fd') throw new TypeError(`handle.handleType must be 'sync-fd'; got ${describeValue(checked.handleType)}`);
    importWithOwnership(
      checked,
      false,
      (fd) => this.facade.native.reimportSyncFd(this.native, fd as number),
      () => this,
    );
  }

  /** Releases the semaphore (clReleaseSemaphoreKHR). Idempotent. */
  release(): void {
    const native = this.#native;
    if (!native) return;
    this.#native = null;
    native.release();
  }

  [Symbol.dispose](): void {
    this.release();
  }
}

/**
 * cl_khr_semaphore (and cl_khr_external_semaphore where advertised) on one
 * platform. Get it with getSemaphores(platform).
 */
export class Semaphores {
  readonly platform: Platform;
  /** @internal */
  readonly native: NativeSemaphores;

  /** @internal */
  constructor(platform: Platform) {
    this.platform = platform;
    if (!platform.supports(semaphoreRecord.name)) {
      throw new OpenCLExtensionError(semaphoreRecord.name, platform.name, 'neither the platform nor its devices advertise it');
    }
    const { major, minor } = platform.versionNumber;
    const names = { ...semaphoreRecord.entryPoints, ...externalSemaphoreRecord.entryPoints, ...externalSemaphoreSyncFdRecord.entryPoints };
    this.native = new (ready().NativeSemaphores)(platform.native, major === 1 && minor < 2, names);
    const core = Object.values(semaphoreRecord.entryPoints) as string[];
    const missing = this.native.missing.filter((name) => core.includes(name));
    if (missing.length) throw new OpenCLExtensionError(semaphoreRecord.name, platform.name, 'advertised, but entry points are missing', missing);
    registerCommandTypes(semaphoreRecord.name, semaphoreRecord.commandTypes);
  }

  /** Which extensions of the family the platform (or a device) advertises. */
  get extensions(): string[] {
    const names = [
      semaphoreRecord.name,
      externalSemaphoreRecord.name,
      ...new Set(Object.values(externalSemaphoreRecord.handleTypes).map((t) => t.extension)),
    ];
    return names.filter((name) => this.platform.supports(name));
  }

  /** @internal Throws when an entry point of a later extension of the family does not resolve here. */
  requireEntryPoint(name: string, extension: string): void {
    if (this.native.missing.includes(name) || !this.platform.supports(extension)) {
      throw new OpenCLExtensionError(
        extension,
        this.platform.name,
        this.platform.supports(extension) ? 'advertised, but entry points are missing' : 'neither the platform nor its devices advertise it',
        this.native.missing.includes(name) ? [name] : [],
      );
    }
  }

  /**
   * Semaphore types of the platform's devices, or of one device. Binary
   * semaphores are mandatory: a driver that refuses the query itself
   * (NVIDIA: CL_INVALID_VALUE, measured on driver 580) is reported as ['binary'].
   */
  semaphoreTypes(device?: Device): SemaphoreType[] {
    const { queries, types } = semaphoreRecord;
    const tokens =
      device === undefined
        ? optionalUints(() => this.platform.info(queries.platformTypes))
        : optionalUints(() => this.#device(device).info(queries.deviceTypes));
    const names = (Object.keys(types) as SemaphoreType[]).filter((name) => tokens.includes(types[name]));
    return names.length ? names : ['binary'];
  }

  /** Handle types the platform's devices (or one device) can import. */
  importHandleTypes(device?: Device): SemaphoreHandleType[] {
    const q = externalSemaphoreRecord.queries;
    return this.#handleTypes(device, q.platformImportHandleTypes, q.deviceImportHandleTypes);
  }

  /** Handle types the platform's devices (or one device) can export. */
  exportHandleTypes(device?: Device): SemaphoreHandleType[] {
    const q = externalSemaphoreRecord.queries;
    return this.#handleTypes(device, q.platformExportHandleTypes, q.deviceExportHandleTypes);
  }

  /** A binary semaphore made in OpenCL (clCreateSemaphoreWithPropertiesKHR), exportable as options.exportAs. */
  create(context: Context, options: CreateSemaphoreOptions = {}): Semaphore {
    const opts = readOnce(options, 'options', ['device', 'exportAs']);
    const device = this.#target(context, opts);
    const exportAs = opts.exportAs;
    const properties: NativePropertyList = [[semaphoreRecord.properties.type, semaphoreRecord.types.binary]];
    if (device) properties.push([semaphoreRecord.properties.deviceHandleList, [device.native]]);
    if (exportAs !== undefined) {
      if (typeof exportAs !== 'string' || !Object.hasOwn(externalSemaphoreRecord.handleTypes, exportAs)) {
        throw new TypeError(`exportAs must be one of ${Object.keys(externalSemaphoreRecord.handleTypes).join(', ')}; got ${describeValue(exportAs)}`);
      }
      const record = externalSemaphoreRecord.handleTypes[exportAs];
      this.requireEntryPoint(externalSemaphoreRecord.entryPoints.exportHandle, externalSemaphoreRecord.name);
      for (const d of device ? [device] : context.devices) {
        const supported = this.exportHandleTypes(d);
        if (!supported.includes(exportAs))
          throw new OpenCLHandleTypeError(record.extension, this.platform.name, exportAs, supported, d.name, 'export');
      }
      properties.push([externalSemaphoreRecord.properties.exportHandleTypes, [record.token]]);
    }
    const native = this.native.create(context.native, properties);
    return new Semaphore(this, native, context, device, null, exportAs ?? null, false);
  }

  /**
   * A semaphore imported from another API's handle. File descriptors become
   * OpenCL's on success (the handle's relinquish() is called; duplicate: true
   * keeps the caller's); Windows handles stay the caller's. On NVIDIA an import
   * with a device handle list fails with CL_INVALID_PROPERTY where the same
   * import without it works: in a one-device context it is retried without.
   */
  import(context: Context, handle: ExternalSemaphoreHandle, options: ImportSemaphoreOptions = {}): Semaphore {
    const opts = readOnce(options, 'options', ['device', 'duplicate']);
    const device = this.#target(context, opts);
    const checked = checkHandle(handle, externalSemaphoreRecord.handleTypes, 'handle');
    if (checked.record.handle === 'fd' && (checked.value as number) < 0 && checked.handleType !== 'sync-fd') {
      throw new TypeError(`handle.handle of ${checked.handleType} must be a file descriptor (>= 0); got ${checked.value}`);
    }
    if (!this.platform.supports(externalSemaphoreRecord.name)) {
      throw new OpenCLExtensionError(
        externalSemaphoreRecord.name,
        this.platform.name,
        'neither the platform nor its devices advertise it: semaphores cannot be imported',
      );
    }
    for (const d of device ? [device] : context.devices) {
      const supported = this.importHandleTypes(d);
      if (!supported.includes(checked.handleType))
        throw new OpenCLHandleTypeError(checked.record.extension, this.platform.name, checked.handleType, supported, d.name, 'import');
    }
    let dropped = false;
    return importWithOwnership(
      checked,
      opts.duplicate === true,
      (value) => {
        const properties = (withList: boolean): NativePropertyList => {
          const list: NativePropertyList = [[semaphoreRecord.properties.type, semaphoreRecord.types.binary]];
          if (device && withList) list.push([semaphoreRecord.properties.deviceHandleList, [device.native]]);
          // sync-fd's -1 (a fence already signaled) is the int -1 widened, as C's (cl_semaphore_properties_khr)fd gives it.
          list.push([checked.record.token, typeof value === 'number' && value < 0 ? BigInt.asUintN(64, BigInt(value)) : value]);
          return list;
        };
        try {
          return this.native.create(context.native, properties(true));
        } catch (error) {
          if (!(device && context.devices.length === 1 && error instanceof OpenCLError && error.status === STATUS.CL_INVALID_PROPERTY)) throw error;
          dropped = true;
          return this.native.create(context.native, properties(false));
        }
      },
      (native) => new Semaphore(this, native, context, device, checked.handleType, null, dropped),
    );
  }

  /** Enqueues a wait on the semaphores (clEnqueueWaitSemaphoresKHR); later commands on an in-order queue wait for it. */
  wait(queue: CommandQueue, semaphores: readonly Semaphore[], options?: SemaphoreEnqueueOptions): Event {
    return this.#enqueue('wait', queue, semaphores, options);
  }

  /** Enqueues a signal of the semaphores (clEnqueueSignalSemaphoresKHR) once earlier commands of an in-order queue are done. */
  signal(queue: CommandQueue, semaphores: readonly Semaphore[], options?: SemaphoreEnqueueOptions): Event {
    return this.#enqueue('signal', queue, semaphores, options);
  }

  // Per call: no closures over the list and no options object made when none is passed.
  #enqueue(which: 'wait' | 'signal', queue: CommandQueue, semaphores: readonly Semaphore[], options: SemaphoreEnqueueOptions | undefined): Event {
    const call = semaphoreRecord.entryPoints[which];
    if (!(queue instanceof CommandQueue)) throw new TypeError(`queue must be a CommandQueue; got ${describeValue(queue)}`);
    if (options !== undefined && (options === null || typeof options !== 'object'))
      throw new TypeError(`options must be an object; got ${describeValue(options)}`);
    if (!Array.isArray(semaphores) || semaphores.length === 0)
      throw new TypeError(`semaphores must be a non-empty array of Semaphore; got ${describeValue(semaphores)}`);
    const length = semaphores.length;
    const natives = new Array<NativeSemaphore>(length);
    const list = new Array<Semaphore>(length);
    for (let i = 0; i < length; i++) {
      const semaphore: unknown = semaphores[i];
      if (!(semaphore instanceof Semaphore)) throw new TypeError(`semaphores[${i}] must be a Semaphore; got ${describeValue(semaphore)}`);
      if (semaphore.facade !== this) throw new TypeError(`semaphores[${i}] belongs to platform "${semaphore.facade.platform.name}"`);
      if (semaphore.released) throw new OpenCLReleasedError(`Semaphore (semaphores[${i}])`);
      if (semaphore.context !== queue.context)
        throw new OpenCLError(STATUS.CL_INVALID_CONTEXT, call, `semaphores[${i}] belongs to another context than the queue`);
      if (semaphore.device && semaphore.device !== queue.device) {
        throw new OpenCLError(
          STATUS.CL_INVALID_COMMAND_QUEUE,
          call,
          `semaphores[${i}] is for device "${semaphore.device.name}"; the queue is on "${queue.device.name}"`,
        );
      }
      for (let j = 0; j < i; j++) {
        // One wait consumes one signal: a semaphore listed twice waits for a second signal that the same command holds back.
        if (list[j] === semaphore) throw new TypeError(`semaphores[${i}] is semaphores[${j}] again: list each semaphore once`);
      }
      list[i] = semaphore;
      natives[i] = semaphore.native;
    }
    for (let i = 0; i < length; i++) list[i]!.checkEnqueue(which, `semaphores[${i}]`);
    let payloads: bigint[] | null = null;
    const requested = options?.payloads;
    if (requested !== undefined) {
      if (
        !Array.isArray(requested) ||
        requested.length !== natives.length ||
        !requested.every((p) => typeof p === 'bigint' && p >= 0n && p < 2n ** 64n)
      ) {
        throw new TypeError(`options.payloads must be one 64-bit bigint per semaphore (${natives.length}); got ${describeValue(requested)}`);
      }
      payloads = [...requested];
    }
    // Both return only once their wait list has ended on NVIDIA's driver (580): refused behind an unset user event.
    const event = queue.submit({ call, waitFor: options?.waitFor, blocking: onlyAfterWaitList }, (waitList) =>
      this.native[which](queue.slot, natives, payloads, waitList),
    );
    event.extension = semaphoreRecord.name;
    for (let i = 0; i < length; i++) list[i]!.enqueued(which, event);
    return event;
  }

  #handleTypes(device: Device | undefined, platformQuery: number, deviceQuery: number): SemaphoreHandleType[] {
    const tokens =
      device === undefined ? optionalUints(() => this.platform.info(platformQuery)) : optionalUints(() => this.#device(device).info(deviceQuery));
    return handleTypeNames(tokens, externalSemaphoreRecord.handleTypes) as SemaphoreHandleType[];
  }

  #device(device: unknown): Device {
    if (!(device instanceof Device)) throw new TypeError(`device must be a Device; got ${describeValue(device)}`);
    if (device.platform !== this.platform)
      throw new TypeError(`device "${device.name}" belongs to "${device.platform.name}", not "${this.platform.name}"`);
    return device;
  }

  /** The device a semaphore is for: options.device, required in a context of several devices (the spec's CL_INVALID_PROPERTY). */
  #target(context: Context, options: SemaphoreOptions): Device | null {
    if (!(context instanceof Context)) throw new TypeError(`context must be a Context; got ${describeValue(context)}`);
    if (context.platform !== this.platform) throw new TypeError(`the context belongs to "${context.platform.name}", not to "${this.platform.name}"`);
    const given = options.device;
    if (given === undefined) {
      if (context.devices.length > 1)
        throw new TypeError(
          'a semaphore in a context of several devices is for one of them: pass options.device (CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR)',
        );
      return null;
    }
    const device = this.#device(given);
    if (!context.devices.includes(device)) throw new TypeError(`options.device "${device.name}" is not a device of the context`);
    return device;
  }
}

/**
 * The cl_khr_semaphore facade of a platform (created once). Throws
 * OpenCLExtensionError when the platform does not advertise cl_khr_semaphore.
 */
export function getSemaphores(platform: Platform): Semaphores {
  return facadeOf(platform, semaphoreRecord.name, Semaphores);
}
