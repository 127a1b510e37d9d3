// The addon's boundary, as lib/ sees it: the core's native objects and the
// functions the addon exports (the Addon interface). Not part of the public
// API (index.ts does not export it): the public classes wrap these and do all
// validation and policy. Each area types its own native side in its
// native-types.ts (lib/va/, lib/vulkan/, lib/direct3d/, lib/interop/,
// lib/ipc/), which completes Addon by declaration merging, so the core names
// no area. lib/native-addon.ts loads the addon.
import type { NativeErrorClass } from './errors';

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
 * and JS holds its id. lib/command-event.ts wraps the id in an EventHandle.
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

export type WaitList = EventId[] | undefined;
/** A native object or its slot (NativeHandle.slot): the enqueue calls take either. */
export type Ref<T> = T | number;

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
  /** by: 0 the driver's callback, 1 the queue's thread waiting in clWaitForEvents, 2 that thread polling. */
  eventWhenStatus(event: EventId, status: number, keepAlive: boolean, by: number): Promise<number>;
  setUserEventStatus(event: EventId, status: number): void;
  holdDependent(userEvent: EventId, event: EventId): void;
  /** Idempotent: an id already released is ignored. */
  releaseEvent(event: EventId): void;
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
