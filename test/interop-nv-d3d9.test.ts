// cl_nv_d3d9_sharing through the public TypeScript API, on the reference driver (test/driver).
// Test names cite the spec section they check (shared/specs/; the D3D10 and
// KHR DX9 media sections are those of the OpenCL 1.2 extension spec, 9.9 and
// 9.10, as the driver's own ctests name them).
import { describe, expect, it } from 'vitest';
import {
  CL,
  CLBuffer,
  CLImage,
  CL_CONTEXT_D3D10_DEVICE_KHR,
  CL_CONTEXT_D3D9_DEVICE_NV,
  type CommandQueue,
  type Context,
  D3DFMT,
  type MemObject,
  OpenCLStateError,
  getSharing,
  predictSharedImage,
} from '../lib';
import { ref, platform, refDevice, clError, rejectedBeforeDriver, live, done, bytes, sharedResources } from './helpers/ref-driver';

describe('cl_nv_d3d9_sharing', () => {
  const nv = platform.getSharing('cl_nv_d3d9_sharing');
  let baseline: ReturnType<typeof live>;
  let device: bigint;
  let context: Context;
  let queue: CommandQueue;
  const keep = sharedResources(
    () => {
      baseline = live();
      device = keep(ref.d3d9CreateDevice('d3d9'));
      context = nv.createContext(device);
      queue = context.createQueue();
    },
    () => [queue, context],
  );

  it('resolves all 9 entry points; getSharing and platform.getSharing give the same facade', () => {
    expect(nv.name).toBe('cl_nv_d3d9_sharing');
    expect(getSharing(platform, 'cl_nv_d3d9_sharing')).toBe(nv);
    expect(nv.entryPoints).toEqual([
      'clGetDeviceIDsFromD3D9NV',
      'clCreateFromD3D9VertexBufferNV',
      'clCreateFromD3D9IndexBufferNV',
      'clCreateFromD3D9SurfaceNV',
      'clCreateFromD3D9TextureNV',
      'clCreateFromD3D9CubeTextureNV',
      'clCreateFromD3D9VolumeTextureNV',
      'clEnqueueAcquireD3D9ObjectsNV',
      'clEnqueueReleaseD3D9ObjectsNV',
    ]);
  });

  it('cl_nv_d3d9_sharing 9.13.1: devices for a Direct3D 9 device, preferred and all', () => {
    expect(nv.getDevices({ device })).toEqual([refDevice]);
    expect(nv.getDevices({ device }, 'all')).toEqual([refDevice]);
    expect(nv.getDevices({ device }, 'preferred')[0]).toBe(refDevice);
  });

  it('cl_nv_d3d9_sharing 9.13.1: devices by adapter name (CL_D3D9_ADAPTER_NAME_NV)', () => {
    const adapter = keep(ref.d3d9CreateAdapter('NV test adapter', true));
    const noCl = keep(ref.d3d9CreateAdapter('NV adapter without CL', false));
    expect(nv.getDevices({ adapterName: 'NV test adapter' })).toEqual([refDevice]);
    expect(nv.getDevices({ adapterName: 'NV test adapter' }, 'all')).toEqual([refDevice]);
    expect(nv.getDevices({ adapterName: 'opencl-interop reference adapter' })).toEqual([refDevice]);
    // CL_DEVICE_NOT_FOUND becomes an empty list.
    expect(nv.getDevices({ adapterName: 'NV adapter without CL' })).toEqual([]);
    expect(nv.getDevices({ adapterName: 'NV adapter without CL' }, 'all')).toEqual([]);
    const deviceNoCl = keep(ref.d3d9CreateDevice('d3d9', noCl));
    expect(nv.getDevices({ device: deviceNoCl })).toEqual([]);
    const deviceOnAdapter = keep(ref.d3d9CreateDevice('d3d9', adapter));
    expect(nv.getDevices({ device: deviceOnAdapter }, 'all')).toEqual([refDevice]);
  });

  it('cl_nv_d3d9_sharing 9.13.1: bad arguments are TypeErrors before the driver', () => {
    rejectedBeforeDriver(nv, () => nv.getDevices({ device: 0n }));
    rejectedBeforeDriver(nv, () => nv.getDevices({ device: 12 as unknown as bigint }));
    rejectedBeforeDriver(nv, () => nv.getDevices({ adapterName: '' }));
    rejectedBeforeDriver(nv, () => nv.getDevices({ adapterName: 7 as unknown as string }));
    rejectedBeforeDriver(nv, () => nv.getDevices({ device }, 'some' as never));
    rejectedBeforeDriver(nv, () => nv.getDevices(null as never));
  });

  it('cl_nv_d3d9_sharing 4.3 (table 4.5): createContext with CL_CONTEXT_D3D9_DEVICE_NV, interop user sync', () => {
    expect(context.interop).toEqual({ extension: 'cl_nv_d3d9_sharing', property: CL_CONTEXT_D3D9_DEVICE_NV, handle: device });
    expect(context.sharing).toBe(nv);
    expect(context.devices).toEqual([refDevice]);
    expect(context.properties).toContainEqual([CL_CONTEXT_D3D9_DEVICE_NV, device]);
    expect(context.interopUserSync).toBe(false);
    for (const sync of [true, false]) {
      const ctx = nv.createContext(device, { interopUserSync: sync });
      expect(ctx.interopUserSync).toBe(sync);
      expect(ctx.properties).toContainEqual([CL.CL_CONTEXT_INTEROP_USER_SYNC, sync ? 1n : 0n]);
      expect(ctx.sharing).toBe(nv);
      ctx.release();
    }
  });

  it('cl_nv_d3d9_sharing 4.3: a device with no OpenCL device gives a typed error', () => {
    const noCl = keep(ref.d3d9CreateAdapter('NV adapter without CL (ctx)', false));
    const dev = keep(ref.d3d9CreateDevice('d3d9', noCl));
    // No device to default to: CL_DEVICE_NOT_FOUND without calling clCreateContext.
    clError(() => nv.createContext(dev), 'CL_DEVICE_NOT_FOUND', 'clCreateContext');
    // With an explicit device the driver answers CL_INVALID_D3D9_DEVICE_NV.
    const error = clError(() => nv.createContext(dev, { devices: [refDevice] }), 'CL_INVALID_D3D9_DEVICE_NV');
    expect(error.status).toBe(-1010);
    expect(() => nv.createContext(0n)).toThrow(TypeError);
  });

  it('cl_nv_d3d9_sharing 4.3: one context cannot name two interop devices (D3D9 and D3D10)', () => {
    const d3d10 = keep(ref.d3d10CreateDevice());
    const error = clError(() => nv.createContext(device, { properties: [[CL_CONTEXT_D3D10_DEVICE_KHR, d3d10]] }), 'CL_INVALID_OPERATION');
    expect(error.call).toBe('clCreateContext');
  });

  it('cl_nv_d3d9_sharing 9.13.3: vertex and index buffers are CLBuffers of the resource size', () => {
    const vb = keep(ref.d3d9CreateVertexBuffer(device, 256));
    const ib = keep(ref.d3d9CreateIndexBuffer(device, 96, 102));
    const before = ref.refcount(vb);
    const vbuf = nv.createFromVertexBuffer(context, vb);
    const ibuf = nv.createFromIndexBuffer(context, ib, { access: 'read' });
    expect(vbuf).toBeInstanceOf(CLBuffer);
    expect(ibuf).toBeInstanceOf(CLBuffer);
    expect(vbuf.size).toBe(256);
    expect(ibuf.size).toBe(96);
    expect(vbuf.type).toBe(CL.CL_MEM_OBJECT_BUFFER);
    expect(vbuf.flags).toBe(BigInt(CL.CL_MEM_READ_WRITE));
    expect(ibuf.flags).toBe(BigInt(CL.CL_MEM_READ_ONLY));
    expect(vbuf.sharedWith).toBe('cl_nv_d3d9_sharing');
    expect(nv.objectInfo(vbuf)).toEqual({ resource: vb });
    expect(nv.objectInfo(ibuf)).toEqual({ resource: ib });
    // 9.13.2: the cl_mem holds a reference to the resource.
    expect(ref.refcount(vb)).toBe(before + 1);
    expect(nv.createFromVertexBuffer(context, vb)).toBe(vbuf);
    expect(nv.createFromIndexBuffer(context, ib)).toBe(ibuf);
    vbuf.release();
    ibuf.release();
    ref.waitIdle();
    expect(ref.refcount(vb)).toBe(before);
  });

  it('cl_nv_d3d9_sharing 9.13.4 (table 9.13.4.1): surfaces A8R8G8B8 -> CL_RGBA (no swizzle) and A8 -> CL_R', () => {
    const cases = [
      { fmt: D3DFMT.D3DFMT_A8R8G8B8, order: 'RGBA', type: 'UNORM_INT8' },
      { fmt: D3DFMT.D3DFMT_X8R8G8B8, order: 'RGBA', type: 'UNORM_INT8' },
      { fmt: D3DFMT.D3DFMT_A8, order: 'R', type: 'UNORM_INT8' },
      { fmt: D3DFMT.D3DFMT_V8U8, order: 'RG', type: 'SNORM_INT8' },
      { fmt: D3DFMT.D3DFMT_R32F, order: 'R', type: 'FLOAT' },
    ] as const;
    for (const { fmt, order, type } of cases) {
      const { surface } = ref.d3d9CreateSurface(device, fmt, 20, 6);
      keep(surface);
      const image = nv.createFromSurface(context, surface);
      expect(image).toBeInstanceOf(CLImage);
      expect(image.type).toBe(CL.CL_MEM_OBJECT_IMAGE2D);
      expect({ order: image.format.order, type: image.format.type }).toEqual({ order, type });
      expect([image.width, image.height, image.depth]).toEqual([20, 6, 0]);
      const predicted = predictSharedImage({ extension: 'cl_nv_d3d9_sharing', d3dFormat: fmt, width: 20, height: 6 });
      expect(predicted.format.order).toBe(image.format.order);
      expect(predicted.format.type).toBe(image.format.type);
      expect([predicted.width, predicted.height, predicted.depth]).toEqual([image.width, image.height, image.depth]);
      // zero-copy: the image reports the surface's own row pitch.
      expect(image.rowPitch).toBe(ref.layout(surface).rowPitch);
      expect(nv.objectInfo(image)).toEqual({ resource: surface });
      expect(nv.createFromSurface(context, surface)).toBe(image);
      image.release();
    }
  });

  it('cl_nv_d3d9_sharing 9.13.4: texture mip levels have the level size; same level twice gives one wrapper', () => {
    const tex = keep(ref.d3d9CreateTexture(device, D3DFMT.D3DFMT_A8R8G8B8, 64, 32, 0));
    const images: CLImage[] = [];
    for (let level = 0; level < 7; level++) {
      const image = nv.createFromTexture(context, tex, level, { access: 'read' });
      images.push(image);
      const w = Math.max(1, 64 >> level);
      const h = Math.max(1, 32 >> level);
      expect([image.width, image.height]).toEqual([w, h]);
      const p = predictSharedImage({ extension: 'cl_nv_d3d9_sharing', d3dFormat: D3DFMT.D3DFMT_A8R8G8B8, width: 64, height: 32, miplevel: level });
      expect([p.width, p.height, p.format.order]).toEqual([image.width, image.height, image.format.order]);
      expect(nv.objectInfo(image)).toEqual({ resource: tex, level });
    }
    expect(new Set(images).size).toBe(7);
    expect(nv.createFromTexture(context, tex, 3)).toBe(images[3]);
    // There is no level 7 of a 64x32 chain.
    clError(() => nv.createFromTexture(context, tex, 7), 'CL_INVALID_VALUE', 'clCreateFromD3D9TextureNV');
    for (const image of images) image.release();
  });

  it('cl_nv_d3d9_sharing 9.13.4: cube texture face + level', () => {
    const cube = keep(ref.d3d9CreateCubeTexture(device, D3DFMT.D3DFMT_A16B16G16R16F, 16, 3));
    const image = nv.createFromCubeTexture(context, cube, 3, 1);
    expect([image.width, image.height, image.depth]).toEqual([8, 8, 0]);
    expect(image.format).toMatchObject({ order: 'RGBA', type: 'HALF_FLOAT' });
    expect(nv.objectInfo(image)).toEqual({ resource: cube, face: 3, level: 1 });
    const other = nv.createFromCubeTexture(context, cube, 5, 2);
    expect(other).not.toBe(image);
    expect(nv.objectInfo(other)).toEqual({ resource: cube, face: 5, level: 2 });
    expect([other.width, other.height]).toEqual([4, 4]);
    expect(nv.createFromCubeTexture(context, cube, 3, 1)).toBe(image);
    rejectedBeforeDriver(nv, () => nv.createFromCubeTexture(context, cube, -1 as never, 0), RangeError);
    image.release();
    other.release();
  });

  it('cl_nv_d3d9_sharing 9.13.4: volume texture level is a 3D image', () => {
    const vol = keep(ref.d3d9CreateVolumeTexture(device, D3DFMT.D3DFMT_L8, 16, 8, 4, 2));
    const image = nv.createFromVolumeTexture(context, vol, 1);
    expect(image.type).toBe(CL.CL_MEM_OBJECT_IMAGE3D);
    expect([image.width, image.height, image.depth]).toEqual([8, 4, 2]);
    expect(image.format).toMatchObject({ order: 'R', type: 'UNORM_INT8' });
    const p = predictSharedImage({ extension: 'cl_nv_d3d9_sharing', d3dFormat: D3DFMT.D3DFMT_L8, width: 16, height: 8, depth: 4, miplevel: 1 });
    expect([p.imageType, p.width, p.height, p.depth]).toEqual(['image3d', 8, 4, 2]);
    expect(nv.objectInfo(image)).toEqual({ resource: vol, level: 1 });
    image.release();
  });

  it('cl_nv_d3d9_sharing 9.13.3/9.13.4: access read/write/read-write map to flags; anything else is a TypeError before the driver', () => {
    const vb = keep(ref.d3d9CreateVertexBuffer(device, 64));
    const expected = { read: CL.CL_MEM_READ_ONLY, write: CL.CL_MEM_WRITE_ONLY, 'read-write': CL.CL_MEM_READ_WRITE } as const;
    for (const [access, flag] of Object.entries(expected)) {
      const buf = nv.createFromVertexBuffer(context, vb, { access: access as keyof typeof expected });
      expect(buf.flags).toBe(BigInt(flag));
      buf.release();
      ref.waitIdle();
    }
    const { surface } = ref.d3d9CreateSurface(device, D3DFMT.D3DFMT_A8R8G8B8, 4, 4);
    keep(surface);
    for (const access of ['rw', 42, '', 'READ']) {
      rejectedBeforeDriver(nv, () => nv.createFromVertexBuffer(context, vb, { access: access as never }));
      rejectedBeforeDriver(nv, () => nv.createFromSurface(context, surface, { access: access as never }));
    }
    rejectedBeforeDriver(nv, () => nv.createFromSurface(context, 0n));
    rejectedBeforeDriver(nv, () => nv.createFromSurface({} as Context, surface));
  });

  it('cl_nv_d3d9_sharing 9.13.6: acquire twice, release unacquired, use unacquired: the NV error names', async () => {
    const { surface } = ref.d3d9CreateSurface(device, D3DFMT.D3DFMT_A8R8G8B8, 8, 4);
    keep(surface);
    const image = nv.createFromSurface(context, surface);
    const host = new Uint8Array(8 * 4 * 4);
    clError(() => queue.readImage(image, host, { blocking: true }), 'CL_D3D9_RESOURCE_NOT_ACQUIRED_NV', 'clEnqueueReadImage');
    clError(() => queue.enqueueReleaseShared([image]), 'CL_D3D9_RESOURCE_NOT_ACQUIRED_NV', 'clEnqueueReleaseD3D9ObjectsNV');
    const scope = queue.acquire([image]);
    expect(image.acquired).toBe(true);
    const again = clError(() => queue.acquire([image]), 'CL_D3D9_RESOURCE_ALREADY_ACQUIRED_NV', 'clEnqueueAcquireD3D9ObjectsNV');
    expect(again.status).toBe(-1012);
    // Still acquired: release() of the wrapper refuses and leaves it alive.
    expect(() => image.release()).toThrow(OpenCLStateError);
    expect(image.released).toBe(false);
    const event = scope.release();
    expect(() => scope.release()).toThrow(OpenCLStateError);
    await done(event);
    scope.event.release();
    expect(image.acquired).toBe(false);
    clError(() => queue.readImage(image, host, { blocking: true }), 'CL_D3D9_RESOURCE_NOT_ACQUIRED_NV');
    image.release();
  });

  it('cl_nv_d3d9_sharing 9.13.6 / 5.7: a kernel on an unacquired object fails with CL_D3D9_RESOURCE_NOT_ACQUIRED_NV', () => {
    const { surface } = ref.d3d9CreateSurface(device, D3DFMT.D3DFMT_A8R8G8B8, 4, 4);
    keep(surface);
    const image = nv.createFromSurface(context, surface);
    const plain = context.createImage({ format: { order: 'RGBA', type: 'UNORM_INT8' }, width: 4, height: 4 });
    const program = context.createProgramWithBuiltInKernels(['invert_image']);
    const kernel = program.createKernel('invert_image').setArgs(image, plain);
    clError(() => queue.enqueueKernel(kernel, [4, 4]), 'CL_D3D9_RESOURCE_NOT_ACQUIRED_NV', 'clEnqueueNDRangeKernel');
    kernel.release();
    program.release();
    plain.release();
    image.release();
  });

  it('cl_nv_d3d9_sharing 5.7 (table 5.22): acquire/release events are CL_COMMAND_{ACQUIRE,RELEASE}_D3D9_OBJECTS_NV', async () => {
    const vb = keep(ref.d3d9CreateVertexBuffer(device, 32));
    const buf = nv.createFromVertexBuffer(context, vb);
    const acquire = queue.enqueueAcquireShared([buf]);
    expect(acquire.commandType).toBe(0x402a);
    expect(acquire.commandTypeName).toBe('CL_COMMAND_ACQUIRE_D3D9_OBJECTS_NV');
    const release = queue.enqueueReleaseShared([buf], { waitFor: [acquire] });
    expect(release.commandType).toBe(0x402b);
    expect(release.commandTypeName).toBe('CL_COMMAND_RELEASE_D3D9_OBJECTS_NV');
    await done(release);
    acquire.release();
    buf.release();
  });

  it('cl_nv_d3d9_sharing 9.13.6: withAcquired releases when fn throws and when it rejects', async () => {
    const { surface } = ref.d3d9CreateSurface(device, D3DFMT.D3DFMT_A8R8G8B8, 4, 4);
    keep(surface);
    const image = nv.createFromSurface(context, surface);
    await expect(
      queue.withAcquired([image], () => {
        expect(image.acquired).toBe(true);
        throw new Error('sync failure');
      }),
    ).rejects.toThrow('sync failure');
    expect(image.acquired).toBe(false);
    await expect(
      queue.withAcquired([image], async (scope) => {
        expect(scope.event.commandTypeName).toBe('CL_COMMAND_ACQUIRE_D3D9_OBJECTS_NV');
        await Promise.resolve();
        throw new Error('async failure');
      }),
    ).rejects.toThrow('async failure');
    expect(image.acquired).toBe(false);
    // Nothing is left acquired in the driver either: a fresh acquire succeeds.
    expect(await queue.withAcquired([image], () => 7)).toBe(7);
    image.release();
  });

  it('cl_nv_d3d9_sharing 9.13.6: several NV objects (buffer, texture, surface) acquired in one call', async () => {
    const vb = keep(ref.d3d9CreateVertexBuffer(device, 16));
    const tex = keep(ref.d3d9CreateTexture(device, D3DFMT.D3DFMT_A8, 8, 8, 1));
    const { surface } = ref.d3d9CreateSurface(device, D3DFMT.D3DFMT_L8, 8, 8);
    keep(surface);
    const objs: MemObject[] = [nv.createFromVertexBuffer(context, vb), nv.createFromTexture(context, tex, 0), nv.createFromSurface(context, surface)];
    const scope = queue.acquire(objs);
    expect(scope.event.commandTypeName).toBe('CL_COMMAND_ACQUIRE_D3D9_OBJECTS_NV');
    expect(objs.every((o) => o.acquired)).toBe(true);
    // One object twice in one list is refused before anything is enqueued.
    expect(() => queue.acquire([objs[0]!, objs[0]!])).toThrow(TypeError);
    await done(scope.release());
    scope.event.release();
    expect(objs.some((o) => o.acquired)).toBe(false);
    for (const o of objs) o.release();
  });

  it('cl_nv_d3d9_sharing 9.13.4: zero-copy both ways: D3D9 bytes seen by readImage, kernel writes seen by D3D9', async () => {
    // 10 px * 4 B = 40 B rows in a 64 B-pitched surface: pitch handling matters.
    const src = ref.d3d9CreateSurface(device, D3DFMT.D3DFMT_A8R8G8B8, 10, 3).surface;
    const dst = ref.d3d9CreateSurface(device, D3DFMT.D3DFMT_A8R8G8B8, 10, 3).surface;
    keep(src);
    keep(dst);
    expect(ref.layout(src).rowPitch).toBeGreaterThan(40);
    const pixels = bytes(10 * 3 * 4, (i) => i * 7 + 3);
    ref.write(src, 0, 0, pixels);
    ref.write(dst, 0, 0, new Uint8Array(120));
    const a = nv.createFromSurface(context, src, { access: 'read' });
    const b = nv.createFromSurface(context, dst, { access: 'write' });
    const program = context.createProgramWithBuiltInKernels(['invert_image']);
    const kernel = program.createKernel('invert_image').setArgs(a, b);
    const seen = new Uint8Array(120);
    await queue.withAcquired([a, b], async () => {
      await done(queue.readImage(a, seen));
      await done(queue.enqueueKernel(kernel, [10, 3]));
    });
    expect(seen).toEqual(pixels);
    expect(ref.read(dst, 0, 0)).toEqual(pixels.map((v) => 255 - v));
    expect(ref.read(src, 0, 0)).toEqual(pixels);
    kernel.release();
    program.release();
    a.release();
    b.release();
  });

  it('cl_nv_d3d9_sharing 9.13.2: each cl_mem holds one reference to its resource until it is released', () => {
    const tex = keep(ref.d3d9CreateTexture(device, D3DFMT.D3DFMT_A8R8G8B8, 8, 8, 2));
    const start = ref.refcount(tex);
    const l0 = nv.createFromTexture(context, tex, 0);
    expect(ref.refcount(tex)).toBe(start + 1);
    const l1 = nv.createFromTexture(context, tex, 1);
    expect(ref.refcount(tex)).toBe(start + 2);
    l0.release();
    ref.waitIdle();
    expect(ref.refcount(tex)).toBe(start + 1);
    // Once released, asking again makes a new object (the driver accepts it again).
    const again = nv.createFromTexture(context, tex, 0);
    expect(again).not.toBe(l0);
    expect(again.released).toBe(false);
    again.release();
    l1.release();
    ref.waitIdle();
    expect(ref.refcount(tex)).toBe(start);
    // 9.13.2: the context holds a reference to the Direct3D device.
    const dev = keep(ref.d3d9CreateDevice('d3d9'));
    const before = ref.refcount(dev);
    const ctx = nv.createContext(dev);
    expect(ref.refcount(dev)).toBe(before + 1);
    ctx.release();
    ref.waitIdle();
    expect(ref.refcount(dev)).toBe(before);
  });

  it('cl_nv_d3d9_sharing 9.13.2: with everything released, the driver is back to its starting object counts', () => {
    queue.release();
    context.release();
    expect(live()).toEqual(baseline);
  });
});

// --------------------------------------------------------------- D3D10 ----
