// VA surfaces: one VASurfaceID of one display. The surface holds its display
// (a surface outlives a released display object); it is destroyed by
// destroy() or when garbage-collected.
#include <cstring>

#include "va/libva.h"

namespace ocl {
namespace va {

const napi_type_tag NativeVaSurface::kTypeTag = {0x2b8d4c1f93a64e07ULL, 0xa51e6d0c7f3b9e42ULL};

namespace {

struct SurfaceInit {
  DisplayRef display;
  VASurfaceID id;
};

// Scoped VAImage and buffer mapping, undone in reverse order on every path.
struct ImageScope {
  const LibVa& va;
  VADisplay display;
  VAImage image{};
  bool made = false;
  void* data = nullptr;
  ~ImageScope() {
    if (data) va.vaUnmapBuffer(display, image.buf);
    if (made) va.vaDestroyImage(display, image.image_id);
  }
};

}  // namespace

NativeVaSurface::NativeVaSurface(const Napi::CallbackInfo& info) : Napi::ObjectWrap<NativeVaSurface>(info) {
  info.This().As<Napi::Object>().TypeTag(&kTypeTag);
  if (info[0].IsExternal()) {
    auto* init = info[0].As<Napi::External<SurfaceInit>>().Data();
    display_ = init->display;
    id_ = init->id;
  }
}

NativeVaSurface::~NativeVaSurface() { Destroy(); }

Napi::Object NativeVaSurface::Wrap(Napi::Env env, DisplayRef display, VASurfaceID id) {
  SurfaceInit init{std::move(display), id};
  auto& ctor = AddonData::Get(env).constructors.at(&kTypeTag);
  return ctor.New({Napi::External<SurfaceInit>::New(env, &init)});
}

void NativeVaSurface::Destroy() {
  const LibVa* va = LibOrNull();
  if (va && display_ && id_ != kInvalidId) {
    VASurfaceID id = id_;
    // Never throws: a destroy that fails leaves nothing the binding can do.
    va->vaDestroySurfaces(display_->display, &id, 1);
    display_->Clear();
  }
  id_ = kInvalidId;
  display_.reset();  // the display may be terminated now
}

VASurfaceID NativeVaSurface::Live(Napi::Env env) const {
  if (id_ == kInvalidId || !display_) ThrowReleased(env, "VaSurface");
  return id_;
}

Napi::Value NativeVaSurface::Id(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), Live(info.Env())); }

Napi::Value NativeVaSurface::DestroyMethod(const Napi::CallbackInfo& info) {
  Destroy();
  return info.Env().Undefined();
}

Napi::Value NativeVaSurface::Sync(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  VASurfaceID id = Live(env);
  VA_CHECK(env, display_, Lib(env), vaSyncSurface, display_->display, id);
  return env.Undefined();
}

// status() -> VASurfaceStatus bits
Napi::Value NativeVaSurface::Status(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  VASurfaceID id = Live(env);
  int status = 0;
  VA_CHECK(env, display_, Lib(env), vaQuerySurfaceStatus, display_->display, id, &status);
  return Napi::Number::New(env, status);
}

// transfer(write, plane, view, hostPitch, rowBytes, rows, mode, fourcc, width, height) -> 'derive' | 'image'
// Copies one plane between the surface and host memory: through vaDeriveImage +
// vaMapBuffer, or (mode 'image', or when the driver cannot derive) through
// vaCreateImage + vaGetImage (+ vaPutImage to write). Bounds are checked on
// both sides against what the driver reports, whatever the caller computed.
Napi::Value NativeVaSurface::Transfer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  VASurfaceID id = Live(env);
  const LibVa& va = Lib(env);
  VADisplay display = display_->display;
  bool write = info[0].ToBoolean();
  uint32_t plane = uint32_t(ToU64(info[1], "plane"));
  HostView host = ToHostView(info[2], "data");
  size_t hostPitch = ToSize(info[3], "pitch"), rowBytes = ToSize(info[4], "rowBytes"), rows = ToSize(info[5], "rows");
  std::string mode = info[6].ToString();
  uint32_t fourcc = uint32_t(ToU64(info[7], "fourcc"));
  uint32_t width = uint32_t(ToU64(info[8], "width")), height = uint32_t(ToU64(info[9], "height"));
  if (rows == 0 || rowBytes == 0) return Napi::String::New(env, "none");
  if (hostPitch < rowBytes || hostPitch * (rows - 1) + rowBytes > host.length)
    throw Napi::RangeError::New(env, "data holds " + std::to_string(host.length) + " bytes; " + std::to_string(rows) + " rows of " +
                                         std::to_string(rowBytes) + " bytes " + std::to_string(hostPitch) + " apart need more");

  ImageScope scope{va, display};
  const char* path = "derive";
  VAStatus status = mode == "image" ? kOperationFailed : va.vaDeriveImage(display, id, &scope.image);
  if (status == kSuccess) {
    scope.made = true;
  } else if (mode == "derive" || (status != kOperationFailed && status != kUnimplemented)) {
    CheckVa(env, display_, status, "vaDeriveImage");
  } else {
    // The driver cannot map the surface directly: go through an image of the same format.
    display_->Clear();
    path = "image";
    int max = va.vaMaxNumImageFormats(display);
    std::vector<VAImageFormat> formats(max > 0 ? size_t(max) : 1);
    int count = 0;
    VA_CHECK(env, display_, va, vaQueryImageFormats, display, formats.data(), &count);
    VAImageFormat* format = nullptr;
    for (int i = 0; i < count && i < int(formats.size()); ++i)
      if (formats[i].fourcc == fourcc) format = &formats[i];
    if (!format)
      ThrowVaError(env, 0x16 /* VA_STATUS_ERROR_INVALID_IMAGE_FORMAT */, "vaCreateImage",
                   "the driver lists no image format with this surface's fourcc");
    VA_CHECK(env, display_, va, vaCreateImage, display, format, int(width), int(height), &scope.image);
    scope.made = true;
    VA_CHECK(env, display_, va, vaGetImage, display, id, 0, 0, width, height, scope.image.image_id);
  }
  const VAImage& image = scope.image;
  if (plane >= image.num_planes || plane >= 3)
    throw Napi::RangeError::New(env, "plane " + std::to_string(plane) + ": the driver's image has " + std::to_string(image.num_planes) + " planes");
  size_t pitch = image.pitches[plane], offset = image.offsets[plane];
  if (rowBytes > pitch || offset + pitch * (rows - 1) + rowBytes > image.data_size)
    throw Napi::RangeError::New(env, "plane " + std::to_string(plane) + " has pitch " + std::to_string(pitch) + " and " +
                                         std::to_string(image.data_size) + " bytes in all; " + std::to_string(rows) + " rows of " +
                                         std::to_string(rowBytes) + " bytes do not fit");
  VA_CHECK(env, display_, va, vaMapBuffer, display, image.buf, &scope.data);
  uint8_t* base = static_cast<uint8_t*>(scope.data) + offset;
  uint8_t* bytes = static_cast<uint8_t*>(host.data);
  for (size_t r = 0; r < rows; ++r) {
    if (write) std::memcpy(base + r * pitch, bytes + r * hostPitch, rowBytes);
    else std::memcpy(bytes + r * hostPitch, base + r * pitch, rowBytes);
  }
  if (write && path[0] == 'i') {
    va.vaUnmapBuffer(display, image.buf);
    scope.data = nullptr;
    VA_CHECK(env, display_, va, vaPutImage, display, id, image.image_id, 0, 0, width, height, 0, 0, width, height);
  }
  return Napi::String::New(env, path);
}

// exportPrime(flags) -> { fourcc, width, height, objects: [{ fd, size, modifier }],
//   layers: [{ drmFormat, planes: [{ object, offset, pitch }] }] }. The fds belong to the caller.
Napi::Value NativeVaSurface::ExportPrime(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  VASurfaceID id = Live(env);
  const LibVa& va = Lib(env);
  if (!va.vaExportSurfaceHandle) ThrowVaError(env, kUnimplemented, "vaExportSurfaceHandle", "this libva has no vaExportSurfaceHandle (libva < 2.1)");
  uint32_t flags = uint32_t(ToU64(info[0], "flags"));
  VADRMPRIMESurfaceDescriptor desc{};
  VA_CHECK(env, display_, va, vaExportSurfaceHandle, display_->display, id, kMemTypeDrmPrime2, flags, &desc);
  Napi::Object result = Napi::Object::New(env);
  result.Set("fourcc", desc.fourcc);
  result.Set("width", desc.width);
  result.Set("height", desc.height);
  Napi::Array objects = Napi::Array::New(env);
  for (uint32_t i = 0; i < desc.num_objects && i < 4; ++i) {
    Napi::Object o = Napi::Object::New(env);
    o.Set("fd", desc.objects[i].fd);
    o.Set("size", desc.objects[i].size);
    o.Set("modifier", Napi::BigInt::New(env, desc.objects[i].drm_format_modifier));
    objects.Set(i, o);
  }
  result.Set("objects", objects);
  Napi::Array layers = Napi::Array::New(env);
  for (uint32_t l = 0; l < desc.num_layers && l < 4; ++l) {
    Napi::Object layer = Napi::Object::New(env);
    layer.Set("drmFormat", desc.layers[l].drm_format);
    Napi::Array planes = Napi::Array::New(env);
    for (uint32_t p = 0; p < desc.layers[l].num_planes && p < 4; ++p) {
      Napi::Object plane = Napi::Object::New(env);
      plane.Set("object", desc.layers[l].object_index[p]);
      plane.Set("offset", desc.layers[l].offset[p]);
      plane.Set("pitch", desc.layers[l].pitch[p]);
      planes.Set(p, plane);
    }
    layer.Set("planes", planes);
    layers.Set(l, layer);
  }
  result.Set("layers", layers);
  return result;
}

void NativeVaSurface::Init(Napi::Env env, Napi::Object exports) {
  Napi::Function ctor =
      DefineClass(env, "NativeVaSurface",
                  {InstanceAccessor("id", &NativeVaSurface::Id, nullptr), InstanceMethod("destroy", &NativeVaSurface::DestroyMethod),
                   InstanceMethod("sync", &NativeVaSurface::Sync), InstanceMethod("status", &NativeVaSurface::Status),
                   InstanceMethod("transfer", &NativeVaSurface::Transfer), InstanceMethod("exportPrime", &NativeVaSurface::ExportPrime)});
  AddonData::Get(env).constructors[&kTypeTag] = Napi::Persistent(ctor);
  exports.Set("NativeVaSurface", ctor);
}

void InitVaSurface(Napi::Env env, Napi::Object exports) { NativeVaSurface::Init(env, exports); }

}  // namespace va
}  // namespace ocl
