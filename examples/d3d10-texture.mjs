// cl_khr_d3d10_sharing: invert a Direct3D 10 texture in place with OpenCL.
// On Windows with a D3D10 driver that supports the extension, pass your own
// ID3D10Device and ID3D10Texture2D (as bigint addresses) to invertTexture();
// without one, the example runs on the reference driver's simulated D3D10.
//   node examples/d3d10-texture.mjs
import { fileURLToPath } from 'node:url';
import * as ocl from '../dist/index.js';
import { openReferenceDriver } from './support/test-equipment.mjs';
import { kernelProgram, invertImageSource } from './support/kernels.mjs';
import { isReference, openOpenCL, platformFor, withOwned } from './support/opencl.mjs';

const EXTENSION = 'cl_khr_d3d10_sharing';

/** Inverts mip level 0 of an ID3D10Texture2D on the device's OpenCL platform. */
export async function invertTexture({ platform, device, texture }) {
  const d3d10 = platform.getSharing(EXTENSION);
  return withOwned(async (own) => {
    const context = own(d3d10.createContext(device));
    const queue = own(context.createQueue());
    const image = d3d10.createFromTexture2D(context, texture, 0, { access: 'read-write' });
    const program = own(await kernelProgram(context, invertImageSource, 'invert_image'));
    // Reading and writing one image in a kernel needs a copy to read from.
    const copy = own(context.createImage({ format: image.format, width: image.width, height: image.height }));
    const kernel = own(program.createKernel('invert_image').setArgs(copy, image));
    await queue.withAcquired([image], async () => {
      queue.copyImage(image, copy).release();
      const run = own(queue.enqueueKernel(kernel, [image.width, image.height]));
      await run.completed;
    });
    const info = { format: image.format, width: image.width, height: image.height, ...d3d10.objectInfo(image) };
    image.release();
    return info;
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { platforms, source } = openOpenCL();
  const platform = platformFor(platforms, EXTENSION);
  if (!platform || !isReference(platform)) {
    throw new Error(
      platform ? `${platform.name} supports ${EXTENSION}: call invertTexture() with your D3D10 objects` : `no platform supports ${EXTENSION}`,
    );
  }
  const ref = openReferenceDriver();
  const device = ref.d3d10CreateDevice();
  const texture = ref.d3d10CreateTexture2D(device, { width: 64, height: 32, format: ocl.DXGI_FORMAT.DXGI_FORMAT_R8G8B8A8_UNORM });
  ref.write(texture, 0, 0, new Uint8Array(64 * 32 * 4).fill(0x30));
  const info = await invertTexture({ platform, device, texture });
  const after = ref.read(texture, 0, 0);
  console.log(`OpenCL: ${source}`);
  console.log(
    `Inverted a ${info.width}x${info.height} ${info.format.order}/${info.format.type} D3D10 texture on "${platform.name}": bytes 0x30 -> 0x${after[0].toString(16)}`,
  );
  ref.release(texture);
  ref.release(device);
}
