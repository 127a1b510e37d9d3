import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AcquireScope,
  CLImage,
  CL_CONTEXT_VA_API_DISPLAY_INTEL,
  OpenCLCommandError,
  OpenCLError,
  OpenCLExtensionError,
  OpenCLReleasedError,
  OpenCLStateError,
  VaApiSharing,
  createContext,
  getPlatforms,
  getSharing,
  predictSharedImage,
  sharingExtensionNames,
  type VaDisplay,
  VaSurface,
  openVaDisplay,
  type CommandQueue,
  type Context,
  type Platform,
} from '../lib';
import { openReferenceDriver, referenceDriverPath } from './driver/control.mjs';
import { collectGarbage, pocl, repoRoot, runNode, withReferenceVa } from './helpers';
import { type Xvfb, softvaEnv, startXvfb, useSoftva } from './helpers/va';

const ref = openReferenceDriver();

function referencePlatform(): Platform {
  const platform = getPlatforms().find((p) => p.name === 'opencl-interop reference driver');
  if (!platform) throw new Error('the reference driver is not listed: run npm run build:driver (vitest sets OCL_ICD_VENDORS)');
  return platform;
}

/** BT.601 limited range, integer form, as the driver's nv12_to_rgba documents. */
function nv12ToRgba(y: number, u: number, v: number): [number, number, number, number] {
  const c = y - 16,
    d = u - 128,
    e = v - 128;
  const clamp = (x: number) => Math.max(0, Math.min(255, x >> 8));
  return [clamp(298 * c + 409 * e + 128), clamp(298 * c - 100 * d - 208 * e + 128), clamp(298 * c + 516 * d + 128), 255];
}

describe('cl_intel_va_api_media_sharing through the public API', () => {
  let platform: Platform;
  let va: VaApiSharing;
  let display: bigint;
  let context: Context;
  let queue: CommandQueue;

  beforeAll(() => {
    platform = referencePlatform();
    va = getSharing(platform, 'cl_intel_va_api_media_sharing');
    display = ref.vaCreateDisplay(true);
    context = va.createContext(display);
    queue = context.createQueue();
  });
  afterAll(() => {
    queue.release();
    context.release();
    ref.release(display);
  });

  it('resolves the facade lazily, once per platform, from the platform and the context', () => {
    expect(va).toBeInstanceOf(VaApiSharing);
    expect(platform.getSharing('cl_intel_va_api_media_sharing')).toBe(va);
    expect(context.sharing).toBe(va);
    expect(va.entryPoints).toHaveLength(4);
    expect(va.platform).toBe(platform);
  });

  it('9.X.1: devices for a VA display, preferred and all; none for a display without a CL device', () => {
    const preferred = va.getDevices(display, 'preferred');
    expect(preferred.map((d) => d.name)).toEqual(['opencl-interop reference device']);
    expect(va.getDevices(display, 'all')).toEqual(preferred);
    const foreign = ref.vaCreateDisplay(false);
    expect(va.getDevices(foreign)).toEqual([]); // CL_DEVICE_NOT_FOUND is an empty list
    expect(() => va.createContext(foreign)).toThrow(OpenCLError);
    ref.release(foreign);
    expect(() => va.getDevices(0n)).toThrow(TypeError);
    expect(() => va.getDevices(12 as never)).toThrow(TypeError);
    expect(() => va.getDevices(display, 'some' as never)).toThrow(TypeError);
  });

  it('4.4 / table 4.5: the context records its VA display and interop user sync', () => {
    expect(context.interop).toEqual({ extension: 'cl_intel_va_api_media_sharing', property: CL_CONTEXT_VA_API_DISPLAY_INTEL, handle: display });
    expect(context.properties).toContainEqual([CL_CONTEXT_VA_API_DISPLAY_INTEL, display]);
    expect(context.interopUserSync).toBe(false);
    const synced = va.createContext(display, { interopUserSync: true });
    expect(synced.interopUserSync).toBe(true);
    synced.release();
  });

  it('9.X.4: NV12 planes become CL_R (W x H) and CL_RG (W/2 x H/2) images, as the format table predicts', () => {
    const surface = ref.vaCreateSurface(display, 32, 16);
    const [y, uv] = va.createFromNV12Surface(context, surface.id, { access: 'read' });
    for (const [image, plane] of [
      [y, 0],
      [uv, 1],
    ] as const) {
      const predicted = predictSharedImage({ extension: 'cl_intel_va_api_media_sharing', width: 32, height: 16, plane });
      expect(image).toBeInstanceOf(CLImage);
      expect(image.format.order).toBe(predicted.format.order);
      expect(image.format.type).toBe(predicted.format.type);
      expect([image.width, image.height]).toEqual([predicted.width, predicted.height]);
    }
    expect(y.format).toMatchObject({ order: 'R', type: 'UNORM_INT8' });
    expect(uv.format).toMatchObject({ order: 'RG', type: 'UNORM_INT8' });
    expect(y.sharedWith).toBe('cl_intel_va_api_media_sharing');
    y.release();
    uv.release();
    ref.release(surface.resource);
  });

  it("9.X.4: a plane NV12 does not have is named by the binding; an invalid surface is the driver's typed error; bad arguments never reach it", () => {
    const surface = ref.vaCreateSurface(display, 8, 8);
    expect(() => va.createFromSurface(context, surface.id, 2)).toThrow(new RangeError('NV12 has planes 0 and 1; got 2'));
    expect(() => va.createFromSurface(context, 0x7fff, 0)).toThrow(expect.objectContaining({ code: 'CL_INVALID_VA_API_MEDIA_SURFACE_INTEL' }));
    expect(() => va.createFromSurface(context, surface.id, 0, { access: 'rw' as never })).toThrow(TypeError);
    expect(() => va.createFromSurface(context, surface.id, -1)).toThrow(RangeError);
    expect(() => va.createFromSurface(context, 1.5, 0)).toThrow(RangeError);
    expect(() => va.createFromSurface({} as never, surface.id, 0)).toThrow(TypeError);
    ref.release(surface.resource);
  });

  it("9.X.4: one cl_mem per (surface, plane): another access or another context is refused by name; another facade's context too", () => {
    const surface = ref.vaCreateSurface(display, 8, 8);
    const y = va.createFromSurface(context, surface.id, 0, { access: 'read' });
    expect(va.createFromSurface(context, surface.id, 0)).toBe(y);
    expect(() => va.createFromSurface(context, surface.id, 0, { access: 'read-write' })).toThrow(
      new OpenCLStateError(
        `VA surface ${surface.id} plane 0 is already shared with access 'read'; release that CLImage first to share it with access 'read-write'`,
      ),
    );
    const second = va.createContext(display);
    expect(() => va.createFromSurface(second, surface.id, 0)).toThrow(OpenCLStateError);
    expect(() => va.createFromSurface(second, surface.id, 0)).toThrow(/already has a memory object in another context/);
    const plain = createContext({ platform: context.platform });
    expect(() => va.createFromSurface(plain, surface.id, 0)).toThrow(
      new TypeError("the context was not made for sharing; cl_intel_va_api_media_sharing objects need a context from this facade's createContext()"),
    );
    y.release();
    const again = va.createFromSurface(second, surface.id, 0, { access: 'read-write' });
    expect(again.context).toBe(second);
    for (const o of [again, second, plain]) o.release();
    ref.release(surface.resource);
  });

  it("await using an acquire scope waits for the release, so VA code after the block sees OpenCL's writes", async () => {
    const surface = ref.vaCreateSurface(display, 8, 8);
    const luma = Uint8Array.from({ length: 64 }, (_, i) => i);
    ref.write(surface.resource, 0, 0, luma);
    const [y, uv] = va.createFromNV12Surface(context, surface.id);
    const program = context.createProgramWithBuiltInKernels(['invert_image']);
    const kernel = program.createKernel('invert_image').setArgs(y, y);
    let scope: AcquireScope;
    {
      await using acquired = queue.acquire([y, uv]);
      scope = acquired;
      queue.enqueueKernel(kernel, [8, 8]);
    }
    // No finish(): the block's end waited for the release, and with it the kernel.
    expect(scope.active).toBe(false);
    expect(y.acquired).toBe(false);
    expect([...ref.read(surface.resource, 0, 0)]).toEqual([...luma].map((v) => 255 - v));
    for (const o of [kernel, program, y, uv]) o.release();
    ref.release(surface.resource);
  });

  it('exactly one cl_mem per (surface, plane): asking again returns the same image until it is released', () => {
    const surface = ref.vaCreateSurface(display, 8, 8);
    const before = ref.liveObjects('mem');
    const y = va.createFromSurface(context, surface.id, 0);
    expect(va.createFromSurface(context, surface.id, 0)).toBe(y);
    expect(ref.liveObjects('mem')).toBe(before + 1);
    y.release();
    const again = va.createFromSurface(context, surface.id, 0);
    expect(again).not.toBe(y);
    again.release();
    ref.release(surface.resource);
  });

  it('9.X.5: memory and image queries: the VASurfaceID* is storage the image owns, and the plane', () => {
    const surface = ref.vaCreateSurface(display, 8, 8);
    const uv = va.createFromSurface(context, surface.id, 1);
    const info = va.imageInfo(uv);
    expect(info.plane).toBe(1);
    expect(info.surfaceId).toBe(surface.id);
    expect(info.surfacePointer).toBe(va.surfaceStorage(uv)); // the driver kept our pointer; we keep the storage
    expect(info.surfacePointer).not.toBe(0n);
    const plain = context.createImage({ format: { order: 'R', type: 'UNORM_INT8' }, width: 4, height: 4 });
    expect(() => va.imageInfo(plain)).toThrow(TypeError);
    uv.release();
    plain.release();
    ref.release(surface.resource);
  });

  it("9.X.6: zero-copy: nv12_to_rgba reads the surface's own bytes; invert_image writes them", async () => {
    const width = 16,
      height = 8;
    const surface = ref.vaCreateSurface(display, width, height);
    const luma = Uint8Array.from({ length: width * height }, (_, i) => 16 + ((i * 3) % 220));
    const chroma = Uint8Array.from({ length: (width / 2) * (height / 2) * 2 }, (_, i) => (i % 2 ? 200 : 60));
    ref.write(surface.resource, 0, 0, luma);
    ref.write(surface.resource, 0, 1, chroma);
    const [y, uv] = va.createFromNV12Surface(context, surface.id, { access: 'read-write' });
    const rgba = context.createImage({ format: { order: 'RGBA', type: 'UNORM_INT8' }, width, height, access: 'write' });
    const program = context.createProgramWithBuiltInKernels(['nv12_to_rgba', 'invert_image']);
    const convert = program.createKernel('nv12_to_rgba').setArgs(y, uv, rgba);
    const invert = program.createKernel('invert_image').setArgs(y, y);
    const pixels = new Uint8Array(width * height * 4);
    await queue.withAcquired([y, uv], async (scope) => {
      expect(scope).toBeInstanceOf(AcquireScope);
      expect(scope.event.commandTypeName).toBe('CL_COMMAND_ACQUIRE_VA_API_MEDIA_SURFACES_INTEL');
      const converted = queue.enqueueKernel(convert, [width, height]);
      await queue.readImage(rgba, pixels, { waitFor: [converted] }).completed;
      await queue.enqueueKernel(invert, [width, height]).completed;
    });
    for (const [x, yy] of [
      [0, 0],
      [5, 3],
      [15, 7],
    ]) {
      const Y = luma[yy * width + x]!;
      const c = ((yy >> 1) * (width / 2) + (x >> 1)) * 2;
      expect([...pixels.subarray((yy * width + x) * 4, (yy * width + x) * 4 + 4)]).toEqual(nv12ToRgba(Y, chroma[c]!, chroma[c + 1]!));
    }
    // The kernel wrote the surface's bytes in place: VA sees them after release.
    expect([...ref.read(surface.resource, 0, 0)]).toEqual([...luma].map((v) => 255 - v));
    for (const o of [convert, invert, program, rgba, y, uv]) o.release();
    ref.release(surface.resource);
  });

  describe('the binding keeps its own acquire state (same errors on every driver)', () => {
    let surface: { id: number; resource: bigint };
    let y: CLImage;
    let uv: CLImage;
    beforeAll(() => {
      surface = ref.vaCreateSurface(display, 8, 8);
      [y, uv] = va.createFromNV12Surface(context, surface.id);
    });
    afterAll(() => {
      y.release();
      uv.release();
      ref.release(surface.resource);
    });

    it('an acquire behind a user event that fails acquired nothing (this driver fails it): not "acquired", no release, a new acquire works', async () => {
      const gate = context.createUserEvent();
      const scope = queue.acquire([y, uv], { waitFor: [gate] });
      expect(y.acquired).toBe(true);
      gate.setStatus(-5);
      await expect(scope.event).rejects.toThrow();
      expect(y.acquired || uv.acquired).toBe(false);
      expect(scope.active).toBe(false);
      expect(() => scope.release()).toThrow(
        /^the acquire of this scope failed: its CL_COMMAND_ACQUIRE_VA_API_MEDIA_SURFACES_INTEL command failed \(status -14\); its objects were never acquired, so there is nothing to release$/,
      );
      expect(() => queue.enqueueReleaseShared([y])).toThrow(/is not acquired/);
      await scope[Symbol.asyncDispose](); // `await using` at the end of the block: nothing to do
      await queue.withAcquired([y, uv], () => 1);
      const failing = context.createUserEvent();
      const run = queue.withAcquired(
        [y],
        async (s) => {
          failing.setStatus(-7);
          await s.event;
        },
        { waitFor: [failing] },
      );
      await expect(run).rejects.toThrow(/failed/);
      expect(y.acquired).toBe(false);
      gate.release();
      failing.release();
    });

    it('an acquire behind a failed user event that the driver has not decided on (another gate unset) is neither released nor re-acquired: drivers differ', async () => {
      const [failing, later] = [context.createUserEvent(), context.createUserEvent()];
      const scope = queue.acquire([y], { waitFor: [failing, later] });
      failing.setStatus(-5);
      const undecided =
        /waits on a user event set to -5 and has not ended: drivers differ on whether such a command fails or runs \(NVIDIA runs it\), so whether it is acquired is not known yet; await the acquire \(scope\.event\) first$/;
      expect(y.acquired).toBe(true);
      expect(scope.active).toBe(true);
      expect(() => queue.enqueueReleaseShared([y])).toThrow(OpenCLStateError);
      expect(() => queue.enqueueReleaseShared([y])).toThrow(undecided);
      expect(() => queue.enqueueAcquireShared([y])).toThrow(undecided);
      expect(() => scope.release()).toThrow(
        /^the acquire of this scope waits on a user event set to -5 and has not ended: .* await scope\.event first$/,
      );
      // `using` waits for the acquire's end to follow it, but another gate is unset: that would block for ever.
      expect(() => scope[Symbol.dispose]()).toThrow(/would block for ever/);
      later.setStatus('complete');
      await expect(scope.event).rejects.toThrow(); // this driver fails it, as PoCL does
      expect(y.acquired).toBe(false);
      expect(scope.active).toBe(false);
      failing.release();
      later.release();
    });

    it('9.X.6: a command on a surface that is not acquired fails with CL_VA_API_MEDIA_SURFACE_NOT_ACQUIRED_INTEL', async () => {
      expect(y.acquired).toBe(false);
      const host = new Uint8Array(64);
      try {
        queue.readImage(y, host, { blocking: true });
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(OpenCLError);
        expect(error).toMatchObject({ status: -1101, code: 'CL_VA_API_MEDIA_SURFACE_NOT_ACQUIRED_INTEL', call: 'clEnqueueReadImage' });
        expect((error as Error).message).toMatch(/VA surface \d+ plane 0 is not acquired/);
      }
      const program = context.createProgramWithBuiltInKernels(['copy_image']);
      const kernel = program.createKernel('copy_image').setArgs(y, y);
      expect(() => queue.enqueueKernel(kernel, [8, 8])).toThrow(/kernel argument 0: VA surface/);
      kernel.release();
      program.release();
    });

    it('9.X.6: acquiring twice fails with CL_VA_API_MEDIA_SURFACE_ALREADY_ACQUIRED_INTEL; nothing is half-acquired', () => {
      const scope = queue.acquire([y]);
      expect(y.acquired).toBe(true);
      expect(() => queue.acquire([uv, y])).toThrow(
        expect.objectContaining({ code: 'CL_VA_API_MEDIA_SURFACE_ALREADY_ACQUIRED_INTEL', call: 'clEnqueueAcquireVA_APIMediaSurfacesINTEL' }),
      );
      expect(uv.acquired).toBe(false); // the whole call was refused before the driver
      scope.release().waitSync();
      expect(y.acquired).toBe(false);
      expect(() => scope.release()).toThrow(OpenCLStateError);
    });

    it('9.X.6: releasing what is not acquired fails with CL_VA_API_MEDIA_SURFACE_NOT_ACQUIRED_INTEL', () => {
      expect(() => queue.enqueueReleaseShared([y])).toThrow(
        expect.objectContaining({ code: 'CL_VA_API_MEDIA_SURFACE_NOT_ACQUIRED_INTEL', call: 'clEnqueueReleaseVA_APIMediaSurfacesINTEL' }),
      );
    });

    it('disposing an acquired image is refused with a typed error naming it; nothing is lost', () => {
      const scope = queue.acquire([y, uv]);
      expect(() => y.release()).toThrow(OpenCLStateError);
      expect(() => y.release()).toThrow(/VA surface \d+ plane 0 is still acquired/);
      expect(y.released).toBe(false);
      scope[Symbol.dispose]();
      expect(y.acquired).toBe(false);
      scope[Symbol.dispose](); // idempotent
    });

    it('`using` releases at the end of the block', () => {
      {
        using scope = queue.acquire([y, uv]);
        expect(scope.active).toBe(true);
        expect(uv.acquired).toBe(true);
      }
      expect(uv.acquired).toBe(false);
    });

    it("withAcquired releases when fn throws and when it rejects, and returns fn's value", async () => {
      await expect(
        queue.withAcquired([y], () => {
          throw new Error('sync boom');
        }),
      ).rejects.toThrow('sync boom');
      expect(y.acquired).toBe(false);
      await expect(
        queue.withAcquired([y], async () => {
          await Promise.resolve();
          throw new Error('async boom');
        }),
      ).rejects.toThrow('async boom');
      expect(y.acquired).toBe(false);
      await expect(queue.withAcquired([y, uv], () => 42)).resolves.toBe(42);
      expect(y.acquired || uv.acquired).toBe(false);
      await expect(queue.withAcquired([y], 'nope' as never)).rejects.toThrow(TypeError);
    });

    it('acquire and release take wait lists and return events; every object is checked first', async () => {
      const gate = context.createUserEvent();
      const acquired = queue.enqueueAcquireShared([y, uv], { waitFor: [gate] });
      expect(['queued', 'submitted']).toContain(acquired.status);
      gate.setStatus('complete');
      await acquired.completed;
      const released = queue.enqueueReleaseShared([y, uv], { waitFor: [acquired] });
      expect(released.commandTypeName).toBe('CL_COMMAND_RELEASE_VA_API_MEDIA_SURFACES_INTEL');
      await released.completed;
      const plain = context.createImage({ format: { order: 'R', type: 'UNORM_INT8' }, width: 4, height: 4 });
      expect(() => queue.acquire([plain])).toThrow(
        /was not created through a sharing extension: acquire takes memory made from another API's resource \(a Direct3D texture or surface, a VA surface\)/,
      );
      expect(() => queue.acquire([])).toThrow(TypeError);
      expect(() => queue.acquire([y, y])).toThrow(/appears twice/);
      plain.release();
      const released2 = va.createFromSurface(context, ref.vaCreateSurface(display, 8, 8).id, 0);
      released2.release();
      expect(() => queue.acquire([released2])).toThrow(OpenCLReleasedError);
    });
  });

  it("4.4: the driver's error-notify callback reaches JS (here: a command whose user event failed)", async () => {
    const messages: string[] = [];
    const noisy = va.createContext(display, { onError: (message) => messages.push(message) });
    const q = noisy.createQueue();
    const gate = noisy.createUserEvent();
    const buffer = noisy.createBuffer(16);
    const fill = q.fillBuffer(buffer, new Uint8Array([1]), { waitFor: [gate] });
    q.flush();
    gate.setStatus(-5);
    await expect(fill.completed).rejects.toThrow(OpenCLCommandError);
    for (let i = 0; i < 50 && messages.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    expect(messages.length).toBeGreaterThan(0);
    expect(messages[0]).toMatch(/failed/i);
    for (const o of [fill, gate, buffer, q, noisy]) o.release();
  });

  it('lifetimes: a cl_mem holds a reference on its surface; releases, GC and disposal give every reference back', async () => {
    const surface = ref.vaCreateSurface(display, 8, 8);
    const base = ref.refcount(surface.resource);
    const y = va.createFromSurface(context, surface.id, 0);
    expect(ref.refcount(surface.resource)).toBe(base + 1);
    const uv = va.createFromSurface(context, surface.id, 1);
    expect(ref.refcount(surface.resource)).toBe(base + 2);
    y.release();
    uv.release();
    expect(ref.refcount(surface.resource)).toBe(base);
    ref.release(surface.resource);
  });
});

describe('lifetimes in a fresh process: after disposal and GC the driver has no live objects', () => {
  it('every surface reference count is back and no cl object is left', async () => {
    const { status, stdout, stderr } = await runNode(
      withReferenceVa(`
        const surfaces = [0, 1, 2].map(() => ref.vaCreateSurface(display, 16, 16));
        const counts = () => surfaces.map((s) => ref.refcount(s.resource));
        const before = counts();
        (function work() {
          const context = va.createContext(display);
          const queue = context.createQueue();
          for (const s of surfaces) {
            const [y, uv] = va.createFromNV12Surface(context, s.id);
            const scope = queue.acquire([y, uv]);
            scope.release().release();
            scope.event.release();
          }
          queue.finishSync();
          // Nothing released explicitly: the garbage collector must do it.
        })();
        for (let i = 0; i < 20 && ref.liveObjects('cl') > 0; i++) {
          await new Promise((r) => setTimeout(r, 10));
          global.gc();
          await new Promise((r) => setTimeout(r, 10));
        }
        ref.waitIdle();
        console.log(JSON.stringify({ before, after: counts(), live: ref.liveObjects('cl') }));
      `),
      { args: ['--expose-gc'], env: { OCL_ICD_VENDORS: process.env.OCL_ICD_VENDORS } },
    );
    expect(stderr).toBe('');
    expect(status).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.live).toBe(0);
    expect(result.after).toEqual(result.before);
  });

  it('the driver loaded directly by path (no ICD loader) serves the same API', async () => {
    const { status, stdout, stderr } = await runNode(
      `const [p] = ocl.getPlatforms(); console.log(p.name, p.supports('cl_intel_va_api_media_sharing'), p.getSharing('cl_intel_va_api_media_sharing').entryPoints.length);`,
      { env: { OPENCL_INTEROP_LIBRARY: referenceDriverPath } },
    );
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(stdout.trim()).toBe('opencl-interop reference driver true 4');
  });
});

describe('the unsupported path on a real driver (PoCL)', () => {
  it.each(sharingExtensionNames)('%s: a typed error names the extension and the platform', (name) => {
    const platform = pocl();
    expect(platform.supports(name)).toBe(false);
    try {
      getSharing(platform, name);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(OpenCLExtensionError);
      expect(error).toMatchObject({ extension: name, platform: 'Portable Computing Language' });
      expect((error as Error).message).toMatch(/neither the platform nor its devices advertise it/);
    }
  });

  it('an unknown extension name is a TypeError; a context not made for sharing has no facade', () => {
    const platform = pocl();
    expect(() => getSharing(platform, 'cl_khr_gl_sharing' as never)).toThrow(TypeError);
    const context = createContext({ platform });
    expect(() => context.sharing).toThrow(OpenCLExtensionError);
    context.release();
  });
});

// The same extension over real VA surfaces: displays and surfaces of the VA
// module, made by the real libva running the software VA driver on Xvfb. The
// reference driver reaches each surface through libva (vaExportSurfaceHandle,
// then mmap), so OpenCL and VA use the same bytes.
describe('cl_intel_va_api_media_sharing on real VA surfaces (libva, software VA driver)', () => {
  let xvfb: Xvfb;
  let platform: Platform;
  let va: VaApiSharing;
  let display: VaDisplay;
  let context: Context;
  let queue: CommandQueue;
  const W = 16,
    H = 8;
  const luma = Uint8Array.from({ length: W * H }, (_, i) => 16 + ((i * 5) % 220));
  const chroma = Uint8Array.from({ length: W * (H / 2) }, (_, i) => (i % 2 ? 190 : 70));

  beforeAll(async () => {
    xvfb = await startXvfb();
    useSoftva(xvfb.display);
    platform = referencePlatform();
    va = getSharing(platform, 'cl_intel_va_api_media_sharing');
    display = openVaDisplay({ kind: 'x11' });
    context = va.createContext(display);
    queue = context.createQueue();
  });
  afterAll(async () => {
    queue.release();
    context.release();
    display.dispose();
    await xvfb.stop();
  });

  function rgbaAt(pixels: Uint8Array, x: number, y: number): number[] {
    return [...pixels.subarray((y * W + x) * 4, (y * W + x) * 4 + 4)];
  }
  function expected(x: number, y: number, l = luma, c = chroma): number[] {
    const i = ((y >> 1) * (W / 2) + (x >> 1)) * 2;
    return nv12ToRgba(l[y * W + x]!, c[i]!, c[i + 1]!);
  }

  it('9.X.1 / 4.4: a VaDisplay goes to getDevices() and createContext() as it is; the context records its VADisplay', () => {
    expect(va.getDevices(display).map((d) => d.name)).toEqual(['opencl-interop reference device']);
    expect(va.getDevices(display, 'all')).toHaveLength(1);
    expect(va.getDevices(display.address)).toHaveLength(1);
    expect(context.interop).toMatchObject({ property: CL_CONTEXT_VA_API_DISPLAY_INTEL, handle: display.address });
    expect(context.properties).toContainEqual([CL_CONTEXT_VA_API_DISPLAY_INTEL, display.address]);
    expect(() => va.getDevices(42 as never)).toThrow(
      new TypeError('display must be a VaDisplay or a non-zero bigint VADisplay address; got number 42'),
    );
  });

  it('9.X.4: createFromNV12Surface(context, VaSurface): Y is CL_R W x H, UV is CL_RG W/2 x H/2', () => {
    using surface = display.createSurface({ width: 32, height: 16 });
    expect(surface).toBeInstanceOf(VaSurface);
    const [y, uv] = va.createFromNV12Surface(context, surface, { access: 'read' });
    expect(y.format).toMatchObject({ order: 'R', type: 'UNORM_INT8' });
    expect(uv.format).toMatchObject({ order: 'RG', type: 'UNORM_INT8' });
    expect([y.width, y.height, uv.width, uv.height]).toEqual([32, 16, 16, 8]);
    expect(va.imageInfo(y)).toMatchObject({ surfaceId: surface.id, plane: 0 });
    expect(va.createFromSurface(context, surface, 0)).toBe(y);
    y.release();
    uv.release();
  });

  it('9.X.6 zero copy, VA to OpenCL: planes written through libva before the acquire are what nv12_to_rgba reads', async () => {
    for (const method of ['derive', 'image'] as const) {
      using surface = display.createSurface({ width: W, height: H });
      surface.write([luma, chroma], { method });
      const [y, uv] = va.createFromNV12Surface(context, surface, { access: 'read' });
      using rgba = context.createImage({ format: { order: 'RGBA', type: 'UNORM_INT8' }, width: W, height: H, access: 'write' });
      using program = context.createProgramWithBuiltInKernels(['nv12_to_rgba']);
      using convert = program.createKernel('nv12_to_rgba').setArgs(y, uv, rgba);
      const pixels = new Uint8Array(W * H * 4);
      await queue.withAcquired([y, uv], async () => {
        await queue.enqueueKernel(convert, [W, H]).completed;
      });
      await queue.readImage(rgba, pixels).completed;
      for (const [x, yy] of [
        [0, 0],
        [7, 3],
        [15, 7],
      ] as const)
        expect(rgbaAt(pixels, x, yy)).toEqual(expected(x, yy));

      // Not a copy made at creation: new VA bytes reach the same image at the next acquire.
      const luma2 = luma.map((v) => 255 - v);
      surface.writePlane(0, luma2, { method });
      await queue.withAcquired([y, uv], async () => {
        await queue.enqueueKernel(convert, [W, H]).completed;
      });
      await queue.readImage(rgba, pixels).completed;
      expect(rgbaAt(pixels, 7, 3)).toEqual(expected(7, 3, luma2));
      y.release();
      uv.release();
    }
  });

  it('9.X.6 zero copy, OpenCL to VA: invert_image writes the surface in place; vaDeriveImage and vaGetImage read it after the release', async () => {
    using surface = display.createSurface({ width: W, height: H });
    surface.write([luma, chroma]);
    const [y, uv] = va.createFromNV12Surface(context, surface);
    using program = context.createProgramWithBuiltInKernels(['invert_image']);
    using invertY = program.createKernel('invert_image').setArgs(y, y);
    await queue.withAcquired([y, uv], async () => {
      await queue.enqueueKernel(invertY, [W, H]).completed;
    });
    const inverted = luma.map((v) => 255 - v);
    expect(surface.readPlane(0, { method: 'derive' })).toEqual(inverted);
    expect(surface.readPlane(0, { method: 'image' })).toEqual(inverted);
    expect(surface.readPlane(1)).toEqual(chroma);
    y.release();
    uv.release();
  });

  it("DMA-BUF: a surface imported from another surface's export is shared with OpenCL; the kernel's writes reach the exporting surface", async () => {
    using source = display.createSurface({ width: W, height: H });
    source.write([luma, chroma]);
    using dmabuf = source.exportDmaBuf();
    using imported = display.importDmaBuf(dmabuf);
    const [y, uv] = va.createFromNV12Surface(context, imported);
    using program = context.createProgramWithBuiltInKernels(['invert_image']);
    using invertUv = program.createKernel('invert_image').setArgs(uv, uv);
    await queue.withAcquired([y, uv], async () => {
      await queue.enqueueKernel(invertUv, [W / 2, H / 2]).completed;
    });
    expect(source.readPlane(1)).toEqual(chroma.map((v) => 255 - v));
    y.release();
    uv.release();
  });

  it('the facade still takes a VADisplay address and a VASurfaceID number for the same objects', () => {
    using surface = display.createSurface({ width: 8, height: 8 });
    using other = va.createContext(display.address);
    const [y, uv] = va.createFromNV12Surface(other, surface.id);
    expect([y.width, uv.width]).toEqual([8, 4]);
    y.release();
    uv.release();
  });

  it('9.X.4 errors: a surface of another display, a format not in table 9.X.4.1, an id the display does not have, a third plane, disposed objects', () => {
    using second = openVaDisplay({ kind: 'x11' });
    using foreign = second.createSurface({ width: 8, height: 8 });
    const call = 'clCreateFromVA_APIMediaSurfaceINTEL';
    expect(() => va.createFromSurface(context, foreign, 0)).toThrow(
      expect.objectContaining({
        code: 'CL_INVALID_VA_API_MEDIA_SURFACE_INTEL',
        call,
        message: expect.stringMatching(/belongs to VA display 0x[0-9a-f]+; the context was made on 0x/),
      }),
    );
    using bgra = display.createSurface({ width: 8, height: 8, format: 'BGRA' });
    expect(() => va.createFromSurface(context, bgra, 0)).toThrow(
      expect.objectContaining({ code: 'CL_INVALID_IMAGE_FORMAT_DESCRIPTOR', message: expect.stringContaining('is BGRA') }),
    );
    // Through the number, the driver finds the same by asking libva.
    expect(() => va.createFromSurface(context, bgra.id, 0)).toThrow(expect.objectContaining({ code: 'CL_INVALID_IMAGE_FORMAT_DESCRIPTOR', call }));
    expect(() => va.createFromSurface(context, 0x7ffffff0, 0)).toThrow(
      expect.objectContaining({ code: 'CL_INVALID_VA_API_MEDIA_SURFACE_INTEL', call }),
    );
    using surface = display.createSurface({ width: 8, height: 8 });
    expect(() => va.createFromSurface(context, surface, 2)).toThrow(new RangeError('NV12 has planes 0 and 1; got 2'));
    const gone = display.createSurface({ width: 8, height: 8 });
    gone.dispose();
    expect(() => va.createFromSurface(context, gone, 0)).toThrow(new OpenCLReleasedError('VaSurface'));
    const closed = openVaDisplay({ kind: 'x11' });
    closed.dispose();
    expect(() => va.createContext(closed)).toThrow(new OpenCLReleasedError('VaDisplay'));
    expect(() => va.getDevices(closed)).toThrow(OpenCLReleasedError);
  });

  it('9.X.2 lifetimes: a surface is not destroyed while an image shares it; a display is not terminated while a context uses it', async () => {
    await collectGarbage();
    ref.waitIdle();
    const live = { cl: ref.liveObjects('cl'), resource: ref.liveObjects('resource') };
    const d = openVaDisplay({ kind: 'x11' });
    const c = va.createContext(d);
    const q = c.createQueue();
    const surface = d.createSurface({ width: W, height: H });
    surface.write([luma, chroma]);
    const [y, uv] = va.createFromNV12Surface(c, surface);
    // Both let go first: the image still reaches the surface, the context still works.
    surface.dispose();
    d.dispose();
    expect(surface.disposed).toBe(true);
    const program = c.createProgramWithBuiltInKernels(['invert_image']);
    const invert = program.createKernel('invert_image').setArgs(y, y);
    await q.withAcquired([y, uv], async () => {
      await q.enqueueKernel(invert, [W, H]).completed;
    });
    const host = new Uint8Array(W * H);
    await q.withAcquired([y], async () => {
      await q.readImage(y, host).completed;
    });
    expect(host).toEqual(luma.map((v) => 255 - v));
    for (const o of [invert, program, y, uv, q, c]) o.release();
    ref.waitIdle();
    expect({ cl: ref.liveObjects('cl'), resource: ref.liveObjects('resource') }).toEqual(live);
  });

  it('fresh process: released in any order or left to GC, the driver holds no object and every fd is closed; never a crash', async () => {
    const control = JSON.stringify(new URL('./driver/control.mjs', `file://${repoRoot}/test/`).href);
    const result = await runNode(
      `(async () => {
        const { openReferenceDriver } = await import(${control});
        const ref = openReferenceDriver();
        const { readdirSync } = require('node:fs');
        const fds = () => readdirSync('/proc/self/fd').length;
        const platform = ocl.getPlatforms().find((p) => p.name === 'opencl-interop reference driver');
        const va = platform.getSharing('cl_intel_va_api_media_sharing');
        const round = async (order) => {
          const display = ocl.openVaDisplay({ kind: 'x11' });
          const context = va.createContext(display);
          const queue = context.createQueue();
          const surfaces = display.createSurfaces(3, { width: 32, height: 16 });
          const images = surfaces.flatMap((s) => va.createFromNV12Surface(context, s));
          await queue.withAcquired(images, async () => {});
          queue.finishSync();
          const all = { display, context, queue, surfaces, images };
          if (order === 'gc') return;
          const steps = {
            'display-first': [() => display.dispose(), () => surfaces.forEach((s) => s.dispose()), () => images.forEach((i) => i.release()), () => queue.release(), () => context.release()],
            'images-last': [() => context.release(), () => queue.release(), () => display.dispose(), () => surfaces.forEach((s) => s.dispose()), () => images.forEach((i) => i.release())],
            'surfaces-first': [() => surfaces.forEach((s) => s.dispose()), () => queue.release(), () => images.forEach((i) => i.release()), () => context.release(), () => display.dispose()],
          }[order];
          for (const step of steps) step();
        };
        await round('gc');
        const before = fds();
        for (let i = 0; i < 12; i++) await round(['gc', 'display-first', 'images-last', 'surfaces-first'][i % 4]);
        for (let i = 0; i < 8; i++) { global.gc(); await new Promise((r) => setTimeout(r, 20)); }
        ref.waitIdle();
        console.log(JSON.stringify({ before, after: fds(), cl: ref.liveObjects('cl'), resources: ref.liveObjects('resource') }));
      })();`,
      { args: ['--expose-gc'], env: { ...softvaEnv(xvfb.display), OCL_ICD_VENDORS: process.env.OCL_ICD_VENDORS } },
    );
    expect(result.stderr).toBe('');
    expect(result.signal).toBeNull();
    expect(result.status).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.cl).toBe(0);
    expect(report.resources).toBe(0);
    expect(report.after).toBeLessThanOrEqual(report.before + 1);
  });
});
