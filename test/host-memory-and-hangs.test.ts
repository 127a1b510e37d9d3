// Safe by construction: each reproduction of a crash or a hang that a
// JavaScript program could cause, run in a fresh process (a crash or a hang
// there is a signal or a time-out, not a failed assertion of this process).
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runNodeForValue, withReferenceVa } from './helpers';

// Every snippet gets `pocl` (platform, device, context, queue) and `done(value)`,
// which prints the value as JSON; a snippet that never calls done() fails.
const prelude = `
const { Worker } = require('node:worker_threads');
const platform = ocl.getPlatforms().find((p) => p.name === 'Portable Computing Language');
const device = platform.getDevices()[0];
const context = ocl.createContext({ devices: [device] });
const queue = context.createQueue(device);
const done = (value) => console.log(JSON.stringify(value ?? null));
const errorOf = (fn) => { try { fn(); return 'no error'; } catch (e) { return e.name + ': ' + e.message; } };
`;

async function fresh(code: string, options: { timeout?: number; gc?: boolean } = {}) {
  return runNodeForValue(prelude + code, {
    args: options.gc ? ['--expose-gc'] : [],
    timeout: options.timeout,
    env: { OCL_ICD_VENDORS: process.env.OCL_ICD_VENDORS },
  });
}

describe("host memory is owned for a command's whole life (clEnqueueReadBuffer / clEnqueueWriteBuffer: ptr is used until the command completes)", () => {
  it.each(['readBuffer', 'writeBuffer', 'exit'])(
    'a worker terminated (or exiting) with 20 non-blocking 1 MiB transfers in flight: %s',
    async (mode) => {
      const { value } = await fresh(`
      const worker = new Worker(\`
        const ocl = require(${JSON.stringify(resolve(__dirname, '../dist/index.js'))});
        const { parentPort } = require('node:worker_threads');
        const platform = ocl.getPlatforms().find((p) => p.name === 'Portable Computing Language');
        const context = ocl.createContext({ devices: [platform.getDevices()[0]] });
        const queue = context.createQueue();
        const buffer = context.createBuffer(1 << 20);
        for (let i = 0; i < 20; i++) {
          if ('${mode}' === 'writeBuffer') queue.writeBuffer(buffer, new Uint8Array(1 << 20).fill(i));
          else queue.readBuffer(buffer, new Uint8Array(1 << 20));
        }
        queue.flush();
        if ('${mode}' === 'exit') process.exit(0);
        parentPort.postMessage('enqueued');
      \`, { eval: true });
      worker.on('message', () => worker.terminate());
      worker.on('exit', () => setTimeout(() => done('survived'), 300));
    `);
      expect(value).toBe('survived');
    },
  );

  it('the target of an in-flight read detached by a transfer, dropped and collected; the read says its bytes were dropped', async () => {
    const { value } = await fresh(
      `
      const buffer = context.createBuffer(1 << 20);
      queue.writeBuffer(buffer, new Uint8Array(1 << 20).fill(7), { blocking: true });
      const target = new Uint8Array(1 << 20);
      const read = queue.readBuffer(buffer, target);
      structuredClone(target.buffer, { transfer: [target.buffer] });
      global.gc();
      read.then(() => done('resolved'), (e) => { global.gc(); done(e.name + ': ' + e.message); });
    `,
      { gc: true },
    );
    expect(value).toMatch(/TypeError: .*detached or shrunk.*dropped/);
  });

  it('a resizable ArrayBuffer target resized to 0 mid-read; a detached target is a TypeError that says "detached"', async () => {
    const { value } = await fresh(`
      const buffer = context.createBuffer(4096);
      const resizable = new ArrayBuffer(4096, { maxByteLength: 8192 });
      const read = queue.readBuffer(buffer, new Uint8Array(resizable));
      resizable.resize(0);
      const detached = new Uint8Array(16);
      structuredClone(detached.buffer, { transfer: [detached.buffer] });
      const refused = errorOf(() => queue.readBuffer(buffer, detached));
      read.then(() => done({ read: 'resolved', refused }), (e) => done({ read: e.name, refused }));
    `);
    expect(value.read).toBe('TypeError');
    expect(value.refused).toMatch(/^TypeError: target is detached/);
  });

  it('SharedArrayBuffer memory works for blocking and non-blocking transfers', async () => {
    const { value } = await fresh(`
      const buffer = context.createBuffer(64);
      const shared = new Uint8Array(new SharedArrayBuffer(64)).fill(9);
      queue.writeBuffer(buffer, shared);
      const back = new Uint8Array(new SharedArrayBuffer(64));
      queue.readBuffer(buffer, back).then(() => {
        const direct = new Int32Array(new SharedArrayBuffer(64));
        queue.readBuffer(buffer, direct.buffer, { blocking: true });
        done([back[63], new Uint8Array(direct.buffer)[0]]);
      });
    `);
    expect(value).toEqual([9, 9]);
  });

  it('HostMemory: zero-copy non-blocking transfers; releasing it early frees nothing in use', async () => {
    const { value } = await fresh(`
      const host = ocl.allocateHostMemory(1 << 20);
      host.bytes().fill(5);
      const buffer = context.createBuffer(1 << 20);
      queue.writeBuffer(buffer, host);
      const into = ocl.allocateHostMemory(1 << 20);
      const read = queue.readBuffer(buffer, into);
      host.release();
      const huge = errorOf(() => ocl.allocateHostMemory(2 ** 52));
      read.then(() => done([into.bytes()[0], into.bytes()[(1 << 20) - 1], host.released, huge]));
    `);
    expect(value).toEqual([5, 5, true, 'RangeError: could not allocate 4503599627370496 bytes of host memory']);
  });

  it('loading a second OpenCL library is an OpenCLStateError naming both', async () => {
    const { value } = await fresh(`done(errorOf(() => ocl.loadOpenCL({ library: '/nonexistent/libOpenCL.so' })));`);
    expect(value).toMatch(/^OpenCLStateError: OpenCL is already loaded from .*; it cannot be switched to \/nonexistent/);
  });
});

describe("kernel arguments are checked against the kernel (reproduction 3 and the fuzzer's findings)", () => {
  const kernels = `
    const program = context.createProgram(\`
      kernel void img(read_only image2d_t src, global float *out) { out[0] = 1; }
      kernel void loc(local float *scratch, global float *out) { out[get_global_id(0)] = 0; }
      kernel void val(global float *out, float k, long n) { out[0] = k + n; }\`);
  `;
  it('a CLBuffer for an image2d_t, a Sampler for a global float*, bytes for a buffer: TypeErrors naming index, name, expected and given', async () => {
    const { value } = await fresh(`${kernels}
      program.build().then(() => {
        const img = program.createKernel('img');
        const buffer = context.createBuffer(64);
        const sampler = context.createSampler();
        const val = program.createKernel('val');
        done([
          errorOf(() => img.setArg(0, buffer)),
          errorOf(() => img.setArg(1, sampler)),
          errorOf(() => val.setArg(0, new BigUint64Array([buffer.address]))),
          errorOf(() => val.setArg(0, -1n, 'long')),
          errorOf(() => val.setArg(1, 1, 'double')),
          errorOf(() => val.setArg('0', buffer)),
        ]);
      });
    `);
    expect(value[0]).toBe(
      "TypeError: argument 0 (src: image2d_t) of kernel 'img' takes a CLImage of type image2d_t that kernels may read; got a CLBuffer",
    );
    expect(value[1]).toBe("TypeError: argument 1 (out: float*) of kernel 'img' takes a CLBuffer (or null); got a Sampler");
    expect(value[2]).toMatch(/^TypeError: argument 0 \(out: float\*\) of kernel 'val' takes a CLBuffer \(or null\); got a BigUint64Array/);
    expect(value[3]).toMatch(/^TypeError: argument 0 .* got the bigint -1n/);
    expect(value[4]).toBe("TypeError: argument 1 (k: float) of kernel 'val' takes a float value (4 bytes); got 8 bytes (a double)");
    expect(value[5]).toBe('TypeError: argument index must be a number; got the string "0"');
  });

  it("local memory beyond the device's is a RangeError at enqueue; an unset argument is named", async () => {
    const { value } = await fresh(`${kernels}
      program.build().then(() => {
        const loc = program.createKernel('loc');
        loc.setArg(1, context.createBuffer(64));
        const unset = errorOf(() => queue.enqueueKernel(loc, 1));
        loc.setArg(0, ocl.localMemory(Number(device.localMemSize) + 1));
        done([unset, errorOf(() => queue.enqueueKernel(loc, 1)), errorOf(() => queue.enqueueKernel(loc, '64'))]);
      });
    `);
    expect(value[0]).toBe("TypeError: argument 0 (scratch: float*) of kernel 'loc' is not set; set it with setArg(0, …) before enqueueing");
    expect(value[1]).toMatch(/^RangeError: kernel 'loc' needs \d+ bytes of __local memory .*; .* has \d+$/);
    expect(value[2]).toBe('TypeError: globalSize must be a number or an array of numbers; got the string "64"');
  });

  it('argInfo() returns names', async () => {
    const { value } = await fresh(`${kernels}
      program.build().then(() => done(program.createKernel('img').argInfo(0)));
    `);
    expect(value).toEqual({ name: 'src', typeName: 'image2d_t', addressQualifier: 'global', accessQualifier: 'read_only', typeQualifiers: [] });
  });

  it('a refused setArg keeps the previous object alive and recorded: releasing it and enqueueing is a typed error', async () => {
    const { value } = await fresh(`${kernels}
      program.build().then(() => {
        const val = program.createKernel('val');
        const first = context.createBuffer(64);
        val.setArgs(first, ['float', 1], ['long', 2n]);
        const refused = errorOf(() => val.setArg(0, context.createSampler()));
        first.release();
        done([refused.split(':')[0], errorOf(() => queue.enqueueKernel(val, 1))]);
      });
    `);
    expect(value).toEqual(['TypeError', 'OpenCLReleasedError: This CLBuffer (kernel argument 0) has been released and can no longer be used']);
  });
});

describe('images and raw queries never pass the driver a short host array', () => {
  it('host pitches are validated and cannot wrap around 2^64', async () => {
    const { value } = await fresh(`
      const image = context.createImage({ width: 4, height: 4, format: { order: 'RGBA', type: 'UNORM_INT8' } });
      const small = new Uint8Array(16);
      done([
        errorOf(() => queue.readImage(image, small, { region: [1, 1, 1], rowPitch: 2 ** 52, slicePitch: 4096 })),
        errorOf(() => queue.readImage(image, small, { region: [1, 2, 1], rowPitch: 2 ** 52 })),
        errorOf(() => queue.readImage(image, new Uint8Array(64), { rowPitch: 8 })),
        errorOf(() => queue.writeImage(image, new Uint8Array(64), { region: [4, 4, 1], slicePitch: 3 })),
      ]);
    `);
    expect(value[0]).toMatch(/^RangeError: slicePitch \(4096\) is smaller than a slice/);
    expect(value[1]).toMatch(/^RangeError: source|^RangeError: target has 16 bytes; the region needs/);
    expect(value[2]).toBe('RangeError: rowPitch (8) is smaller than a row of the region (16 bytes)');
    expect(value[3]).toBe('RangeError: slicePitch (3) is smaller than a slice of the region (64 bytes)');
  });

  it('origin and region elements are read once, before any handle is taken (a getter releasing the image on a second read never runs)', async () => {
    const { value } = await fresh(`
      const image = context.createImage({ width: 4, height: 4, format: { order: 'RGBA', type: 'UNORM_INT8' } });
      let reads = 0;
      const origin = [0, 0, 0];
      Object.defineProperty(origin, 0, { get() { if (++reads > 1) image.release(); return 0; } });
      queue.readImage(image, new Uint8Array(64), { origin, region: [4, 4, 1], blocking: true });
      done({ reads, released: image.released });
    `);
    expect(value).toEqual({ reads: 1, released: false });
  });

  it('NDRange sizes are read once and checked before the driver sees them (a getter that changes its answer cannot pass 0 or -1)', async () => {
    const { value } = await fresh(`
      const program = context.createProgram('kernel void k(global int *a) { a[get_global_id(0)] = 1; }');
      program.build().then(() => {
        const kernel = program.createKernel('k');
        const buffer = context.createBuffer(256);
        kernel.setArg(0, buffer);
        let reads = 0;
        const global = [64];
        Object.defineProperty(global, 0, { get() { return ++reads > 1 ? -1 : 64; } });
        const local = [16];
        Object.defineProperty(local, 0, { get() { return ++reads > 2 ? 0 : 16; } });
        queue.enqueueKernel(kernel, global, { localSize: local }).waitSync();
        done({ reads, bad: [errorOf(() => queue.enqueueKernel(kernel, [64, 0])), errorOf(() => queue.enqueueKernel(kernel, [1, 1, 1, 1])), errorOf(() => queue.enqueueKernel(kernel, 8, { localSize: [2, 2] }))] });
      });
    `);
    expect(value).toEqual({
      reads: 2,
      bad: [
        'RangeError: globalSize[1] must be an integer >= 1; got 0',
        'RangeError: globalSize must have 1 to 3 dimensions; got 4',
        'RangeError: localSize must have 1 dimension(s) like globalSize; got 2',
      ],
    });
  });

  it('a typed kernel argument is packed from elements read first: a getter that sets another argument cannot change the bytes the driver gets', async () => {
    const { value } = await fresh(`
      const program = context.createProgram('kernel void put(global float4 *out, float4 v) { out[0] = v; } kernel void other(global int *o, int x) { o[0] = x; }');
      program.build().then(() => {
        const put = program.createKernel('put');
        const other = program.createKernel('other');
        const out = context.createBuffer(16);
        put.setArg(0, out);
        const values = [1.5, 2.5, 3.5, 4.5];
        const sneaky = new Proxy(values, { get(target, key) { if (key === '2') other.setArg(1, 123456, 'int'); return Reflect.get(target, key); } });
        put.setArg(1, sneaky, 'float4');
        queue.enqueueKernel(put, 1);
        const result = new Float32Array(4);
        queue.readBuffer(out, result, { blocking: true });
        done([...result]);
      });
    `);
    expect(value).toEqual([1.5, 2.5, 3.5, 4.5]);
  });

  it('a 1D image array sizes its host data by slicePitch, as the driver reads it', async () => {
    const { value } = await fresh(`
      const format = { order: 'R', type: 'UNSIGNED_INT8' };
      done([
        errorOf(() => context.createImage({ type: '1d-array', width: 4, arraySize: 4, slicePitch: 64, format, data: new Uint8Array(16) })),
        context.createImage({ type: '1d-array', width: 4, arraySize: 4, slicePitch: 64, format, data: new Uint8Array(256) }).arraySize,
      ]);
    `);
    expect(value).toEqual(['RangeError: data has 16 bytes; the image needs 256', 4]);
  });

  it("program.info(CL_PROGRAM_BINARIES) returns the binaries' bytes", async () => {
    const { value } = await fresh(`
      const program = context.createProgram('kernel void k(global int *a) { a[0] = 1; }');
      program.build().then(() => done(program.info(ocl.CL.CL_PROGRAM_BINARIES).length > 0));
    `);
    expect(value).toBe(true);
  });
});

describe('mappings', () => {
  it("a mapping's view outlives dropping the mapping, buffer, queue and context without unmap, and GC", async () => {
    const { value } = await fresh(
      `
      let view;
      (() => {
        const ctx = ocl.createContext({ devices: [device] });
        const q = ctx.createQueue();
        const buffer = ctx.createBuffer(64 << 20);
        view = new Uint8Array(q.mapBufferSync(buffer).buffer);
      })();
      setTimeout(() => { global.gc(); setTimeout(() => { global.gc(); view.fill(4); done(view[(64 << 20) - 1]); }, 50); }, 50);
    `,
      { gc: true },
    );
    expect(value).toBe(4);
  });

  it('overlapping mappings where one writes are refused (OpenCLStateError)', async () => {
    const { value } = await fresh(`
      const buffer = context.createBuffer(256);
      const a = queue.mapBufferSync(buffer, { offset: 0, size: 128, access: 'write' });
      const refused = errorOf(() => queue.mapBufferSync(buffer, { offset: 64, size: 128, access: 'read' }));
      const apart = queue.mapBufferSync(buffer, { offset: 128, size: 128, access: 'read' });
      a.unmap().release();
      apart.unmap().release();
      done(refused);
    `);
    expect(value).toMatch(/^OpenCLStateError: this region overlaps a mapping of the same CLBuffer that is still mapped for writing/);
  });
});

describe("nothing hangs (reproduction 4 and the fuzzer's never-exiting processes)", () => {
  it('void queue.finish() on a queue whose only command waits on a user event never set: the process exits', async () => {
    const { value } = await fresh(`
      const gate = context.createUserEvent();
      queue.fillBuffer(context.createBuffer(64), new Uint8Array([1]), { waitFor: [gate] });
      void queue.finish();
      queue.enqueueMarker().completed.catch(() => {});
      done('ended');
    `);
    expect(value).toBe('ended');
  });

  it('waitSync and finishSync on work held back by an unset user event throw OpenCLStateError instead of blocking', async () => {
    const { value } = await fresh(`
      const gate = context.createUserEvent();
      const fill = queue.fillBuffer(context.createBuffer(64), new Uint8Array([1]), { waitFor: [gate] });
      const marker = queue.enqueueMarker();
      const results = [errorOf(() => fill.waitSync()), errorOf(() => queue.finishSync()), errorOf(() => marker.waitSync()),
        errorOf(() => queue.readBuffer(context.createBuffer(4), new Uint8Array(4), { blocking: true }))];
      gate.setStatus('complete');
      queue.finishSync();
      results.push(fill.status);
      done(results);
    `);
    expect(value.slice(0, 4).every((m: string) => /^OpenCLStateError: .* would block for ever/.test(m))).toBe(true);
    expect(value[4]).toBe('complete');
  });

  it.each(['failed', 'released'])('a command awaited, then its user event %s: the promise rejects and the process exits', async (how) => {
    const { value } = await fresh(`
      const gate = context.createUserEvent();
      const fill = queue.fillBuffer(context.createBuffer(64), new Uint8Array([1]), { waitFor: [gate] });
      queue.flush();
      fill.then(() => done('resolved'), (e) => done(e.name + ': ' + e.message));
      setTimeout(() => ${JSON.stringify(how)} === 'failed' ? gate.setStatus(-5) : gate.release(), 10);
    `);
    expect(value).toMatch(
      how === 'failed'
        ? /^OpenCLCommandError: the CL_COMMAND_FILL_BUFFER command failed with execution status -?\d+: an event it waited on failed \(a user event set to -5\)$/
        : /^OpenCLCommandError: .* \(a user event released before it was set\)$/,
    );
  });

  it('a command behind a user event that already failed is refused at enqueue (it would stay queued for ever)', async () => {
    const { value } = await fresh(`
      const gate = context.createUserEvent();
      gate.setStatus(-5);
      done(errorOf(() => queue.fillBuffer(context.createBuffer(64), new Uint8Array([1]), { waitFor: [gate] })));
    `);
    expect(value).toBe(
      'OpenCLError: clEnqueueFillBuffer failed: CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST (-14): waitFor[0] has failed: a user event set to -5',
    );
  });

  it('a gated command that is awaited and kept, its user event never set: the process exits', async () => {
    const { value } = await fresh(`
      globalThis.kept = context.createUserEvent();
      globalThis.fill = queue.fillBuffer(context.createBuffer(64), new Uint8Array([1]), { waitFor: [kept] });
      fill.then(() => {}, () => {});
      kept.then(() => {}, () => {});
      done('ended');
    `);
    expect(value).toBe('ended');
  });

  it('a user event awaited, then released or failed while nothing else waits: its promise settles and the process exits', async () => {
    const { value } = await fresh(`
      const released = context.createUserEvent();
      const failed = context.createUserEvent();
      const results = [];
      const note = (what) => (e) => results.push(what + ': ' + (e ? e.name : 'resolved'));
      released.then(note('released'), note('released'));
      failed.whenStatus('complete').then((s) => results.push('failed: ' + s), note('failed'));
      released.release();
      failed.setStatus(-9);
      setTimeout(() => done(results.sort()), 50);
    `);
    expect(value).toEqual(['failed: OpenCLCommandError', 'released: OpenCLCommandError']);
  });

  it('setStatus leaves no timer behind: a set user event with nothing waiting lets the process exit', async () => {
    const { value } = await fresh(`
      const gate = context.createUserEvent();
      const fill = queue.fillBuffer(context.createBuffer(64), new Uint8Array([1]), { waitFor: [gate] });
      fill.then(() => {}, () => {});
      gate.setStatus(-5);
      done('ended');
    `);
    expect(value).toBe('ended');
  });

  it.each([['fillBuffer'], ['fillImage'], ['copyImageToBuffer'], ['copyBuffer']])(
    'every command takes the one enqueue path: a gated %s refuses to block and is kept until its user event ends',
    async (what) => {
      const { value } = await fresh(`
        const gate = context.createUserEvent();
        const buffer = context.createBuffer(256);
        const image = context.createImage({ width: 4, height: 4, format: { order: 'RGBA', type: 'UNORM_INT8' } });
        const command = {
          fillBuffer: () => queue.fillBuffer(buffer, new Uint8Array([2]), { waitFor: [gate] }),
          fillImage: () => queue.fillImage(image, [0, 0, 0, 1], { waitFor: [gate] }),
          copyImageToBuffer: () => queue.copyImageToBuffer(image, buffer, { waitFor: [gate] }),
          copyBuffer: () => queue.copyBuffer(buffer, context.createBuffer(256), { waitFor: [gate] }),
        }[${JSON.stringify(what)}]();
        const refused = errorOf(() => command.waitSync());
        command.release();
        queue.flush();
        setTimeout(() => { gate.setStatus(-5); setTimeout(() => done(refused.split(':')[0]), 200); }, 20);
      `);
      expect(value).toBe('OpenCLStateError');
    },
  );

  it.each([['transitive chain'], ['pending map, queue released']])(
    'commands that wait on a user event only through others are kept until it ends (PoCL aborted): %s',
    async (what) => {
      const { value } = await fresh(`
        const gate = context.createUserEvent();
        const buffer = context.createBuffer(256);
        const q = context.createQueue(device);
        if (${JSON.stringify(what)} === 'transitive chain') {
          const first = q.fillBuffer(buffer, new Uint8Array([1]), { waitFor: [gate] });
          q.copyBuffer(buffer, context.createBuffer(256), { waitFor: [first] }).release();
          first.release();
        } else {
          q.mapBuffer(buffer, { waitFor: [gate] }).catch(() => {});
        }
        q.flush();
        if (${JSON.stringify(what)} === 'pending map, queue released') q.release();
        setTimeout(() => { gate.setStatus(-5); setTimeout(() => done('survived'), 200); }, 20);
      `);
      expect(value).toBe('survived');
    },
  );
});

describe('events lead to correct code', () => {
  it('await on any command waits for it and rejects with its error; profiling without a profiling queue says so', async () => {
    const { value } = await fresh(`
      (async () => {
        const buffer = context.createBuffer(16);
        const data = new Uint8Array(16);
        await queue.writeBuffer(buffer, new Uint8Array(16).fill(6));
        await queue.readBuffer(buffer, data);
        const fill = queue.fillBuffer(buffer, new Uint8Array([1]));
        await fill;
        done([data[15], errorOf(() => fill.profiling)]);
      })();
    `);
    expect(value).toEqual([
      6,
      'OpenCLStateError: the queue was created without profiling: create it with context.createQueue(device, { profiling: true })',
    ]);
  });

  it('fill patterns of an invalid size and offsets that are not multiples are RangeErrors', async () => {
    const { value } = await fresh(`
      const buffer = context.createBuffer(64);
      done([errorOf(() => queue.fillBuffer(buffer, new Uint8Array(3))), errorOf(() => queue.fillBuffer(buffer, new Uint32Array(1), { offset: 2 }))]);
    `);
    expect(value).toEqual([
      'RangeError: pattern must be 1, 2, 4, 8, 16, 32, 64 or 128 bytes long; got 3',
      "RangeError: offset (2) and size (62) must be multiples of the pattern's 4 bytes",
    ]);
  });

  it("after every scope has closed, the reference driver's live objects are back to zero without gc()", async () => {
    const { value } = await fresh(
      withReferenceVa(`
        for (let round = 0; round < 10; round++) {
          const context = ocl.createContext({ devices: platform.getDevices() });
          const queue = context.createQueue();
          const a = context.createBuffer(new Uint8Array(64).fill(round));
          const b = context.createBuffer(64);
          const program = context.createProgramWithBuiltInKernels(['copy_buffer']);
          const kernel = program.createKernel('copy_buffer').setArgs(a, b);
          queue.enqueueKernel(kernel, 64);
          queue.fillBuffer(a, new Uint8Array([1]));
          const out = new Uint8Array(64);
          await queue.readBuffer(b, out);
          for (const o of [kernel, program, a, b, queue, context]) o.release();
        }
        ref.waitIdle();
        done(['context', 'queue', 'mem', 'event'].map((kind) => ref.liveObjects(kind)));
      `),
    );
    expect(value).toEqual([0, 0, 0, 0]);
  });

  it('create-and-drop cycles of every object kind (shared objects and never-unmapped mappings too) return to the baseline', async () => {
    const cycles = Number(process.env.GROWTH_CYCLES ?? 20_000);
    const { value } = await fresh(
      withReferenceVa(`
        const context = va.createContext(display);
        const queue = context.createQueue();
        const kernel = context.createProgramWithBuiltInKernels(['copy_buffer']).createKernel('copy_buffer');
        const cycle = () => {
          const a = context.createBuffer(64);
          const b = context.createBuffer(64);
          kernel.setArgs(a, b);
          queue.enqueueKernel(kernel, 64);
          queue.mapBufferSync(a, { access: 'read' });
          context.createUserEvent();
          const surface = ref.vaCreateSurface(display, 16, 16);
          va.createFromSurface(context, surface.id, 0);
          ref.release(surface.resource);
        };
        const settle = async () => {
          for (let i = 0; i < 5; i++) { await new Promise((r) => setTimeout(r, 5)); global.gc(); }
          await queue.finish();
          ref.waitIdle();
          // Memory outside the V8 heap: the heap's own committed size swings by
          // tens of MiB with its young generation (seen: +42 to +102 MiB of rss
          // over the same 20000 cycles), and heapUsed is checked by itself.
          const { heapUsed, heapTotal, rss } = process.memoryUsage();
          return { live: ref.liveObjects('all'), heap: heapUsed, outsideHeap: rss - heapTotal };
        };
        const run = async (n) => { for (let i = 0; i < n; i++) { cycle(); if (i % 500 === 0) await new Promise((r) => setImmediate(r)); } };
        await run(2000);
        const before = await settle();
        await run(${cycles});
        const after = await settle();
        done({ before, after });
      `),
      { gc: true, timeout: 300_000 },
    );
    expect(value.after.live).toBeLessThanOrEqual(value.before.live + 16);
    expect(value.after.heap - value.before.heap).toBeLessThan(8 << 20);
    expect(value.after.outsideHeap - value.before.outsideHeap).toBeLessThan(64 << 20);
  }, 330_000);
});
