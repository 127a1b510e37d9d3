#!/usr/bin/env node
// Event-loop lag while commands are awaited: enqueues N kernels that each
// take a while, then awaits them all and reports how late the event loop ran
// (perf_hooks' monitorEventLoopDelay, 1 ms resolution) while they ended. Awaiting must never
// block the loop, whichever completion mechanism the driver gets (bench/README.md,
// "Awaiting"; OPENCL_INTEROP_COMPLETION=callback|waiter to choose).
//
//   node bench/loop-lag.mjs [--platform NAME] [--commands N] [--rounds R] [--global G] [--loop L]
//
// --global (default 64) work-items per command, each running a loop of --loop
// (default 4000) steps: on a GPU use a large --global (e.g. 1048576) so that
// commands are still in flight when awaited.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: opts } = parseArgs({
  options: {
    platform: { type: 'string', default: process.env.BENCH_PLATFORM || 'Portable' },
    commands: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '5' },
    global: { type: 'string', default: '64' },
    loop: { type: 'string', default: '4000' },
  },
});
const cl = createRequire(import.meta.url)(join(root, 'dist', 'index.js'));
const platform = cl.getPlatforms().find((p) => p.name.includes(opts.platform));
if (!platform) {
  console.error(`bench: no platform whose name contains "${opts.platform}"`);
  process.exit(1);
}
const device = platform.getDevices()[0];
const context = cl.createContext({ devices: [device] });
const queue = context.createQueue(device);
// Some work per command, so that they are still in flight while awaited.
const globalSize = Number(opts.global);
const program = context.createProgram(`__kernel void busy(__global float* data, float a, int steps) {
  size_t i = get_global_id(0);
  float x = data[i];
  for (int k = 0; k < steps; k++) x = x * 0.999f + a;
  data[i] = x;
}`);
await program.build();
const kernel = program.createKernel('busy').setArgs(context.createBuffer(globalSize * 4), ['float', 1.5], ['int', Number(opts.loop)]);

const commands = Number(opts.commands);
console.log(`platform: ${platform.name}; ${commands} commands in flight, all awaited; completion: ${queue.completion}`);
for (let round = 0; round < Number(opts.rounds); round++) {
  const events = Array.from({ length: commands }, () => queue.enqueueKernel(kernel, globalSize));
  queue.flush();
  const lag = monitorEventLoopDelay({ resolution: 1 });
  let ticks = 0;
  const ticker = setInterval(() => ticks++, 1);
  lag.enable();
  const started = performance.now();
  const pending = events.filter((event) => event.status !== 'complete').length;
  await Promise.all(events.map((event) => event.completed));
  const elapsed = performance.now() - started;
  lag.disable();
  clearInterval(ticker);
  for (const event of events) event.release();
  console.log(
    `round ${round + 1}: ${pending} still in flight when awaited, all ended ${elapsed.toFixed(1)} ms later; ` +
      `event-loop delay max ${(lag.max / 1e6).toFixed(2)} ms, ` +
      `mean ${(lag.mean / 1e6).toFixed(2)} ms; a 1 ms interval ran ${ticks} times meanwhile`,
  );
}
queue.release();
context.release();
