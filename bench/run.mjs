#!/usr/bin/env node
// Per-call cost of the same OpenCL call sequences made from C
// (cmake-build/bench/opencl_bench_c), through this package's public API and,
// where it is installed, through pyopencl (bench/pyopencl_bench.py), on the
// same platform and device, in one run. See bench/README.md.
//
//   node bench/run.mjs [--platform NAME] [--iterations N] [--big-iterations N] [--repeats R]
//                      [--json] [--c PATH] [--python PATH | --no-python]
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
  '__kernel void tiny(__global float* data, float a) {\n' + '  size_t i = get_global_id(0);\n' + '  data[i] = data[i] * 0.5f + a;\n' + '}\n';
const GLOBAL_SIZE = 64;
const WRITE_BYTES = 4096;
const BIG_BYTES = 64 << 20;

const SEQUENCES = [
  { key: 'setarg_enqueue_ns', label: 'setarg+enqueue' },
  { key: 'enqueue_wait_ns', label: 'enqueue+wait roundtrip' },
  { key: 'event_callback_ns', label: 'event callback roundtrip' },
  { key: 'write_4k_blocking_ns', label: 'write 4 KiB blocking' },
  // Node's side of both is `await` on a command (driver callback -> event loop -> promise);
  // C's side is the same await done by hand in two ways (see opencl_bench.c).
  { key: 'await_callback_epoll_ns', label: 'await vs C callback+eventfd+epoll' },
  { key: 'await_waiter_epoll_ns', label: 'await vs C waiter thread+eventfd+epoll' },
  // 64 MiB each, --big-iterations times: reported as bandwidth too.
  { key: 'write_64m_ns', label: 'write 64 MiB, page-aligned, non-blocking + wait', big: true },
  { key: 'read_64m_ns', label: 'read 64 MiB, page-aligned, non-blocking + wait', big: true },
  { key: 'write_64m_blocking_ns', label: 'write 64 MiB blocking, plain memory', big: true },
  { key: 'read_64m_blocking_ns', label: 'read 64 MiB blocking, plain memory', big: true },
];

const { values: opts } = parseArgs({
  options: {
    platform: { type: 'string' },
    iterations: { type: 'string', default: '8000' },
    'big-iterations': { type: 'string', default: '20' },
    repeats: { type: 'string', default: '5' },
    json: { type: 'boolean', default: false },
    c: { type: 'string', default: join(root, 'cmake-build', 'bench', 'opencl_bench_c') },
    // The interpreter for the pyopencl column (default: the first of python3,
    // /usr/bin/python3 that imports pyopencl; none: the column reads n/a).
    python: { type: 'string' },
    'no-python': { type: 'boolean', default: false },
    // For bench/instructions.mjs: one sequence, on one side.
    only: { type: 'string' },
    side: { type: 'string', default: 'both' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (opts.help) {
  console.log('usage: node bench/run.mjs [--platform NAME] [--iterations N] [--big-iterations N] [--repeats R] [--json] [--c PATH]');
  console.log('                         [--python PATH | --no-python] [--only SEQUENCE] [--side both|c|node|python]');
  process.exit(0);
}
if (opts.only && !SEQUENCES.some(({ key }) => key === opts.only)) fail(`--only must be one of ${SEQUENCES.map(({ key }) => key).join(', ')}`);
if (!['both', 'c', 'node', 'python'].includes(opts.side)) fail('--side must be both, c, node or python');
if (opts.only) SEQUENCES.splice(0, SEQUENCES.length, ...SEQUENCES.filter(({ key }) => key === opts.only));
const iterations = Number(opts.iterations);
const bigIterations = Number(opts['big-iterations']);
const repeats = Number(opts.repeats);
if (!Number.isInteger(iterations) || iterations < 1) fail('--iterations must be a positive integer');
if (!Number.isInteger(bigIterations) || bigIterations < 1) fail('--big-iterations must be a positive integer');
if (!Number.isInteger(repeats) || repeats < 1 || repeats > 99) fail('--repeats must be an integer from 1 to 99');
// Same rules as the C side.
const warmup = Math.max(50, Math.floor(iterations / 10));
const bigWarmup = Math.max(2, Math.floor(bigIterations / 10));
const runs = (sequence) => (sequence.big ? bigIterations : iterations);
const runSides = (side) => opts.side === 'both' || opts.side === side;

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
const platform = wanted ? platforms.find((p) => p.name.includes(wanted)) : (platforms.find((p) => p.name.includes('Portable')) ?? platforms[0]);
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
  const args = [
    '--platform',
    platform.name,
    '--iterations',
    String(iterations),
    '--big-iterations',
    String(bigIterations),
    '--repeats',
    '1',
    ...(opts.only ? ['--only', opts.only] : []),
  ];
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

// ---- pyopencl side (optional): one process per repetition too ----
function findPython() {
  if (opts['no-python'] || !runSides('python')) return null;
  const candidates = opts.python ? [opts.python] : process.env.BENCH_PYTHON ? [process.env.BENCH_PYTHON] : ['python3', '/usr/bin/python3'];
  for (const python of candidates) {
    const probe = spawnSync(python, ['-c', 'import pyopencl, numpy'], { encoding: 'utf8' });
    if (probe.status === 0) return python;
  }
  note(`pyopencl is not importable by ${candidates.join(' or ')}; the pyopencl column reads n/a (Debian: apt-get install python3-pyopencl)`);
  return null;
}

function runPython(python) {
  const args = [
    join(here, 'pyopencl_bench.py'),
    '--platform',
    platform.name,
    '--iterations',
    String(iterations),
    '--big-iterations',
    String(bigIterations),
    '--repeats',
    '1',
  ];
  // pyopencl has no counterpart for some sequences; --only of one of those runs nothing.
  if (opts.only) args.push('--only', opts.only);
  const child = spawnSync(python, args, { encoding: 'utf8', env: { ...process.env, PYOPENCL_COMPILER_OUTPUT: '0' } });
  if (child.error || child.status !== 0) {
    note(`pyopencl benchmark failed (${child.error?.message ?? `exit status ${child.status}`}); the pyopencl column reads n/a`);
    if (child.stderr) process.stderr.write(child.stderr);
    return null;
  }
  const report = JSON.parse(child.stdout);
  if (report.kernel !== KERNEL_SOURCE) note('warning: the pyopencl and Node kernel sources differ; keep them identical');
  if (report.device !== device.name) note(`warning: pyopencl used device "${report.device}", Node "${device.name}"`);
  return report;
}

// ---- Node side: the same sequences through the public API ----
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

  // Made before the first 64 MiB sequence only, as on the C side. Every page
  // is touched now, so no sequence pays for first-touch faults.
  let big = null;
  const setupBig = () => {
    big = { target: ctx.createBuffer(BIG_BYTES), hostMemory: cl.allocateHostMemory(BIG_BYTES), plain: new Uint8Array(BIG_BYTES) };
    big.hostMemory.bytes().fill(1);
    big.plain.fill(1);
  };
  // Non-blocking from HostMemory (used in place, zero copy), awaited as a user would.
  async function transferAwaited(move, n) {
    for (let i = 0; i < n; i++) {
      const event = move(big.target, big.hostMemory);
      queue.flush();
      await event;
      event.release();
    }
  }
  const writeBuffer = queue.writeBuffer.bind(queue);
  const readBuffer = queue.readBuffer.bind(queue);

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
    write_64m_ns: (n) => transferAwaited(writeBuffer, n),
    read_64m_ns: (n) => transferAwaited(readBuffer, n),
    write_64m_blocking_ns(n) {
      for (let i = 0; i < n; i++) queue.writeBuffer(big.target, big.plain, { blocking: true }).release();
    },
    read_64m_blocking_ns(n) {
      for (let i = 0; i < n; i++) queue.readBuffer(big.target, big.plain, { blocking: true }).release();
    },
  };

  return {
    // One repetition of every sequence, each after its warm-up (as the C side).
    async once() {
      const perCall = {};
      for (const sequence of SEQUENCES) {
        const { key } = sequence;
        if (sequence.big && !big) setupBig();
        await sequences[key](sequence.big ? bigWarmup : warmup);
        const t0 = process.hrtime.bigint();
        await sequences[key](runs(sequence));
        perCall[key] = Number(process.hrtime.bigint() - t0) / runs(sequence);
      }
      return perCall;
    },
    release() {
      if (big) for (const object of [big.hostMemory, big.target]) object.release();
      for (const object of [writeTarget, buffer, kernel, program, queue, ctx]) object.release();
    },
  };
}

// ---- run: C, Node, pyopencl, `repeats` times, interleaved so that drift in
// the machine's state (CPU frequency, the driver's worker threads) hits all ----
const started = performance.now();
const python = findPython();
const nodeBench = runSides('node') ? await setupNode() : null;
const samples = { c: {}, node: {}, pyopencl: {} };
for (const { key } of SEQUENCES) {
  for (const side of Object.values(samples)) side[key] = [];
}
let cOk = runSides('c');
let cReport = null;
let pyReport = null;
let pyOk = python !== null;
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
  if (nodeBench) {
    const perCall = await nodeBench.once();
    for (const { key } of SEQUENCES) samples.node[key].push(Math.round(perCall[key] * 10) / 10);
  }
  if (pyOk) {
    const report = runPython(python);
    if (report) {
      pyReport = report;
      for (const { key } of SEQUENCES) if (key in report.results) samples.pyopencl[key].push(report.results[key]);
    } else {
      pyOk = false;
    }
  }
}
nodeBench?.release();
const seconds = (performance.now() - started) / 1000;

// Per side: { results: { key: median ns }, samples } or null when the side did not run.
function summarize(side, ran) {
  if (!ran) return null;
  const results = {};
  for (const { key } of SEQUENCES) results[key] = samples[side][key].length ? median(samples[side][key]) : null;
  return { results, samples: samples[side] };
}
const c = summarize('c', cOk && cReport);
const node = summarize('node', nodeBench);
const pyopencl = summarize('pyopencl', pyOk && pyReport);

const round2 = (x) => Math.round(x * 100) / 100;
const ratioTo = (side) => {
  const ratio = {};
  for (const { key } of SEQUENCES) {
    const ns = side?.results[key];
    ratio[key] = ns != null && c?.results[key] ? round2(ns / c.results[key]) : null;
  }
  return ratio;
};
const ratio = ratioTo(node);
const pyopenclRatio = ratioTo(pyopencl);
// GB/s (10^9 bytes per second) of the 64 MiB sequences: bytes per ns.
const bandwidth = (side) =>
  side &&
  Object.fromEntries(
    SEQUENCES.filter((s) => s.big).map(({ key }) => [key, side.results[key] == null ? null : round2(BIG_BYTES / side.results[key])]),
  );

if (opts.json) {
  console.log(
    JSON.stringify(
      {
        platform: platform.name,
        platformVersion: platform.version,
        device: device.name,
        node: process.version,
        pyopenclVersion: pyReport ? `${pyReport.pyopencl} (Python ${pyReport.python})` : null,
        iterations,
        bigIterations,
        bigBytes: BIG_BYTES,
        repeats,
        warmup,
        bigWarmup,
        seconds: Math.round(seconds * 10) / 10,
        c: c && { ...c, gbPerSecond: bandwidth(c) },
        nodeApi: node && { ...node, gbPerSecond: bandwidth(node) },
        pyopencl: pyopencl && { ...pyopencl, gbPerSecond: bandwidth(pyopencl) },
        ratio,
        pyopenclRatio,
      },
      null,
      2,
    ),
  );
} else {
  const printTable = (header, rows) => {
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
    const line = (cells) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join(' | ');
    console.log(line(header));
    console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
    for (const row of rows) console.log(line(row));
  };
  const ns = (side, key) => (side?.results[key] == null ? 'n/a' : side.results[key].toFixed(0));
  const times = (r) => (r == null ? 'n/a' : `${r.toFixed(2)}x`);
  const small = SEQUENCES.filter((s) => !s.big);
  const big = SEQUENCES.filter((s) => s.big);
  console.log(`platform: ${platform.name} (${platform.version})`);
  console.log(`device:   ${device.name}`);
  console.log(`node:     ${process.version}   pyopencl: ${pyReport ? `${pyReport.pyopencl} (Python ${pyReport.python})` : 'n/a'}`);
  console.log(`median of ${repeats} interleaved repeats (C, Node, pyopencl, C, ...)`);
  if (small.length) {
    console.log(`\nper call: ${iterations} iterations, warm-up ${warmup}\n`);
    printTable(
      ['sequence', 'C ns/call', 'Node ns/call', 'pyopencl ns/call', 'Node/C', 'pyopencl/C'],
      small.map(({ key, label }) => [label, ns(c, key), ns(node, key), ns(pyopencl, key), times(ratio[key]), times(pyopenclRatio[key])]),
    );
  }
  if (big.length) {
    const [cGB, nodeGB, pyGB] = [c, node, pyopencl].map(bandwidth);
    const cell = (side, gb, key) => (side?.results[key] == null ? 'n/a' : `${(side.results[key] / 1e6).toFixed(2)} ms ${gb[key].toFixed(2)} GB/s`);
    // Bandwidth ratio: above 1.00x the other side moves bytes faster than C.
    const faster = (gb, key) => (gb?.[key] != null && cGB?.[key] ? times(gb[key] / cGB[key]) : 'n/a');
    console.log(`\n64 MiB transfers: ${bigIterations} iterations, warm-up ${bigWarmup}; bandwidth ratio = side's GB/s / C's GB/s\n`);
    printTable(
      ['sequence', 'C', 'Node', 'pyopencl', 'Node/C GB/s', 'pyopencl/C GB/s'],
      big.map(({ key, label }) => [
        label,
        cell(c, cGB, key),
        cell(node, nodeGB, key),
        cell(pyopencl, pyGB, key),
        faster(nodeGB, key),
        faster(pyGB, key),
      ]),
    );
  }
  console.log('');
  console.log(`total ${seconds.toFixed(1)} s`);
}
