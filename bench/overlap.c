/*
 * Copy and compute overlap on one device (bench/overlap.mjs runs it next to
 * the same schedule through the package; see bench/README.md, "Copy and
 * compute overlap").
 *
 * A frame: an NV12 frame uploaded from page-aligned host memory, a kernel
 * that converts it to RGBA, the RGBA frame read back into host memory.
 * Frame i uses slot i % slots (device NV12 + RGBA buffers, host NV12 + RGBA
 * memory); before a slot is used again the host waits for its last readback.
 *   one queue:    upload, kernel, readback in order on one in-order queue.
 *   three queues: upload queue, compute queue, readback queue; the kernel of
 *                 frame i waits for upload i, readback i for kernel i, and
 *                 upload i waits for the readback of the slot's previous
 *                 frame; upload i+1 and readback i-1 may run during kernel i.
 * A device without a compiler that has the built-in kernel copy_buffer (the
 * reference driver) runs it in place of nv12_to_rgba: the NV12 bytes copied
 * into the RGBA buffer, checked as bytes. Prints JSON on stdout.
 *
 *   overlap_c [--platform NAME] [--width W] [--height H] [--frames N] [--slots S]
 *             [--repeats R] [--kernel-iterations K] [--check-frames C]
 */
#define BENCH_PROGRAM "overlap_c"
#include "bench_common.h"

/* Keep identical to KERNEL_SOURCE in bench/overlap.mjs. `zero` is 0: it
   chains the repeated conversions (--kernel-iterations) so that none of
   them can be left out by the compiler. */
static const char* kSource =
    "uint rgba_pixel(int luma, int d, int e) {\n"
    "  int c = 298 * (luma - 16) + 128;\n"
    "  int r = clamp((c + 409 * e) >> 8, 0, 255);\n"
    "  int g = clamp((c - 100 * d - 208 * e) >> 8, 0, 255);\n"
    "  int b = clamp((c + 516 * d) >> 8, 0, 255);\n"
    "  return (uint)r | ((uint)g << 8) | ((uint)b << 16) | 0xff000000u;\n"
    "}\n"
    "__kernel void nv12_to_rgba(__global const uchar4* nv12, __global uint4* rgba, uint uv_base, uint pitch4,\n"
    "                           uint iterations, uint zero) {\n"
    "  uint x = get_global_id(0), row = get_global_id(1);\n"
    "  uchar4 l = nv12[row * pitch4 + x];\n"
    "  uchar4 c = nv12[uv_base + (row >> 1) * pitch4 + x];\n"
    "  int d0 = (int)c.s0 - 128, e0 = (int)c.s1 - 128, d1 = (int)c.s2 - 128, e1 = (int)c.s3 - 128;\n"
    "  uint4 p = (uint4)(rgba_pixel(l.s0, d0, e0), rgba_pixel(l.s1, d0, e0),\n"
    "                    rgba_pixel(l.s2, d1, e1), rgba_pixel(l.s3, d1, e1));\n"
    "  for (uint k = 1; k < iterations; k++) {\n"
    "    uint4 z = p & zero;\n"
    "    p = (uint4)(rgba_pixel(l.s0 + (int)z.s0, d0, e0), rgba_pixel(l.s1 + (int)z.s1, d0, e0),\n"
    "                rgba_pixel(l.s2 + (int)z.s2, d1, e1), rgba_pixel(l.s3 + (int)z.s3, d1, e1));\n"
    "  }\n"
    "  rgba[row * pitch4 + x] = p;\n"
    "}\n";

/* The input of frame value v (bench/overlap.mjs makes the same). */
static unsigned char luma_at(unsigned x, unsigned y, unsigned v) { return (unsigned char)(x * 7 + y * 13 + v * 29); }
static unsigned char chroma_at(unsigned col, unsigned row, unsigned v) { return (unsigned char)(col * 5 + row * 9 + v * 31 + 100); }

static int clamp8(int v) { return v < 0 ? 0 : v > 255 ? 255 : v; }
static uint32_t rgba_pixel(int luma, int d, int e) {
  int c = 298 * (luma - 16) + 128;
  return (uint32_t)clamp8((c + 409 * e) >> 8) | ((uint32_t)clamp8((c - 100 * d - 208 * e) >> 8) << 8) | ((uint32_t)clamp8((c + 516 * d) >> 8) << 16) |
         0xff000000u;
}

typedef struct {
  cl_mem d_in, d_out;
  unsigned char* h_in;
  uint32_t* h_out;
  cl_event read; /* the slot's last readback, NULL when none is in flight */
  int frame;     /* the frame of that readback */
} Slot;

typedef struct {
  cl_context context;
  cl_command_queue one, up, compute, down;
  cl_kernel kernel;
  unsigned width, height;
  size_t nv12_size, rgba_size;
  size_t global[2], local[2];
  int has_local;
  cl_uint dims; /* 2: nv12_to_rgba; 1: the built-in copy_buffer (NV12 bytes in, the same bytes out) */
  Slot* slots;
  int nslots;
  /* check runs: the value each frame's input is made from, and the counts */
  int checking;
  long check_frames, check_bad_frames, check_bad_pixels, check_pixels;
} Bench;

static void fill_input(const Bench* b, unsigned char* in, unsigned v) {
  for (unsigned y = 0; y < b->height; y++)
    for (unsigned x = 0; x < b->width; x++) in[(size_t)y * b->width + x] = luma_at(x, y, v);
  unsigned char* uv = in + (size_t)b->width * b->height;
  for (unsigned r = 0; r < b->height / 2; r++)
    for (unsigned c = 0; c < b->width; c++) uv[(size_t)r * b->width + c] = chroma_at(c, r, v);
}

static void verify(Bench* b, const uint32_t* out, unsigned v) {
  long bad = 0;
  if (b->dims == 1) {
    unsigned char* want = malloc(b->nv12_size);
    fill_input(b, want, v);
    for (size_t k = 0; k < b->nv12_size; k++) bad += ((const unsigned char*)out)[k] != want[k];
    free(want);
    b->check_frames++;
    b->check_pixels += (long)b->nv12_size;
    b->check_bad_pixels += bad;
    if (bad) b->check_bad_frames++;
    return;
  }
  for (unsigned y = 0; y < b->height; y++) {
    for (unsigned x = 0; x < b->width; x++) {
      unsigned cx = x & ~1u;
      int d = (int)chroma_at(cx, y / 2, v) - 128, e = (int)chroma_at(cx + 1, y / 2, v) - 128;
      if (out[(size_t)y * b->width + x] != rgba_pixel(luma_at(x, y, v), d, e)) bad++;
    }
  }
  b->check_frames++;
  b->check_pixels += (long)b->width * b->height;
  b->check_bad_pixels += bad;
  if (bad) b->check_bad_frames++;
}

/* The host's side of a slot's last frame: wait for its readback (and check it). */
static void finish_slot(Bench* b, Slot* s) {
  if (!s->read) return;
  CHECK(clWaitForEvents(1, &s->read));
  CHECK(clReleaseEvent(s->read));
  s->read = NULL;
  if (b->checking) verify(b, s->h_out, (unsigned)s->frame);
}

/* Runs `frames` frames on one queue (three == 0) or three; returns seconds. */
static double run_frames(Bench* b, int three, int frames) {
  uint64_t t0 = now_ns();
  for (int i = 0; i < frames; i++) {
    Slot* s = &b->slots[i % b->nslots];
    cl_event reuse = s->read;
    if (reuse) {
      CHECK(clRetainEvent(reuse));
      finish_slot(b, s);
    }
    if (b->checking) {
      fill_input(b, s->h_in, (unsigned)i);
      memset(s->h_out, 0, b->rgba_size);
    }
    CHECK(clSetKernelArg(b->kernel, 0, sizeof(cl_mem), &s->d_in));
    CHECK(clSetKernelArg(b->kernel, 1, sizeof(cl_mem), &s->d_out));
    const size_t* local = b->has_local ? b->local : NULL;
    if (!three) {
      CHECK(clEnqueueWriteBuffer(b->one, s->d_in, CL_FALSE, 0, b->nv12_size, s->h_in, 0, NULL, NULL));
      CHECK(clEnqueueNDRangeKernel(b->one, b->kernel, b->dims, NULL, b->global, local, 0, NULL, NULL));
      CHECK(clEnqueueReadBuffer(b->one, s->d_out, CL_FALSE, 0, b->rgba_size, s->h_out, 0, NULL, &s->read));
      CHECK(clFlush(b->one));
    } else {
      cl_event w, k;
      CHECK(clEnqueueWriteBuffer(b->up, s->d_in, CL_FALSE, 0, b->nv12_size, s->h_in, reuse ? 1 : 0, reuse ? &reuse : NULL, &w));
      CHECK(clEnqueueNDRangeKernel(b->compute, b->kernel, b->dims, NULL, b->global, local, 1, &w, &k));
      CHECK(clEnqueueReadBuffer(b->down, s->d_out, CL_FALSE, 0, b->rgba_size, s->h_out, 1, &k, &s->read));
      CHECK(clFlush(b->up));
      CHECK(clFlush(b->compute));
      CHECK(clFlush(b->down));
      CHECK(clReleaseEvent(w));
      CHECK(clReleaseEvent(k));
    }
    s->frame = i;
    if (reuse) CHECK(clReleaseEvent(reuse));
  }
  for (int i = frames; i < frames + b->nslots; i++) finish_slot(b, &b->slots[i % b->nslots]);
  return (double)(now_ns() - t0) / 1e9;
}

/* One stage alone, `count` times back to back on the one queue: ms each. */
static double stage_ms(Bench* b, int stage, int count) {
  const size_t* local = b->has_local ? b->local : NULL;
  uint64_t t0 = now_ns();
  for (int i = 0; i < count; i++) {
    Slot* s = &b->slots[i % b->nslots];
    if (stage == 0) CHECK(clEnqueueWriteBuffer(b->one, s->d_in, CL_FALSE, 0, b->nv12_size, s->h_in, 0, NULL, NULL));
    if (stage == 1) {
      CHECK(clSetKernelArg(b->kernel, 0, sizeof(cl_mem), &s->d_in));
      CHECK(clSetKernelArg(b->kernel, 1, sizeof(cl_mem), &s->d_out));
      CHECK(clEnqueueNDRangeKernel(b->one, b->kernel, b->dims, NULL, b->global, local, 0, NULL, NULL));
    }
    if (stage == 2) CHECK(clEnqueueReadBuffer(b->one, s->d_out, CL_FALSE, 0, b->rgba_size, s->h_out, 0, NULL, NULL));
  }
  CHECK(clFinish(b->one));
  return (double)(now_ns() - t0) / 1e6 / count;
}

static long parse_positive(const char* flag, const char* value, long min) {
  char* end = NULL;
  long v = value ? strtol(value, &end, 10) : 0;
  if (!value || *end || v < min) {
    fprintf(stderr, BENCH_PROGRAM ": %s expects an integer >= %ld; got %s\n", flag, min, value ? value : "nothing");
    exit(1);
  }
  return v;
}

static void print_fps(const char* key, const double* fps, int count) {
  printf("  \"%s\": {\"fps\": %.3f, \"fps_runs\": [", key, median_of(fps, count));
  for (int r = 0; r < count; r++) printf("%s%.3f", r ? ", " : "", fps[r]);
  printf("]},\n");
}

int main(int argc, char** argv) {
  const char* want = NULL;
  long width = 3840, height = 2160, frames = 600, nslots = 3, repeats = 5, iterations = 1, check_frames = 8;
  for (int a = 1; a < argc; a++) {
    const char* v = a + 1 < argc ? argv[a + 1] : NULL;
    if (!strcmp(argv[a], "--platform") && v) want = v, a++;
    else if (!strcmp(argv[a], "--width")) width = parse_positive("--width", v, 4), a++;
    else if (!strcmp(argv[a], "--height")) height = parse_positive("--height", v, 2), a++;
    else if (!strcmp(argv[a], "--frames")) frames = parse_positive("--frames", v, 1), a++;
    else if (!strcmp(argv[a], "--slots")) nslots = parse_positive("--slots", v, 1), a++;
    else if (!strcmp(argv[a], "--repeats")) repeats = parse_positive("--repeats", v, 1), a++;
    else if (!strcmp(argv[a], "--kernel-iterations")) iterations = parse_positive("--kernel-iterations", v, 1), a++;
    else if (!strcmp(argv[a], "--check-frames")) check_frames = parse_positive("--check-frames", v, 0), a++;
    else {
      fprintf(stderr, "usage: " BENCH_PROGRAM
                      " [--platform NAME] [--width W] [--height H] [--frames N] [--slots S]\n"
                      "                 [--repeats R] [--kernel-iterations K] [--check-frames C]\n");
      return 1;
    }
  }
  if (width % 4 || height % 2 || width > 65536 || height > 65536) {
    fprintf(stderr, BENCH_PROGRAM ": --width must be a multiple of 4 and --height even (at most 65536); got %ldx%ld\n", width, height);
    return 1;
  }
  if (repeats > kMaxRepeats || nslots > 256) {
    fprintf(stderr, BENCH_PROGRAM ": --repeats at most %d, --slots at most 256\n", kMaxRepeats);
    return 1;
  }

  char* platform_name = NULL;
  cl_platform_id platform = find_platform(want, &platform_name);
  cl_device_id device;
  cl_uint n = 0;
  if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, &n) != CL_SUCCESS || n == 0)
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
  char* device_name = device_string(device, CL_DEVICE_NAME);
  cl_bool compiler = CL_FALSE;
  CHECK(clGetDeviceInfo(device, CL_DEVICE_COMPILER_AVAILABLE, sizeof compiler, &compiler, NULL));
  printf("{\n  \"program\": \"overlap_c\",\n  \"platform\": ");
  json_string(platform_name);
  printf(",\n  \"device\": ");
  json_string(device_name);
  char* builtins = device_string(device, CL_DEVICE_BUILT_IN_KERNELS);
  int copy_builtin = !compiler && strstr(builtins, "copy_buffer") != NULL;
  free(builtins);
  if (!compiler && !copy_builtin) {
    printf(
        ",\n  \"skipped\": \"the device has no OpenCL C compiler (CL_DEVICE_COMPILER_AVAILABLE is CL_FALSE) and no built-in copy_buffer "
        "kernel\"\n}\n");
    return 0;
  }

  Bench b = {0};
  cl_int err;
  b.context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue* queues[] = {&b.one, &b.up, &b.compute, &b.down};
  for (int q = 0; q < 4; q++) {
    *queues[q] = clCreateCommandQueueWithProperties(b.context, device, NULL, &err);
    CHECK(err);
  }
  cl_program program = copy_builtin ? clCreateProgramWithBuiltInKernels(b.context, 1, &device, "copy_buffer", &err)
                                    : clCreateProgramWithSource(b.context, 1, &kSource, NULL, &err);
  CHECK(err);
  if (!copy_builtin && clBuildProgram(program, 1, &device, "", NULL, NULL) != CL_SUCCESS) {
    size_t size = 0;
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size);
    char* log = calloc(size + 1, 1);
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log, NULL);
    fprintf(stderr, BENCH_PROGRAM ": clBuildProgram failed:\n%s\n", log);
    return 1;
  }
  b.kernel = clCreateKernel(program, copy_builtin ? "copy_buffer" : "nv12_to_rgba", &err);
  CHECK(err);

  b.width = (unsigned)width;
  b.height = (unsigned)height;
  b.nv12_size = (size_t)width * height * 3 / 2;
  b.rgba_size = (size_t)width * height * 4;
  b.global[0] = (size_t)width / 4;
  b.global[1] = (size_t)height;
  b.has_local = b.global[0] % 64 == 0 && height % 4 == 0;
  b.local[0] = 64;
  b.local[1] = 4;
  b.dims = 2;
  if (copy_builtin) {
    b.dims = 1;
    b.global[0] = b.nv12_size;
    b.has_local = 0;
  } else {
    cl_uint uv_base = (cl_uint)(width * height / 4), pitch4 = (cl_uint)(width / 4), iters = (cl_uint)iterations, zero = 0;
    CHECK(clSetKernelArg(b.kernel, 2, sizeof uv_base, &uv_base));
    CHECK(clSetKernelArg(b.kernel, 3, sizeof pitch4, &pitch4));
    CHECK(clSetKernelArg(b.kernel, 4, sizeof iters, &iters));
    CHECK(clSetKernelArg(b.kernel, 5, sizeof zero, &zero));
  }

  b.nslots = (int)nslots;
  b.slots = calloc((size_t)nslots, sizeof *b.slots);
  for (int i = 0; i < b.nslots; i++) {
    Slot* s = &b.slots[i];
    s->d_in = clCreateBuffer(b.context, CL_MEM_READ_ONLY, b.nv12_size, NULL, &err);
    CHECK(err);
    s->d_out = clCreateBuffer(b.context, CL_MEM_WRITE_ONLY, b.rgba_size, NULL, &err);
    CHECK(err);
    void *in = NULL, *out = NULL;
    if (posix_memalign(&in, 4096, b.nv12_size) || posix_memalign(&out, 4096, b.rgba_size)) die("posix_memalign", -1);
    s->h_in = in;
    s->h_out = out;
    fill_input(&b, s->h_in, (unsigned)i);
    memset(s->h_out, 0, b.rgba_size);
  }

  /* correctness: per-frame inputs, every readback compared with the CPU's */
  long checks[2][4];
  for (int three = 0; three < 2; three++) {
    b.checking = 1;
    b.check_frames = b.check_bad_frames = b.check_bad_pixels = b.check_pixels = 0;
    if (check_frames > 0) run_frames(&b, three, (int)check_frames);
    b.checking = 0;
    checks[three][0] = b.check_frames;
    checks[three][1] = b.check_bad_frames;
    checks[three][2] = b.check_bad_pixels;
    checks[three][3] = b.check_pixels;
    fprintf(stderr, BENCH_PROGRAM ": check, %s: %ld frames, %ld mismatched pixels of %ld\n", three ? "three queues" : "one queue", b.check_frames,
            b.check_bad_pixels, b.check_pixels);
  }
  for (int i = 0; i < b.nslots; i++) fill_input(&b, b.slots[i].h_in, (unsigned)i);

  int stage_count = (int)(frames / 4 > b.nslots ? frames / 4 : b.nslots);
  double stages[3];
  for (int st = 0; st < 3; st++) {
    stage_ms(&b, st, b.nslots);
    stages[st] = stage_ms(&b, st, stage_count);
  }

  int warmup = (int)(frames / 10 > 2 * nslots ? frames / 10 : 2 * nslots);
  run_frames(&b, 0, warmup);
  run_frames(&b, 1, warmup);
  double fps[2][kMaxRepeats];
  for (int r = 0; r < repeats; r++)
    for (int three = 0; three < 2; three++) fps[three][r] = (double)frames / run_frames(&b, three, (int)frames);

  printf(",\n  \"kernel\": \"%s\"", copy_builtin ? "copy_buffer (built-in)" : "nv12_to_rgba");
  printf(",\n  \"width\": %ld, \"height\": %ld, \"frames\": %ld, \"slots\": %ld, \"repeats\": %ld, \"kernel_iterations\": %ld,\n", width, height,
         frames, nslots, repeats, iterations);
  printf("  \"stages_ms\": {\"upload\": %.4f, \"kernel\": %.4f, \"readback\": %.4f},\n", stages[0], stages[1], stages[2]);
  print_fps("one_queue", fps[0], (int)repeats);
  print_fps("three_queues", fps[1], (int)repeats);
  printf("  \"check\": {");
  for (int three = 0; three < 2; three++)
    printf("%s\"%s\": {\"frames\": %ld, \"mismatched_frames\": %ld, \"mismatched_pixels\": %ld, \"pixels\": %ld}", three ? ", " : "",
           three ? "three_queues" : "one_queue", checks[three][0], checks[three][1], checks[three][2], checks[three][3]);
  printf("}\n}\n");

  for (int i = 0; i < b.nslots; i++) {
    CHECK(clReleaseMemObject(b.slots[i].d_in));
    CHECK(clReleaseMemObject(b.slots[i].d_out));
    free(b.slots[i].h_in);
    free(b.slots[i].h_out);
  }
  free(b.slots);
  CHECK(clReleaseKernel(b.kernel));
  CHECK(clReleaseProgram(program));
  for (int q = 0; q < 4; q++) CHECK(clReleaseCommandQueue(*queues[q]));
  CHECK(clReleaseContext(b.context));
  free(platform_name);
  free(device_name);
  return 0;
}
