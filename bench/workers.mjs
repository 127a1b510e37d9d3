#!/usr/bin/env node
// Streams from worker threads against the same streams from separate
// processes: N streams, each with its own context and
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
// Where cmake-build/bench/workers_c is built (npm run build:driver), the same
// streams run in C in the same invocation, as N threads of one process and as
// N processes (bench/workers_c.c): the anchor that tells whether a shortfall of
// workers against processes is the driver's with threads of one process (C's
// threads show it too) or this package's.
//
//   node bench/workers.mjs [--platform NAME] [--streams 1,2,4] [--commands N] [--command write|write-host|write-blocking|marker|kernel] [--repeats R]
//                          [--side both|node|c] [--c PATH] [--c-wait direct|handoff]
//
// --command write: a 4 KiB write then a 4 KiB read back, each awaited (two
// commands), through JavaScript memory (staged); write-host: the same through
// allocateHostMemory() (no staging); write-blocking: the same as blocking calls
// (no await); marker: a marker, awaited (the await alone); kernel: a small
// kernel launch, awaited. The C anchor does write only. OPENCL_INTEROP_COMPLETION chooses the completion mechanism as
// anywhere else. --side node or c runs one side only (both: each where it can).
// --c-wait handoff: C's streams make the package's driver calls and thread hops
// (a waiting thread per stream hands each completion back through an eventfd),
// where direct (the default) waits on the stream's own thread.
import { fork, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const file = fileURLToPath(import.meta.url);
const root = join(dirname(file), '..');
const cl = createRequire(import.meta.url)(join(root, 'dist', 'index.js'));

/**
 * The calling thread's CPU time (ns) and voluntary context switches on Linux (/proc/thread-self), or undefined;
 * given an earlier reading, the difference since.
 */
function threadCounters(since) {
  let now;
  try {
    const cpuNs = Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]);
    const switches = Number(/voluntary_ctxt_switches:\s*(\d+)/.exec(readFileSync('/proc/thread-self/status', 'utf8'))[1]);
    now = { cpuNs, switches };
  } catch {
    return undefined;
  }
  return since ? { cpuNs: now.cpuNs - since.cpuNs, switches: now.switches - since.switches } : now;
}

/** Commands per round of a --command kind: the write kinds write, then read back. */
const commandsPerRound = (command) => (command.startsWith('write') ? 2 : 1);

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
  const hostIn = cl.allocateHostMemory(4096);
  const hostOut = cl.allocateHostMemory(4096);
  const stampHost = new Uint32Array(hostIn.buffer);
  const backHost = new Uint32Array(hostOut.buffer);
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
    if (command === 'marker') {
      await queue.enqueueMarker();
      return 0;
    }
    stamp.fill(index * 1_000_000 + i);
    if (command === 'write-blocking') {
      queue.writeBuffer(buffer, stamp, { blocking: true });
      queue.readBuffer(buffer, back, { blocking: true });
    } else if (command === 'write-host') {
      stampHost.set(stamp);
      await queue.writeBuffer(buffer, hostIn);
      await queue.readBuffer(buffer, hostOut);
      back.set(backHost);
    } else {
      await queue.writeBuffer(buffer, stamp);
      await queue.readBuffer(buffer, back);
    }
    return back[0] === stamp[0] && back[1023] === stamp[0] ? 0 : 1;
  };
  for (let i = 0; i < 20; i++) await round(i); // warm-up
  await ready();
  let wrong = 0;
  const perRound = commandsPerRound(command);
  const startedThread = threadCounters();
  const started = performance.now();
  for (let i = 0; i < commands / perRound; i++) wrong += await round(i);
  const ms = performance.now() - started;
  const thread = threadCounters(startedThread);
  if (command === 'kernel') {
    queue.readBuffer(buffer, back, { blocking: true });
    wrong += back[0] === commands - 1 ? 0 : 1;
  }
  hostIn.release();
  hostOut.release();
  queue.release();
  context.release();
  return { commands, wrong, ms, device: device.uuid ?? device.name, thread };
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
      side: { type: 'string', default: 'both' },
      c: { type: 'string', default: join(root, 'cmake-build', 'bench', 'workers_c') },
      'c-wait': { type: 'string', default: 'direct' },
    },
  });
  const fail = (message) => {
    console.error(`bench: ${message}`);
    process.exit(1);
  };
  const positive = (flag, text) => {
    if (!/^[1-9][0-9]*$/.test(text)) fail(`${flag} expects a positive integer; got ${JSON.stringify(text)}`);
    return Number(text);
  };
  const commandKinds = ['write', 'write-blocking', 'write-host', 'marker', 'kernel'];
  if (!commandKinds.includes(opts.command)) fail(`--command is one of ${commandKinds.join(', ')}; got ${opts.command}`);
  if (!['both', 'node', 'c'].includes(opts.side)) fail(`--side is both, node or c; got ${opts.side}`);
  if (!['direct', 'handoff'].includes(opts['c-wait'])) fail(`--c-wait is direct or handoff; got ${opts['c-wait']}`);
  const commands = positive('--commands', opts.commands);
  if (commands % commandsPerRound(opts.command))
    fail(`--commands expects an even number with --command ${opts.command} (a write and a read a round); got ${commands}`);
  const repeats = positive('--repeats', opts.repeats);
  const streamCounts = opts.streams.split(',').map((n) => positive('--streams (a comma-separated list)', n));
  const platform = cl.getPlatforms().find((p) => p.name.includes(opts.platform));
  if (!platform) fail(`no platform whose name contains "${opts.platform}"`);
  const platformDevices = platform.getDevices('gpu').length ? platform.getDevices('gpu') : platform.getDevices();
  const nodeSide = opts.side !== 'c';
  let cSide = opts.side !== 'node';
  if (cSide && opts.command !== 'write') {
    if (opts.side === 'c') fail('--side c needs --command write (the C anchor does a write and a read a round)');
    console.log('bench: the C anchor does --command write only; Node side only');
    cSide = false;
  }
  if (cSide && !existsSync(opts.c)) {
    if (opts.side === 'c') fail(`C program not found at ${opts.c} (npm run build:driver builds it)`);
    console.log(`bench: C program not found at ${opts.c} (npm run build:driver builds it); Node side only`);
    cSide = false;
  }

  /** workers_c with n streams in one mode: its JSON line ({ commands_per_second, wrong, devices, ... }). */
  function runC(n, mode) {
    const args = ['--platform', opts.platform, '--streams', String(n), '--commands', String(commands), '--mode', mode, '--wait', opts['c-wait']];
    const child = spawnSync(opts.c, args, { encoding: 'utf8' });
    if (child.error || child.status !== 0) {
      process.stderr.write(child.stderr ?? '');
      fail(`${opts.c} ${args.join(' ')} failed (${child.error?.message ?? `exit status ${child.status}`})`);
    }
    return JSON.parse(child.stdout);
  }

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
    const { max, mean, p99, late, over2 } = lag.stop();
    const idle = watchMainLoop();
    await new Promise((resolve) => setTimeout(resolve, ms));
    const idleLag = idle.stop();
    if (how === 'workers') await Promise.all(streams.map((s) => s.terminate()));
    const total = done.reduce((sum, r) => sum + r.commands, 0);
    const wrong = done.reduce((sum, r) => sum + r.wrong, 0);
    const counted = done.every((r) => r.thread);
    return {
      perSecond: total / (ms / 1000),
      wrong,
      lagMaxMs: max,
      lagMeanMs: mean,
      lagP99Ms: p99,
      lateMs: late,
      lagOver2: over2,
      idleOver2: idleLag.over2,
      idleMaxMs: idleLag.max,
      idleLateMs: idleLag.late,
      devices: done.map((r) => r.device),
      // Per command on the streams' JavaScript threads: CPU µs and voluntary context switches (Linux).
      threadCpuUs: counted ? done.reduce((sum, r) => sum + r.thread.cpuNs, 0) / 1000 / total : undefined,
      threadSwitches: counted ? done.reduce((sum, r) => sum + r.thread.switches, 0) / total : undefined,
    };
  }

  /**
   * The main thread's event-loop delay from now until stop(), in ms beyond the 1 ms tick (the histogram's samples are
   * tick-to-tick intervals): its max, mean and 99th percentile, and a 1 ms interval's worst lateness.
   */
  function watchMainLoop() {
    const histogram = monitorEventLoopDelay({ resolution: 1 });
    let late = 0;
    let over2 = 0; // 1 ms intervals late by more than 2 ms
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      late = Math.max(late, now - last - 1);
      if (now - last - 1 > 2) over2++;
      last = now;
    }, 1);
    histogram.enable();
    return {
      stop() {
        histogram.disable();
        clearInterval(ticker);
        const beyondTick = (ns) => Math.max(0, ns / 1e6 - 1);
        return { max: beyondTick(histogram.max), mean: beyondTick(histogram.mean), p99: beyondTick(histogram.percentile(99)), late, over2 };
      },
    };
  }

  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(
    `platform: ${platform.name}; ${commands} awaited commands per stream (${opts.command}); completion: ${process.env.OPENCL_INTEROP_COMPLETION ?? 'default'}; median of ${repeats}; sides: ${[nodeSide && 'Node', cSide && `C (${opts['c-wait']} wait)`].filter(Boolean).join(' and ')}`,
  );
  console.log(
    `devices (stream k runs on device k % ${platformDevices.length}): ${platformDevices.map((d, k) => `${k} ${d.name} (${d.uuid ? `UUID ${d.uuid}` : 'no UUID'})`).join('; ')}`,
  );
  console.log(
    'streams | devices (distinct UUIDs) | workers cmd/s | processes cmd/s | workers/processes | main loop delay beyond the 1 ms tick: max (mean, p99), workers | 1 ms interval late by, max | the same two, nothing running | C threads cmd/s | C processes cmd/s | C threads/processes | Node workers / C threads | wrong (all runs)',
  );
  const spread = (runs, key, name) => {
    const rates = runs.map((x) => Math.round(x[key]));
    return rates.length ? `${name} ${Math.min(...rates)}-${Math.max(...rates)}` : '';
  };
  const spreads = [];
  const threadLines = [];
  const loopLines = [];
  for (const n of streamCounts) {
    const byWorkers = [];
    const byProcesses = [];
    const byCThreads = [];
    const byCProcesses = [];
    for (let r = 0; r < repeats; r++) {
      if (nodeSide) {
        byWorkers.push(await run(n, 'workers'));
        byProcesses.push(await run(n, 'processes'));
      }
      if (cSide) {
        byCThreads.push(runC(n, 'threads'));
        byCProcesses.push(runC(n, 'processes'));
      }
    }
    const streamDevices = [byWorkers, byProcesses, byCThreads, byCProcesses].flat().map((x) => JSON.stringify(x.devices));
    if (new Set(streamDevices).size > 1)
      console.log(`bench: note: the runs put the streams on different devices: ${[...new Set(streamDevices)].join(' | ')}`);
    const devices = new Set(JSON.parse(streamDevices[0])).size;
    const dash = '-';
    const fixed = (x, digits) => (x === undefined ? dash : x.toFixed(digits));
    const ratio = (a, b) => (a === undefined || b === undefined ? dash : `${(a / b).toFixed(3)}x`);
    const w = nodeSide ? median(byWorkers.map((x) => x.perSecond)) : undefined;
    const p = nodeSide ? median(byProcesses.map((x) => x.perSecond)) : undefined;
    const ct = cSide ? median(byCThreads.map((x) => x.commands_per_second)) : undefined;
    const cp = cSide ? median(byCProcesses.map((x) => x.commands_per_second)) : undefined;
    let lag = `${dash} | ${dash} | ${dash}`;
    if (nodeSide) {
      const lagMax = Math.max(...byWorkers.map((x) => x.lagMaxMs));
      const lagMean = median(byWorkers.map((x) => x.lagMeanMs));
      const lagP99 = Math.max(...byWorkers.map((x) => x.lagP99Ms));
      const late = Math.max(...byWorkers.map((x) => x.lateMs));
      const idleMax = Math.max(...byWorkers.map((x) => x.idleMaxMs));
      const idleLate = Math.max(...byWorkers.map((x) => x.idleLateMs));
      lag = `${lagMax.toFixed(2)} ms (${lagMean.toFixed(2)}, ${lagP99.toFixed(2)}) | ${late.toFixed(2)} ms | ${idleMax.toFixed(2)} ms, ${idleLate.toFixed(2)} ms`;
      const overTwo = (runs, key) => runs.reduce((sum, x) => sum + x[key], 0);
      loopLines.push(
        `${n} streams: workers running ${lagMax.toFixed(2)} ms (${overTwo(byWorkers, 'lagOver2')} intervals late by over 2 ms), processes running ${Math.max(...byProcesses.map((x) => x.lagMaxMs)).toFixed(2)} ms (${overTwo(byProcesses, 'lagOver2')}), nothing running ${Math.max(idleMax, ...byProcesses.map((x) => x.idleMaxMs)).toFixed(2)} ms (${overTwo(byWorkers, 'idleOver2') + overTwo(byProcesses, 'idleOver2')})`,
      );
    }
    const wrong = [byWorkers, byProcesses, byCThreads, byCProcesses].flat().reduce((sum, x) => sum + x.wrong, 0);
    console.log(
      `${n} | ${devices} | ${fixed(w, 0)} | ${fixed(p, 0)} | ${ratio(w, p)} | ${lag} | ${fixed(ct, 0)} | ${fixed(cp, 0)} | ${ratio(ct, cp)} | ${ratio(w, ct)} | ${wrong}`,
    );
    const ranges = [
      spread(byWorkers, 'perSecond', 'workers'),
      spread(byProcesses, 'perSecond', 'processes'),
      spread(byCThreads, 'commands_per_second', 'C threads'),
      spread(byCProcesses, 'commands_per_second', 'C processes'),
    ].filter(Boolean);
    if (repeats > 1) spreads.push(`${n} streams: ${ranges.join(', ')}`);
    if (nodeSide && byWorkers[0].threadCpuUs !== undefined) {
      const perCommand = (runs) =>
        `${median(runs.map((x) => x.threadCpuUs)).toFixed(2)} µs CPU, ${median(runs.map((x) => x.threadSwitches)).toFixed(2)} voluntary switches`;
      threadLines.push(`${n} streams: workers ${perCommand(byWorkers)}; processes ${perCommand(byProcesses)}`);
    }
  }
  // A median hides how far the runs went apart (on four H200s, four processes' median moved from 51 k to 63 k cmd/s
  // between invocations).
  if (spreads.length) console.log(`spread, cmd/s of the ${repeats} runs (least-most): ${spreads.join('; ')}`);
  // The main loop's worst delay beyond the tick with the same load on the machine in processes (nothing of it in this
  // process) and with nothing running: a delay that all three show is the machine's, not the workers'.
  if (loopLines.length) console.log(`main loop delay beyond the tick, max of all runs: ${loopLines.join('; ')}`);
  // Where workers fall behind processes: more CPU per command on the streams' own threads points at work or lock
  // contention in the process; the same CPU with fewer commands/s points at waiting (wake-ups, the driver).
  if (threadLines.length) console.log(`per command on the streams' JavaScript threads (median): ${threadLines.join('; ')}`);
}
