// cl_intel_va_api_media_sharing: convert an NV12 VA-API surface to RGBA
// without copying the surface. Works on any platform that supports the
// extension; here, without Intel hardware, on the project's reference driver
// with a simulated VA display and surface.
//   node examples/va-api-nv12-to-rgba.mjs [out.png]
import { fileURLToPath } from 'node:url';
import * as ocl from '../dist/index.js';
import { openReferenceDriver } from '../test/driver/control.mjs';
import { kernelProgram, nv12ToRgbaSource } from './support/kernels.mjs';
import { isReference, openOpenCL, platformFor, withOwned } from './support/opencl.mjs';
import { colorBarsNV12 } from './support/nv12.mjs';
import { writePng } from './support/png.mjs';

const EXTENSION = 'cl_intel_va_api_media_sharing';

// The conversion kernel (support/kernels.mjs), exported here as before.
export { nv12ToRgbaSource };

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

export { colorBarsNV12 };

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
