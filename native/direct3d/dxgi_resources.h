// What Direct3D 10.1 and Direct3D 11 do alike, written once and typed per API
// (as interop/direct3d_sharing.h is for the sharing side): device info and
// adapter, buffers and 2D / 3D textures from the options lib/direct3d/dxgi.ts
// checked, a shared resource under its own interface, GetDesc, and the
// staging copy of one subresource. d3d10.cc and d3d11.cc instantiate it with
// their API's traits and keep what differs (device creation, shared-handle
// opening, mapping, flushing, format support). Windows only.
#pragma once

#ifdef _WIN32

#include "direct3d/object.h"

namespace ocl {
namespace d3d {

// Api supplies the interface and description types (Device, Resource, Buffer,
// Texture2D, Texture3D, BufferDesc, Texture2DDesc, Texture3DDesc,
// SubresourceData, Usage, Dimension), the dimension, usage and CPU-access
// values, the JS kinds (kDevice, kBuffer, kTexture2D, kTexture3D), the call
// names for errors, and kStructuredBuffers (whether a buffer has a structure
// byte stride: D3D11 only).
template <typename Api>
class DxgiResources {
 public:
  using Device = typename Api::Device;
  using Resource = typename Api::Resource;

  static Device* DeviceArg(const Napi::Value& value) { return NativeComObject::From(value, "device", {Api::kDevice})->template As<Device>(); }

  static NativeComObject* ResourceArg(const Napi::Value& value) {
    return NativeComObject::From(value, "resource", {Api::kBuffer, Api::kTexture2D, Api::kTexture3D});
  }

  // <api>DeviceInfo(device): { featureLevel, creationFlags, adapter }
  static Napi::Value DeviceInfo(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    Device* device = DeviceArg(info[0]);
    Napi::Object out = Napi::Object::New(env);
    out.Set("featureLevel", Napi::Number::New(env, device->GetFeatureLevel()));
    out.Set("creationFlags", Napi::Number::New(env, device->GetCreationFlags()));
    Com<IUnknown> adapter;
    adapter.p = AdapterOfDevice(env, device);
    out.Set("adapter", DescribeAdapter(env, adapter, -1));
    return out;
  }

  // <api>Adapter(device): the IDXGIAdapter it runs on.
  static Napi::Value Adapter(const Napi::CallbackInfo& info) {
    return NativeComObject::Wrap(info.Env(), AdapterOfDevice(info.Env(), DeviceArg(info[0])), "DXGIAdapter");
  }

  // <api>CreateBuffer(device, { byteWidth, usage, bindFlags, cpuAccessFlags, miscFlags[, structureByteStride] }, initial?)
  static Napi::Value CreateBuffer(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    NativeComObject* owner = NativeComObject::From(info[0], "device", {Api::kDevice});
    Napi::Object options = ObjectArg(info[1], "options");
    typename Api::BufferDesc desc = {};
    desc.ByteWidth = U32Of(options, "byteWidth");
    desc.Usage = static_cast<typename Api::Usage>(U32Of(options, "usage"));
    desc.BindFlags = U32Of(options, "bindFlags");
    desc.CPUAccessFlags = U32Of(options, "cpuAccessFlags");
    desc.MiscFlags = U32Of(options, "miscFlags");
    if constexpr (Api::kStructuredBuffers) desc.StructureByteStride = U32Of(options, "structureByteStride");
    typename Api::SubresourceData initial = {};
    initial.pSysMem = InitialData(info[2], desc.ByteWidth);
    bool hasInitial = initial.pSysMem != nullptr;
    typename Api::Buffer* buffer = nullptr;
    CheckHr(env, owner->As<Device>()->CreateBuffer(&desc, hasInitial ? &initial : nullptr, &buffer), Api::kCreateBufferCall);
    return NativeComObject::Wrap(env, buffer, Api::kBuffer, {owner->object()});
  }

  // <api>CreateTexture2D(device, { width, height, mipLevels, arraySize, format, sampleCount, sampleQuality, usage, bindFlags, cpuAccessFlags,
  // miscFlags })
  static Napi::Value CreateTexture2D(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    NativeComObject* owner = NativeComObject::From(info[0], "device", {Api::kDevice});
    Napi::Object options = ObjectArg(info[1], "options");
    typename Api::Texture2DDesc desc = {};
    desc.Width = U32Of(options, "width");
    desc.Height = U32Of(options, "height");
    desc.ArraySize = U32Of(options, "arraySize");
    desc.SampleDesc.Count = U32Of(options, "sampleCount");
    desc.SampleDesc.Quality = U32Of(options, "sampleQuality");
    ReadTextureCommon(options, desc);
    typename Api::Texture2D* texture = nullptr;
    CheckHr(env, owner->As<Device>()->CreateTexture2D(&desc, nullptr, &texture), Api::kCreateTexture2DCall);
    return NativeComObject::Wrap(env, texture, Api::kTexture2D, {owner->object()});
  }

  // <api>CreateTexture3D(device, { width, height, depth, mipLevels, format, usage, bindFlags, cpuAccessFlags, miscFlags })
  static Napi::Value CreateTexture3D(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    NativeComObject* owner = NativeComObject::From(info[0], "device", {Api::kDevice});
    Napi::Object options = ObjectArg(info[1], "options");
    typename Api::Texture3DDesc desc = {};
    desc.Width = U32Of(options, "width");
    desc.Height = U32Of(options, "height");
    desc.Depth = U32Of(options, "depth");
    ReadTextureCommon(options, desc);
    typename Api::Texture3D* texture = nullptr;
    CheckHr(env, owner->As<Device>()->CreateTexture3D(&desc, nullptr, &texture), Api::kCreateTexture3DCall);
    return NativeComObject::Wrap(env, texture, Api::kTexture3D, {owner->object()});
  }

  // A resource of unknown dimension (an opened shared handle) under its own interface, holding `device`.
  static Napi::Value WrapResource(Napi::Env env, Resource* resource, IUnknown* device) {
    typename Api::Dimension dimension = Api::kDimensionUnknown;
    resource->GetType(&dimension);
    const char* kind = dimension == Api::kDimensionBuffer      ? Api::kBuffer
                       : dimension == Api::kDimensionTexture2D ? Api::kTexture2D
                       : dimension == Api::kDimensionTexture3D ? Api::kTexture3D
                                                               : nullptr;
    if (!kind) ThrowHr(env, E_NOINTERFACE, Api::kGetTypeCall, "the shared resource is not a buffer, 2D or 3D texture");
    const IID& iid = dimension == Api::kDimensionBuffer      ? __uuidof(typename Api::Buffer)
                     : dimension == Api::kDimensionTexture2D ? __uuidof(typename Api::Texture2D)
                                                             : __uuidof(typename Api::Texture3D);
    IUnknown* typed = nullptr;
    CheckHr(env, resource->QueryInterface(iid, reinterpret_cast<void**>(&typed)), Api::kQueryInterfaceCall);
    return NativeComObject::Wrap(env, typed, kind, {device});
  }

  // <api>Describe(resource): the resource's description (GetDesc), with `dimension`.
  static Napi::Value Describe(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    NativeComObject* self = ResourceArg(info[0]);
    Napi::Object out = Napi::Object::New(env);
    auto set = [&](const char* key, uint32_t value) { out.Set(key, Napi::Number::New(env, value)); };
    if (self->kind() == Api::kBuffer) {
      typename Api::BufferDesc desc;
      self->As<typename Api::Buffer>()->GetDesc(&desc);
      out.Set("dimension", "buffer");
      set("byteWidth", desc.ByteWidth), set("usage", desc.Usage), set("bindFlags", desc.BindFlags);
      uint32_t stride = 0;
      if constexpr (Api::kStructuredBuffers) stride = desc.StructureByteStride;
      set("cpuAccessFlags", desc.CPUAccessFlags), set("miscFlags", desc.MiscFlags), set("structureByteStride", stride);
    } else if (self->kind() == Api::kTexture2D) {
      typename Api::Texture2DDesc desc;
      self->As<typename Api::Texture2D>()->GetDesc(&desc);
      out.Set("dimension", "texture2d");
      set("width", desc.Width), set("height", desc.Height), set("depth", 1), set("mipLevels", desc.MipLevels);
      set("arraySize", desc.ArraySize), set("format", desc.Format), set("sampleCount", desc.SampleDesc.Count);
      set("sampleQuality", desc.SampleDesc.Quality), set("usage", desc.Usage), set("bindFlags", desc.BindFlags);
      set("cpuAccessFlags", desc.CPUAccessFlags), set("miscFlags", desc.MiscFlags);
    } else {
      typename Api::Texture3DDesc desc;
      self->As<typename Api::Texture3D>()->GetDesc(&desc);
      out.Set("dimension", "texture3d");
      set("width", desc.Width), set("height", desc.Height), set("depth", desc.Depth), set("mipLevels", desc.MipLevels);
      set("arraySize", 1), set("format", desc.Format), set("usage", desc.Usage), set("bindFlags", desc.BindFlags);
      set("cpuAccessFlags", desc.CPUAccessFlags), set("miscFlags", desc.MiscFlags);
    }
    return out;
  }

  static typename Api::Usage UsageOf(NativeComObject* self) {
    if (self->kind() == Api::kBuffer) return DescOf<typename Api::BufferDesc, typename Api::Buffer>(self).Usage;
    if (self->kind() == Api::kTexture2D) return DescOf<typename Api::Texture2DDesc, typename Api::Texture2D>(self).Usage;
    return DescOf<typename Api::Texture3DDesc, typename Api::Texture3D>(self).Usage;
  }

  // A staging copy (CPU read and write) of subresource `sub`, one reference
  // the caller owns; null when the resource is staging itself. `device`: the
  // resource's (GetDevice gives the API's base device interface).
  template <typename AnyDevice>
  static Resource* StagingCopy(Napi::Env env, NativeComObject* self, AnyDevice* device, UINT sub) {
    const UINT cpu = Api::kCpuReadWrite;
    HRESULT hr = S_OK;
    Resource* copy = nullptr;
    if (self->kind() == Api::kBuffer) {
      auto desc = DescOf<typename Api::BufferDesc, typename Api::Buffer>(self);
      if (desc.Usage == Api::kStaging) return nullptr;
      typename Api::BufferDesc staging = {};
      staging.ByteWidth = desc.ByteWidth;
      staging.Usage = Api::kStaging;
      staging.CPUAccessFlags = cpu;
      hr = device->CreateBuffer(&staging, nullptr, reinterpret_cast<typename Api::Buffer**>(&copy));
    } else if (self->kind() == Api::kTexture2D) {
      auto desc = DescOf<typename Api::Texture2DDesc, typename Api::Texture2D>(self);
      if (desc.Usage == Api::kStaging) return nullptr;
      UINT level = sub % desc.MipLevels;
      desc.Width = desc.Width >> level ? desc.Width >> level : 1;
      desc.Height = desc.Height >> level ? desc.Height >> level : 1;
      desc.MipLevels = desc.ArraySize = 1;
      desc.Usage = Api::kStaging;
      desc.BindFlags = desc.MiscFlags = 0;
      desc.CPUAccessFlags = cpu;
      hr = device->CreateTexture2D(&desc, nullptr, reinterpret_cast<typename Api::Texture2D**>(&copy));
    } else {
      auto desc = DescOf<typename Api::Texture3DDesc, typename Api::Texture3D>(self);
      if (desc.Usage == Api::kStaging) return nullptr;
      desc.Width = desc.Width >> sub ? desc.Width >> sub : 1;
      desc.Height = desc.Height >> sub ? desc.Height >> sub : 1;
      desc.Depth = desc.Depth >> sub ? desc.Depth >> sub : 1;
      desc.MipLevels = 1;
      desc.Usage = Api::kStaging;
      desc.BindFlags = desc.MiscFlags = 0;
      desc.CPUAccessFlags = cpu;
      hr = device->CreateTexture3D(&desc, nullptr, reinterpret_cast<typename Api::Texture3D**>(&copy));
    }
    CheckHr(env, hr, Api::kStagingCall);
    return copy;
  }

 private:
  // The options every texture description has: mipLevels, format, usage, bind, CPU access and misc flags.
  template <typename Desc>
  static void ReadTextureCommon(const Napi::Object& options, Desc& desc) {
    desc.MipLevels = U32Of(options, "mipLevels");
    desc.Format = static_cast<DXGI_FORMAT>(U32Of(options, "format"));
    desc.Usage = static_cast<typename Api::Usage>(U32Of(options, "usage"));
    desc.BindFlags = U32Of(options, "bindFlags");
    desc.CPUAccessFlags = U32Of(options, "cpuAccessFlags");
    desc.MiscFlags = U32Of(options, "miscFlags");
  }

  template <typename Desc, typename Interface>
  static Desc DescOf(NativeComObject* self) {
    Desc desc;
    self->As<Interface>()->GetDesc(&desc);
    return desc;
  }
};

}  // namespace d3d
}  // namespace ocl

#endif  // _WIN32
