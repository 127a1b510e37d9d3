#!/usr/bin/env node
// Proof, on a real GPU, that memory and semaphores move between Vulkan and
// OpenCL through this package's public API (cl_khr_external_memory +
// cl_khr_external_semaphore with opaque fds, and the package's Vulkan module):
//
//  1. ordered: each cycle, Vulkan writes a buffer (a fill) and RGBA8 images
//     (a different value per pixel, copied in from a Vulkan-only buffer) and
//     signals a semaphore; OpenCL waits on it (imported), acquires the
//     imported memory, rewrites every word of the buffer (x * 3 + 1) and
//     every channel of the images ((c * 3 + 1) & 255), releases it and
//     signals a second imported semaphore; Vulkan waits on that and copies
//     everything out; every value is compared with what it must be.
//     The images: a linear image (with its row pitch) and an optimal-tiling
//     one imported as images, a linear image's memory as a buffer (rows at
//     the plane's offset and pitch), and an image written by a Vulkan fill.
//     A driver reads imported images in the layout its
//     ..._ASSUME_LINEAR_IMAGES_HANDLE_TYPES_KHR list says (linear rows, or
//     its own): importImage must refuse the other tiling
//     (OpenCLImageLayoutError). The cycles are submitted back to back and
//     checked at the end. Expected: 0 mismatches. Then a layout pass: OpenCL
//     reads each image pixel by pixel and must find every pixel where Vulkan
//     wrote it, and the other way round (the cycles' rewrite in place would
//     not notice a layout the two sides disagree on).
//  2. unordered: the same cycles with no semaphore: nothing orders Vulkan's
//     writes, OpenCL's rewrite and Vulkan's copies. Expected: mismatches
//     (the race the semaphores prevent).
//  3. lifetimes: N cycles (default 1000) of: a Vulkan buffer and semaphore
//     made and exported, imported into OpenCL, acquired and released, and
//     everything released again; GPU memory in use (nvidia-smi, where there
//     is one) and the process's open descriptors are read before and after.
//
//   node scripts/external-memory-proof.mjs [--platform NAME] [--cycles N] [--frames N]
//        [--size BYTES] [--image WxH] [--json]
//
// On a GPU machine without Node or a Vulkan loader: scripts/gpu/pack-for-gpu-machine.sh
// on the build machine, then `bash scripts/gpu/with-gpu-drivers.sh node
// scripts/external-memory-proof.mjs` there (it sets VK_DRIVER_FILES and
// OCL_ICD_VENDORS to NVIDIA's drivers).
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
    size: { type: 'string', default: String(16 << 20) },
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
const cycles = Number(opts.cycles),
  frames = Number(opts.frames),
  size = Number(opts.size);
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
if (!platform)
  fail(
    `no platform whose name contains "${opts.platform}" (have: ${cl
      .getPlatforms()
      .map((p) => p.name)
      .join(', ')})`,
  );
const device = platform.getDevices().find((d) => d.type === 'gpu') ?? platform.getDevices()[0];
const memory = cl.getExternalMemory(platform);
const semaphores = cl.getSemaphores(platform);
const context = cl.createContext({ devices: [device] });
const queue = context.createQueue();
if (!device.uuid) fail(`"${device.name}" reports no CL_DEVICE_UUID_KHR`);
const instance = cl.createVulkanInstance({ apiVersion: '1.2' });
const vulkan = instance.createDevice({ uuid: device.uuidBytes });

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
    '__kernel void rewrite_rows(__global uint* img, uint offset_words, uint pitch_words) {\n' +
    '  size_t i = offset_words + get_global_id(1) * pitch_words + get_global_id(0);\n' +
    '  uint c = img[i];\n' +
    '  uint4 v = ((uint4)(c & 255u, (c >> 8) & 255u, (c >> 16) & 255u, c >> 24) * 3u + 1u) & 255u;\n' +
    '  img[i] = v.x | (v.y << 8) | (v.z << 16) | (v.w << 24);\n' +
    '}\n',
);
await program.build();
const rewriteWords = program.createKernel('rewrite_words');
const rewritePixels = program.createKernel('rewrite_pixels');
const rewriteRows = program.createKernel('rewrite_rows');

// Cycle f's values: one word for the whole buffer; a different value per pixel of the image.
const bufferWord = (f) => (0x01000193 * (f + 1)) >>> 0;
const imagePixel = (f, x, y) => (Math.imul(x + 1, 0x9e3779b1) ^ Math.imul(y + 1, 0x85ebca77) ^ Math.imul(f + 1, 0xc2b2ae3d)) >>> 0;
const filledPixel = (f) => (0x9e3779b1 * (f + 7)) >>> 0;
const rewrittenWord = (w) => (Math.imul(w, 3) + 1) >>> 0;
const rewrittenPixel = (p) => {
  let out = 0;
  for (let k = 0; k < 4; k++) out |= ((((p >>> (8 * k)) & 255) * 3 + 1) & 255) << (8 * k);
  return out >>> 0;
};

// ---- what Vulkan writes and OpenCL rewrites: a buffer, and images imported three ways ----
const words = size / 4;
const pixels = imageWidth * imageHeight;
const targets = [];
const fdsBefore = openFds();
{
  const vk = vulkan.createBuffer({ size });
  targets.push({
    name: 'buffer',
    kind: 'buffer',
    counted: true,
    vk,
    cl: memory.importBuffer(context, vk.exportMemory()),
    words,
    note: `${size} bytes, allocation ${vk.allocationSize}${vk.dedicated ? ' (dedicated)' : ''}`,
  });
}
// The images: a linear one (with its row pitch) and an optimal-tiling one imported as images, a linear one's
// memory imported as a buffer (rows at the plane's offset and pitch), and one written by a Vulkan fill (into a
// staging buffer, copied into the image in the same submission) in the tiling the driver reads. A driver reads
// imported images of the handle types in CL_DEVICE_EXTERNAL_MEMORY_IMPORT_ASSUME_LINEAR_IMAGES_HANDLE_TYPES_KHR
// as linear rows and the others in a layout of its own: importImage refuses the tiling the driver would misread
// (OpenCLImageLayoutError), and that refusal is the right outcome for that target.
const linearAssumed = memory.assumeLinearImageHandleTypes(device).includes('opaque-fd');
const readable = linearAssumed ? 'linear' : 'optimal';
for (const [name, tiling, as] of [
  ['image, linear', 'linear', 'image'],
  ['image, optimal tiling', 'optimal', 'image'],
  ['image, linear, its memory as a buffer', 'linear', 'rows'],
  [`image, ${readable}, written by a Vulkan fill`, readable, 'image-fill'],
]) {
  const vk = vulkan.createImage({ width: imageWidth, height: imageHeight, format: 'rgba8', tiling });
  const plane = vk.planes[0];
  const note = `${imageWidth}x${imageHeight} RGBA8 ${tiling}${plane.rowPitch !== null ? `, row pitch ${plane.rowPitch}, offset ${plane.offset}` : ''}, allocation ${vk.allocationSize}${vk.dedicated ? ' (dedicated)' : ''}`;
  const kind = as === 'image-fill' ? 'image' : as;
  const mustRefuse = kind === 'image' && tiling !== readable;
  try {
    const imported =
      as !== 'rows'
        ? memory.importImage(context, vk.exportMemory(), {
            format: { order: 'RGBA', type: 'UNSIGNED_INT8' },
            width: imageWidth,
            height: imageHeight,
            rowPitch: tiling === 'linear' ? plane.rowPitch : 0,
          })
        : memory.importBuffer(context, vk.exportMemory());
    const fillSource = as === 'image-fill' ? vulkan.createBuffer({ size: imageWidth * imageHeight * 4, exportTypes: [] }) : null;
    targets.push({ name, kind, filled: !!fillSource, counted: true, fillSource, vk, cl: imported, plane, note, mustRefuse });
  } catch (error) {
    const refused = error instanceof cl.OpenCLImageLayoutError;
    targets.push({ name, kind, counted: true, vk, cl: null, plane, note, mustRefuse, refused, error: `${error.constructor.name}: ${error.message}` });
  }
}
result.fds_for_imports = openFds() - fdsBefore;
log(`assume-linear image handle types: ${JSON.stringify(memory.assumeLinearImageHandleTypes(device))}`);
for (const t of targets) {
  const outcome = t.cl ? 'imported' : t.mustRefuse && t.refused ? `refused, as it must be (${t.error})` : `NOT imported (${t.error})`;
  log(`${t.name}: ${t.note}; ${outcome}${t.cl && t.mustRefuse ? ' [WRONG: the driver reads this tiling another way]' : ''}`);
}

// ---- the cycles: all submitted back to back (ordered by semaphores, or not at all), then checked ----
const inSemaphore = vulkan.createSemaphore();
const outSemaphore = vulkan.createSemaphore();
const clIn = semaphores.import(context, inSemaphore.exportHandle());
const clOut = semaphores.import(context, outSemaphore.exportHandle());
log(`semaphores: Vulkan's, imported into OpenCL${clIn.deviceListDropped ? ' (NVIDIA refused the device handle list: imported without it)' : ''}`);
const live = targets.filter((t) => t.cl);
const imageBytes = pixels * 4;
const scratch = context.createBuffer(imageBytes);

async function cyclesOf(ordered, count, first) {
  // Per cycle: the image's source pixels (written from the host first), and where Vulkan copies the results.
  const sources = [],
    backs = [],
    commands = [];
  for (let i = 0; i < count; i++) {
    const f = first + i;
    const source = vulkan.createBuffer({ size: imageBytes, exportTypes: [] });
    const px = new Uint32Array(pixels);
    for (let y = 0, k = 0; y < imageHeight; y++) for (let x = 0; x < imageWidth; x++, k++) px[k] = imagePixel(f, x, y);
    await source.write(px);
    sources.push(source);
    const back = live.map((t) => vulkan.createBuffer({ size: t.kind === 'buffer' ? size : imageBytes, exportTypes: [] }));
    backs.push(back);
    const write = vulkan.record((r) => {
      for (const t of live) {
        if (t.kind === 'buffer') r.fill(t.vk, bufferWord(f));
        else if (t.filled) r.fill(t.fillSource, filledPixel(f)).copyBufferToImage(t.fillSource, t.vk);
        else r.copyBufferToImage(source, t.vk);
      }
    });
    const read = vulkan.record((r) => {
      live.forEach((t, k) => {
        if (t.kind === 'buffer') r.copy(t.vk, back[k]);
        else r.copyImageToBuffer(t.vk, back[k]);
      });
    });
    commands.push({ write, read });
  }
  const done = [];
  const objects = live.map((t) => t.cl);
  for (let i = 0; i < count; i++) {
    done.push(vulkan.queue.submit(commands[i].write, ordered ? { signal: [inSemaphore] } : undefined));
    if (ordered) semaphores.wait(queue, [clIn]).release();
    queue.enqueueAcquireShared(objects).release();
    for (const t of live) {
      if (t.kind === 'buffer') {
        rewriteWords.setArg(0, t.cl);
        queue.enqueueKernel(rewriteWords, words).release();
      } else if (t.kind === 'image') {
        rewritePixels.setArgs(t.cl, scratch, ['uint', imageWidth]);
        queue.enqueueKernel(rewritePixels, [imageWidth, imageHeight]).release();
        queue.copyBufferToImage(scratch, t.cl).release();
      } else {
        rewriteRows.setArgs(t.cl, ['uint', t.plane.offset / 4], ['uint', t.plane.rowPitch / 4]);
        queue.enqueueKernel(rewriteRows, [imageWidth, imageHeight]).release();
      }
    }
    queue.enqueueReleaseShared(objects).release();
    if (ordered) semaphores.signal(queue, [clOut]).release();
    queue.flush();
    done.push(vulkan.queue.submit(commands[i].read, ordered ? { wait: [outSemaphore] } : undefined));
  }
  await Promise.all([...done, queue.finish()]);
  const tallies = live.map((t) => ({ target: t.name, cycles: count, values: 0, mismatched: 0, mismatched_cycles: 0 }));
  for (let i = 0; i < count; i++) {
    const f = first + i;
    for (const [k, t] of live.entries()) {
      const bytes = await backs[i][k].read();
      const got = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
      let bad = 0;
      if (t.kind === 'buffer') {
        const want = rewrittenWord(bufferWord(f));
        for (let j = 0; j < got.length; j++) if (got[j] !== want) bad++;
      } else if (t.filled) {
        const want = rewrittenPixel(filledPixel(f));
        for (let j = 0; j < got.length; j++) if (got[j] !== want) bad++;
      } else {
        for (let y = 0, j = 0; y < imageHeight; y++)
          for (let x = 0; x < imageWidth; x++, j++) if (got[j] !== rewrittenPixel(imagePixel(f, x, y))) bad++;
      }
      tallies[k].values += got.length;
      tallies[k].mismatched += bad;
      if (bad) tallies[k].mismatched_cycles++;
    }
  }
  await vulkan.queue.idle();
  for (const b of [...sources, ...backs.flat()]) b.dispose();
  for (const c of commands) {
    c.write.dispose();
    c.read.dispose();
  }
  return tallies;
}

const describe = (t) => `${t.target}: ${t.mismatched} of ${t.values} values wrong (${t.mismatched_cycles} of ${t.cycles} cycles with mismatches)`;
result.ordered = await cyclesOf(true, frames, 0);
for (const t of result.ordered) log(`ordered by the imported semaphores, ${describe(t)}`);
result.unordered = await cyclesOf(false, frames, 1000);
for (const t of result.unordered) log(`without semaphores (the race), ${describe(t)}`);
result.targets = targets.map((t) => ({
  name: t.name,
  note: t.note,
  imported: !!t.cl,
  must_refuse: t.mustRefuse,
  refused: !!t.refused,
  counted: t.counted,
  error: t.error,
}));

// ---- layout: what OpenCL reads is what Vulkan wrote at the same pixel, and the other way round ----
// (The cycles above rewrite each value where it lies, so they would pass with any layout the two sides
// disagree on: this pass compares pixel by pixel.)
result.layout = [];
for (const t of live.filter((t) => t.kind !== 'buffer')) {
  const want = new Uint32Array(pixels),
    back = new Uint32Array(pixels);
  for (let y = 0, k = 0; y < imageHeight; y++) for (let x = 0; x < imageWidth; x++, k++) want[k] = imagePixel(7000, x, y);
  for (let k = 0; k < pixels; k++) back[k] = imagePixel(8000, k % imageWidth, Math.floor(k / imageWidth));
  const source = vulkan.createBuffer({ size: imageBytes, exportTypes: [] });
  const copyOut = vulkan.createBuffer({ size: t.kind === 'rows' ? t.vk.allocationSize : imageBytes, exportTypes: [] });
  await source.write(want);
  const written = vulkan.queue.submit(
    vulkan.record((r) => r.copyBufferToImage(source, t.vk)),
    { signal: [inSemaphore] },
  );
  const seen = new Uint32Array(pixels);
  semaphores.wait(queue, [clIn]).release();
  queue.enqueueAcquireShared([t.cl]).release();
  const rowWords = t.kind === 'rows' ? t.plane.rowPitch / 4 : 0;
  if (t.kind === 'rows') {
    const all = new Uint32Array(t.vk.allocationSize / 4);
    await queue.readBuffer(t.cl, all);
    for (let y = 0; y < imageHeight; y++)
      seen.set(all.subarray(t.plane.offset / 4 + y * rowWords, t.plane.offset / 4 + y * rowWords + imageWidth), y * imageWidth);
    for (let y = 0; y < imageHeight; y++) all.set(back.subarray(y * imageWidth, (y + 1) * imageWidth), t.plane.offset / 4 + y * rowWords);
    queue.writeBuffer(t.cl, all).release();
  } else {
    queue.readImage(t.cl, seen).release();
    queue.writeImage(t.cl, back).release();
  }
  queue.enqueueReleaseShared([t.cl]).release();
  semaphores.signal(queue, [clOut]).release();
  queue.flush();
  const readBack = vulkan.queue.submit(
    vulkan.record((r) => r.copyImageToBuffer(t.vk, copyOut)),
    { wait: [outSemaphore] },
  );
  await Promise.all([written, readBack, queue.finish()]);
  const out = await copyOut.read();
  const vkSeen = new Uint32Array(out.buffer, out.byteOffset, pixels);
  const wrong = (got, expected) => got.reduce((n, v, k) => n + (v !== expected[k] ? 1 : 0), 0);
  const entry = { target: t.name, pixels, opencl_read_wrong: wrong(seen, want), vulkan_read_wrong: wrong(vkSeen, back) };
  result.layout.push(entry);
  log(
    `layout, ${t.name}: OpenCL read ${entry.opencl_read_wrong} of ${pixels} pixels not where Vulkan wrote them; Vulkan read ${entry.vulkan_read_wrong} of ${pixels} not where OpenCL wrote them`,
  );
  source.dispose();
  copyOut.dispose();
}

for (const t of targets) {
  t.cl?.release();
}
clIn.release();
clOut.release();
scratch.release();
await vulkan.queue.idle();
for (const r of [...targets.map((t) => t.vk), ...targets.flatMap((t) => (t.fillSource ? [t.fillSource] : [])), inSemaphore, outSemaphore])
  r.dispose();

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
// The verdict: every target imported that the driver reads as it was written, and refused otherwise; right
// when ordered, pixel by pixel both ways; raced without semaphores.
const counted = new Set(targets.filter((t) => t.counted && t.cl).map((t) => t.name));
const ok =
  targets.every((t) => (t.mustRefuse ? !t.cl && t.refused : !!t.cl)) &&
  result.layout.every((l) => l.opencl_read_wrong === 0 && l.vulkan_read_wrong === 0) &&
  result.ordered.every((t) => !counted.has(t.target) || t.mismatched === 0) &&
  result.unordered.every((t) => !counted.has(t.target) || t.mismatched > 0) &&
  after.fds === before.fds &&
  (before.gpu_mib === null || after.gpu_mib <= before.gpu_mib);
result.ok = ok;
const refusedRight = targets.filter((t) => t.mustRefuse && t.refused).map((t) => t.name);
log(
  ok
    ? `PROOF HOLDS: ${[...counted].join('; ')}: 0 mismatches ordered, every pixel where the other API put it, the race shows without semaphores; nothing left behind` +
        (refusedRight.length ? `; refused as the driver's layout requires: ${refusedRight.join('; ')}` : '')
    : 'PROOF FAILS: see above',
);
if (opts.json) console.log(JSON.stringify(result));
process.exitCode = ok ? 0 : 1;
