// Streams the bitstream room refuses or survives: unsupported features give
// H264UnsupportedError naming the feature before any picture is given out;
// malformed input gives H264BitstreamError; bad options a TypeError or
// RangeError naming the option; and 200 fuzz cases (test/fuzz/h264-bitstream.mjs)
// end in pictures or typed errors only, each within its time.
import { describe, expect, it } from 'vitest';
import * as room from '../lib/video/h264';
import { H264Input } from '../lib/video/h264-input';
import { H264BitstreamError, H264Sequencer, H264UnsupportedError, splitAnnexB } from '../lib/video/h264';
import { checkEvents, loadStreams, runCase } from './fuzz/h264-bitstream.mjs';
import { decodeStream, sequence, streamBytes } from './fixtures/h264/streams';
import { ppsNal, type SliceFields, sliceNal, spsNal } from './fixtures/h264/syntax-writer';

/** The error a stream ends with, and how many picture events came before it. */
function refusal(nals: Iterable<Uint8Array>, options?: ConstructorParameters<typeof H264Sequencer>[0]): { error: unknown; pictures: number } {
  const s = new H264Sequencer(options);
  let pictures = 0;
  try {
    for (const nal of nals) for (const e of s.push(nal)) if (e.type === 'picture') pictures++;
    for (const e of s.flush()) if (e.type === 'picture') pictures++;
  } catch (error) {
    return { error, pictures };
  }
  return { error: null, pictures };
}
const idr: Partial<SliceFields> = { idr: true, sliceType: 2, nalRefIdc: 3 };

describe('unsupported streams: H264UnsupportedError naming the feature, before any picture', () => {
  it.each([
    ['unsupported-mbaff', 'interlaced', /mb_adaptive_frame_field_flag 1 \(MBAFF/],
    ['unsupported-422', 'chroma_format_idc', /chroma_format_idc 2 \(4:2:2\)/],
    ['unsupported-444', 'chroma_format_idc', /chroma_format_idc 3 \(4:4:4\)/],
    ['unsupported-10bit', 'bit_depth', /10-bit luma/],
  ])('%s: %s', (name, feature, found) => {
    const { error, pictures } = refusal(splitAnnexB(streamBytes(name)));
    expect(error).toBeInstanceOf(H264UnsupportedError);
    expect((error as H264UnsupportedError).feature).toBe(feature);
    expect((error as H264UnsupportedError).found).toMatch(found);
    expect(pictures).toBe(0);
  });

  it('field pictures (field_pic_flag 1, PAFF) are refused as interlaced', () => {
    const sps = { frameMbsOnly: false };
    const { error, pictures } = refusal([spsNal(sps), ppsNal(), sliceNal({ ...idr, fieldPic: true }, sps)]);
    expect(error).toBeInstanceOf(H264UnsupportedError);
    expect((error as H264UnsupportedError).feature).toBe('interlaced');
    expect((error as H264UnsupportedError).found).toMatch(/field_pic_flag 1/);
    expect(pictures).toBe(0);
  });

  it('slice groups (FMO), data partitions and profiles the decoder does not list', () => {
    expect(refusal([spsNal({ profileIdc: 66 }), ppsNal({ numSliceGroupsMinus1: 1 }), sliceNal(idr, { profileIdc: 66 })]).error).toMatchObject({
      feature: 'slice_groups',
    });
    expect(refusal([spsNal(), ppsNal(), Uint8Array.of(0x62, 0x80)]).error).toMatchObject({ feature: 'data_partitioning' });
    expect(refusal([spsNal({ profileIdc: 88 }), ppsNal(), sliceNal(idr, { profileIdc: 88 })]).error).toMatchObject({
      feature: 'profile',
      found: expect.stringMatching(/profile_idc 88 \(Extended\)/),
    });
  });

  it("the decoder's limits: size, level, DPB slots (constructor options)", () => {
    const nals = splitAnnexB(streamBytes('1080p'));
    expect(refusal(nals, { maxWidth: 1280, maxHeight: 720 }).error).toMatchObject({
      feature: 'size',
      found: expect.stringMatching(/1920x1088 coded/),
    });
    expect(refusal(nals, { maxLevelIdc: 31 }).error).toMatchObject({ feature: 'level' });
    expect(refusal(splitAnnexB(streamBytes('ref16')), { maxSlots: 8 }).error).toMatchObject({
      feature: 'dpb_slots',
      found: expect.stringMatching(/needs 17 DPB slots/),
    });
    expect(refusal(splitAnnexB(streamBytes('b-pyramid')), { profiles: [77] }).error).toMatchObject({ feature: 'profile' });
    expect(refusal(nals, { maxWidth: 1920, maxHeight: 1088, maxLevelIdc: 40 }).error).toBeNull();
  });

  it('options are checked: a TypeError or RangeError naming the option', () => {
    expect(() => new H264Sequencer({ maxSlots: 0 })).toThrow(/options.maxSlots must be 1..64; got 0/);
    expect(() => new H264Sequencer({ maxWidth: 1.5 })).toThrow(TypeError);
    expect(() => new H264Sequencer({ maxHeigth: 5 } as never)).toThrow(/unknown option 'maxHeigth'/);
    expect(() => new H264Sequencer({ profiles: ['high'] } as never)).toThrow(/options.profiles/);
    expect(() => new H264Sequencer(7 as never)).toThrow(TypeError);
    expect(() => new H264Sequencer().push('nal' as never)).toThrow(TypeError);
  });
});

describe('malformed streams: H264BitstreamError with the reason', () => {
  it('a slice before any SPS/PPS names the missing parameter set', () => {
    const nals = splitAnnexB(streamBytes('ip-cabac')).filter((n) => (n[0]! & 31) === 5 || (n[0]! & 31) === 1);
    const { error } = refusal(nals);
    expect(error).toBeInstanceOf(H264BitstreamError);
    expect((error as H264BitstreamError).reason).toMatch(/PPS 0, which has not been sent/);
  });

  it('forbidden_zero_bit 1', () => {
    expect(refusal([Uint8Array.of(0xe7, 1, 2)]).error).toMatchObject({ reason: expect.stringMatching(/forbidden_zero_bit 1/) });
  });

  it('an IDR slice that is not I or SI, first_mb_in_slice past the picture, reserved weighted_bipred_idc 3', () => {
    expect(refusal([spsNal(), ppsNal(), sliceNal({ ...idr, sliceType: 0 })]).error).toMatchObject({
      reason: expect.stringMatching(/IDR slice has slice_type 5/),
    });
    expect(refusal([spsNal(), ppsNal(), sliceNal({ ...idr, firstMb: 99 })]).error).toMatchObject({
      reason: expect.stringMatching(/first_mb_in_slice 99 is past/),
    });
    expect(refusal([spsNal(), ppsNal({ weightedBipredIdc: 3 }), sliceNal(idr)]).error).toMatchObject({
      reason: expect.stringMatching(/weighted_bipred_idc is 3/),
    });
  });

  it('an SPS whose cropping leaves nothing', () => {
    expect(refusal([spsNal({ crop: [0, 0, 0, 72] })]).error).toMatchObject({ reason: expect.stringMatching(/frame cropping leaves 176x0/) });
  });

  it('an SPS changing under the same id before a non-IDR picture', () => {
    const nals = [spsNal(), ppsNal(), sliceNal(idr), spsNal({ maxNumRefFrames: 2 }), sliceNal({ sliceType: 0, frameNum: 1, pocLsb: 2 })];
    expect(refusal(nals).error).toMatchObject({ reason: expect.stringMatching(/SPS 0 changed before a non-IDR picture/) });
    // At an IDR it is a new sequence.
    const atIdr = [spsNal(), ppsNal(), sliceNal(idr), spsNal({ maxNumRefFrames: 2 }), sliceNal({ ...idr, idrPicId: 1 })];
    expect(refusal(atIdr).error).toBeNull();
  });

  it('a NAL unit refused after a complete picture does not lose that picture: it comes with the next call', () => {
    const sps = { frameMbsOnly: false };
    const s = new H264Sequencer();
    s.push(spsNal(sps));
    s.push(ppsNal());
    expect(s.push(sliceNal(idr, sps))).toEqual([]);
    // The next picture's first slice is a field: refused before the IDR is finished, so the IDR is still pending.
    expect(() => s.push(sliceNal({ sliceType: 0, frameNum: 1, pocLsb: 2, fieldPic: true }, sps))).toThrow(H264UnsupportedError);
    expect(s.flush().map((e) => (e.type === 'picture' ? `picture ${e.picture.decodeIndex}` : `output ${e.decodeIndex}`))).toEqual([
      'picture 0',
      'output 0',
    ]);
  });

  it('the sequencer keeps working after a typed error in one NAL unit (the next IDR decodes)', () => {
    const s = new H264Sequencer();
    s.push(spsNal());
    s.push(ppsNal());
    expect(() => s.push(sliceNal({ ...idr, firstMb: 99 }))).toThrow(H264BitstreamError);
    const events = [...s.push(sliceNal(idr)), ...s.flush()];
    expect(events.map((e) => e.type)).toEqual(['picture', 'output']);
  });
});

describe('input that would grow without bound (a hostile peer): H264BitstreamError, and nothing before it lost', () => {
  it('7.4.5: a picture whose slices pass what its size can take (400 bytes a macroblock, doubled, + 1 MiB) is refused; the next IDR decodes', () => {
    const s = new H264Sequencer();
    s.push(spsNal());
    s.push(ppsNal());
    const slice = sliceNal(idr);
    const huge = new Uint8Array(slice.length + (3 << 20));
    huge.set(slice);
    huge.fill(0x55, slice.length);
    expect(() => s.push(huge)).toThrow(/passes \d+ bytes of slices, more than a \d+x\d+ coded picture can take \(7\.4\.5\)/);
    const events = [...s.push(sliceNal(idr)), ...s.flush()];
    expect(events.map((e) => e.type)).toEqual(['picture', 'output']);
  });

  it('B.2: a NAL unit that runs past maxUnitBytes with no start code after it is refused; the units before it come with the next call', () => {
    const splitter = new room.AnnexBSplitter({ reuseBuffer: true, maxUnitBytes: 100 });
    const first = Uint8Array.of(0, 0, 1, 0x67, 1, 2, 0, 0, 1, 0x68, 3, 0, 0, 1, 0x65);
    expect(() => splitter.push(Uint8Array.of(...first, ...new Uint8Array(150).fill(7)))).toThrow(
      /a NAL unit runs past 100 bytes \(151 so far\) with no start code after it \(B\.2\)/,
    );
    // The bytes up to the next start code are dropped; what came before is returned first.
    const next = splitter.push(Uint8Array.of(9, 9, 0, 0, 1, 0x41, 4));
    expect(next.map((n) => [...n])).toEqual([
      [0x67, 1, 2],
      [0x68, 3],
    ]);
    expect(splitter.end().map((n) => [...n])).toEqual([[0x41, 4]]);
    // Under the bound, a unit across many chunks is whole.
    const fine = new room.AnnexBSplitter({ maxUnitBytes: 100 });
    const units = [Uint8Array.of(0, 0, 1, 0x65), ...Array.from({ length: 9 }, () => new Uint8Array(10).fill(3)), Uint8Array.of(0, 0, 1)].flatMap(
      (c) => fine.push(c),
    );
    expect(units.map((n) => n.length)).toEqual([91]);
    expect(() => new room.AnnexBSplitter({ maxUnitBytes: 0 })).toThrow(/options.maxUnitBytes must be a positive integer; got 0/);
  });
});

describe('the fuzzer (test/fuzz/h264-bitstream.mjs), bounded', () => {
  it('200 seeded cases of flipped, cut, spliced, reordered and re-chunked streams: pictures or typed errors only, none over 2 s', () => {
    const streams = loadStreams();
    const counts = { ok: 0, typed: 0, failure: 0 };
    const failures: string[] = [];
    for (let seed = 1; seed <= 200; seed++) {
      const r = runCase(seed, streams, { ...room, H264Input });
      counts[r.outcome]++;
      if (r.outcome === 'failure') failures.push(`seed ${seed}: ${r.detail} (${r.log.join('; ')})`);
      expect(r.ms, `seed ${seed}`).toBeLessThan(2000);
    }
    expect(failures).toEqual([]);
    // The cases reach both ends: some decode through, some are refused.
    expect(counts.ok).toBeGreaterThan(10);
    expect(counts.typed).toBeGreaterThan(10);
  });

  it("checkEvents finds a broken record (so the fuzzer's checks can fail)", () => {
    const { events } = decodeStream('ref4');
    expect(checkEvents(events)).toBeNull();
    const picture = events.find((e) => e.type === 'picture' && e.picture.references.length > 0)!;
    const bad = {
      ...picture,
      picture: {
        ...(picture as { picture: room.H264Picture }).picture,
        setupSlot: (picture as { picture: room.H264Picture }).picture.references[0]!.slot,
      },
    };
    expect(checkEvents(events.map((e) => (e === picture ? bad : e)) as room.H264Event[])).toMatch(/setup slot \d+ holds a reference/);
    expect(checkEvents([{ type: 'output', decodeIndex: 0 }])).toMatch(/before \(or without\) it/);
    expect(sequence([]).events).toEqual([]);
  });
});
