// The argument checks every layer uses (the core, lib/interop/, lib/va/,
// lib/direct3d/): small named validators, so that two areas never disagree on
// what an options object or an integer in a range is. Each throws a TypeError
// (wrong kind of value) or a RangeError (right kind, out of range) that names
// the argument (`what`), says what was expected and describes what was given.
import { describeValue } from './errors';
import { DRM_FORMAT_MOD_LINEAR } from './facts/va-formats';

/**
 * An options object (undefined: {}) whose keys are all known. null, an array
 * or any other non-object is a TypeError; so is an unknown key.
 */
export function checkOptions<T extends object>(options: unknown, what: string, keys: readonly string[]): Partial<T> {
  if (options === undefined) return {};
  checkObject(options, what);
  for (const key of Object.keys(options)) {
    if (!keys.includes(key)) throw new TypeError(`${what}.${key} is not an option; the options are ${keys.join(', ')}`);
  }
  return options as Partial<T>;
}

/**
 * A copy of an options object with the named keys, each read exactly once:
 * a getter that changes its answer cannot pass the checks with one value and
 * hand the driver another. Absent (undefined) keys are left out.
 */
export function readOnce<T extends object, K extends keyof T>(options: T, what: string, keys: readonly K[]): Pick<T, K> {
  checkObject(options, what);
  const copy = {} as Pick<T, K>;
  for (const key of keys) {
    const value = options[key];
    if (value !== undefined) copy[key] = value;
  }
  return copy;
}

/** A plain object argument (not null, not an array). */
export function checkObject<T>(value: T, what: string): asserts value is T & object {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new TypeError(`${what} must be an object; got ${describeValue(value)}`);
  }
}

/** An integer in [min, max] (`fallback` when undefined and one is given). */
export function checkInt(value: unknown, what: string, min: number, max = Number.MAX_SAFE_INTEGER, fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${what} must be an integer from ${min} to ${max}; got ${describeValue(value)}`);
  }
  return value;
}

/** A safe integer >= min: TypeError for a non-number, RangeError for a number out of range. */
export function checkCount(value: unknown, what: string, min = 0): asserts value is number {
  if (typeof value !== 'number') throw new TypeError(`${what} must be an integer >= ${min}; got ${describeValue(value)}`);
  if (!Number.isSafeInteger(value) || value < min) {
    throw new RangeError(`${what} must be an integer >= ${min}; got ${String(value)}`);
  }
}

/** An [x, y, z] of integers >= min, copied (each element read once). */
export function checkTriple(value: unknown, what: string, min: number): [number, number, number] {
  if (!Array.isArray(value) || value.length !== 3) throw new TypeError(`${what} must be [x, y, z]; got ${describeValue(value)}`);
  const copy = [value[0], value[1], value[2]] as unknown[];
  copy.forEach((v, i) => {
    checkCount(v, `${what}[${i}]`, min);
  });
  return copy as [number, number, number];
}

/** A safe integer >= 1 (a width, a height, a count of levels). */
export function checkPositive(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`${what} must be a positive integer; got ${describeValue(value)}`);
  }
  return value;
}

/** A safe integer >= 0 (an index, a level); undefined is 0. */
export function checkIndex(value: unknown, what: string): number {
  if (value === undefined) return 0;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${what} must be a non-negative integer; got ${describeValue(value)}`);
  }
  return value;
}

/** One of `choices` (`fallback` when undefined and one is given). */
export function checkChoice<T extends string>(value: unknown, what: string, choices: readonly T[], fallback?: T): T {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== 'string' || !(choices as readonly string[]).includes(value)) {
    throw new TypeError(`${what} must be ${choices.map((c) => `'${c}'`).join(', ')}; got ${describeValue(value)}`);
  }
  return value as T;
}

/** A boolean (`fallback` when undefined). */
export function checkBoolean(value: unknown, what: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new TypeError(`${what} must be a boolean; got ${describeValue(value)}`);
  return value;
}

/** A non-empty string (`undefined` passes when optional). */
export function checkNonEmptyString(value: unknown, what: string): string {
  if (typeof value !== 'string' || value === '') throw new TypeError(`${what} must be a non-empty string; got ${describeValue(value)}`);
  return value;
}

/** OR of named flags: an array of names of `table` (or one name; `fallback` when undefined). */
export function checkFlags(value: unknown, what: string, table: Readonly<Record<string, number>>, fallback: readonly string[]): number {
  const names = value === undefined ? fallback : typeof value === 'string' ? [value] : value;
  const listed = () =>
    Object.keys(table)
      .map((k) => `'${k}'`)
      .join(', ');
  if (!Array.isArray(names)) throw new TypeError(`${what} must be an array of ${listed()}; got ${describeValue(value)}`);
  let bits = 0;
  for (const name of names) {
    if (typeof name !== 'string' || !Object.hasOwn(table, name)) throw new TypeError(`${what} takes ${listed()}; got ${describeValue(name)}`);
    bits |= table[name]!;
  }
  return bits >>> 0;
}

/** Bytes: a Uint8Array (a Buffer is one), another ArrayBuffer view or an ArrayBuffer, seen as bytes (no copy). */
export function checkBytes(data: unknown, what: string): Uint8Array {
  if (data instanceof Uint8Array) return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  throw new TypeError(`${what} must be a Uint8Array, another typed array or an ArrayBuffer; got ${describeValue(data)}`);
}

/** A detached ArrayBuffer (transferred, or structuredClone'd with transfer) reads as 0 bytes: say so, naming the argument. */
export function checkNotDetached(data: ArrayBuffer | ArrayBufferView, what: string): void {
  const buffer = data instanceof ArrayBuffer ? data : data.buffer;
  if (buffer instanceof ArrayBuffer && buffer.byteLength === 0 && isDetached(buffer)) {
    throw new TypeError(
      `${what} is ${data instanceof ArrayBuffer ? 'a detached ArrayBuffer' : 'a view of a detached ArrayBuffer'} (it was transferred): its bytes are gone`,
    );
  }
}

function isDetached(buffer: ArrayBuffer): boolean {
  const flag = (buffer as { detached?: boolean }).detached;
  if (typeof flag === 'boolean') return flag;
  try {
    new Uint8Array(buffer);
    return false;
  } catch {
    return true;
  }
}

/**
 * A DRM format modifier (drm_fourcc.h): a 64-bit bigint, or a string of its
 * decimal (as Electron gives it) or 0x hex digits. Undefined:
 * DRM_FORMAT_MOD_LINEAR.
 */
export function checkDrmModifier(value: unknown, what: string): bigint {
  if (value === undefined) return DRM_FORMAT_MOD_LINEAR;
  let modifier: bigint | undefined;
  if (typeof value === 'bigint') modifier = value;
  else if (typeof value === 'string' && /^(0x[0-9a-f]+|[0-9]+)$/i.test(value)) modifier = BigInt(value);
  if (modifier === undefined || modifier < 0n || modifier >= 2n ** 64n) {
    throw new TypeError(
      `${what} must be a 64-bit DRM format modifier (a bigint, or a string of its decimal or 0x hex digits); got ${describeValue(value)}`,
    );
  }
  return modifier;
}
