// Frame pipelines the tests run (test/frame-pipeline.test.ts on lavapipe + the
// reference driver and PoCL, test/gpu/frame-pipeline.test.mjs on a GPU): NV12
// test frames through the package's FramePipeline, converted to RGBA and
// checked pixel by pixel against the same conversion on the CPU. `ocl` is the
// package (lib/ under vitest, dist/ elsewhere), so one scenario serves both.

// BT.601 limited range, integer arithmetic; one work-item per 4 pixels.
export const NV12_TO_RGBA_SOURCE = `
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

/** The RGBA words (0xAABBGGRR) of NV12 test frame `frame`, converted on the CPU. */
export function rgbaOnCpu(ocl, frame, width, height) {
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

/**
 * The converter of a queue's device: the OpenCL C kernel above over the plane
 * buffers where the device compiles, else (the reference driver) its built-in
 * nv12_to_rgba over images the planes are copied into.
 * Returns { convert(queue, yPlane, uvPlane, rgbaBuffer, scratch), scratch(), release() }.
 */
export async function converter(context, device, width, height) {
  if (device.compilerAvailable) {
    const program = context.createProgram(NV12_TO_RGBA_SOURCE);
    await program.build();
    const kernel = program.createKernel('nv12_to_rgba');
    kernel.setArg(3, width / 4, 'uint');
    return {
      scratch: () => null,
      convert(queue, y, uv, rgba) {
        kernel.setArg(0, y).setArg(1, uv).setArg(2, rgba);
        queue.enqueueKernel(kernel, [width / 4, height]).release();
      },
      release() {
        kernel.release();
        program.release();
      },
    };
  }
  const program = context.createProgramWithBuiltInKernels(['nv12_to_rgba']);
  const kernel = program.createKernel('nv12_to_rgba');
  return {
    scratch: () => ({
      y: context.createImage({ format: { order: 'R', type: 'UNORM_INT8' }, width, height }),
      uv: context.createImage({ format: { order: 'RG', type: 'UNORM_INT8' }, width: width / 2, height: height / 2 }),
      rgba: context.createImage({ format: { order: 'RGBA', type: 'UNORM_INT8' }, width, height }),
      [Symbol.dispose]() {
        this.y.release();
        this.uv.release();
        this.rgba.release();
      },
    }),
    convert(queue, y, uv, rgba, scratch) {
      queue.copyBufferToImage(y, scratch.y).release();
      queue.copyBufferToImage(uv, scratch.uv).release();
      kernel.setArgs(scratch.y, scratch.uv, scratch.rgba);
      queue.enqueueKernel(kernel, [width, height]).release();
      queue.copyImageToBuffer(scratch.rgba, rgba).release();
    },
    release() {
      kernel.release();
      program.release();
    },
  };
}

function compare(got, want) {
  let bad = 0;
  for (let i = 0; i < want.length; i++) if (got[i] !== want[i]) bad++;
  return bad;
}

/**
 * Vulkan makes NV12 test frames (16 different ones) in exported memory,
 * OpenCL imports it and converts each frame into an imported RGBA buffer,
 * Vulkan copies that into its own buffer; every frame is read back there
 * (onConsumed) and compared. `vulkan` is a VulkanDevice on the queue's GPU.
 * Returns { sync, frames, checked, mismatches }.
 */
export async function vulkanPipeline(ocl, { queue, vulkan, width = 64, height = 32, slots = 4, frames = 24, order = 'ahead', lag = 0, sync }) {
  const context = queue.context;
  const memory = ocl.getExternalMemory(context.platform);
  const conv = await converter(context, queue.device, width, height);
  const ySize = width * height;
  const wanted = new Map();
  const want = (k) => wanted.get(k) ?? wanted.set(k, rgbaOnCpu(ocl, k, width, height)).get(k);
  const pipeline = new ocl.FramePipeline({
    queue,
    vulkan,
    slots,
    sync,
    resources: () => {
      const nv12 = vulkan.createBuffer({ size: ySize * 1.5 });
      const rgba = vulkan.createBuffer({ size: ySize * 4 });
      const shown = vulkan.createBuffer({ size: ySize * 4, exportTypes: [] });
      const planes = memory.importPlanes(context, nv12.exportMemory(), {
        format: 'NV12',
        width,
        height,
        planes: [
          { offset: 0, pitch: width },
          { offset: ySize, pitch: width },
        ],
      });
      const clRgba = memory.importBuffer(context, rgba.exportMemory());
      const make = new Map();
      return {
        nv12,
        rgba,
        shown,
        planes,
        clRgba,
        make,
        scratch: conv.scratch(),
        show: vulkan.record((r) => r.copy(rgba, shown)),
        [Symbol.dispose]() {
          planes.release();
          clRgba.release();
          this.scratch?.[Symbol.dispose]();
          for (const c of [...make.values(), this.show]) c.dispose();
          for (const b of [nv12, rgba, shown]) b.dispose();
        },
      };
    },
    acquire: (s) => [s.resources.planes.memory[0], s.resources.clRgba],
    produce: {
      vulkan: (s, frame) => {
        const r = s.resources,
          k = frame % 16;
        if (!r.make.has(k))
          r.make.set(
            k,
            vulkan.record((x) => x.nv12TestFrame(r.nv12, { frame: k, width, height })),
          );
        return r.make.get(k);
      },
    },
    process: (s) => conv.convert(queue, s.resources.planes.planes[0], s.resources.planes.planes[1], s.resources.clRgba, s.resources.scratch),
    consume: { vulkan: (s) => s.resources.show },
  });
  let checked = 0,
    mismatches = 0,
    consumed = 0;
  try {
    await pipeline.run({
      frames,
      order,
      lag,
      onConsumed: async (s, frame) => {
        const bytes = await s.resources.shown.read();
        mismatches += compare(new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4), want(frame % 16));
        checked += ySize;
        consumed++;
      },
    });
  } finally {
    await pipeline.asyncDispose();
    conv.release();
  }
  return { sync: pipeline.sync, frames: consumed, checked, mismatches };
}

/**
 * Plain host uploads: the producer writes frame f's NV12 bytes into the
 * slot's OpenCL buffer (a non-blocking write on the pipeline's queue), the
 * kernel converts it, the consumer reads the RGBA frame back (a non-blocking
 * read; the pipeline waits for it before the slot is reused) and compares it.
 * With `uploadQueue`, the uploads go on that queue instead and OpenCL's work
 * waits for their events. Returns { frames, checked, mismatches }.
 */
export async function hostUploadPipeline(ocl, { queue, uploadQueue, width = 64, height = 32, slots = 3, frames = 20, order = 'ahead', lag = 0 }) {
  const context = queue.context;
  const conv = await converter(context, queue.device, width, height);
  const ySize = width * height;
  const sources = new Map();
  const source = (k) => {
    if (!sources.has(k)) {
      const { y, uv } = ocl.nv12TestFrame(k, width, height);
      const bytes = new Uint8Array(ySize * 1.5);
      bytes.set(y);
      bytes.set(uv, ySize);
      sources.set(k, { bytes, rgba: rgbaOnCpu(ocl, k, width, height) });
    }
    return sources.get(k);
  };
  let checked = 0,
    mismatches = 0,
    consumed = 0;
  const pipeline = new ocl.FramePipeline({
    queue,
    slots,
    resources: () => {
      const nv12 = context.createBuffer(ySize * 1.5);
      return {
        nv12,
        y: nv12.createSubBuffer(0, ySize),
        uv: nv12.createSubBuffer(ySize, ySize / 2),
        rgba: context.createBuffer(ySize * 4),
        out: new Uint32Array(ySize),
        scratch: conv.scratch(),
        [Symbol.dispose]() {
          for (const m of [this.y, this.uv, this.nv12, this.rgba]) m.release();
          this.scratch?.[Symbol.dispose]();
        },
      };
    },
    produce: {
      host: (s, frame) => {
        const write = (uploadQueue ?? queue).writeBuffer(s.resources.nv12, source(frame % 16).bytes);
        if (uploadQueue) {
          uploadQueue.flush();
          return write;
        }
        write.release();
      },
    },
    process: (s) => conv.convert(queue, s.resources.y, s.resources.uv, s.resources.rgba, s.resources.scratch),
    consume: {
      host: async (s, frame) => {
        const read = queue.readBuffer(s.resources.rgba, s.resources.out);
        try {
          await read;
        } finally {
          read.release();
        }
        mismatches += compare(s.resources.out, source(frame % 16).rgba);
        checked += ySize;
        consumed++;
      },
    },
  });
  try {
    await pipeline.run({ frames, order, lag });
  } finally {
    await pipeline.asyncDispose();
    conv.release();
  }
  return { frames: consumed, checked, mismatches };
}
