// The formats the Direct3D module creates, reads and writes: those of the
// sharing tables (lib/facts/sharing-formats.ts: the 37 DXGI formats of the D3D10 /
// D3D11 tables, the D3DFORMATs of the D3D9 tables) plus DXGI_FORMAT_NV12, and
// where each plane of a subresource lies in mapped memory. Other format codes
// may be created (Direct3D decides); reading and writing them is refused here.
import type { NativePlaneLayout } from './native-types';
import { describeValue } from '../errors';
import { elementSize } from '../facts/cl-image-formats';
import {
  D3DFMT,
  DXGI_FORMAT,
  DXGI_FORMAT_NV12,
  d3d11DxgiFormatTable,
  d3d9FormatTable,
  type D3DFormatName,
  type DxgiFormatName,
} from '../facts/sharing-formats';

/** A DXGI format: a name of the sharing tables, 'DXGI_FORMAT_NV12', or any DXGI_FORMAT value. */
export type DxgiFormatInput = DxgiFormatName | 'DXGI_FORMAT_NV12' | number;
/** A D3DFORMAT: a name of `D3DFMT` (NV12 and YV12 included), 'D3DFMT_INDEX16' / 'D3DFMT_INDEX32', or any value. */
export type D3D9FormatInput = D3DFormatName | 'D3DFMT_INDEX16' | 'D3DFMT_INDEX32' | number;

const dxgiCodes: Readonly<Record<string, number>> = { ...DXGI_FORMAT, DXGI_FORMAT_NV12 };
/** d3d9types.h: D3DFMT_INDEX16 = 101, D3DFMT_INDEX32 = 102. */
const d3d9Codes: Readonly<Record<string, number>> = { ...D3DFMT, D3DFMT_INDEX16: 101, D3DFMT_INDEX32: 102 };

function formatCode(value: unknown, what: string, codes: Readonly<Record<string, number>>, kind: string): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 0xffffffff) return value;
  if (typeof value === 'string' && Object.hasOwn(codes, value)) return codes[value]!;
  throw new TypeError(
    `${what} must be a ${kind} name (e.g. ${Object.keys(codes).slice(0, 2).join(', ')}, ...) or value; got ${describeValue(value)}`,
  );
}

/** @internal The DXGI_FORMAT value of a format option. */
export function dxgiFormatCode(value: unknown, what: string): number {
  return formatCode(value, what, dxgiCodes, 'DXGI_FORMAT');
}

/** @internal The D3DFORMAT value of a format option. */
export function d3d9FormatCode(value: unknown, what: string): number {
  return formatCode(value, what, d3d9Codes, 'D3DFORMAT');
}

/** The name of a DXGI format value among those the module knows, else the number. */
export function dxgiFormatLabel(code: number): string {
  if (typeof code !== 'number' || !Number.isInteger(code))
    throw new TypeError(`code must be an integer (a DXGI_FORMAT value); got ${describeValue(code)}`);
  return Object.keys(dxgiCodes).find((name) => dxgiCodes[name] === code) ?? `DXGI_FORMAT ${code}`;
}

/** The name of a D3DFORMAT value among those the module knows, else the number. */
export function d3d9FormatLabel(code: number): string {
  if (typeof code !== 'number' || !Number.isInteger(code))
    throw new TypeError(`code must be an integer (a D3DFORMAT value); got ${describeValue(code)}`);
  return Object.keys(d3d9Codes).find((name) => d3d9Codes[name] === code) ?? `D3DFORMAT ${code}`;
}

/** One plane of a planar format: bytes per element and its size divisors. */
interface PlaneShape {
  bytes: number;
  divisor: 1 | 2;
}

const dxgiBytes = new Map<number, number>(
  (Object.keys(d3d11DxgiFormatTable) as DxgiFormatName[]).map((name) => [DXGI_FORMAT[name], elementSize(d3d11DxgiFormatTable[name])]),
);
const d3d9Bytes = new Map<number, number>(
  (Object.keys(d3d9FormatTable.nv) as (keyof typeof d3d9FormatTable.nv)[]).map((name) => [D3DFMT[name], elementSize(d3d9FormatTable.nv[name])]),
);

/** @internal The planes of a DXGI format (one for the table's formats, Y and UV for NV12), or undefined when unknown. */
export function dxgiPlanes(code: number): PlaneShape[] | undefined {
  if (code === DXGI_FORMAT_NV12)
    return [
      { bytes: 1, divisor: 1 },
      { bytes: 2, divisor: 2 },
    ];
  const bytes = dxgiBytes.get(code);
  return bytes ? [{ bytes, divisor: 1 }] : undefined;
}

/** @internal The planes of a D3DFORMAT (NV12: Y, UV; YV12: Y, V, U), or undefined when unknown. */
export function d3d9Planes(code: number): PlaneShape[] | undefined {
  if (code === D3DFMT.NV12)
    return [
      { bytes: 1, divisor: 1 },
      { bytes: 2, divisor: 2 },
    ];
  if (code === D3DFMT.YV12)
    return [
      { bytes: 1, divisor: 1 },
      { bytes: 1, divisor: 2 },
      { bytes: 1, divisor: 2 },
    ];
  const bytes = d3d9Bytes.get(code);
  return bytes ? [{ bytes, divisor: 1 }] : undefined;
}

/**
 * @internal Where plane `plane` of a (width x height x depth) subresource lies
 * once mapped: planar formats keep their planes one after the other at the Y
 * plane's pitch (NV12 UV), or at half of it (YV12 V then U), as D3D11 Map and
 * D3D9 LockRect give them.
 */
export function planeLayout(planes: readonly PlaneShape[], plane: number, width: number, height: number, depth: number): NativePlaneLayout {
  const shape = planes[plane]!;
  const rows = Math.ceil(height / shape.divisor);
  const layout: NativePlaneLayout = {
    rowBytes: Math.ceil(width / shape.divisor) * shape.bytes,
    rows,
    slices: depth,
    rowsBefore: plane === 0 ? 0 : height,
    halfRowsBefore: plane === 2 ? Math.ceil(height / 2) : 0,
    pitchDivisor: planes.length === 3 && plane > 0 ? 2 : 1,
  };
  return layout;
}

/** @internal The packed size of a plane layout. */
export function layoutSize(layout: NativePlaneLayout): number {
  return layout.rowBytes * layout.rows * layout.slices;
}
