// test_concurrency.cpp - queues run concurrently, as on a GPU (each queue has
// its own worker), with the OpenCL 3.0 ordering rules (section 5.11, "Event
// Objects"; 5.12 "Markers, Barriers and Waiting for Events"): wait lists across
// queues, failed dependencies, callbacks in status order, and teardown with
// commands in flight. Times are only ordering evidence: command delays
// (refdrv_set_command_delay) keep a command CL_RUNNING long enough for another
// queue's to finish first.
#include "harness.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

namespace {

cl_ulong prof(cl_event e, cl_profiling_info what) {
  cl_ulong t = 0;
  CHECK_OK(cl.clGetEventProfilingInfo(e, what, sizeof t, &t, nullptr));
  return t;
}
cl_ulong t_start(cl_event e) { return prof(e, CL_PROFILING_COMMAND_START); }
cl_ulong t_end(cl_event e) { return prof(e, CL_PROFILING_COMMAND_END); }

// copy_buffer src -> dst over n bytes, on q (its event returned)
struct Copy {
  cl_program program = nullptr;
  cl_kernel kernel = nullptr;
  Copy(cl_context c, cl_mem src, cl_mem dst) {
    kernel = builtin_kernel(c, "copy_buffer", &program);
    CHECK_OK(cl.clSetKernelArg(kernel, 0, sizeof(cl_mem), &src));
    CHECK_OK(cl.clSetKernelArg(kernel, 1, sizeof(cl_mem), &dst));
  }
  cl_event run(cl_command_queue q, size_t n, cl_uint nw = 0, const cl_event *wl = nullptr) {
    cl_event e = nullptr;
    CHECK_OK(cl.clEnqueueNDRangeKernel(q, kernel, 1, nullptr, &n, nullptr, nw, wl, &e));
    return e;
  }
  ~Copy() {
    cl.clReleaseKernel(kernel);
    cl.clReleaseProgram(program);
  }
};

cl_mem buffer(cl_context c, size_t n, const std::vector<uint8_t> *init = nullptr) {
  cl_int e;
  cl_mem m = cl.clCreateBuffer(c, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0), n, init ? const_cast<uint8_t *>(init->data()) : nullptr, &e);
  CHECK_OK(e);
  return m;
}

void set_delay(const char *spec) { CHECK_OK(rd.refdrv_set_command_delay(spec)); }
uint32_t delay_of(cl_command_type t) {
  uint32_t us = 12345;
  CHECK_OK(rd.refdrv_command_delay(t, &us));
  return us;
}

}  // namespace

TEST("refdrv.command_delay.spec_and_lookup") {
  set_delay("kernel=1000,transfer=20,0x11F4=7");
  CHECK_EQ(delay_of(CL_COMMAND_NDRANGE_KERNEL), 1000);
  CHECK_EQ(delay_of(CL_COMMAND_TASK), 1000);
  CHECK_EQ(delay_of(CL_COMMAND_READ_BUFFER), 20);
  CHECK_EQ(delay_of(CL_COMMAND_WRITE_BUFFER), 7);  // a type's own entry, after its class
  CHECK_EQ(delay_of(CL_COMMAND_MARKER), 0);
  set_delay(" 500 , sync=3,acquire=4");
  CHECK_EQ(delay_of(CL_COMMAND_READ_BUFFER), 500);  // a bare number is all=
  CHECK_EQ(delay_of(CL_COMMAND_MARKER), 3);
  CHECK_EQ(delay_of(CL_COMMAND_BARRIER), 3);
  CHECK_EQ(delay_of(CL_COMMAND_SEMAPHORE_WAIT_KHR), 3);
  CHECK_EQ(delay_of(CL_COMMAND_ACQUIRE_EXTERNAL_MEM_OBJECTS_KHR), 4);
  CHECK_EQ(delay_of(CL_COMMAND_RELEASE_VA_API_MEDIA_SURFACES_INTEL), 4);
  set_delay("kernel=9,all=5");  // all is the fallback wherever it stands
  CHECK_EQ(delay_of(CL_COMMAND_NDRANGE_KERNEL), 9);
  CHECK_EQ(delay_of(CL_COMMAND_COPY_BUFFER), 5);
  set_delay("transfer=60000000");  // the largest
  CHECK_EQ(delay_of(CL_COMMAND_FILL_IMAGE), 60000000);
  // bad specs change nothing
  for (const char *bad :
       {"kernel=", "bogus=1", "1,", ",1", "kernel=60000001", "0=5", "kernel=-1", "x", "=5", "0x=1", "kernel=1=2", "99999999999999999999999"})
    CHECK_EQ(rd.refdrv_set_command_delay(bad), REFDRV_E_INVALID_ARG);
  CHECK_EQ(delay_of(CL_COMMAND_FILL_IMAGE), 60000000);
  CHECK_EQ(rd.refdrv_command_delay(CL_COMMAND_MARKER, nullptr), REFDRV_E_INVALID_ARG);
  set_delay("");
  CHECK_EQ(delay_of(CL_COMMAND_FILL_IMAGE), 0);
  set_delay("100");
  CHECK_OK(rd.refdrv_set_command_delay(nullptr));
  CHECK_EQ(delay_of(CL_COMMAND_READ_BUFFER), 0);
}

TEST("refdrv.command_delay.command_is_running_for_its_delay") {
  cl_context c = make_ctx();
  cl_command_queue q = make_queue(c, CL_QUEUE_PROFILING_ENABLE);
  cl_mem b = buffer(c, 64);
  uint8_t data[64] = {1};
  set_delay("transfer=200000");
  cl_event w;
  CHECK_OK(cl.clEnqueueWriteBuffer(q, b, CL_FALSE, 0, 64, data, 0, nullptr, &w));
  set_delay("");  // taken at enqueue: the write keeps its delay
  bool saw_running = false;
  for (cl_int st; (st = event_status(w)) != CL_COMPLETE; usleep(1000)) {
    CHECK(st > 0);
    if (st == CL_RUNNING) saw_running = true;
  }
  CHECK(saw_running);
  CHECK(t_end(w) - t_start(w) >= 200000000ull);
  cl.clReleaseEvent(w);
  cl.clReleaseMemObject(b);
  cl.clReleaseCommandQueue(q);
  cl.clReleaseContext(c);
}

CHILD("child.command_delay.print") {
  printf("kernel=%u write=%u read=%u\n", delay_of(CL_COMMAND_NDRANGE_KERNEL), delay_of(CL_COMMAND_WRITE_BUFFER), delay_of(CL_COMMAND_READ_BUFFER));
  fflush(stdout);
  _exit(0);
}

TEST("refdrv.command_delay.environment") {
  auto r = run_child("child.command_delay.print", {"REFDRV_COMMAND_DELAY_US=kernel=1234, 0x11F4=5"}, 20000);
  CHECK_EQ(r.status, 0);
  CHECK(r.output.find("kernel=1234 write=5 read=0") != std::string::npos);
  // not a delay list: a message, and no delay
  r = run_child("child.command_delay.print", {"REFDRV_COMMAND_DELAY_US=kernel=soon"}, 20000);
  CHECK_EQ(r.status, 0);
  CHECK(r.output.find("kernel=0 write=0 read=0") != std::string::npos);
  CHECK(r.output.find("REFDRV_COMMAND_DELAY_US=kernel=soon is not a delay list") != std::string::npos);
}

// A slowed kernel on queue A, a write on queue B enqueued after it: B's write
// completes while A's kernel is still running.
TEST("core.concurrency.5_11.queues_run_concurrently") {
  cl_context c = make_ctx();
  cl_command_queue qa = make_queue(c, CL_QUEUE_PROFILING_ENABLE);
  cl_command_queue qb = make_queue(c, CL_QUEUE_PROFILING_ENABLE);
  auto src = pattern(4096, 3);
  cl_mem s = buffer(c, 4096, &src), d = buffer(c, 4096), other = buffer(c, 64);
  Copy copy(c, s, d);
  set_delay("kernel=600000");
  cl_event ka = copy.run(qa, 4096);
  uint8_t data[64] = {7};
  cl_event wb;
  CHECK_OK(cl.clEnqueueWriteBuffer(qb, other, CL_FALSE, 0, 64, data, 0, nullptr, &wb));
  CHECK_OK(cl.clWaitForEvents(1, &wb));
  CHECK(event_status(ka) > CL_COMPLETE);  // still running (or about to) while B is done
  CHECK_OK(cl.clWaitForEvents(1, &ka));
  CHECK(t_end(wb) < t_end(ka));
  set_delay("");
  std::vector<uint8_t> out(4096);
  CHECK_OK(cl.clEnqueueReadBuffer(qb, d, CL_TRUE, 0, 4096, out.data(), 0, nullptr, nullptr));
  CHECK(out == src);
  cl.clReleaseEvent(ka);
  cl.clReleaseEvent(wb);
  for (auto m : {s, d, other}) cl.clReleaseMemObject(m);
  cl.clReleaseCommandQueue(qa);
  cl.clReleaseCommandQueue(qb);
  cl.clReleaseContext(c);
}

// 5.11: a command waits for every event of its wait list, whatever queue they
// belong to; a failed event of the list fails it with
// CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST; 5.12: a barrier with a wait list
// holds the commands after it.
TEST("core.concurrency.5_11.cross_queue_wait_lists") {
  cl_context c = make_ctx();
  cl_command_queue qa = make_queue(c, CL_QUEUE_PROFILING_ENABLE);
  cl_command_queue qb = make_queue(c, CL_QUEUE_PROFILING_ENABLE);
  auto src = pattern(1024, 9);
  cl_mem s = buffer(c, 1024, &src), d = buffer(c, 1024), e2 = buffer(c, 1024);
  Copy copy(c, s, d);
  set_delay("kernel=300000");
  cl_event ka = copy.run(qa, 1024);
  set_delay("");
  // B reads what A's kernel writes: the read waits for it
  std::vector<uint8_t> out(1024, 0);
  cl_event rb, mb;
  CHECK_OK(cl.clEnqueueReadBuffer(qb, d, CL_FALSE, 0, 1024, out.data(), 1, &ka, &rb));
  CHECK_OK(cl.clEnqueueMarkerWithWaitList(qb, 1, &ka, &mb));
  CHECK_OK(cl.clWaitForEvents(1, &rb));
  CHECK_EQ(event_status(ka), CL_COMPLETE);
  CHECK(out == src);
  CHECK(t_start(rb) >= t_end(ka));
  CHECK_OK(cl.clWaitForEvents(1, &mb));
  CHECK(t_start(mb) >= t_end(ka));

  // a barrier on B waiting for a slowed kernel on A holds B's later commands
  Copy copy2(c, s, e2);
  set_delay("kernel=300000");
  cl_event ka2 = copy2.run(qa, 1024);
  set_delay("");
  cl_event bb, wb;
  CHECK_OK(cl.clEnqueueBarrierWithWaitList(qb, 1, &ka2, &bb));
  uint8_t one[4] = {1, 2, 3, 4};
  CHECK_OK(cl.clEnqueueWriteBuffer(qb, d, CL_FALSE, 0, 4, one, 0, nullptr, &wb));
  CHECK_OK(cl.clWaitForEvents(1, &wb));
  CHECK_EQ(event_status(ka2), CL_COMPLETE);
  CHECK(t_start(wb) >= t_end(ka2));

  // a failed user event fails A's command waiting on it, and B's command waiting on that
  cl_int e;
  cl_event u = cl.clCreateUserEvent(c, &e);
  CHECK_OK(e);
  uint8_t pat = 5;
  cl_event fa, fb;
  CHECK_OK(cl.clEnqueueFillBuffer(qa, d, &pat, 1, 0, 16, 1, &u, &fa));
  CHECK_OK(cl.clEnqueueFillBuffer(qb, e2, &pat, 1, 0, 16, 1, &fa, &fb));
  CHECK(event_status(fb) > 0);
  CHECK_OK(cl.clSetUserEventStatus(u, -77));
  CHECK_EQ(cl.clWaitForEvents(1, &fb), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK_EQ(event_status(fa), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK_EQ(event_status(fb), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  for (auto ev : {ka, rb, mb, ka2, bb, wb, u, fa, fb}) cl.clReleaseEvent(ev);
  for (auto m : {s, d, e2}) cl.clReleaseMemObject(m);
  CHECK_OK(cl.clFinish(qa));
  CHECK_OK(cl.clFinish(qb));
  cl.clReleaseCommandQueue(qa);
  cl.clReleaseCommandQueue(qb);
  cl.clReleaseContext(c);
}

namespace {
struct CbRecord {
  int tag;
  cl_int status;
  cl_int other_status;  // the slowed event's status when the callback ran
  std::thread::id thread;
};
std::mutex g_cb_mu;
std::vector<CbRecord> g_cb_log;
cl_event g_slow = nullptr;
struct Tag {
  int tag;
};
void CL_API_CALL log_cb(cl_event, cl_int st, void *data) {
  cl_int other = 0;
  cl.clGetEventInfo(g_slow, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof other, &other, nullptr);
  std::lock_guard<std::mutex> g(g_cb_mu);
  g_cb_log.push_back({static_cast<Tag *>(data)->tag, st, other, std::this_thread::get_id()});
}
}  // namespace

// 5.11 (clSetEventCallback): the callbacks of an event come in status order;
// a queue's completion is delivered while another queue's command still runs.
TEST("core.concurrency.5_11.callbacks_between_queues") {
  cl_context c = make_ctx();
  cl_command_queue qa = make_queue(c);
  cl_command_queue qb = make_queue(c);
  auto src = pattern(256, 1);
  cl_mem s = buffer(c, 256, &src), d = buffer(c, 256), other = buffer(c, 64);
  Copy copy(c, s, d);
  cl_int e;
  cl_event gate = cl.clCreateUserEvent(c, &e);  // A's kernel is CL_SUBMITTED while the callbacks are set
  CHECK_OK(e);
  set_delay("kernel=500000");
  cl_event ka = copy.run(qa, 256, 1, &gate);
  set_delay("");
  g_slow = ka;
  static Tag a_submitted{1}, a_running{2}, a_complete{3}, b_complete{4};
  CHECK_OK(cl.clSetEventCallback(ka, CL_COMPLETE, log_cb, &a_complete));
  CHECK_OK(cl.clSetEventCallback(ka, CL_RUNNING, log_cb, &a_running));
  CHECK_OK(cl.clSetEventCallback(ka, CL_SUBMITTED, log_cb, &a_submitted));
  CHECK_OK(cl.clSetUserEventStatus(gate, CL_COMPLETE));
  while (event_status(ka) != CL_RUNNING) usleep(1000);
  // B's write, enqueued while A's kernel runs
  uint8_t data[64] = {3};
  cl_event wb;
  CHECK_OK(cl.clEnqueueWriteBuffer(qb, other, CL_FALSE, 0, 64, data, 0, nullptr, &wb));
  CHECK_OK(cl.clSetEventCallback(wb, CL_COMPLETE, log_cb, &b_complete));
  CHECK_OK(cl.clWaitForEvents(1, &ka));
  CHECK_OK(rd.refdrv_wait_idle(5000));
  std::lock_guard<std::mutex> g(g_cb_mu);
  CHECK_EQ(g_cb_log.size(), 4);
  auto pos = [](int tag) {
    for (size_t i = 0; i < g_cb_log.size(); i++)
      if (g_cb_log[i].tag == tag) return int(i);
    return -1;
  };
  CHECK(pos(1) < pos(2) && pos(2) < pos(3));  // A's in status order
  CHECK(pos(4) < pos(3));                     // B's completion before A's
  CHECK(g_cb_log[size_t(pos(4))].other_status > CL_COMPLETE);
  CHECK_EQ(g_cb_log[size_t(pos(4))].status, CL_COMPLETE);
  CHECK_EQ(g_cb_log[size_t(pos(1))].status, CL_SUBMITTED);
  CHECK_EQ(g_cb_log[size_t(pos(2))].status, CL_RUNNING);
  CHECK_EQ(g_cb_log[size_t(pos(3))].status, CL_COMPLETE);
  for (auto &r : g_cb_log) CHECK(r.thread != std::this_thread::get_id());  // a driver thread
  g_slow = nullptr;
  cl.clReleaseEvent(gate);
  cl.clReleaseEvent(ka);
  cl.clReleaseEvent(wb);
  for (auto m : {s, d, other}) cl.clReleaseMemObject(m);
  cl.clReleaseCommandQueue(qa);
  cl.clReleaseCommandQueue(qb);
  cl.clReleaseContext(c);
}

// 5.11: an out-of-order queue may run commands without dependencies between
// them at once; a barrier (5.12) waits for all of them, and a wait list orders.
TEST("core.concurrency.5_11.out_of_order_queue_overlaps_independent_commands") {
  cl_context c = make_ctx();
  cl_command_queue q = make_queue(c, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
  auto src = pattern(512, 4);
  cl_mem s = buffer(c, 512, &src), d1 = buffer(c, 512), d2 = buffer(c, 512), d3 = buffer(c, 512);
  Copy c1(c, s, d1), c2(c, s, d2), c3(c, d1, d3);
  set_delay("kernel=300000");
  cl_event k1 = c1.run(q, 512);
  cl_event k2 = c2.run(q, 512);
  cl_event k3 = c3.run(q, 512, 1, &k1);  // reads what k1 wrote
  set_delay("");
  cl_event barrier, w;
  CHECK_OK(cl.clEnqueueBarrierWithWaitList(q, 0, nullptr, &barrier));
  uint8_t z[4] = {0, 0, 0, 0};
  CHECK_OK(cl.clEnqueueWriteBuffer(q, s, CL_FALSE, 0, 4, z, 0, nullptr, &w));
  CHECK_OK(cl.clFinish(q));
  CHECK(t_start(k2) < t_end(k1));  // overlap
  CHECK(t_start(k1) < t_end(k2));
  CHECK(t_start(k3) >= t_end(k1));
  cl_ulong last = std::max({t_end(k1), t_end(k2), t_end(k3)});
  CHECK(t_start(barrier) >= last);
  CHECK(t_start(w) >= t_end(barrier));
  std::vector<uint8_t> out(512);
  CHECK_OK(cl.clEnqueueReadBuffer(q, d3, CL_TRUE, 0, 512, out.data(), 0, nullptr, nullptr));
  CHECK(out == src);
  for (auto ev : {k1, k2, k3, barrier, w}) cl.clReleaseEvent(ev);
  for (auto m : {s, d1, d2, d3}) cl.clReleaseMemObject(m);
  cl.clReleaseCommandQueue(q);
  cl.clReleaseContext(c);
}

// 5.1: an in-order queue runs its commands one after another, in order.
TEST("core.concurrency.5_1.in_order_queue_stays_in_order") {
  cl_context c = make_ctx();
  cl_command_queue q = make_queue(c, CL_QUEUE_PROFILING_ENABLE);
  cl_mem b = buffer(c, 64);
  set_delay("transfer=40000");
  std::vector<cl_event> evs(4);
  uint8_t vals[4] = {1, 2, 3, 4};
  for (int i = 0; i < 4; i++) CHECK_OK(cl.clEnqueueFillBuffer(q, b, &vals[i], 1, 0, 64, 0, nullptr, &evs[size_t(i)]));
  set_delay("");
  CHECK_OK(cl.clFinish(q));
  for (size_t i = 1; i < evs.size(); i++) CHECK(t_start(evs[i]) >= t_end(evs[i - 1]));
  uint8_t out[64];
  CHECK_OK(cl.clEnqueueReadBuffer(q, b, CL_TRUE, 0, 64, out, 0, nullptr, nullptr));
  CHECK_EQ(out[0], 4);
  CHECK_EQ(out[63], 4);
  for (auto ev : evs) cl.clReleaseEvent(ev);
  cl.clReleaseMemObject(b);
  cl.clReleaseCommandQueue(q);
  cl.clReleaseContext(c);
}

// cl_khr_semaphore across queues: the wait (queue A) completes after the
// signal that a slowed command holds back on queue B.
TEST("khr_semaphore.concurrency.wait_on_one_queue_signal_on_another") {
  cl_context c = make_ctx();
  cl_command_queue qa = make_queue(c, CL_QUEUE_PROFILING_ENABLE);
  cl_command_queue qb = make_queue(c, CL_QUEUE_PROFILING_ENABLE);
  cl_semaphore_properties_khr props[] = {CL_SEMAPHORE_TYPE_KHR, CL_SEMAPHORE_TYPE_BINARY_KHR, 0};
  cl_int e;
  cl_semaphore_khr sem = cl.clCreateSemaphoreWithPropertiesKHR(c, props, &e);
  CHECK_OK(e);
  cl_event wa, fb, sb;
  CHECK_OK(cl.clEnqueueWaitSemaphoresKHR(qa, 1, &sem, nullptr, 0, nullptr, &wa));
  cl_mem b = buffer(c, 64);
  uint8_t pat = 9;
  set_delay("transfer=200000");
  CHECK_OK(cl.clEnqueueFillBuffer(qb, b, &pat, 1, 0, 64, 0, nullptr, &fb));
  set_delay("");
  CHECK_OK(cl.clEnqueueSignalSemaphoresKHR(qb, 1, &sem, nullptr, 0, nullptr, &sb));
  CHECK_OK(cl.clWaitForEvents(1, &wa));
  CHECK_EQ(event_status(sb), CL_COMPLETE);
  CHECK(t_end(wa) >= t_end(sb));
  CHECK(t_start(sb) >= t_end(fb));
  for (auto ev : {wa, fb, sb}) cl.clReleaseEvent(ev);
  cl.clReleaseMemObject(b);
  cl.clReleaseSemaphoreKHR(sem);
  cl.clReleaseCommandQueue(qa);
  cl.clReleaseCommandQueue(qb);
  cl.clReleaseContext(c);
}

namespace {
std::atomic<int> g_done_callbacks{0};
void CL_API_CALL count_complete(cl_event, cl_int st, void *) {
  if (st == CL_COMPLETE) g_done_callbacks++;
}
}  // namespace

// 5.2.1 / 5.11: releasing queues, events and the context does not cancel the
// commands in flight; they complete, their callbacks fire, then every object goes.
TEST("core.concurrency.teardown.release_everything_with_commands_in_flight") {
  cl_context c = make_ctx();
  cl_command_queue qa = make_queue(c), qb = make_queue(c, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  auto src = pattern(256, 2);
  cl_mem s = buffer(c, 256, &src), d = buffer(c, 256);
  std::vector<uint8_t> out(256, 0);
  {
    Copy copy(c, s, d);
    set_delay("kernel=200000,transfer=100000");
    cl_event ka = copy.run(qa, 256);
    cl_event rb, fb;
    CHECK_OK(cl.clEnqueueReadBuffer(qb, d, CL_FALSE, 0, 256, out.data(), 1, &ka, &rb));
    uint8_t pat = 1;
    CHECK_OK(cl.clEnqueueFillBuffer(qb, s, &pat, 1, 0, 1, 1, &rb, &fb));
    set_delay("");
    for (auto ev : {ka, rb, fb}) CHECK_OK(cl.clSetEventCallback(ev, CL_COMPLETE, count_complete, nullptr));
    for (auto ev : {ka, rb, fb}) cl.clReleaseEvent(ev);
  }
  cl.clReleaseMemObject(s);
  cl.clReleaseMemObject(d);
  cl.clReleaseCommandQueue(qa);
  cl.clReleaseCommandQueue(qb);
  cl.clReleaseContext(c);
  CHECK(rd.refdrv_live_objects("command_queue") > 0);  // kept by their commands
  CHECK_OK(rd.refdrv_wait_idle(10000));
  CHECK_EQ(g_done_callbacks.load(), 3);
  CHECK(out == src);
}

namespace {
// Set when the program's static objects are destroyed; a driver thread that
// runs a callback after that point reports it.
struct StaticWatch {
  std::atomic<bool> destroyed{false};
  ~StaticWatch() { destroyed = true; }
};
StaticWatch g_watch;
void CL_API_CALL slow_callback(cl_event, cl_int, void *) {
  usleep(300000);
  if (g_watch.destroyed) {
    fprintf(stderr, "a callback ran during static destruction\n");
    _exit(3);
  }
}
// A blocking call from a static destructor (after the driver has stopped):
// it must come back, not wait for commands that will not run.
struct FinishAtExit {
  cl_command_queue q = nullptr;
  ~FinishAtExit() {
    if (!q) return;
    cl_int rc = cl.clFinish(q);
    fprintf(stderr, "clFinish at exit: %d\n", rc);
  }
};
FinishAtExit g_finish_at_exit;

void busy_queues(bool exit_in_callback);
void CL_API_CALL exit_callback(cl_event, cl_int, void *) { exit(0); }
}  // namespace

CHILD("child.exit_with_queues_busy") { busy_queues(false); }
CHILD("child.exit_from_a_callback_with_queues_busy") { busy_queues(true); }

namespace {
void busy_queues(bool exit_in_callback) {
  cl_context c = make_ctx();
  cl_command_queue qa = make_queue(c), qb = make_queue(c), qc = make_queue(c, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  g_finish_at_exit.q = qa;  // before any command: the callback that exits reads it
  cl_mem s = buffer(c, 1 << 20), d = buffer(c, 1 << 20);
  Copy copy(c, s, d);
  set_delay("kernel=30000000");
  cl_event ka = copy.run(qa, 1 << 20);  // running for 30 s: longer than the parent waits
  cl_event kc = copy.run(qc, 1 << 20);
  set_delay("");
  cl_int e;
  cl_event never = cl.clCreateUserEvent(c, &e);
  cl_event blocked, quick;
  uint8_t pat = 1;
  CHECK_OK(cl.clEnqueueFillBuffer(qb, s, &pat, 1, 0, 16, 1, &never, &blocked));
  CHECK_OK(cl.clSetEventCallback(blocked, CL_COMPLETE, count_complete, nullptr));
  CHECK_OK(cl.clSetEventCallback(ka, CL_COMPLETE, count_complete, nullptr));
  CHECK_OK(cl.clEnqueueFillBuffer(qc, d, &pat, 1, 0, 16, 0, nullptr, &quick));
  CHECK_OK(cl.clSetEventCallback(quick, CL_COMPLETE, exit_in_callback ? exit_callback : slow_callback, nullptr));
  if (exit_in_callback) {
    for (;;) pause();  // the callback ends the process
  }
  while (event_status(ka) != CL_RUNNING) usleep(1000);
  usleep(50000);  // the slow callback is running
  exit(0);
}
}  // namespace

// A process that exits while its queues are busy (a command running, one
// waiting on a user event that is never set, a callback running) ends at once
// and cleanly: no crash, no hang, no callback during static destruction, and a
// blocking call made after the driver stopped comes back.
TEST("core.concurrency.teardown.exit_with_queues_busy") {
  for (const char *child : {"child.exit_with_queues_busy", "child.exit_from_a_callback_with_queues_busy"}) {
    auto r = run_child(child, {}, 20000);
    if (r.timed_out || r.signal || r.status != 0)
      test_fail(__FILE__, __LINE__,
                std::string(child) + ": status " + std::to_string(r.status) + ", signal " + std::to_string(r.signal) + (r.timed_out ? ", hung" : "") +
                    "\n" + r.output);
    CHECK(r.output.find("static destruction") == std::string::npos);
    CHECK(r.output.find("clFinish at exit: ") != std::string::npos);
  }
}
