// A video decoder's Vulkan objects (decoder_state.h): the ring of bitstream
// buffers and command buffers, the session and its DPB, made and destroyed;
// its fence waiter (a thread of the decoder's own,
// native/vulkan/fence_waiter.h); and the environment's teardown with frames
// in flight.
#include <algorithm>

#include "video/decoder_state.h"

namespace ocl {
namespace vk {

SessionState::~SessionState() {
  if (!video || video->device->LeftToProcessEnd()) return;
  DeviceState& d = *video->device;
  if (view) video->fn.vkDestroyImageView(d.device, view, nullptr);
  if (dpb) d.fn.vkDestroyImage(d.device, dpb, nullptr);
  if (dpbMemory) d.fn.vkFreeMemory(d.device, dpbMemory, nullptr);
  if (session) video->fn.vkDestroyVideoSessionKHR(d.device, session, nullptr);
  for (VkDeviceMemory m : memory) d.fn.vkFreeMemory(d.device, m, nullptr);
}

ParamsState::~ParamsState() {
  if (!session || !params || session->video->device->LeftToProcessEnd()) return;
  session->video->fn.vkDestroyVideoSessionParametersKHR(session->video->device->device, params, nullptr);
}

namespace {
void CloseHook(void* decoder) { static_cast<DecoderState*>(decoder)->Close(); }
}  // namespace

void DecoderState::Start(Napi::Env napiEnv) {
  env = napiEnv;
  waiter = FenceWaiter::For(napiEnv, "opencl-interop video decode", "ocl-vk-decode", weak_from_this(), video->device->device,
                            video->device->fn.vkWaitForFences);
  napi_add_env_cleanup_hook(env, CloseHook, this);
}

void DecoderState::Close() {
  if (closed) return;
  closed = true;
  if (waiter) waiter->Stop();
  if (inFlight.empty()) return;
  // The environment is going away with frames in flight: give them a moment (none when the process is ending),
  // then leave the Vulkan objects to the process's end.
  std::vector<VkFence> fences;
  for (auto& f : inFlight) fences.push_back(f.fence);
  const DeviceState& d = *video->device;
  VkResult result = ProcessEnding() ? VK_TIMEOUT : d.fn.vkWaitForFences(d.device, uint32_t(fences.size()), fences.data(), 1, 2000ull * 1000 * 1000);
  if (result != VK_SUCCESS) abandoned = true;
  for (auto& f : inFlight) {
    if (!abandoned) freeFences.push_back(f.fence);
    f.deferred.reset();  // never settled: its environment is gone
  }
  if (abandoned) {
    // What the frames use (session, DPB, output buffers, this state) may still be in use by the device: never freed.
    new std::deque<DecodeInFlight>(std::move(inFlight));
    inFlight.clear();
    return;
  }
  // The frames may hold the last references to this state: they go after this function is done with it.
  std::shared_ptr<DecoderState> self = shared_from_this();
  auto gone = std::move(inFlight);
  inFlight.clear();
  gone.clear();
}

DecoderState::~DecoderState() {
  if (env && !closed) napi_remove_env_cleanup_hook(env, CloseHook, this);
  if (waiter) waiter->Stop();
  {
    if (LeftToProcessEnd()) return;
    DeviceState& d = *video->device;
    for (VkFence fence : freeFences) d.fn.vkDestroyFence(d.device, fence, nullptr);
    for (RingSlot& slot : ring) {
      if (slot.buffer) d.fn.vkDestroyBuffer(d.device, slot.buffer, nullptr);
      if (slot.memory) d.fn.vkFreeMemory(d.device, slot.memory, nullptr);
    }
    if (pool) video->fn.vkDestroyCommandPool(d.device, pool, nullptr);
  }
}

// (Re)makes a ring slot's bitstream buffer to hold at least `needed` bytes.
void GrowBitstream(Napi::Env env, DecoderState& state, RingSlot& slot, VkDeviceSize needed) {
  if (slot.size >= needed) return;
  DeviceState& d = *state.video->device;
  if (slot.buffer) d.fn.vkDestroyBuffer(d.device, slot.buffer, nullptr);
  if (slot.memory) d.fn.vkFreeMemory(d.device, slot.memory, nullptr);
  slot.buffer = 0;
  slot.memory = 0;
  slot.mapped = nullptr;
  slot.size = 0;
  VkDeviceSize size =
      AlignUp(std::max<VkDeviceSize>(needed + needed / 2, 1 << 20), std::max<VkDeviceSize>(state.caps.minBitstreamBufferSizeAlignment, 4096));
  VkBufferCreateInfo create{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,     &state.profile.list,       0, size,
                            VK_BUFFER_USAGE_VIDEO_DECODE_SRC_BIT_KHR, VK_SHARING_MODE_EXCLUSIVE, 0, nullptr};
  VK_CHECK(env, d.fn, vkCreateBuffer, d.device, &create, nullptr, &slot.buffer);
  VkMemoryRequirements2 requirements{};
  requirements.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2;
  VkBufferMemoryRequirementsInfo2 query{VK_STRUCTURE_TYPE_BUFFER_MEMORY_REQUIREMENTS_INFO_2, nullptr, slot.buffer};
  d.fn.vkGetBufferMemoryRequirements2(d.device, &query, &requirements);
  constexpr VkFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  slot.memory = AllocateVideoMemory(env, d, requirements.memoryRequirements, host, host);
  VK_CHECK(env, d.fn, vkBindBufferMemory, d.device, slot.buffer, slot.memory, 0);
  VK_CHECK(env, d.fn, vkMapMemory, d.device, slot.memory, 0, VK_WHOLE_SIZE, 0, &slot.mapped);
  slot.size = size;
}

Napi::Value MakeDecoder(Napi::Env env, const VideoDeviceRef& video, uint32_t queueIndex, VideoCodec codec, int32_t profileIdc, uint32_t ringSize) {
  auto state = std::make_shared<DecoderState>();
  state->video = video;
  state->queueIndex = queueIndex;
  state->profile.Set(codec, profileIdc);
  VkVideoDecodeH264CapabilitiesKHR h264{};
  h264.sType = VK_STRUCTURE_TYPE_VIDEO_DECODE_H264_CAPABILITIES_KHR;
  VkVideoDecodeH265CapabilitiesKHR h265{};
  h265.sType = VK_STRUCTURE_TYPE_VIDEO_DECODE_H265_CAPABILITIES_KHR;
  state->decodeCaps.sType = VK_STRUCTURE_TYPE_VIDEO_DECODE_CAPABILITIES_KHR;
  state->decodeCaps.pNext = codec == VideoCodec::kH265 ? static_cast<void*>(&h265) : static_cast<void*>(&h264);
  state->caps.sType = VK_STRUCTURE_TYPE_VIDEO_CAPABILITIES_KHR;
  state->caps.pNext = &state->decodeCaps;
  DeviceState& d = *video->device;
  VK_CHECK(env, video->ifn, vkGetPhysicalDeviceVideoCapabilitiesKHR, d.physical, &state->profile.profile, &state->caps);
  state->caps.pNext = nullptr;
  state->decodeCaps.pNext = nullptr;
  VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, nullptr, VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                               video->decodeFamily};
  VK_CHECK(env, video->fn, vkCreateCommandPool, d.device, &pool, nullptr, &state->pool);
  state->ring.resize(ringSize);
  for (RingSlot& slot : state->ring) {
    VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, state->pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    VK_CHECK(env, d.fn, vkAllocateCommandBuffers, d.device, &allocate, &slot.cb);
  }
  state->Start(env);
  return NativeVideoDecoder::Wrap(env, std::move(state));
}

// A new session and DPB (configure()).
std::shared_ptr<SessionState> MakeSession(Napi::Env env, const DecoderState& state, uint32_t width, uint32_t height, uint32_t slots,
                                          uint32_t maxActiveReferences, VkFormat format) {
  const VideoDeviceRef& video = state.video;
  DeviceState& d = *video->device;
  auto session = std::make_shared<SessionState>();
  session->video = video;
  session->width = width;
  session->height = height;
  session->slots = slots;
  session->format = format;
  const VkVideoCapabilitiesKHR& caps = state.caps;
  VkVideoSessionCreateInfoKHR create{};
  create.sType = VK_STRUCTURE_TYPE_VIDEO_SESSION_CREATE_INFO_KHR;
  create.queueFamilyIndex = video->decodeFamily;
  create.pVideoProfile = &state.profile.profile;
  create.pictureFormat = session->format;
  create.maxCodedExtent = {session->width, session->height};
  create.referencePictureFormat = session->format;
  create.maxDpbSlots = session->slots;
  create.maxActiveReferencePictures = maxActiveReferences;
  create.pStdHeaderVersion = &caps.stdHeaderVersion;
  VK_CHECK(env, video->fn, vkCreateVideoSessionKHR, d.device, &create, nullptr, &session->session);
  uint32_t count = 0;
  VK_CHECK(env, video->fn, vkGetVideoSessionMemoryRequirementsKHR, d.device, session->session, &count, nullptr);
  std::vector<VkVideoSessionMemoryRequirementsKHR> requirements(count);
  for (auto& r : requirements) r.sType = VK_STRUCTURE_TYPE_VIDEO_SESSION_MEMORY_REQUIREMENTS_KHR;
  VK_CHECK(env, video->fn, vkGetVideoSessionMemoryRequirementsKHR, d.device, session->session, &count, requirements.data());
  std::vector<VkBindVideoSessionMemoryInfoKHR> binds;
  for (uint32_t i = 0; i < count; ++i) {
    VkDeviceMemory memory = AllocateVideoMemory(env, d, requirements[i].memoryRequirements, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    session->memory.push_back(memory);
    binds.push_back({VK_STRUCTURE_TYPE_BIND_VIDEO_SESSION_MEMORY_INFO_KHR, nullptr, requirements[i].memoryBindIndex, memory, 0,
                     requirements[i].memoryRequirements.size});
  }
  if (count) VK_CHECK(env, video->fn, vkBindVideoSessionMemoryKHR, d.device, session->session, count, binds.data());

  VkImageCreateInfo image{};
  image.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
  image.pNext = &state.profile.list;
  image.imageType = VK_IMAGE_TYPE_2D;
  image.format = session->format;
  image.extent = {session->width, session->height, 1};
  image.mipLevels = 1;
  image.arrayLayers = session->slots;
  image.samples = VK_SAMPLE_COUNT_1_BIT;
  image.tiling = VK_IMAGE_TILING_OPTIMAL;
  image.usage = VK_IMAGE_USAGE_VIDEO_DECODE_DPB_BIT_KHR | VK_IMAGE_USAGE_VIDEO_DECODE_DST_BIT_KHR | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  image.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  image.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  VK_CHECK(env, d.fn, vkCreateImage, d.device, &image, nullptr, &session->dpb);
  VkMemoryRequirements2 imageRequirements{};
  imageRequirements.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2;
  VkImageMemoryRequirementsInfo2 query{VK_STRUCTURE_TYPE_IMAGE_MEMORY_REQUIREMENTS_INFO_2, nullptr, session->dpb};
  d.fn.vkGetImageMemoryRequirements2(d.device, &query, &imageRequirements);
  session->dpbMemory = AllocateVideoMemory(env, d, imageRequirements.memoryRequirements, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  VK_CHECK(env, d.fn, vkBindImageMemory, d.device, session->dpb, session->dpbMemory, 0);
  VkImageViewUsageCreateInfo viewUsage{VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO, nullptr,
                                       VK_IMAGE_USAGE_VIDEO_DECODE_DPB_BIT_KHR | VK_IMAGE_USAGE_VIDEO_DECODE_DST_BIT_KHR};
  VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                             &viewUsage,
                             0,
                             session->dpb,
                             VK_IMAGE_VIEW_TYPE_2D_ARRAY,
                             session->format,
                             {0, 0, 0, 0},
                             {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, session->slots}};
  VK_CHECK(env, video->fn, vkCreateImageView, d.device, &view, nullptr, &session->view);
  return session;
}

}  // namespace vk
}  // namespace ocl
