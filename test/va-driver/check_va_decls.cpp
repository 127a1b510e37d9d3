// The addon declares the VA-API types it uses itself (native/va/decls.h) so
// that it builds without libva. This program, built against libva's own
// headers, checks those declarations: sizes, member offsets and values.
#include <va/va.h>
#include <va/va_backend.h>
#include <va/va_drmcommon.h>

#include <cstddef>
#include <cstdio>
#include <type_traits>

#include "../../native/va/decls.h"

namespace ours = ocl::va;

#define SAME_LAYOUT(Ours, Theirs) static_assert(sizeof(Ours) == sizeof(Theirs) && alignof(Ours) == alignof(Theirs), #Ours)
#define SAME_OFFSET(Ours, Theirs, member) static_assert(offsetof(Ours, member) == offsetof(Theirs, member), #Ours "::" #member)
#define SAME_OFFSET2(Ours, ours_member, Theirs, theirs_member) \
  static_assert(offsetof(Ours, ours_member) == offsetof(Theirs, theirs_member), #Ours "::" #ours_member)

SAME_LAYOUT(ours::VAImageFormat, VAImageFormat);
SAME_OFFSET(ours::VAImageFormat, VAImageFormat, alpha_mask);
SAME_LAYOUT(ours::VAImage, VAImage);
SAME_OFFSET(ours::VAImage, VAImage, buf);
SAME_OFFSET(ours::VAImage, VAImage, width);
SAME_OFFSET(ours::VAImage, VAImage, data_size);
SAME_OFFSET(ours::VAImage, VAImage, num_planes);
SAME_OFFSET(ours::VAImage, VAImage, pitches);
SAME_OFFSET(ours::VAImage, VAImage, offsets);
SAME_LAYOUT(ours::VAGenericValue, VAGenericValue);
SAME_OFFSET(ours::VAGenericValue, VAGenericValue, value);
SAME_LAYOUT(ours::VASurfaceAttrib, VASurfaceAttrib);
SAME_OFFSET(ours::VASurfaceAttrib, VASurfaceAttrib, flags);
SAME_OFFSET(ours::VASurfaceAttrib, VASurfaceAttrib, value);
SAME_LAYOUT(ours::VASurfaceAttribExternalBuffers, VASurfaceAttribExternalBuffers);
SAME_OFFSET(ours::VASurfaceAttribExternalBuffers, VASurfaceAttribExternalBuffers, pitches);
SAME_OFFSET(ours::VASurfaceAttribExternalBuffers, VASurfaceAttribExternalBuffers, offsets);
SAME_OFFSET(ours::VASurfaceAttribExternalBuffers, VASurfaceAttribExternalBuffers, buffers);
SAME_OFFSET(ours::VASurfaceAttribExternalBuffers, VASurfaceAttribExternalBuffers, num_buffers);
SAME_OFFSET(ours::VASurfaceAttribExternalBuffers, VASurfaceAttribExternalBuffers, private_data);
SAME_LAYOUT(ours::VADRMPRIMESurfaceDescriptor, VADRMPRIMESurfaceDescriptor);
SAME_OFFSET(ours::VADRMPRIMESurfaceDescriptor, VADRMPRIMESurfaceDescriptor, objects);
SAME_OFFSET(ours::VADRMPRIMESurfaceDescriptor, VADRMPRIMESurfaceDescriptor, num_layers);
SAME_OFFSET(ours::VADRMPRIMESurfaceDescriptor, VADRMPRIMESurfaceDescriptor, layers);
static_assert(sizeof(VADRMPRIMESurfaceDescriptor::objects[0]) == sizeof(ours::VADRMPRIMESurfaceDescriptor::objects[0]), "object");
static_assert(sizeof(VADRMPRIMESurfaceDescriptor::layers[0]) == sizeof(ours::VADRMPRIMESurfaceDescriptor::layers[0]), "layer");

// The leading members read to check an adopted display.
SAME_OFFSET2(ours::DisplayContextHead, vadpy_magic, VADisplayContext, vadpy_magic);
SAME_OFFSET2(ours::DisplayContextHead, pDriverContext, VADisplayContext, pDriverContext);
SAME_OFFSET2(ours::DisplayContextHead, vaIsValid, VADisplayContext, vaIsValid);
SAME_OFFSET2(ours::DriverContextHead, vtable, VADriverContext, vtable);
SAME_OFFSET2(ours::DriverContextHead, version_major, VADriverContext, version_major);
SAME_OFFSET2(ours::DriverContextHead, version_minor, VADriverContext, version_minor);
SAME_OFFSET2(ours::DriverContextHead, str_vendor, VADriverContext, str_vendor);
static_assert(sizeof(ours::DriverContextHead) <= sizeof(VADriverContext), "DriverContextHead");

static_assert(std::is_same_v<ours::VADisplay, VADisplay> && std::is_same_v<ours::VAStatus, VAStatus>, "handles");
static_assert(std::is_same_v<ours::VASurfaceID, VASurfaceID> && std::is_same_v<ours::VABufferID, VABufferID>, "ids");
static_assert(ours::kDisplayMagic == VA_DISPLAY_MAGIC, "magic");
static_assert(ours::kOperationFailed == VA_STATUS_ERROR_OPERATION_FAILED && ours::kUnimplemented == VA_STATUS_ERROR_UNIMPLEMENTED &&
                  ours::kUnsupportedMemoryType == VA_STATUS_ERROR_UNSUPPORTED_MEMORY_TYPE &&
                  ours::kInvalidParameter == VA_STATUS_ERROR_INVALID_PARAMETER && ours::kInvalidDisplay == VA_STATUS_ERROR_INVALID_DISPLAY &&
                  ours::kMaxNumExceeded == VA_STATUS_ERROR_MAX_NUM_EXCEEDED,
              "status values");
static_assert(ours::kInvalidId == VA_INVALID_ID && ours::kProfileNone == VAProfileNone && ours::kEntrypointVideoProc == VAEntrypointVideoProc, "ids");
static_assert(ours::kAttribPixelFormat == VASurfaceAttribPixelFormat && ours::kAttribMinWidth == VASurfaceAttribMinWidth &&
                  ours::kAttribMaxWidth == VASurfaceAttribMaxWidth && ours::kAttribMinHeight == VASurfaceAttribMinHeight &&
                  ours::kAttribMaxHeight == VASurfaceAttribMaxHeight && ours::kAttribMemoryType == VASurfaceAttribMemoryType &&
                  ours::kAttribExternalBufferDescriptor == VASurfaceAttribExternalBufferDescriptor,
              "attribute types");
static_assert(ours::kAttribGettable == VA_SURFACE_ATTRIB_GETTABLE && ours::kAttribSettable == VA_SURFACE_ATTRIB_SETTABLE, "flags");
static_assert(ours::kValueInteger == VAGenericValueTypeInteger && ours::kValuePointer == VAGenericValueTypePointer, "value types");
static_assert(ours::kMemTypeVa == VA_SURFACE_ATTRIB_MEM_TYPE_VA && ours::kMemTypeDrmPrime == VA_SURFACE_ATTRIB_MEM_TYPE_DRM_PRIME &&
                  ours::kMemTypeDrmPrime2 == VA_SURFACE_ATTRIB_MEM_TYPE_DRM_PRIME_2,
              "memory types");

// Entry points whose C signatures use only plain types: the same function types.
namespace ocl {
namespace va {
namespace declared {  // looked up here first: the addon's types, not libva's
#define OCL_VA_TYPE(name, ret, params) using name = ret(*) params;
OCL_VA_ENTRY_POINTS(OCL_VA_TYPE)
#undef OCL_VA_TYPE
}  // namespace declared
}  // namespace va
}  // namespace ocl
#define SAME_FUNCTION(name) static_assert(std::is_same_v<decltype(&::name), ocl::va::declared::name>, #name)
SAME_FUNCTION(vaInitialize);
SAME_FUNCTION(vaTerminate);
SAME_FUNCTION(vaDisplayIsValid);
SAME_FUNCTION(vaErrorStr);
SAME_FUNCTION(vaQueryVendorString);
SAME_FUNCTION(vaSetErrorCallback);
SAME_FUNCTION(vaSetInfoCallback);
SAME_FUNCTION(vaMaxNumProfiles);
SAME_FUNCTION(vaMaxNumEntrypoints);
SAME_FUNCTION(vaMaxNumImageFormats);
SAME_FUNCTION(vaDestroyConfig);
SAME_FUNCTION(vaDestroySurfaces);
SAME_FUNCTION(vaSyncSurface);
SAME_FUNCTION(vaDestroyImage);
SAME_FUNCTION(vaGetImage);
SAME_FUNCTION(vaPutImage);
SAME_FUNCTION(vaMapBuffer);
SAME_FUNCTION(vaUnmapBuffer);
SAME_FUNCTION(vaExportSurfaceHandle);

int main() {
  std::puts("native/va/decls.h matches libva's headers");
  return 0;
}
