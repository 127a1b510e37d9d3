import { chmodSync, copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prerequisites } from '../scripts/test-prerequisites.mjs';
import { repoRoot, runProcess } from './helpers';

const script = resolve(__dirname, '../scripts/test-prerequisites.mjs');
const runuser = ['/usr/sbin/runuser', '/sbin/runuser'].find((path) => existsSync(path)) ?? 'runuser';

describe('npm test on a machine without the system packages', () => {
  it('passes here, where everything is installed', async () => {
    expect((await runProcess(process.execPath, [script])).status).toBe(0);
  });

  it('stops within seconds with one message naming what to install when it may not install it', async () => {
    // No tools on PATH, and (where this runs as root) an unprivileged user: nothing can be installed.
    // The user may not be able to read the checkout: the script runs from a copy it can read.
    const dir = mkdtempSync(join(tmpdir(), 'prerequisites-'));
    chmodSync(dir, 0o755);
    const copy = join(dir, 'test-prerequisites.mjs');
    copyFileSync(script, copy);
    chmodSync(copy, 0o644);
    const env = { PATH: '/nonexistent', HOME: '/tmp' };
    const asUser =
      process.getuid?.() === 0 ? ([runuser, ['-u', 'nobody', '--', process.execPath, copy]] as const) : ([process.execPath, [copy]] as const);
    const started = Date.now();
    const result = await runProcess(asUser[0], asUser[1], { env, exactEnv: true, timeout: 20_000 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      'npm test needs Xvfb, vulkaninfo (a Vulkan test compares the UUIDs the package reads with it), CMake, make, g++, git (npm run lint lists the files to check with it), clang-format (npm run lint checks the layout of the C and C++ with it).',
      expect.stringMatching(
        /^Install them with: sudo apt-get install xvfb vulkan-tools cmake make g\+\+ git clang-format$|^Install them with your package manager/,
      ),
    ]);
  });

  it('a program a test runs that is not installed is an error naming its package, not a bare ENOENT', async () => {
    await expect(runProcess('vulkaninfo', [], { env: { PATH: '/nonexistent' } })).rejects.toThrow(
      /^vulkaninfo could not be started: vulkaninfo is not installed: apt-get install vulkan-tools \(npm test installs it as root; see scripts\/test-prerequisites\.mjs\)$/,
    );
  });
});

// What every Debian system has: Essential packages (tar, coreutils' sleep and mkfifo, dash's
// sh, libc6's C library) and zlib (dpkg pre-depends on it).
const onEveryDebian = { commands: ['mkfifo', 'sh', 'sleep', 'tar'], libraries: ['libc.so.6', 'libz.so.1'] };

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'windows' || entry.name === 'node_modules' ? [] : sources(path);
    return /\.(?:ts|mts|mjs|js)$/.test(entry.name) && !entry.name.endsWith('.d.mts') ? [path] : [];
  });
}

describe('everything the tests and examples run or load by name is a prerequisite (scripts/test-prerequisites.mjs)', () => {
  // Programs started by a bare name, and libraries opened by a bare name (a path is a test's own file).
  const spawned = /\b(?:runProcess|outputOf|spawn|spawnSync|execFile|execFileSync)\(\s*'([^'/]+)'/g;
  const loaded = /(?:koffi\.load\(|library: )\s*'([^'/]+)'/g;
  const files = [...sources(join(repoRoot, 'test')), ...sources(join(repoRoot, 'examples'))];
  const found = (pattern: RegExp) => {
    const names = new Map<string, string[]>();
    for (const file of files) {
      for (const match of readFileSync(file, 'utf8').matchAll(pattern)) {
        names.set(match[1]!, [...(names.get(match[1]!) ?? []), relative(repoRoot, file)]);
      }
    }
    return names;
  };

  it('programs: each is provided by a prerequisite or is on every Debian system', () => {
    const provided = new Set([...prerequisites.flatMap((entry) => entry.commands ?? []), ...onEveryDebian.commands]);
    const programs = found(spawned);
    expect(programs.has('vulkaninfo') && programs.has('Xvfb') && programs.has('g++')).toBe(true);
    expect([...programs].filter(([name]) => !provided.has(name)).map(([name, where]) => `${name} (${where.join(', ')})`)).toEqual([]);
  });

  it('libraries: each is provided by a prerequisite or is on every Debian system', () => {
    const provided = new Set([...prerequisites.flatMap((entry) => entry.libraries ?? []), ...onEveryDebian.libraries]);
    const libraries = found(loaded);
    expect(libraries.has('libX11.so.6')).toBe(true);
    expect([...libraries].filter(([name]) => !provided.has(name)).map(([name, where]) => `${name} (${where.join(', ')})`)).toEqual([]);
  });

  it('.ci/run installs every package npm test would install (CI never depends on what the machine happens to have)', () => {
    const ci = readFileSync(join(repoRoot, '.ci/run'), 'utf8');
    const install = /apt-get install -y -q --no-install-recommends((?:[^\n]*\\\n)*[^\n]*)/.exec(ci);
    expect(install).not.toBeNull();
    const packages = new Set(install![1]!.split(/[\s\\]+/).filter(Boolean));
    expect(prerequisites.flatMap((entry) => entry.debian).filter((name) => !packages.has(name))).toEqual([]);
  });

  it("the README's quick start names every package npm test would install", () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const quickStart = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('\n## ', readme.indexOf('## Quick start') + 1));
    const install = /`apt-get install ([^`]+)`/.exec(quickStart);
    expect(install).not.toBeNull();
    const packages = new Set(install![1]!.split(/\s+/));
    expect(prerequisites.flatMap((entry) => entry.debian).filter((name) => !packages.has(name))).toEqual([]);
  });
});
