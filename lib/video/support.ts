// What a Vulkan device decodes: its video decode queue family, and per codec
// profile the sizes, DPB slots and picture formats (vkGetPhysicalDevice-
// VideoCapabilitiesKHR, vkGetPhysicalDeviceVideoFormatPropertiesKHR).
// `opencl-interop info` prints it; the decoder checks it before any GPU work.
import type { VulkanInstance } from '../vulkan/instance';
import { vulkan } from '../vulkan/loader';
import type { VulkanPhysicalDevice } from '../vulkan/physical-device';
import type { NativeVideoProfileSupport } from './native-types';

export const QUEUE_VIDEO_DECODE = 0x20;
const QUEUE_TRANSFER = 0x4;
const CODEC_H264 = 0x1,
  CODEC_H265 = 0x2;
const DECODE_COINCIDE = 0x1,
  DECODE_DISTINCT = 0x2;
/** VK_FORMAT_G8_B8R8_2PLANE_420_UNORM. */
export const FORMAT_NV12 = 1000156003;
const IMAGE_USAGE_TRANSFER_SRC = 0x1;
const USAGE_DPB_AND_DST = 0x1000 | 0x400;
/** StdVideoH264LevelIdc -> level_idc. */
const H264_LEVELS = [10, 11, 12, 13, 20, 21, 22, 30, 31, 32, 40, 41, 42, 50, 51, 52, 60, 61, 62];
/** StdVideoH265LevelIdc -> general_level_idc (30 x the level). */
const H265_LEVELS = [30, 60, 63, 90, 93, 120, 123, 150, 153, 156, 180, 183, 186];

/** The H.264 profiles the decoder asks about: profile_idc and name. */
export const H264_PROFILES: readonly { readonly idc: number; readonly name: string }[] = [
  { idc: 66, name: 'Constrained Baseline' },
  { idc: 77, name: 'Main' },
  { idc: 100, name: 'High' },
];

/** The H.265 profiles the decoder asks about: general_profile_idc and name (8-bit 4:2:0). */
export const H265_PROFILES: readonly { readonly idc: number; readonly name: string }[] = [{ idc: 1, name: 'Main' }];

export type VideoCodec = 'h264' | 'h265';

/** One codec profile the device decodes. */
export interface VideoDecodeProfile {
  readonly codec: VideoCodec;
  readonly profile: string;
  /** profile_idc (H.264), general_profile_idc (H.265). */
  readonly profileIdc: number;
  /** The highest level, as level_idc (H.264: 10 x the level, e.g. 52 = level 5.2; H.265: general_level_idc, 30 x the level, e.g. 153 = level 5.1). */
  readonly maxLevelIdc: number;
  readonly minWidth: number;
  readonly minHeight: number;
  readonly maxWidth: number;
  readonly maxHeight: number;
  readonly maxDpbSlots: number;
  readonly maxActiveReferences: number;
  /** The decoded picture's format when DPB and output coincide ('nv12' where it is VK_FORMAT_G8_B8R8_2PLANE_420_UNORM). */
  readonly pictureFormats: readonly string[];
  /** DPB and output pictures may be one image (VK_VIDEO_DECODE_CAPABILITY_DPB_AND_OUTPUT_COINCIDE_BIT_KHR). */
  readonly coincide: boolean;
  readonly distinct: boolean;
  /** The coinciding NV12 picture can be a transfer source (the decoder copies it out). */
  readonly copyable: boolean;
  /** @internal */
  readonly native: NativeVideoProfileSupport;
}

/** What one Vulkan device decodes. */
export interface VideoDecodeSupport {
  readonly device: string;
  /** The video decode queue family, or null where the device has none. */
  readonly decodeFamily: number | null;
  readonly decodeQueues: number;
  /** The decode family also transfers (the decoder's copy out runs on it). */
  readonly decodeTransfers: boolean;
  /** minImageTransferGranularity's width on the decode family (1: any copy offset). */
  readonly transferGranularity: number;
  readonly codecs: readonly VideoCodec[];
  readonly profiles: readonly VideoDecodeProfile[];
}

function formatName(format: number): string {
  return format === FORMAT_NV12 ? 'nv12' : `VkFormat ${format}`;
}

/** One profile's entry, from what the driver says of it. */
function profileOf(codec: VideoCodec, p: NativeVideoProfileSupport): VideoDecodeProfile {
  const coinciding = (p.formats ?? []).filter((f) => f.usage === USAGE_DPB_AND_DST);
  const names = codec === 'h265' ? H265_PROFILES : H264_PROFILES;
  const levels = codec === 'h265' ? H265_LEVELS : H264_LEVELS;
  return Object.freeze({
    codec,
    profile: names.find((x) => x.idc === p.profileIdc)?.name ?? `profile_idc ${p.profileIdc}`,
    profileIdc: p.profileIdc,
    maxLevelIdc: levels[p.maxLevelIdc ?? -1] ?? 0,
    minWidth: p.minWidth ?? 0,
    minHeight: p.minHeight ?? 0,
    maxWidth: p.maxWidth ?? 0,
    maxHeight: p.maxHeight ?? 0,
    maxDpbSlots: p.maxDpbSlots ?? 0,
    maxActiveReferences: p.maxActiveReferences ?? 0,
    pictureFormats: Object.freeze([...new Set(coinciding.map((f) => formatName(f.format)))]),
    coincide: ((p.decodeFlags ?? 0) & DECODE_COINCIDE) !== 0,
    distinct: ((p.decodeFlags ?? 0) & DECODE_DISTINCT) !== 0,
    copyable: coinciding.some((f) => f.format === FORMAT_NV12 && (f.imageUsage & IMAGE_USAGE_TRANSFER_SRC) !== 0),
    native: p,
  });
}

/** What `physical` (a device of `instance`) decodes. Asks the driver; no device is made. */
export function videoDecodeSupport(instance: VulkanInstance, physical: VulkanPhysicalDevice): VideoDecodeSupport {
  const native = vulkan();
  const hasVideo = physical.extensions.includes('VK_KHR_video_queue') && physical.extensions.includes('VK_KHR_video_decode_queue');
  const answer = native.vkVideoDecodeSupport(
    instance.native,
    physical.index,
    hasVideo && physical.extensions.includes('VK_KHR_video_decode_h264') ? H264_PROFILES.map((p) => p.idc) : [],
    hasVideo && physical.extensions.includes('VK_KHR_video_decode_h265') ? H265_PROFILES.map((p) => p.idc) : [],
  );
  const family = hasVideo ? answer.families.find((f) => (f.flags & QUEUE_VIDEO_DECODE) !== 0 && f.count > 0) : undefined;
  const codecs: VideoCodec[] = [];
  if (family && family.codecs & CODEC_H264) codecs.push('h264');
  if (family && family.codecs & CODEC_H265) codecs.push('h265');
  const profiles: VideoDecodeProfile[] = [];
  if (family && family.codecs & CODEC_H264) for (const p of answer.h264) if (p.supported) profiles.push(profileOf('h264', p));
  if (family && family.codecs & CODEC_H265) for (const p of answer.h265 ?? []) if (p.supported) profiles.push(profileOf('h265', p));
  return Object.freeze({
    device: physical.name,
    decodeFamily: family ? family.index : null,
    decodeQueues: family ? family.count : 0,
    decodeTransfers: family ? (family.flags & QUEUE_TRANSFER) !== 0 : false,
    transferGranularity: family ? family.granularity : 0,
    codecs: Object.freeze(codecs),
    profiles: Object.freeze(profiles),
  });
}

/** An H.265 level number as written (5 -> '5.0', 5.1 -> '5.1'). */
function levelName(level: number): string {
  return Number.isInteger(level) ? `${level}.0` : `${Math.round(level * 10) / 10}`;
}

/** One line per profile, for `opencl-interop info`. */
export function describeVideoSupport(support: VideoDecodeSupport): string[] {
  if (support.decodeFamily === null) return ['no video decode queue'];
  const lines = [
    `decode queue family ${support.decodeFamily} (${support.decodeQueues} queue${support.decodeQueues === 1 ? '' : 's'}${support.decodeTransfers ? ', transfers' : ''}): ${support.codecs.join(', ') || 'no codec'}`,
  ];
  for (const p of support.profiles) {
    const level = p.codec === 'h265' ? levelName(p.maxLevelIdc / 30) : `${Math.floor(p.maxLevelIdc / 10)}.${p.maxLevelIdc % 10}`;
    lines.push(
      `${p.codec} ${p.profile}: ${p.minWidth}x${p.minHeight} to ${p.maxWidth}x${p.maxHeight}, level ${level}, ${p.maxDpbSlots} DPB slots, ` +
        `${p.maxActiveReferences} references, ${p.pictureFormats.join('/') || 'no format'}${p.coincide ? ' (DPB = output)' : ''}`,
    );
  }
  return lines;
}
