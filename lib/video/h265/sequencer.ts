// H265Sequencer: NAL units in decode order in, pictures to decode and
// pictures to show out, as lib/video/h264/sequencer.ts does for H.264. It
// finds pictures (first_slice_segment_in_pic_flag), keeps and activates the
// parameter sets, and runs the parts of the decoding process a hardware
// decoder leaves to its driver: NoRaslOutputFlag and PicOutputFlag (8.1.3),
// POC (8.3.1), the reference picture set and DPB marking (8.3.2), generated
// pictures (8.3.3), reference lists (8.3.4), DPB slots and output order
// (C.5.2). Base layer only (nuh_layer_id > 0 is dropped); every sub-layer is
// decoded (HighestTid is the SPS's highest).
//
// Pictures that cannot be decoded give no event: RASL pictures of an IRAP
// picture with NoRaslOutputFlag 1 (8.1.3; counted in skippedRasl), and
// pictures before the first IRAP picture of the stream or of a sequence after
// an end of sequence (nothing to predict from; counted in skippedBeforeIrap).
import { type CollectedUnits, PictureSlab, sameBytes } from '../h264/picture-slab';
import { BitReader } from '../h264/bit-reader';
import { DecodedPictures, type DpbPicture, type LONG, SHORT } from './dpb';
import { H265BitstreamError, h265Errors } from './errors';
import { checkRefPicSets, checkSps, type Limits, limitsOf, maxPictureBytes } from './limits';
import { H265NalType, isBla, isCra, isIdr, isIrap, isRasl, isSubLayerNonReference, readNalHeader } from './nal';
import { OutputOrder, outputLimits } from './output';
import { PocState } from './poc';
import { readPps, readPpsIds } from './pps';
import { refPicLists } from './ref-lists';
import { derive, fill, mark } from './reference-set';
import type { H265Event, H265Picture, H265ReferenceEntry, H265SequencerOptions, H265Slice } from './sequencer-types';
import { readSliceHeader, readSliceStart } from './slice-header';
import { readSps } from './sps';
import type { H265NalHeader, H265Pps, H265SliceHeader, H265Sps, H265Vps } from './types';
import { readVps } from './vps';

interface Stored<T> {
  readonly bytes: Uint8Array;
  readonly value: T;
}
interface StoredPps {
  readonly bytes: Uint8Array;
  readonly spsId: number;
  /** Read against this SPS object (re-read when the SPS changes). */
  parsedFor: H265Sps | null;
  pps: H265Pps | null;
}

/** The picture being collected: its slice segments after start codes, at the free end of a slab. */
interface Pending extends CollectedUnits {
  readonly vps: H265Vps;
  readonly sps: H265Sps;
  readonly pps: H265Pps;
  readonly headers: H265SliceHeader[];
}

/** NAL unit types that begin a new access unit when they follow a picture (7.4.2.4.4): AUD, prefix SEI, parameter sets, reserved 41..44, 48..55. */
function beginsAccessUnit(type: number): boolean {
  return type === H265NalType.AUD_NUT || type === H265NalType.PREFIX_SEI_NUT || (type >= 41 && type <= 44) || (type >= 48 && type <= 55);
}

export class H265Sequencer {
  readonly #limits: Limits;
  readonly #reader = new BitReader();
  readonly #psReader = new BitReader();
  readonly #vps = new Map<number, Stored<H265Vps>>();
  readonly #sps = new Map<number, Stored<H265Sps>>();
  readonly #pps = new Map<number, StoredPps>();
  #parametersVersion = 0;
  #pending: Pending | null = null;
  readonly #poc = new PocState();
  readonly #dpb: DecodedPictures;
  readonly #output: OutputOrder;
  #activeSps: H265Sps | null = null;
  /** An IRAP picture has been decoded since the start or the last end of sequence. */
  #started = false;
  /** NoRaslOutputFlag of the last IRAP picture: its RASL pictures are skipped. */
  #irapNoRaslOutputFlag = true;
  #decodeIndex = 0;
  #queue: H265Event[] = [];
  readonly #slab = new PictureSlab();
  /** RASL pictures not decoded (their IRAP picture had NoRaslOutputFlag 1). */
  skippedRasl = 0;
  /** Pictures before the first IRAP picture (of the stream, or after an end of sequence): not decoded. */
  skippedBeforeIrap = 0;

  /** `options`: the decoder's limits; a stream past them gets H265UnsupportedError before any of its pictures. */
  constructor(options?: H265SequencerOptions) {
    this.#limits = limitsOf(options);
    this.#dpb = new DecodedPictures(this.#limits.maxSlots);
    this.#output = new OutputOrder(this.#dpb);
  }

  /**
   * Feeds one NAL unit (without start code), in decode order. Returns what
   * it completed: usually the previous picture (a picture is complete when
   * the next one or another access unit begins) and the outputs it allows.
   * Errors are H265BitstreamError and H265UnsupportedError; the unit that
   * threw is dropped and what came before it stays as it was.
   */
  push(nal: Uint8Array): H265Event[] {
    if (!(nal instanceof Uint8Array)) throw new TypeError(`H265Sequencer.push: nal must be a Uint8Array; got ${nal === null ? 'null' : typeof nal}`);
    // Events wait in #queue until a call returns: when a NAL unit throws, what came before it is returned by the next call.
    const events = this.#queue;
    if (nal.length === 0) return this.#deliver();
    const header = readNalHeader(nal);
    if (header.nuhLayerId > 0) return this.#deliver();
    const type = header.nalUnitType;
    h265Errors(() => {
      if (type <= 31) this.#slice(nal, header, events);
      else if (type === H265NalType.VPS_NUT) {
        const vps = readVps(this.#reader.reset(nal, 2, nal.length, 'VPS'));
        this.#finishThen(events, () => this.#store(this.#vps, vps.vpsId, nal, vps));
      } else if (type === H265NalType.SPS_NUT) {
        const sps = readSps(this.#reader.reset(nal, 2, nal.length, 'SPS'));
        this.#finishThen(events, () => this.#store(this.#sps, sps.spsId, nal, sps));
      } else if (type === H265NalType.PPS_NUT) {
        const ids = readPpsIds(this.#reader.reset(nal, 2, nal.length, 'PPS'));
        this.#finishThen(events, () => {
          const old = this.#pps.get(ids.ppsId);
          if (!old || !sameBytes(old.bytes, nal)) {
            this.#pps.set(ids.ppsId, { bytes: nal.slice(), spsId: ids.spsId, parsedFor: null, pps: null });
            this.#parametersVersion++;
          }
        });
      } else if (type === H265NalType.EOS_NUT || type === H265NalType.EOB_NUT) {
        // The next picture starts a new coded video sequence (8.1.3: a CRA after it has NoRaslOutputFlag 1). What waits
        // is output now, as FFmpeg does; C.5.2.2 would leave it to that picture, which (a CRA) might discard it.
        this.#finishThen(events, () => {
          this.#output.flush(events);
          this.#started = false;
        });
      } else if (beginsAccessUnit(type)) this.#finish(events);
      // Filler data, suffix SEI, reserved and unspecified types: nothing to do.
    });
    return this.#deliver();
  }

  #deliver(): H265Event[] {
    const events = this.#queue;
    this.#queue = [];
    return events;
  }

  /** The pictures given out so far are done with (their data copied where it goes): later pictures may reuse their data's memory. */
  reclaim(): void {
    this.#slab.reclaim(this.#pending);
  }

  /** The current access unit is complete (an MP4 sample ended): gives out its picture without waiting for the next unit. */
  endAccessUnit(): H265Event[] {
    h265Errors(() => this.#finish(this.#queue));
    return this.#deliver();
  }

  /** The end of the stream: the last picture and every output still due, in display order. */
  flush(): H265Event[] {
    h265Errors(() => this.#finishThen(this.#queue, () => this.#output.flush(this.#queue)));
    return this.#deliver();
  }

  #store<T>(map: Map<number, Stored<T>>, id: number, nal: Uint8Array, value: T): void {
    const old = map.get(id);
    if (old && sameBytes(old.bytes, nal)) return;
    map.set(id, { bytes: nal.slice(), value });
    this.#parametersVersion++;
  }

  /** The PPS `ppsId` with its SPS and VPS, the PPS read against the current SPS. */
  #activate(ppsId: number): { vps: H265Vps; sps: H265Sps; pps: H265Pps } {
    const stored = this.#pps.get(ppsId);
    if (!stored) throw new H265BitstreamError(`a slice segment refers to PPS ${ppsId}, which has not been sent (7.4.7.1)`);
    const sps = this.#sps.get(stored.spsId)?.value;
    if (!sps) throw new H265BitstreamError(`PPS ${ppsId} refers to SPS ${stored.spsId}, which has not been sent (7.4.3.3.1)`);
    const vps = this.#vps.get(sps.vpsId)?.value;
    if (!vps) throw new H265BitstreamError(`SPS ${sps.spsId} refers to VPS ${sps.vpsId}, which has not been sent (7.4.3.2.1)`);
    if (stored.parsedFor !== sps || !stored.pps) {
      const r = this.#psReader.reset(stored.bytes, 2, stored.bytes.length, `PPS ${ppsId}`);
      stored.pps = readPps(r, readPpsIds(r), sps);
      stored.parsedFor = sps;
    }
    return { vps, sps, pps: stored.pps };
  }

  #slice(nal: Uint8Array, nalHeader: H265NalHeader, events: H265Event[]): void {
    const type = nalHeader.nalUnitType;
    // Table 7-1: 10..15 and 22..31 are reserved VCL types; their content is not defined.
    if ((type >= 10 && type <= 15) || type >= 22) throw new H265BitstreamError(`nal_unit_type ${type} is a reserved VCL type (Table 7-1)`);
    const r = this.#reader.reset(nal, 2, nal.length, 'slice segment header');
    const start = readSliceStart(r, type);
    const pending = this.#pending;
    if (!start.firstSliceSegmentInPicFlag) {
      // A slice segment of a picture whose first segment was lost (a stream cut mid-picture): dropped.
      if (!pending) return;
      const first = pending.headers[0]!;
      if (start.ppsId !== first.ppsId)
        throw new H265BitstreamError(`a slice segment names PPS ${start.ppsId}, its picture's first segment PPS ${first.ppsId} (7.4.7.1)`);
      if (type !== first.nalUnitType || nalHeader.temporalId !== first.temporalId)
        throw new H265BitstreamError(
          `a slice segment of nal_unit_type ${type}, TemporalId ${nalHeader.temporalId} in a picture of ${first.nalUnitType}, ${first.temporalId} (7.4.2.2)`,
        );
      const header = readSliceHeader(r, nalHeader, start, pending.sps, pending.pps, pending.headers[pending.headers.length - 1]!);
      this.#checkBytes(pending, nal, pending.sps);
      this.#slab.append(pending, nal);
      pending.headers.push(header);
      return;
    }
    const { vps, sps, pps } = this.#activate(start.ppsId);
    const header = readSliceHeader(r, nalHeader, start, sps, pps, null);
    // Every check before the previous picture is finished: a refusal leaves the state as it was.
    checkSps(sps, this.#limits);
    const active = this.#activeSps;
    if (active && active !== sps && !isIrap(type))
      throw new H265BitstreamError(`SPS ${sps.spsId} activated (or changed) by a picture of nal_unit_type ${type}, not an IRAP picture (7.4.3.2.1)`);
    this.#checkBytes(null, nal, sps);
    this.#finishThen(events, () => {
      const p: Pending = { vps, sps, pps, headers: [], ...this.#slab.begin() };
      this.#pending = p;
      this.#slab.append(p, nal);
      p.headers.push(header);
    });
  }

  /** Finishes the pending picture, then does `then` even when that picture was refused (its error is thrown after). */
  #finishThen(events: H265Event[], then: () => void): void {
    let error: unknown = null;
    try {
      this.#finish(events);
    } catch (e) {
      error = e;
    }
    then();
    if (error !== null) throw error;
  }

  #checkBytes(p: Pending | null, nal: Uint8Array, sps: H265Sps): void {
    const most = maxPictureBytes(sps);
    if ((p ? p.length : 0) + 3 + nal.length > most)
      throw new H265BitstreamError(
        `a picture passes ${most} bytes of slice segments, more than a ${sps.picWidthInLumaSamples}x${sps.picHeightInLumaSamples} picture can take`,
      );
  }

  /** Completes the pending picture, if any: the decoding-process state, the 'picture' event, marking and output. */
  #finish(events: H265Event[]): void {
    const p = this.#pending;
    if (!p) return;
    this.#pending = null;
    const { sps } = p;
    const first = p.headers[0]!;
    const type = first.nalUnitType;
    const irap = isIrap(type);
    if (!this.#started && !irap) {
      this.skippedBeforeIrap++;
      return;
    }
    // 8.1.3 (HandleCraAsBlaFlag 0): a CRA picture has NoRaslOutputFlag 1 only first in the stream or after an end of sequence.
    const noRaslOutputFlag = irap && (!isCra(type) || !this.#started);
    if (isRasl(type) && this.#irapNoRaslOutputFlag) {
      this.skippedRasl++;
      return;
    }
    const irapNoRasl = irap && noRaslOutputFlag;
    // What can throw comes first: POC range and the set's size.
    const poc = this.#poc.compute(first.slicePicOrderCntLsb, sps.maxPicOrderCntLsb, irapNoRasl);
    const plan = derive(first, sps, poc, this.#dpb, irapNoRasl);
    checkRefPicSets(plan.pocs, poc, this.#limits);

    if (irap) this.#irapNoRaslOutputFlag = noRaslOutputFlag;
    this.#started = true;
    this.#activeSps = sps;
    const limits = outputLimits(sps);
    mark(plan, this.#dpb);
    if (irapNoRasl) {
      // C.5.2.2: NoOutputOfPriorPicsFlag is 1 at a CRA picture, else no_output_of_prior_pics_flag (a decoder "may" also
      // set it when the picture size or DPB size changes; this one does not). Every picture left goes, shown or not.
      this.#output.flush(events, isCra(type) || first.noOutputOfPriorPicsFlag);
    } else {
      this.#output.beforeDecode(limits, events);
    }
    const generate = (genPoc: number, reference: typeof SHORT | typeof LONG): DpbPicture => {
      this.#output.makeRoom(events);
      const picture: DpbPicture = {
        decodeIndex: -1,
        poc: genPoc,
        reference,
        generated: true,
        slot: this.#dpb.takeSlot(),
        neededForOutput: false,
        latency: 0,
      };
      this.#dpb.add(picture);
      return picture;
    };
    const set = fill(plan, isBla(type) || (isCra(type) && noRaslOutputFlag), generate);
    const references: H265ReferenceEntry[] = this.#dpb.references().map((f) => ({
      slot: f.slot,
      picOrderCntVal: f.poc,
      longTerm: f.reference !== SHORT,
      generated: f.generated,
      decodeIndex: f.decodeIndex,
    }));
    this.#output.makeRoom(events);
    const setupSlot = this.#dpb.takeSlot();
    const picOutputFlag = first.picOutputFlag;
    const current: DpbPicture = {
      decodeIndex: this.#decodeIndex++,
      poc,
      reference: SHORT,
      generated: false,
      slot: setupSlot,
      neededForOutput: picOutputFlag,
      latency: 0,
    };
    const before = set.stCurrBefore.map((f) => f.slot);
    const after = set.stCurrAfter.map((f) => f.slot);
    const lt = set.ltCurr.map((f) => f.slot);
    const slices: H265Slice[] = [];
    for (const [i, header] of p.headers.entries()) {
      const previous = slices[i - 1];
      const [refPicList0, refPicList1] =
        header.dependentSliceSegmentFlag && previous ? [previous.refPicList0, previous.refPicList1] : refPicLists(header, before, after, lt);
      slices.push({ header, offset: p.offsets[i]!, size: p.sizes[i]!, refPicList0, refPicList1 });
    }
    const data = this.#slab.end(p);
    const inSlice = first.shortTermRefPicSet;
    const picture: H265Picture = {
      decodeIndex: current.decodeIndex,
      vps: p.vps,
      sps,
      pps: p.pps,
      vpsId: p.vps.vpsId,
      spsId: sps.spsId,
      ppsId: p.pps.ppsId,
      parametersVersion: this.#parametersVersion,
      data,
      sliceOffsets: p.offsets,
      slices,
      nalUnitType: type,
      temporalId: first.temporalId,
      isIrap: irap,
      isIdr: isIdr(type),
      noRaslOutputFlag,
      isReference: !isSubLayerNonReference(type),
      picOrderCntVal: poc,
      setupSlot,
      references,
      refPicSetStCurrBefore: before,
      refPicSetStCurrAfter: after,
      refPicSetLtCurr: lt,
      rps: plan.pocs,
      numBitsForStRefPicSetInSlice: first.shortTermRefPicSetSpsFlag ? 0 : first.stRpsBits,
      numDeltaPocsOfRefRpsIdx: inSlice?.interRefPicSetPredictionFlag ? inSlice.usedByCurrPicFlag.length - 1 : 0,
      picOutputFlag,
      crop: sps.crop,
      codedWidth: sps.picWidthInLumaSamples,
      codedHeight: sps.picHeightInLumaSamples,
    };
    // Outputs before this event name earlier pictures only (the current one is stored below).
    events.push({ type: 'picture', picture });
    this.#poc.update(poc, first.temporalId, type);
    this.#output.afterDecode(current, limits, events);
  }
}
