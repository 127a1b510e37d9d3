// A process that ends with objects still alive must exit. On four
// NVIDIA H200s (driver 580.159.04), beside 12 busy fuzzer processes, the
// processes of external-mistakes' bad-descriptor and double-import cases printed everything and then did
// not exit (3 of 3), and so did 2 of 300 fuzzer seeds (and 3 on an earlier
// run); 4 of those 5 seeds are ones that end without releasing what they made.
// Each case below leaves one more kind of thing alive, so that the first to
// stay on NVIDIA names the cause; each runs twice, in fresh processes.
//
// On the GPU machine:   node --test test/gpu/exit-alive.test.mjs
// Here (reference driver + lavapipe): as test/gpu/external-mistakes.test.mjs says.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeRun, exitClock, gpuDevice, gpuPlatform, runFresh, vulkanMatches } from './support.mjs';

const platform = gpuPlatform();
const hasVulkan = vulkanMatches(gpuDevice(platform));
const hasExternalMemory = platform?.supports('cl_khr_external_memory') && hasVulkan;

const opencl = `
const context = ocl.createContext({ devices: [device] });
const queue = context.createQueue(device);
const buffer = context.createBuffer(4096);
`;

// Imports a Vulkan export into OpenCL and releases the import, leaving the Vulkan objects alive (as external-mistakes' bad-descriptor and double-import cases do).
const importedAndReleased = `
const vk = vulkanDevice();
const vkBuffer = vk.createBuffer({ size: 4096 });
const memory = ocl.getExternalMemory(platform);
memory.importBuffer(context, vkBuffer.exportMemory()).release();
`;

const cases = [
  {
    name: 'a context, queue and buffer left alive after an awaited write',
    body: `${opencl}(async () => { await queue.writeBuffer(buffer, new Uint8Array(4096)); })();`,
  },
  {
    name: 'a command behind a user event never set, everything left alive',
    body: `${opencl}const gate = context.createUserEvent(); queue.writeBuffer(buffer, new Uint8Array(4096), { waitFor: [gate] }); queue.flush();`,
  },
  {
    name: 'a command behind a user event never set, the queue and context released',
    body: `${opencl}const gate = context.createUserEvent(); queue.writeBuffer(buffer, new Uint8Array(4096), { waitFor: [gate] }); queue.flush(); buffer.release(); queue.release(); context.release();`,
  },
  {
    name: 'a Vulkan device and buffer left alive (no OpenCL import)',
    vulkan: true,
    body: `const vk = vulkanDevice(); vk.createBuffer({ size: 4096 });`,
  },
  {
    name: 'a Vulkan export imported into OpenCL and the import released; Vulkan objects, context and queue left alive',
    memory: true,
    body: `${opencl}${importedAndReleased}`,
  },
  {
    name: 'the same, the Vulkan device disposed before the end',
    memory: true,
    body: `${opencl}${importedAndReleased}vkBuffer.dispose(); vk.dispose();`,
  },
  {
    name: 'the same, without the Vulkan pin (OPENCL_INTEROP_VULKAN_UNPINNED=1)',
    memory: true,
    env: { OPENCL_INTEROP_VULKAN_UNPINNED: '1' },
    body: `${opencl}${importedAndReleased}`,
  },
];

describe('a process that ends with objects alive exits by itself', () => {
  for (const c of cases) {
    const skip =
      c.memory && !hasExternalMemory
        ? 'no cl_khr_external_memory with a matching Vulkan device'
        : c.vulkan && !hasVulkan
          ? 'no matching Vulkan device'
          : false;
    it(c.name, { skip }, async () => {
      for (let run = 1; run <= 2; run++) {
        const result = await runFresh(`${c.body}\nprocess.on('exit', () => console.log('script ended'));`, { ...exitClock, env: c.env });
        assert.equal(result.timedOut, false, `run ${run}: ${describeRun(result)}`);
        assert.equal(result.signal, null, `run ${run}: ${describeRun(result)}`);
        assert.equal(result.status, 0, `run ${run}: ${describeRun(result)}`);
      }
    });
  }
});
