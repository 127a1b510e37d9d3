// interop_d3d11.cpp - cl_khr_d3d11_sharing and cl_nv_d3d11_sharing (the same
// entry points under NV names: the cl_d3d11_ext.h OpenCV ships), plus NV12
// textures as Y/UV planes (cl_intel_d3d11_nv12_media_sharing: subresource
// 2 * slice + plane). Spec: shared/specs/cl_khr_d3d11_sharing.asciidoc.
#include "interop_internal.h"

#include <cstring>

using namespace refdrv;

namespace refdrv_interop {

const Family kKhrD3D11{Ext::KhrD3D11,
                       CL_INVALID_D3D11_RESOURCE_KHR,
                       CL_D3D11_RESOURCE_ALREADY_ACQUIRED_KHR,
                       CL_D3D11_RESOURCE_NOT_ACQUIRED_KHR,
                       CL_COMMAND_ACQUIRE_D3D11_OBJECTS_KHR,
                       CL_COMMAND_RELEASE_D3D11_OBJECTS_KHR};
const Family kNvD3D11{Ext::NvD3D11,
                      CL_INVALID_D3D11_RESOURCE_NV,
                      CL_D3D11_RESOURCE_ALREADY_ACQUIRED_NV,
                      CL_D3D11_RESOURCE_NOT_ACQUIRED_NV,
                      CL_COMMAND_ACQUIRE_D3D11_OBJECTS_NV,
                      CL_COMMAND_RELEASE_D3D11_OBJECTS_NV};

namespace {

constexpr uint32_t kD3D11_USAGE_IMMUTABLE = 1;

bool is_d3d11(Ext e) { return e == Ext::KhrD3D11 || e == Ext::NvD3D11; }

// "the D3D11 formats and corresponding OpenCL image formats" table: the same 37
// DXGI formats and CL formats as D3D10's.
bool d3d11_format(uint32_t code, cl_image_format *out) {
  for (const FmtEntry &e : kDXGIFormats) {
    if (e.code == code) {
      *out = {e.order, e.type};
      return true;
    }
  }
  return false;
}

cl_int get_devices(cl_platform_id p, cl_uint src, void *obj, cl_uint set, cl_uint n, cl_device_id *devs, cl_uint *num) {
  ApiLock L;
  cl_int rc = query_args(p, n, devs, num);
  if (rc) return rc;
  // The KHR and NV tokens have the same values.
  if ((src != CL_D3D11_DEVICE_KHR && src != CL_D3D11_DXGI_ADAPTER_KHR) ||
      (set != CL_PREFERRED_DEVICES_FOR_D3D11_KHR && set != CL_ALL_DEVICES_FOR_D3D11_KHR))
    return CL_INVALID_VALUE;
  IResource *r = res_of(obj, src == CL_D3D11_DEVICE_KHR ? ResType::D3D11Device : ResType::DXGIAdapter);
  return device_query(p, r && r->has_cl_device(), n, devs, num);
}

cl_mem create(const Family &f, cl_context ctx, cl_mem_flags flags, const void *resource, ResType want, UINT sub, cl_int *errcode_ret) {
  ApiLock L;
  cl_int rc = front_checks(ctx, flags);
  if (rc) FAIL(rc);
  IResource *r = res_of(resource, want);
  if (!r || r->usage() == kD3D11_USAGE_IMMUTABLE || r->sample_count() > 1) FAIL(f.invalid_resource);
  if (!ctx_has(ctx, f.ext) || !on_device(r, ctx->interop_dev)) FAIL(f.invalid_resource);
  SharedDesc d;
  d.ext = f.ext;
  d.res = r;
  d.handle = const_cast<void *>(resource);
  if (want == ResType::D3D11Buffer) {
    d.is_buffer = true;
    return make_shared(ctx, flags, d, errcode_ret);
  }
  if (sub >= r->num_subresources()) FAIL(CL_INVALID_VALUE);
  d.sub = sub;
  d.is_3d = want == ResType::D3D11Texture3D;
  if (r->format() == kDXGI_FORMAT_NV12 && !d.is_3d) {
    // NV12 planes: subresource 2 * slice is Y (CL_R), 2 * slice + 1 is UV (CL_RG).
    d.fmt = sub % 2 == 0 ? cl_image_format{CL_R, CL_UNORM_INT8} : cl_image_format{CL_RG, CL_UNORM_INT8};
    d.plane = sub % 2;
    d.level = 0;
  } else {
    if (!d3d11_format(r->format(), &d.fmt) || !format_supported(d.fmt)) FAIL(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    d.level = sub % r->mip_levels();
  }
  return make_shared(ctx, flags, d, errcode_ret);
}

}  // namespace

bool d3d11_mem_info(cl_mem m, cl_mem_info p, size_t sz, void *val, size_t *ret, cl_int *rc) {
  if (p != CL_MEM_D3D11_RESOURCE_KHR) return false;  // == CL_MEM_D3D11_RESOURCE_NV
  *rc = is_d3d11(m->ext) ? put(sz, val, ret, m->res_handle) : CL_INVALID_D3D11_RESOURCE_KHR;
  return true;
}

bool d3d11_image_info(cl_mem m, cl_image_info p, size_t sz, void *val, size_t *ret, cl_int *rc) {
  if (p != CL_IMAGE_D3D11_SUBRESOURCE_KHR) return false;  // == CL_IMAGE_D3D11_SUBRESOURCE_NV
  ResType t = m->res ? m->res->type() : ResType::None;
  *rc = (is_d3d11(m->ext) && t != ResType::D3D11Buffer) ? put(sz, val, ret, UINT(m->sub)) : CL_INVALID_D3D11_RESOURCE_KHR;
  return true;
}

std::string d3d11_error_name(cl_int e, Ext ext) {
  static const char *khr[] = {"CL_INVALID_D3D11_DEVICE_KHR", "CL_INVALID_D3D11_RESOURCE_KHR", "CL_D3D11_RESOURCE_ALREADY_ACQUIRED_KHR",
                              "CL_D3D11_RESOURCE_NOT_ACQUIRED_KHR"};
  static const char *nv[] = {"CL_INVALID_D3D11_DEVICE_NV", "CL_INVALID_D3D11_RESOURCE_NV", "CL_D3D11_RESOURCE_ALREADY_ACQUIRED_NV",
                             "CL_D3D11_RESOURCE_NOT_ACQUIRED_NV"};
  int i = -1006 - e;
  return ext == Ext::NvD3D11 ? nv[i] : khr[i];
}

}  // namespace refdrv_interop

using namespace refdrv_interop;

// ==================================================== cl_khr_d3d11_sharing ==
CLAPI(cl_int)
clGetDeviceIDsFromD3D11KHR(cl_platform_id p, cl_d3d11_device_source_khr src, void *obj, cl_d3d11_device_set_khr set, cl_uint n, cl_device_id *devs,
                           cl_uint *num) {
  return get_devices(p, src, obj, set, n, devs, num);
}
CLAPI(cl_mem) clCreateFromD3D11BufferKHR(cl_context ctx, cl_mem_flags flags, ID3D11Buffer *res, cl_int *errcode_ret) {
  return create(kKhrD3D11, ctx, flags, res, ResType::D3D11Buffer, 0, errcode_ret);
}
CLAPI(cl_mem) clCreateFromD3D11Texture2DKHR(cl_context ctx, cl_mem_flags flags, ID3D11Texture2D *res, UINT sub, cl_int *errcode_ret) {
  return create(kKhrD3D11, ctx, flags, res, ResType::D3D11Texture2D, sub, errcode_ret);
}
CLAPI(cl_mem) clCreateFromD3D11Texture3DKHR(cl_context ctx, cl_mem_flags flags, ID3D11Texture3D *res, UINT sub, cl_int *errcode_ret) {
  return create(kKhrD3D11, ctx, flags, res, ResType::D3D11Texture3D, sub, errcode_ret);
}
CLAPI(cl_int) clEnqueueAcquireD3D11ObjectsKHR(cl_command_queue q, cl_uint n, const cl_mem *mems, cl_uint nw, const cl_event *wl, cl_event *ev) {
  return acquire_release(kKhrD3D11, true, q, n, mems, nw, wl, ev);
}
CLAPI(cl_int) clEnqueueReleaseD3D11ObjectsKHR(cl_command_queue q, cl_uint n, const cl_mem *mems, cl_uint nw, const cl_event *wl, cl_event *ev) {
  return acquire_release(kKhrD3D11, false, q, n, mems, nw, wl, ev);
}

// ===================================================== cl_nv_d3d11_sharing ==
CLAPI(cl_int)
clGetDeviceIDsFromD3D11NV(cl_platform_id p, cl_d3d11_device_source_nv src, void *obj, cl_d3d11_device_set_nv set, cl_uint n, cl_device_id *devs,
                          cl_uint *num) {
  return get_devices(p, src, obj, set, n, devs, num);
}
CLAPI(cl_mem) clCreateFromD3D11BufferNV(cl_context ctx, cl_mem_flags flags, ID3D11Buffer *res, cl_int *errcode_ret) {
  return create(kNvD3D11, ctx, flags, res, ResType::D3D11Buffer, 0, errcode_ret);
}
CLAPI(cl_mem) clCreateFromD3D11Texture2DNV(cl_context ctx, cl_mem_flags flags, ID3D11Texture2D *res, UINT sub, cl_int *errcode_ret) {
  return create(kNvD3D11, ctx, flags, res, ResType::D3D11Texture2D, sub, errcode_ret);
}
CLAPI(cl_mem) clCreateFromD3D11Texture3DNV(cl_context ctx, cl_mem_flags flags, ID3D11Texture3D *res, UINT sub, cl_int *errcode_ret) {
  return create(kNvD3D11, ctx, flags, res, ResType::D3D11Texture3D, sub, errcode_ret);
}
CLAPI(cl_int) clEnqueueAcquireD3D11ObjectsNV(cl_command_queue q, cl_uint n, const cl_mem *mems, cl_uint nw, const cl_event *wl, cl_event *ev) {
  return acquire_release(kNvD3D11, true, q, n, mems, nw, wl, ev);
}
// cl_d3d11_ext.h declares the NV release with a non-const cl_mem*.
CLAPI(cl_int) clEnqueueReleaseD3D11ObjectsNV(cl_command_queue q, cl_uint n, cl_mem *mems, cl_uint nw, const cl_event *wl, cl_event *ev) {
  return acquire_release(kNvD3D11, false, q, n, mems, nw, wl, ev);
}

namespace refdrv_interop {
void *d3d11_extension_function(const char *name) {
#define F(fn) \
  { #fn, reinterpret_cast < void *>(&fn) }
  static const std::pair<const char *, void *> table[] = {
      F(clGetDeviceIDsFromD3D11KHR),      F(clCreateFromD3D11BufferKHR),      F(clCreateFromD3D11Texture2DKHR),  F(clCreateFromD3D11Texture3DKHR),
      F(clEnqueueAcquireD3D11ObjectsKHR), F(clEnqueueReleaseD3D11ObjectsKHR), F(clGetDeviceIDsFromD3D11NV),      F(clCreateFromD3D11BufferNV),
      F(clCreateFromD3D11Texture2DNV),    F(clCreateFromD3D11Texture3DNV),    F(clEnqueueAcquireD3D11ObjectsNV), F(clEnqueueReleaseD3D11ObjectsNV),
  };
#undef F
  for (auto &e : table)
    if (!strcmp(e.first, name)) return e.second;
  return nullptr;
}
}  // namespace refdrv_interop
