// Placeholder registration point for the sharing extensions (one file each).
#include "addon.h"

namespace ocl {
void InitExtensions(Napi::Env, Napi::Object) {}
}  // namespace ocl
