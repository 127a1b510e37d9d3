// Typed errors. Every failing driver call becomes an OpenCLError carrying the
// status, its spec name and the entry point; misuse caught before the driver
// is called gets TypeError/RangeError or one of the specific classes below.

const coreErrorNames: Record<number, string> = {
  [-1]: 'CL_DEVICE_NOT_FOUND',
  [-2]: 'CL_DEVICE_NOT_AVAILABLE',
  [-3]: 'CL_COMPILER_NOT_AVAILABLE',
  [-4]: 'CL_MEM_OBJECT_ALLOCATION_FAILURE',
  [-5]: 'CL_OUT_OF_RESOURCES',
  [-6]: 'CL_OUT_OF_HOST_MEMORY',
  [-7]: 'CL_PROFILING_INFO_NOT_AVAILABLE',
  [-8]: 'CL_MEM_COPY_OVERLAP',
  [-9]: 'CL_IMAGE_FORMAT_MISMATCH',
  [-10]: 'CL_IMAGE_FORMAT_NOT_SUPPORTED',
  [-11]: 'CL_BUILD_PROGRAM_FAILURE',
  [-12]: 'CL_MAP_FAILURE',
  [-13]: 'CL_MISALIGNED_SUB_BUFFER_OFFSET',
  [-14]: 'CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST',
  [-15]: 'CL_COMPILE_PROGRAM_FAILURE',
  [-16]: 'CL_LINKER_NOT_AVAILABLE',
  [-17]: 'CL_LINK_PROGRAM_FAILURE',
  [-18]: 'CL_DEVICE_PARTITION_FAILED',
  [-19]: 'CL_KERNEL_ARG_INFO_NOT_AVAILABLE',
  [-30]: 'CL_INVALID_VALUE',
  [-31]: 'CL_INVALID_DEVICE_TYPE',
  [-32]: 'CL_INVALID_PLATFORM',
  [-33]: 'CL_INVALID_DEVICE',
  [-34]: 'CL_INVALID_CONTEXT',
  [-35]: 'CL_INVALID_QUEUE_PROPERTIES',
  [-36]: 'CL_INVALID_COMMAND_QUEUE',
  [-37]: 'CL_INVALID_HOST_PTR',
  [-38]: 'CL_INVALID_MEM_OBJECT',
  [-39]: 'CL_INVALID_IMAGE_FORMAT_DESCRIPTOR',
  [-40]: 'CL_INVALID_IMAGE_SIZE',
  [-41]: 'CL_INVALID_SAMPLER',
  [-42]: 'CL_INVALID_BINARY',
  [-43]: 'CL_INVALID_BUILD_OPTIONS',
  [-44]: 'CL_INVALID_PROGRAM',
  [-45]: 'CL_INVALID_PROGRAM_EXECUTABLE',
  [-46]: 'CL_INVALID_KERNEL_NAME',
  [-47]: 'CL_INVALID_KERNEL_DEFINITION',
  [-48]: 'CL_INVALID_KERNEL',
  [-49]: 'CL_INVALID_ARG_INDEX',
  [-50]: 'CL_INVALID_ARG_VALUE',
  [-51]: 'CL_INVALID_ARG_SIZE',
  [-52]: 'CL_INVALID_KERNEL_ARGS',
  [-53]: 'CL_INVALID_WORK_DIMENSION',
  [-54]: 'CL_INVALID_WORK_GROUP_SIZE',
  [-55]: 'CL_INVALID_WORK_ITEM_SIZE',
  [-56]: 'CL_INVALID_GLOBAL_OFFSET',
  [-57]: 'CL_INVALID_EVENT_WAIT_LIST',
  [-58]: 'CL_INVALID_EVENT',
  [-59]: 'CL_INVALID_OPERATION',
  [-60]: 'CL_INVALID_GL_OBJECT',
  [-61]: 'CL_INVALID_BUFFER_SIZE',
  [-62]: 'CL_INVALID_MIP_LEVEL',
  [-63]: 'CL_INVALID_GLOBAL_WORK_SIZE',
  [-64]: 'CL_INVALID_PROPERTY',
  [-65]: 'CL_INVALID_IMAGE_DESCRIPTOR',
  [-66]: 'CL_INVALID_COMPILER_OPTIONS',
  [-67]: 'CL_INVALID_LINKER_OPTIONS',
  [-68]: 'CL_INVALID_DEVICE_PARTITION_COUNT',
  [-69]: 'CL_INVALID_PIPE_SIZE',
  [-70]: 'CL_INVALID_DEVICE_QUEUE',
  [-71]: 'CL_INVALID_SPEC_ID',
  [-72]: 'CL_MAX_SIZE_RESTRICTION_EXCEEDED',
  [-1001]: 'CL_PLATFORM_NOT_FOUND_KHR',
  [-1002]: 'CL_INVALID_D3D10_DEVICE_KHR',
  [-1003]: 'CL_INVALID_D3D10_RESOURCE_KHR',
  [-1004]: 'CL_D3D10_RESOURCE_ALREADY_ACQUIRED_KHR',
  [-1005]: 'CL_D3D10_RESOURCE_NOT_ACQUIRED_KHR',
  [-1098]: 'CL_INVALID_VA_API_MEDIA_ADAPTER_INTEL',
  [-1099]: 'CL_INVALID_VA_API_MEDIA_SURFACE_INTEL',
  [-1100]: 'CL_VA_API_MEDIA_SURFACE_ALREADY_ACQUIRED_INTEL',
  [-1101]: 'CL_VA_API_MEDIA_SURFACE_NOT_ACQUIRED_INTEL',
};

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
  if (status === 0) return 'CL_SUCCESS';
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
        : status === -14
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
        '  Debian/Ubuntu: apt-get install ocl-icd-libopencl1 pocl-opencl-icd (CPU) or your GPU vendor\'s OpenCL package\n' +
        '  Windows: install your GPU driver (it provides OpenCL.dll)\n' +
        'or name a library with loadOpenCL({ library }) or the OPENCL_INTEROP_LIBRARY environment variable.',
    );
    this.attempts = attempts;
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
  return new OpenCLError(-34, call, `${what} belongs to another context`);
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
