// A program that ends, throws, or is a worker terminated
// with imported external memory still acquired must exit. On NVIDIA's driver
// (580) each of these processes never ended before the fix; on the
// reference driver they did until it learnt to behave as NVIDIA does.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeRun, exitClock, gpuDevice, prelude, runFresh, vulkanMatches } from './support.mjs';

const hasVulkan = vulkanMatches(gpuDevice());

// A Vulkan buffer imported into a context on the same GPU.
const setup = `
const vk = vulkanDevice();
const context = ocl.createContext({ devices: [device] });
const queue = context.createQueue(device);
const vkBuffer = vk.createBuffer({ size: 1 << 16 });
const memory = ocl.getExternalMemory(platform);
const m = memory.importBuffer(context, vkBuffer.exportMemory());
const note = (what) => process.stdout.write(what + '\\n');
`;

const scenarios = {
  'the script ends with the memory acquired (cl_khr_external_memory: acquire, no release)': `
    (async () => { await queue.enqueueAcquireShared([m]); note('acquired'); })();`,
  'a second acquire throws CL_INVALID_OPERATION, then the script ends': `
    (async () => {
      await queue.enqueueAcquireShared([m]);
      try { await queue.enqueueAcquireShared([m]); } catch (e) { note(e.constructor.name + ': ' + e.message.split('\\n')[0]); }
    })();`,
  'release() of acquired memory throws OpenCLStateError, then the script ends': `
    (async () => {
      queue.acquire([m]);
      try { m.release(); } catch (e) { note(e.constructor.name); }
    })();`,
  'an uncaught throw inside a scope that is not using': `
    (async () => {
      const scope = queue.acquire([m]);
      await queue.finish();
      throw new Error('user code failed');
    })().catch((e) => { note('caught ' + e.message); process.exitCode = 3; });`,
  'queue and context released while acquired, then the memory': `
    (async () => {
      await queue.enqueueAcquireShared([m]);
      queue.release();
      context.release();
      try { m.release(); } catch (e) { note(e.constructor.name + ': ' + e.message.split('\\n')[0]); }
    })();`,
  'frame.release() of importPlanes memory while acquired': `
    (async () => {
      const buf = vk.createBuffer({ size: 64 * 48 * 3 / 2 * 4 });
      const frame = memory.importPlanes(context, buf.exportMemory(), { format: 'NV12', width: 64, height: 48, planes: [{ offset: 0, pitch: 64 }, { offset: 64 * 48, pitch: 64 }] });
      await queue.enqueueAcquireShared(frame.memory);
      try { frame.release(); } catch (e) { note(e.constructor.name); }
    })();`,
};

describe('a process ends with imported memory acquired', {
  skip: hasVulkan ? false : 'no Vulkan device matches the OpenCL device',
}, () => {
  for (const [name, body] of Object.entries(scenarios)) {
    it(`exits by itself: ${name}`, async () => {
      const run = await runFresh(setup + body, exitClock);
      assert.equal(run.timedOut, false, describeRun(run));
      assert.equal(run.signal, null, describeRun(run));
      assert.ok(run.status === 0 || run.status === 3, describeRun(run));
    });
  }

  it('exits by itself after acquire + release (the control)', async () => {
    const run = await runFresh(
      `${setup}(async () => { await queue.enqueueAcquireShared([m]); await queue.enqueueReleaseShared([m]); note('ok'); })();`,
      exitClock,
    );
    assert.equal(run.timedOut, false, describeRun(run));
    assert.equal(run.status, 0, describeRun(run));
  });
});

// A worker's start: a Vulkan device, a context and queue on the same GPU, and the external memory extension.
const workerSetup = `${prelude}
      const { parentPort } = require('node:worker_threads');
      const vk = vulkanDevice();
      const context = ocl.createContext({ devices: [device] });
      const queue = context.createQueue(device);
      const memory = ocl.getExternalMemory(platform);`;

describe('a worker importing Vulkan memory in a loop is terminated', {
  skip: hasVulkan ? false : 'no Vulkan device matches the OpenCL device',
}, () => {
  it('the process exits after worker.terminate() at 1.5 s', async () => {
    const workerSource = `${workerSetup}
      (async () => {
        for (let i = 0; ; i++) {
          const vkBuffer = vk.createBuffer({ size: 1 << 20 });
          const m = memory.importBuffer(context, vkBuffer.exportMemory());
          await queue.withAcquired([m], () => queue.fillBuffer(m, new Uint8Array([i & 255])).completed);
          m.release();
          vkBuffer.dispose();
          if (i === 3) parentPort.postMessage('looping');
        }
      })();`;
    const run = await runFresh(
      `
      const { Worker } = require('node:worker_threads');
      const w = new Worker(${JSON.stringify(workerSource)}, { eval: true });
      w.on('error', (e) => { console.error('worker error', e); process.exitCode = 4; });
      w.once('message', () => setTimeout(() => w.terminate().then(() => console.log('terminated')), 1500));
    `,
      { timeoutMs: 30_000 },
    );
    assert.equal(run.timedOut, false, describeRun(run));
    assert.equal(run.status, 0, describeRun(run));
    assert.match(run.stdout, /terminated/);
  });
});

describe('a worker terminated between the driver taking an acquire and its record (the memory must not be destroyed acquired)', {
  skip: hasVulkan ? false : 'no Vulkan device matches the OpenCL device',
}, () => {
  it('10 workers in turn, each terminated inside a tight acquire + release loop: each termination ends, the process exits 0', async () => {
    const workerSource = `${workerSetup}
      const m = memory.importBuffer(context, vk.createBuffer({ size: 1 << 16 }).exportMemory());
      parentPort.postMessage('looping');
      for (;;) {
        queue.enqueueAcquireShared([m]).release();
        queue.enqueueReleaseShared([m]).release();
      }`;
    const run = await runFresh(
      `
      const { Worker } = require('node:worker_threads');
      (async () => {
        for (let i = 0; i < 10; i++) {
          const w = new Worker(${JSON.stringify(workerSource)}, { eval: true });
          w.on('error', (e) => { console.error('worker error', e); process.exitCode = 4; });
          await new Promise((r) => w.once('message', r));
          await new Promise((r) => setTimeout(r, 20 + 7 * i));
          await w.terminate();
        }
        console.log('terminated 10');
      })();`,
      { timeoutMs: 60_000 },
    );
    assert.equal(run.timedOut, false, describeRun(run));
    assert.equal(run.status, 0, describeRun(run));
    assert.match(run.stdout, /terminated 10/);
  });
});
