#include "objects.h"

namespace ocl {

const napi_type_tag NativeQueue::kTypeTag = {0x6f636c2d71756575ULL, 0x6500000000000004ULL};

namespace {

// createQueue(context, device, properties: bigint[] | null, legacyProperties: bigint)
// With a properties array, clCreateCommandQueueWithProperties (OpenCL 2.0+);
// otherwise clCreateCommandQueue. lib/ picks by platform version.
Napi::Value CreateQueue(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_context context = NativeContext::From(info[0], "context");
  cl_device_id device = NativeDevice::From(info[1], "device");
  cl_int status = CL_SUCCESS;
  cl_command_queue queue = nullptr;
  if (info[2].IsArray()) {
    auto array = info[2].As<Napi::Array>();
    std::vector<cl_queue_properties> props;
    for (uint32_t i = 0; i < array.Length(); ++i) props.push_back(ToU64(array.Get(i), "queue property"));
    props.push_back(0);
    queue = OCL_FN(env, clCreateCommandQueueWithProperties)(context, device, props.data(), &status);
    Check(env, status, "clCreateCommandQueueWithProperties");
  } else {
    queue = OCL_FN(env, clCreateCommandQueue)(context, device, ToU64(info[3], "properties"), &status);
    Check(env, status, "clCreateCommandQueue");
  }
  return NativeQueue::Wrap(env, queue);
}

Napi::Value EnqueueMarker(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  Enqueue op(info[1]);
  Check(env, OCL_FN(env, clEnqueueMarkerWithWaitList)(queue, op.count(), op.list(), &op.event),
        "clEnqueueMarkerWithWaitList");
  return op.Result(env);
}

Napi::Value EnqueueBarrier(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  Enqueue op(info[1]);
  Check(env, OCL_FN(env, clEnqueueBarrierWithWaitList)(queue, op.count(), op.list(), &op.event),
        "clEnqueueBarrierWithWaitList");
  return op.Result(env);
}

}  // namespace

Napi::Value NativeQueue::Info(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return InfoBytes(info, Checked(env), OCL_FN(env, clGetCommandQueueInfo), "clGetCommandQueueInfo");
}

Napi::Value NativeQueue::Flush(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Check(env, OCL_FN(env, clFlush)(Checked(env)), "clFlush");
  return env.Undefined();
}

Napi::Value NativeQueue::Finish(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Check(env, OCL_FN(env, clFinish)(Checked(env)), "clFinish");
  return env.Undefined();
}

void NativeQueue::Init(Napi::Env env, Napi::Object exports) {
  Register(env, exports, kName,
           {InstanceMethod("info", &NativeQueue::Info), InstanceMethod("flush", &NativeQueue::Flush),
            InstanceMethod("finish", &NativeQueue::Finish)});
}

void InitQueue(Napi::Env env, Napi::Object exports) {
  NativeQueue::Init(env, exports);
  exports.Set("createQueue", Napi::Function::New(env, CreateQueue, "createQueue"));
  exports.Set("enqueueMarker", Napi::Function::New(env, EnqueueMarker, "enqueueMarker"));
  exports.Set("enqueueBarrier", Napi::Function::New(env, EnqueueBarrier, "enqueueBarrier"));
}

}  // namespace ocl
