// Shared machinery of the five sharing-extension files (nv_d3d9.cc,
// khr_d3d10.cc, intel_dx9.cc, khr_dx9_media.cc, intel_va_api.cc). Each
// extension object resolves its entry points for one platform, once, through
// clGetExtensionFunctionAddressForPlatform (clGetExtensionFunctionAddress on
// OpenCL 1.1 platforms); lib/interop caches one object per platform.
#pragma once

#include "objects.h"

namespace ocl {

using AcquireFn = cl_int(OCL_CALL*)(cl_command_queue, cl_uint, const cl_mem*, cl_uint, const cl_event*, cl_event*);
// cl_nv_d3d9_sharing and cl_intel_dx9_media_sharing declare release with a
// non-const cl_mem*.
using ReleaseMutableFn = cl_int(OCL_CALL*)(cl_command_queue, cl_uint, cl_mem*, cl_uint, const cl_event*, cl_event*);
// clGetDeviceIDsFrom{D3D9NV, D3D10KHR, DX9INTEL, VA_APIMediaAdapterINTEL}
using DeviceIdsFn = cl_int(OCL_CALL*)(cl_platform_id, cl_uint, void*, cl_uint, cl_uint, cl_device_id*, cl_uint*);

// Entry points of one extension for one platform.
class EntryPoints {
 public:
  EntryPoints(Napi::Env env, const Napi::Value& platform, bool legacy, std::initializer_list<const char*> names);
  template <typename Fn>
  Fn Get(Napi::Env env, size_t index) const {
    if (!addresses_[index]) ThrowMissingEntryPoint(env, names_[index]);
    return reinterpret_cast<Fn>(addresses_[index]);
  }
  cl_platform_id platform() const { return platform_; }
  Napi::Array Missing(Napi::Env env) const;

 private:
  cl_platform_id platform_;
  std::vector<const char*> names_;
  std::vector<void*> addresses_;
};

// Count, then fill; CL_DEVICE_NOT_FOUND surfaces as an error (lib/ maps it to []).
Napi::Value QueryDevices(Napi::Env env, const char* call, DeviceIdsFn fn, cl_platform_id platform, cl_uint source,
                         void* object, cl_uint set);
// Wraps a created cl_mem or throws the creation error.
Napi::Value WrapCreated(Napi::Env env, const char* call, cl_mem mem, cl_int status);
// Runs an acquire/release entry point over NativeMem objects:
// (queue, mems: NativeMem[], waitList) -> NativeEvent.
template <typename Fn>
Napi::Value AcquireOrRelease(const Napi::CallbackInfo& info, const char* call, Fn fn) {
  Napi::Env env = info.Env();
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  std::vector<cl_mem> mems = NativeMem::FromArray(info[1], "memory objects");
  Enqueue op(info[2]);
  Check(env, fn(queue, static_cast<cl_uint>(mems.size()), mems.empty() ? nullptr : mems.data(), op.count(), op.list(),
                &op.event),
        call);
  return op.Result(env);
}

// Base of the Native*Sharing classes: an ObjectWrap built from
// (platform: NativePlatform, legacy: boolean) with a `missing` accessor.
template <typename Derived>
class SharingBase : public Napi::ObjectWrap<Derived> {
 public:
  SharingBase(const Napi::CallbackInfo& info, std::initializer_list<const char*> names)
      : Napi::ObjectWrap<Derived>(info), entries_(info.Env(), info[0], info[1].ToBoolean(), names) {}

 protected:
  static void Register(Napi::Env env, Napi::Object exports, const char* name,
                       std::vector<Napi::ClassPropertyDescriptor<Derived>> members) {
    members.push_back(Napi::ObjectWrap<Derived>::InstanceAccessor("missing", &SharingBase::MissingGetter, nullptr));
    exports.Set(name, Napi::ObjectWrap<Derived>::DefineClass(env, name, members));
  }
  template <typename Fn>
  Fn Entry(Napi::Env env, size_t index) const {
    return entries_.template Get<Fn>(env, index);
  }
  cl_platform_id platform() const { return entries_.platform(); }

 private:
  Napi::Value MissingGetter(const Napi::CallbackInfo& info) { return entries_.Missing(info.Env()); }
  EntryPoints entries_;
};

inline cl_mem_flags FlagsArg(const Napi::Value& v) { return ToU64(v, "flags"); }
inline cl_uint UintArg(const Napi::Value& v, const char* what) {
  uint64_t value = ToU64(v, what);
  if (value > 0xffffffffULL) throw Napi::RangeError::New(v.Env(), std::string(what) + " does not fit in 32 bits");
  return static_cast<cl_uint>(value);
}

void InitNvD3D9(Napi::Env env, Napi::Object exports);
void InitKhrD3D10(Napi::Env env, Napi::Object exports);
void InitIntelDX9(Napi::Env env, Napi::Object exports);
void InitKhrDX9Media(Napi::Env env, Napi::Object exports);
void InitIntelVaApi(Napi::Env env, Napi::Object exports);

}  // namespace ocl
