// video_parameter_set_rbsp() (7.3.2.1), and the sub-layer ordering info a
// VPS and an SPS both carry. A base-layer decoder needs little of the VPS;
// it is read in full so a malformed one is found and the fields a Vulkan
// session takes (StdVideoH265VideoParameterSet) are at hand.
import type { BitReader } from '../h264/bit-reader';
import { H265BitstreamError } from './errors';
import { readProfileTierLevel } from './profile-tier-level';
import type { H265Hrd, H265SubLayerOrdering, H265Vps } from './types';
import { readHrd } from './vui';

/** MaxDpbSize - 1 at its largest (A.4.2: MaxDpbSize is at most 16). */
const MAX_DEC_PIC_BUFFERING_MINUS1 = 15;

/**
 * The sub-layer ordering info (7.3.2.1 vps_*, 7.3.2.2.1 sps_*): `prefix` is
 * 'vps' or 'sps'. Checks the ranges of 7.4.3.1 / 7.4.3.2.1: max_num_reorder_pics
 * at most max_dec_pic_buffering_minus1, both never decreasing with the sub-layer.
 */
export function readSubLayerOrdering(r: BitReader, prefix: string, maxSubLayersMinus1: number, what: string): H265SubLayerOrdering {
  const subLayerOrderingInfoPresentFlag = r.flag(`${prefix}_sub_layer_ordering_info_present_flag`);
  const dec: number[] = [];
  const reorder: number[] = [];
  const latency: number[] = [];
  for (let i = subLayerOrderingInfoPresentFlag ? 0 : maxSubLayersMinus1; i <= maxSubLayersMinus1; i++) {
    const d = r.ue(`${prefix}_max_dec_pic_buffering_minus1[${i}]`, MAX_DEC_PIC_BUFFERING_MINUS1);
    const n = r.ue(`${prefix}_max_num_reorder_pics[${i}]`, d);
    const l = r.ue(`${prefix}_max_latency_increase_plus1[${i}]`, 0xfffffffe);
    const before = dec.length - 1;
    if (before >= 0 && (d < dec[before]! || n < reorder[before]!))
      throw new H265BitstreamError(
        `${what}: ${prefix}_max_dec_pic_buffering_minus1 / max_num_reorder_pics of sub-layer ${i} (${d}, ${n}) are below sub-layer ${i - 1}'s (${dec[before]}, ${reorder[before]}) (7.4.3.2.1)`,
      );
    dec.push(d);
    reorder.push(n);
    latency.push(l);
  }
  // 7.4.3.1: entries not sent are inferred equal to the highest sub-layer's.
  while (dec.length <= maxSubLayersMinus1) {
    dec.unshift(dec[0]!);
    reorder.unshift(reorder[0]!);
    latency.unshift(latency[0]!);
  }
  return { subLayerOrderingInfoPresentFlag, maxDecPicBufferingMinus1: dec, maxNumReorderPics: reorder, maxLatencyIncreasePlus1: latency };
}

/** Reads a VPS; `r` is positioned after the NAL unit header. */
export function readVps(r: BitReader): H265Vps {
  const what = 'VPS';
  const vpsId = r.u(4, 'vps_video_parameter_set_id');
  const vpsBaseLayerInternalFlag = r.flag('vps_base_layer_internal_flag');
  const vpsBaseLayerAvailableFlag = r.flag('vps_base_layer_available_flag');
  const vpsMaxLayersMinus1 = r.u(6, 'vps_max_layers_minus1');
  const vpsMaxSubLayersMinus1 = r.u(3, 'vps_max_sub_layers_minus1');
  if (vpsMaxSubLayersMinus1 > 6)
    throw new H265BitstreamError(`${what}: vps_max_sub_layers_minus1 is ${vpsMaxSubLayersMinus1}, outside 0..6 (7.4.3.1)`);
  const vpsTemporalIdNestingFlag = r.flag('vps_temporal_id_nesting_flag');
  // 7.4.3.1: with one sub-layer, vps_temporal_id_nesting_flag shall be 1.
  if (vpsMaxSubLayersMinus1 === 0 && !vpsTemporalIdNestingFlag)
    throw new H265BitstreamError(`${what}: vps_temporal_id_nesting_flag is 0 with one sub-layer (7.4.3.1)`);
  const reserved = r.u(16, 'vps_reserved_0xffff_16bits');
  if (reserved !== 0xffff) throw new H265BitstreamError(`${what}: vps_reserved_0xffff_16bits is ${reserved} (7.4.3.1: 0xffff)`);
  const profileTierLevel = readProfileTierLevel(r, vpsMaxSubLayersMinus1);
  const ordering = readSubLayerOrdering(r, 'vps', vpsMaxSubLayersMinus1, what);
  const vpsMaxLayerId = r.u(6, 'vps_max_layer_id');
  const vpsNumLayerSetsMinus1 = r.ue('vps_num_layer_sets_minus1', 1023);
  const layerIdIncludedFlag: boolean[][] = [];
  for (let i = 1; i <= vpsNumLayerSetsMinus1; i++) {
    const row: boolean[] = [];
    for (let j = 0; j <= vpsMaxLayerId; j++) row.push(r.flag(`layer_id_included_flag[${i}][${j}]`));
    layerIdIncludedFlag.push(row);
  }
  const vpsTimingInfoPresentFlag = r.flag('vps_timing_info_present_flag');
  let vpsNumUnitsInTick = 0;
  let vpsTimeScale = 0;
  let vpsPocProportionalToTimingFlag = false;
  let vpsNumTicksPocDiffOneMinus1 = 0;
  const hrdLayerSetIdx: number[] = [];
  const cprmsPresentFlag: boolean[] = [];
  const hrd: H265Hrd[] = [];
  if (vpsTimingInfoPresentFlag) {
    vpsNumUnitsInTick = r.u(32, 'vps_num_units_in_tick');
    vpsTimeScale = r.u(32, 'vps_time_scale');
    vpsPocProportionalToTimingFlag = r.flag('vps_poc_proportional_to_timing_flag');
    if (vpsPocProportionalToTimingFlag) vpsNumTicksPocDiffOneMinus1 = r.ue('vps_num_ticks_poc_diff_one_minus1', 0xfffffffe);
    const count = r.ue('vps_num_hrd_parameters', vpsNumLayerSetsMinus1 + 1);
    for (let i = 0; i < count; i++) {
      hrdLayerSetIdx.push(r.ue('hrd_layer_set_idx', vpsNumLayerSetsMinus1, vpsBaseLayerInternalFlag ? 0 : 1));
      // 7.4.3.1: cprms_present_flag[0] is inferred 1.
      const cprms = i > 0 ? r.flag('cprms_present_flag') : true;
      cprmsPresentFlag.push(cprms);
      hrd.push(readHrd(r, cprms, vpsMaxSubLayersMinus1));
    }
  }
  // vps_extension() (Annex F) is for layers above the base layer: its data is left unread, as a base-layer decoder does.
  const vpsExtensionFlag = r.flag('vps_extension_flag');
  return {
    vpsId,
    vpsBaseLayerInternalFlag,
    vpsBaseLayerAvailableFlag,
    vpsMaxLayersMinus1,
    vpsMaxSubLayersMinus1,
    vpsTemporalIdNestingFlag,
    profileTierLevel,
    ordering,
    vpsMaxLayerId,
    vpsNumLayerSetsMinus1,
    layerIdIncludedFlag,
    vpsTimingInfoPresentFlag,
    vpsNumUnitsInTick,
    vpsTimeScale,
    vpsPocProportionalToTimingFlag,
    vpsNumTicksPocDiffOneMinus1,
    hrdLayerSetIdx,
    cprmsPresentFlag,
    hrd,
    vpsExtensionFlag,
  };
}
