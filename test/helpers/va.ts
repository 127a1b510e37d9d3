// The VA test equipment: the software VA driver (test/va-driver, built by
// npm run build:driver into cmake-build/va-drivers) loaded by the real libva,
// on an X11 display served by Xvfb (CI has no /dev/dri).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { type Xvfb, startXvfb } from '../../examples/support/xvfb.mjs';
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

export { type Xvfb, startXvfb };

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
