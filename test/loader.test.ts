import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { repoRoot, runNode } from './helpers';

const driverPath = resolve(repoRoot, 'cmake-build/lib/libocl_interop_refdriver.so');
const emptyVendors = mkdtempSync(join(tmpdir(), 'no-vendors-'));
const cli = resolve(repoRoot, 'dist/cli.js');

function runCli(args: string[], env: NodeJS.ProcessEnv = {}) {
  return spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
}

describe('loading OpenCL at run time', () => {
  it('imports without OpenCL; every call then throws OpenCLNotAvailableError naming what was tried', () => {
    const { status, stdout, stderr } = runNode(
      `
      const results = [];
      for (const call of [() => ocl.getPlatforms(), () => ocl.createContext(), () => ocl.loadOpenCL()]) {
        try { call(); results.push('no error'); } catch (e) {
          results.push([e.name, e instanceof ocl.OpenCLNotAvailableError, e.attempts.map((a) => a.path)]);
        }
      }
      console.log(JSON.stringify({ results, loaded: ocl.loadedLibrary() }));
      try { ocl.getPlatforms(); } catch (e) { console.error(e.message); }`,
      { env: { OPENCL_INTEROP_LIBRARY: '/nonexistent/libOpenCL.so.1' } },
    );
    expect(status).toBe(0);
    const { results, loaded } = JSON.parse(stdout);
    expect(loaded).toBeNull();
    for (const result of results) {
      expect(result).toEqual(['OpenCLNotAvailableError', true, ['/nonexistent/libOpenCL.so.1 (from OPENCL_INTEROP_LIBRARY)']]);
    }
    expect(stderr).toMatch(/No OpenCL library could be loaded/);
    expect(stderr).toMatch(/apt-get install ocl-icd-libopencl1 pocl-opencl-icd/);
  });

  it('a failed explicit load can be followed by a good one; a loaded library cannot be switched', () => {
    const { status, stdout, stderr } = runNode(`
      try { ocl.loadOpenCL({ library: '/nope/libOpenCL.so' }); } catch (e) { console.log(e.name); }
      console.log(ocl.loadOpenCL().path);
      try { ocl.loadOpenCL({ library: '/other/libOpenCL.so' }); } catch (e) { console.log(e.message); }
      try { ocl.loadOpenCL({ library: 42 }); } catch (e) { console.log(e.name); }
      console.log(ocl.loadedLibrary().entryPoints.includes('clGetPlatformIDs'));`);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(stdout.trim().split('\n')).toEqual([
      'OpenCLNotAvailableError',
      'libOpenCL.so.1',
      'OpenCL is already loaded from libOpenCL.so.1; it cannot be switched to /other/libOpenCL.so in this process',
      'TypeError',
      'true',
    ]);
  });

  it('reports zero platforms clearly (ocl-icd with no registered driver)', () => {
    const { status, stdout } = runNode(
      `
      console.log(JSON.stringify(ocl.getPlatforms()));
      for (const call of [() => ocl.requirePlatforms(), () => ocl.createContext()]) {
        try { call(); } catch (e) { console.log(e.name + ': ' + e.message); }
      }`,
      { env: { OCL_ICD_VENDORS: emptyVendors } },
    );
    expect(status).toBe(0);
    const [list, ...errors] = stdout.trim().split('\n');
    expect(list).toBe('[]');
    expect(errors).toHaveLength(2);
    for (const line of errors) expect(line).toMatch(/^OpenCLNoPlatformError: .*reports no platform.*pocl-opencl-icd/);
  });

  it('loads a driver directly by path (the reference driver, no ICD loader)', () => {
    const { status, stdout, stderr } = runNode(
      `
      const [p] = ocl.getPlatforms();
      const lib = ocl.loadedLibrary();
      console.log(JSON.stringify({ path: lib.path, platforms: ocl.getPlatforms().length, name: p.name, suffix: p.icdSuffix,
        hasDestructorCallback: lib.entryPoints.includes('clSetContextDestructorCallback') }));
      // clSetContextDestructorCallback is optional (OpenCL 3.0): error callbacks still work without it.
      const ctx = ocl.createContext({ platform: p, onError: () => {} });
      const q = ctx.createQueue();
      q.enqueueMarker().waitSync();
      console.log(ctx.devices.length);`,
      { env: { OPENCL_INTEROP_LIBRARY: driverPath } },
    );
    expect(stderr).toBe('');
    expect(status).toBe(0);
    const [info, devices] = stdout.trim().split('\n');
    expect(JSON.parse(info!)).toEqual({
      path: driverPath,
      platforms: 1,
      name: 'opencl-interop reference driver',
      suffix: 'REF',
      hasDestructorCallback: false,
    });
    expect(devices).toBe('1');
  });

  it('keeps the ICD loader\'s environment as it was (the Khronos loader truncates OCL_ICD_FILENAMES in place)', () => {
    const { status, stdout } = runNode(`
      const { preservingIcdEnvironment } = require(${JSON.stringify(resolve(repoRoot, 'dist/loader.js'))});
      preservingIcdEnvironment(() => { process.env.OCL_ICD_FILENAMES = 'a.so'; delete process.env.OCL_ICD_VENDORS; });
      ocl.getPlatforms();
      console.log(process.env.OCL_ICD_FILENAMES, process.env.OCL_ICD_VENDORS);`,
      { env: { OCL_ICD_FILENAMES: 'a.so:b.so', OCL_ICD_VENDORS: '/etc/OpenCL/vendors' } },
    );
    expect(status).toBe(0);
    expect(stdout.trim()).toBe('a.so:b.so /etc/OpenCL/vendors');
  });

  it('is usable with require and with import', async () => {
    const esm = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', `import { getPlatforms, CL } from ${JSON.stringify(resolve(repoRoot, 'dist/index.mjs'))}; import def from ${JSON.stringify(resolve(repoRoot, 'dist/index.mjs'))}; console.log(typeof getPlatforms, CL.CL_RGBA, typeof def.createContext);`],
      { encoding: 'utf8' },
    );
    expect(esm.stderr).toBe('');
    expect(esm.stdout.trim()).toBe('function 4277 function');
    const cjs = runNode('console.log(typeof ocl.getPlatforms, typeof ocl.OpenCLError)');
    expect(cjs.stdout.trim()).toBe('function function');
  });
});

describe('CLI: npx opencl-interop info', () => {
  it('prints platforms, devices and the seven sharing extensions', () => {
    const { status, stdout } = runCli(['info']);
    expect(status).toBe(0);
    expect(stdout).toMatch(/Platform \d+: Portable Computing Language/);
    expect(stdout).toMatch(/cl_intel_va_api_media_sharing\s+no\s+0\/4/);
  });

  it('--json is machine-readable and shows the reference driver resolving all 39 entry points of the seven extensions', () => {
    const vendors = resolve(repoRoot, 'cmake-build/vendors');
    const { status, stdout } = runCli(['info', '--json'], { OCL_ICD_VENDORS: vendors });
    expect(status).toBe(0);
    const report = JSON.parse(stdout);
    const names = report.platforms.map((p: { name: string }) => p.name);
    expect(names).toContain('Portable Computing Language');
    const ref = report.platforms.find((p: { name: string }) => p.name === 'opencl-interop reference driver');
    expect(ref.sharing.map((e: { advertised: string }) => e.advertised)).toEqual(Array(7).fill('platform+device'));
    expect(ref.sharing.reduce((n: number, e: { entryPoints: { resolved: number } }) => n + e.entryPoints.resolved, 0)).toBe(39);
    const pocl = report.platforms.find((p: { name: string }) => p.name === 'Portable Computing Language');
    expect(pocl.sharing.every((e: { advertised: string }) => e.advertised === 'no')).toBe(true);
  });

  it('says which devices compile OpenCL C: PoCL does, the reference driver runs built-in kernels only', () => {
    const vendors = resolve(repoRoot, 'cmake-build/vendors');
    const report = JSON.parse(runCli(['info', '--json'], { OCL_ICD_VENDORS: vendors }).stdout);
    const compiles = (name: string) =>
      report.platforms.find((p: { name: string }) => p.name === name).devices.map((d: { compilerAvailable: boolean }) => d.compilerAvailable);
    expect(compiles('Portable Computing Language')).toEqual([true]);
    expect(compiles('opencl-interop reference driver').every((c: boolean) => c === false)).toBe(true);
    const text = runCli(['info'], { OCL_ICD_VENDORS: vendors }).stdout;
    expect(text).toMatch(/compiles OpenCL C: yes/);
    expect(text).toMatch(/compiles OpenCL C: no \(built-in kernels only\)/);
  });

  it('explains a missing OpenCL and exits 3; bad usage exits 2', () => {
    const missing = runCli(['info'], { OPENCL_INTEROP_LIBRARY: '/nonexistent/libOpenCL.so' });
    expect(missing.status).toBe(3);
    expect(missing.stderr).toMatch(/No OpenCL library could be loaded/);
    const json = runCli(['info', '--json'], { OPENCL_INTEROP_LIBRARY: '/nonexistent/libOpenCL.so' });
    expect(JSON.parse(json.stdout).error.name).toBe('OpenCLNotAvailableError');
    expect(runCli(['frobnicate']).status).toBe(2);
    expect(runCli(['info', '--bogus']).status).toBe(2);
    const none = runCli(['info'], { OCL_ICD_VENDORS: emptyVendors });
    expect(none.stdout).toMatch(/No OpenCL platform was found/);
  });
});
