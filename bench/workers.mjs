#!/usr/bin/env node
// Streams from worker threads against the same streams from separate
// processes (issue 23 item 5): N streams, each with its own context and
// queue (on the platform's devices in turn: one GPU per stream where there
// are as many), each awaiting --commands commands one after another. Reports
// the aggregate commands/s of N worker threads of one process and of N
// processes, their ratio, and the main thread's event-loop delay while the
// workers run (perf_hooks' monitorEventLoopDelay at 1 ms resolution, whose
// samples are whole tick intervals, so the delay is a sample less 1 ms; and a
// 1 ms interval's worst lateness), beside the same measure taken for as long
// with nothing running (the machine's own timer jitter, which no program can
// go under). Every stream checks what it read back.
//
//   node bench/workers.mjs [--platform NAME] [--streams 1,2,4] [--commands N] [--command write|kernel] [--repeats R]
//
// --command write: a 4 KiB write then a 4 KiB read back, each awaited (two
// commands); kernel: a small kernel launch, awaited. OPENCL_INTEROP_COMPLETION
// chooses the completion mechanism as anywhere else.
import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const file = fileURLToPath(import.meta.url);
const root = join(dirname(file), '..');
const cl = createRequire(import.meta.url)(join(root, 'dist', 'index.js'));

/** One stream: its own context and queue; resolves with { commands, wrong }. */
async function stream({ platform: platformName, index, commands, command }, ready) {
  const platform = cl.getPlatforms().find((p) => p.name.includes(platformName));
  if (!platform) throw new Error(`no platform whose name contains "${platformName}"`);
  const devices = platform.getDevices('gpu').length ? platform.getDevices('gpu') : platform.getDevices();
  const device = devices[index % devices.length];
  const context = cl.createContext({ devices: [device] });
  const queue = context.createQueue(device);
  const buffer = context.createBuffer(4096);
  const stamp = new Uint32Array(1024);
  const back = new Uint32Array(1024);
  let kernel;
  if (command === 'kernel') {
    const program = context.createProgram('__kernel void bump(__global uint* a, uint v) { a[get_global_id(0)] = v; }');
    await program.build();
    kernel = program.createKernel('bump').setArgs(buffer, ['uint', 0]);
    await queue.enqueueKernel(kernel, 1024); // compiled at its first run on CPU drivers
  }
  const round = async (i) => {
    if (command === 'kernel') {
      kernel.setArg(1, i, 'uint');
      await queue.enqueueKernel(kernel, 1024);
      return 0;
    }
    stamp.fill(index * 1_000_000 + i);
    await queue.writeBuffer(buffer, stamp);
    await queue.readBuffer(buffer, back);
    return back[0] === stamp[0] && back[1023] === stamp[0] ? 0 : 1;
  };
  for (let i = 0; i < 20; i++) await round(i); // warm-up
  await ready();
  let wrong = 0;
  const perRound = command === 'kernel' ? 1 : 2;
  const started = performance.now();
  for (let i = 0; i < commands / perRound; i++) wrong += await round(i);
  const ms = performance.now() - started;
  if (command === 'kernel') {
    queue.readBuffer(buffer, back, { blocking: true });
    wrong += back[0] === commands - 1 ? 0 : 1;
  }
  queue.release();
  context.release();
  return { commands, wrong, ms, device: device.name };
}

// Worker thread or child process: wait for 'go', run, report.
if (!isMainThread || process.argv[2] === '--child') {
  const port = isMainThread ? process : parentPort;
  const data = isMainThread ? JSON.parse(process.argv[3]) : workerData;
  const send = (m) => (isMainThread ? process.send(m) : parentPort.postMessage(m));
  const ready = () =>
    new Promise((resolve) => {
      port.once('message', resolve);
      send({ ready: true });
    });
  stream(data, ready).then(
    (result) => {
      send({ result });
      if (isMainThread) process.disconnect();
    },
    (error) => {
      send({ error: String(error?.stack ?? error) });
      if (isMainThread) process.disconnect();
    },
  );
} else {
  const { values: opts } = parseArgs({
    options: {
      platform: { type: 'string', default: process.env.BENCH_PLATFORM || 'Portable' },
      streams: { type: 'string', default: '1,2' },
      commands: { type: 'string', default: '1000' },
      command: { type: 'string', default: 'write' },
      repeats: { type: 'string', default: '3' },
    },
  });
  if (!['write', 'kernel'].includes(opts.command)) {
    console.error(`bench: --command is write or kernel; got ${opts.command}`);
    process.exit(1);
  }
  const platform = cl.getPlatforms().find((p) => p.name.includes(opts.platform));
  if (!platform) {
    console.error(`bench: no platform whose name contains "${opts.platform}"`);
    process.exit(1);
  }
  const commands = Number(opts.commands);

  // Starts n streams as workers or processes; all get 'go' once all are ready.
  async function run(n, how) {
    const data = (index) => ({ platform: opts.platform, index, commands, command: opts.command });
    const streams = Array.from({ length: n }, (_, index) =>
      how === 'workers' ? new Worker(file, { workerData: data(index) }) : fork(file, ['--child', JSON.stringify(data(index))]),
    );
    const post = (s, m) => (how === 'workers' ? s.postMessage(m) : s.send(m));
    let readyCount = 0;
    let go;
    const allReady = new Promise((resolve) => (go = resolve));
    const results = streams.map(
      (s) =>
        new Promise((resolve, reject) => {
          s.on('message', (m) => {
            if (m.ready && ++readyCount === n) go();
            else if (m.result) resolve(m.result);
            else if (m.error) reject(new Error(m.error));
          });
          s.on('error', reject);
        }),
    );
    await allReady;
    const lag = watchMainLoop();
    const started = performance.now();
    for (const s of streams) post(s, 'go');
    const done = await Promise.all(results);
    const ms = performance.now() - started;
    const { max, mean, p99, late } = lag.stop();
    const idle = watchMainLoop();
    await new Promise((resolve) => setTimeout(resolve, ms));
    const idleLag = idle.stop();
    if (how === 'workers') await Promise.all(streams.map((s) => s.terminate()));
    const total = done.reduce((sum, r) => sum + r.commands, 0);
    const wrong = done.reduce((sum, r) => sum + r.wrong, 0);
    return {
      perSecond: total / (ms / 1000),
      wrong,
      lagMaxMs: max,
      lagMeanMs: mean,
      lagP99Ms: p99,
      lateMs: late,
      idleMaxMs: idleLag.max,
      idleLateMs: idleLag.late,
      devices: [...new Set(done.map((r) => r.device))],
    };
  }

  /**
   * The main thread's event-loop delay from now until stop(), in ms beyond the 1 ms tick (the histogram's samples are
   * tick-to-tick intervals): its max, mean and 99th percentile, and a 1 ms interval's worst lateness.
   */
  function watchMainLoop() {
    const histogram = monitorEventLoopDelay({ resolution: 1 });
    let late = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      late = Math.max(late, now - last - 1);
      last = now;
    }, 1);
    histogram.enable();
    return {
      stop() {
        histogram.disable();
        clearInterval(ticker);
        const beyondTick = (ns) => Math.max(0, ns / 1e6 - 1);
        return { max: beyondTick(histogram.max), mean: beyondTick(histogram.mean), p99: beyondTick(histogram.percentile(99)), late };
      },
    };
  }

  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(
    `platform: ${platform.name}; ${commands} awaited commands per stream (${opts.command}); completion: ${process.env.OPENCL_INTEROP_COMPLETION ?? 'default'}; median of ${opts.repeats}`,
  );
  console.log(
    'streams | devices | workers cmd/s | processes cmd/s | workers/processes | main loop delay beyond the 1 ms tick: max (mean, p99), workers | 1 ms interval late by, max | the same two, nothing running | wrong',
  );
  for (const n of opts.streams.split(',').map(Number)) {
    const byWorkers = [];
    const byProcesses = [];
    for (let r = 0; r < Number(opts.repeats); r++) {
      byWorkers.push(await run(n, 'workers'));
      byProcesses.push(await run(n, 'processes'));
    }
    const w = median(byWorkers.map((x) => x.perSecond));
    const p = median(byProcesses.map((x) => x.perSecond));
    const lagMax = Math.max(...byWorkers.map((x) => x.lagMaxMs));
    const lagMean = median(byWorkers.map((x) => x.lagMeanMs));
    const lagP99 = Math.max(...byWorkers.map((x) => x.lagP99Ms));
    const late = Math.max(...byWorkers.map((x) => x.lateMs));
    const idleMax = Math.max(...byWorkers.map((x) => x.idleMaxMs));
    const idleLate = Math.max(...byWorkers.map((x) => x.idleLateMs));
    const wrong = [...byWorkers, ...byProcesses].reduce((sum, x) => sum + x.wrong, 0);
    console.log(
      `${n} | ${byWorkers[0].devices.length} | ${w.toFixed(0)} | ${p.toFixed(0)} | ${(w / p).toFixed(3)}x | ${lagMax.toFixed(2)} ms (${lagMean.toFixed(2)}, ${lagP99.toFixed(2)}) | ${late.toFixed(2)} ms | ${idleMax.toFixed(2)} ms, ${idleLate.toFixed(2)} ms | ${wrong}`,
    );
  }
}
