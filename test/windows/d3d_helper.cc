// Test equipment for the Windows suite: creates real Direct3D 9Ex,
// Direct3D 10 and Direct3D 11 objects and reads or writes their contents through Direct3D
// itself, so the tests can check what OpenCL saw and what it left behind.
// Objects travel to JavaScript as bigint addresses, as users pass them to
// opencl-interop. Built for win32 only (scripts/windows/build.sh).
#define NOMINMAX
#include <windows.h>
#include <d3d9.h>
#include <d3d10.h>
#include <d3d11.h>
#include <dxgi.h>
#include <dxva2api.h>
#include <napi.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

// Releases a COM reference when the scope ends, thrown out of or not.
template <typename T>
struct Released {
  T* pointer = nullptr;
  ~Released() {
    if (pointer) pointer->Release();
  }
  T** operator&() { return &pointer; }
  T* operator->() const { return pointer; }
  operator T*() const { return pointer; }
};

uint64_t AddressOf(const void* pointer) { return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(pointer)); }

template <typename T>
T* Pointer(const Napi::Value& value) {
  if (!value.IsBigInt()) throw Napi::TypeError::New(value.Env(), "expected a bigint address");
  bool lossless = false;
  uint64_t address = value.As<Napi::BigInt>().Uint64Value(&lossless);
  if (!lossless || address == 0) throw Napi::TypeError::New(value.Env(), "bad address");
  return reinterpret_cast<T*>(static_cast<uintptr_t>(address));
}

uint32_t U32(const Napi::CallbackInfo& info, size_t index) {
  if (!info[index].IsNumber()) throw Napi::TypeError::New(info.Env(), "argument " + std::to_string(index) + " must be a number");
  return info[index].As<Napi::Number>().Uint32Value();
}

void Check(Napi::Env env, HRESULT hr, const char* call) {
  if (FAILED(hr)) {
    char text[96];
    std::snprintf(text, sizeof(text), "%s failed: HRESULT 0x%08lx", call, static_cast<unsigned long>(hr));
    throw Napi::Error::New(env, text);
  }
}

Napi::Value Address(Napi::Env env, const void* pointer) { return Napi::BigInt::New(env, AddressOf(pointer)); }

// Bytes per pixel of the formats the tests use; planar formats report 1 (the Y plane).
uint32_t D3D9BytesPerPixel(D3DFORMAT format) {
  switch (static_cast<uint32_t>(format)) {
    case D3DFMT_A32B32G32R32F: return 16;
    case D3DFMT_A16B16G16R16F: case D3DFMT_G32R32F: case D3DFMT_A16B16G16R16: return 8;
    case D3DFMT_A8R8G8B8: case D3DFMT_X8R8G8B8: case D3DFMT_A8B8G8R8: case D3DFMT_X8B8G8R8:
    case D3DFMT_R32F: case D3DFMT_G16R16F: case D3DFMT_G16R16: return 4;
    case D3DFMT_R16F: case D3DFMT_A8L8: case D3DFMT_L16: case D3DFMT_R5G6B5: return 2;
    case D3DFMT_L8: case D3DFMT_A8: return 1;
    case MAKEFOURCC('N', 'V', '1', '2'): case MAKEFOURCC('Y', 'V', '1', '2'): return 1;
    default: return 0;
  }
}

bool Planar(D3DFORMAT format) {
  return format == static_cast<D3DFORMAT>(MAKEFOURCC('N', 'V', '1', '2')) ||
         format == static_cast<D3DFORMAT>(MAKEFOURCC('Y', 'V', '1', '2'));
}

// Rows of tightly packed bytes in a surface's memory order (planar: Y then chroma, at half height).
struct Layout {
  uint32_t rowBytes = 0, rows = 0, slices = 1;
  size_t Size() const { return size_t(rowBytes) * rows * slices; }
};

Layout SurfaceLayout(Napi::Env env, D3DFORMAT format, UINT width, UINT height) {
  uint32_t bpp = D3D9BytesPerPixel(format);
  if (bpp == 0) throw Napi::Error::New(env, "d3d_helper: no byte size for D3DFORMAT " + std::to_string(format));
  return {width * bpp, Planar(format) ? height + height / 2 : height, 1};
}

void CopyRows(uint8_t* to, size_t toPitch, const uint8_t* from, size_t fromPitch, size_t rowBytes, size_t rows) {
  for (size_t row = 0; row < rows; row++) std::memcpy(to + row * toPitch, from + row * fromPitch, rowBytes);
}

HWND HiddenWindow() {
  static HWND window = nullptr;
  if (!window) {
    WNDCLASSW windowClass = {};
    windowClass.lpfnWndProc = DefWindowProcW;
    windowClass.hInstance = GetModuleHandleW(nullptr);
    windowClass.lpszClassName = L"opencl-interop-d3d-helper";
    RegisterClassW(&windowClass);
    window = CreateWindowExW(0, windowClass.lpszClassName, L"opencl-interop tests", WS_OVERLAPPEDWINDOW, 0, 0, 64, 64,
                             nullptr, nullptr, windowClass.hInstance, nullptr);
  }
  return window;
}

// ------------------------------------------------------------- Direct3D 9 --

// d3d9Device(ex: boolean): a windowed device on a hidden window.
Napi::Value D3D9Device(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  bool ex = info[0].ToBoolean();
  D3DPRESENT_PARAMETERS present = {};
  present.Windowed = TRUE;
  present.SwapEffect = D3DSWAPEFFECT_DISCARD;
  present.BackBufferFormat = D3DFMT_UNKNOWN;
  present.hDeviceWindow = HiddenWindow();
  DWORD flags = D3DCREATE_SOFTWARE_VERTEXPROCESSING | D3DCREATE_MULTITHREADED;
  if (ex) {
    IDirect3D9Ex* d3d = nullptr;
    Check(env, Direct3DCreate9Ex(D3D_SDK_VERSION, &d3d), "Direct3DCreate9Ex");
    IDirect3DDevice9Ex* device = nullptr;
    HRESULT hr = d3d->CreateDeviceEx(D3DADAPTER_DEFAULT, D3DDEVTYPE_HAL, present.hDeviceWindow, flags, &present, nullptr, &device);
    d3d->Release();
    Check(env, hr, "IDirect3D9Ex::CreateDeviceEx");
    return Address(env, device);
  }
  IDirect3D9* d3d = Direct3DCreate9(D3D_SDK_VERSION);
  if (!d3d) throw Napi::Error::New(env, "Direct3DCreate9 failed");
  IDirect3DDevice9* device = nullptr;
  HRESULT hr = d3d->CreateDevice(D3DADAPTER_DEFAULT, D3DDEVTYPE_HAL, present.hDeviceWindow, flags, &present, &device);
  d3d->Release();
  Check(env, hr, "IDirect3D9::CreateDevice");
  return Address(env, device);
}

// d3d9AdapterName(): the default adapter's identifier (cl_intel_dx9_media_sharing looks devices up by it).
Napi::Value D3D9AdapterName(const Napi::CallbackInfo& info) {
  IDirect3D9* d3d = Direct3DCreate9(D3D_SDK_VERSION);
  if (!d3d) throw Napi::Error::New(info.Env(), "Direct3DCreate9 failed");
  D3DADAPTER_IDENTIFIER9 identifier = {};
  HRESULT hr = d3d->GetAdapterIdentifier(D3DADAPTER_DEFAULT, 0, &identifier);
  d3d->Release();
  Check(info.Env(), hr, "IDirect3D9::GetAdapterIdentifier");
  return Napi::String::New(info.Env(), identifier.Description);
}

// dxvaDeviceManager(device): an IDirect3DDeviceManager9 holding the device.
Napi::Value DxvaDeviceManager(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto* device = Pointer<IDirect3DDevice9>(info[0]);
  UINT token = 0;
  IDirect3DDeviceManager9* manager = nullptr;
  Check(env, DXVA2CreateDirect3DDeviceManager9(&token, &manager), "DXVA2CreateDirect3DDeviceManager9");
  HRESULT hr = manager->ResetDevice(device, token);
  if (FAILED(hr)) manager->Release();
  Check(env, hr, "IDirect3DDeviceManager9::ResetDevice");
  return Address(env, manager);
}

// d3d9Surface(device, width, height, format, pool): CreateOffscreenPlainSurface.
Napi::Value D3D9Surface(const Napi::CallbackInfo& info) {
  auto* device = Pointer<IDirect3DDevice9>(info[0]);
  IDirect3DSurface9* surface = nullptr;
  Check(info.Env(),
        device->CreateOffscreenPlainSurface(U32(info, 1), U32(info, 2), static_cast<D3DFORMAT>(U32(info, 3)),
                                            static_cast<D3DPOOL>(U32(info, 4)), &surface, nullptr),
        "IDirect3DDevice9::CreateOffscreenPlainSurface");
  return Address(info.Env(), surface);
}

// d3d9RenderTarget(device, width, height, format): a surface that cannot be locked.
Napi::Value D3D9RenderTarget(const Napi::CallbackInfo& info) {
  auto* device = Pointer<IDirect3DDevice9>(info[0]);
  IDirect3DSurface9* surface = nullptr;
  Check(info.Env(),
        device->CreateRenderTarget(U32(info, 1), U32(info, 2), static_cast<D3DFORMAT>(U32(info, 3)), D3DMULTISAMPLE_NONE,
                                   0, FALSE, &surface, nullptr),
        "IDirect3DDevice9::CreateRenderTarget");
  return Address(info.Env(), surface);
}

// d3d9Texture(device, width, height, levels, usage, format, pool)
Napi::Value D3D9Texture(const Napi::CallbackInfo& info) {
  auto* device = Pointer<IDirect3DDevice9>(info[0]);
  IDirect3DTexture9* texture = nullptr;
  Check(info.Env(),
        device->CreateTexture(U32(info, 1), U32(info, 2), U32(info, 3), U32(info, 4), static_cast<D3DFORMAT>(U32(info, 5)),
                              static_cast<D3DPOOL>(U32(info, 6)), &texture, nullptr),
        "IDirect3DDevice9::CreateTexture");
  return Address(info.Env(), texture);
}

// d3d9CubeTexture(device, edge, levels, usage, format, pool)
Napi::Value D3D9CubeTexture(const Napi::CallbackInfo& info) {
  auto* device = Pointer<IDirect3DDevice9>(info[0]);
  IDirect3DCubeTexture9* texture = nullptr;
  Check(info.Env(),
        device->CreateCubeTexture(U32(info, 1), U32(info, 2), U32(info, 3), static_cast<D3DFORMAT>(U32(info, 4)),
                                  static_cast<D3DPOOL>(U32(info, 5)), &texture, nullptr),
        "IDirect3DDevice9::CreateCubeTexture");
  return Address(info.Env(), texture);
}

// d3d9VolumeTexture(device, width, height, depth, levels, usage, format, pool)
Napi::Value D3D9VolumeTexture(const Napi::CallbackInfo& info) {
  auto* device = Pointer<IDirect3DDevice9>(info[0]);
  IDirect3DVolumeTexture9* texture = nullptr;
  Check(info.Env(),
        device->CreateVolumeTexture(U32(info, 1), U32(info, 2), U32(info, 3), U32(info, 4), U32(info, 5),
                                    static_cast<D3DFORMAT>(U32(info, 6)), static_cast<D3DPOOL>(U32(info, 7)), &texture,
                                    nullptr),
        "IDirect3DDevice9::CreateVolumeTexture");
  return Address(info.Env(), texture);
}

// d3d9VertexBuffer(device, size, usage, pool)
Napi::Value D3D9VertexBuffer(const Napi::CallbackInfo& info) {
  auto* device = Pointer<IDirect3DDevice9>(info[0]);
  IDirect3DVertexBuffer9* buffer = nullptr;
  Check(info.Env(),
        device->CreateVertexBuffer(U32(info, 1), U32(info, 2), 0, static_cast<D3DPOOL>(U32(info, 3)), &buffer, nullptr),
        "IDirect3DDevice9::CreateVertexBuffer");
  return Address(info.Env(), buffer);
}

// d3d9IndexBuffer(device, size, usage, format, pool)
Napi::Value D3D9IndexBuffer(const Napi::CallbackInfo& info) {
  auto* device = Pointer<IDirect3DDevice9>(info[0]);
  IDirect3DIndexBuffer9* buffer = nullptr;
  Check(info.Env(),
        device->CreateIndexBuffer(U32(info, 1), U32(info, 2), static_cast<D3DFORMAT>(U32(info, 3)),
                                  static_cast<D3DPOOL>(U32(info, 4)), &buffer, nullptr),
        "IDirect3DDevice9::CreateIndexBuffer");
  return Address(info.Env(), buffer);
}

// The surface a (resource, sub) pair names: the surface itself, a texture's
// level `sub`, or a cube texture's face sub / levels, level sub % levels.
IDirect3DSurface9* SurfaceOf(Napi::Env env, IUnknown* resource, uint32_t sub) {
  IDirect3DSurface9* surface = nullptr;
  if (SUCCEEDED(resource->QueryInterface(IID_IDirect3DSurface9, reinterpret_cast<void**>(&surface)))) return surface;
  IDirect3DTexture9* texture = nullptr;
  if (SUCCEEDED(resource->QueryInterface(IID_IDirect3DTexture9, reinterpret_cast<void**>(&texture)))) {
    HRESULT hr = texture->GetSurfaceLevel(sub, &surface);
    texture->Release();
    Check(env, hr, "IDirect3DTexture9::GetSurfaceLevel");
    return surface;
  }
  IDirect3DCubeTexture9* cube = nullptr;
  if (SUCCEEDED(resource->QueryInterface(IID_IDirect3DCubeTexture9, reinterpret_cast<void**>(&cube)))) {
    DWORD levels = cube->GetLevelCount();
    HRESULT hr = cube->GetCubeMapSurface(static_cast<D3DCUBEMAP_FACES>(sub / levels), sub % levels, &surface);
    cube->Release();
    Check(env, hr, "IDirect3DCubeTexture9::GetCubeMapSurface");
    return surface;
  }
  return nullptr;
}

// Lockable surfaces are locked; others go through a system-memory copy.
void SurfaceAccess(Napi::Env env, IDirect3DSurface9* surface, uint8_t* bytes, size_t size, bool write) {
  D3DSURFACE_DESC desc;
  Check(env, surface->GetDesc(&desc), "IDirect3DSurface9::GetDesc");
  Layout layout = SurfaceLayout(env, desc.Format, desc.Width, desc.Height);
  if (size != layout.Size()) throw Napi::RangeError::New(env, "expected " + std::to_string(layout.Size()) + " bytes");
  bool lockable = desc.Pool != D3DPOOL_DEFAULT || !(desc.Usage & (D3DUSAGE_RENDERTARGET | D3DUSAGE_DEPTHSTENCIL));
  if (desc.Pool == D3DPOOL_DEFAULT && desc.Usage == 0) {
    Released<IDirect3DBaseTexture9> owner;  // a DEFAULT-pool texture level without DYNAMIC cannot be locked
    if (SUCCEEDED(surface->GetContainer(IID_IDirect3DBaseTexture9, reinterpret_cast<void**>(&owner)))) lockable = false;
  }
  IDirect3DSurface9* target = surface;
  Released<IDirect3DSurface9> staging;
  Released<IDirect3DDevice9> device;
  if (!lockable) {
    Check(env, surface->GetDevice(&device), "IDirect3DSurface9::GetDevice");
    Check(env, device->CreateOffscreenPlainSurface(desc.Width, desc.Height, desc.Format, D3DPOOL_SYSTEMMEM, &staging, nullptr),
          "CreateOffscreenPlainSurface(SYSTEMMEM)");
    if (!write) Check(env, device->GetRenderTargetData(surface, staging), "IDirect3DDevice9::GetRenderTargetData");
    target = staging;
  }
  D3DLOCKED_RECT locked;
  Check(env, target->LockRect(&locked, nullptr, write ? 0 : D3DLOCK_READONLY), "IDirect3DSurface9::LockRect");
  if (write)
    CopyRows(static_cast<uint8_t*>(locked.pBits), locked.Pitch, bytes, layout.rowBytes, layout.rowBytes, layout.rows);
  else
    CopyRows(bytes, layout.rowBytes, static_cast<uint8_t*>(locked.pBits), locked.Pitch, layout.rowBytes, layout.rows);
  target->UnlockRect();
  if (staging && write) Check(env, device->UpdateSurface(staging, nullptr, surface, nullptr), "IDirect3DDevice9::UpdateSurface");
}

// d3d9Access(resource, sub, bytes?): writes bytes when given, else returns the contents (tightly packed).
Napi::Value D3D9Access(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto* resource = Pointer<IUnknown>(info[0]);
  uint32_t sub = U32(info, 1);
  bool write = info[2].IsTypedArray();
  Napi::Uint8Array given = write ? info[2].As<Napi::Uint8Array>() : Napi::Uint8Array();

  Released<IDirect3DSurface9> surface;
  surface.pointer = SurfaceOf(env, resource, sub);
  if (surface) {
    D3DSURFACE_DESC desc;
    surface->GetDesc(&desc);
    Layout layout = SurfaceLayout(env, desc.Format, desc.Width, desc.Height);
    Napi::Uint8Array bytes = write ? given : Napi::Uint8Array::New(env, layout.Size());
    SurfaceAccess(env, surface, bytes.Data(), bytes.ByteLength(), write);
    return write ? env.Undefined() : bytes;
  }

  Released<IDirect3DVolumeTexture9> volume;
  if (SUCCEEDED(resource->QueryInterface(IID_IDirect3DVolumeTexture9, reinterpret_cast<void**>(&volume)))) {
    D3DVOLUME_DESC desc;
    Check(env, volume->GetLevelDesc(sub, &desc), "IDirect3DVolumeTexture9::GetLevelDesc");
    uint32_t rowBytes = desc.Width * D3D9BytesPerPixel(desc.Format);
    size_t size = size_t(rowBytes) * desc.Height * desc.Depth;
    if (write && given.ByteLength() != size) throw Napi::RangeError::New(env, "expected " + std::to_string(size) + " bytes");
    D3DLOCKED_BOX box;
    Check(env, volume->LockBox(sub, &box, nullptr, write ? 0 : D3DLOCK_READONLY), "IDirect3DVolumeTexture9::LockBox");
    Napi::Uint8Array bytes = write ? given : Napi::Uint8Array::New(env, size);
    for (UINT slice = 0; slice < desc.Depth; slice++) {
      uint8_t* mapped = static_cast<uint8_t*>(box.pBits) + size_t(slice) * box.SlicePitch;
      uint8_t* packed = bytes.Data() + size_t(slice) * rowBytes * desc.Height;
      if (write)
        CopyRows(mapped, box.RowPitch, packed, rowBytes, rowBytes, desc.Height);
      else
        CopyRows(packed, rowBytes, mapped, box.RowPitch, rowBytes, desc.Height);
    }
    volume->UnlockBox(sub);
    return write ? env.Undefined() : bytes;
  }

  // Vertex and index buffers.
  void* mapped = nullptr;
  size_t size = 0;
  Released<IDirect3DVertexBuffer9> vertices;
  Released<IDirect3DIndexBuffer9> indices;
  if (SUCCEEDED(resource->QueryInterface(IID_IDirect3DVertexBuffer9, reinterpret_cast<void**>(&vertices)))) {
    D3DVERTEXBUFFER_DESC desc;
    vertices->GetDesc(&desc);
    size = desc.Size;
    Check(env, vertices->Lock(0, 0, &mapped, write ? 0 : D3DLOCK_READONLY), "IDirect3DVertexBuffer9::Lock");
  } else if (SUCCEEDED(resource->QueryInterface(IID_IDirect3DIndexBuffer9, reinterpret_cast<void**>(&indices)))) {
    D3DINDEXBUFFER_DESC desc;
    indices->GetDesc(&desc);
    size = desc.Size;
    Check(env, indices->Lock(0, 0, &mapped, write ? 0 : D3DLOCK_READONLY), "IDirect3DIndexBuffer9::Lock");
  } else {
    throw Napi::TypeError::New(env, "not a Direct3D 9 surface, texture or buffer");
  }
  Napi::Uint8Array bytes = write ? given : Napi::Uint8Array::New(env, size);
  size_t count = bytes.ByteLength() < size ? bytes.ByteLength() : size;
  if (write)
    std::memcpy(mapped, bytes.Data(), count);
  else
    std::memcpy(bytes.Data(), mapped, count);
  if (vertices) vertices->Unlock();
  else indices->Unlock();
  return write ? env.Undefined() : bytes;
}

// ------------------------------------------------------------ Direct3D 10 --

Napi::Value D3D10Device(const Napi::CallbackInfo& info) {
  ID3D10Device* device = nullptr;
  Check(info.Env(), D3D10CreateDevice(nullptr, D3D10_DRIVER_TYPE_HARDWARE, nullptr, 0, D3D10_SDK_VERSION, &device),
        "D3D10CreateDevice");
  return Address(info.Env(), device);
}

// dxgiAdapter(device): the IDXGIAdapter an ID3D10Device runs on.
Napi::Value DxgiAdapter(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto* device = Pointer<ID3D10Device>(info[0]);
  IDXGIDevice* dxgi = nullptr;
  Check(env, device->QueryInterface(IID_IDXGIDevice, reinterpret_cast<void**>(&dxgi)), "QueryInterface(IDXGIDevice)");
  IDXGIAdapter* adapter = nullptr;
  HRESULT hr = dxgi->GetAdapter(&adapter);
  dxgi->Release();
  Check(env, hr, "IDXGIDevice::GetAdapter");
  return Address(env, adapter);
}

// d3d10Buffer(device, size, usage, bindFlags, cpuAccess)
Napi::Value D3D10Buffer(const Napi::CallbackInfo& info) {
  auto* device = Pointer<ID3D10Device>(info[0]);
  D3D10_BUFFER_DESC desc = {};
  desc.ByteWidth = U32(info, 1);
  desc.Usage = static_cast<D3D10_USAGE>(U32(info, 2));
  desc.BindFlags = U32(info, 3);
  desc.CPUAccessFlags = U32(info, 4);
  ID3D10Buffer* buffer = nullptr;
  Check(info.Env(), device->CreateBuffer(&desc, nullptr, &buffer), "ID3D10Device::CreateBuffer");
  return Address(info.Env(), buffer);
}

// Reads numbers from an options object: get(key, fallback).
auto Options(const Napi::Value& value) {
  if (!value.IsObject()) throw Napi::TypeError::New(value.Env(), "options must be an object");
  Napi::Object options = value.As<Napi::Object>();
  return [options](const char* key, uint32_t fallback) {
    Napi::Value entry = options.Get(key);
    return entry.IsNumber() ? entry.As<Napi::Number>().Uint32Value() : fallback;
  };
}

// d3d10Texture2D(device, { width, height, mipLevels, arraySize, format, usage, bindFlags, cpuAccess, sampleCount })
Napi::Value D3D10Texture2D(const Napi::CallbackInfo& info) {
  auto* device = Pointer<ID3D10Device>(info[0]);
  auto get = Options(info[1]);
  D3D10_TEXTURE2D_DESC desc = {};
  desc.Width = get("width", 0);
  desc.Height = get("height", 0);
  desc.MipLevels = get("mipLevels", 1);
  desc.ArraySize = get("arraySize", 1);
  desc.Format = static_cast<DXGI_FORMAT>(get("format", 0));
  desc.SampleDesc.Count = get("sampleCount", 1);
  desc.Usage = static_cast<D3D10_USAGE>(get("usage", D3D10_USAGE_DEFAULT));
  desc.BindFlags = get("bindFlags", D3D10_BIND_SHADER_RESOURCE);
  desc.CPUAccessFlags = get("cpuAccess", 0);
  ID3D10Texture2D* texture = nullptr;
  Check(info.Env(), device->CreateTexture2D(&desc, nullptr, &texture), "ID3D10Device::CreateTexture2D");
  return Address(info.Env(), texture);
}

// d3d10Texture3D(device, { width, height, depth, mipLevels, format, usage, bindFlags, cpuAccess })
Napi::Value D3D10Texture3D(const Napi::CallbackInfo& info) {
  auto* device = Pointer<ID3D10Device>(info[0]);
  auto get = Options(info[1]);
  D3D10_TEXTURE3D_DESC desc = {};
  desc.Width = get("width", 0);
  desc.Height = get("height", 0);
  desc.Depth = get("depth", 0);
  desc.MipLevels = get("mipLevels", 1);
  desc.Format = static_cast<DXGI_FORMAT>(get("format", 0));
  desc.Usage = static_cast<D3D10_USAGE>(get("usage", D3D10_USAGE_DEFAULT));
  desc.BindFlags = get("bindFlags", D3D10_BIND_SHADER_RESOURCE);
  desc.CPUAccessFlags = get("cpuAccess", 0);
  ID3D10Texture3D* texture = nullptr;
  Check(info.Env(), device->CreateTexture3D(&desc, nullptr, &texture), "ID3D10Device::CreateTexture3D");
  return Address(info.Env(), texture);
}

uint32_t DxgiBytesPerPixel(DXGI_FORMAT format) {
  switch (format) {
    case DXGI_FORMAT_R32G32B32A32_FLOAT: case DXGI_FORMAT_R32G32B32A32_UINT: case DXGI_FORMAT_R32G32B32A32_SINT: return 16;
    case DXGI_FORMAT_R16G16B16A16_FLOAT: case DXGI_FORMAT_R16G16B16A16_UNORM: case DXGI_FORMAT_R16G16B16A16_UINT:
    case DXGI_FORMAT_R16G16B16A16_SNORM: case DXGI_FORMAT_R16G16B16A16_SINT: case DXGI_FORMAT_R32G32_FLOAT:
    case DXGI_FORMAT_R32G32_UINT: case DXGI_FORMAT_R32G32_SINT: return 8;
    case DXGI_FORMAT_R8G8B8A8_UNORM: case DXGI_FORMAT_R8G8B8A8_UINT: case DXGI_FORMAT_R8G8B8A8_SNORM:
    case DXGI_FORMAT_R8G8B8A8_SINT: case DXGI_FORMAT_R32_FLOAT: case DXGI_FORMAT_R32_UINT: case DXGI_FORMAT_R32_SINT:
    case DXGI_FORMAT_R16G16_FLOAT: case DXGI_FORMAT_R16G16_UNORM: case DXGI_FORMAT_R16G16_UINT:
    case DXGI_FORMAT_R8G8B8A8_UNORM_SRGB: case DXGI_FORMAT_B8G8R8A8_UNORM: return 4;
    case DXGI_FORMAT_R16_FLOAT: case DXGI_FORMAT_R16_UNORM: case DXGI_FORMAT_R16_UINT: case DXGI_FORMAT_R16_SINT:
    case DXGI_FORMAT_R8G8_UNORM: case DXGI_FORMAT_R8G8_UINT: return 2;
    case DXGI_FORMAT_R8_UNORM: case DXGI_FORMAT_R8_UINT: case DXGI_FORMAT_R8_SNORM: case DXGI_FORMAT_R8_SINT:
    case DXGI_FORMAT_A8_UNORM: return 1;
    default: return 0;
  }
}

// d3d10Access(resource, subresource, bytes?): through a staging copy, as D3D10 requires for DEFAULT resources.
Napi::Value D3D10Access(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto* resource = Pointer<ID3D10Resource>(info[0]);
  uint32_t sub = U32(info, 1);
  bool write = info[2].IsTypedArray();
  Released<ID3D10Device> device;
  resource->GetDevice(&device);
  D3D10_RESOURCE_DIMENSION dimension;
  resource->GetType(&dimension);
  Released<ID3D10Resource> staging;
  uint32_t rowBytes = 0, rows = 1, slices = 1;
  HRESULT hr = E_INVALIDARG;
  if (dimension == D3D10_RESOURCE_DIMENSION_BUFFER) {
    D3D10_BUFFER_DESC desc;
    static_cast<ID3D10Buffer*>(resource)->GetDesc(&desc);
    rowBytes = desc.ByteWidth;
    desc.Usage = D3D10_USAGE_STAGING;
    desc.BindFlags = 0;
    desc.CPUAccessFlags = D3D10_CPU_ACCESS_READ | D3D10_CPU_ACCESS_WRITE;
    desc.MiscFlags = 0;
    hr = device->CreateBuffer(&desc, nullptr, reinterpret_cast<ID3D10Buffer**>(&staging));
  } else if (dimension == D3D10_RESOURCE_DIMENSION_TEXTURE2D) {
    D3D10_TEXTURE2D_DESC desc;
    static_cast<ID3D10Texture2D*>(resource)->GetDesc(&desc);
    uint32_t level = sub % desc.MipLevels;
    rowBytes = (desc.Width >> level ? desc.Width >> level : 1) * DxgiBytesPerPixel(desc.Format);
    rows = desc.Height >> level ? desc.Height >> level : 1;
    desc.Usage = D3D10_USAGE_STAGING;
    desc.BindFlags = 0;
    desc.CPUAccessFlags = D3D10_CPU_ACCESS_READ | D3D10_CPU_ACCESS_WRITE;
    desc.MiscFlags = 0;
    hr = device->CreateTexture2D(&desc, nullptr, reinterpret_cast<ID3D10Texture2D**>(&staging));
  } else if (dimension == D3D10_RESOURCE_DIMENSION_TEXTURE3D) {
    D3D10_TEXTURE3D_DESC desc;
    static_cast<ID3D10Texture3D*>(resource)->GetDesc(&desc);
    rowBytes = (desc.Width >> sub ? desc.Width >> sub : 1) * DxgiBytesPerPixel(desc.Format);
    rows = desc.Height >> sub ? desc.Height >> sub : 1;
    slices = desc.Depth >> sub ? desc.Depth >> sub : 1;
    desc.Usage = D3D10_USAGE_STAGING;
    desc.BindFlags = 0;
    desc.CPUAccessFlags = D3D10_CPU_ACCESS_READ | D3D10_CPU_ACCESS_WRITE;
    desc.MiscFlags = 0;
    hr = device->CreateTexture3D(&desc, nullptr, reinterpret_cast<ID3D10Texture3D**>(&staging));
  }
  Check(env, hr, "creating a D3D10 staging resource");
  size_t size = size_t(rowBytes) * rows * slices;
  Napi::Uint8Array bytes = write ? info[2].As<Napi::Uint8Array>() : Napi::Uint8Array::New(env, size);
  if (bytes.ByteLength() != size) throw Napi::RangeError::New(env, "expected " + std::to_string(size) + " bytes");
  device->CopySubresourceRegion(staging, sub, 0, 0, 0, resource, sub, nullptr);
  D3D10_MAP mode = write ? D3D10_MAP_READ_WRITE : D3D10_MAP_READ;
  if (dimension == D3D10_RESOURCE_DIMENSION_BUFFER) {
    void* mapped = nullptr;
    hr = static_cast<ID3D10Buffer*>(staging.pointer)->Map(mode, 0, &mapped);
    if (SUCCEEDED(hr)) {
      if (write) std::memcpy(mapped, bytes.Data(), size); else std::memcpy(bytes.Data(), mapped, size);
      static_cast<ID3D10Buffer*>(staging.pointer)->Unmap();
    }
  } else if (dimension == D3D10_RESOURCE_DIMENSION_TEXTURE2D) {
    D3D10_MAPPED_TEXTURE2D mapped;
    hr = static_cast<ID3D10Texture2D*>(staging.pointer)->Map(sub, mode, 0, &mapped);
    if (SUCCEEDED(hr)) {
      auto* data = static_cast<uint8_t*>(mapped.pData);
      if (write) CopyRows(data, mapped.RowPitch, bytes.Data(), rowBytes, rowBytes, rows);
      else CopyRows(bytes.Data(), rowBytes, data, mapped.RowPitch, rowBytes, rows);
      static_cast<ID3D10Texture2D*>(staging.pointer)->Unmap(sub);
    }
  } else {
    D3D10_MAPPED_TEXTURE3D mapped;
    hr = static_cast<ID3D10Texture3D*>(staging.pointer)->Map(sub, mode, 0, &mapped);
    if (SUCCEEDED(hr)) {
      for (uint32_t slice = 0; slice < slices; slice++) {
        auto* data = static_cast<uint8_t*>(mapped.pData) + size_t(slice) * mapped.DepthPitch;
        uint8_t* packed = bytes.Data() + size_t(slice) * rowBytes * rows;
        if (write) CopyRows(data, mapped.RowPitch, packed, rowBytes, rowBytes, rows);
        else CopyRows(packed, rowBytes, data, mapped.RowPitch, rowBytes, rows);
      }
      static_cast<ID3D10Texture3D*>(staging.pointer)->Unmap(sub);
    }
  }
  Check(env, hr, "mapping a D3D10 staging resource");
  if (write) device->CopySubresourceRegion(resource, sub, 0, 0, 0, staging, sub, nullptr);
  return write ? env.Undefined() : bytes;
}

// ------------------------------------------------------------ Direct3D 11 --

Napi::Value D3D11Device(const Napi::CallbackInfo& info) {
  ID3D11Device* device = nullptr;
  Check(info.Env(),
        D3D11CreateDevice(nullptr, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, nullptr, 0, D3D11_SDK_VERSION, &device, nullptr,
                          nullptr),
        "D3D11CreateDevice");
  return Address(info.Env(), device);
}

// d3d11Buffer(device, size, usage, bindFlags, cpuAccess)
Napi::Value D3D11Buffer(const Napi::CallbackInfo& info) {
  auto* device = Pointer<ID3D11Device>(info[0]);
  D3D11_BUFFER_DESC desc = {};
  desc.ByteWidth = U32(info, 1);
  desc.Usage = static_cast<D3D11_USAGE>(U32(info, 2));
  desc.BindFlags = U32(info, 3);
  desc.CPUAccessFlags = U32(info, 4);
  ID3D11Buffer* buffer = nullptr;
  Check(info.Env(), device->CreateBuffer(&desc, nullptr, &buffer), "ID3D11Device::CreateBuffer");
  return Address(info.Env(), buffer);
}

// d3d11Texture2D(device, { width, height, mipLevels, arraySize, format, usage, bindFlags, cpuAccess, sampleCount })
Napi::Value D3D11Texture2D(const Napi::CallbackInfo& info) {
  auto* device = Pointer<ID3D11Device>(info[0]);
  auto get = Options(info[1]);
  D3D11_TEXTURE2D_DESC desc = {};
  desc.Width = get("width", 0);
  desc.Height = get("height", 0);
  desc.MipLevels = get("mipLevels", 1);
  desc.ArraySize = get("arraySize", 1);
  desc.Format = static_cast<DXGI_FORMAT>(get("format", 0));
  desc.SampleDesc.Count = get("sampleCount", 1);
  desc.Usage = static_cast<D3D11_USAGE>(get("usage", D3D11_USAGE_DEFAULT));
  desc.BindFlags = get("bindFlags", D3D11_BIND_SHADER_RESOURCE);
  desc.CPUAccessFlags = get("cpuAccess", 0);
  ID3D11Texture2D* texture = nullptr;
  Check(info.Env(), device->CreateTexture2D(&desc, nullptr, &texture), "ID3D11Device::CreateTexture2D");
  return Address(info.Env(), texture);
}

// d3d11Texture3D(device, { width, height, depth, mipLevels, format, usage, bindFlags, cpuAccess })
Napi::Value D3D11Texture3D(const Napi::CallbackInfo& info) {
  auto* device = Pointer<ID3D11Device>(info[0]);
  auto get = Options(info[1]);
  D3D11_TEXTURE3D_DESC desc = {};
  desc.Width = get("width", 0);
  desc.Height = get("height", 0);
  desc.Depth = get("depth", 0);
  desc.MipLevels = get("mipLevels", 1);
  desc.Format = static_cast<DXGI_FORMAT>(get("format", 0));
  desc.Usage = static_cast<D3D11_USAGE>(get("usage", D3D11_USAGE_DEFAULT));
  desc.BindFlags = get("bindFlags", D3D11_BIND_SHADER_RESOURCE);
  desc.CPUAccessFlags = get("cpuAccess", 0);
  ID3D11Texture3D* texture = nullptr;
  Check(info.Env(), device->CreateTexture3D(&desc, nullptr, &texture), "ID3D11Device::CreateTexture3D");
  return Address(info.Env(), texture);
}

// d3d11Access(resource, subresource, bytes?): through a staging copy and the immediate context.
Napi::Value D3D11Access(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto* resource = Pointer<ID3D11Resource>(info[0]);
  uint32_t sub = U32(info, 1);
  bool write = info[2].IsTypedArray();
  Released<ID3D11Device> device;
  resource->GetDevice(&device);
  Released<ID3D11DeviceContext> context;
  device->GetImmediateContext(&context);
  D3D11_RESOURCE_DIMENSION dimension;
  resource->GetType(&dimension);
  Released<ID3D11Resource> staging;
  uint32_t rowBytes = 0, rows = 1, slices = 1;
  HRESULT hr = E_INVALIDARG;
  const UINT cpu = D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE;
  if (dimension == D3D11_RESOURCE_DIMENSION_BUFFER) {
    D3D11_BUFFER_DESC desc;
    static_cast<ID3D11Buffer*>(resource)->GetDesc(&desc);
    rowBytes = desc.ByteWidth;
    desc.Usage = D3D11_USAGE_STAGING;
    desc.BindFlags = 0;
    desc.CPUAccessFlags = cpu;
    desc.MiscFlags = 0;
    hr = device->CreateBuffer(&desc, nullptr, reinterpret_cast<ID3D11Buffer**>(&staging));
  } else if (dimension == D3D11_RESOURCE_DIMENSION_TEXTURE2D) {
    D3D11_TEXTURE2D_DESC desc;
    static_cast<ID3D11Texture2D*>(resource)->GetDesc(&desc);
    uint32_t level = sub % desc.MipLevels;
    rowBytes = (desc.Width >> level ? desc.Width >> level : 1) * DxgiBytesPerPixel(desc.Format);
    rows = desc.Height >> level ? desc.Height >> level : 1;
    desc.Usage = D3D11_USAGE_STAGING;
    desc.BindFlags = 0;
    desc.CPUAccessFlags = cpu;
    desc.MiscFlags = 0;
    hr = device->CreateTexture2D(&desc, nullptr, reinterpret_cast<ID3D11Texture2D**>(&staging));
  } else if (dimension == D3D11_RESOURCE_DIMENSION_TEXTURE3D) {
    D3D11_TEXTURE3D_DESC desc;
    static_cast<ID3D11Texture3D*>(resource)->GetDesc(&desc);
    rowBytes = (desc.Width >> sub ? desc.Width >> sub : 1) * DxgiBytesPerPixel(desc.Format);
    rows = desc.Height >> sub ? desc.Height >> sub : 1;
    slices = desc.Depth >> sub ? desc.Depth >> sub : 1;
    desc.Usage = D3D11_USAGE_STAGING;
    desc.BindFlags = 0;
    desc.CPUAccessFlags = cpu;
    desc.MiscFlags = 0;
    hr = device->CreateTexture3D(&desc, nullptr, reinterpret_cast<ID3D11Texture3D**>(&staging));
  }
  Check(env, hr, "creating a D3D11 staging resource");
  size_t size = size_t(rowBytes) * rows * slices;
  Napi::Uint8Array bytes = write ? info[2].As<Napi::Uint8Array>() : Napi::Uint8Array::New(env, size);
  if (bytes.ByteLength() != size) throw Napi::RangeError::New(env, "expected " + std::to_string(size) + " bytes");
  context->CopySubresourceRegion(staging, sub, 0, 0, 0, resource, sub, nullptr);
  D3D11_MAPPED_SUBRESOURCE mapped;
  hr = context->Map(staging, sub, write ? D3D11_MAP_READ_WRITE : D3D11_MAP_READ, 0, &mapped);
  Check(env, hr, "mapping a D3D11 staging resource");
  for (uint32_t slice = 0; slice < slices; slice++) {
    auto* data = static_cast<uint8_t*>(mapped.pData) + size_t(slice) * mapped.DepthPitch;
    uint8_t* packed = bytes.Data() + size_t(slice) * rowBytes * rows;
    size_t pitch = dimension == D3D11_RESOURCE_DIMENSION_BUFFER ? rowBytes : mapped.RowPitch;
    if (write) CopyRows(data, pitch, packed, rowBytes, rowBytes, rows);
    else CopyRows(packed, rowBytes, data, pitch, rowBytes, rows);
  }
  context->Unmap(staging, sub);
  if (write) context->CopySubresourceRegion(resource, sub, 0, 0, 0, staging, sub, nullptr);
  return write ? env.Undefined() : bytes;
}

// ------------------------------------------------------------------ COM --

// An object with a vtable that is not COM: a driver must refuse it, not call into it.
struct NotDirect3D {
  virtual ~NotDirect3D() = default;
  virtual long Method(long value) { return value + 1; }
  virtual long Other(long value) { return value - 1; }
};
NotDirect3D notDirect3D;

// notDirect3D(): the address of a live C++ object of this module.
Napi::Value NotDirect3DObject(const Napi::CallbackInfo& info) { return Address(info.Env(), &notDirect3D); }

// refCount(object): the object's reference count, read as AddRef()/Release() return it.
Napi::Value RefCount(const Napi::CallbackInfo& info) {
  auto* object = Pointer<IUnknown>(info[0]);
  object->AddRef();
  return Napi::Number::New(info.Env(), object->Release());
}

// release(object): one IUnknown::Release; returns the remaining count.
Napi::Value Release(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), Pointer<IUnknown>(info[0])->Release());
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  exports.Set("d3d9Device", Napi::Function::New(env, D3D9Device));
  exports.Set("d3d9AdapterName", Napi::Function::New(env, D3D9AdapterName));
  exports.Set("dxvaDeviceManager", Napi::Function::New(env, DxvaDeviceManager));
  exports.Set("d3d9Surface", Napi::Function::New(env, D3D9Surface));
  exports.Set("d3d9RenderTarget", Napi::Function::New(env, D3D9RenderTarget));
  exports.Set("d3d9Texture", Napi::Function::New(env, D3D9Texture));
  exports.Set("d3d9CubeTexture", Napi::Function::New(env, D3D9CubeTexture));
  exports.Set("d3d9VolumeTexture", Napi::Function::New(env, D3D9VolumeTexture));
  exports.Set("d3d9VertexBuffer", Napi::Function::New(env, D3D9VertexBuffer));
  exports.Set("d3d9IndexBuffer", Napi::Function::New(env, D3D9IndexBuffer));
  exports.Set("d3d9Access", Napi::Function::New(env, D3D9Access));
  exports.Set("d3d10Device", Napi::Function::New(env, D3D10Device));
  exports.Set("dxgiAdapter", Napi::Function::New(env, DxgiAdapter));
  exports.Set("d3d10Buffer", Napi::Function::New(env, D3D10Buffer));
  exports.Set("d3d10Texture2D", Napi::Function::New(env, D3D10Texture2D));
  exports.Set("d3d10Texture3D", Napi::Function::New(env, D3D10Texture3D));
  exports.Set("d3d10Access", Napi::Function::New(env, D3D10Access));
  exports.Set("d3d11Device", Napi::Function::New(env, D3D11Device));
  exports.Set("d3d11Buffer", Napi::Function::New(env, D3D11Buffer));
  exports.Set("d3d11Texture2D", Napi::Function::New(env, D3D11Texture2D));
  exports.Set("d3d11Texture3D", Napi::Function::New(env, D3D11Texture3D));
  exports.Set("d3d11Access", Napi::Function::New(env, D3D11Access));
  exports.Set("notDirect3D", Napi::Function::New(env, NotDirect3DObject));
  exports.Set("refCount", Napi::Function::New(env, RefCount));
  exports.Set("release", Napi::Function::New(env, Release));
  return exports;
}

}  // namespace

NODE_API_MODULE(d3d_helper, Init)
