// The VA module through the public API, on the real libva: the software VA
// driver (test/va-driver) loaded through LIBVA_DRIVER_NAME/LIBVA_DRIVERS_PATH,
// on an X11 display served by Xvfb. Test names cite va.h / va_drmcommon.h /
// va_x11.h / va_drm.h (libva 2.x).
import { closeSync, copyFileSync, fstatSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import koffi from 'koffi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OpenCLReleasedError,
  VaDisplay,
  VaDisplayError,
  VaDmaBuf,
  VaError,
  VaNotAvailableError,
  VaSurface,
  fourccCode,
  fourccText,
  getPlatforms,
  loadLibva,
  loadedLibva,
  openVaDisplay,
  vaFourccs,
  vaPlaneSizes,
  vaStatusName,
  type VaFourcc,
} from '../lib';
import { ready } from '../lib/loader';
import { repoRoot, runNode } from './helpers';
import { SOFTVA_VENDOR, type Xvfb, softvaEnv, startXvfb, useSoftva } from './helpers/va';

let xvfb: Xvfb;
beforeAll(async () => {
  xvfb = await startXvfb();
  useSoftva(xvfb.display);
});
afterAll(async () => {
  await xvfb?.stop();
});

const pattern = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 7 + seed * 13 + (i >> 5)) & 0xff);
const packedSize = (format: VaFourcc, w: number, h: number, plane: number) => {
  const p = vaPlaneSizes(format, w, h)[plane]!;
  return p.bytesPerRow * p.height;
};

/** A fresh process with the software driver on this test's Xvfb. */
function runVa(code: string, env: Record<string, string | undefined> = {}, args: string[] = []) {
  return runNode(code, { env: { ...softvaEnv(xvfb.display), ...env }, args });
}

describe('libva loaded at run time', () => {
  it('libva 2.x: loadLibva() loads libva.so.2 with libva-drm.so.2 and libva-x11.so.2; twice is the same library', () => {
    const loaded = loadLibva();
    expect(loaded.path).toBe('libva.so.2');
    expect(loaded.drm).toBe('libva-drm.so.2');
    expect(loaded.x11).toBe('libva-x11.so.2');
    expect(loadLibva()).toEqual(loaded);
    expect(loadedLibva()).toEqual(loaded);
    expect(() => loadLibva({ library: '/elsewhere/libva.so.2' })).toThrow(VaNotAvailableError);
    expect(() => loadLibva({ library: '' })).toThrow(TypeError);
    expect(() => loadLibva(7 as never)).toThrow(TypeError);
  });

  it('libva missing (OPENCL_INTEROP_LIBVA names no library): one VaNotAvailableError naming libva2; OpenCL still works', async () => {
    const result = await runVa(
      `try { ocl.openVaDisplay(); } catch (e) { console.log(JSON.stringify({ name: e.name, message: e.message, attempts: e.attempts })); }
       console.log('platforms', ocl.getPlatforms().length > 0);
       try { ocl.VaDisplay.adopt(1n); } catch (e) { console.log('again', e.name); }`,
      { OPENCL_INTEROP_LIBVA: '/nonexistent/libva.so.2' },
    );
    expect(result.status).toBe(0);
    const report = JSON.parse(result.stdout.split('\n')[0]!);
    expect(report.name).toBe('VaNotAvailableError');
    expect(report.message).toContain('apt-get install libva2 libva-drm2 libva-x11-2');
    expect(report.attempts[0].path).toBe('/nonexistent/libva.so.2 (from OPENCL_INTEROP_LIBVA)');
    expect(result.stdout).toContain('platforms true');
    expect(result.stdout).toContain('again VaNotAvailableError');
  });

  it('libva hidden by a library path that holds another libva.so.2 (no vaInitialize): VaNotAvailableError says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'no-libva-'));
    try {
      // Any shared object that is not libva, under libva's name, first on the loader's path.
      copyFileSync('/usr/lib/x86_64-linux-gnu/libOpenCL.so.1', join(dir, 'libva.so.2'));
      const result = await runVa(`try { ocl.loadLibva(); } catch (e) { console.log(e.name); console.log(e.message); }`, { LD_LIBRARY_PATH: dir });
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(/^VaNotAvailableError\n/);
      expect(result.stdout).toContain('libva.so.2: the library has no vaInitialize');
      expect(result.stdout).toContain('libva2');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('displays', () => {
  it('va_x11.h vaGetDisplay + vaInitialize: an X11 display runs the driver LIBVA_DRIVER_NAME names; vendor and versions', () => {
    using display = openVaDisplay({ kind: 'x11' });
    expect(display).toBeInstanceOf(VaDisplay);
    expect(display.kind).toBe('x11');
    expect(display.source).toBe(xvfb.display);
    expect(display.vendor).toBe(SOFTVA_VENDOR);
    expect(display.version).toEqual({ major: 1, minor: 0 });
    expect(display.libvaVersion!.major).toBe(1);
    expect(display.libvaVersion!.minor).toBeGreaterThanOrEqual(0);
    expect(typeof display.address).toBe('bigint');
    expect(display.address).not.toBe(0n);
  });

  it('auto: without a render node (no /dev/dri here) the X11 display opens; x11Display names one', () => {
    using a = openVaDisplay();
    expect(['drm', 'x11']).toContain(a.kind);
    using b = VaDisplay.open({ x11Display: xvfb.display });
    expect(b.kind).toBe('x11');
  });

  it("va.h vaQueryConfigProfiles / vaQueryConfigEntrypoints: profiles() with libva's names", () => {
    using display = openVaDisplay({ kind: 'x11' });
    expect(display.profiles()).toEqual([{ profile: -1, name: 'VAProfileNone', entrypoints: [{ entrypoint: 10, name: 'VAEntrypointVideoProc' }] }]);
  });

  it('va.h vaQueryImageFormats: imageFormats() with fourccs, bits and RGB masks', () => {
    using display = openVaDisplay({ kind: 'x11' });
    const formats = display.imageFormats();
    expect(formats.map((f) => f.fourcc)).toEqual(['NV12', 'P010', 'YV12', 'I420', 'BGRA', 'BGRX', 'RGBA', 'RGBX']);
    expect(formats[0]).toMatchObject({ fourcc: 'NV12', code: fourccCode('NV12'), bitsPerPixel: 12, byteOrder: 'lsb-first' });
    expect(formats[4]).toMatchObject({ fourcc: 'BGRA', depth: 32, redMask: 0xff0000, greenMask: 0xff00, blueMask: 0xff, alphaMask: 0xff000000 });
  });

  it('va.h vaQuerySurfaceAttributes (VASurfaceAttribPixelFormat): surfaceFormats() lists the render-target formats', () => {
    using display = openVaDisplay({ kind: 'x11' });
    expect(display.surfaceFormats()).toEqual(['NV12', 'P010', 'YV12', 'I420', 'BGRA', 'BGRX', 'RGBA', 'RGBX']);
  });

  it('no display: every way tried is named (no /dev/dri render node, DISPLAY not set)', async () => {
    const result = await runVa(
      `try { ocl.openVaDisplay(); } catch (e) { console.log(JSON.stringify({ name: e.name, message: e.message, attempts: e.attempts })); }`,
      { DISPLAY: undefined },
    );
    const report = JSON.parse(result.stdout);
    expect(report.name).toBe('VaDisplayError');
    expect(report.attempts).toEqual([
      {
        kind: 'drm',
        target: '/dev/dri/renderD*',
        reason: expect.stringMatching(/^no render node: \/dev\/dri (does not exist|has no renderD\* entry)/),
      },
      { kind: 'x11', target: '', reason: 'DISPLAY is not set (no X server to ask)' },
    ]);
    expect(report.message).toContain('OPENCL_INTEROP_VA_DEVICE');
  });

  it('va_drm.h vaGetDisplayDRM: a file that is not a DRM device, a missing file, and the variable naming one', async () => {
    const err = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return error as VaDisplayError;
      }
      throw new Error('expected a VaDisplayError');
    };
    const notDrm = err(() => openVaDisplay({ kind: 'drm', device: '/dev/null' }));
    expect(notDrm).toBeInstanceOf(VaDisplayError);
    expect(notDrm.attempts).toEqual([
      { kind: 'drm', target: '/dev/null', reason: 'vaGetDisplayDRM: libva refused the file: it is not a DRM device' },
    ]);
    const missing = err(() => openVaDisplay({ device: '/dev/dri/renderD999' }));
    expect(missing.attempts).toEqual([{ kind: 'drm', target: '/dev/dri/renderD999', reason: 'open: No such file or directory' }]);
    // A render node named explicitly (option or variable) is not silently replaced by X11.
    const result = await runVa(`try { ocl.openVaDisplay(); } catch (e) { console.log(JSON.stringify(e.attempts)); }`, {
      OPENCL_INTEROP_VA_DEVICE: '/dev/null',
    });
    expect(JSON.parse(result.stdout)).toEqual([
      { kind: 'drm', target: '/dev/null', reason: 'vaGetDisplayDRM: libva refused the file: it is not a DRM device' },
    ]);
  });

  it("X11: no server at the name, and a driver libva cannot load (vaInitialize fails with libva's own message)", async () => {
    expect(() => openVaDisplay({ kind: 'x11', x11Display: ':4093' })).toThrow(
      expect.objectContaining({ attempts: [{ kind: 'x11', target: ':4093', reason: 'XOpenDisplay: no X server answered' }] }),
    );
    const result = await runVa(
      `try { ocl.openVaDisplay({ kind: 'x11' }); } catch (e) { console.log(JSON.stringify({ status: e.status, attempts: e.attempts })); }`,
      {
        LIBVA_DRIVER_NAME: 'no_such_driver',
      },
    );
    const report = JSON.parse(result.stdout);
    expect(report.attempts[0].reason).toMatch(/^vaInitialize failed: VA_STATUS_ERROR_\w+ \(\d+\)/);
    expect(report.status).toBeGreaterThan(0);
  });

  it('options are checked: kinds, names and unknown keys are typed errors naming the option', () => {
    expect(() => openVaDisplay({ kind: 'wayland' as never })).toThrow(
      new TypeError("options.kind must be 'auto', 'drm', 'x11'; got the string \"wayland\""),
    );
    expect(() => openVaDisplay({ device: 3 as never })).toThrow(new TypeError('options.device must be a non-empty string; got number 3'));
    expect(() => openVaDisplay({ kind: 'x11', device: '/dev/dri/renderD128' })).toThrow(TypeError);
    expect(() => openVaDisplay({ drm: true } as never)).toThrow(
      new TypeError('options.drm is not an option; the options are kind, device, x11Display'),
    );
    expect(() => openVaDisplay('x11' as never)).toThrow(TypeError);
  });

  it('an array is not an options object (lib/validate.ts, as in the Direct3D module)', () => {
    expect(() => openVaDisplay([] as never)).toThrow(new TypeError('options must be an object; got an array of 0'));
    expect(() => VaDisplay.adopt(1n, [] as never)).toThrow(new TypeError('options must be an object; got an array of 0'));
  });
});

describe('adopting a VADisplay another library made', () => {
  const x11 = koffi.load('libX11.so.6');
  const libvaX11 = koffi.load('libva-x11.so.2');
  const libvaCore = koffi.load('libva.so.2');
  const XOpenDisplay = x11.func('void *XOpenDisplay(const char *)');
  const vaGetDisplay = libvaX11.func('void *vaGetDisplay(void *)');
  const vaInitialize = libvaCore.func('int vaInitialize(void *, _Out_ int *, _Out_ int *)');
  const vaQueryVendorString = libvaCore.func('const char *vaQueryVendorString(void *)');

  /** A display made by "another library" (koffi calling libva), initialized or not. */
  // libva may give another library's new display the address of one this module terminated earlier in the file;
  // adopt() refuses such an address by design (docs/va-api.md), so these tests take one it has not used: the
  // displays skipped stay alive, so that their addresses are not handed out again.
  const skipped: unknown[] = [];
  function foreignDisplay(initialize: boolean): { handle: unknown; address: bigint } {
    for (;;) {
      const handle = vaGetDisplay(XOpenDisplay(xvfb.display));
      const address = koffi.address(handle) as bigint;
      if (ready().vaTerminated(address) !== null && skipped.length < 16) {
        skipped.push(handle);
        continue;
      }
      if (initialize) expect(vaInitialize(handle, [0], [0])).toBe(0);
      return { handle, address };
    }
  }

  it('a live display is adopted and used, and never terminated by dispose() (its owner still uses it)', () => {
    const foreign = foreignDisplay(true);
    const adopted = VaDisplay.adopt(foreign.address);
    expect(adopted.kind).toBe('adopted');
    expect(adopted.vendor).toBe(SOFTVA_VENDOR);
    expect(adopted.libvaVersion).toBeNull();
    expect(adopted.version).toEqual({ major: 1, minor: 0 });
    const surface = adopted.createSurface({ width: 16, height: 16 });
    surface.writePlane(0, pattern(256, 1));
    expect(surface.readPlane(0)).toEqual(pattern(256, 1));
    surface.dispose();
    adopted.dispose();
    expect(vaQueryVendorString(foreign.handle)).toBe(SOFTVA_VENDOR);
  });

  it("FFmpeg's AVVAAPIDeviceContext (node-av hwctx): the VADisplay is read from its first member", () => {
    const foreign = foreignDisplay(true);
    const context = koffi.alloc('uint64_t', 4);
    koffi.encode(context, 'uint64_t', foreign.address);
    using adopted = VaDisplay.adopt(koffi.address(context) as bigint, { from: 'AVVAAPIDeviceContext' });
    expect(adopted.address).toBe(foreign.address);
    expect(adopted.vendor).toBe(SOFTVA_VENDOR);
    koffi.encode(context, 'uint64_t', 0n);
    expect(() => VaDisplay.adopt(koffi.address(context) as bigint, { from: 'AVVAAPIDeviceContext' })).toThrow(/holds a null VADisplay/);
    koffi.free(context);
  });

  it('va.h vaDisplayIsValid is only asked once the memory is known to be a display: unreadable, not a display, damaged, not initialized', () => {
    const err = (address: bigint) => {
      try {
        VaDisplay.adopt(address);
      } catch (error) {
        expect(error).toBeInstanceOf(VaDisplayError);
        return (error as VaDisplayError).message;
      }
      throw new Error('adopted');
    };
    expect(err(0x1234n)).toBe('0x1234 is not a live VADisplay: the VADisplay address is not readable memory');
    expect(err(0xffff_ffff_ffff_f000n)).toMatch(/not readable memory/);
    const zeros = koffi.alloc('uint64_t', 16);
    expect(err(koffi.address(zeros) as bigint)).toMatch(/no VADisplay there \(its first word is 0x00000000, a VADisplay's is 0x56414430\)/);
    // The magic word, but no driver context; then a driver context but a garbage vaIsValid.
    koffi.encode(zeros, 'uint32_t', 0x56414430);
    expect(err(koffi.address(zeros) as bigint)).toMatch(/destroyed or is damaged/);
    const junk = koffi.alloc('uint64_t', 32);
    koffi.encode(zeros, 16, 'uint64_t', koffi.address(junk));
    koffi.encode(zeros, 24, 'uint64_t', 0x1000n);
    expect(err(koffi.address(zeros) as bigint)).toMatch(/destroyed or is damaged/);
    koffi.free(zeros);
    koffi.free(junk);
    const uninitialized = foreignDisplay(false);
    expect(err(uninitialized.address)).toMatch(/not initialized \(vaInitialize was not called on it, or vaTerminate was\)/);
    expect(() => VaDisplay.adopt(0n)).toThrow(TypeError);
    expect(() => VaDisplay.adopt(1234 as never)).toThrow(
      new TypeError("address must be a non-zero bigint (the VADisplay's address); got number 1234"),
    );
    expect(() => VaDisplay.adopt(1n, { from: 'FFmpeg' as never })).toThrow(TypeError);
  });

  it('garbage addresses in a fresh process: typed errors, never a crash', async () => {
    const result = await runVa(`
      const out = [];
      for (const a of [1n, 0x10n, 0x7fffffffffffn, 0xdeadbeefn, 0xffffffffffffffffn, BigInt(process.memoryUsage().rss)]) {
        for (const from of ['VADisplay', 'AVVAAPIDeviceContext']) {
          try { ocl.VaDisplay.adopt(a, { from }); out.push('adopted'); } catch (e) { out.push(e.name); }
        }
      }
      console.log(out.join(','));`);
    expect(result.signal).toBeNull();
    expect(result.status).toBe(0);
    expect(result.stdout.trim().split(',')).toEqual(Array(12).fill('VaDisplayError'));
  });

  it('adopting a display this module opened shares it: it stays alive while the adopted object does', () => {
    const display = openVaDisplay({ kind: 'x11' });
    const adopted = VaDisplay.adopt(display.address);
    display.dispose();
    expect(adopted.vendor).toBe(SOFTVA_VENDOR);
    using surface = adopted.createSurface({ width: 8, height: 8 });
    expect(surface.status).toBe('ready');
    adopted.dispose();
  });
});

describe('surfaces', () => {
  let display: VaDisplay;
  beforeAll(() => {
    display = openVaDisplay({ kind: 'x11' });
  });
  afterAll(() => display.dispose());

  it('va.h vaCreateSurfaces: NV12 by default, and every render-target format the driver offers; each plane written and read back (vaDeriveImage + vaMapBuffer)', () => {
    const offered = display.surfaceFormats().filter((f): f is VaFourcc => (vaFourccs as readonly string[]).includes(f));
    expect(offered.length).toBe(8);
    using nv12 = display.createSurface({ width: 34, height: 18 });
    expect(nv12.format).toBe('NV12');
    for (const format of offered) {
      using surface = display.createSurface({ width: 34, height: 18, format });
      expect(surface).toBeInstanceOf(VaSurface);
      expect(surface.format).toBe(format);
      const planes = surface.planes.map((_, i) => pattern(packedSize(format, 34, 18, i), i + format.charCodeAt(0)));
      surface.write(planes);
      expect(surface.lastTransfer).toBe('derive');
      expect(surface.read()).toEqual(planes);
    }
  });

  it('vaCreateSurfaces with a count: several surfaces in one call, distinct ids', () => {
    const surfaces = display.createSurfaces(3, { width: 16, height: 16, format: 'BGRA' });
    expect(new Set(surfaces.map((s) => s.id)).size).toBe(3);
    for (const s of surfaces) s.dispose();
    expect(() => display.createSurfaces(0, { width: 16, height: 16 })).toThrow(RangeError);
  });

  it("a format the driver does not offer is the driver's VaError with its reason", () => {
    expect(() => display.createSurface({ width: 16, height: 16, format: 'YUY2' })).toThrow(
      expect.objectContaining({
        name: 'VaError',
        code: 'VA_STATUS_ERROR_UNSUPPORTED_RT_FORMAT',
        call: 'vaCreateSurfaces',
        detail: expect.stringContaining('0x2'),
      }),
    );
  });

  it("planes with a row pitch, and reads into the caller's array", () => {
    using surface = display.createSurface({ width: 10, height: 4 });
    const pitched = new Uint8Array(16 * 3 + 10).fill(0xee);
    for (let r = 0; r < 4; r++) pitched.set(pattern(10, r), r * 16);
    surface.writePlane(0, pitched, { pitch: 16 });
    const into = new Uint8Array(12 * 4).fill(1);
    expect(surface.readPlane(0, { into, pitch: 12 })).toBe(into);
    for (let r = 0; r < 4; r++) {
      expect(into.subarray(r * 12, r * 12 + 10)).toEqual(pattern(10, r));
      if (r < 3) expect(into.subarray(r * 12 + 10, r * 12 + 12)).toEqual(new Uint8Array([1, 1]));
    }
    // Any typed array or ArrayBuffer: a Uint16Array is bytes like any other.
    surface.writePlane(1, new Uint16Array(10).fill(0x0102).buffer);
    expect(surface.readPlane(1)).toEqual(Uint8Array.from({ length: 20 }, (_, i) => (i % 2 ? 1 : 2)));
  });

  it('va.h vaCreateImage + vaGetImage / vaPutImage: method "image", and "auto" falls back when vaDeriveImage cannot map the surface', () => {
    using surface = display.createSurface({ width: 16, height: 8 });
    surface.write([pattern(128, 1), pattern(64, 2)], { method: 'image' });
    expect(surface.lastTransfer).toBe('image');
    // The image path keeps the planes it does not write.
    surface.writePlane(1, pattern(64, 9), { method: 'image' });
    expect(surface.readPlane(0, { method: 'derive' })).toEqual(pattern(128, 1));
    expect(surface.readPlane(1, { method: 'image' })).toEqual(pattern(64, 9));

    process.env.SOFTVA_NO_DERIVE = '1'; // read by the driver at vaInitialize
    try {
      using noDerive = openVaDisplay({ kind: 'x11' });
      using s = noDerive.createSurface({ width: 16, height: 8 });
      s.write([pattern(128, 3), pattern(64, 4)]);
      expect(s.lastTransfer).toBe('image');
      expect(s.read()).toEqual([pattern(128, 3), pattern(64, 4)]);
      expect(() => s.readPlane(0, { method: 'derive' })).toThrow(
        expect.objectContaining({ code: 'VA_STATUS_ERROR_OPERATION_FAILED', call: 'vaDeriveImage' }),
      );
    } finally {
      delete process.env.SOFTVA_NO_DERIVE;
    }
  });

  it('va.h vaSyncSurface and vaQuerySurfaceStatus: sync() and status', () => {
    using surface = display.createSurface({ width: 8, height: 8 });
    surface.sync();
    expect(surface.status).toBe('ready');
  });

  it('bad planes and data are typed errors naming what was expected and what was given', () => {
    using surface = display.createSurface({ width: 32, height: 16 });
    expect(() => surface.writePlane(2, new Uint8Array(512))).toThrow(
      new RangeError('plane must be an integer from 0 to 1 for NV12 (2 planes); got number 2'),
    );
    expect(() => surface.readPlane(-1)).toThrow(RangeError);
    expect(() => surface.readPlane('0' as never)).toThrow(
      new RangeError('plane must be an integer from 0 to 1 for NV12 (2 planes); got the string "0"'),
    );
    expect(() => surface.writePlane(0, new Uint8Array(511))).toThrow(
      new RangeError('plane 0 of a 32x16 NV12 surface is 16 rows of 32 bytes: data needs 512 bytes; it has 511'),
    );
    expect(() => surface.writePlane(1, new Uint8Array(256), { pitch: 31 })).toThrow(
      new RangeError('options.pitch must be an integer of at least 32 (bytes in a row of plane 1); got number 31'),
    );
    expect(() => surface.writePlane(0, 'bytes' as never)).toThrow(TypeError);
    expect(() => surface.writePlane(0, new Uint8Array(512), { method: 'copy' as never })).toThrow(TypeError);
    expect(() => surface.writePlane(0, new Uint8Array(512), { into: new Uint8Array(1) } as never)).toThrow(
      new TypeError('options.into is not an option; the options are pitch, method'),
    );
    expect(() => surface.write([new Uint8Array(512)])).toThrow(TypeError);
    expect(() => display.createSurface({ width: 0, height: 16 })).toThrow(
      new RangeError('options.width must be an integer from 1 to 65535; got number 0'),
    );
    expect(() => display.createSurface({ width: 16, height: 16, format: 'MJPG' as never })).toThrow(TypeError);
    expect(() => display.createSurface(undefined as never)).toThrow(TypeError);
  });

  it('a transferred (detached) buffer is a typed error, not a read of freed memory', () => {
    using surface = display.createSurface({ width: 8, height: 8 });
    const data = new Uint8Array(64);
    structuredClone(data.buffer, { transfer: [data.buffer] });
    expect(() => surface.writePlane(0, data)).toThrow(
      new TypeError('data is a view of a detached ArrayBuffer (it was transferred): its bytes are gone'),
    );
  });
});

describe('DMA-BUF export and import (va_drmcommon.h)', () => {
  let display: VaDisplay;
  beforeAll(() => {
    display = openVaDisplay({ kind: 'x11' });
  });
  afterAll(() => display.dispose());

  it('vaExportSurfaceHandle (VA_SURFACE_ATTRIB_MEM_TYPE_DRM_PRIME_2): composed and separate layers; the descriptor owns its fds', () => {
    using surface = display.createSurface({ width: 32, height: 16 });
    const composed = surface.exportDmaBuf();
    expect(composed).toBeInstanceOf(VaDmaBuf);
    expect(composed).toMatchObject({ format: 'NV12', width: 32, height: 16 });
    expect(composed.objects).toHaveLength(1);
    expect(composed.objects[0]!.modifier).toBe(0n);
    expect(composed.layers).toEqual([
      { drmFormat: 'NV12', planes: [expect.objectContaining({ object: 0, offset: 0 }), expect.objectContaining({ object: 0 })] },
    ]);
    const separate = surface.exportDmaBuf({ layers: 'separate', access: 'read' });
    expect(separate.layers.map((l) => l.drmFormat)).toEqual(['R8  ', 'GR88']);
    const fd = composed.objects[0]!.fd;
    expect(fstatSync(fd).size).toBe(composed.objects[0]!.size);
    composed.close();
    composed.close();
    expect(composed.closed).toBe(true);
    expect(() => fstatSync(fd)).toThrow(/EBADF/);
    expect(() => composed.toImport()).toThrow(TypeError);
    separate[Symbol.dispose]();
    expect(() => surface.exportDmaBuf({ layers: 'both' as never })).toThrow(TypeError);
  });

  it('export then import (DRM PRIME 2): the two surfaces share memory, written through one and read through the other', () => {
    using source = display.createSurface({ width: 32, height: 16 });
    using dmabuf = source.exportDmaBuf();
    using imported = display.importDmaBuf(dmabuf);
    expect(imported.imported).toBe(true);
    expect(imported.id).not.toBe(source.id);
    source.write([pattern(512, 5), pattern(256, 6)]);
    expect(imported.read()).toEqual([pattern(512, 5), pattern(256, 6)]);
    imported.writePlane(1, pattern(256, 7));
    expect(source.readPlane(1)).toEqual(pattern(256, 7));
  });

  it("VASurfaceAttribExternalBuffers (DRM PRIME) and PRIME 2 import of planes in a memory file, as Electron's nativePixmap gives them", () => {
    const dir = mkdtempSync(join(tmpdir(), 'dmabuf-'));
    try {
      // A BGRA frame, 8x4, rows 64 bytes apart, at offset 128 of the file.
      const file = join(dir, 'frame');
      const bytes = new Uint8Array(128 + 64 * 4);
      for (let r = 0; r < 4; r++) bytes.set(pattern(32, r), 128 + r * 64);
      writeFileSync(file, bytes);
      const fd = openSync(file, 'r+');
      for (const memoryType of ['drm-prime', 'drm-prime-2'] as const) {
        using surface = display.importDmaBuf({
          format: 'BGRA',
          width: 8,
          height: 4,
          planes: [{ fd, offset: 128, pitch: 64, size: 64 * 4 }],
          modifier: '0',
          memoryType,
        });
        const read = surface.readPlane(0);
        for (let r = 0; r < 4; r++) expect(read.subarray(r * 32, r * 32 + 32)).toEqual(pattern(32, r));
      }
      // NV12 with both planes in one fd; the fd stays the caller's.
      using nv12 = display.importDmaBuf({
        format: 'NV12',
        width: 8,
        height: 4,
        planes: [
          { fd, pitch: 8 },
          { fd, offset: 32, pitch: 8 },
        ],
      });
      expect(nv12.readPlane(1)).toEqual(bytes.subarray(32, 48));
      expect(fstatSync(fd).isFile()).toBe(true);
      closeSync(fd);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('bad imports: wrong plane count, short pitch or size, closed fd, an fd that cannot be mapped, tiled modifiers', async () => {
    const base = { format: 'NV12' as const, width: 16, height: 16 };
    expect(() => display.importDmaBuf({ ...base, planes: [{ fd: 0, pitch: 16 }] })).toThrow(
      new TypeError('planes must be an array of 2 planes for NV12; got an array of 1'),
    );
    expect(() =>
      display.importDmaBuf({
        ...base,
        planes: [
          { fd: 0, pitch: 8 },
          { fd: 0, pitch: 16 },
        ],
      }),
    ).toThrow(new RangeError('planes[0].pitch 8 is less than the 16 bytes a row of plane 0 of a 16x16 NV12 surface holds'));
    expect(() =>
      display.importDmaBuf({
        ...base,
        planes: [
          { fd: 0, pitch: 16, size: 100 },
          { fd: 0, pitch: 16 },
        ],
      }),
    ).toThrow(new RangeError('planes[0].size 100 is less than the 256 bytes its 16 rows need'));
    expect(() =>
      display.importDmaBuf({
        ...base,
        planes: [
          { fd: -1, pitch: 16 },
          { fd: 0, pitch: 16 },
        ],
      }),
    ).toThrow(RangeError);
    expect(() => display.importDmaBuf({ ...base, format: 'XYZW' as never, planes: [] })).toThrow(TypeError);
    expect(() =>
      display.importDmaBuf({
        ...base,
        modifier: 'linear',
        planes: [
          { fd: 0, pitch: 16 },
          { fd: 0, pitch: 16 },
        ],
      }),
    ).toThrow(
      new TypeError('modifier must be a 64-bit DRM format modifier (a bigint, or a string of its decimal or 0x hex digits); got the string "linear"'),
    );
    expect(() =>
      display.importDmaBuf({
        ...base,
        modifier: 2n ** 64n,
        planes: [
          { fd: 0, pitch: 16 },
          { fd: 0, pitch: 16 },
        ],
      }),
    ).toThrow(
      new TypeError(
        'modifier must be a 64-bit DRM format modifier (a bigint, or a string of its decimal or 0x hex digits); got the bigint 18446744073709551616n',
      ),
    );
    expect(() => display.importDmaBuf(null as never)).toThrow(TypeError);
    const dead = openSync('/dev/null', 'r');
    closeSync(dead);
    expect(() =>
      display.importDmaBuf({
        ...base,
        planes: [
          { fd: dead, pitch: 16 },
          { fd: dead, pitch: 16 },
        ],
      }),
    ).toThrow(new TypeError(`planes[0].fd ${dead} is not an open file descriptor (EBADF)`));
    // A pipe or socket is refused before libva: it cannot be a DMA-BUF (fd 0 of the
    // fresh process is a pipe: runProcess gives it one, as spawnSync did). /dev/null is an open fd
    // of no memory: the driver refuses it, and says why.
    const result = await runVa(`
      const d = ocl.openVaDisplay({ kind: 'x11' });
      const report = (fd) => { try { d.importDmaBuf({ format: 'BGRA', width: 4, height: 4, planes: [{ fd, pitch: 16, size: 64 }] }); }
        catch (e) { return { name: e.name, code: e.code, detail: e.detail, message: e.message }; } };
      console.log(JSON.stringify([report(0), report(require('node:fs').openSync('/dev/null', 'r'))]));`);
    const [pipe, devNull] = JSON.parse(result.stdout);
    expect(pipe).toMatchObject({ name: 'TypeError', message: expect.stringMatching(/^planes\[0\]\.fd 0 is a (pipe|socket), not a DMA-BUF/) });
    expect(devNull).toMatchObject({ name: 'VaError', code: 'VA_STATUS_ERROR_INVALID_PARAMETER' });
    expect(devNull.detail).toMatch(/cannot be mapped|not an open/);
    const dir = mkdtempSync(join(tmpdir(), 'tiled-'));
    try {
      writeFileSync(join(dir, 'f'), new Uint8Array(4096));
      const fd = openSync(join(dir, 'f'), 'r+');
      expect(() =>
        display.importDmaBuf({
          ...base,
          modifier: 0x0100000000000001n,
          planes: [
            { fd, pitch: 16 },
            { fd, offset: 256, pitch: 16 },
          ],
        }),
      ).toThrow(expect.objectContaining({ code: 'VA_STATUS_ERROR_INVALID_PARAMETER', detail: expect.stringContaining('only linear') }));
      closeSync(fd);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('errors carry the VAStatus name', () => {
  it("va.h status codes by name; VaError formats call, name, number and the driver's detail", () => {
    expect(vaStatusName(6)).toBe('VA_STATUS_ERROR_INVALID_SURFACE');
    expect(vaStatusName(0xffffffff)).toBe('VA_STATUS_ERROR_UNKNOWN');
    expect(vaStatusName(-1)).toBe('VA_STATUS_ERROR_UNKNOWN');
    expect(vaStatusName(0x99)).toBe('VAStatus 0x99');
    const error = new VaError(6, 'vaSyncSurface', 'no such surface');
    expect(error.message).toBe('vaSyncSurface failed: VA_STATUS_ERROR_INVALID_SURFACE (6): no such surface');
    expect(fourccText(fourccCode('NV12'))).toBe('NV12');
    expect(fourccCode('NV12')).toBe(0x3231564e);
    expect(() => fourccCode('NV1')).toThrow(TypeError);
  });
});

describe('lifetimes', () => {
  it('dispose is idempotent, `using` disposes, and a disposed object is OpenCLReleasedError on every use', () => {
    const display = openVaDisplay({ kind: 'x11' });
    const surface = display.createSurface({ width: 8, height: 8 });
    surface.dispose();
    surface.dispose();
    expect(surface.disposed).toBe(true);
    for (const use of [
      () => surface.readPlane(0),
      () => surface.sync(),
      () => surface.status,
      () => surface.exportDmaBuf(),
      () => surface.writePlane(0, new Uint8Array(64)),
    ]) {
      expect(use).toThrow(new OpenCLReleasedError('VaSurface'));
    }
    display.dispose();
    display.dispose();
    expect(display.disposed).toBe(true);
    for (const use of [() => display.vendor, () => display.address, () => display.profiles(), () => display.createSurface({ width: 8, height: 8 })]) {
      expect(use).toThrow(new OpenCLReleasedError('VaDisplay'));
    }
  });

  it('surfaces keep their display alive: released in any order, each keeps working until its own dispose', () => {
    for (const order of ['display-first', 'surface-first'] as const) {
      const display = openVaDisplay({ kind: 'x11' });
      const a = display.createSurface({ width: 8, height: 8 });
      const b = display.createSurface({ width: 8, height: 8 });
      if (order === 'display-first') display.dispose();
      else a.dispose();
      b.writePlane(0, pattern(64, 3));
      expect(b.readPlane(0)).toEqual(pattern(64, 3));
      expect(b.display).toBe(display);
      a.dispose();
      b.dispose();
      display.dispose();
    }
  });

  it('fresh process, --expose-gc: dropped displays, surfaces and descriptors are collected in any order; their fds and X connections close', async () => {
    const result = await runVa(
      `
      const { readdirSync } = require('node:fs');
      const fds = () => readdirSync('/proc/self/fd').length;
      const round = (mode) => {
        const d = ocl.openVaDisplay({ kind: 'x11' });
        const s = d.createSurfaces(4, { width: 64, height: 64 });
        s[0].writePlane(0, new Uint8Array(4096));
        const e = s[1].exportDmaBuf();
        if (mode === 1) d.dispose();
        if (mode === 2) s.forEach((x) => x.dispose());
        return mode === 3 ? s[2] : undefined; // a surface that outlives its display's collection
      };
      (async () => {
        round(0); round(1);
        const before = fds();
        let kept = [];
        for (let i = 0; i < 30; i++) kept.push(round(i % 4));
        kept = kept.filter(Boolean);
        for (const s of kept) s.readPlane(0);
        kept = null;
        for (let i = 0; i < 6; i++) { global.gc(); await new Promise((r) => setTimeout(r, 20)); }
        console.log(JSON.stringify({ before, after: fds() }));
      })();`,
      {},
      ['--expose-gc'],
    );
    expect(result.signal).toBeNull();
    expect(result.status).toBe(0);
    const { before, after } = JSON.parse(result.stdout);
    expect(after).toBeLessThanOrEqual(before + 2);
  });

  it('a worker thread opens a display and surfaces and is terminated mid-use: no crash, the main thread still works', async () => {
    const dist = JSON.stringify(resolve(repoRoot, 'dist/index.js'));
    const result = await runVa(`
      const { Worker } = require('node:worker_threads');
      const code = \`
        const ocl = require(${dist.replace(/\\/g, '\\\\')});
        const d = ocl.openVaDisplay({ kind: 'x11' });
        const { parentPort } = require('node:worker_threads');
        parentPort.postMessage('up');
        for (;;) { const s = d.createSurface({ width: 32, height: 32 }); s.writePlane(0, new Uint8Array(1024)); s.readPlane(1); if (Math.random() < 0.5) s.dispose(); }\`;
      (async () => {
        for (let i = 0; i < 3; i++) {
          const w = new Worker(code, { eval: true });
          await new Promise((r) => w.once('message', r));
          await new Promise((r) => setTimeout(r, 30));
          await w.terminate();
        }
        const d = ocl.openVaDisplay({ kind: 'x11' });
        const s = d.createSurface({ width: 8, height: 8 });
        s.writePlane(0, new Uint8Array(64).fill(9));
        console.log('main', s.readPlane(0)[0]);
      })();`);
    expect(result.signal).toBeNull();
    expect(result.stdout.trim()).toBe('main 9');
  });

  it('getPlatforms still works next to VA (the VA module needs no OpenCL, OpenCL needs no libva)', () => {
    expect(getPlatforms().length).toBeGreaterThan(0);
  });
});
