// The frame pipeline on the GPU under test: Vulkan -> OpenCL -> Vulkan through
// the package's FramePipeline, 4K NV12 test frames, every pixel of every frame
// compared with the CPU's conversion; ordered by semaphores where the Vulkan
// device exports them (NVIDIA), else from the host (lavapipe + the reference
// driver here). Host uploads too, and several GPUs from one process.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hostUploadPipeline, vulkanPipeline } from '../helpers/frame-pipeline.mjs';
import { describeRun, gpuDevice, ocl, runFresh, vulkanMatches } from './support.mjs';

const device = gpuDevice();
const big = device.compilerAvailable; // a GPU: 4K frames; the reference driver: small ones
const [width, height] = big ? [3840, 2160] : [64, 32];

describe('FramePipeline on the GPU', { skip: !vulkanMatches(device) && 'no Vulkan device matches the OpenCL device by UUID' }, () => {
  for (const [order, lag] of [
    ['ahead', 0],
    ['naive', 0],
    ['ahead', 4],
  ]) {
    it(`Vulkan -> OpenCL -> Vulkan, ${width}x${height}, 8 slots, order ${order}, lag ${lag}: 0 mismatched pixels; semaphores where Vulkan exports them`, async () => {
      const instance = ocl.createVulkanInstance();
      const vulkan = instance.createDevice({ uuid: device.uuidBytes });
      const context = ocl.createContext({ devices: [device] });
      const queue = context.createQueue();
      try {
        const frames = 48;
        const result = await vulkanPipeline(ocl, { queue, vulkan, width, height, slots: 8, frames, order, lag });
        assert.equal(result.sync, vulkan.semaphoreHandleTypes.includes('opaque-fd') ? 'semaphores' : 'host');
        assert.deepEqual(result, { sync: result.sync, frames, checked: frames * width * height, mismatches: 0 });
      } finally {
        await vulkan.queue.idle();
        queue.release();
        context.release();
        vulkan.dispose();
        instance.dispose();
      }
    });
  }

  it(`plain host uploads, ${width}x${height}, on the pipeline's queue and on an upload queue: 0 mismatched pixels`, async () => {
    const context = ocl.createContext({ devices: [device] });
    const queue = context.createQueue();
    const uploads = context.createQueue();
    try {
      assert.deepEqual(await hostUploadPipeline(ocl, { queue, width, height, slots: 4, frames: 16 }), {
        frames: 16,
        checked: 16 * width * height,
        mismatches: 0,
      });
      assert.deepEqual(await hostUploadPipeline(ocl, { queue, uploadQueue: uploads, width, height, slots: 4, frames: 16, lag: 2 }), {
        frames: 16,
        checked: 16 * width * height,
        mismatches: 0,
      });
    } finally {
      uploads.release();
      queue.release();
      context.release();
    }
  });

  it('every GPU of the platform at once from one thread, in a fresh process: 0 mismatched pixels on each, clean exit', async () => {
    const run = await runFresh(
      `
const { Worker } = require('node:worker_threads');
(async () => {
  const { vulkanPipeline } = await import(${JSON.stringify(new URL('../helpers/frame-pipeline.mjs', import.meta.url).href)});
  const gpus = (platform.getDevices('gpu').length ? platform.getDevices('gpu') : platform.getDevices()).filter((d) => d.uuidBytes);
  const instance = ocl.createVulkanInstance();
  const lanes = gpus.map((d) => { const context = ocl.createContext({ devices: [d] }); return { context, queue: context.createQueue(), vulkan: instance.createDevice({ uuid: d.uuidBytes }) }; });
  const results = await Promise.all(lanes.map((l) => vulkanPipeline(ocl, { queue: l.queue, vulkan: l.vulkan, width: ${width}, height: ${height}, slots: 8, frames: 24 })));
  for (const l of lanes) { await l.vulkan.queue.idle(); l.queue.release(); l.context.release(); l.vulkan.dispose(); }
  instance.dispose();
  console.log(JSON.stringify({ gpus: gpus.length, mismatches: results.map((r) => r.mismatches), frames: results.map((r) => r.frames) }));
})();`,
      { timeoutMs: 120_000 },
    );
    assert.equal(run.status, 0, describeRun(run));
    const value = JSON.parse(run.stdout.trim().split('\n').pop());
    assert.ok(value.gpus >= 1);
    assert.deepEqual(value.mismatches, Array(value.gpus).fill(0));
    assert.deepEqual(value.frames, Array(value.gpus).fill(24));
  });
});
