// profile_tier_level() (7.3.3), and which profiles this room decodes
// (Annex A.3: Main, Main 10, Main Still Picture).
import type { BitReader } from '../h264/bit-reader';
import { H265UnsupportedError } from './errors';
import type { H265ProfileInfo, H265ProfileTierLevel } from './types';

/** general_profile_idc of the profiles decoded here (A.3.2, A.3.3, A.3.4). */
export const H265Profile = { main: 1, main10: 2, mainStillPicture: 3 } as const;

function has(profileIdc: number, compatibility: number, ...profiles: number[]): boolean {
  return profiles.some((p) => profileIdc === p || (compatibility & (2 ** p)) !== 0);
}

function profileInfo(r: BitReader, prefix: string): H265ProfileInfo {
  const profileSpace = r.u(2, `${prefix}_profile_space`);
  const tierFlag = r.flag(`${prefix}_tier_flag`);
  const profileIdc = r.u(5, `${prefix}_profile_idc`);
  const profileCompatibilityFlags = r.u(32, `${prefix}_profile_compatibility_flag`);
  // Flag j is the j-th bit sent: the most significant of the 32.
  let compatibility = 0;
  for (let j = 0; j < 32; j++) if (profileCompatibilityFlags & (2 ** (31 - j))) compatibility += 2 ** j;
  const progressiveSourceFlag = r.flag(`${prefix}_progressive_source_flag`);
  const interlacedSourceFlag = r.flag(`${prefix}_interlaced_source_flag`);
  const nonPackedConstraintFlag = r.flag(`${prefix}_non_packed_constraint_flag`);
  const frameOnlyConstraintFlag = r.flag(`${prefix}_frame_only_constraint_flag`);
  const constraintBits = r.u(22, `${prefix}_reserved_zero_43bits`) * 2 ** 21 + r.u(21, `${prefix}_reserved_zero_43bits`);
  // 7.3.3: the Main 10 branch (7 reserved bits) and the range extension branch (7 other constraint flags) both send
  // one_picture_only_constraint_flag as the 8th of the 43 bits.
  const onePictureOnlyConstraintFlag = has(profileIdc, compatibility, 2, 4, 5, 6, 7, 8, 9, 10, 11) && Math.floor(constraintBits / 2 ** 35) % 2 === 1;
  const inbldFlag = r.flag(`${prefix}_inbld_flag`);
  return {
    profileSpace,
    tierFlag,
    profileIdc,
    profileCompatibilityFlags: compatibility,
    progressiveSourceFlag,
    interlacedSourceFlag,
    nonPackedConstraintFlag,
    frameOnlyConstraintFlag,
    constraintBits,
    onePictureOnlyConstraintFlag,
    inbldFlag,
  };
}

/** profile_tier_level( 1, maxNumSubLayersMinus1 ). */
export function readProfileTierLevel(r: BitReader, maxNumSubLayersMinus1: number): H265ProfileTierLevel {
  const general = profileInfo(r, 'general');
  const generalLevelIdc = r.u(8, 'general_level_idc');
  const present: [boolean, boolean][] = [];
  for (let i = 0; i < maxNumSubLayersMinus1; i++) present.push([r.flag('sub_layer_profile_present_flag'), r.flag('sub_layer_level_present_flag')]);
  if (maxNumSubLayersMinus1 > 0) r.skip(2 * (8 - maxNumSubLayersMinus1), 'reserved_zero_2bits');
  const subLayers: H265ProfileTierLevel['subLayers'][number][] = [];
  for (let i = 0; i < maxNumSubLayersMinus1; i++) {
    const [profilePresentFlag, levelPresentFlag] = present[i]!;
    const profile = profilePresentFlag ? profileInfo(r, 'sub_layer') : null;
    const levelIdc = levelPresentFlag ? r.u(8, 'sub_layer_level_idc') : 0;
    subLayers.push({ profilePresentFlag, levelPresentFlag, profile, levelIdc });
  }
  return { general, generalLevelIdc, subLayers };
}

/**
 * Refuses a stream this room does not decode: general_profile_space other
 * than 0 or a profile other than Main, Main 10 or Main Still Picture (by
 * general_profile_idc or a compatibility flag, A.3: a Main decoder decodes
 * what declares compatibility with Main).
 */
export function checkProfile(ptl: H265ProfileTierLevel): void {
  const g = ptl.general;
  if (g.profileSpace !== 0) throw new H265UnsupportedError('profile', `general_profile_space ${g.profileSpace} (A.3: 0 only)`);
  if (!has(g.profileIdc, g.profileCompatibilityFlags, H265Profile.main, H265Profile.main10, H265Profile.mainStillPicture)) {
    const names: Record<number, string> = { 4: 'format range extensions', 5: 'high throughput', 9: 'screen content coding' };
    const name = names[g.profileIdc];
    throw new H265UnsupportedError(
      'profile',
      `general_profile_idc ${g.profileIdc}${name ? ` (${name})` : ''}, not Main, Main 10 or Main Still Picture, nor compatible with them`,
    );
  }
}
