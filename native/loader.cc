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

#include "dynamic_library.h"

namespace ocl {
namespace {

std::mutex loaderMutex;
CoreApi coreApi;
const CoreApi* loadedApi = nullptr;
std::string loadedPath;

// Keeps this module mapped for the life of the process.
#if defined(_WIN32)
void PinThisModule() {
  HMODULE self = nullptr;
  GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_PIN, reinterpret_cast<LPCWSTR>(&PinThisModule), &self);
}
#else
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
  std::vector<LibraryAttempt> attempts;
  std::string path;
  void* library = OpenFirstLibrary(LibraryCandidates(info[0]), Exports("clGetPlatformIDs"), path, attempts);
  if (!library) return FailedLoad(env, attempts);
    // The library stays loaded for the life of the process: handles from it
    // may be released by finalizers until the very end.
#define OCL_RESOLVE_ENTRY_POINT(name, ret, params) coreApi.name = reinterpret_cast<decltype(coreApi.name)>(FindSymbol(library, #name));
  OCL_CORE_ENTRY_POINTS(OCL_RESOLVE_ENTRY_POINT)
#undef OCL_RESOLVE_ENTRY_POINT
  loadedPath = path;
  loadedApi = &coreApi;
  return LoadedResult(env);
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
