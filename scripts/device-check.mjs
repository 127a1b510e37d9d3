// Core OpenCL and the "extension not supported" path, checked on any platform
// chosen by name: how the project is proven on a real GPU driver (NVIDIA)
// where vitest is not installed.
//   node scripts/device-check.mjs "NVIDIA CUDA"
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as ocl from '../dist/index.js';
import { terminateWorkersScript } from '../test/helpers/terminate-workers.mjs';

const wanted = process.argv[2] ?? process.env.CHECK_PLATFORM ?? '';
const platform = ocl.getPlatforms().find((p) => p.name.includes(wanted));
if (!platform) {
  console.error(
    `no platform matches "${wanted}": ${
      ocl
        .getPlatforms()
        .map((p) => p.name)
        .join(', ') || 'none'
    }`,
  );
  process.exit(2);
}
const device = platform.getDevices('gpu')[0] ?? platform.getDevices()[0];
console.log(
  `platform: ${platform.name} (${platform.version}); device: ${device.name}, ${device.type}, ${device.maxComputeUnits} CUs, ${device.globalMemSize / 2n ** 20n} MiB; loader ${ocl.loadedLibrary().path}`,
);

const results = [];
async function check(name, fn) {
  try {
    await fn();
    results.push(true);
    console.log(`  ok   ${name}`);
  } catch (error) {
    results.push(false);
    console.log(`  FAIL ${name}: ${error.stack ?? error}`);
  }
}

const context = ocl.createContext({ devices: [device], onError: (m) => console.log(`  (driver says: ${m})`) });
const queue = context.createQueue(device, { profiling: true });

await check('device info types', () => {
  assert.equal(typeof device.globalMemSize, 'bigint');
  assert.ok(device.maxWorkGroupSize > 0);
  assert.equal(device.maxWorkItemSizes.length >= 3, true);
  assert.equal(typeof device.preferredInteropUserSync, 'boolean');
  assert.ok(platform.extensions.includes('cl_khr_icd'));
});

await check('vector add (1M floats) with local size and profiling', async () => {
  const program = context.createProgram(
    'kernel void add(global const float *a, global const float *b, global float *c) { size_t i = get_global_id(0); c[i] = a[i] + b[i]; }',
  );
  await program.build();
  const n = 1 << 20;
  const a = Float32Array.from({ length: n }, (_, i) => i);
  const A = context.createBuffer(a),
    B = context.createBuffer(a),
    C = context.createBuffer(n * 4);
  const kernel = program.createKernel('add').setArgs(A, B, C);
  const run = queue.enqueueKernel(kernel, n, { localSize: [256] });
  const out = new Float32Array(n);
  await queue.readBuffer(C, out, { waitFor: [run] }).completed;
  assert.equal(
    out.findIndex((v, i) => v !== 2 * i),
    -1,
  );
  assert.ok(run.profiling.end >= run.profiling.start);
});

await check('every scalar and vector argument type', async () => {
  const program = context.createProgram(`kernel void k(global long *out, char a, ushort b, int c, ulong d, float e, double f, int3 g) {
    out[0] = a; out[1] = b; out[2] = c; out[3] = (long)d; out[4] = (long)(e * 2); out[5] = (long)(f * 4); out[6] = g.x + g.y + g.z; }`);
  await program.build();
  const out = context.createBuffer(7 * 8);
  const kernel = program
    .createKernel('k')
    .setArgs(out, ['char', -3], ['ushort', 65000], ['int', -7], ['ulong', 2n ** 40n], ['float', 1.5], ['double', 2.25], ['int3', [1, 2, 3]]);
  queue.enqueueKernel(kernel, 1);
  const host = new BigInt64Array(7);
  queue.readBuffer(out, host, { blocking: true });
  assert.deepEqual([...host], [-3n, 65000n, -7n, 2n ** 40n, 3n, 9n, 6n]);
});

await check('image kernel with a sampler (RGBA8 invert), copy and fill', async () => {
  const w = 64,
    h = 32;
  const pixels = Uint8Array.from({ length: w * h * 4 }, (_, i) => i & 0xff);
  const src = context.createImage({ format: { order: 'RGBA', type: 'UNORM_INT8' }, width: w, height: h, data: pixels });
  const dst = context.createImage({ format: { order: 'RGBA', type: 'UNORM_INT8' }, width: w, height: h });
  const sampler = context.createSampler();
  const program = context.createProgram(`kernel void inv(read_only image2d_t s, write_only image2d_t d, sampler_t sm) {
    int2 p = (int2)(get_global_id(0), get_global_id(1)); write_imagef(d, p, (float4)(1.0f) - read_imagef(s, sm, p)); }`);
  await program.build();
  const run = queue.enqueueKernel(program.createKernel('inv').setArgs(src, dst, sampler), [w, h]);
  const out = new Uint8Array(pixels.length);
  await queue.readImage(dst, out, { waitFor: [run] }).completed;
  assert.deepEqual(
    [...out.subarray(0, 8)],
    [...pixels.subarray(0, 8)].map((v) => 255 - v),
  );
  queue.fillImage(dst, [0, 1, 0, 1]);
  queue.readImage(dst, out, { blocking: true });
  assert.deepEqual([...out.subarray(0, 4)], [0, 255, 0, 255]);
});

await check('events: promises, user events, out-of-order queue with wait lists, markers', async () => {
  const ooo = context.createQueue(device, { outOfOrder: device.queueProperties.outOfOrder });
  const gate = context.createUserEvent();
  const buf = context.createBuffer(4096);
  const fill = ooo.fillBuffer(buf, new Uint8Array([7]), { waitFor: [gate] });
  const marker = ooo.enqueueMarker({ waitFor: [fill] });
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  setTimeout(() => gate.setStatus('complete'), 20);
  await marker.completed;
  clearInterval(timer);
  assert.ok(ticks > 0, 'the event loop kept running while waiting');
  const out = new Uint8Array(4096);
  ooo.readBuffer(buf, out, { blocking: true });
  assert.equal(out[4095], 7);
  await ooo.finish();
});

await check('map/unmap detaches the view', async () => {
  const buf = context.createBuffer(new Uint32Array([1, 2, 3, 4]));
  const mapping = await queue.mapBuffer(buf, { access: 'read-write' });
  const view = new Uint32Array(mapping.buffer);
  assert.equal(view[2], 3);
  view[2] = 30;
  await mapping.unmap().completed;
  assert.equal(view.length, 0);
  const out = new Uint32Array(4);
  queue.readBuffer(buf, out, { blocking: true });
  assert.equal(out[2], 30);
});

await check('a failing build carries the log', async () => {
  await assert.rejects(context.createProgram('kernel void broken( {').build(), (e) => e instanceof ocl.OpenCLBuildError && e.log.length > 0);
});

await check('released objects throw OpenCLReleasedError', () => {
  const b = context.createBuffer(16);
  b.release();
  b.release();
  assert.throws(() => queue.writeBuffer(b, new Uint8Array(16)), ocl.OpenCLReleasedError);
});

const hasRG = context.supportedImageFormats({ access: 'read', type: '2d' }).some((f) => f.order === 'RG' && f.type === 'UNORM_INT8');
await check(
  `the VA example's nv12_to_rgba kernel on plain R + RG images ${hasRG ? 'matches BT.601' : 'compiles (no CL_RG images here)'}`,
  async () => {
    const { nv12ToRgbaSource } = await import('../examples/va-api-nv12-to-rgba.mjs');
    const program = context.createProgram(nv12ToRgbaSource);
    await program.build();
    if (!hasRG) return;
    const w = 16,
      h = 8;
    const luma = Uint8Array.from({ length: w * h }, (_, i) => 16 + ((i * 7) % 220));
    const chroma = Uint8Array.from({ length: (w / 2) * (h / 2) * 2 }, (_, i) => (i * 37) & 0xff);
    const y = context.createImage({ format: { order: 'R', type: 'UNORM_INT8' }, width: w, height: h, data: luma });
    const uv = context.createImage({ format: { order: 'RG', type: 'UNORM_INT8' }, width: w / 2, height: h / 2, data: chroma });
    const rgba = context.createImage({ format: { order: 'RGBA', type: 'UNORM_INT8' }, width: w, height: h });
    queue.enqueueKernel(program.createKernel('nv12_to_rgba').setArgs(y, uv, rgba), [w, h]);
    const out = new Uint8Array(w * h * 4);
    queue.readImage(rgba, out, { blocking: true });
    const clamp = (x) => Math.max(0, Math.min(255, x >> 8));
    for (let py = 0; py < h; py++) {
      for (let px = 0; px < w; px++) {
        const c = luma[py * w + px] - 16,
          k = ((py >> 1) * (w / 2) + (px >> 1)) * 2,
          d = chroma[k] - 128,
          e = chroma[k + 1] - 128;
        const want = [clamp(298 * c + 409 * e + 128), clamp(298 * c - 100 * d - 208 * e + 128), clamp(298 * c + 516 * d + 128), 255];
        assert.deepEqual([...out.subarray((py * w + px) * 4, (py * w + px) * 4 + 4)], want, `pixel ${px},${py}`);
      }
    }
  },
);

for (const name of ocl.sharingExtensionNames) {
  await check(`${name}: ${platform.supports(name) ? 'advertised' : 'not advertised -> OpenCLExtensionError'}`, () => {
    if (platform.supports(name)) {
      assert.equal(platform.getSharing(name).entryPoints.length, ocl.sharingExtensions[name].length);
    } else {
      assert.throws(
        () => platform.getSharing(name),
        (e) => e instanceof ocl.OpenCLExtensionError && e.platform === platform.name,
      );
    }
  });
}

await check('workers terminated in the middle of native calls: the process goes on (fresh process, 3 runs)', () => {
  const script = terminateWorkersScript(new URL('../dist/index.js', import.meta.url).pathname, platform.name);
  for (let run = 0; run < 3; run++) {
    const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(result.signal, null, result.stderr);
    assert.equal(result.stdout.trim(), 'terminated', result.stderr);
  }
});

await check('a worker terminated with 20 non-blocking 1 MiB reads and writes in flight: the process goes on (fresh process)', () => {
  const dist = new URL('../dist/index.js', import.meta.url).pathname;
  const workerCode = [
    `const ocl = require(${JSON.stringify(dist)});`,
    `const p = ocl.getPlatforms().find((p) => p.name === ${JSON.stringify(platform.name)});`,
    "const c = ocl.createContext({ devices: [p.getDevices('gpu')[0] ?? p.getDevices()[0]] });",
    'const q = c.createQueue();',
    'const b = c.createBuffer(1 << 20);',
    'for (let i = 0; i < 20; i++) { q.readBuffer(b, new Uint8Array(1 << 20)); q.writeBuffer(b, new Uint8Array(1 << 20)); }',
    'q.flush();',
    "require('node:worker_threads').parentPort.postMessage('go');",
  ].join('\n');
  const script = [
    "const { Worker } = require('node:worker_threads');",
    `const worker = new Worker(${JSON.stringify(workerCode)}, { eval: true });`,
    "worker.on('message', () => worker.terminate());",
    "worker.on('exit', () => setTimeout(() => console.log('survived'), 300));",
  ].join('\n');
  const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(result.signal, null, result.stderr);
  assert.equal(result.stdout.trim(), 'survived', result.stderr);
});

await check('kernel arguments are checked against argument info before the driver sees them', async () => {
  const program = context.createProgram('kernel void k(read_only image2d_t img, global float *out, float f) { out[0] = f; }');
  await program.build();
  const kernel = program.createKernel('k');
  assert.deepEqual(kernel.argInfo(1), { name: 'out', typeName: 'float*', addressQualifier: 'global', accessQualifier: 'none', typeQualifiers: [] });
  assert.throws(() => kernel.setArg(0, context.createBuffer(16)), /argument 0 \(img: image2d_t\) of kernel 'k' takes a CLImage/);
  assert.throws(() => kernel.setArg(1, context.createSampler()), /takes a CLBuffer/);
  assert.throws(() => kernel.setArg(2, 1, 'double'), /takes a float value \(4 bytes\)/);
  assert.throws(() => queue.enqueueKernel(kernel, 1), /argument 0 \(img: image2d_t\) of kernel 'k' is not set/);
});

await check('host memory: staged reads, HostMemory in place, blocking on an unset user event refused', async () => {
  const buffer = context.createBuffer(new Uint8Array(1 << 20).fill(7));
  const target = new Uint8Array(1 << 20);
  await queue.readBuffer(buffer, target);
  assert.equal(target[(1 << 20) - 1], 7);
  const host = ocl.allocateHostMemory(1 << 20);
  await queue.readBuffer(buffer, host);
  assert.equal(host.bytes()[12345], 7);
  const gate = context.createUserEvent();
  const gated = queue.fillBuffer(buffer, new Uint8Array([1]), { waitFor: [gate] });
  assert.throws(() => gated.waitSync(), ocl.OpenCLStateError);
  assert.throws(() => queue.finishSync(), ocl.OpenCLStateError);
  gate.setStatus('complete');
  await queue.finish();
  host.release();
});

queue.release();
context.release();
const passed = results.filter(Boolean).length;
console.log(`${passed} passed, ${results.length - passed} failed`);
process.exitCode = results.every(Boolean) ? 0 : 1;
