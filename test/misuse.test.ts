import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runNodeAsync } from './helpers';

// Random call sequences through the public API, in a fresh process: wrong
// argument types and kinds (kernel arguments on PoCL kernels with argument
// info), released objects, double release, acquire misuse, host memory
// detached, transferred or resized while commands use it, workers terminated
// at random points, commands held back by user events that are never set
// (blocking calls on them must throw, not hang), garbage collection in
// between, status waits (whenStatus of every status, on user events and
// commands), and commands gated by a fresh user event on a queue (in-order or
// out-of-order) that is then released. Every failure must be a typed error,
// and the process must end normally, by itself: a process still alive 30 s
// after its script ended says what holds it. Seeded, so a failure can be replayed with its seed
// (MISUSE_SEEDS=1-100 MISUSE_STEPS=2000 runs more).
const control = JSON.stringify(pathToFileURL(resolve(__dirname, 'driver/control.mjs')).href);

const dist = JSON.stringify(resolve(__dirname, '../dist/index.js'));

function fuzz(seed: number, steps: number) {
  return runNodeAsync(
    `
    const trace = process.env.MISUSE_TRACE === '1';
    (async () => {
      const { openReferenceDriver } = await import(${control});
      const ref = openReferenceDriver();
      let state = ${seed} >>> 0;
      const rand = (n) => { state = (state * 1664525 + 1013904223) >>> 0; return state % n; };
      const pick = (list) => list[rand(list.length)];
      const typed = [TypeError, RangeError, ocl.OpenCLError, ocl.OpenCLReleasedError, ocl.OpenCLStateError, ocl.OpenCLExtensionError, ocl.OpenCLEntryPointError];
      const { Worker } = require('node:worker_threads');
      const counts = { ok: 0, typed: 0 };
      const platforms = ocl.getPlatforms();
      const pocl = platforms.find((p) => p.name === 'Portable Computing Language');
      const refp = platforms.find((p) => p.name === 'opencl-interop reference driver');
      const va = refp.getSharing('cl_intel_va_api_media_sharing');
      const display = ref.vaCreateDisplay(true);
      const surfaces = [0, 1].map(() => ref.vaCreateSurface(display, 16, 16));
      const nv = refp.getSharing('cl_nv_d3d9_sharing');
      const d3d9 = ref.d3d9CreateDevice('d3d9');
      const textures = [0, 1].map(() => ref.d3d9CreateTexture(d3d9, 21, 16, 16, 2));
      const pool = { contexts: [], queues: [], buffers: [], images: [], shared: [], kernels: [], events: [], mappings: [], scopes: [], samplers: [], hosts: [] };
      // PoCL kernels with argument info: every kind of parameter.
      const poclContext = ocl.createContext({ platform: pocl });
      const poclProgram = poclContext.createProgram(\`
        kernel void kinds(global float *a, read_only image2d_t img, sampler_t s, local float *l, float f, long n) { a[get_global_id(0)] = f + n; }
        kernel void fill(global uchar *a, uchar v) { a[get_global_id(0)] = v; }\`);
      await poclProgram.build();
      pool.contexts.push(poclContext);
      const workers = new Set();
      const garbage = () => pick([undefined, null, 0, -1, 1.5, 2 ** 40, NaN, 'x', 0n, -5n, 2n ** 70n, {}, [], [1, 2], () => 1, new Uint8Array(3), Symbol('s')]);
      const any = () => pick([...Object.values(pool).flat(), garbage(), garbage()]);
      // Sets the pending user events now and then, as an application would;
      // blocking calls before that must throw instead of waiting for ever.
      const settle = () => { for (const e of pool.events) if (e instanceof ocl.UserEvent) try { e.setStatus('complete'); } catch {} };
      const program = (ctx) => ctx.platform === refp ? ctx.createProgramWithBuiltInKernels(['copy_buffer', 'invert_image']) : ctx === poclContext ? poclProgram : null;
      const hostMemory = () => pick([
        () => new Uint8Array(pick([64, 256, 1 << 20])),
        () => new Uint8Array(new SharedArrayBuffer(256)),
        () => new Uint8Array(new ArrayBuffer(256, { maxByteLength: 1024 })),
        () => pick(pool.hosts),
        () => ocl.allocateHostMemory(256),
        garbage,
      ])();
      const spoil = (host) => pick([
        () => structuredClone(host.buffer, { transfer: [host.buffer] }),
        () => host.buffer.resize(rand(2) ? 0 : 1024),
        () => host.release(),
        () => {},
      ])();
      const ops = [
        () => pool.contexts.push(pick([() => ocl.createContext({ platform: pocl }), () => va.createContext(display), () => nv.createContext(d3d9)])()),
        () => pool.contexts.push(ocl.createContext(garbage())),
        () => pool.queues.push(pick(pool.contexts).createQueue(undefined, { outOfOrder: !!rand(2), profiling: !!rand(2) })),
        () => pool.buffers.push(pick(pool.contexts).createBuffer(pick([64, 256, garbage()]))),
        () => pool.images.push(pick(pool.contexts).createImage({ format: { order: pick(['R', 'RGBA', 'RG', garbage()]), type: 'UNORM_INT8' }, width: pick([8, 16, garbage()]), height: 8 })),
        () => pool.shared.push(va.createFromSurface(pick(pool.contexts), pick(surfaces).id, pick([0, 1, 2, garbage()]), { access: pick(['read', 'write', 'read-write', garbage()]) })),
        () => pool.shared.push(nv.createFromTexture(pick(pool.contexts), pick(textures), pick([0, 1, 2, garbage()]), { access: pick(['read', 'read-write', garbage()]) })),
        () => { const p = program(pick(pool.contexts)); if (p) pool.kernels.push(p.createKernel(pick(['copy_buffer', 'invert_image', 'kinds', 'fill', garbage()]))); },
        () => pick(pool.kernels).setArg(rand(6), any(), pick([undefined, 'int', 'float4', 'float', 'long', 'uchar', garbage()])),
        () => pick(pool.kernels).setArg(rand(6), pick([ocl.localMemory(pick([16, 1 << 30])), new Uint8Array(pick([1, 4, 8])), pick(pool.samplers), null, 1, 5n]), pick([undefined, 'float', 'long', 'uchar'])),
        () => pool.samplers.push(pick(pool.contexts).createSampler()),
        () => pool.hosts.push(ocl.allocateHostMemory(pick([64, 256, garbage()]))),
        () => { const target = hostMemory(); pool.events.push(pick(pool.queues).readBuffer(any(), target, { blocking: !rand(4) })); spoil(target); },
        () => { const source = hostMemory(); pool.events.push(pick(pool.queues).writeBuffer(any(), source, { blocking: !rand(4) })); spoil(source); },
        () => { const target = hostMemory(); pool.events.push(pick(pool.queues).readImage(any(), target, { rowPitch: pick([0, 2 ** 52, 3, garbage()]), blocking: !rand(3) })); spoil(target); },
        () => pick(pool.events).waitSync(),
        () => ocl.waitForEvents([pick(pool.events)]),
        () => pick(pool.queues).finish().catch(() => {}),
        () => pick(pool.events).then(() => {}, () => {}),
        () => pool.events.push(pick(pool.queues).enqueueMarker({ waitFor: [pick(pool.events)] })),
        () => pool.events.push(pick(pool.queues).enqueueBarrier()),
        () => pool.events.push(pick(pool.queues).fillBuffer(any(), pick([new Uint8Array(1), new Uint8Array(3), new Uint32Array(1), garbage()]), { waitFor: rand(2) ? [pick(pool.events)] : undefined })),
        () => pool.events.push(pick(pool.queues).copyImageToBuffer(any(), any(), { waitFor: [pick(pool.events)] })),
        () => pick(pool.queues).mapBuffer(any(), { waitFor: rand(2) ? [pick(pool.events)] : undefined }).then((m) => pool.mappings.push(m), () => {}),
        () => {
          if (workers.size >= 2) return;
          const worker = new Worker(\`
            const ocl = require(${dist});
            const p = ocl.getPlatforms().find((p) => p.name === 'Portable Computing Language');
            const c = ocl.createContext({ platform: p });
            const q = c.createQueue();
            const b = c.createBuffer(1 << 20);
            const gate = c.createUserEvent();
            for (let i = 0; i < 8; i++) {
              q.readBuffer(b, new Uint8Array(1 << 20), { waitFor: i % 3 ? undefined : [gate] });
              q.writeBuffer(b, new Uint8Array(1 << 20));
            }
            q.flush();
            if (${seed} % 2) process.exit(0);
          \`, { eval: true });
          workers.add(worker);
          worker.on('exit', () => workers.delete(worker));
          worker.on('error', () => {});
          setTimeout(() => worker.terminate(), rand(20));
        },
        () => pool.events.push(pick(pool.queues).enqueueKernel(pick(pool.kernels), pick([[16, 16], 64, garbage()]), { waitFor: rand(3) ? undefined : [any()] })),
        () => pool.events.push(pick(pool.queues).writeBuffer(pick(pool.buffers), pick([new Uint8Array(64), garbage()]), { offset: pick([0, 8, garbage()]), blocking: !!rand(2) })),
        () => pool.events.push(pick(pool.queues).readBuffer(any(), new Uint8Array(256), { size: pick([16, 300, garbage()]) })),
        () => pool.events.push(pick(pool.queues).readImage(any(), new Uint8Array(1024), { blocking: true })),
        () => pool.events.push(pick(pool.queues).fillImage(any(), pick([[0, 0, 0, 1], garbage()]))),
        () => pool.events.push(pick(pool.queues).copyBuffer(any(), any())),
        () => pool.mappings.push(pick(pool.queues).mapBufferSync(any(), { access: pick(['read', 'write', garbage()]) })),
        () => pick(pool.mappings).unmap(),
        () => new Uint8Array(pick(pool.mappings).buffer)[0] = 1,
        () => pool.scopes.push(pick(pool.queues).acquire(pick([[pick(pool.shared)], pool.shared.slice(0, 2), [any()], garbage()]))),
        () => pick(pool.scopes).release(),
        () => pick(pool.scopes)[Symbol.dispose](),
        () => pick(pool.queues).enqueueReleaseShared([pick(pool.shared)]),
        () => pool.events.push(pick(pool.contexts).createUserEvent()),
        () => pick(pool.events).setStatus(pick(['complete', -5, garbage()])),
        // Status waits of every kind, on user events and on commands, asked before or after they end.
        () => pick(pool.events).whenStatus(pick(['running', 'submitted', 'complete', 'queued', garbage()])).then(() => {}, () => {}),
        // Commands held back by a fresh user event on a queue (out-of-order ones too), which is then released, or not.
        () => {
          const q = pick(pool.queues);
          const gate = q.context.createUserEvent();
          pool.events.push(gate);
          pool.events.push(q.enqueueMarker({ waitFor: [gate] }));
          pool.events.push(q.fillBuffer(pick(pool.buffers), new Uint8Array(4), { waitFor: [gate] }));
          q.mapBuffer(pick(pool.buffers), { waitFor: [gate] }).then((m) => pool.mappings.push(m), () => {});
          if (rand(2)) q.release();
        },
        () => pick(pool.events).completed.catch(() => {}),
        () => pick(pool.queues).flush(),
        () => pick(pool.queues).finishSync(),
        () => settle(),
        () => any().release(),
        () => any()[Symbol.dispose](),
        () => { const list = pick(Object.values(pool)); if (list.length) list.splice(rand(list.length), 1); },
        () => global.gc(),
      ];
      for (let i = 0; i < ${steps}; i++) {
        try {
          const op = pick(ops);
          if (trace) process.stderr.write(i + ': ' + ops.indexOf(op) + ' ' + op.toString().slice(0, 120).replace(/\\s+/g, ' ') + '\\n');
          op();
          counts.ok++;
        } catch (error) {
          if (!typed.some((T) => error instanceof T)) {
            console.log(JSON.stringify({ untyped: String(error && error.stack || error), step: i }));
            process.exit(1);
          }
          counts.typed++;
        }
        if (i % 50 === 0) await new Promise((r) => setImmediate(r));
      }
      for (const scope of pool.scopes) try { scope[Symbol.dispose](); } catch {}
      if (${seed} % 3) for (const list of Object.values(pool)) for (const o of list) try { o.release?.(); } catch {}
      await Promise.all([...workers].map((w) => new Promise((r) => w.once('exit', r))));
      console.log(JSON.stringify(counts));
      // The script has ended: the process must exit by itself. Say what holds it if it does not.
      setTimeout(() => {
        process.stderr.write('the process did not exit 30 s after the script ended; held by ' + JSON.stringify(process.getActiveResourcesInfo()) + '\\n');
        process.exit(3);
      }, 30_000).unref();
    })();`,
    { args: ['--expose-gc'], env: { OCL_ICD_VENDORS: process.env.OCL_ICD_VENDORS, MISUSE_TRACE: process.env.MISUSE_TRACE }, timeout: 120_000 },
  );
}

function seeds(): number[] {
  const range = /^(\d+)-(\d+)$/.exec(process.env.MISUSE_SEEDS ?? '');
  if (!range) return [1, 2, 3, 4, 5, 6];
  const [from, to] = [Number(range[1]), Number(range[2])];
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

describe('no JavaScript call sequence crashes the process', () => {
  it.each(seeds())('random misuse, seed %i: only typed errors, normal exit', async (seed) => {
    const { status, signal, stdout, stderr } = await fuzz(seed, Number(process.env.MISUSE_STEPS ?? 1500));
    expect(signal).toBeNull();
    expect(stderr.replace(/^\d+ errors? generated\.\n?/gm, '')).toBe('');
    expect(stdout).not.toMatch(/untyped/);
    expect(status).toBe(0);
    const counts = JSON.parse(stdout.trim().split('\n').pop()!);
    expect(counts.ok).toBeGreaterThan(100);
    expect(counts.typed).toBeGreaterThan(100);
  });
});
