// DMA-BUF planes into a VA surface, the way an Electron offscreen `paint`
// handler gets them on Linux, then into OpenCL: a BGRA frame becomes an NV12
// VA surface (what a VA encoder takes) through a kernel that writes the NV12
// surface's planes in place.
//   node examples/va-api-dmabuf-import.mjs [out.png]
//
// In Electron (main process, webPreferences.offscreen.useSharedTexture):
//
//   win.webContents.on('paint', (event) => {
//     const { texture } = event;                 // OffscreenSharedTexture
//     const frame = surfaceFromTextureInfo(display, texture.textureInfo);
//     ... bgraToNV12(...) ...                    // the GPU reads the texture's memory
//     frame.dispose();
//     texture.release();                         // Electron's frame goes back
//   });
//
// Outside Electron the example makes the same kind of descriptor itself: a
// BGRA VA surface exported as DMA-BUF (vaExportSurfaceHandle), described as
// Electron describes its textures.
import { fileURLToPath } from 'node:url';
import { kernelProgram } from './support/kernels.mjs';
import { openOpenCL, withOwned } from './support/opencl.mjs';
import { writePng } from './support/png.mjs';
import { openVaForExample, platformForDisplay } from './support/va.mjs';
import { nv12ToRgba } from './va-api-nv12-to-rgba.mjs';

const EXTENSION = 'cl_intel_va_api_media_sharing';

/**
 * A VA surface over the planes of Electron's OffscreenSharedTexture.textureInfo
 * (Linux: handle.nativePixmap = { planes: [{ fd, offset, stride, size }], modifier }).
 * The driver imports the fds; Electron keeps them (call texture.release() after).
 */
export function surfaceFromTextureInfo(display, textureInfo) {
  const format = { bgra: 'BGRA', rgba: 'RGBA' }[textureInfo.pixelFormat];
  if (!format) throw new TypeError(`pixelFormat ${textureInfo.pixelFormat}: VA surfaces take 'bgra' or 'rgba' frames`);
  const pixmap = textureInfo.handle?.nativePixmap;
  if (!pixmap) throw new TypeError('textureInfo.handle.nativePixmap is missing (Linux only; webPreferences.offscreen.useSharedTexture)');
  return display.importDmaBuf({
    format,
    width: textureInfo.codedSize.width,
    height: textureInfo.codedSize.height,
    planes: pixmap.planes.map((p) => ({ fd: p.fd, offset: p.offset, pitch: p.stride, size: p.size })),
    modifier: pixmap.modifier,
  });
}

/** 4 BGRA pixels -> Y and averaged UV, BT.601 limited range (as the reference driver's built-in kernel). */
export const bgraToNv12Source = `
  kernel void bgra_to_nv12(read_only image2d_t src, write_only image2d_t y, write_only image2d_t uv) {
    const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
    int2 block = (int2)(get_global_id(0), get_global_id(1));
    int su = 0, sv = 0;
    for (int dy = 0; dy < 2; dy++) {
      for (int dx = 0; dx < 2; dx++) {
        int2 p = block * 2 + (int2)(dx, dy);
        int4 c = convert_int4_rte(read_imagef(src, s, p) * 255.0f);
        int luma = ((66 * c.x + 129 * c.y + 25 * c.z + 128) >> 8) + 16;
        write_imagef(y, p, (float4)(clamp(luma, 0, 255) / 255.0f, 0.0f, 0.0f, 1.0f));
        su += ((-38 * c.x - 74 * c.y + 112 * c.z + 128) >> 8) + 128;
        sv += ((112 * c.x - 94 * c.y - 18 * c.z + 128) >> 8) + 128;
      }
    }
    write_imagef(uv, block, (float4)(clamp((su + 2) >> 2, 0, 255) / 255.0f, clamp((sv + 2) >> 2, 0, 255) / 255.0f, 0.0f, 1.0f));
  }`;

/**
 * Converts a BGRA VA surface (e.g. an imported Electron frame) into an NV12
 * VA surface: the frame is read once (a VA surface of this format cannot be
 * an OpenCL image through the extension), the NV12 surface is written in
 * place by the kernel.
 */
export async function bgraToNV12({ platform, context, frame, nv12 }) {
  const va = platform.getSharing(EXTENSION);
  return withOwned(async (own) => {
    const queue = own(context.createQueue());
    const program = own(await kernelProgram(context, bgraToNv12Source, 'bgra_to_nv12'));
    const src = own(
      context.createImage({
        format: { order: 'BGRA', type: 'UNORM_INT8' },
        width: frame.width,
        height: frame.height,
        access: 'read',
        data: frame.readPlane(0),
      }),
    );
    const [y, uv] = va.createFromNV12Surface(context, nv12, { access: 'write' });
    own(y);
    own(uv);
    const kernel = own(program.createKernel('bgra_to_nv12').setArgs(src, y, uv));
    await queue.withAcquired([y, uv], async () => {
      await own(queue.enqueueKernel(kernel, [frame.width / 2, frame.height / 2])).completed;
    });
  });
}

/** A test frame: a BGRA gradient with a square, `width` x `height`, rows `pitch` bytes apart. */
function testFrame(width, height) {
  const bgra = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const inSquare = Math.abs(x - width / 2) < height / 4 && Math.abs(y - height / 2) < height / 4;
      const [r, g, b] = inSquare ? [235, 200, 16] : [Math.round((x / width) * 255), Math.round((y / height) * 255), 128];
      bgra.set([b, g, r, 255], (y * width + x) * 4);
    }
  }
  return bgra;
}

/** Runs the example; resolves to what it did ({ unavailable } when there is no VA display or platform). */
export async function runDmaBufExample({ out, width = 256, height = 144 } = {}) {
  const { platforms, source } = openOpenCL();
  const va = await openVaForExample();
  if (va.unavailable) return { unavailable: va.unavailable, source };
  const { display } = va;
  try {
    const platform = platformForDisplay(platforms, display);
    if (!platform) return { unavailable: `no OpenCL platform can share surfaces of this VA display (${va.source})`, source };
    // What Chromium's GPU process would have rendered: a BGRA frame in DMA-BUF memory.
    return await withOwned(async (own) => {
      const owned = (surface) => own({ release: () => surface.dispose(), surface }).surface;
      const rendered = owned(display.createSurface({ width, height, format: 'BGRA' }));
      rendered.writePlane(0, testFrame(width, height));
      const exported = rendered.exportDmaBuf();
      own({ release: () => exported.close() });
      const plane = exported.layers[0].planes[0];
      const textureInfo = {
        widgetType: 'frame',
        pixelFormat: 'bgra',
        codedSize: { width, height },
        visibleRect: { x: 0, y: 0, width, height },
        handle: {
          nativePixmap: {
            planes: [{ fd: exported.objects[plane.object].fd, offset: plane.offset, stride: plane.pitch, size: plane.pitch * height }],
            modifier: exported.objects[plane.object].modifier.toString(),
          },
        },
      };

      // The paint handler's work.
      const frame = owned(surfaceFromTextureInfo(display, textureInfo));
      const nv12 = owned(display.createSurface({ width, height, format: 'NV12' }));
      const context = own(platform.getSharing(EXTENSION).createContext(display));
      await bgraToNV12({ platform, context, frame, nv12 });
      // Proof: the NV12 surface, back to RGBA through the other example's kernel.
      const pixels = await nv12ToRgba({ platform, surface: nv12, context });
      if (out) writePng(out, pixels, width, height);
      const center = ((height / 2) * width + width / 2) * 4;
      return {
        platform,
        source,
        vaSource: va.source,
        width,
        height,
        fds: exported.objects.length,
        center: [...pixels.subarray(center, center + 4)],
        out,
      };
    });
  } finally {
    va.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await runDmaBufExample({ out: process.argv[2] ?? 'dmabuf-to-nv12.png' });
  console.log(`OpenCL: ${result.source}`);
  if (result.unavailable) {
    console.log(`VA-API: ${result.unavailable}`);
  } else {
    console.log(`VA-API: ${result.vaSource}`);
    console.log(
      `Imported a ${result.width}x${result.height} BGRA DMA-BUF frame (${result.fds} fd, as Electron's paint event gives it) as a VA surface, ` +
        `converted it to an NV12 VA surface with a kernel on "${result.platform.name}"; center pixel back in RGBA ${result.center}; wrote ${result.out}`,
    );
  }
}
