// Typed errors. Every failing driver call becomes an OpenCLError carrying the
// status, its spec name and the entry point; misuse caught before the driver
// is called gets TypeError/RangeError or one of the specific classes below.
import { STATUS } from './facts/cl-status';

/** Status code -> spec name, for every code of STATUS. */
const coreErrorNames: Readonly<Record<number, string>> = Object.fromEntries(Object.entries(STATUS).map(([name, value]) => [value, name]));

/** The three D3D9 sharing extensions give -1010..-1013 different names. */
export type D3D9Family = 'nv_d3d9' | 'intel_dx9' | 'khr_dx9_media';

/**
 * Names of codes that depend on the extension (the D3D9 family's -1010..-1013,
 * D3D11's KHR and NV names): lib/interop registers each extension's names from
 * its record, under its family, its name and each of its entry points.
 */
const scopedErrorNames = new Map<string, Readonly<Record<number, string>>>();
/** status -> every registered name, in registration order. */
const candidateNames = new Map<number, string[]>();

/** @internal lib/interop: an extension's error names, looked up by any of `scopes`. */
export function registerErrorNames(scopes: readonly string[], names: Readonly<Record<number, string>>): void {
  for (const scope of scopes) scopedErrorNames.set(scope, names);
  for (const [status, name] of Object.entries(names)) {
    const list = candidateNames.get(Number(status)) ?? [];
    if (!list.includes(name)) list.push(name);
    candidateNames.set(Number(status), list);
  }
}

/**
 * The spec name of a status code. Codes -1010..-1013 mean different things in
 * the three D3D9 extensions (and -1006..-1009 have KHR and NV names): pass the
 * family or extension, or the entry point that returned the code; without
 * either, every candidate name is listed.
 */
export function errorName(status: number, context?: D3D9Family | string): string {
  if (status === STATUS.CL_SUCCESS) return 'CL_SUCCESS';
  const scoped = context ? scopedErrorNames.get(context)?.[status] : undefined;
  if (scoped) return scoped;
  if (coreErrorNames[status]) return coreErrorNames[status]!;
  const candidates = candidateNames.get(status);
  if (candidates) return candidates.join(' | ');
  return status > 0 ? `positive status ${status}` : `unknown status ${status}`;
}

/** A driver call returned a non-zero status. */
export class OpenCLError extends Error {
  override name = 'OpenCLError';
  /** The status code the driver returned, e.g. -30. */
  readonly status: number;
  /** Its spec name, e.g. 'CL_INVALID_VALUE' (extension-specific where codes collide). */
  readonly code: string;
  /** The OpenCL entry point that failed, e.g. 'clCreateBuffer'. */
  readonly call: string;

  /** `scope`: the D3D9 family or the extension whose names apply (codes that collide), else the call decides. */
  constructor(status: number, call: string, detail?: string, scope?: D3D9Family | string) {
    const code = errorName(status, scope ?? call);
    super(`${call} failed: ${code} (${status})${detail ? `: ${detail}` : ''}`);
    this.status = status;
    this.code = code;
    this.call = call;
  }
}

/**
 * A command ended with a negative execution status instead of completing.
 * `status` is the execution status the driver reported (not an API error
 * code: drivers pick their own values, PoCL reports -1); `waitedOn` says when
 * the binding knows the command was terminated because an event in its wait
 * list failed.
 */
export class OpenCLCommandError extends OpenCLError {
  override name = 'OpenCLCommandError';
  /** e.g. 'CL_COMMAND_READ_BUFFER'. */
  readonly command: string;
  readonly waitedOn?: string;
  constructor(status: number, command: string, waitedOn?: string) {
    super(status, 'event');
    const cause = waitedOn
      ? `an event it waited on failed (${waitedOn})`
      : command === 'CL_COMMAND_USER'
        ? 'the application set this user event to that status, or released it before setting it (-14)'
        : status === STATUS.CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
          ? 'an event it waited on failed'
          : 'the driver terminated it';
    this.message = `the ${command} command failed with execution status ${status}: ${cause}`;
    (this as { code: string }).code = waitedOn ? 'CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST' : `EXECUTION_STATUS_${status}`;
    this.command = command;
    this.waitedOn = waitedOn;
  }
}

/** A program failed to build; `log` holds the build log of each device. */
export class OpenCLBuildError extends OpenCLError {
  override name = 'OpenCLBuildError';
  readonly log: string;
  constructor(status: number, log: string) {
    super(status, 'clBuildProgram', log ? `build log:\n${log}` : undefined);
    this.log = log;
  }
}

/** No OpenCL library could be loaded: says what was tried and what to install. */
export class OpenCLNotAvailableError extends Error {
  override name = 'OpenCLNotAvailableError';
  readonly attempts: readonly { path: string; error: string }[];
  constructor(attempts: { path: string; error: string }[]) {
    const tried = attempts.map((a) => `  - ${a.path}: ${a.error}`).join('\n');
    super(
      `No OpenCL library could be loaded. Tried:\n${tried}\n` +
        'Install an OpenCL ICD loader and a driver, for example:\n' +
        "  Debian/Ubuntu: apt-get install ocl-icd-libopencl1 pocl-opencl-icd (CPU) or your GPU vendor's OpenCL package\n" +
        '  Windows: install your GPU driver (it provides OpenCL.dll)\n' +
        'or name a library with loadOpenCL({ library }) or the OPENCL_INTEROP_LIBRARY environment variable.',
    );
    this.attempts = attempts;
  }
}

/**
 * An ICD registry file the system's ICD loader would crash on (ocl-icd reads
 * the driver's name from each *.icd file of OCL_ICD_VENDORS or
 * /etc/OpenCL/vendors; a file that starts with a NUL byte crashes it, in
 * every program). Refused before the loader reads it; `file` names it.
 */
export class OpenCLRegistryError extends OpenCLNotAvailableError {
  override name = 'OpenCLRegistryError';
  readonly file: string;
  constructor(file: string, problem: string) {
    super([{ path: file, error: problem }]);
    this.message =
      `The OpenCL ICD registry file ${file} ${problem}: the system's ICD loader (ocl-icd) crashes reading it, ` +
      'so OpenCL is not loaded. Fix or remove the file (or point OCL_ICD_VENDORS at a folder without it).';
    this.file = file;
  }
}

/** OpenCL loaded, but it reports no platform (no driver is installed or registered). */
export class OpenCLNoPlatformError extends Error {
  override name = 'OpenCLNoPlatformError';
  constructor(library: string, detail: string) {
    super(
      `The OpenCL library ${library} reports no platform (${detail}). ` +
        'No OpenCL driver is installed or registered: install one (for example pocl-opencl-icd), ' +
        'or check OCL_ICD_VENDORS and /etc/OpenCL/vendors.',
    );
  }
}

/** The loaded library does not export an entry point this call needs. */
export class OpenCLEntryPointError extends Error {
  override name = 'OpenCLEntryPointError';
  readonly entryPoint: string;
  constructor(entryPoint: string) {
    super(`The loaded OpenCL library does not export ${entryPoint}`);
    this.entryPoint = entryPoint;
  }
}

/** A released (disposed) object was used. */
export class OpenCLReleasedError extends Error {
  override name = 'OpenCLReleasedError';
  readonly kind: string;
  constructor(kind: string) {
    super(`This ${kind} has been released and can no longer be used`);
    this.kind = kind;
  }
}

/** A class native code throws by its name (native/errors.h ThrowErrorOf), constructed with the arguments its thrower passes. */
export type NativeErrorClass = new (...args: never[]) => Error;

/**
 * Every error class native code may throw, by class name: the core's (below)
 * and each area's, registered by the area's errors module as it loads. The
 * addon holds this very table (lib/addon.ts hands it over with
 * setErrorClasses) and looks a class up at each throw, so a class registered
 * after the addon loaded is still the one thrown; an area's calls all reach
 * the addon through a module that imports its errors module
 * (test/layers.test.ts), so its classes are in the table before its first call.
 */
const nativeErrorClassTable: Record<string, NativeErrorClass> = Object.create(null);

/** @internal The table lib/addon.ts installs in the addon. */
export const nativeErrorClasses: Readonly<Record<string, NativeErrorClass>> = nativeErrorClassTable;

/** @internal Registers classes native code throws, each under its class name; a name is given to one class only. */
export function registerNativeErrorClasses(classes: Readonly<Record<string, NativeErrorClass>>): void {
  for (const [name, errorClass] of Object.entries(classes)) {
    const registered = nativeErrorClassTable[name];
    if (registered && registered !== errorClass) throw new Error(`internal: two error classes are registered as ${name}`);
    nativeErrorClassTable[name] = errorClass;
  }
}

// native/errors.cc throws them by name: new OpenCLError(status, call), new OpenCLEntryPointError(entryPoint),
// new OpenCLReleasedError(kind) (the native class name without "Native").
registerNativeErrorClasses({ OpenCLError, OpenCLEntryPointError, OpenCLReleasedError });

/** An operation is not valid in the object's current state (e.g. a mapping already unmapped). */
export class OpenCLStateError extends Error {
  override name = 'OpenCLStateError';
}

/**
 * A sharing extension is not available on a platform: not advertised by the
 * platform or its devices, or some entry points do not resolve.
 */
export class OpenCLExtensionError extends Error {
  override name = 'OpenCLExtensionError';
  readonly extension: string;
  readonly platform: string;
  readonly missingEntryPoints: readonly string[];
  constructor(extension: string, platform: string, reason: string, missingEntryPoints: string[] = []) {
    super(
      `${extension} is not available on platform "${platform}": ${reason}` +
        (missingEntryPoints.length ? ` (unresolved entry points: ${missingEntryPoints.join(', ')})` : ''),
    );
    this.extension = extension;
    this.platform = platform;
    this.missingEntryPoints = missingEntryPoints;
  }
}

/**
 * @internal Objects of two contexts met in one call. OpenCL says
 * CL_INVALID_CONTEXT; across drivers the driver cannot even tell, so the
 * binding checks before calling it.
 */
export function contextMismatch(call: string, what: string): OpenCLError {
  return new OpenCLError(STATUS.CL_INVALID_CONTEXT, call, `${what} belongs to another context`);
}

/** @internal A short description of a value for error messages ("the string \"0\"", "a Sampler", ...). */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'object') return `a ${(value as object).constructor?.name ?? 'object'}`;
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 20 ? `${value.slice(0, 20)}…` : value)}`;
  if (typeof value === 'bigint') return `the bigint ${value}n`;
  return `${typeof value} ${String(value)}`;
}
