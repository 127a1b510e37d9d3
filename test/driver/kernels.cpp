// kernels.cpp - built-in kernels of the reference driver (run on the host
// worker thread) and pixel encoding helpers.
#include "driver.h"

#include <algorithm>
#include <cmath>

namespace refdrv {

static float half_to_float(uint16_t h) {
  uint32_t s = (h >> 15) & 1, e = (h >> 10) & 31, m = h & 1023;
  float v;
  if (e == 0) v = std::ldexp(float(m), -24);
  else if (e == 31) v = m ? NAN : INFINITY;
  else v = std::ldexp(float(m | 1024), int(e) - 25);
  return s ? -v : v;
}
static uint16_t float_to_half(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  uint32_t s = (x >> 16) & 0x8000;
  if (std::isnan(f)) return uint16_t(s | 0x7E00);
  float a = std::fabs(f);
  if (a >= 65520.0f) return uint16_t(s | 0x7C00);
  if (a < std::ldexp(1.0f, -24) / 2) return uint16_t(s);
  int e;
  std::frexp(a, &e);  // a = m * 2^e, m in [0.5,1)
  if (e < -13) {      // subnormal half
    uint32_t m = uint32_t(std::nearbyint(std::ldexp(a, 24)));
    return uint16_t(s | m);
  }
  uint32_t m = uint32_t(std::nearbyint(std::ldexp(a, 11 - e)));  // 11 bits incl. implicit
  if (m == 2048) {
    m = 1024;
    e++;
  }
  uint32_t he = uint32_t(e + 14);
  if (he >= 31) return uint16_t(s | 0x7C00);
  return uint16_t(s | (he << 10) | (m & 1023));
}

// storage order of the RGBA components for each channel order
static int order_map(cl_channel_order o, int out[4]) {
  switch (o) {
    case CL_R:
    case CL_INTENSITY:
    case CL_LUMINANCE: out[0] = 0; return 1;
    case CL_A: out[0] = 3; return 1;
    case CL_RG:
      out[0] = 0;
      out[1] = 1;
      return 2;
    case CL_RA:
      out[0] = 0;
      out[1] = 3;
      return 2;
    case CL_RGBA:
      for (int i = 0; i < 4; i++) out[i] = i;
      return 4;
    case CL_BGRA:
      out[0] = 2;
      out[1] = 1;
      out[2] = 0;
      out[3] = 3;
      return 4;
    case CL_ARGB:
      out[0] = 3;
      out[1] = 0;
      out[2] = 1;
      out[3] = 2;
      return 4;
    default: return 0;
  }
}

template <class T>
static T sat(double v, double lo, double hi) {
  return T(std::min(hi, std::max(lo, v)));
}

void encode_pixel(const cl_image_format &f, const float *fv, const int32_t *iv, const uint32_t *uv, uint8_t *out) {
  int map[4];
  int n = order_map(f.image_channel_order, map);
  size_t cs = channel_size(f.image_channel_data_type);
  for (int i = 0; i < n; i++) {
    int c = map[i];
    uint8_t *p = out + i * cs;
    switch (f.image_channel_data_type) {
      case CL_UNORM_INT8: {
        uint8_t v = sat<uint8_t>(std::nearbyint(double(fv[c]) * 255), 0, 255);
        memcpy(p, &v, 1);
        break;
      }
      case CL_UNORM_INT16: {
        uint16_t v = sat<uint16_t>(std::nearbyint(double(fv[c]) * 65535), 0, 65535);
        memcpy(p, &v, 2);
        break;
      }
      case CL_SNORM_INT8: {
        int8_t v = sat<int8_t>(std::nearbyint(double(fv[c]) * 127), -128, 127);
        memcpy(p, &v, 1);
        break;
      }
      case CL_SNORM_INT16: {
        int16_t v = sat<int16_t>(std::nearbyint(double(fv[c]) * 32767), -32768, 32767);
        memcpy(p, &v, 2);
        break;
      }
      case CL_HALF_FLOAT: {
        uint16_t v = float_to_half(fv[c]);
        memcpy(p, &v, 2);
        break;
      }
      case CL_FLOAT: memcpy(p, &fv[c], 4); break;
      case CL_SIGNED_INT8: {
        int8_t v = sat<int8_t>(iv[c], -128, 127);
        memcpy(p, &v, 1);
        break;
      }
      case CL_SIGNED_INT16: {
        int16_t v = sat<int16_t>(iv[c], -32768, 32767);
        memcpy(p, &v, 2);
        break;
      }
      case CL_SIGNED_INT32: memcpy(p, &iv[c], 4); break;
      case CL_UNSIGNED_INT8: {
        uint8_t v = uint8_t(std::min<uint32_t>(uv[c], 255));
        memcpy(p, &v, 1);
        break;
      }
      case CL_UNSIGNED_INT16: {
        uint16_t v = uint16_t(std::min<uint32_t>(uv[c], 65535));
        memcpy(p, &v, 2);
        break;
      }
      case CL_UNSIGNED_INT32: memcpy(p, &uv[c], 4); break;
      default: break;
    }
  }
}

// per-channel inversion: normalized/float x -> 1 - x, integer formats bitwise not
static void invert_channel(cl_channel_type t, uint8_t *p) {
  switch (t) {
    case CL_UNORM_INT8: p[0] = uint8_t(255 - p[0]); break;
    case CL_UNORM_INT16: {
      uint16_t v;
      memcpy(&v, p, 2);
      v = uint16_t(65535 - v);
      memcpy(p, &v, 2);
      break;
    }
    case CL_SNORM_INT8: {
      int8_t v;
      memcpy(&v, p, 1);
      double x = std::max(-1.0, v / 127.0);
      int8_t r = sat<int8_t>(std::nearbyint((1.0 - x) * 127), -127, 127);
      memcpy(p, &r, 1);
      break;
    }
    case CL_SNORM_INT16: {
      int16_t v;
      memcpy(&v, p, 2);
      double x = std::max(-1.0, v / 32767.0);
      int16_t r = sat<int16_t>(std::nearbyint((1.0 - x) * 32767), -32767, 32767);
      memcpy(p, &r, 2);
      break;
    }
    case CL_HALF_FLOAT: {
      uint16_t v;
      memcpy(&v, p, 2);
      v = float_to_half(1.0f - half_to_float(v));
      memcpy(p, &v, 2);
      break;
    }
    case CL_FLOAT: {
      float v;
      memcpy(&v, p, 4);
      v = 1.0f - v;
      memcpy(p, &v, 4);
      break;
    }
    default: {
      size_t n = channel_size(t);
      for (size_t i = 0; i < n; i++) p[i] = uint8_t(~p[i]);
    }
  }
}

static size_t ext_dim(cl_mem m, int i) {
  if (i == 0) return m->width;
  if (i == 1) return m->height ? m->height : 1;
  return m->depth ? m->depth : 1;
}
static uint8_t *px(cl_mem m, size_t x, size_t y, size_t z) { return m->data + x * m->elem + y * m->row_pitch + z * m->slice_pitch; }
static bool same_format(cl_mem a, cl_mem b) {
  return a->fmt.image_channel_order == b->fmt.image_channel_order && a->fmt.image_channel_data_type == b->fmt.image_channel_data_type;
}
static bool fits(cl_mem m, const size_t *off, const size_t *sz) {
  for (int i = 0; i < 3; i++)
    if (off[i] + sz[i] > ext_dim(m, i)) return false;
  return true;
}

// ---- copy_buffer(global const uchar *src, global uchar *dst) ----
static cl_int v_copy_buffer(const std::vector<cl_mem> &a, cl_uint dim, const size_t *off, const size_t *sz) {
  if (dim != 1) return CL_INVALID_WORK_DIMENSION;
  if (off[0] + sz[0] > a[0]->size || off[0] + sz[0] > a[1]->size) return CL_INVALID_GLOBAL_WORK_SIZE;
  return CL_SUCCESS;
}
static void r_copy_buffer(const std::vector<cl_mem> &a, cl_uint, const size_t *off, const size_t *sz) {
  memmove(a[1]->data + off[0], a[0]->data + off[0], sz[0]);
}

// ---- copy_image / invert_image(image src, image dst) ----
static cl_int v_image_pair(const std::vector<cl_mem> &a, cl_uint dim, const size_t *off, const size_t *sz) {
  if (dim > 3) return CL_INVALID_WORK_DIMENSION;
  if (!same_format(a[0], a[1])) return CL_IMAGE_FORMAT_MISMATCH;
  if (!fits(a[0], off, sz) || !fits(a[1], off, sz)) return CL_INVALID_GLOBAL_WORK_SIZE;
  return CL_SUCCESS;
}
static void r_copy_image(const std::vector<cl_mem> &a, cl_uint, const size_t *off, const size_t *sz) {
  size_t e = a[0]->elem;
  for (size_t z = off[2]; z < off[2] + sz[2]; z++)
    for (size_t y = off[1]; y < off[1] + sz[1]; y++) memmove(px(a[1], off[0], y, z), px(a[0], off[0], y, z), sz[0] * e);
}
static void r_invert_image(const std::vector<cl_mem> &a, cl_uint, const size_t *off, const size_t *sz) {
  cl_mem s = a[0], d = a[1];
  size_t e = s->elem, cs = channel_size(s->fmt.image_channel_data_type);
  std::vector<uint8_t> tmp(e);
  for (size_t z = off[2]; z < off[2] + sz[2]; z++)
    for (size_t y = off[1]; y < off[1] + sz[1]; y++)
      for (size_t x = off[0]; x < off[0] + sz[0]; x++) {
        memcpy(tmp.data(), px(s, x, y, z), e);
        for (size_t c = 0; c < e; c += cs) invert_channel(s->fmt.image_channel_data_type, tmp.data() + c);
        memcpy(px(d, x, y, z), tmp.data(), e);
      }
}

// ---- nv12_to_rgba(image2d y, image2d uv, image2d dst) ----
static bool is_fmt(cl_mem m, cl_channel_order o, cl_channel_type t) { return m->fmt.image_channel_order == o && m->fmt.image_channel_data_type == t; }
static cl_int v_nv12(const std::vector<cl_mem> &a, cl_uint dim, const size_t *off, const size_t *sz) {
  if (dim != 2) return CL_INVALID_WORK_DIMENSION;
  for (auto m : a)
    if (m->type != CL_MEM_OBJECT_IMAGE2D) return CL_INVALID_KERNEL_ARGS;
  if (!is_fmt(a[0], CL_R, CL_UNORM_INT8) || !is_fmt(a[1], CL_RG, CL_UNORM_INT8) || !is_fmt(a[2], CL_RGBA, CL_UNORM_INT8))
    return CL_IMAGE_FORMAT_MISMATCH;
  if (!fits(a[0], off, sz) || !fits(a[2], off, sz)) return CL_INVALID_GLOBAL_WORK_SIZE;
  if ((off[0] + sz[0] - 1) / 2 >= a[1]->width || (off[1] + sz[1] - 1) / 2 >= a[1]->height) return CL_INVALID_GLOBAL_WORK_SIZE;
  return CL_SUCCESS;
}
static uint8_t clamp8(int v) { return uint8_t(v < 0 ? 0 : (v > 255 ? 255 : v)); }
static int floor_shift8(int v) { return v >= 0 ? v >> 8 : -((-v + 255) >> 8); }
static void r_nv12(const std::vector<cl_mem> &a, cl_uint, const size_t *off, const size_t *sz) {
  for (size_t y = off[1]; y < off[1] + sz[1]; y++)
    for (size_t x = off[0]; x < off[0] + sz[0]; x++) {
      int Y = *px(a[0], x, y, 0);
      const uint8_t *uv = px(a[1], x / 2, y / 2, 0);
      int C = Y - 16, D = uv[0] - 128, E = uv[1] - 128;
      uint8_t *o = px(a[2], x, y, 0);
      o[0] = clamp8(floor_shift8(298 * C + 409 * E + 128));
      o[1] = clamp8(floor_shift8(298 * C - 100 * D - 208 * E + 128));
      o[2] = clamp8(floor_shift8(298 * C + 516 * D + 128));
      o[3] = 255;
    }
}

// ---- bgra_to_nv12(image2d src, image2d y, image2d uv): one work-item per 2x2 block ----
// BT.601 limited range, integer form: Y = ((66R + 129G + 25B + 128) >> 8) + 16,
// U = ((-38R - 74G + 112B + 128) >> 8) + 128, V = ((112R - 94G - 18B + 128) >> 8) + 128;
// the block's chroma is the rounded mean of its four pixels' U and V.
static cl_int v_bgra_nv12(const std::vector<cl_mem> &a, cl_uint dim, const size_t *off, const size_t *sz) {
  if (dim != 2) return CL_INVALID_WORK_DIMENSION;
  for (auto m : a)
    if (m->type != CL_MEM_OBJECT_IMAGE2D) return CL_INVALID_KERNEL_ARGS;
  if (!(is_fmt(a[0], CL_BGRA, CL_UNORM_INT8) || is_fmt(a[0], CL_RGBA, CL_UNORM_INT8)) || !is_fmt(a[1], CL_R, CL_UNORM_INT8) ||
      !is_fmt(a[2], CL_RG, CL_UNORM_INT8))
    return CL_IMAGE_FORMAT_MISMATCH;
  size_t w = (off[0] + sz[0]) * 2, h = (off[1] + sz[1]) * 2;
  if (w > a[0]->width || h > a[0]->height || w > a[1]->width || h > a[1]->height || off[0] + sz[0] > a[2]->width || off[1] + sz[1] > a[2]->height)
    return CL_INVALID_GLOBAL_WORK_SIZE;
  return CL_SUCCESS;
}
static void r_bgra_nv12(const std::vector<cl_mem> &a, cl_uint, const size_t *off, const size_t *sz) {
  bool bgra = a[0]->fmt.image_channel_order == CL_BGRA;
  for (size_t by = off[1]; by < off[1] + sz[1]; by++)
    for (size_t bx = off[0]; bx < off[0] + sz[0]; bx++) {
      int su = 0, sv = 0;
      for (size_t dy = 0; dy < 2; dy++)
        for (size_t dx = 0; dx < 2; dx++) {
          const uint8_t *p = px(a[0], bx * 2 + dx, by * 2 + dy, 0);
          int r = bgra ? p[2] : p[0], g = p[1], b = bgra ? p[0] : p[2];
          *px(a[1], bx * 2 + dx, by * 2 + dy, 0) = clamp8(floor_shift8(66 * r + 129 * g + 25 * b + 128) + 16);
          su += floor_shift8(-38 * r - 74 * g + 112 * b + 128) + 128;
          sv += floor_shift8(112 * r - 94 * g - 18 * b + 128) + 128;
        }
      uint8_t *uv = px(a[2], bx, by, 0);
      uv[0] = clamp8((su + 2) >> 2);
      uv[1] = clamp8((sv + 2) >> 2);
    }
}

const std::vector<BuiltinKernel> &builtin_kernels() {
  static const auto *k = new std::vector<BuiltinKernel>{
      {"copy_buffer",
       {{ArgKind::Buffer, "uchar*", "src", CL_KERNEL_ARG_ACCESS_NONE, CL_KERNEL_ARG_TYPE_CONST},
        {ArgKind::Buffer, "uchar*", "dst", CL_KERNEL_ARG_ACCESS_NONE, CL_KERNEL_ARG_TYPE_NONE}},
       v_copy_buffer,
       r_copy_buffer},
      {"copy_image",
       {{ArgKind::Image, "image2d_t", "src", CL_KERNEL_ARG_ACCESS_READ_ONLY, CL_KERNEL_ARG_TYPE_NONE},
        {ArgKind::Image, "image2d_t", "dst", CL_KERNEL_ARG_ACCESS_WRITE_ONLY, CL_KERNEL_ARG_TYPE_NONE}},
       v_image_pair,
       r_copy_image},
      {"invert_image",
       {{ArgKind::Image, "image2d_t", "src", CL_KERNEL_ARG_ACCESS_READ_ONLY, CL_KERNEL_ARG_TYPE_NONE},
        {ArgKind::Image, "image2d_t", "dst", CL_KERNEL_ARG_ACCESS_WRITE_ONLY, CL_KERNEL_ARG_TYPE_NONE}},
       v_image_pair,
       r_invert_image},
      {"nv12_to_rgba",
       {{ArgKind::Image, "image2d_t", "y", CL_KERNEL_ARG_ACCESS_READ_ONLY, CL_KERNEL_ARG_TYPE_NONE},
        {ArgKind::Image, "image2d_t", "uv", CL_KERNEL_ARG_ACCESS_READ_ONLY, CL_KERNEL_ARG_TYPE_NONE},
        {ArgKind::Image, "image2d_t", "dst", CL_KERNEL_ARG_ACCESS_WRITE_ONLY, CL_KERNEL_ARG_TYPE_NONE}},
       v_nv12,
       r_nv12},
      {"bgra_to_nv12",
       {{ArgKind::Image, "image2d_t", "src", CL_KERNEL_ARG_ACCESS_READ_ONLY, CL_KERNEL_ARG_TYPE_NONE},
        {ArgKind::Image, "image2d_t", "y", CL_KERNEL_ARG_ACCESS_WRITE_ONLY, CL_KERNEL_ARG_TYPE_NONE},
        {ArgKind::Image, "image2d_t", "uv", CL_KERNEL_ARG_ACCESS_WRITE_ONLY, CL_KERNEL_ARG_TYPE_NONE}},
       v_bgra_nv12,
       r_bgra_nv12},
  };
  return *k;
}

const BuiltinKernel *find_builtin(const std::string &name) {
  for (auto &k : builtin_kernels())
    if (name == k.name) return &k;
  return nullptr;
}

}  // namespace refdrv
