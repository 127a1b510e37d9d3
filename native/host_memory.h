// Host memory the binding owns (host_memory.cc), and the host side of a transfer.
#pragma once

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
// Keeps the transfer's block until the driver reports its command finished.
void HoldUntilComplete(Napi::Env env, cl_event event, const TransferHost& host);

// An ArrayBuffer over native memory whose finalizer owns `hint`. Node may run
// the finalizer inside a failed call (it does for a length over
// buffer.constants.MAX_LENGTH) or take it for later; only when Node refused
// native memory outright (napi_no_external_buffers_allowed) is `hint` still
// the caller's to free. Throws a RangeError naming `what` when the length is
// too large, an Error otherwise.
Napi::Value OwningArrayBuffer(Napi::Env env, void* data, size_t size, napi_finalize finalize, void* hint, const char* what);

void InitHostMemory(Napi::Env env, Napi::Object exports);

}  // namespace ocl
