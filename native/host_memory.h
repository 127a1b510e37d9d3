// Host memory the binding owns (host_memory.cc), and the host side of a transfer.
#pragma once

#include <deque>
#include <memory>

#include "loader.h"
#include "objects.h"

namespace ocl {

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
  static Napi::Object Wrap(Napi::Env env, std::shared_ptr<HostBlock> block);
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

// The staging blocks of one queue's non-blocking transfers, each kept until
// its command has ended. On an in-order queue they wait in a list that the
// queue's next transfer prunes from the front by status (there a command has
// ended once it says so, and those behind it end later): no driver callback
// per transfer, since NVIDIA calls back from one thread per process, which
// held worker threads' streams back where processes were not (bench/README.md,
// "Many streams"). Out of order, for copies of 1 MiB and more (kept to the next
// transfer they would outlive their command by as long as the program makes
// none), and for what is left when the queue goes, a callback per transfer.
// Touched only by its queue's JS thread.
class HeldTransfers {
 public:
  void Hold(const CoreApi& api, cl_command_queue queue, cl_event event, std::shared_ptr<HostBlock> block);
  // The queue is being released or collected (api null: the process is ending, and what is held stays).
  void HandOver(const CoreApi* api);
  ~HeldTransfers();

 private:
  enum class Order { kUnknown, kInOrder, kOutOfOrder } order_ = Order::kUnknown;
  std::deque<std::pair<cl_event, std::shared_ptr<HostBlock>>> items_;
};

// An ArrayBuffer over native memory whose finalizer owns `hint`. Node may run
// the finalizer inside a failed call (it does for a length over
// buffer.constants.MAX_LENGTH) or take it for later; only when Node refused
// native memory outright (napi_no_external_buffers_allowed) is `hint` still
// the caller's to free. Throws a RangeError naming `what` when the length is
// too large, an Error otherwise.
Napi::Value OwningArrayBuffer(Napi::Env env, void* data, size_t size, napi_finalize finalize, void* hint, const char* what);

void InitHostMemory(Napi::Env env, Napi::Object exports);

}  // namespace ocl
