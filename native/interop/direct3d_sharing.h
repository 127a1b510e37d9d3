// cl_khr_d3d10_sharing, cl_khr_d3d11_sharing and cl_nv_d3d11_sharing have the
// same entry point shapes: device query, buffer, 2D and 3D texture subresource,
// acquire and release. d3d10.cc and d3d11.cc each register this class under
// their own name; the record (lib/interop/extensions.ts) gives the entry point
// names (OpenCV's cl_d3d11_ext.h declares the NV release with a non-const
// cl_mem*, the same ABI).
#pragma once

#include "interop/sharing.h"

namespace ocl {

// What tells the registered classes apart: the JS class name, and the device query's object (for errors).
struct Direct3DNames {
  const char* jsClass;
  const char* object;
};

template <const Direct3DNames& names>
class NativeDirect3DSharing : public SharingBase<NativeDirect3DSharing<names>> {
 public:
  using Base = SharingBase<NativeDirect3DSharing>;
  explicit NativeDirect3DSharing(const Napi::CallbackInfo& info) : Base(info) {}

  static void Init(Napi::Env env, Napi::Object exports) {
    Base::Register(
        env, exports, names.jsClass,
        {Base::InstanceMethod("deviceIds", &NativeDirect3DSharing::DeviceIds),
         Base::InstanceMethod("createFromBuffer", &NativeDirect3DSharing::CreateBuffer),
         Base::InstanceMethod("createFromTexture2D", &NativeDirect3DSharing::CreateTexture2D),
         Base::InstanceMethod("createFromTexture3D", &NativeDirect3DSharing::CreateTexture3D),
         Base::InstanceMethod("acquire", &NativeDirect3DSharing::Acquire), Base::InstanceMethod("release", &NativeDirect3DSharing::Release)});
  }

 private:
  using CreateBufferFn = cl_mem(OCL_CALL*)(cl_context, cl_mem_flags, void*, cl_int*);
  using CreateSubresourceFn = cl_mem(OCL_CALL*)(cl_context, cl_mem_flags, void*, cl_uint, cl_int*);

  // deviceIds(source, object: bigint, set)
  Napi::Value DeviceIds(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    return QueryDevices(env, this->template Entry<DeviceIdsFn>(env, "deviceIds"), this->platform(), ToU32(info[0], "source"),
                        ToPointer(info[1], names.object), ToU32(info[2], "set"));
  }
  Napi::Value CreateBuffer(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    auto entry = this->template Entry<CreateBufferFn>(env, "buffer");
    return CreateMem(env, entry, NativeContext::From(info[0], "context"), FlagsArg(info[1]), ToPointer(info[2], "resource"));
  }
  // (context, flags, resource, subresource)
  Napi::Value CreateSubresource(const Napi::CallbackInfo& info, const char* role) {
    Napi::Env env = info.Env();
    auto entry = this->template Entry<CreateSubresourceFn>(env, role);
    return CreateMem(env, entry, NativeContext::From(info[0], "context"), FlagsArg(info[1]), ToPointer(info[2], "resource"),
                     ToU32(info[3], "subresource"));
  }
  Napi::Value CreateTexture2D(const Napi::CallbackInfo& info) { return CreateSubresource(info, "texture2D"); }
  Napi::Value CreateTexture3D(const Napi::CallbackInfo& info) { return CreateSubresource(info, "texture3D"); }
  Napi::Value Acquire(const Napi::CallbackInfo& info) { return AcquireOrRelease(info, this->template Entry<AcquireFn>(info.Env(), "acquire")); }
  Napi::Value Release(const Napi::CallbackInfo& info) { return AcquireOrRelease(info, this->template Entry<AcquireFn>(info.Env(), "release")); }
};

}  // namespace ocl
