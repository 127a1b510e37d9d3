// VA-API declarations used by the VA module (va/loader.cc, display.cc,
// surface.cc). The addon builds without libva or its headers: libva is
// loaded at run time and every type here is declared from the published
// va.h / va_drmcommon.h / va_backend.h (libva 2.x ABI). The software VA
// driver's build checks these layouts against the real headers
// (test/va-driver/check_va_decls.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

namespace ocl {
namespace va {

using VADisplay = void*;
using VAStatus = int;
using VAGenericID = unsigned int;
using VASurfaceID = VAGenericID;
using VAImageID = VAGenericID;
using VABufferID = VAGenericID;
using VAConfigID = VAGenericID;
using VAProfile = int;
using VAEntrypoint = int;

constexpr VAStatus kSuccess = 0x00;
constexpr VAStatus kOperationFailed = 0x01;
constexpr VAStatus kInvalidDisplay = 0x03;
constexpr VAStatus kInvalidParameter = 0x12;
constexpr VAStatus kUnimplemented = 0x14;
constexpr VAStatus kUnsupportedMemoryType = 0x24;
constexpr VAStatus kMaxNumExceeded = 0x0b;

constexpr uint32_t kInvalidId = 0xffffffffu;
constexpr VAProfile kProfileNone = -1;
constexpr VAEntrypoint kEntrypointVideoProc = 10;

constexpr int kDisplayMagic = 0x56414430;  // "VAD0", VADisplayContext::vadpy_magic

// VASurfaceAttribType
constexpr int kAttribPixelFormat = 1;
constexpr int kAttribMinWidth = 2;
constexpr int kAttribMaxWidth = 3;
constexpr int kAttribMinHeight = 4;
constexpr int kAttribMaxHeight = 5;
constexpr int kAttribMemoryType = 6;
constexpr int kAttribExternalBufferDescriptor = 7;
constexpr uint32_t kAttribGettable = 0x1;
constexpr uint32_t kAttribSettable = 0x2;
// VAGenericValueType
constexpr int kValueInteger = 1;
constexpr int kValuePointer = 3;
// VASurfaceAttribMemoryType bits
constexpr uint32_t kMemTypeVa = 0x00000001;
constexpr uint32_t kMemTypeDrmPrime = 0x20000000;
constexpr uint32_t kMemTypeDrmPrime2 = 0x40000000;

struct VAImageFormat {
  uint32_t fourcc;
  uint32_t byte_order;
  uint32_t bits_per_pixel;
  uint32_t depth;
  uint32_t red_mask;
  uint32_t green_mask;
  uint32_t blue_mask;
  uint32_t alpha_mask;
  uint32_t va_reserved[4];
};

struct VAImage {
  VAImageID image_id;
  VAImageFormat format;
  VABufferID buf;
  uint16_t width;
  uint16_t height;
  uint32_t data_size;
  uint32_t num_planes;
  uint32_t pitches[3];
  uint32_t offsets[3];
  int32_t num_palette_entries;
  int32_t entry_bytes;
  int8_t component_order[4];
  uint32_t va_reserved[4];
};

struct VAGenericValue {
  int type;
  union {
    int32_t i;
    float f;
    void* p;
    void (*fn)(void);
  } value;
};

struct VASurfaceAttrib {
  int type;
  uint32_t flags;
  VAGenericValue value;
};

struct VASurfaceAttribExternalBuffers {
  uint32_t pixel_format;
  uint32_t width;
  uint32_t height;
  uint32_t data_size;
  uint32_t num_planes;
  uint32_t pitches[4];
  uint32_t offsets[4];
  uintptr_t* buffers;
  uint32_t num_buffers;
  uint32_t flags;
  void* private_data;
};

struct VADRMPRIMESurfaceDescriptor {
  uint32_t fourcc;
  uint32_t width;
  uint32_t height;
  uint32_t num_objects;
  struct {
    int fd;
    uint32_t size;
    uint64_t drm_format_modifier;
  } objects[4];
  uint32_t num_layers;
  struct {
    uint32_t drm_format;
    uint32_t num_planes;
    uint32_t object_index[4];
    uint32_t offset[4];
    uint32_t pitch[4];
  } layers[4];
};

// The leading members of libva's VADisplayContext (what a VADisplay points
// to) and VADriverContext: read (never written) to tell a live, initialized
// display from any other address before libva is handed it.
struct DisplayContextHead {
  int vadpy_magic;
  void* pNext;
  void* pDriverContext;
  int (*vaIsValid)(void* ctx);
};
struct DriverContextHead {
  void* pDriverData;
  void* vtable;
  void* vtable_glx;
  void* vtable_egl;
  void* vtable_tpi;
  void* native_dpy;
  int x11_screen;
  int version_major;
  int version_minor;
  int max_profiles;
  int max_entrypoints;
  int max_attributes;
  int max_image_formats;
  int max_subpic_formats;
  int max_display_attributes;
  const char* str_vendor;
};

using VAMessageCallback = void (*)(void* user_context, const char* message);

// Entry points of libva.so.2: X(name, return type, parameter list).
#define OCL_VA_ENTRY_POINTS(X)                                                                                                 \
  X(vaInitialize, VAStatus, (VADisplay, int*, int*))                                                                           \
  X(vaTerminate, VAStatus, (VADisplay))                                                                                        \
  X(vaDisplayIsValid, int, (VADisplay))                                                                                        \
  X(vaErrorStr, const char*, (VAStatus))                                                                                       \
  X(vaQueryVendorString, const char*, (VADisplay))                                                                             \
  X(vaSetErrorCallback, VAMessageCallback, (VADisplay, VAMessageCallback, void*))                                              \
  X(vaSetInfoCallback, VAMessageCallback, (VADisplay, VAMessageCallback, void*))                                               \
  X(vaMaxNumProfiles, int, (VADisplay))                                                                                        \
  X(vaMaxNumEntrypoints, int, (VADisplay))                                                                                     \
  X(vaMaxNumImageFormats, int, (VADisplay))                                                                                    \
  X(vaQueryConfigProfiles, VAStatus, (VADisplay, VAProfile*, int*))                                                            \
  X(vaQueryConfigEntrypoints, VAStatus, (VADisplay, VAProfile, VAEntrypoint*, int*))                                           \
  X(vaCreateConfig, VAStatus, (VADisplay, VAProfile, VAEntrypoint, void*, int, VAConfigID*))                                   \
  X(vaDestroyConfig, VAStatus, (VADisplay, VAConfigID))                                                                        \
  X(vaQuerySurfaceAttributes, VAStatus, (VADisplay, VAConfigID, VASurfaceAttrib*, unsigned*))                                  \
  X(vaQueryImageFormats, VAStatus, (VADisplay, VAImageFormat*, int*))                                                          \
  X(vaCreateSurfaces, VAStatus, (VADisplay, unsigned, unsigned, unsigned, VASurfaceID*, unsigned, VASurfaceAttrib*, unsigned)) \
  X(vaDestroySurfaces, VAStatus, (VADisplay, VASurfaceID*, int))                                                               \
  X(vaSyncSurface, VAStatus, (VADisplay, VASurfaceID))                                                                         \
  X(vaQuerySurfaceStatus, VAStatus, (VADisplay, VASurfaceID, int*))                                                            \
  X(vaDeriveImage, VAStatus, (VADisplay, VASurfaceID, VAImage*))                                                               \
  X(vaCreateImage, VAStatus, (VADisplay, VAImageFormat*, int, int, VAImage*))                                                  \
  X(vaDestroyImage, VAStatus, (VADisplay, VAImageID))                                                                          \
  X(vaGetImage, VAStatus, (VADisplay, VASurfaceID, int, int, unsigned, unsigned, VAImageID))                                   \
  X(vaPutImage, VAStatus, (VADisplay, VASurfaceID, VAImageID, int, int, unsigned, unsigned, int, int, unsigned, unsigned))     \
  X(vaMapBuffer, VAStatus, (VADisplay, VABufferID, void**))                                                                    \
  X(vaUnmapBuffer, VAStatus, (VADisplay, VABufferID))                                                                          \
  X(vaExportSurfaceHandle, VAStatus, (VADisplay, VASurfaceID, uint32_t, uint32_t, void*))                                      \
  X(vaProfileStr, const char*, (VAProfile))                                                                                    \
  X(vaEntrypointStr, const char*, (VAEntrypoint))

}  // namespace va
}  // namespace ocl
