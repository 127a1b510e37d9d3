// The command queue and every core command enqueued on it: markers and
// barriers, buffer and image transfers, copies and fills, maps and unmaps,
// and kernels (enqueueNDRange). The twin of lib/queue.ts.
#include "queue.h"

#include <algorithm>
#include <mutex>
#include <string>
#include <vector>

#include "completion.h"
#include "host_memory.h"

namespace ocl {

const napi_type_tag NativeQueue::kTypeTag = {0x6f636c2d71756575ULL, 0x6500000000000004ULL};

void NativeQueue::ReleaseHandle(cl_command_queue h) {
  ForgetQueue(h);
  ApiOrNull()->clReleaseCommandQueue(h);
}

NativeQueue::~NativeQueue() {
  // Collected without release(): lib/ can no longer release its commands' events.
  if (handle()) {
    BeforeRelease();
    AddonData::Get(Env()).events->ReleaseCommandsOf(handle());
  }
}

void NativeQueue::BeforeRelease() {
  if (held_) held_->HandOver(ReleaseApiOrNull());
}

void NativeQueue::HoldUntilComplete(Napi::Env env, cl_event event, std::shared_ptr<HostBlock> block) {
  if (!block || !event) return;
  if (!held_) held_ = std::make_unique<HeldTransfers>();
  held_->Hold(Api(env), Checked(env), event, std::move(block));
}

namespace {

// createQueue(context, device, properties: bigint[] | null, legacyProperties: bigint)
// With a properties array, clCreateCommandQueueWithProperties (OpenCL 2.0+);
// otherwise clCreateCommandQueue. lib/ picks by platform version.
Napi::Value CreateQueue(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_context context = NativeContext::From(info[0], "context");
  cl_device_id device = NativeDevice::From(info[1], "device");
  cl_command_queue queue = nullptr;
  if (info[2].IsArray()) {
    auto array = info[2].As<Napi::Array>();
    std::vector<cl_queue_properties> props;
    for (uint32_t i = 0; i < array.Length(); ++i) props.push_back(ToU64(array.Get(i), "queue property"));
    props.push_back(0);
    queue = OCL_CREATE(env, clCreateCommandQueueWithProperties, context, device, props.data());
  } else {
    cl_command_queue_properties properties = ToU64(info[3], "properties");
    queue = OCL_CREATE(env, clCreateCommandQueue, context, device, properties);
  }
  return NativeQueue::Wrap(env, queue);
}

Napi::Value EnqueueMarker(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  Enqueue op(info[1]);
  OCL_CHECK(env, clEnqueueMarkerWithWaitList, queue, op.count(), op.list(), &op.event);
  return op.Result(env);
}

Napi::Value EnqueueBarrier(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  Enqueue op(info[1]);
  OCL_CHECK(env, clEnqueueBarrierWithWaitList, queue, op.count(), op.list(), &op.event);
  return op.Result(env);
}

constexpr cl_uint kImageElementSize = 0x1111;        // CL_IMAGE_ELEMENT_SIZE
constexpr cl_uint kMemAssociatedMemObject = 0x1107;  // CL_MEM_ASSOCIATED_MEMOBJECT
constexpr cl_uint kMemOffset = 0x1108;               // CL_MEM_OFFSET

// Bytes a host region of an image occupies, so no transfer can run past the
// JS memory it was given. Pitches of 0 mean "tightly packed".
bool MulAdd(size_t a, size_t b, size_t& total) {
  size_t product = 0;
  if (a != 0 && b > SIZE_MAX / a) return false;
  product = a * b;
  if (total > SIZE_MAX - product) return false;
  total += product;
  return true;
}

// Bytes a host region of an image occupies, so no transfer can run past the
// memory it was given. Pitches of 0 mean "tightly packed"; every product is
// checked, so no wrap-around can make a huge region look small.
size_t HostImageBytes(Napi::Env env, cl_mem image, const size_t region[3], size_t& rowPitch, size_t& slicePitch) {
  size_t elementSize = 0;
  OCL_CHECK(env, clGetImageInfo, image, kImageElementSize, sizeof(elementSize), &elementSize, nullptr);
  auto tooLarge = [&] { return Napi::RangeError::New(env, "the host region is larger than the address space"); };
  size_t rowBytes = 0;
  if (!MulAdd(region[0], elementSize, rowBytes)) throw tooLarge();
  if (rowPitch == 0) rowPitch = rowBytes;
  if (slicePitch == 0 && !MulAdd(rowPitch, region[1], slicePitch)) throw tooLarge();
  if (region[0] == 0 || region[1] == 0 || region[2] == 0) return 0;
  size_t total = rowBytes;
  if (!MulAdd(slicePitch, region[2] - 1, total) || !MulAdd(rowPitch, region[1] - 1, total)) throw tooLarge();
  return total;
}

// enqueueReadBuffer / enqueueWriteBuffer(queue, buffer, blocking, offset, size, host, waitList)
// host: a HostBlock (any transfer) or JS memory (blocking transfers only).
template <bool kWrite>
Napi::Value EnqueueBufferTransfer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  bool blocking = info[2].ToBoolean();
  size_t offset = ToSize(info[3], "offset");
  size_t size = ToSize(info[4], "size");
  TransferHost host = ToTransferHost(info[5], blocking, "host memory");
  RequireBytes(env, HostView{host.data, host.length}, size, "host memory");
  NativeQueue* owner = NativeQueue::FromValue(info[0], "queue");
  cl_command_queue queue = owner->Checked(env);
  cl_mem mem = NativeMem::From(info[1], "buffer");
  Enqueue op(info[6]);
  if (kWrite) {
    OCL_CHECK(env, clEnqueueWriteBuffer, queue, mem, blocking, offset, size, host.data, op.count(), op.list(), &op.event);
  } else {
    OCL_CHECK(env, clEnqueueReadBuffer, queue, mem, blocking, offset, size, host.data, op.count(), op.list(), &op.event);
  }
  if (!blocking) owner->HoldUntilComplete(env, op.event, host.block);
  return op.Result(env);
}

// enqueueReadImage / enqueueWriteImage(queue, image, blocking, origin, region, rowPitch, slicePitch, host, waitList)
template <bool kWrite>
Napi::Value EnqueueImageTransfer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  bool blocking = info[2].ToBoolean();
  size_t origin[3], region[3];
  ToTriple(info[3], "origin", origin);
  ToTriple(info[4], "region", region);
  size_t rowPitch = ToSize(info[5], "rowPitch");
  size_t slicePitch = ToSize(info[6], "slicePitch");
  size_t hostRowPitch = rowPitch, hostSlicePitch = slicePitch;
  TransferHost host = ToTransferHost(info[7], blocking, "host memory");
  NativeQueue* owner = NativeQueue::FromValue(info[0], "queue");
  cl_command_queue queue = owner->Checked(env);
  cl_mem image = NativeMem::From(info[1], "image");
  RequireBytes(env, HostView{host.data, host.length}, HostImageBytes(env, image, region, hostRowPitch, hostSlicePitch), "host memory");
  Enqueue op(info[8]);
  if (kWrite) {
    OCL_CHECK(env, clEnqueueWriteImage, queue, image, blocking, origin, region, rowPitch, slicePitch, host.data, op.count(), op.list(), &op.event);
  } else {
    OCL_CHECK(env, clEnqueueReadImage, queue, image, blocking, origin, region, rowPitch, slicePitch, host.data, op.count(), op.list(), &op.event);
  }
  if (!blocking) owner->HoldUntilComplete(env, op.event, host.block);
  return op.Result(env);
}

// Every function below reads all of its JS arguments (numbers, arrays, the
// wait list) before it takes the raw handles: a getter on an array element
// could otherwise release an object between the check and the call.

// enqueueCopyBuffer(queue, src, dst, srcOffset, dstOffset, size, waitList)
Napi::Value EnqueueCopyBuffer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  size_t srcOffset = ToSize(info[3], "srcOffset"), dstOffset = ToSize(info[4], "dstOffset");
  size_t size = ToSize(info[5], "size");
  Enqueue op(info[6]);
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  cl_mem src = NativeMem::From(info[1], "source");
  cl_mem dst = NativeMem::From(info[2], "destination");
  OCL_CHECK(env, clEnqueueCopyBuffer, queue, src, dst, srcOffset, dstOffset, size, op.count(), op.list(), &op.event);
  return op.Result(env);
}

// enqueueFillBuffer(queue, buffer, pattern, offset, size, waitList); the
// driver copies the pattern before it returns.
Napi::Value EnqueueFillBuffer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  size_t offset = ToSize(info[3], "offset"), size = ToSize(info[4], "size");
  Enqueue op(info[5]);
  HostView pattern = ToHostView(info[2], "pattern");
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  cl_mem mem = NativeMem::From(info[1], "buffer");
  OCL_CHECK(env, clEnqueueFillBuffer, queue, mem, pattern.data, pattern.length, offset, size, op.count(), op.list(), &op.event);
  return op.Result(env);
}

// enqueueCopyImage(queue, src, dst, srcOrigin, dstOrigin, region, waitList)
Napi::Value EnqueueCopyImage(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  size_t srcOrigin[3], dstOrigin[3], region[3];
  ToTriple(info[3], "srcOrigin", srcOrigin);
  ToTriple(info[4], "dstOrigin", dstOrigin);
  ToTriple(info[5], "region", region);
  Enqueue op(info[6]);
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  cl_mem src = NativeMem::From(info[1], "source");
  cl_mem dst = NativeMem::From(info[2], "destination");
  OCL_CHECK(env, clEnqueueCopyImage, queue, src, dst, srcOrigin, dstOrigin, region, op.count(), op.list(), &op.event);
  return op.Result(env);
}

// enqueueFillImage(queue, image, color (16 bytes), origin, region, waitList)
Napi::Value EnqueueFillImage(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  size_t origin[3], region[3];
  ToTriple(info[3], "origin", origin);
  ToTriple(info[4], "region", region);
  Enqueue op(info[5]);
  HostView color = ToHostView(info[2], "color");
  RequireBytes(env, color, 16, "color");
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  cl_mem image = NativeMem::From(info[1], "image");
  OCL_CHECK(env, clEnqueueFillImage, queue, image, color.data, origin, region, op.count(), op.list(), &op.event);
  return op.Result(env);
}

// A sub-buffer as its parent and the offset of a range in it (lib/queue.ts
// asks for this conversion for copies between images and sub-buffers, which
// PoCL 3.1 crashes on; it checked the range against the sub-buffer first).
void ToParentBuffer(Napi::Env env, cl_mem& buffer, size_t& offset) {
  cl_mem parent = nullptr;
  size_t origin = 0;
  OCL_CHECK(env, clGetMemObjectInfo, buffer, kMemAssociatedMemObject, sizeof(parent), &parent, nullptr);
  OCL_CHECK(env, clGetMemObjectInfo, buffer, kMemOffset, sizeof(origin), &origin, nullptr);
  if (!parent) return;
  buffer = parent;
  offset += origin;
}

// enqueueCopyImageToBuffer(queue, image, buffer, origin, region, dstOffset, waitList, throughParent)
Napi::Value EnqueueCopyImageToBuffer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  size_t origin[3], region[3];
  ToTriple(info[3], "origin", origin);
  ToTriple(info[4], "region", region);
  size_t dstOffset = ToSize(info[5], "dstOffset");
  Enqueue op(info[6]);
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  cl_mem image = NativeMem::From(info[1], "image");
  cl_mem buffer = NativeMem::From(info[2], "buffer");
  if (info[7].ToBoolean()) ToParentBuffer(env, buffer, dstOffset);
  OCL_CHECK(env, clEnqueueCopyImageToBuffer, queue, image, buffer, origin, region, dstOffset, op.count(), op.list(), &op.event);
  return op.Result(env);
}

// enqueueCopyBufferToImage(queue, buffer, image, srcOffset, origin, region, waitList, throughParent)
Napi::Value EnqueueCopyBufferToImage(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  size_t srcOffset = ToSize(info[3], "srcOffset");
  size_t origin[3], region[3];
  ToTriple(info[4], "origin", origin);
  ToTriple(info[5], "region", region);
  Enqueue op(info[6]);
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  cl_mem buffer = NativeMem::From(info[1], "buffer");
  cl_mem image = NativeMem::From(info[2], "image");
  if (info[7].ToBoolean()) ToParentBuffer(env, buffer, srcOffset);
  OCL_CHECK(env, clEnqueueCopyBufferToImage, queue, buffer, image, srcOffset, origin, region, op.count(), op.list(), &op.event);
  return op.Result(env);
}

void OCL_CALL ReleaseEventsWhenDone(cl_event, cl_int, void* user) {
  auto* events = static_cast<std::pair<cl_event, cl_event>*>(user);
  if (const CoreApi* api = ApiOrNull()) {
    api->clReleaseEvent(events->first);
    if (events->second) api->clReleaseEvent(events->second);
  }
  delete events;
}

// Map commands still in flight, by the address they map. A driver finds the
// mapping an unmap ends by its address, not by its map command: PoCL takes the
// earliest mapping of that address in the memory object (its parent for a
// sub-buffer) not yet being unmapped, which need not be the caller's (maps for
// reading of one region share their address, and a released queue's mapping
// stays until its map has run). If that other mapping's map has not run when
// the unmap ends, the map then runs on freed memory (PoCL 3.1: SIGSEGV, or
// "pocl_driver_map_mem: Assertion 'map->host_ptr' failed"). Waiting on those
// maps is not enough: PoCL ends a command as soon as any event it waits on
// fails, the others still pending. So no unmap is enqueued while another map
// of its address is in flight: unmap() waits for such maps (lib/ refuses
// first when one waits on a user event that is not set), and the unmap of a
// collected mapping is deferred: it is enqueued at the first map or unmap of
// the process after they have ended.
struct DeferredUnmap {
  cl_command_queue queue;
  cl_mem mem;
  void* pointer;
  cl_event mapped;  // may be null
};

void EnqueueAbandonedUnmap(const CoreApi& api, const DeferredUnmap& unmap);

class MapsInFlight {
 public:
  void Add(const CoreApi& api, void* pointer, cl_command_queue queue, cl_event map) {
    IssueReady(api);
    if (!map || Ended(api, map)) return;
    std::lock_guard<std::mutex> lock(mutex_);
    Prune(api);
    api.clRetainEvent(map);
    maps_.push_back({pointer, map});
  }
  // The maps of `pointer` in flight other than `own`, each retained (the caller releases them).
  std::vector<cl_event> Others(const CoreApi& api, void* pointer, cl_event own) {
    std::lock_guard<std::mutex> lock(mutex_);
    Prune(api);
    std::vector<cl_event> others;
    for (const Entry& entry : maps_) {
      if (entry.pointer != pointer || entry.map == own) continue;
      api.clRetainEvent(entry.map);
      others.push_back(entry.map);
    }
    return others;
  }
  // The unmap of a collected mapping: now, or once the other maps of its address have ended.
  void Unmap(const CoreApi& api, DeferredUnmap unmap) {
    IssueReady(api);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      Prune(api);
      if (HasOthers(unmap.pointer, unmap.mapped)) {
        deferred_.push_back(unmap);
        return;
      }
    }
    EnqueueAbandonedUnmap(api, unmap);
  }

 private:
  struct Entry {
    void* pointer;
    cl_event map;
  };
  static bool Ended(const CoreApi& api, cl_event event) {
    cl_int status = CL_COMPLETE;
    return api.clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) != CL_SUCCESS || status <= CL_COMPLETE;
  }
  bool HasOthers(void* pointer, cl_event own) const {
    return std::any_of(maps_.begin(), maps_.end(), [&](const Entry& e) { return e.pointer == pointer && e.map != own; });
  }
  // Ended maps need no wait: their references go at once (few maps are in flight at a time).
  void Prune(const CoreApi& api) {
    maps_.erase(std::remove_if(maps_.begin(), maps_.end(),
                               [&](const Entry& entry) {
                                 if (!Ended(api, entry.map)) return false;
                                 api.clReleaseEvent(entry.map);
                                 return true;
                               }),
                maps_.end());
  }
  // Deferred unmaps whose address has no other map in flight any more (at every map and unmap).
  void IssueReady(const CoreApi& api) {
    std::vector<DeferredUnmap> ready;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (deferred_.empty()) return;
      Prune(api);
      auto still = std::stable_partition(deferred_.begin(), deferred_.end(), [&](const DeferredUnmap& d) { return HasOthers(d.pointer, d.mapped); });
      ready.assign(still, deferred_.end());
      deferred_.erase(still, deferred_.end());
    }
    for (const DeferredUnmap& unmap : ready) EnqueueAbandonedUnmap(api, unmap);
  }
  std::mutex mutex_;
  std::vector<Entry> maps_;
  std::vector<DeferredUnmap> deferred_;
};

// Process-wide: pointers and driver objects are (worker threads share them). Never destroyed, so
// a record collected during teardown still finds it.
MapsInFlight& mapsInFlight = *new MapsInFlight();

// Enqueues the unmap of a mapping nobody can unmap any more, after its map,
// and lets go of the references the record held.
void EnqueueAbandonedUnmap(const CoreApi& api, const DeferredUnmap& unmap) {
  cl_event event = nullptr;
  cl_event mapped = unmap.mapped;
  if (api.clEnqueueUnmapMemObject(unmap.queue, unmap.mem, unmap.pointer, mapped ? 1 : 0, mapped ? &mapped : nullptr, &event) == CL_SUCCESS) {
    api.clFlush(unmap.queue);
    // The unmap may wait behind a command gated by a user event: its event
    // (and the map's, which it waits on) is kept until it ends (PoCL aborts
    // when a waiting command's event is gone as a user event fails).
    auto* events = new std::pair<cl_event, cl_event>(event, mapped);
    if (event && NotifyOnStatus(api, event, CL_COMPLETE, ReleaseEventsWhenDone, events) == CL_SUCCESS) {
      mapped = nullptr;
    } else {
      delete events;
      if (event) api.clReleaseEvent(event);
    }
  }
  if (mapped) api.clReleaseEvent(mapped);
  api.clReleaseMemObject(unmap.mem);
  api.clReleaseCommandQueue(unmap.queue);
}

// A mapped region. Its ArrayBuffer holds the record, and the record holds its
// own references to the memory object, the queue and the map command's event:
// releasing (or collecting) the buffer, queue and context cannot free storage
// a view still reaches. When the ArrayBuffer goes without an unmap, the
// record unmaps, after the map: on an out-of-order queue nothing else orders
// the two, and PoCL crashes unmapping a map that has not run (one gated by a
// user event).
struct MapRecord {
  cl_command_queue queue;
  cl_mem mem;
  void* pointer;
  cl_event mapped;  // the map command's event (null for a blocking map without one)
  bool unmapped = false;
  MapRecord(const CoreApi& api, cl_command_queue q, cl_mem m, void* p, cl_event e) : queue(q), mem(m), pointer(p), mapped(e) {
    api.clRetainCommandQueue(queue);
    api.clRetainMemObject(mem);
    if (mapped) api.clRetainEvent(mapped);
  }
  ~MapRecord() {
    const CoreApi* api = ApiOrNull();
    if (!api) return;
    if (!unmapped) {
      mapsInFlight.Unmap(*api, {queue, mem, pointer, mapped});  // takes the references
      return;
    }
    if (mapped) api->clReleaseEvent(mapped);
    api->clReleaseMemObject(mem);
    api->clReleaseCommandQueue(queue);
  }
};

Napi::Object MapResult(Napi::Env env, cl_command_queue queue, cl_mem mem, void* pointer, size_t size, cl_event event) {
  auto* record = new MapRecord(Api(env), queue, mem, pointer, event);
  mapsInFlight.Add(Api(env), pointer, queue, event);
  Napi::Object result = Napi::Object::New(env);
  Napi::Value buffer;
  try {
    // Deleting the record unmaps (after the map).
    buffer = OwningArrayBuffer(
        env, pointer, size, [](napi_env, void*, void* hint) { delete static_cast<MapRecord*>(hint); }, record, "the mapping");
  } catch (...) {
    if (event) Api(env).clReleaseEvent(event);
    throw;
  }
  result.Set("buffer", buffer);
  result.Set("record", Napi::External<MapRecord>::New(env, record));
  result.Set("event", WrapEvent(env, event));
  result.Set("address", Napi::BigInt::New(env, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(pointer))));
  return result;
}

// enqueueMapBuffer(queue, buffer, blocking, flags, offset, size, waitList) -> { buffer, record, event }
Napi::Value EnqueueMapBuffer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  bool blocking = info[2].ToBoolean();
  cl_map_flags flags = ToU64(info[3], "flags");
  size_t offset = ToSize(info[4], "offset");
  size_t size = ToSize(info[5], "size");
  Enqueue op(info[6]);
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  cl_mem mem = NativeMem::From(info[1], "buffer");
  void* pointer = OCL_CREATE(env, clEnqueueMapBuffer, queue, mem, blocking, flags, offset, size, op.count(), op.list(), &op.event);
  return MapResult(env, queue, mem, pointer, size, op.event);
}

// enqueueMapImage(queue, image, blocking, flags, origin, region, waitList)
//   -> { buffer, record, event, rowPitch, slicePitch }
Napi::Value EnqueueMapImage(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  bool blocking = info[2].ToBoolean();
  cl_map_flags flags = ToU64(info[3], "flags");
  size_t origin[3], region[3];
  ToTriple(info[4], "origin", origin);
  ToTriple(info[5], "region", region);
  Enqueue op(info[6]);
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  cl_mem image = NativeMem::From(info[1], "image");
  size_t rowPitch = 0, slicePitch = 0;
  void* pointer =
      OCL_CREATE(env, clEnqueueMapImage, queue, image, blocking, flags, origin, region, &rowPitch, &slicePitch, op.count(), op.list(), &op.event);
  size_t bytesRowPitch = rowPitch, bytesSlicePitch = slicePitch ? slicePitch : rowPitch * region[1];
  size_t size = 0;
  try {
    size = HostImageBytes(env, image, region, bytesRowPitch, bytesSlicePitch);
  } catch (...) {
    // As a collected mapping's unmap: after its map, and after the other maps of its address (MapsInFlight).
    const CoreApi& api = Api(env);
    api.clRetainCommandQueue(queue);
    api.clRetainMemObject(image);
    mapsInFlight.Unmap(api, {queue, image, pointer, op.event});  // takes the references and op.event
    throw;
  }
  Napi::Object result = MapResult(env, queue, image, pointer, size, op.event);
  result.Set("rowPitch", Napi::Number::New(env, static_cast<double>(rowPitch)));
  result.Set("slicePitch", Napi::Number::New(env, static_cast<double>(slicePitch)));
  return result;
}

// enqueueUnmap(mappedArrayBuffer, record, waitList) -> event. The record is
// alive while its ArrayBuffer is attached; unmapping detaches it so no view
// can reach the memory afterwards.
Napi::Value EnqueueUnmap(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[0].IsArrayBuffer() || !info[1].IsExternal()) {
    throw Napi::TypeError::New(env, "unmap takes the ArrayBuffer and record of a map");
  }
  Napi::ArrayBuffer mapped = info[0].As<Napi::ArrayBuffer>();
  if (mapped.IsDetached()) throw Napi::TypeError::New(env, "the mapping's ArrayBuffer is detached");
  auto* record = info[1].As<Napi::External<MapRecord>>().Data();
  if (record->unmapped || record->pointer != mapped.Data()) throw Napi::TypeError::New(env, "not this mapping's record");
  Enqueue op(info[2]);
  if (record->mapped) op.waitList.push_back(record->mapped);  // after the map, whatever the queue's order
  // Not while another map of its address is in flight (MapsInFlight): lib/ has refused those that wait on a user
  // event that is not set, so these end.
  std::vector<cl_event> others = mapsInFlight.Others(Api(env), record->pointer, record->mapped);
  if (!others.empty()) {
    Api(env).clWaitForEvents(static_cast<cl_uint>(others.size()), others.data());  // a failed map has ended too
    for (cl_event other : others) Api(env).clReleaseEvent(other);
  }
  OCL_CHECK(env, clEnqueueUnmapMemObject, record->queue, record->mem, record->pointer, op.count(), op.list(), &op.event);
  record->unmapped = true;
  mapped.Detach();
  return op.Result(env);
}

// detachArrayBuffer(mapped): used when a mapping cannot be unmapped (its
// queue is gone), so no view can reach memory the driver may reuse.
Napi::Value DetachArrayBuffer(const Napi::CallbackInfo& info) {
  if (info[0].IsArrayBuffer() && !info[0].As<Napi::ArrayBuffer>().IsDetached()) info[0].As<Napi::ArrayBuffer>().Detach();
  return info.Env().Undefined();
}

// takeCallArrays() -> { ndrangeSizes: Float64Array(kNDRangeSizes), kernelArgOps:
// Float64Array(kArgOps) }: the arrays enqueueNDRange reads its sizes and the
// kernel's pending arguments from. Made here, handed out once per environment
// (lib/addon.ts takes them as it loads the addon, before any script can reach
// it); later calls are refused, so no script can hand the addon arrays of its own.
Napi::Value TakeCallArrays(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto& data = AddonData::Get(env);
  if (!data.ndrangeSizes.IsEmpty())
    throw Napi::Error::New(env, "the call arrays were handed out already (to opencl-interop, as it loaded the addon)");
  // One buffer under both: one detach check per enqueueNDRange.
  auto buffer = Napi::ArrayBuffer::New(env, (kNDRangeSizes + kArgOps) * sizeof(double));
  Napi::Float64Array sizes = data.ndrangeSizes.MakeOn(env, buffer, 0, kNDRangeSizes);
  Napi::Float64Array ops = data.argOps.MakeOn(env, buffer, kNDRangeSizes, kArgOps);
  Napi::Object result = Napi::Object::New(env);
  result.Set("ndrangeSizes", sizes);
  result.Set("kernelArgOps", ops);
  return result;
}

double SlotArg(const Napi::CallbackInfo& info, size_t i, const char* what) {
  double id = -1;
  if (napi_get_value_double(info.Env(), info[i], &id) != napi_ok) {
    throw Napi::TypeError::New(info.Env(), std::string(what) + " must be a slot number");
  }
  return id;
}

// enqueueNDRange(queueSlot, kernelSlot, waitList, compilesInProcess): dimensions and sizes come
// from the array takeCallArrays made: [dims, hasOffset, hasLocal, global x3,
// offset x3, local x3]; pending arguments are applied first (ApplyPendingArgs).
// compilesInProcess: the driver may compile the kernel on its own threads at
// its first run; the command is kept until it ends (NoteKernelCommand, completion.h).
Napi::Value EnqueueNDRange(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  AddonData& data = AddonData::Get(env);  // once: each lookup is a Node-API call
  auto* queue = static_cast<NativeQueue*>(data.objects.Find(SlotArg(info, 0, "queue"), &NativeQueue::kTypeTag));
  if (!queue) throw Napi::TypeError::New(env, "queue must be the slot of a " + std::string(NativeQueue::kName));
  auto* kernel = static_cast<NativeKernel*>(data.objects.Find(SlotArg(info, 1, "kernel"), &NativeKernel::kTypeTag));
  if (!kernel) throw Napi::TypeError::New(env, "kernel must be the slot of a " + std::string(NativeKernel::kName));
  if (!queue->handle()) ThrowReleased(env, NativeQueue::kName);
  if (!kernel->handle()) ThrowReleased(env, NativeKernel::kName);
  size_t sizesLength = 0, opsLength = 0;
  const double* v = data.ndrangeSizes.Data(env, sizesLength, "the NDRange sizes array (and the argument operations array on its buffer)");
  const double* ops = data.argOps.DataOfChecked(opsLength);
  if (sizesLength < kNDRangeSizes || opsLength < kArgOps) throw Napi::RangeError::New(env, "the call arrays are too short");
  const auto dims = static_cast<cl_uint>(v[0]);
  if (dims < 1 || dims > 3) throw Napi::RangeError::New(env, "an NDRange has 1 to 3 dimensions");
  size_t global[3], offset[3], local[3];
  for (cl_uint d = 0; d < dims; ++d) {
    global[d] = static_cast<size_t>(v[3 + d]);
    offset[d] = static_cast<size_t>(v[6 + d]);
    local[d] = static_cast<size_t>(v[9 + d]);
  }
  Enqueue op(info[2]);
  ApplyPendingArgs(env, *kernel, ops);
  OCL_CHECK(env, clEnqueueNDRangeKernel, queue->handle(), kernel->handle(), dims, v[1] != 0 ? offset : nullptr, global, v[2] != 0 ? local : nullptr,
            op.count(), op.list(), &op.event);
  if (FlagOf(info[3])) NoteKernelCommand(Api(env), &data, queue->handle(), op.event);
  return op.event ? data.events->Add(env, op.event) : env.Undefined();
}

// flushQueue(queueSlot): clFlush by slot; queue.flush() is called once per
// awaited command, and a wrapped method's unwrap costs more than the flush.
Napi::Value FlushQueue(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  NativeQueue* queue = NativeQueue::FromSlot(env, SlotArg(info, 0, "queue"), "queue");
  if (!queue->handle()) ThrowReleased(env, NativeQueue::kName);
  OCL_CHECK(env, clFlush, queue->handle());
  return env.Undefined();
}

}  // namespace

Napi::Value NativeQueue::Info(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return InfoBytes(info, Checked(env), OCL_ENTRY(env, clGetCommandQueueInfo));
}

Napi::Value NativeQueue::Flush(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  OCL_CHECK(env, clFlush, Checked(env));
  return env.Undefined();
}

Napi::Value NativeQueue::Finish(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  OCL_CHECK(env, clFinish, Checked(env));
  return env.Undefined();
}

void NativeQueue::Init(Napi::Env env, Napi::Object exports) {
  Register(
      env, exports, kName,
      {InstanceMethod("info", &NativeQueue::Info), InstanceMethod("flush", &NativeQueue::Flush), InstanceMethod("finish", &NativeQueue::Finish)});
}

void InitQueue(Napi::Env env, Napi::Object exports) {
  NativeQueue::Init(env, exports);
  exports.Set("createQueue", Napi::Function::New(env, CreateQueue, "createQueue"));
  exports.Set("enqueueMarker", Napi::Function::New(env, EnqueueMarker, "enqueueMarker"));
  const std::pair<const char*, Napi::Function::Callback> functions[] = {
      {"enqueueBarrier", EnqueueBarrier},
      {"enqueueReadBuffer", EnqueueBufferTransfer<false>},
      {"enqueueWriteBuffer", EnqueueBufferTransfer<true>},
      {"enqueueReadImage", EnqueueImageTransfer<false>},
      {"enqueueWriteImage", EnqueueImageTransfer<true>},
      {"enqueueCopyBuffer", EnqueueCopyBuffer},
      {"enqueueFillBuffer", EnqueueFillBuffer},
      {"enqueueCopyImage", EnqueueCopyImage},
      {"enqueueFillImage", EnqueueFillImage},
      {"enqueueCopyImageToBuffer", EnqueueCopyImageToBuffer},
      {"enqueueCopyBufferToImage", EnqueueCopyBufferToImage},
      {"enqueueMapBuffer", EnqueueMapBuffer},
      {"enqueueMapImage", EnqueueMapImage},
      {"enqueueUnmap", EnqueueUnmap},
      {"detachArrayBuffer", DetachArrayBuffer},
      {"takeCallArrays", TakeCallArrays},
      {"enqueueNDRange", EnqueueNDRange},
      {"flushQueue", FlushQueue},
  };
  for (const auto& [name, callback] : functions) exports.Set(name, Napi::Function::New(env, callback, name));
}

}  // namespace ocl
