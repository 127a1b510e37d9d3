// The raw native addon and its types. Not part of the public API (index.ts
// does not export it): the public classes wrap it and do all validation and
// policy. The types stay in the declarations because those classes name them.
import * as path from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { type NativeErrorClass, nativeErrorClasses } from './errors';

export interface NativeHandle {
  release(): void;
  /** Holds a native object of another library's resource until this handle is released (native/objects.h). */
  keep(value: object): void;
  readonly address: bigint;
  /** Its id in the addon's object table (native/objects.h ObjectTable): what the hot calls take instead of the object. */
  readonly slot: number;
}
export interface NativePlatform extends NativeHandle {
  info(param: number): Uint8Array;
  devices(type: bigint): NativeDevice[];
  extensionFunction(name: string, legacy: boolean): bigint;
}
export interface NativeDevice extends NativeHandle {
  info(param: number): Uint8Array;
}
export interface NativeContext extends NativeHandle {
  info(param: number): Uint8Array;
}
export interface NativeQueue extends NativeHandle {
  info(param: number): Uint8Array;
  flush(): void;
  finish(): void;
}
export interface NativeMem extends NativeHandle {
  info(param: number): Uint8Array;
  imageInfo(param: number): Uint8Array;
  /** Address of storage the memory object owns (a VASurfaceID), 0n if none. */
  readonly storageAddress: bigint;
}
export interface NativeSampler extends NativeHandle {
  info(param: number): Uint8Array;
}
export interface NativeProgram extends NativeHandle {
  info(param: number): Uint8Array;
  buildInfo(device: NativeDevice, param: number): Uint8Array;
  build(devices: NativeDevice[], options: string): Promise<number>;
}
export interface NativeKernel extends NativeHandle {
  info(param: number): Uint8Array;
  workGroupInfo(device: NativeDevice | null, param: number): Uint8Array;
  argInfo(index: number, param: number): Uint8Array;
  setArg(index: number, bytes: ArrayBufferView): void;
  /** clSetKernelArg with `length` bytes of argument `index` in the kernel's argument store. */
  setArgBytes(index: number, length: number): void;
  /** The kernel's argument store: 128 bytes per argument, packed by lib/kernel.ts; made by the addon, the same at every call. */
  argStore(): Uint8Array;
  setArgMem(index: number, mem: NativeMem | null): void;
  setArgSampler(index: number, sampler: NativeSampler): void;
  setArgLocal(index: number, size: number): void;
}
/**
 * An event is not a wrapped object: the addon keeps it in a table (native/event.cc)
 * and JS holds its id. lib/event.ts wraps the id in an EventHandle.
 */
export type EventId = number;

/** native/host_memory.cc: host memory the binding owns. */
export interface NativeHostBlock {
  readonly size: number;
  /** Copies the block into a view; false when the view is detached or too small. */
  copyTo(target: ArrayBufferView): boolean;
  arrayBuffer(): ArrayBuffer;
  release(): void;
}

type WaitList = EventId[] | undefined;
/** A native object or its slot (NativeHandle.slot): the enqueue calls take either. */
type Ref<T> = T | number;

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

/** Common to the Native*Sharing classes (one native file per extension). */
export interface NativeSharingBase {
  /** Entry points that did not resolve on the platform. */
  readonly missing: string[];
  acquire(queue: Ref<NativeQueue>, mems: Ref<NativeMem>[], waitList: WaitList): EventId;
  release(queue: Ref<NativeQueue>, mems: Ref<NativeMem>[], waitList: WaitList): EventId;
}
/** native/interop/nv_d3d9.cc */
export interface NativeNvD3D9Sharing extends NativeSharingBase {
  deviceIds(source: number, object: bigint | string, set: number): NativeDevice[];
  createFromVertexBuffer(context: NativeContext, flags: bigint, resource: bigint): NativeMem;
  createFromIndexBuffer(context: NativeContext, flags: bigint, resource: bigint): NativeMem;
  createFromSurface(context: NativeContext, flags: bigint, resource: bigint): NativeMem;
  createFromTexture(context: NativeContext, flags: bigint, resource: bigint, miplevel: number): NativeMem;
  createFromCubeTexture(context: NativeContext, flags: bigint, resource: bigint, face: number, miplevel: number): NativeMem;
  createFromVolumeTexture(context: NativeContext, flags: bigint, resource: bigint, miplevel: number): NativeMem;
}
/** native/interop/d3d10.cc */
export interface NativeD3D10Sharing extends NativeSharingBase {
  deviceIds(source: number, object: bigint, set: number): NativeDevice[];
  createFromBuffer(context: NativeContext, flags: bigint, resource: bigint): NativeMem;
  createFromTexture2D(context: NativeContext, flags: bigint, resource: bigint, subresource: number): NativeMem;
  createFromTexture3D(context: NativeContext, flags: bigint, resource: bigint, subresource: number): NativeMem;
}
/** native/interop/d3d11.cc: cl_khr_d3d11_sharing or cl_nv_d3d11_sharing, by the record's names. */
export interface NativeD3D11Sharing extends NativeSharingBase {
  deviceIds(source: number, object: bigint, set: number): NativeDevice[];
  createFromBuffer(context: NativeContext, flags: bigint, resource: bigint): NativeMem;
  createFromTexture2D(context: NativeContext, flags: bigint, resource: bigint, subresource: number): NativeMem;
  createFromTexture3D(context: NativeContext, flags: bigint, resource: bigint, subresource: number): NativeMem;
}
/** native/interop/intel_dx9.cc */
export interface NativeIntelDX9Sharing extends NativeSharingBase {
  deviceIds(source: number, object: bigint, set: number): NativeDevice[];
  createFromMediaSurface(context: NativeContext, flags: bigint, resource: bigint, sharedHandle: bigint, plane: number): NativeMem;
}
/** native/interop/khr_dx9_media.cc */
export interface NativeKhrDX9MediaSharing extends NativeSharingBase {
  deviceIds(adapterTypes: number[], adapters: bigint[], set: number): NativeDevice[];
  createFromMediaSurface(
    context: NativeContext,
    flags: bigint,
    adapterType: number,
    resource: bigint,
    sharedHandle: bigint,
    plane: number,
  ): NativeMem;
}
/** native/interop/va_api.cc */
export interface NativeIntelVaApiSharing extends NativeSharingBase {
  deviceIds(source: number, display: bigint, set: number): NativeDevice[];
  createFromSurface(context: NativeContext, flags: bigint, surfaceId: number, plane: number): NativeMem;
}
/**
 * A property list of a *WithProperties call: [name, value] pairs; a value is a
 * number / bigint, a string (a UTF-16 name, passed by address) or a list
 * ended with 0 (NativeDevice entries become their cl_device_id).
 */
export type NativePropertyList = [number, number | bigint | string | (NativeDevice | number)[]][];
/** native/interop/external_memory.cc: cl_khr_external_memory on one platform. */
export interface NativeExternalMemory extends NativeSharingBase {
  createBuffer(context: NativeContext, properties: NativePropertyList, flags: bigint, size: number): NativeMem;
  createImage(
    context: NativeContext,
    properties: NativePropertyList,
    flags: bigint,
    format: [number, number],
    desc: { type: number; width: number; height: number; depth: number; arraySize: number; rowPitch: number; slicePitch: number },
  ): NativeMem;
}
/** native/interop/semaphore.cc: one cl_semaphore_khr (released through its platform's clReleaseSemaphoreKHR). */
export interface NativeSemaphore {
  readonly address: bigint;
  release(): void;
}
/** native/interop/semaphore.cc: cl_khr_semaphore (+ cl_khr_external_semaphore, _sync_fd) on one platform. */
export interface NativeSemaphores {
  readonly missing: string[];
  create(context: NativeContext, properties: NativePropertyList): NativeSemaphore;
  info(semaphore: NativeSemaphore, param: number): Uint8Array;
  wait(queue: Ref<NativeQueue>, semaphores: NativeSemaphore[], payloads: bigint[] | null, waitList: WaitList): EventId;
  signal(queue: Ref<NativeQueue>, semaphores: NativeSemaphore[], payloads: bigint[] | null, waitList: WaitList): EventId;
  /** An fd (number) or, pointerSized, a HANDLE (bigint). */
  exportHandle(semaphore: NativeSemaphore, device: NativeDevice, handleType: number, pointerSized: boolean): number | bigint;
  reimportSyncFd(semaphore: NativeSemaphore, fd: number): void;
}
/** native/va/display.cc: one VADisplay (owned: opened here; else adopted). */
export interface NativeVaDisplay {
  readonly address: bigint;
  readonly owned: boolean;
  versions(): { libva: [number, number] | null; driver?: [number, number] };
  vendor(): string | null;
  profiles(): { profile: number; name: string | null; entrypoints: { entrypoint: number; name: string | null }[] }[];
  imageFormats(): NativeVaImageFormat[];
  surfaceAttributes(
    profile: number,
    entrypoint: number,
  ): {
    pixelFormats: number[];
    memoryTypes?: number;
    minWidth?: number;
    maxWidth?: number;
    minHeight?: number;
    maxHeight?: number;
  };
  createSurfaces(rtFormat: number, fourcc: number, width: number, height: number, count: number): NativeVaSurface[];
  importSurface(rtFormat: number, memoryType: 'prime2' | 'prime', descriptor: NativeVaImport): NativeVaSurface;
  /** Another handle on the same display (a context's hold on it). */
  share(): NativeVaDisplay;
  release(): void;
}
export interface NativeVaImageFormat {
  fourcc: number;
  byteOrder: number;
  bitsPerPixel: number;
  depth: number;
  redMask: number;
  greenMask: number;
  blueMask: number;
  alphaMask: number;
}
export interface NativeVaImport {
  fourcc: number;
  drmFormat: number;
  width: number;
  height: number;
  objects: { fd: number; size: number; modifier: bigint }[];
  planes: { object: number; offset: number; pitch: number }[];
}
export interface NativeVaPrime {
  fourcc: number;
  width: number;
  height: number;
  objects: { fd: number; size: number; modifier: bigint }[];
  layers: { drmFormat: number; planes: { object: number; offset: number; pitch: number }[] }[];
}
/** native/va/surface.cc: one VASurfaceID. */
export interface NativeVaSurface {
  readonly id: number;
  destroy(): void;
  sync(): void;
  status(): number;
  transfer(
    write: boolean,
    plane: number,
    data: ArrayBufferView,
    pitch: number,
    rowBytes: number,
    rows: number,
    mode: 'auto' | 'derive' | 'image',
    fourcc: number,
    width: number,
    height: number,
  ): 'derive' | 'image' | 'none';
  exportPrime(flags: number): NativeVaPrime;
}
type NativeVaOpen = { display: NativeVaDisplay } | { step: string; message: string; status?: number };
export type NativeVaLoad =
  | { ok: true; path: string; drm: string | null; x11: string | null; optional: { library: string; error: string }[] }
  | { ok: false; attempts: { path: string; error: string }[] };

// ---- The Vulkan module (native/vulkan/) -------------------------------------
/** A wrapped object of the Vulkan module: release() lets go of this hold (idempotent). */
export interface NativeVkObject {
  release(): void;
}
export type NativeVkLoad = { ok: true; path: string; version: number } | { ok: false; attempts: { path: string; error: string }[] };
/** [handle type bit, features, compatible handle types] */
export type NativeVkHandleTypeRow = [number, number, number];
export interface NativeVkPhysicalDevice {
  name: string;
  type: number;
  apiVersion: number;
  driverVersion: number;
  vendorId: number;
  deviceId: number;
  deviceUUID: Uint8Array;
  driverUUID: Uint8Array;
  deviceLUID: Uint8Array | null;
  nodeMask: number;
  /** VK_EXT_pci_bus_info, where the device has it. */
  pciBus: { domain: number; bus: number; device: number; function: number } | null;
  driverName: string | null;
  driverInfo: string | null;
  extensions: string[];
  queueFamilies: { flags: number; count: number }[];
  memoryHandleTypes: NativeVkHandleTypeRow[];
  semaphoreHandleTypes: NativeVkHandleTypeRow[];
  ycbcr: boolean;
}
export interface NativeVkInstance extends NativeVkObject {
  physicalDevices(): NativeVkPhysicalDevice[];
  createDevice(
    index: number,
    queueFamily: number,
    extensions: string[],
    ycbcr: boolean,
    memoryHandleTypes: number,
    semaphoreHandleTypes: number,
  ): NativeVkDevice;
}
export type NativeVkOp =
  | { op: 'fill'; buffer: NativeVkBuffer; offset: number; size: number; value: number }
  | { op: 'copy'; src: NativeVkBuffer; dst: NativeVkBuffer; srcOffset: number; dstOffset: number; size: number }
  | {
      op: 'copyBufferToImage' | 'copyImageToBuffer';
      buffer: NativeVkBuffer;
      image: NativeVkImage;
      plane: number;
      bufferOffset: number;
      rowLength: number;
    }
  | { op: 'dispatch'; shader: string; buffer: NativeVkBuffer; push: Uint32Array; groups: [number, number, number] };
export interface NativeVkDevice extends NativeVkObject {
  createBuffer(size: number, exportTypes: number, hostVisible: boolean): NativeVkBuffer;
  imageSupport(
    format: number,
    linear: boolean,
    usage: number,
    handleType: number,
  ): { maxWidth: number; maxHeight: number; features: number; externalFeatures: number } | null;
  createImage(format: number, width: number, height: number, linear: boolean, usage: number, exportTypes: number): NativeVkImage;
  createSemaphore(exportTypes: number): NativeVkSemaphore;
  record(ops: NativeVkOp[], queueOrdered: boolean): NativeVkCommands;
  submit(
    commands: NativeVkCommands | null,
    wait: NativeVkSemaphore[] | undefined,
    signal: NativeVkSemaphore[] | undefined,
    waitStage?: number,
  ): Promise<void>;
  pending(): number;
}
export interface NativeVkMemoryInfo {
  allocationSize: number;
  dedicated: boolean;
  memoryType: number;
  memoryFlags: number;
  exportTypes: number;
}
export interface NativeVkBuffer extends NativeVkObject {
  info(): NativeVkMemoryInfo & { size: number };
  exportMemory(handleType: number): number | bigint;
  write(offset: number, data: ArrayBufferView): Promise<void>;
  /** Fills `out` (made before the submission) with out.length bytes at offset; resolves with it. */
  read(offset: number, out: Uint8Array): Promise<Uint8Array>;
}
export interface NativeVkImage extends NativeVkObject {
  info(): NativeVkMemoryInfo & { planes: { width: number; height: number; texelBytes: number; offset?: number; size?: number; rowPitch?: number }[] };
  exportMemory(handleType: number): number | bigint;
  write(plane: number, data: ArrayBufferView, pitch: number): Promise<void>;
  /** Fills `out` (pitch x (rows - 1) + rowBytes bytes, made before the submission) with the plane's rows; resolves with it. */
  read(plane: number, pitch: number, out: Uint8Array): Promise<Uint8Array>;
}
export interface NativeVkSemaphore extends NativeVkObject {
  exportHandle(handleType: number): number | bigint;
}
/** Recorded commands (NativeVkDevice.record): a class of its own natively, with release() only. */
export interface NativeVkCommands extends NativeVkObject {}

// ---- Handles between processes (native/ipc/) --------------------------------
/** One end of a Unix SOCK_SEQPACKET socket (or a listening one): non-blocking calls, null for EAGAIN. */
export interface NativeHandleChannel {
  readonly fd: number;
  send(bytes: Uint8Array, fds: number[]): number | null;
  /** bytes empty and no fds: the peer closed the channel. */
  receive(maxBytes: number, maxFds: number): { bytes: Uint8Array; fds: number[]; truncated: boolean; controlTruncated: boolean } | null;
  accept(): NativeHandleChannel | null;
  /** Resolves once readable (false) or writable (true), or hung up; one at a time. */
  wait(writable: boolean): Promise<void>;
  close(): void;
}

/** (platform, legacy 1.1 lookup, role -> entry point name from the extension's record in lib/interop/extensions.ts) */
type SharingConstructor<T> = new (platform: NativePlatform, legacy: boolean, entryPoints: Readonly<Record<string, string>>) => T;
type Triple = [number, number, number];
export interface ImageDescriptor {
  type: number;
  width: number;
  height: number;
  depth: number;
  arraySize: number;
  rowPitch: number;
  slicePitch: number;
  buffer?: NativeMem;
  hostBytes: number;
}
export type LoadResult = { ok: true; path: string; entryPoints: string[] } | { ok: false; attempts: { path: string; error: string }[] };

export interface Addon {
  /**
   * The table of error classes native code throws, by name (native/errors.cc); given once, as the
   * addon loads. The addon keeps the table itself: classes registered later (lib/errors.ts) count.
   */
  setErrorClasses(classes: Readonly<Record<string, NativeErrorClass>>): void;
  load(candidates: string[]): LoadResult;
  loadedLibrary(): (LoadResult & { ok: true }) | null;
  getPlatformIDs(): NativePlatform[];
  createContext(properties: bigint[], devices: NativeDevice[], onError?: (message: string) => void): NativeContext;
  createContextFromType(properties: bigint[], type: bigint, onError?: (message: string) => void): NativeContext;
  createQueue(context: NativeContext, device: NativeDevice, properties: bigint[] | null, legacy: bigint): NativeQueue;
  enqueueMarker(queue: Ref<NativeQueue>, waitList: WaitList): EventId;
  enqueueBarrier(queue: Ref<NativeQueue>, waitList: WaitList): EventId;
  createBuffer(context: NativeContext, flags: bigint, size: number, host?: ArrayBufferView | ArrayBuffer): NativeMem;
  createSubBuffer(buffer: NativeMem, flags: bigint, origin: number, size: number): NativeMem;
  createImage(
    context: NativeContext,
    flags: bigint,
    format: [number, number],
    desc: ImageDescriptor,
    host?: ArrayBufferView | ArrayBuffer,
  ): NativeMem;
  supportedImageFormats(context: NativeContext, flags: bigint, imageType: number): Uint32Array;
  enqueueReadBuffer(
    q: Ref<NativeQueue>,
    mem: Ref<NativeMem>,
    blocking: boolean,
    offset: number,
    size: number,
    host: ArrayBufferView | NativeHostBlock,
    waitList: WaitList,
  ): EventId;
  enqueueWriteBuffer(
    q: Ref<NativeQueue>,
    mem: Ref<NativeMem>,
    blocking: boolean,
    offset: number,
    size: number,
    host: ArrayBufferView | NativeHostBlock,
    waitList: WaitList,
  ): EventId;
  enqueueReadImage(
    q: Ref<NativeQueue>,
    image: Ref<NativeMem>,
    blocking: boolean,
    origin: Triple,
    region: Triple,
    rowPitch: number,
    slicePitch: number,
    host: ArrayBufferView | NativeHostBlock,
    waitList: WaitList,
  ): EventId;
  enqueueWriteImage(
    q: Ref<NativeQueue>,
    image: Ref<NativeMem>,
    blocking: boolean,
    origin: Triple,
    region: Triple,
    rowPitch: number,
    slicePitch: number,
    host: ArrayBufferView | NativeHostBlock,
    waitList: WaitList,
  ): EventId;
  enqueueCopyBuffer(
    q: Ref<NativeQueue>,
    src: Ref<NativeMem>,
    dst: Ref<NativeMem>,
    srcOffset: number,
    dstOffset: number,
    size: number,
    waitList: WaitList,
  ): EventId;
  enqueueFillBuffer(q: Ref<NativeQueue>, mem: Ref<NativeMem>, pattern: ArrayBufferView, offset: number, size: number, waitList: WaitList): EventId;
  enqueueCopyImage(
    q: Ref<NativeQueue>,
    src: Ref<NativeMem>,
    dst: Ref<NativeMem>,
    srcOrigin: Triple,
    dstOrigin: Triple,
    region: Triple,
    waitList: WaitList,
  ): EventId;
  enqueueFillImage(q: Ref<NativeQueue>, image: Ref<NativeMem>, color: ArrayBufferView, origin: Triple, region: Triple, waitList: WaitList): EventId;
  /** throughParent: a sub-buffer goes to the driver as its parent buffer, dstOffset moved by its origin. */
  enqueueCopyImageToBuffer(
    q: Ref<NativeQueue>,
    image: Ref<NativeMem>,
    buffer: Ref<NativeMem>,
    origin: Triple,
    region: Triple,
    dstOffset: number,
    waitList: WaitList,
    throughParent: boolean,
  ): EventId;
  /** throughParent: a sub-buffer goes to the driver as its parent buffer, srcOffset moved by its origin. */
  enqueueCopyBufferToImage(
    q: Ref<NativeQueue>,
    buffer: Ref<NativeMem>,
    image: Ref<NativeMem>,
    srcOffset: number,
    origin: Triple,
    region: Triple,
    waitList: WaitList,
    throughParent: boolean,
  ): EventId;
  enqueueMapBuffer(
    q: Ref<NativeQueue>,
    mem: Ref<NativeMem>,
    blocking: boolean,
    flags: bigint,
    offset: number,
    size: number,
    waitList: WaitList,
  ): { buffer: ArrayBuffer; record: unknown; address: bigint; event: EventId };
  enqueueMapImage(
    q: Ref<NativeQueue>,
    image: Ref<NativeMem>,
    blocking: boolean,
    flags: bigint,
    origin: Triple,
    region: Triple,
    waitList: WaitList,
  ): { buffer: ArrayBuffer; record: unknown; address: bigint; event: EventId; rowPitch: number; slicePitch: number };
  detachArrayBuffer(mapped: ArrayBuffer): void;
  enqueueUnmap(mapped: ArrayBuffer, record: unknown, waitList: WaitList): EventId;
  allocateHostBlock(size: number, zeroed: boolean): NativeHostBlock;
  stageHostBlock(view: ArrayBufferView, size: number): NativeHostBlock;
  // OS handles (native/os_handle.cc).
  /** close(fd), natively (fs.closeSync warns in workers about descriptors fs did not open); false when it was not open. */
  closeFd(fd: number): boolean;
  /** fcntl(F_DUPFD_CLOEXEC): another descriptor of the same open file (POSIX). */
  duplicateFd(fd: number): number;
  /** fcntl(F_GETFD): whether the number names an open descriptor. */
  isOpenFd(fd: number): boolean;
  /** CloseHandle on a Windows HANDLE: false when it failed (throws off Windows). */
  closeHandle(handle: bigint): boolean;
  createSampler(context: NativeContext, normalized: boolean, addressing: number, filter: number, properties: bigint[] | null): NativeSampler;
  createProgramWithSource(context: NativeContext, source: string): NativeProgram;
  createProgramWithBuiltInKernels(context: NativeContext, devices: NativeDevice[], names: string): NativeProgram;
  createKernel(program: NativeProgram, name: string): NativeKernel;
  /** Blocks until no build is in flight (at most buildsMs) and no started kernel command runs (at most kernelsMs). */
  waitForCompilerWork(buildsMs: number, kernelsMs: number): void;
  /** native/loader.cc: from now on the process's end, not a release, returns objects to the drivers. */
  leaveReleasesToProcessEnd(): void;
  /** The arrays of callArrays, made by the addon; handed out once per thread (later calls throw). */
  takeCallArrays(): { ndrangeSizes: Float64Array; kernelArgOps: Float64Array };
  /** Applies the kernel's pending arguments (callArrays.kernelArgOps), then clEnqueueNDRangeKernel. */
  /** compilesInProcess: keep the command until it ends, for the exit wait (waitForCompilerWork). */
  enqueueNDRange(queueSlot: number, kernelSlot: number, waitList: WaitList, compilesInProcess: boolean): EventId;
  /** clFlush by slot (what CommandQueue.flush() calls: no unwrap). */
  flushQueue(queueSlot: number): void;
  createUserEvent(context: NativeContext): EventId;
  waitForEvents(events: EventId[]): void;
  eventInfo(event: EventId, param: number): Uint8Array;
  /** CL_EVENT_COMMAND_EXECUTION_STATUS. */
  eventStatus(event: EventId): number;
  eventProfilingInfo(event: EventId, param: number): bigint;
  eventAddress(event: EventId): bigint;
  eventWhenStatus(event: EventId, status: number, keepAlive: boolean, byWaiter: boolean): Promise<number>;
  setUserEventStatus(event: EventId, status: number): void;
  holdDependent(userEvent: EventId, event: EventId): void;
  /** Idempotent: an id already released is ignored. */
  releaseEvent(event: EventId): void;
  /** The Direct3D module's native side: on Windows builds only. */
  direct3d?: NativeDirect3D;
  NativeNvD3D9Sharing: SharingConstructor<NativeNvD3D9Sharing>;
  NativeD3D10Sharing: SharingConstructor<NativeD3D10Sharing>;
  NativeIntelDX9Sharing: SharingConstructor<NativeIntelDX9Sharing>;
  NativeKhrDX9MediaSharing: SharingConstructor<NativeKhrDX9MediaSharing>;
  NativeIntelVaApiSharing: SharingConstructor<NativeIntelVaApiSharing>;
  NativeD3D11Sharing: SharingConstructor<NativeD3D11Sharing>;
  /** (platform, legacy, { acquire, release }, creating calls { buffer, image }, loaderFallback: an OpenCL 3.0 platform) */
  NativeExternalMemory: new (
    platform: NativePlatform,
    legacy: boolean,
    entryPoints: Readonly<Record<string, string>>,
    creatingCalls: { buffer: string; image: string },
    loaderFallback: boolean,
  ) => NativeExternalMemory;
  NativeSemaphores: SharingConstructor<NativeSemaphores>;
  // The VA module (native/va/: loader.cc, display.cc, surface.cc).
  vaLoad(candidates: { libva: string[]; drm: string[]; x11: string[]; xlib: string[] }): NativeVaLoad;
  vaLoadedLibrary(): (NativeVaLoad & { ok: true }) | null;
  vaOpenDrm(path: string): NativeVaOpen;
  vaOpenX11(name: string | null): NativeVaOpen;
  vaAdopt(address: bigint, indirect: boolean): NativeVaOpen;
  /** Why no driver may be handed the address (a display this module terminated, or is terminating: libva frees it), or null. */
  vaTerminated(address: bigint): string | null;
  // The Vulkan module (native/vulkan/).
  vkLoad(candidates: string[]): NativeVkLoad;
  vkLoadedLibrary(): (NativeVkLoad & { ok: true }) | null;
  vkInstanceExtensions(): string[];
  vkCreateInstance(apiVersion: number, extensions: string[], applicationName: string): NativeVkInstance;
  vkSetShaders(shaders: Readonly<Record<string, Uint32Array>>): void;
  // Handles between processes (native/ipc/; not on Windows).
  ipcSocketPair(): [NativeHandleChannel, NativeHandleChannel];
  ipcConnect(path: string): NativeHandleChannel;
  ipcListen(path: string, backlog: number): NativeHandleChannel;
  /** The channel, or why the fd is not a Unix SOCK_SEQPACKET socket. */
  ipcAdopt(fd: number): NativeHandleChannel | string;
}

/**
 * @internal Arrays the hot calls pass their values through instead of making
 * new ones per call: written just before the native call, after every check.
 * One pair per thread (this module and the addon are loaded per thread). The
 * addon makes them and hands them out once, here, as it loads: no script can
 * reach them or give the addon arrays of its own.
 */
export const callArrays: {
  /** enqueueNDRange: [dims, hasOffset, hasLocal, global x3, offset x3, local x3]. */
  ndrangeSizes: Float64Array;
  /**
   * enqueueNDRange: the kernel arguments to hand the driver first,
   * [count, (index, kind, value) x count] (see lib/kernel.ts, pendingArgs).
   */
  kernelArgOps: Float64Array;
} = { ndrangeSizes: new Float64Array(0), kernelArgOps: new Float64Array(0) };

let addon: Addon | undefined;

/** @internal Loads the compiled addon (a prebuild or a local build). */
export function nativeAddon(): Addon {
  if (addon) return addon;
  const root = path.join(__dirname, '..');
  try {
    addon = require('node-gyp-build')(root) as Addon;
  } catch (cause) {
    throw new Error(
      `opencl-interop: the native addon could not be loaded for ${process.platform}-${process.arch} ` +
        `(node ${process.versions.node}, N-API ${process.versions.napi}).\n` +
        'Possible solutions:\n' +
        '  - reinstall with `npm install --foreground-scripts` and read the build output;\n' +
        '  - a source build needs Python 3 and a C++17 compiler (build-essential on Debian, Visual Studio Build Tools on Windows).',
      { cause },
    );
  }
  addon.setErrorClasses(nativeErrorClasses);
  const arrays = addon.takeCallArrays();
  callArrays.ndrangeSizes = arrays.ndrangeSizes;
  callArrays.kernelArgOps = arrays.kernelArgOps;
  if (isMainThread) {
    // PoCL compiles on its own threads (builds, and each kernel at its first
    // run); exit() then runs LLVM's static destructors under them (SIGSEGV).
    // The 'exit' event comes before exit(): wait there for builds in flight
    // and kernels the driver has started (not for commands still waiting on
    // events), at most 60 s and 10 s.
    const loaded = addon;
    // Then the process ends, and its end returns every object to the drivers:
    // the finalizers that run after this event leave them to it (under load
    // NVIDIA's releases took seconds each, issue 22) unless
    // OPENCL_INTEROP_RELEASE_AT_EXIT=1 asks for them (a leak checker's clean exit).
    process.once('exit', () => {
      loaded.waitForCompilerWork(60_000, 10_000);
      if (process.env.OPENCL_INTEROP_RELEASE_AT_EXIT !== '1') loaded.leaveReleasesToProcessEnd();
    });
  }
  return addon;
}
