// Programs (twin of lib/program.ts): from source or built-in kernels, builds
// on the libuv pool, binaries and queries.
#include "completion.h"
#include "objects.h"

namespace ocl {

const napi_type_tag NativeProgram::kTypeTag = {0x6f636c2d70726f67ULL, 0x72616d0000000007ULL};

namespace {

Napi::Value CreateProgramWithSource(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_context context = NativeContext::From(info[0], "context");
  std::string source = info[1].As<Napi::String>();
  const char* text = source.c_str();
  size_t length = source.size();
  cl_program program = OCL_CREATE(env, clCreateProgramWithSource, context, 1, &text, &length);
  return NativeProgram::Wrap(env, program);
}

// createProgramWithBuiltInKernels(context, devices, "name1;name2")
Napi::Value CreateProgramWithBuiltInKernels(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_context context = NativeContext::From(info[0], "context");
  auto devices = NativeDevice::FromArray(info[1], "devices");
  std::string names = info[2].As<Napi::String>();
  cl_program program =
      OCL_CREATE(env, clCreateProgramWithBuiltInKernels, context, static_cast<cl_uint>(devices.size()), devices.data(), names.c_str());
  return NativeProgram::Wrap(env, program);
}

// Compiling takes long; it runs on the libuv pool and settles with the status.
class BuildWorker : public Napi::AsyncWorker {
 public:
  BuildWorker(Napi::Env env, Napi::Object owner, cl_program program, std::vector<cl_device_id> devices, std::string options)
      : Napi::AsyncWorker(env, "opencl-interop build"),
        deferred_(Napi::Promise::Deferred::New(env)),
        program_(program),
        devices_(std::move(devices)),
        options_(std::move(options)),
        build_(Api(env).clBuildProgram),
        environment_(&AddonData::Get(env)) {
    owner_ = Napi::Persistent(owner);
    NoteBuildStarted(environment_);  // the exit waits for it (completion.h)
  }
  ~BuildWorker() override {
    if (!executed_) NoteBuildEnded(environment_);  // cancelled before it ran
  }
  Napi::Promise Promise() { return deferred_.Promise(); }
  void Execute() override {
    status_ =
        build_(program_, static_cast<cl_uint>(devices_.size()), devices_.empty() ? nullptr : devices_.data(), options_.c_str(), nullptr, nullptr);
    executed_ = true;
    NoteBuildEnded(environment_);
  }
  void OnOK() override { deferred_.Resolve(Napi::Number::New(Env(), status_)); }

 private:
  Napi::Promise::Deferred deferred_;
  Napi::ObjectReference owner_;  // keeps the program alive while it builds
  cl_program program_;
  std::vector<cl_device_id> devices_;
  std::string options_;
  decltype(CoreApi::clBuildProgram) build_;
  cl_int status_ = CL_SUCCESS;
  bool executed_ = false;
  const void* environment_;
};

}  // namespace

// build(devices, options) -> Promise<status>
Napi::Value NativeProgram::Build(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_program program = Checked(env);
  auto devices = NativeDevice::FromArray(info[0], "devices");
  std::string options = info[1].IsString() ? info[1].As<Napi::String>().Utf8Value() : "";
  OCL_FN(env, clBuildProgram);
  auto* worker = new BuildWorker(env, info.This().As<Napi::Object>(), program, std::move(devices), std::move(options));
  Napi::Promise promise = worker->Promise();
  worker->Queue();
  return promise;
}

constexpr cl_uint kProgramBinarySizes = 0x1165;  // CL_PROGRAM_BINARY_SIZES
constexpr cl_uint kProgramBinaries = 0x1166;     // CL_PROGRAM_BINARIES

// CL_PROGRAM_BINARIES takes an array of caller-allocated buffers, one per
// device, sized by CL_PROGRAM_BINARY_SIZES: the bytes of all of them, in
// device order, come back concatenated.
Napi::Value ProgramBinaries(Napi::Env env, cl_program program) {
  auto entry = OCL_ENTRY(env, clGetProgramInfo);
  size_t bytes = 0;
  CheckCall(env, entry, program, kProgramBinarySizes, 0, nullptr, &bytes);
  std::vector<size_t> sizes(bytes / sizeof(size_t));
  if (!sizes.empty()) CheckCall(env, entry, program, kProgramBinarySizes, bytes, sizes.data(), nullptr);
  size_t total = 0;
  for (size_t size : sizes) total += size;
  std::vector<uint8_t> all(total);
  std::vector<unsigned char*> pointers;
  size_t offset = 0;
  for (size_t size : sizes) {
    pointers.push_back(size ? all.data() + offset : nullptr);
    offset += size;
  }
  if (!pointers.empty()) {
    CheckCall(env, entry, program, kProgramBinaries, pointers.size() * sizeof(unsigned char*), pointers.data(), nullptr);
  }
  return BytesToJs(env, all.data(), all.size());
}

Napi::Value NativeProgram::Info(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_program program = Checked(env);
  if (ToU64(info[0], "param") == kProgramBinaries) return ProgramBinaries(env, program);
  return InfoBytes(info, program, OCL_ENTRY(env, clGetProgramInfo));
}

Napi::Value NativeProgram::BuildInfo(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_program program = Checked(env);
  cl_device_id device = NativeDevice::From(info[0], "device");
  cl_uint param = static_cast<cl_uint>(ToU64(info[1], "param"));
  auto entry = OCL_ENTRY(env, clGetProgramBuildInfo);
  return QueryBytes(env, entry.call, [&](size_t size, void* out, size_t* sizeRet) { return entry.fn(program, device, param, size, out, sizeRet); });
}

void NativeProgram::Init(Napi::Env env, Napi::Object exports) {
  Register(env, exports, kName,
           {InstanceMethod("info", &NativeProgram::Info), InstanceMethod("buildInfo", &NativeProgram::BuildInfo),
            InstanceMethod("build", &NativeProgram::Build)});
}

void InitProgram(Napi::Env env, Napi::Object exports) {
  NativeProgram::Init(env, exports);
  exports.Set("createProgramWithSource", Napi::Function::New(env, CreateProgramWithSource, "createProgramWithSource"));
  exports.Set("createProgramWithBuiltInKernels", Napi::Function::New(env, CreateProgramWithBuiltInKernels, "createProgramWithBuiltInKernels"));
}

}  // namespace ocl
