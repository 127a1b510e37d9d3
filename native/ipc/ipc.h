// Exported handles between processes (twin of lib/ipc/): a Unix socket
// (SOCK_SEQPACKET) that carries file descriptors with SCM_RIGHTS. addon.cc
// calls InitIpc once per environment; nothing else includes its internals.
#pragma once

#include <napi.h>

namespace ocl {

void InitIpc(Napi::Env env, Napi::Object exports);

}  // namespace ocl
