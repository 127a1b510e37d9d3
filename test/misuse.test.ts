import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runNode } from './helpers';

// Random call sequences through the public API, in a fresh process: wrong
// argument types, released objects, double release, acquire misuse, garbage
// collection in between. Every failure must be a typed error, and the process
// must end normally. Seeded, so a failure can be replayed with its seed.
const control = JSON.stringify(pathToFileURL(resolve(__dirname, 'driver/control.mjs')).href);

function fuzz(seed: number, steps: number) {
  return runNode(
    `
    (async () => {
      const { openReferenceDriver } = await import(${control});
      const ref = openReferenceDriver();
      let state = ${seed} >>> 0;
      const rand = (n) => { state = (state * 1664525 + 1013904223) >>> 0; return state % n; };
      const pick = (list) => list[rand(list.length)];
      const typed = [TypeError, RangeError, ocl.OpenCLError, ocl.OpenCLReleasedError, ocl.OpenCLStateError, ocl.OpenCLExtensionError, ocl.OpenCLEntryPointError];
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
      const pool = { contexts: [], queues: [], buffers: [], images: [], shared: [], kernels: [], events: [], mappings: [], scopes: [] };
      const garbage = () => pick([undefined, null, 0, -1, 1.5, 2 ** 40, NaN, 'x', 0n, -5n, 2n ** 70n, {}, [], [1, 2], () => 1, new Uint8Array(3), Symbol('s')]);
      const any = () => pick([...Object.values(pool).flat(), garbage(), garbage()]);
      // A blocking call on a queue gated by an unset user event deadlocks in
      // C as in JS (nothing can set it): set them first, as an application would.
      const settle = () => { for (const e of pool.events) if (e instanceof ocl.UserEvent) try { e.setStatus('complete'); } catch {} };
      const program = (ctx) => ctx.platform === refp ? ctx.createProgramWithBuiltInKernels(['copy_buffer', 'invert_image']) : null;
      const ops = [
        () => pool.contexts.push(pick([() => ocl.createContext({ platform: pocl }), () => va.createContext(display), () => nv.createContext(d3d9)])()),
        () => pool.contexts.push(ocl.createContext(garbage())),
        () => pool.queues.push(pick(pool.contexts).createQueue(undefined, { outOfOrder: !!rand(2), profiling: !!rand(2) })),
        () => pool.buffers.push(pick(pool.contexts).createBuffer(pick([64, 256, garbage()]))),
        () => pool.images.push(pick(pool.contexts).createImage({ format: { order: pick(['R', 'RGBA', 'RG', garbage()]), type: 'UNORM_INT8' }, width: pick([8, 16, garbage()]), height: 8 })),
        () => pool.shared.push(va.createFromSurface(pick(pool.contexts), pick(surfaces).id, pick([0, 1, 2, garbage()]), { access: pick(['read', 'write', 'read-write', garbage()]) })),
        () => pool.shared.push(nv.createFromTexture(pick(pool.contexts), pick(textures), pick([0, 1, 2, garbage()]), { access: pick(['read', 'read-write', garbage()]) })),
        () => { const p = program(pick(pool.contexts)); if (p) pool.kernels.push(p.createKernel(pick(['copy_buffer', 'invert_image', garbage()]))); },
        () => pick(pool.kernels).setArg(rand(3), any(), pick([undefined, 'int', 'float4', garbage()])),
        () => pool.events.push(pick(pool.queues).enqueueKernel(pick(pool.kernels), pick([[16, 16], 64, garbage()]), { waitFor: rand(3) ? undefined : [any()] })),
        () => { const blocking = !!rand(2); if (blocking) settle(); pool.events.push(pick(pool.queues).writeBuffer(pick(pool.buffers), pick([new Uint8Array(64), garbage()]), { offset: pick([0, 8, garbage()]), blocking })); },
        () => pool.events.push(pick(pool.queues).readBuffer(any(), new Uint8Array(256), { size: pick([16, 300, garbage()]) })),
        () => { settle(); pool.events.push(pick(pool.queues).readImage(any(), new Uint8Array(1024), { blocking: true })); },
        () => pool.events.push(pick(pool.queues).fillImage(any(), pick([[0, 0, 0, 1], garbage()]))),
        () => pool.events.push(pick(pool.queues).copyBuffer(any(), any())),
        () => { settle(); pool.mappings.push(pick(pool.queues).mapBufferSync(any(), { access: pick(['read', 'write', garbage()]) })); },
        () => pick(pool.mappings).unmap(),
        () => new Uint8Array(pick(pool.mappings).buffer)[0] = 1,
        () => pool.scopes.push(pick(pool.queues).acquire(pick([[pick(pool.shared)], pool.shared.slice(0, 2), [any()], garbage()]))),
        () => pick(pool.scopes).release(),
        () => pick(pool.scopes)[Symbol.dispose](),
        () => pick(pool.queues).enqueueReleaseShared([pick(pool.shared)]),
        () => pool.events.push(pick(pool.contexts).createUserEvent()),
        () => pick(pool.events).setStatus(pick(['complete', -5, garbage()])),
        () => pick(pool.events).completed.catch(() => {}),
        () => pick(pool.queues).flush(),
        () => { settle(); pick(pool.queues).finishSync(); },
        () => any().release(),
        () => any()[Symbol.dispose](),
        () => { const list = pick(Object.values(pool)); if (list.length) list.splice(rand(list.length), 1); },
        () => global.gc(),
      ];
      for (let i = 0; i < ${steps}; i++) {
        try {
          const op = pick(ops);
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
      for (const list of Object.values(pool)) for (const o of list) try { o.release?.(); } catch {}
      console.log(JSON.stringify(counts));
    })();`,
    { args: ['--expose-gc'], env: { OCL_ICD_VENDORS: process.env.OCL_ICD_VENDORS }, timeout: 120_000 },
  );
}

describe('no JavaScript call sequence crashes the process', () => {
  it.each([1, 2, 3, 4, 5, 6])('random misuse, seed %i: only typed errors, normal exit', (seed) => {
    const { status, signal, stdout, stderr } = fuzz(seed, 1500);
    expect(signal).toBeNull();
    expect(stderr.replace(/^\d+ errors? generated\.\n?/gm, '')).toBe('');
    expect(stdout).not.toMatch(/untyped/);
    expect(status).toBe(0);
    const counts = JSON.parse(stdout.trim().split('\n').pop()!);
    expect(counts.ok).toBeGreaterThan(100);
    expect(counts.typed).toBeGreaterThan(100);
  });
});
