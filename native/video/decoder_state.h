// A video decoder's state, shared by its three files: one video session with
// its DPB (one image, a layer per DPB slot; DPB and output pictures
// coincide), the session parameters of the stream's parameter sets, and a
// ring of bitstream buffers and command buffers, one per frame in flight.
//   decoder.cc        NativeVideoDecoder: the JavaScript methods, their arguments read and checked
//   decoder_state.cc  the Vulkan objects made and destroyed (ring, session, DPB), the
//                     fence waiter, the environment's teardown with frames in flight
//   decode_frame.cc   one frame: its bitstream, its command buffer, its submission and completion
//   h264_picture.cc,  one frame's codec structures (the picture info and each DPB slot's
//   h265_picture.cc   reference info) from its descriptor
#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "convert.h"
#include "video/module.h"
#include "vulkan/fence_waiter.h"

namespace ocl {
namespace vk {

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
  ~SessionState();
};

struct ParamsState {
  std::shared_ptr<SessionState> session;
  VkVideoSessionParametersKHR params = 0;
  ~ParamsState();
};

struct RingSlot {
  VkCommandBuffer cb = nullptr;
  VkBuffer buffer = 0;
  VkDeviceMemory memory = 0;
  void* mapped = nullptr;
  VkDeviceSize size = 0;
  bool busy = false;
};

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
  uint32_t queueIndex = 0;  // the queue a submission that names none goes to
  int64_t lastQueue = -1;   // the queue of the last submission
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
  std::unique_ptr<FenceWaiter> waiter;
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

// The per-frame descriptor lib/video/h264-vulkan.ts / h265-vulkan.ts (pictureDescriptor) write (Int32Array). The setup
// slot, the crop, the reference count and each reference's slot (its first int) are at the same places for both
// codecs; the rest is the codec's (h264_picture.cc, h265_picture.cc read it).
enum Desc : uint32_t {
  kSetupSlot = 0,
  kFlags,  // H.264: bit 0 is_intra, 1 IdrPicFlag, 2 is_reference, 3 current marked long-term
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

// H.265's use of the codec part of the header: bits of kFlags, and the ints at kSpsId..kPocBottom.
enum H265Desc : uint32_t {
  kH265FlagIrap = 1,
  kH265FlagIdr = 2,
  kH265FlagReference = 4,
  kH265FlagStRpsSps = 8,  // short_term_ref_pic_set_sps_flag
  kH265VpsId = 2,
  kH265SpsId,
  kH265PpsId,
  kH265NumDeltaPocsOfRefRpsIdx,
  kH265PicOrderCntVal,
  kH265NumBitsForStRps,
  // Each reference: slot, 0, flags (bit 0 long-term), PicOrderCntVal, 0. After the references: RefPicSetStCurrBefore[8],
  // RefPicSetStCurrAfter[8], RefPicSetLtCurr[8] as DPB slots (0xff: no entry).
  kH265RefPicSetInts = 24,
};

// A DPB slot index of the descriptor, checked against the session's slots.
inline uint32_t DpbSlot(Napi::Env env, const SessionState& session, int32_t v) {
  if (v < 0 || uint32_t(v) >= session.slots) throw Napi::RangeError::New(env, "a DPB slot index is outside the session's slots");
  return uint32_t(v);
}

// One frame's decode, its arguments read and checked (NativeVideoDecoder::Decode).
struct DecodeRequest {
  uint32_t ring = 0;
  const int32_t* desc = nullptr;  // kHeader + refCount * kRefInts values (then the codec's own, descLength in all)
  size_t descLength = 0;
  uint32_t refCount = 0;
  uint32_t setupSlot = 0;
  const uint32_t* sliceOffsets = nullptr;
  size_t sliceCount = 0;
  HostView data;
  const BufferState* output = nullptr;  // held by `holds`
  VkDeviceSize yOffset = 0, yPitch = 0, uvOffset = 0, uvPitch = 0;
  int32_t cropX = 0, cropY = 0, cropW = 0, cropH = 0;
  std::vector<VkSemaphore> wait, signal;
  std::vector<std::shared_ptr<void>> holds;  // the decoder, its session and parameters, the output, the semaphores
  uint32_t queueIndex = 0;
};

// One frame's codec structures: the pNext of VkVideoDecodeInfoKHR and of each VkVideoReferenceSlotInfoKHR (the
// request's references in order, then the setup slot), kept alive until the command buffer is recorded.
struct CodecPicture {
  virtual ~CodecPicture() = default;
  const void* info = nullptr;
  std::vector<const void*> slots;
};
std::unique_ptr<CodecPicture> H264PictureInfo(Napi::Env env, const DecodeRequest& request);
std::unique_ptr<CodecPicture> H265PictureInfo(Napi::Env env, const DecodeRequest& request);

// Copies the bitstream into the request's ring slot, records the frame's command buffer and submits it: the frame's promise.
Napi::Value DecodeFrame(Napi::Env env, DecoderState& state, DecodeRequest& request);

// A new session and DPB of the decoder's profile (configure()).
std::shared_ptr<SessionState> MakeSession(Napi::Env env, const DecoderState& state, uint32_t width, uint32_t height, uint32_t slots,
                                          uint32_t maxActiveReferences, VkFormat format);

// (Re)makes a ring slot's bitstream buffer to hold at least `needed` bytes.
void GrowBitstream(Napi::Env env, DecoderState& state, RingSlot& slot, VkDeviceSize needed);

inline VkDeviceSize AlignUp(VkDeviceSize value, VkDeviceSize alignment) {
  if (alignment <= 1) return value;
  return (value + alignment - 1) / alignment * alignment;
}

}  // namespace vk
}  // namespace ocl
