// Platforms (twin of lib/platform.ts): enumeration, their devices, queries
// and the lookup of extension entry points by name.
#include <mutex>

#include "objects.h"

namespace ocl {

namespace {
// Drivers set themselves up on first enumeration, and not all of them do so
// thread-safely (PoCL 3.1 reports CL_DEVICE_NOT_FOUND to a second worker
// thread that enumerates at the same moment). Enumeration is rare: serialize it.
std::mutex enumerationMutex;
}  // namespace

const napi_type_tag NativePlatform::kTypeTag = {0x6f636c2d706c6174ULL, 0x666f726d00000001ULL};

Napi::Value NativePlatform::Info(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return InfoBytes(info, Checked(env), OCL_ENTRY(env, clGetPlatformInfo));
}

// devices(type: bigint) -> NativeDevice[]; CL_DEVICE_NOT_FOUND surfaces as an error.
Napi::Value NativePlatform::Devices(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_platform_id platform = Checked(env);
  cl_device_type type = ToU64(info[0], "type");
  auto entry = OCL_ENTRY(env, clGetDeviceIDs);
  std::lock_guard<std::mutex> lock(enumerationMutex);
  cl_uint count = 0;
  CheckCall(env, entry, platform, type, 0, nullptr, &count);
  std::vector<cl_device_id> devices(count);
  if (count) CheckCall(env, entry, platform, type, count, devices.data(), nullptr);
  Napi::Array result = Napi::Array::New(env, devices.size());
  for (uint32_t i = 0; i < devices.size(); ++i) result.Set(i, NativeDevice::Wrap(env, devices[i]));
  return result;
}

// extensionFunction(name, legacy) -> bigint address (0n when unresolved).
// legacy=true uses clGetExtensionFunctionAddress (OpenCL 1.1 platforms).
Napi::Value NativePlatform::ExtensionFunction(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_platform_id platform = Checked(env);
  std::string name = info[0].As<Napi::String>();
  bool legacy = info[1].ToBoolean();
  void* address = legacy ? OCL_FN(env, clGetExtensionFunctionAddress)(name.c_str())
                         : OCL_FN(env, clGetExtensionFunctionAddressForPlatform)(platform, name.c_str());
  return FromPointer(env, address);
}

void NativePlatform::Init(Napi::Env env, Napi::Object exports) {
  Register(env, exports, kName,
           {InstanceMethod("info", &NativePlatform::Info), InstanceMethod("devices", &NativePlatform::Devices),
            InstanceMethod("extensionFunction", &NativePlatform::ExtensionFunction)});
}

namespace {
Napi::Value GetPlatformIDs(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto entry = OCL_ENTRY(env, clGetPlatformIDs);
  std::lock_guard<std::mutex> lock(enumerationMutex);
  cl_uint count = 0;
  CheckCall(env, entry, 0, nullptr, &count);
  std::vector<cl_platform_id> platforms(count);
  if (count) CheckCall(env, entry, count, platforms.data(), nullptr);
  Napi::Array result = Napi::Array::New(env, platforms.size());
  for (uint32_t i = 0; i < platforms.size(); ++i) result.Set(i, NativePlatform::Wrap(env, platforms[i]));
  return result;
}
}  // namespace

void InitPlatform(Napi::Env env, Napi::Object exports) {
  NativePlatform::Init(env, exports);
  exports.Set("getPlatformIDs", Napi::Function::New(env, GetPlatformIDs, "getPlatformIDs"));
}

}  // namespace ocl
