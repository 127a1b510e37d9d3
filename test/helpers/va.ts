// The VA test equipment: the software VA driver (test/va-driver, built by
// npm run build:driver into cmake-build/va-drivers) loaded by the real libva,
// on an X11 display served by Xvfb (CI has no /dev/dri).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { repoRoot } from './index';

export const SOFTVA_NAME = 'ocl_interop_softva';
export const softvaDir = resolve(repoRoot, 'cmake-build/va-drivers');
export const SOFTVA_VENDOR = 'opencl-interop softva (software VA-API driver for tests) 1.0';

/** The driver must be built: a missing one fails the run, it is never skipped. */
export function requireSoftva(): void {
  if (!existsSync(resolve(softvaDir, `${SOFTVA_NAME}_drv_video.so`))) {
    throw new Error(`the software VA driver is not built (${softvaDir}): install libva-dev and run npm run build:driver`);
  }
}

export interface Xvfb {
  /** The display name, e.g. ':7'. */
  display: string;
  stop(): Promise<void>;
}

/**
 * Starts Xvfb on a display number of its own. Xvfb's own choice (-displayfd
 * alone) takes no lock file, and two servers started at once (test files in
 * parallel, a benchmark) could both take :0, the second unlinking the
 * first's socket. So each process starts from a number of its own, skips
 * numbers whose lock or socket exists, and moves on when Xvfb finds the
 * number taken; -displayfd still says when the server is ready. -noreset:
 * by default an X server resets when its last client disconnects, and a
 * test opening a display during that reset got "no X server answered".
 */
export async function startXvfb(): Promise<Xvfb> {
  let display = 10 + (process.pid % 500);
  const failures: string[] = [];
  for (let attempt = 0; attempt < 20; attempt++, display++) {
    while (existsSync(`/tmp/.X${display}-lock`) || existsSync(`/tmp/.X11-unix/X${display}`)) display++;
    try {
      return await startXvfbOn(display);
    } catch (error) {
      if ((error as { cannotStart?: boolean }).cannotStart) throw error;
      failures.push(`:${display}: ${(error as Error).message}`);
    }
  }
  throw new Error(`Xvfb did not start on any of 20 display numbers:\n${failures.join('\n')}`);
}

function startXvfbOn(number: number): Promise<Xvfb> {
  return new Promise((done, fail) => {
    let child: ChildProcess;
    try {
      child = spawn('Xvfb', [`:${number}`, '-displayfd', '3', '-screen', '0', '64x64x24', '-nolisten', 'tcp', '-noreset'], {
        stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      fail(Object.assign(new Error(`Xvfb could not be started (install xvfb): ${(error as Error).message}`), { cannotStart: true }));
      return;
    }
    let text = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`Xvfb did not start in 20 s: ${stderr}`));
    }, 20_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      fail(Object.assign(new Error(`Xvfb could not be started (install xvfb): ${error.message}`), { cannotStart: true }));
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      fail(new Error(`Xvfb exited (${signal ?? code}) before it was ready: ${stderr.trim().split('\n').pop() ?? ''}`));
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const fd3 = child.stdio[3] as NodeJS.ReadableStream;
    fd3.setEncoding('utf8');
    fd3.on('data', (chunk: string) => {
      text += chunk;
      if (!text.includes('\n')) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      done({
        display: `:${text.trim()}`,
        stop: () =>
          new Promise<void>((stopped) => {
            if (child.exitCode !== null || child.signalCode !== null) return stopped();
            child.once('exit', () => stopped());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

/** The environment that makes libva load the software driver on `display`. */
export function softvaEnv(display: string): Record<string, string> {
  return { DISPLAY: display, LIBVA_DRIVER_NAME: SOFTVA_NAME, LIBVA_DRIVERS_PATH: softvaDir };
}

/** Sets softvaEnv in this process (libva reads it at vaInitialize). */
export function useSoftva(display: string): void {
  requireSoftva();
  Object.assign(process.env, softvaEnv(display));
  // No GPU here: a render node, if the machine had one, must not win over the test driver.
  delete process.env.OPENCL_INTEROP_VA_DEVICE;
}

/**
 * For a describe block whose fresh processes use the software VA driver: an
 * Xvfb started before its tests and stopped after them; env() is the
 * environment that points a child's libva at it (never at a render node).
 */
export function softvaForChildren(): { env(): NodeJS.ProcessEnv } {
  let xvfb: Xvfb | undefined;
  let env: NodeJS.ProcessEnv | undefined;
  beforeAll(async () => {
    requireSoftva();
    xvfb = await startXvfb();
    env = { ...softvaEnv(xvfb.display), OPENCL_INTEROP_VA_DEVICE: undefined };
  }, 30_000);
  afterAll(() => xvfb?.stop());
  return {
    env() {
      if (!env) throw new Error('the software VA display is not started (softvaForChildren() belongs in a describe block)');
      return env;
    },
  };
}
