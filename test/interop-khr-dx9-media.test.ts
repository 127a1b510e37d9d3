// cl_khr_dx9_media_sharing through the public TypeScript API, on the reference driver (test/driver).
// Test names cite the spec section they check (shared/specs/; the D3D10 and
// KHR DX9 media sections are those of the OpenCL 1.2 extension spec, 9.9 and
// 9.10, as the driver's own ctests name them).
import { describe, expect, it } from 'vitest';
import { CL, type CommandQueue, type Context, D3DFMT, OpenCLStateError, predictSharedImage } from '../lib';
import { ref, platform, refDevice, clError, rejectedBeforeDriver, live, done, bytes, sharedResources } from './helpers/ref-driver';

describe('cl_khr_dx9_media_sharing', () => {
  const khr = platform.getSharing('cl_khr_dx9_media_sharing');
  let baseline: ReturnType<typeof live>;
  let d9: bigint;
  let dxva: bigint;
  let context: Context;
  let queue: CommandQueue;
  const keep = sharedResources(
    () => {
      baseline = live();
      d9 = keep(ref.d3d9CreateDevice('d3d9'));
      dxva = keep(ref.d3d9CreateDevice('dxva'));
      context = khr.createContext({ type: 'd3d9', adapter: d9 });
      queue = context.createQueue();
    },
    () => [queue, context],
  );

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

  it('cl_khr_dx9_media_sharing 9.10.7.1: an adapter that is not an object of its type is CL_INVALID_VALUE, wherever it is in the array', () => {
    const ex = keep(ref.d3d9CreateDevice('d3d9ex'));
    clError(() => khr.getDevices([{ type: 'dxva', adapter: d9 }]), 'CL_INVALID_VALUE', 'clGetDeviceIDsFromDX9MediaAdapterKHR');
    clError(() => khr.getDevices([{ type: 'd3d9ex', adapter: d9 }]), 'CL_INVALID_VALUE');
    clError(
      () =>
        khr.getDevices([
          { type: 'd3d9', adapter: d9 },
          { type: 'dxva', adapter: ex },
        ]),
      'CL_INVALID_VALUE',
    );
    // An IDirect3DDevice9Ex is an IDirect3DDevice9 too.
    expect(khr.getDevices([{ type: 'd3d9', adapter: ex }])).toEqual([refDevice]);
  });

  it('cl_khr_dx9_media_sharing 9.10.7.1: bad arguments are TypeErrors before the driver', () => {
    rejectedBeforeDriver(khr, () => khr.getDevices([]));
    rejectedBeforeDriver(khr, () => khr.getDevices({ type: 'd3d9', adapter: d9 } as never));
    rejectedBeforeDriver(khr, () => khr.getDevices([{ type: 'd3d10' as never, adapter: d9 }]));
    rejectedBeforeDriver(khr, () =>
      khr.getDevices([
        { type: 'd3d9', adapter: d9 },
        { type: 'dxva', adapter: 0n },
      ]),
    );
    rejectedBeforeDriver(khr, () => khr.getDevices([null as never]));
    rejectedBeforeDriver(khr, () => khr.getDevices([{ type: 'd3d9', adapter: d9 }], 'both' as never));
  });

  it('cl_khr_dx9_media_sharing 9.10.5: createContext with CL_CONTEXT_ADAPTER_{D3D9,D3D9EX,DXVA}_KHR', () => {
    expect(context.interop).toEqual({ extension: 'cl_khr_dx9_media_sharing', property: 0x2025, handle: d9 });
    expect(context.sharing).toBe(khr);
    expect(context.properties).toContainEqual([0x2025, d9]);
    const ex = keep(ref.d3d9CreateDevice('d3d9ex'));
    for (const [adapter, property, sync] of [
      [{ type: 'd3d9ex', adapter: ex }, 0x2026, true],
      [{ type: 'dxva', adapter: dxva }, 0x2027, false],
    ] as const) {
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
    clError(
      () => khr.createContext({ type: 'd3d9', adapter: lonely }, { devices: [refDevice] }),
      'CL_INVALID_DX9_MEDIA_ADAPTER_KHR',
      'clCreateContext',
    );
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
    for (const [image, plane] of [
      [y, 0],
      [uv, 1],
    ] as const) {
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

  it("cl_khr_dx9_media_sharing 9.10.7.2: a shared handle that is not the surface's gives CL_INVALID_DX9_MEDIA_SURFACE_KHR", () => {
    const a = ref.d3d9CreateSurface(d9, D3DFMT.NV12, 4, 4, { shared: true });
    const b = ref.d3d9CreateSurface(d9, D3DFMT.NV12, 4, 4, { shared: true });
    keep(a.surface);
    keep(b.surface);
    const error = clError(
      () => khr.createFromSurface(context, 'd3d9', a.surface, 0, { sharedHandle: b.sharedHandle }),
      'CL_INVALID_DX9_MEDIA_SURFACE_KHR',
      'clCreateFromDX9MediaSurfaceKHR',
    );
    expect(error.status).toBe(-1011);
  });

  it("cl_khr_dx9_media_sharing 9.10.7.2: YV12 plane 1 is V and plane 2 is U (the current Khronos text, as Intel's compute-runtime does)", async () => {
    const { surface } = ref.d3d9CreateSurface(d9, D3DFMT.YV12, 8, 4);
    keep(surface);
    const planes = [0, 1, 2].map((p) => khr.createFromSurface(context, 'd3d9', surface, p));
    expect(planes.map((i) => [i.format.order, i.width, i.height])).toEqual([
      ['R', 8, 4],
      ['R', 4, 2],
      ['R', 4, 2],
    ]);
    ref.write(surface, 0, 1, new Uint8Array(8).fill(0x56)); // memory plane 1: V
    ref.write(surface, 0, 2, new Uint8Array(8).fill(0x55)); // memory plane 2: U
    const u = new Uint8Array(8);
    const v = new Uint8Array(8);
    await queue.withAcquired(planes, async () => {
      await done(queue.readImage(planes[1]!, v));
      await done(queue.readImage(planes[2]!, u));
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
    expect(predictSharedImage({ extension: 'cl_khr_dx9_media_sharing', d3dFormat: D3DFMT.D3DFMT_A8R8G8B8, width: 6, height: 3 }).format.order).toBe(
      'BGRA',
    );
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
    await expect(
      queue.withAcquired([y], () => {
        throw new Error('a');
      }),
    ).rejects.toThrow('a');
    await expect(
      queue.withAcquired([y], async () => {
        throw new Error('b');
      }),
    ).rejects.toThrow('b');
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
