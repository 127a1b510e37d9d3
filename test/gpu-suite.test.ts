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
