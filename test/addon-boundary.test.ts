// The boundary between lib/ and the addon: what the built addon exports is
// what lib/addon.ts and the areas' native-types.ts declare (the Addon
// interface, completed by each area; read with the TypeScript compiler), and
// each native call's name is written once at its call site.
//
// Arity: a function made by Napi::Function::New reports length 0, so the
// addon itself cannot say how many arguments a function takes. What is
// knowable is how many the native body reads: the highest info[i] it uses.
// Where the body hands `info` on to a helper (InfoBytes, AcquireOrRelease...)
// that count is only a lower bound; elsewhere it must equal the declaration's
// parameter count. Classes that are not exported (NativeVaDisplay,
// NativeComObject) are reached through instances only and are not compared here.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { createContext, getExternalMemory } from '../lib';
import type { NativeExternalMemory } from '../lib/interop/native-types';
import { nativeAddon } from '../lib/native-addon';
import { CL } from '../lib/facts/cl-constants';
import { repoRoot, runProcess } from './helpers';
import { requireSoftva, softvaEnv, startXvfb } from './helpers/va';

interface Declared {
  /** Parameter count of a method; null for a property (an accessor, or a class constructor). */
  params: number | null;
  /** The member's type, as written. */
  type: string;
  optional: boolean;
}

/** lib/addon.ts (the core's side) and each area's native-types.ts, which completes Addon (`declare module '../addon'`). */
const libRoot = resolve(repoRoot, 'lib');
const boundaryFiles = [
  resolve(libRoot, 'addon.ts'),
  ...readdirSync(libRoot, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(libRoot, entry.name, 'native-types.ts'))
    .filter((file) => existsSync(file)),
];
/** Every declaration of each interface, over all the boundary files (an augmentation's merged in). */
const interfaces = new Map<string, { node: ts.InterfaceDeclaration; source: ts.SourceFile }[]>();
for (const file of boundaryFiles) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node) => {
    if (ts.isInterfaceDeclaration(node)) interfaces.set(node.name.text, [...(interfaces.get(node.name.text) ?? []), { node, source }]);
    else if (ts.isModuleDeclaration(node) || ts.isModuleBlock(node)) node.forEachChild(visit);
  };
  source.forEachChild(visit);
}

/** The members of an interface of the boundary files, those of the interfaces it extends included. */
function membersOf(interfaceName: string): Map<string, Declared> {
  const declarations = interfaces.get(interfaceName);
  if (!declarations) throw new Error(`no boundary file (lib/addon.ts, lib/*/native-types.ts) declares an interface ${interfaceName}`);
  const members = new Map<string, Declared>();
  for (const { node: declaration, source } of declarations) {
    for (const clause of declaration.heritageClauses ?? []) {
      for (const base of clause.types) for (const [key, value] of membersOf(base.expression.getText(source))) members.set(key, value);
    }
    for (const member of declaration.members) {
      if (!member.name) continue;
      const key = member.name.getText(source);
      if (ts.isMethodSignature(member)) {
        members.set(key, { params: member.parameters.length, type: '', optional: !!member.questionToken });
      } else if (ts.isPropertySignature(member)) {
        members.set(key, { params: null, type: member.type?.getText(source) ?? '', optional: !!member.questionToken });
      }
    }
  }
  return members;
}

const addon = require(resolve(repoRoot, 'build/Release/opencl_interop.node')) as Record<string, unknown>;
const declared = membersOf('Addon');

const isClass = (value: unknown): value is new (...args: never[]) => unknown =>
  typeof value === 'function' &&
  Object.getOwnPropertyNames(value.prototype ?? {}).includes('constructor') &&
  Object.getOwnPropertyNames(value.prototype).length > 1;

/** The class an Addon member declares (SharingConstructor<NativeX> or new (...) => NativeX -> NativeX), or null for a function. */
function declaredClass(member: Declared): string | null {
  return (/^SharingConstructor<(\w+)>$/.exec(member.type) ?? /^new\s*\([\s\S]*\)\s*=>\s*(\w+)$/.exec(member.type))?.[1] ?? null;
}

// ---- native sources: which C++ function each JS name calls, and what it reads
const nativeRoot = resolve(repoRoot, 'native');
const nativeFiles = (function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? walk(path) : /\.(cc|h)$/.test(entry.name) ? [path] : [];
  });
})(nativeRoot);
const nativeText = new Map(nativeFiles.map((file) => [file, readFileSync(file, 'utf8')]));

/** A C++ function that a JS name calls, and the file that registers it (where its body is looked for first). */
interface Registration {
  cxx: string;
  file: string;
}

/**
 * Exported name -> C++ functions, from the registration tables ({"name", Fn}, Function::New(env, Fn, "name")).
 * Methods (InstanceMethod("name", &Class::Fn)) are not exports: many classes share a method name
 * (createBuffer, info, ...); they are compared by their class, below.
 */
function registrations(): Map<string, Registration[]> {
  const found = new Map<string, Registration[]>();
  const add = (jsName: string, cxx: string, file: string) =>
    found.set(jsName, [...(found.get(jsName) ?? []), { cxx: cxx.replace(/<[^>]*>$/, ''), file }]);
  for (const [file, text] of nativeText) {
    for (const match of text.matchAll(/\{"(\w+)",\s*([\w:]+(?:<[^>]*>)?)\}/g)) add(match[1]!, match[2]!, file);
    for (const match of text.matchAll(/Function::New\(env,\s*([\w:]+(?:<[^>]*>)?),\s*"(\w+)"\)/g)) add(match[2]!, match[1]!, file);
  }
  return found;
}
const registered = registrations();

function bodyAt(text: string, pattern: RegExp): string | null {
  const match = pattern.exec(text);
  if (!match) return null;
  let depth = 1;
  let i = match.index + match[0].length;
  for (; i < text.length && depth > 0; i++) depth += text[i] === '{' ? 1 : text[i] === '}' ? -1 : 0;
  return text.slice(match.index + match[0].length, i - 1);
}

/** The body of a registered C++ function: Class::Method anywhere, else a function or in-class method of that name in the registering file. */
function bodyOf({ cxx, file }: Registration): string | null {
  const method = cxx.split('::').pop()!;
  const owner = cxx.includes('::') ? cxx.split('::').slice(-2, -1)[0]! : null;
  if (owner) {
    const qualified = new RegExp(`\\b${owner}::${method}\\(const Napi::CallbackInfo& info\\)[^{;]*\\{`);
    for (const text of nativeText.values()) {
      const body = bodyAt(text, qualified);
      if (body !== null) return body;
    }
  }
  return bodyAt(nativeText.get(file)!, new RegExp(`^\\s*(?:static\\s+)?Napi::Value\\s+${method}\\(const Napi::CallbackInfo& info\\)[^{;]*\\{`, 'm'));
}

/** What a native body reads: exactly (it reads info[] itself only) or at least (it hands `info` on). */
function readsOf(body: string): { count: number; exact: boolean } {
  const indices = [...body.matchAll(/\binfo\[(\d+)\]/g)].map((match) => Number(match[1]));
  const handsOn = /\binfo\b(?!\s*\[|\.Env\(\)|\.This\(\)|\.Length\(\))/.test(body);
  return { count: indices.length ? Math.max(...indices) + 1 : 0, exact: !handsOn };
}

/** The arguments the one native function registered as `jsName` reads (null: not one function, or no body found). */
function nativeReads(jsName: string): { count: number; exact: boolean } | null {
  const functions = registered.get(jsName);
  if (functions?.length !== 1) return null;
  const body = bodyOf(functions[0]!);
  return body === null ? null : readsOf(body);
}

function arityMismatches(jsName: string, params: number, where: string): string[] {
  const reads = nativeReads(jsName);
  if (!reads) return [];
  if (reads.exact ? reads.count !== params : reads.count > params) {
    return [`${where}: the boundary declares ${params} parameter(s), the native function reads ${reads.exact ? '' : 'at least '}${reads.count}`];
  }
  return [];
}

describe('the addon boundary: the built addon against lib/addon.ts and every lib/*/native-types.ts', () => {
  it('reads the declarations and the registrations (the parsers see known members)', () => {
    expect(declared.get('enqueueReadBuffer')?.params).toBe(7);
    expect(declared.get('NativeD3D11Sharing')?.type).toBe('SharingConstructor<NativeD3D11Sharing>');
    expect(declaredClass(declared.get('NativeExternalMemory')!)).toBe('NativeExternalMemory');
    expect(membersOf('NativeQueue').get('release')?.params).toBe(0);
    expect(registered.get('enqueueNDRange')?.map(({ cxx }) => cxx)).toEqual(['EnqueueNDRange']);
    expect(nativeReads('createBuffer')).toEqual({ count: 4, exact: true });
    expect(nativeReads('info')).toBeNull(); // a method of many classes, not an export
  });

  it('every function and class the boundary declares is exported, as a function or as a class', () => {
    const problems: string[] = [];
    for (const [key, member] of declared) {
      const value = addon[key];
      if (key === 'direct3d') {
        // Windows builds only (test/windows/ checks it there).
        if (process.platform !== 'win32' && value !== undefined) problems.push('direct3d: exported outside Windows');
        continue;
      }
      if (value === undefined) {
        if (!member.optional) problems.push(`${key}: declared, not exported`);
        continue;
      }
      const className = declaredClass(member);
      if (className) {
        if (!isClass(value)) problems.push(`${key}: declared a class, exported ${typeof value}`);
      } else if (member.params === null || typeof value !== 'function') {
        problems.push(`${key}: declared ${member.params === null ? `property ${member.type}` : 'a function'}, exported ${typeof value}`);
      } else if (isClass(value)) {
        problems.push(`${key}: declared a function, exported a class`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('every export is declared: in the Addon interface, or as the interface of its instances (NativeQueue, ...)', () => {
    const undeclared = Object.keys(addon).filter((key) => !declared.has(key) && !interfaces.has(key));
    expect(undeclared).toEqual([]);
  });

  it('every exported class has the prototype methods and accessors its interface declares, and no others', () => {
    const problems: string[] = [];
    const classes = Object.entries(addon).filter(([, value]) => isClass(value));
    expect(classes.map(([key]) => key)).toEqual(expect.arrayContaining(['NativeQueue', 'NativeHostBlock', 'NativeD3D11Sharing']));
    for (const [key, value] of classes) {
      const interfaceName = declaredClass(declared.get(key) ?? { params: null, type: '', optional: false }) ?? key;
      const members = membersOf(interfaceName);
      const prototype = (value as { prototype: object }).prototype;
      const own = Object.getOwnPropertyNames(prototype).filter((name) => name !== 'constructor');
      for (const name of own) {
        const descriptor = Object.getOwnPropertyDescriptor(prototype, name)!;
        const member = members.get(name);
        if (!member) problems.push(`${key}.${name}: exported, not declared by ${interfaceName}`);
        else if (descriptor.get && member.params !== null) problems.push(`${key}.${name}: an accessor natively, a method in ${interfaceName}`);
        else if (typeof descriptor.value === 'function' && member.params === null)
          problems.push(`${key}.${name}: a method natively, a property in ${interfaceName}`);
      }
      for (const name of members.keys()) if (!own.includes(name)) problems.push(`${key}.${name}: declared by ${interfaceName}, not on the prototype`);
    }
    expect(problems).toEqual([]);
  });

  it('each function reads as many arguments as the boundary declares (where the native body shows it)', () => {
    const problems: string[] = [];
    for (const [key, member] of declared) {
      if (member.params !== null) problems.push(...arityMismatches(key, member.params, key));
    }
    // Methods: by the C++ method their class registers (InstanceMethod("name", &Class::Method)).
    for (const [file, text] of nativeText) {
      for (const match of text.matchAll(/InstanceMethod\("(\w+)",\s*&(Native\w+)::(\w+)\)/g)) {
        const [, jsName, className, method] = match as unknown as [string, string, string, string];
        if (!interfaces.has(className)) continue;
        const member = membersOf(className).get(jsName);
        if (member?.params == null) continue;
        const body = bodyOf({ cxx: `${className}::${method}`, file });
        if (body === null) continue;
        const { count, exact } = readsOf(body);
        if (exact ? count !== member.params : count > member.params) {
          problems.push(
            `${className}.${jsName}: the boundary declares ${member.params} parameter(s), the native method reads ${exact ? '' : 'at least '}${count}`,
          );
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('native call names', () => {
  // A call's name in an error is the name the code called: OCL_CHECK, OCL_CREATE
  // and OCL_ENTRY (native/errors.h) stringify it, so no OpenCL entry point name
  // is spelled as a string. The exceptions, each a name that is not the
  // argument of a call made at that line:
  const allowed = new Map([
    // dlsym's probe of a candidate library, before any entry point is resolved.
    ['native/loader.cc', ['clGetPlatformIDs']],
    // NotifyOnStatus registers clSetEventCallback or polls in its place; the error names what it stands for.
    ['native/completion.cc', ['clSetEventCallback']],
  ]);

  it('no OpenCL entry point name is written as a string in native/ (outside comments) but the listed exceptions', () => {
    const spelled = nativeFiles.flatMap((file) => {
      const code = nativeText
        .get(file)!
        .replace(/\/\/.*$/gm, '')
        .replace(/\/\*[\s\S]*?\*\//g, '');
      const where = relative(repoRoot, file);
      return [...code.matchAll(/"(cl[A-Z]\w+)"/g)]
        .map((match) => match[1]!)
        .filter((callName) => !(allowed.get(where) ?? []).includes(callName))
        .map((callName) => `${where}: "${callName}"`);
    });
    expect(spelled).toEqual([]);
  });

  // The same for Vulkan (VK_CHECK, VK_CALL, VK_REQUIRE: native/vulkan/module.h). The
  // exceptions name a call that is not made at that line:
  const vkAllowed = new Map([
    // dlsym's lookup of the loader's one exported entry point.
    ['native/vulkan/loader.cc', ['vkGetInstanceProcAddr']],
    // An entry point the instance or device does not give: the lookup (made in a loop, by #name) is what failed.
    ['native/vulkan/instance.cc', ['vkGetInstanceProcAddr', 'vkGetDeviceProcAddr']],
    // No memory type fits: the allocation that cannot be made is not attempted.
    ['native/vulkan/memory.cc', ['vkAllocateMemory']],
  ]);
  const vkDecls = readFileSync(resolve(nativeRoot, 'vulkan/vk_decls.h'), 'utf8');
  const vkEntryPoints = new Set([...vkDecls.matchAll(/\bX\((vk\w+),/g)].map((match) => match[1]!).concat('vkGetInstanceProcAddr'));

  it('no Vulkan entry point name is written as a string in native/ (outside comments and export names) but the listed exceptions', () => {
    expect(vkEntryPoints).toContain('vkQueueSubmit');
    const spelled = nativeFiles.flatMap((file) => {
      const code = nativeText
        .get(file)!
        .replace(/\/\/.*$/gm, '')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/exports\.Set\("\w+",\s*Napi::Function::New\(env,\s*\w+,\s*"\w+"\)\)/g, '');
      const where = relative(repoRoot, file);
      return [...code.matchAll(/"(vk[A-Z]\w+)"/g)]
        .map((match) => match[1]!)
        .filter((callName) => vkEntryPoints.has(callName) && !(vkAllowed.get(where) ?? []).includes(callName))
        .map((callName) => `${where}: "${callName}"`);
    });
    expect(spelled).toEqual([]);
  });
});

// lib/native-addon.ts installs lib/errors.ts's table of error classes; each area's
// errors module registers the area's classes in it as it loads. Loading one
// area alone, or the package through its ES module wrapper, must still give
// the typed error when that area's native side throws (a plain Error if not).
describe('the error classes native code throws, however the package is loaded (fresh processes)', () => {
  const dist = (path: string): string => JSON.stringify(resolve(repoRoot, 'dist', path));
  const node = async (args: string[], env: Record<string, string>) => {
    const result = await runProcess(process.execPath, args, { env });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    return JSON.parse(result.stdout) as unknown;
  };
  // No Vulkan driver: vkCreateInstance fails (native/vulkan/instance.cc throws VulkanError by name).
  const noVulkanDriver = { VK_DRIVER_FILES: '/nonexistent/icd.json', VK_ICD_FILENAMES: '/nonexistent/icd.json' };
  const vulkanFailure = {
    name: 'VulkanError',
    typed: true,
    code: 'VK_ERROR_INCOMPATIBLE_DRIVER',
    call: 'vkCreateInstance',
  };
  const reportVulkan = (vulkan: string) => `
    try { ${vulkan}.createVulkanInstance(); console.log('null'); }
    catch (e) { console.log(JSON.stringify({ name: e.name, typed: e instanceof ${vulkan}.VulkanError, code: e.code, call: e.call })); }`;

  it('lib/vulkan/ alone (CommonJS, dist/vulkan/index.js): a vkCreateInstance failure is a VulkanError', async () => {
    expect(await node(['-e', `const vulkan = require(${dist('vulkan/index.js')});${reportVulkan('vulkan')}`], noVulkanDriver)).toEqual(vulkanFailure);
  });

  it('the package through its ES module wrapper (dist/index.mjs): a vkCreateInstance failure is a VulkanError', async () => {
    const code = `import * as ocl from ${JSON.stringify(pathToFileURL(resolve(repoRoot, 'dist/index.mjs')).href)};${reportVulkan('ocl')}`;
    expect(await node(['--input-type=module', '-e', code], noVulkanDriver)).toEqual(vulkanFailure);
  });

  it('lib/va/ alone (CommonJS, dist/va/index.js), on the software VA driver: a DMA-BUF the driver refuses is a VaError', async () => {
    requireSoftva();
    const xvfb = await startXvfb();
    try {
      const code = `
        const va = require(${dist('va/index.js')});
        const display = va.openVaDisplay({ kind: 'x11' });
        const fd = require('node:fs').openSync('/dev/null', 'r');
        try { display.importDmaBuf({ format: 'BGRA', width: 4, height: 4, planes: [{ fd, pitch: 16, size: 64 }] }); console.log('null'); }
        catch (e) { console.log(JSON.stringify({ name: e.name, typed: e instanceof va.VaError, code: e.code })); }`;
      expect(await node(['-e', code], softvaEnv(xvfb.display))).toEqual({ name: 'VaError', typed: true, code: 'VA_STATUS_ERROR_INVALID_PARAMETER' });
    } finally {
      await xvfb.stop();
    }
  });
});

// clCreateImage (native/memory.cc) and clCreateImageWithProperties
// (native/interop/external_memory.cc) take the same format and descriptor
// through one conversion (ToImageArgs, native/convert.cc). lib/ only ever
// hands it values from the spec's tables; what it checks here is that a value
// that does not fit the C type is refused, never truncated into another token
// (2^32 + CL_RGBA read as CL_RGBA).
describe('image format and descriptor: one range-checked conversion for both creating calls', () => {
  const wide = 2 ** 32;
  const cases = [
    { what: 'channel order', format: [wide + CL.CL_RGBA, CL.CL_UNORM_INT8], type: CL.CL_MEM_OBJECT_IMAGE2D },
    { what: 'channel type', format: [CL.CL_RGBA, wide + CL.CL_UNORM_INT8], type: CL.CL_MEM_OBJECT_IMAGE2D },
    { what: 'image type', format: [CL.CL_RGBA, CL.CL_UNORM_INT8], type: wide + CL.CL_MEM_OBJECT_IMAGE2D },
  ] as const;
  const desc = (type: number) => ({ type, width: 4, height: 4, depth: 0, arraySize: 0, rowPitch: 0, slicePitch: 0 });
  const refusal = (fn: () => unknown): unknown => {
    try {
      const made = fn() as { release?: () => void };
      made?.release?.();
      return 'created';
    } catch (error) {
      return error;
    }
  };

  it.each(cases)(
    '$what of 2^32 + a valid token: a RangeError naming it from clCreateImage and from clCreateImageWithProperties',
    async ({ what, format, type }) => {
      const { platform } = await import('./helpers/ref-driver');
      const native = nativeAddon();
      const context = createContext({ platform });
      try {
        const flags = BigInt(CL.CL_MEM_READ_WRITE);
        const core = refusal(() => native.createImage(context.native, flags, [...format] as [number, number], { ...desc(type), hostBytes: 0 }));
        const external = refusal(() =>
          (getExternalMemory(platform) as unknown as { native: NativeExternalMemory }).native.createImage(
            context.native,
            [],
            flags,
            [...format] as [number, number],
            desc(type),
          ),
        );
        for (const error of [core, external]) {
          expect(error).toBeInstanceOf(RangeError);
          expect((error as Error).message).toBe(`${what} does not fit in 32 bits`);
        }
      } finally {
        context.release();
      }
    },
  );
});
