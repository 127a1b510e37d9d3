// OpenCL C the examples build on platforms with a compiler. The reference
// driver has none: it offers the same kernels built in, under the same names.

export const invertImageSource = `
  kernel void invert_image(read_only image2d_t src, write_only image2d_t dst) {
    const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imagef(dst, p, (float4)(1.0f) - read_imagef(src, s, p));
  }`;

/** A program with `name`: built from `source` where the device compiles, else the built-in kernel. */
export async function kernelProgram(context, source, name) {
  if (context.devices[0].compilerAvailable) {
    const program = context.createProgram(source);
    await program.build();
    return program;
  }
  return context.createProgramWithBuiltInKernels([name]);
}

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
