// semaphore.cpp - cl_khr_semaphore and cl_khr_external_semaphore (+ _opaque_fd,
// _sync_fd) of the reference driver: binary semaphores whose wait and signal
// are commands of the command engine (ordered by queues and event wait lists).
//
// Payloads (README, "Semaphores"):
//  - the permanent payload of a semaphore is a state word, 0 unsignaled / 1
//    signaled. A semaphore exportable as CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR (or
//    imported from one) keeps it in a 64-byte memfd {char magic[8] "REFSEM01",
//    uint32 state, zeros}: the exported fd is a dup of that memfd, and every
//    semaphore imported from it (any context, any process) shares the word
//    (reference transference).
//  - CL_SEMAPHORE_HANDLE_SYNC_FD_KHR export: the driver cannot make a kernel
//    sync file (a dma_fence of a kernel driver), so it exports a stand-in: a
//    64-byte memfd (/memfd:refdrv sync_file) sealed against resizing, {char
//    magic[8] "REFSYNC1", uint32 status}, the status 1 once the semaphore's
//    signal completes (copy transference: the export consumes that signal, as
//    a wait would). Import: a real sync file (the kernel answers
//    SYNC_IOC_FILE_INFO on it, <linux/sync_file.h>), signaled when it polls
//    readable; or a stand-in, signaled when its status is 1; fd -1 is already
//    signaled. Anything else (an eventfd, a plain memfd) is refused, as a real
//    driver refuses it. A wait consumes the payload (the driver closes the
//    fd) and the semaphore goes back to its permanent payload.
#include "driver.h"
#include "external.h"
#include "refdriver_control.h"

#include <algorithm>
#include <atomic>
#include <new>

#if !defined(_WIN32)
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

using namespace refdrv;
using namespace refdrv_ext;

namespace {

constexpr char kSemMagic[8] = {'R', 'E', 'F', 'S', 'E', 'M', '0', '1'};
constexpr char kSyncMagic[8] = {'R', 'E', 'F', 'S', 'Y', 'N', 'C', '1'};
constexpr size_t kSharedSize = 64;  // an opaque semaphore's memfd, and a sync-file stand-in's
constexpr size_t kStateOffset = 8;

struct SemaphorePayload {
  std::atomic<uint32_t> local{0};
  std::atomic<uint32_t> *state = &local;
  int memfd = -1;  // opaque-fd payloads: the memfd (created here, or owned since the import)
  void *map = nullptr;
  ~SemaphorePayload() {
#if !defined(_WIN32)
    if (map) munmap(map, kSharedSize);
    if (memfd >= 0) close(memfd);
#endif
  }
};

bool is_semaphore_handle_type(cl_semaphore_properties_khr k) {
  switch (k) {
    case CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR:
    case CL_SEMAPHORE_HANDLE_SYNC_FD_KHR:
    case CL_SEMAPHORE_HANDLE_OPAQUE_WIN32_KHR:
    case CL_SEMAPHORE_HANDLE_OPAQUE_WIN32_KMT_KHR:
    case CL_SEMAPHORE_HANDLE_OPAQUE_WIN32_NAME_KHR: return true;
    default: return false;
  }
}
bool handle_type_supported(cl_external_semaphore_handle_type_khr t) {
#if defined(_WIN32)
  (void)t;
  return false;
#else
  return t == CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR || t == CL_SEMAPHORE_HANDLE_SYNC_FD_KHR;
#endif
}

}  // namespace

struct _cl_semaphore_khr : refdrv::RefObj {
  cl_context ctx = nullptr;
  std::vector<cl_semaphore_properties_khr> props;  // as given, with the terminating 0
  std::vector<cl_external_semaphore_handle_type_khr> export_types;
  cl_external_semaphore_handle_type_khr import_type = 0;
  std::shared_ptr<SemaphorePayload> payload;  // permanent payload
  // temporary payload of a sync_fd import: signaled once sync_fd polls readable (a sync file) or its
  // stand-in's status is 1 (sync_map, mapped); -1: signaled
  bool temporary = false;
  int sync_fd = -1;
  void *sync_map = nullptr;
};

namespace {

bool valid_semaphore(cl_semaphore_khr s) { return s && is_live(s, Kind::Semaphore); }

#if !defined(_WIN32)
bool fd_readable(int fd) {
  struct pollfd p {
    fd, POLLIN, 0
  };
  return poll(&p, 1, 0) > 0 && (p.revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL));
}
#endif

std::atomic<uint32_t> *status_word(void *map) { return reinterpret_cast<std::atomic<uint32_t> *>(static_cast<uint8_t *>(map) + kStateOffset); }

void drop_temporary(cl_semaphore_khr s) {
#if !defined(_WIN32)
  if (s->sync_map) munmap(s->sync_map, kSharedSize);
  if (s->sync_fd >= 0) close(s->sync_fd);
#endif
  s->sync_map = nullptr;
  s->sync_fd = -1;
  s->temporary = false;
}

// lock held
bool is_signaled(cl_semaphore_khr s) {
  if (s->temporary) {
#if !defined(_WIN32)
    if (s->sync_map) return status_word(s->sync_map)->load() == 1;
    return s->sync_fd < 0 || fd_readable(s->sync_fd);
#else
    return true;
#endif
  }
  return s->payload->state->load() == 1;
}

// A wait: every semaphore signaled, then all consumed together. Shared words
// can be taken by another process between the check and the exchange: then the
// ones taken here are given back and the wait stays pending.
bool try_consume_all(const std::vector<cl_semaphore_khr> &v) {
  for (auto s : v)
    if (!is_signaled(s)) return false;
  std::vector<cl_semaphore_khr> taken;
  for (auto s : v) {
    if (s->temporary) continue;
    uint32_t one = 1;
    if (!s->payload->state->compare_exchange_strong(one, 0)) {
      for (auto t : taken) t->payload->state->store(1);
      return false;
    }
    taken.push_back(s);
  }
  for (auto s : v)
    if (s->temporary) drop_temporary(s);
  return true;
}

std::shared_ptr<SemaphorePayload> new_shared_payload(int *err) {
  auto p = std::make_shared<SemaphorePayload>();
#if defined(_WIN32)
  *err = CL_OUT_OF_RESOURCES;
  return nullptr;
#else
  int fd = memfd_create("refdrv semaphore", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0 || ftruncate(fd, kSharedSize) != 0 || pwrite(fd, kSemMagic, sizeof kSemMagic, 0) != 8 || !seal_size(fd)) {
    if (fd >= 0) close(fd);
    *err = CL_OUT_OF_RESOURCES;
    return nullptr;
  }
  void *map = mmap(nullptr, kSharedSize, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) {
    close(fd);
    *err = CL_OUT_OF_RESOURCES;
    return nullptr;
  }
  p->memfd = fd;
  p->map = map;
  p->state = new (static_cast<uint8_t *>(map) + kStateOffset) std::atomic<uint32_t>(0);
  *err = CL_SUCCESS;
  return p;
#endif
}

#if !defined(_WIN32)
// maps a 64-byte memfd of the given magic (an opaque semaphore, a sync-file stand-in), not taking it; false
// when fd is not one, or its size is not sealed (its sender could cut it under the mapping)
bool map_shared(int fd, const char (&want)[8], void **map_out) {
  if (!fd_is_open(fd) || !fd_is_memfd(fd) || !fd_sealed_against_shrink(fd)) return false;
  struct stat st;
  char magic[8];
  if (fstat(fd, &st) != 0 || size_t(st.st_size) != kSharedSize) return false;
  if (pread(fd, magic, sizeof magic, 0) != 8 || memcmp(magic, want, 8) != 0) return false;
  void *map = mmap(nullptr, kSharedSize, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) return false;
  *map_out = map;
  return true;
}
bool map_opaque(int fd, void **map_out) { return map_shared(fd, kSemMagic, map_out); }

// What a sync fd to import is: a kernel sync file (polled), the driver's stand-in (mapped into *map), or
// neither (false).
bool sync_payload(int fd, void **map) {
  *map = nullptr;
  return fd_is_sync_file(fd) || map_shared(fd, kSyncMagic, map);
}

// A new sync-file stand-in, its status `signaled`; mapped into *map when map is not null. -1 on failure.
int new_sync_stand_in(bool signaled, void **map) {
  int fd = memfd_create("refdrv sync_file", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  uint32_t status = signaled ? 1 : 0;
  if (fd < 0 || ftruncate(fd, kSharedSize) != 0 || pwrite(fd, kSyncMagic, sizeof kSyncMagic, 0) != 8 ||
      pwrite(fd, &status, sizeof status, kStateOffset) != ssize_t(sizeof status) || !seal_size(fd)) {
    if (fd >= 0) close(fd);
    return -1;
  }
  if (map) {
    void *m = mmap(nullptr, kSharedSize, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (m == MAP_FAILED) {
      close(fd);
      return -1;
    }
    *map = m;
  }
  return fd;
}
#endif

// the property value of a sync fd: an int, -1 written as (cl_semaphore_properties_khr)-1 or as 0xFFFFFFFF
bool sync_fd_value(cl_semaphore_properties_khr v, int *fd) {
  if (v == ~cl_semaphore_properties_khr(0) || v == 0xFFFFFFFFull) {
    *fd = -1;
    return true;
  }
  *fd = fd_from_property(v);
  return *fd >= 0;
}

#define FAIL(code)                          \
  do {                                      \
    if (errcode_ret) *errcode_ret = (code); \
    return nullptr;                         \
  } while (0)

cl_int enqueue_semaphores(bool wait, cl_command_queue q, cl_uint n, const cl_semaphore_khr *semas, cl_uint nw, const cl_event *wl, cl_event *ev) {
  ApiLock L;
  if (!valid_queue(q)) return CL_INVALID_COMMAND_QUEUE;
  if (n == 0 || !semas) return CL_INVALID_VALUE;
  std::vector<cl_semaphore_khr> v;
  for (cl_uint i = 0; i < n; i++) {
    if (!valid_semaphore(semas[i])) return CL_INVALID_SEMAPHORE_KHR;
    if (semas[i]->ctx != q->ctx) return CL_INVALID_CONTEXT;
    v.push_back(semas[i]);
  }
  cl_int rc = check_wait_list(q->ctx, nw, wl);
  if (rc) return rc;
  if ((rc = wait_list_failed(nw, wl))) return rc;
  std::vector<RefObj *> holds(v.begin(), v.end());
  if (wait) {
    enqueue(
        q, CL_COMMAND_SEMAPHORE_WAIT_KHR, nw, wl, {}, nullptr, ev, false, [v] { return try_consume_all(v); }, holds);
  } else {
    enqueue(
        q, CL_COMMAND_SEMAPHORE_SIGNAL_KHR, nw, wl, {},
        [v]() -> cl_int {
          std::lock_guard<std::mutex> g(G().mu);
          for (auto s : v) {
            if (s->temporary) drop_temporary(s);  // a signal replaces a pending imported payload
            s->payload->state->store(1);
          }
          return CL_SUCCESS;
        },
        ev, false, nullptr, holds);
  }
  return CL_SUCCESS;
}

}  // namespace

// =========================================================== entry points ==
CLAPI(cl_semaphore_khr) clCreateSemaphoreWithPropertiesKHR(cl_context c, const cl_semaphore_properties_khr *props, cl_int *errcode_ret) {
  ApiLock L;
  if (!valid_ctx(c)) FAIL(CL_INVALID_CONTEXT);
  if (!props) FAIL(CL_INVALID_VALUE);
  std::vector<cl_semaphore_properties_khr> seen, list;
  bool has_type = false, has_devices = false, has_export = false, has_import = false;
  std::vector<cl_device_id> devices;
  std::vector<cl_semaphore_properties_khr> exports;
  cl_external_semaphore_handle_type_khr import_type = 0;
  cl_semaphore_properties_khr import_value = 0;
  for (const cl_semaphore_properties_khr *p = props; *p; p += 2) {
    cl_semaphore_properties_khr key = p[0];
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) FAIL(CL_INVALID_PROPERTY);
    seen.push_back(key);
    list.push_back(key);
    if (key == CL_SEMAPHORE_TYPE_KHR) {
      if (p[1] != CL_SEMAPHORE_TYPE_BINARY_KHR) FAIL(CL_INVALID_PROPERTY);
      has_type = true;
      list.push_back(p[1]);
    } else if (key == CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR || key == CL_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR) {
      const cl_semaphore_properties_khr *d = p + 1;
      for (; *d; d++) {
        (key == CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR ? (void)devices.push_back(reinterpret_cast<cl_device_id>(static_cast<uintptr_t>(*d)))
                                                    : exports.push_back(*d));
        list.push_back(*d);
      }
      list.push_back(0);  // CL_SEMAPHORE_DEVICE_HANDLE_LIST_END_KHR / _EXPORT_HANDLE_TYPES_LIST_END_KHR
      (key == CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR ? has_devices : has_export) = true;
      p = d - 1;  // p += 2 lands after the end marker
    } else if (is_semaphore_handle_type(key)) {
      if (has_import) FAIL(CL_INVALID_PROPERTY);  // more than one external semaphore handle
      has_import = true;
      import_type = cl_external_semaphore_handle_type_khr(key);
      import_value = p[1];
      list.push_back(p[1]);
    } else {
      FAIL(CL_INVALID_PROPERTY);
    }
  }
  list.push_back(0);
  if (!has_type) FAIL(CL_INVALID_VALUE);
  if (has_devices && (devices.size() != 1 || !valid_device(devices[0]))) FAIL(CL_INVALID_DEVICE);
  if (exports.size() > 1) FAIL(CL_INVALID_VALUE);
  for (auto e : exports)
    if (!is_semaphore_handle_type(e)) FAIL(CL_INVALID_PROPERTY);
  if (has_import && has_export) FAIL(CL_INVALID_OPERATION);  // an imported semaphore cannot be exported
  for (auto e : exports)
    if (!handle_type_supported(cl_external_semaphore_handle_type_khr(e))) FAIL(CL_INVALID_DEVICE);
  if (has_import && !handle_type_supported(import_type)) FAIL(CL_INVALID_DEVICE);

  std::shared_ptr<SemaphorePayload> payload;
  int sync_fd = -1;
  void *sync_map = nullptr;
#if !defined(_WIN32)
  if (import_type == CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR) {
    int fd = fd_from_property(import_value);
    void *map = nullptr;
    if (!map_opaque(fd, &map)) FAIL(CL_INVALID_PROPERTY);
    payload = std::make_shared<SemaphorePayload>();
    payload->memfd = fd;  // owned from here on (reference transference: the word is shared)
    payload->map = map;
    payload->state = reinterpret_cast<std::atomic<uint32_t> *>(static_cast<uint8_t *>(map) + kStateOffset);
  } else if (import_type == CL_SEMAPHORE_HANDLE_SYNC_FD_KHR) {
    if (!sync_fd_value(import_value, &sync_fd) || (sync_fd >= 0 && !fd_is_open(sync_fd))) FAIL(CL_INVALID_PROPERTY);
    if (sync_fd >= 0 && !sync_payload(sync_fd, &sync_map)) FAIL(CL_INVALID_PROPERTY);  // not a sync file
  }
#endif
  if (!payload) {
    bool shared = std::find(exports.begin(), exports.end(), cl_semaphore_properties_khr(CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR)) != exports.end();
    if (shared) {
      cl_int err;
      payload = new_shared_payload(&err);
      if (!payload) FAIL(err);
    } else {
      payload = std::make_shared<SemaphorePayload>();
    }
  }
  auto *s = track(new _cl_semaphore_khr(), Kind::Semaphore);
  s->ctx = c;
  retain_obj(c);
  s->props = list;
  for (auto e : exports) s->export_types.push_back(cl_external_semaphore_handle_type_khr(e));
  s->import_type = import_type;
  s->payload = std::move(payload);
  if (import_type == CL_SEMAPHORE_HANDLE_SYNC_FD_KHR) {
    s->temporary = true;  // copy transference: a temporary payload until a wait consumes it
    s->sync_fd = sync_fd;
    s->sync_map = sync_map;
  }
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return s;
}

CLAPI(cl_int)
clEnqueueWaitSemaphoresKHR(cl_command_queue q, cl_uint n, const cl_semaphore_khr *semas, const cl_semaphore_payload_khr *payloads, cl_uint nw,
                           const cl_event *wl, cl_event *ev) {
  (void)payloads;  // binary semaphores take no payload value
  wait_list_before_return(nw, wl);
  return enqueue_semaphores(true, q, n, semas, nw, wl, ev);
}

CLAPI(cl_int)
clEnqueueSignalSemaphoresKHR(cl_command_queue q, cl_uint n, const cl_semaphore_khr *semas, const cl_semaphore_payload_khr *payloads, cl_uint nw,
                             const cl_event *wl, cl_event *ev) {
  (void)payloads;
  wait_list_before_return(nw, wl);
  return enqueue_semaphores(false, q, n, semas, nw, wl, ev);
}

CLAPI(cl_int) clGetSemaphoreInfoKHR(cl_semaphore_khr s, cl_semaphore_info_khr name, size_t sz, void *val, size_t *ret) {
  ApiLock L;
  if (!valid_semaphore(s)) return CL_INVALID_SEMAPHORE_KHR;
  switch (name) {
    case CL_SEMAPHORE_CONTEXT_KHR: return put(sz, val, ret, s->ctx);
    case CL_SEMAPHORE_REFERENCE_COUNT_KHR: return put(sz, val, ret, cl_uint(s->refs));
    case CL_SEMAPHORE_PROPERTIES_KHR: return put_bytes(sz, val, ret, s->props.data(), s->props.size() * sizeof(cl_semaphore_properties_khr));
    case CL_SEMAPHORE_TYPE_KHR: return put(sz, val, ret, cl_semaphore_type_khr(CL_SEMAPHORE_TYPE_BINARY_KHR));
    case CL_SEMAPHORE_PAYLOAD_KHR: return put(sz, val, ret, cl_semaphore_payload_khr(is_signaled(s) ? 1 : 0));
    case CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR: return put(sz, val, ret, cl_device_id(&g_device));
#if !defined(_WIN32)
    case CL_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR:
      return put_bytes(sz, val, ret, s->export_types.data(), s->export_types.size() * sizeof(cl_external_semaphore_handle_type_khr));
    case CL_SEMAPHORE_EXPORTABLE_KHR: return put(sz, val, ret, cl_bool(s->export_types.empty() ? CL_FALSE : CL_TRUE));
#endif
    default: return CL_INVALID_VALUE;
  }
}

CLAPI(cl_int) clRetainSemaphoreKHR(cl_semaphore_khr s) { return count_ref_if_live(s, Kind::Semaphore, CL_INVALID_SEMAPHORE_KHR, retain_obj); }
CLAPI(cl_int) clReleaseSemaphoreKHR(cl_semaphore_khr s) {
  delay_release_like_a_loaded_gpu();
  return count_ref_if_live(s, Kind::Semaphore, CL_INVALID_SEMAPHORE_KHR, release_obj);
}

#if !defined(_WIN32)
CLAPI(cl_int)
clGetSemaphoreHandleForTypeKHR(cl_semaphore_khr s, cl_device_id d, cl_external_semaphore_handle_type_khr type, size_t handle_size, void *handle_ptr,
                               size_t *handle_size_ret) {
  ApiLock L;
  if (!valid_semaphore(s)) return CL_INVALID_SEMAPHORE_KHR;
  if (!valid_device(d)) return CL_INVALID_DEVICE;
  if (std::find(s->export_types.begin(), s->export_types.end(), type) == s->export_types.end()) return CL_INVALID_VALUE;
  if (handle_ptr && handle_size < sizeof(int)) return CL_INVALID_VALUE;
  if (handle_size_ret) *handle_size_ret = sizeof(int);
  if (!handle_ptr) return CL_SUCCESS;  // a size query exports nothing
  int fd = -1;
  if (type == CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR) {
    fd = fcntl(s->payload->memfd, F_DUPFD_CLOEXEC, 0);
    if (fd < 0) return CL_OUT_OF_RESOURCES;
  } else {  // SYNC_FD: a sync-file stand-in whose status turns 1 with the semaphore's signal, which it consumes
    uint32_t signaled = 1;
    bool now = s->payload->state->compare_exchange_strong(signaled, 0);
    void *map = nullptr;
    fd = new_sync_stand_in(now, now ? nullptr : &map);
    if (fd < 0) {
      if (now) s->payload->state->store(1);  // nothing exported: the signal stays the semaphore's
      return CL_OUT_OF_RESOURCES;
    }
    if (!now) {
      // The watcher ends with the semaphore's payload: once no semaphore of this process holds it, no
      // signal can come, and the status stays 0.
      std::weak_ptr<SemaphorePayload> weak = s->payload;
      G().watchers.push_back([weak, map]() -> bool {
        auto p = weak.lock();
        if (p) {
          uint32_t one_state = 1;
          if (!p->state->compare_exchange_strong(one_state, 0)) return false;
          status_word(map)->store(1);
        }
        munmap(map, kSharedSize);
        return true;
      });
      wake_worker();
    }
  }
  memcpy(handle_ptr, &fd, sizeof fd);
  return CL_SUCCESS;
}

CLAPI(cl_int) clReImportSemaphoreSyncFdKHR(cl_semaphore_khr s, cl_semaphore_reimport_properties_khr *props, int fd) {
  ApiLock L;
  if (!valid_semaphore(s) || s->import_type != CL_SEMAPHORE_HANDLE_SYNC_FD_KHR) return CL_INVALID_SEMAPHORE_KHR;
  if (props && props[0] != 0) return CL_INVALID_VALUE;  // the extension defines no re-import property
  if (fd < -1 || (fd >= 0 && !fd_is_open(fd))) return CL_INVALID_VALUE;
  void *map = nullptr;
  if (fd >= 0 && !sync_payload(fd, &map)) return CL_INVALID_VALUE;  // not a sync file
  // as if destroyed and created again from the same properties with this fd
  drop_temporary(s);
  s->payload->state->store(0);
  s->temporary = true;
  s->sync_fd = fd;
  s->sync_map = map;
  wake_worker();
  return CL_SUCCESS;
}
#endif

// ======================================================= hooks for core ==
namespace refdrv {
void destroy_semaphore(RefObj *o) {
  auto *s = static_cast<cl_semaphore_khr>(o);
  drop_temporary(s);
  cl_context c = s->ctx;
  delete s;
  release_obj(c);
}
}  // namespace refdrv

namespace refdrv_ext {

bool semaphore_platform_info(cl_platform_info p, size_t sz, void *val, size_t *ret, cl_int *rc) {
  switch (p) {
    case CL_PLATFORM_SEMAPHORE_TYPES_KHR: *rc = put_uints(sz, val, ret, {CL_SEMAPHORE_TYPE_BINARY_KHR}); return true;
#if !defined(_WIN32)
    case CL_PLATFORM_SEMAPHORE_IMPORT_HANDLE_TYPES_KHR:
    case CL_PLATFORM_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR:
      *rc = put_uints(sz, val, ret, {CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR, CL_SEMAPHORE_HANDLE_SYNC_FD_KHR});
      return true;
#endif
    default: return false;
  }
}

bool semaphore_device_info(cl_device_info p, size_t sz, void *val, size_t *ret, cl_int *rc) {
  switch (p) {
    case CL_DEVICE_SEMAPHORE_TYPES_KHR: *rc = put_uints(sz, val, ret, {CL_SEMAPHORE_TYPE_BINARY_KHR}); return true;
#if !defined(_WIN32)
    case CL_DEVICE_SEMAPHORE_IMPORT_HANDLE_TYPES_KHR:
    case CL_DEVICE_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR:
      *rc = put_uints(sz, val, ret, {CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR, CL_SEMAPHORE_HANDLE_SYNC_FD_KHR});
      return true;
#endif
    default: return false;
  }
}

void *semaphore_extension_function(const char *name) {
#define F(fn) \
  { #fn, reinterpret_cast < void *>(&fn) }
  static const std::pair<const char *, void *> table[] = {
    F(clCreateSemaphoreWithPropertiesKHR),
    F(clEnqueueWaitSemaphoresKHR),
    F(clEnqueueSignalSemaphoresKHR),
    F(clGetSemaphoreInfoKHR),
    F(clRetainSemaphoreKHR),
    F(clReleaseSemaphoreKHR),
#if !defined(_WIN32)
    F(clGetSemaphoreHandleForTypeKHR),
    F(clReImportSemaphoreSyncFdKHR),
#endif
  };
#undef F
  for (auto &e : table)
    if (!strcmp(e.first, name)) return e.second;
  return nullptr;
}

}  // namespace refdrv_ext

// ============================================================ control API ==
#if !defined(_WIN32)
// The state word of an opaque semaphore fd, as another API or process sees it:
// op -1 reads, 0 unsignals, 1 signals. The fd stays the caller's.
REFDRV_API int refdrv_opaque_semaphore_state(int fd, int op, uint32_t *state_out) {
  if (op < -1 || op > 1) return REFDRV_E_INVALID_ARG;
  void *map = nullptr;
  if (!map_opaque(fd, &map)) return REFDRV_E_BAD_HANDLE;
  auto *state = reinterpret_cast<std::atomic<uint32_t> *>(static_cast<uint8_t *>(map) + kStateOffset);
  if (op >= 0) state->store(uint32_t(op));
  if (state_out) *state_out = state->load();
  munmap(map, kSharedSize);
  if (op == 1) {
    std::lock_guard<std::mutex> g(G().mu);
    wake_worker();
  }
  return REFDRV_OK;
}
#endif
