// test_nv_d3d9.cpp - cl_nv_d3d9_sharing, one test per spec rule (sections of
// the extension spec: 4.3 context creation, 9.13.x sharing).
#include "harness.h"

namespace {
const uint32_t A8R8G8B8 = 21;
struct Env {
  void *dev;
  cl_context c;
  cl_command_queue q;
  Env() {
    dev = d3d9_device();
    c = make_ctx(CL_CONTEXT_D3D9_DEVICE_NV, dev);
    q = make_queue(c);
  }
  ~Env() {
    cl.clFinish(q);
    cl.clReleaseCommandQueue(q);
    cl.clReleaseContext(c);
    release_res(dev);
  }
};
void *surface(void *dev, uint32_t fmt = A8R8G8B8, uint32_t w = 8, uint32_t h = 4, uint32_t pool = 0) {
  void *s = nullptr;
  CHECK_OK(rd.refdrv_d3d9_create_surface(dev, fmt, w, h, pool, 0, &s, nullptr));
  return s;
}
}  // namespace

TEST("nv_d3d9.9.13.1.get_device_ids.from_device") {
  void *dev = d3d9_device();
  for (cl_uint set : {CL_PREFERRED_DEVICES_FOR_D3D9_NV, CL_ALL_DEVICES_FOR_D3D9_NV}) {
    cl_uint n = 0;
    CHECK_OK(cl.clGetDeviceIDsFromD3D9NV(g_plat, CL_D3D9_DEVICE_NV, dev, set, 0, nullptr, &n));
    CHECK_EQ(n, 1);
    cl_device_id d = nullptr;
    CHECK_OK(cl.clGetDeviceIDsFromD3D9NV(g_plat, CL_D3D9_DEVICE_NV, dev, set, 1, &d, nullptr));
    CHECK(d == g_dev);
  }
  release_res(dev);
}

TEST("nv_d3d9.9.13.1.get_device_ids.from_adapter_name") {
  void *a = nullptr;
  CHECK_OK(rd.refdrv_d3d9_create_adapter("Test Adapter 1", 1, &a));
  cl_uint n = 0;
  CHECK_OK(cl.clGetDeviceIDsFromD3D9NV(g_plat, CL_D3D9_ADAPTER_NAME_NV, (void *)"Test Adapter 1", CL_PREFERRED_DEVICES_FOR_D3D9_NV, 0, nullptr, &n));
  CHECK_EQ(n, 1);
  CHECK_OK(cl.clGetDeviceIDsFromD3D9NV(g_plat, CL_D3D9_ADAPTER_NAME_NV, (void *)"opencl-interop reference adapter", CL_ALL_DEVICES_FOR_D3D9_NV, 0,
                                       nullptr, &n));
  CHECK_EQ(cl.clGetDeviceIDsFromD3D9NV(g_plat, CL_D3D9_ADAPTER_NAME_NV, (void *)"No Such Adapter", CL_ALL_DEVICES_FOR_D3D9_NV, 0, nullptr, &n),
           CL_DEVICE_NOT_FOUND);
  release_res(a);
}

TEST("nv_d3d9.9.13.1.get_device_ids.not_found") {
  void *a = nullptr, *dev = nullptr;
  CHECK_OK(rd.refdrv_d3d9_create_adapter("Foreign GPU", 0, &a));
  CHECK_OK(rd.refdrv_d3d9_create_device(a, REFDRV_D3D9, &dev));
  cl_uint n = 7;
  CHECK_EQ(cl.clGetDeviceIDsFromD3D9NV(g_plat, CL_D3D9_DEVICE_NV, dev, CL_ALL_DEVICES_FOR_D3D9_NV, 0, nullptr, &n), CL_DEVICE_NOT_FOUND);
  CHECK_EQ(n, 0);
  CHECK_EQ(cl.clGetDeviceIDsFromD3D9NV(g_plat, CL_D3D9_ADAPTER_NAME_NV, (void *)"Foreign GPU", CL_ALL_DEVICES_FOR_D3D9_NV, 0, nullptr, &n),
           CL_DEVICE_NOT_FOUND);
  release_res(dev);
  release_res(a);
}

TEST("nv_d3d9.9.13.1.get_device_ids.invalid_args") {
  void *dev = d3d9_device();
  cl_uint n;
  cl_device_id d;
  CHECK_EQ(cl.clGetDeviceIDsFromD3D9NV(g_plat, 0x1234, dev, CL_ALL_DEVICES_FOR_D3D9_NV, 0, nullptr, &n), CL_INVALID_VALUE);
  CHECK_EQ(cl.clGetDeviceIDsFromD3D9NV(g_plat, CL_D3D9_DEVICE_NV, dev, 0x1234, 0, nullptr, &n), CL_INVALID_VALUE);
  CHECK_EQ(cl.clGetDeviceIDsFromD3D9NV(g_plat, CL_D3D9_DEVICE_NV, dev, CL_ALL_DEVICES_FOR_D3D9_NV, 0, &d, &n), CL_INVALID_VALUE);
  CHECK_EQ(cl.clGetDeviceIDsFromD3D9NV(g_plat, CL_D3D9_DEVICE_NV, dev, CL_ALL_DEVICES_FOR_D3D9_NV, 1, nullptr, nullptr), CL_INVALID_VALUE);
  if (g_direct) {
    CHECK_EQ(cl.clGetDeviceIDsFromD3D9NV((cl_platform_id)dev, CL_D3D9_DEVICE_NV, dev, CL_ALL_DEVICES_FOR_D3D9_NV, 0, nullptr, &n),
             CL_INVALID_PLATFORM);
  }
  release_res(dev);
}

TEST("nv_d3d9.4.3.create_context.invalid_device") {
  cl_int e;
  CHECK(make_ctx(CL_CONTEXT_D3D9_DEVICE_NV, (void *)0x4242, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_D3D9_DEVICE_NV);
  void *a, *dev;
  CHECK_OK(rd.refdrv_d3d9_create_adapter("Foreign GPU", 0, &a));
  CHECK_OK(rd.refdrv_d3d9_create_device(a, REFDRV_D3D9, &dev));
  CHECK(make_ctx(CL_CONTEXT_D3D9_DEVICE_NV, dev, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_D3D9_DEVICE_NV);
  void *d10;
  CHECK_OK(rd.refdrv_d3d10_create_device(nullptr, &d10));
  CHECK(make_ctx(CL_CONTEXT_D3D9_DEVICE_NV, d10, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_D3D9_DEVICE_NV);
  cl_context c = make_ctx(CL_CONTEXT_D3D9_DEVICE_NV, nullptr);  // NULL: the default, no interop
  cl.clReleaseContext(c);
  for (auto r : {dev, a, d10}) release_res(r);
}

TEST("nv_d3d9.4.3.create_context.two_apis_fails") {
  void *dev = d3d9_device(), *va;
  CHECK_OK(rd.refdrv_va_create_display(1, &va));
  cl_context_properties p[] = {CL_CONTEXT_PLATFORM,
                               (cl_context_properties)g_plat,
                               CL_CONTEXT_D3D9_DEVICE_NV,
                               (cl_context_properties)dev,
                               CL_CONTEXT_VA_API_DISPLAY_INTEL,
                               (cl_context_properties)va,
                               0};
  cl_int e;
  CHECK(cl.clCreateContext(p, 1, &g_dev, nullptr, nullptr, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_OPERATION);
  CHECK(cl.clCreateContextFromType(p, CL_DEVICE_TYPE_GPU, nullptr, nullptr, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_OPERATION);
  release_res(dev);
  release_res(va);
}

TEST("nv_d3d9.9.13.2.context_holds_device_reference") {
  void *dev = d3d9_device();
  CHECK_EQ(refcount(dev), 1);
  cl_context c = make_ctx(CL_CONTEXT_D3D9_DEVICE_NV, dev);
  CHECK_EQ(refcount(dev), 2);
  cl.clReleaseContext(c);
  CHECK_EQ(refcount(dev), 1);
  release_res(dev);
}

TEST("nv_d3d9.9.13.3.create_from_vertex_buffer") {
  Env env;
  void *vb;
  CHECK_OK(rd.refdrv_d3d9_create_vertex_buffer(env.dev, 256, 0, &vb));
  auto bytes = pattern(256, 3);
  write_res(vb, 0, 0, bytes);
  cl_int e;
  cl_mem m = cl.clCreateFromD3D9VertexBufferNV(env.c, CL_MEM_READ_WRITE, (IDirect3DVertexBuffer9 *)vb, &e);
  CHECK_OK(e);
  CHECK_EQ(refcount(vb), 2);
  size_t size;
  CHECK_OK(cl.clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof size, &size, nullptr));
  CHECK_EQ(size, 256);
  CHECK_OK(cl.clEnqueueAcquireD3D9ObjectsNV(env.q, 1, &m, 0, nullptr, nullptr));
  std::vector<uint8_t> out(256);
  CHECK_OK(cl.clEnqueueReadBuffer(env.q, m, CL_TRUE, 0, 256, out.data(), 0, nullptr, nullptr));
  CHECK(out == bytes);
  uint8_t z = 0x5A;
  CHECK_OK(cl.clEnqueueFillBuffer(env.q, m, &z, 1, 0, 16, 0, nullptr, nullptr));
  CHECK_OK(cl.clEnqueueReleaseD3D9ObjectsNV(env.q, 1, &m, 0, nullptr, nullptr));
  CHECK_OK(cl.clFinish(env.q));
  CHECK_EQ(read_res(vb, 0, 0)[15], 0x5A);  // zero-copy
  cl.clReleaseMemObject(m);
  CHECK_EQ(refcount(vb), 1);
  release_res(vb);
}

TEST("nv_d3d9.9.13.3.create_from_index_buffer") {
  Env env;
  void *ib;
  CHECK_OK(rd.refdrv_d3d9_create_index_buffer(env.dev, 96, 101, 0, &ib));
  cl_int e;
  cl_mem m = cl.clCreateFromD3D9IndexBufferNV(env.c, CL_MEM_READ_ONLY, (IDirect3DIndexBuffer9 *)ib, &e);
  CHECK_OK(e);
  cl_mem_flags f;
  CHECK_OK(cl.clGetMemObjectInfo(m, CL_MEM_FLAGS, sizeof f, &f, nullptr));
  CHECK_EQ(f, CL_MEM_READ_ONLY);
  // a vertex buffer is not an index buffer
  CHECK(cl.clCreateFromD3D9VertexBufferNV(env.c, CL_MEM_READ_ONLY, (IDirect3DVertexBuffer9 *)ib, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_D3D9_RESOURCE_NV);
  cl.clReleaseMemObject(m);
  release_res(ib);
}

TEST("nv_d3d9.9.13.3.create_from_vertex_buffer.twice_fails") {
  Env env;
  void *vb;
  CHECK_OK(rd.refdrv_d3d9_create_vertex_buffer(env.dev, 64, 0, &vb));
  cl_int e;
  cl_mem m = cl.clCreateFromD3D9VertexBufferNV(env.c, CL_MEM_READ_WRITE, (IDirect3DVertexBuffer9 *)vb, &e);
  CHECK_OK(e);
  CHECK(cl.clCreateFromD3D9VertexBufferNV(env.c, CL_MEM_READ_WRITE, (IDirect3DVertexBuffer9 *)vb, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_D3D9_RESOURCE_NV);
  cl.clReleaseMemObject(m);
  cl_mem m2 = cl.clCreateFromD3D9VertexBufferNV(env.c, CL_MEM_READ_WRITE, (IDirect3DVertexBuffer9 *)vb, &e);
  CHECK_OK(e);  // allowed again once the first one is gone
  cl.clReleaseMemObject(m2);
  release_res(vb);
}

TEST("nv_d3d9.9.13.3.create_from_buffer.not_default_pool_fails") {
  Env env;
  void *vb;
  CHECK_OK(rd.refdrv_d3d9_create_vertex_buffer(env.dev, 64, 1 /*MANAGED*/, &vb));
  cl_int e;
  CHECK(cl.clCreateFromD3D9VertexBufferNV(env.c, CL_MEM_READ_WRITE, (IDirect3DVertexBuffer9 *)vb, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_D3D9_RESOURCE_NV);
  release_res(vb);
}

TEST("nv_d3d9.9.13.4.create_from_surface") {
  Env env;
  void *s = surface(env.dev, A8R8G8B8, 8, 4);
  auto bytes = pattern(8 * 4 * 4, 1);
  write_res(s, 0, 0, bytes);
  cl_int e;
  cl_mem m = cl.clCreateFromD3D9SurfaceNV(env.c, CL_MEM_READ_WRITE, (IDirect3DSurface9 *)s, &e);
  CHECK_OK(e);
  cl_image_format f;
  CHECK_OK(cl.clGetImageInfo(m, CL_IMAGE_FORMAT, sizeof f, &f, nullptr));
  CHECK(f.image_channel_order == CL_RGBA && f.image_channel_data_type == CL_UNORM_INT8);  // NV: no swizzle
  size_t w, h, rp;
  uint64_t res_rp;
  CHECK_OK(cl.clGetImageInfo(m, CL_IMAGE_WIDTH, sizeof w, &w, nullptr));
  CHECK_OK(cl.clGetImageInfo(m, CL_IMAGE_HEIGHT, sizeof h, &h, nullptr));
  CHECK_OK(cl.clGetImageInfo(m, CL_IMAGE_ROW_PITCH, sizeof rp, &rp, nullptr));
  CHECK_OK(rd.refdrv_resource_layout(s, 0, 0, nullptr, nullptr, nullptr, nullptr, &res_rp, nullptr, nullptr));
  CHECK(w == 8 && h == 4 && rp == res_rp);
  CHECK_OK(cl.clEnqueueAcquireD3D9ObjectsNV(env.q, 1, &m, 0, nullptr, nullptr));
  CHECK(read_image(env.q, m, 8, 4, 4) == bytes);
  CHECK_OK(cl.clEnqueueReleaseD3D9ObjectsNV(env.q, 1, &m, 0, nullptr, nullptr));
  cl.clReleaseMemObject(m);
  release_res(s);
}

TEST("nv_d3d9.9.13.4.create_from_surface.twice_fails") {
  Env env;
  void *s = surface(env.dev);
  cl_int e;
  cl_mem m = cl.clCreateFromD3D9SurfaceNV(env.c, CL_MEM_READ_WRITE, (IDirect3DSurface9 *)s, &e);
  CHECK_OK(e);
  CHECK(cl.clCreateFromD3D9SurfaceNV(env.c, CL_MEM_READ_ONLY, (IDirect3DSurface9 *)s, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_D3D9_RESOURCE_NV);
  cl.clReleaseMemObject(m);
  release_res(s);
}

TEST("nv_d3d9.9.13.4.create_from_surface.not_standalone_fails") {
  Env env;
  void *t, *lvl;
  CHECK_OK(rd.refdrv_d3d9_create_texture(env.dev, A8R8G8B8, 8, 8, 2, 0, &t));
  CHECK_OK(rd.refdrv_d3d9_get_surface_level(t, 1, &lvl));
  cl_int e;
  CHECK(cl.clCreateFromD3D9SurfaceNV(env.c, CL_MEM_READ_WRITE, (IDirect3DSurface9 *)lvl, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_D3D9_RESOURCE_NV);
  release_res(lvl);
  release_res(t);
}

TEST("nv_d3d9.9.13.4.create_from_surface.errors") {
  Env env;
  void *s = surface(env.dev), *sys = surface(env.dev, A8R8G8B8, 8, 4, 2 /*SYSTEMMEM*/);
  void *other_dev = d3d9_device(), *other = surface(other_dev);
  cl_int e;
  CHECK(cl.clCreateFromD3D9SurfaceNV(env.c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, (IDirect3DSurface9 *)s, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_VALUE);
  CHECK(cl.clCreateFromD3D9SurfaceNV(env.c, 0, (IDirect3DSurface9 *)s, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_VALUE);
  CHECK(cl.clCreateFromD3D9SurfaceNV(env.c, CL_MEM_READ_WRITE, (IDirect3DSurface9 *)sys, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_D3D9_RESOURCE_NV);
  CHECK(cl.clCreateFromD3D9SurfaceNV(env.c, CL_MEM_READ_WRITE, (IDirect3DSurface9 *)other, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_D3D9_RESOURCE_NV);  // context was created against another device
  CHECK(cl.clCreateFromD3D9SurfaceNV(env.c, CL_MEM_READ_WRITE, (IDirect3DSurface9 *)env.dev, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_D3D9_RESOURCE_NV);  // not a surface
  cl_context plain = make_ctx();
  CHECK(cl.clCreateFromD3D9SurfaceNV(plain, CL_MEM_READ_WRITE, (IDirect3DSurface9 *)s, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_D3D9_RESOURCE_NV);  // context not created from a D3D9 device
  cl.clReleaseContext(plain);
  if (g_direct) {
    CHECK(cl.clCreateFromD3D9SurfaceNV((cl_context)s, CL_MEM_READ_WRITE, (IDirect3DSurface9 *)s, &e) == nullptr);
    CHECK_EQ(e, CL_INVALID_CONTEXT);
  }
  for (auto r : {s, sys, other, other_dev}) release_res(r);
}

TEST("nv_d3d9.9.13.4.format_table") {
  Env env;
  struct {
    uint32_t fmt;
    cl_channel_order o;
    cl_channel_type t;
  } table[] = {{114, CL_R, CL_FLOAT},         {111, CL_R, CL_HALF_FLOAT},    {81, CL_R, CL_UNORM_INT16},     {28, CL_R, CL_UNORM_INT8},
               {50, CL_R, CL_UNORM_INT8},     {115, CL_RG, CL_FLOAT},        {112, CL_RG, CL_HALF_FLOAT},    {34, CL_RG, CL_UNORM_INT16},
               {64, CL_RG, CL_SNORM_INT16},   {51, CL_RG, CL_UNORM_INT8},    {60, CL_RG, CL_SNORM_INT8},     {116, CL_RGBA, CL_FLOAT},
               {113, CL_RGBA, CL_HALF_FLOAT}, {36, CL_RGBA, CL_UNORM_INT16}, {110, CL_RGBA, CL_SNORM_INT16}, {32, CL_RGBA, CL_UNORM_INT8},
               {33, CL_RGBA, CL_UNORM_INT8},  {21, CL_RGBA, CL_UNORM_INT8},  {22, CL_RGBA, CL_UNORM_INT8},   {63, CL_RGBA, CL_SNORM_INT8}};
  for (auto &row : table) {
    void *s = surface(env.dev, row.fmt, 4, 4);
    cl_int e;
    cl_mem m = cl.clCreateFromD3D9SurfaceNV(env.c, CL_MEM_READ_WRITE, (IDirect3DSurface9 *)s, &e);
    CHECK_OK(e);
    cl_image_format f;
    CHECK_OK(cl.clGetImageInfo(m, CL_IMAGE_FORMAT, sizeof f, &f, nullptr));
    if (f.image_channel_order != row.o || f.image_channel_data_type != row.t) test_fail(__FILE__, __LINE__, "format " + std::to_string(row.fmt));
    cl.clReleaseMemObject(m);
    release_res(s);
  }
  for (uint32_t bad : {23u /*R5G6B5*/, 0x3231564Eu /*NV12*/, 0x32595559u /*YUY2*/}) {
    void *s = surface(env.dev, bad, 4, 4);
    cl_int e;
    CHECK(cl.clCreateFromD3D9SurfaceNV(env.c, CL_MEM_READ_WRITE, (IDirect3DSurface9 *)s, &e) == nullptr);
    CHECK_EQ(e, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    release_res(s);
  }
}

TEST("nv_d3d9.9.13.4.create_from_texture.miplevels") {
  Env env;
  void *t;
  CHECK_OK(rd.refdrv_d3d9_create_texture(env.dev, A8R8G8B8, 16, 8, 0, 0, &t));  // full chain: 5 levels
  std::vector<cl_mem> ms;
  for (UINT l = 0; l < 5; l++) {
    cl_int e;
    cl_mem m = cl.clCreateFromD3D9TextureNV(env.c, CL_MEM_READ_WRITE, (IDirect3DTexture9 *)t, l, &e);
    CHECK_OK(e);
    size_t w, h;
    CHECK_OK(cl.clGetImageInfo(m, CL_IMAGE_WIDTH, sizeof w, &w, nullptr));
    CHECK_OK(cl.clGetImageInfo(m, CL_IMAGE_HEIGHT, sizeof h, &h, nullptr));
    CHECK_EQ(w, std::max(1, 16 >> l));
    CHECK_EQ(h, std::max(1, 8 >> l));
    ms.push_back(m);
  }
  CHECK_EQ(refcount(t), 6);
  cl_int e;
  CHECK(cl.clCreateFromD3D9TextureNV(env.c, CL_MEM_READ_WRITE, (IDirect3DTexture9 *)t, 5, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_VALUE);
  CHECK(cl.clCreateFromD3D9TextureNV(env.c, CL_MEM_READ_WRITE, (IDirect3DTexture9 *)t, 2, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_D3D9_RESOURCE_NV);
  auto lvl2 = pattern(4 * 2 * 4, 9);
  write_res(t, 2, 0, lvl2);
  CHECK_OK(cl.clEnqueueAcquireD3D9ObjectsNV(env.q, 1, &ms[2], 0, nullptr, nullptr));
  CHECK(read_image(env.q, ms[2], 4, 2, 4) == lvl2);
  CHECK_OK(cl.clEnqueueReleaseD3D9ObjectsNV(env.q, 1, &ms[2], 0, nullptr, nullptr));
  CHECK_OK(cl.clFinish(env.q));  // commands keep their memory objects alive until they finish
  for (auto m : ms) cl.clReleaseMemObject(m);
  CHECK_EQ(refcount(t), 1);
  release_res(t);
}

TEST("nv_d3d9.9.13.4.create_from_cube_texture.faces") {
  Env env;
  void *t;
  CHECK_OK(rd.refdrv_d3d9_create_cube_texture(env.dev, A8R8G8B8, 8, 2, 0, &t));
  std::vector<cl_mem> ms;
  for (D3DCUBEMAP_FACES f = 0; f < 6; f++)
    for (UINT l = 0; l < 2; l++) {
      cl_int e;
      cl_mem m = cl.clCreateFromD3D9CubeTextureNV(env.c, CL_MEM_READ_WRITE, (IDirect3DCubeTexture9 *)t, f, l, &e);
      CHECK_OK(e);
      ms.push_back(m);
    }
  cl_int e;
  CHECK(cl.clCreateFromD3D9CubeTextureNV(env.c, CL_MEM_READ_WRITE, (IDirect3DCubeTexture9 *)t, 6, 0, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_VALUE);
  CHECK(cl.clCreateFromD3D9CubeTextureNV(env.c, CL_MEM_READ_WRITE, (IDirect3DCubeTexture9 *)t, 0, 2, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_VALUE);
  CHECK(cl.clCreateFromD3D9CubeTextureNV(env.c, CL_MEM_READ_WRITE, (IDirect3DCubeTexture9 *)t, 3, 1, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_D3D9_RESOURCE_NV);
  // face 3 level 1 is subresource 3*2+1 of the simulated cube texture
  auto bytes = pattern(4 * 4 * 4, 5);
  write_res(t, 3 * 2 + 1, 0, bytes);
  cl_mem m = ms[3 * 2 + 1];
  CHECK_OK(cl.clEnqueueAcquireD3D9ObjectsNV(env.q, 1, &m, 0, nullptr, nullptr));
  CHECK(read_image(env.q, m, 4, 4, 4) == bytes);
  CHECK_OK(cl.clEnqueueReleaseD3D9ObjectsNV(env.q, 1, &m, 0, nullptr, nullptr));
  for (auto x : ms) cl.clReleaseMemObject(x);
  release_res(t);
}

TEST("nv_d3d9.9.13.4.create_from_volume_texture") {
  Env env;
  void *t;
  CHECK_OK(rd.refdrv_d3d9_create_volume_texture(env.dev, 50 /*L8*/, 8, 4, 4, 2, 0, &t));
  cl_int e;
  cl_mem m = cl.clCreateFromD3D9VolumeTextureNV(env.c, CL_MEM_READ_WRITE, (IDirect3DVolumeTexture9 *)t, 1, &e);
  CHECK_OK(e);
  cl_mem_object_type type;
  CHECK_OK(cl.clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof type, &type, nullptr));
  CHECK_EQ(type, CL_MEM_OBJECT_IMAGE3D);
  size_t d;
  CHECK_OK(cl.clGetImageInfo(m, CL_IMAGE_DEPTH, sizeof d, &d, nullptr));
  CHECK_EQ(d, 2);
  auto bytes = pattern(4 * 2 * 2, 8);
  write_res(t, 1, 0, bytes);
  CHECK_OK(cl.clEnqueueAcquireD3D9ObjectsNV(env.q, 1, &m, 0, nullptr, nullptr));
  CHECK(read_image(env.q, m, 4, 2, 1, 2) == bytes);
  CHECK_OK(cl.clEnqueueReleaseD3D9ObjectsNV(env.q, 1, &m, 0, nullptr, nullptr));
  CHECK(cl.clCreateFromD3D9VolumeTextureNV(env.c, CL_MEM_READ_WRITE, (IDirect3DVolumeTexture9 *)t, 2, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_VALUE);
  cl.clReleaseMemObject(m);
  release_res(t);
}

TEST("nv_d3d9.9.13.2.mem_holds_resource_reference") {
  Env env;
  void *s = surface(env.dev);
  cl_int e;
  cl_mem m = cl.clCreateFromD3D9SurfaceNV(env.c, CL_MEM_READ_WRITE, (IDirect3DSurface9 *)s, &e);
  CHECK_EQ(refcount(s), 2);
  cl.clRetainMemObject(m);
  cl.clReleaseMemObject(m);
  CHECK_EQ(refcount(s), 2);
  cl.clReleaseMemObject(m);
  CHECK_EQ(refcount(s), 1);
  release_res(s);
}

TEST("nv_d3d9.9.13.5.mem_and_image_info") {
  Env env;
  void *s = surface(env.dev), *t, *cube;
  CHECK_OK(rd.refdrv_d3d9_create_texture(env.dev, A8R8G8B8, 8, 8, 3, 0, &t));
  CHECK_OK(rd.refdrv_d3d9_create_cube_texture(env.dev, A8R8G8B8, 8, 3, 0, &cube));
  cl_int e;
  cl_mem ms = cl.clCreateFromD3D9SurfaceNV(env.c, CL_MEM_READ_WRITE, (IDirect3DSurface9 *)s, &e);
  cl_mem mt = cl.clCreateFromD3D9TextureNV(env.c, CL_MEM_READ_WRITE, (IDirect3DTexture9 *)t, 2, &e);
  cl_mem mc = cl.clCreateFromD3D9CubeTextureNV(env.c, CL_MEM_READ_WRITE, (IDirect3DCubeTexture9 *)cube, 4, 1, &e);
  cl_mem plain = cl.clCreateBuffer(env.c, CL_MEM_READ_WRITE, 16, nullptr, &e);
  void *r;
  CHECK_OK(cl.clGetMemObjectInfo(ms, CL_MEM_D3D9_RESOURCE_NV, sizeof r, &r, nullptr));
  CHECK(r == s);
  CHECK_OK(cl.clGetMemObjectInfo(mc, CL_MEM_D3D9_RESOURCE_NV, sizeof r, &r, nullptr));
  CHECK(r == cube);
  CHECK_EQ(cl.clGetMemObjectInfo(plain, CL_MEM_D3D9_RESOURCE_NV, sizeof r, &r, nullptr), CL_INVALID_D3D9_RESOURCE_NV);
  CHECK_EQ(cl.clGetMemObjectInfo(ms, CL_MEM_D3D9_RESOURCE_NV, 2, &r, nullptr), CL_INVALID_VALUE);
  UINT lvl;
  D3DCUBEMAP_FACES face;
  CHECK_OK(cl.clGetImageInfo(mt, CL_IMAGE_D3D9_LEVEL_NV, sizeof lvl, &lvl, nullptr));
  CHECK_EQ(lvl, 2);
  CHECK_OK(cl.clGetImageInfo(mc, CL_IMAGE_D3D9_LEVEL_NV, sizeof lvl, &lvl, nullptr));
  CHECK_EQ(lvl, 1);
  CHECK_OK(cl.clGetImageInfo(mc, CL_IMAGE_D3D9_FACE_NV, sizeof face, &face, nullptr));
  CHECK_EQ(face, 4);
  CHECK_EQ(cl.clGetImageInfo(mt, CL_IMAGE_D3D9_FACE_NV, sizeof face, &face, nullptr), CL_INVALID_D3D9_RESOURCE_NV);
  CHECK_EQ(cl.clGetImageInfo(ms, CL_IMAGE_D3D9_LEVEL_NV, sizeof lvl, &lvl, nullptr), CL_INVALID_D3D9_RESOURCE_NV);
  for (auto m : {ms, mt, mc, plain}) cl.clReleaseMemObject(m);
  for (auto x : {s, t, cube}) release_res(x);
}

TEST("nv_d3d9.9.13.6.acquire_release_events") {
  Env env;
  void *s = surface(env.dev);
  cl_int e;
  cl_mem m = cl.clCreateFromD3D9SurfaceNV(env.c, CL_MEM_READ_WRITE, (IDirect3DSurface9 *)s, &e);
  cl_event a, r;
  CHECK_OK(cl.clEnqueueAcquireD3D9ObjectsNV(env.q, 1, &m, 0, nullptr, &a));
  CHECK_OK(cl.clEnqueueReleaseD3D9ObjectsNV(env.q, 1, &m, 1, &a, &r));
  CHECK_OK(cl.clWaitForEvents(1, &r));
  CHECK_EQ(event_type(a), CL_COMMAND_ACQUIRE_D3D9_OBJECTS_NV);
  CHECK_EQ(event_type(r), CL_COMMAND_RELEASE_D3D9_OBJECTS_NV);
  CHECK_EQ(event_status(a), CL_COMPLETE);
  cl.clReleaseEvent(a);
  cl.clReleaseEvent(r);
  cl.clReleaseMemObject(m);
  release_res(s);
}

TEST("nv_d3d9.9.13.6.acquire_twice_fails") {
  Env env;
  void *s = surface(env.dev);
  cl_int e;
  cl_mem m = cl.clCreateFromD3D9SurfaceNV(env.c, CL_MEM_READ_WRITE, (IDirect3DSurface9 *)s, &e);
  CHECK_OK(cl.clEnqueueAcquireD3D9ObjectsNV(env.q, 1, &m, 0, nullptr, nullptr));
  CHECK_EQ(cl.clEnqueueAcquireD3D9ObjectsNV(env.q, 1, &m, 0, nullptr, nullptr), CL_D3D9_RESOURCE_ALREADY_ACQUIRED_NV);
  CHECK_OK(cl.clEnqueueReleaseD3D9ObjectsNV(env.q, 1, &m, 0, nullptr, nullptr));
  cl_mem twice[2] = {m, m};
  CHECK_EQ(cl.clEnqueueAcquireD3D9ObjectsNV(env.q, 2, twice, 0, nullptr, nullptr), CL_D3D9_RESOURCE_ALREADY_ACQUIRED_NV);
  cl.clReleaseMemObject(m);
  release_res(s);
}

TEST("nv_d3d9.9.13.6.release_without_acquire_fails") {
  Env env;
  void *s = surface(env.dev);
  cl_int e;
  cl_mem m = cl.clCreateFromD3D9SurfaceNV(env.c, CL_MEM_READ_WRITE, (IDirect3DSurface9 *)s, &e);
  CHECK_EQ(cl.clEnqueueReleaseD3D9ObjectsNV(env.q, 1, &m, 0, nullptr, nullptr), CL_D3D9_RESOURCE_NOT_ACQUIRED_NV);
  CHECK_OK(cl.clEnqueueAcquireD3D9ObjectsNV(env.q, 1, &m, 0, nullptr, nullptr));
  CHECK_OK(cl.clEnqueueReleaseD3D9ObjectsNV(env.q, 1, &m, 0, nullptr, nullptr));
  CHECK_EQ(cl.clEnqueueReleaseD3D9ObjectsNV(env.q, 1, &m, 0, nullptr, nullptr), CL_D3D9_RESOURCE_NOT_ACQUIRED_NV);
  cl.clReleaseMemObject(m);
  release_res(s);
}

TEST("nv_d3d9.9.13.6.use_without_acquire_fails") {
  Env env;
  void *s = surface(env.dev), *vb;
  CHECK_OK(rd.refdrv_d3d9_create_vertex_buffer(env.dev, 64, 0, &vb));
  cl_int e;
  cl_mem mi = cl.clCreateFromD3D9SurfaceNV(env.c, CL_MEM_READ_WRITE, (IDirect3DSurface9 *)s, &e);
  cl_mem mb = cl.clCreateFromD3D9VertexBufferNV(env.c, CL_MEM_READ_WRITE, (IDirect3DVertexBuffer9 *)vb, &e);
  expect_use_fails(env.q, mi, CL_D3D9_RESOURCE_NOT_ACQUIRED_NV);
  expect_use_fails(env.q, mb, CL_D3D9_RESOURCE_NOT_ACQUIRED_NV);
  cl_buffer_region r{0, 16};
  cl_mem sub = cl.clCreateSubBuffer(mb, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &e);
  CHECK_OK(e);
  uint8_t x[4];
  CHECK_EQ(cl.clEnqueueReadBuffer(env.q, sub, CL_TRUE, 0, 4, x, 0, nullptr, nullptr), CL_D3D9_RESOURCE_NOT_ACQUIRED_NV);
  // after release the object is unusable again
  CHECK_OK(cl.clEnqueueAcquireD3D9ObjectsNV(env.q, 1, &mb, 0, nullptr, nullptr));
  CHECK_OK(cl.clEnqueueReadBuffer(env.q, sub, CL_TRUE, 0, 4, x, 0, nullptr, nullptr));
  CHECK_OK(cl.clEnqueueReleaseD3D9ObjectsNV(env.q, 1, &mb, 0, nullptr, nullptr));
  CHECK_EQ(cl.clEnqueueReadBuffer(env.q, mb, CL_TRUE, 0, 4, x, 0, nullptr, nullptr), CL_D3D9_RESOURCE_NOT_ACQUIRED_NV);
  for (auto m : {sub, mi, mb}) cl.clReleaseMemObject(m);
  release_res(s);
  release_res(vb);
}

TEST("nv_d3d9.9.13.6.acquire_release_errors") {
  Env env;
  void *s = surface(env.dev);
  cl_int e;
  cl_mem m = cl.clCreateFromD3D9SurfaceNV(env.c, CL_MEM_READ_WRITE, (IDirect3DSurface9 *)s, &e);
  cl_mem plain = cl.clCreateBuffer(env.c, CL_MEM_READ_WRITE, 16, nullptr, &e);
  CHECK_OK(cl.clEnqueueAcquireD3D9ObjectsNV(env.q, 0, nullptr, 0, nullptr, nullptr));  // does nothing
  CHECK_EQ(cl.clEnqueueAcquireD3D9ObjectsNV(env.q, 1, nullptr, 0, nullptr, nullptr), CL_INVALID_VALUE);
  CHECK_EQ(cl.clEnqueueAcquireD3D9ObjectsNV(env.q, 0, &m, 0, nullptr, nullptr), CL_INVALID_VALUE);
  CHECK_EQ(cl.clEnqueueAcquireD3D9ObjectsNV(env.q, 1, &plain, 0, nullptr, nullptr), CL_INVALID_MEM_OBJECT);
  CHECK_EQ(cl.clEnqueueAcquireD3D9ObjectsNV(env.q, 1, &m, 1, nullptr, nullptr), CL_INVALID_EVENT_WAIT_LIST);
  cl_event ev = nullptr;
  CHECK_EQ(cl.clEnqueueAcquireD3D9ObjectsNV(env.q, 1, &m, 0, &ev, nullptr), CL_INVALID_EVENT_WAIT_LIST);
  cl_context plain_ctx = make_ctx();
  cl_command_queue pq = make_queue(plain_ctx);
  CHECK_EQ(cl.clEnqueueAcquireD3D9ObjectsNV(pq, 1, &m, 0, nullptr, nullptr), CL_INVALID_CONTEXT);
  CHECK_EQ(cl.clEnqueueReleaseD3D9ObjectsNV(pq, 1, &m, 0, nullptr, nullptr), CL_INVALID_CONTEXT);
  // objects of another extension are not D3D9 NV objects
  void *va, *vs;
  uint32_t id;
  CHECK_OK(rd.refdrv_va_create_display(1, &va));
  CHECK_OK(rd.refdrv_va_create_surface(va, 8, 8, &id, &vs));
  cl_context vctx = make_ctx(CL_CONTEXT_VA_API_DISPLAY_INTEL, va);
  cl_mem vm = cl.clCreateFromVA_APIMediaSurfaceINTEL(vctx, CL_MEM_READ_WRITE, &id, 0, &e);
  CHECK_OK(e);
  CHECK_EQ(cl.clEnqueueAcquireD3D9ObjectsNV(env.q, 1, &vm, 0, nullptr, nullptr), CL_INVALID_MEM_OBJECT);
  cl.clReleaseMemObject(vm);
  cl.clReleaseContext(vctx);
  release_res(vs);
  release_res(va);
  cl.clReleaseCommandQueue(pq);
  cl.clReleaseContext(plain_ctx);
  cl.clReleaseMemObject(plain);
  cl.clReleaseMemObject(m);
  release_res(s);
}

static std::string g_notify_msg;
static void CL_API_CALL notify(const char *msg, const void *, size_t, void *) { g_notify_msg = msg; }

TEST("nv_d3d9.9.13.6.not_acquired_reports_to_context_callback") {
  void *dev = d3d9_device();
  cl_context_properties p[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)g_plat, CL_CONTEXT_D3D9_DEVICE_NV, (cl_context_properties)dev, 0};
  cl_int e;
  cl_context c = cl.clCreateContext(p, 1, &g_dev, notify, nullptr, &e);
  CHECK_OK(e);
  cl_command_queue q = make_queue(c);
  void *s = surface(dev);
  cl_mem m = cl.clCreateFromD3D9SurfaceNV(c, CL_MEM_READ_WRITE, (IDirect3DSurface9 *)s, &e);
  uint8_t px[4];
  size_t o[3] = {0, 0, 0}, r[3] = {1, 1, 1};
  CHECK_EQ(cl.clEnqueueReadImage(q, m, CL_TRUE, o, r, 0, 0, px, 0, nullptr, nullptr), CL_D3D9_RESOURCE_NOT_ACQUIRED_NV);
  CHECK_OK(rd.refdrv_wait_idle(2000));
  CHECK(g_notify_msg.find("CL_D3D9_RESOURCE_NOT_ACQUIRED_NV") != std::string::npos);
  cl.clReleaseMemObject(m);
  cl.clReleaseCommandQueue(q);
  cl.clReleaseContext(c);
  release_res(s);
  release_res(dev);
}

TEST("direct.nv_d3d9.9.13.4.create_from_surface.invalid_context") {
  void *dev = d3d9_device(), *s = surface(dev);
  cl_int e;
  CHECK(cl.clCreateFromD3D9SurfaceNV((cl_context)s, CL_MEM_READ_WRITE, (IDirect3DSurface9 *)s, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_CONTEXT);
  cl_uint n;
  CHECK_EQ(cl.clGetDeviceIDsFromD3D9NV((cl_platform_id)dev, CL_D3D9_DEVICE_NV, dev, CL_ALL_DEVICES_FOR_D3D9_NV, 0, nullptr, &n), CL_INVALID_PLATFORM);
  release_res(s);
  release_res(dev);
}
