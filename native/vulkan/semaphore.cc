// Binary semaphores that may be exported: an opaque fd or sync fd (Linux),
// an NT or KMT handle (Windows).
#include "vulkan/module.h"

namespace ocl {
namespace vk {

const napi_type_tag NativeVkSemaphore::kTypeTag = {0x8a1c5f3e27d04b96ULL, 0x4f6e2b9d0c7a1358ULL};

SemaphoreState::~SemaphoreState() {
  if (semaphore && device && !device->LeftToProcessEnd()) device->fn.vkDestroySemaphore(device->device, semaphore, nullptr);
}

// createSemaphore(exportTypes) -> NativeVkSemaphore
Napi::Value NativeVkDevice::MakeSemaphore(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const DeviceRef& device = Live(env);
  auto state = std::make_shared<SemaphoreState>();
  state->device = device;
  state->exportTypes = VkFlags(ToU64(info[0], "exportTypes"));
  VkExportSemaphoreCreateInfo exportInfo{VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO, nullptr, state->exportTypes};
  VkSemaphoreCreateInfo create{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, state->exportTypes ? &exportInfo : nullptr, 0};
  VK_CHECK(env, device->fn, vkCreateSemaphore, device->device, &create, nullptr, &state->semaphore);
  return NativeVkSemaphore::Wrap(env, std::move(state));
}

// exportHandle(handleType) -> fd | HANDLE
Napi::Value NativeVkSemaphore::Export(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const SemaphoreState& state = *Live(env);
  const DeviceState& device = *state.device;
  VkFlags handleType = VkFlags(ToU64(info[0], "handleType"));
  if (!(state.exportTypes & handleType)) throw Napi::TypeError::New(env, "the semaphore was not made exportable as this handle type");
  if (handleType == VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT || handleType == VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_SYNC_FD_BIT) {
    VK_REQUIRE(env, device.fn, vkGetSemaphoreFdKHR, "VK_KHR_external_semaphore_fd is not enabled");
    VkMemoryGetFdInfoKHR get{VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR, nullptr, state.semaphore, handleType};
    int fd = -1;
    VK_CHECK(env, device.fn, vkGetSemaphoreFdKHR, device.device, &get, &fd);
    return Napi::Number::New(env, fd);
  }
  VK_REQUIRE(env, device.fn, vkGetSemaphoreWin32HandleKHR, "VK_KHR_external_semaphore_win32 is not enabled");
  VkGetWin32HandleInfoKHR get{VK_STRUCTURE_TYPE_SEMAPHORE_GET_WIN32_HANDLE_INFO_KHR, nullptr, state.semaphore, handleType};
  void* handle = nullptr;
  VK_CHECK(env, device.fn, vkGetSemaphoreWin32HandleKHR, device.device, &get, &handle);
  return Napi::BigInt::New(env, uint64_t(reinterpret_cast<uintptr_t>(handle)));
}

void NativeVkSemaphore::Init(Napi::Env env, Napi::Object exports) {
  Register(env, exports, {InstanceMethod("exportHandle", &NativeVkSemaphore::Export)});
}

void InitSemaphore(Napi::Env env, Napi::Object exports) { NativeVkSemaphore::Init(env, exports); }

}  // namespace vk
}  // namespace ocl
