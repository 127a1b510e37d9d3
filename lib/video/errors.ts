// The decoder's typed errors. The bitstream room's own (H264BitstreamError,
// H264UnsupportedError) come from lib/video/h264 and reach the caller as they are.

/**
 * The device cannot decode this: no video decode queue (lavapipe, most
 * CPUs' drivers), no decode of the codec or profile, a size or format the
 * decoder needs that the device lacks. `reason` is a short key, `device` the
 * device's name.
 */
export class VideoDecodeUnsupportedError extends Error {
  override name = 'VideoDecodeUnsupportedError';
  /**
   * 'no-decode-queue' | 'no-codec' | 'no-profile' | 'no-format' | 'no-transfer' | 'no-uuid' | 'size' | 'no-device' |
   * 'experimental' (a codec not enabled yet: H.265 without OPENCL_INTEROP_EXPERIMENTAL_H265=1).
   */
  readonly reason: string;
  readonly device: string;
  constructor(reason: string, device: string, detail: string) {
    super(`${device} cannot decode video here: ${detail}`);
    this.reason = reason;
    this.device = device;
  }
}

/** A call the decoder's state does not allow now (a second decode run at once, a frame released twice, a pool too small). */
export class VideoDecoderStateError extends Error {
  override name = 'VideoDecoderStateError';
}

/** The decoder (or a frame of it) was used after dispose(). */
export class VideoDecoderDisposedError extends Error {
  override name = 'VideoDecoderDisposedError';
  constructor(what = 'VideoDecoder') {
    super(`this ${what} was disposed`);
  }
}
