// Recorded command sequences: recorded once, submitted many times
// (VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT).
//
// Barriers, no heavier than the operations need (Vulkan spec, "Synchronization
// and Cache Control"):
// - between operations, one where an operation meets an earlier one's writes
//   (read or write after write: the writes' stage and access -> this
//   operation's) or writes what an earlier one read (an execution dependency);
//   tracked per buffer and image, with the stages and accesses of the actual
//   commands (transfer, compute shader);
// - first, if queueOrdered: a barrier from the transfer and compute work
//   submitted earlier on the queue (submission order alone orders nothing);
//   its source stages also hold the submission's semaphore wait stage, so the
//   wait chains through it;
// - exported buffers and images are acquired from VK_QUEUE_FAMILY_EXTERNAL
//   first and released to it last (queue family ownership transfer, the rule
//   for memory another API also uses; images stay in VK_IMAGE_LAYOUT_GENERAL).
//   A release is where a driver makes its own view of the memory (caches,
//   compression) consistent for the other API.
// Nothing else at the end: a semaphore signal's first access scope is every
// memory access the device performed for the batch, so what the sequence
// wrote is available to whoever waits on it (OpenCL through an imported
// semaphore); a wait makes it visible to the waiting batch's wait stages
// ("Semaphore Signaling", "Semaphore Waiting"). Host reads go through
// VulkanBuffer.read(), whose own barrier orders them.
#include <algorithm>
#include <map>

#include "vulkan/module.h"

namespace ocl {
namespace vk {

const napi_type_tag NativeVkCommands::kTypeTag = {0x94d0e6b13f7a2c58ULL, 0x1be8c5a703f94d26ULL};

CommandsState::~CommandsState() {
  if (!device || device->LeftToProcessEnd()) return;
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

namespace {

// Writes not yet made visible everywhere, and reads a later write must wait for, per byte range.
struct PendingWrite {
  VkDeviceSize begin, end;
  VkFlags stage, access;
  VkFlags visibleStages = 0, visibleAccess = 0;  // where a barrier already made it visible
};
struct PendingRead {
  VkDeviceSize begin, end;
  VkFlags stage;
};
struct Track {
  std::vector<PendingWrite> writes;
  std::vector<PendingRead> reads;
  VkFlags accessInSequence = 0;       // every access of the sequence (ownership barriers)
  VkFlags writeAccessInSequence = 0;  // every write of the sequence (its release)
  bool image = false;
  VkBuffer buffer = 0;
  VkImage imageHandle = 0;
  VkFlags aspects = 0;
  bool exported = false;
};

// A range of a buffer (images: the whole image), used by one operation.
struct Use {
  ResourceState* resource;
  VkDeviceSize begin, end;
  VkFlags access;
  bool writes;
};

bool Overlap(VkDeviceSize b1, VkDeviceSize e1, VkDeviceSize b2, VkDeviceSize e2) { return b1 < e2 && b2 < e1; }

constexpr VkFlags kWrites = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT;
constexpr VkFlags kRecordedStages = VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;

}  // namespace

// record(ops: [{ op: 'fill' | 'copy' | 'copyBufferToImage' | 'copyImageToBuffer' | 'dispatch', ... }], queueOrdered: boolean)
//   -> NativeVkCommands
Napi::Value NativeVkDevice::Record(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const DeviceRef& device = Live(env);
  const DeviceApi& fn = device->fn;
  if (!info[0].IsArray()) throw Napi::TypeError::New(env, "ops must be an array");
  Napi::Array ops = info[0].As<Napi::Array>();
  bool queueOrdered = !info[1].IsBoolean() || info[1].As<Napi::Boolean>().Value();
  auto state = std::make_shared<CommandsState>();
  state->device = device;
  uint32_t count = ops.Length();
  std::vector<Napi::Object> list;
  std::vector<std::string> kinds;
  uint32_t dispatches = 0;
  for (uint32_t i = 0; i < count; ++i) {
    Napi::Value op = ops.Get(i);
    if (!op.IsObject()) throw Napi::TypeError::New(env, "ops[" + std::to_string(i) + "] must be an object");
    list.push_back(op.As<Napi::Object>());
    kinds.push_back(list.back().Get("op").ToString().Utf8Value());
    if (kinds.back() == "dispatch") ++dispatches;
  }

  // The resources each operation uses, how, and at which stage.
  std::map<ResourceState*, Track> tracks;
  std::vector<std::vector<Use>> uses(count);
  std::vector<VkFlags> stages(count, VK_PIPELINE_STAGE_TRANSFER_BIT);
  auto useBuffer = [&](uint32_t i, const std::shared_ptr<BufferState>& b, VkFlags access, VkDeviceSize begin, VkDeviceSize end) {
    Track& t = tracks[b.get()];
    t.buffer = b->buffer;
    t.exported = b->exportTypes != 0;
    uses[i].push_back({b.get(), begin, end, access, (access & kWrites) != 0});
    state->holds.push_back(b);
  };
  auto useImage = [&](uint32_t i, const std::shared_ptr<ImageState>& img, VkFlags access) {
    Track& t = tracks[img.get()];
    t.image = true;
    t.imageHandle = img->image;
    for (const PlaneLayout& p : img->planes) t.aspects |= p.aspect;
    t.exported = img->exportTypes != 0;
    uses[i].push_back({img.get(), 0, VK_WHOLE_SIZE, access, (access & kWrites) != 0});
    state->holds.push_back(img);
  };
  for (uint32_t i = 0; i < count; ++i) {
    const Napi::Object& op = list[i];
    const std::string& kind = kinds[i];
    if (kind == "fill") {
      VkDeviceSize offset = U64(op, "offset");
      useBuffer(i, NativeVkBuffer::From(op.Get("buffer"), "buffer"), VK_ACCESS_TRANSFER_WRITE_BIT, offset, offset + U64(op, "size"));
    } else if (kind == "copy") {
      VkDeviceSize size = U64(op, "size"), srcOffset = U64(op, "srcOffset"), dstOffset = U64(op, "dstOffset");
      useBuffer(i, NativeVkBuffer::From(op.Get("src"), "src"), VK_ACCESS_TRANSFER_READ_BIT, srcOffset, srcOffset + size);
      useBuffer(i, NativeVkBuffer::From(op.Get("dst"), "dst"), VK_ACCESS_TRANSFER_WRITE_BIT, dstOffset, dstOffset + size);
    } else if (kind == "copyBufferToImage" || kind == "copyImageToBuffer") {
      bool toImage = kind == "copyBufferToImage";
      useBuffer(i, NativeVkBuffer::From(op.Get("buffer"), "buffer"), toImage ? VK_ACCESS_TRANSFER_READ_BIT : VK_ACCESS_TRANSFER_WRITE_BIT,
                U64(op, "bufferOffset"), VK_WHOLE_SIZE);
      useImage(i, NativeVkImage::From(op.Get("image"), "image"), toImage ? VK_ACCESS_TRANSFER_WRITE_BIT : VK_ACCESS_TRANSFER_READ_BIT);
    } else if (kind == "dispatch") {
      stages[i] = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
      useBuffer(i, NativeVkBuffer::From(op.Get("buffer"), "buffer"), VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT, 0, VK_WHOLE_SIZE);
    } else {
      throw Napi::TypeError::New(env, "unknown op " + kind);
    }
  }
  VkFlags sequenceStages = 0, sequenceAccess = 0;
  for (uint32_t i = 0; i < count; ++i) {
    sequenceStages |= stages[i];
    for (const Use& u : uses[i]) {
      Track& t = tracks[u.resource];
      t.accessInSequence |= u.access;
      sequenceAccess |= u.access;
      if (u.writes) t.writeAccessInSequence |= u.access & kWrites;
    }
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

  // Ownership barriers of the exported resources: acquire (from external) first, release (to external) last.
  auto ownership = [&](bool acquire, std::vector<VkBufferMemoryBarrier>& buffers, std::vector<VkImageMemoryBarrier>& images) {
    for (auto& [resource, t] : tracks) {
      if (!t.exported) continue;
      VkFlags src = acquire ? 0 : t.writeAccessInSequence, dst = acquire ? t.accessInSequence : 0;
      uint32_t from = acquire ? VK_QUEUE_FAMILY_EXTERNAL : device->family, to = acquire ? device->family : VK_QUEUE_FAMILY_EXTERNAL;
      if (t.image)
        images.push_back({VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                          nullptr,
                          src,
                          dst,
                          VK_IMAGE_LAYOUT_GENERAL,
                          VK_IMAGE_LAYOUT_GENERAL,
                          from,
                          to,
                          t.imageHandle,
                          {t.aspects, 0, 1, 0, 1}});
      else buffers.push_back({VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER, nullptr, src, dst, from, to, t.buffer, 0, VK_WHOLE_SIZE});
    }
  };
  if (count) {
    std::vector<VkBufferMemoryBarrier> buffers;
    std::vector<VkImageMemoryBarrier> images;
    ownership(true, buffers, images);
    VkMemoryBarrier earlier{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, kWrites, sequenceAccess};
    if (queueOrdered || !buffers.empty() || !images.empty())
      fn.vkCmdPipelineBarrier(cb, kRecordedStages, sequenceStages, 0, queueOrdered ? 1 : 0, &earlier, uint32_t(buffers.size()), buffers.data(),
                              uint32_t(images.size()), images.data());
  }

  uint32_t dispatchIndex = 0;
  for (uint32_t i = 0; i < count; ++i) {
    // One barrier before the operation if it meets what an earlier one did to the same bytes.
    VkFlags stage = stages[i], srcStages = 0, srcAccess = 0, dstAccess = 0;
    for (const Use& u : uses[i]) {
      Track& t = tracks[u.resource];
      for (const PendingWrite& w : t.writes) {
        if (!Overlap(w.begin, w.end, u.begin, u.end)) continue;
        if ((w.visibleStages & stage) && (w.visibleAccess & u.access) == u.access) continue;
        srcStages |= w.stage;
        srcAccess |= w.access;
        dstAccess |= u.access;
      }
      if (u.writes)
        for (const PendingRead& r : t.reads)
          if (Overlap(r.begin, r.end, u.begin, u.end)) srcStages |= r.stage;
    }
    if (srcStages) {
      VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, srcAccess, dstAccess};
      fn.vkCmdPipelineBarrier(cb, srcStages, stage, 0, srcAccess ? 1 : 0, &barrier, 0, nullptr, 0, nullptr);
    }
    for (const Use& u : uses[i]) {
      Track& t = tracks[u.resource];
      if (srcStages) {
        for (PendingWrite& w : t.writes) {
          if (!Overlap(w.begin, w.end, u.begin, u.end)) continue;
          w.visibleStages |= stage;
          w.visibleAccess |= dstAccess;
        }
      }
      if (u.writes) {  // what it overwrites whole is ordered before it now (the barrier above, or one before)
        auto inside = [&](VkDeviceSize begin, VkDeviceSize end) { return u.begin <= begin && end <= u.end; };
        t.writes.erase(std::remove_if(t.writes.begin(), t.writes.end(), [&](const PendingWrite& w) { return inside(w.begin, w.end); }),
                       t.writes.end());
        t.reads.erase(std::remove_if(t.reads.begin(), t.reads.end(), [&](const PendingRead& r) { return inside(r.begin, r.end); }), t.reads.end());
        t.writes.push_back({u.begin, u.end, stage, u.access & kWrites});
      }
      if (u.access & ~kWrites) t.reads.push_back({u.begin, u.end, stage});
    }

    const Napi::Object& op = list[i];
    const std::string& kind = kinds[i];
    if (kind == "fill") {
      const std::shared_ptr<BufferState>& buffer = NativeVkBuffer::From(op.Get("buffer"), "buffer");
      fn.vkCmdFillBuffer(cb, buffer->buffer, U64(op, "offset"), U64(op, "size"), uint32_t(U64(op, "value")));
    } else if (kind == "copy") {
      const std::shared_ptr<BufferState>& src = NativeVkBuffer::From(op.Get("src"), "src");
      const std::shared_ptr<BufferState>& dst = NativeVkBuffer::From(op.Get("dst"), "dst");
      VkBufferCopy region{U64(op, "srcOffset"), U64(op, "dstOffset"), U64(op, "size")};
      fn.vkCmdCopyBuffer(cb, src->buffer, dst->buffer, 1, &region);
    } else if (kind == "copyBufferToImage" || kind == "copyImageToBuffer") {
      const std::shared_ptr<BufferState>& buffer = NativeVkBuffer::From(op.Get("buffer"), "buffer");
      const std::shared_ptr<ImageState>& image = NativeVkImage::From(op.Get("image"), "image");
      VkBufferImageCopy region = ImageRegion(env, *image, op);
      if (kind == "copyBufferToImage") fn.vkCmdCopyBufferToImage(cb, buffer->buffer, image->image, VK_IMAGE_LAYOUT_GENERAL, 1, &region);
      else fn.vkCmdCopyImageToBuffer(cb, image->image, VK_IMAGE_LAYOUT_GENERAL, buffer->buffer, 1, &region);
    } else {
      const std::shared_ptr<BufferState>& buffer = NativeVkBuffer::From(op.Get("buffer"), "buffer");
      VkPipeline pipeline = ShaderPipeline(env, *device, op.Get("shader").ToString());
      HostView push = ToHostView(op.Get("push"), "push");
      if (push.length > kPushBytes) throw Napi::RangeError::New(env, "push constants hold at most 64 bytes");
      Napi::Array groups = op.Get("groups").As<Napi::Array>();
      VkDescriptorSetAllocateInfo allocateSet{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, state->descriptors, 1, &device->setLayout};
      VkDescriptorSet& set = sets[dispatchIndex++];
      VK_CHECK(env, fn, vkAllocateDescriptorSets, device->device, &allocateSet, &set);
      VkDescriptorBufferInfo bufferInfo{buffer->buffer, 0, VK_WHOLE_SIZE};
      VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set,         0,      0, 1,
                                 VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,      nullptr, &bufferInfo, nullptr};
      fn.vkUpdateDescriptorSets(device->device, 1, &write, 0, nullptr);
      fn.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
      fn.vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, device->pipelineLayout, 0, 1, &set, 0, nullptr);
      if (push.length) fn.vkCmdPushConstants(cb, device->pipelineLayout, VK_SHADER_STAGE_COMPUTE_BIT, 0, uint32_t(push.length), push.data);
      fn.vkCmdDispatch(cb, uint32_t(ToU64(groups.Get(0u), "groups")), uint32_t(ToU64(groups.Get(1u), "groups")),
                       uint32_t(ToU64(groups.Get(2u), "groups")));
    }
  }
  {
    std::vector<VkBufferMemoryBarrier> buffers;
    std::vector<VkImageMemoryBarrier> images;
    ownership(false, buffers, images);
    if (!buffers.empty() || !images.empty())
      fn.vkCmdPipelineBarrier(cb, sequenceStages, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0, nullptr, uint32_t(buffers.size()), buffers.data(),
                              uint32_t(images.size()), images.data());
  }
  VK_CHECK(env, fn, vkEndCommandBuffer, cb);
  state->stages = sequenceStages;
  return NativeVkCommands::Wrap(env, std::move(state));
}

void NativeVkCommands::Init(Napi::Env env, Napi::Object exports) { Register(env, exports, {}); }

void InitCommands(Napi::Env env, Napi::Object exports) { NativeVkCommands::Init(env, exports); }

}  // namespace vk
}  // namespace ocl
