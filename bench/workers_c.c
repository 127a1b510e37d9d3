/*
 * The C anchor of bench/workers.mjs: N streams, each with
 * its own context and in-order queue, as N threads of one process or as N
 * processes, so that a shortfall of Node's worker threads against Node's
 * processes can be told apart from one the driver has with threads of one
 * process anyway. bench/workers.mjs runs it; see bench/README.md, "Many
 * streams: worker threads against processes".
 *
 * A stream does what a Node stream of workers.mjs does with --command write:
 * clCreateContext + clCreateCommandQueue (in order) on the GPU (index + base)
 * % count of the platform (its GPUs, else all its devices), one 4 KiB buffer,
 * 20 warm-up rounds, then waits for the start, then commands/2 rounds of:
 * fill a 1024-uint stamp with index * 1000000 + i, clEnqueueWriteBuffer
 * (non-blocking, with an event) + clWaitForEvents, clEnqueueReadBuffer
 * (non-blocking, with an event) + clWaitForEvents, check its first and last
 * word. threads: one pthread per stream, started by a barrier, timed from the
 * barrier to the last thread's end. processes: one fork()ed child per stream,
 * each of which opens OpenCL itself (the parent never touches it), released
 * together by the close of a pipe and timed from then to the last child's
 * end (CLOCK_MONOTONIC is one clock for all processes); each child sends its
 * time, wrong count and device back through a pipe. Prints one JSON line.
 *
 *   workers_c --platform NAME --streams N --commands C --mode threads|processes
 *             [--wait direct|handoff] [--device-index-base B]
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, pthread barriers, kill */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS

#define BENCH_PROGRAM "workers_c"
static void stream_exit(int code);
#define BENCH_EXIT stream_exit
#define BENCH_WAITER
#include <CL/cl_ext.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "bench_common.h"

#ifndef CL_DEVICE_UUID_KHR
#define CL_DEVICE_UUID_KHR 0x106A /* cl_khr_device_uuid */
#endif

enum { kWords = 1024, kWarmUpRounds = 20, kMaxStreams = 256, kDeviceChars = 128 };

typedef struct {
  const char* platform;
  int index, device_base;
  long rounds;
  pthread_barrier_t* start; /* threads mode */
  int go_fd;                /* processes mode: read() returns when the parent closes the pipe */
  /* results */
  uint64_t started_ns, ended_ns;
  long wrong;
  char device[kDeviceChars];
} Stream;

/* The record a child sends back; shorter than PIPE_BUF, so one write() arrives whole. */
typedef struct {
  int index;
  long wrong;
  uint64_t started_ns, ended_ns;
  char device[kDeviceChars];
} Report;

/* The device's UUID as 8-4-4-4-12 lowercase hex (as device.uuid in the package), or its name where it has none. */
static void describe_device(cl_device_id device, char* out) {
  unsigned char uuid[16];
  size_t size = 0;
  if (clGetDeviceInfo(device, CL_DEVICE_UUID_KHR, sizeof uuid, uuid, &size) == CL_SUCCESS && size == sizeof uuid) {
    char* p = out;
    for (int k = 0; k < 16; k++) p += sprintf(p, "%s%02x", k == 4 || k == 6 || k == 8 || k == 10 ? "-" : "", uuid[k]);
    return;
  }
  char* name = device_string(device, CL_DEVICE_NAME);
  snprintf(out, kDeviceChars, "%s", name);
  free(name);
}

static cl_device_id pick_device(cl_platform_id platform, int which) {
  cl_uint count = 0;
  cl_device_type type = CL_DEVICE_TYPE_GPU;
  cl_int status = clGetDeviceIDs(platform, type, 0, NULL, &count);
  if (status == CL_DEVICE_NOT_FOUND || count == 0) {
    type = CL_DEVICE_TYPE_ALL;
    CHECK(clGetDeviceIDs(platform, type, 0, NULL, &count));
  } else if (status != CL_SUCCESS) {
    die("clGetDeviceIDs", status);
  }
  cl_device_id* devices = calloc(count, sizeof *devices);
  CHECK(clGetDeviceIDs(platform, type, count, devices, NULL));
  cl_device_id device = devices[(cl_uint)which % count];
  free(devices);
  return device;
}

/* --wait handoff: the driver calls and thread hops of the package's await with a waiting thread
   (native/completion.cc): the stream's thread enqueues, asks the event's queue, retains the event and hands
   it to the stream's own waiting thread (bench_common.h's Waiter), which waits (clWaitForEvents), releases its
   reference and wakes the stream's thread through an eventfd watched with epoll (as libuv's async handle wakes
   the event loop); the stream's thread then releases the event. --wait direct (the default): the stream's
   thread waits itself. */
static int handoff_mode = 0;

static void await_event(Waiter* waiter, cl_event event) {
  if (!waiter) {
    CHECK(clWaitForEvents(1, &event));
    CHECK(clReleaseEvent(event));
    return;
  }
  cl_command_queue queue = NULL;
  CHECK(clGetEventInfo(event, CL_EVENT_COMMAND_QUEUE, sizeof queue, &queue, NULL));
  CHECK(clRetainEvent(event));
  cl_int status = waiter_await(waiter, event);
  if (status != CL_SUCCESS) die("clWaitForEvents (waiting thread)", status);
  CHECK(clReleaseEvent(event));
}

static int round_trip(Waiter* waiter, cl_command_queue queue, cl_mem buffer, uint32_t* stamp, uint32_t* back, uint32_t value) {
  cl_event event;
  for (int k = 0; k < kWords; k++) stamp[k] = value;
  CHECK(clEnqueueWriteBuffer(queue, buffer, CL_FALSE, 0, kWords * sizeof(uint32_t), stamp, 0, NULL, &event));
  await_event(waiter, event);
  CHECK(clEnqueueReadBuffer(queue, buffer, CL_FALSE, 0, kWords * sizeof(uint32_t), back, 0, NULL, &event));
  await_event(waiter, event);
  return back[0] == value && back[kWords - 1] == value ? 0 : 1;
}

static void wait_for_start(Stream* s) {
  if (s->start) {
    int r = pthread_barrier_wait(s->start);
    if (r != 0 && r != PTHREAD_BARRIER_SERIAL_THREAD) die("pthread_barrier_wait", r);
    return;
  }
  char byte;
  ssize_t got;
  while ((got = read(s->go_fd, &byte, 1)) < 0 && errno == EINTR) {
  }
  if (got != 0) die("waiting for the start (the parent's pipe)", (cl_int)got);
}

static void ready_to_start(void);

static void* run_stream(void* arg) {
  Stream* s = (Stream*)arg;
  char* platform_name = NULL;
  cl_platform_id platform = find_platform(s->platform, &platform_name);
  free(platform_name);
  cl_device_id device = pick_device(platform, s->index + s->device_base);
  describe_device(device, s->device);
  cl_int status;
  cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &status);
  if (status != CL_SUCCESS) die("clCreateContext", status);
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &status);
  if (status != CL_SUCCESS) die("clCreateCommandQueue", status);
  cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, kWords * sizeof(uint32_t), NULL, &status);
  if (status != CL_SUCCESS) die("clCreateBuffer", status);
  uint32_t stamp[kWords], back[kWords];
  const uint32_t base = (uint32_t)s->index * 1000000u;
  Waiter waiter;
  Waiter* handoff = NULL;
  if (handoff_mode) waiter_start(handoff = &waiter, 1);
  for (int i = 0; i < kWarmUpRounds; i++) round_trip(handoff, queue, buffer, stamp, back, base + (uint32_t)i);
  if (!s->start) ready_to_start();
  wait_for_start(s);
  s->started_ns = now_ns();
  long wrong = 0;
  for (long i = 0; i < s->rounds; i++) wrong += round_trip(handoff, queue, buffer, stamp, back, base + (uint32_t)i);
  s->ended_ns = now_ns();
  if (handoff) waiter_stop(handoff);
  s->wrong = wrong;
  CHECK(clReleaseMemObject(buffer));
  CHECK(clReleaseCommandQueue(queue));
  CHECK(clReleaseContext(context));
  return NULL;
}

/* processes mode, in a child: the pipe on which it tells the parent that it
   is ready ('R') or that it failed before ('E'), so that the parent need not
   wait for the others. */
static int ready_fd = -1;
static int said_ready = 0;
static void ready_to_start(void) {
  said_ready = 1;
  if (write(ready_fd, "R", 1) != 1) die("write to the parent (ready)", -1);
}

/* Every failure ends here: _exit, not exit, since several streams may fail at
   once and exit() from two threads at once, or while another thread is in
   the driver, runs the driver's destructors under it (a crash on PoCL). */
static void stream_exit(int code) {
  if (!said_ready && ready_fd >= 0 && write(ready_fd, "E", 1) != 1) {
    /* the parent sees the pipe's end when every child is gone */
  }
  fflush(stderr);
  _exit(code);
}

static long parse_long(const char* flag, const char* value, long min, long max) {
  char* end = NULL;
  long v = value ? strtol(value, &end, 10) : 0;
  if (!value || *end || v < min || v > max) {
    fprintf(stderr, BENCH_PROGRAM ": %s expects an integer from %ld to %ld; got %s\n", flag, min, max, value ? value : "nothing");
    stream_exit(1);
  }
  return v;
}

static void fail(const char* message) {
  fprintf(stderr, BENCH_PROGRAM ": %s\n", message);
  stream_exit(1);
}

static void print_result(const char* mode, long streams, long commands, uint64_t started_ns, const Stream* s) {
  uint64_t ended_ns = started_ns;
  long wrong = 0;
  /* a thread may leave the barrier before the main thread does */
  for (long k = 0; k < streams; k++)
    if (s[k].started_ns < started_ns) started_ns = s[k].started_ns;
  for (long k = 0; k < streams; k++) {
    if (s[k].ended_ns > ended_ns) ended_ns = s[k].ended_ns;
    wrong += s[k].wrong;
  }
  double seconds = (double)(ended_ns - started_ns) / 1e9;
  printf(
      "{\"program\":\"workers_c\",\"mode\":\"%s\",\"streams\":%ld,\"commands_per_stream\":%ld,\"commands_per_second\":%.1f,"
      "\"wall_ms\":%.3f,\"wrong\":%ld,\"stream_ms\":[",
      mode, streams, commands, (double)(streams * commands) / seconds, seconds * 1e3, wrong);
  for (long k = 0; k < streams; k++) printf("%s%.3f", k ? "," : "", (double)(s[k].ended_ns - s[k].started_ns) / 1e6);
  printf("],\"devices\":[");
  for (long k = 0; k < streams; k++) {
    if (k) putchar(',');
    json_string(s[k].device);
  }
  printf("]}\n");
}

static void run_threads(Stream* s, long streams) {
  pthread_barrier_t start;
  pthread_t* threads = calloc((size_t)streams, sizeof *threads);
  if (pthread_barrier_init(&start, NULL, (unsigned)streams + 1) != 0) fail("pthread_barrier_init failed");
  for (long k = 0; k < streams; k++) {
    s[k].start = &start;
    if (pthread_create(&threads[k], NULL, run_stream, &s[k]) != 0) fail("pthread_create failed");
  }
  int r = pthread_barrier_wait(&start);
  if (r != 0 && r != PTHREAD_BARRIER_SERIAL_THREAD) fail("pthread_barrier_wait failed");
  uint64_t started_ns = now_ns();
  for (long k = 0; k < streams; k++) pthread_join(threads[k], NULL);
  pthread_barrier_destroy(&start);
  free(threads);
  print_result("threads", streams, 2 * s[0].rounds, started_ns, s);
}

static void end_children(const pid_t* pids, long count, const char* why) {
  fprintf(stderr, BENCH_PROGRAM ": %s\n", why);
  for (long k = 0; k < count; k++) kill(pids[k], SIGKILL);
  for (long k = 0; k < count; k++) waitpid(pids[k], NULL, 0);
  stream_exit(1);
}

static void run_processes(Stream* s, long streams) {
  int ready[2], go[2], results[2];
  if (pipe(ready) != 0 || pipe(go) != 0 || pipe(results) != 0) fail("pipe failed");
  pid_t* pids = calloc((size_t)streams, sizeof *pids);
  fflush(stdout);
  fflush(stderr);
  for (long k = 0; k < streams; k++) {
    pid_t pid = fork();
    if (pid < 0) end_children(pids, k, "fork failed");
    if (pid == 0) {
      close(ready[0]);
      close(go[1]); /* else the start (the pipe's last writer closing) never comes */
      close(results[0]);
      ready_fd = ready[1];
      s[k].go_fd = go[0];
      run_stream(&s[k]);
      Report report = {.index = s[k].index, .wrong = s[k].wrong, .started_ns = s[k].started_ns, .ended_ns = s[k].ended_ns};
      memcpy(report.device, s[k].device, sizeof report.device);
      if (write(results[1], &report, sizeof report) != (ssize_t)sizeof report) die("write to the parent (result)", -1);
      exit(0);
    }
    pids[k] = pid;
  }
  close(ready[1]);
  close(go[0]);
  close(results[1]);
  for (long k = 0; k < streams; k++) {
    char byte = 0;
    ssize_t got;
    while ((got = read(ready[0], &byte, 1)) < 0 && errno == EINTR) {
    }
    if (got != 1 || byte != 'R') end_children(pids, streams, "a stream's process failed before the start (its message is above)");
  }
  uint64_t started_ns = now_ns();
  close(go[1]);
  long reported = 0;
  for (;;) {
    Report report;
    ssize_t got;
    while ((got = read(results[0], &report, sizeof report)) < 0 && errno == EINTR) {
    }
    if (got == 0) break;
    if (got != (ssize_t)sizeof report || report.index < 0 || report.index >= streams)
      end_children(pids, streams, "a short or bad report from a stream's process");
    Stream* t = &s[report.index];
    t->wrong = report.wrong;
    t->started_ns = report.started_ns;
    t->ended_ns = report.ended_ns;
    memcpy(t->device, report.device, sizeof t->device);
    t->device[kDeviceChars - 1] = '\0';
    reported++;
  }
  int failed = 0;
  for (long k = 0; k < streams; k++) {
    int status = 0;
    if (waitpid(pids[k], &status, 0) != pids[k] || !WIFEXITED(status) || WEXITSTATUS(status) != 0) failed = 1;
  }
  free(pids);
  if (failed || reported != streams) fail("a stream's process failed (its message is above)");
  print_result("processes", streams, 2 * s[0].rounds, started_ns, s);
}

int main(int argc, char** argv) {
  const char* platform = NULL;
  const char* mode = NULL;
  long streams = 0, commands = 0, base = 0;
  for (int a = 1; a < argc; a++) {
    const char* v = a + 1 < argc ? argv[a + 1] : NULL;
    if (!strcmp(argv[a], "--platform") && v) platform = v, a++;
    else if (!strcmp(argv[a], "--mode") && v) mode = v, a++;
    else if (!strcmp(argv[a], "--wait") && v && (!strcmp(v, "direct") || !strcmp(v, "handoff"))) handoff_mode = !strcmp(v, "handoff"), a++;
    else if (!strcmp(argv[a], "--streams")) streams = parse_long("--streams", v, 1, kMaxStreams), a++;
    else if (!strcmp(argv[a], "--commands")) commands = parse_long("--commands", v, 2, 2000000000L), a++;
    else if (!strcmp(argv[a], "--device-index-base")) base = parse_long("--device-index-base", v, 0, 1000000), a++;
    else {
      fprintf(stderr, "usage: " BENCH_PROGRAM
                      " --platform NAME --streams N --commands C --mode threads|processes [--wait direct|handoff]\n"
                      "                 [--device-index-base B]\n");
      return 1;
    }
  }
  if (!platform) fail("--platform NAME is required (a part of the platform's name)");
  if (!streams) fail("--streams N is required (1 to 256)");
  if (!commands) fail("--commands C is required (an even number: each round is a write and a read)");
  if (commands % 2) {
    fprintf(stderr, BENCH_PROGRAM ": --commands expects an even number (each round is a write and a read); got %ld\n", commands);
    return 1;
  }
  if (!mode || (strcmp(mode, "threads") && strcmp(mode, "processes"))) {
    fprintf(stderr, BENCH_PROGRAM ": --mode expects threads or processes; got %s\n", mode ? mode : "nothing");
    return 1;
  }
  Stream* s = calloc((size_t)streams, sizeof *s);
  for (long k = 0; k < streams; k++) {
    s[k].platform = platform;
    s[k].index = (int)k;
    s[k].device_base = (int)base;
    s[k].rounds = commands / 2;
    s[k].go_fd = -1;
  }
  if (!strcmp(mode, "threads")) run_threads(s, streams);
  else run_processes(s, streams);
  free(s);
  return 0;
}
