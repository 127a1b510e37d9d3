// H264Sequencer: NAL units in decode order in, pictures to decode and
// pictures to show out. It finds access units (7.4.1.2.3, 7.4.1.2.4), keeps
// the parameter sets, and runs the parts of the decoding process a hardware
// decoder leaves to its driver: POC (8.2.1), frame_num gaps (8.2.5.2),
// reference marking (8.2.5), reference lists (8.2.4), DPB slots and output
// order (C.4). Progressive frames only; anything else is refused with a
// typed error before the picture is given out.
import { type CollectedUnits, PictureSlab, sameBytes } from './picture-slab';
import { BitReader } from './bit-reader';
import { type DpbFrame, LONG, ReferenceFrames, SHORT } from './dpb';
import { checkSps, type Limits, limitsOf, maxPictureBytes } from './limits';
import { NalType } from './nal';
import { OutputOrder } from './output';
import { PocState } from './poc';
import { ppsIds, readPps } from './pps';
import { initialListP, initialListsB, modifiedList } from './ref-lists';
import { readSliceHeader, SliceKind, slicePpsId } from './slice-header';
import { readSps } from './sps';
import {
  H264BitstreamError,
  type H264Event,
  type H264Picture,
  type H264Pps,
  type H264ReferenceEntry,
  type H264SequencerOptions,
  type H264Slice,
  type H264SliceHeader,
  type H264Sps,
  H264UnsupportedError,
} from './types';

interface StoredSps {
  readonly bytes: Uint8Array;
  readonly sps: H264Sps;
}
interface StoredPps {
  readonly bytes: Uint8Array;
  readonly spsId: number;
  readonly version: number;
  /** Read against this SPS object (re-read when the SPS changes). */
  parsedFor: H264Sps | null;
  pps: H264Pps | null;
}

/** The picture being collected: its slices' NAL units after start codes, at the free end of a slab. */
interface Pending extends CollectedUnits {
  readonly sps: H264Sps;
  readonly pps: H264Pps;
  readonly headers: H264SliceHeader[];
}

/** 7.4.1.2.4: does slice `b` begin a new primary coded picture after slice `a`? */
function newPicture(a: H264SliceHeader, b: H264SliceHeader, sps: H264Sps): boolean {
  if (b.firstMbInSlice === 0) return true;
  if (a.frameNum !== b.frameNum || a.ppsId !== b.ppsId) return true;
  if (a.fieldPicFlag !== b.fieldPicFlag || a.bottomFieldFlag !== b.bottomFieldFlag) return true;
  if (a.nalRefIdc !== b.nalRefIdc && (a.nalRefIdc === 0 || b.nalRefIdc === 0)) return true;
  if (sps.picOrderCntType === 0 && (a.picOrderCntLsb !== b.picOrderCntLsb || a.deltaPicOrderCntBottom !== b.deltaPicOrderCntBottom)) return true;
  if (sps.picOrderCntType === 1 && (a.deltaPicOrderCnt0 !== b.deltaPicOrderCnt0 || a.deltaPicOrderCnt1 !== b.deltaPicOrderCnt1)) return true;
  const aIdr = a.nalUnitType === NalType.idr;
  const bIdr = b.nalUnitType === NalType.idr;
  if (aIdr !== bIdr) return true;
  return aIdr && bIdr && a.idrPicId !== b.idrPicId;
}

export class H264Sequencer {
  readonly #limits: Limits;
  readonly #reader = new BitReader();
  /** A second reader: a PPS is read when a slice activates it, in the middle of that slice's header. */
  readonly #psReader = new BitReader();
  readonly #sps = new Map<number, StoredSps>();
  readonly #pps = new Map<number, StoredPps>();
  #parametersVersion = 0;
  #pending: Pending | null = null;
  readonly #poc = new PocState();
  readonly #dpb: ReferenceFrames;
  readonly #output: OutputOrder;
  /** The SPS of the last picture given out. */
  #activeSps: H264Sps | null = null;
  #prevRefFrameNum = 0;
  /** A picture has been given out since the last IDR or the start: frame_num gaps are looked for. */
  #started = false;
  #decodeIndex = 0;
  #queue: H264Event[] = [];
  readonly #slab = new PictureSlab();

  /** `options`: the decoder's limits (H264SequencerOptions); a stream past them gets H264UnsupportedError. */
  constructor(options?: H264SequencerOptions) {
    this.#limits = limitsOf(options);
    this.#dpb = new ReferenceFrames(this.#limits.maxSlots);
    this.#output = new OutputOrder(this.#dpb);
  }

  /**
   * Feeds one NAL unit (without start code or length field), in decode
   * order. Returns what it completed: usually the previous picture (a picture
   * is complete when the next access unit begins) and the outputs it allows.
   */
  push(nal: Uint8Array): H264Event[] {
    if (!(nal instanceof Uint8Array)) throw new TypeError(`H264Sequencer.push: nal must be a Uint8Array; got ${nal === null ? 'null' : typeof nal}`);
    // Events wait in #queue until a call returns: when a NAL unit throws, what came before it is returned by the next call.
    const events = this.#queue;
    if (nal.length === 0) return this.#deliver();
    const header = nal[0]!;
    if (header & 0x80) throw new H264BitstreamError(`NAL unit with forbidden_zero_bit 1 (first byte 0x${header.toString(16)}, 7.4.1)`);
    const type = header & 31;
    const refIdc = (header >> 5) & 3;
    switch (type) {
      case NalType.slice:
      case NalType.idr:
        this.#slice(nal, type, refIdc, events);
        break;
      case NalType.partitionA:
      case NalType.partitionB:
      case NalType.partitionC:
        throw new H264UnsupportedError('data_partitioning', `nal_unit_type ${type} (a slice data partition, Extended profile)`);
      case NalType.sps: {
        const sps = readSps(this.#reader.reset(nal, 1, nal.length, 'SPS'), 0);
        this.#finish(events);
        this.#storeSps(nal, sps);
        break;
      }
      case NalType.pps: {
        const ids = ppsIds(this.#reader.reset(nal, 1, nal.length, 'PPS'));
        this.#finish(events);
        this.#storePps(nal, ids);
        break;
      }
      case NalType.endOfStream:
        this.#finish(events);
        this.#output.flush(events);
        break;
      case NalType.sei:
      case NalType.aud:
      case NalType.endOfSequence:
      case NalType.spsExtension:
      case NalType.prefix:
      case NalType.subsetSps:
      case 16:
      case 17:
      case 18:
        // These begin a new access unit (7.4.1.2.3); their content is not needed.
        this.#finish(events);
        break;
      default:
        // Filler data, auxiliary and extension slices (other layers and views), reserved types: skipped.
        break;
    }
    return this.#deliver();
  }

  #deliver(): H264Event[] {
    const events = this.#queue;
    this.#queue = [];
    return events;
  }

  /**
   * The pictures given out so far are done with (their data copied where it
   * goes): later pictures may reuse their data's memory. Without it every
   * picture keeps its bytes, and a new slab is made whenever one fills (each
   * a fresh allocation: costly at a frame's rate).
   */
  reclaim(): void {
    this.#slab.reclaim(this.#pending);
  }

  /** The current access unit is complete (an MP4 sample ended): gives out its picture without waiting for the next unit. */
  endAccessUnit(): H264Event[] {
    this.#finish(this.#queue);
    return this.#deliver();
  }

  /** The end of the stream: the last picture and every output still due, in display order. */
  flush(): H264Event[] {
    this.#finish(this.#queue);
    this.#output.flush(this.#queue);
    return this.#deliver();
  }

  #storeSps(nal: Uint8Array, sps0: H264Sps): void {
    const old = this.#sps.get(sps0.spsId);
    if (old && sameBytes(old.bytes, nal)) return;
    const version = (old?.sps.version ?? 0) + 1;
    const sps = version === 1 ? { ...sps0, version } : readSps(this.#reader.reset(nal, 1, nal.length, 'SPS'), version);
    this.#sps.set(sps.spsId, { bytes: nal.slice(), sps });
    this.#parametersVersion++;
  }

  #storePps(nal: Uint8Array, { ppsId, spsId }: { ppsId: number; spsId: number }): void {
    const old = this.#pps.get(ppsId);
    if (old && sameBytes(old.bytes, nal)) return;
    this.#pps.set(ppsId, { bytes: nal.slice(), spsId, version: (old?.version ?? 0) + 1, parsedFor: null, pps: null });
    this.#parametersVersion++;
  }

  /** The PPS `ppsId` and its SPS, read against the current SPS when either changed. */
  #activate(ppsId: number): { sps: H264Sps; pps: H264Pps } {
    const stored = this.#pps.get(ppsId);
    if (!stored) throw new H264BitstreamError(`a slice refers to PPS ${ppsId}, which has not been sent (7.4.3)`);
    const sps = this.#sps.get(stored.spsId)?.sps;
    if (!sps) throw new H264BitstreamError(`PPS ${ppsId} refers to SPS ${stored.spsId}, which has not been sent (7.4.2.2)`);
    if (stored.parsedFor !== sps || !stored.pps) {
      stored.pps = readPps(this.#psReader.reset(stored.bytes, 1, stored.bytes.length, `PPS ${ppsId}`), sps, stored.version);
      stored.parsedFor = sps;
    }
    return { sps, pps: stored.pps };
  }

  #slice(nal: Uint8Array, type: number, refIdc: number, events: H264Event[]): void {
    const r = this.#reader.reset(nal, 1, nal.length, 'slice header');
    const start = slicePpsId(r);
    const { sps, pps } = this.#activate(start.ppsId);
    const header = readSliceHeader(r, type, refIdc, start, sps, pps);
    // Redundant coded pictures (redundant_pic_cnt > 0) are not needed when the primary one arrived: dropped.
    if (header.redundantPicCnt > 0) return;
    if (header.fieldPicFlag)
      throw new H264UnsupportedError(
        'interlaced',
        `a field picture (field_pic_flag 1, frame_num ${header.frameNum}); only progressive frames are decoded`,
      );
    if (header.sliceKind === SliceKind.SP || header.sliceKind === SliceKind.SI)
      throw new H264UnsupportedError('sp_si_slices', `slice_type ${header.sliceType} (SP/SI, Extended profile)`);
    const pending = this.#pending;
    const starts = !pending || newPicture(pending.headers[pending.headers.length - 1]!, header, pending.sps);
    const most = maxPictureBytes(sps.codedWidth, sps.codedHeight);
    if ((starts ? 0 : pending!.length) + 3 + nal.length > most)
      throw new H264BitstreamError(
        `the picture with frame_num ${header.frameNum} passes ${most} bytes of slices, more than a ${sps.codedWidth}x${sps.codedHeight} coded picture can take (7.4.5)`,
      );
    if (starts) {
      // Every check before the previous picture is finished: a refusal leaves the state as it was.
      checkSps(sps, this.#limits);
      const active = this.#activeSps;
      if (active && active !== sps && type !== NalType.idr && active.spsId === sps.spsId)
        throw new H264BitstreamError(`SPS ${sps.spsId} changed before a non-IDR picture (7.4.1.2.1: an SPS changes only at an IDR)`);
      this.#finish(events);
      this.#pending = { sps, pps, headers: [], ...this.#slab.begin() };
    }
    this.#slab.append(this.#pending!, nal);
    this.#pending!.headers.push(header);
  }

  /** Completes the pending picture, if any: decoding-process state, the 'picture' event, marking and output. */
  #finish(events: H264Event[]): void {
    const p = this.#pending;
    if (!p) return;
    this.#pending = null;
    const { sps, pps } = p;
    const first = p.headers[0]!;
    const idr = first.nalUnitType === NalType.idr;
    const intra = p.headers.every((h) => h.sliceKind === SliceKind.I || h.sliceKind === SliceKind.SI);
    // Before the first IDR or intra picture there is nothing to predict from: such pictures are dropped.
    if (!this.#started && !idr && !intra) return;
    const dpbFrames = sps.dpbFrames;
    const reorder = sps.maxNumReorderFrames;

    if (idr) {
      // C.4.4: an IDR empties the DPB, showing what waits unless no_output_of_prior_pics_flag.
      this.#dpb.unmarkAll();
      this.#output.flush(events, first.noOutputOfPriorPicsFlag);
      this.#prevRefFrameNum = 0;
    } else if (this.#started && first.frameNum !== this.#prevRefFrameNum && first.frameNum !== (this.#prevRefFrameNum + 1) % sps.maxFrameNum) {
      this.#fillGap(sps, first.frameNum, events);
    }
    this.#started = true;
    this.#activeSps = sps;

    const poc = this.#poc.compute(sps, first, idr);
    this.#dpb.computeFrameNumWrap(first.frameNum, sps.maxFrameNum);
    const refs = this.#dpb.references();
    const references: H264ReferenceEntry[] = refs.map((f) => ({
      slot: f.slot,
      frameNum: f.reference === LONG ? f.longTermFrameIdx : f.frameNum,
      longTerm: f.reference === LONG,
      nonExisting: f.nonExisting,
      poc: { top: f.top, bottom: f.bottom },
      decodeIndex: f.decodeIndex,
    }));
    const setupSlot = this.#dpb.takeSlot();
    const current: DpbFrame = {
      decodeIndex: this.#decodeIndex++,
      frameNum: first.frameNum,
      frameNumWrap: first.frameNum,
      longTermFrameIdx: 0,
      reference: 0,
      nonExisting: false,
      top: poc.top,
      bottom: poc.bottom,
      poc: Math.min(poc.top, poc.bottom),
      slot: setupSlot,
      neededForOutput: true,
    };
    const slices = this.#lists(p, refs, current.poc, sps);
    const data = this.#slab.end(p);

    // Marking (8.2.5) after decoding.
    let hasMmco5 = false;
    let longTerm = false;
    if (first.nalRefIdc !== 0) {
      if (idr) {
        longTerm = first.longTermReferenceFlag;
        this.#dpb.maxLongTermFrameIdx = longTerm ? 0 : -1;
      } else if (first.adaptiveRefPicMarkingModeFlag) {
        for (const m of first.mmcos) {
          if (m.op === 5) {
            this.#dpb.unmarkAll();
            hasMmco5 = true;
          } else if (this.#dpb.applyMmco(m, current, first.frameNum)) longTerm = true;
        }
      } else {
        this.#dpb.slidingWindow(sps.maxNumRefFrames);
      }
      current.reference = longTerm ? LONG : SHORT;
      if (longTerm && idr) current.longTermFrameIdx = 0;
    }
    if (hasMmco5) {
      // 8.2.1: the picture's POCs become relative to itself; it counts as frame_num 0 from now on.
      const temp = Math.min(current.top, current.bottom);
      current.top -= temp;
      current.bottom -= temp;
      current.poc = 0;
      current.frameNum = 0;
      current.frameNumWrap = 0;
      this.#poc.afterMmco5(current.top);
      // C.4.4: what waits is shown first.
      this.#output.flush(events);
    }
    const picture: H264Picture = {
      decodeIndex: current.decodeIndex,
      sps,
      pps,
      spsId: sps.spsId,
      ppsId: pps.ppsId,
      parametersVersion: this.#parametersVersion,
      data,
      sliceOffsets: p.offsets,
      slices,
      frameNum: first.frameNum,
      idrPicId: first.idrPicId,
      isIdr: idr,
      isIntra: intra,
      isReference: first.nalRefIdc !== 0,
      isLongTerm: longTerm,
      hasMmco5,
      poc,
      picOrderCnt: Math.min(poc.top, poc.bottom),
      setupSlot,
      references,
      refPicList0: slices.map((s) => s.refPicList0),
      refPicList1: slices.map((s) => s.refPicList1),
      crop: sps.crop,
      codedWidth: sps.codedWidth,
      codedHeight: sps.codedHeight,
    };
    // Outputs before this event name earlier pictures only (the current one is stored below).
    events.push({ type: 'picture', picture });
    if (current.reference !== 0) {
      this.#dpb.enforceLimit(sps.maxNumRefFrames, current);
      if (first.nalRefIdc !== 0) this.#prevRefFrameNum = current.frameNum;
    }
    this.#output.store(current, dpbFrames, reorder, events);
    if (current.reference === 0) this.#dpb.releaseSlot(current);
  }

  /** The slices' reference lists (8.2.4) as slots. */
  #lists(p: Pending, refs: readonly DpbFrame[], currPoc: number, sps: H264Sps): H264Slice[] {
    let listP: DpbFrame[] | null = null;
    let listsB: [DpbFrame[], DpbFrame[]] | null = null;
    const slot = (f: DpbFrame | null) => (f ? f.slot : -1);
    return p.headers.map((header, i) => {
      let refPicList0: number[] = [];
      let refPicList1: number[] = [];
      const currPicNum = header.frameNum;
      if (header.sliceKind === SliceKind.P || header.sliceKind === SliceKind.SP) {
        listP ??= initialListP(refs);
        refPicList0 = modifiedList(listP, header.refPicListModificationL0, header.numRefIdxL0ActiveMinus1 + 1, refs, currPicNum, sps.maxFrameNum).map(
          slot,
        );
      } else if (header.sliceKind === SliceKind.B) {
        listsB ??= initialListsB(refs, currPoc, sps.picOrderCntType);
        refPicList0 = modifiedList(
          listsB[0],
          header.refPicListModificationL0,
          header.numRefIdxL0ActiveMinus1 + 1,
          refs,
          currPicNum,
          sps.maxFrameNum,
        ).map(slot);
        refPicList1 = modifiedList(
          listsB[1],
          header.refPicListModificationL1,
          header.numRefIdxL1ActiveMinus1 + 1,
          refs,
          currPicNum,
          sps.maxFrameNum,
        ).map(slot);
      }
      return { header, offset: p.offsets[i]!, size: p.sizes[i]!, refPicList0, refPicList1 };
    });
  }

  /** 8.2.5.2: frames inferred for the frame_num values skipped before `frameNum`. */
  #fillGap(sps: H264Sps, frameNum: number, events: H264Event[]): void {
    const max = sps.maxFrameNum;
    let unused = (this.#prevRefFrameNum + 1) % max;
    let count = (frameNum - unused + max) % max;
    const limit = Math.max(sps.maxNumRefFrames, 1);
    if (count > limit) {
      // The earlier ones would slide out again at once: every short-term frame goes, and only the last `limit` are inferred.
      for (const f of this.#dpb.references()) if (f.reference === SHORT) this.#dpb.unmark(f);
      unused = (frameNum - limit + max) % max;
      count = limit;
    }
    for (let k = 0; k < count; k++) {
      const fn = (unused + k) % max;
      this.#dpb.computeFrameNumWrap(fn, max);
      this.#dpb.slidingWindow(sps.maxNumRefFrames);
      const poc = this.#poc.inferred(sps, fn);
      const frame: DpbFrame = {
        decodeIndex: -1,
        frameNum: fn,
        frameNumWrap: fn,
        longTermFrameIdx: 0,
        reference: SHORT,
        nonExisting: true,
        top: poc.top,
        bottom: poc.bottom,
        poc: Math.min(poc.top, poc.bottom),
        slot: this.#dpb.takeSlot(),
        neededForOutput: false,
      };
      this.#output.store(frame, sps.dpbFrames, sps.maxNumReorderFrames, events);
      this.#prevRefFrameNum = fn;
    }
  }
}
