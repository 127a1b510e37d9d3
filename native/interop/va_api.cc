// cl_intel_va_api_media_sharing: VA-API video surfaces (NV12 planes).
#include "interop/sharing.h"

namespace ocl {
namespace {

using VASurfaceID = uint32_t;
using CreateSurfaceFn = cl_mem(OCL_CALL*)(cl_context, cl_mem_flags, VASurfaceID*, cl_uint, cl_int*);

class NativeIntelVaApiSharing : public SharingBase<NativeIntelVaApiSharing> {
 public:
  explicit NativeIntelVaApiSharing(const Napi::CallbackInfo& info) : SharingBase(info) {}

  static void Init(Napi::Env env, Napi::Object exports) {
    Register(env, exports, "NativeIntelVaApiSharing",
             {InstanceMethod("deviceIds", &NativeIntelVaApiSharing::DeviceIds),
              InstanceMethod("createFromSurface", &NativeIntelVaApiSharing::CreateSurface),
              InstanceMethod("acquire", &NativeIntelVaApiSharing::Acquire), InstanceMethod("release", &NativeIntelVaApiSharing::Release)});
  }

 private:
  // deviceIds(source, display: bigint, set): the VADisplay itself is passed.
  Napi::Value DeviceIds(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    return QueryDevices(env, Entry<DeviceIdsFn>(env, "deviceIds"), platform(), ToU32(info[0], "source"), ToPointer(info[1], "VA display"),
                        ToU32(info[2], "set"));
  }
  // createFromSurface(context, flags, surfaceId: number, plane). Drivers may
  // keep the VASurfaceID* they are given, so the id lives in storage owned by
  // the memory object for its whole life.
  Napi::Value CreateSurface(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    auto [fn, call] = Entry<CreateSurfaceFn>(env, "surface");
    std::unique_ptr<uint8_t[]> storage(new uint8_t[sizeof(VASurfaceID)]);
    VASurfaceID id = ToU32(info[2], "surface id");
    std::memcpy(storage.get(), &id, sizeof(id));
    cl_int status = CL_SUCCESS;
    cl_mem mem = fn(NativeContext::From(info[0], "context"), FlagsArg(info[1]), reinterpret_cast<VASurfaceID*>(storage.get()),
                    ToU32(info[3], "plane"), &status);
    Napi::Value wrapped = WrapCreated(env, call, mem, status);
    NativeMem::Unwrap(wrapped.As<Napi::Object>())->ownedStorage = std::move(storage);
    return wrapped;
  }
  Napi::Value Acquire(const Napi::CallbackInfo& info) { return AcquireOrRelease(info, Entry<AcquireFn>(info.Env(), "acquire")); }
  Napi::Value Release(const Napi::CallbackInfo& info) { return AcquireOrRelease(info, Entry<AcquireFn>(info.Env(), "release")); }
};

}  // namespace

void InitIntelVaApi(Napi::Env env, Napi::Object exports) { NativeIntelVaApiSharing::Init(env, exports); }

}  // namespace ocl
