#!/usr/bin/env node
// What the host-memory design costs: each way a transfer can hand the driver
// host memory, at 4 KiB and 64 MiB, through the public API on one platform.
//   blocking        the caller's JS memory directly (zero copy)
//   staged          non-blocking with JS memory: a copy at enqueue (write) or
//                   at completion (read), in binding-owned memory
//   HostMemory      non-blocking with allocateHostMemory(): zero copy
// Each sample awaits the command, so the figure is the full round trip.
//
//   node bench/transfers.mjs [--platform NAME] [--repeats R]
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cl = createRequire(import.meta.url)(join(root, 'dist', 'index.js'));
const { values: opts } = parseArgs({
  options: { platform: { type: 'string' }, repeats: { type: 'string', default: '7' } },
});
const repeats = Number(opts.repeats);
const platform = cl.getPlatforms().find((p) => p.name.includes(opts.platform ?? 'Portable'));
if (!platform) {
  console.error(`bench: no platform matches "${opts.platform ?? 'Portable'}"`);
  process.exit(1);
}
const device = platform.getDevices('gpu')[0] ?? platform.getDevices()[0];
const context = cl.createContext({ devices: [device] });
const queue = context.createQueue(device);
console.log(`platform: ${platform.name}\ndevice:   ${device.name}\nmedian of ${repeats} repeats; each call awaited\n`);
console.log('size    | direction | blocking (zero copy) | staged (JS memory)   | HostMemory (zero copy) | staging cost');
console.log('--------|-----------|----------------------|----------------------|------------------------|-------------');

async function median(calls, fn) {
  const samples = [];
  for (let r = 0; r < repeats; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) await fn();
    samples.push(Number(process.hrtime.bigint() - start) / calls);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

const show = (ns, size) => `${(ns / 1000).toFixed(1).padStart(8)} us ${(size / ns).toFixed(2).padStart(6)} GB/s`;

for (const size of [4096, 64 << 20]) {
  const buffer = context.createBuffer(size);
  const js = new Uint8Array(size).fill(1);
  const host = cl.allocateHostMemory(size);
  const calls = size > 1 << 20 ? 4 : 2000;
  for (const direction of ['write', 'read']) {
    const move = direction === 'write' ? queue.writeBuffer.bind(queue) : queue.readBuffer.bind(queue);
    await median(1, () => move(buffer, js)); // warm-up
    const blocking = await median(calls, () => move(buffer, js, { blocking: true }));
    const staged = await median(calls, () => move(buffer, js));
    const owned = await median(calls, () => move(buffer, host));
    const label = size < 1 << 20 ? '4 KiB' : '64 MiB';
    console.log(
      `${label.padEnd(7)} | ${direction.padEnd(9)} | ${show(blocking, size)} | ${show(staged, size)} | ${show(owned, size)}   | ${((staged - owned) / 1000).toFixed(1)} us`,
    );
  }
  host.release();
  buffer.release();
}
queue.release();
context.release();
