// The fast enqueue path keeps every check of the slower one:
// events are ids in a native table, kernel arguments reach the driver with
// the enqueue, and hot calls take object-table slots. Each case runs in a
// fresh process: a crash there is a signal, not a failed assertion here.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runNodeForValue, withReferenceVa } from './helpers';

const prelude = `
const platform = ocl.getPlatforms().find((p) => p.name === 'Portable Computing Language');
const device = platform.getDevices()[0];
const context = ocl.createContext({ devices: [device] });
const queue = context.createQueue(device);
const done = (value) => console.log(JSON.stringify(value ?? null));
const errorOf = (fn) => { try { fn(); return 'no error'; } catch (e) { return e.name + ': ' + e.message; } };
`;

async function fresh(code: string, options: { gc?: boolean; timeout?: number } = {}) {
  const { value } = await runNodeForValue(prelude + code, {
    args: options.gc ? ['--expose-gc'] : [],
    timeout: options.timeout,
    env: { OCL_ICD_VENDORS: process.env.OCL_ICD_VENDORS },
  });
  return value;
}

describe('kernel arguments reach the driver with the enqueue (OpenCL 1.2 §5.7.2 clSetKernelArg: values are captured at enqueue)', () => {
  it('each launch sees the arguments set before it: buffers switched back and forth, values changed, the same buffer set again', async () => {
    const value = await fresh(`
      const program = context.createProgram('__kernel void put(__global int* out, int v) { out[get_global_id(0)] = v; }');
      program.build().then(() => {
        const kernel = program.createKernel('put');
        const a = context.createBuffer(16), b = context.createBuffer(16);
        const read = (buffer) => { const out = new Int32Array(4); queue.readBuffer(buffer, out, { blocking: true }); return [...out]; };
        kernel.setArg(0, a).setArg(1, 1, 'int'); queue.enqueueKernel(kernel, 4).release();
        kernel.setArg(0, b).setArg(1, 2, 'int'); queue.enqueueKernel(kernel, 4).release();
        kernel.setArg(0, a); queue.enqueueKernel(kernel, 4).release();           // a again, value still 2
        kernel.setArg(0, a).setArg(1, 3, 'int'); kernel.setArg(1, 4, 'int');    // set twice before one launch
        queue.enqueueKernel(kernel, 2).release();
        queue.finishSync();
        done({ a: read(a), b: read(b) });
      });
    `);
    expect(value).toEqual({ a: [4, 4, 2, 2], b: [2, 2, 2, 2] });
  });

  it('more arguments than one enqueue call carries (70 ints) are handed over one by one and all arrive', async () => {
    const value = await fresh(`
      const params = Array.from({ length: 70 }, (_, i) => 'int a' + i).join(', ');
      const sum = Array.from({ length: 70 }, (_, i) => 'a' + i).join(' + ');
      const program = context.createProgram('__kernel void many(__global int* out, ' + params + ') { out[0] = ' + sum + '; }');
      program.build().then(() => {
        const kernel = program.createKernel('many');
        const out = context.createBuffer(4);
        kernel.setArg(0, out);
        for (let i = 0; i < 70; i++) kernel.setArg(i + 1, i + 1, 'int');
        queue.enqueueKernel(kernel, 1).release();
        const result = new Int32Array(1);
        queue.readBuffer(out, result, { blocking: true });
        done(result[0]);
      });
    `);
    expect(value).toBe((70 * 71) / 2);
  });

  it('an argument released between setArg and the enqueue is a typed error at the enqueue, naming it; setting it again works', async () => {
    const value = await fresh(`
      const program = context.createProgram('__kernel void put(__global int* out, int v) { out[get_global_id(0)] = v; }');
      program.build().then(() => {
        const kernel = program.createKernel('put');
        const gone = context.createBuffer(16);
        kernel.setArg(0, gone).setArg(1, 7, 'int');
        gone.release();
        const refused = errorOf(() => queue.enqueueKernel(kernel, 4));
        const fresh = context.createBuffer(16);
        kernel.setArg(0, fresh);
        queue.enqueueKernel(kernel, 4).release();
        const out = new Int32Array(4);
        queue.readBuffer(fresh, out, { blocking: true });
        done([refused, [...out]]);
      });
    `);
    expect(value).toEqual(['OpenCLReleasedError: This CLBuffer (kernel argument 0) has been released and can no longer be used', [7, 7, 7, 7]]);
  });
});

describe("events are ids in the addon's table: released exactly once, never leaked", () => {
  it("a queue collected without release takes its commands' unreleased events with it (reference driver live objects)", async () => {
    const value = await fresh(
      withReferenceVa(`
        const context = va.createContext(display);
        const settle = async () => {
          for (let i = 0; i < 5; i++) { await new Promise((r) => setTimeout(r, 5)); global.gc(); }
          ref.waitIdle();
          return { events: ref.liveObjects('event'), queues: ref.liveObjects('command_queue') };
        };
        const before = await settle();
        (() => {
          const queue = context.createQueue();
          for (let i = 0; i < 50; i++) queue.enqueueMarker();
          queue.finishSync();
        })();
        const after = await settle();
        done({ before, after });
      `),
      { gc: true },
    );
    expect(value.after).toEqual(value.before);
  });

  it('the addon refuses ids and slots it did not give out: forged, stale, fractional, negative or of another kind (typed errors, no crash)', async () => {
    const value = await fresh(`
      const addon = require('node-gyp-build')(${JSON.stringify(resolve(__dirname, '..'))});
      const buffer = context.createBuffer(16);
      const event = queue.enqueueMarker();
      const id = event.native.id;
      event.release();
      const results = [
        errorOf(() => addon.eventInfo(id, 0x11d3)),                 // released
        errorOf(() => addon.eventInfo(id + 1, 0x11d3)),             // never given out
        errorOf(() => addon.eventInfo(-1, 0x11d3)),
        errorOf(() => addon.eventInfo(0.5, 0x11d3)),
        errorOf(() => addon.eventInfo(2 ** 60, 0x11d3)),
        errorOf(() => addon.eventInfo({}, 0x11d3)),
        errorOf(() => addon.waitForEvents([id])),
        errorOf(() => addon.releaseEvent(id)),                      // idempotent
        errorOf(() => addon.enqueueNDRange(buffer.native.slot, buffer.native.slot, undefined)), // a mem slot is no queue
        errorOf(() => addon.enqueueNDRange(queue.native.slot, 12345678, undefined)),
        errorOf(() => addon.enqueueNDRange('queue', 1, undefined)),
      ];
      done(results);
    `);
    expect(value).toEqual([
      'OpenCLReleasedError: This Event has been released and can no longer be used',
      'OpenCLReleasedError: This Event has been released and can no longer be used',
      'OpenCLReleasedError: This Event has been released and can no longer be used',
      'OpenCLReleasedError: This Event has been released and can no longer be used',
      'OpenCLReleasedError: This Event has been released and can no longer be used',
      'TypeError: event must be an event id',
      'OpenCLReleasedError: This Event has been released and can no longer be used',
      'no error',
      'TypeError: queue must be the slot of a NativeQueue',
      'TypeError: kernel must be the slot of a NativeKernel',
      'TypeError: queue must be a slot number',
    ]);
  });

  it('events of a queue released with commands in flight are released as those end; status still answers', async () => {
    const value = await fresh(`
      const gate = context.createUserEvent();
      const q = context.createQueue(device);
      const marker = q.enqueueMarker({ waitFor: [gate] });
      q.release();
      gate.setStatus('complete');
      marker.completed.then(() => done([marker.status, errorOf(() => marker.info(0x11d3))]));
    `);
    expect(value[0]).toBe('complete');
    expect(value[1]).toMatch(/^OpenCLStateError: the .* command has ended and the binding released its event/);
  });
});
