import type { NativeKernel } from './addon';
import { CL } from './constants';
import type { Device } from './device';
import { OpenCLReleasedError, contextMismatch } from './errors';
import { decode } from './info';
import { MemObject } from './memory';
import type { Program } from './program';
import { Resource } from './resource';
import { Sampler } from './sampler';

export type ScalarType = 'char' | 'uchar' | 'short' | 'ushort' | 'int' | 'uint' | 'long' | 'ulong' | 'half' | 'float' | 'double';
export type VectorWidth = 2 | 3 | 4 | 8 | 16;
export type VectorType = `${ScalarType}${VectorWidth}`;
/** An OpenCL C type a kernel argument can have. */
export type ArgType = ScalarType | VectorType;

type Writer = (view: DataView, offset: number, value: number | bigint) => void;
const littleEndian = true;

function halfBits(value: number): number {
  const f32 = new Float32Array([value]);
  const bits = new Uint32Array(f32.buffer)[0]!;
  const sign = (bits >>> 16) & 0x8000;
  const exponent = ((bits >>> 23) & 0xff) - 127 + 15;
  const mantissa = bits & 0x7fffff;
  if (((bits >>> 23) & 0xff) === 0xff) return sign | 0x7c00 | (mantissa ? 0x200 : 0);
  if (exponent >= 0x1f) return sign | 0x7c00;
  if (exponent <= 0) {
    if (exponent < -10) return sign;
    const m = (mantissa | 0x800000) >> (1 - exponent);
    return sign | ((m + 0x1000) >> 13);
  }
  return sign | (exponent << 10) | ((mantissa + 0x1000) >> 13);
}

const asNumber = (v: number | bigint) => (typeof v === 'bigint' ? Number(v) : v);
const asBigInt = (v: number | bigint) => (typeof v === 'bigint' ? v : BigInt(v));

const scalars: Record<ScalarType, { size: number; write: Writer; integer: boolean }> = {
  char: { size: 1, integer: true, write: (v, o, x) => v.setInt8(o, asNumber(x)) },
  uchar: { size: 1, integer: true, write: (v, o, x) => v.setUint8(o, asNumber(x)) },
  short: { size: 2, integer: true, write: (v, o, x) => v.setInt16(o, asNumber(x), littleEndian) },
  ushort: { size: 2, integer: true, write: (v, o, x) => v.setUint16(o, asNumber(x), littleEndian) },
  int: { size: 4, integer: true, write: (v, o, x) => v.setInt32(o, asNumber(x), littleEndian) },
  uint: { size: 4, integer: true, write: (v, o, x) => v.setUint32(o, asNumber(x), littleEndian) },
  long: { size: 8, integer: true, write: (v, o, x) => v.setBigInt64(o, asBigInt(x), littleEndian) },
  ulong: { size: 8, integer: true, write: (v, o, x) => v.setBigUint64(o, asBigInt(x), littleEndian) },
  half: { size: 2, integer: false, write: (v, o, x) => v.setUint16(o, halfBits(asNumber(x)), littleEndian) },
  float: { size: 4, integer: false, write: (v, o, x) => v.setFloat32(o, asNumber(x), littleEndian) },
  double: { size: 8, integer: false, write: (v, o, x) => v.setFloat64(o, asNumber(x), littleEndian) },
};

const integerRanges: Partial<Record<ScalarType, [number | bigint, number | bigint]>> = {
  char: [-128, 127],
  uchar: [0, 255],
  short: [-32768, 32767],
  ushort: [0, 65535],
  int: [-2147483648, 2147483647],
  uint: [0, 4294967295],
  long: [-(2n ** 63n), 2n ** 63n - 1n],
  ulong: [0n, 2n ** 64n - 1n],
};

/** Parses 'float4' into { scalar: 'float', width: 4 }. */
function parseType(type: string): { scalar: ScalarType; width: number } {
  const match = /^([a-z]+?)(2|3|4|8|16)?$/.exec(type);
  if (!match || !(match[1]! in scalars)) {
    throw new TypeError(`unknown kernel argument type '${type}' (use e.g. 'int', 'float4', 'uchar16')`);
  }
  return { scalar: match[1] as ScalarType, width: match[2] ? Number(match[2]) : 1 };
}

/** Packs a value as the bytes of an OpenCL C scalar or vector (3-vectors take the room of 4). */
export function packArg(type: ArgType, value: number | bigint | readonly (number | bigint)[]): Uint8Array {
  const { scalar, width } = parseType(type);
  const info = scalars[scalar];
  const values = Array.isArray(value) ? value : [value];
  if (values.length !== width) {
    throw new TypeError(`a ${type} takes ${width === 1 ? 'one number' : `${width} numbers`}; got ${values.length}`);
  }
  const slots = width === 3 ? 4 : width;
  const bytes = new Uint8Array(info.size * slots);
  const view = new DataView(bytes.buffer);
  values.forEach((x, i) => {
    if (typeof x !== 'number' && typeof x !== 'bigint') throw new TypeError(`${type} element ${i} must be a number or bigint`);
    if (info.integer) {
      const range = integerRanges[scalar]!;
      const big = typeof x === 'bigint' ? x : Number.isInteger(x) ? BigInt(x) : null;
      if (big === null || big < BigInt(range[0]) || big > BigInt(range[1])) {
        throw new RangeError(`${String(x)} is not a valid ${scalar} (range ${range[0]}..${range[1]})`);
      }
    }
    info.write(view, i * info.size, x);
  });
  return bytes;
}

/** A __local memory argument of `size` bytes. */
export class LocalMemory {
  constructor(readonly size: number) {
    if (!Number.isSafeInteger(size) || size < 1) throw new RangeError('local memory size must be a positive integer');
  }
}
export function localMemory(size: number): LocalMemory {
  return new LocalMemory(size);
}

export type KernelArg = MemObject | Sampler | LocalMemory | ArrayBufferView | null;

export interface WorkGroupInfo {
  workGroupSize: number;
  compileWorkGroupSize: number[];
  localMemSize: bigint;
  preferredWorkGroupSizeMultiple: number;
  privateMemSize: bigint;
}

export interface KernelArgInfo {
  name: string;
  typeName: string;
  addressQualifier: number;
  accessQualifier: number;
}

export class Kernel extends Resource<NativeKernel> {
  readonly program: Program;
  /** Objects set as arguments, kept alive and checked at each enqueue. */
  readonly #objectArgs = new Map<number, MemObject | Sampler>();
  #numArgs?: number;

  /** @internal */
  constructor(native: NativeKernel, program: Program) {
    super(native);
    this.program = program;
  }

  get kind(): string {
    return 'Kernel';
  }

  info(param: number): Uint8Array {
    return this.native.info(param);
  }
  get name(): string {
    return decode.string(this.native.info(CL.CL_KERNEL_FUNCTION_NAME));
  }
  get numArgs(): number {
    return (this.#numArgs ??= decode.uint(this.native.info(CL.CL_KERNEL_NUM_ARGS)));
  }

  /**
   * Sets argument `index`. Buffers, images, samplers, `localMemory(bytes)` and
   * null (a NULL buffer) need no type; numbers and vectors need their OpenCL C
   * type ('int', 'float4', ...); a typed array without a type is passed as raw bytes.
   */
  setArg(index: number, value: KernelArg | number | bigint | readonly (number | bigint)[], type?: ArgType): this {
    if (!Number.isInteger(index) || index < 0 || index >= this.numArgs) {
      throw new RangeError(`argument index ${index} is out of range: ${this.name} takes ${this.numArgs} argument(s)`);
    }
    const native = this.native;
    if ((value instanceof MemObject || value instanceof Sampler) && value.context !== this.program.context) {
      throw contextMismatch('clSetKernelArg', `argument ${index} (${value.kind})`);
    }
    if (value instanceof MemObject) {
      native.setArgMem(index, value.native);
      this.#objectArgs.set(index, value);
      return this;
    }
    this.#objectArgs.delete(index);
    if (value === null) native.setArgMem(index, null);
    else if (value instanceof Sampler) {
      native.setArgSampler(index, value.native);
      this.#objectArgs.set(index, value);
    } else if (value instanceof LocalMemory) native.setArgLocal(index, value.size);
    else if (type !== undefined) native.setArg(index, packArg(type, value as number | bigint | (number | bigint)[]));
    else if (ArrayBuffer.isView(value)) native.setArg(index, value);
    else if (typeof value === 'number' || typeof value === 'bigint' || Array.isArray(value)) {
      throw new TypeError(`argument ${index}: give the OpenCL C type of a number, e.g. setArg(${index}, value, 'float')`);
    } else throw new TypeError(`argument ${index}: unsupported value ${String(value)}`);
    return this;
  }

  /** Sets arguments 0..n-1 in order; a number/vector is given as [type, value]. */
  setArgs(...args: (KernelArg | [ArgType, number | bigint | readonly (number | bigint)[]])[]): this {
    args.forEach((arg, i) => {
      if (Array.isArray(arg) && typeof arg[0] === 'string') this.setArg(i, arg[1], arg[0]);
      else this.setArg(i, arg as KernelArg);
    });
    return this;
  }

  /** @internal Throws if an object argument was released or may not be used now. */
  checkArgsForEnqueue(call: string): void {
    for (const [index, arg] of this.#objectArgs) {
      if (arg.released) throw new OpenCLReleasedError(`${arg.kind} (kernel argument ${index})`);
      if (arg instanceof MemObject) arg.checkCommandUse(`kernel argument ${index}`, call);
    }
  }

  workGroupInfo(device: Device = this.program.context.devices[0]!): WorkGroupInfo {
    this.program.checkDevice(device, 'clGetKernelWorkGroupInfo');
    const read = (param: number) => this.native.workGroupInfo(device.native, param);
    return {
      workGroupSize: decode.size(read(CL.CL_KERNEL_WORK_GROUP_SIZE)),
      compileWorkGroupSize: decode.sizes(read(CL.CL_KERNEL_COMPILE_WORK_GROUP_SIZE)),
      localMemSize: decode.ulong(read(CL.CL_KERNEL_LOCAL_MEM_SIZE)),
      preferredWorkGroupSizeMultiple: decode.size(read(CL.CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE)),
      privateMemSize: decode.ulong(read(CL.CL_KERNEL_PRIVATE_MEM_SIZE)),
    };
  }

  /** Argument metadata (needs '-cl-kernel-arg-info' on some drivers). */
  argInfo(index: number): KernelArgInfo {
    const read = (param: number) => this.native.argInfo(index, param);
    return {
      name: decode.string(read(CL.CL_KERNEL_ARG_NAME)),
      typeName: decode.string(read(CL.CL_KERNEL_ARG_TYPE_NAME)),
      addressQualifier: decode.uint(read(CL.CL_KERNEL_ARG_ADDRESS_QUALIFIER)),
      accessQualifier: decode.uint(read(CL.CL_KERNEL_ARG_ACCESS_QUALIFIER)),
    };
  }
}
