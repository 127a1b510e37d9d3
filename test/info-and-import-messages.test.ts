import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OpenCLImportError } from '../lib';
import { runProcess } from './helpers';

// What a newcomer reads: `opencl-interop info` with a broken ICD registry or
// a missing argument, and an import the driver refused with a status outside
// the spec.

const cli = resolve(__dirname, '../dist/cli.js');
const vendors = resolve(__dirname, '../cmake-build/vendors');

describe('opencl-interop info (the CLI), in fresh processes', () => {
  const folder = mkdtempSync(join(tmpdir(), 'icd-'));
  for (const name of readdirSync(vendors)) copyFileSync(join(vendors, name), join(folder, name));
  const bad = join(folder, 'broken.icd');
  writeFileSync(bad, Buffer.from('\0libpocl.so.2\n'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('a registry file that starts with a NUL byte (ocl-icd crashes on it) is skipped with a warning: the good drivers beside it are listed', async () => {
    const result = await runProcess(process.execPath, [cli, 'info'], { env: { OCL_ICD_VENDORS: folder } });
    expect(result.signal).toBeNull();
    expect(result.stderr).toContain(`warning: ICD registry file ${bad} starts with a NUL byte: skipped (the ICD loader crashes on it)`);
    expect(result.stdout).toContain('Portable Computing Language');
    expect(result.stdout).toContain('opencl-interop reference driver');
    expect(result.status).toBe(0);
    // The library itself still refuses to load such a registry (a typed OpenCLRegistryError, not a crash).
    const library = await runProcess(
      process.execPath,
      [
        '-e',
        `const ocl = require(${JSON.stringify(resolve(__dirname, '../dist/index.js'))});
       try { ocl.getPlatforms(); console.log('loaded'); } catch (e) { console.log(e.name); }`,
      ],
      { env: { OCL_ICD_VENDORS: folder } },
    );
    expect(library.stdout.trim()).toBe('OpenCLRegistryError');
  });

  it('--library without a path says so (it said "Unknown option: --library")', async () => {
    for (const args of [
      ['info', '--library'],
      ['info', '--library', '--json'],
    ]) {
      const result = await runProcess(process.execPath, [cli, ...args]);
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(/^--library needs the path of an OpenCL library \(an ICD loader or a driver\)/);
      expect(result.stderr).not.toContain('Unknown option');
    }
  });
});

describe('an import the driver refused with a status outside the spec (OpenCLImportError)', () => {
  it("a buffer import of more bytes than the handle's allocation (NVIDIA answers 1) says what probably went wrong; 999 still says the handle is not importable", () => {
    const tooLarge = new OpenCLImportError(
      1,
      'clCreateBufferWithProperties',
      'opaque-fd',
      'file descriptor 21',
      'memory exported as an opaque fd',
      8192,
    );
    expect(tooLarge.message).toBe(
      'clCreateBufferWithProperties failed: positive status 1 (1): the driver refused file descriptor 21 as a opaque-fd handle of 8192 bytes ' +
        '(with a status outside the OpenCL spec): most likely 8192 bytes is more than the allocation the handle was exported with ' +
        "(import at most that size: options.size, or the handle's size); else it is not memory exported as an opaque fd that this device can import",
    );
    const notAnExport = new OpenCLImportError(
      999,
      'clCreateBufferWithProperties',
      'opaque-fd',
      'file descriptor 21',
      'memory exported as an opaque fd',
      8192,
    );
    expect(notAnExport.message).toContain(
      '(with a status outside the OpenCL spec): it is not memory exported as an opaque fd that this device can import',
    );
  });
});
