// cl_khr_d3d10_sharing: Direct3D 10 buffers, 2D and 3D textures.
#include "sharing.h"

namespace ocl {
namespace {

using CreateBufferFn = cl_mem(OCL_CALL*)(cl_context, cl_mem_flags, void*, cl_int*);
using CreateSubresourceFn = cl_mem(OCL_CALL*)(cl_context, cl_mem_flags, void*, cl_uint, cl_int*);

enum Slot { kDeviceIds, kBuffer, kTexture2D, kTexture3D, kAcquire, kRelease };

class NativeKhrD3D10Sharing : public SharingBase<NativeKhrD3D10Sharing> {
 public:
  explicit NativeKhrD3D10Sharing(const Napi::CallbackInfo& info)
      : SharingBase(info, {"clGetDeviceIDsFromD3D10KHR", "clCreateFromD3D10BufferKHR",
                           "clCreateFromD3D10Texture2DKHR", "clCreateFromD3D10Texture3DKHR",
                           "clEnqueueAcquireD3D10ObjectsKHR", "clEnqueueReleaseD3D10ObjectsKHR"}) {}

  static void Init(Napi::Env env, Napi::Object exports) {
    Register(env, exports, "NativeKhrD3D10Sharing",
             {InstanceMethod("deviceIds", &NativeKhrD3D10Sharing::DeviceIds),
              InstanceMethod("createFromBuffer", &NativeKhrD3D10Sharing::CreateBuffer),
              InstanceMethod("createFromTexture2D", &NativeKhrD3D10Sharing::CreateTexture2D),
              InstanceMethod("createFromTexture3D", &NativeKhrD3D10Sharing::CreateTexture3D),
              InstanceMethod("acquire", &NativeKhrD3D10Sharing::Acquire),
              InstanceMethod("release", &NativeKhrD3D10Sharing::Release)});
  }

 private:
  // deviceIds(source, object: bigint, set)
  Napi::Value DeviceIds(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    return QueryDevices(env, "clGetDeviceIDsFromD3D10KHR", Entry<DeviceIdsFn>(env, kDeviceIds), platform(),
                        UintArg(info[0], "source"), ToPointer(info[1], "D3D10 object"), UintArg(info[2], "set"));
  }
  Napi::Value CreateBuffer(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    auto fn = Entry<CreateBufferFn>(env, kBuffer);
    cl_int status = CL_SUCCESS;
    cl_mem mem = fn(NativeContext::From(info[0], "context"), FlagsArg(info[1]), ToPointer(info[2], "resource"), &status);
    return WrapCreated(env, "clCreateFromD3D10BufferKHR", mem, status);
  }
  // (context, flags, resource, subresource)
  Napi::Value CreateSubresource(const Napi::CallbackInfo& info, Slot entry, const char* call) {
    Napi::Env env = info.Env();
    auto fn = Entry<CreateSubresourceFn>(env, entry);
    cl_int status = CL_SUCCESS;
    cl_mem mem = fn(NativeContext::From(info[0], "context"), FlagsArg(info[1]), ToPointer(info[2], "resource"),
                    UintArg(info[3], "subresource"), &status);
    return WrapCreated(env, call, mem, status);
  }
  Napi::Value CreateTexture2D(const Napi::CallbackInfo& info) {
    return CreateSubresource(info, kTexture2D, "clCreateFromD3D10Texture2DKHR");
  }
  Napi::Value CreateTexture3D(const Napi::CallbackInfo& info) {
    return CreateSubresource(info, kTexture3D, "clCreateFromD3D10Texture3DKHR");
  }
  Napi::Value Acquire(const Napi::CallbackInfo& info) {
    return AcquireOrRelease(info, "clEnqueueAcquireD3D10ObjectsKHR", Entry<AcquireFn>(info.Env(), kAcquire));
  }
  Napi::Value Release(const Napi::CallbackInfo& info) {
    return AcquireOrRelease(info, "clEnqueueReleaseD3D10ObjectsKHR", Entry<AcquireFn>(info.Env(), kRelease));
  }
};

}  // namespace

void InitKhrD3D10(Napi::Env env, Napi::Object exports) { NativeKhrD3D10Sharing::Init(env, exports); }

}  // namespace ocl
