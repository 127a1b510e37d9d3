// cl_nv_d3d9_sharing: Direct3D 9 vertex/index buffers, surfaces, textures, cube and volume textures.
import type { NativeNvD3D9Sharing } from './native-types';
import type { Context } from '../context';
import type { Device } from '../device';
import { decode } from '../info';
import { ready } from '../loader';
import type { CLBuffer, CLImage, MemObject } from '../memory';
import type { Platform } from '../platform';
import { type CreateSharedOptions, type DeviceSet, type NativeAddress, type SharedContextOptions, SharingFacade, sharedRecord } from './sharing';
import { nvD3D9Record } from './extensions';
import * as T from '../facts/sharing-tokens';

/** Where to find the OpenCL devices: a Direct3D 9 device, or an adapter by name. */
export type D3D9DeviceSource = { device: NativeAddress } | { adapterName: string };

/** A cube face (D3DCUBEMAP_FACES): 0 +X, 1 -X, 2 +Y, 3 -Y, 4 +Z, 5 -Z. */
export type CubeFace = 0 | 1 | 2 | 3 | 4 | 5;

export interface NvD3D9ObjectInfo {
  /** CL_MEM_D3D9_RESOURCE_NV: the Direct3D 9 resource. */
  resource: bigint;
  /** CL_IMAGE_D3D9_FACE_NV (cube textures). */
  face?: number;
  /** CL_IMAGE_D3D9_LEVEL_NV (textures). */
  level?: number;
}

/** cl_nv_d3d9_sharing on one platform. */
export class NvD3D9Sharing extends SharingFacade<NativeNvD3D9Sharing> {
  /** @internal */
  constructor(platform: Platform) {
    super(platform, nvD3D9Record, (legacy, names) => new (ready().NativeNvD3D9Sharing)(platform.native, legacy, names));
  }

  /** clGetDeviceIDsFromD3D9NV: devices for a Direct3D 9 device or an adapter name. */
  getDevices(source: D3D9DeviceSource, set: DeviceSet = 'preferred'): Device[] {
    const bits = this.deviceSetToken(set);
    if (source && typeof source === 'object' && 'adapterName' in source) {
      if (typeof source.adapterName !== 'string' || source.adapterName === '') throw new TypeError('adapterName must be a non-empty string');
      return this.devicesFrom(() => this.native.deviceIds(nvD3D9Record.deviceSources.adapterName.source, source.adapterName, bits));
    }
    const device = SharingFacade.checkAddress((source as { device?: unknown })?.device, 'source.device');
    return this.devicesFrom(() => this.native.deviceIds(nvD3D9Record.deviceSources.device.source, device, bits));
  }

  /** A context sharing with an IDirect3DDevice9 (CL_CONTEXT_D3D9_DEVICE_NV). */
  createContext(device: NativeAddress, options: SharedContextOptions = {}): Context {
    const handle = SharingFacade.checkAddress(device, 'device');
    return this.createSharedContext(nvD3D9Record.deviceSources.device.contextProperty, handle, options, (set) =>
      this.getDevices({ device: handle }, set),
    );
  }

  /** A buffer over an IDirect3DVertexBuffer9. */
  createFromVertexBuffer(context: Context, resource: NativeAddress, options?: CreateSharedOptions): CLBuffer {
    const r = SharingFacade.checkAddress(resource, 'resource');
    return this.shared<CLBuffer>(context, `vb:${r}`, `D3D9 vertex buffer 0x${r.toString(16)}`, 'buffer', { resource: r }, options, (flags) =>
      this.native.createFromVertexBuffer(context.native, flags, r),
    );
  }

  /** A buffer over an IDirect3DIndexBuffer9. */
  createFromIndexBuffer(context: Context, resource: NativeAddress, options?: CreateSharedOptions): CLBuffer {
    const r = SharingFacade.checkAddress(resource, 'resource');
    return this.shared<CLBuffer>(context, `ib:${r}`, `D3D9 index buffer 0x${r.toString(16)}`, 'buffer', { resource: r }, options, (flags) =>
      this.native.createFromIndexBuffer(context.native, flags, r),
    );
  }

  /** A 2D image over a stand-alone IDirect3DSurface9. */
  createFromSurface(context: Context, resource: NativeAddress, options?: CreateSharedOptions): CLImage {
    const r = SharingFacade.checkAddress(resource, 'resource');
    return this.shared<CLImage>(context, `s:${r}`, `D3D9 surface 0x${r.toString(16)}`, 'image', { resource: r }, options, (flags) =>
      this.native.createFromSurface(context.native, flags, r),
    );
  }

  /** A 2D image over one mip level of an IDirect3DTexture9. */
  createFromTexture(context: Context, resource: NativeAddress, miplevel: number, options?: CreateSharedOptions): CLImage {
    const r = SharingFacade.checkAddress(resource, 'resource');
    const level = SharingFacade.checkUint32(miplevel, 'miplevel');
    return this.shared<CLImage>(
      context,
      `t:${r}:${level}`,
      `D3D9 texture 0x${r.toString(16)} level ${level}`,
      'image',
      { resource: r, level },
      options,
      (flags) => this.native.createFromTexture(context.native, flags, r, level),
    );
  }

  /** A 2D image over one face and mip level of an IDirect3DCubeTexture9. */
  createFromCubeTexture(
    context: Context,
    resource: NativeAddress,
    face: CubeFace | number,
    miplevel: number,
    options?: CreateSharedOptions,
  ): CLImage {
    const r = SharingFacade.checkAddress(resource, 'resource');
    const f = SharingFacade.checkUint32(face, 'face');
    if (f > 5) throw new RangeError(`face must be a D3DCUBEMAP_FACES value, 0 to 5; got ${f}`);
    const level = SharingFacade.checkUint32(miplevel, 'miplevel');
    return this.shared<CLImage>(
      context,
      `c:${r}:${f}:${level}`,
      `D3D9 cube texture 0x${r.toString(16)} face ${f} level ${level}`,
      'image',
      { resource: r, face: f, level },
      options,
      (flags) => this.native.createFromCubeTexture(context.native, flags, r, f, level),
    );
  }

  /** A 3D image over one mip level of an IDirect3DVolumeTexture9. */
  createFromVolumeTexture(context: Context, resource: NativeAddress, miplevel: number, options?: CreateSharedOptions): CLImage {
    const r = SharingFacade.checkAddress(resource, 'resource');
    const level = SharingFacade.checkUint32(miplevel, 'miplevel');
    return this.shared<CLImage>(
      context,
      `v:${r}:${level}`,
      `D3D9 volume texture 0x${r.toString(16)} level ${level}`,
      'image',
      { resource: r, level },
      options,
      (flags) => this.native.createFromVolumeTexture(context.native, flags, r, level),
    );
  }

  /** The extension's memory and image queries, decoded (face/level only where they apply). */
  objectInfo(mem: MemObject): NvD3D9ObjectInfo {
    const record = sharedRecord(mem, this);
    const info: NvD3D9ObjectInfo = { resource: decode.pointer(mem.info(T.CL_MEM_D3D9_RESOURCE_NV)) };
    if ('face' in record.details) info.face = decode.uint(mem.native.imageInfo(T.CL_IMAGE_D3D9_FACE_NV));
    if ('level' in record.details) info.level = decode.uint(mem.native.imageInfo(T.CL_IMAGE_D3D9_LEVEL_NV));
    return info;
  }
}
