// cl_intel_dx9_media_sharing: DX9 media surfaces (NV12 / YV12 planes) via Intel's entry points.
#include "interop/sharing.h"

namespace ocl {
namespace {

using CreateSurfaceFn = cl_mem(OCL_CALL*)(cl_context, cl_mem_flags, void*, void*, cl_uint, cl_int*);

class NativeIntelDX9Sharing : public SharingBase<NativeIntelDX9Sharing> {
 public:
  explicit NativeIntelDX9Sharing(const Napi::CallbackInfo& info) : SharingBase(info) {}

  static void Init(Napi::Env env, Napi::Object exports) {
    Register(env, exports, "NativeIntelDX9Sharing",
             {InstanceMethod("deviceIds", &NativeIntelDX9Sharing::DeviceIds),
              InstanceMethod("createFromMediaSurface", &NativeIntelDX9Sharing::CreateSurface),
              InstanceMethod("acquire", &NativeIntelDX9Sharing::Acquire), InstanceMethod("release", &NativeIntelDX9Sharing::Release)});
  }

 private:
  // deviceIds(source, object: bigint, set)
  Napi::Value DeviceIds(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    return QueryDevices(env, Entry<DeviceIdsFn>(env, "deviceIds"), platform(), ToU32(info[0], "source"), ToPointer(info[1], "DX9 object"),
                        ToU32(info[2], "set"));
  }
  // createFromMediaSurface(context, flags, resource, sharedHandle, plane)
  Napi::Value CreateSurface(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    auto entry = Entry<CreateSurfaceFn>(env, "mediaSurface");
    return CreateMem(env, entry, NativeContext::From(info[0], "context"), FlagsArg(info[1]), ToPointer(info[2], "resource"),
                     ToPointer(info[3], "shared handle"), ToU32(info[4], "plane"));
  }
  Napi::Value Acquire(const Napi::CallbackInfo& info) { return AcquireOrRelease(info, Entry<AcquireFn>(info.Env(), "acquire")); }
  Napi::Value Release(const Napi::CallbackInfo& info) { return AcquireOrRelease(info, Entry<ReleaseMutableFn>(info.Env(), "release")); }
};

}  // namespace

void InitIntelDX9(Napi::Env env, Napi::Object exports) { NativeIntelDX9Sharing::Init(env, exports); }

}  // namespace ocl
