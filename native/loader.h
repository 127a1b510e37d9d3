// The loaded OpenCL library (loader.cc): process-wide once loaded.
#pragma once

#include <napi.h>

#include "cl_api.h"

namespace ocl {

// The loaded library's entry points; throws a JS error when nothing is loaded.
const CoreApi& Api(Napi::Env env);
// Same, but returns nullptr instead of throwing (used by release paths).
const CoreApi* ApiOrNull();

// Registers load and loadedLibrary (addon.cc).
void InitLoader(Napi::Env env, Napi::Object exports);

}  // namespace ocl
