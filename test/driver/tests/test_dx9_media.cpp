// test_dx9_media.cpp - cl_intel_dx9_media_sharing (its spec's 4.3 and 9.13.x)
// and cl_khr_dx9_media_sharing (OpenCL 1.2 extension spec 9.10.x).
#include "harness.h"

namespace {
const uint32_t NV12 = 0x3231564E, YV12 = 0x32315659;
void *surface(void *dev, uint32_t fmt, uint32_t w, uint32_t h, void **shared = nullptr, uint32_t pool = 0) {
  void *s = nullptr, *sh = nullptr;
  CHECK_OK(rd.refdrv_d3d9_create_surface(dev, fmt, w, h, pool, shared ? 1 : 0, &s, shared ? shared : &sh));
  return s;
}
struct Env {
  void *dev;
  cl_context c;
  cl_command_queue q;
  Env(cl_context_properties key, int kind) {
    dev = d3d9_device(kind);
    c = make_ctx(key, dev);
    q = make_queue(c);
  }
  ~Env() {
    cl.clFinish(q);
    cl.clReleaseCommandQueue(q);
    cl.clReleaseContext(c);
    release_res(dev);
  }
};
cl_mem khr_create(cl_context c, cl_dx9_media_adapter_type_khr t, void *surf, void *shared, cl_uint plane, cl_int *e) {
  cl_dx9_surface_info_khr info{(IDirect3DSurface9 *)surf, shared};
  return cl.clCreateFromDX9MediaSurfaceKHR(c, CL_MEM_READ_WRITE, t, &info, plane, e);
}
void check_fmt(cl_mem m, cl_channel_order o, cl_channel_type t, size_t w, size_t h) {
  cl_image_format f;
  size_t iw, ih;
  CHECK_OK(cl.clGetImageInfo(m, CL_IMAGE_FORMAT, sizeof f, &f, nullptr));
  CHECK_OK(cl.clGetImageInfo(m, CL_IMAGE_WIDTH, sizeof iw, &iw, nullptr));
  CHECK_OK(cl.clGetImageInfo(m, CL_IMAGE_HEIGHT, sizeof ih, &ih, nullptr));
  CHECK_EQ(f.image_channel_order, o);
  CHECK_EQ(f.image_channel_data_type, t);
  CHECK_EQ(iw, w);
  CHECK_EQ(ih, h);
}
}  // namespace

// ------------------------------------------------------------------ Intel --
TEST("intel_dx9.9.13.1.get_device_ids") {
  void *d9 = d3d9_device(REFDRV_D3D9), *d9ex = d3d9_device(REFDRV_D3D9EX), *dxva = d3d9_device(REFDRV_DXVA);
  cl_uint n;
  for (cl_uint set : {CL_PREFERRED_DEVICES_FOR_DX9_INTEL, CL_ALL_DEVICES_FOR_DX9_INTEL}) {
    CHECK_OK(cl.clGetDeviceIDsFromDX9INTEL(g_plat, CL_D3D9_DEVICE_INTEL, d9, set, 0, nullptr, &n));
    CHECK_EQ(n, 1);
    CHECK_OK(cl.clGetDeviceIDsFromDX9INTEL(g_plat, CL_D3D9EX_DEVICE_INTEL, d9ex, set, 0, nullptr, &n));
    CHECK_OK(cl.clGetDeviceIDsFromDX9INTEL(g_plat, CL_DXVA_DEVICE_INTEL, dxva, set, 0, nullptr, &n));
  }
  CHECK_EQ(cl.clGetDeviceIDsFromDX9INTEL(g_plat, CL_DXVA_DEVICE_INTEL, d9, CL_ALL_DEVICES_FOR_DX9_INTEL, 0, nullptr, &n), CL_DEVICE_NOT_FOUND);
  CHECK_EQ(cl.clGetDeviceIDsFromDX9INTEL(g_plat, CL_D3D9EX_DEVICE_INTEL, d9, CL_ALL_DEVICES_FOR_DX9_INTEL, 0, nullptr, &n), CL_DEVICE_NOT_FOUND);
  CHECK_EQ(cl.clGetDeviceIDsFromDX9INTEL(g_plat, 0x4023, d9, CL_ALL_DEVICES_FOR_DX9_INTEL, 0, nullptr, &n), CL_INVALID_VALUE);
  CHECK_EQ(cl.clGetDeviceIDsFromDX9INTEL(g_plat, CL_D3D9_DEVICE_INTEL, d9, 0x4026, 0, nullptr, &n), CL_INVALID_VALUE);
  CHECK_EQ(cl.clGetDeviceIDsFromDX9INTEL(g_plat, CL_D3D9_DEVICE_INTEL, d9, CL_ALL_DEVICES_FOR_DX9_INTEL, 0, nullptr, nullptr), CL_INVALID_VALUE);
  for (auto r : {d9, d9ex, dxva}) release_res(r);
}

TEST("intel_dx9.4.3.create_context") {
  void *d9 = d3d9_device(REFDRV_D3D9), *d9ex = d3d9_device(REFDRV_D3D9EX), *dxva = d3d9_device(REFDRV_DXVA);
  cl_int e;
  cl_context c1 = make_ctx(CL_CONTEXT_D3D9_DEVICE_INTEL, d9), c2 = make_ctx(CL_CONTEXT_D3D9EX_DEVICE_INTEL, d9ex),
             c3 = make_ctx(CL_CONTEXT_DXVA_DEVICE_INTEL, dxva);
  CHECK_EQ(refcount(dxva), 2);
  CHECK(make_ctx(CL_CONTEXT_D3D9EX_DEVICE_INTEL, d9, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_DX9_DEVICE_INTEL);
  CHECK(make_ctx(CL_CONTEXT_DXVA_DEVICE_INTEL, d9ex, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_DX9_DEVICE_INTEL);
  CHECK(make_ctx(CL_CONTEXT_D3D9_DEVICE_INTEL, (void *)0x99, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_DX9_DEVICE_INTEL);
  void *d10;
  CHECK_OK(rd.refdrv_d3d10_create_device(nullptr, &d10));
  cl_context_properties p[] = {CL_CONTEXT_D3D9EX_DEVICE_INTEL, (cl_context_properties)d9ex, CL_CONTEXT_D3D10_DEVICE_KHR, (cl_context_properties)d10,
                               0};
  CHECK(cl.clCreateContext(p, 1, &g_dev, nullptr, nullptr, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_OPERATION);
  for (auto c : {c1, c2, c3}) cl.clReleaseContext(c);
  CHECK_EQ(refcount(dxva), 1);
  for (auto r : {d9, d9ex, dxva, d10}) release_res(r);
}

TEST("intel_dx9.9.13.4.create_from_surface.nv12_planes") {
  Env env(CL_CONTEXT_D3D9EX_DEVICE_INTEL, REFDRV_D3D9EX);
  void *sh;
  void *s = surface(env.dev, NV12, 64, 48, &sh);
  cl_int e;
  cl_mem y = cl.clCreateFromDX9MediaSurfaceINTEL(env.c, CL_MEM_READ_WRITE, (IDirect3DSurface9 *)s, sh, 0, &e);
  CHECK_OK(e);
  cl_mem uv = cl.clCreateFromDX9MediaSurfaceINTEL(env.c, CL_MEM_READ_WRITE, (IDirect3DSurface9 *)s, sh, 1, &e);
  CHECK_OK(e);
  check_fmt(y, CL_R, CL_UNORM_INT8, 64, 48);
  check_fmt(uv, CL_RG, CL_UNORM_INT8, 32, 24);
  CHECK(cl.clCreateFromDX9MediaSurfaceINTEL(env.c, CL_MEM_READ_WRITE, (IDirect3DSurface9 *)s, sh, 2, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_VALUE);
  CHECK_EQ(refcount(s), 3);
  auto ybytes = pattern(64 * 48, 1), uvbytes = pattern(32 * 24 * 2, 2);
  write_res(s, 0, 0, ybytes);
  write_res(s, 0, 1, uvbytes);
  cl_mem both[2] = {y, uv};
  CHECK_OK(cl.clEnqueueAcquireDX9ObjectsINTEL(env.q, 2, both, 0, nullptr, nullptr));
  CHECK(read_image(env.q, y, 64, 48, 1) == ybytes);
  CHECK(read_image(env.q, uv, 32, 24, 2) == uvbytes);
  CHECK_OK(cl.clEnqueueReleaseDX9ObjectsINTEL(env.q, 2, both, 0, nullptr, nullptr));
  CHECK_OK(cl.clFinish(env.q));
  cl.clReleaseMemObject(y);
  cl.clReleaseMemObject(uv);
  CHECK_EQ(refcount(s), 1);
  release_res(s);
}

TEST("intel_dx9.9.13.4.create_from_surface.yv12_planes_y_v_u") {
  Env env(CL_CONTEXT_D3D9_DEVICE_INTEL, REFDRV_D3D9);
  void *s = surface(env.dev, YV12, 16, 8);
  std::vector<cl_mem> ms;
  for (UINT p = 0; p < 3; p++) {
    cl_int e;
    ms.push_back(cl.clCreateFromDX9MediaSurfaceINTEL(env.c, CL_MEM_READ_WRITE, (IDirect3DSurface9 *)s, nullptr, p, &e));
    CHECK_OK(e);
  }
  check_fmt(ms[0], CL_R, CL_UNORM_INT8, 16, 8);
  check_fmt(ms[1], CL_R, CL_UNORM_INT8, 8, 4);
  check_fmt(ms[2], CL_R, CL_UNORM_INT8, 8, 4);
  // memory order of YV12 is Y, V, U; Intel: plane 1 = V, plane 2 = U
  auto v = pattern(32, 0x40), u = pattern(32, 0x80);
  write_res(s, 0, 1, v);
  write_res(s, 0, 2, u);
  CHECK_OK(cl.clEnqueueAcquireDX9ObjectsINTEL(env.q, 3, ms.data(), 0, nullptr, nullptr));
  CHECK(read_image(env.q, ms[1], 8, 4, 1) == v);
  CHECK(read_image(env.q, ms[2], 8, 4, 1) == u);
  CHECK_OK(cl.clEnqueueReleaseDX9ObjectsINTEL(env.q, 3, ms.data(), 0, nullptr, nullptr));
  CHECK_OK(cl.clFinish(env.q));
  for (auto m : ms) cl.clReleaseMemObject(m);
  release_res(s);
}

TEST("intel_dx9.9.13.4.format_table") {
  Env env(CL_CONTEXT_D3D9_DEVICE_INTEL, REFDRV_D3D9);
  struct {
    uint32_t f;
    cl_channel_order o;
    cl_channel_type t;
  } table[] = {{114, CL_R, CL_FLOAT},        {111, CL_R, CL_HALF_FLOAT},   {81, CL_R, CL_UNORM_INT16},    {28, CL_A, CL_UNORM_INT8},
               {50, CL_R, CL_UNORM_INT8},    {115, CL_RG, CL_FLOAT},       {112, CL_RG, CL_HALF_FLOAT},   {34, CL_RG, CL_UNORM_INT16},
               {51, CL_RG, CL_UNORM_INT8},   {116, CL_RGBA, CL_FLOAT},     {113, CL_RGBA, CL_HALF_FLOAT}, {36, CL_RGBA, CL_UNORM_INT16},
               {32, CL_RGBA, CL_UNORM_INT8}, {33, CL_RGBA, CL_UNORM_INT8}, {21, CL_BGRA, CL_UNORM_INT8},  {22, CL_BGRA, CL_UNORM_INT8}};
  for (auto &row : table) {
    void *s = surface(env.dev, row.f, 4, 4);
    cl_int e;
    cl_mem m = cl.clCreateFromDX9MediaSurfaceINTEL(env.c, CL_MEM_READ_WRITE, (IDirect3DSurface9 *)s, nullptr, 0, &e);
    if (e) test_fail(__FILE__, __LINE__, "D3DFMT " + std::to_string(row.f));
    check_fmt(m, row.o, row.t, 4, 4);
    CHECK(cl.clCreateFromDX9MediaSurfaceINTEL(env.c, CL_MEM_READ_WRITE, (IDirect3DSurface9 *)s, nullptr, 1, &e) == nullptr);
    CHECK_EQ(e, CL_INVALID_VALUE);  // non-planar: plane must be 0
    cl.clReleaseMemObject(m);
    release_res(s);
  }
  for (uint32_t bad : {60u /*V8U8: NV table only*/, 63u, 64u, 110u, 23u}) {
    void *s = surface(env.dev, bad, 4, 4);
    cl_int e;
    CHECK(cl.clCreateFromDX9MediaSurfaceINTEL(env.c, CL_MEM_READ_WRITE, (IDirect3DSurface9 *)s, nullptr, 0, &e) == nullptr);
    CHECK_EQ(e, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    release_res(s);
  }
}

TEST("intel_dx9.9.13.4.create_from_surface.twice_fails") {
  Env env(CL_CONTEXT_D3D9_DEVICE_INTEL, REFDRV_D3D9);
  void *s = surface(env.dev, NV12, 16, 16);
  cl_int e;
  cl_mem y = cl.clCreateFromDX9MediaSurfaceINTEL(env.c, CL_MEM_READ_WRITE, (IDirect3DSurface9 *)s, nullptr, 0, &e);
  CHECK(cl.clCreateFromDX9MediaSurfaceINTEL(env.c, CL_MEM_READ_ONLY, (IDirect3DSurface9 *)s, nullptr, 0, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_DX9_RESOURCE_INTEL);
  cl_mem uv = cl.clCreateFromDX9MediaSurfaceINTEL(env.c, CL_MEM_READ_WRITE, (IDirect3DSurface9 *)s, nullptr, 1, &e);
  CHECK_OK(e);
  cl.clReleaseMemObject(y);
  cl.clReleaseMemObject(uv);
  release_res(s);
}

TEST("intel_dx9.9.13.4.create_from_surface.errors") {
  Env env(CL_CONTEXT_D3D9_DEVICE_INTEL, REFDRV_D3D9);
  void *sys = surface(env.dev, NV12, 16, 16, nullptr, 2), *other_dev = d3d9_device(), *other = surface(other_dev, NV12, 16, 16);
  void *tex, *lvl;
  CHECK_OK(rd.refdrv_d3d9_create_texture(env.dev, 21, 8, 8, 1, 0, &tex));
  CHECK_OK(rd.refdrv_d3d9_get_surface_level(tex, 0, &lvl));
  cl_int e;
  CHECK(cl.clCreateFromDX9MediaSurfaceINTEL(env.c, CL_MEM_READ_WRITE, (IDirect3DSurface9 *)sys, nullptr, 0, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_DX9_RESOURCE_INTEL);
  CHECK(cl.clCreateFromDX9MediaSurfaceINTEL(env.c, CL_MEM_READ_WRITE, (IDirect3DSurface9 *)other, nullptr, 0, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_DX9_RESOURCE_INTEL);
  CHECK(cl.clCreateFromDX9MediaSurfaceINTEL(env.c, CL_MEM_READ_WRITE, (IDirect3DSurface9 *)lvl, nullptr, 0, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_DX9_RESOURCE_INTEL);
  CHECK(cl.clCreateFromDX9MediaSurfaceINTEL(env.c, CL_MEM_READ_WRITE, (IDirect3DSurface9 *)tex, nullptr, 0, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_DX9_RESOURCE_INTEL);
  CHECK(cl.clCreateFromDX9MediaSurfaceINTEL(env.c, CL_MEM_ALLOC_HOST_PTR, (IDirect3DSurface9 *)other, nullptr, 0, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_VALUE);
  // an NV context (same token 0x4026) is a D3D9 device context for Intel too; a KHR adapter context is not
  void *d = d3d9_device();
  cl_context kc = make_ctx(CL_CONTEXT_ADAPTER_D3D9_KHR, d);
  void *ks = surface(d, NV12, 16, 16);
  CHECK(cl.clCreateFromDX9MediaSurfaceINTEL(kc, CL_MEM_READ_WRITE, (IDirect3DSurface9 *)ks, nullptr, 0, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_DX9_RESOURCE_INTEL);
  cl.clReleaseContext(kc);
  for (auto r : {sys, other, other_dev, lvl, tex, ks, d}) release_res(r);
}

TEST("intel_dx9.9.13.5.mem_and_image_info") {
  Env env(CL_CONTEXT_D3D9EX_DEVICE_INTEL, REFDRV_D3D9EX);
  void *sh, *s = surface(env.dev, NV12, 16, 16, &sh);
  cl_int e;
  cl_mem uv = cl.clCreateFromDX9MediaSurfaceINTEL(env.c, CL_MEM_READ_WRITE, (IDirect3DSurface9 *)s, sh, 1, &e);
  cl_mem plain = image2d(env.c, CL_R, CL_UNORM_INT8, 4, 4);
  void *r;
  HANDLE h;
  UINT plane;
  CHECK_OK(cl.clGetMemObjectInfo(uv, CL_MEM_DX9_RESOURCE_INTEL, sizeof r, &r, nullptr));
  CHECK(r == s);
  CHECK_OK(cl.clGetMemObjectInfo(uv, CL_MEM_DX9_SHARED_HANDLE_INTEL, sizeof h, &h, nullptr));
  CHECK(h == sh);
  CHECK_OK(cl.clGetImageInfo(uv, CL_IMAGE_DX9_PLANE_INTEL, sizeof plane, &plane, nullptr));
  CHECK_EQ(plane, 1);
  CHECK_EQ(cl.clGetMemObjectInfo(plain, CL_MEM_DX9_RESOURCE_INTEL, sizeof r, &r, nullptr), CL_INVALID_DX9_RESOURCE_INTEL);
  CHECK_EQ(cl.clGetMemObjectInfo(plain, CL_MEM_DX9_SHARED_HANDLE_INTEL, sizeof h, &h, nullptr), CL_INVALID_DX9_RESOURCE_INTEL);
  CHECK_EQ(cl.clGetImageInfo(plain, CL_IMAGE_DX9_PLANE_INTEL, sizeof plane, &plane, nullptr), CL_INVALID_DX9_RESOURCE_INTEL);
  cl.clReleaseMemObject(uv);
  cl.clReleaseMemObject(plain);
  release_res(s);
}

TEST("intel_dx9.9.13.6.acquire_release") {
  Env env(CL_CONTEXT_DXVA_DEVICE_INTEL, REFDRV_DXVA);
  void *s = surface(env.dev, NV12, 16, 16);
  cl_int e;
  cl_mem y = cl.clCreateFromDX9MediaSurfaceINTEL(env.c, CL_MEM_READ_WRITE, (IDirect3DSurface9 *)s, nullptr, 0, &e);
  CHECK_OK(e);
  expect_use_fails(env.q, y, CL_DX9_RESOURCE_NOT_ACQUIRED_INTEL);
  CHECK_EQ(cl.clEnqueueReleaseDX9ObjectsINTEL(env.q, 1, &y, 0, nullptr, nullptr), CL_DX9_RESOURCE_NOT_ACQUIRED_INTEL);
  cl_event a, r;
  CHECK_OK(cl.clEnqueueAcquireDX9ObjectsINTEL(env.q, 1, &y, 0, nullptr, &a));
  CHECK_EQ(cl.clEnqueueAcquireDX9ObjectsINTEL(env.q, 1, &y, 0, nullptr, nullptr), CL_DX9_RESOURCE_ALREADY_ACQUIRED_INTEL);
  CHECK_OK(cl.clEnqueueReleaseDX9ObjectsINTEL(env.q, 1, &y, 0, nullptr, &r));
  CHECK_OK(cl.clWaitForEvents(1, &r));
  CHECK_EQ(event_type(a), CL_COMMAND_ACQUIRE_DX9_OBJECTS_INTEL);
  CHECK_EQ(event_type(r), CL_COMMAND_RELEASE_DX9_OBJECTS_INTEL);
  cl_mem plain = image2d(env.c, CL_R, CL_UNORM_INT8, 4, 4);
  CHECK_EQ(cl.clEnqueueAcquireDX9ObjectsINTEL(env.q, 1, &plain, 0, nullptr, nullptr), CL_INVALID_MEM_OBJECT);
  CHECK_EQ(cl.clEnqueueAcquireDX9ObjectsINTEL(env.q, 1, nullptr, 0, nullptr, nullptr), CL_INVALID_VALUE);
  cl.clReleaseEvent(a);
  cl.clReleaseEvent(r);
  cl.clReleaseMemObject(plain);
  cl.clReleaseMemObject(y);
  release_res(s);
}

// -------------------------------------------------------------------- KHR --
TEST("khr_dx9.9.10.7.1.get_device_ids.adapter_arrays") {
  void *d9 = d3d9_device(REFDRV_D3D9), *d9ex = d3d9_device(REFDRV_D3D9EX), *dxva = d3d9_device(REFDRV_DXVA);
  void *fa, *fdev;
  CHECK_OK(rd.refdrv_d3d9_create_adapter("Foreign", 0, &fa));
  CHECK_OK(rd.refdrv_d3d9_create_device(fa, REFDRV_D3D9EX, &fdev));
  cl_dx9_media_adapter_type_khr types[3] = {CL_ADAPTER_D3D9_KHR, CL_ADAPTER_D3D9EX_KHR, CL_ADAPTER_DXVA_KHR};
  void *adapters[3] = {d9, d9ex, dxva};
  cl_uint n;
  cl_device_id d;
  for (cl_uint set : {CL_PREFERRED_DEVICES_FOR_DX9_MEDIA_ADAPTER_KHR, CL_ALL_DEVICES_FOR_DX9_MEDIA_ADAPTER_KHR}) {
    CHECK_OK(cl.clGetDeviceIDsFromDX9MediaAdapterKHR(g_plat, 3, types, adapters, set, 1, &d, &n));
    CHECK(n == 1 && d == g_dev);
  }
  void *foreign[1] = {fdev};
  CHECK_EQ(cl.clGetDeviceIDsFromDX9MediaAdapterKHR(g_plat, 1, &types[1], foreign, CL_ALL_DEVICES_FOR_DX9_MEDIA_ADAPTER_KHR, 1, &d, &n),
           CL_DEVICE_NOT_FOUND);
  // An entry that is not an object of its adapter type, or NULL, is CL_INVALID_VALUE,
  // wherever it is in the array (a later NULL entry included).
  void *wrong[1] = {d9};
  CHECK_EQ(cl.clGetDeviceIDsFromDX9MediaAdapterKHR(g_plat, 1, &types[2], wrong, CL_ALL_DEVICES_FOR_DX9_MEDIA_ADAPTER_KHR, 1, &d, &n),
           CL_INVALID_VALUE);
  void *wrong_ex[1] = {d9};
  CHECK_EQ(cl.clGetDeviceIDsFromDX9MediaAdapterKHR(g_plat, 1, &types[1], wrong_ex, CL_ALL_DEVICES_FOR_DX9_MEDIA_ADAPTER_KHR, 1, &d, &n),
           CL_INVALID_VALUE);
  void *later_null[3] = {d9, d9ex, nullptr};
  CHECK_EQ(cl.clGetDeviceIDsFromDX9MediaAdapterKHR(g_plat, 3, types, later_null, CL_ALL_DEVICES_FOR_DX9_MEDIA_ADAPTER_KHR, 1, &d, &n),
           CL_INVALID_VALUE);
  void *first_null[3] = {nullptr, d9ex, dxva};
  CHECK_EQ(cl.clGetDeviceIDsFromDX9MediaAdapterKHR(g_plat, 3, types, first_null, CL_ALL_DEVICES_FOR_DX9_MEDIA_ADAPTER_KHR, 1, &d, &n),
           CL_INVALID_VALUE);
  void *not_a_device[1] = {fa};  // an adapter object, not a device
  CHECK_EQ(cl.clGetDeviceIDsFromDX9MediaAdapterKHR(g_plat, 1, &types[0], not_a_device, CL_ALL_DEVICES_FOR_DX9_MEDIA_ADAPTER_KHR, 1, &d, &n),
           CL_INVALID_VALUE);
  // A D3D9Ex device is an IDirect3DDevice9: valid as CL_ADAPTER_D3D9_KHR.
  void *ex_as_d3d9[1] = {d9ex};
  CHECK_OK(cl.clGetDeviceIDsFromDX9MediaAdapterKHR(g_plat, 1, &types[0], ex_as_d3d9, CL_ALL_DEVICES_FOR_DX9_MEDIA_ADAPTER_KHR, 1, &d, &n));
  cl_dx9_media_adapter_type_khr bad = 0x1234;
  CHECK_EQ(cl.clGetDeviceIDsFromDX9MediaAdapterKHR(g_plat, 1, &bad, adapters, CL_ALL_DEVICES_FOR_DX9_MEDIA_ADAPTER_KHR, 1, &d, &n), CL_INVALID_VALUE);
  CHECK_EQ(cl.clGetDeviceIDsFromDX9MediaAdapterKHR(g_plat, 0, types, adapters, CL_ALL_DEVICES_FOR_DX9_MEDIA_ADAPTER_KHR, 1, &d, &n),
           CL_INVALID_VALUE);
  CHECK_EQ(cl.clGetDeviceIDsFromDX9MediaAdapterKHR(g_plat, 3, types, adapters, 0x1234, 1, &d, &n), CL_INVALID_VALUE);
  CHECK_EQ(cl.clGetDeviceIDsFromDX9MediaAdapterKHR(g_plat, 3, types, adapters, CL_ALL_DEVICES_FOR_DX9_MEDIA_ADAPTER_KHR, 0, &d, &n),
           CL_INVALID_VALUE);
  for (auto r : {d9, d9ex, dxva, fdev, fa}) release_res(r);
}

TEST("khr_dx9.9.10.5.create_context") {
  void *d9 = d3d9_device(REFDRV_D3D9), *d9ex = d3d9_device(REFDRV_D3D9EX), *dxva = d3d9_device(REFDRV_DXVA);
  cl_int e;
  cl_context c1 = make_ctx(CL_CONTEXT_ADAPTER_D3D9_KHR, d9), c2 = make_ctx(CL_CONTEXT_ADAPTER_D3D9EX_KHR, d9ex),
             c3 = make_ctx(CL_CONTEXT_ADAPTER_DXVA_KHR, dxva);
  CHECK(make_ctx(CL_CONTEXT_ADAPTER_DXVA_KHR, d9, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_DX9_MEDIA_ADAPTER_KHR);
  CHECK(make_ctx(CL_CONTEXT_ADAPTER_D3D9EX_KHR, (void *)0x77, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_DX9_MEDIA_ADAPTER_KHR);
  cl_context_properties p[] = {CL_CONTEXT_ADAPTER_D3D9_KHR, (cl_context_properties)d9, CL_CONTEXT_D3D9_DEVICE_INTEL, (cl_context_properties)d9, 0};
  CHECK(cl.clCreateContext(p, 1, &g_dev, nullptr, nullptr, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_OPERATION);
  for (auto c : {c1, c2, c3}) cl.clReleaseContext(c);
  for (auto r : {d9, d9ex, dxva}) release_res(r);
}

TEST("khr_dx9.9.10.7.2.create_from_surface.nv12_planes") {
  Env env(CL_CONTEXT_ADAPTER_D3D9EX_KHR, REFDRV_D3D9EX);
  void *s = surface(env.dev, NV12, 32, 16);
  cl_int e;
  cl_mem y = khr_create(env.c, CL_ADAPTER_D3D9EX_KHR, s, nullptr, 0, &e);
  CHECK_OK(e);
  cl_mem uv = khr_create(env.c, CL_ADAPTER_D3D9EX_KHR, s, nullptr, 1, &e);
  CHECK_OK(e);
  check_fmt(y, CL_R, CL_UNORM_INT8, 32, 16);
  check_fmt(uv, CL_RG, CL_UNORM_INT8, 16, 8);
  CHECK(khr_create(env.c, CL_ADAPTER_D3D9EX_KHR, s, nullptr, 2, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_VALUE);
  CHECK(khr_create(env.c, CL_ADAPTER_D3D9EX_KHR, s, nullptr, 0, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_DX9_MEDIA_SURFACE_KHR);  // exactly one cl_mem per plane
  cl.clReleaseMemObject(y);
  cl.clReleaseMemObject(uv);
  release_res(s);
}

TEST("khr_dx9.9.10.7.2.create_from_surface.yv12_planes_y_v_u") {
  Env env(CL_CONTEXT_ADAPTER_D3D9_KHR, REFDRV_D3D9);
  void *s = surface(env.dev, YV12, 16, 8);
  std::vector<cl_mem> ms;
  for (cl_uint p = 0; p < 3; p++) {
    cl_int e;
    ms.push_back(khr_create(env.c, CL_ADAPTER_D3D9_KHR, s, nullptr, p, &e));
    CHECK_OK(e);
  }
  // memory order is Y, V, U; the current KHR text: plane 1 = V, plane 2 = U
  auto v = pattern(32, 0x40), u = pattern(32, 0x80);
  write_res(s, 0, 1, v);
  write_res(s, 0, 2, u);
  CHECK_OK(cl.clEnqueueAcquireDX9MediaSurfacesKHR(env.q, 3, ms.data(), 0, nullptr, nullptr));
  CHECK(read_image(env.q, ms[1], 8, 4, 1) == v);
  CHECK(read_image(env.q, ms[2], 8, 4, 1) == u);
  CHECK_OK(cl.clEnqueueReleaseDX9MediaSurfacesKHR(env.q, 3, ms.data(), 0, nullptr, nullptr));
  CHECK_OK(cl.clFinish(env.q));
  for (auto m : ms) cl.clReleaseMemObject(m);
  release_res(s);
}

TEST("khr_dx9.9.10.7.2.create_from_surface.shared_handle") {
  Env env(CL_CONTEXT_ADAPTER_D3D9EX_KHR, REFDRV_D3D9EX);
  void *sh, *s = surface(env.dev, 21, 8, 8, &sh);
  cl_int e;
  CHECK(khr_create(env.c, CL_ADAPTER_D3D9EX_KHR, s, (void *)0xBAD0, 0, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_DX9_MEDIA_SURFACE_KHR);
  cl_mem m = khr_create(env.c, CL_ADAPTER_D3D9EX_KHR, s, sh, 0, &e);
  CHECK_OK(e);
  check_fmt(m, CL_BGRA, CL_UNORM_INT8, 8, 8);
  cl_dx9_surface_info_khr info;
  CHECK_OK(cl.clGetMemObjectInfo(m, CL_MEM_DX9_MEDIA_SURFACE_INFO_KHR, sizeof info, &info, nullptr));
  CHECK(info.resource == s && info.shared_handle == sh);
  cl.clReleaseMemObject(m);
  release_res(s);
}

TEST("khr_dx9.9.10.7.2.create_from_surface.errors") {
  Env env(CL_CONTEXT_ADAPTER_D3D9_KHR, REFDRV_D3D9);
  void *s = surface(env.dev, NV12, 16, 16), *sys = surface(env.dev, NV12, 16, 16, nullptr, 3);
  cl_int e;
  CHECK(khr_create(env.c, CL_ADAPTER_DXVA_KHR, s, nullptr, 0, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_DX9_MEDIA_SURFACE_KHR);  // resource not associated with adapter_type
  CHECK(khr_create(env.c, 0x9999, s, nullptr, 0, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_OPERATION);  // no device supports that adapter type
  CHECK(khr_create(env.c, CL_ADAPTER_D3D9_KHR, sys, nullptr, 0, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_DX9_MEDIA_SURFACE_KHR);
  CHECK(khr_create(env.c, CL_ADAPTER_D3D9_KHR, (void *)0x1234, nullptr, 0, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_DX9_MEDIA_SURFACE_KHR);
  CHECK(cl.clCreateFromDX9MediaSurfaceKHR(env.c, CL_MEM_READ_WRITE, CL_ADAPTER_D3D9_KHR, nullptr, 0, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_DX9_MEDIA_SURFACE_KHR);
  cl_dx9_surface_info_khr info{(IDirect3DSurface9 *)s, nullptr};
  CHECK(cl.clCreateFromDX9MediaSurfaceKHR(env.c, CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY, CL_ADAPTER_D3D9_KHR, &info, 0, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_VALUE);
  void *y8 = surface(env.dev, 60 /*V8U8*/, 4, 4);
  CHECK(khr_create(env.c, CL_ADAPTER_D3D9_KHR, y8, nullptr, 0, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  for (auto r : {s, sys, y8}) release_res(r);
}

TEST("khr_dx9.9.10.7.3.mem_and_image_info") {
  Env env(CL_CONTEXT_ADAPTER_DXVA_KHR, REFDRV_DXVA);
  void *s = surface(env.dev, NV12, 16, 16);
  cl_int e;
  cl_mem uv = khr_create(env.c, CL_ADAPTER_DXVA_KHR, s, nullptr, 1, &e);
  CHECK_OK(e);
  cl_dx9_media_adapter_type_khr t;
  CHECK_OK(cl.clGetMemObjectInfo(uv, CL_MEM_DX9_MEDIA_ADAPTER_TYPE_KHR, sizeof t, &t, nullptr));
  CHECK_EQ(t, CL_ADAPTER_DXVA_KHR);
  cl_uint plane;
  CHECK_OK(cl.clGetImageInfo(uv, CL_IMAGE_DX9_MEDIA_PLANE_KHR, sizeof plane, &plane, nullptr));
  CHECK_EQ(plane, 1);
  cl_mem plain = image2d(env.c, CL_R, CL_UNORM_INT8, 4, 4);
  CHECK_EQ(cl.clGetMemObjectInfo(plain, CL_MEM_DX9_MEDIA_ADAPTER_TYPE_KHR, sizeof t, &t, nullptr), CL_INVALID_DX9_MEDIA_SURFACE_KHR);
  cl_dx9_surface_info_khr info;
  CHECK_EQ(cl.clGetMemObjectInfo(plain, CL_MEM_DX9_MEDIA_SURFACE_INFO_KHR, sizeof info, &info, nullptr), CL_INVALID_DX9_MEDIA_SURFACE_KHR);
  CHECK_EQ(cl.clGetImageInfo(plain, CL_IMAGE_DX9_MEDIA_PLANE_KHR, sizeof plane, &plane, nullptr), CL_INVALID_DX9_MEDIA_SURFACE_KHR);
  cl.clReleaseMemObject(uv);
  cl.clReleaseMemObject(plain);
  release_res(s);
}

TEST("khr_dx9.9.10.7.4.acquire_release") {
  Env env(CL_CONTEXT_ADAPTER_D3D9EX_KHR, REFDRV_D3D9EX);
  void *s = surface(env.dev, NV12, 16, 16);
  cl_int e;
  cl_mem y = khr_create(env.c, CL_ADAPTER_D3D9EX_KHR, s, nullptr, 0, &e);
  expect_use_fails(env.q, y, CL_DX9_MEDIA_SURFACE_NOT_ACQUIRED_KHR);
  CHECK_EQ(cl.clEnqueueReleaseDX9MediaSurfacesKHR(env.q, 1, &y, 0, nullptr, nullptr), CL_DX9_MEDIA_SURFACE_NOT_ACQUIRED_KHR);
  cl_event a, r;
  CHECK_OK(cl.clEnqueueAcquireDX9MediaSurfacesKHR(env.q, 1, &y, 0, nullptr, &a));
  CHECK_EQ(cl.clEnqueueAcquireDX9MediaSurfacesKHR(env.q, 1, &y, 0, nullptr, nullptr), CL_DX9_MEDIA_SURFACE_ALREADY_ACQUIRED_KHR);
  CHECK_OK(cl.clEnqueueReleaseDX9MediaSurfacesKHR(env.q, 1, &y, 0, nullptr, &r));
  CHECK_OK(cl.clWaitForEvents(1, &r));
  CHECK_EQ(event_type(a), CL_COMMAND_ACQUIRE_DX9_MEDIA_SURFACES_KHR);
  CHECK_EQ(event_type(r), CL_COMMAND_RELEASE_DX9_MEDIA_SURFACES_KHR);
  // Intel objects are not KHR media surfaces, and vice versa
  CHECK_EQ(cl.clEnqueueAcquireDX9ObjectsINTEL(env.q, 1, &y, 0, nullptr, nullptr), CL_INVALID_CONTEXT);
  cl.clReleaseEvent(a);
  cl.clReleaseEvent(r);
  cl.clReleaseMemObject(y);
  release_res(s);
}
