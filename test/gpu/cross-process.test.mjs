// Exported handles between processes on the GPU: a producer
// process (Vulkan only) and a consumer process (OpenCL only) joined by a
// HandleChannel (Unix socket, SCM_RIGHTS); 4K NV12 frames converted to RGBA by
// the consumer (or read as NV12 where the device has no compiler, as the
// reference driver), checked against the CPU: 0 mismatches. Also the readPlane
// pitch bound, in a fresh process.
//
//   node --test test/gpu/cross-process.test.mjs
// CI-sized on the reference driver + lavapipe:
//   OCL_ICD_VENDORS=$PWD/cmake-build/vendors OPENCL_INTEROP_GPU_PLATFORM="opencl-interop reference driver" \
//   REFDRV_DEVICE_UUID=<lavapipe's> node --test test/gpu/cross-process.test.mjs
import assert from 'node:assert/strict';
import { dirname, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describeRun, gpuDevice, gpuPlatform, platformName, runFresh, vulkanMatches } from './support.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const script = pathToFileURL(resolve(here, '../../examples/cross-process-frames.mjs')).href;
const onGpu = !platformName.includes('reference');

test('producer (Vulkan) and consumer (OpenCL) processes share frames through sent handles: 0 mismatches', { timeout: 600_000 }, async (t) => {
  const device = gpuDevice(gpuPlatform());
  assert.ok(
    vulkanMatches(device),
    `no Vulkan device matches "${device.name}" by UUID (on the reference driver set REFDRV_DEVICE_UUID to lavapipe's deviceUUID)`,
  );
  const size = onGpu
    ? ['--width', '3840', '--height', '2160', '--frames', '240', '--slots', '8', '--check', 'ends']
    : ['--width', '64', '--height', '32', '--frames', '24', '--slots', '3', '--check', 'all'];
  const run = await runFresh(
    `import(${JSON.stringify(script)}).then(async (m) => console.log(JSON.stringify(await m.runCrossProcessFrames(${JSON.stringify(['--platform', platformName, ...size])}))));`,
    { timeoutMs: 300_000 },
  );
  assert.equal(run.status, 0, describeRun(run));
  const report = JSON.parse(run.stdout.trim().split('\n').pop());
  t.diagnostic(JSON.stringify(report));
  assert.equal(report.mismatches, 0, describeRun(run));
  assert.ok(report.checkedFrames >= 1);
  if (onGpu) assert.equal(report.converted, true, 'the GPU converts NV12 -> RGBA');
});

test('VulkanImage.readPlane with a pitch no Uint8Array can hold is a RangeError, not an abort', async () => {
  const run = await runFresh(
    `const vk = vulkanDevice(); const img = vk.createImage({ width: 16, height: 16, format: 'rgba8' });
     try { img.readPlane(0, { pitch: 2 ** 40 }).then(() => console.log('resolved'), (e) => console.log('rejected', e.name)); }
     catch (e) { console.log(e.name, /options\\.pitch/.test(e.message)); }
     img.readPlane(0).then((r) => { console.log('read', r.length); img.dispose(); vk.dispose(); });`,
  );
  assert.equal(run.status, 0, describeRun(run));
  assert.deepEqual(run.stdout.trim().split('\n'), ['RangeError true', 'read 1024']);
});
