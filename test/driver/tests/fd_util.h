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
#include <cstdint>
#include <cstdio>
#include <cstring>
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

// The reference driver's sync-file stand-in (README, "Semaphores"), as the other API would make one: a
// 64-byte memfd sealed against resizing, {"REFSYNC1", uint32 status}.
inline int sync_stand_in(bool signaled = false) {
  int fd = memfd_create("test sync_file", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  uint32_t status = signaled ? 1 : 0;
  if (fd < 0 || ftruncate(fd, 64) != 0 || pwrite(fd, "REFSYNC1", 8, 0) != 8 || pwrite(fd, &status, 4, 8) != 4 ||
      fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW) != 0)
    return -1;
  return fd;
}
// Its status: whether the fence it stands for has signaled; `timeout_ms` to wait for it.
inline bool sync_signaled(int fd, int timeout_ms = 0) {
  for (int waited = 0;; waited++) {
    uint32_t status = 0;
    if (pread(fd, &status, 4, 8) == 4 && status == 1) return true;
    if (waited >= timeout_ms) return false;
    sleep_ms(1);
  }
}
// What the other API does when its work completes.
inline bool sync_signal(int fd) {
  uint32_t one = 1;
  return pwrite(fd, &one, 4, 8) == 4;
}
// Mappings of this process whose file name holds `name` (/proc/self/maps).
inline int mappings_of(const char *name) {
  FILE *maps = fopen("/proc/self/maps", "r");
  if (!maps) return -1;
  char line[1024];
  int n = 0;
  while (fgets(line, sizeof line, maps))
    if (strstr(line, name)) n++;
  fclose(maps);
  return n;
}

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
