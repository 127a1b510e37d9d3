// Argument conversion: JS numbers, bigints, arrays and host memory to the C
// types the driver takes. Conversion only: lib/ decides what is valid.
#include "convert.h"

namespace ocl {

uint64_t ToU64(const Napi::Value& v, const char* what) {
  double d = 0;
  if (napi_get_value_double(v.Env(), v, &d) == napi_ok) {  // one call for the common case, a number
    if (!(d >= 0) || d > 9007199254740991.0 || d != static_cast<double>(static_cast<uint64_t>(d))) {
      throw Napi::RangeError::New(v.Env(), std::string(what) + " must be a non-negative integer");
    }
    return static_cast<uint64_t>(d);
  }
  if (v.IsBigInt()) {
    bool lossless = true;
    uint64_t value = v.As<Napi::BigInt>().Uint64Value(&lossless);
    if (!lossless) throw Napi::RangeError::New(v.Env(), std::string(what) + " does not fit in 64 bits");
    return value;
  }
  throw Napi::TypeError::New(v.Env(), std::string(what) + " must be a number or bigint");
}

size_t ToSize(const Napi::Value& v, const char* what) {
  uint64_t value = ToU64(v, what);
  if (value > SIZE_MAX) throw Napi::RangeError::New(v.Env(), std::string(what) + " is too large");
  return static_cast<size_t>(value);
}

cl_uint ToU32(const Napi::Value& v, const char* what) {
  uint64_t value = ToU64(v, what);
  if (value > 0xffffffffULL) throw Napi::RangeError::New(v.Env(), std::string(what) + " does not fit in 32 bits");
  return static_cast<cl_uint>(value);
}

ImageArgs ToImageArgs(const Napi::Value& format, const Napi::Value& desc) {
  if (!format.IsArray() || !desc.IsObject()) throw Napi::TypeError::New(format.Env(), "format and descriptor are required");
  Napi::Array f = format.As<Napi::Array>();
  Napi::Object d = desc.As<Napi::Object>();
  ImageArgs image;
  image.format = {ToU32(f.Get(0u), "channel order"), ToU32(f.Get(1u), "channel type")};
  image.desc.image_type = ToU32(d.Get("type"), "image type");
  image.desc.image_width = ToSize(d.Get("width"), "width");
  image.desc.image_height = ToSize(d.Get("height"), "height");
  image.desc.image_depth = ToSize(d.Get("depth"), "depth");
  image.desc.image_array_size = ToSize(d.Get("arraySize"), "arraySize");
  image.desc.image_row_pitch = ToSize(d.Get("rowPitch"), "rowPitch");
  image.desc.image_slice_pitch = ToSize(d.Get("slicePitch"), "slicePitch");
  return image;
}

void* ToPointer(const Napi::Value& v, const char* what) {
  if (v.IsUndefined() || v.IsNull()) return nullptr;
  if (!v.IsBigInt()) throw Napi::TypeError::New(v.Env(), std::string(what) + " must be a bigint address");
  return reinterpret_cast<void*>(static_cast<uintptr_t>(ToU64(v, what)));
}

Napi::BigInt FromPointer(Napi::Env env, const void* p) { return Napi::BigInt::New(env, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p))); }

static size_t ElementBytes(napi_typedarray_type type) {
  switch (type) {
    case napi_int8_array:
    case napi_uint8_array:
    case napi_uint8_clamped_array: return 1;
    case napi_int16_array:
    case napi_uint16_array: return 2;
    case napi_int32_array:
    case napi_uint32_array:
    case napi_float32_array: return 4;
    case napi_float64_array:
    case napi_bigint64_array:
    case napi_biguint64_array: return 8;
    default:  // a kind newer than this code: asked of the array itself
      return 0;
  }
}

HostView ToHostView(const Napi::Value& v, const char* what) {
  Napi::Env env = v.Env();
  HostView view;
  napi_value arraybuffer = nullptr;
  if (v.IsArrayBuffer()) {
    arraybuffer = v;
    NAPI_THROW_IF_FAILED(env, napi_get_arraybuffer_info(env, v, &view.data, &view.length), view);
  } else if (v.IsTypedArray()) {
    // The raw typed-array query: it also answers for views of a SharedArrayBuffer.
    napi_typedarray_type type;
    size_t length = 0, offset = 0;
    NAPI_THROW_IF_FAILED(env, napi_get_typedarray_info(env, v, &type, &length, &view.data, &arraybuffer, &offset), view);
    size_t bytes = ElementBytes(type);
    view.length = bytes ? length * bytes : v.As<Napi::TypedArray>().ByteLength();
  } else if (v.IsDataView()) {
    size_t offset = 0;
    NAPI_THROW_IF_FAILED(env, napi_get_dataview_info(env, v, &view.length, &view.data, &arraybuffer, &offset), view);
  } else {
    throw Napi::TypeError::New(env, std::string(what) + " must be an ArrayBuffer or a typed array");
  }
  bool detached = false;
  if (arraybuffer && napi_is_detached_arraybuffer(env, arraybuffer, &detached) == napi_ok && detached) {
    throw Napi::TypeError::New(env, std::string(what) + " is detached (its ArrayBuffer was transferred)");
  }
  if (!view.data) view.length = 0;
  return view;
}

void RequireBytes(Napi::Env env, const HostView& view, size_t needed, const char* what) {
  if (view.length < needed) {
    throw Napi::RangeError::New(env, std::string(what) + " has " + std::to_string(view.length) + " bytes; " + std::to_string(needed) + " are needed");
  }
}

Napi::Uint8Array BytesToJs(Napi::Env env, const void* data, size_t size) {
  auto array = Napi::Uint8Array::New(env, size);
  if (size) std::memcpy(array.Data(), data, size);
  return array;
}

void ToTriple(const Napi::Value& v, const char* what, size_t out[3]) {
  if (!v.IsArray() || v.As<Napi::Array>().Length() != 3) {
    throw Napi::TypeError::New(v.Env(), std::string(what) + " must be an array of three numbers");
  }
  auto array = v.As<Napi::Array>();
  for (uint32_t i = 0; i < 3; ++i) out[i] = ToSize(array.Get(i), what);
}

}  // namespace ocl
