// The Direct3D module's typed errors: a Direct3D / DXGI / Win32 call that
// returned a failed HRESULT (with its header name), and the one error every
// call gives where Direct3D cannot be (not Windows). Names and values are the
// Windows SDK headers' (winerror.h, dxgi.h / dxgitype.h, d3d9.h, d3d10.h, d3d11.h);
// test/direct3d.test.ts checks them against the mingw-w64 headers.
import { describeValue, registerNativeErrorClasses } from '../errors';

const win32 = (code: number): number => (0x80070000 | code) >>> 0; // HRESULT_FROM_WIN32
const d3d9 = (code: number): number => (0x88760000 | code) >>> 0; // MAKE_D3DHRESULT

/** HRESULT value -> its header name. */
export const HRESULT_NAMES: Readonly<Record<number, string>> = Object.freeze({
  0x00000000: 'S_OK',
  0x00000001: 'S_FALSE',
  0x00000080: 'WAIT_ABANDONED',
  0x00000102: 'WAIT_TIMEOUT',
  0x80004001: 'E_NOTIMPL',
  0x80004002: 'E_NOINTERFACE',
  0x80004003: 'E_POINTER',
  0x80004004: 'E_ABORT',
  0x80004005: 'E_FAIL',
  0x8000ffff: 'E_UNEXPECTED',
  0x80070005: 'E_ACCESSDENIED',
  0x80070006: 'E_HANDLE',
  0x8007000e: 'E_OUTOFMEMORY',
  0x80070057: 'E_INVALIDARG',
  [win32(2)]: 'HRESULT_FROM_WIN32(ERROR_FILE_NOT_FOUND)',
  [win32(50)]: 'HRESULT_FROM_WIN32(ERROR_NOT_SUPPORTED)',
  [win32(126)]: 'HRESULT_FROM_WIN32(ERROR_MOD_NOT_FOUND)',
  [win32(127)]: 'HRESULT_FROM_WIN32(ERROR_PROC_NOT_FOUND)',
  0x887a0001: 'DXGI_ERROR_INVALID_CALL',
  0x887a0002: 'DXGI_ERROR_NOT_FOUND',
  0x887a0003: 'DXGI_ERROR_MORE_DATA',
  0x887a0004: 'DXGI_ERROR_UNSUPPORTED',
  0x887a0005: 'DXGI_ERROR_DEVICE_REMOVED',
  0x887a0006: 'DXGI_ERROR_DEVICE_HUNG',
  0x887a0007: 'DXGI_ERROR_DEVICE_RESET',
  0x887a000a: 'DXGI_ERROR_WAS_STILL_DRAWING',
  0x887a0020: 'DXGI_ERROR_DRIVER_INTERNAL_ERROR',
  0x887a0021: 'DXGI_ERROR_NONEXCLUSIVE',
  0x887a0022: 'DXGI_ERROR_NOT_CURRENTLY_AVAILABLE',
  0x887a0026: 'DXGI_ERROR_ACCESS_LOST',
  0x887a0027: 'DXGI_ERROR_WAIT_TIMEOUT',
  0x887a0028: 'DXGI_ERROR_SESSION_DISCONNECTED',
  0x887a002b: 'DXGI_ERROR_ACCESS_DENIED',
  0x887a002c: 'DXGI_ERROR_NAME_ALREADY_EXISTS',
  0x887a002d: 'DXGI_ERROR_SDK_COMPONENT_MISSING',
  0x88790001: 'D3D10_ERROR_TOO_MANY_UNIQUE_STATE_OBJECTS',
  0x88790002: 'D3D10_ERROR_FILE_NOT_FOUND',
  0x887c0001: 'D3D11_ERROR_TOO_MANY_UNIQUE_STATE_OBJECTS',
  0x887c0002: 'D3D11_ERROR_FILE_NOT_FOUND',
  0x887c0003: 'D3D11_ERROR_TOO_MANY_UNIQUE_VIEW_OBJECTS',
  [d3d9(380)]: 'D3DERR_OUTOFVIDEOMEMORY',
  [d3d9(540)]: 'D3DERR_WASSTILLDRAWING',
  [d3d9(2072)]: 'D3DERR_WRONGTEXTUREFORMAT',
  [d3d9(2087)]: 'D3DERR_DRIVERINTERNALERROR',
  [d3d9(2150)]: 'D3DERR_NOTFOUND',
  [d3d9(2151)]: 'D3DERR_MOREDATA',
  [d3d9(2152)]: 'D3DERR_DEVICELOST',
  [d3d9(2153)]: 'D3DERR_DEVICENOTRESET',
  [d3d9(2154)]: 'D3DERR_NOTAVAILABLE',
  [d3d9(2155)]: 'D3DERR_INVALIDDEVICE',
  [d3d9(2156)]: 'D3DERR_INVALIDCALL',
  [d3d9(2157)]: 'D3DERR_DRIVERINVALIDCALL',
  [d3d9(2160)]: 'D3DERR_DEVICEREMOVED',
  [d3d9(2164)]: 'D3DERR_DEVICEHUNG',
});

/** The header name of an HRESULT ('E_INVALIDARG', ...), or its hex value when it has none here. */
export function hresultName(hresult: number): string {
  if (typeof hresult !== 'number' || !Number.isInteger(hresult))
    throw new TypeError(`hresult must be an integer (an HRESULT); got ${describeValue(hresult)}`);
  const value = hresult >>> 0;
  return HRESULT_NAMES[value] ?? `HRESULT 0x${value.toString(16).padStart(8, '0')}`;
}

/** A Direct3D, DXGI or Win32 call failed: `hresult` is what it returned, `code` its header name. */
export class Direct3DError extends Error {
  override name = 'Direct3DError';
  /** The HRESULT as an unsigned 32-bit number, e.g. 0x80070057. */
  readonly hresult: number;
  /** Its name, e.g. 'E_INVALIDARG'. */
  readonly code: string;
  /** The call that failed, e.g. 'ID3D11Device::CreateTexture2D'. */
  readonly call: string;
  constructor(hresult: number, call: string, detail?: string) {
    const code = hresultName(hresult);
    super(`${call} failed: ${code} (0x${(hresult >>> 0).toString(16).padStart(8, '0')})${detail ? `: ${detail}` : ''}`);
    this.hresult = hresult >>> 0;
    this.code = code;
    this.call = call;
  }
}
// native/direct3d/ throws it by name: new Direct3DError(hresult, call, detail?).
registerNativeErrorClasses({ Direct3DError });

/**
 * Direct3D is not there: the process does not run on Windows (or the addon
 * was built without the Direct3D module). Every function of the module
 * throws it, and nothing else, in that case.
 */
export class Direct3DUnavailableError extends Error {
  override name = 'Direct3DUnavailableError';
  /** The function that was called, e.g. 'createD3D11Device'. */
  readonly call: string;
  /** process.platform. */
  readonly platform: string;
  constructor(call: string, reason?: string) {
    super(
      reason ??
        `${call}() needs Windows: Direct3D objects exist only there (this is ${process.platform}).` +
          (process.platform === 'linux' ? ' On Linux, share VA-API surfaces instead (cl_intel_va_api_media_sharing).' : ''),
    );
    this.call = call;
    this.platform = process.platform;
  }
}

/**
 * Direct3D did something without an error that does not do what was asked:
 * e.g. a D3D9Ex resource asked to be shared came back with no shared handle
 * (Wine's d3d9 does that). `feature` names what is missing.
 */
export class Direct3DFeatureError extends Error {
  override name = 'Direct3DFeatureError';
  readonly feature: string;
  constructor(feature: string, message: string) {
    super(message);
    this.feature = feature;
  }
}
