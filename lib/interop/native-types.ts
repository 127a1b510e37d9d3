// The sharing extensions' native side (native/interop/), as lib/interop/ sees
// it: one class per extension over its platform's entry points, the external
// memory and semaphore classes, and the addon's constructors of them.
import type { EventId, NativeContext, NativeDevice, NativeMem, NativePlatform, NativeQueue, Ref, WaitList } from '../addon';

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
/** native/interop/direct3d_sharing.h: the shape of the Direct3D 10 and 11 sharing classes. */
export interface NativeDirect3DSharing extends NativeSharingBase {
  deviceIds(source: number, object: bigint, set: number): NativeDevice[];
  createFromBuffer(context: NativeContext, flags: bigint, resource: bigint): NativeMem;
  createFromTexture2D(context: NativeContext, flags: bigint, resource: bigint, subresource: number): NativeMem;
  createFromTexture3D(context: NativeContext, flags: bigint, resource: bigint, subresource: number): NativeMem;
}
/** native/interop/d3d10.cc */
export interface NativeD3D10Sharing extends NativeDirect3DSharing {}
/** native/interop/d3d11.cc: cl_khr_d3d11_sharing or cl_nv_d3d11_sharing, by the record's names. */
export interface NativeD3D11Sharing extends NativeDirect3DSharing {}
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
/** (platform, legacy 1.1 lookup, role -> entry point name from the extension's record in lib/interop/extensions.ts) */
type SharingConstructor<T> = new (platform: NativePlatform, legacy: boolean, entryPoints: Readonly<Record<string, string>>) => T;

declare module '../addon' {
  interface Addon {
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
  }
}
