// Crashes a script could cause, each reproduced in a fresh process through the public
// API: a crash there is a signal or a time-out, not a failed assertion of this
// process. Each test failed before its fix (the commit that added it says how).
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runNode, runNodeForValue } from './helpers';
import { SOFTVA_VENDOR, softvaForChildren } from './helpers/va';

const dist = JSON.stringify(resolve(__dirname, '../dist/index.js'));

// Every snippet gets `ocl`, `Worker`, `done(value)` (prints the value as JSON;
// a snippet that never calls it fails) and `errorOf(fn)`.
const prelude = `
const { Worker } = require('node:worker_threads');
const done = (value) => console.log(JSON.stringify(value ?? null));
const errorOf = (fn) => { try { fn(); return 'no error'; } catch (e) { return e.name + ': ' + e.message; } };
const poclSetup = (options) => {
  const platform = ocl.getPlatforms().find((p) => p.name === 'Portable Computing Language');
  const device = platform.getDevices()[0];
  const context = ocl.createContext({ devices: [device] });
  return { platform, device, context, queue: context.createQueue(device, options) };
};
`;

interface Fresh {
  env?: NodeJS.ProcessEnv;
  args?: string[];
  timeout?: number;
}

/** Runs the snippet in a fresh node; it must exit 0 (no signal) and print a value last. */
async function fresh(code: string, options: Fresh = {}): Promise<unknown> {
  return (await runNodeForValue(prelude + code, { env: options.env, args: options.args, timeout: options.timeout })).value;
}

describe('1. an adopted VA display this module opened is shared, never left on freed memory', () => {
  const va = softvaForChildren();

  // A surface round trip and the vendor string: what the display answers while it lives.
  const use = `
    const check = (display) => {
      const surface = display.createSurface({ width: 16, height: 16 });
      surface.writePlane(0, new Uint8Array(256).fill(201));
      const byte = surface.readPlane(0)[100];
      surface.dispose();
      return { vendor: display.vendor, byte };
    };`;

  it('adopted after dispose(), while a surface keeps it alive; the surface disposed next: the adopted display still works', async () => {
    const value = await fresh(
      `${use}
      const display = ocl.openVaDisplay({ kind: 'x11' });
      const surface = display.createSurface({ width: 16, height: 16 });
      const address = display.address;
      display.dispose();
      const adopted = ocl.VaDisplay.adopt(address);
      surface.dispose();
      const result = check(adopted);
      // Opened while the adopted object lives: another display, at another address.
      const other = ocl.openVaDisplay({ kind: 'x11' });
      result.otherAddress = other.address !== address;
      other.dispose();
      adopted.dispose();
      done(result);`,
      { env: va.env() },
    );
    expect(value).toEqual({ vendor: SOFTVA_VENDOR, byte: 201, otherAddress: true });
  });

  it('opened in a worker that exits; adopted by the main thread: the main thread keeps it', async () => {
    const value = await fresh(
      `${use}
      const worker = new Worker(\`
        const ocl = require(${dist});
        const { parentPort } = require('node:worker_threads');
        const display = ocl.openVaDisplay({ kind: 'x11' });
        parentPort.postMessage(display.address);
        parentPort.once('message', () => { display.dispose(); process.exit(0); });
      \`, { eval: true });
      worker.once('message', (address) => {
        const adopted = ocl.VaDisplay.adopt(address);
        worker.postMessage('exit');
        worker.once('exit', () => {
          const result = check(adopted);
          adopted.dispose();
          done(result);
        });
      });`,
      { env: va.env() },
    );
    expect(value).toEqual({ vendor: SOFTVA_VENDOR, byte: 201 });
  });

  it('opened by the main thread, adopted by a worker, disposed by the main thread: the worker keeps it', async () => {
    const value = await fresh(
      `
      const display = ocl.openVaDisplay({ kind: 'x11' });
      const worker = new Worker(\`
        const ocl = require(${dist});
        const { parentPort, workerData } = require('node:worker_threads');
        ${use}
        const adopted = ocl.VaDisplay.adopt(workerData);
        parentPort.postMessage('adopted');
        parentPort.once('message', () => { parentPort.postMessage(check(adopted)); adopted.dispose(); });
      \`, { eval: true, workerData: display.address });
      worker.once('message', () => {
        display.dispose();
        worker.once('message', (result) => done(result));
        worker.postMessage('go');
      });`,
      { env: va.env() },
    );
    expect(value).toEqual({ vendor: SOFTVA_VENDOR, byte: 201 });
  });
  it('12. a DMA-BUF the software VA driver exported, truncated by the script, then the surface read: the memfd is sealed (test equipment)', async () => {
    const value = await fresh(
      `
      const { ftruncateSync, fstatSync } = require('node:fs');
      const display = ocl.openVaDisplay({ kind: 'x11' });
      const surface = display.createSurface({ width: 64, height: 64 });
      surface.writePlane(0, new Uint8Array(64 * 64).fill(77));
      const dmabuf = surface.exportDmaBuf();
      const fd = dmabuf.objects[0].fd;
      const size = fstatSync(fd).size;
      const shrink = errorOf(() => ftruncateSync(fd, 0));
      const byte = surface.readPlane(0)[1000];
      const grow = errorOf(() => ftruncateSync(fd, size * 2));
      const kept = fstatSync(fd).size === size;
      dmabuf.close();
      surface.dispose();
      display.dispose();
      done({ shrink, grow, byte, size: kept });`,
      { env: va.env() },
    );
    expect(value).toEqual({ shrink: expect.stringMatching(/EPERM/), grow: expect.stringMatching(/EPERM/), byte: 77, size: true });
  });
});

describe('2. no internal method reachable from a public object keeps pointers into memory the script controls', () => {
  // A kernel whose result shows the arguments it got: out[i] = v + i.
  const kernelSetup = `
    const { context, queue } = poclSetup();
    const program = context.createProgram('__kernel void k(__global int* out, int v) { out[get_global_id(0)] = v + (int)get_global_id(0); }');
    const detach = (view) => { try { structuredClone(view.buffer, { transfer: [view.buffer] }); } catch {} };
    const churn = () => { for (let i = 0; i < 4; i++) { global.gc(); const junk = []; for (let j = 0; j < 64; j++) junk.push(new Float64Array(256).fill(-1e9)); } };
    const run = async (kernel, v) => {
      const out = context.createBuffer(16);
      kernel.setArg(0, out).setArg(1, v, 'int');
      queue.enqueueKernel(kernel, 4);
      const result = new Int32Array(4);
      await queue.readBuffer(out, result);
      return [...result];
    };
    // Calls every method of \`target\` whose name matches \`pattern\` with \`args\`; detaches what it was given or got.
    const tryAll = (target, pattern, args) => {
      const outcomes = [];
      for (let o = target; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
        for (const name of Object.getOwnPropertyNames(o)) {
          if (!pattern.test(name) || typeof target[name] !== 'function') continue;
          try {
            const got = target[name](...args);
            for (const view of [...args, ...(got && typeof got === 'object' ? Object.values(got) : [])]) if (ArrayBuffer.isView(view)) detach(view);
            if (ArrayBuffer.isView(got)) detach(got);
            outcomes.push(name + ': accepted');
          } catch (e) { outcomes.push(name + ': ' + e.name); }
        }
      }
      args.forEach(detach);
      return outcomes;
    };`;

  it("kernel.native's argument store: handed a store the script then detaches, or asked for its own and detached; after GC the kernel gets its arguments or a typed error", async () => {
    const value = await fresh(
      `${kernelSetup}
      (async () => {
        await program.build();
        const kernel = program.createKernel('k');
        const before = await run(kernel, 7);
        const outcomes = tryAll(kernel.native, /argstore/i, [new Uint8Array(1024)]);
        churn();
        let after;
        try { after = await run(kernel, 40); } catch (e) { after = e.name + ': ' + e.message; }
        // Another kernel never touched: unaffected.
        const fresh = await run(program.createKernel('k'), 3);
        done({ before, outcomes: outcomes.length > 0, after, fresh });
      })();`,
      { args: ['--expose-gc'] },
    );
    const { before, outcomes, after, fresh: untouched } = value as { before: number[]; outcomes: boolean; after: unknown; fresh: number[] };
    expect(outcomes).toBe(true);
    expect(before).toEqual([7, 8, 9, 10]);
    expect(untouched).toEqual([3, 4, 5, 6]);
    if (typeof after === 'string') expect(after).toMatch(/^TypeError: .*argument store.*detached/);
    else expect(after).toEqual([40, 41, 42, 43]);
  });

  it("event.native.addon's call arrays: the script hands its own and detaches them; after GC every enqueueKernel still reads the binding's sizes", async () => {
    const value = await fresh(
      `${kernelSetup}
      (async () => {
        await program.build();
        const kernel = program.createKernel('k');
        const before = await run(kernel, 7);
        const event = queue.enqueueMarker();
        await event;
        const addon = event.native.addon;
        const outcomes = tryAll(addon, /callarrays/i, [new Float64Array(12), new Float64Array(1 + 3 * 64)]);
        event.release();
        churn();
        const after = await run(kernel, 40);
        done({ before, outcomes, after });
      })();`,
      { args: ['--expose-gc'] },
    );
    const { before, outcomes, after } = value as { before: number[]; outcomes: string[]; after: number[] };
    expect(before).toEqual([7, 8, 9, 10]);
    expect(outcomes.length).toBeGreaterThan(0);
    for (const outcome of outcomes) expect(outcome).not.toMatch(/accepted/);
    expect(after).toEqual([40, 41, 42, 43]);
  });
});

describe('3. releasing an out-of-order queue (or the mapped object) with a map gated by a user event', () => {
  it.each([
    ['buffer', 'queue'],
    ['image', 'queue'],
    ['buffer', 'memory'],
    ['image', 'memory'],
  ])('a %s map waiting on an unset user event, the %s released, the event set later: no unmap before the map', async (kind, released) => {
    const value = await fresh(`
      const { context, queue } = poclSetup({ outOfOrder: true });
      const gate = context.createUserEvent();
      const memory = '${kind}' === 'buffer'
        ? context.createBuffer(1 << 20)
        : context.createImage({ type: '2d', width: 64, height: 64, format: { order: 'RGBA', type: 'UNSIGNED_INT8' } });
      const other = context.createBuffer(4096);
      const maps = [0, 1].map(() => ('${kind}' === 'buffer' ? queue.mapBuffer(memory, { waitFor: [gate], access: 'read' }) : queue.mapImage(memory, { waitFor: [gate], access: 'read' }))
        .then((m) => 'mapped: ' + m.mapped, (e) => e.name));
      const ungated = queue.mapBuffer(other, { access: 'read' }).then((m) => 'mapped: ' + m.mapped, (e) => e.name);
      ('${released}' === 'queue' ? queue : memory).release();
      // Set after the released mappings' records have gone (their finalizers run on a later turn).
      setTimeout(() => {
        gate.setStatus('complete');
        Promise.all([...maps, ungated]).then((r) => setTimeout(() => done(r), 200));
      }, 200);
    `);
    const results = value as string[];
    expect(results).toHaveLength(3);
    for (const result of results) expect(result).toMatch(/^(mapped: (true|false)|OpenCL\w*Error)$/);
  });
});

describe('4. copies between an image and a sub-buffer (PoCL 3.1 crashed in clEnqueueCopyImageToBuffer / clEnqueueCopyBufferToImage)', () => {
  const setup = `
    const { context, queue } = poclSetup();
    const image = context.createImage({ type: '2d', width: 8, height: 8, format: { order: 'RGBA', type: 'UNSIGNED_INT8' } });
    const parent = context.createBuffer(4096);
    const sub = parent.createSubBuffer(1024, 1024);
    const pattern = new Uint8Array(256).map((_, i) => (i * 7 + 3) & 255);`;

  it('copyImageToBuffer into a sub-buffer (clEnqueueCopyImageToBuffer: dst_offset is within dst_buffer, a sub-buffer included)', async () => {
    const value = await fresh(`${setup}
      (async () => {
        await queue.writeBuffer(parent, new Uint8Array(4096).fill(0xee));
        await queue.writeImage(image, pattern);
        await queue.copyImageToBuffer(image, sub, { dstOffset: 16 });
        const all = new Uint8Array(4096);
        await queue.readBuffer(parent, all);
        const copied = all.subarray(1024 + 16, 1024 + 16 + 256);
        const tooFar = errorOf(() => queue.copyImageToBuffer(image, sub, { dstOffset: 1024 - 255 }));
        done({
          copied: copied.every((b, i) => b === pattern[i]),
          before: all.subarray(0, 1024 + 16).every((b) => b === 0xee),
          after: all.subarray(1024 + 16 + 256).every((b) => b === 0xee),
          tooFar,
        });
      })();`);
    expect(value).toEqual({
      copied: true,
      before: true,
      after: true,
      tooFar: expect.stringMatching(/^RangeError: dstOffset .*exceeds the sub-buffer's 1024 bytes/),
    });
  });

  it('copyBufferToImage from a sub-buffer (clEnqueueCopyBufferToImage)', async () => {
    const value = await fresh(`${setup}
      (async () => {
        const all = new Uint8Array(4096);
        all.set(pattern, 1024 + 32);
        await queue.writeBuffer(parent, all);
        await queue.copyBufferToImage(sub, image, { srcOffset: 32 });
        const back = new Uint8Array(256);
        await queue.readImage(image, back);
        const region = errorOf(() => queue.copyBufferToImage(sub, image, { srcOffset: 800 }));
        // The parent's JS object released: the sub-buffer keeps the driver's parent alive.
        parent.release();
        await queue.writeImage(image, new Uint8Array(256));
        await queue.copyBufferToImage(sub, image, { srcOffset: 32 });
        const again = new Uint8Array(256);
        await queue.readImage(image, again);
        done({ copied: back.every((b, i) => b === pattern[i]), region, again: again.every((b, i) => b === pattern[i]) });
      })();`);
    expect(value).toEqual({
      copied: true,
      again: true,
      region: expect.stringMatching(/^RangeError: srcOffset .*exceeds the sub-buffer's 1024 bytes/),
    });
  });
});

describe("5. the process exits while PoCL is still compiling (a build, or a kernel at its first run on the driver's threads)", () => {
  // Each process compiles a source of its own (PoCL caches binaries by source).
  const script = (mode: string, delay: number) => `
    const body = \`
      const platform = ocl.getPlatforms().find((p) => p.name === 'Portable Computing Language');
      const context = ocl.createContext({ devices: [platform.getDevices()[0]] });
      const queue = context.createQueue();
      const name = 'k' + process.pid + '_' + Math.floor(Math.random() * 1e9);
      const program = context.createProgram('__kernel void ' + name + '(__global float* a) { int i = get_global_id(0); float x = a[i]; for (int j = 0; j < 10; j++) x = sin(x) * cos(x + j); a[i] = x; }');
      if ('${mode}' === 'build') {
        program.build().catch(() => {});
        setTimeout(() => process.exit(0), ${delay});
      } else {
        program.build().then(() => {
          const kernel = program.createKernel(name);
          kernel.setArg(0, context.createBuffer(4096));
          queue.enqueueKernel(kernel, 1024);
          queue.flush();
          setTimeout(() => process.exit(0), ${delay});
        });
      }\`;
    if ('${mode}' === 'worker') {
      const worker = new Worker('const ocl = require(${dist});' + body, { eval: true });
      worker.on('exit', () => setTimeout(() => done('exited'), 20));
    } else {
      eval(body);
    }`;

  it('24 processes (builds, kernels, kernels in a worker that exits), process.exit() at 0 to 1.1 s: every one exits cleanly', async () => {
    const runs: { mode: string; delay: number }[] = [];
    for (let i = 0; i < 24; i++) runs.push({ mode: ['build', 'kernel', 'worker', 'worker'][i % 4]!, delay: ((i * 7) % 12) * 100 });
    const failures: string[] = [];
    for (let i = 0; i < runs.length; i += 4) {
      const batch = runs.slice(i, i + 4);
      const results = await Promise.all(batch.map(({ mode, delay }) => runNode(prelude + script(mode, delay))));
      results.forEach((result, j) => {
        if (result.signal || result.status !== 0)
          failures.push(`${batch[j]!.mode} at ${batch[j]!.delay} ms: ${result.signal ?? `status ${result.status}`} ${result.stderr.slice(-300)}`);
      });
    }
    expect(failures).toEqual([]);
  }, 600_000);
});

describe('11. an ICD registry file that starts with a NUL byte (ocl-icd crashes in clGetPlatformIDs on it)', () => {
  const vendors = resolve(__dirname, '../cmake-build/vendors');
  const setupFolder = `
    const { mkdtempSync, writeFileSync, copyFileSync, readdirSync } = require('node:fs');
    const { join } = require('node:path');
    const { tmpdir } = require('node:os');
    const folder = mkdtempSync(join(tmpdir(), 'icd-'));
    for (const name of readdirSync(${JSON.stringify(vendors)})) copyFileSync(join(${JSON.stringify(vendors)}, name), join(folder, name));
    const bad = join(folder, 'broken.icd');
    writeFileSync(bad, Buffer.from('\\0libpocl.so.2\\n'));`;

  it.each(['folder', 'file'])('OCL_ICD_VENDORS names the %s: getPlatforms() throws OpenCLRegistryError naming the file', async (how) => {
    const value = await fresh(`${setupFolder}
      process.env.OCL_ICD_VENDORS = '${how}' === 'folder' ? folder : bad;
      let outcome;
      try { outcome = ocl.getPlatforms().length; } catch (e) { outcome = { name: e.name, file: e.file, message: e.message, typed: e instanceof ocl.OpenCLNotAvailableError }; }
      done({ outcome, bad });`);
    const { outcome, bad } = value as { outcome: { name: string; file: string; message: string; typed: boolean }; bad: string };
    expect(outcome).toMatchObject({ name: 'OpenCLRegistryError', file: bad, typed: true });
    expect(outcome.message).toContain(`${bad} starts with a NUL byte`);
  });

  it("the CLI's info names the file, skips it and lists the drivers beside it, without a crash", async () => {
    const value = await fresh(`${setupFolder}
      const { spawnSync } = require('node:child_process');
      const result = spawnSync(process.execPath, [${JSON.stringify(resolve(__dirname, '../dist/cli.js'))}, 'info'], { env: { ...process.env, OCL_ICD_VENDORS: folder }, encoding: 'utf8' });
      done({ status: result.status, signal: result.signal, names: result.stderr.includes(bad + ' starts with a NUL byte') });`);
    expect(value).toEqual({ status: 0, signal: null, names: true });
  });
});

describe('a mapping larger than an ArrayBuffer can be (NVIDIA makes buffers over 4 GiB; the fuzzer mapped one: SIGSEGV)', () => {
  // The reference driver, told to, makes such a buffer as a GPU does: its pages reserved, not touched.
  const env = { REFDRV_MAX_ALLOC: String(2 ** 33) };
  const setup = `
    const platform = ocl.getPlatforms().find((p) => p.name === 'opencl-interop reference driver');
    const context = ocl.createContext({ platform });
    const queue = context.createQueue();
    const buffer = context.createBuffer(2 ** 32 + 4096);
    // A window past 4 GiB still maps, and what is written through it lands.
    const beyond4GiB = () => {
      const w = queue.mapBufferSync(buffer, { offset: 2 ** 32, size: 4096 });
      new Uint8Array(w.buffer).fill(7);
      w.unmap();
      const back = new Uint8Array(8);
      queue.readBuffer(buffer, back, { offset: 2 ** 32 + 100, blocking: true });
      return [...back];
    };`;

  it('mapBufferSync / mapBuffer of the whole buffer (clEnqueueMapBuffer: size is the region mapped): RangeError naming size and the limit, nothing mapped', async () => {
    const value = await fresh(
      `${setup}
      (async () => {
        const sync = errorOf(() => queue.mapBufferSync(buffer));
        let promised = 'no error';
        try { await queue.mapBuffer(buffer, { size: 2 ** 32 + 1 }); } catch (e) { promised = e.name + ': ' + e.message; }
        global.gc();
        done({ sync, promised, window: beyond4GiB(), mappings: queue.mappings?.size ?? null });
      })();`,
      { env, args: ['--expose-gc'] },
    );
    const { sync, promised, window } = value as { sync: string; promised: string; window: number[] };
    expect(sync).toMatch(
      /^RangeError: size: a mapping is at most 4294967296 bytes here \(buffer\.constants\.MAX_LENGTH.*got 4294971392 \(the buffer's 4294971392 bytes from offset 0\)/,
    );
    expect(promised).toMatch(/^RangeError: size: .*got 4294967297: map it in parts/);
    expect(window).toEqual(Array(8).fill(7));
  });

  it("the binding below the check (event.native.addon.enqueueMapBuffer): a RangeError, the mapping's record freed once, the process goes on", async () => {
    const value = await fresh(
      `${setup}
      const addon = queue.enqueueMarker().native.addon;
      const below = errorOf(() => addon.enqueueMapBuffer(queue.slot, buffer.slot, true, 1, 0, 2 ** 32 + 4096, null));
      global.gc();
      done({ below, window: beyond4GiB() });`,
      { env, args: ['--expose-gc'] },
    );
    const { below, window } = value as { below: string; window: number[] };
    expect(below).toMatch(/^RangeError: the mapping \(4294971392 bytes\) could not be made an ArrayBuffer/);
    expect(window).toEqual(Array(8).fill(7));
  });

  it('allocateHostMemory() over 4 GiB (its pages untouched): .buffer and bytes() throw a RangeError naming the limit, the binding below too; transfers still take it', async () => {
    const value = await fresh(
      `
      const memory = ocl.allocateHostMemory(2 ** 32 + 16);
      const viaBuffer = errorOf(() => memory.buffer);
      const viaBytes = errorOf(() => memory.bytes());
      const below = errorOf(() => memory.native.arrayBuffer());
      global.gc();
      const small = ocl.allocateHostMemory(64);
      small.bytes().fill(3);
      memory.release();
      done({ viaBuffer, viaBytes, below, small: small.bytes()[63] });`,
      { args: ['--expose-gc'] },
    );
    const { viaBuffer, viaBytes, below, small } = value as { viaBuffer: string; viaBytes: string; below: string; small: number };
    expect(viaBuffer).toMatch(/^RangeError: HostMemory of 4294967312 bytes has no ArrayBuffer: one holds at most 4294967296 bytes here/);
    expect(viaBytes).toBe(viaBuffer);
    expect(below).toMatch(/^RangeError: the host memory \(4294967312 bytes\) could not be made an ArrayBuffer/);
    expect(small).toBe(3);
  });
});

describe("a script that ends with objects alive leaves them to the process's end (NVIDIA under load took seconds per release, and such processes stayed tens of seconds to minutes)", () => {
  const leftAlive = `
    const platform = ocl.getPlatforms().find((p) => p.name === 'opencl-interop reference driver');
    const context = ocl.createContext({ platform });
    const queue = context.createQueue();
    const buffers = [1, 2, 3].map(() => context.createBuffer(4096));
    const program = context.createProgramWithBuiltInKernels(['copy_buffer']);
    const kernel = program.createKernel('copy_buffer');
    const sampler = context.createSampler();
    const semaphore = ocl.getSemaphores(platform).create(context);
    (async () => {
      await queue.writeBuffer(buffers[0], new Uint8Array(4096));
      done('script ended');
    })();`;
  const liveAtExit = (stderr: string) => /live at exit: (.*)/.exec(stderr)?.[1];

  it('the main thread: its 9 objects are not released one by one at exit (REFDRV_RELEASE_DELAY_MS=5000 made that 45 s): it exits, with them live', async () => {
    const { value, stderr } = await runNodeForValue(prelude + leftAlive, {
      env: { REFDRV_RELEASE_DELAY_MS: '5000', REFDRV_LIVE_AT_EXIT: '1' },
      timeout: 20_000,
    });
    expect(value).toBe('script ended');
    // The event: the queue, left alive too, keeps its last transfer's staging copy and event until its next transfer
    // or its release (HeldTransfers, native/host_memory.h).
    expect(liveAtExit(stderr)).toBe('context 1 queue 1 mem 3 program 1 kernel 1 sampler 1 semaphore 1 event 1');
  });

  it('OPENCL_INTEROP_RELEASE_AT_EXIT=1 releases them at exit, as a leak checker wants', async () => {
    const { stderr } = await runNodeForValue(prelude + leftAlive, {
      env: { OPENCL_INTEROP_RELEASE_AT_EXIT: '1', REFDRV_LIVE_AT_EXIT: '1' },
    });
    expect(liveAtExit(stderr)).toBe('context 0 queue 0 mem 0 program 0 kernel 0 sampler 0 semaphore 0 event 0');
  });

  it("a worker's objects are released when the worker ends, since the process goes on", async () => {
    const { value, stderr } = await runNodeForValue(
      `${prelude}
      const worker = new Worker(\`const ocl = require(${dist}); ${leftAlive.replaceAll('`', '\\`').replace("done('script ended')", "require('node:worker_threads').parentPort.postMessage('worker ended')")}\`, { eval: true });
      worker.on('message', (m) => console.log(m));
      worker.on('exit', (code) => done({ code }));`,
      { env: { REFDRV_LIVE_AT_EXIT: '1' } },
    );
    expect(value).toEqual({ code: 0 });
    expect(liveAtExit(stderr)).toBe('context 0 queue 0 mem 0 program 0 kernel 0 sampler 0 semaphore 0 event 0');
  });
});
