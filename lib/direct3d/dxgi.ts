// What Direct3D 10.1 and Direct3D 11 devices and resources have in common
// (both are DXGI): buffers, 2D and 3D textures with the same descriptions,
// legacy shared handles and keyed mutexes (IDXGIResource, IDXGIKeyedMutex),
// and contents read or written one subresource (and plane) at a time through
// a staging copy. d3d11.ts and d3d10.ts give the tables and native calls.
import type { NativeComObject, NativeDxgiResourceDesc, NativePlaneLayout } from './native-types';
import { describeValue } from '../errors';
import type { AdapterInfo } from './adapters';
import { type DxgiFormatInput, dxgiFormatCode, dxgiFormatLabel, dxgiPlanes, layoutSize, planeLayout } from './texture-formats';
import { checkBytes, checkChoice, checkFlags, checkInt, checkOptions } from '../validate';
import { Direct3DObject, SharedHandle, direct3dNative, handleValue } from './object';

/** D3D10_USAGE / D3D11_USAGE. */
export type DxgiUsage = 'default' | 'immutable' | 'dynamic' | 'staging';
/** D3D10_CPU_ACCESS_FLAG / D3D11_CPU_ACCESS_FLAG names. */
export type CpuAccess = 'read' | 'write';

const usages: Readonly<Record<DxgiUsage, number>> = { default: 0, immutable: 1, dynamic: 2, staging: 3 };
const cpuAccessBits: Readonly<Record<CpuAccess, number>> = { write: 0x10000, read: 0x20000 };
/** DXGI_SHARED_RESOURCE_READ / _WRITE (dxgi1_2.h). */
const DXGI_SHARED_RESOURCE_READ = 0x80000000;
const DXGI_SHARED_RESOURCE_WRITE = 0x1;

export interface DxgiResourceOptions<Bind extends string, Share extends string> {
  /** Default 'default'. */
  usage?: DxgiUsage;
  /** Bind flags by name (default: none for buffers, 'shader-resource' for textures of the sharing tables). */
  bind?: Bind[];
  /** CPU access (default: none; 'staging' resources default to read and write). */
  cpuAccess?: CpuAccess[];
  /** Create it shared (default: not shared). */
  shared?: Share | false;
}

export interface DxgiBufferOptions<Bind extends string, Share extends string> extends DxgiResourceOptions<Bind, Share> {
  /** Bytes. */
  size: number;
  /** Initial contents (exactly `size` bytes); required for 'immutable'. */
  data?: Uint8Array;
}

export interface DxgiTexture2DOptions<Bind extends string, Share extends string> extends DxgiResourceOptions<Bind, Share> {
  width: number;
  height: number;
  format: DxgiFormatInput;
  /** Default 1. */
  mipLevels?: number;
  /** Default 1. */
  arraySize?: number;
  /** Default 1 (no multisampling). */
  sampleCount?: number;
  sampleQuality?: number;
}

export interface DxgiTexture3DOptions<Bind extends string, Share extends string> extends DxgiResourceOptions<Bind, Share> {
  width: number;
  height: number;
  depth: number;
  format: DxgiFormatInput;
  /** Default 1. */
  mipLevels?: number;
}

/** Which part of a texture a read or write takes. */
export interface SubresourceOptions {
  /** The subresource index (2D: mipLevel + arraySlice * mipLevels; 3D: the mip level). Or give mipLevel / arraySlice. */
  subresource?: number;
  /** Default 0. */
  mipLevel?: number;
  /** 2D textures: default 0. */
  arraySlice?: number;
  /** Planar formats (NV12: 0 = Y, 1 = UV). Default: every plane, one after the other (Y then UV). */
  plane?: number;
}

/** A resource's description (GetDesc), with names where the module has them. */
export interface DxgiResourceDescription {
  readonly dimension: 'buffer' | 'texture2d' | 'texture3d';
  /** Buffers: bytes. */
  readonly size: number;
  readonly width: number;
  readonly height: number;
  readonly depth: number;
  readonly mipLevels: number;
  readonly arraySize: number;
  /** The DXGI_FORMAT value (0 for buffers) and its name. */
  readonly format: number;
  readonly formatName: string;
  readonly sampleCount: number;
  readonly usage: DxgiUsage;
  readonly bindFlags: number;
  readonly cpuAccessFlags: number;
  readonly miscFlags: number;
}

/** @internal The per-API parts: native calls, flag tables and names. */
export interface DxgiApi {
  readonly prefix: 'D3D10' | 'D3D11';
  readonly bind: Readonly<Record<string, number>>;
  readonly share: Readonly<Record<string, number>>;
  describe(resource: NativeComObject): NativeDxgiResourceDesc;
  transfer(resource: NativeComObject, write: boolean, subresource: number, layout: NativePlaneLayout, data?: Uint8Array): Uint8Array | undefined;
}

const noKeys = ['usage', 'bind', 'cpuAccess', 'shared'] as const;

/** @internal Usage, bind, CPU access and misc flags of a create call, checked. */
export function resourceFlags(
  api: DxgiApi,
  o: Partial<DxgiResourceOptions<string, string>>,
  defaultBind: readonly string[],
): { usage: number; bindFlags: number; cpuAccessFlags: number; miscFlags: number } {
  const usage = checkChoice(o.usage, 'options.usage', Object.keys(usages) as DxgiUsage[], 'default');
  const bindFlags = checkFlags(o.bind, 'options.bind', api.bind, usage === 'staging' ? [] : defaultBind);
  const cpuAccessFlags = checkFlags(
    o.cpuAccess,
    'options.cpuAccess',
    cpuAccessBits,
    usage === 'staging' ? ['read', 'write'] : usage === 'dynamic' ? ['write'] : [],
  );
  let miscFlags = 0;
  if (o.shared !== undefined && o.shared !== false) {
    if (typeof o.shared !== 'string' || !Object.hasOwn(api.share, o.shared)) {
      throw new TypeError(
        `options.shared must be false or ${Object.keys(api.share)
          .map((k) => `'${k}'`)
          .join(', ')}; got ${describeValue(o.shared)}`,
      );
    }
    miscFlags = api.share[o.shared]!;
  }
  return { usage: usages[usage], bindFlags, cpuAccessFlags, miscFlags };
}

/** @internal The keys every create call takes besides its own. */
export const resourceKeys: readonly string[] = noKeys;

/** A Direct3D 10 or 11 device (see D3D10Device, D3D11Device). */
export abstract class DxgiDevice extends Direct3DObject {
  /** The adapter it runs on. */
  readonly adapter: AdapterInfo;
  /** D3D_FEATURE_LEVEL as text, e.g. '11_0'. */
  readonly featureLevel: string;

  /** @internal */
  constructor(native: NativeComObject, info: { featureLevel: number; adapter: AdapterInfo }) {
    super(native);
    this.adapter = Object.freeze({ ...info.adapter });
    this.featureLevel = `${info.featureLevel >> 12}_${(info.featureLevel >> 8) & 0xf}`;
  }

  /** @internal The API's tables and native calls. */
  abstract get api(): DxgiApi;
}

/** A Direct3D 10 or 11 buffer or texture. */
export abstract class DxgiResource extends Direct3DObject {
  /** The device it was created or opened on (kept alive by this resource). */
  abstract get device(): DxgiDevice;
  /** @internal */
  protected abstract get api(): DxgiApi;
  #description: DxgiResourceDescription | undefined;

  /** What it is: GetDesc, read once. */
  get description(): DxgiResourceDescription {
    if (this.#description) return this.#description;
    const d = this.api.describe(this.native);
    const usage = (Object.keys(usages) as DxgiUsage[]).find((k) => usages[k] === d.usage) ?? 'default';
    this.#description = Object.freeze({
      dimension: d.dimension,
      size: d.byteWidth ?? 0,
      width: d.width ?? d.byteWidth ?? 0,
      height: d.height ?? 1,
      depth: d.depth ?? 1,
      mipLevels: d.mipLevels ?? 1,
      arraySize: d.arraySize ?? 1,
      format: d.format ?? 0,
      formatName: d.dimension === 'buffer' ? 'buffer' : dxgiFormatLabel(d.format ?? 0),
      sampleCount: d.sampleCount ?? 1,
      usage,
      bindFlags: d.bindFlags,
      cpuAccessFlags: d.cpuAccessFlags,
      miscFlags: d.miscFlags,
    });
    return this.#description;
  }

  /**
   * The legacy shared handle (IDXGIResource::GetSharedHandle) of a resource
   * created shared ('legacy' / 'keyed-mutex'): what OpenSharedResource on
   * another device, D3D9Ex or D3D10 opens. It is not to be closed.
   */
  get sharedHandle(): bigint {
    return direct3dNative('sharedHandle').sharedHandle(this.native);
  }

  /**
   * An NT handle to this resource (IDXGIResource1::CreateSharedHandle), for a
   * resource created with `shared: 'nt'` or 'nt-keyed-mutex': what
   * ID3D11Device1::OpenSharedResource1 opens, here or in another process
   * (Electron's shared textures are these). Dispose it when done.
   */
  createSharedHandle(access: 'read' | 'read-write' = 'read-write'): SharedHandle {
    const mode = checkChoice(access, 'access', ['read', 'read-write'] as const, 'read-write');
    const bits = mode === 'read' ? DXGI_SHARED_RESOURCE_READ : (DXGI_SHARED_RESOURCE_READ | DXGI_SHARED_RESOURCE_WRITE) >>> 0;
    return new SharedHandle(direct3dNative('createSharedHandle').createSharedHandle(this.native, bits));
  }

  /**
   * IDXGIKeyedMutex::AcquireSync for a resource shared with a keyed mutex: true
   * when acquired, false when `timeoutMs` passed first (the event loop waits
   * meanwhile: at most 60 s).
   */
  acquireSync(key: number | bigint = 0, timeoutMs = 0): boolean {
    const k = checkKey(key);
    const timeout = checkInt(timeoutMs, 'timeoutMs', 0, 60_000);
    const hr = direct3dNative('acquireSync').keyedMutex(this.native, true, k, timeout);
    return hr !== 0x102; // WAIT_TIMEOUT
  }

  /** IDXGIKeyedMutex::ReleaseSync. */
  releaseSync(key: number | bigint = 0): void {
    direct3dNative('releaseSync').keyedMutex(this.native, false, checkKey(key), 0);
  }

  /**
   * The contents of one subresource (one plane of it, or all planes one after
   * the other), tightly packed: rows of width * bytes per element.
   */
  read(options?: SubresourceOptions): Uint8Array {
    const parts = this.#layouts(options, 'read');
    this.settleOpenCL('read()');
    const chunks = parts.map(({ sub, layout }) => this.api.transfer(this.native, false, sub, layout)!);
    if (chunks.length === 1) return chunks[0]!;
    const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
    let at = 0;
    for (const chunk of chunks) out.set(chunk, (at += chunk.byteLength) - chunk.byteLength);
    return out;
  }

  /** Writes one subresource (or one plane of it) from tightly packed bytes, as read() returns them. */
  write(data: Uint8Array | ArrayBufferView | ArrayBuffer, options?: SubresourceOptions): void {
    const bytes = checkBytes(data, 'data');
    const parts = this.#layouts(options, 'write');
    const total = parts.reduce((n, p) => n + layoutSize(p.layout), 0);
    if (bytes.byteLength !== total)
      throw new RangeError(`data must hold ${total} bytes for this ${this.#what(options)}; it holds ${bytes.byteLength}`);
    this.settleOpenCL('write()');
    let at = 0;
    for (const { sub, layout } of parts) {
      const size = layoutSize(layout);
      // A view of the caller's bytes that native code copies from before returning.
      this.api.transfer(this.native, true, sub, layout, bytes.subarray(at, at + size));
      at += size;
    }
  }

  #what(options: SubresourceOptions | undefined): string {
    return options?.plane !== undefined ? `plane ${options.plane}` : this.description.dimension === 'buffer' ? 'buffer' : 'subresource';
  }

  /** The native transfers a read or write of `options` takes. */
  #layouts(options: SubresourceOptions | undefined, verb: 'read' | 'write'): { sub: number; layout: NativePlaneLayout }[] {
    const o = checkOptions<SubresourceOptions>(options, 'options', ['subresource', 'mipLevel', 'arraySlice', 'plane']);
    const d = this.description;
    if (verb === 'write' && d.usage === 'immutable') throw new TypeError(`an immutable ${this.kind} cannot be written`);
    if (d.usage === 'staging' && !(d.cpuAccessFlags & cpuAccessBits[verb === 'read' ? 'read' : 'write'])) {
      throw new TypeError(`this staging ${this.kind} was created without cpuAccess '${verb === 'read' ? 'read' : 'write'}'`);
    }
    if (d.dimension === 'buffer') {
      if (o.subresource !== undefined || o.mipLevel !== undefined || o.arraySlice !== undefined || o.plane !== undefined) {
        throw new TypeError('a buffer has one subresource and no planes: pass no options');
      }
      return [{ sub: 0, layout: { rowBytes: d.size, rows: 1, slices: 1, rowsBefore: 0, halfRowsBefore: 0, pitchDivisor: 1 } }];
    }
    if (d.sampleCount > 1)
      throw new TypeError(`a multisampled ${this.kind} cannot be read or written (resolve it into a single-sampled texture first)`);
    const planes = dxgiPlanes(d.format);
    if (!planes) throw new TypeError(`${d.formatName} is not a format of the sharing tables: this module reads and writes only those (and NV12)`);
    const slices = d.dimension === 'texture3d' ? 1 : d.arraySize;
    let sub: number;
    let mip: number;
    if (o.subresource !== undefined) {
      if (o.mipLevel !== undefined || o.arraySlice !== undefined) throw new TypeError('give options.subresource or mipLevel / arraySlice, not both');
      sub = checkInt(o.subresource, 'options.subresource', 0, d.mipLevels * slices - 1);
      mip = sub % d.mipLevels;
    } else {
      mip = checkInt(o.mipLevel, 'options.mipLevel', 0, d.mipLevels - 1, 0);
      const slice = d.dimension === 'texture3d' ? 0 : checkInt(o.arraySlice, 'options.arraySlice', 0, slices - 1, 0);
      if (d.dimension === 'texture3d' && o.arraySlice !== undefined) throw new TypeError('a 3D texture has no array slices');
      sub = mip + slice * d.mipLevels;
    }
    const dim = (n: number) => Math.max(1, n >> mip);
    const depth = d.dimension === 'texture3d' ? dim(d.depth) : 1;
    const all = planes.map((_, i) => i);
    const chosen = o.plane === undefined ? all : [checkInt(o.plane, 'options.plane', 0, planes.length - 1)];
    if (verb === 'write' && d.usage === 'dynamic' && chosen.length < planes.length) {
      throw new TypeError(
        `a dynamic ${d.formatName} texture is written whole (every plane at once): Direct3D discards the rest of a dynamic subresource on write`,
      );
    }
    return chosen.map((plane) => ({ sub, layout: planeLayout(planes, plane, dim(d.width), dim(d.height), depth) }));
  }
}

function checkKey(key: unknown): bigint {
  if (typeof key === 'number' && Number.isInteger(key) && key >= 0 && key <= Number.MAX_SAFE_INTEGER) return BigInt(key);
  if (typeof key === 'bigint' && key >= 0n && key < 2n ** 64n) return key;
  throw new RangeError(`key must be a non-negative integer (number or bigint) below 2^64; got ${describeValue(key)}`);
}

/** @internal Checks the options of a buffer create call: bytes, initial data. */
export function bufferDesc(api: DxgiApi, options: unknown, extraKeys: readonly string[] = []) {
  const o = checkOptions<DxgiBufferOptions<string, string> & { structureByteStride?: number }>(options, 'options', [
    'size',
    'data',
    ...resourceKeys,
    ...extraKeys,
  ]);
  if (options === undefined) throw new TypeError('options must give the buffer size');
  const size = checkInt(o.size, 'options.size', 1, 0x7fffffff);
  const flags = resourceFlags(api, o, []);
  let data: Uint8Array | undefined;
  if (o.data !== undefined) {
    data = checkBytes(o.data, 'options.data');
    if (data.byteLength !== size) throw new RangeError(`options.data must hold options.size (${size}) bytes; it holds ${data.byteLength}`);
  }
  if (flags.usage === usages.immutable && !data) throw new TypeError("an 'immutable' buffer needs its contents: options.data");
  const structureByteStride = checkInt(o.structureByteStride, 'options.structureByteStride', 0, 2048, 0);
  return { desc: { byteWidth: size, ...flags, structureByteStride }, data };
}

/** @internal Checks the options of a texture create call. */
export function textureDesc(api: DxgiApi, options: unknown, dimension: '2d' | '3d') {
  const keys =
    dimension === '2d'
      ? ['width', 'height', 'format', 'mipLevels', 'arraySize', 'sampleCount', 'sampleQuality']
      : ['width', 'height', 'depth', 'format', 'mipLevels'];
  const o = checkOptions<DxgiTexture2DOptions<string, string> & DxgiTexture3DOptions<string, string>>(options, 'options', [...keys, ...resourceKeys]);
  if (options === undefined) throw new TypeError('options must give width, height and format');
  const width = checkInt(o.width, 'options.width', 1, 16384);
  const height = checkInt(o.height, 'options.height', 1, 16384);
  const depth = dimension === '3d' ? checkInt(o.depth, 'options.depth', 1, 2048) : 1;
  const format = dxgiFormatCode(o.format, 'options.format');
  const mipLevels = checkInt(o.mipLevels, 'options.mipLevels', 0, 15, 1);
  const arraySize = dimension === '2d' ? checkInt(o.arraySize, 'options.arraySize', 1, 2048, 1) : 1;
  const sampleCount = dimension === '2d' ? checkInt(o.sampleCount, 'options.sampleCount', 1, 32, 1) : 1;
  const sampleQuality = dimension === '2d' ? checkInt(o.sampleQuality, 'options.sampleQuality', 0, 0xffffffff, 0) : 0;
  const planes = dxgiPlanes(format);
  if (planes && planes.length > 1 && (width | height) & 1) {
    throw new RangeError(`${dxgiFormatLabel(format)} textures have even sizes (4:2:0 chroma); got ${width}x${height}`);
  }
  // Formats of the tables default to shader resources; NV12 and others to no binding (what every device allows).
  const flags = resourceFlags(api, o, planes && planes.length === 1 ? ['shader-resource'] : []);
  return { width, height, depth, mipLevels, arraySize, format, sampleCount, sampleQuality, ...flags };
}

/**
 * @internal A shared handle argument and whether it is an NT handle: bytes (as
 * Electron gives them) and SharedHandles are, a bigint is a legacy handle;
 * options.nt says otherwise.
 */
export function openArgs(handle: unknown, options: unknown): { handle: bigint; nt: boolean } {
  const o = checkOptions<{ nt?: boolean }>(options, 'options', ['nt']);
  const value = handleValue(handle, 'handle');
  const nt = o.nt ?? typeof handle !== 'bigint';
  if (typeof nt !== 'boolean') throw new TypeError(`options.nt must be a boolean; got ${describeValue(o.nt)}`);
  return { handle: value, nt };
}

/**
 * A buffer or texture of a device of type D: the one implementation of the
 * D3D10.1 and D3D11 resources, which type it (D3D10Resource over D3D10Device,
 * D3D11Resource over D3D11Device) and name its three kinds.
 */
export abstract class DxgiDeviceResource<D extends DxgiDevice> extends DxgiResource {
  readonly #device: D;
  /** @internal */
  constructor(native: NativeComObject, device: D) {
    super(native);
    this.#device = device;
  }
  /** The device it was created or opened on. */
  get device(): D {
    return this.#device;
  }
  /** @internal */
  protected get api(): DxgiApi {
    return this.#device.api;
  }
}

/** @internal One API's resource classes, by the kind its native wrappers report ('D3D11Buffer', ...). */
export interface DxgiResourceKinds<D extends DxgiDevice, R> {
  readonly Buffer: new (native: NativeComObject, device: D) => R;
  readonly Texture2D: new (native: NativeComObject, device: D) => R;
  readonly Texture3D: new (native: NativeComObject, device: D) => R;
}

/** @internal The typed object of a resource the native side created or opened. */
export function wrapResource<D extends DxgiDevice, R>(native: NativeComObject, device: D, kinds: DxgiResourceKinds<D, R>): R {
  switch (native.kind) {
    case `${device.api.prefix}Buffer`:
      return new kinds.Buffer(native, device);
    case `${device.api.prefix}Texture2D`:
      return new kinds.Texture2D(native, device);
    default:
      return new kinds.Texture3D(native, device);
  }
}
