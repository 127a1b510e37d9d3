// The four Direct3D sharing extensions through the public TypeScript API, on
// the reference driver (test/driver): cl_nv_d3d9_sharing,
// cl_khr_d3d10_sharing, cl_intel_dx9_media_sharing, cl_khr_dx9_media_sharing.
// Test names cite the spec section they check (shared/specs/; the D3D10 and
// KHR DX9 media sections are those of the OpenCL 1.2 extension spec, 9.9 and
// 9.10, as the driver's own ctests name them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CL,
  CLBuffer,
  CLImage,
  CL_COMMAND_ACQUIRE_D3D9_OBJECTS_NV,
  CL_COMMAND_ACQUIRE_DX9_OBJECTS_INTEL,
  CL_CONTEXT_D3D10_DEVICE_KHR,
  CL_CONTEXT_D3D9_DEVICE_NV,
  type CommandQueue,
  type Context,
  D3DFMT,
  DXGI_FORMAT,
  type Device,
  type MemObject,
  OpenCLError,
  OpenCLExtensionError,
  OpenCLStateError,
  type Platform,
  type SharingExtension,
  getPlatforms,
  getSharing,
  predictSharedImage,
} from '../lib';
import { openReferenceDriver } from './driver/control.mjs';
import { pocl } from './helpers';

const REF_NAME = 'opencl-interop reference driver';
const ref = openReferenceDriver();

function refPlatform(): Platform {
  const platform = getPlatforms().find((p) => p.name === REF_NAME);
  if (!platform) throw new Error(`${REF_NAME} is not among the platforms: run npm run build:driver`);
  return platform;
}
const platform = refPlatform();
const refDevice: Device = platform.getDevices()[0]!;

/** Runs fn and returns the OpenCLError it throws, checking its spec name. */
function clError(fn: () => unknown, code: string, call?: string): OpenCLError {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught, `expected ${code}`).toBeInstanceOf(OpenCLError);
  const error = caught as OpenCLError;
  expect(error.code).toBe(code);
  if (call) expect(error.call).toBe(call);
  return error;
}

/**
 * fn throws `type` and the facade never calls the driver: its native object is
 * swapped for a proxy that records every method call while fn runs.
 */
function rejectedBeforeDriver(facade: object, fn: () => unknown, type: new (...args: never[]) => Error = TypeError): void {
  const holder = facade as { native: object };
  const original = holder.native;
  const calls: string[] = [];
  holder.native = new Proxy(original, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(key));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  try {
    expect(fn).toThrow(type);
  } finally {
    holder.native = original;
  }
  expect(calls).toEqual([]);
}

/** Live driver objects, to check each describe leaves none behind. */
function live(): { mem: number; context: number; queue: number; event: number } {
  ref.waitIdle();
  return {
    mem: ref.liveObjects('mem'),
    context: ref.liveObjects('context'),
    queue: ref.liveObjects('command_queue'),
    event: ref.liveObjects('event'),
  };
}

/** Waits for an event, then releases it. */
async function done(event: { completed: Promise<void>; release(): void }): Promise<void> {
  await event.completed;
  event.release();
}

const bytes = (n: number, f: (i: number) => number) => Uint8Array.from({ length: n }, (_, i) => f(i) & 0xff);

// ------------------------------------------------------------------ NV ----

describe('cl_nv_d3d9_sharing', () => {
  const nv = platform.getSharing('cl_nv_d3d9_sharing');
  let baseline: ReturnType<typeof live>;
  let device: bigint;
  let context: Context;
  let queue: CommandQueue;
  const resources: bigint[] = [];
  const keep = <T extends bigint>(r: T): T => (resources.push(r), r);

  beforeAll(() => {
    baseline = live();
    device = keep(ref.d3d9CreateDevice('d3d9'));
    context = nv.createContext(device);
    queue = context.createQueue();
  });
  afterAll(() => {
    queue.release(); // no-ops when the last test released them
    context.release();
    for (const r of resources.reverse()) ref.release(r);
  });

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

describe('cl_khr_d3d10_sharing', () => {
  const d3d10 = platform.getSharing('cl_khr_d3d10_sharing');
  let baseline: ReturnType<typeof live>;
  let device: bigint;
  let context: Context;
  let queue: CommandQueue;
  const resources: bigint[] = [];
  const keep = <T extends bigint>(r: T): T => (resources.push(r), r);

  beforeAll(() => {
    baseline = live();
    device = keep(ref.d3d10CreateDevice());
    context = d3d10.createContext(device);
    queue = context.createQueue();
  });
  afterAll(() => {
    queue.release();
    context.release();
    for (const r of resources.reverse()) ref.release(r);
  });

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
    const tex = keep(ref.d3d10CreateTexture2D(device, { width: 32, height: 16, mipLevels: 3, arraySize: 2, format: DXGI_FORMAT.DXGI_FORMAT_R8G8B8A8_UNORM }));
    const made = new Map<number, CLImage>();
    for (let slice = 0; slice < 2; slice++) {
      for (let mip = 0; mip < 3; mip++) {
        const sub = mip + slice * 3;
        const image = d3d10.createFromTexture2D(context, tex, sub, { access: 'read' });
        made.set(sub, image);
        expect(image.type).toBe(CL.CL_MEM_OBJECT_IMAGE2D);
        expect([image.width, image.height]).toEqual([32 >> mip, 16 >> mip]);
        expect(image.format).toMatchObject({ order: 'RGBA', type: 'UNORM_INT8' });
        const p = predictSharedImage({ extension: 'cl_khr_d3d10_sharing', dxgiFormat: DXGI_FORMAT.DXGI_FORMAT_R8G8B8A8_UNORM, width: 32, height: 16, subresource: sub, mipLevels: 3 });
        expect([p.format.order, p.format.type, p.width, p.height, p.depth]).toEqual([image.format.order, image.format.type, image.width, image.height, image.depth]);
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
    const p = predictSharedImage({ extension: 'cl_khr_d3d10_sharing', dxgiFormat: DXGI_FORMAT.DXGI_FORMAT_R32_FLOAT, width: 16, height: 8, depth: 4, subresource: 1, mipLevels: 2 });
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
    await expect(queue.withAcquired([buf], () => { throw new RangeError('thrown'); })).rejects.toThrow(RangeError);
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
    const tex = keep(ref.d3d10CreateTexture2D(device, { width: 8, height: 4, mipLevels: 2, arraySize: 2, format: DXGI_FORMAT.DXGI_FORMAT_R8G8B8A8_UNORM }));
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

describe('cl_intel_dx9_media_sharing', () => {
  const intel = platform.getSharing('cl_intel_dx9_media_sharing');
  let baseline: ReturnType<typeof live>;
  let device: bigint;
  let context: Context;
  let queue: CommandQueue;
  const resources: bigint[] = [];
  const keep = <T extends bigint>(r: T): T => (resources.push(r), r);
  const surface = (fmt: number, w: number, h: number, shared = false) => {
    const s = ref.d3d9CreateSurface(device, fmt, w, h, { shared });
    keep(s.surface);
    return s as { surface: bigint; sharedHandle: bigint };
  };

  beforeAll(() => {
    baseline = live();
    device = keep(ref.d3d9CreateDevice('d3d9ex'));
    context = intel.createContext({ d3d9ExDevice: device });
    queue = context.createQueue();
  });
  afterAll(() => {
    queue.release();
    context.release();
    for (const r of resources.reverse()) ref.release(r);
  });

  it('resolves all 4 entry points', () => {
    expect(intel.entryPoints).toEqual([
      'clGetDeviceIDsFromDX9INTEL',
      'clCreateFromDX9MediaSurfaceINTEL',
      'clEnqueueAcquireDX9ObjectsINTEL',
      'clEnqueueReleaseDX9ObjectsINTEL',
    ]);
  });

  it('cl_intel_dx9_media_sharing 9.13.1: devices for a D3D9, D3D9Ex or DXVA device; none gives []', () => {
    const d9 = keep(ref.d3d9CreateDevice('d3d9'));
    const dxva = keep(ref.d3d9CreateDevice('dxva'));
    for (const set of ['preferred', 'all'] as const) {
      expect(intel.getDevices({ d3d9Device: d9 }, set)).toEqual([refDevice]);
      expect(intel.getDevices({ d3d9ExDevice: device }, set)).toEqual([refDevice]);
      expect(intel.getDevices({ dxvaDevice: dxva }, set)).toEqual([refDevice]);
    }
    const noCl = keep(ref.d3d9CreateAdapter('Intel adapter without CL', false));
    for (const kind of ['d3d9', 'd3d9ex', 'dxva'] as const) {
      const dev = keep(ref.d3d9CreateDevice(kind, noCl));
      const source = kind === 'd3d9' ? { d3d9Device: dev } : kind === 'd3d9ex' ? { d3d9ExDevice: dev } : { dxvaDevice: dev };
      expect(intel.getDevices(source)).toEqual([]);
      expect(intel.getDevices(source, 'all')).toEqual([]);
    }
  });

  it('cl_intel_dx9_media_sharing 9.13.1: bad arguments are TypeErrors before the driver', () => {
    rejectedBeforeDriver(intel, () => intel.getDevices({} as never));
    rejectedBeforeDriver(intel, () => intel.getDevices({ device } as never));
    rejectedBeforeDriver(intel, () => intel.getDevices({ d3d9Device: 0n }));
    rejectedBeforeDriver(intel, () => intel.getDevices({ dxvaDevice: 'x' as unknown as bigint }));
    rejectedBeforeDriver(intel, () => intel.getDevices({ d3d9ExDevice: device }, 'first' as never));
  });

  it('cl_intel_dx9_media_sharing 4.3: createContext with each of the D3D9 / D3D9Ex / DXVA properties', () => {
    expect(context.interop).toEqual({ extension: 'cl_intel_dx9_media_sharing', property: 0x4072, handle: device });
    expect(context.sharing).toBe(intel);
    const d9 = keep(ref.d3d9CreateDevice('d3d9'));
    const dxva = keep(ref.d3d9CreateDevice('dxva'));
    const made = [
      [intel.createContext({ d3d9Device: d9 }, { interopUserSync: true }), 0x4026, d9, true],
      [intel.createContext({ dxvaDevice: dxva }, { interopUserSync: false }), 0x4073, dxva, false],
    ] as const;
    for (const [ctx, property, handle, sync] of made) {
      expect(ctx.interop).toEqual({ extension: 'cl_intel_dx9_media_sharing', property, handle });
      expect(ctx.properties).toContainEqual([property, handle]);
      expect(ctx.interopUserSync).toBe(sync);
      expect(ctx.sharing).toBe(intel);
      ctx.release();
    }
  });

  it('cl_intel_dx9_media_sharing 4.3: a device with no OpenCL device gives typed errors', () => {
    const noCl = keep(ref.d3d9CreateAdapter('Intel adapter without CL (ctx)', false));
    const dev = keep(ref.d3d9CreateDevice('dxva', noCl));
    clError(() => intel.createContext({ dxvaDevice: dev }), 'CL_DEVICE_NOT_FOUND', 'clCreateContext');
    clError(() => intel.createContext({ dxvaDevice: dev }, { devices: [refDevice] }), 'CL_INVALID_DX9_DEVICE_INTEL', 'clCreateContext');
  });

  it('cl_intel_dx9_media_sharing 9.13.4: NV12 planes 0 (R, W x H) and 1 (RG, W/2 x H/2), with and without a shared handle', () => {
    const plain = surface(D3DFMT.NV12, 16, 8);
    const shared = surface(D3DFMT.NV12, 16, 8, true);
    expect(plain.sharedHandle).toBe(0n);
    expect(shared.sharedHandle).not.toBe(0n);
    for (const { surface: s, sharedHandle } of [plain, shared]) {
      const y = intel.createFromSurface(context, s, 0, { sharedHandle, access: 'read' });
      const uv = intel.createFromSurface(context, s, 1, { sharedHandle, access: 'read' });
      expect(y.format).toMatchObject({ order: 'R', type: 'UNORM_INT8' });
      expect([y.width, y.height]).toEqual([16, 8]);
      expect(uv.format).toMatchObject({ order: 'RG', type: 'UNORM_INT8' });
      expect([uv.width, uv.height]).toEqual([8, 4]);
      for (const [image, plane] of [[y, 0], [uv, 1]] as const) {
        const p = predictSharedImage({ extension: 'cl_intel_dx9_media_sharing', d3dFormat: D3DFMT.NV12, width: 16, height: 8, plane });
        expect([p.format.order, p.format.type, p.width, p.height]).toEqual([image.format.order, image.format.type, image.width, image.height]);
        expect(intel.imageInfo(image)).toEqual({ resource: s, sharedHandle, plane });
      }
      expect(intel.createFromSurface(context, s, 1)).toBe(uv);
      y.release();
      uv.release();
    }
    clError(() => intel.createFromSurface(context, plain.surface, 2), 'CL_INVALID_VALUE', 'clCreateFromDX9MediaSurfaceINTEL');
  });

  it('cl_intel_dx9_media_sharing 9.13.4: YV12 planes 0 Y, 1 V, 2 U (memory order), each CL_R', () => {
    const { surface: s, sharedHandle } = surface(D3DFMT.YV12, 8, 4, true);
    const planes = [0, 1, 2].map((p) => intel.createFromSurface(context, s, p, { sharedHandle }));
    expect(planes.map((i) => [i.format.order, i.width, i.height])).toEqual([['R', 8, 4], ['R', 4, 2], ['R', 4, 2]]);
    expect(planes.map((i) => intel.imageInfo(i).plane)).toEqual([0, 1, 2]);
    // Intel: plane 1 is V, which YV12 stores first after Y (memory plane 1).
    ref.write(s, 0, 1, new Uint8Array(8).fill(0x56)); // V
    ref.write(s, 0, 2, new Uint8Array(8).fill(0x55)); // U
    return queue
      .withAcquired(planes, async () => {
        const v = new Uint8Array(8);
        const u = new Uint8Array(8);
        await done(queue.readImage(planes[1]!, v));
        await done(queue.readImage(planes[2]!, u));
        expect(v).toEqual(new Uint8Array(8).fill(0x56));
        expect(u).toEqual(new Uint8Array(8).fill(0x55));
      })
      .then(() => {
        for (const p of planes) p.release();
      });
  });

  it('cl_intel_dx9_media_sharing 9.13.4 (table 9.13.4.1): A8R8G8B8 -> CL_BGRA, A8 -> CL_A; the shared handle is recorded as given', () => {
    const argb = surface(D3DFMT.D3DFMT_A8R8G8B8, 6, 2);
    const a8 = surface(D3DFMT.D3DFMT_A8, 6, 2);
    const i1 = intel.createFromSurface(context, argb.surface, 0);
    const i2 = intel.createFromSurface(context, a8.surface, 0, { sharedHandle: 0x1234n });
    expect(i1.format).toMatchObject({ order: 'BGRA', type: 'UNORM_INT8' });
    expect(i2.format).toMatchObject({ order: 'A', type: 'UNORM_INT8' });
    expect(predictSharedImage({ extension: 'cl_intel_dx9_media_sharing', d3dFormat: D3DFMT.D3DFMT_A8R8G8B8, width: 6, height: 2 }).format.order).toBe('BGRA');
    expect(predictSharedImage({ extension: 'cl_intel_dx9_media_sharing', d3dFormat: D3DFMT.D3DFMT_A8, width: 6, height: 2 }).format.order).toBe('A');
    expect(intel.imageInfo(i2)).toEqual({ resource: a8.surface, sharedHandle: 0x1234n, plane: 0 });
    clError(() => intel.createFromSurface(context, argb.surface, 1), 'CL_INVALID_VALUE');
    i1.release();
    i2.release();
  });

  it('cl_intel_dx9_media_sharing 9.13.4: bad access, plane or shared handle are rejected before the driver', () => {
    const { surface: s } = surface(D3DFMT.NV12, 4, 4);
    for (const access of ['rw', 42, 'Read']) {
      rejectedBeforeDriver(intel, () => intel.createFromSurface(context, s, 0, { access: access as never }));
    }
    rejectedBeforeDriver(intel, () => intel.createFromSurface(context, s, 0, { sharedHandle: 5 as unknown as bigint }));
    rejectedBeforeDriver(intel, () => intel.createFromSurface(context, s, -1), RangeError);
    rejectedBeforeDriver(intel, () => intel.createFromSurface(context, 0n, 0));
    for (const [access, flag] of [['read', CL.CL_MEM_READ_ONLY], ['write', CL.CL_MEM_WRITE_ONLY], ['read-write', CL.CL_MEM_READ_WRITE]] as const) {
      const image = intel.createFromSurface(context, s, 0, { access });
      expect(image.flags).toBe(BigInt(flag));
      image.release();
      ref.waitIdle();
    }
  });

  it('cl_intel_dx9_media_sharing 9.13.6: acquire/release misuse gives the Intel error names; events named by Intel', async () => {
    const { surface: s } = surface(D3DFMT.NV12, 8, 4);
    const y = intel.createFromSurface(context, s, 0);
    clError(() => queue.readImage(y, new Uint8Array(32)), 'CL_DX9_RESOURCE_NOT_ACQUIRED_INTEL', 'clEnqueueReadImage');
    clError(() => queue.enqueueReleaseShared([y]), 'CL_DX9_RESOURCE_NOT_ACQUIRED_INTEL', 'clEnqueueReleaseDX9ObjectsINTEL');
    const scope = queue.acquire([y]);
    // Same value as NV's acquire, named by its own extension.
    expect(scope.event.commandType).toBe(CL_COMMAND_ACQUIRE_DX9_OBJECTS_INTEL);
    expect(CL_COMMAND_ACQUIRE_DX9_OBJECTS_INTEL).toBe(CL_COMMAND_ACQUIRE_D3D9_OBJECTS_NV);
    expect(scope.event.commandTypeName).toBe('CL_COMMAND_ACQUIRE_DX9_OBJECTS_INTEL');
    const twice = clError(() => queue.acquire([y]), 'CL_DX9_RESOURCE_ALREADY_ACQUIRED_INTEL', 'clEnqueueAcquireDX9ObjectsINTEL');
    expect(twice.status).toBe(-1012);
    expect(() => y.release()).toThrow(OpenCLStateError);
    expect(y.released).toBe(false);
    const release = scope.release();
    expect(release.commandType).toBe(0x402b);
    expect(release.commandTypeName).toBe('CL_COMMAND_RELEASE_DX9_OBJECTS_INTEL');
    await done(release);
    scope.event.release();
    await expect(queue.withAcquired([y], () => { throw new Error('x'); })).rejects.toThrow('x');
    await expect(queue.withAcquired([y], async () => { throw new Error('y'); })).rejects.toThrow('y');
    expect(y.acquired).toBe(false);
    y.release();
  });

  it('cl_intel_dx9_media_sharing 9.13.4: zero-copy nv12_to_rgba reads both planes written through D3D9, invert writes back', async () => {
    const { surface: s } = surface(D3DFMT.NV12, 4, 2);
    ref.write(s, 0, 0, new Uint8Array(8).fill(126)); // Y
    ref.write(s, 0, 1, Uint8Array.of(128, 128, 128, 128)); // UV: grey
    const y = intel.createFromSurface(context, s, 0);
    const uv = intel.createFromSurface(context, s, 1, { access: 'read' });
    const rgba = context.createImage({ format: { order: 'RGBA', type: 'UNORM_INT8' }, width: 4, height: 2 });
    const program = context.createProgramWithBuiltInKernels(['nv12_to_rgba', 'invert_image']);
    const convert = program.createKernel('nv12_to_rgba').setArgs(y, uv, rgba);
    const invert = program.createKernel('invert_image').setArgs(y, y);
    await queue.withAcquired([y, uv], async () => {
      await done(queue.enqueueKernel(convert, [4, 2]));
      await done(queue.enqueueKernel(invert, [4, 2]));
    });
    const out = new Uint8Array(32);
    await done(queue.readImage(rgba, out));
    // C = 110: (298 * 110 + 128) >> 8 = 128
    expect([...out.slice(0, 4)]).toEqual([128, 128, 128, 255]);
    expect(ref.read(s, 0, 0)).toEqual(new Uint8Array(8).fill(255 - 126));
    for (const o of [convert, invert, program, rgba, y, uv]) o.release();
  });

  it('cl_intel_dx9_media_sharing 9.13.2: each plane cl_mem holds a reference to the surface', () => {
    const { surface: s } = surface(D3DFMT.NV12, 4, 4);
    const start = ref.refcount(s);
    const y = intel.createFromSurface(context, s, 0);
    const uv = intel.createFromSurface(context, s, 1);
    expect(ref.refcount(s)).toBe(start + 2);
    y.release();
    uv.release();
    ref.waitIdle();
    expect(ref.refcount(s)).toBe(start);
  });

  it('cl_nv_d3d9_sharing + cl_intel_dx9_media_sharing: one CL_CONTEXT_D3D9_DEVICE_NV (= _INTEL) context hosts both; one acquire call covers both', async () => {
    const nv = platform.getSharing('cl_nv_d3d9_sharing');
    const d9 = keep(ref.d3d9CreateDevice('d3d9'));
    const ctx = nv.createContext(d9);
    const q = ctx.createQueue();
    const tex = keep(ref.d3d9CreateTexture(d9, D3DFMT.D3DFMT_A8R8G8B8, 4, 4, 1));
    const nvImage = nv.createFromTexture(ctx, tex, 0);
    const media = ref.d3d9CreateSurface(d9, D3DFMT.NV12, 4, 4).surface;
    keep(media);
    const intelImage = intel.createFromSurface(ctx, media, 0);
    expect(nvImage.sharedWith).toBe('cl_nv_d3d9_sharing');
    expect(intelImage.sharedWith).toBe('cl_intel_dx9_media_sharing');
    // Each facade decodes only its own objects.
    expect(() => intel.imageInfo(nvImage)).toThrow(TypeError);
    expect(() => nv.objectInfo(intelImage)).toThrow(TypeError);
    const scope = q.acquire([nvImage, intelImage]);
    expect(nvImage.acquired && intelImage.acquired).toBe(true);
    // Two extension commands joined by one marker.
    expect(scope.event.commandTypeName).toBe('CL_COMMAND_MARKER');
    // Misuse is still reported by each object's own extension.
    clError(() => q.acquire([intelImage]), 'CL_DX9_RESOURCE_ALREADY_ACQUIRED_INTEL');
    clError(() => q.acquire([nvImage]), 'CL_D3D9_RESOURCE_ALREADY_ACQUIRED_NV');
    await done(scope.release());
    await done(scope.event);
    expect(nvImage.acquired || intelImage.acquired).toBe(false);
    nvImage.release();
    intelImage.release();
    q.release();
    ctx.release();
  });

  it('cl_intel_dx9_media_sharing 9.13.2: with everything released, the driver is back to its starting object counts', () => {
    queue.release();
    context.release();
    expect(live()).toEqual(baseline);
  });
});

// ------------------------------------------------------- KHR DX9 media ----

describe('cl_khr_dx9_media_sharing', () => {
  const khr = platform.getSharing('cl_khr_dx9_media_sharing');
  let baseline: ReturnType<typeof live>;
  let d9: bigint;
  let dxva: bigint;
  let context: Context;
  let queue: CommandQueue;
  const resources: bigint[] = [];
  const keep = <T extends bigint>(r: T): T => (resources.push(r), r);

  beforeAll(() => {
    baseline = live();
    d9 = keep(ref.d3d9CreateDevice('d3d9'));
    dxva = keep(ref.d3d9CreateDevice('dxva'));
    context = khr.createContext({ type: 'd3d9', adapter: d9 });
    queue = context.createQueue();
  });
  afterAll(() => {
    queue.release();
    context.release();
    for (const r of resources.reverse()) ref.release(r);
  });

  it('resolves all 4 entry points', () => {
    expect(khr.entryPoints).toEqual([
      'clGetDeviceIDsFromDX9MediaAdapterKHR',
      'clCreateFromDX9MediaSurfaceKHR',
      'clEnqueueAcquireDX9MediaSurfacesKHR',
      'clEnqueueReleaseDX9MediaSurfacesKHR',
    ]);
  });

  it('cl_khr_dx9_media_sharing 9.10.7.1: devices for an array of media adapters of mixed types; none gives []', () => {
    const ex = keep(ref.d3d9CreateDevice('d3d9ex'));
    const mixed = [
      { type: 'd3d9', adapter: d9 },
      { type: 'dxva', adapter: dxva },
      { type: 'd3d9ex', adapter: ex },
    ] as const;
    expect(khr.getDevices([...mixed])).toEqual([refDevice]);
    expect(khr.getDevices([...mixed], 'all')).toEqual([refDevice]);
    expect(khr.getDevices([{ type: 'dxva', adapter: dxva }])).toEqual([refDevice]);
    const noCl = keep(ref.d3d9CreateAdapter('KHR adapter without CL', false));
    const lonely = keep(ref.d3d9CreateDevice('d3d9ex', noCl));
    expect(khr.getDevices([{ type: 'd3d9ex', adapter: lonely }])).toEqual([]);
    expect(khr.getDevices([{ type: 'd3d9ex', adapter: lonely }], 'all')).toEqual([]);
  });

  it('cl_khr_dx9_media_sharing 9.10.7.1: bad arguments are TypeErrors before the driver', () => {
    rejectedBeforeDriver(khr, () => khr.getDevices([]));
    rejectedBeforeDriver(khr, () => khr.getDevices({ type: 'd3d9', adapter: d9 } as never));
    rejectedBeforeDriver(khr, () => khr.getDevices([{ type: 'd3d10' as never, adapter: d9 }]));
    rejectedBeforeDriver(khr, () => khr.getDevices([{ type: 'd3d9', adapter: d9 }, { type: 'dxva', adapter: 0n }]));
    rejectedBeforeDriver(khr, () => khr.getDevices([null as never]));
    rejectedBeforeDriver(khr, () => khr.getDevices([{ type: 'd3d9', adapter: d9 }], 'both' as never));
  });

  it('cl_khr_dx9_media_sharing 9.10.5: createContext with CL_CONTEXT_ADAPTER_{D3D9,D3D9EX,DXVA}_KHR', () => {
    expect(context.interop).toEqual({ extension: 'cl_khr_dx9_media_sharing', property: 0x2025, handle: d9 });
    expect(context.sharing).toBe(khr);
    expect(context.properties).toContainEqual([0x2025, d9]);
    const ex = keep(ref.d3d9CreateDevice('d3d9ex'));
    for (const [adapter, property, sync] of [[{ type: 'd3d9ex', adapter: ex }, 0x2026, true], [{ type: 'dxva', adapter: dxva }, 0x2027, false]] as const) {
      const ctx = khr.createContext(adapter, { interopUserSync: sync });
      expect(ctx.interop).toEqual({ extension: 'cl_khr_dx9_media_sharing', property, handle: adapter.adapter });
      expect(ctx.interopUserSync).toBe(sync);
      expect(ctx.sharing).toBe(khr);
      ctx.release();
    }
    expect(() => khr.createContext({ type: 'dx11' as never, adapter: d9 })).toThrow(TypeError);
  });

  it('cl_khr_dx9_media_sharing 9.10.5: an adapter with no OpenCL device gives typed errors', () => {
    const noCl = keep(ref.d3d9CreateAdapter('KHR adapter without CL (ctx)', false));
    const lonely = keep(ref.d3d9CreateDevice('d3d9', noCl));
    clError(() => khr.createContext({ type: 'd3d9', adapter: lonely }), 'CL_DEVICE_NOT_FOUND', 'clCreateContext');
    clError(() => khr.createContext({ type: 'd3d9', adapter: lonely }, { devices: [refDevice] }), 'CL_INVALID_DX9_MEDIA_ADAPTER_KHR', 'clCreateContext');
  });

  it('cl_khr_dx9_media_sharing 9.10.7.2 (table 9.10.3): NV12 planes; adapter type, surface info and plane read back', () => {
    const { surface, sharedHandle } = ref.d3d9CreateSurface(d9, D3DFMT.NV12, 16, 8, { shared: true });
    keep(surface);
    expect(sharedHandle).not.toBe(0n);
    const y = khr.createFromSurface(context, 'd3d9', surface, 0, { sharedHandle, access: 'read' });
    const uv = khr.createFromSurface(context, 'd3d9', surface, 1, { access: 'write' });
    expect(y.format).toMatchObject({ order: 'R', type: 'UNORM_INT8' });
    expect(uv.format).toMatchObject({ order: 'RG', type: 'UNORM_INT8' });
    expect([y.width, y.height, uv.width, uv.height]).toEqual([16, 8, 8, 4]);
    for (const [image, plane] of [[y, 0], [uv, 1]] as const) {
      const p = predictSharedImage({ extension: 'cl_khr_dx9_media_sharing', d3dFormat: D3DFMT.NV12, width: 16, height: 8, plane });
      expect([p.format.order, p.width, p.height]).toEqual([image.format.order, image.width, image.height]);
    }
    expect(y.flags).toBe(BigInt(CL.CL_MEM_READ_ONLY));
    expect(uv.flags).toBe(BigInt(CL.CL_MEM_WRITE_ONLY));
    expect(khr.imageInfo(y)).toEqual({ adapterType: 'd3d9', surfaceInfo: { resource: surface, sharedHandle }, plane: 0 });
    expect(khr.imageInfo(uv)).toEqual({ adapterType: 'd3d9', surfaceInfo: { resource: surface, sharedHandle: 0n }, plane: 1 });
    expect(khr.createFromSurface(context, 'd3d9', surface, 0)).toBe(y);
    clError(() => khr.createFromSurface(context, 'd3d9', surface, 2), 'CL_INVALID_VALUE', 'clCreateFromDX9MediaSurfaceKHR');
    y.release();
    uv.release();
  });

  it('cl_khr_dx9_media_sharing 9.10.7.2: a shared handle that is not the surface\'s gives CL_INVALID_DX9_MEDIA_SURFACE_KHR', () => {
    const a = ref.d3d9CreateSurface(d9, D3DFMT.NV12, 4, 4, { shared: true });
    const b = ref.d3d9CreateSurface(d9, D3DFMT.NV12, 4, 4, { shared: true });
    keep(a.surface);
    keep(b.surface);
    const error = clError(() => khr.createFromSurface(context, 'd3d9', a.surface, 0, { sharedHandle: b.sharedHandle }), 'CL_INVALID_DX9_MEDIA_SURFACE_KHR', 'clCreateFromDX9MediaSurfaceKHR');
    expect(error.status).toBe(-1011);
  });

  it('cl_khr_dx9_media_sharing 9.10.7.2: YV12 plane 1 is U and plane 2 is V (unlike Intel)', async () => {
    const { surface } = ref.d3d9CreateSurface(d9, D3DFMT.YV12, 8, 4);
    keep(surface);
    const planes = [0, 1, 2].map((p) => khr.createFromSurface(context, 'd3d9', surface, p));
    expect(planes.map((i) => [i.format.order, i.width, i.height])).toEqual([['R', 8, 4], ['R', 4, 2], ['R', 4, 2]]);
    ref.write(surface, 0, 1, new Uint8Array(8).fill(0x56)); // memory plane 1: V
    ref.write(surface, 0, 2, new Uint8Array(8).fill(0x55)); // memory plane 2: U
    const u = new Uint8Array(8);
    const v = new Uint8Array(8);
    await queue.withAcquired(planes, async () => {
      await done(queue.readImage(planes[1]!, u));
      await done(queue.readImage(planes[2]!, v));
    });
    expect(u).toEqual(new Uint8Array(8).fill(0x55));
    expect(v).toEqual(new Uint8Array(8).fill(0x56));
    for (const p of planes) p.release();
  });

  it('cl_khr_dx9_media_sharing 9.10.7.2 (table 9.10.4): A8R8G8B8 -> CL_BGRA, A8 -> CL_A; surfaces of a DXVA device in a DXVA context', () => {
    const dxvaContext = khr.createContext({ type: 'dxva', adapter: dxva });
    const argb = ref.d3d9CreateSurface(dxva, D3DFMT.D3DFMT_A8R8G8B8, 6, 3).surface;
    const a8 = ref.d3d9CreateSurface(dxva, D3DFMT.D3DFMT_A8, 6, 3).surface;
    keep(argb);
    keep(a8);
    const i1 = khr.createFromSurface(dxvaContext, 'dxva', argb, 0);
    const i2 = khr.createFromSurface(dxvaContext, 'dxva', a8, 0);
    expect(i1.format).toMatchObject({ order: 'BGRA', type: 'UNORM_INT8' });
    expect(i2.format).toMatchObject({ order: 'A', type: 'UNORM_INT8' });
    expect(predictSharedImage({ extension: 'cl_khr_dx9_media_sharing', d3dFormat: D3DFMT.D3DFMT_A8R8G8B8, width: 6, height: 3 }).format.order).toBe('BGRA');
    expect(khr.imageInfo(i1)).toEqual({ adapterType: 'dxva', surfaceInfo: { resource: argb, sharedHandle: 0n }, plane: 0 });
    clError(() => khr.createFromSurface(dxvaContext, 'dxva', argb, 1), 'CL_INVALID_VALUE');
    i1.release();
    i2.release();
    dxvaContext.release();
  });

  it('cl_khr_dx9_media_sharing 9.10.7.2: bad adapter type, access, plane, handle are rejected before the driver', () => {
    const { surface } = ref.d3d9CreateSurface(d9, D3DFMT.NV12, 4, 4);
    keep(surface);
    rejectedBeforeDriver(khr, () => khr.createFromSurface(context, 'd3d10' as never, surface, 0));
    rejectedBeforeDriver(khr, () => khr.createFromSurface(context, 'd3d9', surface, 0, { access: 'rw' as never }));
    rejectedBeforeDriver(khr, () => khr.createFromSurface(context, 'd3d9', surface, 0, { access: 42 as never }));
    rejectedBeforeDriver(khr, () => khr.createFromSurface(context, 'd3d9', surface, 0, { sharedHandle: 1 as never }));
    rejectedBeforeDriver(khr, () => khr.createFromSurface(context, 'd3d9', surface, 2 ** 32), RangeError);
    rejectedBeforeDriver(khr, () => khr.createFromSurface(context, 'd3d9', 0n, 0));
  });

  it('cl_khr_dx9_media_sharing 9.10.7.4: acquire/release misuse gives the KHR media error names; events typed', async () => {
    const { surface } = ref.d3d9CreateSurface(d9, D3DFMT.NV12, 4, 4);
    keep(surface);
    const y = khr.createFromSurface(context, 'd3d9', surface, 0);
    clError(() => queue.readImage(y, new Uint8Array(16)), 'CL_DX9_MEDIA_SURFACE_NOT_ACQUIRED_KHR', 'clEnqueueReadImage');
    clError(() => queue.enqueueReleaseShared([y]), 'CL_DX9_MEDIA_SURFACE_NOT_ACQUIRED_KHR', 'clEnqueueReleaseDX9MediaSurfacesKHR');
    const scope = queue.acquire([y]);
    expect(scope.event.commandTypeName).toBe('CL_COMMAND_ACQUIRE_DX9_MEDIA_SURFACES_KHR');
    expect(scope.event.commandType).toBe(0x202b);
    const twice = clError(() => queue.acquire([y]), 'CL_DX9_MEDIA_SURFACE_ALREADY_ACQUIRED_KHR', 'clEnqueueAcquireDX9MediaSurfacesKHR');
    expect(twice.status).toBe(-1012);
    expect(() => y.release()).toThrow(OpenCLStateError);
    expect(y.released).toBe(false);
    const release = scope.release();
    expect(release.commandTypeName).toBe('CL_COMMAND_RELEASE_DX9_MEDIA_SURFACES_KHR');
    expect(release.commandType).toBe(0x202c);
    await done(release);
    scope.event.release();
    await expect(queue.withAcquired([y], () => { throw new Error('a'); })).rejects.toThrow('a');
    await expect(queue.withAcquired([y], async () => { throw new Error('b'); })).rejects.toThrow('b');
    expect(y.acquired).toBe(false);
    y.release();
  });

  it('cl_khr_dx9_media_sharing 9.10.7.2: zero-copy: a kernel inverts a plane in place; D3D9 sees it', async () => {
    const { surface } = ref.d3d9CreateSurface(d9, D3DFMT.NV12, 6, 2);
    keep(surface);
    const luma = bytes(12, (i) => 16 + i * 9);
    ref.write(surface, 0, 0, luma);
    const y = khr.createFromSurface(context, 'd3d9', surface, 0);
    const program = context.createProgramWithBuiltInKernels(['invert_image']);
    const kernel = program.createKernel('invert_image').setArgs(y, y);
    const seen = new Uint8Array(12);
    await queue.withAcquired([y], async () => {
      await done(queue.readImage(y, seen));
      await done(queue.enqueueKernel(kernel, [6, 2]));
    });
    expect(seen).toEqual(luma);
    expect(ref.read(surface, 0, 0)).toEqual(luma.map((v) => 255 - v));
    for (const o of [kernel, program, y]) o.release();
  });

  it('cl_khr_dx9_media_sharing 9.10.7.2: each plane cl_mem holds a reference to the surface', () => {
    const { surface } = ref.d3d9CreateSurface(d9, D3DFMT.YV12, 4, 4);
    keep(surface);
    const start = ref.refcount(surface);
    const planes = [0, 1, 2].map((p) => khr.createFromSurface(context, 'd3d9', surface, p));
    expect(ref.refcount(surface)).toBe(start + 3);
    for (const p of planes) p.release();
    ref.waitIdle();
    expect(ref.refcount(surface)).toBe(start);
  });

  it('cl_khr_dx9_media_sharing: with everything released, the driver is back to its starting object counts', () => {
    queue.release();
    context.release();
    expect(live()).toEqual(baseline);
  });
});

// ------------------------------------------------------------ PoCL ----

describe('the sharing extensions on a platform without them (PoCL)', () => {
  it.each(['cl_nv_d3d9_sharing', 'cl_khr_d3d10_sharing', 'cl_intel_dx9_media_sharing', 'cl_khr_dx9_media_sharing'] as SharingExtension[])(
    'getSharing(pocl, %s) throws OpenCLExtensionError naming the extension and the platform',
    (extension) => {
      const p = pocl();
      let caught: unknown;
      try {
        getSharing(p, extension);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(OpenCLExtensionError);
      const error = caught as OpenCLExtensionError;
      expect(error.extension).toBe(extension);
      expect(error.platform).toBe('Portable Computing Language');
      expect(error.message).toContain(extension);
      expect(error.message).toContain('"Portable Computing Language"');
      expect(() => p.getSharing(extension)).toThrow(OpenCLExtensionError);
      // The reference driver has it: the same call succeeds there.
      expect(getSharing(platform, extension).name).toBe(extension);
    },
  );
});

describe('regions and arguments of shared objects', () => {
  it('a sub-buffer of a shared buffer may be used only while the buffer is acquired (9.9.x: objects must be acquired before use)', async () => {
    const d3d10 = getSharing(platform, 'cl_khr_d3d10_sharing');
    const device = ref.d3d10CreateDevice();
    const resource = ref.d3d10CreateBuffer(device, 256, 0);
    ref.write(resource, 0, 0, Uint8Array.from({ length: 256 }, (_, i) => i));
    const context = d3d10.createContext(device);
    const queue = context.createQueue();
    const buffer = d3d10.createFromBuffer(context, resource);
    const align = refDevice.memBaseAddrAlign / 8;
    const region = buffer.createSubBuffer(align, 16, { access: 'read' });
    expect(region.sharedWith).toBe('cl_khr_d3d10_sharing');
    const out = new Uint8Array(16);
    expect(() => queue.readBuffer(region, out, { blocking: true })).toThrow(
      expect.objectContaining({ code: 'CL_D3D10_RESOURCE_NOT_ACQUIRED_KHR', call: 'clEnqueueReadBuffer' }),
    );
    expect(() => queue.acquire([region])).toThrow(/was not created from a Direct3D or VA-API resource/);
    await queue.withAcquired([buffer], async () => {
      await queue.readBuffer(region, out).completed;
    });
    expect([...out]).toEqual(Array.from({ length: 16 }, (_, i) => (align + i) & 0xff));
    region.release(); // a region is never acquired itself
    buffer.release();
    queue.release();
    context.release();
    ref.release(resource);
    ref.release(device);
  });

  it('access must be one of the three modes: null, numbers and other strings are TypeErrors', () => {
    const va = getSharing(platform, 'cl_intel_va_api_media_sharing');
    const display = ref.vaCreateDisplay(true);
    const surface = ref.vaCreateSurface(display, 8, 8);
    const context = va.createContext(display);
    for (const access of [null, 4, 'Read', 'readwrite']) {
      expect(() => va.createFromSurface(context, surface.id, 0, { access: access as never })).toThrow(TypeError);
    }
    expect(ref.refcount(surface.resource)).toBe(1);
    context.release();
    ref.release(surface.resource);
    ref.release(display);
  });
});
