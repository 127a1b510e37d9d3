// Shared pieces of the native layer: per-environment data, the error guard,
// argument conversion, and the wrapped-handle base class.
#pragma once

#include <napi.h>

#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "cl_api.h"

namespace ocl {

// The widest kernel argument value: a 16-vector of 8-byte scalars (a kernel's
// argument store holds this many bytes per argument).
constexpr size_t kArgBytes = 128;

class CallbackHub;
class EventTable;

// Ids of table slots, as JS numbers: generation * 2^24 + index, exact in a
// double. A slot's generation changes when it is freed, so a stale id never
// names the slot's next occupant.
struct SlotId {
  static constexpr uint32_t kIndexBits = 24;
  static constexpr uint32_t kMaxIndex = (1u << kIndexBits) - 1;
  static constexpr uint32_t kGenerationLimit = 1u << 28;
  uint32_t index;
  uint32_t generation;
  double ToDouble() const { return static_cast<double>(generation) * (1u << kIndexBits) + index; }
  // False for what no slot could have made (negative, fractional, too large).
  static bool FromDouble(double id, SlotId& out) {
    if (!(id >= 0 && id < 9007199254740992.0) || id != static_cast<double>(static_cast<uint64_t>(id))) return false;
    auto bits = static_cast<uint64_t>(id);
    out.index = static_cast<uint32_t>(bits & kMaxIndex);
    out.generation = static_cast<uint32_t>(bits >> kIndexBits);
    return true;
  }
  static uint32_t Next(uint32_t generation) { return generation + 1 < kGenerationLimit ? generation + 1 : 1; }
};

// Every wrapped native object (Handle) of an environment, by slot: the hot
// calls take a number instead of unwrapping an object and checking its type
// tag (two private-symbol lookups each).
class ObjectTable {
 public:
  double Add(void* object, const napi_type_tag* tag) {
    uint32_t index;
    if (!free_.empty()) {
      index = free_.back();
      free_.pop_back();
    } else {
      index = static_cast<uint32_t>(entries_.size());
      entries_.push_back({});
    }
    entries_[index].object = object;
    entries_[index].tag = tag;
    return SlotId{index, entries_[index].generation}.ToDouble();
  }
  void Remove(double id) {
    SlotId slot;
    if (!SlotId::FromDouble(id, slot) || slot.index >= entries_.size()) return;
    Entry& entry = entries_[slot.index];
    if (entry.generation != slot.generation) return;
    entry = {nullptr, nullptr, SlotId::Next(entry.generation)};
    free_.push_back(slot.index);
  }
  // The object with this id and type tag, or null.
  void* Find(double id, const napi_type_tag* tag) const {
    SlotId slot;
    if (!SlotId::FromDouble(id, slot) || slot.index >= entries_.size()) return nullptr;
    const Entry& entry = entries_[slot.index];
    return entry.generation == slot.generation && entry.tag == tag ? entry.object : nullptr;
  }

 private:
  struct Entry {
    void* object = nullptr;
    const napi_type_tag* tag = nullptr;
    uint32_t generation = 1;
  };
  std::vector<Entry> entries_;
  std::vector<uint32_t> free_;
};

// One per Node environment (main thread or worker).
struct AddonData {
  Napi::FunctionReference makeClError;        // (status, call) => OpenCLError
  Napi::FunctionReference makeMissingEntry;   // (name) => Error
  Napi::FunctionReference makeReleasedError;  // (kind) => Error
  Napi::FunctionReference makeVaError;        // (status, call, detail) => VaError (lib/va/errors.ts)
  std::unordered_map<const napi_type_tag*, Napi::FunctionReference> constructors;
  std::shared_ptr<CallbackHub> hub;
  // Every event this environment holds (event.cc).
  std::shared_ptr<EventTable> events;
  ObjectTable objects;
  Napi::FunctionReference makeDirect3DError;  // (hresult, call, detail) => Direct3DError (lib/direct3d/errors.ts; Windows)
  // enqueueNDRange's sizes, written by lib/queue.ts just before each call
  // (one Float64Array for the life of the environment: no array to read per call).
  Napi::Reference<Napi::Float64Array> ndrangeSizes;
  const double* ndrangeData = nullptr;
  // The kernel arguments lib/kernel.ts holds for the next enqueueNDRange.
  Napi::Reference<Napi::Float64Array> argOps;
  const double* argOpsData = nullptr;

  static AddonData& Get(Napi::Env env) { return *env.GetInstanceData<AddonData>(); }
};

// The loaded library's entry points; throws a JS error when nothing is loaded.
const CoreApi& Api(Napi::Env env);
// Same, but returns nullptr instead of throwing (used by release paths).
const CoreApi* ApiOrNull();

[[noreturn]] void ThrowClError(Napi::Env env, cl_int status, const char* call);
[[noreturn]] void ThrowMissingEntryPoint(Napi::Env env, const char* name);
[[noreturn]] void ThrowReleased(Napi::Env env, const char* kind);

inline void Check(Napi::Env env, cl_int status, const char* call) {
  if (status != CL_SUCCESS) ThrowClError(env, status, call);
}

// Resolves an entry point or throws a typed error naming it.
#define OCL_FN(env, name) (Api(env).name ? Api(env).name : (ThrowMissingEntryPoint(env, #name), nullptr))

// ---- argument conversion -------------------------------------------------

uint64_t ToU64(const Napi::Value& v, const char* what);
size_t ToSize(const Napi::Value& v, const char* what);
void* ToPointer(const Napi::Value& v, const char* what);  // bigint address, 0n -> nullptr
Napi::BigInt FromPointer(Napi::Env env, const void* p);

struct HostView {
  void* data = nullptr;
  size_t length = 0;
};
// Accepts an ArrayBuffer or any ArrayBuffer view.
HostView ToHostView(const Napi::Value& v, const char* what);
// Copies raw bytes returned by an info query into a fresh Uint8Array.
Napi::Uint8Array BytesToJs(Napi::Env env, const void* data, size_t size);

// Runs a clGet*Info-style query twice (size, then data) and returns the bytes.
template <typename Query>
Napi::Value QueryBytes(Napi::Env env, const char* call, Query query) {
  size_t size = 0;
  Check(env, query(0, nullptr, &size), call);
  std::vector<uint8_t> bytes(size);
  Check(env, query(size, size ? bytes.data() : nullptr, nullptr), call);
  return BytesToJs(env, bytes.data(), bytes.size());
}

// info(param) of a handle: a clGet*Info entry point of the form
// (handle, param, size, value, sizeRet), its bytes returned raw.
template <typename T, typename Fn>
Napi::Value InfoBytes(const Napi::CallbackInfo& info, T handle, Fn fn, const char* call) {
  Napi::Env env = info.Env();
  cl_uint param = static_cast<cl_uint>(ToU64(info[0], "param"));
  return QueryBytes(env, call, [&](size_t size, void* out, size_t* sizeRet) { return fn(handle, param, size, out, sizeRet); });
}

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

  static T From(const Napi::Value& v, const char* what) {
    Derived* self = FromValue(v, what);
    if (!self->handle_) ThrowReleased(v.Env(), Derived::kName);
    return self->handle_;
  }

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

  static void Register(Napi::Env env, Napi::Object exports, const char* name,
                       std::vector<Napi::ClassPropertyDescriptor<Derived>> members) {
    auto base = BaseMembers();
    members.insert(members.end(), base.begin(), base.end());
    Napi::Function ctor = Napi::ObjectWrap<Derived>::DefineClass(env, name, members);
    AddonData::Get(env).constructors[&Derived::kTypeTag] = Napi::Persistent(ctor);
    exports.Set(name, ctor);
  }

  T Checked(Napi::Env env) const {
    if (!handle_) ThrowReleased(env, Derived::kName);
    return handle_;
  }

  void Drop() {
    if (handle_ && ApiOrNull()) Derived::ReleaseHandle(handle_);
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

// Wait lists arrive as arrays of event ids (or undefined).
std::vector<cl_event> ToWaitList(const Napi::Value& v);
// The id of the event an enqueue produced (ownership passes to JS); undefined for none.
Napi::Value WrapEvent(Napi::Env env, cl_event event);
// Three size_t values (origin / region) from a JS array of numbers.
void ToTriple(const Napi::Value& v, const char* what, size_t out[3]);

// Init functions, one per file.
void InitLoader(Napi::Env env, Napi::Object exports);
void InitCallbacks(Napi::Env env, Napi::Object exports);
void InitPlatform(Napi::Env env, Napi::Object exports);
void InitDevice(Napi::Env env, Napi::Object exports);
void InitContext(Napi::Env env, Napi::Object exports);
void InitQueue(Napi::Env env, Napi::Object exports);
void InitMemory(Napi::Env env, Napi::Object exports);
void InitHostMemory(Napi::Env env, Napi::Object exports);
void InitSampler(Napi::Env env, Napi::Object exports);
void InitProgram(Napi::Env env, Napi::Object exports);
void InitKernel(Napi::Env env, Napi::Object exports);
void InitEvent(Napi::Env env, Napi::Object exports);
void InitExtensions(Napi::Env env, Napi::Object exports);
#ifdef _WIN32
void InitDirect3D(Napi::Env env, Napi::Object exports);  // direct3d.cc: exports.direct3d
#endif

}  // namespace ocl
