// What the sharing facades have in common: entry points resolved for one
// platform (lazily, once), device lists, contexts made for the extension,
// exactly one wrapper per (context, resource, subresource/plane), the
// binding's own acquire state, and acquire/release grouped per extension.
import type { NativeDevice, NativeMem } from '../addon';
import type { NativeSharingBase } from './native-types';
import { Context, type ContextOptions } from '../context';
import type { Device } from '../device';
import { OpenCLError, OpenCLExtensionError, OpenCLReleasedError, OpenCLStateError, describeValue, errorName } from '../errors';
import { type Event, refuseToBlock, registerCommandTypes } from '../event';
import { type Access, CLBuffer, CLImage, MemObject, type SharingState, accessFlags, accessName } from '../memory';
import type { Platform } from '../platform';
import type { CommandQueue } from '../queue';
import { type HostAccessGuard, guardAddress } from '../sharing-hooks';
import type { EntryPointNames, ExtensionRecord, SharingExtension } from './extensions';
import { STATUS } from '../facts/cl-status';
import { checkObject } from '../validate';

/** Which devices a device query returns. */
export type DeviceSet = 'preferred' | 'all';

type NativeSharing = NativeSharingBase;

export interface SharedContextOptions extends Omit<ContextOptions, 'platform' | 'properties' | 'deviceType'> {
  /** Extra context properties besides the interop one. */
  properties?: ContextOptions['properties'];
}

/**
 * An object that holds a COM object: what the Direct3D module's devices,
 * textures and surfaces are (`comPointer`, read when the facade is called).
 */
export interface ComObjectRef {
  readonly comPointer: bigint;
}

/** A native object of another library: its address as a bigint, or an object of the Direct3D module. */
export type NativeAddress = bigint | ComObjectRef;

export interface CreateSharedOptions {
  /** How kernels may access the object (default 'read-write'). */
  access?: Access;
}

/** @internal Makes the native object of an extension: (legacy 1.1 lookup, the record's entry point names). */
export type NativeFactory<N> = (legacy: boolean, entryPoints: EntryPointNames) => N;

/** For messages: which queue, e.g. "the out-of-order queue on pthread-cpu". */
function describeQueue(queue: CommandQueue): string {
  let device = 'its device';
  let order = '';
  try {
    device = `"${queue.device.name}"`;
    order = queue.properties.outOfOrder ? 'out-of-order ' : 'in-order ';
  } catch {
    // a released queue still has a name for the message
  }
  return `the ${order}queue on ${device}${queue.released ? ' (released since)' : ''}`;
}

/** @internal The binding's record of one shared memory object. */
export class SharedObject implements SharingState, HostAccessGuard {
  readonly extension: SharingExtension;
  readonly description: string;
  readonly facade: SharingFacade<NativeSharing>;
  /** What it was created from: resource, plane, level, ... */
  readonly details: Readonly<Record<string, number | bigint>>;
  #acquiredOn: CommandQueue | null = null;
  /** The acquire that made it acquired: once known to have failed, it is not acquired. */
  #acquire: Event | undefined;

  /** The CL_MEM_* access flags it was created with. */
  readonly flags: bigint;

  constructor(facade: SharingFacade<NativeSharing>, description: string, details: Record<string, number | bigint>, flags: bigint) {
    this.facade = facade;
    this.flags = flags;
    this.extension = facade.name;
    this.description = description;
    this.details = Object.freeze({ ...details });
  }

  /**
   * The queue that acquired it, or null. An acquire that failed (the driver
   * failed it, or it was seen to end in an error) acquired nothing: then
   * null, so that no later message says "acquired" and no release writes the
   * driver's never-filled copy back. One behind a failed user event that the
   * driver ran (NVIDIA does) did acquire, and one it has not decided on yet
   * may: both count as acquired.
   */
  get acquiredOn(): CommandQueue | null {
    if (this.#acquiredOn !== null && this.#acquire?.outcome() === 'failed') {
      this.#acquiredOn = null;
      this.#acquire = undefined;
    }
    return this.#acquiredOn;
  }

  /** @internal An acquire (its event and queue) or a release (null) was just enqueued. */
  setAcquired(queue: CommandQueue | null, acquire: Event | undefined): void {
    this.#acquiredOn = queue;
    this.#acquire = acquire;
  }

  get acquired(): boolean {
    return this.acquiredOn !== null;
  }

  /**
   * @internal Why it cannot be released or acquired yet: its acquire waits on
   * a failed user event and the driver has not yet decided whether to fail it
   * or run it (the spec leaves that to the driver). Else undefined.
   */
  get undecided(): string | undefined {
    const acquire = this.#acquire;
    if (this.acquiredOn === null || acquire === undefined || acquire.outcome() !== 'undecided') return undefined;
    return (
      `the acquire of ${this.description} waits on ${acquire.failedGate()} and has not ended: drivers differ on whether such a command ` +
      'fails or runs (NVIDIA runs it), so whether it is acquired is not known yet; await the acquire (scope.event) first'
    );
  }

  /** The release enqueued last and its queue, until it is seen to end (two fields: no object made per release). */
  #releaseEvent: Event | undefined;
  #releaseQueue: CommandQueue | undefined;

  /** @internal Records the release just enqueued (its event, or the marker that joins several). */
  releasedBy(event: Event, queue: CommandQueue): void {
    this.#releaseEvent = event;
    this.#releaseQueue = queue;
  }

  get releasing(): boolean {
    const event = this.#releaseEvent;
    if (!event) return false;
    // A release event awaited (or waited for) and then released has been seen to end.
    if (event.released && !event.seenEnded) return true;
    let status: number;
    try {
      status = event.statusCode();
    } catch {
      status = 0;
    }
    if (status > 0) return true;
    this.#releaseEvent = this.#releaseQueue = undefined;
    return false;
  }

  /**
   * Before the producer's host reads or writes the resource: refused while
   * OpenCL has it acquired (an error by the spec, and the bytes would be
   * stale or torn); a release in flight is waited for, as vaSyncSurface
   * waits for the producer's own work.
   */
  settleForHost(call: string): void {
    const queue = this.acquiredOn;
    if (queue) {
      throw new OpenCLStateError(
        `${call}: ${this.description} is acquired by OpenCL on ${describeQueue(queue)}; ` +
          'release it first (scope.release(), `using`, or queue.enqueueReleaseShared())',
      );
    }
    if (!this.releasing) return;
    const event = this.#releaseEvent!,
      releasedOn = this.#releaseQueue!;
    refuseToBlock(event.blockers(), call, `the release of ${this.description} on ${describeQueue(releasedOn)}`);
    if (!event.released) event.waitSync();
    else if (!releasedOn.released) releasedOn.finishSync();
    else {
      throw new OpenCLStateError(
        `${call} cannot wait for the release of ${this.description}: its event and ${describeQueue(releasedOn)} were released ` +
          'before the release was seen to end. Await the release (or use `await using`) before reading or writing from the host.',
      );
    }
    this.#releaseEvent = this.#releaseQueue = undefined;
  }

  checkAcquired(call: string, what: string): void {
    if (this.acquiredOn) return;
    const { errors, family, entryPoints, name } = this.facade.record;
    throw new OpenCLError(
      errors.notAcquired,
      call,
      `${what}: ${this.description} is not acquired by OpenCL; acquire it first (queue.acquire(), ${entryPoints.acquire})`,
      family ?? name,
    );
  }
}

/** @internal The record of a shared object, for a facade's info queries. */
export function sharedRecord(mem: MemObject, facade: SharingFacade<NativeSharing>): SharedObject {
  const state = mem.sharing;
  if (!(state instanceof SharedObject) || state.facade !== facade) {
    throw new TypeError(`this ${mem.kind} was not created through ${facade.name} on "${facade.platform.name}"`);
  }
  return state;
}

/** Base of the facades. One facade per (platform, extension). */
export abstract class SharingFacade<N extends NativeSharing> {
  readonly platform: Platform;
  /** @internal */
  readonly native: N;
  /** @internal The extension's record (lib/interop/extensions.ts). */
  readonly record: ExtensionRecord;
  readonly #objects = new Map<string, WeakRef<MemObject>>();
  #pruneAt = 64;

  /** @internal */
  constructor(platform: Platform, record: ExtensionRecord, create: NativeFactory<N>) {
    this.platform = platform;
    this.record = record;
    if (!platform.supports(record.name)) {
      throw new OpenCLExtensionError(record.name, platform.name, 'neither the platform nor its devices advertise it');
    }
    const { major, minor } = platform.versionNumber;
    this.native = create(major === 1 && minor < 2, record.entryPoints);
    if (this.native.missing.length) {
      throw new OpenCLExtensionError(record.name, platform.name, 'advertised, but entry points are missing', [...this.native.missing]);
    }
    registerCommandTypes(record.name, record.commandTypes);
  }

  /** The extension's name. */
  get name(): SharingExtension {
    return this.record.name as SharingExtension;
  }

  /** The extension's entry points (all of them resolve on this platform). */
  get entryPoints(): readonly string[] {
    return Object.values(this.record.entryPoints);
  }

  /** @internal CL_DEVICE_NOT_FOUND becomes an empty list. */
  protected devicesFrom(query: () => NativeDevice[]): Device[] {
    let natives: NativeDevice[];
    try {
      natives = query();
    } catch (error) {
      if (error instanceof OpenCLError && error.status === STATUS.CL_DEVICE_NOT_FOUND) return [];
      throw error;
    }
    return natives.map((native) => this.platform.deviceFor(native));
  }

  /** @internal The device-set token of the record for 'preferred' (default) or 'all'; anything else is a TypeError. */
  protected deviceSetToken(set: unknown): number {
    const sets = this.record.deviceSets;
    if (!sets) throw new TypeError(`${this.record.name} has no device query`);
    if (set === undefined || set === 'preferred') return sets.preferred;
    if (set === 'all') return sets.all;
    throw new TypeError(`set must be 'preferred' or 'all'; got ${String(set)}`);
  }

  /**
   * @internal A context for this extension: the interop property first, then
   * CL_CONTEXT_INTEROP_USER_SYNC and any extra properties. Without
   * options.devices, the preferred devices for the interop handle, else all
   * of them (`devicesFor` is the facade's device query for that handle).
   */
  protected createSharedContext(property: number, handle: bigint, options: SharedContextOptions, devicesFor: (set: DeviceSet) => Device[]): Context {
    checkObject(options, 'options');
    let devices = options.devices;
    if (devices === undefined) {
      devices = devicesFor('preferred');
      if (devices.length === 0) devices = devicesFor('all');
    }
    if (devices.length === 0) {
      throw new OpenCLError(
        STATUS.CL_DEVICE_NOT_FOUND,
        'clCreateContext',
        `no device of "${this.platform.name}" can share with this ${this.record.name} object`,
      );
    }
    let context: Context;
    try {
      context = Context.create({
        ...options,
        platform: this.platform,
        devices,
        properties: [[property, handle], ...(options.properties ?? [])],
      });
    } catch (error) {
      // clCreateContext's name cannot tell colliding codes apart (the D3D9 families' -1010, D3D11's KHR/NV -1006): the property can.
      const scope = this.record.family ?? this.record.name;
      if (error instanceof OpenCLError && error.status in this.record.errorNames && error.code !== errorName(error.status, scope)) {
        throw new OpenCLError(error.status, error.call, `the ${this.record.name} device cannot be used with these OpenCL devices`, scope);
      }
      throw error;
    }
    context.interop = { extension: this.record.name, property, handle };
    return context;
  }

  /** @internal Validates a context for a create call: one of this platform's, made by this facade. */
  protected checkContext(context: Context): Context {
    if (!(context instanceof Context)) throw new TypeError(`context must be a Context; got ${describeValue(context)}`);
    if (context.platform !== this.platform) {
      throw new TypeError(`the context belongs to "${context.platform.name}", not to this facade's platform "${this.platform.name}"`);
    }
    if (!context.interop || !Object.values(this.record.deviceSources).some((source) => source.contextProperty === context.interop!.property)) {
      throw new TypeError(
        `the context was ${context.interop ? `made for ${context.interop.extension}` : 'not made for sharing'}; ` +
          `${this.record.name} objects need a context from this facade's createContext()`,
      );
    }
    return context;
  }

  /**
   * @internal Returns the live wrapper for `key` or creates one. The specs
   * allow one memory object per resource (and subresource / plane /
   * face+level): asking again in the same context returns it (unless another
   * access is asked for explicitly); another context is refused, naming it.
   */
  protected shared<T extends MemObject>(
    context: Context,
    key: string,
    description: string,
    kind: 'image' | 'buffer',
    details: Record<string, number | bigint>,
    options: CreateSharedOptions | undefined,
    create: (flags: bigint) => NativeMem,
  ): T {
    this.checkContext(context);
    const flags = SharingFacade.accessFlagsOf(options);
    const fullKey = `${context.interop!.handle}:${key}`;
    const existing = this.#objects.get(fullKey)?.deref();
    if (existing && !existing.released) {
      const record = existing.sharing as SharedObject;
      if (existing.context !== context) {
        throw new OpenCLStateError(
          `${description} already has a memory object in another context, and ${this.record.name} allows one per resource: release that one first`,
        );
      }
      if (options?.access !== undefined && record.flags !== flags) {
        throw new OpenCLStateError(
          `${description} is already shared with access '${accessName(record.flags)}'; release that ${existing.kind} first to share it with access '${accessName(flags)}'`,
        );
      }
      return existing as T;
    }
    let native: NativeMem;
    try {
      native = create(flags);
    } catch (error) {
      // Only the driver knows the resource's levels and formats: its error says what was passed.
      if (error instanceof OpenCLError && !error.message.includes(description)) {
        throw new OpenCLError(error.status, error.call, description, this.record.family ?? this.record.name);
      }
      throw error;
    }
    const mem = kind === 'image' ? new CLImage(native, context) : new CLBuffer(native, context);
    const state = new SharedObject(this as SharingFacade<NativeSharing>, description, details, flags);
    mem.sharing = state;
    // A Direct3D resource (by its COM pointer): the Direct3D module's reads and writes ask its guards.
    if (typeof details.resource === 'bigint') mem.keepAlive(guardAddress(details.resource, state));
    this.#objects.set(fullKey, new WeakRef(mem));
    if (this.#objects.size >= this.#pruneAt) {
      // A video pipeline shares new surfaces all the time: entries of released or collected objects go.
      for (const [entry, ref] of this.#objects) if (ref.deref()?.released !== false) this.#objects.delete(entry);
      this.#pruneAt = Math.max(64, this.#objects.size * 2);
    }
    return mem as unknown as T;
  }

  /** @internal Memory flags from a create call's options: an object whose access is one of the three modes. */
  static accessFlagsOf(options: CreateSharedOptions | undefined): bigint {
    if (options !== undefined) checkObject(options, 'options');
    return accessFlags(options?.access);
  }

  /**
   * @internal Checks an address argument (a native handle from another
   * library): a bigint in 1..2^64-1, or an object's `comPointer` (a disposed
   * object throws OpenCLReleasedError there).
   */
  static checkAddress(value: unknown, what: string): bigint {
    const address = typeof value === 'object' && value !== null && 'comPointer' in value ? (value as ComObjectRef).comPointer : value;
    if (typeof address !== 'bigint' || address <= 0n || address >= 2n ** 64n) {
      throw new TypeError(`${what} must be a non-zero bigint address or a Direct3D object; got ${describeValue(value)}`);
    }
    return address;
  }

  /** @internal The shared handle a Direct3D object was created with (`sharedHandle`), for a create call that takes one. */
  static sharedHandleOf(value: unknown): bigint | undefined {
    const handle = typeof value === 'object' && value !== null ? (value as { sharedHandle?: unknown }).sharedHandle : undefined;
    return typeof handle === 'bigint' ? handle : undefined;
  }

  /** @internal Checks a subresource / plane / level / face argument: an integer in 0..2^32-1. */
  static checkUint32(value: unknown, what: string): number {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 0xffffffff) {
      throw new RangeError(`${what} must be an integer from 0 to 2^32-1; got ${String(value)}`);
    }
    return value;
  }

  /** @internal Enqueues this extension's acquire or release; enqueueShared validated the objects. */
  enqueue(which: 'acquire' | 'release', queue: CommandQueue, mems: readonly MemObject[], waitFor: readonly Event[] | undefined): Event {
    const slots = new Array<number>(mems.length);
    for (let i = 0; i < mems.length; i++) slots[i] = mems[i]!.slot;
    const call = this.record.entryPoints[which];
    const blocking = which === 'acquire' ? this.record.acquireWaitsOnHost : undefined;
    const event = queue.submit({ call, waitFor, blocking }, (waitList) => this.native[which](queue.slot, slots, waitList));
    const acquiredOn = which === 'acquire' ? queue : null;
    const acquire = which === 'acquire' ? event : undefined;
    for (let i = 0; i < mems.length; i++) (mems[i]!.sharing as SharedObject).setAcquired(acquiredOn, acquire);
    event.extension = this.record.name;
    return event;
  }
}

/** An acquire of an object OpenCL holds, or a release of one it does not (or holds through another context), is refused. */
function checkSharedState(which: 'acquire' | 'release', facade: SharingFacade<NativeSharing>, state: SharedObject, queue: CommandQueue): void {
  const undecided = state.undecided;
  if (undecided !== undefined) throw new OpenCLStateError(undecided);
  if (which === 'acquire') {
    if (state.acquiredOn) {
      const { errors, entryPoints, family, name } = facade.record;
      throw new OpenCLError(errors.alreadyAcquired, entryPoints.acquire, `${state.description} is already acquired`, family ?? name);
    }
    return;
  }
  if (!state.acquiredOn) {
    const { errors, entryPoints, family, name } = facade.record;
    throw new OpenCLError(errors.notAcquired, entryPoints.release, `${state.description} is not acquired`, family ?? name);
  }
  if (state.acquiredOn.context !== queue.context) throw new TypeError(`${state.description} was acquired through another context`);
}

/** @internal Splits shared objects by facade, keeping the caller's order inside each group. */
export function groupByFacade(mems: readonly MemObject[]): Map<SharingFacade<NativeSharing>, MemObject[]> {
  if (!Array.isArray(mems) || mems.length === 0) throw new TypeError('expected a non-empty array of shared memory objects');
  const groups = new Map<SharingFacade<NativeSharing>, MemObject[]>();
  mems.forEach((mem, i) => {
    if (!(mem instanceof MemObject)) throw new TypeError(`objects[${i}] is not a memory object`);
    if (mem.released) throw new OpenCLReleasedError(`${mem.kind} (objects[${i}])`);
    const state = mem.sharing;
    if (!(state instanceof SharedObject)) {
      if (state) {
        // A sub-buffer of a shared buffer, or an image over one (the planes of an ImportedFrame).
        throw new TypeError(
          `objects[${i}] is ${state.description}: it is acquired and released through the memory it was made from. ` +
            'Acquire that memory object (for an ImportedFrame, frame.memory); its sub-buffers and planes follow it',
        );
      }
      throw new TypeError(
        `objects[${i}] (${mem.kind}) was not created through a sharing extension: acquire takes memory made from another API's resource (a Direct3D texture or surface, a VA surface) or imported from memory it exported (external memory: Vulkan, DMA-BUF)`,
      );
    }
    const group = groups.get(state.facade) ?? [];
    if (group.includes(mem)) throw new TypeError(`objects[${i}] appears twice`);
    group.push(mem);
    groups.set(state.facade, group);
  });
  return groups;
}

/**
 * The facade every object belongs to, when they all belong to one (the usual
 * case: no Map and no group arrays made per call); null when several
 * extensions are involved. Checks the objects as groupByFacade does.
 */
function singleFacade(mems: readonly MemObject[]): SharingFacade<NativeSharing> | null {
  if (!Array.isArray(mems) || mems.length === 0) return null;
  let facade: SharingFacade<NativeSharing> | null = null;
  for (let i = 0; i < mems.length; i++) {
    const mem = mems[i];
    if (!(mem instanceof MemObject) || mem.released || !(mem.sharing instanceof SharedObject)) return null;
    if (facade === null) facade = mem.sharing.facade;
    else if (mem.sharing.facade !== facade) return null;
    for (let j = 0; j < i; j++) if (mems[j] === mem) return null;
  }
  return facade;
}

/** @internal Runs acquire or release per extension; several events are joined by a marker. */
export function enqueueShared(which: 'acquire' | 'release', queue: CommandQueue, mems: readonly MemObject[], waitFor?: readonly Event[]): Event {
  const facade = singleFacade(mems);
  if (facade !== null) {
    for (let i = 0; i < mems.length; i++) {
      const mem = mems[i]!;
      if (mem.context !== queue.context)
        throw new TypeError(`${(mem.sharing as SharedObject).description} belongs to another context than the queue`);
      checkSharedState(which, facade, mem.sharing as SharedObject, queue);
    }
    const result = facade.enqueue(which, queue, mems, waitFor);
    if (which === 'release') for (let i = 0; i < mems.length; i++) (mems[i]!.sharing as SharedObject).releasedBy(result, queue);
    return result;
  }
  // Several extensions, or objects to refuse (groupByFacade says why).
  const groups = groupByFacade(mems);
  for (const mem of mems) {
    if (mem.context !== queue.context) {
      throw new TypeError(`${(mem.sharing as SharedObject).description} belongs to another context than the queue`);
    }
  }
  // Validate every group before enqueueing any, so nothing is half-done.
  for (const [facade, group] of groups) {
    for (const mem of group) checkSharedState(which, facade, mem.sharing as SharedObject, queue);
  }
  const events = [...groups].map(([facade, group]) => facade.enqueue(which, queue, group, waitFor));
  let result = events[0]!;
  if (events.length > 1) {
    result = queue.enqueueMarker({ waitFor: events });
    for (const event of events) event.release();
  }
  if (which === 'release') for (const mem of mems) (mem.sharing as SharedObject).releasedBy(result, queue);
  return result;
}
