import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { poclSetup, repoRoot } from './helpers';

// The examples pick their own platforms as a user's script would: without the
// test run's OCL_ICD_VENDORS.
function run(script: string, args: string[] = [], env: NodeJS.ProcessEnv = {}) {
  const { OCL_ICD_VENDORS: _ignored, ...base } = process.env;
  return spawnSync(process.execPath, [resolve(repoRoot, script), ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...base, ...env },
    timeout: 120_000,
  });
}

describe('examples and the demo, run as a user would', () => {
  it('npm run demo: finds the platforms, runs a kernel, converts an NV12 surface, inverts a D3D10 texture, says why it skips D3D11', () => {
    const { status, stdout, stderr } = run('examples/demo.mjs');
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(stdout).toMatch(/OpenCL: the system's OpenCL/);
    expect(stdout).toMatch(/Portable Computing Language .*\n\s+sharing extensions: none/);
    expect(stdout).toMatch(/float additions on .*\(Portable Computing Language\): correct/);
    expect(stdout).toMatch(/on "opencl-interop reference driver" \(no installed driver supports cl_intel_va_api_media_sharing/);
    expect(stdout).toMatch(/first pixel RGBA 235,235,235,255/);
    expect(stdout).toMatch(/texture bytes 0x40 -> 0xbf; D3D reference count 1 before, 1 after/);
    // Real Direct3D 11 objects exist only on Windows (test/windows/examples.test.mjs runs the step under Wine).
    expect(stdout).toMatch(/4\. cl_khr_d3d11_sharing \/ cl_nv_d3d11_sharing: .*\n\s+skipped: Direct3D 11 objects exist only on Windows \(this is linux\)/);
    const png = readFileSync(resolve(repoRoot, 'build/demo/nv12-to-rgba.png'));
    expect([...png.subarray(1, 4)].map((c) => String.fromCharCode(c)).join('')).toBe('PNG');
  });

  it('with no OpenCL library at all, the demo runs on the reference driver loaded by path and says so', () => {
    const { status, stdout, stderr } = run('examples/demo.mjs', [], { OPENCL_INTEROP_LIBRARY: '/nonexistent/libOpenCL.so.1' });
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(stdout).toMatch(/no OpenCL library could be loaded .* the reference driver was loaded by path/);
    expect(stdout).toMatch(/ran the built-in copy_buffer kernel on "opencl-interop reference driver": correct/);
  });

  it('each example runs on its own', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'examples-')), 'bars.png');
    const va = run('examples/va-api-nv12-to-rgba.mjs', [out]);
    expect(va.stderr).toBe('');
    expect(va.stdout).toMatch(/Converted a 320x180 NV12 VA surface to RGBA/);
    expect(existsSync(out)).toBe(true);
    expect(run('examples/d3d10-texture.mjs').stdout).toMatch(/bytes 0x30 -> 0xcf/);
    expect(run('examples/d3d9-texture.mjs').stdout).toMatch(/Inverted mip level 1 \(32x32, RGBA\/UNORM_INT8\).*bytes 0x10 -> 0xef; level 0 untouched: 0x0/);
    expect(run('examples/vector-add.mjs').stdout).toMatch(/1048576 additions on .*: correct/);
    for (const script of ['examples/d3d11-electron-shared-texture.mjs', 'examples/d3d11-nv12-to-rgba.mjs']) {
      const d3d11 = run(script);
      expect([d3d11.status, d3d11.stderr]).toEqual([0, '']);
      expect(d3d11.stdout).toBe('Skipped: Direct3D 11 textures need Windows (createD3D11Device throws Direct3DUnavailableError here).\n');
    }
  });
});

describe('the examples\' OpenCL C, for platforms with a compiler', () => {
  it('invert_image matches the reference driver\'s built-in (255 - b per channel) and nv12_to_rgba compiles, on PoCL', async () => {
    const { invertImageSource } = await import('../examples/support/kernels.mjs');
    const { nv12ToRgbaSource } = await import('../examples/va-api-nv12-to-rgba.mjs');
    const { context, queue } = poclSetup();
    const nv12 = context.createProgram(nv12ToRgbaSource);
    await nv12.build();
    expect(nv12.kernelNames).toEqual(['nv12_to_rgba']);
    const program = context.createProgram(invertImageSource);
    await program.build();
    const pixels = Uint8Array.from({ length: 8 * 4 * 4 }, (_, i) => (i * 13) & 0xff);
    const src = context.createImage({ format: { order: 'RGBA', type: 'UNORM_INT8' }, width: 8, height: 4, data: pixels });
    const dst = context.createImage({ format: { order: 'RGBA', type: 'UNORM_INT8' }, width: 8, height: 4 });
    queue.enqueueKernel(program.createKernel('invert_image').setArgs(src, dst), [8, 4]);
    const out = new Uint8Array(pixels.length);
    queue.readImage(dst, out, { blocking: true });
    expect([...out]).toEqual([...pixels].map((v) => 255 - v));
    queue.release();
    context.release();
  });
});
