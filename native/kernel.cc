#include "objects.h"

namespace ocl {

const napi_type_tag NativeKernel::kTypeTag = {0x6f636c2d6b65726eULL, 0x656c000000000008ULL};

namespace {

Napi::Value CreateKernel(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_program program = NativeProgram::From(info[0], "program");
  std::string name = info[1].As<Napi::String>();
  cl_int status = CL_SUCCESS;
  cl_kernel kernel = OCL_FN(env, clCreateKernel)(program, name.c_str(), &status);
  Check(env, status, "clCreateKernel");
  return NativeKernel::Wrap(env, kernel);
}

std::vector<size_t> ToSizes(const Napi::Value& v, const char* what) {
  std::vector<size_t> sizes;
  if (v.IsUndefined() || v.IsNull()) return sizes;
  if (!v.IsArray()) throw Napi::TypeError::New(v.Env(), std::string(what) + " must be an array");
  auto array = v.As<Napi::Array>();
  for (uint32_t i = 0; i < array.Length(); ++i) sizes.push_back(ToSize(array.Get(i), what));
  return sizes;
}

// enqueueNDRange(queue, kernel, offset | null, global, local | null, waitList)
Napi::Value EnqueueNDRange(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  cl_kernel kernel = NativeKernel::From(info[1], "kernel");
  auto offset = ToSizes(info[2], "offset");
  auto global = ToSizes(info[3], "global size");
  auto local = ToSizes(info[4], "local size");
  if (global.empty() || global.size() > 3 || (!offset.empty() && offset.size() != global.size()) ||
      (!local.empty() && local.size() != global.size())) {
    throw Napi::RangeError::New(env, "offset, global and local sizes must have the same 1 to 3 dimensions");
  }
  Enqueue op(info[5]);
  Check(env,
        OCL_FN(env, clEnqueueNDRangeKernel)(queue, kernel, static_cast<cl_uint>(global.size()),
                                            offset.empty() ? nullptr : offset.data(), global.data(),
                                            local.empty() ? nullptr : local.data(), op.count(), op.list(), &op.event),
        "clEnqueueNDRangeKernel");
  return op.Result(env);
}

}  // namespace

// setArg(index, bytes): the value's bytes, already packed by lib/.
Napi::Value NativeKernel::SetArg(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_kernel kernel = Checked(env);
  cl_uint index = static_cast<cl_uint>(ToU64(info[0], "index"));
  HostView bytes = ToHostView(info[1], "value");
  Check(env, OCL_FN(env, clSetKernelArg)(kernel, index, bytes.length, bytes.data), "clSetKernelArg");
  return env.Undefined();
}

// setArgMem(index, mem | null)
Napi::Value NativeKernel::SetArgMem(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_kernel kernel = Checked(env);
  cl_uint index = static_cast<cl_uint>(ToU64(info[0], "index"));
  cl_mem mem = info[1].IsNull() ? nullptr : NativeMem::From(info[1], "memory object");
  Check(env, OCL_FN(env, clSetKernelArg)(kernel, index, sizeof(cl_mem), &mem), "clSetKernelArg");
  return env.Undefined();
}

Napi::Value NativeKernel::SetArgSampler(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_kernel kernel = Checked(env);
  cl_uint index = static_cast<cl_uint>(ToU64(info[0], "index"));
  cl_sampler sampler = NativeSampler::From(info[1], "sampler");
  Check(env, OCL_FN(env, clSetKernelArg)(kernel, index, sizeof(cl_sampler), &sampler), "clSetKernelArg");
  return env.Undefined();
}

// setArgLocal(index, size): __local memory of size bytes.
Napi::Value NativeKernel::SetArgLocal(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_kernel kernel = Checked(env);
  cl_uint index = static_cast<cl_uint>(ToU64(info[0], "index"));
  size_t size = ToSize(info[1], "size");
  Check(env, OCL_FN(env, clSetKernelArg)(kernel, index, size, nullptr), "clSetKernelArg");
  return env.Undefined();
}

Napi::Value NativeKernel::Info(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return InfoBytes(info, Checked(env), OCL_FN(env, clGetKernelInfo), "clGetKernelInfo");
}

// workGroupInfo(device | null, param)
Napi::Value NativeKernel::WorkGroupInfo(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_kernel kernel = Checked(env);
  cl_device_id device = info[0].IsNull() ? nullptr : NativeDevice::From(info[0], "device");
  cl_uint param = static_cast<cl_uint>(ToU64(info[1], "param"));
  auto fn = OCL_FN(env, clGetKernelWorkGroupInfo);
  return QueryBytes(env, "clGetKernelWorkGroupInfo", [&](size_t size, void* out, size_t* sizeRet) {
    return fn(kernel, device, param, size, out, sizeRet);
  });
}

// argInfo(index, param)
Napi::Value NativeKernel::ArgInfo(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_kernel kernel = Checked(env);
  cl_uint index = static_cast<cl_uint>(ToU64(info[0], "index"));
  cl_uint param = static_cast<cl_uint>(ToU64(info[1], "param"));
  auto fn = OCL_FN(env, clGetKernelArgInfo);
  return QueryBytes(env, "clGetKernelArgInfo", [&](size_t size, void* out, size_t* sizeRet) {
    return fn(kernel, index, param, size, out, sizeRet);
  });
}

void NativeKernel::Init(Napi::Env env, Napi::Object exports) {
  Register(env, exports, kName,
           {InstanceMethod("info", &NativeKernel::Info), InstanceMethod("workGroupInfo", &NativeKernel::WorkGroupInfo),
            InstanceMethod("argInfo", &NativeKernel::ArgInfo), InstanceMethod("setArg", &NativeKernel::SetArg),
            InstanceMethod("setArgMem", &NativeKernel::SetArgMem),
            InstanceMethod("setArgSampler", &NativeKernel::SetArgSampler),
            InstanceMethod("setArgLocal", &NativeKernel::SetArgLocal)});
}

void InitKernel(Napi::Env env, Napi::Object exports) {
  NativeKernel::Init(env, exports);
  exports.Set("createKernel", Napi::Function::New(env, CreateKernel, "createKernel"));
  exports.Set("enqueueNDRange", Napi::Function::New(env, EnqueueNDRange, "enqueueNDRange"));
}

}  // namespace ocl
