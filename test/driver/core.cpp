// core.cpp - the OpenCL 1.2 core entry points of the reference driver:
// platform, device, contexts, queues, memory objects, samplers, programs,
// kernels, events and the commands enqueued on a queue. The state they work on
// and the command engine that runs the commands are driver.cpp's.
#include "driver.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <thread>

namespace refdrv {

static bool is_image(cl_mem m) { return m->type != CL_MEM_OBJECT_BUFFER; }
// effective extents for region checks
static void image_extent(cl_mem m, size_t e[3]) {
  e[0] = m->width;
  e[1] = m->height ? m->height : 1;
  e[2] = m->depth ? m->depth : 1;
  if (m->type == CL_MEM_OBJECT_IMAGE1D_ARRAY) e[1] = m->array_size;
  if (m->type == CL_MEM_OBJECT_IMAGE2D_ARRAY) e[2] = m->array_size;
}
static bool region_ok(cl_mem m, const size_t *origin, const size_t *region) {
  if (!origin || !region) return false;
  size_t e[3];
  image_extent(m, e);
  for (int i = 0; i < 3; i++) {
    if (region[i] == 0) return false;
    if (origin[i] > e[i] || region[i] > e[i] - origin[i]) return false;
  }
  return true;
}
static uint8_t *pixel_ptr(cl_mem m, size_t x, size_t y, size_t z) { return m->data + x * m->elem + y * m->row_pitch + z * m->slice_pitch; }

}  // namespace refdrv

using namespace refdrv;

// The extension files' parts of the state's own paths (ExtensionHooks, driver.h).
static const bool kHooksInstalled = [] {
  hooks() = {interop_release_context,
             [](cl_mem m) {
               interop_release_mem(m);
               external_release_mem(m);
             },
             destroy_semaphore, error_name};
  return true;
}();

static const char *kExtensions =
    "cl_khr_icd cl_nv_d3d9_sharing cl_khr_d3d10_sharing cl_intel_dx9_media_sharing cl_khr_dx9_media_sharing "
    "cl_intel_va_api_media_sharing cl_khr_d3d11_sharing cl_nv_d3d11_sharing cl_intel_d3d11_nv12_media_sharing";

// ---------------------------------------------------------------- platform --
CLAPI(cl_int) clGetPlatformIDs(cl_uint n, cl_platform_id *p, cl_uint *num) { return clIcdGetPlatformIDsKHR(n, p, num); }

CLAPI(cl_int) clGetPlatformInfo(cl_platform_id p, cl_platform_info name, size_t sz, void *val, size_t *ret) {
  if (p && p != &g_platform) return CL_INVALID_PLATFORM;
  switch (name) {
    case CL_PLATFORM_PROFILE: return put_str(sz, val, ret, "EMBEDDED_PROFILE");
    case CL_PLATFORM_VERSION: return put_str(sz, val, ret, "OpenCL 1.2 opencl-interop-ref");
    case CL_PLATFORM_NAME: return put_str(sz, val, ret, "opencl-interop reference driver");
    case CL_PLATFORM_VENDOR: return put_str(sz, val, ret, "opencl-interop");
    case CL_PLATFORM_EXTENSIONS: return put_str(sz, val, ret, std::string(kExtensions) + " " + kExternalExtensions);
    case CL_PLATFORM_ICD_SUFFIX_KHR: return put_str(sz, val, ret, "REF");
    default: {
      cl_int rc;
      if (external_platform_info(name, sz, val, ret, &rc)) return rc;
      return CL_INVALID_VALUE;
    }
  }
}

CLAPI(cl_int) clGetDeviceIDs(cl_platform_id p, cl_device_type type, cl_uint n, cl_device_id *devs, cl_uint *num) {
  if (p && p != &g_platform) return CL_INVALID_PLATFORM;
  const cl_device_type known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
  if (type != CL_DEVICE_TYPE_ALL && (type & ~known || type == 0)) return CL_INVALID_DEVICE_TYPE;
  if ((n == 0 && devs) || (!devs && !num)) return CL_INVALID_VALUE;
  if (!(type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_DEFAULT))) return CL_DEVICE_NOT_FOUND;
  if (devs) devs[0] = &g_device;
  if (num) *num = 1;
  return CL_SUCCESS;
}

CLAPI(cl_int) clGetDeviceInfo(cl_device_id d, cl_device_info name, size_t sz, void *val, size_t *ret) {
  if (!valid_device(d)) return CL_INVALID_DEVICE;
  auto U = [&](cl_uint v) { return put(sz, val, ret, v); };
  auto UL = [&](cl_ulong v) { return put(sz, val, ret, v); };
  auto SZ = [&](size_t v) { return put(sz, val, ret, v); };
  auto B = [&](cl_bool v) { return put(sz, val, ret, v); };
  auto S = [&](const char *s) { return put_str(sz, val, ret, s); };
  switch (name) {
    case CL_DEVICE_TYPE: return put(sz, val, ret, cl_device_type(CL_DEVICE_TYPE_GPU));
    case CL_DEVICE_VENDOR_ID: return U(0x1D1F);
    case CL_DEVICE_MAX_COMPUTE_UNITS: return U(1);
    case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS: return U(3);
    case CL_DEVICE_MAX_WORK_GROUP_SIZE: return SZ(1024);
    case CL_DEVICE_MAX_WORK_ITEM_SIZES: {
      size_t v[3] = {1024, 1024, 64};
      return put_bytes(sz, val, ret, v, sizeof v);
    }
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT: return U(1);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF: return U(0);
    case CL_DEVICE_MAX_CLOCK_FREQUENCY: return U(1000);
    case CL_DEVICE_ADDRESS_BITS: return U(sizeof(void *) * 8);
    case CL_DEVICE_MAX_READ_IMAGE_ARGS: return U(128);
    case CL_DEVICE_MAX_WRITE_IMAGE_ARGS: return U(8);
    case CL_DEVICE_MAX_MEM_ALLOC_SIZE: return UL(max_alloc_bytes());
    case CL_DEVICE_IMAGE2D_MAX_WIDTH:
    case CL_DEVICE_IMAGE2D_MAX_HEIGHT: return SZ(16384);
    case CL_DEVICE_IMAGE3D_MAX_WIDTH:
    case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
    case CL_DEVICE_IMAGE3D_MAX_DEPTH: return SZ(2048);
    case CL_DEVICE_IMAGE_SUPPORT: return B(CL_TRUE);
    case CL_DEVICE_MAX_PARAMETER_SIZE: return SZ(1024);
    case CL_DEVICE_MAX_SAMPLERS: return U(16);
    case CL_DEVICE_MEM_BASE_ADDR_ALIGN: return U(1024);
    case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE: return U(128);
    case CL_DEVICE_SINGLE_FP_CONFIG: return put(sz, val, ret, cl_device_fp_config(CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST));
    case CL_DEVICE_DOUBLE_FP_CONFIG: return put(sz, val, ret, cl_device_fp_config(0));
    case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE: return U(CL_READ_WRITE_CACHE);
    case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE: return U(64);
    case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE: return UL(1 << 20);
    case CL_DEVICE_GLOBAL_MEM_SIZE: return UL(std::max<size_t>(1ull << 30, max_alloc_bytes()));
    case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE: return UL(64 << 10);
    case CL_DEVICE_MAX_CONSTANT_ARGS: return U(8);
    case CL_DEVICE_LOCAL_MEM_TYPE: return U(CL_GLOBAL);
    case CL_DEVICE_LOCAL_MEM_SIZE: return UL(32 << 10);
    case CL_DEVICE_ERROR_CORRECTION_SUPPORT: return B(CL_FALSE);
    case CL_DEVICE_HOST_UNIFIED_MEMORY: return B(CL_TRUE);
    case CL_DEVICE_PROFILING_TIMER_RESOLUTION: return SZ(1);
    case CL_DEVICE_ENDIAN_LITTLE: return B(CL_TRUE);
    case CL_DEVICE_AVAILABLE: return B(CL_TRUE);
    case CL_DEVICE_COMPILER_AVAILABLE: return B(CL_FALSE);
    case CL_DEVICE_LINKER_AVAILABLE: return B(CL_FALSE);
    case CL_DEVICE_EXECUTION_CAPABILITIES: return put(sz, val, ret, cl_device_exec_capabilities(CL_EXEC_KERNEL));
    case CL_DEVICE_QUEUE_PROPERTIES:
      return put(sz, val, ret, cl_command_queue_properties(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE));
    case CL_DEVICE_NAME: return S("opencl-interop reference device");
    case CL_DEVICE_VENDOR: return S("opencl-interop");
    case CL_DRIVER_VERSION: return S("1.0.0");
    case CL_DEVICE_PROFILE: return S("EMBEDDED_PROFILE");
    case CL_DEVICE_VERSION: return S("OpenCL 1.2 opencl-interop-ref");
    case CL_DEVICE_OPENCL_C_VERSION: return S("OpenCL C 1.2 ");
    case CL_DEVICE_EXTENSIONS: {
      cl_uint bus[4];
      return put_str(sz, val, ret, std::string(kExtensions) + " " + kExternalExtensions + (pci_bus(bus) ? " cl_khr_pci_bus_info" : ""));
    }
    case CL_DEVICE_PLATFORM: return put(sz, val, ret, cl_platform_id(&g_platform));
    case CL_DEVICE_BUILT_IN_KERNELS: {
      std::string s;
      for (auto &k : builtin_kernels()) s += (s.empty() ? "" : ";") + std::string(k.name);
      return put_str(sz, val, ret, s);
    }
    case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE: return SZ(65536);
    case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE: return SZ(2048);
    case CL_DEVICE_PARENT_DEVICE: return put(sz, val, ret, cl_device_id(nullptr));
    case CL_DEVICE_PARTITION_MAX_SUB_DEVICES: return U(0);
    case CL_DEVICE_PARTITION_PROPERTIES:
    case CL_DEVICE_PARTITION_TYPE: return put(sz, val, ret, cl_device_partition_property(0));
    case CL_DEVICE_PARTITION_AFFINITY_DOMAIN: return put(sz, val, ret, cl_device_affinity_domain(0));
    case CL_DEVICE_REFERENCE_COUNT: return U(1);
    case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC: return B(CL_FALSE);
    case CL_DEVICE_PRINTF_BUFFER_SIZE: return SZ(1 << 20);
    case CL_DEVICE_IMAGE_PITCH_ALIGNMENT: return U(64);
    case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT: return U(64);
    default: {
      cl_int rc;
      if (external_device_info(name, sz, val, ret, &rc)) return rc;
      return CL_INVALID_VALUE;
    }
  }
}

CLAPI(cl_int) clCreateSubDevices(cl_device_id d, const cl_device_partition_property *, cl_uint, cl_device_id *, cl_uint *) {
  if (!valid_device(d)) return CL_INVALID_DEVICE;
  return CL_INVALID_VALUE;  // CL_DEVICE_PARTITION_PROPERTIES is empty
}
CLAPI(cl_int) clRetainDevice(cl_device_id d) { return valid_device(d) ? CL_SUCCESS : CL_INVALID_DEVICE; }
CLAPI(cl_int) clReleaseDevice(cl_device_id d) { return valid_device(d) ? CL_SUCCESS : CL_INVALID_DEVICE; }

// ----------------------------------------------------------------- context --
static bool is_interop_key(cl_context_properties k) {
  switch (k) {
    case CL_CONTEXT_D3D9_DEVICE_NV:  // == CL_CONTEXT_D3D9_DEVICE_INTEL
    case CL_CONTEXT_D3D9EX_DEVICE_INTEL:
    case CL_CONTEXT_DXVA_DEVICE_INTEL:
    case CL_CONTEXT_ADAPTER_D3D9_KHR:
    case CL_CONTEXT_ADAPTER_D3D9EX_KHR:
    case CL_CONTEXT_ADAPTER_DXVA_KHR:
    case CL_CONTEXT_D3D10_DEVICE_KHR:
    case CL_CONTEXT_VA_API_DISPLAY_INTEL:
    case CL_CONTEXT_D3D11_DEVICE_KHR:  // == CL_CONTEXT_D3D11_DEVICE_NV
      return true;
    default: return false;
  }
}

typedef void(CL_API_CALL *ctx_notify_fn)(const char *, const void *, size_t, void *);

static cl_context create_context(const cl_context_properties *props, cl_uint ndev, const cl_device_id *devs, ctx_notify_fn fn, void *ud,
                                 cl_int *errcode_ret) {
  std::vector<cl_context_properties> list;
  bool user_sync = false;
  if (props) {
    std::vector<cl_context_properties> seen;
    for (const cl_context_properties *p = props; *p; p += 2) {
      cl_context_properties k = p[0], v = p[1];
      if (std::find(seen.begin(), seen.end(), k) != seen.end()) RET_ERR(CL_INVALID_PROPERTY);
      seen.push_back(k);
      if (k == CL_CONTEXT_PLATFORM) {
        if (reinterpret_cast<cl_platform_id>(v) != &g_platform) RET_ERR(CL_INVALID_PLATFORM);
      } else if (k == CL_CONTEXT_INTEROP_USER_SYNC) {
        user_sync = v != 0;
      } else if (!is_interop_key(k)) {
        RET_ERR(CL_INVALID_PROPERTY);
      }
      list.push_back(k);
      list.push_back(v);
    }
    list.push_back(0);
  }
  if (!fn && ud) RET_ERR(CL_INVALID_VALUE);
  if (!devs || ndev == 0) RET_ERR(CL_INVALID_VALUE);
  for (cl_uint i = 0; i < ndev; i++)
    if (!valid_device(devs[i])) RET_ERR(CL_INVALID_DEVICE);
  auto *c = new _cl_context();
  c->props = list;
  c->user_sync = user_sync;
  c->notify = fn;
  c->notify_data = ud;
  cl_int rc = interop_context_props(c, props);
  if (rc != CL_SUCCESS) {
    delete c;
    RET_ERR(rc);
  }
  track(c, Kind::Context);
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return c;
}

CLAPI(cl_context)
clCreateContext(const cl_context_properties *props, cl_uint ndev, const cl_device_id *devs, ctx_notify_fn fn, void *ud, cl_int *errcode_ret) {
  ApiLock L;
  return create_context(props, ndev, devs, fn, ud, errcode_ret);
}

CLAPI(cl_context) clCreateContextFromType(const cl_context_properties *props, cl_device_type type, ctx_notify_fn fn, void *ud, cl_int *errcode_ret) {
  ApiLock L;
  cl_device_id d;
  cl_int rc = clGetDeviceIDs(nullptr, type, 1, &d, nullptr);
  if (rc == CL_INVALID_DEVICE_TYPE || rc == CL_DEVICE_NOT_FOUND) {
    // property errors take precedence over a device type without devices
    if (props) {
      for (const cl_context_properties *p = props; *p; p += 2)
        if (p[0] == CL_CONTEXT_PLATFORM && reinterpret_cast<cl_platform_id>(p[1]) != &g_platform) RET_ERR(CL_INVALID_PLATFORM);
    }
    RET_ERR(rc);
  }
  return create_context(props, 1, &d, fn, ud, errcode_ret);
}

// REFDRV_RELEASE_DELAY_MS=<ms>: every release of a context, queue, memory
// object, sampler, program, kernel or semaphore first sleeps this long, as NVIDIA's did
// while other processes held its driver's global lock (issue 22: a buffer, a
// queue and a context took 6.8 s to release; a process that ended with
// objects alive took tens of seconds to exit). Outside the API lock: the
// wait is for the kernel driver, not this process.
void refdrv::delay_release_like_a_loaded_gpu() {
  static const long ms = [] {
    const char *text = std::getenv("REFDRV_RELEASE_DELAY_MS");
    return text ? std::strtol(text, nullptr, 10) : 0L;
  }();
  if (ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

CLAPI(cl_int) clRetainContext(cl_context c) { return count_ref_if_live(c, Kind::Context, CL_INVALID_CONTEXT, retain_obj); }
CLAPI(cl_int) clReleaseContext(cl_context c) {
  delay_release_like_a_loaded_gpu();
  return count_ref_if_live(c, Kind::Context, CL_INVALID_CONTEXT, release_obj);
}

CLAPI(cl_int) clGetContextInfo(cl_context c, cl_context_info name, size_t sz, void *val, size_t *ret) {
  ApiLock L;
  if (!valid_ctx(c)) return CL_INVALID_CONTEXT;
  switch (name) {
    case CL_CONTEXT_REFERENCE_COUNT: return put(sz, val, ret, cl_uint(c->refs));
    case CL_CONTEXT_NUM_DEVICES: return put(sz, val, ret, cl_uint(1));
    case CL_CONTEXT_DEVICES: return put(sz, val, ret, cl_device_id(&g_device));
    case CL_CONTEXT_PROPERTIES: return put_bytes(sz, val, ret, c->props.data(), c->props.size() * sizeof(cl_context_properties));
    case CL_CONTEXT_D3D10_PREFER_SHARED_RESOURCES_KHR: return put(sz, val, ret, cl_bool(CL_FALSE));
    case CL_CONTEXT_D3D11_PREFER_SHARED_RESOURCES_KHR: return put(sz, val, ret, cl_bool(CL_FALSE));
    default: return CL_INVALID_VALUE;
  }
}

// ------------------------------------------------------------------ queues --
static cl_command_queue create_queue(cl_context c, cl_device_id d, cl_command_queue_properties props, const cl_queue_properties *list,
                                     cl_int *errcode_ret) {
  if (!valid_ctx(c)) RET_ERR(CL_INVALID_CONTEXT);
  if (!valid_device(d)) RET_ERR(CL_INVALID_DEVICE);
  if (props & ~cl_command_queue_properties(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE)) RET_ERR(CL_INVALID_VALUE);
  auto *q = track(new _cl_command_queue(), Kind::Queue);
  q->ctx = c;
  retain_obj(c);
  q->props = props;
  q->exec = new_queue_exec(!(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE));
  if (list) {
    for (const cl_queue_properties *p = list; *p; p += 2) {
      q->prop_list.push_back(p[0]);
      q->prop_list.push_back(p[1]);
    }
    q->prop_list.push_back(0);
  }
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return q;
}

CLAPI(cl_command_queue) clCreateCommandQueue(cl_context c, cl_device_id d, cl_command_queue_properties props, cl_int *errcode_ret) {
  ApiLock L;
  return create_queue(c, d, props, nullptr, errcode_ret);
}

CLAPI(cl_command_queue) clCreateCommandQueueWithProperties(cl_context c, cl_device_id d, const cl_queue_properties *list, cl_int *errcode_ret) {
  ApiLock L;
  cl_command_queue_properties props = 0;
  if (list) {
    for (const cl_queue_properties *p = list; *p; p += 2) {
      if (p[0] == CL_QUEUE_PROPERTIES) props = p[1];
      else if (p[0] == CL_QUEUE_SIZE) RET_ERR(CL_INVALID_QUEUE_PROPERTIES);
      else RET_ERR(CL_INVALID_VALUE);
    }
  }
  return create_queue(c, d, props, list, errcode_ret);
}

CLAPI(cl_int) clRetainCommandQueue(cl_command_queue q) { return count_ref_if_live(q, Kind::Queue, CL_INVALID_COMMAND_QUEUE, retain_obj); }
CLAPI(cl_int) clReleaseCommandQueue(cl_command_queue q) {
  delay_release_like_a_loaded_gpu();
  return count_ref_if_live(q, Kind::Queue, CL_INVALID_COMMAND_QUEUE, release_obj);
}
CLAPI(cl_int) clGetCommandQueueInfo(cl_command_queue q, cl_command_queue_info name, size_t sz, void *val, size_t *ret) {
  ApiLock L;
  if (!valid_queue(q)) return CL_INVALID_COMMAND_QUEUE;
  switch (name) {
    case CL_QUEUE_CONTEXT: return put(sz, val, ret, q->ctx);
    case CL_QUEUE_DEVICE: return put(sz, val, ret, cl_device_id(&g_device));
    case CL_QUEUE_REFERENCE_COUNT: return put(sz, val, ret, cl_uint(q->refs));
    case CL_QUEUE_PROPERTIES: return put(sz, val, ret, q->props);
    default: return CL_INVALID_VALUE;
  }
}
CLAPI(cl_int) clFlush(cl_command_queue q) {
  ApiLock L;
  return valid_queue(q) ? CL_SUCCESS : CL_INVALID_COMMAND_QUEUE;
}
CLAPI(cl_int) clFinish(cl_command_queue q) {
  ApiLock L;
  if (!valid_queue(q)) return CL_INVALID_COMMAND_QUEUE;
  retain_obj(q);
  bool stopped = false;
  while (!q->outstanding.empty() && !(stopped = G().exiting.load())) G().cv.wait(L.lk);
  release_obj(q);
  return stopped ? CL_OUT_OF_RESOURCES : CL_SUCCESS;  // exiting: the driver has stopped
}

// ----------------------------------------------------------------- buffers --
CLAPI(cl_mem) clCreateBuffer(cl_context c, cl_mem_flags flags, size_t size, void *host_ptr, cl_int *errcode_ret) {
  ApiLock L;
  return create_buffer_locked(c, flags, size, host_ptr, errcode_ret);
}

CLAPI(cl_mem) clCreateSubBuffer(cl_mem b, cl_mem_flags flags, cl_buffer_create_type type, const void *info, cl_int *errcode_ret) {
  ApiLock L;
  if (!valid_mem(b) || b->type != CL_MEM_OBJECT_BUFFER || b->parent) RET_ERR(CL_INVALID_MEM_OBJECT);
  const cl_mem_flags acc = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
  const cl_mem_flags host = CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
  if (!mem_flags_valid(flags) || (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR))) RET_ERR(CL_INVALID_VALUE);
  if (((b->flags & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
      ((b->flags & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) ||
      ((b->flags & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY)) ||
      ((b->flags & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY)) ||
      ((b->flags & CL_MEM_HOST_NO_ACCESS) && (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))))
    RET_ERR(CL_INVALID_VALUE);
  if (type != CL_BUFFER_CREATE_TYPE_REGION || !info) RET_ERR(CL_INVALID_VALUE);
  auto *r = static_cast<const cl_buffer_region *>(info);
  if (r->size == 0) RET_ERR(CL_INVALID_BUFFER_SIZE);
  if (r->origin > b->size || r->size > b->size - r->origin) RET_ERR(CL_INVALID_VALUE);
  if (r->origin % 128) RET_ERR(CL_MISALIGNED_SUB_BUFFER_OFFSET);
  if (!(flags & acc)) flags |= b->flags & acc;
  if (!(flags & host)) flags |= b->flags & host;
  flags |= b->flags & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  cl_mem m = new_mem(b->ctx, flags, CL_MEM_OBJECT_BUFFER);
  m->parent = b;
  retain_obj(b);
  m->offset = r->origin;
  m->size = r->size;
  m->data = b->data + r->origin;
  if (b->host_ptr) m->host_ptr = static_cast<uint8_t *>(b->host_ptr) + r->origin;
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return m;
}

CLAPI(cl_int) clRetainMemObject(cl_mem m) { return count_ref_if_live(m, Kind::Mem, CL_INVALID_MEM_OBJECT, retain_obj); }
CLAPI(cl_int) clReleaseMemObject(cl_mem m) {
  delay_release_like_a_loaded_gpu();
  return count_ref_if_live(m, Kind::Mem, CL_INVALID_MEM_OBJECT, release_obj);
}
CLAPI(cl_int) clSetMemObjectDestructorCallback(cl_mem m, void(CL_API_CALL *fn)(cl_mem, void *), void *data) {
  ApiLock L;
  if (!valid_mem(m)) return CL_INVALID_MEM_OBJECT;
  if (!fn) return CL_INVALID_VALUE;
  m->dtors.push_back({fn, data});
  return CL_SUCCESS;
}

// ------------------------------------------------------------------ images --
CLAPI(cl_mem)
clCreateImage(cl_context c, cl_mem_flags flags, const cl_image_format *fmt, const cl_image_desc *desc, void *host_ptr, cl_int *errcode_ret) {
  ApiLock L;
  return create_image_locked(c, flags, fmt, desc, host_ptr, errcode_ret);
}
CLAPI(cl_mem)
clCreateImage2D(cl_context c, cl_mem_flags flags, const cl_image_format *fmt, size_t w, size_t h, size_t rp, void *host_ptr, cl_int *errcode_ret) {
  ApiLock L;
  cl_image_desc d{};
  d.image_type = CL_MEM_OBJECT_IMAGE2D;
  d.image_width = w;
  d.image_height = h;
  d.image_row_pitch = rp;
  return create_image_locked(c, flags, fmt, &d, host_ptr, errcode_ret);
}
CLAPI(cl_mem)
clCreateImage3D(cl_context c, cl_mem_flags flags, const cl_image_format *fmt, size_t w, size_t h, size_t dd, size_t rp, size_t sp, void *host_ptr,
                cl_int *errcode_ret) {
  ApiLock L;
  cl_image_desc d{};
  d.image_type = CL_MEM_OBJECT_IMAGE3D;
  d.image_width = w;
  d.image_height = h;
  d.image_depth = dd;
  d.image_row_pitch = rp;
  d.image_slice_pitch = sp;
  return create_image_locked(c, flags, fmt, &d, host_ptr, errcode_ret);
}

CLAPI(cl_int) clGetSupportedImageFormats(cl_context c, cl_mem_flags flags, cl_mem_object_type type, cl_uint n, cl_image_format *fmts, cl_uint *num) {
  ApiLock L;
  if (!valid_ctx(c)) return CL_INVALID_CONTEXT;
  if (!mem_flags_valid(flags)) return CL_INVALID_VALUE;
  switch (type) {
    case CL_MEM_OBJECT_IMAGE1D:
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
    case CL_MEM_OBJECT_IMAGE2D:
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    case CL_MEM_OBJECT_IMAGE3D: break;
    default: return CL_INVALID_VALUE;
  }
  if (n == 0 && fmts) return CL_INVALID_VALUE;
  auto v = supported_formats();
  if (fmts)
    for (size_t i = 0; i < v.size() && i < n; i++) fmts[i] = v[i];
  if (num) *num = cl_uint(v.size());
  return CL_SUCCESS;
}

CLAPI(cl_int) clGetMemObjectInfo(cl_mem m, cl_mem_info name, size_t sz, void *val, size_t *ret) {
  ApiLock L;
  if (!valid_mem(m)) return CL_INVALID_MEM_OBJECT;
  cl_int rc;
  if (interop_mem_info(m, name, sz, val, ret, &rc)) return rc;
  switch (name) {
    case CL_MEM_TYPE: return put(sz, val, ret, m->type);
    case CL_MEM_FLAGS: return put(sz, val, ret, m->flags);
    case CL_MEM_SIZE: return put(sz, val, ret, m->size);
    case CL_MEM_HOST_PTR: return put(sz, val, ret, m->host_ptr);
    case CL_MEM_MAP_COUNT: return put(sz, val, ret, cl_uint(m->map_count));
    case CL_MEM_REFERENCE_COUNT: return put(sz, val, ret, cl_uint(m->refs));
    case CL_MEM_CONTEXT: return put(sz, val, ret, m->ctx);
    case CL_MEM_ASSOCIATED_MEMOBJECT: return put(sz, val, ret, m->type == CL_MEM_OBJECT_BUFFER ? m->parent : cl_mem(nullptr));
    case CL_MEM_OFFSET: return put(sz, val, ret, m->offset);
    case CL_MEM_PROPERTIES:  // OpenCL 3.0: the list given to clCreate*WithProperties, else nothing
      return put_bytes(sz, val, ret, m->props.data(), m->props.size() * sizeof(cl_mem_properties));
    default: return CL_INVALID_VALUE;
  }
}

CLAPI(cl_int) clGetImageInfo(cl_mem m, cl_image_info name, size_t sz, void *val, size_t *ret) {
  ApiLock L;
  if (!valid_mem(m) || !is_image(m)) return CL_INVALID_MEM_OBJECT;
  cl_int rc;
  if (interop_image_info(m, name, sz, val, ret, &rc)) return rc;
  bool arr = m->type == CL_MEM_OBJECT_IMAGE1D_ARRAY || m->type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  switch (name) {
    case CL_IMAGE_FORMAT: return put(sz, val, ret, m->fmt);
    case CL_IMAGE_ELEMENT_SIZE: return put(sz, val, ret, m->elem);
    case CL_IMAGE_ROW_PITCH: return put(sz, val, ret, m->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? m->width * m->elem : m->row_pitch);
    case CL_IMAGE_SLICE_PITCH: return put(sz, val, ret, (m->type == CL_MEM_OBJECT_IMAGE3D || arr) ? m->slice_pitch : size_t(0));
    case CL_IMAGE_WIDTH: return put(sz, val, ret, m->width);
    case CL_IMAGE_HEIGHT: return put(sz, val, ret, m->height);
    case CL_IMAGE_DEPTH: return put(sz, val, ret, m->depth);
    case CL_IMAGE_ARRAY_SIZE: return put(sz, val, ret, m->array_size);
    case CL_IMAGE_BUFFER: return put(sz, val, ret, m->type == CL_MEM_OBJECT_IMAGE1D_BUFFER ? m->parent : cl_mem(nullptr));
    case CL_IMAGE_NUM_MIP_LEVELS:
    case CL_IMAGE_NUM_SAMPLES: return put(sz, val, ret, cl_uint(0));
    default: return CL_INVALID_VALUE;
  }
}

// ---------------------------------------------------------------- samplers --
CLAPI(cl_sampler) clCreateSampler(cl_context c, cl_bool norm, cl_addressing_mode am, cl_filter_mode fm, cl_int *errcode_ret) {
  ApiLock L;
  if (!valid_ctx(c)) RET_ERR(CL_INVALID_CONTEXT);
  if (am < CL_ADDRESS_NONE || am > CL_ADDRESS_MIRRORED_REPEAT || (fm != CL_FILTER_NEAREST && fm != CL_FILTER_LINEAR)) RET_ERR(CL_INVALID_VALUE);
  auto *s = track(new _cl_sampler(), Kind::Sampler);
  s->ctx = c;
  retain_obj(c);
  s->normalized = norm ? CL_TRUE : CL_FALSE;
  s->addressing = am;
  s->filter = fm;
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return s;
}
CLAPI(cl_int) clRetainSampler(cl_sampler s) { return count_ref_if_live(s, Kind::Sampler, CL_INVALID_SAMPLER, retain_obj); }
CLAPI(cl_int) clReleaseSampler(cl_sampler s) {
  delay_release_like_a_loaded_gpu();
  return count_ref_if_live(s, Kind::Sampler, CL_INVALID_SAMPLER, release_obj);
}
CLAPI(cl_int) clGetSamplerInfo(cl_sampler s, cl_sampler_info name, size_t sz, void *val, size_t *ret) {
  ApiLock L;
  if (!s || !is_live(s, Kind::Sampler)) return CL_INVALID_SAMPLER;
  switch (name) {
    case CL_SAMPLER_REFERENCE_COUNT: return put(sz, val, ret, cl_uint(s->refs));
    case CL_SAMPLER_CONTEXT: return put(sz, val, ret, s->ctx);
    case CL_SAMPLER_NORMALIZED_COORDS: return put(sz, val, ret, s->normalized);
    case CL_SAMPLER_ADDRESSING_MODE: return put(sz, val, ret, s->addressing);
    case CL_SAMPLER_FILTER_MODE: return put(sz, val, ret, s->filter);
    default: return CL_INVALID_VALUE;
  }
}

// ---------------------------------------------------------------- programs --
static const char *kNoCompilerLog =
    "opencl-interop reference driver: this device has no OpenCL C compiler "
    "(CL_DEVICE_COMPILER_AVAILABLE is CL_FALSE). Use clCreateProgramWithBuiltInKernels.\n";

static bool valid_program(cl_program p) { return p && is_live(p, Kind::Program); }

CLAPI(cl_program) clCreateProgramWithSource(cl_context c, cl_uint count, const char **strings, const size_t *lengths, cl_int *errcode_ret) {
  ApiLock L;
  if (!valid_ctx(c)) RET_ERR(CL_INVALID_CONTEXT);
  if (count == 0 || !strings) RET_ERR(CL_INVALID_VALUE);
  std::string src;
  for (cl_uint i = 0; i < count; i++) {
    if (!strings[i]) RET_ERR(CL_INVALID_VALUE);
    if (lengths && lengths[i]) src.append(strings[i], lengths[i]);
    else src.append(strings[i]);
  }
  auto *p = track(new _cl_program(), Kind::Program);
  p->ctx = c;
  retain_obj(c);
  p->source = src;
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return p;
}

CLAPI(cl_program)
clCreateProgramWithBinary(cl_context c, cl_uint ndev, const cl_device_id *devs, const size_t *lens, const unsigned char **bins, cl_int *status,
                          cl_int *errcode_ret) {
  ApiLock L;
  if (!valid_ctx(c)) RET_ERR(CL_INVALID_CONTEXT);
  if (!devs || ndev == 0) RET_ERR(CL_INVALID_VALUE);
  for (cl_uint i = 0; i < ndev; i++)
    if (!valid_device(devs[i])) RET_ERR(CL_INVALID_DEVICE);
  if (!lens || !bins) RET_ERR(CL_INVALID_VALUE);
  for (cl_uint i = 0; i < ndev; i++) {
    if (!lens[i] || !bins[i]) RET_ERR(CL_INVALID_VALUE);
    if (status) status[i] = CL_INVALID_BINARY;
  }
  RET_ERR(CL_INVALID_BINARY);  // this driver has no binary format
}

CLAPI(cl_program) clCreateProgramWithBuiltInKernels(cl_context c, cl_uint ndev, const cl_device_id *devs, const char *names, cl_int *errcode_ret) {
  ApiLock L;
  if (!valid_ctx(c)) RET_ERR(CL_INVALID_CONTEXT);
  if (!devs || ndev == 0 || !names) RET_ERR(CL_INVALID_VALUE);
  for (cl_uint i = 0; i < ndev; i++)
    if (!valid_device(devs[i])) RET_ERR(CL_INVALID_DEVICE);
  std::vector<const BuiltinKernel *> ks;
  std::string all = names;
  size_t pos = 0;
  while (pos <= all.size()) {
    size_t e = all.find(';', pos);
    if (e == std::string::npos) e = all.size();
    std::string n = all.substr(pos, e - pos);
    n.erase(0, n.find_first_not_of(" \t"));
    n.erase(n.find_last_not_of(" \t") + 1);
    const BuiltinKernel *k = find_builtin(n);
    if (!k) RET_ERR(CL_INVALID_VALUE);
    if (std::find(ks.begin(), ks.end(), k) == ks.end()) ks.push_back(k);
    pos = e + 1;
  }
  auto *p = track(new _cl_program(), Kind::Program);
  p->ctx = c;
  retain_obj(c);
  p->builtin = true;
  p->kernels = ks;
  p->build_status = CL_BUILD_SUCCESS;
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return p;
}

CLAPI(cl_int) clRetainProgram(cl_program p) { return count_ref_if_live(p, Kind::Program, CL_INVALID_PROGRAM, retain_obj); }
CLAPI(cl_int) clReleaseProgram(cl_program p) {
  delay_release_like_a_loaded_gpu();
  return count_ref_if_live(p, Kind::Program, CL_INVALID_PROGRAM, release_obj);
}

typedef void(CL_API_CALL *prog_notify_fn)(cl_program, void *);

static cl_int check_program_devices(cl_uint ndev, const cl_device_id *devs) {
  if ((ndev == 0) != (devs == nullptr)) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < ndev; i++)
    if (!valid_device(devs[i])) return CL_INVALID_DEVICE;
  return CL_SUCCESS;
}

CLAPI(cl_int) clBuildProgram(cl_program p, cl_uint ndev, const cl_device_id *devs, const char *options, prog_notify_fn fn, void *ud) {
  cl_int rc;
  {
    ApiLock L;
    if (!valid_program(p)) return CL_INVALID_PROGRAM;
    if ((rc = check_program_devices(ndev, devs))) return rc;
    if (!fn && ud) return CL_INVALID_VALUE;
    if (p->kernels_alive) return CL_INVALID_OPERATION;
    p->build_options = options ? options : "";
    if (p->builtin) {
      p->build_status = CL_BUILD_SUCCESS;
      rc = CL_SUCCESS;
    } else {
      p->build_status = CL_BUILD_ERROR;
      p->build_log = kNoCompilerLog;
      rc = CL_COMPILER_NOT_AVAILABLE;
    }
    retain_obj(p);
  }
  if (fn) fn(p, ud);
  ApiLock L;
  release_obj(p);
  return rc;
}

CLAPI(cl_int)
clCompileProgram(cl_program p, cl_uint ndev, const cl_device_id *devs, const char *options, cl_uint, const cl_program *, const char **,
                 prog_notify_fn fn, void *ud) {
  ApiLock L;
  if (!valid_program(p)) return CL_INVALID_PROGRAM;
  cl_int rc = check_program_devices(ndev, devs);
  if (rc) return rc;
  if (!fn && ud) return CL_INVALID_VALUE;
  if (p->builtin) return CL_INVALID_OPERATION;
  p->build_options = options ? options : "";
  p->build_status = CL_BUILD_ERROR;
  p->build_log = kNoCompilerLog;
  return CL_COMPILER_NOT_AVAILABLE;
}

CLAPI(cl_program)
clLinkProgram(cl_context c, cl_uint ndev, const cl_device_id *devs, const char *, cl_uint n, const cl_program *progs, prog_notify_fn fn, void *ud,
              cl_int *errcode_ret) {
  ApiLock L;
  if (!valid_ctx(c)) RET_ERR(CL_INVALID_CONTEXT);
  cl_int rc = check_program_devices(ndev, devs);
  if (rc) RET_ERR(rc);
  if (n == 0 || !progs || (!fn && ud)) RET_ERR(CL_INVALID_VALUE);
  for (cl_uint i = 0; i < n; i++)
    if (!valid_program(progs[i])) RET_ERR(CL_INVALID_PROGRAM);
  RET_ERR(CL_LINKER_NOT_AVAILABLE);
}

CLAPI(cl_int) clUnloadCompiler(void) { return CL_SUCCESS; }
CLAPI(cl_int) clUnloadPlatformCompiler(cl_platform_id p) { return (p == &g_platform) ? CL_SUCCESS : CL_INVALID_PLATFORM; }

CLAPI(cl_int) clGetProgramInfo(cl_program p, cl_program_info name, size_t sz, void *val, size_t *ret) {
  ApiLock L;
  if (!valid_program(p)) return CL_INVALID_PROGRAM;
  std::string names;
  for (auto k : p->kernels) names += (names.empty() ? "" : ";") + std::string(k->name);
  switch (name) {
    case CL_PROGRAM_REFERENCE_COUNT: return put(sz, val, ret, cl_uint(p->refs));
    case CL_PROGRAM_CONTEXT: return put(sz, val, ret, p->ctx);
    case CL_PROGRAM_NUM_DEVICES: return put(sz, val, ret, cl_uint(1));
    case CL_PROGRAM_DEVICES: return put(sz, val, ret, cl_device_id(&g_device));
    case CL_PROGRAM_SOURCE: return put_str(sz, val, ret, p->source);
    case CL_PROGRAM_BINARY_SIZES: return put(sz, val, ret, size_t(0));
    case CL_PROGRAM_BINARIES: return put(sz, val, ret, static_cast<unsigned char *>(nullptr));
    case CL_PROGRAM_NUM_KERNELS:
      if (p->build_status != CL_BUILD_SUCCESS) return CL_INVALID_PROGRAM_EXECUTABLE;
      return put(sz, val, ret, size_t(p->kernels.size()));
    case CL_PROGRAM_KERNEL_NAMES:
      if (p->build_status != CL_BUILD_SUCCESS) return CL_INVALID_PROGRAM_EXECUTABLE;
      return put_str(sz, val, ret, names);
    default: return CL_INVALID_VALUE;
  }
}

CLAPI(cl_int) clGetProgramBuildInfo(cl_program p, cl_device_id d, cl_program_build_info name, size_t sz, void *val, size_t *ret) {
  ApiLock L;
  if (!valid_program(p)) return CL_INVALID_PROGRAM;
  if (!valid_device(d)) return CL_INVALID_DEVICE;
  switch (name) {
    case CL_PROGRAM_BUILD_STATUS: return put(sz, val, ret, p->build_status);
    case CL_PROGRAM_BUILD_OPTIONS: return put_str(sz, val, ret, p->build_options);
    case CL_PROGRAM_BUILD_LOG: return put_str(sz, val, ret, p->build_log);
    case CL_PROGRAM_BINARY_TYPE:
      return put(sz, val, ret, cl_program_binary_type(p->builtin ? CL_PROGRAM_BINARY_TYPE_EXECUTABLE : CL_PROGRAM_BINARY_TYPE_NONE));
    default: return CL_INVALID_VALUE;
  }
}

// ----------------------------------------------------------------- kernels --
static bool valid_kernel(cl_kernel k) { return k && is_live(k, Kind::Kernel); }

static cl_kernel make_kernel(cl_program p, const BuiltinKernel *def) {
  auto *k = track(new _cl_kernel(), Kind::Kernel);
  k->program = p;
  retain_obj(p);
  p->kernels_alive++;
  k->def = def;
  k->args.resize(def->args.size());
  return k;
}

CLAPI(cl_kernel) clCreateKernel(cl_program p, const char *name, cl_int *errcode_ret) {
  ApiLock L;
  if (!valid_program(p)) RET_ERR(CL_INVALID_PROGRAM);
  if (p->build_status != CL_BUILD_SUCCESS) RET_ERR(CL_INVALID_PROGRAM_EXECUTABLE);
  if (!name) RET_ERR(CL_INVALID_VALUE);
  for (auto def : p->kernels)
    if (std::string(def->name) == name) {
      if (errcode_ret) *errcode_ret = CL_SUCCESS;
      return make_kernel(p, def);
    }
  RET_ERR(CL_INVALID_KERNEL_NAME);
}

CLAPI(cl_int) clCreateKernelsInProgram(cl_program p, cl_uint n, cl_kernel *ks, cl_uint *num) {
  ApiLock L;
  if (!valid_program(p)) return CL_INVALID_PROGRAM;
  if (p->build_status != CL_BUILD_SUCCESS) return CL_INVALID_PROGRAM_EXECUTABLE;
  if (ks && n < p->kernels.size()) return CL_INVALID_VALUE;
  if (ks)
    for (size_t i = 0; i < p->kernels.size(); i++) ks[i] = make_kernel(p, p->kernels[i]);
  if (num) *num = cl_uint(p->kernels.size());
  return CL_SUCCESS;
}

CLAPI(cl_int) clRetainKernel(cl_kernel k) { return count_ref_if_live(k, Kind::Kernel, CL_INVALID_KERNEL, retain_obj); }
CLAPI(cl_int) clReleaseKernel(cl_kernel k) {
  delay_release_like_a_loaded_gpu();
  return count_ref_if_live(k, Kind::Kernel, CL_INVALID_KERNEL, release_obj);
}

CLAPI(cl_int) clSetKernelArg(cl_kernel k, cl_uint idx, size_t size, const void *value) {
  ApiLock L;
  if (!valid_kernel(k)) return CL_INVALID_KERNEL;
  if (idx >= k->args.size()) return CL_INVALID_ARG_INDEX;
  const BuiltinArg &a = k->def->args[idx];
  if (size != sizeof(cl_mem)) return CL_INVALID_ARG_SIZE;
  cl_mem m = value ? *static_cast<const cl_mem *>(value) : nullptr;
  if (!m) {
    if (a.kind == ArgKind::Image) return CL_INVALID_ARG_VALUE;
    k->args[idx].set = true;
    k->args[idx].mem = nullptr;
    return CL_SUCCESS;
  }
  if (!valid_mem(m)) return CL_INVALID_MEM_OBJECT;
  if (m->ctx != k->program->ctx) return CL_INVALID_MEM_OBJECT;
  bool img = is_image(m);
  if ((a.kind == ArgKind::Image) != img) return CL_INVALID_ARG_VALUE;
  if (img && m->type != CL_MEM_OBJECT_IMAGE2D && m->type != CL_MEM_OBJECT_IMAGE3D) return CL_INVALID_ARG_VALUE;
  k->args[idx].set = true;
  k->args[idx].mem = m;
  return CL_SUCCESS;
}

CLAPI(cl_int) clGetKernelInfo(cl_kernel k, cl_kernel_info name, size_t sz, void *val, size_t *ret) {
  ApiLock L;
  if (!valid_kernel(k)) return CL_INVALID_KERNEL;
  switch (name) {
    case CL_KERNEL_FUNCTION_NAME: return put_str(sz, val, ret, k->def->name);
    case CL_KERNEL_NUM_ARGS: return put(sz, val, ret, cl_uint(k->args.size()));
    case CL_KERNEL_REFERENCE_COUNT: return put(sz, val, ret, cl_uint(k->refs));
    case CL_KERNEL_CONTEXT: return put(sz, val, ret, k->program->ctx);
    case CL_KERNEL_PROGRAM: return put(sz, val, ret, k->program);
    case CL_KERNEL_ATTRIBUTES: return put_str(sz, val, ret, "");
    default: return CL_INVALID_VALUE;
  }
}

CLAPI(cl_int) clGetKernelWorkGroupInfo(cl_kernel k, cl_device_id d, cl_kernel_work_group_info name, size_t sz, void *val, size_t *ret) {
  ApiLock L;
  if (!valid_kernel(k)) return CL_INVALID_KERNEL;
  if (d && !valid_device(d)) return CL_INVALID_DEVICE;
  switch (name) {
    case CL_KERNEL_WORK_GROUP_SIZE: return put(sz, val, ret, size_t(1024));
    case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: {
      size_t v[3] = {0, 0, 0};
      return put_bytes(sz, val, ret, v, sizeof v);
    }
    case CL_KERNEL_GLOBAL_WORK_SIZE: {
      size_t v[3] = {16384, 16384, 2048};
      return put_bytes(sz, val, ret, v, sizeof v);
    }
    case CL_KERNEL_LOCAL_MEM_SIZE:
    case CL_KERNEL_PRIVATE_MEM_SIZE: return put(sz, val, ret, cl_ulong(0));
    case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: return put(sz, val, ret, size_t(1));
    default: return CL_INVALID_VALUE;
  }
}

CLAPI(cl_int) clGetKernelArgInfo(cl_kernel k, cl_uint idx, cl_kernel_arg_info name, size_t sz, void *val, size_t *ret) {
  ApiLock L;
  if (!valid_kernel(k)) return CL_INVALID_KERNEL;
  if (idx >= k->args.size()) return CL_INVALID_ARG_INDEX;
  const BuiltinArg &a = k->def->args[idx];
  switch (name) {
    case CL_KERNEL_ARG_ADDRESS_QUALIFIER: return put(sz, val, ret, cl_kernel_arg_address_qualifier(CL_KERNEL_ARG_ADDRESS_GLOBAL));
    case CL_KERNEL_ARG_ACCESS_QUALIFIER: return put(sz, val, ret, a.access);
    case CL_KERNEL_ARG_TYPE_NAME: return put_str(sz, val, ret, a.type_name);
    case CL_KERNEL_ARG_TYPE_QUALIFIER: return put(sz, val, ret, a.type_qual);
    case CL_KERNEL_ARG_NAME: return put_str(sz, val, ret, a.name);
    default: return CL_INVALID_VALUE;
  }
}

// ------------------------------------------------------------------ events --
CLAPI(cl_int) clWaitForEvents(cl_uint n, const cl_event *list) {
  ApiLock L;
  if (n == 0 || !list) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < n; i++) {
    if (!valid_event(list[i])) return CL_INVALID_EVENT;
    if (list[i]->ctx != list[0]->ctx) return CL_INVALID_CONTEXT;
  }
  std::vector<cl_event> evs(list, list + n);
  for (auto e : evs) retain_obj(e);
  bool failed = false, stopped = false;
  for (auto e : evs) {
    if (!wait_for(L.lk, e)) stopped = true;
    else if (e->status < 0) failed = true;
  }
  for (auto e : evs) release_obj(e);
  if (stopped) return CL_OUT_OF_RESOURCES;  // the process is exiting: the driver has stopped
  return failed ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_SUCCESS;
}

CLAPI(cl_int) clGetEventInfo(cl_event e, cl_event_info name, size_t sz, void *val, size_t *ret) {
  ApiLock L;
  if (!valid_event(e)) return CL_INVALID_EVENT;
  switch (name) {
    case CL_EVENT_COMMAND_QUEUE: return put(sz, val, ret, e->queue);
    case CL_EVENT_CONTEXT: return put(sz, val, ret, e->ctx);
    case CL_EVENT_COMMAND_TYPE: return put(sz, val, ret, e->type);
    case CL_EVENT_COMMAND_EXECUTION_STATUS: return put(sz, val, ret, e->status);
    case CL_EVENT_REFERENCE_COUNT: return put(sz, val, ret, cl_uint(e->refs));
    default: return CL_INVALID_VALUE;
  }
}

CLAPI(cl_int) clRetainEvent(cl_event e) { return count_ref_if_live(e, Kind::Event, CL_INVALID_EVENT, retain_obj); }
CLAPI(cl_int) clReleaseEvent(cl_event e) { return count_ref_if_live(e, Kind::Event, CL_INVALID_EVENT, release_obj); }

CLAPI(cl_int) clGetEventProfilingInfo(cl_event e, cl_profiling_info name, size_t sz, void *val, size_t *ret) {
  ApiLock L;
  if (!valid_event(e)) return CL_INVALID_EVENT;
  if (!e->queue || !(e->queue->props & CL_QUEUE_PROFILING_ENABLE) || e->status != CL_COMPLETE) return CL_PROFILING_INFO_NOT_AVAILABLE;
  switch (name) {
    case CL_PROFILING_COMMAND_QUEUED: return put(sz, val, ret, cl_ulong(e->t_queued));
    case CL_PROFILING_COMMAND_SUBMIT: return put(sz, val, ret, cl_ulong(e->t_submit));
    case CL_PROFILING_COMMAND_START: return put(sz, val, ret, cl_ulong(e->t_start));
    case CL_PROFILING_COMMAND_END: return put(sz, val, ret, cl_ulong(e->t_end));
    default: return CL_INVALID_VALUE;
  }
}

CLAPI(cl_int) clSetEventCallback(cl_event e, cl_int type, void(CL_API_CALL *fn)(cl_event, cl_int, void *), void *data) {
  // REFDRV_NO_EVENT_CALLBACKS=1 models an OpenCL 1.0 implementation (Wine's
  // opencl.dll answers this way), for testing clients' fallbacks.
  static const bool no_callbacks = [] {
    const char *v = std::getenv("REFDRV_NO_EVENT_CALLBACKS");
    return v && *v && std::string(v) != "0";
  }();
  if (no_callbacks) return CL_INVALID_OPERATION;
  ApiLock L;
  if (!valid_event(e)) return CL_INVALID_EVENT;
  if (!fn || (type != CL_COMPLETE && type != CL_SUBMITTED && type != CL_RUNNING)) return CL_INVALID_VALUE;
  e->callbacks.push_back({type, fn, data, false});
  if (e->status <= type) set_status(e, e->status);  // already reached: fire from the callback thread
  return CL_SUCCESS;
}

CLAPI(cl_event) clCreateUserEvent(cl_context c, cl_int *errcode_ret) {
  ApiLock L;
  if (!valid_ctx(c)) RET_ERR(CL_INVALID_CONTEXT);
  auto *e = track(new _cl_event(), Kind::Event);
  e->ctx = c;
  retain_obj(c);
  e->queue = nullptr;
  e->type = CL_COMMAND_USER;
  e->status = CL_SUBMITTED;
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return e;
}

CLAPI(cl_int) clSetUserEventStatus(cl_event e, cl_int st) {
  ApiLock L;
  if (!valid_event(e) || e->type != CL_COMMAND_USER || e->queue) return CL_INVALID_EVENT;
  if (st > 0) return CL_INVALID_VALUE;
  if (e->status <= 0) return CL_INVALID_OPERATION;
  set_status(e, st);
  return CL_SUCCESS;
}

// --------------------------------------------------------- enqueue helpers --
#define CHECK_Q(q)                                        \
  do {                                                    \
    if (!valid_queue(q)) return CL_INVALID_COMMAND_QUEUE; \
  } while (0)

static cl_int check_mem_for_queue(cl_command_queue q, cl_mem m, bool want_image) {
  if (!valid_mem(m)) return CL_INVALID_MEM_OBJECT;
  if (is_image(m) != want_image) return CL_INVALID_MEM_OBJECT;
  if (m->ctx != q->ctx) return CL_INVALID_CONTEXT;
  return CL_SUCCESS;
}

// wait list + acquire checks, in the order real drivers report them
static cl_int common_checks(cl_command_queue q, std::initializer_list<cl_mem> mems, cl_uint nw, const cl_event *wl) {
  cl_int rc = check_wait_list(q->ctx, nw, wl);
  if (rc) return rc;
  for (cl_mem m : mems)
    if (m && (rc = check_acquired(m))) {
      context_notify(q->ctx, "opencl-interop reference driver: shared memory object used while not acquired (" +
                                 error_name(rc, m->parent ? m->parent->ext : m->ext) + ")");
      return rc;
    }
  return CL_SUCCESS;
}

static cl_int finish_enqueue(ApiLock &L, cl_event ev, cl_bool blocking) {
  if (blocking) {
    retain_obj(ev);
    bool done = wait_for(L.lk, ev);
    cl_int st = ev->status;
    release_obj(ev);
    if (!done) return CL_OUT_OF_RESOURCES;  // the process is exiting: the driver has stopped
    if (st < 0) return CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  }
  return CL_SUCCESS;
}

static void copy_rect(uint8_t *dst, const size_t *dorg, size_t drp, size_t dsp, const uint8_t *src, const size_t *sorg, size_t srp, size_t ssp,
                      const size_t *region) {
  for (size_t z = 0; z < region[2]; z++)
    for (size_t y = 0; y < region[1]; y++)
      memmove(dst + dorg[0] + (dorg[1] + y) * drp + (dorg[2] + z) * dsp, src + sorg[0] + (sorg[1] + y) * srp + (sorg[2] + z) * ssp, region[0]);
}

// ------------------------------------------------------------- buffer ops --
CLAPI(cl_int)
clEnqueueReadBuffer(cl_command_queue q, cl_mem b, cl_bool blocking, size_t off, size_t size, void *ptr, cl_uint nw, const cl_event *wl,
                    cl_event *ev) {
  ApiLock L;
  CHECK_Q(q);
  cl_int rc = check_mem_for_queue(q, b, false);
  if (rc) return rc;
  if (!ptr || size == 0 || off > b->size || size > b->size - off) return CL_INVALID_VALUE;
  if (b->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)) return CL_INVALID_OPERATION;
  if ((rc = common_checks(q, {b}, nw, wl))) return rc;
  uint8_t *src = b->data + off;
  cl_event e = enqueue(
      q, CL_COMMAND_READ_BUFFER, nw, wl, {b},
      [=] {
        memcpy(ptr, src, size);
        return CL_SUCCESS;
      },
      ev);
  return finish_enqueue(L, e, blocking);
}

CLAPI(cl_int)
clEnqueueWriteBuffer(cl_command_queue q, cl_mem b, cl_bool blocking, size_t off, size_t size, const void *ptr, cl_uint nw, const cl_event *wl,
                     cl_event *ev) {
  ApiLock L;
  CHECK_Q(q);
  cl_int rc = check_mem_for_queue(q, b, false);
  if (rc) return rc;
  if (!ptr || size == 0 || off > b->size || size > b->size - off) return CL_INVALID_VALUE;
  if (b->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)) return CL_INVALID_OPERATION;
  if ((rc = common_checks(q, {b}, nw, wl))) return rc;
  uint8_t *dst = b->data + off;
  cl_event e = enqueue(
      q, CL_COMMAND_WRITE_BUFFER, nw, wl, {b},
      [=] {
        memcpy(dst, ptr, size);
        return CL_SUCCESS;
      },
      ev);
  return finish_enqueue(L, e, blocking);
}

static bool rect_args(const size_t *bo, const size_t *ho, const size_t *r, size_t &brp, size_t &bsp, size_t &hrp, size_t &hsp, size_t bsize) {
  if (!bo || !ho || !r || !r[0] || !r[1] || !r[2]) return false;
  if (brp == 0) brp = r[0];
  if (bsp == 0) bsp = r[1] * brp;
  if (hrp == 0) hrp = r[0];
  if (hsp == 0) hsp = r[1] * hrp;
  if (brp < r[0] || hrp < r[0] || bsp < r[1] * brp || hsp < r[1] * hrp) return false;
  if (bsp % brp || hsp % hrp) return false;
  size_t last = bo[0] + r[0] - 1 + (bo[1] + r[1] - 1) * brp + (bo[2] + r[2] - 1) * bsp;
  return last < bsize;
}

static cl_int rect_op(cl_command_queue q, cl_mem b, cl_bool blocking, const size_t *bo, const size_t *ho, const size_t *r, size_t brp, size_t bsp,
                      size_t hrp, size_t hsp, void *ptr, bool write, cl_uint nw, const cl_event *wl, cl_event *ev) {
  ApiLock L;
  CHECK_Q(q);
  cl_int rc = check_mem_for_queue(q, b, false);
  if (rc) return rc;
  if (!ptr || !rect_args(bo, ho, r, brp, bsp, hrp, hsp, b->size)) return CL_INVALID_VALUE;
  if (b->flags & (write ? (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS) : (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)))
    return CL_INVALID_OPERATION;
  if ((rc = common_checks(q, {b}, nw, wl))) return rc;
  size_t B[3] = {bo[0], bo[1], bo[2]}, H[3] = {ho[0], ho[1], ho[2]}, R[3] = {r[0], r[1], r[2]};
  uint8_t *data = b->data, *host = static_cast<uint8_t *>(ptr);
  cl_event e = enqueue(
      q, write ? CL_COMMAND_WRITE_BUFFER_RECT : CL_COMMAND_READ_BUFFER_RECT, nw, wl, {b},
      [=] {
        if (write) copy_rect(data, B, brp, bsp, host, H, hrp, hsp, R);
        else copy_rect(host, H, hrp, hsp, data, B, brp, bsp, R);
        return CL_SUCCESS;
      },
      ev);
  return finish_enqueue(L, e, blocking);
}

CLAPI(cl_int)
clEnqueueReadBufferRect(cl_command_queue q, cl_mem b, cl_bool blocking, const size_t *bo, const size_t *ho, const size_t *r, size_t brp, size_t bsp,
                        size_t hrp, size_t hsp, void *ptr, cl_uint nw, const cl_event *wl, cl_event *ev) {
  return rect_op(q, b, blocking, bo, ho, r, brp, bsp, hrp, hsp, ptr, false, nw, wl, ev);
}
CLAPI(cl_int)
clEnqueueWriteBufferRect(cl_command_queue q, cl_mem b, cl_bool blocking, const size_t *bo, const size_t *ho, const size_t *r, size_t brp, size_t bsp,
                         size_t hrp, size_t hsp, const void *ptr, cl_uint nw, const cl_event *wl, cl_event *ev) {
  return rect_op(q, b, blocking, bo, ho, r, brp, bsp, hrp, hsp, const_cast<void *>(ptr), true, nw, wl, ev);
}

CLAPI(cl_int)
clEnqueueCopyBuffer(cl_command_queue q, cl_mem s, cl_mem d, size_t so, size_t dof, size_t size, cl_uint nw, const cl_event *wl, cl_event *ev) {
  ApiLock L;
  CHECK_Q(q);
  cl_int rc;
  if ((rc = check_mem_for_queue(q, s, false)) || (rc = check_mem_for_queue(q, d, false))) return rc;
  if (size == 0 || so > s->size || size > s->size - so || dof > d->size || size > d->size - dof) return CL_INVALID_VALUE;
  uint8_t *sp = s->data + so, *dp = d->data + dof;
  if (sp < dp + size && dp < sp + size) return CL_MEM_COPY_OVERLAP;
  if ((rc = common_checks(q, {s, d}, nw, wl))) return rc;
  enqueue(
      q, CL_COMMAND_COPY_BUFFER, nw, wl, {s, d},
      [=] {
        memmove(dp, sp, size);
        return CL_SUCCESS;
      },
      ev);
  return CL_SUCCESS;
}

CLAPI(cl_int)
clEnqueueCopyBufferRect(cl_command_queue q, cl_mem s, cl_mem d, const size_t *so, const size_t *dof, const size_t *r, size_t srp, size_t ssp,
                        size_t drp, size_t dsp, cl_uint nw, const cl_event *wl, cl_event *ev) {
  ApiLock L;
  CHECK_Q(q);
  cl_int rc;
  if ((rc = check_mem_for_queue(q, s, false)) || (rc = check_mem_for_queue(q, d, false))) return rc;
  size_t srp2 = srp, ssp2 = ssp, drp2 = drp, dsp2 = dsp;
  if (!rect_args(so, dof, r, srp2, ssp2, drp2, dsp2, s->size)) return CL_INVALID_VALUE;
  size_t a = drp2, b2 = dsp2, c2 = srp2, d2 = ssp2;
  if (!rect_args(dof, so, r, a, b2, c2, d2, d->size)) return CL_INVALID_VALUE;
  if ((rc = common_checks(q, {s, d}, nw, wl))) return rc;
  size_t S[3] = {so[0], so[1], so[2]}, D[3] = {dof[0], dof[1], dof[2]}, R[3] = {r[0], r[1], r[2]};
  uint8_t *sd = s->data, *dd = d->data;
  enqueue(
      q, CL_COMMAND_COPY_BUFFER_RECT, nw, wl, {s, d},
      [=] {
        copy_rect(dd, D, drp2, dsp2, sd, S, srp2, ssp2, R);
        return CL_SUCCESS;
      },
      ev);
  return CL_SUCCESS;
}

CLAPI(cl_int)
clEnqueueFillBuffer(cl_command_queue q, cl_mem b, const void *pattern, size_t psize, size_t off, size_t size, cl_uint nw, const cl_event *wl,
                    cl_event *ev) {
  ApiLock L;
  CHECK_Q(q);
  cl_int rc = check_mem_for_queue(q, b, false);
  if (rc) return rc;
  bool pow2 = psize && !(psize & (psize - 1)) && psize <= 128;
  if (!pattern || !pow2 || off % psize || size % psize || off > b->size || size > b->size - off) return CL_INVALID_VALUE;
  if ((rc = common_checks(q, {b}, nw, wl))) return rc;
  std::vector<uint8_t> pat(static_cast<const uint8_t *>(pattern), static_cast<const uint8_t *>(pattern) + psize);
  uint8_t *dst = b->data + off;
  enqueue(
      q, CL_COMMAND_FILL_BUFFER, nw, wl, {b},
      [=] {
        for (size_t i = 0; i < size; i += psize) memcpy(dst + i, pat.data(), psize);
        return CL_SUCCESS;
      },
      ev);
  return CL_SUCCESS;
}

// -------------------------------------------------------------- image ops --
CLAPI(cl_int)
clEnqueueReadImage(cl_command_queue q, cl_mem im, cl_bool blocking, const size_t *origin, const size_t *region, size_t rp, size_t sp, void *ptr,
                   cl_uint nw, const cl_event *wl, cl_event *ev) {
  ApiLock L;
  CHECK_Q(q);
  cl_int rc = check_mem_for_queue(q, im, true);
  if (rc) return rc;
  if (!ptr || !region_ok(im, origin, region)) return CL_INVALID_VALUE;
  if (rp == 0) rp = region[0] * im->elem;
  if (sp == 0) sp = rp * region[1];
  if (rp < region[0] * im->elem || sp < rp * region[1]) return CL_INVALID_VALUE;
  if (im->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)) return CL_INVALID_OPERATION;
  if ((rc = common_checks(q, {im}, nw, wl))) return rc;
  size_t O[3] = {origin[0] * im->elem, origin[1], origin[2]}, R[3] = {region[0] * im->elem, region[1], region[2]};
  size_t Z[3] = {0, 0, 0};
  uint8_t *data = im->data;
  size_t irp = im->row_pitch, isp = im->slice_pitch;
  cl_event e = enqueue(
      q, CL_COMMAND_READ_IMAGE, nw, wl, {im},
      [=] {
        copy_rect(static_cast<uint8_t *>(ptr), Z, rp, sp, data, O, irp, isp, R);
        return CL_SUCCESS;
      },
      ev);
  return finish_enqueue(L, e, blocking);
}

CLAPI(cl_int)
clEnqueueWriteImage(cl_command_queue q, cl_mem im, cl_bool blocking, const size_t *origin, const size_t *region, size_t rp, size_t sp,
                    const void *ptr, cl_uint nw, const cl_event *wl, cl_event *ev) {
  ApiLock L;
  CHECK_Q(q);
  cl_int rc = check_mem_for_queue(q, im, true);
  if (rc) return rc;
  if (!ptr || !region_ok(im, origin, region)) return CL_INVALID_VALUE;
  if (rp == 0) rp = region[0] * im->elem;
  if (sp == 0) sp = rp * region[1];
  if (rp < region[0] * im->elem || sp < rp * region[1]) return CL_INVALID_VALUE;
  if (im->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)) return CL_INVALID_OPERATION;
  if ((rc = common_checks(q, {im}, nw, wl))) return rc;
  size_t O[3] = {origin[0] * im->elem, origin[1], origin[2]}, R[3] = {region[0] * im->elem, region[1], region[2]};
  size_t Z[3] = {0, 0, 0};
  uint8_t *data = im->data;
  size_t irp = im->row_pitch, isp = im->slice_pitch;
  const uint8_t *src = static_cast<const uint8_t *>(ptr);
  cl_event e = enqueue(
      q, CL_COMMAND_WRITE_IMAGE, nw, wl, {im},
      [=] {
        copy_rect(data, O, irp, isp, src, Z, rp, sp, R);
        return CL_SUCCESS;
      },
      ev);
  return finish_enqueue(L, e, blocking);
}

CLAPI(cl_int)
clEnqueueCopyImage(cl_command_queue q, cl_mem s, cl_mem d, const size_t *so, const size_t *dof, const size_t *region, cl_uint nw, const cl_event *wl,
                   cl_event *ev) {
  ApiLock L;
  CHECK_Q(q);
  cl_int rc;
  if ((rc = check_mem_for_queue(q, s, true)) || (rc = check_mem_for_queue(q, d, true))) return rc;
  if (s->fmt.image_channel_order != d->fmt.image_channel_order || s->fmt.image_channel_data_type != d->fmt.image_channel_data_type)
    return CL_IMAGE_FORMAT_MISMATCH;
  if (!region_ok(s, so, region) || !region_ok(d, dof, region)) return CL_INVALID_VALUE;
  if (s == d) {
    bool overlap = true;
    for (int i = 0; i < 3; i++)
      if (so[i] + region[i] <= dof[i] || dof[i] + region[i] <= so[i]) overlap = false;
    if (overlap) return CL_MEM_COPY_OVERLAP;
  }
  if ((rc = common_checks(q, {s, d}, nw, wl))) return rc;
  size_t e = s->elem;
  size_t S[3] = {so[0] * e, so[1], so[2]}, D[3] = {dof[0] * e, dof[1], dof[2]}, R[3] = {region[0] * e, region[1], region[2]};
  uint8_t *sd = s->data, *dd = d->data;
  size_t srp = s->row_pitch, ssp = s->slice_pitch, drp = d->row_pitch, dsp = d->slice_pitch;
  enqueue(
      q, CL_COMMAND_COPY_IMAGE, nw, wl, {s, d},
      [=] {
        copy_rect(dd, D, drp, dsp, sd, S, srp, ssp, R);
        return CL_SUCCESS;
      },
      ev);
  return CL_SUCCESS;
}

CLAPI(cl_int)
clEnqueueCopyImageToBuffer(cl_command_queue q, cl_mem s, cl_mem d, const size_t *so, const size_t *region, size_t doff, cl_uint nw,
                           const cl_event *wl, cl_event *ev) {
  ApiLock L;
  CHECK_Q(q);
  cl_int rc;
  if ((rc = check_mem_for_queue(q, s, true)) || (rc = check_mem_for_queue(q, d, false))) return rc;
  if (!region_ok(s, so, region)) return CL_INVALID_VALUE;
  size_t e = s->elem, bytes = region[0] * region[1] * region[2] * e;
  if (doff > d->size || bytes > d->size - doff) return CL_INVALID_VALUE;
  if ((rc = common_checks(q, {s, d}, nw, wl))) return rc;
  size_t S[3] = {so[0] * e, so[1], so[2]}, Z[3] = {doff, 0, 0}, R[3] = {region[0] * e, region[1], region[2]};
  uint8_t *sd = s->data, *dd = d->data;
  size_t srp = s->row_pitch, ssp = s->slice_pitch, rb = R[0], sb = R[0] * R[1];
  enqueue(
      q, CL_COMMAND_COPY_IMAGE_TO_BUFFER, nw, wl, {s, d},
      [=] {
        copy_rect(dd, Z, rb, sb, sd, S, srp, ssp, R);
        return CL_SUCCESS;
      },
      ev);
  return CL_SUCCESS;
}

CLAPI(cl_int)
clEnqueueCopyBufferToImage(cl_command_queue q, cl_mem s, cl_mem d, size_t soff, const size_t *dof, const size_t *region, cl_uint nw,
                           const cl_event *wl, cl_event *ev) {
  ApiLock L;
  CHECK_Q(q);
  cl_int rc;
  if ((rc = check_mem_for_queue(q, s, false)) || (rc = check_mem_for_queue(q, d, true))) return rc;
  if (!region_ok(d, dof, region)) return CL_INVALID_VALUE;
  size_t e = d->elem, bytes = region[0] * region[1] * region[2] * e;
  if (soff > s->size || bytes > s->size - soff) return CL_INVALID_VALUE;
  if ((rc = common_checks(q, {s, d}, nw, wl))) return rc;
  size_t D[3] = {dof[0] * e, dof[1], dof[2]}, Z[3] = {soff, 0, 0}, R[3] = {region[0] * e, region[1], region[2]};
  uint8_t *sd = s->data, *dd = d->data;
  size_t drp = d->row_pitch, dsp = d->slice_pitch, rb = R[0], sb = R[0] * R[1];
  enqueue(
      q, CL_COMMAND_COPY_BUFFER_TO_IMAGE, nw, wl, {s, d},
      [=] {
        copy_rect(dd, D, drp, dsp, sd, Z, rb, sb, R);
        return CL_SUCCESS;
      },
      ev);
  return CL_SUCCESS;
}

namespace refdrv {
void encode_pixel(const cl_image_format &f, const float *fv, const int32_t *iv, const uint32_t *uv, uint8_t *out);
}

// REFDRV_GATED_FILL_IMAGE3D=block: clEnqueueFillImage of a 3D image returns
// only once its wait list has ended, as NVIDIA's driver (580) does (a 2D
// image's fill returns at once there): behind a user event that only the
// calling thread can set, it never returns.
static void fill_image3d_waits_like_nvidia(cl_mem im, cl_uint nw, const cl_event *wl) {
  static const bool blocks = env_is("REFDRV_GATED_FILL_IMAGE3D", "block");
  if (!blocks || !nw || !wl) return;
  bool image3d;
  {
    ApiLock L;
    image3d = valid_mem(im) && im->type == CL_MEM_OBJECT_IMAGE3D && check_wait_list(im->ctx, nw, wl) == CL_SUCCESS;
  }
  if (image3d) (void)clWaitForEvents(nw, wl);  // the enqueue reports the wait list's state itself
}

CLAPI(cl_int)
clEnqueueFillImage(cl_command_queue q, cl_mem im, const void *color, const size_t *origin, const size_t *region, cl_uint nw, const cl_event *wl,
                   cl_event *ev) {
  fill_image3d_waits_like_nvidia(im, nw, wl);
  ApiLock L;
  CHECK_Q(q);
  cl_int rc = check_mem_for_queue(q, im, true);
  if (rc) return rc;
  if (!color || !region_ok(im, origin, region)) return CL_INVALID_VALUE;
  if ((rc = common_checks(q, {im}, nw, wl))) return rc;
  uint8_t px[16];
  const void *c = color;
  encode_pixel(im->fmt, static_cast<const float *>(c), static_cast<const int32_t *>(c), static_cast<const uint32_t *>(c), px);
  std::vector<uint8_t> pix(px, px + im->elem);
  size_t O[3] = {origin[0], origin[1], origin[2]}, R[3] = {region[0], region[1], region[2]};
  cl_mem m = im;
  enqueue(
      q, CL_COMMAND_FILL_IMAGE, nw, wl, {im},
      [=] {
        for (size_t z = 0; z < R[2]; z++)
          for (size_t y = 0; y < R[1]; y++)
            for (size_t x = 0; x < R[0]; x++) memcpy(pixel_ptr(m, O[0] + x, O[1] + y, O[2] + z), pix.data(), pix.size());
        return CL_SUCCESS;
      },
      ev);
  return CL_SUCCESS;
}

// ------------------------------------------------------------------ mapping --
static bool map_flags_ok(cl_map_flags f) {
  if (f & ~cl_map_flags(CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) return false;
  if ((f & CL_MAP_WRITE_INVALIDATE_REGION) && (f & (CL_MAP_READ | CL_MAP_WRITE))) return false;
  return true;
}
static bool map_host_ok(cl_mem m, cl_map_flags f) {
  if ((f & CL_MAP_READ) && (m->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS))) return false;
  if ((f & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) && (m->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS))) return false;
  return true;
}

// REFDRV_FAILED_MAP_UNMAP=abort: an unmap of a pointer whose map command
// failed (before the unmap is enqueued, or later while the unmap has not run)
// aborts the process, as NVIDIA's driver (580) faults unmapping a map that
// failed (a failed map maps nothing). Each map is recorded by its memory object
// and pointer; an unmap takes the earliest record of its pointer whose map has
// not failed, and aborts when every map of the pointer failed.
namespace refdrv {
namespace {
struct MapRecord {
  cl_mem mem;
  void *ptr;
  cl_event map;  // retained
};
bool checks_unmaps() {
  static const bool on = env_is("REFDRV_FAILED_MAP_UNMAP", "abort");
  return on;
}
std::vector<MapRecord> &map_records() {
  static auto *records = new std::vector<MapRecord>();  // never destroyed: driver threads may outlive main()
  return *records;
}
[[noreturn]] void abort_unmap_of_failed_map(cl_int status) {
  std::fprintf(stderr,
               "opencl-interop reference driver: clEnqueueUnmapMemObject of a pointer whose map command failed (status %d): "
               "aborting, as NVIDIA's driver faults there (REFDRV_FAILED_MAP_UNMAP=abort)\n",
               int(status));
  std::abort();
}
// A map that returned its pointer (lock held).
void note_map(cl_mem m, void *ptr, cl_event map) {
  if (!checks_unmaps()) return;
  retain_obj(map);
  map_records().push_back({m, ptr, map});
}
// An unmap of `ptr` was just enqueued (lock held).
void check_unmap(cl_mem m, void *ptr, cl_event unmap) {
  if (!checks_unmaps()) return;
  auto &records = map_records();
  auto of_ptr = [&](const MapRecord &r) { return r.mem == m && r.ptr == ptr; };
  // The earliest mapping of the pointer whose map has not failed; only one whose every map failed aborts.
  auto it = std::find_if(records.begin(), records.end(), [&](const MapRecord &r) { return of_ptr(r) && r.map->status >= 0; });
  if (it == records.end()) it = std::find_if(records.begin(), records.end(), of_ptr);
  if (it == records.end()) return;
  cl_event map = it->map;
  records.erase(it);
  if (map->status < 0) abort_unmap_of_failed_map(map->status);
  if (map->status == CL_COMPLETE) return release_obj(map);
  retain_obj(unmap);
  G().watchers.push_back([map, unmap] {
    if (map->status < 0) abort_unmap_of_failed_map(map->status);
    if (map->status > 0 && unmap->status > 0) return false;
    release_obj(map);
    release_obj(unmap);
    return true;
  });
  wake_worker();
}
}  // namespace

// The memory object is being destroyed: its map records go (lock held).
void forget_map_records(cl_mem m) {
  auto &records = map_records();
  for (auto it = records.begin(); it != records.end();) {
    if (it->mem != m) {
      ++it;
      continue;
    }
    cl_event map = it->map;
    it = records.erase(it);
    release_obj(map);
  }
}
}  // namespace refdrv

CLAPI(void *)
clEnqueueMapBuffer(cl_command_queue q, cl_mem b, cl_bool blocking, cl_map_flags flags, size_t off, size_t size, cl_uint nw, const cl_event *wl,
                   cl_event *ev, cl_int *errcode_ret) {
  ApiLock L;
  if (!valid_queue(q)) RET_ERR(CL_INVALID_COMMAND_QUEUE);
  cl_int rc = check_mem_for_queue(q, b, false);
  if (rc) RET_ERR(rc);
  if (!map_flags_ok(flags) || size == 0 || off > b->size || size > b->size - off) RET_ERR(CL_INVALID_VALUE);
  if (!map_host_ok(b, flags)) RET_ERR(CL_INVALID_OPERATION);
  if ((rc = common_checks(q, {b}, nw, wl))) RET_ERR(rc);
  b->map_count++;
  cl_event e = enqueue(q, CL_COMMAND_MAP_BUFFER, nw, wl, {b}, nullptr, ev);
  if ((rc = finish_enqueue(L, e, blocking))) RET_ERR(rc);
  note_map(b, b->data + off, e);
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return b->data + off;
}

CLAPI(void *)
clEnqueueMapImage(cl_command_queue q, cl_mem im, cl_bool blocking, cl_map_flags flags, const size_t *origin, const size_t *region, size_t *rp,
                  size_t *sp, cl_uint nw, const cl_event *wl, cl_event *ev, cl_int *errcode_ret) {
  ApiLock L;
  if (!valid_queue(q)) RET_ERR(CL_INVALID_COMMAND_QUEUE);
  cl_int rc = check_mem_for_queue(q, im, true);
  if (rc) RET_ERR(rc);
  if (!map_flags_ok(flags) || !region_ok(im, origin, region) || !rp) RET_ERR(CL_INVALID_VALUE);
  bool needs_slice = im->type == CL_MEM_OBJECT_IMAGE3D || im->type == CL_MEM_OBJECT_IMAGE2D_ARRAY || im->type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
  if (needs_slice && !sp) RET_ERR(CL_INVALID_VALUE);
  if (!map_host_ok(im, flags)) RET_ERR(CL_INVALID_OPERATION);
  if ((rc = common_checks(q, {im}, nw, wl))) RET_ERR(rc);
  im->map_count++;
  cl_event e = enqueue(q, CL_COMMAND_MAP_IMAGE, nw, wl, {im}, nullptr, ev);
  if ((rc = finish_enqueue(L, e, blocking))) RET_ERR(rc);
  *rp = im->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? im->width * im->elem : im->row_pitch;
  if (sp) *sp = needs_slice ? im->slice_pitch : 0;
  note_map(im, pixel_ptr(im, origin[0], origin[1], origin[2]), e);
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return pixel_ptr(im, origin[0], origin[1], origin[2]);
}

CLAPI(cl_int) clEnqueueUnmapMemObject(cl_command_queue q, cl_mem m, void *ptr, cl_uint nw, const cl_event *wl, cl_event *ev) {
  ApiLock L;
  CHECK_Q(q);
  if (!valid_mem(m)) return CL_INVALID_MEM_OBJECT;
  if (m->ctx != q->ctx) return CL_INVALID_CONTEXT;
  uint8_t *p = static_cast<uint8_t *>(ptr);
  if (!p || m->map_count == 0 || p < m->data || p >= m->data + m->size) return CL_INVALID_VALUE;
  cl_int rc = common_checks(q, {m}, nw, wl);
  if (rc) return rc;
  m->map_count--;
  cl_event e = enqueue(q, CL_COMMAND_UNMAP_MEM_OBJECT, nw, wl, {m}, nullptr, ev);
  check_unmap(m, p, e);
  return CL_SUCCESS;
}

CLAPI(cl_int)
clEnqueueMigrateMemObjects(cl_command_queue q, cl_uint n, const cl_mem *mems, cl_mem_migration_flags f, cl_uint nw, const cl_event *wl,
                           cl_event *ev) {
  ApiLock L;
  CHECK_Q(q);
  if (n == 0 || !mems) return CL_INVALID_VALUE;
  if (f & ~cl_mem_migration_flags(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)) return CL_INVALID_VALUE;
  std::vector<cl_mem> v;
  for (cl_uint i = 0; i < n; i++) {
    if (!valid_mem(mems[i])) return CL_INVALID_MEM_OBJECT;
    if (mems[i]->ctx != q->ctx) return CL_INVALID_CONTEXT;
    v.push_back(mems[i]);
  }
  cl_int rc = check_wait_list(q->ctx, nw, wl);
  if (rc) return rc;
  for (auto m : v)
    if ((rc = check_acquired(m))) return rc;
  enqueue(q, CL_COMMAND_MIGRATE_MEM_OBJECTS, nw, wl, v, nullptr, ev);
  return CL_SUCCESS;
}

// -------------------------------------------------------- markers/barriers --
CLAPI(cl_int) clEnqueueMarkerWithWaitList(cl_command_queue q, cl_uint nw, const cl_event *wl, cl_event *ev) {
  ApiLock L;
  CHECK_Q(q);
  cl_int rc = check_wait_list(q->ctx, nw, wl);
  if (rc) return rc;
  enqueue(q, CL_COMMAND_MARKER, nw, wl, {}, nullptr, ev);
  return CL_SUCCESS;
}
CLAPI(cl_int) clEnqueueBarrierWithWaitList(cl_command_queue q, cl_uint nw, const cl_event *wl, cl_event *ev) {
  ApiLock L;
  CHECK_Q(q);
  cl_int rc = check_wait_list(q->ctx, nw, wl);
  if (rc) return rc;
  enqueue(q, CL_COMMAND_BARRIER, nw, wl, {}, nullptr, ev, true);
  return CL_SUCCESS;
}
CLAPI(cl_int) clEnqueueMarker(cl_command_queue q, cl_event *ev) {
  ApiLock L;
  CHECK_Q(q);
  if (!ev) return CL_INVALID_VALUE;
  enqueue(q, CL_COMMAND_MARKER, 0, nullptr, {}, nullptr, ev);
  return CL_SUCCESS;
}
CLAPI(cl_int) clEnqueueBarrier(cl_command_queue q) {
  ApiLock L;
  CHECK_Q(q);
  enqueue(q, CL_COMMAND_BARRIER, 0, nullptr, {}, nullptr, nullptr, true);
  return CL_SUCCESS;
}
CLAPI(cl_int) clEnqueueWaitForEvents(cl_command_queue q, cl_uint n, const cl_event *list) {
  ApiLock L;
  CHECK_Q(q);
  if (n == 0 || !list) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < n; i++) {
    if (!valid_event(list[i])) return CL_INVALID_EVENT;
    if (list[i]->ctx != q->ctx) return CL_INVALID_CONTEXT;
  }
  enqueue(q, CL_COMMAND_BARRIER, n, list, {}, nullptr, nullptr, true);
  return CL_SUCCESS;
}

// ------------------------------------------------------------------ kernels --
CLAPI(cl_int)
clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dim, const size_t *off, const size_t *gsz, const size_t *lsz, cl_uint nw,
                       const cl_event *wl, cl_event *ev) {
  ApiLock L;
  CHECK_Q(q);
  if (!valid_kernel(k)) return CL_INVALID_KERNEL;
  if (k->program->ctx != q->ctx) return CL_INVALID_CONTEXT;
  if (dim < 1 || dim > 3) return CL_INVALID_WORK_DIMENSION;
  if (!gsz) return CL_INVALID_VALUE;
  static const size_t maxi[3] = {1024, 1024, 64};
  size_t prod = 1;
  for (cl_uint i = 0; i < dim; i++) {
    if (gsz[i] == 0) return CL_INVALID_GLOBAL_WORK_SIZE;
    if (off && off[i] + gsz[i] < off[i]) return CL_INVALID_GLOBAL_OFFSET;
    if (lsz) {
      if (lsz[i] == 0 || gsz[i] % lsz[i]) return CL_INVALID_WORK_GROUP_SIZE;
      if (lsz[i] > maxi[i]) return CL_INVALID_WORK_ITEM_SIZE;
      prod *= lsz[i];
    }
  }
  if (prod > 1024) return CL_INVALID_WORK_GROUP_SIZE;
  std::vector<cl_mem> args;
  for (auto &a : k->args) {
    if (!a.set || !a.mem) return CL_INVALID_KERNEL_ARGS;
    if (!valid_mem(a.mem)) return CL_INVALID_KERNEL_ARGS;  // released since clSetKernelArg
    args.push_back(a.mem);
  }
  cl_int rc = check_wait_list(q->ctx, nw, wl);
  if (rc) return rc;
  for (auto m : args)
    if ((rc = check_acquired(m))) {
      context_notify(q->ctx,
                     "opencl-interop reference driver: kernel argument is a shared memory object that is "
                     "not acquired (" +
                         error_name(rc, m->parent ? m->parent->ext : m->ext) + ")");
      return rc;
    }
  size_t O[3] = {0, 0, 0}, S[3] = {1, 1, 1};
  for (cl_uint i = 0; i < dim; i++) {
    O[i] = off ? off[i] : 0;
    S[i] = gsz[i];
  }
  if ((rc = k->def->validate(args, dim, O, S))) return rc;
  auto run = k->def->run;
  enqueue(
      q, CL_COMMAND_NDRANGE_KERNEL, nw, wl, args,
      [=] {
        run(args, dim, O, S);
        return CL_SUCCESS;
      },
      ev);
  return CL_SUCCESS;
}

CLAPI(cl_int) clEnqueueTask(cl_command_queue q, cl_kernel k, cl_uint nw, const cl_event *wl, cl_event *ev) {
  size_t one = 1;
  return clEnqueueNDRangeKernel(q, k, 1, nullptr, &one, &one, nw, wl, ev);
}

// ------------------------------------------------ control: command delays --
#include "refdriver_control.h"

REFDRV_API int refdrv_set_command_delay(const char *spec) {
  ApiLock L;
  std::vector<std::pair<cl_command_type, uint32_t>> v;
  if (!parse_command_delays(spec, &v)) return REFDRV_E_INVALID_ARG;
  G().delays = std::move(v);
  return REFDRV_OK;
}

REFDRV_API int refdrv_command_delay(uint32_t command_type, uint32_t *delay_us_out) {
  if (!delay_us_out) return REFDRV_E_INVALID_ARG;
  ApiLock L;
  *delay_us_out = command_delay_us(command_type);
  return REFDRV_OK;
}
