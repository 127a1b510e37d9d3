// The operating system's handles the binding owns or hands on: POSIX file
// descriptors (close, duplicate, is-open) and Windows HANDLEs (close), for
// every area (imports, exports, handles received between processes). Twin of
// lib/os-handle.ts, which decides when each is closed.
#pragma once

#include <napi.h>

namespace ocl {

// Registers closeFd, duplicateFd, isOpenFd and closeHandle (addon.cc).
void InitOsHandle(Napi::Env env, Napi::Object exports);

}  // namespace ocl
