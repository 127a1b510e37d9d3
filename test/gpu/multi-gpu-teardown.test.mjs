// Letting go of frame pipelines, Vulkan devices and worker threads on the GPU
// under test, each in a fresh process that must exit 0 without a signal: the
// multi-GPU bench ended in a segmentation fault on two H200s after its last
// worker-mode run (bench/README.md, "Several GPUs from one process").
//
// On the reference driver + lavapipe set REFDRV_DEVICE_UUID to lavapipe's
// deviceUUID (hex), as the frame pipeline tests need.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { stacksUnderDebugger } from './stacks.mjs';
import { describeRun, distPath, gpuDevice, gpuPlatform, platformName, runFresh, vulkanMatches } from './support.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const device = gpuDevice();
const big = device.compilerAvailable; // a GPU: 4K frames; the reference driver: small ones
const [width, height] = big ? [3840, 2160] : [64, 32];
const supportUrl = new URL('../helpers/frame-pipeline.mjs', import.meta.url).href;

/** Runs a program; resolves as runFresh does ({ status, signal, stdout, stderr, timedOut, ms }). */
function runProgram(args, timeoutMs) {
  return new Promise((done) => {
    const started = Date.now();
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '',
      stderr = '',
      timedOut = false;
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(
      () => {
        timedOut = true;
        child.kill('SIGKILL');
      },
      timeoutMs * (Number(process.env.OPENCL_INTEROP_GPU_TIMEOUT_SCALE) || 1),
    );
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      done({ status, signal, stdout, stderr, timedOut, ms: Date.now() - started });
    });
  });
}

describe('letting go of pipelines, Vulkan devices and workers', {
  skip: !vulkanMatches(device) && 'no Vulkan device matches the OpenCL device by UUID',
}, () => {
  for (const ending of ['exit', 'terminate']) {
    it(`a worker with Vulkan submissions in flight on a device it disposed ${ending === 'exit' ? 'calls process.exit()' : 'is terminated'}: 10 workers in turn, clean exit`, async () => {
      const worker = `
const ocl = require(${JSON.stringify(distPath)});
const { parentPort, workerData } = require('node:worker_threads');
const instance = ocl.createVulkanInstance();
const vulkan = instance.createDevice({ uuid: new Uint8Array(workerData) });
const buffer = vulkan.createBuffer({ size: 64 << 20 });
const commands = vulkan.record((r) => r.fill(buffer, 7));
const semaphore = vulkan.createSemaphore();
for (let i = 0; i < 16; i++) vulkan.queue.submit(commands).catch(() => {});
vulkan.queue.submit(null, { signal: [semaphore] }).catch(() => {});
commands.dispose(); buffer.dispose(); semaphore.dispose(); vulkan.dispose(); instance.dispose();
${ending === 'exit' ? 'process.exit(0);' : "parentPort.postMessage('submitted');"}`;
      const run = await runFresh(
        `
const { Worker } = require('node:worker_threads');
(async () => {
  let ended = 0;
  for (let i = 0; i < 10; i++) {
    const w = new Worker(${JSON.stringify(worker)}, { eval: true, workerData: [...device.uuidBytes] });
    w.on('message', () => w.terminate());
    await new Promise((done, fail) => { w.on('exit', done); w.on('error', fail); });
    ended++;
  }
  console.log(JSON.stringify({ ended }));
})();`,
        { timeoutMs: 60_000 },
      );
      assert.equal(run.signal, null, describeRun(run));
      assert.equal(run.status, 0, describeRun(run));
      assert.deepEqual(JSON.parse(run.stdout.trim().split('\n').pop()), { ended: 10 });
    });
  }

  it('a worker terminated in the middle of a frame pipeline run while another worker runs one to its end: 0 mismatched pixels there, clean exit', async () => {
    const worker = `
const ocl = require(${JSON.stringify(distPath)});
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const { vulkanPipeline } = await import(${JSON.stringify(supportUrl)});
  const platform = ocl.getPlatforms().find((p) => p.name.includes(${JSON.stringify(platformName)}));
  const devices = (platform.getDevices('gpu').length ? platform.getDevices('gpu') : platform.getDevices()).filter((d) => d.uuidBytes);
  const device = devices[workerData.gpu % devices.length];
  const context = ocl.createContext({ devices: [device] });
  const queue = context.createQueue();
  const vulkan = ocl.createVulkanInstance().createDevice({ uuid: device.uuidBytes });
  parentPort.postMessage({ started: true });
  const result = await vulkanPipeline(ocl, { queue, vulkan, width: ${width}, height: ${height}, slots: 8, frames: workerData.frames });
  parentPort.postMessage({ result });
})();`;
    const run = await runFresh(
      `
const { Worker } = require('node:worker_threads');
(async () => {
  const start = (gpu, frames) => {
    const w = new Worker(${JSON.stringify(worker)}, { eval: true, workerData: { gpu, frames } });
    const messages = [];
    const exited = new Promise((done, fail) => { w.on('exit', done); w.on('error', fail); });
    const started = new Promise((done) => w.on('message', (m) => { messages.push(m); if (m.started) done(); }));
    return { w, messages, exited, started };
  };
  const doomed = start(0, 1000000);
  const survivor = start(1, 48);
  await doomed.started;
  await new Promise((r) => setTimeout(r, 500));
  await doomed.w.terminate();
  await survivor.exited;
  console.log(JSON.stringify({ survivor: survivor.messages.find((m) => m.result)?.result ?? null, doomedFinished: doomed.messages.some((m) => m.result) }));
})();`,
      { timeoutMs: 120_000 },
    );
    assert.equal(run.signal, null, describeRun(run));
    assert.equal(run.status, 0, describeRun(run));
    const value = JSON.parse(run.stdout.trim().split('\n').pop());
    assert.equal(value.doomedFinished, false);
    assert.deepEqual({ ...value.survivor, sync: undefined }, { sync: undefined, frames: 48, checked: 48 * width * height, mismatches: 0 });
  });

  it("the multi-GPU bench's sequence (every GPU, thread and worker modes, 8 and 32 slots), Node side only: exit 0, no signal", async () => {
    gpuPlatform();
    const args = [
      'bench/multi-gpu-pipeline.mjs',
      '--platform',
      platformName,
      '--side',
      'node',
      '--mode',
      'both',
      '--slots',
      '8,32',
      '--frames',
      big ? '300' : '60',
      '--repeats',
      '1',
      '--check-frames',
      '16',
    ];
    if (!big) args.push('--width', String(width), '--height', String(height));
    const run = await runProgram(args, 240_000);
    // A crash: run it once more under a debugger (gdb or cuda-gdb, where installed) for the stacks of every thread.
    const stacks = run.signal ? await stacksUnderDebugger(process.execPath, args, root) : '';
    assert.equal(run.signal, null, describeRun(run) + stacks);
    assert.equal(run.status, 0, describeRun(run));
    assert.match(run.stdout, /\| Node, a worker per GPU \| 32 \|/);
  });
});
