// A video decoder: one video session with its DPB (one image, a layer per
// DPB slot; DPB and output pictures coincide), the session parameters of the
// stream's parameter sets, and a ring of bitstream buffers and command
// buffers, one per frame in flight.
//
// Per frame, one command buffer on the decode queue:
//   barrier      everything earlier on the queue (earlier decodes and copies
//                of the DPB) before this frame; the output buffer acquired
//                from VK_QUEUE_FAMILY_EXTERNAL (OpenCL read it last)
//   decode       begin coding (the references, and the setup slot bound with
//                slotIndex -1), a reset on a fresh session, the decode into
//                the setup slot, end coding
//   copy out     the setup layer DPB -> TRANSFER_SRC, its cropped rectangle
//                copied into the output buffer (plane 0 rows at yOffset,
//                plane 1 at uvOffset), back to DPB; the buffer released to
//                VK_QUEUE_FAMILY_EXTERNAL
// Barriers use ALL_COMMANDS and MEMORY_* (the video stages and accesses exist
// only in synchronization2's 64-bit masks; ALL_COMMANDS covers them).
//
// Queues: each submission names its decode queue (lib/video/ decides). Where
// the device has timeline semaphores, every submission signals the decoder's
// timeline semaphore with its number (1, 2, 3, ...) and one that goes to
// another queue than the one before it waits for the one before it (value
// n - 1) at ALL_COMMANDS: a stream's frames stay in decode order on any
// queue, and a timeline value is never re-signalled nor waited on before its
// signal is submitted. Without them a frame goes to another queue only when
// nothing of the decoder's is in flight.
//
// Completion: the submission carries a fence of the decoder's own, which a
// thread of the decoder's own watches (its frames end in submission order,
// each after the one before it) and reports to the JavaScript thread, which
// settles the frame's promise.
#include <algorithm>
#include <cstring>

#include "thread_name.h"
#include "video/module.h"

namespace ocl {
namespace vk {

const napi_type_tag NativeVideoDecoder::kTypeTag = {0x1d7e4a93c2f05b68ULL, 0x8f2b61d4e0a7c395ULL};

struct SessionState {
  VideoDeviceRef video;
  VkVideoSessionKHR session = 0;
  std::vector<VkDeviceMemory> memory;
  VkImage dpb = 0;
  VkDeviceMemory dpbMemory = 0;
  VkImageView view = 0;
  VkFormat format = 0;
  uint32_t width = 0, height = 0, slots = 0;
  bool fresh = true;  // the next decode resets the session and moves the DPB layers to the DPB layout
  ~SessionState() {
    if (!video || video->device->LeftToProcessEnd()) return;
    DeviceState& d = *video->device;
    if (view) video->fn.vkDestroyImageView(d.device, view, nullptr);
    if (dpb) d.fn.vkDestroyImage(d.device, dpb, nullptr);
    if (dpbMemory) d.fn.vkFreeMemory(d.device, dpbMemory, nullptr);
    if (session) video->fn.vkDestroyVideoSessionKHR(d.device, session, nullptr);
    for (VkDeviceMemory m : memory) d.fn.vkFreeMemory(d.device, m, nullptr);
  }
};

struct ParamsState {
  std::shared_ptr<SessionState> session;
  VkVideoSessionParametersKHR params = 0;
  ~ParamsState() {
    if (!session || !params || session->video->device->LeftToProcessEnd()) return;
    session->video->fn.vkDestroyVideoSessionParametersKHR(session->video->device->device, params, nullptr);
  }
};

struct RingSlot {
  VkCommandBuffer cb = nullptr;
  VkBuffer buffer = 0;
  VkDeviceMemory memory = 0;
  void* mapped = nullptr;
  VkDeviceSize size = 0;
  bool busy = false;
};

class DecodeWaiter;

// A frame in flight: what its promise settles and what it holds until then.
struct DecodeInFlight {
  uint64_t id = 0;
  VkFence fence = 0;
  uint32_t ring = 0;
  std::optional<Napi::Promise::Deferred> deferred;
  std::vector<std::shared_ptr<void>> holds;
};

struct DecoderState : std::enable_shared_from_this<DecoderState> {
  VideoDeviceRef video;
  uint32_t queueIndex = 0;   // the queue a submission that names none goes to
  int64_t lastQueue = -1;    // the queue of the last submission
  VkSemaphore timeline = 0;  // signalled with each submission's number (where the device has timeline semaphores)
  uint64_t submitted = 0;    // submissions so far: the timeline value of the last one
  VideoProfile profile;
  VkVideoCapabilitiesKHR caps{};
  VkVideoDecodeCapabilitiesKHR decodeCaps{};
  VkCommandPool pool = 0;
  std::vector<RingSlot> ring;
  std::shared_ptr<SessionState> session;
  std::shared_ptr<ParamsState> params;
  bool broken = false;  // a decode failed on the device: the DPB is out of step
  uint64_t decoded = 0;
  // Completion (JS thread only, but for the waiter's own queue).
  napi_env env = nullptr;
  std::unique_ptr<DecodeWaiter> waiter;
  std::deque<DecodeInFlight> inFlight;
  std::vector<VkFence> freeFences;
  uint64_t nextId = 1;
  bool closed = false;
  bool abandoned = false;  // the environment went away with frames in flight: Vulkan objects are left to the process's end
  bool LeftToProcessEnd() const { return abandoned || !video || video->device->LeftToProcessEnd(); }
  void Start(Napi::Env env);
  // `waited`: the fence wait's outcome (its result, and the call's name for the error).
  void Complete(Napi::Env env, uint64_t id, const VkOutcome& waited);
  void Close();
  ~DecoderState();
};

namespace {
void CloseHook(void* decoder) { static_cast<DecoderState*>(decoder)->Close(); }
}  // namespace

// Watches one decoder's fences in order and reports each to the JavaScript thread.
class DecodeWaiter {
 public:
  DecodeWaiter(Napi::Env env, std::weak_ptr<DecoderState> owner, VkDevice device, decltype(DeviceApi::vkWaitForFences) wait)
      : owner_(std::move(owner)), device_(device), fn_{wait} {
    tsfn_ = Tsfn::New(env, "opencl-interop video decode", 0, 1);
    tsfn_.Unref(env);
    thread_ = std::thread([this] {
      NameThisThread("ocl-vk-decode");
      Run();
    });
  }
  ~DecodeWaiter() { Stop(); }
  void Watch(uint64_t id, VkFence fence) {
    {
      std::lock_guard<std::mutex> guard(mutex_);
      queue_.emplace_back(id, fence);
    }
    wake_.notify_one();
  }
  void Stop() {
    {
      std::lock_guard<std::mutex> guard(mutex_);
      if (stopped_) return;
      stopped_ = true;
    }
    wake_.notify_one();
    if (thread_.joinable()) thread_.join();
    tsfn_.Release();
  }
  void Hold(Napi::Env env, bool hold) {
    if (hold) tsfn_.Ref(env);
    else tsfn_.Unref(env);
  }

 private:
  struct Done {
    std::weak_ptr<DecoderState> owner;
    uint64_t id;
    VkOutcome waited;
  };
  static void CallJs(Napi::Env env, Napi::Function, void*, Done* done);
  using Tsfn = Napi::TypedThreadSafeFunction<void, Done, CallJs>;
  void Run() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [this] { return stopped_ || !queue_.empty(); });
      if (stopped_) return;
      auto [id, fence] = queue_.front();
      lock.unlock();
      VkOutcome waited = VK_CALL(fn_, vkWaitForFences, device_, 1, &fence, 1, 100ull * 1000 * 1000);  // bounded: Stop() is seen
      lock.lock();
      if (waited.result == VK_TIMEOUT) continue;
      queue_.pop_front();
      if (stopped_) return;
      auto* done = new Done{owner_, id, waited};
      if (tsfn_.NonBlockingCall(done) != napi_ok) delete done;
    }
  }
  std::weak_ptr<DecoderState> owner_;
  VkDevice device_;
  struct {
    decltype(DeviceApi::vkWaitForFences) vkWaitForFences;
  } fn_;  // the one entry point the thread calls, taken from the device's table
  Tsfn tsfn_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::pair<uint64_t, VkFence>> queue_;
  bool stopped_ = false;
};

void DecodeWaiter::CallJs(Napi::Env env, Napi::Function, void*, Done* done) {
  if (env != nullptr && done != nullptr) {
    if (std::shared_ptr<DecoderState> decoder = done->owner.lock()) decoder->Complete(env, done->id, done->waited);
  }
  delete done;
}

void DecoderState::Start(Napi::Env napiEnv) {
  env = napiEnv;
  waiter = std::make_unique<DecodeWaiter>(napiEnv, weak_from_this(), video->device->device, video->device->fn.vkWaitForFences);
  napi_add_env_cleanup_hook(env, CloseHook, this);
}

void DecoderState::Complete(Napi::Env napiEnv, uint64_t id, const VkOutcome& waited) {
  VkResult result = waited.result;
  auto it = std::find_if(inFlight.begin(), inFlight.end(), [id](const DecodeInFlight& f) { return f.id == id; });
  if (it == inFlight.end()) return;
  DecodeInFlight frame = std::move(*it);
  inFlight.erase(it);
  if (inFlight.empty() && waiter) waiter->Hold(napiEnv, false);
  const DeviceState& d = *video->device;
  if (result == VK_SUCCESS) {
    d.fn.vkResetFences(d.device, 1, &frame.fence);
    freeFences.push_back(frame.fence);
  } else {
    d.fn.vkDestroyFence(d.device, frame.fence, nullptr);  // a failed wait (device lost): not reused
    broken = true;
  }
  if (frame.ring < ring.size()) ring[frame.ring].busy = false;
  Napi::HandleScope scope(napiEnv);
  if (!frame.deferred) return;
  if (result == VK_SUCCESS) {
    frame.deferred->Resolve(napiEnv.Undefined());
  } else {
    try {
      ThrowVkError(napiEnv, result, waited.call, "the decode of a frame failed");
    } catch (const Napi::Error& error) {
      frame.deferred->Reject(error.Value());
    }
  }
  // frame.holds go here, on the JavaScript thread (the last may be this decoder's own state).
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
    if (timeline) d.fn.vkDestroySemaphore(d.device, timeline, nullptr);
    for (RingSlot& slot : ring) {
      if (slot.buffer) d.fn.vkDestroyBuffer(d.device, slot.buffer, nullptr);
      if (slot.memory) d.fn.vkFreeMemory(d.device, slot.memory, nullptr);
    }
    if (pool) video->fn.vkDestroyCommandPool(d.device, pool, nullptr);
  }
}

namespace {

// Timeline semaphores (core in Vulkan 1.2, VK_KHR_timeline_semaphore before), as vulkan_core.h declares them.
constexpr VkStructureType kSemaphoreTypeCreateInfo = 1000207002;
constexpr VkStructureType kTimelineSemaphoreSubmitInfo = 1000207003;
constexpr int32_t kSemaphoreTypeTimeline = 1;
struct VkSemaphoreTypeCreateInfo {
  VkStructureType sType;
  const void* pNext;
  int32_t semaphoreType;
  uint64_t initialValue;
};
struct VkTimelineSemaphoreSubmitInfo {
  VkStructureType sType;
  const void* pNext;
  uint32_t waitSemaphoreValueCount;
  const uint64_t* pWaitSemaphoreValues;
  uint32_t signalSemaphoreValueCount;
  const uint64_t* pSignalSemaphoreValues;
};

VkDeviceSize AlignUp(VkDeviceSize value, VkDeviceSize alignment) {
  if (alignment <= 1) return value;
  return (value + alignment - 1) / alignment * alignment;
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

}  // namespace

Napi::Value MakeDecoder(Napi::Env env, const VideoDeviceRef& video, uint32_t queueIndex, int32_t profileIdc, uint32_t ringSize) {
  auto state = std::make_shared<DecoderState>();
  state->video = video;
  state->queueIndex = queueIndex;
  state->profile.Set(profileIdc);
  VkVideoDecodeH264CapabilitiesKHR h264{};
  h264.sType = VK_STRUCTURE_TYPE_VIDEO_DECODE_H264_CAPABILITIES_KHR;
  state->decodeCaps.sType = VK_STRUCTURE_TYPE_VIDEO_DECODE_CAPABILITIES_KHR;
  state->decodeCaps.pNext = &h264;
  state->caps.sType = VK_STRUCTURE_TYPE_VIDEO_CAPABILITIES_KHR;
  state->caps.pNext = &state->decodeCaps;
  DeviceState& d = *video->device;
  VK_CHECK(env, video->ifn, vkGetPhysicalDeviceVideoCapabilitiesKHR, d.physical, &state->profile.profile, &state->caps);
  state->caps.pNext = nullptr;
  state->decodeCaps.pNext = nullptr;
  VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, nullptr, VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                               video->decodeFamily};
  VK_CHECK(env, video->fn, vkCreateCommandPool, d.device, &pool, nullptr, &state->pool);
  if (video->timeline) {
    VkSemaphoreTypeCreateInfo type{kSemaphoreTypeCreateInfo, nullptr, kSemaphoreTypeTimeline, 0};
    VkSemaphoreCreateInfo create{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, &type, 0};
    VK_CHECK(env, d.fn, vkCreateSemaphore, d.device, &create, nullptr, &state->timeline);
  }
  state->ring.resize(ringSize);
  for (RingSlot& slot : state->ring) {
    VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, state->pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    VK_CHECK(env, d.fn, vkAllocateCommandBuffers, d.device, &allocate, &slot.cb);
  }
  state->Start(env);
  return NativeVideoDecoder::Wrap(env, std::move(state));
}

// configure(width, height, slots, maxActiveReferences, format): a new session and DPB (the frames in flight keep the old ones).
Napi::Value NativeVideoDecoder::Configure(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const std::shared_ptr<DecoderState>& state = Live(env);
  const VideoDeviceRef& video = state->video;
  DeviceState& d = *video->device;
  auto session = std::make_shared<SessionState>();
  session->video = video;
  session->width = uint32_t(ToU64(info[0], "width"));
  session->height = uint32_t(ToU64(info[1], "height"));
  session->slots = uint32_t(ToU64(info[2], "slots"));
  uint32_t active = uint32_t(ToU64(info[3], "maxActiveReferences"));
  session->format = VkFormat(ToU64(info[4], "format"));
  const VkVideoCapabilitiesKHR& caps = state->caps;
  if (session->width < caps.minCodedExtent.width || session->height < caps.minCodedExtent.height || session->width > caps.maxCodedExtent.width ||
      session->height > caps.maxCodedExtent.height)
    throw Napi::RangeError::New(env, "the coded size is outside the device's range");
  if (session->slots == 0 || session->slots > caps.maxDpbSlots || active > caps.maxActiveReferencePictures)
    throw Napi::RangeError::New(env, "slots or maxActiveReferences past the device's limits");
  VkVideoSessionCreateInfoKHR create{};
  create.sType = VK_STRUCTURE_TYPE_VIDEO_SESSION_CREATE_INFO_KHR;
  create.queueFamilyIndex = video->decodeFamily;
  create.pVideoProfile = &state->profile.profile;
  create.pictureFormat = session->format;
  create.maxCodedExtent = {session->width, session->height};
  create.referencePictureFormat = session->format;
  create.maxDpbSlots = session->slots;
  create.maxActiveReferencePictures = active;
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
  image.pNext = &state->profile.list;
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
  state->session = std::move(session);
  state->params.reset();
  return env.Undefined();
}

// setParameters(sps: object[], pps: object[]): new session parameters holding exactly these sets.
Napi::Value NativeVideoDecoder::SetParameters(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const std::shared_ptr<DecoderState>& state = Live(env);
  if (!state->session) throw Napi::Error::New(env, "the decoder has no session yet (configure first)");
  H264ParameterSets sets;
  ReadH264ParameterSets(env, info[0], info[1], sets);
  VkVideoDecodeH264SessionParametersAddInfoKHR add{VK_STRUCTURE_TYPE_VIDEO_DECODE_H264_SESSION_PARAMETERS_ADD_INFO_KHR,
                                                   nullptr,
                                                   uint32_t(sets.sps.size()),
                                                   sets.sps.data(),
                                                   uint32_t(sets.pps.size()),
                                                   sets.pps.data()};
  VkVideoDecodeH264SessionParametersCreateInfoKHR h264{VK_STRUCTURE_TYPE_VIDEO_DECODE_H264_SESSION_PARAMETERS_CREATE_INFO_KHR, nullptr,
                                                       uint32_t(std::max<size_t>(sets.sps.size(), 1)), uint32_t(std::max<size_t>(sets.pps.size(), 1)),
                                                       &add};
  VkVideoSessionParametersCreateInfoKHR create{VK_STRUCTURE_TYPE_VIDEO_SESSION_PARAMETERS_CREATE_INFO_KHR, &h264, 0, 0, state->session->session};
  auto params = std::make_shared<ParamsState>();
  params->session = state->session;
  VK_CHECK(env, state->video->fn, vkCreateVideoSessionParametersKHR, state->video->device->device, &create, nullptr, &params->params);
  state->params = std::move(params);
  return env.Undefined();
}

namespace {

// The per-frame descriptor lib/video/decoder-native.ts writes (Int32Array).
enum Desc : uint32_t {
  kSetupSlot = 0,
  kFlags,  // bit 0 is_intra, 1 IdrPicFlag, 2 is_reference, 3 current marked long-term
  kSpsId,
  kPpsId,
  kFrameNum,
  kIdrPicId,
  kPocTop,
  kPocBottom,
  kCropX,
  kCropY,
  kCropWidth,
  kCropHeight,
  kRefCount,
  kHeader,
  kRefInts = 5,  // slot, FrameNum (LongTermFrameIdx when long-term), flags (bit 0 long-term, 1 non-existing), PicOrderCnt[2]
};
constexpr uint32_t kMaxRefs = 32;

void Semaphores(const Napi::Value& value, const char* what, std::vector<VkSemaphore>& out, std::vector<std::shared_ptr<void>>& holds,
                const DeviceRef& device) {
  if (value.IsUndefined() || value.IsNull()) return;
  if (!value.IsArray()) throw Napi::TypeError::New(value.Env(), std::string(what) + " must be an array of NativeVkSemaphore");
  Napi::Array array = value.As<Napi::Array>();
  if (array.Length() > 8) throw Napi::RangeError::New(value.Env(), std::string(what) + " holds more than 8 semaphores");
  for (uint32_t i = 0; i < array.Length(); ++i) {
    const std::shared_ptr<SemaphoreState>& s = NativeVkSemaphore::From(array.Get(i), what);
    if (s->device != device) throw Napi::TypeError::New(value.Env(), std::string(what) + " holds a semaphore of another device");
    out.push_back(s->semaphore);
    holds.push_back(s);
  }
}

}  // namespace

// decode(ring, desc: Int32Array, sliceOffsets: Uint32Array, data: Uint8Array, output: NativeVkBuffer,
//        layout: [yOffset, yPitch, uvOffset, uvPitch], wait?: NativeVkSemaphore[], signal?: NativeVkSemaphore[], queue?: number)
//   -> Promise<void>
Napi::Value NativeVideoDecoder::Decode(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const std::shared_ptr<DecoderState>& state = Live(env);
  DecoderState& s = *state;
  if (s.broken) throw Napi::Error::New(env, "the decoder lost track of a frame in flight; make a new one");
  if (!s.session || !s.params) throw Napi::Error::New(env, "the decoder has no session parameters yet");
  SessionState& session = *s.session;
  const VideoDeviceState& video = *s.video;
  DeviceState& d = *video.device;
  uint32_t ringIndex = uint32_t(ToU64(info[0], "ring"));
  if (ringIndex >= s.ring.size()) throw Napi::RangeError::New(env, "no ring slot " + std::to_string(ringIndex));
  RingSlot& slot = s.ring[ringIndex];
  if (slot.busy) throw Napi::Error::New(env, "ring slot " + std::to_string(ringIndex) + " is still in flight");
  if (!info[1].IsTypedArray() || info[1].As<Napi::TypedArray>().TypedArrayType() != napi_int32_array)
    throw Napi::TypeError::New(env, "desc must be an Int32Array");
  Napi::Int32Array descArray = info[1].As<Napi::Int32Array>();
  const int32_t* desc = descArray.Data();
  size_t descLength = descArray.ElementLength();
  if (descLength < kHeader) throw Napi::RangeError::New(env, "desc is too short");
  uint32_t refCount = uint32_t(desc[kRefCount]);
  if (refCount > kMaxRefs || refCount > s.caps.maxActiveReferencePictures || descLength < kHeader + refCount * kRefInts)
    throw Napi::RangeError::New(env, "desc holds too many references");
  if (!info[2].IsTypedArray() || info[2].As<Napi::TypedArray>().TypedArrayType() != napi_uint32_array)
    throw Napi::TypeError::New(env, "sliceOffsets must be a Uint32Array");
  Napi::Uint32Array sliceArray = info[2].As<Napi::Uint32Array>();
  HostView data = ToHostView(info[3], "data");
  if (data.length == 0 || sliceArray.ElementLength() == 0) throw Napi::RangeError::New(env, "a picture needs data and at least one slice");
  for (size_t i = 0; i < sliceArray.ElementLength(); ++i)
    if (sliceArray[i] >= data.length) throw Napi::RangeError::New(env, "a slice offset is past the data");
  const std::shared_ptr<BufferState>& output = NativeVkBuffer::From(info[4], "output");
  if (output->device != video.device) throw Napi::TypeError::New(env, "output belongs to another device");
  if (!info[5].IsArray()) throw Napi::TypeError::New(env, "layout must be an array");
  Napi::Array layoutArray = info[5].As<Napi::Array>();
  VkDeviceSize yOffset = ToU64(layoutArray.Get(0u), "yOffset"), yPitch = ToU64(layoutArray.Get(1u), "yPitch");
  VkDeviceSize uvOffset = ToU64(layoutArray.Get(2u), "uvOffset"), uvPitch = ToU64(layoutArray.Get(3u), "uvPitch");
  auto slotOf = [&](int32_t v) {
    if (v < 0 || uint32_t(v) >= session.slots) throw Napi::RangeError::New(env, "a DPB slot index is outside the session's slots");
    return uint32_t(v);
  };
  uint32_t setupSlot = slotOf(desc[kSetupSlot]);
  int32_t cropX = desc[kCropX], cropY = desc[kCropY], cropW = desc[kCropWidth], cropH = desc[kCropHeight];
  if (cropX < 0 || cropY < 0 || cropW <= 0 || cropH <= 0 || (cropX | cropY | cropW | cropH) & 1 || uint32_t(cropX + cropW) > session.width ||
      uint32_t(cropY + cropH) > session.height)
    throw Napi::RangeError::New(env, "the crop rectangle is outside the coded picture or odd");
  if (yPitch < uint32_t(cropW) || uvPitch < uint32_t(cropW) || yOffset % 4 || uvOffset % 4 || yPitch % 2 || uvPitch % 2 ||
      yOffset + yPitch * (cropH - 1) + cropW > output->size || uvOffset + uvPitch * (cropH / 2 - 1) + cropW > output->size)
    throw Napi::RangeError::New(env, "the output layout does not fit the output buffer");

  std::vector<std::shared_ptr<void>> holds{state, s.session, s.params, output};
  std::vector<VkSemaphore> wait, signal;
  Semaphores(info[6], "wait", wait, holds, video.device);
  Semaphores(info[7], "signal", signal, holds, video.device);
  uint32_t queueIndex = s.queueIndex;
  if (info.Length() > 8 && !info[8].IsUndefined()) {
    queueIndex = uint32_t(ToU64(info[8], "queue"));
    if (queueIndex >= video.decodeQueues.size()) throw Napi::RangeError::New(env, "no decode queue " + std::to_string(queueIndex));
  }
  bool hop = s.lastQueue >= 0 && int64_t(queueIndex) != s.lastQueue;
  if (hop && !s.timeline && !s.inFlight.empty())
    throw Napi::Error::New(env, "a frame may go to another decode queue only once the decoder's frames in flight are done (no timeline semaphores)");

  // The bitstream, padded to the size alignment.
  VkDeviceSize range = AlignUp(data.length, std::max<VkDeviceSize>(s.caps.minBitstreamBufferSizeAlignment, 1));
  GrowBitstream(env, s, slot, range);
  std::memcpy(slot.mapped, data.data, data.length);
  std::memset(static_cast<uint8_t*>(slot.mapped) + data.length, 0, size_t(range - data.length));

  // The codec structures.
  StdVideoDecodeH264PictureInfo picture{};
  uint32_t flags = uint32_t(desc[kFlags]);
  picture.flags.is_intra = flags & 1;
  picture.flags.IdrPicFlag = (flags >> 1) & 1;
  picture.flags.is_reference = (flags >> 2) & 1;
  picture.seq_parameter_set_id = uint8_t(desc[kSpsId]);
  picture.pic_parameter_set_id = uint8_t(desc[kPpsId]);
  picture.frame_num = uint16_t(desc[kFrameNum]);
  picture.idr_pic_id = uint16_t(desc[kIdrPicId]);
  picture.PicOrderCnt[0] = desc[kPocTop];
  picture.PicOrderCnt[1] = desc[kPocBottom];
  std::vector<uint32_t> sliceOffsets(sliceArray.Data(), sliceArray.Data() + sliceArray.ElementLength());
  VkVideoDecodeH264PictureInfoKHR pictureInfo{VK_STRUCTURE_TYPE_VIDEO_DECODE_H264_PICTURE_INFO_KHR, nullptr, &picture, uint32_t(sliceOffsets.size()),
                                              sliceOffsets.data()};

  VkVideoPictureResourceInfoKHR resources[kMaxRefs + 1];
  StdVideoDecodeH264ReferenceInfo stdRefs[kMaxRefs + 1];
  VkVideoDecodeH264DpbSlotInfoKHR dpbInfo[kMaxRefs + 1];
  VkVideoReferenceSlotInfoKHR refSlots[kMaxRefs + 1];
  auto resourceFor = [&](uint32_t i, uint32_t layer) {
    resources[i] = {VK_STRUCTURE_TYPE_VIDEO_PICTURE_RESOURCE_INFO_KHR, nullptr, {0, 0}, {session.width, session.height}, layer, session.view};
  };
  for (uint32_t i = 0; i < refCount; ++i) {
    const int32_t* r = desc + kHeader + i * kRefInts;
    uint32_t refSlot = slotOf(r[0]);
    if (refSlot == setupSlot) throw Napi::RangeError::New(env, "a reference uses the setup slot");
    stdRefs[i] = {};
    stdRefs[i].flags.used_for_long_term_reference = r[2] & 1;
    stdRefs[i].flags.is_non_existing = (r[2] >> 1) & 1;
    stdRefs[i].FrameNum = uint16_t(r[1]);
    stdRefs[i].PicOrderCnt[0] = r[3];
    stdRefs[i].PicOrderCnt[1] = r[4];
    dpbInfo[i] = {VK_STRUCTURE_TYPE_VIDEO_DECODE_H264_DPB_SLOT_INFO_KHR, nullptr, &stdRefs[i]};
    resourceFor(i, refSlot);
    refSlots[i] = {VK_STRUCTURE_TYPE_VIDEO_REFERENCE_SLOT_INFO_KHR, &dpbInfo[i], int32_t(refSlot), &resources[i]};
  }
  // The setup slot: the picture being decoded, as a reference of the pictures after it.
  stdRefs[refCount] = {};
  stdRefs[refCount].flags.used_for_long_term_reference = (flags >> 3) & 1;
  stdRefs[refCount].FrameNum = uint16_t(desc[kFrameNum]);
  stdRefs[refCount].PicOrderCnt[0] = desc[kPocTop];
  stdRefs[refCount].PicOrderCnt[1] = desc[kPocBottom];
  dpbInfo[refCount] = {VK_STRUCTURE_TYPE_VIDEO_DECODE_H264_DPB_SLOT_INFO_KHR, nullptr, &stdRefs[refCount]};
  resourceFor(refCount, setupSlot);
  VkVideoReferenceSlotInfoKHR setup{VK_STRUCTURE_TYPE_VIDEO_REFERENCE_SLOT_INFO_KHR, &dpbInfo[refCount], int32_t(setupSlot), &resources[refCount]};
  // Begin coding binds the references and the setup picture (slotIndex -1: not yet a reference).
  refSlots[refCount] = setup;
  refSlots[refCount].slotIndex = -1;

  const DeviceApi& fn = d.fn;
  const VideoDeviceApi& vfn = video.fn;
  VkCommandBuffer cb = slot.cb;
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, nullptr, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT, nullptr};
  VK_CHECK(env, fn, vkBeginCommandBuffer, cb, &begin);
  VkFlags family = video.decodeFamily;
  VkMemoryBarrier earlier{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_MEMORY_WRITE_BIT,
                          VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT};
  VkBufferMemoryBarrier acquire{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
                                nullptr,
                                0,
                                VK_ACCESS_TRANSFER_WRITE_BIT,
                                VK_QUEUE_FAMILY_EXTERNAL,
                                family,
                                output->buffer,
                                0,
                                VK_WHOLE_SIZE};
  bool exported = output->exportTypes != 0;
  VkImageMemoryBarrier init{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                            nullptr,
                            0,
                            VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT,
                            VK_IMAGE_LAYOUT_UNDEFINED,
                            VK_IMAGE_LAYOUT_VIDEO_DECODE_DPB_KHR,
                            VK_QUEUE_FAMILY_IGNORED,
                            VK_QUEUE_FAMILY_IGNORED,
                            session.dpb,
                            {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, session.slots}};
  bool fresh = session.fresh;
  fn.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &earlier, exported ? 1 : 0, &acquire,
                          fresh ? 1 : 0, &init);
  VkVideoBeginCodingInfoKHR beginCoding{
      VK_STRUCTURE_TYPE_VIDEO_BEGIN_CODING_INFO_KHR, nullptr, 0, session.session, s.params->params, refCount + 1, refSlots};
  vfn.vkCmdBeginVideoCodingKHR(cb, &beginCoding);
  if (fresh) {
    VkVideoCodingControlInfoKHR reset{VK_STRUCTURE_TYPE_VIDEO_CODING_CONTROL_INFO_KHR, nullptr, VK_VIDEO_CODING_CONTROL_RESET_BIT_KHR};
    vfn.vkCmdControlVideoCodingKHR(cb, &reset);
  }
  VkVideoDecodeInfoKHR decode{};
  decode.sType = VK_STRUCTURE_TYPE_VIDEO_DECODE_INFO_KHR;
  decode.pNext = &pictureInfo;
  decode.srcBuffer = slot.buffer;
  decode.srcBufferOffset = 0;
  decode.srcBufferRange = range;
  decode.dstPictureResource = resources[refCount];
  decode.pSetupReferenceSlot = &setup;
  decode.referenceSlotCount = refCount;
  decode.pReferenceSlots = refCount ? refSlots : nullptr;
  vfn.vkCmdDecodeVideoKHR(cb, &decode);
  VkVideoEndCodingInfoKHR endCoding{VK_STRUCTURE_TYPE_VIDEO_END_CODING_INFO_KHR, nullptr, 0};
  vfn.vkCmdEndVideoCodingKHR(cb, &endCoding);

  VkImageMemoryBarrier toTransfer{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                                  nullptr,
                                  VK_ACCESS_MEMORY_WRITE_BIT,
                                  VK_ACCESS_TRANSFER_READ_BIT,
                                  VK_IMAGE_LAYOUT_VIDEO_DECODE_DPB_KHR,
                                  VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                  VK_QUEUE_FAMILY_IGNORED,
                                  VK_QUEUE_FAMILY_IGNORED,
                                  session.dpb,
                                  {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, setupSlot, 1}};
  fn.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr, 1, &toTransfer);
  VkBufferImageCopy regions[2]{};
  regions[0].bufferOffset = yOffset;
  regions[0].bufferRowLength = uint32_t(yPitch);
  regions[0].imageSubresource = {VK_IMAGE_ASPECT_PLANE_0_BIT, 0, setupSlot, 1};
  regions[0].imageOffset = {cropX, cropY, 0};
  regions[0].imageExtent = {uint32_t(cropW), uint32_t(cropH), 1};
  regions[1].bufferOffset = uvOffset;
  regions[1].bufferRowLength = uint32_t(uvPitch / 2);
  regions[1].imageSubresource = {VK_IMAGE_ASPECT_PLANE_1_BIT, 0, setupSlot, 1};
  regions[1].imageOffset = {cropX / 2, cropY / 2, 0};
  regions[1].imageExtent = {uint32_t(cropW / 2), uint32_t(cropH / 2), 1};
  vfn.vkCmdCopyImageToBuffer(cb, session.dpb, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, output->buffer, 2, regions);
  VkImageMemoryBarrier back = toTransfer;
  back.srcAccessMask = 0;
  back.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
  back.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  back.newLayout = VK_IMAGE_LAYOUT_VIDEO_DECODE_DPB_KHR;
  VkBufferMemoryBarrier release{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
                                nullptr,
                                VK_ACCESS_TRANSFER_WRITE_BIT,
                                0,
                                family,
                                VK_QUEUE_FAMILY_EXTERNAL,
                                output->buffer,
                                0,
                                VK_WHOLE_SIZE};
  VkMemoryBarrier written{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_MEMORY_READ_BIT};
  fn.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, exported ? 0 : 1, &written, exported ? 1 : 0,
                          &release, 1, &back);
  VK_CHECK(env, fn, vkEndCommandBuffer, cb);

  if (s.closed) throw Napi::Error::New(env, "the environment is shutting down");
  VkFence fence = 0;
  if (!s.freeFences.empty()) {
    fence = s.freeFences.back();
    s.freeFences.pop_back();
  } else {
    VkFenceCreateInfo create{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, nullptr, 0};
    VK_CHECK(env, fn, vkCreateFence, d.device, &create, nullptr, &fence);
  }
  // The decoder's timeline: this submission signals its number; on another queue than the last one, it waits for that one.
  std::vector<uint64_t> waitValues, signalValues;
  VkTimelineSemaphoreSubmitInfo values{kTimelineSemaphoreSubmitInfo, nullptr, 0, nullptr, 0, nullptr};
  if (s.timeline) {
    if (hop && s.submitted > 0) wait.push_back(s.timeline);
    signal.push_back(s.timeline);
    waitValues.assign(wait.size(), 0);
    if (hop && s.submitted > 0) waitValues.back() = s.submitted;
    signalValues.assign(signal.size(), 0);
    signalValues.back() = s.submitted + 1;
    values.waitSemaphoreValueCount = uint32_t(waitValues.size());
    values.pWaitSemaphoreValues = waitValues.data();
    values.signalSemaphoreValueCount = uint32_t(signalValues.size());
    values.pSignalSemaphoreValues = signalValues.data();
  }
  std::vector<VkFlags> stages(wait.size(), VK_PIPELINE_STAGE_ALL_COMMANDS_BIT);
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO,
                      s.timeline ? &values : nullptr,
                      uint32_t(wait.size()),
                      wait.data(),
                      stages.data(),
                      1,
                      &cb,
                      uint32_t(signal.size()),
                      signal.data()};
  VkOutcome submitted = VK_CALL(vfn, vkQueueSubmit, video.decodeQueues[queueIndex], 1, &submit, fence);
  if (submitted.result < 0) {
    s.freeFences.push_back(fence);
    ThrowVkError(env, submitted);
  }
  session.fresh = false;
  slot.busy = true;
  ++s.decoded;
  ++s.submitted;
  s.lastQueue = queueIndex;
  DecodeInFlight frame;
  frame.id = s.nextId++;
  frame.fence = fence;
  frame.ring = ringIndex;
  frame.deferred.emplace(Napi::Promise::Deferred::New(env));
  frame.holds = std::move(holds);
  Napi::Value promise = frame.deferred->Promise();
  if (s.inFlight.empty()) s.waiter->Hold(env, true);
  uint64_t id = frame.id;
  s.inFlight.push_back(std::move(frame));
  s.waiter->Watch(id, fence);
  return promise;
}

// info() -> { queueIndex, decoded, width, height, slots, inFlight, ring }
Napi::Value NativeVideoDecoder::Info(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const DecoderState& s = *Live(env);
  Napi::Object o = Napi::Object::New(env);
  o.Set("queueIndex", s.queueIndex);
  o.Set("lastQueue", double(s.lastQueue));
  o.Set("timeline", s.timeline != 0);
  o.Set("decoded", double(s.decoded));
  o.Set("width", s.session ? s.session->width : 0);
  o.Set("height", s.session ? s.session->height : 0);
  o.Set("slots", s.session ? s.session->slots : 0);
  uint32_t busy = 0;
  for (const RingSlot& r : s.ring) busy += r.busy ? 1 : 0;
  o.Set("inFlight", busy);
  o.Set("ring", uint32_t(s.ring.size()));
  o.Set("broken", s.broken);
  return o;
}

void NativeVideoDecoder::Init(Napi::Env env, Napi::Object exports) {
  Register(env, exports,
           {InstanceMethod("configure", &NativeVideoDecoder::Configure), InstanceMethod("setParameters", &NativeVideoDecoder::SetParameters),
            InstanceMethod("decode", &NativeVideoDecoder::Decode), InstanceMethod("info", &NativeVideoDecoder::Info)});
}

void InitVideoDecoder(Napi::Env env, Napi::Object exports) { NativeVideoDecoder::Init(env, exports); }

}  // namespace vk
}  // namespace ocl
