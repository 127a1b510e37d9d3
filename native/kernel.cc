// Kernels (twin of lib/kernel.ts): creation, arguments (set at once, or
// held in the argument store and applied at the next launch) and queries.
// queue.cc launches them.
#include "objects.h"

namespace ocl {

const napi_type_tag NativeKernel::kTypeTag = {0x6f636c2d6b65726eULL, 0x656c000000000008ULL};

namespace {

constexpr cl_uint kKernelNumArgs = 0x1191;  // CL_KERNEL_NUM_ARGS

Napi::Value CreateKernel(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_program program = NativeProgram::From(info[0], "program");
  std::string name = info[1].As<Napi::String>();
  cl_kernel kernel = OCL_CREATE(env, clCreateKernel, program, name.c_str());
  return NativeKernel::Wrap(env, kernel);
}

}  // namespace

enum ArgOp { kOpObject = 1, kOpBytes = 2, kOpLocal = 3 };

// Hands the driver the arguments lib/kernel.ts checked and held since the
// last enqueue: ops = [count, (index, kind, value) x count]; for kOpObject the
// value is the slot of a NativeMem or NativeSampler, or -1 for a NULL buffer;
// kOpBytes takes `value` bytes from the kernel's argument store; kOpLocal is
// __local memory of `value` bytes.
void ApplyPendingArgs(Napi::Env env, NativeKernel& kernel, const double* ops) {
  const auto count = static_cast<size_t>(ops[0]);
  if (count > kMaxArgOps) throw Napi::RangeError::New(env, "too many pending kernel arguments");
  if (count == 0) return;
  auto setArg = OCL_ENTRY(env, clSetKernelArg);
  const ObjectTable& objects = AddonData::Get(env).objects;
  const uint8_t* store = nullptr;
  size_t storeBytes = 0;
  for (size_t i = 0; i < count; ++i) {
    const double* op = ops + 1 + 3 * i;
    const auto index = static_cast<cl_uint>(op[0]);
    const double value = op[2];
    cl_int status = CL_INVALID_VALUE;
    switch (static_cast<int>(op[1])) {
      case kOpObject: {
        void* handle = nullptr;
        if (value >= 0) {
          if (auto* sampler = static_cast<NativeSampler*>(objects.Find(value, &NativeSampler::kTypeTag))) {
            handle = sampler->handle();
          } else {
            handle = NativeMem::FromSlot(env, value, "kernel argument")->handle();
          }
          if (!handle) ThrowReleased(env, "kernel argument");
        }
        status = setArg.fn(kernel.handle(), index, sizeof(void*), &handle);
        break;
      }
      case kOpBytes: {
        const auto length = static_cast<size_t>(value);
        if (!store) store = kernel.ArgStoreData(env, storeBytes);  // one detach check per enqueue
        const uint8_t* bytes = ArgSlice(env, store, storeBytes, index, length);
        status = setArg.fn(kernel.handle(), index, length, bytes);
        break;
      }
      case kOpLocal: status = setArg.fn(kernel.handle(), index, static_cast<size_t>(value), nullptr); break;
      default: throw Napi::TypeError::New(env, "unknown kernel argument operation");
    }
    Check(env, status, setArg.call);
  }
}

// setArg(index, bytes): the value's bytes, already packed by lib/.
Napi::Value NativeKernel::SetArg(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_kernel kernel = Checked(env);
  cl_uint index = static_cast<cl_uint>(ToU64(info[0], "index"));
  HostView bytes = ToHostView(info[1], "value");
  OCL_CHECK(env, clSetKernelArg, kernel, index, bytes.length, bytes.data);
  return env.Undefined();
}

// setArgBytes(index, length): `length` bytes of argument `index` in the kernel's argument store.
Napi::Value NativeKernel::SetArgBytes(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_kernel kernel = Checked(env);
  cl_uint index = static_cast<cl_uint>(ToU64(info[0], "index"));
  size_t length = ToSize(info[1], "length");
  const uint8_t* bytes = ArgBytes(env, index, length);
  OCL_CHECK(env, clSetKernelArg, kernel, index, length, bytes);
  return env.Undefined();
}

// argStore() -> Uint8Array: kArgBytes bytes per argument, where lib/kernel.ts
// packs argument values. Made here on the first call, the same one at every
// call: a script cannot hand the kernel memory of its own.
Napi::Value NativeKernel::ArgStore(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (argStore_.IsEmpty()) {
    cl_kernel kernel = Checked(env);
    cl_uint count = 0;
    OCL_CHECK(env, clGetKernelInfo, kernel, kKernelNumArgs, sizeof(count), &count, nullptr);
    argStore_.Make(env, (count ? count : 1) * kArgBytes);
  }
  return argStore_.Value();
}

const uint8_t* NativeKernel::ArgStoreData(Napi::Env env, size_t& bytes) const { return argStore_.Data(env, bytes, "the kernel's argument store"); }

const uint8_t* ArgSlice(Napi::Env env, const uint8_t* store, size_t bytes, cl_uint index, size_t length) {
  size_t start = static_cast<size_t>(index) * kArgBytes;
  if (length == 0 || length > kArgBytes || start + kArgBytes > bytes) {
    throw Napi::RangeError::New(env, "kernel argument bytes outside the kernel's argument store");
  }
  return store + start;
}

const uint8_t* NativeKernel::ArgBytes(Napi::Env env, cl_uint index, size_t length) const {
  size_t bytes = 0;
  const uint8_t* store = ArgStoreData(env, bytes);
  return ArgSlice(env, store, bytes, index, length);
}

// setArgMem(index, mem | null)
Napi::Value NativeKernel::SetArgMem(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_kernel kernel = Checked(env);
  cl_uint index = static_cast<cl_uint>(ToU64(info[0], "index"));
  cl_mem mem = info[1].IsNull() ? nullptr : NativeMem::From(info[1], "memory object");
  OCL_CHECK(env, clSetKernelArg, kernel, index, sizeof(cl_mem), &mem);
  return env.Undefined();
}

Napi::Value NativeKernel::SetArgSampler(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_kernel kernel = Checked(env);
  cl_uint index = static_cast<cl_uint>(ToU64(info[0], "index"));
  cl_sampler sampler = NativeSampler::From(info[1], "sampler");
  OCL_CHECK(env, clSetKernelArg, kernel, index, sizeof(cl_sampler), &sampler);
  return env.Undefined();
}

// setArgLocal(index, size): __local memory of size bytes.
Napi::Value NativeKernel::SetArgLocal(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_kernel kernel = Checked(env);
  cl_uint index = static_cast<cl_uint>(ToU64(info[0], "index"));
  size_t size = ToSize(info[1], "size");
  OCL_CHECK(env, clSetKernelArg, kernel, index, size, nullptr);
  return env.Undefined();
}

Napi::Value NativeKernel::Info(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return InfoBytes(info, Checked(env), OCL_ENTRY(env, clGetKernelInfo));
}

// workGroupInfo(device | null, param)
Napi::Value NativeKernel::WorkGroupInfo(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_kernel kernel = Checked(env);
  cl_device_id device = info[0].IsNull() ? nullptr : NativeDevice::From(info[0], "device");
  cl_uint param = static_cast<cl_uint>(ToU64(info[1], "param"));
  auto entry = OCL_ENTRY(env, clGetKernelWorkGroupInfo);
  return QueryBytes(env, entry.call, [&](size_t size, void* out, size_t* sizeRet) { return entry.fn(kernel, device, param, size, out, sizeRet); });
}

// argInfo(index, param)
Napi::Value NativeKernel::ArgInfo(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_kernel kernel = Checked(env);
  cl_uint index = static_cast<cl_uint>(ToU64(info[0], "index"));
  cl_uint param = static_cast<cl_uint>(ToU64(info[1], "param"));
  auto entry = OCL_ENTRY(env, clGetKernelArgInfo);
  return QueryBytes(env, entry.call, [&](size_t size, void* out, size_t* sizeRet) { return entry.fn(kernel, index, param, size, out, sizeRet); });
}

void NativeKernel::Init(Napi::Env env, Napi::Object exports) {
  Register(env, exports, kName,
           {InstanceMethod("info", &NativeKernel::Info), InstanceMethod("workGroupInfo", &NativeKernel::WorkGroupInfo),
            InstanceMethod("argInfo", &NativeKernel::ArgInfo), InstanceMethod("setArg", &NativeKernel::SetArg),
            InstanceMethod("setArgBytes", &NativeKernel::SetArgBytes), InstanceMethod("argStore", &NativeKernel::ArgStore),
            InstanceMethod("setArgMem", &NativeKernel::SetArgMem), InstanceMethod("setArgSampler", &NativeKernel::SetArgSampler),
            InstanceMethod("setArgLocal", &NativeKernel::SetArgLocal)});
}

void InitKernel(Napi::Env env, Napi::Object exports) {
  NativeKernel::Init(env, exports);
  exports.Set("createKernel", Napi::Function::New(env, CreateKernel, "createKernel"));
}

}  // namespace ocl
