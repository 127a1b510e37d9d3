// The video decoder's side that runs without video hardware: on lavapipe
// (matched by UUID to the reference driver) asking for a decoder is the typed
// "no video decode queue" error, bad options are typed errors naming the
// option, the Vulkan Video structures the module declares itself match the
// published headers field by field, and the records the native side reads are
// laid out as it reads them. Decoding itself runs on the GPU suite
// (test/gpu/video-decode.test.mjs).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VideoDecodeUnsupportedError, createVideoDecoder, createVulkanInstance, describeVideoSupport, frameLayout, videoDecodeSupport } from '../lib';
import { DESC_HEADER, DESC_REF, pictureDescriptor, stdLevel } from '../lib/video/h264-vulkan';
import type { H264Picture } from '../lib/video/h264/types';
import { outputOf, repoRoot, runNode } from './helpers';
import { matchedToLavapipe } from './helpers/ref-driver';

describe('a device without a video decode queue (lavapipe)', () => {
  it('videoDecodeSupport says so, and `info` prints it', () => {
    using m = matchedToLavapipe();
    const instance = createVulkanInstance();
    try {
      const support = videoDecodeSupport(instance, instance.physicalDevices()[0]!);
      expect(support).toMatchObject({ decodeFamily: null, decodeQueues: 0, codecs: [], profiles: [] });
      expect(describeVideoSupport(support)).toEqual(['no video decode queue']);
    } finally {
      instance.dispose();
    }
    void m;
  });

  it('createVideoDecoder is a typed VideoDecodeUnsupportedError (reason no-decode-queue) naming the device, before any GPU work', () => {
    using m = matchedToLavapipe();
    let thrown: unknown;
    try {
      createVideoDecoder({ context: m.context });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(VideoDecodeUnsupportedError);
    const error = thrown as VideoDecodeUnsupportedError;
    expect(error.reason).toBe('no-decode-queue');
    expect(error.device).toBe(m.physical.name);
    expect(error.message).toContain('this device has no video decode queue');
  });

  it('bad options are TypeError / RangeError naming the option', () => {
    using m = matchedToLavapipe();
    expect(() => createVideoDecoder(undefined as never)).toThrow(TypeError);
    expect(() => createVideoDecoder({ context: 5 as never })).toThrow(/options.context must be an OpenCL Context/);
    expect(() => createVideoDecoder({ context: m.context, codec: 'vp9' as never })).toThrow(/options.codec/);
    expect(() => createVideoDecoder({ context: m.context, frames: 1 })).toThrow(RangeError);
    expect(() => createVideoDecoder({ context: m.context, inFlight: 0 })).toThrow(/options.inFlight/);
    expect(() => createVideoDecoder({ context: m.context, bogus: 1 } as never)).toThrow(/bogus/);
  });

  it('in a fresh process the typed error leaves nothing behind: the process exits 0 at once', async () => {
    const run = await runNode(`
      const instance = ocl.createVulkanInstance();
      process.env.REFDRV_DEVICE_UUID = Buffer.from(instance.physicalDevices()[0].deviceUUID).toString('hex');
      const platform = ocl.getPlatforms().find((p) => p.name === 'opencl-interop reference driver');
      const context = ocl.createContext({ devices: [platform.getDevices()[0]] });
      try { ocl.createVideoDecoder({ context }); } catch (e) { console.log(e.name, e.reason); }
    `);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe('VideoDecodeUnsupportedError no-decode-queue');
  });
});

describe('output frames: NV12 rows the OpenCL import takes', () => {
  it('pitch is the width rounded up to 256 bytes; the UV plane starts 4 KiB-aligned after the Y rows', () => {
    expect(frameLayout(1920, 1080)).toEqual({ width: 1920, height: 1080, pitch: 2048, uvOffset: 2048 * 1080, size: 2048 * 1080 * 1.5 });
    expect(frameLayout(350, 198)).toEqual({ width: 350, height: 198, pitch: 512, uvOffset: 102400, size: 102400 + 512 * 99 });
  });
});

describe('the records the native side reads', () => {
  it('level_idc maps to StdVideoH264LevelIdc (1.0 = 0 ... 6.2 = 18; 1b reads as 1.1)', () => {
    expect([10, 9, 11, 31, 40, 51, 52, 62, 99].map(stdLevel)).toEqual([0, 1, 1, 8, 10, 14, 15, 18, 18]);
  });

  it('a picture descriptor holds the picture, then five ints per reference', () => {
    const picture = {
      setupSlot: 3,
      isIntra: false,
      isIdr: false,
      isReference: true,
      isLongTerm: true,
      spsId: 1,
      ppsId: 2,
      frameNum: 7,
      idrPicId: 0,
      poc: { top: 14, bottom: 15 },
      crop: { left: 0, top: 2, width: 350, height: 198 },
      references: [
        { slot: 0, frameNum: 6, longTerm: false, nonExisting: false, poc: { top: 12, bottom: 12 }, decodeIndex: 6 },
        { slot: 5, frameNum: 1, longTerm: true, nonExisting: true, poc: { top: -2, bottom: -2 }, decodeIndex: -1 },
      ],
    } as unknown as H264Picture;
    const d = pictureDescriptor(picture);
    expect(d.length).toBe(DESC_HEADER + 2 * DESC_REF);
    expect([...d]).toEqual([3, 4 | 8, 1, 2, 7, 0, 14, 15, 0, 2, 350, 198, 2, 0, 6, 0, 12, 12, 5, 1, 3, -2, -2]);
  });
});

describe('the module declares its Vulkan Video types itself (native/video/vk_video_decls.h): they match the published headers', () => {
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
  ];
  // Bit-fields: a value with one flag set, read back as the whole word.
  const flags: [string, string][] = [
    ['StdVideoH264SpsFlags', 'vui_parameters_present_flag'],
    ['StdVideoH264SpsFlags', 'frame_mbs_only_flag'],
    ['StdVideoH264PpsFlags', 'pic_scaling_matrix_present_flag'],
    ['StdVideoDecodeH264PictureInfoFlags', 'is_reference'],
    ['StdVideoDecodeH264ReferenceInfoFlags', 'is_non_existing'],
    ['StdVideoH264SpsVuiFlags', 'bitstream_restriction_flag'],
  ];

  it('every structure has the size and alignment, every listed field the offset, every flag the bit of vulkan_core.h 1.3.239', async () => {
    const lines = [
      ...structures.map((t) => `  printf("%zu %zu\\n", sizeof(${t}), alignof(${t}));`),
      ...fields.map(([t, f]) => `  printf("%zu\\n", offsetof(${t}, ${f}));`),
      ...flags.map(([t, f]) => `  { ${t} v{}; v.${f} = 1; uint32_t w; std::memcpy(&w, &v, 4); printf("%u\\n", w); }`),
    ].join('\n');
    const dir = mkdtempSync(join(tmpdir(), 'vkvideo-'));
    try {
      const program = (include: string, prefix: string) =>
        `#include <cstdio>\n#include <cstddef>\n#include <cstdint>\n#include <cstring>\n${include}\n${prefix}\nint main() {\n${lines}\n}\n`;
      writeFileSync(join(dir, 'ours.cc'), program('#include "video/vk_video_decls.h"', 'using namespace ocl::vk;'));
      writeFileSync(join(dir, 'theirs.cc'), program('#include <vulkan/vulkan_core.h>', ''));
      const run = async (name: string) => {
        await outputOf('g++', ['-std=c++17', `-I${join(repoRoot, 'native')}`, join(dir, `${name}.cc`), '-o', join(dir, name)]);
        return (await outputOf(join(dir, name), [])).trim().split('\n');
      };
      const [ours, theirs] = await Promise.all([run('ours'), run('theirs')]);
      const names = [...structures, ...fields.map((f) => f.join('.')), ...flags.map((f) => f.join('.'))];
      expect(ours.length).toBe(names.length);
      expect(names.flatMap((n, i) => (ours[i] === theirs[i] ? [] : [`${n}: ${ours[i]} vs ${theirs[i]}`]))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
