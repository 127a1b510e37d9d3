// The repository's test equipment, as the examples use it: the one place an
// example reaches into test/. Neither piece is part of the npm package; both
// are built by `npm run build:driver` into cmake-build/ and stand in for
// missing hardware (each example says so when it uses them).
//
// - The reference OpenCL driver (test/driver; docs/testing.md, "The reference
//   driver"): an ICD with the sharing extensions over simulated Direct3D and
//   VA objects. `referenceDriverPath` is its library; `openReferenceDriver()`
//   gives its control API (test/driver/control.mjs), through which an example
//   makes the simulated Direct3D devices and textures it then shares.
// - The software VA driver (test/va-driver): a libva backend module that the
//   real libva runs on an X display. `softvaDir` is the folder to name in
//   LIBVA_DRIVERS_PATH, `SOFTVA_DRIVER_NAME` the LIBVA_DRIVER_NAME.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export { openReferenceDriver, referenceDriverPath } from '../../test/driver/control.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** Where `npm run build:driver` puts the software VA driver (LIBVA_DRIVERS_PATH). */
export const softvaDir = join(root, 'cmake-build/va-drivers');
/** Its LIBVA_DRIVER_NAME (the module is `${SOFTVA_DRIVER_NAME}_drv_video.so`). */
export const SOFTVA_DRIVER_NAME = 'ocl_interop_softva';
