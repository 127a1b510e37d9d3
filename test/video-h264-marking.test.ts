// The decoding process on hand-built streams (test/fixtures/h264/syntax-writer.ts):
// reference marking with every MMCO, long-term references, POC type 1,
// frame_num gaps, list initialisation and modification, output order at IDR
// and MMCO 5, access-unit boundaries. Expected values are worked out from
// the clauses named in each title.
import { describe, expect, it } from 'vitest';
import { type H264Picture, H264Sequencer } from '../lib/video/h264';
import { sequence } from './fixtures/h264/streams';
import { type PpsFields, ppsNal, type SliceFields, type SpsFields, sliceNal, spsNal } from './fixtures/h264/syntax-writer';

/** A stream of one SPS and PPS and the given slices. */
function stream(sps: Partial<SpsFields>, pps: Partial<PpsFields>, slices: Partial<SliceFields>[]) {
  return [spsNal(sps), ppsNal(pps), ...slices.map((s) => sliceNal(s, sps, pps))];
}
const idr = (f: Partial<SliceFields> = {}): Partial<SliceFields> => ({ idr: true, sliceType: 2, nalRefIdc: 3, ...f });
const p = (frameNum: number, pocLsb: number, f: Partial<SliceFields> = {}): Partial<SliceFields> => ({ sliceType: 0, frameNum, pocLsb, ...f });
const bPic = (frameNum: number, pocLsb: number, f: Partial<SliceFields> = {}): Partial<SliceFields> => ({
  sliceType: 1,
  nalRefIdc: 0,
  frameNum,
  pocLsb,
  ...f,
});

/** Short-term frame_nums and long-term indices held before a picture. */
function held(picture: H264Picture) {
  return {
    short: picture.references
      .filter((r) => !r.longTerm)
      .map((r) => r.frameNum)
      .sort((a, b) => a - b),
    long: picture.references
      .filter((r) => r.longTerm)
      .map((r) => r.frameNum)
      .sort((a, b) => a - b),
  };
}
/** decodeIndex of the reference in each slot of a list. */
function listOf(picture: H264Picture, list: readonly number[]) {
  return list.map((slot) => picture.references.find((r) => r.slot === slot)?.decodeIndex ?? -1);
}

describe('8.2.5 reference marking', () => {
  it('8.2.5.3 sliding window: at max_num_ref_frames the frame with the smallest FrameNumWrap goes (across the frame_num wrap)', () => {
    const sps = { maxNumRefFrames: 3 };
    const slices = [idr(), ...Array.from({ length: 18 }, (_, i) => p((i + 1) % 16, (2 * (i + 1)) % 256))];
    const { pictures } = sequence(stream(sps, {}, slices));
    expect(held(pictures[3]!).short).toEqual([0, 1, 2]);
    expect(held(pictures[4]!).short).toEqual([1, 2, 3]);
    // frame_num 1 after 15: FrameNumWrap of 14 and 15 is -2 and -1, so 14 is the oldest.
    expect(pictures[17]!.frameNum).toBe(1);
    expect(held(pictures[17]!).short).toEqual([0, 14, 15]);
    expect(held(pictures[18]!).short).toEqual([0, 1, 15]);
  });

  it('8.2.5.4.1 MMCO 1 marks the short-term frame picNumX = CurrPicNum - (difference_of_pic_nums_minus1 + 1) unused', () => {
    const { pictures } = sequence(stream({}, {}, [idr(), p(1, 2), p(2, 4), p(3, 6, { mmcos: [[1, 1]] }), p(4, 8)]));
    expect(held(pictures[3]!).short).toEqual([0, 1, 2]);
    // picNumX = 3 - 2 = 1.
    expect(held(pictures[4]!).short).toEqual([0, 2, 3]);
  });

  it('8.2.5.4.3 / 8.2.5.4.4 MMCO 4 then 3: a short-term frame becomes long-term with LongTermFrameIdx; lists put it after the short-term ones', () => {
    const slices = [
      idr(),
      p(1, 2, {
        mmcos: [
          [4, 2],
          [3, 0, 1],
        ],
      }),
      p(2, 4, { numRefIdxActive: [1, 0] }),
    ];
    const { pictures } = sequence(stream({}, {}, slices));
    // picNumX = 1 - 1 = 0: the IDR becomes long-term index 1.
    expect(held(pictures[2]!)).toEqual({ short: [1], long: [1] });
    expect(pictures[2]!.references.find((r) => r.longTerm)!.decodeIndex).toBe(0);
    // 8.2.4.2.1: short-term by descending PicNum, then long-term by ascending LongTermPicNum.
    expect(listOf(pictures[2]!, pictures[2]!.refPicList0[0]!)).toEqual([1, 0]);
  });

  it('8.2.5.4.2 MMCO 2 marks the long-term frame with LongTermPicNum = long_term_pic_num unused', () => {
    const slices = [
      idr(),
      p(1, 2, {
        mmcos: [
          [4, 3],
          [3, 0, 2],
        ],
      }),
      p(2, 4, { mmcos: [[3, 0, 0]] }),
      p(3, 6, { mmcos: [[2, 2]] }),
      p(4, 8),
    ];
    const { pictures } = sequence(stream({}, {}, slices));
    expect(held(pictures[3]!)).toEqual({ short: [2], long: [0, 2] });
    expect(held(pictures[4]!)).toEqual({ short: [2, 3], long: [0] });
  });

  it('8.2.5.4.4 MMCO 4 with a smaller max_long_term_frame_idx_plus1 drops the long-term frames above it; 0 drops all', () => {
    const slices = [
      idr(),
      p(1, 2, {
        mmcos: [
          [4, 4],
          [3, 0, 3],
        ],
      }),
      p(2, 4, { mmcos: [[3, 0, 1]] }),
      p(3, 6, { mmcos: [[4, 2]] }),
      p(4, 8, { mmcos: [[4, 0]] }),
      p(5, 10),
    ];
    const { pictures } = sequence(stream({}, {}, slices));
    expect(held(pictures[3]!).long).toEqual([1, 3]);
    expect(held(pictures[4]!).long).toEqual([1]);
    expect(held(pictures[5]!).long).toEqual([]);
  });

  it('8.2.5.4.6 MMCO 6 makes the current picture long-term, taking the index from the frame that held it', () => {
    const slices = [
      idr({ longTermReference: true }),
      p(1, 2, {
        mmcos: [
          [4, 2],
          [6, 0],
        ],
      }),
      p(2, 4),
    ];
    const { pictures } = sequence(stream({}, {}, slices));
    // 8.2.5.1: an IDR with long_term_reference_flag is long-term index 0, MaxLongTermFrameIdx 0.
    expect(pictures[0]!.isLongTerm).toBe(true);
    expect(held(pictures[1]!)).toEqual({ short: [], long: [0] });
    expect(pictures[1]!.isLongTerm).toBe(true);
    expect(held(pictures[2]!)).toEqual({ short: [], long: [0] });
    expect(pictures[2]!.references[0]!.decodeIndex).toBe(1);
  });

  it("8.2.5.4.5 / 8.2.1 MMCO 5: all references go, the picture's POC becomes relative to itself, it counts as frame_num 0, and what waited is shown first", () => {
    const sps = { dpb: [4, 4] as [number, number] };
    const slices = [idr(), p(1, 8), p(2, 16, { mmcos: [[5]] }), p(1, 4), bPic(2, 2, { nalRefIdc: 0 })];
    const { pictures, output, events } = sequence(stream(sps, {}, slices));
    const five = pictures[2]!;
    expect(five.hasMmco5).toBe(true);
    // Decoded with its own POC; referred to afterwards with POC 0 and frame_num 0.
    expect(five.poc).toEqual({ top: 16, bottom: 16 });
    expect(held(pictures[3]!).short).toEqual([0]);
    expect(pictures[3]!.references[0]!.decodeIndex).toBe(2);
    expect(pictures[3]!.references[0]!.poc).toEqual({ top: 0, bottom: 0 });
    // prevPicOrderCntMsb 0 and prevPicOrderCntLsb 0 after MMCO 5: pic_order_cnt_lsb 4 is POC 4.
    expect(pictures[3]!.picOrderCnt).toBe(4);
    expect(pictures[4]!.picOrderCnt).toBe(2);
    expect(output).toEqual([0, 1, 2, 4, 3]);
    // Pictures 0 and 1 are shown before picture 2 is given, or right after it: never after a later picture.
    const firstOutputOf1 = events.findIndex((e) => e.type === 'output' && e.decodeIndex === 1);
    const pictureEventOf3 = events.findIndex((e) => e.type === 'picture' && e.picture.decodeIndex === 3);
    expect(firstOutputOf1).toBeLessThan(pictureEventOf3);
  });
});

describe('8.2.1 picture order count', () => {
  it('8.2.1.2 type 1: expected deltas from offset_for_ref_frame, offset_for_non_ref_pic for non-reference pictures, delta_pic_order_cnt[0..1]', () => {
    const sps = { pocType: 1, offsetForRefFrame: [4], offsetForNonRefPic: -2, offsetForTopToBottomField: 1, dpb: [1, 2] as [number, number] };
    const pps = { bottomFieldPicOrderInFramePresent: true };
    const slices = [idr(), p(1, 0), bPic(2, 0), p(2, 0, { deltaPoc: [1, -1] }), bPic(3, 0, { deltaPoc: [0, 2] }), p(3, 0)];
    const { pictures, output } = sequence(stream(sps, pps, slices));
    // ref fn1: 0 * 4 + 4 = 4; non-ref fn2: absFrameNum 1 -> 4 - 2 = 2; ref fn2: 8 (+1); non-ref fn3: 8 - 2 = 6; ref fn3: 12.
    expect(pictures.map((x) => x.poc.top)).toEqual([0, 4, 2, 9, 6, 12]);
    // BottomFieldOrderCnt = top + offset_for_top_to_bottom_field + delta_pic_order_cnt[1].
    expect(pictures.map((x) => x.poc.bottom)).toEqual([1, 5, 3, 9, 9, 13]);
    expect(pictures.map((x) => x.picOrderCnt)).toEqual([0, 4, 2, 9, 6, 12]);
    expect(output).toEqual([0, 2, 1, 4, 3, 5]);
  });

  it('8.2.1.2 type 1 with num_ref_frames_in_pic_order_cnt_cycle 0: every reference picture has POC 0 + delta', () => {
    const { pictures } = sequence(
      stream({ pocType: 1, offsetForRefFrame: [] }, {}, [idr(), p(1, 0, { deltaPoc: [6, 0] }), p(2, 0, { deltaPoc: [12, 0] })]),
    );
    expect(pictures.map((x) => x.picOrderCnt)).toEqual([0, 6, 12]);
  });

  it('8.2.1.1 type 0: PicOrderCntMsb steps by MaxPicOrderCntLsb when the lsb wraps either way', () => {
    const sps = { log2MaxPocLsbMinus4: 0 };
    const slices = [idr(), p(1, 6), p(2, 12), p(3, 2), p(4, 8), p(5, 14), bPic(6, 11)];
    const { pictures } = sequence(stream(sps, {}, slices));
    // MaxPicOrderCntLsb 16: 12 -> 2 wraps up (msb 16), 14 -> 11 stays.
    expect(pictures.map((x) => x.picOrderCnt)).toEqual([0, 6, 12, 18, 24, 30, 27]);
  });

  it('8.2.1.3 type 2: 2 * (FrameNumOffset + frame_num), minus 1 for non-reference pictures, FrameNumOffset growing at each wrap', () => {
    const slices = [idr(), ...Array.from({ length: 17 }, (_, i) => p((i + 1) % 16, 0)), p(2, 0, { nalRefIdc: 0 })];
    const { pictures } = sequence(stream({ pocType: 2 }, {}, slices));
    expect(pictures.slice(14, 19).map((x) => x.picOrderCnt)).toEqual([28, 30, 32, 34, 35]);
  });
});

describe('8.2.5.2 gaps in frame_num', () => {
  it('frames inferred for each missing frame_num are short-term references ("non-existing"), slid out like others, never shown', () => {
    const sps = { pocType: 2, gaps: true, maxNumRefFrames: 4 };
    const { pictures, output } = sequence(stream(sps, {}, [idr(), p(1, 0), p(5, 0), p(14, 0)]));
    const at5 = pictures[2]!;
    expect(held(at5).short).toEqual([1, 2, 3, 4]);
    expect(
      at5.references
        .filter((r) => r.nonExisting)
        .map((r) => r.frameNum)
        .sort(),
    ).toEqual([2, 3, 4]);
    // POC type 2 derives the inferred frames' POCs: 2 * frame_num.
    expect(
      at5.references
        .filter((r) => r.nonExisting)
        .map((r) => r.poc.top)
        .sort((a, b) => a - b),
    ).toEqual([4, 6, 8]);
    expect(at5.picOrderCnt).toBe(10);
    // A gap longer than the window leaves only inferred frames: 10..13.
    expect(held(pictures[3]!).short).toEqual([10, 11, 12, 13]);
    expect(pictures[3]!.references.every((r) => r.nonExisting)).toBe(true);
    expect(new Set(pictures[3]!.references.map((r) => r.slot)).size).toBe(4);
    expect(output).toEqual([0, 1, 2, 3]);
  });

  it('8.2.4.2.3 with POC type 0 non-existing frames stay out of B lists (8.2.5.2) but in P lists', () => {
    const sps = { gaps: true, maxNumRefFrames: 4, dpb: [2, 4] as [number, number] };
    const slices = [idr(), p(3, 12, { numRefIdxActive: [2, 0] }), bPic(4, 6, { numRefIdxActive: [1, 1] })];
    const { pictures } = sequence(stream(sps, {}, slices));
    expect(held(pictures[1]!).short).toEqual([0, 1, 2]);
    expect(listOf(pictures[1]!, pictures[1]!.refPicList0[0]!)).toEqual([-1, -1, 0]);
    expect(pictures[1]!.refPicList0[0]!.slice(0, 2).every((slot) => slot >= 0)).toBe(true);
    const b = pictures[2]!;
    expect(listOf(b, b.refPicList0[0]!)).toEqual([0, 1]);
    expect(listOf(b, b.refPicList1[0]!)).toEqual([1, 0]);
  });
});

describe('8.2.4 reference picture lists', () => {
  it('8.2.4.2.3 B lists: when list 1 equals list 0 and has more than one entry, its first two entries swap', () => {
    const slices = [idr(), p(1, 4), bPic(2, 8, { numRefIdxActive: [1, 1] })];
    const { pictures } = sequence(stream({}, {}, slices));
    const b = pictures[2]!;
    expect(listOf(b, b.refPicList0[0]!)).toEqual([1, 0]);
    expect(listOf(b, b.refPicList1[0]!)).toEqual([0, 1]);
  });

  it('8.2.4.3.1 / 8.2.4.3.2 modification: short-term by abs_diff_pic_num_minus1 (subtract, add, wrapping), long-term by long_term_pic_num, duplicates allowed', () => {
    const slices = [
      idr(),
      p(1, 2, {
        mmcos: [
          [4, 1],
          [3, 0, 0],
        ],
      }),
      p(2, 4),
      p(3, 6),
      // CurrPicNum 4: idc 0 diff 3 -> picNum 1 (fn1); idc 1 diff 1 -> picNum 2 (fn2); idc 2 -> long-term 0 (the IDR); idc 0 diff 0 -> 1 again.
      p(4, 8, {
        numRefIdxActive: [4, 0],
        modsL0: [
          [0, 2],
          [1, 0],
          [2, 0],
          [0, 0],
        ],
      }),
    ];
    const { pictures } = sequence(stream({}, {}, slices));
    const q = pictures[4]!;
    expect(held(q)).toEqual({ short: [1, 2, 3], long: [0] });
    expect(listOf(q, q.refPicList0[0]!)).toEqual([1, 2, 0, 1, 3]);
  });

  it('8.2.4.3.1 picNumLXNoWrap wraps at MaxPicNum: subtracting past 0 from frame_num 1 names frame_num 15', () => {
    const slices = [
      idr(),
      ...Array.from({ length: 15 }, (_, i) => p(i + 1, 2 * (i + 1))),
      p(0, 32, { numRefIdxActive: [0, 0], modsL0: [[0, 0]] }),
      p(1, 34, { numRefIdxActive: [0, 0], modsL0: [[0, 1]] }),
    ];
    const { pictures } = sequence(stream({ maxNumRefFrames: 4 }, {}, slices));
    const last = pictures[17]!;
    // CurrPicNum 1: 1 - 2 = -1 -> + 16 = 15 > CurrPicNum -> picNum -1, the frame_num 15 frame (FrameNumWrap -1).
    expect(last.references.find((r) => r.slot === last.refPicList0[0]![0])!.frameNum).toBe(15);
  });

  it('a modification naming a frame that is not held gives "no reference picture" (-1), not an exception', () => {
    const { pictures } = sequence(stream({}, {}, [idr(), p(1, 2, { numRefIdxActive: [1, 0], modsL0: [[0, 5]] })]));
    expect(pictures[1]!.refPicList0[0]).toEqual([-1, 0]);
  });
});

describe('C.4 output order', () => {
  it('C.4.4 an IDR with no_output_of_prior_pics_flag: the pictures still waiting are released with discard, not shown', () => {
    const sps = { dpb: [4, 4] as [number, number] };
    const { events } = sequence(stream(sps, {}, [idr(), p(1, 8), p(2, 16), idr({ idrPicId: 1, noOutputOfPriorPics: true })]));
    const outputs = events.filter((e) => e.type === 'output');
    expect(outputs.map((e) => [e.decodeIndex, e.type === 'output' && e.discard === true])).toEqual([
      [0, true],
      [1, true],
      [2, true],
      [3, false],
    ]);
  });

  it('C.4.5.3 with max_num_reorder_frames 0 each picture is shown as soon as it is decoded', () => {
    const { events } = sequence(stream({ dpb: [0, 4] }, {}, [idr(), p(1, 2), p(2, 4)]));
    expect(events.map((e) => (e.type === 'picture' ? `d${e.picture.decodeIndex}` : `o${e.decodeIndex}`))).toEqual([
      'd0',
      'o0',
      'd1',
      'o1',
      'd2',
      'o2',
    ]);
  });

  it('C.4.5.2 a non-reference picture before everything waiting goes out at once when the DPB is full', () => {
    // DPB of 2 frames, reorder 2: I0 and P(8) fill it; the B (POC 4) is output directly, before P.
    const { events } = sequence(stream({ dpb: [2, 2], maxNumRefFrames: 2 }, {}, [idr(), p(1, 8), bPic(2, 4)]));
    expect(events.map((e) => (e.type === 'picture' ? `d${e.picture.decodeIndex}` : `o${e.decodeIndex}`))).toEqual([
      'd0',
      'd1',
      'd2',
      'o0',
      'o2',
      'o1',
    ]);
  });
});

describe('7.4.1.2 access units', () => {
  const sps = {};
  const ppsB = { ppsId: 1 };
  it('7.4.1.2.4 a new picture starts on first_mb_in_slice 0, frame_num, pic_parameter_set_id, nal_ref_idc (0 / not 0), POC lsb, IDR-ness, idr_pic_id', () => {
    const base = [spsNal(sps), ppsNal(), ppsNal(ppsB)];
    const cases: [string, Partial<SliceFields>, Partial<PpsFields>, number][] = [
      ['same picture, next slice', { firstMb: 50 }, {}, 1],
      ['first_mb_in_slice 0', { firstMb: 0 }, {}, 2],
      ['frame_num', { firstMb: 50, frameNum: 2 }, {}, 2],
      ['pic_parameter_set_id', { firstMb: 50, ppsId: 1 }, ppsB, 2],
      ['nal_ref_idc 0', { firstMb: 50, nalRefIdc: 0 }, {}, 2],
      ['nal_ref_idc 1 vs 2 (both non-zero)', { firstMb: 50, nalRefIdc: 1 }, {}, 1],
      ['pic_order_cnt_lsb', { firstMb: 50, pocLsb: 4 }, {}, 2],
    ];
    for (const [what, second, secondPps, count] of cases) {
      const nals = [...base, sliceNal(idr()), sliceNal(p(1, 2)), sliceNal({ ...p(1, 2), ...second }, sps, secondPps)];
      expect(sequence(nals).pictures.length - 1, what).toBe(count);
    }
    const idrs = [...base, sliceNal(idr()), sliceNal(idr({ firstMb: 50, idrPicId: 1 }))];
    expect(sequence(idrs).pictures.length, 'idr_pic_id').toBe(2);
  });

  it('7.4.1.2.3 AUD, SEI, end of sequence and filler between pictures change nothing; end of stream shows everything waiting', () => {
    const slices = [idr(), p(1, 8), bPic(2, 4), p(2, 16)];
    const plain = sequence(stream({}, {}, slices));
    const aud = Uint8Array.of(0x09, 0xf0);
    const sei = Uint8Array.of(0x06, 0x05, 0x01, 0xaa, 0x80);
    const filler = Uint8Array.of(0x0c, 0xff, 0xff, 0x80);
    const nals = [spsNal({}), ppsNal({})];
    for (const s of slices) nals.push(aud, sei, sliceNal(s), filler);
    nals.push(Uint8Array.of(0x0a));
    const s = new H264Sequencer();
    const events = nals.flatMap((n) => s.push(n));
    events.push(...s.push(Uint8Array.of(0x0b)));
    const outputs = events.filter((e) => e.type === 'output').map((e) => e.decodeIndex);
    expect(outputs).toEqual(plain.output);
    expect(s.flush()).toEqual([]);
  });

  it('redundant pictures (redundant_pic_cnt > 0) are dropped', () => {
    const pps = { redundantPicCntPresent: true };
    const nals = stream({}, pps, [idr(), p(1, 2), p(1, 2, { redundantPicCnt: 1 }), p(2, 4)]);
    const { pictures } = sequence(nals);
    expect(pictures.map((x) => x.slices.length)).toEqual([1, 1, 1]);
  });

  it('pictures before the first IDR or I picture are dropped (nothing to predict from); decoding starts at an I picture', () => {
    const { pictures, output } = sequence(stream({}, {}, [p(3, 6), { sliceType: 2, frameNum: 4, pocLsb: 8 }, p(5, 10)]));
    expect(pictures.map((x) => [x.isIntra, x.frameNum])).toEqual([
      [true, 4],
      [false, 5],
    ]);
    expect(output).toEqual([0, 1]);
  });

  it('endAccessUnit() gives out the pending picture at once (MP4 samples are whole access units)', () => {
    const s = new H264Sequencer();
    s.push(spsNal({}));
    s.push(ppsNal({}));
    expect(s.push(sliceNal(idr()))).toEqual([]);
    const events = s.endAccessUnit();
    expect(events.map((e) => e.type)).toContain('picture');
  });

  it('parametersVersion moves when an SPS or PPS changes content, not when one is repeated as it was', () => {
    const s = new H264Sequencer();
    const pics: H264Picture[] = [];
    const feed = (n: Uint8Array) => {
      for (const e of s.push(n)) if (e.type === 'picture') pics.push(e.picture);
    };
    feed(spsNal({}));
    feed(ppsNal({}));
    feed(sliceNal(idr()));
    feed(spsNal({}));
    feed(ppsNal({}));
    feed(sliceNal(p(1, 2)));
    feed(ppsNal({ transform8x8: true }));
    feed(sliceNal(p(2, 4)));
    for (const e of s.flush()) if (e.type === 'picture') pics.push(e.picture);
    expect(pics[0]!.parametersVersion).toBe(pics[1]!.parametersVersion);
    expect(pics[2]!.parametersVersion).toBeGreaterThan(pics[1]!.parametersVersion);
    expect([pics[1]!.pps.version, pics[2]!.pps.version]).toEqual([1, 2]);
    expect(pics[2]!.pps.transform8x8ModeFlag).toBe(true);
  });
});
