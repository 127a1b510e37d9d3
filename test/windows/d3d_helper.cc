// Test equipment for the Windows suites: what only native code can do with
// Direct3D objects. The objects themselves come from the package's Direct3D
// module (test/windows/support.mjs); this reads their COM reference counts
// and offers a live C++ object that is not COM, for the drivers to refuse.
// Built for win32 only (scripts/windows/build.sh; MSVC: test/windows/binding.gyp).
#define NOMINMAX
#include <windows.h>
#include <unknwn.h>
#include <napi.h>

namespace {

IUnknown* Pointer(const Napi::Value& value) {
  if (!value.IsBigInt()) throw Napi::TypeError::New(value.Env(), "expected a bigint address");
  bool lossless = false;
  uint64_t address = value.As<Napi::BigInt>().Uint64Value(&lossless);
  if (!lossless || address == 0) throw Napi::TypeError::New(value.Env(), "bad address");
  return reinterpret_cast<IUnknown*>(static_cast<uintptr_t>(address));
}

// An object with a vtable that is not COM: a driver must refuse it, not call into it.
struct NotDirect3D {
  virtual ~NotDirect3D() = default;
  virtual long Method(long value) { return value + 1; }
  virtual long Other(long value) { return value - 1; }
};
NotDirect3D notDirect3D;

// notDirect3D(): the address of a live C++ object of this module.
Napi::Value NotDirect3DObject(const Napi::CallbackInfo& info) {
  return Napi::BigInt::New(info.Env(), static_cast<uint64_t>(reinterpret_cast<uintptr_t>(&notDirect3D)));
}

// refCount(object): the object's reference count, read as AddRef()/Release() return it.
Napi::Value RefCount(const Napi::CallbackInfo& info) {
  IUnknown* object = Pointer(info[0]);
  object->AddRef();
  return Napi::Number::New(info.Env(), object->Release());
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  exports.Set("notDirect3D", Napi::Function::New(env, NotDirect3DObject));
  exports.Set("refCount", Napi::Function::New(env, RefCount));
  return exports;
}

}  // namespace

NODE_API_MODULE(d3d_helper, Init)
