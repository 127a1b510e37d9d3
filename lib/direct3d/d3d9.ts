// Direct3D 9Ex from Node (Windows): an IDirect3DDevice9Ex on a chosen adapter
// and its IDirect3DDeviceManager9 (DXVA2), offscreen plain and render target
// surfaces (NV12 and YV12 included), textures (2D, cube, volume) and their
// surfaces, vertex and index buffers; created shared (D3D9Ex pSharedHandle)
// or opened from a shared handle; contents through LockRect / LockBox / Lock.
// The objects go to cl_nv_d3d9_sharing, cl_intel_dx9_media_sharing and
// cl_khr_dx9_media_sharing as they are.
import type { NativeComObject, NativeD3D9AdapterDesc, NativeD3D9Desc, NativePlaneLayout } from './native-types';
import { type AdapterChoice, chooseAdapter } from './adapters';
import { Direct3DFeatureError } from './errors';
import { type D3D9FormatInput, d3d9FormatCode, d3d9FormatLabel, d3d9Planes, layoutSize, planeLayout } from './texture-formats';
import { checkBoolean, checkBytes, checkChoice, checkFlags, checkInt, checkOptions } from '../validate';
import { Direct3DObject, type SharedHandleInput, direct3dNative, handleValue } from './object';

/** An adapter as Direct3D 9 enumerates it (IDirect3D9::GetAdapterIdentifier, IDirect3D9Ex::GetAdapterLUID). */
export interface D3D9AdapterInfo {
  readonly ordinal: number;
  readonly description: string;
  readonly deviceName: string;
  readonly vendorId: number;
  readonly deviceId: number;
  readonly luid: bigint;
}

/** D3DPOOL names (D3D9Ex has no managed pool). */
export type D3D9Pool = 'default' | 'systemmem' | 'scratch';
/** D3DUSAGE names. */
export type D3D9Usage = 'render-target' | 'depth-stencil' | 'write-only' | 'dynamic';
/**
 * `shared`: true creates the resource shared (D3D9Ex: DEFAULT pool) and gives
 * its handle in `sharedHandle`; a handle opens the resource another device
 * shared (the description must match it).
 */
export type D3D9Share = boolean | SharedHandleInput;

interface D3D9Common {
  format: D3D9FormatInput;
  pool?: D3D9Pool;
  shared?: D3D9Share;
}
export interface D3D9SurfaceOptions extends D3D9Common {
  width: number;
  height: number;
}
export interface D3D9RenderTargetOptions extends Omit<D3D9SurfaceOptions, 'pool'> {
  /** Whether LockRect works on it (default false). */
  lockable?: boolean;
}
export interface D3D9TextureOptions extends D3D9Common {
  width: number;
  height: number;
  /** Default 1. */
  levels?: number;
  usage?: D3D9Usage[];
}
export interface D3D9CubeTextureOptions extends D3D9Common {
  edgeLength: number;
  levels?: number;
  usage?: D3D9Usage[];
}
export interface D3D9VolumeTextureOptions extends D3D9Common {
  width: number;
  height: number;
  depth: number;
  levels?: number;
  usage?: D3D9Usage[];
}
export interface D3D9BufferOptions {
  size: number;
  usage?: D3D9Usage[];
  pool?: D3D9Pool;
  shared?: D3D9Share;
}
export interface D3D9IndexBufferOptions extends D3D9BufferOptions {
  /** Default 'D3DFMT_INDEX16'. */
  format?: 'D3DFMT_INDEX16' | 'D3DFMT_INDEX32';
}

/** Where a read or write goes: a plane of planar surfaces (NV12: 0 Y, 1 UV; YV12: 0 Y, 1 V, 2 U); default all, in memory order. */
export interface D3D9PlaneOptions {
  plane?: number;
}
export interface D3D9LevelOptions extends D3D9PlaneOptions {
  /** Default 0. */
  level?: number;
}
export interface D3D9CubeOptions extends D3D9LevelOptions {
  /** D3DCUBEMAP_FACES, 0 to 5. */
  face: number;
}

/** A surface's or level's description (GetDesc / GetLevelDesc). */
export interface D3D9Description {
  readonly format: number;
  readonly formatName: string;
  readonly width: number;
  readonly height: number;
  readonly depth: number;
  /** Textures: mip levels. */
  readonly levels: number;
  readonly usage: number;
  readonly pool: D3D9Pool | 'managed';
  /** Buffers: bytes. */
  readonly size: number;
}

const pools: Readonly<Record<D3D9Pool | 'managed', number>> = { default: 0, managed: 1, systemmem: 2, scratch: 3 };
const usages: Readonly<Record<D3D9Usage, number>> = { 'render-target': 0x1, 'depth-stencil': 0x2, 'write-only': 0x8, dynamic: 0x200 };
/** D3DCREATE_SOFTWARE_VERTEXPROCESSING | D3DCREATE_MULTITHREADED (OpenCL drivers lock surfaces from their threads) | D3DCREATE_FPU_PRESERVE (JavaScript numbers stay doubles). */
const BEHAVIOR = 0x20 | 0x4 | 0x2;

/** The adapters Direct3D 9 enumerates (ordinal 0 is the default). */
export function listD3D9Adapters(): D3D9AdapterInfo[] {
  return direct3dNative('listD3D9Adapters')
    .d3d9Adapters()
    .map((a) => Object.freeze({ ...a }));
}

/**
 * A Direct3D 9Ex device (IDirect3DDevice9Ex, windowed on the desktop window,
 * never presenting; multithreaded; FPU preserved) on the default adapter or
 * the adapter chosen as for createD3D11Device (matched by LUID).
 */
export function createD3D9Device(options?: AdapterChoice): D3D9Device {
  const native = direct3dNative('createD3D9Device');
  const o = checkOptions<AdapterChoice>(options, 'options', ['openclDevice', 'adapterLuid', 'adapterIndex']);
  const { luid } = chooseAdapter(o, 'createD3D9Device');
  let ordinal = 0;
  if (luid !== undefined) {
    const adapters = native.d3d9Adapters();
    const found = adapters.find((a) => a.luid === luid);
    if (!found)
      throw new RangeError(
        `Direct3D 9 has no adapter with LUID 0x${luid.toString(16)}; its adapters are ${adapters.map((a) => `${a.ordinal}: ${a.description}`).join('; ')}`,
      );
    ordinal = found.ordinal;
  }
  const device = native.d3d9CreateDevice(ordinal, BEHAVIOR);
  try {
    return new D3D9Device(device, native.d3d9DeviceInfo(device).adapter);
  } catch (error) {
    device.release();
    throw error;
  }
}

function shareArg(value: unknown, what: string): bigint | null {
  if (value === undefined || value === false) return null;
  if (value === true) return 0n;
  return handleValue(value, what);
}

/** An IDirect3DDevice9Ex. */
export class D3D9Device extends Direct3DObject {
  readonly adapter: D3D9AdapterInfo;
  /** @internal */
  constructor(native: NativeComObject, adapter: NativeD3D9AdapterDesc) {
    super(native);
    this.adapter = Object.freeze({ ...adapter });
  }
  get kind(): string {
    return 'D3D9Device';
  }

  /** An IDirect3DDeviceManager9 holding this device (DXVA2CreateDirect3DDeviceManager9 + ResetDevice). */
  createDeviceManager(): D3D9DeviceManager {
    const { manager, resetToken } = direct3dNative('createDeviceManager').d3d9CreateDeviceManager(this.native);
    return new D3D9DeviceManager(manager, this, resetToken);
  }

  /** IDirect3DDevice9::CreateOffscreenPlainSurface (NV12 / YV12 surfaces are these). */
  createOffscreenPlainSurface(options: D3D9SurfaceOptions): D3D9Surface {
    const o = this.#common<D3D9SurfaceOptions>(options, ['width', 'height', 'format', 'pool', 'shared']);
    const size = this.#size(o, ['width', 'height']);
    const pool = pools[checkChoice(o.pool, 'options.pool', ['default', 'systemmem', 'scratch'] as const, 'default')];
    const made = this.#made('createOffscreenPlainSurface', o, (n, share) =>
      n.d3d9CreateSurface(this.native, { renderTarget: false, ...size, format: o.formatCode, pool, lockable: true }, share),
    );
    return new D3D9Surface(made.object, this, made.sharedHandle, null);
  }

  /** IDirect3DDevice9::CreateRenderTarget (no multisampling). */
  createRenderTarget(options: D3D9RenderTargetOptions): D3D9Surface {
    const o = this.#common<D3D9RenderTargetOptions>(options, ['width', 'height', 'format', 'lockable', 'shared']);
    const size = this.#size(o, ['width', 'height']);
    const lockable = checkBoolean(o.lockable, 'options.lockable', false);
    const made = this.#made('createRenderTarget', o, (n, share) =>
      n.d3d9CreateSurface(this.native, { renderTarget: true, ...size, format: o.formatCode, pool: 0, lockable }, share),
    );
    return new D3D9Surface(made.object, this, made.sharedHandle, null);
  }

  /** IDirect3DDevice9::CreateTexture. */
  createTexture(options: D3D9TextureOptions): D3D9Texture {
    const o = this.#common<D3D9TextureOptions>(options, ['width', 'height', 'format', 'levels', 'usage', 'pool', 'shared']);
    const size = this.#size(o, ['width', 'height']);
    const made = this.#made('createTexture', o, (n, share) =>
      n.d3d9CreateTexture(this.native, { type: 'texture', ...size, depth: 1, ...this.#levelsUsagePool(o), format: o.formatCode }, share),
    );
    return new D3D9Texture(made.object, this, made.sharedHandle);
  }

  /** IDirect3DDevice9::CreateCubeTexture. */
  createCubeTexture(options: D3D9CubeTextureOptions): D3D9CubeTexture {
    const o = this.#common<D3D9CubeTextureOptions>(options, ['edgeLength', 'format', 'levels', 'usage', 'pool', 'shared']);
    const edge = checkInt(o.edgeLength, 'options.edgeLength', 1, 16384);
    const made = this.#made('createCubeTexture', o, (n, share) =>
      n.d3d9CreateTexture(
        this.native,
        { type: 'cube', width: edge, height: edge, depth: 1, ...this.#levelsUsagePool(o), format: o.formatCode },
        share,
      ),
    );
    return new D3D9CubeTexture(made.object, this, made.sharedHandle);
  }

  /** IDirect3DDevice9::CreateVolumeTexture (DEFAULT-pool volumes can be locked only with 'dynamic' usage). */
  createVolumeTexture(options: D3D9VolumeTextureOptions): D3D9VolumeTexture {
    const o = this.#common<D3D9VolumeTextureOptions>(options, ['width', 'height', 'depth', 'format', 'levels', 'usage', 'pool', 'shared']);
    const size = this.#size(o, ['width', 'height', 'depth']);
    const made = this.#made('createVolumeTexture', o, (n, share) =>
      n.d3d9CreateTexture(
        this.native,
        { type: 'volume', width: size.width, height: size.height, depth: size.depth!, ...this.#levelsUsagePool(o), format: o.formatCode },
        share,
      ),
    );
    return new D3D9VolumeTexture(made.object, this, made.sharedHandle);
  }

  /** IDirect3DDevice9::CreateVertexBuffer. */
  createVertexBuffer(options: D3D9BufferOptions): D3D9VertexBuffer {
    const { o, size, usage, pool } = this.#buffer(options, []);
    const made = this.#made('createVertexBuffer', o, (n, share) =>
      n.d3d9CreateBuffer(this.native, { index: false, size, usage, format: 0, pool }, share),
    );
    return new D3D9VertexBuffer(made.object, this, made.sharedHandle);
  }

  /** IDirect3DDevice9::CreateIndexBuffer. */
  createIndexBuffer(options: D3D9IndexBufferOptions): D3D9IndexBuffer {
    const { o, size, usage, pool } = this.#buffer(options, ['format']);
    const format = d3d9FormatCode(
      checkChoice((o as D3D9IndexBufferOptions).format, 'options.format', ['D3DFMT_INDEX16', 'D3DFMT_INDEX32'] as const, 'D3DFMT_INDEX16'),
      'options.format',
    );
    const made = this.#made('createIndexBuffer', o, (n, share) => n.d3d9CreateBuffer(this.native, { index: true, size, usage, format, pool }, share));
    return new D3D9IndexBuffer(made.object, this, made.sharedHandle);
  }

  #common<T extends object>(options: unknown, keys: string[]): Partial<T> & { formatCode: number } {
    const o = checkOptions<T & D3D9Common>(options, 'options', keys);
    if (options === undefined)
      throw new TypeError(`options must give ${keys.filter((k) => ['width', 'height', 'depth', 'edgeLength', 'format'].includes(k)).join(', ')}`);
    return { ...(o as Partial<T>), formatCode: d3d9FormatCode(o.format, 'options.format') };
  }

  #size(o: Partial<{ width: number; height: number; depth: number }>, keys: ('width' | 'height' | 'depth')[]) {
    const out: { width: number; height: number; depth?: number } = { width: 0, height: 0 };
    for (const key of keys) out[key] = checkInt(o[key], `options.${key}`, 1, 16384);
    return out;
  }

  #levelsUsagePool(o: Partial<D3D9TextureOptions>) {
    return {
      levels: checkInt(o.levels, 'options.levels', 0, 15, 1),
      usage: checkFlags(o.usage, 'options.usage', usages, []),
      pool: pools[checkChoice(o.pool, 'options.pool', ['default', 'systemmem', 'scratch'] as const, 'default')],
    };
  }

  #buffer(options: unknown, extra: string[]) {
    const o = checkOptions<D3D9BufferOptions>(options, 'options', ['size', 'usage', 'pool', 'shared', ...extra]);
    if (options === undefined) throw new TypeError('options must give the buffer size');
    return {
      o,
      size: checkInt(o.size, 'options.size', 1, 0x7fffffff),
      usage: checkFlags(o.usage, 'options.usage', usages, []),
      pool: pools[checkChoice(o.pool, 'options.pool', ['default', 'systemmem', 'scratch'] as const, 'default')],
    };
  }

  /** Creates (or opens) through `create`; a resource asked to be shared must come back with a handle. */
  #made(
    call: string,
    o: { shared?: unknown },
    create: (native: ReturnType<typeof direct3dNative>, share: bigint | null) => { object: NativeComObject; sharedHandle: bigint },
  ) {
    const share = shareArg(o.shared, 'options.shared');
    const made = create(direct3dNative(call), share);
    if (share === 0n && made.sharedHandle === 0n) {
      made.object.release();
      throw new Direct3DFeatureError(
        'D3D9Ex shared handles',
        `${call}: Direct3D 9Ex created the resource but gave no shared handle (this Direct3D 9 does not share resources; Wine's does not)`,
      );
    }
    return made;
  }
}

/** An IDirect3DDeviceManager9 (the DXVA adapter of cl_khr_dx9_media_sharing and cl_intel_dx9_media_sharing). */
export class D3D9DeviceManager extends Direct3DObject {
  readonly device: D3D9Device;
  /** The token ResetDevice was called with. */
  readonly resetToken: number;
  /** @internal */
  constructor(native: NativeComObject, device: D3D9Device, resetToken: number) {
    super(native);
    this.device = device;
    this.resetToken = resetToken;
  }
  get kind(): string {
    return 'D3D9DeviceManager';
  }
}

/** What Direct3D 9 resources share: their device, their shared handle, their description. */
export abstract class D3D9Resource extends Direct3DObject {
  readonly device: D3D9Device;
  /** The shared handle it was created with or opened from, or null when not shared. */
  readonly sharedHandle: bigint | null;
  /** @internal */
  constructor(native: NativeComObject, device: D3D9Device, sharedHandle: bigint | null) {
    super(native);
    this.device = device;
    this.sharedHandle = sharedHandle ? sharedHandle : null;
  }

  /** @internal GetDesc of the object (or of texture level `level`). */
  protected describe(level = 0): D3D9Description {
    const d: NativeD3D9Desc = direct3dNative('description').d3d9Describe(this.native, level);
    return Object.freeze({
      format: d.format,
      formatName: d3d9FormatLabel(d.format),
      width: d.width ?? d.size ?? 0,
      height: d.height ?? 1,
      depth: d.depth ?? 1,
      levels: d.levels ?? 1,
      usage: d.usage,
      pool: (Object.keys(pools) as (keyof typeof pools)[]).find((k) => pools[k] === d.pool) ?? 'default',
      size: d.size ?? 0,
    });
  }
}

/** The native transfers of a read or write of planes of a (width x height x depth) image. */
function planeTransfers(description: D3D9Description, plane: unknown, what: string): NativePlaneLayout[] {
  const planes = d3d9Planes(description.format);
  if (!planes) throw new TypeError(`${description.formatName} is not a format of the sharing tables: this module reads and writes only those`);
  const chosen = plane === undefined ? planes.map((_, i) => i) : [checkInt(plane, `${what}.plane`, 0, planes.length - 1)];
  return chosen.map((p) => planeLayout(planes, p, description.width, description.height, description.depth));
}

function readAll(layouts: NativePlaneLayout[], read: (layout: NativePlaneLayout) => Uint8Array): Uint8Array {
  const chunks = layouts.map(read);
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

function writeAll(data: unknown, layouts: NativePlaneLayout[], write: (layout: NativePlaneLayout, bytes: Uint8Array) => void): void {
  const bytes = checkBytes(data, 'data');
  const total = layouts.reduce((n, l) => n + layoutSize(l), 0);
  if (bytes.byteLength !== total) throw new RangeError(`data must hold ${total} bytes; it holds ${bytes.byteLength}`);
  let at = 0;
  for (const layout of layouts) {
    write(layout, bytes.subarray(at, at + layoutSize(layout)));
    at += layoutSize(layout);
  }
}

/** An IDirect3DSurface9: stand-alone, or a level of a texture it keeps alive (`container`). */
export class D3D9Surface extends D3D9Resource {
  /** The texture this surface is a level of, or null. */
  readonly container: D3D9Texture | D3D9CubeTexture | null;
  /** @internal */
  constructor(native: NativeComObject, device: D3D9Device, sharedHandle: bigint | null, container: D3D9Texture | D3D9CubeTexture | null) {
    super(native, device, sharedHandle);
    this.container = container;
  }
  get kind(): string {
    return 'D3D9Surface';
  }
  /** A level of a texture is shared with OpenCL as the texture (nv_d3d9 createFromTexture) or as itself. */
  #settle(call: string): void {
    this.settleOpenCL(call);
    this.container?.settleOpenCL(call);
  }
  get description(): D3D9Description {
    return this.describe();
  }

  /** The contents (a plane, or every plane in memory order), tightly packed. Render targets are read through a SYSTEMMEM copy. */
  read(options?: D3D9PlaneOptions): Uint8Array {
    const o = checkOptions<D3D9PlaneOptions>(options, 'options', ['plane']);
    const native = direct3dNative('read');
    this.#settle('read()');
    return readAll(planeTransfers(this.description, o.plane, 'options'), (layout) => native.d3d9Transfer(this.native, false, 0, layout)!);
  }

  /** Writes the contents (a plane, or every plane), tightly packed. */
  write(data: Uint8Array | ArrayBufferView | ArrayBuffer, options?: D3D9PlaneOptions): void {
    const o = checkOptions<D3D9PlaneOptions>(options, 'options', ['plane']);
    const native = direct3dNative('write');
    this.#settle('write()');
    writeAll(data, planeTransfers(this.description, o.plane, 'options'), (layout, bytes) => native.d3d9Transfer(this.native, true, 0, layout, bytes));
  }
}

/** An IDirect3DTexture9. */
export class D3D9Texture extends D3D9Resource {
  get kind(): string {
    return 'D3D9Texture';
  }
  /** Level 0's description, with the level count. */
  get description(): D3D9Description {
    return this.describe(0);
  }
  /** Level `level` as a surface (GetSurfaceLevel); the surface keeps this texture alive. */
  surface(level = 0): D3D9Surface {
    const l = checkInt(level, 'level', 0, this.description.levels - 1);
    return new D3D9Surface(direct3dNative('surface').d3d9Surface(this.native, l, 0), this.device, null, this);
  }
  read(options?: D3D9LevelOptions): Uint8Array {
    const o = checkOptions<D3D9LevelOptions>(options, 'options', ['level', 'plane']);
    const surface = this.surface(o.level ?? 0);
    try {
      return surface.read({ plane: o.plane });
    } finally {
      surface.dispose();
    }
  }
  write(data: Uint8Array | ArrayBufferView | ArrayBuffer, options?: D3D9LevelOptions): void {
    const o = checkOptions<D3D9LevelOptions>(options, 'options', ['level', 'plane']);
    const surface = this.surface(o.level ?? 0);
    try {
      surface.write(data, { plane: o.plane });
    } finally {
      surface.dispose();
    }
  }
}

/** An IDirect3DCubeTexture9. */
export class D3D9CubeTexture extends D3D9Resource {
  get kind(): string {
    return 'D3D9CubeTexture';
  }
  get description(): D3D9Description {
    return this.describe(0);
  }
  /** Face `face` (D3DCUBEMAP_FACES, 0 to 5), level `level` as a surface that keeps this texture alive. */
  surface(face: number, level = 0): D3D9Surface {
    const f = checkInt(face, 'face', 0, 5);
    const l = checkInt(level, 'level', 0, this.description.levels - 1);
    return new D3D9Surface(direct3dNative('surface').d3d9Surface(this.native, l, f), this.device, null, this);
  }
  read(options: D3D9CubeOptions): Uint8Array {
    const o = checkOptions<D3D9CubeOptions>(options, 'options', ['face', 'level', 'plane']);
    const surface = this.surface(o.face as number, o.level ?? 0);
    try {
      return surface.read({ plane: o.plane });
    } finally {
      surface.dispose();
    }
  }
  write(data: Uint8Array | ArrayBufferView | ArrayBuffer, options: D3D9CubeOptions): void {
    const o = checkOptions<D3D9CubeOptions>(options, 'options', ['face', 'level', 'plane']);
    const surface = this.surface(o.face as number, o.level ?? 0);
    try {
      surface.write(data, { plane: o.plane });
    } finally {
      surface.dispose();
    }
  }
}

/** An IDirect3DVolumeTexture9. */
export class D3D9VolumeTexture extends D3D9Resource {
  get kind(): string {
    return 'D3D9VolumeTexture';
  }
  get description(): D3D9Description {
    return this.describe(0);
  }
  /** Level `level`'s voxels (LockBox), slice after slice. */
  read(options?: { level?: number }): Uint8Array {
    const { description, level } = this.#level(options);
    const native = direct3dNative('read');
    this.settleOpenCL('read()');
    return readAll(planeTransfers(description, undefined, 'options'), (layout) => native.d3d9Transfer(this.native, false, level, layout)!);
  }
  write(data: Uint8Array | ArrayBufferView | ArrayBuffer, options?: { level?: number }): void {
    const { description, level } = this.#level(options);
    const native = direct3dNative('write');
    this.settleOpenCL('write()');
    writeAll(data, planeTransfers(description, undefined, 'options'), (layout, bytes) =>
      native.d3d9Transfer(this.native, true, level, layout, bytes),
    );
  }
  #level(options: unknown) {
    const o = checkOptions<{ level?: number }>(options, 'options', ['level']);
    const level = checkInt(o.level, 'options.level', 0, this.description.levels - 1, 0);
    return { level, description: this.describe(level) };
  }
}

/** A Direct3D 9 vertex or index buffer. */
abstract class D3D9Buffer extends D3D9Resource {
  get description(): D3D9Description {
    return this.describe(0);
  }
  read(): Uint8Array {
    const size = this.description.size;
    this.settleOpenCL('read()');
    return direct3dNative('read').d3d9Transfer(this.native, false, 0, {
      rowBytes: size,
      rows: 1,
      slices: 1,
      rowsBefore: 0,
      halfRowsBefore: 0,
      pitchDivisor: 1,
    })!;
  }
  write(data: Uint8Array | ArrayBufferView | ArrayBuffer): void {
    const bytes = checkBytes(data, 'data');
    const size = this.description.size;
    if (bytes.byteLength !== size) throw new RangeError(`data must hold the buffer's ${size} bytes; it holds ${bytes.byteLength}`);
    this.settleOpenCL('write()');
    direct3dNative('write').d3d9Transfer(
      this.native,
      true,
      0,
      { rowBytes: size, rows: 1, slices: 1, rowsBefore: 0, halfRowsBefore: 0, pitchDivisor: 1 },
      bytes,
    );
  }
}

export class D3D9VertexBuffer extends D3D9Buffer {
  get kind(): string {
    return 'D3D9VertexBuffer';
  }
}

export class D3D9IndexBuffer extends D3D9Buffer {
  get kind(): string {
    return 'D3D9IndexBuffer';
  }
}
