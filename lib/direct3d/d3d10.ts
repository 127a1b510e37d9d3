// Direct3D 10.1 from Node (Windows): an ID3D10Device1 (the ID3D10Device that
// cl_khr_d3d10_sharing takes) on a chosen adapter, buffers, 2D and 3D
// textures, created shared (legacy or keyed mutex) or opened from a legacy
// shared handle, contents read and written.
import type { NativeDirect3D } from './native-types';
import { type AdapterChoice, chooseAdapter } from './adapters';
import { featureLevels } from './d3d11';
import {
  type DxgiApi,
  type DxgiBufferOptions,
  DxgiDevice,
  DxgiDeviceResource,
  type DxgiResourceKinds,
  type DxgiTexture2DOptions,
  type DxgiTexture3DOptions,
  bufferDesc,
  textureDesc,
  wrapResource,
} from './dxgi';
import { checkBoolean, checkOptions } from '../validate';
import { DxgiAdapter, SharedHandle, type SharedHandleInput, direct3dNative, handleValue } from './object';

/** D3D10_BIND_FLAG names. */
export type D3D10Bind =
  | 'vertex-buffer'
  | 'index-buffer'
  | 'constant-buffer'
  | 'shader-resource'
  | 'stream-output'
  | 'render-target'
  | 'depth-stencil';
/** D3D10_RESOURCE_MISC_SHARED ('legacy') or D3D10_RESOURCE_MISC_SHARED_KEYEDMUTEX ('keyed-mutex'). */
export type D3D10Share = 'legacy' | 'keyed-mutex';

export type D3D10BufferOptions = DxgiBufferOptions<D3D10Bind, D3D10Share>;
export type D3D10Texture2DOptions = DxgiTexture2DOptions<D3D10Bind, D3D10Share>;
export type D3D10Texture3DOptions = DxgiTexture3DOptions<D3D10Bind, D3D10Share>;

export interface D3D10DeviceOptions extends AdapterChoice {
  /** The levels to try, best first (default 10_1, 10_0). */
  featureLevels?: ('10_1' | '10_0' | '9_3' | '9_2' | '9_1')[];
  /** D3D10_CREATE_DEVICE_DEBUG. */
  debug?: boolean;
}

const D3D10_CREATE_DEVICE_DEBUG = 0x2;
const D3D10_CREATE_DEVICE_BGRA_SUPPORT = 0x20;

function api(native: NativeDirect3D): DxgiApi {
  return {
    prefix: 'D3D10',
    bind: {
      'vertex-buffer': 0x1,
      'index-buffer': 0x2,
      'constant-buffer': 0x4,
      'shader-resource': 0x8,
      'stream-output': 0x10,
      'render-target': 0x20,
      'depth-stencil': 0x40,
    },
    share: { legacy: 0x2, 'keyed-mutex': 0x10 },
    describe: (resource) => native.d3d10Describe(resource),
    transfer: (resource, write, sub, layout, data) => native.d3d10Transfer(resource, write, sub, layout, data),
  };
}

/** A Direct3D 10.1 device (D3D10CreateDevice1). */
export function createD3D10Device(options?: D3D10DeviceOptions): D3D10Device {
  const native = direct3dNative('createD3D10Device');
  const o = checkOptions<D3D10DeviceOptions>(options, 'options', ['openclDevice', 'adapterLuid', 'adapterIndex', 'featureLevels', 'debug']);
  const levels = featureLevels(o.featureLevels, ['10_1', '10_0', '9_3', '9_2', '9_1'], ['10_1', '10_0']);
  const flags = D3D10_CREATE_DEVICE_BGRA_SUPPORT | (checkBoolean(o.debug, 'options.debug', false) ? D3D10_CREATE_DEVICE_DEBUG : 0);
  const { index } = chooseAdapter(o, 'createD3D10Device');
  const device = native.d3d10CreateDevice(index, flags, levels);
  try {
    return new D3D10Device(device, native.d3d10DeviceInfo(device));
  } catch (error) {
    device.release();
    throw error;
  }
}

/** An ID3D10Device1. */
export class D3D10Device extends DxgiDevice {
  get kind(): string {
    return 'D3D10Device';
  }

  /** @internal */
  get api(): DxgiApi {
    return api(direct3dNative('D3D10Device'));
  }

  /** The IDXGIAdapter it runs on. */
  dxgiAdapter(): DxgiAdapter {
    return new DxgiAdapter(direct3dNative('dxgiAdapter').d3d10Adapter(this.native));
  }

  createBuffer(options: D3D10BufferOptions): D3D10Buffer {
    const { desc, data } = bufferDesc(this.api, options);
    return new D3D10Buffer(direct3dNative('createBuffer').d3d10CreateBuffer(this.native, desc, data), this);
  }

  createTexture2D(options: D3D10Texture2DOptions): D3D10Texture2D {
    return new D3D10Texture2D(direct3dNative('createTexture2D').d3d10CreateTexture2D(this.native, textureDesc(this.api, options, '2d')), this);
  }

  createTexture3D(options: D3D10Texture3DOptions): D3D10Texture3D {
    return new D3D10Texture3D(direct3dNative('createTexture3D').d3d10CreateTexture3D(this.native, textureDesc(this.api, options, '3d')), this);
  }

  /** Opens a resource shared by a legacy handle (ID3D10Device::OpenSharedResource); Direct3D 10 opens no NT handles. */
  openSharedResource(handle: SharedHandleInput): D3D10Resource {
    if (handle instanceof SharedHandle) {
      throw new TypeError("Direct3D 10 opens legacy shared handles only (e.g. a resource's sharedHandle); an NT handle needs a D3D11 device");
    }
    const value = handleValue(handle, 'handle');
    return wrapResource(direct3dNative('openSharedResource').d3d10OpenSharedResource(this.native, value), this, resourceKinds);
  }

  /** ID3D10Device::Flush. */
  flush(): void {
    direct3dNative('flush').d3d10Flush(this.native);
  }
}

/** An ID3D10Buffer, ID3D10Texture2D or ID3D10Texture3D. */
export abstract class D3D10Resource extends DxgiDeviceResource<D3D10Device> {}

export class D3D10Buffer extends D3D10Resource {
  get kind(): string {
    return 'D3D10Buffer';
  }
}

export class D3D10Texture2D extends D3D10Resource {
  get kind(): string {
    return 'D3D10Texture2D';
  }
}

export class D3D10Texture3D extends D3D10Resource {
  get kind(): string {
    return 'D3D10Texture3D';
  }
}

const resourceKinds: DxgiResourceKinds<D3D10Device, D3D10Resource> = { Buffer: D3D10Buffer, Texture2D: D3D10Texture2D, Texture3D: D3D10Texture3D };
