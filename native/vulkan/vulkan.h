// The Vulkan module (twin of lib/vulkan/): the producer and consumer side of
// external memory and semaphore sharing. addon.cc calls InitVulkan once per
// environment; nothing else of the addon includes the module's internals.
#pragma once

#include <napi.h>

namespace ocl {

void InitVulkan(Napi::Env env, Napi::Object exports);

}  // namespace ocl
