// test_va_api.cpp - cl_intel_va_api_media_sharing (its spec's 4.4 and 9.X).
#include "harness.h"

namespace {
struct Env {
  void *disp;
  cl_context c;
  cl_command_queue q;
  Env() {
    CHECK_OK(rd.refdrv_va_create_display(1, &disp));
    c = make_ctx(CL_CONTEXT_VA_API_DISPLAY_INTEL, disp);
    q = make_queue(c);
  }
  ~Env() {
    cl.clFinish(q);
    cl.clReleaseCommandQueue(q);
    cl.clReleaseContext(c);
    release_res(disp);
  }
};
}  // namespace

TEST("va_api.9.X.1.get_device_ids") {
  void *d, *fd;
  CHECK_OK(rd.refdrv_va_create_display(1, &d));
  CHECK_OK(rd.refdrv_va_create_display(0, &fd));
  cl_uint n;
  cl_device_id dev;
  for (cl_uint set : {CL_PREFERRED_DEVICES_FOR_VA_API_INTEL, CL_ALL_DEVICES_FOR_VA_API_INTEL}) {
    CHECK_OK(cl.clGetDeviceIDsFromVA_APIMediaAdapterINTEL(g_plat, CL_VA_API_DISPLAY_INTEL, d, set, 1, &dev, &n));
    CHECK(n == 1 && dev == g_dev);
  }
  CHECK_EQ(cl.clGetDeviceIDsFromVA_APIMediaAdapterINTEL(g_plat, CL_VA_API_DISPLAY_INTEL, fd, CL_ALL_DEVICES_FOR_VA_API_INTEL, 1, &dev, &n),
           CL_DEVICE_NOT_FOUND);
  CHECK_EQ(cl.clGetDeviceIDsFromVA_APIMediaAdapterINTEL(g_plat, 0x4095, d, CL_ALL_DEVICES_FOR_VA_API_INTEL, 1, &dev, &n), CL_INVALID_VALUE);
  CHECK_EQ(cl.clGetDeviceIDsFromVA_APIMediaAdapterINTEL(g_plat, CL_VA_API_DISPLAY_INTEL, d, 0x4094, 1, &dev, &n), CL_INVALID_VALUE);
  CHECK_EQ(cl.clGetDeviceIDsFromVA_APIMediaAdapterINTEL(g_plat, CL_VA_API_DISPLAY_INTEL, d, CL_ALL_DEVICES_FOR_VA_API_INTEL, 0, &dev, &n),
           CL_INVALID_VALUE);
  release_res(d);
  release_res(fd);
}

TEST("va_api.4.4.create_context") {
  void *fd, *d, *d9 = d3d9_device();
  CHECK_OK(rd.refdrv_va_create_display(0, &fd));
  CHECK_OK(rd.refdrv_va_create_display(1, &d));
  cl_int e;
  CHECK(make_ctx(CL_CONTEXT_VA_API_DISPLAY_INTEL, fd, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_VA_API_MEDIA_ADAPTER_INTEL);
  CHECK(make_ctx(CL_CONTEXT_VA_API_DISPLAY_INTEL, d9, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_VA_API_MEDIA_ADAPTER_INTEL);
  cl_context_properties p[] = {CL_CONTEXT_VA_API_DISPLAY_INTEL, (cl_context_properties)d, CL_CONTEXT_ADAPTER_DXVA_KHR, (cl_context_properties)d9, 0};
  CHECK(cl.clCreateContext(p, 1, &g_dev, nullptr, nullptr, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_OPERATION);
  cl_context c = make_ctx(CL_CONTEXT_VA_API_DISPLAY_INTEL, d, nullptr, true);
  cl.clReleaseContext(c);
  for (auto r : {fd, d, d9}) release_res(r);
}

TEST("va_api.9.X.4.create_from_surface.nv12_planes") {
  Env env;
  uint32_t id;
  void *s;
  CHECK_OK(rd.refdrv_va_create_surface(env.disp, 64, 32, &id, &s));
  VASurfaceID sid = id;
  cl_int e;
  cl_mem y = cl.clCreateFromVA_APIMediaSurfaceINTEL(env.c, CL_MEM_READ_ONLY, &sid, 0, &e);
  CHECK_OK(e);
  sid = 0xDEAD;  // the driver keeps its own copy of the id
  sid = id;
  cl_mem uv = cl.clCreateFromVA_APIMediaSurfaceINTEL(env.c, CL_MEM_READ_ONLY, &sid, 1, &e);
  CHECK_OK(e);
  size_t w, h;
  cl_image_format f;
  CHECK_OK(cl.clGetImageInfo(uv, CL_IMAGE_WIDTH, sizeof w, &w, nullptr));
  CHECK_OK(cl.clGetImageInfo(uv, CL_IMAGE_HEIGHT, sizeof h, &h, nullptr));
  CHECK_OK(cl.clGetImageInfo(uv, CL_IMAGE_FORMAT, sizeof f, &f, nullptr));
  CHECK(w == 32 && h == 16 && f.image_channel_order == CL_RG && f.image_channel_data_type == CL_UNORM_INT8);
  CHECK_OK(cl.clGetImageInfo(y, CL_IMAGE_FORMAT, sizeof f, &f, nullptr));
  CHECK(f.image_channel_order == CL_R);
  CHECK(cl.clCreateFromVA_APIMediaSurfaceINTEL(env.c, CL_MEM_READ_ONLY, &sid, 2, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_VALUE);
  cl.clReleaseMemObject(y);
  cl.clReleaseMemObject(uv);
  release_res(s);
}

TEST("va_api.9.X.4.create_from_surface.twice_fails") {
  Env env;
  uint32_t id;
  void *s;
  CHECK_OK(rd.refdrv_va_create_surface(env.disp, 16, 16, &id, &s));
  cl_int e;
  cl_mem y = cl.clCreateFromVA_APIMediaSurfaceINTEL(env.c, CL_MEM_READ_WRITE, &id, 0, &e);
  CHECK(cl.clCreateFromVA_APIMediaSurfaceINTEL(env.c, CL_MEM_READ_WRITE, &id, 0, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_VA_API_MEDIA_SURFACE_INTEL);
  cl.clReleaseMemObject(y);
  release_res(s);
}

TEST("va_api.9.X.4.create_from_surface.errors") {
  Env env;
  void *d2, *s2, *s;
  uint32_t id2, id;
  CHECK_OK(rd.refdrv_va_create_display(1, &d2));
  CHECK_OK(rd.refdrv_va_create_surface(d2, 16, 16, &id2, &s2));
  CHECK_OK(rd.refdrv_va_create_surface(env.disp, 16, 16, &id, &s));
  cl_int e;
  CHECK(cl.clCreateFromVA_APIMediaSurfaceINTEL(env.c, CL_MEM_READ_WRITE, &id2, 0, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_VA_API_MEDIA_SURFACE_INTEL);  // surface of another display
  VASurfaceID unknown = 0x7FFFFFF0;
  CHECK(cl.clCreateFromVA_APIMediaSurfaceINTEL(env.c, CL_MEM_READ_WRITE, &unknown, 0, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_VA_API_MEDIA_SURFACE_INTEL);
  CHECK(cl.clCreateFromVA_APIMediaSurfaceINTEL(env.c, CL_MEM_READ_WRITE, nullptr, 0, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_VA_API_MEDIA_SURFACE_INTEL);
  CHECK(cl.clCreateFromVA_APIMediaSurfaceINTEL(env.c, CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS, &id, 0, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_VALUE);
  cl_context plain = make_ctx();
  CHECK(cl.clCreateFromVA_APIMediaSurfaceINTEL(plain, CL_MEM_READ_WRITE, &id, 0, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_VA_API_MEDIA_SURFACE_INTEL);
  cl.clReleaseContext(plain);
  for (auto r : {s2, d2, s}) release_res(r);
}

TEST("va_api.9.X.5.mem_and_image_info") {
  Env env;
  uint32_t id;
  void *s;
  CHECK_OK(rd.refdrv_va_create_surface(env.disp, 16, 16, &id, &s));
  VASurfaceID sid = id;
  cl_int e;
  cl_mem uv = cl.clCreateFromVA_APIMediaSurfaceINTEL(env.c, CL_MEM_READ_WRITE, &sid, 1, &e);
  VASurfaceID *p = nullptr;
  CHECK_OK(cl.clGetMemObjectInfo(uv, CL_MEM_VA_API_MEDIA_SURFACE_INTEL, sizeof p, &p, nullptr));
  CHECK(p == &sid);  // the pointer the application passed, not a copy
  CHECK_EQ(*p, id);
  cl_uint plane;
  CHECK_OK(cl.clGetImageInfo(uv, CL_IMAGE_VA_API_PLANE_INTEL, sizeof plane, &plane, nullptr));
  CHECK_EQ(plane, 1);
  cl_mem plain = image2d(env.c, CL_R, CL_UNORM_INT8, 4, 4);
  CHECK_EQ(cl.clGetMemObjectInfo(plain, CL_MEM_VA_API_MEDIA_SURFACE_INTEL, sizeof p, &p, nullptr), CL_INVALID_VA_API_MEDIA_SURFACE_INTEL);
  CHECK_EQ(cl.clGetImageInfo(plain, CL_IMAGE_VA_API_PLANE_INTEL, sizeof plane, &plane, nullptr), CL_INVALID_VA_API_MEDIA_SURFACE_INTEL);
  cl.clReleaseMemObject(uv);
  cl.clReleaseMemObject(plain);
  release_res(s);
}

TEST("va_api.9.X.6.acquire_release") {
  Env env;
  uint32_t id;
  void *s;
  CHECK_OK(rd.refdrv_va_create_surface(env.disp, 16, 16, &id, &s));
  cl_int e;
  cl_mem y = cl.clCreateFromVA_APIMediaSurfaceINTEL(env.c, CL_MEM_READ_WRITE, &id, 0, &e);
  expect_use_fails(env.q, y, CL_VA_API_MEDIA_SURFACE_NOT_ACQUIRED_INTEL);
  CHECK_EQ(cl.clEnqueueReleaseVA_APIMediaSurfacesINTEL(env.q, 1, &y, 0, nullptr, nullptr), CL_VA_API_MEDIA_SURFACE_NOT_ACQUIRED_INTEL);
  cl_event a, r;
  CHECK_OK(cl.clEnqueueAcquireVA_APIMediaSurfacesINTEL(env.q, 1, &y, 0, nullptr, &a));
  CHECK_EQ(cl.clEnqueueAcquireVA_APIMediaSurfacesINTEL(env.q, 1, &y, 0, nullptr, nullptr), CL_VA_API_MEDIA_SURFACE_ALREADY_ACQUIRED_INTEL);
  CHECK_OK(cl.clEnqueueReleaseVA_APIMediaSurfacesINTEL(env.q, 1, &y, 0, nullptr, &r));
  CHECK_OK(cl.clWaitForEvents(1, &r));
  CHECK_EQ(event_type(a), CL_COMMAND_ACQUIRE_VA_API_MEDIA_SURFACES_INTEL);
  CHECK_EQ(event_type(r), CL_COMMAND_RELEASE_VA_API_MEDIA_SURFACES_INTEL);
  cl_context plain = make_ctx();
  cl_command_queue pq = make_queue(plain);
  CHECK_EQ(cl.clEnqueueAcquireVA_APIMediaSurfacesINTEL(pq, 1, &y, 0, nullptr, nullptr), CL_INVALID_CONTEXT);
  cl.clReleaseCommandQueue(pq);
  cl.clReleaseContext(plain);
  cl.clReleaseEvent(a);
  cl.clReleaseEvent(r);
  cl.clReleaseMemObject(y);
  release_res(s);
}

static uint8_t clamp8(int v) { return uint8_t(v < 0 ? 0 : v > 255 ? 255 : v); }
static int fshift(int v) { return v >= 0 ? v >> 8 : -((-v + 255) >> 8); }

TEST("va_api.9.X.6.nv12_to_rgba_pipeline") {
  Env env;
  const int W = 16, H = 8;
  uint32_t id;
  void *s;
  CHECK_OK(rd.refdrv_va_create_surface(env.disp, W, H, &id, &s));
  auto yb = pattern(W * H, 16), uvb = pattern(W * H / 2, 100);
  write_res(s, 0, 0, yb);
  write_res(s, 0, 1, uvb);
  cl_int e;
  cl_mem planes[2];
  planes[0] = cl.clCreateFromVA_APIMediaSurfaceINTEL(env.c, CL_MEM_READ_ONLY, &id, 0, &e);
  planes[1] = cl.clCreateFromVA_APIMediaSurfaceINTEL(env.c, CL_MEM_READ_ONLY, &id, 1, &e);
  cl_mem rgba = image2d(env.c, CL_RGBA, CL_UNORM_INT8, W, H);
  cl_program p;
  cl_kernel k = builtin_kernel(env.c, "nv12_to_rgba", &p);
  CHECK_OK(cl.clSetKernelArg(k, 0, sizeof(cl_mem), &planes[0]));
  CHECK_OK(cl.clSetKernelArg(k, 1, sizeof(cl_mem), &planes[1]));
  CHECK_OK(cl.clSetKernelArg(k, 2, sizeof(cl_mem), &rgba));
  size_t g[2] = {W, H};
  CHECK_EQ(cl.clEnqueueNDRangeKernel(env.q, k, 2, nullptr, g, nullptr, 0, nullptr, nullptr), CL_VA_API_MEDIA_SURFACE_NOT_ACQUIRED_INTEL);
  CHECK_OK(cl.clEnqueueAcquireVA_APIMediaSurfacesINTEL(env.q, 2, planes, 0, nullptr, nullptr));
  CHECK_OK(cl.clEnqueueNDRangeKernel(env.q, k, 2, nullptr, g, nullptr, 0, nullptr, nullptr));
  CHECK_OK(cl.clEnqueueReleaseVA_APIMediaSurfacesINTEL(env.q, 2, planes, 0, nullptr, nullptr));
  auto out = read_image(env.q, rgba, W, H, 4);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      int C = yb[y * W + x] - 16, D = uvb[(y / 2) * W + (x / 2) * 2] - 128, E = uvb[(y / 2) * W + (x / 2) * 2 + 1] - 128;
      const uint8_t *o = &out[(y * W + x) * 4];
      CHECK_EQ(o[0], clamp8(fshift(298 * C + 409 * E + 128)));
      CHECK_EQ(o[1], clamp8(fshift(298 * C - 100 * D - 208 * E + 128)));
      CHECK_EQ(o[2], clamp8(fshift(298 * C + 516 * D + 128)));
      CHECK_EQ(o[3], 255);
    }
  cl.clReleaseKernel(k);
  cl.clReleaseProgram(p);
  CHECK_OK(cl.clFinish(env.q));
  for (auto m : {planes[0], planes[1], rgba}) cl.clReleaseMemObject(m);
  release_res(s);
}
