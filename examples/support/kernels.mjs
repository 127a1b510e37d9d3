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
