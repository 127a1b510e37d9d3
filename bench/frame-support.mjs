// What bench/frame-loop.mjs and bench/instructions.mjs share about the VA-API
// frame loop: its sequences, the environment it runs in, and an Xvfb for
// libva's X11 display.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export const FRAME_LOOP_C = join(root, 'cmake-build', 'bench', 'frame_loop_c');
export const FRAME_PLATFORM = 'opencl-interop reference';

// cKey: the C sequence a row compares with (the C binary runs each once).
export const FRAME_SEQUENCES = [
  { key: 'frame_wait_ns', cKey: 'frame_wait_ns', label: 'frame: await using scope | C clWaitForEvents' },
  { key: 'frame_epoll_ns', cKey: 'frame_epoll_ns', label: 'frame: await using scope | C callback+eventfd+epoll' },
  { key: 'frame_with_acquired_ns', cKey: 'frame_epoll_ns', label: 'frame: await withAcquired | C callback+eventfd+epoll' },
  { key: 'frame_create_ns', cKey: 'frame_create_ns', label: 'frame + plane images made and released | C clWaitForEvents' },
];

/**
 * The environment of both sides, from `env`: libva loads the repository's
 * software VA driver unless LIBVA_DRIVER_NAME names one, and the ICD loader
 * reads cmake-build/vendors (reference driver, PoCL) unless OCL_ICD_VENDORS
 * is set. Throws when softva is needed and not built.
 */
export function frameLoopEnv(env = process.env) {
  const result = { ...env };
  if (!result.LIBVA_DRIVER_NAME) {
    const softvaDir = join(root, 'cmake-build', 'va-drivers');
    if (!existsSync(join(softvaDir, 'ocl_interop_softva_drv_video.so'))) {
      throw new Error('the software VA driver is not built: install libva-dev and run npm run build:driver');
    }
    Object.assign(result, { LIBVA_DRIVER_NAME: 'ocl_interop_softva', LIBVA_DRIVERS_PATH: softvaDir });
  }
  result.LIBVA_MESSAGING_LEVEL ??= '1'; // errors only: no "libva info" lines per process
  result.OCL_ICD_VENDORS ??= join(root, 'cmake-build', 'vendors');
  return result;
}

export { startXvfb } from '../examples/support/xvfb.mjs';
