import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

// The reference driver's build writes a vendors folder listing it next to
// PoCL; tests see both through the real ICD loader (ocl-icd).
const vendors = resolve(__dirname, 'cmake-build/vendors');

// `npm test` must pass on a busy 2-core machine (issue 16): a test that takes
// 2 s alone can take ten times as long beside another CPU-bound process.
// - No test blocks its worker: a worker blocked for 60 s misses vitest's RPC
//   deadline ("Timeout calling onTaskUpdate", an unhandled error that fails
//   the run). Child processes go through test/helpers (runNode, runProcess),
//   never spawnSync or execSync (test/helpers.test.ts checks the imports).
// - Hangs are caught where they happen: each child process is killed at its
//   own time-out (120 s unless given) and the test fails with what it
//   printed. The time-outs below are the last net, generous on purpose.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The package suite (npm pack + installs, three addon builds) runs as
    // `npm run test:package` (vitest.package.config.ts), not in `npm test`.
    exclude: [...configDefaults.exclude, 'test/package.test.ts'],
    // A process per test file: the addon, the ICD loader and libva keep
    // process-wide state, and a crash stays in its file.
    pool: 'forks',
    testTimeout: 180_000,
    // beforeAll starts Xvfb (20 s of its own) and may build kernels.
    hookTimeout: 120_000,
    env: existsSync(vendors) ? { OCL_ICD_VENDORS: vendors } : {},
  },
});
