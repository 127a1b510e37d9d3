// Image channel orders and data types as data: names, channel counts and
// bytes per channel, used to validate sizes before the driver is called.
import { CL } from './cl-constants';

export type ChannelOrder =
  | 'R'
  | 'A'
  | 'RG'
  | 'RA'
  | 'RGB'
  | 'RGBA'
  | 'BGRA'
  | 'ARGB'
  | 'INTENSITY'
  | 'LUMINANCE'
  | 'Rx'
  | 'RGx'
  | 'RGBx'
  | 'DEPTH'
  | 'sRGBA'
  | 'sBGRA'
  | 'ABGR';
export type ChannelType =
  | 'SNORM_INT8'
  | 'SNORM_INT16'
  | 'UNORM_INT8'
  | 'UNORM_INT16'
  | 'UNORM_SHORT_565'
  | 'UNORM_SHORT_555'
  | 'UNORM_INT_101010'
  | 'SIGNED_INT8'
  | 'SIGNED_INT16'
  | 'SIGNED_INT32'
  | 'UNSIGNED_INT8'
  | 'UNSIGNED_INT16'
  | 'UNSIGNED_INT32'
  | 'HALF_FLOAT'
  | 'FLOAT';

/** An image format: names ('RGBA', 'UNORM_INT8') or CL_* numbers. */
export interface ImageFormat {
  order: ChannelOrder | number;
  type: ChannelType | number;
}
/** The same format, normalized: names and numbers. */
export interface ResolvedImageFormat {
  order: ChannelOrder;
  type: ChannelType;
  orderValue: number;
  typeValue: number;
}

const channelCounts: Record<ChannelOrder, number> = {
  R: 1,
  A: 1,
  RG: 2,
  RA: 2,
  RGB: 3,
  RGBA: 4,
  BGRA: 4,
  ARGB: 4,
  INTENSITY: 1,
  LUMINANCE: 1,
  Rx: 2,
  RGx: 3,
  RGBx: 4,
  DEPTH: 1,
  sRGBA: 4,
  sBGRA: 4,
  ABGR: 4,
};
// Packed types give the bytes of the whole element instead (negative).
const channelBytes: Record<ChannelType, number> = {
  SNORM_INT8: 1,
  SNORM_INT16: 2,
  UNORM_INT8: 1,
  UNORM_INT16: 2,
  UNORM_SHORT_565: -2,
  UNORM_SHORT_555: -2,
  UNORM_INT_101010: -4,
  SIGNED_INT8: 1,
  SIGNED_INT16: 2,
  SIGNED_INT32: 4,
  UNSIGNED_INT8: 1,
  UNSIGNED_INT16: 2,
  UNSIGNED_INT32: 4,
  HALF_FLOAT: 2,
  FLOAT: 4,
};

function clValue(name: string): number {
  return (CL as Record<string, number>)[`CL_${name}`]!;
}
function nameOf<T extends string>(table: Record<T, number>, value: number, what: string): T {
  const name = (Object.keys(table) as T[]).find((key) => clValue(key) === value);
  if (!name) throw new RangeError(`unknown ${what} 0x${value.toString(16)}`);
  return name;
}
function resolveName<T extends string>(table: Record<T, number>, given: T | number, what: string): T {
  if (typeof given === 'number') return nameOf(table, given, what);
  if (typeof given === 'string' && given in table) return given;
  const bare = typeof given === 'string' ? given.replace(/^CL_/, '') : '';
  if (bare in table) return bare as T;
  throw new TypeError(`${what} must be one of ${Object.keys(table).join(', ')} or its CL_* value; got ${String(given)}`);
}

/** Normalizes a format given by names or numbers; throws on unknown values. */
export function resolveImageFormat(format: ImageFormat): ResolvedImageFormat {
  if (typeof format !== 'object' || format === null) throw new TypeError('format must be { order, type }');
  const order = resolveName(channelCounts, format.order, 'channel order');
  const type = resolveName(channelBytes, format.type, 'channel data type');
  return { order, type, orderValue: clValue(order), typeValue: clValue(type) };
}

/** Bytes per pixel of a format. */
export function elementSize(format: ImageFormat): number {
  const { order, type } = resolveImageFormat(format);
  const bytes = channelBytes[type];
  return bytes < 0 ? -bytes : bytes * channelCounts[order];
}
