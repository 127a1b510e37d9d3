// Direct3D 9Ex for the Direct3D module (Windows only): IDirect3DDevice9Ex on
// an adapter, its IDirect3DDeviceManager9 (DXVA2), offscreen plain and render
// target surfaces, textures (2D, cube, volume) and their surfaces, vertex and
// index buffers, created shared (pSharedHandle) or opened from a shared
// handle, and contents through LockRect / LockBox / Lock (a SYSTEMMEM copy
// for surfaces that cannot be locked). lib/direct3d/d3d9.ts validates first.
#ifdef _WIN32

#include "direct3d/object.h"

#include <d3d9.h>
#include <dxva2api.h>

namespace ocl {
namespace d3d {
namespace {

const char* const kDevice = "D3D9Device";

IDirect3D9Ex* CreateD3D9(Napi::Env env) {
  using Create = HRESULT(WINAPI*)(UINT, IDirect3D9Ex**);
  auto create = reinterpret_cast<Create>(SystemFunction(env, "d3d9.dll", "Direct3DCreate9Ex"));
  IDirect3D9Ex* d3d = nullptr;
  CheckHr(env, create(D3D_SDK_VERSION, &d3d), "Direct3DCreate9Ex");
  return d3d;
}

Napi::Object DescribeD3D9Adapter(Napi::Env env, IDirect3D9Ex* d3d, UINT ordinal) {
  D3DADAPTER_IDENTIFIER9 id = {};
  CheckHr(env, d3d->GetAdapterIdentifier(ordinal, 0, &id), "IDirect3D9::GetAdapterIdentifier");
  LUID luid = {};
  CheckHr(env, d3d->GetAdapterLUID(ordinal, &luid), "IDirect3D9Ex::GetAdapterLUID");
  Napi::Object out = Napi::Object::New(env);
  out.Set("ordinal", Napi::Number::New(env, ordinal));
  out.Set("description", Napi::String::New(env, id.Description));
  out.Set("deviceName", Napi::String::New(env, id.DeviceName));
  out.Set("vendorId", Napi::Number::New(env, id.VendorId));
  out.Set("deviceId", Napi::Number::New(env, id.DeviceId));
  out.Set("luid", Bigint(env, LuidValue(luid)));
  return out;
}

// d3d9Adapters(): every adapter Direct3D 9Ex enumerates, with its LUID.
Napi::Value Adapters(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Com<IDirect3D9Ex> d3d;
  d3d.p = CreateD3D9(env);
  Napi::Array out = Napi::Array::New(env);
  for (UINT ordinal = 0; ordinal < d3d->GetAdapterCount(); ordinal++) out.Set(ordinal, DescribeD3D9Adapter(env, d3d, ordinal));
  return out;
}

// d3d9CreateDevice(ordinal, behaviorFlags): a windowed device that never presents
// (the desktop window as its window, as FFmpeg's DXVA2 device does).
Napi::Value CreateDevice(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  UINT ordinal = U32(info[0], "ordinal");
  DWORD flags = U32(info[1], "behaviorFlags");
  Com<IDirect3D9Ex> d3d;
  d3d.p = CreateD3D9(env);
  D3DPRESENT_PARAMETERS present = {};
  present.Windowed = TRUE;
  present.BackBufferWidth = 64;
  present.BackBufferHeight = 64;
  present.BackBufferCount = 0;
  present.BackBufferFormat = D3DFMT_UNKNOWN;
  present.SwapEffect = D3DSWAPEFFECT_DISCARD;
  present.Flags = D3DPRESENTFLAG_VIDEO;
  present.hDeviceWindow = GetDesktopWindow();
  IDirect3DDevice9Ex* device = nullptr;
  CheckHr(env, d3d->CreateDeviceEx(ordinal, D3DDEVTYPE_HAL, present.hDeviceWindow, flags, &present, nullptr, &device),
          "IDirect3D9Ex::CreateDeviceEx");
  return NativeComObject::Wrap(env, device, kDevice);
}

// d3d9DeviceInfo(device): { adapter, behaviorFlags }
Napi::Value DeviceInfo(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto* device = NativeComObject::From(info[0], "device", {kDevice})->As<IDirect3DDevice9Ex>();
  D3DDEVICE_CREATION_PARAMETERS params = {};
  CheckHr(env, device->GetCreationParameters(&params), "IDirect3DDevice9::GetCreationParameters");
  Com<IDirect3D9> d3d9;
  CheckHr(env, device->GetDirect3D(&d3d9), "IDirect3DDevice9::GetDirect3D");
  Com<IDirect3D9Ex> d3d;
  CheckHr(env, d3d9->QueryInterface(__uuidof(IDirect3D9Ex), d3d.Out()), "QueryInterface(IDirect3D9Ex)");
  Napi::Object out = Napi::Object::New(env);
  out.Set("adapter", DescribeD3D9Adapter(env, d3d, params.AdapterOrdinal));
  out.Set("behaviorFlags", Napi::Number::New(env, params.BehaviorFlags));
  return out;
}

// d3d9CreateDeviceManager(device): { manager, resetToken }: DXVA2CreateDirect3DDeviceManager9 + ResetDevice.
Napi::Value CreateDeviceManager(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  NativeComObject* owner = NativeComObject::From(info[0], "device", {kDevice});
  using Create = HRESULT(WINAPI*)(UINT*, IDirect3DDeviceManager9**);
  auto create = reinterpret_cast<Create>(SystemFunction(env, "dxva2.dll", "DXVA2CreateDirect3DDeviceManager9"));
  UINT token = 0;
  Com<IDirect3DDeviceManager9> manager;
  CheckHr(env, create(&token, &manager), "DXVA2CreateDirect3DDeviceManager9");
  CheckHr(env, manager->ResetDevice(owner->As<IDirect3DDevice9>(), token), "IDirect3DDeviceManager9::ResetDevice");
  Napi::Object out = Napi::Object::New(env);
  out.Set("manager", NativeComObject::Wrap(env, manager.Detach(), "D3D9DeviceManager", {owner->object()}));
  out.Set("resetToken", Napi::Number::New(env, token));
  return out;
}

// The pSharedHandle argument: null (not shared), 0n (create shared), else a handle to open.
struct Share {
  bool asked = false;
  HANDLE handle = nullptr;
  HANDLE* Pointer() { return asked ? &handle : nullptr; }
};
Share ShareArg(const Napi::Value& value) {
  Share share;
  if (value.IsNull() || value.IsUndefined()) return share;
  share.asked = true;
  share.handle = HandleArg(value, "sharedHandle");
  return share;
}

Napi::Value Created(Napi::Env env, IUnknown* object, const char* kind, IUnknown* device, const Share& share) {
  Napi::Object out = Napi::Object::New(env);
  out.Set("object", NativeComObject::Wrap(env, object, kind, {device}));
  out.Set("sharedHandle", PointerValue(env, share.handle));
  return out;
}

// d3d9CreateSurface(device, { renderTarget, width, height, format, pool, lockable }, sharedHandle)
Napi::Value CreateSurface(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  NativeComObject* owner = NativeComObject::From(info[0], "device", {kDevice});
  auto* device = owner->As<IDirect3DDevice9Ex>();
  Napi::Object o = ObjectArg(info[1], "options");
  Share share = ShareArg(info[2]);
  D3DFORMAT format = static_cast<D3DFORMAT>(U32Of(o, "format"));
  IDirect3DSurface9* surface = nullptr;
  if (o.Get("renderTarget").ToBoolean()) {
    CheckHr(env,
            device->CreateRenderTarget(U32Of(o, "width"), U32Of(o, "height"), format, D3DMULTISAMPLE_NONE, 0, o.Get("lockable").ToBoolean(), &surface,
                                       share.Pointer()),
            "IDirect3DDevice9::CreateRenderTarget");
  } else {
    CheckHr(env,
            device->CreateOffscreenPlainSurface(U32Of(o, "width"), U32Of(o, "height"), format, static_cast<D3DPOOL>(U32Of(o, "pool")), &surface,
                                                share.Pointer()),
            "IDirect3DDevice9::CreateOffscreenPlainSurface");
  }
  return Created(env, surface, "D3D9Surface", owner->object(), share);
}

// d3d9CreateTexture(device, { type: 'texture' | 'cube' | 'volume', width, height, depth, levels, usage, format, pool }, sharedHandle)
Napi::Value CreateTexture(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  NativeComObject* owner = NativeComObject::From(info[0], "device", {kDevice});
  auto* device = owner->As<IDirect3DDevice9Ex>();
  Napi::Object o = ObjectArg(info[1], "options");
  Share share = ShareArg(info[2]);
  std::string type = o.Get("type").ToString();
  UINT levels = U32Of(o, "levels"), usage = U32Of(o, "usage");
  D3DFORMAT format = static_cast<D3DFORMAT>(U32Of(o, "format"));
  D3DPOOL pool = static_cast<D3DPOOL>(U32Of(o, "pool"));
  if (type == "cube") {
    IDirect3DCubeTexture9* texture = nullptr;
    CheckHr(env, device->CreateCubeTexture(U32Of(o, "width"), levels, usage, format, pool, &texture, share.Pointer()),
            "IDirect3DDevice9::CreateCubeTexture");
    return Created(env, texture, "D3D9CubeTexture", owner->object(), share);
  }
  if (type == "volume") {
    IDirect3DVolumeTexture9* texture = nullptr;
    CheckHr(
        env,
        device->CreateVolumeTexture(U32Of(o, "width"), U32Of(o, "height"), U32Of(o, "depth"), levels, usage, format, pool, &texture, share.Pointer()),
        "IDirect3DDevice9::CreateVolumeTexture");
    return Created(env, texture, "D3D9VolumeTexture", owner->object(), share);
  }
  IDirect3DTexture9* texture = nullptr;
  CheckHr(env, device->CreateTexture(U32Of(o, "width"), U32Of(o, "height"), levels, usage, format, pool, &texture, share.Pointer()),
          "IDirect3DDevice9::CreateTexture");
  return Created(env, texture, "D3D9Texture", owner->object(), share);
}

// d3d9CreateBuffer(device, { index: boolean, size, usage, format, pool }, sharedHandle)
Napi::Value CreateBuffer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  NativeComObject* owner = NativeComObject::From(info[0], "device", {kDevice});
  auto* device = owner->As<IDirect3DDevice9Ex>();
  Napi::Object o = ObjectArg(info[1], "options");
  Share share = ShareArg(info[2]);
  D3DPOOL pool = static_cast<D3DPOOL>(U32Of(o, "pool"));
  if (o.Get("index").ToBoolean()) {
    IDirect3DIndexBuffer9* buffer = nullptr;
    CheckHr(
        env,
        device->CreateIndexBuffer(U32Of(o, "size"), U32Of(o, "usage"), static_cast<D3DFORMAT>(U32Of(o, "format")), pool, &buffer, share.Pointer()),
        "IDirect3DDevice9::CreateIndexBuffer");
    return Created(env, buffer, "D3D9IndexBuffer", owner->object(), share);
  }
  IDirect3DVertexBuffer9* buffer = nullptr;
  CheckHr(env, device->CreateVertexBuffer(U32Of(o, "size"), U32Of(o, "usage"), 0, pool, &buffer, share.Pointer()),
          "IDirect3DDevice9::CreateVertexBuffer");
  return Created(env, buffer, "D3D9VertexBuffer", owner->object(), share);
}

// d3d9Surface(texture, level, face): a texture level (or a cube face's level) as a surface that holds its texture.
Napi::Value Surface(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  NativeComObject* texture = NativeComObject::From(info[0], "texture", {"D3D9Texture", "D3D9CubeTexture"});
  UINT level = U32(info[1], "level");
  IDirect3DSurface9* surface = nullptr;
  if (texture->kind() == "D3D9CubeTexture") {
    CheckHr(env, texture->As<IDirect3DCubeTexture9>()->GetCubeMapSurface(static_cast<D3DCUBEMAP_FACES>(U32(info[2], "face")), level, &surface),
            "IDirect3DCubeTexture9::GetCubeMapSurface");
  } else {
    CheckHr(env, texture->As<IDirect3DTexture9>()->GetSurfaceLevel(level, &surface), "IDirect3DTexture9::GetSurfaceLevel");
  }
  return NativeComObject::Wrap(env, surface, "D3D9Surface", {texture->object()});
}

// d3d9Describe(object): the description of a surface, a texture's level `level`, a volume level, or a buffer.
Napi::Value Describe(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  NativeComObject* self = NativeComObject::From(
      info[0], "object", {"D3D9Surface", "D3D9Texture", "D3D9CubeTexture", "D3D9VolumeTexture", "D3D9VertexBuffer", "D3D9IndexBuffer"});
  UINT level = U32(info[1], "level");
  Napi::Object out = Napi::Object::New(env);
  auto set = [&](const char* key, uint32_t value) { out.Set(key, Napi::Number::New(env, value)); };
  const std::string& kind = self->kind();
  D3DSURFACE_DESC desc = {};
  HRESULT hr = S_OK;
  if (kind == "D3D9Surface") hr = self->As<IDirect3DSurface9>()->GetDesc(&desc);
  else if (kind == "D3D9Texture") hr = self->As<IDirect3DTexture9>()->GetLevelDesc(level, &desc);
  else if (kind == "D3D9CubeTexture") hr = self->As<IDirect3DCubeTexture9>()->GetLevelDesc(level, &desc);
  if (kind == "D3D9Surface" || kind == "D3D9Texture" || kind == "D3D9CubeTexture") {
    CheckHr(env, hr, "GetDesc");
    set("format", desc.Format), set("type", desc.Type), set("usage", desc.Usage), set("pool", desc.Pool);
    set("multiSampleType", desc.MultiSampleType), set("width", desc.Width), set("height", desc.Height), set("depth", 1);
    if (kind != "D3D9Surface") set("levels", self->As<IDirect3DBaseTexture9>()->GetLevelCount());
    if (kind == "D3D9Surface") {
      Com<IDirect3DBaseTexture9> container;
      out.Set("inTexture",
              Napi::Boolean::New(env, SUCCEEDED(self->As<IDirect3DSurface9>()->GetContainer(__uuidof(IDirect3DBaseTexture9), container.Out()))));
    }
  } else if (kind == "D3D9VolumeTexture") {
    D3DVOLUME_DESC volume = {};
    CheckHr(env, self->As<IDirect3DVolumeTexture9>()->GetLevelDesc(level, &volume), "IDirect3DVolumeTexture9::GetLevelDesc");
    set("format", volume.Format), set("type", volume.Type), set("usage", volume.Usage), set("pool", volume.Pool);
    set("width", volume.Width), set("height", volume.Height), set("depth", volume.Depth);
    set("levels", self->As<IDirect3DVolumeTexture9>()->GetLevelCount());
  } else if (kind == "D3D9VertexBuffer") {
    D3DVERTEXBUFFER_DESC buffer = {};
    CheckHr(env, self->As<IDirect3DVertexBuffer9>()->GetDesc(&buffer), "IDirect3DVertexBuffer9::GetDesc");
    set("format", buffer.Format), set("type", buffer.Type), set("usage", buffer.Usage), set("pool", buffer.Pool), set("size", buffer.Size);
  } else {
    D3DINDEXBUFFER_DESC buffer = {};
    CheckHr(env, self->As<IDirect3DIndexBuffer9>()->GetDesc(&buffer), "IDirect3DIndexBuffer9::GetDesc");
    set("format", buffer.Format), set("type", buffer.Type), set("usage", buffer.Usage), set("pool", buffer.Pool), set("size", buffer.Size);
  }
  return out;
}

// A surface's contents: LockRect where Direct3D allows it, else a SYSTEMMEM
// copy (GetRenderTargetData to read, UpdateSurface to write back).
void SurfaceTransfer(Napi::Env env, IDirect3DSurface9* surface, bool write, const PlaneLayout& layout, uint8_t* bytes) {
  D3DSURFACE_DESC desc;
  CheckHr(env, surface->GetDesc(&desc), "IDirect3DSurface9::GetDesc");
  bool lockable = desc.Pool != D3DPOOL_DEFAULT || !(desc.Usage & (D3DUSAGE_RENDERTARGET | D3DUSAGE_DEPTHSTENCIL));
  if (desc.Pool == D3DPOOL_DEFAULT && !(desc.Usage & D3DUSAGE_DYNAMIC)) {
    Com<IDirect3DBaseTexture9> container;  // a DEFAULT-pool texture level without DYNAMIC cannot be locked
    if (SUCCEEDED(surface->GetContainer(__uuidof(IDirect3DBaseTexture9), container.Out()))) lockable = false;
  }
  IDirect3DSurface9* target = surface;
  Com<IDirect3DSurface9> staging;
  Com<IDirect3DDevice9> device;
  if (!lockable) {
    CheckHr(env, surface->GetDevice(&device), "IDirect3DSurface9::GetDevice");
    CheckHr(env, device->CreateOffscreenPlainSurface(desc.Width, desc.Height, desc.Format, D3DPOOL_SYSTEMMEM, &staging, nullptr),
            "IDirect3DDevice9::CreateOffscreenPlainSurface(D3DPOOL_SYSTEMMEM)");
    // Only render targets can be read back; a write of the whole surface needs no read.
    bool planar = desc.Format == static_cast<D3DFORMAT>(MAKEFOURCC('N', 'V', '1', '2')) ||
                  desc.Format == static_cast<D3DFORMAT>(MAKEFOURCC('Y', 'V', '1', '2'));
    bool whole = write && !planar && layout.rowsBefore == 0 && layout.halfRowsBefore == 0 && layout.rows == desc.Height;
    HRESULT hr = device->GetRenderTargetData(surface, staging);
    if (FAILED(hr) && !whole) ThrowHr(env, hr, "IDirect3DDevice9::GetRenderTargetData", "only render targets and lockable surfaces can be read");
    target = staging;
  }
  D3DLOCKED_RECT locked = {};
  CheckHr(env, target->LockRect(&locked, nullptr, write ? 0 : D3DLOCK_READONLY), "IDirect3DSurface9::LockRect");
  CopyPlaneThenUnmap(env, write, static_cast<uint8_t*>(locked.pBits), static_cast<size_t>(locked.Pitch), 0, bytes, layout, "locked",
                     [&] { target->UnlockRect(); });
  if (staging && write) CheckHr(env, device->UpdateSurface(staging, nullptr, surface, nullptr), "IDirect3DDevice9::UpdateSurface");
}

// d3d9Transfer(object, write, level, layout, data?): a surface (level ignored), a volume
// texture's level, or a buffer; reads return the packed bytes.
Napi::Value Transfer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  NativeComObject* self = NativeComObject::From(info[0], "object", {"D3D9Surface", "D3D9VolumeTexture", "D3D9VertexBuffer", "D3D9IndexBuffer"});
  bool write = info[1].ToBoolean();
  UINT level = U32(info[2], "level");
  PlaneLayout layout = LayoutArg(info[3]);
  Napi::Uint8Array bytes = TransferBytes(env, write, info[4], layout);
  const std::string& kind = self->kind();
  if (kind == "D3D9Surface") {
    SurfaceTransfer(env, self->As<IDirect3DSurface9>(), write, layout, bytes.Data());
  } else if (kind == "D3D9VolumeTexture") {
    auto* volume = self->As<IDirect3DVolumeTexture9>();
    D3DLOCKED_BOX box = {};
    CheckHr(env, volume->LockBox(level, &box, nullptr, write ? 0 : D3DLOCK_READONLY), "IDirect3DVolumeTexture9::LockBox");
    CopyPlaneThenUnmap(env, write, static_cast<uint8_t*>(box.pBits), static_cast<size_t>(box.RowPitch), static_cast<size_t>(box.SlicePitch),
                       bytes.Data(), layout, "locked", [&] { volume->UnlockBox(level); });
  } else {
    void* mapped = nullptr;
    bool index = kind == "D3D9IndexBuffer";
    HRESULT hr = index ? self->As<IDirect3DIndexBuffer9>()->Lock(0, 0, &mapped, write ? 0 : D3DLOCK_READONLY)
                       : self->As<IDirect3DVertexBuffer9>()->Lock(0, 0, &mapped, write ? 0 : D3DLOCK_READONLY);
    CheckHr(env, hr, index ? "IDirect3DIndexBuffer9::Lock" : "IDirect3DVertexBuffer9::Lock");
    CopyPlane(write, static_cast<uint8_t*>(mapped), layout.rowBytes, 0, bytes.Data(), layout);
    if (index) self->As<IDirect3DIndexBuffer9>()->Unlock();
    else self->As<IDirect3DVertexBuffer9>()->Unlock();
  }
  return write ? env.Undefined() : Napi::Value(bytes);
}

}  // namespace

void InitD3D9Device(Napi::Env env, Napi::Object exports) {
  exports.Set("d3d9Adapters", Napi::Function::New(env, Adapters, "d3d9Adapters"));
  exports.Set("d3d9CreateDevice", Napi::Function::New(env, CreateDevice, "d3d9CreateDevice"));
  exports.Set("d3d9DeviceInfo", Napi::Function::New(env, DeviceInfo, "d3d9DeviceInfo"));
  exports.Set("d3d9CreateDeviceManager", Napi::Function::New(env, CreateDeviceManager, "d3d9CreateDeviceManager"));
  exports.Set("d3d9CreateSurface", Napi::Function::New(env, CreateSurface, "d3d9CreateSurface"));
  exports.Set("d3d9CreateTexture", Napi::Function::New(env, CreateTexture, "d3d9CreateTexture"));
  exports.Set("d3d9CreateBuffer", Napi::Function::New(env, CreateBuffer, "d3d9CreateBuffer"));
  exports.Set("d3d9Surface", Napi::Function::New(env, Surface, "d3d9Surface"));
  exports.Set("d3d9Describe", Napi::Function::New(env, Describe, "d3d9Describe"));
  exports.Set("d3d9Transfer", Napi::Function::New(env, Transfer, "d3d9Transfer"));
}

}  // namespace d3d
}  // namespace ocl

#endif  // _WIN32
