// test_khr_d3d10.cpp - cl_khr_d3d10_sharing (OpenCL 1.2 extension spec 9.9).
#include "harness.h"

namespace {
struct Env {
  void *dev;
  cl_context c;
  cl_command_queue q;
  Env() {
    CHECK_OK(rd.refdrv_d3d10_create_device(nullptr, &dev));
    c = make_ctx(CL_CONTEXT_D3D10_DEVICE_KHR, dev);
    q = make_queue(c);
  }
  ~Env() {
    cl.clFinish(q);
    cl.clReleaseCommandQueue(q);
    cl.clReleaseContext(c);
    release_res(dev);
  }
};
void *tex2d(void *dev, uint32_t w, uint32_t h, uint32_t mips, uint32_t arr, uint32_t fmt = 28, uint32_t usage = 0, uint32_t samples = 1) {
  void *t = nullptr;
  CHECK_OK(rd.refdrv_d3d10_create_texture2d(dev, w, h, mips, arr, fmt, usage, samples, &t));
  return t;
}
}  // namespace

TEST("khr_d3d10.9.9.7.1.get_device_ids") {
  void *a, *dev, *fa, *fdev;
  CHECK_OK(rd.refdrv_dxgi_create_adapter("DXGI Test", 1, &a));
  CHECK_OK(rd.refdrv_d3d10_create_device(a, &dev));
  CHECK_OK(rd.refdrv_dxgi_create_adapter("Foreign", 0, &fa));
  CHECK_OK(rd.refdrv_d3d10_create_device(fa, &fdev));
  cl_uint n;
  cl_device_id d;
  for (cl_uint set : {CL_PREFERRED_DEVICES_FOR_D3D10_KHR, CL_ALL_DEVICES_FOR_D3D10_KHR}) {
    CHECK_OK(cl.clGetDeviceIDsFromD3D10KHR(g_plat, CL_D3D10_DEVICE_KHR, dev, set, 1, &d, &n));
    CHECK(n == 1 && d == g_dev);
    CHECK_OK(cl.clGetDeviceIDsFromD3D10KHR(g_plat, CL_D3D10_DXGI_ADAPTER_KHR, a, set, 1, &d, &n));
  }
  CHECK_EQ(cl.clGetDeviceIDsFromD3D10KHR(g_plat, CL_D3D10_DEVICE_KHR, fdev, CL_ALL_DEVICES_FOR_D3D10_KHR, 1, &d, &n), CL_DEVICE_NOT_FOUND);
  CHECK_EQ(cl.clGetDeviceIDsFromD3D10KHR(g_plat, CL_D3D10_DXGI_ADAPTER_KHR, fa, CL_ALL_DEVICES_FOR_D3D10_KHR, 1, &d, &n), CL_DEVICE_NOT_FOUND);
  CHECK_EQ(cl.clGetDeviceIDsFromD3D10KHR(g_plat, CL_D3D10_DXGI_ADAPTER_KHR, dev, CL_ALL_DEVICES_FOR_D3D10_KHR, 1, &d, &n), CL_DEVICE_NOT_FOUND);
  CHECK_EQ(cl.clGetDeviceIDsFromD3D10KHR(g_plat, 0x1, dev, CL_ALL_DEVICES_FOR_D3D10_KHR, 1, &d, &n), CL_INVALID_VALUE);
  CHECK_EQ(cl.clGetDeviceIDsFromD3D10KHR(g_plat, CL_D3D10_DEVICE_KHR, dev, 0x1, 1, &d, &n), CL_INVALID_VALUE);
  CHECK_EQ(cl.clGetDeviceIDsFromD3D10KHR(g_plat, CL_D3D10_DEVICE_KHR, dev, CL_ALL_DEVICES_FOR_D3D10_KHR, 0, &d, &n), CL_INVALID_VALUE);
  CHECK_EQ(cl.clGetDeviceIDsFromD3D10KHR(g_plat, CL_D3D10_DEVICE_KHR, dev, CL_ALL_DEVICES_FOR_D3D10_KHR, 0, nullptr, nullptr), CL_INVALID_VALUE);
  for (auto r : {dev, a, fdev, fa}) release_res(r);
}

TEST("khr_d3d10.9.9.5.create_context.invalid_device_and_two_apis") {
  cl_int e;
  void *fa, *fdev, *d9 = d3d9_device(), *dev;
  CHECK_OK(rd.refdrv_dxgi_create_adapter("Foreign", 0, &fa));
  CHECK_OK(rd.refdrv_d3d10_create_device(fa, &fdev));
  CHECK_OK(rd.refdrv_d3d10_create_device(nullptr, &dev));
  CHECK(make_ctx(CL_CONTEXT_D3D10_DEVICE_KHR, fdev, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_D3D10_DEVICE_KHR);
  CHECK(make_ctx(CL_CONTEXT_D3D10_DEVICE_KHR, d9, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_D3D10_DEVICE_KHR);
  cl_context_properties p[] = {CL_CONTEXT_D3D10_DEVICE_KHR, (cl_context_properties)dev, CL_CONTEXT_D3D9_DEVICE_NV, (cl_context_properties)d9, 0};
  CHECK(cl.clCreateContext(p, 1, &g_dev, nullptr, nullptr, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_OPERATION);
  for (auto r : {fdev, fa, d9, dev}) release_res(r);
}

TEST("khr_d3d10.9.9.5.context_info.prefer_shared_resources") {
  Env env;
  cl_bool b = 9;
  size_t sz;
  CHECK_OK(cl.clGetContextInfo(env.c, CL_CONTEXT_D3D10_PREFER_SHARED_RESOURCES_KHR, sizeof b, &b, &sz));
  CHECK_EQ(sz, sizeof(cl_bool));
  CHECK(b == CL_TRUE || b == CL_FALSE);
}

TEST("khr_d3d10.9.9.7.2.context_holds_device_reference") {
  void *dev;
  CHECK_OK(rd.refdrv_d3d10_create_device(nullptr, &dev));
  cl_context c = make_ctx(CL_CONTEXT_D3D10_DEVICE_KHR, dev);
  CHECK_EQ(refcount(dev), 2);
  cl.clReleaseContext(c);
  CHECK_EQ(refcount(dev), 1);
  release_res(dev);
}

TEST("khr_d3d10.9.9.7.3.create_from_buffer") {
  Env env;
  void *b, *imm, *other_dev, *ob;
  CHECK_OK(rd.refdrv_d3d10_create_buffer(env.dev, 128, 0, &b));
  CHECK_OK(rd.refdrv_d3d10_create_buffer(env.dev, 128, 1 /*IMMUTABLE*/, &imm));
  CHECK_OK(rd.refdrv_d3d10_create_device(nullptr, &other_dev));
  CHECK_OK(rd.refdrv_d3d10_create_buffer(other_dev, 128, 0, &ob));
  cl_int e;
  cl_mem m = cl.clCreateFromD3D10BufferKHR(env.c, CL_MEM_READ_WRITE, (ID3D10Buffer *)b, &e);
  CHECK_OK(e);
  CHECK_EQ(refcount(b), 2);
  CHECK(cl.clCreateFromD3D10BufferKHR(env.c, CL_MEM_READ_WRITE, (ID3D10Buffer *)b, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_D3D10_RESOURCE_KHR);
  CHECK(cl.clCreateFromD3D10BufferKHR(env.c, CL_MEM_READ_WRITE, (ID3D10Buffer *)imm, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_D3D10_RESOURCE_KHR);
  CHECK(cl.clCreateFromD3D10BufferKHR(env.c, CL_MEM_READ_WRITE, (ID3D10Buffer *)ob, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_D3D10_RESOURCE_KHR);
  CHECK(cl.clCreateFromD3D10BufferKHR(env.c, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, (ID3D10Buffer *)b, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_VALUE);
  void *t = tex2d(env.dev, 4, 4, 1, 1);
  CHECK(cl.clCreateFromD3D10BufferKHR(env.c, CL_MEM_READ_WRITE, (ID3D10Buffer *)t, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_D3D10_RESOURCE_KHR);
  auto bytes = pattern(128, 4);
  write_res(b, 0, 0, bytes);
  CHECK_OK(cl.clEnqueueAcquireD3D10ObjectsKHR(env.q, 1, &m, 0, nullptr, nullptr));
  std::vector<uint8_t> out(128);
  CHECK_OK(cl.clEnqueueReadBuffer(env.q, m, CL_TRUE, 0, 128, out.data(), 0, nullptr, nullptr));
  CHECK(out == bytes);
  CHECK_OK(cl.clEnqueueReleaseD3D10ObjectsKHR(env.q, 1, &m, 0, nullptr, nullptr));
  CHECK_OK(cl.clFinish(env.q));
  cl.clReleaseMemObject(m);
  CHECK_EQ(refcount(b), 1);
  for (auto r : {b, imm, ob, other_dev, t}) release_res(r);
}

TEST("khr_d3d10.9.9.7.4.create_from_texture2d.subresources") {
  Env env;
  void *t = tex2d(env.dev, 16, 8, 3, 2, 87 /*B8G8R8A8_UNORM*/);
  std::vector<cl_mem> ms;
  for (UINT sub = 0; sub < 6; sub++) {
    cl_int e;
    cl_mem m = cl.clCreateFromD3D10Texture2DKHR(env.c, CL_MEM_READ_WRITE, (ID3D10Texture2D *)t, sub, &e);
    CHECK_OK(e);
    size_t w;
    CHECK_OK(cl.clGetImageInfo(m, CL_IMAGE_WIDTH, sizeof w, &w, nullptr));
    CHECK_EQ(w, 16 >> (sub % 3));
    UINT got;
    CHECK_OK(cl.clGetImageInfo(m, CL_IMAGE_D3D10_SUBRESOURCE_KHR, sizeof got, &got, nullptr));
    CHECK_EQ(got, sub);
    ms.push_back(m);
  }
  cl_image_format f;
  CHECK_OK(cl.clGetImageInfo(ms[0], CL_IMAGE_FORMAT, sizeof f, &f, nullptr));
  CHECK(f.image_channel_order == CL_BGRA && f.image_channel_data_type == CL_UNORM_INT8);
  cl_int e;
  CHECK(cl.clCreateFromD3D10Texture2DKHR(env.c, CL_MEM_READ_WRITE, (ID3D10Texture2D *)t, 6, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_VALUE);
  CHECK(cl.clCreateFromD3D10Texture2DKHR(env.c, CL_MEM_READ_WRITE, (ID3D10Texture2D *)t, 4, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_D3D10_RESOURCE_KHR);
  // slice 1, mip 1 = subresource 4: zero-copy
  auto bytes = pattern(8 * 4 * 4, 6);
  write_res(t, 4, 0, bytes);
  CHECK_OK(cl.clEnqueueAcquireD3D10ObjectsKHR(env.q, 6, ms.data(), 0, nullptr, nullptr));
  CHECK(read_image(env.q, ms[4], 8, 4, 4) == bytes);
  CHECK_OK(cl.clEnqueueReleaseD3D10ObjectsKHR(env.q, 6, ms.data(), 0, nullptr, nullptr));
  CHECK_OK(cl.clFinish(env.q));
  for (auto m : ms) cl.clReleaseMemObject(m);
  void *ms4 = tex2d(env.dev, 4, 4, 1, 1, 28, 0, 4), *imm = tex2d(env.dev, 4, 4, 1, 1, 28, 1);
  CHECK(cl.clCreateFromD3D10Texture2DKHR(env.c, CL_MEM_READ_WRITE, (ID3D10Texture2D *)ms4, 0, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_D3D10_RESOURCE_KHR);
  CHECK(cl.clCreateFromD3D10Texture2DKHR(env.c, CL_MEM_READ_WRITE, (ID3D10Texture2D *)imm, 0, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_D3D10_RESOURCE_KHR);
  for (auto r : {t, ms4, imm}) release_res(r);
}

TEST("khr_d3d10.9.9.7.4.create_from_texture3d") {
  Env env;
  void *t;
  CHECK_OK(rd.refdrv_d3d10_create_texture3d(env.dev, 8, 8, 4, 2, 41 /*R32_FLOAT*/, 0, &t));
  cl_int e;
  cl_mem m = cl.clCreateFromD3D10Texture3DKHR(env.c, CL_MEM_READ_WRITE, (ID3D10Texture3D *)t, 1, &e);
  CHECK_OK(e);
  size_t d;
  CHECK_OK(cl.clGetImageInfo(m, CL_IMAGE_DEPTH, sizeof d, &d, nullptr));
  CHECK_EQ(d, 2);
  CHECK(cl.clCreateFromD3D10Texture3DKHR(env.c, CL_MEM_READ_WRITE, (ID3D10Texture3D *)t, 2, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_VALUE);
  void *t2 = tex2d(env.dev, 4, 4, 1, 1);
  CHECK(cl.clCreateFromD3D10Texture3DKHR(env.c, CL_MEM_READ_WRITE, (ID3D10Texture3D *)t2, 0, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_D3D10_RESOURCE_KHR);
  cl.clReleaseMemObject(m);
  release_res(t);
  release_res(t2);
}

TEST("khr_d3d10.9.9.7.4.format_table_37") {
  Env env;
  struct {
    uint32_t f;
    cl_channel_order o;
    cl_channel_type t;
  } table[] = {{2, CL_RGBA, CL_FLOAT},          {3, CL_RGBA, CL_UNSIGNED_INT32},
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
               {64, CL_R, CL_SIGNED_INT8}};
  static_assert(sizeof(table) / sizeof(table[0]) == 37, "37 formats");
  for (auto &row : table) {
    void *t = tex2d(env.dev, 4, 4, 1, 1, row.f);
    cl_int e;
    cl_mem m = cl.clCreateFromD3D10Texture2DKHR(env.c, CL_MEM_READ_WRITE, (ID3D10Texture2D *)t, 0, &e);
    if (e) test_fail(__FILE__, __LINE__, "DXGI format " + std::to_string(row.f));
    cl_image_format f;
    CHECK_OK(cl.clGetImageInfo(m, CL_IMAGE_FORMAT, sizeof f, &f, nullptr));
    if (f.image_channel_order != row.o || f.image_channel_data_type != row.t) test_fail(__FILE__, __LINE__, "DXGI format " + std::to_string(row.f));
    cl.clReleaseMemObject(m);
    release_res(t);
  }
  for (uint32_t bad : {6u /*R32G32B32_FLOAT*/, 24u /*R10G10B10A2_UNORM*/, 29u /*R8G8B8A8_UNORM_SRGB*/, 27u /*TYPELESS*/}) {
    void *t = tex2d(env.dev, 4, 4, 1, 1, bad);
    cl_int e;
    CHECK(cl.clCreateFromD3D10Texture2DKHR(env.c, CL_MEM_READ_WRITE, (ID3D10Texture2D *)t, 0, &e) == nullptr);
    CHECK_EQ(e, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    release_res(t);
  }
}

TEST("khr_d3d10.9.9.7.5.mem_and_image_info") {
  Env env;
  void *b, *t = tex2d(env.dev, 4, 4, 1, 1);
  CHECK_OK(rd.refdrv_d3d10_create_buffer(env.dev, 64, 0, &b));
  cl_int e;
  cl_mem mb = cl.clCreateFromD3D10BufferKHR(env.c, CL_MEM_READ_WRITE, (ID3D10Buffer *)b, &e);
  cl_mem mt = cl.clCreateFromD3D10Texture2DKHR(env.c, CL_MEM_READ_WRITE, (ID3D10Texture2D *)t, 0, &e);
  cl_mem plain = cl.clCreateBuffer(env.c, CL_MEM_READ_WRITE, 16, nullptr, &e);
  cl_mem pimg = image2d(env.c, CL_RGBA, CL_UNORM_INT8, 4, 4);
  void *r;
  CHECK_OK(cl.clGetMemObjectInfo(mb, CL_MEM_D3D10_RESOURCE_KHR, sizeof r, &r, nullptr));
  CHECK(r == b);
  CHECK_OK(cl.clGetMemObjectInfo(mt, CL_MEM_D3D10_RESOURCE_KHR, sizeof r, &r, nullptr));
  CHECK(r == t);
  CHECK_EQ(cl.clGetMemObjectInfo(plain, CL_MEM_D3D10_RESOURCE_KHR, sizeof r, &r, nullptr), CL_INVALID_D3D10_RESOURCE_KHR);
  UINT sub;
  CHECK_EQ(cl.clGetImageInfo(pimg, CL_IMAGE_D3D10_SUBRESOURCE_KHR, sizeof sub, &sub, nullptr), CL_INVALID_D3D10_RESOURCE_KHR);
  for (auto m : {mb, mt, plain, pimg}) cl.clReleaseMemObject(m);
  release_res(b);
  release_res(t);
}

TEST("khr_d3d10.9.9.7.6.acquire_release_events") {
  Env env;
  void *t = tex2d(env.dev, 4, 4, 1, 1);
  cl_int e;
  cl_mem m = cl.clCreateFromD3D10Texture2DKHR(env.c, CL_MEM_READ_WRITE, (ID3D10Texture2D *)t, 0, &e);
  cl_event a, r;
  CHECK_OK(cl.clEnqueueAcquireD3D10ObjectsKHR(env.q, 1, &m, 0, nullptr, &a));
  CHECK_OK(cl.clEnqueueReleaseD3D10ObjectsKHR(env.q, 1, &m, 0, nullptr, &r));
  CHECK_OK(cl.clWaitForEvents(1, &r));
  CHECK_EQ(event_type(a), CL_COMMAND_ACQUIRE_D3D10_OBJECTS_KHR);
  CHECK_EQ(event_type(r), CL_COMMAND_RELEASE_D3D10_OBJECTS_KHR);
  cl.clReleaseEvent(a);
  cl.clReleaseEvent(r);
  cl_context plain = make_ctx();
  cl_command_queue pq = make_queue(plain);
  CHECK_EQ(cl.clEnqueueAcquireD3D10ObjectsKHR(pq, 1, &m, 0, nullptr, nullptr), CL_INVALID_CONTEXT);
  cl.clReleaseCommandQueue(pq);
  cl.clReleaseContext(plain);
  cl.clReleaseMemObject(m);
  release_res(t);
}

TEST("khr_d3d10.9.9.7.6.acquire_twice_fails") {
  Env env;
  void *t = tex2d(env.dev, 4, 4, 1, 1);
  cl_int e;
  cl_mem m = cl.clCreateFromD3D10Texture2DKHR(env.c, CL_MEM_READ_WRITE, (ID3D10Texture2D *)t, 0, &e);
  CHECK_OK(cl.clEnqueueAcquireD3D10ObjectsKHR(env.q, 1, &m, 0, nullptr, nullptr));
  CHECK_EQ(cl.clEnqueueAcquireD3D10ObjectsKHR(env.q, 1, &m, 0, nullptr, nullptr), CL_D3D10_RESOURCE_ALREADY_ACQUIRED_KHR);
  CHECK_OK(cl.clEnqueueReleaseD3D10ObjectsKHR(env.q, 1, &m, 0, nullptr, nullptr));
  cl.clReleaseMemObject(m);
  release_res(t);
}

TEST("khr_d3d10.9.9.7.6.release_without_acquire_fails") {
  Env env;
  void *t = tex2d(env.dev, 4, 4, 1, 1);
  cl_int e;
  cl_mem m = cl.clCreateFromD3D10Texture2DKHR(env.c, CL_MEM_READ_WRITE, (ID3D10Texture2D *)t, 0, &e);
  CHECK_EQ(cl.clEnqueueReleaseD3D10ObjectsKHR(env.q, 1, &m, 0, nullptr, nullptr), CL_D3D10_RESOURCE_NOT_ACQUIRED_KHR);
  cl.clReleaseMemObject(m);
  release_res(t);
}

TEST("khr_d3d10.9.9.7.6.use_without_acquire_fails") {
  Env env;
  void *t = tex2d(env.dev, 4, 4, 1, 1), *b;
  CHECK_OK(rd.refdrv_d3d10_create_buffer(env.dev, 64, 0, &b));
  cl_int e;
  cl_mem mt = cl.clCreateFromD3D10Texture2DKHR(env.c, CL_MEM_READ_WRITE, (ID3D10Texture2D *)t, 0, &e);
  cl_mem mb = cl.clCreateFromD3D10BufferKHR(env.c, CL_MEM_READ_WRITE, (ID3D10Buffer *)b, &e);
  expect_use_fails(env.q, mt, CL_D3D10_RESOURCE_NOT_ACQUIRED_KHR);
  expect_use_fails(env.q, mb, CL_D3D10_RESOURCE_NOT_ACQUIRED_KHR);
  cl.clReleaseMemObject(mt);
  cl.clReleaseMemObject(mb);
  release_res(t);
  release_res(b);
}
