// A VA surface (VASurfaceID) of a display: its planes written and read from
// JavaScript (vaDeriveImage + vaMapBuffer, or vaCreateImage + vaGetImage /
// vaPutImage), exported as DMA-BUF (vaExportSurfaceHandle), and held while an
// OpenCL image shares it (cl_intel_va_api_media_sharing, lib/interop/va-api.ts).
// It keeps its display alive: the native surface holds the native display.
import type { NativeVaSurface } from './native-types';
import { OpenCLReleasedError, describeValue } from '../errors';
import {
  VA_EXPORT_SURFACE,
  VA_SURFACE_STATUS,
  type VaFourcc,
  type VaPlaneSize,
  type VaSurfaceState,
  fourccCode,
  vaPlaneSizes,
} from '../facts/va-formats';
import { type HostAccessGuard, HostAccessGuards } from '../sharing-hooks';
import { checkChoice, checkNotDetached, checkOptions } from '../validate';
import { VaDmaBuf } from './dma-buf';

/**
 * A surface's display: the VaDisplay (display.ts completes this link), so
 * that this file does not import the module that creates its surfaces.
 */
// biome-ignore lint/suspicious/noEmptyInterface: completed by declaration merging in the module that owns it
export interface VaDisplayLink {}

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

/**
 * A VA surface (VASurfaceID) of a display. Its planes can be written and read
 * from JavaScript, it can be exported as DMA-BUF, and the
 * cl_intel_va_api_media_sharing facade shares it with OpenCL (NV12) without
 * copying. It keeps its display alive.
 */
export class VaSurface {
  readonly display: VaDisplayLink;
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
  constructor(display: VaDisplayLink, native: NativeVaSurface, format: VaFourcc, width: number, height: number, imported: boolean) {
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
    const o = checkOptions<VaPlaneTransferOptions & { into?: unknown }>(
      options,
      'options',
      write ? ['pitch', 'method'] : ['pitch', 'method', 'into'],
    );
    const method = checkChoice(o.method, 'options.method', ['auto', 'derive', 'image'] as const, 'auto');
    const pitch = o.pitch ?? size.bytesPerRow;
    if (typeof pitch !== 'number' || !Number.isInteger(pitch) || pitch < size.bytesPerRow) {
      throw new RangeError(
        `options.pitch must be an integer of at least ${size.bytesPerRow} (bytes in a row of plane ${plane}); got ${describeValue(o.pitch)}`,
      );
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
    if (!(data instanceof ArrayBuffer) && !ArrayBuffer.isView(data))
      throw new TypeError(`data must be an ArrayBuffer or a typed array; got ${describeValue(data)}`);
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
    planes.forEach((data, i) => {
      this.writePlane(i, data, options);
    });
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
