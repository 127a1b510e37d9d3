#!/usr/bin/env node
// The OpenCL side of one frame of bench/external-pipeline.mjs through the
// package, on the reference driver (no GPU needed), counted in instructions by
// callgrind: a wait on an imported semaphore, the acquire of two imported
// buffers, 2 setArg + one kernel enqueue, the release, a signal, a flush.
// Each sequence runs at two iteration counts in its own process under
// `valgrind --tool=callgrind`; (high total - low total) / (high - low) is the
// cost of one iteration, start-up and JIT warm-up cancelled (as
// bench/instructions.mjs does). Every thread is counted, the driver's too.
//
//   node bench/external-calls.mjs [--sequences frame,acquire_release,signal_wait,kernel] [--low N] [--high N] [--json]
//   node bench/external-calls.mjs --run SEQUENCE --iterations N     (one process, what callgrind runs)
// $EXTERNAL_CALLS_DIST: another build of dist/ to count (before/after comparisons).
import { spawnSync } from 'node:child_process';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: opts } = parseArgs({
  options: {
    sequences: { type: 'string', default: 'frame,acquire_release,signal_wait,kernel' },
    low: { type: 'string', default: '3000' },
    high: { type: 'string', default: '9000' },
    run: { type: 'string' },
    iterations: { type: 'string', default: '1000' },
    json: { type: 'boolean', default: false },
  },
});
const SEQUENCES = ['frame', 'acquire_release', 'signal_wait', 'kernel'];

async function runSequence(sequence, iterations) {
  const cl = await import(join(process.env.EXTERNAL_CALLS_DIST ?? join(root, 'dist'), 'index.js'));
  const { openReferenceDriver } = await import(join(root, 'test', 'driver', 'control.mjs'));
  const platform = cl.getPlatforms().find((p) => p.name === 'opencl-interop reference driver');
  if (!platform) throw new Error('the reference driver is not installed (npm run build:driver; OCL_ICD_VENDORS=cmake-build/vendors)');
  const device = platform.getDevices()[0];
  const context = cl.createContext([device]);
  const queue = context.createQueue(device);
  const memory = cl.getExternalMemory(platform);
  const semaphores = cl.getSemaphores(platform);
  const ref = openReferenceDriver();
  const size = 1 << 16;
  const nv12 = memory.importBuffer(context, { handleType: 'opaque-fd', handle: ref.createOpaqueFdMemory(size), size });
  const rgba = memory.importBuffer(context, { handleType: 'opaque-fd', handle: ref.createOpaqueFdMemory(size), size });
  const inputReady = semaphores.import(context, semaphores.create(context, { exportAs: 'opaque-fd' }).exportHandle());
  const outputReady = semaphores.import(context, semaphores.create(context, { exportAs: 'opaque-fd' }).exportHandle());
  // The reference driver has no compiler: its built-in copy_buffer(src, dst) stands in for the frame's kernel.
  const kernel = context.createProgramWithBuiltInKernels(['copy_buffer']).createKernel('copy_buffer');
  const objects = [nv12, rgba];
  const waitList = [inputReady],
    signalList = [outputReady];
  const frame = () => {
    semaphores.wait(queue, waitList).release();
    queue.enqueueAcquireShared(objects).release();
    kernel.setArg(0, nv12);
    kernel.setArg(1, rgba);
    queue.enqueueKernel(kernel, 16).release();
    queue.enqueueReleaseShared(objects).release();
    semaphores.signal(queue, signalList).release();
    queue.flush();
  };
  // The binary semaphore the frame waits on is signalled first (the producer's part), on the same queue.
  const step = {
    frame: () => {
      semaphores.signal(queue, waitList).release();
      frame();
      semaphores.wait(queue, signalList).release();
    },
    acquire_release: () => {
      queue.enqueueAcquireShared(objects).release();
      queue.enqueueReleaseShared(objects).release();
    },
    signal_wait: () => {
      semaphores.signal(queue, waitList).release();
      semaphores.wait(queue, waitList).release();
    },
    kernel: () => {
      kernel.setArg(0, nv12);
      kernel.setArg(1, rgba);
      queue.enqueueKernel(kernel, 16).release();
    },
  }[sequence];
  if (!step) throw new Error(`unknown sequence ${sequence}`);
  if (sequence === 'kernel') queue.enqueueAcquireShared(objects).release();
  for (let i = 0; i < iterations; i++) {
    step();
    if (i % 64 === 63) queue.finish();
  }
  if (sequence === 'kernel') queue.enqueueReleaseShared(objects).release();
  queue.finish();
}

if (opts.run) {
  await runSequence(opts.run, Number(opts.iterations));
  process.exit(0);
}

const low = Number(opts.low),
  high = Number(opts.high);
const env = { ...process.env, OCL_ICD_VENDORS: process.env.OCL_ICD_VENDORS ?? join(root, 'cmake-build', 'vendors') };
const dir = mkdtempSync(join(tmpdir(), 'external-calls-'));
const results = {};
try {
  for (const sequence of opts.sequences.split(',')) {
    if (!SEQUENCES.includes(sequence)) throw new Error(`unknown sequence ${sequence}; known: ${SEQUENCES.join(', ')}`);
    const totals = [];
    for (const n of [low, high]) {
      const out = join(dir, `${sequence}.${n}.out`);
      const r = spawnSync(
        'valgrind',
        [
          '--tool=callgrind',
          `--callgrind-out-file=${out}`,
          '--dump-instr=no',
          process.execPath,
          fileURLToPath(import.meta.url),
          '--run',
          sequence,
          '--iterations',
          String(n),
        ],
        { env, encoding: 'utf8' },
      );
      if (r.status !== 0) throw new Error(`callgrind of ${sequence} x${n} failed: ${r.stderr.slice(-2000)}`);
      const summary = readFileSync(out, 'utf8').match(/^summary: (\d+)/m) ?? readFileSync(out, 'utf8').match(/^totals: (\d+)/m);
      totals.push(Number(summary[1]));
    }
    results[sequence] = Math.round((totals[1] - totals[0]) / (high - low));
    if (!opts.json) console.log(`${sequence}: ${results[sequence]} instructions per iteration (${low} and ${high} iterations)`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (opts.json) console.log(JSON.stringify({ low, high, instructions: results }));
