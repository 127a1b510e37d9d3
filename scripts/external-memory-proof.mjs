#!/usr/bin/env node
// Proof, on a real GPU, that memory and semaphores move between Vulkan and
// OpenCL through this package's public API (cl_khr_external_memory +
// cl_khr_external_semaphore with opaque fds, and the package's Vulkan module):
//
//  1. ordered: Vulkan writes a buffer and an image (a fill; a fill of a
//     Vulkan-only buffer copied into a linear RGBA8 image) and signals a
//     semaphore; OpenCL waits on it (imported), acquires the imported buffer
//     and image, rewrites every word of the buffer (x * 3 + 1) and every
//     channel of the image ((c * 3 + 1) & 255: a kernel reads the image into
//     a scratch buffer, which is copied back into the image), releases them
//     and signals a second imported semaphore; Vulkan waits on it and copies
//     both out; every word is compared with what it must be. Expected: 0 mismatches.
//  2. unordered: the same cycles with no semaphore: Vulkan's copy out does not
//     wait for OpenCL (nor OpenCL for Vulkan's writes). Expected: mismatches
//     (the race the semaphores prevent).
//  3. lifetimes: N cycles (default 1000) of: a Vulkan buffer and semaphore
//     made and exported, imported into OpenCL, acquired and released, and
//     everything released again; GPU memory in use (nvidia-smi, where there
//     is one) and the process's open descriptors are read before and after.
//
//   node scripts/external-memory-proof.mjs [--platform NAME] [--cycles N] [--frames N]
//        [--size BYTES] [--image WxH] [--json]
//
// On the GPU machine: the Vulkan loader carried in (INTEROP-NOTES), NVIDIA's
// Vulkan ICD in VK_DRIVER_FILES and NVIDIA's OpenCL in OCL_ICD_VENDORS.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: opts } = parseArgs({
  options: {
    platform: { type: 'string', default: 'NVIDIA' },
    cycles: { type: 'string', default: '1000' },
    frames: { type: 'string', default: '20' },
    size: { type: 'string', default: String(64 << 20) },
    image: { type: 'string', default: '2048x2048' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (opts.help) {
  console.log('usage: node scripts/external-memory-proof.mjs [--platform NAME] [--cycles N] [--frames N] [--size BYTES] [--image WxH] [--json]');
  process.exit(0);
}
const fail = (message) => {
  console.error(`external-memory-proof: ${message}`);
  process.exit(1);
};
const cycles = Number(opts.cycles), frames = Number(opts.frames), size = Number(opts.size);
const [imageWidth, imageHeight] = opts.image.split('x').map(Number);
if (!Number.isInteger(cycles) || cycles < 0 || !Number.isInteger(frames) || frames < 1) fail('--cycles >= 0 and --frames >= 1 must be integers');
if (!Number.isInteger(size) || size < 4096 || size % 4) fail('--size must be a multiple of 4, at least 4096');
if (!Number.isInteger(imageWidth) || !Number.isInteger(imageHeight) || imageWidth < 1 || imageHeight < 1) fail('--image must be WxH');

let cl;
try {
  cl = createRequire(import.meta.url)(join(root, 'dist', 'index.js'));
} catch (error) {
  fail(`cannot load dist/index.js (${error.message}); run npm run build first`);
}

const openFds = () => readdirSync('/proc/self/fd').length - 1; // less the directory's own descriptor
function gpuMemoryMiB() {
  const r = spawnSync('nvidia-smi', ['--query-gpu=memory.used', '--format=csv,noheader,nounits'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) return null;
  return Number(r.stdout.trim().split('\n')[0]);
}
const log = (line) => console.log(line);

const platform = cl.getPlatforms().find((p) => p.name.includes(opts.platform));
if (!platform) fail(`no platform whose name contains "${opts.platform}" (have: ${cl.getPlatforms().map((p) => p.name).join(', ')})`);
const device = platform.getDevices().find((d) => d.type === 'gpu') ?? platform.getDevices()[0];
const memory = cl.getExternalMemory(platform);
const semaphores = cl.getSemaphores(platform);
const context = cl.createContext({ devices: [device] });
const queue = context.createQueue();
if (!device.uuid) fail(`"${device.name}" reports no CL_DEVICE_UUID_KHR`);
const instance = cl.createVulkanInstance({ apiVersion: '1.2' });
const vulkan = instance.createDevice({ uuid: Uint8Array.from(Buffer.from(device.uuid.replace(/-/g, ''), 'hex')) });

const result = {
  platform: platform.name,
  device: device.name,
  driver: device.driverVersion,
  vulkan_device: vulkan.name,
  uuid: device.uuid,
  memory_import_types: memory.importHandleTypes(device),
  semaphore_import_types: semaphores.importHandleTypes(device),
};
log(`OpenCL: ${platform.name} / ${device.name} (driver ${device.driverVersion}); Vulkan: ${vulkan.name}; UUID ${device.uuid}`);
log(`imports: memory ${result.memory_import_types.join(', ')}; semaphores ${result.semaphore_import_types.join(', ')}`);

const program = context.createProgram(
  '__kernel void rewrite_words(__global uint* b) { size_t i = get_global_id(0); b[i] = b[i] * 3u + 1u; }\n' +
    '__kernel void rewrite_pixels(read_only image2d_t img, __global uint* out, uint width) {\n' +
    '  int2 p = (int2)(get_global_id(0), get_global_id(1));\n' +
    '  uint4 c = read_imageui(img, p);\n' +
    '  c = (c * 3u + 1u) & 255u;\n' +
    '  out[p.y * width + p.x] = c.x | (c.y << 8) | (c.z << 16) | (c.w << 24);\n' +
    '}\n' +
    '__kernel void rewrite_rows(__global uint* img, uint pitch_words) {\n' +
    '  size_t i = get_global_id(1) * pitch_words + get_global_id(0);\n' +
    '  uint c = img[i];\n' +
    '  uint4 v = ((uint4)(c & 255u, (c >> 8) & 255u, (c >> 16) & 255u, c >> 24) * 3u + 1u) & 255u;\n' +
    '  img[i] = v.x | (v.y << 8) | (v.z << 16) | (v.w << 24);\n' +
    '}\n',
);
await program.build();
const rewriteWords = program.createKernel('rewrite_words');
const rewritePixels = program.createKernel('rewrite_pixels');
const rewriteRows = program.createKernel('rewrite_rows');

// ---- Vulkan's side: a buffer and a linear RGBA8 image, exported; Vulkan-only copies to read back ----
const words = size / 4;
const vkBuffer = vulkan.createBuffer({ size });
const vkImage = vulkan.createImage({ width: imageWidth, height: imageHeight, format: 'rgba8', tiling: 'linear' });
const plane = vkImage.planes[0];
const imageSource = vulkan.createBuffer({ size: imageWidth * imageHeight * 4, exportTypes: [] });
const bufferBack = vulkan.createBuffer({ size, exportTypes: [] });
const imageBack = vulkan.createBuffer({ size: imageWidth * imageHeight * 4, exportTypes: [] });
const vkToCl = vulkan.createSemaphore();
const clToVk = vulkan.createSemaphore();
log(`Vulkan: a ${size}-byte buffer (allocation ${vkBuffer.allocationSize}${vkBuffer.dedicated ? ', dedicated' : ''}); a ${imageWidth}x${imageHeight} linear RGBA8 image (row pitch ${plane.rowPitch}, offset ${plane.offset}, allocation ${vkImage.allocationSize}${vkImage.dedicated ? ', dedicated' : ''})`);

// ---- imported into OpenCL ----
const fdsBefore = openFds();
const clBuffer = memory.importBuffer(context, vkBuffer.exportMemory());
let clImage = null, clImageRows = null, imageImport;
try {
  clImage = memory.importImage(context, vkImage.exportMemory(), {
    format: { order: 'RGBA', type: 'UNSIGNED_INT8' },
    width: imageWidth,
    height: imageHeight,
    rowPitch: plane.rowPitch,
  });
  imageImport = 'image (clCreateImageWithProperties)';
} catch (error) {
  // Where the driver imports no images: the image's memory as a buffer, its rows at the plane's pitch.
  imageImport = `buffer over the image's rows (importImage failed: ${error.constructor.name}: ${error.message})`;
  clImageRows = memory.importBuffer(context, vkImage.exportMemory());
}
const clSemaphoreIn = semaphores.import(context, vkToCl.exportHandle());
const clSemaphoreOut = semaphores.import(context, clToVk.exportHandle());
result.image_import = imageImport;
result.fds_for_imports = openFds() - fdsBefore;
log(`OpenCL imported the buffer, the image as ${imageImport}, and two semaphores${clSemaphoreIn.deviceListDropped ? ' (NVIDIA refused the device handle list: imported without it)' : ''}; open fds +${result.fds_for_imports} (the driver keeps what it took)`);
const scratch = context.createBuffer(imageWidth * imageHeight * 4);
const imageObject = clImage ?? clImageRows;
const pitchWords = (plane.rowPitch ?? imageWidth * 4) / 4;

// Frame f's values: a word for the buffer, a pixel for the image.
const bufferWord = (f) => (0x01000193 * (f + 1)) >>> 0;
const imagePixel = (f) => (0x9e3779b1 * (f + 7)) >>> 0;
const rewrittenWord = (w) => (Math.imul(w, 3) + 1) >>> 0;
const rewrittenPixel = (p) => {
  let out = 0;
  for (let k = 0; k < 4; k++) out |= (((((p >>> (8 * k)) & 255) * 3 + 1) & 255) << (8 * k));
  return out >>> 0;
};
const writeCommands = new Map();
const writeFor = (f) => {
  let c = writeCommands.get(f);
  if (!c) {
    c = vulkan.record((r) => r.fill(vkBuffer, bufferWord(f)).fill(imageSource, imagePixel(f)).copyBufferToImage(imageSource, vkImage));
    writeCommands.set(f, c);
  }
  return c;
};
const readCommands = vulkan.record((r) => r.copy(vkBuffer, bufferBack).copyImageToBuffer(vkImage, imageBack));

function openclRewrite(ordered) {
  if (ordered) semaphores.wait(queue, [clSemaphoreIn]).release();
  const objects = [clBuffer, imageObject];
  queue.enqueueAcquireShared(objects).release();
  rewriteWords.setArg(0, clBuffer);
  queue.enqueueKernel(rewriteWords, words).release();
  if (clImage) {
    rewritePixels.setArgs(clImage, scratch, ['uint', imageWidth]);
    queue.enqueueKernel(rewritePixels, [imageWidth, imageHeight]).release();
    queue.copyBufferToImage(scratch, clImage).release();
  } else {
    rewriteRows.setArgs(clImageRows, ['uint', pitchWords]);
    queue.enqueueKernel(rewriteRows, [imageWidth, imageHeight]).release();
  }
  queue.enqueueReleaseShared(objects).release();
  if (ordered) semaphores.signal(queue, [clSemaphoreOut]).release();
  queue.flush();
}

async function cyclesOf(ordered, count, first) {
  const tally = { cycles: count, words: 0, mismatched_words: 0, pixels: 0, mismatched_pixels: 0, mismatched_cycles: 0 };
  for (let i = 0; i < count; i++) {
    const f = first + i;
    const written = vulkan.queue.submit(writeFor(f), ordered ? { signal: [vkToCl] } : undefined);
    openclRewrite(ordered);
    const copied = vulkan.queue.submit(readCommands, ordered ? { wait: [clToVk] } : undefined);
    await Promise.all([written, copied, queue.finish()]);
    const b = await bufferBack.read();
    const img = await imageBack.read();
    const bw = new Uint32Array(b.buffer, b.byteOffset, b.byteLength / 4);
    const iw = new Uint32Array(img.buffer, img.byteOffset, img.byteLength / 4);
    const wantWord = rewrittenWord(bufferWord(f)), wantPixel = rewrittenPixel(imagePixel(f));
    let badWords = 0, badPixels = 0;
    for (let k = 0; k < bw.length; k++) if (bw[k] !== wantWord) badWords++;
    for (let k = 0; k < iw.length; k++) if (iw[k] !== wantPixel) badPixels++;
    tally.words += bw.length;
    tally.pixels += iw.length;
    tally.mismatched_words += badWords;
    tally.mismatched_pixels += badPixels;
    if (badWords || badPixels) tally.mismatched_cycles++;
  }
  return tally;
}

const describe = (t) =>
  `${t.cycles} cycles: ${t.mismatched_words} of ${t.words} buffer words and ${t.mismatched_pixels} of ${t.pixels} image pixels wrong (${t.mismatched_cycles} cycles with mismatches)`;
result.ordered = await cyclesOf(true, frames, 0);
log(`ordered by the imported semaphores: ${describe(result.ordered)}`);
result.unordered = await cyclesOf(false, frames, 1000);
log(`without semaphores (the race): ${describe(result.unordered)}`);

clBuffer.release();
imageObject.release();
clSemaphoreIn.release();
clSemaphoreOut.release();
scratch.release();
for (const c of writeCommands.values()) c.dispose();
readCommands.dispose();
await vulkan.queue.idle();
for (const r of [vkBuffer, vkImage, imageSource, bufferBack, imageBack, vkToCl, clToVk]) r.dispose();

// ---- lifetimes: import, acquire, release and free, again and again ----
const cycleBytes = 4 << 20;
async function lifetimeCycle() {
  const buffer = vulkan.createBuffer({ size: cycleBytes });
  const semaphore = vulkan.createSemaphore();
  const mem = memory.importBuffer(context, buffer.exportMemory());
  const sem = semaphores.import(context, semaphore.exportHandle());
  const submitted = vulkan.queue.submit(null, { signal: [semaphore] });
  semaphores.wait(queue, [sem]).release();
  queue.enqueueAcquireShared([mem]).release();
  queue.enqueueReleaseShared([mem]).release();
  await Promise.all([submitted, queue.finish()]);
  mem.release();
  sem.release();
  semaphore.dispose();
  buffer.dispose();
}
for (let i = 0; i < 20; i++) await lifetimeCycle(); // warm-up: the driver's own pools
await vulkan.queue.idle();
global.gc?.();
const before = { fds: openFds(), gpu_mib: gpuMemoryMiB(), rss_mib: Math.round(process.memoryUsage().rss / 2 ** 20) };
const t0 = performance.now();
for (let i = 0; i < cycles; i++) await lifetimeCycle();
const seconds = (performance.now() - t0) / 1000;
await vulkan.queue.idle();
global.gc?.();
const after = { fds: openFds(), gpu_mib: gpuMemoryMiB(), rss_mib: Math.round(process.memoryUsage().rss / 2 ** 20) };
result.lifetimes = { cycles, bytes_per_cycle: cycleBytes, seconds, before, after };
log(
  `${cycles} cycles of export, import (${cycleBytes} bytes + a semaphore), wait, acquire, release, free in ${seconds.toFixed(2)} s: ` +
    `open fds ${before.fds} -> ${after.fds}; GPU memory used ${before.gpu_mib ?? 'n/a'} -> ${after.gpu_mib ?? 'n/a'} MiB (nvidia-smi); RSS ${before.rss_mib} -> ${after.rss_mib} MiB`,
);

queue.release();
context.release();
vulkan.dispose();
instance.dispose();
const ok = result.ordered.mismatched_words === 0 && result.ordered.mismatched_pixels === 0 && result.unordered.mismatched_cycles > 0 && after.fds === before.fds && (before.gpu_mib === null || after.gpu_mib <= before.gpu_mib);
result.ok = ok;
log(ok ? 'PROOF HOLDS: 0 mismatches ordered, the race shows without semaphores, nothing left behind' : 'PROOF FAILS: see above');
if (opts.json) console.log(JSON.stringify(result));
process.exitCode = ok ? 0 : 1;
