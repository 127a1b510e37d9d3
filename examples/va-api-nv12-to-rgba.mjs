// cl_intel_va_api_media_sharing end to end: open a VA display, create an NV12
// surface, upload a frame into it through libva, convert it to RGBA with an
// OpenCL kernel that reads the surface's planes in place (shared, not
// copied), read the result back and write a PNG.
//   node examples/va-api-nv12-to-rgba.mjs [out.png]
// On a machine with a GPU's VA driver (e.g. Intel's iHD) and an OpenCL driver
// with the extension (Intel's compute runtime), it runs on those. Without
// them it runs on the repository's test equipment: the software VA driver
// (through the real libva, on Xvfb) and the reference OpenCL driver.
import { fileURLToPath } from 'node:url';
import { kernelProgram } from './support/kernels.mjs';
import { openOpenCL, withOwned } from './support/opencl.mjs';
import { writePng } from './support/png.mjs';
import { openVaForExample, platformForDisplay } from './support/va.mjs';

const EXTENSION = 'cl_intel_va_api_media_sharing';

// BT.601 limited range, the same integer formula as the reference driver's built-in kernel.
export const nv12ToRgbaSource = `
  kernel void nv12_to_rgba(read_only image2d_t y, read_only image2d_t uv, write_only image2d_t rgba) {
    const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    int luma = (int)(read_imagef(y, s, p).x * 255.0f + 0.5f);
    float2 chroma = read_imagef(uv, s, p / 2).xy * 255.0f + 0.5f;
    int c = luma - 16, d = (int)chroma.x - 128, e = (int)chroma.y - 128;
    int4 rgb = (int4)((298 * c + 409 * e + 128) >> 8, (298 * c - 100 * d - 208 * e + 128) >> 8,
                      (298 * c + 516 * d + 128) >> 8, 255);
    write_imagef(rgba, p, convert_float4(clamp(rgb, 0, 255)) / 255.0f);
  }`;

/**
 * Converts an NV12 VaSurface to RGBA bytes on `platform`. The surface is
 * shared, not copied: its two planes are OpenCL images while acquired.
 * `context` (optional) is a context the extension's createContext() made on
 * the surface's display; without it one is made and released here.
 */
export async function nv12ToRgba({ platform, surface, context: given }) {
  const va = platform.getSharing(EXTENSION);
  const { width, height } = surface;
  return withOwned(async (own) => {
    const context = given ?? own(va.createContext(surface.display));
    const queue = own(context.createQueue());
    const program = own(await kernelProgram(context, nv12ToRgbaSource, 'nv12_to_rgba'));
    const [y, uv] = va.createFromNV12Surface(context, surface, { access: 'read' });
    own(y);
    own(uv);
    const rgba = own(context.createImage({ format: { order: 'RGBA', type: 'UNORM_INT8' }, width, height, access: 'write' }));
    const kernel = own(program.createKernel('nv12_to_rgba').setArgs(y, uv, rgba));
    await queue.withAcquired([y, uv], async () => {
      await own(queue.enqueueKernel(kernel, [width, height])).completed;
    });
    const pixels = new Uint8Array(width * height * 4);
    queue.readImage(rgba, pixels, { blocking: true }).release();
    return pixels;
  });
}

/** BT.601 limited range Y, U, V of an 8-bit R, G, B. */
export const toYuv = ([r, g, b]) => [
  ((66 * r + 129 * g + 25 * b + 128) >> 8) + 16,
  ((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128,
  ((112 * r - 94 * g - 18 * b + 128) >> 8) + 128,
];

/** Color bars over a gray ramp in NV12 (BT.601 limited range): { luma, chroma } planes, packed. */
export function colorBarsNV12(width, height) {
  const bars = [[235, 235, 235], [235, 235, 16], [16, 235, 235], [16, 235, 16], [235, 16, 235], [235, 16, 16], [16, 16, 235], [16, 16, 16]];
  const luma = new Uint8Array(width * height);
  const chroma = new Uint8Array(width * (height / 2));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const top = y < Math.floor(height * 0.75);
      const [Y, U, V] = top ? toYuv(bars[Math.floor((x * bars.length) / width)]) : [Math.round((x / width) * 219) + 16, 128, 128];
      luma[y * width + x] = Y;
      if (y % 2 === 0 && x % 2 === 0) chroma.set([U, V], (y / 2) * width + x);
    }
  }
  return { luma, chroma };
}

/**
 * Runs the example: resolves to what it did ({ unavailable } when this
 * machine has no VA display, libva or platform for it).
 */
export async function runVaApiExample({ out, width = 320, height = 180 } = {}) {
  const { platforms, source } = openOpenCL();
  const va = await openVaForExample();
  if (va.unavailable) return { unavailable: va.unavailable, source };
  try {
    const platform = platformForDisplay(platforms, va.display);
    if (!platform) return { unavailable: `no OpenCL platform can share surfaces of this VA display (${va.source})`, source };
    const surface = va.display.createSurface({ width, height, format: 'NV12' });
    try {
      const { luma, chroma } = colorBarsNV12(width, height);
      surface.write([luma, chroma]);
      const upload = surface.lastTransfer;
      const pixels = await nv12ToRgba({ platform, surface });
      if (out) writePng(out, pixels, width, height);
      return { platform, source, vaSource: va.source, vendor: va.display.vendor, upload, width, height, pixels, out };
    } finally {
      surface.dispose();
    }
  } finally {
    va.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await runVaApiExample({ out: process.argv[2] ?? 'nv12-to-rgba.png' });
  console.log(`OpenCL: ${result.source}`);
  if (result.unavailable) {
    console.log(`VA-API: ${result.unavailable}`);
  } else {
    console.log(`VA-API: ${result.vaSource}`);
    console.log(
      `Converted a ${result.width}x${result.height} NV12 VA surface (uploaded with ${result.upload === 'derive' ? 'vaDeriveImage' : 'vaPutImage'}) to RGBA on "${result.platform.name}"; ` +
        `first pixel ${[...result.pixels.subarray(0, 4)]}; wrote ${result.out}`,
    );
  }
}
