// OpenCL declarations used by the addon. The addon builds without any OpenCL
// SDK: handle types are opaque and every entry point is reached through the
// function table that the loader fills at run time. Values come from the
// OpenCL specification; test/constants.test.ts checks the token tables against
// the Khronos headers.
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(_WIN32)
#define OCL_CALL __stdcall
#else
#define OCL_CALL
#endif

namespace ocl {

using cl_int = int32_t;
using cl_uint = uint32_t;
using cl_ulong = uint64_t;
using cl_bool = cl_uint;
using cl_bitfield = cl_ulong;
using cl_mem_flags = cl_bitfield;
using cl_map_flags = cl_bitfield;
using cl_device_type = cl_bitfield;
using cl_command_queue_properties = cl_bitfield;
using cl_context_properties = intptr_t;
using cl_queue_properties = cl_bitfield;
using cl_sampler_properties = cl_bitfield;
using cl_mem_object_type = cl_uint;

using cl_platform_id = struct _cl_platform_id*;
using cl_device_id = struct _cl_device_id*;
using cl_context = struct _cl_context*;
using cl_command_queue = struct _cl_command_queue*;
using cl_mem = struct _cl_mem*;
using cl_program = struct _cl_program*;
using cl_kernel = struct _cl_kernel*;
using cl_event = struct _cl_event*;
using cl_sampler = struct _cl_sampler*;

struct cl_image_format {
  cl_uint image_channel_order;
  cl_uint image_channel_data_type;
};

struct cl_image_desc {
  cl_mem_object_type image_type;
  size_t image_width;
  size_t image_height;
  size_t image_depth;
  size_t image_array_size;
  size_t image_row_pitch;
  size_t image_slice_pitch;
  cl_uint num_mip_levels;
  cl_uint num_samples;
  cl_mem buffer;
};

struct cl_buffer_region {
  size_t origin;
  size_t size;
};

constexpr cl_int CL_SUCCESS = 0;
constexpr cl_int CL_COMPLETE = 0;
constexpr cl_int CL_RUNNING = 0x1;
constexpr cl_int CL_SUBMITTED = 0x2;
constexpr cl_int CL_QUEUED = 0x3;
constexpr cl_int CL_OUT_OF_HOST_MEMORY = -6;
constexpr cl_int CL_INVALID_VALUE = -30;
constexpr cl_int CL_INVALID_OPERATION = -59;
constexpr cl_uint CL_EVENT_COMMAND_QUEUE = 0x11D0;
constexpr cl_uint CL_EVENT_COMMAND_EXECUTION_STATUS = 0x11D3;
constexpr cl_uint CL_EVENT_CONTEXT = 0x11D4;
constexpr cl_uint CL_QUEUE_PROPERTIES = 0x1093;
constexpr cl_bitfield CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE = 1 << 0;
constexpr cl_uint CL_BUFFER_CREATE_TYPE_REGION = 0x1220;

using ContextNotify = void(OCL_CALL*)(const char*, const void*, size_t, void*);
using EventNotify = void(OCL_CALL*)(cl_event, cl_int, void*);
using ContextDestructorNotify = void(OCL_CALL*)(cl_context, void*);

// X(name, return type, parameter list). Every entry point is optional at load
// time; calling one the library lacks raises a typed error naming it.
#define OCL_CORE_ENTRY_POINTS(X)                                                                                                                     \
  X(clGetPlatformIDs, cl_int, (cl_uint, cl_platform_id*, cl_uint*))                                                                                  \
  X(clGetPlatformInfo, cl_int, (cl_platform_id, cl_uint, size_t, void*, size_t*))                                                                    \
  X(clGetDeviceIDs, cl_int, (cl_platform_id, cl_device_type, cl_uint, cl_device_id*, cl_uint*))                                                      \
  X(clGetDeviceInfo, cl_int, (cl_device_id, cl_uint, size_t, void*, size_t*))                                                                        \
  X(clCreateContext, cl_context, (const cl_context_properties*, cl_uint, const cl_device_id*, ContextNotify, void*, cl_int*))                        \
  X(clCreateContextFromType, cl_context, (const cl_context_properties*, cl_device_type, ContextNotify, void*, cl_int*))                              \
  X(clReleaseContext, cl_int, (cl_context))                                                                                                          \
  X(clGetContextInfo, cl_int, (cl_context, cl_uint, size_t, void*, size_t*))                                                                         \
  X(clSetContextDestructorCallback, cl_int, (cl_context, ContextDestructorNotify, void*))                                                            \
  X(clCreateCommandQueue, cl_command_queue, (cl_context, cl_device_id, cl_bitfield, cl_int*))                                                        \
  X(clCreateCommandQueueWithProperties, cl_command_queue, (cl_context, cl_device_id, const cl_queue_properties*, cl_int*))                           \
  X(clRetainCommandQueue, cl_int, (cl_command_queue))                                                                                                \
  X(clReleaseCommandQueue, cl_int, (cl_command_queue))                                                                                               \
  X(clGetCommandQueueInfo, cl_int, (cl_command_queue, cl_uint, size_t, void*, size_t*))                                                              \
  X(clFlush, cl_int, (cl_command_queue))                                                                                                             \
  X(clFinish, cl_int, (cl_command_queue))                                                                                                            \
  X(clCreateBuffer, cl_mem, (cl_context, cl_mem_flags, size_t, void*, cl_int*))                                                                      \
  X(clCreateSubBuffer, cl_mem, (cl_mem, cl_mem_flags, cl_uint, const void*, cl_int*))                                                                \
  X(clCreateImage, cl_mem, (cl_context, cl_mem_flags, const cl_image_format*, const cl_image_desc*, void*, cl_int*))                                 \
  X(clCreateBufferWithProperties, cl_mem, (cl_context, const cl_ulong*, cl_mem_flags, size_t, void*, cl_int*))                                       \
  X(clCreateImageWithProperties, cl_mem, (cl_context, const cl_ulong*, cl_mem_flags, const cl_image_format*, const cl_image_desc*, void*, cl_int*))  \
  X(clRetainMemObject, cl_int, (cl_mem))                                                                                                             \
  X(clReleaseMemObject, cl_int, (cl_mem))                                                                                                            \
  X(clGetSupportedImageFormats, cl_int, (cl_context, cl_mem_flags, cl_mem_object_type, cl_uint, cl_image_format*, cl_uint*))                         \
  X(clGetMemObjectInfo, cl_int, (cl_mem, cl_uint, size_t, void*, size_t*))                                                                           \
  X(clGetImageInfo, cl_int, (cl_mem, cl_uint, size_t, void*, size_t*))                                                                               \
  X(clCreateSampler, cl_sampler, (cl_context, cl_bool, cl_uint, cl_uint, cl_int*))                                                                   \
  X(clCreateSamplerWithProperties, cl_sampler, (cl_context, const cl_sampler_properties*, cl_int*))                                                  \
  X(clReleaseSampler, cl_int, (cl_sampler))                                                                                                          \
  X(clGetSamplerInfo, cl_int, (cl_sampler, cl_uint, size_t, void*, size_t*))                                                                         \
  X(clCreateProgramWithSource, cl_program, (cl_context, cl_uint, const char**, const size_t*, cl_int*))                                              \
  X(clCreateProgramWithBuiltInKernels, cl_program, (cl_context, cl_uint, const cl_device_id*, const char*, cl_int*))                                 \
  X(clReleaseProgram, cl_int, (cl_program))                                                                                                          \
  X(clBuildProgram, cl_int, (cl_program, cl_uint, const cl_device_id*, const char*, void(OCL_CALL*)(cl_program, void*), void*))                      \
  X(clGetProgramInfo, cl_int, (cl_program, cl_uint, size_t, void*, size_t*))                                                                         \
  X(clGetProgramBuildInfo, cl_int, (cl_program, cl_device_id, cl_uint, size_t, void*, size_t*))                                                      \
  X(clCreateKernel, cl_kernel, (cl_program, const char*, cl_int*))                                                                                   \
  X(clReleaseKernel, cl_int, (cl_kernel))                                                                                                            \
  X(clSetKernelArg, cl_int, (cl_kernel, cl_uint, size_t, const void*))                                                                               \
  X(clGetKernelInfo, cl_int, (cl_kernel, cl_uint, size_t, void*, size_t*))                                                                           \
  X(clGetKernelArgInfo, cl_int, (cl_kernel, cl_uint, cl_uint, size_t, void*, size_t*))                                                               \
  X(clGetKernelWorkGroupInfo, cl_int, (cl_kernel, cl_device_id, cl_uint, size_t, void*, size_t*))                                                    \
  X(clWaitForEvents, cl_int, (cl_uint, const cl_event*))                                                                                             \
  X(clGetEventInfo, cl_int, (cl_event, cl_uint, size_t, void*, size_t*))                                                                             \
  X(clCreateUserEvent, cl_event, (cl_context, cl_int*))                                                                                              \
  X(clRetainEvent, cl_int, (cl_event))                                                                                                               \
  X(clReleaseEvent, cl_int, (cl_event))                                                                                                              \
  X(clSetUserEventStatus, cl_int, (cl_event, cl_int))                                                                                                \
  X(clSetEventCallback, cl_int, (cl_event, cl_int, EventNotify, void*))                                                                              \
  X(clGetEventProfilingInfo, cl_int, (cl_event, cl_uint, size_t, void*, size_t*))                                                                    \
  X(clEnqueueReadBuffer, cl_int, (cl_command_queue, cl_mem, cl_bool, size_t, size_t, void*, cl_uint, const cl_event*, cl_event*))                    \
  X(clEnqueueWriteBuffer, cl_int, (cl_command_queue, cl_mem, cl_bool, size_t, size_t, const void*, cl_uint, const cl_event*, cl_event*))             \
  X(clEnqueueCopyBuffer, cl_int, (cl_command_queue, cl_mem, cl_mem, size_t, size_t, size_t, cl_uint, const cl_event*, cl_event*))                    \
  X(clEnqueueFillBuffer, cl_int, (cl_command_queue, cl_mem, const void*, size_t, size_t, size_t, cl_uint, const cl_event*, cl_event*))               \
  X(clEnqueueReadImage, cl_int,                                                                                                                      \
    (cl_command_queue, cl_mem, cl_bool, const size_t*, const size_t*, size_t, size_t, void*, cl_uint, const cl_event*, cl_event*))                   \
  X(clEnqueueWriteImage, cl_int,                                                                                                                     \
    (cl_command_queue, cl_mem, cl_bool, const size_t*, const size_t*, size_t, size_t, const void*, cl_uint, const cl_event*, cl_event*))             \
  X(clEnqueueCopyImage, cl_int,                                                                                                                      \
    (cl_command_queue, cl_mem, cl_mem, const size_t*, const size_t*, const size_t*, cl_uint, const cl_event*, cl_event*))                            \
  X(clEnqueueFillImage, cl_int, (cl_command_queue, cl_mem, const void*, const size_t*, const size_t*, cl_uint, const cl_event*, cl_event*))          \
  X(clEnqueueCopyImageToBuffer, cl_int,                                                                                                              \
    (cl_command_queue, cl_mem, cl_mem, const size_t*, const size_t*, size_t, cl_uint, const cl_event*, cl_event*))                                   \
  X(clEnqueueCopyBufferToImage, cl_int,                                                                                                              \
    (cl_command_queue, cl_mem, cl_mem, size_t, const size_t*, const size_t*, cl_uint, const cl_event*, cl_event*))                                   \
  X(clEnqueueMapBuffer, void*, (cl_command_queue, cl_mem, cl_bool, cl_map_flags, size_t, size_t, cl_uint, const cl_event*, cl_event*, cl_int*))      \
  X(clEnqueueMapImage, void*,                                                                                                                        \
    (cl_command_queue, cl_mem, cl_bool, cl_map_flags, const size_t*, const size_t*, size_t*, size_t*, cl_uint, const cl_event*, cl_event*, cl_int*)) \
  X(clEnqueueUnmapMemObject, cl_int, (cl_command_queue, cl_mem, void*, cl_uint, const cl_event*, cl_event*))                                         \
  X(clEnqueueNDRangeKernel, cl_int,                                                                                                                  \
    (cl_command_queue, cl_kernel, cl_uint, const size_t*, const size_t*, const size_t*, cl_uint, const cl_event*, cl_event*))                        \
  X(clEnqueueMarkerWithWaitList, cl_int, (cl_command_queue, cl_uint, const cl_event*, cl_event*))                                                    \
  X(clEnqueueBarrierWithWaitList, cl_int, (cl_command_queue, cl_uint, const cl_event*, cl_event*))                                                   \
  X(clGetExtensionFunctionAddressForPlatform, void*, (cl_platform_id, const char*))                                                                  \
  X(clGetExtensionFunctionAddress, void*, (const char*))

struct CoreApi {
#define OCL_DECLARE_ENTRY_POINT(name, ret, params) ret(OCL_CALL* name) params = nullptr;
  OCL_CORE_ENTRY_POINTS(OCL_DECLARE_ENTRY_POINT)
#undef OCL_DECLARE_ENTRY_POINT
};

}  // namespace ocl
