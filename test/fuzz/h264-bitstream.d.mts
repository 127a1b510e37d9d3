// Types of h264-bitstream.mjs (the H.264 bitstream fuzzer, shared by test/video-h264-errors.test.ts and its command line).
import type * as Room from '../../lib/video/h264';
import type { H264Input } from '../../lib/video/h264-input';

export declare const fuzzStreams: readonly string[];
/** The fixture streams (and the b-pyramid avcC record) cases start from. */
export declare function loadStreams(): Map<string, Uint8Array>;
export interface FuzzCaseResult {
  seed: number;
  /** 'ok': decoded through; 'typed': ended with H264BitstreamError / H264UnsupportedError; 'failure': anything else or a broken record. */
  outcome: 'ok' | 'typed' | 'failure';
  detail: string;
  /** What the case did to the stream. */
  log: string[];
  ms: number;
}
/**
 * Runs case `seed` against the room (lib/video/h264, or its compiled dist); with `H264Input` beside it (the decoder's
 * input side), some cases are fed to it as packets with timestamps.
 */
export declare function runCase(
  seed: number,
  streams: Map<string, Uint8Array>,
  room: typeof Room & { readonly H264Input?: typeof H264Input },
): FuzzCaseResult;
/** The first broken record among a case's events, or null. */
export declare function checkEvents(events: readonly Room.H264Event[], maxSlots?: number): string | null;
