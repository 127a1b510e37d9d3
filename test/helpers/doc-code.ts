// The code blocks of the manuals, extracted and type-checked as a user's
// program would be: `import ... from 'opencl-interop'` resolves to lib/index.ts,
// every block is its own ES module (top-level await, `using`), TypeScript blocks
// strict, JavaScript blocks through checkJs. One compiler program for all
// blocks. The convention for partial blocks (`// @given name: Type, ...`) is
// described in docs/testing.md.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ts from 'typescript';

/** The manuals, relative to the repository: the README, docs/ and the other READMEs the docs tests read. */
export function manualPaths(repoRoot: string): string[] {
  return [
    'README.md',
    ...readdirSync(resolve(repoRoot, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
    'bench/README.md',
    'test/driver/README.md',
  ];
}

export type CodeLanguage = 'ts' | 'js';

export interface CodeBlock {
  /** The Markdown file, as the messages name it. */
  file: string;
  /** 1-based line in `file` of the block's first code line. */
  line: number;
  language: CodeLanguage;
  code: string;
}

export interface Extracted {
  blocks: CodeBlock[];
  /** Fences the test cannot classify: an unknown language, or words after ts/js. */
  problems: string[];
}

const checkedLanguages: Record<string, CodeLanguage> = {
  ts: 'ts',
  typescript: 'ts',
  mts: 'ts',
  js: 'js',
  javascript: 'js',
  mjs: 'js',
};

/** Languages of blocks that are not checked: shell sessions, C, data. Anything else is reported, so a typo cannot hide code. */
const otherLanguages = new Set([
  '',
  'sh',
  'bash',
  'shell',
  'console',
  'c',
  'cpp',
  'c++',
  'json',
  'text',
  'txt',
  'diff',
  'cmake',
  'powershell',
  'ps1',
  'yaml',
  'ini',
  'make',
]);

/** Fenced code blocks (``` or ~~~, indented or not) with the language of their info string. */
export function extractCodeBlocks(markdown: string, file: string): Extracted {
  const blocks: CodeBlock[] = [];
  const problems: string[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*(.*?)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, info] = open as unknown as [string, string, string, string];
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = /^\s*(`{3,}|~{3,})\s*$/.exec(lines[j]!);
      if (close && close[1]![0] === fence[0] && close[1]!.length >= fence.length) break;
      // Content lines lose the fence's indentation (a block inside a list item).
      body.push(lines[j]!.startsWith(indent) ? lines[j]!.slice(indent.length) : lines[j]!.trimStart());
    }
    const [word = '', ...rest] = info.split(/\s+/).filter((w) => w !== '');
    const language = checkedLanguages[word.toLowerCase()];
    if (language !== undefined) {
      if (rest.length > 0)
        problems.push(
          `${file}:${i + 1}: fence "${fence}${info}": nothing may follow the language; a partial block says what it takes with a leading // @given line`,
        );
      else blocks.push({ file, line: i + 2, language, code: body.join('\n') });
    } else if (!otherLanguages.has(word.toLowerCase())) {
      problems.push(
        `${file}:${i + 1}: fence "${fence}${info}": unknown language "${word}" (ts and js blocks are type-checked; name the language of any other)`,
      );
    }
    i = j;
  }
  return { blocks, problems };
}

export interface Given {
  name: string;
  type: string;
}

/** The top-level comma-separated `name: Type` pairs of a @given line. */
export function parseGiven(text: string): Given[] | string {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let k = 0; k < text.length; k++) {
    const c = text[k]!;
    if ('<([{'.includes(c)) depth++;
    else if ('>)]}'.includes(c) && !(c === '>' && text[k - 1] === '=')) depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, k));
      start = k + 1;
    }
  }
  parts.push(text.slice(start));
  const given: Given[] = [];
  for (const part of parts) {
    const match = /^\s*([A-Za-z_$][\w$]*)\s*:\s*(\S.*?)\s*$/.exec(part);
    if (!match) return `"${part.trim()}" is not "name: Type"`;
    given.push({ name: match[1]!, type: match[2]! });
  }
  return given;
}

const givenLine = /^\s*\/\/\s*@given\b(.*)$/;

interface Prepared {
  source: string;
  sidecar: string | null;
  problems: string[];
  /** The names the block is given, and where (0-based line in the block) each was given. */
  given: Map<string, number>;
}

/** A block as a module: its leading @given lines become imports of a generated declaration file, line for line. */
function prepare(block: CodeBlock, sidecarModule: string, packageExports: ReadonlySet<string>): Prepared {
  const lines = block.code.split('\n');
  const problems: string[] = [];
  const given = new Map<string, number>();
  const declarations: Given[] = [];
  let leading = true;
  lines.forEach((line, index) => {
    const match = givenLine.exec(line);
    if (!match) {
      if (line.trim() !== '') leading = false;
      return;
    }
    const where = `${block.file}:${block.line + index}`;
    if (!leading) {
      problems.push(`${where}: a // @given line must come before the block's code`);
      return;
    }
    const parsed = parseGiven(match[1]!);
    if (typeof parsed === 'string') {
      problems.push(`${where}: // @given ${parsed}`);
      return;
    }
    for (const entry of parsed) {
      if (given.has(entry.name)) problems.push(`${where}: // @given names ${entry.name} twice`);
      given.set(entry.name, index);
      declarations.push(entry);
    }
    lines[index] = `import { ${parsed.map((g) => g.name).join(', ')} } from '${sidecarModule}';`;
  });
  if (declarations.length === 0) return { source: `${lines.join('\n')}\nexport {};\n`, sidecar: null, problems, given };
  const typeNames = new Set<string>();
  for (const { type } of declarations) {
    for (const m of type.matchAll(/(?<![\w$.'"])[A-Za-z_$][\w$]*/g)) if (packageExports.has(m[0])) typeNames.add(m[0]);
  }
  const sidecar = [
    typeNames.size > 0 ? `import type { ${[...typeNames].join(', ')} } from 'opencl-interop';` : '',
    ...declarations.map(({ name, type }) => `export declare const ${name}: ${type};`),
    '',
  ].join('\n');
  return { source: `${lines.join('\n')}\nexport {};\n`, sidecar, problems, given };
}

export interface CheckOptions {
  /** The module `opencl-interop` resolves to (lib/index.ts, or dist/index.d.ts). */
  packageEntry: string;
  repoRoot: string;
  /** Where the generated files go; a fresh temporary folder if not given. */
  workDir?: string;
  /** Keep a generated temporary folder (it holds a tsconfig.json: `npx tsc -p <folder>` reproduces the check): never (default), or when there are errors. */
  keep?: 'never' | 'on-error';
}

export interface CheckResult {
  /** One line per error: `file:line: TSnnnn: message`. */
  errors: string[];
  workDir: string;
}

/** The options as a tsconfig.json says them: a user's ES module program on Node. */
function configJson(repoRoot: string, packageEntry: string) {
  return {
    target: 'ES2022',
    module: 'ESNext',
    moduleResolution: 'Bundler',
    lib: ['ES2022', 'ESNext.Disposable'],
    types: ['node'],
    typeRoots: [resolve(repoRoot, 'node_modules/@types')],
    strict: true,
    allowJs: true,
    checkJs: true,
    noEmit: true,
    skipLibCheck: true,
    esModuleInterop: true,
    paths: { 'opencl-interop': [packageEntry] },
  };
}

function compilerOptions(repoRoot: string, packageEntry: string): ts.CompilerOptions {
  const { options, errors } = ts.convertCompilerOptionsFromJson(configJson(repoRoot, packageEntry), repoRoot);
  if (errors.length > 0) throw new Error(ts.flattenDiagnosticMessageText(errors[0]!.messageText, ' '));
  return options;
}

function tsconfig(repoRoot: string, packageEntry: string, files: string[]): string {
  return `${JSON.stringify({ compilerOptions: configJson(repoRoot, packageEntry), files }, null, 2)}\n`;
}

/** The names `opencl-interop` exports (values and types), read by the compiler. */
function exportsOf(program: ts.Program, packageEntry: string): Set<string> {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(packageEntry);
  const symbol = source && checker.getSymbolAtLocation(source);
  if (!symbol) throw new Error(`${packageEntry}: not a module the compiler could read`);
  return new Set(checker.getExportsOfModule(symbol).map((s) => s.getName()));
}

let last: { key: string; program: ts.Program; packageExports: Set<string> } | undefined;

/** Type-checks the blocks together; each error is mapped back to its Markdown line. */
export function checkCodeBlocks(blocks: readonly CodeBlock[], options: CheckOptions): CheckResult {
  const packageEntry = resolve(options.packageEntry);
  const compiler = compilerOptions(options.repoRoot, packageEntry);
  const key = JSON.stringify(compiler);
  if (last?.key !== key) {
    const program = ts.createProgram({ rootNames: [packageEntry], options: compiler });
    last = { key, program, packageExports: exportsOf(program, packageEntry) };
  }
  const { packageExports } = last;

  const workDir = options.workDir ?? mkdtempSync(join(tmpdir(), 'opencl-interop-doc-code-'));
  mkdirSync(workDir, { recursive: true });
  const errors: string[] = [];
  const origins = new Map<string, { block: CodeBlock; given: Map<string, number>; sidecar: boolean }>();
  const roots: string[] = [];
  blocks.forEach((block, index) => {
    const stem = `b${String(index).padStart(3, '0')}`;
    const prepared = prepare(block, `./${stem}.given`, packageExports);
    errors.push(...prepared.problems);
    const file = join(workDir, `${stem}.${block.language}`);
    writeFileSync(file, `${prepared.source}`);
    roots.push(file);
    origins.set(file, { block, given: prepared.given, sidecar: false });
    if (prepared.sidecar !== null) {
      const sidecar = join(workDir, `${stem}.given.ts`);
      writeFileSync(sidecar, prepared.sidecar);
      origins.set(sidecar, { block, given: prepared.given, sidecar: true });
    }
  });
  writeFileSync(
    join(workDir, 'tsconfig.json'),
    tsconfig(
      options.repoRoot,
      packageEntry,
      roots.map((r) => r.slice(workDir.length + 1)),
    ),
  );

  // The package's files, parsed once per process, are reused from the last program.
  const program = ts.createProgram({ rootNames: roots, options: compiler, oldProgram: last.program });
  last.program = program;
  for (const diagnostic of program.getGlobalDiagnostics().concat(program.getOptionsDiagnostics())) {
    errors.push(`(compiler): TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
  }
  for (const [path, origin] of origins) {
    const source = program.getSourceFile(path);
    if (!source) {
      errors.push(`${origin.block.file}:${origin.block.line}: the compiler did not read the block`);
      continue;
    }
    const codeLines = origin.block.code.split('\n').length;
    for (const diagnostic of [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]) {
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
      let line = 0;
      if (origin.sidecar) {
        // `export declare const name: Type;` points back at the @given line naming it.
        const text = diagnostic.start === undefined ? '' : source.text.slice(0, diagnostic.start);
        const declared = /export declare const ([\w$]+): [^\n]*$/.exec(text)?.[1];
        line = (declared !== undefined ? origin.given.get(declared) : undefined) ?? [...origin.given.values()][0] ?? 0;
      } else if (diagnostic.start !== undefined) {
        line = Math.min(source.getLineAndCharacterOfPosition(diagnostic.start).line, codeLines - 1);
      }
      errors.push(`${origin.block.file}:${origin.block.line + line}: TS${diagnostic.code}: ${message}`);
    }
    if (!origin.sidecar) errors.push(...unusedGiven(source, origin.block, origin.given));
  }
  const keep = options.workDir !== undefined || (options.keep === 'on-error' && errors.length > 0);
  if (!keep) rmSync(workDir, { recursive: true, force: true });
  return { errors, workDir };
}

/** A given name the block never uses is a declaration to delete, not to keep. */
function unusedGiven(source: ts.SourceFile, block: CodeBlock, given: Map<string, number>): string[] {
  const used = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) return;
    if (ts.isIdentifier(node)) used.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...given]
    .filter(([name]) => !used.has(name))
    .map(([name, line]) => `${block.file}:${block.line + line}: // @given ${name}, but the block never uses it`);
}
