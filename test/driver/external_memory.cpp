// external_memory.cpp - cl_khr_external_memory (+ _opaque_fd, _dma_buf) and
// cl_khr_device_uuid of the reference driver: clCreateBufferWithProperties /
// clCreateImageWithProperties (OpenCL 3.0 entry points, also without a handle),
// clEnqueueAcquire/ReleaseExternalMemObjectsKHR, the platform and device
// queries, and the control-API helpers that make payloads of both shapes.
//
// Payloads (README, "External memory"):
//  - CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR: the layout Mesa's lavapipe
//    (mesa-vulkan-drivers 22.3.6) exports for VK_KHR_external_memory_fd: a memfd
//    of allocation + 4136 bytes whose first 16 bytes are two little-endian
//    uint64 {file size, 4096}; the allocation starts at offset 4096.
//  - CL_EXTERNAL_MEMORY_HANDLE_DMA_BUF_KHR: a memfd (the software VA driver's
//    surfaces) or a kernel dma-buf; the payload is the whole file, from offset 0.
//  A memfd of either kind must be sealed against shrinking (F_SEAL_SHRINK), as
//  lavapipe's and the software VA driver's are: else CL_INVALID_PROPERTY.
// The device has its own copy of each imported allocation (a discrete device's
// view, so missing acquire/release or ordering shows up in tests): the first
// acquire of an allocation copies payload -> device copy when it executes, each
// release copies device copy -> payload. Every import of one allocation (two
// handles exported from one Vulkan allocation, or one handle imported twice)
// shares that device copy, as a GPU maps the same pages for both: a write through
// one import is seen through the other, and no release writes back stale bytes.
#include "driver.h"
#include "external.h"
#include "refdriver_control.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <tuple>

#if !defined(_WIN32)
#include <fcntl.h>
#include <linux/sync_file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

using namespace refdrv;

namespace refdrv {

// The device's copy of one allocation, shared by every import of it.
struct DeviceCopy {
  std::mutex mutex;
  std::unique_ptr<uint8_t[]> bytes;
  size_t size = 0;
  uint32_t acquired = 0;  // imports acquired by executed commands
};

struct ExternalPayload {
  int fd = -1;  // owned from the successful import on; closed with the memory object
  uint8_t *map = nullptr;
  size_t map_len = 0;
  uint8_t *data = nullptr;  // the payload bytes (map + offset)
  size_t size = 0;
  std::shared_ptr<DeviceCopy> copy;
  bool acquired = false;  // by an executed acquire (under copy->mutex)
  ~ExternalPayload() {
#if !defined(_WIN32)
    if (map) munmap(map, map_len);
    if (fd >= 0) close(fd);
#endif
  }
};

#if defined(_WIN32)
const char *const kExternalExtensions = "cl_khr_semaphore cl_khr_device_uuid";
#else
const char *const kExternalExtensions =
    "cl_khr_external_memory cl_khr_external_memory_opaque_fd cl_khr_external_memory_dma_buf cl_khr_semaphore "
    "cl_khr_external_semaphore cl_khr_external_semaphore_opaque_fd cl_khr_external_semaphore_sync_fd "
    "cl_khr_device_uuid";
#endif

}  // namespace refdrv

namespace refdrv_ext {

#if !defined(_WIN32)
std::string fd_target(int fd) {
  if (fd < 0) return "";
  char path[64], buf[512];
  snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(path, buf, sizeof buf - 1);
  if (n < 0) return "";
  return std::string(buf, size_t(n));
}
bool fd_is_open(int fd) { return fd >= 0 && fcntl(fd, F_GETFD) != -1; }
bool fd_is_memfd(int fd) { return fd_target(fd).rfind("/memfd:", 0) == 0; }
bool fd_is_dma_buf(int fd) {
  std::string t = fd_target(fd);
  return t.rfind("/dmabuf:", 0) == 0 || t.rfind("anon_inode:dmabuf", 0) == 0;
}
bool fd_sealed_against_shrink(int fd) {
  int seals = fcntl(fd, F_GET_SEALS);
  return seals != -1 && (seals & F_SEAL_SHRINK) != 0;
}
bool fd_is_sync_file(int fd) {
  sync_file_info info{};  // num_fences 0: the kernel only counts the fences
  return fd >= 0 && ioctl(fd, SYNC_IOC_FILE_INFO, &info) == 0;
}
bool seal_size(int fd) { return fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW) == 0; }
#endif

int fd_from_property(cl_ulong v) { return v <= cl_ulong(INT_MAX) ? int(v) : -1; }

cl_int put_uints(size_t sz, void *val, size_t *ret, std::initializer_list<cl_uint> v) {
  std::vector<cl_uint> a(v);
  return put_bytes(sz, val, ret, a.data(), a.size() * sizeof(cl_uint));
}

}  // namespace refdrv_ext

using namespace refdrv_ext;

namespace {

constexpr size_t kMaxAlloc = 256ull << 20;  // CL_DEVICE_MAX_MEM_ALLOC_SIZE
constexpr cl_mem_flags kHostPtrFlags = CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;
// lavapipe's opaque-fd layout (measured, README)
constexpr size_t kOpaqueDataOffset = 4096;
constexpr size_t kOpaqueOverhead = 4136;

bool importable(cl_external_memory_handle_type_khr t) {
#if defined(_WIN32)
  (void)t;
  return false;
#else
  return t == CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR || t == CL_EXTERNAL_MEMORY_HANDLE_DMA_BUF_KHR;
#endif
}
bool is_handle_type(cl_mem_properties k) {
  switch (k) {
    case CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR:
    case CL_EXTERNAL_MEMORY_HANDLE_DMA_BUF_KHR:
    case CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_WIN32_KHR:
    case CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_WIN32_KMT_KHR:
    case CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_WIN32_NAME_KHR: return true;
    default: return false;
  }
}

struct ImportRequest {
  bool has_handle = false;
  cl_external_memory_handle_type_khr type = 0;
  cl_mem_properties handle = 0;
  bool has_devices = false;
  std::vector<cl_device_id> devices;
  std::vector<cl_mem_properties> list;  // as given, with its terminating 0 (empty: NULL)
};

// The property list of clCreate{Buffer,Image}WithProperties (spec: "Creating Buffer Objects").
cl_int parse_mem_properties(cl_context c, const cl_mem_properties *props, ImportRequest *r) {
  (void)c;
  if (!props) return CL_SUCCESS;
  std::vector<cl_mem_properties> seen;
  const cl_mem_properties *p = props;
  for (; *p; p += 2) {
    cl_mem_properties key = p[0];
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) return CL_INVALID_PROPERTY;
    seen.push_back(key);
    r->list.push_back(key);
    if (is_handle_type(key)) {
      if (r->has_handle) return CL_INVALID_PROPERTY;  // more than one external memory handle
      r->has_handle = true;
      r->type = cl_external_memory_handle_type_khr(key);
      r->handle = p[1];
      r->list.push_back(p[1]);
    } else if (key == CL_MEM_DEVICE_HANDLE_LIST_KHR) {
      r->has_devices = true;
      const cl_mem_properties *d = p + 1;
      for (; *d != CL_MEM_DEVICE_HANDLE_LIST_END_KHR; d++) {
        r->devices.push_back(reinterpret_cast<cl_device_id>(static_cast<uintptr_t>(*d)));
        r->list.push_back(*d);
      }
      r->list.push_back(CL_MEM_DEVICE_HANDLE_LIST_END_KHR);
      if (r->devices.empty()) return CL_INVALID_PROPERTY;  // an empty list is not a valid value
      p = d - 1;                                           // p += 2 lands after the END marker
    } else {
      return CL_INVALID_PROPERTY;
    }
  }
  r->list.push_back(0);
  if (r->has_devices && !r->has_handle) return CL_INVALID_PROPERTY;
  for (auto d : r->devices)
    if (!valid_device(d)) return CL_INVALID_DEVICE;                     // not a device of this context
  if (r->has_handle && !importable(r->type)) return CL_INVALID_DEVICE;  // this device cannot import it
  return CL_SUCCESS;
}

#if !defined(_WIN32)
// The device copy of the allocation behind a file (its inode) at a payload offset: the live one
// another import made, or a new one (zeroed: nothing is on the device before an acquire).
std::shared_ptr<DeviceCopy> device_copy(const struct stat &st, size_t offset, size_t size) {
  static std::mutex mutex;
  static std::map<std::tuple<dev_t, ino_t, size_t>, std::weak_ptr<DeviceCopy>> copies;
  std::lock_guard<std::mutex> guard(mutex);
  for (auto it = copies.begin(); it != copies.end();) it = it->second.expired() ? copies.erase(it) : std::next(it);
  std::weak_ptr<DeviceCopy> &slot = copies[{st.st_dev, st.st_ino, offset}];
  std::shared_ptr<DeviceCopy> copy = slot.lock();
  if (copy && copy->size == size) return copy;
  copy = std::make_shared<DeviceCopy>();
  copy->bytes.reset(new uint8_t[size]());
  copy->size = size;
  slot = copy;
  return copy;
}
#endif

// Maps the payload of fd (not taking ownership). CL_INVALID_PROPERTY when fd
// is not a payload of the handle type's shape (spec: "the value specified for a
// supported property name is not valid").
cl_int open_payload(cl_external_memory_handle_type_khr type, cl_mem_properties handle, ExternalPayload *out) {
#if defined(_WIN32)
  (void)type, (void)handle, (void)out;
  return CL_INVALID_PROPERTY;
#else
  int fd = fd_from_property(handle);
  if (!fd_is_open(fd)) return CL_INVALID_PROPERTY;
  struct stat st;
  if (fstat(fd, &st) != 0) return CL_INVALID_PROPERTY;
  size_t file_size = 0, offset = 0, size = 0;
  // A memfd's size must be sealed (lavapipe seals its exports, the software VA driver its surfaces): its
  // sender could otherwise cut it under the mapping below.
  if (fd_is_memfd(fd) && !fd_sealed_against_shrink(fd)) return CL_INVALID_PROPERTY;
  if (type == CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR) {
    if (!fd_is_memfd(fd) || size_t(st.st_size) < kOpaqueOverhead) return CL_INVALID_PROPERTY;
    uint64_t header[2] = {0, 0};
    if (pread(fd, header, sizeof header, 0) != ssize_t(sizeof header)) return CL_INVALID_PROPERTY;
    if (header[0] != uint64_t(st.st_size) || header[1] != kOpaqueDataOffset) return CL_INVALID_PROPERTY;
    file_size = size_t(st.st_size);
    offset = kOpaqueDataOffset;
    size = file_size - kOpaqueOverhead;
  } else {  // DMA_BUF: a memfd, or a kernel dma-buf (its size is where SEEK_END goes)
    if (fd_is_memfd(fd)) {
      file_size = size_t(st.st_size);
    } else if (fd_is_dma_buf(fd)) {
      off_t end = lseek(fd, 0, SEEK_END);
      if (end < 0) return CL_INVALID_PROPERTY;
      lseek(fd, 0, SEEK_SET);
      file_size = size_t(end);
    } else {
      return CL_INVALID_PROPERTY;
    }
    size = file_size;
  }
  if (size == 0) return CL_INVALID_PROPERTY;  // nothing to import
  void *map = mmap(nullptr, file_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) return CL_OUT_OF_RESOURCES;
  out->map = static_cast<uint8_t *>(map);
  out->map_len = file_size;
  out->data = out->map + offset;
  out->size = size;
  out->copy = device_copy(st, offset, size);
  return CL_SUCCESS;
#endif
}

#define FAIL(code)                          \
  do {                                      \
    if (errcode_ret) *errcode_ret = (code); \
    return nullptr;                         \
  } while (0)

// the cl_mem side of a successful import: the payload takes the fd
void attach(cl_mem m, const ImportRequest &r, std::shared_ptr<ExternalPayload> payload) {
  payload->fd = fd_from_property(r.handle);
  m->ext = Ext::KhrExternalMemory;
  m->ext_handle_type = r.type;
  m->ext_payload = std::move(payload);
  m->ext_devices = r.devices;
  m->has_props = true;
  m->props = r.list;
  m->data = m->ext_payload->copy->bytes.get();
}

cl_int ext_acquire_release(bool acquire, cl_command_queue q, cl_uint n, const cl_mem *mems, cl_uint nw, const cl_event *wl, cl_event *ev) {
  ApiLock L;
  if (!valid_queue(q)) return CL_INVALID_COMMAND_QUEUE;
  if ((n == 0) != (mems == nullptr)) return CL_INVALID_VALUE;
  std::vector<cl_mem> v;
  for (cl_uint i = 0; i < n; i++) {
    cl_mem m = mems[i];
    if (!valid_mem(m) || m->ext != Ext::KhrExternalMemory) return CL_INVALID_MEM_OBJECT;
    // memory of another context is memory of a context without this queue's device
    if (m->ctx != q->ctx) return CL_INVALID_COMMAND_QUEUE;
    if (!m->ext_devices.empty() && std::find(m->ext_devices.begin(), m->ext_devices.end(), &g_device) == m->ext_devices.end())
      return CL_INVALID_COMMAND_QUEUE;
    v.push_back(m);
  }
  cl_int rc = check_wait_list(q->ctx, nw, wl);
  if (rc) return rc;
  if ((rc = wait_list_failed(nw, wl))) return rc;
  for (cl_uint i = 0; i < n; i++) {
    bool dup = std::find(v.begin(), v.begin() + i, v[i]) != v.begin() + i;
    if (dup || v[i]->acquired == acquire) {
      context_notify(q->ctx, std::string("opencl-interop reference driver: ") +
                                 (acquire ? "clEnqueueAcquireExternalMemObjectsKHR: a memory object is already acquired"
                                          : "clEnqueueReleaseExternalMemObjectsKHR: a memory object is not acquired") +
                                 (dup ? " (listed twice)" : "") + " (CL_INVALID_OPERATION)");
      return CL_INVALID_OPERATION;
    }
  }
  for (auto m : v) m->acquired = acquire;
  std::vector<std::pair<cl_mem, std::shared_ptr<ExternalPayload>>> work_list;
  for (auto m : v) work_list.push_back({m, m->ext_payload});
  std::function<cl_int()> work = [work_list, acquire]() -> cl_int {
    for (auto &w : work_list) {
      ExternalPayload &p = *w.second;
      DeviceCopy &copy = *p.copy;
      std::lock_guard<std::mutex> guard(copy.mutex);
      if (acquire) {
        if (p.acquired) continue;
        p.acquired = true;
        // Another import of the allocation already acquired holds newer bytes than the payload.
        if (copy.acquired++ == 0) memcpy(copy.bytes.get(), p.data, copy.size);
      } else {
        // An acquire that never executed (it failed) put nothing on the device to write back.
        if (!p.acquired) continue;
        p.acquired = false;
        copy.acquired--;
        memcpy(p.data, copy.bytes.get(), copy.size);
      }
    }
    return CL_SUCCESS;
  };
  cl_event made = enqueue(q, acquire ? CL_COMMAND_ACQUIRE_EXTERNAL_MEM_OBJECTS_KHR : CL_COMMAND_RELEASE_EXTERNAL_MEM_OBJECTS_KHR, nw, wl, v,
                          n ? std::move(work) : std::function<cl_int()>(), ev);
  for (auto m : v) m->acquired_by = acquire ? made : nullptr;
  return CL_SUCCESS;
}

}  // namespace

// =========================================================== entry points ==

CLAPI(cl_mem)
clCreateBufferWithProperties(cl_context c, const cl_mem_properties *props, cl_mem_flags flags, size_t size, void *host_ptr, cl_int *errcode_ret) {
  ApiLock L;
  if (!valid_ctx(c)) FAIL(CL_INVALID_CONTEXT);
  ImportRequest r;
  cl_int rc = parse_mem_properties(c, props, &r);
  if (rc) FAIL(rc);
  if (!r.has_handle) {
    cl_mem m = create_buffer_locked(c, flags, size, host_ptr, errcode_ret);
    if (m) {
      m->has_props = props != nullptr;
      m->props = r.list;
    }
    return m;
  }
  if (!mem_flags_valid(flags) || (flags & kHostPtrFlags)) FAIL(CL_INVALID_VALUE);
  if (size == 0 || size > kMaxAlloc) FAIL(CL_INVALID_BUFFER_SIZE);
  if (host_ptr) FAIL(CL_INVALID_HOST_PTR);
  auto payload = std::make_shared<ExternalPayload>();
  if ((rc = open_payload(r.type, r.handle, payload.get()))) FAIL(rc);
  if (size > payload->size) FAIL(CL_INVALID_BUFFER_SIZE);  // the payload is smaller than the buffer
  if (!(flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY))) flags |= CL_MEM_READ_WRITE;
  cl_mem m = new_mem(c, flags, CL_MEM_OBJECT_BUFFER);
  m->size = size;
  attach(m, r, std::move(payload));
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return m;
}

CLAPI(cl_mem)
clCreateImageWithProperties(cl_context c, const cl_mem_properties *props, cl_mem_flags flags, const cl_image_format *fmt, const cl_image_desc *desc,
                            void *host_ptr, cl_int *errcode_ret) {
  ApiLock L;
  if (!valid_ctx(c)) FAIL(CL_INVALID_CONTEXT);
  ImportRequest r;
  cl_int rc = parse_mem_properties(c, props, &r);
  if (rc) FAIL(rc);
  if (!r.has_handle) {
    cl_mem m = create_image_locked(c, flags, fmt, desc, host_ptr, errcode_ret);
    if (m) {
      m->has_props = props != nullptr;
      m->props = r.list;
    }
    return m;
  }
  if (!mem_flags_valid(flags) || (flags & kHostPtrFlags)) FAIL(CL_INVALID_VALUE);
  if (!fmt || !image_format_valid(*fmt)) FAIL(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  if (!desc) FAIL(CL_INVALID_IMAGE_DESCRIPTOR);
  cl_mem_object_type t = desc->image_type;
  // IMAGE1D_BUFFER's storage is a buffer, not a handle
  if (t == CL_MEM_OBJECT_IMAGE1D_BUFFER) FAIL(CL_INVALID_IMAGE_DESCRIPTOR);
  size_t w, h, d, a;
  if (!image_extent(*desc, w, h, d, a)) FAIL(CL_INVALID_IMAGE_DESCRIPTOR);
  // one mip level (the extension's sample code passes num_mip_levels = 1) and no samples
  if (desc->buffer || desc->num_mip_levels > 1 || desc->num_samples) FAIL(CL_INVALID_IMAGE_DESCRIPTOR);
  size_t elem = pixel_size(*fmt);
  if (!elem) FAIL(CL_IMAGE_FORMAT_NOT_SUPPORTED);
  if (w == 0 || h == 0 || d == 0) FAIL(CL_INVALID_IMAGE_SIZE);
  size_t maxw = t == CL_MEM_OBJECT_IMAGE3D ? 2048 : 16384;
  if (w > maxw || h > 16384 || d > 2048 || (t == CL_MEM_OBJECT_IMAGE3D && h > 2048)) FAIL(CL_INVALID_IMAGE_SIZE);
  if ((t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY) && (a == 0 || a > 2048)) FAIL(CL_INVALID_IMAGE_SIZE);
  if (host_ptr) FAIL(CL_INVALID_HOST_PTR);
  // linear layout, pitches from the descriptor (0: tightly packed)
  size_t rows = t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1 : h;
  size_t layers = t == CL_MEM_OBJECT_IMAGE3D ? d : (a ? a : 1);
  size_t rp = desc->image_row_pitch ? desc->image_row_pitch : w * elem;
  if (rp < w * elem || rp % elem) FAIL(CL_INVALID_IMAGE_DESCRIPTOR);
  size_t sp = desc->image_slice_pitch ? desc->image_slice_pitch : rp * rows;
  if (sp < rp * rows || sp % rp) FAIL(CL_INVALID_IMAGE_DESCRIPTOR);
  if (!format_supported(*fmt)) FAIL(CL_IMAGE_FORMAT_NOT_SUPPORTED);
  auto payload = std::make_shared<ExternalPayload>();
  if ((rc = open_payload(r.type, r.handle, payload.get()))) FAIL(rc);
  size_t need = sp * (layers - 1) + rp * (rows - 1) + w * elem;
  if (need > payload->size) FAIL(CL_INVALID_IMAGE_SIZE);  // the payload is smaller than the image
  cl_mem m = new_image(c, flags, t, *fmt, w, h, d, a);
  m->row_pitch = rp;
  m->slice_pitch = sp;
  if (t == CL_MEM_OBJECT_IMAGE1D_ARRAY) m->row_pitch = sp;  // 1D arrays address layers through the row pitch
  m->size = need;
  attach(m, r, std::move(payload));
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return m;
}

CLAPI(cl_int) clEnqueueAcquireExternalMemObjectsKHR(cl_command_queue q, cl_uint n, const cl_mem *mems, cl_uint nw, const cl_event *wl, cl_event *ev) {
  wait_list_before_return(nw, wl);
  return ext_acquire_release(true, q, n, mems, nw, wl, ev);
}
CLAPI(cl_int) clEnqueueReleaseExternalMemObjectsKHR(cl_command_queue q, cl_uint n, const cl_mem *mems, cl_uint nw, const cl_event *wl, cl_event *ev) {
  return ext_acquire_release(false, q, n, mems, nw, wl, ev);
}

// ======================================================= hooks for core ==
namespace refdrv {

void external_release_mem(cl_mem m) { m->ext_payload.reset(); }

// REFDRV_DEVICE_UUID: 32 hex digits, or the 8-4-4-4-12 form that CL_DEVICE_UUID_KHR and
// `opencl-interop info` print; false for anything else.
static bool parse_uuid(const char *text, cl_uchar out[CL_UUID_SIZE_KHR]) {
  size_t len = strlen(text);
  bool dashed = len == 2 * CL_UUID_SIZE_KHR + 4;
  if (!dashed && len != 2 * CL_UUID_SIZE_KHR) return false;
  std::string hex;
  for (size_t i = 0; i < len; i++) {
    bool dashAt = i == 8 || i == 13 || i == 18 || i == 23;
    if (dashed && dashAt) {
      if (text[i] != '-') return false;
      continue;
    }
    if (!isxdigit(static_cast<unsigned char>(text[i]))) return false;
    hex += text[i];
  }
  for (int i = 0; i < CL_UUID_SIZE_KHR; i++) out[i] = cl_uchar(strtoul(hex.substr(2 * i, 2).c_str(), nullptr, 16));
  return true;
}

static void device_uuid(cl_uchar out[CL_UUID_SIZE_KHR]) {
  static const char kDefault[CL_UUID_SIZE_KHR + 1] = "refdrv-device-01";
  memcpy(out, kDefault, CL_UUID_SIZE_KHR);
  // REFDRV_DEVICE_UUID: tests make the device claim another API's device UUID
  // (lavapipe's) to exercise matching by UUID
  const char *env = getenv("REFDRV_DEVICE_UUID");
  if (!env || !*env) return;
  cl_uchar v[CL_UUID_SIZE_KHR];
  if (parse_uuid(env, v)) {
    memcpy(out, v, CL_UUID_SIZE_KHR);
    return;
  }
  // A claim that silently did not take makes a matching test fail far from its cause: say so, once per value.
  static std::mutex mutex;
  static std::string reported;
  std::lock_guard<std::mutex> guard(mutex);
  if (reported == env) return;
  reported = env;
  fprintf(stderr,
          "opencl-interop reference driver: REFDRV_DEVICE_UUID must be 32 hex digits or the 8-4-4-4-12 form; got '%s': "
          "ignored, the device keeps its own UUID (refdrv-device-01)\n",
          env);
}

// REFDRV_PCI_BUS ("dddd:bb:dd.f", as lspci writes it): the device advertises
// cl_khr_pci_bus_info and answers CL_DEVICE_PCI_BUS_INFO_KHR with that
// address (struct cl_device_pci_bus_info_khr: domain, bus, device, function).
bool pci_bus(cl_uint out[4]) {
  const char *env = getenv("REFDRV_PCI_BUS");
  unsigned domain, bus, device, function;
  char end;
  if (!env || sscanf(env, "%x:%x:%x.%x%c", &domain, &bus, &device, &function, &end) != 4) return false;
  out[0] = domain, out[1] = bus, out[2] = device, out[3] = function;
  return true;
}

bool external_platform_info(cl_platform_info p, size_t sz, void *val, size_t *ret, cl_int *rc) {
  switch (p) {
    case CL_PLATFORM_EXTERNAL_MEMORY_IMPORT_HANDLE_TYPES_KHR:
#if defined(_WIN32)
      return false;
#else
      *rc = put_uints(sz, val, ret, {CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR, CL_EXTERNAL_MEMORY_HANDLE_DMA_BUF_KHR});
      return true;
#endif
    default: return semaphore_platform_info(p, sz, val, ret, rc);
  }
}

bool external_device_info(cl_device_info p, size_t sz, void *val, size_t *ret, cl_int *rc) {
  switch (p) {
#if !defined(_WIN32)
    case CL_DEVICE_EXTERNAL_MEMORY_IMPORT_HANDLE_TYPES_KHR:
      *rc = put_uints(sz, val, ret, {CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR, CL_EXTERNAL_MEMORY_HANDLE_DMA_BUF_KHR});
      return true;
    case CL_DEVICE_EXTERNAL_MEMORY_IMPORT_ASSUME_LINEAR_IMAGES_HANDLE_TYPES_KHR:
      // Every import is linear here. REFDRV_ASSUME_LINEAR_IMAGES=0 makes the
      // device answer as a GPU driver with a layout of its own does: an empty
      // list ("may be empty"; the layout of the others is implementation
      // defined, and linear stays one such layout).
      if (const char *env = getenv("REFDRV_ASSUME_LINEAR_IMAGES"); env && strcmp(env, "0") == 0) {
        *rc = put_uints(sz, val, ret, {});
        return true;
      }
      *rc = put_uints(sz, val, ret, {CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR, CL_EXTERNAL_MEMORY_HANDLE_DMA_BUF_KHR});
      return true;
#endif
    case CL_DEVICE_UUID_KHR: {
      cl_uchar u[CL_UUID_SIZE_KHR];
      device_uuid(u);
      *rc = put_bytes(sz, val, ret, u, sizeof u);
      return true;
    }
    case CL_DRIVER_UUID_KHR: {
      static const char kDriver[CL_UUID_SIZE_KHR + 1] = "refdrv-driver-01";
      *rc = put_bytes(sz, val, ret, kDriver, CL_UUID_SIZE_KHR);
      return true;
    }
    case CL_DEVICE_LUID_VALID_KHR: *rc = put(sz, val, ret, cl_bool(CL_FALSE)); return true;  // no LUID (not Windows)
    case CL_DEVICE_LUID_KHR: {
      cl_uchar luid[CL_LUID_SIZE_KHR] = {0};
      *rc = put_bytes(sz, val, ret, luid, sizeof luid);
      return true;
    }
    case CL_DEVICE_NODE_MASK_KHR: *rc = put(sz, val, ret, cl_uint(0)); return true;
    case CL_DEVICE_PCI_BUS_INFO_KHR: {
      cl_uint bus[4];
      if (!pci_bus(bus)) return false;
      *rc = put_bytes(sz, val, ret, bus, sizeof bus);
      return true;
    }
    default: return semaphore_device_info(p, sz, val, ret, rc);
  }
}

void *external_extension_function(const char *name) {
#define F(fn) \
  { #fn, reinterpret_cast < void *>(&fn) }
  static const std::pair<const char *, void *> table[] = {
      F(clEnqueueAcquireExternalMemObjectsKHR),
      F(clEnqueueReleaseExternalMemObjectsKHR),
  };
#undef F
#if defined(_WIN32)
  (void)table;
#else
  for (auto &e : table)
    if (!strcmp(e.first, name)) return e.second;
#endif
  return semaphore_extension_function(name);
}

}  // namespace refdrv

// ============================================================ control API ==
#if !defined(_WIN32)
REFDRV_API int refdrv_create_opaque_fd_memory(uint64_t size, int *fd_out) {
  if (!fd_out || size == 0 || size > kMaxAlloc) return REFDRV_E_INVALID_ARG;
  int fd = memfd_create("refdrv opaque memory", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) return REFDRV_E_RANGE;
  uint64_t header[2] = {size + kOpaqueOverhead, kOpaqueDataOffset};
  if (ftruncate(fd, off_t(size + kOpaqueOverhead)) != 0 || pwrite(fd, header, sizeof header, 0) != ssize_t(sizeof header) || !seal_size(fd)) {
    close(fd);
    return REFDRV_E_RANGE;
  }
  *fd_out = fd;
  return REFDRV_OK;
}

REFDRV_API int refdrv_create_dma_buf(uint64_t size, int *fd_out) {
  if (!fd_out || size == 0 || size > kMaxAlloc) return REFDRV_E_INVALID_ARG;
  int fd = memfd_create("refdrv dma-buf", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) return REFDRV_E_RANGE;
  if (ftruncate(fd, off_t(size)) != 0 || !seal_size(fd)) {
    close(fd);
    return REFDRV_E_RANGE;
  }
  *fd_out = fd;
  return REFDRV_OK;
}

// where the payload of a memory fd lies: opaque (offset 4096) or DMA-BUF (offset 0)
static int payload_range(int fd, int opaque, uint64_t offset, uint64_t size, off_t *at) {
  struct stat st;
  if (!fd_is_open(fd) || fstat(fd, &st) != 0) return REFDRV_E_BAD_HANDLE;
  uint64_t base = opaque ? kOpaqueDataOffset : 0;
  uint64_t total = opaque ? (uint64_t(st.st_size) >= kOpaqueOverhead ? uint64_t(st.st_size) - kOpaqueOverhead : 0) : uint64_t(st.st_size);
  if (offset > total || size > total - offset) return REFDRV_E_RANGE;
  *at = off_t(base + offset);
  return REFDRV_OK;
}

REFDRV_API int refdrv_payload_read(int fd, int opaque, uint64_t offset, void *dst, uint64_t size) {
  if (!dst && size) return REFDRV_E_INVALID_ARG;
  off_t at;
  int rc = payload_range(fd, opaque, offset, size, &at);
  if (rc) return rc;
  return pread(fd, dst, size, at) == ssize_t(size) ? REFDRV_OK : REFDRV_E_RANGE;
}

REFDRV_API int refdrv_payload_write(int fd, int opaque, uint64_t offset, const void *src, uint64_t size) {
  if (!src && size) return REFDRV_E_INVALID_ARG;
  off_t at;
  int rc = payload_range(fd, opaque, offset, size, &at);
  if (rc) return rc;
  return pwrite(fd, src, size, at) == ssize_t(size) ? REFDRV_OK : REFDRV_E_RANGE;
}
#endif
