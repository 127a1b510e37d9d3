// A worker's environment torn down while Vulkan submissions are in flight,
// after the script disposed the device and everything it made: the
// submissions hold the last references to the device. The teardown let
// them go while still in the device's own cleanup, which then destroyed the
// device under itself (a segmentation fault in DeviceState::Close). Each
// case in a fresh process; lavapipe here, the GPU in
// test/gpu/multi-gpu-teardown.test.mjs.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runNode } from './helpers';

const dist = JSON.stringify(resolve(repoRoot, 'dist/index.js'));

// The worker submits, disposes everything, and ends (process.exit in the worker, or terminate() from the main thread).
const workerSource = (ending: 'exit' | 'terminate') => `
const ocl = require(${dist});
const { parentPort } = require('node:worker_threads');
const instance = ocl.createVulkanInstance();
const device = instance.createDevice();
const buffer = device.createBuffer({ size: 1 << 20 });
const commands = device.record((r) => r.fill(buffer, 7));
const semaphore = device.createSemaphore();
for (let i = 0; i < 8; i++) device.queue.submit(commands).catch(() => {});
device.queue.submit(null, { signal: [semaphore] }).catch(() => {});
commands.dispose(); buffer.dispose(); semaphore.dispose(); device.dispose(); instance.dispose();
${ending === 'exit' ? 'process.exit(0);' : "parentPort.postMessage('submitted');"}
`;

describe('a worker ends with Vulkan submissions in flight that hold the last references to their disposed device', () => {
  for (const ending of ['exit', 'terminate'] as const) {
    it(`the worker ${ending === 'exit' ? 'calls process.exit()' : 'is terminated'}: 10 workers in turn, the process exits cleanly`, async () => {
      const result = await runNode(`
const { Worker } = require('node:worker_threads');
(async () => {
  let ended = 0;
  for (let i = 0; i < 10; i++) {
    const worker = new Worker(${JSON.stringify(workerSource(ending))}, { eval: true });
    worker.on('message', () => worker.terminate());
    await new Promise((done, fail) => { worker.on('exit', done); worker.on('error', fail); });
    ended++;
  }
  console.log(JSON.stringify({ ended }));
})();`);
      expect({ signal: result.signal, status: result.status, stderr: result.stderr }).toEqual({ signal: null, status: 0, stderr: '' });
      expect(JSON.parse(result.stdout.trim())).toEqual({ ended: 10 });
    });
  }
});
