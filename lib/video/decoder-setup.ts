// What a decoder starts from: its options checked, and the Vulkan device that
// is the OpenCL device's GPU (matched by UUID) checked for what the decoder
// needs (a decode queue family that decodes its codec into NV12 pictures that are
// both DPB and output, and copies them out), joined to its decode queues, with
// the way its frames are ordered between Vulkan and OpenCL.
import type { Context } from '../context';
import type { Device } from '../device';
import { describeValue } from '../errors';
import { getSemaphores } from '../interop/semaphore';
import { checkChoice, checkInt, checkOptions } from '../validate';
import { createVulkanInstance, type VulkanInstance } from '../vulkan/instance';
import type { DecodeQueueClient } from './decode-queues';
import { VideoDecodeUnsupportedError } from './errors';
import type { VideoFrameSync } from './frames';
import { videoDecodeSupport, type VideoCodec, type VideoDecodeSupport } from './support';
import { videoDevice, type VideoDevice } from './video-device';

/**
 * The environment variable that enables H.265 decoding: its back end is built and checked against FFmpeg's view of
 * the bitstream without a GPU, but on NVIDIA (driver 580) its frames do not yet equal FFmpeg's.
 */
export const EXPERIMENTAL_H265 = 'OPENCL_INTEROP_EXPERIMENTAL_H265';

export interface VideoDecoderOptions {
  /** The OpenCL context the frames are imported into. */
  context: Context;
  /** Its device the frames are used on (default: the context's first). Its UUID picks the Vulkan device. */
  device?: Device;
  /** 'h264' (default) or 'h265' (H.265 Main: 8-bit 4:2:0). */
  codec?: VideoCodec;
  /** Output frames in the pool (default: what the stream needs for reordering + 4). At least the stream's DPB size + 2. */
  frames?: number;
  /** Decodes in flight on the decode queue (1 to 16, default 4). */
  inFlight?: number;
  /** 'semaphores' (default where Vulkan exports and OpenCL imports opaque-fd semaphores) or 'host'. */
  sync?: VideoFrameSync;
  /**
   * 'shared' (default): while the device has more decoders than decode
   * queues, the decoders take turns sharing a queue (one changes queue once
   * its frames are done), so that no two share one engine for the whole run; while
   * it has fewer, a new coded video sequence (an IDR picture) may start on a
   * spare queue (one no decoder owns) on a second session (one more DPB)
   * while the last one still decodes.
   * 'own': its frames always go to its own decode queue (decoders take the
   * queues in turn; with more decoders than queues two share one).
   */
  queues?: 'own' | 'shared';
  /** The Vulkan instance to use (default: one the module keeps). */
  instance?: VulkanInstance;
}

/** A decoder's starting point, checked. */
export interface DecoderSetup {
  readonly codec: VideoCodec;
  readonly context: Context;
  readonly device: Device;
  readonly support: VideoDecodeSupport;
  readonly video: VideoDevice;
  /** Its place among the device's decode queues. */
  readonly queue: DecodeQueueClient;
  readonly sync: VideoFrameSync;
  /** options.frames, checked (undefined: what the stream needs). */
  readonly frames: number | undefined;
  readonly inFlight: number;
}

let sharedInstance: VulkanInstance | null = null;

function clImportsSemaphores(context: Context, device: Device): boolean {
  try {
    return getSemaphores(context.platform).importHandleTypes(device).includes('opaque-fd');
  } catch {
    return false;
  }
}

/** Checks a decoder's options and finds, checks and joins its video device (or throws VideoDecodeUnsupportedError). */
export function setUpDecoder(options: VideoDecoderOptions): DecoderSetup {
  const o = checkOptions<VideoDecoderOptions>(options, 'options', ['context', 'device', 'codec', 'frames', 'inFlight', 'sync', 'instance', 'queues']);
  if (options === undefined) throw new TypeError('options must be an object { context }; got undefined');
  const context = o.context;
  if (typeof context !== 'object' || context === null || !('platform' in context))
    throw new TypeError(`options.context must be an OpenCL Context; got ${describeValue(context)}`);
  const codec = checkChoice(o.codec, 'options.codec', ['h264', 'h265'] as const, 'h264');
  const name = codec === 'h265' ? 'H.265' : 'H.264';
  const shareQueues = checkChoice(o.queues, 'options.queues', ['own', 'shared'] as const, 'shared') === 'shared';
  const frames = o.frames === undefined ? undefined : checkInt(o.frames, 'options.frames', 3, 64);
  const inFlight = o.inFlight === undefined ? 4 : checkInt(o.inFlight, 'options.inFlight', 1, 16);
  const device = o.device ?? context.devices[0];
  if (!device || !context.devices.includes(device)) throw new TypeError('options.device must be a device of options.context');
  if (codec === 'h265' && process.env[EXPERIMENTAL_H265] !== '1')
    throw new VideoDecodeUnsupportedError(
      'experimental',
      device.name,
      `H.265 decoding is experimental: on NVIDIA (driver 580) its frames do not yet equal FFmpeg's; ${EXPERIMENTAL_H265}=1 enables it to try`,
    );
  const uuid = device.uuidBytes;
  if (!uuid)
    throw new VideoDecodeUnsupportedError(
      'no-uuid',
      device.name,
      'the OpenCL device reports no UUID (cl_khr_device_uuid), so no Vulkan device can be matched to it',
    );
  const instance = o.instance ?? (sharedInstance ??= createVulkanInstance());
  const physical = instance.physicalDevices().find((p) => p.deviceUUID.every((b, i) => b === uuid[i]));
  if (!physical) throw new VideoDecodeUnsupportedError('no-device', device.name, "no Vulkan device has the OpenCL device's UUID");
  const support = videoDecodeSupport(instance, physical);
  if (support.decodeFamily === null)
    throw new VideoDecodeUnsupportedError('no-decode-queue', physical.name, 'this device has no video decode queue (VK_KHR_video_decode_queue)');
  if (!support.codecs.includes(codec)) throw new VideoDecodeUnsupportedError('no-codec', physical.name, `its decode queues do not decode ${name}`);
  if (!support.profiles.some((p) => p.codec === codec && p.coincide && p.copyable))
    throw new VideoDecodeUnsupportedError(
      'no-format',
      physical.name,
      `no ${name} profile decodes into NV12 pictures that are both DPB and output and can be copied`,
    );
  if (!support.decodeTransfers)
    throw new VideoDecodeUnsupportedError(
      'no-transfer',
      physical.name,
      'its decode queue family does not transfer (the copy out would need another queue; not supported yet)',
    );
  if (support.transferGranularity !== 1)
    throw new VideoDecodeUnsupportedError(
      'no-transfer',
      physical.name,
      `its decode queue copies whole images only (granularity ${support.transferGranularity})`,
    );
  if (physical.queueFamily === null) throw new VideoDecodeUnsupportedError('no-device', physical.name, 'the device has no compute queue');
  const video = videoDevice(instance, physical, support);
  const queue = video.queues.join(shareQueues);
  const wanted = o.sync;
  const semaphores = video.vulkan.semaphoreHandleTypes.includes('opaque-fd') && clImportsSemaphores(context, device);
  if (wanted !== undefined) checkChoice(wanted, 'options.sync', ['semaphores', 'host'] as const);
  if (wanted === 'semaphores' && !semaphores)
    throw new VideoDecodeUnsupportedError('no-semaphores', physical.name, 'Vulkan does not export, or OpenCL does not import, opaque-fd semaphores');
  return { codec, context, device, support, video, queue, sync: wanted ?? (semaphores ? 'semaphores' : 'host'), frames, inFlight };
}
