// Shared by the video decode GPU test files (video-decode.test.mjs for H.264,
// video-decode-h265.test.mjs for H.265): FFmpeg's per-frame MD5s of a
// committed stream, and a decoded frame read back through OpenCL and hashed
// the way FFmpeg's framemd5 hashes rawvideo NV12.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A reader of FFmpeg's per-frame MD5s (the .framemd5 beside each stream) of the streams in `fixtures`. */
export function framemd5Reader(fixtures) {
  return (name) =>
    readFileSync(join(fixtures, `${name}.framemd5`), 'utf8')
      .split('\n')
      .filter((line) => line && !line.startsWith('#'))
      .map((line) => line.split(',').at(-1).trim());
}

/** FFmpeg's framemd5 of rawvideo NV12 (Y rows of `width` bytes, then UV rows of `width` bytes) of a frame read back. */
export function nv12Md5(y, uv, width, height, pitch) {
  const hash = createHash('md5');
  for (let r = 0; r < height; r++) hash.update(y.subarray(r * pitch, r * pitch + width));
  for (let r = 0; r < height / 2; r++) hash.update(uv.subarray(r * pitch, r * pitch + width));
  return hash.digest('hex');
}

/**
 * Enqueues the read-back of a frame's two planes on `queue` (waiting on its decode, between acquire and release):
 * md5() awaits the reads and gives FFmpeg's framemd5 of the frame. The reads' Events are kept until they have
 * resolved: a staged read whose Event is released at once may land after finish() (lib/staging.ts settles only reads
 * whose Event it can still ask).
 */
export function readBack(queue, frame) {
  const { width, height, pitch } = frame;
  const y = new Uint8Array(frame.planes[0].size);
  const uv = new Uint8Array(frame.planes[1].size);
  frame.wait(queue);
  queue.enqueueAcquireShared(frame.memory).release();
  const reads = [queue.readBuffer(frame.planes[0], y), queue.readBuffer(frame.planes[1], uv)];
  queue.enqueueReleaseShared(frame.memory).release();
  return {
    async md5() {
      await Promise.all(reads);
      for (const read of reads) read.release();
      return nv12Md5(y, uv, width, height, pitch);
    },
  };
}
