// resources.h - the driver's view of the graphics/media resources it shares.
//
// Every interop entry point reaches a Direct3D 9 / Direct3D 10 / DXGI / VA-API
// object only through these interfaces. On Linux the simulated implementation
// (sim_resources.cpp) backs them with host memory; a Windows build can plug
// in an implementation that wraps real IDirect3D9* / ID3D10* COM objects
// (QueryInterface for the type checks, AddRef/Release, LockRect/Map for the
// bytes) without touching the driver's CL code.
#pragma once
#include <cstddef>
#include <cstdint>

namespace refdrv {

enum class ResType : int {
  None = 0,
  D3D9Adapter = 1,
  D3D9Device = 2,
  D3D9Surface = 3,
  D3D9Texture = 4,
  D3D9CubeTexture = 5,
  D3D9VolumeTexture = 6,
  D3D9VertexBuffer = 7,
  D3D9IndexBuffer = 8,
  DXGIAdapter = 9,
  D3D10Device = 10,
  D3D10Buffer = 11,
  D3D10Texture2D = 12,
  D3D10Texture3D = 13,
  VADisplay = 14,
  VASurface = 15,
  D3D11Device = 16,
  D3D11Buffer = 17,
  D3D11Texture2D = 18,
  D3D11Texture3D = 19,
};

// Kind of a D3D9 device object (what the application's pointer stands for).
enum D3D9DeviceKind : int { kD3D9 = 0, kD3D9Ex = 1, kDXVA = 2 };

// A CPU view of one subresource (or plane) of a resource: zero-copy access to
// the resource's own storage, like IDirect3DSurface9::LockRect.
struct SubresourceView {
  uint8_t *data = nullptr;
  size_t row_pitch = 0;    // bytes between rows
  size_t slice_pitch = 0;  // bytes between slices (3D); row_pitch*height otherwise
  uint32_t width = 0, height = 0, depth = 1;
  uint32_t bytes_per_pixel = 1;
  size_t size = 0;  // bytes addressable from data
};

class IResource {
 public:
  virtual ~IResource() = default;
  virtual ResType type() const = 0;
  // The object that owns this one: the D3D9 / D3D10 device of a resource,
  // the adapter of a device, the VA display of a surface. nullptr if none.
  virtual IResource *owner() const = 0;
  // COM-style reference counting.
  virtual uint32_t AddRef() = 0;
  virtual uint32_t Release() = 0;
  virtual uint32_t RefCount() const = 0;
  // Devices / adapters / displays.
  virtual int device_kind() const { return -1; }
  virtual bool has_cl_device() const { return false; }
  virtual const char *name() const { return ""; }
  // Resources.
  virtual uint32_t format() const { return 0; }  // D3DFORMAT, DXGI_FORMAT or VA fourcc
  virtual uint32_t pool() const { return 0; }    // D3DPOOL
  virtual uint32_t usage() const { return 0; }   // D3D10_USAGE
  virtual uint32_t sample_count() const { return 1; }
  virtual uint32_t mip_levels() const { return 1; }
  virtual uint32_t array_size() const { return 1; }
  virtual bool standalone() const { return true; }  // D3D9 surface not owned by a texture
  virtual uint32_t va_surface_id() const { return 0; }
  virtual bool valid_shared_handle(void *h) const { return h == nullptr; }
  // Views. `sub` is the level (textures), face*levels+level (cube textures),
  // D3D10CalcSubresource (D3D10 textures) or 0. `region` is the memory-order
  // plane of planar formats (NV12: 0=Y, 1=UV; YV12: 0=Y, 1=V, 2=U).
  virtual bool view(uint32_t sub, uint32_t region, SubresourceView *out) const = 0;
  virtual uint32_t num_subresources() const { return 1; }
  virtual uint32_t num_regions() const { return 1; }
  // Content sharing. The bytes view() returns are the cl_mem's storage. A
  // resource whose bytes live elsewhere (a real Direct3D object) copies them
  // in at acquire (pull: resource -> view) and out at release (push: view ->
  // resource); both run on the driver's worker thread when the acquire /
  // release command executes, without the driver lock. false = the copy
  // failed (the command's event gets an error status). The simulation is
  // zero-copy: both are no-ops.
  virtual bool pull(uint32_t sub, uint32_t region) {
    (void)sub;
    (void)region;
    return true;
  }
  virtual bool push(uint32_t sub, uint32_t region) {
    (void)sub;
    (void)region;
    return true;
  }
  // Called on the API thread by clEnqueueAcquire* (contexts without
  // CL_CONTEXT_INTEROP_USER_SYNC): finish the producer's pending work on the
  // resource, as the specs' synchronisation guarantee asks (a VA surface:
  // vaSyncSurface). The simulation has none.
  virtual void before_acquire() {}
  // A DXVA device (IDXVAHD_Device / IDirect3DDeviceManager9) stands for the
  // Direct3D 9 device it runs on: resources created on that device belong to
  // it. nullptr for everything else.
  virtual IResource *underlying_device() const { return nullptr; }
};

class IResourceHost {
 public:
  virtual ~IResourceHost() = default;
  // The resource an application pointer stands for, or nullptr if it is not
  // a live object of this host.
  virtual IResource *from_handle(const void *handle) const = 0;
  virtual IResource *va_surface(const IResource *display, uint32_t id) const = 0;
  virtual IResource *d3d9_adapter_by_name(const char *name) const = 0;
  virtual size_t live_count() const = 0;
};

IResourceHost &resource_host();
// The simulated host (sim_resources.cpp). On Linux resource_host() is this
// one; the Windows build's host (d3d_resources_win.cpp) answers for the
// simulation's handles first and treats any other pointer as a COM object.
IResourceHost &sim_resource_host();

// D3DFORMAT / DXGI helpers shared by the simulation and the driver.
constexpr uint32_t fourcc(char a, char b, char c, char d) {
  return uint32_t(uint8_t(a)) | (uint32_t(uint8_t(b)) << 8) | (uint32_t(uint8_t(c)) << 16) | (uint32_t(uint8_t(d)) << 24);
}
constexpr uint32_t kFmtNV12 = fourcc('N', 'V', '1', '2');
constexpr uint32_t kFmtYV12 = fourcc('Y', 'V', '1', '2');
// DXGI_FORMAT_NV12 (dxgiformat.h): a D3D11 NV12 texture has two subresources per
// array slice, 2 * slice + plane (0 Y, 1 UV), as FFmpeg's OpenCL hwcontext and
// cl_intel_d3d11_nv12_media_sharing number them; one mip level.
constexpr uint32_t kDXGI_FORMAT_NV12 = 103;
uint32_t d3d9_bytes_per_pixel(uint32_t fmt);  // 0 if unknown
uint32_t dxgi_bytes_per_pixel(uint32_t fmt);  // 0 if unknown

}  // namespace refdrv
