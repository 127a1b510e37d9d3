// The NV12 test pattern of lib/vulkan/shaders/nv12-pattern.comp, on the CPU:
// what VulkanRecorder.nv12TestFrame() writes, for checking frames byte for byte.
import { checkOptions } from '../validate';
import { nv12Layout } from './commands';

export interface NV12TestFrame {
  /** height rows of width bytes, yPitch apart. */
  y: Uint8Array;
  /** height / 2 rows of width bytes (U, V interleaved), uvPitch apart. */
  uv: Uint8Array;
}

/** The bytes of test frame `frame` (Y(x, y) = x + 2y + 3·frame; UV byte b of row r = 128 + b − 2r + 5·frame; mod 256). */
export function nv12TestFrame(frame: number, width: number, height: number, options?: { yPitch?: number; uvPitch?: number }): NV12TestFrame {
  const o = checkOptions<{ yPitch?: number; uvPitch?: number }>(options, 'options', ['yPitch', 'uvPitch']);
  const l = nv12Layout({ frame, width, height, yPitch: o.yPitch, uvPitch: o.uvPitch ?? o.yPitch, yOffset: 0, uvOffset: 0x7fffffff & ~3 });
  const y = new Uint8Array(l.yPitch * (l.height - 1) + l.width);
  for (let r = 0; r < l.height; r++) {
    const row = r * l.yPitch;
    const base = 2 * r + 3 * l.frame;
    for (let x = 0; x < l.width; x++) y[row + x] = (x + base) & 255;
  }
  const uv = new Uint8Array(l.uvPitch * (l.height / 2 - 1) + l.width);
  for (let r = 0; r < l.height / 2; r++) {
    const row = r * l.uvPitch;
    const base = 128 - 2 * r + 5 * l.frame;
    for (let b = 0; b < l.width; b++) uv[row + b] = (base + b) & 255;
  }
  return { y, uv };
}
