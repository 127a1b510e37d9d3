// Loads the OpenCL ICD loader (or a driver named by path) at run time. The
// library is process-wide: once one is loaded, every environment uses it.
#include <atomic>
#include <mutex>

#include "loader.h"

#if defined(_WIN32)
#include <windows.h>
#else
#include <dlfcn.h>
#endif

namespace ocl {
namespace {

std::mutex loaderMutex;
CoreApi coreApi;
const CoreApi* loadedApi = nullptr;
std::string loadedPath;

#if defined(_WIN32)
void* OpenLibrary(const std::string& path, std::string& error) {
  HMODULE module = LoadLibraryA(path.c_str());
  if (!module) {
    char buffer[512] = {0};
    FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, nullptr, GetLastError(), 0, buffer, sizeof(buffer), nullptr);
    error = buffer;
    while (!error.empty() && (error.back() == '\n' || error.back() == '\r' || error.back() == ' ')) error.pop_back();
  }
  return module;
}
void* FindSymbol(void* library, const char* name) { return reinterpret_cast<void*>(GetProcAddress(static_cast<HMODULE>(library), name)); }
void PinThisModule() {
  HMODULE self = nullptr;
  GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_PIN, reinterpret_cast<LPCWSTR>(&PinThisModule), &self);
}
#else
void* OpenLibrary(const std::string& path, std::string& error) {
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char* message = dlerror();
    error = message ? message : "unknown error";
  }
  return library;
}
void* FindSymbol(void* library, const char* name) { return dlsym(library, name); }
void PinThisModule() {
  Dl_info self{};
  if (dladdr(reinterpret_cast<void*>(&PinThisModule), &self) && self.dli_fname) dlopen(self.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
}
#endif

Napi::Array EntryPointNames(Napi::Env env) {
  Napi::Array names = Napi::Array::New(env);
  uint32_t i = 0;
#define OCL_LIST_ENTRY_POINT(name, ret, params) \
  if (loadedApi->name) names.Set(i++, Napi::String::New(env, #name));
  OCL_CORE_ENTRY_POINTS(OCL_LIST_ENTRY_POINT)
#undef OCL_LIST_ENTRY_POINT
  return names;
}

Napi::Object LoadedResult(Napi::Env env) {
  Napi::Object result = Napi::Object::New(env);
  result.Set("ok", true);
  result.Set("path", loadedPath);
  result.Set("entryPoints", EntryPointNames(env));
  return result;
}

// load(candidates: string[]) -> { ok: true, path, entryPoints } | { ok: false, attempts }
Napi::Value Load(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::lock_guard<std::mutex> lock(loaderMutex);
  if (loadedApi) return LoadedResult(env);
  if (!info[0].IsArray()) throw Napi::TypeError::New(env, "candidates must be an array of strings");
  Napi::Array candidates = info[0].As<Napi::Array>();
  Napi::Array attempts = Napi::Array::New(env);
  for (uint32_t i = 0; i < candidates.Length(); ++i) {
    std::string path = candidates.Get(i).ToString();
    std::string error;
    void* library = OpenLibrary(path, error);
    if (library && !FindSymbol(library, "clGetPlatformIDs")) error = "the library has no clGetPlatformIDs";
    if (!error.empty()) {
      Napi::Object attempt = Napi::Object::New(env);
      attempt.Set("path", path);
      attempt.Set("error", error);
      attempts.Set(attempts.Length(), attempt);
      continue;
    }
    // The library stays loaded for the life of the process: handles from it
    // may be released by finalizers until the very end.
#define OCL_RESOLVE_ENTRY_POINT(name, ret, params) coreApi.name = reinterpret_cast<decltype(coreApi.name)>(FindSymbol(library, #name));
    OCL_CORE_ENTRY_POINTS(OCL_RESOLVE_ENTRY_POINT)
#undef OCL_RESOLVE_ENTRY_POINT
    loadedPath = path;
    loadedApi = &coreApi;
    return LoadedResult(env);
  }
  Napi::Object result = Napi::Object::New(env);
  result.Set("ok", false);
  result.Set("attempts", attempts);
  return result;
}

Napi::Value LoadedLibrary(const Napi::CallbackInfo& info) {
  std::lock_guard<std::mutex> lock(loaderMutex);
  if (!loadedApi) return info.Env().Null();
  return LoadedResult(info.Env());
}

std::atomic<bool> processEnding{false};

Napi::Value LeaveReleasesToProcessEnd(const Napi::CallbackInfo& info) {
  processEnding = true;
  return info.Env().Undefined();
}

}  // namespace

const CoreApi* ApiOrNull() { return loadedApi; }

bool ProcessEnding() { return processEnding.load(std::memory_order_relaxed); }

const CoreApi* ReleaseApiOrNull() { return ProcessEnding() ? nullptr : loadedApi; }

const CoreApi& Api(Napi::Env env) {
  if (!loadedApi) throw Napi::Error::New(env, "OpenCL is not loaded");
  return *loadedApi;
}

void InitLoader(Napi::Env env, Napi::Object exports) {
  // Node unloads an addon when the last worker that loaded it exits, but the
  // driver's threads keep our event and error callbacks (and the loaded
  // library stays process-wide), so this module must never be unmapped.
  static std::once_flag pinned;
  std::call_once(pinned, PinThisModule);
  exports.Set("load", Napi::Function::New(env, Load, "load"));
  exports.Set("loadedLibrary", Napi::Function::New(env, LoadedLibrary, "loadedLibrary"));
  exports.Set("leaveReleasesToProcessEnd", Napi::Function::New(env, LeaveReleasesToProcessEnd, "leaveReleasesToProcessEnd"));
}

}  // namespace ocl
