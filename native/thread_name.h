// Names the calling thread (Linux: /proc/PID/task/TID/comm), so that a stuck
// process's report (test/gpu/stacks.mjs) tells the binding's threads apart.
#pragma once

#if defined(__linux__)
#include <pthread.h>
#endif

namespace ocl {

inline void NameThisThread(const char* name) {  // at most 15 characters
#if defined(__linux__)
  pthread_setname_np(pthread_self(), name);
#else
  (void)name;
#endif
}

}  // namespace ocl
