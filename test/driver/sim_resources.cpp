// sim_resources.cpp - simulated D3D9 / DXGI / D3D10 / VA-API objects (Linux)
// and the refdrv_* control API that tests use to create and inspect them.
#include "driver.h"
#include "refdriver_control.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <set>

namespace refdrv {

uint32_t d3d9_bytes_per_pixel(uint32_t f) {
  switch (f) {
    case 20: return 3;  // R8G8B8
    case 21:
    case 22:
    case 32:
    case 33:
    case 34: return 4;  // A8R8G8B8 X8R8G8B8 A8B8G8R8 X8B8G8R8 G16R16
    case 23:
    case 24:
    case 25: return 2;  // R5G6B5 X1R5G5B5 A1R5G5B5
    case 28:
    case 50: return 1;  // A8 L8
    case 36: return 8;  // A16B16G16R16
    case 51:
    case 60: return 2;  // A8L8 V8U8
    case 63:
    case 64: return 4;    // Q8W8V8U8 V16U16
    case 81: return 2;    // L16
    case 110: return 8;   // Q16W16V16U16
    case 111: return 2;   // R16F
    case 112: return 4;   // G16R16F
    case 113: return 8;   // A16B16G16R16F
    case 114: return 4;   // R32F
    case 115: return 8;   // G32R32F
    case 116: return 16;  // A32B32G32R32F
    case 101: return 2;   // INDEX16
    case 102: return 4;   // INDEX32
    default: break;
  }
  if (f == fourcc('Y', 'U', 'Y', '2') || f == fourcc('U', 'Y', 'V', 'Y')) return 2;
  if (f == kFmtNV12 || f == kFmtYV12) return 1;
  return 0;
}

uint32_t dxgi_bytes_per_pixel(uint32_t f) {
  if (f >= 1 && f <= 4) return 16;
  if (f >= 5 && f <= 8) return 12;
  if (f >= 9 && f <= 22) return 8;
  if (f >= 23 && f <= 47) return 4;
  if (f >= 48 && f <= 59) return 2;
  if (f >= 60 && f <= 65) return 1;
  if (f >= 87 && f <= 93) return 4;
  return 0;
}

namespace {

struct Region {
  size_t offset;
  uint32_t w, h, d, bpp;
  size_t row_pitch, slice_pitch;
};

size_t align_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

class SimObject;
std::unordered_map<const void *, SimObject *> &registry() {
  static auto *r = new std::unordered_map<const void *, SimObject *>();
  return *r;
}
size_t g_counted = 0;
uint32_t g_next_va_id = 1;
uintptr_t g_next_handle = 0x5000;

class SimObject final : public IResource {
 public:
  SimObject(ResType t, SimObject *owner, bool counted) : t_(t), owner_(owner), counted_(counted) {
    if (owner_) owner_->AddRef();
    registry()[this] = this;
    if (counted_) g_counted++;
  }
  ~SimObject() override {
    registry().erase(this);
    if (counted_) g_counted--;
  }
  ResType type() const override { return t_; }
  IResource *owner() const override { return owner_; }
  uint32_t AddRef() override { return ++refs_; }
  uint32_t Release() override {
    uint32_t r = --refs_;
    if (r == 0) {
      SimObject *o = owner_;
      SimObject *s = storage_owner_;
      delete this;
      if (s) s->Release();
      if (o) o->Release();
    }
    return r;
  }
  uint32_t RefCount() const override { return refs_; }
  int device_kind() const override { return dev_kind_; }
  bool has_cl_device() const override {
    if (t_ == ResType::D3D9Adapter || t_ == ResType::DXGIAdapter || t_ == ResType::VADisplay) return has_cl_;
    if (t_ == ResType::D3D9Device || t_ == ResType::D3D10Device || t_ == ResType::D3D11Device) return owner_ && owner_->has_cl_device();
    return false;
  }
  const char *name() const override { return name_.c_str(); }
  uint32_t format() const override { return fmt_; }
  uint32_t pool() const override { return pool_; }
  uint32_t usage() const override { return usage_; }
  uint32_t sample_count() const override { return samples_; }
  uint32_t mip_levels() const override { return levels_; }
  uint32_t array_size() const override { return array_; }
  bool standalone() const override { return storage_owner_ == nullptr; }
  uint32_t va_surface_id() const override { return va_id_; }
  bool valid_shared_handle(void *h) const override { return h == nullptr || (shared_ && h == shared_); }
  uint32_t num_subresources() const override { return nsub_; }
  uint32_t num_regions() const override { return nregion_; }
  bool view(uint32_t sub, uint32_t region, SubresourceView *out) const override {
    if (sub >= nsub_ || region >= nregion_) return false;
    const Region &r = regions_[sub * nregion_ + region];
    out->data = base() + r.offset;
    out->row_pitch = r.row_pitch;
    out->slice_pitch = r.slice_pitch;
    out->width = r.w;
    out->height = r.h;
    out->depth = r.d;
    out->bytes_per_pixel = r.bpp;
    out->size = r.slice_pitch * r.d;
    return true;
  }
  uint8_t *base() const { return storage_owner_ ? storage_owner_->base() + storage_offset_ : bytes_.get(); }

  // layout construction
  void add_region(uint32_t w, uint32_t h, uint32_t d, uint32_t bpp, size_t pitch = 0) {
    Region r;
    r.offset = total_;
    r.w = w;
    r.h = h;
    r.d = d;
    r.bpp = bpp;
    r.row_pitch = pitch ? pitch : align_up(size_t(w) * bpp, 64);
    r.slice_pitch = r.row_pitch * h;
    total_ += align_up(r.slice_pitch * d, 64);
    regions_.push_back(r);
  }
  // a surface (plane set) of format fmt at w x h
  bool add_surface(uint32_t fmt, uint32_t w, uint32_t h) {
    if (fmt == kFmtNV12) {
      size_t p = align_up(w, 64);
      Region y{total_, w, h, 1, 1, p, p * h};
      Region uv{total_ + p * h, w / 2, h / 2, 1, 2, p, p * (h / 2)};
      regions_.push_back(y);
      regions_.push_back(uv);
      total_ += align_up(p * h + p * (h / 2), 64);
      return true;
    }
    if (fmt == kFmtYV12) {
      size_t p = align_up(w, 64), cp = p / 2;
      Region y{total_, w, h, 1, 1, p, p * h};
      Region v{total_ + p * h, w / 2, h / 2, 1, 1, cp, cp * (h / 2)};
      Region u{total_ + p * h + cp * (h / 2), w / 2, h / 2, 1, 1, cp, cp * (h / 2)};
      regions_.push_back(y);
      regions_.push_back(v);
      regions_.push_back(u);
      total_ += align_up(p * h + 2 * cp * (h / 2), 64);
      return true;
    }
    uint32_t bpp = d3d9_bytes_per_pixel(fmt);
    if (!bpp) return false;
    add_region(w, h, 1, bpp);
    return true;
  }
  void allocate() { bytes_.reset(new uint8_t[total_ ? total_ : 1]()); }

  ResType t_;
  SimObject *owner_;
  bool counted_;
  uint32_t refs_ = 1;
  int dev_kind_ = -1;
  bool has_cl_ = true;
  std::string name_;
  uint32_t fmt_ = 0, pool_ = 0, usage_ = 0, samples_ = 1, levels_ = 1, array_ = 1, va_id_ = 0;
  void *shared_ = nullptr;
  uint32_t nsub_ = 1, nregion_ = 1;
  std::vector<Region> regions_;
  size_t total_ = 0;
  std::unique_ptr<uint8_t[]> bytes_;
  SimObject *storage_owner_ = nullptr;  // surface level of a texture
  size_t storage_offset_ = 0;
};

SimObject *lookup(const void *h) {
  auto it = registry().find(h);
  return it == registry().end() ? nullptr : it->second;
}

SimObject *default_adapter(ResType t) {
  static SimObject *d3d9 = nullptr, *dxgi = nullptr;
  SimObject *&a = t == ResType::D3D9Adapter ? d3d9 : dxgi;
  if (!a) {
    a = new SimObject(t, nullptr, false);
    a->name_ = "opencl-interop reference adapter";
  }
  return a;
}

uint32_t full_chain(uint32_t w, uint32_t h, uint32_t d) {
  uint32_t m = std::max(w, std::max(h, d)), n = 1;
  while (m > 1) {
    m >>= 1;
    n++;
  }
  return n;
}
uint32_t mipdim(uint32_t v, uint32_t l) { return std::max(1u, v >> l); }

class SimHost final : public IResourceHost {
 public:
  IResource *from_handle(const void *h) const override { return lookup(h); }
  IResource *va_surface(const IResource *display, uint32_t id) const override {
    for (auto &kv : registry())
      if (kv.second->t_ == ResType::VASurface && kv.second->va_id_ == id && kv.second->owner_ == display) return kv.second;
    return nullptr;
  }
  IResource *d3d9_adapter_by_name(const char *name) const override {
    default_adapter(ResType::D3D9Adapter);
    for (auto &kv : registry())
      if (kv.second->t_ == ResType::D3D9Adapter && kv.second->name_ == name) return kv.second;
    return nullptr;
  }
  size_t live_count() const override { return g_counted; }
};

}  // namespace

IResourceHost &sim_resource_host() {
  static SimHost *h = new SimHost();
  return *h;
}

#if !defined(REFDRV_D3D_HOST) && !defined(REFDRV_VA_HOST)
IResourceHost &resource_host() { return sim_resource_host(); }
#endif

}  // namespace refdrv

using namespace refdrv;

namespace {
SimObject *want(void *h, ResType t) {
  SimObject *o = lookup(h);
  return (o && o->t_ == t) ? o : nullptr;
}
bool is_d3d9_device(SimObject *o) { return o && o->t_ == ResType::D3D9Device; }
bool check_pool(uint32_t pool) { return pool <= 3; }
}  // namespace

#define LOCK() ApiLock lock_

REFDRV_API int refdrv_d3d9_create_adapter(const char *name, int has_cl_device, void **out) {
  if (!out || !name) return REFDRV_E_INVALID_ARG;
  LOCK();
  auto *a = new SimObject(ResType::D3D9Adapter, nullptr, true);
  a->name_ = name;
  a->has_cl_ = has_cl_device != 0;
  *out = a;
  return REFDRV_OK;
}

REFDRV_API int refdrv_d3d9_create_device(void *adapter, int kind, void **out) {
  if (!out || kind < 0 || kind > 2) return REFDRV_E_INVALID_ARG;
  LOCK();
  SimObject *a = adapter ? want(adapter, ResType::D3D9Adapter) : default_adapter(ResType::D3D9Adapter);
  if (!a) return REFDRV_E_BAD_HANDLE;
  auto *d = new SimObject(ResType::D3D9Device, a, true);
  d->dev_kind_ = kind;
  *out = d;
  return REFDRV_OK;
}

REFDRV_API int refdrv_d3d9_create_surface(void *device, uint32_t fmt, uint32_t w, uint32_t h, uint32_t pool, int shared, void **out,
                                          void **shared_out) {
  if (!out || !w || !h || !check_pool(pool) || (shared && !shared_out)) return REFDRV_E_INVALID_ARG;
  if ((fmt == kFmtNV12 || fmt == kFmtYV12) && ((w | h) & 1)) return REFDRV_E_INVALID_ARG;
  LOCK();
  SimObject *d = lookup(device);
  if (!is_d3d9_device(d)) return REFDRV_E_BAD_HANDLE;
  if (!d3d9_bytes_per_pixel(fmt) || fmt == 101 || fmt == 102) return REFDRV_E_FORMAT;
  auto *s = new SimObject(ResType::D3D9Surface, d, true);
  s->fmt_ = fmt;
  s->pool_ = pool;
  s->add_surface(fmt, w, h);
  s->nregion_ = uint32_t(s->regions_.size());
  s->allocate();
  if (shared) {
    s->shared_ = reinterpret_cast<void *>(g_next_handle += 4);
    *shared_out = s->shared_;
  } else if (shared_out) {
    *shared_out = nullptr;
  }
  *out = s;
  return REFDRV_OK;
}

REFDRV_API int refdrv_d3d9_create_texture(void *device, uint32_t fmt, uint32_t w, uint32_t h, uint32_t levels, uint32_t pool, void **out) {
  if (!out || !w || !h || !check_pool(pool)) return REFDRV_E_INVALID_ARG;
  LOCK();
  SimObject *d = lookup(device);
  if (!is_d3d9_device(d)) return REFDRV_E_BAD_HANDLE;
  uint32_t bpp = d3d9_bytes_per_pixel(fmt);
  if (!bpp || fmt == kFmtNV12 || fmt == kFmtYV12 || fmt == 101 || fmt == 102) return REFDRV_E_FORMAT;
  uint32_t full = full_chain(w, h, 1);
  if (levels == 0) levels = full;
  if (levels > full) return REFDRV_E_RANGE;
  auto *t = new SimObject(ResType::D3D9Texture, d, true);
  t->fmt_ = fmt;
  t->pool_ = pool;
  t->levels_ = levels;
  for (uint32_t l = 0; l < levels; l++) t->add_region(mipdim(w, l), mipdim(h, l), 1, bpp);
  t->nsub_ = levels;
  t->allocate();
  *out = t;
  return REFDRV_OK;
}

REFDRV_API int refdrv_d3d9_create_cube_texture(void *device, uint32_t fmt, uint32_t edge, uint32_t levels, uint32_t pool, void **out) {
  if (!out || !edge || !check_pool(pool)) return REFDRV_E_INVALID_ARG;
  LOCK();
  SimObject *d = lookup(device);
  if (!is_d3d9_device(d)) return REFDRV_E_BAD_HANDLE;
  uint32_t bpp = d3d9_bytes_per_pixel(fmt);
  if (!bpp || fmt == kFmtNV12 || fmt == kFmtYV12 || fmt == 101 || fmt == 102) return REFDRV_E_FORMAT;
  uint32_t full = full_chain(edge, edge, 1);
  if (levels == 0) levels = full;
  if (levels > full) return REFDRV_E_RANGE;
  auto *t = new SimObject(ResType::D3D9CubeTexture, d, true);
  t->fmt_ = fmt;
  t->pool_ = pool;
  t->levels_ = levels;
  for (uint32_t f = 0; f < 6; f++)
    for (uint32_t l = 0; l < levels; l++) t->add_region(mipdim(edge, l), mipdim(edge, l), 1, bpp);
  t->nsub_ = 6 * levels;
  t->allocate();
  *out = t;
  return REFDRV_OK;
}

REFDRV_API int refdrv_d3d9_create_volume_texture(void *device, uint32_t fmt, uint32_t w, uint32_t h, uint32_t dd, uint32_t levels, uint32_t pool,
                                                 void **out) {
  if (!out || !w || !h || !dd || !check_pool(pool)) return REFDRV_E_INVALID_ARG;
  LOCK();
  SimObject *d = lookup(device);
  if (!is_d3d9_device(d)) return REFDRV_E_BAD_HANDLE;
  uint32_t bpp = d3d9_bytes_per_pixel(fmt);
  if (!bpp || fmt == kFmtNV12 || fmt == kFmtYV12 || fmt == 101 || fmt == 102) return REFDRV_E_FORMAT;
  uint32_t full = full_chain(w, h, dd);
  if (levels == 0) levels = full;
  if (levels > full) return REFDRV_E_RANGE;
  auto *t = new SimObject(ResType::D3D9VolumeTexture, d, true);
  t->fmt_ = fmt;
  t->pool_ = pool;
  t->levels_ = levels;
  for (uint32_t l = 0; l < levels; l++) t->add_region(mipdim(w, l), mipdim(h, l), mipdim(dd, l), bpp);
  t->nsub_ = levels;
  t->allocate();
  *out = t;
  return REFDRV_OK;
}

static int make_buffer(ResType t, void *device, ResType devtype, uint32_t size, uint32_t fmt, uint32_t pool, uint32_t usage, void **out) {
  LOCK();
  SimObject *d = want(device, devtype);
  if (!d) return REFDRV_E_BAD_HANDLE;
  auto *b = new SimObject(t, d, true);
  b->fmt_ = fmt;
  b->pool_ = pool;
  b->usage_ = usage;
  b->add_region(size, 1, 1, 1, size);
  b->allocate();
  *out = b;
  return REFDRV_OK;
}

REFDRV_API int refdrv_d3d9_create_vertex_buffer(void *device, uint32_t size, uint32_t pool, void **out) {
  if (!out || !size || !check_pool(pool)) return REFDRV_E_INVALID_ARG;
  return make_buffer(ResType::D3D9VertexBuffer, device, ResType::D3D9Device, size, 100, pool, 0, out);
}

REFDRV_API int refdrv_d3d9_create_index_buffer(void *device, uint32_t size, uint32_t fmt, uint32_t pool, void **out) {
  if (!out || !size || !check_pool(pool)) return REFDRV_E_INVALID_ARG;
  if (fmt != 101 && fmt != 102) return REFDRV_E_FORMAT;
  return make_buffer(ResType::D3D9IndexBuffer, device, ResType::D3D9Device, size, fmt, pool, 0, out);
}

REFDRV_API int refdrv_d3d9_get_surface_level(void *texture, uint32_t level, void **out) {
  if (!out) return REFDRV_E_INVALID_ARG;
  LOCK();
  SimObject *t = want(texture, ResType::D3D9Texture);
  if (!t) return REFDRV_E_BAD_HANDLE;
  if (level >= t->levels_) return REFDRV_E_RANGE;
  auto *s = new SimObject(ResType::D3D9Surface, t->owner_, true);
  const Region &r = t->regions_[level];
  s->fmt_ = t->fmt_;
  s->pool_ = t->pool_;
  s->regions_.push_back(Region{0, r.w, r.h, 1, r.bpp, r.row_pitch, r.slice_pitch});
  s->storage_owner_ = t;
  s->storage_offset_ = r.offset;
  t->AddRef();
  *out = s;
  return REFDRV_OK;
}

REFDRV_API int refdrv_dxgi_create_adapter(const char *name, int has_cl_device, void **out) {
  if (!out || !name) return REFDRV_E_INVALID_ARG;
  LOCK();
  auto *a = new SimObject(ResType::DXGIAdapter, nullptr, true);
  a->name_ = name;
  a->has_cl_ = has_cl_device != 0;
  *out = a;
  return REFDRV_OK;
}

// Direct3D 10 and 11 objects are simulated alike; only their types differ.
static int create_dxgi_device(ResType devT, void *adapter, void **out) {
  if (!out) return REFDRV_E_INVALID_ARG;
  LOCK();
  SimObject *a = adapter ? want(adapter, ResType::DXGIAdapter) : default_adapter(ResType::DXGIAdapter);
  if (!a) return REFDRV_E_BAD_HANDLE;
  *out = new SimObject(devT, a, true);
  return REFDRV_OK;
}

static int create_texture2d(ResType devT, ResType texT, void *device, uint32_t w, uint32_t h, uint32_t mips, uint32_t array, uint32_t fmt,
                            uint32_t usage, uint32_t samples, void **out) {
  if (!out || !w || !h || !array || !samples || usage > 3) return REFDRV_E_INVALID_ARG;
  LOCK();
  SimObject *d = want(device, devT);
  if (!d) return REFDRV_E_BAD_HANDLE;
  if (fmt == kDXGI_FORMAT_NV12 && texT == ResType::D3D11Texture2D) {
    if ((w & 1) || (h & 1) || samples != 1 || mips > 1) return REFDRV_E_RANGE;
    auto *t = new SimObject(texT, d, true);
    t->fmt_ = fmt;
    t->usage_ = usage;
    t->levels_ = 1;
    t->array_ = array;
    for (uint32_t a = 0; a < array; a++) {
      t->add_region(w, h, 1, 1);
      t->add_region(w / 2, h / 2, 1, 2);
    }
    t->nsub_ = 2 * array;
    t->allocate();
    *out = t;
    return REFDRV_OK;
  }
  uint32_t bpp = dxgi_bytes_per_pixel(fmt);
  if (!bpp) return REFDRV_E_FORMAT;
  uint32_t full = full_chain(w, h, 1);
  if (mips == 0) mips = full;
  if (mips > full || (samples > 1 && mips != 1)) return REFDRV_E_RANGE;
  auto *t = new SimObject(texT, d, true);
  t->fmt_ = fmt;
  t->usage_ = usage;
  t->samples_ = samples;
  t->levels_ = mips;
  t->array_ = array;
  for (uint32_t a = 0; a < array; a++)
    for (uint32_t l = 0; l < mips; l++) t->add_region(mipdim(w, l), mipdim(h, l), 1, bpp * samples);
  t->nsub_ = mips * array;
  t->allocate();
  *out = t;
  return REFDRV_OK;
}

static int create_texture3d(ResType devT, ResType texT, void *device, uint32_t w, uint32_t h, uint32_t dd, uint32_t mips, uint32_t fmt,
                            uint32_t usage, void **out) {
  if (!out || !w || !h || !dd || usage > 3) return REFDRV_E_INVALID_ARG;
  LOCK();
  SimObject *d = want(device, devT);
  if (!d) return REFDRV_E_BAD_HANDLE;
  uint32_t bpp = dxgi_bytes_per_pixel(fmt);
  if (!bpp) return REFDRV_E_FORMAT;
  uint32_t full = full_chain(w, h, dd);
  if (mips == 0) mips = full;
  if (mips > full) return REFDRV_E_RANGE;
  auto *t = new SimObject(texT, d, true);
  t->fmt_ = fmt;
  t->usage_ = usage;
  t->levels_ = mips;
  for (uint32_t l = 0; l < mips; l++) t->add_region(mipdim(w, l), mipdim(h, l), mipdim(dd, l), bpp);
  t->nsub_ = mips;
  t->allocate();
  *out = t;
  return REFDRV_OK;
}

REFDRV_API int refdrv_d3d10_create_device(void *adapter, void **out) { return create_dxgi_device(ResType::D3D10Device, adapter, out); }
REFDRV_API int refdrv_d3d10_create_buffer(void *device, uint32_t size, uint32_t usage, void **out) {
  if (!out || !size || usage > 3) return REFDRV_E_INVALID_ARG;
  return make_buffer(ResType::D3D10Buffer, device, ResType::D3D10Device, size, 0, 0, usage, out);
}
REFDRV_API int refdrv_d3d10_create_texture2d(void *device, uint32_t w, uint32_t h, uint32_t mips, uint32_t array, uint32_t fmt, uint32_t usage,
                                             uint32_t samples, void **out) {
  return create_texture2d(ResType::D3D10Device, ResType::D3D10Texture2D, device, w, h, mips, array, fmt, usage, samples, out);
}
REFDRV_API int refdrv_d3d10_create_texture3d(void *device, uint32_t w, uint32_t h, uint32_t dd, uint32_t mips, uint32_t fmt, uint32_t usage,
                                             void **out) {
  return create_texture3d(ResType::D3D10Device, ResType::D3D10Texture3D, device, w, h, dd, mips, fmt, usage, out);
}

REFDRV_API int refdrv_d3d11_create_device(void *adapter, void **out) { return create_dxgi_device(ResType::D3D11Device, adapter, out); }
REFDRV_API int refdrv_d3d11_create_buffer(void *device, uint32_t size, uint32_t usage, void **out) {
  if (!out || !size || usage > 3) return REFDRV_E_INVALID_ARG;
  return make_buffer(ResType::D3D11Buffer, device, ResType::D3D11Device, size, 0, 0, usage, out);
}
REFDRV_API int refdrv_d3d11_create_texture2d(void *device, uint32_t w, uint32_t h, uint32_t mips, uint32_t array, uint32_t fmt, uint32_t usage,
                                             uint32_t samples, void **out) {
  return create_texture2d(ResType::D3D11Device, ResType::D3D11Texture2D, device, w, h, mips, array, fmt, usage, samples, out);
}
REFDRV_API int refdrv_d3d11_create_texture3d(void *device, uint32_t w, uint32_t h, uint32_t dd, uint32_t mips, uint32_t fmt, uint32_t usage,
                                             void **out) {
  return create_texture3d(ResType::D3D11Device, ResType::D3D11Texture3D, device, w, h, dd, mips, fmt, usage, out);
}

REFDRV_API int refdrv_va_create_display(int has_cl_device, void **out) {
  if (!out) return REFDRV_E_INVALID_ARG;
  LOCK();
  auto *d = new SimObject(ResType::VADisplay, nullptr, true);
  d->has_cl_ = has_cl_device != 0;
  d->name_ = "VADisplay";
  *out = d;
  return REFDRV_OK;
}

REFDRV_API int refdrv_va_create_surface(void *display, uint32_t w, uint32_t h, uint32_t *id_out, void **out) {
  if (!out || !id_out || !w || !h || ((w | h) & 1)) return REFDRV_E_INVALID_ARG;
  LOCK();
  SimObject *d = want(display, ResType::VADisplay);
  if (!d) return REFDRV_E_BAD_HANDLE;
  auto *s = new SimObject(ResType::VASurface, d, true);
  s->fmt_ = kFmtNV12;
  s->add_surface(kFmtNV12, w, h);
  s->nregion_ = 2;
  s->allocate();
  s->va_id_ = g_next_va_id++;
  *id_out = s->va_id_;
  *out = s;
  return REFDRV_OK;
}

REFDRV_API int refdrv_create_shared_handle(void *resource, void **out) {
  if (!out) return REFDRV_E_INVALID_ARG;
  LOCK();
  SimObject *o = lookup(resource);
  if (!o) return REFDRV_E_BAD_HANDLE;
  switch (o->t_) {
    case ResType::D3D9Surface:
    case ResType::D3D9Texture:
    case ResType::D3D9CubeTexture:
    case ResType::D3D9VolumeTexture:
    case ResType::D3D9VertexBuffer:
    case ResType::D3D9IndexBuffer:
    case ResType::D3D10Buffer:
    case ResType::D3D10Texture2D:
    case ResType::D3D10Texture3D:
    case ResType::D3D11Buffer:
    case ResType::D3D11Texture2D:
    case ResType::D3D11Texture3D: break;
    default: return REFDRV_E_BAD_HANDLE;
  }
  if (!o->shared_) o->shared_ = reinterpret_cast<void *>(g_next_handle += 4);
  *out = o->shared_;
  return REFDRV_OK;
}

static int get_view(void *resource, uint32_t sub, uint32_t plane, SubresourceView *v) {
  SimObject *o = lookup(resource);
  if (!o || o->regions_.empty()) return REFDRV_E_BAD_HANDLE;
  if (!o->view(sub, plane, v)) return REFDRV_E_RANGE;
  return REFDRV_OK;
}

REFDRV_API int refdrv_resource_layout(void *resource, uint32_t sub, uint32_t plane, uint64_t *w, uint64_t *h, uint64_t *d, uint64_t *bpp,
                                      uint64_t *rp, uint64_t *sp, uint64_t *size) {
  LOCK();
  SubresourceView v;
  int rc = get_view(resource, sub, plane, &v);
  if (rc) return rc;
  if (w) *w = v.width;
  if (h) *h = v.height;
  if (d) *d = v.depth;
  if (bpp) *bpp = v.bytes_per_pixel;
  if (rp) *rp = v.row_pitch;
  if (sp) *sp = v.slice_pitch;
  if (size) *size = v.size;
  return REFDRV_OK;
}

static int copy_bytes(void *resource, uint32_t sub, uint32_t plane, int packed, uint8_t *buf, uint64_t size, bool write) {
  if (!buf) return REFDRV_E_INVALID_ARG;
  LOCK();
  SubresourceView v;
  int rc = get_view(resource, sub, plane, &v);
  if (rc) return rc;
  if (!packed) {
    if (size < v.size) return REFDRV_E_RANGE;
    if (write) memcpy(v.data, buf, v.size);
    else memcpy(buf, v.data, v.size);
    return REFDRV_OK;
  }
  size_t row = size_t(v.width) * v.bytes_per_pixel;
  if (size < uint64_t(row) * v.height * v.depth) return REFDRV_E_RANGE;
  for (uint32_t z = 0; z < v.depth; z++)
    for (uint32_t y = 0; y < v.height; y++) {
      uint8_t *p = v.data + z * v.slice_pitch + y * v.row_pitch;
      uint8_t *q = buf + (size_t(z) * v.height + y) * row;
      if (write) memcpy(p, q, row);
      else memcpy(q, p, row);
    }
  return REFDRV_OK;
}

REFDRV_API int refdrv_resource_read(void *resource, uint32_t sub, uint32_t plane, int packed, void *dst, uint64_t size) {
  return copy_bytes(resource, sub, plane, packed, static_cast<uint8_t *>(dst), size, false);
}

REFDRV_API int refdrv_resource_write(void *resource, uint32_t sub, uint32_t plane, int packed, const void *src, uint64_t size) {
  return copy_bytes(resource, sub, plane, packed, static_cast<uint8_t *>(const_cast<void *>(src)), size, true);
}

REFDRV_API int refdrv_refcount(void *object, uint32_t *out) {
  if (!out) return REFDRV_E_INVALID_ARG;
  LOCK();
  SimObject *o = lookup(object);
  if (!o) return REFDRV_E_BAD_HANDLE;
  *out = o->RefCount();
  return REFDRV_OK;
}

REFDRV_API int refdrv_add_ref(void *object, uint32_t *out) {
  LOCK();
  SimObject *o = lookup(object);
  if (!o || !o->counted_) return REFDRV_E_BAD_HANDLE;
  uint32_t r = o->AddRef();
  if (out) *out = r;
  return REFDRV_OK;
}

REFDRV_API int refdrv_release(void *object, uint32_t *out) {
  LOCK();
  SimObject *o = lookup(object);
  if (!o || !o->counted_) return REFDRV_E_BAD_HANDLE;
  uint32_t r = o->Release();
  if (out) *out = r;
  return REFDRV_OK;
}

REFDRV_API int refdrv_object_type(void *object, int *out) {
  if (!out) return REFDRV_E_INVALID_ARG;
  LOCK();
  SimObject *o = lookup(object);
  if (!o) return REFDRV_E_BAD_HANDLE;
  *out = int(o->t_);
  return REFDRV_OK;
}

REFDRV_API int refdrv_live_objects(const char *kind) {
  if (!kind) return REFDRV_E_INVALID_ARG;
  LOCK();
  auto &g = G();
  auto c = [&](Kind k) { return int(g.counts[int(k)]); };
  std::string k = kind;
  int cl =
      c(Kind::Context) + c(Kind::Queue) + c(Kind::Mem) + c(Kind::Event) + c(Kind::Program) + c(Kind::Kernel) + c(Kind::Sampler) + c(Kind::Semaphore);
  if (k == "context") return c(Kind::Context);
  if (k == "command_queue" || k == "queue") return c(Kind::Queue);
  if (k == "mem") return c(Kind::Mem);
  if (k == "event") return c(Kind::Event);
  if (k == "program") return c(Kind::Program);
  if (k == "kernel") return c(Kind::Kernel);
  if (k == "sampler") return c(Kind::Sampler);
  if (k == "semaphore") return c(Kind::Semaphore);
  if (k == "cl") return cl;
  if (k == "resource") return int(g_counted);
  if (k == "all") return cl + int(g_counted);
  return REFDRV_E_UNKNOWN_KIND;
}

void refdrv::report_live_at_exit() {
  std::fprintf(stderr, "opencl-interop reference driver: live at exit:");
  for (const char *kind : {"context", "queue", "mem", "program", "kernel", "sampler", "semaphore", "event"})
    std::fprintf(stderr, " %s %d", kind, refdrv_live_objects(kind));
  std::fprintf(stderr, "\n");
}

REFDRV_API int refdrv_wait_idle(uint32_t timeout_ms) {
  ApiLock lock_;
  auto &g = G();
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (!engine_idle()) {
    if (g.cv.wait_until(lock_.lk, deadline) == std::cv_status::timeout) return REFDRV_E_RANGE;
  }
  return REFDRV_OK;
}
