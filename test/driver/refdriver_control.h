/* refdriver_control.h - control API of the opencl-interop reference driver.
 *
 * Exported from libocl_interop_refdriver.so next to the cl* entry points, so a
 * test that loaded the driver through the ICD loader can dlopen the same file
 * (or use koffi) and reach the same process state. Plain C, FFI-friendly:
 * arguments are integers, const char*, void*, uint64_t/uint32_t and pointers
 * to those. Every function returns an int status: REFDRV_OK (0) or a negative
 * REFDRV_E_* code; results come back through the *_out pointers.
 *
 * Handles: every simulated object (adapter, device, resource, VA display) is
 * returned as a void* that stands for the native pointer the extension
 * functions take (IDirect3DDevice9*, IDirect3DSurface9*, ID3D10Texture2D*,
 * VADisplay, ...). Each create function hands the caller one reference
 * (reference count 1); drop it with refdrv_release. Creating a cl_mem from a
 * resource adds a reference; destroying the cl_mem drops it. Creating a
 * context against a D3D9/D3D10 device adds a reference to the device.
 * Resources hold a reference to their device, devices to their adapter,
 * VA surfaces to their display.
 */
#ifndef REFDRIVER_CONTROL_H
#define REFDRIVER_CONTROL_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define REFDRV_API __declspec(dllexport)
#else
#define REFDRV_API __attribute__((visibility("default")))
#endif

#define REFDRV_OK 0
#define REFDRV_E_INVALID_ARG -1  /* NULL output pointer, bad enum value, zero size */
#define REFDRV_E_BAD_HANDLE -2   /* not a live simulated object, or the wrong kind */
#define REFDRV_E_RANGE -3        /* subresource / plane / level out of range, buffer too small */
#define REFDRV_E_FORMAT -4       /* format code the simulation does not know */
#define REFDRV_E_UNKNOWN_KIND -5 /* refdrv_live_objects: unknown kind name */

/* Device kinds for refdrv_d3d9_create_device. */
#define REFDRV_D3D9 0   /* IDirect3DDevice9 */
#define REFDRV_D3D9EX 1 /* IDirect3DDevice9Ex */
#define REFDRV_DXVA 2   /* IDXVAHD_Device */

/* Object kinds reported by refdrv_object_type (same numbers as ResType). */
#define REFDRV_T_D3D9_ADAPTER 1
#define REFDRV_T_D3D9_DEVICE 2
#define REFDRV_T_D3D9_SURFACE 3
#define REFDRV_T_D3D9_TEXTURE 4
#define REFDRV_T_D3D9_CUBE_TEXTURE 5
#define REFDRV_T_D3D9_VOLUME_TEXTURE 6
#define REFDRV_T_D3D9_VERTEX_BUFFER 7
#define REFDRV_T_D3D9_INDEX_BUFFER 8
#define REFDRV_T_DXGI_ADAPTER 9
#define REFDRV_T_D3D10_DEVICE 10
#define REFDRV_T_D3D10_BUFFER 11
#define REFDRV_T_D3D10_TEXTURE2D 12
#define REFDRV_T_D3D10_TEXTURE3D 13
#define REFDRV_T_D3D11_DEVICE 16
#define REFDRV_T_D3D11_BUFFER 17
#define REFDRV_T_D3D11_TEXTURE2D 18
#define REFDRV_T_D3D11_TEXTURE3D 19
#define REFDRV_T_VA_DISPLAY 14
#define REFDRV_T_VA_SURFACE 15

/* ---------------------------------------------------------------- D3D9 -- */

/* A D3D9 adapter named `name` (matched by clGetDeviceIDsFromD3D9NV with
 * CL_D3D9_ADAPTER_NAME_NV). has_cl_device=0 makes an adapter that no OpenCL
 * device of this driver can interoperate with (CL_DEVICE_NOT_FOUND, and
 * CL_INVALID_D3D9_DEVICE_NV for contexts on its devices). */
REFDRV_API int refdrv_d3d9_create_adapter(const char *name, int has_cl_device, void **adapter_out);

/* A D3D9 device of kind REFDRV_D3D9 / REFDRV_D3D9EX / REFDRV_DXVA on
 * `adapter` (NULL: the driver's default adapter "opencl-interop reference
 * adapter", which has an OpenCL device). */
REFDRV_API int refdrv_d3d9_create_device(void *adapter, int kind, void **device_out);

/* A stand-alone surface (IDirect3DSurface9*). d3dformat: D3DFORMAT code,
 * including MAKEFOURCC('N','V','1','2') and ('Y','V','1','2') (width and
 * height must then be even). pool: D3DPOOL (0 DEFAULT, 1 MANAGED,
 * 2 SYSTEMMEM, 3 SCRATCH). shared != 0 also creates a shared handle, returned
 * in *shared_handle_out (may be NULL when shared == 0). */
REFDRV_API int refdrv_d3d9_create_surface(void *device, uint32_t d3dformat, uint32_t width, uint32_t height, uint32_t pool, int shared,
                                          void **surface_out, void **shared_handle_out);

/* IDirect3DTexture9 with `levels` mip levels (0: the full chain). */
REFDRV_API int refdrv_d3d9_create_texture(void *device, uint32_t d3dformat, uint32_t width, uint32_t height, uint32_t levels, uint32_t pool,
                                          void **texture_out);

/* IDirect3DCubeTexture9, six faces of edge x edge (levels 0: full chain). */
REFDRV_API int refdrv_d3d9_create_cube_texture(void *device, uint32_t d3dformat, uint32_t edge, uint32_t levels, uint32_t pool, void **texture_out);

/* IDirect3DVolumeTexture9 (levels 0: full chain). */
REFDRV_API int refdrv_d3d9_create_volume_texture(void *device, uint32_t d3dformat, uint32_t width, uint32_t height, uint32_t depth, uint32_t levels,
                                                 uint32_t pool, void **texture_out);

/* IDirect3DVertexBuffer9 of `size` bytes. */
REFDRV_API int refdrv_d3d9_create_vertex_buffer(void *device, uint32_t size, uint32_t pool, void **buffer_out);

/* IDirect3DIndexBuffer9 of `size` bytes; d3dformat D3DFMT_INDEX16 (101) or
 * D3DFMT_INDEX32 (102). */
REFDRV_API int refdrv_d3d9_create_index_buffer(void *device, uint32_t size, uint32_t d3dformat, uint32_t pool, void **buffer_out);

/* IDirect3DTexture9::GetSurfaceLevel: a surface that is a level of a texture
 * (not stand-alone: the sharing functions that take surfaces reject it). */
REFDRV_API int refdrv_d3d9_get_surface_level(void *texture, uint32_t level, void **surface_out);

/* ------------------------------------------------------ DXGI / D3D10 -- */

/* An IDXGIAdapter*. has_cl_device as for refdrv_d3d9_create_adapter. */
REFDRV_API int refdrv_dxgi_create_adapter(const char *name, int has_cl_device, void **adapter_out);

/* An ID3D10Device* on `adapter` (NULL: the default adapter). */
REFDRV_API int refdrv_d3d10_create_device(void *adapter, void **device_out);

/* ID3D10Buffer*. usage: D3D10_USAGE (0 DEFAULT, 1 IMMUTABLE, 2 DYNAMIC, 3 STAGING). */
REFDRV_API int refdrv_d3d10_create_buffer(void *device, uint32_t size, uint32_t usage, void **buffer_out);

/* ID3D10Texture2D*: mips 0 = full chain; array_size >= 1; dxgi_format a
 * DXGI_FORMAT code; sample_count >= 1. Subresource index of (mip, slice) is
 * mip + slice * mip_levels (D3D10CalcSubresource). */
REFDRV_API int refdrv_d3d10_create_texture2d(void *device, uint32_t width, uint32_t height, uint32_t mips, uint32_t array_size, uint32_t dxgi_format,
                                             uint32_t usage, uint32_t sample_count, void **texture_out);

/* ID3D10Texture3D*: subresource index = mip level. */
REFDRV_API int refdrv_d3d10_create_texture3d(void *device, uint32_t width, uint32_t height, uint32_t depth, uint32_t mips, uint32_t dxgi_format,
                                             uint32_t usage, void **texture_out);

/* ------------------------------------------------------------- D3D11 -- */
/* Like the D3D10 calls, with ID3D11Device / ID3D11Buffer / ID3D11Texture2D /
 * ID3D11Texture3D objects (usage: D3D11_USAGE, the same values). A Texture2D of
 * DXGI_FORMAT_NV12 (103; even sizes, one mip level) has 2 * array_size
 * subresources: 2 * slice is the Y plane (R8), 2 * slice + 1 the UV plane (R8G8). */
REFDRV_API int refdrv_d3d11_create_device(void *adapter, void **device_out);
REFDRV_API int refdrv_d3d11_create_buffer(void *device, uint32_t size, uint32_t usage, void **buffer_out);
REFDRV_API int refdrv_d3d11_create_texture2d(void *device, uint32_t width, uint32_t height, uint32_t mips, uint32_t array_size, uint32_t dxgi_format,
                                             uint32_t usage, uint32_t sample_count, void **texture_out);
REFDRV_API int refdrv_d3d11_create_texture3d(void *device, uint32_t width, uint32_t height, uint32_t depth, uint32_t mips, uint32_t dxgi_format,
                                             uint32_t usage, void **texture_out);

/* ------------------------------------------------------------- VA-API -- */

/* A VADisplay. has_cl_device as for refdrv_d3d9_create_adapter. */
REFDRV_API int refdrv_va_create_display(int has_cl_device, void **display_out);

/* An NV12 VA surface on `display`: its VASurfaceID (unique per process, never
 * 0 or VA_INVALID_SURFACE) in *surface_id_out and a handle for the
 * refdrv_resource_* functions and refdrv_release in *resource_out. */
REFDRV_API int refdrv_va_create_surface(void *display, uint32_t width, uint32_t height, uint32_t *surface_id_out, void **resource_out);

/* ------------------------------------------------------------- common -- */

/* A shared handle (HANDLE) for a D3D9 surface / texture or D3D10 resource;
 * the same value every time for the same resource. */
REFDRV_API int refdrv_create_shared_handle(void *resource, void **handle_out);

/* Layout of one subresource/plane of a resource. subresource: mip level
 * (textures, D3D10 3D textures), face * levels + level (cube textures),
 * D3D10CalcSubresource (D3D10 2D textures), 0 otherwise. plane: memory-order
 * plane of planar formats (NV12: 0 Y, 1 UV; YV12: 0 Y, 1 V, 2 U), else 0.
 * Buffers report width = size in bytes, height = depth = 1. Any output
 * pointer may be NULL. */
REFDRV_API int refdrv_resource_layout(void *resource, uint32_t subresource, uint32_t plane, uint64_t *width_out, uint64_t *height_out,
                                      uint64_t *depth_out, uint64_t *bytes_per_pixel_out, uint64_t *row_pitch_out, uint64_t *slice_pitch_out,
                                      uint64_t *size_out);

/* Copy the bytes of a subresource/plane out of / into the resource's storage
 * (the same bytes a cl_mem created over it uses). packed != 0: rows of
 * width*bytes_per_pixel bytes back to back (size = that * height * depth);
 * packed == 0: the raw storage with its row pitch (size_out of
 * refdrv_resource_layout). `size` must be at least that many bytes. */
REFDRV_API int refdrv_resource_read(void *resource, uint32_t subresource, uint32_t plane, int packed, void *dst, uint64_t size);
REFDRV_API int refdrv_resource_write(void *resource, uint32_t subresource, uint32_t plane, int packed, const void *src, uint64_t size);

/* The reference count of a simulated object (COM-style). */
REFDRV_API int refdrv_refcount(void *object, uint32_t *count_out);

/* AddRef / Release on a simulated object; the new count in *count_out (may be
 * NULL). refdrv_release destroys the object when the count reaches 0. */
REFDRV_API int refdrv_add_ref(void *object, uint32_t *count_out);
REFDRV_API int refdrv_release(void *object, uint32_t *count_out);

/* REFDRV_T_* type of a simulated object. */
REFDRV_API int refdrv_object_type(void *object, int *type_out);

/* Number of live objects of a kind, or REFDRV_E_UNKNOWN_KIND. Kinds:
 * "context", "command_queue", "mem", "event", "program", "kernel",
 * "sampler", "semaphore" (OpenCL objects of this driver), "cl" (all of those),
 * "resource" (all simulated objects: adapters, devices, displays, surfaces,
 * textures, buffers), and "all" (cl + resource). The default D3D9 and DXGI
 * adapters the driver creates for itself are not counted. */
REFDRV_API int refdrv_live_objects(const char *kind);

/* Wait until every command enqueued on every queue of this driver has
 * finished (or timeout_ms passed: returns REFDRV_E_RANGE). */
REFDRV_API int refdrv_wait_idle(uint32_t timeout_ms);

/* ------------------------------------------------------------ command delays --
 * Slow commands down, so that tests can see queues overlap without a GPU. Each
 * command, once it may start (its wait list complete), is CL_RUNNING for its
 * delay before it does its work. `spec` replaces every delay set before (the
 * REFDRV_COMMAND_DELAY_US environment variable's too); it applies to commands
 * enqueued afterwards. Syntax: a comma-separated list of `class=microseconds`,
 * class one of `all` (every command), `kernel` (NDRange, task), `transfer`
 * (read / write / copy / fill / map / unmap / migrate), `acquire` (acquire and
 * release of every sharing extension and of external memory), `sync` (marker,
 * barrier, semaphore wait / signal), or a command type as a number (decimal or
 * 0x hex, CL_COMMAND_*); a bare number is `all=`. A later entry overrides an
 * earlier one for the same types; a type's own entry overrides `all`. NULL or
 * "" clears every delay. At most 60000000 us (60 s) per command. Bad syntax:
 * REFDRV_E_INVALID_ARG, nothing changed. */
REFDRV_API int refdrv_set_command_delay(const char *spec);

/* The delay (microseconds) a command of `command_type` enqueued now gets. */
REFDRV_API int refdrv_command_delay(uint32_t command_type, uint32_t *delay_us_out);

/* ------------------------------------------ external memory and semaphores --
 * (Linux.) Payloads in the shapes the driver imports (README, "External memory",
 * "Semaphores"); every fd returned is the caller's (close-on-exec). */

/* An opaque-fd memory payload of `size` bytes in lavapipe's layout: a memfd of
 * size + 4136 bytes, header {uint64 file size, uint64 4096}, the bytes at 4096. */
REFDRV_API int refdrv_create_opaque_fd_memory(uint64_t size, int *fd_out);

/* A DMA-BUF payload of `size` bytes: a memfd, the bytes at offset 0. */
REFDRV_API int refdrv_create_dma_buf(uint64_t size, int *fd_out);

/* Read / write the payload bytes of a memory fd (opaque != 0: lavapipe's layout,
 * else DMA-BUF), as the exporting API would. The fd stays the caller's. */
REFDRV_API int refdrv_payload_read(int fd, int opaque, uint64_t offset, void *dst, uint64_t size);
REFDRV_API int refdrv_payload_write(int fd, int opaque, uint64_t offset, const void *src, uint64_t size);

/* The state word of an opaque semaphore fd (clGetSemaphoreHandleForTypeKHR with
 * CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR), as another API or process sees it:
 * op -1 reads it, 0 unsignals, 1 signals; *state_out (may be NULL) gets the word
 * after the operation. The fd stays the caller's. */
REFDRV_API int refdrv_opaque_semaphore_state(int fd, int op, uint32_t *state_out);

#ifdef __cplusplus
}
#endif
#endif
