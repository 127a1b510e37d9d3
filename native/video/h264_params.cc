// H.264 sequence and picture parameter sets as Vulkan Video takes them
// (StdVideoH264SequenceParameterSet / StdVideoH264PictureParameterSet), read
// from the plain objects lib/video/h264-vulkan.ts builds: the StdVideo
// field names, `flags` objects of booleans, `scaling` ({ presentMask,
// defaultMask, list4x4: 96 numbers, list8x8: 384 numbers }, lists in the
// order the bitstream codes them), `vui` and `offsetForRefFrame`.
// Conversion only: the values were checked by the bitstream room.
#include "video/module.h"
#include "video/plain_object.h"

namespace ocl {
namespace vk {
namespace {

void ReadScaling(const Napi::Value& value, StdVideoH264ScalingLists& out) {
  Napi::Env env = value.Env();
  Napi::Object o = value.As<Napi::Object>();
  out = {};
  out.scaling_list_present_mask = uint16_t(Int(o, "presentMask"));
  out.use_default_scaling_matrix_mask = uint16_t(Int(o, "defaultMask"));
  Napi::Value l4 = o.Get("list4x4"), l8 = o.Get("list8x8");
  if (!l4.IsArray() || l4.As<Napi::Array>().Length() != 96 || !l8.IsArray() || l8.As<Napi::Array>().Length() != 384)
    throw Napi::TypeError::New(env, "scaling lists must hold 96 and 384 numbers");
  Napi::Array a4 = l4.As<Napi::Array>(), a8 = l8.As<Napi::Array>();
  for (uint32_t i = 0; i < 96; ++i) out.ScalingList4x4[i / 16][i % 16] = uint8_t(a4.Get(i).As<Napi::Number>().Uint32Value());
  for (uint32_t i = 0; i < 384; ++i) out.ScalingList8x8[i / 64][i % 64] = uint8_t(a8.Get(i).As<Napi::Number>().Uint32Value());
}

}  // namespace

void ReadH264ParameterSets(Napi::Env env, const Napi::Value& spsList, const Napi::Value& ppsList, H264ParameterSets& out) {
  if (!spsList.IsArray() || !ppsList.IsArray()) throw Napi::TypeError::New(env, "sps and pps must be arrays");
  Napi::Array spsArray = spsList.As<Napi::Array>(), ppsArray = ppsList.As<Napi::Array>();
  uint32_t ns = spsArray.Length(), np = ppsArray.Length();
  if (ns > 32 || np > 256) throw Napi::RangeError::New(env, "at most 32 SPS and 256 PPS");
  out.sps.resize(ns);
  out.pps.resize(np);
  out.vui.resize(ns);
  out.spsScaling.resize(ns);
  out.ppsScaling.resize(np);
  out.offsetForRefFrame.resize(ns);
  for (uint32_t i = 0; i < ns; ++i) {
    Napi::Value value = spsArray.Get(i);
    if (!value.IsObject()) throw Napi::TypeError::New(env, "sps[" + std::to_string(i) + "] must be an object");
    Napi::Object o = value.As<Napi::Object>();
    StdVideoH264SequenceParameterSet& s = out.sps[i];
    s = {};
    Napi::Object f = Obj(o, "flags");
    s.flags.constraint_set0_flag = Flag(f, "constraint_set0_flag");
    s.flags.constraint_set1_flag = Flag(f, "constraint_set1_flag");
    s.flags.constraint_set2_flag = Flag(f, "constraint_set2_flag");
    s.flags.constraint_set3_flag = Flag(f, "constraint_set3_flag");
    s.flags.constraint_set4_flag = Flag(f, "constraint_set4_flag");
    s.flags.constraint_set5_flag = Flag(f, "constraint_set5_flag");
    s.flags.direct_8x8_inference_flag = Flag(f, "direct_8x8_inference_flag");
    s.flags.mb_adaptive_frame_field_flag = Flag(f, "mb_adaptive_frame_field_flag");
    s.flags.frame_mbs_only_flag = Flag(f, "frame_mbs_only_flag");
    s.flags.delta_pic_order_always_zero_flag = Flag(f, "delta_pic_order_always_zero_flag");
    s.flags.separate_colour_plane_flag = Flag(f, "separate_colour_plane_flag");
    s.flags.gaps_in_frame_num_value_allowed_flag = Flag(f, "gaps_in_frame_num_value_allowed_flag");
    s.flags.qpprime_y_zero_transform_bypass_flag = Flag(f, "qpprime_y_zero_transform_bypass_flag");
    s.flags.frame_cropping_flag = Flag(f, "frame_cropping_flag");
    s.flags.seq_scaling_matrix_present_flag = Flag(f, "seq_scaling_matrix_present_flag");
    s.flags.vui_parameters_present_flag = Flag(f, "vui_parameters_present_flag");
    s.profile_idc = int32_t(Int(o, "profile_idc"));
    s.level_idc = int32_t(Int(o, "level_idc"));
    s.chroma_format_idc = int32_t(Int(o, "chroma_format_idc"));
    s.seq_parameter_set_id = uint8_t(Int(o, "seq_parameter_set_id"));
    s.bit_depth_luma_minus8 = uint8_t(Int(o, "bit_depth_luma_minus8"));
    s.bit_depth_chroma_minus8 = uint8_t(Int(o, "bit_depth_chroma_minus8"));
    s.log2_max_frame_num_minus4 = uint8_t(Int(o, "log2_max_frame_num_minus4"));
    s.pic_order_cnt_type = int32_t(Int(o, "pic_order_cnt_type"));
    s.offset_for_non_ref_pic = int32_t(Int(o, "offset_for_non_ref_pic"));
    s.offset_for_top_to_bottom_field = int32_t(Int(o, "offset_for_top_to_bottom_field"));
    s.log2_max_pic_order_cnt_lsb_minus4 = uint8_t(Int(o, "log2_max_pic_order_cnt_lsb_minus4"));
    s.num_ref_frames_in_pic_order_cnt_cycle = uint8_t(Int(o, "num_ref_frames_in_pic_order_cnt_cycle"));
    s.max_num_ref_frames = uint8_t(Int(o, "max_num_ref_frames"));
    s.pic_width_in_mbs_minus1 = uint32_t(Int(o, "pic_width_in_mbs_minus1"));
    s.pic_height_in_map_units_minus1 = uint32_t(Int(o, "pic_height_in_map_units_minus1"));
    s.frame_crop_left_offset = uint32_t(Int(o, "frame_crop_left_offset"));
    s.frame_crop_right_offset = uint32_t(Int(o, "frame_crop_right_offset"));
    s.frame_crop_top_offset = uint32_t(Int(o, "frame_crop_top_offset"));
    s.frame_crop_bottom_offset = uint32_t(Int(o, "frame_crop_bottom_offset"));
    Napi::Value offsets = o.Get("offsetForRefFrame");
    if (offsets.IsArray()) {
      Napi::Array a = offsets.As<Napi::Array>();
      if (a.Length() > 255) throw Napi::RangeError::New(env, "offsetForRefFrame holds more than 255 numbers");
      for (uint32_t k = 0; k < a.Length(); ++k) out.offsetForRefFrame[i].push_back(a.Get(k).As<Napi::Number>().Int32Value());
    }
    s.pOffsetForRefFrame = out.offsetForRefFrame[i].empty() ? nullptr : out.offsetForRefFrame[i].data();
    Napi::Value scaling = o.Get("scaling");
    if (scaling.IsObject()) {
      ReadScaling(scaling, out.spsScaling[i]);
      s.pScalingLists = &out.spsScaling[i];
    }
    Napi::Value vuiValue = o.Get("vui");
    if (vuiValue.IsObject()) {
      Napi::Object v = vuiValue.As<Napi::Object>();
      StdVideoH264SequenceParameterSetVui& vui = out.vui[i];
      vui = {};
      Napi::Object vf = Obj(v, "flags");
      vui.flags.aspect_ratio_info_present_flag = Flag(vf, "aspect_ratio_info_present_flag");
      vui.flags.overscan_info_present_flag = Flag(vf, "overscan_info_present_flag");
      vui.flags.overscan_appropriate_flag = Flag(vf, "overscan_appropriate_flag");
      vui.flags.video_signal_type_present_flag = Flag(vf, "video_signal_type_present_flag");
      vui.flags.video_full_range_flag = Flag(vf, "video_full_range_flag");
      vui.flags.color_description_present_flag = Flag(vf, "color_description_present_flag");
      vui.flags.chroma_loc_info_present_flag = Flag(vf, "chroma_loc_info_present_flag");
      vui.flags.timing_info_present_flag = Flag(vf, "timing_info_present_flag");
      vui.flags.fixed_frame_rate_flag = Flag(vf, "fixed_frame_rate_flag");
      vui.flags.bitstream_restriction_flag = Flag(vf, "bitstream_restriction_flag");
      // HRD parameters are not passed (pHrdParameters stays null): decoding does not use them.
      vui.aspect_ratio_idc = int32_t(Int(v, "aspect_ratio_idc"));
      vui.sar_width = uint16_t(Int(v, "sar_width"));
      vui.sar_height = uint16_t(Int(v, "sar_height"));
      vui.video_format = uint8_t(Int(v, "video_format"));
      vui.colour_primaries = uint8_t(Int(v, "colour_primaries"));
      vui.transfer_characteristics = uint8_t(Int(v, "transfer_characteristics"));
      vui.matrix_coefficients = uint8_t(Int(v, "matrix_coefficients"));
      vui.num_units_in_tick = uint32_t(Int(v, "num_units_in_tick"));
      vui.time_scale = uint32_t(Int(v, "time_scale"));
      vui.max_num_reorder_frames = uint8_t(Int(v, "max_num_reorder_frames"));
      vui.max_dec_frame_buffering = uint8_t(Int(v, "max_dec_frame_buffering"));
      vui.chroma_sample_loc_type_top_field = uint8_t(Int(v, "chroma_sample_loc_type_top_field"));
      vui.chroma_sample_loc_type_bottom_field = uint8_t(Int(v, "chroma_sample_loc_type_bottom_field"));
      s.pSequenceParameterSetVui = &vui;
    }
  }
  for (uint32_t i = 0; i < np; ++i) {
    Napi::Value value = ppsArray.Get(i);
    if (!value.IsObject()) throw Napi::TypeError::New(env, "pps[" + std::to_string(i) + "] must be an object");
    Napi::Object o = value.As<Napi::Object>();
    StdVideoH264PictureParameterSet& p = out.pps[i];
    p = {};
    Napi::Object f = Obj(o, "flags");
    p.flags.transform_8x8_mode_flag = Flag(f, "transform_8x8_mode_flag");
    p.flags.redundant_pic_cnt_present_flag = Flag(f, "redundant_pic_cnt_present_flag");
    p.flags.constrained_intra_pred_flag = Flag(f, "constrained_intra_pred_flag");
    p.flags.deblocking_filter_control_present_flag = Flag(f, "deblocking_filter_control_present_flag");
    p.flags.weighted_pred_flag = Flag(f, "weighted_pred_flag");
    p.flags.bottom_field_pic_order_in_frame_present_flag = Flag(f, "bottom_field_pic_order_in_frame_present_flag");
    p.flags.entropy_coding_mode_flag = Flag(f, "entropy_coding_mode_flag");
    p.flags.pic_scaling_matrix_present_flag = Flag(f, "pic_scaling_matrix_present_flag");
    p.seq_parameter_set_id = uint8_t(Int(o, "seq_parameter_set_id"));
    p.pic_parameter_set_id = uint8_t(Int(o, "pic_parameter_set_id"));
    p.num_ref_idx_l0_default_active_minus1 = uint8_t(Int(o, "num_ref_idx_l0_default_active_minus1"));
    p.num_ref_idx_l1_default_active_minus1 = uint8_t(Int(o, "num_ref_idx_l1_default_active_minus1"));
    p.weighted_bipred_idc = int32_t(Int(o, "weighted_bipred_idc"));
    p.pic_init_qp_minus26 = int8_t(Int(o, "pic_init_qp_minus26"));
    p.pic_init_qs_minus26 = int8_t(Int(o, "pic_init_qs_minus26"));
    p.chroma_qp_index_offset = int8_t(Int(o, "chroma_qp_index_offset"));
    p.second_chroma_qp_index_offset = int8_t(Int(o, "second_chroma_qp_index_offset"));
    Napi::Value scaling = o.Get("scaling");
    if (scaling.IsObject()) {
      ReadScaling(scaling, out.ppsScaling[i]);
      p.pScalingLists = &out.ppsScaling[i];
    }
  }
}

}  // namespace vk
}  // namespace ocl
