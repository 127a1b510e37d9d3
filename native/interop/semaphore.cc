// cl_khr_semaphore and cl_khr_external_semaphore (+ _opaque_fd, _sync_fd,
// _win32): semaphore objects (created, or imported from another API's
// handle), wait and signal on a queue, export of a handle, re-import of a
// sync_fd. Properties, ownership and quirks are lib/interop/semaphore.ts's.
#include "interop/sharing.h"

namespace ocl {
namespace {

using cl_semaphore_khr = struct _cl_semaphore_khr*;
using CreateSemaphoreFn = cl_semaphore_khr(OCL_CALL*)(cl_context, const cl_ulong*, cl_int*);
using EnqueueSemaphoresFn = cl_int(OCL_CALL*)(cl_command_queue, cl_uint, const cl_semaphore_khr*, const cl_ulong*, cl_uint, const cl_event*,
                                              cl_event*);
using SemaphoreInfoFn = cl_int(OCL_CALL*)(cl_semaphore_khr, cl_uint, size_t, void*, size_t*);
using SemaphoreRefFn = cl_int(OCL_CALL*)(cl_semaphore_khr);
using HandleForTypeFn = cl_int(OCL_CALL*)(cl_semaphore_khr, cl_device_id, cl_uint, size_t, void*, size_t*);
using ReImportSyncFdFn = cl_int(OCL_CALL*)(cl_semaphore_khr, cl_ulong*, int);

// Semaphores are the one wrapped object whose release is an extension entry
// point: each keeps its platform's clReleaseSemaphoreKHR.
class NativeSemaphore : public Napi::ObjectWrap<NativeSemaphore> {
 public:
  static constexpr const char* kName = "NativeSemaphore";
  static const napi_type_tag kTypeTag;

  explicit NativeSemaphore(const Napi::CallbackInfo& info) : Napi::ObjectWrap<NativeSemaphore>(info) {
    info.This().As<Napi::Object>().TypeTag(&kTypeTag);
  }
  ~NativeSemaphore() override { Drop(); }

  static void Init(Napi::Env env, Napi::Object exports) {
    Napi::Function ctor = DefineClass(
        env, kName,
        {InstanceMethod("release", &NativeSemaphore::ReleaseMethod), InstanceAccessor("address", &NativeSemaphore::AddressGetter, nullptr)});
    AddonData::Get(env).constructors[&kTypeTag] = Napi::Persistent(ctor);
    exports.Set(kName, ctor);
  }

  static Napi::Object Wrap(Napi::Env env, cl_semaphore_khr handle, SemaphoreRefFn release) {
    Napi::Object object = AddonData::Get(env).constructors.at(&kTypeTag).New({});
    NativeSemaphore* self = Unwrap(object);
    self->handle_ = handle;
    self->release_ = release;
    return object;
  }

  static cl_semaphore_khr From(const Napi::Value& v, const char* what) {
    Napi::Env env = v.Env();
    if (!v.IsObject() || !v.As<Napi::Object>().CheckTypeTag(&kTypeTag)) {
      throw Napi::TypeError::New(env, std::string(what) + " must be a " + kName);
    }
    NativeSemaphore* self = Unwrap(v.As<Napi::Object>());
    if (!self->handle_) ThrowReleased(env, "Semaphore");
    return self->handle_;
  }

  static std::vector<cl_semaphore_khr> FromArray(const Napi::Value& v, const char* what) {
    if (!v.IsArray()) throw Napi::TypeError::New(v.Env(), std::string(what) + " must be an array");
    Napi::Array array = v.As<Napi::Array>();
    std::vector<cl_semaphore_khr> out;
    out.reserve(array.Length());
    for (uint32_t i = 0; i < array.Length(); ++i) out.push_back(From(array.Get(i), what));
    return out;
  }

 private:
  void Drop() {
    if (handle_ && release_ && ReleaseApiOrNull()) release_(handle_);  // as Handle::Drop (objects.h)
    handle_ = nullptr;
  }
  Napi::Value ReleaseMethod(const Napi::CallbackInfo& info) {
    Drop();
    return info.Env().Undefined();
  }
  Napi::Value AddressGetter(const Napi::CallbackInfo& info) { return FromPointer(info.Env(), handle_); }

  cl_semaphore_khr handle_ = nullptr;
  SemaphoreRefFn release_ = nullptr;
};

const napi_type_tag NativeSemaphore::kTypeTag = {0x6f636c2d73656d61ULL, 0x70686f7265000001ULL};

// Entry point roles (lib/interop/extensions.ts): create, retain, release,
// info, wait, signal (cl_khr_semaphore), exportHandle
// (cl_khr_external_semaphore), reimportSyncFd (_sync_fd). Roles a platform
// lacks are listed by `missing`; lib/ refuses the calls that need them.
class NativeSemaphores : public SharingBase<NativeSemaphores> {
 public:
  explicit NativeSemaphores(const Napi::CallbackInfo& info) : SharingBase(info) {}

  static void Init(Napi::Env env, Napi::Object exports) {
    NativeSemaphore::Init(env, exports);
    Register(env, exports, "NativeSemaphores",
             {InstanceMethod("create", &NativeSemaphores::Create), InstanceMethod("info", &NativeSemaphores::Info),
              InstanceMethod("wait", &NativeSemaphores::Wait), InstanceMethod("signal", &NativeSemaphores::Signal),
              InstanceMethod("exportHandle", &NativeSemaphores::ExportHandle), InstanceMethod("reimportSyncFd", &NativeSemaphores::ReimportSyncFd)});
  }

 private:
  // create(context, properties) -> NativeSemaphore
  Napi::Value Create(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    PropertyList properties(info[1], "properties");
    auto [create, call] = Entry<CreateSemaphoreFn>(env, "create");
    SemaphoreRefFn release = Entry<SemaphoreRefFn>(env, "release").fn;
    cl_int status = CL_SUCCESS;
    cl_semaphore_khr semaphore = create(NativeContext::From(info[0], "context"), properties.data(), &status);
    if (status != CL_SUCCESS || !semaphore) ThrowClError(env, status != CL_SUCCESS ? status : -1, call);
    return NativeSemaphore::Wrap(env, semaphore, release);
  }

  // info(semaphore, param) -> bytes
  Napi::Value Info(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    cl_uint param = ToU32(info[1], "param");
    auto [fn, call] = Entry<SemaphoreInfoFn>(env, "info");
    cl_semaphore_khr semaphore = NativeSemaphore::From(info[0], "semaphore");
    return QueryBytes(env, call, [&](size_t size, void* out, size_t* sizeRet) { return fn(semaphore, param, size, out, sizeRet); });
  }

  // wait / signal(queue, semaphores, payloads: bigint[] | null, waitList) -> event id
  Napi::Value Enqueue(const Napi::CallbackInfo& info, const char* role) {
    Napi::Env env = info.Env();
    auto [fn, call] = Entry<EnqueueSemaphoresFn>(env, role);
    std::vector<cl_ulong> payloads;
    bool hasPayloads = info[2].IsArray();
    if (hasPayloads) {
      Napi::Array list = info[2].As<Napi::Array>();
      for (uint32_t i = 0; i < list.Length(); ++i) payloads.push_back(ToU64(list.Get(i), "payload"));
    }
    ocl::Enqueue op(info[3]);
    cl_command_queue queue = NativeQueue::From(info[0], "queue");
    std::vector<cl_semaphore_khr> semaphores = NativeSemaphore::FromArray(info[1], "semaphores");
    if (hasPayloads && payloads.size() != semaphores.size()) {
      throw Napi::RangeError::New(env, "one payload per semaphore");
    }
    Check(env,
          fn(queue, static_cast<cl_uint>(semaphores.size()), semaphores.empty() ? nullptr : semaphores.data(),
             hasPayloads ? payloads.data() : nullptr, op.count(), op.list(), &op.event),
          call);
    return op.Result(env);
  }
  Napi::Value Wait(const Napi::CallbackInfo& info) { return Enqueue(info, "wait"); }
  Napi::Value Signal(const Napi::CallbackInfo& info) { return Enqueue(info, "signal"); }

  // exportHandle(semaphore, device, handleType, pointerSized) -> number (fd) | bigint (HANDLE)
  Napi::Value ExportHandle(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    auto [fn, call] = Entry<HandleForTypeFn>(env, "exportHandle");
    cl_uint type = ToU32(info[2], "handle type");
    bool pointerSized = info[3].ToBoolean();
    cl_device_id device = NativeDevice::From(info[1], "device");
    cl_semaphore_khr semaphore = NativeSemaphore::From(info[0], "semaphore");
    if (pointerSized) {
      void* handle = nullptr;
      Check(env, fn(semaphore, device, type, sizeof(handle), &handle, nullptr), call);
      return FromPointer(env, handle);
    }
    int fd = -1;
    Check(env, fn(semaphore, device, type, sizeof(fd), &fd, nullptr), call);
    return Napi::Number::New(env, fd);
  }

  // reimportSyncFd(semaphore, fd)
  Napi::Value ReimportSyncFd(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    auto [fn, call] = Entry<ReImportSyncFdFn>(env, "reimportSyncFd");
    double fd = info[1].IsNumber() ? info[1].As<Napi::Number>().DoubleValue() : 0.5;
    if (fd != static_cast<int>(fd) || fd < -1) throw Napi::RangeError::New(env, "fd must be a file descriptor or -1");
    cl_semaphore_khr semaphore = NativeSemaphore::From(info[0], "semaphore");
    Check(env, fn(semaphore, nullptr, static_cast<int>(fd)), call);
    return env.Undefined();
  }
};

}  // namespace

void InitSemaphores(Napi::Env env, Napi::Object exports) { NativeSemaphores::Init(env, exports); }

}  // namespace ocl
