// Image formats of shared resources as data: which OpenCL image format a
// sharing extension gives for a D3D9 / DXGI / VA-API surface format
// (lib/interop/shared-image.ts predicts a whole image from these tables).
//
// Sources: the specs in shared/specs/ (tables cited on each export) and, for the
// numeric codes the specs name but do not number, the public D3D9 / DXGI / VA-API
// headers (d3d9types.h `enum _D3DFORMAT`, dxgiformat.h `enum DXGI_FORMAT`, va.h
// `VA_FOURCC`). See shared/design/INTEROP-NOTES.md, "Image formats by resource".
import type { ChannelOrder, ChannelType } from './cl-image-formats';

/** A CL image format by names, as the specs' tables give it (CL_ prefix dropped). */
export interface ClFormatName {
  readonly order: ChannelOrder;
  readonly type: ChannelType;
}

/** What a plane of a planar (4:2:0) surface holds. */
export type PlaneContent = 'Y' | 'UV' | 'U' | 'V';

/** One plane of a planar surface: its CL format and its size relative to the surface. */
export interface PlaneFormat extends ClFormatName {
  readonly plane: number;
  readonly content: PlaneContent;
  /** The plane is ceil(width / widthDivisor) x ceil(height / heightDivisor). */
  readonly widthDivisor: 1 | 2;
  readonly heightDivisor: 1 | 2;
}

/** A planar surface format: one CL image per plane. */
export interface PlanarFormat {
  readonly planes: readonly PlaneFormat[];
}

/** An entry of a media-sharing table: a single-plane format or a planar one. */
export type MediaFormatEntry = ClFormatName | PlanarFormat;

/** True when a table entry is planar (NV12, YV12). */
export function isPlanarFormat(entry: MediaFormatEntry): entry is PlanarFormat {
  return 'planes' in entry;
}

// ------------------------------------------------------------- FourCC ----

/**
 * MAKEFOURCC(a, b, c, d) of d3d9types.h (and VA_FOURCC of va.h, the same
 * packing): a | b << 8 | c << 16 | d << 24, as an unsigned 32-bit number.
 */
export function makeFourCC(code: string): number {
  if (typeof code !== 'string' || code.length !== 4 || !/^[\x20-\x7e]{4}$/.test(code)) {
    throw new RangeError(`a FourCC is 4 printable ASCII characters; got ${JSON.stringify(code)}`);
  }
  return (code.charCodeAt(0) | (code.charCodeAt(1) << 8) | (code.charCodeAt(2) << 16) | (code.charCodeAt(3) << 24)) >>> 0;
}

// ----------------------------------------------------------- D3DFORMAT ----

/**
 * The D3DFORMAT codes that the D3D9 format tables of the specs mention:
 * cl_nv_d3d9_sharing table 9.13.4.1, cl_intel_dx9_media_sharing table 9.13.4.1
 * (and its cl_intel_packed_yuv additions), clCreateFromDX9MediaSurfaceKHR's two
 * tables (9.10.3, 9.10.4). The specs name the formats but do not number them:
 * the numbers are the D3D9 API's (d3d9types.h, `enum _D3DFORMAT`); FourCC
 * formats are computed with MAKEFOURCC. Keys are the D3D9 enumerant names; the
 * FourCCs that D3D9 has no enumerant for (NV12, YV12, YVYU, VYUY) are keyed by
 * their four characters.
 */
export const D3DFMT = Object.freeze({
  // d3d9types.h enum _D3DFORMAT values
  D3DFMT_A8R8G8B8: 21,
  D3DFMT_X8R8G8B8: 22,
  D3DFMT_A8: 28,
  D3DFMT_A8B8G8R8: 32,
  D3DFMT_X8B8G8R8: 33,
  D3DFMT_G16R16: 34,
  D3DFMT_A16B16G16R16: 36,
  D3DFMT_L8: 50,
  D3DFMT_A8L8: 51,
  D3DFMT_V8U8: 60,
  D3DFMT_Q8W8V8U8: 63,
  D3DFMT_V16U16: 64,
  D3DFMT_L16: 81,
  D3DFMT_Q16W16V16U16: 110,
  D3DFMT_R16F: 111,
  D3DFMT_G16R16F: 112,
  D3DFMT_A16B16G16R16F: 113,
  D3DFMT_R32F: 114,
  D3DFMT_G32R32F: 115,
  D3DFMT_A32B32G32R32F: 116,
  // d3d9types.h defines these two as MAKEFOURCC('U','Y','V','Y') / ('Y','U','Y','2')
  D3DFMT_UYVY: makeFourCC('UYVY'),
  D3DFMT_YUY2: makeFourCC('YUY2'),
  // FourCC surface formats of the media tables (no D3D9 enumerant)
  NV12: makeFourCC('NV12'), // 0x3231564E
  YV12: makeFourCC('YV12'), // 0x32315659
  YVYU: makeFourCC('YVYU'),
  VYUY: makeFourCC('VYUY'),
} satisfies Record<string, number>);

/** A name of `D3DFMT`. */
export type D3DFormatName = keyof typeof D3DFMT;

/** The D3DFMT name of a D3DFORMAT code, or undefined. */
export function d3dFormatName(code: number): D3DFormatName | undefined {
  return (Object.keys(D3DFMT) as D3DFormatName[]).find((name) => D3DFMT[name] === code);
}

const fmt = (order: ChannelOrder, type: ChannelType): ClFormatName => Object.freeze({ order, type });
const plane = (index: number, content: PlaneContent, order: ChannelOrder, divisor: 1 | 2): PlaneFormat =>
  Object.freeze({ plane: index, content, order, type: 'UNORM_INT8', widthDivisor: divisor, heightDivisor: divisor });

/** The D3DFORMATs of cl_nv_d3d9_sharing table 9.13.4.1. */
export type NvD3D9FormatName =
  | 'D3DFMT_R32F'
  | 'D3DFMT_R16F'
  | 'D3DFMT_L16'
  | 'D3DFMT_A8'
  | 'D3DFMT_L8'
  | 'D3DFMT_G32R32F'
  | 'D3DFMT_G16R16F'
  | 'D3DFMT_G16R16'
  | 'D3DFMT_V16U16'
  | 'D3DFMT_A8L8'
  | 'D3DFMT_V8U8'
  | 'D3DFMT_A32B32G32R32F'
  | 'D3DFMT_A16B16G16R16F'
  | 'D3DFMT_A16B16G16R16'
  | 'D3DFMT_Q16W16V16U16'
  | 'D3DFMT_A8B8G8R8'
  | 'D3DFMT_X8B8G8R8'
  | 'D3DFMT_A8R8G8B8'
  | 'D3DFMT_X8R8G8B8'
  | 'D3DFMT_Q8W8V8U8';

/** The formats of cl_intel_dx9_media_sharing table 9.13.4.1 = clCreateFromDX9MediaSurfaceKHR tables 9.10.3/9.10.4. */
export type MediaD3D9FormatName =
  | 'D3DFMT_R32F'
  | 'D3DFMT_R16F'
  | 'D3DFMT_L16'
  | 'D3DFMT_A8'
  | 'D3DFMT_L8'
  | 'D3DFMT_G32R32F'
  | 'D3DFMT_G16R16F'
  | 'D3DFMT_G16R16'
  | 'D3DFMT_A8L8'
  | 'D3DFMT_A32B32G32R32F'
  | 'D3DFMT_A16B16G16R16F'
  | 'D3DFMT_A16B16G16R16'
  | 'D3DFMT_A8B8G8R8'
  | 'D3DFMT_X8B8G8R8'
  | 'D3DFMT_A8R8G8B8'
  | 'D3DFMT_X8R8G8B8'
  | 'NV12'
  | 'YV12';

/** The single-plane rows shared by the Intel and KHR DX9 media tables. */
const mediaSinglePlane = {
  D3DFMT_R32F: fmt('R', 'FLOAT'),
  D3DFMT_R16F: fmt('R', 'HALF_FLOAT'),
  D3DFMT_L16: fmt('R', 'UNORM_INT16'),
  D3DFMT_A8: fmt('A', 'UNORM_INT8'),
  D3DFMT_L8: fmt('R', 'UNORM_INT8'),
  D3DFMT_G32R32F: fmt('RG', 'FLOAT'),
  D3DFMT_G16R16F: fmt('RG', 'HALF_FLOAT'),
  D3DFMT_G16R16: fmt('RG', 'UNORM_INT16'),
  D3DFMT_A8L8: fmt('RG', 'UNORM_INT8'),
  D3DFMT_A32B32G32R32F: fmt('RGBA', 'FLOAT'),
  D3DFMT_A16B16G16R16F: fmt('RGBA', 'HALF_FLOAT'),
  D3DFMT_A16B16G16R16: fmt('RGBA', 'UNORM_INT16'),
  D3DFMT_A8B8G8R8: fmt('RGBA', 'UNORM_INT8'),
  D3DFMT_X8B8G8R8: fmt('RGBA', 'UNORM_INT8'),
  D3DFMT_A8R8G8B8: fmt('BGRA', 'UNORM_INT8'),
  D3DFMT_X8R8G8B8: fmt('BGRA', 'UNORM_INT8'),
} as const;

/** NV12, the same in every media spec: plane 0 = Y (W x H), plane 1 = interleaved UV (W/2 x H/2). */
const nv12: PlanarFormat = Object.freeze({
  planes: Object.freeze([plane(0, 'Y', 'R', 1), plane(1, 'UV', 'RG', 2)]),
});

/**
 * The D3D9 format tables. They differ between the extensions:
 *
 * - `nv`: cl_nv_d3d9_sharing §9.13.4, table 9.13.4.1. D3DFMT_A8 -> CL_R, A8R8G8B8 and
 *   X8R8G8B8 -> CL_RGBA ("the channel order is literal and makes no effort to
 *   swizzle"), and it has the signed V8U8 / V16U16 / Q8W8V8U8 / Q16W16V16U16 rows.
 * - `intel`: cl_intel_dx9_media_sharing §9.13.4, table 9.13.4.1. D3DFMT_A8 -> CL_A,
 *   A8R8G8B8 / X8R8G8B8 -> CL_BGRA, no signed formats, plus NV12 and YV12 planes;
 *   YV12: "plane 1 corresponds to the V channel data, and plane 2 corresponds to
 *   the U channel data".
 * - `khr`: clCreateFromDX9MediaSurfaceKHR (cl_khr_dx9_media_sharing), tables 9.10.3
 *   (FourCC) and 9.10.4 (D3D): the same formats as `intel`, and the same YV12 plane
 *   order: the current Khronos text (shared/specs/cl_khr_dx9_media_sharing.asciidoc)
 *   says "Plane 1 corresponds to the V channel and Plane 2 corresponds to the U
 *   channel", and Intel's compute-runtime (opencl/source/sharings/d3d/d3d_surface.cpp)
 *   does the same for both entry points. The 2011 man page said U, then V.
 *
 * The formats cl_intel_packed_yuv adds to the Intel table (YUY2, UYVY, YVYU, VYUY ->
 * CL_YUYV_INTEL...) are left out: those channel orders are not in lib/facts/cl-image-formats.ts.
 */
export const d3d9FormatTable: {
  readonly nv: Readonly<Record<NvD3D9FormatName, ClFormatName>>;
  readonly intel: Readonly<Record<MediaD3D9FormatName, MediaFormatEntry>>;
  readonly khr: Readonly<Record<MediaD3D9FormatName, MediaFormatEntry>>;
} = Object.freeze({
  nv: Object.freeze({
    D3DFMT_R32F: fmt('R', 'FLOAT'),
    D3DFMT_R16F: fmt('R', 'HALF_FLOAT'),
    D3DFMT_L16: fmt('R', 'UNORM_INT16'),
    D3DFMT_A8: fmt('R', 'UNORM_INT8'),
    D3DFMT_L8: fmt('R', 'UNORM_INT8'),
    D3DFMT_G32R32F: fmt('RG', 'FLOAT'),
    D3DFMT_G16R16F: fmt('RG', 'HALF_FLOAT'),
    D3DFMT_G16R16: fmt('RG', 'UNORM_INT16'),
    D3DFMT_V16U16: fmt('RG', 'SNORM_INT16'),
    D3DFMT_A8L8: fmt('RG', 'UNORM_INT8'),
    D3DFMT_V8U8: fmt('RG', 'SNORM_INT8'),
    D3DFMT_A32B32G32R32F: fmt('RGBA', 'FLOAT'),
    D3DFMT_A16B16G16R16F: fmt('RGBA', 'HALF_FLOAT'),
    D3DFMT_A16B16G16R16: fmt('RGBA', 'UNORM_INT16'),
    D3DFMT_Q16W16V16U16: fmt('RGBA', 'SNORM_INT16'),
    D3DFMT_A8B8G8R8: fmt('RGBA', 'UNORM_INT8'),
    D3DFMT_X8B8G8R8: fmt('RGBA', 'UNORM_INT8'),
    D3DFMT_A8R8G8B8: fmt('RGBA', 'UNORM_INT8'),
    D3DFMT_X8R8G8B8: fmt('RGBA', 'UNORM_INT8'),
    D3DFMT_Q8W8V8U8: fmt('RGBA', 'SNORM_INT8'),
  }),
  intel: Object.freeze({
    ...mediaSinglePlane,
    NV12: nv12,
    YV12: Object.freeze({
      planes: Object.freeze([plane(0, 'Y', 'R', 1), plane(1, 'V', 'R', 2), plane(2, 'U', 'R', 2)]),
    }),
  }),
  khr: Object.freeze({
    ...mediaSinglePlane,
    NV12: nv12,
    YV12: Object.freeze({
      planes: Object.freeze([plane(0, 'Y', 'R', 1), plane(1, 'V', 'R', 2), plane(2, 'U', 'R', 2)]),
    }),
  }),
});

// --------------------------------------------------------- DXGI_FORMAT ----

/**
 * The 37 DXGI formats of the cl_khr_d3d10_sharing table "Direct3D 10 formats and
 * corresponding OpenCL image formats", with their DXGI_FORMAT values (dxgiformat.h,
 * `enum DXGI_FORMAT`; the spec does not number them).
 */
export const DXGI_FORMAT = Object.freeze({
  DXGI_FORMAT_R32G32B32A32_FLOAT: 2,
  DXGI_FORMAT_R32G32B32A32_UINT: 3,
  DXGI_FORMAT_R32G32B32A32_SINT: 4,
  DXGI_FORMAT_R16G16B16A16_FLOAT: 10,
  DXGI_FORMAT_R16G16B16A16_UNORM: 11,
  DXGI_FORMAT_R16G16B16A16_UINT: 12,
  DXGI_FORMAT_R16G16B16A16_SNORM: 13,
  DXGI_FORMAT_R16G16B16A16_SINT: 14,
  DXGI_FORMAT_B8G8R8A8_UNORM: 87,
  DXGI_FORMAT_R8G8B8A8_UNORM: 28,
  DXGI_FORMAT_R8G8B8A8_UINT: 30,
  DXGI_FORMAT_R8G8B8A8_SNORM: 31,
  DXGI_FORMAT_R8G8B8A8_SINT: 32,
  DXGI_FORMAT_R32G32_FLOAT: 16,
  DXGI_FORMAT_R32G32_UINT: 17,
  DXGI_FORMAT_R32G32_SINT: 18,
  DXGI_FORMAT_R16G16_FLOAT: 34,
  DXGI_FORMAT_R16G16_UNORM: 35,
  DXGI_FORMAT_R16G16_UINT: 36,
  DXGI_FORMAT_R16G16_SNORM: 37,
  DXGI_FORMAT_R16G16_SINT: 38,
  DXGI_FORMAT_R8G8_UNORM: 49,
  DXGI_FORMAT_R8G8_UINT: 50,
  DXGI_FORMAT_R8G8_SNORM: 51,
  DXGI_FORMAT_R8G8_SINT: 52,
  DXGI_FORMAT_R32_FLOAT: 41,
  DXGI_FORMAT_R32_UINT: 42,
  DXGI_FORMAT_R32_SINT: 43,
  DXGI_FORMAT_R16_FLOAT: 54,
  DXGI_FORMAT_R16_UNORM: 56,
  DXGI_FORMAT_R16_UINT: 57,
  DXGI_FORMAT_R16_SNORM: 58,
  DXGI_FORMAT_R16_SINT: 59,
  DXGI_FORMAT_R8_UNORM: 61,
  DXGI_FORMAT_R8_UINT: 62,
  DXGI_FORMAT_R8_SNORM: 63,
  DXGI_FORMAT_R8_SINT: 64,
});

/** A name of `DXGI_FORMAT` (the 37 formats of the D3D10 spec's table). */
export type DxgiFormatName = keyof typeof DXGI_FORMAT;

/** The DXGI_FORMAT name of a code among the 37, or undefined. */
export function dxgiFormatName(code: number): DxgiFormatName | undefined {
  return (Object.keys(DXGI_FORMAT) as DxgiFormatName[]).find((name) => DXGI_FORMAT[name] === code);
}

const dxgiTypes: Readonly<Record<string, Readonly<Record<number, ChannelType>>>> = {
  FLOAT: { 16: 'HALF_FLOAT', 32: 'FLOAT' },
  UNORM: { 8: 'UNORM_INT8', 16: 'UNORM_INT16' },
  SNORM: { 8: 'SNORM_INT8', 16: 'SNORM_INT16' },
  UINT: { 8: 'UNSIGNED_INT8', 16: 'UNSIGNED_INT16', 32: 'UNSIGNED_INT32' },
  SINT: { 8: 'SIGNED_INT8', 16: 'SIGNED_INT16', 32: 'SIGNED_INT32' },
};
const dxgiOrders: Readonly<Record<string, ChannelOrder>> = { R: 'R', RG: 'RG', RGBA: 'RGBA', BGRA: 'BGRA' };

/**
 * The CL format of a DXGI format name by the rule behind the cl_khr_d3d10_sharing
 * DXGI format table: the channel order is the component letters in order (R, RG, RGBA;
 * B8G8R8A8 -> BGRA), the data type comes from the suffix and the component width
 * (_FLOAT 32/16 -> FLOAT/HALF_FLOAT, _UNORM/_SNORM 8/16 -> (UN|SN)ORM_INT8/16,
 * _UINT/_SINT 8/16/32 -> (UN)SIGNED_INT8/16/32). Throws RangeError for a name the
 * rule does not cover (mixed widths, TYPELESS, SRGB, ...).
 */
export function dxgiFormatRule(name: string): ClFormatName {
  const m = /^DXGI_FORMAT_((?:[RGBA]\d+)+)_([A-Z]+)$/.exec(name);
  if (!m) throw new RangeError(`${name}: not a DXGI format the D3D10 table rule covers`);
  const components = [...m[1]!.matchAll(/([RGBA])(\d+)/g)];
  const letters = components.map((c) => c[1]).join('');
  const widths = new Set(components.map((c) => Number(c[2])));
  const order = dxgiOrders[letters];
  const width = widths.size === 1 ? [...widths][0]! : NaN;
  const type = dxgiTypes[m[2]!]?.[width];
  if (!order || !type) throw new RangeError(`${name}: not a DXGI format the D3D10 table rule covers`);
  return fmt(order, type);
}

/**
 * cl_khr_d3d10_sharing, table "Direct3D 10 formats and corresponding OpenCL image
 * formats", used by clCreateFromD3D10Texture2DKHR and clCreateFromD3D10Texture3DKHR
 * (our copy of the spec has no section numbers): the 37 DXGI formats, each mapped
 * by `dxgiFormatRule`.
 */
export const dxgiFormatTable: Readonly<Record<DxgiFormatName, ClFormatName>> = Object.freeze(
  Object.fromEntries((Object.keys(DXGI_FORMAT) as DxgiFormatName[]).map((name) => [name, dxgiFormatRule(name)])) as Record<
    DxgiFormatName,
    ClFormatName
  >,
);

/**
 * D3D10CalcSubresource (d3d10.h): MipSlice + ArraySlice * MipLevels. The inverse is
 * used for clCreateFromD3D10Texture2DKHR's <subresource>: mip level = subresource %
 * mipLevels.
 */
export function d3d10CalcSubresource(mipSlice: number, arraySlice: number, mipLevels: number): number {
  return mipSlice + arraySlice * mipLevels;
}

// -------------------------------------------------------------- VA-API ----

/** VA_FOURCC_NV12 of va.h: VA_FOURCC('N','V','1','2') = 0x3231564E. */
export const VA_FOURCC_NV12 = makeFourCC('NV12');

/**
 * cl_intel_va_api_media_sharing §9.X.4, table 9.X.4.1: VA_FOURCC_NV12 plane 0 ->
 * CL_R / CL_UNORM_INT8 (luminance, Y), plane 1 -> CL_RG / CL_UNORM_INT8
 * (chrominance, UV). NV12 is the only format the table lists.
 */
export const vaFormatTable: Readonly<{ VA_FOURCC_NV12: PlanarFormat }> = Object.freeze({ VA_FOURCC_NV12: nv12 });

/**
 * cl_khr_d3d11_sharing (and cl_nv_d3d11_sharing, the same values), table "List of
 * Direct3D 11 and corresponding OpenCL image formats" (shared/specs/
 * cl_khr_d3d11_sharing.asciidoc, "Mapping of image formats"): the 37 DXGI formats
 * with their CL formats, written out as the spec gives them.
 */
export const d3d11DxgiFormatTable: Readonly<Record<DxgiFormatName, ClFormatName>> = Object.freeze({
  DXGI_FORMAT_R32G32B32A32_FLOAT: fmt('RGBA', 'FLOAT'),
  DXGI_FORMAT_R32G32B32A32_UINT: fmt('RGBA', 'UNSIGNED_INT32'),
  DXGI_FORMAT_R32G32B32A32_SINT: fmt('RGBA', 'SIGNED_INT32'),
  DXGI_FORMAT_R16G16B16A16_FLOAT: fmt('RGBA', 'HALF_FLOAT'),
  DXGI_FORMAT_R16G16B16A16_UNORM: fmt('RGBA', 'UNORM_INT16'),
  DXGI_FORMAT_R16G16B16A16_UINT: fmt('RGBA', 'UNSIGNED_INT16'),
  DXGI_FORMAT_R16G16B16A16_SNORM: fmt('RGBA', 'SNORM_INT16'),
  DXGI_FORMAT_R16G16B16A16_SINT: fmt('RGBA', 'SIGNED_INT16'),
  DXGI_FORMAT_B8G8R8A8_UNORM: fmt('BGRA', 'UNORM_INT8'),
  DXGI_FORMAT_R8G8B8A8_UNORM: fmt('RGBA', 'UNORM_INT8'),
  DXGI_FORMAT_R8G8B8A8_UINT: fmt('RGBA', 'UNSIGNED_INT8'),
  DXGI_FORMAT_R8G8B8A8_SNORM: fmt('RGBA', 'SNORM_INT8'),
  DXGI_FORMAT_R8G8B8A8_SINT: fmt('RGBA', 'SIGNED_INT8'),
  DXGI_FORMAT_R32G32_FLOAT: fmt('RG', 'FLOAT'),
  DXGI_FORMAT_R32G32_UINT: fmt('RG', 'UNSIGNED_INT32'),
  DXGI_FORMAT_R32G32_SINT: fmt('RG', 'SIGNED_INT32'),
  DXGI_FORMAT_R16G16_FLOAT: fmt('RG', 'HALF_FLOAT'),
  DXGI_FORMAT_R16G16_UNORM: fmt('RG', 'UNORM_INT16'),
  DXGI_FORMAT_R16G16_UINT: fmt('RG', 'UNSIGNED_INT16'),
  DXGI_FORMAT_R16G16_SNORM: fmt('RG', 'SNORM_INT16'),
  DXGI_FORMAT_R16G16_SINT: fmt('RG', 'SIGNED_INT16'),
  DXGI_FORMAT_R8G8_UNORM: fmt('RG', 'UNORM_INT8'),
  DXGI_FORMAT_R8G8_UINT: fmt('RG', 'UNSIGNED_INT8'),
  DXGI_FORMAT_R8G8_SNORM: fmt('RG', 'SNORM_INT8'),
  DXGI_FORMAT_R8G8_SINT: fmt('RG', 'SIGNED_INT8'),
  DXGI_FORMAT_R32_FLOAT: fmt('R', 'FLOAT'),
  DXGI_FORMAT_R32_UINT: fmt('R', 'UNSIGNED_INT32'),
  DXGI_FORMAT_R32_SINT: fmt('R', 'SIGNED_INT32'),
  DXGI_FORMAT_R16_FLOAT: fmt('R', 'HALF_FLOAT'),
  DXGI_FORMAT_R16_UNORM: fmt('R', 'UNORM_INT16'),
  DXGI_FORMAT_R16_UINT: fmt('R', 'UNSIGNED_INT16'),
  DXGI_FORMAT_R16_SNORM: fmt('R', 'SNORM_INT16'),
  DXGI_FORMAT_R16_SINT: fmt('R', 'SIGNED_INT16'),
  DXGI_FORMAT_R8_UNORM: fmt('R', 'UNORM_INT8'),
  DXGI_FORMAT_R8_UINT: fmt('R', 'UNSIGNED_INT8'),
  DXGI_FORMAT_R8_SNORM: fmt('R', 'SNORM_INT8'),
  DXGI_FORMAT_R8_SINT: fmt('R', 'SIGNED_INT8'),
});

/** DXGI_FORMAT_NV12 (dxgiformat.h): the 4:2:0 video format of cl_intel_d3d11_nv12_media_sharing. */
export const DXGI_FORMAT_NV12 = 103;
