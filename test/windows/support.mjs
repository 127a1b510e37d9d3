// Shared by the Windows suites: the staged win32 package (what a Windows user
// installs from npm, built by scripts/windows/build.sh) and the D3D helper.
// On Windows itself (.github/workflows/ci.yml) OPENCL_INTEROP_PACKAGE and
// OPENCL_INTEROP_D3D_HELPER name the MSVC builds instead.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/** Where the package is: for child processes and workers to require. */
export const packagePath = process.env.OPENCL_INTEROP_PACKAGE ?? fileURLToPath(new URL('../../build-win32/package/', import.meta.url));

/** opencl-interop as installed from the npm package, with its win32-x64 prebuild. */
export const ocl = require(packagePath);

/** Real Direct3D objects (test/windows/d3d_helper.cc); loaded on first use, as only the D3D suite needs it. */
export const d3d = new Proxy({}, { get: (_, key) => require(process.env.OPENCL_INTEROP_D3D_HELPER ?? '../../build-win32/d3d_helper.node')[key] });

/** Runs fn(own); everything passed to own() is released afterwards, newest first, even when fn throws. */
export async function owner(fn) {
  const owned = [];
  const own = (object) => {
    owned.push(object);
    return object;
  };
  try {
    return await fn(own);
  } finally {
    for (const object of owned.reverse()) object.release();
  }
}
