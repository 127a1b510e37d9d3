#include "objects.h"

namespace ocl {

const napi_type_tag NativeKernel::kTypeTag = {0x6f636c2d6b65726eULL, 0x656c000000000008ULL};

namespace {

constexpr size_t kNDRangeSizes = 12;

Napi::Value CreateKernel(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_program program = NativeProgram::From(info[0], "program");
  std::string name = info[1].As<Napi::String>();
  cl_int status = CL_SUCCESS;
  cl_kernel kernel = OCL_FN(env, clCreateKernel)(program, name.c_str(), &status);
  Check(env, status, "clCreateKernel");
  return NativeKernel::Wrap(env, kernel);
}

// Keeps `v`, a typed array of `length` elements, for the life of the environment; returns its data.
template <typename T>
const T* KeepArray(const Napi::Value& v, napi_typedarray_type type, size_t length, Napi::Reference<Napi::TypedArrayOf<T>>& keep,
                   const char* what) {
  if (!v.IsTypedArray() || v.As<Napi::TypedArray>().TypedArrayType() != type ||
      v.As<Napi::TypedArray>().ElementLength() != length) {
    throw Napi::TypeError::New(v.Env(), std::string(what) + " must be a typed array of " + std::to_string(length) + " elements");
  }
  keep = Napi::Persistent(v.As<Napi::TypedArrayOf<T>>());
  return v.As<Napi::TypedArrayOf<T>>().Data();
}

// useCallArrays(Float64Array(kNDRangeSizes), Uint8Array(kArgBytes)), once per
// environment (lib/addon.ts, when the addon loads): the arrays enqueueNDRange
// and setArgBytes read their sizes and bytes from.
Napi::Value UseCallArrays(const Napi::CallbackInfo& info) {
  auto& data = AddonData::Get(info.Env());
  data.ndrangeData = KeepArray(info[0], napi_float64_array, kNDRangeSizes, data.ndrangeSizes, "NDRange sizes");
  data.argBytes = KeepArray(info[1], napi_uint8_array, kArgBytes, data.argBytesArray, "argument bytes");
  return info.Env().Undefined();
}

// enqueueNDRange(queue, kernel, waitList): dimensions and sizes come from the
// array given to useCallArrays: [dims, hasOffset, hasLocal, global x3, offset x3, local x3].
Napi::Value EnqueueNDRange(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  cl_kernel kernel = NativeKernel::From(info[1], "kernel");
  const double* v = AddonData::Get(env).ndrangeData;
  if (!v) throw Napi::Error::New(env, "enqueueNDRange before useCallArrays");
  const auto dims = static_cast<cl_uint>(v[0]);
  if (dims < 1 || dims > 3) throw Napi::RangeError::New(env, "an NDRange has 1 to 3 dimensions");
  size_t global[3], offset[3], local[3];
  for (cl_uint d = 0; d < dims; ++d) {
    global[d] = static_cast<size_t>(v[3 + d]);
    offset[d] = static_cast<size_t>(v[6 + d]);
    local[d] = static_cast<size_t>(v[9 + d]);
  }
  Enqueue op(info[2]);
  Check(env,
        OCL_FN(env, clEnqueueNDRangeKernel)(queue, kernel, dims, v[1] != 0 ? offset : nullptr, global,
                                            v[2] != 0 ? local : nullptr, op.count(), op.list(), &op.event),
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

// setArgBytes(index, length): the first `length` bytes of the array given to useCallArrays.
Napi::Value NativeKernel::SetArgBytes(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_kernel kernel = Checked(env);
  cl_uint index = static_cast<cl_uint>(ToU64(info[0], "index"));
  size_t length = ToSize(info[1], "length");
  const uint8_t* bytes = AddonData::Get(env).argBytes;
  if (!bytes) throw Napi::Error::New(env, "setArgBytes before useCallArrays");
  if (length == 0 || length > kArgBytes) throw Napi::RangeError::New(env, "length must be 1 to " + std::to_string(kArgBytes));
  Check(env, OCL_FN(env, clSetKernelArg)(kernel, index, length, bytes), "clSetKernelArg");
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
            InstanceMethod("setArgBytes", &NativeKernel::SetArgBytes),
            InstanceMethod("setArgMem", &NativeKernel::SetArgMem),
            InstanceMethod("setArgSampler", &NativeKernel::SetArgSampler),
            InstanceMethod("setArgLocal", &NativeKernel::SetArgLocal)});
}

void InitKernel(Napi::Env env, Napi::Object exports) {
  NativeKernel::Init(env, exports);
  exports.Set("createKernel", Napi::Function::New(env, CreateKernel, "createKernel"));
  exports.Set("useCallArrays", Napi::Function::New(env, UseCallArrays, "useCallArrays"));
  exports.Set("enqueueNDRange", Napi::Function::New(env, EnqueueNDRange, "enqueueNDRange"));
}

}  // namespace ocl
