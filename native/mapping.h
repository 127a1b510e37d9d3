// Maps and unmaps of buffers and images (mapping.cc): the map commands, the
// record each mapping's ArrayBuffer holds, the unmap of a mapping that was
// collected or dropped, and the maps in flight by address. The twin of
// lib/mapping.ts.
#pragma once

#include "queue.h"

namespace ocl {

// Registers enqueueMapBuffer, enqueueMapImage, enqueueUnmap and
// detachArrayBuffer (called by InitQueue).
void InitMapping(Napi::Env env, Napi::Object exports);

}  // namespace ocl
