// Shared by the Windows suites: the staged win32 package (what a Windows user
// installs from npm, built by scripts/windows/build.sh) and the Direct3D
// objects the suites share. On Windows itself (.github/workflows/ci.yml)
// OPENCL_INTEROP_PACKAGE and OPENCL_INTEROP_D3D_HELPER name the MSVC builds instead.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/** Where the package is: for child processes and workers to require. */
export const packagePath = process.env.OPENCL_INTEROP_PACKAGE ?? fileURLToPath(new URL('../../build-win32/package/', import.meta.url));

/** opencl-interop as installed from the npm package, with its win32-x64 prebuild. */
export const ocl = require(packagePath);

/** What only native test equipment can do (test/windows/d3d_helper.cc): reference counts, a C++ object that is not COM. */
const helper = new Proxy({}, { get: (_, key) => require(process.env.OPENCL_INTEROP_D3D_HELPER ?? '../../build-win32/d3d_helper.node')[key] });

// The sharing suites pass Direct3D objects as bigint addresses, as native
// code hands them to the facades. The objects are made by the package's own
// Direct3D module; these keep them by address until released.
// One address may be kept twice (two devices' IDXGIAdapter is one COM object): one entry per reference.
const objects = new Map();
const kept = (object) => {
  const address = object.comPointer;
  objects.set(address, [...(objects.get(address) ?? []), object]);
  return address;
};
const of = (address) => {
  const object = objects.get(address)?.at(-1);
  if (!object) throw new TypeError(`no Direct3D object of the suite at 0x${address.toString(16)}`);
  return object;
};
const names = (bits, table) =>
  Object.entries(table)
    .filter(([value]) => bits & Number(value))
    .map(([, name]) => name);
const dxgiBind = {
  0x1: 'vertex-buffer',
  0x2: 'index-buffer',
  0x4: 'constant-buffer',
  0x8: 'shader-resource',
  0x10: 'stream-output',
  0x20: 'render-target',
  0x40: 'depth-stencil',
  0x80: 'unordered-access',
  0x200: 'decoder',
};
const dxgiCpu = { 0x10000: 'write', 0x20000: 'read' };
const dxgiUsage = ['default', 'immutable', 'dynamic', 'staging'];
const d3d9Usage = { 0x1: 'render-target', 0x2: 'depth-stencil', 0x8: 'write-only', 0x200: 'dynamic' };
const d3d9Pool = ['default', 'managed', 'systemmem', 'scratch'];

function dxgiOptions({ usage, bindFlags, cpuAccess, ...rest }) {
  const options = { ...rest };
  if (usage !== undefined) options.usage = dxgiUsage[usage];
  if (bindFlags !== undefined) options.bind = names(bindFlags, dxgiBind);
  if (cpuAccess !== undefined) options.cpuAccess = names(cpuAccess, dxgiCpu);
  return options;
}
const dxgiBuffer = (device, size, usage, bindFlags, cpuAccess) => kept(of(device).createBuffer(dxgiOptions({ size, usage, bindFlags, cpuAccess })));
/** read (no bytes) or write one subresource of a D3D10 / D3D11 resource, tightly packed. */
function dxgiAccess(resource, subresource, bytes) {
  const object = of(resource);
  const options = object.description.dimension === 'buffer' ? undefined : { subresource };
  return bytes ? object.write(bytes, options) : object.read(options);
}

/** The Direct3D objects of the sharing suites, by address (made by the package's Direct3D module), plus the helper's. */
export const d3d = {
  // Direct3D 9Ex
  d3d9Device: () => kept(ocl.createD3D9Device()),
  d3d9AdapterName: () => ocl.listD3D9Adapters()[0].description,
  dxvaDeviceManager: (device) => kept(of(device).createDeviceManager()),
  d3d9Surface: (device, width, height, format, pool) => kept(of(device).createOffscreenPlainSurface({ width, height, format, pool: d3d9Pool[pool] })),
  d3d9RenderTarget: (device, width, height, format) => kept(of(device).createRenderTarget({ width, height, format })),
  d3d9Texture: (device, width, height, levels, usage, format, pool) =>
    kept(of(device).createTexture({ width, height, levels, usage: names(usage, d3d9Usage), format, pool: d3d9Pool[pool] })),
  d3d9CubeTexture: (device, edgeLength, levels, usage, format, pool) =>
    kept(of(device).createCubeTexture({ edgeLength, levels, usage: names(usage, d3d9Usage), format, pool: d3d9Pool[pool] })),
  d3d9VolumeTexture: (device, width, height, depth, levels, usage, format, pool) =>
    kept(of(device).createVolumeTexture({ width, height, depth, levels, usage: names(usage, d3d9Usage), format, pool: d3d9Pool[pool] })),
  d3d9VertexBuffer: (device, size, usage, pool) =>
    kept(of(device).createVertexBuffer({ size, usage: names(usage, d3d9Usage), pool: d3d9Pool[pool] })),
  d3d9IndexBuffer: (device, size, usage, format, pool) =>
    kept(
      of(device).createIndexBuffer({
        size,
        usage: names(usage, d3d9Usage),
        format: format === 102 ? 'D3DFMT_INDEX32' : 'D3DFMT_INDEX16',
        pool: d3d9Pool[pool],
      }),
    ),
  /** read (no bytes) or write: a surface (every plane), a texture's level `sub`, a cube's face sub / levels, level sub % levels, a volume level, a buffer. */
  d3d9Access(resource, sub, bytes) {
    const object = of(resource);
    let options;
    if (object.kind === 'D3D9Texture' || object.kind === 'D3D9VolumeTexture') options = { level: sub };
    else if (object.kind === 'D3D9CubeTexture')
      options = { face: Math.floor(sub / object.description.levels), level: sub % object.description.levels };
    return bytes ? object.write(bytes, options) : object.read(options);
  },
  // Direct3D 10.1 (an ID3D10Device1 is the ID3D10Device cl_khr_d3d10_sharing takes)
  d3d10Device: () => kept(ocl.createD3D10Device()),
  dxgiAdapter: (device) => kept(of(device).dxgiAdapter()),
  d3d10Buffer: dxgiBuffer,
  d3d10Texture2D: (device, options) => kept(of(device).createTexture2D(dxgiOptions(options))),
  d3d10Texture3D: (device, options) => kept(of(device).createTexture3D(dxgiOptions(options))),
  d3d10Access: dxgiAccess,
  // Direct3D 11
  d3d11Device: () => kept(ocl.createD3D11Device()),
  d3d11Buffer: dxgiBuffer,
  d3d11Texture2D: (device, options) => kept(of(device).createTexture2D(dxgiOptions(options))),
  d3d11Texture3D: (device, options) => kept(of(device).createTexture3D(dxgiOptions(options))),
  d3d11Access: dxgiAccess,
  /** Disposes an object made here. */
  release(address) {
    of(address).dispose();
    const rest = objects.get(address).slice(0, -1);
    if (rest.length) objects.set(address, rest);
    else objects.delete(address);
  },
  refCount: (address) => helper.refCount(address),
  notDirect3D: () => helper.notDirect3D(),
};

/** Runs fn(own); everything passed to own() is released afterwards, newest first, even when fn throws. */
export async function owner(fn) {
  const owned = [];
  const own = (object) => {
    owned.push(object);
    return object;
  };
  try {
    return await fn(own);
  } finally {
    for (const object of owned.reverse()) object.release();
  }
}
