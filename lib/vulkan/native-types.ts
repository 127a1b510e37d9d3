// The Vulkan module's native side (native/vulkan/), as lib/vulkan/ sees it:
// its wrapped objects, recorded operations and the addon's vk* functions.

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

declare module '../addon' {
  interface Addon {
    // The Vulkan module (native/vulkan/).
    vkLoad(candidates: string[]): NativeVkLoad;
    vkLoadedLibrary(): (NativeVkLoad & { ok: true }) | null;
    vkInstanceExtensions(): string[];
    vkCreateInstance(apiVersion: number, extensions: string[], applicationName: string): NativeVkInstance;
    vkSetShaders(shaders: Readonly<Record<string, Uint32Array>>): void;
  }
}
