// harness.cpp - see harness.h
#include "harness.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>

#include <map>

Api cl;
Ctl rd;
cl_platform_id g_plat = nullptr;
cl_device_id g_dev = nullptr;
bool g_direct = false;
void *g_driver_handle = nullptr;

static std::map<std::string, TestFn> &tests() {
  static std::map<std::string, TestFn> t;
  return t;
}
TestReg::TestReg(const char *name, TestFn fn) { tests()[name] = fn; }

static std::string g_current;
static std::string g_self;
void test_fail(const char *file, int line, const std::string &msg) {
  fprintf(stderr, "FAIL %s\n  %s:%d: %s\n", g_current.c_str(), file, line, msg.c_str());
  fflush(stderr);
  _Exit(1);
}
std::string cl_err(cl_int e) { return std::to_string(e); }

static void *sym(void *h, const char *name) {
  void *p = dlsym(h, name);
  if (!p) test_fail(__FILE__, __LINE__, std::string("missing symbol ") + name + ": " + dlerror());
  return p;
}

static void load(bool direct) {
  void *clh;
  if (direct) {
    clh = dlopen(REFDRV_PATH, RTLD_NOW | RTLD_LOCAL);
    if (!clh) test_fail(__FILE__, __LINE__, std::string("dlopen driver: ") + dlerror());
  } else {
    const char *lib = getenv("REFDRV_LOADER");
    clh = dlopen(lib && *lib ? lib : "libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!clh) test_fail(__FILE__, __LINE__, std::string("dlopen ICD loader: ") + dlerror());
  }
#define REFDRV_T_LOAD(ret, name, args) cl.name = reinterpret_cast<ret(CL_API_CALL *) args>(sym(clh, #name));
  REFDRV_TEST_CORE_FUNCS(REFDRV_T_LOAD)
#undef REFDRV_T_LOAD
  cl_uint n = 0;
  CHECK_OK(cl.clGetPlatformIDs(0, nullptr, &n));
  std::vector<cl_platform_id> ps(n);
  CHECK_OK(cl.clGetPlatformIDs(n, ps.data(), nullptr));
  for (auto p : ps) {
    char name[256] = {0};
    cl.clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, nullptr);
    if (!strcmp(name, "opencl-interop reference driver")) g_plat = p;
  }
  if (!g_plat) test_fail(__FILE__, __LINE__, "reference platform not listed");
  CHECK_OK(cl.clGetDeviceIDs(g_plat, CL_DEVICE_TYPE_ALL, 1, &g_dev, nullptr));
#define REFDRV_T_EXT(ret, name, args) cl.name = reinterpret_cast<ret(CL_API_CALL *) args>(cl.clGetExtensionFunctionAddressForPlatform(g_plat, #name));
  REFDRV_TEST_EXT_FUNCS(REFDRV_T_EXT)
#undef REFDRV_T_EXT
  // the control API lives in the same, already loaded, driver
  g_driver_handle = direct ? clh : dlopen(REFDRV_PATH, RTLD_NOW | RTLD_NOLOAD);
  if (!g_driver_handle) test_fail(__FILE__, __LINE__, "the ICD loader did not load the reference driver");
#define REFDRV_T_CTL(name) rd.name = reinterpret_cast<decltype(&::name)>(sym(g_driver_handle, #name));
  REFDRV_TEST_CONTROL_FUNCS(REFDRV_T_CTL)
#undef REFDRV_T_CTL
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s TEST | --list\n", argv[0]);
    return 2;
  }
  std::string name = argv[1];
  if (name == "--list") {
    for (auto &t : tests()) printf("%s\n", t.first.c_str());
    return 0;
  }
  auto it = tests().find(name);
  if (it == tests().end()) {
    fprintf(stderr, "unknown test %s\n", name.c_str());
    return 2;
  }
  g_current = name;
  g_self = argv[0];
  g_direct = name.rfind("direct.", 0) == 0;
  load(g_direct);
  it->second();
  // lifetimes: nothing may be left alive
  CHECK_OK(rd.refdrv_wait_idle(5000));
  const char *kinds[] = {"context", "command_queue", "mem", "event", "program", "kernel", "sampler", "semaphore", "resource"};
  std::string leaks;
  for (auto k : kinds) {
    int n = rd.refdrv_live_objects(k);
    if (n) leaks += std::string(" ") + k + "=" + std::to_string(n);
  }
  if (!leaks.empty()) test_fail(__FILE__, __LINE__, "objects left alive:" + leaks);
  printf("PASS %s\n", name.c_str());
  return 0;
}

// ---------------------------------------------------------------- helpers --
cl_context make_ctx(cl_context_properties key, void *dev, cl_int *err, bool user_sync) {
  cl_context_properties props[8];
  int i = 0;
  props[i++] = CL_CONTEXT_PLATFORM;
  props[i++] = (cl_context_properties)g_plat;
  if (key) {
    props[i++] = key;
    props[i++] = (cl_context_properties)dev;
  }
  if (user_sync) {
    props[i++] = CL_CONTEXT_INTEROP_USER_SYNC;
    props[i++] = CL_TRUE;
  }
  props[i] = 0;
  cl_int e = 0;
  cl_context c = cl.clCreateContext(props, 1, &g_dev, nullptr, nullptr, &e);
  if (err) {
    *err = e;
    return c;
  }
  CHECK_OK(e);
  CHECK(c);
  return c;
}

cl_command_queue make_queue(cl_context c, cl_command_queue_properties p) {
  cl_int e;
  cl_command_queue q = cl.clCreateCommandQueue(c, g_dev, p, &e);
  CHECK_OK(e);
  return q;
}

void *d3d9_device(int kind) {
  void *d = nullptr;
  CHECK_OK(rd.refdrv_d3d9_create_device(nullptr, kind, &d));
  return d;
}
void release_res(void *r) { CHECK_OK(rd.refdrv_release(r, nullptr)); }
uint32_t refcount(void *r) {
  uint32_t n = 0;
  CHECK_OK(rd.refdrv_refcount(r, &n));
  return n;
}

cl_mem image2d(cl_context c, cl_channel_order o, cl_channel_type t, size_t w, size_t h) {
  cl_image_format f{o, t};
  cl_image_desc d{};
  d.image_type = CL_MEM_OBJECT_IMAGE2D;
  d.image_width = w;
  d.image_height = h;
  cl_int e;
  cl_mem m = cl.clCreateImage(c, CL_MEM_READ_WRITE, &f, &d, nullptr, &e);
  CHECK_OK(e);
  return m;
}

std::vector<uint8_t> read_image(cl_command_queue q, cl_mem im, size_t w, size_t h, size_t elem, size_t d) {
  std::vector<uint8_t> v(w * h * d * elem);
  size_t o[3] = {0, 0, 0}, r[3] = {w, h, d};
  CHECK_OK(cl.clEnqueueReadImage(q, im, CL_TRUE, o, r, 0, 0, v.data(), 0, nullptr, nullptr));
  return v;
}

std::vector<uint8_t> read_res(void *res, uint32_t sub, uint32_t plane) {
  uint64_t w, h, d, bpp;
  CHECK_OK(rd.refdrv_resource_layout(res, sub, plane, &w, &h, &d, &bpp, nullptr, nullptr, nullptr));
  std::vector<uint8_t> v(w * h * d * bpp);
  CHECK_OK(rd.refdrv_resource_read(res, sub, plane, 1, v.data(), v.size()));
  return v;
}
void write_res(void *res, uint32_t sub, uint32_t plane, const std::vector<uint8_t> &bytes) {
  CHECK_OK(rd.refdrv_resource_write(res, sub, plane, 1, bytes.data(), bytes.size()));
}
std::vector<uint8_t> pattern(size_t n, uint8_t seed) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; i++) v[i] = uint8_t(seed + i * 7 + (i >> 8));
  return v;
}

cl_kernel builtin_kernel(cl_context c, const char *name, cl_program *prog_out) {
  cl_int e;
  cl_program p = cl.clCreateProgramWithBuiltInKernels(c, 1, &g_dev, name, &e);
  CHECK_OK(e);
  cl_kernel k = cl.clCreateKernel(p, name, &e);
  CHECK_OK(e);
  *prog_out = p;
  return k;
}

cl_command_type event_type(cl_event e) {
  cl_command_type t = 0;
  CHECK_OK(cl.clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof t, &t, nullptr));
  return t;
}
cl_int event_status(cl_event e) {
  cl_int s = 0;
  CHECK_OK(cl.clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, nullptr));
  return s;
}

void expect_use_fails(cl_command_queue q, cl_mem m, cl_int err) {
  cl_mem_object_type t;
  CHECK_OK(cl.clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof t, &t, nullptr));
  cl_context c;
  CHECK_OK(cl.clGetMemObjectInfo(m, CL_MEM_CONTEXT, sizeof c, &c, nullptr));
  uint8_t buf[64] = {0};
  cl_int e = 0;
  if (t == CL_MEM_OBJECT_BUFFER) {
    CHECK_EQ(cl.clEnqueueReadBuffer(q, m, CL_TRUE, 0, 4, buf, 0, nullptr, nullptr), err);
    CHECK_EQ(cl.clEnqueueWriteBuffer(q, m, CL_TRUE, 0, 4, buf, 0, nullptr, nullptr), err);
    uint32_t pat = 0;
    CHECK_EQ(cl.clEnqueueFillBuffer(q, m, &pat, 4, 0, 4, 0, nullptr, nullptr), err);
    CHECK(cl.clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ, 0, 4, 0, nullptr, nullptr, &e) == nullptr);
    CHECK_EQ(e, err);
    cl_mem other = cl.clCreateBuffer(c, CL_MEM_READ_WRITE, 64, nullptr, &e);
    CHECK_OK(e);
    CHECK_EQ(cl.clEnqueueCopyBuffer(q, m, other, 0, 0, 4, 0, nullptr, nullptr), err);
    CHECK_EQ(cl.clEnqueueCopyBuffer(q, other, m, 0, 0, 4, 0, nullptr, nullptr), err);
    cl_program p;
    cl_kernel k = builtin_kernel(c, "copy_buffer", &p);
    CHECK_OK(cl.clSetKernelArg(k, 0, sizeof(cl_mem), &m));
    CHECK_OK(cl.clSetKernelArg(k, 1, sizeof(cl_mem), &other));
    size_t g = 4;
    CHECK_EQ(cl.clEnqueueNDRangeKernel(q, k, 1, nullptr, &g, nullptr, 0, nullptr, nullptr), err);
    cl.clReleaseKernel(k);
    cl.clReleaseProgram(p);
    cl.clReleaseMemObject(other);
  } else {
    size_t o[3] = {0, 0, 0}, r[3] = {1, 1, 1}, rp = 0, sp = 0;
    CHECK_EQ(cl.clEnqueueReadImage(q, m, CL_TRUE, o, r, 0, 0, buf, 0, nullptr, nullptr), err);
    CHECK_EQ(cl.clEnqueueWriteImage(q, m, CL_TRUE, o, r, 0, 0, buf, 0, nullptr, nullptr), err);
    float color[4] = {0, 0, 0, 0};
    CHECK_EQ(cl.clEnqueueFillImage(q, m, color, o, r, 0, nullptr, nullptr), err);
    CHECK(cl.clEnqueueMapImage(q, m, CL_TRUE, CL_MAP_READ, o, r, &rp, &sp, 0, nullptr, nullptr, &e) == nullptr);
    CHECK_EQ(e, err);
    cl_image_format f;
    CHECK_OK(cl.clGetImageInfo(m, CL_IMAGE_FORMAT, sizeof f, &f, nullptr));
    cl_mem other = image2d(c, f.image_channel_order, f.image_channel_data_type, 4, 4);
    CHECK_EQ(cl.clEnqueueCopyImage(q, m, other, o, o, r, 0, nullptr, nullptr), err);
    CHECK_EQ(cl.clEnqueueCopyImage(q, other, m, o, o, r, 0, nullptr, nullptr), err);
    cl_mem buffer = cl.clCreateBuffer(c, CL_MEM_READ_WRITE, 64, nullptr, &e);
    CHECK_EQ(cl.clEnqueueCopyImageToBuffer(q, m, buffer, o, r, 0, 0, nullptr, nullptr), err);
    CHECK_EQ(cl.clEnqueueCopyBufferToImage(q, buffer, m, 0, o, r, 0, nullptr, nullptr), err);
    cl_program p;
    cl_kernel k = builtin_kernel(c, "copy_image", &p);
    CHECK_OK(cl.clSetKernelArg(k, 0, sizeof(cl_mem), &m));
    CHECK_OK(cl.clSetKernelArg(k, 1, sizeof(cl_mem), &other));
    size_t g[2] = {1, 1};
    CHECK_EQ(cl.clEnqueueNDRangeKernel(q, k, 2, nullptr, g, nullptr, 0, nullptr, nullptr), err);
    cl.clReleaseKernel(k);
    cl.clReleaseProgram(p);
    cl.clReleaseMemObject(other);
    cl.clReleaseMemObject(buffer);
  }
}
void *dlsym_driver(const char *name) { return dlsym(g_driver_handle, name); }

ChildResult run_child(const char *name, const std::vector<std::string> &env, int timeout_ms) {
  ChildResult r;
  int out[2];
  CHECK(pipe2(out, O_CLOEXEC) == 0);
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    dup2(out[1], 1);
    dup2(out[1], 2);
    for (auto &e : env) putenv(const_cast<char *>(e.c_str()));
    std::string self = "/proc/self/exe";
    execl(self.c_str(), g_self.c_str(), name, static_cast<char *>(nullptr));
    _exit(127);
  }
  close(out[1]);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  bool open = true;
  int wstatus = 0;
  for (;;) {
    if (open) {
      pollfd p{out[0], POLLIN, 0};
      poll(&p, 1, 20);
      if (p.revents) {
        char buf[4096];
        ssize_t n = read(out[0], buf, sizeof buf);
        if (n > 0) r.output.append(buf, size_t(n));
        else open = false;
      }
    } else {
      usleep(20000);
    }
    pid_t w = waitpid(pid, &wstatus, WNOHANG);
    if (w == pid) break;
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &wstatus, 0);
      r.timed_out = true;
      break;
    }
  }
  for (char buf[4096];;) {  // what is left in the pipe
    pollfd p{out[0], POLLIN, 0};
    if (poll(&p, 1, 0) <= 0) break;
    ssize_t n = read(out[0], buf, sizeof buf);
    if (n <= 0) break;
    r.output.append(buf, size_t(n));
  }
  close(out[0]);
  if (!r.timed_out) {
    if (WIFEXITED(wstatus)) r.status = WEXITSTATUS(wstatus);
    if (WIFSIGNALED(wstatus)) r.signal = WTERMSIG(wstatus);
  }
  return r;
}
