import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config';

// `npm run test:package`: packs the package and installs it into fresh
// projects (three builds of the addon). Slow on a 2-core machine, so it is a
// named suite of its own; .ci/run runs it after `npm test`.
export default mergeConfig(base, defineConfig({ test: { include: ['test/package.test.ts'], exclude: [] } }));
