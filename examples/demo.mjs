// npm run demo: what OpenCL this machine has, a kernel on it, and zero-copy
// compute on a VA-API video surface, a Direct3D 10 texture and (on Windows)
// a Direct3D 11 texture shared by NT handle as Electron hands them out, each
// on the best platform that supports the extension (the reference driver
// where no real one does).
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import * as ocl from '../dist/index.js';
import { runVaApiExample } from './va-api-nv12-to-rgba.mjs';
import { invertTexture } from './d3d10-texture.mjs';
import { runElectronExample } from './d3d11-electron-shared-texture.mjs';
import { vectorAdd } from './vector-add.mjs';
import { openReferenceDriver } from './support/test-equipment.mjs';
import { isReference, openOpenCL, platformFor, withOwned } from './support/opencl.mjs';

const outDir = resolve('build/demo');
mkdirSync(outDir, { recursive: true });

const { platforms, source } = openOpenCL();
console.log(`OpenCL: ${source}`);
console.log(`${platforms.length} platform(s):`);
for (const p of platforms) {
  const sharing = ocl.sharingExtensionNames.filter((name) => p.supports(name));
  console.log(
    `  - ${p.name} (${p.version.split(' ').slice(0, 2).join(' ')}): ${p
      .getDevices()
      .map((d) => `${d.name} [${d.type}]`)
      .join(', ')}`,
  );
  console.log(`      sharing extensions: ${sharing.length ? sharing.join(', ') : 'none'}`);
}

const why = (platform, extension) => (isReference(platform) ? `(no installed driver supports ${extension}: the reference driver stands in)` : '');

// 1. Core OpenCL on a real driver where there is one.
console.log('\n1. Core OpenCL: vector add');
const compiling = platforms.find((p) => p.getDevices().some((d) => d.compilerAvailable));
if (compiling) {
  const { device, elements, kernelNs } = await vectorAdd(compiling);
  console.log(`   ${elements} float additions on "${device.name}" (${compiling.name}): correct; kernel ${(kernelNs / 1e6).toFixed(2)} ms`);
} else {
  const platform = platforms[0];
  await withOwned(async (own) => {
    const context = own(ocl.createContext({ platform }));
    const queue = own(context.createQueue());
    const kernel = own(own(context.createProgramWithBuiltInKernels(['copy_buffer'])).createKernel('copy_buffer'));
    const input = Uint8Array.from({ length: 256 }, (_, i) => i);
    const src = own(context.createBuffer(input));
    const dst = own(context.createBuffer(256));
    kernel.setArgs(src, dst);
    own(queue.enqueueKernel(kernel, 256));
    const out = new Uint8Array(256);
    queue.readBuffer(dst, out, { blocking: true }).release();
    if (out.some((v, i) => v !== i)) throw new Error('copy_buffer produced wrong bytes');
    console.log(`   no platform here compiles OpenCL C; ran the built-in copy_buffer kernel on "${platform.name}": correct`);
  });
}

// 2. VA-API: a real VA display and NV12 surface (libva), converted to RGBA by
// a kernel that reads the surface's planes in place.
console.log('\n2. cl_intel_va_api_media_sharing: NV12 VA surface -> RGBA');
{
  const out = resolve(outDir, 'nv12-to-rgba.png');
  const result = await runVaApiExample({ out });
  if (result.unavailable) {
    console.log(`   skipped: ${result.unavailable}`);
  } else {
    console.log(`   VA display: ${result.vaSource}`);
    console.log(`   OpenCL on "${result.platform.name}" ${why(result.platform, 'cl_intel_va_api_media_sharing')}`);
    console.log(
      `   ${result.width}x${result.height} NV12 surface created and uploaded through libva (${result.upload === 'derive' ? 'vaDeriveImage' : 'vaPutImage'}), ` +
        'shared as two images (Y: R/UNORM_INT8, UV: RG/UNORM_INT8), converted in place of a copy',
    );
    console.log(`   first pixel RGBA ${[...result.pixels.subarray(0, 4)].join(',')}; picture written to ${out}`);
    console.log("   (examples/va-api-dmabuf-import.mjs does the same with DMA-BUF planes, as Electron's offscreen paint event gives them)");
  }
}

// 3. Direct3D 10: invert a texture in place.
console.log('\n3. cl_khr_d3d10_sharing: invert a D3D10 texture in place');
const d3dPlatform = platformFor(platforms, 'cl_khr_d3d10_sharing');
if (d3dPlatform && isReference(d3dPlatform)) {
  const ref = openReferenceDriver();
  const device = ref.d3d10CreateDevice();
  const texture = ref.d3d10CreateTexture2D(device, { width: 64, height: 64, format: ocl.DXGI_FORMAT.DXGI_FORMAT_B8G8R8A8_UNORM });
  ref.write(texture, 0, 0, new Uint8Array(64 * 64 * 4).fill(0x40));
  const before = ref.refcount(texture);
  const info = await invertTexture({ platform: d3dPlatform, device, texture });
  const after = ref.read(texture, 0, 0);
  console.log(`   on "${d3dPlatform.name}" ${why(d3dPlatform, 'cl_khr_d3d10_sharing')}`);
  console.log(
    `   ${info.width}x${info.height} texture as ${info.format.order}/${info.format.type}; texture bytes 0x40 -> 0x${after[0].toString(16)}; D3D reference count ${before} before, ${ref.refcount(texture)} after`,
  );
  ref.release(texture);
  ref.release(device);
} else {
  console.log(d3dPlatform ? `   "${d3dPlatform.name}" supports it: see examples/d3d10-texture.mjs` : '   no platform supports it');
}

// 4. Direct3D 11: real Direct3D objects from Node, so Windows only.
console.log("\n4. cl_khr_d3d11_sharing / cl_nv_d3d11_sharing: a D3D11 texture shared by NT handle (Electron's offscreen frames), inverted");
if (process.platform === 'win32') {
  const { lines } = await runElectronExample();
  for (const line of lines.slice(1)) console.log(`   ${line}`);
  console.log('   NV12 video textures to RGBA: node examples/d3d11-nv12-to-rgba.mjs');
} else {
  console.log(
    `   skipped: Direct3D 11 objects exist only on Windows (this is ${process.platform}); the binding's D3D11 sharing is tested here on the reference driver's simulated D3D11 (npm test)`,
  );
}
console.log('\nDone. Run the tests with: npm test');
