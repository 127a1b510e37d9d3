// The video part of `opencl-interop info`: beside each Vulkan device of the
// report, what it decodes (its decode queue family, codecs, each profile's
// sizes, level and DPB slots). Never throws: a failure is that device's line.
import type { VulkanReport } from '../report';
import { createVulkanInstance } from '../vulkan/instance';
import { describeVideoSupport, videoDecodeSupport } from './support';

/** @internal `report` with each device's videoDecode lines filled in. */
export function videoReport(report: VulkanReport): VulkanReport {
  if (!report.available || report.devices.length === 0) return report;
  try {
    using instance = createVulkanInstance();
    const physical = instance.physicalDevices();
    for (const device of report.devices) {
      const p = physical[device.index];
      if (!p) continue;
      try {
        device.videoDecode = describeVideoSupport(videoDecodeSupport(instance, p));
      } catch (error) {
        device.videoDecode = [`not known: ${(error as Error).name}: ${(error as Error).message}`];
      }
    }
  } catch {
    // Vulkan went away between the two reports: leave them without video lines.
  }
  return report;
}
