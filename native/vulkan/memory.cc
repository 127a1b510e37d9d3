// Buffers and 2D images with memory of their own that may be exported (fd or
// Win32 handle), and their contents written and read through staging buffers.
#include <cstring>

#include "vulkan/module.h"

namespace ocl {
namespace vk {

const napi_type_tag NativeVkBuffer::kTypeTag = {0x5e8f13a7c2d94b06ULL, 0x9b37e0c4d1a26f58ULL};
const napi_type_tag NativeVkImage::kTypeTag = {0x2d4b7e90f1c35a68ULL, 0xc7a19e2b05d84f31ULL};

ResourceState::~ResourceState() {
  if (memory && device && !device->LeftToProcessEnd()) device->fn.vkFreeMemory(device->device, memory, nullptr);
}
BufferState::~BufferState() {
  if (buffer && device && !device->LeftToProcessEnd()) device->fn.vkDestroyBuffer(device->device, buffer, nullptr);
}
ImageState::~ImageState() {
  if (image && device && !device->LeftToProcessEnd()) device->fn.vkDestroyImage(device->device, image, nullptr);
}
StagingState::~StagingState() {
  if (!device || device->LeftToProcessEnd()) return;
  const DeviceApi& fn = device->fn;
  if (commands) fn.vkFreeCommandBuffers(device->device, device->pool, 1, &commands);
  if (buffer) fn.vkDestroyBuffer(device->device, buffer, nullptr);
  if (memory) fn.vkFreeMemory(device->device, memory, nullptr);
}

namespace {

// Allocates and binds the memory of a buffer or image.
void Allocate(Napi::Env env, DeviceState& device, ResourceState& resource, VkBuffer buffer, VkImage image, bool dedicatedOnly, VkFlags required,
              VkFlags preferred) {
  const DeviceApi& fn = device.fn;
  VkMemoryDedicatedRequirements dedicated{};
  dedicated.sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS;
  VkMemoryRequirements2 requirements{};
  requirements.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2;
  requirements.pNext = &dedicated;
  if (buffer) {
    VkBufferMemoryRequirementsInfo2 query{VK_STRUCTURE_TYPE_BUFFER_MEMORY_REQUIREMENTS_INFO_2, nullptr, buffer};
    fn.vkGetBufferMemoryRequirements2(device.device, &query, &requirements);
  } else {
    VkImageMemoryRequirementsInfo2 query{VK_STRUCTURE_TYPE_IMAGE_MEMORY_REQUIREMENTS_INFO_2, nullptr, image};
    fn.vkGetImageMemoryRequirements2(device.device, &query, &requirements);
  }
  const VkMemoryRequirements& req = requirements.memoryRequirements;
  int32_t type = device.FindMemoryType(req.memoryTypeBits, required, preferred);
  if (type < 0) ThrowVkError(env, VK_ERROR_OUT_OF_DEVICE_MEMORY, "vkAllocateMemory", "no memory type of the device fits this resource");
  resource.dedicated = dedicatedOnly || dedicated.prefersDedicatedAllocation || dedicated.requiresDedicatedAllocation;
  VkMemoryDedicatedAllocateInfo dedicatedInfo{VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO, nullptr, image, buffer};
  VkExportMemoryAllocateInfo exportInfo{VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO, resource.dedicated ? &dedicatedInfo : nullptr,
                                        resource.exportTypes};
  const void* chain = resource.exportTypes ? static_cast<const void*>(&exportInfo) : (resource.dedicated ? &dedicatedInfo : nullptr);
  VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, chain, req.size, uint32_t(type)};
  VK_CHECK(env, fn, vkAllocateMemory, device.device, &allocate, nullptr, &resource.memory);
  resource.allocationSize = req.size;
  resource.memoryType = uint32_t(type);
  if (buffer) VK_CHECK(env, fn, vkBindBufferMemory, device.device, buffer, resource.memory, 0);
  else VK_CHECK(env, fn, vkBindImageMemory, device.device, image, resource.memory, 0);
}

constexpr VkFlags kBufferUsage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;

std::shared_ptr<BufferState> MakeBuffer(Napi::Env env, const DeviceRef& device, VkDeviceSize size, VkFlags exportTypes, bool hostVisible) {
  const DeviceApi& fn = device->fn;
  auto state = std::make_shared<BufferState>();
  state->device = device;
  state->size = size;
  state->exportTypes = exportTypes;
  VkExternalMemoryCreateInfo external{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO, nullptr, exportTypes};
  VkBufferCreateInfo create{
      VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, exportTypes ? &external : nullptr, 0, size, kBufferUsage, VK_SHARING_MODE_EXCLUSIVE, 0, nullptr};
  VK_CHECK(env, fn, vkCreateBuffer, device->device, &create, nullptr, &state->buffer);
  bool dedicatedOnly = false;
  for (VkFlags bit = 1; bit && bit <= exportTypes; bit <<= 1) {
    if (!(exportTypes & bit)) continue;
    VkPhysicalDeviceExternalBufferInfo query{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO, nullptr, 0, kBufferUsage, bit};
    VkExternalBufferProperties answer{};
    answer.sType = VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES;
    device->instance->fn.vkGetPhysicalDeviceExternalBufferProperties(device->physical, &query, &answer);
    if (answer.externalMemoryProperties.externalMemoryFeatures & VK_EXTERNAL_MEMORY_FEATURE_DEDICATED_ONLY_BIT) dedicatedOnly = true;
  }
  VkFlags required = hostVisible ? (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) : 0;
  VkFlags preferred = hostVisible ? required : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
  Allocate(env, *device, *state, state->buffer, 0, dedicatedOnly, required, preferred);
  return state;
}

// The planes of a supported format at a size.
std::vector<PlaneLayout> Planes(VkFormat format, uint32_t width, uint32_t height) {
  if (format == VK_FORMAT_G8_B8R8_2PLANE_420_UNORM)
    return {PlaneLayout{VK_IMAGE_ASPECT_PLANE_0_BIT, width, height, 1, {}}, PlaneLayout{VK_IMAGE_ASPECT_PLANE_1_BIT, width / 2, height / 2, 2, {}}};
  return {PlaneLayout{VK_IMAGE_ASPECT_COLOR_BIT, width, height, 4, {}}};
}

Napi::Object ResourceInfo(Napi::Env env, const ResourceState& r) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("allocationSize", double(r.allocationSize));
  o.Set("dedicated", r.dedicated);
  o.Set("memoryType", r.memoryType);
  o.Set("memoryFlags", r.device->memory.memoryTypes[r.memoryType].propertyFlags);
  o.Set("exportTypes", r.exportTypes);
  return o;
}

}  // namespace

std::shared_ptr<StagingState> MakeStaging(Napi::Env env, const DeviceRef& device, VkDeviceSize size) {
  auto staging = std::make_shared<StagingState>();
  staging->device = device;
  if (size > 0) {
    std::shared_ptr<BufferState> buffer = MakeBuffer(env, device, size, 0, true);
    // The staging state takes the buffer and memory over.
    staging->buffer = buffer->buffer;
    staging->memory = buffer->memory;
    buffer->buffer = 0;
    buffer->memory = 0;
    VK_CHECK(env, device->fn, vkMapMemory, device->device, staging->memory, 0, VK_WHOLE_SIZE, 0, &staging->mapped);
  }
  staging->commands = device->BeginOneTime(env);
  return staging;
}

// Ends a one-time command buffer and submits it; the submission holds `holds`.
static Napi::Value SubmitOneTime(Napi::Env env, const DeviceRef& device, const std::shared_ptr<StagingState>& staging,
                                 std::vector<std::shared_ptr<void>> holds, bool promise, std::function<Napi::Value(Napi::Env)> result = nullptr) {
  VK_CHECK(env, device->fn, vkEndCommandBuffer, staging->commands);
  auto submission = std::make_unique<Submission>(env, promise);
  submission->holds = std::move(holds);
  submission->holds.push_back(staging);
  submission->result = std::move(result);
  return device->Submit(env, {staging->commands}, {}, {}, std::move(submission));
}

// createBuffer(size, exportTypes, hostVisible) -> NativeVkBuffer
Napi::Value NativeVkDevice::CreateBuffer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const DeviceRef& device = Live(env);
  VkDeviceSize size = ToU64(info[0], "size");
  VkFlags exportTypes = VkFlags(ToU64(info[1], "exportTypes"));
  return NativeVkBuffer::Wrap(env, MakeBuffer(env, device, size, exportTypes, info[2].ToBoolean()));
}

// imageSupport(format, linear, usage, handleType) -> null | { maxWidth, maxHeight, features, externalFeatures }
Napi::Value NativeVkDevice::ImageSupport(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const DeviceRef& device = Live(env);
  const InstanceApi& ifn = device->instance->fn;
  VkFormat format = VkFormat(info[0].As<Napi::Number>().Int32Value());
  bool linear = info[1].ToBoolean();
  VkFlags usage = VkFlags(ToU64(info[2], "usage"));
  VkFlags handleType = VkFlags(ToU64(info[3], "handleType"));
  VkFormatProperties formatProps{};
  ifn.vkGetPhysicalDeviceFormatProperties(device->physical, format, &formatProps);
  VkPhysicalDeviceExternalImageFormatInfo external{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_IMAGE_FORMAT_INFO, nullptr, handleType};
  VkPhysicalDeviceImageFormatInfo2 query{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_FORMAT_INFO_2,
                                         handleType ? &external : nullptr,
                                         format,
                                         VK_IMAGE_TYPE_2D,
                                         linear ? VK_IMAGE_TILING_LINEAR : VK_IMAGE_TILING_OPTIMAL,
                                         usage,
                                         0};
  VkExternalImageFormatProperties externalProps{};
  externalProps.sType = VK_STRUCTURE_TYPE_EXTERNAL_IMAGE_FORMAT_PROPERTIES;
  VkImageFormatProperties2 props{};
  props.sType = VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2;
  props.pNext = handleType ? &externalProps : nullptr;
  VkOutcome queried = VK_CALL(ifn, vkGetPhysicalDeviceImageFormatProperties2, device->physical, &query, &props);
  if (queried.result == VK_ERROR_FORMAT_NOT_SUPPORTED) return env.Null();
  CheckVk(env, queried);
  Napi::Object o = Napi::Object::New(env);
  o.Set("maxWidth", props.imageFormatProperties.maxExtent.width);
  o.Set("maxHeight", props.imageFormatProperties.maxExtent.height);
  o.Set("features", linear ? formatProps.linearTilingFeatures : formatProps.optimalTilingFeatures);
  o.Set("externalFeatures", externalProps.externalMemoryProperties.externalMemoryFeatures);
  return o;
}

// createImage(format, width, height, linear, usage, exportTypes) -> NativeVkImage (in VK_IMAGE_LAYOUT_GENERAL once its
// layout change, submitted here, runs: every later submission on the queue comes after it)
Napi::Value NativeVkDevice::CreateImage(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const DeviceRef& device = Live(env);
  const DeviceApi& fn = device->fn;
  auto state = std::make_shared<ImageState>();
  state->device = device;
  state->format = VkFormat(info[0].As<Napi::Number>().Int32Value());
  state->width = uint32_t(ToU64(info[1], "width"));
  state->height = uint32_t(ToU64(info[2], "height"));
  state->linear = info[3].ToBoolean();
  VkFlags usage = VkFlags(ToU64(info[4], "usage"));
  state->exportTypes = VkFlags(ToU64(info[5], "exportTypes"));
  state->planes = Planes(state->format, state->width, state->height);
  VkExternalMemoryCreateInfo external{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMAGE_CREATE_INFO, nullptr, state->exportTypes};
  VkImageCreateInfo create{};
  create.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
  create.pNext = state->exportTypes ? &external : nullptr;
  create.imageType = VK_IMAGE_TYPE_2D;
  create.format = state->format;
  create.extent = {state->width, state->height, 1};
  create.mipLevels = 1;
  create.arrayLayers = 1;
  create.samples = VK_SAMPLE_COUNT_1_BIT;
  create.tiling = state->linear ? VK_IMAGE_TILING_LINEAR : VK_IMAGE_TILING_OPTIMAL;
  create.usage = usage;
  create.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  create.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  VK_CHECK(env, fn, vkCreateImage, device->device, &create, nullptr, &state->image);
  bool dedicatedOnly = false;
  for (VkFlags bit = 1; bit && bit <= state->exportTypes; bit <<= 1) {
    if (!(state->exportTypes & bit)) continue;
    VkPhysicalDeviceExternalImageFormatInfo query{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_IMAGE_FORMAT_INFO, nullptr, bit};
    VkPhysicalDeviceImageFormatInfo2 formatInfo{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_FORMAT_INFO_2, &query, create.format, create.imageType, create.tiling, usage, 0};
    VkExternalImageFormatProperties answer{};
    answer.sType = VK_STRUCTURE_TYPE_EXTERNAL_IMAGE_FORMAT_PROPERTIES;
    VkImageFormatProperties2 props{};
    props.sType = VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2;
    props.pNext = &answer;
    if (device->instance->fn.vkGetPhysicalDeviceImageFormatProperties2(device->physical, &formatInfo, &props) == VK_SUCCESS &&
        (answer.externalMemoryProperties.externalMemoryFeatures & VK_EXTERNAL_MEMORY_FEATURE_DEDICATED_ONLY_BIT))
      dedicatedOnly = true;
  }
  Allocate(env, *device, *state, 0, state->image, dedicatedOnly, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  if (state->linear) {
    for (PlaneLayout& plane : state->planes) {
      VkImageSubresource sub{plane.aspect, 0, 0};
      fn.vkGetImageSubresourceLayout(device->device, state->image, &sub, &plane.layout);
    }
  }
  std::shared_ptr<StagingState> once = MakeStaging(env, device, 0);
  VkFlags aspects = 0;
  for (const PlaneLayout& plane : state->planes) aspects |= plane.aspect;
  VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                               nullptr,
                               0,
                               VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT,
                               VK_IMAGE_LAYOUT_UNDEFINED,
                               VK_IMAGE_LAYOUT_GENERAL,
                               VK_QUEUE_FAMILY_IGNORED,
                               VK_QUEUE_FAMILY_IGNORED,
                               state->image,
                               {aspects, 0, 1, 0, 1}};
  fn.vkCmdPipelineBarrier(once->commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, nullptr, 0, nullptr, 1,
                          &barrier);
  SubmitOneTime(env, device, once, {state}, false);
  return NativeVkImage::Wrap(env, std::move(state));
}

// write(offset, data) -> Promise<void>: data is copied now, into a staging buffer.
Napi::Value NativeVkBuffer::Write(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const std::shared_ptr<BufferState>& buffer = Live(env);
  const DeviceRef& device = buffer->device;
  VkDeviceSize offset = ToU64(info[0], "offset");
  HostView data = ToHostView(info[1], "data");
  if (data.length == 0 || offset + data.length > buffer->size) throw Napi::RangeError::New(env, "the write does not fit in the buffer");
  std::shared_ptr<StagingState> staging = MakeStaging(env, device, data.length);
  std::memcpy(staging->mapped, data.data, data.length);
  FullBarrier(device->fn, staging->commands);
  VkBufferCopy region{0, offset, data.length};
  device->fn.vkCmdCopyBuffer(staging->commands, staging->buffer, buffer->buffer, 1, &region);
  FullBarrier(device->fn, staging->commands);
  return SubmitOneTime(env, device, staging, {buffer}, true);
}

// The Uint8Array a read-back fills: made by lib/vulkan before the submission (an allocation
// that fails there is a RangeError; one made in the completion callback would abort V8), held
// until the submission completes and filled then.
struct ReadTarget {
  Napi::Reference<Napi::Uint8Array> array;
  size_t length = 0;
};
static std::shared_ptr<ReadTarget> TargetOf(const Napi::Value& value, size_t needed) {
  Napi::Env env = value.Env();
  if (!value.IsTypedArray() || value.As<Napi::TypedArray>().TypedArrayType() != napi_uint8_array)
    throw Napi::TypeError::New(env, "out must be a Uint8Array");
  Napi::Uint8Array array = value.As<Napi::Uint8Array>();
  if (array.ByteLength() != needed) throw Napi::RangeError::New(env, "out is not the size of the read");
  auto target = std::make_shared<ReadTarget>();
  target->array = Napi::Persistent(array);
  target->length = needed;
  return target;
}
// The target's bytes at completion, or a RangeError if they went away (the array is the caller's until then).
static Napi::Uint8Array Filled(Napi::Env env, const ReadTarget& target, const std::function<void(uint8_t*)>& fill) {
  Napi::Uint8Array array = target.array.Value();
  if (array.ByteLength() != target.length) throw Napi::RangeError::New(env, "the read-back's array was detached before the read completed");
  fill(array.Data());
  return array;
}

// read(offset, out: Uint8Array) -> Promise<Uint8Array> (out, filled with out.length bytes at offset)
Napi::Value NativeVkBuffer::Read(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const std::shared_ptr<BufferState>& buffer = Live(env);
  const DeviceRef& device = buffer->device;
  VkDeviceSize offset = ToU64(info[0], "offset");
  VkDeviceSize length = info[1].IsTypedArray() ? info[1].As<Napi::TypedArray>().ByteLength() : 0;
  if (length == 0 || offset > buffer->size || length > buffer->size - offset) throw Napi::RangeError::New(env, "the read does not fit in the buffer");
  std::shared_ptr<ReadTarget> target = TargetOf(info[1], size_t(length));
  std::shared_ptr<StagingState> staging = MakeStaging(env, device, length);
  FullBarrier(device->fn, staging->commands);
  VkBufferCopy region{offset, 0, length};
  device->fn.vkCmdCopyBuffer(staging->commands, buffer->buffer, staging->buffer, 1, &region);
  FullBarrier(device->fn, staging->commands);
  StagingState* raw = staging.get();
  return SubmitOneTime(env, device, staging, {buffer}, true, [raw, target](Napi::Env e) -> Napi::Value {
    return Filled(e, *target, [&](uint8_t* out) { std::memcpy(out, raw->mapped, target->length); });
  });
}

namespace {
const PlaneLayout& PlaneOf(Napi::Env env, const ImageState& image, const Napi::Value& value) {
  uint64_t plane = ToU64(value, "plane");
  if (plane >= image.planes.size()) throw Napi::RangeError::New(env, "the image has no plane " + std::to_string(plane));
  return image.planes[plane];
}
VkBufferImageCopy PlaneRegion(const PlaneLayout& plane) {
  VkBufferImageCopy region{};
  region.imageSubresource = {plane.aspect, 0, 0, 1};
  region.imageExtent = {plane.width, plane.height, 1};
  return region;
}
}  // namespace

// write(plane, data, pitch) -> Promise<void>: the plane's rows, `pitch` bytes apart in data.
Napi::Value NativeVkImage::Write(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const std::shared_ptr<ImageState>& image = Live(env);
  const DeviceRef& device = image->device;
  const PlaneLayout& plane = PlaneOf(env, *image, info[0]);
  HostView data = ToHostView(info[1], "data");
  size_t pitch = ToSize(info[2], "pitch");
  size_t rowBytes = size_t(plane.width) * plane.texelBytes;
  if (pitch < rowBytes || pitch * (plane.height - 1) + rowBytes > data.length)
    throw Napi::RangeError::New(env, "data does not hold the plane's rows at this pitch");
  std::shared_ptr<StagingState> staging = MakeStaging(env, device, VkDeviceSize(rowBytes) * plane.height);
  for (uint32_t r = 0; r < plane.height; ++r)
    std::memcpy(static_cast<uint8_t*>(staging->mapped) + r * rowBytes, static_cast<const uint8_t*>(data.data) + r * pitch, rowBytes);
  VkBufferImageCopy region = PlaneRegion(plane);
  FullBarrier(device->fn, staging->commands);
  device->fn.vkCmdCopyBufferToImage(staging->commands, staging->buffer, image->image, VK_IMAGE_LAYOUT_GENERAL, 1, &region);
  FullBarrier(device->fn, staging->commands);
  return SubmitOneTime(env, device, staging, {image}, true);
}

// read(plane, pitch, out: Uint8Array) -> Promise<Uint8Array> (out, the rows `pitch` bytes apart)
Napi::Value NativeVkImage::Read(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const std::shared_ptr<ImageState>& image = Live(env);
  const DeviceRef& device = image->device;
  const PlaneLayout& plane = PlaneOf(env, *image, info[0]);
  size_t pitch = ToSize(info[1], "pitch");
  size_t rowBytes = size_t(plane.width) * plane.texelBytes;
  uint32_t rows = plane.height;
  if (pitch < rowBytes) throw Napi::RangeError::New(env, "pitch is less than a row of the plane");
  if (rows > 1 && pitch > (SIZE_MAX - rowBytes) / (rows - 1)) throw Napi::RangeError::New(env, "pitch is too large");
  std::shared_ptr<ReadTarget> target = TargetOf(info[2], pitch * (rows - 1) + rowBytes);
  std::shared_ptr<StagingState> staging = MakeStaging(env, device, VkDeviceSize(rowBytes) * rows);
  VkBufferImageCopy region = PlaneRegion(plane);
  FullBarrier(device->fn, staging->commands);
  device->fn.vkCmdCopyImageToBuffer(staging->commands, image->image, VK_IMAGE_LAYOUT_GENERAL, staging->buffer, 1, &region);
  FullBarrier(device->fn, staging->commands);
  StagingState* raw = staging.get();
  return SubmitOneTime(env, device, staging, {image}, true, [raw, target, pitch, rowBytes, rows](Napi::Env e) -> Napi::Value {
    return Filled(e, *target, [&](uint8_t* out) {
      for (uint32_t r = 0; r < rows; ++r) std::memcpy(out + r * pitch, static_cast<uint8_t*>(raw->mapped) + r * rowBytes, rowBytes);
    });
  });
}

Napi::Value ExportMemory(Napi::Env env, const ResourceState& resource, VkFlags handleType) {
  const DeviceState& device = *resource.device;
  if (!(resource.exportTypes & handleType)) throw Napi::TypeError::New(env, "the memory was not made exportable as this handle type");
  if (handleType == VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT || handleType == VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT) {
    VK_REQUIRE(env, device.fn, vkGetMemoryFdKHR, "VK_KHR_external_memory_fd is not enabled");
    VkMemoryGetFdInfoKHR get{VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR, nullptr, resource.memory, handleType};
    int fd = -1;
    VK_CHECK(env, device.fn, vkGetMemoryFdKHR, device.device, &get, &fd);
    return Napi::Number::New(env, fd);
  }
  VK_REQUIRE(env, device.fn, vkGetMemoryWin32HandleKHR, "VK_KHR_external_memory_win32 is not enabled");
  VkGetWin32HandleInfoKHR get{VK_STRUCTURE_TYPE_MEMORY_GET_WIN32_HANDLE_INFO_KHR, nullptr, resource.memory, handleType};
  void* handle = nullptr;
  VK_CHECK(env, device.fn, vkGetMemoryWin32HandleKHR, device.device, &get, &handle);
  return Napi::BigInt::New(env, uint64_t(reinterpret_cast<uintptr_t>(handle)));
}

// info() -> { size, allocationSize, dedicated, memoryType, memoryFlags, exportTypes }
Napi::Value NativeVkBuffer::Info(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const BufferState& state = *Live(env);
  Napi::Object o = ResourceInfo(env, state);
  o.Set("size", double(state.size));
  return o;
}

// exportMemory(handleType) -> fd | HANDLE
Napi::Value NativeVkBuffer::Export(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return ExportMemory(env, *Live(env), VkFlags(ToU64(info[0], "handleType")));
}

// info() -> { allocationSize, dedicated, ..., planes: [{ width, height, texelBytes, offset, size, rowPitch } (linear: layout)] }
Napi::Value NativeVkImage::Info(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const ImageState& state = *Live(env);
  Napi::Object o = ResourceInfo(env, state);
  Napi::Array planes = Napi::Array::New(env, state.planes.size());
  for (size_t i = 0; i < state.planes.size(); ++i) {
    const PlaneLayout& p = state.planes[i];
    Napi::Object plane = Napi::Object::New(env);
    plane.Set("width", p.width);
    plane.Set("height", p.height);
    plane.Set("texelBytes", p.texelBytes);
    if (state.linear) {
      plane.Set("offset", double(p.layout.offset));
      plane.Set("size", double(p.layout.size));
      plane.Set("rowPitch", double(p.layout.rowPitch));
    }
    planes.Set(uint32_t(i), plane);
  }
  o.Set("planes", planes);
  return o;
}

Napi::Value NativeVkImage::Export(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return ExportMemory(env, *Live(env), VkFlags(ToU64(info[0], "handleType")));
}

void NativeVkBuffer::Init(Napi::Env env, Napi::Object exports) {
  Register(env, exports,
           {InstanceMethod("info", &NativeVkBuffer::Info), InstanceMethod("exportMemory", &NativeVkBuffer::Export),
            InstanceMethod("write", &NativeVkBuffer::Write), InstanceMethod("read", &NativeVkBuffer::Read)});
}
void NativeVkImage::Init(Napi::Env env, Napi::Object exports) {
  Register(env, exports,
           {InstanceMethod("info", &NativeVkImage::Info), InstanceMethod("exportMemory", &NativeVkImage::Export),
            InstanceMethod("write", &NativeVkImage::Write), InstanceMethod("read", &NativeVkImage::Read)});
}

void InitMemory(Napi::Env env, Napi::Object exports) {
  NativeVkBuffer::Init(env, exports);
  NativeVkImage::Init(env, exports);
}

}  // namespace vk
}  // namespace ocl
