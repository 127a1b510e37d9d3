/*
 * opencl_bench_c: per-call cost of a few OpenCL call sequences, made
 * straight from C. bench/run.mjs runs the same sequences through the Node
 * package on the same platform and prints both side by side.
 *
 *   opencl_bench_c [--platform NAME] [--iterations N] [--big-iterations N]
 *                  [--repeats R] [--only SEQUENCE]
 *
 * --platform (or env BENCH_PLATFORM): a substring of the platform name;
 * default: the first platform. The first device of that platform is used.
 * Prints one JSON object on stdout; errors go to stderr (exit status 1).
 *
 * Sequences (each run `repeats` times after a warm-up; the median is reported):
 *   setarg_enqueue_ns       clSetKernelArg x2 + clEnqueueNDRangeKernel(event)
 *                           + clReleaseEvent, N times, then clFinish
 *   enqueue_wait_ns         clEnqueueNDRangeKernel(event) + clWaitForEvents
 *                           + clReleaseEvent, N times
 *   event_callback_ns       clEnqueueNDRangeKernel(event) + clSetEventCallback
 *                           (CL_COMPLETE) + clFlush + wait on a condition
 *                           variable for the callback + clReleaseEvent, N times
 *   write_4k_blocking_ns    clEnqueueWriteBuffer(blocking, 4096 bytes, event)
 *                           + clReleaseEvent, N times
 *   await_callback_epoll_ns an await as an event loop does it (Linux): enqueue
 *                           (event) + clSetEventCallback(CL_COMPLETE) writing
 *                           an eventfd + clFlush, the main thread asleep in
 *                           epoll_wait on that eventfd + clReleaseEvent
 *   await_waiter_epoll_ns   the same, completion delivered by a waiter thread
 *                           blocked in clWaitForEvents that writes the eventfd
 *
 * 64 MiB transfers (--big-iterations N each, default 20; warm-up max(2, N/10)):
 *   write_64m_ns            clEnqueueWriteBuffer(non-blocking, 64 MiB from
 *                           posix_memalign'd page-aligned memory, event)
 *                           + clWaitForEvents + clReleaseEvent
 *   read_64m_ns             the same with clEnqueueReadBuffer
 *   write_64m_blocking_ns   clEnqueueWriteBuffer(blocking, 64 MiB from malloc'd
 *                           memory, event) + clReleaseEvent
 *   read_64m_blocking_ns    the same with clEnqueueReadBuffer
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, posix_memalign */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS

#define BENCH_PROGRAM "opencl_bench_c"
#define BENCH_WAITER
#include <pthread.h>

#include "bench_common.h"

/* Keep identical to KERNEL_SOURCE in bench/run.mjs (run.mjs checks it). */
static const char kKernelSource[] =
    "__kernel void tiny(__global float* data, float a) {\n"
    "  size_t i = get_global_id(0);\n"
    "  data[i] = data[i] * 0.5f + a;\n"
    "}\n";

enum { kGlobalSize = 64, kWriteBytes = 4096 };
#define BIG_BYTES ((size_t)64 << 20)

typedef struct {
  cl_context context;
  cl_command_queue queue;
  cl_kernel kernel;
  cl_mem buffer;
  cl_mem write_target;
  float host[kWriteBytes / sizeof(float)];
  cl_mem big_target;
  void* big_aligned; /* posix_memalign'd, as the binding's HostMemory */
  void* big_plain;   /* malloc'd, as a JavaScript Uint8Array's store */
} Bench;

/* ---- the sequences; each runs n iterations ---- */

static void seq_setarg_enqueue(Bench* b, long n) {
  const size_t global = kGlobalSize;
  for (long i = 0; i < n; i++) {
    float a = 1.5f;
    cl_event ev;
    CHECK(clSetKernelArg(b->kernel, 0, sizeof(cl_mem), &b->buffer));
    CHECK(clSetKernelArg(b->kernel, 1, sizeof(float), &a));
    CHECK(clEnqueueNDRangeKernel(b->queue, b->kernel, 1, NULL, &global, NULL, 0, NULL, &ev));
    CHECK(clReleaseEvent(ev));
  }
  CHECK(clFinish(b->queue));
}

static void seq_enqueue_wait(Bench* b, long n) {
  const size_t global = kGlobalSize;
  for (long i = 0; i < n; i++) {
    cl_event ev;
    CHECK(clEnqueueNDRangeKernel(b->queue, b->kernel, 1, NULL, &global, NULL, 0, NULL, &ev));
    CHECK(clWaitForEvents(1, &ev));
    CHECK(clReleaseEvent(ev));
  }
}

typedef struct {
  pthread_mutex_t mutex;
  pthread_cond_t cond;
  int done;
  cl_int status;
} Signal;

static void CL_CALLBACK on_complete(cl_event ev, cl_int status, void* user) {
  (void)ev;
  Signal* s = (Signal*)user;
  pthread_mutex_lock(&s->mutex);
  s->done = 1;
  s->status = status;
  pthread_cond_signal(&s->cond);
  pthread_mutex_unlock(&s->mutex);
}

static void seq_event_callback(Bench* b, long n) {
  const size_t global = kGlobalSize;
  Signal s;
  pthread_mutex_init(&s.mutex, NULL);
  pthread_cond_init(&s.cond, NULL);
  for (long i = 0; i < n; i++) {
    cl_event ev;
    s.done = 0;
    CHECK(clEnqueueNDRangeKernel(b->queue, b->kernel, 1, NULL, &global, NULL, 0, NULL, &ev));
    CHECK(clSetEventCallback(ev, CL_COMPLETE, on_complete, &s));
    CHECK(clFlush(b->queue));
    pthread_mutex_lock(&s.mutex);
    while (!s.done) pthread_cond_wait(&s.cond, &s.mutex);
    pthread_mutex_unlock(&s.mutex);
    if (s.status < 0) die("kernel (event callback status)", s.status);
    CHECK(clReleaseEvent(ev));
  }
  pthread_cond_destroy(&s.cond);
  pthread_mutex_destroy(&s.mutex);
}

#ifdef __linux__
/* The two ways an event loop (libuv: epoll + an eventfd per async handle) can
   learn that a command completed; the main thread sleeps in epoll_wait. */
static void seq_await_callback_epoll(Bench* b, long n) {
  const size_t global = kGlobalSize;
  Loop loop;
  loop_open(&loop);
  for (long i = 0; i < n; i++) {
    cl_event ev;
    CHECK(clEnqueueNDRangeKernel(b->queue, b->kernel, 1, NULL, &global, NULL, 0, NULL, &ev));
    CHECK(clSetEventCallback(ev, CL_COMPLETE, on_complete_wake, &loop));
    CHECK(clFlush(b->queue));
    loop_sleep(&loop);
    if (loop.status < 0) die("kernel (callback status)", loop.status);
    CHECK(clReleaseEvent(ev));
  }
  loop_close(&loop);
}

static void seq_await_waiter_epoll(Bench* b, long n) {
  const size_t global = kGlobalSize;
  Waiter w;
  waiter_start(&w, 0);
  for (long i = 0; i < n; i++) {
    cl_event ev;
    CHECK(clEnqueueNDRangeKernel(b->queue, b->kernel, 1, NULL, &global, NULL, 0, NULL, &ev));
    CHECK(clFlush(b->queue));
    cl_int status = waiter_await(&w, ev);
    if (status != CL_SUCCESS) die("clWaitForEvents (waiter thread)", status);
    CHECK(clReleaseEvent(ev));
  }
  waiter_stop(&w);
}
#endif

static void seq_write_4k(Bench* b, long n) {
  for (long i = 0; i < n; i++) {
    cl_event ev;
    CHECK(clEnqueueWriteBuffer(b->queue, b->write_target, CL_TRUE, 0, kWriteBytes, b->host, 0, NULL, &ev));
    CHECK(clReleaseEvent(ev));
  }
}

static void transfer_64m(Bench* b, long n, int read, cl_bool blocking, void* host) {
  for (long i = 0; i < n; i++) {
    cl_event ev;
    if (read) CHECK(clEnqueueReadBuffer(b->queue, b->big_target, blocking, 0, BIG_BYTES, host, 0, NULL, &ev));
    else CHECK(clEnqueueWriteBuffer(b->queue, b->big_target, blocking, 0, BIG_BYTES, host, 0, NULL, &ev));
    if (!blocking) CHECK(clWaitForEvents(1, &ev));
    CHECK(clReleaseEvent(ev));
  }
}

/* Made before the first 64 MiB sequence only (--only runs need not pay for it). */
static void setup_big(Bench* b) {
  cl_int err;
  b->big_target = clCreateBuffer(b->context, CL_MEM_READ_WRITE, BIG_BYTES, NULL, &err);
  CHECK(err);
  if (posix_memalign(&b->big_aligned, 4096, BIG_BYTES) != 0 || !(b->big_plain = malloc(BIG_BYTES))) die("allocating 2 x 64 MiB", -1);
  /* Touch every page now, so no sequence pays for first-touch faults. */
  memset(b->big_aligned, 1, BIG_BYTES);
  memset(b->big_plain, 1, BIG_BYTES);
}

static void seq_write_64m(Bench* b, long n) { transfer_64m(b, n, 0, CL_FALSE, b->big_aligned); }
static void seq_read_64m(Bench* b, long n) { transfer_64m(b, n, 1, CL_FALSE, b->big_aligned); }
static void seq_write_64m_blocking(Bench* b, long n) { transfer_64m(b, n, 0, CL_TRUE, b->big_plain); }
static void seq_read_64m_blocking(Bench* b, long n) { transfer_64m(b, n, 1, CL_TRUE, b->big_plain); }

/* ---- driver ---- */

typedef struct {
  const char* key;
  void (*run)(Bench*, long);
  int big; /* a 64 MiB transfer: runs --big-iterations times */
} Sequence;

static void usage(void) {
  fprintf(stderr, "usage: opencl_bench_c [--platform NAME] [--iterations N] [--big-iterations N] [--repeats R] [--only SEQUENCE]\n");
  exit(2);
}

int main(int argc, char** argv) {
  const char* want = getenv("BENCH_PLATFORM");
  long iterations = 2000;
  long big_iterations = 20;
  int repeats = 5;
  const char* only = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--platform") && i + 1 < argc) want = argv[++i];
    else if (!strcmp(argv[i], "--iterations") && i + 1 < argc) iterations = strtol(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--big-iterations") && i + 1 < argc) big_iterations = strtol(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--repeats") && i + 1 < argc) repeats = (int)strtol(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
    else usage();
  }
  if (iterations < 1 || big_iterations < 1 || repeats < 1 || repeats > kMaxRepeats) usage();
  if (want && !*want) want = NULL;

  char* platform_name = NULL;
  cl_platform_id platform = find_platform(want, &platform_name);

  cl_device_id device;
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
  char* device_name = device_string(device, CL_DEVICE_NAME);
  char* platform_version = platform_string(platform, CL_PLATFORM_VERSION);

  Bench* b = calloc(1, sizeof *b);
  cl_int err;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
  b->context = clCreateContext(props, 1, &device, NULL, NULL, &err);
  CHECK(err);
  b->queue = clCreateCommandQueue(b->context, device, 0, &err);
  CHECK(err);
  const char* src = kKernelSource;
  cl_program program = clCreateProgramWithSource(b->context, 1, &src, NULL, &err);
  CHECK(err);
  err = clBuildProgram(program, 1, &device, "", NULL, NULL);
  if (err != CL_SUCCESS) {
    char log[8192] = {0};
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
    fprintf(stderr, "%s\n", log);
    die("clBuildProgram", err);
  }
  b->kernel = clCreateKernel(program, "tiny", &err);
  CHECK(err);
  b->buffer = clCreateBuffer(b->context, CL_MEM_READ_WRITE, kGlobalSize * sizeof(float), NULL, &err);
  CHECK(err);
  b->write_target = clCreateBuffer(b->context, CL_MEM_READ_WRITE, kWriteBytes, NULL, &err);
  CHECK(err);
  for (size_t i = 0; i < kWriteBytes / sizeof(float); i++) b->host[i] = (float)i;
  /* Sequences b and c enqueue without setting args: set them once here. */
  float a = 1.5f;
  CHECK(clSetKernelArg(b->kernel, 0, sizeof(cl_mem), &b->buffer));
  CHECK(clSetKernelArg(b->kernel, 1, sizeof(float), &a));
  CHECK(clFinish(b->queue));

  const Sequence sequences[] = {
      {"setarg_enqueue_ns", seq_setarg_enqueue, 0},
      {"enqueue_wait_ns", seq_enqueue_wait, 0},
      {"event_callback_ns", seq_event_callback, 0},
      {"write_4k_blocking_ns", seq_write_4k, 0},
#ifdef __linux__
      {"await_callback_epoll_ns", seq_await_callback_epoll, 0},
      {"await_waiter_epoll_ns", seq_await_waiter_epoll, 0},
#endif
      {"write_64m_ns", seq_write_64m, 1},
      {"read_64m_ns", seq_read_64m, 1},
      {"write_64m_blocking_ns", seq_write_64m_blocking, 1},
      {"read_64m_blocking_ns", seq_read_64m_blocking, 1},
  };
  enum { kSequences = sizeof sequences / sizeof sequences[0] };
  double samples[kSequences][kMaxRepeats];
  double medians[kSequences];
  long warmup = iterations / 10 < 50 ? 50 : iterations / 10;
  long big_warmup = big_iterations / 10 < 2 ? 2 : big_iterations / 10;

  for (int s = 0; s < kSequences; s++) {
    medians[s] = 0;
    if (only && strcmp(only, sequences[s].key)) continue; /* --only: one sequence (instruction counts) */
    long n = sequences[s].big ? big_iterations : iterations;
    if (sequences[s].big && !b->big_target) setup_big(b);
    sequences[s].run(b, sequences[s].big ? big_warmup : warmup);
    for (int r = 0; r < repeats; r++) {
      uint64_t t0 = now_ns();
      sequences[s].run(b, n);
      samples[s][r] = (double)(now_ns() - t0) / (double)n;
    }
    medians[s] = median_of(samples[s], repeats);
  }

  printf("{\"platform\": ");
  json_string(platform_name);
  printf(", \"platform_version\": ");
  json_string(platform_version);
  printf(", \"device\": ");
  json_string(device_name);
  printf(", \"iterations\": %ld, \"big_iterations\": %ld, \"big_bytes\": %zu, \"repeats\": %d, \"warmup\": %ld, \"kernel\": ", iterations,
         big_iterations, BIG_BYTES, repeats, warmup);
  json_string(kKernelSource);
  printf(", \"results\": {");
  for (int s = 0; s < kSequences; s++) printf("%s\"%s\": %.1f", s ? ", " : "", sequences[s].key, medians[s]);
  printf("}, \"samples\": {");
  for (int s = 0; s < kSequences; s++) {
    printf("%s\"%s\": [", s ? ", " : "", sequences[s].key);
    for (int r = 0; r < repeats && !(only && strcmp(only, sequences[s].key)); r++) printf("%s%.1f", r ? ", " : "", samples[s][r]);
    printf("]");
  }
  printf("}}\n");

  if (b->big_target) clReleaseMemObject(b->big_target);
  free(b->big_aligned);
  free(b->big_plain);
  clReleaseMemObject(b->write_target);
  clReleaseMemObject(b->buffer);
  clReleaseKernel(b->kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(b->queue);
  clReleaseContext(b->context);
  free(b);
  free(platform_version);
  free(device_name);
  free(platform_name);
  return 0;
}
