// Host memory the binding owns. Non-blocking transfers never hand the driver
// memory that JavaScript can free, detach, resize or take away with a dying
// worker: they go through a HostBlock, and every command in flight holds a
// reference to its block until the driver reports the command finished.
#ifdef _WIN32
#include <windows.h>
#else
#include <sys/mman.h>
#endif

#include <cstdlib>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "host_memory.h"

#include "completion.h"
#include "event.h"

namespace ocl {

const napi_type_tag NativeHostBlock::kTypeTag = {0x6f636c2d686f7374ULL, 0x626c6f636b00000bULL};

namespace {

constexpr size_t kPage = 4096;
constexpr size_t kMappedFrom = 1 << 20;  // smaller blocks come from the heap
constexpr size_t kPoolBytes = 256u << 20;
constexpr size_t kPoolBlocks = 8;

size_t RoundToPages(size_t bytes) { return (bytes + kPage - 1) / kPage * kPage; }

uint8_t* MapPages(size_t bytes) {
#ifdef _WIN32
  return static_cast<uint8_t*>(VirtualAlloc(nullptr, bytes, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE));
#else
  void* pages = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return pages == MAP_FAILED ? nullptr : static_cast<uint8_t*>(pages);
#endif
}

void UnmapPages(uint8_t* data, size_t bytes) {
#ifdef _WIN32
  (void)bytes;
  VirtualFree(data, 0, MEM_RELEASE);
#else
  munmap(data, bytes);
#endif
}

// Large blocks are kept for reuse: fresh pages cost a fault each on first
// touch, which for a 64 MiB staging copy is most of its time. Blocks are
// given back from driver threads, hence the lock.
class PagePool {
 public:
  static PagePool& Shared() {
    static auto* pool = new PagePool();  // never destroyed: driver threads may give blocks back at exit
    return *pool;
  }
  // A kept block of at least `bytes` (and not much more), or nullptr.
  uint8_t* Take(size_t bytes, size_t& mapped) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto best = kept_.end();
    for (auto it = kept_.begin(); it != kept_.end(); ++it) {
      if (it->second >= bytes && it->second <= bytes * 2 && (best == kept_.end() || it->second < best->second)) best = it;
    }
    if (best == kept_.end()) return nullptr;
    uint8_t* data = best->first;
    mapped = best->second;
    total_ -= mapped;
    kept_.erase(best);
    return data;
  }
  void Give(uint8_t* data, size_t mapped) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (total_ + mapped <= kPoolBytes && kept_.size() < kPoolBlocks) {
        kept_.emplace_back(data, mapped);
        total_ += mapped;
        return;
      }
    }
    UnmapPages(data, mapped);
  }

 private:
  std::mutex mutex_;
  std::vector<std::pair<uint8_t*, size_t>> kept_;
  size_t total_ = 0;
};

}  // namespace

// Small blocks from the heap; large ones as pages from the system (reused
// through the pool), never touched here unless they must be zero-filled, so
// a huge request costs address space, not memory.
HostBlock::HostBlock(size_t bytes, bool zeroed) : size(bytes) {
  size_t rounded = RoundToPages(bytes ? bytes : 1);
  if (rounded < kMappedFrom) {
#ifdef _WIN32
    data = static_cast<uint8_t*>(_aligned_malloc(rounded, kPage));
#else
    data = static_cast<uint8_t*>(std::aligned_alloc(kPage, rounded));
#endif
    if (data && zeroed) std::memset(data, 0, rounded);
    return;
  }
  mapped_ = rounded;
  data = PagePool::Shared().Take(rounded, mapped_);
  if (data) {
    if (zeroed) std::memset(data, 0, mapped_);
    return;
  }
  mapped_ = rounded;
  data = MapPages(rounded);  // zero-filled by the system
}

HostBlock::~HostBlock() {
  if (!data) return;
  if (mapped_ == 0) {
#ifdef _WIN32
    _aligned_free(data);
#else
    std::free(data);
#endif
    return;
  }
  PagePool::Shared().Give(data, mapped_);
}

NativeHostBlock::NativeHostBlock(const Napi::CallbackInfo& info) : Napi::ObjectWrap<NativeHostBlock>(info) {
  info.This().As<Napi::Object>().TypeTag(&kTypeTag);
}

std::shared_ptr<HostBlock> NativeHostBlock::From(const Napi::Value& v, const char* what) {
  Napi::Env env = v.Env();
  if (!v.IsObject() || !v.As<Napi::Object>().CheckTypeTag(&kTypeTag)) {
    throw Napi::TypeError::New(env, std::string(what) + " must be host memory of this binding");
  }
  auto* self = Unwrap(v.As<Napi::Object>());
  if (!self->block_) ThrowReleased(env, "HostMemory");
  return self->block_;
}

bool NativeHostBlock::Is(const Napi::Value& v) { return v.IsObject() && v.As<Napi::Object>().CheckTypeTag(&kTypeTag); }

Napi::Object NativeHostBlock::Wrap(Napi::Env env, std::shared_ptr<HostBlock> block) {
  Napi::Object object = AddonData::Get(env).constructors.at(&kTypeTag).New({});
  Unwrap(object)->block_ = std::move(block);
  return object;
}

static std::shared_ptr<HostBlock> Allocate(Napi::Env env, size_t size, bool zeroed) {
  auto block = std::make_shared<HostBlock>(size, zeroed);
  if (!block->data) throw Napi::RangeError::New(env, "could not allocate " + std::to_string(size) + " bytes of host memory");
  return block;
}

// allocateHostBlock(size, zeroed): page-aligned memory (zero-filled when asked:
// HostMemory is; a staging block for a read need not be).
static Napi::Value AllocateHostBlock(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return NativeHostBlock::Wrap(env, Allocate(env, ToSize(info[0], "size"), info[1].ToBoolean()));
}

// stageHostBlock(view, size): a block holding a copy of the view's first size bytes.
static Napi::Value StageHostBlock(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  HostView view = ToHostView(info[0], "host memory");
  size_t size = ToSize(info[1], "size");
  if (size > view.length) {
    throw Napi::RangeError::New(env, "host memory has " + std::to_string(view.length) + " bytes; " + std::to_string(size) + " are needed");
  }
  auto block = Allocate(env, size, false);
  if (size) std::memcpy(block->data, view.data, size);
  return NativeHostBlock::Wrap(env, std::move(block));
}

// copyTo(view): the block's bytes into a JS view. False when the view can no
// longer hold them (detached or shrunk since the command was enqueued).
Napi::Value NativeHostBlock::CopyTo(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto block = From(info.This(), "this");
  HostView view;
  try {
    view = ToHostView(info[0], "target");
  } catch (const Napi::Error&) {
    return Napi::Boolean::New(env, false);
  }
  if (view.length < block->size) return Napi::Boolean::New(env, false);
  if (block->size) std::memcpy(view.data, block->data, block->size);
  return Napi::Boolean::New(env, true);
}

Napi::Value OwningArrayBuffer(Napi::Env env, void* data, size_t size, napi_finalize finalize, void* hint, const char* what) {
  napi_value result;
  napi_status status = napi_create_external_arraybuffer(env, data, size, finalize, hint, &result);
  if (status == napi_ok) return Napi::Value(env, result);
  if (status == napi_no_external_buffers_allowed) {  // refused before Node took the finalizer: the hint is still ours
    finalize(env, data, hint);
    throw Napi::Error::New(env, std::string("this JavaScript engine does not allow ArrayBuffers over native memory (Electron's memory cage), so ") +
                                    what + " has no ArrayBuffer: use readBuffer / writeBuffer with your own typed arrays instead");
  }
  // Node has run the finalizer (freeing a mapping's record a second time here was a SIGSEGV), or holds it
  // for a half-made ArrayBuffer's collection.
  napi_value pending;  // Node's own error (ERR_BUFFER_TOO_LARGE): this one names what was wrapped
  napi_get_and_clear_last_exception(env, &pending);
  throw Napi::RangeError::New(
      env, std::string(what) + " (" + std::to_string(size) + " bytes) could not be made an ArrayBuffer (over buffer.constants.MAX_LENGTH?)");
}

// arrayBuffer(): an ArrayBuffer over the block itself, for code that fills or
// reads it directly. The ArrayBuffer holds its own reference to the block.
Napi::Value NativeHostBlock::ArrayBuffer(const Napi::CallbackInfo& info) {
  auto block = From(info.This(), "this");
  return OwningArrayBuffer(
      info.Env(), block->data, block->size, [](napi_env, void*, void* hint) { delete static_cast<std::shared_ptr<HostBlock>*>(hint); },
      new std::shared_ptr<HostBlock>(block), "the host memory");
}

Napi::Value NativeHostBlock::Size(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(From(info.This(), "this")->size));
}

Napi::Value NativeHostBlock::Release(const Napi::CallbackInfo& info) {
  block_.reset();
  return info.Env().Undefined();
}

void NativeHostBlock::Init(Napi::Env env, Napi::Object exports) {
  Napi::Function ctor =
      DefineClass(env, kName,
                  {InstanceMethod("copyTo", &NativeHostBlock::CopyTo), InstanceMethod("arrayBuffer", &NativeHostBlock::ArrayBuffer),
                   InstanceMethod("release", &NativeHostBlock::Release), InstanceAccessor("size", &NativeHostBlock::Size, nullptr)});
  AddonData::Get(env).constructors[&kTypeTag] = Napi::Persistent(ctor);
  exports.Set(kName, ctor);
}

TransferHost ToTransferHost(const Napi::Value& v, bool blocking, const char* what) {
  TransferHost host;
  // A typed array is the common case: asked first, it spares the type-tag lookup of a block.
  if (!v.IsTypedArray() && NativeHostBlock::Is(v)) {
    host.block = NativeHostBlock::From(v, what);
    host.data = host.block->data;
    host.length = host.block->size;
    return host;
  }
  // JS memory only for the length of a blocking call: no JS runs meanwhile,
  // so nothing can free, detach or resize it.
  if (!blocking) throw Napi::TypeError::New(v.Env(), std::string(what) + ": a non-blocking transfer needs host memory of this binding");
  HostView view = ToHostView(v, what);
  host.data = view.data;
  host.length = view.length;
  return host;
}

static void OCL_CALL DropBlock(cl_event, cl_int, void* user) { delete static_cast<std::shared_ptr<HostBlock>*>(user); }

// Keeps `block` until the driver calls back for `event`; without a callback it
// is kept for the life of the process: a leak, never a write into freed memory.
static void HoldUntilCalledBack(const CoreApi& api, cl_event event, std::shared_ptr<HostBlock> block) {
  auto* hold = new std::shared_ptr<HostBlock>(std::move(block));
  if (NotifyOnStatus(api, event, CL_COMPLETE, DropBlock, hold) != CL_SUCCESS) (void)hold;
}

// Lets go of an ended command's event: at once where it completed, a while later where it failed (event.h).
// False while it has not ended.
static bool ReleaseIfEnded(const CoreApi& api, cl_event event) {
  cl_int status = CL_QUEUED;
  if (api.clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) != CL_SUCCESS || status > CL_COMPLETE)
    return false;
  if (status == CL_COMPLETE) {
    api.clReleaseEvent(event);
  } else {
    ReleaseFailedLater(event);
  }
  return true;
}

void HeldTransfers::Hold(const CoreApi& api, cl_command_queue queue, cl_event event, std::shared_ptr<HostBlock> block) {
  if (order_ == Order::kUnknown) {
    cl_command_queue_properties properties = 0;
    bool known = api.clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof properties, &properties, nullptr) == CL_SUCCESS;
    order_ = known && !(properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) ? Order::kInOrder : Order::kOutOfOrder;
  }
  // A large copy is not left to wait for a next transfer that may never come: its callback costs little beside it.
  if (order_ == Order::kOutOfOrder || block->size >= kMappedFrom || api.clRetainEvent(event) != CL_SUCCESS)
    return HoldUntilCalledBack(api, event, std::move(block));
  while (!items_.empty() && ReleaseIfEnded(api, items_.front().first)) items_.pop_front();
  items_.emplace_back(event, std::move(block));
}

void HeldTransfers::HandOver(const CoreApi* api) {
  if (!api) return;
  for (auto& [event, block] : items_) {
    if (ReleaseIfEnded(*api, event)) continue;
    HoldUntilCalledBack(*api, event, std::move(block));
    api->clReleaseEvent(event);
  }
  items_.clear();
}

// The process is ending (HandOver had no API): the blocks may still be read by
// the driver, so they are kept.
HeldTransfers::~HeldTransfers() {
  for (auto& item : items_) new std::shared_ptr<HostBlock>(std::move(item.second));
}

void InitHostMemory(Napi::Env env, Napi::Object exports) {
  NativeHostBlock::Init(env, exports);
  exports.Set("allocateHostBlock", Napi::Function::New(env, AllocateHostBlock, "allocateHostBlock"));
  exports.Set("stageHostBlock", Napi::Function::New(env, StageHostBlock, "stageHostBlock"));
}

}  // namespace ocl
