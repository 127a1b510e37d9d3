// The video module (twin of lib/video/): Vulkan Video decode on devices of
// the Vulkan module (native/video/ builds on native/vulkan/, never the other
// way). addon.cc calls InitVideo once per environment, after InitVulkan;
// nothing else of the addon includes the module's internals (video/module.h).
#pragma once

#include <napi.h>

namespace ocl {

void InitVideo(Napi::Env env, Napi::Object exports);

}  // namespace ocl
