// Driver status codes and native-side misuse as the JS error classes that
// lib/ hands over once (setErrorClasses, errors.cc); and each entry point
// reached through a macro that writes its name once: the name of the call
// in an error is the name the code called.
#pragma once

#include <initializer_list>
#include <string>
#include <utility>

#include "loader.h"

namespace ocl {

[[noreturn]] void ThrowClError(Napi::Env env, cl_int status, const char* call);
[[noreturn]] void ThrowMissingEntryPoint(Napi::Env env, const char* name);
[[noreturn]] void ThrowReleased(Napi::Env env, const char* kind);
// Throws `new classes[className](...args)` of the classes lib/ installed;
// `fallback` as a plain Error where there is no such class.
[[noreturn]] void ThrowErrorOf(Napi::Env env, const char* className, std::initializer_list<napi_value> args, const std::string& fallback);

inline void Check(Napi::Env env, cl_int status, const char* call) {
  if (status != CL_SUCCESS) ThrowClError(env, status, call);
}

// An entry point and its name, for the errors of every call made through it.
template <typename Fn>
struct Resolved {
  Fn fn;
  const char* call;
};

// fn(args...) for entry points that return a status.
template <typename Fn, typename... Args>
void CheckCall(Napi::Env env, const Resolved<Fn>& entry, Args&&... args) {
  Check(env, entry.fn(std::forward<Args>(args)...), entry.call);
}

// fn(args..., &status) for entry points that return an object and report
// their status through the last argument.
template <typename Fn, typename... Args>
auto CreateCall(Napi::Env env, const Resolved<Fn>& entry, Args&&... args) {
  cl_int status = CL_SUCCESS;
  auto result = entry.fn(std::forward<Args>(args)..., &status);
  Check(env, status, entry.call);
  return result;
}

// Resolves an entry point of the loaded library or throws a typed error naming it.
#define OCL_FN(env, name) (Api(env).name ? Api(env).name : (ThrowMissingEntryPoint(env, #name), nullptr))
// The entry point with its name: OCL_ENTRY(env, clFlush) -> Resolved{fn, "clFlush"}.
#define OCL_ENTRY(env, name) (::ocl::Resolved<decltype(::ocl::CoreApi::name)>{OCL_FN(env, name), #name})
// Calls an entry point that returns a status; a failure throws an OpenCLError naming it.
#define OCL_CHECK(env, name, ...) ::ocl::CheckCall(env, OCL_ENTRY(env, name), __VA_ARGS__)
// Calls a creating entry point (status through its last argument); returns what it made.
#define OCL_CREATE(env, name, ...) ::ocl::CreateCall(env, OCL_ENTRY(env, name), __VA_ARGS__)

// Registers setErrorClasses (addon.cc).
void InitErrors(Napi::Env env, Napi::Object exports);

}  // namespace ocl
