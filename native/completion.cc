// Completion: driver callbacks reach JS through one ThreadSafeFunction per
// environment (CallbackHub), a polling thread stands in for drivers without
// event callbacks (StatusPoller), a waiting thread sees completion where
// it wakes sooner than the driver's callback (CompletionWaiters, one per queue), and the
// exit waits for the driver's compiler work in flight (waitForCompilerWork).
#include "completion.h"
#include "thread_name.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <system_error>
#include <thread>
#include <unordered_map>
#include <vector>

#include "event.h"

namespace ocl {

std::shared_ptr<CallbackHub> CallbackHub::Create(Napi::Env env) {
  auto hub = std::make_shared<CallbackHub>();
  hub->tsfn_ = Tsfn::New(env, "opencl-interop callbacks", 0, 1, hub.get());
  hub->tsfn_.Unref(env);
  // Registered after the ThreadSafeFunction, so it runs before Node tears it down.
  napi_add_env_cleanup_hook(env, Close, hub.get());
  return hub;
}

void CallbackHub::Close(void* data) {
  auto* hub = static_cast<CallbackHub*>(data);
  std::lock_guard<std::mutex> lock(hub->mutex_);
  hub->open_ = false;
  hub->listeners_.clear();
}

void CallbackHub::Post(Delivery* delivery) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!open_ || tsfn_.NonBlockingCall(delivery) != napi_ok) delete delivery;
}

bool CallbackHub::IsOpen() {
  std::lock_guard<std::mutex> lock(mutex_);
  return open_;
}

void CallbackHub::Hold(Napi::Env env) {
  if (holds_++ == 0) tsfn_.Ref(env);
}

void CallbackHub::CallJs(Napi::Env env, Napi::Function, CallbackHub* hub, Delivery* delivery) {
  std::unique_ptr<Delivery> owned(delivery);
  if (env == nullptr || delivery == nullptr) return;
  if (delivery->keepsAlive && --hub->holds_ == 0) hub->tsfn_.Unref(env);
  try {
    delivery->Deliver(env, *hub);
  } catch (const Napi::Error& error) {
    // Report a listener's exception as uncaught; during environment teardown
    // JS cannot run at all, and nothing may escape into the driver's thread.
    try {
      error.ThrowAsJavaScriptException();
    } catch (...) {
    }
  } catch (...) {
  }
}

uint64_t CallbackHub::AddListener(Napi::Function fn) {
  uint64_t id = nextListener_++;
  listeners_.emplace(id, Napi::Persistent(fn));
  return id;
}

void CallbackHub::RemoveListener(uint64_t id) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (open_) listeners_.erase(id);
}

Napi::FunctionReference* CallbackHub::Listener(uint64_t id) {
  auto it = listeners_.find(id);
  return it == listeners_.end() ? nullptr : &it->second;
}

namespace {

struct EventStatusDelivery : CallbackHub::Delivery {
  std::shared_ptr<CallbackHub> hub;
  Napi::Promise::Deferred deferred;
  cl_int status = 0;
  explicit EventStatusDelivery(Napi::Env env) : deferred(Napi::Promise::Deferred::New(env)) {}
  void Deliver(Napi::Env env, CallbackHub&) override { deferred.Resolve(Napi::Number::New(env, status)); }
};

void OCL_CALL OnEventStatus(cl_event, cl_int status, void* user) {
  auto* delivery = static_cast<EventStatusDelivery*>(user);
  delivery->status = status;
  std::shared_ptr<CallbackHub> hub = std::move(delivery->hub);
  hub->Post(delivery);
}

bool DeliveryAbandoned(void* user) { return !static_cast<EventStatusDelivery*>(user)->hub->IsOpen(); }
void DropDelivery(void* user) { delete static_cast<EventStatusDelivery*>(user); }

// Completion seen by a thread blocked in clWaitForEvents instead of by the
// driver's callback: on some drivers (NVIDIA's) the waiting thread wakes
// sooner than the driver's callback thread calls back (bench/README.md,
// "Awaiting"), but it spins on NVIDIA's: a core busy while an await is
// pending. A polling lane asks the command's status instead, sleeping a
// quarter of the time waited so far between asks (10 to 250 us): at most a
// quarter later than the command ended, and nearly no CPU.
// One thread per command queue (a lane), started at the queue's
// first await, waits on that queue's awaited commands in the order they were
// awaited, so nothing waits behind a command of another queue, context,
// device or worker. lib/ sends only commands of in-order queues that it
// knows will end (none behind an unset or failed user event), so a lane
// never waits for ever. A lane ends when its queue is released (once it has
// waited out what it holds) or after kLaneIdle without work; past kMaxLanes
// awaits go to the driver's callback instead.
class CompletionWaiters {
 public:
  static CompletionWaiters& Instance() {
    static auto* waiters = new CompletionWaiters();  // never destroyed: its threads may outlive static teardown
    return *waiters;
  }

  // Takes a reference on the event. False when it has no queue or no thread could be started. A queue's lane
  // polls or waits as its first await asked (lib/ asks the same for every await of a queue).
  bool Watch(const CoreApi& api, cl_event event, EventStatusDelivery* delivery, bool poll) {
    cl_command_queue queue = nullptr;
    if (api.clGetEventInfo(event, CL_EVENT_COMMAND_QUEUE, sizeof(queue), &queue, nullptr) != CL_SUCCESS || !queue) return false;
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) return false;
    auto found = lanes_.find(queue);
    Lane* lane = found == lanes_.end() ? Start(queue, poll) : found->second;
    if (!lane) return false;
    api.clRetainEvent(event);
    {
      // A lane leaves lanes_ only with mutex_ held too, so it is alive here.
      std::lock_guard<std::mutex> laneLock(lane->mutex);
      lane->items.push_back({event, delivery});
    }
    lane->wake.notify_one();
    return true;
  }

  // The queue's handle is being released: its lane ends once it has waited
  // out what it holds, and a new queue with the same handle gets a new lane.
  void Forget(cl_command_queue queue) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = lanes_.find(queue);
    if (found == lanes_.end()) return;
    Lane* lane = found->second;
    lanes_.erase(found);
    {
      std::lock_guard<std::mutex> laneLock(lane->mutex);
      lane->forgotten = true;
    }
    lane->wake.notify_one();
  }

 private:
  static constexpr size_t kMaxLanes = 64;
  static constexpr auto kLaneIdle = std::chrono::seconds(2);

  // Each lane has its own lock, so the lanes of several queues (worker
  // threads, GPUs) do not wait on each other; mutex_ guards only lanes_ and
  // is taken by a lane only when it leaves (mutex_ before a lane's mutex).
  struct Lane {
    std::mutex mutex;
    std::condition_variable wake;
    std::deque<std::pair<cl_event, EventStatusDelivery*>> items;
    bool forgotten = false;  // no longer in lanes_
    bool poll = false;       // asks the status instead of blocking in clWaitForEvents
  };

  // Under mutex_.
  Lane* Start(cl_command_queue queue, bool poll) {
    if (lanes_.size() >= kMaxLanes) return nullptr;
    auto* lane = new Lane();
    lane->poll = poll;
    try {
      std::thread([this, lane, queue] {
        NameThisThread("ocl-waiter");
        Run(lane, queue);
      }).detach();
    } catch (const std::system_error&) {
      delete lane;
      return nullptr;
    }
    if (!atExitRegistered_) {
      atExitRegistered_ = true;
      std::atexit(Stop);
    }
    lanes_.emplace(queue, lane);
    return lane;
  }

  // At exit the driver may be tearing itself down: no calls into it after
  // this returns. Waits in progress are given a bounded time to end (on
  // Windows the threads may already have been terminated).
  static void Stop() {
    CompletionWaiters& self = Instance();
    {
      std::lock_guard<std::mutex> lock(self.mutex_);
      self.stopping_ = true;
      for (auto& entry : self.lanes_) {
        std::lock_guard<std::mutex> laneLock(entry.second->mutex);  // no lane between its check and its wait
        entry.second->wake.notify_one();
      }
    }
    for (int i = 0; i < 1000 && self.inDriver_ > 0; i++) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }

  // Idle, or its queue released: the lane leaves lanes_ (a later await starts
  // a new one) unless an await came in while it took mutex_.
  bool Leave(Lane* lane, cl_command_queue queue) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::lock_guard<std::mutex> laneLock(lane->mutex);
    if (!lane->items.empty()) return false;
    if (!lane->forgotten) lanes_.erase(queue);
    return true;
  }

  void Run(Lane* lane, cl_command_queue queue) {
    std::unique_lock<std::mutex> lock(lane->mutex);
    for (;;) {
      if (lane->items.empty()) {
        lane->wake.wait_for(lock, kLaneIdle, [&] { return stopping_ || lane->forgotten || !lane->items.empty(); });
      }
      if (stopping_) return;
      if (lane->items.empty()) {
        lock.unlock();
        if (Leave(lane, queue)) {
          delete lane;
          return;
        }
        lock.lock();
        continue;
      }
      auto [event, delivery] = lane->items.front();
      lane->items.pop_front();
      ++inDriver_;
      lock.unlock();
      const CoreApi* api = ApiOrNull();
      if (!DeliveryAbandoned(delivery)) {
        cl_int waited = lane->poll ? PollUntilEnded(*api, event) : api->clWaitForEvents(1, &event);
        if (stopping_) {
          --inDriver_;
          return;
        }
        // CL_SUCCESS means the command completed (the OpenCL API, clWaitForEvents): only a
        // failure needs its status asked, which is all the lane thread does before the post.
        cl_int status = CL_COMPLETE;
        if (waited != CL_SUCCESS) {
          cl_int queried = api->clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr);
          if (queried != CL_SUCCESS) status = queried;
        }
        delivery->status = status > CL_COMPLETE ? CL_COMPLETE : status;
        std::shared_ptr<CallbackHub> hub = std::move(delivery->hub);
        hub->Post(delivery);
      } else {
        DropDelivery(delivery);
      }
      api->clReleaseEvent(event);
      --inDriver_;
      lock.lock();
    }
  }

  // Asks the status until the command has ended: CL_SUCCESS once complete, else the failure (or, at exit,
  // CL_SUCCESS with stopping_ set, which Run checks).
  cl_int PollUntilEnded(const CoreApi& api, cl_event event) {
    using Clock = std::chrono::steady_clock;
    const auto started = Clock::now();
    for (;;) {
      cl_int status = CL_QUEUED;
      cl_int asked = api.clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr);
      if (asked != CL_SUCCESS) return asked;
      if (status == CL_COMPLETE) return CL_SUCCESS;
      if (status < 0) return status;  // Run asks the status again and reports it
      if (stopping_) return CL_SUCCESS;
      auto pause = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - started) / 4;
      std::this_thread::sleep_for(std::clamp(pause, std::chrono::microseconds(10), std::chrono::microseconds(250)));
    }
  }

  std::mutex mutex_;
  std::unordered_map<cl_command_queue, Lane*> lanes_;
  bool atExitRegistered_ = false;
  std::atomic<bool> stopping_{false};
  std::atomic<int> inDriver_{0};
};

}  // namespace

// ---- compiler work in flight at exit (see completion.h) --------------------

namespace {

// Process-wide, keyed by the environment that started the work (its
// AddonData, an identity only): builds in flight, and the events of kernel
// commands not yet seen to end, by queue (released queues' in `orphans`).
std::mutex workMutex;
// Never destroyed: waited on while the process exits.
std::unordered_map<const void*, int>& BuildsInFlight() {
  static auto* builds = new std::unordered_map<const void*, int>();
  return *builds;
}
struct KernelTrack {
  std::vector<std::pair<const void*, cl_event>> events;
  size_t pruneAt = 16;   // the list is pruned when it grows to this
  bool inOrder = false;  // its commands end in the order they were enqueued
};
std::unordered_map<cl_command_queue, KernelTrack>& KernelsByQueue() {
  static auto* tracks = new std::unordered_map<cl_command_queue, KernelTrack>();
  return *tracks;
}
// The track NoteKernelCommand used last. Under workMutex.
struct {
  cl_command_queue queue = nullptr;
  KernelTrack* track = nullptr;
} lastTrack;
KernelTrack& OrphanKernels() {
  static auto* orphans = new KernelTrack();
  return *orphans;
}

// Drops the track's ended commands (complete or failed); returns how many
// of `owner`'s (every one's for nullptr) the driver has taken (submitted or
// running). Under workMutex.
size_t Prune(const CoreApi& api, KernelTrack& track, const void* owner) {
  auto& events = track.events;
  size_t started = 0, kept = 0;
  for (auto& entry : events) {
    cl_int status = StatusOf(api, entry.second);
    if (status <= CL_SUCCESS) {
      api.clReleaseEvent(entry.second);
      continue;
    }
    if (status < CL_QUEUED && (!owner || entry.first == owner)) ++started;
    events[kept++] = entry;
  }
  events.resize(kept);
  track.pruneAt = std::max<size_t>(16, kept * 2);
  return started;
}

// At a launch: an in-order queue ends its commands in order, so the ended
// ones are a prefix of the list, found in log2(n) status queries.
void PruneAtLaunch(const CoreApi& api, KernelTrack& track) {
  if (!track.inOrder) {
    Prune(api, track, nullptr);
    return;
  }
  auto& events = track.events;
  size_t ended = 0, notEnded = events.size();
  while (ended < notEnded) {
    size_t mid = ended + (notEnded - ended) / 2;
    if (StatusOf(api, events[mid].second) <= CL_SUCCESS) ended = mid + 1;
    else notEnded = mid;
  }
  for (size_t i = 0; i < ended; ++i) api.clReleaseEvent(events[i].second);
  events.erase(events.begin(), events.begin() + long(ended));
  track.pruneAt = std::max<size_t>(16, events.size() * 2);
}

size_t PruneKernels(const CoreApi& api, const void* owner) {
  size_t started = Prune(api, OrphanKernels(), owner);
  for (auto& entry : KernelsByQueue()) started += Prune(api, entry.second, owner);
  return started;
}

int BuildsOf(const void* owner) {
  std::lock_guard<std::mutex> lock(workMutex);
  if (owner) {
    auto it = BuildsInFlight().find(owner);
    return it == BuildsInFlight().end() ? 0 : it->second;
  }
  int total = 0;
  for (auto& entry : BuildsInFlight()) total += entry.second;
  return total;
}

// Blocks until `owner`'s (every environment's for nullptr) builds have ended
// (at most buildsMs) and its kernel commands the driver has started have
// ended (at most kernelsMs). Commands still queued behind events are not
// waited for: a user event never set would hold the process forever.
void WaitForWork(const void* owner, int64_t buildsMs, int64_t kernelsMs) {
  using Clock = std::chrono::steady_clock;
  const auto buildsUntil = Clock::now() + std::chrono::milliseconds(buildsMs);
  while (BuildsOf(owner) > 0 && Clock::now() < buildsUntil) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  const CoreApi* api = ApiOrNull();
  const auto kernelsUntil = Clock::now() + std::chrono::milliseconds(kernelsMs);
  while (api) {
    size_t started;
    {
      std::lock_guard<std::mutex> lock(workMutex);
      started = PruneKernels(*api, owner);
    }
    if (started == 0 || Clock::now() >= kernelsUntil) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

// waitForCompilerWork(buildsMs, kernelsMs): every environment's work.
// lib/addon.ts calls it from the main thread's 'exit' event, which comes
// before exit() runs the compiler's static destructors.
Napi::Value WaitForCompilerWork(const Napi::CallbackInfo& info) {
  WaitForWork(nullptr, int64_t(ToU64(info[0], "buildsMs")), int64_t(ToU64(info[1], "kernelsMs")));
  return info.Env().Undefined();
}

// An environment torn down (a worker that exits or is terminated): its own work.
void WaitForEnvironmentWork(void* owner) { WaitForWork(owner, 60'000, 10'000); }

}  // namespace

void NoteBuildStarted(const void* owner) {
  std::lock_guard<std::mutex> lock(workMutex);
  ++BuildsInFlight()[owner];
}

void NoteBuildEnded(const void* owner) {
  std::lock_guard<std::mutex> lock(workMutex);
  auto it = BuildsInFlight().find(owner);
  if (it != BuildsInFlight().end() && --it->second <= 0) BuildsInFlight().erase(it);
}

// Amortized: the list is pruned each time it has doubled (an in-order
// queue's by binary search, an out-of-order queue's one query per event), so
// a launch costs a retain and, later, a release and at most a query; no
// driver callback per launch.
void NoteKernelCommand(const CoreApi& api, const void* environment, cl_command_queue queue, cl_event event) {
  if (!event || api.clRetainEvent(event) != CL_SUCCESS) return;
  std::lock_guard<std::mutex> lock(workMutex);
  // Launches come in runs on one queue: its track is kept aside (no hashing per launch).
  KernelTrack* track = lastTrack.queue == queue ? lastTrack.track : nullptr;
  if (!track) {
    auto found = KernelsByQueue().find(queue);
    if (found == KernelsByQueue().end()) {
      cl_bitfield properties = 0;
      api.clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof(properties), &properties, nullptr);
      found = KernelsByQueue().emplace(queue, KernelTrack{}).first;
      found->second.inOrder = (properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) == 0;
    }
    track = &found->second;  // stays valid until erased (ForgetQueue)
    lastTrack = {queue, track};
  }
  track->events.emplace_back(environment, event);
  if (track->events.size() >= track->pruneAt) PruneAtLaunch(api, *track);
}

void ForgetQueue(cl_command_queue queue) {
  CompletionWaiters::Instance().Forget(queue);
  const CoreApi* api = ApiOrNull();
  std::lock_guard<std::mutex> lock(workMutex);
  if (lastTrack.queue == queue) lastTrack = {};
  auto found = KernelsByQueue().find(queue);
  if (found == KernelsByQueue().end()) return;
  KernelTrack& orphans = OrphanKernels();
  orphans.events.insert(orphans.events.end(), found->second.events.begin(), found->second.events.end());
  KernelsByQueue().erase(found);
  if (api) Prune(*api, orphans, nullptr);
}

namespace {

// eventWhenStatus(id, execStatus, keepAlive, by) -> Promise<number>:
// resolves with the status the driver reports once the event reaches
// execStatus (or fails). by: 0 a driver callback, 1 the queue's waiting
// thread (CompletionWaiters) blocked in clWaitForEvents, 2 that thread
// polling the status.
Napi::Value EventWhenStatus(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_event event = EventOf(info[0]);
  cl_int execStatus = info[1].As<Napi::Number>().Int32Value();
  bool keepAlive = FlagOf(info[2]);
  int32_t by = info[3].IsNumber() ? info[3].As<Napi::Number>().Int32Value() : 0;
  bool byWaiter = (by == 1 || by == 2) && execStatus == CL_COMPLETE;
  const CoreApi& api = Api(env);
  AddonData& data = AddonData::Get(env);
  auto* delivery = new EventStatusDelivery(env);
  delivery->hub = data.hub;
  delivery->keepsAlive = keepAlive;
  Napi::Promise promise = delivery->deferred.Promise();
  // Counted before the call: some drivers invoke the callback synchronously.
  if (keepAlive) data.hub->Hold(env);
  if (byWaiter && api.clWaitForEvents && CompletionWaiters::Instance().Watch(api, event, delivery, by == 2)) return promise;
  cl_int status = NotifyOnStatus(api, event, execStatus, OnEventStatus, delivery, DeliveryAbandoned, DropDelivery);
  if (status != CL_SUCCESS) {
    // The callback was not registered, so the delivery is still ours.
    delivery->status = status;
    data.hub->Post(delivery);
    ThrowClError(env, status, "clSetEventCallback");
  }
  return promise;
}

}  // namespace

void InitCompletion(Napi::Env env, Napi::Object exports) {
  AddonData::Get(env).hub = CallbackHub::Create(env);
  exports.Set("eventWhenStatus", Napi::Function::New(env, EventWhenStatus, "eventWhenStatus"));
  exports.Set("waitForCompilerWork", Napi::Function::New(env, WaitForCompilerWork, "waitForCompilerWork"));
  napi_add_env_cleanup_hook(env, WaitForEnvironmentWork, &AddonData::Get(env));
}

}  // namespace ocl
