// The Vulkan module and the external memory / semaphore facades in Windows
// node.exe, from the win32-x64 package. Under Wine (OPENCL_INTEROP_UNDER_WINE=1,
// set by scripts/windows/test.sh) vulkan-1.dll is Wine's winevulkan: with an X
// display it reaches the host's Vulkan driver (lavapipe) at Vulkan 1.3, without
// VK_KHR_external_memory_win32, so exports are VulkanNotSupportedErrors; started
// without a display it reports Vulkan 1.0, and a Vulkan instance is the typed
// VulkanUnavailableError ("external memory needs 1.1"). The OpenCL platforms
// there (PoCL through Wine's OpenCL.dll; the reference driver's DLL, which
// advertises cl_khr_semaphore and cl_khr_device_uuid on Windows and no external
// memory) answer the facades with typed errors naming the extension.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ocl, packagePath } from './support.mjs';

const underWine = process.env.OPENCL_INTEROP_UNDER_WINE === '1';
// Wine started without an X display (scripts/windows/test.sh runs the suite so a second time): winevulkan has no host driver.
const headless = underWine && process.env.OPENCL_INTEROP_WINE_HEADLESS === '1';
// The reference driver's DLL (a Windows path); this process loads OpenCL.dll's platforms.
const refDriver = process.env.OPENCL_INTEROP_REFDRIVER;

/** Runs `code` (CommonJS, the package as `ocl`) in a fresh node.exe with `env`; its stdout parsed as JSON. */
function inChild(code, env) {
  const result = spawnSync(process.execPath, ['-e', `const ocl = require(${JSON.stringify(packagePath)});\n${code}`], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout);
}

const errorOf = (call) => {
  try {
    call();
  } catch (error) {
    return error;
  }
  assert.fail('expected a typed error; the call returned');
};

describe('the Vulkan module in Windows node.exe', () => {
  test('the package exports the module; the CPU half works without a loader (nv12TestFrame, uuidString = formatUuid)', () => {
    assert.equal(process.platform, 'win32');
    for (const name of [
      'createVulkanInstance',
      'loadVulkan',
      'loadedVulkan',
      'VulkanDevice',
      'VulkanBuffer',
      'VulkanSemaphore',
      'VulkanExportedHandle',
      'VulkanUnavailableError',
    ]) {
      assert.equal(typeof ocl[name], 'function', name);
    }
    assert.equal(ocl.uuidString, ocl.formatUuid);
    assert.equal(ocl.uuidString(new Uint8Array(16).fill(0xab)), 'abababab-abab-abab-abab-abababababab');
    const frame = ocl.nv12TestFrame(0, 8, 4);
    assert.equal(frame.y.length, 32);
    assert.equal(frame.uv.length, 16);
  });

  test('under Wine with no display: vulkan-1.dll reports Vulkan 1.0, and a Vulkan instance is a VulkanUnavailableError (external memory needs 1.1)', {
    skip: !headless && 'run with OPENCL_INTEROP_WINE_HEADLESS=1',
  }, () => {
    assert.equal(ocl.loadedVulkan(), null);
    const loaded = ocl.loadVulkan();
    assert.equal(loaded.path, 'vulkan-1.dll');
    assert.match(loaded.version, /^1\.0\.\d+$/);
    assert.equal(ocl.loadedVulkan(), loaded);
    const error = errorOf(() => ocl.createVulkanInstance());
    assert.ok(error instanceof ocl.VulkanUnavailableError, `${error}`);
    assert.deepEqual(error.attempts, []);
    assert.match(error.message, /^The Vulkan loader vulkan-1\.dll supports Vulkan 1\.0\.\d+; external memory needs 1\.1 or later\./);
    assert.match(error.message, /Windows: the GPU driver installs vulkan-1\.dll/);
    assert.match(error.message, /apt-get install libvulkan1/);
    assert.throws(() => ocl.createVulkanInstance({ apiVersion: '1.3' }), /external memory needs 1\.3 or later/);
    assert.throws(() => ocl.createVulkanInstance({ apiVersion: '1.0' }), TypeError);
  });

  test("under Wine with a display: vulkan-1.dll (winevulkan) reaches the host's lavapipe; buffers and the NV12 shader work; exports are VulkanNotSupportedErrors (no VK_KHR_external_memory_win32)", {
    skip: (!underWine || headless) && 'under Wine with a display only',
  }, async () => {
    const loaded = ocl.loadVulkan();
    assert.equal(loaded.path, 'vulkan-1.dll');
    assert.ok(loaded.apiVersion >= ((1 << 22) | (1 << 12)), loaded.version);
    const instance = ocl.createVulkanInstance();
    const [physical] = instance.physicalDevices();
    assert.match(physical.name, /^llvmpipe/);
    assert.equal(physical.type, 'cpu');
    assert.equal(ocl.uuidString(physical.deviceUUID), '6d657361-3232-2e33-2e36-000000000000'); // lavapipe's "mesa22.3.6"
    assert.ok(!physical.extensions.includes('VK_KHR_external_memory_win32'));
    assert.deepEqual(physical.memoryExport, []);
    assert.deepEqual(physical.semaphoreExport, []);
    const device = instance.createDevice({ uuid: physical.deviceUUID });
    const buffer = device.createBuffer({ size: 4096 });
    try {
      assert.deepEqual(buffer.exportTypes, []);
      const width = 64,
        height = 16;
      const commands = device.record((r) => r.nv12TestFrame(buffer, { frame: 3, width, height }));
      await device.queue.submit(commands);
      commands.dispose();
      const bytes = await buffer.read(0, width * height * 1.5);
      const expected = ocl.nv12TestFrame(3, width, height);
      assert.deepEqual(bytes.subarray(0, width * height), expected.y);
      assert.deepEqual(bytes.subarray(width * height), expected.uv);
      for (const [call, feature] of [
        [() => buffer.exportMemory(), /memory export/],
        [() => device.createBuffer({ size: 64, exportTypes: ['opaque-win32'] }), /memory export as 'opaque-win32'/],
        [() => device.createSemaphore({ exportTypes: ['opaque-win32'] }), /semaphore export as 'opaque-win32'/],
        [() => device.createSemaphore().exportHandle(), /semaphore export/],
      ]) {
        const error = errorOf(call);
        assert.ok(error instanceof ocl.VulkanNotSupportedError, `${error}`);
        assert.match(error.message, feature);
      }
    } finally {
      buffer.dispose();
      device.dispose();
      instance.dispose();
    }
  });

  test('on Windows itself: a Vulkan 1.1 instance, or the typed error', { skip: underWine && 'under Wine: the tests above' }, () => {
    let instance;
    try {
      instance = ocl.createVulkanInstance();
    } catch (error) {
      assert.ok(error instanceof ocl.VulkanUnavailableError || error instanceof ocl.VulkanError, `${error}`);
      return;
    }
    for (const d of instance.physicalDevices()) assert.equal(d.deviceUUID.length, 16);
    instance.dispose();
  });

  test('no loader: a VulkanUnavailableError naming what was tried and the packages to install; the process goes on', () => {
    const missing = 'C:\\no\\such\\vulkan-1.dll';
    const result = inChild(
      `const out = [];
      for (const call of [() => ocl.loadVulkan(), () => ocl.createVulkanInstance()]) {
        try { call(); out.push('no error'); } catch (e) { out.push({ name: e.name, typed: e instanceof ocl.VulkanUnavailableError, attempts: e.attempts, message: e.message }); }
      }
      out.push(ocl.loadedVulkan());
      console.log(JSON.stringify(out));`,
      { OPENCL_INTEROP_VULKAN_LOADER: missing },
    );
    for (const error of result.slice(0, 2)) {
      assert.equal(error.name, 'VulkanUnavailableError');
      assert.equal(error.typed, true);
      assert.deepEqual(
        error.attempts.map((a) => a.path),
        [`${missing} (from OPENCL_INTEROP_VULKAN_LOADER)`],
      );
      assert.match(
        error.message,
        /^The Vulkan loader could not be loaded\. Tried:\n  - C:\\no\\such\\vulkan-1\.dll \(from OPENCL_INTEROP_VULKAN_LOADER\): /,
      );
      assert.match(error.message, /libvulkan1 plus a Vulkan driver/);
    }
    assert.equal(result[2], null);
  });
});

describe('the external memory / semaphore facades on the platforms here: typed errors', () => {
  test('PoCL through OpenCL.dll: cl_khr_external_memory, cl_khr_semaphore and DMA-BUF imports are OpenCLExtensionErrors naming the extension', {
    skip: !underWine && 'the platform OpenCL.dll lists first need not be PoCL',
  }, () => {
    const platform = ocl.getPlatforms().find((p) => p.name === 'Portable Computing Language');
    assert.ok(platform, 'PoCL is not among the platforms of OpenCL.dll');
    const expectExtensionError = (call, extension) => {
      const error = errorOf(call);
      assert.ok(error instanceof ocl.OpenCLExtensionError, `${error}`);
      assert.equal(error.extension, extension);
      assert.equal(error.platform, platform.name);
      assert.match(error.message, /neither the platform nor its devices advertise it/);
    };
    expectExtensionError(() => ocl.getExternalMemory(platform), 'cl_khr_external_memory');
    expectExtensionError(() => platform.getSharing('cl_khr_external_memory'), 'cl_khr_external_memory');
    expectExtensionError(() => ocl.getSemaphores(platform), 'cl_khr_semaphore');
    expectExtensionError(() => platform.getSharing('cl_khr_semaphore'), 'cl_khr_semaphore');
    const context = ocl.createContext({ devices: [platform.getDevices()[0]] });
    try {
      expectExtensionError(
        () =>
          ocl.importDmaBuf(context, {
            format: 'NV12',
            width: 16,
            height: 16,
            planes: [
              { fd: 3, pitch: 16 },
              { fd: 3, offset: 256, pitch: 16 },
            ],
          }),
        'cl_khr_external_memory_dma_buf',
      );
      assert.equal(platform.getDevices()[0].uuid, null); // PoCL 3.1 has no cl_khr_device_uuid
    } finally {
      context.release();
    }
  });

  test('the reference driver on Windows: cl_khr_semaphore and a device UUID, no external memory: the facades say which extension is missing', {
    skip: !refDriver && 'OPENCL_INTEROP_REFDRIVER names the DLL',
  }, () => {
    const result = inChild(
      `const platform = ocl.getPlatforms()[0];
      const out = { name: platform.name, extensions: platform.extensions.filter((e) => /external|semaphore|uuid/.test(e)), uuid: platform.getDevices()[0].uuid };
      const typed = (call) => { try { call(); return 'no error'; } catch (e) { return { name: e.name, extension: e.extension, handleType: e.handleType, message: e.message }; } };
      out.memory = typed(() => ocl.getExternalMemory(platform));
      const semaphores = ocl.getSemaphores(platform);
      out.types = semaphores.semaphoreTypes();
      out.importTypes = semaphores.importHandleTypes();
      const context = ocl.createContext({ platform });
      out.import = typed(() => semaphores.import(context, { handleType: 'opaque-win32', handle: 1n }));
      out.importBadType = typed(() => semaphores.import(context, { handleType: 'opaque-fd-ish', handle: 1 }));
      semaphores.create(context).release();
      context.release();
      console.log(JSON.stringify(out));`,
      { OPENCL_INTEROP_LIBRARY: refDriver },
    );
    assert.equal(result.name, 'opencl-interop reference driver');
    assert.deepEqual(result.extensions, ['cl_khr_semaphore', 'cl_khr_device_uuid']);
    assert.equal(result.uuid, '72656664-7276-2d64-6576-6963652d3031'); // "refdrv-device-01"
    assert.equal(result.memory.name, 'OpenCLExtensionError');
    assert.equal(result.memory.extension, 'cl_khr_external_memory');
    assert.deepEqual(result.types, ['binary']);
    assert.deepEqual(result.importTypes, []);
    assert.equal(result.import.name, 'OpenCLExtensionError');
    assert.equal(result.import.extension, 'cl_khr_external_semaphore');
    assert.match(result.import.message, /semaphores cannot be imported/);
    assert.equal(result.importBadType.name, 'TypeError');
    assert.match(result.importBadType.message, /handleType/);
  });

  test('opencl-interop info: the family on each platform, and Vulkan as Wine gives it (lavapipe through winevulkan, or unavailable with the typed error)', {
    skip: !underWine && 'under Wine only',
  }, () => {
    const cli = join(packagePath, 'dist', 'cli.js');
    const result = spawnSync(process.execPath, [cli, 'info', '--json'], { encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    const report = JSON.parse(result.stdout);
    const pocl = report.platforms.find((p) => p.name === 'Portable Computing Language');
    assert.ok(pocl.external.extensions.every((e) => e.advertised === 'no'));
    assert.deepEqual(
      pocl.external.devices.map((d) => d.memoryImport),
      [[]],
    );
    assert.equal(report.vulkan.loader.path, 'vulkan-1.dll');
    if (headless) {
      assert.equal(report.vulkan.available, false);
      assert.equal(report.vulkan.error.name, 'VulkanUnavailableError');
      assert.match(report.vulkan.error.message, /external memory needs 1\.1 or later/);
      assert.deepEqual(report.vulkan.devices, []);
    } else {
      assert.equal(report.vulkan.available, true);
      assert.equal(report.vulkan.error, null);
      assert.deepEqual(
        report.vulkan.devices.map((d) => [d.type, d.uuid, d.memoryExport, d.matches]),
        [['cpu', '6d657361-3232-2e33-2e36-000000000000', [], []]],
      );
    }
  });
});
