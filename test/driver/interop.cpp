// interop.cpp - the five sharing extensions (27 entry points) of the
// reference driver: cl_nv_d3d9_sharing, cl_khr_d3d10_sharing,
// cl_intel_dx9_media_sharing, cl_khr_dx9_media_sharing and
// cl_intel_va_api_media_sharing. Resources are reached only through
// refdrv::IResource (resources.h).
#include "driver.h"
#include "interop_internal.h"

#include <algorithm>
#include <map>
#include <tuple>

using namespace refdrv;

// Shared with interop_d3d11.cpp through interop_internal.h.
namespace refdrv_interop {

const Family kNV{Ext::NvD3D9,
                 CL_INVALID_D3D9_RESOURCE_NV,
                 CL_D3D9_RESOURCE_ALREADY_ACQUIRED_NV,
                 CL_D3D9_RESOURCE_NOT_ACQUIRED_NV,
                 CL_COMMAND_ACQUIRE_D3D9_OBJECTS_NV,
                 CL_COMMAND_RELEASE_D3D9_OBJECTS_NV};
const Family kD3D10{Ext::KhrD3D10,
                    CL_INVALID_D3D10_RESOURCE_KHR,
                    CL_D3D10_RESOURCE_ALREADY_ACQUIRED_KHR,
                    CL_D3D10_RESOURCE_NOT_ACQUIRED_KHR,
                    CL_COMMAND_ACQUIRE_D3D10_OBJECTS_KHR,
                    CL_COMMAND_RELEASE_D3D10_OBJECTS_KHR};
const Family kIntel{Ext::IntelDX9,
                    CL_INVALID_DX9_RESOURCE_INTEL,
                    CL_DX9_RESOURCE_ALREADY_ACQUIRED_INTEL,
                    CL_DX9_RESOURCE_NOT_ACQUIRED_INTEL,
                    CL_COMMAND_ACQUIRE_DX9_OBJECTS_INTEL,
                    CL_COMMAND_RELEASE_DX9_OBJECTS_INTEL};
const Family kKhrDX9{Ext::KhrDX9,
                     CL_INVALID_DX9_MEDIA_SURFACE_KHR,
                     CL_DX9_MEDIA_SURFACE_ALREADY_ACQUIRED_KHR,
                     CL_DX9_MEDIA_SURFACE_NOT_ACQUIRED_KHR,
                     CL_COMMAND_ACQUIRE_DX9_MEDIA_SURFACES_KHR,
                     CL_COMMAND_RELEASE_DX9_MEDIA_SURFACES_KHR};
const Family kVA{Ext::IntelVA,
                 CL_INVALID_VA_API_MEDIA_SURFACE_INTEL,
                 CL_VA_API_MEDIA_SURFACE_ALREADY_ACQUIRED_INTEL,
                 CL_VA_API_MEDIA_SURFACE_NOT_ACQUIRED_INTEL,
                 CL_COMMAND_ACQUIRE_VA_API_MEDIA_SURFACES_INTEL,
                 CL_COMMAND_RELEASE_VA_API_MEDIA_SURFACES_INTEL};

// cl_khr_external_memory: no error codes of its own; acquire/release misuse and use without
// acquire are CL_INVALID_OPERATION (README, "Behaviour choices").
const Family kExtMem{Ext::KhrExternalMemory,
                     CL_INVALID_MEM_OBJECT,
                     CL_INVALID_OPERATION,
                     CL_INVALID_OPERATION,
                     CL_COMMAND_ACQUIRE_EXTERNAL_MEM_OBJECTS_KHR,
                     CL_COMMAND_RELEASE_EXTERNAL_MEM_OBJECTS_KHR};

const Family &family(Ext e) {
  switch (e) {
    case Ext::KhrExternalMemory: return kExtMem;
    case Ext::NvD3D9: return kNV;
    case Ext::KhrD3D10: return kD3D10;
    case Ext::IntelDX9: return kIntel;
    case Ext::KhrDX9: return kKhrDX9;
    case Ext::KhrD3D11: return kKhrD3D11;
    case Ext::NvD3D11: return kNvD3D11;
    default: return kVA;
  }
}

// the context's interop property qualifies it for an extension
bool ctx_has(cl_context c, Ext e) {
  switch (e) {
    case Ext::NvD3D9: return c->interop_prop == CL_CONTEXT_D3D9_DEVICE_NV;
    case Ext::IntelDX9:
      return c->interop_prop == CL_CONTEXT_D3D9_DEVICE_INTEL || c->interop_prop == CL_CONTEXT_D3D9EX_DEVICE_INTEL ||
             c->interop_prop == CL_CONTEXT_DXVA_DEVICE_INTEL;
    case Ext::KhrDX9:
      return c->interop_prop == CL_CONTEXT_ADAPTER_D3D9_KHR || c->interop_prop == CL_CONTEXT_ADAPTER_D3D9EX_KHR ||
             c->interop_prop == CL_CONTEXT_ADAPTER_DXVA_KHR;
    case Ext::KhrD3D10: return c->interop_prop == CL_CONTEXT_D3D10_DEVICE_KHR;
    case Ext::IntelVA: return c->interop_prop == CL_CONTEXT_VA_API_DISPLAY_INTEL;
    case Ext::KhrD3D11:
    case Ext::NvD3D11: return c->interop_prop == CL_CONTEXT_D3D11_DEVICE_KHR;  // == _NV
    default: return false;
  }
}

IResource *res_of(const void *h, ResType t) {
  if (!h) return nullptr;
  IResource *r = resource_host().from_handle(h);
  return (r && r->type() == t) ? r : nullptr;
}

// the resource was created on the context's interop device (for a DXVA
// device: on the Direct3D 9 device it runs on)
bool on_device(const IResource *r, const IResource *dev) {
  const IResource *o = r ? r->owner() : nullptr;
  return o && dev && (o == dev || o == dev->underlying_device());
}

// exactly one cl_mem per (resource, subresource, plane)
std::map<std::tuple<const IResource *, uint32_t, uint32_t>, cl_mem> &shared_mems() {
  static auto *m = new std::map<std::tuple<const IResource *, uint32_t, uint32_t>, cl_mem>();
  return *m;
}

bool interop_flags_ok(cl_mem_flags f) { return f == CL_MEM_READ_ONLY || f == CL_MEM_WRITE_ONLY || f == CL_MEM_READ_WRITE; }

// --- format tables ---
// cl_nv_d3d9_sharing table 9.13.4.1
const FmtEntry kNvD3D9Formats[] = {
    {114, CL_R, CL_FLOAT},         {111, CL_R, CL_HALF_FLOAT},    {81, CL_R, CL_UNORM_INT16},     {28, CL_R, CL_UNORM_INT8},
    {50, CL_R, CL_UNORM_INT8},     {115, CL_RG, CL_FLOAT},        {112, CL_RG, CL_HALF_FLOAT},    {34, CL_RG, CL_UNORM_INT16},
    {64, CL_RG, CL_SNORM_INT16},   {51, CL_RG, CL_UNORM_INT8},    {60, CL_RG, CL_SNORM_INT8},     {116, CL_RGBA, CL_FLOAT},
    {113, CL_RGBA, CL_HALF_FLOAT}, {36, CL_RGBA, CL_UNORM_INT16}, {110, CL_RGBA, CL_SNORM_INT16}, {32, CL_RGBA, CL_UNORM_INT8},
    {33, CL_RGBA, CL_UNORM_INT8},  {21, CL_RGBA, CL_UNORM_INT8},  {22, CL_RGBA, CL_UNORM_INT8},   {63, CL_RGBA, CL_SNORM_INT8},
};
// cl_intel_dx9_media_sharing table 9.13.4.1 == cl_khr_dx9_media_sharing table 9.10.4
const FmtEntry kDX9MediaFormats[] = {
    {114, CL_R, CL_FLOAT},        {111, CL_R, CL_HALF_FLOAT},   {81, CL_R, CL_UNORM_INT16},    {28, CL_A, CL_UNORM_INT8},
    {50, CL_R, CL_UNORM_INT8},    {115, CL_RG, CL_FLOAT},       {112, CL_RG, CL_HALF_FLOAT},   {34, CL_RG, CL_UNORM_INT16},
    {51, CL_RG, CL_UNORM_INT8},   {116, CL_RGBA, CL_FLOAT},     {113, CL_RGBA, CL_HALF_FLOAT}, {36, CL_RGBA, CL_UNORM_INT16},
    {32, CL_RGBA, CL_UNORM_INT8}, {33, CL_RGBA, CL_UNORM_INT8}, {21, CL_BGRA, CL_UNORM_INT8},  {22, CL_BGRA, CL_UNORM_INT8},
};
// cl_khr_d3d10_sharing: the 37 DXGI formats
const FmtEntry kDXGIFormats[] = {
    {2, CL_RGBA, CL_FLOAT},          {3, CL_RGBA, CL_UNSIGNED_INT32},
    {4, CL_RGBA, CL_SIGNED_INT32},   {10, CL_RGBA, CL_HALF_FLOAT},
    {11, CL_RGBA, CL_UNORM_INT16},   {12, CL_RGBA, CL_UNSIGNED_INT16},
    {13, CL_RGBA, CL_SNORM_INT16},   {14, CL_RGBA, CL_SIGNED_INT16},
    {87, CL_BGRA, CL_UNORM_INT8},    {28, CL_RGBA, CL_UNORM_INT8},
    {30, CL_RGBA, CL_UNSIGNED_INT8}, {31, CL_RGBA, CL_SNORM_INT8},
    {32, CL_RGBA, CL_SIGNED_INT8},   {16, CL_RG, CL_FLOAT},
    {17, CL_RG, CL_UNSIGNED_INT32},  {18, CL_RG, CL_SIGNED_INT32},
    {34, CL_RG, CL_HALF_FLOAT},      {35, CL_RG, CL_UNORM_INT16},
    {36, CL_RG, CL_UNSIGNED_INT16},  {37, CL_RG, CL_SNORM_INT16},
    {38, CL_RG, CL_SIGNED_INT16},    {49, CL_RG, CL_UNORM_INT8},
    {50, CL_RG, CL_UNSIGNED_INT8},   {51, CL_RG, CL_SNORM_INT8},
    {52, CL_RG, CL_SIGNED_INT8},     {41, CL_R, CL_FLOAT},
    {42, CL_R, CL_UNSIGNED_INT32},   {43, CL_R, CL_SIGNED_INT32},
    {54, CL_R, CL_HALF_FLOAT},       {56, CL_R, CL_UNORM_INT16},
    {57, CL_R, CL_UNSIGNED_INT16},   {58, CL_R, CL_SNORM_INT16},
    {59, CL_R, CL_SIGNED_INT16},     {61, CL_R, CL_UNORM_INT8},
    {62, CL_R, CL_UNSIGNED_INT8},    {63, CL_R, CL_SNORM_INT8},
    {64, CL_R, CL_SIGNED_INT8},
};
static_assert(sizeof(kDXGIFormats) / sizeof(kDXGIFormats[0]) == 37, "the D3D10 spec lists 37 DXGI formats");

template <size_t N>
bool lookup_fmt(const FmtEntry (&t)[N], uint32_t code, cl_image_format *out) {
  for (auto &e : t)
    if (e.code == code) {
      *out = {e.order, e.type};
      return true;
    }
  return false;
}

// planar media formats (Intel and KHR): the image format of a plane, and the
// memory-order region it lives in. Returns false with *bad_plane set when the
// plane index is not valid for the format.
bool media_plane(uint32_t fmt, uint32_t plane, bool khr, cl_image_format *out, uint32_t *region, bool *bad_plane) {
  *bad_plane = false;
  if (fmt == kFmtNV12) {
    if (plane > 1) {
      *bad_plane = true;
      return false;
    }
    *out = plane == 0 ? cl_image_format{CL_R, CL_UNORM_INT8} : cl_image_format{CL_RG, CL_UNORM_INT8};
    *region = plane;
    return true;
  }
  if (fmt == kFmtYV12) {
    if (plane > 2) {
      *bad_plane = true;
      return false;
    }
    *out = {CL_R, CL_UNORM_INT8};
    // Memory order is Y, V, U; plane 1 = V, plane 2 = U for both extensions: the current
    // cl_khr_dx9_media_sharing text, and Intel's compute-runtime (one plane table for
    // both entry points). The 2011 KHR man page's U-then-V is not followed.
    (void)khr;
    *region = plane;
    return true;
  }
  if (plane != 0) {
    *bad_plane = true;
    return false;
  }
  *region = 0;
  return lookup_fmt(kDX9MediaFormats, fmt, out);
}

#define FAIL(code)                          \
  do {                                      \
    if (errcode_ret) *errcode_ret = (code); \
    return nullptr;                         \
  } while (0)

cl_mem make_shared(cl_context ctx, cl_mem_flags flags, const SharedDesc &d, cl_int *errcode_ret) {
  auto key = std::make_tuple(static_cast<const IResource *>(d.res), d.sub, d.key_plane);
  if (shared_mems().count(key)) FAIL(family(d.ext).invalid_resource);
  SubresourceView v;
  if (!d.res->view(d.sub, d.region, &v)) FAIL(CL_INVALID_VALUE);
  cl_mem m = new_mem(ctx, flags, d.is_buffer ? CL_MEM_OBJECT_BUFFER : (d.is_3d ? CL_MEM_OBJECT_IMAGE3D : CL_MEM_OBJECT_IMAGE2D));
  m->data = v.data;
  m->size = v.size;
  if (d.is_buffer) {
    m->size = v.width;
  } else {
    m->fmt = d.fmt;
    m->elem = pixel_size(d.fmt);
    m->width = v.width;
    m->height = v.height;
    m->depth = d.is_3d ? v.depth : 0;
    m->row_pitch = v.row_pitch;
    m->slice_pitch = v.slice_pitch;
  }
  m->ext = d.ext;
  m->res = d.res;
  d.res->AddRef();
  m->res_handle = d.handle;
  m->sub = d.sub;
  m->region = d.region;
  m->level = d.level;
  m->face = d.face;
  m->plane = d.plane;
  m->shared_handle = d.shared_handle;
  m->adapter_type = d.adapter_type;
  m->va_id = d.va_id;
  m->va_surface = d.va_surface;
  shared_mems()[key] = m;
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return m;
}

// common front checks of every creation function
cl_int front_checks(cl_context ctx, cl_mem_flags flags) {
  if (!valid_ctx(ctx)) return CL_INVALID_CONTEXT;
  if (!interop_flags_ok(flags)) return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

// ---------------------------------------------------------------- devices --
cl_int device_query(cl_platform_id p, bool found, cl_uint n, cl_device_id *devs, cl_uint *num) {
  if (found) {
    if (devs) devs[0] = &g_device;
    if (num) *num = 1;
    return CL_SUCCESS;
  }
  if (num) *num = 0;
  (void)p;
  return CL_DEVICE_NOT_FOUND;
}
cl_int query_args(cl_platform_id p, cl_uint n, cl_device_id *devs, cl_uint *num) {
  if (p != &g_platform) return CL_INVALID_PLATFORM;
  if ((n == 0 && devs) || (!devs && !num)) return CL_INVALID_VALUE;
  return CL_SUCCESS;
}
bool d3d9_device_ok(const void *h, bool allow9, bool allow9ex, bool allowdxva) {
  IResource *r = res_of(h, ResType::D3D9Device);
  if (!r || !r->has_cl_device()) return false;
  int k = r->device_kind();
  return (k == kD3D9 && allow9) || (k == kD3D9Ex && allow9ex) || (k == kDXVA && allowdxva);
}

// -------------------------------------------------------- acquire/release --
cl_int acquire_release(const Family &f, bool acquire, cl_command_queue q, cl_uint n, const cl_mem *mems, cl_uint nw, const cl_event *wl,
                       cl_event *ev) {
  ApiLock L;
  if (!valid_queue(q)) return CL_INVALID_COMMAND_QUEUE;
  if (n == 0 && !mems) {
    if (ev) enqueue(q, acquire ? f.acquire_cmd : f.release_cmd, 0, nullptr, {}, nullptr, ev);
    return CL_SUCCESS;
  }
  if (n == 0 || !mems) return CL_INVALID_VALUE;
  if (!ctx_has(q->ctx, f.ext)) return CL_INVALID_CONTEXT;
  std::vector<cl_mem> v;
  for (cl_uint i = 0; i < n; i++) {
    cl_mem m = mems[i];
    if (!valid_mem(m) || m->ext != f.ext) return CL_INVALID_MEM_OBJECT;
    if (m->ctx != q->ctx) return CL_INVALID_CONTEXT;
    v.push_back(m);
  }
  cl_int rc = check_wait_list(q->ctx, nw, wl);
  if (rc) return rc;
  for (cl_uint i = 0; i < n; i++) {
    bool dup = std::find(v.begin(), v.begin() + i, v[i]) != v.begin() + i;
    if (acquire && (v[i]->acquired || dup)) return f.already_acquired;
    if (!acquire && (!v[i]->acquired || dup)) return f.not_acquired;
  }
  for (auto m : v) m->acquired = acquire;
  if (acquire && !q->ctx->user_sync)
    for (auto m : v) m->res->before_acquire();
  // Contents move when the command executes (after the commands it waits
  // for): acquire copies resource -> storage, release storage -> resource.
  // Zero-copy resources (the simulation) do nothing here.
  std::function<cl_int()> work = [v, acquire]() -> cl_int {
    for (cl_mem m : v) {
      if (!acquire && (m->flags & CL_MEM_READ_ONLY)) continue;  // nothing OpenCL could have changed
      bool ok = acquire ? m->res->pull(m->sub, m->region) : m->res->push(m->sub, m->region);
      if (!ok) return CL_OUT_OF_RESOURCES;
    }
    return CL_SUCCESS;
  };
  cl_event made = enqueue(q, acquire ? f.acquire_cmd : f.release_cmd, nw, wl, v, std::move(work), ev);
  for (auto m : v) m->acquired_by = acquire ? made : nullptr;
  return CL_SUCCESS;
}

}  // namespace refdrv_interop
using namespace refdrv_interop;

// ==================================================== hooks used by core ==
namespace refdrv {

cl_int interop_context_props(cl_context c, const cl_context_properties *props) {
  if (!props) return CL_SUCCESS;
  cl_context_properties key = 0, val = 0;
  int count = 0;
  for (const cl_context_properties *p = props; *p; p += 2) {
    switch (p[0]) {
      case CL_CONTEXT_D3D9_DEVICE_NV:
      case CL_CONTEXT_D3D9EX_DEVICE_INTEL:
      case CL_CONTEXT_DXVA_DEVICE_INTEL:
      case CL_CONTEXT_ADAPTER_D3D9_KHR:
      case CL_CONTEXT_ADAPTER_D3D9EX_KHR:
      case CL_CONTEXT_ADAPTER_DXVA_KHR:
      case CL_CONTEXT_D3D10_DEVICE_KHR:
      case CL_CONTEXT_VA_API_DISPLAY_INTEL:
      case CL_CONTEXT_D3D11_DEVICE_KHR:
        if (p[1]) {
          count++;
          key = p[0];
          val = p[1];
        }
        break;
      default: break;
    }
  }
  if (count == 0) return CL_SUCCESS;
  if (count > 1) return CL_INVALID_OPERATION;
  const void *h = reinterpret_cast<const void *>(val);
  IResource *dev = nullptr;
  switch (key) {
    case CL_CONTEXT_D3D9_DEVICE_NV:  // also CL_CONTEXT_D3D9_DEVICE_INTEL
      if (!d3d9_device_ok(h, true, true, false)) return CL_INVALID_D3D9_DEVICE_NV;
      dev = res_of(h, ResType::D3D9Device);
      break;
    case CL_CONTEXT_D3D9EX_DEVICE_INTEL:
      if (!d3d9_device_ok(h, false, true, false)) return CL_INVALID_DX9_DEVICE_INTEL;
      dev = res_of(h, ResType::D3D9Device);
      break;
    case CL_CONTEXT_DXVA_DEVICE_INTEL:
      if (!d3d9_device_ok(h, false, false, true)) return CL_INVALID_DX9_DEVICE_INTEL;
      dev = res_of(h, ResType::D3D9Device);
      break;
    case CL_CONTEXT_ADAPTER_D3D9_KHR:
      if (!d3d9_device_ok(h, true, true, false)) return CL_INVALID_DX9_MEDIA_ADAPTER_KHR;
      dev = res_of(h, ResType::D3D9Device);
      break;
    case CL_CONTEXT_ADAPTER_D3D9EX_KHR:
      if (!d3d9_device_ok(h, false, true, false)) return CL_INVALID_DX9_MEDIA_ADAPTER_KHR;
      dev = res_of(h, ResType::D3D9Device);
      break;
    case CL_CONTEXT_ADAPTER_DXVA_KHR:
      if (!d3d9_device_ok(h, false, false, true)) return CL_INVALID_DX9_MEDIA_ADAPTER_KHR;
      dev = res_of(h, ResType::D3D9Device);
      break;
    case CL_CONTEXT_D3D10_DEVICE_KHR:
      dev = res_of(h, ResType::D3D10Device);
      if (!dev || !dev->has_cl_device()) return CL_INVALID_D3D10_DEVICE_KHR;
      break;
    case CL_CONTEXT_D3D11_DEVICE_KHR:  // == CL_CONTEXT_D3D11_DEVICE_NV: one token, both extensions
      dev = res_of(h, ResType::D3D11Device);
      if (!dev || !dev->has_cl_device()) return CL_INVALID_D3D11_DEVICE_KHR;
      break;
    case CL_CONTEXT_VA_API_DISPLAY_INTEL:
      dev = res_of(h, ResType::VADisplay);
      if (!dev || !dev->has_cl_device()) return CL_INVALID_VA_API_MEDIA_ADAPTER_INTEL;
      break;
  }
  c->interop_prop = key;
  c->interop_dev = dev;
  dev->AddRef();  // the specs: context creation increments the device's reference count
  return CL_SUCCESS;
}

void interop_release_context(cl_context c) {
  if (c->interop_dev) c->interop_dev->Release();
  c->interop_dev = nullptr;
}

void interop_release_mem(cl_mem m) {
  if (!m->res) return;
  auto &sm = shared_mems();
  for (auto it = sm.begin(); it != sm.end(); ++it)
    if (it->second == m) {
      sm.erase(it);
      break;
    }
  m->res->Release();
  m->res = nullptr;
}

cl_int not_acquired_error(Ext e) { return family(e).not_acquired; }

cl_int check_acquired(cl_mem m) {
  // sub-buffers of a shared buffer; images over an imported buffer too
  cl_mem t = (m->parent && (m->type == CL_MEM_OBJECT_BUFFER || m->parent->ext == Ext::KhrExternalMemory)) ? m->parent : m;
  if (t->ext != Ext::None && !t->acquired) return family(t->ext).not_acquired;
  return CL_SUCCESS;
}

bool interop_mem_info(cl_mem m, cl_mem_info p, size_t sz, void *val, size_t *ret, cl_int *rc) {
  switch (p) {
    case CL_MEM_D3D9_RESOURCE_NV:  // == CL_MEM_DX9_RESOURCE_INTEL
      *rc = (m->ext == Ext::NvD3D9 || m->ext == Ext::IntelDX9) ? put(sz, val, ret, m->res_handle) : CL_INVALID_D3D9_RESOURCE_NV;
      return true;
    case CL_MEM_DX9_SHARED_HANDLE_INTEL:
      *rc = m->ext == Ext::IntelDX9 ? put(sz, val, ret, m->shared_handle) : CL_INVALID_DX9_RESOURCE_INTEL;
      return true;
    case CL_MEM_D3D10_RESOURCE_KHR: *rc = m->ext == Ext::KhrD3D10 ? put(sz, val, ret, m->res_handle) : CL_INVALID_D3D10_RESOURCE_KHR; return true;
    case CL_MEM_DX9_MEDIA_ADAPTER_TYPE_KHR:
      *rc = m->ext == Ext::KhrDX9 ? put(sz, val, ret, m->adapter_type) : CL_INVALID_DX9_MEDIA_SURFACE_KHR;
      return true;
    case CL_MEM_DX9_MEDIA_SURFACE_INFO_KHR: {
      cl_dx9_surface_info_khr info{static_cast<IDirect3DSurface9 *>(m->res_handle), m->shared_handle};
      *rc = m->ext == Ext::KhrDX9 ? put(sz, val, ret, info) : CL_INVALID_DX9_MEDIA_SURFACE_KHR;
      return true;
    }
    case CL_MEM_VA_API_MEDIA_SURFACE_INTEL: {
      // "Returns the <surface> argument value specified when <memobj> was created."
      VASurfaceID *ptr = m->va_surface;
      *rc = m->ext == Ext::IntelVA ? put(sz, val, ret, ptr) : CL_INVALID_VA_API_MEDIA_SURFACE_INTEL;
      return true;
    }
    default: return d3d11_mem_info(m, p, sz, val, ret, rc);
  }
}

bool interop_image_info(cl_mem m, cl_image_info p, size_t sz, void *val, size_t *ret, cl_int *rc) {
  ResType t = m->res ? m->res->type() : ResType::None;
  switch (p) {
    case CL_IMAGE_D3D9_FACE_NV:
      *rc = (m->ext == Ext::NvD3D9 && t == ResType::D3D9CubeTexture) ? put(sz, val, ret, D3DCUBEMAP_FACES(m->face)) : CL_INVALID_D3D9_RESOURCE_NV;
      return true;
    case CL_IMAGE_D3D9_LEVEL_NV:
      *rc = (m->ext == Ext::NvD3D9 && (t == ResType::D3D9Texture || t == ResType::D3D9CubeTexture || t == ResType::D3D9VolumeTexture))
                ? put(sz, val, ret, UINT(m->level))
                : CL_INVALID_D3D9_RESOURCE_NV;
      return true;
    case CL_IMAGE_DX9_PLANE_INTEL: *rc = m->ext == Ext::IntelDX9 ? put(sz, val, ret, UINT(m->plane)) : CL_INVALID_DX9_RESOURCE_INTEL; return true;
    case CL_IMAGE_D3D10_SUBRESOURCE_KHR:
      *rc = (m->ext == Ext::KhrD3D10 && t != ResType::D3D10Buffer) ? put(sz, val, ret, UINT(m->sub)) : CL_INVALID_D3D10_RESOURCE_KHR;
      return true;
    case CL_IMAGE_DX9_MEDIA_PLANE_KHR:
      *rc = m->ext == Ext::KhrDX9 ? put(sz, val, ret, cl_uint(m->plane)) : CL_INVALID_DX9_MEDIA_SURFACE_KHR;
      return true;
    case CL_IMAGE_VA_API_PLANE_INTEL:
      *rc = m->ext == Ext::IntelVA ? put(sz, val, ret, cl_uint(m->plane)) : CL_INVALID_VA_API_MEDIA_SURFACE_INTEL;
      return true;
    default: return d3d11_image_info(m, p, sz, val, ret, rc);
  }
}

std::string error_name(cl_int e, Ext ext) {
  switch (e) {
    case -1002: return "CL_INVALID_D3D10_DEVICE_KHR";
    case -1003: return "CL_INVALID_D3D10_RESOURCE_KHR";
    case -1004: return "CL_D3D10_RESOURCE_ALREADY_ACQUIRED_KHR";
    case -1005: return "CL_D3D10_RESOURCE_NOT_ACQUIRED_KHR";
    case -1006:
    case -1007:
    case -1008:
    case -1009: return d3d11_error_name(e, ext);
    case -1098: return "CL_INVALID_VA_API_MEDIA_ADAPTER_INTEL";
    case -1099: return "CL_INVALID_VA_API_MEDIA_SURFACE_INTEL";
    case -1100: return "CL_VA_API_MEDIA_SURFACE_ALREADY_ACQUIRED_INTEL";
    case -1101: return "CL_VA_API_MEDIA_SURFACE_NOT_ACQUIRED_INTEL";
    case -1010:
    case -1011:
    case -1012:
    case -1013: {
      static const char *nv[] = {"CL_INVALID_D3D9_DEVICE_NV", "CL_INVALID_D3D9_RESOURCE_NV", "CL_D3D9_RESOURCE_ALREADY_ACQUIRED_NV",
                                 "CL_D3D9_RESOURCE_NOT_ACQUIRED_NV"};
      static const char *in[] = {"CL_INVALID_DX9_DEVICE_INTEL", "CL_INVALID_DX9_RESOURCE_INTEL", "CL_DX9_RESOURCE_ALREADY_ACQUIRED_INTEL",
                                 "CL_DX9_RESOURCE_NOT_ACQUIRED_INTEL"};
      static const char *kh[] = {"CL_INVALID_DX9_MEDIA_ADAPTER_KHR", "CL_INVALID_DX9_MEDIA_SURFACE_KHR", "CL_DX9_MEDIA_SURFACE_ALREADY_ACQUIRED_KHR",
                                 "CL_DX9_MEDIA_SURFACE_NOT_ACQUIRED_KHR"};
      int i = -1010 - e;
      return ext == Ext::IntelDX9 ? in[i] : ext == Ext::KhrDX9 ? kh[i] : nv[i];
    }
    case CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST: return "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST";
    case CL_INVALID_OPERATION: return "CL_INVALID_OPERATION";
    case CL_INVALID_SEMAPHORE_KHR: return "CL_INVALID_SEMAPHORE_KHR";
    default: return "error " + std::to_string(e);
  }
}

}  // namespace refdrv

// ====================================================== cl_nv_d3d9_sharing ==
CLAPI(cl_int)
clGetDeviceIDsFromD3D9NV(cl_platform_id p, cl_d3d9_device_source_nv src, void *obj, cl_d3d9_device_set_nv set, cl_uint n, cl_device_id *devs,
                         cl_uint *num) {
  ApiLock L;
  cl_int rc = query_args(p, n, devs, num);
  if (rc) return rc;
  if ((src != CL_D3D9_DEVICE_NV && src != CL_D3D9_ADAPTER_NAME_NV) || (set != CL_PREFERRED_DEVICES_FOR_D3D9_NV && set != CL_ALL_DEVICES_FOR_D3D9_NV))
    return CL_INVALID_VALUE;
  bool found = false;
  if (src == CL_D3D9_DEVICE_NV) {
    found = d3d9_device_ok(obj, true, true, false);
  } else if (obj) {
    IResource *a = resource_host().d3d9_adapter_by_name(static_cast<const char *>(obj));
    found = a && a->has_cl_device();
  }
  return device_query(p, found, n, devs, num);
}

static cl_mem nv_create(cl_context ctx, cl_mem_flags flags, const void *resource, ResType want, uint32_t face, uint32_t level, bool has_face,
                        cl_int *errcode_ret) {
  ApiLock L;
  cl_int rc = front_checks(ctx, flags);
  if (rc) FAIL(rc);
  IResource *r = res_of(resource, want);
  // (a multisampled D3D9 surface has no CPU path in Direct3D 9: treated like
  // the D3D10 spec's multisample rule)
  if (!r || r->pool() != 0 || !r->standalone() || r->sample_count() > 1) FAIL(CL_INVALID_D3D9_RESOURCE_NV);
  if (!ctx_has(ctx, Ext::NvD3D9) || !on_device(r, ctx->interop_dev)) FAIL(CL_INVALID_D3D9_RESOURCE_NV);
  if (has_face && face > 5) FAIL(CL_INVALID_VALUE);
  if (level >= r->mip_levels()) FAIL(CL_INVALID_VALUE);
  SharedDesc d;
  d.ext = Ext::NvD3D9;
  d.res = r;
  d.handle = const_cast<void *>(resource);
  d.level = level;
  d.face = face;
  d.sub = (want == ResType::D3D9CubeTexture) ? face * r->mip_levels() + level : level;
  if (want == ResType::D3D9VertexBuffer || want == ResType::D3D9IndexBuffer) {
    d.is_buffer = true;
  } else {
    if (!lookup_fmt(kNvD3D9Formats, r->format(), &d.fmt)) FAIL(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    d.is_3d = want == ResType::D3D9VolumeTexture;
  }
  return make_shared(ctx, flags, d, errcode_ret);
}

CLAPI(cl_mem) clCreateFromD3D9VertexBufferNV(cl_context ctx, cl_mem_flags flags, IDirect3DVertexBuffer9 *res, cl_int *errcode_ret) {
  return nv_create(ctx, flags, res, ResType::D3D9VertexBuffer, 0, 0, false, errcode_ret);
}
CLAPI(cl_mem) clCreateFromD3D9IndexBufferNV(cl_context ctx, cl_mem_flags flags, IDirect3DIndexBuffer9 *res, cl_int *errcode_ret) {
  return nv_create(ctx, flags, res, ResType::D3D9IndexBuffer, 0, 0, false, errcode_ret);
}
CLAPI(cl_mem) clCreateFromD3D9SurfaceNV(cl_context ctx, cl_mem_flags flags, IDirect3DSurface9 *res, cl_int *errcode_ret) {
  return nv_create(ctx, flags, res, ResType::D3D9Surface, 0, 0, false, errcode_ret);
}
CLAPI(cl_mem) clCreateFromD3D9TextureNV(cl_context ctx, cl_mem_flags flags, IDirect3DTexture9 *res, UINT level, cl_int *errcode_ret) {
  return nv_create(ctx, flags, res, ResType::D3D9Texture, 0, level, false, errcode_ret);
}
CLAPI(cl_mem)
clCreateFromD3D9CubeTextureNV(cl_context ctx, cl_mem_flags flags, IDirect3DCubeTexture9 *res, D3DCUBEMAP_FACES face, UINT level,
                              cl_int *errcode_ret) {
  return nv_create(ctx, flags, res, ResType::D3D9CubeTexture, face, level, true, errcode_ret);
}
CLAPI(cl_mem) clCreateFromD3D9VolumeTextureNV(cl_context ctx, cl_mem_flags flags, IDirect3DVolumeTexture9 *res, UINT level, cl_int *errcode_ret) {
  return nv_create(ctx, flags, res, ResType::D3D9VolumeTexture, 0, level, false, errcode_ret);
}
CLAPI(cl_int) clEnqueueAcquireD3D9ObjectsNV(cl_command_queue q, cl_uint n, const cl_mem *mems, cl_uint nw, const cl_event *wl, cl_event *ev) {
  return acquire_release(kNV, true, q, n, mems, nw, wl, ev);
}
CLAPI(cl_int) clEnqueueReleaseD3D9ObjectsNV(cl_command_queue q, cl_uint n, cl_mem *mems, cl_uint nw, const cl_event *wl, cl_event *ev) {
  return acquire_release(kNV, false, q, n, mems, nw, wl, ev);
}

// ==================================================== cl_khr_d3d10_sharing ==
CLAPI(cl_int)
clGetDeviceIDsFromD3D10KHR(cl_platform_id p, cl_d3d10_device_source_khr src, void *obj, cl_d3d10_device_set_khr set, cl_uint n, cl_device_id *devs,
                           cl_uint *num) {
  ApiLock L;
  cl_int rc = query_args(p, n, devs, num);
  if (rc) return rc;
  if ((src != CL_D3D10_DEVICE_KHR && src != CL_D3D10_DXGI_ADAPTER_KHR) ||
      (set != CL_PREFERRED_DEVICES_FOR_D3D10_KHR && set != CL_ALL_DEVICES_FOR_D3D10_KHR))
    return CL_INVALID_VALUE;
  IResource *r = res_of(obj, src == CL_D3D10_DEVICE_KHR ? ResType::D3D10Device : ResType::DXGIAdapter);
  return device_query(p, r && r->has_cl_device(), n, devs, num);
}

static cl_mem d3d10_create(cl_context ctx, cl_mem_flags flags, const void *resource, ResType want, UINT sub, cl_int *errcode_ret) {
  ApiLock L;
  cl_int rc = front_checks(ctx, flags);
  if (rc) FAIL(rc);
  IResource *r = res_of(resource, want);
  if (!r || r->usage() == 1 /* D3D10_USAGE_IMMUTABLE */ || r->sample_count() > 1) FAIL(CL_INVALID_D3D10_RESOURCE_KHR);
  if (!ctx_has(ctx, Ext::KhrD3D10) || !on_device(r, ctx->interop_dev)) FAIL(CL_INVALID_D3D10_RESOURCE_KHR);
  SharedDesc d;
  d.ext = Ext::KhrD3D10;
  d.res = r;
  d.handle = const_cast<void *>(resource);
  if (want == ResType::D3D10Buffer) {
    d.is_buffer = true;
  } else {
    if (sub >= r->num_subresources()) FAIL(CL_INVALID_VALUE);
    if (!lookup_fmt(kDXGIFormats, r->format(), &d.fmt) || !format_supported(d.fmt)) FAIL(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    d.sub = sub;
    d.level = sub % r->mip_levels();
    d.is_3d = want == ResType::D3D10Texture3D;
  }
  return make_shared(ctx, flags, d, errcode_ret);
}

CLAPI(cl_mem) clCreateFromD3D10BufferKHR(cl_context ctx, cl_mem_flags flags, ID3D10Buffer *res, cl_int *errcode_ret) {
  return d3d10_create(ctx, flags, res, ResType::D3D10Buffer, 0, errcode_ret);
}
CLAPI(cl_mem) clCreateFromD3D10Texture2DKHR(cl_context ctx, cl_mem_flags flags, ID3D10Texture2D *res, UINT sub, cl_int *errcode_ret) {
  return d3d10_create(ctx, flags, res, ResType::D3D10Texture2D, sub, errcode_ret);
}
CLAPI(cl_mem) clCreateFromD3D10Texture3DKHR(cl_context ctx, cl_mem_flags flags, ID3D10Texture3D *res, UINT sub, cl_int *errcode_ret) {
  return d3d10_create(ctx, flags, res, ResType::D3D10Texture3D, sub, errcode_ret);
}
CLAPI(cl_int) clEnqueueAcquireD3D10ObjectsKHR(cl_command_queue q, cl_uint n, const cl_mem *mems, cl_uint nw, const cl_event *wl, cl_event *ev) {
  return acquire_release(kD3D10, true, q, n, mems, nw, wl, ev);
}
CLAPI(cl_int) clEnqueueReleaseD3D10ObjectsKHR(cl_command_queue q, cl_uint n, const cl_mem *mems, cl_uint nw, const cl_event *wl, cl_event *ev) {
  return acquire_release(kD3D10, false, q, n, mems, nw, wl, ev);
}

// ============================================== cl_intel_dx9_media_sharing ==
CLAPI(cl_int)
clGetDeviceIDsFromDX9INTEL(cl_platform_id p, cl_dx9_device_source_intel src, void *obj, cl_dx9_device_set_intel set, cl_uint n, cl_device_id *devs,
                           cl_uint *num) {
  ApiLock L;
  cl_int rc = query_args(p, n, devs, num);
  if (rc) return rc;
  if ((src != CL_D3D9_DEVICE_INTEL && src != CL_D3D9EX_DEVICE_INTEL && src != CL_DXVA_DEVICE_INTEL) ||
      (set != CL_PREFERRED_DEVICES_FOR_DX9_INTEL && set != CL_ALL_DEVICES_FOR_DX9_INTEL))
    return CL_INVALID_VALUE;
  bool found = src == CL_D3D9_DEVICE_INTEL     ? d3d9_device_ok(obj, true, true, false)
               : src == CL_D3D9EX_DEVICE_INTEL ? d3d9_device_ok(obj, false, true, false)
                                               : d3d9_device_ok(obj, false, false, true);
  return device_query(p, found, n, devs, num);
}

static cl_mem media_create(Ext ext, cl_context ctx, cl_mem_flags flags, const void *resource, void *shared, cl_uint plane,
                           cl_dx9_media_adapter_type_khr atype, cl_int *errcode_ret) {
  const Family &f = family(ext);
  IResource *r = res_of(resource, ResType::D3D9Surface);
  if (!r || r->pool() != 0 || !r->standalone() || r->sample_count() > 1) FAIL(f.invalid_resource);
  if (ext == Ext::KhrDX9 && !r->valid_shared_handle(shared)) FAIL(f.invalid_resource);
  if (!ctx_has(ctx, ext) || !on_device(r, ctx->interop_dev)) FAIL(f.invalid_resource);
  if (ext == Ext::KhrDX9) {
    // the resource must belong to an adapter of adapter_type
    int k = ctx->interop_dev->device_kind();
    bool ok = (atype == CL_ADAPTER_D3D9_KHR && (k == kD3D9 || k == kD3D9Ex)) || (atype == CL_ADAPTER_D3D9EX_KHR && k == kD3D9Ex) ||
              (atype == CL_ADAPTER_DXVA_KHR && k == kDXVA);
    if (!ok) FAIL(f.invalid_resource);
  }
  SharedDesc d;
  d.ext = ext;
  d.res = r;
  d.handle = const_cast<void *>(resource);
  d.plane = plane;
  d.key_plane = plane;
  d.shared_handle = shared;
  d.adapter_type = atype;
  bool bad_plane;
  if (!media_plane(r->format(), plane, ext == Ext::KhrDX9, &d.fmt, &d.region, &bad_plane))
    FAIL(bad_plane ? CL_INVALID_VALUE : CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  return make_shared(ctx, flags, d, errcode_ret);
}

CLAPI(cl_mem)
clCreateFromDX9MediaSurfaceINTEL(cl_context ctx, cl_mem_flags flags, IDirect3DSurface9 *res, HANDLE shared, UINT plane, cl_int *errcode_ret) {
  ApiLock L;
  cl_int rc = front_checks(ctx, flags);
  if (rc) FAIL(rc);
  return media_create(Ext::IntelDX9, ctx, flags, res, shared, plane, 0, errcode_ret);
}
CLAPI(cl_int) clEnqueueAcquireDX9ObjectsINTEL(cl_command_queue q, cl_uint n, const cl_mem *mems, cl_uint nw, const cl_event *wl, cl_event *ev) {
  return acquire_release(kIntel, true, q, n, mems, nw, wl, ev);
}
CLAPI(cl_int) clEnqueueReleaseDX9ObjectsINTEL(cl_command_queue q, cl_uint n, cl_mem *mems, cl_uint nw, const cl_event *wl, cl_event *ev) {
  return acquire_release(kIntel, false, q, n, mems, nw, wl, ev);
}

// ================================================ cl_khr_dx9_media_sharing ==
CLAPI(cl_int)
clGetDeviceIDsFromDX9MediaAdapterKHR(cl_platform_id p, cl_uint nadapters, cl_dx9_media_adapter_type_khr *types, void *adapters,
                                     cl_dx9_media_adapter_set_khr set, cl_uint n, cl_device_id *devs, cl_uint *num) {
  ApiLock L;
  cl_int rc = query_args(p, n, devs, num);
  if (rc) return rc;
  if (nadapters == 0 || !types || !adapters) return CL_INVALID_VALUE;
  if (set != CL_PREFERRED_DEVICES_FOR_DX9_MEDIA_ADAPTER_KHR && set != CL_ALL_DEVICES_FOR_DX9_MEDIA_ADAPTER_KHR) return CL_INVALID_VALUE;
  void **list = static_cast<void **>(adapters);
  bool found = false;
  // Every entry is checked: "CL_INVALID_VALUE if any of the entries in
  // media_adapters_type or media_adapters is not a valid value" - an adapter that is
  // NULL or not an object of its media_adapter_type, wherever it is in the array.
  for (cl_uint i = 0; i < nadapters; i++) {
    IResource *r = res_of(list[i], ResType::D3D9Device);
    int k = r ? r->device_kind() : -1;
    bool of_type;
    switch (types[i]) {
      case CL_ADAPTER_D3D9_KHR: of_type = k == kD3D9 || k == kD3D9Ex; break;  // an IDirect3DDevice9Ex is one too
      case CL_ADAPTER_D3D9EX_KHR: of_type = k == kD3D9Ex; break;
      case CL_ADAPTER_DXVA_KHR: of_type = k == kDXVA; break;
      default: return CL_INVALID_VALUE;
    }
    if (!of_type) return CL_INVALID_VALUE;
    found |= r->has_cl_device();
  }
  return device_query(p, found, n, devs, num);
}

CLAPI(cl_mem)
clCreateFromDX9MediaSurfaceKHR(cl_context ctx, cl_mem_flags flags, cl_dx9_media_adapter_type_khr atype, void *surface_info, cl_uint plane,
                               cl_int *errcode_ret) {
  ApiLock L;
  cl_int rc = front_checks(ctx, flags);
  if (rc) FAIL(rc);
  if (atype != CL_ADAPTER_D3D9_KHR && atype != CL_ADAPTER_D3D9EX_KHR && atype != CL_ADAPTER_DXVA_KHR)
    FAIL(CL_INVALID_OPERATION);  // no device in the context supports this adapter type
  if (!surface_info) FAIL(CL_INVALID_DX9_MEDIA_SURFACE_KHR);
  auto *info = static_cast<cl_dx9_surface_info_khr *>(surface_info);
  return media_create(Ext::KhrDX9, ctx, flags, info->resource, info->shared_handle, plane, atype, errcode_ret);
}
CLAPI(cl_int) clEnqueueAcquireDX9MediaSurfacesKHR(cl_command_queue q, cl_uint n, const cl_mem *mems, cl_uint nw, const cl_event *wl, cl_event *ev) {
  return acquire_release(kKhrDX9, true, q, n, mems, nw, wl, ev);
}
CLAPI(cl_int) clEnqueueReleaseDX9MediaSurfacesKHR(cl_command_queue q, cl_uint n, const cl_mem *mems, cl_uint nw, const cl_event *wl, cl_event *ev) {
  return acquire_release(kKhrDX9, false, q, n, mems, nw, wl, ev);
}

// =========================================== cl_intel_va_api_media_sharing ==
CLAPI(cl_int)
clGetDeviceIDsFromVA_APIMediaAdapterINTEL(cl_platform_id p, cl_va_api_device_source_intel src, void *obj, cl_va_api_device_set_intel set, cl_uint n,
                                          cl_device_id *devs, cl_uint *num) {
  ApiLock L;
  cl_int rc = query_args(p, n, devs, num);
  if (rc) return rc;
  if (src != CL_VA_API_DISPLAY_INTEL || (set != CL_PREFERRED_DEVICES_FOR_VA_API_INTEL && set != CL_ALL_DEVICES_FOR_VA_API_INTEL))
    return CL_INVALID_VALUE;
  IResource *d = res_of(obj, ResType::VADisplay);
  return device_query(p, d && d->has_cl_device(), n, devs, num);
}

CLAPI(cl_mem) clCreateFromVA_APIMediaSurfaceINTEL(cl_context ctx, cl_mem_flags flags, VASurfaceID *surface, cl_uint plane, cl_int *errcode_ret) {
  ApiLock L;
  cl_int rc = front_checks(ctx, flags);
  if (rc) FAIL(rc);
  if (!surface || !ctx_has(ctx, Ext::IntelVA)) FAIL(CL_INVALID_VA_API_MEDIA_SURFACE_INTEL);
  IResource *r = resource_host().va_surface(ctx->interop_dev, *surface);
  if (!r) FAIL(CL_INVALID_VA_API_MEDIA_SURFACE_INTEL);
  SharedDesc d;
  d.ext = Ext::IntelVA;
  d.res = r;
  d.handle = nullptr;
  d.plane = plane;
  d.key_plane = plane;
  d.va_id = *surface;
  d.va_surface = surface;
  // Table 9.X.4.1 lists NV12 only (a real VA surface may be of any format).
  if (r->format() != kFmtNV12) FAIL(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  bool bad_plane;
  if (!media_plane(r->format(), plane, false, &d.fmt, &d.region, &bad_plane)) FAIL(bad_plane ? CL_INVALID_VALUE : CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  return make_shared(ctx, flags, d, errcode_ret);
}
CLAPI(cl_int)
clEnqueueAcquireVA_APIMediaSurfacesINTEL(cl_command_queue q, cl_uint n, const cl_mem *mems, cl_uint nw, const cl_event *wl, cl_event *ev) {
  return acquire_release(kVA, true, q, n, mems, nw, wl, ev);
}
CLAPI(cl_int)
clEnqueueReleaseVA_APIMediaSurfacesINTEL(cl_command_queue q, cl_uint n, const cl_mem *mems, cl_uint nw, const cl_event *wl, cl_event *ev) {
  return acquire_release(kVA, false, q, n, mems, nw, wl, ev);
}

// ============================================== extension function table ==
namespace refdrv {
void *extension_function(const char *name) {
  if (!name) return nullptr;
#define F(fn) \
  { #fn, reinterpret_cast < void *>(&fn) }
  static const std::pair<const char *, void *> table[] = {
      F(clIcdGetPlatformIDsKHR),
      F(clGetDeviceIDsFromD3D9NV),
      F(clCreateFromD3D9VertexBufferNV),
      F(clCreateFromD3D9IndexBufferNV),
      F(clCreateFromD3D9SurfaceNV),
      F(clCreateFromD3D9TextureNV),
      F(clCreateFromD3D9CubeTextureNV),
      F(clCreateFromD3D9VolumeTextureNV),
      F(clEnqueueAcquireD3D9ObjectsNV),
      F(clEnqueueReleaseD3D9ObjectsNV),
      F(clGetDeviceIDsFromD3D10KHR),
      F(clCreateFromD3D10BufferKHR),
      F(clCreateFromD3D10Texture2DKHR),
      F(clCreateFromD3D10Texture3DKHR),
      F(clEnqueueAcquireD3D10ObjectsKHR),
      F(clEnqueueReleaseD3D10ObjectsKHR),
      F(clGetDeviceIDsFromDX9INTEL),
      F(clCreateFromDX9MediaSurfaceINTEL),
      F(clEnqueueAcquireDX9ObjectsINTEL),
      F(clEnqueueReleaseDX9ObjectsINTEL),
      F(clGetDeviceIDsFromDX9MediaAdapterKHR),
      F(clCreateFromDX9MediaSurfaceKHR),
      F(clEnqueueAcquireDX9MediaSurfacesKHR),
      F(clEnqueueReleaseDX9MediaSurfacesKHR),
      F(clGetDeviceIDsFromVA_APIMediaAdapterINTEL),
      F(clCreateFromVA_APIMediaSurfaceINTEL),
      F(clEnqueueAcquireVA_APIMediaSurfacesINTEL),
      F(clEnqueueReleaseVA_APIMediaSurfacesINTEL),
  };
#undef F
  for (auto &e : table)
    if (!strcmp(e.first, name)) return e.second;
  if (void *f = d3d11_extension_function(name)) return f;
  return external_extension_function(name);
}
}  // namespace refdrv

CLAPI(void *) clGetExtensionFunctionAddress(const char *name) { return extension_function(name); }
CLAPI(void *) clGetExtensionFunctionAddressForPlatform(cl_platform_id p, const char *name) {
  if (p != &g_platform) return nullptr;
  return extension_function(name);
}
