// Buffers, images and the commands that move their bytes.
#include "objects.h"

namespace ocl {

const napi_type_tag NativeMem::kTypeTag = {0x6f636c2d6d656d6fULL, 0x7279000000000005ULL};

namespace {

constexpr cl_uint kImageElementSize = 0x1111;  // CL_IMAGE_ELEMENT_SIZE

// Bytes a host region of an image occupies, so no transfer can run past the
// JS memory it was given. Pitches of 0 mean "tightly packed".
bool MulAdd(size_t a, size_t b, size_t& total) {
  size_t product = 0;
  if (a != 0 && b > SIZE_MAX / a) return false;
  product = a * b;
  if (total > SIZE_MAX - product) return false;
  total += product;
  return true;
}

// Bytes a host region of an image occupies, so no transfer can run past the
// memory it was given. Pitches of 0 mean "tightly packed"; every product is
// checked, so no wrap-around can make a huge region look small.
size_t HostImageBytes(Napi::Env env, cl_mem image, const size_t region[3], size_t& rowPitch, size_t& slicePitch) {
  size_t elementSize = 0;
  Check(env, OCL_FN(env, clGetImageInfo)(image, kImageElementSize, sizeof(elementSize), &elementSize, nullptr),
        "clGetImageInfo");
  auto tooLarge = [&] { return Napi::RangeError::New(env, "the host region is larger than the address space"); };
  size_t rowBytes = 0;
  if (!MulAdd(region[0], elementSize, rowBytes)) throw tooLarge();
  if (rowPitch == 0) rowPitch = rowBytes;
  if (slicePitch == 0 && !MulAdd(rowPitch, region[1], slicePitch)) throw tooLarge();
  if (region[0] == 0 || region[1] == 0 || region[2] == 0) return 0;
  size_t total = rowBytes;
  if (!MulAdd(slicePitch, region[2] - 1, total) || !MulAdd(rowPitch, region[1] - 1, total)) throw tooLarge();
  return total;
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
// host: a HostBlock (any transfer) or JS memory (blocking transfers only).
template <bool kWrite>
Napi::Value EnqueueBufferTransfer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  bool blocking = info[2].ToBoolean();
  size_t offset = ToSize(info[3], "offset");
  size_t size = ToSize(info[4], "size");
  TransferHost host = ToTransferHost(info[5], blocking, "host memory");
  RequireBytes(env, HostView{host.data, host.length}, size, "host memory");
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  cl_mem mem = NativeMem::From(info[1], "buffer");
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
  if (!blocking) HoldUntilComplete(env, op.event, host);
  return op.Result(env);
}

// enqueueReadImage / enqueueWriteImage(queue, image, blocking, origin, region, rowPitch, slicePitch, host, waitList)
template <bool kWrite>
Napi::Value EnqueueImageTransfer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  bool blocking = info[2].ToBoolean();
  size_t origin[3], region[3];
  ToTriple(info[3], "origin", origin);
  ToTriple(info[4], "region", region);
  size_t rowPitch = ToSize(info[5], "rowPitch");
  size_t slicePitch = ToSize(info[6], "slicePitch");
  size_t hostRowPitch = rowPitch, hostSlicePitch = slicePitch;
  TransferHost host = ToTransferHost(info[7], blocking, "host memory");
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  cl_mem image = NativeMem::From(info[1], "image");
  RequireBytes(env, HostView{host.data, host.length}, HostImageBytes(env, image, region, hostRowPitch, hostSlicePitch),
               "host memory");
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
  if (!blocking) HoldUntilComplete(env, op.event, host);
  return op.Result(env);
}

// Every function below reads all of its JS arguments (numbers, arrays, the
// wait list) before it takes the raw handles: a getter on an array element
// could otherwise release an object between the check and the call.

// enqueueCopyBuffer(queue, src, dst, srcOffset, dstOffset, size, waitList)
Napi::Value EnqueueCopyBuffer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  size_t srcOffset = ToSize(info[3], "srcOffset"), dstOffset = ToSize(info[4], "dstOffset");
  size_t size = ToSize(info[5], "size");
  Enqueue op(info[6]);
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  cl_mem src = NativeMem::From(info[1], "source");
  cl_mem dst = NativeMem::From(info[2], "destination");
  Check(env,
        OCL_FN(env, clEnqueueCopyBuffer)(queue, src, dst, srcOffset, dstOffset, size, op.count(), op.list(), &op.event),
        "clEnqueueCopyBuffer");
  return op.Result(env);
}

// enqueueFillBuffer(queue, buffer, pattern, offset, size, waitList); the
// driver copies the pattern before it returns.
Napi::Value EnqueueFillBuffer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  size_t offset = ToSize(info[3], "offset"), size = ToSize(info[4], "size");
  Enqueue op(info[5]);
  HostView pattern = ToHostView(info[2], "pattern");
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  cl_mem mem = NativeMem::From(info[1], "buffer");
  Check(env,
        OCL_FN(env, clEnqueueFillBuffer)(queue, mem, pattern.data, pattern.length, offset, size, op.count(), op.list(),
                                         &op.event),
        "clEnqueueFillBuffer");
  return op.Result(env);
}

// enqueueCopyImage(queue, src, dst, srcOrigin, dstOrigin, region, waitList)
Napi::Value EnqueueCopyImage(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  size_t srcOrigin[3], dstOrigin[3], region[3];
  ToTriple(info[3], "srcOrigin", srcOrigin);
  ToTriple(info[4], "dstOrigin", dstOrigin);
  ToTriple(info[5], "region", region);
  Enqueue op(info[6]);
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  cl_mem src = NativeMem::From(info[1], "source");
  cl_mem dst = NativeMem::From(info[2], "destination");
  Check(env,
        OCL_FN(env, clEnqueueCopyImage)(queue, src, dst, srcOrigin, dstOrigin, region, op.count(), op.list(),
                                        &op.event),
        "clEnqueueCopyImage");
  return op.Result(env);
}

// enqueueFillImage(queue, image, color (16 bytes), origin, region, waitList)
Napi::Value EnqueueFillImage(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  size_t origin[3], region[3];
  ToTriple(info[3], "origin", origin);
  ToTriple(info[4], "region", region);
  Enqueue op(info[5]);
  HostView color = ToHostView(info[2], "color");
  RequireBytes(env, color, 16, "color");
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  cl_mem image = NativeMem::From(info[1], "image");
  Check(env,
        OCL_FN(env, clEnqueueFillImage)(queue, image, color.data, origin, region, op.count(), op.list(), &op.event),
        "clEnqueueFillImage");
  return op.Result(env);
}

// enqueueCopyImageToBuffer(queue, image, buffer, origin, region, dstOffset, waitList)
Napi::Value EnqueueCopyImageToBuffer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  size_t origin[3], region[3];
  ToTriple(info[3], "origin", origin);
  ToTriple(info[4], "region", region);
  size_t dstOffset = ToSize(info[5], "dstOffset");
  Enqueue op(info[6]);
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  cl_mem image = NativeMem::From(info[1], "image");
  cl_mem buffer = NativeMem::From(info[2], "buffer");
  Check(env,
        OCL_FN(env, clEnqueueCopyImageToBuffer)(queue, image, buffer, origin, region, dstOffset, op.count(), op.list(),
                                                &op.event),
        "clEnqueueCopyImageToBuffer");
  return op.Result(env);
}

// enqueueCopyBufferToImage(queue, buffer, image, srcOffset, origin, region, waitList)
Napi::Value EnqueueCopyBufferToImage(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  size_t srcOffset = ToSize(info[3], "srcOffset");
  size_t origin[3], region[3];
  ToTriple(info[4], "origin", origin);
  ToTriple(info[5], "region", region);
  Enqueue op(info[6]);
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  cl_mem buffer = NativeMem::From(info[1], "buffer");
  cl_mem image = NativeMem::From(info[2], "image");
  Check(env,
        OCL_FN(env, clEnqueueCopyBufferToImage)(queue, buffer, image, srcOffset, origin, region, op.count(), op.list(),
                                                &op.event),
        "clEnqueueCopyBufferToImage");
  return op.Result(env);
}

void OCL_CALL ReleaseEventWhenDone(cl_event, cl_int, void* event) {
  if (const CoreApi* api = ApiOrNull()) api->clReleaseEvent(static_cast<cl_event>(event));
}

// A mapped region. Its ArrayBuffer holds the record, and the record holds its
// own references to the memory object and the queue: releasing (or
// collecting) the buffer, queue and context cannot free storage a view still
// reaches. When the ArrayBuffer goes without an unmap, the record unmaps.
struct MapRecord {
  cl_command_queue queue;
  cl_mem mem;
  void* pointer;
  bool unmapped = false;
  MapRecord(const CoreApi& api, cl_command_queue q, cl_mem m, void* p) : queue(q), mem(m), pointer(p) {
    api.clRetainCommandQueue(queue);
    api.clRetainMemObject(mem);
  }
  ~MapRecord() {
    const CoreApi* api = ApiOrNull();
    if (!api) return;
    cl_event event = nullptr;
    if (!unmapped && api->clEnqueueUnmapMemObject(queue, mem, pointer, 0, nullptr, &event) == CL_SUCCESS) {
      api->clFlush(queue);
      // The unmap may wait behind a command gated by a user event: its event
      // is kept until it ends (PoCL aborts when a waiting command's event is
      // gone as a user event fails).
      if (event && NotifyOnStatus(*api, event, CL_COMPLETE, ReleaseEventWhenDone, event) != CL_SUCCESS) {
        api->clReleaseEvent(event);
      }
    }
    api->clReleaseMemObject(mem);
    api->clReleaseCommandQueue(queue);
  }
};

Napi::Object MapResult(Napi::Env env, cl_command_queue queue, cl_mem mem, void* pointer, size_t size, cl_event event) {
  auto* record = new MapRecord(Api(env), queue, mem, pointer);
  Napi::Object result = Napi::Object::New(env);
  napi_value buffer;
  napi_status status = napi_create_external_arraybuffer(
      env, pointer, size, [](napi_env, void*, void* hint) { delete static_cast<MapRecord*>(hint); }, record, &buffer);
  if (status != napi_ok) {
    delete record;  // unmaps
    if (event) Api(env).clReleaseEvent(event);
    throw Napi::Error::New(env,
                           "this JavaScript engine does not allow ArrayBuffers over native memory (Electron's memory "
                           "cage), so mapping is not available: use readBuffer / writeBuffer instead");
  }
  result.Set("buffer", Napi::Value(env, buffer));
  result.Set("record", Napi::External<MapRecord>::New(env, record));
  result.Set("event", WrapEvent(env, event));
  return result;
}

// enqueueMapBuffer(queue, buffer, blocking, flags, offset, size, waitList) -> { buffer, record, event }
Napi::Value EnqueueMapBuffer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  bool blocking = info[2].ToBoolean();
  cl_map_flags flags = ToU64(info[3], "flags");
  size_t offset = ToSize(info[4], "offset");
  size_t size = ToSize(info[5], "size");
  Enqueue op(info[6]);
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  cl_mem mem = NativeMem::From(info[1], "buffer");
  cl_int status = CL_SUCCESS;
  void* pointer = OCL_FN(env, clEnqueueMapBuffer)(queue, mem, blocking, flags, offset, size, op.count(), op.list(),
                                                  &op.event, &status);
  Check(env, status, "clEnqueueMapBuffer");
  return MapResult(env, queue, mem, pointer, size, op.event);
}

// enqueueMapImage(queue, image, blocking, flags, origin, region, waitList)
//   -> { buffer, record, event, rowPitch, slicePitch }
Napi::Value EnqueueMapImage(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  bool blocking = info[2].ToBoolean();
  cl_map_flags flags = ToU64(info[3], "flags");
  size_t origin[3], region[3];
  ToTriple(info[4], "origin", origin);
  ToTriple(info[5], "region", region);
  Enqueue op(info[6]);
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  cl_mem image = NativeMem::From(info[1], "image");
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
    if (op.event) Api(env).clReleaseEvent(op.event);
    throw;
  }
  Napi::Object result = MapResult(env, queue, image, pointer, size, op.event);
  result.Set("rowPitch", Napi::Number::New(env, static_cast<double>(rowPitch)));
  result.Set("slicePitch", Napi::Number::New(env, static_cast<double>(slicePitch)));
  return result;
}

// enqueueUnmap(mappedArrayBuffer, record, waitList) -> event. The record is
// alive while its ArrayBuffer is attached; unmapping detaches it so no view
// can reach the memory afterwards.
Napi::Value EnqueueUnmap(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[0].IsArrayBuffer() || !info[1].IsExternal()) {
    throw Napi::TypeError::New(env, "unmap takes the ArrayBuffer and record of a map");
  }
  Napi::ArrayBuffer mapped = info[0].As<Napi::ArrayBuffer>();
  if (mapped.IsDetached()) throw Napi::TypeError::New(env, "the mapping's ArrayBuffer is detached");
  auto* record = info[1].As<Napi::External<MapRecord>>().Data();
  if (record->unmapped || record->pointer != mapped.Data()) throw Napi::TypeError::New(env, "not this mapping's record");
  Enqueue op(info[2]);
  Check(env,
        OCL_FN(env, clEnqueueUnmapMemObject)(record->queue, record->mem, record->pointer, op.count(), op.list(),
                                             &op.event),
        "clEnqueueUnmapMemObject");
  record->unmapped = true;
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
