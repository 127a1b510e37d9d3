// Every relative link and #anchor in the README, docs/ and the other manuals
// resolves: the file exists, and the anchor is one of its headings as GitHub
// slugs them. The README's topics live in docs/ pages, so links cross files
// and would otherwise drift as headings change.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const repoRoot = resolve(__dirname, '..');
const manuals = [
  'README.md',
  ...readdirSync(resolve(repoRoot, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
  'bench/README.md',
  'test/driver/README.md',
];

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
    expect([...anchors]).toEqual(['external-memory-and-semaphores-cl_khr_external_memory-cl_khr_semaphore', 'direct3d-objects-from-node-windows', 'a', 'a-1']);
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

describe('docs/ARCHITECTURE.md names files that exist', () => {
  it('every path it names in code spans (lib/, native/, test/, scripts/, bench/, docs/, binding.gyp ...) exists, placeholders aside', () => {
    const text = readFileSync(resolve(repoRoot, 'docs/ARCHITECTURE.md'), 'utf8');
    const paths = [...text.matchAll(/`([^`\s]+)`/g)]
      .map((m) => m[1]!.replace(/[.,:;]+$/, ''))
      .filter((p) => /^(lib|native|test|scripts|bench|docs|examples)\/|^(binding\.gyp|CMakeLists\.txt|CHANGELOG\.md|README\.md)$/.test(p))
      .filter((p) => !/[<>*]/.test(p));
    expect(paths.length).toBeGreaterThan(40);
    expect(paths.filter((p) => !existsSync(resolve(repoRoot, p)))).toEqual([]);
  });
});
