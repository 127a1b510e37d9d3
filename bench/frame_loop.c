/*
 * frame_loop_c: the cost of one video frame through cl_intel_va_api_media_sharing,
 * made straight from C. bench/frame-loop.mjs runs the same loop through the
 * Node package on the same platform, VA display and surface size, and prints
 * both side by side.
 *
 *   frame_loop_c [--platform NAME] [--x11-display NAME] [--width W] [--height H]
 *                [--iterations N] [--repeats R] [--only SEQUENCE]
 *
 * The VA display is libva's X11 display on --x11-display (default $DISPLAY);
 * libva picks its driver as usual (LIBVA_DRIVER_NAME, LIBVA_DRIVERS_PATH).
 * --platform (default "opencl-interop reference"): a substring of the name of
 * the OpenCL platform to use. Prints one JSON object on stdout.
 *
 * One NV12 VA surface W x H; its planes as two CL images (plane 0: Y, CL_R
 * W x H; plane 1: UV, CL_RG W/2 x H/2); an RGBA UNORM_INT8 output image; the
 * kernel nv12_to_rgba(y, uv, rgba) over W x H (built in on the reference
 * driver, which has no compiler; built from kNv12ToRgbaSource elsewhere).
 * One frame:
 *   clEnqueueAcquireVA_APIMediaSurfacesINTEL(y, uv; event)
 *   clSetKernelArg x3 (y, uv, rgba)
 *   clEnqueueNDRangeKernel(event) + clReleaseEvent
 *   clEnqueueReleaseVA_APIMediaSurfacesINTEL(y, uv; event) + clFlush
 *   wait for the release's event, then clReleaseEvent (acquire, release)
 * Sequences (N frames each, after max(50, N/10) warm-up frames):
 *   frame_wait_ns     the wait is clWaitForEvents
 *   frame_epoll_ns    the wait is an event loop's: clSetEventCallback(CL_COMPLETE)
 *                     writes an eventfd, the thread sleeps in epoll_wait
 *   frame_create_ns   as frame_wait_ns, and each frame also creates the two
 *                     plane images (clCreateFromVA_APIMediaSurfaceINTEL) and
 *                     releases them at the end (clReleaseMemObject)
 */
#define _POSIX_C_SOURCE 200809L
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS

#define BENCH_PROGRAM "frame_loop_c"
#include "bench_common.h"

#include <CL/cl_va_api_media_sharing_intel.h>
#include <X11/Xlib.h>
#include <va/va.h>
#include <va/va_x11.h>

/* Keep identical to NV12_TO_RGBA_SOURCE in bench/frame-loop.mjs (it checks). */
static const char kNv12ToRgbaSource[] =
    "__kernel void nv12_to_rgba(read_only image2d_t y, read_only image2d_t uv, write_only image2d_t rgba) {\n"
    "  const sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;\n"
    "  int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
    "  float luma = read_imagef(y, nearest, p).x - 16.0f / 255.0f;\n"
    "  float2 chroma = read_imagef(uv, nearest, p / 2).xy - 0.5f;\n"
    "  float4 rgb = (float4)(1.164f * luma + 1.596f * chroma.y,\n"
    "                        1.164f * luma - 0.392f * chroma.x - 0.813f * chroma.y,\n"
    "                        1.164f * luma + 2.017f * chroma.x, 1.0f);\n"
    "  write_imagef(rgba, p, clamp(rgb, 0.0f, 1.0f));\n"
    "}\n";

typedef struct {
  clCreateFromVA_APIMediaSurfaceINTEL_fn create_from_surface;
  clEnqueueAcquireVA_APIMediaSurfacesINTEL_fn acquire;
  clEnqueueReleaseVA_APIMediaSurfacesINTEL_fn release;
  cl_context context;
  cl_command_queue queue;
  cl_kernel kernel;
  VASurfaceID surface;
  cl_mem planes[2];
  cl_mem rgba;
  size_t global[2];
} Frame;

static void create_planes(Frame* f) {
  for (cl_uint plane = 0; plane < 2; plane++) {
    cl_int err;
    f->planes[plane] = f->create_from_surface(f->context, CL_MEM_READ_ONLY, &f->surface, plane, &err);
    CHECK(err);
  }
}

static void release_planes(Frame* f) {
  CHECK(clReleaseMemObject(f->planes[0]));
  CHECK(clReleaseMemObject(f->planes[1]));
}

/* Everything up to the wait; returns the acquire's and the release's events. */
static void enqueue_frame(Frame* f, cl_event* acquired, cl_event* released) {
  cl_event ran;
  CHECK(f->acquire(f->queue, 2, f->planes, 0, NULL, acquired));
  CHECK(clSetKernelArg(f->kernel, 0, sizeof(cl_mem), &f->planes[0]));
  CHECK(clSetKernelArg(f->kernel, 1, sizeof(cl_mem), &f->planes[1]));
  CHECK(clSetKernelArg(f->kernel, 2, sizeof(cl_mem), &f->rgba));
  CHECK(clEnqueueNDRangeKernel(f->queue, f->kernel, 2, NULL, f->global, NULL, 0, NULL, &ran));
  CHECK(clReleaseEvent(ran));
  CHECK(f->release(f->queue, 2, f->planes, 0, NULL, released));
  CHECK(clFlush(f->queue));
}

static void end_frame(cl_event acquired, cl_event released) {
  CHECK(clReleaseEvent(acquired));
  CHECK(clReleaseEvent(released));
}

static void seq_frame_wait(Frame* f, long n) {
  for (long i = 0; i < n; i++) {
    cl_event acquired, released;
    enqueue_frame(f, &acquired, &released);
    CHECK(clWaitForEvents(1, &released));
    end_frame(acquired, released);
  }
}

static void seq_frame_epoll(Frame* f, long n) {
  Loop loop;
  loop_open(&loop);
  for (long i = 0; i < n; i++) {
    cl_event acquired, released;
    enqueue_frame(f, &acquired, &released);
    CHECK(clSetEventCallback(released, CL_COMPLETE, on_complete_wake, &loop));
    loop_sleep(&loop);
    if (loop.status < 0) die("the frame (release event's status)", loop.status);
    end_frame(acquired, released);
  }
  loop_close(&loop);
}

static void seq_frame_create(Frame* f, long n) {
  release_planes(f);
  for (long i = 0; i < n; i++) {
    cl_event acquired, released;
    create_planes(f);
    enqueue_frame(f, &acquired, &released);
    CHECK(clWaitForEvents(1, &released));
    end_frame(acquired, released);
    release_planes(f);
  }
  create_planes(f);
}

typedef struct {
  const char* key;
  void (*run)(Frame*, long);
} Sequence;

static void usage(void) {
  fprintf(stderr,
          "usage: frame_loop_c [--platform NAME] [--x11-display NAME] [--width W] [--height H] [--iterations N] [--repeats R] "
          "[--only SEQUENCE]\n");
  exit(2);
}

static void* extension_function(cl_platform_id platform, const char* name) {
  void* fn = clGetExtensionFunctionAddressForPlatform(platform, name);
  if (!fn) {
    fprintf(stderr, "frame_loop_c: the platform has no %s (cl_intel_va_api_media_sharing)\n", name);
    exit(1);
  }
  return fn;
}

static VADisplay open_va_display(const char* x11_name, Display** x11_out) {
  Display* x11 = XOpenDisplay(x11_name);
  if (!x11) {
    fprintf(stderr, "frame_loop_c: cannot open X11 display %s\n", x11_name ? x11_name : "($DISPLAY)");
    exit(1);
  }
  VADisplay va = vaGetDisplay(x11);
  int major, minor;
  VAStatus status = va ? vaInitialize(va, &major, &minor) : VA_STATUS_ERROR_INVALID_DISPLAY;
  if (status != VA_STATUS_SUCCESS) {
    fprintf(stderr, "frame_loop_c: vaInitialize failed: %s\n", vaErrorStr(status));
    exit(1);
  }
  *x11_out = x11;
  return va;
}

static VASurfaceID create_nv12_surface(VADisplay va, unsigned width, unsigned height) {
  VASurfaceAttrib format = {.type = VASurfaceAttribPixelFormat, .flags = VA_SURFACE_ATTRIB_SETTABLE};
  format.value.type = VAGenericValueTypeInteger;
  format.value.value.i = VA_FOURCC_NV12;
  VASurfaceID surface;
  VAStatus status = vaCreateSurfaces(va, VA_RT_FORMAT_YUV420, width, height, &surface, 1, &format, 1);
  if (status != VA_STATUS_SUCCESS) {
    fprintf(stderr, "frame_loop_c: vaCreateSurfaces (NV12 %ux%u) failed: %s\n", width, height, vaErrorStr(status));
    exit(1);
  }
  return surface;
}

static cl_program nv12_program(cl_context context, cl_device_id device) {
  cl_bool compiler = CL_FALSE;
  cl_int err;
  CHECK(clGetDeviceInfo(device, CL_DEVICE_COMPILER_AVAILABLE, sizeof compiler, &compiler, NULL));
  if (!compiler) {
    cl_program program = clCreateProgramWithBuiltInKernels(context, 1, &device, "nv12_to_rgba", &err);
    CHECK(err);
    return program;
  }
  const char* source = kNv12ToRgbaSource;
  cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
  CHECK(err);
  CHECK(clBuildProgram(program, 1, &device, "", NULL, NULL));
  return program;
}

int main(int argc, char** argv) {
  const char* want = "opencl-interop reference";
  const char* x11_name = NULL;
  long iterations = 2000, width = 64, height = 64;
  int repeats = 5;
  const char* only = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--platform") && i + 1 < argc) want = argv[++i];
    else if (!strcmp(argv[i], "--x11-display") && i + 1 < argc) x11_name = argv[++i];
    else if (!strcmp(argv[i], "--width") && i + 1 < argc) width = strtol(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--height") && i + 1 < argc) height = strtol(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--iterations") && i + 1 < argc) iterations = strtol(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--repeats") && i + 1 < argc) repeats = (int)strtol(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
    else usage();
  }
  if (iterations < 1 || repeats < 1 || repeats > kMaxRepeats || width < 2 || height < 2 || width % 2 || height % 2) usage();

  Display* x11;
  VADisplay va = open_va_display(x11_name, &x11);
  Frame* f = calloc(1, sizeof *f);
  f->surface = create_nv12_surface(va, (unsigned)width, (unsigned)height);
  f->global[0] = (size_t)width;
  f->global[1] = (size_t)height;

  char* platform_name = NULL;
  cl_platform_id platform = find_platform(want, &platform_name);
  clGetDeviceIDsFromVA_APIMediaAdapterINTEL_fn devices_from_va =
      (clGetDeviceIDsFromVA_APIMediaAdapterINTEL_fn)extension_function(platform, "clGetDeviceIDsFromVA_APIMediaAdapterINTEL");
  f->create_from_surface = (clCreateFromVA_APIMediaSurfaceINTEL_fn)extension_function(platform, "clCreateFromVA_APIMediaSurfaceINTEL");
  f->acquire = (clEnqueueAcquireVA_APIMediaSurfacesINTEL_fn)extension_function(platform, "clEnqueueAcquireVA_APIMediaSurfacesINTEL");
  f->release = (clEnqueueReleaseVA_APIMediaSurfacesINTEL_fn)extension_function(platform, "clEnqueueReleaseVA_APIMediaSurfacesINTEL");

  /* The preferred devices, else any that can share (as the binding's createContext). */
  cl_device_id device;
  cl_uint found = 0;
  cl_int err = devices_from_va(platform, CL_VA_API_DISPLAY_INTEL, va, CL_PREFERRED_DEVICES_FOR_VA_API_INTEL, 1, &device, &found);
  if (err == CL_DEVICE_NOT_FOUND || found == 0) {
    err = devices_from_va(platform, CL_VA_API_DISPLAY_INTEL, va, CL_ALL_DEVICES_FOR_VA_API_INTEL, 1, &device, &found);
  }
  CHECK(err);
  char* device_name = device_string(device, CL_DEVICE_NAME);

  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, CL_CONTEXT_VA_API_DISPLAY_INTEL, (cl_context_properties)va,
                                   0};
  f->context = clCreateContext(props, 1, &device, NULL, NULL, &err);
  CHECK(err);
  f->queue = clCreateCommandQueue(f->context, device, 0, &err);
  CHECK(err);
  cl_program program = nv12_program(f->context, device);
  f->kernel = clCreateKernel(program, "nv12_to_rgba", &err);
  CHECK(err);
  cl_image_format rgba_format = {CL_RGBA, CL_UNORM_INT8};
  cl_image_desc rgba_desc = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = (size_t)width, .image_height = (size_t)height};
  f->rgba = clCreateImage(f->context, CL_MEM_WRITE_ONLY, &rgba_format, &rgba_desc, NULL, &err);
  CHECK(err);
  create_planes(f);

  const Sequence sequences[] = {
      {"frame_wait_ns", seq_frame_wait},
      {"frame_epoll_ns", seq_frame_epoll},
      {"frame_create_ns", seq_frame_create},
  };
  enum { kSequences = sizeof sequences / sizeof sequences[0] };
  double samples[kSequences][kMaxRepeats];
  double medians[kSequences];
  long warmup = iterations / 10 < 50 ? 50 : iterations / 10;

  for (int s = 0; s < kSequences; s++) {
    medians[s] = 0;
    if (only && strcmp(only, sequences[s].key)) continue; /* --only: one sequence (instruction counts) */
    sequences[s].run(f, warmup);
    for (int r = 0; r < repeats; r++) {
      uint64_t t0 = now_ns();
      sequences[s].run(f, iterations);
      samples[s][r] = (double)(now_ns() - t0) / (double)iterations;
    }
    medians[s] = median_of(samples[s], repeats);
  }

  printf("{\"platform\": ");
  json_string(platform_name);
  printf(", \"device\": ");
  json_string(device_name);
  printf(", \"va_vendor\": ");
  json_string(vaQueryVendorString(va));
  printf(", \"width\": %ld, \"height\": %ld, \"iterations\": %ld, \"repeats\": %d, \"warmup\": %ld, \"kernel\": ", width, height, iterations, repeats,
         warmup);
  json_string(kNv12ToRgbaSource);
  printf(", \"results\": {");
  for (int s = 0; s < kSequences; s++) printf("%s\"%s\": %.1f", s ? ", " : "", sequences[s].key, medians[s]);
  printf("}, \"samples\": {");
  for (int s = 0; s < kSequences; s++) {
    printf("%s\"%s\": [", s ? ", " : "", sequences[s].key);
    for (int r = 0; r < repeats && !(only && strcmp(only, sequences[s].key)); r++) printf("%s%.1f", r ? ", " : "", samples[s][r]);
    printf("]");
  }
  printf("}}\n");

  release_planes(f);
  clReleaseMemObject(f->rgba);
  clReleaseKernel(f->kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(f->queue);
  clReleaseContext(f->context);
  vaDestroySurfaces(va, &f->surface, 1);
  vaTerminate(va);
  XCloseDisplay(x11);
  free(f);
  free(device_name);
  free(platform_name);
  return 0;
}
