// The one cache of sharing facades: one per (platform, extension), made on
// first use. Every facade (the seven classic ones, ExternalMemory,
// Semaphores) is kept here, whichever way it is asked for (getSharing,
// platform.getSharing, getExternalMemory, getSemaphores).
import type { Platform } from '../platform';

const made = new WeakMap<Platform, Map<string, unknown>>();

/** @internal The facade of `extension` on `platform`, made with `create` the first time. */
export function facadeOf<F>(platform: Platform, extension: string, create: new (platform: Platform) => F): F {
  let facades = made.get(platform);
  if (!facades) made.set(platform, (facades = new Map()));
  let facade = facades.get(extension) as F | undefined;
  if (facade === undefined) facades.set(extension, (facade = new create(platform)));
  return facade;
}
