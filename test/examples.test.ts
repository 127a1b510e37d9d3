import { existsSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { poclSetup, repoRoot, runProcess } from './helpers';

// The examples pick their own platforms as a user's script would: without the
// test run's OCL_ICD_VENDORS.
function run(script: string, args: string[] = [], env: NodeJS.ProcessEnv = {}) {
  return runProcess(process.execPath, [resolve(repoRoot, script), ...args], { cwd: repoRoot, env: { OCL_ICD_VENDORS: undefined, ...env } });
}

describe('examples and the demo, run as a user would', () => {
  it('npm run demo: finds the platforms, runs a kernel, converts an NV12 surface, inverts a D3D10 texture, says why it skips D3D11', async () => {
    const { status, stdout, stderr } = await run('examples/demo.mjs');
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(stdout).toMatch(/OpenCL: the system's OpenCL/);
    expect(stdout).toMatch(/Portable Computing Language .*\n\s+sharing extensions: none/);
    expect(stdout).toMatch(/float additions on .*\(Portable Computing Language\): correct/);
    expect(stdout).toMatch(/OpenCL on "opencl-interop reference driver" \(no installed driver supports cl_intel_va_api_media_sharing/);
    // No GPU here: the software VA driver, run by the real libva on an Xvfb the demo starts, stands in.
    expect(stdout).toMatch(
      /VA display: no VA display here \(.*\), so the test equipment stands in: the software VA driver run by libva on Xvfb :\d+/,
    );
    expect(stdout).toMatch(/320x180 NV12 surface created and uploaded through libva \(vaDeriveImage\)/);
    expect(stdout).toMatch(/first pixel RGBA 235,235,235,255/);
    expect(stdout).toMatch(/texture bytes 0x40 -> 0xbf; D3D reference count 1 before, 1 after/);
    // Real Direct3D 11 objects exist only on Windows (test/windows/examples.test.mjs runs the step under Wine).
    expect(stdout).toMatch(
      /4\. cl_khr_d3d11_sharing \/ cl_nv_d3d11_sharing: .*\n\s+skipped: Direct3D 11 objects exist only on Windows \(this is linux\)/,
    );
    const png = readFileSync(resolve(repoRoot, 'build/demo/nv12-to-rgba.png'));
    expect([...png.subarray(1, 4)].map((c) => String.fromCharCode(c)).join('')).toBe('PNG');
  });

  it('without libva, or without Xvfb to run the software VA driver on, the demo skips the VA step and says why', async () => {
    const noLibva = await run('examples/demo.mjs', [], { OPENCL_INTEROP_LIBVA: '/nonexistent/libva.so.2', DISPLAY: '' });
    expect(noLibva.stderr).toBe('');
    expect(noLibva.status).toBe(0);
    expect(noLibva.stdout).toMatch(
      /2\. cl_intel_va_api_media_sharing.*\n   skipped: libva is not installed \(apt-get install libva2 libva-drm2 libva-x11-2\)/,
    );
    expect(noLibva.stdout).toMatch(/texture bytes 0x40 -> 0xbf/);
    const bin = mkdtempSync(join(tmpdir(), 'no-xvfb-'));
    symlinkSync(process.execPath, join(bin, 'node'));
    const noXvfb = await run('examples/demo.mjs', [], { PATH: bin, DISPLAY: '' });
    expect(noXvfb.stderr).toBe('');
    expect(noXvfb.status).toBe(0);
    expect(noXvfb.stdout).toMatch(
      /skipped: no VA display \(.*DISPLAY is not set.*\), and Xvfb is not installed to run the software VA driver on \(apt-get install xvfb\)/,
    );
  });

  it('with no OpenCL library at all, the demo runs on the reference driver loaded by path and says so', async () => {
    const { status, stdout, stderr } = await run('examples/demo.mjs', [], { OPENCL_INTEROP_LIBRARY: '/nonexistent/libOpenCL.so.1' });
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(stdout).toMatch(/no OpenCL library could be loaded .* the reference driver was loaded by path/);
    expect(stdout).toMatch(/ran the built-in copy_buffer kernel on "opencl-interop reference driver": correct/);
  });

  it('each example runs on its own', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'examples-')), 'bars.png');
    const va = await run('examples/va-api-nv12-to-rgba.mjs', [out]);
    expect(va.stderr).toBe('');
    expect(va.stdout).toMatch(
      /Converted a 320x180 NV12 VA surface \(uploaded with vaDeriveImage\) to RGBA on "opencl-interop reference driver"; first pixel 235,235,235,255/,
    );
    expect(existsSync(out)).toBe(true);
    const dmabufOut = join(dirname(out), 'dmabuf.png');
    const dmabuf = await run('examples/va-api-dmabuf-import.mjs', [dmabufOut]);
    expect(dmabuf.stderr).toBe('');
    // The yellow square survives BGRA -> NV12 (written into the shared surface) -> RGBA within rounding.
    expect(dmabuf.stdout).toMatch(
      /Imported a 256x144 BGRA DMA-BUF frame \(1 fd, as Electron's paint event gives it\) as a VA surface, converted it to an NV12 VA surface with a kernel on "opencl-interop reference driver"; center pixel back in RGBA 23[3-7],(19[8-9]|20[0-3]),1[4-9],255/,
    );
    expect(existsSync(dmabufOut)).toBe(true);
    expect((await run('examples/d3d10-texture.mjs')).stdout).toMatch(/bytes 0x30 -> 0xcf/);
    expect((await run('examples/d3d9-texture.mjs')).stdout).toMatch(
      /Inverted mip level 1 \(32x32, RGBA\/UNORM_INT8\).*bytes 0x10 -> 0xef; level 0 untouched: 0x0/,
    );
    expect((await run('examples/vector-add.mjs')).stdout).toMatch(/1048576 additions on .*: correct/);
    for (const script of ['examples/d3d11-electron-shared-texture.mjs', 'examples/d3d11-nv12-to-rgba.mjs']) {
      const d3d11 = await run(script);
      expect([d3d11.status, d3d11.stderr]).toEqual([0, '']);
      expect(d3d11.stdout).toBe('Skipped: Direct3D 11 textures need Windows (createD3D11Device throws Direct3DUnavailableError here).\n');
    }
  });
});

describe("the examples' OpenCL C, for platforms with a compiler", () => {
  it("invert_image matches the reference driver's built-in (255 - b per channel); nv12_to_rgba and bgra_to_nv12 compile, on PoCL", async () => {
    const { invertImageSource } = await import('../examples/support/kernels.mjs');
    const { nv12ToRgbaSource } = await import('../examples/va-api-nv12-to-rgba.mjs');
    const { bgraToNv12Source } = await import('../examples/va-api-dmabuf-import.mjs');
    const { context, queue } = poclSetup();
    const nv12 = context.createProgram(nv12ToRgbaSource);
    await nv12.build();
    expect(nv12.kernelNames).toEqual(['nv12_to_rgba']);
    const bgra = context.createProgram(bgraToNv12Source);
    await bgra.build();
    expect(bgra.kernelNames).toEqual(['bgra_to_nv12']);
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

  it("vulkan-nv12-to-rgba's buffer kernel turns the Vulkan NV12 test frame into the RGBA its CPU conversion gives, planes as sub-buffers, on PoCL", async () => {
    const { nv12ToRgbaBuffersSource, rgbaOnCpu } = await import('../examples/vulkan-nv12-to-rgba.mjs');
    const { nv12TestFrame } = await import('../dist/index.js');
    const { context, queue } = poclSetup();
    const [width, height, frame] = [64, 32, 5];
    const { y, uv } = nv12TestFrame(frame, width, height);
    const nv12 = new Uint8Array(width * height * 1.5);
    nv12.set(y);
    nv12.set(uv, width * height);
    const planes = context.createBuffer(nv12);
    const yPlane = planes.createSubBuffer(0, width * height);
    const uvPlane = planes.createSubBuffer(width * height, (width * height) / 2);
    const rgba = context.createBuffer(width * height * 4);
    const program = context.createProgram(nv12ToRgbaBuffersSource);
    await program.build();
    const kernel = program.createKernel('nv12_to_rgba').setArgs(yPlane, uvPlane, rgba, ['uint', width / 4]);
    queue.enqueueKernel(kernel, [width / 4, height]).release();
    const out = new Uint32Array(width * height);
    queue.readBuffer(rgba, out, { blocking: true }).release();
    const want = rgbaOnCpu(frame, width, height);
    expect(out.findIndex((v, i) => v !== want[i])).toBe(-1);
    expect(new Set(want).size).toBeGreaterThan(100); // a frame of many colours, not one
    for (const o of [kernel, program, yPlane, uvPlane, planes, rgba, queue, context]) o.release();
  });
});
