#!/usr/bin/env node
// One look at a GPU's Vulkan Video decode through the package's native layer,
// without the bitstream room: what the device decodes (queue families,
// profiles, formats), the decoder's session and DPB, and the intra pictures of
// the committed streams decoded from parameter sets FFmpeg's trace_headers
// read (files made by the caller: { sps, pps, pictures } per stream), each
// read back through OpenCL and compared with FFmpeg's framemd5. Prints JSON
// lines; never stops at the first failure.
//
//   node bench/video-decode-probe.mjs PROBE_DIR [--platform NVIDIA]
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ocl from '../dist/index.js';
import { VideoFrame, frameLayout } from '../dist/video/frames.js';
import { FORMAT_NV12, videoDecodeSupport } from '../dist/video/support.js';
import { videoDevice } from '../dist/video/video-device.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dir = process.argv[2];
const platformName = process.argv.includes('--platform') ? process.argv[process.argv.indexOf('--platform') + 1] : 'NVIDIA';
const say = (record) => console.log(JSON.stringify(record));
const fail = (step, error) => say({ step, error: error?.name, message: error?.message, stack: error?.stack?.split('\n').slice(1, 5).join(' | ') });

const platform = ocl.getPlatforms().find((p) => p.name.includes(platformName));
const device = platform.getDevices('gpu')[0] ?? platform.getDevices()[0];
const instance = ocl.createVulkanInstance();
const physical = instance.physicalDevices().find((p) => Buffer.from(p.deviceUUID).equals(Buffer.from(device.uuidBytes)));
const support = videoDecodeSupport(instance, physical);
say({ step: 'support', device: support.device, lines: ocl.describeVideoSupport(support) });
say({
  step: 'support-native',
  profiles: support.profiles.map((p) => p.native),
  decodeFamily: support.decodeFamily,
  transfers: support.decodeTransfers,
  granularity: support.transferGranularity,
});

/** StdVideo parameter sets from trace_headers' names and values. */
function stdSps(t) {
  const f = (k) => (t[k] ?? 0) !== 0;
  return {
    flags: {
      constraint_set0_flag: f('constraint_set0_flag'),
      constraint_set1_flag: f('constraint_set1_flag'),
      constraint_set2_flag: f('constraint_set2_flag'),
      constraint_set3_flag: f('constraint_set3_flag'),
      constraint_set4_flag: f('constraint_set4_flag'),
      constraint_set5_flag: f('constraint_set5_flag'),
      direct_8x8_inference_flag: f('direct_8x8_inference_flag'),
      mb_adaptive_frame_field_flag: f('mb_adaptive_frame_field_flag'),
      frame_mbs_only_flag: f('frame_mbs_only_flag'),
      delta_pic_order_always_zero_flag: f('delta_pic_order_always_zero_flag'),
      separate_colour_plane_flag: false,
      gaps_in_frame_num_value_allowed_flag: f('gaps_in_frame_num_allowed_flag'),
      qpprime_y_zero_transform_bypass_flag: f('qpprime_y_zero_transform_bypass_flag'),
      frame_cropping_flag: f('frame_cropping_flag'),
      seq_scaling_matrix_present_flag: false,
      vui_parameters_present_flag: f('vui_parameters_present_flag'),
    },
    profile_idc: t.profile_idc,
    level_idc: [10, 11, 12, 13, 20, 21, 22, 30, 31, 32, 40, 41, 42, 50, 51, 52, 60, 61, 62].findIndex((l) => l >= t.level_idc),
    chroma_format_idc: t.chroma_format_idc ?? 1,
    seq_parameter_set_id: t.seq_parameter_set_id,
    bit_depth_luma_minus8: 0,
    bit_depth_chroma_minus8: 0,
    log2_max_frame_num_minus4: t.log2_max_frame_num_minus4,
    pic_order_cnt_type: t.pic_order_cnt_type,
    offset_for_non_ref_pic: t.offset_for_non_ref_pic ?? 0,
    offset_for_top_to_bottom_field: t.offset_for_top_to_bottom_field ?? 0,
    log2_max_pic_order_cnt_lsb_minus4: t.log2_max_pic_order_cnt_lsb_minus4 ?? 0,
    num_ref_frames_in_pic_order_cnt_cycle: 0,
    max_num_ref_frames: t.max_num_ref_frames,
    pic_width_in_mbs_minus1: t.pic_width_in_mbs_minus1,
    pic_height_in_map_units_minus1: t.pic_height_in_map_units_minus1,
    frame_crop_left_offset: t.frame_crop_left_offset ?? 0,
    frame_crop_right_offset: t.frame_crop_right_offset ?? 0,
    frame_crop_top_offset: t.frame_crop_top_offset ?? 0,
    frame_crop_bottom_offset: t.frame_crop_bottom_offset ?? 0,
    offsetForRefFrame: [],
    scaling: null,
    vui: null,
  };
}
function stdPps(t) {
  const f = (k) => (t[k] ?? 0) !== 0;
  return {
    flags: {
      transform_8x8_mode_flag: f('transform_8x8_mode_flag'),
      redundant_pic_cnt_present_flag: f('redundant_pic_cnt_present_flag'),
      constrained_intra_pred_flag: f('constrained_intra_pred_flag'),
      deblocking_filter_control_present_flag: f('deblocking_filter_control_present_flag'),
      weighted_pred_flag: f('weighted_pred_flag'),
      bottom_field_pic_order_in_frame_present_flag: f('bottom_field_pic_order_in_frame_present_flag'),
      entropy_coding_mode_flag: f('entropy_coding_mode_flag'),
      pic_scaling_matrix_present_flag: false,
    },
    seq_parameter_set_id: t.seq_parameter_set_id,
    pic_parameter_set_id: t.pic_parameter_set_id,
    num_ref_idx_l0_default_active_minus1: t.num_ref_idx_l0_default_active_minus1,
    num_ref_idx_l1_default_active_minus1: t.num_ref_idx_l1_default_active_minus1,
    weighted_bipred_idc: t.weighted_bipred_idc,
    pic_init_qp_minus26: t.pic_init_qp_minus26,
    pic_init_qs_minus26: t.pic_init_qs_minus26,
    chroma_qp_index_offset: t.chroma_qp_index_offset,
    second_chroma_qp_index_offset: t.second_chroma_qp_index_offset ?? t.chroma_qp_index_offset,
    scaling: null,
  };
}

/** The slice NAL units of each picture of an Annex-B stream, in order: [{ data (00 00 01 + NAL each), offsets }]. */
function pictures(bytes) {
  const nals = [];
  let start = -1;
  for (let i = 0; i + 2 < bytes.length; i++) {
    if (bytes[i] === 0 && bytes[i + 1] === 0 && bytes[i + 2] === 1) {
      if (start >= 0) nals.push(bytes.subarray(start, i - (bytes[i - 1] === 0 && i - 1 >= start ? 1 : 0)));
      start = i + 3;
      i += 2;
    }
  }
  if (start >= 0) nals.push(bytes.subarray(start));
  const out = [];
  for (const nal of nals) {
    const type = nal[0] & 31;
    if (type !== 1 && type !== 5) continue;
    if (nal[1] & 0x80 || out.length === 0) out.push([]);
    out.at(-1).push(nal);
  }
  return out.map((slices) => {
    const offsets = [];
    const parts = [];
    let at = 0;
    for (const s of slices) {
      offsets.push(at);
      parts.push(Uint8Array.of(0, 0, 1), s);
      at += 3 + s.length;
    }
    return { data: Buffer.concat(parts), offsets };
  });
}

const context = ocl.createContext({ devices: [device] });
const queue = context.createQueue();
let vdev;
try {
  vdev = videoDevice(instance, physical, support);
  say({
    step: 'device',
    queues: support.decodeQueues,
    vulkan: vdev.vulkan.name,
    semaphores: vdev.vulkan.semaphoreHandleTypes,
    memory: vdev.vulkan.memoryHandleTypes,
  });
} catch (error) {
  fail('device', error);
  process.exit(1);
}
const profile = support.profiles.find((p) => p.profileIdc === 100) ?? support.profiles[0];

for (const file of readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()) {
  const name = basename(file, '.json');
  const t = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  const expected = readFileSync(join(root, 'test/fixtures/h264', `${name}.framemd5`), 'utf8')
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => l.split(',').at(-1).trim());
  const pics = pictures(readFileSync(join(root, 'test/fixtures/h264', `${name}.h264`))).slice(0, t.pictures.length);
  const w = (t.sps.pic_width_in_mbs_minus1 + 1) * 16;
  const h = (t.sps.pic_height_in_map_units_minus1 + 1) * 16;
  const crop = {
    left: 2 * (t.sps.frame_crop_left_offset ?? 0),
    top: 2 * (t.sps.frame_crop_top_offset ?? 0),
    width: w - 2 * ((t.sps.frame_crop_left_offset ?? 0) + (t.sps.frame_crop_right_offset ?? 0)),
    height: h - 2 * ((t.sps.frame_crop_top_offset ?? 0) + (t.sps.frame_crop_bottom_offset ?? 0)),
  };
  const result = { step: 'stream', name, coded: `${w}x${h}`, crop, pictures: pics.length, matched: 0, mismatched: [], errors: [] };
  let native;
  let frame;
  try {
    native = vdev.native.createDecoder(0, profile.profileIdc, 4);
    native.configure(w, h, profile.maxDpbSlots, profile.maxActiveReferences, FORMAT_NV12);
    native.setParameters([stdSps(t.sps)], [stdPps(t.pps)]);
    const layout = frameLayout(crop.width, crop.height);
    frame = new VideoFrame(vdev.vulkan, context, device, layout, 'host', () => {});
    for (let i = 0; i < pics.length; i++) {
      const s = t.pictures[i];
      const desc = new Int32Array(13);
      desc.set([
        0,
        1 | 2 | 4,
        t.sps.seq_parameter_set_id,
        s.pic_parameter_set_id,
        0,
        s.idr_pic_id ?? 0,
        0,
        0,
        crop.left,
        crop.top,
        crop.width,
        crop.height,
        0,
      ]);
      const t0 = performance.now();
      await native.decode(
        i % 4,
        desc,
        Uint32Array.from(pics[i].offsets),
        pics[i].data,
        frame.buffer.native,
        [0, layout.pitch, layout.uvOffset, layout.pitch],
        undefined,
        undefined,
      );
      const ms = performance.now() - t0;
      const y = new Uint8Array(frame.planes[0].size);
      const uv = new Uint8Array(frame.planes[1].size);
      queue.enqueueAcquireShared(frame.memory).release();
      queue.readBuffer(frame.planes[0], y).release();
      queue.readBuffer(frame.planes[1], uv).release();
      queue.enqueueReleaseShared(frame.memory).release();
      await queue.finish();
      const hash = createHash('md5');
      for (let r = 0; r < crop.height; r++) hash.update(y.subarray(r * layout.pitch, r * layout.pitch + crop.width));
      for (let r = 0; r < crop.height / 2; r++) hash.update(uv.subarray(r * layout.pitch, r * layout.pitch + crop.width));
      const md5 = hash.digest('hex');
      if (md5 === expected[i]) result.matched++;
      else
        result.mismatched.push({
          i,
          md5,
          expected: expected[i],
          ms: Number(ms.toFixed(2)),
          ySample: [...y.subarray(0, 8)],
          uvSample: [...uv.subarray(0, 8)],
        });
    }
  } catch (error) {
    result.errors.push({ name: error?.name, message: error?.message, stack: error?.stack?.split('\n').slice(1, 4).join(' | ') });
  }
  frame?.dispose();
  native?.release();
  say(result);
}
queue.release();
context.release();
say({ step: 'done' });
