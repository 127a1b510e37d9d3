// cl_khr_d3d11_sharing and cl_nv_d3d11_sharing: Direct3D 11 buffers, 2D and 3D
// textures. One class for both: the record (lib/interop/extensions.ts) gives the
// KHR or the NV entry point names; the signatures are the same (OpenCV's
// cl_d3d11_ext.h declares the NV release with a non-const cl_mem*, the same ABI).
#include "sharing.h"

namespace ocl {
namespace {

using CreateBufferFn = cl_mem(OCL_CALL*)(cl_context, cl_mem_flags, void*, cl_int*);
using CreateSubresourceFn = cl_mem(OCL_CALL*)(cl_context, cl_mem_flags, void*, cl_uint, cl_int*);


class NativeD3D11Sharing : public SharingBase<NativeD3D11Sharing> {
 public:
  explicit NativeD3D11Sharing(const Napi::CallbackInfo& info)
      : SharingBase(info) {}

  static void Init(Napi::Env env, Napi::Object exports) {
    Register(env, exports, "NativeD3D11Sharing",
             {InstanceMethod("deviceIds", &NativeD3D11Sharing::DeviceIds),
              InstanceMethod("createFromBuffer", &NativeD3D11Sharing::CreateBuffer),
              InstanceMethod("createFromTexture2D", &NativeD3D11Sharing::CreateTexture2D),
              InstanceMethod("createFromTexture3D", &NativeD3D11Sharing::CreateTexture3D),
              InstanceMethod("acquire", &NativeD3D11Sharing::Acquire),
              InstanceMethod("release", &NativeD3D11Sharing::Release)});
  }

 private:
  // deviceIds(source, object: bigint, set)
  Napi::Value DeviceIds(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    return QueryDevices(env, Entry<DeviceIdsFn>(env, "deviceIds"), platform(),
                        UintArg(info[0], "source"), ToPointer(info[1], "D3D11 object"), UintArg(info[2], "set"));
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

void InitD3D11(Napi::Env env, Napi::Object exports) { NativeD3D11Sharing::Init(env, exports); }

}  // namespace ocl
