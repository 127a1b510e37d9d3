#!/usr/bin/env node
// The Vulkan -> OpenCL -> Vulkan NV12 -> RGBA frame pipeline (the package's
// FramePipeline, as bench/external-pipeline.mjs runs it on one GPU) on N GPUs
// from one Node process: all GPUs driven from the main thread ('thread'), and
// one worker thread per GPU ('workers'); each GPU alone first, for the ratio.
// The anchor, in the same run: the C program (cmake-build/bench/
// external_pipeline_c, the ahead order) as one process per GPU (--device i),
// all at once, and on GPU 0 alone. See bench/README.md ("Several GPUs").
//
//   node bench/multi-gpu-pipeline.mjs [--platform NAME] [--gpus N] [--mode thread|workers|both]
//        [--slots 8,32] [--width W] [--height H] [--frames F] [--repeats R] [--check-frames C]
//        [--side both|c|node] [--c PATH] [--timing] [--json]
//
// Timed as the C program times itself: each slot count's pipelines are made
// first (untimed), warmed up, then each run is timed inside its lane. All
// lanes start together (a worker waits at a shared gate until every one has
// arrived). Per GPU and run: frames/s; the aggregate is their sum (as the C
// side's is), and N x frames / (last end - first start) is printed beside it.
// --timing: each lane's host microseconds per frame by phase (FramePipeline's
// timing; it adds a few clock reads per frame). Correctness: --check-frames frames per GPU and
// slot count (8 slots, ahead order) whose RGBA output Vulkan copies three
// pieces of (start, middle, end) into a buffer the host reads and compares
// with the expected colour: 0 mismatched pixels or the bench fails.
// GPUs: the platform's devices whose UUID a Vulkan device has; on a device
// without an OpenCL C compiler (the reference driver) the conversion is its
// built-in nv12_to_rgba over images the planes are copied into.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { NV12_TO_RGBA_SOURCE, frameRgba, median, nv12Slots, valueIndex } from './nv12-frames.mjs';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const cl = createRequire(import.meta.url)(join(root, 'dist', 'index.js'));

/** The GPUs: { index, device, uuid } for each device of the platform a Vulkan device matches. */
function gpusOf(platformName) {
  const platform = cl.getPlatforms().find((p) => p.name.includes(platformName));
  if (!platform)
    throw new Error(
      `no platform whose name contains "${platformName}" (have: ${cl
        .getPlatforms()
        .map((p) => p.name)
        .join(', ')})`,
    );
  const devices = platform.getDevices('gpu').length ? platform.getDevices('gpu') : platform.getDevices();
  const instance = cl.createVulkanInstance({ apiVersion: '1.2' });
  const vulkanUuids = instance.physicalDevices().map((d) => cl.uuidString(d.deviceUUID));
  instance.dispose();
  return devices.map((device, index) => ({ index, device, uuid: device.uuid })).filter((g) => g.uuid && vulkanUuids.includes(g.uuid));
}

/** One GPU's pipeline: its context, queue, Vulkan device and slots; run(n, frames, check) resolves with milliseconds. */
async function makeLane({ platformName, gpu, width, height, maxSlots }) {
  const device = gpusOf(platformName).find((g) => g.index === gpu)?.device;
  if (!device) throw new Error(`GPU ${gpu} not found (or no Vulkan device matches it)`);
  const context = cl.createContext({ devices: [device] });
  const queue = context.createQueue();
  const memory = cl.getExternalMemory(context.platform);
  const instance = cl.createVulkanInstance({ apiVersion: '1.2' });
  const vulkan = instance.createDevice({ uuid: device.uuidBytes });
  const rgbaSize = width * height * 4;
  const piece = Math.min(4096, (rgbaSize / 2) & ~3);
  const compiles = device.compilerAvailable;
  let program, kernel;
  if (compiles) {
    program = context.createProgram(NV12_TO_RGBA_SOURCE);
    await program.build();
    kernel = program.createKernel('nv12_to_rgba');
    kernel.setArg(3, 0, 'uint').setArg(4, width / 4, 'uint');
  } else {
    program = context.createProgramWithBuiltInKernels(['nv12_to_rgba']);
    kernel = program.createKernel('nv12_to_rgba');
  }
  const global = compiles ? [width / 4, height] : [width, height];
  const local = compiles && width % 256 === 0 && height % 4 === 0 ? [64, 4] : undefined;
  const { slots, produceCommands, consumeCommands } = nv12Slots({
    vulkan,
    memory,
    context,
    width,
    height,
    count: maxSlots,
    piece,
    extra: () => ({
      images: compiles
        ? null
        : {
            y: context.createImage({ format: { order: 'R', type: 'UNORM_INT8' }, width, height }),
            uv: context.createImage({ format: { order: 'RG', type: 'UNORM_INT8' }, width: width / 2, height: height / 2 }),
            rgba: context.createImage({ format: { order: 'RGBA', type: 'UNORM_INT8' }, width, height }),
          },
    }),
  });
  const process = (s) => {
    const slot = s.resources;
    if (compiles) {
      kernel.setArg(0, slot.frame.planes[0]).setArg(1, slot.frame.planes[1]).setArg(2, slot.clRgba);
      queue.enqueueKernel(kernel, global, { localSize: local }).release();
    } else {
      queue.copyBufferToImage(slot.frame.planes[0], slot.images.y).release();
      queue.copyBufferToImage(slot.frame.planes[1], slot.images.uv).release();
      kernel.setArgs(slot.images.y, slot.images.uv, slot.images.rgba);
      queue.enqueueKernel(kernel, global).release();
      queue.copyImageToBuffer(slot.images.rgba, slot.clRgba).release();
    }
  };
  let pipeline = null;
  return {
    device: device.name,
    uuid: device.uuid,
    get sync() {
      return pipeline?.sync ?? null;
    },
    /**
     * Makes the pipeline of `n` slots (untimed: on NVIDIA its 2 n semaphores
     * are made, exported and imported into OpenCL here, about as long as
     * hundreds of frames), with the check's consumer when `check`.
     */
    open(n, check = false) {
      if (pipeline) throw new Error('a pipeline is open: closePipeline() first');
      pipeline = new cl.FramePipeline({
        queue,
        vulkan,
        slots: n,
        resources: (index) => slots[index],
        acquire: (s) => [s.resources.frame.memory[0], s.resources.clRgba],
        produce: { vulkan: (s, f) => produceCommands(s.resources, valueIndex(f, n)) },
        process,
        consume: { vulkan: (s) => consumeCommands(s.resources, check) },
      });
      return pipeline.sync;
    },
    /**
     * Runs `frames` frames through the open pipeline; resolves with when the
     * run started and ended (milliseconds on one clock for every thread of
     * the process: performance.timeOrigin + performance.now()) and, with
     * `timing`, the host milliseconds of its phases. With `check`, counts
     * mismatched pixels into it.
     */
    async run(frames, { check = null, timing = false } = {}) {
      const n = pipeline.count;
      const phases = timing ? {} : undefined;
      const start = performance.timeOrigin + performance.now();
      await pipeline.run({
        frames,
        timing: phases,
        onConsumed: check
          ? async (s, f) => {
              const bytes = await s.resources.check.read();
              const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
              const want = frameRgba(valueIndex(f, n));
              for (let k = 0; k < words.length; k++) if (words[k] !== want) check.mismatchedPixels++;
              check.frames++;
              check.pixels += words.length;
            }
          : undefined,
      });
      const end = performance.timeOrigin + performance.now();
      return { start, end, ms: end - start, timing: phases ?? null };
    },
    async closePipeline() {
      const p = pipeline;
      pipeline = null;
      await p?.asyncDispose();
    },
    async close() {
      await this.closePipeline();
      await vulkan.queue.idle();
      for (const slot of slots) {
        slot.frame.release();
        slot.clRgba.release();
        if (slot.images) for (const image of Object.values(slot.images)) image.release();
        for (const commands of [...slot.produce.values(), ...slot.consume.values()]) commands.dispose();
        for (const b of [slot.nv12, slot.rgba, slot.out, slot.check]) b.dispose();
      }
      kernel.release();
      program.release();
      queue.release();
      context.release();
      vulkan.dispose();
      instance.dispose();
    },
  };
}

/**
 * Holds a worker until every lane of a start has arrived, then lets them all
 * go at once: [arrived (counts up over the bench), start generation].
 */
function awaitStart(gate, generation) {
  Atomics.add(gate, 0, 1);
  Atomics.notify(gate, 0);
  for (let g = Atomics.load(gate, 1); g < generation; g = Atomics.load(gate, 1)) Atomics.wait(gate, 1, g);
}

// ---- worker side: one GPU, driven by messages ----
if (!isMainThread) {
  const lane = await makeLane(workerData);
  parentPort.postMessage({ type: 'ready', device: lane.device });
  parentPort.on('message', async (message) => {
    try {
      if (message.type === 'open') {
        parentPort.postMessage({ type: 'opened', sync: lane.open(message.slots, message.check) });
      } else if (message.type === 'run') {
        const check = message.check ? { frames: 0, pixels: 0, mismatchedPixels: 0 } : null;
        if (message.gate) awaitStart(new Int32Array(message.gate), message.generation);
        const result = await lane.run(message.frames, { check, timing: message.timing });
        parentPort.postMessage({ type: 'done', ...result, check });
      } else if (message.type === 'closePipeline') {
        await lane.closePipeline();
        parentPort.postMessage({ type: 'pipelineClosed' });
      } else if (message.type === 'close') {
        await lane.close();
        parentPort.postMessage({ type: 'closed' });
        parentPort.close();
      }
    } catch (error) {
      parentPort.postMessage({ type: 'error', message: error?.stack ?? String(error) });
    }
  });
}

/** A lane in a worker thread: the same calls as a lane of this thread, as messages. */
class WorkerLane {
  constructor(options) {
    this.gpu = options.gpu;
    this.worker = new Worker(fileURLToPath(import.meta.url), { workerData: options });
    this.pending = null;
    this.exited = new Promise((resolve) => this.worker.once('exit', resolve));
    this.ready = this.#next();
    this.worker.on('message', (m) => {
      const p = this.pending;
      this.pending = null;
      if (m.type === 'error') p?.reject(new Error(`worker for GPU ${options.gpu}: ${m.message}`));
      else p?.resolve(m);
    });
    this.worker.on('error', (e) => this.pending?.reject(e));
  }
  #next() {
    return new Promise((resolve, reject) => (this.pending = { resolve, reject }));
  }
  async #call(message) {
    const done = this.#next();
    this.worker.postMessage(message);
    return done;
  }
  async open(n, check = false) {
    this.sync = (await this.#call({ type: 'open', slots: n, check })).sync;
    return this.sync;
  }
  /** Posts the run; with `gate`, the worker waits at it (awaitStart) before it starts. */
  async run(frames, { check = null, timing = false, gate, generation } = {}) {
    const m = await this.#call({ type: 'run', frames, check: check !== null, timing, gate: gate?.buffer, generation });
    if (check) Object.assign(check, m.check);
    return { start: m.start, end: m.end, ms: m.ms, timing: m.timing };
  }
  async closePipeline() {
    await this.#call({ type: 'closePipeline' });
  }
  /** Lets the worker end by itself once it has let go of everything (terminate() only if it has not after 10 s). */
  async close() {
    await this.#call({ type: 'close' });
    const timer = setTimeout(() => this.worker.terminate(), 10_000);
    const code = await this.exited;
    clearTimeout(timer);
    if (code !== 0) throw new Error(`the worker for GPU ${this.gpu} exited with code ${code}`);
  }
}

/**
 * Runs `frames` frames on every lane at once, each lane's pipeline already
 * open: this thread's lanes are started one after another in one tick (each
 * runs until its first await); workers wait at a shared gate until all have
 * arrived, then start together. Resolves with each lane's { start, end, ms,
 * timing } (one clock for every thread).
 */
let startGeneration = 0;
async function runTogether(lanes, frames, { gate, timing }) {
  if (!(lanes[0] instanceof WorkerLane)) return Promise.all(lanes.map((l) => l.run(frames, { timing })));
  const generation = ++startGeneration;
  const runs = lanes.map((l) => l.run(frames, { timing, gate, generation }));
  const target = lanes.length * generation;
  // This thread has nothing else to do meanwhile: wait here until every worker has arrived, then open the gate.
  for (let arrived = Atomics.load(gate, 0); arrived < target; arrived = Atomics.load(gate, 0)) Atomics.wait(gate, 0, arrived, 1000);
  Atomics.store(gate, 1, generation);
  Atomics.notify(gate, 1);
  return Promise.all(runs);
}

async function runC(cPath, args) {
  return new Promise((resolve) => {
    const child = spawn(cPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '',
      stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => {
      if (status !== 0) {
        process.stderr.write(stderr);
        resolve(null);
      } else resolve(JSON.parse(stdout));
    });
  });
}

async function main() {
  const { values: opts } = parseArgs({
    options: {
      platform: { type: 'string', default: 'NVIDIA' },
      gpus: { type: 'string' },
      mode: { type: 'string', default: 'both' },
      slots: { type: 'string', default: '8,32' },
      width: { type: 'string', default: '3840' },
      height: { type: 'string', default: '2160' },
      frames: { type: 'string', default: '3000' },
      repeats: { type: 'string', default: '3' },
      'check-frames': { type: 'string', default: '200' },
      side: { type: 'string', default: 'both' },
      c: { type: 'string', default: join(root, 'cmake-build', 'bench', 'external_pipeline_c') },
      json: { type: 'boolean', default: false },
      timing: { type: 'boolean', default: false },
    },
  });
  const fail = (message) => {
    console.error(`bench: ${message}`);
    process.exit(1);
  };
  const [width, height, frames, repeats, checkFrames] = ['width', 'height', 'frames', 'repeats', 'check-frames'].map((k) => Number(opts[k]));
  const slotCounts = opts.slots.split(',').map(Number);
  if (!Number.isInteger(width) || width < 4 || width % 4 || !Number.isInteger(height) || height < 2 || height % 2 || width * height * 4 < 16)
    fail('--width must be a multiple of 4 and --height even');
  if (![frames, repeats].every((v) => Number.isInteger(v) && v >= 1) || !Number.isInteger(checkFrames) || checkFrames < 0)
    fail('--frames and --repeats must be positive integers, --check-frames >= 0');
  if (!slotCounts.every((n) => Number.isInteger(n) && n >= 1 && n <= 256)) fail('--slots: integers from 1 to 256, comma-separated');
  if (!['thread', 'workers', 'both'].includes(opts.mode)) fail('--mode must be thread, workers or both');
  if (!['both', 'c', 'node'].includes(opts.side)) fail('--side must be both, c or node');
  const all = gpusOf(opts.platform);
  if (all.length === 0) fail(`no GPU of "${opts.platform}" has a Vulkan device with its UUID`);
  const count = opts.gpus === undefined ? all.length : Number(opts.gpus);
  if (!Number.isInteger(count) || count < 1 || count > all.length)
    fail(`--gpus must be an integer from 1 to ${all.length} (the GPUs found); got ${opts.gpus}`);
  const gpus = all.slice(0, count);
  const maxSlots = Math.max(8, ...slotCounts);
  const warmup = Math.max(50, Math.floor(frames / 10));
  const result = {
    platform: opts.platform,
    gpus: gpus.map((g) => ({ index: g.index, name: g.device.name, uuid: g.uuid, pciBus: g.device.pciBus && cl.formatPciBus(g.device.pciBus) })),
    width,
    height,
    frames,
    repeats,
    node: {},
    c: null,
    checks: [],
  };
  console.error(
    `bench: ${count} GPU(s): ${result.gpus.map((g) => `${g.index} ${g.name} (UUID ${g.uuid}${g.pciBus ? `, PCI ${g.pciBus}` : ''})`).join('; ')}`,
  );

  // ---- C: GPU 0 alone, then one process per GPU at once ----
  if (opts.side !== 'node') {
    if (!existsSync(opts.c))
      console.error(
        `bench: C program not found at ${opts.c} (npm run build:driver builds it where the Vulkan headers are installed); Node side only`,
      );
    else {
      const args = (g) => [
        '--platform',
        opts.platform,
        '--device',
        g.uuid,
        '--variants',
        'ahead',
        '--check-variants',
        'ahead',
        '--width',
        String(width),
        '--height',
        String(height),
        '--frames',
        String(frames),
        '--repeats',
        String(repeats),
        '--slots',
        slotCounts.join(','),
        '--kernel-iterations',
        '50',
        '--check-frames',
        String(checkFrames),
      ];
      const entryOf = (json, n) => json?.pipeline.find((p) => p.order === 'ahead' && p.slots === n);
      const fpsOf = (json, n) => entryOf(json, n)?.fps ?? null;
      // The host time of the calls that drive one frame (not the fence waits): what one thread driving N GPUs pays N times.
      const callsUsOf = (json, n) => {
        const h = entryOf(json, n)?.host_ns_per_frame;
        return h ? (h.produce + h.opencl + h.consume) / 1e3 : null;
      };
      const alone = await runC(opts.c, args(gpus[0]));
      const together = count > 1 ? await Promise.all(gpus.map((g) => runC(opts.c, args(g)))) : [alone];
      result.c = slotCounts.map((n) => ({
        slots: n,
        alone: fpsOf(alone, n),
        perGpu: together.map((j) => fpsOf(j, n)),
        aggregate: together.reduce((sum, j) => sum + (fpsOf(j, n) ?? 0), 0),
        callsUsAlone: callsUsOf(alone, n),
      }));
      for (const r of result.c)
        console.error(
          `bench: C, ${r.slots} slots: GPU 0 alone ${r.alone?.toFixed(0) ?? 'n/a'} frames/s; one process per GPU ${r.perGpu.map((x) => x?.toFixed(0) ?? 'n/a').join(' + ')} = ${r.aggregate.toFixed(0)} frames/s`,
        );
      for (const [k, j] of together.entries()) {
        const ck = j?.check.find((x) => x.order === 'ahead' && x.ordered);
        result.checks.push({ side: 'C', gpu: gpus[k].index, frames: ck?.frames ?? 0, mismatchedPixels: ck?.mismatched_pixels ?? null });
      }
    }
  }

  // ---- Node ----
  if (opts.side !== 'c') {
    const laneOptions = (g) => ({ platformName: opts.platform, gpu: g.index, width, height, maxSlots });
    const modes = opts.mode === 'both' ? ['thread', 'workers'] : [opts.mode];
    for (const mode of modes) {
      const lanes =
        mode === 'thread' ? await Promise.all(gpus.map((g) => makeLane(laneOptions(g)))) : gpus.map((g) => new WorkerLane(laneOptions(g)));
      if (mode === 'workers') await Promise.all(lanes.map((l) => l.ready));
      const gate = new Int32Array(new SharedArrayBuffer(8));
      try {
        // Correctness on every GPU at once.
        const checks = lanes.map(() => ({ frames: 0, pixels: 0, mismatchedPixels: 0 }));
        if (checkFrames > 0) {
          const syncs = await Promise.all(lanes.map((l) => l.open(8, true)));
          await Promise.all(lanes.map((l, k) => l.run(checkFrames, { check: checks[k] })));
          await Promise.all(lanes.map((l) => l.closePipeline()));
          checks.forEach((check, k) => {
            result.checks.push({
              side: `Node ${mode}`,
              gpu: gpus[k].index,
              frames: check.frames,
              mismatchedPixels: check.mismatchedPixels,
              sync: syncs[k],
            });
          });
        }
        result.node[mode] = [];
        for (const n of slotCounts) {
          // Set-up (the pipelines and their semaphores) is not timed, as in the C program; each run is timed inside its lane.
          await Promise.all(lanes.map((l) => l.open(n)));
          await lanes[0].run(warmup);
          const aloneRuns = [];
          for (let r = 0; r < repeats; r++) aloneRuns.push((frames * 1000) / (await lanes[0].run(frames)).ms);
          await runTogether(lanes, warmup, { gate });
          const perGpuRuns = lanes.map(() => []),
            sumRuns = [],
            wallRuns = [],
            skews = [],
            hosts = lanes.map(() => []);
          for (let r = 0; r < repeats; r++) {
            const runs = await runTogether(lanes, frames, { gate, timing: opts.timing });
            const rates = runs.map((x) => (frames * 1000) / x.ms);
            rates.forEach((x, k) => {
              perGpuRuns[k].push(x);
            });
            sumRuns.push(rates.reduce((a, b) => a + b, 0));
            const first = Math.min(...runs.map((x) => x.start)),
              last = Math.max(...runs.map((x) => x.end));
            wallRuns.push((frames * lanes.length * 1000) / (last - first));
            skews.push(Math.max(...runs.map((x) => x.start)) - first);
            runs.forEach((x, k) => {
              if (x.timing) hosts[k].push(x.timing);
            });
          }
          await Promise.all(lanes.map((l) => l.closePipeline()));
          const row = {
            slots: n,
            alone: median(aloneRuns),
            perGpu: perGpuRuns.map(median),
            aggregate: median(sumRuns),
            wallAggregate: median(wallRuns),
            startSkewMs: median(skews),
          };
          if (opts.timing) row.hostUsPerFrame = hosts.map((ts) => hostPerFrame(ts, frames));
          result.node[mode].push(row);
          console.error(
            `bench: Node ${mode}, ${n} slots: GPU 0 alone ${row.alone.toFixed(0)} frames/s; together ${row.perGpu.map((x) => x.toFixed(0)).join(' + ')} = ${row.aggregate.toFixed(0)} frames/s; ` +
              `N x frames / wall time ${row.wallAggregate.toFixed(0)} (starts ${row.startSkewMs.toFixed(2)} ms apart)` +
              (row.hostUsPerFrame
                ? `; host us/frame per GPU (produce, opencl, consume, wait): ${row.hostUsPerFrame.map((h) => `${h.produce.toFixed(1)}, ${h.opencl.toFixed(1)}, ${h.consume.toFixed(1)}, ${h.wait.toFixed(1)}`).join(' | ')}`
                : ''),
          );
        }
      } finally {
        for (const lane of lanes) await lane.close();
      }
    }
  }
  report(result, slotCounts, opts.json);
  const bad = result.checks.filter((c) => c.mismatchedPixels !== 0 || (checkFrames > 0 && c.frames === 0));
  if (bad.length) {
    console.error(
      `bench: correctness FAILED: ${bad.map((c) => `${c.side} GPU ${c.gpu}: ${c.frames} frames, ${c.mismatchedPixels} mismatched pixels`).join('; ')}`,
    );
    process.exitCode = 1;
  }
}

/** Host microseconds per frame of each phase, the median over runs (FramePipeline's timing). */
function hostPerFrame(timings, frames) {
  const of = (key) => (median(timings.map((t) => t[key] ?? 0)) * 1000) / frames;
  return { produce: of('produce'), opencl: of('opencl'), consume: of('consume'), wait: of('wait') };
}

function report(result, slotCounts, json) {
  const f0 = (x) => (x === null || x === undefined ? 'n/a' : x.toFixed(0));
  const n = result.gpus.length;
  const lines = [
    `${n} GPU(s) of "${result.platform}": ${result.gpus.map((g) => g.name).join(', ')}; ${result.width}x${result.height} NV12 -> RGBA, ahead order; frames/s, median of ${result.repeats} runs of ${result.frames} frames per GPU`,
    '',
  ];
  lines.push(
    'aggregate: the sum of the per-GPU rates, each timed inside its own run (set-up excluded), as the C side sums its processes; wall: N x frames / (last end - first start) of runs started together',
    '',
  );
  lines.push(
    '| side | slots | one GPU alone | per GPU, all at once | aggregate | aggregate / (N x alone) | aggregate / C aggregate | wall | wall / (N x alone) | starts apart (ms) |',
  );
  lines.push('|---|---|---|---|---|---|---|---|---|---|');
  for (const slots of slotCounts) {
    const c = result.c?.find((r) => r.slots === slots);
    const rows = [
      ['C, one process per GPU', c],
      ...Object.entries(result.node).map(([mode, rs]) => [
        `Node, ${mode === 'thread' ? 'one thread' : 'a worker per GPU'}`,
        rs.find((r) => r.slots === slots),
      ]),
    ];
    for (const [label, r] of rows) {
      if (!r) continue;
      const ratio = (x, y) => (x && y ? `${(x / y).toFixed(3)}x` : 'n/a');
      const wall =
        r.wallAggregate === undefined ? ['n/a', 'n/a', 'n/a'] : [f0(r.wallAggregate), ratio(r.wallAggregate, n * r.alone), r.startSkewMs.toFixed(2)];
      lines.push(
        `| ${label} | ${slots} | ${f0(r.alone)} | ${r.perGpu.map(f0).join(' + ')} | ${f0(r.aggregate)} | ${ratio(r.aggregate, n * r.alone)} | ${ratio(r.aggregate, c?.aggregate)} | ${wall.join(' | ')} |`,
      );
    }
  }
  const withCalls = (result.c ?? []).filter((r) => r.callsUsAlone && r.alone);
  if (withCalls.length) {
    lines.push(
      '',
      "One thread's ceiling: the C program's host time for one frame's calls (Vulkan submissions, acquire, semaphores, kernel, release; not its waits), GPU 0 alone; one thread making those calls for every GPU can drive at most 1e6 / that frames/s in all:",
    );
    for (const r of withCalls) {
      const ceiling = 1e6 / r.callsUsAlone;
      lines.push(
        `- ${r.slots} slots: ${r.callsUsAlone.toFixed(1)} us per frame -> at most ${ceiling.toFixed(0)} frames/s from one thread = ${(ceiling / (n * r.alone)).toFixed(2)} x (N x alone)`,
      );
    }
  }
  lines.push('', '| check (8 slots, ahead) | GPU | frames | mismatched pixels |', '|---|---|---|---|');
  for (const c of result.checks)
    lines.push(`| ${c.side}${c.sync ? ` (sync: ${c.sync})` : ''} | ${c.gpu} | ${c.frames} | ${c.mismatchedPixels ?? 'n/a'} |`);
  console.log(lines.join('\n'));
  if (json) console.log(JSON.stringify(result));
}

if (isMainThread) await main();
