// A Direct3D 11 NV12 texture (what D3D11 video decoders such as FFmpeg's
// D3D11VA produce) converted to RGBA by OpenCL without copying it: its Y and
// UV planes are shared as two images, subresources 2 * slice and 2 * slice + 1,
// the way cl_intel_d3d11_nv12_media_sharing and FFmpeg's OpenCL hwcontext
// number them.
//
// With a decoder's texture: nv12TextureToRgba({ platform, device, texture, width, height }).
// Run on its own (Windows), it makes an NV12 texture of color bars, converts
// it, checks every pixel against the same conversion done on the CPU, and
// writes a PNG.
//   node examples/d3d11-nv12-to-rgba.mjs [out.png]
import { fileURLToPath } from 'node:url';
import * as ocl from '../dist/index.js';
import { d3d11SharingOf } from './d3d11-electron-shared-texture.mjs';
import { kernelProgram, nv12ToRgbaSource } from './support/kernels.mjs';
import { colorBarsNV12, nv12ToRgbaReference } from './support/nv12.mjs';
import { openOpenCL, withOwned } from './support/opencl.mjs';
import { writePng } from './support/png.mjs';

/** Platforms that share NV12 D3D11 textures: D3D11 sharing plus cl_intel_d3d11_nv12_media_sharing. Real drivers first. */
export function nv12Platform(platforms) {
  const supporting = platforms.filter((p) => d3d11SharingOf(p)?.sharesNV12);
  return supporting.find((p) => p.name !== 'opencl-interop reference driver') ?? supporting[0];
}

/** Converts array slice `arraySlice` of an NV12 ID3D11Texture2D to RGBA bytes (width x height x 4). */
export async function nv12TextureToRgba({ platform, device, texture, width, height, arraySlice = 0 }) {
  const sharing = d3d11SharingOf(platform);
  return withOwned(async (own) => {
    const context = own(sharing.createContext(device));
    const queue = own(context.createQueue());
    const program = own(await kernelProgram(context, nv12ToRgbaSource, 'nv12_to_rgba'));
    const { y, uv } = sharing.createFromNV12Texture(context, texture, { access: 'read', arraySlice });
    own(y);
    own(uv);
    const rgba = own(context.createImage({ format: { order: 'RGBA', type: 'UNORM_INT8' }, width, height, access: 'write' }));
    const kernel = own(program.createKernel('nv12_to_rgba').setArgs(y, uv, rgba));
    await queue.withAcquired([y, uv], async () => {
      const convert = own(queue.enqueueKernel(kernel, [width, height]));
      await convert.completed;
    });
    const pixels = new Uint8Array(width * height * 4);
    own(queue.readImage(rgba, pixels, { blocking: true }));
    return pixels;
  });
}

/** Makes an NV12 texture holding `luma` and `chroma`, as a decoder would leave it; says how. */
function nv12Texture(device, width, height, luma, chroma, prefersShared) {
  const notes = [];
  // DEFAULT usage, as a decoder's textures are; shared where the driver prefers shared resources.
  let texture = device.createTexture2D({ width, height, format: 'DXGI_FORMAT_NV12', shared: prefersShared ? 'legacy' : false });
  texture.write(luma, { plane: 0 });
  texture.write(chroma, { plane: 1 });
  const back = texture.read();
  if (back.subarray(0, luma.length).every((b, i) => b === luma[i]) && back.subarray(luma.length).every((b, i) => b === chroma[i]))
    return { texture, notes };
  // Wine's d3d11 copies no NV12 data between resources (CopySubresourceRegion has no effect on
  // them), so a DEFAULT texture cannot be filled from the CPU there; a STAGING one is mapped directly.
  texture.dispose();
  notes.push("This Direct3D 11 did not copy NV12 data into a DEFAULT texture (as Wine's d3d11); using a STAGING NV12 texture instead.");
  texture = device.createTexture2D({ width, height, format: 'DXGI_FORMAT_NV12', usage: 'staging' });
  texture.write(luma, { plane: 0 });
  texture.write(chroma, { plane: 1 });
  return { texture, notes };
}

/** Runs the example on the best platform; returns what it did. */
export async function runNV12Example({ out, width = 320, height = 180 } = {}) {
  const { platforms, source } = openOpenCL();
  const platform = nv12Platform(platforms);
  if (!platform) {
    // NVIDIA's cl_nv_d3d11_sharing, for one, shares no NV12 planes.
    const reason =
      `no OpenCL platform here shares NV12 Direct3D 11 textures (D3D11 sharing with cl_intel_d3d11_nv12_media_sharing; platforms: ${platforms.map((p) => p.name).join(', ') || 'none'}); ` +
      'build the reference driver (npm run build:driver) to see the conversion run on it';
    return { platform: undefined, correct: true, skipped: reason, lines: [`OpenCL: ${source}`, `Skipped: ${reason}.`], pixels: undefined };
  }
  const sharing = d3d11SharingOf(platform);
  const lines = [`OpenCL: ${source}`];
  return withOwned(async (own) => {
    const device = own(ocl.createD3D11Device({ openclDevice: platform.getDevices()[0] }));
    const { luma, chroma } = colorBarsNV12(width, height);
    let prefersShared = false;
    if (sharing.name === 'cl_khr_d3d11_sharing') {
      const probe = own(sharing.createContext(device));
      prefersShared = sharing.prefersSharedResources(probe);
    }
    const { texture, notes } = nv12Texture(device, width, height, luma, chroma, prefersShared);
    own(texture);
    lines.push(...notes);
    const pixels = await nv12TextureToRgba({ platform, device, texture, width, height });
    const expected = nv12ToRgbaReference(luma, chroma, width, height);
    // Exact on the reference driver; a GPU's float conversion may round a channel the other way.
    const wrong = pixels.reduce((n, b, i) => n + (Math.abs(b - expected[i]) > 1 ? 1 : 0), 0);
    if (out) writePng(out, pixels, width, height);
    lines.push(
      `Converted a ${width}x${height} NV12 D3D11 texture (${texture.description.usage}) to RGBA on "${platform.name}" (${sharing.name}, Y and UV planes as subresources 0 and 1): ` +
        `${wrong === 0 ? 'every pixel as computed on the CPU' : `${wrong} WRONG BYTES`}; first pixel RGBA ${[...pixels.subarray(0, 4)].join(',')}` +
        (out ? `; wrote ${out}` : ''),
    );
    return { platform, correct: wrong === 0, lines, pixels };
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.platform !== 'win32') {
    console.log('Skipped: Direct3D 11 textures need Windows (createD3D11Device throws Direct3DUnavailableError here).');
  } else {
    const { correct, lines } = await runNV12Example({ out: process.argv[2] ?? 'd3d11-nv12-to-rgba.png' });
    for (const line of lines) console.log(line);
    if (!correct) process.exitCode = 1;
  }
}
