// seq_parameter_set_rbsp() (7.3.2.2.1) and the variables of 7.4.3.2.1 a
// decoder uses. What this room does not decode (a profile other than Main /
// Main 10 / Main Still Picture, chroma other than 4:2:0, bit depths other
// than 8 and 10, separate colour planes, extensions) is refused with
// H265UnsupportedError as soon as it is read.
import type { BitReader } from '../h264/bit-reader';
import { H265BitstreamError, H265UnsupportedError } from './errors';
import { checkProfile, readProfileTierLevel } from './profile-tier-level';
import { readShortTermRps } from './rps';
import { defaultScalingLists, readScalingListData } from './scaling';
import type { H265ExtensionFlags, H265ScalingLists, H265ShortTermRps, H265Sps } from './types';
import { readSubLayerOrdering } from './vps';
import { readVui } from './vui';

/** The largest picture side in luma samples: Sqrt(MaxLumaPs * 8) at level 6.2 (A.4.1, Table A.8). */
export const MAX_PICTURE_SIDE = 16888;

const CHROMA_NAMES = ['4:0:0 (monochrome)', '4:2:0', '4:2:2', '4:4:4'];

/** The extension flags that follow *_extension_present_flag (7.3.2.2.1 / 7.3.2.3.1); any extension is refused. */
export function readExtensionFlags(r: BitReader, prefix: 'sps' | 'pps'): H265ExtensionFlags {
  const extensionPresentFlag = r.flag(`${prefix}_extension_present_flag`);
  if (!extensionPresentFlag)
    return {
      extensionPresentFlag,
      rangeExtensionFlag: false,
      multilayerExtensionFlag: false,
      extension3dFlag: false,
      sccExtensionFlag: false,
      extension4bits: 0,
    };
  const flags: H265ExtensionFlags = {
    extensionPresentFlag,
    rangeExtensionFlag: r.flag(`${prefix}_range_extension_flag`),
    multilayerExtensionFlag: r.flag(`${prefix}_multilayer_extension_flag`),
    extension3dFlag: r.flag(`${prefix}_3d_extension_flag`),
    sccExtensionFlag: r.flag(`${prefix}_scc_extension_flag`),
    extension4bits: r.u(4, `${prefix}_extension_4bits`),
  };
  const used: [boolean, string][] = [
    [flags.rangeExtensionFlag, 'range_extension'],
    [flags.multilayerExtensionFlag, 'multilayer_extension'],
    [flags.extension3dFlag, '3d_extension'],
    [flags.sccExtensionFlag, 'scc_extension'],
  ];
  for (const [on, name] of used)
    if (on) throw new H265UnsupportedError(`${prefix}_${name}`, `${prefix}_${name}_flag is 1 (7.3.2.${prefix === 'sps' ? '2' : '3'}.1)`);
  // *_extension_4bits: the extension data that follows is reserved; decoders ignore it (7.4.3.2.1), so it is left unread.
  return flags;
}

/** Reads an SPS; `r` is positioned after the NAL unit header. */
export function readSps(r: BitReader): H265Sps {
  let what = 'SPS';
  const vpsId = r.u(4, 'sps_video_parameter_set_id');
  const spsMaxSubLayersMinus1 = r.u(3, 'sps_max_sub_layers_minus1');
  if (spsMaxSubLayersMinus1 > 6)
    throw new H265BitstreamError(`${what}: sps_max_sub_layers_minus1 is ${spsMaxSubLayersMinus1}, outside 0..6 (7.4.3.2.1)`);
  const spsTemporalIdNestingFlag = r.flag('sps_temporal_id_nesting_flag');
  const profileTierLevel = readProfileTierLevel(r, spsMaxSubLayersMinus1);
  checkProfile(profileTierLevel);
  const spsId = r.ue('sps_seq_parameter_set_id', 15);
  what = `SPS ${spsId}`;
  const chromaFormatIdc = r.ue('chroma_format_idc', 3);
  if (chromaFormatIdc !== 1)
    throw new H265UnsupportedError('chroma_format_idc', `chroma_format_idc ${chromaFormatIdc} (${CHROMA_NAMES[chromaFormatIdc]}), not 1 (4:2:0)`);
  // separate_colour_plane_flag is only sent with chroma_format_idc 3, refused above.
  const separateColourPlaneFlag = false;
  const picWidthInLumaSamples = r.ue('pic_width_in_luma_samples', MAX_PICTURE_SIDE, 1);
  const picHeightInLumaSamples = r.ue('pic_height_in_luma_samples', MAX_PICTURE_SIDE, 1);
  const conformanceWindowFlag = r.flag('conformance_window_flag');
  const win = [0, 0, 0, 0];
  if (conformanceWindowFlag)
    for (const [i, side] of ['left', 'right', 'top', 'bottom'].entries()) win[i] = r.ue(`conf_win_${side}_offset`, MAX_PICTURE_SIDE);
  const bitDepthLumaMinus8 = r.ue('bit_depth_luma_minus8', 8);
  const bitDepthChromaMinus8 = r.ue('bit_depth_chroma_minus8', 8);
  for (const [depth, name] of [
    [bitDepthLumaMinus8, 'bit_depth_luma_minus8'],
    [bitDepthChromaMinus8, 'bit_depth_chroma_minus8'],
  ] as const)
    if (depth !== 0 && depth !== 2) throw new H265UnsupportedError('bit_depth', `${name} ${depth} (${depth + 8} bits), not 8 or 10`);
  const log2MaxPicOrderCntLsbMinus4 = r.ue('log2_max_pic_order_cnt_lsb_minus4', 12);
  const ordering = readSubLayerOrdering(r, 'sps', spsMaxSubLayersMinus1, what);
  const log2MinLumaCodingBlockSizeMinus3 = r.ue('log2_min_luma_coding_block_size_minus3', 3);
  const minCbLog2SizeY = log2MinLumaCodingBlockSizeMinus3 + 3;
  const log2DiffMaxMinLumaCodingBlockSize = r.ue('log2_diff_max_min_luma_coding_block_size', 6 - minCbLog2SizeY);
  const ctbLog2SizeY = minCbLog2SizeY + log2DiffMaxMinLumaCodingBlockSize;
  // A.3.2-A.3.4: CtbLog2SizeY is 4..6 in the Main profiles.
  if (ctbLog2SizeY < 4) throw new H265BitstreamError(`${what}: CtbLog2SizeY is ${ctbLog2SizeY}, outside 4..6 (A.3.2)`);
  const minCbSizeY = 1 << minCbLog2SizeY;
  if (picWidthInLumaSamples % minCbSizeY || picHeightInLumaSamples % minCbSizeY)
    throw new H265BitstreamError(
      `${what}: ${picWidthInLumaSamples}x${picHeightInLumaSamples} is not a multiple of MinCbSizeY ${minCbSizeY} (7.4.3.2.1)`,
    );
  // 7.4.3.2.1: MinTbLog2SizeY < MinCbLog2SizeY; MaxTbLog2SizeY <= Min(CtbLog2SizeY, 5).
  const log2MinLumaTransformBlockSizeMinus2 = r.ue('log2_min_luma_transform_block_size_minus2', minCbLog2SizeY - 3);
  const minTbLog2SizeY = log2MinLumaTransformBlockSizeMinus2 + 2;
  const log2DiffMaxMinLumaTransformBlockSize = r.ue('log2_diff_max_min_luma_transform_block_size', Math.min(ctbLog2SizeY, 5) - minTbLog2SizeY);
  const maxTransformHierarchyDepthInter = r.ue('max_transform_hierarchy_depth_inter', ctbLog2SizeY - minTbLog2SizeY);
  const maxTransformHierarchyDepthIntra = r.ue('max_transform_hierarchy_depth_intra', ctbLog2SizeY - minTbLog2SizeY);
  const scalingListEnabledFlag = r.flag('scaling_list_enabled_flag');
  let spsScalingListDataPresentFlag = false;
  let scalingLists: H265ScalingLists | null = null;
  if (scalingListEnabledFlag) {
    spsScalingListDataPresentFlag = r.flag('sps_scaling_list_data_present_flag');
    scalingLists = spsScalingListDataPresentFlag ? readScalingListData(r, what) : defaultScalingLists();
  }
  const ampEnabledFlag = r.flag('amp_enabled_flag');
  const sampleAdaptiveOffsetEnabledFlag = r.flag('sample_adaptive_offset_enabled_flag');
  const pcmEnabledFlag = r.flag('pcm_enabled_flag');
  let pcmSampleBitDepthLumaMinus1 = 0;
  let pcmSampleBitDepthChromaMinus1 = 0;
  let log2MinPcmLumaCodingBlockSizeMinus3 = 0;
  let log2DiffMaxMinPcmLumaCodingBlockSize = 0;
  let pcmLoopFilterDisabledFlag = false;
  if (pcmEnabledFlag) {
    pcmSampleBitDepthLumaMinus1 = r.u(4, 'pcm_sample_bit_depth_luma_minus1');
    pcmSampleBitDepthChromaMinus1 = r.u(4, 'pcm_sample_bit_depth_chroma_minus1');
    // 7.4.3.2.1: PCM sample bit depths at most the coded bit depths; Log2MinIpcmCbSizeY in Min(MinCbLog2SizeY, 5)..Min(CtbLog2SizeY, 5).
    if (pcmSampleBitDepthLumaMinus1 + 1 > bitDepthLumaMinus8 + 8 || pcmSampleBitDepthChromaMinus1 + 1 > bitDepthChromaMinus8 + 8)
      throw new H265BitstreamError(
        `${what}: PCM bit depths ${pcmSampleBitDepthLumaMinus1 + 1} / ${pcmSampleBitDepthChromaMinus1 + 1} exceed the coded ones (7.4.3.2.1)`,
      );
    const lowest = Math.min(minCbLog2SizeY, 5);
    const highest = Math.min(ctbLog2SizeY, 5);
    log2MinPcmLumaCodingBlockSizeMinus3 = r.ue('log2_min_pcm_luma_coding_block_size_minus3', highest - 3, lowest - 3);
    log2DiffMaxMinPcmLumaCodingBlockSize = r.ue('log2_diff_max_min_pcm_luma_coding_block_size', highest - (log2MinPcmLumaCodingBlockSizeMinus3 + 3));
    pcmLoopFilterDisabledFlag = r.flag('pcm_loop_filter_disabled_flag');
  }
  const numSets = r.ue('num_short_term_ref_pic_sets', 64);
  const maxDec = ordering.maxDecPicBufferingMinus1[spsMaxSubLayersMinus1]!;
  const shortTermRefPicSets: H265ShortTermRps[] = [];
  for (let i = 0; i < numSets; i++) shortTermRefPicSets.push(readShortTermRps(r, i, shortTermRefPicSets, numSets, maxDec, what));
  const longTermRefPicsPresentFlag = r.flag('long_term_ref_pics_present_flag');
  const ltRefPicPocLsbSps: number[] = [];
  const usedByCurrPicLtSpsFlag: boolean[] = [];
  if (longTermRefPicsPresentFlag) {
    const n = r.ue('num_long_term_ref_pics_sps', 32);
    for (let i = 0; i < n; i++) {
      ltRefPicPocLsbSps.push(r.u(log2MaxPicOrderCntLsbMinus4 + 4, 'lt_ref_pic_poc_lsb_sps'));
      usedByCurrPicLtSpsFlag.push(r.flag('used_by_curr_pic_lt_sps_flag'));
    }
  }
  const spsTemporalMvpEnabledFlag = r.flag('sps_temporal_mvp_enabled_flag');
  const strongIntraSmoothingEnabledFlag = r.flag('strong_intra_smoothing_enabled_flag');
  const vuiParametersPresentFlag = r.flag('vui_parameters_present_flag');
  const vui = vuiParametersPresentFlag ? readVui(r, spsMaxSubLayersMinus1) : null;
  const extensions = readExtensionFlags(r, 'sps');

  // 7.4.3.2.1: the conformance window in luma samples (SubWidthC = SubHeightC = 2 for 4:2:0).
  const left = 2 * win[0]!;
  const top = 2 * win[2]!;
  const width = picWidthInLumaSamples - 2 * (win[0]! + win[1]!);
  const height = picHeightInLumaSamples - 2 * (win[2]! + win[3]!);
  if (width <= 0 || height <= 0)
    throw new H265BitstreamError(
      `${what}: the conformance window leaves ${width}x${height} of ${picWidthInLumaSamples}x${picHeightInLumaSamples} (7.4.3.2.1)`,
    );
  const ctbSizeY = 1 << ctbLog2SizeY;
  const picWidthInCtbsY = Math.ceil(picWidthInLumaSamples / ctbSizeY);
  const picHeightInCtbsY = Math.ceil(picHeightInLumaSamples / ctbSizeY);
  return {
    vpsId,
    spsMaxSubLayersMinus1,
    spsTemporalIdNestingFlag,
    profileTierLevel,
    spsId,
    chromaFormatIdc,
    separateColourPlaneFlag,
    picWidthInLumaSamples,
    picHeightInLumaSamples,
    conformanceWindowFlag,
    confWinLeftOffset: win[0]!,
    confWinRightOffset: win[1]!,
    confWinTopOffset: win[2]!,
    confWinBottomOffset: win[3]!,
    bitDepthLumaMinus8,
    bitDepthChromaMinus8,
    log2MaxPicOrderCntLsbMinus4,
    ordering,
    log2MinLumaCodingBlockSizeMinus3,
    log2DiffMaxMinLumaCodingBlockSize,
    log2MinLumaTransformBlockSizeMinus2,
    log2DiffMaxMinLumaTransformBlockSize,
    maxTransformHierarchyDepthInter,
    maxTransformHierarchyDepthIntra,
    scalingListEnabledFlag,
    spsScalingListDataPresentFlag,
    scalingLists,
    ampEnabledFlag,
    sampleAdaptiveOffsetEnabledFlag,
    pcmEnabledFlag,
    pcmSampleBitDepthLumaMinus1,
    pcmSampleBitDepthChromaMinus1,
    log2MinPcmLumaCodingBlockSizeMinus3,
    log2DiffMaxMinPcmLumaCodingBlockSize,
    pcmLoopFilterDisabledFlag,
    shortTermRefPicSets,
    longTermRefPicsPresentFlag,
    ltRefPicPocLsbSps,
    usedByCurrPicLtSpsFlag,
    spsTemporalMvpEnabledFlag,
    strongIntraSmoothingEnabledFlag,
    vuiParametersPresentFlag,
    vui,
    extensions,
    bitDepthLuma: bitDepthLumaMinus8 + 8,
    bitDepthChroma: bitDepthChromaMinus8 + 8,
    maxPicOrderCntLsb: 2 ** (log2MaxPicOrderCntLsbMinus4 + 4),
    minCbLog2SizeY,
    ctbLog2SizeY,
    ctbSizeY,
    picWidthInCtbsY,
    picHeightInCtbsY,
    picSizeInCtbsY: picWidthInCtbsY * picHeightInCtbsY,
    crop: { left, top, width, height },
  };
}
