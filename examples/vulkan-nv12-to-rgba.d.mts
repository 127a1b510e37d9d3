export declare const nv12ToRgbaBuffersSource: string;
export declare function rgbaOnCpu(frame: number, width: number, height: number): Uint32Array;
export declare function runVulkanExample(options?: {
  platformName?: string;
  width?: number;
  height?: number;
  frames?: number;
  slotCount?: number;
}): Promise<{
  device: string;
  vulkanDevice: string;
  width: number;
  height: number;
  frames: number;
  slots: number;
  seconds: number;
  fps: number;
  checked: number;
  mismatches: number;
}>;
