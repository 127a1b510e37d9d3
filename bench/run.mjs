#!/usr/bin/env node
// Per-call cost of the same OpenCL call sequences made from C
// (cmake-build/bench/opencl_bench_c) and through this package's public API,
// on the same platform and device, in one run. See bench/README.md.
//
//   node bench/run.mjs [--platform NAME] [--iterations N] [--repeats R] [--json] [--c PATH]
//
// Builds nothing: `npm run build` (addon + dist/) and
// `npm run build:driver` (CMake, which builds opencl_bench_c) come first;
// `npm run bench` does the latter for you.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

// Keep identical to kKernelSource in bench/opencl_bench.c (checked below).
const KERNEL_SOURCE =
  '__kernel void tiny(__global float* data, float a) {\n' +
  '  size_t i = get_global_id(0);\n' +
  '  data[i] = data[i] * 0.5f + a;\n' +
  '}\n';
const GLOBAL_SIZE = 64;
const WRITE_BYTES = 4096;

const SEQUENCES = [
  { key: 'setarg_enqueue_ns', label: 'setarg+enqueue' },
  { key: 'enqueue_wait_ns', label: 'enqueue+wait roundtrip' },
  { key: 'event_callback_ns', label: 'event callback roundtrip' },
  { key: 'write_4k_blocking_ns', label: 'write 4 KiB blocking' },
  // Node's side of both is `await` on a command (driver callback -> event loop -> promise);
  // C's side is the same await done by hand in two ways (see opencl_bench.c).
  { key: 'await_callback_epoll_ns', label: 'await vs C callback+eventfd+epoll' },
  { key: 'await_waiter_epoll_ns', label: 'await vs C waiter thread+eventfd+epoll' },
];

const { values: opts } = parseArgs({
  options: {
    platform: { type: 'string' },
    iterations: { type: 'string', default: '8000' },
    repeats: { type: 'string', default: '5' },
    json: { type: 'boolean', default: false },
    c: { type: 'string', default: join(root, 'cmake-build', 'bench', 'opencl_bench_c') },
    // For bench/instructions.mjs: one sequence, on one side.
    only: { type: 'string' },
    side: { type: 'string', default: 'both' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (opts.help) {
  console.log('usage: node bench/run.mjs [--platform NAME] [--iterations N] [--repeats R] [--json] [--c PATH]');
  process.exit(0);
}
if (opts.only && !SEQUENCES.some(({ key }) => key === opts.only)) fail(`--only must be one of ${SEQUENCES.map(({ key }) => key).join(', ')}`);
if (!['both', 'c', 'node'].includes(opts.side)) fail('--side must be both, c or node');
if (opts.only) SEQUENCES.splice(0, SEQUENCES.length, ...SEQUENCES.filter(({ key }) => key === opts.only));
const iterations = Number(opts.iterations);
const repeats = Number(opts.repeats);
if (!Number.isInteger(iterations) || iterations < 1) fail('--iterations must be a positive integer');
if (!Number.isInteger(repeats) || repeats < 1 || repeats > 99) fail('--repeats must be an integer from 1 to 99');
const warmup = Math.max(50, Math.floor(iterations / 10)); // same rule as the C side

function fail(message) {
  console.error(`bench: ${message}`);
  process.exit(1);
}
const note = (message) => console.error(`bench: ${message}`);

let cl;
try {
  cl = createRequire(import.meta.url)(join(root, 'dist', 'index.js'));
} catch (error) {
  fail(`cannot load dist/index.js (${error.message}); run \`npm run build\` first`);
}

// ---- pick the platform (the same one for C and Node) ----
const platforms = cl.getPlatforms();
if (platforms.length === 0) fail('no OpenCL platform found');
const wanted = opts.platform ?? (process.env.BENCH_PLATFORM || undefined);
const platform = wanted
  ? platforms.find((p) => p.name.includes(wanted))
  : (platforms.find((p) => p.name.includes('Portable')) ?? platforms[0]);
if (!platform) fail(`no platform whose name contains "${wanted}" (have: ${platforms.map((p) => p.name).join(', ')})`);
const device = platform.getDevices()[0];
if (!device) fail(`platform "${platform.name}" has no device`);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// ---- C side: one process per repetition, interleaved with the Node side ----
let cMissingNoted = false;
function runC() {
  if (!existsSync(opts.c)) {
    if (!cMissingNoted) {
      note(`C benchmark not found at ${relative(process.cwd(), opts.c) || opts.c}; build it with:`);
      note('  cmake -S . -B cmake-build -DCMAKE_BUILD_TYPE=Release && cmake --build cmake-build -j2 --target opencl_bench_c');
      note('  (or `npm run bench`, which runs `npm run build:driver` first). Running the Node side only.');
      cMissingNoted = true;
    }
    return null;
  }
  const args = ['--platform', platform.name, '--iterations', String(iterations), '--repeats', '1', ...(opts.only ? ['--only', opts.only] : [])];
  const child = spawnSync(opts.c, args, { encoding: 'utf8', env: { ...process.env, BENCH_PLATFORM: '' } });
  if (child.error || child.status !== 0) {
    note(`C benchmark failed (${child.error?.message ?? `exit status ${child.status}`}); running the Node side only`);
    if (child.stderr) process.stderr.write(child.stderr);
    return null;
  }
  const report = JSON.parse(child.stdout);
  if (report.kernel !== KERNEL_SOURCE) note('warning: the C and Node kernel sources differ; keep them identical');
  if (report.device !== device.name) note(`warning: C used device "${report.device}", Node "${device.name}"`);
  return report;
}

// ---- Node side: the same four sequences through the public API ----
async function setupNode() {
  const ctx = cl.createContext({ devices: [device] });
  const queue = ctx.createQueue(device);
  const program = ctx.createProgram(KERNEL_SOURCE);
  await program.build();
  const kernel = program.createKernel('tiny');
  const buffer = ctx.createBuffer(GLOBAL_SIZE * 4);
  const writeTarget = ctx.createBuffer(WRITE_BYTES);
  const host = new Float32Array(WRITE_BYTES / 4).map((_, i) => i);
  // Sequences b and c enqueue without setting args: set them once here.
  kernel.setArg(0, buffer);
  kernel.setArg(1, 1.5, 'float');
  queue.finishSync();

  const sequences = {
    setarg_enqueue_ns(n) {
      for (let i = 0; i < n; i++) {
        kernel.setArg(0, buffer);
        kernel.setArg(1, 1.5, 'float');
        queue.enqueueKernel(kernel, GLOBAL_SIZE).release();
      }
      queue.finishSync();
    },
    enqueue_wait_ns(n) {
      for (let i = 0; i < n; i++) {
        const event = queue.enqueueKernel(kernel, GLOBAL_SIZE);
        event.waitSync();
        event.release();
      }
    },
    async event_callback_ns(n) {
      for (let i = 0; i < n; i++) {
        const event = queue.enqueueKernel(kernel, GLOBAL_SIZE);
        const done = event.completed; // clSetEventCallback(CL_COMPLETE)
        queue.flush(); // as the C side: callbacks need the command flushed
        await done;
        event.release();
      }
    },
    write_4k_blocking_ns(n) {
      for (let i = 0; i < n; i++) queue.writeBuffer(writeTarget, host, { blocking: true }).release();
    },
    async await_callback_epoll_ns(n) {
      for (let i = 0; i < n; i++) {
        const event = queue.enqueueKernel(kernel, GLOBAL_SIZE);
        queue.flush();
        await event;
        event.release();
      }
    },
    await_waiter_epoll_ns(n) {
      return this.await_callback_epoll_ns(n);
    },
  };

  return {
    // One repetition of every sequence, each after its warm-up (as the C side).
    async once() {
      const perCall = {};
      for (const { key } of SEQUENCES) {
        await sequences[key](warmup);
        const t0 = process.hrtime.bigint();
        await sequences[key](iterations);
        perCall[key] = Number(process.hrtime.bigint() - t0) / iterations;
      }
      return perCall;
    },
    release() {
      for (const object of [writeTarget, buffer, kernel, program, queue, ctx]) object.release();
    },
  };
}

// ---- run: C then Node, `repeats` times, interleaved so that drift in the
// machine's state (CPU frequency, the driver's worker threads) hits both ----
const started = performance.now();
const nodeBench = opts.side === 'c' ? { once: async () => ({}), release() {} } : await setupNode();
const samples = { c: {}, node: {} };
for (const { key } of SEQUENCES) {
  samples.c[key] = [];
  samples.node[key] = [];
}
let cReport = null;
let cOk = opts.side !== 'node';
for (let r = 0; r < repeats; r++) {
  if (cOk) {
    const report = runC();
    if (report) {
      cReport = report;
      for (const { key } of SEQUENCES) samples.c[key].push(report.results[key]);
    } else {
      cOk = false;
    }
  }
  if (opts.side === 'c') continue;
  const perCall = await nodeBench.once();
  for (const { key } of SEQUENCES) samples.node[key].push(Math.round(perCall[key] * 10) / 10);
}
nodeBench.release();
const seconds = (performance.now() - started) / 1000;

const c = cOk && cReport ? { results: {}, samples: samples.c } : null;
const node = { results: {}, samples: samples.node };
for (const { key } of SEQUENCES) {
  if (c) c.results[key] = median(samples.c[key]);
  node.results[key] = median(samples.node[key]);
}

const ratio = {};
for (const { key } of SEQUENCES) {
  ratio[key] = c ? Math.round((node.results[key] / c.results[key]) * 100) / 100 : null;
}

if (opts.json) {
  console.log(
    JSON.stringify(
      {
        platform: platform.name,
        platformVersion: platform.version,
        device: device.name,
        node: process.version,
        iterations,
        repeats,
        warmup,
        seconds: Math.round(seconds * 10) / 10,
        c: c ? { results: c.results, samples: c.samples } : null,
        nodeApi: node,
        ratio,
      },
      null,
      2,
    ),
  );
} else {
  const fmt = (ns) => (ns == null ? 'n/a' : ns.toFixed(0));
  const rows = SEQUENCES.map(({ key, label }) => [
    label,
    fmt(c?.results[key]),
    fmt(node.results[key]),
    ratio[key] == null ? 'n/a' : `${ratio[key].toFixed(2)}x`,
  ]);
  const header = ['sequence', 'C ns/call', 'Node ns/call', 'ratio (Node/C)'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join(' | ');
  console.log(`platform: ${platform.name} (${platform.version})`);
  console.log(`device:   ${device.name}`);
  console.log(`node:     ${process.version}   iterations: ${iterations}   median of ${repeats} interleaved repeats (C, Node, C, ...)   warm-up: ${warmup}`);
  console.log('');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const row of rows) console.log(line(row));
  console.log('');
  console.log(`total ${seconds.toFixed(1)} s`);
}
