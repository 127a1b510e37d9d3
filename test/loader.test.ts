import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runNode, runProcess } from './helpers';

const driverPath = resolve(repoRoot, 'cmake-build/lib/libocl_interop_refdriver.so');
const emptyVendors = mkdtempSync(join(tmpdir(), 'no-vendors-'));
const cli = resolve(repoRoot, 'dist/cli.js');

function runCli(args: string[], env: NodeJS.ProcessEnv = {}) {
  return runProcess(process.execPath, [cli, ...args], { env });
}

describe('loading OpenCL at run time', () => {
  it('imports without OpenCL; every call then throws OpenCLNotAvailableError naming what was tried', async () => {
    const { status, stdout, stderr } = await runNode(
      `
      const results = [];
      for (const call of [() => ocl.getPlatforms(), () => ocl.createContext(), () => ocl.loadOpenCL()]) {
        try { call(); results.push('no error'); } catch (e) {
          results.push([e.name, e instanceof ocl.OpenCLNotAvailableError, e.attempts.map((a) => a.path)]);
        }
      }
      console.log(JSON.stringify({ results, loaded: ocl.loadedLibrary() }));
      try { ocl.getPlatforms(); } catch (e) { console.error(e.message); }`,
      { env: { OPENCL_INTEROP_LIBRARY: '/nonexistent/libOpenCL.so.1' } },
    );
    expect(status).toBe(0);
    const { results, loaded } = JSON.parse(stdout);
    expect(loaded).toBeNull();
    for (const result of results) {
      expect(result).toEqual(['OpenCLNotAvailableError', true, ['/nonexistent/libOpenCL.so.1 (from OPENCL_INTEROP_LIBRARY)']]);
    }
    expect(stderr).toMatch(/No OpenCL library could be loaded/);
    expect(stderr).toMatch(/apt-get install ocl-icd-libopencl1 pocl-opencl-icd/);
  });

  it('a failed explicit load can be followed by a good one; a loaded library cannot be switched', async () => {
    const { status, stdout, stderr } = await runNode(`
      try { ocl.loadOpenCL({ library: '/nope/libOpenCL.so' }); } catch (e) { console.log(e.name); }
      console.log(ocl.loadOpenCL().path);
      try { ocl.loadOpenCL({ library: '/other/libOpenCL.so' }); } catch (e) { console.log(e.message); }
      try { ocl.loadOpenCL({ library: 42 }); } catch (e) { console.log(e.name); }
      console.log(ocl.loadedLibrary().entryPoints.includes('clGetPlatformIDs'));`);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(stdout.trim().split('\n')).toEqual([
      'OpenCLNotAvailableError',
      'libOpenCL.so.1',
      'OpenCL is already loaded from libOpenCL.so.1; it cannot be switched to /other/libOpenCL.so in this process',
      'TypeError',
      'true',
    ]);
  });

  it('reports zero platforms clearly (ocl-icd with no registered driver)', async () => {
    const { status, stdout } = await runNode(
      `
      console.log(JSON.stringify(ocl.getPlatforms()));
      for (const call of [() => ocl.requirePlatforms(), () => ocl.createContext()]) {
        try { call(); } catch (e) { console.log(e.name + ': ' + e.message); }
      }`,
      { env: { OCL_ICD_VENDORS: emptyVendors } },
    );
    expect(status).toBe(0);
    const [list, ...errors] = stdout.trim().split('\n');
    expect(list).toBe('[]');
    expect(errors).toHaveLength(2);
    for (const line of errors) expect(line).toMatch(/^OpenCLNoPlatformError: .*reports no platform.*pocl-opencl-icd/);
  });

  it('loads a driver directly by path (the reference driver, no ICD loader)', async () => {
    const { status, stdout, stderr } = await runNode(
      `
      const [p] = ocl.getPlatforms();
      const lib = ocl.loadedLibrary();
      console.log(JSON.stringify({ path: lib.path, platforms: ocl.getPlatforms().length, name: p.name, suffix: p.icdSuffix,
        hasDestructorCallback: lib.entryPoints.includes('clSetContextDestructorCallback') }));
      // clSetContextDestructorCallback is optional (OpenCL 3.0): error callbacks still work without it.
      const ctx = ocl.createContext({ platform: p, onError: () => {} });
      const q = ctx.createQueue();
      q.enqueueMarker().waitSync();
      console.log(ctx.devices.length);`,
      { env: { OPENCL_INTEROP_LIBRARY: driverPath } },
    );
    expect(stderr).toBe('');
    expect(status).toBe(0);
    const [info, devices] = stdout.trim().split('\n');
    expect(JSON.parse(info!)).toEqual({
      path: driverPath,
      platforms: 1,
      name: 'opencl-interop reference driver',
      suffix: 'REF',
      hasDestructorCallback: false,
    });
    expect(devices).toBe('1');
  });

  it("keeps the ICD loader's environment as it was (the Khronos loader truncates OCL_ICD_FILENAMES in place)", async () => {
    const { status, stdout } = await runNode(
      `
      const { preservingIcdEnvironment } = require(${JSON.stringify(resolve(repoRoot, 'dist/loader.js'))});
      preservingIcdEnvironment(() => { process.env.OCL_ICD_FILENAMES = 'a.so'; delete process.env.OCL_ICD_VENDORS; });
      ocl.getPlatforms();
      console.log(process.env.OCL_ICD_FILENAMES, process.env.OCL_ICD_VENDORS);`,
      { env: { OCL_ICD_FILENAMES: 'a.so:b.so', OCL_ICD_VENDORS: '/etc/OpenCL/vendors' } },
    );
    expect(status).toBe(0);
    expect(stdout.trim()).toBe('a.so:b.so /etc/OpenCL/vendors');
  });

  it('is usable with require and with import', async () => {
    const esm = await runProcess(process.execPath, [
      '--input-type=module',
      '-e',
      `import { getPlatforms, CL } from ${JSON.stringify(resolve(repoRoot, 'dist/index.mjs'))}; import def from ${JSON.stringify(resolve(repoRoot, 'dist/index.mjs'))}; console.log(typeof getPlatforms, CL.CL_RGBA, typeof def.createContext);`,
    ]);
    expect(esm.stderr).toBe('');
    expect(esm.stdout.trim()).toBe('function 4277 function');
    const cjs = await runNode('console.log(typeof ocl.getPlatforms, typeof ocl.OpenCLError)');
    expect(cjs.stdout.trim()).toBe('function function');
  });
});

describe('CLI: npx opencl-interop info', () => {
  const vendors = resolve(repoRoot, 'cmake-build/vendors');
  const lavapipeUuid = '6d65736132322e332e36000000000000'; // "mesa22.3.6": lavapipe's deviceUUID (test/driver/README.md)
  const family = [
    'cl_khr_external_memory',
    'cl_khr_external_memory_opaque_fd',
    'cl_khr_external_memory_dma_buf',
    'cl_khr_external_memory_win32',
    'cl_khr_semaphore',
    'cl_khr_external_semaphore',
    'cl_khr_external_semaphore_opaque_fd',
    'cl_khr_external_semaphore_sync_fd',
    'cl_khr_external_semaphore_win32',
  ];
  type Entry = { name: string; advertised: string; entryPoints: { resolved: number; total: number; missing: string[] } };
  type PlatformReport = {
    name: string;
    sharing: Entry[];
    external: { extensions: Entry[]; devices: Record<string, unknown>[] };
    devices: Record<string, unknown>[];
  };
  const byName = (report: { platforms: PlatformReport[] }, name: string): PlatformReport => {
    const platform = report.platforms.find((p) => p.name === name);
    if (!platform) throw new Error(`no platform "${name}" in the report`);
    return platform;
  };

  it('prints platforms, devices with their UUIDs, the seven sharing extensions, the external memory / semaphore family and Vulkan', async () => {
    const { status, stdout } = await runCli(['info'], { OCL_ICD_VENDORS: vendors });
    expect(status).toBe(0);
    expect(stdout).toMatch(/Platform \d+: Portable Computing Language/);
    expect(stdout).toMatch(/cl_intel_va_api_media_sharing\s+no\s+0\/4/);
    expect(stdout).toContain('UUID 72656664-7276-2d64-6576-6963652d3031'); // the reference device's "refdrv-device-01"
    expect(stdout).toContain('UUID none (no cl_khr_device_uuid)'); // PoCL 3.1
    expect(stdout).toMatch(
      /External memory and semaphores \(advertised by; entry points resolved\):\n\s+cl_khr_external_memory\s+platform\+device\s+2\/2\n\s+cl_khr_external_memory_opaque_fd\s+platform\+device\s+-\n/,
    );
    expect(stdout).toMatch(/cl_khr_semaphore\s+no\s+0\/6/); // PoCL
    expect(stdout).toContain('Device 0: memory import opaque-fd, dma-buf; semaphore import opaque-fd, sync-fd; semaphore export opaque-fd, sync-fd');
    expect(stdout).toContain('Device 0: memory import none; semaphore import none; semaphore export none');
    expect(stdout).toMatch(
      /\nVulkan: loader libvulkan\.so\.1 \(Vulkan 1\.\d+\.\d+\); 1 physical device\(s\)\n  Vulkan device 0: llvmpipe .*\(cpu\); Vulkan 1\.\d+\.\d+; UUID 6d657361-3232-2e33-2e36-000000000000; PCI unknown \(no VK_EXT_pci_bus_info\)\n/,
    );
    expect(stdout).toContain('memory export opaque-fd; import opaque-fd; semaphore export none; import none');
    expect(stdout).toContain('same UUID as OpenCL: no OpenCL device');
  });

  it('--json is machine-readable and shows the reference driver resolving all 39 entry points of the seven extensions', async () => {
    const { status, stdout } = await runCli(['info', '--json'], { OCL_ICD_VENDORS: vendors });
    expect(status).toBe(0);
    const report = JSON.parse(stdout);
    const names = report.platforms.map((p: { name: string }) => p.name);
    expect(names).toContain('Portable Computing Language');
    const ref = byName(report, 'opencl-interop reference driver');
    expect(ref.sharing.map((e: { advertised: string }) => e.advertised)).toEqual(Array(7).fill('platform+device'));
    expect(ref.sharing.reduce((n: number, e: { entryPoints: { resolved: number } }) => n + e.entryPoints.resolved, 0)).toBe(39);
    const pocl = byName(report, 'Portable Computing Language');
    expect(pocl.sharing.every((e: { advertised: string }) => e.advertised === 'no')).toBe(true);
  });

  it('--json: the external memory / semaphore family (cl_khr_external_memory, cl_khr_semaphore, cl_khr_external_semaphore): the reference driver advertises all but win32 and resolves its 10 entry points; PoCL advertises none', async () => {
    const report = JSON.parse((await runCli(['info', '--json'], { OCL_ICD_VENDORS: vendors })).stdout);
    const ref = byName(report, 'opencl-interop reference driver');
    expect(ref.external.extensions.map((e: Entry) => e.name)).toEqual(family);
    expect(Object.fromEntries(ref.external.extensions.map((e: Entry) => [e.name, e.advertised]))).toEqual(
      Object.fromEntries(family.map((name) => [name, name.endsWith('_win32') ? 'no' : 'platform+device'])),
    );
    const totals = Object.fromEntries(ref.external.extensions.map((e: Entry) => [e.name, `${e.entryPoints.resolved}/${e.entryPoints.total}`]));
    expect(totals).toMatchObject({
      cl_khr_external_memory: '2/2',
      cl_khr_semaphore: '6/6',
      cl_khr_external_semaphore: '1/1',
      cl_khr_external_semaphore_sync_fd: '1/1',
      cl_khr_external_memory_opaque_fd: '0/0',
    });
    expect(ref.external.extensions.reduce((n: number, e: Entry) => n + e.entryPoints.resolved, 0)).toBe(10);
    // CL_DEVICE_EXTERNAL_MEMORY_IMPORT_HANDLE_TYPES_KHR, CL_DEVICE_SEMAPHORE_{IMPORT,EXPORT}_HANDLE_TYPES_KHR
    expect(ref.external.devices).toEqual([
      {
        name: 'opencl-interop reference device',
        memoryImport: ['opaque-fd', 'dma-buf'],
        semaphoreImport: ['opaque-fd', 'sync-fd'],
        semaphoreExport: ['opaque-fd', 'sync-fd'],
      },
    ]);
    expect(ref.devices[0].uuid).toBe('72656664-7276-2d64-6576-6963652d3031');
    const pocl = byName(report, 'Portable Computing Language');
    expect(pocl.external.extensions.every((e: Entry) => e.advertised === 'no' && e.entryPoints.resolved === 0)).toBe(true);
    expect(
      pocl.external.devices.every((d: Record<string, unknown>) =>
        [d.memoryImport, d.semaphoreImport, d.semaphoreExport].every((t) => Array.isArray(t) && t.length === 0),
      ),
    ).toBe(true);
    expect(pocl.devices[0].uuid).toBeNull();
  });

  it('--json: Vulkan (lavapipe) with its deviceUUID; an OpenCL device that reports the same UUID (cl_khr_device_uuid) is marked as its match', async () => {
    const plain = JSON.parse((await runCli(['info', '--json'], { OCL_ICD_VENDORS: vendors })).stdout);
    expect(plain.vulkan.available).toBe(true);
    expect(plain.vulkan.error).toBeNull();
    expect(plain.vulkan.loader.path).toBe('libvulkan.so.1');
    expect(plain.vulkan.devices).toHaveLength(1);
    expect(plain.vulkan.devices[0]).toMatchObject({
      index: 0,
      type: 'cpu',
      uuid: '6d657361-3232-2e33-2e36-000000000000',
      memoryExport: ['opaque-fd'],
      semaphoreExport: [],
      matches: [],
    });
    // The reference driver claims lavapipe's UUID, as a GPU's OpenCL and Vulkan drivers report the same one.
    const matched = JSON.parse((await runCli(['info', '--json'], { OCL_ICD_VENDORS: vendors, REFDRV_DEVICE_UUID: lavapipeUuid })).stdout);
    const refIndex = matched.platforms.findIndex((p: { name: string }) => p.name === 'opencl-interop reference driver');
    expect(matched.platforms[refIndex].devices[0].uuid).toBe('6d657361-3232-2e33-2e36-000000000000');
    expect(matched.vulkan.devices[0].matches).toEqual([{ platform: refIndex, device: 0, name: 'opencl-interop reference device' }]);
    const text = (await runCli(['info'], { OCL_ICD_VENDORS: vendors, REFDRV_DEVICE_UUID: lavapipeUuid })).stdout;
    expect(text).toContain(`same UUID as OpenCL: platform ${refIndex} device 0 (opencl-interop reference device)`);
  });

  it('each OpenCL device with its UUID, its PCI address (cl_khr_pci_bus_info: CL_DEVICE_PCI_BUS_INFO_KHR) where advertised, and the Vulkan device it matches', async () => {
    const env = { OCL_ICD_VENDORS: vendors, REFDRV_DEVICE_UUID: lavapipeUuid, REFDRV_PCI_BUS: '0001:c1:1f.3' };
    const report = JSON.parse((await runCli(['info', '--json'], env)).stdout);
    const refIndex = report.platforms.findIndex((p: { name: string }) => p.name === 'opencl-interop reference driver');
    expect(report.platforms[refIndex].devices[0]).toMatchObject({
      uuid: '6d657361-3232-2e33-2e36-000000000000',
      pciBus: '0001:c1:1f.3',
      vulkanDevices: [0],
    });
    expect(byName(report, 'Portable Computing Language').devices[0]).toMatchObject({ uuid: null, pciBus: null, vulkanDevices: [] });
    expect(report.vulkan.devices[0].pciBus).toBeNull(); // lavapipe has no VK_EXT_pci_bus_info
    const text = (await runCli(['info'], env)).stdout;
    expect(text).toMatch(/UUID 6d657361-3232-2e33-2e36-000000000000; PCI 0001:c1:1f\.3; Vulkan: device 0 \(llvmpipe [^\n]*\)\n/);
    expect(text).toContain('UUID none (no cl_khr_device_uuid); PCI unknown (no cl_khr_pci_bus_info); Vulkan: cannot be matched (no UUID)');
    // Without the variable the reference device does not advertise the extension.
    const plain = JSON.parse((await runCli(['info', '--json'], { OCL_ICD_VENDORS: vendors })).stdout);
    expect(plain.platforms[refIndex].devices[0]).toMatchObject({ pciBus: null, vulkanDevices: [] });
  });

  it('Vulkan unavailable is part of the report, not a failure: no loader (the typed error naming the packages), or a loader with no driver', async () => {
    const missing = await runCli(['info', '--json'], { OCL_ICD_VENDORS: vendors, OPENCL_INTEROP_VULKAN_LOADER: '/nonexistent/libvulkan.so.1' });
    expect(missing.status).toBe(0);
    const { vulkan } = JSON.parse(missing.stdout);
    expect(vulkan).toMatchObject({ available: false, loader: null, devices: [] });
    expect(vulkan.error.name).toBe('VulkanUnavailableError');
    expect(vulkan.error.message).toMatch(/\/nonexistent\/libvulkan\.so\.1 \(from OPENCL_INTEROP_VULKAN_LOADER\)/);
    expect(vulkan.error.message).toMatch(/libvulkan1/);
    const text = await runCli(['info'], { OPENCL_INTEROP_VULKAN_LOADER: '/nonexistent/libvulkan.so.1' });
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/\nVulkan: not available: VulkanUnavailableError\n  The Vulkan loader could not be loaded/);
    const noDriver = await runCli(['info', '--json'], { VK_DRIVER_FILES: '/nonexistent/icd.json', VK_ICD_FILENAMES: '/nonexistent/icd.json' });
    expect(noDriver.status).toBe(0);
    const v = JSON.parse(noDriver.stdout).vulkan;
    expect(v).toMatchObject({ available: false, loader: { path: 'libvulkan.so.1' }, devices: [] });
    expect(v.error).toEqual({ name: 'VulkanError', message: expect.stringMatching(/vkCreateInstance failed: VK_ERROR_INCOMPATIBLE_DRIVER/) });
  });

  it('says which devices compile OpenCL C: PoCL does, the reference driver runs built-in kernels only', async () => {
    const report = JSON.parse((await runCli(['info', '--json'], { OCL_ICD_VENDORS: vendors })).stdout);
    const compiles = (name: string) =>
      report.platforms.find((p: { name: string }) => p.name === name).devices.map((d: { compilerAvailable: boolean }) => d.compilerAvailable);
    expect(compiles('Portable Computing Language')).toEqual([true]);
    expect(compiles('opencl-interop reference driver').every((c: boolean) => c === false)).toBe(true);
    const text = (await runCli(['info'], { OCL_ICD_VENDORS: vendors })).stdout;
    expect(text).toMatch(/compiles OpenCL C: yes/);
    expect(text).toMatch(/compiles OpenCL C: no \(built-in kernels only\)/);
  });

  it('explains a missing OpenCL and exits 3; bad usage exits 2', async () => {
    const missing = await runCli(['info'], { OPENCL_INTEROP_LIBRARY: '/nonexistent/libOpenCL.so' });
    expect(missing.status).toBe(3);
    expect(missing.stderr).toMatch(/No OpenCL library could be loaded/);
    const json = await runCli(['info', '--json'], { OPENCL_INTEROP_LIBRARY: '/nonexistent/libOpenCL.so' });
    expect(JSON.parse(json.stdout).error.name).toBe('OpenCLNotAvailableError');
    expect((await runCli(['frobnicate'])).status).toBe(2);
    expect((await runCli(['info', '--bogus'])).status).toBe(2);
    const none = await runCli(['info'], { OCL_ICD_VENDORS: emptyVendors });
    expect(none.stdout).toMatch(/No OpenCL platform was found/);
  });
});
