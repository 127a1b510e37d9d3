// What `npx opencl-interop info` prints: platforms and devices (with their
// UUIDs); for each of the seven sharing extensions and for the external memory
// / semaphore family, whether it is advertised and how many of its entry points
// resolve, and the handle types each device imports and exports; and whether
// Vulkan is available, with its physical devices matched to the OpenCL ones by
// UUID. The core builds the first part; the family's and Vulkan's parts come
// from lib/interop and lib/vulkan through ReportSources (the CLI wires them).
import { type Device, formatPciBus } from './device';
import { loadedLibrary } from './loader';
import { getPlatforms, type Platform } from './platform';
import { type SharingExtension, sharingEntryPoints } from './sharing-hooks';

export type Advertised = 'platform' | 'device' | 'platform+device' | 'no';

export interface ExtensionReport<N extends string = SharingExtension> {
  name: N;
  advertised: Advertised;
  /** Resolved by clGetExtensionFunctionAddressForPlatform; total 0 for an extension without entry points of its own. */
  entryPoints: { resolved: number; total: number; missing: string[] };
}

export interface DeviceReport {
  name: string;
  vendor: string;
  type: string;
  version: string;
  driverVersion: string;
  computeUnits: number;
  globalMemBytes: string;
  imageSupport: boolean;
  /** CL_DEVICE_COMPILER_AVAILABLE: whether createProgram(source) can build OpenCL C here. */
  compilerAvailable: boolean;
  preferredInteropUserSync: boolean;
  /** CL_DEVICE_UUID_KHR (cl_khr_device_uuid) as 8-4-4-4-12 hex, or null: what a Vulkan device is matched by. */
  uuid: string | null;
  /** Its PCI address (cl_khr_pci_bus_info) as 'dddd:bb:dd.f', or null where the device does not advertise the extension. */
  pciBus: string | null;
  /** The Vulkan devices with the same UUID (indices into vulkan.devices): filled in when the report has Vulkan's part. */
  vulkanDevices: number[];
}

/** The handle types one device takes part in sharing with (empty where it does not advertise the extension). */
export interface ExternalDeviceReport {
  name: string;
  /** CL_DEVICE_EXTERNAL_MEMORY_IMPORT_HANDLE_TYPES_KHR. */
  memoryImport: string[];
  /** CL_DEVICE_SEMAPHORE_IMPORT_HANDLE_TYPES_KHR and CL_DEVICE_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR. */
  semaphoreImport: string[];
  semaphoreExport: string[];
}

/** cl_khr_external_memory, cl_khr_semaphore, cl_khr_external_semaphore and their handle-type extensions on one platform. */
export interface ExternalReport {
  extensions: ExtensionReport<string>[];
  devices: ExternalDeviceReport[];
}

export interface PlatformReport {
  name: string;
  vendor: string;
  version: string;
  icdSuffix: string;
  devices: DeviceReport[];
  sharing: ExtensionReport[];
  /** null when the report was made without the family's source. */
  external: ExternalReport | null;
}

/** An OpenCL device a Vulkan device matches by UUID: indices as the report lists them. */
export interface DeviceMatch {
  platform: number;
  device: number;
  name: string;
}

export interface VulkanDeviceReport {
  index: number;
  name: string;
  type: string;
  apiVersion: string;
  /** VkPhysicalDeviceIDProperties.deviceUUID as 8-4-4-4-12 hex. */
  uuid: string;
  /** Its PCI address (VK_EXT_pci_bus_info) as 'dddd:bb:dd.f', or null. */
  pciBus: string | null;
  memoryExport: string[];
  memoryImport: string[];
  semaphoreExport: string[];
  semaphoreImport: string[];
  /** The OpenCL devices with the same UUID: the same hardware, so memory and semaphores can be shared. */
  matches: DeviceMatch[];
  /** What it decodes (lib/video: its video decode queue, codecs, profiles and sizes), one line each; absent when not asked. */
  videoDecode?: string[];
}

export interface VulkanReport {
  /** A Vulkan 1.1 instance could be made (what external memory needs). */
  available: boolean;
  /** The Vulkan loader, where one was found. */
  loader: { path: string; version: string } | null;
  /** Why Vulkan is not available (the typed error's name and message), or null. */
  error: { name: string; message: string } | null;
  devices: VulkanDeviceReport[];
}

export interface SystemReport {
  library: string | null;
  platforms: PlatformReport[];
  /** null when the report was made without Vulkan's source. */
  vulkan: VulkanReport | null;
}

/** The parts of the report that live above the core. */
export interface ReportSources {
  /** The external memory / semaphore family on one platform. */
  external?(platform: Platform): ExternalReport;
  /** Vulkan's side, matched against the OpenCL devices listed so far. */
  vulkan?(platforms: readonly PlatformReport[]): VulkanReport;
}

/** Where an extension is advertised and how many of `entryPoints` resolve on the platform. */
export function extensionReport<N extends string>(platform: Platform, name: N, entryPoints: readonly string[]): ExtensionReport<N> {
  const onPlatform = platform.extensions.includes(name);
  const onDevice = platform.getDevices().some((d) => d.extensions.includes(name));
  const missing = entryPoints.filter((entry) => {
    try {
      return platform.extensionFunctionAddress(entry) === 0n;
    } catch {
      return true;
    }
  });
  return {
    name,
    advertised: onPlatform && onDevice ? 'platform+device' : onPlatform ? 'platform' : onDevice ? 'device' : 'no',
    entryPoints: { resolved: entryPoints.length - missing.length, total: entryPoints.length, missing },
  };
}

export function systemReport(sources: ReportSources = {}): SystemReport {
  const platforms = getPlatforms().map((platform) => ({
    name: platform.name,
    vendor: platform.vendor,
    version: platform.version,
    icdSuffix: platform.icdSuffix,
    devices: platform.getDevices().map((d) => ({
      name: d.name,
      vendor: d.vendor,
      type: d.type,
      version: d.version,
      driverVersion: d.driverVersion,
      computeUnits: d.maxComputeUnits,
      globalMemBytes: d.globalMemSize.toString(),
      imageSupport: d.imageSupport,
      compilerAvailable: d.compilerAvailable,
      preferredInteropUserSync: d.preferredInteropUserSync,
      uuid: d.uuid,
      pciBus: pciBusOf(d),
      vulkanDevices: [] as number[],
    })),
    sharing: Object.entries(sharingEntryPoints()).map(([name, entryPoints]) => extensionReport(platform, name as SharingExtension, entryPoints)),
    external: sources.external ? sources.external(platform) : null,
  }));
  const vulkan = sources.vulkan ? sources.vulkan(platforms) : null;
  for (const v of vulkan?.devices ?? []) for (const m of v.matches) platforms[m.platform]!.devices[m.device]!.vulkanDevices.push(v.index);
  return { library: loadedLibrary()?.path ?? null, platforms, vulkan };
}

const list = (names: readonly string[]) => names.join(', ') || 'none';

function formatExtensions(lines: string[], extensions: readonly ExtensionReport<string>[]): void {
  for (const e of extensions) {
    const resolved = e.entryPoints.total ? `${e.entryPoints.resolved}/${e.entryPoints.total}` : '-';
    lines.push(`    ${e.name.padEnd(36)} ${e.advertised.padEnd(16)} ${resolved}`);
  }
}

function formatVulkan(lines: string[], vulkan: VulkanReport): void {
  lines.push('');
  if (!vulkan.available) {
    const loader = vulkan.loader ? `loader ${vulkan.loader.path} (Vulkan ${vulkan.loader.version}); ` : '';
    lines.push(
      `Vulkan: not available: ${loader}${vulkan.error?.name ?? 'no error'}`,
      ...(vulkan.error?.message ?? '').split('\n').map((line) => `  ${line}`),
    );
    return;
  }
  lines.push(`Vulkan: loader ${vulkan.loader!.path} (Vulkan ${vulkan.loader!.version}); ${vulkan.devices.length} physical device(s)`);
  for (const d of vulkan.devices) {
    const matches = d.matches.map((m) => `platform ${m.platform} device ${m.device} (${m.name})`);
    lines.push(
      `  Vulkan device ${d.index}: ${d.name} (${d.type}); Vulkan ${d.apiVersion}; UUID ${d.uuid}; PCI ${d.pciBus ?? 'unknown (no VK_EXT_pci_bus_info)'}`,
      `    memory export ${list(d.memoryExport)}; import ${list(d.memoryImport)}; semaphore export ${list(d.semaphoreExport)}; import ${list(d.semaphoreImport)}`,
      `    same UUID as OpenCL: ${matches.length ? matches.join(', ') : 'no OpenCL device'}`,
    );
    if (d.videoDecode) lines.push(...d.videoDecode.map((line, i) => `    ${i === 0 ? 'video decode: ' : '  '}${line}`));
  }
}

function vulkanOf(report: SystemReport, d: DeviceReport): string {
  if (!report.vulkan) return 'not asked';
  if (!report.vulkan.available) return 'not available';
  if (d.vulkanDevices.length === 0) return d.uuid ? 'no Vulkan device has this UUID' : 'cannot be matched (no UUID)';
  return d.vulkanDevices.map((i) => `device ${i} (${report.vulkan!.devices[i]!.name})`).join(', ');
}

/** A device's PCI address as text; a driver that advertises the extension but fails the query gives null. */
function pciBusOf(d: Device): string | null {
  try {
    const pci = d.pciBus;
    return pci && formatPciBus(pci);
  } catch {
    return null;
  }
}

export function formatReport(report: SystemReport): string {
  const lines = [`OpenCL library: ${report.library}`, `${report.platforms.length} platform(s)`];
  if (report.platforms.length === 0) {
    lines.push(
      'No OpenCL platform was found: no driver is installed or registered.',
      'Install one (for example pocl-opencl-icd) or check /etc/OpenCL/vendors and OCL_ICD_VENDORS.',
    );
  }
  report.platforms.forEach((p, i) => {
    lines.push('', `Platform ${i}: ${p.name}`, `  vendor ${p.vendor}; ${p.version}; ICD suffix ${p.icdSuffix || '-'}`);
    p.devices.forEach((d, j) => {
      const mib = Number(BigInt(d.globalMemBytes) / 1048576n);
      lines.push(
        `  Device ${j}: ${d.name} (${d.type})`,
        `    ${d.version}; driver ${d.driverVersion}; ${d.computeUnits} compute units; ${mib} MiB; images ${d.imageSupport ? 'yes' : 'no'}; compiles OpenCL C: ${d.compilerAvailable ? 'yes' : 'no (built-in kernels only)'}; prefers interop user sync: ${d.preferredInteropUserSync ? 'yes' : 'no'}`,
        `    UUID ${d.uuid ?? 'none (no cl_khr_device_uuid)'}; PCI ${d.pciBus ?? 'unknown (no cl_khr_pci_bus_info)'}; Vulkan: ${vulkanOf(report, d)}`,
      );
    });
    lines.push('  Sharing extensions (advertised by; entry points resolved):');
    formatExtensions(lines, p.sharing);
    if (p.external) {
      lines.push('  External memory and semaphores (advertised by; entry points resolved):');
      formatExtensions(lines, p.external.extensions);
      p.external.devices.forEach((d, j) => {
        lines.push(
          `    Device ${j}: memory import ${list(d.memoryImport)}; semaphore import ${list(d.semaphoreImport)}; semaphore export ${list(d.semaphoreExport)}`,
        );
      });
    }
  });
  if (report.vulkan) formatVulkan(lines, report.vulkan);
  return lines.join('\n');
}
