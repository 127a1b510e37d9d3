// Frames in imported memory: the planes of one allocation (importPlanes) or
// of DMA-BUF file descriptors (importDmaBuf: a VaDmaBuf, Electron's shared
// texture, plain planes) checked, placed, and viewed as sub-buffers or as
// images over them. The facade (external-memory.ts) does the imports.
import { fstatSync } from 'node:fs';
import { CL } from '../facts/cl-constants';
import type { Context } from '../context';
import { OpenCLError, OpenCLExtensionError, describeValue } from '../errors';
import { type ImageFormat, resolveImageFormat } from '../facts/cl-image-formats';
import { DRM_FORMAT_MOD_INVALID, DRM_FORMAT_MOD_LINEAR } from '../facts/va-formats';
import { decode } from '../info';
import { type Access, type CLBuffer, CLImage, type MemObject } from '../memory';
import { VaDmaBuf } from '../va/dma-buf';
import { checkCount, checkDrmModifier } from '../validate';
import { SharingFacade } from './sharing';

/** One plane of an imported allocation: where its first row starts and the bytes from one row to the next. */
export interface ExternalPlane {
  offset: number;
  pitch: number;
}

/** Formats whose planes importPlanes() and importDmaBuf() know. */
export type PlaneFormat = 'NV12' | 'P010' | 'RGBA' | 'BGRA';

interface PlaneFacts {
  /** Divisors of width and height. */
  sub: number;
  bytesPerPixel: number;
  format: ImageFormat;
}
const planeFacts: Readonly<Record<PlaneFormat, readonly PlaneFacts[]>> = {
  NV12: [
    { sub: 1, bytesPerPixel: 1, format: { order: 'R', type: 'UNORM_INT8' } },
    { sub: 2, bytesPerPixel: 2, format: { order: 'RG', type: 'UNORM_INT8' } },
  ],
  P010: [
    { sub: 1, bytesPerPixel: 2, format: { order: 'R', type: 'UNORM_INT16' } },
    { sub: 2, bytesPerPixel: 4, format: { order: 'RG', type: 'UNORM_INT16' } },
  ],
  RGBA: [{ sub: 1, bytesPerPixel: 4, format: { order: 'RGBA', type: 'UNORM_INT8' } }],
  BGRA: [{ sub: 1, bytesPerPixel: 4, format: { order: 'BGRA', type: 'UNORM_INT8' } }],
};

/** Planes of imported memory. Acquire `memory`; the planes follow it. */
export class ImportedFrame {
  readonly format: PlaneFormat;
  readonly width: number;
  readonly height: number;
  /** The imported allocations (one per distinct file descriptor): what queue.acquire() takes. */
  readonly memory: readonly CLBuffer[];
  /** One per plane: sub-buffers, or images over them. */
  readonly planes: readonly (CLBuffer | CLImage)[];
  readonly #owned: MemObject[];

  /** @internal */
  constructor(format: PlaneFormat, width: number, height: number, memory: CLBuffer[], planes: (CLBuffer | CLImage)[], owned: MemObject[]) {
    this.format = format;
    this.width = width;
    this.height = height;
    this.memory = Object.freeze(memory);
    this.planes = Object.freeze(planes);
    this.#owned = owned;
  }

  /** Releases the planes and the imported memory (it must not be acquired). Idempotent. */
  release(): void {
    for (const mem of this.memory) {
      if (mem.acquired) mem.release(); // throws the "still acquired" OpenCLStateError before anything is released
    }
    for (const mem of [...this.planes, ...this.#owned, ...this.memory]) mem.release();
  }

  [Symbol.dispose](): void {
    this.release();
  }
}

/** Electron's Linux shared texture (`paint` event, `texture.textureInfo.handle.nativePixmap`). */
export interface NativePixmap {
  readonly planes: readonly { readonly fd: number; readonly stride: number; readonly offset: number; readonly size: number }[];
  /** DRM format modifier, a decimal string as Electron gives it (or a bigint). */
  readonly modifier?: string | bigint;
}

/** What importDmaBuf() takes: planes of DMA-BUF file descriptors with their layout. */
export interface DmaBufPlanes {
  format: PlaneFormat;
  width: number;
  height: number;
  planes: readonly { fd: number; offset?: number; pitch: number; size?: number }[];
  /** DRM format modifier (default linear). */
  modifier?: string | bigint;
}

/** Electron's textureInfo (the parts importDmaBuf reads). */
export interface ElectronTextureInfo {
  readonly pixelFormat?: string;
  readonly codedSize?: { readonly width: number; readonly height: number };
  readonly handle: { readonly nativePixmap: NativePixmap };
}

/** @internal */
export interface PlaneLayout {
  offset: number;
  pitch: number;
  width: number;
  rows: number;
  /** Bytes from the first row's start to the last row's end. */
  bytes: number;
  format: ImageFormat;
  bytesPerPixel: number;
}
/** @internal */
export interface FrameLayout {
  format: PlaneFormat;
  width: number;
  height: number;
  as: 'buffers' | 'images';
  planes: PlaneLayout[];
}

/** @internal A frame's format, size and planes, checked. */
export function checkLayout(format: unknown, width: unknown, height: unknown, planes: unknown, as: unknown): FrameLayout {
  if (typeof format !== 'string' || !Object.hasOwn(planeFacts, format)) {
    throw new TypeError(`format must be one of ${Object.keys(planeFacts).join(', ')}; got ${describeValue(format)}`);
  }
  const facts = planeFacts[format as PlaneFormat];
  checkCount(width, 'width', 1);
  checkCount(height, 'height', 1);
  if (facts.length > 1 && (width % 2 !== 0 || height % 2 !== 0))
    throw new RangeError(`${format} needs an even width and height; got ${width}x${height}`);
  if (as !== undefined && as !== 'buffers' && as !== 'images') throw new TypeError(`as must be 'buffers' or 'images'; got ${describeValue(as)}`);
  if (!Array.isArray(planes) || planes.length !== facts.length) {
    throw new TypeError(`planes must be ${facts.length} { offset, pitch } for ${format}; got ${describeValue(planes)}`);
  }
  const layouts = facts.map((fact, i) => {
    const plane: unknown = planes[i];
    if (plane === null || typeof plane !== 'object') throw new TypeError(`planes[${i}] must be { offset, pitch }; got ${describeValue(plane)}`);
    const { offset = 0, pitch } = plane as { offset?: unknown; pitch?: unknown };
    checkCount(offset, `planes[${i}].offset`);
    checkCount(pitch, `planes[${i}].pitch`, 1);
    const planeWidth = width / fact.sub;
    const rows = height / fact.sub;
    const rowBytes = planeWidth * fact.bytesPerPixel;
    if (pitch < rowBytes)
      throw new RangeError(
        `planes[${i}].pitch ${pitch} is less than a row of plane ${i} of a ${width}x${height} ${format} frame (${rowBytes} bytes)`,
      );
    return { offset, pitch, width: planeWidth, rows, bytes: pitch * (rows - 1) + rowBytes, format: fact.format, bytesPerPixel: fact.bytesPerPixel };
  });
  return { format: format as PlaneFormat, width, height, as: (as ?? 'buffers') as 'buffers' | 'images', planes: layouts };
}

/** @internal Planes inside their allocation, at offsets every device can make a sub-buffer at: checked before anything is imported. */
export function checkPlacement(context: Context, planes: readonly (PlaneLayout & { object?: number })[], sizeOf: (object: number) => number): void {
  planes.forEach((plane, i) => {
    const size = sizeOf(plane.object ?? 0);
    if (plane.offset + plane.bytes > size) {
      throw new RangeError(`plane ${i} (offset ${plane.offset}, ${plane.bytes} bytes) runs past the ${size} bytes of its allocation`);
    }
    for (const device of context.devices) {
      const align = device.memBaseAddrAlign / 8;
      if (plane.offset % align !== 0) {
        throw new RangeError(
          `plane ${i}'s offset ${plane.offset} is not a multiple of ${align} bytes, the sub-buffer alignment of "${device.name}" (CL_DEVICE_MEM_BASE_ADDR_ALIGN)`,
        );
      }
    }
  });
}

/** A 2D image over a plane's sub-buffer (cl_khr_image2d_from_buffer); it follows the sub-buffer's acquire state. */
function imageOverBuffer(context: Context, sub: CLBuffer, plane: PlaneLayout, index: number, access: Access | undefined): CLImage {
  for (const device of context.devices) {
    const { major } = device.versionNumber;
    if (major < 2 && !device.extensions.includes('cl_khr_image2d_from_buffer')) {
      throw new OpenCLExtensionError(
        'cl_khr_image2d_from_buffer',
        context.platform.name,
        `device "${device.name}" cannot make images over buffers: import the planes with as: 'buffers'`,
      );
    }
    const alignment = decode.uint(device.info(CL.CL_DEVICE_IMAGE_PITCH_ALIGNMENT)) * plane.bytesPerPixel;
    if (alignment > 0 && plane.pitch % alignment !== 0) {
      throw new RangeError(
        `planes[${index}].pitch ${plane.pitch} is not a multiple of ${alignment} bytes, the image pitch alignment of "${device.name}"`,
      );
    }
  }
  const format = resolveImageFormat(plane.format);
  const desc = {
    type: CL.CL_MEM_OBJECT_IMAGE2D,
    width: plane.width,
    height: plane.rows,
    depth: 0,
    arraySize: 0,
    rowPitch: plane.pitch,
    slicePitch: 0,
    buffer: sub.native,
    hostBytes: 0,
  };
  const what = `a ${plane.width}x${plane.rows} ${format.order}/${format.type} image at a row pitch of ${plane.pitch} bytes over plane ${index}`;
  const wayOut = "import the planes with as: 'buffers' (sub-buffers a kernel reads at the plane's offset and pitch)";
  const names = context.devices.map((d) => `"${d.name}"`).join(', ');
  let native;
  try {
    native = context.addon.createImage(context.native, SharingFacade.accessFlagsOf({ access }), [format.orderValue, format.typeValue], desc);
  } catch (error) {
    if (!(error instanceof OpenCLError)) throw error;
    let listed = true;
    try {
      listed = context
        .supportedImageFormats({ access, type: '2d' })
        .some((f) => f.orderValue === format.orderValue && f.typeValue === format.typeValue);
    } catch {
      // the query failing says nothing more
    }
    // NVIDIA (driver 580) answers CL_INVALID_OPERATION here: it makes no image over an imported buffer's sub-buffer.
    throw new OpenCLError(
      error.status,
      error.call,
      listed
        ? `${names} could not make ${what} of imported memory (cl_khr_image2d_from_buffer over external memory): ${wayOut}`
        : `${names} cannot make ${what}: ${format.order}/${format.type} is not among the context's 2D image formats (context.supportedImageFormats()); ${wayOut}`,
    );
  }
  const image = new CLImage(native, context);
  image.sharing = { ...sub.sharing!, description: `an image over ${sub.sharing!.description}`, checkAcquired: sub.sharing!.checkAcquired };
  image.keepAlive(() => {}, sub.native);
  return image;
}

/** What importDmaBuf() reads of its options to describe a source (the rest are the import's). */
interface DescriptorOptions {
  format?: PlaneFormat;
  width?: number;
  height?: number;
  assumeLinear?: boolean;
}

/** @internal The planes of a VaDmaBuf, an Electron pixmap or plain planes, checked. */
export function dmaBufDescriptor(
  source: unknown,
  options: DescriptorOptions,
): { format: PlaneFormat; width: number; height: number; planes: { fd: number; offset: number; pitch: number; size?: number }[] } {
  if (source instanceof VaDmaBuf) {
    const desc = source.toImport();
    requireLinear(desc.modifier, 'modifier', options.assumeLinear === true);
    return {
      format: desc.format as PlaneFormat,
      width: desc.width,
      height: desc.height,
      planes: desc.planes.map((p) => ({ fd: p.fd, offset: p.offset ?? 0, pitch: p.pitch })),
    };
  }
  if (source === null || typeof source !== 'object')
    throw new TypeError(
      `source must be a VaDmaBuf, an Electron textureInfo / nativePixmap, or { format, width, height, planes }; got ${describeValue(source)}`,
    );
  const info = source as Partial<ElectronTextureInfo> & Partial<NativePixmap> & Partial<DmaBufPlanes>;
  if (info.handle && typeof info.handle === 'object' && 'nativePixmap' in info.handle) {
    const electronFormat = typeof info.pixelFormat === 'string' ? info.pixelFormat.toUpperCase() : undefined;
    return dmaBufDescriptor(info.handle.nativePixmap, {
      ...options,
      format: options.format ?? (electronFormat as PlaneFormat | undefined),
      width: options.width ?? info.codedSize?.width,
      height: options.height ?? info.codedSize?.height,
    });
  }
  if (!Array.isArray(info.planes))
    throw new TypeError(`source.planes must be an array of { fd, offset, pitch | stride }; got ${describeValue(info.planes)}`);
  requireLinear(info.modifier, 'modifier', options.assumeLinear === true);
  const format = info.format ?? options.format;
  const width = info.width ?? options.width;
  const height = info.height ?? options.height;
  if (format === undefined || width === undefined || height === undefined) {
    throw new TypeError(
      'a nativePixmap does not say its format and size: pass options.format, width and height (Electron: textureInfo.pixelFormat and codedSize)',
    );
  }
  const planes = info.planes.map((plane: unknown, i) => {
    if (plane === null || typeof plane !== 'object') throw new TypeError(`planes[${i}] must be an object; got ${describeValue(plane)}`);
    const p = plane as { fd?: unknown; offset?: unknown; pitch?: unknown; stride?: unknown; size?: unknown };
    if (typeof p.fd !== 'number' || !Number.isInteger(p.fd) || p.fd < 0 || p.fd > 0x7fffffff)
      throw new TypeError(`planes[${i}].fd must be a file descriptor; got ${describeValue(p.fd)}`);
    const pitch = p.pitch ?? p.stride;
    const offset = p.offset ?? 0;
    checkCount(offset, `planes[${i}].offset`);
    checkCount(pitch, `planes[${i}].pitch`, 1);
    if (p.size !== undefined) checkCount(p.size, `planes[${i}].size`, 1);
    return { fd: p.fd, offset, pitch, size: p.size as number | undefined };
  });
  return { format: format as PlaneFormat, width: width as number, height: height as number, planes };
}

/**
 * A DMA-BUF's modifier, checked: planes are imported at their offsets and
 * pitches, which describe only a linear layout. DRM_FORMAT_MOD_INVALID (the
 * producer's implicit layout) passes with assumeLinear.
 */
function requireLinear(value: unknown, what: string, assumeLinear: boolean): void {
  if (value === undefined) return;
  const modifier = checkDrmModifier(value, what);
  if (modifier === DRM_FORMAT_MOD_LINEAR || (assumeLinear && modifier === DRM_FORMAT_MOD_INVALID)) return;
  throw new TypeError(
    `DRM format modifier 0x${modifier.toString(16)} is not linear: offsets and pitches do not describe that layout, so its planes cannot be imported` +
      (modifier === DRM_FORMAT_MOD_INVALID ? " (DRM_FORMAT_MOD_INVALID: pass assumeLinear: true if the producer's implicit layout is linear)" : ''),
  );
}

/**
 * @internal The allocations of a DMA-BUF descriptor (one per distinct file
 * descriptor) with the bytes each must have, and the planes placed in them.
 */
export function dmaBufObjects(
  source: unknown,
  desc: ReturnType<typeof dmaBufDescriptor>,
  layout: FrameLayout,
): { fds: number[]; sizes: number[]; planes: (PlaneLayout & { object: number })[] } {
  const fds = [...new Set(desc.planes.map((p) => p.fd))];
  const sizes = fds.map((fd) => {
    let size = 0;
    for (const [i, plane] of desc.planes.entries()) {
      if (plane.fd === fd) size = Math.max(size, plane.offset + Math.max(plane.size ?? 0, layout.planes[i]!.bytes));
    }
    // The object's own size where the kernel reports one (a DMA-BUF's inode size is its length).
    let fileSize: number;
    try {
      fileSize = fstatSync(fd).size;
    } catch (error) {
      const at = desc.planes.findIndex((p) => p.fd === fd);
      throw new TypeError(
        `planes[${at}].fd must be an open file descriptor; ${fd} is not (${(error as NodeJS.ErrnoException).code ?? String(error)})` +
          (source instanceof VaDmaBuf ? ": the VaDmaBuf's fds were closed behind its back (close() it instead)" : ''),
      );
    }
    if (fileSize > 0 && fileSize < size) throw new RangeError(`DMA-BUF fd ${fd} has ${fileSize} bytes; its planes reach ${size}`);
    return Math.max(fileSize, size);
  });
  const planes = desc.planes.map((p, i) => ({ ...layout.planes[i]!, offset: p.offset, object: fds.indexOf(p.fd) }));
  return { fds, sizes, planes };
}

/** @internal A frame's views over its imported memory; on failure everything made so far, the memory too, is released. */
export function planesOf(
  context: Context,
  memory: CLBuffer[],
  planes: (PlaneLayout & { object: number })[],
  layout: FrameLayout,
  access: Access | undefined,
): ImportedFrame {
  const made: MemObject[] = [];
  const owned: MemObject[] = [];
  try {
    const views = planes.map((plane, i) => {
      const parent = memory[plane.object]!;
      const sub = parent.createSubBuffer(plane.offset, plane.bytes, { access });
      made.push(sub);
      if (layout.as === 'buffers') return sub;
      const image = imageOverBuffer(context, sub, plane, i, access);
      owned.push(sub);
      made.push(image);
      return image;
    });
    return new ImportedFrame(layout.format, layout.width, layout.height, memory, views, owned);
  } catch (error) {
    for (const mem of made.reverse()) mem.release();
    for (const mem of memory) mem.release();
    throw error;
  }
}
