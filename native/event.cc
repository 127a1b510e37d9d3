#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <condition_variable>
#include <deque>
#include <system_error>
#include <thread>

#include "callbacks.h"
#include "objects.h"

namespace ocl {

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

// For drivers without event callbacks (OpenCL 1.0, such as Wine's opencl.dll,
// which answers clSetEventCallback with CL_INVALID_OPERATION): one thread per
// process polls the watched events and notifies as the callback would.
class StatusPoller {
 public:
  static StatusPoller& Instance() {
    static auto* poller = new StatusPoller();  // never destroyed: its thread may outlive static teardown
    return *poller;
  }

  struct Watched {
    cl_event event;
    cl_int execStatus;
    StatusNotify notify;
    void* user;
    bool (*abandoned)(void*);  // its receiver is gone: drop instead of notifying
    void (*drop)(void*);
  };

  // Takes a reference on the event. False when no thread could be started.
  bool Watch(const CoreApi& api, const Watched& watched) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!started_) {
      try {
        std::thread([this] { Run(); }).detach();
      } catch (const std::system_error&) {
        return false;
      }
      started_ = true;
      std::atexit(Stop);
    }
    api.clRetainEvent(watched.event);
    incoming_.push_back(watched);
    wake_.notify_one();
    return true;
  }

 private:
  // At exit the driver may be tearing itself down: no calls into it after
  // this returns. On Windows the thread may already have been terminated
  // mid-round, so the wait is bounded.
  static void Stop() {
    StatusPoller& self = Instance();
    self.stopping_ = true;
    for (int i = 0; i < 100 && self.inRound_; i++) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }

  void Run() {
    std::vector<Watched> watched;
    auto pause = std::chrono::microseconds(20);
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mutex_);
        if (watched.empty()) wake_.wait(lock, [this] { return !incoming_.empty(); });
        else wake_.wait_for(lock, pause, [this] { return !incoming_.empty(); });
        if (!incoming_.empty()) pause = std::chrono::microseconds(20);
        watched.insert(watched.end(), incoming_.begin(), incoming_.end());
        incoming_.clear();
      }
      inRound_ = true;
      if (stopping_) {
        inRound_ = false;
        return;
      }
      const CoreApi* api = ApiOrNull();
      bool progressed = false;
      for (auto it = watched.begin(); it != watched.end();) {
        bool abandoned = it->abandoned && it->abandoned(it->user);
        cl_int status = CL_QUEUED;
        if (!abandoned) {
          cl_int queried = api->clGetEventInfo(it->event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr);
          if (queried != CL_SUCCESS) status = queried;
          if (status > it->execStatus) {
            ++it;
            continue;
          }
        }
        if (abandoned) {
          if (it->drop) it->drop(it->user);
        } else {
          it->notify(it->event, status < 0 ? status : it->execStatus, it->user);  // as a callback reports it
        }
        api->clReleaseEvent(it->event);
        it = watched.erase(it);
        progressed = true;
      }
      inRound_ = false;
      pause = progressed ? std::chrono::microseconds(20) : std::min(pause * 2, std::chrono::microseconds(2000));
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<Watched> incoming_;
  bool started_ = false;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> inRound_{false};
};

// Completion seen by a thread blocked in clWaitForEvents instead of by the
// driver's callback: on some drivers (NVIDIA's) the waiting thread wakes
// sooner than the driver's callback thread calls back (bench/README.md,
// "Awaiting"). One thread per process waits on the watched events in the
// order they were watched; lib/ sends it only commands it knows will end
// (none behind an unset or failed user event), so it never waits for ever.
class CompletionWaiter {
 public:
  static CompletionWaiter& Instance() {
    static auto* waiter = new CompletionWaiter();  // never destroyed: its thread may outlive static teardown
    return *waiter;
  }

  // Takes a reference on the event. False when no thread could be started.
  bool Watch(const CoreApi& api, cl_event event, EventStatusDelivery* delivery) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!started_) {
      try {
        std::thread([this] { Run(); }).detach();
      } catch (const std::system_error&) {
        return false;
      }
      started_ = true;
      std::atexit(Stop);
    }
    api.clRetainEvent(event);
    items_.push_back({event, delivery});
    wake_.notify_one();
    return true;
  }

 private:
  // At exit the driver may be tearing itself down: no calls into it after
  // this returns (a wait in progress is given a bounded time to end).
  static void Stop() {
    CompletionWaiter& self = Instance();
    {
      std::lock_guard<std::mutex> lock(self.mutex_);
      self.stopping_ = true;
      self.wake_.notify_one();
    }
    for (int i = 0; i < 100 && self.waiting_; i++) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }

  void Run() {
    for (;;) {
      std::pair<cl_event, EventStatusDelivery*> item;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [this] { return stopping_ || !items_.empty(); });
        if (stopping_) return;
        item = items_.front();
        items_.pop_front();
        waiting_ = true;
      }
      const CoreApi* api = ApiOrNull();
      auto [event, delivery] = item;
      cl_int status = CL_COMPLETE;
      if (!DeliveryAbandoned(delivery)) {
        api->clWaitForEvents(1, &event);
        cl_int queried = api->clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr);
        if (queried != CL_SUCCESS) status = queried;
        delivery->status = status > CL_COMPLETE ? CL_COMPLETE : status;
        std::shared_ptr<CallbackHub> hub = std::move(delivery->hub);
        hub->Post(delivery);
      } else {
        DropDelivery(delivery);
      }
      api->clReleaseEvent(event);
      waiting_ = false;
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::pair<cl_event, EventStatusDelivery*>> items_;
  bool started_ = false;
  bool stopping_ = false;
  std::atomic<bool> waiting_{false};
};

}  // namespace

cl_int NotifyOnStatus(const CoreApi& api, cl_event event, cl_int execStatus, StatusNotify notify, void* user,
                      bool (*abandoned)(void*), void (*drop)(void*)) {
  cl_int status = api.clSetEventCallback ? api.clSetEventCallback(event, execStatus, notify, user) : CL_INVALID_OPERATION;
  if (status != CL_INVALID_OPERATION) return status;
  // The same argument check clSetEventCallback makes.
  if (execStatus != CL_COMPLETE && execStatus != CL_RUNNING && execStatus != CL_SUBMITTED) return CL_INVALID_VALUE;
  return StatusPoller::Instance().Watch(api, {event, execStatus, notify, user, abandoned, drop}) ? CL_SUCCESS
                                                                                                 : CL_OUT_OF_HOST_MEMORY;
}

// ---- the event table ------------------------------------------------------

namespace {

EventTable& Events(Napi::Env env) { return *AddonData::Get(env).events; }

void ReleaseDependents(const CoreApi* api, EventTable::Entry& entry) {
  for (cl_event dependent : entry.dependents) {
    if (api) api->clReleaseEvent(dependent);
  }
  entry.dependents.clear();
}

}  // namespace

Napi::Value EventTable::Add(Napi::Env env, cl_event event) {
  uint32_t index;
  if (!free_.empty()) {
    index = free_.back();
    free_.pop_back();
  } else if (entries_.size() <= SlotId::kMaxIndex) {
    index = static_cast<uint32_t>(entries_.size());
    entries_.emplace_back();
  } else {
    if (const CoreApi* api = ApiOrNull()) api->clReleaseEvent(event);
    throw Napi::RangeError::New(env, "more than 16777216 events are held: release events (event.release())");
  }
  Entry& entry = entries_[index];
  entry.event = event;
  return Napi::Number::New(env, SlotId{index, entry.generation}.ToDouble());
}

EventTable::Entry* EventTable::Find(double id) {
  SlotId slot;
  if (!SlotId::FromDouble(id, slot) || slot.index >= entries_.size()) return nullptr;
  Entry& entry = entries_[slot.index];
  return entry.generation == slot.generation && entry.event ? &entry : nullptr;
}

EventTable::Entry& EventTable::Get(const Napi::Value& value, const char* what) {
  Napi::Env env = value.Env();
  double id = 0;
  if (napi_get_value_double(env, value, &id) != napi_ok) throw Napi::TypeError::New(env, std::string(what) + " must be an event id");
  Entry* entry = Find(id);
  if (!entry) ThrowReleased(env, "Event");
  return *entry;
}

constexpr cl_int kAbandonedUserEvent = -14;  // CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST

void EventTable::Release(Entry& entry) {
  if (!entry.event) return;
  const CoreApi* api = ApiOrNull();
  if (entry.pendingUser && api && api->clSetUserEventStatus) api->clSetUserEventStatus(entry.event, kAbandonedUserEvent);
  entry.pendingUser = false;
  if (api) api->clReleaseEvent(entry.event);
  entry.event = nullptr;
  ReleaseDependents(api, entry);
  entry.generation = SlotId::Next(entry.generation);
  free_.push_back(static_cast<uint32_t>(&entry - entries_.data()));
}

void EventTable::ReleaseCommandsOf(cl_command_queue queue) {
  const CoreApi* api = ApiOrNull();
  if (!api) return;
  for (Entry& entry : entries_) {
    cl_command_queue owner = nullptr;
    if (entry.event &&
        api->clGetEventInfo(entry.event, CL_EVENT_COMMAND_QUEUE, sizeof(owner), &owner, nullptr) == CL_SUCCESS &&
        owner == queue) {
      Release(entry);
    }
  }
}

EventTable::~EventTable() {
  // User events first: the commands they gate are released after them.
  for (Entry& entry : entries_) {
    if (entry.pendingUser) Release(entry);
  }
  for (Entry& entry : entries_) Release(entry);
}

NativeQueue::~NativeQueue() {
  // Collected without release(): lib/ can no longer release its commands' events.
  if (handle()) AddonData::Get(Env()).events->ReleaseCommandsOf(handle());
}

namespace {

cl_event EventOf(const Napi::Value& id, const char* what = "event") { return Events(id.Env()).Get(id, what).event; }

Napi::Value CreateUserEvent(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_context context = NativeContext::From(info[0], "context");
  cl_int status = CL_SUCCESS;
  cl_event event = OCL_FN(env, clCreateUserEvent)(context, &status);
  Check(env, status, "clCreateUserEvent");
  Napi::Value id = Events(env).Add(env, event);
  Events(env).Get(id, "event").pendingUser = true;
  return id;
}

// Blocking wait: the synchronous API only. Promises use callbacks instead.
Napi::Value WaitForEvents(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto events = ToWaitList(info[0]);
  if (!events.empty()) {
    Check(env, OCL_FN(env, clWaitForEvents)(static_cast<cl_uint>(events.size()), events.data()), "clWaitForEvents");
  }
  return env.Undefined();
}

// eventInfo(id, param) -> raw clGetEventInfo bytes
Napi::Value EventInfo(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_event event = EventOf(info[0]);
  cl_uint param = static_cast<cl_uint>(ToU64(info[1], "param"));
  auto fn = OCL_FN(env, clGetEventInfo);
  return QueryBytes(env, "clGetEventInfo", [&](size_t size, void* out, size_t* sizeRet) {
    return fn(event, param, size, out, sizeRet);
  });
}

// eventStatus(id) -> CL_EVENT_COMMAND_EXECUTION_STATUS as a number (asked at every command's end)
Napi::Value EventStatus(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_event event = EventOf(info[0]);
  cl_int status = CL_QUEUED;
  Check(env, OCL_FN(env, clGetEventInfo)(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr),
        "clGetEventInfo");
  return Napi::Number::New(env, status);
}

Napi::Value EventProfilingInfo(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_event event = EventOf(info[0]);
  cl_uint param = static_cast<cl_uint>(ToU64(info[1], "param"));
  cl_ulong value = 0;
  Check(env, OCL_FN(env, clGetEventProfilingInfo)(event, param, sizeof(value), &value, nullptr),
        "clGetEventProfilingInfo");
  return Napi::BigInt::New(env, static_cast<uint64_t>(value));
}

Napi::Value EventAddress(const Napi::CallbackInfo& info) { return FromPointer(info.Env(), EventOf(info[0])); }

// eventWhenStatus(id, execStatus, keepAlive, byWaiter) -> Promise<number>:
// resolves with the status the driver reports once the event reaches
// execStatus (or fails). byWaiter: completion seen by the waiting thread
// (CompletionWaiter) instead of a driver callback.
Napi::Value EventWhenStatus(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_event event = EventOf(info[0]);
  cl_int execStatus = info[1].As<Napi::Number>().Int32Value();
  bool keepAlive = info[2].ToBoolean();
  bool byWaiter = info[3].ToBoolean() && execStatus == CL_COMPLETE;
  const CoreApi& api = Api(env);
  AddonData& data = AddonData::Get(env);
  auto* delivery = new EventStatusDelivery(env);
  delivery->hub = data.hub;
  delivery->keepsAlive = keepAlive;
  Napi::Promise promise = delivery->deferred.Promise();
  // Counted before the call: some drivers invoke the callback synchronously.
  if (keepAlive) data.hub->Hold(env);
  if (byWaiter && api.clWaitForEvents && CompletionWaiter::Instance().Watch(api, event, delivery)) return promise;
  cl_int status = NotifyOnStatus(api, event, execStatus, OnEventStatus, delivery, DeliveryAbandoned, DropDelivery);
  if (status != CL_SUCCESS) {
    // The callback was not registered, so the delivery is still ours.
    delivery->status = status;
    data.hub->Post(delivery);
    ThrowClError(env, status, "clSetEventCallback");
  }
  return promise;
}

Napi::Value SetUserEventStatus(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  EventTable::Entry& entry = Events(env).Get(info[0], "event");
  cl_int status = info[1].As<Napi::Number>().Int32Value();
  Check(env, OCL_FN(env, clSetUserEventStatus)(entry.event, status), "clSetUserEventStatus");
  entry.pendingUser = false;
  ReleaseDependents(ApiOrNull(), entry);
  return env.Undefined();
}

// holdDependent(userEventId, eventId): keeps a waiting command's event until
// the user event is set or released.
Napi::Value HoldDependent(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  EventTable::Entry& gate = Events(env).Get(info[0], "user event");
  cl_event dependent = EventOf(info[1]);
  Check(env, OCL_FN(env, clRetainEvent)(dependent), "clRetainEvent");
  gate.dependents.push_back(dependent);
  return env.Undefined();
}

// releaseEvent(id): idempotent for ids already released.
Napi::Value ReleaseEvent(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  double id = 0;
  if (napi_get_value_double(env, info[0], &id) != napi_ok) throw Napi::TypeError::New(env, "event must be an event id");
  EventTable& events = Events(env);
  if (EventTable::Entry* entry = events.Find(id)) events.Release(*entry);
  return env.Undefined();
}

}  // namespace

std::vector<cl_event> ToWaitList(const Napi::Value& v) {
  std::vector<cl_event> out;
  if (v.IsUndefined() || v.IsNull()) return out;
  if (!v.IsArray()) throw Napi::TypeError::New(v.Env(), "waitList must be an array of event ids");
  auto array = v.As<Napi::Array>();
  uint32_t length = array.Length();
  out.reserve(length);
  EventTable& events = Events(v.Env());
  for (uint32_t i = 0; i < length; ++i) out.push_back(events.Get(array.Get(i), "waitList entry").event);
  return out;
}

Napi::Value WrapEvent(Napi::Env env, cl_event event) { return event ? Events(env).Add(env, event) : env.Undefined(); }

void InitEvent(Napi::Env env, Napi::Object exports) {
  AddonData::Get(env).events = std::make_shared<EventTable>();
  const std::pair<const char*, Napi::Function::Callback> functions[] = {
      {"createUserEvent", CreateUserEvent},   {"waitForEvents", WaitForEvents},
      {"eventInfo", EventInfo},               {"eventStatus", EventStatus},
      {"eventProfilingInfo", EventProfilingInfo},
      {"eventAddress", EventAddress},         {"eventWhenStatus", EventWhenStatus},
      {"setUserEventStatus", SetUserEventStatus}, {"holdDependent", HoldDependent},
      {"releaseEvent", ReleaseEvent},
  };
  for (const auto& [name, fn] : functions) exports.Set(name, Napi::Function::New(env, fn, name));
}

}  // namespace ocl
