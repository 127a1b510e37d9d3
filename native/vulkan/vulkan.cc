// Registers the Vulkan module's exports (all names start with vk / NativeVk).
#include "vulkan/vulkan.h"

#include "vulkan/module.h"

namespace ocl {

void InitVulkan(Napi::Env env, Napi::Object exports) {
  vk::InitLoader(env, exports);
  vk::InitInstance(env, exports);
  vk::InitDevice(env, exports);
  vk::InitMemory(env, exports);
  vk::InitSemaphore(env, exports);
  vk::InitCommands(env, exports);
}

}  // namespace ocl
