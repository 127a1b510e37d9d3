// The Direct3D sharing extensions in Windows node.exe with REAL Direct3D
// objects: IDirect3DDevice9Ex, surfaces, textures and buffers, ID3D10Device and
// ID3D11Device, their buffers and textures, made by the package's Direct3D
// module (passed here by address, as native code would; test/windows/support.mjs)
// on Wine's d3d9, d3d10 and d3d11 (Mesa llvmpipe under Xvfb). OpenCL is the reference driver's Windows
// DLL loaded by path (OPENCL_INTEROP_LIBRARY), since Wine's opencl.dll hands
// out no extension functions. Contents go both ways: what Direct3D wrote is
// what OpenCL reads after acquire, and what OpenCL wrote is what Direct3D
// reads after release. Test names cite the spec sections (shared/specs/).
// Run by scripts/windows/test.sh.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { ocl, d3d, owner } from './support.mjs';

const { D3DFMT, DXGI_FORMAT, OpenCLError } = ocl;
const NV12 = D3DFMT.NV12;
const YV12 = D3DFMT.YV12;
const D3DFMT_INDEX16 = 101;
const POOL_DEFAULT = 0;
const USAGE_DYNAMIC = 0x200;
const D3D10_BIND_VERTEX_BUFFER = 0x1;

const REF_NAME = 'opencl-interop reference driver';
const platform = ocl.getPlatforms().find((p) => p.name === REF_NAME);

function pattern(size, seed) {
  return Uint8Array.from({ length: size }, (_, i) => (i * 7 + seed) & 0xff);
}

function inverted(bytes) {
  return bytes.map((b) => 255 - b);
}

function clCode(fn, code) {
  assert.throws(fn, (error) => error instanceof OpenCLError && error.code === code, `expected ${code}`);
}

/** Reference counts of D3D objects now, to compare after everything is released. */
function counts(objects) {
  return objects.map((o) => d3d.refCount(o));
}

/**
 * Asserts the objects' reference counts come back to `expected`. The driver
 * drops a context's device reference when its last internal reference goes,
 * which a finished command may hold for a moment after its event completed.
 */
async function countsReturnTo(objects, expected) {
  for (let i = 0; i < 200 && JSON.stringify(counts(objects)) !== JSON.stringify(expected); i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  assert.deepEqual(counts(objects), expected);
}

/**
 * Reference counts once they stop moving: a context released by the test before
 * drops its device reference when the driver's last command of it finishes.
 */
async function settledCounts(objects) {
  let last = JSON.stringify(counts(objects));
  for (let steady = 0, i = 0; steady < 4 && i < 200; i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    const now = JSON.stringify(counts(objects));
    steady = now === last ? steady + 1 : 0;
    last = now;
  }
  return JSON.parse(last);
}

/** A context made by create() holds exactly one reference on the device, dropped by its release. */
function assertContextHoldsOneReference(device, create) {
  const before = d3d.refCount(device);
  const context = create();
  assert.equal(d3d.refCount(device), before + 1);
  context.release();
  assert.equal(d3d.refCount(device), before);
}

// Every D3D object the suite made; released at the end, each to zero.
const made = [];
function keep(address) {
  made.push(address);
  return address;
}
after(() => {
  for (const object of made.reverse()) d3d.release(object);
});

const device9 = keep(d3d.d3d9Device(true));
const device10 = keep(d3d.d3d10Device());
const device11 = keep(d3d.d3d11Device());

test('the reference driver is loaded by path and offers the four Direct3D extensions', () => {
  assert.ok(platform, `${REF_NAME} is not among the platforms (OPENCL_INTEROP_LIBRARY=${process.env.OPENCL_INTEROP_LIBRARY})`);
  assert.match(ocl.loadedLibrary().path, /ocl_interop_refdriver\.dll$/i);
  for (const name of ['cl_nv_d3d9_sharing', 'cl_khr_d3d10_sharing', 'cl_intel_dx9_media_sharing', 'cl_khr_dx9_media_sharing']) {
    assert.ok(platform.extensions.includes(name), name);
    assert.ok(platform.getSharing(name).entryPoints.length >= 4, `${name} entry points`);
  }
});

describe('cl_nv_d3d9_sharing with a real IDirect3DDevice9Ex', () => {
  const nv = platform.getSharing('cl_nv_d3d9_sharing');

  test('9.13.1: the device of an IDirect3DDevice9Ex, and of the adapter by name, is the reference device', () => {
    const devices = nv.getDevices({ device: device9 });
    assert.equal(devices.length, 1);
    assert.equal(devices[0].name, platform.getDevices()[0].name);
    assert.equal(nv.getDevices({ device: device9 }, 'all').length, 1);
    // CL_D3D9_ADAPTER_NAME_NV: the name Direct3D 9 reports for the adapter.
    assert.equal(nv.getDevices({ adapterName: d3d.d3d9AdapterName() }).length, 1);
  });

  test('9.13.2: a context holds one reference on the device until it is released', () => {
    assertContextHoldsOneReference(device9, () => nv.createContext(device9));
  });

  test('9.13.4: an A8R8G8B8 surface: D3D contents at acquire, OpenCL writes visible to D3D after release; refcounts restored', async () => {
    const surface = keep(d3d.d3d9Surface(device9, 16, 8, D3DFMT.D3DFMT_A8R8G8B8, POOL_DEFAULT));
    const start = await settledCounts([device9, surface]);
    await owner(async (own) => {
      const context = own(nv.createContext(device9));
      const queue = own(context.createQueue());
      d3d.d3d9Access(surface, 0, pattern(16 * 8 * 4, 1));
      const image = own(nv.createFromSurface(context, surface, { access: 'read-write' }));
      assert.equal(d3d.refCount(surface), start[1] + 1, 'clCreateFromD3D9SurfaceNV holds a reference on the surface');
      assert.deepEqual([image.width, image.height], [16, 8]);
      // The NV table (9.13.4) maps A8R8G8B8 to CL_RGBA, unlike the Intel and KHR tables (CL_BGRA).
      assert.deepEqual([image.format.order, image.format.type], ['RGBA', 'UNORM_INT8']);
      assert.equal(nv.objectInfo(image).resource, surface);
      const seen = new Uint8Array(16 * 8 * 4);
      await queue.withAcquired([image], async () => {
        own(queue.readImage(image, seen, { blocking: true }));
        own(queue.writeImage(image, inverted(seen), { blocking: true }));
      });
      assert.deepEqual(seen, pattern(16 * 8 * 4, 1));
      assert.deepEqual(d3d.d3d9Access(surface, 0), inverted(pattern(16 * 8 * 4, 1)));
    });
    await countsReturnTo([device9, surface], start);
  });

  test('9.13.4: a DEFAULT-pool texture level (not lockable: staged) inverted by a kernel', async () => {
    const texture = keep(d3d.d3d9Texture(device9, 32, 32, 3, 0, D3DFMT.D3DFMT_A8R8G8B8, POOL_DEFAULT));
    const start = await settledCounts([device9, texture]);
    d3d.d3d9Access(texture, 1, pattern(16 * 16 * 4, 2));
    d3d.d3d9Access(texture, 0, pattern(32 * 32 * 4, 3));
    await owner(async (own) => {
      const context = own(nv.createContext(device9));
      const queue = own(context.createQueue());
      const image = own(nv.createFromTexture(context, texture, 1, { access: 'read-write' }));
      assert.deepEqual([image.width, image.height], [16, 16]);
      assert.equal(nv.objectInfo(image).level, 1);
      const program = own(context.createProgramWithBuiltInKernels(['invert_image']));
      const copy = own(context.createImage({ format: image.format, width: 16, height: 16 }));
      const kernel = own(program.createKernel('invert_image').setArgs(copy, image));
      await queue.withAcquired([image], async () => {
        own(queue.copyImage(image, copy));
        await own(queue.enqueueKernel(kernel, [16, 16])).completed;
      });
    });
    assert.deepEqual(d3d.d3d9Access(texture, 1), inverted(pattern(16 * 16 * 4, 2)));
    assert.deepEqual(d3d.d3d9Access(texture, 0), pattern(32 * 32 * 4, 3), 'level 0 untouched');
    await countsReturnTo([device9, texture], start);
  });

  test('9.13.4: a cube texture face and a volume texture level', async () => {
    const cube = keep(d3d.d3d9CubeTexture(device9, 8, 1, 0, D3DFMT.D3DFMT_A8R8G8B8, POOL_DEFAULT));
    const volume = keep(d3d.d3d9VolumeTexture(device9, 4, 4, 4, 2, USAGE_DYNAMIC, D3DFMT.D3DFMT_A8R8G8B8, POOL_DEFAULT));
    const start = counts([cube, volume]);
    d3d.d3d9Access(cube, 3, pattern(8 * 8 * 4, 4));
    d3d.d3d9Access(volume, 0, pattern(4 * 4 * 4 * 4, 5));
    await owner(async (own) => {
      const context = own(nv.createContext(device9));
      const queue = own(context.createQueue());
      const face = own(nv.createFromCubeTexture(context, cube, 3, 0));
      const level = own(nv.createFromVolumeTexture(context, volume, 0));
      assert.deepEqual(nv.objectInfo(face), { resource: cube, face: 3, level: 0 });
      assert.deepEqual([level.width, level.height, level.depth], [4, 4, 4]);
      const faceBytes = new Uint8Array(8 * 8 * 4);
      const volumeBytes = new Uint8Array(4 * 4 * 4 * 4);
      await queue.withAcquired([face, level], async () => {
        own(queue.readImage(face, faceBytes, { blocking: true }));
        own(queue.readImage(level, volumeBytes, { blocking: true }));
        own(queue.writeImage(level, inverted(volumeBytes), { blocking: true }));
      });
      assert.deepEqual(faceBytes, pattern(8 * 8 * 4, 4));
      assert.deepEqual(volumeBytes, pattern(4 * 4 * 4 * 4, 5));
    });
    assert.deepEqual(d3d.d3d9Access(volume, 0), inverted(pattern(4 * 4 * 4 * 4, 5)));
    await countsReturnTo([cube, volume], start);
  });

  test('9.13.3: vertex and index buffers as OpenCL buffers', async () => {
    const vertices = keep(d3d.d3d9VertexBuffer(device9, 256, 0, POOL_DEFAULT));
    const indices = keep(d3d.d3d9IndexBuffer(device9, 128, 0, D3DFMT_INDEX16, POOL_DEFAULT));
    const start = counts([vertices, indices]);
    d3d.d3d9Access(vertices, 0, pattern(256, 6));
    d3d.d3d9Access(indices, 0, pattern(128, 7));
    await owner(async (own) => {
      const context = own(nv.createContext(device9));
      const queue = own(context.createQueue());
      const vb = own(nv.createFromVertexBuffer(context, vertices));
      const ib = own(nv.createFromIndexBuffer(context, indices));
      assert.equal(vb.size, 256);
      assert.equal(ib.size, 128);
      await queue.withAcquired([vb, ib], async () => {
        own(queue.copyBuffer(ib, vb, { size: 128, dstOffset: 64 }));
      });
    });
    const expected = pattern(256, 6);
    expected.set(pattern(128, 7), 64);
    assert.deepEqual(d3d.d3d9Access(vertices, 0), expected);
    await countsReturnTo([vertices, indices], start);
  });

  test('9.13.6: acquire twice, release unacquired and use unacquired give the NV error names', async () => {
    const surface = keep(d3d.d3d9Surface(device9, 4, 4, D3DFMT.D3DFMT_A8R8G8B8, POOL_DEFAULT));
    await owner(async (own) => {
      const context = own(nv.createContext(device9));
      const queue = own(context.createQueue());
      const image = own(nv.createFromSurface(context, surface));
      const host = new Uint8Array(64);
      clCode(() => queue.readImage(image, host, { blocking: true }), 'CL_D3D9_RESOURCE_NOT_ACQUIRED_NV');
      clCode(() => queue.enqueueReleaseShared([image]), 'CL_D3D9_RESOURCE_NOT_ACQUIRED_NV');
      const scope = queue.acquire([image]);
      clCode(() => queue.acquire([image]), 'CL_D3D9_RESOURCE_ALREADY_ACQUIRED_NV');
      own(scope.release());
      own(scope.event);
      await queue.finish();
    });
  });

  test('9.13.3 / 9.13.4: objects of another device, the wrong kind of object, a garbage address and a C++ object that is not COM are refused', async () => {
    const otherDevice = keep(d3d.d3d9Device(true));
    const foreign = keep(d3d.d3d9Surface(otherDevice, 4, 4, D3DFMT.D3DFMT_A8R8G8B8, POOL_DEFAULT));
    const vertices = keep(d3d.d3d9VertexBuffer(device9, 64, 0, POOL_DEFAULT));
    const start = counts([foreign, vertices]);
    await owner(async (own) => {
      const context = own(nv.createContext(device9));
      clCode(() => nv.createFromSurface(context, foreign), 'CL_INVALID_D3D9_RESOURCE_NV');
      clCode(() => nv.createFromSurface(context, vertices), 'CL_INVALID_D3D9_RESOURCE_NV');
      clCode(() => nv.createFromVertexBuffer(context, device10), 'CL_INVALID_D3D9_RESOURCE_NV');
      assert.throws(() => nv.createFromSurface(context, 0x10n), OpenCLError);
      clCode(() => nv.createFromSurface(context, d3d.notDirect3D()), 'CL_INVALID_D3D9_RESOURCE_NV');
    });
    await countsReturnTo([foreign, vertices], start);
  });
});

describe('cl_khr_d3d10_sharing with a real ID3D10Device', () => {
  const d3d10 = platform.getSharing('cl_khr_d3d10_sharing');

  test('9.9.7.1 / 9.9.5: the device of an ID3D10Device and of its IDXGIAdapter is the reference device; a context references the device', () => {
    assert.equal(d3d10.getDevices({ device: device10 }).length, 1);
    const adapter = keep(d3d.dxgiAdapter(device10));
    assert.equal(d3d10.getDevices({ dxgiAdapter: adapter }, 'all').length, 1);
    assertContextHoldsOneReference(device10, () => d3d10.createContext(device10));
  });

  test('9.9.7.3 / 9.9.7.2: a DEFAULT buffer (no CPU access: staged) round trip; the cl_mem references the buffer', async () => {
    const buffer = keep(d3d.d3d10Buffer(device10, 512, 0, D3D10_BIND_VERTEX_BUFFER, 0));
    const start = await settledCounts([device10, buffer]);
    d3d.d3d10Access(buffer, 0, pattern(512, 8));
    await owner(async (own) => {
      const context = own(d3d10.createContext(device10));
      const queue = own(context.createQueue());
      const shared = own(d3d10.createFromBuffer(context, buffer));
      assert.equal(d3d.refCount(buffer), start[1] + 1);
      assert.equal(shared.size, 512);
      assert.equal(d3d10.objectInfo(shared).resource, buffer);
      const seen = new Uint8Array(512);
      await queue.withAcquired([shared], async () => {
        own(queue.readBuffer(shared, seen, { blocking: true }));
        own(queue.fillBuffer(shared, new Uint8Array([0x5a]), { offset: 256, size: 256 }));
      });
      assert.deepEqual(seen, pattern(512, 8));
    });
    const expected = pattern(512, 8);
    expected.fill(0x5a, 256);
    assert.deepEqual(d3d.d3d10Access(buffer, 0), expected);
    await countsReturnTo([device10, buffer], start);
  });

  test('9.9.7.4: a 2D texture array subresource (mip + slice * mipLevels) inverted by a kernel', async () => {
    const texture = keep(
      d3d.d3d10Texture2D(device10, { width: 16, height: 16, mipLevels: 2, arraySize: 2, format: DXGI_FORMAT.DXGI_FORMAT_R8G8B8A8_UNORM }),
    );
    const start = counts([texture]);
    const sub = 0 + 1 * 2; // mip 0 of slice 1
    d3d.d3d10Access(texture, sub, pattern(16 * 16 * 4, 9));
    d3d.d3d10Access(texture, 0, pattern(16 * 16 * 4, 10));
    await owner(async (own) => {
      const context = own(d3d10.createContext(device10));
      const queue = own(context.createQueue());
      const image = own(d3d10.createFromTexture2D(context, texture, sub));
      assert.deepEqual([image.format.order, image.format.type], ['RGBA', 'UNORM_INT8']);
      assert.deepEqual(d3d10.objectInfo(image), { resource: texture, subresource: sub });
      const program = own(context.createProgramWithBuiltInKernels(['invert_image']));
      const copy = own(context.createImage({ format: image.format, width: 16, height: 16 }));
      const kernel = own(program.createKernel('invert_image').setArgs(copy, image));
      await queue.withAcquired([image], async () => {
        own(queue.copyImage(image, copy));
        await own(queue.enqueueKernel(kernel, [16, 16])).completed;
      });
    });
    assert.deepEqual(d3d.d3d10Access(texture, sub), inverted(pattern(16 * 16 * 4, 9)));
    assert.deepEqual(d3d.d3d10Access(texture, 0), pattern(16 * 16 * 4, 10), 'slice 0 untouched');
    await countsReturnTo([texture], start);
  });

  test('9.9.7.4: a 3D texture mip level', async () => {
    const texture = keep(d3d.d3d10Texture3D(device10, { width: 8, height: 4, depth: 4, mipLevels: 2, format: DXGI_FORMAT.DXGI_FORMAT_R32_FLOAT }));
    d3d.d3d10Access(texture, 1, pattern(4 * 2 * 2 * 4, 11));
    await owner(async (own) => {
      const context = own(d3d10.createContext(device10));
      const queue = own(context.createQueue());
      const image = own(d3d10.createFromTexture3D(context, texture, 1));
      assert.deepEqual([image.width, image.height, image.depth], [4, 2, 2]);
      const seen = new Uint8Array(4 * 2 * 2 * 4);
      await queue.withAcquired([image], async () => {
        own(queue.readImage(image, seen, { blocking: true }));
        own(queue.writeImage(image, inverted(seen), { blocking: true }));
      });
      assert.deepEqual(seen, pattern(4 * 2 * 2 * 4, 11));
    });
    assert.deepEqual(d3d.d3d10Access(texture, 1), inverted(pattern(4 * 2 * 2 * 4, 11)));
  });

  test('9.9.7.3 / 9.9.7.4: resources of another device, non-D3D10 objects, the wrong dimension and a bad subresource are refused', async () => {
    const otherDevice = keep(d3d.d3d10Device());
    const foreign = keep(d3d.d3d10Buffer(otherDevice, 64, 0, D3D10_BIND_VERTEX_BUFFER, 0));
    await owner(async (own) => {
      const context = own(d3d10.createContext(device10));
      clCode(() => d3d10.createFromBuffer(context, foreign), 'CL_INVALID_D3D10_RESOURCE_KHR');
      clCode(() => d3d10.createFromBuffer(context, device9), 'CL_INVALID_D3D10_RESOURCE_KHR');
      clCode(() => d3d10.createFromBuffer(context, d3d.notDirect3D()), 'CL_INVALID_D3D10_RESOURCE_KHR');
      const texture = keep(d3d.d3d10Texture2D(device10, { width: 4, height: 4, format: DXGI_FORMAT.DXGI_FORMAT_R8G8B8A8_UNORM }));
      clCode(() => d3d10.createFromTexture3D(context, texture, 0), 'CL_INVALID_D3D10_RESOURCE_KHR');
      clCode(() => d3d10.createFromTexture2D(context, texture, 5), 'CL_INVALID_VALUE');
    });
  });
});

for (const [extension, suffix] of [
  ['cl_khr_d3d11_sharing', 'KHR'],
  ['cl_nv_d3d11_sharing', 'NV'],
]) {
  describe(`${extension} with a real ID3D11Device`, () => {
    const d3d11 = platform.getSharing(extension);
    const D3D11_BIND_VERTEX_BUFFER = 0x1;

    test('devices of an ID3D11Device and of its IDXGIAdapter; a context references the device; a D3D10 device is not one', () => {
      assert.equal(d3d11.getDevices({ device: device11 }).length, 1);
      const adapter = keep(d3d.dxgiAdapter(device11));
      assert.equal(d3d11.getDevices({ dxgiAdapter: adapter }, 'all').length, 1);
      assertContextHoldsOneReference(device11, () => d3d11.createContext(device11));
      assert.deepEqual(d3d11.getDevices({ device: device10 }), []);
      clCode(() => d3d11.createContext(device10, { devices: platform.getDevices() }), `CL_INVALID_D3D11_DEVICE_${suffix}`);
    });

    test('a DEFAULT buffer (staged through the immediate context) both ways; the cl_mem references the buffer', async () => {
      const buffer = keep(d3d.d3d11Buffer(device11, 256, 0, D3D11_BIND_VERTEX_BUFFER, 0));
      const start = await settledCounts([device11, buffer]);
      d3d.d3d11Access(buffer, 0, pattern(256, 21));
      await owner(async (own) => {
        const context = own(d3d11.createContext(device11));
        const queue = own(context.createQueue());
        const shared = own(d3d11.createFromBuffer(context, buffer));
        assert.equal(d3d.refCount(buffer), start[1] + 1);
        assert.deepEqual(d3d11.objectInfo(shared), { resource: buffer });
        const seen = new Uint8Array(256);
        await queue.withAcquired([shared], async () => {
          own(queue.readBuffer(shared, seen, { blocking: true }));
          own(queue.fillBuffer(shared, new Uint8Array([0xa5]), { offset: 128, size: 128 }));
        });
        assert.deepEqual(seen, pattern(256, 21));
      });
      const expected = pattern(256, 21);
      expected.fill(0xa5, 128);
      assert.deepEqual(d3d.d3d11Access(buffer, 0), expected);
      await countsReturnTo([device11, buffer], start);
    });

    test('a 2D texture array subresource inverted by a kernel; a 3D texture mip level written back', async () => {
      const texture = keep(
        d3d.d3d11Texture2D(device11, { width: 16, height: 8, mipLevels: 2, arraySize: 2, format: DXGI_FORMAT.DXGI_FORMAT_R8G8B8A8_UNORM }),
      );
      const volume = keep(d3d.d3d11Texture3D(device11, { width: 8, height: 4, depth: 4, mipLevels: 2, format: DXGI_FORMAT.DXGI_FORMAT_R32_FLOAT }));
      const sub = 2; // mip 0 of slice 1
      d3d.d3d11Access(texture, sub, pattern(16 * 8 * 4, 22));
      d3d.d3d11Access(volume, 1, pattern(4 * 2 * 2 * 4, 23));
      await owner(async (own) => {
        const context = own(d3d11.createContext(device11));
        const queue = own(context.createQueue());
        const image = own(d3d11.createFromTexture2D(context, texture, sub));
        assert.deepEqual(d3d11.objectInfo(image), { resource: texture, subresource: sub });
        const level = own(d3d11.createFromTexture3D(context, volume, 1));
        assert.deepEqual([level.width, level.height, level.depth], [4, 2, 2]);
        const program = own(context.createProgramWithBuiltInKernels(['invert_image']));
        const copy = own(context.createImage({ format: image.format, width: 16, height: 8 }));
        const kernel = own(program.createKernel('invert_image').setArgs(copy, image));
        const seen = new Uint8Array(4 * 2 * 2 * 4);
        await queue.withAcquired([image, level], async (scope) => {
          assert.equal(scope.event.commandTypeName, `CL_COMMAND_ACQUIRE_D3D11_OBJECTS_${suffix}`);
          own(queue.copyImage(image, copy));
          await own(queue.enqueueKernel(kernel, [16, 8])).completed;
          own(queue.readImage(level, seen, { blocking: true }));
          own(queue.writeImage(level, inverted(seen), { blocking: true }));
        });
        assert.deepEqual(seen, pattern(4 * 2 * 2 * 4, 23));
      });
      assert.deepEqual(d3d.d3d11Access(texture, sub), inverted(pattern(16 * 8 * 4, 22)));
      assert.deepEqual(d3d.d3d11Access(volume, 1), inverted(pattern(4 * 2 * 2 * 4, 23)));
    });

    test('resources of another device, D3D10 and non-Direct3D objects, the wrong dimension and a bad subresource are refused', async () => {
      const otherDevice = keep(d3d.d3d11Device());
      const foreign = keep(d3d.d3d11Buffer(otherDevice, 64, 0, D3D11_BIND_VERTEX_BUFFER, 0));
      const buffer10 = keep(d3d.d3d10Buffer(device10, 64, 0, D3D10_BIND_VERTEX_BUFFER, 0));
      await owner(async (own) => {
        const context = own(d3d11.createContext(device11));
        const invalid = `CL_INVALID_D3D11_RESOURCE_${suffix}`;
        clCode(() => d3d11.createFromBuffer(context, foreign), invalid);
        clCode(() => d3d11.createFromBuffer(context, buffer10), invalid);
        clCode(() => d3d11.createFromBuffer(context, device9), invalid);
        clCode(() => d3d11.createFromBuffer(context, d3d.notDirect3D()), invalid);
        const texture = keep(d3d.d3d11Texture2D(device11, { width: 4, height: 4, format: DXGI_FORMAT.DXGI_FORMAT_R8G8B8A8_UNORM }));
        clCode(() => d3d11.createFromTexture3D(context, texture, 0), invalid);
        clCode(() => d3d11.createFromTexture2D(context, texture, 5), 'CL_INVALID_VALUE');
        const image = own(d3d11.createFromTexture2D(context, texture, 0));
        const queue = own(context.createQueue());
        clCode(() => queue.enqueueReleaseShared([image]), `CL_D3D11_RESOURCE_NOT_ACQUIRED_${suffix}`);
      });
    });
  });
}

describe('cl_intel_dx9_media_sharing with real D3D9Ex and DXVA devices', () => {
  const intel = platform.getSharing('cl_intel_dx9_media_sharing');

  test('9.13.1: devices from a D3D9Ex device and from an IDirect3DDeviceManager9', () => {
    assert.equal(intel.getDevices({ d3d9ExDevice: device9 }).length, 1);
    const manager = keep(d3d.dxvaDeviceManager(device9));
    assert.equal(intel.getDevices({ dxvaDevice: manager }).length, 1);
  });

  test('9.13.4: an NV12 surface: plane 0 (Y, R/UNORM_INT8) and plane 1 (UV, RG/UNORM_INT8, half size) both ways', async () => {
    const surface = keep(d3d.d3d9Surface(device9, 16, 8, NV12, POOL_DEFAULT));
    const start = await settledCounts([device9, surface]);
    const y = pattern(16 * 8, 12);
    const uv = pattern(16 * 4, 13);
    d3d.d3d9Access(surface, 0, Uint8Array.from([...y, ...uv]));
    await owner(async (own) => {
      const context = own(intel.createContext({ d3d9ExDevice: device9 }));
      const queue = own(context.createQueue());
      const luma = own(intel.createFromSurface(context, surface, 0, { access: 'read-write' }));
      const chroma = own(intel.createFromSurface(context, surface, 1, { access: 'read-write' }));
      assert.deepEqual([luma.width, luma.height, luma.format.order, luma.format.type], [16, 8, 'R', 'UNORM_INT8']);
      assert.deepEqual([chroma.width, chroma.height, chroma.format.order, chroma.format.type], [8, 4, 'RG', 'UNORM_INT8']);
      assert.deepEqual(intel.imageInfo(chroma), { resource: surface, sharedHandle: 0n, plane: 1 });
      const seenY = new Uint8Array(16 * 8);
      const seenUV = new Uint8Array(16 * 4);
      await queue.withAcquired([luma, chroma], async () => {
        own(queue.readImage(luma, seenY, { blocking: true }));
        own(queue.readImage(chroma, seenUV, { blocking: true }));
        own(queue.writeImage(chroma, inverted(seenUV), { blocking: true }));
      });
      assert.deepEqual(seenY, y);
      assert.deepEqual(seenUV, uv);
    });
    assert.deepEqual(d3d.d3d9Access(surface, 0), Uint8Array.from([...y, ...inverted(uv)]));
    await countsReturnTo([device9, surface], start);
  });

  test('9.13.4: a YV12 surface: planes in memory order, plane 1 is V and plane 2 is U (as KHR)', async () => {
    const surface = keep(d3d.d3d9Surface(device9, 8, 4, YV12, POOL_DEFAULT));
    const y = pattern(8 * 4, 18);
    const v = pattern(4 * 2, 19);
    const u = pattern(4 * 2, 20);
    d3d.d3d9Access(surface, 0, Uint8Array.from([...y, ...v, ...u]));
    await owner(async (own) => {
      const context = own(intel.createContext({ d3d9ExDevice: device9 }));
      const queue = own(context.createQueue());
      const planes = [0, 1, 2].map((plane) => own(intel.createFromSurface(context, surface, plane)));
      const seen = planes.map((p) => new Uint8Array(p.width * p.height));
      await queue.withAcquired(planes, async () => {
        planes.forEach((p, i) => {
          own(queue.readImage(p, seen[i], { blocking: true }));
        });
      });
      assert.deepEqual(seen, [y, v, u]);
    });
  });

  test('9.13.4: a plane beyond the format is CL_INVALID_VALUE; acquire twice is CL_DX9_RESOURCE_ALREADY_ACQUIRED_INTEL', async () => {
    const surface = keep(d3d.d3d9Surface(device9, 8, 8, NV12, POOL_DEFAULT));
    await owner(async (own) => {
      const context = own(intel.createContext({ d3d9ExDevice: device9 }));
      const queue = own(context.createQueue());
      clCode(() => intel.createFromSurface(context, surface, 2), 'CL_INVALID_VALUE');
      const luma = own(intel.createFromSurface(context, surface, 0));
      const scope = queue.acquire([luma]);
      clCode(() => queue.acquire([luma]), 'CL_DX9_RESOURCE_ALREADY_ACQUIRED_INTEL');
      own(scope.release());
      own(scope.event);
      await queue.finish();
    });
  });
});

describe('cl_khr_dx9_media_sharing with real D3D9Ex and DXVA adapters', () => {
  const khr = platform.getSharing('cl_khr_dx9_media_sharing');

  test('9.10.7.1: devices for D3D9Ex and DXVA media adapters', () => {
    const manager = keep(d3d.dxvaDeviceManager(device9));
    assert.equal(khr.getDevices([{ type: 'd3d9ex', adapter: device9 }]).length, 1);
    assert.equal(khr.getDevices([{ type: 'dxva', adapter: manager }]).length, 1);
  });

  test('9.10.7.2: a YV12 surface: plane 1 is V and plane 2 is U, as in memory (current Khronos text; Intel compute-runtime)', async () => {
    const surface = keep(d3d.d3d9Surface(device9, 16, 8, YV12, POOL_DEFAULT));
    const start = await settledCounts([device9, surface]);
    const y = pattern(16 * 8, 14);
    const v = pattern(8 * 4, 15);
    const u = pattern(8 * 4, 16);
    // A locked YV12 surface holds Y, then V, then U, each chroma row at half the pitch.
    d3d.d3d9Access(surface, 0, Uint8Array.from([...y, ...v, ...u]));
    await owner(async (own) => {
      const context = own(khr.createContext({ type: 'd3d9ex', adapter: device9 }));
      const queue = own(context.createQueue());
      const planes = [0, 1, 2].map((plane) => own(khr.createFromSurface(context, 'd3d9ex', surface, plane)));
      assert.deepEqual(
        planes.map((p) => [p.width, p.height]),
        [
          [16, 8],
          [8, 4],
          [8, 4],
        ],
      );
      assert.deepEqual(khr.imageInfo(planes[2]), { adapterType: 'd3d9ex', surfaceInfo: { resource: surface, sharedHandle: 0n }, plane: 2 });
      const seen = planes.map((p) => new Uint8Array(p.width * p.height));
      await queue.withAcquired(planes, async () => {
        planes.forEach((p, i) => {
          own(queue.readImage(p, seen[i], { blocking: true }));
        });
        own(queue.writeImage(planes[0], inverted(seen[0]), { blocking: true }));
      });
      assert.deepEqual(seen, [y, v, u]);
    });
    assert.deepEqual(d3d.d3d9Access(surface, 0), Uint8Array.from([...inverted(y), ...v, ...u]));
    await countsReturnTo([device9, surface], start);
  });

  test('9.10.7.2 / 9.10.7.4: an NV12 surface through a DXVA device manager; release without acquire is CL_DX9_MEDIA_SURFACE_NOT_ACQUIRED_KHR', async () => {
    const manager = keep(d3d.dxvaDeviceManager(device9));
    const surface = keep(d3d.d3d9Surface(device9, 8, 8, NV12, POOL_DEFAULT));
    const start = counts([manager, surface]);
    d3d.d3d9Access(surface, 0, pattern(8 * 12, 17));
    await owner(async (own) => {
      const context = own(khr.createContext({ type: 'dxva', adapter: manager }));
      const queue = own(context.createQueue());
      const chroma = own(khr.createFromSurface(context, 'dxva', surface, 1));
      clCode(() => queue.enqueueReleaseShared([chroma]), 'CL_DX9_MEDIA_SURFACE_NOT_ACQUIRED_KHR');
      const seen = new Uint8Array(8 * 4);
      await queue.withAcquired([chroma], async () => {
        own(queue.readImage(chroma, seen, { blocking: true }));
      });
      assert.deepEqual(seen, pattern(8 * 12, 17).subarray(64));
    });
    await countsReturnTo([manager, surface], start);
  });
});
