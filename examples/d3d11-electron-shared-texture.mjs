// A Direct3D 11 texture shared by NT handle, the way Electron's offscreen
// rendering hands frames out, processed by OpenCL and handed back.
//
// In Electron (webPreferences.offscreen: { useSharedTexture: true }):
//   win.webContents.on('paint', async (event) => {
//     const { handle, codedSize } = event.texture.textureInfo;
//     await processSharedTexture({ platform, handle: handle.ntHandle, width: codedSize.width, height: codedSize.height });
//     event.texture.release();
//   });
// `handle.ntHandle` is a Buffer holding the HANDLE; processSharedTexture opens
// it with ID3D11Device1::OpenSharedResource1 on the OpenCL device's adapter,
// shares it with OpenCL (cl_khr_d3d11_sharing, or cl_nv_d3d11_sharing on
// NVIDIA), inverts it in place with a kernel and releases it back to Direct3D.
//
// Run on its own (Windows), it plays Electron's part: a producer device makes
// a BGRA texture shared by NT handle, passes the handle's bytes, and checks
// the pixels it gets back.
//   node examples/d3d11-electron-shared-texture.mjs
import { fileURLToPath } from 'node:url';
import * as ocl from '../dist/index.js';
import { invertImageSource, kernelProgram } from './support/kernels.mjs';
import { openOpenCL, withOwned } from './support/opencl.mjs';

/** The Direct3D 11 sharing extension a platform has: KHR (Intel, AMD) or NV (NVIDIA). */
export function d3d11SharingOf(platform) {
  const extension = ['cl_khr_d3d11_sharing', 'cl_nv_d3d11_sharing'].find((name) => platform.supports(name));
  return extension ? platform.getSharing(extension) : undefined;
}

/** The best platform for Direct3D 11 sharing: a real driver first, the reference driver otherwise. */
export function d3d11Platform(platforms) {
  const supporting = platforms.filter((p) => d3d11SharingOf(p));
  return supporting.find((p) => p.name !== 'opencl-interop reference driver') ?? supporting[0];
}

/**
 * Inverts mip level 0 of an ID3D11Texture2D in place with OpenCL: shared (not
 * copied) while acquired, a kernel reads a copy and writes the shared image.
 */
export async function invertTexture({ platform, device, texture }) {
  const sharing = d3d11SharingOf(platform);
  return withOwned(async (own) => {
    const context = own(sharing.createContext(device));
    const queue = own(context.createQueue());
    const image = own(sharing.createFromTexture2D(context, texture, 0, { access: 'read-write' }));
    const program = own(await kernelProgram(context, invertImageSource, 'invert_image'));
    // Reading and writing one image in a kernel needs a copy to read from.
    const copy = own(context.createImage({ format: image.format, width: image.width, height: image.height }));
    const kernel = own(program.createKernel('invert_image').setArgs(copy, image));
    await queue.withAcquired([image], async () => {
      own(queue.copyImage(image, copy));
      const run = own(queue.enqueueKernel(kernel, [image.width, image.height]));
      await run.completed;
    });
    // The release has completed: Direct3D sees what OpenCL wrote.
    return { extension: sharing.name, format: image.format, width: image.width, height: image.height };
  });
}

/**
 * Opens a texture shared by NT handle (bytes as Electron gives them, a bigint,
 * or a SharedHandle) on a D3D11 device of the platform's OpenCL device, and
 * inverts it. The handle stays the caller's.
 */
export async function processSharedTexture({ platform, handle, openclDevice = platform.getDevices()[0] }) {
  return withOwned(async (own) => {
    const device = own(ocl.createD3D11Device({ openclDevice }));
    const texture = own(device.openSharedResource(handle));
    const result = await invertTexture({ platform, device, texture });
    // The producer reads the texture through its own device: this one's work must be submitted.
    device.flush();
    return result;
  });
}

/** BGRA test pixels: a gradient that no inversion leaves as it was. */
export function testPattern(width, height) {
  return Uint8Array.from({ length: width * height * 4 }, (_, i) => ((i >> 2) * 7 + (i & 3) * 50 + 3) & 0xff);
}

/**
 * The Electron flow end to end: a producer texture shared by NT handle, its
 * handle passed as bytes, opened and inverted by OpenCL, checked by the producer.
 * Where Direct3D cannot share by NT handle (Wine), it says so and inverts the
 * producer's texture directly: the OpenCL half of the flow.
 */
export async function runElectronExample({ width = 64, height = 32 } = {}) {
  const { platforms, source } = openOpenCL();
  const platform = d3d11Platform(platforms);
  if (!platform)
    throw new Error(
      'no OpenCL platform supports cl_khr_d3d11_sharing or cl_nv_d3d11_sharing (on Windows, build the reference driver: npm run build:driver)',
    );
  const openclDevice = platform.getDevices()[0];
  const lines = [`OpenCL: ${source}`];
  return withOwned(async (own) => {
    const producer = own(ocl.createD3D11Device({ openclDevice }));
    const texture = own(
      producer.createTexture2D({ width, height, format: 'DXGI_FORMAT_B8G8R8A8_UNORM', bind: ['shader-resource', 'render-target'], shared: 'nt' }),
    );
    const pixels = testPattern(width, height);
    texture.write(pixels);
    producer.flush();
    let handle;
    try {
      handle = own(texture.createSharedHandle());
    } catch (error) {
      if (!(error instanceof ocl.Direct3DError)) throw error;
      lines.push(`This Direct3D 11 cannot share by NT handle (${error.message}); inverting the producer's texture on its own device instead.`);
    }
    let result;
    let path;
    if (handle) {
      // What Electron's paint event gives: texture.textureInfo.handle.ntHandle, a Buffer holding the HANDLE.
      const ntHandle = Buffer.from(handle.toBytes());
      result = await processSharedTexture({ platform, handle: ntHandle, openclDevice });
      path = 'opened by NT handle on a second D3D11 device';
    } else {
      result = await invertTexture({ platform, device: producer, texture });
      path = 'on the producer device (no NT handle)';
    }
    const after = texture.read();
    const inverted = after.every((b, i) => b === 255 - pixels[i]);
    lines.push(
      `Inverted a ${result.width}x${result.height} ${result.format.order}/${result.format.type} D3D11 texture ${path} on "${platform.name}" (${result.extension}): ` +
        `${inverted ? 'every byte inverted' : 'WRONG BYTES'}; first pixel 0x${pixels[0].toString(16)} -> 0x${after[0].toString(16)}`,
    );
    return { platform, inverted, lines, path };
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.platform !== 'win32') {
    console.log('Skipped: Direct3D 11 textures need Windows (createD3D11Device throws Direct3DUnavailableError here).');
  } else {
    const { inverted, lines } = await runElectronExample();
    for (const line of lines) console.log(line);
    if (!inverted) process.exitCode = 1;
  }
}
