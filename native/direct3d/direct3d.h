// The Direct3D module (direct3d/, twin of lib/direct3d/; Windows only):
// exports.direct3d. addon.cc calls InitDirect3D on Windows builds.
#pragma once

#include <napi.h>

namespace ocl {

void InitDirect3D(Napi::Env env, Napi::Object exports);

}  // namespace ocl
