// Token values against their sources: the Khronos headers (Debian
// opencl-c-headers, /usr/include/CL/*.h; CI installs them, so their absence is a
// failure, not a skip), shared/specs/tokens.tsv and the cl_nv_d3d9_sharing spec
// (no Khronos header declares the NV tokens).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CL } from '../lib/facts/cl-constants';
import * as tokensModule from '../lib/facts/sharing-tokens';
import { D3DCUBEMAP_FACES, interopTokenHeaders, interopTokens } from '../lib/facts/sharing-tokens';

const HEADER_DIR = '/usr/include/CL';
// CI runs from a clean clone with shared/ beside the repository.
const SPECS_DIR = resolve(__dirname, '../../shared/specs');
const TOKENS_TSV = join(SPECS_DIR, 'tokens.tsv');
const NV_SPEC = join(SPECS_DIR, 'cl_nv_d3d9_sharing.txt');
const TOKEN_COUNT = 101;
/** The rows of shared/specs/tokens.tsv: the five first extensions (it lists no D3D11 token; those are checked against cl_d3d11.h and the OpenCV header's fixture). */
const TSV_COUNT = 74;

/** name -> value of a fixture in test/fixtures (tab-separated, # comments; values decimal or 0x hex). */
function readFixture(file: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of lines(resolve(__dirname, 'fixtures', file))) {
    if (line === '' || line.startsWith('#')) continue;
    const [name, value] = line.split('\t');
    out[name!] = value!.startsWith('-') ? -Number(value!.slice(1)) : Number(value);
  }
  return out;
}

/** Lines of a text file whatever its line endings (some spec files use CR). */
function lines(path: string): string[] {
  return readFileSync(path, 'utf8').split(/\r\n|\r|\n/);
}

// ---- a small evaluator for the integer #define values of the headers ----

type Defines = Map<string, { expr: string; file: string }[]>;

function tokenize(expr: string): string[] | undefined {
  const out: string[] = [];
  const re = /\s*(0[xX][0-9a-fA-F]+|\d+)[uUlL]*|\s*([A-Za-z_]\w*)|\s*(<<|>>|[()|&+\-~])|\s+$/y;
  let pos = 0;
  while (pos < expr.length) {
    re.lastIndex = pos;
    const m = re.exec(expr);
    if (!m || m[0].length === 0) return undefined; // floats, strings, other operators
    if (m[1] !== undefined) out.push(m[1]);
    else if (m[2] !== undefined) out.push(m[2]);
    else if (m[3] !== undefined) out.push(m[3]);
    pos = re.lastIndex;
  }
  return out;
}

function evaluate(name: string, defines: Defines, seen: Set<string> = new Set()): bigint[] {
  const defs = defines.get(name);
  if (!defs || seen.has(name)) return [];
  const values: bigint[] = [];
  for (const def of defs) {
    const v = evaluateExpr(def.expr, defines, new Set([...seen, name]));
    if (v !== undefined) values.push(v);
  }
  return values;
}

function evaluateExpr(expr: string, defines: Defines, seen: Set<string>): bigint | undefined {
  // Casts such as (cl_int) or (cl_bitfield) change nothing for these values.
  const toks = tokenize(expr.replace(/\(\s*(?:cl_\w+|unsigned\s+int|unsigned|int|long)\s*\)/g, ' '));
  if (!toks || toks.length === 0) return undefined;
  let i = 0;
  const fail = (): never => {
    throw new Error('unparsable');
  };
  const primary = (): bigint => {
    const t = toks[i++] ?? fail();
    if (t === '(') {
      const v = or();
      if (toks[i++] !== ')') fail();
      return v;
    }
    if (/^\d/.test(t)) return BigInt(t);
    if (/^[A-Za-z_]/.test(t)) {
      const vs = evaluate(t, defines, seen);
      return vs.length === 1 ? vs[0]! : fail();
    }
    return fail();
  };
  const unary = (): bigint => {
    if (toks[i] === '-') return (i++, -unary());
    if (toks[i] === '+') return (i++, unary());
    if (toks[i] === '~') return (i++, ~unary());
    return primary();
  };
  const additive = (): bigint => {
    let v = unary();
    while (toks[i] === '+' || toks[i] === '-') v = toks[i++] === '+' ? v + unary() : v - unary();
    return v;
  };
  const shift = (): bigint => {
    let v = additive();
    while (toks[i] === '<<' || toks[i] === '>>') v = toks[i++] === '<<' ? v << additive() : v >> additive();
    return v;
  };
  const and = (): bigint => {
    let v = shift();
    while (toks[i] === '&') i++, (v &= shift());
    return v;
  };
  const or = (): bigint => {
    let v = and();
    while (toks[i] === '|') i++, (v |= and());
    return v;
  };
  try {
    const v = or();
    return i === toks.length ? v : undefined;
  } catch {
    return undefined;
  }
}

interface HeaderValues {
  /** name -> the distinct integer values the headers give it */
  values: Map<string, Set<number>>;
  /** name -> the header files that define it */
  files: Map<string, Set<string>>;
}

function readHeaders(): HeaderValues {
  const defines: Defines = new Map();
  for (const file of readdirSync(HEADER_DIR).filter((f) => f.endsWith('.h'))) {
    const text = readFileSync(join(HEADER_DIR, file), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, ' ')
      .replace(/\/\/.*$/gm, '');
    for (const line of text.split('\n')) {
      const m = /^\s*#\s*define\s+([A-Za-z_]\w*)(?!\()\s+(.+?)\s*$/.exec(line);
      if (!m || m[2]!.endsWith('\\')) continue;
      const list = defines.get(m[1]!) ?? [];
      list.push({ expr: m[2]!, file });
      defines.set(m[1]!, list);
    }
  }
  const values = new Map<string, Set<number>>();
  const files = new Map<string, Set<string>>();
  for (const [name, defs] of defines) {
    const vs = evaluate(name, defines);
    if (vs.length === 0) continue;
    values.set(name, new Set(vs.map((v) => Number(v))));
    files.set(name, new Set(defs.map((d) => d.file)));
  }
  return { values, files };
}

/** Names whose value differs from the headers': "NAME: ours 0x.. / header 0x..". */
function mismatches(ours: Readonly<Record<string, number>>, headers: HeaderValues): { compared: string[]; wrong: string[] } {
  const compared: string[] = [];
  const wrong: string[] = [];
  for (const [name, value] of Object.entries(ours)) {
    const theirs = headers.values.get(name);
    if (!theirs) continue;
    compared.push(name);
    if (theirs.size !== 1 || !theirs.has(value)) {
      wrong.push(`${name}: ours ${value} (0x${value.toString(16)}), headers ${[...theirs].join(' | ')}`);
    }
  }
  return { compared, wrong };
}

function readTsv(): { name: string; value: number; header: string }[] {
  return lines(TOKENS_TSV)
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const [name, value, header] = l.split('\t');
      return { name: name!.trim(), value: Number(value), header: (header ?? '').trim() };
    });
}

const tokenEntries = Object.entries(interopTokens) as [string, number][];
const byHeader = (header: string): Record<string, number> =>
  Object.fromEntries(tokenEntries.filter(([name]) => interopTokenHeaders[name] === header));

describe('Khronos headers are installed (opencl-c-headers)', () => {
  it('has /usr/include/CL/cl.h and the sharing headers (CI installs opencl-c-headers; missing = failure)', () => {
    for (const h of ['cl.h', 'cl_ext.h', 'cl_d3d10.h', 'cl_dx9_media_sharing.h', 'cl_va_api_media_sharing_intel.h', 'cl_d3d11.h']) {
      expect(existsSync(join(HEADER_DIR, h)), `${HEADER_DIR}/${h} is missing: install opencl-c-headers`).toBe(true);
    }
  });
});

describe('tokens against the Khronos headers', () => {
  const headers = existsSync(join(HEADER_DIR, 'cl.h')) ? readHeaders() : undefined;
  const need = (): HeaderValues => {
    if (!headers) throw new Error(`${HEADER_DIR} is missing: install opencl-c-headers`);
    return headers;
  };

  it('the header parser reads known values (CL_SUCCESS, CL_MEM_READ_ONLY = 1 << 2, CL_INVALID_VALUE = -30)', () => {
    const h = need();
    expect(h.values.get('CL_SUCCESS')).toEqual(new Set([0]));
    expect(h.values.get('CL_MEM_READ_ONLY')).toEqual(new Set([4]));
    expect(h.values.get('CL_INVALID_VALUE')).toEqual(new Set([-30]));
    expect(h.values.get('CL_DEVICE_TYPE_ALL')).toEqual(new Set([0xffffffff]));
  });

  const headerCases: [string, string, number][] = [
    ['cl_d3d10.h', 'cl_khr_d3d10_sharing "New Tokens"', 14],
    ['cl_dx9_media_sharing.h', 'cl_khr_dx9_media_sharing and cl_intel_dx9_media_sharing "New Tokens"', 34],
    ['cl_va_api_media_sharing_intel.h', 'cl_intel_va_api_media_sharing "New Tokens"', 12],
    ['cl_d3d11.h', 'cl_khr_d3d11_sharing "New Tokens"', 14],
  ];
  for (const [header, spec, count] of headerCases) {
    it(`tokens: ${header} values (${spec})`, () => {
      const h = need();
      const ours = byHeader(header);
      expect(Object.keys(ours)).toHaveLength(count);
      const { compared, wrong } = mismatches(ours, h);
      expect(wrong).toEqual([]);
      // Every token attributed to this header is defined there (not only elsewhere).
      const notThere = Object.keys(ours).filter((name) => !h.files.get(name)?.has(header));
      expect(notThere).toEqual([]);
      expect(compared.sort()).toEqual(Object.keys(ours).sort());
    });
  }

  it('tokens: cl_nv_d3d9_sharing tokens are in no Khronos header (cl_nv_d3d9_sharing "New Tokens"), or agree if one appears', () => {
    const { wrong } = mismatches(byHeader('cl_nv_d3d9_sharing'), need());
    expect(wrong).toEqual([]);
  });

  it('CL (lib/facts/cl-constants.ts): every entry a header defines has the header value (OpenCL 3.0 API spec / cl.h)', () => {
    const h = need();
    const { compared, wrong } = mismatches(CL, h);
    expect(wrong).toEqual([]);
    // Most of CL is core: the check must actually compare something.
    expect(compared.length).toBeGreaterThan(Object.keys(CL).length * 0.9);
  });

  it('CL has the interop user-sync tokens (cl_khr_d3d10_sharing / cl_intel_va_api_media_sharing: CL_CONTEXT_INTEROP_USER_SYNC)', () => {
    const h = need();
    expect(CL.CL_CONTEXT_INTEROP_USER_SYNC).toBe(0x1085);
    expect(CL.CL_DEVICE_PREFERRED_INTEROP_USER_SYNC).toBe(0x1048);
    expect(h.values.get('CL_CONTEXT_INTEROP_USER_SYNC')).toEqual(new Set([0x1085]));
    expect(h.values.get('CL_DEVICE_PREFERRED_INTEROP_USER_SYNC')).toEqual(new Set([0x1048]));
  });
});

describe('lib/facts/sharing-tokens.ts against shared/specs/tokens.tsv', () => {
  it(`tokens: all ${TSV_COUNT} rows of tokens.tsv, same values and headers (the five extensions' "New Tokens")`, () => {
    if (!existsSync(TOKENS_TSV)) {
      // Clean clone without shared/ beside it: the count is all we can check.
      expect(tokenEntries).toHaveLength(TOKEN_COUNT);
      return;
    }
    const rows = readTsv();
    expect(rows).toHaveLength(TSV_COUNT);
    const wrong = rows
      .filter((r) => (interopTokens as Record<string, number>)[r.name] !== r.value || interopTokenHeaders[r.name] !== r.header)
      .map((r) => `${r.name}: tsv ${r.value} ${r.header}, ours ${(interopTokens as Record<string, number>)[r.name]} ${interopTokenHeaders[r.name]}`);
    expect(wrong).toEqual([]);
    expect(tokenEntries).toHaveLength(TOKEN_COUNT);
  });

  it('tokens: cl_nv_d3d11_sharing values against test/fixtures/cl_nv_d3d11_sharing.tokens.tsv (OpenCV 3rdparty/include/opencl/1.2/CL/cl_d3d11_ext.h)', () => {
    const fixture = readFixture('cl_nv_d3d11_sharing.tokens.tsv');
    expect(Object.keys(fixture)).toHaveLength(13);
    expect(byHeader('cl_d3d11_ext.h (OpenCV)')).toEqual(fixture);
    // The same values as the KHR extension, name for name.
    for (const [name, value] of Object.entries(fixture)) expect(byHeader('cl_d3d11.h')[name.replace(/_NV$/, '_KHR')]).toBe(value);
  });

  it('tokens: NV values against the in-repository fixture test/fixtures/cl_nv_d3d9_sharing.tokens.tsv (cl_nv_d3d9_sharing "New Tokens")', () => {
    const fixture = readFixture('cl_nv_d3d9_sharing.tokens.tsv');
    expect(Object.keys(fixture)).toHaveLength(14);
    expect(byHeader('cl_nv_d3d9_sharing')).toEqual(fixture);
  });

  it('tokens: NV values against tokens.tsv and the cl_nv_d3d9_sharing spec "New Tokens" section', () => {
    const nv = byHeader('cl_nv_d3d9_sharing');
    expect(Object.keys(nv)).toHaveLength(14);
    if (existsSync(TOKENS_TSV)) {
      const tsv = Object.fromEntries(
        readTsv()
          .filter((r) => r.header === 'cl_nv_d3d9_sharing')
          .map((r) => [r.name, r.value]),
      );
      expect(nv).toEqual(tsv);
    }
    if (existsSync(NV_SPEC)) {
      const text = lines(NV_SPEC);
      const start = text.findIndex((l) => l.trim() === 'New Tokens');
      const end = text.findIndex((l, i) => i > start && /^Additions to Chapter/.test(l));
      expect(start).toBeGreaterThan(0);
      const spec: Record<string, number> = {};
      for (const l of text.slice(start, end)) {
        const m = /^\s+(CL_\w+_NV)\s+(-?(?:0x[0-9A-Fa-f]+|\d+))\s*$/.exec(l);
        if (m) spec[m[1]!] = Number(m[2]!.startsWith('-') ? -Number(m[2]!.slice(1)) : m[2]);
      }
      expect(nv).toEqual(spec);
    }
  });

  it('sharing-tokens.ts: every exported CL_* constant is in interopTokens with the same value, and none clashes with CL', () => {
    const exported = Object.entries(tokensModule).filter(([name]) => name.startsWith('CL_')) as [string, number][];
    expect(Object.fromEntries(exported)).toEqual({ ...interopTokens });
    expect(Object.isFrozen(interopTokens)).toBe(true);
    // lib/index.ts re-exports CL; the interop tokens must not reuse its names.
    expect(exported.map(([name]) => name).filter((name) => name in CL)).toEqual([]);
    expect('CL_CONTEXT_INTEROP_USER_SYNC' in tokensModule).toBe(false);
    expect('CL_DEVICE_PREFERRED_INTEROP_USER_SYNC' in tokensModule).toBe(false);
  });

  it('tokens: value collisions across extensions are as the specs give them (NV D3D9 vs Intel DX9 vs KHR DX9 media)', () => {
    expect(tokensModule.CL_D3D9_DEVICE_NV).toBe(tokensModule.CL_D3D9_DEVICE_INTEL);
    expect(tokensModule.CL_CONTEXT_D3D9_DEVICE_NV).toBe(tokensModule.CL_CONTEXT_D3D9_DEVICE_INTEL);
    expect(tokensModule.CL_COMMAND_ACQUIRE_D3D9_OBJECTS_NV).toBe(tokensModule.CL_COMMAND_ACQUIRE_DX9_OBJECTS_INTEL);
    expect([tokensModule.CL_INVALID_D3D9_DEVICE_NV, tokensModule.CL_INVALID_DX9_DEVICE_INTEL, tokensModule.CL_INVALID_DX9_MEDIA_ADAPTER_KHR]).toEqual(
      [-1010, -1010, -1010],
    );
    expect(tokensModule.CL_IMAGE_D3D9_FACE_NV).toBe(0x4028);
    expect(tokensModule.CL_IMAGE_D3D9_LEVEL_NV).toBe(0x4029);
  });

  it('D3DCUBEMAP_FACES (cl_nv_d3d9_sharing §9.13.4 clCreateFromD3D9CubeTextureNV <facetype>; values of d3d9types.h)', () => {
    expect(D3DCUBEMAP_FACES).toEqual({
      D3DCUBEMAP_FACE_POSITIVE_X: 0,
      D3DCUBEMAP_FACE_NEGATIVE_X: 1,
      D3DCUBEMAP_FACE_POSITIVE_Y: 2,
      D3DCUBEMAP_FACE_NEGATIVE_Y: 3,
      D3DCUBEMAP_FACE_POSITIVE_Z: 4,
      D3DCUBEMAP_FACE_NEGATIVE_Z: 5,
    });
    expect(tokensModule.D3DCUBEMAP_FACE_NEGATIVE_Z).toBe(5);
  });
});
