// Core OpenCL in Windows node.exe: the win32-x64 prebuild loads OpenCL.dll at
// run time (under Wine, Wine's opencl.dll, which forwards to the host's PoCL)
// and works as on Linux: kernels, images, events, mapping, typed errors,
// worker threads. Run by scripts/windows/test.sh.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { describe, test } from 'node:test';
import { nativeCallLoop } from '../helpers/terminate-workers.mjs';
import { ocl, owner, packagePath } from './support.mjs';

// PoCL under Wine; on Windows itself, the first platform OpenCL.dll lists.
const platform = ocl.getPlatforms().find((p) => p.name === 'Portable Computing Language') ?? ocl.getPlatforms()[0];

describe('OpenCL.dll on Windows', () => {
  test('the win32-x64 addon loads and OpenCL.dll is found by the default search', () => {
    assert.equal(process.platform, 'win32');
    assert.match(ocl.loadedLibrary().path, /^opencl\.dll$/i);
    assert.ok(platform, 'OpenCL.dll lists no platform');
  });

  test('a kernel adds two vectors; awaiting its event does not block the event loop', async () => {
    await owner(async (own) => {
      const device = platform.getDevices()[0];
      const context = own(ocl.createContext({ devices: [device] }));
      const queue = own(context.createQueue(device, { profiling: true }));
      const program = own(
        context.createProgram(
          'kernel void add(global const float *a, global const float *b, global float *c) { size_t i = get_global_id(0); c[i] = a[i] + b[i]; }',
        ),
      );
      await program.build();
      const n = 1024;
      const a = Float32Array.from({ length: n }, (_, i) => i);
      const b = Float32Array.from({ length: n }, (_, i) => 2 * i);
      const bufA = own(context.createBuffer(a));
      const bufB = own(context.createBuffer(b));
      const bufC = own(context.createBuffer(n * 4));
      const kernel = own(program.createKernel('add').setArgs(bufA, bufB, bufC));
      const run = own(queue.enqueueKernel(kernel, [n]));
      let ticks = 0;
      const timer = setInterval(() => ticks++, 0);
      await run.completed;
      clearInterval(timer);
      assert.ok(run.profiling.end >= run.profiling.start);
      const c = new Float32Array(n);
      own(queue.readBuffer(bufC, c, { blocking: true }));
      assert.deepEqual(
        c,
        Float32Array.from({ length: n }, (_, i) => 3 * i),
      );
    });
  });

  test('images round trip; a mapping is detached on unmap', async () => {
    await owner(async (own) => {
      const context = own(ocl.createContext({ devices: [platform.getDevices()[0]] }));
      const queue = own(context.createQueue());
      const image = own(context.createImage({ format: { order: 'CL_RGBA', type: 'CL_UNSIGNED_INT8' }, width: 8, height: 4 }));
      const pixels = Uint8Array.from({ length: 8 * 4 * 4 }, (_, i) => i);
      own(queue.writeImage(image, pixels, { blocking: true }));
      const back = new Uint8Array(pixels.length);
      own(queue.readImage(image, back, { blocking: true }));
      assert.deepEqual(back, pixels);
      const buffer = own(context.createBuffer(new Uint8Array([1, 2, 3, 4])));
      const mapping = await queue.mapBuffer(buffer, { access: 'read' });
      const view = new Uint8Array(mapping.buffer);
      assert.deepEqual([...view], [1, 2, 3, 4]);
      await own(mapping.unmap()).completed;
      assert.equal(view.length, 0);
    });
  });

  test('typed errors: build log, released objects, missing sharing extensions', async () => {
    await owner(async (own) => {
      const context = own(ocl.createContext({ devices: [platform.getDevices()[0]] }));
      const broken = own(context.createProgram('kernel void k( { }'));
      await assert.rejects(broken.build(), (error) => error instanceof ocl.OpenCLBuildError && error.log.length > 0);
      const buffer = context.createBuffer(16);
      buffer.release();
      assert.throws(() => buffer.size, ocl.OpenCLReleasedError);
      for (const name of ['cl_nv_d3d9_sharing', 'cl_khr_d3d10_sharing', 'cl_intel_dx9_media_sharing', 'cl_khr_dx9_media_sharing']) {
        if (platform.extensions.includes(name)) assert.equal(platform.getSharing(name).name, name);
        else assert.throws(() => platform.getSharing(name), ocl.OpenCLExtensionError, name);
      }
    });
  });

  test('a worker thread uses OpenCL and is terminated mid-flight; the process goes on', async () => {
    const worker = new Worker(nativeCallLoop(packagePath, platform.name), { eval: true });
    await once(worker, 'message');
    await new Promise((resolve) => setTimeout(resolve, 20));
    await worker.terminate();
    assert.ok(ocl.getPlatforms().length > 0);
  });

  test('without OpenCL, calls throw OpenCLNotAvailableError naming what was tried', () => {
    const result = spawnSync(
      process.execPath,
      [
        '-e',
        `const ocl = require(${JSON.stringify(packagePath)});
        try { ocl.getPlatforms(); } catch (e) { console.log(e.name + ': ' + e.message); }`,
      ],
      { encoding: 'utf8', env: { ...process.env, OPENCL_INTEROP_LIBRARY: 'C:\\no\\such\\OpenCL.dll' } },
    );
    assert.equal(result.status, 0, result.stderr);
    assert.match(
      result.stdout,
      /^OpenCLNotAvailableError: No OpenCL library could be loaded\. Tried:\n  - C:\\no\\such\\OpenCL\.dll \(from OPENCL_INTEROP_LIBRARY\): Module not found\.\nInstall an OpenCL ICD loader/,
    );
  });
});
