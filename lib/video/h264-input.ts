// A decode run's input side: bytes (Annex-B, or MP4 samples with their avcC
// extradata) split into NAL units and fed to the bitstream room's sequencer,
// which answers with pictures to decode and pictures to show.
import { describeValue } from '../errors';
import { checkChoice, checkOptions } from '../validate';
import { AnnexBSplitter, parseAvcC, splitLengthPrefixed } from './h264/nal';
import { limitsOf, maxPictureBytes } from './h264/limits';
import { H264Sequencer } from './h264/sequencer';
import type { H264Event, H264SequencerOptions } from './h264/types';

export interface H264InputOptions {
  /** 'annexb' (default: start codes, a raw .h264 file) or 'avcc' (MP4 samples: NAL units after length fields). */
  format?: 'annexb' | 'avcc';
  /** The avcC box's payload (MP4's extradata): its SPS and PPS, and the length field size. Required for 'avcc'. */
  extradata?: Uint8Array;
}

export class H264Input {
  readonly format: 'annexb' | 'avcc';
  readonly #sequencer: H264Sequencer;
  readonly #lengthSize: number;
  #pending: Uint8Array[] = [];
  /** Annex-B: NAL units may run across chunks. */
  readonly #splitter: AnnexBSplitter | null;

  constructor(options: H264InputOptions | undefined, limits: H264SequencerOptions) {
    const o = checkOptions<H264InputOptions>(options, 'options', ['format', 'extradata']);
    this.format = checkChoice(o.format, 'options.format', ['annexb', 'avcc'] as const, 'annexb');
    this.#sequencer = new H264Sequencer(limits);
    if (this.format === 'avcc') {
      if (!(o.extradata instanceof Uint8Array))
        throw new TypeError(`options.extradata must be the avcC payload (a Uint8Array) for format 'avcc'; got ${describeValue(o.extradata)}`);
      const avcc = parseAvcC(o.extradata);
      this.#lengthSize = avcc.nalLengthSize;
      this.#pending = [...avcc.sps, ...avcc.pps];
    } else {
      if (o.extradata !== undefined) throw new TypeError("options.extradata goes with format 'avcc' only");
      this.#lengthSize = 0;
    }
    // The sequencer copies what it keeps of each unit before push() returns; no unit is larger than its largest picture.
    const { maxWidth, maxHeight } = limitsOf(limits);
    this.#splitter = this.format === 'annexb' ? new AnnexBSplitter({ reuseBuffer: true, maxUnitBytes: maxPictureBytes(maxWidth, maxHeight) }) : null;
  }

  /** The events of one chunk's NAL units, in order. */
  push(chunk: Uint8Array): H264Event[] {
    const nals = this.#splitter ? this.#splitter.push(chunk) : splitLengthPrefixed(chunk, this.#lengthSize);
    const events: H264Event[] = [];
    if (this.#pending.length) {
      for (const nal of this.#pending) events.push(...this.#sequencer.push(nal));
      this.#pending = [];
    }
    for (const nal of nals) events.push(...this.#sequencer.push(nal));
    // An MP4 sample is one access unit: its picture goes out now, not when the next sample begins.
    if (!this.#splitter) events.push(...this.#sequencer.endAccessUnit());
    return events;
  }

  /** The pictures given out so far have been sent to the decoder: their data's memory may be reused (H264Sequencer.reclaim). */
  reclaim(): void {
    this.#sequencer.reclaim();
  }

  /** The end of the stream: the last pictures and every output still due. */
  flush(): H264Event[] {
    const events: H264Event[] = [];
    for (const nal of this.#pending) events.push(...this.#sequencer.push(nal));
    this.#pending = [];
    for (const nal of this.#splitter?.end() ?? []) events.push(...this.#sequencer.push(nal));
    events.push(...this.#sequencer.flush());
    return events;
  }
}
