// Every kind of enqueue behind an event that has not ended (a user event not
// set yet), each in a fresh process with a bounded time: the enqueue must
// return (or the package refuse it with OpenCLStateError) at once. NVIDIA's
// driver (580) never returned from three enqueues behind such an event (the
// external-memory acquire, the semaphore wait and signal) and from the fill
// of a 3D image (a 2D image's fill returned in about 1 ms); the package
// refuses those before the driver. A driver update that blocks in another
// enqueue shows here as a process killed at its limit, with its stacks.
// Each process then sets the user event to -5 and reports what the driver did
// with the command (the spec leaves it to the driver: the reference driver and
// PoCL fail it, NVIDIA's ran a marker).
//
// On the reference driver (test/gpu-suite.test.ts), REFDRV_GATED_INTEROP=block
// and REFDRV_GATED_FILL_IMAGE3D=block make it block where NVIDIA's does.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeRun, gpuPlatform, ocl, runFresh, vulkanMatches } from './support.mjs';

const onReference = gpuPlatform().name === 'opencl-interop reference driver';
const env = { REFDRV_GATED_INTEROP: 'block', REFDRV_GATED_FILL_IMAGE3D: 'block' };

const imageTypes = {
  '1d': { width: 16 },
  '1d-array': { width: 16, arraySize: 4 },
  '2d': { width: 16, height: 16 },
  '2d-array': { width: 16, height: 16, arraySize: 4 },
  '3d': { width: 16, height: 16, depth: 4 },
};

// What each command enqueues, with `waitFor` (the objects are made first).
const imageCommands = {
  read: 'queue.readImage(image, new Uint8Array(image.size), { waitFor })',
  write: 'queue.writeImage(image, new Uint8Array(image.size), { waitFor })',
  copy: 'queue.copyImage(image, twin, { waitFor })',
  fill: 'queue.fillImage(image, [0.5, 0.25, 0, 1], { waitFor })',
  'copy to a buffer': 'queue.copyImageToBuffer(image, buffer, { waitFor })',
  'copy from a buffer': 'queue.copyBufferToImage(buffer, image, { waitFor })',
  map: 'queue.mapImage(image, { waitFor }).catch(() => {}) && "map"',
};
const bufferCommands = {
  'read a buffer': 'queue.readBuffer(buffer, new Uint8Array(1024), { waitFor })',
  'write a buffer': 'queue.writeBuffer(buffer, new Uint8Array(1024), { waitFor })',
  'copy a buffer': 'queue.copyBuffer(buffer, spare, { waitFor })',
  'fill a buffer': 'queue.fillBuffer(buffer, new Uint8Array([7]), { waitFor })',
  'map a buffer': 'queue.mapBuffer(buffer, { waitFor }).catch(() => {}) && "map"',
  kernel: 'queue.enqueueKernel(kernel, 256, { waitFor })',
  marker: 'queue.enqueueMarker({ waitFor })',
  barrier: 'queue.enqueueBarrier({ waitFor })',
};
const interopCommands = {
  'acquire external memory': 'queue.acquire([imported], { waitFor }).event',
  'semaphore wait': 'semaphore.wait(queue, { waitFor })',
  'semaphore signal': 'semaphore.signal(queue, { waitFor })',
};

// How the command waits on the user event: in its wait list, or through a marker of another queue behind it.
const gates = {
  'a user event': '[gate]',
  'a marker behind a user event': '[other.enqueueMarker({ waitFor: [gate] })]',
};

function script(kind, command, gate, type) {
  return `(async () => {
const context = ocl.createContext({ platform });
const queue = context.createQueue(device);
const other = context.createQueue(device);
const buffer = context.createBuffer(1 << 16);
const spare = context.createBuffer(1 << 16);
${
  type
    ? `const options = { format: { order: 'RGBA', type: 'FLOAT' }, type: ${JSON.stringify(type)}, ...${JSON.stringify(imageTypes[type])} };
const image = context.createImage(options);
const twin = context.createImage(options);`
    : ''
}
${
  kind === 'kernel'
    ? `// The reference driver has no compiler: its built-in copy_buffer.
const program = device.compilerAvailable
  ? context.createProgram('kernel void copy_buffer(global const uchar *a, global uchar *b) { b[get_global_id(0)] = a[get_global_id(0)]; }')
  : context.createProgramWithBuiltInKernels(['copy_buffer']);
if (device.compilerAvailable) await program.build();
const kernel = program.createKernel('copy_buffer').setArgs(buffer, spare);`
    : ''
}
${
  kind === 'acquire external memory'
    ? `const vk = vulkanDevice();
const vkBuffer = vk.createBuffer({ size: 4096 });
const imported = ocl.getExternalMemory(platform).importBuffer(context, vkBuffer.exportMemory());`
    : ''
}
${kind.startsWith('semaphore') ? 'const semaphore = ocl.getSemaphores(platform).create(context);' : ''}
${kind === 'semaphore wait' ? 'semaphore.signal(queue);' : ''}
queue.finishSync();
const gate = context.createUserEvent();
const waitFor = ${gates[gate]};
const status = (e) => { try { return String(e.status); } catch (error) { return error.name; } };
const started = performance.now();
let event;
try {
  event = ${command};
  console.log('enqueued in ' + Math.round(performance.now() - started) + ' ms');
} catch (error) {
  console.log(error.name + ': ' + error.message);
}
queue.flush();
gate.setStatus(-5);
setTimeout(() => {
  if (event && typeof event === 'object') console.log('behind the user event set to -5: ' + status(event));
  process.exit(0);
}, 300);
})();`;
}

const cases = [];
for (const [kind, command] of Object.entries(bufferCommands)) cases.push({ kind, command, gate: 'a user event' });
for (const type of Object.keys(imageTypes)) {
  for (const [kind, command] of Object.entries(imageCommands)) {
    cases.push({ kind, command, gate: 'a user event', type });
    if (kind === 'fill') cases.push({ kind, command, gate: 'a marker behind a user event', type });
  }
}
// Refused before the driver: those of them the platform has.
const hasSemaphores = (() => {
  try {
    ocl.getSemaphores(gpuPlatform());
    return true;
  } catch {
    return false;
  }
})();
for (const [kind, command] of Object.entries(interopCommands)) {
  if (kind === 'acquire external memory' && !vulkanMatches()) continue;
  if (kind.startsWith('semaphore') && !hasSemaphores) continue;
  cases.push({ kind, command, gate: 'a user event', refused: true });
}

/** Whether the package refuses the enqueue before the driver (the driver would not return). */
const refusedBeforeDriver = (c) => c.refused || (c.kind === 'fill' && c.type === '3d');

test(`every enqueue behind a user event that is not set returns at once, or is refused with OpenCLStateError (${cases.length} cases, each in a fresh process)`, async () => {
  const results = new Array(cases.length);
  let next = 0;
  // A few at a time: each is a fresh process with its own context.
  await Promise.all(
    Array.from({ length: 6 }, async () => {
      while (next < cases.length) {
        const i = next++;
        const c = cases[i];
        results[i] = await runFresh(script(c.kind, c.command, c.gate, c.type), { timeoutMs: 20_000, env: onReference ? env : {} });
      }
    }),
  );
  const table = [];
  const failures = [];
  cases.forEach((c, i) => {
    const run = results[i];
    const name = `${c.kind}${c.type ? ` (${c.type} image)` : ''} behind ${c.gate}`;
    const first = run.stdout.trim().split('\n')[0] ?? '';
    table.push(`${name}: ${run.timedOut ? 'NEVER RETURNED' : run.stdout.trim().replaceAll('\n', '; ')}`);
    if (run.timedOut || run.signal || run.status !== 0) failures.push(`${name}: ${describeRun(run)}`);
    else if (refusedBeforeDriver(c) ? !first.startsWith('OpenCLStateError') : !first.startsWith('enqueued')) failures.push(`${name}: ${first}`);
  });
  console.log(table.join('\n'));
  assert.deepEqual(failures, []);
});
