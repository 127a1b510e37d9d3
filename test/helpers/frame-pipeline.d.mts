// Types of frame-pipeline.mjs (the package is passed in as `ocl`).
// biome-ignore-all lint/suspicious/noExplicitAny: the package and its objects come in untyped, as `ocl`
export interface PipelineCheck {
  frames: number;
  checked: number;
  mismatches: number;
}
export declare const NV12_TO_RGBA_SOURCE: string;
export declare function rgbaOnCpu(ocl: any, frame: number, width: number, height: number): Uint32Array;
export declare function converter(context: any, device: any, width: number, height: number): Promise<any>;
export declare function vulkanPipeline(
  ocl: any,
  options: {
    queue: any;
    vulkan: any;
    width?: number;
    height?: number;
    slots?: number;
    frames?: number;
    order?: 'naive' | 'ahead';
    lag?: number;
    sync?: 'semaphores' | 'host';
  },
): Promise<PipelineCheck & { sync: 'semaphores' | 'host' }>;
export declare function hostUploadPipeline(
  ocl: any,
  options: {
    queue: any;
    uploadQueue?: any;
    width?: number;
    height?: number;
    slots?: number;
    frames?: number;
    order?: 'naive' | 'ahead';
    lag?: number;
  },
): Promise<PipelineCheck>;
