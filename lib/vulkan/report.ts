// Vulkan's part of `opencl-interop info` (lib/report.ts): whether a Vulkan 1.1
// instance can be made, and each physical device with what it shares and the
// OpenCL devices it matches by UUID.
import type { PlatformReport, VulkanDeviceReport, VulkanReport } from '../report';
import { formatPciBus } from '../device';
import { formatUuid } from '../uuid';
import { createVulkanInstance } from './instance';
import { type LoadedVulkan, loadVulkan } from './loader';
import type { VulkanPhysicalDevice } from './physical-device';

function deviceReport(d: VulkanPhysicalDevice, platforms: readonly PlatformReport[]): VulkanDeviceReport {
  const uuid = formatUuid(d.deviceUUID);
  return {
    index: d.index,
    name: d.name,
    type: d.type,
    apiVersion: d.apiVersion,
    uuid,
    pciBus: d.pciBus && formatPciBus(d.pciBus),
    memoryExport: [...d.memoryExport],
    memoryImport: [...d.memoryImport],
    semaphoreExport: [...d.semaphoreExport],
    semaphoreImport: [...d.semaphoreImport],
    matches: platforms.flatMap((p, platform) => p.devices.flatMap((cl, device) => (cl.uuid === uuid ? [{ platform, device, name: cl.name }] : []))),
  };
}

/** @internal Vulkan as this process finds it, for the info report. Never throws: a failure is the report's `error`. */
export function vulkanReport(platforms: readonly PlatformReport[]): VulkanReport {
  let loaded: LoadedVulkan | undefined;
  try {
    loaded = loadVulkan();
    using instance = createVulkanInstance();
    return {
      available: true,
      loader: { path: loaded.path, version: loaded.version },
      error: null,
      devices: instance.physicalDevices().map((d) => deviceReport(d, platforms)),
    };
  } catch (error) {
    const { name, message } = error instanceof Error ? error : { name: 'Error', message: String(error) };
    return { available: false, loader: loaded ? { path: loaded.path, version: loaded.version } : null, error: { name, message }, devices: [] };
  }
}
