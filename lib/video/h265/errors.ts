// The H.265 room's typed errors. The RBSP reader is shared with the H.264
// room and throws H264BitstreamError on a read past the end or a value out of
// range; every H.265 parse runs through h265Errors(), which turns those into
// H265BitstreamError with the same reason, so callers see one family.
import { H264BitstreamError } from '../h264/types';

/**
 * The stream is malformed: a read past the end, a value out of the range the
 * spec allows, a parameter set that does not match. `reason` names the syntax
 * element, the value and the clause.
 */
export class H265BitstreamError extends Error {
  override name = 'H265BitstreamError';
  /** What was wrong, e.g. "SPS: sps_seq_parameter_set_id is 16, outside 0..15". */
  readonly reason: string;
  constructor(reason: string) {
    super(`H.265 bitstream error: ${reason}`);
    this.reason = reason;
  }
}

/**
 * The stream is valid H.265 but uses something this room does not do (yet):
 * a profile other than Main / Main 10 / Main Still Picture, 4:0:0 / 4:2:2 /
 * 4:4:4, a bit depth other than 8 or 10, separate colour planes, an SPS or PPS
 * extension. `feature` names it; `found` says what the stream had.
 */
export class H265UnsupportedError extends Error {
  override name = 'H265UnsupportedError';
  /** e.g. 'profile', 'chroma_format_idc', 'bit_depth', 'separate_colour_plane', 'sps_range_extension'. */
  readonly feature: string;
  readonly found: string;
  constructor(feature: string, found: string) {
    super(`H.265 stream not supported: ${feature}: ${found}`);
    this.feature = feature;
    this.found = found;
  }
}

/** Runs `parse`, turning the shared reader's H264BitstreamError into H265BitstreamError. */
export function h265Errors<T>(parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    if (e instanceof H264BitstreamError) throw new H265BitstreamError(e.reason);
    throw e;
  }
}
