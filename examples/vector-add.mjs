// Core OpenCL: add two vectors on a platform's first device and check the result.
//   node examples/vector-add.mjs
import { fileURLToPath } from 'node:url';
import * as ocl from '../dist/index.js';
import { withOwned } from './support/opencl.mjs';

const source = `
  kernel void add(global const float *a, global const float *b, global float *sum) {
    size_t i = get_global_id(0);
    sum[i] = a[i] + b[i];
  }`;

/** Runs the kernel on `platform` (one with a compiler). Returns the elapsed kernel time in ns. */
export async function vectorAdd(platform, n = 1 << 20) {
  const device = platform.getDevices().find((d) => d.compilerAvailable);
  if (!device) throw new Error(`${platform.name} has no device with an OpenCL C compiler`);
  return withOwned(async (own) => {
    const context = own(ocl.createContext({ devices: [device] }));
    const queue = own(context.createQueue(device, { profiling: true }));
    const program = own(context.createProgram(source));
    await program.build();
    const kernel = own(program.createKernel('add'));
    const a = Float32Array.from({ length: n }, (_, i) => i);
    const b = Float32Array.from({ length: n }, (_, i) => 2 * i);
    const A = own(context.createBuffer(a, { access: 'read' }));
    const B = own(context.createBuffer(b, { access: 'read' }));
    const sum = own(context.createBuffer(n * 4, { access: 'write' }));
    kernel.setArgs(A, B, sum);
    const run = own(queue.enqueueKernel(kernel, n));
    const result = new Float32Array(n);
    const read = own(queue.readBuffer(sum, result, { waitFor: [run] }));
    await read.completed;
    const wrong = result.findIndex((v, i) => v !== 3 * i);
    if (wrong >= 0) throw new Error(`element ${wrong} is ${result[wrong]}, expected ${3 * wrong}`);
    const { start, end } = run.profiling;
    return { device, elements: n, kernelNs: Number(end - start) };
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const platform = ocl.getPlatforms().find((p) => p.getDevices().some((d) => d.compilerAvailable));
  if (!platform) throw new Error('no OpenCL platform with a compiler is installed (try: apt-get install pocl-opencl-icd)');
  const { device, elements, kernelNs } = await vectorAdd(platform);
  console.log(`${elements} additions on ${device.name} (${platform.name}): correct, kernel ${(kernelNs / 1e6).toFixed(3)} ms`);
}
