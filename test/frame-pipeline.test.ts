// The frame pipeline (lib/pipeline/): frames through OpenCL between a Vulkan
// producer and consumer (lavapipe + the reference driver, matched by UUID) and
// between host uploads and reads (PoCL's compiler, the reference driver's
// built-in kernel), every frame compared pixel by pixel with the CPU's
// conversion; the typed errors of bad options; dispose in every order, during a
// run and from a terminated worker, in fresh processes.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as lib from '../lib';
import { FramePipeline, FramePipelineDisposedError, FramePipelineStateError, FrameStepError, VulkanDisposedError } from '../lib';
import { hostUploadPipeline, vulkanPipeline } from './helpers/frame-pipeline.mjs';
import { poclSetup, repoRoot, runNodeForValue } from './helpers';
import { matchedToLavapipe, referenceQueue } from './helpers/ref-driver';

const supportPath = resolve(repoRoot, 'test/helpers/frame-pipeline.mjs');
const lavapipeUuid = `(() => { const i = ocl.createVulkanInstance(); const u = Buffer.from(i.physicalDevices()[0].deviceUUID).toString('hex'); i.dispose(); return u; })()`;
/** A fresh process's prelude: the reference driver matched to lavapipe, its queue, a Vulkan device, and the scenarios. */
const freshPrelude = `
process.env.REFDRV_DEVICE_UUID = ${lavapipeUuid};
const platform = ocl.getPlatforms().find((p) => p.name === 'opencl-interop reference driver');
const device = platform.getDevices()[0];
const instance = ocl.createVulkanInstance();
const vk = instance.createDevice({ uuid: device.uuidBytes });
const context = ocl.createContext({ devices: [device] });
const queue = context.createQueue();
const scenarios = import(${JSON.stringify(supportPath)});
`;

describe('FramePipeline: frames through OpenCL, every pixel checked', () => {
  it.each([
    ['ahead', 0],
    ['naive', 0],
    ['ahead', 2],
  ] as const)('Vulkan (lavapipe) -> reference driver -> Vulkan, imported memory, order %s, lag %i: 0 mismatched pixels', async (order, lag) => {
    using m = matchedToLavapipe();
    const result = await vulkanPipeline(lib, { queue: m.queue, vulkan: m.vk, slots: 4, frames: 20, order, lag });
    // lavapipe exports no semaphores: the pipeline orders the Vulkan steps from the host.
    expect(result.sync).toBe('host');
    expect(result).toMatchObject({ frames: 20, checked: 20 * 64 * 32, mismatches: 0 });
  });

  it("sync: 'semaphores' where the Vulkan device exports none is a VulkanNotSupportedError naming the export", () => {
    using m = matchedToLavapipe();
    expect(
      () =>
        new FramePipeline({
          queue: m.queue,
          vulkan: m.vk,
          slots: 2,
          sync: 'semaphores',
          produce: { vulkan: () => null as never },
          process: () => {},
          consume: { host: () => {} },
        }),
    ).toThrow(lib.VulkanNotSupportedError);
  });

  it("plain host uploads on PoCL (its compiler): the same queue, and an upload queue whose events OpenCL's work waits for: 0 mismatched pixels", async () => {
    const { context, queue } = poclSetup();
    const uploads = context.createQueue();
    try {
      expect(await hostUploadPipeline(lib, { queue, slots: 3, frames: 12 })).toEqual({ frames: 12, checked: 12 * 64 * 32, mismatches: 0 });
      expect(await hostUploadPipeline(lib, { queue, slots: 2, frames: 9, order: 'naive' })).toEqual({
        frames: 9,
        checked: 9 * 64 * 32,
        mismatches: 0,
      });
      expect(await hostUploadPipeline(lib, { queue, uploadQueue: uploads, slots: 3, frames: 12, lag: 1 })).toEqual({
        frames: 12,
        checked: 12 * 64 * 32,
        mismatches: 0,
      });
    } finally {
      uploads.release();
      queue.release();
      context.release();
    }
  });

  it('plain host uploads on the reference driver (its built-in nv12_to_rgba): 0 mismatched pixels', async () => {
    const { context, queue } = referenceQueue();
    try {
      expect(await hostUploadPipeline(lib, { queue, slots: 4, frames: 10 })).toEqual({ frames: 10, checked: 10 * 64 * 32, mismatches: 0 });
    } finally {
      queue.release();
      context.release();
    }
  });
});

describe('FramePipeline: typed errors for bad options', () => {
  const steps = { produce: { host: () => {} }, process: () => {}, consume: { host: () => {} } };

  it('names the option, what was expected and what was given', () => {
    const { context, queue } = poclSetup();
    try {
      expect(() => new FramePipeline(undefined as never)).toThrow(/options must be an object/);
      expect(() => new FramePipeline({ ...steps, queue: {} as never, slots: 2 })).toThrow(/^options.queue must be a CommandQueue; got /);
      expect(() => new FramePipeline({ ...steps, queue, slots: 0 })).toThrow(
        new RangeError('options.slots must be an integer from 1 to 256; got number 0'),
      );
      expect(() => new FramePipeline({ ...steps, queue, slots: 257 })).toThrow(RangeError);
      expect(() => new FramePipeline({ ...steps, queue, slots: '2' as never })).toThrow(/options.slots must be an integer from 1 to 256; got .*2/);
      expect(() => new FramePipeline({ ...steps, queue, slots: 2, extra: 1 } as never)).toThrow(/options.extra is not an option/);
      expect(() => new FramePipeline({ ...steps, queue, slots: 2, produce: (() => {}) as never })).toThrow(/options.produce must be an object/);
      expect(() => new FramePipeline({ ...steps, queue, slots: 2, produce: {} as never })).toThrow(
        /options.produce must be \{ vulkan: function \} or \{ host: function \}/,
      );
      expect(() => new FramePipeline({ ...steps, queue, slots: 2, produce: { host: 1 } as never })).toThrow(
        /options.produce.host must be a function; got number 1/,
      );
      expect(() => new FramePipeline({ ...steps, queue, slots: 2, consume: { host: () => {}, vulkan: () => null } as never })).toThrow(
        /options.consume must be \{ vulkan: function \} or \{ host: function \}/,
      );
      expect(() => new FramePipeline({ ...steps, queue, slots: 2, process: undefined as never })).toThrow(
        /options.process must be a function; got undefined/,
      );
      expect(() => new FramePipeline({ ...steps, queue, slots: 2, produce: { vulkan: () => null as never } })).toThrow(
        /options.vulkan must be the VulkanDevice of the producer's commands/,
      );
      expect(() => new FramePipeline({ ...steps, queue, slots: 2, vulkan: {} as never })).toThrow(/options.vulkan must be a VulkanDevice/);
      expect(() => new FramePipeline({ ...steps, queue, slots: 2, sync: 'fence' as never })).toThrow(/options.sync must be/);
      expect(() => new FramePipeline({ ...steps, queue, slots: 2, acquire: () => [1] as never })).toThrow(
        /options.acquire\(slot 0\) must return an array of MemObject/,
      );
      const outOfOrder = context.createQueue(undefined, { outOfOrder: true });
      expect(() => new FramePipeline({ ...steps, queue: outOfOrder, slots: 2 })).toThrow(/must be an in-order queue/);
      outOfOrder.release();
    } finally {
      queue.release();
      context.release();
    }
  });

  it('run(): bad options reject with the typed error; a second run while one is going is a FramePipelineStateError; after dispose a FramePipelineDisposedError', async () => {
    const { context, queue } = poclSetup();
    const pipeline = new FramePipeline({ ...steps, queue, slots: 3 });
    try {
      await expect(pipeline.run(undefined as never)).rejects.toThrow(/options must be an object; got undefined/);
      await expect(pipeline.run({ frames: -1 })).rejects.toThrow(
        new RangeError('options.frames must be an integer from 0 to 9007199254740991; got number -1'),
      );
      await expect(pipeline.run({ frames: 2, order: 'sideways' as never })).rejects.toThrow(/options.order must be/);
      await expect(pipeline.run({ frames: 2, lag: 3 })).rejects.toThrow(/options.lag must be an integer from 0 to 2; got number 3/);
      await expect(pipeline.run({ frames: 2, order: 'naive', lag: 1 })).rejects.toThrow(/options.lag must be 0 with the 'naive' order/);
      await expect(pipeline.run({ frames: 2, onConsumed: 5 as never })).rejects.toThrow(/options.onConsumed must be a function; got number 5/);
      const first = pipeline.run({ frames: 30 });
      await expect(pipeline.run({ frames: 1 })).rejects.toThrow(FramePipelineStateError);
      await first;
      pipeline.dispose();
      expect(pipeline.disposed).toBe(true);
      await expect(pipeline.run({ frames: 1 })).rejects.toThrow(FramePipelineDisposedError);
      pipeline.dispose(); // idempotent
    } finally {
      queue.release();
      context.release();
    }
  });

  it('a step that throws stops the run with a FrameStepError naming the step, the slot and the frame; the frames in flight finish and the pipeline runs again', async () => {
    const { context, queue } = poclSetup();
    const seen: number[] = [];
    let failAt = 5;
    const pipeline = new FramePipeline({
      queue,
      slots: 3,
      produce: { host: () => {} },
      process: (_slot, frame) => {
        if (frame === failAt) throw new Error('boom');
      },
      consume: { host: (_slot, frame) => void seen.push(frame) },
    });
    try {
      const error = await pipeline.run({ frames: 10 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FrameStepError);
      expect(error).toMatchObject({ step: 'process', slot: 2, frame: 5, cause: new Error('boom') });
      expect(seen).toEqual([0, 1, 2, 3, 4]);
      expect(pipeline.running).toBe(false);
      failAt = -1;
      seen.length = 0;
      await pipeline.run({ frames: 4 });
      expect(seen).toEqual([0, 1, 2, 3]);
      const badReturn = new FramePipeline({ queue, slots: 2, produce: { host: () => 7 as never }, process: () => {}, consume: { host: () => {} } });
      await expect(badReturn.run({ frames: 2 })).rejects.toMatchObject({
        step: 'produce',
        frame: 0,
        cause: new TypeError('options.produce.host() must return nothing, an Event or a promise; got number 7'),
      });
      badReturn.dispose();
      const throwing = () =>
        new FramePipeline({
          queue,
          slots: 2,
          resources: (i) => {
            if (i === 1) throw new RangeError('no memory');
            return { [Symbol.dispose]: () => seen.push(100 + i) };
          },
          ...steps,
        });
      seen.length = 0;
      expect(throwing).toThrow(expect.objectContaining({ name: 'FrameStepError', step: 'resources', slot: 1, frame: -1 }));
      expect(seen).toEqual([100]); // what was made before the failure is disposed of
    } finally {
      pipeline.dispose();
      queue.release();
      context.release();
    }
  });
});

describe('FramePipeline: lifetimes', () => {
  it('dispose() during a run: no new frame starts, the frames in flight finish, then the run rejects (framesDone) and the resources are disposed; asyncDispose resolves after that', async () => {
    const { context, queue } = poclSetup();
    const log: string[] = [];
    const pipeline = new FramePipeline({
      queue,
      slots: 3,
      resources: (i) => ({ [Symbol.dispose]: () => log.push(`dispose ${i}`) }),
      produce: { host: (_s, f) => void log.push(`produce ${f}`) },
      process: () => {},
      consume: {
        host: async (_s, f, done) => {
          await done;
          log.push(`consumed ${f}`);
          if (f === 4) pipeline.dispose();
        },
      },
    });
    try {
      const run = pipeline.run({ frames: 100 });
      const error = await run.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FramePipelineDisposedError);
      const done = (error as FramePipelineDisposedError).framesDone;
      expect(done).toBeGreaterThanOrEqual(5);
      expect(done).toBeLessThan(100);
      const firstDispose = log.findIndex((line) => line.startsWith('dispose'));
      const produced = log.filter((line) => line.startsWith('produce')).length;
      // every frame produced was consumed before any resource was disposed of
      expect(log.slice(0, firstDispose).filter((line) => line.startsWith('consumed')).length).toBe(produced);
      expect(log.slice(firstDispose)).toEqual(['dispose 0', 'dispose 1', 'dispose 2']);
      await pipeline.asyncDispose();
      expect(pipeline.slots).toEqual([]);
    } finally {
      queue.release();
      context.release();
    }
  });

  it('await using: the pipeline is disposed at the end of the scope, after the run', async () => {
    const { context, queue } = poclSetup();
    let disposed = 0;
    {
      await using pipeline = new FramePipeline({
        queue,
        slots: 2,
        resources: () => ({ [Symbol.dispose]: () => disposed++ }),
        produce: { host: () => {} },
        process: () => {},
        consume: { host: () => {} },
      });
      await pipeline.run({ frames: 5 });
      expect(disposed).toBe(0);
    }
    expect(disposed).toBe(2);
    queue.release();
    context.release();
  });

  it('dispose in every order: the pipeline, its queue, its context and the Vulkan device released in each of the 24 orders after a run, in a fresh process, clean exit', async () => {
    const { value } = await runNodeForValue(
      `${freshPrelude}
(async () => {
  const { vulkanPipeline } = await scenarios;
  const order = ['pipeline', 'queue', 'context', 'vulkan'];
  const permutations = (xs) => (xs.length <= 1 ? [xs] : xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p])));
  let ran = 0, errors = [];
  for (const p of permutations(order)) {
    const v = instance.createDevice({ uuid: device.uuidBytes });
    const c = ocl.createContext({ devices: [device] });
    const q = c.createQueue();
    const { FramePipeline } = ocl;
    const pipeline = new FramePipeline({ queue: q, vulkan: v, slots: 2, produce: { vulkan: (s) => s.resources }, resources: () => v.record((r) => r.fill(v.createBuffer({ size: 64, exportTypes: [] }), 1)), process: () => {}, consume: { vulkan: (s) => s.resources } });
    await pipeline.run({ frames: 4 });
    for (const what of p) {
      try {
        if (what === 'pipeline') pipeline.dispose();
        if (what === 'queue') q.release();
        if (what === 'context') c.release();
        if (what === 'vulkan') { await v.queue.idle(); v.dispose(); }
      } catch (e) { errors.push(p.join('>') + ': ' + what + ': ' + e.message); }
    }
    ran++;
  }
  console.log(JSON.stringify({ ran, errors }));
})();`,
      { args: [] },
    );
    expect(value).toEqual({ ran: 24, errors: [] });
  });

  it('a worker running a Vulkan -> OpenCL -> Vulkan pipeline, terminated mid-stream: the main thread goes on and the process exits cleanly', async () => {
    const workerSource = `
const ocl = require(${JSON.stringify(resolve(repoRoot, 'dist/index.js'))});
const { parentPort } = require('node:worker_threads');
${freshPrelude}
(async () => {
  const { vulkanPipeline } = await scenarios;
  for (let i = 0; ; i++) {
    await vulkanPipeline(ocl, { queue, vulkan: vk, slots: 4, frames: 8 });
    parentPort.postMessage(i);
  }
})();`;
    const { value } = await runNodeForValue(`
// The reference driver reads its environment, which a worker's process.env does not reach.
process.env.REFDRV_DEVICE_UUID = ${lavapipeUuid};
const { Worker } = require('node:worker_threads');
const worker = new Worker(${JSON.stringify(workerSource)}, { eval: true });
worker.on('error', (e) => { console.error(e); process.exitCode = 1; });
worker.on('message', async (i) => {
  if (i !== 1) return;
  const code = await worker.terminate(); // frames of the third run are in flight
  console.log(JSON.stringify({ terminated: true, code }));
});`);
    expect(value).toEqual({ terminated: true, code: 1 });
  });

  it('a disposed Vulkan device refuses a new pipeline and a run (VulkanDisposedError)', async () => {
    using m = matchedToLavapipe();
    const instance = lib.createVulkanInstance();
    try {
      const v = instance.createDevice({ uuid: m.device.uuidBytes! });
      const options = {
        queue: m.queue,
        vulkan: v,
        slots: 2,
        produce: { host: () => {} },
        process: () => {},
        consume: { vulkan: () => null as never },
      };
      const pipeline = new FramePipeline(options);
      v.dispose();
      await expect(pipeline.run({ frames: 1 })).rejects.toThrow(VulkanDisposedError);
      expect(() => new FramePipeline(options)).toThrow(VulkanDisposedError);
      pipeline.dispose();
    } finally {
      instance.dispose();
    }
  });
});
