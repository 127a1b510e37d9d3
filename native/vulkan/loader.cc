// Loads the Vulkan loader (libvulkan.so.1, vulkan-1.dll) at run time and
// resolves everything else through vkGetInstanceProcAddr: installing or
// building the addon never needs Vulkan. What is loaded stays loaded for the
// life of the process, shared by every environment.
#include <mutex>

#include "vulkan/module.h"

#include "dynamic_library.h"

namespace ocl {
namespace vk {
namespace {

std::mutex loadMutex;
GlobalApi global;
bool loaded = false;
std::string loadedPath;

std::vector<std::pair<std::string, std::vector<uint32_t>>> shaders;  // set once per process

Napi::Object Loaded(Napi::Env env) {
  Napi::Object result = Napi::Object::New(env);
  result.Set("ok", true);
  result.Set("path", loadedPath);
  uint32_t version = VkMakeApiVersion(1, 0, 0);
  if (global.vkEnumerateInstanceVersion) global.vkEnumerateInstanceVersion(&version);
  result.Set("version", version);
  return result;
}

// vkLoad(candidates: string[]) -> { ok: true, path, version } | { ok: false, attempts: [{ path, error }] }
Napi::Value Load(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::lock_guard<std::mutex> guard(loadMutex);
  if (loaded) return Loaded(env);
  if (!info[0].IsArray()) throw Napi::TypeError::New(env, "candidates must be an array");
  // A loader that exports vkGetInstanceProcAddr and gives vkCreateInstance through it.
  GlobalApi api;
  auto check = [&api](void* library) -> std::string {
    auto gipa = reinterpret_cast<PFN_vkGetInstanceProcAddr>(FindSymbol(library, "vkGetInstanceProcAddr"));
    if (!gipa) return "the library has no vkGetInstanceProcAddr";
    api = GlobalApi();
    api.vkGetInstanceProcAddr = gipa;
#define OCL_VK_RESOLVE(name, ret, params) api.name = reinterpret_cast<decltype(api.name)>(gipa(nullptr, #name));
    OCL_VK_GLOBAL_ENTRY_POINTS(OCL_VK_RESOLVE)
#undef OCL_VK_RESOLVE
    if (!api.vkCreateInstance || !api.vkEnumerateInstanceExtensionProperties) return "vkGetInstanceProcAddr gives no vkCreateInstance";
    return std::string();
  };
  std::vector<LibraryAttempt> attempts;
  std::string path;
  if (!OpenFirstLibrary(LibraryCandidates(info[0]), check, path, attempts)) return FailedLoad(env, attempts);
  global = api;
  loaded = true;
  loadedPath = path;
  return Loaded(env);
}

Napi::Value LoadedLibrary(const Napi::CallbackInfo& info) {
  std::lock_guard<std::mutex> guard(loadMutex);
  return loaded ? Napi::Value(Loaded(info.Env())) : info.Env().Null();
}

// vkInstanceExtensions() -> string[]
Napi::Value InstanceExtensions(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const GlobalApi& api = Global(env);
  uint32_t count = 0;
  VK_CHECK(env, api, vkEnumerateInstanceExtensionProperties, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> list(count);
  VK_CHECK(env, api, vkEnumerateInstanceExtensionProperties, nullptr, &count, list.data());
  Napi::Array result = Napi::Array::New(env);
  for (uint32_t i = 0; i < count && i < list.size(); ++i) result.Set(i, std::string(list[i].extensionName));
  return result;
}

// vkSetShaders({ name: Uint32Array }): the SPIR-V lib/vulkan/shaders.ts ships (first call wins).
Napi::Value SetShaders(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[0].IsObject()) throw Napi::TypeError::New(env, "shaders must be an object");
  std::lock_guard<std::mutex> guard(loadMutex);
  if (!shaders.empty()) return env.Undefined();
  Napi::Object object = info[0].As<Napi::Object>();
  Napi::Array names = object.GetPropertyNames();
  for (uint32_t i = 0; i < names.Length(); ++i) {
    std::string name = names.Get(i).ToString();
    Napi::Value code = object.Get(name);
    if (!code.IsTypedArray() || code.As<Napi::TypedArray>().TypedArrayType() != napi_uint32_array)
      throw Napi::TypeError::New(env, "shader " + name + " must be a Uint32Array");
    Napi::Uint32Array words = code.As<Napi::Uint32Array>();
    shaders.emplace_back(name, std::vector<uint32_t>(words.Data(), words.Data() + words.ElementLength()));
  }
  return env.Undefined();
}

}  // namespace

const GlobalApi& Global(Napi::Env env) {
  if (!loaded) throw Napi::Error::New(env, "the Vulkan loader is not loaded");
  return global;
}

const std::vector<uint32_t>* ShaderCode(const std::string& name) {
  for (auto& [n, code] : shaders)
    if (n == name) return &code;
  return nullptr;
}

void ThrowVkError(Napi::Env env, VkResult result, const char* call, const std::string& detail) {
  ThrowErrorOf(env, "VulkanError", {Napi::Number::New(env, result), Napi::String::New(env, call), Napi::String::New(env, detail)},
               std::string(call) + " failed with VkResult " + std::to_string(result) + (detail.empty() ? "" : ": " + detail));
}

void InitLoader(Napi::Env env, Napi::Object exports) {
  exports.Set("vkLoad", Napi::Function::New(env, Load, "vkLoad"));
  exports.Set("vkLoadedLibrary", Napi::Function::New(env, LoadedLibrary, "vkLoadedLibrary"));
  exports.Set("vkInstanceExtensions", Napi::Function::New(env, InstanceExtensions, "vkInstanceExtensions"));
  exports.Set("vkSetShaders", Napi::Function::New(env, SetShaders, "vkSetShaders"));
}

}  // namespace vk
}  // namespace ocl
