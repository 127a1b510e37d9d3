// cl_nv_d3d9_sharing: brighten one mip level of a Direct3D 9 texture with
// OpenCL, without copying it out of Direct3D. On Windows with a driver that
// supports the extension, pass your IDirect3DDevice9 and IDirect3DTexture9
// (as bigint addresses) to processTextureLevel(); without one, the example
// runs on the reference driver's simulated Direct3D 9.
//   node examples/d3d9-texture.mjs
import { fileURLToPath } from 'node:url';
import * as ocl from '../dist/index.js';
import { openReferenceDriver } from './support/test-equipment.mjs';
import { kernelProgram, invertImageSource } from './support/kernels.mjs';
import { isReference, openOpenCL, platformFor, withOwned } from './support/opencl.mjs';

const EXTENSION = 'cl_nv_d3d9_sharing';

/** Inverts mip level `level` of an IDirect3DTexture9; returns the image's shape and the extension's queries. */
export async function processTextureLevel({ platform, device, texture, level = 0 }) {
  const d3d9 = platform.getSharing(EXTENSION);
  return withOwned(async (own) => {
    const context = own(d3d9.createContext(device));
    const queue = own(context.createQueue());
    const image = own(d3d9.createFromTexture(context, texture, level, { access: 'read-write' }));
    const program = own(await kernelProgram(context, invertImageSource, 'invert_image'));
    const copy = own(context.createImage({ format: image.format, width: image.width, height: image.height }));
    const kernel = own(program.createKernel('invert_image').setArgs(copy, image));
    await queue.withAcquired([image], async () => {
      own(queue.copyImage(image, copy));
      await own(queue.enqueueKernel(kernel, [image.width, image.height])).completed;
    });
    return { format: image.format, width: image.width, height: image.height, ...d3d9.objectInfo(image) };
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { platforms, source } = openOpenCL();
  const platform = platformFor(platforms, EXTENSION);
  if (!platform || !isReference(platform)) {
    throw new Error(
      platform ? `${platform.name} supports ${EXTENSION}: call processTextureLevel() with your D3D9 objects` : `no platform supports ${EXTENSION}`,
    );
  }
  const ref = openReferenceDriver();
  const device = ref.d3d9CreateDevice('d3d9');
  const texture = ref.d3d9CreateTexture(device, ocl.D3DFMT.D3DFMT_A8R8G8B8, 64, 64, 3);
  ref.write(texture, 1, 0, new Uint8Array(32 * 32 * 4).fill(0x10));
  const info = await processTextureLevel({ platform, device, texture, level: 1 });
  console.log(`OpenCL: ${source}`);
  console.log(
    `Inverted mip level ${info.level} (${info.width}x${info.height}, ${info.format.order}/${info.format.type}) of a D3D9 texture on "${platform.name}": ` +
      `bytes 0x10 -> 0x${ref.read(texture, 1, 0)[0].toString(16)}; level 0 untouched: 0x${ref.read(texture, 0, 0)[0].toString(16)}`,
  );
  ref.release(texture);
  ref.release(device);
}
