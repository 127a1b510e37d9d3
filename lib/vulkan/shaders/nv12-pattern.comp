#version 450
// Writes test frame `frame` of an NV12 video into a buffer: the Y plane at
// yOffset (rows yPitch bytes apart), the interleaved UV plane at uvOffset
// (rows uvPitch bytes apart). One invocation writes 4 bytes of a Y row and,
// in the first height/2 rows, 4 bytes of a UV row. lib/vulkan/frames.ts
// computes the same bytes on the CPU (nv12TestFrame).
//   Y(x, y)      = (x + 2*y + 3*frame) & 255
//   UV byte b of row r = (128 + b - 2*r + 5*frame) & 255
// Offsets, pitches and the width are multiples of 4; the height is even.
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, set = 0, binding = 0) buffer Frame { uint words[]; };
layout(push_constant) uniform Params {
  uint frame;
  uint width;
  uint height;
  uint yOffset;
  uint yPitch;
  uint uvOffset;
  uint uvPitch;
} p;

uint pack4(uint b0, uint b1, uint b2, uint b3) {
  return (b0 & 255u) | ((b1 & 255u) << 8) | ((b2 & 255u) << 16) | ((b3 & 255u) << 24);
}

void main() {
  uint wx = gl_GlobalInvocationID.x;  // word within the row
  uint y = gl_GlobalInvocationID.y;
  if (wx * 4u >= p.width || y >= p.height) return;
  uint x = wx * 4u;
  uint base = x + 2u * y + 3u * p.frame;
  words[(p.yOffset + y * p.yPitch + x) / 4u] = pack4(base, base + 1u, base + 2u, base + 3u);
  if (y < p.height / 2u) {
    uint c = 128u + x - 2u * y + 5u * p.frame;
    words[(p.uvOffset + y * p.uvPitch + x) / 4u] = pack4(c, c + 1u, c + 2u, c + 3u);
  }
}
