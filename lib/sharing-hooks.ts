// The core's side of the sharing extensions. lib/interop/ builds on the core:
// it registers here, and the core (Platform.getSharing, Context.sharing,
// CommandQueue's acquire/release, the info report) reaches it only through
// this module, never by importing lib/interop/. The types are the core's;
// lib/interop/index.ts fills SharingFacades in by declaration merging.
import type { Event } from './event';
import type { ContextLink, PlatformLink, QueueLink } from './links';
import type { MemObject } from './memory';

/**
 * Extension name -> facade class. Empty here; lib/interop/index.ts adds one
 * member per sharing extension (`declare module '../sharing-hooks'`).
 */
// biome-ignore lint/suspicious/noEmptyInterface: each sharing extension adds its member by declaration merging
export interface SharingFacades {}

/** The name of a sharing extension the package binds. */
export type SharingExtension = keyof SharingFacades & string;

/** What lib/interop hands the core. */
export interface SharingHooks {
  /** Acquire or release shared objects on a queue (validation, per-extension grouping, the binding's state). */
  enqueue(which: 'acquire' | 'release', queue: QueueLink, mems: readonly MemObject[], waitFor?: readonly Event[]): Event;
  /** The facade of an extension on a platform (created lazily, cached). */
  facade(platform: PlatformLink, extension: string): unknown;
  /** The facade of the extension a context was made for. */
  facadeOf(context: ContextLink): unknown;
  /** Every bound extension and its entry point names, in record order. */
  readonly entryPoints: Readonly<Record<string, readonly string[]>>;
}

let hooks: SharingHooks | undefined;

/** @internal Called once by lib/interop/index.ts. */
export function registerSharingHooks(implementation: SharingHooks): void {
  hooks = implementation;
}

function installed(): SharingHooks {
  if (!hooks) {
    // lib/index.ts imports lib/interop, so a program that uses the package's entry point never sees this.
    throw new Error('opencl-interop: the sharing extensions are not loaded (import the package, not lib/ files one by one)');
  }
  return hooks;
}

/** @internal CommandQueue's acquire/release of shared objects. */
export function enqueueShared(which: 'acquire' | 'release', queue: QueueLink, mems: readonly MemObject[], waitFor?: readonly Event[]): Event {
  return installed().enqueue(which, queue, mems, waitFor);
}

/** @internal Platform.getSharing. */
export function sharingFacade<K extends SharingExtension>(platform: PlatformLink, extension: K): SharingFacades[K] {
  return installed().facade(platform, extension) as SharingFacades[K];
}

/** @internal Context.sharing. */
export function sharingFacadeOf(context: ContextLink): SharingFacades[SharingExtension] {
  return installed().facadeOf(context) as SharingFacades[SharingExtension];
}

/** @internal The info report: every bound extension's entry point names. */
export function sharingEntryPoints(): Readonly<Record<string, readonly string[]>> {
  return installed().entryPoints;
}

/**
 * A shared memory object's claim on its producer's resource (a VA surface, a
 * texture of the Direct3D module): what the producer asks before its host
 * reads and writes. Spec (cl_intel_va_api_media_sharing 9.X.6, and the same
 * words in the D3D sharing extensions): accessing the resource while OpenCL
 * has it acquired is an error; after a release, the producer's access must
 * wait until the release has ended (CL_CONTEXT_INTEROP_USER_SYNC).
 */
export interface HostAccessGuard {
  /** Throws OpenCLStateError while OpenCL has the resource acquired; waits for a release in flight to end. */
  settleForHost(call: string): void;
  /** True while a release is enqueued and not yet seen to end. */
  readonly releasing: boolean;
}

/**
 * @internal The guards of one producer resource (see HostAccessGuard). Held
 * weakly while their memory object lives (one collected unreleased no
 * longer guards); one let go of with a release in flight stays until it ends.
 */
export class HostAccessGuards {
  readonly #held = new Set<WeakRef<HostAccessGuard>>();
  readonly #releasing = new Set<HostAccessGuard>();

  /** Adds a guard; the returned function lets go of it. */
  add(guard: HostAccessGuard): () => void {
    const ref = new WeakRef(guard);
    this.#held.add(ref);
    return () => {
      if (!this.#held.delete(ref)) return;
      if (guard.releasing) this.#releasing.add(guard);
    };
  }

  /** Before a host read or write: see HostAccessGuard.settleForHost. */
  settle(call: string): void {
    for (const ref of this.#held) {
      const guard = ref.deref();
      if (guard) guard.settleForHost(call);
      else this.#held.delete(ref);
    }
    for (const guard of this.#releasing) {
      guard.settleForHost(call);
      this.#releasing.delete(guard);
    }
  }

  /** True when no guard is left. */
  get empty(): boolean {
    return this.#held.size === 0 && this.#releasing.size === 0;
  }
}

/** Guards of resources the facades know by address (Direct3D COM objects): the same object whichever wrapper reads it. */
const guardsByAddress = new Map<bigint, HostAccessGuards>();

/** @internal Registers a shared object's guard on the resource at `address`; the returned function lets go of it. */
export function guardAddress(address: bigint, guard: HostAccessGuard): () => void {
  let guards = guardsByAddress.get(address);
  if (!guards) guardsByAddress.set(address, (guards = new HostAccessGuards()));
  const letGo = guards.add(guard);
  return () => {
    letGo();
    if (guards.empty && guardsByAddress.get(address) === guards) guardsByAddress.delete(address);
  };
}

/** @internal Before a host read or write of the resource at `address`: see HostAccessGuard.settleForHost. */
export function settleAddress(address: bigint, call: string): void {
  const guards = guardsByAddress.get(address);
  if (!guards) return;
  guards.settle(call);
  if (guards.empty) guardsByAddress.delete(address);
}
