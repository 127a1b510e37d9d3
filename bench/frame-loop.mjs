#!/usr/bin/env node
// The VA-API frame loop, C (cmake-build/bench/frame_loop_c) vs this package's
// public API, on the same OpenCL platform, the same VA driver and the same
// surface size, in one run. See bench/README.md ("The frame loop").
//
//   node bench/frame-loop.mjs [--platform NAME] [--width W] [--height H] [--iterations N]
//                             [--repeats R] [--json] [--c PATH] [--x11-display NAME]
//
// One frame: acquire the two planes of an NV12 VA surface (two CL images),
// set the three arguments of nv12_to_rgba (Y, UV, an RGBA image), enqueue it
// over W x H, release the planes, wait for the release. Unless
// --x11-display is given, an Xvfb is started for libva's X11 display; unless
// LIBVA_DRIVER_NAME is set, libva loads the repository's software VA driver
// (softva, cmake-build/va-drivers); unless OCL_ICD_VENDORS is set, the ICD
// loader reads cmake-build/vendors (the reference driver, and PoCL when
// installed). `npm run build` and `npm run build:driver` come first.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { FRAME_LOOP_C, FRAME_PLATFORM, FRAME_SEQUENCES, frameLoopEnv, startXvfb } from './frame-support.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const EXTENSION = 'cl_intel_va_api_media_sharing';

// Built only where the device has a compiler; the reference driver has this
// kernel built in. Keep identical to kNv12ToRgbaSource in bench/frame_loop.c.
const NV12_TO_RGBA_SOURCE =
  '__kernel void nv12_to_rgba(read_only image2d_t y, read_only image2d_t uv, write_only image2d_t rgba) {\n' +
  '  const sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;\n' +
  '  int2 p = (int2)(get_global_id(0), get_global_id(1));\n' +
  '  float luma = read_imagef(y, nearest, p).x - 16.0f / 255.0f;\n' +
  '  float2 chroma = read_imagef(uv, nearest, p / 2).xy - 0.5f;\n' +
  '  float4 rgb = (float4)(1.164f * luma + 1.596f * chroma.y,\n' +
  '                        1.164f * luma - 0.392f * chroma.x - 0.813f * chroma.y,\n' +
  '                        1.164f * luma + 2.017f * chroma.x, 1.0f);\n' +
  '  write_imagef(rgba, p, clamp(rgb, 0.0f, 1.0f));\n' +
  '}\n';

const SEQUENCES = [...FRAME_SEQUENCES];

const { values: opts } = parseArgs({
  options: {
    platform: { type: 'string', default: FRAME_PLATFORM },
    width: { type: 'string', default: '64' },
    height: { type: 'string', default: '64' },
    iterations: { type: 'string', default: '2000' },
    repeats: { type: 'string', default: '5' },
    json: { type: 'boolean', default: false },
    c: { type: 'string', default: FRAME_LOOP_C },
    'x11-display': { type: 'string' },
    // For bench/instructions.mjs: one sequence, on one side.
    only: { type: 'string' },
    side: { type: 'string', default: 'both' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (opts.help) {
  console.log('usage: node bench/frame-loop.mjs [--platform NAME] [--width W] [--height H] [--iterations N] [--repeats R] [--json]');
  console.log('                                 [--c PATH] [--x11-display NAME] [--only SEQUENCE] [--side both|c|node]');
  console.log(`sequences: ${SEQUENCES.map(({ key }) => key).join(', ')}`);
  process.exit(0);
}
const fail = (message) => {
  console.error(`bench: ${message}`);
  process.exit(1);
};
const note = (message) => console.error(`bench: ${message}`);
if (opts.only && !SEQUENCES.some(({ key }) => key === opts.only)) fail(`--only must be one of ${SEQUENCES.map(({ key }) => key).join(', ')}`);
if (!['both', 'c', 'node'].includes(opts.side)) fail('--side must be both, c or node');
if (opts.only) SEQUENCES.splice(0, SEQUENCES.length, ...SEQUENCES.filter(({ key }) => key === opts.only));
const [width, height, iterations, repeats] = ['width', 'height', 'iterations', 'repeats'].map((name) => Number(opts[name]));
for (const [name, value] of Object.entries({ width, height }))
  if (!Number.isInteger(value) || value < 2 || value % 2) fail(`--${name} must be an even integer >= 2`);
if (!Number.isInteger(iterations) || iterations < 1) fail('--iterations must be a positive integer');
if (!Number.isInteger(repeats) || repeats < 1 || repeats > 99) fail('--repeats must be an integer from 1 to 99');
const warmup = Math.max(50, Math.floor(iterations / 10)); // same rule as the C side

// ---- the environment both sides run in (set before OpenCL or libva loads) ----
try {
  Object.assign(process.env, frameLoopEnv());
} catch (error) {
  fail(error.message);
}

let cl;
try {
  cl = createRequire(import.meta.url)(join(root, 'dist', 'index.js'));
} catch (error) {
  fail(`cannot load dist/index.js (${error.message}); run \`npm run build\` first`);
}

const xvfb = opts['x11-display'] ? null : await startXvfb().catch((error) => fail(error.message));
const x11Display = opts['x11-display'] ?? xvfb.display;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// ---- C side: one process per repetition, interleaved with the Node side ----
const cKeys = [...new Set(SEQUENCES.map(({ cKey }) => cKey))];
function runC() {
  if (!existsSync(opts.c)) {
    note(
      `C frame loop not found at ${relative(process.cwd(), opts.c) || opts.c}: run npm run build:driver (needs libva-dev, libx11-dev). Running the Node side only.`,
    );
    return null;
  }
  const only = cKeys.length === 1 ? ['--only', cKeys[0]] : [];
  const args = [
    '--platform',
    opts.platform,
    '--x11-display',
    x11Display,
    '--width',
    String(width),
    '--height',
    String(height),
    '--iterations',
    String(iterations),
    '--repeats',
    '1',
    ...only,
  ];
  const child = spawnSync(opts.c, args, { encoding: 'utf8' });
  if (child.error || child.status !== 0) {
    note(`C frame loop failed (${child.error?.message ?? `exit status ${child.status}`}); running the Node side only`);
    if (child.stderr) process.stderr.write(child.stderr);
    return null;
  }
  const report = JSON.parse(child.stdout);
  if (report.kernel !== NV12_TO_RGBA_SOURCE) note('warning: the C and Node NV12 kernel sources differ; keep them identical');
  return report;
}

// ---- Node side: the same frames through the public API ----
async function setupNode() {
  const display = cl.openVaDisplay({ kind: 'x11', x11Display });
  const surface = display.createSurface({ width, height, format: 'NV12' });
  const platform = cl.getPlatforms().find((p) => p.name.includes(opts.platform));
  if (!platform)
    fail(
      `no platform whose name contains "${opts.platform}" (have: ${cl
        .getPlatforms()
        .map((p) => p.name)
        .join(', ')})`,
    );
  if (!platform.supports(EXTENSION)) fail(`platform "${platform.name}" has no ${EXTENSION}`);
  const va = platform.getSharing(EXTENSION);
  const context = va.createContext(display);
  const device = context.devices[0];
  const queue = context.createQueue(device);
  let program;
  if (device.compilerAvailable) {
    program = context.createProgram(NV12_TO_RGBA_SOURCE);
    await program.build();
  } else {
    program = context.createProgramWithBuiltInKernels(['nv12_to_rgba']);
  }
  const kernel = program.createKernel('nv12_to_rgba');
  const rgba = context.createImage({ format: { order: 'RGBA', type: 'UNORM_INT8' }, width, height, access: 'write' });
  let [y, uv] = va.createFromNV12Surface(context, surface, { access: 'read' });
  const globalSize = [width, height];

  // The body of `await using scope = queue.acquire([y, uv]); ...` (Node 20
  // cannot parse `await using`; its end of block is the asyncDispose call:
  // enqueue the release, flush, await it, release both events).
  async function frame(luma, chroma) {
    const scope = queue.acquire([luma, chroma]);
    kernel.setArgs(luma, chroma, rgba);
    queue.enqueueKernel(kernel, globalSize).release();
    await scope[Symbol.asyncDispose]();
  }

  const sequences = {
    async frame_wait_ns(n) {
      for (let i = 0; i < n; i++) await frame(y, uv);
    },
    frame_epoll_ns(n) {
      return this.frame_wait_ns(n);
    },
    async frame_with_acquired_ns(n) {
      for (let i = 0; i < n; i++) {
        await queue.withAcquired([y, uv], () => {
          kernel.setArgs(y, uv, rgba);
          queue.enqueueKernel(kernel, globalSize).release();
        });
      }
    },
    async frame_create_ns(n) {
      y.release();
      uv.release();
      for (let i = 0; i < n; i++) {
        [y, uv] = va.createFromNV12Surface(context, surface, { access: 'read' });
        await frame(y, uv);
        y.release();
        uv.release();
      }
      [y, uv] = va.createFromNV12Surface(context, surface, { access: 'read' });
    },
  };

  return {
    platform,
    device,
    vendor: display.vendor,
    // One repetition of every sequence, each after its warm-up (as the C side).
    async once() {
      const perFrame = {};
      for (const { key } of SEQUENCES) {
        await sequences[key](warmup);
        const t0 = process.hrtime.bigint();
        await sequences[key](iterations);
        perFrame[key] = Number(process.hrtime.bigint() - t0) / iterations;
      }
      return perFrame;
    },
    release() {
      for (const object of [y, uv, rgba, kernel, program, queue, context]) object.release();
      surface.dispose();
      display.dispose();
    },
  };
}

// ---- run: C then Node, `repeats` times, interleaved ----
const started = performance.now();
const nodeBench = opts.side === 'c' ? null : await setupNode();
const samples = { c: {}, node: {} };
for (const { key, cKey } of SEQUENCES) {
  samples.c[cKey] = [];
  samples.node[key] = [];
}
let cReport = null;
let cOk = opts.side !== 'node';
for (let r = 0; r < repeats; r++) {
  if (cOk) {
    const report = runC();
    if (report) {
      cReport = report;
      for (const cKey of cKeys) samples.c[cKey].push(report.results[cKey]);
    } else {
      cOk = false;
    }
  }
  if (!nodeBench) continue;
  const perFrame = await nodeBench.once();
  for (const { key } of SEQUENCES) samples.node[key].push(Math.round(perFrame[key] * 10) / 10);
}
nodeBench?.release();
xvfb?.stop();
const seconds = (performance.now() - started) / 1000;

if (cReport && nodeBench && cReport.device !== nodeBench.device.name)
  note(`warning: C used device "${cReport.device}", Node "${nodeBench.device.name}"`);
const c = cOk && cReport ? Object.fromEntries(cKeys.map((cKey) => [cKey, median(samples.c[cKey])])) : null;
const node = nodeBench ? Object.fromEntries(SEQUENCES.map(({ key }) => [key, median(samples.node[key])])) : null;
const ratio = Object.fromEntries(SEQUENCES.map(({ key, cKey }) => [key, c && node ? Math.round((node[key] / c[cKey]) * 100) / 100 : null]));

if (opts.json) {
  console.log(
    JSON.stringify(
      {
        platform: nodeBench?.platform.name ?? cReport?.platform,
        device: nodeBench?.device.name ?? cReport?.device,
        vaVendor: nodeBench?.vendor ?? cReport?.va_vendor,
        node: process.version,
        width,
        height,
        iterations,
        repeats,
        warmup,
        seconds: Math.round(seconds * 10) / 10,
        compares: Object.fromEntries(SEQUENCES.map(({ key, cKey }) => [key, cKey])),
        c: c && { results: c, samples: samples.c },
        nodeApi: node && { results: node, samples: samples.node },
        ratio,
      },
      null,
      2,
    ),
  );
} else {
  const fmt = (ns) => (ns == null ? 'n/a' : ns.toFixed(0));
  const rows = SEQUENCES.map(({ key, cKey, label }) => [
    label,
    fmt(c?.[cKey]),
    fmt(node?.[key]),
    ratio[key] == null ? 'n/a' : `${ratio[key].toFixed(2)}x`,
  ]);
  const header = ['sequence', 'C ns/frame', 'Node ns/frame', 'ratio (Node/C)'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join(' | ');
  console.log(`platform: ${nodeBench?.platform.name ?? cReport?.platform}`);
  console.log(`device:   ${nodeBench?.device.name ?? cReport?.device}`);
  console.log(`VA:       ${nodeBench?.vendor ?? cReport?.va_vendor} on X11 ${x11Display}`);
  console.log(`frame:    NV12 ${width}x${height} -> RGBA (nv12_to_rgba)`);
  console.log(
    `node:     ${process.version}   iterations: ${iterations}   median of ${repeats} interleaved repeats (C, Node, C, ...)   warm-up: ${warmup}`,
  );
  console.log('');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const row of rows) console.log(line(row));
  console.log('');
  console.log(`total ${seconds.toFixed(1)} s`);
}
