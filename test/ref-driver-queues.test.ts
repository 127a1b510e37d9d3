// The reference driver (test equipment) runs its command queues concurrently,
// as a GPU does, and can slow commands down (setCommandDelay), so that overlap
// between queues shows through the package without a GPU. Times here are only
// ordering evidence: which command completed first, never how fast.
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createContext } from '../lib';
import { runNode } from './helpers';
import { REF_NAME, bytes, ref, refDevice } from './helpers/ref-driver';

const context = createContext({ devices: [refDevice] });
const queueA = context.createQueue(refDevice, { profiling: true });
const queueB = context.createQueue(refDevice, { profiling: true });
const program = context.createProgramWithBuiltInKernels(['copy_buffer']);
afterEach(() => ref.setCommandDelay(0));
afterAll(() => {
  program.release();
  queueA.release();
  queueB.release();
  context.release();
});

function slowCopy(size: number) {
  const source = bytes(size, (i) => i * 7 + 1);
  const src = context.createBuffer(source);
  const dst = context.createBuffer(size);
  const kernel = program.createKernel('copy_buffer').setArgs(src, dst);
  return {
    source,
    dst,
    run: (delayUs: number) => {
      ref.setCommandDelay({ kernel: delayUs });
      const event = queueA.enqueueKernel(kernel, size);
      ref.setCommandDelay(0);
      return event;
    },
    release() {
      kernel.release();
      src.release();
      dst.release();
    },
  };
}

describe('reference driver: queues run concurrently (OpenCL 3.0 section 5.11)', () => {
  it('a write on queue B completes while a slowed kernel on queue A still runs', async () => {
    const copy = slowCopy(4096);
    const other = context.createBuffer(64);
    const order: string[] = [];
    const slow = copy.run(600_000);
    const slowDone = slow.completed.then(() => order.push('A kernel'));
    await slow.whenStatus('running');
    const write = queueB.writeBuffer(
      other,
      bytes(64, (i) => i),
    );
    await write.completed;
    order.push('B write');
    expect(slow.status).toBe('running');
    await slowDone;
    expect(order).toEqual(['B write', 'A kernel']);
    expect(write.profiling.end < slow.profiling.end).toBe(true);
    const out = new Uint8Array(4096);
    await queueB.readBuffer(copy.dst, out).completed;
    expect(out).toEqual(copy.source);
    for (const e of [slow, write]) e.release();
    other.release();
    copy.release();
  });

  it("a command on queue B that waits for queue A's slowed kernel runs after it and sees its result", async () => {
    const copy = slowCopy(1024);
    const slow = copy.run(300_000);
    const out = new Uint8Array(1024);
    const read = queueB.readBuffer(copy.dst, out, { waitFor: [slow] });
    await read.completed;
    expect(slow.status).toBe('complete');
    expect(out).toEqual(copy.source);
    expect(read.profiling.start >= slow.profiling.end).toBe(true);
    for (const e of [slow, read]) e.release();
    copy.release();
  });

  it('a failed user event fails the command on queue A waiting on it and the one on queue B waiting on that', async () => {
    const gate = context.createUserEvent();
    const buffer = context.createBuffer(16);
    const onA = queueA.fillBuffer(buffer, new Uint8Array([1]), { waitFor: [gate] });
    const onB = queueB.fillBuffer(buffer, new Uint8Array([2]), { waitFor: [onA] });
    gate.setStatus(-77);
    await expect(onB.completed).rejects.toMatchObject({ code: 'CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST' });
    // The package rejects at once (its view of a failed user event); the driver's own statuses follow on its thread.
    await vi.waitFor(
      () => {
        expect(onA.status).toBe(-14); // CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
        expect(onB.status).toBe(-14);
      },
      { timeout: 10_000 },
    );
    for (const e of [gate, onA, onB]) e.release();
    buffer.release();
  });
});

describe('reference driver: setCommandDelay (control.mjs)', () => {
  it('sets per-class delays that later enqueues take, and clears them', () => {
    ref.setCommandDelay({ all: 5, kernel: 2000 });
    expect(ref.commandDelay(0x11f0)).toBe(2000); // CL_COMMAND_NDRANGE_KERNEL
    expect(ref.commandDelay(0x11f4)).toBe(5); // CL_COMMAND_WRITE_BUFFER
    ref.setCommandDelay(70);
    expect(ref.commandDelay(0x11fe)).toBe(70); // CL_COMMAND_MARKER
    ref.setCommandDelay({});
    expect(ref.commandDelay(0x11f0)).toBe(0);
  });

  it('rejects what is not a delay with a TypeError naming the argument', () => {
    expect(() => ref.setCommandDelay(-1)).toThrow(/setCommandDelay: delays must be an integer number of microseconds from 0 to 60000000, got -1/);
    expect(() => ref.setCommandDelay({ kernel: 1.5 })).toThrow(/delays\.kernel must be an integer/);
    expect(() => ref.setCommandDelay({ kernels: 1 } as never)).toThrow(/unknown command class 'kernels'/);
    expect(() => ref.setCommandDelay('kernel=1' as never)).toThrow(/got string/);
    expect(() => ref.commandDelay(-1)).toThrow(/commandDelay: commandType must be a CL_COMMAND_\* value/);
  });
});

describe('reference driver: teardown with queues busy', () => {
  it('a process that exits while a slowed command runs and another waits on a user event ends cleanly at once', async () => {
    const control = JSON.stringify(pathToFileURL(resolve(__dirname, 'driver/control.mjs')).href);
    const run = await runNode(
      `(async () => {
        const { openReferenceDriver } = await import(${control});
        const ref = openReferenceDriver();
        const platform = ocl.getPlatforms().find((p) => p.name === ${JSON.stringify(REF_NAME)});
        const device = platform.getDevices()[0];
        const context = ocl.createContext({ devices: [device] });
        const a = context.createQueue(device);
        const b = context.createQueue(device);
        const c = context.createQueue(device);
        const program = context.createProgramWithBuiltInKernels(['copy_buffer']);
        const src = context.createBuffer(1 << 20), dst = context.createBuffer(1 << 20);
        const kernel = program.createKernel('copy_buffer').setArgs(src, dst);
        ref.setCommandDelay({ kernel: 30_000_000 });
        const slow = a.enqueueKernel(kernel, 1 << 20);
        slow.completed.then(() => console.log('the slow kernel completed'));
        const gate = context.createUserEvent();
        c.writeBuffer(src, new Uint8Array(16), { waitFor: [gate] }).completed.catch(() => {});
        await slow.whenStatus('running');
        await b.writeBuffer(dst, new Uint8Array(16)).completed;
        console.log('exiting');
        process.exit(0);
      })().catch((e) => { console.error(e); process.exit(1); });`,
      { timeout: 20_000 },
    );
    expect(run.signal).toBeNull();
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe('exiting');
  });
});
