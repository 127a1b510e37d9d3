// The Direct3D module's common native pieces (Windows only; elsewhere this
// file is empty and lib/direct3d/ says the module needs Windows): the COM
// object wrapper, the HRESULT guard, system DLLs loaded at run time, DXGI
// adapters, and the row copy of read/write. Registered as exports.direct3d.
#ifdef _WIN32

#include "direct3d/direct3d.h"
#include "direct3d/object.h"

#include <dxgi1_2.h>

#include <cstdio>
#include <cstring>
#include <mutex>
#include <unordered_map>

namespace ocl {
namespace d3d {

namespace {
const napi_type_tag kComTag = {0x6f70656e636c2d69ULL, 0x6e7465726f702d33ULL};
}  // namespace

// ------------------------------------------------------------ COM objects --

NativeComObject::NativeComObject(const Napi::CallbackInfo& info) : Napi::ObjectWrap<NativeComObject>(info) {
  info.This().As<Napi::Object>().TypeTag(&kComTag);
}

void NativeComObject::Init(Napi::Env env, Napi::Object exports) {
  Napi::Function ctor =
      DefineClass(env, "NativeComObject",
                  {InstanceMethod("release", &NativeComObject::Release), InstanceAccessor("address", &NativeComObject::Address, nullptr),
                   InstanceAccessor("kind", &NativeComObject::Kind, nullptr)});
  AddonData::Get(env).constructors[&kComTag] = Napi::Persistent(ctor);
  exports.Set("NativeComObject", ctor);
}

Napi::Object NativeComObject::Wrap(Napi::Env env, IUnknown* object, const char* kind, std::initializer_list<IUnknown*> holds) {
  Napi::Object wrapper;
  try {
    wrapper = AddonData::Get(env).constructors.at(&kComTag).New({});
  } catch (...) {
    object->Release();
    throw;
  }
  NativeComObject* self = Unwrap(wrapper);
  self->object_ = object;
  self->kind_ = kind;
  for (IUnknown* hold : holds) {
    if (!hold) continue;
    hold->AddRef();
    self->holds_.push_back(hold);
  }
  return wrapper;
}

NativeComObject* NativeComObject::From(const Napi::Value& value, const char* what, std::initializer_list<const char*> kinds) {
  Napi::Env env = value.Env();
  if (!value.IsObject() || !value.As<Napi::Object>().CheckTypeTag(&kComTag)) {
    throw Napi::TypeError::New(env, std::string(what) + " must be a Direct3D object of this module");
  }
  NativeComObject* self = Unwrap(value.As<Napi::Object>());
  bool matches = kinds.size() == 0;
  for (const char* kind : kinds) matches = matches || self->kind_.rfind(kind, 0) == 0;
  if (!matches) throw Napi::TypeError::New(env, std::string(what) + " is a " + self->kind_ + ", not the kind this call takes");
  if (!self->object_) ThrowReleased(env, self->kind_.c_str());
  return self;
}

void NativeComObject::Drop() {
  IUnknown* object = object_;
  object_ = nullptr;
  if (object) object->Release();
  // Parents after the object: a texture goes before the device it was made on.
  for (auto it = holds_.rbegin(); it != holds_.rend(); ++it) (*it)->Release();
  holds_.clear();
}

Napi::Value NativeComObject::Release(const Napi::CallbackInfo& info) {
  Drop();
  return info.Env().Undefined();
}

Napi::Value NativeComObject::Address(const Napi::CallbackInfo& info) { return PointerValue(info.Env(), object_); }

Napi::Value NativeComObject::Kind(const Napi::CallbackInfo& info) { return Napi::String::New(info.Env(), kind_); }

// ---------------------------------------------------------------- errors --

void ThrowHr(Napi::Env env, HRESULT hr, const char* call, const std::string& detail) {
  char text[160];
  std::snprintf(text, sizeof(text), "%s failed: HRESULT 0x%08lx", call, static_cast<unsigned long>(hr));
  Napi::Value detailValue = detail.empty() ? env.Undefined() : Napi::String::New(env, detail);
  ThrowErrorOf(env, "Direct3DError",
               {Napi::Number::New(env, static_cast<double>(static_cast<uint32_t>(hr))), Napi::String::New(env, call), detailValue},
               text + (detail.empty() ? "" : ": " + detail));
}

FARPROC SystemFunction(Napi::Env env, const char* dll, const char* name) {
  // Loaded once per process, from the system directory only; never unloaded.
  static std::mutex lock;
  static std::unordered_map<std::string, HMODULE> modules;
  HMODULE module = nullptr;
  {
    std::lock_guard<std::mutex> guard(lock);
    auto found = modules.find(dll);
    if (found != modules.end()) {
      module = found->second;
    } else {
      module = LoadLibraryExA(dll, nullptr, LOAD_LIBRARY_SEARCH_SYSTEM32);
      if (!module) module = LoadLibraryA(dll);  // Windows without KB2533623 (LOAD_LIBRARY_SEARCH_* unknown)
      if (module) modules[dll] = module;
    }
  }
  if (!module) ThrowHr(env, HRESULT_FROM_WIN32(GetLastError()), "LoadLibrary", std::string(dll) + " could not be loaded");
  FARPROC function = GetProcAddress(module, name);
  if (!function) ThrowHr(env, HRESULT_FROM_WIN32(ERROR_PROC_NOT_FOUND), "GetProcAddress", std::string(dll) + " has no " + name);
  return function;
}

// ------------------------------------------------------------- arguments --

uint32_t U32(const Napi::Value& value, const char* what) {
  if (!value.IsNumber()) throw Napi::TypeError::New(value.Env(), std::string(what) + " must be a number");
  double number = value.As<Napi::Number>().DoubleValue();
  if (!(number >= 0 && number <= 4294967295.0) || number != static_cast<double>(static_cast<uint32_t>(number))) {
    throw Napi::RangeError::New(value.Env(), std::string(what) + " must be an integer from 0 to 2^32-1");
  }
  return static_cast<uint32_t>(number);
}

uint32_t U32Of(const Napi::Object& object, const char* key) { return U32(object.Get(key), key); }

Napi::Object ObjectArg(const Napi::Value& value, const char* what) {
  if (!value.IsObject()) throw Napi::TypeError::New(value.Env(), std::string(what) + " must be an object");
  return value.As<Napi::Object>();
}

Napi::Array ArrayArg(const Napi::Value& value, const char* what) {
  if (!value.IsArray()) throw Napi::TypeError::New(value.Env(), std::string(what) + " must be an array");
  return value.As<Napi::Array>();
}

const void* InitialData(const Napi::Value& value, size_t size) {
  if (value.IsUndefined() || value.IsNull()) return nullptr;
  if (!value.IsTypedArray() || value.As<Napi::TypedArray>().TypedArrayType() != napi_uint8_array ||
      value.As<Napi::Uint8Array>().ByteLength() < size) {
    throw Napi::TypeError::New(value.Env(), "initial data must be a Uint8Array of the resource's size");
  }
  return value.As<Napi::Uint8Array>().Data();
}

uint64_t U64Of(const Napi::Value& value, const char* what) { return ToU64(value, what); }

HANDLE HandleArg(const Napi::Value& value, const char* what) { return reinterpret_cast<HANDLE>(static_cast<uintptr_t>(ToU64(value, what))); }

Napi::BigInt Bigint(Napi::Env env, uint64_t value) { return Napi::BigInt::New(env, value); }

Napi::BigInt PointerValue(Napi::Env env, const void* pointer) {
  return Napi::BigInt::New(env, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(pointer)));
}

uint64_t LuidValue(const LUID& luid) { return (static_cast<uint64_t>(static_cast<uint32_t>(luid.HighPart)) << 32) | luid.LowPart; }

PlaneLayout LayoutArg(const Napi::Value& value) {
  if (!value.IsObject()) throw Napi::TypeError::New(value.Env(), "layout must be an object");
  Napi::Object object = value.As<Napi::Object>();
  PlaneLayout layout;
  layout.rowBytes = U32Of(object, "rowBytes");
  layout.rows = U32Of(object, "rows");
  layout.slices = U32Of(object, "slices");
  layout.rowsBefore = U32Of(object, "rowsBefore");
  layout.halfRowsBefore = U32Of(object, "halfRowsBefore");
  layout.pitchDivisor = U32Of(object, "pitchDivisor");
  if (layout.pitchDivisor != 1 && layout.pitchDivisor != 2) throw Napi::RangeError::New(value.Env(), "layout.pitchDivisor must be 1 or 2");
  return layout;
}

Napi::Uint8Array TransferBytes(Napi::Env env, bool write, const Napi::Value& given, const PlaneLayout& layout) {
  if (!write) return Napi::Uint8Array::New(env, layout.Size());
  if (!given.IsTypedArray() || given.As<Napi::TypedArray>().TypedArrayType() != napi_uint8_array) {
    throw Napi::TypeError::New(env, "data must be a Uint8Array");
  }
  Napi::Uint8Array bytes = given.As<Napi::Uint8Array>();
  if (bytes.ByteLength() != layout.Size()) {
    throw Napi::RangeError::New(env, "data must hold " + std::to_string(layout.Size()) + " bytes; it holds " + std::to_string(bytes.ByteLength()));
  }
  return bytes;
}

void CopyPlane(bool write, uint8_t* mapped, size_t pitch, size_t slicePitch, uint8_t* packed, const PlaneLayout& layout) {
  uint8_t* plane = mapped + size_t(layout.rowsBefore) * pitch + size_t(layout.halfRowsBefore) * (pitch / 2);
  size_t planePitch = pitch / layout.pitchDivisor;
  for (uint32_t slice = 0; slice < layout.slices; slice++) {
    for (uint32_t row = 0; row < layout.rows; row++) {
      uint8_t* at = plane + size_t(slice) * slicePitch + size_t(row) * planePitch;
      uint8_t* bytes = packed + (size_t(slice) * layout.rows + row) * layout.rowBytes;
      if (write) std::memcpy(at, bytes, layout.rowBytes);
      else std::memcpy(bytes, at, layout.rowBytes);
    }
  }
}

// ------------------------------------------------------------------ DXGI --

namespace {

IDXGIFactory1* DxgiFactory(Napi::Env env) {
  using CreateFactory = HRESULT(WINAPI*)(REFIID, void**);
  auto create = reinterpret_cast<CreateFactory>(SystemFunction(env, "dxgi.dll", "CreateDXGIFactory1"));
  IDXGIFactory1* factory = nullptr;
  CheckHr(env, create(__uuidof(IDXGIFactory1), reinterpret_cast<void**>(&factory)), "CreateDXGIFactory1");
  return factory;
}

std::string Utf8(const wchar_t* text) {
  int size = WideCharToMultiByte(CP_UTF8, 0, text, -1, nullptr, 0, nullptr, nullptr);
  if (size <= 1) return "";
  std::string out(size - 1, '\0');
  WideCharToMultiByte(CP_UTF8, 0, text, -1, out.data(), size, nullptr, nullptr);
  return out;
}

// The DXGI side of a D3D10 / D3D11 resource.
const std::initializer_list<const char*> kDxgiResources = {"D3D10Buffer", "D3D10Texture", "D3D11Buffer", "D3D11Texture"};

// sharedHandle(resource): IDXGIResource::GetSharedHandle (a legacy handle, never closed).
Napi::Value SharedHandle(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Com<IDXGIResource> resource;
  CheckHr(env, NativeComObject::From(info[0], "resource", kDxgiResources)->object()->QueryInterface(__uuidof(IDXGIResource), resource.Out()),
          "QueryInterface(IDXGIResource)");
  HANDLE handle = nullptr;
  CheckHr(env, resource->GetSharedHandle(&handle), "IDXGIResource::GetSharedHandle");
  return PointerValue(env, handle);
}

// createSharedHandle(resource, access): IDXGIResource1::CreateSharedHandle (an NT handle the caller closes).
Napi::Value CreateSharedHandle(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Com<IDXGIResource1> resource;
  CheckHr(env, NativeComObject::From(info[0], "resource", kDxgiResources)->object()->QueryInterface(__uuidof(IDXGIResource1), resource.Out()),
          "QueryInterface(IDXGIResource1)");
  HANDLE handle = nullptr;
  CheckHr(env, resource->CreateSharedHandle(nullptr, U32(info[1], "access"), nullptr, &handle), "IDXGIResource1::CreateSharedHandle");
  return PointerValue(env, handle);
}

// keyedMutex(resource, acquire: boolean, key: bigint, timeoutMs): the HRESULT (S_OK, WAIT_TIMEOUT, WAIT_ABANDONED).
Napi::Value KeyedMutex(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Com<IDXGIKeyedMutex> mutex;
  CheckHr(env, NativeComObject::From(info[0], "resource", kDxgiResources)->object()->QueryInterface(__uuidof(IDXGIKeyedMutex), mutex.Out()),
          "QueryInterface(IDXGIKeyedMutex)");
  bool acquire = info[1].ToBoolean();
  UINT64 key = U64Of(info[2], "key");
  HRESULT hr = acquire ? mutex->AcquireSync(key, U32(info[3], "timeoutMs")) : mutex->ReleaseSync(key);
  CheckHr(env, hr, acquire ? "IDXGIKeyedMutex::AcquireSync" : "IDXGIKeyedMutex::ReleaseSync");
  return Napi::Number::New(env, static_cast<double>(static_cast<uint32_t>(hr)));
}

}  // namespace

Napi::Object DescribeAdapter(Napi::Env env, IUnknown* unknown, int index) {
  Com<IDXGIAdapter> adapter;
  CheckHr(env, unknown->QueryInterface(__uuidof(IDXGIAdapter), adapter.Out()), "QueryInterface(IDXGIAdapter)");
  DXGI_ADAPTER_DESC desc = {};
  CheckHr(env, adapter->GetDesc(&desc), "IDXGIAdapter::GetDesc");
  Napi::Object out = Napi::Object::New(env);
  out.Set("index", Napi::Number::New(env, index));
  out.Set("description", Napi::String::New(env, Utf8(desc.Description)));
  out.Set("vendorId", Napi::Number::New(env, desc.VendorId));
  out.Set("deviceId", Napi::Number::New(env, desc.DeviceId));
  out.Set("subSysId", Napi::Number::New(env, desc.SubSysId));
  out.Set("revision", Napi::Number::New(env, desc.Revision));
  out.Set("dedicatedVideoMemory", Bigint(env, desc.DedicatedVideoMemory));
  out.Set("dedicatedSystemMemory", Bigint(env, desc.DedicatedSystemMemory));
  out.Set("sharedSystemMemory", Bigint(env, desc.SharedSystemMemory));
  out.Set("luid", Bigint(env, LuidValue(desc.AdapterLuid)));
  Com<IDXGIAdapter1> adapter1;
  DXGI_ADAPTER_DESC1 desc1 = {};
  bool software = SUCCEEDED(unknown->QueryInterface(__uuidof(IDXGIAdapter1), adapter1.Out())) && SUCCEEDED(adapter1->GetDesc1(&desc1)) &&
                  (desc1.Flags & DXGI_ADAPTER_FLAG_SOFTWARE);
  out.Set("software", Napi::Boolean::New(env, software));
  return out;
}

Napi::Value DxgiAdapters(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Com<IDXGIFactory1> factory;
  factory.p = DxgiFactory(env);
  Napi::Array out = Napi::Array::New(env);
  for (UINT index = 0;; index++) {
    Com<IDXGIAdapter1> adapter;
    HRESULT hr = factory->EnumAdapters1(index, &adapter);
    if (hr == DXGI_ERROR_NOT_FOUND) break;
    CheckHr(env, hr, "IDXGIFactory1::EnumAdapters1");
    out.Set(index, DescribeAdapter(env, adapter, static_cast<int>(index)));
  }
  return out;
}

// adapterObject(index): the enumeration's IDXGIAdapter1 `index`.
Napi::Value AdapterObject(const Napi::CallbackInfo& info) {
  return NativeComObject::Wrap(info.Env(), DxgiAdapter(info.Env(), U32(info[0], "index")), "DXGIAdapter");
}

IDXGIAdapter1* DxgiAdapter(Napi::Env env, uint32_t index) {
  Com<IDXGIFactory1> factory;
  factory.p = DxgiFactory(env);
  IDXGIAdapter1* adapter = nullptr;
  HRESULT hr = factory->EnumAdapters1(index, &adapter);
  if (hr == DXGI_ERROR_NOT_FOUND) ThrowHr(env, hr, "IDXGIFactory1::EnumAdapters1", "there is no adapter " + std::to_string(index));
  CheckHr(env, hr, "IDXGIFactory1::EnumAdapters1");
  return adapter;
}

IUnknown* AdapterOfDevice(Napi::Env env, IUnknown* device) {
  Com<IDXGIDevice> dxgi;
  CheckHr(env, device->QueryInterface(__uuidof(IDXGIDevice), dxgi.Out()), "QueryInterface(IDXGIDevice)");
  IDXGIAdapter* adapter = nullptr;
  CheckHr(env, dxgi->GetAdapter(&adapter), "IDXGIDevice::GetAdapter");
  return adapter;
}

}  // namespace d3d

void InitDirect3D(Napi::Env env, Napi::Object exports) {
  Napi::Object direct3d = Napi::Object::New(env);
  d3d::NativeComObject::Init(env, direct3d);
  direct3d.Set("adapters", Napi::Function::New(env, d3d::DxgiAdapters, "adapters"));
  direct3d.Set("adapterObject", Napi::Function::New(env, d3d::AdapterObject, "adapterObject"));
  direct3d.Set("sharedHandle", Napi::Function::New(env, d3d::SharedHandle, "sharedHandle"));
  direct3d.Set("createSharedHandle", Napi::Function::New(env, d3d::CreateSharedHandle, "createSharedHandle"));
  direct3d.Set("keyedMutex", Napi::Function::New(env, d3d::KeyedMutex, "keyedMutex"));
  d3d::InitD3D11Device(env, direct3d);
  d3d::InitD3D10Device(env, direct3d);
  d3d::InitD3D9Device(env, direct3d);
  exports.Set("direct3d", direct3d);
}

}  // namespace ocl

#endif  // _WIN32
