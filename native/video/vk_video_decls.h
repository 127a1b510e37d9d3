// The Vulkan Video types the video module uses (VK_KHR_video_queue,
// VK_KHR_video_decode_queue, VK_KHR_video_decode_h264) and the H.264 codec
// structures they carry (vk_video/vulkan_video_codec_h264std*.h), declared
// here so that the addon builds without Vulkan headers. Values and layouts
// from the Vulkan 1.3 registry (vulkan_core.h 1.3.239, the first header with
// the final video extensions); names keep the registry's spelling.
// test/video-vulkan-declarations.test.ts compiles these beside the published headers and
// compares every structure's size, alignment and field offsets.
#pragma once

#include "vulkan/vk_decls.h"

namespace ocl {
namespace vk {

using VkVideoSessionKHR = uint64_t;
using VkVideoSessionParametersKHR = uint64_t;

enum : VkStructureType {
  VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO = 15,
  VK_STRUCTURE_TYPE_QUEUE_FAMILY_PROPERTIES_2 = 1000059005,
  VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO = 1000117002,
  VK_STRUCTURE_TYPE_VIDEO_PROFILE_INFO_KHR = 1000023000,
  VK_STRUCTURE_TYPE_VIDEO_CAPABILITIES_KHR = 1000023001,
  VK_STRUCTURE_TYPE_VIDEO_PICTURE_RESOURCE_INFO_KHR = 1000023002,
  VK_STRUCTURE_TYPE_VIDEO_SESSION_MEMORY_REQUIREMENTS_KHR = 1000023003,
  VK_STRUCTURE_TYPE_BIND_VIDEO_SESSION_MEMORY_INFO_KHR = 1000023004,
  VK_STRUCTURE_TYPE_VIDEO_SESSION_CREATE_INFO_KHR = 1000023005,
  VK_STRUCTURE_TYPE_VIDEO_SESSION_PARAMETERS_CREATE_INFO_KHR = 1000023006,
  VK_STRUCTURE_TYPE_VIDEO_BEGIN_CODING_INFO_KHR = 1000023008,
  VK_STRUCTURE_TYPE_VIDEO_END_CODING_INFO_KHR = 1000023009,
  VK_STRUCTURE_TYPE_VIDEO_CODING_CONTROL_INFO_KHR = 1000023010,
  VK_STRUCTURE_TYPE_VIDEO_REFERENCE_SLOT_INFO_KHR = 1000023011,
  VK_STRUCTURE_TYPE_QUEUE_FAMILY_VIDEO_PROPERTIES_KHR = 1000023012,
  VK_STRUCTURE_TYPE_VIDEO_PROFILE_LIST_INFO_KHR = 1000023013,
  VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VIDEO_FORMAT_INFO_KHR = 1000023014,
  VK_STRUCTURE_TYPE_VIDEO_FORMAT_PROPERTIES_KHR = 1000023015,
  VK_STRUCTURE_TYPE_VIDEO_DECODE_INFO_KHR = 1000024000,
  VK_STRUCTURE_TYPE_VIDEO_DECODE_CAPABILITIES_KHR = 1000024001,
  VK_STRUCTURE_TYPE_VIDEO_DECODE_H264_CAPABILITIES_KHR = 1000040000,
  VK_STRUCTURE_TYPE_VIDEO_DECODE_H264_PICTURE_INFO_KHR = 1000040001,
  VK_STRUCTURE_TYPE_VIDEO_DECODE_H264_PROFILE_INFO_KHR = 1000040003,
  VK_STRUCTURE_TYPE_VIDEO_DECODE_H264_SESSION_PARAMETERS_CREATE_INFO_KHR = 1000040004,
  VK_STRUCTURE_TYPE_VIDEO_DECODE_H264_SESSION_PARAMETERS_ADD_INFO_KHR = 1000040005,
  VK_STRUCTURE_TYPE_VIDEO_DECODE_H264_DPB_SLOT_INFO_KHR = 1000040006,
  VK_STRUCTURE_TYPE_VIDEO_DECODE_H265_CAPABILITIES_KHR = 1000187000,
  VK_STRUCTURE_TYPE_VIDEO_DECODE_H265_PROFILE_INFO_KHR = 1000187003,
};

constexpr VkFlags VK_QUEUE_VIDEO_DECODE_BIT_KHR = 0x20;
constexpr VkFlags VK_VIDEO_CODEC_OPERATION_DECODE_H264_BIT_KHR = 0x1, VK_VIDEO_CODEC_OPERATION_DECODE_H265_BIT_KHR = 0x2;
constexpr VkFlags VK_VIDEO_CHROMA_SUBSAMPLING_MONOCHROME_BIT_KHR = 0x1, VK_VIDEO_CHROMA_SUBSAMPLING_420_BIT_KHR = 0x2,
                  VK_VIDEO_CHROMA_SUBSAMPLING_422_BIT_KHR = 0x4, VK_VIDEO_CHROMA_SUBSAMPLING_444_BIT_KHR = 0x8;
constexpr VkFlags VK_VIDEO_COMPONENT_BIT_DEPTH_8_BIT_KHR = 0x1, VK_VIDEO_COMPONENT_BIT_DEPTH_10_BIT_KHR = 0x4;
constexpr VkFlags VK_VIDEO_CAPABILITY_SEPARATE_REFERENCE_IMAGES_BIT_KHR = 0x2;
constexpr VkFlags VK_VIDEO_DECODE_CAPABILITY_DPB_AND_OUTPUT_COINCIDE_BIT_KHR = 0x1, VK_VIDEO_DECODE_CAPABILITY_DPB_AND_OUTPUT_DISTINCT_BIT_KHR = 0x2;
constexpr VkFlags VK_VIDEO_CODING_CONTROL_RESET_BIT_KHR = 0x1;
constexpr VkFlags VK_VIDEO_DECODE_H264_PICTURE_LAYOUT_PROGRESSIVE_KHR = 0;
constexpr VkFlags VK_IMAGE_USAGE_VIDEO_DECODE_DST_BIT_KHR = 0x400, VK_IMAGE_USAGE_VIDEO_DECODE_SRC_BIT_KHR = 0x800,
                  VK_IMAGE_USAGE_VIDEO_DECODE_DPB_BIT_KHR = 0x1000;
constexpr VkFlags VK_BUFFER_USAGE_VIDEO_DECODE_SRC_BIT_KHR = 0x2000;
constexpr int32_t VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL = 6, VK_IMAGE_LAYOUT_VIDEO_DECODE_DST_KHR = 1000024000,
                  VK_IMAGE_LAYOUT_VIDEO_DECODE_DPB_KHR = 1000024002;
constexpr int32_t VK_IMAGE_VIEW_TYPE_2D_ARRAY = 5;
constexpr int32_t VK_SHARING_MODE_CONCURRENT = 1;

struct VkExtent2D {
  uint32_t width, height;
};
struct VkOffset2D {
  int32_t x, y;
};
struct VkComponentMapping {
  int32_t r, g, b, a;
};

struct VkQueueFamilyProperties2 {
  VkStructureType sType;
  void* pNext;
  VkQueueFamilyProperties queueFamilyProperties;
};
struct VkQueueFamilyVideoPropertiesKHR {
  VkStructureType sType;
  void* pNext;
  VkFlags videoCodecOperations;
};
struct VkVideoProfileInfoKHR {
  VkStructureType sType;
  const void* pNext;
  VkFlags videoCodecOperation;
  VkFlags chromaSubsampling;
  VkFlags lumaBitDepth;
  VkFlags chromaBitDepth;
};
struct VkVideoProfileListInfoKHR {
  VkStructureType sType;
  const void* pNext;
  uint32_t profileCount;
  const VkVideoProfileInfoKHR* pProfiles;
};
struct VkVideoCapabilitiesKHR {
  VkStructureType sType;
  void* pNext;
  VkFlags flags;
  VkDeviceSize minBitstreamBufferOffsetAlignment;
  VkDeviceSize minBitstreamBufferSizeAlignment;
  VkExtent2D pictureAccessGranularity;
  VkExtent2D minCodedExtent;
  VkExtent2D maxCodedExtent;
  uint32_t maxDpbSlots;
  uint32_t maxActiveReferencePictures;
  VkExtensionProperties stdHeaderVersion;
};
struct VkVideoDecodeCapabilitiesKHR {
  VkStructureType sType;
  void* pNext;
  VkFlags flags;
};
struct VkVideoDecodeH264ProfileInfoKHR {
  VkStructureType sType;
  const void* pNext;
  int32_t stdProfileIdc;  // StdVideoH264ProfileIdc
  VkFlags pictureLayout;
};
struct VkVideoDecodeH264CapabilitiesKHR {
  VkStructureType sType;
  void* pNext;
  int32_t maxLevelIdc;  // StdVideoH264LevelIdc
  VkOffset2D fieldOffsetGranularity;
};
struct VkVideoDecodeH265ProfileInfoKHR {
  VkStructureType sType;
  const void* pNext;
  int32_t stdProfileIdc;  // StdVideoH265ProfileIdc
};
struct VkVideoDecodeH265CapabilitiesKHR {
  VkStructureType sType;
  void* pNext;
  int32_t maxLevelIdc;  // StdVideoH265LevelIdc
};
struct VkPhysicalDeviceVideoFormatInfoKHR {
  VkStructureType sType;
  const void* pNext;
  VkFlags imageUsage;
};
struct VkVideoFormatPropertiesKHR {
  VkStructureType sType;
  void* pNext;
  VkFormat format;
  VkComponentMapping componentMapping;
  VkFlags imageCreateFlags;
  int32_t imageType;
  int32_t imageTiling;
  VkFlags imageUsageFlags;
};
struct VkVideoPictureResourceInfoKHR {
  VkStructureType sType;
  const void* pNext;
  VkOffset2D codedOffset;
  VkExtent2D codedExtent;
  uint32_t baseArrayLayer;
  VkImageView imageViewBinding;
};
struct VkVideoReferenceSlotInfoKHR {
  VkStructureType sType;
  const void* pNext;
  int32_t slotIndex;
  const VkVideoPictureResourceInfoKHR* pPictureResource;
};
struct VkVideoSessionMemoryRequirementsKHR {
  VkStructureType sType;
  void* pNext;
  uint32_t memoryBindIndex;
  VkMemoryRequirements memoryRequirements;
};
struct VkBindVideoSessionMemoryInfoKHR {
  VkStructureType sType;
  const void* pNext;
  uint32_t memoryBindIndex;
  VkDeviceMemory memory;
  VkDeviceSize memoryOffset;
  VkDeviceSize memorySize;
};
struct VkVideoSessionCreateInfoKHR {
  VkStructureType sType;
  const void* pNext;
  uint32_t queueFamilyIndex;
  VkFlags flags;
  const VkVideoProfileInfoKHR* pVideoProfile;
  VkFormat pictureFormat;
  VkExtent2D maxCodedExtent;
  VkFormat referencePictureFormat;
  uint32_t maxDpbSlots;
  uint32_t maxActiveReferencePictures;
  const VkExtensionProperties* pStdHeaderVersion;
};
struct VkVideoSessionParametersCreateInfoKHR {
  VkStructureType sType;
  const void* pNext;
  VkFlags flags;
  VkVideoSessionParametersKHR videoSessionParametersTemplate;
  VkVideoSessionKHR videoSession;
};
struct VkVideoBeginCodingInfoKHR {
  VkStructureType sType;
  const void* pNext;
  VkFlags flags;
  VkVideoSessionKHR videoSession;
  VkVideoSessionParametersKHR videoSessionParameters;
  uint32_t referenceSlotCount;
  const VkVideoReferenceSlotInfoKHR* pReferenceSlots;
};
struct VkVideoEndCodingInfoKHR {
  VkStructureType sType;
  const void* pNext;
  VkFlags flags;
};
struct VkVideoCodingControlInfoKHR {
  VkStructureType sType;
  const void* pNext;
  VkFlags flags;
};
struct VkVideoDecodeInfoKHR {
  VkStructureType sType;
  const void* pNext;
  VkFlags flags;
  VkBuffer srcBuffer;
  VkDeviceSize srcBufferOffset;
  VkDeviceSize srcBufferRange;
  VkVideoPictureResourceInfoKHR dstPictureResource;
  const VkVideoReferenceSlotInfoKHR* pSetupReferenceSlot;
  uint32_t referenceSlotCount;
  const VkVideoReferenceSlotInfoKHR* pReferenceSlots;
};
struct VkImageViewCreateInfo {
  VkStructureType sType;
  const void* pNext;
  VkFlags flags;
  VkImage image;
  int32_t viewType;
  VkFormat format;
  VkComponentMapping components;
  VkImageSubresourceRange subresourceRange;
};
struct VkImageViewUsageCreateInfo {
  VkStructureType sType;
  const void* pNext;
  VkFlags usage;
};

// ---- the H.264 codec structures (vulkan_video_codec_h264std.h, _decode.h) ----

constexpr int STD_VIDEO_H264_CPB_CNT_LIST_SIZE = 32;
constexpr int STD_VIDEO_H264_SCALING_LIST_4X4_NUM_LISTS = 6, STD_VIDEO_H264_SCALING_LIST_4X4_NUM_ELEMENTS = 16;
constexpr int STD_VIDEO_H264_SCALING_LIST_8X8_NUM_LISTS = 6, STD_VIDEO_H264_SCALING_LIST_8X8_NUM_ELEMENTS = 64;
constexpr int STD_VIDEO_H264_MAX_NUM_LIST_REF = 32;

struct StdVideoH264SpsVuiFlags {
  uint32_t aspect_ratio_info_present_flag : 1;
  uint32_t overscan_info_present_flag : 1;
  uint32_t overscan_appropriate_flag : 1;
  uint32_t video_signal_type_present_flag : 1;
  uint32_t video_full_range_flag : 1;
  uint32_t color_description_present_flag : 1;
  uint32_t chroma_loc_info_present_flag : 1;
  uint32_t timing_info_present_flag : 1;
  uint32_t fixed_frame_rate_flag : 1;
  uint32_t bitstream_restriction_flag : 1;
  uint32_t nal_hrd_parameters_present_flag : 1;
  uint32_t vcl_hrd_parameters_present_flag : 1;
};
struct StdVideoH264HrdParameters {
  uint8_t cpb_cnt_minus1;
  uint8_t bit_rate_scale;
  uint8_t cpb_size_scale;
  uint8_t reserved1;
  uint32_t bit_rate_value_minus1[STD_VIDEO_H264_CPB_CNT_LIST_SIZE];
  uint32_t cpb_size_value_minus1[STD_VIDEO_H264_CPB_CNT_LIST_SIZE];
  uint8_t cbr_flag[STD_VIDEO_H264_CPB_CNT_LIST_SIZE];
  uint32_t initial_cpb_removal_delay_length_minus1;
  uint32_t cpb_removal_delay_length_minus1;
  uint32_t dpb_output_delay_length_minus1;
  uint32_t time_offset_length;
};
struct StdVideoH264SequenceParameterSetVui {
  StdVideoH264SpsVuiFlags flags;
  int32_t aspect_ratio_idc;  // StdVideoH264AspectRatioIdc
  uint16_t sar_width;
  uint16_t sar_height;
  uint8_t video_format;
  uint8_t colour_primaries;
  uint8_t transfer_characteristics;
  uint8_t matrix_coefficients;
  uint32_t num_units_in_tick;
  uint32_t time_scale;
  uint8_t max_num_reorder_frames;
  uint8_t max_dec_frame_buffering;
  uint8_t chroma_sample_loc_type_top_field;
  uint8_t chroma_sample_loc_type_bottom_field;
  uint32_t reserved1;
  const StdVideoH264HrdParameters* pHrdParameters;
};
struct StdVideoH264SpsFlags {
  uint32_t constraint_set0_flag : 1;
  uint32_t constraint_set1_flag : 1;
  uint32_t constraint_set2_flag : 1;
  uint32_t constraint_set3_flag : 1;
  uint32_t constraint_set4_flag : 1;
  uint32_t constraint_set5_flag : 1;
  uint32_t direct_8x8_inference_flag : 1;
  uint32_t mb_adaptive_frame_field_flag : 1;
  uint32_t frame_mbs_only_flag : 1;
  uint32_t delta_pic_order_always_zero_flag : 1;
  uint32_t separate_colour_plane_flag : 1;
  uint32_t gaps_in_frame_num_value_allowed_flag : 1;
  uint32_t qpprime_y_zero_transform_bypass_flag : 1;
  uint32_t frame_cropping_flag : 1;
  uint32_t seq_scaling_matrix_present_flag : 1;
  uint32_t vui_parameters_present_flag : 1;
};
struct StdVideoH264ScalingLists {
  uint16_t scaling_list_present_mask;
  uint16_t use_default_scaling_matrix_mask;
  uint8_t ScalingList4x4[STD_VIDEO_H264_SCALING_LIST_4X4_NUM_LISTS][STD_VIDEO_H264_SCALING_LIST_4X4_NUM_ELEMENTS];
  uint8_t ScalingList8x8[STD_VIDEO_H264_SCALING_LIST_8X8_NUM_LISTS][STD_VIDEO_H264_SCALING_LIST_8X8_NUM_ELEMENTS];
};
struct StdVideoH264SequenceParameterSet {
  StdVideoH264SpsFlags flags;
  int32_t profile_idc;        // StdVideoH264ProfileIdc
  int32_t level_idc;          // StdVideoH264LevelIdc
  int32_t chroma_format_idc;  // StdVideoH264ChromaFormatIdc
  uint8_t seq_parameter_set_id;
  uint8_t bit_depth_luma_minus8;
  uint8_t bit_depth_chroma_minus8;
  uint8_t log2_max_frame_num_minus4;
  int32_t pic_order_cnt_type;  // StdVideoH264PocType
  int32_t offset_for_non_ref_pic;
  int32_t offset_for_top_to_bottom_field;
  uint8_t log2_max_pic_order_cnt_lsb_minus4;
  uint8_t num_ref_frames_in_pic_order_cnt_cycle;
  uint8_t max_num_ref_frames;
  uint8_t reserved1;
  uint32_t pic_width_in_mbs_minus1;
  uint32_t pic_height_in_map_units_minus1;
  uint32_t frame_crop_left_offset;
  uint32_t frame_crop_right_offset;
  uint32_t frame_crop_top_offset;
  uint32_t frame_crop_bottom_offset;
  uint32_t reserved2;
  const int32_t* pOffsetForRefFrame;
  const StdVideoH264ScalingLists* pScalingLists;
  const StdVideoH264SequenceParameterSetVui* pSequenceParameterSetVui;
};
struct StdVideoH264PpsFlags {
  uint32_t transform_8x8_mode_flag : 1;
  uint32_t redundant_pic_cnt_present_flag : 1;
  uint32_t constrained_intra_pred_flag : 1;
  uint32_t deblocking_filter_control_present_flag : 1;
  uint32_t weighted_pred_flag : 1;
  uint32_t bottom_field_pic_order_in_frame_present_flag : 1;
  uint32_t entropy_coding_mode_flag : 1;
  uint32_t pic_scaling_matrix_present_flag : 1;
};
struct StdVideoH264PictureParameterSet {
  StdVideoH264PpsFlags flags;
  uint8_t seq_parameter_set_id;
  uint8_t pic_parameter_set_id;
  uint8_t num_ref_idx_l0_default_active_minus1;
  uint8_t num_ref_idx_l1_default_active_minus1;
  int32_t weighted_bipred_idc;  // StdVideoH264WeightedBipredIdc
  int8_t pic_init_qp_minus26;
  int8_t pic_init_qs_minus26;
  int8_t chroma_qp_index_offset;
  int8_t second_chroma_qp_index_offset;
  const StdVideoH264ScalingLists* pScalingLists;
};
struct StdVideoDecodeH264PictureInfoFlags {
  uint32_t field_pic_flag : 1;
  uint32_t is_intra : 1;
  uint32_t IdrPicFlag : 1;
  uint32_t bottom_field_flag : 1;
  uint32_t is_reference : 1;
  uint32_t complementary_field_pair : 1;
};
struct StdVideoDecodeH264PictureInfo {
  StdVideoDecodeH264PictureInfoFlags flags;
  uint8_t seq_parameter_set_id;
  uint8_t pic_parameter_set_id;
  uint8_t reserved1;
  uint8_t reserved2;
  uint16_t frame_num;
  uint16_t idr_pic_id;
  int32_t PicOrderCnt[2];
};
struct StdVideoDecodeH264ReferenceInfoFlags {
  uint32_t top_field_flag : 1;
  uint32_t bottom_field_flag : 1;
  uint32_t used_for_long_term_reference : 1;
  uint32_t is_non_existing : 1;
};
struct StdVideoDecodeH264ReferenceInfo {
  StdVideoDecodeH264ReferenceInfoFlags flags;
  uint16_t FrameNum;
  uint16_t reserved;
  int32_t PicOrderCnt[2];
};

struct VkVideoDecodeH264SessionParametersAddInfoKHR {
  VkStructureType sType;
  const void* pNext;
  uint32_t stdSPSCount;
  const StdVideoH264SequenceParameterSet* pStdSPSs;
  uint32_t stdPPSCount;
  const StdVideoH264PictureParameterSet* pStdPPSs;
};
struct VkVideoDecodeH264SessionParametersCreateInfoKHR {
  VkStructureType sType;
  const void* pNext;
  uint32_t maxStdSPSCount;
  uint32_t maxStdPPSCount;
  const VkVideoDecodeH264SessionParametersAddInfoKHR* pParametersAddInfo;
};
struct VkVideoDecodeH264PictureInfoKHR {
  VkStructureType sType;
  const void* pNext;
  const StdVideoDecodeH264PictureInfo* pStdPictureInfo;
  uint32_t sliceCount;
  const uint32_t* pSliceOffsets;
};
struct VkVideoDecodeH264DpbSlotInfoKHR {
  VkStructureType sType;
  const void* pNext;
  const StdVideoDecodeH264ReferenceInfo* pStdReferenceInfo;
};

// Instance-level entry points of the video extensions (through vkGetInstanceProcAddr with the instance).
#define OCL_VK_VIDEO_INSTANCE_ENTRY_POINTS(X)                                                                                     \
  X(vkGetPhysicalDeviceQueueFamilyProperties2, void, (VkPhysicalDevice, uint32_t*, VkQueueFamilyProperties2*))                    \
  X(vkGetPhysicalDeviceVideoCapabilitiesKHR, VkResult, (VkPhysicalDevice, const VkVideoProfileInfoKHR*, VkVideoCapabilitiesKHR*)) \
  X(vkGetPhysicalDeviceVideoFormatPropertiesKHR, VkResult,                                                                        \
    (VkPhysicalDevice, const VkPhysicalDeviceVideoFormatInfoKHR*, uint32_t*, VkVideoFormatPropertiesKHR*))

// Device-level entry points (through vkGetDeviceProcAddr).
#define OCL_VK_VIDEO_DEVICE_ENTRY_POINTS(X)                                                                                           \
  X(vkCreateVideoSessionKHR, VkResult, (VkDevice, const VkVideoSessionCreateInfoKHR*, const void*, VkVideoSessionKHR*))               \
  X(vkDestroyVideoSessionKHR, void, (VkDevice, VkVideoSessionKHR, const void*))                                                       \
  X(vkGetVideoSessionMemoryRequirementsKHR, VkResult, (VkDevice, VkVideoSessionKHR, uint32_t*, VkVideoSessionMemoryRequirementsKHR*)) \
  X(vkBindVideoSessionMemoryKHR, VkResult, (VkDevice, VkVideoSessionKHR, uint32_t, const VkBindVideoSessionMemoryInfoKHR*))           \
  X(vkCreateVideoSessionParametersKHR, VkResult,                                                                                      \
    (VkDevice, const VkVideoSessionParametersCreateInfoKHR*, const void*, VkVideoSessionParametersKHR*))                              \
  X(vkDestroyVideoSessionParametersKHR, void, (VkDevice, VkVideoSessionParametersKHR, const void*))                                   \
  X(vkCmdBeginVideoCodingKHR, void, (VkCommandBuffer, const VkVideoBeginCodingInfoKHR*))                                              \
  X(vkCmdEndVideoCodingKHR, void, (VkCommandBuffer, const VkVideoEndCodingInfoKHR*))                                                  \
  X(vkCmdControlVideoCodingKHR, void, (VkCommandBuffer, const VkVideoCodingControlInfoKHR*))                                          \
  X(vkCmdDecodeVideoKHR, void, (VkCommandBuffer, const VkVideoDecodeInfoKHR*))                                                        \
  X(vkCreateImageView, VkResult, (VkDevice, const VkImageViewCreateInfo*, const void*, VkImageView*))                                 \
  X(vkDestroyImageView, void, (VkDevice, VkImageView, const void*))                                                                   \
  X(vkCreateCommandPool, VkResult, (VkDevice, const VkCommandPoolCreateInfo*, const void*, VkCommandPool*))                           \
  X(vkDestroyCommandPool, void, (VkDevice, VkCommandPool, const void*))                                                               \
  X(vkCmdCopyImageToBuffer, void, (VkCommandBuffer, VkImage, int32_t, VkBuffer, uint32_t, const VkBufferImageCopy*))                  \
  X(vkQueueSubmit, VkResult, (VkQueue, uint32_t, const VkSubmitInfo*, VkFence))

}  // namespace vk
}  // namespace ocl
