// The Direct3D module's native side (native/direct3d/, Windows builds only), as
// lib/direct3d/ sees it: its COM objects and the addon's `direct3d` member.

/** native/direct3d/direct3d.cc (Windows only): one COM object of the Direct3D module, holding what it needs (its device). */
export interface NativeComObject {
  /** The interface pointer (0n once released). */
  readonly address: bigint;
  /** e.g. 'D3D11Texture2D'. */
  readonly kind: string;
  /** Drops this wrapper's references. Idempotent. */
  release(): void;
}
/** A DXGI adapter as IDXGIAdapter::GetDesc describes it (index -1: not from the enumeration). */
export interface NativeAdapterDesc {
  index: number;
  description: string;
  vendorId: number;
  deviceId: number;
  subSysId: number;
  revision: number;
  dedicatedVideoMemory: bigint;
  dedicatedSystemMemory: bigint;
  sharedSystemMemory: bigint;
  luid: bigint;
  software: boolean;
}
export interface NativeD3D9AdapterDesc {
  ordinal: number;
  description: string;
  deviceName: string;
  vendorId: number;
  deviceId: number;
  luid: bigint;
}
/** Where one plane of one subresource lies in mapped memory (native/direct3d/object.h PlaneLayout). */
export interface NativePlaneLayout {
  rowBytes: number;
  rows: number;
  slices: number;
  rowsBefore: number;
  halfRowsBefore: number;
  pitchDivisor: 1 | 2;
}
/** GetDesc of a D3D10 / D3D11 resource, flattened. */
export interface NativeDxgiResourceDesc {
  dimension: 'buffer' | 'texture2d' | 'texture3d';
  byteWidth?: number;
  structureByteStride?: number;
  width?: number;
  height?: number;
  depth?: number;
  mipLevels?: number;
  arraySize?: number;
  format?: number;
  sampleCount?: number;
  sampleQuality?: number;
  usage: number;
  bindFlags: number;
  cpuAccessFlags: number;
  miscFlags: number;
}
export interface NativeDxgiBufferOptions {
  byteWidth: number;
  usage: number;
  bindFlags: number;
  cpuAccessFlags: number;
  miscFlags: number;
  structureByteStride: number;
}
export interface NativeDxgiTextureOptions {
  width: number;
  height: number;
  depth: number;
  mipLevels: number;
  arraySize: number;
  format: number;
  sampleCount: number;
  sampleQuality: number;
  usage: number;
  bindFlags: number;
  cpuAccessFlags: number;
  miscFlags: number;
}
/** GetDesc / GetLevelDesc of a Direct3D 9 object. */
export interface NativeD3D9Desc {
  format: number;
  type: number;
  usage: number;
  pool: number;
  width?: number;
  height?: number;
  depth?: number;
  levels?: number;
  size?: number;
  multiSampleType?: number;
  /** Surfaces: whether the surface is a level of a texture. */
  inTexture?: boolean;
}
type NativeShared = { object: NativeComObject; sharedHandle: bigint };
/** native/direct3d/ (direct3d.cc, d3d11.cc, d3d10.cc, d3d9.cc): `exports.direct3d`, on Windows only. */
export interface NativeDirect3D {
  adapters(): NativeAdapterDesc[];
  /** IDXGIFactory1::EnumAdapters1(index). */
  adapterObject(index: number): NativeComObject;
  sharedHandle(resource: NativeComObject): bigint;
  createSharedHandle(resource: NativeComObject, access: number): bigint;
  /** Returns the HRESULT AcquireSync / ReleaseSync gave (S_OK, WAIT_TIMEOUT 0x102, WAIT_ABANDONED 0x80). */
  keyedMutex(resource: NativeComObject, acquire: boolean, key: bigint, timeoutMs: number): number;
  d3d11CreateDevice(adapterIndex: number | null, flags: number, featureLevels: number[]): NativeComObject;
  d3d11DeviceInfo(device: NativeComObject): { featureLevel: number; creationFlags: number; adapter: NativeAdapterDesc };
  d3d11Adapter(device: NativeComObject): NativeComObject;
  d3d11CreateBuffer(device: NativeComObject, options: NativeDxgiBufferOptions, initial?: Uint8Array): NativeComObject;
  d3d11CreateTexture2D(device: NativeComObject, options: NativeDxgiTextureOptions): NativeComObject;
  d3d11CreateTexture3D(device: NativeComObject, options: NativeDxgiTextureOptions): NativeComObject;
  d3d11OpenSharedResource(device: NativeComObject, handle: bigint, nt: boolean): NativeComObject;
  d3d11Describe(resource: NativeComObject): NativeDxgiResourceDesc;
  d3d11Transfer(resource: NativeComObject, write: boolean, subresource: number, layout: NativePlaneLayout, data?: Uint8Array): Uint8Array | undefined;
  d3d11Flush(device: NativeComObject): void;
  d3d11FormatSupport(device: NativeComObject, format: number): number;
  d3d10CreateDevice(adapterIndex: number | null, flags: number, featureLevels: number[]): NativeComObject;
  d3d10DeviceInfo(device: NativeComObject): { featureLevel: number; creationFlags: number; adapter: NativeAdapterDesc };
  d3d10Adapter(device: NativeComObject): NativeComObject;
  d3d10CreateBuffer(device: NativeComObject, options: NativeDxgiBufferOptions, initial?: Uint8Array): NativeComObject;
  d3d10CreateTexture2D(device: NativeComObject, options: NativeDxgiTextureOptions): NativeComObject;
  d3d10CreateTexture3D(device: NativeComObject, options: NativeDxgiTextureOptions): NativeComObject;
  d3d10OpenSharedResource(device: NativeComObject, handle: bigint): NativeComObject;
  d3d10Describe(resource: NativeComObject): NativeDxgiResourceDesc;
  d3d10Transfer(resource: NativeComObject, write: boolean, subresource: number, layout: NativePlaneLayout, data?: Uint8Array): Uint8Array | undefined;
  d3d10Flush(device: NativeComObject): void;
  d3d9Adapters(): NativeD3D9AdapterDesc[];
  d3d9CreateDevice(ordinal: number, behaviorFlags: number): NativeComObject;
  d3d9DeviceInfo(device: NativeComObject): { adapter: NativeD3D9AdapterDesc; behaviorFlags: number };
  d3d9CreateDeviceManager(device: NativeComObject): { manager: NativeComObject; resetToken: number };
  d3d9CreateSurface(
    device: NativeComObject,
    options: { renderTarget: boolean; width: number; height: number; format: number; pool: number; lockable: boolean },
    sharedHandle: bigint | null,
  ): NativeShared;
  d3d9CreateTexture(
    device: NativeComObject,
    options: {
      type: 'texture' | 'cube' | 'volume';
      width: number;
      height: number;
      depth: number;
      levels: number;
      usage: number;
      format: number;
      pool: number;
    },
    sharedHandle: bigint | null,
  ): NativeShared;
  d3d9CreateBuffer(
    device: NativeComObject,
    options: { index: boolean; size: number; usage: number; format: number; pool: number },
    sharedHandle: bigint | null,
  ): NativeShared;
  d3d9Surface(texture: NativeComObject, level: number, face: number): NativeComObject;
  d3d9Describe(object: NativeComObject, level: number): NativeD3D9Desc;
  d3d9Transfer(object: NativeComObject, write: boolean, level: number, layout: NativePlaneLayout, data?: Uint8Array): Uint8Array | undefined;
}

declare module '../addon' {
  interface Addon {
    /** The Direct3D module's native side: on Windows builds only. */
    direct3d?: NativeDirect3D;
  }
}
