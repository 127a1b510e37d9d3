#!/usr/bin/env node
// What a driver does with a command behind a user event that fails (the spec leaves it to the driver): for each kind
// of command, a fresh process enqueues it behind an unset user event, fails the event, and prints the command's
// status (clGetEventInfo) over the next 3 s, then the status of an in-order marker enqueued after it, then exits
// with process.exit(0). A process not gone 20 s after its start is reported with its threads' states and killed; one
// that printed nothing never returned from the enqueue (NVIDIA 580's external-memory acquire does so).
//
//   node scripts/gpu/failed-gate-probe.mjs [--platform NAME] [--kinds marker,write,acquire,semaphore-wait,semaphore-signal]
//   (on the GPU machine: bash scripts/gpu/with-gpu-drivers.sh node scripts/gpu/failed-gate-probe.mjs)
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const dist = resolve(dirname(fileURLToPath(import.meta.url)), '../../dist/index.js');
const { values: opts } = parseArgs({
  options: {
    platform: { type: 'string', default: process.env.OPENCL_INTEROP_GPU_PLATFORM || 'NVIDIA' },
    kinds: { type: 'string', default: 'marker,write,acquire,semaphore-wait,semaphore-signal' },
  },
});

const commands = {
  marker: 'queue.enqueueMarker({ waitFor: [gate] })',
  write: 'queue.writeBuffer(context.createBuffer(4096), new Uint8Array(4096), { waitFor: [gate] })',
  acquire: `(() => {
    const instance = ocl.createVulkanInstance();
    const vk = instance.createDevice({ uuid: device.uuidBytes });
    const vkBuffer = vk.createBuffer({ size: 4096 });
    const imported = ocl.getExternalMemory(platform).importBuffer(context, vkBuffer.exportMemory());
    return queue.acquire([imported], { waitFor: [gate] }).event;
  })()`,
  'semaphore-wait': `(() => {
    const s = ocl.getSemaphores(platform).create(context);
    s.signal(queue);
    queue.finishSync();
    return s.wait(queue, { waitFor: [gate] });
  })()`,
  'semaphore-signal': 'ocl.getSemaphores(platform).create(context).signal(queue, { waitFor: [gate] })',
};

function child(kind) {
  return `
const ocl = require(${JSON.stringify(dist)});
const platform = ocl.getPlatforms().find((p) => p.name.includes(${JSON.stringify(opts.platform)}));
const device = platform.getDevices('gpu')[0] ?? platform.getDevices()[0];
const context = ocl.createContext({ devices: [device] });
const queue = context.createQueue(device);
const gate = context.createUserEvent();
const event = ${commands[kind]};
queue.flush();
const status = (e) => { try { return String(e.status); } catch (error) { return error.name; } };
// Each line as it comes (a pipe's writes are synchronous): a process that sticks shows how far it got.
console.log('before: ' + status(event));
const started = performance.now();
gate.setStatus(-5);
console.log('set to -5');
const marks = [0, 1, 10, 100, 1000, 3000];
(async () => {
  for (const at of marks) {
    while (performance.now() - started < at) await new Promise((r) => setTimeout(r, 1));
    console.log(at + ' ms: ' + status(event));
  }
  const after = queue.enqueueMarker();
  queue.flush();
  await new Promise((r) => setTimeout(r, 500));
  console.log('a marker enqueued after it, 500 ms on: ' + status(after));
  console.log('process.exit(0)');
  process.exit(0);
})();
`;
}

function threads(pid) {
  try {
    return readdirSync(`/proc/${pid}/task`)
      .map((tid) => {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const wchan = readFileSync(`/proc/${pid}/task/${tid}/wchan`, 'utf8');
        return `${tid} ${stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))} ${stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3)} ${wchan}`;
      })
      .join('\n    ');
  } catch (error) {
    return `(/proc: ${error.message})`;
  }
}

for (const kind of opts.kinds.split(',')) {
  if (!commands[kind]) {
    console.error(`--kinds: ${kind} is not one of ${Object.keys(commands).join(', ')}`);
    process.exit(2);
  }
  const started = Date.now();
  const proc = spawn(process.execPath, ['-e', child(kind)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout.on('data', (d) => (out += d));
  proc.stderr.on('data', (d) => (out += d));
  const timer = setTimeout(() => {
    out += `\n  not gone after 20 s; its threads (tid name state wchan):\n    ${threads(proc.pid)}`;
    proc.kill('SIGKILL');
  }, 20_000);
  const [code, signal] = await new Promise((r) => proc.on('close', (c, s) => r([c, s])));
  clearTimeout(timer);
  console.log(`${kind}: ${out.trim().replaceAll('\n', '; ')} (exit ${code ?? signal}, ${Date.now() - started} ms)`);
}
