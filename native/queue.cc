// The command queue and every core command enqueued on it: markers and
// barriers, buffer and image transfers, copies and fills, and kernels
// (enqueueNDRange); maps and unmaps are mapping.cc's. The twin of lib/queue.ts.
#include "queue.h"

#include <algorithm>
#include <mutex>
#include <string>
#include <vector>

#include "completion.h"
#include "host_memory.h"
#include "mapping.h"

namespace ocl {

const napi_type_tag NativeQueue::kTypeTag = {0x6f636c2d71756575ULL, 0x6500000000000004ULL};

void NativeQueue::ReleaseHandle(cl_command_queue h) {
  ForgetQueue(h);
  ApiOrNull()->clReleaseCommandQueue(h);
}

NativeQueue::~NativeQueue() {
  // Collected without release(): lib/ can no longer release its commands' events.
  if (handle()) {
    BeforeRelease();
    AddonData::Get(Env()).events->ReleaseCommandsOf(handle());
  }
}

void NativeQueue::BeforeRelease() {
  if (held_) held_->HandOver(ReleaseApiOrNull());
}

void NativeQueue::HoldUntilComplete(Napi::Env env, cl_event event, std::shared_ptr<HostBlock> block) {
  if (!block || !event) return;
  if (!held_) held_ = std::make_unique<HeldTransfers>();
  held_->Hold(Api(env), Checked(env), event, std::move(block));
}

constexpr cl_uint kImageElementSize = 0x1111;        // CL_IMAGE_ELEMENT_SIZE
constexpr cl_uint kMemAssociatedMemObject = 0x1107;  // CL_MEM_ASSOCIATED_MEMOBJECT
constexpr cl_uint kMemOffset = 0x1108;               // CL_MEM_OFFSET

namespace {

// total += a * b, false on overflow.
bool MulAdd(size_t a, size_t b, size_t& total) {
  size_t product = 0;
  if (a != 0 && b > SIZE_MAX / a) return false;
  product = a * b;
  if (total > SIZE_MAX - product) return false;
  total += product;
  return true;
}

}  // namespace

// Bytes a host region of an image occupies, so no transfer can run past the
// memory it was given. Pitches of 0 mean "tightly packed"; every product is
// checked, so no wrap-around can make a huge region look small.
size_t HostImageBytes(Napi::Env env, cl_mem image, const size_t region[3], size_t& rowPitch, size_t& slicePitch) {
  size_t elementSize = 0;
  OCL_CHECK(env, clGetImageInfo, image, kImageElementSize, sizeof(elementSize), &elementSize, nullptr);
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

namespace {

// createQueue(context, device, properties: bigint[] | null, legacyProperties: bigint)
// With a properties array, clCreateCommandQueueWithProperties (OpenCL 2.0+);
// otherwise clCreateCommandQueue. lib/ picks by platform version.
Napi::Value CreateQueue(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_context context = NativeContext::From(info[0], "context");
  cl_device_id device = NativeDevice::From(info[1], "device");
  cl_command_queue queue = nullptr;
  if (info[2].IsArray()) {
    auto array = info[2].As<Napi::Array>();
    std::vector<cl_queue_properties> props;
    for (uint32_t i = 0; i < array.Length(); ++i) props.push_back(ToU64(array.Get(i), "queue property"));
    props.push_back(0);
    queue = OCL_CREATE(env, clCreateCommandQueueWithProperties, context, device, props.data());
  } else {
    cl_command_queue_properties properties = ToU64(info[3], "properties");
    queue = OCL_CREATE(env, clCreateCommandQueue, context, device, properties);
  }
  return NativeQueue::Wrap(env, queue);
}

Napi::Value EnqueueMarker(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  Enqueue op(info[1]);
  OCL_CHECK(env, clEnqueueMarkerWithWaitList, queue, op.count(), op.list(), &op.event);
  return op.Result(env);
}

Napi::Value EnqueueBarrier(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  cl_command_queue queue = NativeQueue::From(info[0], "queue");
  Enqueue op(info[1]);
  OCL_CHECK(env, clEnqueueBarrierWithWaitList, queue, op.count(), op.list(), &op.event);
  return op.Result(env);
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
  NativeQueue* owner = NativeQueue::FromValue(info[0], "queue");
  cl_command_queue queue = owner->Checked(env);
  cl_mem mem = NativeMem::From(info[1], "buffer");
  Enqueue op(info[6]);
  if (kWrite) {
    OCL_CHECK(env, clEnqueueWriteBuffer, queue, mem, blocking, offset, size, host.data, op.count(), op.list(), &op.event);
  } else {
    OCL_CHECK(env, clEnqueueReadBuffer, queue, mem, blocking, offset, size, host.data, op.count(), op.list(), &op.event);
  }
  if (!blocking) owner->HoldUntilComplete(env, op.event, host.block);
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
  NativeQueue* owner = NativeQueue::FromValue(info[0], "queue");
  cl_command_queue queue = owner->Checked(env);
  cl_mem image = NativeMem::From(info[1], "image");
  RequireBytes(env, HostView{host.data, host.length}, HostImageBytes(env, image, region, hostRowPitch, hostSlicePitch), "host memory");
  Enqueue op(info[8]);
  if (kWrite) {
    OCL_CHECK(env, clEnqueueWriteImage, queue, image, blocking, origin, region, rowPitch, slicePitch, host.data, op.count(), op.list(), &op.event);
  } else {
    OCL_CHECK(env, clEnqueueReadImage, queue, image, blocking, origin, region, rowPitch, slicePitch, host.data, op.count(), op.list(), &op.event);
  }
  if (!blocking) owner->HoldUntilComplete(env, op.event, host.block);
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
  OCL_CHECK(env, clEnqueueCopyBuffer, queue, src, dst, srcOffset, dstOffset, size, op.count(), op.list(), &op.event);
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
  OCL_CHECK(env, clEnqueueFillBuffer, queue, mem, pattern.data, pattern.length, offset, size, op.count(), op.list(), &op.event);
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
  OCL_CHECK(env, clEnqueueCopyImage, queue, src, dst, srcOrigin, dstOrigin, region, op.count(), op.list(), &op.event);
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
  OCL_CHECK(env, clEnqueueFillImage, queue, image, color.data, origin, region, op.count(), op.list(), &op.event);
  return op.Result(env);
}

// A sub-buffer as its parent and the offset of a range in it (lib/queue.ts
// asks for this conversion for copies between images and sub-buffers, which
// PoCL 3.1 crashes on; it checked the range against the sub-buffer first).
void ToParentBuffer(Napi::Env env, cl_mem& buffer, size_t& offset) {
  cl_mem parent = nullptr;
  size_t origin = 0;
  OCL_CHECK(env, clGetMemObjectInfo, buffer, kMemAssociatedMemObject, sizeof(parent), &parent, nullptr);
  OCL_CHECK(env, clGetMemObjectInfo, buffer, kMemOffset, sizeof(origin), &origin, nullptr);
  if (!parent) return;
  buffer = parent;
  offset += origin;
}

// enqueueCopyImageToBuffer(queue, image, buffer, origin, region, dstOffset, waitList, throughParent)
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
  if (info[7].ToBoolean()) ToParentBuffer(env, buffer, dstOffset);
  OCL_CHECK(env, clEnqueueCopyImageToBuffer, queue, image, buffer, origin, region, dstOffset, op.count(), op.list(), &op.event);
  return op.Result(env);
}

// enqueueCopyBufferToImage(queue, buffer, image, srcOffset, origin, region, waitList, throughParent)
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
  if (info[7].ToBoolean()) ToParentBuffer(env, buffer, srcOffset);
  OCL_CHECK(env, clEnqueueCopyBufferToImage, queue, buffer, image, srcOffset, origin, region, op.count(), op.list(), &op.event);
  return op.Result(env);
}

// takeCallArrays() -> { ndrangeSizes: Float64Array(kNDRangeSizes), kernelArgOps:
// Float64Array(kArgOps) }: the arrays enqueueNDRange reads its sizes and the
// kernel's pending arguments from. Made here, handed out once per environment
// (lib/addon.ts takes them as it loads the addon, before any script can reach
// it); later calls are refused, so no script can hand the addon arrays of its own.
Napi::Value TakeCallArrays(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto& data = AddonData::Get(env);
  if (!data.ndrangeSizes.IsEmpty())
    throw Napi::Error::New(env, "the call arrays were handed out already (to opencl-interop, as it loaded the addon)");
  // One buffer under both: one detach check per enqueueNDRange.
  auto buffer = Napi::ArrayBuffer::New(env, (kNDRangeSizes + kArgOps) * sizeof(double));
  Napi::Float64Array sizes = data.ndrangeSizes.MakeOn(env, buffer, 0, kNDRangeSizes);
  Napi::Float64Array ops = data.argOps.MakeOn(env, buffer, kNDRangeSizes, kArgOps);
  Napi::Object result = Napi::Object::New(env);
  result.Set("ndrangeSizes", sizes);
  result.Set("kernelArgOps", ops);
  return result;
}

double SlotArg(const Napi::CallbackInfo& info, size_t i, const char* what) {
  double id = -1;
  if (napi_get_value_double(info.Env(), info[i], &id) != napi_ok) {
    throw Napi::TypeError::New(info.Env(), std::string(what) + " must be a slot number");
  }
  return id;
}

// enqueueNDRange(queueSlot, kernelSlot, waitList, compilesInProcess): dimensions and sizes come
// from the array takeCallArrays made: [dims, hasOffset, hasLocal, global x3,
// offset x3, local x3]; pending arguments are applied first (ApplyPendingArgs).
// compilesInProcess: the driver may compile the kernel on its own threads at
// its first run; the command is kept until it ends (NoteKernelCommand, completion.h).
Napi::Value EnqueueNDRange(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  AddonData& data = AddonData::Get(env);  // once: each lookup is a Node-API call
  auto* queue = static_cast<NativeQueue*>(data.objects.Find(SlotArg(info, 0, "queue"), &NativeQueue::kTypeTag));
  if (!queue) throw Napi::TypeError::New(env, "queue must be the slot of a " + std::string(NativeQueue::kName));
  auto* kernel = static_cast<NativeKernel*>(data.objects.Find(SlotArg(info, 1, "kernel"), &NativeKernel::kTypeTag));
  if (!kernel) throw Napi::TypeError::New(env, "kernel must be the slot of a " + std::string(NativeKernel::kName));
  if (!queue->handle()) ThrowReleased(env, NativeQueue::kName);
  if (!kernel->handle()) ThrowReleased(env, NativeKernel::kName);
  size_t sizesLength = 0, opsLength = 0;
  const double* v = data.ndrangeSizes.Data(env, sizesLength, "the NDRange sizes array (and the argument operations array on its buffer)");
  const double* ops = data.argOps.DataOfChecked(opsLength);
  if (sizesLength < kNDRangeSizes || opsLength < kArgOps) throw Napi::RangeError::New(env, "the call arrays are too short");
  const auto dims = static_cast<cl_uint>(v[0]);
  if (dims < 1 || dims > 3) throw Napi::RangeError::New(env, "an NDRange has 1 to 3 dimensions");
  size_t global[3], offset[3], local[3];
  for (cl_uint d = 0; d < dims; ++d) {
    global[d] = static_cast<size_t>(v[3 + d]);
    offset[d] = static_cast<size_t>(v[6 + d]);
    local[d] = static_cast<size_t>(v[9 + d]);
  }
  Enqueue op(info[2]);
  ApplyPendingArgs(env, *kernel, ops);
  OCL_CHECK(env, clEnqueueNDRangeKernel, queue->handle(), kernel->handle(), dims, v[1] != 0 ? offset : nullptr, global, v[2] != 0 ? local : nullptr,
            op.count(), op.list(), &op.event);
  if (FlagOf(info[3])) NoteKernelCommand(Api(env), &data, queue->handle(), op.event);
  return op.event ? data.events->Add(env, op.event) : env.Undefined();
}

// flushQueue(queueSlot): clFlush by slot; queue.flush() is called once per
// awaited command, and a wrapped method's unwrap costs more than the flush.
Napi::Value FlushQueue(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  NativeQueue* queue = NativeQueue::FromSlot(env, SlotArg(info, 0, "queue"), "queue");
  if (!queue->handle()) ThrowReleased(env, NativeQueue::kName);
  OCL_CHECK(env, clFlush, queue->handle());
  return env.Undefined();
}

}  // namespace

Napi::Value NativeQueue::Info(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return InfoBytes(info, Checked(env), OCL_ENTRY(env, clGetCommandQueueInfo));
}

Napi::Value NativeQueue::Flush(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  OCL_CHECK(env, clFlush, Checked(env));
  return env.Undefined();
}

Napi::Value NativeQueue::Finish(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  OCL_CHECK(env, clFinish, Checked(env));
  return env.Undefined();
}

void NativeQueue::Init(Napi::Env env, Napi::Object exports) {
  Register(
      env, exports, kName,
      {InstanceMethod("info", &NativeQueue::Info), InstanceMethod("flush", &NativeQueue::Flush), InstanceMethod("finish", &NativeQueue::Finish)});
}

void InitQueue(Napi::Env env, Napi::Object exports) {
  NativeQueue::Init(env, exports);
  exports.Set("createQueue", Napi::Function::New(env, CreateQueue, "createQueue"));
  exports.Set("enqueueMarker", Napi::Function::New(env, EnqueueMarker, "enqueueMarker"));
  const std::pair<const char*, Napi::Function::Callback> functions[] = {
      {"enqueueBarrier", EnqueueBarrier},
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
      {"takeCallArrays", TakeCallArrays},
      {"enqueueNDRange", EnqueueNDRange},
      {"flushQueue", FlushQueue},
  };
  for (const auto& [name, callback] : functions) exports.Set(name, Napi::Function::New(env, callback, name));
  InitMapping(env, exports);
}

}  // namespace ocl
