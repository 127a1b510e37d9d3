// Shared by the interop test files: the reference driver (test/driver) and
// its platform, and assertions about errors, driver calls and live objects.
import { fstatSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import {
  type CommandQueue,
  type Context,
  type Device,
  OpenCLError,
  type Platform,
  createContext,
  createVulkanInstance,
  getExternalMemory,
  getPlatforms,
} from '../../lib';
import { openReferenceDriver } from '../driver/control.mjs';
import { runNode } from './index';

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

/**
 * The lifecycle the interop suites share: `setup` runs before the suite (the
 * simulated resources it passes to the returned keep() are released after the
 * suite, last first); after the suite the OpenCL objects `openCl()` lists are
 * released first, those a test has not released already.
 */
export function sharedResources(setup: () => void, openCl: () => Array<{ released: boolean; release(): void }>): <T extends bigint>(r: T) => T {
  const resources: bigint[] = [];
  beforeAll(setup);
  afterAll(() => {
    for (const o of openCl()) if (!o.released) o.release();
    for (const r of resources.reverse()) ref.release(r);
  });
  return (r) => (resources.push(r), r);
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

/**
 * A context on the reference device with a queue, for one describe block:
 * made as the block is collected, released after its tests.
 */
export function referenceQueue(): { context: Context; queue: CommandQueue } {
  const context = createContext({ devices: [refDevice] });
  const queue = context.createQueue();
  afterAll(() => {
    queue.release();
    context.release();
  });
  return { context, queue };
}

/**
 * The reference device claiming lavapipe's deviceUUID (a GPU's OpenCL and
 * Vulkan drivers report the same one), the Vulkan device matched to it by
 * that UUID, a context and a queue on it, and the external-memory facade.
 * Disposing it releases them all and takes the claim back.
 */
export function matchedToLavapipe() {
  const instance = createVulkanInstance();
  const physical = instance.physicalDevices()[0]!;
  process.env.REFDRV_DEVICE_UUID = Buffer.from(physical.deviceUUID).toString('hex');
  const undo = () => {
    delete process.env.REFDRV_DEVICE_UUID;
    instance.dispose();
  };
  try {
    const device = platform.getDevices()[0]!;
    const vk = instance.createDevice({ uuid: device.uuidBytes! });
    const context = createContext({ devices: [device] });
    const queue = context.createQueue();
    return {
      physical,
      device,
      vk,
      context,
      queue,
      memory: getExternalMemory(platform),
      [Symbol.dispose]() {
        queue.release();
        context.release();
        vk.dispose();
        undo();
      },
    };
  } catch (error) {
    undo();
    throw error;
  }
}

/** The error fn throws (undefined if it returns). */
export function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

/** Descriptors open in this process (/proc/self/fd). */
export const openFds = (): number => readdirSync('/proc/self/fd').length;

export function isOpen(fd: number): boolean {
  try {
    fstatSync(fd);
    return true;
  } catch {
    return false;
  }
}

/**
 * Payloads as "the other API" sees them: memory fds the reference driver
 * imports (an opaque fd has its own layout; a DMA-BUF is plain bytes) and the
 * state word of an exported opaque semaphore fd (refdriver_control.h,
 * "external memory and semaphores").
 */
export const payload = {
  opaqueFd: (size: number): number => ref.createOpaqueFdMemory(size),
  dmaBuf: (size = 64): number => ref.createDmaBuf(size),
  read: (fd: number, size: number, { opaque = false, offset = 0 } = {}): Uint8Array =>
    ref.payloadRead(fd, opaque ? 'opaque' : 'dma-buf', offset, size),
  write: (fd: number, bytes: Uint8Array, { opaque = false, offset = 0 } = {}): void =>
    ref.payloadWrite(fd, opaque ? 'opaque' : 'dma-buf', offset, bytes),
  /** The state word (0 or 1) of an opaque semaphore fd; 'signal' or 'unsignal' sets it first. */
  semaphoreState: (fd: number, op: 'read' | 'signal' | 'unsignal' = 'read'): number => ref.opaqueSemaphoreState(fd, op),
};

/**
 * Objects dropped without release, in a fresh process (--expose-gc): `drop`
 * runs where `ocl`, `ref` (the reference driver's control API), `platform`
 * and `context` (on the reference driver) are defined, leaves its objects to
 * the collector and sets `left`, a function that counts those still alive.
 * Returns the count before and after collecting (up to 20 rounds).
 */
export async function collectedInFreshProcess(drop: string): Promise<[number, number]> {
  const control = JSON.stringify(pathToFileURL(resolve(__dirname, '../driver/control.mjs')).href);
  const run = await runNode(
    `(async () => {
      const { openReferenceDriver } = await import(${control});
      const ref = openReferenceDriver();
      const platform = ocl.getPlatforms().find((p) => p.name === ${JSON.stringify(REF_NAME)});
      const context = ocl.createContext({ devices: platform.getDevices() });
      let left;
      (() => {
        ${drop}
      })();
      const before = left();
      for (let i = 0; i < 20 && left() > 0; i++) { global.gc(); await new Promise((r) => setTimeout(r, 20)); }
      console.log(JSON.stringify([before, left()]));
    })();`,
    { args: ['--expose-gc'] },
  );
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return JSON.parse(run.stdout) as [number, number];
}
