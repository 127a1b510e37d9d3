// The decoding-process records of every fixture stream against FFmpeg's own
// view of it (test/fixtures/h264/*.ffmpeg.jsonl, from its h264 decoder's
// -debug pict+mmco log and ffprobe's output order): per picture in decode
// order its type, frame_num, POC, the reference frames held before it, and
// the display order; plus the DPB slot rules the decoder relies on.
import { describe, expect, it } from 'vitest';
import { H264Sequencer, splitAnnexB } from '../lib/video/h264';
import type { H264Event } from '../lib/video/h264/types';
import { type Decoded, decodeStream, type FfmpegView, ffmpegView, sequence, streamBytes, streams } from './fixtures/h264/streams';

const decoded = new Map<string, Decoded>();
const views = new Map<string, FfmpegView>();
function load(name: string): { ours: Decoded; ffmpeg: FfmpegView } {
  if (!decoded.has(name)) decoded.set(name, decodeStream(name));
  if (!views.has(name)) views.set(name, ffmpegView(name));
  return { ours: decoded.get(name)!, ffmpeg: views.get(name)! };
}

/** FFmpeg starts prevPicOrderCntMsb at 65536 for POC type 0 (its POCs are the spec's plus that). */
function ffmpegPocOffset(pocType: number): number {
  return pocType === 0 ? 65536 : 0;
}

const KIND = ['P', 'B', 'I', 'SP', 'SI'];

describe.each(streams)('%s against FFmpeg', (name) => {
  it('7.4.1.2.4 access units: one picture per coded picture FFmpeg decoded, with its slice types (7.4.3)', () => {
    const { ours, ffmpeg } = load(name);
    expect(ours.pictures.length).toBe(ffmpeg.pictures.length);
    expect(
      ours.pictures.map((p) => p.slices.map((s) => `${KIND[s.header.sliceKind]}${s.header.sliceType >= 5 ? '+' : ''}@${s.header.firstMbInSlice}`)),
    ).toEqual(ffmpeg.pictures.map((p) => p.slices.map((s) => `${s.type}${s.fixed ? '+' : ''}@${s.mb}`)));
    expect(ours.pictures.map((p) => p.isIdr)).toEqual(ffmpeg.pictures.map((p) => p.idr));
    expect(ours.pictures.map((p) => p.frameNum)).toEqual(ffmpeg.pictures.map((p) => p.frameNum));
  });

  it('8.2.1 picture order counts (TopFieldOrderCnt, BottomFieldOrderCnt) of every picture', () => {
    const { ours, ffmpeg } = load(name);
    const offset = ffmpegPocOffset(ours.pictures[0]!.sps.picOrderCntType);
    expect(ours.pictures.map((p) => [p.poc.top + offset, p.poc.bottom + offset])).toEqual(ffmpeg.pictures.map((p) => p.poc));
    for (const p of ours.pictures) expect(p.picOrderCnt).toBe(Math.min(p.poc.top, p.poc.bottom));
  });

  it('8.2.5 reference marking: the frames used for reference before each picture (frame_num and POC, long-term index)', () => {
    const { ours, ffmpeg } = load(name);
    const offset = ffmpegPocOffset(ours.pictures[0]!.sps.picOrderCntType);
    const key = (a: number[]) => a.join(':');
    expect(
      ours.pictures.map((p) =>
        p.references
          .filter((r) => !r.longTerm)
          .map((r) => key([r.frameNum, Math.min(r.poc.top, r.poc.bottom) + offset]))
          .sort(),
      ),
    ).toEqual(ffmpeg.pictures.map((p) => p.short.map(key).sort()));
    expect(
      ours.pictures.map((p) =>
        p.references
          .filter((r) => r.longTerm)
          .map((r) => r.frameNum)
          .sort(),
      ),
    ).toEqual(ffmpeg.pictures.map((p) => p.long.map((l) => l[0]).sort()));
  });

  it("C.4.5.3 bumping: the display order is FFmpeg's output order, every picture shown once", () => {
    const { ours, ffmpeg } = load(name);
    expect(ours.output).toEqual(ffmpeg.display.map((d) => d[0]));
    expect(new Set(ours.output).size).toBe(ours.pictures.length);
  });

  it('7.4.3 slice QP, deblocking, direct mode, active reference counts and explicit weights as FFmpeg read them', () => {
    const { ours, ffmpeg } = load(name);
    const mine = ours.pictures.map((p) =>
      p.slices.map(({ header: h }) => {
        const weighted = h.predWeightTable;
        let explicit = false;
        let chroma = false;
        if (weighted && h.sliceKind !== 1) {
          // FFmpeg's use_weight: 1 once any sent weight differs from the default (luma or chroma).
          for (let i = 0; i <= h.numRefIdxL0ActiveMinus1; i++) {
            if (
              (weighted.lumaWeightFlags[0] >> i) & 1 &&
              (weighted.lumaWeight[0][i] !== 1 << weighted.lumaLog2WeightDenom || weighted.lumaOffset[0][i] !== 0)
            )
              explicit = true;
            for (let j = 0; j < 2; j++)
              if (
                (weighted.chromaWeightFlags[0] >> i) & 1 &&
                (weighted.chromaWeight[0][i * 2 + j] !== 1 << weighted.chromaLog2WeightDenom || weighted.chromaOffset[0][i * 2 + j] !== 0)
              )
                chroma = true;
          }
          explicit ||= chroma;
        }
        return {
          qp: 26 + p.pps.picInitQpMinus26 + h.sliceQpDelta,
          loop: [
            h.disableDeblockingFilterIdc === 0 ? 1 : h.disableDeblockingFilterIdc === 1 ? 0 : 2,
            h.sliceAlphaC0OffsetDiv2 * 2,
            h.sliceBetaOffsetDiv2 * 2,
          ],
          direct: h.sliceKind === 1 ? (h.directSpatialMvPredFlag ? 'SPAT' : 'TEMP') : null,
          l0: h.sliceKind === 2 ? 0 : h.numRefIdxL0ActiveMinus1 + 1,
          l1: h.sliceKind === 1 ? h.numRefIdxL1ActiveMinus1 + 1 : null,
          explicit: h.sliceKind === 0 ? (explicit ? 1 : 0) : null,
          chroma: h.sliceKind === 0 ? chroma : null,
        };
      }),
    );
    const theirs = ffmpeg.pictures.map((p) =>
      p.slices.map((s) => ({
        qp: s.qp,
        loop: s.loop,
        direct: s.direct,
        l0: s.ref[0],
        l1: s.type === 'B' ? s.ref[1] : null,
        explicit: s.type === 'P' ? s.weight : null,
        chroma: s.type === 'P' ? s.weightChroma : null,
      })),
    );
    expect(mine).toEqual(theirs);
  });

  it('DPB slots: the setup slot is free, references keep their slots, lists name only reference slots', () => {
    const { ours } = load(name);
    const slotOf = new Map<number, number>();
    for (const p of ours.pictures) {
      const held = p.references.map((r) => r.slot);
      expect(new Set(held).size).toBe(held.length);
      expect(held).not.toContain(p.setupSlot);
      expect(p.setupSlot).toBeGreaterThanOrEqual(0);
      expect(p.setupSlot).toBeLessThan(17);
      for (const r of p.references) if (!r.nonExisting) expect(slotOf.get(r.decodeIndex)).toBe(r.slot);
      for (const list of [...p.refPicList0, ...p.refPicList1]) for (const slot of list) expect(held).toContain(slot);
      expect(p.references.length).toBeLessThanOrEqual(Math.max(p.sps.maxNumRefFrames, 1));
      slotOf.set(p.decodeIndex, p.setupSlot);
    }
  });

  it('picture data: each slice NAL unit after a 00 00 01 start code at its offset, in stream order', () => {
    const { ours } = load(name);
    for (const p of ours.pictures) {
      expect(p.sliceOffsets).toEqual(p.slices.map((s) => s.offset));
      expect(p.slices.reduce((n, s) => n + s.size, 0)).toBe(p.data.length);
      for (const s of p.slices) {
        expect([...p.data.subarray(s.offset, s.offset + 3)]).toEqual([0, 0, 1]);
        expect(p.data[s.offset + 3]! & 31).toBe(p.isIdr ? 5 : 1);
      }
    }
  });
});

describe('picture data ownership', () => {
  it('every picture keeps its own bytes: after 30 passes over the 1080p stream (past several 1 MiB slabs), each slice is the NAL unit sent', () => {
    const nals = splitAnnexB(streamBytes('1080p'));
    const all = Array.from({ length: 30 }, () => nals).flat();
    const { pictures } = sequence(all);
    const vcl = all.filter((n) => (n[0]! & 31) === 1 || (n[0]! & 31) === 5);
    const sent = pictures.flatMap((p) => p.slices.map((s) => p.data.subarray(s.offset + 3, s.offset + s.size)));
    expect(sent.length).toBe(vcl.length);
    for (let i = 0; i < vcl.length; i++) expect(Buffer.from(sent[i]!).equals(Buffer.from(vcl[i]!)), `slice ${i}`).toBe(true);
    expect(new Set(pictures.map((p) => p.data.buffer)).size).toBeGreaterThan(1);
  });

  it('reclaim(): later pictures reuse the memory of those given out before it; a picture being collected keeps its slices', () => {
    const nals = splitAnnexB(streamBytes('slices4'));
    const s = new H264Sequencer();
    const vcl = nals.filter((n) => (n[0]! & 31) === 1 || (n[0]! & 31) === 5);
    const sent: Buffer[] = [];
    const buffers = new Set<ArrayBufferLike>();
    const take = (events: H264Event[]) => {
      for (const e of events) {
        if (e.type !== 'picture') continue;
        buffers.add(e.picture.data.buffer);
        for (const slice of e.picture.slices) sent.push(Buffer.from(e.picture.data.subarray(slice.offset + 3, slice.offset + slice.size)));
      }
    };
    // After every NAL unit: the pictures of a call are read before the next, and slices of a picture span calls.
    for (const nal of nals) {
      take(s.push(nal));
      s.reclaim();
    }
    take(s.flush());
    expect(sent.length).toBe(vcl.length);
    for (let i = 0; i < vcl.length; i++) expect(sent[i]!.equals(Buffer.from(vcl[i]!)), `slice ${i}`).toBe(true);
    expect(buffers.size).toBe(1);
  });
});

describe('stream features the fixtures were made to show', () => {
  it('8.2.5.2 gaps in frame_num: non-existing frames join the reference set, hold slots, and are never shown', () => {
    const { ours } = load('gaps');
    const afterGap = ours.pictures.filter((p) => p.references.some((r) => r.nonExisting));
    expect(afterGap.length).toBeGreaterThan(0);
    const first = afterGap[0]!;
    expect(first.isIntra && !first.isIdr).toBe(true);
    // frame_num jumps by 3 across each gap (two inferred frames), under a sliding window of 4.
    const inferred = first.references.filter((r) => r.nonExisting).map((r) => r.frameNum);
    expect(inferred).toEqual([first.frameNum - 2, first.frameNum - 1].map((n) => (n + 16) % 16));
    expect(first.references).toHaveLength(4);
    expect(ours.output).not.toContain(-1);
  });

  it('8.2.1.2 POC type 1: offset_for_ref_frame cycle [1, 3] gives POCs 0, 1, 4, 5, 8, ...', () => {
    const { ours } = load('poc-type1');
    expect(ours.pictures[0]!.sps.picOrderCntType).toBe(1);
    expect(ours.pictures.map((p) => p.picOrderCnt)).toEqual([0, 1, 4, 5, 8, 9, 12, 13, 16, 17]);
  });

  it('8.2.1.3 POC type 2 in the I/P streams, 8.2.1.1 type 0 with B-frames', () => {
    expect(load('ip-cabac').ours.pictures[0]!.sps.picOrderCntType).toBe(2);
    expect(load('b-pyramid').ours.pictures[0]!.sps.picOrderCntType).toBe(0);
  });

  it('8.2.5.4 MMCO 1 from x264 (B pyramid) and 8.2.4.3 list modification (weightp duplicates) are in the set', () => {
    const pyramid = load('b-pyramid').ours.pictures;
    expect(pyramid.some((p) => p.slices[0]!.header.mmcos.some((m) => m.op === 1))).toBe(true);
    const weighted = load('weighted').ours.pictures;
    expect(weighted.some((p) => p.slices.some((s) => s.header.refPicListModificationL0.length > 0))).toBe(true);
    // A P slice's modified list names the reference picked by abs_diff_pic_num_minus1: check one against its PicNum.
    const p = weighted.find((x) => x.slices.some((s) => s.header.refPicListModificationL0.length > 0))!;
    const s = p.slices.find((x) => x.header.refPicListModificationL0.length > 0)!;
    const m = s.header.refPicListModificationL0[0]!;
    const picNum = m.idc === 0 ? p.frameNum - (m.value + 1) : p.frameNum + (m.value + 1);
    const target = p.references.find((r) => !r.longTerm && r.frameNum === (picNum + 16) % 16)!;
    expect(s.refPicList0[0]).toBe(target.slot);
  });

  it('8.2.4.3.1 modified lists (16 references): entry i is the short-term frame whose PicNum the i-th modification names', () => {
    let checked = 0;
    for (const p of load('ref16').ours.pictures) {
      const maxPicNum = p.sps.maxFrameNum;
      const wrap = (fn: number) => (fn > p.frameNum ? fn - maxPicNum : fn);
      for (const s of p.slices) {
        for (const [mods, list] of [
          [s.header.refPicListModificationL0, s.refPicList0],
          [s.header.refPicListModificationL1, s.refPicList1],
        ] as const) {
          let pred = p.frameNum;
          mods.forEach((m, i) => {
            expect(m.idc).toBeLessThan(2);
            let noWrap = m.idc === 0 ? pred - (m.value + 1) : pred + (m.value + 1);
            if (noWrap < 0) noWrap += maxPicNum;
            if (noWrap >= maxPicNum) noWrap -= maxPicNum;
            pred = noWrap;
            const picNum = noWrap > p.frameNum ? noWrap - maxPicNum : noWrap;
            const target = p.references.find((r) => !r.longTerm && wrap(r.frameNum) === picNum);
            expect(target).toBeDefined();
            expect(list[i]).toBe(target!.slot);
            checked++;
          });
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('8.2.4.2.3 B lists: list 0 by descending POC before the picture, list 1 by ascending POC after it', () => {
    const pictures = load('b-nopyramid').ours.pictures;
    const b = pictures.find((x) => x.slices[0]!.header.sliceKind === 1 && x.slices[0]!.header.refPicListModificationL0.length === 0)!;
    const refs = b.references.map((r) => ({ slot: r.slot, poc: Math.min(r.poc.top, r.poc.bottom) }));
    const before = refs.filter((r) => r.poc < b.picOrderCnt).sort((x, y) => y.poc - x.poc);
    const after = refs.filter((r) => r.poc > b.picOrderCnt).sort((x, y) => x.poc - y.poc);
    const h = b.slices[0]!.header;
    expect(b.refPicList0[0]).toEqual([...before, ...after].map((r) => r.slot).slice(0, h.numRefIdxL0ActiveMinus1 + 1));
    expect(b.refPicList1[0]).toEqual([...after, ...before].map((r) => r.slot).slice(0, h.numRefIdxL1ActiveMinus1 + 1));
  });

  it('7.4.2.1.1 frame cropping: 350x198 shown out of 352x208 coded', () => {
    const p = load('crop-350x198').ours.pictures[0]!;
    expect([p.codedWidth, p.codedHeight]).toEqual([352, 208]);
    expect(p.crop).toEqual({ left: 0, top: 0, width: 350, height: 198 });
  });

  it('7.4.2.1.1 a sequence allowing fields (frame_mbs_only_flag 0) that codes only frames: frames of 2 x 5 map units, cropped by CropUnitY 4', () => {
    const p = load('fake-interlaced').ours.pictures[0]!;
    expect(p.sps.frameMbsOnlyFlag).toBe(false);
    expect(p.sps.mbAdaptiveFrameFieldFlag).toBe(false);
    expect([p.codedWidth, p.codedHeight]).toEqual([176, 160]);
    expect(p.crop).toEqual({ left: 0, top: 0, width: 176, height: 144 });
  });

  it('1080p and 4K: coded 1920x1088 cropped to 1080, and 3840x2160', () => {
    const hd = load('1080p').ours.pictures[0]!;
    expect([hd.codedWidth, hd.codedHeight, hd.crop.height]).toEqual([1920, 1088, 1080]);
    const uhd = load('4k').ours.pictures[0]!;
    expect([uhd.codedWidth, uhd.codedHeight, uhd.crop.width, uhd.crop.height]).toEqual([3840, 2160, 3840, 2160]);
  });
});
