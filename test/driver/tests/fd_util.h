// fd_util.h - file-descriptor helpers for the external memory / semaphore tests:
// the ownership rules are checked by counting /proc/self/fd.
#pragma once
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <thread>

inline int open_fd_count() {
  DIR *d = opendir("/proc/self/fd");
  if (!d) return -1;
  int n = 0;
  while (readdir(d)) n++;
  closedir(d);
  return n - 3;  // ".", "..", and the directory's own descriptor
}
inline bool fd_open(int fd) { return fd >= 0 && fcntl(fd, F_GETFD) != -1; }
inline bool fd_readable(int fd, int timeout_ms = 0) {
  struct pollfd p {
    fd, POLLIN, 0
  };
  return poll(&p, 1, timeout_ms) > 0 && (p.revents & POLLIN);
}
inline void sleep_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

// waits (up to 5 s) until the event's status is <= want
inline cl_int wait_status(cl_event e, cl_int want) {
  cl_int s = 1;
  for (int i = 0; i < 5000; i++) {
    s = event_status(e);
    if (s <= want) break;
    sleep_ms(1);
  }
  return s;
}
