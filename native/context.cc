// Contexts (twin of lib/context.ts): creation from devices or a device type,
// the driver's error notifications forwarded to lib/ as they come, and queries.
#include "completion.h"
#include "objects.h"

namespace ocl {

const napi_type_tag NativeContext::kTypeTag = {0x6f636c2d636f6e74ULL, 0x6578740000000003ULL};

namespace {

// What the driver's error-notify callback gets as user data. Freed by the
// context destructor callback where the driver has one (OpenCL 3.0); on older
// drivers it stays for the life of the process (a few bytes per context).
struct NotifyTarget {
  std::weak_ptr<CallbackHub> hub;
  uint64_t listener;
};

struct ContextErrorDelivery : CallbackHub::Delivery {
  uint64_t listener;
  std::string message;
  void Deliver(Napi::Env env, CallbackHub& hub) override {
    if (Napi::FunctionReference* fn = hub.Listener(listener)) fn->Call({Napi::String::New(env, message)});
  }
};

void OCL_CALL OnContextError(const char* message, const void*, size_t, void* user) {
  auto* target = static_cast<NotifyTarget*>(user);
  if (auto hub = target->hub.lock()) {
    auto* delivery = new ContextErrorDelivery();
    delivery->listener = target->listener;
    delivery->message = message ? message : "";
    hub->Post(delivery);
  }
}

void OCL_CALL OnContextDestroyed(cl_context, void* user) { delete static_cast<NotifyTarget*>(user); }

std::vector<cl_context_properties> ToProperties(const Napi::Value& v) {
  std::vector<cl_context_properties> props;
  if (v.IsArray()) {
    auto array = v.As<Napi::Array>();
    for (uint32_t i = 0; i < array.Length(); ++i) {
      props.push_back(static_cast<cl_context_properties>(ToU64(array.Get(i), "context property")));
    }
  }
  if (props.empty()) return props;
  props.push_back(0);
  return props;
}

// Shared tail of both creators: wraps the context and wires the error listener.
Napi::Value Finish(Napi::Env env, cl_context context, cl_int status, const char* call, NotifyTarget* target, uint64_t listener) {
  CallbackHub& hub = *AddonData::Get(env).hub;
  if (status != CL_SUCCESS || !context) {
    delete target;
    if (listener) hub.RemoveListener(listener);
    ThrowClError(env, status != CL_SUCCESS ? status : -1, call);
  }
  if (target) {
    auto destructorCallback = Api(env).clSetContextDestructorCallback;
    if (destructorCallback) destructorCallback(context, OnContextDestroyed, target);
  }
  Napi::Object wrapped = NativeContext::Wrap(env, context);
  NativeContext::Unwrap(wrapped)->listener = listener;
  return wrapped;
}

NotifyTarget* PrepareNotify(Napi::Env env, const Napi::Value& onError, uint64_t& listener) {
  listener = 0;
  if (!onError.IsFunction()) return nullptr;
  AddonData& data = AddonData::Get(env);
  listener = data.hub->AddListener(onError.As<Napi::Function>());
  return new NotifyTarget{data.hub, listener};
}

// createContext(properties: bigint[], devices: NativeDevice[], onError?)
Napi::Value CreateContext(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto props = ToProperties(info[0]);
  auto devices = NativeDevice::FromArray(info[1], "devices");
  auto entry = OCL_ENTRY(env, clCreateContext);
  uint64_t listener;
  NotifyTarget* target = PrepareNotify(env, info[2], listener);
  cl_int status = CL_SUCCESS;
  cl_context context = entry.fn(props.empty() ? nullptr : props.data(), static_cast<cl_uint>(devices.size()),
                                devices.empty() ? nullptr : devices.data(), target ? OnContextError : nullptr, target, &status);
  return Finish(env, context, status, entry.call, target, listener);
}

// createContextFromType(properties: bigint[], type: bigint, onError?)
Napi::Value CreateContextFromType(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto props = ToProperties(info[0]);
  cl_device_type type = ToU64(info[1], "type");
  auto entry = OCL_ENTRY(env, clCreateContextFromType);
  uint64_t listener;
  NotifyTarget* target = PrepareNotify(env, info[2], listener);
  cl_int status = CL_SUCCESS;
  cl_context context = entry.fn(props.empty() ? nullptr : props.data(), type, target ? OnContextError : nullptr, target, &status);
  return Finish(env, context, status, entry.call, target, listener);
}

}  // namespace

NativeContext::NativeContext(const Napi::CallbackInfo& info) : Handle(info) {}

NativeContext::~NativeContext() { BeforeRelease(); }

void NativeContext::BeforeRelease() {
  if (listener) AddonData::Get(Env()).hub->RemoveListener(listener);
  listener = 0;
}

Napi::Value NativeContext::Info(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return InfoBytes(info, Checked(env), OCL_ENTRY(env, clGetContextInfo));
}

void NativeContext::Init(Napi::Env env, Napi::Object exports) { Register(env, exports, kName, {InstanceMethod("info", &NativeContext::Info)}); }

void InitContext(Napi::Env env, Napi::Object exports) {
  NativeContext::Init(env, exports);
  exports.Set("createContext", Napi::Function::New(env, CreateContext, "createContext"));
  exports.Set("createContextFromType", Napi::Function::New(env, CreateContextFromType, "createContextFromType"));
}

}  // namespace ocl
