// The VA module (va/, twin of lib/va/): libva loaded at run time, displays
// and surfaces. addon.cc calls InitVa.
#pragma once

#include <napi.h>

namespace ocl {
namespace va {

void InitVa(Napi::Env env, Napi::Object exports);

}  // namespace va
}  // namespace ocl
