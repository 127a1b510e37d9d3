// npm run lint (scripts/lint.mjs), the first check of npm test, on a scratch
// git checkout that holds the repository's rule files: it must fail on a file
// that is not laid out as the formatter would (TypeScript and C++) and on a
// lint finding, skip what git ignores, and npm run format must fix the layout.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runProcess } from './helpers';

const script = resolve(repoRoot, 'scripts/lint.mjs');
let dir = '';

const lint = (...args: string[]) => runProcess(process.execPath, [script, ...args], { cwd: dir, timeout: 60_000 });
const put = (file: string, text: string) => {
  mkdirSync(join(dir, file, '..'), { recursive: true });
  writeFileSync(join(dir, file), text);
};

const formattedTs = 'export function area(width: number, height: number): number {\n  return width * height;\n}\n';
const formattedCpp = 'int Area(int width, int height) { return width * height; }\n';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lint-'));
  for (const file of ['biome.jsonc', '.clang-format', '.gitignore']) copyFileSync(join(repoRoot, file), join(dir, file));
  const init = await runProcess('git', ['init', '-q'], { cwd: dir });
  expect(init.status).toBe(0);
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('npm run lint and npm run format (Biome, biome.jsonc; clang-format, .clang-format)', () => {
  it('passes on files laid out as the formatters lay them out', async () => {
    put('lib/area.ts', formattedTs);
    put('native/area.cc', formattedCpp);
    const result = await lint();
    expect(result.stdout).toMatch(/^lint: clean \(Biome: the TypeScript and JavaScript; clang-format: 1 C and C\+\+ files\)$/m);
    expect(result.status).toBe(0);
  });

  it('fails on a TypeScript file that is not formatted, naming it (untracked files are checked too)', async () => {
    put('lib/squeezed.ts', 'export const size = {width:1,height:2}\n');
    const result = await lint();
    expect(result.status).toBe(1);
    expect(result.stdout + result.stderr).toContain('lib/squeezed.ts');
    expect(result.stderr).toMatch(/lint: biome check failed in lint-\w+; npm run format rewrites the layout/);
  });

  it('fails on a C++ file that is not formatted, naming it', async () => {
    rmSync(join(dir, 'lib/squeezed.ts'));
    put('native/squeezed.cc', 'int Squeezed(int a,int b){return a+b;}\n');
    const result = await lint();
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/native\/squeezed\.cc:1:\d+: error: code should be clang-formatted \[-Wclang-format-violations\]/);
    expect(result.stderr).toMatch(/lint: clang-format failed in lint-\w+/);
  });

  it('npm run format lays both out; a lint finding still fails until fixed by hand; ignored files are skipped', async () => {
    put('lib/squeezed.ts', 'export const size = {width:1,height:2}\n');
    put('lib/finding.ts', 'export interface Nothing {}\n');
    // dist/ is in .gitignore: never checked, never rewritten.
    put('dist/built.ts', 'export const size = {width:1,height:2}\n');
    const format = await lint('--write');
    expect(format.status).toBe(0);
    expect(readFileSync(join(dir, 'lib/squeezed.ts'), 'utf8')).toBe('export const size = { width: 1, height: 2 };\n');
    expect(readFileSync(join(dir, 'native/squeezed.cc'), 'utf8')).toBe('int Squeezed(int a, int b) { return a + b; }\n');
    expect(readFileSync(join(dir, 'dist/built.ts'), 'utf8')).toBe('export const size = {width:1,height:2}\n');
    const finding = await lint();
    expect(finding.status).toBe(1);
    expect(finding.stdout + finding.stderr).toContain('lint/suspicious/noEmptyInterface');
    rmSync(join(dir, 'lib/finding.ts'));
    expect((await lint()).status).toBe(0);
  });
});
