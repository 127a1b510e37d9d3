// Reading the plain objects lib/video/*-vulkan.ts builds (StdVideo field
// names, `flags` objects of booleans) into the codec structures: a member as a
// number, a flag, or an object, each a TypeError naming the member otherwise.
#pragma once

#include <string>

#include <napi.h>

namespace ocl {
namespace vk {

inline int64_t Int(const Napi::Object& o, const char* key) {
  Napi::Value v = o.Get(key);
  if (!v.IsNumber()) throw Napi::TypeError::New(o.Env(), std::string(key) + " must be a number");
  return v.As<Napi::Number>().Int64Value();
}

inline uint32_t Flag(const Napi::Object& flags, const char* key) { return flags.Get(key).ToBoolean() ? 1 : 0; }

inline Napi::Object Obj(const Napi::Object& o, const char* key) {
  Napi::Value v = o.Get(key);
  if (!v.IsObject()) throw Napi::TypeError::New(o.Env(), std::string(key) + " must be an object");
  return v.As<Napi::Object>();
}

}  // namespace vk
}  // namespace ocl
