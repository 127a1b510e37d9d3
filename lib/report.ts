// What `npx opencl-interop info` prints: platforms, devices and, for each of
// the seven sharing extensions, whether it is advertised and how many of its
// entry points resolve.
import { loadedLibrary } from './loader';
import { getPlatforms, type Platform } from './platform';
import { type SharingExtension, sharingEntryPoints } from './sharing-hooks';

export interface ExtensionReport {
  name: SharingExtension;
  advertised: 'platform' | 'device' | 'platform+device' | 'no';
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
}

export interface PlatformReport {
  name: string;
  vendor: string;
  version: string;
  icdSuffix: string;
  devices: DeviceReport[];
  sharing: ExtensionReport[];
}

export interface SystemReport {
  library: string | null;
  platforms: PlatformReport[];
}

function extensionReport(platform: Platform, name: SharingExtension): ExtensionReport {
  const onPlatform = platform.extensions.includes(name);
  const onDevice = platform.getDevices().some((d) => d.extensions.includes(name));
  const entryPoints = sharingEntryPoints()[name]!;
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

export function systemReport(): SystemReport {
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
    })),
    sharing: (Object.keys(sharingEntryPoints()) as SharingExtension[]).map((name) => extensionReport(platform, name)),
  }));
  return { library: loadedLibrary()?.path ?? null, platforms };
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
      );
    });
    lines.push('  Sharing extensions (advertised by; entry points resolved):');
    for (const e of p.sharing) {
      const resolved = `${e.entryPoints.resolved}/${e.entryPoints.total}`;
      lines.push(`    ${e.name.padEnd(32)} ${e.advertised.padEnd(16)} ${resolved}`);
    }
  });
  return lines.join('\n');
}
