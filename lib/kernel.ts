// Kernels: arguments (typed packing of scalars, vectors, memory objects,
// samplers, local memory), the values each command captures at enqueue, and
// the kernel's and its work-group's info.
import type { NativeKernel } from './addon';
import { CL } from './facts/cl-constants';
import type { Device } from './device';
import { OpenCLReleasedError, contextMismatch, describeValue, OpenCLError } from './errors';
import { decode } from './info';
import { CLBuffer, CLImage, MemObject } from './memory';
import type { ProgramLink } from './links';
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

const parsedTypes = new Map<string, { scalar: ScalarType; width: number }>();
// A loop sets the same type again and again: the last one is kept aside (no Map lookup).
let lastType: string | undefined;
let lastParsed: { scalar: ScalarType; width: number } | undefined;

/** Parses 'float4' into { scalar: 'float', width: 4 }. */
function parseType(type: string): { scalar: ScalarType; width: number } {
  if (type === lastType) return lastParsed!;
  let parsed = parsedTypes.get(type);
  if (!parsed) {
    parsed = parseTypeUncached(type);
    parsedTypes.set(type, parsed);
  }
  lastType = type;
  lastParsed = parsed;
  return parsed;
}

function parseTypeUncached(type: string): { scalar: ScalarType; width: number } {
  if (typeof type !== 'string') throw new TypeError(`a kernel argument type must be a string such as 'float'; got ${describeValue(type)}`);
  const match = /^([a-z]+?)(2|3|4|8|16)?$/.exec(type);
  if (!match || !(match[1]! in scalars)) {
    throw new TypeError(`unknown kernel argument type '${type}' (use e.g. 'int', 'float4', 'uchar16')`);
  }
  return { scalar: match[1] as ScalarType, width: match[2] ? Number(match[2]) : 1 };
}

/** The widest argument value: a 16-vector of 8-byte scalars. A kernel's argument store holds this much per argument. */
const argBytesEach = 16 * 8;

/** Packs a value as the bytes of an OpenCL C scalar or vector (3-vectors take the room of 4). */
export function packArg(type: ArgType, value: number | bigint | readonly (number | bigint)[]): Uint8Array {
  const bytes = new Uint8Array(argBytesEach);
  const length = packInto(new DataView(bytes.buffer), 0, type, value);
  return bytes.slice(0, length);
}

/** Writes the value's bytes at `at` in `view` (room for argBytesEach bytes); returns their count. */
function packInto(view: DataView, at: number, type: ArgType, value: number | bigint | readonly (number | bigint)[]): number {
  const { scalar, width } = parseType(type);
  const info = scalars[scalar];
  if (width === 1 && typeof value === 'number' && !info.integer) {
    // The common case, one float/double/half: nothing to zero, no range.
    info.write(view, at, value);
    return info.size;
  }
  // Elements are read (getters run) before anything is written: a getter that sets another argument cannot interleave.
  const items: readonly unknown[] | undefined = Array.isArray(value) ? Array.from(value as readonly unknown[]) : undefined;
  const count = items ? items.length : 1;
  if (count !== width) {
    throw new TypeError(`a ${type} takes ${width === 1 ? 'one number' : `${width} numbers`}; got ${count}`);
  }
  const slots = width === 3 ? 4 : width;
  for (let i = 0; i < slots * info.size; i++) view.setUint8(at + i, 0);
  for (let i = 0; i < count; i++) {
    const x: unknown = items ? items[i] : value;
    if (typeof x !== 'number' && typeof x !== 'bigint') throw new TypeError(`${type} element ${i} must be a number or bigint`);
    if (info.integer) {
      const range = integerRanges[scalar]!;
      const valid =
        typeof x === 'number'
          ? Number.isSafeInteger(x) && x >= Number(range[0]) && x <= Number(range[1])
          : x >= BigInt(range[0]) && x <= BigInt(range[1]);
      if (!valid) {
        if (typeof x === 'number' && Number.isInteger(x) && !Number.isSafeInteger(x) && x >= Number(range[0]) && x <= Number(range[1])) {
          throw new RangeError(
            `${String(x)} is not a safe integer (beyond 2^53 a number has already lost its low bits), so it cannot be passed exactly as a ${scalar}: pass it as a bigint (e.g. ${BigInt(x)}n)`,
          );
        }
        throw new RangeError(`${String(x)} is not a valid ${scalar} (range ${range[0]}..${range[1]})`);
      }
    }
    info.write(view, at + i * info.size, x);
  }
  return info.size * slots;
}

/** What an argument set in JS still has to hand the driver (Kernel.pendingArgs; the kinds native/kernel.cc takes). */
const argPending = { none: 0, object: 1, bytes: 2, local: 3 } as const;

/** What a kernel holds for one of its arguments. */
interface ArgState {
  /** Set with setArg (an enqueue refuses a kernel with an argument not set). */
  set: boolean;
  /** The buffer, image or sampler set: kept alive, and checked at each enqueue. */
  object: MemObject | Sampler | null;
  /** Bytes of a localMemory() argument; 0 for other kinds. */
  localBytes: number;
  /** Length of a value packed in the argument store. */
  byteLength: number;
  /** What waits for the next enqueue to reach the driver (argPending.*). */
  pending: number;
  /** The object (or null buffer) the driver holds, to skip setting it again; undefined when that is not one. */
  applied: MemObject | Sampler | null | undefined;
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

export type AddressQualifier = 'global' | 'local' | 'constant' | 'private';
export type AccessQualifier = 'read_only' | 'write_only' | 'read_write' | 'none';
export type TypeQualifier = 'const' | 'restrict' | 'volatile' | 'pipe';

export interface KernelArgInfo {
  name: string;
  typeName: string;
  addressQualifier: AddressQualifier;
  accessQualifier: AccessQualifier;
  typeQualifiers: TypeQualifier[];
}

const addressNames: Record<number, AddressQualifier> = { 0x119b: 'global', 0x119c: 'local', 0x119d: 'constant', 0x119e: 'private' };
const accessNames: Record<number, AccessQualifier> = { 0x11a0: 'read_only', 0x11a1: 'write_only', 0x11a2: 'read_write', 0x11a3: 'none' };
const typeQualifierBits: [TypeQualifier, number][] = [
  ['const', 1],
  ['restrict', 2],
  ['volatile', 4],
  ['pipe', 8],
];

const imageTypes: Record<string, number> = {
  image1d_t: CL.CL_MEM_OBJECT_IMAGE1D,
  image1d_buffer_t: CL.CL_MEM_OBJECT_IMAGE1D_BUFFER,
  image1d_array_t: CL.CL_MEM_OBJECT_IMAGE1D_ARRAY,
  image2d_t: CL.CL_MEM_OBJECT_IMAGE2D,
  image2d_depth_t: CL.CL_MEM_OBJECT_IMAGE2D,
  image2d_array_t: CL.CL_MEM_OBJECT_IMAGE2D_ARRAY,
  image2d_array_depth_t: CL.CL_MEM_OBJECT_IMAGE2D_ARRAY,
  image3d_t: CL.CL_MEM_OBJECT_IMAGE3D,
};
const imageTypeNames = new Map<number, string>();
for (const [name, value] of Object.entries(imageTypes)) if (!imageTypeNames.has(value)) imageTypeNames.set(value, name);

/** What a kernel parameter takes, from its argument info. */
type ParamKind =
  | { kind: 'buffer' }
  | { kind: 'local' }
  | { kind: 'sampler' }
  | { kind: 'image'; memType: number; access: AccessQualifier }
  | { kind: 'value'; size?: number };

interface Param {
  index: number;
  info: KernelArgInfo;
  take: ParamKind;
}

function valueSize(typeName: string, addressBits: number): number | undefined {
  const match = /^(?:unsigned )?([a-z_]+?)(2|3|4|8|16)?$/.exec(typeName.trim());
  if (!match) return undefined;
  const base = match[1]!;
  const width = match[2] ? Number(match[2]) : 1;
  const sizes: Record<string, number> = {
    char: 1,
    uchar: 1,
    short: 2,
    ushort: 2,
    half: 2,
    int: 4,
    uint: 4,
    float: 4,
    long: 8,
    ulong: 8,
    double: 8,
    size_t: addressBits / 8,
    ptrdiff_t: addressBits / 8,
    intptr_t: addressBits / 8,
    uintptr_t: addressBits / 8,
  };
  const size = sizes[base];
  return size === undefined ? undefined : size * (width === 3 ? 4 : width);
}

function paramKind(info: KernelArgInfo, addressBits: number): ParamKind {
  const type = info.typeName.trim();
  const image = /(image[123]d(?:_buffer|_array)?(?:_depth)?_t)/.exec(type);
  if (image && imageTypes[image[1]!] !== undefined) return { kind: 'image', memType: imageTypes[image[1]!]!, access: info.accessQualifier };
  if (type === 'sampler_t') return { kind: 'sampler' };
  if (info.typeQualifiers.includes('pipe')) return { kind: 'buffer' };
  if (type.endsWith('*')) return info.addressQualifier === 'local' ? { kind: 'local' } : { kind: 'buffer' };
  if (info.addressQualifier === 'local') return { kind: 'local' };
  return { kind: 'value', size: valueSize(type, addressBits) };
}

function takes(param: Param): string {
  const { take, info } = param;
  switch (take.kind) {
    case 'buffer':
      return 'a CLBuffer (or null)';
    case 'local':
      return 'localMemory(bytes)';
    case 'sampler':
      return 'a Sampler';
    case 'image':
      return `a CLImage of type ${imageTypeNames.get(take.memType)}${take.access !== 'none' ? ` that kernels may ${take.access === 'read_only' ? 'read' : take.access === 'write_only' ? 'write' : 'read and write'}` : ''}`;
    case 'value':
      return take.size ? `a ${info.typeName} value (${take.size} bytes)` : `a ${info.typeName} value`;
  }
}

export class Kernel extends Resource<NativeKernel> {
  readonly program: ProgramLink;
  /**
   * One record per argument. Values checked here wait for the next enqueue,
   * which hands them to the driver in the same native call as the launch
   * (see pendingArgs); packed values live in #store (argBytesEach bytes per
   * argument, shared with the native kernel).
   */
  #args?: ArgState[];
  /** Indices of the arguments whose `pending` is set. */
  readonly #pending: number[] = [];
  #setCount = 0;
  #localCount = 0;
  #store?: Uint8Array;
  #storeView?: DataView;
  #numArgs?: number;
  #name?: string;
  /** Parameters from the argument info; null when the driver has none (then only the driver checks). */
  #params?: Param[] | null;

  /** @internal */
  constructor(native: NativeKernel, program: ProgramLink) {
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
    return (this.#name ??= decode.string(this.native.info(CL.CL_KERNEL_FUNCTION_NAME)));
  }
  get numArgs(): number {
    return (this.#numArgs ??= decode.uint(this.native.info(CL.CL_KERNEL_NUM_ARGS)));
  }

  #parameters(): Param[] | null {
    if (this.#params !== undefined) return this.#params;
    try {
      const addressBits = this.program.context.devices[0]?.addressBits ?? 64;
      const params: Param[] = [];
      for (let index = 0; index < this.numArgs; index++) {
        const info = this.argInfo(index);
        params.push({ index, info, take: paramKind(info, addressBits) });
      }
      this.#params = params;
    } catch (error) {
      if (!(error instanceof OpenCLError)) throw error;
      this.#params = null;
    }
    return this.#params;
  }

  #describe(index: number): string {
    const param = this.#parameters()?.[index];
    return param
      ? `argument ${index} (${param.info.name}: ${param.info.typeName}) of kernel '${this.name}'`
      : `argument ${index} of kernel '${this.name}'`;
  }

  #mismatch(index: number, given: string): TypeError {
    const param = this.#parameters()?.[index];
    return new TypeError(`${this.#describe(index)} takes ${param ? takes(param) : 'another kind of value'}; got ${given}`);
  }

  // Checked against the kernel's argument info before the driver sees the
  // value: a driver given the wrong kind of value may crash (PoCL reads a
  // byte array as a cl_mem, a sampler as a buffer).
  #checkKind(index: number, value: unknown, type: ArgType | undefined, bytes?: number): void {
    const param = this.#parameters()?.[index];
    if (!param) return;
    const take = param.take;
    switch (take.kind) {
      case 'buffer':
        if (value !== null && !(value instanceof CLBuffer)) throw this.#mismatch(index, describeValue(value));
        return;
      case 'local':
        if (!(value instanceof LocalMemory)) throw this.#mismatch(index, describeValue(value));
        return;
      case 'sampler':
        if (!(value instanceof Sampler)) throw this.#mismatch(index, describeValue(value));
        return;
      case 'image': {
        if (!(value instanceof CLImage)) throw this.#mismatch(index, describeValue(value));
        const memType = value.type;
        if (memType !== take.memType) throw this.#mismatch(index, `a CLImage of type ${imageTypeNames.get(memType) ?? memType}`);
        const flags = value.flags;
        if (take.access === 'read_only' && flags & BigInt(CL.CL_MEM_WRITE_ONLY)) {
          throw this.#mismatch(index, "an image created with access 'write'");
        }
        if (take.access === 'write_only' && flags & BigInt(CL.CL_MEM_READ_ONLY)) {
          throw this.#mismatch(index, "an image created with access 'read'");
        }
        return;
      }
      case 'value':
        if (value === null || value instanceof MemObject || value instanceof Sampler || value instanceof LocalMemory) {
          throw this.#mismatch(index, describeValue(value));
        }
        if (take.size !== undefined && bytes !== undefined && bytes !== take.size) {
          throw this.#mismatch(index, `${bytes} bytes${type ? ` (a ${type})` : ''}`);
        }
        return;
    }
  }

  /**
   * Sets argument `index`. Buffers, images, samplers, `localMemory(bytes)` and
   * null (a NULL buffer) need no type; numbers and vectors need their OpenCL C
   * type ('int', 'float4', ...); a typed array without a type is passed as raw
   * bytes. Where the driver gives argument info (programs built from source),
   * the value is checked against the parameter first.
   */
  setArg(index: number, value: KernelArg | number | bigint | readonly (number | bigint)[], type?: ArgType): this {
    if (typeof index !== 'number') throw new TypeError(`argument index must be a number; got ${describeValue(index)}`);
    if (!Number.isInteger(index) || index < 0 || index >= this.numArgs) {
      throw new RangeError(`argument index ${index} is out of range: ${this.name} takes ${this.numArgs} argument(s)`);
    }
    const native = this.native;
    const object = typeof value === 'object' && value !== null && (value instanceof MemObject || value instanceof Sampler);
    if (object && value.context !== this.program.context) {
      throw contextMismatch('clSetKernelArg', `argument ${index} (${value.kind})`);
    }
    if (object && value.released) {
      throw new OpenCLReleasedError(`${value.kind} (${this.#describe(index)})`);
    }
    // Checked values wait for the enqueue; without argument info the driver
    // is the only judge, so the value goes to it now. The record changes only
    // after the driver took the value: when it refuses, it still holds the
    // previous object, which must stay alive.
    const deferred = this.#parameters() !== null;
    const arg = (this.#args ??= Array.from({ length: this.numArgs }, () => ({
      set: false,
      object: null,
      localBytes: 0,
      byteLength: 0,
      pending: argPending.none,
      applied: undefined,
    })))[index]!;
    if (object || value === null) {
      if (deferred && arg.applied === value && arg.pending === argPending.none) return this;
      this.#checkKind(index, value, type);
      if (!deferred) {
        if (value instanceof Sampler) native.setArgSampler(index, value.native);
        else native.setArgMem(index, value === null ? null : value.native);
      }
      this.#record(index, arg, value, 0, deferred ? argPending.object : argPending.none);
      if (!deferred) arg.applied = value;
    } else if (value instanceof LocalMemory) {
      this.#checkKind(index, value, type);
      if (!deferred) native.setArgLocal(index, value.size);
      this.#record(index, arg, null, value.size, deferred ? argPending.local : argPending.none);
    } else if (type !== undefined) {
      const view = this.#argStore();
      const length = packInto(view, index * argBytesEach, type, value as number | bigint | (number | bigint)[]);
      this.#checkKind(index, value, type, length);
      arg.byteLength = length;
      if (!deferred) native.setArgBytes(index, length);
      this.#record(index, arg, null, 0, deferred ? argPending.bytes : argPending.none);
    } else if (ArrayBuffer.isView(value)) {
      this.#checkKind(index, value, undefined, value.byteLength);
      const length = value.byteLength;
      if (deferred && length >= 1 && length <= argBytesEach) {
        this.#argStore();
        this.#store!.set(new Uint8Array(value.buffer, value.byteOffset, length), index * argBytesEach);
        arg.byteLength = length;
        this.#record(index, arg, null, 0, argPending.bytes);
      } else {
        native.setArg(index, value);
        this.#record(index, arg, null, 0, argPending.none);
      }
    } else if (typeof value === 'number' || typeof value === 'bigint' || Array.isArray(value)) {
      throw new TypeError(`${this.#describe(index)}: give the OpenCL C type of a number, e.g. setArg(${index}, value, 'float')`);
    } else throw new TypeError(`${this.#describe(index)}: unsupported value ${describeValue(value)}`);
    return this;
  }

  #argStore(): DataView {
    if (this.#store?.byteLength === 0) {
      throw new TypeError(
        "the kernel's argument store was detached (transferred away through kernel.native): this kernel takes no more values; create another",
      );
    }
    if (!this.#storeView) {
      // Made by the addon (never memory a script could hand it), argBytesEach bytes per argument.
      this.#store = this.native.argStore();
      this.#storeView = new DataView(this.#store.buffer, this.#store.byteOffset, this.#store.byteLength);
    }
    return this.#storeView;
  }

  #record(index: number, arg: ArgState, object: MemObject | Sampler | null, localBytes: number, pending: number): void {
    arg.object = object;
    if ((arg.localBytes !== 0) !== (localBytes !== 0)) this.#localCount += localBytes !== 0 ? 1 : -1;
    arg.localBytes = localBytes;
    if (!arg.set) {
      arg.set = true;
      this.#setCount++;
    }
    if (arg.pending === argPending.none && pending !== argPending.none) this.#pending.push(index);
    if (arg.pending !== argPending.none && pending === argPending.none) this.#pending.splice(this.#pending.indexOf(index), 1);
    arg.pending = pending;
    arg.applied = undefined;
  }

  /**
   * @internal Writes the arguments waiting for the driver into `ops`
   * ([count, (index, kind, value) x count], the layout native/kernel.cc reads;
   * objects by slot). More than fit go to the driver now, one call each.
   */
  pendingArgs(ops: Float64Array): void {
    const pending = this.#pending;
    if (pending.length > (ops.length - 1) / 3) {
      this.applyPendingNow();
      ops[0] = 0;
      return;
    }
    const args = this.#args!;
    for (let i = 0; i < pending.length; i++) {
      const index = pending[i]!;
      const arg = args[index]!;
      const kind = arg.pending;
      ops[1 + 3 * i] = index;
      ops[2 + 3 * i] = kind;
      ops[3 + 3 * i] = kind === argPending.object ? (arg.object?.slot ?? -1) : kind === argPending.bytes ? arg.byteLength : arg.localBytes;
    }
    ops[0] = pending.length;
  }

  /** @internal The enqueue handed the pending arguments to the driver. */
  pendingArgsApplied(): void {
    const pending = this.#pending;
    while (pending.length) {
      const arg = this.#args![pending.pop()!]!;
      if (arg.pending === argPending.object) arg.applied = arg.object;
      arg.pending = argPending.none;
    }
  }

  /** @internal Hands the pending arguments to the driver one call each: its refusal names the argument. */
  applyPendingNow(): void {
    const native = this.native;
    for (const index of [...this.#pending]) {
      const arg = this.#args![index]!;
      const object = arg.object;
      try {
        if (arg.pending === argPending.object) {
          if (object instanceof Sampler) native.setArgSampler(index, object.native);
          else native.setArgMem(index, object === null ? null : object.native);
        } else if (arg.pending === argPending.bytes) native.setArgBytes(index, arg.byteLength);
        else native.setArgLocal(index, arg.localBytes);
      } catch (error) {
        if (error instanceof OpenCLError) {
          throw new OpenCLError(
            error.status,
            'clSetKernelArg',
            `${this.#describe(index)}, set with setArg() and handed to the driver by this enqueue`,
          );
        }
        throw error;
      }
      if (arg.pending === argPending.object) arg.applied = object;
      arg.pending = argPending.none;
      this.#pending.splice(this.#pending.indexOf(index), 1);
    }
  }

  /** Sets arguments 0..n-1 in order; a number/vector is given as [type, value]. */
  setArgs(...args: (KernelArg | [ArgType, number | bigint | readonly (number | bigint)[]])[]): this {
    args.forEach((arg, i) => {
      if (Array.isArray(arg) && typeof arg[0] === 'string') this.setArg(i, arg[1], arg[0]);
      else this.setArg(i, arg as KernelArg);
    });
    return this;
  }

  /**
   * @internal Throws if an argument is not set, an object argument was
   * released or may not be used now, or the __local memory exceeds the device's.
   */
  checkArgsForEnqueue(call: string, device?: Device): void {
    const args = this.#args;
    if (this.#setCount < this.numArgs) {
      for (let index = 0; index < this.numArgs; index++) {
        if (!args?.[index]?.set) throw new TypeError(`${this.#describe(index)} is not set; set it with setArg(${index}, …) before enqueueing`);
      }
    }
    if (!args) return;
    for (let index = 0; index < args.length; index++) {
      const arg = args[index]!.object;
      if (arg === null) continue;
      if (arg.released) throw new OpenCLReleasedError(`${arg.kind} (kernel argument ${index})`);
      // Only a shared object has more to check (and a message made at every launch would cost a string).
      if (arg instanceof MemObject && arg.sharing) arg.checkCommandUse(`kernel argument ${index}`, call);
    }
    if (device && this.#localCount) {
      let total = 0n;
      for (const arg of args) total += BigInt(arg.localBytes);
      const limit = device.localMemSize;
      const own = this.workGroupInfo(device).localMemSize;
      if (total + own > limit) {
        throw new RangeError(
          `kernel '${this.name}' needs ${total + own} bytes of __local memory (${total} in localMemory() arguments` +
            `${own ? ` + ${own} declared in the kernel` : ''}); ${device.name} has ${limit}`,
        );
      }
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

  /**
   * Argument metadata. Programs built by this binding are built with
   * '-cl-kernel-arg-info' where the driver accepts it, so it is there for them.
   */
  argInfo(index: number): KernelArgInfo {
    if (typeof index !== 'number') throw new TypeError(`argument index must be a number; got ${describeValue(index)}`);
    if (!Number.isInteger(index) || index < 0 || index >= this.numArgs) {
      throw new RangeError(`argument index ${index} is out of range: ${this.name} takes ${this.numArgs} argument(s)`);
    }
    const read = (param: number) => this.native.argInfo(index, param);
    const address = decode.uint(read(CL.CL_KERNEL_ARG_ADDRESS_QUALIFIER));
    const access = decode.uint(read(CL.CL_KERNEL_ARG_ACCESS_QUALIFIER));
    const typeBits = Number(decode.ulong(read(CL.CL_KERNEL_ARG_TYPE_QUALIFIER)));
    return {
      name: decode.string(read(CL.CL_KERNEL_ARG_NAME)),
      typeName: decode.string(read(CL.CL_KERNEL_ARG_TYPE_NAME)),
      addressQualifier: addressNames[address] ?? 'private',
      accessQualifier: accessNames[access] ?? 'none',
      typeQualifiers: typeQualifierBits.filter(([, bit]) => typeBits & bit).map(([name]) => name),
    };
  }
}
