// The VA module's typed errors: a libva call that returned a VAStatus, libva
// itself missing, and a display that could not be opened or adopted.
import { registerNativeErrorClasses } from '../errors';
import { vaStatusName } from '../facts/va-formats';

/** A libva call returned a status other than VA_STATUS_SUCCESS. */
export class VaError extends Error {
  override name = 'VaError';
  /** The VAStatus, e.g. 6. */
  readonly status: number;
  /** Its va.h name, e.g. 'VA_STATUS_ERROR_INVALID_SURFACE'. */
  readonly code: string;
  /** The libva entry point that failed, e.g. 'vaDeriveImage'. */
  readonly call: string;
  /** What the driver or libva said about it (libva's error messages), if anything. */
  readonly detail: string;

  constructor(status: number, call: string, detail = '') {
    const code = vaStatusName(status);
    super(`${call} failed: ${code} (${status >>> 0})${detail ? `: ${detail}` : ''}`);
    this.status = status >>> 0;
    this.code = code;
    this.call = call;
    this.detail = detail;
  }
}
// native/va/ throws it by name: new VaError(status, call, detail).
registerNativeErrorClasses({ VaError });

/** The Debian/Ubuntu packages that provide libva at run time. */
export const LIBVA_PACKAGES = 'libva2 libva-drm2 libva-x11-2';

/** libva could not be loaded: says what was tried and what to install. */
export class VaNotAvailableError extends Error {
  override name = 'VaNotAvailableError';
  readonly attempts: readonly { path: string; error: string }[];
  constructor(attempts: { path: string; error: string }[]) {
    const tried = attempts.map((a) => `  - ${a.path}: ${a.error}`).join('\n');
    super(
      `libva (VA-API) could not be loaded. Tried:\n${tried}\n` +
        `Install it: Debian/Ubuntu: apt-get install ${LIBVA_PACKAGES} (Fedora: libva; Arch: libva), ` +
        'plus the VA driver of your GPU (intel-media-va-driver, mesa-va-drivers, ...); ' +
        'or name the library with loadLibva({ library }) or the OPENCL_INTEROP_LIBVA environment variable.',
    );
    this.attempts = attempts;
  }
}

/** One way of opening a display that was tried, and why it did not work. */
export interface VaDisplayAttempt {
  kind: 'drm' | 'x11' | 'adopt';
  /** The render node path, X display name or address that was tried ('' when there was nothing to try). */
  target: string;
  reason: string;
}

/** No VA display could be opened (or an address is not a live VADisplay). */
export class VaDisplayError extends Error {
  override name = 'VaDisplayError';
  readonly attempts: readonly VaDisplayAttempt[];
  /** The VAStatus when the last attempt failed in vaInitialize. */
  readonly status?: number;
  constructor(message: string, attempts: VaDisplayAttempt[], status?: number) {
    super(message);
    this.attempts = attempts;
    this.status = status;
  }
}
