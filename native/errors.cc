// Turns driver status codes and native-side misuse into the JS error classes
// that lib/ hands over once, for every area, when the addon loads.
#include "errors.h"

#include <cstring>

#include "environment.h"

namespace ocl {

void ThrowErrorOf(Napi::Env env, const char* className, std::initializer_list<napi_value> args, const std::string& fallback) {
  Napi::ObjectReference& classes = AddonData::Get(env).errorClasses;
  Napi::Value errorClass = classes.IsEmpty() ? env.Undefined() : classes.Get(className);
  if (!errorClass.IsFunction()) throw Napi::Error::New(env, fallback);
  throw Napi::Error(env, errorClass.As<Napi::Function>().New(args));
}

void ThrowClError(Napi::Env env, cl_int status, const char* call) {
  ThrowErrorOf(env, "OpenCLError", {Napi::Number::New(env, status), Napi::String::New(env, call)},
               std::string(call) + " failed with status " + std::to_string(status));
}

void ThrowMissingEntryPoint(Napi::Env env, const char* name) {
  ThrowErrorOf(env, "OpenCLEntryPointError", {Napi::String::New(env, name)}, std::string("the loaded OpenCL library has no ") + name);
}

// kind: the class that was released; its JS name drops the Native prefix (NativeQueue -> Queue).
void ThrowReleased(Napi::Env env, const char* kind) {
  constexpr char kPrefix[] = "Native";
  if (std::strncmp(kind, kPrefix, sizeof kPrefix - 1) == 0) kind += sizeof kPrefix - 1;
  ThrowErrorOf(env, "OpenCLReleasedError", {Napi::String::New(env, kind)}, std::string("this ") + kind + " was released");
}

namespace {

// setErrorClasses(table): lib/errors.ts's table { class name: class }, from lib/addon.ts when the
// addon loads. The table itself is kept, not a copy: each area registers its classes in it as its
// module loads, and a throw looks its class up then.
Napi::Value SetErrorClasses(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[0].IsObject()) throw Napi::TypeError::New(env, "the error classes must be an object { name: class }");
  AddonData::Get(env).errorClasses = Napi::Persistent(info[0].As<Napi::Object>());
  return env.Undefined();
}

}  // namespace

void InitErrors(Napi::Env env, Napi::Object exports) { exports.Set("setErrorClasses", Napi::Function::New(env, SetErrorClasses, "setErrorClasses")); }

}  // namespace ocl
