import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProcess } from './helpers';
import { REF_NAME } from './helpers/ref-driver';
import { createVulkanInstance } from '../lib';

// The GPU suite (test/gpu/*.test.mjs, `npm run test:gpu` on an NVIDIA
// machine) run against the reference driver matched to lavapipe: the same
// fresh-process checks of what NVIDIA's driver did (processes that never
// exit, hangs, untyped errors), where the reference driver behaves as NVIDIA
// does (test/driver/README.md).
const gpuDir = resolve(__dirname, 'gpu');
const files = readdirSync(gpuDir)
  .filter((f) => f.endsWith('.test.mjs'))
  .sort();

function lavapipeUuid(): string {
  const instance = createVulkanInstance();
  try {
    return Buffer.from(instance.physicalDevices()[0]!.deviceUUID).toString('hex');
  } finally {
    instance.dispose();
  }
}

describe('the GPU suite on the reference driver and lavapipe (node --test test/gpu)', () => {
  const uuid = lavapipeUuid();
  for (const file of files) {
    it(file, async () => {
      const run = await runProcess(process.execPath, ['--test', '--test-reporter=spec', resolve(gpuDir, file)], {
        env: {
          OPENCL_INTEROP_GPU_PLATFORM: REF_NAME,
          REFDRV_DEVICE_UUID: uuid,
          // A loaded 2-core CI machine: the fresh processes' own limits, scaled.
          OPENCL_INTEROP_GPU_TIMEOUT_SCALE: '3',
        },
        timeout: 600_000,
      });
      expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
      expect(run.stdout).toMatch(/pass [1-9]/);
    }, 660_000);
  }
});

// What the GPU runs print of a process that does not end (on NVIDIA, processes whose script had ended
// were still there at the time-out, and each ended while the debugger attached, so their reports had no stacks).
describe("a hung process's report (test/gpu/stacks.mjs, runFresh)", () => {
  it('threads from /proc without stopping it (name, state, wait channel, system call), then its stacks', async () => {
    const { stacksOf } = await import('./gpu/stacks.mjs');
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    try {
      await new Promise((r) => setTimeout(r, 300));
      const report = await stacksOf(child.pid!);
      expect(report).toMatch(/--- threads \(\/proc\)\n\d+ threads:\n {2}\d+ "node" [A-Z] wchan=\S+ syscall=/);
      expect(report).toMatch(/--- (stacks \(gdb|stacks \(cuda-gdb)|\(no gdb or cuda-gdb/);
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);

  it("the binding's threads carry names there (ocl-waiter, ocl-vk-fences)", async () => {
    const { spawnSync } = await import('node:child_process');
    const script = `
      const ocl = require(${JSON.stringify(resolve(__dirname, '../dist/index.js'))});
      const { readdirSync, readFileSync } = require('node:fs');
      const names = () => readdirSync('/proc/self/task').map((t) => readFileSync('/proc/self/task/' + t + '/comm', 'utf8').trim());
      (async () => {
        const context = ocl.createContext({ platform: ocl.getPlatforms().find((p) => p.name === 'Portable Computing Language') });
        const queue = context.createQueue();
        await queue.enqueueMarker();
        const instance = ocl.createVulkanInstance();
        const device = instance.createDevice();
        await device.queue.idle();
        console.log(JSON.stringify(names().filter((n) => n.startsWith('ocl-')).sort()));
        device.dispose(); instance.dispose(); queue.release(); context.release();
      })();`;
    const run = spawnSync(process.execPath, ['-e', script], { env: { ...process.env, OPENCL_INTEROP_COMPLETION: 'waiter' }, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout.trim().split('\n').pop()!)).toEqual(['ocl-vk-fences', 'ocl-waiter']);
  });

  it('a process that ends while its stacks are taken keeps them in its report, which says it ended by itself', async () => {
    process.env.OPENCL_INTEROP_GPU_PLATFORM ??= REF_NAME; // the prelude's platform, read as support.mjs loads
    const { runFresh } = await import('./gpu/support.mjs');
    const previous = process.env.OPENCL_INTEROP_GPU_STACKS;
    process.env.OPENCL_INTEROP_GPU_STACKS = '1';
    try {
      // Ends 1.5 s after its time-out (runFresh scales the time-out by OPENCL_INTEROP_GPU_TIMEOUT_SCALE).
      const limit = 1000 * (Number(process.env.OPENCL_INTEROP_GPU_TIMEOUT_SCALE) || 1);
      const run = await runFresh(`setTimeout(() => {}, ${limit + 1500});`, { timeoutMs: 1000 });
      expect(run.timedOut).toBe(true);
      expect(run.stderr).toContain('--- threads (/proc)');
      expect(run.stderr).toMatch(/it ended by itself within 2 s of this|it ended once the debugger had attached/);
    } finally {
      if (previous === undefined) delete process.env.OPENCL_INTEROP_GPU_STACKS;
      else process.env.OPENCL_INTEROP_GPU_STACKS = previous;
    }
  }, 60_000);
});
