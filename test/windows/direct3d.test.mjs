// The Direct3D module through the public API, in Windows node.exe with real
// Direct3D: every function, its error cases, lifetimes, and the sharing
// facades taking its objects. Under Wine (OPENCL_INTEROP_UNDER_WINE=1, set by
// scripts/windows/test.sh) the things Wine's Direct3D lacks (shared and NT
// handles, keyed mutexes, NV12 copies between resources) are checked to fail
// with the typed error naming the call; elsewhere they must work, round trip
// included. OpenCL is the reference driver's DLL (OPENCL_INTEROP_LIBRARY).
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, test } from 'node:test';
import { d3d, ocl } from './support.mjs';

const underWine = process.env.OPENCL_INTEROP_UNDER_WINE === '1';
const { Direct3DError, Direct3DFeatureError, OpenCLReleasedError } = ocl;
const platform = ocl.getPlatforms().find((p) => p.name === 'opencl-interop reference driver');
const refDevice = platform.getDevices()[0];

function pattern(size, seed) {
  return Uint8Array.from({ length: size }, (_, i) => (i * 7 + seed) & 0xff);
}

/** A Direct3DError from `call` with header name `code`. */
function hresultError(fn, call, code) {
  assert.throws(fn, (error) => {
    assert.ok(error instanceof Direct3DError, `expected a Direct3DError, got ${error}`);
    assert.equal(error.call, call);
    if (code) assert.equal(error.code, code);
    assert.equal(typeof error.hresult, 'number');
    assert.match(error.message, new RegExp(`^${call.replace(/[()]/g, '\\$&')} failed: `));
    return true;
  });
}

const refCount = (object) => d3d.refCount(object.comPointer);

describe('adapters', () => {
  test('listAdapters: DXGI adapters with LUIDs; listD3D9Adapters: the same adapters by LUID', () => {
    const adapters = ocl.listAdapters();
    assert.ok(adapters.length >= 1);
    const [first] = adapters;
    assert.equal(first.index, 0);
    assert.equal(typeof first.description, 'string');
    assert.equal(typeof first.luid, 'bigint');
    assert.equal(typeof first.dedicatedVideoMemory, 'bigint');
    assert.ok(Object.isFrozen(first));
    const d3d9 = ocl.listD3D9Adapters();
    assert.ok(
      d3d9.some((a) => a.luid === first.luid),
      'Direct3D 9 names the default DXGI adapter by the same LUID',
    );
  });

  test('createD3D11Device: default, by index, by LUID, by OpenCL device (no LUID: the D3D11 sharing extension says which adapter)', () => {
    const luid = ocl.listAdapters()[0].luid;
    assert.equal(ocl.openclDeviceLuid(refDevice), undefined, 'the reference driver reports no LUID');
    for (const options of [
      undefined,
      {},
      { adapterIndex: 0 },
      { adapterLuid: luid },
      { openclDevice: refDevice },
      { featureLevels: ['11_0', '10_0'] },
    ]) {
      const device = ocl.createD3D11Device(options);
      assert.equal(device.adapter.luid, luid);
      assert.match(device.featureLevel, /^(11_[01]|10_[01])$/);
      assert.equal(device.kind, 'D3D11Device');
      assert.equal(typeof device.comPointer, 'bigint');
      device.dispose();
    }
  });

  test('bad adapter choices are named: two at once, an index or LUID that does not exist, not a device, bad options', () => {
    assert.throws(
      () => ocl.createD3D11Device({ adapterIndex: 0, adapterLuid: 1n }),
      /at most one of openclDevice, adapterLuid and adapterIndex; got adapterLuid, adapterIndex/,
    );
    assert.throws(
      () => ocl.createD3D11Device({ adapterIndex: 99 }),
      (e) => e instanceof RangeError && /adapterIndex 99 is out of range; the adapters are 0: /.test(e.message),
    );
    assert.throws(
      () => ocl.createD3D11Device({ adapterLuid: 0x7777n }),
      (e) => e instanceof RangeError && /no adapter has LUID 0x7777/.test(e.message),
    );
    assert.throws(() => ocl.createD3D11Device({ adapterLuid: 5 }), /options.adapterLuid must be a 64-bit bigint; got number 5/);
    assert.throws(() => ocl.createD3D11Device({ openclDevice: {} }), /options.openclDevice must be an OpenCL Device/);
    assert.throws(() => ocl.createD3D11Device({ featureLevels: ['12_0'] }), /featureLevels must be a non-empty array/);
    assert.throws(() => ocl.createD3D11Device({ adapter: 0 }), /options.adapter is not an option/);
    assert.throws(() => ocl.createD3D11Device('gpu'), /options must be an object; got the string "gpu"/);
    assert.throws(() => ocl.createD3D11Device({ debug: 'yes' }), /options.debug must be a boolean/);
  });
});

describe('Direct3D 11 objects', () => {
  test('buffers: default, immutable (with data), dynamic, staging; write and read back; their checks', () => {
    const device = ocl.createD3D11Device();
    const plain = device.createBuffer({ size: 64, bind: ['vertex-buffer'] });
    assert.deepEqual(
      [plain.kind, plain.description.dimension, plain.description.size, plain.description.usage],
      ['D3D11Buffer', 'buffer', 64, 'default'],
    );
    plain.write(pattern(64, 1));
    assert.deepEqual(plain.read(), pattern(64, 1));
    const immutable = device.createBuffer({ size: 16, usage: 'immutable', bind: ['vertex-buffer'], data: pattern(16, 2) });
    assert.deepEqual(immutable.read(), pattern(16, 2));
    assert.throws(() => immutable.write(pattern(16, 3)), /an immutable D3D11Buffer cannot be written/);
    const dynamic = device.createBuffer({ size: 32, usage: 'dynamic', bind: ['vertex-buffer'] });
    dynamic.write(pattern(32, 4));
    assert.deepEqual(dynamic.read(), pattern(32, 4));
    const staging = device.createBuffer({ size: 8, usage: 'staging' });
    staging.write(new Float32Array([1.5, -2]));
    assert.deepEqual(new Float32Array(staging.read().buffer), new Float32Array([1.5, -2]));
    assert.throws(() => device.createBuffer({ size: 0 }), /options.size must be an integer from 1/);
    assert.throws(() => device.createBuffer(), /options must give the buffer size/);
    assert.throws(() => device.createBuffer({ size: 4, usage: 'immutable' }), /needs its contents: options.data/);
    assert.throws(() => device.createBuffer({ size: 4, data: new Uint8Array(3) }), /options.data must hold options.size \(4\) bytes; it holds 3/);
    assert.throws(() => device.createBuffer({ size: 4, bind: ['shader'] }), /options.bind takes 'vertex-buffer'/);
    assert.throws(
      () => device.createBuffer({ size: 4, shared: 'yes' }),
      /options.shared must be false or 'legacy', 'keyed-mutex', 'nt', 'nt-keyed-mutex'/,
    );
    assert.throws(() => plain.write(new Uint8Array(63)), /data must hold 64 bytes for this buffer; it holds 63/);
    assert.throws(() => plain.write('bytes'), /data must be a Uint8Array, another typed array or an ArrayBuffer/);
    assert.throws(() => plain.read({ plane: 0 }), /a buffer has one subresource and no planes/);
    // Direct3D's own refusals carry the HRESULT and the call.
    hresultError(() => device.createBuffer({ size: 4, usage: 'dynamic' }), 'ID3D11Device::CreateBuffer', 'E_INVALIDARG');
    for (const object of [plain, immutable, dynamic, staging, device]) object.dispose();
  });

  test('2D textures: subresources by index or mip / slice, description, format support; 3D textures by mip level', () => {
    const device = ocl.createD3D11Device();
    const texture = device.createTexture2D({ width: 16, height: 8, format: 'DXGI_FORMAT_R8G8B8A8_UNORM', mipLevels: 2, arraySize: 2 });
    const d = texture.description;
    assert.deepEqual(
      [d.dimension, d.width, d.height, d.mipLevels, d.arraySize, d.format, d.formatName, d.usage, d.bindFlags],
      ['texture2d', 16, 8, 2, 2, 28, 'DXGI_FORMAT_R8G8B8A8_UNORM', 'default', 8],
    );
    texture.write(pattern(16 * 8 * 4, 5));
    texture.write(pattern(8 * 4 * 4, 6), { mipLevel: 1, arraySlice: 1 });
    assert.deepEqual(texture.read(), pattern(16 * 8 * 4, 5));
    assert.deepEqual(texture.read({ subresource: 3 }), pattern(8 * 4 * 4, 6));
    assert.throws(() => texture.read({ subresource: 4 }), /options.subresource must be an integer from 0 to 3/);
    assert.throws(() => texture.read({ subresource: 1, mipLevel: 1 }), /give options.subresource or mipLevel \/ arraySlice, not both/);
    assert.throws(() => texture.read({ plane: 1 }), /options.plane must be an integer from 0 to 0/);
    assert.throws(() => texture.read({ level: 0 }), /options.level is not an option/);
    const volume = device.createTexture3D({ width: 8, height: 4, depth: 4, mipLevels: 2, format: 'DXGI_FORMAT_R32_FLOAT' });
    volume.write(pattern(4 * 2 * 2 * 4, 7), { mipLevel: 1 });
    assert.deepEqual(volume.read({ subresource: 1 }), pattern(4 * 2 * 2 * 4, 7));
    assert.equal(volume.description.depth, 4);
    assert.throws(() => volume.read({ arraySlice: 0 }), /a 3D texture has no array slices/);
    assert.ok(device.formatSupport('DXGI_FORMAT_R8G8B8A8_UNORM') & 0x20, 'D3D11_FORMAT_SUPPORT_TEXTURE2D');
    device.flush();
    assert.throws(() => device.createTexture2D({ width: 4, height: 4, format: 'RGBA8' }), /options.format must be a DXGI_FORMAT name/);
    assert.throws(
      () => device.createTexture2D({ width: 0, height: 4, format: 28 }),
      /options.width must be an integer from 1 to 16384; got number 0/,
    );
    const msaa = device.createTexture2D({ width: 4, height: 4, format: 'DXGI_FORMAT_R8G8B8A8_UNORM', sampleCount: 4, bind: ['render-target'] });
    assert.throws(() => msaa.read(), /a multisampled D3D11Texture2D cannot be read or written/);
    const other = device.createTexture2D({ width: 4, height: 4, format: 88 }); // DXGI_FORMAT_B8G8R8X8_UNORM: in no sharing table
    assert.throws(() => other.read(), /DXGI_FORMAT 88 is not a format of the sharing tables/);
    for (const object of [texture, volume, msaa, other, device]) object.dispose();
  });

  test('NV12 textures: Y and UV planes read and written one by one or together; even sizes', () => {
    const device = ocl.createD3D11Device();
    const y = pattern(16 * 8, 8);
    const uv = pattern(16 * 4, 9);
    // Wine copies no NV12 data between resources: STAGING textures are mapped directly, DEFAULT ones go through a copy.
    const staging = device.createTexture2D({ width: 16, height: 8, format: 'DXGI_FORMAT_NV12', usage: 'staging' });
    staging.write(y, { plane: 0 });
    staging.write(uv, { plane: 1 });
    assert.deepEqual(staging.read({ plane: 0 }), y);
    assert.deepEqual(staging.read({ plane: 1 }), uv);
    assert.deepEqual(staging.read(), Uint8Array.from([...y, ...uv]));
    staging.write(Uint8Array.from([...uv, ...y]));
    assert.deepEqual(staging.read({ plane: 1 }), y.subarray(64));
    assert.throws(() => staging.write(y, { plane: 1 }), /data must hold 64 bytes for this plane 1; it holds 128/);
    assert.throws(() => staging.read({ plane: 2 }), /options.plane must be an integer from 0 to 1/);
    assert.throws(() => device.createTexture2D({ width: 15, height: 8, format: 'DXGI_FORMAT_NV12' }), /DXGI_FORMAT_NV12 textures have even sizes/);
    const plain = device.createTexture2D({ width: 16, height: 8, format: 'DXGI_FORMAT_NV12' });
    plain.write(y, { plane: 0 });
    if (!underWine) assert.deepEqual(plain.read({ plane: 0 }), y);
    for (const object of [staging, plain, device]) object.dispose();
  });

  test('shared resources: legacy handles, NT handles (the bytes Electron gives), keyed mutexes', () => {
    const producer = ocl.createD3D11Device();
    const consumer = ocl.createD3D11Device();
    const legacy = producer.createTexture2D({ width: 8, height: 8, format: 'DXGI_FORMAT_B8G8R8A8_UNORM', shared: 'legacy' });
    const nt = producer.createTexture2D({ width: 8, height: 8, format: 'DXGI_FORMAT_B8G8R8A8_UNORM', shared: 'nt' });
    const keyed = producer.createTexture2D({ width: 8, height: 8, format: 'DXGI_FORMAT_B8G8R8A8_UNORM', shared: 'nt-keyed-mutex' });
    assert.equal(legacy.description.miscFlags, 0x2);
    assert.equal(nt.description.miscFlags, 0x802);
    assert.equal(keyed.description.miscFlags, 0x900);
    // Handles are checked before Direct3D sees them.
    assert.throws(
      () => consumer.openSharedResource(new Uint8Array(3)),
      /handle must be a bigint, the handle's 8 \(or 4\) little-endian bytes .* of 3 bytes/,
    );
    assert.throws(() => consumer.openSharedResource(0n), /handle must be a non-zero handle/);
    assert.throws(() => consumer.openSharedResource('0x10'), /handle must be a bigint/);
    assert.throws(() => nt.createSharedHandle('write'), /access must be 'read', 'read-write'/);
    assert.throws(() => keyed.acquireSync(-1), /key must be a non-negative integer/);
    assert.throws(() => keyed.acquireSync(0, 120_000), /timeoutMs must be an integer from 0 to 60000/);
    if (underWine) {
      // Wine's dxgi / d3d11: no shared handles, no IDXGIResource1, no keyed mutex.
      hresultError(() => legacy.sharedHandle, 'IDXGIResource::GetSharedHandle', 'E_NOTIMPL');
      hresultError(() => nt.createSharedHandle(), 'QueryInterface(IDXGIResource1)', 'E_NOINTERFACE');
      hresultError(() => consumer.openSharedResource(Uint8Array.of(4, 0, 0, 0, 0, 0, 0, 0)), 'ID3D11Device1::OpenSharedResource1', 'E_NOTIMPL');
      hresultError(() => consumer.openSharedResource(4n), 'ID3D11Device::OpenSharedResource', 'E_NOTIMPL');
      hresultError(() => keyed.acquireSync(0, 0), 'QueryInterface(IDXGIKeyedMutex)', 'E_NOINTERFACE');
      hresultError(() => keyed.releaseSync(0), 'QueryInterface(IDXGIKeyedMutex)', 'E_NOINTERFACE');
      // A SharedHandle is an NT handle: it goes to OpenSharedResource1. (Made here from a number, never closed.)
      const fake = new ocl.SharedHandle(0x1234n);
      assert.deepEqual([...fake.toBytes()], [0x34, 0x12, 0, 0, 0, 0, 0, 0]);
      hresultError(() => consumer.openSharedResource(fake), 'ID3D11Device1::OpenSharedResource1', 'E_NOTIMPL');
      hresultError(() => consumer.openSharedResource(0x1234n, { nt: true }), 'ID3D11Device1::OpenSharedResource1', 'E_NOTIMPL');
    } else {
      legacy.write(pattern(256, 10));
      producer.flush();
      const viaLegacy = consumer.openSharedResource(legacy.sharedHandle);
      assert.ok(viaLegacy instanceof ocl.D3D11Texture2D);
      assert.deepEqual(viaLegacy.read(), pattern(256, 10));
      nt.write(pattern(256, 11));
      producer.flush();
      const handle = nt.createSharedHandle();
      const electronBytes = handle.toBytes();
      assert.equal(electronBytes.byteLength, 8);
      const viaNt = consumer.openSharedResource(electronBytes);
      assert.deepEqual(viaNt.read(), pattern(256, 11));
      const viaBigint = consumer.openSharedResource(handle.handle, { nt: true });
      assert.equal(viaBigint.description.width, 8);
      handle.dispose();
      handle.dispose();
      assert.throws(() => handle.handle, OpenCLReleasedError);
      assert.equal(keyed.acquireSync(0, 1000), true);
      keyed.releaseSync(1);
      for (const object of [viaLegacy, viaNt, viaBigint]) object.dispose();
    }
    for (const object of [legacy, nt, keyed, producer, consumer]) object.dispose();
  });
});

describe('Direct3D 10.1 objects', () => {
  test('device, adapter, buffers and textures read and written; legacy handles only', () => {
    const device = ocl.createD3D10Device({ adapterIndex: 0 });
    assert.match(device.featureLevel, /^10_[01]$/);
    const adapter = device.dxgiAdapter();
    assert.equal(adapter.kind, 'DXGIAdapter');
    const buffer = device.createBuffer({ size: 16, bind: ['vertex-buffer'] });
    buffer.write(pattern(16, 12));
    assert.deepEqual(buffer.read(), pattern(16, 12));
    const texture = device.createTexture2D({ width: 8, height: 4, format: 'DXGI_FORMAT_R16G16_FLOAT', arraySize: 3 });
    texture.write(pattern(8 * 4 * 4, 13), { arraySlice: 2 });
    assert.deepEqual(texture.read({ subresource: 2 }), pattern(8 * 4 * 4, 13));
    const volume = device.createTexture3D({ width: 4, height: 4, depth: 2, format: 'DXGI_FORMAT_R8_UNORM' });
    volume.write(pattern(32, 14));
    assert.deepEqual(volume.read(), pattern(32, 14));
    assert.throws(
      () => device.createTexture2D({ width: 4, height: 4, format: 28, shared: 'nt' }),
      /options.shared must be false or 'legacy', 'keyed-mutex'/,
    );
    assert.throws(() => device.openSharedResource(new ocl.SharedHandle(5n)), /Direct3D 10 opens legacy shared handles only/);
    if (underWine) hresultError(() => device.openSharedResource(4n), 'ID3D10Device::OpenSharedResource', 'E_NOTIMPL');
    assert.throws(() => ocl.createD3D10Device({ featureLevels: ['11_0'] }), /featureLevels must be a non-empty array of '10_1'/);
    device.flush();
    for (const object of [adapter, buffer, texture, volume, device]) object.dispose();
  });
});

describe('Direct3D 9Ex objects', () => {
  test('device on an adapter, device manager, surfaces (A8R8G8B8, NV12, YV12, render target), textures, cube and volume levels, buffers', () => {
    const device = ocl.createD3D9Device({ openclDevice: refDevice });
    assert.equal(device.adapter.luid, ocl.listAdapters()[0].luid);
    const manager = device.createDeviceManager();
    assert.equal(manager.kind, 'D3D9DeviceManager');
    assert.equal(typeof manager.resetToken, 'number');
    const argb = device.createOffscreenPlainSurface({ width: 8, height: 4, format: 'D3DFMT_A8R8G8B8' });
    argb.write(pattern(128, 15));
    assert.deepEqual(argb.read(), pattern(128, 15));
    assert.deepEqual([argb.description.formatName, argb.description.pool, argb.sharedHandle], ['D3DFMT_A8R8G8B8', 'default', null]);
    const nv12 = device.createOffscreenPlainSurface({ width: 8, height: 4, format: 'NV12' });
    nv12.write(pattern(32, 16), { plane: 0 });
    nv12.write(pattern(16, 17), { plane: 1 });
    assert.deepEqual(nv12.read(), Uint8Array.from([...pattern(32, 16), ...pattern(16, 17)]));
    const yv12 = device.createOffscreenPlainSurface({ width: 8, height: 4, format: 'YV12' });
    yv12.write(Uint8Array.from([...pattern(32, 18), ...pattern(8, 19), ...pattern(8, 20)]));
    assert.deepEqual([yv12.read({ plane: 1 }), yv12.read({ plane: 2 })], [pattern(8, 19), pattern(8, 20)]);
    const target = device.createRenderTarget({ width: 8, height: 4, format: 'D3DFMT_X8R8G8B8' });
    target.write(pattern(128, 21));
    assert.deepEqual(target.read(), pattern(128, 21));
    const texture = device.createTexture({ width: 8, height: 8, levels: 2, format: 'D3DFMT_A8R8G8B8', usage: ['dynamic'] });
    texture.write(pattern(4 * 4 * 4, 22), { level: 1 });
    assert.deepEqual(texture.read({ level: 1 }), pattern(64, 22));
    const level = texture.surface(1);
    assert.equal(level.container, texture);
    assert.equal(level.description.width, 4);
    assert.throws(() => texture.surface(2), /level must be an integer from 0 to 1/);
    const cube = device.createCubeTexture({ edgeLength: 4, format: 'D3DFMT_A8R8G8B8', usage: ['render-target'] });
    cube.write(pattern(64, 23), { face: 3 });
    assert.deepEqual(cube.read({ face: 3 }), pattern(64, 23));
    assert.throws(() => cube.surface(6), /face must be an integer from 0 to 5/);
    const volume = device.createVolumeTexture({ width: 4, height: 4, depth: 2, format: 'D3DFMT_L8', usage: ['dynamic'] });
    volume.write(pattern(32, 24));
    assert.deepEqual(volume.read(), pattern(32, 24));
    const vertices = device.createVertexBuffer({ size: 48 });
    vertices.write(pattern(48, 25));
    assert.deepEqual(vertices.read(), pattern(48, 25));
    const indices = device.createIndexBuffer({ size: 12, format: 'D3DFMT_INDEX32' });
    indices.write(pattern(12, 26));
    assert.deepEqual([indices.read(), indices.description.format], [pattern(12, 26), 102]);
    assert.throws(
      () => device.createOffscreenPlainSurface({ width: 8, height: 4, format: 'D3DFMT_A8R8G8B8', pool: 'managed' }),
      /options.pool must be 'default', 'systemmem', 'scratch'/,
    );
    assert.throws(() => device.createIndexBuffer({ size: 4, format: 'D3DFMT_INDEX8' }), /options.format must be 'D3DFMT_INDEX16', 'D3DFMT_INDEX32'/);
    assert.throws(() => argb.write(pattern(127, 0)), /data must hold 128 bytes; it holds 127/);
    hresultError(
      () => device.createOffscreenPlainSurface({ width: 8, height: 4, format: 12345 }),
      'IDirect3DDevice9::CreateOffscreenPlainSurface',
      'D3DERR_INVALIDCALL',
    );
    if (underWine) {
      assert.throws(
        () => device.createTexture({ width: 8, height: 8, format: 'D3DFMT_A8R8G8B8', usage: ['render-target'], shared: true }),
        (e) =>
          e instanceof Direct3DFeatureError &&
          e.feature === 'D3D9Ex shared handles' &&
          /createTexture: Direct3D 9Ex created the resource but gave no shared handle/.test(e.message),
      );
    } else {
      const shared = device.createTexture({ width: 8, height: 8, format: 'D3DFMT_A8R8G8B8', usage: ['render-target'], shared: true });
      assert.equal(typeof shared.sharedHandle, 'bigint');
      const other = ocl.createD3D9Device();
      const opened = other.createTexture({ width: 8, height: 8, format: 'D3DFMT_A8R8G8B8', usage: ['render-target'], shared: shared.sharedHandle });
      assert.equal(opened.sharedHandle, shared.sharedHandle);
      for (const object of [opened, other, shared]) object.dispose();
    }
    for (const object of [level, manager, argb, nv12, yv12, target, texture, cube, volume, vertices, indices, device]) object.dispose();
  });
});

describe('lifetimes', () => {
  test('a disposed device keeps working for its textures (they hold it); using it, or a disposed object, is OpenCLReleasedError; dispose is idempotent', () => {
    const device = ocl.createD3D11Device();
    const before = refCount(device);
    const texture = device.createTexture2D({ width: 4, height: 4, format: 'DXGI_FORMAT_R8G8B8A8_UNORM' });
    // The wrapper's own reference, plus whatever Direct3D's texture keeps (Wine's keeps one).
    assert.ok(refCount(device) > before, 'the texture holds its device');
    const address = device.comPointer;
    device.dispose();
    device.dispose();
    assert.equal(device.disposed, true);
    texture.write(pattern(64, 27));
    assert.deepEqual(texture.read(), pattern(64, 27));
    assert.equal(texture.device, device);
    assert.throws(
      () => device.comPointer,
      (e) => e instanceof OpenCLReleasedError && e.kind === 'D3D11Device',
    );
    assert.throws(() => device.createBuffer({ size: 4 }), OpenCLReleasedError);
    assert.ok(d3d.refCount(address) >= 1, 'the device lives on inside the texture');
    texture[Symbol.dispose]();
    assert.throws(
      () => texture.read(),
      (e) => e instanceof OpenCLReleasedError && e.kind === 'D3D11Texture2D',
    );
  });

  test('dropped objects are released by the garbage collector: a device comes back to its reference count', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc');
    const device = ocl.createD3D11Device();
    const before = refCount(device);
    (() => {
      for (let i = 0; i < 50; i++) device.createTexture2D({ width: 4, height: 4, format: 'DXGI_FORMAT_R8_UNORM' });
    })();
    assert.ok(refCount(device) > before);
    for (let i = 0; i < 20 && refCount(device) !== before; i++) {
      gc();
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.equal(refCount(device), before);
    device.dispose();
  });
});

describe("the sharing facades take the module's objects as they are", () => {
  const pixels = pattern(8 * 8 * 4, 28);

  for (const [extension, suffix] of [
    ['cl_khr_d3d11_sharing', 'KHR'],
    ['cl_nv_d3d11_sharing', 'NV'],
  ]) {
    test(`${extension}: device, adapter and texture objects; contents both ways; a disposed object is refused`, async () => {
      const sharing = platform.getSharing(extension);
      const device = ocl.createD3D11Device({ openclDevice: refDevice });
      const adapter = device.dxgiAdapter();
      assert.equal(sharing.getDevices({ device }).length, 1);
      assert.equal(sharing.getDevices({ dxgiAdapter: adapter }, 'all').length, 1);
      const texture = device.createTexture2D({ width: 8, height: 8, format: 'DXGI_FORMAT_R8G8B8A8_UNORM' });
      texture.write(pixels);
      const context = sharing.createContext(device);
      const queue = context.createQueue();
      const image = sharing.createFromTexture2D(context, texture, 0);
      assert.deepEqual(sharing.objectInfo(image), { resource: texture.comPointer, subresource: 0 });
      assert.equal(sharing.createFromTexture2D(context, texture.comPointer, 0), image, 'one memory object per subresource, by object or by address');
      const seen = new Uint8Array(pixels.length);
      await queue.withAcquired([image], async () => {
        queue.readImage(image, seen, { blocking: true }).release();
        queue
          .writeImage(
            image,
            pixels.map((b) => 255 - b),
            { blocking: true },
          )
          .release();
      });
      assert.deepEqual(seen, pixels);
      assert.deepEqual(
        texture.read(),
        pixels.map((b) => 255 - b),
      );
      const gone = device.createBuffer({ size: 16, bind: ['vertex-buffer'] });
      gone.dispose();
      assert.throws(
        () => sharing.createFromBuffer(context, gone),
        (e) => e instanceof OpenCLReleasedError && e.kind === 'D3D11Buffer',
      );
      assert.throws(() => sharing.createFromBuffer(context, {}), /resource must be a non-zero bigint address or a Direct3D object/);
      assert.throws(
        () => sharing.createFromTexture3D(context, texture, 0),
        (e) => e.code === `CL_INVALID_D3D11_RESOURCE_${suffix}`,
      );
      image.release();
      queue.release();
      context.release();
      for (const object of [texture, adapter, device]) object.dispose();
    });
  }

  test('cl_khr_d3d11_sharing with cl_intel_d3d11_nv12_media_sharing: an NV12 texture object as Y and UV images', async () => {
    const sharing = platform.getSharing('cl_khr_d3d11_sharing');
    assert.equal(sharing.sharesNV12, true);
    const device = ocl.createD3D11Device();
    const texture = device.createTexture2D({ width: 16, height: 8, format: 'DXGI_FORMAT_NV12', usage: 'staging' });
    texture.write(pattern(16 * 12, 29));
    const context = sharing.createContext(device);
    const queue = context.createQueue();
    const { y, uv } = sharing.createFromNV12Texture(context, texture);
    assert.deepEqual([y.width, y.height, y.format.order, uv.width, uv.height, uv.format.order], [16, 8, 'R', 8, 4, 'RG']);
    const seen = new Uint8Array(64);
    await queue.withAcquired([y, uv], async () => {
      queue.readImage(uv, seen, { blocking: true }).release();
      queue.writeImage(y, new Uint8Array(128).fill(99), { blocking: true }).release();
    });
    assert.deepEqual(seen, pattern(16 * 12, 29).subarray(128));
    assert.deepEqual(texture.read({ plane: 0 }), new Uint8Array(128).fill(99));
    assert.deepEqual(texture.read({ plane: 1 }), seen, 'the plane OpenCL did not write is kept');
    for (const object of [y, uv, queue, context]) object.release();
    texture.dispose();
    device.dispose();
  });

  test('cl_khr_d3d10_sharing, cl_nv_d3d9_sharing, cl_intel_dx9_media_sharing and cl_khr_dx9_media_sharing with objects', async () => {
    const d3d10 = platform.getSharing('cl_khr_d3d10_sharing');
    const device10 = ocl.createD3D10Device();
    const buffer10 = device10.createBuffer({ size: 32, bind: ['vertex-buffer'] });
    const context10 = d3d10.createContext(device10);
    const mem10 = d3d10.createFromBuffer(context10, buffer10);
    assert.deepEqual(d3d10.objectInfo(mem10), { resource: buffer10.comPointer });
    mem10.release();
    context10.release();

    const device9 = ocl.createD3D9Device();
    const manager = device9.createDeviceManager();
    const surface = device9.createOffscreenPlainSurface({ width: 8, height: 4, format: 'NV12' });
    surface.write(pattern(48, 30));
    const nv = platform.getSharing('cl_nv_d3d9_sharing');
    const contextNv = nv.createContext(device9);
    const argb = device9.createOffscreenPlainSurface({ width: 4, height: 4, format: 'D3DFMT_A8R8G8B8' });
    const memNv = nv.createFromSurface(contextNv, argb);
    assert.equal(nv.objectInfo(memNv).resource, argb.comPointer);
    memNv.release();
    contextNv.release();

    const intel = platform.getSharing('cl_intel_dx9_media_sharing');
    assert.equal(intel.getDevices({ dxvaDevice: manager }).length, 1);
    const contextIntel = intel.createContext({ d3d9ExDevice: device9 });
    const luma = intel.createFromSurface(contextIntel, surface, 0);
    assert.deepEqual(intel.imageInfo(luma), { resource: surface.comPointer, sharedHandle: 0n, plane: 0 });
    luma.release();
    contextIntel.release();

    const khr = platform.getSharing('cl_khr_dx9_media_sharing');
    const contextKhr = khr.createContext({ type: 'dxva', adapter: manager });
    const queue = contextKhr.createQueue();
    const chroma = khr.createFromSurface(contextKhr, 'dxva', surface, 1);
    const seen = new Uint8Array(16);
    await queue.withAcquired([chroma], async () => {
      queue.readImage(chroma, seen, { blocking: true }).release();
    });
    assert.deepEqual(seen, pattern(48, 30).subarray(32));
    chroma.release();
    queue.release();
    contextKhr.release();
    for (const object of [buffer10, device10, argb, surface, manager, device9]) object.dispose();
  });
});
