// One H.265 frame's codec structures (decoder_state.h, CodecPicture): the
// StdVideoDecodeH265PictureInfo of its descriptor (H265Desc: the ids, POC,
// NumDeltaPocsOfRefRpsIdx, NumBitsForSTRefPicSetInSlice, and the three
// RefPicSet lists as DPB slots) with its slice segment offsets, and a
// StdVideoDecodeH265ReferenceInfo per reference and for the setup slot.
// lib/video/h265-vulkan.ts writes the descriptor; decode_frame.cc has checked
// its header and reference slots, this file the lists after them.
#include <memory>
#include <vector>

#include "video/decoder_state.h"

namespace ocl {
namespace vk {
namespace {

struct H265CodecPicture : CodecPicture {
  StdVideoDecodeH265PictureInfo picture{};
  std::vector<uint32_t> sliceOffsets;
  VkVideoDecodeH265PictureInfoKHR pictureInfo{};
  StdVideoDecodeH265ReferenceInfo refs[kMaxRefs + 1]{};
  VkVideoDecodeH265DpbSlotInfoKHR dpb[kMaxRefs + 1]{};
};

constexpr int32_t kNoEntry = 0xff;

}  // namespace

std::unique_ptr<CodecPicture> H265PictureInfo(Napi::Env env, const DecodeRequest& request) {
  const int32_t* desc = request.desc;
  uint32_t refCount = request.refCount;
  size_t lists = kHeader + size_t(refCount) * kRefInts;
  if (request.descLength < lists + kH265RefPicSetInts) throw Napi::RangeError::New(env, "desc lacks the RefPicSet lists");
  auto out = std::make_unique<H265CodecPicture>();
  StdVideoDecodeH265PictureInfo& picture = out->picture;
  uint32_t flags = uint32_t(desc[kFlags]);
  picture.flags.IrapPicFlag = (flags & kH265FlagIrap) ? 1 : 0;
  picture.flags.IdrPicFlag = (flags & kH265FlagIdr) ? 1 : 0;
  picture.flags.IsReference = (flags & kH265FlagReference) ? 1 : 0;
  picture.flags.short_term_ref_pic_set_sps_flag = (flags & kH265FlagStRpsSps) ? 1 : 0;
  picture.sps_video_parameter_set_id = uint8_t(desc[kH265VpsId]);
  picture.pps_seq_parameter_set_id = uint8_t(desc[kH265SpsId]);
  picture.pps_pic_parameter_set_id = uint8_t(desc[kH265PpsId]);
  picture.NumDeltaPocsOfRefRpsIdx = uint8_t(desc[kH265NumDeltaPocsOfRefRpsIdx]);
  picture.PicOrderCntVal = desc[kH265PicOrderCntVal];
  picture.NumBitsForSTRefPicSetInSlice = uint16_t(desc[kH265NumBitsForStRps]);
  // Each list entry is a slot of one of the references bound (every picture of the three lists is).
  uint8_t* targets[3] = {picture.RefPicSetStCurrBefore, picture.RefPicSetStCurrAfter, picture.RefPicSetLtCurr};
  for (uint32_t l = 0; l < 3; ++l) {
    for (uint32_t k = 0; k < STD_VIDEO_DECODE_H265_REF_PIC_SET_LIST_SIZE; ++k) {
      int32_t v = desc[lists + l * STD_VIDEO_DECODE_H265_REF_PIC_SET_LIST_SIZE + k];
      bool bound = v == kNoEntry;
      for (uint32_t i = 0; i < refCount && !bound; ++i) bound = desc[kHeader + i * kRefInts] == v;
      if (!bound) throw Napi::RangeError::New(env, "a RefPicSet entry is not one of the references");
      targets[l][k] = uint8_t(v);
    }
  }
  out->sliceOffsets.assign(request.sliceOffsets, request.sliceOffsets + request.sliceCount);
  out->pictureInfo = {VK_STRUCTURE_TYPE_VIDEO_DECODE_H265_PICTURE_INFO_KHR, nullptr, &out->picture, uint32_t(out->sliceOffsets.size()),
                      out->sliceOffsets.data()};
  out->info = &out->pictureInfo;
  for (uint32_t i = 0; i < refCount; ++i) {
    const int32_t* r = desc + kHeader + i * kRefInts;
    out->refs[i].flags.used_for_long_term_reference = r[2] & 1;
    out->refs[i].PicOrderCntVal = r[3];
  }
  // The setup slot: the picture being decoded, short-term as every picture just decoded is (8.3.2).
  out->refs[refCount].PicOrderCntVal = picture.PicOrderCntVal;
  for (uint32_t i = 0; i <= refCount; ++i) {
    out->dpb[i] = {VK_STRUCTURE_TYPE_VIDEO_DECODE_H265_DPB_SLOT_INFO_KHR, nullptr, &out->refs[i]};
    out->slots.push_back(&out->dpb[i]);
  }
  return out;
}

}  // namespace vk
}  // namespace ocl
