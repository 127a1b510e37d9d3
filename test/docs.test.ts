// Every relative link and #anchor in the README, docs/ and the other manuals
// resolves: the file exists, and the anchor is one of its headings as GitHub
// slugs them. The README's topics live in docs/ pages, so links cross files
// and would otherwise drift as headings change.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manualPaths } from './helpers/doc-code';

const repoRoot = resolve(__dirname, '..');
const manuals = manualPaths(repoRoot);

/** The text outside fenced code blocks and inline code spans, where links and headings are read. */
function prose(markdown: string): string[] {
  const lines: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const marker = /^\s*(```|~~~)/.exec(line)?.[1];
    if (marker && (fence === null || fence === marker)) {
      fence = fence === null ? marker : null;
      continue;
    }
    if (fence === null) lines.push(line);
  }
  return lines;
}

/** GitHub's heading anchors: lower case, punctuation but `-` and `_` dropped, spaces to `-`, repeats numbered. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of prose(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const text = heading
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .toLowerCase();
    const base = text.replace(/[^\p{L}\p{N}\p{M}\p{Pc}\- ]/gu, '').replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Inline links `[text](target)` outside code, with their line numbers. */
function links(markdown: string): { target: string; line: number }[] {
  const found: { target: string; line: number }[] = [];
  prose(markdown).forEach((line, index) => {
    const text = line.replace(/`[^`]*`/g, '``');
    for (const match of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) found.push({ target: match[1]!, line: index + 1 });
  });
  return found;
}

describe('documentation links', () => {
  it('the slugger follows GitHub: code, punctuation and parentheses dropped, spaces to dashes, repeats numbered', () => {
    const anchors = headingAnchors(
      '# External memory and semaphores (`cl_khr_external_memory`, `cl_khr_semaphore`)\n## Direct3D objects from Node (Windows)\n## A\n## A\n```\n# not a heading\n```\n',
    );
    expect([...anchors]).toEqual([
      'external-memory-and-semaphores-cl_khr_external_memory-cl_khr_semaphore',
      'direct3d-objects-from-node-windows',
      'a',
      'a-1',
    ]);
  });

  for (const file of manuals) {
    it(`${file}: every relative link names a file that exists, and every #anchor a heading of it`, () => {
      const path = resolve(repoRoot, file);
      const broken: string[] = [];
      for (const { target, line } of links(readFileSync(path, 'utf8'))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
        const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
        const destination = pathPart === '' ? path : resolve(dirname(path), decodeURIComponent(pathPart));
        if (!existsSync(destination)) {
          broken.push(`${file} (prose line ${line}): ${target}: ${relative(repoRoot, destination)} does not exist`);
          continue;
        }
        if (anchor === undefined) continue;
        if (statSync(destination).isDirectory() || !destination.endsWith('.md')) {
          broken.push(`${file} (prose line ${line}): ${target}: an anchor into something that is not a Markdown file`);
          continue;
        }
        if (!headingAnchors(readFileSync(destination, 'utf8')).has(anchor)) {
          broken.push(`${file} (prose line ${line}): ${target}: ${relative(repoRoot, destination)} has no heading #${anchor}`);
        }
      }
      expect(broken).toEqual([]);
    });
  }

  it('the README links every topic page in docs/', () => {
    const readme = readFileSync(resolve(repoRoot, 'README.md'), 'utf8');
    const linked = new Set(links(readme).map(({ target }) => target.split('#')[0]));
    const pages = readdirSync(resolve(repoRoot, 'docs')).filter((f) => f.endsWith('.md'));
    expect(pages.filter((page) => !linked.has(`docs/${page}`))).toEqual([]);
  });
});

/** Every file under the folders the manuals name, relative to the repository (build outputs and dependencies aside). */
function repoFiles(): string[] {
  const skip = new Set(['node_modules', 'build', 'cmake-build', 'dist', 'prebuilds', '.git']);
  const walk = (dir: string): string[] =>
    readdirSync(resolve(repoRoot, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) return skip.has(entry.name) ? [] : [`${path}/`, ...walk(path)];
      return [path];
    });
  return walk('');
}

const fileExtensions = /\.(ts|mts|cts|js|mjs|cjs|cc|h|cpp|c|md|json|gyp|txt|tsv|sh|comp)$/;

/**
 * The code spans of a Markdown text that name a file or folder of the
 * repository: a path from its root (`lib/queue.ts`, `.ci/run`, `binding.gyp`),
 * an include written relative to native/ (`interop/sharing.h`), or a bare file
 * name (`handles.ts`). `<name>` and `*` are placeholders.
 */
function namedPaths(markdown: string): string[] {
  const spans = [...markdown.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]!.replace(/[.,:;]+$/, ''));
  return spans.filter(
    (span) =>
      /^\.?[\w<>*][\w.<>*/-]*$/.test(span) &&
      !span.startsWith('shared/') &&
      (/^(lib|native|test|scripts|bench|docs|examples|\.ci)\//.test(span) || fileExtensions.test(span.replace(/<[^>]*>|\*/g, 'x'))),
  );
}

/** Why `path` names nothing in `files`, or null when it names something. */
function missingPath(path: string, files: readonly string[]): string | null {
  const pattern = (p: string) =>
    new RegExp(
      `^${p
        .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
        .replace(/<[^>]*>/g, '[^/]+')
        .replace(/\*/g, '[^/]*')}/?$`,
    );
  const candidates = [path, `native/${path}`];
  if (candidates.some((c) => files.some((f) => pattern(c).test(f)))) return null;
  if (!path.includes('/') && files.some((f) => f.split('/').pop() === path)) return null;
  return /[<>*]/.test(path) ? `${path}: no file matches` : `${path}: does not exist`;
}

describe('docs/ARCHITECTURE.md names files that exist', () => {
  const text = readFileSync(resolve(repoRoot, 'docs/ARCHITECTURE.md'), 'utf8');
  const files = repoFiles();

  it('the path check resolves root paths, native/-relative includes, bare names and placeholders, and fails on a missing one', () => {
    const sample = [
      'lib/queue.ts',
      'interop/sharing.h',
      'handles.ts',
      'native/interop/<ext>.cc',
      'lib/interop/*.ts',
      'lib/<area>/errors.ts',
      'binding.gyp',
      '.ci/run',
      'lib/facts/vulkan-*.ts',
      'native/interop/egl_image.cc',
      'nowhere.cc',
    ];
    expect(namedPaths(sample.map((p) => `\`${p}\``).join(' ') + ' `dispose()` `Init<Ext>` `X(name, type)` `libva.so.2`')).toEqual(sample);
    expect(sample.map((p) => missingPath(p, files)).filter((why) => why !== null)).toEqual([
      'lib/facts/vulkan-*.ts: no file matches',
      'native/interop/egl_image.cc: does not exist',
      'nowhere.cc: does not exist',
    ]);
  });

  it('every path it names in code spans (lib/, native/, test/, scripts/, native/-relative includes, bare file names, placeholders) exists', () => {
    const paths = namedPaths(text);
    expect(paths.length).toBeGreaterThan(100);
    expect(paths.map((p) => missingPath(p, files)).filter((why) => why !== null)).toEqual([]);
  });

  it('the layer diagram names folders and files that exist', () => {
    const diagram = text.slice(text.indexOf('## lib/: the layers'), text.indexOf('The rules (held by'));
    const paths = [...diagram.matchAll(/(?:^|\s)(lib\/[\w./-]*)/g)].map((m) => m[1]!.replace(/[,]$/, ''));
    expect(paths.length).toBeGreaterThan(8);
    expect(paths.map((p) => missingPath(p, files)).filter((why) => why !== null)).toEqual([]);
  });

  // Each recipe lists every file a change of its kind touches (checked by placing one).
  const recipes = ['A core command', 'A sharing extension', 'An external handle type', 'A producer module'];
  const recipe = (title: string): string => {
    const start = text.indexOf(`**${title}**`);
    const next = text.slice(start + 2).search(/\n\*\*[A-Z][^*]*\*\*/);
    return next < 0 ? text.slice(start) : text.slice(start, start + 2 + next);
  };

  it.each(recipes)('the recipe "%s" exists and every file it names exists', (title) => {
    const body = recipe(title);
    expect(body).toMatch(/Every file it touches/);
    const paths = namedPaths(body);
    expect(paths.length).toBeGreaterThan(8);
    expect(paths.map((p) => missingPath(p, files)).filter((why) => why !== null)).toEqual([]);
  });

  it("the recipes' examples are not bound yet (an example already done cannot be placed by the recipe)", () => {
    const command = /\(say `(cl\w+)`/.exec(recipe('A core command'))?.[1];
    expect(command).toBeDefined();
    expect(readFileSync(resolve(repoRoot, 'native/cl_api.h'), 'utf8')).not.toMatch(new RegExp(`X\\(${command},`));
    const extension = /\(say `(cl_\w+)`/.exec(recipe('A sharing extension'))?.[1];
    expect(extension).toBeDefined();
    expect(readFileSync(resolve(repoRoot, 'lib/interop/extensions.ts'), 'utf8')).not.toContain(`'${extension}'`);
    const handleType = /\(say `([\w-]+)` for (semaphores|memory)/.exec(recipe('An external handle type'));
    expect(handleType).not.toBeNull();
    expect(readFileSync(resolve(repoRoot, 'lib/interop/extensions.ts'), 'utf8')).not.toContain(`'${handleType![1]}':`);
    const area = /say a\s[\w\s]+?module in lib\/(\w+)\//.exec(recipe('A producer module'))?.[1];
    expect(area).toBeDefined();
    expect(existsSync(resolve(repoRoot, 'lib', area!))).toBe(false);
  });
});
