// The shared-image format tables (lib/facts/sharing-formats.ts) and predictor
// (lib/interop/shared-image.ts) against
// the specs' tables.
import { describe, expect, it } from 'vitest';
import { CL } from '../lib/facts/cl-constants';
import {
  D3DFMT,
  DXGI_FORMAT,
  VA_FOURCC_NV12,
  d3d10CalcSubresource,
  d3d9FormatTable,
  d3dFormatName,
  dxgiFormatName,
  dxgiFormatRule,
  dxgiFormatTable,
  isPlanarFormat,
  makeFourCC,
  vaFormatTable,
  type PlanarFormat,
} from '../lib/facts/sharing-formats';
import { predictSharedImage } from '../lib/interop/shared-image';

const planes = (entry: unknown) => (entry as PlanarFormat).planes.map((p) => [p.plane, p.content, p.order, p.type]);

describe('FourCC and D3DFORMAT codes (d3d9types.h; MAKEFOURCC)', () => {
  it('MAKEFOURCC packs the first character lowest: NV12 = 0x3231564E, YV12 = 0x32315659', () => {
    expect(makeFourCC('NV12')).toBe(0x3231564e);
    expect(makeFourCC('YV12')).toBe(0x32315659);
    expect(D3DFMT.NV12).toBe(0x3231564e);
    expect(D3DFMT.YV12).toBe(0x32315659);
    expect(D3DFMT.D3DFMT_YUY2).toBe(0x32595559);
    expect(D3DFMT.D3DFMT_UYVY).toBe(0x59565955);
    expect(() => makeFourCC('NV1')).toThrow(RangeError);
  });

  it('D3DFORMAT enumerant values of the formats the tables name', () => {
    expect(D3DFMT).toMatchObject({
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
    });
    const codes = Object.values(D3DFMT);
    expect(new Set(codes).size).toBe(codes.length);
    expect(d3dFormatName(21)).toBe('D3DFMT_A8R8G8B8');
    expect(d3dFormatName(0x3231564e)).toBe('NV12');
    expect(d3dFormatName(1)).toBeUndefined();
  });

  it('every format of every D3D9 table has a D3DFMT code', () => {
    for (const table of [d3d9FormatTable.nv, d3d9FormatTable.intel, d3d9FormatTable.khr]) {
      for (const name of Object.keys(table)) expect(D3DFMT, name).toHaveProperty(name);
    }
  });
});

describe('cl_nv_d3d9_sharing table 9.13.4.1 vs cl_intel_dx9_media_sharing table 9.13.4.1 / clCreateFromDX9MediaSurfaceKHR tables 9.10.3-9.10.4', () => {
  it('NV: 20 formats; Intel/KHR: 16 single-plane formats plus NV12 and YV12', () => {
    expect(Object.keys(d3d9FormatTable.nv)).toHaveLength(20);
    expect(Object.keys(d3d9FormatTable.intel)).toHaveLength(18);
    expect(Object.keys(d3d9FormatTable.khr).sort()).toEqual(Object.keys(d3d9FormatTable.intel).sort());
  });

  it('D3DFMT_A8 -> CL_R in NV (9.13.4.1) but CL_A in Intel (9.13.4.1) and KHR (9.10.4)', () => {
    expect(d3d9FormatTable.nv.D3DFMT_A8).toEqual({ order: 'R', type: 'UNORM_INT8' });
    expect(d3d9FormatTable.intel.D3DFMT_A8).toEqual({ order: 'A', type: 'UNORM_INT8' });
    expect(d3d9FormatTable.khr.D3DFMT_A8).toEqual({ order: 'A', type: 'UNORM_INT8' });
  });

  it('A8R8G8B8 / X8R8G8B8 -> CL_RGBA in NV ("channel order is literal") but CL_BGRA in Intel and KHR', () => {
    for (const f of ['D3DFMT_A8R8G8B8', 'D3DFMT_X8R8G8B8'] as const) {
      expect(d3d9FormatTable.nv[f]).toEqual({ order: 'RGBA', type: 'UNORM_INT8' });
      expect(d3d9FormatTable.intel[f]).toEqual({ order: 'BGRA', type: 'UNORM_INT8' });
      expect(d3d9FormatTable.khr[f]).toEqual({ order: 'BGRA', type: 'UNORM_INT8' });
    }
    // A8B8G8R8 / X8B8G8R8 are RGBA in all three.
    expect(d3d9FormatTable.nv.D3DFMT_A8B8G8R8).toEqual(d3d9FormatTable.intel.D3DFMT_A8B8G8R8);
  });

  it('signed V8U8 / V16U16 / Q8W8V8U8 / Q16W16V16U16 are NV-only (SNORM rows of 9.13.4.1)', () => {
    expect(d3d9FormatTable.nv.D3DFMT_V8U8).toEqual({ order: 'RG', type: 'SNORM_INT8' });
    expect(d3d9FormatTable.nv.D3DFMT_V16U16).toEqual({ order: 'RG', type: 'SNORM_INT16' });
    expect(d3d9FormatTable.nv.D3DFMT_Q8W8V8U8).toEqual({ order: 'RGBA', type: 'SNORM_INT8' });
    expect(d3d9FormatTable.nv.D3DFMT_Q16W16V16U16).toEqual({ order: 'RGBA', type: 'SNORM_INT16' });
    for (const f of ['D3DFMT_V8U8', 'D3DFMT_V16U16', 'D3DFMT_Q8W8V8U8', 'D3DFMT_Q16W16V16U16']) {
      expect(d3d9FormatTable.intel).not.toHaveProperty(f);
    }
  });

  it('the rows both tables share agree apart from A8, A8R8G8B8, X8R8G8B8', () => {
    const differ = Object.keys(d3d9FormatTable.nv).filter((name) => {
      const media = (d3d9FormatTable.intel as Record<string, unknown>)[name];
      return media !== undefined && JSON.stringify(media) !== JSON.stringify((d3d9FormatTable.nv as Record<string, unknown>)[name]);
    });
    expect(differ.sort()).toEqual(['D3DFMT_A8', 'D3DFMT_A8R8G8B8', 'D3DFMT_X8R8G8B8']);
  });

  it('NV12: plane 0 = Y (CL_R), plane 1 = UV (CL_RG), UNORM_INT8 (Intel 9.13.4.1, KHR 9.10.3)', () => {
    for (const table of [d3d9FormatTable.intel, d3d9FormatTable.khr]) {
      expect(isPlanarFormat(table.NV12)).toBe(true);
      expect(planes(table.NV12)).toEqual([
        [0, 'Y', 'R', 'UNORM_INT8'],
        [1, 'UV', 'RG', 'UNORM_INT8'],
      ]);
    }
  });

  it('YV12: plane 1 = V, plane 2 = U for Intel (9.13.4.1) and KHR (current Khronos text; Intel compute-runtime does the same)', () => {
    expect(planes(d3d9FormatTable.intel.YV12)).toEqual([
      [0, 'Y', 'R', 'UNORM_INT8'],
      [1, 'V', 'R', 'UNORM_INT8'],
      [2, 'U', 'R', 'UNORM_INT8'],
    ]);
    expect(planes(d3d9FormatTable.khr.YV12)).toEqual([
      [0, 'Y', 'R', 'UNORM_INT8'],
      [1, 'V', 'R', 'UNORM_INT8'],
      [2, 'U', 'R', 'UNORM_INT8'],
    ]);
  });

  it('tables are frozen data', () => {
    expect(Object.isFrozen(d3d9FormatTable)).toBe(true);
    expect(Object.isFrozen(d3d9FormatTable.nv)).toBe(true);
    expect(Object.isFrozen(d3d9FormatTable.intel.D3DFMT_A8)).toBe(true);
    expect(Object.isFrozen(dxgiFormatTable)).toBe(true);
    expect(Object.isFrozen(D3DFMT)).toBe(true);
  });
});

describe('cl_khr_d3d10_sharing: table "Direct3D 10 formats and corresponding OpenCL image formats"', () => {
  it('37 DXGI formats with their DXGI_FORMAT values (dxgiformat.h)', () => {
    expect(Object.keys(DXGI_FORMAT)).toHaveLength(37);
    expect(Object.keys(dxgiFormatTable)).toHaveLength(37);
    expect(DXGI_FORMAT).toMatchObject({
      DXGI_FORMAT_R32G32B32A32_FLOAT: 2,
      DXGI_FORMAT_R16G16B16A16_FLOAT: 10,
      DXGI_FORMAT_R32G32_FLOAT: 16,
      DXGI_FORMAT_R8G8B8A8_UNORM: 28,
      DXGI_FORMAT_R16G16_FLOAT: 34,
      DXGI_FORMAT_R32_FLOAT: 41,
      DXGI_FORMAT_R32_UINT: 42,
      DXGI_FORMAT_R8G8_UNORM: 49,
      DXGI_FORMAT_R16_FLOAT: 54,
      DXGI_FORMAT_R16_UNORM: 56,
      DXGI_FORMAT_R8_UNORM: 61,
      DXGI_FORMAT_R8_SINT: 64,
      DXGI_FORMAT_B8G8R8A8_UNORM: 87,
    });
    const codes = Object.values(DXGI_FORMAT);
    expect(new Set(codes).size).toBe(37);
    expect(dxgiFormatName(87)).toBe('DXGI_FORMAT_B8G8R8A8_UNORM');
    expect(dxgiFormatName(29)).toBeUndefined(); // R8G8B8A8_UNORM_SRGB: not in the table
  });

  it('rule samples: B8G8R8A8_UNORM -> BGRA/UNORM_INT8, R16G16_FLOAT -> RG/HALF_FLOAT, R32_UINT -> R/UNSIGNED_INT32', () => {
    expect(dxgiFormatTable.DXGI_FORMAT_B8G8R8A8_UNORM).toEqual({ order: 'BGRA', type: 'UNORM_INT8' });
    expect(dxgiFormatTable.DXGI_FORMAT_R16G16_FLOAT).toEqual({ order: 'RG', type: 'HALF_FLOAT' });
    expect(dxgiFormatTable.DXGI_FORMAT_R32_UINT).toEqual({ order: 'R', type: 'UNSIGNED_INT32' });
    expect(dxgiFormatTable.DXGI_FORMAT_R32G32B32A32_FLOAT).toEqual({ order: 'RGBA', type: 'FLOAT' });
    expect(dxgiFormatTable.DXGI_FORMAT_R16G16B16A16_SNORM).toEqual({ order: 'RGBA', type: 'SNORM_INT16' });
    expect(dxgiFormatTable.DXGI_FORMAT_R8G8_SINT).toEqual({ order: 'RG', type: 'SIGNED_INT8' });
    expect(dxgiFormatTable.DXGI_FORMAT_R16_UNORM).toEqual({ order: 'R', type: 'UNORM_INT16' });
  });

  it('rule: order by component count, type by suffix and width, over all 37', () => {
    const orders: Record<number, string> = { 1: 'R', 2: 'RG', 4: 'RGBA' };
    for (const [name, f] of Object.entries(dxgiFormatTable)) {
      const [, layout, suffix] = /^DXGI_FORMAT_(\w+?)_(FLOAT|UNORM|SNORM|UINT|SINT)$/.exec(name)!;
      const comps = layout!.match(/[RGBA]\d+/g)!;
      const bits = Number(comps[0]!.slice(1));
      expect(f.order, name).toBe(name === 'DXGI_FORMAT_B8G8R8A8_UNORM' ? 'BGRA' : orders[comps.length]);
      const type = {
        FLOAT: bits === 32 ? 'FLOAT' : 'HALF_FLOAT',
        UNORM: `UNORM_INT${bits}`,
        SNORM: `SNORM_INT${bits}`,
        UINT: `UNSIGNED_INT${bits}`,
        SINT: `SIGNED_INT${bits}`,
      }[suffix!];
      expect(f.type, name).toBe(type);
    }
  });

  it('the rule rejects formats outside the table (TYPELESS, SRGB, packed)', () => {
    expect(() => dxgiFormatRule('DXGI_FORMAT_R8G8B8A8_TYPELESS')).toThrow(RangeError);
    expect(() => dxgiFormatRule('DXGI_FORMAT_R8G8B8A8_UNORM_SRGB')).toThrow(RangeError);
    expect(() => dxgiFormatRule('DXGI_FORMAT_R10G10B10A2_UNORM')).toThrow(RangeError);
    expect(() => dxgiFormatRule('DXGI_FORMAT_R8_FLOAT')).toThrow(RangeError);
  });

  it('D3D10CalcSubresource = MipSlice + ArraySlice * MipLevels', () => {
    expect(d3d10CalcSubresource(2, 3, 5)).toBe(17);
  });
});

describe('cl_intel_va_api_media_sharing table 9.X.4.1', () => {
  it('VA_FOURCC_NV12 = VA_FOURCC(N,V,1,2): plane 0 -> CL_R, plane 1 -> CL_RG, UNORM_INT8', () => {
    expect(VA_FOURCC_NV12).toBe(0x3231564e);
    expect(planes(vaFormatTable.VA_FOURCC_NV12)).toEqual([
      [0, 'Y', 'R', 'UNORM_INT8'],
      [1, 'UV', 'RG', 'UNORM_INT8'],
    ]);
  });
});

describe('predictSharedImage', () => {
  it('resolves to CL numbers (ResolvedImageFormat): NV A8R8G8B8 -> CL_RGBA, Intel -> CL_BGRA', () => {
    const nv = predictSharedImage({ extension: 'cl_nv_d3d9_sharing', d3dFormat: D3DFMT.D3DFMT_A8R8G8B8, width: 64, height: 32 });
    expect(nv).toEqual({
      format: { order: 'RGBA', type: 'UNORM_INT8', orderValue: CL.CL_RGBA, typeValue: CL.CL_UNORM_INT8 },
      imageType: 'image2d',
      width: 64,
      height: 32,
      depth: 0,
    });
    const intel = predictSharedImage({ extension: 'cl_intel_dx9_media_sharing', d3dFormat: 21, width: 64, height: 32 });
    expect(intel.format.orderValue).toBe(CL.CL_BGRA);
    const a8 = predictSharedImage({ extension: 'cl_khr_dx9_media_sharing', d3dFormat: D3DFMT.D3DFMT_A8, width: 8, height: 8 });
    expect(a8.format.orderValue).toBe(CL.CL_A);
  });

  it('NV mip levels (§9.13.4: "width and height of mipmap level <miplevel>"): max(1, size >> level)', () => {
    const p = (miplevel: number) =>
      predictSharedImage({ extension: 'cl_nv_d3d9_sharing', d3dFormat: D3DFMT.D3DFMT_R32F, width: 256, height: 64, miplevel });
    expect([0, 1, 2, 6, 7, 8].map((l) => [p(l).width, p(l).height])).toEqual([
      [256, 64],
      [128, 32],
      [64, 16],
      [4, 1],
      [2, 1],
      [1, 1],
    ]);
    expect(() => p(9)).toThrow(RangeError); // a 256-wide chain has 9 levels (0..8)
    expect(predictSharedImage({ extension: 'cl_nv_d3d9_sharing', d3dFormat: 115, width: 5, height: 3 })).toMatchObject({ width: 5, height: 3 });
    expect(predictSharedImage({ extension: 'cl_nv_d3d9_sharing', d3dFormat: 115, width: 5, height: 3, miplevel: 1 })).toMatchObject({
      width: 2,
      height: 1,
    });
  });

  it('NV volume texture (clCreateFromD3D9VolumeTextureNV: a 3D image of level <miplevel>)', () => {
    expect(
      predictSharedImage({ extension: 'cl_nv_d3d9_sharing', d3dFormat: D3DFMT.D3DFMT_A16B16G16R16F, width: 32, height: 16, depth: 8, miplevel: 2 }),
    ).toMatchObject({ imageType: 'image3d', width: 8, height: 4, depth: 2, format: { order: 'RGBA', type: 'HALF_FLOAT' } });
  });

  it('DX9 media NV12 planes (Intel §9.13.4 / KHR 9.10.3): Y W x H, UV W/2 x H/2', () => {
    for (const extension of ['cl_intel_dx9_media_sharing', 'cl_khr_dx9_media_sharing'] as const) {
      const y = predictSharedImage({ extension, d3dFormat: D3DFMT.NV12, width: 1920, height: 1080, plane: 0 });
      const uv = predictSharedImage({ extension, d3dFormat: D3DFMT.NV12, width: 1920, height: 1080, plane: 1 });
      expect([y.format.order, y.width, y.height]).toEqual(['R', 1920, 1080]);
      expect([uv.format.order, uv.format.type, uv.width, uv.height]).toEqual(['RG', 'UNORM_INT8', 960, 540]);
      expect(() => predictSharedImage({ extension, d3dFormat: D3DFMT.NV12, width: 16, height: 16, plane: 2 })).toThrow(/plane 2.*NV12/);
    }
  });

  it('DX9 media YV12: three CL_R planes, chroma W/2 x H/2; plane 3 is not a plane', () => {
    const sizes = [0, 1, 2].map((plane) => {
      const r = predictSharedImage({ extension: 'cl_intel_dx9_media_sharing', d3dFormat: D3DFMT.YV12, width: 640, height: 480, plane });
      return [r.format.order, r.width, r.height];
    });
    expect(sizes).toEqual([
      ['R', 640, 480],
      ['R', 320, 240],
      ['R', 320, 240],
    ]);
    expect(() => predictSharedImage({ extension: 'cl_khr_dx9_media_sharing', d3dFormat: D3DFMT.YV12, width: 8, height: 8, plane: 3 })).toThrow(
      RangeError,
    );
  });

  it('DX9 media: non-planar formats take plane 0 only (KHR man page: "For nonplanar formats ... plane must be 0")', () => {
    expect(predictSharedImage({ extension: 'cl_khr_dx9_media_sharing', d3dFormat: D3DFMT.D3DFMT_L16, width: 8, height: 4 })).toMatchObject({
      format: { order: 'R', type: 'UNORM_INT16' },
      width: 8,
      height: 4,
    });
    expect(() =>
      predictSharedImage({ extension: 'cl_intel_dx9_media_sharing', d3dFormat: D3DFMT.D3DFMT_L16, width: 8, height: 4, plane: 1 }),
    ).toThrow(/plane 1.*D3DFMT_L16/);
  });

  it('D3D10 Texture2D mip level / subresource and Texture3D sizes (cl_khr_d3d10_sharing: size of subresource)', () => {
    const base = { extension: 'cl_khr_d3d10_sharing', dxgiFormat: DXGI_FORMAT.DXGI_FORMAT_B8G8R8A8_UNORM, width: 100, height: 60 } as const;
    expect(predictSharedImage(base)).toMatchObject({ format: { order: 'BGRA', orderValue: CL.CL_BGRA }, width: 100, height: 60, depth: 0 });
    expect(predictSharedImage({ ...base, mipLevel: 3 })).toMatchObject({ width: 12, height: 7 });
    // array slice 2 of a 4-level texture, mip 1: subresource 1 + 2 * 4 = 9
    expect(predictSharedImage({ ...base, subresource: d3d10CalcSubresource(1, 2, 4), mipLevels: 4 })).toMatchObject({ width: 50, height: 30 });
    expect(
      predictSharedImage({
        extension: 'cl_khr_d3d10_sharing',
        dxgiFormat: DXGI_FORMAT.DXGI_FORMAT_R16G16_FLOAT,
        width: 16,
        height: 16,
        depth: 4,
        mipLevel: 1,
      }),
    ).toMatchObject({
      imageType: 'image3d',
      width: 8,
      height: 8,
      depth: 2,
      format: { order: 'RG', type: 'HALF_FLOAT', typeValue: CL.CL_HALF_FLOAT },
    });
    expect(predictSharedImage({ extension: 'cl_khr_d3d10_sharing', dxgiFormat: DXGI_FORMAT.DXGI_FORMAT_R32_UINT, width: 4 })).toMatchObject({
      format: { order: 'R', type: 'UNSIGNED_INT32' },
      width: 4,
      height: 1,
    });
    expect(() => predictSharedImage({ ...base, mipLevel: 7 })).toThrow(RangeError);
  });

  it('VA-API NV12 planes (§9.X.4): plane 0 Y W x H, plane 1 UV W/2 x H/2; other planes and FourCCs throw', () => {
    expect(predictSharedImage({ extension: 'cl_intel_va_api_media_sharing', width: 1280, height: 720, plane: 0 })).toMatchObject({
      format: { order: 'R', type: 'UNORM_INT8' },
      width: 1280,
      height: 720,
    });
    expect(
      predictSharedImage({ extension: 'cl_intel_va_api_media_sharing', width: 1280, height: 720, plane: 1, fourcc: VA_FOURCC_NV12 }),
    ).toMatchObject({
      format: { order: 'RG', type: 'UNORM_INT8', orderValue: CL.CL_RG },
      width: 640,
      height: 360,
    });
    expect(() => predictSharedImage({ extension: 'cl_intel_va_api_media_sharing', width: 16, height: 16, plane: 2 })).toThrow(RangeError);
    expect(() =>
      predictSharedImage({ extension: 'cl_intel_va_api_media_sharing', width: 16, height: 16, plane: 0, fourcc: makeFourCC('YV12') }),
    ).toThrow(/VA FourCC/);
  });

  it('unsupported formats throw RangeError naming the format (CL_INVALID_IMAGE_FORMAT_DESCRIPTOR in the specs)', () => {
    // V8U8 is in the NV table only
    expect(() => predictSharedImage({ extension: 'cl_intel_dx9_media_sharing', d3dFormat: D3DFMT.D3DFMT_V8U8, width: 4, height: 4 })).toThrow(
      /D3DFMT_V8U8.*cl_intel_dx9_media_sharing/,
    );
    // NV12 is in the media tables only
    expect(() => predictSharedImage({ extension: 'cl_nv_d3d9_sharing', d3dFormat: D3DFMT.NV12, width: 4, height: 4 })).toThrow(/NV12.*9\.13\.4\.1/);
    // cl_intel_packed_yuv formats are not covered
    expect(() => predictSharedImage({ extension: 'cl_intel_dx9_media_sharing', d3dFormat: D3DFMT.D3DFMT_YUY2, width: 4, height: 4 })).toThrow(
      /D3DFMT_YUY2/,
    );
    // unknown codes are named by number
    expect(() => predictSharedImage({ extension: 'cl_nv_d3d9_sharing', d3dFormat: 20, width: 4, height: 4 })).toThrow(/20 \(0x14\)/);
    expect(() => predictSharedImage({ extension: 'cl_khr_d3d10_sharing', dxgiFormat: 29, width: 4, height: 4 })).toThrow(/DXGI_FORMAT 29/);
  });

  it('bad sizes and indices throw RangeError; an unknown extension TypeError', () => {
    expect(() => predictSharedImage({ extension: 'cl_nv_d3d9_sharing', d3dFormat: 21, width: 0, height: 4 })).toThrow(RangeError);
    expect(() => predictSharedImage({ extension: 'cl_nv_d3d9_sharing', d3dFormat: 21, width: 4, height: 4.5 })).toThrow(RangeError);
    expect(() => predictSharedImage({ extension: 'cl_nv_d3d9_sharing', d3dFormat: 21, width: 4, height: 4, miplevel: -1 })).toThrow(RangeError);
    expect(() => predictSharedImage({ extension: 'cl_gl_sharing' } as never)).toThrow(TypeError);
  });
});
