// Worker threads that use Vulkan and end: the process must not crash when a
// thread whose Vulkan instance was the process's last one exits. On four
// H200s (driver 580.159.04) bench/multi-gpu-pipeline.mjs --mode workers died
// with SIGSEGV in glvnd's libEGL, on a worker thread's exit while the main
// thread joined it: the Vulkan loader had unloaded NVIDIA's driver with the
// last instance, and a thread-exit handler ran into it. The package now keeps
// one instance for the life of the process (native/vulkan/instance.cc,
// KeepDriversLoaded); OPENCL_INTEROP_VULKAN_UNPINNED=1 leaves it out, which
// shows the crash on NVIDIA. Each case is a fresh process.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeRun, gpuPlatform, prelude, runFresh, vulkanMatches } from './support.mjs';

const platform = gpuPlatform();
const gpus = platform.getDevices().filter((d) => vulkanMatches(d)).length;
const unpinned = process.env.OPENCL_INTEROP_VULKAN_UNPINNED === '1';

// A worker (workerData: { index, rounds }) that uses the Vulkan device on the
// OpenCL device `index` matches: memory exported, imported into OpenCL,
// filled, checked, everything disposed; then it ends by itself.
const workerSource = `${prelude}
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const gpu = platform.getDevices()[workerData.index];
  for (let round = 0; round < workerData.rounds; round++) {
    const instance = ocl.createVulkanInstance();
    const vk = instance.createDevice({ uuid: gpu.uuidBytes });
    const context = ocl.createContext({ devices: [gpu] });
    const queue = context.createQueue(gpu);
    const vkBuffer = vk.createBuffer({ size: 1 << 20 });
    const m = ocl.getExternalMemory(platform).importBuffer(context, vkBuffer.exportMemory());
    await queue.withAcquired([m], () => queue.fillBuffer(m, new Uint8Array([7])).completed);
    const back = new Uint8Array(16);
    await queue.withAcquired([m], () => queue.readBuffer(m, back).completed);
    if (back.some((b) => b !== 7)) throw new Error('read back ' + back);
    m.release();
    vkBuffer.dispose();
    queue.release();
    context.release();
    vk.dispose();
    instance.dispose();
  }
  parentPort.postMessage('done');
})();`;

function workersProgram({ workers, perGpu, rounds = 2, mainVulkan }) {
  return `
const { Worker } = require('node:worker_threads');
(async () => {
  ${mainVulkan === 'open' ? 'const held = vulkanDevice();' : ''}
  ${mainVulkan === 'disposed' ? 'vulkanDevice().dispose(); vulkanInstance.dispose();' : ''}
  const ends = [];
  for (let i = 0; i < ${workers}; i++) {
    const w = new Worker(${JSON.stringify(workerSource)}, { eval: true, workerData: { index: ${perGpu ? 'i' : '0'}, rounds: ${rounds} } });
    let said = false;
    w.on('message', () => (said = true));
    ends.push(new Promise((done, fail) => {
      w.on('error', fail);
      w.on('exit', (code) => (said && code === 0 ? done() : fail(new Error('worker ' + i + ' exited ' + code + (said ? '' : ' before it finished')))));
    }));
  }
  await Promise.all(ends);
  console.log('all workers ended');
})().catch((e) => { console.error(e); process.exitCode = 4; });`;
}

describe('worker threads that use Vulkan end without crashing the process', {
  skip: gpus ? false : 'no Vulkan device matches an OpenCL device',
}, () => {
  const cases = [
    ['one worker, the main thread never uses Vulkan', { workers: 1, perGpu: false }],
    ['four workers on one GPU at once', { workers: 4, perGpu: false }],
    ['four workers on one GPU, the main thread with a Vulkan device open', { workers: 4, perGpu: false, mainVulkan: 'open' }],
    ['four workers on one GPU after the main thread disposed its Vulkan device', { workers: 4, perGpu: false, mainVulkan: 'disposed' }],
    [`one worker per GPU (${gpus})`, { workers: gpus, perGpu: true }],
  ];
  for (const [name, options] of cases) {
    it(`${name}${unpinned ? ' (OPENCL_INTEROP_VULKAN_UNPINNED=1)' : ''}`, async () => {
      const run = await runFresh(workersProgram(options), { timeoutMs: 60_000 });
      assert.equal(run.timedOut, false, describeRun(run));
      assert.equal(run.signal, null, describeRun(run));
      assert.equal(run.status, 0, describeRun(run));
      assert.match(run.stdout, /all workers ended/);
    });
  }
});

// Without workers: a process that disposes its last instance and goes on using OpenCL.
describe('the last Vulkan instance disposed, the process goes on', { skip: gpus ? false : 'no Vulkan device matches an OpenCL device' }, () => {
  it('creates, disposes and creates again, then exits', async () => {
    const run = await runFresh(`
(async () => {
  for (let i = 0; i < 3; i++) { const vk = vulkanDevice(); vk.dispose(); vulkanInstance.dispose(); vulkanInstance = undefined; }
  const context = ocl.createContext({ devices: [device] });
  const queue = context.createQueue(device);
  const b = context.createBuffer(64);
  await queue.fillBuffer(b, new Uint8Array([1])).completed;
  console.log('ok');
})();`);
    assert.equal(run.signal, null, describeRun(run));
    assert.equal(run.status, 0, describeRun(run));
    assert.match(run.stdout, /ok/);
  });
});
