import { execFile as execFileCallback } from 'node:child_process';
import { promisify } from 'node:util';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { outputOf, repoRoot, runProcess } from './helpers';

// npm run prebuilds and npm pack in a staging copy of the package (never in
// the repository: other test files load its addon meanwhile), then npm
// install of the tarball into fresh folders, as a user's project would.
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
// Long steps run asynchronously: a blocked worker misses vitest's RPC deadlines.
const execFile = promisify(execFileCallback);
// Each npm step is killed after 9 minutes, within its test's 10 (a hang must not outlive the run).
const stepTimeout = 540_000;
const work = mkdtempSync(join(tmpdir(), 'opencl-interop-pack-'));
let tarball = '';
let staging = '';

async function npmIn(cwd: string, args: string[]) {
  try {
    const { stdout, stderr } = await execFile(npm, args, {
      cwd,
      env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' },
      maxBuffer: 64 << 20,
      timeout: stepTimeout,
    });
    return { status: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { status: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? String(error) };
  }
}

async function freshProject(name: string, tgz: string) {
  const dir = join(work, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', private: true }));
  const install = await npmIn(dir, ['install', '--prefer-offline', '--foreground-scripts', tgz]);
  return { dir, install, pkg: join(dir, 'node_modules', 'opencl-interop') };
}

function probe(dir: string) {
  return runProcess(
    process.execPath,
    ['-e', "const o = require('opencl-interop'); console.log(o.getPlatforms().map((p) => p.name).join('|'), typeof o.VaApiSharing)"],
    { cwd: dir },
  );
}

describe('the npm package', () => {
  beforeAll(async () => {
    staging = join(work, 'staging');
    mkdirSync(staging);
    const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { files: string[] };
    for (const entry of ['package.json', ...manifest.files]) {
      if (existsSync(join(repoRoot, entry))) cpSync(join(repoRoot, entry), join(staging, entry), { recursive: true });
    }
    symlinkSync(join(repoRoot, 'node_modules'), join(staging, 'node_modules'), 'dir');
    await execFile(npm, ['run', 'prebuilds', '--silent'], { cwd: staging, maxBuffer: 64 << 20, timeout: stepTimeout });
    const { stdout: packed } = await execFile(npm, ['pack', '--silent', '--ignore-scripts', '--pack-destination', work], {
      cwd: staging,
      timeout: stepTimeout,
    });
    tarball = join(work, packed.trim().split('\n').pop()!);
  }, 600_000);

  it('ships dist, native sources, binding.gyp and the linux-x64 prebuild; not the reference driver or tests', async () => {
    const listing = (await outputOf('tar', ['-tzf', tarball])).split('\n');
    for (const file of [
      'package/dist/index.js',
      'package/dist/index.mjs',
      'package/dist/index.d.ts',
      'package/dist/cli.js',
      'package/binding.gyp',
      'package/native/addon.cc',
      'package/prebuilds/linux-x64/opencl-interop.node',
    ]) {
      expect(listing).toContain(file);
    }
    expect(listing.some((f) => f.startsWith('package/test/'))).toBe(false);
    expect(listing.some((f) => f.includes('refdriver'))).toBe(false);
  });

  it('installed into a fresh project, loads its prebuild without compiling', async () => {
    const { dir, install, pkg } = await freshProject('uses-prebuild', tarball);
    expect(install.status, install.stderr).toBe(0);
    expect(existsSync(join(pkg, 'build'))).toBe(false);
    const run = await probe(dir);
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toMatch(/(^|\|)Portable Computing Language(\||\s).*function$/);
    const cli = await runProcess(join(dir, 'node_modules', '.bin', 'opencl-interop'), ['info', '--json']);
    expect(JSON.parse(cli.stdout).platforms.map((p: { name: string }) => p.name)).toContain('Portable Computing Language');
  }, 300_000);

  it('CMakeLists.txt (cmake-js) builds the same addon as binding.gyp', async () => {
    await execFile(npm, ['run', 'build:cmake', '--silent'], { cwd: staging, maxBuffer: 64 << 20, timeout: stepTimeout });
    const built = join(staging, 'build', 'Release', 'opencl_interop.node');
    expect(existsSync(built)).toBe(true);
    const run = await runProcess(process.execPath, [
      '-e',
      `const a = require(${JSON.stringify(built)}); console.log(['load', 'getPlatformIDs', 'NativeIntelVaApiSharing', 'NativeNvD3D9Sharing'].every((k) => k in a))`,
    ]);
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('true');
  }, 600_000);

  it('builds from source when no prebuild matches', async () => {
    const unpacked = join(work, 'unpacked');
    mkdirSync(unpacked);
    await outputOf('tar', ['-xzf', tarball, '-C', unpacked]);
    rmSync(join(unpacked, 'package', 'prebuilds'), { recursive: true, force: true });
    const noPrebuild = join(work, 'no-prebuild.tgz');
    await outputOf('tar', ['-czf', noPrebuild, '-C', unpacked, 'package']);
    const { dir, install, pkg } = await freshProject('builds-from-source', noPrebuild);
    expect(install.status, install.stderr).toBe(0);
    expect(readdirSync(join(pkg, 'build', 'Release'))).toContain('opencl_interop.node');
    expect((await probe(dir)).stdout.trim()).toMatch(/(^|\|)Portable Computing Language(\||\s).*function$/);
  }, 600_000);
});
