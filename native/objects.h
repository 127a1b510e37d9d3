// The Native* classes, one per OpenCL object kind. Each is defined in its own
// file (platform.cc, device.cc, ...).
#pragma once

#include "addon.h"

namespace ocl {

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

class NativeQueue : public Handle<NativeQueue, cl_command_queue> {
 public:
  using Handle::Handle;
  ~NativeQueue() override;
  static constexpr const char* kName = "NativeQueue";
  static const napi_type_tag kTypeTag;
  static void Init(Napi::Env env, Napi::Object exports);
  static void ReleaseHandle(cl_command_queue h) { ApiOrNull()->clReleaseCommandQueue(h); }

 private:
  Napi::Value Info(const Napi::CallbackInfo& info);
  Napi::Value Flush(const Napi::CallbackInfo& info);
  Napi::Value Finish(const Napi::CallbackInfo& info);
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
  Napi::Value UseArgStore(const Napi::CallbackInfo& info);

 public:
  // Argument `index`'s packed value in the store, or null when out of range.
  const uint8_t* ArgBytes(cl_uint index, size_t length) const;

 private:
  Napi::Reference<Napi::Uint8Array> argStore_;
  const uint8_t* argStoreData_ = nullptr;
  size_t argStoreSize_ = 0;
};

// Events are not wrapped JS objects: a command's event is a slot in a table
// per environment (event.cc), and JS holds its id, a number. That spares every
// command a JS object with a finalizer; lib/ releases each id explicitly (the
// owner, the queue's retiring of ended events, or the queue's release), and a
// queue collected without release takes its commands' events with it.
class EventTable {
 public:
  EventTable() = default;
  EventTable(const EventTable&) = delete;
  EventTable& operator=(const EventTable&) = delete;
  ~EventTable();

  struct Entry {
    cl_event event = nullptr;
    uint32_t generation = 1;
    // Releasing a user event that was never set fails it first, so commands
    // waiting on it end with an error instead of waiting forever, whatever the
    // driver does with an unset user event on its last release.
    bool pendingUser = false;
    // Events of commands waiting on this (unset) user event. PoCL fails a user
    // event on its last release and aborts if a waiting command's event is
    // already gone, so they are released only after this event.
    std::vector<cl_event> dependents;
  };

  // Takes ownership of the event (one reference); returns its id.
  Napi::Value Add(Napi::Env env, cl_event event);
  // The live entry an id names; throws a TypeError for what is not an id and
  // an OpenCLReleasedError for an id already released.
  Entry& Get(const Napi::Value& id, const char* what);
  // The live entry of an id, or null.
  Entry* Find(double id);
  void Release(Entry& entry);
  // The events of commands enqueued on `queue` (it was collected unreleased).
  void ReleaseCommandsOf(cl_command_queue queue);

 private:
  std::vector<Entry> entries_;
  std::vector<uint32_t> free_;
};

// Host memory the binding owns (host_memory.cc): page-aligned, freed when the
// last holder (a JS wrapper, an ArrayBuffer over it, a command in flight) lets go.
struct HostBlock {
  HostBlock(size_t bytes, bool zeroed);
  ~HostBlock();
  HostBlock(const HostBlock&) = delete;
  HostBlock& operator=(const HostBlock&) = delete;
  uint8_t* data = nullptr;
  size_t size = 0;

 private:
  size_t mapped_ = 0;  // 0: from the heap
};

class NativeHostBlock : public Napi::ObjectWrap<NativeHostBlock> {
 public:
  explicit NativeHostBlock(const Napi::CallbackInfo& info);
  static constexpr const char* kName = "NativeHostBlock";
  static const napi_type_tag kTypeTag;
  static void Init(Napi::Env env, Napi::Object exports);
  static Napi::Object New(Napi::Env env, std::shared_ptr<HostBlock> block);
  static bool Is(const Napi::Value& v);
  static std::shared_ptr<HostBlock> From(const Napi::Value& v, const char* what);

 private:
  Napi::Value CopyTo(const Napi::CallbackInfo& info);
  Napi::Value ArrayBuffer(const Napi::CallbackInfo& info);
  Napi::Value Size(const Napi::CallbackInfo& info);
  Napi::Value Release(const Napi::CallbackInfo& info);
  std::shared_ptr<HostBlock> block_;
};

// The host side of a transfer: a block of ours (any transfer), or JS memory
// (blocking transfers only).
struct TransferHost {
  void* data = nullptr;
  size_t length = 0;
  std::shared_ptr<HostBlock> block;
};
TransferHost ToTransferHost(const Napi::Value& v, bool blocking, const char* what);
// Keeps the transfer's block until the driver reports its command finished.
void HoldUntilComplete(Napi::Env env, cl_event event, const TransferHost& host);

// Calls notify(event, status, user) on some thread once the event reaches
// execStatus or fails: through clSetEventCallback, or a polling thread where
// the driver has no event callbacks. Not CL_SUCCESS: notify will not be called.
using StatusNotify = EventNotify;
cl_int NotifyOnStatus(const CoreApi& api, cl_event event, cl_int execStatus, StatusNotify notify, void* user,
                      bool (*abandoned)(void*) = nullptr, void (*drop)(void*) = nullptr);

// Enqueue helpers shared by every file that enqueues commands.
struct Enqueue {
  std::vector<cl_event> waitList;
  cl_event event = nullptr;
  explicit Enqueue(const Napi::Value& waitListValue) : waitList(ToWaitList(waitListValue)) {}
  cl_uint count() const { return static_cast<cl_uint>(waitList.size()); }
  const cl_event* list() const { return waitList.empty() ? nullptr : waitList.data(); }
  Napi::Value Result(Napi::Env env) { return WrapEvent(env, event); }
};

}  // namespace ocl
