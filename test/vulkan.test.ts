// The Vulkan module through the public API, on the real Vulkan loader with
// lavapipe (mesa-vulkan-drivers: Vulkan on the CPU). lavapipe exports memory as
// opaque fds (VK_KHR_external_memory_fd: a memfd holding the allocation at
// offset 4096) and has no dma-buf, no external semaphores and no NV12: those
// are tested as the typed "not supported" errors. Test names cite the Vulkan
// 1.3 specification's sections.
import { closeSync, fstatSync, mkdtempSync, readSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  VULKAN_LOADER_ENV,
  VulkanBuffer,
  VulkanCommands,
  type VulkanDevice,
  VulkanDisposedError,
  VulkanError,
  VulkanExportedHandle,
  type VulkanInstance,
  VulkanNotSupportedError,
  VulkanStateError,
  VulkanUnavailableError,
  createVulkanInstance,
  formatUuid,
  loadVulkan,
  loadedVulkan,
  nv12TestFrame,
  uuidString,
  vkResultName,
} from '../lib';
import { join, resolve } from 'node:path';
import { outputOf, repoRoot, runNode } from './helpers';

const openFds = () => readdirSync('/proc/self/fd').length;

let instance: VulkanInstance;
let device: VulkanDevice;
beforeAll(() => {
  instance = createVulkanInstance();
  device = instance.createDevice();
});
afterAll(() => {
  device?.dispose();
  instance?.dispose();
});

describe('the loader (Vulkan 1.3 §4.1 Command Function Pointers): libvulkan.so.1 opened at run time', () => {
  it('loads the system loader and reports its instance version (vkEnumerateInstanceVersion)', () => {
    const loaded = loadVulkan();
    expect(loaded.path).toBe('libvulkan.so.1');
    expect(loaded.apiVersion).toBeGreaterThanOrEqual((1 << 22) | (1 << 12));
    expect(loaded.version).toMatch(/^1\.\d+\.\d+$/);
    expect(loadedVulkan()).toBe(loaded);
  });

  it('a second, different library in the same process is a VulkanUnavailableError', () => {
    expect(() => loadVulkan({ library: '/nowhere/libvulkan.so.1' })).toThrow(VulkanUnavailableError);
    expect(() => loadVulkan({ library: '' })).toThrow(TypeError);
    expect(() => loadVulkan(null as never)).toThrow(TypeError);
    expect(() => loadVulkan({ library: 7 as never })).toThrow(TypeError);
  });

  it('a missing loader ($OPENCL_INTEROP_VULKAN_LOADER names no file) is a VulkanUnavailableError naming what to install', async () => {
    const result = await runNode(
      `try { ocl.createVulkanInstance(); console.log('no error'); } catch (e) {
         console.log(JSON.stringify({ name: e.name, attempts: e.attempts, message: e.message, unavailable: e instanceof ocl.VulkanUnavailableError }));
       }
       try { ocl.loadVulkan(); } catch (e) { console.log('again', e.name); }`,
      { env: { [VULKAN_LOADER_ENV]: '/nonexistent/libvulkan.so.1' } },
    );
    expect(result.stderr).toBe('');
    const [first, second] = result.stdout.trim().split('\n');
    const report = JSON.parse(first!);
    expect(report.name).toBe('VulkanUnavailableError');
    expect(report.unavailable).toBe(true);
    expect(report.attempts[0].path).toBe(`/nonexistent/libvulkan.so.1 (from ${VULKAN_LOADER_ENV})`);
    expect(report.attempts[0].error).toMatch(/No such file/);
    expect(report.message).toMatch(/libvulkan1/);
    expect(report.message).toMatch(/mesa-vulkan-drivers/);
    expect(second).toBe('again VulkanUnavailableError');
  });

  it('a library that is not a Vulkan loader (no vkGetInstanceProcAddr) is a VulkanUnavailableError', async () => {
    const result = await runNode(`try { ocl.loadVulkan({ library: 'libz.so.1' }); } catch (e) { console.log(e.name, e.attempts[0].error); }`);
    expect(result.stdout.trim()).toBe('VulkanUnavailableError the library has no vkGetInstanceProcAddr');
  });

  it('the package imports without Vulkan: nothing is loaded until a Vulkan call', async () => {
    const result = await runNode(`console.log(ocl.loadedVulkan())`, { env: { [VULKAN_LOADER_ENV]: '/nonexistent' } });
    expect(result.stdout.trim()).toBe('null');
  });
});

describe('instances and physical devices (§5.1, VkPhysicalDeviceIDProperties, §12.8 External Memory Capabilities)', () => {
  it('lists lavapipe with its UUIDs, node mask, driver and what it can share, as vulkaninfo does', async () => {
    const devices = instance.physicalDevices();
    expect(devices.length).toBeGreaterThanOrEqual(1);
    const d = devices.find((x) => x.name.startsWith('llvmpipe'))!;
    expect(d).toBeDefined();
    expect(d.type).toBe('cpu');
    expect(d.deviceUUID).toBeInstanceOf(Uint8Array);
    expect(d.deviceUUID.length).toBe(16);
    expect(d.driverUUID.length).toBe(16);
    expect(d.deviceLUID).toBeNull(); // deviceLUIDValid = false on Linux
    expect(d.nodeMask).toBe(0);
    expect(d.driverName).toBe('llvmpipe');
    expect(d.queueFamily).toBe(0);
    expect(d.memoryExport).toEqual(['opaque-fd']);
    expect(d.memoryImport).toContain('opaque-fd');
    expect(d.semaphoreExport).toEqual([]);
    expect(d.memoryHandleTypes.find((s) => s.handleType === 'dma-buf')!.exportable).toBe(false);
    expect(d.extensions).toContain('VK_KHR_external_memory_fd');
    const info = await outputOf('vulkaninfo', []);
    expect(info).toContain(`deviceUUID      = ${uuidString(d.deviceUUID)}`);
    expect(info).toContain(`driverUUID      = ${uuidString(d.driverUUID)}`);
  });

  it("uuidString is the core's formatUuid (one formatter for CL_DEVICE_UUID_KHR and deviceUUID): 8-4-4-4-12 lowercase hex, 16 bytes or a RangeError", () => {
    expect(uuidString).toBe(formatUuid);
    expect(uuidString(Uint8Array.from({ length: 16 }, (_, i) => i * 17))).toBe('00112233-4455-6677-8899-aabbccddeeff');
    expect(() => uuidString(new Uint8Array(15))).toThrow(RangeError);
  });

  it('createDevice({ uuid }) picks the device whose deviceUUID matches (what an OpenCL device reports as CL_DEVICE_UUID_KHR)', () => {
    const d = instance.physicalDevices()[0]!;
    using byUuid = instance.createDevice({ uuid: new Uint8Array(d.deviceUUID) });
    expect(byUuid.physicalDevice).toBe(d);
    using byIndex = instance.createDevice({ index: 0 });
    expect(byIndex.name).toBe(d.name);
    expect(byIndex.extensions).toEqual(['VK_KHR_external_memory_fd']);
    expect(byIndex.memoryHandleTypes).toEqual(['opaque-fd']);
    expect(byIndex.semaphoreHandleTypes).toEqual([]);
  });

  it('createDevice: an unknown UUID is a VulkanNotSupportedError listing the devices; bad options are typed errors', () => {
    const unknown = new Uint8Array(16).fill(0xab);
    expect(() => instance.createDevice({ uuid: unknown })).toThrow(VulkanNotSupportedError);
    expect(() => instance.createDevice({ uuid: unknown })).toThrow(/abababab-abab.*llvmpipe.*\(6d657361/);
    expect(() => instance.createDevice({ uuid: new Uint8Array(8) })).toThrow(TypeError);
    expect(() => instance.createDevice({ uuid: [1, 2] as never })).toThrow(TypeError);
    expect(() => instance.createDevice({ index: 99 })).toThrow(RangeError);
    expect(() => instance.createDevice({ index: 0, uuid: unknown })).toThrow(TypeError);
    expect(() => instance.createDevice({ name: 'x' } as never)).toThrow(/not an option/);
    expect(() => createVulkanInstance({ apiVersion: '1.0' as never })).toThrow(TypeError);
    expect(() => createVulkanInstance({ applicationName: 3 as never })).toThrow(TypeError);
  });

  it('VulkanError carries the VkResult, its name and the call', () => {
    const error = new VulkanError(-2, 'vkAllocateMemory');
    expect(error.code).toBe('VK_ERROR_OUT_OF_DEVICE_MEMORY');
    expect(error.message).toBe('vkAllocateMemory failed: VK_ERROR_OUT_OF_DEVICE_MEMORY (-2)');
    expect(vkResultName(-1000072003)).toBe('VK_ERROR_INVALID_EXTERNAL_HANDLE');
    expect(vkResultName(-424242)).toBe('VkResult -424242');
  });

  it('a driver error arrives as a VulkanError naming the call: a 1 TiB buffer (lavapipe refuses it in vkCreateBuffer)', () => {
    let error: unknown;
    try {
      device.createBuffer({ size: 2 ** 40 });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(VulkanError);
    expect((error as VulkanError).code).toMatch(/^VK_ERROR_OUT_OF_(DEVICE|HOST)_MEMORY$/);
    expect((error as VulkanError).call).toBe('vkCreateBuffer');
    expect((error as VulkanError).message).toMatch(/^vkCreateBuffer failed: VK_ERROR_OUT_OF_(DEVICE|HOST)_MEMORY \(-\d\)$/);
  });
});

describe('buffers (§12.7 Resource Memory Association, §12.8 External Memory Handle Types) and staging', () => {
  it('writes and reads back byte for byte at offsets, through staging buffers', async () => {
    using buffer = device.createBuffer({ size: 4096 });
    expect(buffer).toBeInstanceOf(VulkanBuffer);
    expect(buffer.size).toBe(4096);
    expect(buffer.allocationSize).toBeGreaterThanOrEqual(4096);
    const data = Uint8Array.from({ length: 1000 }, (_, i) => (i * 31 + 7) & 255);
    await buffer.write(data, 96);
    await buffer.write(new Uint16Array([0x0201, 0x0403]), 0);
    expect(await buffer.read(96, 1000)).toEqual(data);
    expect(await buffer.read(0, 4)).toEqual(new Uint8Array([1, 2, 3, 4]));
    expect((await buffer.read()).length).toBe(4096);
    expect(await buffer.read(4096)).toEqual(new Uint8Array(0));
  });

  it('rejects transfers that do not fit and arguments of the wrong kind', () => {
    using buffer = device.createBuffer({ size: 64 });
    expect(() => buffer.write(new Uint8Array(65))).toThrow(RangeError);
    expect(() => buffer.write(new Uint8Array(8), 60)).toThrow(RangeError);
    expect(() => buffer.write('text' as never)).toThrow(TypeError);
    expect(() => buffer.read(-1)).toThrow(RangeError);
    expect(() => buffer.read(0, 65)).toThrow(RangeError);
    expect(() => buffer.read(1.5)).toThrow(RangeError);
    expect(() => device.createBuffer({ size: 0 })).toThrow(RangeError);
    expect(() => device.createBuffer(undefined as never)).toThrow(TypeError);
    expect(() => device.createBuffer({ size: 4, exportTypes: 'opaque-fd' as never })).toThrow(TypeError);
    expect(() => device.createBuffer({ size: 4, exportTypes: ['sync-fd' as never] })).toThrow(TypeError);
    expect(() => device.createBuffer({ size: 4, hostVisible: 1 as never })).toThrow(TypeError);
  });

  it('exports an opaque fd that is a real descriptor holding the allocation (lavapipe: a memfd, the memory at offset 4096); dispose closes it', async () => {
    using buffer = device.createBuffer({ size: 8192 });
    expect(buffer.exportTypes).toEqual(['opaque-fd']);
    const pattern = Uint8Array.from({ length: 8192 }, (_, i) => (i * 13) & 255);
    await buffer.write(pattern);
    const before = openFds();
    const exported = buffer.exportMemory();
    expect(exported).toBeInstanceOf(VulkanExportedHandle);
    expect(exported.handleType).toBe('opaque-fd');
    expect(typeof exported.handle).toBe('number');
    expect(exported.size).toBe(buffer.allocationSize);
    expect(exported.dedicated).toBe(buffer.dedicated);
    expect(openFds()).toBe(before + 1);
    const fd = exported.handle as number;
    expect(readlinkSync(`/proc/self/fd/${fd}`)).toMatch(/memfd/);
    expect(fstatSync(fd).size).toBeGreaterThanOrEqual(4096 + exported.size);
    const seen = Buffer.alloc(8192);
    readSync(fd, seen, 0, 8192, 4096);
    expect(new Uint8Array(seen)).toEqual(pattern);
    exported.dispose();
    exported.dispose();
    expect(exported.disposed).toBe(true);
    expect(openFds()).toBe(before);
    expect(() => exported.relinquish()).toThrow(VulkanDisposedError);
  });

  it('relinquish(): an importer that took the fd over owns it; dispose() then leaves it open', () => {
    using buffer = device.createBuffer({ size: 256 });
    const before = openFds();
    const exported = buffer.exportMemory('opaque-fd');
    exported.relinquish();
    expect(exported.owned).toBe(false);
    exported.dispose();
    expect(openFds()).toBe(before + 1);
    closeSync(exported.handle as number);
    expect(openFds()).toBe(before);
    expect(() => exported.relinquish()).toThrow(VulkanDisposedError);
  });

  it('exporting as a type the memory or device does not have is a typed error', () => {
    using plain = device.createBuffer({ size: 64, exportTypes: [] });
    expect(plain.exportTypes).toEqual([]);
    expect(() => plain.exportMemory()).toThrow(VulkanNotSupportedError);
    using buffer = device.createBuffer({ size: 64 });
    expect(() => buffer.exportMemory('opaque-win32')).toThrow(VulkanNotSupportedError);
    expect(() => buffer.exportMemory('nope' as never)).toThrow(TypeError);
    expect(() => device.createBuffer({ size: 64, exportTypes: ['dma-buf'] })).toThrow(
      /cannot do memory export as 'dma-buf': .*\(it exports 'opaque-fd'\)/,
    );
    expect(() => device.createBuffer({ size: 64, exportTypes: ['opaque-win32'] })).toThrow(VulkanNotSupportedError);
  });
});

describe('images (§12.3 Images, vkGetImageSubresourceLayout)', () => {
  it('a linear RGBA8 image reports its layout; planes are written and read at any pitch', async () => {
    using image = device.createImage({ width: 20, height: 6, format: 'rgba8' });
    expect(image.tiling).toBe('linear');
    expect(image.planes.length).toBe(1);
    const plane = image.planes[0]!;
    expect(plane).toMatchObject({ width: 20, height: 6, texelBytes: 4, rowBytes: 80, offset: 0 });
    expect(plane.rowPitch).toBeGreaterThanOrEqual(80);
    expect(plane.size).toBeGreaterThanOrEqual(plane.rowPitch! * 5 + 80);
    const pitch = 100;
    const data = Uint8Array.from({ length: pitch * 5 + 80 }, (_, i) => (i * 5 + 1) & 255);
    await image.writePlane(0, data, { pitch });
    const packed = await image.readPlane(0);
    expect(packed.length).toBe(480);
    for (let r = 0; r < 6; r++) expect(packed.subarray(r * 80, r * 80 + 80)).toEqual(data.subarray(r * pitch, r * pitch + 80));
    const exported = image.exportMemory();
    expect(exported.size).toBe(image.allocationSize);
    exported.dispose();
  });

  it('an optimal-tiling image has no layout to report, and round-trips', async () => {
    using image = device.createImage({ width: 8, height: 8, format: 'rgba8', tiling: 'optimal', exportTypes: [] });
    expect(image.planes[0]!.offset).toBeNull();
    const data = Uint8Array.from({ length: 256 }, (_, i) => i);
    await image.writePlane(0, data);
    expect(await image.readPlane(0)).toEqual(data);
  });

  it('NV12 on a device without samplerYcbcrConversion, and bad image arguments, are typed errors', () => {
    expect(() => device.createImage({ width: 64, height: 64, format: 'nv12' })).toThrow(VulkanNotSupportedError);
    expect(() => device.createImage({ width: 64, height: 64, format: 'nv12' })).toThrow(/samplerYcbcrConversion/);
    expect(() => device.createImage({ width: 0, height: 4, format: 'rgba8' })).toThrow(RangeError);
    expect(() => device.createImage({ width: 4, height: 4, format: 'bgra' as never })).toThrow(TypeError);
    expect(() => device.createImage({ width: 4, height: 4, format: 'rgba8', tiling: 'tiled' as never })).toThrow(TypeError);
    using image = device.createImage({ width: 4, height: 4, format: 'rgba8' });
    expect(() => image.writePlane(1, new Uint8Array(64))).toThrow(RangeError);
    expect(() => image.writePlane(0, new Uint8Array(63))).toThrow(RangeError);
    expect(() => image.readPlane(0, { pitch: 8 })).toThrow(RangeError);
    expect(() => image.readPlane(0, { stride: 8 } as never)).toThrow(TypeError);
  });

  it('readPlane() with a pitch whose result no Uint8Array can hold is a RangeError before anything is submitted, not an abort (fresh process)', async () => {
    // Before: the 15 TiB result was allocated in the completion callback, where V8 aborts (SIGABRT).
    const result = await runNode(
      `const inst = ocl.createVulkanInstance(); const dev = inst.createDevice();
       const img = dev.createImage({ width: 16, height: 16, format: 'rgba8' });
       const before = dev.pending;
       const tries = [2 ** 40, 2 ** 53, 1e300, Infinity, 64.5];
       const max = Math.floor((require('node:buffer').constants.MAX_LENGTH - 64) / 15);
       tries.push(max + 1);
       for (const pitch of tries) {
         try { img.readPlane(0, { pitch }).then(() => console.log('resolved'), (e) => console.log('rejected', e.name)); }
         catch (e) { console.log(JSON.stringify({ name: e.name, message: e.message })); }
       }
       console.log('submitted', dev.pending - before);
       img.readPlane(0, { pitch: 80 }).then((r) => { console.log('read', r.length); img.dispose(); dev.dispose(); inst.dispose(); });`,
    );
    expect(result.signal).toBeNull();
    expect(result.stderr).toBe('');
    const lines = result.stdout.trim().split('\n');
    expect(lines.slice(-2)).toEqual(['submitted 0', `read ${80 * 15 + 64}`]);
    const errors = lines.slice(0, -2).map((l) => JSON.parse(l));
    expect(errors.length).toBe(6);
    for (const e of errors) {
      expect(e.name).toBe('RangeError');
      expect(e.message).toMatch(/^options\.pitch must be an integer from 64 \(a row of plane 0\) to \d+ .*; got number /);
    }
    expect(errors[0].message).toMatch(/got number 1099511627776$/);
  });
});

describe('recorded commands (§20 Clear Commands vkCmdFillBuffer, §19 Copy Commands, §28 Dispatching Commands)', () => {
  it('fill, copy and buffer <-> image copies, checked byte for byte', async () => {
    using a = device.createBuffer({ size: 1024 });
    using b = device.createBuffer({ size: 1024 });
    using image = device.createImage({ width: 8, height: 4, format: 'rgba8' });
    await b.write(new Uint8Array(1024).fill(0xee));
    const commands = device.record((r) => {
      r.fill(a, 0xa1b2c3d4);
      r.fill(a, 0x01010101, { offset: 16, size: 16 });
      r.copy(a, b, { srcOffset: 0, dstOffset: 512, size: 64 });
      r.copyBufferToImage(a, image, { bufferPitch: 32 });
      r.copyImageToBuffer(image, b, { bufferOffset: 800, bufferPitch: 48 });
    });
    expect(commands).toBeInstanceOf(VulkanCommands);
    expect(commands.length).toBe(5);
    await device.queue.submit(commands);
    const aBytes = await a.read();
    for (let i = 0; i < 1024; i += 4) {
      const expected = i >= 16 && i < 32 ? [1, 1, 1, 1] : [0xd4, 0xc3, 0xb2, 0xa1];
      expect([...aBytes.subarray(i, i + 4)]).toEqual(expected);
    }
    const bBytes = await b.read();
    expect(bBytes.subarray(512, 576)).toEqual(aBytes.subarray(0, 64));
    expect(bBytes.subarray(0, 512)).toEqual(new Uint8Array(512).fill(0xee));
    for (let r = 0; r < 4; r++) expect(bBytes.subarray(800 + r * 48, 800 + r * 48 + 32)).toEqual(aBytes.subarray(r * 32, r * 32 + 32));
    expect(bBytes[800 + 32]).toBe(0xee);
    commands.dispose();
    commands.dispose();
    expect(() => device.queue.submit(commands)).toThrow(VulkanDisposedError);
  });

  it('§7.6 Pipeline Barriers: a fill, copies through an exported image and a compute dispatch in one sequence, each op reading what the one before wrote, byte-exact', async () => {
    const width = 16,
      height = 8,
      bytes = width * height * 4;
    using a = device.createBuffer({ size: bytes });
    using b = device.createBuffer({ size: bytes, exportTypes: [] });
    using c = device.createBuffer({ size: bytes, exportTypes: [] });
    using d = device.createBuffer({ size: 4096, exportTypes: [] });
    using image = device.createImage({ width, height, format: 'rgba8' });
    const frame = { frame: 5, width: 16, height: 8 };
    for (const queueOrdered of [true, false]) {
      await d.write(new Uint8Array(4096).fill(0x5a));
      const commands = device.record(
        (r) => {
          r.fill(a, 0x11223344); // write a
          r.copy(a, b); // read a after its write; write b
          r.copyBufferToImage(b, image); // read b; write the image
          r.fill(b, 0x99999999, { size: 64 }); // write b after a read of it
          r.copyImageToBuffer(image, c); // read the image after its write
          r.nv12TestFrame(d, frame); // a compute write
          r.copy(d, a, { size: 256 }); // a transfer read of what the shader wrote; a write of a after a read of it
        },
        { queueOrdered },
      );
      expect(commands.waitStages).toEqual(['transfer', 'compute']);
      await device.queue.submit(commands);
      expect(new Uint32Array((await c.read()).buffer)).toEqual(new Uint32Array(bytes / 4).fill(0x11223344));
      const bBytes = new Uint32Array((await b.read()).buffer);
      expect(bBytes.subarray(0, 16)).toEqual(new Uint32Array(16).fill(0x99999999));
      expect(bBytes.subarray(16)).toEqual(new Uint32Array(bytes / 4 - 16).fill(0x11223344));
      const expected = new Uint8Array(4096).fill(0x5a);
      const pattern = nv12TestFrame(5, 16, 8);
      expected.set(pattern.y, 0);
      expected.set(pattern.uv, 16 * 8);
      expect(await d.read()).toEqual(expected);
      const aBytes = await a.read();
      expect(aBytes.subarray(0, 256)).toEqual(expected.subarray(0, 256));
      expect(new Uint32Array(aBytes.buffer, aBytes.byteOffset + 256)).toEqual(new Uint32Array(bytes / 4 - 64).fill(0x11223344));
      commands.dispose();
    }
  });

  it('record options: queueOrdered is a boolean; commands report the stages their operations run at', () => {
    using a = device.createBuffer({ size: 4096 });
    expect(() => device.record(() => {}, { queueOrdered: 'yes' as never })).toThrow(/options\.queueOrdered/);
    expect(() => device.record(() => {}, { ordered: true } as never)).toThrow(/not an option/);
    expect(() => device.record(() => {}, 3 as never)).toThrow(TypeError);
    using transfer = device.record((r) => r.fill(a, 1));
    expect(transfer.waitStages).toEqual(['transfer']);
    using compute = device.record((r) => r.nv12TestFrame(a, { frame: 0, width: 16, height: 8 }), { queueOrdered: false });
    expect(compute.waitStages).toEqual(['compute']);
    using empty = device.record(() => {});
    expect(empty.waitStages).toEqual([]);
  });

  it('the shipped compute shader writes NV12 test frames at any plane offsets and pitches, as nv12TestFrame() computes them', async () => {
    const width = 64,
      height = 36,
      yPitch = 80,
      uvPitch = 96,
      yOffset = 256,
      uvOffset = 256 + 80 * 36 + 64;
    using frames = device.createBuffer({ size: 16384 });
    await frames.write(new Uint8Array(16384).fill(0x5a));
    const commands = device.record((r) => r.nv12TestFrame(frames, { frame: 7, width, height, yOffset, yPitch, uvOffset, uvPitch }));
    await device.queue.submit(commands);
    const bytes = await frames.read();
    const expected = nv12TestFrame(7, width, height, { yPitch, uvPitch });
    for (let row = 0; row < height; row++) {
      expect(bytes.subarray(yOffset + row * yPitch, yOffset + row * yPitch + width)).toEqual(expected.y.subarray(row * yPitch, row * yPitch + width));
      expect(bytes[yOffset + row * yPitch + width]).toBe(0x5a); // the pitch padding is untouched
    }
    for (let row = 0; row < height / 2; row++) {
      expect(bytes.subarray(uvOffset + row * uvPitch, uvOffset + row * uvPitch + width)).toEqual(
        expected.uv.subarray(row * uvPitch, row * uvPitch + width),
      );
    }
    expect(bytes.subarray(0, yOffset)).toEqual(new Uint8Array(yOffset).fill(0x5a));
    // Another frame index gives other bytes: the pattern moves.
    expect(nv12TestFrame(8, width, height).y[0]).toBe((expected.y[0]! + 3) & 255);
    commands.dispose();
  });

  it('bad operations are typed errors at record time', () => {
    using a = device.createBuffer({ size: 64 });
    using other = instance.createDevice();
    using foreign = other.createBuffer({ size: 64 });
    expect(() => device.record((r) => r.fill(a, 1, { offset: 2 }))).toThrow(RangeError);
    expect(() => device.record((r) => r.fill(a, -1))).toThrow(RangeError);
    expect(() => device.record((r) => r.copy(a, a, { srcOffset: 0, dstOffset: 8, size: 16 }))).toThrow(/overlap/);
    expect(() => device.record((r) => r.copy(a, foreign))).toThrow(/another VulkanDevice/);
    expect(() => device.record((r) => r.fill({} as never, 0))).toThrow(TypeError);
    expect(() => device.record((r) => r.nv12TestFrame(a, { frame: 0, width: 64, height: 2 }))).toThrow(/end at byte 192; the buffer has 64/);
    expect(() => device.record((r) => r.nv12TestFrame(a, { frame: 0, width: 6, height: 2 }))).toThrow(RangeError);
    expect(() => device.record((r) => r.nv12TestFrame(a, { frame: 0, width: 4, height: 2, yPitch: 6 }))).toThrow(/multiple of 4/);
    expect(() => device.record('fill' as never)).toThrow(TypeError);
    let kept: Parameters<Parameters<VulkanDevice['record']>[0]>[0] | undefined;
    device.record((r) => (kept = r));
    expect(() => kept!.fill(a, 0)).toThrow(/closed/);
    expect(() =>
      device.record(() => {
        throw new Error('mine');
      }),
    ).toThrow('mine');
  });

  it('an empty sequence is refused at submit, saying nothing was recorded (not "waitStage must name at least one pipeline stage")', () => {
    using empty = device.record(() => {});
    expect(empty.length).toBe(0);
    const before = device.pending;
    expect(() => device.queue.submit(empty)).toThrow(RangeError);
    expect(() => device.queue.submit(empty)).toThrow(/commands record no operations .*submit null to only wait on or signal semaphores/);
    expect(() => device.queue.prepare(empty, { waitStage: 'all' })).toThrow(/record no operations/);
    expect(device.pending).toBe(before);
  });

  it('an async callback, or one returning a promise, is a TypeError before anything is recorded or submitted; its later operations raise no unhandled rejection (fresh process)', async () => {
    // Before: record(async ...) was accepted and the operations after the first await were lost.
    const result = await runNode(
      `const inst = ocl.createVulkanInstance(); const dev = inst.createDevice();
       const b = dev.createBuffer({ size: 64 });
       process.on('unhandledRejection', (e) => { console.log('unhandled', e.message); process.exitCode = 3; });
       const out = [];
       const tries = {
         async: async (r) => { r.fill(b, 1); await null; r.fill(b, 2); },
         promise: (r) => { r.fill(b, 1); return Promise.resolve().then(() => r.fill(b, 2)); },
         thenable: (r) => { r.fill(b, 1); return { then(f) { f(); } }; },
         generator: function* (r) { r.fill(b, 1); },
       };
       for (const [name, build] of Object.entries(tries)) {
         try { dev.record(build); out.push(name + ': accepted'); } catch (e) { out.push(name + ': ' + e.name + ': ' + e.message); }
       }
       out.push('pending ' + dev.pending);
       setTimeout(() => { console.log(JSON.stringify(out)); b.dispose(); dev.dispose(); inst.dispose(); }, 50);`,
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const out = JSON.parse(result.stdout.trim().split('\n').pop()!) as string[];
    expect(out[0]).toMatch(/^async: TypeError: build must be a synchronous function .*; got asyncFunction$/);
    expect(out[1]).toMatch(/^promise: TypeError: build returned a promise: .*after an await would be lost/);
    expect(out[2]).toMatch(/^thenable: TypeError: build returned a promise/);
    expect(out[3]).toMatch(/^generator: TypeError: build must be a synchronous function/);
    expect(out[4]).toMatch(/^pending [01]$/); // at most the buffer's creation, nothing recorded was submitted
  });

  it('a buffer or image disposed inside record() is a VulkanDisposedError naming it, not an OpenCL error', () => {
    const a = device.createBuffer({ size: 64 });
    const thrown = (() => {
      try {
        device.record((r) => {
          r.fill(a, 1);
          a.dispose();
        });
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(VulkanDisposedError);
    expect((thrown as VulkanDisposedError).kind).toBe('VulkanBuffer');
    expect((thrown as Error).message).toMatch(/disposed inside the record\(\) callback/);
    using b = device.createBuffer({ size: 1024 });
    const image = device.createImage({ width: 4, height: 4, format: 'rgba8' });
    expect(() =>
      device.record((r) => {
        r.copyImageToBuffer(image, b);
        image.dispose();
      }),
    ).toThrow(VulkanDisposedError);
  });
});

describe('submission (§7.4 Queue Submission, §7.4.1 Semaphore Signaling/Waiting): one native call, completion off-thread', () => {
  it('record once, submit many times, ordered by semaphores; awaiting never blocks the event loop', async () => {
    using counter = device.createBuffer({ size: 16 });
    using source = device.createBuffer({ size: 16 });
    const s1 = device.createSemaphore();
    const s2 = device.createSemaphore();
    expect(s1.exportTypes).toEqual([]);
    await source.write(new Uint32Array([1, 2, 3, 4]));
    const copy = device.record((r) => r.copy(source, counter));
    const first = device.queue.prepare(copy, { signal: [s1] });
    const second = device.queue.prepare(null, { wait: [s1], signal: [s2] });
    const third = device.queue.prepare(copy, { wait: [s2] });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    const done: Promise<void>[] = [];
    for (let i = 0; i < 300; i++) done.push(first.submit(), second.submit(), third.submit());
    expect(s1.signalPending).toBe(false);
    expect(device.pending).toBeGreaterThan(0);
    await Promise.all(done);
    clearInterval(timer);
    expect(device.pending).toBe(0);
    expect(new Uint32Array((await counter.read()).buffer)).toEqual(new Uint32Array([1, 2, 3, 4]));
    await device.queue.idle();
    s1.dispose();
    s2.dispose();
    copy.dispose();
    expect(ticks).toBeGreaterThanOrEqual(0);
  });

  it('a wait nothing will signal, or a second signal nothing waited on, is a VulkanStateError (it would never finish)', async () => {
    using s = device.createSemaphore();
    expect(() => device.queue.submit(null, { wait: [s] })).toThrow(VulkanStateError);
    await device.queue.submit(null, { signal: [s] });
    expect(s.signalPending).toBe(true);
    expect(() => device.queue.submit(null, { signal: [s] })).toThrow(VulkanStateError);
    await device.queue.submit(null, { wait: [s] });
    expect(s.signalPending).toBe(false);
  });

  it('semaphore export on a device without external semaphores is a VulkanNotSupportedError', () => {
    using s = device.createSemaphore();
    expect(() => s.exportHandle()).toThrow(VulkanNotSupportedError);
    expect(() => s.exportHandle('sync-fd')).toThrow(/semaphore export as 'sync-fd'/);
    expect(() => device.createSemaphore({ exportTypes: ['opaque-fd'] })).toThrow(/cannot export semaphores/);
    expect(() => device.createSemaphore({ exportTypes: ['dma-buf' as never] })).toThrow(TypeError);
  });

  it('§7.4.1 Semaphore Waiting: waits block the stages the commands run at by default; options.waitStage picks one that covers them', async () => {
    using a = device.createBuffer({ size: 4096 });
    using s = device.createSemaphore();
    using transfer = device.record((r) => r.fill(a, 7));
    using both = device.record((r) => r.fill(a, 7).nv12TestFrame(a, { frame: 0, width: 16, height: 8 }));
    expect(device.queue.prepare(transfer, { wait: [s] }).waitStageBits).toBe(0x1000); // VK_PIPELINE_STAGE_TRANSFER_BIT
    expect(device.queue.prepare(both, { wait: [s] }).waitStageBits).toBe(0x1000 | 0x800); // | COMPUTE_SHADER
    expect(device.queue.prepare(null, { wait: [s] }).waitStageBits).toBe(0x10000); // ALL_COMMANDS
    expect(device.queue.prepare(transfer, { wait: [s], waitStage: 'all' }).waitStageBits).toBe(0x10000);
    expect(device.queue.prepare(both, { waitStage: 'all' }).waitStageBits).toBe(0x10000);
    expect(() => device.queue.prepare(transfer, { wait: [s], waitStage: 'compute' })).toThrow(/waitStage 'compute' leaves out the transfer work/);
    expect(() => device.queue.prepare(both, { waitStage: 'transfer' })).toThrow(RangeError);
    expect(() => device.queue.prepare(transfer, { waitStage: 'fragment' as never })).toThrow(
      /options\.waitStage must be 'transfer', 'compute', 'all'; got/,
    );
    await device.queue.submit(transfer, { signal: [s] });
    await device.queue.submit(transfer, { wait: [s], waitStage: 'transfer' });
    expect(new Uint32Array((await a.read()).buffer)[0]).toBe(7);
  });

  it('§7.4.1: a sequence recorded without the queue-order barrier (queueOrdered: false), ordered by a semaphore wait, reads what the signalling submission wrote', async () => {
    using a = device.createBuffer({ size: 4096 });
    using b = device.createBuffer({ size: 4096, exportTypes: [] });
    using s = device.createSemaphore();
    using write = device.record((r) => r.fill(a, 0xc0ffee01));
    using read = device.record((r) => r.copy(a, b), { queueOrdered: false });
    const produce = device.queue.prepare(write, { signal: [s] });
    const consume = device.queue.prepare(read, { wait: [s] });
    for (let i = 0; i < 20; i++) await Promise.all([produce.submit(), consume.submit()]);
    expect(new Uint32Array((await b.read()).buffer)).toEqual(new Uint32Array(1024).fill(0xc0ffee01));
  });

  it('bad submit arguments are typed errors', () => {
    using s = device.createSemaphore();
    using other = instance.createDevice();
    using foreignSemaphore = other.createSemaphore();
    const foreign = other.record(() => {});
    expect(() => device.queue.submit('x' as never)).toThrow(TypeError);
    expect(() => device.queue.submit(undefined as never)).toThrow(TypeError);
    expect(() => device.queue.submit(foreign)).toThrow(/another VulkanDevice/);
    expect(() => device.queue.submit(null, { wait: s as never })).toThrow(TypeError);
    expect(() => device.queue.submit(null, { signal: [{}] as never })).toThrow(TypeError);
    expect(() => device.queue.submit(null, { signal: [foreignSemaphore] })).toThrow(/another VulkanDevice/);
    expect(() => device.queue.submit(null, { signal: [s, s] })).toThrow(/twice/);
    expect(() => device.queue.submit(null, { fence: 1 } as never)).toThrow(/not an option/);
    foreign.dispose();
  });
});

describe('lifetimes: dispose, using, children keep parents alive, garbage collection, exit with work in flight (fresh processes)', () => {
  const prelude = `const inst = ocl.createVulkanInstance(); const dev = inst.createDevice();\n`;

  it('objects keep working after their device and instance are disposed; the disposed ones are typed errors', async () => {
    const result = await runNode(
      prelude +
        `(async () => {
          const buffer = dev.createBuffer({ size: 64 });
          const commands = dev.record((r) => r.fill(buffer, 0x07070707));
          await dev.queue.submit(commands);
          dev.dispose(); dev.dispose(); inst.dispose(); inst.dispose();
          await buffer.write(new Uint8Array([9]), 3);
          const bytes = await buffer.read(0, 8);
          const fd = buffer.exportMemory(); fd.dispose();
          const errors = [];
          for (const f of [() => dev.createBuffer({ size: 4 }), () => dev.queue.submit(commands), () => inst.physicalDevices(), () => dev.record(() => {})])
            try { f(); errors.push('none'); } catch (e) { errors.push(e.name); }
          buffer.dispose(); buffer.dispose(); commands.dispose();
          try { buffer.read(); } catch (e) { errors.push(e.name + ':' + e.kind); }
          console.log(JSON.stringify({ bytes: [...bytes], errors }));
        })();`,
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      bytes: [7, 7, 7, 9, 7, 7, 7, 7],
      errors: ['VulkanDisposedError', 'VulkanDisposedError', 'VulkanDisposedError', 'VulkanDisposedError', 'VulkanDisposedError:VulkanBuffer'],
    });
  });

  // The loader unloads the drivers with the last instance; NVIDIA's then crashed a worker thread as it
  // exited (test/gpu/vulkan-threads.test.mjs). lavapipe does not crash, but whether its library stays
  // mapped shows here that the package keeps it loaded, and that the opt-out really unloads it.
  const driverMappedAfterLastInstance = `
    const mapped = () => require('fs').readFileSync('/proc/self/maps', 'utf8').split('\\n').filter((l) => /libvulkan_lvp/.test(l)).length > 0;
    for (let i = 0; i < 3; i++) { const d = inst.createDevice(); d.createBuffer({ size: 64 }).dispose(); d.dispose(); }
    const whileOpen = mapped();
    inst.dispose(); if (global.gc) global.gc();
    console.log(JSON.stringify({ whileOpen, afterLast: mapped() }));`;
  it('the Vulkan drivers stay loaded after the last instance is disposed (one instance is kept for the process)', async () => {
    const result = await runNode(`const inst = ocl.createVulkanInstance();` + driverMappedAfterLastInstance, { args: ['--expose-gc'] });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({ whileOpen: true, afterLast: true });
  });
  it('with OPENCL_INTEROP_VULKAN_UNPINNED=1 they are unloaded with the last instance (what the kept instance prevents)', async () => {
    const result = await runNode(`const inst = ocl.createVulkanInstance();` + driverMappedAfterLastInstance, {
      args: ['--expose-gc'],
      env: { OPENCL_INTEROP_VULKAN_UNPINNED: '1' },
    });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({ whileOpen: true, afterLast: false });
  });

  it('queue.idle() of a device disposed right after still settles (the submission keeps its device until it is done)', async () => {
    const result = await runNode(
      `(async () => {
        const promises = [];
        for (let i = 0; i < 50; i++) {
          const inst = ocl.createVulkanInstance(); const dev = inst.createDevice();
          promises.push(dev.queue.idle().then(() => 'resolved', (e) => e.name));
          dev.dispose(); inst.dispose();
        }
        const outcomes = await Promise.all(promises);
        console.log(JSON.stringify(outcomes.filter((o) => o !== 'resolved')));
      })();`,
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toBe('[]');
  });

  it('double dispose in every order, and disposing what a submission in flight uses, neither crashes nor leaks a descriptor', async () => {
    const result = await runNode(
      prelude +
        `const fs = require('fs'); const count = () => fs.readdirSync('/proc/self/fd').length;
        (async () => {
          const before = count();
          for (const order of [[0, 1, 2, 3], [3, 2, 1, 0], [1, 3, 0, 2], [2, 0, 3, 1]]) {
            const i2 = ocl.createVulkanInstance(); const d2 = i2.createDevice();
            const b = d2.createBuffer({ size: 1 << 16 }); const c = d2.record((r) => r.fill(b, 1));
            const s = d2.createSemaphore(); const e = b.exportMemory();
            const inFlight = [d2.queue.submit(c, { signal: [s] }), b.read(0, 16)];
            const things = [i2, d2, b, c];
            for (const k of order) { things[k].dispose(); things[k].dispose(); }
            s.dispose(); e.dispose(); e.dispose();
            const [, bytes] = await Promise.all(inFlight);
            if (bytes[0] !== 1) throw new Error('the read saw ' + bytes[0]);
          }
          console.log(count() - before);
        })();`,
    );
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toBe('0');
  });

  it('garbage collection frees what was never disposed and closes exported fds nobody closed', async () => {
    const result = await runNode(
      `const fs = require('fs'); const count = () => fs.readdirSync('/proc/self/fd').length;
      (async () => {
        const before = count();
        (() => {
          const inst = ocl.createVulkanInstance(); const dev = inst.createDevice();
          for (let i = 0; i < 20; i++) { const b = dev.createBuffer({ size: 4096 }); b.exportMemory(); dev.record((r) => r.fill(b, i)); }
        })();
        const opened = count() - before;
        for (let i = 0; i < 10; i++) { globalThis.gc(); await new Promise((r) => setTimeout(r, 20)); }
        console.log(JSON.stringify({ opened, left: count() - before }));
      })();`,
      { args: ['--expose-gc'] },
    );
    expect(result.stderr).toBe('');
    const { opened, left } = JSON.parse(result.stdout);
    expect(opened).toBeGreaterThanOrEqual(20);
    expect(left).toBe(0);
  });

  it('process exit with submissions in flight exits cleanly; pending work keeps the event loop alive until it is done', async () => {
    const exit = await runNode(
      prelude +
        `const b = dev.createBuffer({ size: 1 << 22 }); const c = dev.record((r) => { for (let i = 0; i < 8; i++) r.fill(b, i); });
        for (let i = 0; i < 200; i++) dev.queue.submit(c);
        b.read(0, 4); process.exit(3);`,
    );
    expect(exit.stderr).toBe('');
    expect(exit.status).toBe(3);
    const drain = await runNode(
      prelude +
        `const b = dev.createBuffer({ size: 1 << 20 }); const c = dev.record((r) => r.fill(b, 0x02020202));
        for (let i = 0; i < 50; i++) dev.queue.submit(c);
        b.read(0, 4).then((x) => console.log('read', x[0]));`,
    );
    expect(drain.stderr).toBe('');
    expect(drain.status).toBe(0);
    expect(drain.stdout.trim()).toBe('read 2');
    const idle = await runNode(prelude + `dev.createBuffer({ size: 64 }); console.log('idle');`);
    expect(idle.stdout.trim()).toBe('idle');
    expect(idle.status).toBe(0);
  });

  it('a worker thread uses the module and exits with work in flight', async () => {
    const result = await runNode(
      `const { Worker } = require('worker_threads');
      const w = new Worker(\`const ocl = require(${JSON.stringify(resolve(repoRoot, 'dist/index.js'))});
        const dev = ocl.createVulkanInstance().createDevice(); const b = dev.createBuffer({ size: 1 << 20 });
        const c = dev.record((r) => r.fill(b, 5)); for (let i = 0; i < 20; i++) dev.queue.submit(c);
        b.read(0, 4).then((x) => { require('worker_threads').parentPort.postMessage(x[0]); for (let i = 0; i < 20; i++) dev.queue.submit(c); });\`, { eval: true });
      w.on('message', (m) => { console.log('worker read', m); w.terminate(); });
      w.on('exit', () => console.log('worker exit'));`,
    );
    expect(result.stderr).toBe('');
    expect(result.stdout.trim().split('\n')).toEqual(['worker read 5', 'worker exit']);
  });
});

describe('the module declares its Vulkan types itself (native/vulkan/vk_decls.h): they match vulkan_core.h', () => {
  it('every structure has the size and alignment the registry header gives', async () => {
    // [ours, the header's]
    const pairs: [string, string][] = [
      'ApplicationInfo',
      'InstanceCreateInfo',
      'ExtensionProperties',
      'PhysicalDeviceProperties',
      'PhysicalDeviceProperties2',
      'PhysicalDeviceIDProperties',
      'PhysicalDeviceDriverProperties',
      'PhysicalDeviceFeatures2',
      'PhysicalDeviceSamplerYcbcrConversionFeatures',
      'QueueFamilyProperties',
      'PhysicalDeviceMemoryProperties',
      'FormatProperties',
      'PhysicalDeviceExternalBufferInfo',
      'ExternalBufferProperties',
      'PhysicalDeviceExternalSemaphoreInfo',
      'ExternalSemaphoreProperties',
      'PhysicalDeviceImageFormatInfo2',
      'PhysicalDeviceExternalImageFormatInfo',
      'ImageFormatProperties2',
      'ExternalImageFormatProperties',
      'DeviceQueueCreateInfo',
      'DeviceCreateInfo',
      'BufferCreateInfo',
      'ImageCreateInfo',
      'ExportMemoryAllocateInfo',
      'MemoryAllocateInfo',
      'MemoryDedicatedAllocateInfo',
      'MemoryRequirements2',
      'MemoryDedicatedRequirements',
      'BufferMemoryRequirementsInfo2',
      'ImageMemoryRequirementsInfo2',
      'MemoryGetFdInfoKHR',
      'ImageSubresource',
      'SubresourceLayout',
      'SemaphoreCreateInfo',
      'ExportSemaphoreCreateInfo',
      'FenceCreateInfo',
      'CommandPoolCreateInfo',
      'CommandBufferAllocateInfo',
      'CommandBufferBeginInfo',
      'BufferCopy',
      'BufferImageCopy',
      'MemoryBarrier',
      'BufferMemoryBarrier',
      'ImageMemoryBarrier',
      'SubmitInfo',
      'ShaderModuleCreateInfo',
      'DescriptorSetLayoutBinding',
      'DescriptorSetLayoutCreateInfo',
      'PushConstantRange',
      'PipelineLayoutCreateInfo',
      'PipelineShaderStageCreateInfo',
      'ComputePipelineCreateInfo',
      'DescriptorPoolSize',
      'DescriptorPoolCreateInfo',
      'DescriptorSetAllocateInfo',
      'DescriptorBufferInfo',
      'WriteDescriptorSet',
    ].map((n) => [`ocl::vk::Vk${n}`, `Vk${n}`]);
    pairs.push(
      ['ocl::vk::VkExternalMemoryCreateInfo', 'VkExternalMemoryBufferCreateInfo'],
      ['ocl::vk::VkExternalMemoryCreateInfo', 'VkExternalMemoryImageCreateInfo'],
      ['ocl::vk::VkMemoryGetFdInfoKHR', 'VkSemaphoreGetFdInfoKHR'],
      ['ocl::vk::VkPhysicalDeviceLimitsBlock', 'VkPhysicalDeviceLimits'],
    );
    const dir = mkdtempSync(join(tmpdir(), 'vkdecls-'));
    try {
      const print = (types: string[]) => types.map((t) => `  printf("%zu %zu\\n", sizeof(${t}), alignof(${t}));`).join('\n');
      writeFileSync(join(dir, 'ours.cc'), `#include <cstdio>\n#include "vulkan/vk_decls.h"\nint main() {\n${print(pairs.map((p) => p[0]))}\n}\n`);
      writeFileSync(
        join(dir, 'theirs.cc'),
        `#include <cstdio>\n#include <vulkan/vulkan_core.h>\nint main() {\n${print(pairs.map((p) => p[1]))}\n}\n`,
      );
      const run = async (name: string) => {
        await outputOf('g++', ['-std=c++17', `-I${join(repoRoot, 'native')}`, join(dir, `${name}.cc`), '-o', join(dir, name)]);
        return (await outputOf(join(dir, name), [])).trim().split('\n');
      };
      const [ours, theirs] = await Promise.all([run('ours'), run('theirs')]);
      const differences = pairs.filter((_, i) => ours[i] !== theirs[i]).map(([o, t]) => `${o} ${ours[pairs.findIndex((p) => p[0] === o)]} vs ${t}`);
      expect(differences).toEqual([]);
      expect(ours.length).toBe(pairs.length);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
