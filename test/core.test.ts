import { afterAll, describe, expect, it } from 'vitest';
import { CLBuffer, CLImage, OpenCLError, createContext, getPlatforms, localMemory, loadedLibrary, packArg } from '../lib';
import { pocl, poclSetup } from './helpers';

const { platform, device, context, queue } = poclSetup();
afterAll(() => {
  queue.release();
  context.release();
});

describe('platforms and devices (through the ICD loader)', () => {
  it('loads the system ICD loader and lists PoCL', () => {
    expect(loadedLibrary()?.path).toMatch(/libOpenCL\.so/);
    expect(getPlatforms()).toContain(pocl());
    expect(platform.vendor).toMatch(/pocl/i);
    expect(platform.versionNumber.major).toBeGreaterThanOrEqual(1);
    expect(platform.extensions).toContain('cl_khr_icd');
    expect(platform.icdSuffix).toBe('POCL');
    expect(platform.profile).toBe('FULL_PROFILE');
  });

  it('reports device info with the right types', () => {
    expect(device.platform).toBe(platform);
    expect(platform.getDevices()[0]).toBe(device); // one wrapper per cl_device_id
    expect(device.type).toBe('cpu');
    expect(typeof device.name).toBe('string');
    expect(device.maxComputeUnits).toBeGreaterThan(0);
    expect(typeof device.globalMemSize).toBe('bigint');
    expect(device.globalMemSize).toBeGreaterThan(0n);
    expect(device.localMemSize).toBeGreaterThan(0n);
    expect(device.maxMemAllocSize).toBeGreaterThan(0n);
    expect(device.imageSupport).toBe(true);
    expect(device.imageLimits.width2d).toBeGreaterThanOrEqual(2048);
    expect(device.maxWorkItemSizes).toHaveLength(3);
    expect(typeof device.preferredInteropUserSync).toBe('boolean');
    expect(device.queueProperties.profiling).toBe(true);
    expect(device.extensions.length).toBeGreaterThan(0);
    expect(device.openclCVersion).toMatch(/^OpenCL C \d/);
  });

  it('gives an empty list for a device type the platform lacks (CL_DEVICE_NOT_FOUND)', () => {
    expect(platform.getDevices('accelerator')).toEqual([]);
    expect(() => platform.getDevices('tpu' as never)).toThrow(TypeError);
  });

  it('reports none of the sharing extensions on PoCL', () => {
    for (const name of ['cl_khr_d3d10_sharing', 'cl_nv_d3d9_sharing', 'cl_intel_va_api_media_sharing']) {
      expect(platform.supports(name)).toBe(false);
    }
  });
});

describe('contexts', () => {
  it('creates from a device type and reads its properties', () => {
    const ctx = createContext({ platform, deviceType: 'cpu', interopUserSync: true });
    expect(ctx.devices).toEqual([device]);
    expect(ctx.platform).toBe(platform);
    expect(ctx.interopUserSync).toBe(true);
    expect(ctx.properties.map(([name]) => name)).toContain(0x1084);
    expect(ctx.referenceCount).toBeGreaterThanOrEqual(1);
    ctx.release();
  });

  it('rejects devices of another kind and bad properties before the driver', () => {
    expect(() => createContext({ devices: [] })).toThrow(TypeError);
    expect(() => createContext({ devices: ['x' as never] })).toThrow(TypeError);
    expect(() => createContext({ platform, properties: [[0x1084, 1n]] })).toThrow(TypeError);
    expect(() => createContext({ platform, properties: [['a' as never, 1]] })).toThrow(TypeError);
  });

  it('surfaces driver errors as OpenCLError with name and entry point', () => {
    try {
      createContext({ platform, properties: [[0x7fff, 1]] });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(OpenCLError);
      const e = error as OpenCLError;
      expect(e.call).toBe('clCreateContextFromType');
      expect(e.code).toMatch(/^CL_INVALID_/);
      expect(e.status).toBeLessThan(0);
    }
  });
});

describe('vector add and kernel arguments', () => {
  it('adds two vectors', async () => {
    const program = context.createProgram(`
      kernel void add(global const float *a, global const float *b, global float *c, float scale) {
        size_t i = get_global_id(0);
        c[i] = a[i] + scale * b[i];
      }`);
    await program.build();
    expect(program.kernelNames).toEqual(['add']);
    const kernel = program.createKernel('add');
    expect(kernel.numArgs).toBe(4);
    expect(kernel.name).toBe('add');
    const n = 4096;
    const a = Float32Array.from({ length: n }, (_, i) => i);
    const b = Float32Array.from({ length: n }, (_, i) => 2 * i);
    const A = context.createBuffer(a, { access: 'read' });
    const B = context.createBuffer(b, { access: 'read' });
    const C = context.createBuffer(n * 4, { access: 'write' });
    kernel.setArgs(A, B, C, ['float', 0.5]);
    const run = queue.enqueueKernel(kernel, n, { localSize: [64] });
    const out = new Float32Array(n);
    await queue.readBuffer(C, out, { waitFor: [run] }).completed;
    expect(out.every((v, i) => v === i + i)).toBe(true);
    expect(run.commandTypeName).toBe('CL_COMMAND_NDRANGE_KERNEL');
    const info = kernel.workGroupInfo(device);
    expect(info.workGroupSize).toBeGreaterThan(0);
  });

  it('passes every OpenCL C scalar and vector type by value', async () => {
    const program = context.createProgram(`
      kernel void echo(global uchar *out, char a, uchar b, short c, ushort d, int e, uint f, long g, ulong h,
                       float i, double j, float4 l, int3 m, uchar16 n) {
        int o = 0;
        out[o++] = (uchar)a; out[o++] = b;
        *(global short*)(out + 2) = c; *(global ushort*)(out + 4) = d;
        *(global int*)(out + 8) = e; *(global uint*)(out + 12) = f;
        *(global long*)(out + 16) = g; *(global ulong*)(out + 24) = h;
        *(global float*)(out + 32) = i; *(global double*)(out + 40) = j;
        vstore4(l, 0, (global float*)(out + 64));
        vstore3(m, 0, (global int*)(out + 80));
        vstore16(n, 0, out + 96);
      }`);
    await program.build();
    const kernel = program.createKernel('echo');
    const out = context.createBuffer(128);
    kernel
      .setArg(0, out)
      .setArg(1, -5, 'char')
      .setArg(2, 250, 'uchar')
      .setArg(3, -1234, 'short')
      .setArg(4, 54321, 'ushort')
      .setArg(5, -123456789, 'int')
      .setArg(6, 4000000000, 'uint')
      .setArg(7, -(2n ** 40n), 'long')
      .setArg(8, 2n ** 63n + 5n, 'ulong')
      .setArg(9, 1.5, 'float')
      .setArg(10, Math.PI, 'double')
      .setArg(11, [1, 2, 3, 4], 'float4')
      .setArg(12, [7, -8, 9], 'int3')
      .setArg(
        13,
        Array.from({ length: 16 }, (_, i) => i * 3),
        'uchar16',
      );
    const bytes = new Uint8Array(128);
    queue.enqueueKernel(kernel, 1).release();
    queue.readBuffer(out, bytes, { blocking: true }).release();
    const v = new DataView(bytes.buffer);
    expect(v.getInt8(0)).toBe(-5);
    expect(v.getUint8(1)).toBe(250);
    expect(v.getInt16(2, true)).toBe(-1234);
    expect(v.getUint16(4, true)).toBe(54321);
    expect(v.getInt32(8, true)).toBe(-123456789);
    expect(v.getUint32(12, true)).toBe(4000000000);
    expect(v.getBigInt64(16, true)).toBe(-(2n ** 40n));
    expect(v.getBigUint64(24, true)).toBe(2n ** 63n + 5n);
    expect(v.getFloat32(32, true)).toBe(1.5);
    expect(v.getFloat64(40, true)).toBe(Math.PI);
    expect([0, 1, 2, 3].map((i) => v.getFloat32(64 + 4 * i, true))).toEqual([1, 2, 3, 4]);
    expect([0, 1, 2].map((i) => v.getInt32(80 + 4 * i, true))).toEqual([7, -8, 9]);
    expect([...bytes.subarray(96, 112)]).toEqual(Array.from({ length: 16 }, (_, i) => i * 3));
  });

  it('checks argument values and types in TypeScript', async () => {
    const program = context.createProgram('kernel void k(global int *p, int v, local int *scratch) { scratch[0] = v; p[0] = scratch[0]; }');
    await program.build();
    const kernel = program.createKernel('k');
    expect(() => kernel.setArg(1, 5)).toThrow(/give the OpenCL C type/);
    expect(() => kernel.setArg(1, 2 ** 31, 'int')).toThrow(RangeError);
    expect(() => kernel.setArg(1, 1.5, 'int')).toThrow(RangeError);
    expect(() => kernel.setArg(1, [1, 2], 'int')).toThrow(TypeError);
    expect(() => kernel.setArg(1, 1, 'int5' as never)).toThrow(TypeError);
    expect(() => kernel.setArg(3, 1, 'int')).toThrow(RangeError);
    expect(() => kernel.setArg(0, {} as never)).toThrow(TypeError);
    expect(packArg('float3', [1, 2, 3]).byteLength).toBe(16);
    // half has no kernel-parameter support on PoCL (no cl_khr_fp16): check the IEEE 754 binary16 bits.
    const half = (x: number) => new DataView(packArg('half', x).buffer).getUint16(0, true);
    expect([half(1), half(-2.5), half(65504), half(1e-8), half(Infinity)]).toEqual([0x3c00, 0xc100, 0x7bff, 0, 0x7c00]);
    const p = context.createBuffer(4);
    kernel.setArgs(p, ['int', 42], localMemory(16));
    queue.enqueueKernel(kernel, 1).release();
    const out = new Int32Array(1);
    queue.readBuffer(p, out, { blocking: true });
    expect(out[0]).toBe(42);
  });

  it('passes build options to the compiler and reports argument info and build status', async () => {
    const program = context.createProgram(`
      kernel void fill(global int *out, const int base) { out[get_global_id(0)] = base + SCALE; }`);
    await program.build({ options: '-DSCALE=7 -cl-kernel-arg-info' });
    expect(program.buildStatus(device)).toBe(0);
    expect(program.source).toMatch(/kernel void fill/);
    const kernel = program.createKernel('fill');
    expect(kernel.argInfo(0)).toMatchObject({ name: 'out', typeName: 'int*' });
    expect(kernel.argInfo(1)).toMatchObject({ name: 'base', typeName: 'int' });
    const out = context.createBuffer(16);
    kernel.setArgs(out, ['int', 100]);
    queue.enqueueKernel(kernel, 4).release();
    const host = new Int32Array(4);
    queue.readBuffer(out, host, { blocking: true });
    expect([...host]).toEqual([107, 107, 107, 107]);
    await expect(context.createProgram('kernel void k() {}').build({ options: '-cl-no-such-option' })).rejects.toMatchObject({
      code: 'CL_INVALID_BUILD_OPTIONS',
      call: 'clBuildProgram',
    });
    expect(() => program.build({ options: 5 as never })).toThrow(TypeError);
    expect(() => program.build({ devices: ['x' as never] })).toThrow(TypeError);
  });

  it('runs NDRanges with offsets and local sizes in 2D', async () => {
    const program = context.createProgram(`
      kernel void coords(global int *out, int width) {
        int x = get_global_id(0), y = get_global_id(1);
        out[y * width + x] = (int)(get_local_size(0) * 1000 + y * 10 + x);
      }`);
    await program.build();
    const kernel = program.createKernel('coords');
    const out = context.createBuffer(new Int32Array(16).fill(-1));
    kernel.setArgs(out, ['int', 4]);
    queue.enqueueKernel(kernel, [2, 2], { globalOffset: [2, 1], localSize: [2, 1] });
    const host = new Int32Array(16);
    queue.readBuffer(out, host, { blocking: true });
    expect(host[1 * 4 + 2]).toBe(2000 + 12);
    expect(host[2 * 4 + 3]).toBe(2000 + 23);
    expect(host[0]).toBe(-1);
    expect(() => queue.enqueueKernel(kernel, [2, 2], { localSize: [2] })).toThrow(RangeError);
    expect(() => queue.enqueueKernel(kernel, [0])).toThrow(RangeError);
  });
});

describe('buffers', () => {
  it('reads, writes, copies, fills and makes sub-buffers', () => {
    const align = device.memBaseAddrAlign / 8;
    const buffer = context.createBuffer(align + 64);
    expect(buffer).toBeInstanceOf(CLBuffer);
    expect(buffer.size).toBe(align + 64);
    queue.fillBuffer(buffer, new Uint32Array([0xdeadbeef]));
    queue.writeBuffer(buffer, new Uint8Array([1, 2, 3, 4]), { offset: align });
    const copy = context.createBuffer(align + 64);
    queue.copyBuffer(buffer, copy);
    const sub = copy.createSubBuffer(align, 8, { access: 'read' });
    expect(sub.parent).toBe(copy);
    expect(sub.offset).toBe(align);
    expect(() => copy.createSubBuffer(1, 8)).toThrow(/CL_MISALIGNED_SUB_BUFFER_OFFSET/);
    const out = new Uint8Array(8);
    queue.readBuffer(sub, out, { blocking: true });
    expect([...out]).toEqual([1, 2, 3, 4, 0xef, 0xbe, 0xad, 0xde]);
    expect(() => queue.readBuffer(buffer, new Uint8Array(8), { offset: align + 60 })).toThrow(RangeError);
    expect(() => queue.writeBuffer(buffer, 'x' as never)).toThrow(TypeError);
    expect(() => context.createBuffer(0)).toThrow(RangeError);
    expect(() => context.createBuffer(8, { access: 'rw' as never })).toThrow(TypeError);
  });

  it('maps a buffer; the mapped view is unusable after unmap', async () => {
    const buffer = context.createBuffer(new Uint8Array([5, 6, 7, 8]));
    const mapping = await queue.mapBuffer(buffer, { access: 'read-write' });
    const view = new Uint8Array(mapping.buffer);
    expect([...view]).toEqual([5, 6, 7, 8]);
    view[0] = 99;
    expect(buffer.mapCount).toBe(1);
    await mapping.unmap().completed;
    expect(mapping.mapped).toBe(false);
    expect(view.length).toBe(0); // detached: no dangling memory
    expect(view[0]).toBeUndefined();
    expect(() => mapping.buffer).toThrow(/unmapped/);
    expect(() => mapping.unmap()).toThrow(/unmapped/);
    const out = new Uint8Array(4);
    queue.readBuffer(buffer, out, { blocking: true });
    expect(out[0]).toBe(99);
    const sync = queue.mapBufferSync(buffer, { access: 'read', offset: 1, size: 2 });
    expect([...sync.bytes()]).toEqual([6, 7]);
    sync[Symbol.dispose]();
    expect(sync.mapped).toBe(false);
  });
});

describe('images', () => {
  it('runs an image kernel (invert) with a sampler', async () => {
    const formats = context.supportedImageFormats({ access: 'read-write', type: '2d' });
    expect(formats.some((f) => f.order === 'RGBA' && f.type === 'UNORM_INT8')).toBe(true);
    const width = 8,
      height = 4;
    const pixels = Uint8Array.from({ length: width * height * 4 }, (_, i) => (i * 7) & 0xff);
    const source = context.createImage({ format: { order: 'RGBA', type: 'UNORM_INT8' }, width, height, data: pixels, access: 'read' });
    const target = context.createImage({ format: { order: 'RGBA', type: 'UNORM_INT8' }, width, height, access: 'write' });
    expect(source).toBeInstanceOf(CLImage);
    expect(source.region).toEqual([8, 4, 1]);
    expect(source.elementSize).toBe(4);
    const sampler = context.createSampler({ normalizedCoords: false, addressing: 'clamp-to-edge', filter: 'nearest' });
    expect(sampler.addressing).toBe('clamp-to-edge');
    expect(sampler.filter).toBe('nearest');
    const program = context.createProgram(`
      kernel void invert(read_only image2d_t src, write_only image2d_t dst, sampler_t s) {
        int2 p = (int2)(get_global_id(0), get_global_id(1));
        float4 c = read_imagef(src, s, p);
        write_imagef(dst, p, (float4)(1.0f) - c);
      }`);
    await program.build();
    const kernel = program.createKernel('invert').setArgs(source, target, sampler);
    const done = queue.enqueueKernel(kernel, [width, height]);
    const out = new Uint8Array(pixels.length);
    await queue.readImage(target, out, { waitFor: [done] }).completed;
    expect([...out]).toEqual([...pixels].map((v) => 255 - v));
  });

  it('copies, fills, maps and converts between images and buffers; 3D images', async () => {
    const image = context.createImage({ format: { order: 'R', type: 'UNSIGNED_INT8' }, width: 4, height: 4 });
    queue.fillImage(image, [7, 0, 0, 0]);
    const copy = context.createImage({ format: { order: 'R', type: 'UNSIGNED_INT8' }, width: 4, height: 4 });
    queue.copyImage(image, copy, { region: [2, 2, 1] });
    const buffer = context.createBuffer(16);
    queue.fillBuffer(buffer, new Uint8Array([0]));
    queue.copyImageToBuffer(copy, buffer, { region: [2, 2, 1] });
    const out = new Uint8Array(4);
    queue.readBuffer(buffer, out, { blocking: true });
    expect([...out]).toEqual([7, 7, 7, 7]);
    queue.copyBufferToImage(buffer, copy, { origin: [2, 2, 0], region: [2, 2, 1] });
    const mapping = await queue.mapImage(copy, { access: 'read', origin: [2, 2, 0], region: [2, 2, 1] });
    expect(mapping.rowPitch).toBeGreaterThanOrEqual(2);
    const bytes = mapping.bytes();
    expect([bytes[0], bytes[1], bytes[mapping.rowPitch], bytes[mapping.rowPitch + 1]]).toEqual([7, 7, 7, 7]);
    mapping.unmap();
    const volume = context.createImage({ format: { order: 'RGBA', type: 'FLOAT' }, width: 4, height: 4, depth: 4 });
    expect(volume.depth).toBe(4);
    queue.fillImage(volume, [0.25, 0.5, 0.75, 1]);
    const voxels = new Float32Array(4 * 64);
    queue.readImage(volume, voxels, { blocking: true });
    expect([...voxels.subarray(252)]).toEqual([0.25, 0.5, 0.75, 1]);
    expect(() => queue.readImage(volume, new Float32Array(8), { blocking: true })).toThrow(RangeError);
    expect(() => context.createImage({ format: { order: 'RGBA', type: 'NOPE' as never }, width: 4 })).toThrow(TypeError);
  });
});
