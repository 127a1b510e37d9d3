// test_semaphore.cpp - cl_khr_semaphore and cl_khr_external_semaphore (+ _opaque_fd,
// _sync_fd). Test names cite the spec sections of
// shared/specs/cl_khr_external_memory_semaphore.asciidoc: "create" (Creating
// Semaphores), "wait_signal" (Waiting On and Signaling Semaphores), "retain_release",
// "info" (Semaphore Queries), "export" (Exporting Semaphore External Handles),
// "import" (Importing Semaphore External Handles, File Descriptor Handle Types),
// "reimport" (clReImportSemaphoreSyncFdKHR).
#include "harness.h"
#include "fd_util.h"

#include <sys/stat.h>
#include <sys/wait.h>

namespace {

const cl_semaphore_properties_khr kType = CL_SEMAPHORE_TYPE_KHR, kBinary = CL_SEMAPHORE_TYPE_BINARY_KHR;
const cl_semaphore_properties_khr kOpaque = CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR, kSync = CL_SEMAPHORE_HANDLE_SYNC_FD_KHR;
const cl_semaphore_properties_khr kExport = CL_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR;
const cl_semaphore_properties_khr kDevList = CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR;

struct Env {
  cl_context c;
  cl_command_queue q;
  explicit Env(cl_command_queue_properties p = 0) {
    c = make_ctx();
    q = make_queue(c, p);
  }
  ~Env() {
    cl.clFinish(q);
    cl.clReleaseCommandQueue(q);
    cl.clReleaseContext(c);
  }
};

cl_semaphore_khr create_at(int line, cl_context c, std::vector<cl_semaphore_properties_khr> p) {
  p.push_back(0);
  cl_int e = 1;
  cl_semaphore_khr s = cl.clCreateSemaphoreWithPropertiesKHR(c, p.data(), &e);
  if (e != CL_SUCCESS || !s) test_fail(__FILE__, line, "create failed: " + std::to_string(e));
  return s;
}
#define create(...) create_at(__LINE__, __VA_ARGS__)
cl_semaphore_khr binary(cl_context c) { return create(c, {kType, kBinary}); }

void create_fails_at(int line, cl_context c, std::vector<cl_semaphore_properties_khr> p, cl_int want, bool null_props = false) {
  p.push_back(0);
  int before = open_fd_count();
  cl_int e = 1;
  cl_semaphore_khr s = cl.clCreateSemaphoreWithPropertiesKHR(c, null_props ? nullptr : p.data(), &e);
  if (s || e != want) test_fail(__FILE__, line, "expected " + std::to_string(want) + ", got " + std::to_string(e) + (s ? " and an object" : ""));
  if (open_fd_count() != before) test_fail(__FILE__, line, "a failed create changed the open descriptors");
}
#define create_fails(...) create_fails_at(__LINE__, __VA_ARGS__)

cl_semaphore_payload_khr payload(cl_semaphore_khr s) {
  cl_semaphore_payload_khr v = 99;
  CHECK_OK(cl.clGetSemaphoreInfoKHR(s, CL_SEMAPHORE_PAYLOAD_KHR, sizeof v, &v, nullptr));
  return v;
}
cl_uint refs(cl_semaphore_khr s) {
  cl_uint n = 0;
  CHECK_OK(cl.clGetSemaphoreInfoKHR(s, CL_SEMAPHORE_REFERENCE_COUNT_KHR, sizeof n, &n, nullptr));
  return n;
}
void signal(cl_command_queue q, cl_semaphore_khr s, cl_uint nw = 0, const cl_event *wl = nullptr, cl_event *ev = nullptr) {
  CHECK_OK(cl.clEnqueueSignalSemaphoresKHR(q, 1, &s, nullptr, nw, wl, ev));
}
void wait(cl_command_queue q, cl_semaphore_khr s, cl_uint nw = 0, const cl_event *wl = nullptr, cl_event *ev = nullptr) {
  CHECK_OK(cl.clEnqueueWaitSemaphoresKHR(q, 1, &s, nullptr, nw, wl, ev));
}
int export_fd(cl_semaphore_khr s, cl_semaphore_properties_khr type) {
  int fd = -7;
  size_t sz = 0;
  CHECK_OK(cl.clGetSemaphoreHandleForTypeKHR(s, g_dev, cl_external_semaphore_handle_type_khr(type), sizeof fd, &fd, &sz));
  CHECK_EQ(sz, sizeof(int));
  CHECK(fd >= 0);
  return fd;
}
uint32_t opaque_state(int fd, int op = -1) {
  uint32_t st = 9;
  CHECK_OK(rd.refdrv_opaque_semaphore_state(fd, op, &st));
  return st;
}
std::vector<cl_uint> uint_info(cl_int (*q)(void *, cl_uint, size_t, void *, size_t *), void *o, cl_uint name) {
  size_t sz = 0;
  CHECK_OK(q(o, name, 0, nullptr, &sz));
  std::vector<cl_uint> v(sz / sizeof(cl_uint));
  if (sz) CHECK_OK(q(o, name, sz, v.data(), nullptr));
  return v;
}
cl_int pinfo(void *p, cl_uint n, size_t sz, void *v, size_t *r) { return cl.clGetPlatformInfo(static_cast<cl_platform_id>(p), n, sz, v, r); }
cl_int dinfo(void *d, cl_uint n, size_t sz, void *v, size_t *r) { return cl.clGetDeviceInfo(static_cast<cl_device_id>(d), n, sz, v, r); }
cl_int sinfo(void *s, cl_uint n, size_t sz, void *v, size_t *r) { return cl.clGetSemaphoreInfoKHR(static_cast<cl_semaphore_khr>(s), n, sz, v, r); }

}  // namespace

// ----------------------------------------------------------------- queries --
TEST("khr_semaphore.queries.types_and_handle_types") {
  std::vector<cl_uint> binary_only{CL_SEMAPHORE_TYPE_BINARY_KHR}, fds{cl_uint(kOpaque), cl_uint(kSync)};
  CHECK(uint_info(pinfo, g_plat, CL_PLATFORM_SEMAPHORE_TYPES_KHR) == binary_only);
  CHECK(uint_info(dinfo, g_dev, CL_DEVICE_SEMAPHORE_TYPES_KHR) == binary_only);
  CHECK(uint_info(pinfo, g_plat, CL_PLATFORM_SEMAPHORE_IMPORT_HANDLE_TYPES_KHR) == fds);
  CHECK(uint_info(pinfo, g_plat, CL_PLATFORM_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR) == fds);
  CHECK(uint_info(dinfo, g_dev, CL_DEVICE_SEMAPHORE_IMPORT_HANDLE_TYPES_KHR) == fds);
  CHECK(uint_info(dinfo, g_dev, CL_DEVICE_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR) == fds);
}

// ------------------------------------------------------------------ create --
TEST("khr_semaphore.create.info") {
  Env env;
  cl_device_id dev = g_dev;
  std::vector<cl_semaphore_properties_khr> p{kType, kBinary, kDevList, cl_semaphore_properties_khr(reinterpret_cast<uintptr_t>(dev)),
                                             CL_SEMAPHORE_DEVICE_HANDLE_LIST_END_KHR};
  cl_semaphore_khr s = create(env.c, p);
  cl_context c = nullptr;
  CHECK_OK(cl.clGetSemaphoreInfoKHR(s, CL_SEMAPHORE_CONTEXT_KHR, sizeof c, &c, nullptr));
  CHECK(c == env.c);
  CHECK_EQ(refs(s), 1);
  // "in the same order and without including additional properties"
  cl_semaphore_properties_khr got[8];
  size_t sz = 0;
  CHECK_OK(cl.clGetSemaphoreInfoKHR(s, CL_SEMAPHORE_PROPERTIES_KHR, sizeof got, got, &sz));
  p.push_back(0);
  CHECK_EQ(sz, p.size() * sizeof(cl_semaphore_properties_khr));
  CHECK(std::equal(p.begin(), p.end(), got));
  cl_semaphore_type_khr t = 0;
  CHECK_OK(cl.clGetSemaphoreInfoKHR(s, CL_SEMAPHORE_TYPE_KHR, sizeof t, &t, &sz));
  CHECK(t == CL_SEMAPHORE_TYPE_BINARY_KHR && sz == sizeof t);
  CHECK_EQ(payload(s), 0);  // "returns a valid semaphore object in an un-signaled state"
  cl_device_id devs[2] = {nullptr, nullptr};
  CHECK_OK(cl.clGetSemaphoreInfoKHR(s, CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR, sizeof devs, devs, &sz));
  CHECK(sz == sizeof(cl_device_id) && devs[0] == g_dev);
  CHECK(uint_info(sinfo, s, CL_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR).empty());
  cl_bool exportable = CL_TRUE;
  CHECK_OK(cl.clGetSemaphoreInfoKHR(s, CL_SEMAPHORE_EXPORTABLE_KHR, sizeof exportable, &exportable, nullptr));
  CHECK_EQ(exportable, CL_FALSE);
  // errors
  CHECK_EQ(cl.clGetSemaphoreInfoKHR(s, 0x1234, sizeof t, &t, nullptr), CL_INVALID_VALUE);
  CHECK_EQ(cl.clGetSemaphoreInfoKHR(s, CL_SEMAPHORE_PAYLOAD_KHR, 4, &t, nullptr), CL_INVALID_VALUE);
  CHECK_EQ(cl.clGetSemaphoreInfoKHR(nullptr, CL_SEMAPHORE_TYPE_KHR, sizeof t, &t, nullptr), CL_INVALID_SEMAPHORE_KHR);
  CHECK_EQ(cl.clGetSemaphoreInfoKHR(reinterpret_cast<cl_semaphore_khr>(env.q), CL_SEMAPHORE_TYPE_KHR, sizeof t, &t, nullptr),
           CL_INVALID_SEMAPHORE_KHR);
  CHECK_OK(cl.clReleaseSemaphoreKHR(s));
}

TEST("khr_semaphore.create.errors") {
  Env env;
  cl_semaphore_properties_khr dev = cl_semaphore_properties_khr(reinterpret_cast<uintptr_t>(g_dev));
  create_fails(nullptr, {kType, kBinary}, CL_INVALID_CONTEXT);
  create_fails(reinterpret_cast<cl_context>(env.q), {kType, kBinary}, CL_INVALID_CONTEXT);
  create_fails(env.c, {}, CL_INVALID_VALUE, true);                                      // sema_props NULL
  create_fails(env.c, {}, CL_INVALID_VALUE);                                            // no CL_SEMAPHORE_TYPE_KHR
  create_fails(env.c, {kDevList, dev, 0}, CL_INVALID_VALUE);                            // no CL_SEMAPHORE_TYPE_KHR
  create_fails(env.c, {kType, 2}, CL_INVALID_PROPERTY);                                 // not a (supported) type
  create_fails(env.c, {kType, kBinary, 0x7777, 1}, CL_INVALID_PROPERTY);                // not a property
  create_fails(env.c, {kType, kBinary, kType, kBinary}, CL_INVALID_PROPERTY);           // twice
  create_fails(env.c, {kType, kBinary, kDevList, 0}, CL_INVALID_DEVICE);                // no device
  create_fails(env.c, {kType, kBinary, kDevList, dev, dev, 0}, CL_INVALID_DEVICE);      // not exactly one
  create_fails(env.c, {kType, kBinary, kDevList, 0x1000, 0}, CL_INVALID_DEVICE);        // not a device
  create_fails(env.c, {kType, kBinary, kExport, kOpaque, kSync, 0}, CL_INVALID_VALUE);  // more than one export type
  create_fails(env.c, {kType, kBinary, kExport, 0x1234, 0}, CL_INVALID_PROPERTY);       // not a handle type
  for (cl_semaphore_properties_khr win :
       {CL_SEMAPHORE_HANDLE_OPAQUE_WIN32_KHR, CL_SEMAPHORE_HANDLE_OPAQUE_WIN32_KMT_KHR, CL_SEMAPHORE_HANDLE_OPAQUE_WIN32_NAME_KHR}) {
    create_fails(env.c, {kType, kBinary, kExport, win, 0}, CL_INVALID_DEVICE);  // cannot export that type
    create_fails(env.c, {kType, kBinary, win, 0x40}, CL_INVALID_DEVICE);        // cannot import that type
  }
  int efd = eventfd(0, EFD_CLOEXEC), efd2 = eventfd(0, EFD_CLOEXEC);
  cl_semaphore_properties_khr E = cl_semaphore_properties_khr(efd);
  // import and export: CL_INVALID_OPERATION; two imports: CL_INVALID_PROPERTY
  create_fails(env.c, {kType, kBinary, kSync, E, kExport, kSync, 0}, CL_INVALID_OPERATION);
  create_fails(env.c, {kType, kBinary, kSync, E, kOpaque, cl_semaphore_properties_khr(efd2)}, CL_INVALID_PROPERTY);
  // a handle that is not one (the spec's "value ... not valid"): the fd stays the application's
  create_fails(env.c, {kType, kBinary, kOpaque, E}, CL_INVALID_PROPERTY);
  int closed = dup(efd);
  close(closed);
  create_fails(env.c, {kType, kBinary, kSync, cl_semaphore_properties_khr(closed)}, CL_INVALID_PROPERTY);
  create_fails(env.c, {kType, kBinary, kOpaque, cl_semaphore_properties_khr(closed)}, CL_INVALID_PROPERTY);
  create_fails(env.c, {kType, kBinary, kSync, cl_semaphore_properties_khr(-2)}, CL_INVALID_PROPERTY);
  // not a sync file (the kernel answers SYNC_IOC_FILE_INFO on none of these), nor the driver's stand-in
  create_fails(env.c, {kType, kBinary, kSync, E}, CL_INVALID_PROPERTY);
  int unsealed = memfd_create("unsealed sync_file", MFD_CLOEXEC);
  CHECK(ftruncate(unsealed, 64) == 0 && pwrite(unsealed, "REFSYNC1", 8, 0) == 8);
  create_fails(env.c, {kType, kBinary, kSync, cl_semaphore_properties_khr(unsealed)}, CL_INVALID_PROPERTY);
  close(unsealed);
  CHECK(fd_open(efd) && fd_open(efd2));
  close(efd);
  close(efd2);
}

// ------------------------------------------------------------- wait/signal --
TEST("khr_semaphore.wait_signal.same_queue") {
  Env env;
  cl_semaphore_khr s = binary(env.c);
  cl_event es, ew;
  signal(env.q, s, 0, nullptr, &es);
  CHECK_OK(cl.clWaitForEvents(1, &es));
  CHECK_EQ(event_type(es), CL_COMMAND_SEMAPHORE_SIGNAL_KHR);
  CHECK_EQ(payload(s), 1);  // "changes the state of the corresponding semaphore objects to signaled"
  wait(env.q, s, 0, nullptr, &ew);
  CHECK_OK(cl.clWaitForEvents(1, &ew));
  CHECK_EQ(event_type(ew), CL_COMMAND_SEMAPHORE_WAIT_KHR);
  CHECK_EQ(payload(s), 0);  // the wait consumed the signal
  cl.clReleaseEvent(es);
  cl.clReleaseEvent(ew);
  cl.clReleaseSemaphoreKHR(s);
}

TEST("khr_semaphore.wait_signal.wait_orders_later_commands") {
  // a wait on queue A holds A's later commands until queue B signals
  Env env;
  cl_command_queue qb = make_queue(env.c);
  cl_semaphore_khr s = binary(env.c);
  cl_event ew, em;
  wait(env.q, s, 0, nullptr, &ew);
  CHECK_OK(cl.clEnqueueMarkerWithWaitList(env.q, 0, nullptr, &em));
  sleep_ms(30);
  CHECK(event_status(ew) > CL_COMPLETE);
  CHECK(event_status(em) > CL_COMPLETE);
  signal(qb, s);
  CHECK_OK(cl.clWaitForEvents(1, &em));
  CHECK_EQ(event_status(ew), CL_COMPLETE);
  CHECK_EQ(payload(s), 0);
  cl.clFinish(qb);
  cl.clReleaseCommandQueue(qb);
  for (cl_event e : {ew, em}) cl.clReleaseEvent(e);
  cl.clReleaseSemaphoreKHR(s);
}

TEST("khr_semaphore.wait_signal.event_wait_lists") {
  // the signal waits for its event list, the wait for its list and the semaphores
  Env env(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  cl_semaphore_khr a = binary(env.c), b = binary(env.c);
  cl_int e;
  cl_event gate = cl.clCreateUserEvent(env.c, &e), gate2 = cl.clCreateUserEvent(env.c, &e), es, ew;
  cl_semaphore_khr both[] = {a, b};
  CHECK_OK(cl.clEnqueueSignalSemaphoresKHR(env.q, 2, both, nullptr, 1, &gate, &es));
  CHECK_OK(cl.clEnqueueWaitSemaphoresKHR(env.q, 2, both, nullptr, 1, &gate2, &ew));
  sleep_ms(20);
  CHECK(event_status(es) > CL_COMPLETE);
  CHECK(payload(a) == 0 && payload(b) == 0);
  CHECK_OK(cl.clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_EQ(wait_status(es, CL_COMPLETE), CL_COMPLETE);
  sleep_ms(20);
  CHECK(payload(a) == 1 && payload(b) == 1);  // the wait still waits for gate2
  CHECK(event_status(ew) > CL_COMPLETE);
  CHECK_OK(cl.clSetUserEventStatus(gate2, CL_COMPLETE));
  CHECK_EQ(wait_status(ew, CL_COMPLETE), CL_COMPLETE);
  CHECK(payload(a) == 0 && payload(b) == 0);
  for (cl_event ev : {gate, gate2, es, ew}) cl.clReleaseEvent(ev);
  cl.clReleaseSemaphoreKHR(a);
  cl.clReleaseSemaphoreKHR(b);
}

TEST("khr_semaphore.wait_signal.all_semaphores_of_a_wait") {
  Env env;
  cl_command_queue qb = make_queue(env.c);
  cl_semaphore_khr a = binary(env.c), b = binary(env.c);
  cl_semaphore_khr both[] = {a, b};
  cl_event ew;
  CHECK_OK(cl.clEnqueueWaitSemaphoresKHR(env.q, 2, both, nullptr, 0, nullptr, &ew));
  signal(qb, a);
  CHECK_OK(cl.clFinish(qb));
  sleep_ms(20);
  CHECK(event_status(ew) > CL_COMPLETE);
  CHECK_EQ(payload(a), 1);  // not consumed while b is unsignaled
  signal(qb, b);
  CHECK_EQ(wait_status(ew, CL_COMPLETE), CL_COMPLETE);
  CHECK(payload(a) == 0 && payload(b) == 0);
  cl.clReleaseEvent(ew);
  cl.clReleaseCommandQueue(qb);
  cl.clReleaseSemaphoreKHR(a);
  cl.clReleaseSemaphoreKHR(b);
}

TEST("khr_semaphore.wait_signal.failed_dependency") {
  // a signal whose wait list failed does not signal; a wait whose list failed consumes nothing
  Env env(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  cl_semaphore_khr s = binary(env.c);
  cl_int e;
  cl_event gate = cl.clCreateUserEvent(env.c, &e), es, ew;
  signal(env.q, s, 1, &gate, &es);
  CHECK_OK(cl.clSetUserEventStatus(gate, -9));
  CHECK_EQ(wait_status(es, CL_COMPLETE), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK_EQ(payload(s), 0);
  cl_event gate2 = cl.clCreateUserEvent(env.c, &e);
  signal(env.q, s);
  CHECK_OK(cl.clFinish(env.q));
  wait(env.q, s, 1, &gate2, &ew);
  CHECK_OK(cl.clSetUserEventStatus(gate2, -9));
  CHECK_EQ(wait_status(ew, CL_COMPLETE), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK_EQ(payload(s), 1);
  for (cl_event ev : {gate, gate2, es, ew}) cl.clReleaseEvent(ev);
  cl.clReleaseSemaphoreKHR(s);
}

TEST("khr_semaphore.wait_signal.errors") {
  Env env, other;
  cl_semaphore_khr s = binary(env.c), foreign = binary(other.c);
  cl_int e;
  cl_event fev = cl.clCreateUserEvent(other.c, &e), failed = cl.clCreateUserEvent(env.c, &e);
  CHECK_OK(cl.clSetUserEventStatus(failed, -1));
  for (auto f : {cl.clEnqueueWaitSemaphoresKHR, cl.clEnqueueSignalSemaphoresKHR}) {
    CHECK_EQ(f(nullptr, 1, &s, nullptr, 0, nullptr, nullptr), CL_INVALID_COMMAND_QUEUE);
    CHECK_EQ(f(reinterpret_cast<cl_command_queue>(env.c), 1, &s, nullptr, 0, nullptr, nullptr), CL_INVALID_COMMAND_QUEUE);
    CHECK_EQ(f(env.q, 0, &s, nullptr, 0, nullptr, nullptr), CL_INVALID_VALUE);
    CHECK_EQ(f(env.q, 1, nullptr, nullptr, 0, nullptr, nullptr), CL_INVALID_VALUE);
    cl_semaphore_khr bad[] = {s, nullptr};
    CHECK_EQ(f(env.q, 2, bad, nullptr, 0, nullptr, nullptr), CL_INVALID_SEMAPHORE_KHR);
    bad[1] = reinterpret_cast<cl_semaphore_khr>(env.q);
    CHECK_EQ(f(env.q, 2, bad, nullptr, 0, nullptr, nullptr), CL_INVALID_SEMAPHORE_KHR);
    CHECK_EQ(f(env.q, 1, &foreign, nullptr, 0, nullptr, nullptr), CL_INVALID_CONTEXT);
    CHECK_EQ(f(env.q, 1, &s, nullptr, 0, &fev, nullptr), CL_INVALID_EVENT_WAIT_LIST);
    CHECK_EQ(f(env.q, 1, &s, nullptr, 1, nullptr, nullptr), CL_INVALID_EVENT_WAIT_LIST);
    CHECK_EQ(f(env.q, 1, &s, nullptr, 1, &fev, nullptr), CL_INVALID_CONTEXT);
    CHECK_EQ(f(env.q, 1, &s, nullptr, 1, &failed, nullptr), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  }
  CHECK_EQ(payload(s), 0);
  cl.clReleaseEvent(fev);
  cl.clReleaseEvent(failed);
  cl.clReleaseSemaphoreKHR(s);
  cl.clReleaseSemaphoreKHR(foreign);
}

// ---------------------------------------------------------- retain/release --
TEST("khr_semaphore.retain_release.refcount_and_pending_commands") {
  Env env;
  cl_semaphore_khr s = create(env.c, {kType, kBinary, kExport, kOpaque, 0});
  CHECK_OK(cl.clRetainSemaphoreKHR(s));
  CHECK_EQ(refs(s), 2);
  CHECK_OK(cl.clReleaseSemaphoreKHR(s));
  CHECK_EQ(refs(s), 1);
  CHECK_EQ(rd.refdrv_live_objects("semaphore"), 1);
  CHECK_EQ(cl.clReleaseSemaphoreKHR(nullptr), CL_INVALID_SEMAPHORE_KHR);
  CHECK_EQ(cl.clRetainSemaphoreKHR(reinterpret_cast<cl_semaphore_khr>(env.c)), CL_INVALID_SEMAPHORE_KHR);
  // "After the reference count becomes zero and commands queued ... that use sema_object have
  // finished, the semaphore object is deleted."
  int fd = export_fd(s, kOpaque);
  cl_event ew;
  wait(env.q, s, 0, nullptr, &ew);
  CHECK_OK(cl.clReleaseSemaphoreKHR(s));
  CHECK_EQ(rd.refdrv_live_objects("semaphore"), 1);  // the pending wait holds it
  sleep_ms(10);
  CHECK(event_status(ew) > CL_COMPLETE);
  opaque_state(fd, 1);  // the other side of the opaque fd signals
  CHECK_EQ(wait_status(ew, CL_COMPLETE), CL_COMPLETE);
  CHECK_OK(rd.refdrv_wait_idle(5000));
  CHECK_EQ(rd.refdrv_live_objects("semaphore"), 0);
  CHECK_EQ(opaque_state(fd), 0);  // consumed by the wait
  cl.clReleaseEvent(ew);
  close(fd);
}

// ------------------------------------------------------------ opaque fd --
TEST("khr_external_semaphore.export.opaque_fd.errors_and_size_query") {
  Env env;
  cl_semaphore_khr s = create(env.c, {kType, kBinary, kExport, kOpaque, 0}), plain = binary(env.c);
  CHECK(uint_info(sinfo, s, CL_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR) == std::vector<cl_uint>{cl_uint(kOpaque)});
  cl_bool exportable = CL_FALSE;
  CHECK_OK(cl.clGetSemaphoreInfoKHR(s, CL_SEMAPHORE_EXPORTABLE_KHR, sizeof exportable, &exportable, nullptr));
  CHECK_EQ(exportable, CL_TRUE);
  int before = open_fd_count();
  size_t sz = 0;
  // a size query exports nothing
  CHECK_OK(cl.clGetSemaphoreHandleForTypeKHR(s, g_dev, CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR, 0, nullptr, &sz));
  CHECK_EQ(sz, sizeof(int));
  int fd = -5;
  CHECK_EQ(cl.clGetSemaphoreHandleForTypeKHR(nullptr, g_dev, CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR, sizeof fd, &fd, nullptr), CL_INVALID_SEMAPHORE_KHR);
  CHECK_EQ(cl.clGetSemaphoreHandleForTypeKHR(s, nullptr, CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR, sizeof fd, &fd, nullptr), CL_INVALID_DEVICE);
  CHECK_EQ(cl.clGetSemaphoreHandleForTypeKHR(s, reinterpret_cast<cl_device_id>(env.c), CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR, sizeof fd, &fd, nullptr),
           CL_INVALID_DEVICE);
  // a type not given at creation; a semaphore that is not exportable; a handle_size too small
  CHECK_EQ(cl.clGetSemaphoreHandleForTypeKHR(s, g_dev, CL_SEMAPHORE_HANDLE_SYNC_FD_KHR, sizeof fd, &fd, nullptr), CL_INVALID_VALUE);
  CHECK_EQ(cl.clGetSemaphoreHandleForTypeKHR(plain, g_dev, CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR, sizeof fd, &fd, nullptr), CL_INVALID_VALUE);
  CHECK_EQ(cl.clGetSemaphoreHandleForTypeKHR(s, g_dev, CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR, 2, &fd, nullptr), CL_INVALID_VALUE);
  CHECK_EQ(fd, -5);
  CHECK_EQ(open_fd_count(), before);
  cl.clReleaseSemaphoreKHR(s);
  cl.clReleaseSemaphoreKHR(plain);
}

TEST("khr_external_semaphore.import.opaque_fd.reference_transference") {
  // "importing a payload to a semaphore adds the semaphore to the set of all semaphores sharing
  // that payload ... operations performed on any semaphore in the set must behave as if the set
  // were a single semaphore": another context signals, this one waits
  Env a, b;
  cl_semaphore_khr s = create(a.c, {kType, kBinary, kExport, kOpaque, 0});
  int fd = export_fd(s, kOpaque);
  CHECK_EQ(opaque_state(fd), 0);
  int before = open_fd_count();
  cl_semaphore_khr t = create(b.c, {kType, kBinary, kOpaque, cl_semaphore_properties_khr(fd)});
  CHECK_EQ(open_fd_count(), before);  // the driver holds the imported fd
  CHECK(fd_open(fd));
  CHECK(uint_info(sinfo, t, CL_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR).empty());
  cl_event ew;
  wait(b.q, t, 0, nullptr, &ew);
  sleep_ms(20);
  CHECK(event_status(ew) > CL_COMPLETE);
  signal(a.q, s);
  CHECK_EQ(wait_status(ew, CL_COMPLETE), CL_COMPLETE);
  CHECK(payload(s) == 0 && payload(t) == 0);
  // and back: b signals, a sees it
  signal(b.q, t);
  CHECK_OK(cl.clFinish(b.q));
  CHECK_EQ(payload(s), 1);
  wait(a.q, s);
  CHECK_OK(cl.clFinish(a.q));
  CHECK_EQ(payload(t), 0);
  cl.clReleaseEvent(ew);
  CHECK_OK(cl.clReleaseSemaphoreKHR(t));
  CHECK_EQ(open_fd_count(), before - 1);  // closed with the importing semaphore
  CHECK(!fd_open(fd));
  CHECK_OK(cl.clReleaseSemaphoreKHR(s));
}

TEST("khr_external_semaphore.import.opaque_fd.another_process") {
  // an exported opaque fd signaled by another process (fork: the child only touches the payload)
  Env env;
  cl_semaphore_khr s = create(env.c, {kType, kBinary, kExport, kOpaque, 0});
  int fd = export_fd(s, kOpaque);
  cl_event ew;
  wait(env.q, s, 0, nullptr, &ew);
  fflush(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    void *map = mmap(nullptr, 64, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) _exit(2);
    usleep(20000);
    __atomic_store_n(reinterpret_cast<uint32_t *>(static_cast<char *>(map) + 8), 1u, __ATOMIC_SEQ_CST);
    _exit(0);
  }
  CHECK(pid > 0);
  int status = 0;
  CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
  CHECK_EQ(wait_status(ew, CL_COMPLETE), CL_COMPLETE);
  CHECK_EQ(payload(s), 0);
  cl.clReleaseEvent(ew);
  cl.clReleaseSemaphoreKHR(s);
  close(fd);
}

TEST("khr_external_semaphore.import.opaque_fd.wrong_shape") {
  Env env;
  int mem = memfd_create("not a semaphore", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  CHECK(ftruncate(mem, 64) == 0);
  create_fails(env.c, {kType, kBinary, kOpaque, cl_semaphore_properties_khr(mem)}, CL_INVALID_PROPERTY);
  CHECK(pwrite(mem, "REFSEM01", 8, 0) == 8);
  CHECK(ftruncate(mem, 128) == 0);  // the magic, but not the size
  create_fails(env.c, {kType, kBinary, kOpaque, cl_semaphore_properties_khr(mem)}, CL_INVALID_PROPERTY);
  CHECK(ftruncate(mem, 64) == 0);  // the shape, but its size not sealed: its sender could cut it under the mapping
  create_fails(env.c, {kType, kBinary, kOpaque, cl_semaphore_properties_khr(mem)}, CL_INVALID_PROPERTY);
  CHECK(fcntl(mem, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW) == 0);  // now it is one
  cl_semaphore_khr s = create(env.c, {kType, kBinary, kOpaque, cl_semaphore_properties_khr(mem)});
  CHECK_OK(cl.clReleaseSemaphoreKHR(s));
  CHECK(!fd_open(mem));
  CHECK_EQ(rd.refdrv_opaque_semaphore_state(mem, -1, nullptr), REFDRV_E_BAD_HANDLE);
}

// -------------------------------------------------------------- sync fd --
TEST("khr_external_semaphore.export.sync_fd.signaled_when_signal_completes") {
  // copy transference; "exporting ... has the same side effects on the source semaphore's
  // payload as executing a semaphore wait operation"
  Env env;
  cl_semaphore_khr s = create(env.c, {kType, kBinary, kExport, kSync, 0});
  cl_int e;
  cl_event gate = cl.clCreateUserEvent(env.c, &e);
  signal(env.q, s, 1, &gate);
  int fd = export_fd(s, kSync);
  CHECK(sync_signaled(fd) == false);
  sleep_ms(10);
  CHECK(sync_signaled(fd) == false);
  CHECK_OK(cl.clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK(sync_signaled(fd, 5000));
  CHECK_EQ(payload(s), 0);  // the export took the signal
  int seals = fcntl(fd, F_GET_SEALS);
  CHECK(seals != -1 && (seals & F_SEAL_SHRINK));  // no holder can cut it under the driver's mapping
  close(fd);
  // exported when already signaled: signaled at once, and the semaphore is unsignaled
  signal(env.q, s);
  CHECK_OK(cl.clFinish(env.q));
  CHECK_EQ(payload(s), 1);
  fd = export_fd(s, kSync);
  CHECK(sync_signaled(fd));
  CHECK_EQ(payload(s), 0);
  close(fd);
  cl.clReleaseEvent(gate);
  cl.clReleaseSemaphoreKHR(s);
}

TEST("khr_external_semaphore.export.sync_fd.unsignaled_semaphore_released") {
  // an export waiting for a signal that can no longer come lets go of the driver's mapping of it
  Env env;
  cl_semaphore_khr s = create(env.c, {kType, kBinary, kExport, kSync, 0});
  int before = open_fd_count(), mapped = mappings_of("refdrv sync_file");
  int fd = export_fd(s, kSync);
  CHECK_EQ(open_fd_count(), before + 1);  // the application's fd; the driver maps it
  CHECK_EQ(mappings_of("refdrv sync_file"), mapped + 1);
  CHECK_OK(cl.clReleaseSemaphoreKHR(s));
  for (int i = 0; i < 1000 && mappings_of("refdrv sync_file") != mapped; i++) sleep_ms(1);
  CHECK_EQ(mappings_of("refdrv sync_file"), mapped);
  CHECK(!sync_signaled(fd));
  close(fd);
}

TEST("khr_external_semaphore.import.sync_fd.wait_for_signaled_fd") {
  Env env;
  int efd = sync_stand_in();
  int before = open_fd_count();
  cl_semaphore_khr s = create(env.c, {kType, kBinary, kSync, cl_semaphore_properties_khr(efd)});
  CHECK_EQ(open_fd_count(), before);  // owned by the driver now
  CHECK_EQ(payload(s), 0);
  cl_event ew;
  wait(env.q, s, 0, nullptr, &ew);
  sleep_ms(20);
  CHECK(event_status(ew) > CL_COMPLETE);
  CHECK(sync_signal(efd));  // the other API's work completes
  CHECK_EQ(wait_status(ew, CL_COMPLETE), CL_COMPLETE);
  CHECK_EQ(open_fd_count(), before - 1);  // the wait consumed the temporary payload and its fd
  CHECK_EQ(payload(s), 0);
  // back to its own payload: an ordinary binary semaphore
  signal(env.q, s);
  wait(env.q, s);
  CHECK_OK(cl.clFinish(env.q));
  cl.clReleaseEvent(ew);
  cl.clReleaseSemaphoreKHR(s);
}

TEST("khr_external_semaphore.import.sync_fd.minus_one_is_signaled") {
  // "The special value -1 for fd is treated like a valid sync file descriptor referring to an
  // object that has already signaled."
  Env env;
  for (cl_semaphore_properties_khr minus_one : {~cl_semaphore_properties_khr(0), cl_semaphore_properties_khr(0xFFFFFFFFu)}) {
    cl_semaphore_khr s = create(env.c, {kType, kBinary, kSync, minus_one});
    CHECK_EQ(payload(s), 1);
    wait(env.q, s);
    CHECK_OK(cl.clFinish(env.q));
    CHECK_EQ(payload(s), 0);
    cl.clReleaseSemaphoreKHR(s);
  }
}

TEST("khr_external_semaphore.import.sync_fd.released_before_wait") {
  Env env;
  int efd = sync_stand_in();
  cl_semaphore_khr s = create(env.c, {kType, kBinary, kSync, cl_semaphore_properties_khr(efd)});
  CHECK_OK(cl.clReleaseSemaphoreKHR(s));
  CHECK(!fd_open(efd));  // closed with the semaphore
}

TEST("khr_external_semaphore.reimport.sync_fd") {
  Env env;
  int first = sync_stand_in();
  cl_semaphore_khr s = create(env.c, {kType, kBinary, kSync, cl_semaphore_properties_khr(first)});
  cl_semaphore_khr plain = binary(env.c), exp = create(env.c, {kType, kBinary, kExport, kSync, 0});
  int second = sync_stand_in();
  int efd = eventfd(0, EFD_CLOEXEC);
  CHECK_EQ(cl.clReImportSemaphoreSyncFdKHR(s, nullptr, efd), CL_INVALID_VALUE);  // not a sync file
  close(efd);
  // errors leave the fd with the application
  CHECK_EQ(cl.clReImportSemaphoreSyncFdKHR(nullptr, nullptr, second), CL_INVALID_SEMAPHORE_KHR);
  CHECK_EQ(cl.clReImportSemaphoreSyncFdKHR(reinterpret_cast<cl_semaphore_khr>(env.q), nullptr, second), CL_INVALID_SEMAPHORE_KHR);
  CHECK_EQ(cl.clReImportSemaphoreSyncFdKHR(plain, nullptr, second), CL_INVALID_SEMAPHORE_KHR);  // did not import one
  CHECK_EQ(cl.clReImportSemaphoreSyncFdKHR(exp, nullptr, second), CL_INVALID_SEMAPHORE_KHR);
  int closed = dup(second);
  close(closed);
  CHECK_EQ(cl.clReImportSemaphoreSyncFdKHR(s, nullptr, closed), CL_INVALID_VALUE);
  CHECK_EQ(cl.clReImportSemaphoreSyncFdKHR(s, nullptr, -2), CL_INVALID_VALUE);
  cl_semaphore_reimport_properties_khr props[] = {0x1234, 1, 0};
  CHECK_EQ(cl.clReImportSemaphoreSyncFdKHR(s, props, second), CL_INVALID_VALUE);
  CHECK(fd_open(second) && fd_open(first));
  // success: the old fd is closed, the new one is waited for
  cl_semaphore_reimport_properties_khr none[] = {0};
  CHECK_OK(cl.clReImportSemaphoreSyncFdKHR(s, none, second));
  CHECK(!fd_open(first));
  cl_event ew;
  wait(env.q, s, 0, nullptr, &ew);
  sleep_ms(10);
  CHECK(event_status(ew) > CL_COMPLETE);
  CHECK(sync_signal(second));
  CHECK_EQ(wait_status(ew, CL_COMPLETE), CL_COMPLETE);
  CHECK(!fd_open(second));  // consumed by the wait
  // -1: signaled
  CHECK_OK(cl.clReImportSemaphoreSyncFdKHR(s, nullptr, -1));
  CHECK_EQ(payload(s), 1);
  cl.clReleaseEvent(ew);
  for (auto x : {s, plain, exp}) cl.clReleaseSemaphoreKHR(x);
}

TEST("khr_external_semaphore.export.sync_fd.import_elsewhere") {
  // a sync fd exported by one context is a sync fd another context waits for
  Env a, b;
  cl_semaphore_khr s = create(a.c, {kType, kBinary, kExport, kSync, 0});
  cl_int e;
  cl_event gate = cl.clCreateUserEvent(a.c, &e), ew;
  signal(a.q, s, 1, &gate);
  int fd = export_fd(s, kSync);
  cl_semaphore_khr t = create(b.c, {kType, kBinary, kSync, cl_semaphore_properties_khr(fd)});
  wait(b.q, t, 0, nullptr, &ew);
  sleep_ms(20);
  CHECK(event_status(ew) > CL_COMPLETE);
  CHECK_OK(cl.clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_EQ(wait_status(ew, CL_COMPLETE), CL_COMPLETE);
  cl.clReleaseEvent(gate);
  cl.clReleaseEvent(ew);
  cl.clReleaseSemaphoreKHR(s);
  cl.clReleaseSemaphoreKHR(t);
}
