// Buffers, images and the commands that move their bytes.
#include "objects.h"

namespace ocl {

const napi_type_tag NativeMem::kTypeTag = {0x6f636c2d6d656d6fULL, 0x7279000000000005ULL};

namespace {

constexpr cl_uint kImageElementSize = 0x1111;  // CL_IMAGE_ELEMENT_SIZE

// Bytes a host region of an image occupies, so no transfer can run past the
// JS memory it was given. Pitches of 0 mean "tightly packed".
size_t HostImageBytes(Napi::Env env, cl_mem image, const size_t region[3], size_t& rowPitch, size_t& slicePitch) {
  size_t elementSize = 0;
  Check(env, OCL_FN(env, clGetImageInfo)(image, kImageElementSize, sizeof(elementSize), &elementSize, nullptr),
        "clGetImageInfo");
  if (rowPitch == 0) rowPitch = region[0] * elementSize;
  if (slicePitch == 0) slicePitch = rowPitch * region[1];
  if (region[0] == 0 || region[1] == 0 || region[2] == 0) return 0;
  return slicePitch * (region[2] - 1) + rowPitch * (region[1] - 1) + region[0] * elementSize;
}

void RequireBytes(Napi::Env env, const HostView& view, size_t needed, const char* what) {
  if (view.length < needed) {
    throw Napi::RangeError::New(env, std::string(what) + " has " + std::to_string(view.length) + " bytes; " +
                                         std::to_string(needed) + " are needed");
  }
}

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
  cl_int status = CL_SUCCESS;
  cl_mem mem = OCL_FN(env, clCreateBuffer)(context, flags, size, host, &status);
  Check(env, status, "clCreateBuffer");
  return NativeMem::Wrap(env, mem);
}

// createSubBuffer(buffer, flags, origin, size)
Napi::Value CreateSubBuffer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_mem parent = NativeMem::From(info[0], "buffer");
  cl_mem_flags flags = ToU64(info[1], "flags");
  cl_buffer_region region{ToSize(info[2], "origin"), ToSize(info[3], "size")};
  cl_int status = CL_SUCCESS;
  cl_mem mem = OCL_FN(env, clCreateSubBuffer)(parent, flags, CL_BUFFER_CREATE_TYPE_REGION, &region, &status);
  Check(env, status, "clCreateSubBuffer");
  return NativeMem::Wrap(env, mem);
}

// createImage(context, flags, [order, type], desc, host?) with desc
// { type, width, height, depth, arraySize, rowPitch, slicePitch, buffer? }
Napi::Value CreateImage(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_context context = NativeContext::From(info[0], "context");
  cl_mem_flags flags = ToU64(info[1], "flags");
  auto format = info[2].As<Napi::Array>();
  cl_image_format imageFormat{static_cast<cl_uint>(ToU64(format.Get(0u), "channel order")),
                              static_cast<cl_uint>(ToU64(format.Get(1u), "channel type"))};
  auto d = info[3].As<Napi::Object>();
  cl_image_desc desc{};
  desc.image_type = static_cast<cl_uint>(ToU64(d.Get("type"), "image type"));
  desc.image_width = ToSize(d.Get("width"), "width");
  desc.image_height = ToSize(d.Get("height"), "height");
  desc.image_depth = ToSize(d.Get("depth"), "depth");
  desc.image_array_size = ToSize(d.Get("arraySize"), "arraySize");
  desc.image_row_pitch = ToSize(d.Get("rowPitch"), "rowPitch");
  desc.image_slice_pitch = ToSize(d.Get("slicePitch"), "slicePitch");
  Napi::Value buffer = d.Get("buffer");
  if (!buffer.IsUndefined() && !buffer.IsNull()) desc.buffer = NativeMem::From(buffer, "buffer");
  void* host = nullptr;
  if (!info[4].IsUndefined() && !info[4].IsNull()) {
    HostView view = ToHostView(info[4], "host data");
    RequireBytes(env, view, static_cast<size_t>(ToU64(d.Get("hostBytes"), "hostBytes")), "host data");
    host = view.data;
  }
  cl_int status = CL_SUCCESS;
  cl_mem mem = OCL_FN(env, clCreateImage)(context, flags, &imageFormat, &desc, host, &status);
  Check(env, status, "clCreateImage");
  return NativeMem::Wrap(env, mem);
}

// supportedImageFormats(context, flags, imageType) -> Uint32Array [order, type, ...]
Napi::Value SupportedImageFormats(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_context context = NativeContext::From(info[0], "context");
  cl_mem_flags flags = ToU64(info[1], "flags");
  cl_uint type = static_cast<cl_uint>(ToU64(info[2], "image type"));
  auto fn = OCL_FN(env, clGetSupportedImageFormats);
  cl_uint count = 0;
  Check(env, fn(context, flags, type, 0, nullptr, &count), "clGetSupportedImageFormats");
  std::vector<cl_image_format> formats(count);
  if (count) Check(env, fn(context, flags, type, count, formats.data(), nullptr), "clGetSupportedImageFormats");
  auto result = Napi::Uint32Array::New(env, count * 2);
  for (cl_uint i = 0; i < count; ++i) {
    result[i * 2] = formats[i].image_channel_order;
    result[i * 2 + 1] = formats[i].image_channel_data_type;
  }
  return result;
}

// enqueueReadBuffer / enqueueWriteBuffer(queue, buffer, blocking, offset, size, host, waitList)
template <bool kWrite>
Napi::Value EnqueueBufferTransfer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  cl_mem mem = NativeMem::From(info[1], "buffer");
  bool blocking = info[2].ToBoolean();
  size_t offset = ToSize(info[3], "offset");
  size_t size = ToSize(info[4], "size");
  HostView host = ToHostView(info[5], "host memory");
  RequireBytes(env, host, size, "host memory");
  Enqueue op(info[6]);
  if (kWrite) {
    Check(env,
          OCL_FN(env, clEnqueueWriteBuffer)(queue, mem, blocking, offset, size, host.data, op.count(), op.list(),
                                            &op.event),
          "clEnqueueWriteBuffer");
  } else {
    Check(env,
          OCL_FN(env, clEnqueueReadBuffer)(queue, mem, blocking, offset, size, host.data, op.count(), op.list(),
                                           &op.event),
          "clEnqueueReadBuffer");
  }
  return op.Result(env);
}

// enqueueReadImage / enqueueWriteImage(queue, image, blocking, origin, region, rowPitch, slicePitch, host, waitList)
template <bool kWrite>
Napi::Value EnqueueImageTransfer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  cl_mem image = NativeMem::From(info[1], "image");
  bool blocking = info[2].ToBoolean();
  size_t origin[3], region[3];
  ToTriple(info[3], "origin", origin);
  ToTriple(info[4], "region", region);
  size_t rowPitch = ToSize(info[5], "rowPitch");
  size_t slicePitch = ToSize(info[6], "slicePitch");
  size_t hostRowPitch = rowPitch, hostSlicePitch = slicePitch;
  HostView host = ToHostView(info[7], "host memory");
  RequireBytes(env, host, HostImageBytes(env, image, region, hostRowPitch, hostSlicePitch), "host memory");
  Enqueue op(info[8]);
  if (kWrite) {
    Check(env,
          OCL_FN(env, clEnqueueWriteImage)(queue, image, blocking, origin, region, rowPitch, slicePitch, host.data,
                                           op.count(), op.list(), &op.event),
          "clEnqueueWriteImage");
  } else {
    Check(env,
          OCL_FN(env, clEnqueueReadImage)(queue, image, blocking, origin, region, rowPitch, slicePitch, host.data,
                                          op.count(), op.list(), &op.event),
          "clEnqueueReadImage");
  }
  return op.Result(env);
}

// enqueueCopyBuffer(queue, src, dst, srcOffset, dstOffset, size, waitList)
Napi::Value EnqueueCopyBuffer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  cl_mem src = NativeMem::From(info[1], "source");
  cl_mem dst = NativeMem::From(info[2], "destination");
  Enqueue op(info[6]);
  Check(env,
        OCL_FN(env, clEnqueueCopyBuffer)(queue, src, dst, ToSize(info[3], "srcOffset"), ToSize(info[4], "dstOffset"),
                                         ToSize(info[5], "size"), op.count(), op.list(), &op.event),
        "clEnqueueCopyBuffer");
  return op.Result(env);
}

// enqueueFillBuffer(queue, buffer, pattern, offset, size, waitList)
Napi::Value EnqueueFillBuffer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  cl_mem mem = NativeMem::From(info[1], "buffer");
  HostView pattern = ToHostView(info[2], "pattern");
  Enqueue op(info[5]);
  Check(env,
        OCL_FN(env, clEnqueueFillBuffer)(queue, mem, pattern.data, pattern.length, ToSize(info[3], "offset"),
                                         ToSize(info[4], "size"), op.count(), op.list(), &op.event),
        "clEnqueueFillBuffer");
  return op.Result(env);
}

// enqueueCopyImage(queue, src, dst, srcOrigin, dstOrigin, region, waitList)
Napi::Value EnqueueCopyImage(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  cl_mem src = NativeMem::From(info[1], "source");
  cl_mem dst = NativeMem::From(info[2], "destination");
  size_t srcOrigin[3], dstOrigin[3], region[3];
  ToTriple(info[3], "srcOrigin", srcOrigin);
  ToTriple(info[4], "dstOrigin", dstOrigin);
  ToTriple(info[5], "region", region);
  Enqueue op(info[6]);
  Check(env,
        OCL_FN(env, clEnqueueCopyImage)(queue, src, dst, srcOrigin, dstOrigin, region, op.count(), op.list(),
                                        &op.event),
        "clEnqueueCopyImage");
  return op.Result(env);
}

// enqueueFillImage(queue, image, color (16 bytes), origin, region, waitList)
Napi::Value EnqueueFillImage(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  cl_mem image = NativeMem::From(info[1], "image");
  HostView color = ToHostView(info[2], "color");
  RequireBytes(env, color, 16, "color");
  size_t origin[3], region[3];
  ToTriple(info[3], "origin", origin);
  ToTriple(info[4], "region", region);
  Enqueue op(info[5]);
  Check(env,
        OCL_FN(env, clEnqueueFillImage)(queue, image, color.data, origin, region, op.count(), op.list(), &op.event),
        "clEnqueueFillImage");
  return op.Result(env);
}

// enqueueCopyImageToBuffer(queue, image, buffer, origin, region, dstOffset, waitList)
Napi::Value EnqueueCopyImageToBuffer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  cl_mem image = NativeMem::From(info[1], "image");
  cl_mem buffer = NativeMem::From(info[2], "buffer");
  size_t origin[3], region[3];
  ToTriple(info[3], "origin", origin);
  ToTriple(info[4], "region", region);
  Enqueue op(info[6]);
  Check(env,
        OCL_FN(env, clEnqueueCopyImageToBuffer)(queue, image, buffer, origin, region, ToSize(info[5], "dstOffset"),
                                                op.count(), op.list(), &op.event),
        "clEnqueueCopyImageToBuffer");
  return op.Result(env);
}

// enqueueCopyBufferToImage(queue, buffer, image, srcOffset, origin, region, waitList)
Napi::Value EnqueueCopyBufferToImage(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  cl_mem buffer = NativeMem::From(info[1], "buffer");
  cl_mem image = NativeMem::From(info[2], "image");
  size_t origin[3], region[3];
  ToTriple(info[4], "origin", origin);
  ToTriple(info[5], "region", region);
  Enqueue op(info[6]);
  Check(env,
        OCL_FN(env, clEnqueueCopyBufferToImage)(queue, buffer, image, ToSize(info[3], "srcOffset"), origin, region,
                                                op.count(), op.list(), &op.event),
        "clEnqueueCopyBufferToImage");
  return op.Result(env);
}

// The mapped region as an external ArrayBuffer; enqueueUnmap detaches it so
// no view can reach the memory after unmapping.
Napi::Object MapResult(Napi::Env env, void* pointer, size_t size, cl_event event) {
  Napi::Object result = Napi::Object::New(env);
  result.Set("buffer", Napi::ArrayBuffer::New(env, pointer, size));
  result.Set("event", WrapEvent(env, event));
  return result;
}

// enqueueMapBuffer(queue, buffer, blocking, flags, offset, size, waitList) -> { buffer, event }
Napi::Value EnqueueMapBuffer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  cl_mem mem = NativeMem::From(info[1], "buffer");
  bool blocking = info[2].ToBoolean();
  cl_map_flags flags = ToU64(info[3], "flags");
  size_t offset = ToSize(info[4], "offset");
  size_t size = ToSize(info[5], "size");
  Enqueue op(info[6]);
  cl_int status = CL_SUCCESS;
  void* pointer = OCL_FN(env, clEnqueueMapBuffer)(queue, mem, blocking, flags, offset, size, op.count(), op.list(),
                                                  &op.event, &status);
  Check(env, status, "clEnqueueMapBuffer");
  return MapResult(env, pointer, size, op.event);
}

// enqueueMapImage(queue, image, blocking, flags, origin, region, waitList)
//   -> { buffer, event, rowPitch, slicePitch }
Napi::Value EnqueueMapImage(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  cl_mem image = NativeMem::From(info[1], "image");
  bool blocking = info[2].ToBoolean();
  cl_map_flags flags = ToU64(info[3], "flags");
  size_t origin[3], region[3];
  ToTriple(info[4], "origin", origin);
  ToTriple(info[5], "region", region);
  Enqueue op(info[6]);
  size_t rowPitch = 0, slicePitch = 0;
  cl_int status = CL_SUCCESS;
  void* pointer = OCL_FN(env, clEnqueueMapImage)(queue, image, blocking, flags, origin, region, &rowPitch,
                                                 &slicePitch, op.count(), op.list(), &op.event, &status);
  Check(env, status, "clEnqueueMapImage");
  size_t bytesRowPitch = rowPitch, bytesSlicePitch = slicePitch ? slicePitch : rowPitch * region[1];
  size_t size = 0;
  try {
    size = HostImageBytes(env, image, region, bytesRowPitch, bytesSlicePitch);
  } catch (...) {
    OCL_FN(env, clEnqueueUnmapMemObject)(queue, image, pointer, 0, nullptr, nullptr);
    throw;
  }
  Napi::Object result = MapResult(env, pointer, size, op.event);
  result.Set("rowPitch", Napi::Number::New(env, static_cast<double>(rowPitch)));
  result.Set("slicePitch", Napi::Number::New(env, static_cast<double>(slicePitch)));
  return result;
}

// enqueueUnmap(queue, mem, mappedArrayBuffer, waitList) -> event
Napi::Value EnqueueUnmap(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  cl_mem mem = NativeMem::From(info[1], "memory object");
  if (!info[2].IsArrayBuffer()) throw Napi::TypeError::New(env, "mapped must be the ArrayBuffer from a map");
  Napi::ArrayBuffer mapped = info[2].As<Napi::ArrayBuffer>();
  if (mapped.IsDetached()) throw Napi::Error::New(env, "this mapping was already unmapped");
  Enqueue op(info[3]);
  Check(env, OCL_FN(env, clEnqueueUnmapMemObject)(queue, mem, mapped.Data(), op.count(), op.list(), &op.event),
        "clEnqueueUnmapMemObject");
  mapped.Detach();
  return op.Result(env);
}

// detachArrayBuffer(mapped): used when a mapping cannot be unmapped (its
// queue is gone), so no view can reach memory the driver may reuse.
Napi::Value DetachArrayBuffer(const Napi::CallbackInfo& info) {
  if (info[0].IsArrayBuffer() && !info[0].As<Napi::ArrayBuffer>().IsDetached()) info[0].As<Napi::ArrayBuffer>().Detach();
  return info.Env().Undefined();
}

}  // namespace

Napi::Value NativeMem::Info(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return InfoBytes(info, Checked(env), OCL_FN(env, clGetMemObjectInfo), "clGetMemObjectInfo");
}

Napi::Value NativeMem::ImageInfo(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return InfoBytes(info, Checked(env), OCL_FN(env, clGetImageInfo), "clGetImageInfo");
}

// storageAddress: where the memory object's own storage lives (0n if none);
// lets lib/ check a VASurfaceID* query against the storage it owns.
Napi::Value NativeMem::StorageAddress(const Napi::CallbackInfo& info) {
  return FromPointer(info.Env(), ownedStorage.get());
}

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
      {"enqueueReadBuffer", EnqueueBufferTransfer<false>},
      {"enqueueWriteBuffer", EnqueueBufferTransfer<true>},
      {"enqueueReadImage", EnqueueImageTransfer<false>},
      {"enqueueWriteImage", EnqueueImageTransfer<true>},
      {"enqueueCopyBuffer", EnqueueCopyBuffer},
      {"enqueueFillBuffer", EnqueueFillBuffer},
      {"enqueueCopyImage", EnqueueCopyImage},
      {"enqueueFillImage", EnqueueFillImage},
      {"enqueueCopyImageToBuffer", EnqueueCopyImageToBuffer},
      {"enqueueCopyBufferToImage", EnqueueCopyBufferToImage},
      {"enqueueMapBuffer", EnqueueMapBuffer},
      {"enqueueMapImage", EnqueueMapImage},
      {"enqueueUnmap", EnqueueUnmap},
      {"detachArrayBuffer", DetachArrayBuffer},
  };
  for (const auto& [name, callback] : functions) exports.Set(name, Napi::Function::New(env, callback, name));
}

}  // namespace ocl
