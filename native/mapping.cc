// Maps and unmaps of buffers and images: the map commands, the record a
// mapping's ArrayBuffer holds, the unmap of a mapping nobody can unmap any
// more, and the maps in flight by address. The twin of lib/mapping.ts.
#include "mapping.h"

#include <algorithm>
#include <mutex>
#include <vector>

#include "host_memory.h"
#include "status_notify.h"

namespace ocl {

namespace {

void OCL_CALL ReleaseEventWhenDone(cl_event, cl_int, void* user) {
  if (const CoreApi* api = ApiOrNull()) api->clReleaseEvent(static_cast<cl_event>(user));
}

// What became of a map command. A blocking map made without an event had
// completed when it returned.
enum class MapOutcome { kCompleted, kFailed, kPending };

MapOutcome OutcomeOf(const CoreApi& api, cl_event map) {
  if (!map) return MapOutcome::kCompleted;
  cl_int status = StatusOf(api, map);  // -1 when the driver cannot say
  return status == CL_COMPLETE ? MapOutcome::kCompleted : status < CL_COMPLETE ? MapOutcome::kFailed : MapOutcome::kPending;
}

// A mapping nobody can unmap any more: its ArrayBuffer was collected, or
// detached when its map failed or its queue went. It holds one reference to
// each of its queue, memory object and map event.
struct AbandonedMapping {
  cl_command_queue queue;
  cl_mem mem;
  void* pointer;
  cl_event mapped;  // may be null
};

// The unmap of an abandoned mapping follows what became of its map:
// - completed: the unmap is enqueued, once no other map of its address is in
//   flight. A driver finds the mapping an unmap ends by its address, not by
//   its map command: PoCL takes the earliest mapping of that address in the
//   memory object (its parent for a sub-buffer) not yet being unmapped, which
//   need not be this one (maps for reading of one region share their
//   address, and a released queue's mapping stays until its map has run). If
//   that other mapping's map has not run when the unmap ends, the map then
//   runs on freed memory (PoCL 3.1: SIGSEGV, or "pocl_driver_map_mem:
//   Assertion 'map->host_ptr' failed"). Waiting on those maps is not enough:
//   PoCL ends a command as soon as any event it waits on fails, the others
//   still pending.
// - failed: no unmap at all, only the references go. A map that failed mapped
//   nothing: NVIDIA's driver (580) faults in clEnqueueUnmapMemObject given
//   its pointer, and PoCL (3.1) never ends an unmap whose wait list holds the
//   failed map, nor any later command of its in-order queue (a waitSync()
//   behind it never returned).
// - not ended (it waits on a user event not set yet): deferred until it has.
// Deferred unmaps are settled at the next map or unmap of the process.
class MapsInFlight {
 public:
  void Add(const CoreApi& api, void* pointer, cl_event map) {
    SettleReady(api);
    if (!map || Ended(api, map)) return;
    std::lock_guard<std::mutex> lock(mutex_);
    Prune(api);
    api.clRetainEvent(map);
    maps_.push_back({pointer, map});
  }
  // The maps of `pointer` in flight other than `own`, each retained (the caller releases them).
  std::vector<cl_event> Others(const CoreApi& api, void* pointer, cl_event own) {
    SettleReady(api);
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
  // Takes the mapping's references: settled now, or once its map has ended and
  // the other maps of its address have.
  void Abandon(const CoreApi& api, AbandonedMapping mapping) {
    SettleReady(api);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      Prune(api);
      if (!Ready(api, mapping)) {
        deferred_.push_back(mapping);
        return;
      }
    }
    Settle(api, mapping);
  }

 private:
  struct Entry {
    void* pointer;
    cl_event map;
  };
  static bool Ended(const CoreApi& api, cl_event event) { return OutcomeOf(api, event) != MapOutcome::kPending; }
  bool Ready(const CoreApi& api, const AbandonedMapping& mapping) const {
    if (!Ended(api, mapping.mapped)) return false;
    return std::none_of(maps_.begin(), maps_.end(), [&](const Entry& e) { return e.pointer == mapping.pointer && e.map != mapping.mapped; });
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
  // Deferred mappings that are ready now (at every map and unmap).
  void SettleReady(const CoreApi& api) {
    std::vector<AbandonedMapping> ready;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (deferred_.empty()) return;
      Prune(api);
      auto still = std::stable_partition(deferred_.begin(), deferred_.end(), [&](const AbandonedMapping& m) { return !Ready(api, m); });
      ready.assign(still, deferred_.end());
      deferred_.erase(still, deferred_.end());
    }
    for (const AbandonedMapping& mapping : ready) Settle(api, mapping);
  }
  // Its map has ended: unmaps what it mapped, and lets go of the references.
  static void Settle(const CoreApi& api, const AbandonedMapping& mapping) {
    if (OutcomeOf(api, mapping.mapped) == MapOutcome::kCompleted) {
      cl_event event = nullptr;
      if (api.clEnqueueUnmapMemObject(mapping.queue, mapping.mem, mapping.pointer, 0, nullptr, &event) == CL_SUCCESS) {
        api.clFlush(mapping.queue);
        // The unmap may wait behind a command gated by a user event (an
        // in-order queue): its event is kept until it ends (PoCL aborts when
        // a waiting command's event is gone as a user event fails).
        if (event && NotifyOnStatus(api, event, CL_COMPLETE, ReleaseEventWhenDone, event) != CL_SUCCESS) api.clReleaseEvent(event);
      }
      if (mapping.mapped) api.clReleaseEvent(mapping.mapped);
    } else if (mapping.mapped) {
      ReleaseFailedLater(mapping.mapped);  // PoCL may still be failing it on its own thread
    }
    api.clReleaseMemObject(mapping.mem);
    api.clReleaseCommandQueue(mapping.queue);
  }
  std::mutex mutex_;
  std::vector<Entry> maps_;
  std::vector<AbandonedMapping> deferred_;
};

// Process-wide: pointers and driver objects are (worker threads share them). Never destroyed, so
// a record collected during teardown still finds it.
MapsInFlight& mapsInFlight = *new MapsInFlight();

// A mapped region. Its ArrayBuffer holds the record, and the record holds its
// own references to the memory object, the queue and the map command's event:
// releasing (or collecting) the buffer, queue and context cannot free storage
// a view still reaches. When the ArrayBuffer goes without an unmap, the
// mapping is abandoned (MapsInFlight): unmapped once its map has completed,
// never when the map failed.
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
      mapsInFlight.Abandon(*api, {queue, mem, pointer, mapped});  // takes the references
      return;
    }
    if (mapped) api->clReleaseEvent(mapped);
    api->clReleaseMemObject(mem);
    api->clReleaseCommandQueue(queue);
  }
};

Napi::Object MapResult(Napi::Env env, cl_command_queue queue, cl_mem mem, void* pointer, size_t size, cl_event event) {
  auto* record = new MapRecord(Api(env), queue, mem, pointer, event);
  mapsInFlight.Add(Api(env), pointer, event);
  Napi::Object result = Napi::Object::New(env);
  Napi::Value buffer;
  try {
    // Deleting the record abandons the mapping.
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
    // Abandoned as a collected mapping is (MapsInFlight).
    const CoreApi& api = Api(env);
    api.clRetainCommandQueue(queue);
    api.clRetainMemObject(image);
    mapsInFlight.Abandon(api, {queue, image, pointer, op.event});  // takes the references and op.event
    throw;
  }
  Napi::Object result = MapResult(env, queue, image, pointer, size, op.event);
  result.Set("rowPitch", Napi::Number::New(env, static_cast<double>(rowPitch)));
  result.Set("slicePitch", Napi::Number::New(env, static_cast<double>(slicePitch)));
  return result;
}

// enqueueUnmap(mappedArrayBuffer, record, waitList) -> event. The record is
// alive while its ArrayBuffer is attached; unmapping detaches it so no view
// can reach the memory afterwards. lib/ unmaps only mappings whose map has
// completed; one whose map failed is refused here too (it mapped nothing).
Napi::Value EnqueueUnmap(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[0].IsArrayBuffer() || !info[1].IsExternal()) {
    throw Napi::TypeError::New(env, "unmap takes the ArrayBuffer and record of a map");
  }
  Napi::ArrayBuffer mapped = info[0].As<Napi::ArrayBuffer>();
  if (mapped.IsDetached()) throw Napi::TypeError::New(env, "the mapping's ArrayBuffer is detached");
  auto* record = info[1].As<Napi::External<MapRecord>>().Data();
  if (record->unmapped || record->pointer != mapped.Data()) throw Napi::TypeError::New(env, "not this mapping's record");
  if (OutcomeOf(Api(env), record->mapped) == MapOutcome::kFailed) {
    throw Napi::Error::New(env, "the map of this mapping failed: it mapped nothing, so there is nothing to unmap");
  }
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
// queue is gone, or its map failed), so no view can reach memory the driver
// may reuse; the record is abandoned when the engine frees the memory.
Napi::Value DetachArrayBuffer(const Napi::CallbackInfo& info) {
  if (info[0].IsArrayBuffer() && !info[0].As<Napi::ArrayBuffer>().IsDetached()) info[0].As<Napi::ArrayBuffer>().Detach();
  return info.Env().Undefined();
}

}  // namespace

void InitMapping(Napi::Env env, Napi::Object exports) {
  const std::pair<const char*, Napi::Function::Callback> functions[] = {
      {"enqueueMapBuffer", EnqueueMapBuffer},
      {"enqueueMapImage", EnqueueMapImage},
      {"enqueueUnmap", EnqueueUnmap},
      {"detachArrayBuffer", DetachArrayBuffer},
  };
  for (const auto& [name, callback] : functions) exports.Set(name, Napi::Function::New(env, callback, name));
}

}  // namespace ocl
