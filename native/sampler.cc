// Samplers (twin of lib/sampler.ts): creation (with a property list where the
// driver has clCreateSamplerWithProperties) and queries.
#include "objects.h"

namespace ocl {

const napi_type_tag NativeSampler::kTypeTag = {0x6f636c2d73616d70ULL, 0x6c65720000000006ULL};

namespace {

// createSampler(context, normalized, addressing, filter, properties: bigint[] | null)
// With properties, clCreateSamplerWithProperties (2.0+); lib/ picks.
Napi::Value CreateSampler(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_context context = NativeContext::From(info[0], "context");
  cl_sampler sampler = nullptr;
  if (info[4].IsArray()) {
    auto array = info[4].As<Napi::Array>();
    std::vector<cl_sampler_properties> props;
    for (uint32_t i = 0; i < array.Length(); ++i) props.push_back(ToU64(array.Get(i), "sampler property"));
    props.push_back(0);
    sampler = OCL_CREATE(env, clCreateSamplerWithProperties, context, props.data());
  } else {
    cl_bool normalized = info[1].ToBoolean() ? 1 : 0;
    auto addressing = static_cast<cl_uint>(ToU64(info[2], "addressing"));
    auto filter = static_cast<cl_uint>(ToU64(info[3], "filter"));
    sampler = OCL_CREATE(env, clCreateSampler, context, normalized, addressing, filter);
  }
  return NativeSampler::Wrap(env, sampler);
}

}  // namespace

Napi::Value NativeSampler::Info(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return InfoBytes(info, Checked(env), OCL_ENTRY(env, clGetSamplerInfo));
}

void NativeSampler::Init(Napi::Env env, Napi::Object exports) { Register(env, exports, kName, {InstanceMethod("info", &NativeSampler::Info)}); }

void InitSampler(Napi::Env env, Napi::Object exports) {
  NativeSampler::Init(env, exports);
  exports.Set("createSampler", Napi::Function::New(env, CreateSampler, "createSampler"));
}

}  // namespace ocl
