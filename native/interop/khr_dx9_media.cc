// cl_khr_dx9_media_sharing: DX9 media surfaces through arrays of KHR media adapters.
#include "interop/sharing.h"

namespace ocl {
namespace {

using DeviceIdsFn = cl_int(OCL_CALL*)(cl_platform_id, cl_uint, cl_uint*, void*, cl_uint, cl_uint, cl_device_id*, cl_uint*);
using CreateSurfaceFn = cl_mem(OCL_CALL*)(cl_context, cl_mem_flags, cl_uint, void*, cl_uint, cl_int*);

// cl_dx9_surface_info_khr
struct SurfaceInfo {
  void* resource;
  void* sharedHandle;
};

class NativeKhrDX9MediaSharing : public SharingBase<NativeKhrDX9MediaSharing> {
 public:
  explicit NativeKhrDX9MediaSharing(const Napi::CallbackInfo& info) : SharingBase(info) {}

  static void Init(Napi::Env env, Napi::Object exports) {
    Register(env, exports, "NativeKhrDX9MediaSharing",
             {InstanceMethod("deviceIds", &NativeKhrDX9MediaSharing::DeviceIds),
              InstanceMethod("createFromMediaSurface", &NativeKhrDX9MediaSharing::CreateSurface),
              InstanceMethod("acquire", &NativeKhrDX9MediaSharing::Acquire), InstanceMethod("release", &NativeKhrDX9MediaSharing::Release)});
  }

 private:
  // deviceIds(adapterTypes: number[], adapters: bigint[], set)
  Napi::Value DeviceIds(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    auto [fn, call] = Entry<DeviceIdsFn>(env, "deviceIds");
    if (!info[0].IsArray() || !info[1].IsArray() || info[0].As<Napi::Array>().Length() != info[1].As<Napi::Array>().Length()) {
      throw Napi::TypeError::New(env, "adapter types and adapters must be arrays of the same length");
    }
    auto typesIn = info[0].As<Napi::Array>();
    auto adaptersIn = info[1].As<Napi::Array>();
    std::vector<cl_uint> types;
    std::vector<void*> adapters;
    for (uint32_t i = 0; i < typesIn.Length(); ++i) {
      types.push_back(ToU32(typesIn.Get(i), "adapter type"));
      adapters.push_back(ToPointer(adaptersIn.Get(i), "adapter"));
    }
    cl_uint set = ToU32(info[2], "set");
    cl_uint n = static_cast<cl_uint>(types.size());
    cl_uint* typesPtr = types.empty() ? nullptr : types.data();
    void* adaptersPtr = adapters.empty() ? nullptr : adapters.data();
    cl_uint count = 0;
    Check(env, fn(platform(), n, typesPtr, adaptersPtr, set, 0, nullptr, &count), call);
    std::vector<cl_device_id> devices(count);
    if (count) Check(env, fn(platform(), n, typesPtr, adaptersPtr, set, count, devices.data(), &count), call);
    Napi::Array result = Napi::Array::New(env, count);
    for (cl_uint i = 0; i < count; ++i) result.Set(i, NativeDevice::Wrap(env, devices[i]));
    return result;
  }
  // createFromMediaSurface(context, flags, adapterType, resource, sharedHandle, plane)
  Napi::Value CreateSurface(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    auto entry = Entry<CreateSurfaceFn>(env, "mediaSurface");
    SurfaceInfo surface{ToPointer(info[3], "resource"), ToPointer(info[4], "shared handle")};
    return CreateMem(env, entry, NativeContext::From(info[0], "context"), FlagsArg(info[1]), ToU32(info[2], "adapter type"), &surface,
                     ToU32(info[5], "plane"));
  }
  Napi::Value Acquire(const Napi::CallbackInfo& info) { return AcquireOrRelease(info, Entry<AcquireFn>(info.Env(), "acquire")); }
  Napi::Value Release(const Napi::CallbackInfo& info) { return AcquireOrRelease(info, Entry<AcquireFn>(info.Env(), "release")); }
};

}  // namespace

void InitKhrDX9Media(Napi::Env env, Napi::Object exports) { NativeKhrDX9MediaSharing::Init(env, exports); }

}  // namespace ocl
