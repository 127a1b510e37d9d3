// An await resolves when its own command ends, whatever
// else is in flight. A long PoCL kernel is awaited first; a 4 KiB write on
// another queue (the reference driver's, or PoCL's own second queue, which
// PoCL runs beside the kernel) is awaited behind it. In every completion
// mode, in a fresh process (the mode is read once per queue), the write's
// await must resolve while the kernel is still running. Before each queue
// had its own waiting thread, the waiter mode resolved it only after the
// kernel ended.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runNodeForValue } from './helpers';

const streams = (shortOn: 'reference' | 'pocl') => `
(async () => {
  const byName = (name) => ocl.getPlatforms().find((p) => p.name === name);
  const pocl = ocl.createContext({ devices: [byName('Portable Computing Language').getDevices()[0]] });
  const longQueue = pocl.createQueue();
  // A kernel of one work-item whose time is set by n (a source of its own: PoCL caches binaries by source).
  const program = pocl.createProgram('__kernel void spin_streams(__global float* a, int n) { float x = 0.5f; for (int j = 0; j < n; j++) x = sin(x) * 0.5f + cos(x + j) * 0.5f; a[get_global_id(0)] = x; }');
  await program.build();
  const kernel = program.createKernel('spin_streams');
  kernel.setArg(0, pocl.createBuffer(64));
  // Calibrated to last about 300 ms here, after a first run (PoCL compiles the kernel at its first run).
  kernel.setArg(1, 1, 'int');
  await longQueue.enqueueKernel(kernel, 1);
  let n = 20000;
  for (;;) {
    kernel.setArg(1, n, 'int');
    const started = performance.now();
    await longQueue.enqueueKernel(kernel, 1);
    const ms = performance.now() - started;
    if (ms >= 100 || n > 1e8) { n = Math.max(n, Math.ceil(n * 300 / ms)); break; }
    n *= 4;
  }
  kernel.setArg(1, n, 'int');
  const short = ${shortOn === 'reference' ? "ocl.createContext({ devices: [byName('opencl-interop reference driver').getDevices()[0]] })" : 'pocl'};
  const shortQueue = short.createQueue();
  const target = short.createBuffer(4096);
  const bytes = new Uint8Array(4096).fill(7);
  const results = [];
  for (let round = 0; round < 3; round++) {
    const started = performance.now();
    const long = longQueue.enqueueKernel(kernel, 1);
    longQueue.flush();
    let longMs;
    const longAwait = long.then(() => (longMs = performance.now() - started));
    const write = shortQueue.writeBuffer(target, bytes);
    await write;
    const shortMs = performance.now() - started;
    const longStatusThen = long.status;
    await longAwait;
    results.push({ shortMs, longMs, longStatusThen });
  }
  console.log(JSON.stringify({ mode: process.env.OPENCL_INTEROP_COMPLETION ?? 'default', n, results }));
})();`;

describe('an await is not held behind an unrelated long command', () => {
  for (const shortOn of ['reference', 'pocl'] as const) {
    const where = shortOn === 'reference' ? 'on the reference driver' : 'on a second PoCL queue (PoCL runs the two queues concurrently)';
    it.each([['callback'], ['waiter'], ['poll'], [undefined]])(
      `a 4 KiB write ${where}, awaited while a ~300 ms PoCL kernel is awaited, resolves while the kernel runs (OPENCL_INTEROP_COMPLETION=%s)`,
      async (mode) => {
        const { value } = await runNodeForValue(streams(shortOn), { env: { OPENCL_INTEROP_COMPLETION: mode } });
        const { results } = value as { results: { shortMs: number; longMs: number; longStatusThen: string }[] };
        console.log(JSON.stringify(value));
        // At least 2 rounds of 3 (a loaded machine may stall the kernel's thread briefly).
        const inTime = results.filter((r) => r.longStatusThen !== 'complete' && r.shortMs < r.longMs);
        expect(inTime.length, JSON.stringify(results)).toBeGreaterThanOrEqual(2);
      },
      300_000,
    );
  }
});

// The waiting threads at teardown: no crash, no hang, no call into a driver
// being torn down. Each in a fresh process in the waiter and the poll modes.
describe.each([['waiter'], ['poll']])(
  "waiting threads at exit, at a worker's end, and behind a user event never set (OPENCL_INTEROP_COMPLETION=%s)",
  (mode) => {
    const setup = `
    const byName = (name) => ocl.getPlatforms().find((p) => p.name === name);
    const open = async () => {
      const context = ocl.createContext({ devices: [byName('Portable Computing Language').getDevices()[0]] });
      const program = context.createProgram('__kernel void spin_exit(__global float* a, int n) { float x = 0.5f; for (int j = 0; j < n; j++) x = sin(x) * 0.5f + cos(x + j) * 0.5f; a[get_global_id(0)] = x; }');
      await program.build();
      const kernel = program.createKernel('spin_exit').setArgs(context.createBuffer(64), ['int', 1]);
      return { context, kernel };
    };`;
    const waiter = { env: { OPENCL_INTEROP_COMPLETION: mode } };

    it('process.exit() with awaits in flight on three queues (kernels of ~1 s): exits with status 0', async () => {
      const { value } = await runNodeForValue(
        `${setup}
      (async () => {
        const { context, kernel } = await open();
        const queues = [context.createQueue(), context.createQueue(), context.createQueue()];
        await queues[0].enqueueKernel(kernel, 1);
        kernel.setArg(1, 5_000_000, 'int');
        for (const queue of queues) queue.enqueueKernel(kernel, 1).then(() => console.log('ended'));
        setTimeout(() => { console.log(JSON.stringify('exiting')); process.exit(0); }, 100);
      })();`,
        waiter,
      );
      expect(value).toBe('exiting');
    });

    it('a worker terminated with awaits in flight: the others (and the main thread) go on, and the process exits by itself', async () => {
      const { value } = await runNodeForValue(
        `
      const { Worker } = require('node:worker_threads');
      const source = ${JSON.stringify(`const ocl = require(${JSON.stringify(resolve(__dirname, '../dist/index.js'))});`)} + ${JSON.stringify(setup)} + \`
        (async () => {
          const { context, kernel } = await open();
          const queue = context.createQueue();
          await queue.enqueueKernel(kernel, 1);
          kernel.setArg(1, 2_000_000, 'int');
          require('node:worker_threads').parentPort.postMessage('started');
          for (;;) await queue.enqueueKernel(kernel, 1);
        })();\`;
      const worker = new Worker(source, { eval: true });
      worker.on('message', async () => {
        const code = await worker.terminate();
        ${setup}
        const { context, kernel } = await open();
        const queue = context.createQueue();
        await queue.enqueueKernel(kernel, 1);
        await queue.writeBuffer(context.createBuffer(16), new Uint8Array(16));
        console.log(JSON.stringify({ code, mainGoesOn: true }));
      });`,
        waiter,
      );
      expect(value).toEqual({ code: 1, mainGoesOn: true });
    });

    it('an awaited command behind a user event never set, on a queue with waited commands: the process exits when the script ends', async () => {
      const { value } = await runNodeForValue(
        `${setup}
      (async () => {
        const { context, kernel } = await open();
        const queue = context.createQueue();
        await queue.enqueueKernel(kernel, 1);
        const gate = context.createUserEvent();
        queue.enqueueKernel(kernel, 1, { waitFor: [gate] }).then(() => console.log('never'));
        queue.writeBuffer(context.createBuffer(16), new Uint8Array(16)).then(() => console.log('never'));
        console.log(JSON.stringify('script ended'));
      })();`,
        { ...waiter, timeout: 60_000 },
      );
      expect(value).toBe('script ended');
    });
  },
);

describe("createQueue's completion option: how awaits on the queue learn that a command ended", () => {
  it.each([['callback'], ['waiter'], ['poll']] as const)(
    "completion: '%s': the queue says so, and awaited writes, reads and a kernel of ~50 ms resolve with their results",
    async (mode) => {
      const { value } = await runNodeForValue(`
        (async () => {
          const platform = ocl.getPlatforms().find((p) => p.name === 'Portable Computing Language');
          const context = ocl.createContext({ devices: [platform.getDevices()[0]] });
          const queue = context.createQueue(undefined, { completion: ${JSON.stringify(mode)} });
          const program = context.createProgram('__kernel void spin_option(__global float* a, int n) { float x = 0.5f; for (int j = 0; j < n; j++) x = sin(x) * 0.5f + cos(x + j) * 0.5f; a[get_global_id(0)] = x + 1.0f; }');
          await program.build();
          const out = context.createBuffer(4);
          const kernel = program.createKernel('spin_option').setArgs(out, ['int', 1]);
          await queue.enqueueKernel(kernel, 1);
          kernel.setArg(1, 300000, 'int');
          const started = performance.now();
          await queue.enqueueKernel(kernel, 1);
          const kernelMs = performance.now() - started;
          const buffer = context.createBuffer(1 << 20);
          const data = new Uint8Array(1 << 20).map((_, i) => i % 251);
          const back = new Uint8Array(1 << 20);
          await queue.writeBuffer(buffer, data);
          await queue.readBuffer(buffer, back);
          const first = new Float32Array(1);
          await queue.readBuffer(out, first);
          console.log(JSON.stringify({ completion: queue.completion, same: back.every((b, i) => b === data[i]), kernelRan: first[0] !== 0, kernelMs }));
          queue.release();
          context.release();
        })();`);
      const result = value as { completion: string; same: boolean; kernelRan: boolean; kernelMs: number };
      expect(result).toMatchObject({ completion: mode, same: true, kernelRan: true });
    },
    120_000,
  );

  it.each([['waiter'], ['poll']])(
    "OPENCL_INTEROP_COMPLETION=%s: an out-of-order queue still takes the driver's callbacks (its thread would wait in the order of the awaits)",
    async (mode) => {
      const { value } = await runNodeForValue(
        `
        const platform = ocl.getPlatforms().find((p) => p.name === 'Portable Computing Language');
        const context = ocl.createContext({ devices: [platform.getDevices()[0]] });
        const queue = context.createQueue(undefined, { outOfOrder: true });
        const inOrder = context.createQueue();
        console.log(JSON.stringify({ outOfOrder: queue.completion, inOrder: inOrder.completion }));`,
        { env: { OPENCL_INTEROP_COMPLETION: mode } },
      );
      expect(value).toEqual({ outOfOrder: 'callback', inOrder: mode });
    },
  );

  it('a value that is no mechanism is a TypeError naming the option, what it takes and what it got', async () => {
    const { poclSetup } = await import('./helpers');
    const { context, queue } = poclSetup();
    try {
      expect(() => context.createQueue(undefined, { completion: 'spin' as never })).toThrow(
        new TypeError("options.completion must be 'callback', 'waiter', 'poll' or undefined; got the string \"spin\""),
      );
      expect(() => context.createQueue(undefined, { outOfOrder: true, completion: 'poll' })).toThrow(
        /options.completion 'poll' needs an in-order queue/,
      );
      const outOfOrder = context.createQueue(undefined, { outOfOrder: true, completion: 'callback' });
      expect(outOfOrder.completion).toBe('callback');
      outOfOrder.release();
    } finally {
      queue.release();
      context.release();
    }
  });
});
