// Libraries opened at run time (dlopen, LoadLibrary): what the OpenCL, libva
// and Vulkan loaders share. A library opened here is never closed: handles and
// callbacks from it may be used until the process ends.
#pragma once

#include <napi.h>

#include <functional>
#include <string>
#include <vector>

#if defined(_WIN32)
#include <windows.h>
#else
#include <dlfcn.h>
#endif

namespace ocl {

// One candidate that did not do, and why.
struct LibraryAttempt {
  std::string path;
  std::string error;
};

// Opens `path` (a bare name is looked up as the system does); nullptr with
// `error` set when it does not open.
inline void* OpenLibrary(const std::string& path, std::string& error) {
#if defined(_WIN32)
  HMODULE module = LoadLibraryA(path.c_str());
  if (!module) {
    char buffer[512] = {0};
    FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, nullptr, GetLastError(), 0, buffer, sizeof(buffer), nullptr);
    error = buffer;
    while (!error.empty() && (error.back() == '\n' || error.back() == '\r' || error.back() == ' ')) error.pop_back();
  }
  return reinterpret_cast<void*>(module);
#else
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char* message = dlerror();
    error = message ? message : "unknown error";
  }
  return library;
#endif
}

// The address of `name` in `library`, or nullptr.
inline void* FindSymbol(void* library, const char* name) {
#if defined(_WIN32)
  return reinterpret_cast<void*>(GetProcAddress(static_cast<HMODULE>(library), name));
#else
  return dlsym(library, name);
#endif
}

// Whether an opened library will do: "" when it will, else why not.
using LibraryCheck = std::function<std::string(void* library)>;

// A check that the library exports `name`.
inline LibraryCheck Exports(const char* name) {
  return [name](void* library) { return FindSymbol(library, name) ? std::string() : std::string("the library has no ") + name; };
}

// Opens the first of `candidates` that opens and passes `check`, and sets
// `path` to it; each candidate that does not is added to `attempts`.
inline void* OpenFirstLibrary(const std::vector<std::string>& candidates, const LibraryCheck& check, std::string& path,
                              std::vector<LibraryAttempt>& attempts) {
  for (const std::string& candidate : candidates) {
    std::string error;
    void* library = OpenLibrary(candidate, error);
    if (library) error = check(library);
    if (error.empty()) {
      path = candidate;
      return library;
    }
    attempts.push_back({candidate, error});
  }
  return nullptr;
}

// The candidates a loader was given: the strings of a JS array (none for anything else).
inline std::vector<std::string> LibraryCandidates(const Napi::Value& value) {
  std::vector<std::string> candidates;
  if (!value.IsArray()) return candidates;
  Napi::Array array = value.As<Napi::Array>();
  for (uint32_t i = 0; i < array.Length(); ++i) candidates.push_back(array.Get(i).ToString());
  return candidates;
}

// What a loader answers when no candidate did: { ok: false, attempts: [{ path, error }] }.
inline Napi::Object FailedLoad(Napi::Env env, const std::vector<LibraryAttempt>& attempts) {
  Napi::Array list = Napi::Array::New(env);
  for (const LibraryAttempt& attempt : attempts) {
    Napi::Object entry = Napi::Object::New(env);
    entry.Set("path", attempt.path);
    entry.Set("error", attempt.error);
    list.Set(list.Length(), entry);
  }
  Napi::Object result = Napi::Object::New(env);
  result.Set("ok", false);
  result.Set("attempts", list);
  return result;
}

}  // namespace ocl
