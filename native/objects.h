// The core's shared pieces: per-environment data, the table of wrapped
// objects, the wrapped-handle base class and the Native* classes, one per
// OpenCL object kind, each defined in its twin of lib/ (platform.cc,
// device.cc, ...).
#pragma once

#include <napi.h>

#include <memory>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "convert.h"
#include "environment.h"

namespace ocl {

// The widest kernel argument value: a 16-vector of 8-byte scalars (a kernel's
// argument store holds this many bytes per argument).
constexpr size_t kArgBytes = 128;
// The arrays lib/ passes the hot calls' values through (takeCallArrays):
// enqueueNDRange's sizes, and the kernel arguments pending for it.
constexpr size_t kNDRangeSizes = 12;
constexpr size_t kMaxArgOps = 64;
constexpr size_t kArgOps = 1 + 3 * kMaxArgOps;

// ---- wrapped handles -------------------------------------------------------

// Base of every Native* class: owns one OpenCL handle, releases it once
// (explicitly or when garbage-collected), and refuses use after release.
// Derived supplies kTypeTag, kName and static void ReleaseHandle(T).
template <typename Derived, typename T>
class Handle : public Napi::ObjectWrap<Derived> {
 public:
  explicit Handle(const Napi::CallbackInfo& info) : Napi::ObjectWrap<Derived>(info) {
    info.This().As<Napi::Object>().TypeTag(&Derived::kTypeTag);
    if (info.Length() >= 1 && info[0].IsExternal()) {
      handle_ = static_cast<T>(info[0].As<Napi::External<void>>().Data());
    }
    slot_ = AddonData::Get(info.Env()).objects.Add(static_cast<Derived*>(this), &Derived::kTypeTag);
  }
  ~Handle() override {
    Drop();
    AddonData::Get(this->Env()).objects.Remove(slot_);
  }

  static Napi::Object Wrap(Napi::Env env, T handle) {
    auto& ctor = AddonData::Get(env).constructors.at(&Derived::kTypeTag);
    return ctor.New({Napi::External<void>::New(env, static_cast<void*>(handle))});
  }

  // The object, or its slot (what the hot calls pass).
  static Derived* FromValue(const Napi::Value& v, const char* what) {
    Napi::Env env = v.Env();
    double id = 0;
    if (napi_get_value_double(env, v, &id) == napi_ok) return FromSlot(env, id, what);
    if (!v.IsObject() || !v.As<Napi::Object>().CheckTypeTag(&Derived::kTypeTag)) {
      throw Napi::TypeError::New(env, std::string(what) + " must be a " + Derived::kName);
    }
    return Derived::Unwrap(v.As<Napi::Object>());
  }

  // By the id its `slot` accessor gave JS (see ObjectTable).
  static Derived* FromSlot(Napi::Env env, double id, const char* what) {
    void* object = AddonData::Get(env).objects.Find(id, &Derived::kTypeTag);
    if (!object) throw Napi::TypeError::New(env, std::string(what) + " must be the slot of a " + Derived::kName);
    return static_cast<Derived*>(object);
  }

  static T From(const Napi::Value& v, const char* what) { return FromValue(v, what)->Checked(v.Env()); }

  static std::vector<T> FromArray(const Napi::Value& v, const char* what) {
    std::vector<T> out;
    if (v.IsUndefined() || v.IsNull()) return out;
    if (!v.IsArray()) throw Napi::TypeError::New(v.Env(), std::string(what) + " must be an array");
    auto array = v.As<Napi::Array>();
    out.reserve(array.Length());
    for (uint32_t i = 0; i < array.Length(); ++i) out.push_back(From(array.Get(i), what));
    return out;
  }

  T handle() const { return handle_; }
  // The handle, or an OpenCLReleasedError once released (From() for an object already looked up).
  T Checked(Napi::Env env) const {
    if (!handle_) ThrowReleased(env, Derived::kName);
    return handle_;
  }
  // Derived classes hide this to drop what they hold besides the handle.
  void BeforeRelease() {}
  void AfterRelease() {}

 protected:
  static std::vector<Napi::ClassPropertyDescriptor<Derived>> BaseMembers() {
    return {
        Napi::ObjectWrap<Derived>::InstanceMethod("release", &Handle::ReleaseMethod),
        Napi::ObjectWrap<Derived>::InstanceMethod("keep", &Handle::KeepMethod),
        Napi::ObjectWrap<Derived>::InstanceAccessor("address", &Handle::AddressGetter, nullptr),
        Napi::ObjectWrap<Derived>::InstanceAccessor("slot", &Handle::SlotGetter, nullptr),
    };
  }

  static void Register(Napi::Env env, Napi::Object exports, const char* name, std::vector<Napi::ClassPropertyDescriptor<Derived>> members) {
    auto base = BaseMembers();
    members.insert(members.end(), base.begin(), base.end());
    Napi::Function ctor = Napi::ObjectWrap<Derived>::DefineClass(env, name, members);
    AddonData::Get(env).constructors[&Derived::kTypeTag] = Napi::Persistent(ctor);
    exports.Set(name, ctor);
  }

  void Drop() {
    if (handle_ && ReleaseApiOrNull()) Derived::ReleaseHandle(handle_);
    handle_ = nullptr;
  }

 private:
  Napi::Value ReleaseMethod(const Napi::CallbackInfo& info) {
    static_cast<Derived*>(this)->BeforeRelease();
    Drop();
    static_cast<Derived*>(this)->AfterRelease();
    kept_.clear();
    return info.Env().Undefined();
  }
  // keep(object): holds a JS object (a native object of another library's
  // resource, e.g. the VA display a context was made on) until this handle
  // is released. When both become garbage, the handle's finalizer releases
  // the OpenCL object before the held one can be collected.
  Napi::Value KeepMethod(const Napi::CallbackInfo& info) {
    if (!info[0].IsObject()) throw Napi::TypeError::New(info.Env(), "keep() takes an object");
    if (handle_) kept_.push_back(Napi::Persistent(info[0].As<Napi::Object>()));
    return info.Env().Undefined();
  }
  Napi::Value AddressGetter(const Napi::CallbackInfo& info) { return FromPointer(info.Env(), handle_); }
  Napi::Value SlotGetter(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), slot_); }

  T handle_ = nullptr;
  double slot_ = 0;
  // Destroyed after ~Handle's Drop(): what is kept outlives the release.
  std::vector<Napi::ObjectReference> kept_;
};

// Platforms and devices are not reference counted (root devices only).
template <typename Derived, typename T>
class Unowned : public Handle<Derived, T> {
 public:
  using Handle<Derived, T>::Handle;
  static void ReleaseHandle(T) {}
};

class NativePlatform : public Unowned<NativePlatform, cl_platform_id> {
 public:
  using Unowned::Unowned;
  static constexpr const char* kName = "NativePlatform";
  static const napi_type_tag kTypeTag;
  static void Init(Napi::Env env, Napi::Object exports);

 private:
  Napi::Value Info(const Napi::CallbackInfo& info);
  Napi::Value Devices(const Napi::CallbackInfo& info);
  Napi::Value ExtensionFunction(const Napi::CallbackInfo& info);
};

class NativeDevice : public Unowned<NativeDevice, cl_device_id> {
 public:
  using Unowned::Unowned;
  static constexpr const char* kName = "NativeDevice";
  static const napi_type_tag kTypeTag;
  static void Init(Napi::Env env, Napi::Object exports);

 private:
  Napi::Value Info(const Napi::CallbackInfo& info);
};

class NativeContext : public Handle<NativeContext, cl_context> {
 public:
  explicit NativeContext(const Napi::CallbackInfo& info);
  ~NativeContext() override;
  static constexpr const char* kName = "NativeContext";
  static const napi_type_tag kTypeTag;
  static void Init(Napi::Env env, Napi::Object exports);
  static void ReleaseHandle(cl_context h) { ApiOrNull()->clReleaseContext(h); }
  void BeforeRelease();
  uint64_t listener = 0;

 private:
  Napi::Value Info(const Napi::CallbackInfo& info);
};

struct HostBlock;     // host_memory.h
class HeldTransfers;  // host_memory.h

class NativeQueue : public Handle<NativeQueue, cl_command_queue> {
 public:
  using Handle::Handle;
  ~NativeQueue() override;
  static constexpr const char* kName = "NativeQueue";
  static const napi_type_tag kTypeTag;
  static void Init(Napi::Env env, Napi::Object exports);
  static void ReleaseHandle(cl_command_queue h);
  void BeforeRelease();
  // Keeps a non-blocking transfer's staging block until its command has ended (host_memory.h).
  void HoldUntilComplete(Napi::Env env, cl_event event, std::shared_ptr<HostBlock> block);

 private:
  Napi::Value Info(const Napi::CallbackInfo& info);
  Napi::Value Flush(const Napi::CallbackInfo& info);
  Napi::Value Finish(const Napi::CallbackInfo& info);
  std::unique_ptr<HeldTransfers> held_;
};

class NativeMem : public Handle<NativeMem, cl_mem> {
 public:
  using Handle::Handle;
  static constexpr const char* kName = "NativeMem";
  static const napi_type_tag kTypeTag;
  static void Init(Napi::Env env, Napi::Object exports);
  static void ReleaseHandle(cl_mem h) { ApiOrNull()->clReleaseMemObject(h); }

  // Storage that must live as long as the cl_mem (e.g. a VASurfaceID the
  // driver keeps a pointer to).
  std::unique_ptr<uint8_t[]> ownedStorage;

 private:
  Napi::Value Info(const Napi::CallbackInfo& info);
  Napi::Value ImageInfo(const Napi::CallbackInfo& info);
  Napi::Value StorageAddress(const Napi::CallbackInfo& info);
};

class NativeSampler : public Handle<NativeSampler, cl_sampler> {
 public:
  using Handle::Handle;
  static constexpr const char* kName = "NativeSampler";
  static const napi_type_tag kTypeTag;
  static void Init(Napi::Env env, Napi::Object exports);
  static void ReleaseHandle(cl_sampler h) { ApiOrNull()->clReleaseSampler(h); }

 private:
  Napi::Value Info(const Napi::CallbackInfo& info);
};

class NativeProgram : public Handle<NativeProgram, cl_program> {
 public:
  using Handle::Handle;
  static constexpr const char* kName = "NativeProgram";
  static const napi_type_tag kTypeTag;
  static void Init(Napi::Env env, Napi::Object exports);
  static void ReleaseHandle(cl_program h) { ApiOrNull()->clReleaseProgram(h); }

 private:
  Napi::Value Info(const Napi::CallbackInfo& info);
  Napi::Value BuildInfo(const Napi::CallbackInfo& info);
  Napi::Value Build(const Napi::CallbackInfo& info);
};

class NativeKernel : public Handle<NativeKernel, cl_kernel> {
 public:
  using Handle::Handle;
  static constexpr const char* kName = "NativeKernel";
  static const napi_type_tag kTypeTag;
  static void Init(Napi::Env env, Napi::Object exports);
  static void ReleaseHandle(cl_kernel h) { ApiOrNull()->clReleaseKernel(h); }

 private:
  Napi::Value Info(const Napi::CallbackInfo& info);
  Napi::Value WorkGroupInfo(const Napi::CallbackInfo& info);
  Napi::Value ArgInfo(const Napi::CallbackInfo& info);
  Napi::Value SetArg(const Napi::CallbackInfo& info);
  Napi::Value SetArgMem(const Napi::CallbackInfo& info);
  Napi::Value SetArgSampler(const Napi::CallbackInfo& info);
  Napi::Value SetArgLocal(const Napi::CallbackInfo& info);
  Napi::Value SetArgBytes(const Napi::CallbackInfo& info);
  Napi::Value ArgStore(const Napi::CallbackInfo& info);

 public:
  // Argument `index`'s packed value in the store; throws when out of range
  // or when the store was detached.
  const uint8_t* ArgBytes(Napi::Env env, cl_uint index, size_t length) const;
  // The store's data and size in bytes, or a TypeError when it was detached.
  const uint8_t* ArgStoreData(Napi::Env env, size_t& bytes) const;

 private:
  // Made by the addon (argStore()), one per kernel for its life; a detached
  // store is refused at its next use (HeldArray, convert.h).
  HeldArray<Napi::Uint8Array, uint8_t> argStore_;
};

// Argument `index`'s `length` bytes in a kernel's argument store, or a RangeError.
const uint8_t* ArgSlice(Napi::Env env, const uint8_t* store, size_t bytes, cl_uint index, size_t length);

// Hands the driver the kernel arguments lib/kernel.ts checked and held since
// the last enqueue (kernel.cc; the layout of `ops` is described there).
void ApplyPendingArgs(Napi::Env env, NativeKernel& kernel, const double* ops);

// Registration of the core files whose classes are declared here; addon.cc
// calls them (and the Init each other core header declares).
void InitPlatform(Napi::Env env, Napi::Object exports);
void InitDevice(Napi::Env env, Napi::Object exports);
void InitContext(Napi::Env env, Napi::Object exports);
void InitMemory(Napi::Env env, Napi::Object exports);
void InitSampler(Napi::Env env, Napi::Object exports);
void InitProgram(Napi::Env env, Napi::Object exports);
void InitKernel(Napi::Env env, Napi::Object exports);

}  // namespace ocl
