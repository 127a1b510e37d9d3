// The Direct3D 11 examples and the demo (with its D3D11 step), run as a user
// runs them (`node examples/...`), in Windows node.exe with real Direct3D 11
// and the reference driver's DLL as the OpenCL library (OPENCL_INTEROP_LIBRARY).
// scripts/windows/test.sh stages them beside the win32 package as a checkout
// holds them (OPENCL_INTEROP_EXAMPLES names the folder); on Windows itself
// the checkout's examples/ are run.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const underWine = process.env.OPENCL_INTEROP_UNDER_WINE === '1';
const root = process.env.OPENCL_INTEROP_EXAMPLES ?? fileURLToPath(new URL('../../', import.meta.url));

function run(script, args = []) {
  const result = spawnSync(process.execPath, [resolve(root, script), ...args], { cwd: root, encoding: 'utf8', timeout: 300_000 });
  return { status: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

test('d3d11-electron-shared-texture.mjs: a texture shared by NT handle comes back inverted', () => {
  const { status, stdout, stderr } = run('examples/d3d11-electron-shared-texture.mjs');
  assert.equal(stderr, '');
  assert.equal(status, 0, stdout);
  assert.match(stdout, /^OpenCL: /m);
  if (underWine) {
    // Wine's dxgi has no IDXGIResource1: the example says so and processes the producer's texture.
    assert.match(stdout, /This Direct3D 11 cannot share by NT handle \(QueryInterface\(IDXGIResource1\) failed: E_NOINTERFACE \(0x80004002\)\)/);
    assert.match(
      stdout,
      /Inverted a 64x32 BGRA\/UNORM_INT8 D3D11 texture on the producer device \(no NT handle\) on "opencl-interop reference driver" \(cl_khr_d3d11_sharing\): every byte inverted/,
    );
  } else {
    assert.match(stdout, /Inverted a 64x32 BGRA\/UNORM_INT8 D3D11 texture opened by NT handle on a second D3D11 device on ".*": every byte inverted/);
  }
});

test("d3d11-nv12-to-rgba.mjs: an NV12 texture's planes converted to RGBA, every pixel as on the CPU, a PNG written", () => {
  const out = join(tmpdir(), `d3d11-nv12-${process.pid}.png`);
  rmSync(out, { force: true });
  const { status, stdout, stderr } = run('examples/d3d11-nv12-to-rgba.mjs', [out]);
  assert.equal(stderr, '');
  assert.equal(status, 0, stdout);
  if (underWine) assert.match(stdout, /did not copy NV12 data into a DEFAULT texture \(as Wine's d3d11\); using a STAGING NV12 texture instead/);
  assert.match(
    stdout,
    /Converted a 320x180 NV12 D3D11 texture \((default|staging)\) to RGBA on ".*" \(cl_(khr|nv)_d3d11_sharing, Y and UV planes as subresources 0 and 1\): every pixel as computed on the CPU; first pixel RGBA 235,235,235,255/,
  );
  assert.ok(existsSync(out));
  assert.equal(readFileSync(out).subarray(1, 4).toString('latin1'), 'PNG');
  rmSync(out, { force: true });
});

test('npm run demo: every Windows step runs, the D3D11 one with real Direct3D 11 objects; the VA step says VA-API is Linux-only', () => {
  const { status, stdout, stderr } = run('examples/demo.mjs');
  assert.equal(stderr, '');
  assert.equal(status, 0, stdout);
  assert.match(stdout, /sharing extensions: .*cl_khr_d3d11_sharing/);
  assert.match(
    stdout,
    /2\. cl_intel_va_api_media_sharing: NV12 VA surface -> RGBA\n   skipped: VA-API \(libva\) exists on Linux only; this is win32/,
  );
  assert.match(stdout, /texture bytes 0x40 -> 0xbf/);
  assert.match(stdout, /4\. cl_khr_d3d11_sharing \/ cl_nv_d3d11_sharing: a D3D11 texture shared by NT handle/);
  assert.match(stdout, /Inverted a 64x32 BGRA\/UNORM_INT8 D3D11 texture .*: every byte inverted/);
  assert.equal(stdout.match(/skipped/g)?.length, 1, stdout);
});
