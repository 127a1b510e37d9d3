// exports.cpp - the ICD dispatch table of the reference driver.
#include "driver.h"

// Every implemented entry point is an exported extern "C" function defined in
// driver.cpp, core.cpp and the extension files. Only their addresses are needed here.
#define REFDRV_DECL_IMPL(name) extern "C" void name(void);
#define REFDRV_DECL_STUB_INT(name)
#define REFDRV_DECL_STUB_PTR(name)
#define REFDRV_DECL(name, kind) REFDRV_DECL_##kind(name)
REFDRV_DISPATCH_SLOTS(REFDRV_DECL)

namespace {
// Slots of APIs this driver does not implement (GL, D3D11, EGL, SVM, ...):
// report CL_INVALID_OPERATION or return NULL instead of crashing the caller.
extern "C" cl_int CL_API_CALL refdrv_stub_int(void) { return CL_INVALID_OPERATION; }
extern "C" void *CL_API_CALL refdrv_stub_ptr(void) { return nullptr; }

refdrv_icd_dispatch make_table() {
  refdrv_icd_dispatch d;
#define REFDRV_FILL_IMPL(name) d.name = reinterpret_cast<void *>(&::name);
#define REFDRV_FILL_STUB_INT(name) d.name = reinterpret_cast<void *>(&refdrv_stub_int);
#define REFDRV_FILL_STUB_PTR(name) d.name = reinterpret_cast<void *>(&refdrv_stub_ptr);
#define REFDRV_FILL(name, kind) REFDRV_FILL_##kind(name)
  REFDRV_DISPATCH_SLOTS(REFDRV_FILL)
  return d;
}
const refdrv_icd_dispatch g_table = make_table();

struct InitObjects {
  InitObjects() {
    refdrv::g_platform.dispatch = &g_table;
    refdrv::g_platform.kind = refdrv::Kind::Platform;
    refdrv::g_platform.refs = 1;
    refdrv::g_device.dispatch = &g_table;
    refdrv::g_device.kind = refdrv::Kind::Device;
    refdrv::g_device.refs = 1;
  }
} g_init;
}  // namespace

namespace refdrv {
const refdrv_icd_dispatch *const kDispatch = &g_table;
}
