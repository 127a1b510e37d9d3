// VA displays and their surfaces. A display is opened on a DRM render node or
// an X11 display (and terminated when nothing holds it any more), or adopted
// from an address another library made (never terminated here). Surfaces hold
// their display: a disposed display stays alive, natively, until its last
// surface and the last OpenCL context made on it are gone.
import { existsSync, readdirSync } from 'node:fs';
import type { NativeVaDisplay, NativeVaSurface } from '../addon';
import { OpenCLReleasedError, describeValue } from '../errors';
import { type HostAccessGuard, HostAccessGuards } from '../sharing-hooks';
import { VaDmaBuf, type VaDmaBufImport, importDescriptor } from './dma-buf';
import { VaDisplayError, type VaDisplayAttempt } from './errors';
import {
  VA_EXPORT_SURFACE,
  VA_SURFACE_STATUS,
  type VaFourcc,
  type VaPlaneSize,
  type VaSurfaceState,
  formatFacts,
  fourccCode,
  fourccText,
  vaFourccs,
  vaPlaneSizes,
  vaStatusName,
} from './formats';
import { libva, loadLibva } from './loader';

/** The environment variable that names the DRM render node openVaDisplay() uses (default: the first /dev/dri/renderD*). */
export const VA_DEVICE_ENV = 'OPENCL_INTEROP_VA_DEVICE';

export interface VaDisplayOptions {
  /**
   * 'drm': a DRM render node; 'x11': an X server; 'auto' (default): the
   * render node named by `device` or $OPENCL_INTEROP_VA_DEVICE, else each
   * /dev/dri/renderD* in turn, then X11 ($DISPLAY).
   */
  kind?: 'auto' | 'drm' | 'x11';
  /** DRM: the render node (or card) to open, e.g. '/dev/dri/renderD129'. */
  device?: string;
  /** X11: the display name, e.g. ':0' (default $DISPLAY). */
  x11Display?: string;
}

export interface VaAdoptOptions {
  /**
   * What the address points to: 'VADisplay' (default), or
   * 'AVVAAPIDeviceContext' (FFmpeg's VAAPI device context, whose first member
   * is the VADisplay: node-av's HardwareDeviceContext.hwctx).
   */
  from?: 'VADisplay' | 'AVVAAPIDeviceContext';
}

/** A profile the driver supports and its entrypoints (vaQueryConfigProfiles / vaQueryConfigEntrypoints). */
export interface VaProfileInfo {
  /** The VAProfile value, e.g. -1 (VAProfileNone). */
  profile: number;
  /** libva's name for it, e.g. 'VAProfileH264High'. */
  name: string;
  entrypoints: { entrypoint: number; name: string }[];
}

/** An image format the driver offers (vaQueryImageFormats). */
export interface VaImageFormat {
  fourcc: string;
  code: number;
  byteOrder: 'lsb-first' | 'msb-first';
  bitsPerPixel: number;
  /** RGB formats: significant bits and channel masks; 0 for YUV formats. */
  depth: number;
  redMask: number;
  greenMask: number;
  blueMask: number;
  alphaMask: number;
}

export interface VaSurfaceOptions {
  width: number;
  height: number;
  /** Pixel format (default 'NV12'): one of the driver's render-target formats (surfaceFormats()). */
  format?: VaFourcc;
}

/** How a plane is copied: vaDeriveImage + vaMapBuffer, vaCreateImage + vaGetImage/vaPutImage, or the first that works. */
export type VaTransferMethod = 'auto' | 'derive' | 'image';

export interface VaPlaneTransferOptions {
  /** Bytes between rows in the JavaScript memory (default: packed). */
  pitch?: number;
  /** Default 'auto': derive, else an image when the driver cannot map the surface directly. */
  method?: VaTransferMethod;
}

export interface VaExportOptions {
  /** 'composed' (default): one layer in the surface's DRM format; 'separate': one layer per plane. */
  layers?: 'composed' | 'separate';
  /** What the importer will do with it (default 'read-write'). */
  access?: 'read' | 'write' | 'read-write';
}

function checkDimension(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 65535) {
    throw new RangeError(`${what} must be an integer from 1 to 65535; got ${describeValue(value)}`);
  }
  return value;
}

function checkOptions<T extends object>(options: unknown, what: string, keys: readonly string[]): Partial<T> {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object') throw new TypeError(`${what} must be an object; got ${describeValue(options)}`);
  for (const key of Object.keys(options)) {
    if (!keys.includes(key)) throw new TypeError(`${what}.${key} is not an option; the options are ${keys.join(', ')}`);
  }
  return options as Partial<T>;
}

function checkChoice<T extends string>(value: unknown, what: string, choices: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !(choices as readonly string[]).includes(value)) {
    throw new TypeError(`${what} must be ${choices.map((c) => `'${c}'`).join(' or ')}; got ${describeValue(value)}`);
  }
  return value as T;
}

/** A detached ArrayBuffer (transferred, or structuredClone'd with transfer) reads as 0 bytes: say so, naming the argument. */
function checkNotDetached(data: ArrayBuffer | ArrayBufferView, what: string): void {
  const buffer = data instanceof ArrayBuffer ? data : data.buffer;
  if (buffer instanceof ArrayBuffer && buffer.byteLength === 0 && isDetached(buffer)) {
    throw new TypeError(`${what} is ${data instanceof ArrayBuffer ? 'a detached ArrayBuffer' : 'a view of a detached ArrayBuffer'} (it was transferred): its bytes are gone`);
  }
}

function isDetached(buffer: ArrayBuffer): boolean {
  const flag = (buffer as { detached?: boolean }).detached;
  if (typeof flag === 'boolean') return flag;
  try {
    new Uint8Array(buffer);
    return false;
  } catch {
    return true;
  }
}

function hex(address: bigint): string {
  return `0x${address.toString(16)}`;
}

/** Displays this module opened, by address: adopting one of them shares it instead of pointing at it. */
const ownedDisplays = new Map<bigint, WeakRef<VaDisplay>>();

/**
 * A VA display (VADisplay). Open one with openVaDisplay() or VaDisplay.open(),
 * or adopt another library's with VaDisplay.adopt(). Pass it to the
 * cl_intel_va_api_media_sharing facade's getDevices()/createContext().
 */
export class VaDisplay {
  /** How it was made. */
  readonly kind: 'drm' | 'x11' | 'adopted';
  /** The render node, X display name or address it was made from. */
  readonly source: string;
  #native: NativeVaDisplay | null;
  #address: bigint;
  #surfaceFormats?: string[];

  /** @internal */
  constructor(native: NativeVaDisplay, kind: 'drm' | 'x11' | 'adopted', source: string) {
    this.#native = native;
    this.kind = kind;
    this.source = source;
    this.#address = native.address;
    if (native.owned) ownedDisplays.set(this.#address, new WeakRef(this));
  }

  /** Opens a display: see VaDisplayOptions. */
  static open(options?: VaDisplayOptions): VaDisplay {
    return openVaDisplay(options);
  }

  /**
   * A display another library made, given as its address (VADisplay, or
   * FFmpeg's AVVAAPIDeviceContext). The address is checked before libva sees
   * it: memory that is not a live, initialized VADisplay is a VaDisplayError.
   * The owner keeps the display alive; this object never terminates it.
   */
  static adopt(address: bigint, options?: VaAdoptOptions): VaDisplay {
    const { from } = checkOptions<VaAdoptOptions>(options, 'options', ['from']);
    const kind = checkChoice(from, 'options.from', ['VADisplay', 'AVVAAPIDeviceContext'] as const, 'VADisplay');
    if (typeof address !== 'bigint' || address <= 0n || address >= 2n ** 64n) {
      throw new TypeError(`address must be a non-zero bigint (the ${kind}'s address); got ${describeValue(address)}`);
    }
    const native = libva();
    const result = native.vaAdopt(address, kind === 'AVVAAPIDeviceContext');
    if ('step' in result) {
      let reason = result.message;
      if (kind === 'AVVAAPIDeviceContext') {
        // A common mix-up: the VADisplay itself given as the context.
        const direct = native.vaAdopt(address, false);
        if ('display' in direct) {
          direct.display.release();
          reason = `it is a VADisplay itself, not an AVVAAPIDeviceContext holding one: adopt it with { from: 'VADisplay' } (the default)`;
        }
      }
      throw new VaDisplayError(`${hex(address)} is not a live ${kind}: ${reason}`, [{ kind: 'adopt', target: hex(address), reason }]);
    }
    // One of ours: share it, so that it stays alive while this object does.
    const ours = ownedDisplays.get(result.display.address)?.deref();
    if (ours && !ours.disposed) {
      result.display.release();
      return new VaDisplay(ours.native.share(), 'adopted', hex(address));
    }
    return new VaDisplay(result.display, 'adopted', hex(address));
  }

  /** @internal The native display; throws OpenCLReleasedError after dispose(). */
  get native(): NativeVaDisplay {
    if (!this.#native) throw new OpenCLReleasedError('VaDisplay');
    return this.#native;
  }

  /** @internal A hold on the display for something that must outlive it (an OpenCL context made on it). */
  hold(): NativeVaDisplay {
    return this.native.share();
  }

  /**
   * @internal The VADisplay's address also after dispose(): the display stays
   * alive natively while a surface or a context holds it.
   */
  get heldAddress(): bigint {
    return this.#address;
  }

  /** The VADisplay as a bigint (what clCreateContext's CL_CONTEXT_VA_API_DISPLAY_INTEL takes). */
  get address(): bigint {
    this.native;
    return this.#address;
  }

  /** True once dispose() has run. */
  get disposed(): boolean {
    return this.#native === null;
  }

  /** vaQueryVendorString: the driver's description of itself. */
  get vendor(): string {
    return this.native.vendor() ?? '';
  }

  /** The VA-API version the driver runs at (major.minor). */
  get version(): { major: number; minor: number } | null {
    const driver = this.native.versions().driver;
    return driver ? { major: driver[0], minor: driver[1] } : null;
  }

  /** libva's VA-API version, as vaInitialize reported it (displays opened here; null when adopted). */
  get libvaVersion(): { major: number; minor: number } | null {
    const version = this.native.versions().libva;
    return version ? { major: version[0], minor: version[1] } : null;
  }

  /** Profiles and their entrypoints. */
  profiles(): VaProfileInfo[] {
    return this.native.profiles().map((p) => ({
      profile: p.profile,
      name: p.name ?? `VAProfile ${p.profile}`,
      entrypoints: p.entrypoints.map((e) => ({ entrypoint: e.entrypoint, name: e.name ?? `VAEntrypoint ${e.entrypoint}` })),
    }));
  }

  /** Image formats (what vaCreateImage / vaGetImage / vaPutImage accept). */
  imageFormats(): VaImageFormat[] {
    return this.native.imageFormats().map((f) => ({
      fourcc: fourccText(f.fourcc),
      code: f.fourcc,
      byteOrder: f.byteOrder === 2 ? 'msb-first' : 'lsb-first',
      bitsPerPixel: f.bitsPerPixel,
      depth: f.depth,
      redMask: f.redMask,
      greenMask: f.greenMask,
      blueMask: f.blueMask,
      alphaMask: f.alphaMask,
    }));
  }

  /**
   * The pixel formats the driver offers for surfaces (vaQuerySurfaceAttributes,
   * through a config for VAProfileNone/VAEntrypointVideoProc, else the first
   * profile and entrypoint). Empty when the driver has no config to ask through.
   */
  surfaceFormats(): string[] {
    const native = this.native;
    if (this.#surfaceFormats) return [...this.#surfaceFormats];
    const profiles = this.profiles();
    const VAProfileNone = -1, VAEntrypointVideoProc = 10;
    const vpp = profiles.some((p) => p.profile === VAProfileNone && p.entrypoints.some((e) => e.entrypoint === VAEntrypointVideoProc));
    const first = profiles.find((p) => p.entrypoints.length > 0);
    const pair = vpp
      ? { profile: VAProfileNone, entrypoint: VAEntrypointVideoProc }
      : first && { profile: first.profile, entrypoint: first.entrypoints[0]!.entrypoint };
    const formats = pair ? native.surfaceAttributes(pair.profile, pair.entrypoint).pixelFormats.map(fourccText) : [];
    this.#surfaceFormats = formats;
    return [...formats];
  }

  /** One surface (vaCreateSurfaces). */
  createSurface(options: VaSurfaceOptions): VaSurface {
    return this.createSurfaces(1, options)[0]!;
  }

  /** `count` surfaces of one size and format, in one vaCreateSurfaces call. */
  createSurfaces(count: number, options: VaSurfaceOptions): VaSurface[] {
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > 4096) {
      throw new RangeError(`count must be an integer from 1 to 4096; got ${describeValue(count)}`);
    }
    if (options === undefined) throw new TypeError('options must give width and height');
    const o = checkOptions<VaSurfaceOptions>(options, 'options', ['width', 'height', 'format']);
    const width = checkDimension(o.width, 'options.width');
    const height = checkDimension(o.height, 'options.height');
    const format = o.format ?? 'NV12';
    const facts = formatFacts(format);
    if (!facts) throw new TypeError(`options.format must be one of ${vaFourccs.join(', ')}; got ${describeValue(format)}`);
    const natives = this.native.createSurfaces(facts.rt, fourccCode(format), width, height, count);
    return natives.map((native) => new VaSurface(this, native, format, width, height, false));
  }

  /**
   * A surface over DMA-BUF planes (vaCreateSurfaces with DRM PRIME memory):
   * the planes another process or API rendered, e.g. Electron's offscreen
   * `paint` texture on Linux, or a VaDmaBuf another display exported. The
   * driver imports the file descriptors; the caller keeps (and closes) them.
   */
  importDmaBuf(descriptor: VaDmaBufImport | VaDmaBuf): VaSurface {
    const native = this.native;
    const desc = descriptor instanceof VaDmaBuf ? descriptor.toImport() : descriptor;
    const { memoryType, rtFormat, native: checked } = importDescriptor(desc);
    const surface = native.importSurface(rtFormat, memoryType, checked);
    return new VaSurface(this, surface, desc.format, checked.width, checked.height, true);
  }

  /**
   * Lets go of the display. Idempotent. An opened display is terminated once
   * its surfaces and the OpenCL contexts made on it are released too; until
   * then they keep working.
   */
  dispose(): void {
    const native = this.#native;
    if (!native) return;
    this.#native = null;
    if (ownedDisplays.get(this.#address)?.deref() === this) ownedDisplays.delete(this.#address);
    native.release();
  }

  [Symbol.dispose](): void {
    this.dispose();
  }
}

/**
 * Opens a VA display: a DRM render node (the first /dev/dri/renderD*, or the
 * one named by options.device or $OPENCL_INTEROP_VA_DEVICE), or an X11
 * display ($DISPLAY). Throws VaNotAvailableError without libva and
 * VaDisplayError (listing what was tried) when nothing opens.
 */
export function openVaDisplay(options?: VaDisplayOptions): VaDisplay {
  const o = checkOptions<VaDisplayOptions>(options, 'options', ['kind', 'device', 'x11Display']);
  const kind = checkChoice(o.kind, 'options.kind', ['auto', 'drm', 'x11'] as const, 'auto');
  for (const key of ['device', 'x11Display'] as const) {
    if (o[key] !== undefined && (typeof o[key] !== 'string' || o[key] === '')) {
      throw new TypeError(`options.${key} must be a non-empty string; got ${describeValue(o[key])}`);
    }
  }
  if (o.device !== undefined && kind === 'x11') throw new TypeError("options.device names a DRM node; it does not go with kind 'x11'");
  if (o.x11Display !== undefined && kind === 'drm') throw new TypeError("options.x11Display does not go with kind 'drm'");
  const native = libva();
  const loaded = loadLibva();
  const attempts: VaDisplayAttempt[] = [];
  let status: number | undefined;
  const tryOpen = (attemptKind: 'drm' | 'x11', target: string, open: () => ReturnType<typeof native.vaOpenDrm>): VaDisplay | undefined => {
    const result = open();
    if ('display' in result) return new VaDisplay(result.display, attemptKind, target);
    const why =
      result.step === 'vaInitialize'
        ? `vaInitialize failed: ${vaStatusName(result.status ?? 0xffffffff)} (${(result.status ?? 0xffffffff) >>> 0})${result.message ? `; libva: ${result.message}` : ''}${driverPathProblem()}`
        : `${result.step}: ${result.message}`;
    if (result.status !== undefined) status = result.status >>> 0;
    attempts.push({ kind: attemptKind, target, reason: why });
    return undefined;
  };

  if (kind !== 'x11') {
    const named = o.device ?? process.env[VA_DEVICE_ENV];
    if (!loaded.drm) {
      attempts.push({ kind: 'drm', target: named ?? '/dev/dri/renderD*', reason: `libva-drm could not be loaded (${describeProblems(loaded.problems, 'libva-drm')})` });
    } else if (named) {
      const display = tryOpen('drm', named, () => native.vaOpenDrm(named));
      if (display) return display;
    } else {
      const nodes = renderNodes();
      if (nodes.length === 0) {
        attempts.push({
          kind: 'drm',
          target: '/dev/dri/renderD*',
          reason: existsSync('/dev/dri')
            ? 'no render node: /dev/dri has no renderD* entry'
            : 'no render node: /dev/dri does not exist (no GPU is visible to this machine or container)',
        });
      }
      for (const node of nodes) {
        const display = tryOpen('drm', node, () => native.vaOpenDrm(node));
        if (display) return display;
      }
    }
  }
  const explicitDrm = kind === 'auto' && (o.device !== undefined || process.env[VA_DEVICE_ENV] !== undefined);
  if (kind !== 'drm' && !explicitDrm) {
    const name = o.x11Display ?? process.env.DISPLAY;
    if (!loaded.x11) {
      attempts.push({ kind: 'x11', target: name ?? '', reason: `libva-x11 could not be loaded (${describeProblems(loaded.problems, 'libva-x11')})` });
    } else if (!name) {
      attempts.push({ kind: 'x11', target: '', reason: 'DISPLAY is not set (no X server to ask)' });
    } else {
      const display = tryOpen('x11', name, () => native.vaOpenX11(name));
      if (display) return display;
    }
  }
  const lines = attempts.map((a) => `  - ${a.kind === 'drm' ? 'DRM' : 'X11'} ${a.target || '(none)'}: ${a.reason}`).join('\n');
  throw new VaDisplayError(
    `No VA display could be opened. Tried:\n${lines}\n` +
      `Name a render node with options.device or ${VA_DEVICE_ENV}, run under X11 (DISPLAY), ` +
      "and check that the GPU's VA driver is installed (vainfo tells; LIBVA_DRIVER_NAME picks one).",
    attempts,
    status,
  );
}

/** Why libva may not have found its driver: what LIBVA_DRIVERS_PATH (and LIBVA_DRIVER_NAME) name that is not there. */
function driverPathProblem(): string {
  const path = process.env.LIBVA_DRIVERS_PATH;
  if (!path) return '';
  const name = process.env.LIBVA_DRIVER_NAME;
  const missing: string[] = [];
  for (const dir of path.split(':').filter(Boolean)) {
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      missing.push(`${dir} (not a readable folder)`);
      continue;
    }
    const drivers = entries.filter((entry) => entry.endsWith('_drv_video.so'));
    if (name ? drivers.includes(`${name}_drv_video.so`) : drivers.length > 0) return '';
    missing.push(`${dir} (${drivers.length ? `has ${drivers.join(', ')}` : 'no *_drv_video.so'})`);
  }
  return `; LIBVA_DRIVERS_PATH=${path} has no ${name ? `${name}_drv_video.so (LIBVA_DRIVER_NAME=${name})` : 'VA driver'}: ${missing.join('; ')}`;
}

function describeProblems(problems: readonly { library: string; error: string }[], library: string): string {
  const mine = problems.filter((p) => p.library === library).map((p) => p.error);
  return mine.length ? mine.join('; ') : 'not found';
}

function renderNodes(): string[] {
  let entries: string[];
  try {
    entries = readdirSync('/dev/dri');
  } catch {
    return [];
  }
  return entries
    .filter((name) => /^renderD\d+$/.test(name))
    .sort((a, b) => Number(a.slice(7)) - Number(b.slice(7)))
    .map((name) => `/dev/dri/${name}`);
}

/**
 * A VA surface (VASurfaceID) of a display. Its planes can be written and read
 * from JavaScript, it can be exported as DMA-BUF, and the
 * cl_intel_va_api_media_sharing facade shares it with OpenCL (NV12) without
 * copying. It keeps its display alive.
 */
export class VaSurface {
  readonly display: VaDisplay;
  /** The VASurfaceID. */
  readonly id: number;
  /** Its pixel format. */
  readonly format: VaFourcc;
  readonly width: number;
  readonly height: number;
  /** True when it was made over imported DMA-BUF planes. */
  readonly imported: boolean;
  /** How the last plane transfer went: through vaDeriveImage, or an image (vaCreateImage + vaGetImage/vaPutImage). */
  lastTransfer: 'derive' | 'image' | null = null;
  #native: NativeVaSurface | null;
  #holds = 0;
  /** The OpenCL images made from it: host transfers wait for their releases and refuse while they are acquired. */
  readonly #openclUse = new HostAccessGuards();
  #disposeRequested = false;

  /** @internal */
  constructor(display: VaDisplay, native: NativeVaSurface, format: VaFourcc, width: number, height: number, imported: boolean) {
    this.display = display;
    this.#native = native;
    this.id = native.id;
    this.format = format;
    this.width = width;
    this.height = height;
    this.imported = imported;
  }

  /** @internal The native surface; throws OpenCLReleasedError after dispose(). */
  get native(): NativeVaSurface {
    if (!this.#native || this.#disposeRequested) throw new OpenCLReleasedError('VaSurface');
    return this.#native;
  }

  /** True once dispose() has run. */
  get disposed(): boolean {
    return this.#disposeRequested || this.#native === null;
  }

  /** The planes of its format at its size (NV12: Y, then UV at half size). */
  get planes(): VaPlaneSize[] {
    return vaPlaneSizes(this.format, this.width, this.height);
  }

  /** Waits until the driver's work on the surface is done (vaSyncSurface). */
  sync(): void {
    this.native.sync();
  }

  /** What the surface is doing (vaQuerySurfaceStatus). */
  get status(): VaSurfaceState {
    const bits = this.native.status();
    for (const name of ['rendering', 'displaying', 'skipped', 'ready'] as const) if (bits & VA_SURFACE_STATUS[name]) return name;
    return 'ready';
  }

  #plane(plane: unknown): VaPlaneSize {
    const planes = this.planes;
    if (typeof plane !== 'number' || !Number.isInteger(plane) || plane < 0 || plane >= planes.length) {
      throw new RangeError(
        `plane must be ${planes.length === 1 ? '0' : `an integer from 0 to ${planes.length - 1}`} for ${this.format} (${planes.length} plane${planes.length > 1 ? 's' : ''}); got ${describeValue(plane)}`,
      );
    }
    return planes[plane]!;
  }

  #transfer(write: boolean, plane: number, data: ArrayBufferView, size: VaPlaneSize, options: VaPlaneTransferOptions | undefined): void {
    const o = checkOptions<VaPlaneTransferOptions & { into?: unknown }>(options, 'options', write ? ['pitch', 'method'] : ['pitch', 'method', 'into']);
    const method = checkChoice(o.method, 'options.method', ['auto', 'derive', 'image'] as const, 'auto');
    const pitch = o.pitch ?? size.bytesPerRow;
    if (typeof pitch !== 'number' || !Number.isInteger(pitch) || pitch < size.bytesPerRow) {
      throw new RangeError(`options.pitch must be an integer of at least ${size.bytesPerRow} (bytes in a row of plane ${plane}); got ${describeValue(o.pitch)}`);
    }
    const needed = pitch * (size.height - 1) + size.bytesPerRow;
    if (data.byteLength < needed) {
      throw new RangeError(
        `plane ${plane} of a ${this.width}x${this.height} ${this.format} surface is ${size.height} rows of ${size.bytesPerRow} bytes: ` +
          `${write ? 'data' : 'options.into'} needs ${needed} bytes${pitch === size.bytesPerRow ? '' : ` at pitch ${pitch}`}; it has ${data.byteLength}`,
      );
    }
    const native = this.native;
    this.#openclUse.settle(`VaSurface.${write ? 'writePlane' : 'readPlane'}(${plane})`);
    if (!write) native.sync();
    const used = native.transfer(write, plane, data, pitch, size.bytesPerRow, size.height, method, fourccCode(this.format), this.width, this.height);
    if (used !== 'none') this.lastTransfer = used;
  }

  /** Copies `data` (rows of bytesPerRow bytes, `pitch` apart) into one plane. */
  writePlane(plane: number, data: ArrayBufferView | ArrayBuffer, options?: VaPlaneTransferOptions): void {
    this.native;
    const size = this.#plane(plane);
    if (!(data instanceof ArrayBuffer) && !ArrayBuffer.isView(data)) throw new TypeError(`data must be an ArrayBuffer or a typed array; got ${describeValue(data)}`);
    checkNotDetached(data, 'data');
    const view = data instanceof ArrayBuffer ? new Uint8Array(data) : data;
    this.#transfer(true, plane, view, size, options);
  }

  /** Copies one plane out (after vaSyncSurface): packed rows unless options.pitch, into options.into if given. */
  readPlane(plane: number, options?: VaPlaneTransferOptions & { into?: ArrayBufferView }): Uint8Array {
    this.native;
    const size = this.#plane(plane);
    const into = options?.into;
    if (into !== undefined && !ArrayBuffer.isView(into)) throw new TypeError(`options.into must be a typed array; got ${describeValue(into)}`);
    if (into !== undefined) checkNotDetached(into, 'options.into');
    const pitch = options?.pitch ?? size.bytesPerRow;
    const target = into ?? new Uint8Array(typeof pitch === 'number' && pitch > 0 ? pitch * (size.height - 1) + size.bytesPerRow : 0);
    this.#transfer(false, plane, target, size, options);
    return target instanceof Uint8Array ? target : new Uint8Array(target.buffer, target.byteOffset, target.byteLength);
  }

  /** Writes every plane, one array per plane (packed rows). */
  write(planes: readonly (ArrayBufferView | ArrayBuffer)[], options?: VaPlaneTransferOptions): void {
    const count = this.planes.length;
    if (!Array.isArray(planes) || planes.length !== count) {
      throw new TypeError(`planes must be an array of ${count} (one per plane of ${this.format}); got ${describeValue(planes)}`);
    }
    planes.forEach((data, i) => this.writePlane(i, data, options));
  }

  /** Reads every plane (packed rows). */
  read(options?: VaPlaneTransferOptions): Uint8Array[] {
    return this.planes.map((_, i) => this.readPlane(i, options));
  }

  /**
   * The surface as a DRM PRIME descriptor (vaExportSurfaceHandle): file
   * descriptors the returned VaDmaBuf owns. The driver does not synchronize:
   * call sync() first if the surface was just rendered to.
   */
  exportDmaBuf(options?: VaExportOptions): VaDmaBuf {
    const o = checkOptions<VaExportOptions>(options, 'options', ['layers', 'access']);
    const layers = checkChoice(o.layers, 'options.layers', ['composed', 'separate'] as const, 'composed');
    const access = checkChoice(o.access, 'options.access', ['read', 'write', 'read-write'] as const, 'read-write');
    const flags =
      (layers === 'composed' ? VA_EXPORT_SURFACE.COMPOSED_LAYERS : VA_EXPORT_SURFACE.SEPARATE_LAYERS) |
      { read: VA_EXPORT_SURFACE.READ_ONLY, write: VA_EXPORT_SURFACE.WRITE_ONLY, 'read-write': VA_EXPORT_SURFACE.READ_WRITE }[access];
    return new VaDmaBuf(this.native.exportPrime(flags));
  }

  /**
   * @internal Keeps the surface from being destroyed while an OpenCL image
   * shares it (and host transfers in step with its acquire state, `guard`);
   * the returned function lets go (once).
   */
  hold(guard?: HostAccessGuard): () => void {
    this.native;
    this.#holds++;
    let held = true;
    const unguard = guard && this.#openclUse.add(guard);
    return () => {
      if (!held) return;
      held = false;
      unguard?.();
      this.#holds--;
      if (this.#holds === 0 && this.#disposeRequested) this.#destroy();
    };
  }

  #destroy(): void {
    const native = this.#native;
    this.#native = null;
    native?.destroy();
  }

  /**
   * Destroys the surface (vaDestroySurfaces). Idempotent. While OpenCL images
   * made from it are alive, it stays until they are released.
   */
  dispose(): void {
    if (this.#disposeRequested || !this.#native) return;
    this.#disposeRequested = true;
    if (this.#holds === 0) this.#destroy();
  }

  [Symbol.dispose](): void {
    this.dispose();
  }
}
