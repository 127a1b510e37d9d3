// test_core.cpp - ICD and core OpenCL behaviour of the reference driver.
#include "harness.h"

TEST("icd.platform_info") {
  char buf[512];
  CHECK_OK(cl.clGetPlatformInfo(g_plat, CL_PLATFORM_NAME, sizeof buf, buf, nullptr));
  CHECK(!strcmp(buf, "opencl-interop reference driver"));
  CHECK_OK(cl.clGetPlatformInfo(g_plat, CL_PLATFORM_VENDOR, sizeof buf, buf, nullptr));
  CHECK(!strcmp(buf, "opencl-interop"));
  CHECK_OK(cl.clGetPlatformInfo(g_plat, CL_PLATFORM_VERSION, sizeof buf, buf, nullptr));
  CHECK(!strcmp(buf, "OpenCL 1.2 opencl-interop-ref"));
  CHECK_OK(cl.clGetPlatformInfo(g_plat, CL_PLATFORM_ICD_SUFFIX_KHR, sizeof buf, buf, nullptr));
  CHECK(!strcmp(buf, "REF"));
  CHECK_OK(cl.clGetPlatformInfo(g_plat, CL_PLATFORM_EXTENSIONS, sizeof buf, buf, nullptr));
  for (auto e : {"cl_khr_icd", "cl_nv_d3d9_sharing", "cl_khr_d3d10_sharing", "cl_intel_dx9_media_sharing",
                 "cl_khr_dx9_media_sharing", "cl_intel_va_api_media_sharing"})
    CHECK(strstr(buf, e));
  CHECK_OK(cl.clGetDeviceInfo(g_dev, CL_DEVICE_EXTENSIONS, sizeof buf, buf, nullptr));
  for (auto e : {"cl_khr_icd", "cl_nv_d3d9_sharing", "cl_khr_d3d10_sharing", "cl_intel_dx9_media_sharing",
                 "cl_khr_dx9_media_sharing", "cl_intel_va_api_media_sharing"})
    CHECK(strstr(buf, e));
}
