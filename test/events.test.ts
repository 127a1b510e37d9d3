import { afterAll, describe, expect, it } from 'vitest';
import { Event, OpenCLError, UserEvent, waitForEvents, type Kernel } from '../lib';
import { poclSetup, runNode } from './helpers';

const { context, queue: inOrder } = poclSetup({ profiling: true });
const outOfOrder = context.createQueue(undefined, { outOfOrder: true, profiling: true });
afterAll(() => {
  outOfOrder.release();
  inOrder.release();
  context.release();
});

async function spinKernel(): Promise<Kernel> {
  const program = context.createProgram(`
    kernel void record(global int *log, int value, int spin) {
      int acc = 0;
      for (int i = 0; i < spin; ++i) acc += i;   /* keep the command busy for a while */
      int slot = atomic_inc(&log[0]);
      log[1 + slot] = value + (acc & 0);
    }`);
  await program.build();
  return program.createKernel('record');
}

describe('events', () => {
  it('every enqueue returns an event with status, command type and profiling', async () => {
    const buffer = context.createBuffer(16);
    const write = inOrder.writeBuffer(buffer, new Uint8Array(16));
    expect(write).toBeInstanceOf(Event);
    await write.completed;
    expect(write.status).toBe('complete');
    expect(write.commandTypeName).toBe('CL_COMMAND_WRITE_BUFFER');
    const { queued, submitted, start, end } = write.profiling;
    expect(typeof queued).toBe('bigint');
    expect(submitted >= queued && start >= submitted && end >= start).toBe(true);
    const marker = inOrder.enqueueMarker();
    expect(marker.commandTypeName).toBe('CL_COMMAND_MARKER');
    const barrier = inOrder.enqueueBarrier({ waitFor: [marker] });
    expect(barrier.commandTypeName).toBe('CL_COMMAND_BARRIER');
    await barrier.completed;
  });

  it('resolves promises through callbacks without blocking the event loop', async () => {
    const gate = context.createUserEvent();
    expect(gate).toBeInstanceOf(UserEvent);
    expect(gate.commandTypeName).toBe('CL_COMMAND_USER');
    const buffer = context.createBuffer(4);
    const write = inOrder.writeBuffer(buffer, new Int32Array([7]), { waitFor: [gate] });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const settled = write.completed.then(() => 'done');
    const race = await Promise.race([settled, new Promise((r) => setTimeout(() => r('pending'), 30))]);
    expect(race).toBe('pending'); // gated: the promise waits, the loop keeps running
    expect(ticks).toBeGreaterThan(0);
    gate.setStatus('complete');
    expect(await settled).toBe('done');
    clearInterval(timer);
    expect(gate.status).toBe('complete');
  });

  it('reports running/submitted transitions and several waiters on one event', async () => {
    const gate = context.createUserEvent();
    const marker = inOrder.enqueueMarker({ waitFor: [gate] });
    const seen: string[] = [];
    const submitted = marker.whenStatus('submitted').then((s) => seen.push(`submitted:${s}`));
    const complete = marker.whenStatus('complete').then((s) => seen.push(`complete:${s}`));
    const again = marker.completed;
    inOrder.flush();
    gate.setStatus('complete');
    await Promise.all([submitted, complete, again, marker.completed]);
    expect(seen).toContain('complete:complete');
    expect(seen[0]).toMatch(/^submitted:/);
    expect(() => marker.whenStatus('done' as never)).toThrow(TypeError);
  });

  it('a failed user event fails the commands waiting on it (rejected promise, typed error)', async () => {
    const gate = context.createUserEvent();
    const marker = outOfOrder.enqueueMarker({ waitFor: [gate] });
    gate.setStatus(-42);
    await expect(gate.completed).rejects.toBeInstanceOf(OpenCLError);
    await expect(marker.completed).rejects.toThrow(/CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST|failed/);
    expect(() => gate.setStatus(3)).toThrow(RangeError);
    expect(() => context.createUserEvent().setStatus(Number.NaN)).toThrow(RangeError);
  });

  it('releasing a user event that was never set fails the commands waiting on it', async () => {
    const gate = context.createUserEvent();
    const marker = outOfOrder.enqueueMarker({ waitFor: [gate] });
    gate.release();
    await expect(marker.completed).rejects.toBeInstanceOf(OpenCLError);
    const done = context.createUserEvent();
    done.setStatus('complete');
    done.release(); // already set: nothing changes
  });

  it('orders an out-of-order queue with wait lists', async () => {
    const kernel = await spinKernel();
    const log = context.createBuffer(new Int32Array(8));
    // Three commands: c waits for b, b waits for a; a is held back by a user event.
    const gate = context.createUserEvent();
    kernel.setArgs(log, ['int', 1], ['int', 1000]);
    const a = outOfOrder.enqueueKernel(kernel, 1, { waitFor: [gate] });
    kernel.setArg(1, 2, 'int');
    const b = outOfOrder.enqueueKernel(kernel, 1, { waitFor: [a] });
    kernel.setArg(1, 3, 'int');
    const c = outOfOrder.enqueueKernel(kernel, 1, { waitFor: [b] });
    outOfOrder.flush();
    expect(['queued', 'submitted']).toContain(c.status);
    gate.setStatus('complete');
    await c.completed;
    const host = new Int32Array(8);
    outOfOrder.readBuffer(log, host, { blocking: true });
    expect([...host.subarray(0, 4)]).toEqual([3, 1, 2, 3]);
    expect(a.status).toBe('complete');
  });

  it('finishes asynchronously and synchronously; waitForEvents and waitSync block', async () => {
    const buffer = context.createBuffer(1 << 16);
    const events = [0, 1, 2].map(() => outOfOrder.fillBuffer(buffer, new Uint8Array([1])));
    waitForEvents(events);
    expect(events.every((e) => e.status === 'complete')).toBe(true);
    const one = outOfOrder.fillBuffer(buffer, new Uint8Array([2]));
    one.waitSync();
    expect(one.status).toBe('complete');
    outOfOrder.fillBuffer(buffer, new Uint8Array([3]));
    await outOfOrder.finish();
    outOfOrder.finishSync();
    expect(() => waitForEvents(['x' as never])).toThrow(TypeError);
    expect(() => outOfOrder.enqueueMarker({ waitFor: [{} as never] })).toThrow(TypeError);
  });

  it('keeps host memory of non-blocking transfers alive until the event completes', async () => {
    const gate = context.createUserEvent();
    const buffer = context.createBuffer(1024);
    const before = inOrder.pendingTransfers;
    const read = inOrder.readBuffer(buffer, new Uint8Array(1024), { waitFor: [gate] });
    expect(inOrder.pendingTransfers).toBe(before + 1);
    read.release(); // our reference is gone; the pin is not
    globalThis.gc?.();
    gate.setStatus('complete');
    await inOrder.finish();
    await new Promise((r) => setImmediate(r));
    expect(inOrder.pendingTransfers).toBe(before);
    const blocking = inOrder.writeBuffer(buffer, new Uint8Array(1024), { blocking: true });
    expect(inOrder.pendingTransfers).toBe(before);
    expect(blocking.status).toBe('complete');
  });
});

describe("drivers without clSetEventCallback (OpenCL 1.0, such as Wine's opencl.dll)", () => {
  it('promises still settle: the status is polled on a helper thread; nothing else keeps the process alive', async () => {
    // The reference driver answers clSetEventCallback with CL_INVALID_OPERATION here.
    const { status, stderr, stdout } = await runNode(
      `
      const platform = ocl.getPlatforms().find((p) => p.name === 'opencl-interop reference driver');
      const context = ocl.createContext({ devices: platform.getDevices() });
      const queue = context.createQueue(undefined, { outOfOrder: true });
      const buffer = context.createBuffer(4);
      (async () => {
        const gate = context.createUserEvent();
        const write = queue.writeBuffer(buffer, new Int32Array([7]), { waitFor: [gate] });
        let ticks = 0;
        const timer = setInterval(() => ticks++, 1);
        const settled = write.completed.then(() => 'done');
        const early = await Promise.race([settled, new Promise((r) => setTimeout(() => r('pending'), 30))]);
        gate.setStatus('complete');
        const late = await settled;
        clearInterval(timer);
        const failing = context.createUserEvent();
        const marker = queue.enqueueMarker({ waitFor: [failing] });
        failing.setStatus(-5);
        const failed = await marker.completed.then(() => 'resolved', (e) => e.constructor.name);
        // Another queue: a marker on this one waits on every earlier command, and the driver fails it
        // too when the failed marker has not ended there yet (the package's rejection comes first).
        const other = context.createQueue();
        const running = await other.enqueueMarker().whenStatus('running');
        let queued = 'accepted';
        try { await other.enqueueMarker().whenStatus('queued'); } catch (e) { queued = e.code; }
        // Never set: its promise must not keep the process alive.
        context.createUserEvent().completed.then(() => console.log('never'));
        console.log(JSON.stringify({ early, late, ticked: ticks > 0, failed, running, queued }));
      })();`,
      { env: { REFDRV_NO_EVENT_CALLBACKS: '1' } },
    );
    expect(stderr).toBe('');
    expect(status).toBe(0);
    // As clSetEventCallback would: the status asked for, and CL_QUEUED is not one to wait for.
    expect(JSON.parse(stdout)).toEqual({
      early: 'pending',
      late: 'done',
      ticked: true,
      failed: 'OpenCLCommandError',
      running: 'running',
      queued: 'CL_INVALID_VALUE',
    });
  });
});
