/*
 * MD5 (RFC 1321) of each decoded frame for bench/nvdec_decode.c's --md5, and
 * the comparison with an FFmpeg framemd5 file (`ffmpeg -i FILE -pix_fmt nv12
 * -f framemd5 OUT`: '#' lines, then one line per frame whose last
 * comma-separated field is the frame's MD5 in hex). Header-only.
 */
#ifndef OPENCL_INTEROP_BENCH_NVDEC_MD5_H
#define OPENCL_INTEROP_BENCH_NVDEC_MD5_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint32_t md5_sines[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501, 0x698098d8, 0x8b44f7af, 0xffff5bb1,
    0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821, 0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453,
    0xd8a1e681, 0xe7d3fbc8, 0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a, 0xfffa3942,
    0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70, 0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05,
    0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665, 0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d,
    0x85845dd1, 0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};
static const unsigned char md5_shifts[4][4] = {{7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};

static void md5_block(uint32_t state[4], const unsigned char block[64]) {
  uint32_t word[16];
  for (int i = 0; i < 16; i++)
    word[i] = (uint32_t)block[4 * i] | (uint32_t)block[4 * i + 1] << 8 | (uint32_t)block[4 * i + 2] << 16 | (uint32_t)block[4 * i + 3] << 24;
  uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
  for (int i = 0; i < 64; i++) {
    int round = i / 16;
    uint32_t mix;
    int g;
    if (round == 0) mix = (b & c) | (~b & d), g = i;
    else if (round == 1) mix = (d & b) | (~d & c), g = (5 * i + 1) % 16;
    else if (round == 2) mix = b ^ c ^ d, g = (3 * i + 5) % 16;
    else mix = c ^ (b | ~d), g = (7 * i) % 16;
    uint32_t sum = a + mix + md5_sines[i] + word[g];
    int shift = md5_shifts[round][i % 4];
    a = d, d = c, c = b;
    b += (sum << shift) | (sum >> (32 - shift));
  }
  state[0] += a, state[1] += b, state[2] += c, state[3] += d;
}

/* Writes the MD5 of data[0..size) as 32 lowercase hex digits and a NUL. */
static void md5_hex(const unsigned char* data, size_t size, char hex[33]) {
  uint32_t state[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
  size_t whole = size / 64 * 64;
  for (size_t at = 0; at < whole; at += 64) md5_block(state, data + at);
  unsigned char tail[128] = {0};
  size_t rest = size - whole, tail_size = rest < 56 ? 64 : 128;
  memcpy(tail, data + whole, rest);
  tail[rest] = 0x80;
  uint64_t bits = (uint64_t)size * 8;
  for (int i = 0; i < 8; i++) tail[tail_size - 8 + (size_t)i] = (unsigned char)(bits >> (8 * i));
  for (size_t at = 0; at < tail_size; at += 64) md5_block(state, tail + at);
  for (int i = 0; i < 16; i++) sprintf(hex + 2 * i, "%02x", (unsigned)(state[i / 4] >> (8 * (i % 4))) & 0xff);
}

typedef struct {
  char (*hex)[33];
  unsigned count, capacity;
} Md5List;

static void md5_list_add(Md5List* list, const unsigned char* data, size_t size) {
  if (list->count == list->capacity) {
    list->capacity = list->capacity ? list->capacity * 2 : 256;
    list->hex = realloc(list->hex, sizeof *list->hex * list->capacity);
    if (!list->hex) {
      fprintf(stderr, "out of host memory\n");
      exit(1);
    }
  }
  md5_hex(data, size, list->hex[list->count++]);
}

static void md5_list_free(Md5List* list) {
  free(list->hex);
  list->hex = NULL;
  list->count = list->capacity = 0;
}

typedef struct {
  int reference_frames, mismatches, first_mismatch; /* -1: no reference file / no mismatch */
} Md5Compare;

/* Frames missing on either side count as mismatches. */
static Md5Compare md5_compare(const Md5List* list, const char* framemd5_path) {
  Md5Compare result = {-1, 0, -1};
  if (!framemd5_path) return result;
  FILE* f = fopen(framemd5_path, "r");
  if (!f) {
    fprintf(stderr, "cannot open %s\n", framemd5_path);
    exit(1);
  }
  char line[1024];
  result.reference_frames = 0;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#') continue;
    char* field = strrchr(line, ',');
    if (!field) continue;
    field++;
    while (*field == ' ') field++;
    field[strcspn(field, " \r\n")] = '\0';
    int frame = result.reference_frames++;
    if ((unsigned)frame >= list->count || strcmp(field, list->hex[frame]) != 0) {
      result.mismatches++;
      if (result.first_mismatch < 0) result.first_mismatch = frame;
    }
  }
  fclose(f);
  if (list->count > (unsigned)result.reference_frames) {
    if (result.first_mismatch < 0) result.first_mismatch = result.reference_frames;
    result.mismatches += (int)list->count - result.reference_frames;
  }
  return result;
}

#endif
