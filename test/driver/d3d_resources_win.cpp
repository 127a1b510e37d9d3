// d3d_resources_win.cpp - the Windows resource host: real Direct3D 9 /
// DXGI / Direct3D 10 / DXVA COM objects behind refdrv::IResource.
//
// resource_host() here is a composite: a pointer registered by the
// simulation (the refdrv_* control API, sim_resources.cpp) is answered by the
// simulation; any other pointer is treated as a COM object. Before the first
// call into it, the pointer and its vtable are checked with VirtualQuery to
// point at committed readable memory (the first three vtable slots at
// executable code outside this DLL), so a garbage pointer gives the spec's
// invalid-object error instead of a crash. The object's kind comes from
// QueryInterface, its description from GetDesc / GetLevelDesc, its device
// from GetDevice. One wrapper per COM object (keyed by its IUnknown
// identity); a wrapper the driver holds no reference on is re-identified on
// every lookup (the address may since belong to another object).
//
// Contents: the cl_mem's storage is a host buffer per (subresource, plane)
// owned by the wrapper. pull() (acquire) copies Direct3D -> buffer, push()
// (release) buffer -> Direct3D, on the driver's worker thread:
//   D3D9 surface / texture level / cube face level: LockRect where Direct3D
//     allows it (offscreen plain surfaces, lockable render targets, DYNAMIC
//     textures); else pull through a D3DPOOL_SYSTEMMEM surface with
//     GetRenderTargetData (after a StretchRect into a temporary render target
//     when the source is not one), push with UpdateSurface from one.
//   D3D9 volume texture level: LockBox (DEFAULT pool: D3DUSAGE_DYNAMIC only;
//     Direct3D 9 has no other CPU path to a volume).
//   D3D9 vertex / index buffer: Lock.
//   D3D10 buffer / texture subresource: Map when its CPU access flags allow
//     it (STAGING; DYNAMIC push with WRITE_DISCARD), else CopyResource /
//     CopySubresourceRegion to / from a D3D10_USAGE_STAGING copy, then Map.
//   D3D11 buffer / texture subresource: the same through the device's
//     immediate context (ID3D11DeviceContext::Map / CopySubresourceRegion).
//     An object that is both a D3D10 and a D3D11 one (Wine's d3d11 implements
//     both interfaces on one object) is wrapped twice: the pointer the
//     application passes decides (an ID3D11* pointer is the D3D11 view).
//   D3D11 NV12 textures (DXGI_FORMAT_NV12, one mip level): the driver's
//     subresource 2 * slice + plane is D3D11 subresource `slice`; a map of it
//     holds Y (pitch P, H rows), then UV at P*H (pitch P, H/2 rows). A
//     staging copy is of the whole slice and is read first, so a push of one
//     plane keeps the other.
//   NV12 / YV12 surfaces: one lock of the whole surface; the Y plane is at
//     offset 0 (pitch P, H rows), NV12's UV plane at P*H (pitch P, H/2 rows),
//     YV12's V plane at P*H and U plane at P*H + (P/2)*(H/2) (pitch P/2).
//
// Standard C++17 + Windows SDK headers (mingw-w64 or MSVC); links kernel32
// only: d3d9.dll is loaded on demand for CL_D3D9_ADAPTER_NAME_NV lookups.
#if defined(_WIN32)

#ifndef NOMINMAX
#define NOMINMAX
#endif
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#include <d3d9.h>
#include <d3d10.h>
#include <d3d11.h>
#include <dxgi.h>
#include <dxva2api.h>
#include <dxvahd.h>

#include "resources.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace refdrv {
namespace {

// ---------------------------------------------------------------- IIDs --
// (the values the Windows SDK headers declare; defined here so that the DLL
// needs no dxguid / uuid import library)
const GUID kIID_IUnknown = {0x00000000, 0x0000, 0x0000, {0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x46}};
const GUID kIID_IDirect3DDevice9 = {0xd0223b96, 0xbf7a, 0x43fd, {0x92, 0xbd, 0xa4, 0x3b, 0x0d, 0x82, 0xb9, 0xeb}};
const GUID kIID_IDirect3DDevice9Ex = {0xb18b10ce, 0x2649, 0x405a, {0x87, 0x0f, 0x95, 0xf7, 0x77, 0xd4, 0x31, 0x3a}};
const GUID kIID_IDirect3DSurface9 = {0x0cfbaf3a, 0x9ff6, 0x429a, {0x99, 0xb3, 0xa2, 0x79, 0x6a, 0xf8, 0xb8, 0x9b}};
const GUID kIID_IDirect3DBaseTexture9 = {0x580ca87e, 0x1d3c, 0x4d54, {0x99, 0x1d, 0xb7, 0xd3, 0xe3, 0xc2, 0x98, 0xce}};
const GUID kIID_IDirect3DTexture9 = {0x85c31227, 0x3de5, 0x4f00, {0x9b, 0x3a, 0xf1, 0x1a, 0xc3, 0x8c, 0x18, 0xb5}};
const GUID kIID_IDirect3DCubeTexture9 = {0xfff32f81, 0xd953, 0x473a, {0x92, 0x23, 0x93, 0xd6, 0x52, 0xab, 0xa9, 0x3f}};
const GUID kIID_IDirect3DVolumeTexture9 = {0x2518526c, 0xe789, 0x4111, {0xa7, 0xb9, 0x47, 0xef, 0x32, 0x8d, 0x13, 0xe6}};
const GUID kIID_IDirect3DVertexBuffer9 = {0xb64bb1b5, 0xfd70, 0x4df6, {0xbf, 0x91, 0x19, 0xd0, 0xa1, 0x24, 0x55, 0xe3}};
const GUID kIID_IDirect3DIndexBuffer9 = {0x7c9dd65e, 0xd3f7, 0x4529, {0xac, 0xee, 0x78, 0x58, 0x30, 0xac, 0xde, 0x35}};
const GUID kIID_IDirect3DDeviceManager9 = {0xa0cade0f, 0x06d5, 0x4cf4, {0xa1, 0xc7, 0xf3, 0xcd, 0xd7, 0x25, 0xaa, 0x75}};
const GUID kIID_IDXVAHD_Device = {0x95f12dfd, 0xd77e, 0x49be, {0x81, 0x5f, 0x57, 0xd5, 0x79, 0x63, 0x4d, 0x6d}};
const GUID kIID_ID3D10Device = {0x9b7e4c0f, 0x342c, 0x4106, {0xa1, 0x9f, 0x4f, 0x27, 0x04, 0xf6, 0x89, 0xf0}};
const GUID kIID_ID3D10Buffer = {0x9b7e4c02, 0x342c, 0x4106, {0xa1, 0x9f, 0x4f, 0x27, 0x04, 0xf6, 0x89, 0xf0}};
const GUID kIID_ID3D10Texture2D = {0x9b7e4c04, 0x342c, 0x4106, {0xa1, 0x9f, 0x4f, 0x27, 0x04, 0xf6, 0x89, 0xf0}};
const GUID kIID_ID3D10Texture3D = {0x9b7e4c05, 0x342c, 0x4106, {0xa1, 0x9f, 0x4f, 0x27, 0x04, 0xf6, 0x89, 0xf0}};
const GUID kIID_ID3D11Device = {0xdb6f6ddb, 0xac77, 0x4e88, {0x82, 0x53, 0x81, 0x9d, 0xf9, 0xbb, 0xf1, 0x40}};
const GUID kIID_ID3D11Buffer = {0x48570b85, 0xd1ee, 0x4fcd, {0xa2, 0x50, 0xeb, 0x35, 0x07, 0x22, 0xb0, 0x37}};
const GUID kIID_ID3D11Texture2D = {0x6f15aaf2, 0xd208, 0x4e89, {0x9a, 0xb4, 0x48, 0x95, 0x35, 0xd3, 0x4f, 0x9c}};
const GUID kIID_ID3D11Texture3D = {0x037e866e, 0xf56d, 0x4357, {0xa8, 0xaf, 0x9d, 0xab, 0xbe, 0x6e, 0x25, 0x0e}};
const GUID kIID_IDXGIAdapter = {0x2411e7e1, 0x12ac, 0x4ccf, {0xbd, 0x14, 0x97, 0x98, 0xe8, 0x53, 0x4d, 0xc0}};

template <class T>
void release(T *&p) {
  if (p) p->Release();
  p = nullptr;
}

// ------------------------------------------------ pointer plausibility --
bool readable(const void *p, size_t n, bool code) {
  const uint8_t *a = static_cast<const uint8_t *>(p);
  while (n) {
    MEMORY_BASIC_INFORMATION mbi;
    if (VirtualQuery(a, &mbi, sizeof mbi) != sizeof mbi) return false;
    if (mbi.State != MEM_COMMIT || (mbi.Protect & (PAGE_GUARD | PAGE_NOACCESS))) return false;
    DWORD prot = mbi.Protect & 0xff;
    bool exec = prot == PAGE_EXECUTE_READ || prot == PAGE_EXECUTE_READWRITE || prot == PAGE_EXECUTE_WRITECOPY;
    bool data = prot == PAGE_READONLY || prot == PAGE_READWRITE || prot == PAGE_WRITECOPY;
    if (code ? !exec : !(exec || data)) return false;
    size_t avail = size_t(static_cast<const uint8_t *>(mbi.BaseAddress) + mbi.RegionSize - a);
    if (avail >= n) break;
    a += avail;
    n -= avail;
  }
  return true;
}

HMODULE module_of(const void *p) {
  HMODULE m = nullptr;
  if (!GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT, static_cast<LPCWSTR>(p), &m))
    return nullptr;
  return m;
}

// The objects the sharing extensions take come from the Direct3D runtimes
// (and Wine's): their methods live in one of these modules. Anything else,
// such as another driver's cl_mem or a C++ object of the application, is not
// called into.
bool in_direct3d_runtime(const void *code) {
  HMODULE m = module_of(code);
  wchar_t path[MAX_PATH];
  DWORD n = m ? GetModuleFileNameW(m, path, MAX_PATH) : 0;
  if (n == 0 || n >= MAX_PATH) return false;
  const wchar_t *base = path + n;
  while (base > path && base[-1] != L'\\' && base[-1] != L'/') --base;
  static const wchar_t *const kRuntimes[] = {L"d3d9.dll",      L"d3d9on12.dll", L"d3d10.dll",     L"d3d10_1.dll",        L"d3d10core.dll",
                                             L"d3d10warp.dll", L"d3d11.dll",    L"d3d11on12.dll", L"d3d10sdklayers.dll", L"d3d11sdklayers.dll",
                                             L"dxgi.dll",      L"dxva2.dll",    L"wined3d.dll"};
  for (const wchar_t *runtime : kRuntimes)
    if (_wcsicmp(base, runtime) == 0) return true;
  return false;
}

// Could p be a COM interface pointer of a Direct3D runtime?
bool plausible_com(const void *p) {
  if (!p || reinterpret_cast<uintptr_t>(p) % sizeof(void *)) return false;
  if (!readable(p, sizeof(void *), false)) return false;
  void *const *vtbl = *static_cast<void *const *const *>(p);
  if (!vtbl || reinterpret_cast<uintptr_t>(vtbl) % sizeof(void *)) return false;
  if (!readable(vtbl, 3 * sizeof(void *), false)) return false;
  for (int i = 0; i < 3; i++)
    if (!vtbl[i] || !readable(vtbl[i], 1, true)) return false;
  return in_direct3d_runtime(vtbl[0]);
}

// the IUnknown identity of a COM object (no reference kept)
IUnknown *identity(IUnknown *p) {
  if (!p) return nullptr;
  IUnknown *id = nullptr;
  if (FAILED(p->QueryInterface(kIID_IUnknown, reinterpret_cast<void **>(&id))) || !id) return nullptr;
  id->Release();
  return id;
}

bool has_iface(IUnknown *p, const GUID &iid, void **out) {
  *out = nullptr;
  if (FAILED(p->QueryInterface(iid, out)) || !*out) {
    *out = nullptr;
    return false;
  }
  static_cast<IUnknown *>(*out)->Release();  // the wrapper keeps no reference of its own
  return true;
}

uint32_t mipdim(uint32_t v, uint32_t l) { return std::max(1u, v >> l); }
uint32_t depth_of(const D3DSURFACE_DESC &) { return 1; }
uint32_t depth_of(const D3DVOLUME_DESC &d) { return d.Depth; }

// ---------------------------------------------------------- wrappers --
enum class Iface {
  None,
  Dev9,
  DevMgr9,
  DxvaHD,
  Surf9,
  Tex9,
  Cube9,
  Vol9,
  VB9,
  IB9,
  Dev10,
  Buf10,
  Tex2D10,
  Tex3D10,
  Adapter,
  Dev11,
  Buf11,
  Tex2D11,
  Tex3D11
};

// Whether p is the D3D11 interface of its object (see the header comment).
bool is_d3d11_pointer(IUnknown *p) {
  for (const GUID *iid : {&kIID_ID3D11Device, &kIID_ID3D11Buffer, &kIID_ID3D11Texture2D, &kIID_ID3D11Texture3D}) {
    void *q = nullptr;
    if (SUCCEEDED(p->QueryInterface(*iid, &q)) && q) {
      static_cast<IUnknown *>(q)->Release();
      if (q == p) return true;
    }
  }
  return false;
}

struct Level {
  uint32_t w = 0, h = 0, d = 1;
};

// One plane of a CPU copy: its rows in the locked / mapped memory.
struct PlaneLayout {
  size_t offset, pitch, rows, row_bytes;
};

class ComHost;

class ComResource final : public IResource {
 public:
  ComResource(ComHost *host, IUnknown *id, bool d3d11) : host_(host), id_(id), d3d11_(d3d11) {}

  // Reads kind and description from the object (host lock held; only while
  // the driver holds no reference on it).
  void identify();

  ResType type() const override { return type_; }
  IResource *owner() const override { return owner_; }
  uint32_t AddRef() override {
    held_++;
    return main_->AddRef();
  }
  uint32_t Release() override {
    uint32_t r = main_->Release();
    if (--held_ == 0) {
      std::lock_guard<std::mutex> g(stage_mu_);
      stages_.clear();
    }
    return r;
  }
  uint32_t RefCount() const override {
    main_->AddRef();
    return main_->Release();
  }
  uint32_t held() const { return held_; }
  int device_kind() const override { return kind_; }
  bool has_cl_device() const override {
    switch (type_) {
      case ResType::D3D9Device: return iface_ == Iface::Dev9 || under_ != nullptr;
      case ResType::D3D10Device:
      case ResType::D3D11Device:
      case ResType::DXGIAdapter: return true;
      default: return false;
    }
  }
  IResource *underlying_device() const override { return under_; }
  uint32_t format() const override { return format_; }
  uint32_t pool() const override { return pool_; }
  uint32_t usage() const override {
    switch (type_) {
      case ResType::D3D10Buffer:
      case ResType::D3D10Texture2D:
      case ResType::D3D10Texture3D:
      case ResType::D3D11Buffer:
      case ResType::D3D11Texture2D:
      case ResType::D3D11Texture3D: return usage_;
      default: return 0;
    }
  }
  uint32_t sample_count() const override { return samples_; }
  uint32_t mip_levels() const override { return uint32_t(levels_.size() ? levels_.size() : 1); }
  uint32_t array_size() const override { return array_; }
  bool standalone() const override { return standalone_; }
  // Direct3D 9 has no call that returns a resource's shared handle: any
  // value is taken as given.
  bool valid_shared_handle(void *) const override { return true; }
  uint32_t num_subresources() const override {
    switch (type_) {
      case ResType::D3D9Texture:
      case ResType::D3D9VolumeTexture:
      case ResType::D3D10Texture3D:
      case ResType::D3D11Texture3D: return mip_levels();
      case ResType::D3D9CubeTexture: return 6 * mip_levels();
      case ResType::D3D10Texture2D: return mip_levels() * array_;
      case ResType::D3D11Texture2D: return (dxgi_nv12() ? 2 : mip_levels()) * array_;
      default: return 1;
    }
  }
  // A D3D11 NV12 texture: two driver subresources (Y, UV) per array slice.
  bool dxgi_nv12() const { return type_ == ResType::D3D11Texture2D && format_ == kDXGI_FORMAT_NV12; }
  uint32_t num_regions() const override { return format_ == kFmtNV12 ? 2 : format_ == kFmtYV12 ? 3 : 1; }
  bool view(uint32_t sub, uint32_t region, SubresourceView *out) const override;
  bool pull(uint32_t sub, uint32_t region) override { return transfer(sub, region, true); }
  bool push(uint32_t sub, uint32_t region) override { return transfer(sub, region, false); }

 private:
  struct Stage {
    std::unique_ptr<uint8_t[]> bytes;
    SubresourceView v;
  };
  bool layout(uint32_t sub, uint32_t region, SubresourceView *v) const;
  uint32_t level_of(uint32_t sub) const { return sub % mip_levels(); }
  Stage *stage(uint32_t sub, uint32_t region) const;
  bool transfer(uint32_t sub, uint32_t region, bool to_cl);
  bool surface9(IDirect3DSurface9 *s, uint32_t region, const Stage &st, bool to_cl);
  bool volume9(uint32_t level, const Stage &st, bool to_cl);
  bool buffer9(const Stage &st, bool to_cl);
  bool resource10(uint32_t sub, const Stage &st, bool to_cl);
  bool resource11(uint32_t sub, const Stage &st, bool to_cl);
  std::vector<PlaneLayout> planes(size_t pitch, uint32_t w, uint32_t h) const;

  ComHost *host_;
  IUnknown *id_;
  bool d3d11_;                // the D3D11 view of the object
  IUnknown *main_ = nullptr;  // the typed interface (no reference of the wrapper's own)
  Iface iface_ = Iface::None;
  ResType type_ = ResType::None;
  std::atomic<uint32_t> held_{0};  // references the driver holds (cl_mems, contexts)
  IResource *owner_ = nullptr;
  IResource *under_ = nullptr;
  int kind_ = -1;
  uint32_t format_ = 0, pool_ = 0, usage_ = 0, cpu_access_ = 0, samples_ = 1, array_ = 1, bytes_ = 0;
  bool standalone_ = true;
  std::vector<Level> levels_;
  mutable std::mutex stage_mu_;
  mutable std::map<std::pair<uint32_t, uint32_t>, std::unique_ptr<Stage>> stages_;
};

// An adapter named for CL_D3D9_ADAPTER_NAME_NV (lives for the process).
class NamedAdapter final : public IResource {
 public:
  explicit NamedAdapter(std::string n) : name_(std::move(n)) {}
  ResType type() const override { return ResType::D3D9Adapter; }
  IResource *owner() const override { return nullptr; }
  uint32_t AddRef() override { return 1; }
  uint32_t Release() override { return 1; }
  uint32_t RefCount() const override { return 1; }
  bool has_cl_device() const override { return true; }
  const char *name() const override { return name_.c_str(); }
  bool view(uint32_t, uint32_t, SubresourceView *) const override { return false; }

 private:
  std::string name_;
};

class ComHost final : public IResourceHost {
 public:
  IResource *from_handle(const void *h) const override {
    if (IResource *r = sim_resource_host().from_handle(h)) return r;
    if (!plausible_com(h)) return nullptr;
    auto *unk = static_cast<IUnknown *>(const_cast<void *>(h));
    IUnknown *id = identity(unk);
    if (!id) return nullptr;
    ComResource *r = wrap(id, is_d3d11_pointer(unk));
    return (r && r->type() != ResType::None) ? r : nullptr;
  }
  IResource *va_surface(const IResource *display, uint32_t id) const override { return sim_resource_host().va_surface(display, id); }
  IResource *d3d9_adapter_by_name(const char *name) const override {
    if (IResource *r = sim_resource_host().d3d9_adapter_by_name(name)) return r;
    return real_adapter(name);
  }
  size_t live_count() const override { return sim_resource_host().live_count(); }

  // the wrapper of the object with IUnknown identity id
  ComResource *wrap(IUnknown *id, bool d3d11 = false) const {
    std::lock_guard<std::recursive_mutex> g(mu_);
    auto &cache = d3d11 ? cache11_ : cache_;
    auto it = cache.find(id);
    ComResource *r;
    if (it != cache.end()) {
      r = it->second.get();
      if (r->held()) return r;
    } else {
      r = new ComResource(const_cast<ComHost *>(this), id, d3d11);
      cache[id].reset(r);
    }
    r->identify();
    return r;
  }
  ComResource *wrap_iface(IUnknown *p, bool d3d11 = false) const { return p ? wrap(identity(p), d3d11) : nullptr; }

 private:
  IResource *real_adapter(const char *name) const;

  mutable std::recursive_mutex mu_;
  mutable std::unordered_map<IUnknown *, std::unique_ptr<ComResource>> cache_;
  mutable std::unordered_map<IUnknown *, std::unique_ptr<ComResource>> cache11_;  // D3D11 views
  mutable std::map<std::string, std::unique_ptr<NamedAdapter>> adapters_;
};

IResource *ComHost::real_adapter(const char *name) const {
  if (!name) return nullptr;
  std::lock_guard<std::recursive_mutex> g(mu_);
  auto it = adapters_.find(name);
  if (it != adapters_.end()) return it->second.get();
  HMODULE d3d9 = LoadLibraryW(L"d3d9.dll");
  if (!d3d9) return nullptr;
  using Create9 = IDirect3D9 *(WINAPI *)(UINT);
  auto create = reinterpret_cast<Create9>(reinterpret_cast<void *>(GetProcAddress(d3d9, "Direct3DCreate9")));
  IDirect3D9 *d3d = create ? create(D3D_SDK_VERSION) : nullptr;
  bool found = false;
  if (d3d) {
    // the adapter's device name (\\.\DISPLAY1) or its description
    for (UINT i = 0, n = d3d->GetAdapterCount(); i < n && !found; i++) {
      D3DADAPTER_IDENTIFIER9 ai;
      if (SUCCEEDED(d3d->GetAdapterIdentifier(i, 0, &ai))) found = !strcmp(ai.DeviceName, name) || !strcmp(ai.Description, name);
    }
    d3d->Release();
  }
  FreeLibrary(d3d9);
  if (!found) return nullptr;
  auto *a = new NamedAdapter(name);
  adapters_[name].reset(a);
  return a;
}

void ComResource::identify() {
  main_ = nullptr;
  iface_ = Iface::None;
  type_ = ResType::None;
  owner_ = under_ = nullptr;
  kind_ = -1;
  format_ = pool_ = usage_ = cpu_access_ = bytes_ = 0;
  samples_ = array_ = 1;
  standalone_ = true;
  levels_.clear();
  {
    std::lock_guard<std::mutex> g(stage_mu_);
    stages_.clear();
  }
  void *p = nullptr;
  IUnknown *id = id_;
  auto device9_of = [&](auto *res) {
    IDirect3DDevice9 *dev = nullptr;
    if (SUCCEEDED(res->GetDevice(&dev)) && dev) {
      owner_ = host_->wrap_iface(dev);
      dev->Release();
    }
  };
  // Plain, cube and volume textures: the levels, and the first one's format.
  auto levels9_of = [&](auto *texture, auto desc) {
    for (DWORD l = 0, n = texture->GetLevelCount(); l < n; l++) {
      if (FAILED(texture->GetLevelDesc(l, &desc))) return false;
      if (l == 0) {
        format_ = desc.Format;
        pool_ = desc.Pool;
        usage_ = desc.Usage;
      }
      levels_.push_back({desc.Width, desc.Height, depth_of(desc)});
    }
    device9_of(texture);
    return true;
  };
  // Vertex and index buffers.
  auto buffer9_of = [&](auto *buffer, auto desc) {
    if (FAILED(buffer->GetDesc(&desc))) return false;
    format_ = desc.Format;
    pool_ = desc.Pool;
    usage_ = desc.Usage;
    bytes_ = desc.Size;
    device9_of(buffer);
    return true;
  };
  auto device10_of = [&](auto *res) {
    ID3D10Device *dev = nullptr;
    res->GetDevice(&dev);
    if (dev) {
      owner_ = host_->wrap_iface(dev);
      dev->Release();
    }
  };
  auto device11_of = [&](auto *res) {
    ID3D11Device *dev = nullptr;
    res->GetDevice(&dev);
    if (dev) {
      owner_ = host_->wrap_iface(dev, true);
      dev->Release();
    }
  };
  if (d3d11_) {
    if (has_iface(id, kIID_ID3D11Device, &p)) {
      main_ = static_cast<IUnknown *>(p);
      iface_ = Iface::Dev11;
      type_ = ResType::D3D11Device;
    } else if (has_iface(id, kIID_ID3D11Buffer, &p)) {
      auto *b = static_cast<ID3D11Buffer *>(p);
      main_ = b;
      iface_ = Iface::Buf11;
      type_ = ResType::D3D11Buffer;
      D3D11_BUFFER_DESC d;
      b->GetDesc(&d);
      usage_ = d.Usage;
      cpu_access_ = d.CPUAccessFlags;
      bytes_ = d.ByteWidth;
      device11_of(b);
    } else if (has_iface(id, kIID_ID3D11Texture2D, &p)) {
      auto *t = static_cast<ID3D11Texture2D *>(p);
      main_ = t;
      iface_ = Iface::Tex2D11;
      type_ = ResType::D3D11Texture2D;
      D3D11_TEXTURE2D_DESC d;
      t->GetDesc(&d);
      format_ = d.Format;
      usage_ = d.Usage;
      cpu_access_ = d.CPUAccessFlags;
      samples_ = d.SampleDesc.Count ? d.SampleDesc.Count : 1;
      array_ = d.ArraySize ? d.ArraySize : 1;
      for (UINT l = 0; l < std::max(1u, d.MipLevels); l++) levels_.push_back({mipdim(d.Width, l), mipdim(d.Height, l), 1});
      device11_of(t);
    } else if (has_iface(id, kIID_ID3D11Texture3D, &p)) {
      auto *t = static_cast<ID3D11Texture3D *>(p);
      main_ = t;
      iface_ = Iface::Tex3D11;
      type_ = ResType::D3D11Texture3D;
      D3D11_TEXTURE3D_DESC d;
      t->GetDesc(&d);
      format_ = d.Format;
      usage_ = d.Usage;
      cpu_access_ = d.CPUAccessFlags;
      for (UINT l = 0; l < std::max(1u, d.MipLevels); l++) levels_.push_back({mipdim(d.Width, l), mipdim(d.Height, l), mipdim(d.Depth, l)});
      device11_of(t);
    }
    return;
  }
  if (has_iface(id, kIID_IDirect3DDevice9, &p)) {
    main_ = static_cast<IUnknown *>(p);
    iface_ = Iface::Dev9;
    type_ = ResType::D3D9Device;
    kind_ = has_iface(id, kIID_IDirect3DDevice9Ex, &p) ? kD3D9Ex : kD3D9;
  } else if (has_iface(id, kIID_IDirect3DDeviceManager9, &p)) {
    auto *mgr = static_cast<IDirect3DDeviceManager9 *>(p);
    main_ = mgr;
    iface_ = Iface::DevMgr9;
    type_ = ResType::D3D9Device;
    kind_ = kDXVA;
    HANDLE h = nullptr;
    if (SUCCEEDED(mgr->OpenDeviceHandle(&h))) {
      IDirect3DDevice9 *dev = nullptr;
      // Never blocks: while the application holds the device locked, the
      // manager names no device and its surfaces are refused.
      if (SUCCEEDED(mgr->LockDevice(h, &dev, FALSE)) && dev) {
        under_ = host_->wrap_iface(dev);
        dev->Release();
        mgr->UnlockDevice(h, FALSE);
      }
      mgr->CloseDeviceHandle(h);
    }
  } else if (has_iface(id, kIID_IDXVAHD_Device, &p)) {
    // IDXVAHD_Device has no GetDevice: a video surface it creates names it
    auto *hd = static_cast<IDXVAHD_Device *>(p);
    main_ = hd;
    iface_ = Iface::DxvaHD;
    type_ = ResType::D3D9Device;
    kind_ = kDXVA;
    IDirect3DSurface9 *s = nullptr;
    if (SUCCEEDED(hd->CreateVideoSurface(16, 16, D3DFMT_X8R8G8B8, D3DPOOL_DEFAULT, 0, DXVAHD_SURFACE_TYPE_VIDEO_INPUT, 1, &s, nullptr)) && s) {
      IDirect3DDevice9 *dev = nullptr;
      if (SUCCEEDED(s->GetDevice(&dev)) && dev) {
        under_ = host_->wrap_iface(dev);
        dev->Release();
      }
      s->Release();
    }
  } else if (has_iface(id, kIID_IDirect3DSurface9, &p)) {
    auto *s = static_cast<IDirect3DSurface9 *>(p);
    main_ = s;
    iface_ = Iface::Surf9;
    type_ = ResType::D3D9Surface;
    D3DSURFACE_DESC d;
    if (FAILED(s->GetDesc(&d))) return;
    format_ = d.Format;
    pool_ = d.Pool;
    usage_ = d.Usage;
    samples_ = d.MultiSampleType == D3DMULTISAMPLE_NONE ? 1 : d.MultiSampleType == D3DMULTISAMPLE_NONMASKABLE ? 2 : uint32_t(d.MultiSampleType);
    levels_.push_back({d.Width, d.Height, 1});
    void *c = nullptr;
    if (SUCCEEDED(s->GetContainer(kIID_IDirect3DBaseTexture9, &c)) && c) {
      standalone_ = false;
      static_cast<IUnknown *>(c)->Release();
    }
    device9_of(s);
  } else if (has_iface(id, kIID_IDirect3DTexture9, &p)) {
    auto *t = static_cast<IDirect3DTexture9 *>(p);
    main_ = t;
    iface_ = Iface::Tex9;
    type_ = ResType::D3D9Texture;
    if (!levels9_of(t, D3DSURFACE_DESC{})) return;
  } else if (has_iface(id, kIID_IDirect3DCubeTexture9, &p)) {
    auto *t = static_cast<IDirect3DCubeTexture9 *>(p);
    main_ = t;
    iface_ = Iface::Cube9;
    type_ = ResType::D3D9CubeTexture;
    if (!levels9_of(t, D3DSURFACE_DESC{})) return;
  } else if (has_iface(id, kIID_IDirect3DVolumeTexture9, &p)) {
    auto *t = static_cast<IDirect3DVolumeTexture9 *>(p);
    main_ = t;
    iface_ = Iface::Vol9;
    type_ = ResType::D3D9VolumeTexture;
    if (!levels9_of(t, D3DVOLUME_DESC{})) return;
  } else if (has_iface(id, kIID_IDirect3DVertexBuffer9, &p)) {
    auto *b = static_cast<IDirect3DVertexBuffer9 *>(p);
    main_ = b;
    iface_ = Iface::VB9;
    type_ = ResType::D3D9VertexBuffer;
    if (!buffer9_of(b, D3DVERTEXBUFFER_DESC{})) return;
  } else if (has_iface(id, kIID_IDirect3DIndexBuffer9, &p)) {
    auto *b = static_cast<IDirect3DIndexBuffer9 *>(p);
    main_ = b;
    iface_ = Iface::IB9;
    type_ = ResType::D3D9IndexBuffer;
    if (!buffer9_of(b, D3DINDEXBUFFER_DESC{})) return;
  } else if (has_iface(id, kIID_ID3D10Device, &p)) {
    main_ = static_cast<IUnknown *>(p);
    iface_ = Iface::Dev10;
    type_ = ResType::D3D10Device;
  } else if (has_iface(id, kIID_ID3D10Buffer, &p)) {
    auto *b = static_cast<ID3D10Buffer *>(p);
    main_ = b;
    iface_ = Iface::Buf10;
    type_ = ResType::D3D10Buffer;
    D3D10_BUFFER_DESC d;
    b->GetDesc(&d);
    usage_ = d.Usage;
    cpu_access_ = d.CPUAccessFlags;
    bytes_ = d.ByteWidth;
    device10_of(b);
  } else if (has_iface(id, kIID_ID3D10Texture2D, &p)) {
    auto *t = static_cast<ID3D10Texture2D *>(p);
    main_ = t;
    iface_ = Iface::Tex2D10;
    type_ = ResType::D3D10Texture2D;
    D3D10_TEXTURE2D_DESC d;
    t->GetDesc(&d);
    format_ = d.Format;
    usage_ = d.Usage;
    cpu_access_ = d.CPUAccessFlags;
    samples_ = d.SampleDesc.Count ? d.SampleDesc.Count : 1;
    array_ = d.ArraySize ? d.ArraySize : 1;
    for (UINT l = 0; l < std::max(1u, d.MipLevels); l++) levels_.push_back({mipdim(d.Width, l), mipdim(d.Height, l), 1});
    device10_of(t);
  } else if (has_iface(id, kIID_ID3D10Texture3D, &p)) {
    auto *t = static_cast<ID3D10Texture3D *>(p);
    main_ = t;
    iface_ = Iface::Tex3D10;
    type_ = ResType::D3D10Texture3D;
    D3D10_TEXTURE3D_DESC d;
    t->GetDesc(&d);
    format_ = d.Format;
    usage_ = d.Usage;
    cpu_access_ = d.CPUAccessFlags;
    for (UINT l = 0; l < std::max(1u, d.MipLevels); l++) levels_.push_back({mipdim(d.Width, l), mipdim(d.Height, l), mipdim(d.Depth, l)});
    device10_of(t);
  } else if (has_iface(id, kIID_IDXGIAdapter, &p)) {
    main_ = static_cast<IUnknown *>(p);
    iface_ = Iface::Adapter;
    type_ = ResType::DXGIAdapter;
  }
}

// ------------------------------------------------------------- layout --
bool ComResource::layout(uint32_t sub, uint32_t region, SubresourceView *v) const {
  if (sub >= num_subresources() || region >= num_regions()) return false;
  uint32_t bpp;
  Level L;
  switch (type_) {
    case ResType::D3D9VertexBuffer:
    case ResType::D3D9IndexBuffer:
    case ResType::D3D10Buffer:
    case ResType::D3D11Buffer:
      L = {bytes_, 1, 1};
      bpp = 1;
      break;
    case ResType::D3D10Texture2D:
    case ResType::D3D10Texture3D:
    case ResType::D3D11Texture2D:
    case ResType::D3D11Texture3D:
      if (levels_.empty()) return false;
      if (dxgi_nv12()) {
        L = levels_[0];
        bpp = 1;
        if (sub % 2 == 1) {
          L.w /= 2;
          L.h /= 2;
          bpp = 2;
        }
        break;
      }
      L = levels_[level_of(sub)];
      bpp = dxgi_bytes_per_pixel(format_);
      break;
    default:
      if (levels_.empty()) return false;
      L = levels_[level_of(sub)];
      bpp = d3d9_bytes_per_pixel(format_);
      if (format_ == kFmtNV12 && region == 1) {
        L.w /= 2;
        L.h /= 2;
        bpp = 2;
      } else if (format_ == kFmtYV12 && region > 0) {
        L.w /= 2;
        L.h /= 2;
      }
      break;
  }
  if (!bpp || !L.w || !L.h || !L.d) return false;
  v->width = L.w;
  v->height = L.h;
  v->depth = L.d;
  v->bytes_per_pixel = bpp;
  v->row_pitch = size_t(L.w) * bpp;
  v->slice_pitch = v->row_pitch * L.h;
  v->size = v->slice_pitch * L.d;
  return true;
}

ComResource::Stage *ComResource::stage(uint32_t sub, uint32_t region) const {
  std::lock_guard<std::mutex> g(stage_mu_);
  auto &slot = stages_[{sub, region}];
  if (!slot) {
    auto st = std::make_unique<Stage>();
    if (!layout(sub, region, &st->v)) {
      stages_.erase({sub, region});
      return nullptr;
    }
    st->bytes.reset(new uint8_t[st->v.size]());
    st->v.data = st->bytes.get();
    slot = std::move(st);
  }
  return slot.get();
}

bool ComResource::view(uint32_t sub, uint32_t region, SubresourceView *out) const {
  Stage *st = stage(sub, region);
  if (!st) return false;
  *out = st->v;
  return true;
}

// rows to copy between a Stage and a locked rectangle
void copy_rows(uint8_t *locked, size_t pitch, size_t slice_pitch, const SubresourceView &v, bool to_cl) {
  size_t row = size_t(v.width) * v.bytes_per_pixel;
  for (uint32_t z = 0; z < v.depth; z++)
    for (uint32_t y = 0; y < v.height; y++) {
      uint8_t *d3d = locked + z * slice_pitch + y * pitch;
      uint8_t *cl = v.data + z * v.slice_pitch + y * v.row_pitch;
      if (to_cl) memcpy(cl, d3d, row);
      else memcpy(d3d, cl, row);
    }
}

// where a region lies in a locked D3D9 surface of pitch `pitch`
size_t region_offset(uint32_t fmt, uint32_t region, size_t pitch, uint32_t h, size_t *region_pitch) {
  *region_pitch = pitch;
  if (region == 0) return 0;
  if (fmt == kFmtNV12) return pitch * h;  // UV: same pitch, H/2 rows
  // YV12: V then U, pitch/2, H/2 rows each
  *region_pitch = pitch / 2;
  return pitch * h + (region == 2 ? (pitch / 2) * (h / 2) : 0);
}

bool ComResource::transfer(uint32_t sub, uint32_t region, bool to_cl) {
  Stage *st = stage(sub, region);
  if (!st) return false;
  switch (iface_) {
    case Iface::Surf9: return surface9(static_cast<IDirect3DSurface9 *>(main_), region, *st, to_cl);
    case Iface::Tex9:
    case Iface::Cube9: {
      IDirect3DSurface9 *s = nullptr;
      HRESULT hr = iface_ == Iface::Tex9
                       ? static_cast<IDirect3DTexture9 *>(main_)->GetSurfaceLevel(sub, &s)
                       : static_cast<IDirect3DCubeTexture9 *>(main_)->GetCubeMapSurface(D3DCUBEMAP_FACES(sub / mip_levels()), level_of(sub), &s);
      if (FAILED(hr) || !s) return false;
      bool ok = surface9(s, region, *st, to_cl);
      s->Release();
      return ok;
    }
    case Iface::Vol9: return volume9(sub, *st, to_cl);
    case Iface::VB9:
    case Iface::IB9: return buffer9(*st, to_cl);
    case Iface::Buf10:
    case Iface::Tex2D10:
    case Iface::Tex3D10: return resource10(sub, *st, to_cl);
    case Iface::Buf11:
    case Iface::Tex2D11:
    case Iface::Tex3D11: return resource11(sub, *st, to_cl);
    default: return false;
  }
}

bool ComResource::surface9(IDirect3DSurface9 *s, uint32_t region, const Stage &st, bool to_cl) {
  D3DSURFACE_DESC d;
  if (FAILED(s->GetDesc(&d))) return false;
  auto copy = [&](const D3DLOCKED_RECT &lr) {
    size_t rp;
    size_t off = region_offset(d.Format, region, size_t(lr.Pitch), d.Height, &rp);
    copy_rows(static_cast<uint8_t *>(lr.pBits) + off, rp, 0, st.v, to_cl);
  };
  // 1. the surface itself is lockable
  D3DLOCKED_RECT lr;
  if (SUCCEEDED(s->LockRect(&lr, nullptr, to_cl ? D3DLOCK_READONLY : 0))) {
    copy(lr);
    s->UnlockRect();
    return true;
  }
  // 2. through a system-memory surface
  IDirect3DDevice9 *dev = nullptr;
  if (FAILED(s->GetDevice(&dev)) || !dev) return false;
  bool ok = false;
  IDirect3DSurface9 *sys = nullptr, *rt = nullptr;
  auto readback = [&]() -> bool {
    if (SUCCEEDED(dev->GetRenderTargetData(s, sys))) return true;
    // not a render target: resolve into a temporary one first
    if (FAILED(dev->CreateRenderTarget(d.Width, d.Height, d.Format, D3DMULTISAMPLE_NONE, 0, FALSE, &rt, nullptr))) return false;
    return SUCCEEDED(dev->StretchRect(s, nullptr, rt, nullptr, D3DTEXF_NONE)) && SUCCEEDED(dev->GetRenderTargetData(rt, sys));
  };
  if (SUCCEEDED(dev->CreateOffscreenPlainSurface(d.Width, d.Height, d.Format, D3DPOOL_SYSTEMMEM, &sys, nullptr))) {
    if (to_cl) {
      if (readback() && SUCCEEDED(sys->LockRect(&lr, nullptr, D3DLOCK_READONLY))) {
        copy(lr);
        sys->UnlockRect();
        ok = true;
      }
    } else {
      // planar: the other planes must survive the upload
      bool whole = num_regions() == 1 || readback();
      if (whole && SUCCEEDED(sys->LockRect(&lr, nullptr, 0))) {
        copy(lr);
        sys->UnlockRect();
        ok = SUCCEEDED(dev->UpdateSurface(sys, nullptr, s, nullptr));
      }
    }
  }
  release(rt);
  release(sys);
  dev->Release();
  return ok;
}

bool ComResource::volume9(uint32_t level, const Stage &st, bool to_cl) {
  auto *t = static_cast<IDirect3DVolumeTexture9 *>(main_);
  D3DLOCKED_BOX lb;
  if (FAILED(t->LockBox(level, &lb, nullptr, to_cl ? D3DLOCK_READONLY : 0))) return false;
  copy_rows(static_cast<uint8_t *>(lb.pBits), size_t(lb.RowPitch), size_t(lb.SlicePitch), st.v, to_cl);
  t->UnlockBox(level);
  return true;
}

bool ComResource::buffer9(const Stage &st, bool to_cl) {
  void *p = nullptr;
  DWORD flags = to_cl ? D3DLOCK_READONLY : 0;
  HRESULT hr;
  if (iface_ == Iface::VB9) hr = static_cast<IDirect3DVertexBuffer9 *>(main_)->Lock(0, 0, &p, flags);
  else hr = static_cast<IDirect3DIndexBuffer9 *>(main_)->Lock(0, 0, &p, flags);
  if (FAILED(hr) || !p) return false;
  if (to_cl) memcpy(st.v.data, p, st.v.size);
  else memcpy(p, st.v.data, st.v.size);
  if (iface_ == Iface::VB9) static_cast<IDirect3DVertexBuffer9 *>(main_)->Unlock();
  else static_cast<IDirect3DIndexBuffer9 *>(main_)->Unlock();
  return true;
}

// Map one subresource of a D3D10 resource; pitch / slice pitch out.
HRESULT map10(ID3D10Resource *r, Iface k, UINT sub, D3D10_MAP type, uint8_t **data, size_t *pitch, size_t *slice) {
  *pitch = *slice = 0;
  switch (k) {
    case Iface::Buf10: {
      void *p = nullptr;
      HRESULT hr = static_cast<ID3D10Buffer *>(r)->Map(type, 0, &p);
      *data = static_cast<uint8_t *>(p);
      return hr;
    }
    case Iface::Tex2D10: {
      D3D10_MAPPED_TEXTURE2D m;
      HRESULT hr = static_cast<ID3D10Texture2D *>(r)->Map(sub, type, 0, &m);
      if (SUCCEEDED(hr)) {
        *data = static_cast<uint8_t *>(m.pData);
        *pitch = m.RowPitch;
      }
      return hr;
    }
    default: {
      D3D10_MAPPED_TEXTURE3D m;
      HRESULT hr = static_cast<ID3D10Texture3D *>(r)->Map(sub, type, 0, &m);
      if (SUCCEEDED(hr)) {
        *data = static_cast<uint8_t *>(m.pData);
        *pitch = m.RowPitch;
        *slice = m.DepthPitch;
      }
      return hr;
    }
  }
}
void unmap10(ID3D10Resource *r, Iface k, UINT sub) {
  switch (k) {
    case Iface::Buf10: static_cast<ID3D10Buffer *>(r)->Unmap(); break;
    case Iface::Tex2D10: static_cast<ID3D10Texture2D *>(r)->Unmap(sub); break;
    default: static_cast<ID3D10Texture3D *>(r)->Unmap(sub); break;
  }
}

bool ComResource::resource10(uint32_t sub, const Stage &st, bool to_cl) {
  auto *res = reinterpret_cast<ID3D10Resource *>(main_);
  const SubresourceView &v = st.v;
  auto copy_mapped = [&](uint8_t *p, size_t pitch, size_t slice) {
    if (iface_ == Iface::Buf10) {
      if (to_cl) memcpy(v.data, p, v.size);
      else memcpy(p, v.data, v.size);
    } else {
      copy_rows(p, pitch, slice, v, to_cl);
    }
  };
  uint8_t *p = nullptr;
  size_t pitch, slice;
  // 1. the resource itself is mappable for this direction
  D3D10_MAP direct = D3D10_MAP(0);
  if (to_cl && (cpu_access_ & D3D10_CPU_ACCESS_READ)) direct = (cpu_access_ & D3D10_CPU_ACCESS_WRITE) ? D3D10_MAP_READ_WRITE : D3D10_MAP_READ;
  if (!to_cl && (cpu_access_ & D3D10_CPU_ACCESS_WRITE)) direct = usage_ == D3D10_USAGE_DYNAMIC ? D3D10_MAP_WRITE_DISCARD : D3D10_MAP_WRITE;
  if (direct && SUCCEEDED(map10(res, iface_, sub, direct, &p, &pitch, &slice))) {
    copy_mapped(p, pitch, slice);
    unmap10(res, iface_, sub);
    return true;
  }
  // 2. through a staging copy of the subresource
  ID3D10Device *dev = nullptr;
  res->GetDevice(&dev);
  if (!dev) return false;
  ID3D10Resource *stg = nullptr;
  HRESULT hr = E_FAIL;
  const UINT cpu = D3D10_CPU_ACCESS_READ | D3D10_CPU_ACCESS_WRITE;
  if (iface_ == Iface::Buf10) {
    D3D10_BUFFER_DESC d = {};
    d.ByteWidth = bytes_;
    d.Usage = D3D10_USAGE_STAGING;
    d.CPUAccessFlags = cpu;
    ID3D10Buffer *b = nullptr;
    hr = dev->CreateBuffer(&d, nullptr, &b);
    stg = b;
  } else if (iface_ == Iface::Tex2D10) {
    D3D10_TEXTURE2D_DESC d = {};
    d.Width = v.width;
    d.Height = v.height;
    d.MipLevels = 1;
    d.ArraySize = 1;
    d.Format = DXGI_FORMAT(format_);
    d.SampleDesc.Count = 1;
    d.Usage = D3D10_USAGE_STAGING;
    d.CPUAccessFlags = cpu;
    ID3D10Texture2D *t = nullptr;
    hr = dev->CreateTexture2D(&d, nullptr, &t);
    stg = t;
  } else {
    D3D10_TEXTURE3D_DESC d = {};
    d.Width = v.width;
    d.Height = v.height;
    d.Depth = v.depth;
    d.MipLevels = 1;
    d.Format = DXGI_FORMAT(format_);
    d.Usage = D3D10_USAGE_STAGING;
    d.CPUAccessFlags = cpu;
    ID3D10Texture3D *t = nullptr;
    hr = dev->CreateTexture3D(&d, nullptr, &t);
    stg = t;
  }
  bool ok = false;
  if (SUCCEEDED(hr) && stg) {
    const UINT src_sub = iface_ == Iface::Buf10 ? 0 : sub;
    if (to_cl) {
      dev->CopySubresourceRegion(stg, 0, 0, 0, 0, res, src_sub, nullptr);
      if (SUCCEEDED(map10(stg, iface_, 0, D3D10_MAP_READ, &p, &pitch, &slice))) {
        copy_mapped(p, pitch, slice);
        unmap10(stg, iface_, 0);
        ok = true;
      }
    } else if (SUCCEEDED(map10(stg, iface_, 0, D3D10_MAP_WRITE, &p, &pitch, &slice))) {
      copy_mapped(p, pitch, slice);
      unmap10(stg, iface_, 0);
      dev->CopySubresourceRegion(res, src_sub, 0, 0, 0, stg, 0, nullptr);
      ok = true;
    }
  }
  release(stg);
  dev->Release();
  return ok;
}

bool ComResource::resource11(uint32_t sub, const Stage &st, bool to_cl) {
  auto *res = reinterpret_cast<ID3D11Resource *>(main_);
  const SubresourceView &v = st.v;
  ID3D11Device *dev = nullptr;
  res->GetDevice(&dev);
  if (!dev) return false;
  ID3D11DeviceContext *ctx = nullptr;
  dev->GetImmediateContext(&ctx);
  if (!ctx) {
    dev->Release();
    return false;
  }
  const bool buffer = iface_ == Iface::Buf11;
  const bool nv12 = dxgi_nv12();
  auto copy_mapped = [&](const D3D11_MAPPED_SUBRESOURCE &m) {
    auto *p = static_cast<uint8_t *>(m.pData);
    if (nv12 && sub % 2 == 1) p += size_t(m.RowPitch) * levels_[0].h;  // the UV plane follows the Y plane's rows
    if (buffer) {
      if (to_cl) memcpy(v.data, p, v.size);
      else memcpy(p, v.data, v.size);
    } else {
      copy_rows(p, m.RowPitch, m.DepthPitch, v, to_cl);
    }
  };
  bool ok = false;
  D3D11_MAPPED_SUBRESOURCE m;
  // 1. the resource itself is mappable for this direction
  D3D11_MAP direct = D3D11_MAP(0);
  if (to_cl && (cpu_access_ & D3D11_CPU_ACCESS_READ)) direct = (cpu_access_ & D3D11_CPU_ACCESS_WRITE) ? D3D11_MAP_READ_WRITE : D3D11_MAP_READ;
  if (!to_cl && (cpu_access_ & D3D11_CPU_ACCESS_WRITE)) direct = usage_ == D3D11_USAGE_DYNAMIC ? D3D11_MAP_WRITE_DISCARD : D3D11_MAP_WRITE;
  const UINT src_sub = buffer ? 0 : nv12 ? sub / 2 : sub;
  if (direct && SUCCEEDED(ctx->Map(res, src_sub, direct, 0, &m))) {
    copy_mapped(m);
    ctx->Unmap(res, src_sub);
    ok = true;
  } else {
    // 2. through a staging copy of the subresource
    ID3D11Resource *stg = nullptr;
    HRESULT hr = E_FAIL;
    const UINT cpu = D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE;
    if (buffer) {
      D3D11_BUFFER_DESC d = {};
      d.ByteWidth = bytes_;
      d.Usage = D3D11_USAGE_STAGING;
      d.CPUAccessFlags = cpu;
      ID3D11Buffer *b = nullptr;
      hr = dev->CreateBuffer(&d, nullptr, &b);
      stg = b;
    } else if (iface_ == Iface::Tex2D11) {
      D3D11_TEXTURE2D_DESC d = {};
      d.Width = nv12 ? levels_[0].w : v.width;  // NV12: the whole slice, both planes
      d.Height = nv12 ? levels_[0].h : v.height;
      d.MipLevels = 1;
      d.ArraySize = 1;
      d.Format = DXGI_FORMAT(format_);
      d.SampleDesc.Count = 1;
      d.Usage = D3D11_USAGE_STAGING;
      d.CPUAccessFlags = cpu;
      ID3D11Texture2D *t = nullptr;
      hr = dev->CreateTexture2D(&d, nullptr, &t);
      stg = t;
    } else {
      D3D11_TEXTURE3D_DESC d = {};
      d.Width = v.width;
      d.Height = v.height;
      d.Depth = v.depth;
      d.MipLevels = 1;
      d.Format = DXGI_FORMAT(format_);
      d.Usage = D3D11_USAGE_STAGING;
      d.CPUAccessFlags = cpu;
      ID3D11Texture3D *t = nullptr;
      hr = dev->CreateTexture3D(&d, nullptr, &t);
      stg = t;
    }
    if (SUCCEEDED(hr) && stg) {
      if (to_cl) {
        ctx->CopySubresourceRegion(stg, 0, 0, 0, 0, res, src_sub, nullptr);
        if (SUCCEEDED(ctx->Map(stg, 0, D3D11_MAP_READ, 0, &m))) {
          copy_mapped(m);
          ctx->Unmap(stg, 0);
          ok = true;
        }
      } else {
        // NV12: the slice comes in first, so the plane not pushed is kept.
        if (nv12) ctx->CopySubresourceRegion(stg, 0, 0, 0, 0, res, src_sub, nullptr);
        if (SUCCEEDED(ctx->Map(stg, 0, nv12 ? D3D11_MAP_READ_WRITE : D3D11_MAP_WRITE, 0, &m))) {
          copy_mapped(m);
          ctx->Unmap(stg, 0);
          ctx->CopySubresourceRegion(res, src_sub, 0, 0, 0, stg, 0, nullptr);
          ok = true;
        }
      }
    }
    release(stg);
  }
  ctx->Release();
  dev->Release();
  return ok;
}

}  // namespace

IResourceHost &resource_host() {
  static ComHost *h = new ComHost();
  return *h;
}

}  // namespace refdrv

#endif  // _WIN32
