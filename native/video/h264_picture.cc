// One H.264 frame's codec structures (decoder_state.h, CodecPicture): the
// StdVideoDecodeH264PictureInfo of its descriptor with its slice offsets, and
// a StdVideoDecodeH264ReferenceInfo per reference and for the setup slot.
// The descriptor's layout is decoder_state.h's Desc (lib/video/h264-vulkan.ts
// writes it); decode_frame.cc has checked its size and slots.
#include <memory>
#include <vector>

#include "video/decoder_state.h"

namespace ocl {
namespace vk {
namespace {

struct H264CodecPicture : CodecPicture {
  StdVideoDecodeH264PictureInfo picture{};
  std::vector<uint32_t> sliceOffsets;
  VkVideoDecodeH264PictureInfoKHR pictureInfo{};
  StdVideoDecodeH264ReferenceInfo refs[kMaxRefs + 1]{};
  VkVideoDecodeH264DpbSlotInfoKHR dpb[kMaxRefs + 1]{};
};

}  // namespace

std::unique_ptr<CodecPicture> H264PictureInfo(Napi::Env, const DecodeRequest& request) {
  auto out = std::make_unique<H264CodecPicture>();
  const int32_t* desc = request.desc;
  uint32_t refCount = request.refCount;
  StdVideoDecodeH264PictureInfo& picture = out->picture;
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
  out->sliceOffsets.assign(request.sliceOffsets, request.sliceOffsets + request.sliceCount);
  out->pictureInfo = {VK_STRUCTURE_TYPE_VIDEO_DECODE_H264_PICTURE_INFO_KHR, nullptr, &out->picture, uint32_t(out->sliceOffsets.size()),
                      out->sliceOffsets.data()};
  out->info = &out->pictureInfo;
  for (uint32_t i = 0; i < refCount; ++i) {
    const int32_t* r = desc + kHeader + i * kRefInts;
    StdVideoDecodeH264ReferenceInfo& ref = out->refs[i];
    ref.flags.used_for_long_term_reference = r[2] & 1;
    ref.flags.is_non_existing = (r[2] >> 1) & 1;
    ref.FrameNum = uint16_t(r[1]);
    ref.PicOrderCnt[0] = r[3];
    ref.PicOrderCnt[1] = r[4];
  }
  // The setup slot: the picture being decoded, as a reference of the pictures after it.
  StdVideoDecodeH264ReferenceInfo& setup = out->refs[refCount];
  setup.flags.used_for_long_term_reference = (flags >> 3) & 1;
  setup.FrameNum = uint16_t(desc[kFrameNum]);
  setup.PicOrderCnt[0] = desc[kPocTop];
  setup.PicOrderCnt[1] = desc[kPocBottom];
  for (uint32_t i = 0; i <= refCount; ++i) {
    out->dpb[i] = {VK_STRUCTURE_TYPE_VIDEO_DECODE_H264_DPB_SLOT_INFO_KHR, nullptr, &out->refs[i]};
    out->slots.push_back(&out->dpb[i]);
  }
  return out;
}

}  // namespace vk
}  // namespace ocl
