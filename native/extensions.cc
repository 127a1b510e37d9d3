#include "sharing.h"

namespace ocl {

EntryPoints::EntryPoints(Napi::Env env, const Napi::Value& platform, bool legacy,
                         std::initializer_list<const char*> names)
    : platform_(NativePlatform::From(platform, "platform")), names_(names) {
  for (const char* name : names_) {
    void* address = legacy ? OCL_FN(env, clGetExtensionFunctionAddress)(name)
                           : OCL_FN(env, clGetExtensionFunctionAddressForPlatform)(platform_, name);
    addresses_.push_back(address);
  }
}

Napi::Array EntryPoints::Missing(Napi::Env env) const {
  Napi::Array missing = Napi::Array::New(env);
  for (size_t i = 0; i < names_.size(); ++i) {
    if (!addresses_[i]) missing.Set(missing.Length(), names_[i]);
  }
  return missing;
}

Napi::Value QueryDevices(Napi::Env env, const char* call, DeviceIdsFn fn, cl_platform_id platform, cl_uint source,
                         void* object, cl_uint set) {
  cl_uint count = 0;
  Check(env, fn(platform, source, object, set, 0, nullptr, &count), call);
  std::vector<cl_device_id> devices(count);
  if (count) Check(env, fn(platform, source, object, set, count, devices.data(), &count), call);
  Napi::Array result = Napi::Array::New(env, count);
  for (cl_uint i = 0; i < count; ++i) result.Set(i, NativeDevice::Wrap(env, devices[i]));
  return result;
}

Napi::Value WrapCreated(Napi::Env env, const char* call, cl_mem mem, cl_int status) {
  // Some drivers return positive vendor codes: any non-zero status is a failure.
  if (status != CL_SUCCESS || !mem) ThrowClError(env, status != CL_SUCCESS ? status : -1, call);
  return NativeMem::Wrap(env, mem);
}

void InitExtensions(Napi::Env env, Napi::Object exports) {
  InitNvD3D9(env, exports);
  InitKhrD3D10(env, exports);
  InitIntelDX9(env, exports);
  InitKhrDX9Media(env, exports);
  InitIntelVaApi(env, exports);
}

}  // namespace ocl
