// cl_khr_d3d11_sharing and cl_nv_d3d11_sharing through the public TypeScript API,
// on the reference driver (test/driver, simulated ID3D11 objects). One suite, run
// once per extension: they differ only in names (shared/specs/
// cl_khr_d3d11_sharing.asciidoc; NV names from OpenCV's cl_d3d11_ext.h). NV12
// textures as Y/UV planes as cl_intel_d3d11_nv12_media_sharing and FFmpeg's OpenCL
// hwcontext use them (subresource 2 * slice + plane).
import { describe, expect, it } from 'vitest';
import {
  CL,
  CLBuffer,
  CL_CONTEXT_D3D11_DEVICE_KHR,
  CL_CONTEXT_D3D11_DEVICE_NV,
  type CommandQueue,
  type Context,
  D3D11Sharing,
  DXGI_FORMAT,
  DXGI_FORMAT_NV12,
  KhrD3D11Sharing,
  NvD3D11Sharing,
  OpenCLExtensionError,
  OpenCLStateError,
  errorName,
  getSharing,
  predictSharedImage,
  sharingRecords,
} from '../lib';
import { bytes, clError, done, live, platform, ref, refDevice, rejectedBeforeDriver, sharedResources } from './helpers/ref-driver';

const variants = [
  { extension: 'cl_khr_d3d11_sharing', suffix: 'KHR', facadeClass: KhrD3D11Sharing, contextProperty: CL_CONTEXT_D3D11_DEVICE_KHR },
  { extension: 'cl_nv_d3d11_sharing', suffix: 'NV', facadeClass: NvD3D11Sharing, contextProperty: CL_CONTEXT_D3D11_DEVICE_NV },
] as const;

describe.each(variants)('$extension', ({ extension, suffix, facadeClass, contextProperty }) => {
  const d3d11 = platform.getSharing(extension);
  const name = (base: string) => `${base}_${suffix}`;
  const call = (base: string) => `${base}${suffix}`;
  let baseline: ReturnType<typeof live>;
  let device: bigint;
  let context: Context;
  let queue: CommandQueue;
  const keep = sharedResources(
    () => {
      baseline = live();
      device = keep(ref.d3d11CreateDevice());
      context = d3d11.createContext(device);
      queue = context.createQueue();
    },
    () => [queue, context],
  );

  it('is one facade shape for both extensions; resolves the 6 entry points of its record', () => {
    expect(d3d11).toBeInstanceOf(facadeClass);
    expect(d3d11).toBeInstanceOf(D3D11Sharing);
    expect(d3d11.name).toBe(extension);
    expect(d3d11.entryPoints).toEqual([
      call('clGetDeviceIDsFromD3D11'),
      call('clCreateFromD3D11Buffer'),
      call('clCreateFromD3D11Texture2D'),
      call('clCreateFromD3D11Texture3D'),
      call('clEnqueueAcquireD3D11Objects'),
      call('clEnqueueReleaseD3D11Objects'),
    ]);
    expect(Object.values(sharingRecords[extension].entryPoints)).toEqual(d3d11.entryPoints);
    expect(getSharing(platform, extension)).toBe(d3d11);
  });

  it("error names -1006..-1009 are the extension's own", () => {
    const bases = ['CL_INVALID_D3D11_DEVICE', 'CL_INVALID_D3D11_RESOURCE', 'CL_D3D11_RESOURCE_ALREADY_ACQUIRED', 'CL_D3D11_RESOURCE_NOT_ACQUIRED'];
    bases.forEach((base, i) => {
      expect(errorName(-1006 - i, extension)).toBe(name(base));
      expect(errorName(-1006 - i, call('clCreateFromD3D11Texture2D'))).toBe(name(base));
      // Without a scope both names are candidates.
      expect(errorName(-1006 - i)).toBe(`${base}_KHR | ${base}_NV`);
    });
  });

  it('clGetDeviceIDsFromD3D11: devices for an ID3D11Device and an IDXGIAdapter; none gives []; bad arguments are TypeErrors', () => {
    expect(d3d11.getDevices({ device })).toEqual([refDevice]);
    expect(d3d11.getDevices({ device }, 'all')).toEqual([refDevice]);
    const adapter = keep(ref.dxgiCreateAdapter('DXGI test adapter (D3D11)', true));
    expect(d3d11.getDevices({ dxgiAdapter: adapter })).toEqual([refDevice]);
    const noCl = keep(ref.dxgiCreateAdapter('DXGI adapter without CL (D3D11)', false));
    expect(d3d11.getDevices({ dxgiAdapter: noCl }, 'all')).toEqual([]);
    expect(d3d11.getDevices({ device: keep(ref.d3d11CreateDevice(noCl)) })).toEqual([]);
    // A D3D10 device is not an ID3D11Device.
    expect(d3d11.getDevices({ device: keep(ref.d3d10CreateDevice()) })).toEqual([]);
    rejectedBeforeDriver(d3d11, () => d3d11.getDevices({ device: 0n }));
    rejectedBeforeDriver(d3d11, () => d3d11.getDevices({ dxgiAdapter: 5 as unknown as bigint }));
    rejectedBeforeDriver(d3d11, () => d3d11.getDevices({ device }, 'any' as never));
    rejectedBeforeDriver(d3d11, () => d3d11.getDevices(null as never));
  });

  it("createContext: CL_CONTEXT_D3D11_DEVICE, interop user sync, the extension's error name for a device without OpenCL", () => {
    expect(context.interop).toEqual({ extension, property: contextProperty, handle: device });
    expect(context.sharing).toBe(d3d11);
    expect(context.properties).toContainEqual([contextProperty, device]);
    for (const sync of [true, false]) {
      const ctx = d3d11.createContext(device, { interopUserSync: sync, devices: [refDevice] });
      expect(ctx.interopUserSync).toBe(sync);
      ctx.release();
    }
    const noCl = keep(ref.dxgiCreateAdapter('DXGI adapter without CL (D3D11 ctx)', false));
    const dev = keep(ref.d3d11CreateDevice(noCl));
    clError(() => d3d11.createContext(dev), 'CL_DEVICE_NOT_FOUND', 'clCreateContext');
    const error = clError(() => d3d11.createContext(dev, { devices: [refDevice] }), name('CL_INVALID_D3D11_DEVICE'), 'clCreateContext');
    expect(error.status).toBe(-1006);
    expect(() => d3d11.createContext(device, null as never)).toThrow(TypeError);
    rejectedBeforeDriver(d3d11, () => d3d11.createContext(-5n));
  });

  it('prefersSharedResources: the KHR query; cl_nv_d3d11_sharing defines none (OpenCLExtensionError)', () => {
    if (suffix === 'KHR') {
      expect(d3d11.prefersSharedResources(context)).toBe(false);
    } else {
      expect(() => d3d11.prefersSharedResources(context)).toThrow(OpenCLExtensionError);
      expect(() => d3d11.prefersSharedResources(context)).toThrow(/PREFER_SHARED_RESOURCES/);
    }
  });

  it('createFromBuffer: a CLBuffer of the ID3D11Buffer size, one wrapper per resource; immutable / foreign / D3D10 -> INVALID_D3D11_RESOURCE', () => {
    const res = keep(ref.d3d11CreateBuffer(device, 1000));
    const before = ref.refcount(res);
    const buf = d3d11.createFromBuffer(context, res, { access: 'write' });
    expect(buf).toBeInstanceOf(CLBuffer);
    expect(buf.size).toBe(1000);
    expect(buf.flags).toBe(BigInt(CL.CL_MEM_WRITE_ONLY));
    expect(buf.sharedWith).toBe(extension);
    expect(d3d11.objectInfo(buf)).toEqual({ resource: res });
    expect(ref.refcount(res)).toBe(before + 1);
    expect(d3d11.createFromBuffer(context, res)).toBe(buf);
    buf.release();
    const immutable = keep(ref.d3d11CreateBuffer(device, 16, 1));
    clError(() => d3d11.createFromBuffer(context, immutable), name('CL_INVALID_D3D11_RESOURCE'), call('clCreateFromD3D11Buffer'));
    const foreign = keep(ref.d3d11CreateBuffer(keep(ref.d3d11CreateDevice()), 16));
    clError(() => d3d11.createFromBuffer(context, foreign), name('CL_INVALID_D3D11_RESOURCE'));
    const d3d10Buffer = keep(ref.d3d10CreateBuffer(keep(ref.d3d10CreateDevice()), 16));
    clError(() => d3d11.createFromBuffer(context, d3d10Buffer), name('CL_INVALID_D3D11_RESOURCE'));
    for (const access of ['rw', 42]) rejectedBeforeDriver(d3d11, () => d3d11.createFromBuffer(context, res, { access: access as never }));
  });

  it('createFromTexture2D: subresource = mip + slice * mipLevels; the D3D11 DXGI table and its prediction; errors', () => {
    const tex = keep(
      ref.d3d11CreateTexture2D(device, { width: 32, height: 16, mipLevels: 3, arraySize: 2, format: DXGI_FORMAT.DXGI_FORMAT_B8G8R8A8_UNORM }),
    );
    for (const sub of [0, 2, 4, 5]) {
      const image = d3d11.createFromTexture2D(context, tex, sub, { access: 'read' });
      const mip = sub % 3;
      expect([image.width, image.height]).toEqual([32 >> mip, 16 >> mip]);
      const p = predictSharedImage({
        extension,
        dxgiFormat: DXGI_FORMAT.DXGI_FORMAT_B8G8R8A8_UNORM,
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
      expect(d3d11.objectInfo(image)).toEqual({ resource: tex, subresource: sub });
      expect(d3d11.createFromTexture2D(context, tex, sub)).toBe(image);
      image.release();
    }
    clError(() => d3d11.createFromTexture2D(context, tex, 6), 'CL_INVALID_VALUE', call('clCreateFromD3D11Texture2D'));
    for (const [dxgi, order, type] of [
      ['DXGI_FORMAT_R16_FLOAT', 'R', 'HALF_FLOAT'],
      ['DXGI_FORMAT_R8G8_SNORM', 'RG', 'SNORM_INT8'],
      ['DXGI_FORMAT_R32G32B32A32_UINT', 'RGBA', 'UNSIGNED_INT32'],
    ] as const) {
      const t = keep(ref.d3d11CreateTexture2D(device, { width: 6, height: 2, format: DXGI_FORMAT[dxgi] }));
      const image = d3d11.createFromTexture2D(context, t, 0);
      expect(image.format).toMatchObject({ order, type });
      expect(predictSharedImage({ extension, dxgiFormat: DXGI_FORMAT[dxgi], width: 6, height: 2 }).format).toMatchObject({ order, type });
      image.release();
    }
    const msaa = keep(ref.d3d11CreateTexture2D(device, { width: 4, height: 4, format: DXGI_FORMAT.DXGI_FORMAT_R8_UNORM, sampleCount: 4 }));
    const immutable = keep(ref.d3d11CreateTexture2D(device, { width: 4, height: 4, format: DXGI_FORMAT.DXGI_FORMAT_R8_UNORM, usage: 1 }));
    clError(() => d3d11.createFromTexture2D(context, msaa, 0), name('CL_INVALID_D3D11_RESOURCE'));
    clError(() => d3d11.createFromTexture2D(context, immutable, 0), name('CL_INVALID_D3D11_RESOURCE'));
    const srgb = keep(ref.d3d11CreateTexture2D(device, { width: 4, height: 4, format: 29 /* R8G8B8A8_UNORM_SRGB: not in the table */ }));
    clError(() => d3d11.createFromTexture2D(context, srgb, 0), 'CL_INVALID_IMAGE_FORMAT_DESCRIPTOR');
    expect(() => predictSharedImage({ extension, dxgiFormat: 29, width: 4, height: 4 })).toThrow(RangeError);
    rejectedBeforeDriver(d3d11, () => d3d11.createFromTexture2D(context, tex, 1.5), RangeError);
    rejectedBeforeDriver(d3d11, () => d3d11.createFromTexture2D(context, tex, -1), RangeError);
  });

  it('createFromTexture3D: a 3D image of the mip level; a 2D texture is INVALID_D3D11_RESOURCE', () => {
    const tex = keep(ref.d3d11CreateTexture3D(device, { width: 16, height: 8, depth: 4, mipLevels: 2, format: DXGI_FORMAT.DXGI_FORMAT_R32_FLOAT }));
    const image = d3d11.createFromTexture3D(context, tex, 1);
    expect(image.type).toBe(CL.CL_MEM_OBJECT_IMAGE3D);
    expect([image.width, image.height, image.depth]).toEqual([8, 4, 2]);
    const p = predictSharedImage({
      extension,
      dxgiFormat: DXGI_FORMAT.DXGI_FORMAT_R32_FLOAT,
      width: 16,
      height: 8,
      depth: 4,
      subresource: 1,
      mipLevels: 2,
    });
    expect([p.imageType, p.width, p.height, p.depth]).toEqual(['image3d', 8, 4, 2]);
    expect(d3d11.objectInfo(image)).toEqual({ resource: tex, subresource: 1 });
    image.release();
    const flat = keep(ref.d3d11CreateTexture2D(device, { width: 4, height: 4, format: DXGI_FORMAT.DXGI_FORMAT_R8_UNORM }));
    clError(() => d3d11.createFromTexture3D(context, flat, 0), name('CL_INVALID_D3D11_RESOURCE'), call('clCreateFromD3D11Texture3D'));
  });

  it('NV12 textures: Y (R, full size) and UV (RG, half size) planes as subresources 2*slice and 2*slice+1, zero-copy', async () => {
    expect(d3d11.sharesNV12).toBe(true);
    const tex = keep(ref.d3d11CreateTexture2D(device, { width: 16, height: 8, arraySize: 2, format: DXGI_FORMAT_NV12 }));
    const y0 = bytes(16 * 8, (i) => i);
    const uv1 = bytes(8 * 4 * 2, (i) => 255 - i);
    ref.write(tex, 0, 0, y0);
    ref.write(tex, 3, 0, uv1);
    const first = d3d11.createFromNV12Texture(context, tex, { access: 'read' });
    const second = d3d11.createFromNV12Texture(context, tex, { arraySlice: 1, access: 'read' });
    expect(first.y.format).toMatchObject({ order: 'R', type: 'UNORM_INT8' });
    expect(first.uv.format).toMatchObject({ order: 'RG', type: 'UNORM_INT8' });
    expect([first.y.width, first.y.height, first.uv.width, first.uv.height]).toEqual([16, 8, 8, 4]);
    for (const plane of [0, 1]) {
      const p = predictSharedImage({ extension, dxgiFormat: DXGI_FORMAT_NV12, width: 16, height: 8, plane });
      const image = plane ? first.uv : first.y;
      expect([p.format.order, p.width, p.height]).toEqual([image.format.order, image.width, image.height]);
    }
    expect(d3d11.objectInfo(second.y)).toEqual({ resource: tex, subresource: 2 });
    expect(d3d11.objectInfo(second.uv)).toEqual({ resource: tex, subresource: 3 });
    expect(d3d11.createFromTexture2D(context, tex, 1)).toBe(first.uv);
    const seenY = new Uint8Array(y0.length);
    const seenUV = new Uint8Array(uv1.length);
    await queue.withAcquired([first.y, second.uv], async () => {
      await done(queue.readImage(first.y, seenY));
      await done(queue.readImage(second.uv, seenUV));
    });
    expect(seenY).toEqual(y0);
    expect(seenUV).toEqual(uv1);
    expect(() => predictSharedImage({ extension, dxgiFormat: DXGI_FORMAT_NV12, width: 16, height: 8, plane: 2 })).toThrow(RangeError);
    rejectedBeforeDriver(d3d11, () => d3d11.createFromNV12Texture(context, tex, { arraySlice: -1 }), RangeError);
    rejectedBeforeDriver(d3d11, () => d3d11.createFromNV12Texture(context, tex, 'x' as never));
    clError(() => d3d11.createFromNV12Texture(context, tex, { arraySlice: 2 }), 'CL_INVALID_VALUE', call('clCreateFromD3D11Texture2D'));
    for (const image of [first.y, first.uv, second.y, second.uv]) image.release();
  });

  it("acquire/release through the binding's state: the extension's error names and command types", async () => {
    const tex = keep(ref.d3d11CreateTexture2D(device, { width: 4, height: 4, format: DXGI_FORMAT.DXGI_FORMAT_R8G8B8A8_UNORM }));
    const image = d3d11.createFromTexture2D(context, tex, 0);
    const host = new Uint8Array(64);
    clError(() => queue.readImage(image, host), name('CL_D3D11_RESOURCE_NOT_ACQUIRED'), 'clEnqueueReadImage');
    clError(() => queue.enqueueReleaseShared([image]), name('CL_D3D11_RESOURCE_NOT_ACQUIRED'), call('clEnqueueReleaseD3D11Objects'));
    const acquire = queue.enqueueAcquireShared([image]);
    expect(acquire.commandTypeName).toBe(`CL_COMMAND_ACQUIRE_D3D11_OBJECTS_${suffix}`);
    expect(acquire.commandType).toBe(0x4020);
    clError(() => queue.enqueueAcquireShared([image]), name('CL_D3D11_RESOURCE_ALREADY_ACQUIRED'), call('clEnqueueAcquireD3D11Objects'));
    expect(() => image.release()).toThrow(OpenCLStateError);
    const release = queue.enqueueReleaseShared([image]);
    expect(release.commandTypeName).toBe(`CL_COMMAND_RELEASE_D3D11_OBJECTS_${suffix}`);
    expect(release.commandType).toBe(0x4021);
    await done(release);
    acquire.release();
    image.release();
  });

  it('zero-copy both ways: a kernel inverts one subresource into another, a buffer is copied', async () => {
    const tex = keep(ref.d3d11CreateTexture2D(device, { width: 8, height: 4, arraySize: 2, format: DXGI_FORMAT.DXGI_FORMAT_R8G8B8A8_UNORM }));
    const pixels = bytes(8 * 4 * 4, (i) => i * 7 + 3);
    ref.write(tex, 1, 0, pixels);
    const src = d3d11.createFromTexture2D(context, tex, 1, { access: 'read' });
    const dst = d3d11.createFromTexture2D(context, tex, 0, { access: 'write' });
    const program = context.createProgramWithBuiltInKernels(['invert_image']);
    const invert = program.createKernel('invert_image').setArgs(src, dst);
    await queue.withAcquired([src, dst], async () => {
      await done(queue.enqueueKernel(invert, [8, 4]));
    });
    expect(ref.read(tex, 0, 0)).toEqual(pixels.map((v) => 255 - v));
    for (const o of [invert, program, src, dst]) o.release();
  });

  it('contexts and cl_mems hold references to the device / resource; everything released leaves no driver object', () => {
    const dev = keep(ref.d3d11CreateDevice());
    const before = ref.refcount(dev);
    const ctx = d3d11.createContext(dev);
    expect(ref.refcount(dev)).toBe(before + 1);
    ctx.release();
    ref.waitIdle();
    expect(ref.refcount(dev)).toBe(before);
    queue.release();
    context.release();
    expect(live()).toEqual(baseline);
  });
});

describe('the two D3D11 records', () => {
  it('have the same token values and differ in names (OpenCV cl_d3d11_ext.h); only KHR has the prefer-shared query', () => {
    const khr = sharingRecords.cl_khr_d3d11_sharing;
    const nv = sharingRecords.cl_nv_d3d11_sharing;
    expect(nv.errors).toEqual(khr.errors);
    expect(nv.deviceSources).toEqual(khr.deviceSources);
    expect(nv.deviceSets).toEqual(khr.deviceSets);
    expect(Object.values(nv.commandTypes)).toEqual(Object.values(khr.commandTypes));
    expect(Object.values(nv.entryPoints)).toEqual(Object.values(khr.entryPoints).map((n) => n.replace(/KHR$/, 'NV')));
    expect(khr.queries.preferSharedResources).toBe(0x402d);
    expect(nv.queries.preferSharedResources).toBeUndefined();
  });
});
