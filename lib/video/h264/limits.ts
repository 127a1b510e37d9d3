// What a decoder back end can take, checked when a picture activates its
// parameter sets: anything past it is refused with H264UnsupportedError
// before a picture event is given.
import { type H264Sps, type H264SequencerOptions, H264UnsupportedError } from './types';

export interface Limits {
  readonly maxWidth: number;
  readonly maxHeight: number;
  readonly maxSlots: number;
  readonly maxLevelIdc: number;
  readonly profiles: readonly number[];
}

const PROFILE_NAMES: Readonly<Record<number, string>> = {
  44: 'CAVLC 4:4:4 Intra',
  66: 'Baseline',
  77: 'Main',
  88: 'Extended',
  100: 'High',
  110: 'High 10',
  122: 'High 4:2:2',
  244: 'High 4:4:4 Predictive',
  118: 'Multiview High',
  128: 'Stereo High',
  83: 'Scalable Baseline',
  86: 'Scalable High',
};

export function profileName(profileIdc: number): string {
  return PROFILE_NAMES[profileIdc] ?? 'unknown';
}

/** An option that is a whole number 1..max (`fallback` when absent), else a TypeError or RangeError naming it. */
export function positiveInteger(value: unknown, name: string, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw new TypeError(`options.${name} must be an integer; got ${typeof value === 'number' ? value : typeof value}`);
  if (value < 1 || value > max) throw new RangeError(`options.${name} must be 1..${max}; got ${value}`);
  return value;
}

/**
 * The most bytes a coded picture of `width` x `height` luma samples can take: a macroblock_layer() is at most
 * 128 + RawMbBits bits (7.4.5; 3200 bits, 400 bytes, for 8-bit 4:2:0), doubled for slice headers and emulation
 * prevention bytes, plus 1 MiB. Larger is a malformed (or hostile) stream, refused before it is held.
 */
export function maxPictureBytes(width: number, height: number): number {
  return Math.ceil(width / 16) * Math.ceil(height / 16) * 800 + (1 << 20);
}

/** The options with their defaults, checked. */
export function limitsOf(options: H264SequencerOptions | undefined): Limits {
  if (options !== undefined && (options === null || typeof options !== 'object'))
    throw new TypeError(`H264Sequencer options must be an object; got ${options === null ? 'null' : typeof options}`);
  const o = options ?? {};
  for (const key of Object.keys(o))
    if (!['maxWidth', 'maxHeight', 'maxSlots', 'maxLevelIdc', 'profiles'].includes(key))
      throw new TypeError(`H264Sequencer options: unknown option '${key}'`);
  let profiles: readonly number[] = [66, 77, 100];
  if (o.profiles !== undefined) {
    if (!Array.isArray(o.profiles) || o.profiles.some((p) => !Number.isInteger(p) || p < 0 || p > 255))
      throw new TypeError('options.profiles must be an array of profile_idc values (integers 0..255)');
    profiles = [...o.profiles];
  }
  return {
    maxWidth: positiveInteger(o.maxWidth, 'maxWidth', 4096, 65536),
    maxHeight: positiveInteger(o.maxHeight, 'maxHeight', 4096, 65536),
    maxSlots: positiveInteger(o.maxSlots, 'maxSlots', 17, 64),
    maxLevelIdc: positiveInteger(o.maxLevelIdc, 'maxLevelIdc', 62, 255),
    profiles,
  };
}

/** Throws H264UnsupportedError naming the first thing about `sps` the decoder cannot do. */
export function checkSps(sps: H264Sps, limits: Limits): void {
  if (!sps.frameMbsOnlyFlag && sps.mbAdaptiveFrameFieldFlag)
    throw new H264UnsupportedError(
      'interlaced',
      `SPS ${sps.spsId} has mb_adaptive_frame_field_flag 1 (MBAFF frames); only progressive frames are decoded`,
    );
  if (sps.chromaFormatIdc !== 1) {
    const names = ['4:0:0 (monochrome)', '4:2:0', '4:2:2', '4:4:4'];
    throw new H264UnsupportedError(
      'chroma_format_idc',
      `chroma_format_idc ${sps.chromaFormatIdc} (${names[sps.chromaFormatIdc]}); only 4:2:0 is decoded`,
    );
  }
  if (sps.bitDepthLumaMinus8 !== 0 || sps.bitDepthChromaMinus8 !== 0)
    throw new H264UnsupportedError(
      'bit_depth',
      `${sps.bitDepthLumaMinus8 + 8}-bit luma, ${sps.bitDepthChromaMinus8 + 8}-bit chroma; only 8 bits are decoded`,
    );
  if (!limits.profiles.includes(sps.profileIdc))
    throw new H264UnsupportedError(
      'profile',
      `profile_idc ${sps.profileIdc} (${profileName(sps.profileIdc)}); this decoder takes ${limits.profiles.join(', ')}`,
    );
  if (sps.levelIdc > limits.maxLevelIdc)
    throw new H264UnsupportedError('level', `level_idc ${sps.levelIdc} (level ${sps.levelIdc / 10}); this decoder goes up to ${limits.maxLevelIdc}`);
  if (sps.codedWidth > limits.maxWidth || sps.codedHeight > limits.maxHeight)
    throw new H264UnsupportedError(
      'size',
      `${sps.codedWidth}x${sps.codedHeight} coded; this decoder takes up to ${limits.maxWidth}x${limits.maxHeight}`,
    );
  if (sps.maxNumRefFrames + 1 > limits.maxSlots)
    throw new H264UnsupportedError(
      'dpb_slots',
      `max_num_ref_frames ${sps.maxNumRefFrames} needs ${sps.maxNumRefFrames + 1} DPB slots; this decoder has ${limits.maxSlots}`,
    );
}
