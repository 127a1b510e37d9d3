// Registers every native file's exports. lib/addon.ts is the only consumer.
#include "addon.h"
#include "libva.h"
#include "vulkan/vulkan.h"

namespace ocl {
namespace {

// setErrorFactories({ clError, missingEntryPoint, released }): the error
// classes live in lib/errors.ts; native code builds errors through these.
Napi::Value SetErrorFactories(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[0].IsObject()) throw Napi::TypeError::New(env, "factories must be an object");
  Napi::Object factories = info[0].As<Napi::Object>();
  AddonData& data = AddonData::Get(env);
  data.makeClError = Napi::Persistent(factories.Get("clError").As<Napi::Function>());
  data.makeMissingEntry = Napi::Persistent(factories.Get("missingEntryPoint").As<Napi::Function>());
  data.makeReleasedError = Napi::Persistent(factories.Get("released").As<Napi::Function>());
  return env.Undefined();
}

}  // namespace

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  env.SetInstanceData(new AddonData());
  exports.Set("setErrorFactories", Napi::Function::New(env, SetErrorFactories, "setErrorFactories"));
#ifdef _WIN32
  InitDirect3D(env, exports);  // the Direct3D module: Windows only
#endif
  InitLoader(env, exports);
  InitCallbacks(env, exports);
  InitPlatform(env, exports);
  InitDevice(env, exports);
  InitContext(env, exports);
  InitQueue(env, exports);
  InitMemory(env, exports);
  InitHostMemory(env, exports);
  InitSampler(env, exports);
  InitProgram(env, exports);
  InitKernel(env, exports);
  InitEvent(env, exports);
  InitExtensions(env, exports);
  va::InitLibVa(env, exports);
  va::InitVaDisplay(env, exports);
  va::InitVaSurface(env, exports);
  InitVulkan(env, exports);
  return exports;
}

}  // namespace ocl

static Napi::Object InitAddon(Napi::Env env, Napi::Object exports) { return ocl::Init(env, exports); }

NODE_API_MODULE(opencl_interop, InitAddon)
