// cl_intel_va_api_media_sharing: convert an NV12 VA-API surface to RGBA
// without copying the surface. Works on any platform that supports the
// extension; here, without Intel hardware, on the project's reference driver
// with a simulated VA display and surface.
//   node examples/va-api-nv12-to-rgba.mjs [out.png]
import { fileURLToPath } from 'node:url';
import * as ocl from '../dist/index.js';
import { openReferenceDriver } from '../test/driver/control.mjs';
import { kernelProgram } from './support/kernels.mjs';
import { isReference, openOpenCL, platformFor, withOwned } from './support/opencl.mjs';
import { writePng } from './support/png.mjs';

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
 * Converts the NV12 surface `surfaceId` of `display` (a VADisplay as bigint)
 * to RGBA bytes. The surface is shared, not copied: its two planes become
 * OpenCL images for the time they are acquired.
 */
export async function nv12ToRgba({ platform, display, surfaceId, width, height }) {
  const va = platform.getSharing(EXTENSION);
  return withOwned(async (own) => {
    const context = own(va.createContext(display));
    const queue = own(context.createQueue());
    const program = own(await kernelProgram(context, nv12ToRgbaSource, 'nv12_to_rgba'));
    const [y, uv] = va.createFromNV12Surface(context, surfaceId, { access: 'read' });
    const rgba = own(context.createImage({ format: { order: 'RGBA', type: 'UNORM_INT8' }, width, height, access: 'write' }));
    const kernel = own(program.createKernel('nv12_to_rgba').setArgs(y, uv, rgba));
    await queue.withAcquired([y, uv], async () => {
      const convert = own(queue.enqueueKernel(kernel, [width, height]));
      await convert.completed;
    });
    y.release();
    uv.release();
    const pixels = new Uint8Array(width * height * 4);
    queue.readImage(rgba, pixels, { blocking: true }).release();
    return pixels;
  });
}

/** Color bars over a gray ramp in NV12 (BT.601 limited range), for the simulated surface. */
export function colorBarsNV12(width, height) {
  const bars = [[235, 235, 235], [235, 235, 16], [16, 235, 235], [16, 235, 16], [235, 16, 235], [235, 16, 16], [16, 16, 235], [16, 16, 16]];
  const toYuv = ([r, g, b]) => [
    ((66 * r + 129 * g + 25 * b + 128) >> 8) + 16,
    ((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128,
    ((112 * r - 94 * g - 18 * b + 128) >> 8) + 128,
  ];
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

/** Runs the example on the best platform; returns what it did. */
export async function runVaApiExample({ out, width = 320, height = 180 } = {}) {
  const { platforms, source } = openOpenCL();
  const platform = platformFor(platforms, EXTENSION);
  if (!platform) throw new Error(`no platform supports ${EXTENSION}, and the reference driver is not built (npm run build:driver)`);
  if (!isReference(platform)) {
    throw new Error(
      `${platform.name} supports ${EXTENSION}: call nv12ToRgba({ platform, display, surfaceId, width, height }) with a VADisplay and surface from your VA-API code`,
    );
  }
  const ref = openReferenceDriver();
  const display = ref.vaCreateDisplay(true);
  const surface = ref.vaCreateSurface(display, width, height);
  const { luma, chroma } = colorBarsNV12(width, height);
  ref.write(surface.resource, 0, 0, luma);
  ref.write(surface.resource, 0, 1, chroma);
  const pixels = await nv12ToRgba({ platform, display, surfaceId: surface.id, width, height });
  ref.release(surface.resource);
  ref.release(display);
  if (out) writePng(out, pixels, width, height);
  return { platform, source, width, height, pixels, out };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { platform, source, width, height, pixels, out } = await runVaApiExample({ out: process.argv[2] ?? 'nv12-to-rgba.png' });
  console.log(`OpenCL: ${source}`);
  console.log(`Converted a ${width}x${height} NV12 VA surface to RGBA on "${platform.name}"; first pixel ${[...pixels.subarray(0, 4)]}; wrote ${out}`);
}
