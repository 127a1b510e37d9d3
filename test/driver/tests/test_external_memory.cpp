// test_external_memory.cpp - cl_khr_external_memory (+ _opaque_fd, _dma_buf) and
// cl_khr_device_uuid. Test names cite the spec sections of
// shared/specs/cl_khr_external_memory_semaphore.asciidoc: "create_buffer"
// (Creating Buffer Objects), "create_image" (clCreateImageWithProperties),
// "acquire_release" (Acquiring and Releasing External Memory Objects),
// "fd_handles" (File Descriptor Handle Types), "queries" (platform / device queries).
#include "harness.h"
#include "fd_util.h"

#include <cstdio>
#include <sys/stat.h>

namespace {

const cl_uint kOpaque = CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR, kDmaBuf = CL_EXTERNAL_MEMORY_HANDLE_DMA_BUF_KHR;

struct Env {
  cl_context c;
  cl_command_queue q;
  Env() {
    c = make_ctx();
    q = make_queue(c);
  }
  ~Env() {
    cl.clFinish(q);
    cl.clReleaseCommandQueue(q);
    cl.clReleaseContext(c);
  }
};

int payload_fd(cl_uint type, size_t size) {
  int fd = -1;
  if (type == kOpaque) CHECK_OK(rd.refdrv_create_opaque_fd_memory(size, &fd));
  else CHECK_OK(rd.refdrv_create_dma_buf(size, &fd));
  CHECK(fd >= 0);
  return fd;
}
void payload_write(int fd, cl_uint type, const std::vector<uint8_t> &bytes, size_t offset = 0) {
  CHECK_OK(rd.refdrv_payload_write(fd, type == kOpaque, offset, bytes.data(), bytes.size()));
}
std::vector<uint8_t> payload_read(int fd, cl_uint type, size_t size, size_t offset = 0) {
  std::vector<uint8_t> v(size);
  CHECK_OK(rd.refdrv_payload_read(fd, type == kOpaque, offset, v.data(), size));
  return v;
}

cl_mem import_buffer(cl_context c, cl_uint type, int fd, size_t size, cl_int *err, cl_mem_flags flags = 0, bool device_list = false) {
  cl_mem_properties p[6] = {type, cl_mem_properties(fd), 0, 0, 0, 0};
  if (device_list) {
    p[2] = CL_MEM_DEVICE_HANDLE_LIST_KHR;
    p[3] = cl_mem_properties(reinterpret_cast<uintptr_t>(g_dev));
    p[4] = CL_MEM_DEVICE_HANDLE_LIST_END_KHR;
  }
  return cl.clCreateBufferWithProperties(c, p, flags, size, nullptr, err);
}
cl_mem import_ok(cl_context c, cl_uint type, int fd, size_t size, cl_mem_flags flags = 0) {
  cl_int e = 1;
  cl_mem m = import_buffer(c, type, fd, size, &e, flags);
  CHECK_OK(e);
  CHECK(m);
  return m;
}
// a create that must fail with `want` and leave the fd with the application
void import_fails_at(int line, cl_context c, const cl_mem_properties *p, cl_mem_flags flags, size_t size, void *host, cl_int want, int fd) {
  int before = open_fd_count();
  cl_int e = 1;
  cl_mem m = cl.clCreateBufferWithProperties(c, p, flags, size, host, &e);
  if (m || e != want) test_fail(__FILE__, line, "expected " + std::to_string(want) + ", got " + std::to_string(e) + (m ? " and an object" : ""));
  CHECK_EQ(open_fd_count(), before);
  if (fd >= 0) CHECK(fd_open(fd));
}

#define import_fails(...) import_fails_at(__LINE__, __VA_ARGS__)

void acquire(cl_command_queue q, cl_mem m, cl_event *ev = nullptr) { CHECK_OK(cl.clEnqueueAcquireExternalMemObjectsKHR(q, 1, &m, 0, nullptr, ev)); }
void release(cl_command_queue q, cl_mem m, cl_event *ev = nullptr) { CHECK_OK(cl.clEnqueueReleaseExternalMemObjectsKHR(q, 1, &m, 0, nullptr, ev)); }

std::vector<cl_uint> uint_list(cl_int (*q)(void *, cl_uint, size_t, void *, size_t *), void *obj, cl_uint name) {
  size_t sz = 0;
  CHECK_OK(q(obj, name, 0, nullptr, &sz));
  CHECK(sz % sizeof(cl_uint) == 0);
  std::vector<cl_uint> v(sz / sizeof(cl_uint));
  if (sz) CHECK_OK(q(obj, name, sz, v.data(), nullptr));
  return v;
}
cl_int platform_info(void *p, cl_uint n, size_t sz, void *v, size_t *r) { return cl.clGetPlatformInfo(static_cast<cl_platform_id>(p), n, sz, v, r); }
cl_int device_info(void *d, cl_uint n, size_t sz, void *v, size_t *r) { return cl.clGetDeviceInfo(static_cast<cl_device_id>(d), n, sz, v, r); }
std::string ext_string(bool device) {
  char buf[4096] = {0};
  if (device) CHECK_OK(cl.clGetDeviceInfo(g_dev, CL_DEVICE_EXTENSIONS, sizeof buf, buf, nullptr));
  else CHECK_OK(cl.clGetPlatformInfo(g_plat, CL_PLATFORM_EXTENSIONS, sizeof buf, buf, nullptr));
  return " " + std::string(buf) + " ";
}

}  // namespace

// ----------------------------------------------------------------- queries --
TEST("khr_external_memory.queries.extensions_and_handle_types") {
  for (bool device : {false, true}) {
    std::string s = ext_string(device);
    for (const char *e :
         {"cl_khr_external_memory", "cl_khr_external_memory_opaque_fd", "cl_khr_external_memory_dma_buf", "cl_khr_semaphore",
          "cl_khr_external_semaphore", "cl_khr_external_semaphore_opaque_fd", "cl_khr_external_semaphore_sync_fd", "cl_khr_device_uuid"})
      CHECK(s.find(std::string(" ") + e + " ") != std::string::npos);
    CHECK(s.find("cl_khr_external_memory_win32") == std::string::npos);
  }
  std::vector<cl_uint> both{kOpaque, kDmaBuf};
  CHECK(uint_list(platform_info, g_plat, CL_PLATFORM_EXTERNAL_MEMORY_IMPORT_HANDLE_TYPES_KHR) == both);
  CHECK(uint_list(device_info, g_dev, CL_DEVICE_EXTERNAL_MEMORY_IMPORT_HANDLE_TYPES_KHR) == both);
  CHECK(uint_list(device_info, g_dev, CL_DEVICE_EXTERNAL_MEMORY_IMPORT_ASSUME_LINEAR_IMAGES_HANDLE_TYPES_KHR) == both);
  cl_uint small = 0;
  CHECK_EQ(cl.clGetDeviceInfo(g_dev, CL_DEVICE_EXTERNAL_MEMORY_IMPORT_HANDLE_TYPES_KHR, sizeof small, &small, nullptr), CL_INVALID_VALUE);
}

TEST("khr_device_uuid.queries.uuid_luid_node_mask") {
  cl_uchar uuid[CL_UUID_SIZE_KHR], duuid[CL_UUID_SIZE_KHR], luid[CL_LUID_SIZE_KHR];
  size_t sz = 0;
  CHECK_OK(cl.clGetDeviceInfo(g_dev, CL_DEVICE_UUID_KHR, sizeof uuid, uuid, &sz));
  CHECK_EQ(sz, 16);
  CHECK(!memcmp(uuid, "refdrv-device-01", 16));
  CHECK_OK(cl.clGetDeviceInfo(g_dev, CL_DRIVER_UUID_KHR, sizeof duuid, duuid, &sz));
  CHECK_EQ(sz, 16);
  CHECK(!memcmp(duuid, "refdrv-driver-01", 16));
  cl_bool valid = CL_TRUE;
  CHECK_OK(cl.clGetDeviceInfo(g_dev, CL_DEVICE_LUID_VALID_KHR, sizeof valid, &valid, nullptr));
  CHECK_EQ(valid, CL_FALSE);
  CHECK_OK(cl.clGetDeviceInfo(g_dev, CL_DEVICE_LUID_KHR, sizeof luid, luid, &sz));
  CHECK_EQ(sz, 8);
  cl_uint mask = 7;
  CHECK_OK(cl.clGetDeviceInfo(g_dev, CL_DEVICE_NODE_MASK_KHR, sizeof mask, &mask, &sz));
  CHECK_EQ(sz, 4);
  CHECK_EQ(mask, 0);
  CHECK_EQ(cl.clGetDeviceInfo(g_dev, CL_DEVICE_UUID_KHR, 15, uuid, nullptr), CL_INVALID_VALUE);
}

TEST("khr_device_uuid.queries.uuid_from_environment") {
  // REFDRV_DEVICE_UUID makes the device claim another API's UUID (matching by UUID)
  setenv("REFDRV_DEVICE_UUID", "6d65736132322e332e36000000000000", 1);
  cl_uchar uuid[16];
  CHECK_OK(cl.clGetDeviceInfo(g_dev, CL_DEVICE_UUID_KHR, sizeof uuid, uuid, nullptr));
  CHECK(!memcmp(uuid, "mesa22.3.6\0\0\0\0\0\0", 16));
  setenv("REFDRV_DEVICE_UUID", "not-hex", 1);
  CHECK_OK(cl.clGetDeviceInfo(g_dev, CL_DEVICE_UUID_KHR, sizeof uuid, uuid, nullptr));
  CHECK(!memcmp(uuid, "refdrv-device-01", 16));
  unsetenv("REFDRV_DEVICE_UUID");
}

TEST("khr_external_memory.queries.entry_points") {
  for (const char *n : {"clEnqueueAcquireExternalMemObjectsKHR", "clEnqueueReleaseExternalMemObjectsKHR", "clCreateSemaphoreWithPropertiesKHR",
                        "clEnqueueWaitSemaphoresKHR", "clEnqueueSignalSemaphoresKHR", "clGetSemaphoreInfoKHR", "clRetainSemaphoreKHR",
                        "clReleaseSemaphoreKHR", "clGetSemaphoreHandleForTypeKHR", "clReImportSemaphoreSyncFdKHR"}) {
    CHECK(cl.clGetExtensionFunctionAddressForPlatform(g_plat, n) != nullptr);
    CHECK(dlsym_driver(n) == cl.clGetExtensionFunctionAddressForPlatform(g_plat, n));
  }
}

// ---------------------------------------------------------- buffer imports --
static void roundtrip(cl_uint type) {
  Env env;
  const size_t n = 8192;
  int fd = payload_fd(type, n);
  auto pat = pattern(n, 11);
  payload_write(fd, type, pat);
  int keep = dup(fd);  // the application's view of the payload, as the exporting API's
  cl_mem m = import_ok(env.c, type, fd, n);
  cl_mem_object_type t;
  size_t size;
  CHECK_OK(cl.clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof t, &t, nullptr));
  CHECK_OK(cl.clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof size, &size, nullptr));
  CHECK(t == CL_MEM_OBJECT_BUFFER && size == n);
  cl_mem_flags flags;
  CHECK_OK(cl.clGetMemObjectInfo(m, CL_MEM_FLAGS, sizeof flags, &flags, nullptr));
  CHECK_EQ(flags, CL_MEM_READ_WRITE);  // the default access
  cl_event ea, er;
  acquire(env.q, m, &ea);
  std::vector<uint8_t> got(n);
  CHECK_OK(cl.clEnqueueReadBuffer(env.q, m, CL_TRUE, 0, n, got.data(), 0, nullptr, nullptr));
  CHECK(got == pat);
  CHECK_EQ(event_type(ea), CL_COMMAND_ACQUIRE_EXTERNAL_MEM_OBJECTS_KHR);
  auto pat2 = pattern(n, 99);
  CHECK_OK(cl.clEnqueueWriteBuffer(env.q, m, CL_TRUE, 0, n, pat2.data(), 0, nullptr, nullptr));
  // written in OpenCL's storage; the payload sees it when the release executes
  CHECK(payload_read(keep, type, n) == pat);
  release(env.q, m, &er);
  CHECK_OK(cl.clWaitForEvents(1, &er));
  CHECK_EQ(event_type(er), CL_COMMAND_RELEASE_EXTERNAL_MEM_OBJECTS_KHR);
  CHECK(payload_read(keep, type, n) == pat2);
  cl.clReleaseEvent(ea);
  cl.clReleaseEvent(er);
  CHECK_OK(cl.clReleaseMemObject(m));
  close(keep);
}
TEST("khr_external_memory.create_buffer.dma_buf.roundtrip") { roundtrip(kDmaBuf); }
TEST("khr_external_memory.create_buffer.opaque_fd.roundtrip") { roundtrip(kOpaque); }

static void ownership(cl_uint type) {
  Env env;
  int fd = payload_fd(type, 4096);
  int before = open_fd_count();
  cl_mem m = import_ok(env.c, type, fd, 4096);
  // "importing memory from a file descriptor transfers ownership ... to the OpenCL implementation":
  // the driver holds it (no descriptor opened or closed) until the memory object goes
  CHECK_EQ(open_fd_count(), before);
  CHECK(fd_open(fd));
  cl_mem sub;
  cl_buffer_region r{0, 1024};
  cl_int e;
  sub = cl.clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &e);
  CHECK_OK(e);
  CHECK_OK(cl.clReleaseMemObject(m));
  CHECK(fd_open(fd));  // the sub-buffer keeps its parent
  CHECK_OK(cl.clReleaseMemObject(sub));
  CHECK_EQ(open_fd_count(), before - 1);
  CHECK(!fd_open(fd));
  // a failed import leaves the descriptor with the application
  fd = payload_fd(type, 4096);
  before = open_fd_count();
  cl_mem_properties p[] = {type, cl_mem_properties(fd), 0};
  import_fails(env.c, p, 0, 8192, nullptr, CL_INVALID_BUFFER_SIZE, fd);
  CHECK_EQ(open_fd_count(), before);
  close(fd);
}
TEST("khr_external_memory.fd_handles.dma_buf.ownership") { ownership(kDmaBuf); }
TEST("khr_external_memory.fd_handles.opaque_fd.ownership") { ownership(kOpaque); }

TEST("khr_external_memory.fd_handles.release_waits_for_commands") {
  // the descriptor is closed when the last command using the memory object is done
  Env env;
  int fd = payload_fd(kDmaBuf, 4096);
  cl_mem m = import_ok(env.c, kDmaBuf, fd, 4096);
  cl_int e;
  cl_event gate = cl.clCreateUserEvent(env.c, &e);
  CHECK_OK(cl.clEnqueueAcquireExternalMemObjectsKHR(env.q, 1, &m, 1, &gate, nullptr));
  release(env.q, m);
  CHECK_OK(cl.clReleaseMemObject(m));
  CHECK(fd_open(fd));
  CHECK_OK(cl.clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_OK(cl.clFinish(env.q));
  CHECK_OK(rd.refdrv_wait_idle(5000));
  CHECK(!fd_open(fd));
  cl.clReleaseEvent(gate);
}

TEST("khr_external_memory.fd_handles.same_payload_twice") {
  // "each import operation must create a distinct memory object"
  Env env;
  int fd = payload_fd(kDmaBuf, 4096), fd2 = dup(fd);
  cl_mem a = import_ok(env.c, kDmaBuf, fd, 4096), b = import_ok(env.c, kDmaBuf, fd2, 4096);
  CHECK(a != b);
  auto pat = pattern(4096, 3);
  acquire(env.q, a);
  CHECK_OK(cl.clEnqueueWriteBuffer(env.q, a, CL_TRUE, 0, 4096, pat.data(), 0, nullptr, nullptr));
  release(env.q, a);
  acquire(env.q, b);
  std::vector<uint8_t> got(4096);
  CHECK_OK(cl.clEnqueueReadBuffer(env.q, b, CL_TRUE, 0, 4096, got.data(), 0, nullptr, nullptr));
  CHECK(got == pat);
  release(env.q, b);
  cl.clFinish(env.q);
  cl.clReleaseMemObject(a);
  cl.clReleaseMemObject(b);
}

TEST("khr_external_memory.create_buffer.smaller_than_payload_and_device_list") {
  Env env;
  int fd = payload_fd(kOpaque, 4096);
  auto pat = pattern(4096, 5);
  payload_write(fd, kOpaque, pat);
  cl_int e;
  cl_mem m = import_buffer(env.c, kOpaque, fd, 100, &e, CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY, true);
  CHECK_OK(e);
  cl_mem_properties props[8] = {0};
  size_t sz = 0;
  CHECK_OK(cl.clGetMemObjectInfo(m, CL_MEM_PROPERTIES, sizeof props, props, &sz));
  CHECK_EQ(sz, 6 * sizeof(cl_mem_properties));
  CHECK(props[0] == kOpaque && props[1] == cl_mem_properties(fd) && props[2] == CL_MEM_DEVICE_HANDLE_LIST_KHR &&
        props[3] == cl_mem_properties(reinterpret_cast<uintptr_t>(g_dev)) && props[4] == 0 && props[5] == 0);
  acquire(env.q, m);
  std::vector<uint8_t> got(100);
  CHECK_OK(cl.clEnqueueReadBuffer(env.q, m, CL_TRUE, 0, 100, got.data(), 0, nullptr, nullptr));
  CHECK(std::equal(got.begin(), got.end(), pat.begin()));
  release(env.q, m);
  cl.clFinish(env.q);
  cl.clReleaseMemObject(m);
}

TEST("khr_external_memory.create_buffer.without_handle") {
  // clCreateBufferWithProperties without a handle is clCreateBuffer; CL_MEM_PROPERTIES tells the list
  Env env;
  cl_int e;
  cl_mem a = cl.clCreateBufferWithProperties(env.c, nullptr, 0, 64, nullptr, &e);
  CHECK_OK(e);
  cl_mem_properties empty[] = {0};
  cl_mem b = cl.clCreateBufferWithProperties(env.c, empty, CL_MEM_READ_ONLY, 64, nullptr, &e);
  CHECK_OK(e);
  size_t sz = 99;
  CHECK_OK(cl.clGetMemObjectInfo(a, CL_MEM_PROPERTIES, 0, nullptr, &sz));
  CHECK_EQ(sz, 0);
  CHECK_OK(cl.clGetMemObjectInfo(b, CL_MEM_PROPERTIES, 0, nullptr, &sz));
  CHECK_EQ(sz, sizeof(cl_mem_properties));
  // an ordinary buffer is used without acquire, and cannot be acquired
  uint8_t buf[64];
  CHECK_OK(cl.clEnqueueReadBuffer(env.q, a, CL_TRUE, 0, 64, buf, 0, nullptr, nullptr));
  CHECK_EQ(cl.clEnqueueAcquireExternalMemObjectsKHR(env.q, 1, &a, 0, nullptr, nullptr), CL_INVALID_MEM_OBJECT);
  CHECK(cl.clCreateBufferWithProperties(env.c, nullptr, 0, 0, nullptr, &e) == nullptr);
  CHECK_EQ(e, CL_INVALID_BUFFER_SIZE);
  cl.clReleaseMemObject(a);
  cl.clReleaseMemObject(b);
}

TEST("khr_external_memory.create_buffer.errors") {
  Env env;
  int fd = payload_fd(kDmaBuf, 4096);
  cl_mem_properties dev = cl_mem_properties(reinterpret_cast<uintptr_t>(g_dev));
  cl_mem_properties F = cl_mem_properties(fd);
  // CL_INVALID_CONTEXT
  {
    cl_mem_properties p[] = {kDmaBuf, F, 0};
    import_fails(nullptr, p, 0, 64, nullptr, CL_INVALID_CONTEXT, fd);
    import_fails(reinterpret_cast<cl_context>(env.q), p, 0, 64, nullptr, CL_INVALID_CONTEXT, fd);
  }
  // CL_INVALID_PROPERTY: unknown name, same name twice, two handles, device list without handle,
  // an empty device list, a handle value of the wrong shape
  {
    cl_mem_properties unknown[] = {0x1234, 1, kDmaBuf, F, 0};
    import_fails(env.c, unknown, 0, 64, nullptr, CL_INVALID_PROPERTY, fd);
    cl_mem_properties twice[] = {kDmaBuf, F, kDmaBuf, F, 0};
    import_fails(env.c, twice, 0, 64, nullptr, CL_INVALID_PROPERTY, fd);
    cl_mem_properties two[] = {kDmaBuf, F, kOpaque, F, 0};
    import_fails(env.c, two, 0, 64, nullptr, CL_INVALID_PROPERTY, fd);
    cl_mem_properties list_only[] = {CL_MEM_DEVICE_HANDLE_LIST_KHR, dev, CL_MEM_DEVICE_HANDLE_LIST_END_KHR, 0};
    import_fails(env.c, list_only, 0, 64, nullptr, CL_INVALID_PROPERTY, fd);
    cl_mem_properties empty_list[] = {kDmaBuf, F, CL_MEM_DEVICE_HANDLE_LIST_KHR, CL_MEM_DEVICE_HANDLE_LIST_END_KHR, 0};
    import_fails(env.c, empty_list, 0, 64, nullptr, CL_INVALID_PROPERTY, fd);
  }
  // CL_INVALID_DEVICE: a device that is not one; a handle type the device cannot import
  {
    cl_mem_properties bad_dev[] = {kDmaBuf, F, CL_MEM_DEVICE_HANDLE_LIST_KHR, 0x1000, CL_MEM_DEVICE_HANDLE_LIST_END_KHR, 0};
    import_fails(env.c, bad_dev, 0, 64, nullptr, CL_INVALID_DEVICE, fd);
    for (cl_mem_properties t : {CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_WIN32_KHR, CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_WIN32_KMT_KHR,
                                CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_WIN32_NAME_KHR}) {
      cl_mem_properties win[] = {t, 0x44, 0};
      import_fails(env.c, win, 0, 64, nullptr, CL_INVALID_DEVICE, fd);
    }
  }
  // CL_INVALID_VALUE: bad flags; host-pointer flags with a handle
  {
    cl_mem_properties p[] = {kDmaBuf, F, 0};
    import_fails(env.c, p, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, nullptr, CL_INVALID_VALUE, fd);
    import_fails(env.c, p, cl_mem_flags(1) << 40, 64, nullptr, CL_INVALID_VALUE, fd);
    uint8_t host[64];
    for (cl_mem_flags f : {CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR, CL_MEM_COPY_HOST_PTR})
      import_fails(env.c, p, f, 64, f == CL_MEM_ALLOC_HOST_PTR ? nullptr : host, CL_INVALID_VALUE, fd);
    // CL_INVALID_BUFFER_SIZE: zero, above CL_DEVICE_MAX_MEM_ALLOC_SIZE, larger than the payload
    import_fails(env.c, p, 0, 0, nullptr, CL_INVALID_BUFFER_SIZE, fd);
    import_fails(env.c, p, 0, (256u << 20) + 1, nullptr, CL_INVALID_BUFFER_SIZE, fd);
    import_fails(env.c, p, 0, 4097, nullptr, CL_INVALID_BUFFER_SIZE, fd);
    // CL_INVALID_HOST_PTR: a host pointer with a handle
    import_fails(env.c, p, 0, 64, host, CL_INVALID_HOST_PTR, fd);
  }
  // the wrong shape for the handle type: CL_INVALID_PROPERTY, the fd stays the application's
  {
    int pipefd[2];
    CHECK(pipe(pipefd) == 0);
    int efd = eventfd(0, EFD_CLOEXEC);
    FILE *tmp = tmpfile();
    CHECK(tmp && fputs("a regular file", tmp) >= 0 && fflush(tmp) == 0);
    int opaque = payload_fd(kOpaque, 4096);
    int closed = dup(fd);
    close(closed);  // a number no descriptor has
    for (cl_uint type : {kDmaBuf, kOpaque})
      for (int bad : {pipefd[0], efd, fileno(tmp), closed, -1}) {
        cl_mem_properties p[] = {type, cl_mem_properties(bad == -1 ? ~0ull : cl_mem_properties(bad)), 0};
        import_fails(env.c, p, 0, 64, nullptr, CL_INVALID_PROPERTY, bad == closed || bad == -1 ? -1 : bad);
      }
    // a DMA-BUF payload (a memfd without lavapipe's header) is not an opaque fd
    cl_mem_properties not_opaque[] = {kOpaque, F, 0};
    import_fails(env.c, not_opaque, 0, 64, nullptr, CL_INVALID_PROPERTY, fd);
    // an empty memfd has no payload
    int empty = memfd_create("empty", MFD_CLOEXEC);
    cl_mem_properties e0[] = {kDmaBuf, cl_mem_properties(empty), 0};
    import_fails(env.c, e0, 0, 1, nullptr, CL_INVALID_PROPERTY, empty);
    // a header that does not match the file
    uint64_t wrong[2] = {1, 4096};
    CHECK(pwrite(opaque, wrong, sizeof wrong, 0) == sizeof wrong);
    cl_mem_properties bad_header[] = {kOpaque, cl_mem_properties(opaque), 0};
    import_fails(env.c, bad_header, 0, 64, nullptr, CL_INVALID_PROPERTY, opaque);
    for (int f : {pipefd[0], pipefd[1], efd, opaque, empty}) close(f);
    fclose(tmp);
  }
  close(fd);
}

// --------------------------------------------------------- acquire/release --
TEST("khr_external_memory.acquire_release.use_needs_acquire") {
  // "Applications must acquire the memory objects ... before they can be used": this driver
  // rejects the use with CL_INVALID_OPERATION (README, behaviour choices)
  Env env;
  int fd = payload_fd(kDmaBuf, 4096);
  cl_mem m = import_ok(env.c, kDmaBuf, fd, 4096);
  expect_use_fails(env.q, m, CL_INVALID_OPERATION);
  cl_buffer_region r{128, 256};
  cl_int e;
  cl_mem sub = cl.clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &e);
  CHECK_OK(e);
  expect_use_fails(env.q, sub, CL_INVALID_OPERATION);
  acquire(env.q, m);
  uint8_t buf[16];
  CHECK_OK(cl.clEnqueueReadBuffer(env.q, sub, CL_TRUE, 0, 16, buf, 0, nullptr, nullptr));
  CHECK_OK(cl.clEnqueueReadBuffer(env.q, m, CL_TRUE, 0, 16, buf, 0, nullptr, nullptr));
  release(env.q, m);
  expect_use_fails(env.q, m, CL_INVALID_OPERATION);
  cl.clFinish(env.q);
  cl.clReleaseMemObject(sub);
  cl.clReleaseMemObject(m);
}

TEST("khr_external_memory.acquire_release.errors") {
  Env env;
  int fd = payload_fd(kDmaBuf, 4096);
  cl_mem m = import_ok(env.c, kDmaBuf, fd, 4096);
  cl_int e;
  cl_mem plain = cl.clCreateBuffer(env.c, CL_MEM_READ_WRITE, 64, nullptr, &e);
  cl_buffer_region r{0, 128};
  cl_mem sub = cl.clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &e);
  Env other;
  int fd2 = payload_fd(kDmaBuf, 4096);
  cl_mem m2 = import_ok(other.c, kDmaBuf, fd2, 4096);
  cl_event foreign = cl.clCreateUserEvent(other.c, &e);
  auto A = cl.clEnqueueAcquireExternalMemObjectsKHR;
  auto R = cl.clEnqueueReleaseExternalMemObjectsKHR;
  for (auto f : {A, R}) {
    CHECK_EQ(f(nullptr, 1, &m, 0, nullptr, nullptr), CL_INVALID_COMMAND_QUEUE);
    CHECK_EQ(f(reinterpret_cast<cl_command_queue>(env.c), 1, &m, 0, nullptr, nullptr), CL_INVALID_COMMAND_QUEUE);
    CHECK_EQ(f(env.q, 0, &m, 0, nullptr, nullptr), CL_INVALID_VALUE);
    CHECK_EQ(f(env.q, 1, nullptr, 0, nullptr, nullptr), CL_INVALID_VALUE);
    for (cl_mem bad : {plain, sub, cl_mem(nullptr), reinterpret_cast<cl_mem>(env.q)})
      CHECK_EQ(f(env.q, 1, &bad, 0, nullptr, nullptr), CL_INVALID_MEM_OBJECT);
    CHECK_EQ(f(env.q, 1, &m2, 0, nullptr, nullptr), CL_INVALID_COMMAND_QUEUE);  // memory of another context
    CHECK_EQ(f(env.q, 1, &m, 1, nullptr, nullptr), CL_INVALID_EVENT_WAIT_LIST);
    CHECK_EQ(f(env.q, 1, &m, 0, &foreign, nullptr), CL_INVALID_EVENT_WAIT_LIST);
    cl_event bogus = reinterpret_cast<cl_event>(plain);
    CHECK_EQ(f(env.q, 1, &m, 1, &bogus, nullptr), CL_INVALID_EVENT_WAIT_LIST);
    CHECK_EQ(f(env.q, 1, &m, 1, &foreign, nullptr), CL_INVALID_CONTEXT);
  }
  // implementation-defined: a second acquire, a release of what is not acquired, a duplicate
  CHECK_EQ(R(env.q, 1, &m, 0, nullptr, nullptr), CL_INVALID_OPERATION);
  acquire(env.q, m);
  CHECK_EQ(A(env.q, 1, &m, 0, nullptr, nullptr), CL_INVALID_OPERATION);
  cl_mem twice[] = {m, m};
  CHECK_EQ(R(env.q, 2, twice, 0, nullptr, nullptr), CL_INVALID_OPERATION);
  release(env.q, m);
  CHECK_EQ(A(env.q, 2, twice, 0, nullptr, nullptr), CL_INVALID_OPERATION);
  // CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST: an event of the list has failed
  cl_event failed = cl.clCreateUserEvent(env.c, &e);
  CHECK_OK(cl.clSetUserEventStatus(failed, -5));
  CHECK_EQ(A(env.q, 1, &m, 1, &failed, nullptr), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK_EQ(R(env.q, 0, nullptr, 1, &failed, nullptr), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  // nothing changed state
  acquire(env.q, m);
  release(env.q, m);
  cl.clFinish(env.q);
  for (cl_event ev : {foreign, failed}) cl.clReleaseEvent(ev);
  for (cl_mem x : {sub, m, plain, m2}) cl.clReleaseMemObject(x);
}

TEST("khr_external_memory.acquire_release.empty_list") {
  // "If num_mem_objects is 0 and mem_objects is NULL, the command will trivially succeed after its
  // event dependencies are satisfied and will update its completion event."
  Env env;
  cl_int e;
  cl_event gate = cl.clCreateUserEvent(env.c, &e), ea, er;
  CHECK_OK(cl.clEnqueueAcquireExternalMemObjectsKHR(env.q, 0, nullptr, 1, &gate, &ea));
  CHECK_OK(cl.clEnqueueReleaseExternalMemObjectsKHR(env.q, 0, nullptr, 0, nullptr, &er));
  sleep_ms(20);
  CHECK(event_status(ea) > CL_COMPLETE);
  CHECK_OK(cl.clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_OK(cl.clWaitForEvents(1, &er));
  CHECK_EQ(event_status(ea), CL_COMPLETE);
  CHECK_EQ(event_type(ea), CL_COMMAND_ACQUIRE_EXTERNAL_MEM_OBJECTS_KHR);
  CHECK_EQ(event_type(er), CL_COMMAND_RELEASE_EXTERNAL_MEM_OBJECTS_KHR);
  for (cl_event ev : {gate, ea, er}) cl.clReleaseEvent(ev);
}

TEST("khr_external_memory.acquire_release.contents_move_when_commands_execute") {
  // the acquire reads the payload when it executes (after its wait list), the release writes it
  // when it executes: the other API's writes before the acquire runs are seen, later ones are not
  Env env;
  int fd = payload_fd(kDmaBuf, 256);
  int keep = dup(fd);
  cl_mem m = import_ok(env.c, kDmaBuf, fd, 256);
  cl_int e;
  cl_event gate = cl.clCreateUserEvent(env.c, &e), done;
  CHECK_OK(cl.clEnqueueAcquireExternalMemObjectsKHR(env.q, 1, &m, 1, &gate, nullptr));
  auto before_run = pattern(256, 1);
  payload_write(keep, kDmaBuf, before_run);
  CHECK_OK(cl.clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_OK(cl.clFinish(env.q));
  payload_write(keep, kDmaBuf, pattern(256, 2));  // acquired: OpenCL does not see this
  std::vector<uint8_t> got(256);
  CHECK_OK(cl.clEnqueueReadBuffer(env.q, m, CL_TRUE, 0, 256, got.data(), 0, nullptr, nullptr));
  CHECK(got == before_run);
  gate = (cl.clReleaseEvent(gate), cl.clCreateUserEvent(env.c, &e));
  CHECK_OK(cl.clEnqueueReleaseExternalMemObjectsKHR(env.q, 1, &m, 1, &gate, &done));
  sleep_ms(20);
  CHECK(payload_read(keep, kDmaBuf, 256) == pattern(256, 2));  // not released yet
  CHECK_OK(cl.clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_OK(cl.clWaitForEvents(1, &done));
  CHECK(payload_read(keep, kDmaBuf, 256) == before_run);
  cl.clReleaseEvent(gate);
  cl.clReleaseEvent(done);
  cl.clReleaseMemObject(m);
  close(keep);
}

TEST("khr_external_memory.acquire_release.failed_dependency") {
  Env env;
  int fd = payload_fd(kDmaBuf, 64);
  cl_mem m = import_ok(env.c, kDmaBuf, fd, 64);
  cl_int e;
  cl_event gate = cl.clCreateUserEvent(env.c, &e), ea;
  CHECK_OK(cl.clEnqueueAcquireExternalMemObjectsKHR(env.q, 1, &m, 1, &gate, &ea));
  CHECK_OK(cl.clSetUserEventStatus(gate, -3));
  CHECK_EQ(wait_status(ea, CL_COMPLETE), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  cl.clReleaseEvent(gate);
  cl.clReleaseEvent(ea);
  CHECK_OK(cl.clReleaseMemObject(m));
}

// ----------------------------------------------------------- image imports --
static cl_mem import_image_at(int line, cl_context c, cl_uint type, int fd, cl_mem_object_type t, size_t w, size_t h, size_t d_or_layers, size_t rp,
                              size_t sp, cl_image_format f, cl_int want = CL_SUCCESS, cl_mem_flags flags = 0, void *host = nullptr) {
  cl_image_desc d{};
  d.image_type = t;
  d.image_width = w;
  d.image_height = h;
  if (t == CL_MEM_OBJECT_IMAGE3D) d.image_depth = d_or_layers;
  else d.image_array_size = d_or_layers;
  d.image_row_pitch = rp;
  d.image_slice_pitch = sp;
  cl_mem_properties p[] = {type, cl_mem_properties(fd), 0};
  int before = open_fd_count();
  cl_int e = 1;
  cl_mem m = cl.clCreateImageWithProperties(c, p, flags, &f, &d, host, &e);
  if (e != want || (want == CL_SUCCESS) != (m != nullptr))
    test_fail(__FILE__, line, "expected " + std::to_string(want) + ", got " + std::to_string(e));
  if (want != CL_SUCCESS && (open_fd_count() != before || !fd_open(fd))) test_fail(__FILE__, line, "a failed import touched the descriptor");
  return m;
}
#define import_image(...) import_image_at(__LINE__, __VA_ARGS__)

TEST("khr_external_memory.create_image.linear_row_pitch_from_descriptor") {
  // the image is the payload's bytes in linear layout with the descriptor's row pitch
  Env env;
  const size_t w = 13, h = 7, rp = 64;
  int fd = payload_fd(kDmaBuf, rp * h), keep = dup(fd);
  auto bytes = pattern(rp * h, 21);
  payload_write(keep, kDmaBuf, bytes);
  cl_mem im = import_image(env.c, kDmaBuf, fd, CL_MEM_OBJECT_IMAGE2D, w, h, 0, rp, 0, cl_image_format{CL_RGBA, CL_UNORM_INT8});
  size_t got_rp = 0;
  CHECK_OK(cl.clGetImageInfo(im, CL_IMAGE_ROW_PITCH, sizeof got_rp, &got_rp, nullptr));
  CHECK_EQ(got_rp, rp);
  acquire(env.q, im);
  auto px = read_image(env.q, im, w, h, 4);
  for (size_t y = 0; y < h; y++)
    for (size_t x = 0; x < w * 4; x++) CHECK_EQ(px[y * w * 4 + x], bytes[y * rp + x]);
  // invert through the built-in kernel into a second imported image, released to its payload
  int fd2 = payload_fd(kOpaque, rp * h), keep2 = dup(fd2);
  cl_mem out = import_image(env.c, kOpaque, fd2, CL_MEM_OBJECT_IMAGE2D, w, h, 0, rp, 0, cl_image_format{CL_RGBA, CL_UNORM_INT8});
  acquire(env.q, out);
  cl_program p;
  cl_kernel k = builtin_kernel(env.c, "invert_image", &p);
  CHECK_OK(cl.clSetKernelArg(k, 0, sizeof(cl_mem), &im));
  CHECK_OK(cl.clSetKernelArg(k, 1, sizeof(cl_mem), &out));
  size_t g[2] = {w, h};
  CHECK_OK(cl.clEnqueueNDRangeKernel(env.q, k, 2, nullptr, g, nullptr, 0, nullptr, nullptr));
  cl_mem both[] = {im, out};
  CHECK_OK(cl.clEnqueueReleaseExternalMemObjectsKHR(env.q, 2, both, 0, nullptr, nullptr));
  CHECK_OK(cl.clFinish(env.q));
  auto res = payload_read(keep2, kOpaque, rp * h);
  for (size_t y = 0; y < h; y++)
    for (size_t x = 0; x < w * 4; x++) CHECK_EQ(res[y * rp + x], 255 - bytes[y * rp + x]);
  cl.clReleaseKernel(k);
  cl.clReleaseProgram(p);
  cl.clReleaseMemObject(im);
  cl.clReleaseMemObject(out);
  close(keep);
  close(keep2);
}

TEST("khr_external_memory.create_image.types_and_tight_pitch") {
  Env env;
  cl_image_format r8{CL_R, CL_UNORM_INT8};
  int fd = payload_fd(kDmaBuf, 4096);
  struct Case {
    cl_mem_object_type t;
    size_t w, h, n;
  } cases[] = {{CL_MEM_OBJECT_IMAGE1D, 100, 0, 0},
               {CL_MEM_OBJECT_IMAGE1D_ARRAY, 16, 0, 4},
               {CL_MEM_OBJECT_IMAGE2D, 16, 16, 0},
               {CL_MEM_OBJECT_IMAGE2D_ARRAY, 8, 8, 3},
               {CL_MEM_OBJECT_IMAGE3D, 8, 8, 8}};
  for (auto &cs : cases) {
    int f = dup(fd);
    cl_mem im = import_image(env.c, kDmaBuf, f, cs.t, cs.w, cs.h, cs.n, 0, 0, r8);
    cl_mem_object_type t;
    CHECK_OK(cl.clGetMemObjectInfo(im, CL_MEM_TYPE, sizeof t, &t, nullptr));
    CHECK_EQ(t, cs.t);
    acquire(env.q, im);
    release(env.q, im);
    CHECK_OK(cl.clFinish(env.q));
    cl.clReleaseMemObject(im);
    CHECK(!fd_open(f));
  }
  close(fd);
}

TEST("khr_external_memory.create_image.errors") {
  Env env;
  int fd = payload_fd(kDmaBuf, 4096);
  cl_image_format rgba{CL_RGBA, CL_UNORM_INT8};
  auto I = CL_MEM_OBJECT_IMAGE2D;
  // larger than the payload: CL_INVALID_IMAGE_SIZE
  import_image(env.c, kDmaBuf, fd, I, 33, 32, 0, 0, 0, rgba, CL_INVALID_IMAGE_SIZE);
  import_image(env.c, kDmaBuf, fd, I, 16, 16, 0, 300, 0, rgba, CL_INVALID_IMAGE_SIZE);
  import_image(env.c, kDmaBuf, fd, I, 0, 16, 0, 0, 0, rgba, CL_INVALID_IMAGE_SIZE);
  import_image(env.c, kDmaBuf, fd, I, 20000, 1, 0, 0, 0, rgba, CL_INVALID_IMAGE_SIZE);
  import_image(env.c, kDmaBuf, fd, CL_MEM_OBJECT_IMAGE2D_ARRAY, 4, 4, 0, 0, 0, rgba, CL_INVALID_IMAGE_SIZE);
  // pitches that cannot hold a row / are not whole pixels: CL_INVALID_IMAGE_DESCRIPTOR
  import_image(env.c, kDmaBuf, fd, I, 16, 4, 0, 60, 0, rgba, CL_INVALID_IMAGE_DESCRIPTOR);
  import_image(env.c, kDmaBuf, fd, I, 16, 4, 0, 66, 0, rgba, CL_INVALID_IMAGE_DESCRIPTOR);
  import_image(env.c, kDmaBuf, fd, CL_MEM_OBJECT_IMAGE3D, 4, 4, 2, 16, 32, rgba, CL_INVALID_IMAGE_DESCRIPTOR);
  import_image(env.c, kDmaBuf, fd, CL_MEM_OBJECT_IMAGE1D_BUFFER, 16, 0, 0, 0, 0, rgba, CL_INVALID_IMAGE_DESCRIPTOR);
  import_image(env.c, kDmaBuf, fd, 0x1234, 16, 4, 0, 0, 0, rgba, CL_INVALID_IMAGE_DESCRIPTOR);
  // formats
  import_image(env.c, kDmaBuf, fd, I, 4, 4, 0, 0, 0, cl_image_format{0x1234, CL_UNORM_INT8}, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  import_image(env.c, kDmaBuf, fd, I, 4, 4, 0, 0, 0, cl_image_format{CL_RGB, CL_UNORM_SHORT_565}, CL_IMAGE_FORMAT_NOT_SUPPORTED);
  // flags and host pointers
  uint8_t host[64];
  import_image(env.c, kDmaBuf, fd, I, 4, 4, 0, 0, 0, rgba, CL_INVALID_VALUE, CL_MEM_COPY_HOST_PTR, host);
  import_image(env.c, kDmaBuf, fd, I, 4, 4, 0, 0, 0, rgba, CL_INVALID_VALUE, CL_MEM_ALLOC_HOST_PTR);
  import_image(env.c, kDmaBuf, fd, I, 4, 4, 0, 0, 0, rgba, CL_INVALID_HOST_PTR, 0, host);
  // the wrong shape
  int pipefd[2];
  CHECK(pipe(pipefd) == 0);
  import_image(env.c, kDmaBuf, pipefd[0], I, 4, 4, 0, 0, 0, rgba, CL_INVALID_PROPERTY);
  import_image(env.c, kOpaque, fd, I, 4, 4, 0, 0, 0, rgba, CL_INVALID_PROPERTY);
  close(pipefd[0]);
  close(pipefd[1]);
  // NULL format / descriptor, invalid context, properties
  cl_mem_properties p[] = {kDmaBuf, cl_mem_properties(fd), 0};
  cl_image_desc d{};
  d.image_type = I;
  d.image_width = d.image_height = 4;
  cl_int e;
  CHECK(!cl.clCreateImageWithProperties(env.c, p, 0, nullptr, &d, nullptr, &e) && e == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  CHECK(!cl.clCreateImageWithProperties(env.c, p, 0, &rgba, nullptr, nullptr, &e) && e == CL_INVALID_IMAGE_DESCRIPTOR);
  CHECK(!cl.clCreateImageWithProperties(reinterpret_cast<cl_context>(env.q), p, 0, &rgba, &d, nullptr, &e) && e == CL_INVALID_CONTEXT);
  cl_mem_properties two[] = {kDmaBuf, cl_mem_properties(fd), kOpaque, cl_mem_properties(fd), 0};
  CHECK(!cl.clCreateImageWithProperties(env.c, two, 0, &rgba, &d, nullptr, &e) && e == CL_INVALID_PROPERTY);
  cl_mem_properties win[] = {CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_WIN32_KHR, 1, 0};
  CHECK(!cl.clCreateImageWithProperties(env.c, win, 0, &rgba, &d, nullptr, &e) && e == CL_INVALID_DEVICE);
  d.num_mip_levels = 2;
  CHECK(!cl.clCreateImageWithProperties(env.c, p, 0, &rgba, &d, nullptr, &e) && e == CL_INVALID_IMAGE_DESCRIPTOR);
  d.num_mip_levels = 1;  // one level, as the extension's sample code passes
  cl_mem ok = cl.clCreateImageWithProperties(env.c, p, 0, &rgba, &d, nullptr, &e);
  CHECK_OK(e);
  expect_use_fails(env.q, ok, CL_INVALID_OPERATION);
  cl.clReleaseMemObject(ok);
  CHECK(!fd_open(fd));
  // without a handle it is clCreateImage
  d.num_mip_levels = 0;
  cl_mem plain = cl.clCreateImageWithProperties(env.c, nullptr, 0, &rgba, &d, nullptr, &e);
  CHECK_OK(e);
  cl.clReleaseMemObject(plain);
}
