// test_d3d11.cpp - cl_khr_d3d11_sharing (shared/specs/cl_khr_d3d11_sharing.asciidoc)
// and cl_nv_d3d11_sharing (the same under NV names: OpenCV's cl_d3d11_ext.h), and
// NV12 textures as Y/UV plane subresources (cl_intel_d3d11_nv12_media_sharing).
// Every test runs once per extension.
#include "harness.h"

namespace {
struct D3D11Api {
  const char *name;
  cl_int(CL_API_CALL *get)(cl_platform_id, cl_uint, void *, cl_uint, cl_uint, cl_device_id *, cl_uint *);
  cl_mem(CL_API_CALL *buffer)(cl_context, cl_mem_flags, ID3D11Buffer *, cl_int *);
  cl_mem(CL_API_CALL *tex2d)(cl_context, cl_mem_flags, ID3D11Texture2D *, UINT, cl_int *);
  cl_mem(CL_API_CALL *tex3d)(cl_context, cl_mem_flags, ID3D11Texture3D *, UINT, cl_int *);
  cl_int(CL_API_CALL *acquire)(cl_command_queue, cl_uint, const cl_mem *, cl_uint, const cl_event *, cl_event *);
  cl_int(CL_API_CALL *release)(cl_command_queue, cl_uint, const cl_mem *, cl_uint, const cl_event *, cl_event *);
};
std::vector<D3D11Api> apis() {
  return {
      {"KHR", cl.clGetDeviceIDsFromD3D11KHR, cl.clCreateFromD3D11BufferKHR, cl.clCreateFromD3D11Texture2DKHR, cl.clCreateFromD3D11Texture3DKHR,
       cl.clEnqueueAcquireD3D11ObjectsKHR, cl.clEnqueueReleaseD3D11ObjectsKHR},
      {"NV", cl.clGetDeviceIDsFromD3D11NV, cl.clCreateFromD3D11BufferNV, cl.clCreateFromD3D11Texture2DNV, cl.clCreateFromD3D11Texture3DNV,
       cl.clEnqueueAcquireD3D11ObjectsNV,
       reinterpret_cast<cl_int(CL_API_CALL *)(cl_command_queue, cl_uint, const cl_mem *, cl_uint, const cl_event *, cl_event *)>(
           cl.clEnqueueReleaseD3D11ObjectsNV)},
  };
}
struct Env {
  void *dev;
  cl_context c;
  cl_command_queue q;
  Env() {
    CHECK_OK(rd.refdrv_d3d11_create_device(nullptr, &dev));
    c = make_ctx(CL_CONTEXT_D3D11_DEVICE_KHR, dev);
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
  CHECK_OK(rd.refdrv_d3d11_create_texture2d(dev, w, h, mips, arr, fmt, usage, samples, &t));
  return t;
}
size_t image_size(cl_mem m, cl_image_info what) {
  size_t v = 0;
  CHECK_OK(cl.clGetImageInfo(m, what, sizeof v, &v, nullptr));
  return v;
}
}  // namespace

// d3d11.get_device_ids: both sources and sets; foreign device -> CL_DEVICE_NOT_FOUND; bad values
TEST("d3d11.get_device_ids") {
  for (const D3D11Api &api : apis()) {
    void *a, *dev, *fa, *fdev, *d10;
    CHECK_OK(rd.refdrv_dxgi_create_adapter("DXGI Test", 1, &a));
    CHECK_OK(rd.refdrv_d3d11_create_device(a, &dev));
    CHECK_OK(rd.refdrv_dxgi_create_adapter("Foreign", 0, &fa));
    CHECK_OK(rd.refdrv_d3d11_create_device(fa, &fdev));
    CHECK_OK(rd.refdrv_d3d10_create_device(a, &d10));
    cl_uint n = 9;
    cl_device_id d = nullptr;
    for (cl_uint set : {CL_PREFERRED_DEVICES_FOR_D3D11_KHR, CL_ALL_DEVICES_FOR_D3D11_KHR}) {
      CHECK_OK(api.get(g_plat, CL_D3D11_DEVICE_KHR, dev, set, 1, &d, &n));
      CHECK(n == 1 && d == g_dev);
      CHECK_OK(api.get(g_plat, CL_D3D11_DXGI_ADAPTER_KHR, a, set, 1, &d, &n));
      CHECK(n == 1 && d == g_dev);
      CHECK_EQ(api.get(g_plat, CL_D3D11_DEVICE_KHR, fdev, set, 1, &d, &n), CL_DEVICE_NOT_FOUND);
      CHECK_EQ(n, 0);
      // A D3D10 device is not an ID3D11Device.
      CHECK_EQ(api.get(g_plat, CL_D3D11_DEVICE_KHR, d10, set, 0, nullptr, &n), CL_DEVICE_NOT_FOUND);
    }
    CHECK_EQ(api.get(g_plat, CL_D3D10_DEVICE_KHR, dev, CL_ALL_DEVICES_FOR_D3D11_KHR, 1, &d, &n), CL_INVALID_VALUE);
    CHECK_EQ(api.get(g_plat, CL_D3D11_DEVICE_KHR, dev, CL_ALL_DEVICES_FOR_D3D10_KHR, 1, &d, &n), CL_INVALID_VALUE);
    CHECK_EQ(api.get(g_plat, CL_D3D11_DEVICE_KHR, dev, CL_ALL_DEVICES_FOR_D3D11_KHR, 0, &d, &n), CL_INVALID_VALUE);
    CHECK_EQ(api.get(g_plat, CL_D3D11_DEVICE_KHR, dev, CL_ALL_DEVICES_FOR_D3D11_KHR, 1, nullptr, nullptr), CL_INVALID_VALUE);
    CHECK_EQ(api.get(nullptr, CL_D3D11_DEVICE_KHR, dev, CL_ALL_DEVICES_FOR_D3D11_KHR, 1, &d, &n), CL_INVALID_PLATFORM);
    for (auto r : {d10, fdev, fa, dev, a}) release_res(r);
  }
}

// d3d11.create_context: CL_INVALID_D3D11_DEVICE_KHR for a foreign or non-D3D11 device; the context holds the device
TEST("d3d11.create_context.invalid_device_and_reference") {
  cl_int e;
  void *fa, *fdev, *d10, *dev;
  CHECK_OK(rd.refdrv_dxgi_create_adapter("Foreign", 0, &fa));
  CHECK_OK(rd.refdrv_d3d11_create_device(fa, &fdev));
  CHECK_OK(rd.refdrv_d3d10_create_device(nullptr, &d10));
  CHECK_OK(rd.refdrv_d3d11_create_device(nullptr, &dev));
  CHECK(make_ctx(CL_CONTEXT_D3D11_DEVICE_KHR, fdev, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_D3D11_DEVICE_KHR);
  CHECK(make_ctx(CL_CONTEXT_D3D11_DEVICE_KHR, d10, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_D3D11_DEVICE_KHR);
  cl_context c = make_ctx(CL_CONTEXT_D3D11_DEVICE_KHR, dev, &e, true);
  CHECK_OK(e);
  CHECK_EQ(refcount(dev), 2);
  cl_bool b = 9;
  CHECK_OK(cl.clGetContextInfo(c, CL_CONTEXT_D3D11_PREFER_SHARED_RESOURCES_KHR, sizeof b, &b, nullptr));
  CHECK(b == CL_TRUE || b == CL_FALSE);
  cl.clReleaseContext(c);
  CHECK_EQ(refcount(dev), 1);
  for (auto r : {fdev, fa, d10, dev}) release_res(r);
}

// d3d11.create_from_buffer: one cl_mem per buffer; immutable, foreign, non-buffer -> INVALID_D3D11_RESOURCE; contents
TEST("d3d11.create_from_buffer") {
  for (const D3D11Api &api : apis()) {
    Env env;
    void *b, *imm, *other_dev, *ob;
    CHECK_OK(rd.refdrv_d3d11_create_buffer(env.dev, 128, 0, &b));
    CHECK_OK(rd.refdrv_d3d11_create_buffer(env.dev, 128, 1 /*IMMUTABLE*/, &imm));
    CHECK_OK(rd.refdrv_d3d11_create_device(nullptr, &other_dev));
    CHECK_OK(rd.refdrv_d3d11_create_buffer(other_dev, 128, 0, &ob));
    cl_int e;
    cl_mem m = api.buffer(env.c, CL_MEM_READ_WRITE, (ID3D11Buffer *)b, &e);
    CHECK_OK(e);
    size_t size = 0;
    CHECK_OK(cl.clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof size, &size, nullptr));
    CHECK_EQ(size, 128);
    CHECK_EQ(refcount(b), 2);
    CHECK(api.buffer(env.c, CL_MEM_READ_WRITE, (ID3D11Buffer *)b, &e) == nullptr);
    CHECK_EQ(e, CL_INVALID_D3D11_RESOURCE_KHR);
    CHECK(api.buffer(env.c, CL_MEM_READ_WRITE, (ID3D11Buffer *)imm, &e) == nullptr);
    CHECK_EQ(e, CL_INVALID_D3D11_RESOURCE_KHR);
    CHECK(api.buffer(env.c, CL_MEM_READ_WRITE, (ID3D11Buffer *)ob, &e) == nullptr);
    CHECK_EQ(e, CL_INVALID_D3D11_RESOURCE_KHR);
    CHECK(api.buffer(env.c, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, (ID3D11Buffer *)b, &e) == nullptr);
    CHECK_EQ(e, CL_INVALID_VALUE);
    CHECK(api.buffer(nullptr, CL_MEM_READ_WRITE, (ID3D11Buffer *)b, &e) == nullptr);
    CHECK_EQ(e, CL_INVALID_CONTEXT);
    void *t = tex2d(env.dev, 4, 4, 1, 1);
    CHECK(api.buffer(env.c, CL_MEM_READ_WRITE, (ID3D11Buffer *)t, &e) == nullptr);
    CHECK_EQ(e, CL_INVALID_D3D11_RESOURCE_KHR);
    // A context for another API: the D3D11 resource cannot be shared there.
    void *d10;
    CHECK_OK(rd.refdrv_d3d10_create_device(nullptr, &d10));
    cl_context c10 = make_ctx(CL_CONTEXT_D3D10_DEVICE_KHR, d10);
    CHECK(api.buffer(c10, CL_MEM_READ_WRITE, (ID3D11Buffer *)ob, &e) == nullptr);
    CHECK_EQ(e, CL_INVALID_D3D11_RESOURCE_KHR);
    cl.clReleaseContext(c10);
    release_res(d10);
    auto bytes = pattern(128, 7);
    write_res(b, 0, 0, bytes);
    CHECK_OK(api.acquire(env.q, 1, &m, 0, nullptr, nullptr));
    std::vector<uint8_t> out(128);
    CHECK_OK(cl.clEnqueueReadBuffer(env.q, m, CL_TRUE, 0, 128, out.data(), 0, nullptr, nullptr));
    CHECK(out == bytes);
    CHECK_OK(api.release(env.q, 1, &m, 0, nullptr, nullptr));
    CHECK_OK(cl.clFinish(env.q));
    cl.clReleaseMemObject(m);
    CHECK_EQ(refcount(b), 1);
    for (auto r : {b, imm, ob, other_dev, t}) release_res(r);
  }
}

// d3d11.create_from_texture2d: subresource = mip + slice * mips; bad index, multisampled, immutable, format
TEST("d3d11.create_from_texture2d.subresources_and_errors") {
  for (const D3D11Api &api : apis()) {
    Env env;
    void *t = tex2d(env.dev, 16, 8, 3, 2, 87 /*B8G8R8A8_UNORM*/);
    cl_int e;
    for (UINT sub = 0; sub < 6; sub++) {
      cl_mem m = api.tex2d(env.c, CL_MEM_READ_ONLY, (ID3D11Texture2D *)t, sub, &e);
      CHECK_OK(e);
      CHECK_EQ(image_size(m, CL_IMAGE_WIDTH), 16u >> (sub % 3));
      CHECK_EQ(image_size(m, CL_IMAGE_HEIGHT), 8u >> (sub % 3));
      cl_image_format f;
      CHECK_OK(cl.clGetImageInfo(m, CL_IMAGE_FORMAT, sizeof f, &f, nullptr));
      CHECK(f.image_channel_order == CL_BGRA && f.image_channel_data_type == CL_UNORM_INT8);
      UINT got = 99;
      CHECK_OK(cl.clGetImageInfo(m, CL_IMAGE_D3D11_SUBRESOURCE_KHR, sizeof got, &got, nullptr));
      CHECK_EQ(got, sub);
      CHECK(api.tex2d(env.c, CL_MEM_READ_ONLY, (ID3D11Texture2D *)t, sub, &e) == nullptr);
      CHECK_EQ(e, CL_INVALID_D3D11_RESOURCE_KHR);
      cl.clReleaseMemObject(m);
    }
    CHECK(api.tex2d(env.c, CL_MEM_READ_ONLY, (ID3D11Texture2D *)t, 6, &e) == nullptr);
    CHECK_EQ(e, CL_INVALID_VALUE);
    void *ms = tex2d(env.dev, 4, 4, 1, 1, 28, 0, 4), *imm = tex2d(env.dev, 4, 4, 1, 1, 28, 1);
    void *srgb = tex2d(env.dev, 4, 4, 1, 1, 29 /*R8G8B8A8_UNORM_SRGB: not in the table*/);
    CHECK(api.tex2d(env.c, CL_MEM_READ_ONLY, (ID3D11Texture2D *)ms, 0, &e) == nullptr);
    CHECK_EQ(e, CL_INVALID_D3D11_RESOURCE_KHR);
    CHECK(api.tex2d(env.c, CL_MEM_READ_ONLY, (ID3D11Texture2D *)imm, 0, &e) == nullptr);
    CHECK_EQ(e, CL_INVALID_D3D11_RESOURCE_KHR);
    CHECK(api.tex2d(env.c, CL_MEM_READ_ONLY, (ID3D11Texture2D *)srgb, 0, &e) == nullptr);
    CHECK_EQ(e, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    void *t3;
    CHECK_OK(rd.refdrv_d3d11_create_texture3d(env.dev, 4, 4, 4, 1, 28, 0, &t3));
    CHECK(api.tex2d(env.c, CL_MEM_READ_ONLY, (ID3D11Texture2D *)t3, 0, &e) == nullptr);
    CHECK_EQ(e, CL_INVALID_D3D11_RESOURCE_KHR);
    for (auto r : {t, ms, imm, srgb, t3}) release_res(r);
  }
}

// d3d11.create_from_texture3d: a 3D image per mip level; 2D texture -> INVALID_D3D11_RESOURCE
TEST("d3d11.create_from_texture3d") {
  for (const D3D11Api &api : apis()) {
    Env env;
    void *t;
    CHECK_OK(rd.refdrv_d3d11_create_texture3d(env.dev, 16, 8, 4, 2, 41 /*R32_FLOAT*/, 0, &t));
    cl_int e;
    cl_mem m = api.tex3d(env.c, CL_MEM_READ_WRITE, (ID3D11Texture3D *)t, 1, &e);
    CHECK_OK(e);
    CHECK_EQ(image_size(m, CL_IMAGE_WIDTH), 8);
    CHECK_EQ(image_size(m, CL_IMAGE_HEIGHT), 4);
    CHECK_EQ(image_size(m, CL_IMAGE_DEPTH), 2);
    CHECK(api.tex3d(env.c, CL_MEM_READ_WRITE, (ID3D11Texture3D *)t, 2, &e) == nullptr);
    CHECK_EQ(e, CL_INVALID_VALUE);
    void *t2 = tex2d(env.dev, 4, 4, 1, 1);
    CHECK(api.tex3d(env.c, CL_MEM_READ_WRITE, (ID3D11Texture3D *)t2, 0, &e) == nullptr);
    CHECK_EQ(e, CL_INVALID_D3D11_RESOURCE_KHR);
    cl.clReleaseMemObject(m);
    release_res(t);
    release_res(t2);
  }
}

// d3d11.mem_and_image_info: CL_MEM_D3D11_RESOURCE / CL_IMAGE_D3D11_SUBRESOURCE; others -> INVALID_D3D11_RESOURCE
TEST("d3d11.mem_and_image_info") {
  Env env;
  void *b, *t = tex2d(env.dev, 4, 4, 1, 1);
  CHECK_OK(rd.refdrv_d3d11_create_buffer(env.dev, 64, 0, &b));
  cl_int e;
  cl_mem mb = cl.clCreateFromD3D11BufferKHR(env.c, CL_MEM_READ_WRITE, (ID3D11Buffer *)b, &e);
  cl_mem mt = cl.clCreateFromD3D11Texture2DNV(env.c, CL_MEM_READ_WRITE, (ID3D11Texture2D *)t, 0, &e);
  cl_mem plain = cl.clCreateBuffer(env.c, CL_MEM_READ_WRITE, 16, nullptr, &e);
  void *r;
  CHECK_OK(cl.clGetMemObjectInfo(mb, CL_MEM_D3D11_RESOURCE_KHR, sizeof r, &r, nullptr));
  CHECK(r == b);
  CHECK_OK(cl.clGetMemObjectInfo(mt, CL_MEM_D3D11_RESOURCE_NV, sizeof r, &r, nullptr));
  CHECK(r == t);
  CHECK_EQ(cl.clGetMemObjectInfo(plain, CL_MEM_D3D11_RESOURCE_KHR, sizeof r, &r, nullptr), CL_INVALID_D3D11_RESOURCE_KHR);
  UINT sub = 9;
  CHECK_OK(cl.clGetImageInfo(mt, CL_IMAGE_D3D11_SUBRESOURCE_NV, sizeof sub, &sub, nullptr));
  CHECK_EQ(sub, 0);
  cl_mem pimg = image2d(env.c, CL_RGBA, CL_UNORM_INT8, 4, 4);
  CHECK_EQ(cl.clGetImageInfo(pimg, CL_IMAGE_D3D11_SUBRESOURCE_KHR, sizeof sub, &sub, nullptr), CL_INVALID_D3D11_RESOURCE_KHR);
  for (auto m : {mb, mt, plain, pimg}) cl.clReleaseMemObject(m);
  release_res(b);
  release_res(t);
}

// d3d11.acquire_release: command types per extension; twice / unacquired / use unacquired / other context
TEST("d3d11.acquire_release") {
  for (const D3D11Api &api : apis()) {
    bool nv = api.name[0] == 'N';
    Env env;
    void *t = tex2d(env.dev, 4, 4, 1, 1);
    cl_int e;
    cl_mem m = api.tex2d(env.c, CL_MEM_READ_WRITE, (ID3D11Texture2D *)t, 0, &e);
    expect_use_fails(env.q, m, CL_D3D11_RESOURCE_NOT_ACQUIRED_KHR);
    CHECK_EQ(api.release(env.q, 1, &m, 0, nullptr, nullptr), CL_D3D11_RESOURCE_NOT_ACQUIRED_KHR);
    cl_event a, r;
    CHECK_OK(api.acquire(env.q, 1, &m, 0, nullptr, &a));
    CHECK_EQ(api.acquire(env.q, 1, &m, 0, nullptr, nullptr), CL_D3D11_RESOURCE_ALREADY_ACQUIRED_KHR);
    CHECK_OK(api.release(env.q, 1, &m, 0, nullptr, &r));
    CHECK_OK(cl.clWaitForEvents(1, &r));
    CHECK_EQ(event_type(a), nv ? CL_COMMAND_ACQUIRE_D3D11_OBJECTS_NV : CL_COMMAND_ACQUIRE_D3D11_OBJECTS_KHR);
    CHECK_EQ(event_type(r), nv ? CL_COMMAND_RELEASE_D3D11_OBJECTS_NV : CL_COMMAND_RELEASE_D3D11_OBJECTS_KHR);
    cl.clReleaseEvent(a);
    cl.clReleaseEvent(r);
    CHECK_EQ(api.acquire(env.q, 0, &m, 0, nullptr, nullptr), CL_INVALID_VALUE);
    cl_context plain = make_ctx();
    cl_command_queue pq = make_queue(plain);
    CHECK_EQ(api.acquire(pq, 1, &m, 0, nullptr, nullptr), CL_INVALID_CONTEXT);
    cl.clReleaseCommandQueue(pq);
    cl.clReleaseContext(plain);
    cl.clReleaseMemObject(m);
    release_res(t);
  }
}

// d3d11.nv12: subresource 2*slice is Y (CL_R, full size), 2*slice+1 is UV (CL_RG, half size); bytes are the planes
TEST("d3d11.nv12_planes") {
  for (const D3D11Api &api : apis()) {
    Env env;
    void *t = tex2d(env.dev, 16, 8, 1, 2, 103 /*DXGI_FORMAT_NV12*/);
    cl_int e;
    for (UINT sub = 0; sub < 4; sub++) {
      cl_mem m = api.tex2d(env.c, CL_MEM_READ_ONLY, (ID3D11Texture2D *)t, sub, &e);
      CHECK_OK(e);
      cl_image_format f;
      CHECK_OK(cl.clGetImageInfo(m, CL_IMAGE_FORMAT, sizeof f, &f, nullptr));
      CHECK_EQ(f.image_channel_order, sub % 2 ? CL_RG : CL_R);
      CHECK_EQ(f.image_channel_data_type, CL_UNORM_INT8);
      CHECK_EQ(image_size(m, CL_IMAGE_WIDTH), sub % 2 ? 8 : 16);
      CHECK_EQ(image_size(m, CL_IMAGE_HEIGHT), sub % 2 ? 4 : 8);
      size_t n = sub % 2 ? 8 * 4 * 2 : 16 * 8;
      auto bytes = pattern(n, uint8_t(sub + 1));
      write_res(t, sub, 0, bytes);
      CHECK_OK(api.acquire(env.q, 1, &m, 0, nullptr, nullptr));
      auto got = read_image(env.q, m, sub % 2 ? 8 : 16, sub % 2 ? 4 : 8, sub % 2 ? 2 : 1);
      CHECK(got == bytes);
      CHECK_OK(api.release(env.q, 1, &m, 0, nullptr, nullptr));
      CHECK_OK(cl.clFinish(env.q));
      cl.clReleaseMemObject(m);
    }
    CHECK(api.tex2d(env.c, CL_MEM_READ_ONLY, (ID3D11Texture2D *)t, 4, &e) == nullptr);
    CHECK_EQ(e, CL_INVALID_VALUE);
    release_res(t);
  }
}
