// The Vulkan Video types the module declares itself so that the addon builds
// without Vulkan headers (native/video/vk_video_decls.h for H.264 and the
// common types, vk_video_h265_decls.h for H.265), compiled beside the
// published headers (Debian's libvulkan-dev 1.3.239) and compared: every
// structure's size and alignment, the listed fields' offsets, the listed
// flags' bits and the listed constants' values.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { outputOf, repoRoot } from './helpers';

describe('the module declares its Vulkan Video types itself (native/video/vk_video_decls.h, vk_video_h265_decls.h): they match the published headers', () => {
  // Every structure the module passes to the driver, and the fields whose place matters most.
  const structures = [
    'VkQueueFamilyProperties2',
    'VkQueueFamilyVideoPropertiesKHR',
    'VkVideoProfileInfoKHR',
    'VkVideoProfileListInfoKHR',
    'VkVideoCapabilitiesKHR',
    'VkVideoDecodeCapabilitiesKHR',
    'VkVideoDecodeH264ProfileInfoKHR',
    'VkVideoDecodeH264CapabilitiesKHR',
    'VkPhysicalDeviceVideoFormatInfoKHR',
    'VkVideoFormatPropertiesKHR',
    'VkVideoPictureResourceInfoKHR',
    'VkVideoReferenceSlotInfoKHR',
    'VkVideoSessionMemoryRequirementsKHR',
    'VkBindVideoSessionMemoryInfoKHR',
    'VkVideoSessionCreateInfoKHR',
    'VkVideoSessionParametersCreateInfoKHR',
    'VkVideoBeginCodingInfoKHR',
    'VkVideoEndCodingInfoKHR',
    'VkVideoCodingControlInfoKHR',
    'VkVideoDecodeInfoKHR',
    'VkImageViewCreateInfo',
    'VkImageViewUsageCreateInfo',
    'StdVideoH264HrdParameters',
    'StdVideoH264SequenceParameterSetVui',
    'StdVideoH264ScalingLists',
    'StdVideoH264SequenceParameterSet',
    'StdVideoH264PictureParameterSet',
    'StdVideoDecodeH264PictureInfo',
    'StdVideoDecodeH264ReferenceInfo',
    'VkVideoDecodeH264SessionParametersAddInfoKHR',
    'VkVideoDecodeH264SessionParametersCreateInfoKHR',
    'VkVideoDecodeH264PictureInfoKHR',
    'VkVideoDecodeH264DpbSlotInfoKHR',
    // H.265 (vk_video_h265_decls.h; the profile-info and capabilities structures are in vk_video_decls.h), and the
    // codec enums the structures hold.
    'VkVideoDecodeH265ProfileInfoKHR',
    'VkVideoDecodeH265CapabilitiesKHR',
    'StdVideoH265ChromaFormatIdc',
    'StdVideoH265ProfileIdc',
    'StdVideoH265LevelIdc',
    'StdVideoH265SliceType',
    'StdVideoH265PictureType',
    'StdVideoH265AspectRatioIdc',
    'StdVideoH265ProfileTierLevelFlags',
    'StdVideoH265ProfileTierLevel',
    'StdVideoH265DecPicBufMgr',
    'StdVideoH265SubLayerHrdParameters',
    'StdVideoH265HrdFlags',
    'StdVideoH265HrdParameters',
    'StdVideoH265VpsFlags',
    'StdVideoH265VideoParameterSet',
    'StdVideoH265ScalingLists',
    'StdVideoH265SpsVuiFlags',
    'StdVideoH265SequenceParameterSetVui',
    'StdVideoH265PredictorPaletteEntries',
    'StdVideoH265SpsFlags',
    'StdVideoH265ShortTermRefPicSetFlags',
    'StdVideoH265ShortTermRefPicSet',
    'StdVideoH265LongTermRefPicsSps',
    'StdVideoH265SequenceParameterSet',
    'StdVideoH265PpsFlags',
    'StdVideoH265PictureParameterSet',
    'StdVideoDecodeH265PictureInfoFlags',
    'StdVideoDecodeH265PictureInfo',
    'StdVideoDecodeH265ReferenceInfoFlags',
    'StdVideoDecodeH265ReferenceInfo',
    'VkVideoDecodeH265SessionParametersAddInfoKHR',
    'VkVideoDecodeH265SessionParametersCreateInfoKHR',
    'VkVideoDecodeH265PictureInfoKHR',
    'VkVideoDecodeH265DpbSlotInfoKHR',
  ];
  const fields: [string, string][] = [
    ['VkVideoCapabilitiesKHR', 'stdHeaderVersion'],
    ['VkVideoCapabilitiesKHR', 'maxDpbSlots'],
    ['VkVideoSessionCreateInfoKHR', 'pStdHeaderVersion'],
    ['VkVideoDecodeInfoKHR', 'dstPictureResource'],
    ['VkVideoDecodeInfoKHR', 'pReferenceSlots'],
    ['StdVideoH264SequenceParameterSet', 'pic_width_in_mbs_minus1'],
    ['StdVideoH264SequenceParameterSet', 'pOffsetForRefFrame'],
    ['StdVideoH264SequenceParameterSet', 'pSequenceParameterSetVui'],
    ['StdVideoH264SequenceParameterSetVui', 'max_num_reorder_frames'],
    ['StdVideoH264SequenceParameterSetVui', 'pHrdParameters'],
    ['StdVideoH264PictureParameterSet', 'weighted_bipred_idc'],
    ['StdVideoH264PictureParameterSet', 'pScalingLists'],
    ['StdVideoH264ScalingLists', 'ScalingList8x8'],
    ['StdVideoDecodeH264PictureInfo', 'PicOrderCnt'],
    ['StdVideoDecodeH264ReferenceInfo', 'PicOrderCnt'],
    // H.265: every field after a bit-field, an array or a pointer, and every pointer of a parameter set.
    ['VkVideoDecodeH265ProfileInfoKHR', 'stdProfileIdc'],
    ['VkVideoDecodeH265CapabilitiesKHR', 'maxLevelIdc'],
    ['StdVideoH265ProfileTierLevel', 'general_profile_idc'],
    ['StdVideoH265ProfileTierLevel', 'general_level_idc'],
    ['StdVideoH265DecPicBufMgr', 'max_dec_pic_buffering_minus1'],
    ['StdVideoH265DecPicBufMgr', 'max_num_reorder_pics'],
    ['StdVideoH265SubLayerHrdParameters', 'cpb_size_value_minus1'],
    ['StdVideoH265SubLayerHrdParameters', 'cpb_size_du_value_minus1'],
    ['StdVideoH265SubLayerHrdParameters', 'bit_rate_du_value_minus1'],
    ['StdVideoH265SubLayerHrdParameters', 'cbr_flag'],
    ['StdVideoH265HrdParameters', 'tick_divisor_minus2'],
    ['StdVideoH265HrdParameters', 'elemental_duration_in_tc_minus1'],
    ['StdVideoH265HrdParameters', 'reserved'],
    ['StdVideoH265HrdParameters', 'pSubLayerHrdParametersNal'],
    ['StdVideoH265HrdParameters', 'pSubLayerHrdParametersVcl'],
    ['StdVideoH265VideoParameterSet', 'vps_video_parameter_set_id'],
    ['StdVideoH265VideoParameterSet', 'vps_num_units_in_tick'],
    ['StdVideoH265VideoParameterSet', 'pDecPicBufMgr'],
    ['StdVideoH265VideoParameterSet', 'pHrdParameters'],
    ['StdVideoH265VideoParameterSet', 'pProfileTierLevel'],
    ['StdVideoH265ScalingLists', 'ScalingList8x8'],
    ['StdVideoH265ScalingLists', 'ScalingList16x16'],
    ['StdVideoH265ScalingLists', 'ScalingList32x32'],
    ['StdVideoH265ScalingLists', 'ScalingListDCCoef16x16'],
    ['StdVideoH265ScalingLists', 'ScalingListDCCoef32x32'],
    ['StdVideoH265SequenceParameterSetVui', 'aspect_ratio_idc'],
    ['StdVideoH265SequenceParameterSetVui', 'def_disp_win_left_offset'],
    ['StdVideoH265SequenceParameterSetVui', 'vui_num_units_in_tick'],
    ['StdVideoH265SequenceParameterSetVui', 'max_bytes_per_pic_denom'],
    ['StdVideoH265SequenceParameterSetVui', 'pHrdParameters'],
    ['StdVideoH265ShortTermRefPicSet', 'delta_idx_minus1'],
    ['StdVideoH265ShortTermRefPicSet', 'num_negative_pics'],
    ['StdVideoH265ShortTermRefPicSet', 'delta_poc_s0_minus1'],
    ['StdVideoH265ShortTermRefPicSet', 'delta_poc_s1_minus1'],
    ['StdVideoH265LongTermRefPicsSps', 'lt_ref_pic_poc_lsb_sps'],
    ['StdVideoH265SequenceParameterSet', 'chroma_format_idc'],
    ['StdVideoH265SequenceParameterSet', 'sps_video_parameter_set_id'],
    ['StdVideoH265SequenceParameterSet', 'sps_num_palette_predictor_initializers_minus1'],
    ['StdVideoH265SequenceParameterSet', 'conf_win_left_offset'],
    ['StdVideoH265SequenceParameterSet', 'pProfileTierLevel'],
    ['StdVideoH265SequenceParameterSet', 'pDecPicBufMgr'],
    ['StdVideoH265SequenceParameterSet', 'pScalingLists'],
    ['StdVideoH265SequenceParameterSet', 'pShortTermRefPicSet'],
    ['StdVideoH265SequenceParameterSet', 'pLongTermRefPicsSps'],
    ['StdVideoH265SequenceParameterSet', 'pSequenceParameterSetVui'],
    ['StdVideoH265SequenceParameterSet', 'pPredictorPaletteEntries'],
    ['StdVideoH265PictureParameterSet', 'pps_pic_parameter_set_id'],
    ['StdVideoH265PictureParameterSet', 'cb_qp_offset_list'],
    ['StdVideoH265PictureParameterSet', 'cr_qp_offset_list'],
    ['StdVideoH265PictureParameterSet', 'log2_sao_offset_scale_luma'],
    ['StdVideoH265PictureParameterSet', 'column_width_minus1'],
    ['StdVideoH265PictureParameterSet', 'row_height_minus1'],
    ['StdVideoH265PictureParameterSet', 'reserved3'],
    ['StdVideoH265PictureParameterSet', 'pScalingLists'],
    ['StdVideoH265PictureParameterSet', 'pPredictorPaletteEntries'],
    ['StdVideoDecodeH265PictureInfo', 'sps_video_parameter_set_id'],
    ['StdVideoDecodeH265PictureInfo', 'PicOrderCntVal'],
    ['StdVideoDecodeH265PictureInfo', 'NumBitsForSTRefPicSetInSlice'],
    ['StdVideoDecodeH265PictureInfo', 'RefPicSetStCurrBefore'],
    ['StdVideoDecodeH265PictureInfo', 'RefPicSetStCurrAfter'],
    ['StdVideoDecodeH265PictureInfo', 'RefPicSetLtCurr'],
    ['StdVideoDecodeH265ReferenceInfo', 'PicOrderCntVal'],
    ['VkVideoDecodeH265SessionParametersAddInfoKHR', 'stdVPSCount'],
    ['VkVideoDecodeH265SessionParametersAddInfoKHR', 'pStdVPSs'],
    ['VkVideoDecodeH265SessionParametersAddInfoKHR', 'stdSPSCount'],
    ['VkVideoDecodeH265SessionParametersAddInfoKHR', 'pStdSPSs'],
    ['VkVideoDecodeH265SessionParametersAddInfoKHR', 'stdPPSCount'],
    ['VkVideoDecodeH265SessionParametersAddInfoKHR', 'pStdPPSs'],
    ['VkVideoDecodeH265SessionParametersCreateInfoKHR', 'maxStdVPSCount'],
    ['VkVideoDecodeH265SessionParametersCreateInfoKHR', 'maxStdPPSCount'],
    ['VkVideoDecodeH265SessionParametersCreateInfoKHR', 'pParametersAddInfo'],
    ['VkVideoDecodeH265PictureInfoKHR', 'pStdPictureInfo'],
    ['VkVideoDecodeH265PictureInfoKHR', 'sliceSegmentCount'],
    ['VkVideoDecodeH265PictureInfoKHR', 'pSliceSegmentOffsets'],
    ['VkVideoDecodeH265DpbSlotInfoKHR', 'pStdReferenceInfo'],
  ];
  // Bit-fields: a value with one flag set, read back as the whole word (a third entry, the value to store: all ones
  // of a wider field, so that its width shows too).
  const flags: [string, string, string?][] = [
    ['StdVideoH264SpsFlags', 'vui_parameters_present_flag'],
    ['StdVideoH264SpsFlags', 'frame_mbs_only_flag'],
    ['StdVideoH264PpsFlags', 'pic_scaling_matrix_present_flag'],
    ['StdVideoDecodeH264PictureInfoFlags', 'is_reference'],
    ['StdVideoDecodeH264ReferenceInfoFlags', 'is_non_existing'],
    ['StdVideoH264SpsVuiFlags', 'bitstream_restriction_flag'],
    // H.265: each Flags structure's last flag (a wrong count before it shows there) and others.
    ['StdVideoH265ProfileTierLevelFlags', 'general_tier_flag'],
    ['StdVideoH265ProfileTierLevelFlags', 'general_frame_only_constraint_flag'],
    ['StdVideoH265HrdFlags', 'sub_pic_cpb_params_in_pic_timing_sei_flag'],
    ['StdVideoH265HrdFlags', 'fixed_pic_rate_general_flag', '0xff'],
    ['StdVideoH265HrdFlags', 'fixed_pic_rate_within_cvs_flag', '0xff'],
    ['StdVideoH265HrdFlags', 'low_delay_hrd_flag', '0xff'],
    ['StdVideoH265VpsFlags', 'vps_temporal_id_nesting_flag'],
    ['StdVideoH265VpsFlags', 'vps_poc_proportional_to_timing_flag'],
    ['StdVideoH265SpsVuiFlags', 'vui_hrd_parameters_present_flag'],
    ['StdVideoH265SpsVuiFlags', 'restricted_ref_pic_lists_flag'],
    ['StdVideoH265SpsFlags', 'vui_parameters_present_flag'],
    ['StdVideoH265SpsFlags', 'sps_range_extension_flag'],
    ['StdVideoH265SpsFlags', 'intra_boundary_filtering_disabled_flag'],
    ['StdVideoH265ShortTermRefPicSetFlags', 'inter_ref_pic_set_prediction_flag'],
    ['StdVideoH265ShortTermRefPicSetFlags', 'delta_rps_sign'],
    ['StdVideoH265PpsFlags', 'tiles_enabled_flag'],
    ['StdVideoH265PpsFlags', 'pps_scaling_list_data_present_flag'],
    ['StdVideoH265PpsFlags', 'pps_range_extension_flag'],
    ['StdVideoDecodeH265PictureInfoFlags', 'IrapPicFlag'],
    ['StdVideoDecodeH265PictureInfoFlags', 'IsReference'],
    ['StdVideoDecodeH265PictureInfoFlags', 'short_term_ref_pic_set_sps_flag'],
    ['StdVideoDecodeH265ReferenceInfoFlags', 'used_for_long_term_reference'],
    ['StdVideoDecodeH265ReferenceInfoFlags', 'unused_for_reference'],
  ];
  // Constants and enum values (H.265): the value of each.
  const h265 = (prefix: string, suffixes: string) => suffixes.split(' ').map((s) => `STD_VIDEO_H265_${prefix}_${s}`);
  const values = [
    ...['CAPABILITIES', 'SESSION_PARAMETERS_CREATE_INFO', 'SESSION_PARAMETERS_ADD_INFO', 'PROFILE_INFO', 'PICTURE_INFO', 'DPB_SLOT_INFO'].map(
      (s) => `VK_STRUCTURE_TYPE_VIDEO_DECODE_H265_${s}_KHR`,
    ),
    'VK_VIDEO_CODEC_OPERATION_DECODE_H265_BIT_KHR',
    ...[
      'SUBLAYERS_LIST_SIZE',
      'CPB_CNT_LIST_SIZE',
      ...['4X4', '8X8', '16X16', '32X32'].flatMap((n) => [`SCALING_LIST_${n}_NUM_LISTS`, `SCALING_LIST_${n}_NUM_ELEMENTS`]),
      'PREDICTOR_PALETTE_COMPONENTS_LIST_SIZE',
      'PREDICTOR_PALETTE_COMP_ENTRIES_LIST_SIZE',
      'MAX_DPB_SIZE',
      'MAX_LONG_TERM_REF_PICS_SPS',
      'CHROMA_QP_OFFSET_LIST_SIZE',
      'CHROMA_QP_OFFSET_TILE_COLS_LIST_SIZE',
      'CHROMA_QP_OFFSET_TILE_ROWS_LIST_SIZE',
      'MAX_SHORT_TERM_REF_PIC_SETS',
    ].map((s) => `STD_VIDEO_H265_${s}`),
    'STD_VIDEO_DECODE_H265_REF_PIC_SET_LIST_SIZE',
    ...h265('CHROMA_FORMAT_IDC', 'MONOCHROME 420 422 444 INVALID'),
    ...h265('PROFILE_IDC', 'MAIN MAIN_10 MAIN_STILL_PICTURE FORMAT_RANGE_EXTENSIONS SCC_EXTENSIONS INVALID'),
    ...h265('LEVEL_IDC', '1_0 2_0 2_1 3_0 3_1 4_0 4_1 5_0 5_1 5_2 6_0 6_1 6_2 INVALID'),
    ...h265('SLICE_TYPE', 'B P I INVALID'),
    ...h265('PICTURE_TYPE', 'P B I IDR INVALID'),
    ...h265(
      'ASPECT_RATIO_IDC',
      'UNSPECIFIED SQUARE 12_11 10_11 16_11 40_33 24_11 20_11 32_11 80_33 18_11 15_11 64_33 160_99 4_3 3_2 2_1 EXTENDED_SAR INVALID',
    ),
  ];

  it('every structure has the size and alignment, every listed field the offset, every flag the bit of vulkan_core.h 1.3.239 (and every listed constant the value)', async () => {
    const lines = [
      ...structures.map((t) => `  printf("%zu %zu\\n", sizeof(${t}), alignof(${t}));`),
      ...fields.map(([t, f]) => `  printf("%zu\\n", offsetof(${t}, ${f}));`),
      ...flags.map(([t, f, value = '1']) => `  { ${t} v{}; v.${f} = ${value}; uint32_t w; std::memcpy(&w, &v, 4); printf("%u\\n", w); }`),
      ...values.map((v) => `  printf("%lld\\n", (long long)(${v}));`),
    ].join('\n');
    const dir = mkdtempSync(join(tmpdir(), 'vkvideo-'));
    try {
      const program = (include: string, prefix: string) =>
        `#include <cstdio>\n#include <cstddef>\n#include <cstdint>\n#include <cstring>\n${include}\n${prefix}\nint main() {\n${lines}\n}\n`;
      writeFileSync(
        join(dir, 'ours.cc'),
        program('#include "video/vk_video_decls.h"\n#include "video/vk_video_h265_decls.h"', 'using namespace ocl::vk;'),
      );
      writeFileSync(join(dir, 'theirs.cc'), program('#include <vulkan/vulkan_core.h>', ''));
      const run = async (name: string) => {
        await outputOf('g++', ['-std=c++17', `-I${join(repoRoot, 'native')}`, join(dir, `${name}.cc`), '-o', join(dir, name)]);
        return (await outputOf(join(dir, name), [])).trim().split('\n');
      };
      const [ours, theirs] = await Promise.all([run('ours'), run('theirs')]);
      const names = [...structures, ...fields.map((f) => f.join('.')), ...flags.map(([t, f]) => `${t}.${f}`), ...values];
      expect(ours.length).toBe(names.length);
      expect(names.flatMap((n, i) => (ours[i] === theirs[i] ? [] : [`${n}: ${ours[i]} vs ${theirs[i]}`]))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
