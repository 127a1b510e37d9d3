// Devices (twin of lib/device.ts): the wrapped cl_device_id and its queries;
// platforms list them (platform.cc).
#include "objects.h"

namespace ocl {

const napi_type_tag NativeDevice::kTypeTag = {0x6f636c2d64657669ULL, 0x6365000000000002ULL};

Napi::Value NativeDevice::Info(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return InfoBytes(info, Checked(env), OCL_ENTRY(env, clGetDeviceInfo));
}

void NativeDevice::Init(Napi::Env env, Napi::Object exports) { Register(env, exports, kName, {InstanceMethod("info", &NativeDevice::Info)}); }

void InitDevice(Napi::Env env, Napi::Object exports) { NativeDevice::Init(env, exports); }

}  // namespace ocl
