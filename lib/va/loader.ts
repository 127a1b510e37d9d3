// Finds and loads libva at run time, as lib/loader.ts does OpenCL: importing
// the package never needs libva; the first VA call without it is one
// VaNotAvailableError naming the packages to install.
import type { Addon } from '../addon';
import type { NativeVaLoad } from './native-types';
import { addon } from '../loader';
import { VaNotAvailableError } from './errors';
import { checkObject } from '../validate';

/** The environment variable that names the libva library to load (a path to libva.so.2). */
export const LIBVA_ENV = 'OPENCL_INTEROP_LIBVA';

export interface LibvaLoadOptions {
  /** Path of libva.so.2 to load instead of the system's ($OPENCL_INTEROP_LIBVA, else 'libva.so.2'). */
  library?: string;
}

/** What loadLibva() loaded. */
export interface LoadedLibva {
  /** libva itself, as it was named. */
  path: string;
  /** libva-drm (render-node displays), or null when it could not be loaded. */
  drm: string | null;
  /** libva-x11 with libX11 (X11 displays), or null. */
  x11: string | null;
  /** Why libva-drm or libva-x11 could not be loaded, when they could not. */
  problems: readonly { library: string; error: string }[];
}

let loaded: LoadedLibva | undefined;

function describe(result: NativeVaLoad & { ok: true }): LoadedLibva {
  return Object.freeze({ path: result.path, drm: result.drm, x11: result.x11, problems: Object.freeze(result.optional) });
}

/**
 * Loads libva now (optional: every VA call loads it on first use). Once
 * loaded it stays loaded for the life of the process; asking for another
 * library then throws.
 */
export function loadLibva(options: LibvaLoadOptions = {}): LoadedLibva {
  checkObject(options, 'options');
  if (options.library !== undefined && (typeof options.library !== 'string' || options.library === '')) {
    throw new TypeError(`options.library must be a non-empty string (a path to libva.so.2); got ${typeof options.library}`);
  }
  const native = vaAddon();
  const already = native.vaLoadedLibrary();
  if (already) {
    if (options.library !== undefined && options.library !== already.path) {
      throw new VaNotAvailableError([{ path: options.library, error: `libva is already loaded from ${already.path} in this process` }]);
    }
    return (loaded = describe(already));
  }
  const fromEnv = process.env[LIBVA_ENV];
  const libva = options.library ? [options.library] : fromEnv ? [fromEnv] : ['libva.so.2'];
  const result = native.vaLoad({ libva, drm: ['libva-drm.so.2'], x11: ['libva-x11.so.2'], xlib: ['libX11.so.6'] });
  if (!result.ok) {
    throw new VaNotAvailableError(result.attempts.map((a) => (fromEnv && !options.library ? { ...a, path: `${a.path} (from ${LIBVA_ENV})` } : a)));
  }
  return (loaded = describe(result));
}

/** libva as loaded, or null when it is not loaded yet. */
export function loadedLibva(): LoadedLibva | null {
  if (loaded) return loaded;
  const already = vaAddon().vaLoadedLibrary();
  return already ? (loaded = describe(already)) : null;
}

/** @internal The addon (libva not necessarily loaded; its VaError class is installed as the addon loads). */
export function vaAddon(): Addon {
  return addon();
}

/** @internal Loads libva if needed and returns the addon. */
export function libva(): Addon {
  if (!loaded) loadLibva();
  return vaAddon();
}
