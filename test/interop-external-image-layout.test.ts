// cl_khr_external_memory, CL_DEVICE_EXTERNAL_MEMORY_IMPORT_ASSUME_LINEAR_IMAGES_HANDLE_TYPES_KHR:
// "External memory handle types not in [that list] may have any memory layout. The layout
// interpretation of images imported with these handle types is implementation defined."
// A driver reads images of the listed handle types as linear rows, the others in a layout of its own
// (NVIDIA's H100 driver lists none and reads an imported linear Vulkan image in its optimal tiling: the
// pixels come out scrambled while a pointwise rewrite still looks right). importImage checks the
// exporter's tiling against the list. Here: lavapipe's images into the reference driver, pixel by pixel.
import { afterEach, describe, expect, it } from 'vitest';
import { OpenCLImageLayoutError } from '../lib';
import { matchedToLavapipe, rejectedBeforeDriver, thrownBy } from './helpers/ref-driver';

const format = { order: 'RGBA', type: 'UNSIGNED_INT8' } as const;
const width = 64,
  height = 16;
const pixel = (x: number, y: number, salt: number) =>
  (Math.imul(x + 1, 0x9e3779b1) ^ Math.imul(y + 1, 0x85ebca77) ^ Math.imul(salt, 0xc2b2ae3d)) >>> 0;
const pixels = (salt: number) => {
  const out = new Uint32Array(width * height);
  for (let y = 0, k = 0; y < height; y++) for (let x = 0; x < width; x++, k++) out[k] = pixel(x, y, salt);
  return out;
};
const wrongPixels = (got: Uint32Array, want: Uint32Array) => got.reduce((n, v, k) => n + (v !== want[k] ? 1 : 0), 0);

afterEach(() => {
  delete process.env.REFDRV_ASSUME_LINEAR_IMAGES;
});

describe("importImage checks the exporter's tiling against ..._ASSUME_LINEAR_IMAGES_HANDLE_TYPES_KHR", () => {
  it('a linear Vulkan image where the driver lists opaque-fd as linear: every pixel at its place both ways (OpenCL reads what Vulkan wrote, Vulkan reads what OpenCL wrote)', async () => {
    using matched = matchedToLavapipe();
    const { vk, context, queue, memory, device } = matched;
    expect(memory.assumeLinearImageHandleTypes(device)).toContain('opaque-fd');
    using image = vk.createImage({ width, height, format: 'rgba8', tiling: 'linear' });
    using staging = vk.createBuffer({ size: width * height * 4, exportTypes: [] });
    await staging.write(pixels(1));
    await vk.queue.submit(vk.record((r) => r.copyBufferToImage(staging, image)));
    const exported = image.exportMemory();
    expect(exported.tiling).toBe('linear');
    const plane = image.planes[0]!;
    const clImage = memory.importImage(context, exported, { format, width, height, rowPitch: plane.rowPitch! });
    const seen = new Uint32Array(width * height);
    {
      await using _ = queue.acquire([clImage]);
      await queue.readImage(clImage, seen);
      await queue.writeImage(clImage, pixels(2));
    }
    expect(wrongPixels(seen, pixels(1))).toBe(0);
    await vk.queue.submit(vk.record((r) => r.copyImageToBuffer(image, staging)));
    const back = await staging.read();
    expect(wrongPixels(new Uint32Array(back.buffer, back.byteOffset, width * height), pixels(2))).toBe(0);
    clImage.release();
  });

  it("an optimal-tiling Vulkan image where the driver reads opaque-fd images as linear rows: OpenCLImageLayoutError before the driver is called, the handle still the caller's", () => {
    using matched = matchedToLavapipe();
    const { vk, context, memory } = matched;
    using image = vk.createImage({ width, height, format: 'rgba8', tiling: 'optimal' });
    using exported = image.exportMemory();
    expect(exported.tiling).toBe('optimal');
    const caught = thrownBy(() => memory.importImage(context, exported, { format, width, height }));
    expect(caught).toBeInstanceOf(OpenCLImageLayoutError);
    const error = caught as OpenCLImageLayoutError;
    expect(error.handleType).toBe('opaque-fd');
    expect(error.tiling).toBe('optimal');
    expect(error.message).toMatch(
      /lists opaque-fd in CL_DEVICE_EXTERNAL_MEMORY_IMPORT_ASSUME_LINEAR_IMAGES_HANDLE_TYPES_KHR.*as linear rows.*Export a linear image/,
    );
    rejectedBeforeDriver(memory, () => memory.importImage(context, exported, { format, width, height }), OpenCLImageLayoutError);
    expect(exported.owned).toBe(true);
    // Its memory as a buffer is still importable: bytes have no layout.
    memory.importBuffer(context, exported).release();
  });

  it("a driver that lists no handle type (REFDRV_ASSUME_LINEAR_IMAGES=0, as NVIDIA's): a linear image is refused and its memory imports as a buffer; options.tiling speaks for handles that carry none; a wrong tiling is a TypeError", () => {
    process.env.REFDRV_ASSUME_LINEAR_IMAGES = '0';
    using matched = matchedToLavapipe();
    const { vk, context, memory, device } = matched;
    expect(memory.assumeLinearImageHandleTypes(device)).toEqual([]);
    using image = vk.createImage({ width, height, format: 'rgba8', tiling: 'linear' });
    using exported = image.exportMemory();
    expect(() => memory.importImage(context, exported, { format, width, height, rowPitch: image.planes[0]!.rowPitch! })).toThrow(
      /does not list opaque-fd .* in a layout of its own .*import the linear image's memory as a buffer/,
    );
    expect(exported.owned).toBe(true);
    const bare = { handleType: 'opaque-fd' as const, handle: exported.handle, size: exported.size };
    expect(() => memory.importImage(context, bare, { format, width, height, tiling: 'linear' })).toThrow(OpenCLImageLayoutError);
    expect(() => memory.importImage(context, bare, { format, width, height, tiling: 'tiled' as never })).toThrow(
      /options.tiling must be 'linear', 'optimal'; got the string "tiled"/,
    );
    expect(() => memory.importImage(context, bare, { format, width, height, tiling: null as never })).toThrow(
      /options.tiling must be 'linear', 'optimal'; got null/,
    );
    expect(() => memory.importImage(context, { ...bare, tiling: 5 as never }, { format, width, height })).toThrow(
      /handle.tiling must be 'linear', 'optimal'; got number 5/,
    );
    const buffer = memory.importBuffer(context, exported);
    expect(buffer.size).toBe(exported.size);
    buffer.release();
  });
});
