// The native side of the video module (native/video/), as lib/video sees it.
// Kept here rather than in lib/addon.ts: these are the video module's own; the
// module's exports complete Addon (`declare module '../addon'`).
import type { NativeVkBuffer, NativeVkDevice, NativeVkInstance, NativeVkSemaphore } from '../vulkan/native-types';

/** One queue family of a physical device, with the codec operations it does (VkQueueFamilyVideoPropertiesKHR). */
export interface NativeVideoFamily {
  index: number;
  /** VkQueueFlags. */
  flags: number;
  count: number;
  /** VkVideoCodecOperationFlagsKHR. */
  codecs: number;
  /** minImageTransferGranularity.width. */
  granularity: number;
}

/** What vkGetPhysicalDeviceVideoCapabilitiesKHR and vkGetPhysicalDeviceVideoFormatPropertiesKHR say of one H.264 or H.265 profile. */
export interface NativeVideoProfileSupport {
  profileIdc: number;
  result: number;
  supported: boolean;
  flags?: number;
  decodeFlags?: number;
  maxLevelIdc?: number;
  bitstreamOffsetAlignment?: number;
  bitstreamSizeAlignment?: number;
  granularity?: [number, number];
  minWidth?: number;
  minHeight?: number;
  maxWidth?: number;
  maxHeight?: number;
  maxDpbSlots?: number;
  maxActiveReferences?: number;
  stdName?: string;
  stdVersion?: number;
  formats?: { usage: number; format: number; tiling: number; imageUsage: number; createFlags: number }[];
}

export interface NativeVideoSupport {
  families: NativeVideoFamily[];
  h264: NativeVideoProfileSupport[];
  /** Absent from an addon built before H.265. */
  h265?: NativeVideoProfileSupport[];
}

export interface NativeVideoDecoderInfo {
  queueIndex: number;
  /** The decode queue of the last submission (-1 before the first). */
  lastQueue: number;
  decoded: number;
  width: number;
  height: number;
  slots: number;
  inFlight: number;
  ring: number;
  broken: boolean;
}

/** A StdVideoH264* / StdVideoH265* parameter set as a plain object (native/video/h264_params.cc, h265_params.cc read it). */
export type NativeStdParameterSet = Record<string, unknown>;

export interface NativeVideoDecoder {
  configure(width: number, height: number, slots: number, maxActiveReferences: number, format: number): void;
  /** `vps`: H.265's (a decoder made for 'h265' reads it). */
  setParameters(sps: NativeStdParameterSet[], pps: NativeStdParameterSet[], vps?: NativeStdParameterSet[]): void;
  decode(
    ring: number,
    desc: Int32Array,
    sliceOffsets: Uint32Array,
    data: Uint8Array,
    output: NativeVkBuffer,
    layout: [number, number, number, number],
    wait: NativeVkSemaphore[] | undefined,
    signal: NativeVkSemaphore[] | undefined,
    queue?: number,
  ): Promise<void>;
  info(): NativeVideoDecoderInfo;
  release(): void;
}

export interface NativeVideoDevice {
  createDecoder(queueIndex: number, profileIdc: number, ring: number, codec?: 'h264' | 'h265'): NativeVideoDecoder;
  release(): void;
}

declare module '../addon' {
  interface Addon {
    // The video module (native/video/: video.cc, decoder.cc, h264_params.cc, h265_params.cc).
    vkVideoDecodeSupport(instance: NativeVkInstance, index: number, h264Profiles: number[], h265Profiles?: number[]): NativeVideoSupport;
    vkVideoCreateDevice(
      instance: NativeVkInstance,
      index: number,
      computeFamily: number,
      decodeFamily: number,
      decodeQueues: number,
      extensions: string[],
      ycbcr: boolean,
      memoryBits: number,
      semaphoreBits: number,
      decodeTransfers: boolean,
    ): [NativeVkDevice, NativeVideoDevice];
    // native/video/decode_queue_registry.cc: the process's decode queue use, across threads.
    vkVideoQueueRegistry(deviceUuid: Uint8Array, queues: number): number;
    vkVideoQueueAdd(id: number, queue: number, owners: number, inFlight: number): void;
    /** [owners of queue 0, frames in flight on queue 0, owners of queue 1, ...]. */
    vkVideoQueueCounts(id: number): Int32Array;
  }
}
