// interop_internal.h - what interop.cpp shares with interop_d3d11.cpp: the
// per-extension error/command family, format tables, shared-object creation,
// the device query and acquire/release machinery (defined in interop.cpp).
#pragma once
#include "driver.h"

#include <string>

namespace refdrv_interop {

using refdrv::Ext;
using refdrv::IResource;

struct Family {
  refdrv::Ext ext;
  cl_int invalid_resource, already_acquired, not_acquired;
  cl_command_type acquire_cmd, release_cmd;
};

struct FmtEntry {
  uint32_t code;
  cl_channel_order order;
  cl_channel_type type;
};

struct SharedDesc {
  Ext ext;
  IResource *res;
  void *handle;
  uint32_t sub = 0, region = 0, key_plane = 0;
  uint32_t level = 0, face = 0, plane = 0;
  void *shared_handle = nullptr;
  cl_dx9_media_adapter_type_khr adapter_type = 0;
  VASurfaceID va_id = 0;
  VASurfaceID *va_surface = nullptr;
  bool is_buffer = false, is_3d = false;
  cl_image_format fmt{0, 0};
};

#define FAIL(code)                          \
  do {                                      \
    if (errcode_ret) *errcode_ret = (code); \
    return nullptr;                         \
  } while (0)

extern const FmtEntry kDXGIFormats[37];
extern const Family kKhrD3D11, kNvD3D11;  // interop_d3d11.cpp

bool ctx_has(cl_context c, refdrv::Ext e);
refdrv::IResource *res_of(const void *h, refdrv::ResType t);
bool on_device(const refdrv::IResource *r, const refdrv::IResource *dev);
cl_mem make_shared(cl_context ctx, cl_mem_flags flags, const SharedDesc &d, cl_int *errcode_ret);
cl_int front_checks(cl_context ctx, cl_mem_flags flags);
cl_int device_query(cl_platform_id p, bool found, cl_uint n, cl_device_id *devs, cl_uint *num);
cl_int query_args(cl_platform_id p, cl_uint n, cl_device_id *devs, cl_uint *num);
cl_int acquire_release(const Family &f, bool acquire, cl_command_queue q, cl_uint n, const cl_mem *mems, cl_uint nw, const cl_event *wl,
                       cl_event *ev);

// interop_d3d11.cpp: its parts of the hooks interop.cpp gives core.cpp and driver.cpp.
bool d3d11_mem_info(cl_mem m, cl_mem_info p, size_t sz, void *val, size_t *ret, cl_int *rc);
bool d3d11_image_info(cl_mem m, cl_image_info p, size_t sz, void *val, size_t *ret, cl_int *rc);
std::string d3d11_error_name(cl_int e, refdrv::Ext ext);
void *d3d11_extension_function(const char *name);

}  // namespace refdrv_interop
