// One frame of a video decoder (decoder_state.h): its bitstream copied into
// its ring slot's buffer, the picture and references of its descriptor (the
// codec's structures: h264_picture.cc, h265_picture.cc), its command buffer
// recorded and submitted, and its completion.
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
// Queues: each submission names its decode queue (lib/video/ decides). A
// decoder's frames stay in decode order by the order of one queue: it moves
// to another only once its frames in flight are done (decoder.cc checks), so
// no submission waits on another decode queue's work.
//
// Completion: the submission carries a fence of the decoder's own, which a
// thread of the decoder's own watches (its frames end in submission order,
// each after the one before it; native/vulkan/fence_waiter.h) and reports to
// the JavaScript thread, which settles the frame's promise (Complete, below).
#include <algorithm>
#include <cstring>

#include "video/decoder_state.h"

namespace ocl {
namespace vk {

Napi::Value DecodeFrame(Napi::Env env, DecoderState& s, DecodeRequest& request) {
  SessionState& session = *s.session;
  const VideoDeviceState& video = *s.video;
  DeviceState& d = *video.device;
  uint32_t ringIndex = request.ring;
  RingSlot& slot = s.ring[ringIndex];
  const int32_t* desc = request.desc;
  uint32_t refCount = request.refCount, setupSlot = request.setupSlot;
  const HostView& data = request.data;
  const BufferState* output = request.output;
  VkDeviceSize yOffset = request.yOffset, yPitch = request.yPitch, uvOffset = request.uvOffset, uvPitch = request.uvPitch;
  int32_t cropX = request.cropX, cropY = request.cropY, cropW = request.cropW, cropH = request.cropH;
  std::vector<VkSemaphore>& wait = request.wait;
  std::vector<VkSemaphore>& signal = request.signal;
  uint32_t queueIndex = request.queueIndex;

  // The bitstream, padded to the size alignment.
  VkDeviceSize range = AlignUp(data.length, std::max<VkDeviceSize>(s.caps.minBitstreamBufferSizeAlignment, 1));
  GrowBitstream(env, s, slot, range);
  std::memcpy(slot.mapped, data.data, data.length);
  std::memset(static_cast<uint8_t*>(slot.mapped) + data.length, 0, size_t(range - data.length));

  // The codec structures.
  std::unique_ptr<CodecPicture> codec = s.profile.codec == VideoCodec::kH265 ? H265PictureInfo(env, request) : H264PictureInfo(env, request);

  VkVideoPictureResourceInfoKHR resources[kMaxRefs + 1];
  VkVideoReferenceSlotInfoKHR refSlots[kMaxRefs + 1];
  auto resourceFor = [&](uint32_t i, uint32_t layer) {
    resources[i] = {VK_STRUCTURE_TYPE_VIDEO_PICTURE_RESOURCE_INFO_KHR, nullptr, {0, 0}, {session.width, session.height}, layer, session.view};
  };
  for (uint32_t i = 0; i < refCount; ++i) {
    const int32_t* r = desc + kHeader + i * kRefInts;
    uint32_t refSlot = DpbSlot(env, session, r[0]);
    if (refSlot == setupSlot) throw Napi::RangeError::New(env, "a reference uses the setup slot");
    resourceFor(i, refSlot);
    refSlots[i] = {VK_STRUCTURE_TYPE_VIDEO_REFERENCE_SLOT_INFO_KHR, codec->slots[i], int32_t(refSlot), &resources[i]};
  }
  // The setup slot: the picture being decoded, as a reference of the pictures after it.
  resourceFor(refCount, setupSlot);
  VkVideoReferenceSlotInfoKHR setup{VK_STRUCTURE_TYPE_VIDEO_REFERENCE_SLOT_INFO_KHR, codec->slots[refCount], int32_t(setupSlot),
                                    &resources[refCount]};
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
  decode.pNext = codec->info;
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
  std::vector<VkFlags> stages(wait.size(), VK_PIPELINE_STAGE_ALL_COMMANDS_BIT);
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO, nullptr,      uint32_t(wait.size()), wait.data(), stages.data(), 1, &cb,
                      uint32_t(signal.size()),       signal.data()};
  VkOutcome submitted = VK_CALL(vfn, vkQueueSubmit, video.decodeQueues[queueIndex], 1, &submit, fence);
  if (submitted.result < 0) {
    s.freeFences.push_back(fence);
    ThrowVkError(env, submitted);
  }
  session.fresh = false;
  slot.busy = true;
  ++s.decoded;
  s.lastQueue = queueIndex;
  DecodeInFlight frame;
  frame.id = s.nextId++;
  frame.fence = fence;
  frame.ring = ringIndex;
  frame.deferred.emplace(Napi::Promise::Deferred::New(env));
  frame.holds = std::move(request.holds);
  Napi::Value promise = frame.deferred->Promise();
  if (s.inFlight.empty()) s.waiter->Hold(env, true);
  uint64_t id = frame.id;
  s.inFlight.push_back(std::move(frame));
  s.waiter->Watch(id, fence);
  return promise;
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

}  // namespace vk
}  // namespace ocl
