// Promises that settle whatever status a driver skips
// or a command fails with, host reads and writes of surfaces OpenCL holds,
// and a clear, typed error for every bad argument. Where a hang or a crash
// is possible the reproduction runs in a fresh process that must end by
// itself (a time-out there is a failure, not a hung test run).
import { closeSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Direct3DUnavailableError,
  Event,
  OpenCLCommandError,
  OpenCLError,
  OpenCLStateError,
  VaDisplay,
  VaDisplayError,
  waitForEvents,
  getPlatforms,
  getSharing,
  openVaDisplay,
  type CommandQueue,
  type Context,
  type VaApiSharing,
} from '../lib';
import * as direct3d from '../lib/direct3d';
import { poclSetup, repoRoot, runNode, runNodeForValue } from './helpers';
import { type Xvfb, startXvfb, useSoftva } from './helpers/va';

// Every snippet gets PoCL (platform, device, context, queue) and `done(value)`,
// which prints the value as JSON; the process must then exit on its own.
const prelude = `
const platform = ocl.getPlatforms().find((p) => p.name === 'Portable Computing Language');
const device = platform.getDevices()[0];
const context = ocl.createContext({ devices: [device] });
const queue = context.createQueue(device);
const done = (value) => console.log(JSON.stringify(value ?? null));
const errorOf = (fn) => { try { fn(); return 'no error'; } catch (e) { return e.name + ': ' + e.message; } };
`;

async function fresh(code: string, options: { timeout?: number; env?: NodeJS.ProcessEnv } = {}) {
  return runNodeForValue(prelude + code, {
    timeout: options.timeout,
    env: { OCL_ICD_VENDORS: process.env.OCL_ICD_VENDORS, ...options.env },
  });
}

const poll = async (until: () => boolean) => {
  for (let i = 0; i < 500 && !until(); i++) await new Promise((r) => setTimeout(r, 2));
};

describe('whenStatus settles when the driver skips the status (clSetEventCallback, OpenCL 3.0 5.11)', () => {
  it("whenStatus('running') on a user event asked before setStatus('complete') resolves, and the process exits", async () => {
    const { value } = await fresh(`
      const gate = context.createUserEvent();
      const seen = [];
      gate.whenStatus('running').then((s) => seen.push('user running: ' + s));
      gate.whenStatus('submitted').then((s) => seen.push('user submitted: ' + s));
      const marker = queue.enqueueMarker({ waitFor: [gate] });
      marker.whenStatus('running').then((s) => seen.push('marker running: ' + s));
      gate.setStatus('complete');
      process.once('beforeExit', () => done(seen.sort()));
    `);
    expect(value).toEqual(['marker running: running', 'user running: running', 'user submitted: submitted']);
  });

  it("whenStatus('running') of a command behind a user event that fails rejects, and the process exits", async () => {
    const { value } = await fresh(`
      const gate = context.createUserEvent();
      const other = context.createQueue(device, { outOfOrder: true });
      const marker = other.enqueueMarker({ waitFor: [gate] });
      const seen = [];
      marker.whenStatus('running').then((s) => seen.push('resolved ' + s), (e) => seen.push(e.name));
      gate.whenStatus('running').then((s) => seen.push('resolved ' + s), (e) => seen.push('user ' + e.name));
      gate.setStatus(-5);
      process.once('beforeExit', () => done(seen.sort()));
    `);
    expect(value).toEqual(['OpenCLCommandError', 'user OpenCLCommandError']);
  });
});

describe('whenStatus rejects with the failure of the command (clGetEventInfo CL_EVENT_COMMAND_EXECUTION_STATUS < 0)', () => {
  it("whenStatus('complete') asked after the command failed rejects, as does one asked before", async () => {
    const { context, queue } = poclSetup();
    const gate = context.createUserEvent();
    const marker = queue.enqueueMarker({ waitFor: [gate] });
    const before = marker.whenStatus('complete');
    gate.setStatus(-1);
    await expect(before).rejects.toBeInstanceOf(OpenCLCommandError);
    await poll(() => marker.status === -1);
    expect(marker.status).toBe(-1);
    const after = marker.whenStatus('complete');
    await expect(after).rejects.toThrow(
      /CL_COMMAND_MARKER command failed with execution status -1: an event it waited on failed \(a user event set to -1\)/,
    );
    await expect(marker.whenStatus('running')).rejects.toBeInstanceOf(OpenCLCommandError);
    await expect(marker.completed).rejects.toBeInstanceOf(OpenCLCommandError);
    // Known ended now: the cached status answers the same way.
    await expect(marker.whenStatus('complete')).rejects.toBeInstanceOf(OpenCLCommandError);
    queue.release();
    context.release();
  });

  it('a user event set to a failure: whenStatus rejects and says the application set it', async () => {
    const { context } = poclSetup();
    const gate = context.createUserEvent();
    gate.setStatus(-9);
    await expect(gate.whenStatus('complete')).rejects.toThrow(
      'the CL_COMMAND_USER command failed with execution status -9: the application set this user event to that status, or released it before setting it (-14)',
    );
    const ok = context.createUserEvent();
    const pending = ok.whenStatus('complete');
    ok.setStatus('complete');
    await expect(pending).resolves.toBe('complete');
    context.release();
  });
});

describe('VA plane transfers while OpenCL holds the surface (cl_intel_va_api_media_sharing 9.X.6)', () => {
  let xvfb: Xvfb;
  let va: VaApiSharing;
  let display: VaDisplay;
  let context: Context;
  let queue: CommandQueue;
  const W = 16,
    H = 8;
  const luma = Uint8Array.from({ length: W * H }, (_, i) => 16 + ((i * 5) % 220));
  const chroma = new Uint8Array(W * (H / 2)).fill(128);
  const inverted = luma.map((v) => 255 - v);

  beforeAll(async () => {
    xvfb = await startXvfb();
    useSoftva(xvfb.display);
    const platform = getPlatforms().find((p) => p.name === 'opencl-interop reference driver');
    if (!platform) throw new Error('the reference driver is not listed: run npm run build:driver (vitest sets OCL_ICD_VENDORS)');
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

  function invertLumaIn(surface: ReturnType<VaDisplay['createSurface']>) {
    const [y, uv] = va.createFromNV12Surface(context, surface);
    const program = context.createProgramWithBuiltInKernels(['invert_image']);
    const kernel = program.createKernel('invert_image').setArgs(y, y);
    return {
      y,
      uv,
      kernel,
      [Symbol.dispose]: () => {
        kernel.release();
        program.release();
      },
    };
  }

  it('acquired: readPlane, writePlane, read and write throw OpenCLStateError naming the queue; after the release they work', async () => {
    using surface = display.createSurface({ width: W, height: H });
    surface.write([luma, chroma]);
    using shared = invertLumaIn(surface);
    const scope = queue.acquire([shared.y, shared.uv]);
    const message =
      /VaSurface\.readPlane\(0\): VA surface \d+ plane 0 is acquired by OpenCL on the in-order queue on "opencl-interop reference device"; release it first/;
    expect(() => surface.readPlane(0)).toThrow(OpenCLStateError);
    expect(() => surface.readPlane(0)).toThrow(message);
    expect(() => surface.writePlane(1, chroma)).toThrow(/VaSurface\.writePlane\(1\): VA surface \d+ plane 0 is acquired by OpenCL/);
    expect(() => surface.read()).toThrow(OpenCLStateError);
    expect(() => surface.write([luma, chroma])).toThrow(OpenCLStateError);
    queue.enqueueKernel(shared.kernel, [W, H]);
    await scope[Symbol.asyncDispose]();
    expect(surface.readPlane(0)).toEqual(inverted);
  });

  it('a plain `using` scope only enqueues the release: readPlane waits for it (and refuses while a user event holds it back)', () => {
    using surface = display.createSurface({ width: W, height: H });
    surface.write([luma, chroma]);
    using shared = invertLumaIn(surface);
    const gate = context.createUserEvent();
    {
      using scope = queue.acquire([shared.y, shared.uv], { waitFor: [gate] });
      queue.enqueueKernel(shared.kernel, [W, H]);
      expect(scope.active).toBe(true);
    }
    // The images may go too: the release in flight is still waited for.
    shared.y.release();
    shared.uv.release();
    expect(() => surface.readPlane(0)).toThrow(
      /VaSurface\.readPlane\(0\) would block for ever: the release of VA surface \d+ plane 0 on the in-order queue on "opencl-interop reference device" waits on a user event/,
    );
    gate.setStatus('complete');
    expect(surface.readPlane(0)).toEqual(inverted);
  });

  it('a release whose event the application released: the read waits through the queue (clFinish)', () => {
    using surface = display.createSurface({ width: W, height: H });
    surface.write([luma, chroma]);
    using shared = invertLumaIn(surface);
    const gate = context.createUserEvent();
    queue.enqueueAcquireShared([shared.y, shared.uv], { waitFor: [gate] }).release();
    queue.enqueueKernel(shared.kernel, [W, H]).release();
    queue.enqueueReleaseShared([shared.y, shared.uv]).release();
    expect(() => surface.writePlane(0, luma)).toThrow(/would block for ever/);
    gate.setStatus('complete');
    expect(surface.readPlane(0)).toEqual(inverted);
    shared.y.release();
    shared.uv.release();
  });

  it('withAcquired awaits its release: releasing the queue and the images afterwards leaves nothing to wait for, and the read works', async () => {
    using surface = display.createSurface({ width: W, height: H });
    surface.write([luma, chroma]);
    using shared = invertLumaIn(surface);
    const ownQueue = context.createQueue();
    await ownQueue.withAcquired([shared.y, shared.uv], async () => {
      ownQueue.enqueueKernel(shared.kernel, [W, H]).release();
    });
    ownQueue.release();
    shared.y.release();
    shared.uv.release();
    expect(surface.readPlane(0)).toEqual(inverted);
  });
});

describe('kernels on CPU drivers run inside the process; what setArg(i, null) means (clSetKernelArg, NULL cl_mem)', () => {
  const kernels = `
    kernel void probe(global int *p, global int *flag) { flag[0] = p == 0 ? 1 : 2; }
    kernel void deref(global int *p) { p[get_global_id(0)] = 1; }`;

  it('setArg(i, null) passes a NULL pointer: the kernel sees p == 0', async () => {
    const { value } = await fresh(`
      (async () => {
        const program = context.createProgram(\`${kernels}\`);
        await program.build();
        const flag = context.createBuffer(4);
        await queue.enqueueKernel(program.createKernel('probe').setArgs(null, flag), 1);
        const out = new Int32Array(1);
        await queue.readBuffer(flag, out);
        done(out[0]);
      })();
    `);
    expect(value).toBe(1);
  });

  it('a kernel that dereferences a NULL argument kills the process on PoCL, as docs/core.md warns', async () => {
    const result = await runNode(
      prelude +
        `(async () => {
          const program = context.createProgram(\`${kernels}\`);
          await program.build();
          await queue.enqueueKernel(program.createKernel('deref').setArgs(null), 1);
          done('survived');
        })();`,
      { env: { OCL_ICD_VENDORS: process.env.OCL_ICD_VENDORS } },
    );
    expect(result.stdout).not.toContain('survived');
    expect(result.signal).toBe('SIGSEGV');
    const readme = readFileSync(resolve(repoRoot, 'docs/core.md'), 'utf8').replace(/\s+/g, ' ');
    expect(readme).toContain('a kernel that dereferences a NULL argument crashes');
    expect(readme).toContain("On CPU drivers (PoCL, Intel's and AMD's CPU runtimes) it runs inside the Node process");
    expect(readme).toContain('`setArg(i, null)` sets a `global` or `constant` pointer parameter to NULL');
  });
});

describe('a clear, typed error for every bad input', () => {
  it('the Direct3D module off Windows: all 33 entries; 30 throw the one Direct3DUnavailableError, the 3 table lookups answer', () => {
    if (process.platform === 'win32') return;
    const entries = Object.keys(direct3d).filter(
      (name) => typeof (direct3d as Record<string, unknown>)[name] === 'function' && !name.endsWith('Error'),
    );
    const lookups = ['hresultName', 'd3d9FormatLabel', 'dxgiFormatLabel'];
    expect(entries).toHaveLength(33);
    const wrong: string[] = [];
    for (const name of entries) {
      const entry = (direct3d as unknown as Record<string, (...args: unknown[]) => unknown>)[name]!;
      const isClass = /^class\b/.test(Function.prototype.toString.call(entry));
      for (const args of [[], [undefined], [{}], [1n, {}], [28]]) {
        let outcome: string;
        try {
          const value = isClass ? new (entry as unknown as new (...a: unknown[]) => unknown)(...args) : entry(...args);
          outcome = `returned ${typeof value}`;
        } catch (error) {
          outcome = error instanceof Direct3DUnavailableError ? 'unavailable' : `${(error as Error).name}: ${(error as Error).message}`;
        }
        // The lookups need no Windows: they answer a number and refuse anything else, naming the argument.
        const expected = !lookups.includes(name)
          ? 'unavailable'
          : typeof args[0] === 'number'
            ? 'returned string'
            : /^TypeError: (hresult|code) must be an integer/;
        if (expected instanceof RegExp ? expected.test(outcome) : outcome === expected) continue;
        wrong.push(`${isClass ? 'new ' : ''}${name}(${args.map(String).join(', ')}): ${outcome}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(() => direct3d.openclDeviceLuid(undefined as never)).toThrow('openclDeviceLuid() needs Windows');
    expect(() => new direct3d.SharedHandle(5n)).toThrow('new SharedHandle() needs Windows');
  });

  it('UserEvent.setStatus out of the cl_int range is a RangeError naming status (it used to wrap to complete)', () => {
    const { context } = poclSetup();
    const gate = context.createUserEvent();
    expect(() => gate.setStatus(-(2 ** 32))).toThrow(
      new RangeError("status must be 'complete' (0) or a negative error code from -1 to -2147483648 (a cl_int); got number -4294967296"),
    );
    expect(() => gate.setStatus(-(2 ** 31) - 1)).toThrow(RangeError);
    expect(gate.state).toBe('unset');
    gate.setStatus(-(2 ** 31));
    expect(gate.state).toBe('failed');
    context.release();
  });

  it("setArg(i, 2**60, 'long'): in range but not a safe integer, and the message points at bigint", async () => {
    const { context } = poclSetup();
    const program = context.createProgram('kernel void k(global long *a, long n) { a[0] = n; }');
    await program.build();
    const kernel = program.createKernel('k');
    expect(() => kernel.setArg(1, 2 ** 60, 'long')).toThrow(
      new RangeError(
        '1152921504606847000 is not a safe integer (beyond 2^53 a number has already lost its low bits), so it cannot be passed exactly as a long: pass it as a bigint (e.g. 1152921504606846976n)',
      ),
    );
    expect(() => kernel.setArg(1, 2 ** 64, 'long')).toThrow(/is not a valid long \(range/);
    kernel.setArg(1, 2n ** 60n, 'long');
    context.release();
  });

  it('forged events in waitFor (Object.create(Event.prototype), a Proxy) are a TypeError naming waitFor[i]', () => {
    const { context, queue } = poclSetup();
    const real = queue.enqueueMarker();
    const forged = 'an object that only inherits from Event.prototype (made with Object.create, or a Proxy of an Event)';
    expect(() => queue.enqueueMarker({ waitFor: [Object.create(Event.prototype)] })).toThrow(
      new TypeError(`waitFor[0] must be an Event the binding made (an enqueue's result or a user event); got ${forged}`),
    );
    expect(() => queue.enqueueMarker({ waitFor: [real, new Proxy(real, {})] })).toThrow(/^waitFor\[1\] must be an Event the binding made/);
    expect(() =>
      queue.fillBuffer(context.createBuffer(4), new Uint8Array(1), {
        waitFor: [
          new Proxy(real, {
            getPrototypeOf: () => {
              throw new Error('trap');
            },
          }),
        ],
      }),
    ).toThrow(/^waitFor\[0\] must be an Event/);
    expect(() => waitForEvents([new Proxy(real, {})])).toThrow(/^events\[0\] must be an Event the binding made/);
    real.waitSync();
    context.release();
  });

  it('PoCL without CL_RG: createImage says the format is not supported and what there is (it was a bare CL_INVALID_OPERATION)', () => {
    const { context } = poclSetup();
    const rg = context.supportedImageFormats().some((f) => f.order === 'RG' && f.type === 'UNORM_INT8');
    expect(rg).toBe(false);
    let thrown: unknown;
    try {
      context.createImage({ width: 8, height: 8, format: { order: 'RG', type: 'UNORM_INT8' } });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(OpenCLError);
    expect((thrown as Error).message).toMatch(
      /: the format RG\/UNORM_INT8 is not among the 2d image formats this context supports for access 'read-write' \(context.supportedImageFormats\(\)\); with UNORM_INT8 it has .*RGBA/,
    );
    context.release();
  });
});

describe("the VA module's errors (software VA driver on Xvfb, reference driver)", () => {
  let xvfb: Xvfb;
  let va: VaApiSharing;
  beforeAll(async () => {
    xvfb = await startXvfb();
    useSoftva(xvfb.display);
    const platform = getPlatforms().find((p) => p.name === 'opencl-interop reference driver')!;
    va = getSharing(platform, 'cl_intel_va_api_media_sharing');
  });
  afterAll(async () => {
    await xvfb.stop();
  });

  it('a detached ArrayBuffer (or a view of one) to writePlane, or as options.into, names the argument', () => {
    using display = openVaDisplay({ kind: 'x11' });
    using surface = display.createSurface({ width: 16, height: 8 });
    const detached = new ArrayBuffer(128);
    structuredClone(detached, { transfer: [detached] });
    expect(() => surface.writePlane(0, detached)).toThrow(new TypeError('data is a detached ArrayBuffer (it was transferred): its bytes are gone'));
    expect(() => surface.writePlane(0, new Uint8Array(detached))).toThrow(TypeError);
    const view = new Uint8Array(128);
    structuredClone(view.buffer, { transfer: [view.buffer] });
    expect(() => surface.writePlane(0, view)).toThrow(
      new TypeError('data is a view of a detached ArrayBuffer (it was transferred): its bytes are gone'),
    );
    expect(() => surface.readPlane(0, { into: view })).toThrow(/^options\.into is a view of a detached ArrayBuffer/);
  });

  it("a directory's fd to importDmaBuf is not a DMA-BUF; a closed fd is not open", () => {
    using display = openVaDisplay({ kind: 'x11' });
    const fd = openSync(tmpdir(), 'r');
    try {
      expect(() => display.importDmaBuf({ format: 'BGRA', width: 16, height: 8, planes: [{ fd, offset: 0, pitch: 64 }] })).toThrow(
        new TypeError(`planes[0].fd ${fd} is a directory, not a DMA-BUF (a DRM PRIME file descriptor)`),
      );
    } finally {
      closeSync(fd);
    }
    expect(() => display.importDmaBuf({ format: 'BGRA', width: 16, height: 8, planes: [{ fd, offset: 0, pitch: 64 }] })).toThrow(
      new RegExp(`^planes\\[0\\]\\.fd ${fd} is not an open file descriptor \\(EBADF\\)$`),
    );
  });

  it("an unknown surface id says the driver knows no such surface of the context's display", () => {
    using display = openVaDisplay({ kind: 'x11' });
    using context = va.createContext(display);
    expect(() => va.createFromSurface(context, 4242, 0)).toThrow(
      `clCreateFromVA_APIMediaSurfaceINTEL failed: CL_INVALID_VA_API_MEDIA_SURFACE_INTEL (-1099): VA surface 4242 plane 0: the driver knows no such surface of the context's VA display 0x${display.address.toString(16)}`,
    );
  });

  it("adopt() of a plain VADisplay with from: 'AVVAAPIDeviceContext' says it is a VADisplay", () => {
    using display = openVaDisplay({ kind: 'x11' });
    let thrown: unknown;
    try {
      VaDisplay.adopt(display.address, { from: 'AVVAAPIDeviceContext' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(VaDisplayError);
    expect((thrown as Error).message).toBe(
      `0x${display.address.toString(16)} is not a live AVVAAPIDeviceContext: it is a VADisplay itself, not an AVVAAPIDeviceContext holding one: adopt it with { from: 'VADisplay' } (the default)`,
    );
  });

  it("a context made on a display disposed since takes that display's own surfaces (the context keeps it alive)", () => {
    const display = openVaDisplay({ kind: 'x11' });
    using context = va.createContext(display);
    using surface = display.createSurface({ width: 16, height: 8 });
    display.dispose();
    const y = va.createFromSurface(context, surface, 0);
    expect(y.width).toBe(16);
    y.release();
  });

  it('a wrong LIBVA_DRIVERS_PATH is named in the VaDisplayError, not only VA_STATUS_ERROR_UNKNOWN', async () => {
    const { value } = await fresh(
      `
      const err = (f) => { try { f(); return 'opened'; } catch (e) { return e.name + ': ' + e.message; } };
      done([err(() => ocl.openVaDisplay({ kind: 'x11' })), (process.env.LIBVA_DRIVERS_PATH = '/nonexistent', err(() => ocl.openVaDisplay({ kind: 'x11' })))]);
    `,
      { env: { DISPLAY: xvfb.display, LIBVA_DRIVER_NAME: 'no_such_driver', LIBVA_DRIVERS_PATH: process.env.LIBVA_DRIVERS_PATH } },
    );
    expect(value[0]).toContain(
      `LIBVA_DRIVERS_PATH=${process.env.LIBVA_DRIVERS_PATH} has no no_such_driver_drv_video.so (LIBVA_DRIVER_NAME=no_such_driver): `,
    );
    expect(value[0]).toContain('(has ocl_interop_softva_drv_video.so)');
    expect(value[1]).toContain(
      'LIBVA_DRIVERS_PATH=/nonexistent has no no_such_driver_drv_video.so (LIBVA_DRIVER_NAME=no_such_driver): /nonexistent (not a readable folder)',
    );
  });
});
