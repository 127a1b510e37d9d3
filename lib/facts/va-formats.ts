// VA-API facts as data (values from libva's va.h and the kernel's
// drm_fourcc.h): pixel formats with their planes, render-target formats,
// DRM format codes, and the VAStatus names.

/** Four characters to the little-endian code VA and DRM use (VA_FOURCC / fourcc_code). */
export function fourccCode(text: string): number {
  if (typeof text !== 'string' || text.length !== 4 || /[^\x20-\x7e]/.test(text)) {
    throw new TypeError(`a fourcc is four printable ASCII characters; got ${typeof text === 'string' ? JSON.stringify(text) : typeof text}`);
  }
  return (text.charCodeAt(0) | (text.charCodeAt(1) << 8) | (text.charCodeAt(2) << 16) | (text.charCodeAt(3) << 24)) >>> 0;
}

/** The four characters of a fourcc code ('NV12' for 0x3231564e). */
export function fourccText(code: number): string {
  return String.fromCharCode(code & 0xff, (code >>> 8) & 0xff, (code >>> 16) & 0xff, (code >>> 24) & 0xff);
}

/** VA_RT_FORMAT_* (va.h): what vaCreateSurfaces is asked for. */
export const VA_RT_FORMAT = Object.freeze({
  YUV420: 0x00000001,
  YUV422: 0x00000002,
  YUV444: 0x00000004,
  YUV400: 0x00000010,
  YUV420_10: 0x00000100,
  YUV420_12: 0x00001000,
  RGB32: 0x00020000,
  RGB32_10: 0x00200000,
} as const);

/** One plane of a pixel format: bytes per element and the sub-sampling of the element grid. */
interface PlaneShape {
  bytes: number;
  sx: number;
  sy: number;
}

interface FormatFacts {
  rt: number;
  planes: readonly PlaneShape[];
  /** DRM fourcc of the whole surface (one composed layer). */
  drm: string;
}

const luma = { bytes: 1, sx: 1, sy: 1 };
const chroma420 = { bytes: 1, sx: 2, sy: 2 };

/** Pixel formats this module knows the planes of (VA_FOURCC_* in va.h). */
const formats = {
  NV12: { rt: VA_RT_FORMAT.YUV420, planes: [luma, { bytes: 2, sx: 2, sy: 2 }], drm: 'NV12' },
  NV21: { rt: VA_RT_FORMAT.YUV420, planes: [luma, { bytes: 2, sx: 2, sy: 2 }], drm: 'NV21' },
  YV12: { rt: VA_RT_FORMAT.YUV420, planes: [luma, chroma420, chroma420], drm: 'YV12' },
  I420: { rt: VA_RT_FORMAT.YUV420, planes: [luma, chroma420, chroma420], drm: 'YU12' },
  P010: {
    rt: VA_RT_FORMAT.YUV420_10,
    planes: [
      { bytes: 2, sx: 1, sy: 1 },
      { bytes: 4, sx: 2, sy: 2 },
    ],
    drm: 'P010',
  },
  P012: {
    rt: VA_RT_FORMAT.YUV420_12,
    planes: [
      { bytes: 2, sx: 1, sy: 1 },
      { bytes: 4, sx: 2, sy: 2 },
    ],
    drm: 'P012',
  },
  P016: {
    rt: VA_RT_FORMAT.YUV420_12,
    planes: [
      { bytes: 2, sx: 1, sy: 1 },
      { bytes: 4, sx: 2, sy: 2 },
    ],
    drm: 'P016',
  },
  YUY2: { rt: VA_RT_FORMAT.YUV422, planes: [{ bytes: 4, sx: 2, sy: 1 }], drm: 'YUYV' },
  UYVY: { rt: VA_RT_FORMAT.YUV422, planes: [{ bytes: 4, sx: 2, sy: 1 }], drm: 'UYVY' },
  Y800: { rt: VA_RT_FORMAT.YUV400, planes: [luma], drm: 'R8  ' },
  '444P': { rt: VA_RT_FORMAT.YUV444, planes: [luma, luma, luma], drm: 'YU24' },
  AYUV: { rt: VA_RT_FORMAT.YUV444, planes: [{ bytes: 4, sx: 1, sy: 1 }], drm: 'AYUV' },
  BGRA: { rt: VA_RT_FORMAT.RGB32, planes: [{ bytes: 4, sx: 1, sy: 1 }], drm: 'AR24' },
  BGRX: { rt: VA_RT_FORMAT.RGB32, planes: [{ bytes: 4, sx: 1, sy: 1 }], drm: 'XR24' },
  RGBA: { rt: VA_RT_FORMAT.RGB32, planes: [{ bytes: 4, sx: 1, sy: 1 }], drm: 'AB24' },
  RGBX: { rt: VA_RT_FORMAT.RGB32, planes: [{ bytes: 4, sx: 1, sy: 1 }], drm: 'XB24' },
  ARGB: { rt: VA_RT_FORMAT.RGB32, planes: [{ bytes: 4, sx: 1, sy: 1 }], drm: 'BA24' },
  XRGB: { rt: VA_RT_FORMAT.RGB32, planes: [{ bytes: 4, sx: 1, sy: 1 }], drm: 'BX24' },
  ABGR: { rt: VA_RT_FORMAT.RGB32, planes: [{ bytes: 4, sx: 1, sy: 1 }], drm: 'RA24' },
  XBGR: { rt: VA_RT_FORMAT.RGB32, planes: [{ bytes: 4, sx: 1, sy: 1 }], drm: 'RX24' },
  AR30: { rt: VA_RT_FORMAT.RGB32_10, planes: [{ bytes: 4, sx: 1, sy: 1 }], drm: 'AR30' },
  XR30: { rt: VA_RT_FORMAT.RGB32_10, planes: [{ bytes: 4, sx: 1, sy: 1 }], drm: 'XR30' },
} satisfies Record<string, FormatFacts>;

/** A pixel format of VA surfaces by its fourcc ('NV12', 'BGRA', ...). */
export type VaFourcc = keyof typeof formats;

/** The fourccs whose planes this module knows, for creating, reading, writing and importing surfaces. */
export const vaFourccs: readonly VaFourcc[] = Object.freeze(Object.keys(formats) as VaFourcc[]);

/** @internal Facts of a known fourcc, or undefined. */
export function formatFacts(fourcc: string): FormatFacts | undefined {
  return Object.hasOwn(formats, fourcc) ? formats[fourcc as VaFourcc] : undefined;
}

/** Size of one plane of a `width` x `height` surface, packed (no padding between rows). */
export interface VaPlaneSize {
  /** Elements per row (pixels, or sub-sampled chroma pairs). */
  width: number;
  /** Rows. */
  height: number;
  /** Bytes per row, packed. */
  bytesPerRow: number;
}

/** The planes of a pixel format at a size (NV12 32x16: Y 32x16, 32 bytes a row; UV 16x8, 32 bytes a row). */
export function vaPlaneSizes(fourcc: VaFourcc, width: number, height: number): VaPlaneSize[] {
  const facts = formatFacts(fourcc);
  if (!facts) throw new TypeError(`unknown fourcc ${JSON.stringify(fourcc)}; known: ${vaFourccs.join(', ')}`);
  return facts.planes.map((p) => {
    const w = Math.ceil(width / p.sx);
    return { width: w, height: Math.ceil(height / p.sy), bytesPerRow: w * p.bytes };
  });
}

/** VAStatus values (va.h) by name. */
export const VA_STATUS = Object.freeze({
  VA_STATUS_SUCCESS: 0x00,
  VA_STATUS_ERROR_OPERATION_FAILED: 0x01,
  VA_STATUS_ERROR_ALLOCATION_FAILED: 0x02,
  VA_STATUS_ERROR_INVALID_DISPLAY: 0x03,
  VA_STATUS_ERROR_INVALID_CONFIG: 0x04,
  VA_STATUS_ERROR_INVALID_CONTEXT: 0x05,
  VA_STATUS_ERROR_INVALID_SURFACE: 0x06,
  VA_STATUS_ERROR_INVALID_BUFFER: 0x07,
  VA_STATUS_ERROR_INVALID_IMAGE: 0x08,
  VA_STATUS_ERROR_INVALID_SUBPICTURE: 0x09,
  VA_STATUS_ERROR_ATTR_NOT_SUPPORTED: 0x0a,
  VA_STATUS_ERROR_MAX_NUM_EXCEEDED: 0x0b,
  VA_STATUS_ERROR_UNSUPPORTED_PROFILE: 0x0c,
  VA_STATUS_ERROR_UNSUPPORTED_ENTRYPOINT: 0x0d,
  VA_STATUS_ERROR_UNSUPPORTED_RT_FORMAT: 0x0e,
  VA_STATUS_ERROR_UNSUPPORTED_BUFFERTYPE: 0x0f,
  VA_STATUS_ERROR_SURFACE_BUSY: 0x10,
  VA_STATUS_ERROR_FLAG_NOT_SUPPORTED: 0x11,
  VA_STATUS_ERROR_INVALID_PARAMETER: 0x12,
  VA_STATUS_ERROR_RESOLUTION_NOT_SUPPORTED: 0x13,
  VA_STATUS_ERROR_UNIMPLEMENTED: 0x14,
  VA_STATUS_ERROR_SURFACE_IN_DISPLAYING: 0x15,
  VA_STATUS_ERROR_INVALID_IMAGE_FORMAT: 0x16,
  VA_STATUS_ERROR_DECODING_ERROR: 0x17,
  VA_STATUS_ERROR_ENCODING_ERROR: 0x18,
  VA_STATUS_ERROR_INVALID_VALUE: 0x19,
  VA_STATUS_ERROR_UNSUPPORTED_FILTER: 0x20,
  VA_STATUS_ERROR_INVALID_FILTER_CHAIN: 0x21,
  VA_STATUS_ERROR_HW_BUSY: 0x22,
  VA_STATUS_ERROR_UNSUPPORTED_MEMORY_TYPE: 0x24,
  VA_STATUS_ERROR_NOT_ENOUGH_BUFFER: 0x25,
  VA_STATUS_ERROR_TIMEDOUT: 0x26,
  VA_STATUS_ERROR_UNKNOWN: 0xffffffff,
} as const);

const statusNames = new Map<number, string>(Object.entries(VA_STATUS).map(([name, value]) => [value, name]));

/** The va.h name of a VAStatus ('VA_STATUS_ERROR_INVALID_SURFACE'). */
export function vaStatusName(status: number): string {
  return statusNames.get(status >>> 0) ?? `VAStatus 0x${(status >>> 0).toString(16)}`;
}

/** VASurfaceStatus bits (va.h). */
export const VA_SURFACE_STATUS = Object.freeze({ rendering: 1, displaying: 2, ready: 4, skipped: 8 } as const);
/** What vaQuerySurfaceStatus says a surface is doing. */
export type VaSurfaceState = keyof typeof VA_SURFACE_STATUS;

/** vaExportSurfaceHandle flags (va.h). */
export const VA_EXPORT_SURFACE = Object.freeze({
  READ_ONLY: 0x0001,
  WRITE_ONLY: 0x0002,
  READ_WRITE: 0x0003,
  SEPARATE_LAYERS: 0x0004,
  COMPOSED_LAYERS: 0x0008,
} as const);

/** VASurfaceAttribMemoryType bits (va.h, va_drmcommon.h). */
export const VA_SURFACE_ATTRIB_MEM_TYPE = Object.freeze({
  VA: 0x00000001,
  V4L2: 0x00000002,
  USER_PTR: 0x00000004,
  KERNEL_DRM: 0x10000000,
  DRM_PRIME: 0x20000000,
  DRM_PRIME_2: 0x40000000,
} as const);

/** DRM_FORMAT_MOD_LINEAR (drm_fourcc.h): no tiling. */
export const DRM_FORMAT_MOD_LINEAR = 0n;
/** DRM_FORMAT_MOD_INVALID (drm_fourcc.h): the modifier is not known. */
export const DRM_FORMAT_MOD_INVALID = 0x00ffffffffffffffn;
