// cl_nv_d3d9_sharing: Direct3D 9 buffers, surfaces, textures, cube and volume textures.
#include "sharing.h"

namespace ocl {
namespace {

using CreateBufferFn = cl_mem(OCL_CALL*)(cl_context, cl_mem_flags, void*, cl_int*);
using CreateLevelFn = cl_mem(OCL_CALL*)(cl_context, cl_mem_flags, void*, cl_uint, cl_int*);
using CreateCubeFn = cl_mem(OCL_CALL*)(cl_context, cl_mem_flags, void*, cl_uint, cl_uint, cl_int*);

enum Slot { kDeviceIds, kVertexBuffer, kIndexBuffer, kSurface, kTexture, kCubeTexture, kVolumeTexture, kAcquire, kRelease };

class NativeNvD3D9Sharing : public SharingBase<NativeNvD3D9Sharing> {
 public:
  explicit NativeNvD3D9Sharing(const Napi::CallbackInfo& info)
      : SharingBase(info, {"clGetDeviceIDsFromD3D9NV", "clCreateFromD3D9VertexBufferNV",
                           "clCreateFromD3D9IndexBufferNV", "clCreateFromD3D9SurfaceNV", "clCreateFromD3D9TextureNV",
                           "clCreateFromD3D9CubeTextureNV", "clCreateFromD3D9VolumeTextureNV",
                           "clEnqueueAcquireD3D9ObjectsNV", "clEnqueueReleaseD3D9ObjectsNV"}) {}

  static void Init(Napi::Env env, Napi::Object exports) {
    Register(env, exports, "NativeNvD3D9Sharing",
             {InstanceMethod("deviceIds", &NativeNvD3D9Sharing::DeviceIds),
              InstanceMethod("createFromVertexBuffer", &NativeNvD3D9Sharing::CreateVertexBuffer),
              InstanceMethod("createFromIndexBuffer", &NativeNvD3D9Sharing::CreateIndexBuffer),
              InstanceMethod("createFromSurface", &NativeNvD3D9Sharing::CreateSurface),
              InstanceMethod("createFromTexture", &NativeNvD3D9Sharing::CreateTexture),
              InstanceMethod("createFromCubeTexture", &NativeNvD3D9Sharing::CreateCubeTexture),
              InstanceMethod("createFromVolumeTexture", &NativeNvD3D9Sharing::CreateVolumeTexture),
              InstanceMethod("acquire", &NativeNvD3D9Sharing::Acquire),
              InstanceMethod("release", &NativeNvD3D9Sharing::Release)});
  }

 private:
  // deviceIds(source, object: bigint | string, set): a device pointer, or an
  // adapter name for CL_D3D9_ADAPTER_NAME_NV.
  Napi::Value DeviceIds(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    auto fn = Entry<DeviceIdsFn>(env, kDeviceIds);
    std::string name;
    void* object = nullptr;
    if (info[1].IsString()) {
      name = info[1].As<Napi::String>().Utf8Value();
      object = name.data();
    } else {
      object = ToPointer(info[1], "D3D9 object");
    }
    return QueryDevices(env, "clGetDeviceIDsFromD3D9NV", fn, platform(), UintArg(info[0], "source"), object,
                        UintArg(info[2], "set"));
  }
  Napi::Value CreateBufferLike(const Napi::CallbackInfo& info, Slot entry, const char* call) {
    Napi::Env env = info.Env();
    auto fn = Entry<CreateBufferFn>(env, entry);
    cl_int status = CL_SUCCESS;
    cl_mem mem = fn(NativeContext::From(info[0], "context"), FlagsArg(info[1]), ToPointer(info[2], "resource"), &status);
    return WrapCreated(env, call, mem, status);
  }
  Napi::Value CreateVertexBuffer(const Napi::CallbackInfo& info) {
    return CreateBufferLike(info, kVertexBuffer, "clCreateFromD3D9VertexBufferNV");
  }
  Napi::Value CreateIndexBuffer(const Napi::CallbackInfo& info) {
    return CreateBufferLike(info, kIndexBuffer, "clCreateFromD3D9IndexBufferNV");
  }
  Napi::Value CreateSurface(const Napi::CallbackInfo& info) {
    return CreateBufferLike(info, kSurface, "clCreateFromD3D9SurfaceNV");
  }
  Napi::Value CreateLevel(const Napi::CallbackInfo& info, Slot entry, const char* call) {
    Napi::Env env = info.Env();
    auto fn = Entry<CreateLevelFn>(env, entry);
    cl_int status = CL_SUCCESS;
    cl_mem mem = fn(NativeContext::From(info[0], "context"), FlagsArg(info[1]), ToPointer(info[2], "resource"),
                    UintArg(info[3], "miplevel"), &status);
    return WrapCreated(env, call, mem, status);
  }
  Napi::Value CreateTexture(const Napi::CallbackInfo& info) {
    return CreateLevel(info, kTexture, "clCreateFromD3D9TextureNV");
  }
  Napi::Value CreateVolumeTexture(const Napi::CallbackInfo& info) {
    return CreateLevel(info, kVolumeTexture, "clCreateFromD3D9VolumeTextureNV");
  }
  // createFromCubeTexture(context, flags, resource, face, miplevel)
  Napi::Value CreateCubeTexture(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    auto fn = Entry<CreateCubeFn>(env, kCubeTexture);
    cl_int status = CL_SUCCESS;
    cl_mem mem = fn(NativeContext::From(info[0], "context"), FlagsArg(info[1]), ToPointer(info[2], "resource"),
                    UintArg(info[3], "face"), UintArg(info[4], "miplevel"), &status);
    return WrapCreated(env, "clCreateFromD3D9CubeTextureNV", mem, status);
  }
  Napi::Value Acquire(const Napi::CallbackInfo& info) {
    return AcquireOrRelease(info, "clEnqueueAcquireD3D9ObjectsNV", Entry<AcquireFn>(info.Env(), kAcquire));
  }
  Napi::Value Release(const Napi::CallbackInfo& info) {
    return AcquireOrRelease(info, "clEnqueueReleaseD3D9ObjectsNV", Entry<ReleaseMutableFn>(info.Env(), kRelease));
  }
};

}  // namespace

void InitNvD3D9(Napi::Env env, Napi::Object exports) { NativeNvD3D9Sharing::Init(env, exports); }

}  // namespace ocl
