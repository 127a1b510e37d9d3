// H.265 video, sequence and picture parameter sets as Vulkan Video takes them
// (StdVideoH265VideoParameterSet / SequenceParameterSet / PictureParameterSet
// and the structures they point at), read from the plain objects
// lib/video/h265-vulkan.ts builds: the StdVideo field names, `flags` objects
// of booleans, arrays for the fixed-size arrays, and for what the pointers
// point at: `profileTierLevel`, `decPicBufMgr`, `scaling` (or null),
// `shortTermRefPicSets`, `longTermRefPicsSps` (or null), `vui` (or null). HRD
// parameters and palette predictors are not passed (null): decoding does not
// use them, and the room refuses the extensions that would.
// Conversion only: the values were checked by the bitstream room.
#include <string>

#include "video/module.h"
#include "video/plain_object.h"

namespace ocl {
namespace vk {
namespace {

// An array of at most `max` numbers into out[0..] (the rest left as they are).
template <typename T>
void Ints(const Napi::Object& o, const char* key, T* out, uint32_t max) {
  Napi::Value v = o.Get(key);
  if (!v.IsArray()) throw Napi::TypeError::New(o.Env(), std::string(key) + " must be an array");
  Napi::Array a = v.As<Napi::Array>();
  if (a.Length() > max) throw Napi::RangeError::New(o.Env(), std::string(key) + " holds more than " + std::to_string(max) + " numbers");
  for (uint32_t i = 0; i < a.Length(); ++i) out[i] = T(a.Get(i).As<Napi::Number>().Int64Value());
}
Napi::Array List(Napi::Env env, const Napi::Value& value, const char* what, uint32_t max) {
  if (!value.IsArray()) throw Napi::TypeError::New(env, std::string(what) + " must be an array");
  Napi::Array a = value.As<Napi::Array>();
  if (a.Length() > max) throw Napi::RangeError::New(env, std::string("at most ") + std::to_string(max) + " " + what);
  return a;
}
Napi::Object Item(Napi::Env env, const Napi::Array& list, uint32_t i, const char* what) {
  Napi::Value value = list.Get(i);
  if (!value.IsObject()) throw Napi::TypeError::New(env, std::string(what) + "[" + std::to_string(i) + "] must be an object");
  return value.As<Napi::Object>();
}

void ReadPtl(const Napi::Object& o, StdVideoH265ProfileTierLevel& out) {
  out = {};
  Napi::Object f = Obj(o, "flags");
  out.flags.general_tier_flag = Flag(f, "general_tier_flag");
  out.flags.general_progressive_source_flag = Flag(f, "general_progressive_source_flag");
  out.flags.general_interlaced_source_flag = Flag(f, "general_interlaced_source_flag");
  out.flags.general_non_packed_constraint_flag = Flag(f, "general_non_packed_constraint_flag");
  out.flags.general_frame_only_constraint_flag = Flag(f, "general_frame_only_constraint_flag");
  out.general_profile_idc = StdVideoH265ProfileIdc(Int(o, "general_profile_idc"));
  out.general_level_idc = StdVideoH265LevelIdc(Int(o, "general_level_idc"));
}

void ReadDpb(const Napi::Object& o, StdVideoH265DecPicBufMgr& out) {
  out = {};
  Ints(o, "max_latency_increase_plus1", out.max_latency_increase_plus1, STD_VIDEO_H265_SUBLAYERS_LIST_SIZE);
  Ints(o, "max_dec_pic_buffering_minus1", out.max_dec_pic_buffering_minus1, STD_VIDEO_H265_SUBLAYERS_LIST_SIZE);
  Ints(o, "max_num_reorder_pics", out.max_num_reorder_pics, STD_VIDEO_H265_SUBLAYERS_LIST_SIZE);
}

void ReadScaling(const Napi::Object& o, StdVideoH265ScalingLists& out) {
  out = {};
  Ints(o, "ScalingList4x4", &out.ScalingList4x4[0][0], 6 * 16);
  Ints(o, "ScalingList8x8", &out.ScalingList8x8[0][0], 6 * 64);
  Ints(o, "ScalingList16x16", &out.ScalingList16x16[0][0], 6 * 64);
  Ints(o, "ScalingList32x32", &out.ScalingList32x32[0][0], 2 * 64);
  Ints(o, "ScalingListDCCoef16x16", out.ScalingListDCCoef16x16, 6);
  Ints(o, "ScalingListDCCoef32x32", out.ScalingListDCCoef32x32, 2);
}

void ReadShortTerm(const Napi::Object& o, StdVideoH265ShortTermRefPicSet& out) {
  out = {};
  Napi::Object f = Obj(o, "flags");
  out.flags.inter_ref_pic_set_prediction_flag = Flag(f, "inter_ref_pic_set_prediction_flag");
  out.flags.delta_rps_sign = Flag(f, "delta_rps_sign");
  out.delta_idx_minus1 = uint32_t(Int(o, "delta_idx_minus1"));
  out.use_delta_flag = uint16_t(Int(o, "use_delta_flag"));
  out.abs_delta_rps_minus1 = uint16_t(Int(o, "abs_delta_rps_minus1"));
  out.used_by_curr_pic_flag = uint16_t(Int(o, "used_by_curr_pic_flag"));
  out.used_by_curr_pic_s0_flag = uint16_t(Int(o, "used_by_curr_pic_s0_flag"));
  out.used_by_curr_pic_s1_flag = uint16_t(Int(o, "used_by_curr_pic_s1_flag"));
  out.num_negative_pics = uint8_t(Int(o, "num_negative_pics"));
  out.num_positive_pics = uint8_t(Int(o, "num_positive_pics"));
  Ints(o, "delta_poc_s0_minus1", out.delta_poc_s0_minus1, STD_VIDEO_H265_MAX_DPB_SIZE);
  Ints(o, "delta_poc_s1_minus1", out.delta_poc_s1_minus1, STD_VIDEO_H265_MAX_DPB_SIZE);
}

void ReadVui(const Napi::Object& v, StdVideoH265SequenceParameterSetVui& vui) {
  vui = {};
  Napi::Object f = Obj(v, "flags");
  vui.flags.aspect_ratio_info_present_flag = Flag(f, "aspect_ratio_info_present_flag");
  vui.flags.overscan_info_present_flag = Flag(f, "overscan_info_present_flag");
  vui.flags.overscan_appropriate_flag = Flag(f, "overscan_appropriate_flag");
  vui.flags.video_signal_type_present_flag = Flag(f, "video_signal_type_present_flag");
  vui.flags.video_full_range_flag = Flag(f, "video_full_range_flag");
  vui.flags.colour_description_present_flag = Flag(f, "colour_description_present_flag");
  vui.flags.chroma_loc_info_present_flag = Flag(f, "chroma_loc_info_present_flag");
  vui.flags.neutral_chroma_indication_flag = Flag(f, "neutral_chroma_indication_flag");
  vui.flags.field_seq_flag = Flag(f, "field_seq_flag");
  vui.flags.frame_field_info_present_flag = Flag(f, "frame_field_info_present_flag");
  vui.flags.default_display_window_flag = Flag(f, "default_display_window_flag");
  vui.flags.vui_timing_info_present_flag = Flag(f, "vui_timing_info_present_flag");
  vui.flags.vui_poc_proportional_to_timing_flag = Flag(f, "vui_poc_proportional_to_timing_flag");
  // pHrdParameters stays null, so the flag that would make drivers read it stays 0 (lib/video/h265-vulkan.ts sends 0).
  vui.flags.vui_hrd_parameters_present_flag = Flag(f, "vui_hrd_parameters_present_flag");
  vui.flags.bitstream_restriction_flag = Flag(f, "bitstream_restriction_flag");
  vui.flags.tiles_fixed_structure_flag = Flag(f, "tiles_fixed_structure_flag");
  vui.flags.motion_vectors_over_pic_boundaries_flag = Flag(f, "motion_vectors_over_pic_boundaries_flag");
  vui.flags.restricted_ref_pic_lists_flag = Flag(f, "restricted_ref_pic_lists_flag");
  vui.aspect_ratio_idc = StdVideoH265AspectRatioIdc(Int(v, "aspect_ratio_idc"));
  vui.sar_width = uint16_t(Int(v, "sar_width"));
  vui.sar_height = uint16_t(Int(v, "sar_height"));
  vui.video_format = uint8_t(Int(v, "video_format"));
  vui.colour_primaries = uint8_t(Int(v, "colour_primaries"));
  vui.transfer_characteristics = uint8_t(Int(v, "transfer_characteristics"));
  vui.matrix_coeffs = uint8_t(Int(v, "matrix_coeffs"));
  vui.chroma_sample_loc_type_top_field = uint8_t(Int(v, "chroma_sample_loc_type_top_field"));
  vui.chroma_sample_loc_type_bottom_field = uint8_t(Int(v, "chroma_sample_loc_type_bottom_field"));
  vui.def_disp_win_left_offset = uint16_t(Int(v, "def_disp_win_left_offset"));
  vui.def_disp_win_right_offset = uint16_t(Int(v, "def_disp_win_right_offset"));
  vui.def_disp_win_top_offset = uint16_t(Int(v, "def_disp_win_top_offset"));
  vui.def_disp_win_bottom_offset = uint16_t(Int(v, "def_disp_win_bottom_offset"));
  vui.vui_num_units_in_tick = uint32_t(Int(v, "vui_num_units_in_tick"));
  vui.vui_time_scale = uint32_t(Int(v, "vui_time_scale"));
  vui.vui_num_ticks_poc_diff_one_minus1 = uint32_t(Int(v, "vui_num_ticks_poc_diff_one_minus1"));
  vui.min_spatial_segmentation_idc = uint16_t(Int(v, "min_spatial_segmentation_idc"));
  vui.max_bytes_per_pic_denom = uint8_t(Int(v, "max_bytes_per_pic_denom"));
  vui.max_bits_per_min_cu_denom = uint8_t(Int(v, "max_bits_per_min_cu_denom"));
  vui.log2_max_mv_length_horizontal = uint8_t(Int(v, "log2_max_mv_length_horizontal"));
  vui.log2_max_mv_length_vertical = uint8_t(Int(v, "log2_max_mv_length_vertical"));
}

void ReadSps(Napi::Env env, const Napi::Object& o, uint32_t i, H265ParameterSets& out) {
  StdVideoH265SequenceParameterSet& s = out.sps[i];
  s = {};
  Napi::Object f = Obj(o, "flags");
  s.flags.sps_temporal_id_nesting_flag = Flag(f, "sps_temporal_id_nesting_flag");
  s.flags.separate_colour_plane_flag = Flag(f, "separate_colour_plane_flag");
  s.flags.conformance_window_flag = Flag(f, "conformance_window_flag");
  s.flags.sps_sub_layer_ordering_info_present_flag = Flag(f, "sps_sub_layer_ordering_info_present_flag");
  s.flags.scaling_list_enabled_flag = Flag(f, "scaling_list_enabled_flag");
  s.flags.sps_scaling_list_data_present_flag = Flag(f, "sps_scaling_list_data_present_flag");
  s.flags.amp_enabled_flag = Flag(f, "amp_enabled_flag");
  s.flags.sample_adaptive_offset_enabled_flag = Flag(f, "sample_adaptive_offset_enabled_flag");
  s.flags.pcm_enabled_flag = Flag(f, "pcm_enabled_flag");
  s.flags.pcm_loop_filter_disabled_flag = Flag(f, "pcm_loop_filter_disabled_flag");
  s.flags.long_term_ref_pics_present_flag = Flag(f, "long_term_ref_pics_present_flag");
  s.flags.sps_temporal_mvp_enabled_flag = Flag(f, "sps_temporal_mvp_enabled_flag");
  s.flags.strong_intra_smoothing_enabled_flag = Flag(f, "strong_intra_smoothing_enabled_flag");
  s.flags.vui_parameters_present_flag = Flag(f, "vui_parameters_present_flag");
  s.flags.sps_extension_present_flag = Flag(f, "sps_extension_present_flag");
  s.flags.sps_range_extension_flag = Flag(f, "sps_range_extension_flag");
  s.flags.sps_scc_extension_flag = Flag(f, "sps_scc_extension_flag");
  s.chroma_format_idc = StdVideoH265ChromaFormatIdc(Int(o, "chroma_format_idc"));
  s.pic_width_in_luma_samples = uint32_t(Int(o, "pic_width_in_luma_samples"));
  s.pic_height_in_luma_samples = uint32_t(Int(o, "pic_height_in_luma_samples"));
  s.sps_video_parameter_set_id = uint8_t(Int(o, "sps_video_parameter_set_id"));
  s.sps_max_sub_layers_minus1 = uint8_t(Int(o, "sps_max_sub_layers_minus1"));
  s.sps_seq_parameter_set_id = uint8_t(Int(o, "sps_seq_parameter_set_id"));
  s.bit_depth_luma_minus8 = uint8_t(Int(o, "bit_depth_luma_minus8"));
  s.bit_depth_chroma_minus8 = uint8_t(Int(o, "bit_depth_chroma_minus8"));
  s.log2_max_pic_order_cnt_lsb_minus4 = uint8_t(Int(o, "log2_max_pic_order_cnt_lsb_minus4"));
  s.log2_min_luma_coding_block_size_minus3 = uint8_t(Int(o, "log2_min_luma_coding_block_size_minus3"));
  s.log2_diff_max_min_luma_coding_block_size = uint8_t(Int(o, "log2_diff_max_min_luma_coding_block_size"));
  s.log2_min_luma_transform_block_size_minus2 = uint8_t(Int(o, "log2_min_luma_transform_block_size_minus2"));
  s.log2_diff_max_min_luma_transform_block_size = uint8_t(Int(o, "log2_diff_max_min_luma_transform_block_size"));
  s.max_transform_hierarchy_depth_inter = uint8_t(Int(o, "max_transform_hierarchy_depth_inter"));
  s.max_transform_hierarchy_depth_intra = uint8_t(Int(o, "max_transform_hierarchy_depth_intra"));
  s.num_long_term_ref_pics_sps = uint8_t(Int(o, "num_long_term_ref_pics_sps"));
  s.pcm_sample_bit_depth_luma_minus1 = uint8_t(Int(o, "pcm_sample_bit_depth_luma_minus1"));
  s.pcm_sample_bit_depth_chroma_minus1 = uint8_t(Int(o, "pcm_sample_bit_depth_chroma_minus1"));
  s.log2_min_pcm_luma_coding_block_size_minus3 = uint8_t(Int(o, "log2_min_pcm_luma_coding_block_size_minus3"));
  s.log2_diff_max_min_pcm_luma_coding_block_size = uint8_t(Int(o, "log2_diff_max_min_pcm_luma_coding_block_size"));
  s.conf_win_left_offset = uint32_t(Int(o, "conf_win_left_offset"));
  s.conf_win_right_offset = uint32_t(Int(o, "conf_win_right_offset"));
  s.conf_win_top_offset = uint32_t(Int(o, "conf_win_top_offset"));
  s.conf_win_bottom_offset = uint32_t(Int(o, "conf_win_bottom_offset"));
  ReadPtl(Obj(o, "profileTierLevel"), out.spsPtl[i]);
  s.pProfileTierLevel = &out.spsPtl[i];
  ReadDpb(Obj(o, "decPicBufMgr"), out.spsDpb[i]);
  s.pDecPicBufMgr = &out.spsDpb[i];
  Napi::Value scaling = o.Get("scaling");
  if (scaling.IsObject()) {
    ReadScaling(scaling.As<Napi::Object>(), out.spsScaling[i]);
    s.pScalingLists = &out.spsScaling[i];
  }
  Napi::Array sets = List(env, o.Get("shortTermRefPicSets"), "short-term reference picture sets", STD_VIDEO_H265_MAX_SHORT_TERM_REF_PIC_SETS);
  s.num_short_term_ref_pic_sets = uint8_t(sets.Length());
  out.shortTerm[i].resize(sets.Length());
  for (uint32_t k = 0; k < sets.Length(); ++k) ReadShortTerm(Item(env, sets, k, "shortTermRefPicSets"), out.shortTerm[i][k]);
  s.pShortTermRefPicSet = out.shortTerm[i].empty() ? nullptr : out.shortTerm[i].data();
  Napi::Value longTerm = o.Get("longTermRefPicsSps");
  if (longTerm.IsObject()) {
    Napi::Object lt = longTerm.As<Napi::Object>();
    StdVideoH265LongTermRefPicsSps& l = out.longTerm[i];
    l = {};
    l.used_by_curr_pic_lt_sps_flag = uint32_t(Int(lt, "used_by_curr_pic_lt_sps_flag"));
    Ints(lt, "lt_ref_pic_poc_lsb_sps", l.lt_ref_pic_poc_lsb_sps, STD_VIDEO_H265_MAX_LONG_TERM_REF_PICS_SPS);
    s.pLongTermRefPicsSps = &l;
  }
  Napi::Value vui = o.Get("vui");
  if (vui.IsObject()) {
    ReadVui(vui.As<Napi::Object>(), out.vui[i]);
    s.pSequenceParameterSetVui = &out.vui[i];
  }
}

void ReadPps(const Napi::Object& o, uint32_t i, H265ParameterSets& out) {
  StdVideoH265PictureParameterSet& p = out.pps[i];
  p = {};
  Napi::Object f = Obj(o, "flags");
  p.flags.dependent_slice_segments_enabled_flag = Flag(f, "dependent_slice_segments_enabled_flag");
  p.flags.output_flag_present_flag = Flag(f, "output_flag_present_flag");
  p.flags.sign_data_hiding_enabled_flag = Flag(f, "sign_data_hiding_enabled_flag");
  p.flags.cabac_init_present_flag = Flag(f, "cabac_init_present_flag");
  p.flags.constrained_intra_pred_flag = Flag(f, "constrained_intra_pred_flag");
  p.flags.transform_skip_enabled_flag = Flag(f, "transform_skip_enabled_flag");
  p.flags.cu_qp_delta_enabled_flag = Flag(f, "cu_qp_delta_enabled_flag");
  p.flags.pps_slice_chroma_qp_offsets_present_flag = Flag(f, "pps_slice_chroma_qp_offsets_present_flag");
  p.flags.weighted_pred_flag = Flag(f, "weighted_pred_flag");
  p.flags.weighted_bipred_flag = Flag(f, "weighted_bipred_flag");
  p.flags.transquant_bypass_enabled_flag = Flag(f, "transquant_bypass_enabled_flag");
  p.flags.tiles_enabled_flag = Flag(f, "tiles_enabled_flag");
  p.flags.entropy_coding_sync_enabled_flag = Flag(f, "entropy_coding_sync_enabled_flag");
  p.flags.uniform_spacing_flag = Flag(f, "uniform_spacing_flag");
  p.flags.loop_filter_across_tiles_enabled_flag = Flag(f, "loop_filter_across_tiles_enabled_flag");
  p.flags.pps_loop_filter_across_slices_enabled_flag = Flag(f, "pps_loop_filter_across_slices_enabled_flag");
  p.flags.deblocking_filter_control_present_flag = Flag(f, "deblocking_filter_control_present_flag");
  p.flags.deblocking_filter_override_enabled_flag = Flag(f, "deblocking_filter_override_enabled_flag");
  p.flags.pps_deblocking_filter_disabled_flag = Flag(f, "pps_deblocking_filter_disabled_flag");
  p.flags.pps_scaling_list_data_present_flag = Flag(f, "pps_scaling_list_data_present_flag");
  p.flags.lists_modification_present_flag = Flag(f, "lists_modification_present_flag");
  p.flags.slice_segment_header_extension_present_flag = Flag(f, "slice_segment_header_extension_present_flag");
  p.flags.pps_extension_present_flag = Flag(f, "pps_extension_present_flag");
  p.flags.pps_range_extension_flag = Flag(f, "pps_range_extension_flag");
  p.pps_pic_parameter_set_id = uint8_t(Int(o, "pps_pic_parameter_set_id"));
  p.pps_seq_parameter_set_id = uint8_t(Int(o, "pps_seq_parameter_set_id"));
  p.sps_video_parameter_set_id = uint8_t(Int(o, "sps_video_parameter_set_id"));
  p.num_extra_slice_header_bits = uint8_t(Int(o, "num_extra_slice_header_bits"));
  p.num_ref_idx_l0_default_active_minus1 = uint8_t(Int(o, "num_ref_idx_l0_default_active_minus1"));
  p.num_ref_idx_l1_default_active_minus1 = uint8_t(Int(o, "num_ref_idx_l1_default_active_minus1"));
  p.init_qp_minus26 = int8_t(Int(o, "init_qp_minus26"));
  p.diff_cu_qp_delta_depth = uint8_t(Int(o, "diff_cu_qp_delta_depth"));
  p.pps_cb_qp_offset = int8_t(Int(o, "pps_cb_qp_offset"));
  p.pps_cr_qp_offset = int8_t(Int(o, "pps_cr_qp_offset"));
  p.pps_beta_offset_div2 = int8_t(Int(o, "pps_beta_offset_div2"));
  p.pps_tc_offset_div2 = int8_t(Int(o, "pps_tc_offset_div2"));
  p.log2_parallel_merge_level_minus2 = uint8_t(Int(o, "log2_parallel_merge_level_minus2"));
  p.num_tile_columns_minus1 = uint8_t(Int(o, "num_tile_columns_minus1"));
  p.num_tile_rows_minus1 = uint8_t(Int(o, "num_tile_rows_minus1"));
  Ints(o, "column_width_minus1", p.column_width_minus1, STD_VIDEO_H265_CHROMA_QP_OFFSET_TILE_COLS_LIST_SIZE);
  Ints(o, "row_height_minus1", p.row_height_minus1, STD_VIDEO_H265_CHROMA_QP_OFFSET_TILE_ROWS_LIST_SIZE);
  Napi::Value scaling = o.Get("scaling");
  if (scaling.IsObject()) {
    ReadScaling(scaling.As<Napi::Object>(), out.ppsScaling[i]);
    p.pScalingLists = &out.ppsScaling[i];
  }
}

}  // namespace

void ReadH265ParameterSets(Napi::Env env, const Napi::Value& vpsList, const Napi::Value& spsList, const Napi::Value& ppsList,
                           H265ParameterSets& out) {
  Napi::Array vpsArray = List(env, vpsList, "VPS", 16), spsArray = List(env, spsList, "SPS", 16), ppsArray = List(env, ppsList, "PPS", 64);
  uint32_t nv = vpsArray.Length(), ns = spsArray.Length(), np = ppsArray.Length();
  out.vps.resize(nv);
  out.vpsPtl.resize(nv);
  out.vpsDpb.resize(nv);
  out.sps.resize(ns);
  out.spsPtl.resize(ns);
  out.spsDpb.resize(ns);
  out.spsScaling.resize(ns);
  out.shortTerm.resize(ns);
  out.longTerm.resize(ns);
  out.vui.resize(ns);
  out.pps.resize(np);
  out.ppsScaling.resize(np);
  for (uint32_t i = 0; i < nv; ++i) {
    Napi::Object o = Item(env, vpsArray, i, "vps");
    StdVideoH265VideoParameterSet& v = out.vps[i];
    v = {};
    Napi::Object f = Obj(o, "flags");
    v.flags.vps_temporal_id_nesting_flag = Flag(f, "vps_temporal_id_nesting_flag");
    v.flags.vps_sub_layer_ordering_info_present_flag = Flag(f, "vps_sub_layer_ordering_info_present_flag");
    v.flags.vps_timing_info_present_flag = Flag(f, "vps_timing_info_present_flag");
    v.flags.vps_poc_proportional_to_timing_flag = Flag(f, "vps_poc_proportional_to_timing_flag");
    v.vps_video_parameter_set_id = uint8_t(Int(o, "vps_video_parameter_set_id"));
    v.vps_max_sub_layers_minus1 = uint8_t(Int(o, "vps_max_sub_layers_minus1"));
    v.vps_num_units_in_tick = uint32_t(Int(o, "vps_num_units_in_tick"));
    v.vps_time_scale = uint32_t(Int(o, "vps_time_scale"));
    v.vps_num_ticks_poc_diff_one_minus1 = uint32_t(Int(o, "vps_num_ticks_poc_diff_one_minus1"));
    ReadPtl(Obj(o, "profileTierLevel"), out.vpsPtl[i]);
    v.pProfileTierLevel = &out.vpsPtl[i];
    ReadDpb(Obj(o, "decPicBufMgr"), out.vpsDpb[i]);
    v.pDecPicBufMgr = &out.vpsDpb[i];
  }
  for (uint32_t i = 0; i < ns; ++i) ReadSps(env, Item(env, spsArray, i, "sps"), i, out);
  for (uint32_t i = 0; i < np; ++i) ReadPps(Item(env, ppsArray, i, "pps"), i, out);
}

}  // namespace vk
}  // namespace ocl
