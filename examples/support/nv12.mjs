// NV12 test pictures and the conversion the examples' kernel does, on the
// CPU, so an example can check what OpenCL computed.

/** Color bars over a gray ramp in NV12 (BT.601 limited range): { luma: W x H bytes, chroma: interleaved UV, W x H/2 bytes }. */
export function colorBarsNV12(width, height) {
  const bars = [
    [235, 235, 235],
    [235, 235, 16],
    [16, 235, 235],
    [16, 235, 16],
    [235, 16, 235],
    [235, 16, 16],
    [16, 16, 235],
    [16, 16, 16],
  ];
  const toYuv = ([r, g, b]) => [
    ((66 * r + 129 * g + 25 * b + 128) >> 8) + 16,
    ((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128,
    ((112 * r - 94 * g - 18 * b + 128) >> 8) + 128,
  ];
  const luma = new Uint8Array(width * height);
  const chroma = new Uint8Array(width * (height / 2));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const top = y < Math.floor(height * 0.75);
      const [Y, U, V] = top ? toYuv(bars[Math.floor((x * bars.length) / width)]) : [Math.round((x / width) * 219) + 16, 128, 128];
      luma[y * width + x] = Y;
      if (y % 2 === 0 && x % 2 === 0) chroma.set([U, V], (y / 2) * width + x);
    }
  }
  return { luma, chroma };
}

/** What nv12_to_rgba gives for one pixel (BT.601 limited range, integer), on the CPU. */
export function nv12PixelToRgba(luma, u, v) {
  const clamp = (x) => Math.max(0, Math.min(255, x));
  const c = luma - 16,
    d = u - 128,
    e = v - 128;
  return [clamp((298 * c + 409 * e + 128) >> 8), clamp((298 * c - 100 * d - 208 * e + 128) >> 8), clamp((298 * c + 516 * d + 128) >> 8), 255];
}

/** The whole picture converted on the CPU: what the kernel must produce. */
export function nv12ToRgbaReference(luma, chroma, width, height) {
  const out = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y >> 1) * width + (x & ~1);
      out.set(nv12PixelToRgba(luma[y * width + x], chroma[at], chroma[at + 1]), (y * width + x) * 4);
    }
  }
  return out;
}
