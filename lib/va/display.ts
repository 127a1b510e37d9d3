// VA displays. A display is opened on a DRM render node or an X11 display (and
// terminated when nothing holds it any more), or adopted from an address
// another library made (never terminated here). It creates and imports
// surfaces (surface.ts); they hold their display: a disposed display stays
// alive, natively, until its last surface and the last OpenCL context made on
// it are gone.
import { existsSync, readdirSync } from 'node:fs';
import type { NativeVaDisplay } from './native-types';
import { OpenCLReleasedError, describeValue } from '../errors';
import { NativeHolder } from '../holder';
import { type VaFourcc, formatFacts, fourccCode, fourccText, vaFourccs, vaStatusName } from '../facts/va-formats';
import { checkChoice, checkInt, checkNonEmptyString, checkOptions } from '../validate';
import { VaDmaBuf, type VaDmaBufImport, importDescriptor } from './dma-buf';
import { VaDisplayError, type VaDisplayAttempt } from './errors';
import { libva, loadLibva } from './loader';
import { VaSurface } from './surface';

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

function hex(address: bigint): string {
  return `0x${address.toString(16)}`;
}

/**
 * A VA display (VADisplay). Open one with openVaDisplay() or VaDisplay.open(),
 * or adopt another library's with VaDisplay.adopt(). Pass it to the
 * cl_intel_va_api_media_sharing facade's getDevices()/createContext().
 * dispose() lets go of it: an opened display is terminated once its surfaces
 * and the OpenCL contexts made on it are released too; until then they keep
 * working.
 */
export class VaDisplay extends NativeHolder<NativeVaDisplay> {
  /** How it was made. */
  readonly kind: 'drm' | 'x11' | 'adopted';
  /** The render node, X display name or address it was made from. */
  readonly source: string;
  #address: bigint;
  #surfaceFormats?: string[];

  /** @internal */
  constructor(native: NativeVaDisplay, kind: 'drm' | 'x11' | 'adopted', source: string) {
    super(native);
    this.kind = kind;
    this.source = source;
    this.#address = native.address;
  }

  /** @internal */
  protected disposedError(): Error {
    return new OpenCLReleasedError('VaDisplay');
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
   * A display this module opened (in any thread of the process, disposed or
   * not) is shared instead: it stays alive until this object, too, is disposed.
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
    // One this module opened comes back shared (native/va/display.cc, the registry in native/va/loader.cc): it lives while this object does.
    return new VaDisplay(result.display, 'adopted', hex(address));
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

  /** vaQueryVendorString: the driver's description of itself. */
  get vendor(): string {
    return this.native.vendor() ?? '';
  }

  /** The VA-API version the driver runs at (major.minor). */
  get version(): { major: number; minor: number } | null {
    const driver = this.native.versions().driver;
    return driver ? { major: driver[0], minor: driver[1] } : null;
  }

  /** libva's VA-API version, as vaInitialize reported it (displays opened by this module; null when adopted from another library). */
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
    const VAProfileNone = -1,
      VAEntrypointVideoProc = 10;
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
    checkInt(count, 'count', 1, 4096);
    if (options === undefined) throw new TypeError('options must give width and height');
    const o = checkOptions<VaSurfaceOptions>(options, 'options', ['width', 'height', 'format']);
    const width = checkInt(o.width, 'options.width', 1, 65535);
    const height = checkInt(o.height, 'options.height', 1, 65535);
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
  for (const key of ['device', 'x11Display'] as const) if (o[key] !== undefined) checkNonEmptyString(o[key], `options.${key}`);
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
      attempts.push({
        kind: 'drm',
        target: named ?? '/dev/dri/renderD*',
        reason: `libva-drm could not be loaded (${describeProblems(loaded.problems, 'libva-drm')})`,
      });
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

declare module './surface' {
  // VaDisplay is what surface.ts calls VaDisplayLink.
  interface VaDisplayLink extends VaDisplay {}
}
