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
import { kernelProgram, nv12ToRgbaSource } from './support/kernels.mjs';
import { openOpenCL, withOwned } from './support/opencl.mjs';
import { colorBarsNV12 } from './support/nv12.mjs';
import { writePng } from './support/png.mjs';
import { openVaForExample, platformForDisplay } from './support/va.mjs';

const EXTENSION = 'cl_intel_va_api_media_sharing';

// The conversion kernel and the test picture live in support/ (the D3D11 NV12 example uses them too).
export { colorBarsNV12, nv12ToRgbaSource };

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
