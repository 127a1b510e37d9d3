// harness.h - tiny test harness for the reference driver's ctest suite.
// Each TEST("name") is one ctest (see CMakeLists.txt). Tests reach the
// driver through the real ICD loader (ocl-icd, via OCL_ICD_VENDORS), except
// tests named "direct.*", which dlopen the driver by path. The control API
// is resolved from the same loaded .so. After every test the harness checks
// that no OpenCL object or simulated resource is left alive.
#pragma once
#include "cl_api.h"
#include "refdriver_control.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include <algorithm>
#include <string>

struct Api {
#define REFDRV_T_PTR(ret, name, args) ret(CL_API_CALL *name) args = nullptr;
  REFDRV_TEST_CORE_FUNCS(REFDRV_T_PTR)
  REFDRV_TEST_EXT_FUNCS(REFDRV_T_PTR)
#undef REFDRV_T_PTR
};
struct Ctl {
#define REFDRV_T_CTL(name) decltype(&::name) name = nullptr;
  REFDRV_TEST_CONTROL_FUNCS(REFDRV_T_CTL)
#undef REFDRV_T_CTL
};
extern Api cl;
extern Ctl rd;
extern cl_platform_id g_plat;
extern cl_device_id g_dev;
extern bool g_direct;
extern void *g_driver_handle;

[[noreturn]] void test_fail(const char *file, int line, const std::string &msg);
std::string cl_err(cl_int e);

#define CHECK(c)                                              \
  do {                                                        \
    if (!(c)) test_fail(__FILE__, __LINE__, "CHECK(" #c ")"); \
  } while (0)
#define CHECK_EQ(a, b)                                                                                                                  \
  do {                                                                                                                                  \
    long long va_ = (long long)(a), vb_ = (long long)(b);                                                                               \
    if (va_ != vb_) test_fail(__FILE__, __LINE__, std::string(#a " == " #b ": ") + std::to_string(va_) + " != " + std::to_string(vb_)); \
  } while (0)
#define CHECK_OK(e) CHECK_EQ((e), CL_SUCCESS)

typedef void (*TestFn)();
struct TestReg {
  TestReg(const char *name, TestFn fn);
};
#define REFDRV_CAT2(a, b) a##b
#define REFDRV_CAT(a, b) REFDRV_CAT2(a, b)
#define TEST(name)                                                                      \
  static void REFDRV_CAT(test_fn_, __LINE__)();                                         \
  static TestReg REFDRV_CAT(test_reg_, __LINE__)(name, REFDRV_CAT(test_fn_, __LINE__)); \
  static void REFDRV_CAT(test_fn_, __LINE__)()

// CHILD("name"): a routine that runs in a fresh process of this program
// (run_child), never as a ctest of its own; it ends the process itself.
#define CHILD(name) TEST(name)

struct ChildResult {
  int status = -1;         // exit status, or -1
  int signal = 0;          // the signal that ended it, or 0
  bool timed_out = false;  // killed after timeout_ms
  std::string output;      // stdout and stderr together
};
// Runs CHILD `name` in a fresh process (this program, the same loader
// environment plus `env`, "NAME=value" entries), killed after timeout_ms.
ChildResult run_child(const char *name, const std::vector<std::string> &env, int timeout_ms);

// ---- helpers shared by the test files ----
cl_context make_ctx(cl_context_properties key = 0, void *dev = nullptr, cl_int *err = nullptr, bool user_sync = false);
cl_command_queue make_queue(cl_context c, cl_command_queue_properties p = 0);
void *d3d9_device(int kind = REFDRV_D3D9);
void release_res(void *r);  // refdrv_release, checked
uint32_t refcount(void *r);
cl_mem image2d(cl_context c, cl_channel_order o, cl_channel_type t, size_t w, size_t h);
std::vector<uint8_t> read_image(cl_command_queue q, cl_mem im, size_t w, size_t h, size_t elem, size_t d = 1);
std::vector<uint8_t> read_res(void *res, uint32_t sub, uint32_t plane);  // packed
void write_res(void *res, uint32_t sub, uint32_t plane, const std::vector<uint8_t> &bytes);
std::vector<uint8_t> pattern(size_t n, uint8_t seed);
cl_kernel builtin_kernel(cl_context c, const char *name, cl_program *prog_out);
cl_command_type event_type(cl_event e);
cl_int event_status(cl_event e);
// run every core command that touches `m` and expect `err` from each
void expect_use_fails(cl_command_queue q, cl_mem m, cl_int err);
void *dlsym_driver(const char *name);
