// The event table: every event this environment holds, by id, and the
// event functions lib/event.ts calls.
#include "event.h"

#include <atomic>
#include <chrono>
#include <deque>
#include <mutex>

#include "status_notify.h"

namespace ocl {

// ---- the event table ------------------------------------------------------

namespace {

EventTable& Events(Napi::Env env) { return *AddonData::Get(env).events; }

void ReleaseDependents(const CoreApi* api, EventTable::Entry& entry) {
  for (cl_event dependent : entry.dependents) {
    if (api) api->clReleaseEvent(dependent);
  }
  entry.dependents.clear();
}

// Dependents held until the commands they may still be listed by have ended.
struct HeldUntilEnded {
  std::atomic<size_t> left;
  std::vector<cl_event> held;
};

// A driver calls an event's callbacks before it notifies the commands waiting
// on it (PoCL: pocl_event_updated, then broadcast), so dependents whose
// commands have all ended are let go a second later, at the next user event
// set or released in the process (until then they are only kept).
class Retiring {
 public:
  void Add(std::vector<cl_event> events) {
    std::lock_guard<std::mutex> lock(mutex_);
    batches_.push_back({std::chrono::steady_clock::now(), std::move(events)});
  }
  void ReleaseDue(const CoreApi* api) {
    if (!api) return;
    std::vector<cl_event> due;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto now = std::chrono::steady_clock::now();
      while (!batches_.empty() && now - batches_.front().first >= std::chrono::seconds(1)) {
        due.insert(due.end(), batches_.front().second.begin(), batches_.front().second.end());
        batches_.pop_front();
      }
    }
    for (cl_event event : due) api->clReleaseEvent(event);
  }

 private:
  std::mutex mutex_;
  std::deque<std::pair<std::chrono::steady_clock::time_point, std::vector<cl_event>>> batches_;
};
Retiring& retiring = *new Retiring();  // process-wide, never destroyed (callbacks may come late)

void OCL_CALL CountDown(cl_event, cl_int, void* user) {
  auto* hold = static_cast<HeldUntilEnded*>(user);
  if (hold->left.fetch_sub(1) != 1) return;
  retiring.Add(std::move(hold->held));
  delete hold;
}

}  // namespace

void ReleaseFailedLater(cl_event event) { retiring.Add({event}); }

// A command that waits on a user event and another command fails as soon as
// the user event fails, the other still pending; PoCL (3.1) leaves it in that
// other command's list of events to notify, and takes the lock of whatever is
// there when that command ends: a command freed meanwhile is a destroyed lock
// ("PTHREAD ERROR in pocl_lock_events_inorder(): Invalid argument", or its
// refcount assertion). So the commands that waited on a failed user event are
// kept until every command of its context this table holds, pending when it
// failed, has ended (user events hold their own dependents until they are set),
// and a second after (Retiring).
void EventTable::ReleaseDependentsOfFailed(Entry& gate) {
  const CoreApi* api = ApiOrNull();
  retiring.ReleaseDue(api);
  if (!api || gate.dependents.empty()) return ReleaseDependents(api, gate);
  cl_context context = nullptr;
  if (api->clGetEventInfo(gate.event, CL_EVENT_CONTEXT, sizeof context, &context, nullptr) != CL_SUCCESS) {
    return ReleaseDependents(api, gate);
  }
  std::vector<cl_event> pending;
  for (const Entry& entry : entries_) {
    if (!entry.event || entry.event == gate.event || entry.pendingUser) continue;
    cl_context owner = nullptr;
    cl_int status = CL_COMPLETE;
    if (api->clGetEventInfo(entry.event, CL_EVENT_CONTEXT, sizeof owner, &owner, nullptr) == CL_SUCCESS && owner == context &&
        api->clGetEventInfo(entry.event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) == CL_SUCCESS && status > CL_COMPLETE) {
      pending.push_back(entry.event);
    }
  }
  if (pending.empty()) return ReleaseDependents(api, gate);
  // One count per pending command, and one for this call; a command the driver never calls back for keeps them (a leak,
  // not a crash).
  auto* hold = new HeldUntilEnded{{pending.size() + 1}, std::move(gate.dependents)};
  gate.dependents.clear();
  for (cl_event event : pending) {
    if (NotifyOnStatus(*api, event, CL_COMPLETE, CountDown, hold) != CL_SUCCESS) CountDown(nullptr, CL_COMPLETE, hold);
  }
  CountDown(nullptr, CL_COMPLETE, hold);
}

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
  bool failed = false;
  if (entry.pendingUser && api && api->clSetUserEventStatus) {
    failed = api->clSetUserEventStatus(entry.event, kAbandonedUserEvent) == CL_SUCCESS;
  }
  entry.pendingUser = false;
  if (failed) ReleaseDependentsOfFailed(entry);
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
    if (entry.event && api->clGetEventInfo(entry.event, CL_EVENT_COMMAND_QUEUE, sizeof(owner), &owner, nullptr) == CL_SUCCESS && owner == queue) {
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

namespace {

Napi::Value CreateUserEvent(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_context context = NativeContext::From(info[0], "context");
  cl_event event = OCL_CREATE(env, clCreateUserEvent, context);
  Napi::Value id = Events(env).Add(env, event);
  Events(env).Get(id, "event").pendingUser = true;
  return id;
}

// Blocking wait: the synchronous API only. Promises use callbacks instead.
Napi::Value WaitForEvents(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto events = ToWaitList(info[0]);
  if (!events.empty()) {
    OCL_CHECK(env, clWaitForEvents, static_cast<cl_uint>(events.size()), events.data());
  }
  return env.Undefined();
}

// eventInfo(id, param) -> raw clGetEventInfo bytes
Napi::Value EventInfo(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_event event = EventOf(info[0]);
  cl_uint param = static_cast<cl_uint>(ToU64(info[1], "param"));
  auto entry = OCL_ENTRY(env, clGetEventInfo);
  return QueryBytes(env, entry.call, [&](size_t size, void* out, size_t* sizeRet) { return entry.fn(event, param, size, out, sizeRet); });
}

// eventStatus(id) -> CL_EVENT_COMMAND_EXECUTION_STATUS as a number (asked at every command's end)
Napi::Value EventStatus(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_event event = EventOf(info[0]);
  cl_int status = CL_QUEUED;
  OCL_CHECK(env, clGetEventInfo, event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr);
  return Napi::Number::New(env, status);
}

Napi::Value EventProfilingInfo(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_event event = EventOf(info[0]);
  cl_uint param = static_cast<cl_uint>(ToU64(info[1], "param"));
  cl_ulong value = 0;
  OCL_CHECK(env, clGetEventProfilingInfo, event, param, sizeof(value), &value, nullptr);
  return Napi::BigInt::New(env, static_cast<uint64_t>(value));
}

Napi::Value EventAddress(const Napi::CallbackInfo& info) { return FromPointer(info.Env(), EventOf(info[0])); }

Napi::Value SetUserEventStatus(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  EventTable::Entry& entry = Events(env).Get(info[0], "event");
  cl_int status = info[1].As<Napi::Number>().Int32Value();
  OCL_CHECK(env, clSetUserEventStatus, entry.event, status);
  entry.pendingUser = false;
  retiring.ReleaseDue(ApiOrNull());
  if (status < 0) {
    Events(env).ReleaseDependentsOfFailed(entry);
  } else {
    ReleaseDependents(ApiOrNull(), entry);
  }
  return env.Undefined();
}

// holdDependent(userEventId, eventId): keeps a waiting command's event until
// the user event is set or released.
Napi::Value HoldDependent(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  EventTable::Entry& gate = Events(env).Get(info[0], "user event");
  cl_event dependent = EventOf(info[1]);
  OCL_CHECK(env, clRetainEvent, dependent);
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

cl_event EventOf(const Napi::Value& id, const char* what) { return Events(id.Env()).Get(id, what).event; }

Napi::Value WrapEvent(Napi::Env env, cl_event event) { return event ? Events(env).Add(env, event) : env.Undefined(); }

void InitEvent(Napi::Env env, Napi::Object exports) {
  AddonData::Get(env).events = std::make_shared<EventTable>();
  const std::pair<const char*, Napi::Function::Callback> functions[] = {
      {"createUserEvent", CreateUserEvent},
      {"waitForEvents", WaitForEvents},
      {"eventInfo", EventInfo},
      {"eventStatus", EventStatus},
      {"eventProfilingInfo", EventProfilingInfo},
      {"eventAddress", EventAddress},
      {"setUserEventStatus", SetUserEventStatus},
      {"holdDependent", HoldDependent},
      {"releaseEvent", ReleaseEvent},
  };
  for (const auto& [name, fn] : functions) exports.Set(name, Napi::Function::New(env, fn, name));
}

}  // namespace ocl
