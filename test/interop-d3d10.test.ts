// cl_khr_d3d10_sharing through the public TypeScript API, on the reference driver (test/driver).
// Test names cite the spec section they check (shared/specs/; the D3D10 and
// KHR DX9 media sections are those of the OpenCL 1.2 extension spec, 9.9 and
// 9.10, as the driver's own ctests name them).
import { describe, expect, it } from 'vitest';
import {
  CL,
  CLBuffer,
  type CLImage,
  CL_CONTEXT_D3D10_DEVICE_KHR,
  type CommandQueue,
  type Context,
  DXGI_FORMAT,
  OpenCLStateError,
  getSharing,
  predictSharedImage,
} from '../lib';
import { ref, platform, refDevice, clError, rejectedBeforeDriver, live, done, bytes, sharedResources } from './helpers/ref-driver';

describe('cl_khr_d3d10_sharing', () => {
  const d3d10 = platform.getSharing('cl_khr_d3d10_sharing');
  let baseline: ReturnType<typeof live>;
  let device: bigint;
  let context: Context;
  let queue: CommandQueue;
  const keep = sharedResources(
    () => {
      baseline = live();
      device = keep(ref.d3d10CreateDevice());
      context = d3d10.createContext(device);
      queue = context.createQueue();
    },
    () => [queue, context],
  );

  it('resolves all 6 entry points', () => {
    expect(d3d10.entryPoints).toEqual([
      'clGetDeviceIDsFromD3D10KHR',
      'clCreateFromD3D10BufferKHR',
      'clCreateFromD3D10Texture2DKHR',
      'clCreateFromD3D10Texture3DKHR',
      'clEnqueueAcquireD3D10ObjectsKHR',
      'clEnqueueReleaseD3D10ObjectsKHR',
    ]);
    expect(getSharing(platform, 'cl_khr_d3d10_sharing')).toBe(d3d10);
  });

  it('cl_khr_d3d10_sharing 9.9.7.1: devices for an ID3D10Device and for an IDXGIAdapter; none gives []', () => {
    expect(d3d10.getDevices({ device })).toEqual([refDevice]);
    expect(d3d10.getDevices({ device }, 'all')).toEqual([refDevice]);
    const adapter = keep(ref.dxgiCreateAdapter('DXGI test adapter', true));
    expect(d3d10.getDevices({ dxgiAdapter: adapter })).toEqual([refDevice]);
    expect(d3d10.getDevices({ dxgiAdapter: adapter }, 'all')).toEqual([refDevice]);
    const noCl = keep(ref.dxgiCreateAdapter('DXGI adapter without CL', false));
    expect(d3d10.getDevices({ dxgiAdapter: noCl })).toEqual([]);
    expect(d3d10.getDevices({ dxgiAdapter: noCl }, 'all')).toEqual([]);
    const devNoCl = keep(ref.d3d10CreateDevice(noCl));
    expect(d3d10.getDevices({ device: devNoCl })).toEqual([]);
  });

  it('cl_khr_d3d10_sharing 9.9.7.1: bad arguments are TypeErrors before the driver', () => {
    rejectedBeforeDriver(d3d10, () => d3d10.getDevices({ device: 0n }));
    rejectedBeforeDriver(d3d10, () => d3d10.getDevices({ dxgiAdapter: -1n }));
    rejectedBeforeDriver(d3d10, () => d3d10.getDevices({ dxgiAdapter: 5 as unknown as bigint }));
    rejectedBeforeDriver(d3d10, () => d3d10.getDevices({ device }, 'any' as never));
    rejectedBeforeDriver(d3d10, () => d3d10.getDevices(undefined as never));
  });

  it('cl_khr_d3d10_sharing 9.9.5: createContext with CL_CONTEXT_D3D10_DEVICE_KHR; PREFER_SHARED_RESOURCES readable', () => {
    expect(context.interop).toEqual({ extension: 'cl_khr_d3d10_sharing', property: CL_CONTEXT_D3D10_DEVICE_KHR, handle: device });
    expect(context.sharing).toBe(d3d10);
    expect(context.properties).toContainEqual([CL_CONTEXT_D3D10_DEVICE_KHR, device]);
    // The reference driver answers CL_FALSE for every context.
    expect(d3d10.prefersSharedResources(context)).toBe(false);
    for (const sync of [true, false]) {
      const ctx = d3d10.createContext(device, { interopUserSync: sync, devices: [refDevice] });
      expect(ctx.interopUserSync).toBe(sync);
      expect(ctx.sharing).toBe(d3d10);
      expect(d3d10.prefersSharedResources(ctx)).toBe(false);
      ctx.release();
    }
  });

  it('cl_khr_d3d10_sharing 9.9.5: a device with no OpenCL device gives typed errors', () => {
    const noCl = keep(ref.dxgiCreateAdapter('DXGI adapter without CL (ctx)', false));
    const dev = keep(ref.d3d10CreateDevice(noCl));
    clError(() => d3d10.createContext(dev), 'CL_DEVICE_NOT_FOUND', 'clCreateContext');
    const error = clError(() => d3d10.createContext(dev, { devices: [refDevice] }), 'CL_INVALID_D3D10_DEVICE_KHR', 'clCreateContext');
    expect(error.status).toBe(-1002);
  });

  it('cl_khr_d3d10_sharing 9.9.7.3: a buffer is a CLBuffer of the ID3D10Buffer size; one wrapper per resource', () => {
    const res = keep(ref.d3d10CreateBuffer(device, 1000));
    const before = ref.refcount(res);
    const buf = d3d10.createFromBuffer(context, res, { access: 'write' });
    expect(buf).toBeInstanceOf(CLBuffer);
    expect(buf.size).toBe(1000);
    expect(buf.flags).toBe(BigInt(CL.CL_MEM_WRITE_ONLY));
    expect(d3d10.objectInfo(buf)).toEqual({ resource: res });
    expect(ref.refcount(res)).toBe(before + 1);
    expect(d3d10.createFromBuffer(context, res)).toBe(buf);
    buf.release();
    ref.waitIdle();
    expect(ref.refcount(res)).toBe(before);
  });

  it('cl_khr_d3d10_sharing 9.9.7.4: Texture2D subresource = mip + slice * mipLevels gives that level size', () => {
    const tex = keep(
      ref.d3d10CreateTexture2D(device, { width: 32, height: 16, mipLevels: 3, arraySize: 2, format: DXGI_FORMAT.DXGI_FORMAT_R8G8B8A8_UNORM }),
    );
    const made = new Map<number, CLImage>();
    for (let slice = 0; slice < 2; slice++) {
      for (let mip = 0; mip < 3; mip++) {
        const sub = mip + slice * 3;
        const image = d3d10.createFromTexture2D(context, tex, sub, { access: 'read' });
        made.set(sub, image);
        expect(image.type).toBe(CL.CL_MEM_OBJECT_IMAGE2D);
        expect([image.width, image.height]).toEqual([32 >> mip, 16 >> mip]);
        expect(image.format).toMatchObject({ order: 'RGBA', type: 'UNORM_INT8' });
        const p = predictSharedImage({
          extension: 'cl_khr_d3d10_sharing',
          dxgiFormat: DXGI_FORMAT.DXGI_FORMAT_R8G8B8A8_UNORM,
          width: 32,
          height: 16,
          subresource: sub,
          mipLevels: 3,
        });
        expect([p.format.order, p.format.type, p.width, p.height, p.depth]).toEqual([
          image.format.order,
          image.format.type,
          image.width,
          image.height,
          image.depth,
        ]);
        expect(d3d10.objectInfo(image)).toEqual({ resource: tex, subresource: sub });
      }
    }
    expect(new Set(made.values()).size).toBe(6);
    expect(d3d10.createFromTexture2D(context, tex, 4)).toBe(made.get(4));
    clError(() => d3d10.createFromTexture2D(context, tex, 6), 'CL_INVALID_VALUE', 'clCreateFromD3D10Texture2DKHR');
    // Only the driver knows the texture's subresources: its error says what was passed.
    expect(() => d3d10.createFromTexture2D(context, tex, 6)).toThrow(`D3D10 2D texture 0x${tex.toString(16)} subresource 6`);
    for (const image of made.values()) image.release();
  });

  it('cl_khr_d3d10_sharing 9.9.7.4 (format table): B8G8R8A8_UNORM -> BGRA, R16_FLOAT -> R HALF_FLOAT, R32G32_UINT -> RG UNSIGNED_INT32', () => {
    const cases = [
      ['DXGI_FORMAT_B8G8R8A8_UNORM', 'BGRA', 'UNORM_INT8'],
      ['DXGI_FORMAT_R16_FLOAT', 'R', 'HALF_FLOAT'],
      ['DXGI_FORMAT_R32G32_UINT', 'RG', 'UNSIGNED_INT32'],
      ['DXGI_FORMAT_R8G8_SNORM', 'RG', 'SNORM_INT8'],
    ] as const;
    for (const [name, order, type] of cases) {
      const tex = keep(ref.d3d10CreateTexture2D(device, { width: 6, height: 2, format: DXGI_FORMAT[name] }));
      const image = d3d10.createFromTexture2D(context, tex, 0);
      expect(image.format).toMatchObject({ order, type });
      const p = predictSharedImage({ extension: 'cl_khr_d3d10_sharing', dxgiFormat: DXGI_FORMAT[name], width: 6, height: 2 });
      expect(p.format).toMatchObject({ order, type });
      image.release();
    }
  });

  it('cl_khr_d3d10_sharing 9.9.7.4: immutable and multisampled textures are CL_INVALID_D3D10_RESOURCE_KHR', () => {
    const immutable = keep(ref.d3d10CreateTexture2D(device, { width: 4, height: 4, format: DXGI_FORMAT.DXGI_FORMAT_R8_UNORM, usage: 1 }));
    const msaa = keep(ref.d3d10CreateTexture2D(device, { width: 4, height: 4, format: DXGI_FORMAT.DXGI_FORMAT_R8_UNORM, sampleCount: 4 }));
    clError(() => d3d10.createFromTexture2D(context, immutable, 0), 'CL_INVALID_D3D10_RESOURCE_KHR', 'clCreateFromD3D10Texture2DKHR');
    clError(() => d3d10.createFromTexture2D(context, msaa, 0), 'CL_INVALID_D3D10_RESOURCE_KHR');
  });

  it('cl_khr_d3d10_sharing 9.9.7.4: Texture3D subresource is a 3D image of that mip level', () => {
    const tex = keep(ref.d3d10CreateTexture3D(device, { width: 16, height: 8, depth: 4, mipLevels: 2, format: DXGI_FORMAT.DXGI_FORMAT_R32_FLOAT }));
    const image = d3d10.createFromTexture3D(context, tex, 1);
    expect(image.type).toBe(CL.CL_MEM_OBJECT_IMAGE3D);
    expect([image.width, image.height, image.depth]).toEqual([8, 4, 2]);
    expect(image.format).toMatchObject({ order: 'R', type: 'FLOAT' });
    const p = predictSharedImage({
      extension: 'cl_khr_d3d10_sharing',
      dxgiFormat: DXGI_FORMAT.DXGI_FORMAT_R32_FLOAT,
      width: 16,
      height: 8,
      depth: 4,
      subresource: 1,
      mipLevels: 2,
    });
    expect([p.imageType, p.width, p.height, p.depth]).toEqual(['image3d', 8, 4, 2]);
    expect(d3d10.objectInfo(image)).toEqual({ resource: tex, subresource: 1 });
    expect(d3d10.createFromTexture3D(context, tex, 1)).toBe(image);
    image.release();
  });

  it('cl_khr_d3d10_sharing 9.9.7.3/9.9.7.4: access other than read/write/read-write is a TypeError before the driver', () => {
    const res = keep(ref.d3d10CreateBuffer(device, 16));
    const tex = keep(ref.d3d10CreateTexture2D(device, { width: 4, height: 4, format: DXGI_FORMAT.DXGI_FORMAT_R8_UNORM }));
    for (const access of ['rw', 42, 'READ_WRITE']) {
      rejectedBeforeDriver(d3d10, () => d3d10.createFromBuffer(context, res, { access: access as never }));
      rejectedBeforeDriver(d3d10, () => d3d10.createFromTexture2D(context, tex, 0, { access: access as never }));
    }
    rejectedBeforeDriver(d3d10, () => d3d10.createFromTexture2D(context, tex, 1.5), RangeError);
    rejectedBeforeDriver(d3d10, () => d3d10.createFromTexture3D(context, 0n, 0));
  });

  it('cl_khr_d3d10_sharing 9.9.7.6: acquire twice, release unacquired, use unacquired give the D3D10 error names; events typed', async () => {
    const tex = keep(ref.d3d10CreateTexture2D(device, { width: 4, height: 4, format: DXGI_FORMAT.DXGI_FORMAT_R8G8B8A8_UNORM }));
    const image = d3d10.createFromTexture2D(context, tex, 0);
    const host = new Uint8Array(64);
    clError(() => queue.readImage(image, host), 'CL_D3D10_RESOURCE_NOT_ACQUIRED_KHR', 'clEnqueueReadImage');
    clError(() => queue.enqueueReleaseShared([image]), 'CL_D3D10_RESOURCE_NOT_ACQUIRED_KHR', 'clEnqueueReleaseD3D10ObjectsKHR');
    const acquire = queue.enqueueAcquireShared([image]);
    expect(acquire.commandTypeName).toBe('CL_COMMAND_ACQUIRE_D3D10_OBJECTS_KHR');
    expect(acquire.commandType).toBe(0x4017);
    const twice = clError(() => queue.enqueueAcquireShared([image]), 'CL_D3D10_RESOURCE_ALREADY_ACQUIRED_KHR', 'clEnqueueAcquireD3D10ObjectsKHR');
    expect(twice.status).toBe(-1004);
    expect(() => image.release()).toThrow(OpenCLStateError);
    expect(image.released).toBe(false);
    const release = queue.enqueueReleaseShared([image]);
    expect(release.commandTypeName).toBe('CL_COMMAND_RELEASE_D3D10_OBJECTS_KHR');
    expect(release.commandType).toBe(0x4018);
    await done(release);
    acquire.release();
    const program = context.createProgramWithBuiltInKernels(['copy_image']);
    const other = context.createImage({ format: { order: 'RGBA', type: 'UNORM_INT8' }, width: 4, height: 4 });
    const kernel = program.createKernel('copy_image').setArgs(other, image);
    clError(() => queue.enqueueKernel(kernel, [4, 4]), 'CL_D3D10_RESOURCE_NOT_ACQUIRED_KHR', 'clEnqueueNDRangeKernel');
    kernel.release();
    program.release();
    other.release();
    image.release();
  });

  it('cl_khr_d3d10_sharing 9.9.7.6: withAcquired releases when fn throws and when it rejects', async () => {
    const res = keep(ref.d3d10CreateBuffer(device, 8));
    const buf = d3d10.createFromBuffer(context, res);
    await expect(
      queue.withAcquired([buf], () => {
        throw new RangeError('thrown');
      }),
    ).rejects.toThrow(RangeError);
    expect(buf.acquired).toBe(false);
    await expect(queue.withAcquired([buf], () => Promise.reject(new Error('rejected')))).rejects.toThrow('rejected');
    expect(buf.acquired).toBe(false);
    const scope = queue.acquire([buf]);
    expect(buf.acquired).toBe(true);
    scope[Symbol.dispose]();
    expect(buf.acquired).toBe(false);
    await done(scope.event);
    buf.release();
  });

  it('cl_khr_d3d10_sharing 9.9.7.4: zero-copy both ways through a buffer and two texture subresources', async () => {
    const tex = keep(
      ref.d3d10CreateTexture2D(device, { width: 8, height: 4, mipLevels: 2, arraySize: 2, format: DXGI_FORMAT.DXGI_FORMAT_R8G8B8A8_UNORM }),
    );
    const srcSub = 0 + 1 * 2; // mip 0, slice 1
    const dstSub = 0; // mip 0, slice 0
    const pixels = bytes(8 * 4 * 4, (i) => i * 13 + 1);
    ref.write(tex, srcSub, 0, pixels);
    ref.write(tex, dstSub, 0, new Uint8Array(pixels.length));
    const src = d3d10.createFromTexture2D(context, tex, srcSub, { access: 'read' });
    const dst = d3d10.createFromTexture2D(context, tex, dstSub, { access: 'write' });
    const inRes = keep(ref.d3d10CreateBuffer(device, 64));
    const outRes = keep(ref.d3d10CreateBuffer(device, 64));
    const data = bytes(64, (i) => 200 - i);
    ref.write(inRes, 0, 0, data);
    ref.write(outRes, 0, 0, new Uint8Array(64));
    const inBuf = d3d10.createFromBuffer(context, inRes, { access: 'read' });
    const outBuf = d3d10.createFromBuffer(context, outRes, { access: 'write' });
    const program = context.createProgramWithBuiltInKernels(['invert_image', 'copy_buffer']);
    const invert = program.createKernel('invert_image').setArgs(src, dst);
    const copy = program.createKernel('copy_buffer').setArgs(inBuf, outBuf);
    const seen = new Uint8Array(pixels.length);
    await queue.withAcquired([src, dst, inBuf, outBuf], async (scope) => {
      expect(scope.event.commandTypeName).toBe('CL_COMMAND_ACQUIRE_D3D10_OBJECTS_KHR');
      await done(queue.readImage(src, seen));
      await done(queue.enqueueKernel(invert, [8, 4]));
      await done(queue.enqueueKernel(copy, [64]));
    });
    expect(seen).toEqual(pixels);
    expect(ref.read(tex, dstSub, 0)).toEqual(pixels.map((v) => 255 - v));
    expect(ref.read(outRes, 0, 0)).toEqual(data);
    for (const o of [invert, copy, program, src, dst, inBuf, outBuf]) o.release();
  });

  it('cl_khr_d3d10_sharing 9.9.7.2: cl_mems and contexts hold references to the resource / device', () => {
    const tex = keep(ref.d3d10CreateTexture3D(device, { width: 4, height: 4, depth: 2, format: DXGI_FORMAT.DXGI_FORMAT_R8_UNORM }));
    const start = ref.refcount(tex);
    const image = d3d10.createFromTexture3D(context, tex, 0);
    expect(ref.refcount(tex)).toBe(start + 1);
    image.release();
    ref.waitIdle();
    expect(ref.refcount(tex)).toBe(start);
    const dev = keep(ref.d3d10CreateDevice());
    const before = ref.refcount(dev);
    const ctx = d3d10.createContext(dev);
    expect(ref.refcount(dev)).toBe(before + 1);
    ctx.release();
    ref.waitIdle();
    expect(ref.refcount(dev)).toBe(before);
  });

  it('cl_khr_d3d10_sharing 9.9.7.2: with everything released, the driver is back to its starting object counts', () => {
    queue.release();
    context.release();
    expect(live()).toEqual(baseline);
  });
});

// ---------------------------------------------------------- Intel DX9 ----
