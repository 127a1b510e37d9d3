// Direct3D 10.1 for the Direct3D module (Windows only): ID3D10Device1 on a
// DXGI adapter, buffers and 2D / 3D textures, legacy shared handles opened
// with OpenSharedResource, and contents through a staging copy. An
// ID3D10Device1 is an ID3D10Device, the interface cl_khr_d3d10_sharing takes.
// Every resource wrapper holds its device. lib/direct3d/d3d10.ts validates first.
#ifdef _WIN32

#include "direct3d/dxgi_resources.h"

#include <d3d10_1.h>

namespace ocl {
namespace d3d {
namespace {

struct D3D10 {
  using Device = ID3D10Device1;
  using Resource = ID3D10Resource;
  using Buffer = ID3D10Buffer;
  using Texture2D = ID3D10Texture2D;
  using Texture3D = ID3D10Texture3D;
  using BufferDesc = D3D10_BUFFER_DESC;
  using Texture2DDesc = D3D10_TEXTURE2D_DESC;
  using Texture3DDesc = D3D10_TEXTURE3D_DESC;
  using SubresourceData = D3D10_SUBRESOURCE_DATA;
  using Usage = D3D10_USAGE;
  using Dimension = D3D10_RESOURCE_DIMENSION;
  static constexpr Dimension kDimensionUnknown = D3D10_RESOURCE_DIMENSION_UNKNOWN;
  static constexpr Dimension kDimensionBuffer = D3D10_RESOURCE_DIMENSION_BUFFER;
  static constexpr Dimension kDimensionTexture2D = D3D10_RESOURCE_DIMENSION_TEXTURE2D;
  static constexpr Dimension kDimensionTexture3D = D3D10_RESOURCE_DIMENSION_TEXTURE3D;
  static constexpr Usage kStaging = D3D10_USAGE_STAGING;
  static constexpr UINT kCpuReadWrite = D3D10_CPU_ACCESS_READ | D3D10_CPU_ACCESS_WRITE;
  static constexpr bool kStructuredBuffers = false;
  static constexpr const char* kDevice = "D3D10Device";
  static constexpr const char* kBuffer = "D3D10Buffer";
  static constexpr const char* kTexture2D = "D3D10Texture2D";
  static constexpr const char* kTexture3D = "D3D10Texture3D";
  static constexpr const char* kCreateBufferCall = "ID3D10Device::CreateBuffer";
  static constexpr const char* kCreateTexture2DCall = "ID3D10Device::CreateTexture2D";
  static constexpr const char* kCreateTexture3DCall = "ID3D10Device::CreateTexture3D";
  static constexpr const char* kGetTypeCall = "ID3D10Resource::GetType";
  static constexpr const char* kQueryInterfaceCall = "ID3D10Resource::QueryInterface";
  static constexpr const char* kStagingCall = "creating a D3D10 staging resource";
};
using Resources = DxgiResources<D3D10>;
Resources::Device* DeviceArg(const Napi::Value& value) { return Resources::DeviceArg(value); }
NativeComObject* ResourceArg(const Napi::Value& value) { return Resources::ResourceArg(value); }
const char* const kDevice = D3D10::kDevice;

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
    hr = create(adapter, D3D10_DRIVER_TYPE_HARDWARE, nullptr, flags, static_cast<D3D10_FEATURE_LEVEL1>(U32(levels.Get(i), "featureLevels[i]")),
                D3D10_1_SDK_VERSION, &device);
  }
  CheckHr(env, hr, "D3D10CreateDevice1");
  return NativeComObject::Wrap(env, device, kDevice);
}

// d3d10OpenSharedResource(device, handle: bigint): a legacy shared handle, under the resource's own interface.
Napi::Value OpenSharedResource(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  NativeComObject* owner = NativeComObject::From(info[0], "device", {kDevice});
  Com<ID3D10Resource> resource;
  CheckHr(env, owner->As<ID3D10Device1>()->OpenSharedResource(HandleArg(info[1], "handle"), __uuidof(ID3D10Resource), resource.Out()),
          "ID3D10Device::OpenSharedResource");
  return Resources::WrapResource(env, resource, owner->object());
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
  D3D10_USAGE usage = Resources::UsageOf(self);
  Com<ID3D10Resource> staging;
  staging.p = Resources::StagingCopy(env, self, device.p, sub);
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
  CopyPlaneThenUnmap(env, write, data, pitch, slicePitch, bytes.Data(), layout, "mapped", [&] { UnmapResource(self, target, targetSub); });
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
  exports.Set("d3d10DeviceInfo", Napi::Function::New(env, Resources::DeviceInfo, "d3d10DeviceInfo"));
  exports.Set("d3d10Adapter", Napi::Function::New(env, Resources::Adapter, "d3d10Adapter"));
  exports.Set("d3d10CreateBuffer", Napi::Function::New(env, Resources::CreateBuffer, "d3d10CreateBuffer"));
  exports.Set("d3d10CreateTexture2D", Napi::Function::New(env, Resources::CreateTexture2D, "d3d10CreateTexture2D"));
  exports.Set("d3d10CreateTexture3D", Napi::Function::New(env, Resources::CreateTexture3D, "d3d10CreateTexture3D"));
  exports.Set("d3d10OpenSharedResource", Napi::Function::New(env, OpenSharedResource, "d3d10OpenSharedResource"));
  exports.Set("d3d10Describe", Napi::Function::New(env, Resources::Describe, "d3d10Describe"));
  exports.Set("d3d10Transfer", Napi::Function::New(env, Transfer, "d3d10Transfer"));
  exports.Set("d3d10Flush", Napi::Function::New(env, Flush, "d3d10Flush"));
}

}  // namespace d3d
}  // namespace ocl

#endif  // _WIN32
