// The package's public runtime exports, compared with the list in
// test/fixtures/public-exports.txt: a refactor that moves code between lib/
// files must not add, drop or rename an export by accident. A change that
// means to does so in the list too (sorted, one name a line).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers';

const listed = readFileSync(resolve(repoRoot, 'test/fixtures/public-exports.txt'), 'utf8').split('\n').filter(Boolean);

describe('public exports', () => {
  it('lib/index.ts exports exactly the names of test/fixtures/public-exports.txt', async () => {
    const api = await import('../lib/index');
    expect(listed.length).toBeGreaterThan(200);
    expect(Object.keys(api).sort()).toEqual([...listed].sort());
  });
});
