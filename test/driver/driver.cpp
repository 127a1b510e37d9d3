// driver.cpp - the reference driver's state (driver.h): the platform and device,
// the object table and lifetimes, the command engine (a worker thread per
// command queue runs its commands; one callback thread runs event callbacks),
// image formats and the creation of buffers and images that the core entry
// points (core.cpp) and cl_khr_external_memory (external_memory.cpp) share.
#include "driver.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

#if defined(_WIN32)
#include <windows.h>
#else
#include <sys/mman.h>
#endif

namespace refdrv {

bool env_is(const char *name, const char *value) {
  const char *set = std::getenv(name);
  return set && std::strcmp(set, value) == 0;
}

_cl_platform_id g_platform;
_cl_device_id g_device;

Global &G() {
  // never destroyed: driver threads may outlive main()
  static Global *g = [] {
    auto *n = new Global();
    const char *spec = std::getenv("REFDRV_COMMAND_DELAY_US");
    if (spec && !parse_command_delays(spec, &n->delays))
      fprintf(stderr,
              "opencl-interop reference driver: REFDRV_COMMAND_DELAY_US=%s is not a delay list (README, "
              "\"Command delays\"); no delay is set\n",
              spec);
    // REFDRV_LIVE_AT_EXIT=1: what is still alive when the process ends, on stderr (what a script left to the process's end).
    if (env_is("REFDRV_LIVE_AT_EXIT", "1")) std::atexit(report_live_at_exit);
    return n;
  }();
  return *g;
}

static thread_local std::vector<std::function<void()>> *t_deferred = nullptr;
static thread_local int t_lock_depth = 0;

ApiLock::ApiLock() : lk(G().mu) { t_lock_depth++; }
ApiLock::~ApiLock() {
  if (lk.owns_lock()) lk.unlock();
  t_lock_depth--;
  if (t_lock_depth == 0) run_deferred();
}
void defer_call(std::function<void()> fn) {
  if (!t_deferred) t_deferred = new std::vector<std::function<void()>>();
  t_deferred->push_back(std::move(fn));
}
void run_deferred() {
  while (t_deferred && !t_deferred->empty()) {
    auto v = std::move(*t_deferred);
    t_deferred->clear();
    for (auto &f : v) f();
  }
}

bool is_live(const void *p, Kind k) {
  auto it = G().live.find(p);
  return it != G().live.end() && it->second == k;
}

uint64_t now_ns() {
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
}

cl_int put_bytes(size_t sz, void *val, size_t *ret, const void *src, size_t n) {
  if (val) {
    if (sz < n) return CL_INVALID_VALUE;
    if (n) memcpy(val, src, n);
  }
  if (ret) *ret = n;
  return CL_SUCCESS;
}
cl_int put_str(size_t sz, void *val, size_t *ret, const std::string &s) { return put_bytes(sz, val, ret, s.c_str(), s.size() + 1); }

// ------------------------------------------------------------ lifetimes --
static void destroy(RefObj *o);
void close_queue_exec(QueueExec *x);
void forget_map_records(cl_mem m);  // core.cpp

void retain_obj(RefObj *o) { o->refs++; }
void release_obj(RefObj *o) {
  if (!o) return;
  if (--o->refs == 0) {
    G().live.erase(o);
    G().counts[int(o->kind)]--;
    destroy(o);
  }
}

// NVIDIA's driver (580) never returns from destroying imported external
// memory that is still acquired (issue 22: a process that ends with memory
// acquired never exits). The reference driver does the same, so that CI sees
// what a GPU would; REFDRV_ACQUIRED_DESTROY=return makes it return instead.
static void block_like_nvidia_if_acquired(cl_mem m) {
  if (m->ext != Ext::KhrExternalMemory || !m->acquired) return;
  if (env_is("REFDRV_ACQUIRED_DESTROY", "return")) return;
  std::fprintf(stderr,
               "opencl-interop reference driver: imported external memory destroyed while still acquired: "
               "blocking for ever, as NVIDIA's driver does (REFDRV_ACQUIRED_DESTROY=return returns)\n");
  for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
}

static void destroy(RefObj *o) {
  switch (o->kind) {
    case Kind::Context: {
      auto *c = static_cast<cl_context>(o);
      hooks().release_context(c);
      delete c;
      break;
    }
    case Kind::Queue: {
      auto *q = static_cast<cl_command_queue>(o);
      if (q->last) release_obj(q->last);
      if (q->barrier) release_obj(q->barrier);
      close_queue_exec(q->exec.get());
      cl_context c = q->ctx;
      delete q;
      release_obj(c);
      break;
    }
    case Kind::Mem: {
      auto *m = static_cast<cl_mem>(o);
      for (auto it = m->dtors.rbegin(); it != m->dtors.rend(); ++it) {
        auto cb = *it;
        defer_call([cb, m] { cb.fn(m, cb.data); });
      }
      block_like_nvidia_if_acquired(m);
      forget_map_records(m);
      hooks().release_mem(m);
      cl_mem parent = m->parent;
      cl_context c = m->ctx;
      delete m;
      if (parent) release_obj(parent);
      release_obj(c);
      break;
    }
    case Kind::Event: {
      auto *e = static_cast<cl_event>(o);
      cl_command_queue q = e->queue;
      cl_context c = e->ctx;
      delete e;
      if (q) release_obj(q);
      release_obj(c);
      break;
    }
    case Kind::Program: {
      auto *p = static_cast<cl_program>(o);
      cl_context c = p->ctx;
      delete p;
      release_obj(c);
      break;
    }
    case Kind::Kernel: {
      auto *k = static_cast<cl_kernel>(o);
      cl_program p = k->program;
      p->kernels_alive--;
      delete k;
      release_obj(p);
      break;
    }
    case Kind::Sampler: {
      auto *s = static_cast<cl_sampler>(o);
      cl_context c = s->ctx;
      delete s;
      release_obj(c);
      break;
    }
    case Kind::Semaphore: hooks().destroy_semaphore(o); break;
    default: break;
  }
}

// ------------------------------------------------------- command delays --
namespace {
const cl_command_type kKernelTypes[] = {CL_COMMAND_NDRANGE_KERNEL, CL_COMMAND_TASK, CL_COMMAND_NATIVE_KERNEL};
const cl_command_type kTransferTypes[] = {
    CL_COMMAND_READ_BUFFER,       CL_COMMAND_WRITE_BUFFER,     CL_COMMAND_COPY_BUFFER,          CL_COMMAND_READ_IMAGE,
    CL_COMMAND_WRITE_IMAGE,       CL_COMMAND_COPY_IMAGE,       CL_COMMAND_COPY_IMAGE_TO_BUFFER, CL_COMMAND_COPY_BUFFER_TO_IMAGE,
    CL_COMMAND_MAP_BUFFER,        CL_COMMAND_MAP_IMAGE,        CL_COMMAND_UNMAP_MEM_OBJECT,     CL_COMMAND_READ_BUFFER_RECT,
    CL_COMMAND_WRITE_BUFFER_RECT, CL_COMMAND_COPY_BUFFER_RECT, CL_COMMAND_MIGRATE_MEM_OBJECTS,  CL_COMMAND_FILL_BUFFER,
    CL_COMMAND_FILL_IMAGE};
const cl_command_type kAcquireTypes[] = {CL_COMMAND_ACQUIRE_D3D9_OBJECTS_NV,
                                         CL_COMMAND_RELEASE_D3D9_OBJECTS_NV,  // == the Intel DX9 ones
                                         CL_COMMAND_ACQUIRE_D3D10_OBJECTS_KHR,
                                         CL_COMMAND_RELEASE_D3D10_OBJECTS_KHR,
                                         CL_COMMAND_ACQUIRE_D3D11_OBJECTS_KHR,
                                         CL_COMMAND_RELEASE_D3D11_OBJECTS_KHR,  // == the NV D3D11 ones
                                         CL_COMMAND_ACQUIRE_DX9_MEDIA_SURFACES_KHR,
                                         CL_COMMAND_RELEASE_DX9_MEDIA_SURFACES_KHR,
                                         CL_COMMAND_ACQUIRE_VA_API_MEDIA_SURFACES_INTEL,
                                         CL_COMMAND_RELEASE_VA_API_MEDIA_SURFACES_INTEL,
                                         CL_COMMAND_ACQUIRE_EXTERNAL_MEM_OBJECTS_KHR,
                                         CL_COMMAND_RELEASE_EXTERNAL_MEM_OBJECTS_KHR};
const cl_command_type kSyncTypes[] = {CL_COMMAND_MARKER, CL_COMMAND_BARRIER, CL_COMMAND_SEMAPHORE_WAIT_KHR, CL_COMMAND_SEMAPHORE_SIGNAL_KHR};
const uint32_t kMaxDelayUs = 60000000;

bool parse_number(const std::string &t, uint64_t max, uint64_t *out) {
  if (t.empty() || t.size() > 20) return false;
  bool hex = t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
  size_t i = hex ? 2 : 0;
  uint64_t v = 0;
  for (; i < t.size(); i++) {
    char c = t[i];
    int d = c >= '0' && c <= '9' ? c - '0' : hex && c >= 'a' && c <= 'f' ? c - 'a' + 10 : hex && c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (d < 0) return false;
    v = v * (hex ? 16 : 10) + uint64_t(d);
    if (v > max) return false;
  }
  *out = v;
  return true;
}
}  // namespace

bool parse_command_delays(const char *spec, std::vector<std::pair<cl_command_type, uint32_t>> *out) {
  std::vector<std::pair<cl_command_type, uint32_t>> v;
  std::string s = spec ? spec : "";
  auto set = [&](cl_command_type type, uint32_t us) {
    for (auto &e : v)
      if (e.first == type) {
        e.second = us;
        return;
      }
    v.push_back({type, us});
  };
  size_t pos = 0;
  while (pos < s.size()) {
    size_t end = s.find(',', pos);
    if (end == std::string::npos) end = s.size();
    std::string item = s.substr(pos, end - pos);
    pos = end + 1;
    // items may be padded with spaces
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    size_t eq = item.find('=');
    std::string key = eq == std::string::npos ? "all" : item.substr(0, eq);
    std::string val = eq == std::string::npos ? item : item.substr(eq + 1);
    key.erase(key.find_last_not_of(' ') + 1);
    val.erase(0, val.find_first_not_of(' '));
    uint64_t us = 0;
    if (!parse_number(val, kMaxDelayUs, &us)) return false;
    auto set_all = [&](const cl_command_type *types, size_t n) {
      for (size_t i = 0; i < n; i++) set(types[i], uint32_t(us));
    };
    if (key == "all") set(0, uint32_t(us));
    else if (key == "kernel") set_all(kKernelTypes, std::size(kKernelTypes));
    else if (key == "transfer") set_all(kTransferTypes, std::size(kTransferTypes));
    else if (key == "acquire") set_all(kAcquireTypes, std::size(kAcquireTypes));
    else if (key == "sync") set_all(kSyncTypes, std::size(kSyncTypes));
    else {
      uint64_t type = 0;
      if (!parse_number(key, 0xFFFFFFFFu, &type) || type == 0) return false;
      set(cl_command_type(type), uint32_t(us));
    }
    if (end == s.size()) break;
    if (pos >= s.size()) return false;  // a trailing comma
  }
  *out = std::move(v);
  return true;
}

uint32_t command_delay_us(cl_command_type type) {
  uint32_t fallback = 0;
  for (auto &e : G().delays) {
    if (e.first == type) return e.second;
    if (e.first == 0) fallback = e.second;
  }
  return fallback;
}

// --------------------------------------------------------------- engine --
// Each command queue runs its commands on its own worker thread (an in-order
// queue one, in order; an out-of-order queue up to kOutOfOrderWorkers, so that
// commands without dependencies between them run at once), as a GPU runs its
// queues. Event and context callbacks run, in the order their statuses were
// reached, on one callback thread, so a slow command delays no callback. Every
// thread works under G().mu and releases it while a command's work, its delay or
// a callback runs. At process exit (exit_hook) the threads stop: no command or
// callback starts any more, and exit waits (up to 5 s) for those running.
struct QueueExec {
  bool in_order = true;
  std::deque<Global::Command *> pending;
  unsigned threads = 0;  // worker threads of this queue
  unsigned running = 0;  // of those, running a command
  bool closed = false;   // the queue is destroyed: its threads end
};

namespace {
const unsigned kOutOfOrderWorkers = 8;
thread_local bool t_busy = false;  // this driver thread runs work or a callback

void queue_main(std::shared_ptr<QueueExec> x);
void callback_main();

// Stop, for good: at exit the threads wait here (the mutex and condition
// variable are never destroyed) until the process ends.
[[noreturn]] void park(std::unique_lock<std::mutex> &lk) {
  for (;;) G().cv.wait(lk);
}

void busy_begin() {
  G().busy++;
  t_busy = true;
}
void busy_end() {
  G().busy--;
  t_busy = false;
  G().cv.notify_all();
}

#if !defined(_WIN32)
// At exit: start nothing more, and let what is running (work, callbacks) end, so
// that no driver thread runs user code or the driver's work while static objects
// are destroyed. A callback that calls exit() is not waited for by itself.
// (Windows ends the other threads before DLL detach: there is nothing to wait for.)
void exit_hook() {
  auto &g = G();
  g.exiting = true;
  // A thread may hold the lock for ever (REFDRV_ACQUIRED_DESTROY blocks as NVIDIA
  // does): then exit goes on without waiting.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  std::unique_lock<std::mutex> lk(g.mu, std::defer_lock);
  while (!lk.try_lock()) {
    if (std::chrono::steady_clock::now() > deadline) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  g.cv.notify_all();
  size_t self = t_busy ? 1 : 0;
  g.cv.wait_until(lk, deadline, [&] { return g.busy <= self; });
}
#endif

void ensure_exit_hook() {
#if !defined(_WIN32)
  // Registered with the first driver thread, after the statics of the
  // application that loaded the driver, so it runs before their destructors.
  if (!G().exit_hook) {
    G().exit_hook = true;
    std::atexit(exit_hook);
  }
#endif
}

bool start_thread(std::function<void()> fn) {
  try {
    std::thread(std::move(fn)).detach();
    return true;
  } catch (const std::exception &) {
    fprintf(stderr, "opencl-interop reference driver: cannot start a thread\n");
    return false;
  }
}

void ensure_callback_thread() {
  auto &g = G();
  if (g.callback_thread) return;
  ensure_exit_hook();
  g.callback_thread = start_thread(callback_main);
}

// Enough workers for the queue's pending commands (one for an in-order queue).
void ensure_queue_workers(const std::shared_ptr<QueueExec> &x) {
  ensure_exit_hook();
  unsigned cap = x->in_order ? 1 : kOutOfOrderWorkers;
  while (x->threads < cap && x->threads - x->running < x->pending.size()) {
    if (!start_thread([x] { queue_main(x); })) break;
    x->threads++;
  }
}

void poll_watchers() {
  auto &w = G().watchers;
  for (size_t i = 0; i < w.size();) {
    if (w[i]()) w.erase(w.begin() + long(i));
    else i++;
  }
}
}  // namespace

void set_status(cl_event ev, cl_int st) {
  ev->status = st;
  for (auto &cb : ev->callbacks) {
    if (cb.fired) continue;
    if (st < 0 || st <= cb.status) {
      cb.fired = true;
      cl_int arg = st < 0 ? st : cb.status;
      auto fn = cb.fn;
      void *data = cb.data;
      retain_obj(ev);
      ensure_callback_thread();
      G().tasks.push_back([fn, ev, arg, data] {
        fn(ev, arg, data);
        std::lock_guard<std::mutex> g(G().mu);
        release_obj(ev);
      });
    }
  }
  G().cv.notify_all();
}

void context_notify(cl_context ctx, const std::string &msg) {
  if (!ctx || !ctx->notify) return;
  ensure_callback_thread();
  retain_obj(ctx);
  auto fn = ctx->notify;
  void *data = ctx->notify_data;
  G().tasks.push_back([fn, data, msg, ctx] {
    fn(msg.c_str(), nullptr, 0, data);
    std::lock_guard<std::mutex> g(G().mu);
    release_obj(ctx);
  });
  G().cv.notify_all();
}

static void finish_command(Global::Command *cmd, cl_int st) {
  cl_event ev = cmd->ev;
  ev->t_end = now_ns();
  if (!ev->t_start) ev->t_start = ev->t_end;
  set_status(ev, st);
  if (st < 0) context_notify(ev->ctx, "opencl-interop reference driver: command failed with " + hooks().error_name(st, Ext::None));
  // An acquire that failed (a failed event in its wait list) acquired nothing, as on a GPU.
  for (auto m : cmd->mems) {
    if (m->acquired_by != ev) continue;
    m->acquired_by = nullptr;
    if (st < 0) m->acquired = false;
  }
  cl_command_queue q = cmd->queue;
  auto &out = q->outstanding;
  out.erase(std::remove(out.begin(), out.end(), ev), out.end());
  if (q->last == ev) {
    q->last = nullptr;
    release_obj(ev);
  }
  if (q->barrier == ev) {
    q->barrier = nullptr;
    release_obj(ev);
  }
  for (auto d : cmd->deps) release_obj(d);
  for (auto m : cmd->mems) release_obj(m);
  for (auto h : cmd->holds) release_obj(h);
  delete cmd;
  G().commands--;
  release_obj(ev);  // the command's reference (the last one may destroy the queue)
  G().cv.notify_all();
}

namespace {
// Runs one command whose wait list is done (lock held; released meanwhile).
// What happens to a command behind a failed event is the implementation's
// choice: this driver fails it, as PoCL does; NVIDIA's (580) ran such a marker
// to completion. REFDRV_FAILED_WAIT=run makes this driver run it too (as if the event had completed).
bool runs_behind_failed_events() {
  static const bool runs = env_is("REFDRV_FAILED_WAIT", "run");
  return runs;
}

void run_command(std::unique_lock<std::mutex> &lk, Global::Command *cmd, bool dep_failed) {
  auto &g = G();
  if (dep_failed && !runs_behind_failed_events()) {
    finish_command(cmd, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  } else {
    cl_event ev = cmd->ev;
    ev->t_start = now_ns();
    set_status(ev, CL_RUNNING);
    if (cmd->delay_us) {
      auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(cmd->delay_us);
      g.cv.wait_until(lk, until, [&] { return g.exiting.load(); });
      if (g.exiting) park(lk);
    }
    cl_int rc = CL_SUCCESS;
    if (cmd->work) {
      busy_begin();
      lk.unlock();
      rc = cmd->work();
      lk.lock();
      busy_end();
    }
    finish_command(cmd, rc == CL_SUCCESS ? CL_COMPLETE : rc);
  }
  // memory-object destructor callbacks of objects the command released
  busy_begin();
  lk.unlock();
  run_deferred();
  lk.lock();
  busy_end();
}

void queue_main(std::shared_ptr<QueueExec> x) {
  auto &g = G();
  std::unique_lock<std::mutex> lk(g.mu);
  t_lock_depth = 1;
  for (;;) {
    if (g.exiting) park(lk);
    // a sync_fd export takes a signal before any semaphore wait command does
    poll_watchers();
    Global::Command *cmd = nullptr;
    bool dep_failed = false, polling = false;
    for (auto it = x->pending.begin(); it != x->pending.end(); ++it) {
      bool ok = true, failed = false;
      for (auto d : (*it)->deps) {
        if (d->status > 0) {
          ok = false;
          break;
        }
        if (d->status < 0) failed = true;
      }
      // a command with a readiness condition (semaphore wait) also waits for it; a failed
      // dependency fails it without consuming anything
      if (ok && !failed && (*it)->ready) {
        polling = true;
        if (!(*it)->ready()) ok = false;
      }
      if (ok) {
        cmd = *it;
        dep_failed = failed;
        x->pending.erase(it);
        break;
      }
      if (x->in_order) break;  // the rest wait for this one
    }
    if (!cmd) {
      if (x->closed && x->pending.empty()) {
        x->threads--;
        return;
      }
      // conditions outside this process (a shared semaphore, a sync fd) are polled
      if (polling) g.cv.wait_for(lk, std::chrono::milliseconds(1));
      else g.cv.wait(lk);
      continue;
    }
    x->running++;
    ensure_queue_workers(x);  // another worker for the commands still pending
    run_command(lk, cmd, dep_failed);
    x->running--;
  }
}

void callback_main() {
  auto &g = G();
  std::unique_lock<std::mutex> lk(g.mu);
  t_lock_depth = 1;
  for (;;) {
    if (g.exiting) park(lk);
    if (!g.tasks.empty()) {
      auto fn = std::move(g.tasks.front());
      g.tasks.pop_front();
      busy_begin();
      lk.unlock();
      fn();
      run_deferred();
      lk.lock();
      busy_end();
      continue;
    }
    poll_watchers();
    if (g.watchers.empty()) g.cv.wait(lk);
    else g.cv.wait_for(lk, std::chrono::milliseconds(1));
  }
}
}  // namespace

std::shared_ptr<QueueExec> new_queue_exec(bool in_order) {
  auto x = std::make_shared<QueueExec>();
  x->in_order = in_order;
  return x;
}

void close_queue_exec(QueueExec *x) {
  x->closed = true;
  G().cv.notify_all();
}

bool engine_idle() { return G().commands == 0 && G().busy == 0 && G().tasks.empty(); }

cl_event enqueue(cl_command_queue q, cl_command_type type, cl_uint nwait, const cl_event *wait, std::vector<cl_mem> mems,
                 std::function<cl_int()> work, cl_event *event_out, bool barrier, std::function<bool()> ready, std::vector<RefObj *> holds) {
  auto &g = G();
  auto *ev = track(new _cl_event(), Kind::Event);
  ev->ctx = q->ctx;
  retain_obj(q->ctx);
  ev->queue = q;
  retain_obj(q);
  ev->type = type;
  ev->status = CL_QUEUED;
  ev->t_queued = now_ns();
  auto *cmd = new Global::Command();
  cmd->queue = q;
  cmd->ev = ev;
  auto add_dep = [&](cl_event d) {
    if (!d || d == ev) return;
    retain_obj(d);
    cmd->deps.push_back(d);
  };
  for (cl_uint i = 0; i < nwait; i++) add_dep(wait[i]);
  bool in_order = !(q->props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  bool all_prev = barrier || type == CL_COMMAND_MARKER || type == CL_COMMAND_BARRIER;
  if (in_order) {
    if (q->last) add_dep(q->last);
  } else {
    if (q->barrier) add_dep(q->barrier);
    if (all_prev && nwait == 0)
      for (auto o : q->outstanding) add_dep(o);
  }
  if (in_order) {
    if (q->last) release_obj(q->last);
    q->last = ev;
    retain_obj(ev);
  } else if (barrier) {
    if (q->barrier) release_obj(q->barrier);
    q->barrier = ev;
    retain_obj(ev);
  }
  for (auto m : mems) retain_obj(m);
  cmd->mems = std::move(mems);
  cmd->work = std::move(work);
  for (auto h : holds) retain_obj(h);
  cmd->holds = std::move(holds);
  cmd->ready = std::move(ready);
  cmd->delay_us = command_delay_us(type);
  q->outstanding.push_back(ev);
  ev->t_submit = now_ns();
  ev->status = CL_SUBMITTED;
  if (event_out) {
    retain_obj(ev);
    *event_out = ev;
  }
  g.commands++;
  q->exec->pending.push_back(cmd);
  ensure_queue_workers(q->exec);
  g.cv.notify_all();
  return ev;
}

void wake_worker() {
  ensure_callback_thread();  // it polls the watchers
  G().cv.notify_all();
}

cl_int wait_list_failed(cl_uint n, const cl_event *list) {
  for (cl_uint i = 0; i < n; i++)
    if (list[i]->status < 0) return CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  return CL_SUCCESS;
}

bool wait_for(std::unique_lock<std::mutex> &lk, cl_event ev) {
  while (ev->status > 0) {
    if (G().exiting) return false;
    G().cv.wait(lk);
  }
  return true;
}

cl_int check_wait_list(cl_context ctx, cl_uint n, const cl_event *list) {
  if ((n == 0) != (list == nullptr)) return CL_INVALID_EVENT_WAIT_LIST;
  for (cl_uint i = 0; i < n; i++) {
    if (!valid_event(list[i])) return CL_INVALID_EVENT_WAIT_LIST;
    if (ctx && list[i]->ctx != ctx) return CL_INVALID_CONTEXT;
  }
  return CL_SUCCESS;
}

// -------------------------------------------------------- image formats --
size_t channel_count(cl_channel_order o) {
  switch (o) {
    case CL_R:
    case CL_A:
    case CL_INTENSITY:
    case CL_LUMINANCE: return 1;
    case CL_RG:
    case CL_RA: return 2;
    case CL_RGB: return 3;
    case CL_RGBA:
    case CL_BGRA:
    case CL_ARGB: return 4;
    default: return 0;
  }
}
size_t channel_size(cl_channel_type t) {
  switch (t) {
    case CL_SNORM_INT8:
    case CL_UNORM_INT8:
    case CL_SIGNED_INT8:
    case CL_UNSIGNED_INT8: return 1;
    case CL_SNORM_INT16:
    case CL_UNORM_INT16:
    case CL_SIGNED_INT16:
    case CL_UNSIGNED_INT16:
    case CL_HALF_FLOAT: return 2;
    case CL_SIGNED_INT32:
    case CL_UNSIGNED_INT32:
    case CL_FLOAT: return 4;
    default: return 0;
  }
}
size_t pixel_size(const cl_image_format &f) { return channel_count(f.image_channel_order) * channel_size(f.image_channel_data_type); }

static const cl_channel_type kAllTypes[] = {CL_SNORM_INT8,   CL_SNORM_INT16,   CL_UNORM_INT8,     CL_UNORM_INT16,    CL_SIGNED_INT8, CL_SIGNED_INT16,
                                            CL_SIGNED_INT32, CL_UNSIGNED_INT8, CL_UNSIGNED_INT16, CL_UNSIGNED_INT32, CL_HALF_FLOAT,  CL_FLOAT};
std::vector<cl_image_format> supported_formats() {
  std::vector<cl_image_format> v;
  for (cl_channel_order o : {CL_R, CL_A, CL_RG, CL_RGBA})
    for (auto t : kAllTypes) v.push_back({o, t});
  for (cl_channel_type t : {CL_UNORM_INT8, CL_SNORM_INT8, CL_SIGNED_INT8, CL_UNSIGNED_INT8}) v.push_back({CL_BGRA, t});
  return v;
}
bool format_supported(const cl_image_format &f) {
  for (auto &s : supported_formats())
    if (s.image_channel_order == f.image_channel_order && s.image_channel_data_type == f.image_channel_data_type) return true;
  return false;
}
bool image_format_valid(const cl_image_format &f) {
  if (!channel_count(f.image_channel_order)) return false;
  cl_channel_type t = f.image_channel_data_type;
  bool packed = t == CL_UNORM_SHORT_565 || t == CL_UNORM_SHORT_555 || t == CL_UNORM_INT_101010;
  if (!packed && !channel_size(t)) return false;
  if (f.image_channel_order == CL_RGB) return packed;
  if (packed) return false;
  if (f.image_channel_order == CL_BGRA || f.image_channel_order == CL_ARGB)
    return t == CL_UNORM_INT8 || t == CL_SNORM_INT8 || t == CL_SIGNED_INT8 || t == CL_UNSIGNED_INT8;
  if (f.image_channel_order == CL_INTENSITY || f.image_channel_order == CL_LUMINANCE)
    return t == CL_UNORM_INT8 || t == CL_UNORM_INT16 || t == CL_SNORM_INT8 || t == CL_SNORM_INT16 || t == CL_HALF_FLOAT || t == CL_FLOAT;
  return true;
}

cl_mem new_mem(cl_context ctx, cl_mem_flags flags, cl_mem_object_type type) {
  auto *m = track(new _cl_mem(), Kind::Mem);
  m->ctx = ctx;
  retain_obj(ctx);
  m->flags = flags;
  m->type = type;
  return m;
}

// ------------------------------------------------------- memory objects --
bool mem_flags_valid(cl_mem_flags f) {
  const cl_mem_flags known = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR |
                             CL_MEM_COPY_HOST_PTR | CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
  if (f & ~known) return false;
  auto bits = [](cl_mem_flags v) {
    int n = 0;
    for (; v; v &= v - 1) n++;
    return n;
  };
  if (bits(f & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)) > 1) return false;
  if (bits(f & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)) > 1) return false;
  if ((f & CL_MEM_USE_HOST_PTR) && (f & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR))) return false;
  return true;
}

// CL_DEVICE_MAX_MEM_ALLOC_SIZE: 256 MiB, or REFDRV_MAX_ALLOC bytes. A GPU
// driver makes buffers far larger than a JavaScript ArrayBuffer can hold
// (NVIDIA's on an H200: over 4 GiB, untouched until used; issue 22's crash
// mapped one); so does this driver when told, reserving such a buffer's pages
// lazily, so that CI can too without the memory.
size_t max_alloc_bytes() {
  static const size_t bytes = [] {
    const char *text = std::getenv("REFDRV_MAX_ALLOC");
    if (!text || !*text) return size_t(256) << 20;
    char *end = nullptr;
    unsigned long long value = std::strtoull(text, &end, 10);
    if (*end || value < (256ull << 20)) {
      std::fprintf(stderr, "opencl-interop reference driver: REFDRV_MAX_ALLOC=%s is not a byte count of at least 268435456; ignored\n", text);
      return size_t(256) << 20;
    }
    return size_t(value);
  }();
  return bytes;
}

cl_mem create_buffer_locked(cl_context c, cl_mem_flags flags, size_t size, void *host_ptr, cl_int *errcode_ret) {
  if (!valid_ctx(c)) RET_ERR(CL_INVALID_CONTEXT);
  if (!mem_flags_valid(flags)) RET_ERR(CL_INVALID_VALUE);
  if (size == 0 || size > max_alloc_bytes()) RET_ERR(CL_INVALID_BUFFER_SIZE);
  bool needs = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  if (needs != (host_ptr != nullptr)) RET_ERR(CL_INVALID_HOST_PTR);
  if (!(flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY))) flags |= CL_MEM_READ_WRITE;
  cl_mem m = new_mem(c, flags, CL_MEM_OBJECT_BUFFER);
  m->size = size;
  if (flags & CL_MEM_USE_HOST_PTR) {
    m->data = static_cast<uint8_t *>(host_ptr);
    m->host_ptr = host_ptr;
  } else if (size > (256ull << 20)) {
#if defined(_WIN32)
    void *pages = VirtualAlloc(nullptr, size, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);  // zero pages on first touch
    if (!pages) {
      release_obj(m);
      RET_ERR(CL_MEM_OBJECT_ALLOCATION_FAILURE);
    }
    m->lazy_pages = std::shared_ptr<void>(pages, [](void *p) { VirtualFree(p, 0, MEM_RELEASE); });
#else
    void *pages = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (pages == MAP_FAILED) {
      release_obj(m);
      RET_ERR(CL_MEM_OBJECT_ALLOCATION_FAILURE);
    }
    m->lazy_pages = std::shared_ptr<void>(pages, [size](void *p) { munmap(p, size); });
#endif
    m->data = static_cast<uint8_t *>(pages);
    if (flags & CL_MEM_COPY_HOST_PTR) memcpy(m->data, host_ptr, size);
  } else {
    m->own.reset(new uint8_t[size]());
    m->data = m->own.get();
    if (flags & CL_MEM_COPY_HOST_PTR) memcpy(m->data, host_ptr, size);
  }
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return m;
}

bool image_extent(const cl_image_desc &desc, size_t &w, size_t &h, size_t &d, size_t &a) {
  w = desc.image_width;
  h = desc.image_height;
  d = desc.image_depth;
  a = desc.image_array_size;
  switch (desc.image_type) {
    case CL_MEM_OBJECT_IMAGE1D:
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
      h = 1;
      d = 1;
      a = 0;
      return true;
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
      h = 1;
      d = 1;
      return true;
    case CL_MEM_OBJECT_IMAGE2D:
      d = 1;
      a = 0;
      return true;
    case CL_MEM_OBJECT_IMAGE2D_ARRAY: d = 1; return true;
    case CL_MEM_OBJECT_IMAGE3D: a = 0; return true;
    default: return false;
  }
}

cl_mem new_image(cl_context c, cl_mem_flags flags, cl_mem_object_type t, const cl_image_format &fmt, size_t w, size_t h, size_t d, size_t a) {
  if (!(flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY))) flags |= CL_MEM_READ_WRITE;
  cl_mem m = new_mem(c, flags, t);
  m->fmt = fmt;
  m->elem = pixel_size(fmt);
  m->width = w;
  m->height = (t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D) ? h : 0;
  m->depth = t == CL_MEM_OBJECT_IMAGE3D ? d : 0;
  m->array_size = a;
  return m;
}

cl_mem create_image_locked(cl_context c, cl_mem_flags flags, const cl_image_format *fmt, const cl_image_desc *desc, void *host_ptr,
                           cl_int *errcode_ret) {
  if (!valid_ctx(c)) RET_ERR(CL_INVALID_CONTEXT);
  if (!mem_flags_valid(flags)) RET_ERR(CL_INVALID_VALUE);
  if (!fmt || !image_format_valid(*fmt)) RET_ERR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  if (!desc) RET_ERR(CL_INVALID_IMAGE_DESCRIPTOR);
  cl_mem_object_type t = desc->image_type;
  size_t w, h, d, a;
  if (!image_extent(*desc, w, h, d, a)) RET_ERR(CL_INVALID_IMAGE_DESCRIPTOR);
  if (desc->num_mip_levels || desc->num_samples) RET_ERR(CL_INVALID_IMAGE_DESCRIPTOR);
  if ((t == CL_MEM_OBJECT_IMAGE1D_BUFFER) != (desc->buffer != nullptr)) RET_ERR(CL_INVALID_IMAGE_DESCRIPTOR);
  size_t elem = pixel_size(*fmt);
  if (!elem) RET_ERR(CL_IMAGE_FORMAT_NOT_SUPPORTED);
  if (w == 0 || h == 0 || d == 0) RET_ERR(CL_INVALID_IMAGE_SIZE);
  size_t maxw = t == CL_MEM_OBJECT_IMAGE3D ? 2048 : (t == CL_MEM_OBJECT_IMAGE1D_BUFFER ? 65536 : 16384);
  if (w > maxw || h > 16384 || d > 2048) RET_ERR(CL_INVALID_IMAGE_SIZE);
  if ((t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY) && (a == 0 || a > 2048)) RET_ERR(CL_INVALID_IMAGE_SIZE);
  if (t == CL_MEM_OBJECT_IMAGE3D && (h > 2048)) RET_ERR(CL_INVALID_IMAGE_SIZE);
  bool needs = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  if (needs != (host_ptr != nullptr)) RET_ERR(CL_INVALID_HOST_PTR);
  size_t rows = (t == CL_MEM_OBJECT_IMAGE1D_ARRAY) ? 1 : h;
  size_t rp = desc->image_row_pitch, sp = desc->image_slice_pitch;
  if (!host_ptr && (rp || sp)) RET_ERR(CL_INVALID_IMAGE_DESCRIPTOR);
  if (rp == 0) rp = w * elem;
  if (rp < w * elem || rp % elem) RET_ERR(CL_INVALID_IMAGE_DESCRIPTOR);
  if (sp == 0) sp = rp * rows;
  if (sp < rp * rows || sp % rp) RET_ERR(CL_INVALID_IMAGE_DESCRIPTOR);
  if (!format_supported(*fmt)) RET_ERR(CL_IMAGE_FORMAT_NOT_SUPPORTED);
  cl_mem buf = desc->buffer;
  if (buf) {
    if (!valid_mem(buf) || buf->type != CL_MEM_OBJECT_BUFFER) RET_ERR(CL_INVALID_IMAGE_DESCRIPTOR);
    if (w * elem > buf->size) RET_ERR(CL_INVALID_IMAGE_SIZE);
  }
  cl_mem m = new_image(c, flags, t, *fmt, w, h, d, a);
  size_t layers = (t == CL_MEM_OBJECT_IMAGE3D) ? d : (a ? a : 1);
  if (buf) {
    m->parent = buf;
    retain_obj(buf);
    m->data = buf->data;
    m->row_pitch = w * elem;
    m->slice_pitch = m->row_pitch;
    m->size = w * elem;
  } else if (flags & CL_MEM_USE_HOST_PTR) {
    m->data = static_cast<uint8_t *>(host_ptr);
    m->host_ptr = host_ptr;
    m->row_pitch = rp;
    m->slice_pitch = (t == CL_MEM_OBJECT_IMAGE1D_ARRAY) ? sp : sp;
    m->size = sp * layers;
  } else {
    m->row_pitch = w * elem;
    m->slice_pitch = m->row_pitch * rows;
    m->size = m->slice_pitch * layers;
    m->own.reset(new uint8_t[m->size]());
    m->data = m->own.get();
    if (flags & CL_MEM_COPY_HOST_PTR) {
      const uint8_t *src = static_cast<const uint8_t *>(host_ptr);
      for (size_t z = 0; z < layers; z++)
        for (size_t y = 0; y < rows; y++) memcpy(m->data + z * m->slice_pitch + y * m->row_pitch, src + z * sp + y * rp, w * elem);
    }
  }
  // 1D arrays address layers through the row pitch
  if (t == CL_MEM_OBJECT_IMAGE1D_ARRAY) m->row_pitch = m->slice_pitch;
  if (errcode_ret) *errcode_ret = CL_SUCCESS;
  return m;
}

// ------------------------------------------------------- extension hooks --
ExtensionHooks &hooks() {
  static ExtensionHooks h;
  return h;
}

}  // namespace refdrv

// ---------------------------------------------------------------- platform --
// The ICD loader's entry point (cl_khr_icd); clGetPlatformIDs answers the same.
CLAPI(cl_int) clIcdGetPlatformIDsKHR(cl_uint n, cl_platform_id *p, cl_uint *num) {
  if ((n == 0 && p) || (!p && !num)) return CL_INVALID_VALUE;
  if (p) p[0] = &refdrv::g_platform;
  if (num) *num = 1;
  return CL_SUCCESS;
}

CLAPI(cl_int) clWaitForEvents(cl_uint n, const cl_event *list);  // core.cpp

namespace refdrv {
void wait_list_before_return(cl_uint nw, const cl_event *wl) {
  static const bool blocks = env_is("REFDRV_GATED_INTEROP", "block");
  if (blocks && nw && wl) (void)clWaitForEvents(nw, wl);  // the enqueue reports the wait list's state itself
}
}  // namespace refdrv
