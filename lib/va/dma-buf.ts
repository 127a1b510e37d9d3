// DMA-BUF descriptors: what vaExportSurfaceHandle gives (VaDmaBuf, which owns
// its file descriptors) and what a surface import takes (VaDmaBufImport:
// planes of file descriptors, as Electron's offscreen `paint` event and
// other producers hand them out).
import { fstatSync } from 'node:fs';
import type { NativeVaPrime } from './native-types';
import { describeValue } from '../errors';
import { closeOwned, ownHandle } from '../os-handle';
import { checkDrmModifier, checkInt, checkObject } from '../validate';
import { DRM_FORMAT_MOD_LINEAR, type VaFourcc, formatFacts, fourccCode, fourccText, vaFourccs, vaPlaneSizes } from '../facts/va-formats';

/** One plane of a DMA-BUF import. */
export interface VaDmaBufPlane {
  /** The file descriptor of the memory object (a DMA-BUF; the driver imports it, the caller keeps it). */
  fd: number;
  /** Byte offset of the plane's first row in that object (default 0). */
  offset?: number;
  /** Bytes from one row to the next. */
  pitch: number;
  /** Bytes of the plane (optional: the object's size is then asked of the fd). */
  size?: number;
}

/** Planes to import as a surface (VASurfaceAttribExternalBuffers / VADRMPRIMESurfaceDescriptor). */
export interface VaDmaBufImport {
  format: VaFourcc;
  width: number;
  height: number;
  /** One entry per plane of `format`, in the format's order (NV12: Y, UV). Planes may share an fd. */
  planes: readonly VaDmaBufPlane[];
  /** DRM format modifier of the memory (default DRM_FORMAT_MOD_LINEAR); a decimal string as Electron gives is accepted. */
  modifier?: bigint | string;
  /** 'drm-prime-2' (VADRMPRIMESurfaceDescriptor, default) or 'drm-prime' (VASurfaceAttribExternalBuffers, older drivers). */
  memoryType?: 'drm-prime-2' | 'drm-prime';
}

/** A memory object of an exported surface. */
export interface VaDmaBufObject {
  readonly fd: number;
  readonly size: number;
  readonly modifier: bigint;
}

/** A layer of an exported surface: a DRM format and its planes. */
export interface VaDmaBufLayer {
  /** DRM fourcc ('NV12' composed; 'R8  ' and 'GR88' for NV12's separate layers). */
  readonly drmFormat: string;
  readonly planes: readonly { readonly object: number; readonly offset: number; readonly pitch: number }[];
}

/**
 * A surface exported as a DRM PRIME descriptor (vaExportSurfaceHandle). It
 * owns the file descriptors: close() (or `using`, or garbage collection)
 * closes them; do not close them yourself. Pass it to another display's
 * importDmaBuf(), or the fds and layout to another API.
 */
export class VaDmaBuf {
  /** The surface's VA fourcc ('NV12'). */
  readonly format: string;
  readonly width: number;
  readonly height: number;
  readonly objects: readonly VaDmaBufObject[];
  readonly layers: readonly VaDmaBufLayer[];
  readonly #fds: number[];
  #closed = false;

  /** @internal */
  constructor(prime: NativeVaPrime) {
    this.format = fourccText(prime.fourcc);
    this.width = prime.width;
    this.height = prime.height;
    this.objects = Object.freeze(prime.objects.map((o) => Object.freeze({ ...o })));
    this.layers = Object.freeze(
      prime.layers.map((l) =>
        Object.freeze({ drmFormat: fourccText(l.drmFormat), planes: Object.freeze(l.planes.map((p) => Object.freeze({ ...p }))) }),
      ),
    );
    this.#fds = prime.objects.map((o) => o.fd);
    for (const fd of this.#fds) ownHandle(this, fd, 'dma-buf');
  }

  /** True once close() has run. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Closes the file descriptors. Idempotent; never throws. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const fd of this.#fds) closeOwned(this, fd, 'dma-buf');
  }

  [Symbol.dispose](): void {
    this.close();
  }

  /** The planes as an import descriptor (for importDmaBuf on another display, or to hand on). */
  toImport(): VaDmaBufImport {
    if (this.#closed) throw new TypeError('this VaDmaBuf is closed: its file descriptors are gone');
    const planes = this.layers.flatMap((layer) => layer.planes.map((p) => ({ fd: this.objects[p.object]!.fd, offset: p.offset, pitch: p.pitch })));
    const modifier = this.objects[0]?.modifier ?? DRM_FORMAT_MOD_LINEAR;
    return { format: this.format as VaFourcc, width: this.width, height: this.height, planes, modifier };
  }
}

const MAX_FD = 0x7fffffff;

/** A file descriptor that can be a DMA-BUF: open, and not a directory, a pipe or a socket. */
function checkDmaBufFd(fd: number, what: string): void {
  let kind: string | undefined;
  try {
    const stat = fstatSync(fd);
    kind = stat.isDirectory() ? 'a directory' : stat.isFIFO() ? 'a pipe' : stat.isSocket() ? 'a socket' : undefined;
  } catch (error) {
    throw new TypeError(`${what} ${fd} is not an open file descriptor (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  if (kind) throw new TypeError(`${what} ${fd} is ${kind}, not a DMA-BUF (a DRM PRIME file descriptor)`);
}

/** @internal A checked import descriptor, objects grouped by fd, for native importSurface. */
export function importDescriptor(desc: VaDmaBufImport) {
  checkObject(desc, 'the import descriptor');
  const facts = formatFacts(desc.format);
  if (!facts) throw new TypeError(`format must be one of ${vaFourccs.join(', ')}; got ${describeValue(desc.format)}`);
  const width = checkInt(desc.width, 'width', 1, 65535);
  const height = checkInt(desc.height, 'height', 1, 65535);
  const memoryType = desc.memoryType ?? 'drm-prime-2';
  if (memoryType !== 'drm-prime-2' && memoryType !== 'drm-prime') {
    throw new TypeError(`memoryType must be 'drm-prime-2' or 'drm-prime'; got ${describeValue(desc.memoryType)}`);
  }
  const sizes = vaPlaneSizes(desc.format, width, height);
  if (!Array.isArray(desc.planes) || desc.planes.length !== sizes.length) {
    throw new TypeError(
      `planes must be an array of ${sizes.length} plane${sizes.length > 1 ? 's' : ''} for ${desc.format}; got ${describeValue(desc.planes)}`,
    );
  }
  const modifier = checkDrmModifier(desc.modifier, 'modifier');
  const objects: { fd: number; size: number; modifier: bigint }[] = [];
  const planes = desc.planes.map((plane, i) => {
    checkObject(plane, `planes[${i}]`);
    const fd = checkInt(plane.fd, `planes[${i}].fd`, 0, MAX_FD);
    const offset = checkInt(plane.offset ?? 0, `planes[${i}].offset`, 0, 0xffffffff);
    const pitch = checkInt(plane.pitch, `planes[${i}].pitch`, 1, 0xffffffff);
    if (pitch < sizes[i]!.bytesPerRow) {
      throw new RangeError(
        `planes[${i}].pitch ${pitch} is less than the ${sizes[i]!.bytesPerRow} bytes a row of plane ${i} of a ${width}x${height} ${desc.format} surface holds`,
      );
    }
    const needed = pitch * (sizes[i]!.height - 1) + sizes[i]!.bytesPerRow;
    const size = plane.size === undefined ? undefined : checkInt(plane.size, `planes[${i}].size`, 1, 0xffffffff);
    if (size !== undefined && size < needed) {
      throw new RangeError(`planes[${i}].size ${size} is less than the ${needed} bytes its ${sizes[i]!.height} rows need`);
    }
    let object = objects.findIndex((o) => o.fd === fd);
    if (object < 0) {
      if (objects.length === 4) throw new RangeError('at most 4 distinct file descriptors (DRM PRIME objects)');
      checkDmaBufFd(fd, `planes[${i}].fd`);
      object = objects.push({ fd, size: 0, modifier }) - 1;
    }
    // The object's size: known when every plane in it says its size.
    const end = size === undefined ? Number.NaN : offset + size;
    objects[object]!.size = Number.isNaN(end) || Number.isNaN(objects[object]!.size) ? Number.NaN : Math.max(objects[object]!.size, end);
    return { object, offset, pitch };
  });
  for (const o of objects) if (Number.isNaN(o.size) || o.size > 0xffffffff) o.size = 0;
  return {
    memoryType: memoryType === 'drm-prime-2' ? ('prime2' as const) : ('prime' as const),
    rtFormat: facts.rt,
    native: { fourcc: fourccCode(desc.format), drmFormat: fourccCode(facts.drm), width, height, objects, planes },
  };
}
