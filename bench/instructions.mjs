#!/usr/bin/env node
// Instructions per call, C vs this binding, counted by callgrind: unlike
// wall time, the count does not move with other load on a shared machine.
// Each side runs one sequence at two iteration counts in its own process
// under `valgrind --tool=callgrind`; the difference of the two totals over the
// difference of the iterations (warm-ups included) cancels start-up, program
// build and JIT warm-up. Every thread is counted (the driver's too), on both
// sides alike. The defaults (6000 and 16000) start after V8 has optimized the
// loop: with 2000 and 6000, optimizing compilations that land between the two
// counts added 3-6 k instructions per iteration to the Node side. Each count is
// the least of --runs runs (default 2).
//
//   node bench/instructions.mjs [--platform NAME] [--sequences a,b] [--low N] [--high N] [--runs R]
//   node bench/instructions.mjs --sequences await_waiter_epoll_ns,await_callback_epoll_ns
//
// The await sequences (await_callback_epoll_ns, await_waiter_epoll_ns: enqueue,
// flush, await, release) run the Node side with the completion mechanism of
// the C twin they are compared with (OPENCL_INTEROP_COMPLETION=callback or
// waiter), whatever the driver's default.
//
// The VA-API frame loop's sequences (frame_*, bench/frame-loop.mjs) count
// frame_loop_c against frame-loop.mjs, on the frame loop's platform (the
// reference driver) and an Xvfb started here.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { FRAME_LOOP_C, FRAME_PLATFORM, FRAME_SEQUENCES, frameLoopEnv, startXvfb } from './frame-support.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: opts } = parseArgs({
  options: {
    platform: { type: 'string', default: 'Portable' },
    sequences: { type: 'string', default: 'setarg_enqueue_ns,write_4k_blocking_ns' },
    low: { type: 'string', default: '6000' },
    high: { type: 'string', default: '16000' },
    c: { type: 'string', default: join(root, 'cmake-build', 'bench', 'opencl_bench_c') },
    runs: { type: 'string', default: '2' },
  },
});
const runs = Number(opts.runs);
if (!(Number.isInteger(runs) && runs > 0)) {
  console.error(`bench: --runs takes a whole number of runs per count, at least 1; got ${opts.runs}`);
  process.exit(1);
}
const low = Number(opts.low);
const high = Number(opts.high);
if (!(Number.isInteger(low) && Number.isInteger(high) && high > low && low > 0)) {
  console.error('bench: --low and --high must be integers with high > low > 0');
  process.exit(1);
}
if (spawnSync('valgrind', ['--version']).status !== 0) {
  console.error('bench: valgrind is needed (apt-get install valgrind)');
  process.exit(1);
}
if (!existsSync(opts.c)) {
  console.error(`bench: no C benchmark at ${opts.c}: run npm run build:driver`);
  process.exit(1);
}
const warmup = (n) => Math.max(50, Math.floor(n / 10)); // as run.mjs and the C side

function instructions(command, args, env = process.env) {
  const result = spawnSync('valgrind', ['--tool=callgrind', '--callgrind-out-file=/dev/null', command, ...args], {
    encoding: 'utf8',
    env: { ...env, BENCH_PLATFORM: '' },
  });
  const collected = /Collected : (\d+)/.exec(result.stderr);
  if (result.status !== 0 || !collected) {
    console.error(result.stderr.split('\n').slice(-15).join('\n'));
    throw new Error(`${command} under callgrind failed (status ${result.status})`);
  }
  return Number(collected[1]);
}

// The completion mechanism the Node side of a sequence must use to match its C twin.
const completionOf = { await_callback_epoll_ns: 'callback', await_waiter_epoll_ns: 'waiter' };

const frameSequences = new Map(FRAME_SEQUENCES.map((sequence) => [sequence.key, sequence]));
let frameDisplay = null; // { env, xvfb }: made for the first frame sequence

async function frameLoopSetup() {
  if (!frameDisplay) {
    if (!existsSync(FRAME_LOOP_C)) throw new Error(`no C frame loop at ${FRAME_LOOP_C}: run npm run build:driver (needs libva-dev, libx11-dev)`);
    frameDisplay = { env: frameLoopEnv(), xvfb: await startXvfb() };
  }
  return frameDisplay;
}

async function perCall(side, sequence) {
  const frame = frameSequences.get(sequence);
  const { env, xvfb } = frame ? await frameLoopSetup() : { env: process.env };
  const common = (n) => ['--iterations', String(n), '--repeats', '1'];
  const frameArgs = frame ? ['--platform', FRAME_PLATFORM, '--x11-display', xvfb.display] : [];
  const run = (n) =>
    frame
      ? side === 'c'
        ? instructions(FRAME_LOOP_C, [...frameArgs, ...common(n), '--only', frame.cKey], env)
        : instructions(
            process.execPath,
            ['--single-threaded', join(root, 'bench', 'frame-loop.mjs'), ...frameArgs, '--side', 'node', '--only', sequence, ...common(n)],
            env,
          )
      : side === 'c'
        ? instructions(opts.c, ['--platform', opts.platform, ...common(n), '--only', sequence])
        : instructions(
            process.execPath,
            ['--single-threaded', join(root, 'bench', 'run.mjs'), '--platform', opts.platform, '--side', 'node', '--only', sequence, ...common(n)],
            completionOf[sequence] ? { ...process.env, OPENCL_INTEROP_COMPLETION: completionOf[sequence] } : process.env,
          );
  run(50); // a first run fills the driver's program cache (a kernel build is billions of instructions)
  // The least of --runs counts at each size: now and then one run carries billions more (on PoCL, twice in
  // about twenty runs: 2.1 and 5.2 G, which made one figure negative and another 36x), and nothing in a run
  // takes fewer instructions than the sequence itself.
  const least = (n) => Math.min(...Array.from({ length: runs }, () => run(n)));
  const a = least(low);
  const b = least(high);
  return (b - a) / (high + warmup(high) - (low + warmup(low)));
}

const framePlatform = opts.sequences.split(',').some((sequence) => frameSequences.has(sequence)) ? ` (frame_*: "${FRAME_PLATFORM}")` : '';
console.log(
  `platform matching "${opts.platform}"${framePlatform}; instructions per call = (I(${high}) - I(${low})) / iterations between, callgrind, all threads\n`,
);
console.log('sequence               | C instr/call | Node instr/call | ratio');
console.log('-----------------------|--------------|-----------------|------');
for (const sequence of opts.sequences.split(',')) {
  const c = await perCall('c', sequence);
  const node = await perCall('node', sequence);
  console.log(
    `${sequence.padEnd(22)} | ${Math.round(c).toString().padStart(12)} | ${Math.round(node).toString().padStart(15)} | ${(node / c).toFixed(2)}x`,
  );
}
frameDisplay?.xvfb.stop();
