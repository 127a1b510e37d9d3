// The loaded OpenCL library (loader.cc): process-wide once loaded.
#pragma once

#include <napi.h>

#include "cl_api.h"

namespace ocl {

// The loaded library's entry points; throws a JS error when nothing is loaded.
const CoreApi& Api(Napi::Env env);
// Same, but returns nullptr instead of throwing (used by release paths).
const CoreApi* ApiOrNull();

// Once lib/native-addon.ts has called leaveReleasesToProcessEnd() from the
// main thread's 'exit' event, the process ends next and its end returns every
// object to the drivers: releases and destroys are left to it from then on.
// Under load NVIDIA's took seconds each, and a process that ended with its
// objects alive stayed tens of seconds to minutes after its script.
bool ProcessEnding();
// ApiOrNull(), or nullptr once the process is ending: for the release of an
// object the process's end returns.
const CoreApi* ReleaseApiOrNull();

// Registers load, loadedLibrary and leaveReleasesToProcessEnd (addon.cc).
void InitLoader(Napi::Env env, Napi::Object exports);

}  // namespace ocl
