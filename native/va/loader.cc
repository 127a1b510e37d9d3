// Loads libva (libva.so.2), and where present libva-drm.so.2, libva-x11.so.2
// and libX11.so.6, at run time: installing or building the addon never needs
// libva. Like the OpenCL loader, what is loaded stays loaded for the life of
// the process and is shared by every environment.
#include <mutex>
#include <unordered_map>
#include <unordered_set>

#include "dynamic_library.h"
#include "va/libva.h"
#include "va/va.h"

#if !defined(_WIN32)
#include <fcntl.h>
#include <unistd.h>
#endif

namespace ocl {
namespace va {
namespace {

std::mutex loadMutex;
LibVa lib;
bool coreLoaded = false;
std::string corePath, drmPath, x11Path;
std::vector<std::pair<std::string, std::string>> optionalErrors;  // (what, error)

// Entry points every libva 2.x has; the others may be missing from old ones.
const char* const kRequired[] = {"vaInitialize",
                                 "vaTerminate",
                                 "vaDisplayIsValid",
                                 "vaErrorStr",
                                 "vaQueryVendorString",
                                 "vaMaxNumProfiles",
                                 "vaMaxNumEntrypoints",
                                 "vaMaxNumImageFormats",
                                 "vaQueryConfigProfiles",
                                 "vaQueryConfigEntrypoints",
                                 "vaQueryImageFormats",
                                 "vaCreateSurfaces",
                                 "vaDestroySurfaces",
                                 "vaSyncSurface",
                                 "vaQuerySurfaceStatus",
                                 "vaDeriveImage",
                                 "vaCreateImage",
                                 "vaDestroyImage",
                                 "vaGetImage",
                                 "vaPutImage",
                                 "vaMapBuffer",
                                 "vaUnmapBuffer"};

// The first of a list of candidates (a JS string[]) that opens and exports `probe`.
void* OpenFirst(const Napi::Value& candidates, const char* probe, std::string& path, std::vector<LibraryAttempt>& attempts) {
#if defined(_WIN32)
  (void)probe;
  (void)path;
  for (const std::string& candidate : LibraryCandidates(candidates)) attempts.push_back({candidate, "VA-API is available on Linux only"});
  return nullptr;
#else
  return OpenFirstLibrary(LibraryCandidates(candidates), Exports(probe), path, attempts);
#endif
}

Napi::Object Loaded(Napi::Env env) {
  Napi::Object result = Napi::Object::New(env);
  result.Set("ok", true);
  result.Set("path", corePath);
  result.Set("drm", drmPath.empty() ? env.Null() : Napi::String::New(env, drmPath));
  result.Set("x11", x11Path.empty() ? env.Null() : Napi::String::New(env, x11Path));
  Napi::Array problems = Napi::Array::New(env);
  for (auto& [what, error] : optionalErrors) {
    Napi::Object problem = Napi::Object::New(env);
    problem.Set("library", what);
    problem.Set("error", error);
    problems.Set(problems.Length(), problem);
  }
  result.Set("optional", problems);
  return result;
}

// vaLoad({ libva, drm, x11, xlib }: string[] each)
//   -> { ok: true, path, drm, x11, optional: [{ library, error }] } | { ok: false, attempts: [{ path, error }] }
Napi::Value Load(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::lock_guard<std::mutex> guard(loadMutex);
  if (coreLoaded) return Loaded(env);
  if (!info[0].IsObject()) throw Napi::TypeError::New(env, "candidates must be an object");
  Napi::Object candidates = info[0].As<Napi::Object>();
  std::vector<LibraryAttempt> attempts;
  std::string path;
  void* core = OpenFirst(candidates.Get("libva"), "vaInitialize", path, attempts);
  if (core) {
    for (const char* name : kRequired) {
      if (!FindSymbol(core, name)) {
        attempts.push_back({path, std::string("the library has no ") + name + " (libva older than 2.0?)"});
        core = nullptr;
        break;
      }
    }
  }
  if (!core) return FailedLoad(env, attempts);
#define OCL_VA_RESOLVE(name, ret, params) lib.name = reinterpret_cast<decltype(lib.name)>(FindSymbol(core, #name));
  OCL_VA_ENTRY_POINTS(OCL_VA_RESOLVE)
#undef OCL_VA_RESOLVE
  corePath = path;
  std::vector<LibraryAttempt> failed;
  if (void* drm = OpenFirst(candidates.Get("drm"), "vaGetDisplayDRM", drmPath, failed)) {
    lib.vaGetDisplayDRM = reinterpret_cast<decltype(lib.vaGetDisplayDRM)>(FindSymbol(drm, "vaGetDisplayDRM"));
  } else {
    for (auto& f : failed) optionalErrors.emplace_back("libva-drm", f.path + ": " + f.error);
  }
  failed.clear();
  std::string xlibPath;
  void* x11 = OpenFirst(candidates.Get("x11"), "vaGetDisplay", x11Path, failed);
  void* xlib = x11 ? OpenFirst(candidates.Get("xlib"), "XOpenDisplay", xlibPath, failed) : nullptr;
  if (x11 && xlib) {
    lib.vaGetDisplay = reinterpret_cast<decltype(lib.vaGetDisplay)>(FindSymbol(x11, "vaGetDisplay"));
    lib.XOpenDisplay = reinterpret_cast<decltype(lib.XOpenDisplay)>(FindSymbol(xlib, "XOpenDisplay"));
    lib.XCloseDisplay = reinterpret_cast<decltype(lib.XCloseDisplay)>(FindSymbol(xlib, "XCloseDisplay"));
  } else {
    x11Path.clear();
    for (auto& f : failed) optionalErrors.emplace_back("libva-x11", f.path + ": " + f.error);
  }
  coreLoaded = true;
  return Loaded(env);
}

Napi::Value LoadedLibrary(const Napi::CallbackInfo& info) {
  std::lock_guard<std::mutex> guard(loadMutex);
  return coreLoaded ? Napi::Value(Loaded(info.Env())) : info.Env().Null();
}

}  // namespace

const LibVa& Lib(Napi::Env env) {
  if (!coreLoaded) throw Napi::Error::New(env, "libva is not loaded");
  return lib;
}

const LibVa* LibOrNull() { return coreLoaded ? &lib : nullptr; }

void ThrowVaError(Napi::Env env, VAStatus status, const char* call, const std::string& detail) {
  ThrowErrorOf(env, "VaError", {Napi::Number::New(env, status), Napi::String::New(env, call), Napi::String::New(env, detail)},
               std::string(call) + " failed with VAStatus " + std::to_string(status));
}

bool ReadMemory(const void* address, void* out, size_t n) {
#if defined(_WIN32)
  (void)address;
  (void)out;
  (void)n;
  return false;
#else
  // write() from an unmapped address fails with EFAULT instead of faulting:
  // push the bytes through a pipe and read them back.
  if (n == 0) return true;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) return false;
  bool ok = true;
  size_t done = 0;
  while (ok && done < n) {
    size_t chunk = n - done < 4096 ? n - done : 4096;
    ssize_t written = write(fds[1], static_cast<const uint8_t*>(address) + done, chunk);
    if (written <= 0) {
      ok = false;
      break;
    }
    ssize_t got = read(fds[0], static_cast<uint8_t*>(out) + done, size_t(written));
    if (got != written) ok = false;
    done += size_t(written);
  }
  close(fds[0]);
  close(fds[1]);
  return ok;
#endif
}

namespace {
std::mutex registryMutex;
std::unordered_map<VADisplay, std::weak_ptr<DisplayState>>& Registry() {
  // Never destroyed: environments may let go of displays while the process exits.
  static auto* registry = new std::unordered_map<VADisplay, std::weak_ptr<DisplayState>>();
  return *registry;
}
// Addresses of displays this module terminated: libva freed their memory, so
// nothing may read it (an address until this module opens a display there again).
std::unordered_set<VADisplay>& Terminated() {
  static auto* terminated = new std::unordered_set<VADisplay>();
  return *terminated;
}
}  // namespace

void RegisterOwned(const DisplayRef& state) {
  std::lock_guard<std::mutex> guard(registryMutex);
  Registry()[state->display] = state;
  Terminated().erase(state->display);
}

DisplayRef FindOwned(VADisplay display, OwnedState& found) {
  std::lock_guard<std::mutex> guard(registryMutex);
  auto it = Registry().find(display);
  if (it == Registry().end()) {
    found = Terminated().count(display) ? OwnedState::kTerminated : OwnedState::kNone;
    return nullptr;
  }
  DisplayRef state = it->second.lock();
  found = state ? OwnedState::kLive : OwnedState::kTerminating;
  return state;
}

DisplayState::~DisplayState() {
  if (!owned || !coreLoaded) return;
  // Held while terminating: an adopt of this address waits, then finds it gone.
  std::lock_guard<std::mutex> guard(registryMutex);
  auto it = Registry().find(display);
  if (it != Registry().end() && it->second.expired()) Registry().erase(it);
  if (display) {
    lib.vaTerminate(display);
    Terminated().insert(display);
  }
  if (x11 && lib.XCloseDisplay) lib.XCloseDisplay(x11);
#if !defined(_WIN32)
  if (fd >= 0) close(fd);
#endif
}

void DisplayState::AddMessage(std::string text) {
  std::lock_guard<std::mutex> guard(messagesMutex_);
  if (messages_.size() < 16) messages_.push_back(std::move(text));
}

void DisplayState::Clear() {
  std::lock_guard<std::mutex> guard(messagesMutex_);
  messages_.clear();
}

std::string DisplayState::Messages() const {
  std::lock_guard<std::mutex> guard(messagesMutex_);
  std::string text;
  for (const std::string& message : messages_) {
    if (!text.empty()) text += "; ";
    text += message;
  }
  return text;
}

void CheckVa(Napi::Env env, const DisplayRef& display, VAStatus status, const char* call) {
  if (status == kSuccess) return;
  std::string detail = display ? display->Messages() : std::string();
  if (display) display->Clear();
  ThrowVaError(env, status, call, detail);
}

void InitVa(Napi::Env env, Napi::Object exports) {
  exports.Set("vaLoad", Napi::Function::New(env, Load, "vaLoad"));
  exports.Set("vaLoadedLibrary", Napi::Function::New(env, LoadedLibrary, "vaLoadedLibrary"));
  InitVaDisplay(env, exports);
  InitVaSurface(env, exports);
}

}  // namespace va
}  // namespace ocl
