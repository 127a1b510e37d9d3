// VA displays: opened on a DRM render node or an X11 display, or adopted
// from an address another library handed out (checked before libva sees it).
#include <cerrno>
#include <cstring>

#include "va/libva.h"

#if !defined(_WIN32)
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace ocl {
namespace va {

const napi_type_tag NativeVaDisplay::kTypeTag = {0x6f63ea7a11d54a0eULL, 0x9c1f0b3e5a7d2c61ULL};

namespace {

Napi::Object Failure(Napi::Env env, const char* step, const std::string& message, VAStatus status = 0) {
  Napi::Object result = Napi::Object::New(env);
  result.Set("step", step);
  result.Set("message", message);
  if (status) result.Set("status", status);
  return result;
}

// Why no driver may be handed a display at this address (one this module
// terminated, or is terminating: libva frees its memory), or "" when nothing says so.
std::string TerminatedReason(OwnedState found) {
  if (found == OwnedState::kTerminating) return "this module is terminating the VADisplay at that address (its last holder let go of it)";
  if (found == OwnedState::kTerminated)
    return "this module terminated the VADisplay at that address (its last holder let go of it): libva freed its memory";
  return "";
}

#if !defined(_WIN32)
void CollectMessage(void* user, const char* message) {
  auto* state = static_cast<DisplayState*>(user);
  std::string text = message ? message : "";
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  if (!text.empty()) state->AddMessage(std::move(text));
}
void IgnoreMessage(void*, const char*) {}

Napi::Object Opened(Napi::Env env, DisplayRef state) {
  Napi::Object result = Napi::Object::New(env);
  result.Set("display", NativeVaDisplay::Wrap(env, std::move(state)));
  return result;
}

// vaInitialize on a display this module made; libva's messages are collected
// (errors, for the failure's detail) or dropped (info lines).
Napi::Object Initialize(Napi::Env env, DisplayRef state) {
  const LibVa& va = Lib(env);
  if (va.vaSetErrorCallback) va.vaSetErrorCallback(state->display, CollectMessage, state.get());
  if (va.vaSetInfoCallback) va.vaSetInfoCallback(state->display, IgnoreMessage, nullptr);
  VAStatus status = va.vaInitialize(state->display, &state->libva_major, &state->libva_minor);
  if (status != kSuccess) {
    std::string messages = state->Messages();
    // vaInitialize failed: the display context is still there, vaTerminate frees it.
    return Failure(env, "vaInitialize", messages, status);
  }
  state->Clear();
  RegisterOwned(state);
  return Opened(env, std::move(state));
}

// vaOpenDrm(path) -> { display } | { step, message, status? }
Napi::Value OpenDrm(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const LibVa& va = Lib(env);
  std::string path = info[0].ToString();
  if (!va.vaGetDisplayDRM) return Failure(env, "libva-drm", "libva-drm.so.2 is not loaded");
  int fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) return Failure(env, "open", strerror(errno));
  auto state = std::make_shared<DisplayState>();
  state->owned = true;
  state->fd = fd;
  state->display = va.vaGetDisplayDRM(fd);
  if (!state->display) return Failure(env, "vaGetDisplayDRM", "libva refused the file: it is not a DRM device");
  return Initialize(env, std::move(state));
}

// vaOpenX11(name | null) -> { display } | { step, message, status? }
Napi::Value OpenX11(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const LibVa& va = Lib(env);
  if (!va.vaGetDisplay) return Failure(env, "libva-x11", "libva-x11.so.2 or libX11.so.6 is not loaded");
  std::string name = info[0].IsString() ? info[0].As<Napi::String>().Utf8Value() : std::string();
  void* x11 = va.XOpenDisplay(name.empty() ? nullptr : name.c_str());
  if (!x11) return Failure(env, "XOpenDisplay", "no X server answered");
  auto state = std::make_shared<DisplayState>();
  state->owned = true;
  state->x11 = x11;
  state->display = va.vaGetDisplay(x11);
  if (!state->display) return Failure(env, "vaGetDisplay", "libva-x11 gave no display");
  return Initialize(env, std::move(state));
}

// Whether code at `fn` belongs to a loaded shared object.
bool IsLoadedCode(void* fn) {
  Dl_info where{};
  return fn && dladdr(fn, &where) && where.dli_fname;
}

// vaAdopt(address: bigint, indirect: boolean) -> { display } | { step, message }
// indirect: address points to a VADisplay (FFmpeg's AVVAAPIDeviceContext).
Napi::Value Adopt(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const LibVa& va = Lib(env);
  void* address = ToPointer(info[0], "address");
  void* display = address;
  OwnedState found = OwnedState::kNone;
  if (info[1].ToBoolean()) {
    // A display this module terminated is freed memory, whatever it is taken for.
    FindOwned(address, found);
    if (std::string reason = TerminatedReason(found); !reason.empty()) return Failure(env, "terminated", reason);
    if (!ReadMemory(address, &display, sizeof(display))) return Failure(env, "read", "the device context address is not readable memory");
    if (!display) return Failure(env, "read", "the device context holds a null VADisplay");
  }
  // One this module opened (in any environment of the process): shared, so
  // that it is terminated only when every holder, this one too, let go.
  if (DisplayRef ours = FindOwned(display, found)) return Opened(env, std::move(ours));
  if (std::string reason = TerminatedReason(found); !reason.empty()) return Failure(env, "terminated", reason);
  DisplayContextHead head{};
  if (!ReadMemory(display, &head, sizeof(head))) return Failure(env, "read", "the VADisplay address is not readable memory");
  if (head.vadpy_magic != kDisplayMagic) {
    char text[96];
    snprintf(text, sizeof(text), "no VADisplay there (its first word is 0x%08x, a VADisplay's is 0x%08x)", unsigned(head.vadpy_magic),
             unsigned(kDisplayMagic));
    return Failure(env, "magic", text);
  }
  DriverContextHead driver{};
  if (!head.pDriverContext || !ReadMemory(head.pDriverContext, &driver, sizeof(driver)) || !IsLoadedCode(reinterpret_cast<void*>(head.vaIsValid)))
    return Failure(env, "magic", "the VADisplay was destroyed or is damaged (no driver context)");
  if (!va.vaDisplayIsValid(display)) return Failure(env, "vaDisplayIsValid", "libva says the display is not valid");
  if (!driver.vtable || !driver.str_vendor)
    return Failure(env, "initialized", "the VADisplay is not initialized (vaInitialize was not called on it, or vaTerminate was)");
  auto state = std::make_shared<DisplayState>();
  state->display = display;
  state->owned = false;
  return Opened(env, std::move(state));
}
#else
Napi::Value Unsupported(const Napi::CallbackInfo& info) { return Failure(info.Env(), "platform", "VA-API is available on Linux only"); }
#define OpenDrm Unsupported
#define OpenX11 Unsupported
#define Adopt Unsupported
#endif

// vaTerminated(address: bigint) -> string | null: why no driver may be handed
// the address (a display this module terminated, or is terminating), or null.
Napi::Value Terminated(const Napi::CallbackInfo& info) {
  OwnedState found = OwnedState::kNone;
  FindOwned(ToPointer(info[0], "address"), found);
  std::string reason = TerminatedReason(found);
  return reason.empty() ? info.Env().Null() : Napi::Value(Napi::String::New(info.Env(), reason));
}

}  // namespace

NativeVaDisplay::NativeVaDisplay(const Napi::CallbackInfo& info) : Napi::ObjectWrap<NativeVaDisplay>(info) {
  info.This().As<Napi::Object>().TypeTag(&kTypeTag);
  if (info[0].IsExternal()) {
    auto* ref = info[0].As<Napi::External<DisplayRef>>().Data();
    state_ = *ref;
  }
}

Napi::Object NativeVaDisplay::Wrap(Napi::Env env, DisplayRef state) {
  auto& ctor = AddonData::Get(env).constructors.at(&kTypeTag);
  // The External lives only for the constructor call.
  DisplayRef holder = std::move(state);
  return ctor.New({Napi::External<DisplayRef>::New(env, &holder)});
}

DisplayRef NativeVaDisplay::From(const Napi::Value& value, const char* what) {
  Napi::Env env = value.Env();
  if (!value.IsObject() || !value.As<Napi::Object>().CheckTypeTag(&kTypeTag))
    throw Napi::TypeError::New(env, std::string(what) + " must be a NativeVaDisplay");
  return Unwrap(value.As<Napi::Object>())->Live(env);
}

const DisplayRef& NativeVaDisplay::Live(Napi::Env env) const {
  if (!state_) ThrowReleased(env, "VaDisplay");
  return state_;
}

Napi::Value NativeVaDisplay::Address(const Napi::CallbackInfo& info) { return FromPointer(info.Env(), Live(info.Env())->display); }
Napi::Value NativeVaDisplay::Owned(const Napi::CallbackInfo& info) { return Napi::Boolean::New(info.Env(), Live(info.Env())->owned); }

// versions() -> { libva: [major, minor] | null, driver: [major, minor] }
Napi::Value NativeVaDisplay::Versions(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const DisplayRef& state = Live(env);
  Napi::Object result = Napi::Object::New(env);
  auto pair = [&](int a, int b) {
    Napi::Array array = Napi::Array::New(env, 2);
    array.Set(0u, a);
    array.Set(1u, b);
    return array;
  };
  result.Set("libva", state->owned ? Napi::Value(pair(state->libva_major, state->libva_minor)) : env.Null());
  DisplayContextHead head{};
  DriverContextHead driver{};
  if (ReadMemory(state->display, &head, sizeof(head)) && ReadMemory(head.pDriverContext, &driver, sizeof(driver)))
    result.Set("driver", pair(driver.version_major, driver.version_minor));
  return result;
}

Napi::Value NativeVaDisplay::Vendor(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const char* vendor = Lib(env).vaQueryVendorString(Live(env)->display);
  return vendor ? Napi::Value(Napi::String::New(env, vendor)) : env.Null();
}

// profiles() -> [{ profile, name, entrypoints: [{ entrypoint, name }] }]
Napi::Value NativeVaDisplay::Profiles(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const DisplayRef& state = Live(env);
  const LibVa& va = Lib(env);
  int max = va.vaMaxNumProfiles(state->display);
  std::vector<VAProfile> profiles(max > 0 ? size_t(max) : 1);
  int count = 0;
  VA_CHECK(env, state, va, vaQueryConfigProfiles, state->display, profiles.data(), &count);
  int maxEntrypoints = va.vaMaxNumEntrypoints(state->display);
  Napi::Array result = Napi::Array::New(env);
  for (int i = 0; i < count && i < int(profiles.size()); ++i) {
    Napi::Object profile = Napi::Object::New(env);
    profile.Set("profile", profiles[i]);
    const char* name = va.vaProfileStr ? va.vaProfileStr(profiles[i]) : nullptr;
    profile.Set("name", name ? Napi::Value(Napi::String::New(env, name)) : env.Null());
    std::vector<VAEntrypoint> entrypoints(maxEntrypoints > 0 ? size_t(maxEntrypoints) : 1);
    int n = 0;
    Napi::Array list = Napi::Array::New(env);
    if (va.vaQueryConfigEntrypoints(state->display, profiles[i], entrypoints.data(), &n) == kSuccess) {
      for (int j = 0; j < n && j < int(entrypoints.size()); ++j) {
        Napi::Object entry = Napi::Object::New(env);
        entry.Set("entrypoint", entrypoints[j]);
        const char* entryName = va.vaEntrypointStr ? va.vaEntrypointStr(entrypoints[j]) : nullptr;
        entry.Set("name", entryName ? Napi::Value(Napi::String::New(env, entryName)) : env.Null());
        list.Set(list.Length(), entry);
      }
    }
    state->Clear();
    profile.Set("entrypoints", list);
    result.Set(result.Length(), profile);
  }
  return result;
}

Napi::Object FormatToJs(Napi::Env env, const VAImageFormat& f) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("fourcc", f.fourcc);
  o.Set("byteOrder", f.byte_order);
  o.Set("bitsPerPixel", f.bits_per_pixel);
  o.Set("depth", f.depth);
  o.Set("redMask", f.red_mask);
  o.Set("greenMask", f.green_mask);
  o.Set("blueMask", f.blue_mask);
  o.Set("alphaMask", f.alpha_mask);
  return o;
}

Napi::Value NativeVaDisplay::ImageFormats(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const DisplayRef& state = Live(env);
  const LibVa& va = Lib(env);
  int max = va.vaMaxNumImageFormats(state->display);
  std::vector<VAImageFormat> formats(max > 0 ? size_t(max) : 1);
  int count = 0;
  VA_CHECK(env, state, va, vaQueryImageFormats, state->display, formats.data(), &count);
  Napi::Array result = Napi::Array::New(env);
  for (int i = 0; i < count && i < int(formats.size()); ++i) result.Set(result.Length(), FormatToJs(env, formats[i]));
  return result;
}

// surfaceAttributes(profile, entrypoint) -> { pixelFormats: number[], memoryTypes, minWidth, ... }
// through a config made for the pair (vaQuerySurfaceAttributes needs one).
Napi::Value NativeVaDisplay::SurfaceAttributes(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const DisplayRef& state = Live(env);
  const LibVa& va = Lib(env);
  if (!va.vaCreateConfig || !va.vaDestroyConfig || !va.vaQuerySurfaceAttributes)
    ThrowVaError(env, kUnimplemented, "vaQuerySurfaceAttributes", "this libva has no vaQuerySurfaceAttributes");
  VAConfigID config = kInvalidId;
  VA_CHECK(env, state, va, vaCreateConfig, state->display, info[0].As<Napi::Number>().Int32Value(), info[1].As<Napi::Number>().Int32Value(), nullptr,
           0, &config);
  struct ConfigGuard {
    const LibVa& va;
    VADisplay display;
    VAConfigID id;
    ~ConfigGuard() { va.vaDestroyConfig(display, id); }
  } guard{va, state->display, config};
  unsigned count = 0;
  VA_CHECK(env, state, va, vaQuerySurfaceAttributes, state->display, config, nullptr, &count);
  std::vector<VASurfaceAttrib> attribs(count ? count : 1);
  VA_CHECK(env, state, va, vaQuerySurfaceAttributes, state->display, config, attribs.data(), &count);
  Napi::Object result = Napi::Object::New(env);
  Napi::Array formats = Napi::Array::New(env);
  for (unsigned i = 0; i < count && i < attribs.size(); ++i) {
    const VASurfaceAttrib& a = attribs[i];
    if (a.value.type != kValueInteger) continue;
    switch (a.type) {
      case kAttribPixelFormat: formats.Set(formats.Length(), Napi::Number::New(env, double(uint32_t(a.value.value.i)))); break;
      case kAttribMinWidth: result.Set("minWidth", a.value.value.i); break;
      case kAttribMaxWidth: result.Set("maxWidth", a.value.value.i); break;
      case kAttribMinHeight: result.Set("minHeight", a.value.value.i); break;
      case kAttribMaxHeight: result.Set("maxHeight", a.value.value.i); break;
      case kAttribMemoryType: result.Set("memoryTypes", Napi::Number::New(env, double(uint32_t(a.value.value.i)))); break;
      default: break;
    }
  }
  result.Set("pixelFormats", formats);
  return result;
}

// createSurfaces(rtFormat, fourcc (0: the driver's default), width, height, count) -> NativeVaSurface[]
Napi::Value NativeVaDisplay::CreateSurfaces(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const DisplayRef& state = Live(env);
  const LibVa& va = Lib(env);
  uint32_t rt = uint32_t(ToU64(info[0], "rtFormat"));
  uint32_t fourcc = uint32_t(ToU64(info[1], "fourcc"));
  uint32_t width = uint32_t(ToU64(info[2], "width")), height = uint32_t(ToU64(info[3], "height"));
  uint32_t count = uint32_t(ToU64(info[4], "count"));
  std::vector<VASurfaceID> ids(count ? count : 1, kInvalidId);
  VASurfaceAttrib attrib{};
  attrib.type = kAttribPixelFormat;
  attrib.flags = kAttribSettable;
  attrib.value.type = kValueInteger;
  attrib.value.value.i = int32_t(fourcc);
  VA_CHECK(env, state, va, vaCreateSurfaces, state->display, rt, width, height, ids.data(), count, fourcc ? &attrib : nullptr, fourcc ? 1 : 0);
  Napi::Array result = Napi::Array::New(env, count);
  for (uint32_t i = 0; i < count; ++i) result.Set(i, NativeVaSurface::Wrap(env, state, ids[i]));
  return result;
}

// importSurface(rtFormat, memoryType: 'prime2' | 'prime', { fourcc, width, height,
//   objects: [{ fd, size, modifier: bigint }], planes: [{ object, offset, pitch }] }) -> NativeVaSurface
// The module does not take the file descriptors: the driver imports (dups or maps) them.
Napi::Value NativeVaDisplay::ImportSurface(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const DisplayRef& state = Live(env);
  const LibVa& va = Lib(env);
  uint32_t rt = uint32_t(ToU64(info[0], "rtFormat"));
  bool prime2 = info[1].ToString().Utf8Value() == "prime2";
  Napi::Object desc = info[2].As<Napi::Object>();
  uint32_t fourcc = uint32_t(ToU64(desc.Get("fourcc"), "fourcc"));
  uint32_t width = uint32_t(ToU64(desc.Get("width"), "width")), height = uint32_t(ToU64(desc.Get("height"), "height"));
  Napi::Array objects = desc.Get("objects").As<Napi::Array>();
  Napi::Array planes = desc.Get("planes").As<Napi::Array>();
  if (objects.Length() < 1 || objects.Length() > 4 || planes.Length() < 1 || planes.Length() > 4)
    throw Napi::RangeError::New(env, "1 to 4 objects and 1 to 4 planes");
  std::vector<int> fds;
  std::vector<uint32_t> sizes;
  std::vector<uint64_t> modifiers;
  for (uint32_t i = 0; i < objects.Length(); ++i) {
    Napi::Object o = objects.Get(i).As<Napi::Object>();
    int fd = int(ToU64(o.Get("fd"), "fd"));
#if !defined(_WIN32)
    struct stat st {};
    if (fstat(fd, &st) != 0) throw Napi::TypeError::New(env, "fd " + std::to_string(fd) + " is not an open file descriptor");
#endif
    uint64_t size = ToU64(o.Get("size"), "size");
#if !defined(_WIN32)
    if (size == 0) {
      // DMA-BUFs answer their size to lseek(SEEK_END); plain files to fstat.
      off_t end = lseek(fd, 0, SEEK_END);
      size = end > 0 ? uint64_t(end) : uint64_t(st.st_size);
      lseek(fd, 0, SEEK_SET);
    }
#endif
    if (size > 0xffffffffULL) throw Napi::RangeError::New(env, "object size does not fit in 32 bits");
    fds.push_back(fd);
    sizes.push_back(uint32_t(size));
    modifiers.push_back(ToU64(o.Get("modifier"), "modifier"));
  }
  VASurfaceAttrib attribs[3] = {};
  attribs[0].type = kAttribPixelFormat;
  attribs[0].flags = kAttribSettable;
  attribs[0].value.type = kValueInteger;
  attribs[0].value.value.i = int32_t(fourcc);
  attribs[1].type = kAttribMemoryType;
  attribs[1].flags = kAttribSettable;
  attribs[1].value.type = kValueInteger;
  attribs[1].value.value.i = int32_t(prime2 ? kMemTypeDrmPrime2 : kMemTypeDrmPrime);
  attribs[2].type = kAttribExternalBufferDescriptor;
  attribs[2].flags = kAttribSettable;
  attribs[2].value.type = kValuePointer;
  VADRMPRIMESurfaceDescriptor prime{};
  VASurfaceAttribExternalBuffers external{};
  std::vector<uintptr_t> buffers;
  if (prime2) {
    prime.fourcc = fourcc;
    prime.width = width;
    prime.height = height;
    prime.num_objects = uint32_t(fds.size());
    for (size_t i = 0; i < fds.size(); ++i) {
      prime.objects[i].fd = fds[i];
      prime.objects[i].size = sizes[i];
      prime.objects[i].drm_format_modifier = modifiers[i];
    }
    // One composed layer (like VA_EXPORT_SURFACE_COMPOSED_LAYERS) in the
    // surface's DRM format, its planes in the format's order.
    prime.num_layers = 1;
    prime.layers[0].drm_format = uint32_t(ToU64(desc.Get("drmFormat"), "drmFormat"));
    prime.layers[0].num_planes = planes.Length();
    for (uint32_t p = 0; p < planes.Length(); ++p) {
      Napi::Object plane = planes.Get(p).As<Napi::Object>();
      uint32_t object = uint32_t(ToU64(plane.Get("object"), "object"));
      if (object >= fds.size()) throw Napi::RangeError::New(env, "plane object index out of range");
      prime.layers[0].object_index[p] = object;
      prime.layers[0].offset[p] = uint32_t(ToU64(plane.Get("offset"), "offset"));
      prime.layers[0].pitch[p] = uint32_t(ToU64(plane.Get("pitch"), "pitch"));
    }
    attribs[2].value.value.p = &prime;
  } else {
    external.pixel_format = fourcc;
    external.width = width;
    external.height = height;
    external.num_planes = planes.Length();
    for (int fd : fds) buffers.push_back(uintptr_t(fd));
    external.buffers = buffers.data();
    external.num_buffers = uint32_t(buffers.size());
    external.data_size = fds.size() == 1 ? sizes[0] : 0;
    for (uint32_t p = 0; p < planes.Length(); ++p) {
      Napi::Object plane = planes.Get(p).As<Napi::Object>();
      external.offsets[p] = uint32_t(ToU64(plane.Get("offset"), "offset"));
      external.pitches[p] = uint32_t(ToU64(plane.Get("pitch"), "pitch"));
    }
    attribs[2].value.value.p = &external;
  }
  VASurfaceID id = kInvalidId;
  VA_CHECK(env, state, va, vaCreateSurfaces, state->display, rt, width, height, &id, 1, attribs, 3);
  return NativeVaSurface::Wrap(env, state, id);
}

// share() -> another NativeVaDisplay holding the same display (a context's hold on it).
Napi::Value NativeVaDisplay::Share(const Napi::CallbackInfo& info) { return Wrap(info.Env(), Live(info.Env())); }

// release(): this object's hold ends; an owned display is terminated when no surface or handle holds it.
Napi::Value NativeVaDisplay::Release(const Napi::CallbackInfo& info) {
  state_.reset();
  return info.Env().Undefined();
}

void NativeVaDisplay::Init(Napi::Env env, Napi::Object exports) {
  Napi::Function ctor = DefineClass(
      env, "NativeVaDisplay",
      {InstanceAccessor("address", &NativeVaDisplay::Address, nullptr), InstanceAccessor("owned", &NativeVaDisplay::Owned, nullptr),
       InstanceMethod("versions", &NativeVaDisplay::Versions), InstanceMethod("vendor", &NativeVaDisplay::Vendor),
       InstanceMethod("profiles", &NativeVaDisplay::Profiles), InstanceMethod("imageFormats", &NativeVaDisplay::ImageFormats),
       InstanceMethod("surfaceAttributes", &NativeVaDisplay::SurfaceAttributes), InstanceMethod("createSurfaces", &NativeVaDisplay::CreateSurfaces),
       InstanceMethod("importSurface", &NativeVaDisplay::ImportSurface), InstanceMethod("share", &NativeVaDisplay::Share),
       InstanceMethod("release", &NativeVaDisplay::Release)});
  AddonData::Get(env).constructors[&kTypeTag] = Napi::Persistent(ctor);
  exports.Set("vaOpenDrm", Napi::Function::New(env, OpenDrm, "vaOpenDrm"));
  exports.Set("vaOpenX11", Napi::Function::New(env, OpenX11, "vaOpenX11"));
  exports.Set("vaAdopt", Napi::Function::New(env, Adopt, "vaAdopt"));
  exports.Set("vaTerminated", Napi::Function::New(env, Terminated, "vaTerminated"));
}

void InitVaDisplay(Napi::Env env, Napi::Object exports) { NativeVaDisplay::Init(env, exports); }

}  // namespace va
}  // namespace ocl
