// Recorded command sequences: recorded once, submitted many times
// (VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT). Operations are separated by
// full memory barriers, and the sequence starts and ends with one, so that it
// is ordered against whatever came before and after it on the queue.
#include "vulkan/module.h"

namespace ocl {
namespace vk {

const napi_type_tag NativeVkCommands::kTypeTag = {0x94d0e6b13f7a2c58ULL, 0x1be8c5a703f94d26ULL};

CommandsState::~CommandsState() {
  if (!device || device->abandoned) return;
  if (buffer) device->fn.vkFreeCommandBuffers(device->device, device->pool, 1, &buffer);
  if (descriptors) device->fn.vkDestroyDescriptorPool(device->device, descriptors, nullptr);
}

constexpr uint32_t kPushBytes = 64;

VkPipeline ShaderPipeline(Napi::Env env, DeviceState& device, const std::string& name) {
  auto found = device.pipelines.find(name);
  if (found != device.pipelines.end()) return found->second;
  const std::vector<uint32_t>* code = ShaderCode(name);
  if (!code) throw Napi::Error::New(env, "no shader named " + name);
  const DeviceApi& fn = device.fn;
  if (!device.setLayout) {
    VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo create{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0, 1, &binding};
    VK_CHECK(env, fn, vkCreateDescriptorSetLayout, device.device, &create, nullptr, &device.setLayout);
  }
  if (!device.pipelineLayout) {
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, kPushBytes};
    VkPipelineLayoutCreateInfo create{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 1, &device.setLayout, 1, &range};
    VK_CHECK(env, fn, vkCreatePipelineLayout, device.device, &create, nullptr, &device.pipelineLayout);
  }
  VkShaderModuleCreateInfo moduleInfo{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0, code->size() * 4, code->data()};
  VkShaderModule module = 0;
  VK_CHECK(env, fn, vkCreateShaderModule, device.device, &moduleInfo, nullptr, &module);
  VkComputePipelineCreateInfo create{};
  create.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  create.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module, "main", nullptr};
  create.layout = device.pipelineLayout;
  create.basePipelineIndex = -1;
  VkPipeline pipeline = 0;
  VkOutcome created = VK_CALL(fn, vkCreateComputePipelines, device.device, 0, 1, &create, nullptr, &pipeline);
  fn.vkDestroyShaderModule(device.device, module, nullptr);
  CheckVk(env, created);
  device.pipelines[name] = pipeline;
  return pipeline;
}

namespace {

uint64_t U64(const Napi::Object& op, const char* key) { return ToU64(op.Get(key), key); }

VkBufferImageCopy ImageRegion(Napi::Env env, const ImageState& image, const Napi::Object& op) {
  uint64_t plane = U64(op, "plane");
  if (plane >= image.planes.size()) throw Napi::RangeError::New(env, "the image has no plane " + std::to_string(plane));
  const PlaneLayout& p = image.planes[plane];
  VkBufferImageCopy region{};
  region.bufferOffset = U64(op, "bufferOffset");
  region.bufferRowLength = uint32_t(U64(op, "rowLength"));
  region.imageSubresource = {p.aspect, 0, 0, 1};
  region.imageExtent = {p.width, p.height, 1};
  return region;
}

}  // namespace

// record(ops: [{ op: 'fill' | 'copy' | 'copyBufferToImage' | 'copyImageToBuffer' | 'dispatch', ... }]) -> NativeVkCommands
Napi::Value NativeVkDevice::Record(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const DeviceRef& device = Live(env);
  const DeviceApi& fn = device->fn;
  if (!info[0].IsArray()) throw Napi::TypeError::New(env, "ops must be an array");
  Napi::Array ops = info[0].As<Napi::Array>();
  auto state = std::make_shared<CommandsState>();
  state->device = device;
  uint32_t dispatches = 0;
  for (uint32_t i = 0; i < ops.Length(); ++i) {
    Napi::Value op = ops.Get(i);
    if (!op.IsObject()) throw Napi::TypeError::New(env, "ops[" + std::to_string(i) + "] must be an object");
    if (op.As<Napi::Object>().Get("op").ToString().Utf8Value() == "dispatch") ++dispatches;
  }
  std::vector<VkDescriptorSet> sets(dispatches);
  if (dispatches) {
    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, dispatches};
    VkDescriptorPoolCreateInfo create{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr, 0, dispatches, 1, &size};
    VK_CHECK(env, fn, vkCreateDescriptorPool, device->device, &create, nullptr, &state->descriptors);
  }
  VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, device->pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VK_CHECK(env, fn, vkAllocateCommandBuffers, device->device, &allocate, &state->buffer);
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, nullptr, VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT, nullptr};
  VK_CHECK(env, fn, vkBeginCommandBuffer, state->buffer, &begin);
  VkCommandBuffer cb = state->buffer;
  uint32_t dispatchIndex = 0;
  for (uint32_t i = 0; i < ops.Length(); ++i) {
    FullBarrier(fn, cb);
    Napi::Object op = ops.Get(i).As<Napi::Object>();
    std::string kind = op.Get("op").ToString();
    if (kind == "fill") {
      const std::shared_ptr<BufferState>& buffer = NativeVkBuffer::From(op.Get("buffer"), "buffer");
      fn.vkCmdFillBuffer(cb, buffer->buffer, U64(op, "offset"), U64(op, "size"), uint32_t(U64(op, "value")));
      state->holds.push_back(buffer);
    } else if (kind == "copy") {
      const std::shared_ptr<BufferState>& src = NativeVkBuffer::From(op.Get("src"), "src");
      const std::shared_ptr<BufferState>& dst = NativeVkBuffer::From(op.Get("dst"), "dst");
      VkBufferCopy region{U64(op, "srcOffset"), U64(op, "dstOffset"), U64(op, "size")};
      fn.vkCmdCopyBuffer(cb, src->buffer, dst->buffer, 1, &region);
      state->holds.push_back(src);
      state->holds.push_back(dst);
    } else if (kind == "copyBufferToImage" || kind == "copyImageToBuffer") {
      const std::shared_ptr<BufferState>& buffer = NativeVkBuffer::From(op.Get("buffer"), "buffer");
      const std::shared_ptr<ImageState>& image = NativeVkImage::From(op.Get("image"), "image");
      VkBufferImageCopy region = ImageRegion(env, *image, op);
      if (kind == "copyBufferToImage")
        fn.vkCmdCopyBufferToImage(cb, buffer->buffer, image->image, VK_IMAGE_LAYOUT_GENERAL, 1, &region);
      else
        fn.vkCmdCopyImageToBuffer(cb, image->image, VK_IMAGE_LAYOUT_GENERAL, buffer->buffer, 1, &region);
      state->holds.push_back(buffer);
      state->holds.push_back(image);
    } else if (kind == "dispatch") {
      const std::shared_ptr<BufferState>& buffer = NativeVkBuffer::From(op.Get("buffer"), "buffer");
      VkPipeline pipeline = ShaderPipeline(env, *device, op.Get("shader").ToString());
      HostView push = ToHostView(op.Get("push"), "push");
      if (push.length > kPushBytes) throw Napi::RangeError::New(env, "push constants hold at most 64 bytes");
      Napi::Array groups = op.Get("groups").As<Napi::Array>();
      VkDescriptorSetAllocateInfo allocateSet{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, state->descriptors, 1, &device->setLayout};
      VkDescriptorSet& set = sets[dispatchIndex++];
      VK_CHECK(env, fn, vkAllocateDescriptorSets, device->device, &allocateSet, &set);
      VkDescriptorBufferInfo bufferInfo{buffer->buffer, 0, VK_WHOLE_SIZE};
      VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, 0, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, nullptr, &bufferInfo, nullptr};
      fn.vkUpdateDescriptorSets(device->device, 1, &write, 0, nullptr);
      fn.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
      fn.vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, device->pipelineLayout, 0, 1, &set, 0, nullptr);
      if (push.length) fn.vkCmdPushConstants(cb, device->pipelineLayout, VK_SHADER_STAGE_COMPUTE_BIT, 0, uint32_t(push.length), push.data);
      fn.vkCmdDispatch(cb, uint32_t(ToU64(groups.Get(0u), "groups")), uint32_t(ToU64(groups.Get(1u), "groups")),
                       uint32_t(ToU64(groups.Get(2u), "groups")));
      state->holds.push_back(buffer);
    } else {
      throw Napi::TypeError::New(env, "unknown op " + kind);
    }
  }
  FullBarrier(fn, cb);
  VK_CHECK(env, fn, vkEndCommandBuffer, cb);
  return NativeVkCommands::Wrap(env, std::move(state));
}

void NativeVkCommands::Init(Napi::Env env, Napi::Object exports) { Register(env, exports, {}); }

void InitCommands(Napi::Env env, Napi::Object exports) { NativeVkCommands::Init(env, exports); }

}  // namespace vk
}  // namespace ocl
