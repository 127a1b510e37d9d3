/*
 * external_pipeline_c: a 4K video frame pipeline between Vulkan and OpenCL
 * through cl_khr_external_memory and cl_khr_external_semaphore, made straight
 * from C. bench/external-pipeline.mjs runs the same pipeline through the
 * package and this program next to it.
 *
 *   external_pipeline_c [--platform NAME] [--device INDEX|UUID] [--width W] [--height H]
 *                       [--frames N] [--repeats R] [--slots 2,8,32]
 *                       [--kernel-iterations K] [--check-frames C]
 *                       [--variants LIST] [--check-variants LIST]
 *
 * --platform (default "NVIDIA"): a substring of the OpenCL platform's name;
 * its first GPU device is used (--device: the GPU of that index, or of that
 * CL_DEVICE_UUID_KHR in hex, dashes allowed), and the Vulkan device whose
 * deviceUUID equals its CL_DEVICE_UUID_KHR. Prints a table on stderr and one JSON object on
 * stdout.
 *
 * Each slot holds, in Vulkan memory exported as opaque fds and imported into
 * OpenCL with clCreateBufferWithProperties: one NV12 frame W x H (Y plane,
 * then the interleaved UV plane right after it) and one RGBA frame (4 bytes a
 * pixel); a Vulkan-only buffer the consumer copies the RGBA frame into; two
 * binary semaphores exported by Vulkan as opaque fds and imported by OpenCL
 * (NV12 ready: Vulkan -> OpenCL; RGBA ready: OpenCL -> Vulkan). The planes are
 * sub-buffers of the imported NV12 buffer (one buffer and an offset where the
 * driver refuses those sub-buffers). One frame i in slot s = i mod N:
 *   produce(i)  Vulkan: a barrier after all earlier commands, vkCmdFillBuffer
 *               of the Y and UV planes with frame i's values, signal NV12-ready
 *   opencl(i)   wait NV12-ready, acquire (NV12, RGBA), 3 x clSetKernelArg,
 *               nv12_to_rgba over W/4 x H, release, signal RGBA-ready, clFlush
 *   consume(i)  Vulkan: wait RGBA-ready, copy the RGBA frame out
 * Orders of submission:
 *   naive   produce(i), opencl(i), consume(i) for each frame in turn
 *   ahead   produce(0..N-1) first; then for each frame opencl(i), consume(i),
 *           produce(i+N): a slot's next frame is queued right after its
 *           consumer, so the producer of frame i+1 never waits behind the
 *           consumer of frame i on the Vulkan queue
 * The host waits on a slot's fences before it records that slot's command
 * buffers again (N frames later). Each figure is the median of R runs of N
 * frames after a warm-up of max(50, N/10) frames.
 * --variants (default naive,ahead) also runs experiments on the ahead order
 * (kVariants): one vkQueueSubmit for consume(i) + produce(i+N); without the
 * queue family ownership barriers; without acquire/release; the consumer
 * submitted N/2 frames after its OpenCL work (lag); the host waiting (the
 * producer's fence, an OpenCL marker event) instead of one or both
 * semaphores; no ordering at all (races: timing only); and submitting as
 * the package does (an OpenCL event asked for and released per command;
 * lib/vulkan's full barriers around every operation; its semaphore waits at
 * every stage), to find what costs the package frames.
 * After the table, one more run (ahead, 8 slots) times each OpenCL call of a
 * frame on the host (JSON calls_ns).
 *
 * The kernel alone: K launches back to back on ordinary OpenCL buffers, on the
 * imported ones (acquired once), and on the imported ones with an acquire and
 * a release around each launch (whose host time is reported per frame).
 *
 * Correctness (--check-variants, default naive,ahead; 8 slots): C frames of
 * each variant ordered and not ordered at all; the consumer also copies three
 * 4 KiB pieces of the RGBA frame (start, middle, end) into host-visible
 * memory, compared with the expected colour of frame i.
 *
 * Open descriptors are counted (/proc/self/fd) at the start, after the
 * imports and after everything is freed.
 */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 300
#define BENCH_PROGRAM "external_pipeline_c"
#include "bench_common.h"

#include <CL/cl_ext.h>
#include <dirent.h>
#include <dlfcn.h>
#include <vulkan/vulkan.h>

typedef cl_mem(CL_API_CALL* CreateBufferWithProperties)(cl_context, const cl_mem_properties*, cl_mem_flags, size_t, void*, cl_int*);

static const char* vk_result_name(VkResult r) {
  switch (r) {
    case VK_SUCCESS: return "VK_SUCCESS";
    case VK_NOT_READY: return "VK_NOT_READY";
    case VK_TIMEOUT: return "VK_TIMEOUT";
    case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
    case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
    case VK_ERROR_EXTENSION_NOT_PRESENT: return "VK_ERROR_EXTENSION_NOT_PRESENT";
    case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT";
    case VK_ERROR_INCOMPATIBLE_DRIVER: return "VK_ERROR_INCOMPATIBLE_DRIVER";
    case VK_ERROR_TOO_MANY_OBJECTS: return "VK_ERROR_TOO_MANY_OBJECTS";
    case VK_ERROR_INVALID_EXTERNAL_HANDLE: return "VK_ERROR_INVALID_EXTERNAL_HANDLE";
    default: return "VkResult";
  }
}
#define VK_CHECK(call)                                                                        \
  do {                                                                                        \
    VkResult r_ = (call);                                                                     \
    if (r_ != VK_SUCCESS) {                                                                   \
      fprintf(stderr, BENCH_PROGRAM ": %s failed (%s, %d)\n", #call, vk_result_name(r_), r_); \
      exit(1);                                                                                \
    }                                                                                         \
  } while (0)

/* Four pixels a work-item: a uchar4 of Y, the uchar4 U0 V0 U1 V1 beside them,
   four RGBA8 pixels out. BT.601 limited range, integer arithmetic, so the
   host computes exactly the same values. Keep identical to the kernel of
   bench/external-pipeline.mjs. */
static const char kNv12ToRgbaSource[] =
    "uint rgba_pixel(int luma, int d, int e) {\n"
    "  int c = 298 * (luma - 16) + 128;\n"
    "  int r = clamp((c + 409 * e) >> 8, 0, 255);\n"
    "  int g = clamp((c - 100 * d - 208 * e) >> 8, 0, 255);\n"
    "  int b = clamp((c + 516 * d) >> 8, 0, 255);\n"
    "  return (uint)r | ((uint)g << 8) | ((uint)b << 16) | 0xff000000u;\n"
    "}\n"
    "__kernel void nv12_to_rgba(__global const uchar4* y, __global const uchar4* uv, __global uint4* rgba,\n"
    "                           uint uv_base, uint pitch4) {\n"
    "  uint x = get_global_id(0), row = get_global_id(1);\n"
    "  uchar4 l = y[row * pitch4 + x];\n"
    "  uchar4 c = uv[uv_base + (row >> 1) * pitch4 + x];\n"
    "  int d0 = (int)c.s0 - 128, e0 = (int)c.s1 - 128, d1 = (int)c.s2 - 128, e1 = (int)c.s3 - 128;\n"
    "  rgba[row * pitch4 + x] = (uint4)(rgba_pixel(l.s0, d0, e0), rgba_pixel(l.s1, d0, e0),\n"
    "                                   rgba_pixel(l.s2, d1, e1), rgba_pixel(l.s3, d1, e1));\n"
    "}\n";

static int clampi(int v) { return v < 0 ? 0 : v > 255 ? 255 : v; }
static uint32_t rgba_pixel(int luma, int d, int e) {
  int c = 298 * (luma - 16) + 128;
  return (uint32_t)clampi((c + 409 * e) >> 8) | (uint32_t)clampi((c - 100 * d - 208 * e) >> 8) << 8 | (uint32_t)clampi((c + 516 * d) >> 8) << 16 |
         0xff000000u;
}

/* Frame i's NV12 values: one luma, one U, one V over the whole frame. */
static uint8_t frame_luma(uint32_t i) { return (uint8_t)(16 + (i * 37u) % 220u); }
static uint8_t frame_u(uint32_t i) { return (uint8_t)((i * 53u + 7u) % 256u); }
static uint8_t frame_v(uint32_t i) { return (uint8_t)((i * 91u + 11u) % 256u); }
static uint32_t frame_rgba(uint32_t i) { return rgba_pixel(frame_luma(i), frame_u(i) - 128, frame_v(i) - 128); }

enum { kCheckPiece = 4096, kCheckPieces = 3 };

/* The OpenCL calls of one frame, timed one by one in an instrumented run. */
enum { kCallWait, kCallAcquire, kCallKernel, kCallRelease, kCallSignal, kCallFlush, kCallKinds };
static const char* const kCallNames[kCallKinds] = {"wait", "acquire", "kernels", "release", "signal", "flush"};

typedef struct {
  VkBuffer buffer;
  VkDeviceMemory memory;
  VkDeviceSize allocation_size;
} VkAlloc;

typedef struct {
  VkAlloc nv12, rgba, out, readback;
  uint32_t* readback_map;
  VkSemaphore nv12_ready, rgba_ready;
  cl_semaphore_khr cl_nv12_ready, cl_rgba_ready;
  cl_mem cl_nv12, cl_rgba, cl_y, cl_uv;
  VkCommandBuffer produce_cmd, consume_cmd;
  VkFence produce_fence, consume_fence;
  int produce_pending, consume_pending;
  int64_t checked_frame; /* frame whose pieces the last consume copied; -1 none */
  cl_event cl_done;      /* the end of the frame's OpenCL work (host ordering) */
} Slot;

typedef struct {
  /* OpenCL */
  cl_platform_id platform;
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  cl_kernel kernel;
  CreateBufferWithProperties create_buffer_with_properties;
  clEnqueueAcquireExternalMemObjectsKHR_fn acquire;
  clEnqueueReleaseExternalMemObjectsKHR_fn release;
  clCreateSemaphoreWithPropertiesKHR_fn create_semaphore;
  clEnqueueWaitSemaphoresKHR_fn wait_semaphores;
  clEnqueueSignalSemaphoresKHR_fn signal_semaphores;
  clReleaseSemaphoreKHR_fn release_semaphore;
  int use_sub_buffers;
  int ownership, acquire_each; /* of the run in progress (Variant) */
  int time_calls;              /* add each OpenCL call's host time to calls_ns */
  int cl_events, package_vk;   /* of the run in progress (Variant) */
  uint64_t calls_ns[kCallKinds];
  /* Vulkan */
  VkInstance instance;
  VkPhysicalDevice physical;
  VkDevice device_vk;
  VkQueue queue_vk;
  uint32_t family;
  VkCommandPool pool;
  VkPhysicalDeviceMemoryProperties memory_properties;
  PFN_vkGetMemoryFdKHR get_memory_fd;
  PFN_vkGetSemaphoreFdKHR get_semaphore_fd;
  char vk_device_name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
  int uuid_matched;
  /* frame geometry */
  uint32_t width, height;
  size_t y_size, uv_size, nv12_size, rgba_size;
  size_t global[2], local[2];
  int has_local;
} Bench;

typedef struct {
  double produce_ns, opencl_ns, consume_ns, wait_ns; /* host time per frame */
} HostSplit;

static void* extension_function(cl_platform_id platform, const char* name) {
  void* f = clGetExtensionFunctionAddressForPlatform(platform, name);
  if (!f) {
    fprintf(stderr, BENCH_PROGRAM ": the platform returns no %s\n", name);
    exit(1);
  }
  return f;
}

static int count_open_fds(void) {
  DIR* dir = opendir("/proc/self/fd");
  if (!dir) return -1;
  int n = 0;
  for (struct dirent* e; (e = readdir(dir));)
    if (e->d_name[0] != '.') n++;
  closedir(dir);
  return n - 1; /* the directory's own descriptor */
}

/* ---- OpenCL ---- */

/* --device: which GPU of the platform (index, or CL_DEVICE_UUID_KHR as 32 hex digits; dashes ignored). */
static const char* g_device_choice = NULL;

static int uuid_matches(cl_device_id device, const char* hex) {
  uint8_t uuid[CL_UUID_SIZE_KHR];
  if (clGetDeviceInfo(device, CL_DEVICE_UUID_KHR, sizeof uuid, uuid, NULL) != CL_SUCCESS) return 0;
  int k = 0;
  for (const char* p = hex; *p && k < 2 * CL_UUID_SIZE_KHR; p++) {
    if (*p == '-') continue;
    unsigned v;
    char digit[2] = {*p, 0};
    if (sscanf(digit, "%x", &v) != 1) return 0;
    if (((k % 2) ? (uuid[k / 2] & 0xf) : (uuid[k / 2] >> 4)) != v) return 0;
    k++;
  }
  return k == 2 * CL_UUID_SIZE_KHR;
}

static void open_cl(Bench* b, const char* want, char** platform_name, char** device_name) {
  b->platform = find_platform(want, platform_name);
  cl_uint n = 0;
  CHECK(clGetDeviceIDs(b->platform, CL_DEVICE_TYPE_GPU, 0, NULL, &n));
  cl_device_id* devices = calloc(n, sizeof *devices);
  CHECK(clGetDeviceIDs(b->platform, CL_DEVICE_TYPE_GPU, n, devices, NULL));
  b->device = devices[0];
  if (g_device_choice) {
    char* end = NULL;
    long index = strtol(g_device_choice, &end, 10);
    int found = 0;
    if (*end == 0 && strlen(g_device_choice) < 4) {
      if (index >= 0 && index < (long)n) b->device = devices[index], found = 1;
    } else {
      for (cl_uint k = 0; k < n && !found; k++)
        if (uuid_matches(devices[k], g_device_choice)) b->device = devices[k], found = 1;
    }
    if (!found) {
      fprintf(stderr, BENCH_PROGRAM ": --device %s: no such GPU on the platform (%u GPUs)\n", g_device_choice, n);
      exit(2);
    }
  }
  free(devices);
  *device_name = device_string(b->device, CL_DEVICE_NAME);
  char* extensions = device_string(b->device, CL_DEVICE_EXTENSIONS);
  const char* needed[] = {"cl_khr_external_memory_opaque_fd", "cl_khr_external_semaphore_opaque_fd", "cl_khr_semaphore"};
  for (size_t i = 0; i < sizeof needed / sizeof needed[0]; i++) {
    if (!strstr(extensions, needed[i])) {
      fprintf(stderr, BENCH_PROGRAM ": the device does not advertise %s\n", needed[i]);
      exit(1);
    }
  }
  free(extensions);
  /* ocl-icd exports none of these for NVIDIA: ask the platform for each. */
  b->create_buffer_with_properties =
      (CreateBufferWithProperties)clGetExtensionFunctionAddressForPlatform(b->platform, "clCreateBufferWithProperties");
  if (!b->create_buffer_with_properties)
    b->create_buffer_with_properties = (CreateBufferWithProperties)dlsym(RTLD_DEFAULT, "clCreateBufferWithProperties");
  if (!b->create_buffer_with_properties) die("clCreateBufferWithProperties (not found)", CL_INVALID_OPERATION);
  b->acquire = (clEnqueueAcquireExternalMemObjectsKHR_fn)extension_function(b->platform, "clEnqueueAcquireExternalMemObjectsKHR");
  b->release = (clEnqueueReleaseExternalMemObjectsKHR_fn)extension_function(b->platform, "clEnqueueReleaseExternalMemObjectsKHR");
  b->create_semaphore = (clCreateSemaphoreWithPropertiesKHR_fn)extension_function(b->platform, "clCreateSemaphoreWithPropertiesKHR");
  b->wait_semaphores = (clEnqueueWaitSemaphoresKHR_fn)extension_function(b->platform, "clEnqueueWaitSemaphoresKHR");
  b->signal_semaphores = (clEnqueueSignalSemaphoresKHR_fn)extension_function(b->platform, "clEnqueueSignalSemaphoresKHR");
  b->release_semaphore = (clReleaseSemaphoreKHR_fn)extension_function(b->platform, "clReleaseSemaphoreKHR");

  cl_int err;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)b->platform, 0};
  b->context = clCreateContext(props, 1, &b->device, NULL, NULL, &err);
  CHECK(err);
  b->queue = clCreateCommandQueueWithProperties(b->context, b->device, NULL, &err);
  CHECK(err);
  const char* source = kNv12ToRgbaSource;
  cl_program program = clCreateProgramWithSource(b->context, 1, &source, NULL, &err);
  CHECK(err);
  err = clBuildProgram(program, 1, &b->device, "", NULL, NULL);
  if (err != CL_SUCCESS) {
    size_t size = 0;
    clGetProgramBuildInfo(program, b->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size);
    char* log = calloc(size + 1, 1);
    clGetProgramBuildInfo(program, b->device, CL_PROGRAM_BUILD_LOG, size, log, NULL);
    fprintf(stderr, "%s\n", log);
    die("clBuildProgram", err);
  }
  b->kernel = clCreateKernel(program, "nv12_to_rgba", &err);
  CHECK(err);
  clReleaseProgram(program);
}

static cl_mem import_buffer(Bench* b, int fd, size_t size) {
  cl_mem_properties props[] = {CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR,
                               (cl_mem_properties)fd,
                               CL_DEVICE_HANDLE_LIST_KHR,
                               (cl_mem_properties)b->device,
                               CL_DEVICE_HANDLE_LIST_END_KHR,
                               0};
  cl_int err;
  cl_mem mem = b->create_buffer_with_properties(b->context, props, CL_MEM_READ_WRITE, size, NULL, &err);
  CHECK(err);
  return mem;
}

/* Without a device handle list: NVIDIA returns -64 for a semaphore import
   with one, and imports the same fd without it. */
static cl_semaphore_khr import_semaphore(Bench* b, int fd) {
  cl_semaphore_properties_khr props[] = {CL_SEMAPHORE_TYPE_KHR, CL_SEMAPHORE_TYPE_BINARY_KHR, CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR,
                                         (cl_semaphore_properties_khr)fd, 0};
  cl_int err;
  cl_semaphore_khr s = b->create_semaphore(b->context, props, &err);
  CHECK(err);
  return s;
}

static cl_mem sub_buffer(cl_mem parent, size_t origin, size_t size, cl_int* err) {
  cl_buffer_region region = {origin, size};
  return clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, err);
}

/* The two planes of an NV12 buffer: sub-buffers where the driver makes them. */
static void make_planes(Bench* b, cl_mem nv12, cl_mem* y, cl_mem* uv) {
  if (b->use_sub_buffers) {
    cl_int err_y, err_uv = CL_SUCCESS;
    *y = sub_buffer(nv12, 0, b->y_size, &err_y);
    *uv = err_y == CL_SUCCESS ? sub_buffer(nv12, b->y_size, b->uv_size, &err_uv) : NULL;
    if (err_y == CL_SUCCESS && err_uv == CL_SUCCESS) return;
    fprintf(stderr, BENCH_PROGRAM ": clCreateSubBuffer on the NV12 buffer failed (%d); the kernel gets one buffer and an offset\n",
            err_y != CL_SUCCESS ? err_y : err_uv);
    if (*y) clReleaseMemObject(*y);
    b->use_sub_buffers = 0;
  }
  *y = NULL;
  *uv = NULL;
}

static void set_kernel_args(Bench* b, cl_mem nv12, cl_mem y, cl_mem uv, cl_mem rgba) {
  cl_mem y_arg = y ? y : nv12, uv_arg = uv ? uv : nv12;
  cl_uint uv_base = uv ? 0 : (cl_uint)(b->y_size / 4), pitch4 = b->width / 4;
  CHECK(clSetKernelArg(b->kernel, 0, sizeof(cl_mem), &y_arg));
  CHECK(clSetKernelArg(b->kernel, 1, sizeof(cl_mem), &uv_arg));
  CHECK(clSetKernelArg(b->kernel, 2, sizeof(cl_mem), &rgba));
  CHECK(clSetKernelArg(b->kernel, 3, sizeof(cl_uint), &uv_base));
  CHECK(clSetKernelArg(b->kernel, 4, sizeof(cl_uint), &pitch4));
}

static void enqueue_kernel(Bench* b) {
  CHECK(clEnqueueNDRangeKernel(b->queue, b->kernel, 2, NULL, b->global, b->has_local ? b->local : NULL, 0, NULL, NULL));
}

/* ---- Vulkan ---- */

static void open_vk(Bench* b) {
  VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .pApplicationName = BENCH_PROGRAM, .apiVersion = VK_API_VERSION_1_2};
  VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};
  VK_CHECK(vkCreateInstance(&ici, NULL, &b->instance));

  uint8_t cl_uuid[CL_UUID_SIZE_KHR];
  int have_cl_uuid = clGetDeviceInfo(b->device, CL_DEVICE_UUID_KHR, sizeof cl_uuid, cl_uuid, NULL) == CL_SUCCESS;
  uint32_t count = 0;
  VK_CHECK(vkEnumeratePhysicalDevices(b->instance, &count, NULL));
  if (count == 0) die("vkEnumeratePhysicalDevices (no devices)", -1);
  VkPhysicalDevice* devices = calloc(count, sizeof *devices);
  VK_CHECK(vkEnumeratePhysicalDevices(b->instance, &count, devices));
  b->physical = VK_NULL_HANDLE;
  for (uint32_t i = 0; i < count; i++) {
    VkPhysicalDeviceIDProperties id = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
    VkPhysicalDeviceProperties2 p = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &id};
    vkGetPhysicalDeviceProperties2(devices[i], &p);
    int match = have_cl_uuid && !memcmp(id.deviceUUID, cl_uuid, sizeof cl_uuid);
    if (match || (b->physical == VK_NULL_HANDLE && p.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU)) {
      b->physical = devices[i];
      b->uuid_matched = match;
      snprintf(b->vk_device_name, sizeof b->vk_device_name, "%s", p.properties.deviceName);
      if (match) break;
    }
  }
  if (b->physical == VK_NULL_HANDLE) { /* no UUID to match and no discrete GPU: the first device */
    VkPhysicalDeviceProperties p;
    vkGetPhysicalDeviceProperties(devices[0], &p);
    b->physical = devices[0];
    snprintf(b->vk_device_name, sizeof b->vk_device_name, "%s", p.deviceName);
  }
  free(devices);
  vkGetPhysicalDeviceMemoryProperties(b->physical, &b->memory_properties);

  uint32_t families = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(b->physical, &families, NULL);
  VkQueueFamilyProperties* fp = calloc(families, sizeof *fp);
  vkGetPhysicalDeviceQueueFamilyProperties(b->physical, &families, fp);
  b->family = UINT32_MAX;
  for (uint32_t i = 0; i < families && b->family == UINT32_MAX; i++)
    if (fp[i].queueFlags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)) b->family = i;
  free(fp);
  if (b->family == UINT32_MAX) die("no Vulkan queue family with graphics or compute", -1);

  float priority = 1.0f;
  VkDeviceQueueCreateInfo qci = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = b->family, .queueCount = 1, .pQueuePriorities = &priority};
  const char* extensions[] = {VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME, VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME};
  VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                            .queueCreateInfoCount = 1,
                            .pQueueCreateInfos = &qci,
                            .enabledExtensionCount = 2,
                            .ppEnabledExtensionNames = extensions};
  VK_CHECK(vkCreateDevice(b->physical, &dci, NULL, &b->device_vk));
  vkGetDeviceQueue(b->device_vk, b->family, 0, &b->queue_vk);
  b->get_memory_fd = (PFN_vkGetMemoryFdKHR)vkGetDeviceProcAddr(b->device_vk, "vkGetMemoryFdKHR");
  b->get_semaphore_fd = (PFN_vkGetSemaphoreFdKHR)vkGetDeviceProcAddr(b->device_vk, "vkGetSemaphoreFdKHR");
  if (!b->get_memory_fd || !b->get_semaphore_fd) die("vkGetDeviceProcAddr (vkGetMemoryFdKHR / vkGetSemaphoreFdKHR)", -1);
  VkCommandPoolCreateInfo pci = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, .queueFamilyIndex = b->family};
  VK_CHECK(vkCreateCommandPool(b->device_vk, &pci, NULL, &b->pool));
}

static uint32_t memory_type(Bench* b, uint32_t bits, VkMemoryPropertyFlags want) {
  for (uint32_t i = 0; i < b->memory_properties.memoryTypeCount; i++)
    if ((bits & (1u << i)) && (b->memory_properties.memoryTypes[i].propertyFlags & want) == want) return i;
  die("no Vulkan memory type with the wanted properties", -1);
  return 0;
}

/* A buffer with its own memory; exported as an opaque fd when `exported`
   (then *fd is the exported descriptor). */
static VkAlloc make_buffer(Bench* b, VkDeviceSize size, VkBufferUsageFlags usage, VkMemoryPropertyFlags properties, int exported, int* fd) {
  VkAlloc a = {0};
  VkExternalMemoryBufferCreateInfo external = {.sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO,
                                               .handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
  VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                            .pNext = exported ? &external : NULL,
                            .size = size,
                            .usage = usage,
                            .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
  VK_CHECK(vkCreateBuffer(b->device_vk, &bci, NULL, &a.buffer));
  VkMemoryDedicatedRequirements dedicated = {.sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS};
  VkMemoryRequirements2 req = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2, .pNext = &dedicated};
  VkBufferMemoryRequirementsInfo2 rinfo = {.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_REQUIREMENTS_INFO_2, .buffer = a.buffer};
  vkGetBufferMemoryRequirements2(b->device_vk, &rinfo, &req);

  int dedicated_only = 0;
  if (exported) {
    VkPhysicalDeviceExternalBufferInfo info = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO, .usage = usage, .handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
    VkExternalBufferProperties props = {.sType = VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES};
    vkGetPhysicalDeviceExternalBufferProperties(b->physical, &info, &props);
    VkExternalMemoryFeatureFlags features = props.externalMemoryProperties.externalMemoryFeatures;
    if (!(features & VK_EXTERNAL_MEMORY_FEATURE_EXPORTABLE_BIT)) die("Vulkan cannot export this buffer as an opaque fd", -1);
    dedicated_only = (features & VK_EXTERNAL_MEMORY_FEATURE_DEDICATED_ONLY_BIT) || dedicated.requiresDedicatedAllocation;
  }
  VkMemoryDedicatedAllocateInfo dedicated_info = {.sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO, .buffer = a.buffer};
  VkExportMemoryAllocateInfo export_info = {.sType = VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO,
                                            .pNext = dedicated_only ? &dedicated_info : NULL,
                                            .handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
  VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                              .pNext = exported ? &export_info : NULL,
                              .allocationSize = req.memoryRequirements.size,
                              .memoryTypeIndex = memory_type(b, req.memoryRequirements.memoryTypeBits, properties)};
  VK_CHECK(vkAllocateMemory(b->device_vk, &mai, NULL, &a.memory));
  VK_CHECK(vkBindBufferMemory(b->device_vk, a.buffer, a.memory, 0));
  a.allocation_size = req.memoryRequirements.size;
  if (exported) {
    VkMemoryGetFdInfoKHR gfi = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR, .memory = a.memory, .handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
    VK_CHECK(b->get_memory_fd(b->device_vk, &gfi, fd));
  }
  return a;
}

static void free_buffer(Bench* b, VkAlloc* a) {
  vkDestroyBuffer(b->device_vk, a->buffer, NULL);
  vkFreeMemory(b->device_vk, a->memory, NULL);
}

static VkSemaphore make_exported_semaphore(Bench* b, int* fd) {
  VkExportSemaphoreCreateInfo export_info = {.sType = VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO,
                                             .handleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT};
  VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &export_info};
  VkSemaphore s;
  VK_CHECK(vkCreateSemaphore(b->device_vk, &sci, NULL, &s));
  VkSemaphoreGetFdInfoKHR gfi = {
      .sType = VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR, .semaphore = s, .handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT};
  VK_CHECK(b->get_semaphore_fd(b->device_vk, &gfi, fd));
  return s;
}

static void make_slot(Bench* b, Slot* s) {
  int fd;
  const VkBufferUsageFlags shared = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  /* Each import takes the fd (cl_khr_external_memory: ownership passes to
     OpenCL); the descriptor counts around make_slot show what the driver does. */
  s->nv12 = make_buffer(b, b->nv12_size, shared, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 1, &fd);
  s->cl_nv12 = import_buffer(b, fd, s->nv12.allocation_size);
  s->rgba = make_buffer(b, b->rgba_size, shared, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 1, &fd);
  s->cl_rgba = import_buffer(b, fd, s->rgba.allocation_size);
  s->out = make_buffer(b, b->rgba_size, VK_BUFFER_USAGE_TRANSFER_DST_BIT, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0, NULL);
  s->readback = make_buffer(b, kCheckPiece * kCheckPieces, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                            VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, 0, NULL);
  VK_CHECK(vkMapMemory(b->device_vk, s->readback.memory, 0, VK_WHOLE_SIZE, 0, (void**)&s->readback_map));
  make_planes(b, s->cl_nv12, &s->cl_y, &s->cl_uv);
  s->nv12_ready = make_exported_semaphore(b, &fd);
  s->cl_nv12_ready = import_semaphore(b, fd);
  s->rgba_ready = make_exported_semaphore(b, &fd);
  s->cl_rgba_ready = import_semaphore(b, fd);
  VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                     .commandPool = b->pool,
                                     .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                     .commandBufferCount = 1};
  VK_CHECK(vkAllocateCommandBuffers(b->device_vk, &cai, &s->produce_cmd));
  VK_CHECK(vkAllocateCommandBuffers(b->device_vk, &cai, &s->consume_cmd));
  VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VK_CHECK(vkCreateFence(b->device_vk, &fci, NULL, &s->produce_fence));
  VK_CHECK(vkCreateFence(b->device_vk, &fci, NULL, &s->consume_fence));
  s->checked_frame = -1;
}

static void free_slot(Bench* b, Slot* s) {
  if (s->cl_y) clReleaseMemObject(s->cl_y);
  if (s->cl_uv) clReleaseMemObject(s->cl_uv);
  clReleaseMemObject(s->cl_nv12);
  clReleaseMemObject(s->cl_rgba);
  b->release_semaphore(s->cl_nv12_ready);
  b->release_semaphore(s->cl_rgba_ready);
  vkDestroySemaphore(b->device_vk, s->nv12_ready, NULL);
  vkDestroySemaphore(b->device_vk, s->rgba_ready, NULL);
  vkDestroyFence(b->device_vk, s->produce_fence, NULL);
  vkDestroyFence(b->device_vk, s->consume_fence, NULL);
  VkCommandBuffer cmds[] = {s->produce_cmd, s->consume_cmd};
  vkFreeCommandBuffers(b->device_vk, b->pool, 2, cmds);
  vkUnmapMemory(b->device_vk, s->readback.memory);
  free_buffer(b, &s->nv12);
  free_buffer(b, &s->rgba);
  free_buffer(b, &s->out);
  free_buffer(b, &s->readback);
}

/* Ownership of an exported buffer moves between this queue family and
   VK_QUEUE_FAMILY_EXTERNAL around each use (Vulkan's rule for memory
   another API also uses). */
static void ownership_barrier(Bench* b, VkCommandBuffer cmd, VkBuffer buffer, int to_vulkan, VkAccessFlags access) {
  VkBufferMemoryBarrier barrier = {.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
                                   .srcAccessMask = to_vulkan ? 0 : access,
                                   .dstAccessMask = to_vulkan ? access : 0,
                                   .srcQueueFamilyIndex = to_vulkan ? VK_QUEUE_FAMILY_EXTERNAL : b->family,
                                   .dstQueueFamilyIndex = to_vulkan ? b->family : VK_QUEUE_FAMILY_EXTERNAL,
                                   .buffer = buffer,
                                   .offset = 0,
                                   .size = VK_WHOLE_SIZE};
  vkCmdPipelineBarrier(cmd, to_vulkan ? VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT : VK_PIPELINE_STAGE_TRANSFER_BIT,
                       to_vulkan ? VK_PIPELINE_STAGE_TRANSFER_BIT : VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0, NULL, 1, &barrier, 0, NULL);
}

static void begin(VkCommandBuffer cmd) {
  VK_CHECK(vkResetCommandBuffer(cmd, 0));
  VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
  VK_CHECK(vkBeginCommandBuffer(cmd, &bi));
}

static void wait_fence(Bench* b, VkFence fence, int* pending) {
  if (!*pending) return;
  VK_CHECK(vkWaitForFences(b->device_vk, 1, &fence, VK_TRUE, UINT64_MAX));
  VK_CHECK(vkResetFences(b->device_vk, 1, &fence));
  *pending = 0;
}

enum { kPackageBarriers = 1, kPackageWaitStage = 2 };

/* The package's barrier between recorded operations (lib/vulkan). */
static void full_barrier(VkCommandBuffer cmd) {
  VkMemoryBarrier all = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                         .srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT,
                         .dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &all, 0, NULL, 0, NULL);
}

static void record_produce(Bench* b, Slot* s, uint32_t frame) {
  VkCommandBuffer cmd = s->produce_cmd;
  begin(cmd);
  /* After every earlier command: the consumer of this slot's previous frame
     waited for OpenCL to finish with these buffers. */
  VkMemoryBarrier all = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                         .srcAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT,
                         .dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &all, 0, NULL, 0, NULL);
  if (b->ownership) ownership_barrier(b, cmd, s->nv12.buffer, 1, VK_ACCESS_TRANSFER_WRITE_BIT);
  uint32_t luma = frame_luma(frame), u = frame_u(frame), v = frame_v(frame);
  vkCmdFillBuffer(cmd, s->nv12.buffer, 0, b->y_size, luma * 0x01010101u);
  if (b->package_vk & kPackageBarriers) full_barrier(cmd);
  vkCmdFillBuffer(cmd, s->nv12.buffer, b->y_size, b->uv_size, (u | v << 8) * 0x00010001u);
  if (b->package_vk & kPackageBarriers) full_barrier(cmd);
  if (b->ownership) ownership_barrier(b, cmd, s->nv12.buffer, 0, VK_ACCESS_TRANSFER_WRITE_BIT);
  VK_CHECK(vkEndCommandBuffer(cmd));
}

static VkSubmitInfo produce_submit(Slot* s, int semaphores) {
  return (VkSubmitInfo){.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                        .commandBufferCount = 1,
                        .pCommandBuffers = &s->produce_cmd,
                        .signalSemaphoreCount = semaphores ? 1 : 0,
                        .pSignalSemaphores = &s->nv12_ready};
}

static void produce(Bench* b, Slot* s, uint32_t frame, int semaphores) {
  record_produce(b, s, frame);
  VkSubmitInfo si = produce_submit(s, semaphores);
  VK_CHECK(vkQueueSubmit(b->queue_vk, 1, &si, s->produce_fence));
  s->produce_pending = 1;
}

/* wait: on NV12-ready first; signal: RGBA-ready at the end; done: an event
   for the end of the frame's OpenCL work (NULL: none). */
static void opencl(Bench* b, Slot* s, int wait, int signal, cl_event* done) {
  cl_mem objects[] = {s->cl_nv12, s->cl_rgba};
  uint64_t t[kCallKinds + 1] = {0};
  int timed = b->time_calls;
  if (timed) t[0] = now_ns();
  cl_event ev = NULL, *e = b->cl_events ? &ev : NULL;
#define RELEASE_EVENT() \
  if (ev) {             \
    clReleaseEvent(ev); \
    ev = NULL;          \
  }
  if (wait) CHECK(b->wait_semaphores(b->queue, 1, &s->cl_nv12_ready, NULL, 0, NULL, e));
  RELEASE_EVENT();
  if (timed) t[1] = now_ns();
  if (b->acquire_each) CHECK(b->acquire(b->queue, 2, objects, 0, NULL, e));
  RELEASE_EVENT();
  if (timed) t[2] = now_ns();
  set_kernel_args(b, s->cl_nv12, s->cl_y, s->cl_uv, s->cl_rgba);
  CHECK(clEnqueueNDRangeKernel(b->queue, b->kernel, 2, NULL, b->global, b->has_local ? b->local : NULL, 0, NULL, e));
  RELEASE_EVENT();
  if (timed) t[3] = now_ns();
  if (b->acquire_each) CHECK(b->release(b->queue, 2, objects, 0, NULL, e));
  RELEASE_EVENT();
  if (timed) t[4] = now_ns();
  if (signal) CHECK(b->signal_semaphores(b->queue, 1, &s->cl_rgba_ready, NULL, 0, NULL, e));
  RELEASE_EVENT();
#undef RELEASE_EVENT
  if (done) CHECK(clEnqueueMarkerWithWaitList(b->queue, 0, NULL, done));
  if (timed) t[5] = now_ns();
  CHECK(clFlush(b->queue));
  if (timed) {
    t[6] = now_ns();
    for (int k = 0; k < kCallKinds; k++) b->calls_ns[k] += t[k + 1] - t[k];
  }
}

static void record_consume(Bench* b, Slot* s, uint32_t frame, int check) {
  VkCommandBuffer cmd = s->consume_cmd;
  begin(cmd);
  if (b->ownership) ownership_barrier(b, cmd, s->rgba.buffer, 1, VK_ACCESS_TRANSFER_READ_BIT);
  if (b->package_vk & kPackageBarriers) full_barrier(cmd);
  VkBufferCopy whole = {0, 0, b->rgba_size};
  vkCmdCopyBuffer(cmd, s->rgba.buffer, s->out.buffer, 1, &whole);
  if (b->package_vk & kPackageBarriers) full_barrier(cmd);
  if (check) {
    size_t middle = (size_t)(b->height / 2) * b->width * 4;
    VkBufferCopy pieces[kCheckPieces] = {
        {0, 0, kCheckPiece}, {middle, kCheckPiece, kCheckPiece}, {b->rgba_size - kCheckPiece, 2 * kCheckPiece, kCheckPiece}};
    vkCmdCopyBuffer(cmd, s->rgba.buffer, s->readback.buffer, kCheckPieces, pieces);
    VkMemoryBarrier to_host = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT, .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0, NULL, 0, NULL);
    s->checked_frame = frame;
  }
  if (b->ownership) ownership_barrier(b, cmd, s->rgba.buffer, 0, VK_ACCESS_TRANSFER_READ_BIT);
  VK_CHECK(vkEndCommandBuffer(cmd));
}

static const VkPipelineStageFlags kTransferStage = VK_PIPELINE_STAGE_TRANSFER_BIT;
static const VkPipelineStageFlags kAllStages = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;

static VkSubmitInfo consume_submit(Bench* b, Slot* s, int semaphores) {
  return (VkSubmitInfo){.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                        .waitSemaphoreCount = semaphores ? 1 : 0,
                        .pWaitSemaphores = &s->rgba_ready,
                        .pWaitDstStageMask = b->package_vk & kPackageWaitStage ? &kAllStages : &kTransferStage,
                        .commandBufferCount = 1,
                        .pCommandBuffers = &s->consume_cmd};
}

typedef struct {
  long frames, mismatched_frames, mismatched_pixels;
} CheckResult;

/* Call after the slot's consume fence: its pieces hold frame checked_frame. */
static void check_pieces(Slot* s, CheckResult* c) {
  if (s->checked_frame < 0) return;
  uint32_t want = frame_rgba((uint32_t)s->checked_frame);
  long bad = 0;
  for (size_t k = 0; k < kCheckPiece * kCheckPieces / 4; k++) bad += s->readback_map[k] != want;
  c->frames++;
  c->mismatched_frames += bad != 0;
  c->mismatched_pixels += bad;
  s->checked_frame = -1;
}

typedef enum { kNaive, kAhead } Order;

/* How a run submits its work. lag: the consumer of frame i is submitted
   after the OpenCL work of frame i + lag (ahead order only, lag < slots);
   one_submit: consume(i) and produce(i+N) go in one vkQueueSubmit;
   ownership: queue family ownership barriers around Vulkan's uses;
   acquire: acquire + release around each frame's kernel. */
typedef struct {
  const char* name;
  Order order;
  int lag_divisor; /* lag = slots / lag_divisor; 0: no lag */
  int one_submit, ownership, acquire;
  /* Orderings (when the run is ordered at all): the semaphore Vulkan ->
     OpenCL (NV12 ready), the semaphore OpenCL -> Vulkan (RGBA ready), and the
     host instead of either: it waits for the producer's fence before the
     OpenCL work, or for the OpenCL work's event before submitting the
     consumer. "unordered" has neither (it races: timing only). No variant
     has a semaphore in one direction alone: nothing would then keep a binary
     semaphore from being signalled again before its wait (undefined; on
     NVIDIA such a run hung). */
  int sem_to_cl, sem_to_vk, host_to_cl, host_to_vk;
  /* As the package does it (to find what costs it time): cl_events, an event
     asked for each OpenCL command and released at once; package_vk (bits),
     kPackageBarriers: a full memory barrier before, between and after the
     operations of each submission (no ownership barriers), kPackageWaitStage:
     Vulkan's semaphore waits at every stage (not the transfer stage). */
  int cl_events, package_vk;
} Variant;

static const Variant kNaiveVariant = {"naive", kNaive, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0};
static const Variant kAheadVariant = {"ahead", kAhead, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0};
/* --variants: the orders above and experiments on the ahead order. */
static const Variant kVariants[] = {
    {"naive", kNaive, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0},
    {"ahead", kAhead, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0},
    {"ahead-one-submit", kAhead, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0},
    {"ahead-no-ownership", kAhead, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0},
    {"ahead-no-acquire", kAhead, 0, 0, 1, 0, 1, 1, 0, 0, 0, 0},
    {"ahead-lag", kAhead, 2, 0, 1, 1, 1, 1, 0, 0, 0, 0},
    {"ahead-lag-one-submit", kAhead, 2, 1, 1, 1, 1, 1, 0, 0, 0, 0},
    {"ahead-lag-host-to-vulkan", kAhead, 2, 0, 1, 1, 1, 0, 0, 1, 0, 0},
    {"ahead-lag-host-both", kAhead, 2, 0, 1, 1, 0, 0, 1, 1, 0, 0},
    {"unordered", kAhead, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0},
    {"ahead-cl-events", kAhead, 0, 0, 1, 1, 1, 1, 0, 0, 1, 0},
    {"ahead-package-vk", kAhead, 0, 0, 0, 1, 1, 1, 0, 0, 0, 3},
    {"ahead-package-both", kAhead, 0, 0, 0, 1, 1, 1, 0, 0, 1, 3},
    {"ahead-package-barriers", kAhead, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1},
    {"ahead-package-wait-stage", kAhead, 0, 0, 0, 1, 1, 1, 0, 0, 0, 2},
};
enum { kVariantCount = sizeof kVariants / sizeof kVariants[0] };

/* frames frames through `slots` slots; returns the wall time in ns. */
static uint64_t run_pipeline(Bench* b, Slot* slot, int slots, const Variant* v, long frames, int ordered, CheckResult* check, HostSplit* split) {
  int sem_to_cl = ordered && v->sem_to_cl, sem_to_vk = ordered && v->sem_to_vk;
  int host_to_cl = ordered && v->host_to_cl, host_to_vk = ordered && v->host_to_vk;
  int one_submit = v->one_submit && !host_to_cl;
  uint64_t produce_ns = 0, opencl_ns = 0, consume_ns = 0, wait_ns = 0, t;
  long lag = v->order == kAhead && v->lag_divisor ? slots / v->lag_divisor : 0;
  if (lag >= slots) lag = slots - 1;
  b->ownership = v->ownership;
  b->cl_events = v->cl_events;
  b->package_vk = v->package_vk;
  b->acquire_each = v->acquire;
  uint64_t start = now_ns();
#define TIMED(sum, stmt) \
  do {                   \
    t = now_ns();        \
    stmt;                \
    sum += now_ns() - t; \
  } while (0)
#define PRODUCE(i)                                                          \
  do {                                                                      \
    Slot* s_ = &slot[(i) % slots];                                          \
    TIMED(wait_ns, wait_fence(b, s_->produce_fence, &s_->produce_pending)); \
    TIMED(produce_ns, produce(b, s_, (uint32_t)(i), sem_to_cl));            \
  } while (0)
  if (v->order == kAhead)
    for (long i = 0; i < slots && i < frames; i++) PRODUCE(i);
  for (long i = 0; i < frames + lag; i++) {
    if (v->order == kNaive) PRODUCE(i);
    if (i < frames) {
      Slot* s = &slot[i % slots];
      if (host_to_cl) TIMED(wait_ns, wait_fence(b, s->produce_fence, &s->produce_pending));
      TIMED(opencl_ns, opencl(b, s, sem_to_cl, sem_to_vk, host_to_vk ? &s->cl_done : NULL));
    }
    long j = i - lag; /* the frame consumed now */
    if (j < 0) continue;
    Slot* s = &slot[j % slots];
    TIMED(wait_ns, wait_fence(b, s->consume_fence, &s->consume_pending));
    if (check) check_pieces(s, check);
    if (host_to_vk) {
      TIMED(wait_ns, CHECK(clWaitForEvents(1, &s->cl_done)));
      CHECK(clReleaseEvent(s->cl_done));
    }
    int next = v->order == kAhead && j + slots < frames;
    if (next && one_submit) {
      TIMED(wait_ns, wait_fence(b, s->produce_fence, &s->produce_pending));
      t = now_ns();
      record_consume(b, s, (uint32_t)j, check != NULL);
      record_produce(b, s, (uint32_t)(j + slots));
      VkSubmitInfo si[2] = {consume_submit(b, s, sem_to_vk), produce_submit(s, sem_to_cl)};
      VK_CHECK(vkQueueSubmit(b->queue_vk, 2, si, s->consume_fence));
      s->consume_pending = 1;
      consume_ns += now_ns() - t;
    } else {
      t = now_ns();
      record_consume(b, s, (uint32_t)j, check != NULL);
      VkSubmitInfo si = consume_submit(b, s, sem_to_vk);
      VK_CHECK(vkQueueSubmit(b->queue_vk, 1, &si, s->consume_fence));
      s->consume_pending = 1;
      consume_ns += now_ns() - t;
      if (next) PRODUCE(j + slots);
    }
  }
#undef PRODUCE
#undef TIMED
  for (int k = 0; k < slots; k++) {
    wait_fence(b, slot[k].produce_fence, &slot[k].produce_pending);
    wait_fence(b, slot[k].consume_fence, &slot[k].consume_pending);
  }
  CHECK(clFinish(b->queue));
  uint64_t elapsed = now_ns() - start;
  if (check)
    for (int k = 0; k < slots; k++) check_pieces(&slot[k], check);
  if (split) {
    split->produce_ns = (double)produce_ns / (double)frames;
    split->opencl_ns = (double)opencl_ns / (double)frames;
    split->consume_ns = (double)consume_ns / (double)frames;
    split->wait_ns = (double)wait_ns / (double)frames;
  }
  return elapsed;
}

/* ---- the kernel alone ---- */

typedef struct {
  double plain_us, plain_again_us, imported_us, imported_acquire_release_us, acquire_release_host_ns, enqueue_host_ns;
} KernelResult;

static double time_kernels(Bench* b, long iterations, int repeats, cl_mem* acquire_each, double* host_ns_out) {
  double samples[kMaxRepeats];
  double host[kMaxRepeats];
  for (int r = -1; r < repeats; r++) { /* r = -1: warm-up */
    long n = r < 0 ? 50 : iterations;
    uint64_t host_ns = 0;
    uint64_t t0 = now_ns();
    for (long i = 0; i < n; i++) {
      if (acquire_each) {
        uint64_t a = now_ns();
        CHECK(b->acquire(b->queue, 2, acquire_each, 0, NULL, NULL));
        host_ns += now_ns() - a;
        enqueue_kernel(b);
        a = now_ns();
        CHECK(b->release(b->queue, 2, acquire_each, 0, NULL, NULL));
        host_ns += now_ns() - a;
      } else {
        uint64_t a = now_ns();
        enqueue_kernel(b);
        host_ns += now_ns() - a;
      }
    }
    CHECK(clFinish(b->queue));
    if (r >= 0) {
      samples[r] = (double)(now_ns() - t0) / (double)n / 1000.0;
      host[r] = (double)host_ns / (double)n;
    }
  }
  if (host_ns_out) *host_ns_out = median_of(host, repeats);
  return median_of(samples, repeats);
}

static KernelResult kernel_alone(Bench* b, Slot* imported, long iterations, int repeats) {
  KernelResult k;
  cl_int err;
  cl_mem nv12 = clCreateBuffer(b->context, CL_MEM_READ_WRITE, imported->nv12.allocation_size, NULL, &err);
  CHECK(err);
  cl_mem rgba = clCreateBuffer(b->context, CL_MEM_READ_WRITE, imported->rgba.allocation_size, NULL, &err);
  CHECK(err);
  cl_uchar pattern = 128;
  CHECK(clEnqueueFillBuffer(b->queue, nv12, &pattern, 1, 0, imported->nv12.allocation_size, 0, NULL, NULL));
  cl_mem y = NULL, uv = NULL;
  make_planes(b, nv12, &y, &uv);
  set_kernel_args(b, nv12, y, uv, rgba);
  k.plain_us = time_kernels(b, iterations, repeats, NULL, &k.enqueue_host_ns);

  cl_mem objects[] = {imported->cl_nv12, imported->cl_rgba};
  set_kernel_args(b, imported->cl_nv12, imported->cl_y, imported->cl_uv, imported->cl_rgba);
  CHECK(b->acquire(b->queue, 2, objects, 0, NULL, NULL));
  k.imported_us = time_kernels(b, iterations, repeats, NULL, NULL);
  CHECK(b->release(b->queue, 2, objects, 0, NULL, NULL));
  k.imported_acquire_release_us = time_kernels(b, iterations, repeats, objects, &k.acquire_release_host_ns);
  CHECK(clFinish(b->queue));
  set_kernel_args(b, nv12, y, uv, rgba); /* the plain buffers once more: the order of the runs is no factor */
  k.plain_again_us = time_kernels(b, iterations, repeats, NULL, NULL);
  if (y) clReleaseMemObject(y);
  if (uv) clReleaseMemObject(uv);
  clReleaseMemObject(nv12);
  clReleaseMemObject(rgba);
  return k;
}

static void usage(void) {
  fprintf(stderr,
          "usage: external_pipeline_c [--platform NAME] [--device INDEX|UUID] [--width W] [--height H] [--frames N] [--repeats R]\n"
          "                           [--slots 2,8,32] [--kernel-iterations K] [--check-frames C]\n"
          "                           [--variants LIST] [--check-variants LIST]   (LIST: names, comma-separated:\n"
          "                           naive ahead ahead-one-submit ahead-no-ownership ahead-no-acquire ahead-lag\n"
          "                           ahead-lag-one-submit ahead-lag-host-to-vulkan ahead-lag-host-both unordered\n"
          "                           ahead-cl-events ahead-package-vk ahead-package-both ahead-package-barriers\n"
          "                           ahead-package-wait-stage)\n");
  exit(2);
}

enum { kMaxSlotCounts = 8 };

/* A comma-separated list of variant names; returns how many. */
static int parse_variants(char* list, const Variant** out) {
  int n = 0;
  for (char* name = strtok(list, ","); name; name = strtok(NULL, ",")) {
    int found = 0;
    for (int k = 0; k < kVariantCount && !found; k++)
      if (!strcmp(name, kVariants[k].name) && n < kVariantCount) out[n++] = &kVariants[k], found = 1;
    if (!found) usage();
  }
  return n;
}

int main(int argc, char** argv) {
  const char* want = "NVIDIA";
  long width = 3840, height = 2160, frames = 3000, kernel_iterations = 2000, check_frames = 400;
  int repeats = 3;
  int slot_counts[kMaxSlotCounts] = {2, 8, 32}, slot_count_n = 3;
  const Variant* variants[kVariantCount] = {&kNaiveVariant, &kAheadVariant};
  const Variant* check_variants[kVariantCount] = {&kNaiveVariant, &kAheadVariant};
  int variant_n = 2, check_variant_n = 2;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--platform") && i + 1 < argc) want = argv[++i];
    else if (!strcmp(argv[i], "--device") && i + 1 < argc) g_device_choice = argv[++i];
    else if (!strcmp(argv[i], "--width") && i + 1 < argc) width = strtol(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--height") && i + 1 < argc) height = strtol(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--frames") && i + 1 < argc) frames = strtol(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--repeats") && i + 1 < argc) repeats = (int)strtol(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--kernel-iterations") && i + 1 < argc) kernel_iterations = strtol(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--check-frames") && i + 1 < argc) check_frames = strtol(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--slots") && i + 1 < argc) {
      slot_count_n = 0;
      for (char* p = argv[++i]; *p && slot_count_n < kMaxSlotCounts;) {
        slot_counts[slot_count_n++] = (int)strtol(p, &p, 10);
        if (*p == ',') p++;
        else if (*p) usage();
      }
    } else if (!strcmp(argv[i], "--variants") && i + 1 < argc) {
      variant_n = parse_variants(argv[++i], variants);
    } else if (!strcmp(argv[i], "--check-variants") && i + 1 < argc) {
      check_variant_n = parse_variants(argv[++i], check_variants);
    } else usage();
  }
  if (frames < 1 || repeats < 1 || repeats > kMaxRepeats || kernel_iterations < 1 || check_frames < 0 || width < 4 || height < 2 || width % 4 ||
      height % 2 || (size_t)width * (size_t)height * 4 < kCheckPiece)
    usage();
  int max_slots = 0;
  for (int k = 0; k < slot_count_n; k++) {
    if (slot_counts[k] < 1 || slot_counts[k] > 256) usage();
    if (slot_counts[k] > max_slots) max_slots = slot_counts[k];
  }
  if (max_slots < 8) max_slots = 8; /* the check runs on 8 slots */

  int fds_start = count_open_fds();
  Bench* b = calloc(1, sizeof *b);
  b->width = (uint32_t)width;
  b->height = (uint32_t)height;
  b->y_size = (size_t)width * (size_t)height;
  b->uv_size = b->y_size / 2;
  b->nv12_size = b->y_size + b->uv_size;
  b->rgba_size = b->y_size * 4;
  b->global[0] = (size_t)width / 4;
  b->global[1] = (size_t)height;
  b->local[0] = 64;
  b->local[1] = 4;
  b->has_local = b->global[0] % 64 == 0 && b->global[1] % 4 == 0;
  b->use_sub_buffers = 1;

  char *platform_name = NULL, *device_name = NULL;
  open_cl(b, want, &platform_name, &device_name);
  char* driver = NULL;
  {
    size_t size = 0;
    CHECK(clGetDeviceInfo(b->device, CL_DRIVER_VERSION, 0, NULL, &size));
    driver = calloc(size + 1, 1);
    CHECK(clGetDeviceInfo(b->device, CL_DRIVER_VERSION, size, driver, NULL));
  }
  open_vk(b);
  int fds_opened = count_open_fds();

  Slot* slot = calloc((size_t)max_slots, sizeof *slot);
  for (int k = 0; k < max_slots; k++) make_slot(b, &slot[k]);
  int fds_imported = count_open_fds();
  fprintf(stderr, "OpenCL: %s / %s (driver %s); Vulkan: %s (UUID %s); %ldx%ld NV12 -> RGBA; planes as %s\n", platform_name, device_name, driver,
          b->vk_device_name, b->uuid_matched ? "matched" : "NOT matched", width, height, b->use_sub_buffers ? "sub-buffers" : "one buffer + offset");
  fprintf(stderr, "open fds: %d at start, %d with OpenCL and Vulkan open, %d after %d slots (%d fds exported)\n", fds_start, fds_opened, fds_imported,
          max_slots, 4 * max_slots);

  KernelResult kr = kernel_alone(b, &slot[0], kernel_iterations, repeats);
  fprintf(stderr,
          "kernel alone (%ld launches, median of %d): plain %.2f us (%.0f fps), imported %.2f us (%.0f fps, %+.1f%%), "
          "imported + acquire/release each %.2f us, plain again %.2f us; host: enqueue %.0f ns, acquire+release %.0f ns per frame\n",
          kernel_iterations, repeats, kr.plain_us, 1e6 / kr.plain_us, kr.imported_us, 1e6 / kr.imported_us, (kr.imported_us / kr.plain_us - 1) * 100,
          kr.imported_acquire_release_us, kr.plain_again_us, kr.enqueue_host_ns, kr.acquire_release_host_ns);

  /* Correctness first: the same frames ordered (semaphores or host waits, as
     the variant says) and not ordered at all. */
  enum { kMaxChecks = 2 * kVariantCount };
  CheckResult checks[kMaxChecks];
  int check_slots = 8, check_n = 2 * check_variant_n;
  for (int c = 0; c < check_n; c++) {
    const Variant* v = check_variants[c / 2];
    int ordered = !(c & 1);
    memset(&checks[c], 0, sizeof checks[c]);
    if (check_frames > 0) run_pipeline(b, slot, check_slots, v, check_frames, ordered, &checks[c], NULL);
    fprintf(stderr, "check %s, %d slots, %s: %ld frames, %ld with mismatches, %ld of %ld pixels wrong\n", v->name, check_slots,
            ordered ? "ordered" : "NOT ordered", checks[c].frames, checks[c].mismatched_frames, checks[c].mismatched_pixels,
            checks[c].frames * (kCheckPiece * kCheckPieces / 4));
  }

  enum { kRuns = kVariantCount * kMaxSlotCounts };
  double fps[kRuns][kMaxRepeats];
  double median_fps[kRuns];
  HostSplit split[kRuns];
  long warmup = frames / 10 < 50 ? 50 : frames / 10;
  fprintf(stderr, "\n| order | slots | frames/s (median of %d x %ld frames) | runs | host us/frame: produce, opencl, consume, fence waits |\n",
          repeats, frames);
  fprintf(stderr, "|---|---|---|---|---|\n");
  for (int k = 0; k < slot_count_n; k++) {
    for (int o = 0; o < variant_n; o++) {
      int run = k * variant_n + o;
      run_pipeline(b, slot, slot_counts[k], variants[o], warmup, 1, NULL, NULL);
      HostSplit splits[kMaxRepeats];
      for (int r = 0; r < repeats; r++) {
        uint64_t ns = run_pipeline(b, slot, slot_counts[k], variants[o], frames, 1, NULL, &splits[r]);
        fps[run][r] = (double)frames * 1e9 / (double)ns;
      }
      median_fps[run] = median_of(fps[run], repeats);
      split[run] = splits[repeats / 2];
      fprintf(stderr, "| %s | %d | %.0f | ", variants[o]->name, slot_counts[k], median_fps[run]);
      for (int r = 0; r < repeats; r++) fprintf(stderr, "%s%.0f", r ? ", " : "", fps[run][r]);
      fprintf(stderr, " | %.1f, %.1f, %.1f, %.1f |\n", split[run].produce_ns / 1e3, split[run].opencl_ns / 1e3, split[run].consume_ns / 1e3,
              split[run].wait_ns / 1e3);
    }
  }

  /* Where the OpenCL host time of a frame goes: the ahead order on 8 slots, each call timed. */
  double calls_per_frame[kCallKinds];
  {
    run_pipeline(b, slot, check_slots, &kAheadVariant, warmup, 1, NULL, NULL);
    memset(b->calls_ns, 0, sizeof b->calls_ns);
    b->time_calls = 1;
    uint64_t ns = run_pipeline(b, slot, check_slots, &kAheadVariant, frames, 1, NULL, NULL);
    b->time_calls = 0;
    fprintf(stderr, "\nOpenCL calls per frame, host time (ahead, %d slots, %ld frames at %.0f frames/s):", check_slots, frames,
            (double)frames * 1e9 / (double)ns);
    for (int k = 0; k < kCallKinds; k++) {
      calls_per_frame[k] = (double)b->calls_ns[k] / (double)frames;
      fprintf(stderr, " %s %.1f us%s", kCallNames[k], calls_per_frame[k] / 1e3, k + 1 < kCallKinds ? "," : "\n");
    }
  }

  VK_CHECK(vkDeviceWaitIdle(b->device_vk));
  for (int k = 0; k < max_slots; k++) free_slot(b, &slot[k]);
  int fds_freed = count_open_fds();
  fprintf(stderr, "open fds after freeing the slots: %d\n", fds_freed);

  printf("{\"program\":\"external_pipeline_c\",\"platform\":");
  json_string(platform_name);
  printf(",\"device\":");
  json_string(device_name);
  printf(",\"driver\":");
  json_string(driver);
  printf(",\"vulkan_device\":");
  json_string(b->vk_device_name);
  printf(",\"uuid_matched\":%s,\"width\":%ld,\"height\":%ld,\"frames\":%ld,\"repeats\":%d,\"planes\":\"%s\",", b->uuid_matched ? "true" : "false",
         width, height, frames, repeats, b->use_sub_buffers ? "sub-buffers" : "offset");
  printf(
      "\"kernel\":{\"plain_us\":%.3f,\"plain_again_us\":%.3f,\"imported_us\":%.3f,\"imported_acquire_release_us\":%.3f,\"enqueue_host_ns\":%.0f,"
      "\"acquire_release_host_ns\":%.0f},",
      kr.plain_us, kr.plain_again_us, kr.imported_us, kr.imported_acquire_release_us, kr.enqueue_host_ns, kr.acquire_release_host_ns);
  printf("\"pipeline\":[");
  for (int k = 0; k < slot_count_n; k++) {
    for (int o = 0; o < variant_n; o++) {
      int run = k * variant_n + o;
      printf("%s{\"order\":\"%s\",\"slots\":%d,\"fps\":%.1f,\"fps_runs\":[", run ? "," : "", variants[o]->name, slot_counts[k], median_fps[run]);
      for (int r = 0; r < repeats; r++) printf("%s%.1f", r ? "," : "", fps[run][r]);
      printf("],\"host_ns_per_frame\":{\"produce\":%.0f,\"opencl\":%.0f,\"consume\":%.0f,\"wait\":%.0f}}", split[run].produce_ns,
             split[run].opencl_ns, split[run].consume_ns, split[run].wait_ns);
    }
  }
  printf("],\"check\":[");
  for (int c = 0; c < check_n; c++)
    printf(
        "%s{\"order\":\"%s\",\"slots\":%d,\"ordered\":%s,\"frames\":%ld,\"mismatched_frames\":%ld,\"mismatched_pixels\":%ld,"
        "\"pixels_checked\":%ld}",
        c ? "," : "", check_variants[c / 2]->name, check_slots, c & 1 ? "false" : "true", checks[c].frames, checks[c].mismatched_frames,
        checks[c].mismatched_pixels, checks[c].frames * (kCheckPiece * kCheckPieces / 4));
  printf("],\"calls_ns\":{");
  for (int k = 0; k < kCallKinds; k++) printf("%s\"%s\":%.0f", k ? "," : "", kCallNames[k], calls_per_frame[k]);
  printf("},\"fds\":{\"start\":%d,\"opened\":%d,\"imported\":%d,\"exported\":%d,\"freed\":%d}}\n", fds_start, fds_opened, fds_imported, 4 * max_slots,
         fds_freed);

  clReleaseKernel(b->kernel);
  clReleaseCommandQueue(b->queue);
  clReleaseContext(b->context);
  vkDestroyCommandPool(b->device_vk, b->pool, NULL);
  vkDestroyDevice(b->device_vk, NULL);
  vkDestroyInstance(b->instance, NULL);
  return 0;
}
