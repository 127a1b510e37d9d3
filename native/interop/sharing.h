// Shared machinery of the sharing-extension files (interop/: nv_d3d9.cc, d3d10.cc,
// d3d11.cc, intel_dx9.cc, khr_dx9_media.cc, va_api.cc). Each
// extension object resolves its entry points for one platform, once, through
// clGetExtensionFunctionAddressForPlatform (clGetExtensionFunctionAddress on
// OpenCL 1.1 platforms); lib/interop caches one object per platform.
#pragma once

#include <type_traits>

#include "objects.h"
#include "queue.h"

namespace ocl {

using AcquireFn = cl_int(OCL_CALL*)(cl_command_queue, cl_uint, const cl_mem*, cl_uint, const cl_event*, cl_event*);
// cl_nv_d3d9_sharing and cl_intel_dx9_media_sharing declare release with a
// non-const cl_mem*.
using ReleaseMutableFn = cl_int(OCL_CALL*)(cl_command_queue, cl_uint, cl_mem*, cl_uint, const cl_event*, cl_event*);
// clGetDeviceIDsFrom{D3D9NV, D3D10KHR, DX9INTEL, VA_APIMediaAdapterINTEL}
using DeviceIdsFn = cl_int(OCL_CALL*)(cl_platform_id, cl_uint, void*, cl_uint, cl_uint, cl_device_id*, cl_uint*);

// Entry points of one extension for one platform. The names come from the
// extension's record (lib/interop/extensions.ts) as { role: name }; the
// native files ask for a role ("deviceIds", "buffer", "acquire", ...) and
// never spell an entry point name themselves (Resolved: errors.h).

class EntryPoints {
 public:
  EntryPoints(Napi::Env env, const Napi::Value& platform, bool legacy, const Napi::Value& names);
  // A role whose call is core OpenCL that the extension builds on (the creating
  // calls of cl_khr_external_memory are OpenCL 3.0's): asked of the platform
  // like the others; where it does not answer, `core` (the loader's export, or
  // null) stands in. Not listed by Missing: it is refused when called.
  void AddCore(Napi::Env env, const char* role, const Napi::Value& name, void* core);
  template <typename Fn>
  Resolved<Fn> Get(Napi::Env env, const char* role) const {
    const Entry& entry = Find(env, role);
    void* address = entry.address ? entry.address : entry.core;
    if (!address) ThrowMissingEntryPoint(env, entry.name.c_str());
    return {reinterpret_cast<Fn>(address), entry.name.c_str()};
  }
  cl_platform_id platform() const { return platform_; }
  Napi::Array Missing(Napi::Env env) const;

 private:
  struct Entry {
    std::string role;
    std::string name;
    void* address;
    void* core = nullptr;
    bool isCore = false;
  };
  void* Resolve(Napi::Env env, const std::string& name) const;
  const Entry& Find(Napi::Env env, const char* role) const;
  cl_platform_id platform_;
  bool legacy_;
  std::vector<Entry> entries_;
};

// Count, then fill; CL_DEVICE_NOT_FOUND surfaces as an error (lib/ maps it to []).
Napi::Value QueryDevices(Napi::Env env, Resolved<DeviceIdsFn> entry, cl_platform_id platform, cl_uint source, void* object, cl_uint set);
// Wraps a created cl_mem or throws the creation error.
Napi::Value WrapCreated(Napi::Env env, const char* call, cl_mem mem, cl_int status);
// Calls a creating entry point (status through its last argument): the cl_mem it made, wrapped, or its error.
template <typename Fn, typename... Args>
Napi::Value CreateMem(Napi::Env env, const Resolved<Fn>& entry, Args&&... args) {
  cl_int status = CL_SUCCESS;
  cl_mem mem = entry.fn(std::forward<Args>(args)..., &status);
  return WrapCreated(env, entry.call, mem, status);
}
// Runs an acquire/release entry point over NativeMem objects:
// (queue, mems: NativeMem[], waitList) -> NativeEvent. `enqueued(queue, mems,
// event)` runs once the driver has taken the command and before any
// JavaScript value is made: a worker being terminated fails that making, and
// what the driver took must be on record by then (a terminated worker's
// acquire that missed its record was destroyed acquired: the reference
// driver, as NVIDIA, then blocks for ever).
template <typename Fn, typename Enqueued = std::nullptr_t>
Napi::Value AcquireOrRelease(const Napi::CallbackInfo& info, Resolved<Fn> entry, Enqueued enqueued = nullptr) {
  auto [fn, call] = entry;
  Napi::Env env = info.Env();
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  std::vector<cl_mem> mems = NativeMem::FromArray(info[1], "memory objects");
  Enqueue op(info[2]);
  Check(env, fn(queue, static_cast<cl_uint>(mems.size()), mems.empty() ? nullptr : mems.data(), op.count(), op.list(), &op.event), call);
  if constexpr (!std::is_same_v<Enqueued, std::nullptr_t>) enqueued(queue, mems, op.event);
  return op.Result(env);
}

// Base of the Native*Sharing classes: an ObjectWrap built from
// (platform: NativePlatform, legacy: boolean, entryPoints: { role: name })
// with a `missing` accessor.
template <typename Derived>
class SharingBase : public Napi::ObjectWrap<Derived> {
 public:
  explicit SharingBase(const Napi::CallbackInfo& info)
      : Napi::ObjectWrap<Derived>(info), entries_(info.Env(), info[0], info[1].ToBoolean(), info[2]) {}

 protected:
  static void Register(Napi::Env env, Napi::Object exports, const char* name, std::vector<Napi::ClassPropertyDescriptor<Derived>> members) {
    members.push_back(Napi::ObjectWrap<Derived>::InstanceAccessor("missing", &SharingBase::MissingGetter, nullptr));
    exports.Set(name, Napi::ObjectWrap<Derived>::DefineClass(env, name, members));
  }
  template <typename Fn>
  Resolved<Fn> Entry(Napi::Env env, const char* role) const {
    return entries_.template Get<Fn>(env, role);
  }
  void AddCoreEntry(Napi::Env env, const char* role, const Napi::Value& name, void* core) { entries_.AddCore(env, role, name, core); }
  cl_platform_id platform() const { return entries_.platform(); }

 private:
  Napi::Value MissingGetter(const Napi::CallbackInfo& info) { return entries_.Missing(info.Env()); }
  EntryPoints entries_;
};

inline cl_mem_flags FlagsArg(const Napi::Value& v) { return ToU64(v, "flags"); }

// A property list of the *WithProperties calls (cl_mem_properties,
// cl_semaphore_properties_khr: 64-bit values ending in 0), from JS
// [[name, value], ...]. A value is a number or bigint; a string (stored here
// as UTF-16 with a terminating 0, passed as its address: the Win32 NAME
// handle types); or an array of NativeDevice / numbers, written out and ended
// with a 0 (the device handle lists, the export handle type list).
class PropertyList {
 public:
  PropertyList(const Napi::Value& pairs, const char* what);
  const cl_ulong* data() const { return values_.empty() ? nullptr : values_.data(); }

 private:
  std::vector<cl_ulong> values_;
  std::vector<std::unique_ptr<std::u16string>> strings_;
};

void InitExternalMemory(Napi::Env env, Napi::Object exports);
void InitSemaphores(Napi::Env env, Napi::Object exports);

// Registration of each extension's file; extensions.cc (InitInterop) calls them.
void InitNvD3D9(Napi::Env env, Napi::Object exports);
void InitD3D10(Napi::Env env, Napi::Object exports);
void InitD3D11(Napi::Env env, Napi::Object exports);
void InitIntelDX9(Napi::Env env, Napi::Object exports);
void InitKhrDX9Media(Napi::Env env, Napi::Object exports);
void InitIntelVaApi(Napi::Env env, Napi::Object exports);

}  // namespace ocl
