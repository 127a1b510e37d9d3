// The video module's internals (twin of lib/video/): Vulkan Video decode on a device of
// the Vulkan module. Thin: it asks the driver what it decodes, makes a device
// with a decode queue family beside its compute queue, and runs one video
// session (H.264 or H.265 Main; the codec is a parameter of every call that depends on
// it). What to decode, in which DPB slot, with which references, and when,
// is decided in lib/video/ (the bitstream room and the decoder front).
//
// One frame: the bitstream is copied into a host-visible buffer of the
// decoder's ring, and one command buffer on a decode queue decodes it into
// its DPB slot (DPB and output pictures coincide), copies the picture (its
// cropped rectangle) into the caller's exportable buffer as NV12 rows, and
// signals the caller's semaphores; its fence, watched by a thread of the
// decoder's own, settles the frame's promise.
#pragma once

#include <memory>
#include <vector>

#include "video/vk_video_h265_decls.h"
#include "vulkan/module.h"

// The name of an entry point of a loader table, for an error about a call not
// made at that line (a lookup that failed, an allocation not attempted): the
// name is the table member's, so a misspelt or absent one does not compile.
#define OCL_VK_NAME(api, name) (static_cast<void>(sizeof((api).name)), #name)

namespace ocl {
namespace vk {

struct VideoInstanceApi {
#define OCL_VK_VIDEO_DECLARE(name, ret, params) ret(OCL_VKAPI* name) params = nullptr;
  OCL_VK_VIDEO_INSTANCE_ENTRY_POINTS(OCL_VK_VIDEO_DECLARE)
};
struct VideoDeviceApi {
  OCL_VK_VIDEO_DEVICE_ENTRY_POINTS(OCL_VK_VIDEO_DECLARE)
#undef OCL_VK_VIDEO_DECLARE
};

// The instance-level video entry points of an instance (null where the loader has none).
VideoInstanceApi ResolveVideoInstanceApi(Napi::Env env, const InstanceState& instance);

// A device with decode queues: the Vulkan module's device (its compute queue, memory and waiter) plus the video side.
struct VideoDeviceState {
  DeviceRef device;
  VideoDeviceApi fn;
  VideoInstanceApi ifn;
  uint32_t decodeFamily = 0;
  std::vector<VkQueue> decodeQueues;
  bool decodeTransfers = false;  // the decode family also transfers (the copy out runs on the decode queue)
};
using VideoDeviceRef = std::shared_ptr<VideoDeviceState>;

// The codecs a decoder may be made for (lib/video passes 'h264' or 'h265').
enum class VideoCodec { kH264, kH265 };

// 'h264' or 'h265' (undefined: 'h264'), else a TypeError.
VideoCodec ToVideoCodec(const Napi::Value& value);

// A codec profile as Vulkan takes it, kept in one place so that its pNext chain stays valid.
struct VideoProfile {
  VideoCodec codec = VideoCodec::kH264;
  VkVideoDecodeH264ProfileInfoKHR h264{};
  VkVideoDecodeH265ProfileInfoKHR h265{};
  VkVideoProfileInfoKHR profile{};
  VkVideoProfileListInfoKHR list{};
  // profileIdc: StdVideoH264ProfileIdc or StdVideoH265ProfileIdc (8-bit 4:2:0). Fixes the pointers: call after the
  // object is in place.
  void Set(VideoCodec codec, int32_t profileIdc);
};

class NativeVideoDevice : public Holder<NativeVideoDevice, VideoDeviceState> {
 public:
  using Holder::Holder;
  static constexpr const char* kName = "NativeVideoDevice";
  static const napi_type_tag kTypeTag;
  static void Init(Napi::Env env, Napi::Object exports);

 private:
  Napi::Value CreateDecoder(const Napi::CallbackInfo& info);
};

struct DecoderState;
class NativeVideoDecoder : public Holder<NativeVideoDecoder, DecoderState> {
 public:
  using Holder::Holder;
  static constexpr const char* kName = "NativeVideoDecoder";
  static const napi_type_tag kTypeTag;
  static void Init(Napi::Env env, Napi::Object exports);

 private:
  Napi::Value Configure(const Napi::CallbackInfo& info);
  Napi::Value SetParameters(const Napi::CallbackInfo& info);
  Napi::Value Decode(const Napi::CallbackInfo& info);
  Napi::Value Info(const Napi::CallbackInfo& info);
};

// The decoder of a device: created by NativeVideoDevice.createDecoder.
Napi::Value MakeDecoder(Napi::Env env, const VideoDeviceRef& video, uint32_t queueIndex, VideoCodec codec, int32_t profileIdc, uint32_t ring);

// H.264 parameter sets from the plain objects lib/video/ builds (StdVideo field names).
struct H264ParameterSets {
  std::vector<StdVideoH264SequenceParameterSet> sps;
  std::vector<StdVideoH264PictureParameterSet> pps;
  // What the pointers inside point at (one per set; reserved up front so that they never move).
  std::vector<StdVideoH264SequenceParameterSetVui> vui;
  std::vector<StdVideoH264ScalingLists> spsScaling, ppsScaling;
  std::vector<std::vector<int32_t>> offsetForRefFrame;
};
void ReadH264ParameterSets(Napi::Env env, const Napi::Value& spsList, const Napi::Value& ppsList, H264ParameterSets& out);

// H.265 parameter sets from the plain objects lib/video/h265-vulkan.ts builds (StdVideo field names; h265_params.cc).
struct H265ParameterSets {
  std::vector<StdVideoH265VideoParameterSet> vps;
  std::vector<StdVideoH265SequenceParameterSet> sps;
  std::vector<StdVideoH265PictureParameterSet> pps;
  // What the pointers inside point at (one or more per set; sized up front so that they never move).
  std::vector<StdVideoH265ProfileTierLevel> vpsPtl, spsPtl;
  std::vector<StdVideoH265DecPicBufMgr> vpsDpb, spsDpb;
  std::vector<StdVideoH265ScalingLists> spsScaling, ppsScaling;
  std::vector<std::vector<StdVideoH265ShortTermRefPicSet>> shortTerm;
  std::vector<StdVideoH265LongTermRefPicsSps> longTerm;
  std::vector<StdVideoH265SequenceParameterSetVui> vui;
};
void ReadH265ParameterSets(Napi::Env env, const Napi::Value& vpsList, const Napi::Value& spsList, const Napi::Value& ppsList, H265ParameterSets& out);

// A device memory allocation of a type in `typeBits` (preferring `preferred` flags), or a VulkanError.
VkDeviceMemory AllocateVideoMemory(Napi::Env env, DeviceState& device, const VkMemoryRequirements& req, VkFlags required, VkFlags preferred);

void InitVideoDevice(Napi::Env env, Napi::Object exports);
void InitVideoDecoder(Napi::Env env, Napi::Object exports);
void InitDecodeQueueRegistry(Napi::Env env, Napi::Object exports);

}  // namespace vk
}  // namespace ocl
