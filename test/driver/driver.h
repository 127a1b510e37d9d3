// driver.h - internal objects and state of the opencl-interop reference driver
// (defined in driver.cpp; the extension files add theirs through ExtensionHooks).
#pragma once
#include "cl_decls.h"
#include "resources.h"

#include <atomic>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#if defined(_WIN32)
#define REFDRV_EXPORT extern "C" __declspec(dllexport)
#else
#define REFDRV_EXPORT extern "C" __attribute__((visibility("default")))
#endif
#define CLAPI(ret) REFDRV_EXPORT ret CL_API_CALL
// A creating entry point's failure: the code through errcode_ret, NULL returned.
#define RET_ERR(code)                       \
  do {                                      \
    if (errcode_ret) *errcode_ret = (code); \
    return nullptr;                         \
  } while (0)

CLAPI(cl_int) clIcdGetPlatformIDsKHR(cl_uint, cl_platform_id *, cl_uint *);

namespace refdrv {

enum class Kind : int { Platform, Device, Context, Queue, Mem, Event, Program, Kernel, Sampler, Semaphore, Count };

// Which sharing extension created a cl_mem / which interop a context has.
enum class Ext : int { None = 0, NvD3D9, KhrD3D10, IntelDX9, KhrDX9, IntelVA, KhrD3D11, NvD3D11, KhrExternalMemory };

// The imported payload of a cl_khr_external_memory object (external_memory.cpp).
struct ExternalPayload;

struct RefObj {
  const refdrv_icd_dispatch *dispatch;
  Kind kind;
  uint32_t refs;
};

}  // namespace refdrv

struct _cl_platform_id : refdrv::RefObj {};
struct _cl_device_id : refdrv::RefObj {};

struct _cl_context : refdrv::RefObj {
  std::vector<cl_context_properties> props;  // as given, incl. terminating 0
  bool user_sync = false;
  // Interop: the context property that named the device (0 = none) and the device.
  cl_context_properties interop_prop = 0;
  refdrv::IResource *interop_dev = nullptr;  // holds a reference (D3D devices)
  void(CL_API_CALL *notify)(const char *, const void *, size_t, void *) = nullptr;
  void *notify_data = nullptr;
};

struct EventCallback {
  cl_int status;
  void(CL_API_CALL *fn)(cl_event, cl_int, void *);
  void *data;
  bool fired;
};

namespace refdrv {
struct QueueExec;  // a queue's pending commands and worker threads (driver.cpp)
}

struct _cl_command_queue : refdrv::RefObj {
  cl_context ctx;
  cl_command_queue_properties props;
  std::vector<cl_queue_properties> prop_list;
  cl_event last = nullptr;                  // in-order: the previous command (internal ref)
  cl_event barrier = nullptr;               // out-of-order: latest barrier/marker (internal ref)
  std::vector<cl_event> outstanding;        // not yet finished (no extra ref)
  std::shared_ptr<refdrv::QueueExec> exec;  // shared with the queue's worker threads
};

struct _cl_event : refdrv::RefObj {
  cl_context ctx;
  cl_command_queue queue;  // NULL for user events; holds a reference
  cl_command_type type;
  cl_int status;
  uint64_t t_queued = 0, t_submit = 0, t_start = 0, t_end = 0;
  std::vector<EventCallback> callbacks;
};

struct MemDtorCallback {
  void(CL_API_CALL *fn)(cl_mem, void *);
  void *data;
};

struct _cl_mem : refdrv::RefObj {
  cl_context ctx;
  cl_mem_flags flags;
  cl_mem_object_type type;
  size_t size = 0;
  uint8_t *data = nullptr;  // base of this object's bytes
  std::unique_ptr<uint8_t[]> own;
  std::shared_ptr<void> lazy_pages;  // a buffer over 256 MiB (REFDRV_MAX_ALLOC): pages reserved, not touched
  void *host_ptr = nullptr;
  cl_mem parent = nullptr;  // sub-buffer parent or image buffer (ref held)
  size_t offset = 0;
  uint32_t map_count = 0;
  std::vector<MemDtorCallback> dtors;
  // images
  cl_image_format fmt{0, 0};
  size_t width = 0, height = 0, depth = 0, array_size = 0, row_pitch = 0, slice_pitch = 0, elem = 0;
  // interop
  refdrv::Ext ext = refdrv::Ext::None;
  refdrv::IResource *res = nullptr;  // holds a reference (D3D); VA surfaces too (simulation)
  void *res_handle = nullptr;        // the pointer the application passed
  uint32_t sub = 0, level = 0, face = 0, plane = 0;
  uint32_t region = 0;  // memory-order plane of the resource (IResource::view)
  void *shared_handle = nullptr;
  cl_dx9_media_adapter_type_khr adapter_type = 0;
  VASurfaceID va_id = 0;              // the id at creation time
  VASurfaceID *va_surface = nullptr;  // the application's pointer, returned by CL_MEM_VA_API_MEDIA_SURFACE_INTEL
  bool acquired = false;
  // the acquire command in flight that made it acquired: if that command fails, nothing was acquired
  cl_event acquired_by = nullptr;
  // created by clCreateBufferWithProperties / clCreateImageWithProperties: the list as given
  bool has_props = false;
  std::vector<cl_mem_properties> props;
  // cl_khr_external_memory: the handle type, the payload (holds the fd) and the device list
  cl_external_memory_handle_type_khr ext_handle_type = 0;
  std::shared_ptr<refdrv::ExternalPayload> ext_payload;
  std::vector<cl_device_id> ext_devices;
};

struct _cl_sampler : refdrv::RefObj {
  cl_context ctx;
  cl_bool normalized;
  cl_addressing_mode addressing;
  cl_filter_mode filter;
};

namespace refdrv {
struct BuiltinKernel;
}

struct _cl_program : refdrv::RefObj {
  cl_context ctx;
  std::string source;
  bool builtin = false;
  std::vector<const refdrv::BuiltinKernel *> kernels;  // built-in kernels
  cl_build_status build_status = CL_BUILD_NONE;
  std::string build_log, build_options;
  uint32_t kernels_alive = 0;
};

struct KernelArg {
  bool set = false;
  cl_mem mem = nullptr;
};

struct _cl_kernel : refdrv::RefObj {
  cl_program program;
  const refdrv::BuiltinKernel *def;
  std::vector<KernelArg> args;
};

namespace refdrv {

// ---- built-in kernels ----
enum class ArgKind { Buffer, Image };
struct BuiltinArg {
  ArgKind kind;
  const char *type_name;
  const char *name;
  cl_kernel_arg_access_qualifier access;
  cl_kernel_arg_type_qualifier type_qual;
};
struct BuiltinKernel {
  const char *name;
  std::vector<BuiltinArg> args;
  // validate the arguments for a launch (called at enqueue, lock held)
  cl_int (*validate)(const std::vector<cl_mem> &args, cl_uint dim, const size_t *off, const size_t *gsz);
  // run the kernel over the global range (called on the worker, lock NOT held)
  void (*run)(const std::vector<cl_mem> &args, cl_uint dim, const size_t *off, const size_t *gsz);
};
const std::vector<BuiltinKernel> &builtin_kernels();
const BuiltinKernel *find_builtin(const std::string &name);

// ---- global state ----
struct Global {
  std::mutex mu;
  std::condition_variable cv;
  std::unordered_map<const void *, Kind> live;
  size_t counts[int(Kind::Count)] = {};
  struct Command {
    cl_command_queue queue;
    cl_event ev;
    std::vector<cl_event> deps;
    std::vector<cl_mem> mems;
    std::function<cl_int()> work;
    // optional: besides its events, the command waits until this returns true (called by the
    // worker with the lock held; semaphore waits consume the semaphores in it)
    std::function<bool()> ready;
    std::vector<RefObj *> holds;  // other objects the command keeps alive (semaphores)
    uint64_t delay_us = 0;        // REFDRV_COMMAND_DELAY_US / refdrv_set_command_delay, taken at enqueue
  };
  // Each queue's commands wait in its QueueExec and run on its own worker thread(s).
  size_t commands = 0;  // enqueued and not finished, every queue together
  // event and context callbacks, run in order on the callback thread
  std::deque<std::function<void()>> tasks;
  // host-side watchers (sync_fd exports): polled until they return true, before any
  // semaphore wait command is considered
  std::vector<std::function<bool()>> watchers;
  bool callback_thread = false;
  bool exit_hook = false;
  size_t busy = 0;                   // driver threads running work or callbacks (lock released)
  std::atomic<bool> exiting{false};  // the process is exiting: no command or callback starts any more
  // per command type delays in microseconds (type 0: every other command)
  std::vector<std::pair<cl_command_type, uint32_t>> delays;
};
Global &G();
// True when the environment variable `name` is set to exactly `value` (the REFDRV_* modes).
bool env_is(const char *name, const char *value);
// REFDRV_LIVE_AT_EXIT=1: live objects by kind on stderr at exit (sim_resources.cpp).
void report_live_at_exit();
// REFDRV_RELEASE_DELAY_MS: a release as slow as NVIDIA's under load (core.cpp).
void delay_release_like_a_loaded_gpu();

// Lock for an API call; runs user callbacks deferred during the call after
// unlocking (memory-object destructor callbacks).
struct ApiLock {
  std::unique_lock<std::mutex> lk;
  ApiLock();
  ~ApiLock();
};
void defer_call(std::function<void()> fn);
void run_deferred();

extern const refdrv_icd_dispatch *const kDispatch;
extern _cl_platform_id g_platform;
extern _cl_device_id g_device;

template <class T>
T *track(T *o, Kind k) {
  o->dispatch = kDispatch;
  o->kind = k;
  o->refs = 1;
  G().live[o] = k;
  G().counts[int(k)]++;
  return o;
}
bool is_live(const void *p, Kind k);
inline bool valid_ctx(cl_context c) { return c && is_live(c, Kind::Context); }
inline bool valid_queue(cl_command_queue q) { return q && is_live(q, Kind::Queue); }
inline bool valid_mem(cl_mem m) { return m && is_live(m, Kind::Mem); }
inline bool valid_event(cl_event e) { return e && is_live(e, Kind::Event); }
inline bool valid_device(cl_device_id d) { return d == &g_device; }

void retain_obj(RefObj *o);
void release_obj(RefObj *o);  // destroys at 0 (lock held)

// clRetain<Object> / clRelease<Object>: `invalid` unless `o` is a live object of
// `kind`; else `count(o)`: retain_obj or release_obj.
template <class T>
cl_int count_ref_if_live(T *o, Kind kind, cl_int invalid, void (*count)(RefObj *)) {
  ApiLock L;
  if (!o || !is_live(o, kind)) return invalid;
  count(o);
  return CL_SUCCESS;
}

uint64_t now_ns();

// info helpers
cl_int put_bytes(size_t sz, void *val, size_t *ret, const void *src, size_t n);
template <class T>
cl_int put(size_t sz, void *val, size_t *ret, const T &v) {
  return put_bytes(sz, val, ret, &v, sizeof(T));
}
cl_int put_str(size_t sz, void *val, size_t *ret, const std::string &s);

// a new queue's engine (its worker threads start with its first command)
std::shared_ptr<QueueExec> new_queue_exec(bool in_order);
// an event reaches a status: waiters wake, its callbacks for that status are queued (lock held)
void set_status(cl_event ev, cl_int st);

// image format helpers
std::vector<cl_image_format> supported_formats();
size_t channel_count(cl_channel_order o);
size_t channel_size(cl_channel_type t);
size_t pixel_size(const cl_image_format &f);
bool format_supported(const cl_image_format &f);

// mem helpers
cl_mem new_mem(cl_context ctx, cl_mem_flags flags, cl_mem_object_type type);
size_t max_alloc_bytes();  // CL_DEVICE_MAX_MEM_ALLOC_SIZE (REFDRV_MAX_ALLOC)
// an image of type t with its format and extents (h, d, a as the descriptor
// gives them; the ones its type lacks are stored as 0); no storage yet
// An image descriptor's width, height, depth and array size, the unused ones
// set as the type implies (1, or 0 for the array size); false for a type that
// is no image.
bool image_extent(const cl_image_desc &desc, size_t &w, size_t &h, size_t &d, size_t &a);
cl_mem new_image(cl_context c, cl_mem_flags flags, cl_mem_object_type t, const cl_image_format &fmt, size_t w, size_t h, size_t d, size_t a);
cl_int check_wait_list(cl_context ctx, cl_uint n, const cl_event *list);
// REFDRV_GATED_INTEROP=block: the external-memory acquire and the semaphore wait and signal return only once
// their wait list has ended, as NVIDIA's (580) do (scripts/gpu/failed-gate-probe.mjs): behind a user event that
// only the calling thread could set they never return. Call without the API lock.
void wait_list_before_return(cl_uint nw, const cl_event *wl);
// interop usage check: the error code if m (or its parent) is a shared object
// that is not acquired, else CL_SUCCESS.
cl_int check_acquired(cl_mem m);
cl_int not_acquired_error(Ext e);

// Enqueue a command (lock held). deps: explicit wait list. Returns the event
// (internal reference owned by the command); if `event_out` is not NULL the
// application gets its own reference.
cl_event enqueue(cl_command_queue q, cl_command_type type, cl_uint nwait, const cl_event *wait, std::vector<cl_mem> mems,
                 std::function<cl_int()> work, cl_event *event_out, bool barrier = false, std::function<bool()> ready = nullptr,
                 std::vector<RefObj *> holds = {});
// Command delays: parse a spec ("kernel=200000,transfer=50", "1000", "0x11F4=10"; see README)
// into `out`; false (and `out` untouched) when it is not one. Lookup of the delay of a type.
bool parse_command_delays(const char *spec, std::vector<std::pair<cl_command_type, uint32_t>> *out);
uint32_t command_delay_us(cl_command_type type);
// wakes the driver's threads (a semaphore changed state, a watcher was added)
void wake_worker();
// every command finished and no callback queued or running (lock held)
bool engine_idle();
// CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST when an event of the list has already failed
cl_int wait_list_failed(cl_uint n, const cl_event *list);

// core creation paths (lock held), shared with the *WithProperties entry points
cl_mem create_buffer_locked(cl_context c, cl_mem_flags flags, size_t size, void *host_ptr, cl_int *errcode_ret);
cl_mem create_image_locked(cl_context c, cl_mem_flags flags, const cl_image_format *fmt, const cl_image_desc *desc, void *host_ptr,
                           cl_int *errcode_ret);
bool mem_flags_valid(cl_mem_flags f);
bool image_format_valid(const cl_image_format &f);

// cl_khr_pci_bus_info: REFDRV_PCI_BUS names the address; false when it is unset or malformed.
bool pci_bus(cl_uint out[4]);
// cl_khr_external_memory / cl_khr_semaphore / cl_khr_external_semaphore / cl_khr_device_uuid
// (external_memory.cpp, semaphore.cpp)
bool external_platform_info(cl_platform_info p, size_t sz, void *val, size_t *ret, cl_int *rc);
bool external_device_info(cl_device_info p, size_t sz, void *val, size_t *ret, cl_int *rc);
void external_release_mem(cl_mem m);
void destroy_semaphore(RefObj *o);
void *external_extension_function(const char *name);
extern const char *const kExternalExtensions;
// waits until ev is complete or failed; false if the process began exiting first
// (the driver runs no more commands then)
bool wait_for(std::unique_lock<std::mutex> &lk, cl_event ev);
void context_notify(cl_context ctx, const std::string &msg);

// interop hooks used by core
cl_int interop_context_props(cl_context ctx, const cl_context_properties *props);
void interop_release_context(cl_context ctx);
void interop_release_mem(cl_mem m);
bool interop_mem_info(cl_mem m, cl_mem_info p, size_t sz, void *val, size_t *ret, cl_int *rc);
bool interop_image_info(cl_mem m, cl_image_info p, size_t sz, void *val, size_t *ret, cl_int *rc);
void *extension_function(const char *name);

std::string error_name(cl_int e, Ext ext);

// What the extension files add to the state's own paths, which cannot name
// them (they sit above it): the end of a context, a memory object and a
// semaphore, and the names of status codes. core.cpp installs them as the
// library loads, before any object exists.
struct ExtensionHooks {
  void (*release_context)(cl_context) = nullptr;
  void (*release_mem)(cl_mem) = nullptr;
  void (*destroy_semaphore)(RefObj *) = nullptr;
  std::string (*error_name)(cl_int, Ext) = nullptr;
};
ExtensionHooks &hooks();

}  // namespace refdrv
