// Buffers and images: creation and queries (queue.cc holds the commands that move their bytes).
#include "objects.h"

namespace ocl {

const napi_type_tag NativeMem::kTypeTag = {0x6f636c2d6d656d6fULL, 0x7279000000000005ULL};

namespace {

// createBuffer(context, flags, size, host?)
Napi::Value CreateBuffer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_context context = NativeContext::From(info[0], "context");
  cl_mem_flags flags = ToU64(info[1], "flags");
  size_t size = ToSize(info[2], "size");
  void* host = nullptr;
  if (!info[3].IsUndefined() && !info[3].IsNull()) {
    HostView view = ToHostView(info[3], "host data");
    RequireBytes(env, view, size, "host data");
    host = view.data;
  }
  cl_mem mem = OCL_CREATE(env, clCreateBuffer, context, flags, size, host);
  return NativeMem::Wrap(env, mem);
}

// createSubBuffer(buffer, flags, origin, size)
Napi::Value CreateSubBuffer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_mem parent = NativeMem::From(info[0], "buffer");
  cl_mem_flags flags = ToU64(info[1], "flags");
  cl_buffer_region region{ToSize(info[2], "origin"), ToSize(info[3], "size")};
  cl_mem mem = OCL_CREATE(env, clCreateSubBuffer, parent, flags, CL_BUFFER_CREATE_TYPE_REGION, &region);
  return NativeMem::Wrap(env, mem);
}

// createImage(context, flags, [order, type], desc, host?) with desc
// { type, width, height, depth, arraySize, rowPitch, slicePitch, buffer? }
Napi::Value CreateImage(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_context context = NativeContext::From(info[0], "context");
  cl_mem_flags flags = ToU64(info[1], "flags");
  ImageArgs image = ToImageArgs(info[2], info[3]);
  auto d = info[3].As<Napi::Object>();
  Napi::Value buffer = d.Get("buffer");
  if (!buffer.IsUndefined() && !buffer.IsNull()) image.desc.buffer = NativeMem::From(buffer, "buffer");
  void* host = nullptr;
  if (!info[4].IsUndefined() && !info[4].IsNull()) {
    HostView view = ToHostView(info[4], "host data");
    RequireBytes(env, view, ToSize(d.Get("hostBytes"), "hostBytes"), "host data");
    host = view.data;
  }
  cl_mem mem = OCL_CREATE(env, clCreateImage, context, flags, &image.format, &image.desc, host);
  return NativeMem::Wrap(env, mem);
}

// supportedImageFormats(context, flags, imageType) -> Uint32Array [order, type, ...]
Napi::Value SupportedImageFormats(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_context context = NativeContext::From(info[0], "context");
  cl_mem_flags flags = ToU64(info[1], "flags");
  cl_uint type = ToU32(info[2], "image type");
  auto entry = OCL_ENTRY(env, clGetSupportedImageFormats);
  cl_uint count = 0;
  CheckCall(env, entry, context, flags, type, 0, nullptr, &count);
  std::vector<cl_image_format> formats(count);
  if (count) CheckCall(env, entry, context, flags, type, count, formats.data(), nullptr);
  auto result = Napi::Uint32Array::New(env, count * 2);
  for (cl_uint i = 0; i < count; ++i) {
    result[i * 2] = formats[i].image_channel_order;
    result[i * 2 + 1] = formats[i].image_channel_data_type;
  }
  return result;
}

}  // namespace

Napi::Value NativeMem::Info(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return InfoBytes(info, Checked(env), OCL_ENTRY(env, clGetMemObjectInfo));
}

Napi::Value NativeMem::ImageInfo(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return InfoBytes(info, Checked(env), OCL_ENTRY(env, clGetImageInfo));
}

// storageAddress: where the memory object's own storage lives (0n if none);
// lets lib/ check a VASurfaceID* query against the storage it owns.
Napi::Value NativeMem::StorageAddress(const Napi::CallbackInfo& info) { return FromPointer(info.Env(), ownedStorage.get()); }

void NativeMem::Init(Napi::Env env, Napi::Object exports) {
  Register(env, exports, kName,
           {InstanceMethod("info", &NativeMem::Info), InstanceMethod("imageInfo", &NativeMem::ImageInfo),
            InstanceAccessor("storageAddress", &NativeMem::StorageAddress, nullptr)});
}

void InitMemory(Napi::Env env, Napi::Object exports) {
  NativeMem::Init(env, exports);
  const std::pair<const char*, Napi::Function::Callback> functions[] = {
      {"createBuffer", CreateBuffer},
      {"createSubBuffer", CreateSubBuffer},
      {"createImage", CreateImage},
      {"supportedImageFormats", SupportedImageFormats},
  };
  for (const auto& [name, callback] : functions) exports.Set(name, Napi::Function::New(env, callback, name));
}

}  // namespace ocl
