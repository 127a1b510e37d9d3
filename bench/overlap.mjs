#!/usr/bin/env node
// Copy and compute overlap on one device: the same frame schedule in C
// (cmake-build/bench/overlap_c) and through this package's public API, in
// one run. See bench/README.md ("Copy and compute overlap").
//
//   node bench/overlap.mjs [--platform NAME] [--width W] [--height H] [--frames N] [--slots S]
//        [--repeats R] [--kernel-iterations K] [--check-frames C] [--c PATH] [--side both|c|node] [--json]
//
// A frame: NV12 (W x H x 1.5 bytes) uploaded from page-aligned host memory
// (allocateHostMemory), a kernel converting it to RGBA, the RGBA frame read
// back into host memory. Frame i uses slot i % S; the host awaits a slot's
// last readback before using the slot again.
//   one queue:    upload, kernel, readback in order on one in-order queue
//   three queues: upload, compute and readback queues; kernel i waits for
//                 upload i, readback i for kernel i, upload i for the slot's
//                 previous readback: upload i+1 and readback i-1 may run
//                 while kernel i does.
// A device without a compiler that has the built-in copy_buffer (the
// reference driver) runs it in place of the kernel: NV12 bytes copied into
// the RGBA buffer, checked as bytes.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// Keep identical to kSource in bench/overlap.c. `zero` is 0: it chains the
// repeated conversions (--kernel-iterations) so that none can be left out.
const KERNEL_SOURCE =
  'uint rgba_pixel(int luma, int d, int e) {\n' +
  '  int c = 298 * (luma - 16) + 128;\n' +
  '  int r = clamp((c + 409 * e) >> 8, 0, 255);\n' +
  '  int g = clamp((c - 100 * d - 208 * e) >> 8, 0, 255);\n' +
  '  int b = clamp((c + 516 * d) >> 8, 0, 255);\n' +
  '  return (uint)r | ((uint)g << 8) | ((uint)b << 16) | 0xff000000u;\n' +
  '}\n' +
  '__kernel void nv12_to_rgba(__global const uchar4* nv12, __global uint4* rgba, uint uv_base, uint pitch4,\n' +
  '                           uint iterations, uint zero) {\n' +
  '  uint x = get_global_id(0), row = get_global_id(1);\n' +
  '  uchar4 l = nv12[row * pitch4 + x];\n' +
  '  uchar4 c = nv12[uv_base + (row >> 1) * pitch4 + x];\n' +
  '  int d0 = (int)c.s0 - 128, e0 = (int)c.s1 - 128, d1 = (int)c.s2 - 128, e1 = (int)c.s3 - 128;\n' +
  '  uint4 p = (uint4)(rgba_pixel(l.s0, d0, e0), rgba_pixel(l.s1, d0, e0),\n' +
  '                    rgba_pixel(l.s2, d1, e1), rgba_pixel(l.s3, d1, e1));\n' +
  '  for (uint k = 1; k < iterations; k++) {\n' +
  '    uint4 z = p & zero;\n' +
  '    p = (uint4)(rgba_pixel(l.s0 + (int)z.s0, d0, e0), rgba_pixel(l.s1 + (int)z.s1, d0, e0),\n' +
  '                rgba_pixel(l.s2 + (int)z.s2, d1, e1), rgba_pixel(l.s3 + (int)z.s3, d1, e1));\n' +
  '  }\n' +
  '  rgba[row * pitch4 + x] = p;\n' +
  '}\n';

// The input of frame value v, as bench/overlap.c makes it.
const lumaAt = (x, y, v) => (x * 7 + y * 13 + v * 29) & 255;
const chromaAt = (col, row, v) => (col * 5 + row * 9 + v * 31 + 100) & 255;
const clamp8 = (v) => (v < 0 ? 0 : v > 255 ? 255 : v);
const rgbaPixel = (luma, d, e) => {
  const c = 298 * (luma - 16) + 128;
  return (clamp8((c + 409 * e) >> 8) | (clamp8((c - 100 * d - 208 * e) >> 8) << 8) | (clamp8((c + 516 * d) >> 8) << 16) | 0xff000000) >>> 0;
};

const MODES = [
  { key: 'one_queue', label: 'one queue' },
  { key: 'three_queues', label: 'three queues' },
];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

function fail(message) {
  console.error(`bench: ${message}`);
  process.exit(1);
}

function parseOptions() {
  const { values: opts } = parseArgs({
    options: {
      platform: { type: 'string' },
      width: { type: 'string', default: '3840' },
      height: { type: 'string', default: '2160' },
      frames: { type: 'string', default: '600' },
      slots: { type: 'string', default: '3' },
      repeats: { type: 'string', default: '5' },
      'kernel-iterations': { type: 'string', default: '1' },
      'check-frames': { type: 'string', default: '8' },
      c: { type: 'string', default: join(root, 'cmake-build', 'bench', 'overlap_c') },
      side: { type: 'string', default: 'both' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (opts.help) {
    console.log('usage: node bench/overlap.mjs [--platform NAME] [--width W] [--height H] [--frames N] [--slots S] [--repeats R]');
    console.log('                              [--kernel-iterations K] [--check-frames C] [--c PATH] [--side both|c|node] [--json]');
    process.exit(0);
  }
  const n = {};
  for (const [key, min, max] of [
    ['width', 4, 65536],
    ['height', 2, 65536],
    ['frames', 1, 1e9],
    ['slots', 1, 256],
    ['repeats', 1, 99],
    ['kernel-iterations', 1, 1e6],
    ['check-frames', 0, 1e6],
  ]) {
    const v = Number(opts[key]);
    if (!Number.isInteger(v) || v < min || v > max) fail(`--${key} expects an integer from ${min} to ${max}; got ${JSON.stringify(opts[key])}`);
    n[key] = v;
  }
  if (n.width % 4 || n.height % 2) fail(`--width must be a multiple of 4 and --height even; got ${n.width}x${n.height}`);
  if (!['both', 'c', 'node'].includes(opts.side)) fail(`--side expects both, c or node; got ${JSON.stringify(opts.side)}`);
  return { ...opts, ...n, platformName: opts.platform ?? (process.env.BENCH_PLATFORM || undefined) };
}

async function main() {
  const opts = parseOptions();
  let cl;
  try {
    cl = createRequire(import.meta.url)(join(root, 'dist', 'index.js'));
  } catch (error) {
    fail(`cannot load dist/index.js (${error.message}); run npm run build first`);
  }
  const platforms = cl.getPlatforms();
  if (platforms.length === 0) fail('no OpenCL platform found');
  const platform = opts.platformName
    ? platforms.find((p) => p.name.includes(opts.platformName))
    : (platforms.find((p) => p.name.includes('Portable')) ?? platforms[0]);
  if (!platform) fail(`no platform whose name contains "${opts.platformName}" (have: ${platforms.map((p) => p.name).join(', ')})`);

  let c = null;
  if (opts.side !== 'node') c = runC(opts, platform.name);
  let node = null;
  if (opts.side !== 'c') node = await runNode(cl, platform, opts);
  report(c, node, opts);
}

function runC(opts, platformName) {
  if (!existsSync(opts.c)) {
    console.error(`bench: C program not found at ${opts.c} (npm run build:driver builds it); Node side only`);
    return null;
  }
  const args = ['--platform', platformName];
  for (const key of ['width', 'height', 'frames', 'slots', 'repeats', 'kernel-iterations', 'check-frames']) args.push(`--${key}`, String(opts[key]));
  const t0 = Date.now();
  const child = spawnSync(opts.c, args, { encoding: 'utf8', maxBuffer: 1 << 24 });
  process.stderr.write(child.stderr ?? '');
  console.error(`bench: C side took ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  if (child.error || child.status !== 0) {
    console.error(`bench: the C program failed (${child.error?.message ?? `exit status ${child.status}`})`);
    return null;
  }
  return JSON.parse(child.stdout);
}

async function runNode(cl, platform, opts) {
  const { width, height, frames, slots: slotCount, repeats } = opts;
  const device = platform.getDevices().find((d) => d.type === 'gpu') ?? platform.getDevices()[0];
  if (!device) fail(`platform "${platform.name}" has no device`);
  const result = { program: 'overlap.mjs', platform: platform.name, device: device.name };
  // Without a compiler (the reference driver), the built-in copy_buffer stands in for the kernel: NV12 bytes in, the same out.
  const copyBuiltin = !device.compilerAvailable && device.builtInKernels.includes('copy_buffer');
  if (!device.compilerAvailable && !copyBuiltin) {
    result.skipped = 'the device has no OpenCL C compiler (CL_DEVICE_COMPILER_AVAILABLE is CL_FALSE) and no built-in copy_buffer kernel';
    return result;
  }
  result.kernel = copyBuiltin ? 'copy_buffer (built-in)' : 'nv12_to_rgba';
  const context = cl.createContext({ devices: [device] });
  const one = context.createQueue(device);
  const up = context.createQueue(device);
  const compute = context.createQueue(device);
  const down = context.createQueue(device);
  const program = copyBuiltin ? context.createProgramWithBuiltInKernels(['copy_buffer']) : context.createProgram(KERNEL_SOURCE);
  if (!copyBuiltin) await program.build();
  const kernel = program.createKernel(copyBuiltin ? 'copy_buffer' : 'nv12_to_rgba');

  const ySize = width * height,
    nv12Size = (ySize * 3) / 2,
    rgbaSize = ySize * 4;
  const global = copyBuiltin ? [nv12Size] : [width / 4, height];
  const localSize = !copyBuiltin && (width / 4) % 64 === 0 && height % 4 === 0 ? [64, 4] : undefined;
  if (!copyBuiltin)
    kernel
      .setArg(2, ySize / 4, 'uint')
      .setArg(3, width / 4, 'uint')
      .setArg(4, opts['kernel-iterations'], 'uint')
      .setArg(5, 0, 'uint');

  const fillInput = (bytes, v) => {
    for (let y = 0; y < height; y++) {
      const row = y * width;
      for (let x = 0; x < width; x++) bytes[row + x] = lumaAt(x, y, v);
    }
    for (let r = 0; r < height / 2; r++) {
      const row = ySize + r * width;
      for (let col = 0; col < width; col++) bytes[row + col] = chromaAt(col, r, v);
    }
  };
  const slots = [];
  for (let i = 0; i < slotCount; i++) {
    const slot = {
      dIn: context.createBuffer(nv12Size, { access: 'read' }),
      dOut: context.createBuffer(rgbaSize, { access: 'write' }),
      hIn: cl.allocateHostMemory(nv12Size),
      hOut: cl.allocateHostMemory(rgbaSize),
      read: null,
      frame: 0,
    };
    slot.inBytes = slot.hIn.bytes();
    slot.outWords = new Uint32Array(slot.hOut.buffer);
    fillInput(slot.inBytes, i);
    slot.outWords.fill(0);
    slots.push(slot);
  }

  let check = null;
  const verify = (words, v) => {
    let bad = 0;
    if (copyBuiltin) {
      const want = new Uint8Array(nv12Size);
      fillInput(want, v);
      const got = new Uint8Array(words.buffer, 0, nv12Size);
      for (let k = 0; k < nv12Size; k++) if (got[k] !== want[k]) bad++;
      check.frames++;
      check.pixels += nv12Size;
      check.mismatched_pixels += bad;
      if (bad) check.mismatched_frames++;
      return;
    }
    for (let y = 0; y < height; y++) {
      const r = y >> 1;
      for (let x = 0; x < width; x++) {
        const cx = x & ~1;
        const want = rgbaPixel(lumaAt(x, y, v), chromaAt(cx, r, v) - 128, chromaAt(cx + 1, r, v) - 128);
        if (words[y * width + x] !== want) bad++;
      }
    }
    check.frames++;
    check.pixels += width * height;
    check.mismatched_pixels += bad;
    if (bad) check.mismatched_frames++;
  };
  const finishSlot = async (slot) => {
    const read = slot.read;
    if (!read) return;
    slot.read = null;
    try {
      await read;
    } finally {
      read.release();
    }
    if (check) verify(slot.outWords, slot.frame);
  };

  const runFrames = async (three, count) => {
    const t0 = performance.now();
    for (let i = 0; i < count; i++) {
      const slot = slots[i % slotCount];
      const reuse = slot.read;
      if (reuse) {
        await reuse;
        if (check) verify(slot.outWords, slot.frame);
        slot.read = null;
      }
      if (check) {
        fillInput(slot.inBytes, i);
        slot.outWords.fill(0);
      }
      kernel.setArg(0, slot.dIn).setArg(1, slot.dOut);
      if (!three) {
        one.writeBuffer(slot.dIn, slot.hIn).release();
        one.enqueueKernel(kernel, global, { localSize }).release();
        slot.read = one.readBuffer(slot.dOut, slot.hOut);
        one.flush();
      } else {
        const w = up.writeBuffer(slot.dIn, slot.hIn, reuse ? { waitFor: [reuse] } : {});
        const k = compute.enqueueKernel(kernel, global, { localSize, waitFor: [w] });
        slot.read = down.readBuffer(slot.dOut, slot.hOut, { waitFor: [k] });
        up.flush();
        compute.flush();
        down.flush();
        w.release();
        k.release();
      }
      slot.frame = i;
      reuse?.release();
    }
    for (let i = count; i < count + slotCount; i++) await finishSlot(slots[i % slotCount]);
    return (performance.now() - t0) / 1000;
  };

  const stageMs = async (stage, count) => {
    const t0 = performance.now();
    for (let i = 0; i < count; i++) {
      const slot = slots[i % slotCount];
      if (stage === 0) one.writeBuffer(slot.dIn, slot.hIn).release();
      if (stage === 1) one.enqueueKernel(kernel.setArg(0, slot.dIn).setArg(1, slot.dOut), global, { localSize }).release();
      if (stage === 2) one.readBuffer(slot.dOut, slot.hOut).release();
    }
    await one.finish();
    return (performance.now() - t0) / count;
  };

  result.check = {};
  for (const [three, mode] of MODES.entries()) {
    check = { frames: 0, mismatched_frames: 0, mismatched_pixels: 0, pixels: 0 };
    if (opts['check-frames'] > 0) await runFrames(three, opts['check-frames']);
    result.check[mode.key] = check;
    console.error(`Node: check, ${mode.label}: ${check.frames} frames, ${check.mismatched_pixels} mismatched pixels of ${check.pixels}`);
    check = null;
  }
  slots.forEach((slot, i) => {
    fillInput(slot.inBytes, i);
  });

  const stageCount = Math.max(Math.floor(frames / 4), slotCount);
  const stages = [];
  for (let stage = 0; stage < 3; stage++) {
    await stageMs(stage, slotCount);
    stages.push(await stageMs(stage, stageCount));
  }
  result.stages_ms = { upload: stages[0], kernel: stages[1], readback: stages[2] };

  const warmup = Math.max(Math.floor(frames / 10), 2 * slotCount);
  await runFrames(0, warmup);
  await runFrames(1, warmup);
  const fps = [[], []];
  for (let r = 0; r < repeats; r++) for (const three of [0, 1]) fps[three].push(frames / (await runFrames(three, frames)));
  for (const [three, mode] of MODES.entries()) result[mode.key] = { fps: median(fps[three]), fps_runs: fps[three] };

  for (const slot of slots) for (const m of [slot.dIn, slot.dOut, slot.hIn, slot.hOut]) m.release();
  kernel.release();
  program.release();
  for (const q of [one, up, compute, down]) q.release();
  context.release();
  return result;
}

function report(c, node, opts) {
  const any = node ?? c;
  const lines = [];
  lines.push(`platform: ${any?.platform ?? 'n/a'}; device: ${any?.device ?? 'n/a'}`);
  const kernelName =
    any?.kernel === 'copy_buffer (built-in)'
      ? 'the built-in copy_buffer (NV12 bytes copied; checked as bytes)'
      : `nv12_to_rgba (kernel iterations ${opts['kernel-iterations']})`;
  lines.push(
    `${opts.width}x${opts.height} NV12 upload -> ${kernelName} -> RGBA-sized readback; ${opts.slots} slots; frames/s, median of ${opts.repeats} runs of ${opts.frames} frames`,
  );
  for (const [label, side] of [
    ['C', c],
    ['Node', node],
  ])
    if (side?.skipped) lines.push(`${label}: skipped: ${side.skipped}`);
  const ok = (side) => (side && !side.skipped ? side : null);
  const raw = { c, node };
  c = ok(c);
  node = ok(node);
  if (!c && !node) {
    console.log(lines.join('\n'));
    if (opts.json) console.log(JSON.stringify(raw));
    return;
  }
  const f0 = (x) => (x === undefined || x === null ? 'n/a' : x.toFixed(0));
  const ratio = (a, b) => (a && b ? `${(a / b).toFixed(3)}x` : 'n/a');
  lines.push('');
  lines.push('| schedule | C frames/s | Node frames/s | Node / C |');
  lines.push('|---|---|---|---|');
  for (const mode of MODES)
    lines.push(`| ${mode.label} | ${f0(c?.[mode.key].fps)} | ${f0(node?.[mode.key].fps)} | ${ratio(node?.[mode.key].fps, c?.[mode.key].fps)} |`);
  lines.push(`| three / one | ${ratio(c?.three_queues.fps, c?.one_queue.fps)} | ${ratio(node?.three_queues.fps, node?.one_queue.fps)} | |`);
  lines.push('');
  lines.push('| each stage alone, back to back on one queue (ms) | C | Node |');
  lines.push('|---|---|---|');
  const f3 = (x) => (x === undefined ? 'n/a' : x.toFixed(3));
  for (const stage of ['upload', 'kernel', 'readback']) lines.push(`| ${stage} | ${f3(c?.stages_ms[stage])} | ${f3(node?.stages_ms[stage])} |`);
  // What the stages alone allow: in sequence, and fully overlapped (the slowest stage).
  const bound = (side, overlapped) => {
    if (!side) return 'n/a';
    const s = side.stages_ms;
    return (1000 / (overlapped ? Math.max(s.upload, s.kernel, s.readback) : s.upload + s.kernel + s.readback)).toFixed(0);
  };
  lines.push(`| frames/s if the stages run one after another | ${bound(c, false)} | ${bound(node, false)} |`);
  lines.push(`| frames/s if they overlap fully (slowest stage) | ${bound(c, true)} | ${bound(node, true)} |`);
  lines.push('');
  lines.push('| check (per-frame input vs CPU reference) | C: frames, mismatched pixels | Node: frames, mismatched pixels |');
  lines.push('|---|---|---|');
  const ck = (side, key) => (side ? `${side.check[key].frames}, ${side.check[key].mismatched_pixels} of ${side.check[key].pixels}` : 'n/a');
  for (const mode of MODES) lines.push(`| ${mode.label} | ${ck(c, mode.key)} | ${ck(node, mode.key)} |`);
  console.log(lines.join('\n'));
  if (opts.json) console.log(JSON.stringify(raw));
  const bad = [c, node].some((side) => side && MODES.some((m) => side.check[m.key].mismatched_pixels > 0));
  if (bad) process.exitCode = 2;
}

await main();
