// cl_intel_dx9_media_sharing through the public TypeScript API, on the reference driver (test/driver).
// Test names cite the spec section they check (shared/specs/; the D3D10 and
// KHR DX9 media sections are those of the OpenCL 1.2 extension spec, 9.9 and
// 9.10, as the driver's own ctests name them).
import { describe, expect, it } from 'vitest';
import {
  CL,
  CL_COMMAND_ACQUIRE_D3D9_OBJECTS_NV,
  CL_COMMAND_ACQUIRE_DX9_OBJECTS_INTEL,
  type CommandQueue,
  type Context,
  D3DFMT,
  OpenCLStateError,
  predictSharedImage,
} from '../lib';
import { ref, platform, refDevice, clError, rejectedBeforeDriver, live, done, sharedResources } from './helpers/ref-driver';

describe('cl_intel_dx9_media_sharing', () => {
  const intel = platform.getSharing('cl_intel_dx9_media_sharing');
  let baseline: ReturnType<typeof live>;
  let device: bigint;
  let context: Context;
  let queue: CommandQueue;
  const keep = sharedResources(
    () => {
      baseline = live();
      device = keep(ref.d3d9CreateDevice('d3d9ex'));
      context = intel.createContext({ d3d9ExDevice: device });
      queue = context.createQueue();
    },
    () => [queue, context],
  );
  const surface = (fmt: number, w: number, h: number, shared = false) => {
    const s = ref.d3d9CreateSurface(device, fmt, w, h, { shared });
    keep(s.surface);
    return s as { surface: bigint; sharedHandle: bigint };
  };

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
      for (const [image, plane] of [
        [y, 0],
        [uv, 1],
      ] as const) {
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
    expect(planes.map((i) => [i.format.order, i.width, i.height])).toEqual([
      ['R', 8, 4],
      ['R', 4, 2],
      ['R', 4, 2],
    ]);
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
    expect(predictSharedImage({ extension: 'cl_intel_dx9_media_sharing', d3dFormat: D3DFMT.D3DFMT_A8R8G8B8, width: 6, height: 2 }).format.order).toBe(
      'BGRA',
    );
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
    for (const [access, flag] of [
      ['read', CL.CL_MEM_READ_ONLY],
      ['write', CL.CL_MEM_WRITE_ONLY],
      ['read-write', CL.CL_MEM_READ_WRITE],
    ] as const) {
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
    await expect(
      queue.withAcquired([y], () => {
        throw new Error('x');
      }),
    ).rejects.toThrow('x');
    await expect(
      queue.withAcquired([y], async () => {
        throw new Error('y');
      }),
    ).rejects.toThrow('y');
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
