// cl_khr_d3d10_sharing: Direct3D 10 buffers, 2D and 3D textures.
#include "sharing.h"

namespace ocl {
namespace {

using CreateBufferFn = cl_mem(OCL_CALL*)(cl_context, cl_mem_flags, void*, cl_int*);
using CreateSubresourceFn = cl_mem(OCL_CALL*)(cl_context, cl_mem_flags, void*, cl_uint, cl_int*);


class NativeD3D10Sharing : public SharingBase<NativeD3D10Sharing> {
 public:
  explicit NativeD3D10Sharing(const Napi::CallbackInfo& info)
      : SharingBase(info) {}

  static void Init(Napi::Env env, Napi::Object exports) {
    Register(env, exports, "NativeD3D10Sharing",
             {InstanceMethod("deviceIds", &NativeD3D10Sharing::DeviceIds),
              InstanceMethod("createFromBuffer", &NativeD3D10Sharing::CreateBuffer),
              InstanceMethod("createFromTexture2D", &NativeD3D10Sharing::CreateTexture2D),
              InstanceMethod("createFromTexture3D", &NativeD3D10Sharing::CreateTexture3D),
              InstanceMethod("acquire", &NativeD3D10Sharing::Acquire),
              InstanceMethod("release", &NativeD3D10Sharing::Release)});
  }

 private:
  // deviceIds(source, object: bigint, set)
  Napi::Value DeviceIds(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    return QueryDevices(env, Entry<DeviceIdsFn>(env, "deviceIds"), platform(),
                        UintArg(info[0], "source"), ToPointer(info[1], "D3D10 object"), UintArg(info[2], "set"));
  }
  Napi::Value CreateBuffer(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    auto [fn, call] = Entry<CreateBufferFn>(env, "buffer");
    cl_int status = CL_SUCCESS;
    cl_mem mem = fn(NativeContext::From(info[0], "context"), FlagsArg(info[1]), ToPointer(info[2], "resource"), &status);
    return WrapCreated(env, call, mem, status);
  }
  // (context, flags, resource, subresource)
  Napi::Value CreateSubresource(const Napi::CallbackInfo& info, const char* role) {
    Napi::Env env = info.Env();
    auto [fn, call] = Entry<CreateSubresourceFn>(env, role);
    cl_int status = CL_SUCCESS;
    cl_mem mem = fn(NativeContext::From(info[0], "context"), FlagsArg(info[1]), ToPointer(info[2], "resource"),
                    UintArg(info[3], "subresource"), &status);
    return WrapCreated(env, call, mem, status);
  }
  Napi::Value CreateTexture2D(const Napi::CallbackInfo& info) {
    return CreateSubresource(info, "texture2D");
  }
  Napi::Value CreateTexture3D(const Napi::CallbackInfo& info) {
    return CreateSubresource(info, "texture3D");
  }
  Napi::Value Acquire(const Napi::CallbackInfo& info) {
    return AcquireOrRelease(info, Entry<AcquireFn>(info.Env(), "acquire"));
  }
  Napi::Value Release(const Napi::CallbackInfo& info) {
    return AcquireOrRelease(info, Entry<AcquireFn>(info.Env(), "release"));
  }
};

}  // namespace

void InitD3D10(Napi::Env env, Napi::Object exports) { NativeD3D10Sharing::Init(env, exports); }

}  // namespace ocl
