// cl_api.h - prototypes of the OpenCL entry points the reference-driver tests
// call (declared only: tests reach them through dlsym / the ICD loader).
#pragma once
#include "cl_decls.h"

#define REFDRV_TEST_CORE_FUNCS(X)                                                                                                                   \
  X(cl_int, clGetPlatformIDs, (cl_uint, cl_platform_id *, cl_uint *))                                                                               \
  X(cl_int, clGetPlatformInfo, (cl_platform_id, cl_platform_info, size_t, void *, size_t *))                                                        \
  X(cl_int, clGetDeviceIDs, (cl_platform_id, cl_device_type, cl_uint, cl_device_id *, cl_uint *))                                                   \
  X(cl_int, clGetDeviceInfo, (cl_device_id, cl_device_info, size_t, void *, size_t *))                                                              \
  X(cl_context, clCreateContext,                                                                                                                    \
    (const cl_context_properties *, cl_uint, const cl_device_id *, void(CL_API_CALL *)(const char *, const void *, size_t, void *), void *,         \
     cl_int *))                                                                                                                                     \
  X(cl_context, clCreateContextFromType,                                                                                                            \
    (const cl_context_properties *, cl_device_type, void(CL_API_CALL *)(const char *, const void *, size_t, void *), void *, cl_int *))             \
  X(cl_int, clRetainContext, (cl_context))                                                                                                          \
  X(cl_int, clReleaseContext, (cl_context))                                                                                                         \
  X(cl_int, clGetContextInfo, (cl_context, cl_context_info, size_t, void *, size_t *))                                                              \
  X(cl_command_queue, clCreateCommandQueue, (cl_context, cl_device_id, cl_command_queue_properties, cl_int *))                                      \
  X(cl_command_queue, clCreateCommandQueueWithProperties, (cl_context, cl_device_id, const cl_queue_properties *, cl_int *))                        \
  X(cl_int, clReleaseCommandQueue, (cl_command_queue))                                                                                              \
  X(cl_int, clGetCommandQueueInfo, (cl_command_queue, cl_command_queue_info, size_t, void *, size_t *))                                             \
  X(cl_mem, clCreateBuffer, (cl_context, cl_mem_flags, size_t, void *, cl_int *))                                                                   \
  X(cl_mem, clCreateSubBuffer, (cl_mem, cl_mem_flags, cl_buffer_create_type, const void *, cl_int *))                                               \
  X(cl_mem, clCreateImage, (cl_context, cl_mem_flags, const cl_image_format *, const cl_image_desc *, void *, cl_int *))                            \
  X(cl_int, clRetainMemObject, (cl_mem))                                                                                                            \
  X(cl_int, clReleaseMemObject, (cl_mem))                                                                                                           \
  X(cl_int, clGetSupportedImageFormats, (cl_context, cl_mem_flags, cl_mem_object_type, cl_uint, cl_image_format *, cl_uint *))                      \
  X(cl_int, clGetMemObjectInfo, (cl_mem, cl_mem_info, size_t, void *, size_t *))                                                                    \
  X(cl_int, clGetImageInfo, (cl_mem, cl_image_info, size_t, void *, size_t *))                                                                      \
  X(cl_int, clSetMemObjectDestructorCallback, (cl_mem, void(CL_API_CALL *)(cl_mem, void *), void *))                                                \
  X(cl_sampler, clCreateSampler, (cl_context, cl_bool, cl_addressing_mode, cl_filter_mode, cl_int *))                                               \
  X(cl_int, clReleaseSampler, (cl_sampler))                                                                                                         \
  X(cl_int, clGetSamplerInfo, (cl_sampler, cl_sampler_info, size_t, void *, size_t *))                                                              \
  X(cl_program, clCreateProgramWithSource, (cl_context, cl_uint, const char **, const size_t *, cl_int *))                                          \
  X(cl_program, clCreateProgramWithBuiltInKernels, (cl_context, cl_uint, const cl_device_id *, const char *, cl_int *))                             \
  X(cl_int, clBuildProgram, (cl_program, cl_uint, const cl_device_id *, const char *, void(CL_API_CALL *)(cl_program, void *), void *))             \
  X(cl_int, clReleaseProgram, (cl_program))                                                                                                         \
  X(cl_int, clGetProgramInfo, (cl_program, cl_program_info, size_t, void *, size_t *))                                                              \
  X(cl_int, clGetProgramBuildInfo, (cl_program, cl_device_id, cl_program_build_info, size_t, void *, size_t *))                                     \
  X(cl_kernel, clCreateKernel, (cl_program, const char *, cl_int *))                                                                                \
  X(cl_int, clCreateKernelsInProgram, (cl_program, cl_uint, cl_kernel *, cl_uint *))                                                                \
  X(cl_int, clReleaseKernel, (cl_kernel))                                                                                                           \
  X(cl_int, clSetKernelArg, (cl_kernel, cl_uint, size_t, const void *))                                                                             \
  X(cl_int, clGetKernelInfo, (cl_kernel, cl_kernel_info, size_t, void *, size_t *))                                                                 \
  X(cl_int, clGetKernelWorkGroupInfo, (cl_kernel, cl_device_id, cl_kernel_work_group_info, size_t, void *, size_t *))                               \
  X(cl_int, clGetKernelArgInfo, (cl_kernel, cl_uint, cl_kernel_arg_info, size_t, void *, size_t *))                                                 \
  X(cl_int, clWaitForEvents, (cl_uint, const cl_event *))                                                                                           \
  X(cl_int, clGetEventInfo, (cl_event, cl_event_info, size_t, void *, size_t *))                                                                    \
  X(cl_int, clRetainEvent, (cl_event))                                                                                                              \
  X(cl_int, clReleaseEvent, (cl_event))                                                                                                             \
  X(cl_int, clGetEventProfilingInfo, (cl_event, cl_profiling_info, size_t, void *, size_t *))                                                       \
  X(cl_int, clSetEventCallback, (cl_event, cl_int, void(CL_API_CALL *)(cl_event, cl_int, void *), void *))                                          \
  X(cl_event, clCreateUserEvent, (cl_context, cl_int *))                                                                                            \
  X(cl_int, clSetUserEventStatus, (cl_event, cl_int))                                                                                               \
  X(cl_int, clFlush, (cl_command_queue))                                                                                                            \
  X(cl_int, clFinish, (cl_command_queue))                                                                                                           \
  X(cl_int, clEnqueueReadBuffer, (cl_command_queue, cl_mem, cl_bool, size_t, size_t, void *, cl_uint, const cl_event *, cl_event *))                \
  X(cl_int, clEnqueueWriteBuffer, (cl_command_queue, cl_mem, cl_bool, size_t, size_t, const void *, cl_uint, const cl_event *, cl_event *))         \
  X(cl_int, clEnqueueCopyBuffer, (cl_command_queue, cl_mem, cl_mem, size_t, size_t, size_t, cl_uint, const cl_event *, cl_event *))                 \
  X(cl_int, clEnqueueFillBuffer, (cl_command_queue, cl_mem, const void *, size_t, size_t, size_t, cl_uint, const cl_event *, cl_event *))           \
  X(cl_int, clEnqueueReadBufferRect,                                                                                                                \
    (cl_command_queue, cl_mem, cl_bool, const size_t *, const size_t *, const size_t *, size_t, size_t, size_t, size_t, void *, cl_uint,            \
     const cl_event *, cl_event *))                                                                                                                 \
  X(cl_int, clEnqueueReadImage,                                                                                                                     \
    (cl_command_queue, cl_mem, cl_bool, const size_t *, const size_t *, size_t, size_t, void *, cl_uint, const cl_event *, cl_event *))             \
  X(cl_int, clEnqueueWriteImage,                                                                                                                    \
    (cl_command_queue, cl_mem, cl_bool, const size_t *, const size_t *, size_t, size_t, const void *, cl_uint, const cl_event *, cl_event *))       \
  X(cl_int, clEnqueueCopyImage,                                                                                                                     \
    (cl_command_queue, cl_mem, cl_mem, const size_t *, const size_t *, const size_t *, cl_uint, const cl_event *, cl_event *))                      \
  X(cl_int, clEnqueueCopyImageToBuffer,                                                                                                             \
    (cl_command_queue, cl_mem, cl_mem, const size_t *, const size_t *, size_t, cl_uint, const cl_event *, cl_event *))                              \
  X(cl_int, clEnqueueCopyBufferToImage,                                                                                                             \
    (cl_command_queue, cl_mem, cl_mem, size_t, const size_t *, const size_t *, cl_uint, const cl_event *, cl_event *))                              \
  X(cl_int, clEnqueueFillImage, (cl_command_queue, cl_mem, const void *, const size_t *, const size_t *, cl_uint, const cl_event *, cl_event *))    \
  X(void *, clEnqueueMapBuffer, (cl_command_queue, cl_mem, cl_bool, cl_map_flags, size_t, size_t, cl_uint, const cl_event *, cl_event *, cl_int *)) \
  X(void *, clEnqueueMapImage,                                                                                                                      \
    (cl_command_queue, cl_mem, cl_bool, cl_map_flags, const size_t *, const size_t *, size_t *, size_t *, cl_uint, const cl_event *, cl_event *,    \
     cl_int *))                                                                                                                                     \
  X(cl_int, clEnqueueUnmapMemObject, (cl_command_queue, cl_mem, void *, cl_uint, const cl_event *, cl_event *))                                     \
  X(cl_int, clEnqueueNDRangeKernel,                                                                                                                 \
    (cl_command_queue, cl_kernel, cl_uint, const size_t *, const size_t *, const size_t *, cl_uint, const cl_event *, cl_event *))                  \
  X(cl_int, clEnqueueMarkerWithWaitList, (cl_command_queue, cl_uint, const cl_event *, cl_event *))                                                 \
  X(cl_int, clEnqueueBarrierWithWaitList, (cl_command_queue, cl_uint, const cl_event *, cl_event *))                                                \
  X(cl_mem, clCreateBufferWithProperties, (cl_context, const cl_mem_properties *, cl_mem_flags, size_t, void *, cl_int *))                          \
  X(cl_mem, clCreateImageWithProperties,                                                                                                            \
    (cl_context, const cl_mem_properties *, cl_mem_flags, const cl_image_format *, const cl_image_desc *, void *, cl_int *))                        \
  X(void *, clGetExtensionFunctionAddress, (const char *))                                                                                          \
  X(void *, clGetExtensionFunctionAddressForPlatform, (cl_platform_id, const char *))

// The 27 entry points of the five sharing extensions.
#define REFDRV_TEST_SHARING_FUNCS(X)                                                                                                                 \
  X(cl_int, clGetDeviceIDsFromD3D9NV, (cl_platform_id, cl_d3d9_device_source_nv, void *, cl_d3d9_device_set_nv, cl_uint, cl_device_id *, cl_uint *)) \
  X(cl_mem, clCreateFromD3D9VertexBufferNV, (cl_context, cl_mem_flags, IDirect3DVertexBuffer9 *, cl_int *))                                          \
  X(cl_mem, clCreateFromD3D9IndexBufferNV, (cl_context, cl_mem_flags, IDirect3DIndexBuffer9 *, cl_int *))                                            \
  X(cl_mem, clCreateFromD3D9SurfaceNV, (cl_context, cl_mem_flags, IDirect3DSurface9 *, cl_int *))                                                    \
  X(cl_mem, clCreateFromD3D9TextureNV, (cl_context, cl_mem_flags, IDirect3DTexture9 *, UINT, cl_int *))                                              \
  X(cl_mem, clCreateFromD3D9CubeTextureNV, (cl_context, cl_mem_flags, IDirect3DCubeTexture9 *, D3DCUBEMAP_FACES, UINT, cl_int *))                    \
  X(cl_mem, clCreateFromD3D9VolumeTextureNV, (cl_context, cl_mem_flags, IDirect3DVolumeTexture9 *, UINT, cl_int *))                                  \
  X(cl_int, clEnqueueAcquireD3D9ObjectsNV, (cl_command_queue, cl_uint, const cl_mem *, cl_uint, const cl_event *, cl_event *))                       \
  X(cl_int, clEnqueueReleaseD3D9ObjectsNV, (cl_command_queue, cl_uint, cl_mem *, cl_uint, const cl_event *, cl_event *))                             \
  X(cl_int, clGetDeviceIDsFromD3D10KHR,                                                                                                              \
    (cl_platform_id, cl_d3d10_device_source_khr, void *, cl_d3d10_device_set_khr, cl_uint, cl_device_id *, cl_uint *))                               \
  X(cl_mem, clCreateFromD3D10BufferKHR, (cl_context, cl_mem_flags, ID3D10Buffer *, cl_int *))                                                        \
  X(cl_mem, clCreateFromD3D10Texture2DKHR, (cl_context, cl_mem_flags, ID3D10Texture2D *, UINT, cl_int *))                                            \
  X(cl_mem, clCreateFromD3D10Texture3DKHR, (cl_context, cl_mem_flags, ID3D10Texture3D *, UINT, cl_int *))                                            \
  X(cl_int, clEnqueueAcquireD3D10ObjectsKHR, (cl_command_queue, cl_uint, const cl_mem *, cl_uint, const cl_event *, cl_event *))                     \
  X(cl_int, clEnqueueReleaseD3D10ObjectsKHR, (cl_command_queue, cl_uint, const cl_mem *, cl_uint, const cl_event *, cl_event *))                     \
  X(cl_int, clGetDeviceIDsFromD3D11KHR, (cl_platform_id, cl_uint, void *, cl_uint, cl_uint, cl_device_id *, cl_uint *))                              \
  X(cl_mem, clCreateFromD3D11BufferKHR, (cl_context, cl_mem_flags, ID3D11Buffer *, cl_int *))                                                        \
  X(cl_mem, clCreateFromD3D11Texture2DKHR, (cl_context, cl_mem_flags, ID3D11Texture2D *, UINT, cl_int *))                                            \
  X(cl_mem, clCreateFromD3D11Texture3DKHR, (cl_context, cl_mem_flags, ID3D11Texture3D *, UINT, cl_int *))                                            \
  X(cl_int, clEnqueueAcquireD3D11ObjectsKHR, (cl_command_queue, cl_uint, const cl_mem *, cl_uint, const cl_event *, cl_event *))                     \
  X(cl_int, clEnqueueReleaseD3D11ObjectsKHR, (cl_command_queue, cl_uint, const cl_mem *, cl_uint, const cl_event *, cl_event *))                     \
  X(cl_int, clGetDeviceIDsFromD3D11NV, (cl_platform_id, cl_uint, void *, cl_uint, cl_uint, cl_device_id *, cl_uint *))                               \
  X(cl_mem, clCreateFromD3D11BufferNV, (cl_context, cl_mem_flags, ID3D11Buffer *, cl_int *))                                                         \
  X(cl_mem, clCreateFromD3D11Texture2DNV, (cl_context, cl_mem_flags, ID3D11Texture2D *, UINT, cl_int *))                                             \
  X(cl_mem, clCreateFromD3D11Texture3DNV, (cl_context, cl_mem_flags, ID3D11Texture3D *, UINT, cl_int *))                                             \
  X(cl_int, clEnqueueAcquireD3D11ObjectsNV, (cl_command_queue, cl_uint, const cl_mem *, cl_uint, const cl_event *, cl_event *))                      \
  X(cl_int, clEnqueueReleaseD3D11ObjectsNV, (cl_command_queue, cl_uint, cl_mem *, cl_uint, const cl_event *, cl_event *))                            \
  X(cl_int, clGetDeviceIDsFromDX9INTEL,                                                                                                              \
    (cl_platform_id, cl_dx9_device_source_intel, void *, cl_dx9_device_set_intel, cl_uint, cl_device_id *, cl_uint *))                               \
  X(cl_mem, clCreateFromDX9MediaSurfaceINTEL, (cl_context, cl_mem_flags, IDirect3DSurface9 *, HANDLE, UINT, cl_int *))                               \
  X(cl_int, clEnqueueAcquireDX9ObjectsINTEL, (cl_command_queue, cl_uint, const cl_mem *, cl_uint, const cl_event *, cl_event *))                     \
  X(cl_int, clEnqueueReleaseDX9ObjectsINTEL, (cl_command_queue, cl_uint, cl_mem *, cl_uint, const cl_event *, cl_event *))                           \
  X(cl_int, clGetDeviceIDsFromDX9MediaAdapterKHR,                                                                                                    \
    (cl_platform_id, cl_uint, cl_dx9_media_adapter_type_khr *, void *, cl_dx9_media_adapter_set_khr, cl_uint, cl_device_id *, cl_uint *))            \
  X(cl_mem, clCreateFromDX9MediaSurfaceKHR, (cl_context, cl_mem_flags, cl_dx9_media_adapter_type_khr, void *, cl_uint, cl_int *))                    \
  X(cl_int, clEnqueueAcquireDX9MediaSurfacesKHR, (cl_command_queue, cl_uint, const cl_mem *, cl_uint, const cl_event *, cl_event *))                 \
  X(cl_int, clEnqueueReleaseDX9MediaSurfacesKHR, (cl_command_queue, cl_uint, const cl_mem *, cl_uint, const cl_event *, cl_event *))                 \
  X(cl_int, clGetDeviceIDsFromVA_APIMediaAdapterINTEL,                                                                                               \
    (cl_platform_id, cl_va_api_device_source_intel, void *, cl_va_api_device_set_intel, cl_uint, cl_device_id *, cl_uint *))                         \
  X(cl_mem, clCreateFromVA_APIMediaSurfaceINTEL, (cl_context, cl_mem_flags, VASurfaceID *, cl_uint, cl_int *))                                       \
  X(cl_int, clEnqueueAcquireVA_APIMediaSurfacesINTEL, (cl_command_queue, cl_uint, const cl_mem *, cl_uint, const cl_event *, cl_event *))            \
  X(cl_int, clEnqueueReleaseVA_APIMediaSurfacesINTEL, (cl_command_queue, cl_uint, const cl_mem *, cl_uint, const cl_event *, cl_event *))

#define REFDRV_TEST_EXT_FUNCS(X) REFDRV_TEST_SHARING_FUNCS(X) REFDRV_TEST_EXTERNAL_FUNCS(X)

// cl_khr_external_memory / cl_khr_semaphore / cl_khr_external_semaphore: the
// driver's Windows build resolves only the semaphore part of these, so the
// Windows test loads them without counting them among the 27 sharing ones.
#define REFDRV_TEST_EXTERNAL_FUNCS(X)                                                                                                          \
  X(cl_int, clEnqueueAcquireExternalMemObjectsKHR, (cl_command_queue, cl_uint, const cl_mem *, cl_uint, const cl_event *, cl_event *))         \
  X(cl_int, clEnqueueReleaseExternalMemObjectsKHR, (cl_command_queue, cl_uint, const cl_mem *, cl_uint, const cl_event *, cl_event *))         \
  X(cl_semaphore_khr, clCreateSemaphoreWithPropertiesKHR, (cl_context, const cl_semaphore_properties_khr *, cl_int *))                         \
  X(cl_int, clEnqueueWaitSemaphoresKHR,                                                                                                        \
    (cl_command_queue, cl_uint, const cl_semaphore_khr *, const cl_semaphore_payload_khr *, cl_uint, const cl_event *, cl_event *))            \
  X(cl_int, clEnqueueSignalSemaphoresKHR,                                                                                                      \
    (cl_command_queue, cl_uint, const cl_semaphore_khr *, const cl_semaphore_payload_khr *, cl_uint, const cl_event *, cl_event *))            \
  X(cl_int, clGetSemaphoreInfoKHR, (cl_semaphore_khr, cl_semaphore_info_khr, size_t, void *, size_t *))                                        \
  X(cl_int, clRetainSemaphoreKHR, (cl_semaphore_khr))                                                                                          \
  X(cl_int, clReleaseSemaphoreKHR, (cl_semaphore_khr))                                                                                         \
  X(cl_int, clGetSemaphoreHandleForTypeKHR, (cl_semaphore_khr, cl_device_id, cl_external_semaphore_handle_type_khr, size_t, void *, size_t *)) \
  X(cl_int, clReImportSemaphoreSyncFdKHR, (cl_semaphore_khr, cl_semaphore_reimport_properties_khr *, int))

// A table, several X() to a line: clang-format reads X(a) X(b) as one expression and breaks inside the calls.
// clang-format off
#define REFDRV_TEST_CONTROL_FUNCS(X) \
  X(refdrv_d3d9_create_adapter) X(refdrv_d3d9_create_device) X(refdrv_d3d9_create_surface) \
  X(refdrv_d3d9_create_texture) X(refdrv_d3d9_create_cube_texture) X(refdrv_d3d9_create_volume_texture) \
  X(refdrv_d3d9_create_vertex_buffer) X(refdrv_d3d9_create_index_buffer) X(refdrv_d3d9_get_surface_level) \
  X(refdrv_dxgi_create_adapter) X(refdrv_d3d10_create_device) X(refdrv_d3d10_create_buffer) \
  X(refdrv_d3d10_create_texture2d) X(refdrv_d3d10_create_texture3d) X(refdrv_va_create_display) \
  X(refdrv_d3d11_create_device) X(refdrv_d3d11_create_buffer) X(refdrv_d3d11_create_texture2d) \
  X(refdrv_d3d11_create_texture3d) \
  X(refdrv_va_create_surface) X(refdrv_create_shared_handle) X(refdrv_resource_layout) \
  X(refdrv_resource_read) X(refdrv_resource_write) X(refdrv_refcount) X(refdrv_add_ref) X(refdrv_release) \
  X(refdrv_object_type) X(refdrv_live_objects) X(refdrv_wait_idle) \
  X(refdrv_create_opaque_fd_memory) X(refdrv_create_dma_buf) X(refdrv_payload_read) X(refdrv_payload_write) \
  X(refdrv_opaque_semaphore_state) X(refdrv_set_command_delay) X(refdrv_command_delay)
// clang-format on
