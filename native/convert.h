// Argument conversion between JS values and the C types the driver takes
// (convert.cc). Conversion only: what a value must be is decided in lib/.
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include "errors.h"

namespace ocl {

uint64_t ToU64(const Napi::Value& v, const char* what);
size_t ToSize(const Napi::Value& v, const char* what);
// A cl_uint (a token, an index, a count): a RangeError naming `what` when it does not fit in 32 bits.
cl_uint ToU32(const Napi::Value& v, const char* what);
void* ToPointer(const Napi::Value& v, const char* what);  // bigint address, 0n -> nullptr
Napi::BigInt FromPointer(Napi::Env env, const void* p);
// Three size_t values (origin / region) from a JS array of numbers.
void ToTriple(const Napi::Value& v, const char* what, size_t out[3]);

struct HostView {
  void* data = nullptr;
  size_t length = 0;
};
// An image's format and descriptor, as clCreateImage and clCreateImageWithProperties
// take them, from [order, type] and { type, width, height, depth, arraySize,
// rowPitch, slicePitch } (desc.buffer is the caller's).
struct ImageArgs {
  cl_image_format format{};
  cl_image_desc desc{};
};
ImageArgs ToImageArgs(const Napi::Value& format, const Napi::Value& desc);

// Accepts an ArrayBuffer or any ArrayBuffer view.
HostView ToHostView(const Napi::Value& v, const char* what);
// A RangeError naming `what` unless the view holds at least `needed` bytes.
void RequireBytes(Napi::Env env, const HostView& view, size_t needed, const char* what);
// A flag lib/ passes as a boolean (anything else reads as false): cheaper
// than ToBoolean's coercion on the per-command paths.
inline bool FlagOf(const Napi::Value& value) {
  bool flag = false;
  napi_get_value_bool(value.Env(), value, &flag);
  return flag;
}
// Copies raw bytes returned by an info query into a fresh Uint8Array.
Napi::Uint8Array BytesToJs(Napi::Env env, const void* data, size_t size);

// Runs a clGet*Info-style query twice (size, then data) and returns the bytes.
template <typename Query>
Napi::Value QueryBytes(Napi::Env env, const char* call, Query query) {
  size_t size = 0;
  Check(env, query(0, nullptr, &size), call);
  std::vector<uint8_t> bytes(size);
  Check(env, query(size, size ? bytes.data() : nullptr, nullptr), call);
  return BytesToJs(env, bytes.data(), bytes.size());
}

// info(param) of a handle: a clGet*Info entry point of the form
// (handle, param, size, value, sizeRet), its bytes returned raw.
template <typename T, typename Fn>
Napi::Value InfoBytes(const Napi::CallbackInfo& info, T handle, const Resolved<Fn>& entry) {
  Napi::Env env = info.Env();
  cl_uint param = static_cast<cl_uint>(ToU64(info[0], "param"));
  Fn fn = entry.fn;
  return QueryBytes(env, entry.call, [&](size_t size, void* out, size_t* sizeRet) { return fn(handle, param, size, out, sizeRet); });
}

}  // namespace ocl
