// check_khronos_headers.cpp - compile-time check of cl_decls.h against the
// Khronos OpenCL headers: every CL_* token value, and the offset of every
// ICD dispatch-table slot. Built only when the Khronos headers are installed.
#include <cstddef>
#include <cstdio>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

namespace ours {
#include "cl_decls.h"
#define X(n) constexpr long long v_##n = (long long)(n);
#include "refdrv_token_list.h"
#undef X
}  // namespace ours
#include "refdrv_token_undef.h"
#undef CL_API_CALL

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
typedef struct IDirect3DSurface9 IDirect3DSurface9;
typedef void *HANDLE;
typedef unsigned int UINT;
typedef unsigned int D3DFORMAT;
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <CL/cl_icd.h>
#include <CL/cl_d3d10.h>
#include <CL/cl_d3d11.h>
#include <CL/cl_dx9_media_sharing.h>
#include <CL/cl_va_api_media_sharing_intel.h>

// cl_nv_d3d9_sharing has no Khronos header: its values come from its spec
// and must equal the Intel DX9 tokens they share (INTEROP-NOTES.md).
#define CL_D3D9_DEVICE_NV CL_D3D9_DEVICE_INTEL
#define CL_D3D9_ADAPTER_NAME_NV 0x4023
#define CL_PREFERRED_DEVICES_FOR_D3D9_NV CL_PREFERRED_DEVICES_FOR_DX9_INTEL
#define CL_ALL_DEVICES_FOR_D3D9_NV CL_ALL_DEVICES_FOR_DX9_INTEL
#define CL_CONTEXT_D3D9_DEVICE_NV CL_CONTEXT_D3D9_DEVICE_INTEL
#define CL_MEM_D3D9_RESOURCE_NV CL_MEM_DX9_RESOURCE_INTEL
#define CL_IMAGE_D3D9_FACE_NV 0x4028
#define CL_IMAGE_D3D9_LEVEL_NV 0x4029
#define CL_COMMAND_ACQUIRE_D3D9_OBJECTS_NV CL_COMMAND_ACQUIRE_DX9_OBJECTS_INTEL
#define CL_COMMAND_RELEASE_D3D9_OBJECTS_NV CL_COMMAND_RELEASE_DX9_OBJECTS_INTEL
#define CL_INVALID_D3D9_DEVICE_NV CL_INVALID_DX9_DEVICE_INTEL
#define CL_INVALID_D3D9_RESOURCE_NV CL_INVALID_DX9_RESOURCE_INTEL
#define CL_D3D9_RESOURCE_ALREADY_ACQUIRED_NV CL_DX9_RESOURCE_ALREADY_ACQUIRED_INTEL
#define CL_D3D9_RESOURCE_NOT_ACQUIRED_NV CL_DX9_RESOURCE_NOT_ACQUIRED_INTEL

// cl_nv_d3d11_sharing has no Khronos header either: OpenCV's cl_d3d11_ext.h gives
// it the cl_khr_d3d11_sharing values under NV names.
#define CL_INVALID_D3D11_DEVICE_NV CL_INVALID_D3D11_DEVICE_KHR
#define CL_INVALID_D3D11_RESOURCE_NV CL_INVALID_D3D11_RESOURCE_KHR
#define CL_D3D11_RESOURCE_ALREADY_ACQUIRED_NV CL_D3D11_RESOURCE_ALREADY_ACQUIRED_KHR
#define CL_D3D11_RESOURCE_NOT_ACQUIRED_NV CL_D3D11_RESOURCE_NOT_ACQUIRED_KHR
#define CL_D3D11_DEVICE_NV CL_D3D11_DEVICE_KHR
#define CL_D3D11_DXGI_ADAPTER_NV CL_D3D11_DXGI_ADAPTER_KHR
#define CL_PREFERRED_DEVICES_FOR_D3D11_NV CL_PREFERRED_DEVICES_FOR_D3D11_KHR
#define CL_ALL_DEVICES_FOR_D3D11_NV CL_ALL_DEVICES_FOR_D3D11_KHR
#define CL_CONTEXT_D3D11_DEVICE_NV CL_CONTEXT_D3D11_DEVICE_KHR
#define CL_MEM_D3D11_RESOURCE_NV CL_MEM_D3D11_RESOURCE_KHR
#define CL_IMAGE_D3D11_SUBRESOURCE_NV CL_IMAGE_D3D11_SUBRESOURCE_KHR
#define CL_COMMAND_ACQUIRE_D3D11_OBJECTS_NV CL_COMMAND_ACQUIRE_D3D11_OBJECTS_KHR
#define CL_COMMAND_RELEASE_D3D11_OBJECTS_NV CL_COMMAND_RELEASE_D3D11_OBJECTS_KHR

#define X(n) static_assert(ours::v_##n == (long long)(n), "token value differs from the Khronos headers: " #n);
#include "refdrv_token_list.h"
#undef X

// dispatch table: same size, every slot at the same offset
static_assert(sizeof(ours::refdrv_icd_dispatch) == sizeof(cl_icd_dispatch), "dispatch table size");
#define SLOT(name, kind) \
  static_assert(offsetof(ours::refdrv_icd_dispatch, name) == offsetof(cl_icd_dispatch, name), "dispatch slot offset differs: " #name);
REFDRV_DISPATCH_SLOTS(SLOT)
#undef SLOT
static_assert(offsetof(cl_icd_dispatch, clGetDeviceIDsFromD3D10KHR) / sizeof(void *) == 75, "D3D10 slot 75");

// struct layouts the extensions use
static_assert(sizeof(ours::cl_image_desc) == sizeof(cl_image_desc), "cl_image_desc");
static_assert(sizeof(ours::cl_image_format) == sizeof(cl_image_format), "cl_image_format");

int main() {
  std::puts("cl_decls.h matches the Khronos headers");
  return 0;
}
