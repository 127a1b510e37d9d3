import { defineConfig } from 'vitest/config';
import base from './vitest.config';

// `npm run test:package`: packs the package and installs it into fresh
// projects (three builds of the addon). Slow on a 2-core machine, so it is a
// named suite of its own; .ci/run runs it after `npm test`. The base config's
// settings, with this one file instead of the suite (mergeConfig would add
// the lists together).
export default defineConfig({ test: { ...base.test, include: ['test/package.test.ts'], exclude: [] } });
