// Video frames made by Vulkan, converted by OpenCL, handed back to Vulkan,
// with no copy between the two APIs: 4K NV12 frames written by a Vulkan
// compute shader (the package's NV12 test pattern) into memory Vulkan exports
// as opaque fds; OpenCL imports it (the planes as sub-buffers), converts each
// frame to RGBA in memory it also imports from Vulkan, and Vulkan copies the
// RGBA frame on. Eight frames in flight, ordered by semaphores (the
// package's FramePipeline). At the end the last frames are read back and
// compared with the same conversion done on the CPU.
//
//   node examples/vulkan-nv12-to-rgba.mjs [--platform NAME] [--width W] [--height H] [--frames N] [--slots N]
//
// Needs an OpenCL platform with cl_khr_external_memory_opaque_fd and
// cl_khr_external_semaphore_opaque_fd and the Vulkan device with the same
// UUID (NVIDIA's drivers on Linux have both).
import { parseArgs } from 'node:util';
import * as ocl from '../dist/index.js';

// BT.601 limited range, integer arithmetic (the CPU check computes the same).
export const nv12ToRgbaBuffersSource = `
uint rgba_pixel(int luma, int d, int e) {
  int c = 298 * (luma - 16) + 128;
  int r = clamp((c + 409 * e) >> 8, 0, 255);
  int g = clamp((c - 100 * d - 208 * e) >> 8, 0, 255);
  int b = clamp((c + 516 * d) >> 8, 0, 255);
  return (uint)r | ((uint)g << 8) | ((uint)b << 16) | 0xff000000u;
}
__kernel void nv12_to_rgba(__global const uchar4* y, __global const uchar4* uv, __global uint4* rgba, uint pitch4) {
  uint x = get_global_id(0), row = get_global_id(1);
  uchar4 l = y[row * pitch4 + x];
  uchar4 c = uv[(row >> 1) * pitch4 + x];
  int d0 = (int)c.s0 - 128, e0 = (int)c.s1 - 128, d1 = (int)c.s2 - 128, e1 = (int)c.s3 - 128;
  rgba[row * pitch4 + x] = (uint4)(rgba_pixel(l.s0, d0, e0), rgba_pixel(l.s1, d0, e0),
                                   rgba_pixel(l.s2, d1, e1), rgba_pixel(l.s3, d1, e1));
}`;

/** The RGBA pixels (0xAABBGGRR words) the kernel makes of NV12 test frame `frame`, computed on the CPU. */
export function rgbaOnCpu(frame, width, height) {
  const { y, uv } = ocl.nv12TestFrame(frame, width, height);
  const out = new Uint32Array(width * height);
  const clamp = (v) => (v < 0 ? 0 : v > 255 ? 255 : v);
  for (let row = 0; row < height; row++) {
    for (let x = 0; x < width; x++) {
      const c = 298 * (y[row * width + x] - 16) + 128;
      const k = (row >> 1) * width + (x & ~1);
      const d = uv[k] - 128,
        e = uv[k + 1] - 128;
      out[row * width + x] =
        (clamp((c + 409 * e) >> 8) | (clamp((c - 100 * d - 208 * e) >> 8) << 8) | (clamp((c + 516 * d) >> 8) << 16) | 0xff000000) >>> 0;
    }
  }
  return out;
}

export async function runVulkanExample({ platformName = 'NVIDIA', width = 3840, height = 2160, frames = 600, slotCount = 8 } = {}) {
  const platform = ocl.getPlatforms().find((p) => p.name.includes(platformName) && p.supports('cl_khr_external_semaphore'));
  if (!platform) throw new Error(`no OpenCL platform named like "${platformName}" with cl_khr_external_memory and cl_khr_external_semaphore`);
  const device = platform.getDevices()[0];
  if (!device.uuidBytes) throw new Error(`"${device.name}" reports no CL_DEVICE_UUID_KHR: no Vulkan device can be matched to it`);
  const memory = ocl.getExternalMemory(platform);
  // (Node 20 has no `using`: everything is released at the end.)
  const context = ocl.createContext({ devices: [device] });
  const queue = context.createQueue();
  const program = context.createProgram(nv12ToRgbaBuffersSource);
  await program.build();
  const kernel = program.createKernel('nv12_to_rgba');
  kernel.setArg(3, width / 4, 'uint');

  // The Vulkan device that is the same GPU as the OpenCL device.
  const instance = ocl.createVulkanInstance();
  const vulkan = instance.createDevice({ uuid: device.uuidBytes });

  const ySize = width * height;
  const slots = [];
  for (let i = 0; i < slotCount; i++) {
    const nv12 = vulkan.createBuffer({ size: ySize * 1.5 });
    const rgba = vulkan.createBuffer({ size: ySize * 4 });
    const shown = vulkan.createBuffer({ size: ySize * 4, exportTypes: [] }); // where the consumer puts the frame
    slots.push({
      nv12,
      rgba,
      shown,
      // The import takes the exported fd (the driver closes it when the memory is released).
      planes: memory.importPlanes(context, nv12.exportMemory(), {
        format: 'NV12',
        width,
        height,
        planes: [
          { offset: 0, pitch: width },
          { offset: ySize, pitch: width },
        ],
      }),
      clRgba: memory.importBuffer(context, rgba.exportMemory()),
      make: new Map(),
      show: vulkan.record((r) => r.copy(rgba, shown)),
    });
  }
  // The producer's commands for a frame number: recorded once, submitted many times.
  const makeFrame = (slot, frame) => {
    const n = frame % 16; // 16 different frames, enough to see each one arrive
    if (!slot.make.has(n))
      slot.make.set(
        n,
        vulkan.record((r) => r.nv12TestFrame(slot.nv12, { frame: n, width, height })),
      );
    return slot.make.get(n);
  };

  const pipeline = new ocl.FramePipeline({
    queue,
    vulkan,
    slots: slotCount,
    resources: (index) => slots[index],
    acquire: (s) => [s.resources.planes.memory[0], s.resources.clRgba],
    produce: { vulkan: (s, frame) => makeFrame(s.resources, frame) },
    process: (s) => {
      const slot = s.resources;
      kernel.setArg(0, slot.planes.planes[0]).setArg(1, slot.planes.planes[1]).setArg(2, slot.clRgba);
      queue.enqueueKernel(kernel, [width / 4, height]).release();
    },
    consume: { vulkan: (s) => s.resources.show },
  });
  const t0 = performance.now();
  await pipeline.run({ frames, order: 'ahead' });
  const seconds = (performance.now() - t0) / 1000;
  await pipeline.asyncDispose();

  // The last frame of each slot, as Vulkan has it, against the CPU's conversion.
  let mismatches = 0,
    checked = 0;
  for (let i = 0; i < Math.min(slotCount, frames, 4); i++) {
    const frame = frames - 1 - i;
    const slot = slots[frame % slotCount];
    const bytes = await slot.shown.read();
    const got = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    const want = rgbaOnCpu(frame % 16, width, height);
    for (let k = 0; k < want.length; k++) if (got[k] !== want[k]) mismatches++;
    checked += want.length;
  }
  for (const slot of slots) {
    slot.planes.release();
    slot.clRgba.release();
    for (const c of [...slot.make.values(), slot.show]) c.dispose();
    for (const b of [slot.nv12, slot.rgba, slot.shown]) b.dispose();
  }
  kernel.release();
  program.release();
  await vulkan.queue.idle();
  vulkan.dispose();
  instance.dispose();
  queue.release();
  context.release();
  return {
    device: device.name,
    vulkanDevice: vulkan.name,
    width,
    height,
    frames,
    slots: slotCount,
    seconds,
    fps: frames / seconds,
    checked,
    mismatches,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      platform: { type: 'string', default: 'NVIDIA' },
      width: { type: 'string', default: '3840' },
      height: { type: 'string', default: '2160' },
      frames: { type: 'string', default: '600' },
      slots: { type: 'string', default: '8' },
    },
  });
  const r = await runVulkanExample({
    platformName: values.platform,
    width: Number(values.width),
    height: Number(values.height),
    frames: Number(values.frames),
    slotCount: Number(values.slots),
  });
  console.log(
    `${r.frames} ${r.width}x${r.height} NV12 frames, Vulkan (${r.vulkanDevice}) -> OpenCL (${r.device}) -> Vulkan, ${r.slots} in flight: ${r.fps.toFixed(0)} frames/s`,
  );
  console.log(
    `the last ${Math.min(r.slots, r.frames, 4)} frames read back from Vulkan: ${r.mismatches} of ${r.checked} pixels differ from the CPU's conversion`,
  );
  process.exitCode = r.mismatches === 0 ? 0 : 1;
}
