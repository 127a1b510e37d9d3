// What the NV12 -> RGBA pipeline benches share (external-pipeline.mjs on one
// GPU, multi-gpu-pipeline.mjs on N): the kernel, the values of each frame as
// bench/external_pipeline.c makes them, and the slots' Vulkan buffers, their
// imports into OpenCL and the recorded producer and consumer commands.

// Keep identical to kNv12ToRgbaSource in bench/external_pipeline.c.
export const NV12_TO_RGBA_SOURCE =
  'uint rgba_pixel(int luma, int d, int e) {\n' +
  '  int c = 298 * (luma - 16) + 128;\n' +
  '  int r = clamp((c + 409 * e) >> 8, 0, 255);\n' +
  '  int g = clamp((c - 100 * d - 208 * e) >> 8, 0, 255);\n' +
  '  int b = clamp((c + 516 * d) >> 8, 0, 255);\n' +
  '  return (uint)r | ((uint)g << 8) | ((uint)b << 16) | 0xff000000u;\n' +
  '}\n' +
  '__kernel void nv12_to_rgba(__global const uchar4* y, __global const uchar4* uv, __global uint4* rgba,\n' +
  '                           uint uv_base, uint pitch4) {\n' +
  '  uint x = get_global_id(0), row = get_global_id(1);\n' +
  '  uchar4 l = y[row * pitch4 + x];\n' +
  '  uchar4 c = uv[uv_base + (row >> 1) * pitch4 + x];\n' +
  '  int d0 = (int)c.s0 - 128, e0 = (int)c.s1 - 128, d1 = (int)c.s2 - 128, e1 = (int)c.s3 - 128;\n' +
  '  rgba[row * pitch4 + x] = (uint4)(rgba_pixel(l.s0, d0, e0), rgba_pixel(l.s1, d0, e0),\n' +
  '                                   rgba_pixel(l.s2, d1, e1), rgba_pixel(l.s3, d1, e1));\n' +
  '}\n';

// The values of frame i, as bench/external_pipeline.c makes them.
const clamp8 = (v) => (v < 0 ? 0 : v > 255 ? 255 : v);
export const frameLuma = (i) => 16 + ((i * 37) % 220);
export const frameU = (i) => (i * 53 + 7) % 256;
export const frameV = (i) => (i * 91 + 11) % 256;
export function frameRgba(i) {
  const c = 298 * (frameLuma(i) - 16) + 128,
    d = frameU(i) - 128,
    e = frameV(i) - 128;
  return (clamp8((c + 409 * e) >> 8) | (clamp8((c - 100 * d - 208 * e) >> 8) << 8) | (clamp8((c + 516 * d) >> 8) << 16) | 0xff000000) >>> 0;
}
// Frame f of a slot uses value index (lap parity) * slots + slot: frames f and f - N differ.
export const valueIndex = (frame, n) => (Math.floor(frame / n) % 2) * n + (frame % n);

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * `count` slots of a W x H NV12 frame: Vulkan buffers nv12 (exported, imported
 * into OpenCL as planes: `frame`), rgba (exported, imported: `clRgba`), out and
 * check (3 pieces of `piece` bytes; neither exported), plus what `extra(i)`
 * adds; and the recorded commands of a slot, made once per value and kept:
 * produceCommands(slot, value) fills the NV12 planes with frame `value`'s
 * colour, consumeCommands(slot, withCheck) copies RGBA out (and its start,
 * middle and end into check).
 */
export function nv12Slots({ vulkan, memory, context, width, height, count, piece, extra = () => ({}) }) {
  const ySize = width * height,
    uvSize = ySize / 2,
    rgbaSize = ySize * 4;
  const slots = [];
  for (let i = 0; i < count; i++) {
    const nv12 = vulkan.createBuffer({ size: ySize + uvSize });
    const rgba = vulkan.createBuffer({ size: rgbaSize });
    const out = vulkan.createBuffer({ size: rgbaSize, exportTypes: [] });
    const check = vulkan.createBuffer({ size: 3 * piece, exportTypes: [] });
    const frame = memory.importPlanes(context, nv12.exportMemory(), {
      format: 'NV12',
      width,
      height,
      planes: [
        { offset: 0, pitch: width },
        { offset: ySize, pitch: width },
      ],
    });
    const clRgba = memory.importBuffer(context, rgba.exportMemory());
    slots.push({ nv12, rgba, out, check, frame, clRgba, ...extra(i), produce: new Map(), consume: new Map() });
  }
  const produceCommands = (slot, value) => {
    let commands = slot.produce.get(value);
    if (!commands) {
      const l = frameLuma(value),
        u = frameU(value),
        v = frameV(value);
      commands = vulkan.record((r) =>
        r
          .fill(slot.nv12, (l * 0x01010101) >>> 0, { offset: 0, size: ySize })
          .fill(slot.nv12, ((u | (v << 8)) * 0x00010001) >>> 0, { offset: ySize, size: uvSize }),
      );
      slot.produce.set(value, commands);
    }
    return commands;
  };
  const consumeCommands = (slot, withCheck) => {
    let commands = slot.consume.get(withCheck);
    if (!commands) {
      const middle = (height / 2) * width * 4;
      commands = vulkan.record(
        (r) => {
          r.copy(slot.rgba, slot.out);
          if (withCheck) {
            r.copy(slot.rgba, slot.check, { srcOffset: 0, dstOffset: 0, size: piece });
            r.copy(slot.rgba, slot.check, { srcOffset: middle, dstOffset: piece, size: piece });
            r.copy(slot.rgba, slot.check, { srcOffset: rgbaSize - piece, dstOffset: 2 * piece, size: piece });
          }
          // Not queue-ordered (as the C program): its wait on "RGBA ready" comes after the slot's producer, which is
          // queue-ordered after this slot's previous consumer, the last earlier use of out and check.
        },
        { queueOrdered: false },
      );
      slot.consume.set(withCheck, commands);
    }
    return commands;
  };
  return { slots, produceCommands, consumeCommands };
}
