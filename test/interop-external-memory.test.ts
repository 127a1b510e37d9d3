// cl_khr_external_memory (+ _opaque_fd, _dma_buf, _win32) and cl_khr_device_uuid
// through the public API: on the reference driver (through the ICD loader) every
// entry point and error, ownership of imported descriptors counted in
// /proc/self/fd; on PoCL typed "not supported" errors that leak no descriptor.
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLBuffer,
  CLImage,
  ExternalMemory,
  ImportedFrame,
  OpenCLError,
  OpenCLExtensionError,
  OpenCLHandleTypeError,
  OpenCLImportError,
  OpenCLReleasedError,
  OpenCLStateError,
  createContext,
  createVulkanInstance,
  externalExtensions,
  externalRecords,
  externalTokens,
  formatUuid,
  getExternalMemory,
  getSemaphores,
  getSharing,
  importDmaBuf,
  openVaDisplay,
  uuidString,
  VaDmaBuf,
} from '../lib';
import { outputOf, pocl, repoRoot, runNode, runProcess } from './helpers';
import {
  collectedInFreshProcess,
  isOpen,
  matchedToLavapipe,
  openFds,
  payload,
  platform,
  referenceQueue,
  refDevice,
  thrownBy,
} from './helpers/ref-driver';
import { type Xvfb, startXvfb, useSoftva } from './helpers/va';

/** The token table of shared/specs, copied into the repository with the reference driver's tests. */
const TOKENS_TSV = resolve(__dirname, 'driver/tests/external-memory-semaphore.tokens.tsv');

/** Descriptors open on the same file as `fd` (memfds and dma-bufs have a target of their own): counts that other activity cannot disturb. */
function fdsOn(target: string): number {
  let n = 0;
  for (const entry of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${entry}`) === target) n++;
    } catch {
      // closed meanwhile
    }
  }
  return n;
}
const targetOf = (fd: number) => readlinkSync(`/proc/self/fd/${fd}`);
function pattern(size: number, seed: number): Uint8Array {
  return Uint8Array.from({ length: size }, (_, i) => (i * 7 + seed) & 0xff);
}

describe('cl_khr_external_memory on the reference driver', () => {
  const device = refDevice;
  const memory: ExternalMemory = getExternalMemory(platform);
  const { context, queue } = referenceQueue();

  it('resolves the facade once per platform, also through platform.getSharing; its record lists the entry points', () => {
    expect(memory).toBeInstanceOf(ExternalMemory);
    expect(getExternalMemory(platform)).toBe(memory);
    expect(platform.getSharing('cl_khr_external_memory')).toBe(memory);
    // One registry of facades: getSharing takes the external memory / semaphore family too, and gives the same objects.
    expect(getSharing(platform, 'cl_khr_external_memory')).toBe(memory);
    expect(getSharing(platform, 'cl_khr_semaphore')).toBe(getSemaphores(platform));
    expect(platform.getSharing('cl_khr_semaphore')).toBe(getSemaphores(platform));
    expect(memory.entryPoints).toEqual(['clEnqueueAcquireExternalMemObjectsKHR', 'clEnqueueReleaseExternalMemObjectsKHR']);
    expect(externalExtensions.cl_khr_external_memory).toEqual(memory.entryPoints);
    expect(Object.keys(externalRecords)).toEqual([
      'cl_khr_external_memory',
      'cl_khr_semaphore',
      'cl_khr_external_semaphore',
      'cl_khr_external_semaphore_sync_fd',
    ]);
  });

  it('tokens: externalTokens has every row of shared/specs/external-memory-semaphore.tokens.tsv, and agrees with CL/cl_ext.h where Debian has them', () => {
    const rows = readFileSync(TOKENS_TSV, 'utf8')
      .trim()
      .split('\n')
      .map((line) => line.split('\t'));
    expect(rows).toHaveLength(44);
    expect(Object.keys(externalTokens)).toHaveLength(44);
    for (const [name, value] of rows) expect([name, (externalTokens as Record<string, number>)[name!]]).toEqual([name, Number(value)]);
    const header = readFileSync('/usr/include/CL/cl_ext.h', 'utf8');
    let compared = 0;
    for (const [name, value] of Object.entries(externalTokens)) {
      const match = new RegExp(`#define\\s+${name}\\s+(-?(?:0x[0-9a-fA-F]+|\\d+))`).exec(header);
      if (!match) continue;
      expect([name, Number(match[1])]).toEqual([name, value]);
      compared++;
    }
    expect(compared).toBeGreaterThan(30);
  });

  it('platform and device queries: import handle types (CL_PLATFORM/DEVICE_EXTERNAL_MEMORY_IMPORT_HANDLE_TYPES_KHR), assume-linear images', () => {
    expect(memory.importHandleTypes()).toEqual(['opaque-fd', 'dma-buf']);
    expect(memory.importHandleTypes(device)).toEqual(['opaque-fd', 'dma-buf']);
    expect(memory.assumeLinearImageHandleTypes(device)).toEqual(['opaque-fd', 'dma-buf']);
    expect(() => memory.importHandleTypes(pocl().getDevices()[0]!)).toThrow(TypeError);
    expect(() => memory.importHandleTypes({} as never)).toThrow(TypeError);
  });

  it('cl_khr_device_uuid: UUID, driver UUID as 8-4-4-4-12 hex, no LUID off Windows (CL_DEVICE_LUID_VALID_KHR false), node mask null', async () => {
    expect(device.uuid).toBe(formatUuid(Buffer.from('refdrv-device-01')));
    expect(device.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(device.driverUuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(device.luid).toBeNull();
    expect(device.nodeMask).toBeNull();
    expect(() => formatUuid(new Uint8Array(8))).toThrow(RangeError);
    // A device matched by UUID: the driver claims the UUID it is told (REFDRV_DEVICE_UUID).
    const claimed = '00112233445566778899aabbccddeeff';
    const run = await runNode(
      `const p = ocl.getPlatforms().find((p) => p.name === 'opencl-interop reference driver'); console.log(p.getDevices()[0].uuid);`,
      { env: { REFDRV_DEVICE_UUID: claimed } },
    );
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('00112233-4455-6677-8899-aabbccddeeff');
  });

  it('REFDRV_DEVICE_UUID takes the dashed form `opencl-interop info` prints as well as 32 hex digits; any other value is said on stderr, not ignored silently', async () => {
    const print = `const p = ocl.getPlatforms().find((p) => p.name === 'opencl-interop reference driver'); console.log(p.getDevices()[0].uuid);`;
    const dashed = await runNode(print, { env: { REFDRV_DEVICE_UUID: '6D657361-3232-2e33-2e36-000000000000' } });
    expect(dashed.stderr).toBe('');
    expect(dashed.stdout.trim()).toBe('6d657361-3232-2e33-2e36-000000000000');
    for (const bad of ['6d657361-32322e33-2e36-000000000000', '6d65736132322e332e3600000000000g', 'lavapipe']) {
      const run = await runNode(print, { env: { REFDRV_DEVICE_UUID: bad } });
      expect(run.stderr).toContain(`REFDRV_DEVICE_UUID must be 32 hex digits or the 8-4-4-4-12 form; got '${bad}': ignored`);
      expect(run.stdout.trim()).toBe(formatUuid(Buffer.from('refdrv-device-01')));
    }
  });

  it("clCreateBufferWithProperties with an opaque fd: acquire (await using) sees the exporter's bytes, release hands OpenCL's back", async () => {
    const fd = payload.opaqueFd(4096);
    payload.write(fd, pattern(4096, 1), { opaque: true });
    // The test's own view of the payload: the caller may not use fd after the import (the spec's ownership rule).
    const view = openSync(`/proc/self/fd/${fd}`, 'r+');
    let relinquished = 0;
    const buffer = memory.importBuffer(context, { handleType: 'opaque-fd', handle: fd, size: 4096, relinquish: () => relinquished++ });
    expect(relinquished).toBe(1); // the import took the descriptor
    expect(buffer).toBeInstanceOf(CLBuffer);
    expect(buffer.sharedWith).toBe('cl_khr_external_memory');
    expect(buffer.size).toBe(4096);
    expect(memory.importInfo(buffer)).toEqual({ handleType: 'opaque-fd', ownership: 'transferred', devices: null });
    expect(isOpen(fd)).toBe(false); // the import took it: the driver holds a duplicate of its own, the caller's number is closed once
    {
      await using scope = queue.acquire([buffer]);
      expect(buffer.acquired).toBe(true);
      const seen = new Uint8Array(4096);
      await queue.readBuffer(buffer, seen);
      expect(seen).toEqual(pattern(4096, 1));
      await queue.writeBuffer(buffer, pattern(4096, 9));
      expect(scope.active).toBe(true);
    }
    expect(buffer.acquired).toBe(false);
    expect(payload.read(view, 4096, { opaque: true })).toEqual(pattern(4096, 9));
    buffer.release();
    closeSync(view);
  });

  it('ownership (spec "File Descriptor Handle Types"): a successful import takes the fd, a failed one leaves it; duplicate keeps the caller\'s; counted in /proc/self/fd', () => {
    const before = openFds();
    for (let i = 0; i < 20; i++) {
      const fd = payload.opaqueFd(1024);
      memory.importBuffer(context, { handleType: 'opaque-fd', handle: fd, size: 1024 }).release();
      expect(isOpen(fd)).toBe(false);
    }
    expect(openFds()).toBe(before);
    // A failed import (the driver refuses a size beyond the payload) leaves the fd to the caller.
    const fd = payload.opaqueFd(1024);
    let relinquished = 0;
    expect(() => memory.importBuffer(context, { handleType: 'opaque-fd', handle: fd, size: 1 << 20, relinquish: () => relinquished++ })).toThrow(
      OpenCLError,
    );
    expect(relinquished).toBe(0);
    expect(isOpen(fd)).toBe(true);
    // duplicate: the import takes a duplicate; the caller's fd stays open and is the caller's to close.
    const buffer = memory.importBuffer(
      context,
      { handleType: 'opaque-fd', handle: fd, size: 1024, relinquish: () => relinquished++ },
      { duplicate: true },
    );
    expect(relinquished).toBe(0);
    buffer.release();
    expect(isOpen(fd)).toBe(true);
    closeSync(fd);
    // A failed import of a duplicate closes the duplicate.
    const fd2 = payload.opaqueFd(1024);
    const withFd = openFds();
    expect(() => memory.importBuffer(context, { handleType: 'opaque-fd', handle: fd2, size: 1 << 20 }, { duplicate: true })).toThrow(OpenCLError);
    expect(openFds()).toBe(withFd);
    closeSync(fd2);
    expect(openFds()).toBe(before);
  });

  it('acquire rules: use without acquire, a second acquire and a release without acquire are refused (CL_INVALID_OPERATION); an acquired object cannot be released', async () => {
    const buffer = memory.importBuffer(context, { handleType: 'dma-buf', handle: payload.dmaBuf(256), size: 256 });
    expect(() => queue.readBuffer(buffer, new Uint8Array(256), { blocking: true })).toThrow(/CL_INVALID_OPERATION.*not acquired/);
    expect(() => queue.enqueueReleaseShared([buffer])).toThrow(/CL_INVALID_OPERATION.*not acquired/);
    const acquired = queue.enqueueAcquireShared([buffer]);
    expect(() => queue.enqueueAcquireShared([buffer])).toThrow(/CL_INVALID_OPERATION.*already acquired/);
    expect(() => buffer.release()).toThrow(OpenCLStateError);
    const released = queue.enqueueReleaseShared([buffer]);
    await released;
    acquired.release();
    released.release();
    buffer.release();
    expect(() => queue.acquire([buffer])).toThrow(OpenCLReleasedError);
  });

  it('the device handle list (CL_MEM_DEVICE_HANDLE_LIST_KHR): devices of the context only; acquire on their queues', async () => {
    const buffer = memory.importBuffer(context, { handleType: 'dma-buf', handle: payload.dmaBuf(64), size: 64 }, { devices: [device] });
    expect(memory.importInfo(buffer).devices).toEqual([device]);
    await queue.withAcquired([buffer], async () => {
      await queue.fillBuffer(buffer, new Uint8Array([5]));
    });
    buffer.release();
    const fd = payload.dmaBuf(64);
    expect(() => memory.importBuffer(context, { handleType: 'dma-buf', handle: fd, size: 64 }, { devices: [pocl().getDevices()[0]!] })).toThrow(
      TypeError,
    );
    expect(() => memory.importBuffer(context, { handleType: 'dma-buf', handle: fd, size: 64 }, { devices: [] })).toThrow(TypeError);
    expect(isOpen(fd)).toBe(true);
    closeSync(fd);
  });

  it('clCreateImageWithProperties: an RGBA image over imported memory, written by the exporter, read through OpenCL', async () => {
    const fd = payload.dmaBuf(16 * 8 * 4);
    payload.write(fd, pattern(16 * 8 * 4, 3));
    const image = memory.importImage(
      context,
      { handleType: 'dma-buf', handle: fd, size: 16 * 8 * 4 },
      { format: { order: 'RGBA', type: 'UNORM_INT8' }, width: 16, height: 8 },
    );
    expect(image).toBeInstanceOf(CLImage);
    expect([image.width, image.height]).toEqual([16, 8]);
    {
      await using _ = queue.acquire([image]);
      const seen = new Uint8Array(16 * 8 * 4);
      await queue.readImage(image, seen);
      expect(seen).toEqual(pattern(16 * 8 * 4, 3));
    }
    image.release();
    expect(isOpen(fd)).toBe(false);
    expect(() => memory.importImage(context, { handleType: 'dma-buf', handle: 1, size: 4 }, null as never)).toThrow(TypeError);
    expect(() =>
      memory.importImage(context, { handleType: 'dma-buf', handle: 1, size: 4 }, { format: { order: 'RGBA', type: 'UNORM_INT8' }, width: 0 }),
    ).toThrow(RangeError);
  });

  it("NV12 planes of one allocation as { offset, pitch }: sub-buffers that follow the allocation's acquire", async () => {
    const width = 64,
      height = 32,
      pitch = 128,
      uvOffset = pitch * height + 256;
    const size = uvOffset + pitch * (height / 2);
    const fd = payload.opaqueFd(size);
    const bytes = pattern(size, 5);
    payload.write(fd, bytes, { opaque: true });
    const frame = memory.importPlanes(
      context,
      { handleType: 'opaque-fd', handle: fd, size },
      {
        format: 'NV12',
        width,
        height,
        planes: [
          { offset: 0, pitch },
          { offset: uvOffset, pitch },
        ],
      },
    );
    expect(frame).toBeInstanceOf(ImportedFrame);
    expect(frame.memory).toHaveLength(1);
    const [y, uv] = frame.planes as [CLBuffer, CLBuffer];
    expect(y.size).toBe(pitch * (height - 1) + width);
    expect(uv.size).toBe(pitch * (height / 2 - 1) + width);
    expect(uv.offset).toBe(uvOffset);
    expect(() => queue.readBuffer(uv, new Uint8Array(uv.size), { blocking: true })).toThrow(/not acquired/);
    {
      await using _ = queue.acquire(frame.memory);
      const seen = new Uint8Array(uv.size);
      await queue.readBuffer(uv, seen);
      expect(seen).toEqual(bytes.subarray(uvOffset, uvOffset + uv.size));
    }
    frame.release();
    expect(isOpen(fd)).toBe(false);
  });

  it("planes: P010 rows, layout errors before anything is imported (the fd stays the caller's), images only where the driver makes images over buffers", () => {
    const fd = payload.opaqueFd(1 << 16);
    const before = openFds();
    const handle = { handleType: 'opaque-fd' as const, handle: fd, size: 1 << 16 };
    expect(() =>
      memory.importPlanes(context, handle, {
        format: 'P010',
        width: 64,
        height: 32,
        planes: [
          { offset: 0, pitch: 64 },
          { offset: 8192, pitch: 128 },
        ],
      }),
    ).toThrow(/pitch 64 is less than a row .* \(128 bytes\)/);
    expect(() => memory.importPlanes(context, handle, { format: 'NV12', width: 64, height: 32, planes: [{ offset: 0, pitch: 64 }] })).toThrow(
      TypeError,
    );
    expect(() =>
      memory.importPlanes(context, handle, {
        format: 'NV12',
        width: 63,
        height: 32,
        planes: [
          { offset: 0, pitch: 64 },
          { offset: 4096, pitch: 64 },
        ],
      }),
    ).toThrow(RangeError);
    expect(() =>
      memory.importPlanes(context, handle, {
        format: 'NV12',
        width: 64,
        height: 32,
        planes: [
          { offset: 0, pitch: 64 },
          { offset: 4097, pitch: 64 },
        ],
      }),
    ).toThrow(/offset 4097 is not a multiple of 128 bytes.*CL_DEVICE_MEM_BASE_ADDR_ALIGN/);
    expect(() =>
      memory.importPlanes(context, handle, {
        format: 'NV12',
        width: 64,
        height: 32,
        planes: [
          { offset: 0, pitch: 64 },
          { offset: 1 << 16, pitch: 64 },
        ],
      }),
    ).toThrow(/runs past/);
    expect(() => memory.importPlanes(context, handle, { format: 'YUY2' as never, width: 64, height: 32, planes: [] })).toThrow(TypeError);
    expect(openFds()).toBe(before);
    expect(isOpen(fd)).toBe(true);
    // The reference driver (OpenCL 1.2) has no cl_khr_image2d_from_buffer: images over planes are refused, naming it.
    const error = thrownBy(() =>
      memory.importPlanes(context, handle, {
        format: 'P010',
        width: 64,
        height: 32,
        planes: [
          { offset: 0, pitch: 128 },
          { offset: 8192, pitch: 128 },
        ],
        as: 'images',
      }),
    );
    expect(error).toBeInstanceOf(OpenCLExtensionError);
    expect((error as OpenCLExtensionError).extension).toBe('cl_khr_image2d_from_buffer');
    expect(openFds()).toBe(before - 1); // the import took the fd and was released with the frame's parts
    expect(isOpen(fd)).toBe(false);
  });

  it("cl_khr_external_memory_dma_buf: planes of fds and Electron's nativePixmap import (their owners keep their fds), a non-linear modifier is refused", async () => {
    const width = 32,
      height = 16,
      pitch = 64;
    const size = (pitch * height * 3) / 2;
    const fd = payload.dmaBuf(size);
    payload.write(fd, pattern(size, 11));
    const before = openFds();
    const frame = importDmaBuf(context, {
      format: 'NV12',
      width,
      height,
      planes: [
        { fd, offset: 0, pitch },
        { fd, offset: pitch * height, pitch },
      ],
    });
    expect(frame.memory[0]!.size).toBe(size);
    expect(memory.importInfo(frame.memory[0]!).handleType).toBe('dma-buf');
    {
      await using _ = queue.acquire(frame.memory);
      const y = new Uint8Array((frame.planes[0] as CLBuffer).size);
      await queue.readBuffer(frame.planes[0] as CLBuffer, y);
      expect(y).toEqual(pattern(size, 11).subarray(0, y.byteLength));
    }
    frame.release();
    expect(openFds()).toBe(before);
    expect(isOpen(fd)).toBe(true); // duplicated for the import: the fd is still its owner's

    // Electron's `paint` texture on Linux: textureInfo.handle.nativePixmap, pixelFormat and codedSize.
    const bgra = payload.dmaBuf(16 * 4 * 4);
    const textureInfo = {
      pixelFormat: 'bgra',
      codedSize: { width: 16, height: 4 },
      handle: { nativePixmap: { planes: [{ fd: bgra, stride: 64, offset: 0, size: 256 }], modifier: '0' } },
    };
    const texture = memory.importDmaBuf(context, textureInfo);
    expect(texture.format).toBe('BGRA');
    expect((texture.planes[0] as CLBuffer).size).toBe(256);
    texture.release();
    expect(() =>
      memory.importDmaBuf(context, {
        ...textureInfo,
        handle: { nativePixmap: { ...textureInfo.handle.nativePixmap, modifier: '72057594037927935' } },
      }),
    ).toThrow(/DRM_FORMAT_MOD_INVALID/);
    memory
      .importDmaBuf(
        context,
        { ...textureInfo, handle: { nativePixmap: { ...textureInfo.handle.nativePixmap, modifier: '72057594037927935' } } },
        { assumeLinear: true },
      )
      .release();
    expect(() =>
      memory.importDmaBuf(context, {
        ...textureInfo,
        handle: { nativePixmap: { ...textureInfo.handle.nativePixmap, modifier: 0x0100000000000001n } },
      }),
    ).toThrow(/not linear/);
    // One check of a modifier for the VA module and this one (checkDrmModifier): a 64-bit value, the same words.
    const pixmapWith = (modifier: unknown) => ({
      ...textureInfo,
      handle: { nativePixmap: { ...textureInfo.handle.nativePixmap, modifier: modifier as bigint } },
    });
    expect(() => memory.importDmaBuf(context, pixmapWith(2n ** 64n))).toThrow(
      new TypeError(
        'modifier must be a 64-bit DRM format modifier (a bigint, or a string of its decimal or 0x hex digits); got the bigint 18446744073709551616n',
      ),
    );
    expect(() => memory.importDmaBuf(context, pixmapWith('linear'))).toThrow(
      new TypeError('modifier must be a 64-bit DRM format modifier (a bigint, or a string of its decimal or 0x hex digits); got the string "linear"'),
    );
    expect(() => memory.importDmaBuf(context, textureInfo.handle.nativePixmap)).toThrow(/pass options.format, width and height/);
    expect(openFds()).toBe(before + 1);
    closeSync(bgra);
    closeSync(fd);
    expect(openFds()).toBe(before - 1);
  });

  it('typed errors: a handle type the device cannot import names it, its extension and what the device imports; bad handles are TypeErrors', () => {
    const error = thrownBy(() => memory.importBuffer(context, { handleType: 'opaque-win32', handle: 0x40n, size: 64 }));
    expect(error).toBeInstanceOf(OpenCLHandleTypeError);
    expect(error).toBeInstanceOf(OpenCLExtensionError);
    const typed = error as OpenCLHandleTypeError;
    expect(typed.extension).toBe('cl_khr_external_memory_win32');
    expect(typed.handleType).toBe('opaque-win32');
    expect(typed.supported).toEqual(['opaque-fd', 'dma-buf']);
    expect(typed.device).toBe(device.name);
    expect(typed.message).toMatch(/cannot import opaque-win32 handles; importable: opaque-fd, dma-buf/);
    expect(() => memory.importBuffer(context, { handleType: 'opaque-fd', handle: -1, size: 64 })).toThrow(TypeError);
    const closed = payload.dmaBuf(64);
    closeSync(closed);
    expect(() => memory.importBuffer(context, { handleType: 'dma-buf', handle: closed, size: 64 })).toThrow(
      /file descriptor \d+ \(dma-buf\) is not open/,
    );
    expect(() => memory.importBuffer(context, { handleType: 'opaque-fd', handle: 3n as never, size: 64 })).toThrow(TypeError);
    expect(() => memory.importBuffer(context, { handleType: 'opaque-win32', handle: 0 as never, size: 64 })).toThrow(TypeError);
    expect(() => memory.importBuffer(context, { handleType: 'bogus' as never, handle: 1, size: 64 })).toThrow(
      /handleType must be one of opaque-fd, dma-buf/,
    );
    // A real export's shape (a memfd), so that each line fails on what it names.
    const memfd = payload.dmaBuf(64);
    expect(() => memory.importBuffer(context, { handleType: 'dma-buf', handle: memfd, size: 0 })).toThrow(RangeError);
    expect(() => memory.importBuffer(context, { handleType: 'dma-buf', handle: memfd, size: 64, disposed: true })).toThrow(OpenCLReleasedError);
    expect(() => memory.importBuffer(context, null as never)).toThrow(TypeError);
    expect(() => memory.importBuffer({} as never, { handleType: 'dma-buf', handle: memfd, size: 64 })).toThrow(/context must be a Context/);
    expect(() => memory.importBuffer(context, { handleType: 'dma-buf', handle: memfd, size: 64 }, { access: 'rw' as never })).toThrow(/access/);
    expect(isOpen(memfd)).toBe(true);
    closeSync(memfd);
  });

  it("an fd closed during the import (a getter of the options here; another thread that reused a stale number in the fuzzer, seeds 6 and 169): the TypeError of a closed fd, not fcntl's EBADF", () => {
    const fd = payload.dmaBuf(64);
    const closing = {
      duplicate: true,
      get access() {
        closeSync(fd);
        return 'read-write' as const;
      },
    };
    // Options are read once, before the handle is checked: the getter's close is seen there.
    expect(() => memory.importBuffer(context, { handleType: 'dma-buf', handle: fd, size: 64 }, closing)).toThrow(
      new TypeError(`handle.handle: file descriptor ${fd} (dma-buf) is not open`),
    );
    const plane = payload.dmaBuf(64);
    const before = openFds();
    expect(() =>
      importDmaBuf(
        context,
        { format: 'BGRA', width: 4, height: 4, planes: [{ fd: plane, pitch: 16 }] },
        {
          get access() {
            closeSync(plane);
            return 'read' as const;
          },
        },
      ),
    ).toThrow(new TypeError(`planes[0].fd must be an open file descriptor; ${plane} is not (EBADF)`));
    expect(openFds()).toBe(before - 1); // the getter's close; the import left nothing open
  });

  it('an imported object dropped without release is released by garbage collection, closing its fd (fresh process)', async () => {
    const [before, after] = await collectedInFreshProcess(`
      const memory = ocl.getExternalMemory(platform);
      // The driver holds a duplicate of each imported fd (the caller's is closed at the import): counted in /proc/self/fd.
      const open = () => require('node:fs').readdirSync('/proc/self/fd').length;
      const base = open();
      for (let i = 0; i < 50; i++) memory.importBuffer(context, { handleType: 'dma-buf', handle: ref.createDmaBuf(4096), size: 4096 });
      left = () => open() - base;`);
    expect([before, after]).toEqual([50, 0]);
  });
});

describe('mistakes with external memory that real drivers answer badly', () => {
  const memory: ExternalMemory = getExternalMemory(platform);
  const { context, queue } = referenceQueue();

  it("a descriptor that is no export (a regular file, a FIFO, a socket, a directory) is a TypeError saying what it is and what is expected, before the driver (NVIDIA answers 999); the fd stays the caller's", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ocl-extmem-'));
    const server = createServer();
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const file = openSync('/etc/hostname', 'r');
      await outputOf('mkfifo', [join(dir, 'fifo')]);
      const fifo = openSync(join(dir, 'fifo'), 'r+'); // O_RDWR: opens without a writer
      const folder = openSync(dir, 'r');
      const socket = (server as unknown as { _handle: { fd: number } })._handle.fd;
      const cases: [number, RegExp][] = [
        [file, /is the regular file \/etc\/hostname, not an exported dma-buf handle; expected an exported DMA-BUF \(vkGetMemoryFdKHR/],
        [fifo, /is a pipe or FIFO, not an exported dma-buf handle/],
        [socket, /is a socket, not an exported dma-buf handle/],
        [folder, /is a directory, not an exported dma-buf handle/],
      ];
      for (const [fd, message] of cases) {
        const error = thrownBy(() => memory.importBuffer(context, { handleType: 'dma-buf', handle: fd, size: 64 }));
        expect(error).toBeInstanceOf(TypeError);
        expect((error as Error).message).toMatch(new RegExp(`^handle\\.handle: file descriptor ${fd} `));
        expect((error as Error).message).toMatch(message);
        expect(isOpen(fd)).toBe(true);
      }
      expect(() => memory.importBuffer(context, { handleType: 'opaque-fd', handle: file, size: 64 })).toThrow(
        /not an exported opaque-fd handle; expected memory exported as an opaque fd \(vkGetMemoryFdKHR/,
      );
      expect(() => getSemaphores(platform).import(context, { handleType: 'opaque-fd', handle: fifo })).toThrow(
        /is a pipe or FIFO, not an exported opaque-fd handle; expected a semaphore exported as an opaque fd/,
      );
      expect(() => getSemaphores(platform).import(context, { handleType: 'sync-fd', handle: file })).toThrow(
        /not an exported sync-fd handle; expected a sync file/,
      );
      // A file with no name (as a memfd has none) goes to the driver; its refusal is typed and says why.
      const unnamedPath = join(dir, 'unnamed');
      const unnamed = openSync(unnamedPath, 'w+');
      unlinkSync(unnamedPath);
      const refused = thrownBy(() => memory.importBuffer(context, { handleType: 'dma-buf', handle: unnamed, size: 64 }));
      expect(refused).toBeInstanceOf(OpenCLImportError);
      expect(refused).toBeInstanceOf(OpenCLError);
      expect((refused as OpenCLImportError).code).toBe('CL_INVALID_PROPERTY');
      expect((refused as OpenCLImportError).handleType).toBe('dma-buf');
      expect((refused as Error).message).toMatch(new RegExp(`most likely file descriptor ${unnamed} is not an exported DMA-BUF`));
      expect(isOpen(unnamed)).toBe(true);
      for (const fd of [file, fifo, folder, unnamed]) closeSync(fd);
    } finally {
      server.close();
      rmSync(dir, { recursive: true });
    }
  });

  it('the same fd imported twice (spec "File Descriptor Handle Types": a successful import takes the fd): the second import is a TypeError, the fd is not open; no close ever hits a file opened in between', () => {
    const fd = payload.opaqueFd(64);
    const handle = { handleType: 'opaque-fd' as const, handle: fd, size: 64 };
    const first = memory.importBuffer(context, handle);
    // The driver was given a duplicate; the caller's number was closed once, at the import, whatever the driver does with its own.
    expect(isOpen(fd)).toBe(false);
    expect(() => memory.importBuffer(context, handle)).toThrow(new TypeError(`handle.handle: file descriptor ${fd} (opaque-fd) is not open`));
    expect(() => memory.importBuffer(context, handle, { duplicate: true })).toThrow(/is not open/);
    const unrelated = openSync('/etc/hostname', 'r'); // most likely the same number
    expect(unrelated).toBe(fd);
    // Imported under that number now: refused before the driver (a named regular file), and it stays open.
    expect(() => memory.importBuffer(context, handle)).toThrow(/is the regular file \/etc\/hostname/);
    first.release(); // the driver closes its own duplicate
    expect(isOpen(unrelated)).toBe(true);
    closeSync(unrelated);
    const again = payload.opaqueFd(64);
    memory.importBuffer(context, { handleType: 'opaque-fd', handle: again, size: 64 }).release();
  });

  it("an acquire behind an unset user event is refused before the driver (NVIDIA's returns only once its wait list has ended: the thread stopped for ever); set first, the gate is fine", async () => {
    const fd = payload.dmaBuf(64);
    payload.write(fd, new Uint8Array(64).fill(0x5a));
    const buffer = memory.importBuffer(context, { handleType: 'dma-buf', handle: fd, size: 64 }, { duplicate: true });
    const gate = context.createUserEvent();
    const refused =
      /^clEnqueueAcquireExternalMemObjectsKHR \(on NVIDIA's driver it returns only once its wait list has ended\) would block for ever: the command waits on a user event that is not set yet\. Set it first \(userEvent\.setStatus\(\)\), then enqueue this command\.$/;
    expect(() => queue.acquire([buffer], { waitFor: [gate] })).toThrow(OpenCLStateError);
    expect(() => queue.enqueueAcquireShared([buffer], { waitFor: [gate] })).toThrow(refused);
    // through a command that waits on it too
    const marker = queue.enqueueMarker({ waitFor: [gate] });
    expect(() => queue.acquire([buffer], { waitFor: [marker] })).toThrow(refused);
    expect(buffer.acquired).toBe(false);
    gate.setStatus('complete');
    await marker;
    {
      await using scope = queue.acquire([buffer], { waitFor: [gate, marker] });
      const seen = new Uint8Array(64);
      await queue.readBuffer(buffer, seen);
      expect(seen).toEqual(new Uint8Array(64).fill(0x5a));
      expect(scope.active).toBe(true);
    }
    expect(payload.read(fd, 64)).toEqual(new Uint8Array(64).fill(0x5a));
    buffer.release();
    closeSync(fd);
    gate.release();
    marker.release();
  });

  it('queue.acquire(frame.planes) says to acquire frame.memory (the planes follow it)', () => {
    const fd = payload.dmaBuf(4096);
    const frame = importDmaBuf(context, {
      format: 'NV12',
      width: 32,
      height: 16,
      planes: [
        { fd, offset: 0, pitch: 32 },
        { fd, offset: 1024, pitch: 32 },
      ],
    });
    expect(() => queue.acquire(frame.planes)).toThrow(
      /^objects\[0\] is a sub-buffer of external memory \(dma-buf, \d+ bytes\): it is acquired and released through the memory it was made from\. Acquire that memory object \(for an ImportedFrame, frame\.memory\); its sub-buffers and planes follow it$/,
    );
    expect(() => queue.acquire([context.createBuffer(16)])).toThrow(
      /not created through a sharing extension: acquire takes memory made from another API's resource \(a Direct3D texture or surface, a VA surface\) or imported from memory it exported \(external memory: Vulkan, DMA-BUF\)$/,
    );
    frame.release();
    closeSync(fd);
  });

  it('options and handle properties are read once: a getter that changes its answer cannot pass the checks and hand the driver something else', () => {
    const reads: Record<string, number> = {};
    const counted = <T extends object>(values: T): T => {
      const object = {} as T;
      for (const [key, value] of Object.entries(values)) {
        Object.defineProperty(object, key, {
          enumerable: true,
          get: () => ((reads[key] = (reads[key] ?? 0) + 1) === 1 ? value : key === 'size' ? 1 << 30 : undefined),
        });
      }
      return object;
    };
    const fd = payload.dmaBuf(64);
    const buffer = memory.importBuffer(
      context,
      counted({ handleType: 'dma-buf' as const, handle: fd, size: 64 }),
      counted({ devices: [refDevice], access: 'read' as const, duplicate: true }),
    );
    expect(buffer.size).toBe(64);
    expect(memory.importInfo(buffer).devices).toEqual([refDevice]);
    expect(reads).toEqual({ handleType: 1, handle: 1, size: 1, devices: 1, access: 1, duplicate: 1 });
    buffer.release();
    for (const key of Object.keys(reads)) delete reads[key];
    const frame = memory.importPlanes(
      context,
      counted({ handleType: 'dma-buf' as const, handle: fd, size: 64 }),
      counted({ format: 'RGBA' as const, width: 4, height: 4, planes: [{ offset: 0, pitch: 16 }], duplicate: true, devices: [refDevice] }),
    );
    expect(frame.memory[0]!.size).toBe(64);
    expect(reads).toEqual({ handleType: 1, handle: 1, size: 1, format: 1, width: 1, height: 1, planes: 1, duplicate: 1, devices: 1 });
    frame.release();
    for (const key of Object.keys(reads)) delete reads[key];
    const tiled = thrownBy(() =>
      memory.importImage(
        context,
        counted({ handleType: 'dma-buf' as const, handle: fd, size: 64 }),
        counted({ format: { order: 'RGBA', type: 'UNORM_INT8' } as const, width: 4, height: 4, tiling: 'optimal' as const, duplicate: true }),
      ),
    );
    expect(tiled).toBeInstanceOf(Error);
    expect(reads.tiling).toBe(1);
    for (const key of Object.keys(reads)) delete reads[key];
    const semaphoreOptions = counted({ device: refDevice });
    getSemaphores(platform).create(context, semaphoreOptions).release();
    expect(reads).toEqual({ device: 1 });
    closeSync(fd);
  });
});

describe('a VA-API surface exported as DMA-BUF (the real libva, the software VA driver) imported into OpenCL', () => {
  let xvfb: Xvfb;
  beforeAll(async () => {
    xvfb = await startXvfb();
    useSoftva(xvfb.display);
  });
  afterAll(async () => {
    await xvfb?.stop();
  });

  it('importDmaBuf(VaDmaBuf): the NV12 planes at the exported offsets and pitches, read and written through OpenCL; the VaDmaBuf keeps its fds', async () => {
    const context = createContext({ devices: platform.getDevices() });
    const queue = context.createQueue();
    using display = openVaDisplay({ kind: 'x11' });
    using surface = display.createSurface({ width: 32, height: 16 });
    surface.write([pattern(512, 5), pattern(256, 6)]);
    const dmabuf = surface.exportDmaBuf();
    expect(dmabuf).toBeInstanceOf(VaDmaBuf);
    const target = targetOf(dmabuf.objects[0]!.fd);
    const before = fdsOn(target);
    const frame = importDmaBuf(context, dmabuf);
    expect(frame.format).toBe('NV12');
    expect(fdsOn(target)).toBe(before + 1); // a duplicate, the driver's from the import on
    const [yLayout, uvLayout] = dmabuf.layers[0]!.planes;
    {
      await using _ = queue.acquire(frame.memory);
      const y = new Uint8Array((frame.planes[0] as CLBuffer).size);
      await queue.readBuffer(frame.planes[0] as CLBuffer, y);
      for (let row = 0; row < 16; row++)
        expect(y.subarray(row * yLayout!.pitch, row * yLayout!.pitch + 32)).toEqual(pattern(512, 5).subarray(row * 32, row * 32 + 32));
      await queue.fillBuffer(frame.planes[1] as CLBuffer, new Uint8Array([77]));
    }
    expect((frame.planes[1] as CLBuffer).offset).toBe(uvLayout!.offset);
    expect(surface.readPlane(1).every((b) => b === 77)).toBe(true);
    frame.release();
    expect(fdsOn(target)).toBe(before);
    expect(dmabuf.objects.every((o) => isOpen(o.fd))).toBe(true);
    dmabuf.close();
    queue.release();
    context.release();
  });

  it('importDmaBuf of a VaDmaBuf whose fds were closed behind its back, or of a closed fd: a TypeError naming planes[i].fd, not a raw EBADF (fresh process)', async () => {
    // In a process of its own: the VaDmaBuf closes its fd numbers again when collected, whatever they name by then.
    const attempt = (source: 'dmabuf' | 'descriptor') =>
      runNode(
        `const { closeSync } = require('node:fs');
         const platform = ocl.getPlatforms().find((p) => p.name === 'opencl-interop reference driver');
         const context = ocl.createContext({ devices: platform.getDevices() });
         const display = ocl.openVaDisplay({ kind: 'x11' });
         const dmabuf = display.createSurface({ width: 32, height: 16 }).exportDmaBuf();
         const descriptor = dmabuf.toImport();
         closeSync(dmabuf.objects[0].fd);
         try { ocl.importDmaBuf(context, ${source}); console.log('imported'); } catch (e) { console.log(e.name + ': ' + e.message.replace(/\\d+ is not/, 'N is not')); }`,
        { env: { OCL_ICD_VENDORS: process.env.OCL_ICD_VENDORS } },
      );
    const expected = {
      dmabuf:
        "TypeError: planes[0].fd must be an open file descriptor; N is not (EBADF): the VaDmaBuf's fds were closed behind its back (close() it instead)",
      descriptor: 'TypeError: planes[0].fd must be an open file descriptor; N is not (EBADF)',
    };
    for (const source of ['dmabuf', 'descriptor'] as const) {
      const result = await attempt(source);
      expect(result.stderr).toBe('');
      expect(result.stdout.trim()).toBe(expected[source]);
      expect(result.status).toBe(0);
    }
  });
});

describe('end to end with a real Vulkan producer (lavapipe): Vulkan writes, OpenCL imports through the reference driver, reads and rewrites, Vulkan reads back', () => {
  it("a Vulkan buffer exported as an opaque fd (lavapipe's memfd, the allocation at 4096): matched by UUID, imported, acquired, rewritten, read back by Vulkan; the fd counted", async () => {
    // The reference driver claims lavapipe's deviceUUID, as a GPU's OpenCL and Vulkan drivers report the same one.
    using matched = matchedToLavapipe();
    const { physical, device, vk, context, queue, memory } = matched;
    expect(device.uuid).toBe(uuidString(physical.deviceUUID));
    const size = 1 << 16;
    using vkBuffer = vk.createBuffer({ size });
    await vkBuffer.write(pattern(size, 17));
    const exported = vkBuffer.exportMemory('opaque-fd');
    const fd = exported.handle as number;
    const target = targetOf(fd);
    const before = fdsOn(target);
    const clBuffer = memory.importBuffer(context, exported, { size });
    expect(exported.owned).toBe(false); // relinquished: the import took the fd
    expect(isOpen(fd)).toBe(false); // closed at the import; the driver holds a duplicate
    {
      await using _ = queue.acquire([clBuffer]);
      const seen = new Uint8Array(size);
      await queue.readBuffer(clBuffer, seen);
      expect(seen).toEqual(pattern(size, 17));
      await queue.writeBuffer(clBuffer, pattern(size, 23));
    }
    expect(await vkBuffer.read(0, size)).toEqual(pattern(size, 23));
    clBuffer.release();
    expect(isOpen(fd)).toBe(false);
    expect(fdsOn(target)).toBe(before - 1); // the exported descriptor, closed with the memory object that owned it

    // NV12 planes of one Vulkan allocation, as { offset, pitch }.
    const width = 64,
      height = 32,
      pitch = 128,
      uvOffset = pitch * height;
    const frameBytes = uvOffset + pitch * (height / 2);
    using frameBuffer = vk.createBuffer({ size: frameBytes });
    await frameBuffer.write(pattern(frameBytes, 29));
    const frameExport = frameBuffer.exportMemory();
    const frameTarget = targetOf(frameExport.handle as number);
    const beforeFrame = fdsOn(frameTarget);
    const frame = memory.importPlanes(context, frameExport, {
      size: frameBytes,
      format: 'NV12',
      width,
      height,
      planes: [
        { offset: 0, pitch },
        { offset: uvOffset, pitch },
      ],
    });
    {
      await using _ = queue.acquire(frame.memory);
      await queue.fillBuffer(frame.planes[1] as CLBuffer, new Uint8Array([128]));
    }
    const back = await frameBuffer.read(0, frameBytes);
    expect(back.subarray(0, uvOffset)).toEqual(pattern(frameBytes, 29).subarray(0, uvOffset));
    expect(back.subarray(uvOffset, uvOffset + (frame.planes[1] as CLBuffer).size).every((b) => b === 128)).toBe(true);
    frame.release();
    expect(fdsOn(frameTarget)).toBe(beforeFrame - 1);
  });

  it('two exports of one Vulkan allocation, both imported and acquired together, are one memory (cl_khr_external_memory: imports of one allocation alias it): writes through either are seen through the other and survive both releases', async () => {
    // Before: each import had its own device copy; a write through one was not seen through the
    // other, and the later release wrote its stale copy over the earlier one's write.
    using matched = matchedToLavapipe();
    const { vk, context, queue, memory } = matched;
    const size = 4096,
      half = size / 2;
    using vkBuffer = vk.createBuffer({ size });
    await vkBuffer.write(pattern(size, 3));
    for (const releaseOrder of [
      ['a', 'b'],
      ['b', 'a'],
    ] as const) {
      const a = memory.importBuffer(context, vkBuffer.exportMemory(), { size });
      const b = memory.importBuffer(context, vkBuffer.exportMemory(), { size });
      const byName = { a, b };
      await queue.enqueueAcquireShared([a]).completed;
      await queue.enqueueAcquireShared([b]).completed;
      await queue.writeBuffer(a, pattern(half, 41), { offset: 0 });
      const seen = new Uint8Array(size);
      await queue.readBuffer(b, seen);
      expect(seen.subarray(0, half)).toEqual(pattern(half, 41));
      expect(seen.subarray(half)).toEqual(pattern(size, 3).subarray(half));
      await queue.writeBuffer(b, pattern(half, 43), { offset: half });
      await queue.readBuffer(a, seen);
      expect(seen.subarray(half)).toEqual(pattern(half, 43));
      for (const name of releaseOrder) await queue.enqueueReleaseShared([byName[name]]).completed;
      const back = await vkBuffer.read();
      expect(back.subarray(0, half)).toEqual(pattern(half, 41));
      expect(back.subarray(half)).toEqual(pattern(half, 43));
      a.release();
      b.release();
      await vkBuffer.write(pattern(size, 3));
    }
  });
});

describe('the external-memory example (extracted from docs/external-memory.md, so that it cannot drift)', () => {
  it('type-checks against the published types and runs: Vulkan writes, OpenCL reads and rewrites, Vulkan reads back (reference driver matched to lavapipe)', async () => {
    const section = readFileSync(resolve(repoRoot, 'docs/external-memory.md'), 'utf8');
    const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    expect(block).toMatch(/from 'opencl-interop'/);
    // A project that installed the package: node_modules/opencl-interop is this repository (its package.json exports).
    const dir = mkdtempSync(join(tmpdir(), 'readme-example-'));
    try {
      mkdirSync(join(dir, 'node_modules'));
      symlinkSync(repoRoot, join(dir, 'node_modules', 'opencl-interop'));
      symlinkSync(resolve(repoRoot, 'node_modules/@types'), join(dir, 'node_modules', '@types'));
      const file = join(dir, 'example.mts');
      writeFileSync(file, block!);
      const program = ts.createProgram([file], {
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        target: ts.ScriptTarget.ES2022,
        lib: ['lib.es2022.d.ts', 'lib.esnext.disposable.d.ts'],
        types: ['node'],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
      });
      const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(diagnostics).toEqual([]);
      const js = ts.transpileModule(block!, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
      writeFileSync(join(dir, 'example.mjs'), js);
      const lavapipe = createVulkanInstance();
      const uuid = Buffer.from(lavapipe.physicalDevices()[0]!.deviceUUID).toString('hex');
      lavapipe.dispose();
      const run = await runProcess(process.execPath, [join(dir, 'example.mjs')], { cwd: dir, env: { REFDRV_DEVICE_UUID: uuid } });
      expect(run.stderr).toBe('');
      expect(run.stdout.trim()).toBe('shared both ways');
      expect(run.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('external memory on PoCL: not supported, typed errors, no descriptor leaked', () => {
  it('getExternalMemory names cl_khr_external_memory; importDmaBuf names cl_khr_external_memory_dma_buf; the fd stays open and the count unchanged', () => {
    const platform = pocl();
    const device = platform.getDevices()[0]!;
    expect(device.uuid).toBeNull(); // PoCL 3.1 has no cl_khr_device_uuid
    expect(device.luid).toBeNull();
    const context = createContext({ devices: [device] });
    const fd = payload.dmaBuf(4096);
    const before = openFds();
    let error = thrownBy(() => getExternalMemory(platform));
    expect(error).toBeInstanceOf(OpenCLExtensionError);
    expect((error as OpenCLExtensionError).extension).toBe('cl_khr_external_memory');
    expect(() => platform.getSharing('cl_khr_external_memory')).toThrow(OpenCLExtensionError);
    error = thrownBy(() => importDmaBuf(context, { format: 'RGBA', width: 16, height: 16, planes: [{ fd, pitch: 64 }] }));
    expect(error).toBeInstanceOf(OpenCLExtensionError);
    expect((error as OpenCLExtensionError).extension).toBe('cl_khr_external_memory_dma_buf');
    expect((error as Error).message).toContain('Portable Computing Language');
    expect(openFds()).toBe(before);
    expect(isOpen(fd)).toBe(true);
    closeSync(fd);
    context.release();
  });
});
