// cl_nv_d3d9_sharing: Direct3D 9 buffers, surfaces, textures, cube and volume textures.
#include "interop/sharing.h"

namespace ocl {
namespace {

using CreateBufferFn = cl_mem(OCL_CALL*)(cl_context, cl_mem_flags, void*, cl_int*);
using CreateLevelFn = cl_mem(OCL_CALL*)(cl_context, cl_mem_flags, void*, cl_uint, cl_int*);
using CreateCubeFn = cl_mem(OCL_CALL*)(cl_context, cl_mem_flags, void*, cl_uint, cl_uint, cl_int*);

class NativeNvD3D9Sharing : public SharingBase<NativeNvD3D9Sharing> {
 public:
  explicit NativeNvD3D9Sharing(const Napi::CallbackInfo& info) : SharingBase(info) {}

  static void Init(Napi::Env env, Napi::Object exports) {
    Register(env, exports, "NativeNvD3D9Sharing",
             {InstanceMethod("deviceIds", &NativeNvD3D9Sharing::DeviceIds),
              InstanceMethod("createFromVertexBuffer", &NativeNvD3D9Sharing::CreateVertexBuffer),
              InstanceMethod("createFromIndexBuffer", &NativeNvD3D9Sharing::CreateIndexBuffer),
              InstanceMethod("createFromSurface", &NativeNvD3D9Sharing::CreateSurface),
              InstanceMethod("createFromTexture", &NativeNvD3D9Sharing::CreateTexture),
              InstanceMethod("createFromCubeTexture", &NativeNvD3D9Sharing::CreateCubeTexture),
              InstanceMethod("createFromVolumeTexture", &NativeNvD3D9Sharing::CreateVolumeTexture),
              InstanceMethod("acquire", &NativeNvD3D9Sharing::Acquire), InstanceMethod("release", &NativeNvD3D9Sharing::Release)});
  }

 private:
  // deviceIds(source, object: bigint | string, set): a device pointer, or an
  // adapter name for CL_D3D9_ADAPTER_NAME_NV.
  Napi::Value DeviceIds(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    auto [fn, call] = Entry<DeviceIdsFn>(env, "deviceIds");
    std::string name;
    void* object = nullptr;
    if (info[1].IsString()) {
      name = info[1].As<Napi::String>().Utf8Value();
      object = name.data();
    } else {
      object = ToPointer(info[1], "D3D9 object");
    }
    return QueryDevices(env, {fn, call}, platform(), ToU32(info[0], "source"), object, ToU32(info[2], "set"));
  }
  Napi::Value CreateBufferLike(const Napi::CallbackInfo& info, const char* role) {
    Napi::Env env = info.Env();
    auto entry = Entry<CreateBufferFn>(env, role);
    return CreateMem(env, entry, NativeContext::From(info[0], "context"), FlagsArg(info[1]), ToPointer(info[2], "resource"));
  }
  Napi::Value CreateVertexBuffer(const Napi::CallbackInfo& info) { return CreateBufferLike(info, "vertexBuffer"); }
  Napi::Value CreateIndexBuffer(const Napi::CallbackInfo& info) { return CreateBufferLike(info, "indexBuffer"); }
  Napi::Value CreateSurface(const Napi::CallbackInfo& info) { return CreateBufferLike(info, "surface"); }
  Napi::Value CreateLevel(const Napi::CallbackInfo& info, const char* role) {
    Napi::Env env = info.Env();
    auto entry = Entry<CreateLevelFn>(env, role);
    return CreateMem(env, entry, NativeContext::From(info[0], "context"), FlagsArg(info[1]), ToPointer(info[2], "resource"),
                     ToU32(info[3], "miplevel"));
  }
  Napi::Value CreateTexture(const Napi::CallbackInfo& info) { return CreateLevel(info, "texture"); }
  Napi::Value CreateVolumeTexture(const Napi::CallbackInfo& info) { return CreateLevel(info, "volumeTexture"); }
  // createFromCubeTexture(context, flags, resource, face, miplevel)
  Napi::Value CreateCubeTexture(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    auto entry = Entry<CreateCubeFn>(env, "cubeTexture");
    return CreateMem(env, entry, NativeContext::From(info[0], "context"), FlagsArg(info[1]), ToPointer(info[2], "resource"), ToU32(info[3], "face"),
                     ToU32(info[4], "miplevel"));
  }
  Napi::Value Acquire(const Napi::CallbackInfo& info) { return AcquireOrRelease(info, Entry<AcquireFn>(info.Env(), "acquire")); }
  Napi::Value Release(const Napi::CallbackInfo& info) { return AcquireOrRelease(info, Entry<ReleaseMutableFn>(info.Env(), "release")); }
};

}  // namespace

void InitNvD3D9(Napi::Env env, Napi::Object exports) { NativeNvD3D9Sharing::Init(env, exports); }

}  // namespace ocl
