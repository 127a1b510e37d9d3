import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

// The reference driver's build writes a vendors folder listing it next to
// PoCL; tests see both through the real ICD loader (ocl-icd).
const vendors = resolve(__dirname, 'cmake-build/vendors');

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The package suite (npm pack + installs, three addon builds) runs as
    // `npm run test:package` (vitest.package.config.ts), not in `npm test`.
    exclude: [...configDefaults.exclude, 'test/package.test.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    env: existsSync(vendors) ? { OCL_ICD_VENDORS: vendors } : {},
  },
});
