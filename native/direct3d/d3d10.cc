// Direct3D 10.1 for the Direct3D module (Windows only): ID3D10Device1 on a
// DXGI adapter, buffers and 2D / 3D textures, legacy shared handles opened
// with OpenSharedResource, and contents through a staging copy. An
// ID3D10Device1 is an ID3D10Device, the interface cl_khr_d3d10_sharing takes.
// Every resource wrapper holds its device. lib/direct3d/d3d10.ts validates first.
#ifdef _WIN32

#include "direct3d/object.h"

#include <d3d10_1.h>

namespace ocl {
namespace d3d {
namespace {

const char* const kDevice = "D3D10Device";

ID3D10Device1* DeviceArg(const Napi::Value& value) { return NativeComObject::From(value, "device", {kDevice})->As<ID3D10Device1>(); }

NativeComObject* ResourceArg(const Napi::Value& value) {
  return NativeComObject::From(value, "resource", {"D3D10Buffer", "D3D10Texture2D", "D3D10Texture3D"});
}

// d3d10CreateDevice(adapterIndex: number | null, flags, featureLevels: number[]): the first level that works.
Napi::Value CreateDevice(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  using Create = HRESULT(WINAPI*)(IDXGIAdapter*, D3D10_DRIVER_TYPE, HMODULE, UINT, D3D10_FEATURE_LEVEL1, UINT, ID3D10Device1**);
  auto create = reinterpret_cast<Create>(SystemFunction(env, "d3d10_1.dll", "D3D10CreateDevice1"));
  Com<IDXGIAdapter1> adapter;
  if (!info[0].IsNull()) adapter.p = DxgiAdapter(env, U32(info[0], "adapterIndex"));
  UINT flags = U32(info[1], "flags");
  Napi::Array levels = ArrayArg(info[2], "featureLevels");
  HRESULT hr = E_INVALIDARG;
  ID3D10Device1* device = nullptr;
  for (uint32_t i = 0; i < levels.Length() && !device; i++) {
    hr = create(adapter, D3D10_DRIVER_TYPE_HARDWARE, nullptr, flags, static_cast<D3D10_FEATURE_LEVEL1>(U32(levels.Get(i), "featureLevels[i]")), D3D10_1_SDK_VERSION, &device);
  }
  CheckHr(env, hr, "D3D10CreateDevice1");
  return NativeComObject::Wrap(env, device, kDevice);
}

// d3d10DeviceInfo(device): { featureLevel, creationFlags, adapter }
Napi::Value DeviceInfo(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  ID3D10Device1* device = DeviceArg(info[0]);
  Napi::Object out = Napi::Object::New(env);
  out.Set("featureLevel", Napi::Number::New(env, device->GetFeatureLevel()));
  out.Set("creationFlags", Napi::Number::New(env, device->GetCreationFlags()));
  Com<IUnknown> adapter;
  adapter.p = AdapterOfDevice(env, device);
  out.Set("adapter", DescribeAdapter(env, adapter, -1));
  return out;
}

Napi::Value Adapter(const Napi::CallbackInfo& info) {
  return NativeComObject::Wrap(info.Env(), AdapterOfDevice(info.Env(), DeviceArg(info[0])), "DXGIAdapter");
}

// d3d10CreateBuffer(device, { byteWidth, usage, bindFlags, cpuAccessFlags, miscFlags }, initial?)
Napi::Value CreateBuffer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  NativeComObject* owner = NativeComObject::From(info[0], "device", {kDevice});
  Napi::Object options = ObjectArg(info[1], "options");
  D3D10_BUFFER_DESC desc = {};
  desc.ByteWidth = U32Of(options, "byteWidth");
  desc.Usage = static_cast<D3D10_USAGE>(U32Of(options, "usage"));
  desc.BindFlags = U32Of(options, "bindFlags");
  desc.CPUAccessFlags = U32Of(options, "cpuAccessFlags");
  desc.MiscFlags = U32Of(options, "miscFlags");
  D3D10_SUBRESOURCE_DATA initial = {};
  initial.pSysMem = InitialData(info[2], desc.ByteWidth);
  bool hasInitial = initial.pSysMem != nullptr;
  ID3D10Buffer* buffer = nullptr;
  CheckHr(env, owner->As<ID3D10Device1>()->CreateBuffer(&desc, hasInitial ? &initial : nullptr, &buffer), "ID3D10Device::CreateBuffer");
  return NativeComObject::Wrap(env, buffer, "D3D10Buffer", {owner->object()});
}

// d3d10CreateTexture2D(device, { width, height, mipLevels, arraySize, format, sampleCount, sampleQuality, usage, bindFlags, cpuAccessFlags, miscFlags })
Napi::Value CreateTexture2D(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  NativeComObject* owner = NativeComObject::From(info[0], "device", {kDevice});
  Napi::Object o = ObjectArg(info[1], "options");
  D3D10_TEXTURE2D_DESC desc = {};
  desc.Width = U32Of(o, "width");
  desc.Height = U32Of(o, "height");
  desc.MipLevels = U32Of(o, "mipLevels");
  desc.ArraySize = U32Of(o, "arraySize");
  desc.Format = static_cast<DXGI_FORMAT>(U32Of(o, "format"));
  desc.SampleDesc.Count = U32Of(o, "sampleCount");
  desc.SampleDesc.Quality = U32Of(o, "sampleQuality");
  desc.Usage = static_cast<D3D10_USAGE>(U32Of(o, "usage"));
  desc.BindFlags = U32Of(o, "bindFlags");
  desc.CPUAccessFlags = U32Of(o, "cpuAccessFlags");
  desc.MiscFlags = U32Of(o, "miscFlags");
  ID3D10Texture2D* texture = nullptr;
  CheckHr(env, owner->As<ID3D10Device1>()->CreateTexture2D(&desc, nullptr, &texture), "ID3D10Device::CreateTexture2D");
  return NativeComObject::Wrap(env, texture, "D3D10Texture2D", {owner->object()});
}

// d3d10CreateTexture3D(device, { width, height, depth, mipLevels, format, usage, bindFlags, cpuAccessFlags, miscFlags })
Napi::Value CreateTexture3D(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  NativeComObject* owner = NativeComObject::From(info[0], "device", {kDevice});
  Napi::Object o = ObjectArg(info[1], "options");
  D3D10_TEXTURE3D_DESC desc = {};
  desc.Width = U32Of(o, "width");
  desc.Height = U32Of(o, "height");
  desc.Depth = U32Of(o, "depth");
  desc.MipLevels = U32Of(o, "mipLevels");
  desc.Format = static_cast<DXGI_FORMAT>(U32Of(o, "format"));
  desc.Usage = static_cast<D3D10_USAGE>(U32Of(o, "usage"));
  desc.BindFlags = U32Of(o, "bindFlags");
  desc.CPUAccessFlags = U32Of(o, "cpuAccessFlags");
  desc.MiscFlags = U32Of(o, "miscFlags");
  ID3D10Texture3D* texture = nullptr;
  CheckHr(env, owner->As<ID3D10Device1>()->CreateTexture3D(&desc, nullptr, &texture), "ID3D10Device::CreateTexture3D");
  return NativeComObject::Wrap(env, texture, "D3D10Texture3D", {owner->object()});
}

// d3d10OpenSharedResource(device, handle: bigint): a legacy shared handle, under the resource's own interface.
Napi::Value OpenSharedResource(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  NativeComObject* owner = NativeComObject::From(info[0], "device", {kDevice});
  Com<ID3D10Resource> resource;
  CheckHr(env, owner->As<ID3D10Device1>()->OpenSharedResource(HandleArg(info[1], "handle"), __uuidof(ID3D10Resource), resource.Out()),
          "ID3D10Device::OpenSharedResource");
  D3D10_RESOURCE_DIMENSION dimension = D3D10_RESOURCE_DIMENSION_UNKNOWN;
  resource->GetType(&dimension);
  const char* kind = dimension == D3D10_RESOURCE_DIMENSION_BUFFER      ? "D3D10Buffer"
                     : dimension == D3D10_RESOURCE_DIMENSION_TEXTURE2D ? "D3D10Texture2D"
                     : dimension == D3D10_RESOURCE_DIMENSION_TEXTURE3D ? "D3D10Texture3D"
                                                                       : nullptr;
  if (!kind) ThrowHr(env, E_NOINTERFACE, "ID3D10Resource::GetType", "the shared resource is not a buffer, 2D or 3D texture");
  const IID& iid = dimension == D3D10_RESOURCE_DIMENSION_BUFFER      ? __uuidof(ID3D10Buffer)
                   : dimension == D3D10_RESOURCE_DIMENSION_TEXTURE2D ? __uuidof(ID3D10Texture2D)
                                                                     : __uuidof(ID3D10Texture3D);
  IUnknown* typed = nullptr;
  CheckHr(env, resource->QueryInterface(iid, reinterpret_cast<void**>(&typed)), "ID3D10Resource::QueryInterface");
  return NativeComObject::Wrap(env, typed, kind, {owner->object()});
}

// d3d10Describe(resource): GetDesc, with `dimension`.
Napi::Value Describe(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  NativeComObject* self = ResourceArg(info[0]);
  Napi::Object out = Napi::Object::New(env);
  auto set = [&](const char* key, uint32_t value) { out.Set(key, Napi::Number::New(env, value)); };
  if (self->kind() == "D3D10Buffer") {
    D3D10_BUFFER_DESC desc;
    self->As<ID3D10Buffer>()->GetDesc(&desc);
    out.Set("dimension", "buffer");
    set("byteWidth", desc.ByteWidth), set("usage", desc.Usage), set("bindFlags", desc.BindFlags);
    set("cpuAccessFlags", desc.CPUAccessFlags), set("miscFlags", desc.MiscFlags), set("structureByteStride", 0);
  } else if (self->kind() == "D3D10Texture2D") {
    D3D10_TEXTURE2D_DESC desc;
    self->As<ID3D10Texture2D>()->GetDesc(&desc);
    out.Set("dimension", "texture2d");
    set("width", desc.Width), set("height", desc.Height), set("depth", 1), set("mipLevels", desc.MipLevels);
    set("arraySize", desc.ArraySize), set("format", desc.Format), set("sampleCount", desc.SampleDesc.Count);
    set("sampleQuality", desc.SampleDesc.Quality), set("usage", desc.Usage), set("bindFlags", desc.BindFlags);
    set("cpuAccessFlags", desc.CPUAccessFlags), set("miscFlags", desc.MiscFlags);
  } else {
    D3D10_TEXTURE3D_DESC desc;
    self->As<ID3D10Texture3D>()->GetDesc(&desc);
    out.Set("dimension", "texture3d");
    set("width", desc.Width), set("height", desc.Height), set("depth", desc.Depth), set("mipLevels", desc.MipLevels);
    set("arraySize", 1), set("format", desc.Format), set("usage", desc.Usage), set("bindFlags", desc.BindFlags);
    set("cpuAccessFlags", desc.CPUAccessFlags), set("miscFlags", desc.MiscFlags);
  }
  return out;
}

// Maps one subresource of a D3D10 resource: (data, row pitch, depth pitch).
HRESULT MapResource(NativeComObject* self, ID3D10Resource* resource, UINT sub, D3D10_MAP mode, uint8_t*& data, size_t& pitch, size_t& slicePitch) {
  HRESULT hr;
  if (self->kind() == "D3D10Buffer") {
    void* mapped = nullptr;
    hr = static_cast<ID3D10Buffer*>(resource)->Map(mode, 0, &mapped);
    data = static_cast<uint8_t*>(mapped), pitch = 0, slicePitch = 0;
  } else if (self->kind() == "D3D10Texture2D") {
    D3D10_MAPPED_TEXTURE2D mapped = {};
    hr = static_cast<ID3D10Texture2D*>(resource)->Map(sub, mode, 0, &mapped);
    data = static_cast<uint8_t*>(mapped.pData), pitch = mapped.RowPitch, slicePitch = 0;
  } else {
    D3D10_MAPPED_TEXTURE3D mapped = {};
    hr = static_cast<ID3D10Texture3D*>(resource)->Map(sub, mode, 0, &mapped);
    data = static_cast<uint8_t*>(mapped.pData), pitch = mapped.RowPitch, slicePitch = mapped.DepthPitch;
  }
  return hr;
}

void UnmapResource(NativeComObject* self, ID3D10Resource* resource, UINT sub) {
  if (self->kind() == "D3D10Buffer") static_cast<ID3D10Buffer*>(resource)->Unmap();
  else if (self->kind() == "D3D10Texture2D") static_cast<ID3D10Texture2D*>(resource)->Unmap(sub);
  else static_cast<ID3D10Texture3D*>(resource)->Unmap(sub);
}

// A staging copy of one subresource (CPU read/write) or null when the resource is staging itself; and its usage.
ID3D10Resource* MakeStaging(Napi::Env env, NativeComObject* self, ID3D10Device* device, UINT sub, D3D10_USAGE& usage) {
  const UINT cpu = D3D10_CPU_ACCESS_READ | D3D10_CPU_ACCESS_WRITE;
  HRESULT hr = S_OK;
  ID3D10Resource* copy = nullptr;
  if (self->kind() == "D3D10Buffer") {
    D3D10_BUFFER_DESC desc;
    self->As<ID3D10Buffer>()->GetDesc(&desc);
    if ((usage = desc.Usage) == D3D10_USAGE_STAGING) return nullptr;
    D3D10_BUFFER_DESC staging = {desc.ByteWidth, D3D10_USAGE_STAGING, 0, cpu, 0};
    hr = device->CreateBuffer(&staging, nullptr, reinterpret_cast<ID3D10Buffer**>(&copy));
  } else if (self->kind() == "D3D10Texture2D") {
    D3D10_TEXTURE2D_DESC desc;
    self->As<ID3D10Texture2D>()->GetDesc(&desc);
    if ((usage = desc.Usage) == D3D10_USAGE_STAGING) return nullptr;
    UINT level = sub % desc.MipLevels;
    desc.Width = desc.Width >> level ? desc.Width >> level : 1;
    desc.Height = desc.Height >> level ? desc.Height >> level : 1;
    desc.MipLevels = desc.ArraySize = 1;
    desc.Usage = D3D10_USAGE_STAGING;
    desc.BindFlags = desc.MiscFlags = 0;
    desc.CPUAccessFlags = cpu;
    hr = device->CreateTexture2D(&desc, nullptr, reinterpret_cast<ID3D10Texture2D**>(&copy));
  } else {
    D3D10_TEXTURE3D_DESC desc;
    self->As<ID3D10Texture3D>()->GetDesc(&desc);
    if ((usage = desc.Usage) == D3D10_USAGE_STAGING) return nullptr;
    desc.Width = desc.Width >> sub ? desc.Width >> sub : 1;
    desc.Height = desc.Height >> sub ? desc.Height >> sub : 1;
    desc.Depth = desc.Depth >> sub ? desc.Depth >> sub : 1;
    desc.MipLevels = 1;
    desc.Usage = D3D10_USAGE_STAGING;
    desc.BindFlags = desc.MiscFlags = 0;
    desc.CPUAccessFlags = cpu;
    hr = device->CreateTexture3D(&desc, nullptr, reinterpret_cast<ID3D10Texture3D**>(&copy));
  }
  CheckHr(env, hr, "creating a D3D10 staging resource");
  return copy;
}

// d3d10Transfer(resource, write, subresource, layout, data?): as d3d11Transfer.
Napi::Value Transfer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  NativeComObject* self = ResourceArg(info[0]);
  bool write = info[1].ToBoolean();
  UINT sub = U32(info[2], "subresource");
  PlaneLayout layout = LayoutArg(info[3]);
  Napi::Uint8Array bytes = TransferBytes(env, write, info[4], layout);
  auto* resource = self->As<ID3D10Resource>();
  Com<ID3D10Device> device;
  resource->GetDevice(&device);
  D3D10_USAGE usage = D3D10_USAGE_DEFAULT;
  Com<ID3D10Resource> staging;
  staging.p = MakeStaging(env, self, device, sub, usage);
  ID3D10Resource* target = resource;
  UINT targetSub = sub;
  D3D10_MAP mode = write ? D3D10_MAP_WRITE : D3D10_MAP_READ;  // WRITE keeps what is there
  if (write && usage == D3D10_USAGE_DYNAMIC) {
    mode = D3D10_MAP_WRITE_DISCARD;  // whole subresources only (lib/direct3d): nothing else is lost
  } else if (staging) {
    device->CopySubresourceRegion(staging, 0, 0, 0, 0, resource, sub, nullptr);
    target = staging, targetSub = 0;
  }
  uint8_t* data = nullptr;
  size_t pitch = 0, slicePitch = 0;
  CheckHr(env, MapResource(self, target, targetSub, mode, data, pitch, slicePitch), "Map");
  if (self->kind() == "D3D10Buffer") pitch = layout.rowBytes;
  if (pitch / layout.pitchDivisor < layout.rowBytes) {
    UnmapResource(self, target, targetSub);
    throw Napi::RangeError::New(env, "the mapped rows are shorter than the layout's");
  }
  CopyPlane(write, data, pitch, slicePitch, bytes.Data(), layout);
  UnmapResource(self, target, targetSub);
  if (write && target == staging.p) device->CopySubresourceRegion(resource, sub, 0, 0, 0, staging, 0, nullptr);
  if (write) device->Flush();
  return write ? env.Undefined() : Napi::Value(bytes);
}

Napi::Value Flush(const Napi::CallbackInfo& info) {
  DeviceArg(info[0])->Flush();
  return info.Env().Undefined();
}

}  // namespace

void InitD3D10Device(Napi::Env env, Napi::Object exports) {
  exports.Set("d3d10CreateDevice", Napi::Function::New(env, CreateDevice, "d3d10CreateDevice"));
  exports.Set("d3d10DeviceInfo", Napi::Function::New(env, DeviceInfo, "d3d10DeviceInfo"));
  exports.Set("d3d10Adapter", Napi::Function::New(env, Adapter, "d3d10Adapter"));
  exports.Set("d3d10CreateBuffer", Napi::Function::New(env, CreateBuffer, "d3d10CreateBuffer"));
  exports.Set("d3d10CreateTexture2D", Napi::Function::New(env, CreateTexture2D, "d3d10CreateTexture2D"));
  exports.Set("d3d10CreateTexture3D", Napi::Function::New(env, CreateTexture3D, "d3d10CreateTexture3D"));
  exports.Set("d3d10OpenSharedResource", Napi::Function::New(env, OpenSharedResource, "d3d10OpenSharedResource"));
  exports.Set("d3d10Describe", Napi::Function::New(env, Describe, "d3d10Describe"));
  exports.Set("d3d10Transfer", Napi::Function::New(env, Transfer, "d3d10Transfer"));
  exports.Set("d3d10Flush", Napi::Function::New(env, Flush, "d3d10Flush"));
}

}  // namespace d3d
}  // namespace ocl

#endif  // _WIN32
