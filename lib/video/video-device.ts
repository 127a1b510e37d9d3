// The Vulkan device a decoder runs on: the physical device matched to the
// OpenCL device by UUID, made with its compute queue (buffers, semaphores and
// exports, as any VulkanDevice) and every queue of its video decode family.
// One per physical device and instance; its decoders share its decode queues
// (lib/video/decode-queues.ts says which frame goes where).
import { VulkanDevice } from '../vulkan/device';
import '../vulkan/errors'; // VulkanError, which native/video/ throws, registered before its first call
import type { VulkanInstance } from '../vulkan/instance';
import { vulkan } from '../vulkan/loader';
import type { VulkanPhysicalDevice } from '../vulkan/physical-device';
import { MEMORY_HANDLE_BITS, SEMAPHORE_HANDLE_BITS } from '../vulkan/handles';
import { DecodeQueues, type QueueUse } from './decode-queues';
import type { NativeVideoDevice } from './native-types';
import type { VideoDecodeSupport } from './support';

// The codec extensions are enabled where the device has them (the filter below).
const VIDEO_EXTENSIONS = [
  'VK_KHR_synchronization2',
  'VK_KHR_video_queue',
  'VK_KHR_video_decode_queue',
  'VK_KHR_video_decode_h264',
  'VK_KHR_video_decode_h265',
];

export interface VideoDevice {
  readonly vulkan: VulkanDevice;
  readonly native: NativeVideoDevice;
  readonly support: VideoDecodeSupport;
  /** Its decode queues, shared by its decoders. */
  readonly queues: DecodeQueues;
}

const devices = new WeakMap<VulkanInstance, Map<number, VideoDevice>>();

/** The process's use of the decode queues of the GPU `deviceUuid` names, shared by every thread's video device. */
function processQueueUse(deviceUuid: Uint8Array, queues: number): QueueUse {
  const native = vulkan();
  const id = native.vkVideoQueueRegistry(deviceUuid, queues);
  return {
    add: (queue, owners, inFlight) => native.vkVideoQueueAdd(id, queue, owners, inFlight),
    counts: () => native.vkVideoQueueCounts(id),
  };
}

/** The video device of `physical` (made on first use, then shared). */
export function videoDevice(instance: VulkanInstance, physical: VulkanPhysicalDevice, support: VideoDecodeSupport): VideoDevice {
  let perInstance = devices.get(instance);
  if (!perInstance) devices.set(instance, (perInstance = new Map()));
  const known = perInstance.get(physical.index);
  if (known && !known.vulkan.disposed) return known;
  const wanted = new Set<string>(VIDEO_EXTENSIONS);
  for (const s of physical.memoryHandleTypes) if (physical.memoryExport.includes(s.handleType)) for (const e of s.extensions) wanted.add(e);
  for (const s of physical.semaphoreHandleTypes) if (physical.semaphoreExport.includes(s.handleType)) for (const e of s.extensions) wanted.add(e);
  const extensions = [...wanted].filter((e) => physical.extensions.includes(e));
  const memoryBits = physical.memoryExport.reduce((m, t) => m | MEMORY_HANDLE_BITS[t], 0);
  const semaphoreBits = physical.semaphoreExport.reduce((m, t) => m | SEMAPHORE_HANDLE_BITS[t], 0);
  const [nativeDevice, nativeVideo] = vulkan().vkVideoCreateDevice(
    instance.native,
    physical.index,
    physical.queueFamily!,
    support.decodeFamily!,
    support.decodeQueues,
    extensions,
    physical.ycbcr,
    memoryBits,
    semaphoreBits,
    support.decodeTransfers,
  );
  const device: VideoDevice = {
    vulkan: new VulkanDevice(nativeDevice, physical, extensions),
    native: nativeVideo,
    support,
    queues: new DecodeQueues(support.decodeQueues, processQueueUse(physical.deviceUUID, support.decodeQueues), process.pid),
  };
  perInstance.set(physical.index, device);
  return device;
}
