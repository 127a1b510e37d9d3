// The image a sharing extension's create call gives for a resource, predicted
// from the specs' format tables (lib/facts/sharing-formats.ts): its CL format
// and size, so the binding can check a driver's answer (or describe an image)
// without calling it.
import { type ResolvedImageFormat, resolveImageFormat } from '../facts/cl-image-formats';
import {
  type ClFormatName,
  DXGI_FORMAT_NV12,
  type MediaFormatEntry,
  VA_FOURCC_NV12,
  d3d11DxgiFormatTable,
  d3d9FormatTable,
  d3dFormatName,
  dxgiFormatName,
  dxgiFormatTable,
  isPlanarFormat,
  vaFormatTable,
} from '../facts/sharing-formats';
import { checkIndex, checkPositive } from '../validate';

const fmt = (order: ClFormatName['order'], type: ClFormatName['type']): ClFormatName => Object.freeze({ order, type });

/** cl_nv_d3d9_sharing: a surface, a level of a (cube) texture, or a level of a volume texture (`depth`). */
export interface NvD3D9ImageInput {
  readonly extension: 'cl_nv_d3d9_sharing';
  /** D3DFORMAT code of the resource (see `D3DFMT`). */
  readonly d3dFormat: number;
  /** Size of the top level of the resource. */
  readonly width: number;
  readonly height: number;
  /** Depth of a volume texture (clCreateFromD3D9VolumeTextureNV: a 3D image); absent for 2D resources. */
  readonly depth?: number;
  /** The <miplevel> argument (default 0). */
  readonly miplevel?: number;
}

/** cl_intel_dx9_media_sharing / cl_khr_dx9_media_sharing: a plane of a stand-alone surface. */
export interface DX9MediaImageInput {
  readonly extension: 'cl_intel_dx9_media_sharing' | 'cl_khr_dx9_media_sharing';
  /** D3DFORMAT code of the surface, FourCCs included (see `D3DFMT`). */
  readonly d3dFormat: number;
  readonly width: number;
  readonly height: number;
  /** The <plane> argument (default 0; must be 0 for non-planar formats). */
  readonly plane?: number;
}

/** cl_khr_d3d10_sharing: a subresource of an ID3D10Texture2D, or of an ID3D10Texture3D (`depth`). */
export interface D3D10ImageInput {
  readonly extension: 'cl_khr_d3d10_sharing';
  /** DXGI_FORMAT code of the texture (see `DXGI_FORMAT`). */
  readonly dxgiFormat: number;
  /** Size of mip level 0. */
  readonly width: number;
  /** Default 1. */
  readonly height?: number;
  /** Depth of a 3D texture (clCreateFromD3D10Texture3DKHR: a 3D image); absent for 2D textures. */
  readonly depth?: number;
  /** The mip level shared (default 0). Or give `subresource` and `mipLevels`. */
  readonly mipLevel?: number;
  /** The <subresource> argument; with `mipLevels`, mip level = subresource % mipLevels. */
  readonly subresource?: number;
  /** MipLevels of the texture (needed with `subresource` for texture arrays). */
  readonly mipLevels?: number;
}

/**
 * cl_khr_d3d11_sharing / cl_nv_d3d11_sharing: a subresource of an ID3D11Texture2D
 * or ID3D11Texture3D (`depth`); with DXGI_FORMAT_NV12, a plane (0: Y as CL_R, 1:
 * UV as CL_RG at half size, both CL_UNORM_INT8), the way
 * cl_intel_d3d11_nv12_media_sharing and FFmpeg's OpenCL hwcontext share them.
 */
export interface D3D11ImageInput extends Omit<D3D10ImageInput, 'extension'> {
  readonly extension: 'cl_khr_d3d11_sharing' | 'cl_nv_d3d11_sharing';
  /** NV12 textures only: 0 (Y) or 1 (UV). */
  readonly plane?: number;
}

/** cl_intel_va_api_media_sharing: a plane of a VA surface. */
export interface VAImageInput {
  readonly extension: 'cl_intel_va_api_media_sharing';
  readonly width: number;
  readonly height: number;
  /** The <plane> argument. */
  readonly plane: number;
  /** The surface's VA FourCC (default VA_FOURCC_NV12, the only one the spec lists). */
  readonly fourcc?: number;
}

/** What `predictSharedImage` takes: one shape per extension. */
export type SharedImageInput = NvD3D9ImageInput | DX9MediaImageInput | D3D10ImageInput | D3D11ImageInput | VAImageInput;

/** The image a sharing call gives: CL format and size. */
export interface SharedImagePrediction {
  readonly format: ResolvedImageFormat;
  readonly imageType: 'image2d' | 'image3d';
  readonly width: number;
  readonly height: number;
  /** As CL_IMAGE_DEPTH reports it: 0 for a 2D image. */
  readonly depth: number;
}

function hex(code: number): string {
  return typeof code === 'number' && Number.isFinite(code) ? `${code} (0x${(code >>> 0).toString(16)})` : String(code);
}

/** Sizes of mip level `level` of a resource: max(1, floor(size / 2^level)); RangeError past the chain. */
function mipSizes(sizes: readonly number[], level: number, what: string): number[] {
  const levels = Math.floor(Math.log2(Math.max(...sizes))) + 1;
  if (level >= levels) {
    throw new RangeError(`${what} ${level} is not a mip level of a ${sizes.join('x')} resource (it has at most ${levels})`);
  }
  return sizes.map((s) => Math.max(1, Math.floor(s / 2 ** level)));
}

function planeOf(entry: MediaFormatEntry, planeIndex: number, formatName: string): { format: ClFormatName; divisor: 1 | 2 } {
  if (isPlanarFormat(entry)) {
    const p = entry.planes[planeIndex];
    if (!p) throw new RangeError(`plane ${planeIndex} is not a plane of ${formatName} (it has ${entry.planes.length})`);
    return { format: p, divisor: p.widthDivisor };
  }
  if (planeIndex !== 0) throw new RangeError(`plane ${planeIndex} is not a plane of ${formatName} (not planar: plane must be 0)`);
  return { format: entry, divisor: 1 };
}

/**
 * Predicts the CL image format and size that a sharing extension's create call
 * gives for a resource, from the specs' tables:
 * cl_nv_d3d9_sharing §9.13.4 (table 9.13.4.1; size of mip level <miplevel>),
 * cl_intel_dx9_media_sharing §9.13.4 / clCreateFromDX9MediaSurfaceKHR (size of
 * <plane>), cl_khr_d3d10_sharing (DXGI table; size of the subresource),
 * cl_intel_va_api_media_sharing §9.X.4 (size of <plane>). 4:2:0 chroma planes are
 * ceil(W/2) x ceil(H/2). Throws RangeError naming the format or plane when the
 * spec's table has no row for it (the driver would return
 * CL_INVALID_IMAGE_FORMAT_DESCRIPTOR or CL_INVALID_VALUE), or for a mip level past
 * the chain, and TypeError for an unknown extension.
 */
export function predictSharedImage(input: SharedImageInput): SharedImagePrediction {
  if (typeof input !== 'object' || input === null) throw new TypeError('input must be an object with an extension');
  switch (input.extension) {
    case 'cl_nv_d3d9_sharing': {
      const name = d3dFormatName(input.d3dFormat);
      const entry = name && (d3d9FormatTable.nv as Readonly<Record<string, ClFormatName>>)[name];
      if (!entry) {
        throw new RangeError(`D3DFORMAT ${name ?? hex(input.d3dFormat)} is not in cl_nv_d3d9_sharing table 9.13.4.1`);
      }
      const sizes = [checkPositive(input.width, 'width'), checkPositive(input.height, 'height')];
      if (input.depth !== undefined) sizes.push(checkPositive(input.depth, 'depth'));
      const [width, height, depth] = mipSizes(sizes, checkIndex(input.miplevel, 'miplevel'), 'miplevel');
      return result(entry, width!, height!, depth);
    }
    case 'cl_intel_dx9_media_sharing':
    case 'cl_khr_dx9_media_sharing': {
      const khr = input.extension === 'cl_khr_dx9_media_sharing';
      const table: Readonly<Record<string, MediaFormatEntry>> = khr ? d3d9FormatTable.khr : d3d9FormatTable.intel;
      const name = d3dFormatName(input.d3dFormat);
      const entry = name && table[name];
      if (!entry) {
        const where = khr ? 'clCreateFromDX9MediaSurfaceKHR tables 9.10.3/9.10.4' : 'cl_intel_dx9_media_sharing table 9.13.4.1';
        throw new RangeError(`D3DFORMAT ${name ?? hex(input.d3dFormat)} is not in ${where}`);
      }
      const width = checkPositive(input.width, 'width');
      const height = checkPositive(input.height, 'height');
      const { format, divisor } = planeOf(entry, checkIndex(input.plane, 'plane'), name!);
      return result(format, Math.ceil(width / divisor), Math.ceil(height / divisor));
    }
    case 'cl_khr_d3d11_sharing':
    case 'cl_nv_d3d11_sharing':
    case 'cl_khr_d3d10_sharing': {
      const d3d11 = input.extension !== 'cl_khr_d3d10_sharing';
      if (d3d11 && input.dxgiFormat === DXGI_FORMAT_NV12) {
        const plane = (input as D3D11ImageInput).plane;
        if (plane !== 0 && plane !== 1) throw new RangeError(`plane must be 0 (Y) or 1 (UV) for DXGI_FORMAT_NV12; got ${String(plane)}`);
        const width = checkPositive(input.width, 'width');
        const height = checkPositive(input.height ?? 1, 'height');
        return plane === 0
          ? result(fmt('R', 'UNORM_INT8'), width, height)
          : result(fmt('RG', 'UNORM_INT8'), Math.ceil(width / 2), Math.ceil(height / 2));
      }
      const name = dxgiFormatName(input.dxgiFormat);
      if (!name) {
        throw new RangeError(`DXGI_FORMAT ${hex(input.dxgiFormat)} is not in the ${input.extension} format table`);
      }
      const sizes = [checkPositive(input.width, 'width'), checkPositive(input.height ?? 1, 'height')];
      if (input.depth !== undefined) sizes.push(checkPositive(input.depth, 'depth'));
      let level = checkIndex(input.mipLevel, 'mipLevel');
      if (input.subresource !== undefined) {
        const subresource = checkIndex(input.subresource, 'subresource');
        const mipLevels = input.mipLevels === undefined ? undefined : checkPositive(input.mipLevels, 'mipLevels');
        const fromSubresource = mipLevels === undefined ? subresource : subresource % mipLevels;
        if (input.mipLevel !== undefined && level !== fromSubresource) {
          throw new RangeError(`mipLevel ${level} disagrees with subresource ${subresource}`);
        }
        level = fromSubresource;
      }
      const [width, height, depth] = mipSizes(sizes, level, 'mip level');
      return result((d3d11 ? d3d11DxgiFormatTable : dxgiFormatTable)[name], width!, height!, depth);
    }
    case 'cl_intel_va_api_media_sharing': {
      const fourcc = input.fourcc ?? VA_FOURCC_NV12;
      if (fourcc !== VA_FOURCC_NV12) {
        throw new RangeError(`VA FourCC ${hex(fourcc)} is not in cl_intel_va_api_media_sharing table 9.X.4.1 (only VA_FOURCC_NV12)`);
      }
      const width = checkPositive(input.width, 'width');
      const height = checkPositive(input.height, 'height');
      if (input.plane === undefined) throw new RangeError('plane is required for VA_FOURCC_NV12 (0: Y, 1: UV)');
      const { format, divisor } = planeOf(vaFormatTable.VA_FOURCC_NV12, checkIndex(input.plane, 'plane'), 'VA_FOURCC_NV12');
      return result(format, Math.ceil(width / divisor), Math.ceil(height / divisor));
    }
    default:
      throw new TypeError(`unknown sharing extension ${String((input as { extension?: unknown }).extension)}`);
  }
}

function result(format: ClFormatName, width: number, height: number, depth?: number): SharedImagePrediction {
  return Object.freeze({
    format: resolveImageFormat({ order: format.order, type: format.type }),
    imageType: depth === undefined ? 'image2d' : 'image3d',
    width,
    height,
    depth: depth ?? 0,
  });
}
