import type { CommandQueue, MemObject, Semaphore, Semaphores, VulkanCommands, VulkanDevice, VulkanSemaphore } from '../dist/index.js';
export interface FrameSlot {
  readonly index: number;
  readonly inputReady: VulkanSemaphore;
  readonly outputReady: VulkanSemaphore;
  readonly clInputReady: Semaphore;
  readonly clOutputReady: Semaphore;
}
export interface FrameSlotsRunOptions {
  frames: number;
  order?: 'naive' | 'ahead';
  lag?: number;
  produce(slot: FrameSlot, frame: number): VulkanCommands;
  opencl(slot: FrameSlot, frame: number): void;
  consume(slot: FrameSlot, frame: number): VulkanCommands;
  acquire(slot: FrameSlot): MemObject[];
  onConsumed?(slot: FrameSlot, frame: number): void | Promise<void>;
  timing?: { produce?: number; opencl?: number; consume?: number; wait?: number; calls?: Record<string, number> };
}
export declare class FrameSlots {
  constructor(options: { vulkan: VulkanDevice; queue: CommandQueue; count: number });
  readonly vulkan: VulkanDevice;
  readonly queue: CommandQueue;
  readonly semaphores: Semaphores;
  readonly slots: readonly FrameSlot[];
  readonly count: number;
  run(options: FrameSlotsRunOptions): Promise<void>;
  dispose(): void;
  [Symbol.dispose](): void;
}
