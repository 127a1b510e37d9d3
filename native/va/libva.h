// The VA module's native side: libva loaded at run time (va/loader.cc),
// displays (va/display.cc) and surfaces (va/surface.cc). Thin: it calls libva,
// converts arguments and never decides policy; lib/va/ validates and owns
// lifetimes. Everything runs on the JavaScript thread that owns the object.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "objects.h"
#include "va/decls.h"

namespace ocl {
namespace va {

struct LibVa {
#define OCL_VA_DECLARE(name, ret, params) ret(*name) params = nullptr;
  OCL_VA_ENTRY_POINTS(OCL_VA_DECLARE)
#undef OCL_VA_DECLARE
  // libva-drm.so.2
  VADisplay (*vaGetDisplayDRM)(int fd) = nullptr;
  // libva-x11.so.2 and libX11.so.6
  VADisplay (*vaGetDisplay)(void* x11) = nullptr;
  void* (*XOpenDisplay)(const char* name) = nullptr;
  int (*XCloseDisplay)(void* x11) = nullptr;
};

// The loaded library, or a JS error saying libva is not loaded.
const LibVa& Lib(Napi::Env env);
// Same, or nullptr (release paths).
const LibVa* LibOrNull();

// Throws the VaError lib/va/errors.ts made for (status, call, detail).
[[noreturn]] void ThrowVaError(Napi::Env env, VAStatus status, const char* call, const std::string& detail = "");

// Copies n bytes at address into out without touching unmapped memory
// (false: some byte is not readable).
bool ReadMemory(const void* address, void* out, size_t n);

// One VADisplay. Owned displays (opened here) are terminated, and their DRM
// file / X connection closed, when the last holder lets go: the display
// object, its extra handles (contexts made on it) and its surfaces each hold
// a reference, in whichever environment (thread) they live. Adopted displays
// are never terminated here.
struct DisplayState {
  VADisplay display = nullptr;
  bool owned = false;
  int fd = -1;
  void* x11 = nullptr;
  int libva_major = 0, libva_minor = 0;
  ~DisplayState();
  // libva's error messages since the last Clear(), for error details (owned
  // displays only). libva reports on the thread that called it: any holder's.
  void AddMessage(std::string text);
  void Clear();
  std::string Messages() const;

 private:
  mutable std::mutex messagesMutex_;
  std::vector<std::string> messages_;
};
using DisplayRef = std::shared_ptr<DisplayState>;

// Owned displays of the whole process (every environment), by VADisplay:
// adopting the address of one shares its state, so that it stays alive as
// long as the adopter holds it. Registered once vaInitialize succeeded;
// ~DisplayState takes it out under the same lock, before it terminates, and
// then records the address as terminated (libva freed the memory there)
// until this module opens a display at the same address again.
void RegisterOwned(const DisplayRef& state);
enum class OwnedState {
  kNone,         // not a display this module opened
  kLive,         // one, returned shared
  kTerminating,  // one, which its last holder is terminating now
  kTerminated,   // one this module terminated: its memory is freed, never to be read
};
// The owned display at `display`, shared, when `found` is kLive; nullptr otherwise.
DisplayRef FindOwned(VADisplay display, OwnedState& found);

// Calls a libva entry point and throws a VaError on failure, with libva's
// messages for that display.
void CheckVa(Napi::Env env, const DisplayRef& display, VAStatus status, const char* call);
// Calls libva's entry point `name` (a member of `lib`, a LibVa) with the
// arguments that follow; a failure is a VaError naming it (its name written once).
#define VA_CHECK(env, display, lib, name, ...) ::ocl::va::CheckVa(env, display, (lib).name(__VA_ARGS__), #name)

class NativeVaDisplay : public Napi::ObjectWrap<NativeVaDisplay> {
 public:
  explicit NativeVaDisplay(const Napi::CallbackInfo& info);
  static void Init(Napi::Env env, Napi::Object exports);
  static Napi::Object Wrap(Napi::Env env, DisplayRef state);
  static DisplayRef From(const Napi::Value& value, const char* what);
  static const napi_type_tag kTypeTag;

 private:
  const DisplayRef& Live(Napi::Env env) const;
  Napi::Value Address(const Napi::CallbackInfo& info);
  Napi::Value Owned(const Napi::CallbackInfo& info);
  Napi::Value Versions(const Napi::CallbackInfo& info);
  Napi::Value Vendor(const Napi::CallbackInfo& info);
  Napi::Value Profiles(const Napi::CallbackInfo& info);
  Napi::Value ImageFormats(const Napi::CallbackInfo& info);
  Napi::Value SurfaceAttributes(const Napi::CallbackInfo& info);
  Napi::Value CreateSurfaces(const Napi::CallbackInfo& info);
  Napi::Value ImportSurface(const Napi::CallbackInfo& info);
  Napi::Value Share(const Napi::CallbackInfo& info);
  Napi::Value Release(const Napi::CallbackInfo& info);

  DisplayRef state_;
};

class NativeVaSurface : public Napi::ObjectWrap<NativeVaSurface> {
 public:
  explicit NativeVaSurface(const Napi::CallbackInfo& info);
  ~NativeVaSurface() override;
  static void Init(Napi::Env env, Napi::Object exports);
  static Napi::Object Wrap(Napi::Env env, DisplayRef display, VASurfaceID id);
  static const napi_type_tag kTypeTag;

 private:
  void Destroy();
  VASurfaceID Live(Napi::Env env) const;
  Napi::Value Id(const Napi::CallbackInfo& info);
  Napi::Value DestroyMethod(const Napi::CallbackInfo& info);
  Napi::Value Sync(const Napi::CallbackInfo& info);
  Napi::Value Status(const Napi::CallbackInfo& info);
  Napi::Value Transfer(const Napi::CallbackInfo& info);
  Napi::Value ExportPrime(const Napi::CallbackInfo& info);

  DisplayRef display_;
  VASurfaceID id_ = kInvalidId;
};

void InitVaDisplay(Napi::Env env, Napi::Object exports);
void InitVaSurface(Napi::Env env, Napi::Object exports);

}  // namespace va
}  // namespace ocl
