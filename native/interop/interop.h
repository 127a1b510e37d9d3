// The sharing extensions (interop/, twins of lib/interop/): one class per
// extension, registered on the addon's exports. addon.cc calls InitInterop.
#pragma once

#include <napi.h>

namespace ocl {

void InitInterop(Napi::Env env, Napi::Object exports);

}  // namespace ocl
