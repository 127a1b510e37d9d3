// What every enqueue shares (queue.cc holds the core commands, mapping.cc the
// maps and unmaps; the sharing extensions' acquire and release use it too).
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

// Bytes a host region of an image occupies (pitches of 0: tightly packed, and
// set to the packed pitches), so that no transfer or mapping can run past the
// memory it was given; a RangeError where a product would wrap around.
size_t HostImageBytes(Napi::Env env, cl_mem image, const size_t region[3], size_t& rowPitch, size_t& slicePitch);

// Registers NativeQueue and every core enqueue command (addon.cc).
void InitQueue(Napi::Env env, Napi::Object exports);

}  // namespace ocl
