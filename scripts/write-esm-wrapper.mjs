// Writes dist/index.mjs: an ES module facade over the CommonJS build, so that
// `import { getPlatforms } from 'opencl-interop'` works with named imports.
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';

const require = createRequire(import.meta.url);
const api = require('../dist/index.js');
const names = Object.keys(api).filter((name) => name !== 'default' && name !== '__esModule');
const lines = [
  "import { createRequire } from 'node:module';",
  "const api = createRequire(import.meta.url)('./index.js');",
  ...names.map((name) => `export const ${name} = api.${name};`),
  'export default api;',
  '',
];
writeFileSync(new URL('../dist/index.mjs', import.meta.url), lines.join('\n'));
