// test_core.cpp - ICD and core OpenCL behaviour of the reference driver.
#include "harness.h"

TEST("icd.platform_info") {
  char buf[512];
  CHECK_OK(cl.clGetPlatformInfo(g_plat, CL_PLATFORM_NAME, sizeof buf, buf, nullptr));
  CHECK(!strcmp(buf, "opencl-interop reference driver"));
  CHECK_OK(cl.clGetPlatformInfo(g_plat, CL_PLATFORM_VENDOR, sizeof buf, buf, nullptr));
  CHECK(!strcmp(buf, "opencl-interop"));
  CHECK_OK(cl.clGetPlatformInfo(g_plat, CL_PLATFORM_VERSION, sizeof buf, buf, nullptr));
  CHECK(!strcmp(buf, "OpenCL 1.2 opencl-interop-ref"));
  CHECK_OK(cl.clGetPlatformInfo(g_plat, CL_PLATFORM_ICD_SUFFIX_KHR, sizeof buf, buf, nullptr));
  CHECK(!strcmp(buf, "REF"));
  CHECK_OK(cl.clGetPlatformInfo(g_plat, CL_PLATFORM_EXTENSIONS, sizeof buf, buf, nullptr));
  for (auto e : {"cl_khr_icd", "cl_nv_d3d9_sharing", "cl_khr_d3d10_sharing", "cl_intel_dx9_media_sharing", "cl_khr_dx9_media_sharing",
                 "cl_intel_va_api_media_sharing"})
    CHECK(strstr(buf, e));
  CHECK_OK(cl.clGetDeviceInfo(g_dev, CL_DEVICE_EXTENSIONS, sizeof buf, buf, nullptr));
  for (auto e : {"cl_khr_icd", "cl_nv_d3d9_sharing", "cl_khr_d3d10_sharing", "cl_intel_dx9_media_sharing", "cl_khr_dx9_media_sharing",
                 "cl_intel_va_api_media_sharing"})
    CHECK(strstr(buf, e));
}

TEST("icd.device_info") {
  char buf[512];
  cl_device_type t;
  CHECK_OK(cl.clGetDeviceInfo(g_dev, CL_DEVICE_TYPE, sizeof t, &t, nullptr));
  CHECK_EQ(t, CL_DEVICE_TYPE_GPU);
  CHECK_OK(cl.clGetDeviceInfo(g_dev, CL_DEVICE_NAME, sizeof buf, buf, nullptr));
  CHECK(!strcmp(buf, "opencl-interop reference device"));
  cl_bool b;
  CHECK_OK(cl.clGetDeviceInfo(g_dev, CL_DEVICE_COMPILER_AVAILABLE, sizeof b, &b, nullptr));
  CHECK_EQ(b, CL_FALSE);
  CHECK_OK(cl.clGetDeviceInfo(g_dev, CL_DEVICE_IMAGE_SUPPORT, sizeof b, &b, nullptr));
  CHECK_EQ(b, CL_TRUE);
  CHECK_OK(cl.clGetDeviceInfo(g_dev, CL_DEVICE_PREFERRED_INTEROP_USER_SYNC, sizeof b, &b, nullptr));
  CHECK_OK(cl.clGetDeviceInfo(g_dev, CL_DEVICE_BUILT_IN_KERNELS, sizeof buf, buf, nullptr));
  CHECK(!strcmp(buf, "copy_buffer;copy_image;invert_image;nv12_to_rgba;bgra_to_nv12"));
  cl_ulong mem;
  CHECK_OK(cl.clGetDeviceInfo(g_dev, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof mem, &mem, nullptr));
  CHECK(mem > 0);
  cl_uint cu;
  CHECK_OK(cl.clGetDeviceInfo(g_dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, nullptr));
  CHECK(cu >= 1);
  size_t w;
  CHECK_OK(cl.clGetDeviceInfo(g_dev, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof w, &w, nullptr));
  CHECK(w >= 8192);
  CHECK_EQ(cl.clGetDeviceInfo(g_dev, CL_DEVICE_NAME, 2, buf, nullptr), CL_INVALID_VALUE);
  CHECK_EQ(cl.clGetDeviceInfo(g_dev, 0x7777, sizeof buf, buf, nullptr), CL_INVALID_VALUE);
  cl_device_id d;
  CHECK_EQ(cl.clGetDeviceIDs(g_plat, CL_DEVICE_TYPE_CPU, 1, &d, nullptr), CL_DEVICE_NOT_FOUND);
}

static const char *kExtNames[] = {"clGetDeviceIDsFromD3D9NV",
                                  "clCreateFromD3D9VertexBufferNV",
                                  "clCreateFromD3D9IndexBufferNV",
                                  "clCreateFromD3D9SurfaceNV",
                                  "clCreateFromD3D9TextureNV",
                                  "clCreateFromD3D9CubeTextureNV",
                                  "clCreateFromD3D9VolumeTextureNV",
                                  "clEnqueueAcquireD3D9ObjectsNV",
                                  "clEnqueueReleaseD3D9ObjectsNV",
                                  "clGetDeviceIDsFromD3D10KHR",
                                  "clCreateFromD3D10BufferKHR",
                                  "clCreateFromD3D10Texture2DKHR",
                                  "clCreateFromD3D10Texture3DKHR",
                                  "clEnqueueAcquireD3D10ObjectsKHR",
                                  "clEnqueueReleaseD3D10ObjectsKHR",
                                  "clGetDeviceIDsFromDX9INTEL",
                                  "clCreateFromDX9MediaSurfaceINTEL",
                                  "clEnqueueAcquireDX9ObjectsINTEL",
                                  "clEnqueueReleaseDX9ObjectsINTEL",
                                  "clGetDeviceIDsFromDX9MediaAdapterKHR",
                                  "clCreateFromDX9MediaSurfaceKHR",
                                  "clEnqueueAcquireDX9MediaSurfacesKHR",
                                  "clEnqueueReleaseDX9MediaSurfacesKHR",
                                  "clGetDeviceIDsFromVA_APIMediaAdapterINTEL",
                                  "clCreateFromVA_APIMediaSurfaceINTEL",
                                  "clEnqueueAcquireVA_APIMediaSurfacesINTEL",
                                  "clEnqueueReleaseVA_APIMediaSurfacesINTEL"};

TEST("icd.extension_function_address.all_27") {
  static_assert(sizeof(kExtNames) / sizeof(kExtNames[0]) == 27, "27 entry points");
  for (auto n : kExtNames) {
    if (!cl.clGetExtensionFunctionAddressForPlatform(g_plat, n)) test_fail(__FILE__, __LINE__, n);
  }
  CHECK(cl.clGetExtensionFunctionAddressForPlatform(g_plat, "clNoSuchFunctionREF") == nullptr);
}

TEST("icd.with_pocl.both_platforms_listed") {
  cl_uint n = 0;
  CHECK_OK(cl.clGetPlatformIDs(0, nullptr, &n));
  std::vector<cl_platform_id> ps(n);
  CHECK_OK(cl.clGetPlatformIDs(n, ps.data(), nullptr));
  bool pocl = false;
  for (auto p : ps) {
    char name[256] = {0};
    cl.clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, nullptr);
    if (strstr(name, "Portable Computing Language")) pocl = true;
  }
  if (!pocl) {
    printf("SKIP: PoCL is not installed\n");
    exit(77);
  }
}

typedef void *(CL_API_CALL *GetAddr)(const char *);
TEST("direct.load_by_path.exports_and_dispatch") {
  // every object starts with the dispatch table; D3D10 (75-80) and DX9 media
  // (113, 116-118) KHR slots hold the driver's own entry points
  void *const *table = *reinterpret_cast<void *const *const *>(g_plat);
  CHECK(table == *reinterpret_cast<void *const *const *>(g_dev));
  CHECK(table[0] == dlsym_driver("clGetPlatformIDs"));
  CHECK(table[75] == dlsym_driver("clGetDeviceIDsFromD3D10KHR"));
  CHECK(table[80] == dlsym_driver("clEnqueueReleaseD3D10ObjectsKHR"));
  CHECK(table[113] == dlsym_driver("clCreateFromDX9MediaSurfaceKHR"));
  CHECK(table[116] == dlsym_driver("clGetDeviceIDsFromDX9MediaAdapterKHR"));
  CHECK(table[118] == dlsym_driver("clEnqueueReleaseDX9MediaSurfacesKHR"));
  CHECK(table[107] == dlsym_driver("clGetExtensionFunctionAddressForPlatform"));
  CHECK(dlsym_driver("clIcdGetPlatformIDsKHR"));
  for (auto n : kExtNames) {
    void *a = cl.clGetExtensionFunctionAddress(n), *b = cl.clGetExtensionFunctionAddressForPlatform(g_plat, n);
    if (!a || a != b || a != dlsym_driver(n)) test_fail(__FILE__, __LINE__, n);
  }
  CHECK(cl.clGetExtensionFunctionAddress("clIcdGetPlatformIDsKHR") == dlsym_driver("clIcdGetPlatformIDsKHR"));
  cl_context c = make_ctx();
  CHECK(*reinterpret_cast<void *const *>(c) == (const void *)table);
  cl_command_queue q = make_queue(c);
  CHECK(*reinterpret_cast<void *const *>(q) == (const void *)table);
  cl.clReleaseCommandQueue(q);
  cl.clReleaseContext(c);
}

TEST("direct.load_by_path.interop_roundtrip") {
  void *dev = d3d9_device(REFDRV_D3D9EX);
  void *surf = nullptr;
  CHECK_OK(rd.refdrv_d3d9_create_surface(dev, 21, 8, 4, 0, 0, &surf, nullptr));
  cl_context c = make_ctx(CL_CONTEXT_ADAPTER_D3D9EX_KHR, dev);
  cl_command_queue q = make_queue(c);
  cl_dx9_surface_info_khr info{(IDirect3DSurface9 *)surf, nullptr};
  cl_int e;
  cl_mem m = cl.clCreateFromDX9MediaSurfaceKHR(c, CL_MEM_READ_WRITE, CL_ADAPTER_D3D9EX_KHR, &info, 0, &e);
  CHECK_OK(e);
  auto bytes = pattern(8 * 4 * 4, 3);
  write_res(surf, 0, 0, bytes);
  CHECK_OK(cl.clEnqueueAcquireDX9MediaSurfacesKHR(q, 1, &m, 0, nullptr, nullptr));
  CHECK(read_image(q, m, 8, 4, 4) == bytes);
  CHECK_OK(cl.clEnqueueReleaseDX9MediaSurfacesKHR(q, 1, &m, 0, nullptr, nullptr));
  CHECK_OK(cl.clFinish(q));
  cl.clReleaseMemObject(m);
  cl.clReleaseCommandQueue(q);
  cl.clReleaseContext(c);
  release_res(surf);
  release_res(dev);
}

static void CL_API_CALL notify_cb(const char *, const void *, size_t, void *) {}

TEST("core.context.properties") {
  cl_int e;
  cl_context_properties bad[] = {0x7777, 1, 0};
  CHECK(cl.clCreateContext(bad, 1, &g_dev, nullptr, nullptr, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_PROPERTY);
  cl_context_properties dup[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)g_plat, CL_CONTEXT_PLATFORM, (cl_context_properties)g_plat, 0};
  CHECK(cl.clCreateContext(dup, 1, &g_dev, nullptr, nullptr, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_PROPERTY);
  int dummy;
  CHECK(cl.clCreateContext(nullptr, 1, &g_dev, nullptr, &dummy, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_VALUE);
  CHECK(cl.clCreateContext(nullptr, 0, nullptr, nullptr, nullptr, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_VALUE);
  cl_context c = make_ctx(0, nullptr, nullptr, true);
  cl_context_properties got[8];
  size_t sz;
  CHECK_OK(cl.clGetContextInfo(c, CL_CONTEXT_PROPERTIES, sizeof got, got, &sz));
  CHECK_EQ(sz, 5 * sizeof(cl_context_properties));
  CHECK_EQ(got[2], CL_CONTEXT_INTEROP_USER_SYNC);
  CHECK_EQ(got[3], CL_TRUE);
  cl_bool pref = 7;
  CHECK_OK(cl.clGetContextInfo(c, CL_CONTEXT_D3D10_PREFER_SHARED_RESOURCES_KHR, sizeof pref, &pref, nullptr));
  CHECK(pref == CL_FALSE || pref == CL_TRUE);
  cl_uint refs;
  CHECK_OK(cl.clRetainContext(c));
  CHECK_OK(cl.clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof refs, &refs, nullptr));
  CHECK_EQ(refs, 2);
  CHECK_OK(cl.clReleaseContext(c));
  CHECK_OK(cl.clReleaseContext(c));
  cl_context c2 = cl.clCreateContext(nullptr, 1, &g_dev, notify_cb, &dummy, &e);
  CHECK_OK(e);
  cl.clReleaseContext(c2);
}

TEST("core.context.from_type") {
  cl_int e;
  cl_context_properties p[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)g_plat, 0};
  cl_context c = cl.clCreateContextFromType(p, CL_DEVICE_TYPE_GPU, nullptr, nullptr, &e);
  CHECK_OK(e);
  cl.clReleaseContext(c);
  CHECK(cl.clCreateContextFromType(p, CL_DEVICE_TYPE_CPU, nullptr, nullptr, &e) == nullptr);
  CHECK_EQ(e, CL_DEVICE_NOT_FOUND);
  CHECK(cl.clCreateContextFromType(p, 0, nullptr, nullptr, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_DEVICE_TYPE);
}

TEST("core.queue.in_order_out_of_order_profiling") {
  cl_context c = make_ctx();
  cl_command_queue q1 = make_queue(c, CL_QUEUE_PROFILING_ENABLE);
  cl_queue_properties qp[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE, 0};
  cl_int e;
  cl_command_queue q2 = cl.clCreateCommandQueueWithProperties(c, g_dev, qp, &e);
  CHECK_OK(e);
  cl_command_queue_properties props;
  CHECK_OK(cl.clGetCommandQueueInfo(q2, CL_QUEUE_PROPERTIES, sizeof props, &props, nullptr));
  CHECK_EQ(props, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
  CHECK(cl.clCreateCommandQueue(c, g_dev, 1 << 7, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_VALUE);
  cl_mem b = cl.clCreateBuffer(c, CL_MEM_READ_WRITE, 256, nullptr, &e);
  auto data = pattern(256, 1);
  for (auto q : {q1, q2}) {
    cl_event ev;
    CHECK_OK(cl.clEnqueueWriteBuffer(q, b, CL_TRUE, 0, 256, data.data(), 0, nullptr, &ev));
    cl_ulong t[4];
    for (int i = 0; i < 4; i++) CHECK_OK(cl.clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_QUEUED + i, sizeof t[i], &t[i], nullptr));
    CHECK(t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3]);
    cl.clReleaseEvent(ev);
  }
  cl_command_queue q3 = make_queue(c);
  cl_event ev;
  CHECK_OK(cl.clEnqueueWriteBuffer(q3, b, CL_TRUE, 0, 4, data.data(), 0, nullptr, &ev));
  cl_ulong t;
  CHECK_EQ(cl.clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t, &t, nullptr), CL_PROFILING_INFO_NOT_AVAILABLE);
  cl.clReleaseEvent(ev);
  cl.clReleaseMemObject(b);
  for (auto q : {q1, q2, q3}) cl.clReleaseCommandQueue(q);
  cl.clReleaseContext(c);
}

TEST("core.buffer.read_write_copy_fill_map_rect") {
  cl_context c = make_ctx();
  cl_command_queue q = make_queue(c);
  cl_int e;
  auto data = pattern(1024, 9);
  cl_mem a = cl.clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 1024, data.data(), &e);
  CHECK_OK(e);
  cl_mem b = cl.clCreateBuffer(c, CL_MEM_READ_WRITE, 1024, nullptr, &e);
  CHECK_OK(cl.clEnqueueCopyBuffer(q, a, b, 0, 0, 1024, 0, nullptr, nullptr));
  std::vector<uint8_t> out(1024);
  CHECK_OK(cl.clEnqueueReadBuffer(q, b, CL_TRUE, 0, 1024, out.data(), 0, nullptr, nullptr));
  CHECK(out == data);
  uint16_t pat = 0xABCD;
  CHECK_OK(cl.clEnqueueFillBuffer(q, b, &pat, 2, 16, 32, 0, nullptr, nullptr));
  CHECK_EQ(cl.clEnqueueFillBuffer(q, b, &pat, 3, 0, 3, 0, nullptr, nullptr), CL_INVALID_VALUE);
  auto *p = static_cast<uint16_t *>(cl.clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 16, 32, 0, nullptr, nullptr, &e));
  CHECK_OK(e);
  for (int i = 0; i < 16; i++) CHECK_EQ(p[i], 0xABCD);
  p[0] = 0x1234;
  cl_uint mc;
  CHECK_OK(cl.clGetMemObjectInfo(b, CL_MEM_MAP_COUNT, sizeof mc, &mc, nullptr));
  CHECK_EQ(mc, 1);
  CHECK_OK(cl.clEnqueueUnmapMemObject(q, b, p, 0, nullptr, nullptr));
  CHECK_EQ(cl.clEnqueueUnmapMemObject(q, b, p, 0, nullptr, nullptr), CL_INVALID_VALUE);
  CHECK_OK(cl.clEnqueueReadBuffer(q, b, CL_TRUE, 16, 2, out.data(), 0, nullptr, nullptr));
  CHECK_EQ(out[0] | (out[1] << 8), 0x1234);
  size_t bo[3] = {4, 1, 0}, ho[3] = {0, 0, 0}, r[3] = {4, 2, 1};
  uint8_t rect[8];
  CHECK_OK(cl.clEnqueueReadBufferRect(q, a, CL_TRUE, bo, ho, r, 32, 0, 4, 0, rect, 0, nullptr, nullptr));
  for (int y = 0; y < 2; y++)
    for (int x = 0; x < 4; x++) CHECK_EQ(rect[y * 4 + x], data[4 + x + (1 + y) * 32]);
  CHECK_EQ(cl.clEnqueueReadBuffer(q, a, CL_TRUE, 1000, 100, out.data(), 0, nullptr, nullptr), CL_INVALID_VALUE);
  CHECK_EQ(cl.clEnqueueCopyBuffer(q, a, a, 0, 8, 16, 0, nullptr, nullptr), CL_MEM_COPY_OVERLAP);
  CHECK(cl.clCreateBuffer(c, CL_MEM_READ_WRITE, 0, nullptr, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_BUFFER_SIZE);
  CHECK(cl.clCreateBuffer(c, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 4, nullptr, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_VALUE);
  CHECK(cl.clCreateBuffer(c, CL_MEM_USE_HOST_PTR, 4, nullptr, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_HOST_PTR);
  cl.clReleaseMemObject(a);
  cl.clReleaseMemObject(b);
  cl.clReleaseCommandQueue(q);
  cl.clReleaseContext(c);
}

static int g_dtor_calls = 0;
static void CL_API_CALL dtor_cb(cl_mem, void *ud) { g_dtor_calls += *(int *)ud; }

TEST("core.buffer.sub_buffer_and_destructor_callback") {
  cl_context c = make_ctx();
  cl_command_queue q = make_queue(c);
  cl_int e;
  auto data = pattern(1024, 5);
  cl_mem a = cl.clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 1024, data.data(), &e);
  cl_buffer_region r{128, 256};
  cl_mem s = cl.clCreateSubBuffer(a, CL_MEM_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &r, &e);
  CHECK_OK(e);
  std::vector<uint8_t> out(256);
  CHECK_OK(cl.clEnqueueReadBuffer(q, s, CL_TRUE, 0, 256, out.data(), 0, nullptr, nullptr));
  CHECK(std::equal(out.begin(), out.end(), data.begin() + 128));
  cl_mem assoc;
  size_t off;
  CHECK_OK(cl.clGetMemObjectInfo(s, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, nullptr));
  CHECK(assoc == a);
  CHECK_OK(cl.clGetMemObjectInfo(s, CL_MEM_OFFSET, sizeof off, &off, nullptr));
  CHECK_EQ(off, 128);
  cl_buffer_region bad{3, 4};
  CHECK(cl.clCreateSubBuffer(a, 0, CL_BUFFER_CREATE_TYPE_REGION, &bad, &e) == nullptr);
  CHECK_EQ(e, CL_MISALIGNED_SUB_BUFFER_OFFSET);
  int one = 1, ten = 10;
  CHECK_OK(cl.clSetMemObjectDestructorCallback(a, dtor_cb, &one));
  CHECK_OK(cl.clSetMemObjectDestructorCallback(a, dtor_cb, &ten));
  CHECK_OK(cl.clReleaseMemObject(a));
  CHECK_EQ(g_dtor_calls, 0);  // the sub-buffer keeps its parent alive
  CHECK_OK(cl.clReleaseMemObject(s));
  CHECK_EQ(g_dtor_calls, 11);
  cl.clReleaseCommandQueue(q);
  cl.clReleaseContext(c);
}

TEST("core.image.formats_2d_3d_rw_copy_fill_map") {
  cl_context c = make_ctx();
  cl_command_queue q = make_queue(c);
  cl_uint n;
  CHECK_OK(cl.clGetSupportedImageFormats(c, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &n));
  std::vector<cl_image_format> f(n);
  CHECK_OK(cl.clGetSupportedImageFormats(c, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, n, f.data(), nullptr));
  auto has = [&](cl_channel_order o, cl_channel_type t) {
    for (auto &x : f)
      if (x.image_channel_order == o && x.image_channel_data_type == t) return true;
    return false;
  };
  CHECK(has(CL_R, CL_UNORM_INT8) && has(CL_RG, CL_UNORM_INT8) && has(CL_RGBA, CL_UNORM_INT8) && has(CL_BGRA, CL_UNORM_INT8) &&
        has(CL_A, CL_UNORM_INT8) && has(CL_RGBA, CL_FLOAT) && has(CL_RG, CL_HALF_FLOAT) && has(CL_R, CL_SIGNED_INT32));
  cl_mem a = image2d(c, CL_RGBA, CL_UNORM_INT8, 16, 8);
  auto data = pattern(16 * 8 * 4, 2);
  size_t o[3] = {0, 0, 0}, r[3] = {16, 8, 1};
  CHECK_OK(cl.clEnqueueWriteImage(q, a, CL_TRUE, o, r, 0, 0, data.data(), 0, nullptr, nullptr));
  cl_mem b = image2d(c, CL_RGBA, CL_UNORM_INT8, 16, 8);
  CHECK_OK(cl.clEnqueueCopyImage(q, a, b, o, o, r, 0, nullptr, nullptr));
  CHECK(read_image(q, b, 16, 8, 4) == data);
  float red[4] = {1, 0, 0, 1};
  size_t o2[3] = {2, 2, 0}, r2[3] = {2, 2, 1};
  CHECK_OK(cl.clEnqueueFillImage(q, b, red, o2, r2, 0, nullptr, nullptr));
  size_t rp, sp;
  cl_int e;
  auto *px = static_cast<uint8_t *>(cl.clEnqueueMapImage(q, b, CL_TRUE, CL_MAP_READ, o2, r2, &rp, &sp, 0, nullptr, nullptr, &e));
  CHECK_OK(e);
  CHECK_EQ(rp, 64);
  CHECK(px[0] == 255 && px[1] == 0 && px[2] == 0 && px[3] == 255);
  CHECK_OK(cl.clEnqueueUnmapMemObject(q, b, px, 0, nullptr, nullptr));
  cl_mem bad = image2d(c, CL_RGBA, CL_FLOAT, 4, 4);
  CHECK_EQ(cl.clEnqueueCopyImage(q, a, bad, o, o, r2, 0, nullptr, nullptr), CL_IMAGE_FORMAT_MISMATCH);
  cl_image_format f3{CL_R, CL_UNORM_INT8};
  cl_image_desc d3{};
  d3.image_type = CL_MEM_OBJECT_IMAGE3D;
  d3.image_width = 4;
  d3.image_height = 3;
  d3.image_depth = 2;
  cl_mem v = cl.clCreateImage(c, CL_MEM_READ_WRITE, &f3, &d3, nullptr, &e);
  CHECK_OK(e);
  auto vd = pattern(24, 7);
  size_t r3[3] = {4, 3, 2};
  CHECK_OK(cl.clEnqueueWriteImage(q, v, CL_TRUE, o, r3, 0, 0, vd.data(), 0, nullptr, nullptr));
  CHECK(read_image(q, v, 4, 3, 1, 2) == vd);
  size_t depth;
  CHECK_OK(cl.clGetImageInfo(v, CL_IMAGE_DEPTH, sizeof depth, &depth, nullptr));
  CHECK_EQ(depth, 2);
  cl_image_format rgb{CL_RGB, CL_UNORM_INT8};
  CHECK(cl.clCreateImage(c, CL_MEM_READ_WRITE, &rgb, &d3, nullptr, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  for (auto m : {a, b, bad, v}) cl.clReleaseMemObject(m);
  cl.clReleaseCommandQueue(q);
  cl.clReleaseContext(c);
}

#include <atomic>
#include <thread>
static std::atomic<int> g_cb_count{0};
static std::thread::id g_cb_thread;
static std::atomic<cl_int> g_cb_status{99};
static void CL_API_CALL ev_cb(cl_event, cl_int st, void *) {
  g_cb_thread = std::this_thread::get_id();
  g_cb_status = st;
  g_cb_count++;
}

TEST("core.events.user_event_callbacks_wait") {
  cl_context c = make_ctx();
  cl_command_queue q = make_queue(c);
  cl_int e;
  cl_event u = cl.clCreateUserEvent(c, &e);
  CHECK_OK(e);
  CHECK_EQ(event_status(u), CL_SUBMITTED);
  cl_mem b = cl.clCreateBuffer(c, CL_MEM_READ_WRITE, 64, nullptr, &e);
  uint32_t pat = 0x01020304;
  cl_event fill;
  CHECK_OK(cl.clEnqueueFillBuffer(q, b, &pat, 4, 0, 64, 1, &u, &fill));
  CHECK_OK(cl.clSetEventCallback(fill, CL_COMPLETE, ev_cb, nullptr));
  CHECK(event_status(fill) > 0);  // blocked on the user event
  CHECK_OK(cl.clSetUserEventStatus(u, CL_COMPLETE));
  CHECK_EQ(cl.clSetUserEventStatus(u, CL_COMPLETE), CL_INVALID_OPERATION);
  CHECK_OK(cl.clWaitForEvents(1, &fill));
  CHECK_EQ(event_status(fill), CL_COMPLETE);
  CHECK_EQ(event_type(fill), CL_COMMAND_FILL_BUFFER);
  CHECK_OK(rd.refdrv_wait_idle(2000));
  CHECK_EQ(g_cb_count.load(), 1);
  CHECK(g_cb_thread != std::this_thread::get_id());  // from the driver's worker thread
  CHECK_EQ(g_cb_status.load(), CL_COMPLETE);
  // a callback registered after completion still fires
  CHECK_OK(cl.clSetEventCallback(fill, CL_SUBMITTED, ev_cb, nullptr));
  CHECK_OK(rd.refdrv_wait_idle(2000));
  CHECK_EQ(g_cb_count.load(), 2);
  // a failed user event fails the commands waiting on it
  cl_event u2 = cl.clCreateUserEvent(c, &e);
  cl_event fill2;
  CHECK_OK(cl.clEnqueueFillBuffer(q, b, &pat, 4, 0, 64, 1, &u2, &fill2));
  CHECK_OK(cl.clSetUserEventStatus(u2, -1234));
  CHECK_EQ(cl.clWaitForEvents(1, &fill2), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK(event_status(fill2) < 0);
  CHECK_EQ(cl.clWaitForEvents(0, nullptr), CL_INVALID_VALUE);
  for (auto ev : {u, fill, u2, fill2}) cl.clReleaseEvent(ev);
  cl.clReleaseMemObject(b);
  CHECK_OK(cl.clFinish(q));
  cl.clReleaseCommandQueue(q);
  cl.clReleaseContext(c);
}

TEST("core.events.markers_barriers_out_of_order") {
  cl_context c = make_ctx();
  cl_command_queue q = make_queue(c, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  cl_int e;
  cl_event u = cl.clCreateUserEvent(c, &e);
  cl_mem b = cl.clCreateBuffer(c, CL_MEM_READ_WRITE, 64, nullptr, &e);
  uint8_t one = 1;
  cl_event f1, marker, barrier, after;
  CHECK_OK(cl.clEnqueueFillBuffer(q, b, &one, 1, 0, 64, 1, &u, &f1));
  CHECK_OK(cl.clEnqueueMarkerWithWaitList(q, 0, nullptr, &marker));
  CHECK_OK(cl.clEnqueueBarrierWithWaitList(q, 0, nullptr, &barrier));
  uint8_t two = 2;
  CHECK_OK(cl.clEnqueueFillBuffer(q, b, &two, 1, 0, 64, 0, nullptr, &after));
  CHECK(event_status(marker) > 0 && event_status(after) > 0);
  CHECK_EQ(event_type(marker), CL_COMMAND_MARKER);
  CHECK_EQ(event_type(barrier), CL_COMMAND_BARRIER);
  CHECK_OK(cl.clSetUserEventStatus(u, CL_COMPLETE));
  CHECK_OK(cl.clFinish(q));
  uint8_t out[64];
  CHECK_OK(cl.clEnqueueReadBuffer(q, b, CL_TRUE, 0, 64, out, 0, nullptr, nullptr));
  CHECK_EQ(out[0], 2);
  for (auto ev : {u, f1, marker, barrier, after}) cl.clReleaseEvent(ev);
  cl.clReleaseMemObject(b);
  cl.clReleaseCommandQueue(q);
  cl.clReleaseContext(c);
}

TEST("core.program.no_compiler") {
  cl_context c = make_ctx();
  const char *src = "kernel void k(global int *a) { a[0] = 1; }";
  cl_int e;
  cl_program p = cl.clCreateProgramWithSource(c, 1, &src, nullptr, &e);
  CHECK_OK(e);
  CHECK_EQ(cl.clBuildProgram(p, 1, &g_dev, "", nullptr, nullptr), CL_COMPILER_NOT_AVAILABLE);
  cl_build_status st;
  CHECK_OK(cl.clGetProgramBuildInfo(p, g_dev, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, nullptr));
  CHECK_EQ(st, CL_BUILD_ERROR);
  size_t n;
  CHECK_OK(cl.clGetProgramBuildInfo(p, g_dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n));
  CHECK(n > 10);
  CHECK(cl.clCreateKernel(p, "k", &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_PROGRAM_EXECUTABLE);
  char got[128];
  CHECK_OK(cl.clGetProgramInfo(p, CL_PROGRAM_SOURCE, sizeof got, got, nullptr));
  CHECK(!strcmp(got, src));
  cl.clReleaseProgram(p);
  cl.clReleaseContext(c);
}

TEST("core.program.builtin_kernels_info") {
  cl_context c = make_ctx();
  cl_int e;
  cl_program p = cl.clCreateProgramWithBuiltInKernels(c, 1, &g_dev, "copy_buffer;copy_image;invert_image;nv12_to_rgba", &e);
  CHECK_OK(e);
  CHECK_OK(cl.clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr));
  size_t nk;
  CHECK_OK(cl.clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, nullptr));
  CHECK_EQ(nk, 4);
  cl_kernel ks[4];
  cl_uint got;
  CHECK_OK(cl.clCreateKernelsInProgram(p, 4, ks, &got));
  CHECK_EQ(got, 4);
  char name[64];
  CHECK_OK(cl.clGetKernelInfo(ks[3], CL_KERNEL_FUNCTION_NAME, sizeof name, name, nullptr));
  CHECK(!strcmp(name, "nv12_to_rgba"));
  cl_uint nargs;
  CHECK_OK(cl.clGetKernelInfo(ks[3], CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, nullptr));
  CHECK_EQ(nargs, 3);
  CHECK_OK(cl.clGetKernelArgInfo(ks[0], 0, CL_KERNEL_ARG_NAME, sizeof name, name, nullptr));
  CHECK(!strcmp(name, "src"));
  cl_kernel_arg_access_qualifier acc;
  CHECK_OK(cl.clGetKernelArgInfo(ks[1], 1, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof acc, &acc, nullptr));
  CHECK_EQ(acc, CL_KERNEL_ARG_ACCESS_WRITE_ONLY);
  size_t wg;
  CHECK_OK(cl.clGetKernelWorkGroupInfo(ks[0], g_dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, nullptr));
  CHECK(wg >= 1);
  CHECK_EQ(cl.clSetKernelArg(ks[0], 5, sizeof(cl_mem), nullptr), CL_INVALID_ARG_INDEX);
  CHECK_EQ(cl.clSetKernelArg(ks[0], 0, 3, nullptr), CL_INVALID_ARG_SIZE);
  CHECK_EQ(cl.clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr), CL_INVALID_OPERATION);  // kernels attached
  for (auto k : ks) cl.clReleaseKernel(k);
  CHECK(cl.clCreateProgramWithBuiltInKernels(c, 1, &g_dev, "copy_buffer;no_such_kernel", &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_VALUE);
  CHECK(cl.clCreateKernel(p, "nope", &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_KERNEL_NAME);
  cl.clReleaseProgram(p);
  cl.clReleaseContext(c);
}

TEST("core.kernel.copy_buffer") {
  cl_context c = make_ctx();
  cl_command_queue q = make_queue(c);
  cl_int e;
  auto data = pattern(300, 4);
  cl_mem a = cl.clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, 300, data.data(), &e);
  cl_mem b = cl.clCreateBuffer(c, CL_MEM_READ_WRITE, 300, nullptr, &e);
  cl_program p;
  cl_kernel k = builtin_kernel(c, "copy_buffer", &p);
  size_t g = 300;
  CHECK_EQ(cl.clEnqueueNDRangeKernel(q, k, 1, nullptr, &g, nullptr, 0, nullptr, nullptr), CL_INVALID_KERNEL_ARGS);
  CHECK_OK(cl.clSetKernelArg(k, 0, sizeof a, &a));
  CHECK_OK(cl.clSetKernelArg(k, 1, sizeof b, &b));
  size_t off = 100, g2 = 200, l = 7;
  CHECK_EQ(cl.clEnqueueNDRangeKernel(q, k, 1, &off, &g2, &l, 0, nullptr, nullptr), CL_INVALID_WORK_GROUP_SIZE);
  cl_event ev;
  CHECK_OK(cl.clEnqueueNDRangeKernel(q, k, 1, &off, &g2, nullptr, 0, nullptr, &ev));
  CHECK_EQ(event_type(ev), CL_COMMAND_NDRANGE_KERNEL);
  std::vector<uint8_t> out(300);
  CHECK_OK(cl.clEnqueueReadBuffer(q, b, CL_TRUE, 0, 300, out.data(), 0, nullptr, nullptr));
  for (int i = 0; i < 300; i++) CHECK_EQ(out[i], i < 100 ? 0 : data[i]);
  size_t big = 301;
  CHECK_EQ(cl.clEnqueueNDRangeKernel(q, k, 1, nullptr, &big, nullptr, 0, nullptr, nullptr), CL_INVALID_GLOBAL_WORK_SIZE);
  cl.clReleaseEvent(ev);
  cl.clReleaseKernel(k);
  cl.clReleaseProgram(p);
  cl.clReleaseMemObject(a);
  cl.clReleaseMemObject(b);
  cl.clReleaseCommandQueue(q);
  cl.clReleaseContext(c);
}

TEST("core.kernel.copy_and_invert_image") {
  cl_context c = make_ctx();
  cl_command_queue q = make_queue(c);
  cl_mem a = image2d(c, CL_RGBA, CL_UNORM_INT8, 8, 8), b = image2d(c, CL_RGBA, CL_UNORM_INT8, 8, 8);
  auto data = pattern(256, 11);
  size_t o[3] = {0, 0, 0}, r[3] = {8, 8, 1};
  CHECK_OK(cl.clEnqueueWriteImage(q, a, CL_TRUE, o, r, 0, 0, data.data(), 0, nullptr, nullptr));
  cl_program p1, p2;
  cl_kernel copy = builtin_kernel(c, "copy_image", &p1), inv = builtin_kernel(c, "invert_image", &p2);
  size_t g[2] = {8, 8};
  CHECK_OK(cl.clSetKernelArg(copy, 0, sizeof a, &a));
  CHECK_OK(cl.clSetKernelArg(copy, 1, sizeof b, &b));
  CHECK_OK(cl.clEnqueueNDRangeKernel(q, copy, 2, nullptr, g, nullptr, 0, nullptr, nullptr));
  CHECK(read_image(q, b, 8, 8, 4) == data);
  CHECK_OK(cl.clSetKernelArg(inv, 0, sizeof a, &a));
  CHECK_OK(cl.clSetKernelArg(inv, 1, sizeof b, &b));
  CHECK_OK(cl.clEnqueueNDRangeKernel(q, inv, 2, nullptr, g, nullptr, 0, nullptr, nullptr));
  auto out = read_image(q, b, 8, 8, 4);
  for (size_t i = 0; i < out.size(); i++) CHECK_EQ(out[i], 255 - data[i]);
  // integer formats: bitwise not
  cl_mem ia = image2d(c, CL_R, CL_UNSIGNED_INT16, 4, 1), ib = image2d(c, CL_R, CL_UNSIGNED_INT16, 4, 1);
  uint16_t iv[4] = {0, 1, 0x1234, 0xFFFF};
  size_t r4[3] = {4, 1, 1};
  CHECK_OK(cl.clEnqueueWriteImage(q, ia, CL_TRUE, o, r4, 0, 0, iv, 0, nullptr, nullptr));
  CHECK_OK(cl.clSetKernelArg(inv, 0, sizeof ia, &ia));
  CHECK_OK(cl.clSetKernelArg(inv, 1, sizeof ib, &ib));
  size_t g4[2] = {4, 1};
  CHECK_OK(cl.clEnqueueNDRangeKernel(q, inv, 2, nullptr, g4, nullptr, 0, nullptr, nullptr));
  uint16_t ov[4];
  CHECK_OK(cl.clEnqueueReadImage(q, ib, CL_TRUE, o, r4, 0, 0, ov, 0, nullptr, nullptr));
  for (int i = 0; i < 4; i++) CHECK_EQ(ov[i], uint16_t(~iv[i]));
  CHECK_OK(cl.clSetKernelArg(inv, 1, sizeof b, &b));
  CHECK_EQ(cl.clEnqueueNDRangeKernel(q, inv, 2, nullptr, g4, nullptr, 0, nullptr, nullptr), CL_IMAGE_FORMAT_MISMATCH);
  cl.clReleaseKernel(copy);
  cl.clReleaseKernel(inv);
  cl.clReleaseProgram(p1);
  cl.clReleaseProgram(p2);
  for (auto m : {a, b, ia, ib}) cl.clReleaseMemObject(m);
  cl.clReleaseCommandQueue(q);
  cl.clReleaseContext(c);
}

TEST("core.sampler.info") {
  cl_context c = make_ctx();
  cl_int e;
  cl_sampler s = cl.clCreateSampler(c, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_LINEAR, &e);
  CHECK_OK(e);
  cl_filter_mode fm;
  CHECK_OK(cl.clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, sizeof fm, &fm, nullptr));
  CHECK_EQ(fm, CL_FILTER_LINEAR);
  CHECK_EQ(rd.refdrv_live_objects("sampler"), 1);
  cl.clReleaseSampler(s);
  cl.clReleaseContext(c);
}

TEST("core.lifetime.children_keep_parents_alive") {
  cl_context c = make_ctx();
  cl_command_queue q = make_queue(c);
  cl_int e;
  cl_mem b = cl.clCreateBuffer(c, CL_MEM_READ_WRITE, 64, nullptr, &e);
  cl_event ev;
  uint8_t x = 1;
  CHECK_OK(cl.clEnqueueFillBuffer(q, b, &x, 1, 0, 64, 0, nullptr, &ev));
  CHECK_OK(cl.clReleaseContext(c));
  CHECK_OK(cl.clReleaseCommandQueue(q));
  CHECK_EQ(rd.refdrv_live_objects("context"), 1);
  cl_context ec;
  CHECK_OK(cl.clGetEventInfo(ev, CL_EVENT_CONTEXT, sizeof ec, &ec, nullptr));
  CHECK(ec == c);
  CHECK_OK(cl.clWaitForEvents(1, &ev));
  CHECK_OK(cl.clReleaseMemObject(b));
  CHECK_OK(cl.clReleaseEvent(ev));
  CHECK_OK(rd.refdrv_wait_idle(2000));
  CHECK_EQ(rd.refdrv_live_objects("cl"), 0);
  CHECK_EQ(rd.refdrv_live_objects("no_such_kind"), REFDRV_E_UNKNOWN_KIND);
}

TEST("control.resources_layout_bytes_refcounts") {
  void *dev = d3d9_device();
  CHECK_EQ(refcount(dev), 1);
  void *s = nullptr, *h = nullptr;
  CHECK_OK(rd.refdrv_d3d9_create_surface(dev, 21, 10, 3, 0, 1, &s, &h));
  CHECK(h != nullptr);
  CHECK_EQ(refcount(dev), 2);  // resources hold their device
  uint64_t w, hh, d, bpp, rp, sp, size;
  CHECK_OK(rd.refdrv_resource_layout(s, 0, 0, &w, &hh, &d, &bpp, &rp, &sp, &size));
  CHECK(w == 10 && hh == 3 && d == 1 && bpp == 4 && rp >= 40 && sp == rp * 3 && size == sp);
  auto bytes = pattern(120, 1);
  write_res(s, 0, 0, bytes);
  CHECK(read_res(s, 0, 0) == bytes);
  std::vector<uint8_t> raw(size);
  CHECK_OK(rd.refdrv_resource_read(s, 0, 0, 0, raw.data(), raw.size()));
  CHECK(std::equal(bytes.begin() + 40, bytes.begin() + 80, raw.begin() + rp));
  CHECK_EQ(rd.refdrv_resource_read(s, 0, 1, 1, raw.data(), raw.size()), REFDRV_E_RANGE);
  CHECK_EQ(rd.refdrv_resource_read(s, 0, 0, 1, raw.data(), 5), REFDRV_E_RANGE);
  void *h2;
  CHECK_OK(rd.refdrv_create_shared_handle(s, &h2));
  CHECK(h2 == h);
  int type;
  CHECK_OK(rd.refdrv_object_type(s, &type));
  CHECK_EQ(type, REFDRV_T_D3D9_SURFACE);
  CHECK_EQ(rd.refdrv_live_objects("resource"), 2);
  uint32_t n;
  CHECK_OK(rd.refdrv_add_ref(s, &n));
  CHECK_EQ(n, 2);
  CHECK_OK(rd.refdrv_release(s, &n));
  CHECK_EQ(n, 1);
  release_res(s);
  CHECK_EQ(refcount(dev), 1);
  release_res(dev);
  CHECK_EQ(rd.refdrv_release(dev, nullptr), REFDRV_E_BAD_HANDLE);
  void *bogus;
  CHECK_EQ(rd.refdrv_d3d9_create_surface((void *)0x1234, 21, 4, 4, 0, 0, &bogus, nullptr), REFDRV_E_BAD_HANDLE);
}
