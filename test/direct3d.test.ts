// The Direct3D module off Windows: it imports, and each of its functions throws
// one typed error, Direct3DUnavailableError, whatever it is given. Its HRESULT
// names are the Windows SDK's (checked against the mingw-w64 headers where
// they are installed). The sharing facades take any object with a
// `comPointer` (what the module's objects are) as well as a bigint, here on
// the reference driver's simulated D3D objects. The module itself runs under
// Wine: test/windows/direct3d.test.mjs.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  D3DFMT,
  D3D11Device,
  D3D11Texture2D,
  D3D9Surface,
  Direct3DError,
  Direct3DUnavailableError,
  HRESULT_NAMES,
  OpenCLReleasedError,
  createD3D10Device,
  createD3D11Device,
  createD3D9Device,
  hresultName,
  listAdapters,
  listD3D9Adapters,
  openclDeviceLuid,
} from '../lib';
import { live, platform, ref, refDevice } from './helpers/ref-driver';

const calls: [string, (arg?: never) => unknown][] = [
  ['createD3D11Device', createD3D11Device as (arg?: never) => unknown],
  ['createD3D10Device', createD3D10Device as (arg?: never) => unknown],
  ['createD3D9Device', createD3D9Device as (arg?: never) => unknown],
  ['listAdapters', listAdapters],
  ['listD3D9Adapters', listD3D9Adapters],
];

describe.skipIf(process.platform === 'win32')('the Direct3D module off Windows', () => {
  it.each(calls)('%s() throws Direct3DUnavailableError, and nothing else, whatever it is given', (name, fn) => {
    for (const arg of [undefined, {}, { adapterIndex: -1 }, 'nonsense', { openclDevice: refDevice }]) {
      let thrown: unknown;
      try {
        fn(arg as never);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(Direct3DUnavailableError);
      const error = thrown as Direct3DUnavailableError;
      expect(error.name).toBe('Direct3DUnavailableError');
      expect(error.call).toBe(name);
      expect(error.platform).toBe(process.platform);
      expect(error.message).toBe(
        `${name}() needs Windows: Direct3D objects exist only there (this is ${process.platform}).` +
          (process.platform === 'linux' ? ' On Linux, share VA-API surfaces instead (cl_intel_va_api_media_sharing).' : ''),
      );
    }
  });

  it('its classes are there to name and check against, but come only from those functions', () => {
    for (const type of [D3D11Device, D3D11Texture2D, D3D9Surface]) expect(typeof type).toBe('function');
  });

  it('openclDeviceLuid: a LUID names a Windows adapter, so off Windows it is Direct3DUnavailableError too, whatever it is given', () => {
    for (const arg of [refDevice, undefined]) expect(() => openclDeviceLuid(arg as never)).toThrow(Direct3DUnavailableError);
  });
});

describe('HRESULT names', () => {
  it('name the codes Direct3D, DXGI and Win32 return, and show others in hex', () => {
    expect(hresultName(0x80070057)).toBe('E_INVALIDARG');
    expect(hresultName(-2147024809)).toBe('E_INVALIDARG');
    expect(hresultName(0x887a0005)).toBe('DXGI_ERROR_DEVICE_REMOVED');
    expect(hresultName(0x8876086c)).toBe('D3DERR_INVALIDCALL');
    expect(hresultName(0x12345678)).toBe('HRESULT 0x12345678');
    const error = new Direct3DError(0x80004001, 'ID3D11Device1::OpenSharedResource1');
    expect([error.hresult, error.code, error.call, error.message]).toEqual([
      0x80004001,
      'E_NOTIMPL',
      'ID3D11Device1::OpenSharedResource1',
      'ID3D11Device1::OpenSharedResource1 failed: E_NOTIMPL (0x80004001)',
    ]);
  });

  const include = '/usr/share/mingw-w64/include';
  it('are the values of the mingw-w64 headers (winerror.h, winnt.h / winbase.h, dxgi.h / dxgitype.h, d3d9.h, d3d10.h, d3d11.h)', () => {
    expect(existsSync(include), `${include} is missing: apt-get install mingw-w64-common (npm test installs it as root)`).toBe(true);
    const text = ['winerror.h', 'winnt.h', 'winbase.h', 'dxgi.h', 'dxgitype.h', 'd3d9.h', 'd3d10.h', 'd3d11.h']
      .filter((file) => existsSync(`${include}/${file}`))
      .map((file) => readFileSync(`${include}/${file}`, 'utf8'))
      .join('\n');
    const headerValue = (name: string): number | undefined => {
      const win32 = /^HRESULT_FROM_WIN32\((\w+)\)$/.exec(name);
      if (win32) {
        const code = new RegExp(`#define ${win32[1]} __MSABI_LONG\\((\\d+)\\)`).exec(text);
        return code ? (0x80070000 | Number(code[1])) >>> 0 : undefined;
      }
      const typed = new RegExp(`#define ${name}\\s+_HRESULT_TYPEDEF_\\((0x[0-9A-Fa-f]+)L?\\)`).exec(text);
      if (typed) return Number(typed[1]) >>> 0;
      const d3d9 = new RegExp(`#define ${name}\\s+MAKE_D3DHRESULT\\((\\d+)\\)`).exec(text);
      if (d3d9) return (0x88760000 | Number(d3d9[1])) >>> 0;
      const cast = new RegExp(`#define ${name}\\s+\\(\\((?:HRESULT|DWORD)\\)(0x[0-9A-Fa-f]+)\\)`).exec(text);
      if (cast) return Number(cast[1]) >>> 0;
      const alias = new RegExp(`#define ${name}\\s+\\(\\((\\w+)\\) \\+ 0\\)`).exec(text);
      if (alias) return headerValue(alias[1]!);
      const plain = new RegExp(`#define ${name}\\s+(?:__MSABI_LONG\\()?(0x[0-9A-Fa-f]+|\\d+)L?\\)?\\s*$`, 'm').exec(text);
      return plain ? Number(plain[1]) >>> 0 : undefined;
    };
    const checked = Object.entries(HRESULT_NAMES).map(([value, name]) => [name, headerValue(name), Number(value)]);
    const missing = checked.filter(([, found]) => found === undefined).map(([name]) => name);
    expect(missing).toEqual([]);
    for (const [name, found, value] of checked) if (found !== undefined) expect([name, found]).toEqual([name, value]);
  });
});

describe("the sharing facades take objects with a comPointer (the Direct3D module's), read at the call", () => {
  it('cl_khr_d3d11_sharing: a device and a texture given as objects; a disposed one is refused before the driver', () => {
    const before = live();
    const d3d11 = platform.getSharing('cl_khr_d3d11_sharing');
    const device = ref.d3d11CreateDevice();
    const texture = ref.d3d11CreateTexture2D(device, { width: 8, height: 8, format: 28 });
    const asObject = (address: bigint) => ({ comPointer: address });
    expect(d3d11.getDevices({ device: asObject(device) })).toEqual([refDevice]);
    const context = d3d11.createContext(asObject(device));
    expect(context.interop?.handle).toBe(device);
    const image = d3d11.createFromTexture2D(context, asObject(texture), 0);
    expect(d3d11.objectInfo(image)).toEqual({ resource: texture, subresource: 0 });
    expect(d3d11.createFromTexture2D(context, texture, 0)).toBe(image);
    const disposed = {
      get comPointer(): bigint {
        throw new OpenCLReleasedError('D3D11Texture2D');
      },
    };
    expect(() => d3d11.createFromTexture2D(context, disposed, 1)).toThrow(OpenCLReleasedError);
    expect(() => d3d11.createFromTexture2D(context, { comPointer: 0n }, 0)).toThrow(
      /resource must be a non-zero bigint address or a Direct3D object/,
    );
    expect(() => d3d11.createFromTexture2D(context, { address: texture } as never, 0)).toThrow(TypeError);
    image.release();
    context.release();
    ref.release(texture);
    ref.release(device);
    expect(live()).toEqual(before);
  });

  it("cl_khr_dx9_media_sharing and cl_intel_dx9_media_sharing: a surface object's own sharedHandle is passed when none is given", () => {
    const khr = platform.getSharing('cl_khr_dx9_media_sharing');
    const intel = platform.getSharing('cl_intel_dx9_media_sharing');
    const device = ref.d3d9CreateDevice('d3d9ex');
    const { surface, sharedHandle } = ref.d3d9CreateSurface(device, D3DFMT.NV12, 8, 8, { shared: true });
    expect(sharedHandle).not.toBe(0n);
    const object = { comPointer: surface, sharedHandle };
    const contextKhr = khr.createContext({ type: 'd3d9ex', adapter: { comPointer: device } });
    const plane = khr.createFromSurface(contextKhr, 'd3d9ex', object, 0);
    expect(khr.imageInfo(plane).surfaceInfo).toEqual({ resource: surface, sharedHandle });
    plane.release();
    contextKhr.release();
    const contextIntel = intel.createContext({ d3d9ExDevice: { comPointer: device } });
    const luma = intel.createFromSurface(contextIntel, { comPointer: surface, sharedHandle: null } as never, 0);
    expect(intel.imageInfo(luma).sharedHandle).toBe(0n);
    luma.release();
    contextIntel.release();
    ref.release(surface);
    ref.release(device);
  });
});
