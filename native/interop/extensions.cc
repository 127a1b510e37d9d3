// The sharing extensions' common machinery (entry points per platform,
// device queries, created memory objects) and the area's registration.
#include "interop/interop.h"
#include "interop/sharing.h"

namespace ocl {

EntryPoints::EntryPoints(Napi::Env env, const Napi::Value& platform, bool legacy, const Napi::Value& names)
    : platform_(NativePlatform::From(platform, "platform")), legacy_(legacy) {
  if (!names.IsObject()) throw Napi::TypeError::New(env, "entry points must be an object { role: name }");
  Napi::Object object = names.As<Napi::Object>();
  Napi::Array roles = object.GetPropertyNames();
  for (uint32_t i = 0; i < roles.Length(); ++i) {
    Napi::Value role = roles.Get(i);
    Napi::Value name = object.Get(role);
    if (!name.IsString()) throw Napi::TypeError::New(env, "entry point names must be strings");
    Entry entry{role.ToString().Utf8Value(), name.As<Napi::String>().Utf8Value(), nullptr};
    entry.address = Resolve(env, entry.name);
    entries_.push_back(std::move(entry));
  }
}

void EntryPoints::AddCore(Napi::Env env, const char* role, const Napi::Value& name, void* core) {
  if (!name.IsString()) throw Napi::TypeError::New(env, std::string("entry point ") + role + " must be named");
  Entry entry{role, name.As<Napi::String>().Utf8Value(), nullptr, core, true};
  entry.address = Resolve(env, entry.name);
  entries_.push_back(std::move(entry));
}

void* EntryPoints::Resolve(Napi::Env env, const std::string& name) const {
  return legacy_ ? OCL_FN(env, clGetExtensionFunctionAddress)(name.c_str())
                 : OCL_FN(env, clGetExtensionFunctionAddressForPlatform)(platform_, name.c_str());
}

const EntryPoints::Entry& EntryPoints::Find(Napi::Env env, const char* role) const {
  for (const Entry& entry : entries_) {
    if (entry.role == role) return entry;
  }
  // A record without the role the native file needs: a bug in the package, not in the caller's input.
  throw Napi::Error::New(env, std::string("opencl-interop: the extension record has no entry point for ") + role);
}

Napi::Array EntryPoints::Missing(Napi::Env env) const {
  Napi::Array missing = Napi::Array::New(env);
  for (const Entry& entry : entries_) {
    if (!entry.address && !entry.isCore) missing.Set(missing.Length(), entry.name);
  }
  return missing;
}

Napi::Value QueryDevices(Napi::Env env, Resolved<DeviceIdsFn> entry, cl_platform_id platform, cl_uint source, void* object, cl_uint set) {
  auto [fn, call] = entry;
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

void InitInterop(Napi::Env env, Napi::Object exports) {
  InitNvD3D9(env, exports);
  InitD3D10(env, exports);
  InitD3D11(env, exports);
  InitIntelDX9(env, exports);
  InitKhrDX9Media(env, exports);
  InitIntelVaApi(env, exports);
  InitExternalMemory(env, exports);
  InitSemaphores(env, exports);
}

}  // namespace ocl
