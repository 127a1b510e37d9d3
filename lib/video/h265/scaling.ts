// scaling_list_data() (7.3.4, 7.4.5) and the default lists of Tables 7-5
// and 7-6. Lists are kept as sent: up-right diagonal scan order, 16 entries
// for 4x4 and 64 (an 8x8 that the decoder upsamples) for the larger sizes.
import type { BitReader } from '../h264/bit-reader';
import { H265BitstreamError } from './errors';
import type { H265ScalingLists } from './types';

/** Table 7-6, intra (matrixId 0..2) and inter (3..5) for sizeId 1..3, scan order. */
export const defaultScalingIntra = Uint8Array.of(
  ...[16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 17, 16, 17, 16, 17, 18, 17, 18, 18, 17, 18, 21, 19, 20, 21, 20, 19, 21, 24, 22, 22, 24],
  ...[24, 22, 22, 24, 25, 25, 27, 30, 27, 25, 25, 29, 31, 35, 35, 31, 29, 36, 41, 44, 41, 36, 47, 54, 54, 47, 65, 70, 65, 88, 88, 115],
);
export const defaultScalingInter = Uint8Array.of(
  ...[16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 17, 17, 17, 17, 17, 18, 18, 18, 18, 18, 18, 20, 20, 20, 20, 20, 20, 20, 24, 24, 24, 24],
  ...[24, 24, 24, 24, 25, 25, 25, 25, 25, 25, 25, 28, 28, 28, 28, 28, 28, 33, 33, 33, 33, 33, 41, 41, 41, 41, 54, 54, 54, 71, 71, 91],
);

/** The default list of one size and matrix (Table 7-5: flat 16 for 4x4). */
function defaultList(sizeId: number, matrixId: number): Uint8Array {
  if (sizeId === 0) return new Uint8Array(16).fill(16);
  return (matrixId < 3 ? defaultScalingIntra : defaultScalingInter).slice();
}

/** matrixId values sent per sizeId (sizeId 3: 0 and 3 only, for 4:2:0). */
function matrixIds(sizeId: number): number[] {
  return sizeId === 3 ? [0, 3] : [0, 1, 2, 3, 4, 5];
}

/** The lists used when scaling_list_enabled_flag is 1 and no list is sent (7.4.3.2.1: the defaults). */
export function defaultScalingLists(): H265ScalingLists {
  const lists = [0, 1, 2, 3].map((sizeId) => matrixIds(sizeId).map((m) => defaultList(sizeId, m)));
  return {
    predModeFlag: lists.map((l) => l.map(() => false)),
    predMatrixIdDelta: lists.map((l) => l.map(() => 0)),
    list4x4: lists[0]!,
    list8x8: lists[1]!,
    list16x16: lists[2]!,
    list32x32: lists[3]!,
    dcCoef16x16: [16, 16, 16, 16, 16, 16],
    dcCoef32x32: [16, 16],
  };
}

/** scaling_list_data() (7.3.4). `what` names the parameter set for messages. */
export function readScalingListData(r: BitReader, what: string): H265ScalingLists {
  const predModeFlag: boolean[][] = [];
  const predMatrixIdDelta: number[][] = [];
  const lists: Uint8Array[][] = [];
  const dc: number[][] = [[], []];
  for (let sizeId = 0; sizeId < 4; sizeId++) {
    const ids = matrixIds(sizeId);
    const step = sizeId === 3 ? 3 : 1;
    predModeFlag.push([]);
    predMatrixIdDelta.push([]);
    lists.push([]);
    for (const [k, matrixId] of ids.entries()) {
      const element = `[${sizeId}][${matrixId}]`;
      const mode = r.flag(`scaling_list_pred_mode_flag${element}`);
      predModeFlag[sizeId]!.push(mode);
      let list: Uint8Array;
      let dcCoef = 16;
      if (!mode) {
        // 7.4.5: delta 0 means the default list; else copy the list delta * step matrixIds back (and its DC).
        const delta = r.ue(`scaling_list_pred_matrix_id_delta${element}`, matrixId / step);
        predMatrixIdDelta[sizeId]!.push(delta);
        if (delta === 0) list = defaultList(sizeId, matrixId);
        else {
          list = lists[sizeId]![k - delta]!.slice();
          if (sizeId > 1) dcCoef = dc[sizeId - 2]![k - delta]!;
        }
      } else {
        predMatrixIdDelta[sizeId]!.push(0);
        const coefNum = Math.min(64, 1 << (4 + (sizeId << 1)));
        let nextCoef = 8;
        if (sizeId > 1) {
          dcCoef = r.se(`scaling_list_dc_coef_minus8${element}`, -7, 247) + 8;
          nextCoef = dcCoef;
        }
        list = new Uint8Array(coefNum);
        for (let i = 0; i < coefNum; i++) {
          nextCoef = (nextCoef + r.se(`scaling_list_delta_coef${element}`, -128, 127) + 256) % 256;
          // 7.4.5: ScalingList[][][i] shall be greater than 0.
          if (nextCoef === 0) throw new H265BitstreamError(`${what}: ScalingList${element}[${i}] is 0; must be greater than 0 (7.4.5)`);
          list[i] = nextCoef;
        }
      }
      lists[sizeId]!.push(list);
      if (sizeId > 1) dc[sizeId - 2]!.push(dcCoef);
    }
  }
  return {
    predModeFlag,
    predMatrixIdDelta,
    list4x4: lists[0]!,
    list8x8: lists[1]!,
    list16x16: lists[2]!,
    list32x32: lists[3]!,
    dcCoef16x16: dc[0]!,
    dcCoef32x32: dc[1]!,
  };
}
