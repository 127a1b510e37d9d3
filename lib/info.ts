// Decoders for the raw bytes that clGet*Info returns. Values are in host
// byte order; size_t and pointers take the width the driver wrote.

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** @internal */
export const decode = {
  string(bytes: Uint8Array): string {
    const end = bytes.indexOf(0);
    return Buffer.from(bytes.subarray(0, end < 0 ? bytes.length : end)).toString('utf8');
  },
  uint(bytes: Uint8Array): number {
    return view(bytes).getUint32(0, littleEndian);
  },
  int(bytes: Uint8Array): number {
    return view(bytes).getInt32(0, littleEndian);
  },
  bool(bytes: Uint8Array): boolean {
    return view(bytes).getUint32(0, littleEndian) !== 0;
  },
  ulong(bytes: Uint8Array): bigint {
    return view(bytes).getBigUint64(0, littleEndian);
  },
  /** size_t: a number (sizes beyond 2^53 do not occur in practice). */
  size(bytes: Uint8Array): number {
    return bytes.length === 4 ? view(bytes).getUint32(0, littleEndian) : Number(view(bytes).getBigUint64(0, littleEndian));
  },
  sizes(bytes: Uint8Array, width = 8): number[] {
    const out: number[] = [];
    for (let i = 0; i + width <= bytes.length; i += width) out.push(decode.size(bytes.subarray(i, i + width)));
    return out;
  },
  pointer(bytes: Uint8Array): bigint {
    return bytes.length === 4 ? BigInt(view(bytes).getUint32(0, littleEndian)) : view(bytes).getBigUint64(0, littleEndian);
  },
  pointers(bytes: Uint8Array, width = 8): bigint[] {
    const out: bigint[] = [];
    for (let i = 0; i + width <= bytes.length; i += width) out.push(decode.pointer(bytes.subarray(i, i + width)));
    return out;
  },
  uints(bytes: Uint8Array): number[] {
    const out: number[] = [];
    for (let i = 0; i + 4 <= bytes.length; i += 4) out.push(view(bytes).getUint32(i, littleEndian));
    return out;
  },
  /** Signed pointer-sized values (cl_context_properties, cl_queue_properties...). */
  intptrs(bytes: Uint8Array): bigint[] {
    const out: bigint[] = [];
    for (let i = 0; i + 8 <= bytes.length; i += 8) out.push(view(bytes).getBigInt64(i, littleEndian));
    return out;
  },
  words(text: string): string[] {
    return text.split(/[\s;]+/).filter(Boolean);
  },
};

/** Parses "OpenCL 3.0 PoCL ..." into { major, minor }. */
export function parseVersion(text: string): { major: number; minor: number } {
  const match = /OpenCL (?:C )?(\d+)\.(\d+)/.exec(text);
  return match ? { major: Number(match[1]), minor: Number(match[2]) } : { major: 1, minor: 0 };
}
