// Finds and loads the OpenCL library at run time. Importing this package never
// fails because OpenCL is missing; the first call that needs it does, with an
// OpenCLNotAvailableError that says what was tried and what to install.
import { closeSync, openSync, readSync, readdirSync, statSync } from 'node:fs';
import { basename, isAbsolute, join } from 'node:path';
import { nativeAddon } from './native-addon';
import type { Addon } from './addon';
import { OpenCLNotAvailableError, OpenCLRegistryError, OpenCLStateError } from './errors';

/** The environment variable that names an OpenCL library to load instead of the system's loader. */
export const LIBRARY_ENV = 'OPENCL_INTEROP_LIBRARY';

export interface LoadOptions {
  /**
   * Path (or bare name) of the OpenCL library to load: an ICD loader, or a
   * driver loaded directly. Defaults to $OPENCL_INTEROP_LIBRARY, then the
   * system's ICD loader.
   */
  library?: string;
}

export interface LoadedLibrary {
  /** What was loaded, as it was named. */
  path: string;
  /** The core entry points the library exports. */
  entryPoints: readonly string[];
}

function defaultCandidates(): string[] {
  switch (process.platform) {
    case 'win32':
      return ['OpenCL.dll'];
    case 'darwin':
      return ['/System/Library/Frameworks/OpenCL.framework/OpenCL'];
    default:
      return ['libOpenCL.so.1', 'libOpenCL.so'];
  }
}

/** A registry file of the ICD loader and what is wrong with it. */
export interface IcdRegistryProblem {
  file: string;
  problem: string;
  /** The loader crashes on it (the binding refuses to load OpenCL); otherwise it is only skipped. */
  crashes: boolean;
}

const systemVendors = '/etc/OpenCL/vendors';

/**
 * The *.icd files ocl-icd reads (the folder or file OCL_ICD_VENDORS names,
 * else /etc/OpenCL/vendors), checked as far as this process can read them:
 * a file that starts with a NUL byte crashes ocl-icd in clGetPlatformIDs; one
 * that cannot be read is listed too (the loader skips it). Linux only.
 */
export function icdRegistryProblems(): IcdRegistryProblem[] {
  if (process.platform !== 'linux') return [];
  const named = process.env.OCL_ICD_VENDORS;
  let files: string[] = [];
  const folder = (dir: string) => {
    try {
      files = readdirSync(dir)
        .filter((name) => name.endsWith('.icd'))
        .sort()
        .map((name) => join(dir, name));
    } catch {
      files = [];
    }
  };
  if (named) {
    const path = isAbsolute(named) || named.includes('/') ? named : join(systemVendors, named);
    let isDir = false;
    try {
      isDir = statSync(path).isDirectory();
    } catch {
      return [];
    }
    if (isDir) folder(path);
    else files = [path];
  } else folder(systemVendors);
  const problems: IcdRegistryProblem[] = [];
  for (const file of files) {
    const first = Buffer.alloc(1);
    let read = 0;
    try {
      const fd = openSync(file, 'r');
      try {
        read = readSync(fd, first, 0, 1, 0);
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      problems.push({ file, problem: `could not be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, crashes: false });
      continue;
    }
    if (read === 1 && first[0] === 0) problems.push({ file, problem: 'starts with a NUL byte', crashes: true });
  }
  return problems;
}

/** Whether the library is the system's ICD loader (libOpenCL), whose registry files matter. */
function isIcdLoader(library: string): boolean {
  return /^libOpenCL\.so(\.\d+)*$/.test(basename(library));
}

/** @internal The addon (its error classes are installed as it loads: lib/addon.ts). */
export function addon(): Addon {
  return nativeAddon();
}

let loaded: LoadedLibrary | undefined;

const icdVariables = ['OCL_ICD_FILENAMES', 'OCL_ICD_VENDORS', 'OPENCL_LAYERS'] as const;

/**
 * @internal Runs fn and puts the ICD loader's environment variables back as
 * they were. The Khronos loader (as shipped with CUDA) tokenizes the
 * getenv() buffer of OCL_ICD_FILENAMES in place: afterwards the process
 * environment, and every child process, sees only its first entry.
 */
export function preservingIcdEnvironment<T>(fn: () => T): T {
  const saved = icdVariables.map((name) => [name, process.env[name]] as const);
  try {
    return fn();
  } finally {
    for (const [name, value] of saved) {
      if (value !== undefined && process.env[name] !== value) process.env[name] = value;
    }
  }
}

/**
 * Loads OpenCL now. Optional: every call loads the default library on first
 * use. Once a library is loaded it stays loaded for the life of the process;
 * asking for a different one then throws.
 */
export function loadOpenCL(options: LoadOptions = {}): LoadedLibrary {
  if (options.library !== undefined && (typeof options.library !== 'string' || options.library === '')) {
    throw new TypeError('options.library must be a non-empty string');
  }
  const already = addon().loadedLibrary();
  if (already) {
    if (options.library !== undefined && options.library !== already.path) {
      throw new OpenCLStateError(`OpenCL is already loaded from ${already.path}; it cannot be switched to ${options.library} in this process`);
    }
    loaded = { path: already.path, entryPoints: Object.freeze(already.entryPoints) };
    return loaded;
  }
  const fromEnv = process.env[LIBRARY_ENV];
  const candidates = options.library ? [options.library] : fromEnv ? [fromEnv] : defaultCandidates();
  // Checked before the loader reads the registry (it does at the first platform query).
  if (candidates.some(isIcdLoader)) {
    const fatal = icdRegistryProblems().find((p) => p.crashes);
    if (fatal) throw new OpenCLRegistryError(fatal.file, fatal.problem);
  }
  const result = preservingIcdEnvironment(() => addon().load(candidates));
  if (!result.ok) {
    const attempts = result.attempts.map((a) => (fromEnv && !options.library ? { ...a, path: `${a.path} (from ${LIBRARY_ENV})` } : a));
    throw new OpenCLNotAvailableError(attempts);
  }
  loaded = { path: result.path, entryPoints: Object.freeze(result.entryPoints) };
  return loaded;
}

/** The library in use, or null when none is loaded yet. */
export function loadedLibrary(): LoadedLibrary | null {
  if (loaded) return loaded;
  const already = addon().loadedLibrary();
  return already ? (loaded = { path: already.path, entryPoints: Object.freeze(already.entryPoints) }) : null;
}

/** @internal Loads the default library if needed and returns the addon. */
export function ready(): Addon {
  if (!loaded) loadOpenCL();
  return addon();
}

/** @internal Whether the loaded library exports an entry point. */
export function hasEntryPoint(name: string): boolean {
  ready();
  return loaded!.entryPoints.includes(name);
}
