// The misuse fuzzer's program: one seed in one fresh process (test/fuzz/misuse.mjs
// starts it; read that file's header for what it does and how to run it).
// node --expose-gc test/fuzz/program.cjs '<config JSON>', the config being
// { seed, steps, platform, reference, va }: platform is part of the compiling
// platform's name; reference: the reference driver's platform joins in (and
// its simulated VA and D3D9 resources when its control API loads); va: the
// VA module on libva (the environment points libva at a display).
// It prints its counts as the last line of stdout, or { untyped } / { wrong }
// and exits 1; a process alive 30 s after its script ended exits 3 saying
// what holds it.
'use strict';
const { resolve } = require('node:path');
const { pathToFileURL } = require('node:url');
const config = JSON.parse(process.argv[2]);
const { seed, steps } = config;
const distPath = resolve(__dirname, '../../dist/index.js');
const ocl = require(distPath);
const trace = process.env.MISUSE_TRACE === '1';
// MISUSE_WHY=1: async resources still alive (by kind) join the report of a process that does not exit.
const asyncResources = new Map();
if (process.env.MISUSE_WHY === '1') {
  require('node:async_hooks')
    .createHook({
      init(id, type) {
        if (type !== 'PROMISE') asyncResources.set(id, type);
      },
      destroy(id) {
        asyncResources.delete(id);
      },
    })
    .enable();
}
const fs = require('node:fs');
// The step log, written as each step starts: it outlives a crash.
const logFd = process.env.MISUSE_LOG ? fs.openSync(process.env.MISUSE_LOG, 'w') : -1;
// A result that contradicts what OpenCL wrote: reported, and the seed fails.
const wrong = (what) => {
  console.log(JSON.stringify({ wrong: what }));
  process.exit(1);
};
const missing = (what) => {
  console.error(what);
  process.exit(90);
};
(async () => {
  let state = seed >>> 0;
  const rand = (n) => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state % n;
  };
  const pick = (list) => list[rand(list.length)];
  const typed = [
    TypeError,
    RangeError,
    ocl.OpenCLError,
    ocl.OpenCLReleasedError,
    ocl.OpenCLStateError,
    ocl.OpenCLExtensionError,
    ocl.OpenCLEntryPointError,
    ocl.VaError,
    ocl.VaDisplayError,
    ocl.VaNotAvailableError,
  ];
  const { Worker } = require('node:worker_threads');
  const counts = { ok: 0, typed: 0, checked: 0, refused: 0 };
  const byOp = {};
  const platforms = ocl.getPlatforms();
  const names = platforms.map((p) => p.name).join(', ') || 'none';
  // The compiling platform: its kernels have argument info (every kind of parameter).
  const compiling =
    platforms.find((p) => p.name.includes(config.platform)) ?? missing(`no platform's name contains "${config.platform}" (platforms: ${names})`);
  const refp = config.reference
    ? (platforms.find((p) => p.name === 'opencl-interop reference driver') ?? missing(`the reference driver is not among the platforms (${names})`))
    : undefined;
  // The reference driver's control API (koffi) makes simulated VA surfaces and D3D9 textures; without koffi, plain contexts only.
  let ref;
  if (refp && config.control !== false) {
    try {
      ref = (await import(pathToFileURL(resolve(__dirname, '../driver/control.mjs')).href)).openReferenceDriver();
    } catch (error) {
      if (config.control) missing(`the reference driver's control API did not load: ${error.message}`);
    }
  }
  const va = refp?.getSharing('cl_intel_va_api_media_sharing');
  const nv = refp?.getSharing('cl_nv_d3d9_sharing');
  const display = ref?.vaCreateDisplay(true);
  const surfaces = ref ? [0, 1].map(() => ref.vaCreateSurface(display, 16, 16)) : [];
  const d3d9 = ref?.d3d9CreateDevice('d3d9');
  const textures = ref ? [0, 1].map(() => ref.d3d9CreateTexture(d3d9, 21, 16, 16, 2)) : [];
  const pool = {
    contexts: [],
    queues: [],
    buffers: [],
    images: [],
    shared: [],
    kernels: [],
    events: [],
    mappings: [],
    scopes: [],
    samplers: [],
    hosts: [],
    vaDisplays: [],
    vaSurfaces: [],
    dmabufs: [],
    frames: [],
  };
  // Every event made (also those later dropped from the pool), for the report of what holds a process that does not exit.
  const everyEvent = [];
  const pushEvents = pool.events.push;
  pool.events.push = (...events) => {
    for (const e of events) if (e instanceof ocl.Event) everyEvent.push(new WeakRef(e));
    return pushEvents.apply(pool.events, events);
  };
  const maps = { started: 0, settled: 0 };
  const pendingMap = (promise) => {
    maps.started++;
    return promise.finally(() => maps.settled++);
  };
  // The VA module on the software VA driver (libva, Xvfb).
  const memory = refp && ocl.getExternalMemory(refp);
  const vaAddresses = [];
  const openVa = (options) => {
    const d = ocl.openVaDisplay(options);
    pool.vaDisplays.push(d);
    vaAddresses.push(d.address);
    return d;
  };
  if (config.va) openVa({ kind: 'x11' });
  // VaDmaBufs whose fds were closed behind their back: never closed again
  // (the numbers may be another object's by now), kept from the collector
  // for the same reason, still offered to importers.
  const stale = [];
  // Mostly objects still in use (disposed ones are refused at once; they get their share).
  const live = (list) => pick(rand(4) ? list.filter((o) => !o.disposed && !o.closed) : list);
  // A display, opening one when none is left open (a test's application keeps going).
  const vaDisplay = () => live(pool.vaDisplays) ?? openVa({ kind: 'x11' });
  const vaSurface = () =>
    live(pool.vaSurfaces) ??
    (() => {
      const s = vaDisplay().createSurface({ width: 16, height: 16 });
      pool.vaSurfaces.push(s);
      return s;
    })();
  const dmabuf = () =>
    live(pool.dmabufs) ??
    (() => {
      const b = vaSurface().exportDmaBuf();
      pool.dmabufs.push(b);
      return b;
    })();
  const refContext = () => pick(rand(3) ? pool.contexts.filter((c) => c.platform === refp) : pool.contexts);
  // Kernels with argument info on the compiling platform: every kind of parameter.
  const kernelContext = ocl.createContext({ platform: compiling });
  const kernelProgram = kernelContext.createProgram(`
    kernel void kinds(global float *a, read_only image2d_t img, sampler_t s, local float *l, float f, long n) { a[get_global_id(0)] = f + n; }
    kernel void fill(global uchar *a, uchar v) { a[get_global_id(0)] = v; }`);
  await kernelProgram.build();
  pool.contexts.push(kernelContext);
  const workers = new Set();
  const garbage = () =>
    pick([undefined, null, 0, -1, 1.5, 2 ** 40, NaN, 'x', 0n, -5n, 2n ** 70n, {}, [], [1, 2], () => 1, new Uint8Array(3), Symbol('s')]);
  const any = () => pick([...Object.values(pool).flat(), garbage(), garbage()]);
  // Sets the pending user events now and then, as an application would;
  // blocking calls before that must throw instead of waiting for ever.
  const settle = () => {
    for (const e of pool.events)
      if (e instanceof ocl.UserEvent)
        try {
          e.setStatus('complete');
        } catch {}
  };
  const program = (ctx) =>
    ctx.platform === refp ? ctx.createProgramWithBuiltInKernels(['copy_buffer', 'invert_image']) : ctx === kernelContext ? kernelProgram : null;
  const hostMemory = () =>
    pick([
      () => new Uint8Array(pick([64, 256, 1 << 20])),
      () => new Uint8Array(new SharedArrayBuffer(256)),
      () => new Uint8Array(new ArrayBuffer(256, { maxByteLength: 1024 })),
      () => pick(pool.hosts),
      () => ocl.allocateHostMemory(256),
      garbage,
    ])();
  const spoil = (host) =>
    pick([
      () => structuredClone(host.buffer, { transfer: [host.buffer] }),
      () => host.buffer.resize(rand(2) ? 0 : 1024),
      () => host.release(),
      () => {},
    ])();
  const ops = [
    () =>
      pool.contexts.push(
        pick([
          () => ocl.createContext({ platform: compiling }),
          ...(ref ? [() => va.createContext(display), () => nv.createContext(d3d9)] : refp ? [() => ocl.createContext({ platform: refp })] : []),
        ])(),
      ),
    () => pool.contexts.push(ocl.createContext(garbage())),
    () => pool.queues.push(pick(pool.contexts).createQueue(undefined, { outOfOrder: !!rand(2), profiling: !!rand(2) })),
    () => pool.buffers.push(pick(pool.contexts).createBuffer(pick([64, 256, garbage()]))),
    () =>
      pool.images.push(
        pick(pool.contexts).createImage({
          format: { order: pick(['R', 'RGBA', 'RG', garbage()]), type: 'UNORM_INT8' },
          width: pick([8, 16, garbage()]),
          height: 8,
        }),
      ),
    // Shared objects of the reference driver's simulated VA surfaces and D3D9 textures.
    ...(ref
      ? [
          () =>
            pool.shared.push(
              va.createFromSurface(pick(pool.contexts), pick(surfaces).id, pick([0, 1, 2, garbage()]), {
                access: pick(['read', 'write', 'read-write', garbage()]),
              }),
            ),
          () =>
            pool.shared.push(
              nv.createFromTexture(pick(pool.contexts), pick(textures), pick([0, 1, 2, garbage()]), {
                access: pick(['read', 'read-write', garbage()]),
              }),
            ),
        ]
      : []),
    () => {
      const p = program(pick(pool.contexts));
      if (p) pool.kernels.push(p.createKernel(pick(['copy_buffer', 'invert_image', 'kinds', 'fill', garbage()])));
    },
    () => pick(pool.kernels).setArg(rand(6), any(), pick([undefined, 'int', 'float4', 'float', 'long', 'uchar', garbage()])),
    () =>
      pick(pool.kernels).setArg(
        rand(6),
        pick([ocl.localMemory(pick([16, 1 << 30])), new Uint8Array(pick([1, 4, 8])), pick(pool.samplers), null, 1, 5n]),
        pick([undefined, 'float', 'long', 'uchar']),
      ),
    () => pool.samplers.push(pick(pool.contexts).createSampler()),
    () => pool.hosts.push(ocl.allocateHostMemory(pick([64, 256, garbage()]))),
    () => {
      const target = hostMemory();
      pool.events.push(pick(pool.queues).readBuffer(any(), target, { blocking: !rand(4) }));
      spoil(target);
    },
    () => {
      const source = hostMemory();
      pool.events.push(pick(pool.queues).writeBuffer(any(), source, { blocking: !rand(4) }));
      spoil(source);
    },
    () => {
      const target = hostMemory();
      pool.events.push(pick(pool.queues).readImage(any(), target, { rowPitch: pick([0, 2 ** 52, 3, garbage()]), blocking: !rand(3) }));
      spoil(target);
    },
    () => pick(pool.events).waitSync(),
    () => ocl.waitForEvents([pick(pool.events)]),
    () =>
      pick(pool.queues)
        .finish()
        .catch(() => {}),
    () =>
      pick(pool.events).then(
        () => {},
        () => {},
      ),
    () => pool.events.push(pick(pool.queues).enqueueMarker({ waitFor: [pick(pool.events)] })),
    () => pool.events.push(pick(pool.queues).enqueueBarrier()),
    () =>
      pool.events.push(
        pick(pool.queues).fillBuffer(any(), pick([new Uint8Array(1), new Uint8Array(3), new Uint32Array(1), garbage()]), {
          waitFor: rand(2) ? [pick(pool.events)] : undefined,
        }),
      ),
    () => pool.events.push(pick(pool.queues).copyImageToBuffer(any(), any(), { waitFor: [pick(pool.events)] })),
    () =>
      pendingMap(
        pick(pool.queues).mapBuffer(any(), { waitFor: rand(2) ? [pick(pool.events)] : undefined, access: pick(['read', 'read-write']) }),
      ).then(
        (m) => pool.mappings.push(m),
        () => {},
      ),
    () => {
      if (workers.size >= 2) return;
      const worker = new Worker(
        `
        const ocl = require(${JSON.stringify(distPath)});
        const p = ocl.getPlatforms().find((p) => p.name.includes(${JSON.stringify(config.platform)}));
        const c = ocl.createContext({ platform: p });
        const q = c.createQueue();
        const b = c.createBuffer(1 << 20);
        const gate = c.createUserEvent();
        for (let i = 0; i < 8; i++) {
          q.readBuffer(b, new Uint8Array(1 << 20), { waitFor: i % 3 ? undefined : [gate] });
          q.writeBuffer(b, new Uint8Array(1 << 20));
        }
        q.flush();
        if (${seed % 2}) process.exit(0);
      `,
        { eval: true },
      );
      workers.add(worker);
      worker.on('exit', () => workers.delete(worker));
      worker.on('error', () => {});
      setTimeout(() => worker.terminate(), rand(20));
    },
    () =>
      pool.events.push(
        pick(pool.queues).enqueueKernel(pick(pool.kernels), pick([[16, 16], 64, garbage()]), { waitFor: rand(3) ? undefined : [any()] }),
      ),
    () =>
      pool.events.push(
        pick(pool.queues).writeBuffer(pick(pool.buffers), pick([new Uint8Array(64), garbage()]), {
          offset: pick([0, 8, garbage()]),
          blocking: !!rand(2),
        }),
      ),
    () => pool.events.push(pick(pool.queues).readBuffer(any(), new Uint8Array(256), { size: pick([16, 300, garbage()]) })),
    () => pool.events.push(pick(pool.queues).readImage(any(), new Uint8Array(1024), { blocking: true })),
    () => pool.events.push(pick(pool.queues).fillImage(any(), pick([[0, 0, 0, 1], garbage()]))),
    () => pool.events.push(pick(pool.queues).copyBuffer(any(), any())),
    () => pool.mappings.push(pick(pool.queues).mapBufferSync(any(), { access: pick(['read', 'write', garbage()]) })),
    () => pick(pool.mappings).unmap(),
    () => (new Uint8Array(pick(pool.mappings).buffer)[0] = 1),
    () => pool.scopes.push(pick(pool.queues).acquire(pick([[pick(pool.shared)], pool.shared.slice(0, 2), [any()], garbage()]))),
    () => pick(pool.scopes).release(),
    () => pick(pool.scopes)[Symbol.dispose](),
    () => pick(pool.queues).enqueueReleaseShared([pick(pool.shared)]),
    () => pool.events.push(pick(pool.contexts).createUserEvent()),
    () => pick(pool.events).setStatus(pick(['complete', -5, garbage()])),
    // Status waits of every kind, on user events and on commands, asked before or after they end.
    () =>
      pick(pool.events)
        .whenStatus(pick(['running', 'submitted', 'complete', 'queued', garbage()]))
        .then(
          () => {},
          () => {},
        ),
    // Commands held back by a fresh user event on a queue (out-of-order ones too), which is then released, or not.
    () => {
      const q = pick(pool.queues);
      const gate = q.context.createUserEvent();
      pool.events.push(gate);
      pool.events.push(q.enqueueMarker({ waitFor: [gate] }));
      pool.events.push(q.fillBuffer(pick(pool.buffers), new Uint8Array(4), { waitFor: [gate] }));
      pendingMap(q.mapBuffer(pick(pool.buffers), { waitFor: [gate], access: pick(['read', 'read-write']) })).then(
        (m) => pool.mappings.push(m),
        () => {},
      );
      if (rand(2)) q.release();
    },
    // Maps behind a user event that fails (or is set), on an in-order or out-of-order queue, through its wait list,
    // a marker of another queue or the queue's order; the queue released now and then (which abandons the maps
    // while they wait), the mappings kept or dropped unmapped, garbage collected; then a wait behind the failure,
    // which must end (a typed error, or the driver's end), never hang.
    () => {
      const q = pick(pool.queues);
      const gate = q.context.createUserEvent();
      pool.events.push(gate);
      const waitFor = pick([() => [gate], () => [pick(pool.queues).enqueueMarker({ waitFor: [gate] })], () => undefined])();
      if (waitFor === undefined) pool.events.push(q.copyBuffer(pick(pool.buffers), pick(pool.buffers), { waitFor: [gate] }));
      for (let i = rand(3); i >= 0; i--) {
        const map = rand(3)
          ? q.mapBuffer(pick(pool.buffers), { waitFor, access: pick(['read', 'read-write', 'write']) })
          : q.mapImage(pick(pool.images), { waitFor, access: pick(['read', 'read-write']) });
        pendingMap(map).then(
          (m) => {
            if (rand(2)) pool.mappings.push(m); // else dropped without unmap
          },
          () => {},
        );
      }
      const behind = q.copyBuffer(pick(pool.buffers), pick(pool.buffers), { waitFor: rand(2) ? [gate] : undefined });
      pool.events.push(behind);
      if (!rand(3)) q.release();
      if (!rand(3)) global.gc();
      gate.setStatus(pick([-5, -5, -14, 'complete']));
      const waits = [
        () => behind.waitSync(),
        () => ocl.waitForEvents([behind]),
        () => q.finishSync(),
        () => q.readBuffer(pick(pool.buffers), new Uint8Array(64), { blocking: true, size: 64 }),
        () => q.copyBuffer(pick(pool.buffers), pick(pool.buffers)).waitSync(),
        () => q.finish().catch(() => {}),
      ];
      pick(waits)();
      // Again once the maps have settled and their mappings been collected (a dropped one is unmapped then).
      setTimeout(() => {
        global.gc();
        setImmediate(() => {
          try {
            pick(waits)();
          } catch (error) {
            if (!typed.some((T) => error instanceof T)) {
              console.log(JSON.stringify({ untyped: String(error?.stack || error), step: 'a wait after a failed user event' }));
              process.exit(1);
            }
          }
        });
      }, rand(20));
    },
    // A mapping dropped without unmap, then collected.
    () => {
      if (pool.mappings.length) pool.mappings.splice(rand(pool.mappings.length), 1);
      global.gc();
    },
    // 3D images: every image command, behind a user event sometimes (a 3D fill is refused then: NVIDIA's never returns).
    () =>
      pool.images.push(
        pick(pool.contexts).createImage({ format: { order: 'RGBA', type: pick(['FLOAT', 'UNORM_INT8']) }, width: 8, height: 8, depth: pick([2, 4]) }),
      ),
    () => {
      const q = pick(pool.queues);
      const gate = rand(2) ? q.context.createUserEvent() : undefined;
      if (gate) pool.events.push(gate);
      const waitFor = gate ? [gate] : undefined;
      const image = pick(pool.images);
      pool.events.push(
        pick([
          () => q.fillImage(image, [rand(2) ? Number.NaN : 0.5, 0, 0, 1], { waitFor }),
          () => q.copyImage(image, pick(pool.images), { waitFor }),
          () => q.readImage(image, new Uint8Array(8 * 8 * 4 * 16), { waitFor }),
          () => q.writeImage(image, new Uint8Array(8 * 8 * 4 * 16), { waitFor }),
        ])(),
      );
      if (gate && rand(2)) gate.setStatus(pick([-5, 'complete']));
    },
    () => pick(pool.events).completed.catch(() => {}),
    () => pick(pool.queues).flush(),
    () => pick(pool.queues).finishSync(),
    () => settle(),
    () => any().release(),
    () => any()[Symbol.dispose](),
    () => {
      const list = pick(Object.values(pool));
      if (list.length) list.splice(rand(list.length), 1);
    },

    // The VA module (on libva).
    ...(config.va
      ? [
          () =>
            openVa(
              pick([
                undefined,
                { kind: 'x11' },
                { kind: pick(['drm', 'auto', garbage()]) },
                { kind: 'drm', device: pick(['/dev/null', '/nonexistent', garbage()]) },
                garbage(),
              ]),
            ),
          () =>
            pool.vaDisplays.push(
              ocl.VaDisplay.adopt(
                pick([pick(vaAddresses), pick(vaAddresses), 8n, 4096n, 2n ** 47n, garbage()]),
                pick([undefined, { from: pick(['VADisplay', 'AVVAAPIDeviceContext', garbage()]) }, garbage()]),
              ),
            ),
          () => vaDisplay().dispose(),
          () => pool.contexts.push(va.createContext(pick([...pool.vaDisplays, pick(vaAddresses), garbage()]))),
          () =>
            pool.vaSurfaces.push(
              ...vaDisplay().createSurfaces(pick([1, 2, garbage()]), {
                width: pick([16, 16, 32, 7, garbage()]),
                height: pick([16, 8, garbage()]),
                format: pick([undefined, 'NV12', 'NV12', 'BGRA', 'P010', garbage()]),
              }),
            ),
          () => vaSurface().dispose(),
          () =>
            pool.shared.push(
              va.createFromSurface(refContext(), pick([vaSurface(), vaSurface()?.id, garbage()]), pick([0, 1, 1, 2]), {
                access: pick(['read', 'write', 'read-write', undefined]),
              }),
            ),
          () => pool.shared.push(...va.createFromNV12Surface(refContext(), vaSurface())),
          () =>
            vaSurface().writePlane(
              rand(3),
              pick([() => new Uint8Array(pick([256, 128, 4096, 3])), () => new ArrayBuffer(256), hostMemory])(),
              pick([undefined, { method: pick(['derive', 'image', 'auto', garbage()]) }, { pitch: pick([16, 32, 15, garbage()]) }, garbage()]),
            ),
          () =>
            vaSurface().readPlane(
              rand(3),
              pick([
                undefined,
                { method: pick(['derive', 'image', garbage()]) },
                { into: pick([new Uint8Array(pick([256, 64, 4096])), new Uint16Array(128), garbage(), hostMemory()]) },
                { pitch: pick([16, 40, 3, garbage()]) },
              ]),
            ),
          () => vaSurface().read(pick([undefined, { method: pick(['derive', 'image']) }, garbage()])),
          () => {
            const s = vaSurface();
            s.write(pick([() => s.planes.map((p) => new Uint8Array(p.bytesPerRow * p.height)), () => [new Uint8Array(256)], garbage])());
          },
          () => vaSurface().sync(),
          () => vaSurface().status,
          () =>
            pool.dmabufs.push(
              vaSurface().exportDmaBuf(
                pick([
                  undefined,
                  { layers: pick(['composed', 'separate', garbage()]), access: pick(['read', 'write', 'read-write', garbage()]) },
                  garbage(),
                ]),
              ),
            ),
          () => {
            const source = pick([
              () => dmabuf(),
              () => pick(stale),
              () => ({
                ...dmabuf().toImport(),
                ...pick([
                  {},
                  { width: pick([0, 64, 2 ** 20]) },
                  { modifier: pick([1n, -1n, 'x']) },
                  { planes: [{ fd: pick([-1, 0, 2 ** 31, 1000]), pitch: 16 }] },
                  { format: pick(['BGRA', 'YV12', garbage()]) },
                ]),
              }),
              garbage,
            ])();
            pool.vaSurfaces.push(vaDisplay().importDmaBuf(source));
          },
          () => {
            const frame = memory.importDmaBuf(
              refContext(),
              pick([dmabuf(), dmabuf(), pick(stale), garbage()]),
              pick([undefined, { as: pick(['buffers', 'images', garbage()]) }, garbage()]),
            );
            pool.frames.push(frame);
            pool.buffers.push(...frame.memory);
            pool.images.push(...frame.planes);
          },
          () => pick(pool.frames).release(),
          () => pick(pool.dmabufs).close(),
          () => dmabuf().close(),
          // The exported fds closed behind the VaDmaBuf's back, or truncated (a real DMA-BUF keeps its size).
          () => {
            const victim = dmabuf();
            if (victim.closed) return;
            pool.dmabufs.splice(pool.dmabufs.indexOf(victim), 1);
            stale.push(victim);
            for (const { fd } of victim.objects)
              try {
                fs.closeSync(fd);
              } catch {}
          },
          () => {
            const victim = dmabuf();
            if (victim.closed) return;
            try {
              fs.ftruncateSync(victim.objects[0].fd, pick([0, 1, 4096, 1 << 20]));
            } catch (error) {
              if (!['EPERM', 'EINVAL', 'EBADF'].includes(error.code)) throw error;
            }
          },
          // A DMA-BUF import (on this display or another) sees the exporter's bytes, and its writes reach the exporter.
          () => {
            const source = vaSurface();
            if (source.format !== 'NV12') return;
            const bytes = Uint8Array.from({ length: source.planes[0].bytesPerRow * source.planes[0].height }, () => rand(256));
            source.writePlane(0, bytes);
            const exported = source.exportDmaBuf({ layers: pick(['composed', 'separate']) });
            pool.dmabufs.push(exported);
            const imported = vaDisplay().importDmaBuf(exported);
            pool.vaSurfaces.push(imported);
            const seen = imported.readPlane(0, { method: pick(['derive', 'image']) });
            const off = seen.findIndex((v, i) => v !== bytes[i]);
            if (off >= 0) wrong('an imported DMA-BUF reads ' + seen[off] + ' at byte ' + off + ' of plane 0; the exporter wrote ' + bytes[off]);
            imported.writePlane(
              0,
              bytes.map((v) => 255 - v),
            );
            const back = source.readPlane(0);
            const off2 = back.findIndex((v, i) => v !== 255 - bytes[i]);
            if (off2 >= 0) wrong('the exporter reads ' + back[off2] + ' at byte ' + off2 + ' after the importer wrote ' + (255 - bytes[off2]));
            counts.checked++;
            if (rand(2)) exported.close();
          },
          // Transfers while OpenCL has the surface acquired or its release is in
          // flight (gated by a user event sometimes): a typed error or a wait,
          // never the bytes from before invert_image.
          () => {
            const display = vaDisplay();
            const context = va.createContext(display);
            pool.contexts.push(context);
            const queue = context.createQueue(undefined, { outOfOrder: !!rand(2) });
            pool.queues.push(queue);
            const surface = display.createSurface({ width: 16, height: 16 });
            pool.vaSurfaces.push(surface);
            const before = rand(256);
            const method = pick(['derive', 'image', undefined]);
            surface.writePlane(0, new Uint8Array(256).fill(before), { method });
            const y = va.createFromSurface(context, surface, 0);
            pool.shared.push(y);
            const kernel = context.createProgramWithBuiltInKernels(['invert_image']).createKernel('invert_image').setArgs(y, y);
            pool.kernels.push(kernel);
            const gate = rand(3) ? null : context.createUserEvent();
            const acquired = queue.enqueueAcquireShared([y], { waitFor: gate ? [gate] : undefined });
            const refused = (call) => {
              try {
                call();
              } catch (error) {
                if (error instanceof ocl.OpenCLStateError) {
                  counts.refused++;
                  return;
                }
                throw error;
              }
              wrong('a VA transfer on a surface OpenCL has acquired went through');
            };
            refused(() => surface.readPlane(0, { method }));
            refused(() => surface.writePlane(0, new Uint8Array(256), { method }));
            const ran = queue.enqueueKernel(kernel, [16, 16], { waitFor: [acquired] });
            const released = queue.enqueueReleaseShared([y], { waitFor: [ran] });
            pool.events.push(acquired, ran, released, ...(gate ? [gate] : []));
            const check = () => {
              let bytes;
              try {
                bytes = surface.readPlane(0, { method });
              } catch (error) {
                if (error instanceof ocl.OpenCLStateError) return false;
                throw error;
              }
              const expected = 255 - before;
              const off = bytes.findIndex((v) => v !== expected);
              counts.checked++;
              if (off >= 0)
                wrong(
                  'plane 0 byte ' +
                    off +
                    ' is ' +
                    bytes[off] +
                    ' after invert_image of ' +
                    before +
                    ' (expected ' +
                    expected +
                    ', method ' +
                    method +
                    ', gate ' +
                    !!gate +
                    ')',
                );
              return true;
            };
            if (gate && rand(2)) refused(() => surface.readPlane(0, { method }));
            if (gate) gate.setStatus('complete');
            pick([() => {}, () => {}, () => queue.flush(), () => released.release(), () => queue.release(), () => ran.waitSync()])();
            check();
          },
        ]
      : []),
    () => global.gc(),
  ];
  for (let i = 0; i < steps; i++) {
    const op = pick(ops);
    const index = ops.indexOf(op);
    try {
      if (trace || logFd >= 0) {
        const line = i + ': ' + ops.indexOf(op) + ' ' + op.toString().slice(0, 160).replace(/\s+/g, ' ') + '\n';
        if (trace) process.stderr.write(line);
        if (logFd >= 0) fs.writeSync(logFd, line);
      }
      op();
      counts.ok++;
      (byOp[index] ??= [0, 0])[0]++;
    } catch (error) {
      if (!typed.some((T) => error instanceof T)) {
        console.log(JSON.stringify({ untyped: String(error?.stack || error), step: i }));
        process.exit(1);
      }
      counts.typed++;
      (byOp[index] ??= [0, 0])[1]++;
      if (trace) process.stderr.write('  ' + error.name + ': ' + String(error.message).slice(0, 200) + '\n');
    }
    if (i % 50 === 0) await new Promise((r) => setImmediate(r));
  }
  for (const scope of pool.scopes)
    try {
      scope[Symbol.dispose]();
    } catch {}
  if (seed % 3)
    for (const list of Object.values(pool))
      for (const o of list)
        try {
          o.release?.();
          o.dispose?.();
          o.close?.();
        } catch {}
  await Promise.all([...workers].map((w) => new Promise((r) => w.once('exit', r))));
  if (trace) process.stderr.write(JSON.stringify(byOp) + '\n');
  console.log(JSON.stringify(counts));
  // What may hold the process. Its own stdout and stderr pipes are always
  // listed by getActiveResourcesInfo() (as PipeWrap), idle or not: only a
  // pending write makes them hold it. What JavaScript cannot list: the
  // addon's callback hub (held while a command that keeps the process
  // alive has not called back), threads, work in flight.
  const holders = () => {
    const unended = [];
    for (const ref of everyEvent) {
      const e = ref.deref();
      if (!e || e.released) continue;
      try {
        const status = e.status;
        if (status !== 'complete' && typeof status !== 'number')
          unended.push({ command: e.commandTypeName, status, unsetGates: e.unsetGates().length, queueReleased: !!e.queue?.released });
      } catch (error) {
        unended.push({ error: error.name + ': ' + error.message });
      }
    }
    return {
      resources: process.getActiveResourcesInfo(),
      stdio: { stdout: process.stdout.writableLength, stderr: process.stderr.writableLength },
      workers: workers.size,
      maps,
      unended,
      asyncResources: [...asyncResources.values()].reduce((counts, type) => {
        counts[type] = (counts[type] ?? 0) + 1;
        return counts;
      }, {}),
    };
  };
  // The script has ended: the process must exit by itself. Say what holds it if it does not.
  setTimeout(() => {
    process.stderr.write('the process did not exit 30 s after the script ended; held by ' + JSON.stringify(holders()) + '\n');
    process.exit(3);
  }, 30_000).unref();
})();
