// va_resources.cpp - real VA-API displays and surfaces for the driver (Linux).
//
// A VADisplay handed to the driver is either a simulated one (refdrv_va_*,
// sim_resources.cpp: kept for the error cases they make easy) or a display
// libva made in this process. For the latter the driver does what a real
// driver does: it checks the pointer with libva, and reaches a surface's
// memory through libva on that display - vaExportSurfaceHandle as DRM PRIME,
// then mmap of the exported objects - so the cl_mem's storage IS the
// surface's memory: no copy at acquire or release. What a kernel writes is
// what vaGetImage reads after the release; what VA wrote before the acquire
// is what the kernel reads. The mapping stays valid after the VA surface (or
// the display) goes, as a GPU driver's imported buffer does (spec 9.X.2:
// using it then is undefined behaviour, not a crash of the driver).
//
// libva is never linked: it is found with dlopen(RTLD_NOLOAD) - a display
// made by libva means libva is loaded - and called only on API threads
// (creation, and the synchronisation at clEnqueueAcquire*), never on the
// driver's worker thread.
#include "driver.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "../../native/va/decls.h"

namespace refdrv {
namespace {

namespace va = ocl::va;

struct Libva {
  int (*vaDisplayIsValid)(void *) = nullptr;
  va::VAStatus (*vaExportSurfaceHandle)(void *, uint32_t, uint32_t, uint32_t, void *) = nullptr;
  va::VAStatus (*vaSyncSurface)(void *, uint32_t) = nullptr;
};

// libva as loaded in this process (by whoever made the display), or nullptr.
const Libva *libva() {
  static Libva lib;
  static bool found = false;
  if (found) return &lib;
  void *handle = dlopen("libva.so.2", RTLD_NOW | RTLD_NOLOAD);
  if (!handle) return nullptr;
  lib.vaDisplayIsValid = reinterpret_cast<decltype(lib.vaDisplayIsValid)>(dlsym(handle, "vaDisplayIsValid"));
  lib.vaExportSurfaceHandle = reinterpret_cast<decltype(lib.vaExportSurfaceHandle)>(dlsym(handle, "vaExportSurfaceHandle"));
  lib.vaSyncSurface = reinterpret_cast<decltype(lib.vaSyncSurface)>(dlsym(handle, "vaSyncSurface"));
  dlclose(handle);  // RTLD_NOLOAD took a reference; the library stays loaded by its owner
  if (!lib.vaDisplayIsValid || !lib.vaExportSurfaceHandle || !lib.vaSyncSurface) return nullptr;
  found = true;
  return &lib;
}

// Reads memory that may not be mapped (write() reports EFAULT instead of faulting).
bool readable(const void *address, void *out, size_t n) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) return false;
  bool ok = write(fds[1], address, n) == ssize_t(n) && read(fds[0], out, n) == ssize_t(n);
  close(fds[0]);
  close(fds[1]);
  return ok;
}

// Whether `h` is a live, initialized display of the libva in this process.
bool is_libva_display(const void *h) {
  const Libva *lib = libva();
  if (!lib || !h) return false;
  va::DisplayContextHead head{};
  va::DriverContextHead driver{};
  if (!readable(h, &head, sizeof(head)) || head.vadpy_magic != va::kDisplayMagic || !head.pDriverContext) return false;
  if (!readable(head.pDriverContext, &driver, sizeof(driver)) || !driver.vtable) return false;
  Dl_info where{};
  if (!dladdr(reinterpret_cast<void *>(head.vaIsValid), &where)) return false;
  return lib->vaDisplayIsValid(const_cast<void *>(h)) != 0;
}

size_t g_live = 0;

class LibvaObject : public IResource {
 public:
  ~LibvaObject() override {
    if (counted_) g_live--;
  }
  uint32_t AddRef() override {
    if (refs_++ == 0) {
      counted_ = true;
      g_live++;
    }
    return refs_;
  }
  uint32_t Release() override {
    uint32_t r = --refs_;
    if (r == 0) drop();
    return r;
  }
  uint32_t RefCount() const override { return refs_; }

 protected:
  virtual void drop() = 0;
  uint32_t refs_ = 0;
  bool counted_ = false;
};

class LibvaDisplay;
std::map<const void *, LibvaDisplay *> &displays() {
  static auto *m = new std::map<const void *, LibvaDisplay *>();
  return *m;
}

class LibvaDisplay final : public LibvaObject {
 public:
  explicit LibvaDisplay(void *display) : display_(display) {}
  ResType type() const override { return ResType::VADisplay; }
  IResource *owner() const override { return nullptr; }
  bool has_cl_device() const override { return true; }  // any display libva made shares with the reference device
  const char *name() const override { return "libva VADisplay"; }
  bool view(uint32_t, uint32_t, SubresourceView *) const override { return false; }
  void *display() const { return display_; }

 protected:
  void drop() override {
    displays().erase(display_);
    delete this;
  }

 private:
  void *display_;
};

struct Mapping {
  uint8_t *base = nullptr;
  size_t size = 0;
  ~Mapping() {
    if (base) munmap(base, size);
  }
};

class LibvaSurface;
std::map<std::pair<const void *, uint32_t>, LibvaSurface *> &surfaces() {
  static auto *m = new std::map<std::pair<const void *, uint32_t>, LibvaSurface *>();
  return *m;
}

// An NV12 (or other) VA surface, its planes mapped from the exported DRM PRIME objects.
class LibvaSurface final : public LibvaObject {
 public:
  LibvaSurface(LibvaDisplay *display, uint32_t id) : display_(display), id_(id) { display_->AddRef(); }
  ResType type() const override { return ResType::VASurface; }
  IResource *owner() const override { return display_; }
  uint32_t format() const override { return fourcc_; }
  uint32_t va_surface_id() const override { return id_; }
  uint32_t num_regions() const override { return uint32_t(planes_.size()); }

  // Exports the surface and maps its objects; false if libva or the driver refuses.
  bool open() {
    va::VADRMPRIMESurfaceDescriptor desc{};
    const uint32_t kReadWrite = 0x3, kSeparateLayers = 0x4;
    if (libva()->vaExportSurfaceHandle(display_->display(), id_, va::kMemTypeDrmPrime2, kReadWrite | kSeparateLayers, &desc) != va::kSuccess)
      return false;
    bool ok = desc.num_objects >= 1 && desc.num_objects <= 4;
    std::vector<std::shared_ptr<Mapping>> objects;
    for (uint32_t i = 0; i < desc.num_objects && i < 4; ++i) {
      auto map = std::make_shared<Mapping>();
      size_t size = desc.objects[i].size;
      if (!size) {
        off_t end = lseek(desc.objects[i].fd, 0, SEEK_END);
        size = end > 0 ? size_t(end) : 0;
      }
      void *base = ok && size ? mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, desc.objects[i].fd, 0) : MAP_FAILED;
      close(desc.objects[i].fd);  // the mapping keeps the memory
      if (base == MAP_FAILED) {
        ok = false;
        continue;
      }
      map->base = static_cast<uint8_t *>(base);
      map->size = size;
      objects.push_back(map);
    }
    if (!ok) return false;
    fourcc_ = desc.fourcc;
    bool nv12 = fourcc_ == kFmtNV12;
    for (uint32_t l = 0; l < desc.num_layers && l < 4; ++l) {
      for (uint32_t p = 0; p < desc.layers[l].num_planes && p < 4; ++p) {
        uint32_t object = desc.layers[l].object_index[p];
        if (object >= objects.size()) return false;
        Plane plane;
        plane.memory = objects[object];
        plane.offset = desc.layers[l].offset[p];
        plane.pitch = desc.layers[l].pitch[p];
        bool chroma = nv12 && planes_.size() == 1;
        plane.width = chroma ? (desc.width + 1) / 2 : desc.width;
        plane.height = chroma ? (desc.height + 1) / 2 : desc.height;
        plane.bpp = chroma ? 2 : 1;
        size_t end = plane.offset + size_t(plane.pitch) * (plane.height - 1) + size_t(plane.width) * plane.bpp;
        if (end > plane.memory->size || plane.pitch < plane.width * plane.bpp) return false;
        planes_.push_back(plane);
      }
    }
    return !planes_.empty();
  }

  bool view(uint32_t sub, uint32_t region, SubresourceView *out) const override {
    if (sub != 0 || region >= planes_.size()) return false;
    const Plane &p = planes_[region];
    out->data = p.memory->base + p.offset;
    out->row_pitch = p.pitch;
    out->slice_pitch = size_t(p.pitch) * p.height;
    out->width = p.width;
    out->height = p.height;
    out->depth = 1;
    out->bytes_per_pixel = p.bpp;
    out->size = std::min(out->slice_pitch, p.memory->size - p.offset);
    return true;
  }

  // clEnqueueAcquire* without CL_CONTEXT_INTEROP_USER_SYNC: VA work on the
  // surface finishes before OpenCL uses it (on the API thread, at enqueue).
  void before_acquire() override { libva()->vaSyncSurface(display_->display(), id_); }

 protected:
  void drop() override {
    surfaces().erase({display_->display(), id_});
    LibvaDisplay *display = display_;
    delete this;
    display->Release();
  }

 private:
  struct Plane {
    std::shared_ptr<Mapping> memory;
    uint32_t offset = 0, pitch = 0, width = 0, height = 0, bpp = 1;
  };
  LibvaDisplay *display_;
  uint32_t id_;
  uint32_t fourcc_ = 0;
  std::vector<Plane> planes_;
};

// Wrappers nobody took a reference to (a device query, a failed creation) go.
void purge() {
  for (auto it = surfaces().begin(); it != surfaces().end();) {
    LibvaSurface *s = it->second;
    ++it;
    if (s->RefCount() == 0) {
      s->AddRef();
      s->Release();
    }
  }
  for (auto it = displays().begin(); it != displays().end();) {
    LibvaDisplay *d = it->second;
    ++it;
    if (d->RefCount() == 0) {
      d->AddRef();
      d->Release();
    }
  }
}

class VaHost final : public IResourceHost {
 public:
  // A display is known while an OpenCL object (a context, a surface's
  // cl_mem) holds its wrapper: the owner cannot terminate it before those are
  // released (9.X.2). Any other handle is checked again at each call, as
  // though first seen: a wrapper nothing holds may name a display that was
  // terminated since (its memory freed, its address perhaps reused).
  IResource *from_handle(const void *h) const override {
    if (IResource *r = sim_resource_host().from_handle(h)) return r;
    purge();
    auto it = displays().find(h);
    if (it != displays().end()) return it->second;
    if (!is_libva_display(h)) return nullptr;
    auto *display = new LibvaDisplay(const_cast<void *>(h));
    displays()[h] = display;
    return display;
  }
  IResource *va_surface(const IResource *display, uint32_t id) const override {
    auto *d = dynamic_cast<LibvaDisplay *>(const_cast<IResource *>(display));
    if (!d) return sim_resource_host().va_surface(display, id);
    auto it = surfaces().find({d->display(), id});
    if (it != surfaces().end()) return it->second;
    purge();
    auto *surface = new LibvaSurface(d, id);
    if (!surface->open()) {
      surface->AddRef();
      surface->Release();  // deletes it, and drops its display reference
      return nullptr;
    }
    surfaces()[{d->display(), id}] = surface;
    return surface;
  }
  IResource *d3d9_adapter_by_name(const char *name) const override { return sim_resource_host().d3d9_adapter_by_name(name); }
  size_t live_count() const override { return sim_resource_host().live_count() + g_live; }
};

}  // namespace

IResourceHost &resource_host() {
  static VaHost *host = new VaHost();
  return *host;
}

}  // namespace refdrv
