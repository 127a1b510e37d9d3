// OS handles (see os_handle.h). Descriptors are closed here, not with
// fs.closeSync: in a worker thread Node warns about every descriptor fs did
// not open there ("closed but not opened in unmanaged mode"), and these come
// from drivers and exporters.
#include "os_handle.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>

#ifdef _WIN32
#include <windows.h>
#else
#include <fcntl.h>
#include <unistd.h>
#endif

#include "convert.h"

namespace ocl {
namespace {

#ifndef _WIN32
int FdArg(const Napi::Value& value) {
  uint64_t fd = ToU64(value, "fd");
  if (fd > 0x7fffffff) throw Napi::RangeError::New(value.Env(), "fd must be a file descriptor (0 to 2^31-1)");
  return static_cast<int>(fd);
}
#endif

// duplicateFd(fd) -> a new descriptor of the same open file (close-on-exec),
// so that an import can take one while the caller keeps its own.
Napi::Value DuplicateFd(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
#ifdef _WIN32
  throw Napi::Error::New(env, "file descriptors are not imported on Windows");
#else
  int fd = FdArg(info[0]);
  int copy = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (copy < 0) {
    throw Napi::Error::New(env, "fcntl(F_DUPFD_CLOEXEC) on fd " + std::to_string(fd) + " failed: " + std::strerror(errno));
  }
  return Napi::Number::New(env, copy);
#endif
}

// closeFd(fd) -> whether it was open.
Napi::Value CloseFd(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
#ifdef _WIN32
  throw Napi::Error::New(env, "file descriptors are not imported on Windows");
#else
  return Napi::Boolean::New(env, close(FdArg(info[0])) == 0);
#endif
}

// isOpenFd(fd) -> whether the number names an open descriptor of this process.
Napi::Value IsOpenFd(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
#ifdef _WIN32
  throw Napi::Error::New(env, "file descriptors are not imported on Windows");
#else
  return Napi::Boolean::New(env, fcntl(FdArg(info[0]), F_GETFD) != -1);
#endif
}

// closeHandle(handle: bigint) -> whether CloseHandle succeeded.
Napi::Value CloseWindowsHandle(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
#ifdef _WIN32
  HANDLE handle = reinterpret_cast<HANDLE>(static_cast<uintptr_t>(ToU64(info[0], "handle")));
  return Napi::Boolean::New(env, CloseHandle(handle) != 0);
#else
  throw Napi::Error::New(env, "Windows HANDLEs exist only on Windows");
#endif
}

}  // namespace

void InitOsHandle(Napi::Env env, Napi::Object exports) {
  exports.Set("closeFd", Napi::Function::New(env, CloseFd, "closeFd"));
  exports.Set("duplicateFd", Napi::Function::New(env, DuplicateFd, "duplicateFd"));
  exports.Set("isOpenFd", Napi::Function::New(env, IsOpenFd, "isOpenFd"));
  exports.Set("closeHandle", Napi::Function::New(env, CloseWindowsHandle, "closeHandle"));
}

}  // namespace ocl
