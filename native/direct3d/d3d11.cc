// Direct3D 11 for the Direct3D module (Windows only): devices on a DXGI
// adapter, buffers and 2D / 3D textures (NV12 included), shared handles
// (opened legacy or NT, with ID3D11Device1::OpenSharedResource1),
// and contents through a staging copy on the immediate context. Every
// resource wrapper holds its device. lib/direct3d/d3d11.ts validates first.
#ifdef _WIN32

#include "direct3d/dxgi_resources.h"

#include <d3d11.h>
#include <d3d11_1.h>

namespace ocl {
namespace d3d {
namespace {

struct D3D11 {
  using Device = ID3D11Device;
  using Resource = ID3D11Resource;
  using Buffer = ID3D11Buffer;
  using Texture2D = ID3D11Texture2D;
  using Texture3D = ID3D11Texture3D;
  using BufferDesc = D3D11_BUFFER_DESC;
  using Texture2DDesc = D3D11_TEXTURE2D_DESC;
  using Texture3DDesc = D3D11_TEXTURE3D_DESC;
  using SubresourceData = D3D11_SUBRESOURCE_DATA;
  using Usage = D3D11_USAGE;
  using Dimension = D3D11_RESOURCE_DIMENSION;
  static constexpr Dimension kDimensionUnknown = D3D11_RESOURCE_DIMENSION_UNKNOWN;
  static constexpr Dimension kDimensionBuffer = D3D11_RESOURCE_DIMENSION_BUFFER;
  static constexpr Dimension kDimensionTexture2D = D3D11_RESOURCE_DIMENSION_TEXTURE2D;
  static constexpr Dimension kDimensionTexture3D = D3D11_RESOURCE_DIMENSION_TEXTURE3D;
  static constexpr Usage kStaging = D3D11_USAGE_STAGING;
  static constexpr UINT kCpuReadWrite = D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE;
  static constexpr bool kStructuredBuffers = true;
  static constexpr const char* kDevice = "D3D11Device";
  static constexpr const char* kBuffer = "D3D11Buffer";
  static constexpr const char* kTexture2D = "D3D11Texture2D";
  static constexpr const char* kTexture3D = "D3D11Texture3D";
  static constexpr const char* kCreateBufferCall = "ID3D11Device::CreateBuffer";
  static constexpr const char* kCreateTexture2DCall = "ID3D11Device::CreateTexture2D";
  static constexpr const char* kCreateTexture3DCall = "ID3D11Device::CreateTexture3D";
  static constexpr const char* kGetTypeCall = "ID3D11Resource::GetType";
  static constexpr const char* kQueryInterfaceCall = "ID3D11Resource::QueryInterface";
  static constexpr const char* kStagingCall = "creating a D3D11 staging resource";
};
using Resources = DxgiResources<D3D11>;
Resources::Device* DeviceArg(const Napi::Value& value) { return Resources::DeviceArg(value); }
NativeComObject* ResourceArg(const Napi::Value& value) { return Resources::ResourceArg(value); }
const char* const kDevice = D3D11::kDevice;

// d3d11CreateDevice(adapterIndex: number | null, flags, featureLevels: number[])
Napi::Value CreateDevice(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  using Create = HRESULT(WINAPI*)(IDXGIAdapter*, D3D_DRIVER_TYPE, HMODULE, UINT, const D3D_FEATURE_LEVEL*, UINT, UINT, ID3D11Device**,
                                  D3D_FEATURE_LEVEL*, ID3D11DeviceContext**);
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
    CheckHr(env, owner->As<ID3D11Device>()->OpenSharedResource(handle, __uuidof(ID3D11Resource), resource.Out()), "ID3D11Device::OpenSharedResource");
  }
  return Resources::WrapResource(env, resource, owner->object());
}

// A staging copy of one subresource (CPU read and write), or the resource itself when it is staging already.
struct Staging {
  Com<ID3D11Resource> copy;
  ID3D11Resource* target = nullptr;
  UINT subresource = 0;
};

void MakeStaging(Napi::Env env, NativeComObject* self, ID3D11Device* device, UINT sub, Staging& out) {
  out.copy.p = Resources::StagingCopy(env, self, device, sub);
  out.target = out.copy ? out.copy.p : self->As<ID3D11Resource>();
  out.subresource = out.copy ? 0 : sub;
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
  if (write && Resources::UsageOf(self) == D3D11_USAGE_DYNAMIC) {
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
  CheckHr(env, context->Map(staging.target, staging.subresource, write ? D3D11_MAP_WRITE : D3D11_MAP_READ, 0, &mapped), "ID3D11DeviceContext::Map");
  size_t pitch = self->kind() == "D3D11Buffer" ? layout.rowBytes : mapped.RowPitch;
  CopyPlaneThenUnmap(env, write, static_cast<uint8_t*>(mapped.pData), pitch, mapped.DepthPitch, bytes.Data(), layout, "mapped",
                     [&] { context->Unmap(staging.target, staging.subresource); });
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
  exports.Set("d3d11DeviceInfo", Napi::Function::New(env, Resources::DeviceInfo, "d3d11DeviceInfo"));
  exports.Set("d3d11Adapter", Napi::Function::New(env, Resources::Adapter, "d3d11Adapter"));
  exports.Set("d3d11CreateBuffer", Napi::Function::New(env, Resources::CreateBuffer, "d3d11CreateBuffer"));
  exports.Set("d3d11CreateTexture2D", Napi::Function::New(env, Resources::CreateTexture2D, "d3d11CreateTexture2D"));
  exports.Set("d3d11CreateTexture3D", Napi::Function::New(env, Resources::CreateTexture3D, "d3d11CreateTexture3D"));
  exports.Set("d3d11OpenSharedResource", Napi::Function::New(env, OpenSharedResource, "d3d11OpenSharedResource"));
  exports.Set("d3d11Describe", Napi::Function::New(env, Resources::Describe, "d3d11Describe"));
  exports.Set("d3d11Transfer", Napi::Function::New(env, Transfer, "d3d11Transfer"));
  exports.Set("d3d11Flush", Napi::Function::New(env, Flush, "d3d11Flush"));
  exports.Set("d3d11FormatSupport", Napi::Function::New(env, FormatSupport, "d3d11FormatSupport"));
}

}  // namespace d3d
}  // namespace ocl

#endif  // _WIN32
