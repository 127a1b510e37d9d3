// The event table: every event this environment holds, by id, and the
// event functions lib/event.ts calls.
#include "event.h"

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
  return QueryBytes(env, entry.call, [&](size_t size, void* out, size_t* sizeRet) {
    return entry.fn(event, param, size, out, sizeRet);
  });
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
  ReleaseDependents(ApiOrNull(), entry);
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
      {"createUserEvent", CreateUserEvent},   {"waitForEvents", WaitForEvents},
      {"eventInfo", EventInfo},               {"eventStatus", EventStatus},
      {"eventProfilingInfo", EventProfilingInfo},
      {"eventAddress", EventAddress},
      {"setUserEventStatus", SetUserEventStatus}, {"holdDependent", HoldDependent},
      {"releaseEvent", ReleaseEvent},
  };
  for (const auto& [name, fn] : functions) exports.Set(name, Napi::Function::New(env, fn, name));
}

}  // namespace ocl
