// Programs: built from source or built-in kernels, their build (async, with
// the log in OpenCLBuildError) and the kernels made from them.
import type { NativeProgram } from './addon';
import { CL } from './facts/cl-constants';
import { STATUS } from './facts/cl-status';
import type { ContextLink } from './links';
import type { Device } from './device';
import { OpenCLBuildError, OpenCLStateError, contextMismatch } from './errors';
import { decode } from './info';
import { Kernel } from './kernel';
import { Resource } from './resource';

export interface BuildOptions {
  /** Devices to build for; default: every device of the context. */
  devices?: readonly Device[];
  /** Compiler options, e.g. '-cl-fast-relaxed-math'. */
  options?: string;
}

export class Program extends Resource<NativeProgram> {
  readonly context: ContextLink;
  #building: Promise<void> | null = null;
  #releaseAfterBuild = false;

  /** @internal */
  constructor(native: NativeProgram, context: ContextLink) {
    super(native);
    this.context = context;
  }

  get kind(): string {
    return 'Program';
  }

  info(param: number): Uint8Array {
    return this.native.info(param);
  }

  /** Kernel names (after a successful build, or of built-in kernels). */
  get kernelNames(): string[] {
    return decode.words(decode.string(this.native.info(CL.CL_PROGRAM_KERNEL_NAMES)));
  }

  get source(): string {
    return decode.string(this.native.info(CL.CL_PROGRAM_SOURCE));
  }

  /** @internal Per-device queries take devices of the program's context only. */
  checkDevice(device: Device, call: string): void {
    if (!this.context.devices.includes(device)) {
      throw device instanceof Object ? contextMismatch(call, 'the device') : new TypeError('device must be a Device');
    }
  }

  /** CL_BUILD_SUCCESS (0), CL_BUILD_NONE (-1), CL_BUILD_ERROR (-2) or CL_BUILD_IN_PROGRESS (-3). */
  buildStatus(device: Device = this.context.devices[0]!): number {
    this.checkDevice(device, 'clGetProgramBuildInfo');
    return decode.int(this.native.buildInfo(device.native, CL.CL_PROGRAM_BUILD_STATUS));
  }

  buildLog(device: Device = this.context.devices[0]!): string {
    this.checkDevice(device, 'clGetProgramBuildInfo');
    return decode.string(this.native.buildInfo(device.native, CL.CL_PROGRAM_BUILD_LOG)).trim();
  }

  /**
   * Builds the program off the JS thread. Rejects with an OpenCLBuildError
   * whose `log` holds every device's build log.
   */
  build(options: BuildOptions = {}): Promise<void> {
    if (this.#building) throw new OpenCLStateError('this program is already being built');
    const devices = options.devices ?? this.context.devices;
    if (!Array.isArray(devices) || devices.some((d) => !this.context.devices.includes(d))) {
      throw new TypeError("options.devices must be devices of the program's context");
    }
    if (options.options !== undefined && typeof options.options !== 'string') {
      throw new TypeError('options.options must be a string');
    }
    const run = async () => {
      // Argument info lets kernels check their arguments before the driver sees them.
      const given = options.options ?? '';
      const withArgInfo = /(^|\s)-cl-kernel-arg-info(\s|$)/.test(given) ? given : `${given} -cl-kernel-arg-info`.trim();
      let status = await this.native.build(
        devices.map((d) => d.native),
        withArgInfo,
      );
      if (status === STATUS.CL_INVALID_BUILD_OPTIONS && withArgInfo !== given) {
        status = await this.native.build(
          devices.map((d) => d.native),
          given,
        );
      }
      if (status !== STATUS.CL_SUCCESS) {
        const log = devices
          .map((device) => {
            let text: string;
            try {
              text = this.buildLog(device);
            } catch {
              text = '';
            }
            return devices.length > 1 ? `[${device.name}]\n${text}` : text;
          })
          .join('\n');
        throw new OpenCLBuildError(status, log);
      }
    };
    this.#building = run().finally(() => {
      this.#building = null;
      if (this.#releaseAfterBuild) this.release();
    });
    return this.#building;
  }

  /** Creates a kernel by name. */
  createKernel(name: string): Kernel {
    if (typeof name !== 'string' || name === '') throw new TypeError('kernel name must be a non-empty string');
    if (this.#building) throw new OpenCLStateError('the program is still being built; await build() first');
    return new Kernel(this.context.addon.createKernel(this.native, name), this);
  }

  override release(): void {
    // The driver must not lose the program while a build thread uses it.
    if (this.#building) {
      this.#releaseAfterBuild = true;
      return;
    }
    super.release();
  }
}

declare module './links' {
  // Program is what links.ts calls ProgramLink.
  interface ProgramLink extends Program {}
}
