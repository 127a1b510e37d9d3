// What every enqueue shares (queue.cc holds the core commands; the sharing
// extensions' acquire and release use it too).
#pragma once

#include "event.h"

namespace ocl {

// An enqueue's wait list (read from JS first) and the event it produces.
struct Enqueue {
  std::vector<cl_event> waitList;
  cl_event event = nullptr;
  explicit Enqueue(const Napi::Value& waitListValue) : waitList(ToWaitList(waitListValue)) {}
  cl_uint count() const { return static_cast<cl_uint>(waitList.size()); }
  const cl_event* list() const { return waitList.empty() ? nullptr : waitList.data(); }
  Napi::Value Result(Napi::Env env) { return WrapEvent(env, event); }
};

// Registers NativeQueue and every core enqueue command (addon.cc).
void InitQueue(Napi::Env env, Napi::Object exports);

}  // namespace ocl
