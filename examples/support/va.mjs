// How the VA examples get a VA display: the machine's own (a GPU's render
// node, or X11), and where there is none, the repository's test equipment:
// the software VA driver (test/va-driver, built by npm run build:driver) run
// by the real libva on an Xvfb display the example starts. Like the
// reference OpenCL driver, it stands in for missing hardware and says so.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as ocl from '../../dist/index.js';
import { SOFTVA_DRIVER_NAME as SOFTVA, softvaDir } from './test-equipment.mjs';
import { startXvfb } from './xvfb.mjs';

function onPath(command) {
  return (process.env.PATH ?? '').split(':').some((dir) => dir && existsSync(join(dir, command)));
}

/**
 * Opens a VA display for an example. Resolves to
 *   { display, source, close() }   a display, and in words where it came from;
 *   { unavailable }                why there is none (libva or Xvfb missing, ...).
 * close() disposes the display and stops the Xvfb this function started.
 */
export async function openVaForExample() {
  let why;
  try {
    const display = ocl.openVaDisplay();
    return {
      display,
      source: `${display.kind === 'drm' ? 'DRM render node' : 'X11 display'} ${display.source} (${display.vendor})`,
      close: () => display.dispose(),
    };
  } catch (error) {
    if (error instanceof ocl.VaNotAvailableError) {
      if (process.platform !== 'linux') return { unavailable: `VA-API (libva) exists on Linux only; this is ${process.platform}` };
      return { unavailable: `libva is not installed (apt-get install ${ocl.LIBVA_PACKAGES})` };
    }
    if (!(error instanceof ocl.VaDisplayError)) throw error;
    why = error.attempts.map((a) => `${a.kind} ${a.target || ''}: ${a.reason}`.replace(/ +:/, ':')).join('; ');
  }
  if (!existsSync(join(softvaDir, `${SOFTVA}_drv_video.so`))) {
    return { unavailable: `no VA display (${why}), and the software VA driver is not built (npm run build:driver, with libva-dev)` };
  }
  if (!onPath('Xvfb'))
    return { unavailable: `no VA display (${why}), and Xvfb is not installed to run the software VA driver on (apt-get install xvfb)` };
  const xvfb = await startXvfb();
  Object.assign(process.env, { LIBVA_DRIVER_NAME: SOFTVA, LIBVA_DRIVERS_PATH: softvaDir });
  try {
    const display = ocl.openVaDisplay({ kind: 'x11', x11Display: xvfb.display });
    return {
      display,
      source: `no VA display here (${why}), so the test equipment stands in: the software VA driver run by libva on Xvfb ${xvfb.display}`,
      close: () => {
        display.dispose();
        xvfb.stop();
      },
    };
  } catch (error) {
    xvfb.stop();
    return { unavailable: `no VA display (${why}); the software VA driver on Xvfb failed too: ${error.message}` };
  }
}

/** The first platform (real drivers first) whose cl_intel_va_api_media_sharing can use `display`. */
export function platformForDisplay(platforms, display) {
  const extension = 'cl_intel_va_api_media_sharing';
  const supporting = platforms.filter((p) => p.supports(extension));
  const ordered = [
    ...supporting.filter((p) => p.name !== 'opencl-interop reference driver'),
    ...supporting.filter((p) => p.name === 'opencl-interop reference driver'),
  ];
  return ordered.find((p) => {
    const va = p.getSharing(extension);
    return va.getDevices(display).length > 0 || va.getDevices(display, 'all').length > 0;
  });
}
