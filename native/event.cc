#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <condition_variable>
#include <system_error>
#include <thread>

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

namespace {

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
  const CoreApi& api = Api(env);
  AddonData& data = AddonData::Get(env);
  auto* delivery = new EventStatusDelivery(env);
  delivery->hub = data.hub;
  delivery->keepsAlive = keepAlive;
  Napi::Promise promise = delivery->deferred.Promise();
  // Counted before the call: some drivers invoke the callback synchronously.
  if (keepAlive) data.hub->Hold(env);
  cl_int status = NotifyOnStatus(api, event, execStatus, OnEventStatus, delivery, DeliveryAbandoned, DropDelivery);
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
