// Shared by the interop test files: the reference driver (test/driver) and
// its platform, and assertions about errors, driver calls and live objects.
import { expect } from 'vitest';
import {
  type Device,
  OpenCLError,
  type Platform,
  getPlatforms,
} from '../../lib';
import { openReferenceDriver } from '../driver/control.mjs';

export const REF_NAME = 'opencl-interop reference driver';
export const ref = openReferenceDriver();

export function refPlatform(): Platform {
  const platform = getPlatforms().find((p) => p.name === REF_NAME);
  if (!platform) throw new Error(`${REF_NAME} is not among the platforms: run npm run build:driver`);
  return platform;
}
export const platform = refPlatform();
export const refDevice: Device = platform.getDevices()[0]!;

/** Runs fn and returns the OpenCLError it throws, checking its spec name. */
export function clError(fn: () => unknown, code: string, call?: string): OpenCLError {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught, `expected ${code}`).toBeInstanceOf(OpenCLError);
  const error = caught as OpenCLError;
  expect(error.code).toBe(code);
  if (call) expect(error.call).toBe(call);
  return error;
}

/**
 * fn throws `type` and the facade never calls the driver: its native object is
 * swapped for a proxy that records every method call while fn runs.
 */
export function rejectedBeforeDriver(facade: object, fn: () => unknown, type: new (...args: never[]) => Error = TypeError): void {
  const holder = facade as { native: object };
  const original = holder.native;
  const calls: string[] = [];
  holder.native = new Proxy(original, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(key));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  try {
    expect(fn).toThrow(type);
  } finally {
    holder.native = original;
  }
  expect(calls).toEqual([]);
}

/** Live driver objects, to check each describe leaves none behind. */
export function live(): { mem: number; context: number; queue: number; event: number } {
  ref.waitIdle();
  return {
    mem: ref.liveObjects('mem'),
    context: ref.liveObjects('context'),
    queue: ref.liveObjects('command_queue'),
    event: ref.liveObjects('event'),
  };
}

/** Waits for an event, then releases it. */
export async function done(event: { completed: Promise<void>; release(): void }): Promise<void> {
  await event.completed;
  event.release();
}

export const bytes = (n: number, f: (i: number) => number) => Uint8Array.from({ length: n }, (_, i) => f(i) & 0xff);
