#!/usr/bin/env node
// The 4K Vulkan -> OpenCL -> Vulkan frame pipeline (cl_khr_external_memory +
// cl_khr_external_semaphore), in C (cmake-build/bench/external_pipeline_c)
// and through this package's public API (its FramePipeline), on the
// same GPU in one run. See bench/README.md ("Frames between Vulkan and OpenCL").
//
//   node bench/external-pipeline.mjs [--platform NAME] [--width W] [--height H] [--frames N]
//        [--repeats R] [--slots 2,8,32] [--kernel-iterations K] [--check-frames C]
//        [--c PATH] [--c-args "..."] [--side both|c|node] [--json]
//
// Both sides: per slot an NV12 frame and an RGBA frame in Vulkan memory
// exported as opaque fds and imported into OpenCL (the NV12 planes as
// sub-buffers), a Vulkan-only buffer the consumer copies the RGBA frame into,
// two Vulkan binary semaphores imported into OpenCL. One frame: Vulkan fills
// the planes (signal), OpenCL waits, acquires, runs nv12_to_rgba (3 kernel
// arguments set per frame), releases, signals, flushes; Vulkan waits and
// copies the RGBA frame out. Orders: naive, ahead, and ahead with the
// consumers N/2 frames behind OpenCL's work (docs/frames.md says
// what they are; the C side's variants of the same names). The C side records its command buffers each frame with
// the frame's values; the Node side records each slot's commands once per
// value it uses (two a slot: frames of even and odd laps differ, which is
// what the check needs) and submits them again.
//
// Needs a platform with cl_khr_external_memory_opaque_fd and
// cl_khr_external_semaphore_opaque_fd and a Vulkan device with the same UUID
// (on the GPU machine: NVIDIA CUDA, with the Vulkan loader and NVIDIA's ICD).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { NV12_TO_RGBA_SOURCE, frameRgba, median, nv12Slots, valueIndex } from './nv12-frames.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

const CHECK_PIECE = 4096;
// The orders of submission both sides run: naive, ahead, and ahead with the
// consumers N/2 frames behind OpenCL's work (FramePipeline's lag; the C side's
// ahead-lag variant).
const VARIANTS = ['naive', 'ahead', 'ahead-lag'];

async function main() {
  const { values: opts } = parseArgs({
    options: {
      platform: { type: 'string', default: 'NVIDIA' },
      width: { type: 'string', default: '3840' },
      height: { type: 'string', default: '2160' },
      frames: { type: 'string', default: '3000' },
      repeats: { type: 'string', default: '3' },
      slots: { type: 'string', default: '2,8,32' },
      'kernel-iterations': { type: 'string', default: '2000' },
      'check-frames': { type: 'string', default: '400' },
      c: { type: 'string', default: join(root, 'cmake-build', 'bench', 'external_pipeline_c') },
      'c-args': { type: 'string', default: '' },
      side: { type: 'string', default: 'both' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (opts.help) {
    console.log('usage: node bench/external-pipeline.mjs [--platform NAME] [--width W] [--height H] [--frames N] [--repeats R]');
    console.log('                                        [--slots 2,8,32] [--kernel-iterations K] [--check-frames C]');
    console.log('                                        [--c PATH] [--c-args "..."] [--side both|c|node] [--json]');
    return;
  }
  const fail = (message) => {
    console.error(`bench: ${message}`);
    process.exit(1);
  };
  const [width, height, frames, repeats, kernelIterations, checkFrames] = [
    'width',
    'height',
    'frames',
    'repeats',
    'kernel-iterations',
    'check-frames',
  ].map((k) => Number(opts[k]));
  const slotCounts = opts.slots.split(',').map(Number);
  if (!Number.isInteger(width) || width < 4 || width % 4 || !Number.isInteger(height) || height < 2 || height % 2)
    fail('--width must be a multiple of 4 and --height even');
  if (![frames, repeats, kernelIterations].every((v) => Number.isInteger(v) && v >= 1) || !Number.isInteger(checkFrames) || checkFrames < 0)
    fail('--frames, --repeats, --kernel-iterations must be positive integers, --check-frames >= 0');
  if (!slotCounts.every((n) => Number.isInteger(n) && n >= 1 && n <= 256)) fail('--slots: integers from 1 to 256, comma-separated');
  if (!['both', 'c', 'node'].includes(opts.side)) fail('--side must be both, c or node');
  const warmup = Math.max(50, Math.floor(frames / 10)); // as the C side

  // ---- C ----
  let c = null;
  if (opts.side !== 'node') {
    if (!existsSync(opts.c)) {
      console.error(
        `bench: C program not found at ${opts.c} (npm run build:driver builds it where the Vulkan headers are installed); Node side only`,
      );
    } else {
      const args = [
        '--variants',
        VARIANTS.join(','),
        '--platform',
        opts.platform,
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
        String(kernelIterations),
        '--check-frames',
        String(checkFrames),
        ...opts['c-args'].split(' ').filter(Boolean),
      ];
      const t0 = Date.now();
      const child = spawnSync(opts.c, args, { encoding: 'utf8', maxBuffer: 1 << 24 });
      process.stderr.write(child.stderr ?? '');
      if (child.error || child.status !== 0) console.error(`bench: the C program failed (${child.error?.message ?? `exit status ${child.status}`})`);
      else c = JSON.parse(child.stdout);
      console.error(`bench: C side took ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    }
  }

  // ---- Node ----
  let node = null;
  if (opts.side !== 'c')
    node = await runNode({ platformName: opts.platform, width, height, frames, repeats, slotCounts, kernelIterations, checkFrames, warmup, fail });

  report(c, node, slotCounts, opts.json);
}

async function runNode({ platformName, width, height, frames, repeats, slotCounts, kernelIterations, checkFrames, warmup, fail }) {
  let cl;
  try {
    cl = createRequire(import.meta.url)(join(root, 'dist', 'index.js'));
  } catch (error) {
    fail(`cannot load dist/index.js (${error.message}); run npm run build first`);
  }
  const platform = cl.getPlatforms().find((p) => p.name.includes(platformName));
  if (!platform)
    fail(
      `no platform whose name contains "${platformName}" (have: ${cl
        .getPlatforms()
        .map((p) => p.name)
        .join(', ')})`,
    );
  const device = platform.getDevices().find((d) => d.type === 'gpu') ?? platform.getDevices()[0];
  const context = cl.createContext({ devices: [device] });
  const queue = context.createQueue();
  const memory = cl.getExternalMemory(platform);
  const program = context.createProgram(NV12_TO_RGBA_SOURCE);
  await program.build();
  const kernel = program.createKernel('nv12_to_rgba');

  const uuid = device.uuid;
  if (!uuid) fail(`"${device.name}" reports no CL_DEVICE_UUID_KHR: no Vulkan device can be matched to it`);
  const instance = cl.createVulkanInstance({ apiVersion: '1.2' });
  const vulkan = instance.createDevice({ uuid: device.uuidBytes });

  const ySize = width * height,
    uvSize = ySize / 2,
    nv12Size = ySize + uvSize,
    rgbaSize = ySize * 4;
  const global = [width / 4, height];
  const local = width % 256 === 0 && height % 4 === 0 ? [64, 4] : undefined;
  const maxSlots = Math.max(8, ...slotCounts);
  const pitch4 = width / 4;
  kernel.setArg(3, 0, 'uint');
  kernel.setArg(4, pitch4, 'uint');

  const countFds = () => readdirSync('/proc/self/fd').length - 1; // less the directory's own descriptor
  const fdsStart = countFds();

  const { slots, produceCommands, consumeCommands } = nv12Slots({ vulkan, memory, context, width, height, count: maxSlots, piece: CHECK_PIECE });
  const fdsImported = countFds();

  /** @param {{ check?: any, timing?: any }} [extra] */
  async function pipeline(n, variant, count, extra = {}) {
    const { check = null, timing } = extra;
    const order = variant === 'naive' ? 'naive' : 'ahead';
    const lag = variant === 'ahead-lag' ? Math.floor(n / 2) : 0;
    const helper = new cl.FramePipeline({
      queue,
      vulkan,
      slots: n,
      resources: (index) => slots[index],
      acquire: (s) => [s.resources.frame.memory[0], s.resources.clRgba],
      produce: { vulkan: (s, f) => produceCommands(s.resources, valueIndex(f, n)) },
      process: (s) => {
        const slot = s.resources;
        kernel.setArg(0, slot.frame.planes[0]).setArg(1, slot.frame.planes[1]).setArg(2, slot.clRgba);
        queue.enqueueKernel(kernel, global, { localSize: local }).release();
      },
      consume: { vulkan: (s) => consumeCommands(s.resources, check !== null) },
    });
    try {
      const t0 = performance.now();
      await helper.run({
        frames: count,
        order,
        lag,
        timing,
        onConsumed: check
          ? async (s, f) => {
              const bytes = await s.resources.check.read();
              const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
              const want = frameRgba(valueIndex(f, n));
              let bad = 0;
              for (let k = 0; k < words.length; k++) if (words[k] !== want) bad++;
              check.frames++;
              check.pixels += words.length;
              check.mismatchedPixels += bad;
              if (bad) check.mismatchedFrames++;
            }
          : undefined,
      });
      return performance.now() - t0;
    } finally {
      helper.dispose();
    }
  }

  // The kernel alone: plain buffers, imported ones (acquired once), imported with acquire + release around each launch.
  const kernelAlone = async () => {
    const plainNv12 = context.createBuffer(nv12Size);
    const plainRgba = context.createBuffer(rgbaSize);
    queue.fillBuffer(plainNv12, new Uint8Array([128])).release();
    const plainY = plainNv12.createSubBuffer(0, ySize),
      plainUv = plainNv12.createSubBuffer(ySize, uvSize);
    const time = async (y, uv, rgba, acquireEach) => {
      kernel.setArg(0, y).setArg(1, uv).setArg(2, rgba);
      const samples = [],
        hostSamples = [];
      for (let r = -1; r < repeats; r++) {
        const n = r < 0 ? 50 : kernelIterations;
        let host = 0;
        const t0 = performance.now();
        for (let i = 0; i < n; i++) {
          if (acquireEach) {
            let a = performance.now();
            queue.enqueueAcquireShared(acquireEach).release();
            host += performance.now() - a;
            queue.enqueueKernel(kernel, global, { localSize: local }).release();
            a = performance.now();
            queue.enqueueReleaseShared(acquireEach).release();
            host += performance.now() - a;
          } else {
            const a = performance.now();
            queue.enqueueKernel(kernel, global, { localSize: local }).release();
            host += performance.now() - a;
          }
        }
        await queue.finish();
        if (r >= 0) {
          samples.push(((performance.now() - t0) * 1000) / n);
          hostSamples.push((host * 1e6) / n);
        }
      }
      return { us: median(samples), hostNs: median(hostSamples) };
    };
    const plain = await time(plainY, plainUv, plainRgba, null);
    const s0 = slots[0];
    const objects = [s0.frame.memory[0], s0.clRgba];
    queue.enqueueAcquireShared(objects).release();
    const imported = await time(s0.frame.planes[0], s0.frame.planes[1], s0.clRgba, null);
    queue.enqueueReleaseShared(objects).release();
    const importedAcquire = await time(s0.frame.planes[0], s0.frame.planes[1], s0.clRgba, objects);
    const plainAgain = await time(plainY, plainUv, plainRgba, null);
    await queue.finish();
    for (const m of [plainY, plainUv, plainNv12, plainRgba]) m.release();
    return {
      plain_us: plain.us,
      plain_again_us: plainAgain.us,
      imported_us: imported.us,
      imported_acquire_release_us: importedAcquire.us,
      enqueue_host_ns: plain.hostNs,
      acquire_release_host_ns: importedAcquire.hostNs,
    };
  };

  const result = {
    program: 'external-pipeline.mjs',
    platform: platform.name,
    device: device.name,
    vulkan_device: vulkan.name,
    width,
    height,
    frames,
    repeats,
  };
  result.kernel = await kernelAlone();
  console.error(
    `Node: kernel alone plain ${result.kernel.plain_us.toFixed(2)} us, imported ${result.kernel.imported_us.toFixed(2)} us, imported + acquire/release ${result.kernel.imported_acquire_release_us.toFixed(2)} us, plain again ${result.kernel.plain_again_us.toFixed(2)} us; host: enqueue ${result.kernel.enqueue_host_ns.toFixed(0)} ns, acquire+release ${result.kernel.acquire_release_host_ns.toFixed(0)} ns`,
  );

  result.check = [];
  for (const order of ['naive', 'ahead']) {
    const check = { order, slots: 8, ordered: true, frames: 0, mismatched_frames: 0, mismatched_pixels: 0, pixels_checked: 0 };
    const counts = { frames: 0, pixels: 0, mismatchedPixels: 0, mismatchedFrames: 0 };
    if (checkFrames > 0) await pipeline(8, order, checkFrames, { check: counts });
    Object.assign(check, {
      frames: counts.frames,
      mismatched_frames: counts.mismatchedFrames,
      mismatched_pixels: counts.mismatchedPixels,
      pixels_checked: counts.pixels,
    });
    result.check.push(check);
    console.error(
      `Node: check ${order}, 8 slots, ordered: ${check.frames} frames, ${check.mismatched_frames} with mismatches, ${check.mismatched_pixels} of ${check.pixels_checked} pixels wrong`,
    );
  }

  result.pipeline = [];
  for (const n of slotCounts) {
    for (const order of VARIANTS) {
      await pipeline(n, order, warmup);
      const runs = [],
        splits = [];
      for (let r = 0; r < repeats; r++) {
        const timing = {};
        const ms = await pipeline(n, order, frames, { timing });
        runs.push((frames * 1000) / ms);
        splits.push(timing);
      }
      const split = splits[Math.floor(repeats / 2)];
      const perFrame = (ms) => Math.round((ms * 1e6) / frames);
      result.pipeline.push({
        order,
        slots: n,
        fps: median(runs),
        fps_runs: runs,
        host_ns_per_frame: {
          produce: perFrame(split.produce),
          opencl: perFrame(split.opencl),
          consume: perFrame(split.consume),
          wait: perFrame(split.wait),
        },
      });
      console.error(`Node: ${order} ${n} slots: ${median(runs).toFixed(0)} frames/s (${runs.map((x) => x.toFixed(0)).join(', ')})`);
    }
  }

  // Where the OpenCL host time of a frame goes (ahead, 8 slots, each call timed).
  if (!process.env.BENCH_NO_CALLS) {
    await pipeline(8, 'ahead', warmup);
    const timing = { calls: {} };
    const ms = await pipeline(8, 'ahead', frames, { timing });
    result.calls_ns = Object.fromEntries(Object.entries(timing.calls).map(([k, v]) => [k, Math.round((v * 1e6) / frames)]));
    result.calls_fps = (frames * 1000) / ms;
  }

  for (const slot of slots) {
    slot.frame.release();
    slot.clRgba.release();
    for (const commands of [...slot.produce.values(), ...slot.consume.values()]) commands.dispose();
    for (const b of [slot.nv12, slot.rgba, slot.out, slot.check]) b.dispose();
  }
  await vulkan.queue.idle();
  kernel.release();
  program.release();
  queue.release();
  context.release();
  vulkan.dispose();
  instance.dispose();
  result.fds = { start: fdsStart, imported: fdsImported, freed: countFds() };
  return result;
}

function report(c, node, slotCounts, json) {
  const f0 = (x) => (x === undefined || x === null ? 'n/a' : x.toFixed(0));
  const f2 = (x) => (x === undefined || x === null ? 'n/a' : x.toFixed(2));
  const lines = [];
  lines.push(
    `card: ${(c ?? node)?.device ?? 'n/a'}; ${(c ?? node)?.width}x${(c ?? node)?.height} NV12 -> RGBA; frames/s, median of ${(c ?? node)?.repeats} runs of ${(c ?? node)?.frames} frames`,
  );
  lines.push('');
  lines.push(`| slots | ${VARIANTS.map((v) => `C ${v}`).join(' | ')} | ${VARIANTS.map((v) => `Node ${v}`).join(' | ')} | Node best / C best |`);
  lines.push(`|---|${VARIANTS.map(() => '---|---|').join('')}---|`);
  const fps = (side, order, n) => side?.pipeline.find((p) => p.order === order && p.slots === n)?.fps;
  for (const n of slotCounts) {
    const cBest = Math.max(...VARIANTS.map((v) => fps(c, v, n) ?? 0));
    const nodeBest = Math.max(...VARIANTS.map((v) => fps(node, v, n) ?? 0));
    lines.push(
      `| ${n} | ${VARIANTS.map((v) => f0(fps(c, v, n))).join(' | ')} | ${VARIANTS.map((v) => f0(fps(node, v, n))).join(' | ')} | ${cBest && nodeBest ? `${(nodeBest / cBest).toFixed(3)}x` : 'n/a'} |`,
    );
  }
  lines.push('');
  lines.push('| the kernel alone (us per launch) | C | Node |');
  lines.push('|---|---|---|');
  for (const [key, label] of [
    ['plain_us', 'plain buffers'],
    ['imported_us', 'imported memory (acquired once)'],
    ['imported_acquire_release_us', 'imported, acquire + release each launch'],
    ['plain_again_us', 'plain buffers again'],
  ]) {
    lines.push(`| ${label} | ${f2(c?.kernel[key])} | ${f2(node?.kernel[key])} |`);
  }
  const slower = (side) => (side ? `${((side.kernel.imported_us / side.kernel.plain_us - 1) * 100).toFixed(1)}%` : 'n/a');
  lines.push(`| imported vs plain | ${slower(c)} | ${slower(node)} |`);
  lines.push(`| host: acquire + release per frame (ns) | ${f0(c?.kernel.acquire_release_host_ns)} | ${f0(node?.kernel.acquire_release_host_ns)} |`);
  lines.push(`| host: one kernel enqueue (ns) | ${f0(c?.kernel.enqueue_host_ns)} | ${f0(node?.kernel.enqueue_host_ns)} |`);
  lines.push('');
  lines.push('| host us per frame (produce / opencl / consume / waiting) | C | Node |');
  lines.push('|---|---|---|');
  for (const n of slotCounts) {
    for (const order of VARIANTS) {
      const split = (side) => {
        const p = side?.pipeline.find((x) => x.order === order && x.slots === n);
        if (!p) return 'n/a';
        const h = p.host_ns_per_frame;
        return [h.produce, h.opencl, h.consume, h.wait].map((v) => (v / 1000).toFixed(1)).join(' / ');
      };
      lines.push(`| ${order}, ${n} slots | ${split(c)} | ${split(node)} |`);
    }
  }
  lines.push('');
  const calls = ['wait', 'acquire', 'kernels', 'release', 'signal', 'flush'];
  lines.push(`| OpenCL calls of a frame, host us (ahead, 8 slots) | ${calls.join(' | ')} |`);
  lines.push(`|---|${calls.map(() => '---').join('|')}|`);
  for (const [label, side] of [
    ['C', c],
    ['Node', node],
  ])
    lines.push(`| ${label} | ${calls.map((k) => (side?.calls_ns ? (side.calls_ns[k] / 1000).toFixed(1) : 'n/a')).join(' | ')} |`);
  lines.push('');
  lines.push('| check (8 slots, ordered) | C: frames, mismatched pixels | Node: frames, mismatched pixels |');
  lines.push('|---|---|---|');
  for (const order of ['naive', 'ahead']) {
    const ck = (side) => {
      const x = side?.check.find((k) => k.order === order && k.ordered !== false && k.semaphores !== false);
      return x ? `${x.frames}, ${x.mismatched_pixels} of ${x.pixels_checked}` : 'n/a';
    };
    lines.push(`| ${order} | ${ck(c)} | ${ck(node)} |`);
  }
  const unordered = c?.check.filter((k) => k.ordered === false) ?? [];
  for (const k of unordered) lines.push(`| ${k.order}, NOT ordered (C) | ${k.frames}, ${k.mismatched_pixels} of ${k.pixels_checked} | |`);
  lines.push('');
  lines.push(
    `open fds: C ${c ? `${c.fds.start} -> ${c.fds.imported} -> ${c.fds.freed}` : 'n/a'}; Node ${node ? `${node.fds.start} -> ${node.fds.imported} -> ${node.fds.freed}` : 'n/a'} (start -> slots imported -> all freed)`,
  );
  console.log(lines.join('\n'));
  if (json) console.log(JSON.stringify({ c, node }));
}

await main();
