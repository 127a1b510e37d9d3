// The Direct3D module's native side (Windows only): one wrapper class for
// every COM object it hands to JavaScript (NativeComObject), the HRESULT
// guard, the Direct3D DLLs loaded at run time, and the plane-aware row copy
// that reads and writes resource contents. direct3d/d3d11.cc, d3d10.cc and d3d9.cc
// hold one Direct3D API each; direct3d/direct3d.cc registers them.
// Policy (formats, sizes, what may be written) is lib/direct3d/'s.
#pragma once

#ifdef _WIN32

#ifndef NOMINMAX
#define NOMINMAX
#endif
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#include <unknwn.h>
#include <dxgi.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "objects.h"

namespace ocl {
namespace d3d {

// What one wrapper holds: the interface pointer handed to JavaScript (one
// reference of ours) and references on what it needs to stay usable (its
// device, a texture for one of its surfaces), dropped together.
class NativeComObject : public Napi::ObjectWrap<NativeComObject> {
 public:
  explicit NativeComObject(const Napi::CallbackInfo& info);
  ~NativeComObject() override { Drop(); }
  static void Init(Napi::Env env, Napi::Object exports);

  // Takes over one reference on `object` and adds one on each of `holds`.
  static Napi::Object Wrap(Napi::Env env, IUnknown* object, const char* kind, std::initializer_list<IUnknown*> holds = {});
  // The object behind a JS value, checked to be of one of `kinds` (a prefix
  // match: "D3D11" takes every D3D11 kind) and not released; else a typed error.
  static NativeComObject* From(const Napi::Value& value, const char* what, std::initializer_list<const char*> kinds);

  template <typename T>
  T* As() const {
    return static_cast<T*>(static_cast<void*>(object_));
  }
  IUnknown* object() const { return object_; }
  const std::string& kind() const { return kind_; }

 private:
  Napi::Value Release(const Napi::CallbackInfo& info);
  Napi::Value Address(const Napi::CallbackInfo& info);
  Napi::Value Kind(const Napi::CallbackInfo& info);
  void Drop();

  IUnknown* object_ = nullptr;
  std::vector<IUnknown*> holds_;
  std::string kind_;
};

// A COM reference released when the scope ends, thrown out of or not.
template <typename T>
struct Com {
  T* p = nullptr;
  Com() = default;
  Com(const Com&) = delete;
  Com& operator=(const Com&) = delete;
  ~Com() {
    if (p) p->Release();
  }
  T** operator&() { return &p; }
  T* operator->() const { return p; }
  operator T*() const { return p; }
  T* Detach() {
    T* out = p;
    p = nullptr;
    return out;
  }
  void** Out() { return reinterpret_cast<void**>(&p); }
};

// A failed HRESULT becomes lib/direct3d's Direct3DError (hresult, call, detail).
[[noreturn]] void ThrowHr(Napi::Env env, HRESULT hr, const char* call, const std::string& detail = "");
inline void CheckHr(Napi::Env env, HRESULT hr, const char* call) {
  if (FAILED(hr)) ThrowHr(env, hr, call);
}

// An entry point of a system DLL loaded on first use (d3d11.dll, dxgi.dll, ...);
// a missing DLL or function is a Direct3DError naming it.
FARPROC SystemFunction(Napi::Env env, const char* dll, const char* name);

// Arguments, validated in lib/direct3d/ already: these only convert.
uint32_t U32(const Napi::Value& value, const char* what);
uint32_t U32Of(const Napi::Object& object, const char* key);
Napi::Object ObjectArg(const Napi::Value& value, const char* what);
Napi::Array ArrayArg(const Napi::Value& value, const char* what);
// Initial contents: undefined (none) or a Uint8Array of at least `size` bytes.
const void* InitialData(const Napi::Value& value, size_t size);
uint64_t U64Of(const Napi::Value& value, const char* what);
HANDLE HandleArg(const Napi::Value& value, const char* what);
Napi::BigInt Bigint(Napi::Env env, uint64_t value);
Napi::BigInt PointerValue(Napi::Env env, const void* pointer);
uint64_t LuidValue(const LUID& luid);

// Where one plane of one subresource lies in mapped memory, and how many
// packed bytes it has: `rows` rows of `rowBytes` per slice, starting
// rowsBefore * pitch + halfRowsBefore * pitch / 2 bytes in, each
// pitch / pitchDivisor apart (NV12 UV: rowsBefore = height; YV12 U: also
// halfRowsBefore = height / 2 and pitchDivisor 2).
struct PlaneLayout {
  uint32_t rowBytes = 0, rows = 1, slices = 1, rowsBefore = 0, halfRowsBefore = 0, pitchDivisor = 1;
  size_t Size() const { return size_t(rowBytes) * rows * slices; }
};
PlaneLayout LayoutArg(const Napi::Value& value);
// The bytes of a transfer: the Uint8Array given (write, checked to be the
// layout's size) or a new one (read).
Napi::Uint8Array TransferBytes(Napi::Env env, bool write, const Napi::Value& given, const PlaneLayout& layout);
// Copies between packed bytes and mapped memory of row pitch `pitch` and slice pitch `slicePitch`.
void CopyPlane(bool write, uint8_t* mapped, size_t pitch, size_t slicePitch, uint8_t* packed, const PlaneLayout& layout);
// CopyPlane, then `unmap()`; rows too short for the layout are a RangeError instead (after `unmap()`),
// naming how the memory was reached (`access`: "mapped", "locked").
template <typename Unmap>
void CopyPlaneThenUnmap(Napi::Env env, bool write, uint8_t* mapped, size_t pitch, size_t slicePitch, uint8_t* packed, const PlaneLayout& layout,
                        const char* access, Unmap unmap) {
  if (pitch / layout.pitchDivisor < layout.rowBytes) {
    unmap();
    throw Napi::RangeError::New(env, std::string("the ") + access + " rows are shorter than the layout's");
  }
  CopyPlane(write, mapped, pitch, slicePitch, packed, layout);
  unmap();
}

// The adapters DXGI enumerates (IDXGIFactory1::EnumAdapters1), and one of them by index.
Napi::Value DxgiAdapters(const Napi::CallbackInfo& info);
IDXGIAdapter1* DxgiAdapter(Napi::Env env, uint32_t index);
// What an IDXGIAdapter says about itself, for JavaScript.
Napi::Object DescribeAdapter(Napi::Env env, IUnknown* adapter, int index);
// The IDXGIAdapter a D3D10 / D3D11 device runs on (through IDXGIDevice).
IUnknown* AdapterOfDevice(Napi::Env env, IUnknown* device);

void InitD3D11Device(Napi::Env env, Napi::Object exports);
void InitD3D10Device(Napi::Env env, Napi::Object exports);
void InitD3D9Device(Napi::Env env, Napi::Object exports);

}  // namespace d3d
}  // namespace ocl

#endif  // _WIN32
