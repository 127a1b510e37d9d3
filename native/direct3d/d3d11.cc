// Direct3D 11 for the Direct3D module (Windows only): devices on a DXGI
// adapter, buffers and 2D / 3D textures (NV12 included), shared handles
// (opened legacy or NT, with ID3D11Device1::OpenSharedResource1),
// and contents through a staging copy on the immediate context. Every
// resource wrapper holds its device. lib/direct3d/d3d11.ts validates first.
#ifdef _WIN32

#include "direct3d/object.h"

#include <d3d11.h>
#include <d3d11_1.h>

namespace ocl {
namespace d3d {
namespace {

const char* const kDevice = "D3D11Device";

const char* KindOf(D3D11_RESOURCE_DIMENSION dimension) {
  switch (dimension) {
    case D3D11_RESOURCE_DIMENSION_BUFFER: return "D3D11Buffer";
    case D3D11_RESOURCE_DIMENSION_TEXTURE2D: return "D3D11Texture2D";
    case D3D11_RESOURCE_DIMENSION_TEXTURE3D: return "D3D11Texture3D";
    default: return nullptr;
  }
}

ID3D11Device* DeviceArg(const Napi::Value& value) { return NativeComObject::From(value, "device", {kDevice})->As<ID3D11Device>(); }

NativeComObject* ResourceArg(const Napi::Value& value) {
  return NativeComObject::From(value, "resource", {"D3D11Buffer", "D3D11Texture2D", "D3D11Texture3D"});
}

// d3d11CreateDevice(adapterIndex: number | null, flags, featureLevels: number[])
Napi::Value CreateDevice(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  using Create = HRESULT(WINAPI*)(IDXGIAdapter*, D3D_DRIVER_TYPE, HMODULE, UINT, const D3D_FEATURE_LEVEL*, UINT, UINT,
                                  ID3D11Device**, D3D_FEATURE_LEVEL*, ID3D11DeviceContext**);
  auto create = reinterpret_cast<Create>(SystemFunction(env, "d3d11.dll", "D3D11CreateDevice"));
  Com<IDXGIAdapter1> adapter;
  if (!info[0].IsNull()) adapter.p = DxgiAdapter(env, U32(info[0], "adapterIndex"));
  UINT flags = U32(info[1], "flags");
  std::vector<D3D_FEATURE_LEVEL> levels;
  Napi::Array given = ArrayArg(info[2], "featureLevels");
  for (uint32_t i = 0; i < given.Length(); i++) levels.push_back(static_cast<D3D_FEATURE_LEVEL>(U32(given.Get(i), "featureLevels[i]")));
  D3D_DRIVER_TYPE type = adapter ? D3D_DRIVER_TYPE_UNKNOWN : D3D_DRIVER_TYPE_HARDWARE;
  Com<ID3D11Device> device;
  HRESULT hr = create(adapter, type, nullptr, flags, levels.data(), static_cast<UINT>(levels.size()), D3D11_SDK_VERSION, &device, nullptr, nullptr);
  // A Direct3D 11.0 runtime refuses the 11_1 level it does not know: ask again without it (the documented pattern).
  if (hr == E_INVALIDARG && levels.size() > 1 && levels[0] == D3D_FEATURE_LEVEL_11_1) {
    hr = create(adapter, type, nullptr, flags, levels.data() + 1, static_cast<UINT>(levels.size() - 1), D3D11_SDK_VERSION, &device, nullptr, nullptr);
  }
  CheckHr(env, hr, "D3D11CreateDevice");
  // The immediate context may be used from the OpenCL driver's threads too (acquire and release copy through it).
  Com<ID3D10Multithread> multithread;
  if (SUCCEEDED(device->QueryInterface(__uuidof(ID3D10Multithread), multithread.Out()))) multithread->SetMultithreadProtected(TRUE);
  return NativeComObject::Wrap(env, device.Detach(), kDevice);
}

// d3d11DeviceInfo(device): { featureLevel, creationFlags, adapter }
Napi::Value DeviceInfo(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  ID3D11Device* device = DeviceArg(info[0]);
  Napi::Object out = Napi::Object::New(env);
  out.Set("featureLevel", Napi::Number::New(env, device->GetFeatureLevel()));
  out.Set("creationFlags", Napi::Number::New(env, device->GetCreationFlags()));
  Com<IUnknown> adapter;
  adapter.p = AdapterOfDevice(env, device);
  out.Set("adapter", DescribeAdapter(env, adapter, -1));
  return out;
}

// d3d11Adapter(device): the IDXGIAdapter it runs on.
Napi::Value Adapter(const Napi::CallbackInfo& info) {
  return NativeComObject::Wrap(info.Env(), AdapterOfDevice(info.Env(), DeviceArg(info[0])), "DXGIAdapter");
}

// d3d11CreateBuffer(device, { byteWidth, usage, bindFlags, cpuAccessFlags, miscFlags, structureByteStride }, initial?)
Napi::Value CreateBuffer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  NativeComObject* owner = NativeComObject::From(info[0], "device", {kDevice});
  Napi::Object options = ObjectArg(info[1], "options");
  D3D11_BUFFER_DESC desc = {};
  desc.ByteWidth = U32Of(options, "byteWidth");
  desc.Usage = static_cast<D3D11_USAGE>(U32Of(options, "usage"));
  desc.BindFlags = U32Of(options, "bindFlags");
  desc.CPUAccessFlags = U32Of(options, "cpuAccessFlags");
  desc.MiscFlags = U32Of(options, "miscFlags");
  desc.StructureByteStride = U32Of(options, "structureByteStride");
  D3D11_SUBRESOURCE_DATA initial = {};
  initial.pSysMem = InitialData(info[2], desc.ByteWidth);
  bool hasInitial = initial.pSysMem != nullptr;
  ID3D11Buffer* buffer = nullptr;
  CheckHr(env, owner->As<ID3D11Device>()->CreateBuffer(&desc, hasInitial ? &initial : nullptr, &buffer), "ID3D11Device::CreateBuffer");
  return NativeComObject::Wrap(env, buffer, "D3D11Buffer", {owner->object()});
}

void ReadTextureCommon(const Napi::Object& options, UINT& mips, DXGI_FORMAT& format, D3D11_USAGE& usage, UINT& bind, UINT& cpu, UINT& misc) {
  mips = U32Of(options, "mipLevels");
  format = static_cast<DXGI_FORMAT>(U32Of(options, "format"));
  usage = static_cast<D3D11_USAGE>(U32Of(options, "usage"));
  bind = U32Of(options, "bindFlags");
  cpu = U32Of(options, "cpuAccessFlags");
  misc = U32Of(options, "miscFlags");
}

// d3d11CreateTexture2D(device, { width, height, mipLevels, arraySize, format, sampleCount, sampleQuality, usage, bindFlags, cpuAccessFlags, miscFlags })
Napi::Value CreateTexture2D(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  NativeComObject* owner = NativeComObject::From(info[0], "device", {kDevice});
  Napi::Object options = ObjectArg(info[1], "options");
  D3D11_TEXTURE2D_DESC desc = {};
  desc.Width = U32Of(options, "width");
  desc.Height = U32Of(options, "height");
  desc.ArraySize = U32Of(options, "arraySize");
  desc.SampleDesc.Count = U32Of(options, "sampleCount");
  desc.SampleDesc.Quality = U32Of(options, "sampleQuality");
  ReadTextureCommon(options, desc.MipLevels, desc.Format, desc.Usage, desc.BindFlags, desc.CPUAccessFlags, desc.MiscFlags);
  ID3D11Texture2D* texture = nullptr;
  CheckHr(env, owner->As<ID3D11Device>()->CreateTexture2D(&desc, nullptr, &texture), "ID3D11Device::CreateTexture2D");
  return NativeComObject::Wrap(env, texture, "D3D11Texture2D", {owner->object()});
}

// d3d11CreateTexture3D(device, { width, height, depth, mipLevels, format, usage, bindFlags, cpuAccessFlags, miscFlags })
Napi::Value CreateTexture3D(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  NativeComObject* owner = NativeComObject::From(info[0], "device", {kDevice});
  Napi::Object options = ObjectArg(info[1], "options");
  D3D11_TEXTURE3D_DESC desc = {};
  desc.Width = U32Of(options, "width");
  desc.Height = U32Of(options, "height");
  desc.Depth = U32Of(options, "depth");
  ReadTextureCommon(options, desc.MipLevels, desc.Format, desc.Usage, desc.BindFlags, desc.CPUAccessFlags, desc.MiscFlags);
  ID3D11Texture3D* texture = nullptr;
  CheckHr(env, owner->As<ID3D11Device>()->CreateTexture3D(&desc, nullptr, &texture), "ID3D11Device::CreateTexture3D");
  return NativeComObject::Wrap(env, texture, "D3D11Texture3D", {owner->object()});
}

// Wraps a resource of unknown dimension under its own interface.
Napi::Value WrapResource(Napi::Env env, ID3D11Resource* resource, IUnknown* device) {
  D3D11_RESOURCE_DIMENSION dimension = D3D11_RESOURCE_DIMENSION_UNKNOWN;
  resource->GetType(&dimension);
  const char* kind = KindOf(dimension);
  if (!kind) ThrowHr(env, E_NOINTERFACE, "ID3D11Resource::GetType", "the shared resource is not a buffer, 2D or 3D texture");
  IUnknown* typed = nullptr;
  const IID& iid = dimension == D3D11_RESOURCE_DIMENSION_BUFFER      ? __uuidof(ID3D11Buffer)
                   : dimension == D3D11_RESOURCE_DIMENSION_TEXTURE2D ? __uuidof(ID3D11Texture2D)
                                                                     : __uuidof(ID3D11Texture3D);
  CheckHr(env, resource->QueryInterface(iid, reinterpret_cast<void**>(&typed)), "ID3D11Resource::QueryInterface");
  return NativeComObject::Wrap(env, typed, kind, {device});
}

// d3d11OpenSharedResource(device, handle: bigint, nt: boolean)
Napi::Value OpenSharedResource(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  NativeComObject* owner = NativeComObject::From(info[0], "device", {kDevice});
  HANDLE handle = HandleArg(info[1], "handle");
  bool nt = info[2].ToBoolean();
  Com<ID3D11Resource> resource;
  if (nt) {
    Com<ID3D11Device1> device1;
    CheckHr(env, owner->object()->QueryInterface(__uuidof(ID3D11Device1), device1.Out()), "QueryInterface(ID3D11Device1)");
    CheckHr(env, device1->OpenSharedResource1(handle, __uuidof(ID3D11Resource), resource.Out()), "ID3D11Device1::OpenSharedResource1");
  } else {
    CheckHr(env, owner->As<ID3D11Device>()->OpenSharedResource(handle, __uuidof(ID3D11Resource), resource.Out()),
            "ID3D11Device::OpenSharedResource");
  }
  return WrapResource(env, resource, owner->object());
}

// d3d11Describe(resource): the resource's description (GetDesc), with `dimension`.
Napi::Value Describe(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  NativeComObject* self = ResourceArg(info[0]);
  Napi::Object out = Napi::Object::New(env);
  auto set = [&](const char* key, uint32_t value) { out.Set(key, Napi::Number::New(env, value)); };
  if (self->kind() == "D3D11Buffer") {
    D3D11_BUFFER_DESC desc;
    self->As<ID3D11Buffer>()->GetDesc(&desc);
    out.Set("dimension", "buffer");
    set("byteWidth", desc.ByteWidth), set("usage", desc.Usage), set("bindFlags", desc.BindFlags);
    set("cpuAccessFlags", desc.CPUAccessFlags), set("miscFlags", desc.MiscFlags), set("structureByteStride", desc.StructureByteStride);
  } else if (self->kind() == "D3D11Texture2D") {
    D3D11_TEXTURE2D_DESC desc;
    self->As<ID3D11Texture2D>()->GetDesc(&desc);
    out.Set("dimension", "texture2d");
    set("width", desc.Width), set("height", desc.Height), set("depth", 1), set("mipLevels", desc.MipLevels);
    set("arraySize", desc.ArraySize), set("format", desc.Format), set("sampleCount", desc.SampleDesc.Count);
    set("sampleQuality", desc.SampleDesc.Quality), set("usage", desc.Usage), set("bindFlags", desc.BindFlags);
    set("cpuAccessFlags", desc.CPUAccessFlags), set("miscFlags", desc.MiscFlags);
  } else {
    D3D11_TEXTURE3D_DESC desc;
    self->As<ID3D11Texture3D>()->GetDesc(&desc);
    out.Set("dimension", "texture3d");
    set("width", desc.Width), set("height", desc.Height), set("depth", desc.Depth), set("mipLevels", desc.MipLevels);
    set("arraySize", 1), set("format", desc.Format), set("usage", desc.Usage), set("bindFlags", desc.BindFlags);
    set("cpuAccessFlags", desc.CPUAccessFlags), set("miscFlags", desc.MiscFlags);
  }
  return out;
}

D3D11_USAGE UsageOf(NativeComObject* self) {
  if (self->kind() == "D3D11Buffer") {
    D3D11_BUFFER_DESC desc;
    self->As<ID3D11Buffer>()->GetDesc(&desc);
    return desc.Usage;
  }
  if (self->kind() == "D3D11Texture2D") {
    D3D11_TEXTURE2D_DESC desc;
    self->As<ID3D11Texture2D>()->GetDesc(&desc);
    return desc.Usage;
  }
  D3D11_TEXTURE3D_DESC desc;
  self->As<ID3D11Texture3D>()->GetDesc(&desc);
  return desc.Usage;
}

// A staging copy of one subresource (CPU read and write), or the resource itself when it is staging already.
struct Staging {
  Com<ID3D11Resource> copy;
  ID3D11Resource* target = nullptr;
  UINT subresource = 0;
};

void MakeStaging(Napi::Env env, NativeComObject* self, ID3D11Device* device, UINT sub, Staging& out) {
  const UINT cpu = D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE;
  HRESULT hr = S_OK;
  if (self->kind() == "D3D11Buffer") {
    D3D11_BUFFER_DESC desc;
    self->As<ID3D11Buffer>()->GetDesc(&desc);
    if (desc.Usage == D3D11_USAGE_STAGING) return void((out.target = self->As<ID3D11Resource>(), out.subresource = sub));
    D3D11_BUFFER_DESC staging = {desc.ByteWidth, D3D11_USAGE_STAGING, 0, cpu, 0, 0};
    hr = device->CreateBuffer(&staging, nullptr, reinterpret_cast<ID3D11Buffer**>(&out.copy.p));
  } else if (self->kind() == "D3D11Texture2D") {
    D3D11_TEXTURE2D_DESC desc;
    self->As<ID3D11Texture2D>()->GetDesc(&desc);
    if (desc.Usage == D3D11_USAGE_STAGING) return void((out.target = self->As<ID3D11Resource>(), out.subresource = sub));
    UINT level = sub % desc.MipLevels;
    desc.Width = desc.Width >> level ? desc.Width >> level : 1;
    desc.Height = desc.Height >> level ? desc.Height >> level : 1;
    desc.MipLevels = desc.ArraySize = 1;
    desc.Usage = D3D11_USAGE_STAGING;
    desc.BindFlags = desc.MiscFlags = 0;
    desc.CPUAccessFlags = cpu;
    hr = device->CreateTexture2D(&desc, nullptr, reinterpret_cast<ID3D11Texture2D**>(&out.copy.p));
  } else {
    D3D11_TEXTURE3D_DESC desc;
    self->As<ID3D11Texture3D>()->GetDesc(&desc);
    if (desc.Usage == D3D11_USAGE_STAGING) return void((out.target = self->As<ID3D11Resource>(), out.subresource = sub));
    desc.Width = desc.Width >> sub ? desc.Width >> sub : 1;
    desc.Height = desc.Height >> sub ? desc.Height >> sub : 1;
    desc.Depth = desc.Depth >> sub ? desc.Depth >> sub : 1;
    desc.MipLevels = 1;
    desc.Usage = D3D11_USAGE_STAGING;
    desc.BindFlags = desc.MiscFlags = 0;
    desc.CPUAccessFlags = cpu;
    hr = device->CreateTexture3D(&desc, nullptr, reinterpret_cast<ID3D11Texture3D**>(&out.copy.p));
  }
  CheckHr(env, hr, "creating a D3D11 staging resource");
  out.target = out.copy;
  out.subresource = 0;
}

// d3d11Transfer(resource, write, subresource, layout, data?): reads (returns the
// packed bytes) or writes one plane of one subresource through a staging copy.
Napi::Value Transfer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  NativeComObject* self = ResourceArg(info[0]);
  bool write = info[1].ToBoolean();
  UINT sub = U32(info[2], "subresource");
  PlaneLayout layout = LayoutArg(info[3]);
  Napi::Uint8Array bytes = TransferBytes(env, write, info[4], layout);
  auto* resource = self->As<ID3D11Resource>();
  Com<ID3D11Device> device;
  resource->GetDevice(&device);
  Com<ID3D11DeviceContext> context;
  device->GetImmediateContext(&context);
  if (write && UsageOf(self) == D3D11_USAGE_DYNAMIC) {
    // A DYNAMIC resource is written by the CPU directly (it cannot be a copy's destination);
    // lib/direct3d asks for whole subresources only, so discarding the rest loses nothing.
    D3D11_MAPPED_SUBRESOURCE mapped = {};
    CheckHr(env, context->Map(resource, sub, D3D11_MAP_WRITE_DISCARD, 0, &mapped), "ID3D11DeviceContext::Map");
    size_t pitch = self->kind() == "D3D11Buffer" ? layout.rowBytes : mapped.RowPitch;
    CopyPlane(true, static_cast<uint8_t*>(mapped.pData), pitch, mapped.DepthPitch, bytes.Data(), layout);
    context->Unmap(resource, sub);
    context->Flush();
    return env.Undefined();
  }
  Staging staging;
  MakeStaging(env, self, device, sub, staging);
  // The whole subresource comes in first (a write of one plane keeps the
  // other); D3D11_MAP_WRITE keeps what is there, unlike WRITE_DISCARD.
  if (staging.copy) context->CopySubresourceRegion(staging.target, 0, 0, 0, 0, resource, sub, nullptr);
  D3D11_MAPPED_SUBRESOURCE mapped = {};
  CheckHr(env, context->Map(staging.target, staging.subresource, write ? D3D11_MAP_WRITE : D3D11_MAP_READ, 0, &mapped),
          "ID3D11DeviceContext::Map");
  size_t pitch = self->kind() == "D3D11Buffer" ? layout.rowBytes : mapped.RowPitch;
  if (pitch / layout.pitchDivisor < layout.rowBytes) {
    context->Unmap(staging.target, staging.subresource);
    throw Napi::RangeError::New(env, "the mapped rows are shorter than the layout's");
  }
  CopyPlane(write, static_cast<uint8_t*>(mapped.pData), pitch, mapped.DepthPitch, bytes.Data(), layout);
  context->Unmap(staging.target, staging.subresource);
  if (write && staging.copy) context->CopySubresourceRegion(resource, sub, 0, 0, 0, staging.target, 0, nullptr);
  if (write) context->Flush();
  return write ? env.Undefined() : Napi::Value(bytes);
}

// d3d11Flush(device): ID3D11DeviceContext::Flush of the immediate context.
Napi::Value Flush(const Napi::CallbackInfo& info) {
  Com<ID3D11DeviceContext> context;
  DeviceArg(info[0])->GetImmediateContext(&context);
  context->Flush();
  return info.Env().Undefined();
}

// d3d11FormatSupport(device, format): D3D11_FORMAT_SUPPORT bits (0 when unsupported).
Napi::Value FormatSupport(const Napi::CallbackInfo& info) {
  UINT support = 0;
  if (FAILED(DeviceArg(info[0])->CheckFormatSupport(static_cast<DXGI_FORMAT>(U32(info[1], "format")), &support))) support = 0;
  return Napi::Number::New(info.Env(), support);
}

}  // namespace

void InitD3D11Device(Napi::Env env, Napi::Object exports) {
  exports.Set("d3d11CreateDevice", Napi::Function::New(env, CreateDevice, "d3d11CreateDevice"));
  exports.Set("d3d11DeviceInfo", Napi::Function::New(env, DeviceInfo, "d3d11DeviceInfo"));
  exports.Set("d3d11Adapter", Napi::Function::New(env, Adapter, "d3d11Adapter"));
  exports.Set("d3d11CreateBuffer", Napi::Function::New(env, CreateBuffer, "d3d11CreateBuffer"));
  exports.Set("d3d11CreateTexture2D", Napi::Function::New(env, CreateTexture2D, "d3d11CreateTexture2D"));
  exports.Set("d3d11CreateTexture3D", Napi::Function::New(env, CreateTexture3D, "d3d11CreateTexture3D"));
  exports.Set("d3d11OpenSharedResource", Napi::Function::New(env, OpenSharedResource, "d3d11OpenSharedResource"));
  exports.Set("d3d11Describe", Napi::Function::New(env, Describe, "d3d11Describe"));
  exports.Set("d3d11Transfer", Napi::Function::New(env, Transfer, "d3d11Transfer"));
  exports.Set("d3d11Flush", Napi::Function::New(env, Flush, "d3d11Flush"));
  exports.Set("d3d11FormatSupport", Napi::Function::New(env, FormatSupport, "d3d11FormatSupport"));
}

}  // namespace d3d
}  // namespace ocl

#endif  // _WIN32
