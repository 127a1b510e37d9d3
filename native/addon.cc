// Registers the core's and every area's exports. lib/addon.ts is the only
// consumer. The one file that knows every area: the core never includes an
// area, and each area declares its registration in its own header.
#include "completion.h"
#include "errors.h"
#include "event.h"
#include "host_memory.h"
#include "loader.h"
#include "objects.h"
#include "os_handle.h"
#include "queue.h"

#include "direct3d/direct3d.h"
#include "interop/interop.h"
#include "ipc/ipc.h"
#include "va/va.h"
#include "video/video.h"
#include "vulkan/vulkan.h"

namespace ocl {

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  env.SetInstanceData(new AddonData());
  InitErrors(env, exports);
#ifdef _WIN32
  InitDirect3D(env, exports);  // the Direct3D module: Windows only
#endif
  InitLoader(env, exports);
  InitCompletion(env, exports);
  InitPlatform(env, exports);
  InitDevice(env, exports);
  InitContext(env, exports);
  InitQueue(env, exports);
  InitMemory(env, exports);
  InitHostMemory(env, exports);
  InitOsHandle(env, exports);
  InitSampler(env, exports);
  InitProgram(env, exports);
  InitKernel(env, exports);
  InitEvent(env, exports);
  InitInterop(env, exports);
  va::InitVa(env, exports);
  InitVulkan(env, exports);
  InitVideo(env, exports);  // native/video/: Vulkan Video decode on the Vulkan module's devices
  InitIpc(env, exports);
  return exports;
}

}  // namespace ocl

static Napi::Object InitAddon(Napi::Env env, Napi::Object exports) { return ocl::Init(env, exports); }

NODE_API_MODULE(opencl_interop, InitAddon)
