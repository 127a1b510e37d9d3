#include "callbacks.h"
#include "objects.h"

namespace ocl {

const napi_type_tag NativeEvent::kTypeTag = {0x6f636c2d6576656eULL, 0x7400000000000009ULL};

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

Napi::Value CreateUserEvent(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_context context = NativeContext::From(info[0], "context");
  cl_int status = CL_SUCCESS;
  cl_event event = OCL_FN(env, clCreateUserEvent)(context, &status);
  Check(env, status, "clCreateUserEvent");
  Napi::Object wrapped = NativeEvent::Wrap(env, event);
  NativeEvent::Unwrap(wrapped)->pendingUser = true;
  return wrapped;
}

// Blocking wait: the synchronous API only. Promises use callbacks instead.
Napi::Value WaitForEvents(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto events = NativeEvent::FromArray(info[0], "events");
  if (!events.empty()) {
    Check(env, OCL_FN(env, clWaitForEvents)(static_cast<cl_uint>(events.size()), events.data()), "clWaitForEvents");
  }
  return env.Undefined();
}

}  // namespace

std::vector<cl_event> ToWaitList(const Napi::Value& v) { return NativeEvent::FromArray(v, "waitList"); }

Napi::Value WrapEvent(Napi::Env env, cl_event event) {
  return event ? Napi::Value(NativeEvent::Wrap(env, event)) : env.Undefined();
}

Napi::Value NativeEvent::Info(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return InfoBytes(info, Checked(env), OCL_FN(env, clGetEventInfo), "clGetEventInfo");
}

Napi::Value NativeEvent::ProfilingInfo(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_event event = Checked(env);
  cl_uint param = static_cast<cl_uint>(ToU64(info[0], "param"));
  cl_ulong value = 0;
  Check(env, OCL_FN(env, clGetEventProfilingInfo)(event, param, sizeof(value), &value, nullptr),
        "clGetEventProfilingInfo");
  return Napi::BigInt::New(env, static_cast<uint64_t>(value));
}

// whenStatus(execStatus, keepAlive) -> Promise<number>: resolves with the
// status the driver reports once the event reaches execStatus (or fails).
Napi::Value NativeEvent::WhenStatus(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_event event = Checked(env);
  cl_int execStatus = info[0].As<Napi::Number>().Int32Value();
  bool keepAlive = info[1].ToBoolean();
  auto fn = OCL_FN(env, clSetEventCallback);
  AddonData& data = AddonData::Get(env);
  auto* delivery = new EventStatusDelivery(env);
  delivery->hub = data.hub;
  delivery->keepsAlive = keepAlive;
  Napi::Promise promise = delivery->deferred.Promise();
  // Counted before the call: some drivers invoke the callback synchronously.
  if (keepAlive) data.hub->Hold(env);
  cl_int status = fn(event, execStatus, OnEventStatus, delivery);
  if (status != CL_SUCCESS) {
    // The callback was not registered, so the delivery is still ours.
    delivery->status = status;
    data.hub->Post(delivery);
    ThrowClError(env, status, "clSetEventCallback");
  }
  return promise;
}

Napi::Value NativeEvent::SetUserStatus(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_event event = Checked(env);
  cl_int status = info[0].As<Napi::Number>().Int32Value();
  Check(env, OCL_FN(env, clSetUserEventStatus)(event, status), "clSetUserEventStatus");
  pendingUser = false;
  ReleaseDependents();
  return env.Undefined();
}

// holdDependent(event): keeps a waiting command's event until this user event
// is set or released.
Napi::Value NativeEvent::HoldDependent(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Checked(env);
  cl_event dependent = NativeEvent::From(info[0], "event");
  Check(env, OCL_FN(env, clRetainEvent)(dependent), "clRetainEvent");
  dependents_.push_back(dependent);
  return env.Undefined();
}

void NativeEvent::ReleaseDependents() {
  const CoreApi* api = ApiOrNull();
  for (cl_event dependent : dependents_) {
    if (api) api->clReleaseEvent(dependent);
  }
  dependents_.clear();
}

constexpr cl_int kAbandonedUserEvent = -14;  // CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST

void NativeEvent::BeforeRelease() {
  const CoreApi* api = ApiOrNull();
  if (pendingUser && handle() && api && api->clSetUserEventStatus) api->clSetUserEventStatus(handle(), kAbandonedUserEvent);
  pendingUser = false;
}

void NativeEvent::AfterRelease() { ReleaseDependents(); }

void NativeEvent::Init(Napi::Env env, Napi::Object exports) {
  Register(env, exports, kName,
           {InstanceMethod("info", &NativeEvent::Info), InstanceMethod("profilingInfo", &NativeEvent::ProfilingInfo),
            InstanceMethod("whenStatus", &NativeEvent::WhenStatus),
            InstanceMethod("setUserStatus", &NativeEvent::SetUserStatus),
            InstanceMethod("holdDependent", &NativeEvent::HoldDependent)});
}

void InitEvent(Napi::Env env, Napi::Object exports) {
  NativeEvent::Init(env, exports);
  exports.Set("createUserEvent", Napi::Function::New(env, CreateUserEvent, "createUserEvent"));
  exports.Set("waitForEvents", Napi::Function::New(env, WaitForEvents, "waitForEvents"));
}

}  // namespace ocl
