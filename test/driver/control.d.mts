// Types of control.mjs (the reference driver's control API for tests and examples).

export declare const referenceDriverPath: string;
export declare const referenceVendorsPath: string;

export interface ResourceLayout {
  width: number;
  height: number;
  depth: number;
  bytesPerPixel: number;
  rowPitch: number;
  slicePitch: number;
  size: number;
}

/** Delays in microseconds per command class (README of test/driver, "Command delays"). */
export interface CommandDelays {
  /** Every command without an entry of its own class. */
  all?: number;
  /** NDRange kernels and tasks. */
  kernel?: number;
  /** Reads, writes, copies, fills, maps, unmaps and migrations of buffers and images. */
  transfer?: number;
  /** Acquire and release of every sharing extension and of external memory. */
  acquire?: number;
  /** Markers, barriers, semaphore waits and signals. */
  sync?: number;
}

export interface ReferenceDriver {
  readonly path: string;
  d3d9CreateAdapter(name: string, hasClDevice?: boolean): bigint;
  d3d9CreateDevice(kind?: 'd3d9' | 'd3d9ex' | 'dxva', adapter?: bigint): bigint;
  d3d9CreateSurface(
    device: bigint,
    format: number,
    width: number,
    height: number,
    options?: { pool?: number; shared?: boolean },
  ): { surface: bigint; sharedHandle: bigint };
  d3d9CreateTexture(device: bigint, format: number, width: number, height: number, levels?: number, pool?: number): bigint;
  d3d9CreateCubeTexture(device: bigint, format: number, edge: number, levels?: number, pool?: number): bigint;
  d3d9CreateVolumeTexture(device: bigint, format: number, width: number, height: number, depth: number, levels?: number, pool?: number): bigint;
  d3d9CreateVertexBuffer(device: bigint, size: number, pool?: number): bigint;
  d3d9CreateIndexBuffer(device: bigint, size: number, format?: number, pool?: number): bigint;
  d3d9GetSurfaceLevel(texture: bigint, level: number): bigint;
  dxgiCreateAdapter(name: string, hasClDevice?: boolean): bigint;
  d3d10CreateDevice(adapter?: bigint): bigint;
  d3d10CreateBuffer(device: bigint, size: number, usage?: number): bigint;
  d3d10CreateTexture2D(
    device: bigint,
    desc: { width: number; height: number; mipLevels?: number; arraySize?: number; format: number; usage?: number; sampleCount?: number },
  ): bigint;
  d3d10CreateTexture3D(
    device: bigint,
    desc: { width: number; height: number; depth: number; mipLevels?: number; format: number; usage?: number },
  ): bigint;
  /** Like the D3D10 calls, with ID3D11 objects; a Texture2D of DXGI_FORMAT_NV12 (103) has Y/UV plane subresources 2*slice, 2*slice+1. */
  d3d11CreateDevice(adapter?: bigint): bigint;
  d3d11CreateBuffer(device: bigint, size: number, usage?: number): bigint;
  d3d11CreateTexture2D(
    device: bigint,
    desc: { width: number; height: number; mipLevels?: number; arraySize?: number; format: number; usage?: number; sampleCount?: number },
  ): bigint;
  d3d11CreateTexture3D(
    device: bigint,
    desc: { width: number; height: number; depth: number; mipLevels?: number; format: number; usage?: number },
  ): bigint;
  vaCreateDisplay(hasClDevice?: boolean): bigint;
  vaCreateSurface(display: bigint, width: number, height: number): { id: number; resource: bigint };
  createSharedHandle(resource: bigint): bigint;
  layout(resource: bigint, subresource?: number, plane?: number): ResourceLayout;
  read(resource: bigint, subresource?: number, plane?: number, packed?: boolean): Uint8Array;
  write(resource: bigint, subresource: number, plane: number, bytes: Uint8Array, packed?: boolean): void;
  refcount(object: bigint): number;
  addRef(object: bigint): number;
  release(object: bigint): number;
  objectType(object: bigint): number;
  liveObjects(
    kind: 'context' | 'command_queue' | 'mem' | 'event' | 'program' | 'kernel' | 'sampler' | 'semaphore' | 'cl' | 'resource' | 'all',
  ): number;
  waitIdle(timeoutMs?: number): void;
  /**
   * Slows the commands enqueued from now on: each stays CL_RUNNING for its delay (microseconds)
   * before its work, so that tests can see queues overlap. A number applies to every command; an
   * object sets classes (a class's entry overrides `all`). Replaces every delay set before
   * (REFDRV_COMMAND_DELAY_US's too); 0 or {} clears.
   */
  setCommandDelay(delays: number | CommandDelays): void;
  /** The delay (microseconds) a command of this CL_COMMAND_* type enqueued now gets. */
  commandDelay(commandType: number): number;
  /** Linux: a memfd payload in lavapipe's opaque-fd layout (CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR); the fd is the caller's. */
  createOpaqueFdMemory(size: number): number;
  /** Linux: a memfd DMA-BUF payload (CL_EXTERNAL_MEMORY_HANDLE_DMA_BUF_KHR); the fd is the caller's. */
  createDmaBuf(size: number): number;
  /** Linux: payload bytes of a memory fd, as the exporting API sees them. */
  payloadRead(fd: number, kind: 'opaque' | 'dma-buf', offset: number, size: number): Uint8Array;
  payloadWrite(fd: number, kind: 'opaque' | 'dma-buf', offset: number, bytes: Uint8Array): void;
  /** Linux: the state word (0 unsignaled, 1 signaled) of an exported opaque semaphore fd, after `op`. */
  opaqueSemaphoreState(fd: number, op?: 'read' | 'signal' | 'unsignal'): number;
}

export declare function openReferenceDriver(path?: string): ReferenceDriver;
