// Loads the compiled addon into this thread (a prebuild or a local build),
// hands it the table of error classes native code throws and takes the arrays
// the hot calls pass their values through; on the main thread, sets what the
// process's end does (lib/addon.ts types what it exports).
import * as path from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { type Addon, callArrays } from './addon';
import { nativeErrorClasses } from './errors';

let addon: Addon | undefined;

/** @internal Loads the compiled addon (a prebuild or a local build). */
export function nativeAddon(): Addon {
  if (addon) return addon;
  const root = path.join(__dirname, '..');
  try {
    addon = require('node-gyp-build')(root) as Addon;
  } catch (cause) {
    throw new Error(
      `opencl-interop: the native addon could not be loaded for ${process.platform}-${process.arch} ` +
        `(node ${process.versions.node}, N-API ${process.versions.napi}).\n` +
        'Possible solutions:\n' +
        '  - reinstall with `npm install --foreground-scripts` and read the build output;\n' +
        '  - a source build needs Python 3 and a C++17 compiler (build-essential on Debian, Visual Studio Build Tools on Windows).',
      { cause },
    );
  }
  addon.setErrorClasses(nativeErrorClasses);
  const arrays = addon.takeCallArrays();
  callArrays.ndrangeSizes = arrays.ndrangeSizes;
  callArrays.kernelArgOps = arrays.kernelArgOps;
  if (isMainThread) {
    // PoCL compiles on its own threads (builds, and each kernel at its first
    // run); exit() then runs LLVM's static destructors under them (SIGSEGV).
    // The 'exit' event comes before exit(): wait there for builds in flight
    // and kernels the driver has started (not for commands still waiting on
    // events), at most 60 s and 10 s.
    const loaded = addon;
    // Then the process ends, and its end returns every object to the drivers:
    // the finalizers that run after this event leave them to it (under load
    // NVIDIA's releases took seconds each) unless
    // OPENCL_INTEROP_RELEASE_AT_EXIT=1 asks for them (a leak checker's clean exit).
    process.once('exit', () => {
      loaded.waitForCompilerWork(60_000, 10_000);
      if (process.env.OPENCL_INTEROP_RELEASE_AT_EXIT !== '1') loaded.leaveReleasesToProcessEnd();
    });
  }
  return addon;
}
