/*
 * What the C benchmarks (opencl_bench.c, frame_loop.c, workers_c.c, ...)
 * share: error checks, the clock, medians, JSON strings, a minimal event loop
 * (an eventfd watched with epoll, as libuv does) to wait on OpenCL events the
 * way an `await` in Node does, and (BENCH_WAITER) a waiting thread that wakes
 * it. Header-only: each program is one translation unit.
 */
#ifndef OPENCL_INTEROP_BENCH_COMMON_H
#define OPENCL_INTEROP_BENCH_COMMON_H

#include <CL/cl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>
#endif

#ifndef BENCH_PROGRAM
#error "define BENCH_PROGRAM (the program's name, for error messages) before including bench_common.h"
#endif

/* How die() and find_platform() end the program; a program whose threads may
   fail at once defines its own (exit() from two threads at once is undefined). */
#ifndef BENCH_EXIT
#define BENCH_EXIT exit
#endif

enum { kMaxRepeats = 99 };

static void die(const char* what, cl_int status) {
  fprintf(stderr, BENCH_PROGRAM ": %s failed (%d)\n", what, (int)status);
  BENCH_EXIT(1);
}
#define CHECK(call)                                 \
  do {                                              \
    cl_int status_ = (call);                        \
    if (status_ != CL_SUCCESS) die(#call, status_); \
  } while (0)

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_double(const void* x, const void* y) {
  double a = *(const double*)x, c = *(const double*)y;
  return (a > c) - (a < c);
}

static double median_of(const double* samples, int count) {
  double sorted[kMaxRepeats];
  memcpy(sorted, samples, sizeof(double) * (size_t)count);
  qsort(sorted, (size_t)count, sizeof(double), cmp_double);
  return count % 2 ? sorted[count / 2] : (sorted[count / 2 - 1] + sorted[count / 2]) / 2;
}

static void json_string(const char* s) {
  putchar('"');
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') printf("\\%c", c);
    else if (c < 0x20) printf("\\u%04x", c);
    else putchar(c);
  }
  putchar('"');
}

static char* platform_string(cl_platform_id p, cl_platform_info what) {
  size_t size = 0;
  CHECK(clGetPlatformInfo(p, what, 0, NULL, &size));
  char* s = calloc(size + 1, 1);
  CHECK(clGetPlatformInfo(p, what, size, s, NULL));
  return s;
}

static char* device_string(cl_device_id d, cl_device_info what) {
  size_t size = 0;
  CHECK(clGetDeviceInfo(d, what, 0, NULL, &size));
  char* s = calloc(size + 1, 1);
  CHECK(clGetDeviceInfo(d, what, size, s, NULL));
  return s;
}

/* The first platform whose name contains `want` (any platform when NULL);
   its name goes to *name_out (free it). Exits when there is none. */
static cl_platform_id find_platform(const char* want, char** name_out) {
  cl_uint count = 0;
  CHECK(clGetPlatformIDs(0, NULL, &count));
  if (count == 0) die("clGetPlatformIDs (no platforms)", CL_INVALID_PLATFORM);
  cl_platform_id* platforms = calloc(count, sizeof *platforms);
  CHECK(clGetPlatformIDs(count, platforms, NULL));
  cl_platform_id found = NULL;
  for (cl_uint i = 0; i < count && !found; i++) {
    char* name = platform_string(platforms[i], CL_PLATFORM_NAME);
    if (!want || strstr(name, want)) {
      found = platforms[i];
      *name_out = name;
    } else {
      free(name);
    }
  }
  free(platforms);
  if (!found) {
    fprintf(stderr, BENCH_PROGRAM ": no platform whose name contains \"%s\"\n", want);
    BENCH_EXIT(1);
  }
  return found;
}

#ifdef __linux__
/* An event loop's wake-up: the main thread sleeps in epoll_wait on an eventfd
   that another thread (a driver's callback, a waiter) writes. */
typedef struct {
  int efd;
  int epoll;
  cl_int status;
} Loop;

static void loop_open(Loop* loop) {
  struct epoll_event interest = {.events = EPOLLIN};
  loop->efd = eventfd(0, EFD_CLOEXEC);
  loop->epoll = epoll_create1(EPOLL_CLOEXEC);
  if (loop->efd < 0 || loop->epoll < 0 || epoll_ctl(loop->epoll, EPOLL_CTL_ADD, loop->efd, &interest) != 0) die("eventfd/epoll", -1);
}

static void loop_close(Loop* loop) {
  close(loop->epoll);
  close(loop->efd);
}

static void loop_wake(Loop* loop) {
  uint64_t one = 1;
  if (write(loop->efd, &one, sizeof one) != sizeof one) die("eventfd write", -1);
}

static void loop_sleep(Loop* loop) {
  struct epoll_event ready;
  uint64_t count;
  while (epoll_wait(loop->epoll, &ready, 1, -1) != 1) {
  }
  if (read(loop->efd, &count, sizeof count) != sizeof count) die("eventfd read", -1);
}

/* clSetEventCallback(CL_COMPLETE) target: records the status, wakes the loop. */
static void CL_CALLBACK on_complete_wake(cl_event ev, cl_int status, void* user) {
  (void)ev;
  Loop* loop = (Loop*)user;
  loop->status = status;
  loop_wake(loop);
}

#ifdef BENCH_WAITER
#include <pthread.h>

/* A waiting thread (programs that define BENCH_WAITER, linked with threads):
   waiter_await() hands it one event, it blocks in clWaitForEvents, puts the
   status in loop.status and wakes the loop the caller sleeps in. With
   release_after_wait it first releases the event, the reference the caller
   took for it, as the package's waiting lane does (native/completion.cc). */
typedef struct {
  Loop loop;
  pthread_mutex_t mutex;
  pthread_cond_t cond;
  cl_event pending;
  int quit, release_after_wait;
  pthread_t thread;
} Waiter;

static void* waiter_main(void* user) {
  Waiter* w = (Waiter*)user;
  for (;;) {
    pthread_mutex_lock(&w->mutex);
    while (!w->pending && !w->quit) pthread_cond_wait(&w->cond, &w->mutex);
    cl_event ev = w->pending;
    w->pending = NULL;
    int quit = w->quit;
    pthread_mutex_unlock(&w->mutex);
    if (quit && !ev) return NULL;
    w->loop.status = clWaitForEvents(1, &ev);
    if (w->release_after_wait) clReleaseEvent(ev);
    loop_wake(&w->loop);
  }
}

static void waiter_start(Waiter* w, int release_after_wait) {
  *w = (Waiter){.pending = NULL, .quit = 0, .release_after_wait = release_after_wait};
  loop_open(&w->loop);
  pthread_mutex_init(&w->mutex, NULL);
  pthread_cond_init(&w->cond, NULL);
  if (pthread_create(&w->thread, NULL, waiter_main, w) != 0) die("pthread_create (waiting thread)", -1);
}

/* Hands `ev` to the waiting thread and sleeps in the loop until it has waited; its clWaitForEvents status. */
static cl_int waiter_await(Waiter* w, cl_event ev) {
  pthread_mutex_lock(&w->mutex);
  w->pending = ev;
  pthread_cond_signal(&w->cond);
  pthread_mutex_unlock(&w->mutex);
  loop_sleep(&w->loop);
  return w->loop.status;
}

static void waiter_stop(Waiter* w) {
  pthread_mutex_lock(&w->mutex);
  w->quit = 1;
  pthread_cond_signal(&w->cond);
  pthread_mutex_unlock(&w->mutex);
  pthread_join(w->thread, NULL);
  pthread_cond_destroy(&w->cond);
  pthread_mutex_destroy(&w->mutex);
  loop_close(&w->loop);
}
#endif
#endif

#endif
