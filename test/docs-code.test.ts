// Every TypeScript and JavaScript block of the README and docs/ compiles
// against the package's public types, as a user's program that imports
// 'opencl-interop' would (the README's external-memory example once used
// `kernel` and `done` without defining them). A block that deliberately starts
// from objects made elsewhere says so on its first lines, `// @given name: Type`
// (docs/testing.md, "Code in the manuals").
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkCodeBlocks, extractCodeBlocks, manualPaths, parseGiven, type CodeBlock } from './helpers/doc-code';

const repoRoot = resolve(__dirname, '..');
const packageEntry = resolve(repoRoot, 'lib/index.ts');
const manuals = manualPaths(repoRoot);

// Small manuals with known mistakes, checked in the same compiler program as
// the real ones (one program in all); each message names its file.
const samples: Record<string, string> = {
  'undefined.md': [
    '# Sample',
    '```ts',
    "import { getPlatforms } from 'opencl-interop';",
    'const platform = getPlatforms()[0]!;',
    'queue.enqueueKernel(kernel, 64);',
    '```',
    '```js',
    'done();',
    '```',
  ].join('\n'),
  'misuse.md': ['```ts', "import { getPlatforms, getPlatfroms } from 'opencl-interop';", "getPlatforms()[0]?.getDevices('gpu', 3);", '```'].join(
    '\n',
  ),
  'given.md': [
    '```ts',
    '// @given queue: CommandQueue, kernel: Kernel',
    '// @given data: Uint8Array, sizes: Map<string, [number, number]>',
    'queue.enqueueKernel(kernel, data.length + sizes.size).release();',
    '```',
    '```js',
    '// @given queue: CommandQueue',
    'queue.finishSync();',
    '```',
  ].join('\n'),
  'given-partly.md': ['```ts', '// @given queue: CommandQueue', 'queue.enqueueKernel(kernel, 1);', '```'].join('\n'),
  'given-wrong.md': [
    '```ts',
    '// @given queue: CommandQueue, unused: Kernel, odd: NoSuchType',
    '// @given kernel',
    'queue.finishSync(); void odd;',
    '// @given late: number',
    '```',
  ].join('\n'),
};
const manualBlocks: CodeBlock[] = [];
const manualProblems: string[] = [];
for (const file of manuals) {
  const extracted = extractCodeBlocks(readFileSync(resolve(repoRoot, file), 'utf8'), file);
  manualBlocks.push(...extracted.blocks);
  manualProblems.push(...extracted.problems);
}
let errors: string[] = [];
beforeAll(() => {
  const blocks = [...manualBlocks];
  for (const [file, markdown] of Object.entries(samples)) {
    const extracted = extractCodeBlocks(markdown, file);
    blocks.push(...extracted.blocks);
    errors.push(...extracted.problems);
  }
  errors = [...errors, ...checkCodeBlocks(blocks, { packageEntry, repoRoot }).errors];
});
const check = (file: string) => errors.filter((error) => error.startsWith(`${file}:`));

describe("the checker of the manuals' code", () => {
  it('extracts ts/js blocks (indented ones too) with the Markdown line of their first code line; sh and C are left alone', () => {
    const { blocks, problems } = extractCodeBlocks(
      ['# T', '```ts', 'const a = 1;', '```', '```sh', 'ls', '```', '- item', '  ```js', '  let b = 2;', '  ```', '````mjs', '```', '````'].join(
        '\n',
      ),
      'm.md',
    );
    expect(problems).toEqual([]);
    expect(blocks.map(({ line, language, code }) => ({ line, language, code }))).toEqual([
      { line: 3, language: 'ts', code: 'const a = 1;' },
      { line: 10, language: 'js', code: 'let b = 2;' },
      { line: 13, language: 'js', code: '```' },
    ]);
  });

  it("a block that uses a name it never defines fails, at that name's Markdown line (ts and js)", () => {
    expect(check('undefined.md')).toEqual([
      "undefined.md:5: TS2304: Cannot find name 'queue'.",
      "undefined.md:5: TS2304: Cannot find name 'kernel'.",
      "undefined.md:8: TS2304: Cannot find name 'done'.",
    ]);
  });

  it("a wrong use of the package's types fails: an unknown export, a wrong argument", () => {
    const errors = check('misuse.md');
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/^misuse\.md:2: TS2724: .*getPlatfroms/);
    expect(errors[1]).toMatch(/^misuse\.md:3: TS2554: Expected 0-1 arguments, but got 2/);
  });

  it('// @given declares what a partial block starts from, with package and global types; the block checks against them', () => {
    expect(check('given.md')).toEqual([]);
    expect(check('given-partly.md')).toEqual(["given-partly.md:3: TS2304: Cannot find name 'kernel'."]);
  });

  it('a @given that is malformed, late, unused or of an unknown type fails', () => {
    expect(parseGiven(' a: Map<string, number>, b: (x: number) => void')).toEqual([
      { name: 'a', type: 'Map<string, number>' },
      { name: 'b', type: '(x: number) => void' },
    ]);
    expect(parseGiven(' queue, kernel')).toBe('"queue" is not "name: Type"');
    expect(check('given-wrong.md')).toEqual([
      'given-wrong.md:3: // @given "kernel" is not "name: Type"',
      "given-wrong.md:5: a // @given line must come before the block's code",
      'given-wrong.md:2: // @given unused, but the block never uses it',
      "given-wrong.md:2: TS2304: Cannot find name 'NoSuchType'.",
    ]);
  });

  it('a fence the checker cannot classify is reported: an unknown language, words after ts', () => {
    const { problems } = extractCodeBlocks(['```typescipt', 'x', '```', '```ts partial', 'y', '```', '```c', 'int z;', '```'].join('\n'), 'm.md');
    expect(problems).toEqual([
      'm.md:1: fence "```typescipt": unknown language "typescipt" (ts and js blocks are type-checked; name the language of any other)',
      'm.md:4: fence "```ts partial": nothing may follow the language; a partial block says what it takes with a leading // @given line',
    ]);
  });
});

describe('code in the manuals', () => {
  it('every ts/js block of README.md, docs/*.md, bench/README.md and test/driver/README.md type-checks against the package (one program for all)', () => {
    expect(manualProblems).toEqual([]);
    expect(manualBlocks.length).toBeGreaterThan(10);
    expect(errors.filter((error) => manuals.some((file) => error.startsWith(`${file}:`)) || error.startsWith('(compiler)'))).toEqual([]);
  });

  it('partial blocks stay rare: at most one in four blocks starts from // @given, and none in the README', () => {
    const counts = manuals.map((file) => {
      const { blocks } = extractCodeBlocks(readFileSync(resolve(repoRoot, file), 'utf8'), file);
      return { file, blocks: blocks.length, partial: blocks.filter((b) => /^\s*\/\/\s*@given\b/.test(b.code)).length };
    });
    expect(counts.find((c) => c.file === 'README.md')?.partial).toBe(0);
    const total = counts.reduce((n, c) => n + c.blocks, 0);
    const partial = counts.reduce((n, c) => n + c.partial, 0);
    expect(partial * 4).toBeLessThanOrEqual(total);
  });
});
