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
// eslint-disable-next-line @typescript-eslint/no-empty-interface
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
