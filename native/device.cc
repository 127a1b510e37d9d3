#include "objects.h"

namespace ocl {

const napi_type_tag NativeDevice::kTypeTag = {0x6f636c2d64657669ULL, 0x6365000000000002ULL};

Napi::Value NativeDevice::Info(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_device_id device = Checked(env);
  cl_uint param = static_cast<cl_uint>(ToU64(info[0], "param"));
  auto fn = OCL_FN(env, clGetDeviceInfo);
  return QueryBytes(env, "clGetDeviceInfo",
                    [&](size_t size, void* out, size_t* sizeRet) { return fn(device, param, size, out, sizeRet); });
}

void NativeDevice::Init(Napi::Env env, Napi::Object exports) {
  Register(env, exports, kName, {InstanceMethod("info", &NativeDevice::Info)});
}

void InitDevice(Napi::Env env, Napi::Object exports) { NativeDevice::Init(env, exports); }

}  // namespace ocl
