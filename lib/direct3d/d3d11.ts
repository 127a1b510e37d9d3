// Direct3D 11 from Node (Windows): a device on the adapter of an OpenCL
// device (or one chosen by LUID / index, or the default), buffers, 2D (NV12
// included) and 3D textures, created shared (legacy, keyed mutex, NT handle)
// or opened from a shared handle (ID3D11Device1::OpenSharedResource1 for the
// NT handles Electron gives), contents read and written. The objects go to
// cl_khr_d3d11_sharing / cl_nv_d3d11_sharing as they are.
import type { NativeDirect3D } from './native-types';
import { type AdapterChoice, chooseAdapter } from './adapters';
import {
  type DxgiApi,
  type DxgiBufferOptions,
  DxgiDevice,
  DxgiDeviceResource,
  type DxgiResourceKinds,
  type DxgiTexture2DOptions,
  type DxgiTexture3DOptions,
  bufferDesc,
  openArgs,
  textureDesc,
  wrapResource,
} from './dxgi';
import { type DxgiFormatInput, dxgiFormatCode } from './texture-formats';
import { checkBoolean, checkOptions } from '../validate';
import { DxgiAdapter, type SharedHandleInput, direct3dNative } from './object';

/** D3D11_BIND_FLAG names. */
export type D3D11Bind =
  | 'vertex-buffer'
  | 'index-buffer'
  | 'constant-buffer'
  | 'shader-resource'
  | 'stream-output'
  | 'render-target'
  | 'depth-stencil'
  | 'unordered-access'
  | 'decoder'
  | 'video-encoder';
/**
 * How a resource is shared (D3D11_RESOURCE_MISC_*): 'legacy' SHARED (a handle
 * from `sharedHandle`), 'keyed-mutex' SHARED_KEYEDMUTEX, 'nt' SHARED |
 * SHARED_NTHANDLE and 'nt-keyed-mutex' SHARED_KEYEDMUTEX | SHARED_NTHANDLE
 * (handles from createSharedHandle()).
 */
export type D3D11Share = 'legacy' | 'keyed-mutex' | 'nt' | 'nt-keyed-mutex';
/** D3D_FEATURE_LEVEL as text. */
export type D3DFeatureLevel = '9_1' | '9_2' | '9_3' | '10_0' | '10_1' | '11_0' | '11_1';

export type D3D11BufferOptions = DxgiBufferOptions<D3D11Bind, D3D11Share> & { structureByteStride?: number };
export type D3D11Texture2DOptions = DxgiTexture2DOptions<D3D11Bind, D3D11Share>;
export type D3D11Texture3DOptions = DxgiTexture3DOptions<D3D11Bind, D3D11Share>;

export interface D3D11DeviceOptions extends AdapterChoice {
  /** The levels to try, best first (default 11_1 down to 10_0). */
  featureLevels?: D3DFeatureLevel[];
  /** D3D11_CREATE_DEVICE_DEBUG (needs the SDK layers installed). */
  debug?: boolean;
  /** D3D11_CREATE_DEVICE_VIDEO_SUPPORT (for D3D11 video decoding on the device). */
  videoSupport?: boolean;
}

const featureLevelValues: Readonly<Record<D3DFeatureLevel, number>> = {
  '9_1': 0x9100,
  '9_2': 0x9200,
  '9_3': 0x9300,
  '10_0': 0xa000,
  '10_1': 0xa100,
  '11_0': 0xb000,
  '11_1': 0xb100,
};

/** @internal Feature levels by name, checked. */
export function featureLevels(value: unknown, allowed: readonly D3DFeatureLevel[], fallback: readonly D3DFeatureLevel[]): number[] {
  const names = value === undefined ? fallback : value;
  if (!Array.isArray(names) || names.length === 0 || names.some((n) => !allowed.includes(n as D3DFeatureLevel))) {
    throw new TypeError(`options.featureLevels must be a non-empty array of ${allowed.map((l) => `'${l}'`).join(', ')}`);
  }
  return names.map((n) => featureLevelValues[n as D3DFeatureLevel]);
}

const D3D11_CREATE_DEVICE_DEBUG = 0x2;
const D3D11_CREATE_DEVICE_BGRA_SUPPORT = 0x20;
const D3D11_CREATE_DEVICE_VIDEO_SUPPORT = 0x800;

function api(native: NativeDirect3D): DxgiApi {
  return {
    prefix: 'D3D11',
    bind: {
      'vertex-buffer': 0x1,
      'index-buffer': 0x2,
      'constant-buffer': 0x4,
      'shader-resource': 0x8,
      'stream-output': 0x10,
      'render-target': 0x20,
      'depth-stencil': 0x40,
      'unordered-access': 0x80,
      decoder: 0x200,
      'video-encoder': 0x400,
    },
    share: { legacy: 0x2, 'keyed-mutex': 0x100, nt: 0x2 | 0x800, 'nt-keyed-mutex': 0x100 | 0x800 },
    describe: (resource) => native.d3d11Describe(resource),
    transfer: (resource, write, sub, layout, data) => native.d3d11Transfer(resource, write, sub, layout, data),
  };
}

/**
 * A Direct3D 11 device (ID3D11Device, multithread-protected: OpenCL drivers
 * copy through its immediate context from their own threads).
 */
export function createD3D11Device(options?: D3D11DeviceOptions): D3D11Device {
  const native = direct3dNative('createD3D11Device');
  const o = checkOptions<D3D11DeviceOptions>(options, 'options', [
    'openclDevice',
    'adapterLuid',
    'adapterIndex',
    'featureLevels',
    'debug',
    'videoSupport',
  ]);
  const levels = featureLevels(o.featureLevels, Object.keys(featureLevelValues) as D3DFeatureLevel[], ['11_1', '11_0', '10_1', '10_0']);
  const flags =
    D3D11_CREATE_DEVICE_BGRA_SUPPORT |
    (checkBoolean(o.debug, 'options.debug', false) ? D3D11_CREATE_DEVICE_DEBUG : 0) |
    (checkBoolean(o.videoSupport, 'options.videoSupport', false) ? D3D11_CREATE_DEVICE_VIDEO_SUPPORT : 0);
  const { index } = chooseAdapter(o, 'createD3D11Device');
  const device = native.d3d11CreateDevice(index, flags, levels);
  try {
    return new D3D11Device(device, native.d3d11DeviceInfo(device));
  } catch (error) {
    device.release();
    throw error;
  }
}

/** An ID3D11Device. */
export class D3D11Device extends DxgiDevice {
  get kind(): string {
    return 'D3D11Device';
  }

  /** @internal */
  get api(): DxgiApi {
    return api(direct3dNative('D3D11Device'));
  }

  /** The IDXGIAdapter it runs on (for getDevices({ dxgiAdapter })). */
  dxgiAdapter(): DxgiAdapter {
    return new DxgiAdapter(direct3dNative('dxgiAdapter').d3d11Adapter(this.native));
  }

  /** An ID3D11Buffer. */
  createBuffer(options: D3D11BufferOptions): D3D11Buffer {
    const { desc, data } = bufferDesc(this.api, options, ['structureByteStride']);
    return new D3D11Buffer(direct3dNative('createBuffer').d3d11CreateBuffer(this.native, desc, data), this);
  }

  /** An ID3D11Texture2D (DXGI_FORMAT_NV12: two planes, even sizes, no binding by default). */
  createTexture2D(options: D3D11Texture2DOptions): D3D11Texture2D {
    const desc = textureDesc(this.api, options, '2d');
    return new D3D11Texture2D(direct3dNative('createTexture2D').d3d11CreateTexture2D(this.native, desc), this);
  }

  /** An ID3D11Texture3D. */
  createTexture3D(options: D3D11Texture3DOptions): D3D11Texture3D {
    const desc = textureDesc(this.api, options, '3d');
    return new D3D11Texture3D(direct3dNative('createTexture3D').d3d11CreateTexture3D(this.native, desc), this);
  }

  /**
   * Opens a resource shared by another device or process. An NT handle
   * (Electron's `textureInfo.handle.ntHandle` bytes, a SharedHandle, or a
   * bigint with `{ nt: true }`) goes through ID3D11Device1::OpenSharedResource1;
   * a legacy handle (a bigint, e.g. another resource's `sharedHandle`) through
   * ID3D11Device::OpenSharedResource. The handle stays the caller's.
   */
  openSharedResource(handle: SharedHandleInput, options?: { nt?: boolean }): D3D11Resource {
    const { handle: value, nt } = openArgs(handle, options);
    return wrapResource(direct3dNative('openSharedResource').d3d11OpenSharedResource(this.native, value, nt), this, resourceKinds);
  }

  /** D3D11_FORMAT_SUPPORT bits of a format on this device (ID3D11Device::CheckFormatSupport; 0: unsupported). */
  formatSupport(format: DxgiFormatInput): number {
    return direct3dNative('formatSupport').d3d11FormatSupport(this.native, dxgiFormatCode(format, 'format'));
  }

  /** ID3D11DeviceContext::Flush of the immediate context. */
  flush(): void {
    direct3dNative('flush').d3d11Flush(this.native);
  }
}

/** An ID3D11Buffer, ID3D11Texture2D or ID3D11Texture3D. */
export abstract class D3D11Resource extends DxgiDeviceResource<D3D11Device> {}

export class D3D11Buffer extends D3D11Resource {
  get kind(): string {
    return 'D3D11Buffer';
  }
}

export class D3D11Texture2D extends D3D11Resource {
  get kind(): string {
    return 'D3D11Texture2D';
  }
}

export class D3D11Texture3D extends D3D11Resource {
  get kind(): string {
    return 'D3D11Texture3D';
  }
}

const resourceKinds: DxgiResourceKinds<D3D11Device, D3D11Resource> = { Buffer: D3D11Buffer, Texture2D: D3D11Texture2D, Texture3D: D3D11Texture3D };
