// Argument checks shared by the Vulkan module's classes.
import { describeValue } from '../errors';

/** @internal */
export function checkOptions<T extends object>(options: unknown, what: string, keys: readonly string[]): Partial<T> {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object') throw new TypeError(`${what} must be an object; got ${describeValue(options)}`);
  for (const key of Object.keys(options)) {
    if (!keys.includes(key)) throw new TypeError(`${what}.${key} is not an option; the options are ${keys.join(', ')}`);
  }
  return options as Partial<T>;
}

/** @internal An integer in [min, max]. */
export function checkInteger(value: unknown, what: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${what} must be an integer from ${min} to ${max}; got ${describeValue(value)}`);
  }
  return value;
}

/** @internal One of `choices`, or `fallback` when undefined. */
export function checkChoice<T extends string>(value: unknown, what: string, choices: readonly T[], fallback?: T): T {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== 'string' || !(choices as readonly string[]).includes(value)) {
    throw new TypeError(`${what} must be ${choices.map((c) => `'${c}'`).join(' or ')}; got ${describeValue(value)}`);
  }
  return value as T;
}

/** @internal A typed array, DataView or ArrayBuffer as a byte view. */
export function checkBytes(value: unknown, what: string): Uint8Array {
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  throw new TypeError(`${what} must be an ArrayBuffer, a typed array or a DataView; got ${describeValue(value)}`);
}
