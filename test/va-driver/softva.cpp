// softva: a software VA-API driver (a libva backend module) for the tests.
//
// The real libva loads it as ocl_interop_softva_drv_video.so when
// LIBVA_DRIVER_NAME=ocl_interop_softva and LIBVA_DRIVERS_PATH names the
// folder it was built into. Surfaces live in host memory: each allocated
// surface is one memfd (so it can be exported as a DRM PRIME descriptor and
// mmapped by whoever imports it), and imported surfaces are mmaps of the file
// descriptors they were given. There is no decoding or encoding: one profile
// (VAProfileNone) with one entrypoint (VAEntrypointVideoProc), surfaces,
// images, buffers, derive/put/get, export and import.
//
// Test switches (read at vaInitialize):
//   SOFTVA_NO_DERIVE=1   vaDeriveImage answers VA_STATUS_ERROR_OPERATION_FAILED,
//                        as drivers do for surfaces they cannot map directly,
//                        so callers must use vaCreateImage + vaGetImage/vaPutImage.
//   SOFTVA_NO_EXPORT=1   vaExportSurfaceHandle is VA_STATUS_ERROR_UNIMPLEMENTED.
//
// Errors are reported through the driver context's error callback (libva
// routes them to vaSetErrorCallback), one sentence each, so a caller can say
// why a call failed and not just which status it returned.
#include <va/va.h>
#include <va/va_backend.h>
#include <va/va_drmcommon.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace {

constexpr uint32_t FourCC(char a, char b, char c, char d) {
  return uint32_t(uint8_t(a)) | (uint32_t(uint8_t(b)) << 8) | (uint32_t(uint8_t(c)) << 16) | (uint32_t(uint8_t(d)) << 24);
}

// One plane of a format: bytes per (sub-sampled) pixel and the sub-sampling.
struct PlaneShape {
  uint32_t bytes;   // bytes per element of this plane
  uint32_t sx, sy;  // horizontal / vertical sub-sampling
};

struct Format {
  uint32_t fourcc;
  uint32_t rt;        // VA_RT_FORMAT_*
  uint32_t bits;      // VAImageFormat.bits_per_pixel
  uint32_t depth;     // RGB: significant bits
  uint32_t masks[4];  // RGB: red, green, blue, alpha (byte order VA_LSB_FIRST)
  uint32_t drm;       // DRM fourcc of the whole surface (composed layer)
  uint32_t num_planes;
  PlaneShape planes[3];
  uint32_t plane_drm[3];  // DRM fourcc of each plane (separate layers)
};

const uint32_t kR8 = FourCC('R', '8', ' ', ' '), kGR88 = FourCC('G', 'R', '8', '8');
const uint32_t kR16 = FourCC('R', '1', '6', ' '), kGR1616 = FourCC('G', 'R', '3', '2');

const Format kFormats[] = {
    {VA_FOURCC_NV12, VA_RT_FORMAT_YUV420, 12, 0, {0, 0, 0, 0}, FourCC('N', 'V', '1', '2'), 2, {{1, 1, 1}, {2, 2, 2}}, {kR8, kGR88}},
    {VA_FOURCC_P010, VA_RT_FORMAT_YUV420_10, 24, 0, {0, 0, 0, 0}, FourCC('P', '0', '1', '0'), 2, {{2, 1, 1}, {4, 2, 2}}, {kR16, kGR1616}},
    {VA_FOURCC_YV12, VA_RT_FORMAT_YUV420, 12, 0, {0, 0, 0, 0}, FourCC('Y', 'V', '1', '2'), 3, {{1, 1, 1}, {1, 2, 2}, {1, 2, 2}}, {kR8, kR8, kR8}},
    {VA_FOURCC_I420, VA_RT_FORMAT_YUV420, 12, 0, {0, 0, 0, 0}, FourCC('Y', 'U', '1', '2'), 3, {{1, 1, 1}, {1, 2, 2}, {1, 2, 2}}, {kR8, kR8, kR8}},
    {VA_FOURCC_BGRA,
     VA_RT_FORMAT_RGB32,
     32,
     32,
     {0x00ff0000, 0x0000ff00, 0x000000ff, 0xff000000},
     FourCC('A', 'R', '2', '4'),
     1,
     {{4, 1, 1}},
     {FourCC('A', 'R', '2', '4')}},
    {VA_FOURCC_BGRX,
     VA_RT_FORMAT_RGB32,
     32,
     24,
     {0x00ff0000, 0x0000ff00, 0x000000ff, 0},
     FourCC('X', 'R', '2', '4'),
     1,
     {{4, 1, 1}},
     {FourCC('X', 'R', '2', '4')}},
    {VA_FOURCC_RGBA,
     VA_RT_FORMAT_RGB32,
     32,
     32,
     {0x000000ff, 0x0000ff00, 0x00ff0000, 0xff000000},
     FourCC('A', 'B', '2', '4'),
     1,
     {{4, 1, 1}},
     {FourCC('A', 'B', '2', '4')}},
    {VA_FOURCC_RGBX,
     VA_RT_FORMAT_RGB32,
     32,
     24,
     {0x000000ff, 0x0000ff00, 0x00ff0000, 0},
     FourCC('X', 'B', '2', '4'),
     1,
     {{4, 1, 1}},
     {FourCC('X', 'B', '2', '4')}},
};
constexpr int kNumFormats = sizeof(kFormats) / sizeof(kFormats[0]);

const Format *FindFormat(uint32_t fourcc) {
  for (const Format &f : kFormats)
    if (f.fourcc == fourcc) return &f;
  return nullptr;
}
const Format *DefaultFormat(uint32_t rt) {
  switch (rt) {
    case VA_RT_FORMAT_YUV420: return FindFormat(VA_FOURCC_NV12);
    case VA_RT_FORMAT_YUV420_10: return FindFormat(VA_FOURCC_P010);
    case VA_RT_FORMAT_RGB32: return FindFormat(VA_FOURCC_BGRA);
    default: return nullptr;
  }
}

uint32_t PlaneRowBytes(const Format &f, uint32_t p, uint32_t width) { return (width + f.planes[p].sx - 1) / f.planes[p].sx * f.planes[p].bytes; }
uint32_t PlaneRows(const Format &f, uint32_t p, uint32_t height) { return (height + f.planes[p].sy - 1) / f.planes[p].sy; }

// A memory object: a memfd the driver made, or an mmap of an imported fd.
struct Memory {
  int fd = -1;
  uint8_t *base = nullptr;
  size_t size = 0;
  std::vector<uint8_t> heap;  // images made by vaCreateImage live here instead
  ~Memory() {
    if (base && heap.empty()) munmap(base, size);
    if (fd >= 0) close(fd);
  }
};

struct PlaneRef {
  std::shared_ptr<Memory> memory;
  uint32_t offset = 0, pitch = 0;
};

struct Surface {
  const Format *format = nullptr;
  uint32_t width = 0, height = 0;
  PlaneRef planes[3];
  bool imported = false;
  int derived = 0;  // live images derived from it
};

struct Buffer {
  uint32_t type = 0;
  uint32_t size = 0, elements = 1;
  std::shared_ptr<Memory> memory;
  uint8_t *data = nullptr;
  int mapped = 0;
};

struct Image {
  VAImage image{};
  VASurfaceID derived_from = VA_INVALID_SURFACE;
};

struct Config {
  VAProfile profile;
  VAEntrypoint entrypoint;
};

struct Driver {
  std::mutex lock;
  uint32_t next_id = 1;
  std::map<VASurfaceID, Surface> surfaces;
  std::map<VABufferID, Buffer> buffers;
  std::map<VAImageID, Image> images;
  std::map<VAConfigID, Config> configs;
  bool no_derive = false, no_export = false;
};

Driver *D(VADriverContextP ctx) { return static_cast<Driver *>(ctx->pDriverData); }

// Reports why a call failed through libva's error callback and returns status.
VAStatus Fail(VADriverContextP ctx, VAStatus status, const char *format, ...) {
  char message[512];
  va_list args;
  va_start(args, format);
  int n = vsnprintf(message, sizeof(message) - 2, format, args);
  va_end(args);
  if (n < 0) n = 0;
  if (n > int(sizeof(message)) - 2) n = sizeof(message) - 2;
  message[n] = '\n';
  message[n + 1] = 0;
  if (ctx->error_callback) ctx->error_callback(ctx, message);
  return status;
}

// A surface's memory: sealed at its size, as a real DMA-BUF cannot shrink or
// grow (an importer or a script truncating it would make the driver's own
// mapping fault with SIGBUS).
std::shared_ptr<Memory> NewMemfd(size_t size) {
  int fd = memfd_create("softva-surface", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) return nullptr;
  if (ftruncate(fd, off_t(size)) != 0 || fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) {
    int error = errno;
    close(fd);
    errno = error;
    return nullptr;
  }
  void *base = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (base == MAP_FAILED) {
    close(fd);
    return nullptr;
  }
  auto memory = std::make_shared<Memory>();
  memory->fd = fd;
  memory->base = static_cast<uint8_t *>(base);
  memory->size = size;
  return memory;
}

// Plane layout of a new allocation: rows padded to 64 bytes, planes back to back.
size_t Layout(const Format &f, uint32_t width, uint32_t height, uint32_t pitches[3], uint32_t offsets[3]) {
  size_t offset = 0;
  for (uint32_t p = 0; p < f.num_planes; ++p) {
    pitches[p] = (PlaneRowBytes(f, p, width) + 63u) & ~63u;
    offsets[p] = uint32_t(offset);
    offset += size_t(pitches[p]) * PlaneRows(f, p, height);
  }
  return offset;
}

uint32_t NewId(Driver *d) { return d->next_id++; }

// ------------------------------------------------------------ configs --
VAStatus QueryConfigProfiles(VADriverContextP, VAProfile *list, int *count) {
  list[0] = VAProfileNone;
  *count = 1;
  return VA_STATUS_SUCCESS;
}

VAStatus QueryConfigEntrypoints(VADriverContextP, VAProfile profile, VAEntrypoint *list, int *count) {
  if (profile != VAProfileNone) return VA_STATUS_ERROR_UNSUPPORTED_PROFILE;
  list[0] = VAEntrypointVideoProc;
  *count = 1;
  return VA_STATUS_SUCCESS;
}

VAStatus CheckProfile(VAProfile profile, VAEntrypoint entrypoint) {
  if (profile != VAProfileNone) return VA_STATUS_ERROR_UNSUPPORTED_PROFILE;
  if (entrypoint != VAEntrypointVideoProc) return VA_STATUS_ERROR_UNSUPPORTED_ENTRYPOINT;
  return VA_STATUS_SUCCESS;
}

constexpr uint32_t kRtFormats = VA_RT_FORMAT_YUV420 | VA_RT_FORMAT_YUV420_10 | VA_RT_FORMAT_RGB32;

VAStatus GetConfigAttributes(VADriverContextP, VAProfile profile, VAEntrypoint entrypoint, VAConfigAttrib *list, int count) {
  if (VAStatus s = CheckProfile(profile, entrypoint)) return s;
  for (int i = 0; i < count; ++i) list[i].value = list[i].type == VAConfigAttribRTFormat ? kRtFormats : VA_ATTRIB_NOT_SUPPORTED;
  return VA_STATUS_SUCCESS;
}

VAStatus CreateConfig(VADriverContextP ctx, VAProfile profile, VAEntrypoint entrypoint, VAConfigAttrib *, int, VAConfigID *id) {
  if (VAStatus s = CheckProfile(profile, entrypoint)) return s;
  Driver *d = D(ctx);
  std::lock_guard<std::mutex> guard(d->lock);
  *id = NewId(d);
  d->configs[*id] = {profile, entrypoint};
  return VA_STATUS_SUCCESS;
}

VAStatus DestroyConfig(VADriverContextP ctx, VAConfigID id) {
  Driver *d = D(ctx);
  std::lock_guard<std::mutex> guard(d->lock);
  return d->configs.erase(id) ? VA_STATUS_SUCCESS : VA_STATUS_ERROR_INVALID_CONFIG;
}

VAStatus QueryConfigAttributes(VADriverContextP ctx, VAConfigID id, VAProfile *profile, VAEntrypoint *entrypoint, VAConfigAttrib *list, int *count) {
  Driver *d = D(ctx);
  std::lock_guard<std::mutex> guard(d->lock);
  auto it = d->configs.find(id);
  if (it == d->configs.end()) return VA_STATUS_ERROR_INVALID_CONFIG;
  *profile = it->second.profile;
  *entrypoint = it->second.entrypoint;
  list[0].type = VAConfigAttribRTFormat;
  list[0].value = kRtFormats;
  *count = 1;
  return VA_STATUS_SUCCESS;
}

VAStatus QuerySurfaceAttributes(VADriverContextP ctx, VAConfigID config, VASurfaceAttrib *list, unsigned *count) {
  {
    Driver *d = D(ctx);
    std::lock_guard<std::mutex> guard(d->lock);
    if (!d->configs.count(config)) return VA_STATUS_ERROR_INVALID_CONFIG;
  }
  std::vector<VASurfaceAttrib> attribs;
  auto add = [&](VASurfaceAttribType type, uint32_t flags, int32_t value) {
    VASurfaceAttrib a{};
    a.type = type;
    a.flags = flags;
    a.value.type = VAGenericValueTypeInteger;
    a.value.value.i = value;
    attribs.push_back(a);
  };
  for (const Format &f : kFormats) add(VASurfaceAttribPixelFormat, VA_SURFACE_ATTRIB_GETTABLE | VA_SURFACE_ATTRIB_SETTABLE, int32_t(f.fourcc));
  add(VASurfaceAttribMinWidth, VA_SURFACE_ATTRIB_GETTABLE, 1);
  add(VASurfaceAttribMinHeight, VA_SURFACE_ATTRIB_GETTABLE, 1);
  add(VASurfaceAttribMaxWidth, VA_SURFACE_ATTRIB_GETTABLE, 16384);
  add(VASurfaceAttribMaxHeight, VA_SURFACE_ATTRIB_GETTABLE, 16384);
  add(VASurfaceAttribMemoryType, VA_SURFACE_ATTRIB_GETTABLE | VA_SURFACE_ATTRIB_SETTABLE,
      int32_t(VA_SURFACE_ATTRIB_MEM_TYPE_VA | VA_SURFACE_ATTRIB_MEM_TYPE_DRM_PRIME | VA_SURFACE_ATTRIB_MEM_TYPE_DRM_PRIME_2));
  VASurfaceAttrib external{};
  external.type = VASurfaceAttribExternalBufferDescriptor;
  external.flags = VA_SURFACE_ATTRIB_SETTABLE;
  external.value.type = VAGenericValueTypePointer;
  attribs.push_back(external);
  if (!list) {
    *count = unsigned(attribs.size());
    return VA_STATUS_SUCCESS;
  }
  if (*count < attribs.size()) {
    *count = unsigned(attribs.size());
    return VA_STATUS_ERROR_MAX_NUM_EXCEEDED;
  }
  std::memcpy(list, attribs.data(), attribs.size() * sizeof(VASurfaceAttrib));
  *count = unsigned(attribs.size());
  return VA_STATUS_SUCCESS;
}

// ----------------------------------------------------------- surfaces --
// Maps fd [0, size) for an import; size 0 means the whole file.
VAStatus MapImported(VADriverContextP ctx, int fd, uint32_t size, std::shared_ptr<Memory> *out) {
  struct stat st {};
  if (fd < 0 || fstat(fd, &st) != 0) return Fail(ctx, VA_STATUS_ERROR_INVALID_PARAMETER, "softva: fd %d is not an open file descriptor", fd);
  size_t length = size ? size : size_t(st.st_size);
  if (length == 0) return Fail(ctx, VA_STATUS_ERROR_INVALID_PARAMETER, "softva: fd %d has size 0", fd);
  if (S_ISREG(st.st_mode) && size_t(st.st_size) < length)
    return Fail(ctx, VA_STATUS_ERROR_INVALID_PARAMETER, "softva: fd %d holds %lld bytes, fewer than the %zu the descriptor names", fd,
                (long long)st.st_size, length);
  int own = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (own < 0) return Fail(ctx, VA_STATUS_ERROR_ALLOCATION_FAILED, "softva: dup(%d) failed: %s", fd, strerror(errno));
  void *base = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_SHARED, own, 0);
  if (base == MAP_FAILED) {
    int error = errno;
    close(own);
    return Fail(ctx, VA_STATUS_ERROR_INVALID_PARAMETER, "softva: fd %d cannot be mapped (%s): not a DMA-BUF or memory file", fd, strerror(error));
  }
  auto memory = std::make_shared<Memory>();
  memory->fd = own;
  memory->base = static_cast<uint8_t *>(base);
  memory->size = length;
  *out = memory;
  return VA_STATUS_SUCCESS;
}

VAStatus CheckPlane(VADriverContextP ctx, const Surface &s, uint32_t p) {
  const PlaneRef &plane = s.planes[p];
  uint32_t row = PlaneRowBytes(*s.format, p, s.width), rows = PlaneRows(*s.format, p, s.height);
  if (plane.pitch < row)
    return Fail(ctx, VA_STATUS_ERROR_INVALID_PARAMETER, "softva: plane %u pitch %u is less than its %u bytes per row", p, plane.pitch, row);
  size_t end = size_t(plane.offset) + size_t(plane.pitch) * (rows - 1) + row;
  if (end > plane.memory->size)
    return Fail(ctx, VA_STATUS_ERROR_INVALID_PARAMETER, "softva: plane %u needs bytes up to %zu, its object has %zu", p, end, plane.memory->size);
  return VA_STATUS_SUCCESS;
}

VAStatus ImportPrime2(VADriverContextP ctx, const VADRMPRIMESurfaceDescriptor *desc, uint32_t width, uint32_t height, Surface *s) {
  if (!desc) return Fail(ctx, VA_STATUS_ERROR_INVALID_PARAMETER, "softva: DRM PRIME 2 import without a descriptor");
  s->format = FindFormat(desc->fourcc);
  if (!s->format) return Fail(ctx, VA_STATUS_ERROR_INVALID_IMAGE_FORMAT, "softva: cannot import fourcc 0x%08x", desc->fourcc);
  if (desc->width != width || desc->height != height)
    return Fail(ctx, VA_STATUS_ERROR_INVALID_PARAMETER, "softva: descriptor is %ux%u, vaCreateSurfaces asked for %ux%u", desc->width, desc->height,
                width, height);
  if (desc->num_objects < 1 || desc->num_objects > 4 || desc->num_layers < 1 || desc->num_layers > 4)
    return Fail(ctx, VA_STATUS_ERROR_INVALID_PARAMETER, "softva: %u objects and %u layers (1 to 4 each)", desc->num_objects, desc->num_layers);
  std::shared_ptr<Memory> objects[4];
  for (uint32_t i = 0; i < desc->num_objects; ++i) {
    if (desc->objects[i].drm_format_modifier != 0)
      return Fail(ctx, VA_STATUS_ERROR_INVALID_PARAMETER, "softva: object %u has modifier 0x%llx; only linear (0) memory is supported", i,
                  (unsigned long long)desc->objects[i].drm_format_modifier);
    if (VAStatus st = MapImported(ctx, desc->objects[i].fd, desc->objects[i].size, &objects[i])) return st;
  }
  uint32_t p = 0;
  for (uint32_t l = 0; l < desc->num_layers; ++l) {
    for (uint32_t i = 0; i < desc->layers[l].num_planes && i < 4; ++i) {
      if (p >= s->format->num_planes)
        return Fail(ctx, VA_STATUS_ERROR_INVALID_PARAMETER, "softva: the layers name more planes than fourcc 0x%08x has (%u)", desc->fourcc,
                    s->format->num_planes);
      uint32_t object = desc->layers[l].object_index[i];
      if (object >= desc->num_objects)
        return Fail(ctx, VA_STATUS_ERROR_INVALID_PARAMETER, "softva: layer %u plane %u names object %u of %u", l, i, object, desc->num_objects);
      s->planes[p] = {objects[object], desc->layers[l].offset[i], desc->layers[l].pitch[i]};
      ++p;
    }
  }
  if (p != s->format->num_planes)
    return Fail(ctx, VA_STATUS_ERROR_INVALID_PARAMETER, "softva: the layers name %u planes; fourcc 0x%08x has %u", p, desc->fourcc,
                s->format->num_planes);
  return VA_STATUS_SUCCESS;
}

VAStatus ImportExternal(VADriverContextP ctx, const VASurfaceAttribExternalBuffers *ext, uint32_t width, uint32_t height, Surface *s) {
  if (!ext) return Fail(ctx, VA_STATUS_ERROR_INVALID_PARAMETER, "softva: DRM PRIME import without VASurfaceAttribExternalBuffers");
  s->format = FindFormat(ext->pixel_format);
  if (!s->format) return Fail(ctx, VA_STATUS_ERROR_INVALID_IMAGE_FORMAT, "softva: cannot import fourcc 0x%08x", ext->pixel_format);
  if (ext->width != width || ext->height != height)
    return Fail(ctx, VA_STATUS_ERROR_INVALID_PARAMETER, "softva: descriptor is %ux%u, vaCreateSurfaces asked for %ux%u", ext->width, ext->height,
                width, height);
  if (ext->num_planes != s->format->num_planes)
    return Fail(ctx, VA_STATUS_ERROR_INVALID_PARAMETER, "softva: %u planes given; fourcc 0x%08x has %u", ext->num_planes, ext->pixel_format,
                s->format->num_planes);
  if (!ext->buffers || ext->num_buffers < 1 || (ext->num_buffers != 1 && ext->num_buffers != ext->num_planes))
    return Fail(ctx, VA_STATUS_ERROR_INVALID_PARAMETER, "softva: %u buffers (1, or one per plane)", ext->num_buffers);
  std::shared_ptr<Memory> objects[4];
  for (uint32_t i = 0; i < ext->num_buffers; ++i)
    if (VAStatus st = MapImported(ctx, int(ext->buffers[i]), ext->num_buffers == 1 ? ext->data_size : 0, &objects[i])) return st;
  for (uint32_t p = 0; p < ext->num_planes; ++p) s->planes[p] = {objects[ext->num_buffers == 1 ? 0 : p], ext->offsets[p], ext->pitches[p]};
  return VA_STATUS_SUCCESS;
}

VAStatus CreateSurfaces2(VADriverContextP ctx, unsigned rt, unsigned width, unsigned height, VASurfaceID *ids, unsigned count,
                         VASurfaceAttrib *attribs, unsigned num_attribs) {
  if (!ids || count == 0) return VA_STATUS_ERROR_INVALID_PARAMETER;
  if (width == 0 || height == 0 || width > 16384 || height > 16384)
    return Fail(ctx, VA_STATUS_ERROR_RESOLUTION_NOT_SUPPORTED, "softva: %ux%u is outside 1x1 .. 16384x16384", width, height);
  uint32_t fourcc = 0, memory_type = VA_SURFACE_ATTRIB_MEM_TYPE_VA;
  void *descriptor = nullptr;
  for (unsigned i = 0; i < num_attribs && attribs; ++i) {
    const VASurfaceAttrib &a = attribs[i];
    if (!(a.flags & VA_SURFACE_ATTRIB_SETTABLE)) continue;
    switch (a.type) {
      case VASurfaceAttribPixelFormat: fourcc = uint32_t(a.value.value.i); break;
      case VASurfaceAttribMemoryType: memory_type = uint32_t(a.value.value.i); break;
      case VASurfaceAttribExternalBufferDescriptor: descriptor = a.value.value.p; break;
      case VASurfaceAttribUsageHint: break;
      default: return Fail(ctx, VA_STATUS_ERROR_ATTR_NOT_SUPPORTED, "softva: surface attribute %d is not supported", int(a.type));
    }
  }
  const Format *format = fourcc ? FindFormat(fourcc) : DefaultFormat(rt);
  if (!(rt & kRtFormats) || (rt & ~kRtFormats))
    return Fail(ctx, VA_STATUS_ERROR_UNSUPPORTED_RT_FORMAT, "softva: render-target format 0x%x is not supported", rt);
  if (!format) return Fail(ctx, VA_STATUS_ERROR_INVALID_IMAGE_FORMAT, "softva: pixel format 0x%08x is not supported", fourcc);
  if (format->rt != rt)
    return Fail(ctx, VA_STATUS_ERROR_INVALID_PARAMETER, "softva: pixel format 0x%08x is not of render-target format 0x%x", format->fourcc, rt);

  Driver *d = D(ctx);
  if (memory_type == VA_SURFACE_ATTRIB_MEM_TYPE_DRM_PRIME || memory_type == VA_SURFACE_ATTRIB_MEM_TYPE_DRM_PRIME_2) {
    if (count != 1) return Fail(ctx, VA_STATUS_ERROR_INVALID_PARAMETER, "softva: an import creates one surface, not %u", count);
    Surface s;
    s.width = width;
    s.height = height;
    s.imported = true;
    VAStatus st = memory_type == VA_SURFACE_ATTRIB_MEM_TYPE_DRM_PRIME_2
                      ? ImportPrime2(ctx, static_cast<const VADRMPRIMESurfaceDescriptor *>(descriptor), width, height, &s)
                      : ImportExternal(ctx, static_cast<const VASurfaceAttribExternalBuffers *>(descriptor), width, height, &s);
    if (st) return st;
    if (fourcc && s.format->fourcc != fourcc)
      return Fail(ctx, VA_STATUS_ERROR_INVALID_PARAMETER, "softva: the descriptor's fourcc differs from VASurfaceAttribPixelFormat");
    if (s.format->rt != rt)
      return Fail(ctx, VA_STATUS_ERROR_INVALID_PARAMETER, "softva: pixel format 0x%08x is not of render-target format 0x%x", s.format->fourcc, rt);
    for (uint32_t p = 0; p < s.format->num_planes; ++p)
      if (VAStatus bad = CheckPlane(ctx, s, p)) return bad;
    std::lock_guard<std::mutex> guard(d->lock);
    ids[0] = NewId(d);
    d->surfaces[ids[0]] = s;
    return VA_STATUS_SUCCESS;
  }
  if (memory_type != VA_SURFACE_ATTRIB_MEM_TYPE_VA)
    return Fail(ctx, VA_STATUS_ERROR_UNSUPPORTED_MEMORY_TYPE, "softva: memory type 0x%x is not supported", memory_type);

  std::vector<Surface> made(count);
  for (Surface &s : made) {
    s.format = format;
    s.width = width;
    s.height = height;
    uint32_t pitches[3], offsets[3];
    size_t size = Layout(*format, width, height, pitches, offsets);
    auto memory = NewMemfd(size);
    if (!memory) return Fail(ctx, VA_STATUS_ERROR_ALLOCATION_FAILED, "softva: memfd of %zu bytes: %s", size, strerror(errno));
    for (uint32_t p = 0; p < format->num_planes; ++p) s.planes[p] = {memory, offsets[p], pitches[p]};
  }
  std::lock_guard<std::mutex> guard(d->lock);
  for (unsigned i = 0; i < count; ++i) {
    ids[i] = NewId(d);
    d->surfaces[ids[i]] = made[i];
  }
  return VA_STATUS_SUCCESS;
}

VAStatus CreateSurfaces(VADriverContextP ctx, int width, int height, int format, int count, VASurfaceID *ids) {
  if (width <= 0 || height <= 0 || count <= 0) return VA_STATUS_ERROR_INVALID_PARAMETER;
  return CreateSurfaces2(ctx, unsigned(format), unsigned(width), unsigned(height), ids, unsigned(count), nullptr, 0);
}

VAStatus DestroySurfaces(VADriverContextP ctx, VASurfaceID *ids, int count) {
  Driver *d = D(ctx);
  std::lock_guard<std::mutex> guard(d->lock);
  for (int i = 0; i < count; ++i)
    if (!d->surfaces.count(ids[i])) return Fail(ctx, VA_STATUS_ERROR_INVALID_SURFACE, "softva: vaDestroySurfaces: no surface %u", ids[i]);
  // Memory stays mapped while derived images or importers still use it.
  for (int i = 0; i < count; ++i) d->surfaces.erase(ids[i]);
  return VA_STATUS_SUCCESS;
}

VAStatus SyncSurface(VADriverContextP ctx, VASurfaceID id) {
  Driver *d = D(ctx);
  std::lock_guard<std::mutex> guard(d->lock);
  return d->surfaces.count(id) ? VA_STATUS_SUCCESS : VA_STATUS_ERROR_INVALID_SURFACE;
}

VAStatus SyncSurface2(VADriverContextP ctx, VASurfaceID id, uint64_t) { return SyncSurface(ctx, id); }

VAStatus QuerySurfaceStatus(VADriverContextP ctx, VASurfaceID id, VASurfaceStatus *status) {
  Driver *d = D(ctx);
  std::lock_guard<std::mutex> guard(d->lock);
  if (!d->surfaces.count(id)) return VA_STATUS_ERROR_INVALID_SURFACE;
  *status = VASurfaceReady;  // nothing renders asynchronously here
  return VA_STATUS_SUCCESS;
}

VAStatus ExportSurfaceHandle(VADriverContextP ctx, VASurfaceID id, uint32_t mem_type, uint32_t flags, void *out) {
  Driver *d = D(ctx);
  if (d->no_export) return VA_STATUS_ERROR_UNIMPLEMENTED;
  if (mem_type != VA_SURFACE_ATTRIB_MEM_TYPE_DRM_PRIME_2)
    return Fail(ctx, VA_STATUS_ERROR_UNSUPPORTED_MEMORY_TYPE, "softva: export to memory type 0x%x: only DRM PRIME 2", mem_type);
  bool separate = flags & VA_EXPORT_SURFACE_SEPARATE_LAYERS, composed = flags & VA_EXPORT_SURFACE_COMPOSED_LAYERS;
  if (separate == composed)
    return Fail(ctx, VA_STATUS_ERROR_INVALID_PARAMETER, "softva: export needs exactly one of SEPARATE_LAYERS and COMPOSED_LAYERS");
  if (!out) return VA_STATUS_ERROR_INVALID_PARAMETER;
  std::lock_guard<std::mutex> guard(d->lock);
  auto it = d->surfaces.find(id);
  if (it == d->surfaces.end()) return VA_STATUS_ERROR_INVALID_SURFACE;
  const Surface &s = it->second;
  VADRMPRIMESurfaceDescriptor desc{};
  desc.fourcc = s.format->fourcc;
  desc.width = s.width;
  desc.height = s.height;
  std::vector<Memory *> objects;
  uint32_t object_of[3] = {0, 0, 0};
  for (uint32_t p = 0; p < s.format->num_planes; ++p) {
    Memory *m = s.planes[p].memory.get();
    uint32_t index = 0;
    while (index < objects.size() && objects[index] != m) ++index;
    if (index == objects.size()) objects.push_back(m);
    object_of[p] = index;
  }
  desc.num_objects = uint32_t(objects.size());
  for (uint32_t i = 0; i < desc.num_objects; ++i) {
    int fd = fcntl(objects[i]->fd, F_DUPFD_CLOEXEC, 0);
    if (fd < 0) {
      for (uint32_t j = 0; j < i; ++j) close(desc.objects[j].fd);
      return Fail(ctx, VA_STATUS_ERROR_ALLOCATION_FAILED, "softva: dup for export failed: %s", strerror(errno));
    }
    desc.objects[i].fd = fd;
    desc.objects[i].size = uint32_t(objects[i]->size);
    desc.objects[i].drm_format_modifier = 0;  // linear
  }
  if (composed) {
    desc.num_layers = 1;
    desc.layers[0].drm_format = s.format->drm;
    desc.layers[0].num_planes = s.format->num_planes;
    for (uint32_t p = 0; p < s.format->num_planes; ++p) {
      desc.layers[0].object_index[p] = object_of[p];
      desc.layers[0].offset[p] = s.planes[p].offset;
      desc.layers[0].pitch[p] = s.planes[p].pitch;
    }
  } else {
    desc.num_layers = s.format->num_planes;
    for (uint32_t p = 0; p < s.format->num_planes; ++p) {
      desc.layers[p].drm_format = s.format->plane_drm[p];
      desc.layers[p].num_planes = 1;
      desc.layers[p].object_index[0] = object_of[p];
      desc.layers[p].offset[0] = s.planes[p].offset;
      desc.layers[p].pitch[0] = s.planes[p].pitch;
    }
  }
  std::memcpy(out, &desc, sizeof(desc));
  return VA_STATUS_SUCCESS;
}

// ------------------------------------------------------------- images --
VAImageFormat ImageFormatOf(const Format &f) {
  VAImageFormat out{};
  out.fourcc = f.fourcc;
  out.byte_order = VA_LSB_FIRST;
  out.bits_per_pixel = f.bits;
  out.depth = f.depth;
  out.red_mask = f.masks[0];
  out.green_mask = f.masks[1];
  out.blue_mask = f.masks[2];
  out.alpha_mask = f.masks[3];
  return out;
}

VAStatus QueryImageFormats(VADriverContextP, VAImageFormat *list, int *count) {
  for (int i = 0; i < kNumFormats; ++i) list[i] = ImageFormatOf(kFormats[i]);
  *count = kNumFormats;
  return VA_STATUS_SUCCESS;
}

VABufferID AddBuffer(Driver *d, uint32_t type, std::shared_ptr<Memory> memory, uint8_t *data, uint32_t size) {
  VABufferID id = NewId(d);
  Buffer &b = d->buffers[id];
  b.type = type;
  b.size = size;
  b.memory = std::move(memory);
  b.data = data;
  return id;
}

VAStatus CreateImage(VADriverContextP ctx, VAImageFormat *fmt, int width, int height, VAImage *image) {
  if (!fmt || !image) return VA_STATUS_ERROR_INVALID_PARAMETER;
  const Format *f = FindFormat(fmt->fourcc);
  if (!f) return Fail(ctx, VA_STATUS_ERROR_INVALID_IMAGE_FORMAT, "softva: image fourcc 0x%08x is not supported", fmt->fourcc);
  if (width <= 0 || height <= 0 || width > 16384 || height > 16384) return VA_STATUS_ERROR_INVALID_PARAMETER;
  Image img;
  uint32_t pitches[3], offsets[3];
  size_t size = Layout(*f, uint32_t(width), uint32_t(height), pitches, offsets);
  auto memory = std::make_shared<Memory>();
  memory->heap.assign(size, 0);
  memory->base = memory->heap.data();
  memory->size = size;
  Driver *d = D(ctx);
  std::lock_guard<std::mutex> guard(d->lock);
  img.image.image_id = NewId(d);
  img.image.format = ImageFormatOf(*f);
  img.image.width = uint16_t(width);
  img.image.height = uint16_t(height);
  img.image.data_size = uint32_t(size);
  img.image.num_planes = f->num_planes;
  for (uint32_t p = 0; p < f->num_planes; ++p) {
    img.image.pitches[p] = pitches[p];
    img.image.offsets[p] = offsets[p];
  }
  img.image.buf = AddBuffer(d, VAImageBufferType, memory, memory->base, uint32_t(size));
  d->images[img.image.image_id] = img;
  *image = img.image;
  return VA_STATUS_SUCCESS;
}

VAStatus DeriveImage(VADriverContextP ctx, VASurfaceID id, VAImage *image) {
  Driver *d = D(ctx);
  std::lock_guard<std::mutex> guard(d->lock);
  auto it = d->surfaces.find(id);
  if (it == d->surfaces.end()) return VA_STATUS_ERROR_INVALID_SURFACE;
  Surface &s = it->second;
  if (d->no_derive) return VA_STATUS_ERROR_OPERATION_FAILED;
  for (uint32_t p = 1; p < s.format->num_planes; ++p)
    if (s.planes[p].memory != s.planes[0].memory)
      return Fail(ctx, VA_STATUS_ERROR_OPERATION_FAILED, "softva: surface %u spans several memory objects: use vaCreateImage + vaGetImage", id);
  Image img;
  img.derived_from = id;
  img.image.image_id = NewId(d);
  img.image.format = ImageFormatOf(*s.format);
  img.image.width = uint16_t(s.width);
  img.image.height = uint16_t(s.height);
  img.image.data_size = uint32_t(s.planes[0].memory->size);
  img.image.num_planes = s.format->num_planes;
  for (uint32_t p = 0; p < s.format->num_planes; ++p) {
    img.image.pitches[p] = s.planes[p].pitch;
    img.image.offsets[p] = s.planes[p].offset;
  }
  img.image.buf = AddBuffer(d, VAImageBufferType, s.planes[0].memory, s.planes[0].memory->base, img.image.data_size);
  d->images[img.image.image_id] = img;
  ++s.derived;
  *image = img.image;
  return VA_STATUS_SUCCESS;
}

VAStatus DestroyImage(VADriverContextP ctx, VAImageID id) {
  Driver *d = D(ctx);
  std::lock_guard<std::mutex> guard(d->lock);
  auto it = d->images.find(id);
  if (it == d->images.end()) return VA_STATUS_ERROR_INVALID_IMAGE;
  auto surface = d->surfaces.find(it->second.derived_from);
  if (surface != d->surfaces.end()) --surface->second.derived;
  d->buffers.erase(it->second.image.buf);
  d->images.erase(it);
  return VA_STATUS_SUCCESS;
}

// Copies the rectangle (sx, sy, w, h) of one layout to (dx, dy) of another,
// plane by plane, scaling the rectangle by each plane's sub-sampling.
void CopyRect(const Format &f, uint8_t *const src_planes[3], const uint32_t src_pitch[3], uint32_t sx, uint32_t sy, uint8_t *const dst_planes[3],
              const uint32_t dst_pitch[3], uint32_t dx, uint32_t dy, uint32_t w, uint32_t h) {
  for (uint32_t p = 0; p < f.num_planes; ++p) {
    const PlaneShape &shape = f.planes[p];
    uint32_t bytes = (w + shape.sx - 1) / shape.sx * shape.bytes, rows = (h + shape.sy - 1) / shape.sy;
    for (uint32_t r = 0; r < rows; ++r) {
      const uint8_t *from = src_planes[p] + size_t(sy / shape.sy + r) * src_pitch[p] + size_t(sx / shape.sx) * shape.bytes;
      uint8_t *to = dst_planes[p] + size_t(dy / shape.sy + r) * dst_pitch[p] + size_t(dx / shape.sx) * shape.bytes;
      std::memmove(to, from, bytes);
    }
  }
}

VAStatus ImageTransfer(VADriverContextP ctx, bool get, VASurfaceID sid, VAImageID iid, int sx, int sy, unsigned sw, unsigned sh, int dx, int dy,
                       unsigned dw, unsigned dh) {
  Driver *d = D(ctx);
  std::lock_guard<std::mutex> guard(d->lock);
  auto s = d->surfaces.find(sid);
  if (s == d->surfaces.end()) return VA_STATUS_ERROR_INVALID_SURFACE;
  auto i = d->images.find(iid);
  if (i == d->images.end()) return VA_STATUS_ERROR_INVALID_IMAGE;
  Surface &surface = s->second;
  const VAImage &image = i->second.image;
  if (surface.derived > 0)
    return Fail(ctx, VA_STATUS_ERROR_SURFACE_BUSY, "softva: surface %u has a derived image; destroy it before vaGetImage/vaPutImage", sid);
  if (image.format.fourcc != surface.format->fourcc)
    return Fail(ctx, VA_STATUS_ERROR_INVALID_IMAGE_FORMAT, "softva: image fourcc 0x%08x differs from the surface's 0x%08x (no conversion)",
                image.format.fourcc, surface.format->fourcc);
  if (sw != dw || sh != dh) return Fail(ctx, VA_STATUS_ERROR_UNIMPLEMENTED, "softva: no scaling (%ux%u to %ux%u)", sw, sh, dw, dh);
  // (sx, sy) lies in the source: the surface for vaGetImage, the image for vaPutImage.
  uint32_t src_w = get ? surface.width : image.width, src_h = get ? surface.height : image.height;
  uint32_t dst_w = get ? image.width : surface.width, dst_h = get ? image.height : surface.height;
  if (sx < 0 || sy < 0 || dx < 0 || dy < 0 || sw == 0 || sh == 0 || uint64_t(sx) + sw > src_w || uint64_t(sy) + sh > src_h ||
      uint64_t(dx) + dw > dst_w || uint64_t(dy) + dh > dst_h)
    return Fail(ctx, VA_STATUS_ERROR_INVALID_PARAMETER, "softva: rectangle outside the %s", get ? "surface or image" : "image or surface");
  auto buffer = d->buffers.find(image.buf);
  if (buffer == d->buffers.end()) return VA_STATUS_ERROR_INVALID_BUFFER;
  uint8_t *image_planes[3], *surface_planes[3];
  uint32_t image_pitch[3], surface_pitch[3];
  for (uint32_t p = 0; p < surface.format->num_planes; ++p) {
    image_planes[p] = buffer->second.data + image.offsets[p];
    image_pitch[p] = image.pitches[p];
    surface_planes[p] = surface.planes[p].memory->base + surface.planes[p].offset;
    surface_pitch[p] = surface.planes[p].pitch;
  }
  if (get)
    CopyRect(*surface.format, surface_planes, surface_pitch, uint32_t(sx), uint32_t(sy), image_planes, image_pitch, uint32_t(dx), uint32_t(dy), sw,
             sh);
  else
    CopyRect(*surface.format, image_planes, image_pitch, uint32_t(sx), uint32_t(sy), surface_planes, surface_pitch, uint32_t(dx), uint32_t(dy), sw,
             sh);
  return VA_STATUS_SUCCESS;
}

VAStatus GetImage(VADriverContextP ctx, VASurfaceID surface, int x, int y, unsigned w, unsigned h, VAImageID image) {
  return ImageTransfer(ctx, true, surface, image, x, y, w, h, 0, 0, w, h);
}

VAStatus PutImage(VADriverContextP ctx, VASurfaceID surface, VAImageID image, int sx, int sy, unsigned sw, unsigned sh, int dx, int dy, unsigned dw,
                  unsigned dh) {
  return ImageTransfer(ctx, false, surface, image, sx, sy, sw, sh, dx, dy, dw, dh);
}

// ------------------------------------------------------------ buffers --
VAStatus CreateBuffer(VADriverContextP ctx, VAContextID, VABufferType type, unsigned size, unsigned elements, void *data, VABufferID *id) {
  if (!id || size == 0 || elements == 0 || uint64_t(size) * elements > (1u << 30)) return VA_STATUS_ERROR_INVALID_PARAMETER;
  auto memory = std::make_shared<Memory>();
  memory->heap.assign(size_t(size) * elements, 0);
  if (data) std::memcpy(memory->heap.data(), data, memory->heap.size());
  memory->base = memory->heap.data();
  memory->size = memory->heap.size();
  Driver *d = D(ctx);
  std::lock_guard<std::mutex> guard(d->lock);
  *id = AddBuffer(d, uint32_t(type), memory, memory->base, size);
  d->buffers[*id].elements = elements;
  return VA_STATUS_SUCCESS;
}

VAStatus BufferSetNumElements(VADriverContextP ctx, VABufferID id, unsigned elements) {
  Driver *d = D(ctx);
  std::lock_guard<std::mutex> guard(d->lock);
  auto it = d->buffers.find(id);
  if (it == d->buffers.end()) return VA_STATUS_ERROR_INVALID_BUFFER;
  if (uint64_t(elements) * it->second.size > it->second.memory->size) return VA_STATUS_ERROR_INVALID_PARAMETER;
  it->second.elements = elements;
  return VA_STATUS_SUCCESS;
}

VAStatus MapBuffer(VADriverContextP ctx, VABufferID id, void **out) {
  Driver *d = D(ctx);
  std::lock_guard<std::mutex> guard(d->lock);
  auto it = d->buffers.find(id);
  if (it == d->buffers.end()) return VA_STATUS_ERROR_INVALID_BUFFER;
  if (!out) return VA_STATUS_ERROR_INVALID_PARAMETER;
  ++it->second.mapped;
  *out = it->second.data;
  return VA_STATUS_SUCCESS;
}

VAStatus UnmapBuffer(VADriverContextP ctx, VABufferID id) {
  Driver *d = D(ctx);
  std::lock_guard<std::mutex> guard(d->lock);
  auto it = d->buffers.find(id);
  if (it == d->buffers.end()) return VA_STATUS_ERROR_INVALID_BUFFER;
  if (it->second.mapped == 0) return Fail(ctx, VA_STATUS_ERROR_OPERATION_FAILED, "softva: buffer %u is not mapped", id);
  --it->second.mapped;
  return VA_STATUS_SUCCESS;
}

VAStatus DestroyBuffer(VADriverContextP ctx, VABufferID id) {
  Driver *d = D(ctx);
  std::lock_guard<std::mutex> guard(d->lock);
  for (auto &image : d->images)
    if (image.second.image.buf == id) return Fail(ctx, VA_STATUS_ERROR_INVALID_BUFFER, "softva: buffer %u belongs to image %u", id, image.first);
  return d->buffers.erase(id) ? VA_STATUS_SUCCESS : VA_STATUS_ERROR_INVALID_BUFFER;
}

VAStatus BufferInfo(VADriverContextP ctx, VABufferID id, VABufferType *type, unsigned *size, unsigned *elements) {
  Driver *d = D(ctx);
  std::lock_guard<std::mutex> guard(d->lock);
  auto it = d->buffers.find(id);
  if (it == d->buffers.end()) return VA_STATUS_ERROR_INVALID_BUFFER;
  *type = VABufferType(it->second.type);
  *size = it->second.size;
  *elements = it->second.elements;
  return VA_STATUS_SUCCESS;
}

// -------------------------------------------- what this driver does not do --
// libva requires every one of these entry points; none of them is used here.
VAStatus CreateContext(VADriverContextP, VAConfigID, int, int, int, VASurfaceID *, int, VAContextID *) { return VA_STATUS_ERROR_UNIMPLEMENTED; }
VAStatus DestroyContext(VADriverContextP, VAContextID) { return VA_STATUS_ERROR_INVALID_CONTEXT; }
VAStatus BeginPicture(VADriverContextP, VAContextID, VASurfaceID) { return VA_STATUS_ERROR_INVALID_CONTEXT; }
VAStatus RenderPicture(VADriverContextP, VAContextID, VABufferID *, int) { return VA_STATUS_ERROR_INVALID_CONTEXT; }
VAStatus EndPicture(VADriverContextP, VAContextID) { return VA_STATUS_ERROR_INVALID_CONTEXT; }
VAStatus PutSurface(VADriverContextP, VASurfaceID, void *, short, short, unsigned short, unsigned short, short, short, unsigned short, unsigned short,
                    VARectangle *, unsigned, unsigned) {
  return VA_STATUS_ERROR_UNIMPLEMENTED;
}
VAStatus SetImagePalette(VADriverContextP, VAImageID, unsigned char *) { return VA_STATUS_ERROR_UNIMPLEMENTED; }
VAStatus QuerySubpictureFormats(VADriverContextP, VAImageFormat *, unsigned *, unsigned *count) {
  *count = 0;
  return VA_STATUS_SUCCESS;
}
VAStatus CreateSubpicture(VADriverContextP, VAImageID, VASubpictureID *) { return VA_STATUS_ERROR_UNIMPLEMENTED; }
VAStatus DestroySubpicture(VADriverContextP, VASubpictureID) { return VA_STATUS_ERROR_INVALID_SUBPICTURE; }
VAStatus SetSubpictureImage(VADriverContextP, VASubpictureID, VAImageID) { return VA_STATUS_ERROR_INVALID_SUBPICTURE; }
VAStatus SetSubpictureChromakey(VADriverContextP, VASubpictureID, unsigned, unsigned, unsigned) { return VA_STATUS_ERROR_INVALID_SUBPICTURE; }
VAStatus SetSubpictureGlobalAlpha(VADriverContextP, VASubpictureID, float) { return VA_STATUS_ERROR_INVALID_SUBPICTURE; }
VAStatus AssociateSubpicture(VADriverContextP, VASubpictureID, VASurfaceID *, int, short, short, unsigned short, unsigned short, short, short,
                             unsigned short, unsigned short, unsigned) {
  return VA_STATUS_ERROR_INVALID_SUBPICTURE;
}
VAStatus DeassociateSubpicture(VADriverContextP, VASubpictureID, VASurfaceID *, int) { return VA_STATUS_ERROR_INVALID_SUBPICTURE; }
VAStatus QueryDisplayAttributes(VADriverContextP, VADisplayAttribute *, int *count) {
  *count = 0;
  return VA_STATUS_SUCCESS;
}
VAStatus GetDisplayAttributes(VADriverContextP, VADisplayAttribute *, int) { return VA_STATUS_ERROR_ATTR_NOT_SUPPORTED; }
VAStatus SetDisplayAttributes(VADriverContextP, VADisplayAttribute *, int) { return VA_STATUS_ERROR_ATTR_NOT_SUPPORTED; }
VAStatus QuerySurfaceError(VADriverContextP, VASurfaceID, VAStatus, void **) { return VA_STATUS_ERROR_UNIMPLEMENTED; }
VAStatus LockSurface(VADriverContextP, VASurfaceID, unsigned *, unsigned *, unsigned *, unsigned *, unsigned *, unsigned *, unsigned *, unsigned *,
                     void **) {
  return VA_STATUS_ERROR_UNIMPLEMENTED;
}
VAStatus UnlockSurface(VADriverContextP, VASurfaceID) { return VA_STATUS_ERROR_UNIMPLEMENTED; }

VAStatus Terminate(VADriverContextP ctx) {
  delete D(ctx);
  ctx->pDriverData = nullptr;
  return VA_STATUS_SUCCESS;
}

bool EnvFlag(const char *name) {
  const char *value = getenv(name);
  return value && *value && std::strcmp(value, "0") != 0;
}

}  // namespace

// libva tries __vaDriverInit_<major>_<minor> from its own minor version down
// to 0; 1_0 is found by every libva 2.x.
extern "C" __attribute__((visibility("default"))) VAStatus __vaDriverInit_1_0(VADriverContextP ctx) {
  auto *d = new Driver();
  d->no_derive = EnvFlag("SOFTVA_NO_DERIVE");
  d->no_export = EnvFlag("SOFTVA_NO_EXPORT");
  ctx->pDriverData = d;
  ctx->version_major = 1;
  ctx->version_minor = 0;
  ctx->max_profiles = 1;
  ctx->max_entrypoints = 1;
  ctx->max_attributes = 1;
  ctx->max_image_formats = kNumFormats;
  ctx->max_subpic_formats = 1;
  ctx->max_display_attributes = 1;
  ctx->str_vendor = "opencl-interop softva (software VA-API driver for tests) 1.0";

  VADriverVTable *v = ctx->vtable;
  v->vaTerminate = Terminate;
  v->vaQueryConfigProfiles = QueryConfigProfiles;
  v->vaQueryConfigEntrypoints = QueryConfigEntrypoints;
  v->vaGetConfigAttributes = GetConfigAttributes;
  v->vaCreateConfig = CreateConfig;
  v->vaDestroyConfig = DestroyConfig;
  v->vaQueryConfigAttributes = QueryConfigAttributes;
  v->vaCreateSurfaces = CreateSurfaces;
  v->vaDestroySurfaces = DestroySurfaces;
  v->vaCreateContext = CreateContext;
  v->vaDestroyContext = DestroyContext;
  v->vaCreateBuffer = CreateBuffer;
  v->vaBufferSetNumElements = BufferSetNumElements;
  v->vaMapBuffer = MapBuffer;
  v->vaUnmapBuffer = UnmapBuffer;
  v->vaDestroyBuffer = DestroyBuffer;
  v->vaBeginPicture = BeginPicture;
  v->vaRenderPicture = RenderPicture;
  v->vaEndPicture = EndPicture;
  v->vaSyncSurface = SyncSurface;
  v->vaQuerySurfaceStatus = QuerySurfaceStatus;
  v->vaQuerySurfaceError = QuerySurfaceError;
  v->vaPutSurface = PutSurface;
  v->vaQueryImageFormats = QueryImageFormats;
  v->vaCreateImage = CreateImage;
  v->vaDeriveImage = DeriveImage;
  v->vaDestroyImage = DestroyImage;
  v->vaSetImagePalette = SetImagePalette;
  v->vaGetImage = GetImage;
  v->vaPutImage = PutImage;
  v->vaQuerySubpictureFormats = QuerySubpictureFormats;
  v->vaCreateSubpicture = CreateSubpicture;
  v->vaDestroySubpicture = DestroySubpicture;
  v->vaSetSubpictureImage = SetSubpictureImage;
  v->vaSetSubpictureChromakey = SetSubpictureChromakey;
  v->vaSetSubpictureGlobalAlpha = SetSubpictureGlobalAlpha;
  v->vaAssociateSubpicture = AssociateSubpicture;
  v->vaDeassociateSubpicture = DeassociateSubpicture;
  v->vaQueryDisplayAttributes = QueryDisplayAttributes;
  v->vaGetDisplayAttributes = GetDisplayAttributes;
  v->vaSetDisplayAttributes = SetDisplayAttributes;
  v->vaBufferInfo = BufferInfo;
  v->vaLockSurface = LockSurface;
  v->vaUnlockSurface = UnlockSurface;
  v->vaCreateSurfaces2 = CreateSurfaces2;
  v->vaQuerySurfaceAttributes = QuerySurfaceAttributes;
  v->vaExportSurfaceHandle = ExportSurfaceHandle;
  v->vaSyncSurface2 = SyncSurface2;
  return VA_STATUS_SUCCESS;
}
