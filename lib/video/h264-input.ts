// A decode run's input side: bytes (Annex-B, or MP4 samples with their avcC
// extradata) split into NAL units and fed to the bitstream room's sequencer,
// which answers with pictures to decode and pictures to show.
import { describeValue } from '../errors';
import { checkChoice, checkOptions } from '../validate';
import * as room from './h264';
import type { H264Event, H264SequencerOptions } from './h264/types';

export interface H264InputOptions {
  /** 'annexb' (default: start codes, a raw .h264 file) or 'avcc' (MP4 samples: NAL units after length fields). */
  format?: 'annexb' | 'avcc';
  /** The avcC box's payload (MP4's extradata): its SPS and PPS, and the length field size. Required for 'avcc'. */
  extradata?: Uint8Array;
}

/** What the bitstream room gives a decoder (lib/video/h264/index.ts). */
interface Sequencer {
  push(nal: Uint8Array): readonly H264Event[];
  flush(): readonly H264Event[];
}
interface Room {
  splitAnnexB(bytes: Uint8Array): readonly Uint8Array[];
  parseAvcC(extradata: Uint8Array): { nalLengthSize: number; sps: readonly Uint8Array[]; pps: readonly Uint8Array[] };
  splitLengthPrefixed(packet: Uint8Array, nalLengthSize: number): readonly Uint8Array[];
  H264Sequencer: new (options: H264SequencerOptions) => Sequencer;
}

export class H264Input {
  readonly format: 'annexb' | 'avcc';
  readonly #room: Room;
  readonly #sequencer: Sequencer;
  readonly #lengthSize: number;
  #pending: Uint8Array[] = [];

  constructor(options: H264InputOptions | undefined, limits: H264SequencerOptions) {
    const o = checkOptions<H264InputOptions>(options, 'options', ['format', 'extradata']);
    this.format = checkChoice(o.format, 'options.format', ['annexb', 'avcc'] as const, 'annexb');
    this.#room = room as unknown as Room;
    if (typeof this.#room.H264Sequencer !== 'function')
      throw new Error('the H.264 bitstream room (lib/video/h264) has no H264Sequencer in this build');
    this.#sequencer = new this.#room.H264Sequencer(limits);
    if (this.format === 'avcc') {
      if (!(o.extradata instanceof Uint8Array))
        throw new TypeError(`options.extradata must be the avcC payload (a Uint8Array) for format 'avcc'; got ${describeValue(o.extradata)}`);
      const avcc = this.#room.parseAvcC(o.extradata);
      this.#lengthSize = avcc.nalLengthSize;
      this.#pending = [...avcc.sps, ...avcc.pps];
    } else {
      if (o.extradata !== undefined) throw new TypeError("options.extradata goes with format 'avcc' only");
      this.#lengthSize = 0;
    }
  }

  /** The events of one chunk's NAL units, in order. */
  push(chunk: Uint8Array): H264Event[] {
    const nals = this.format === 'avcc' ? this.#room.splitLengthPrefixed(chunk, this.#lengthSize) : this.#room.splitAnnexB(chunk);
    const events: H264Event[] = [];
    if (this.#pending.length) {
      for (const nal of this.#pending) events.push(...this.#sequencer.push(nal));
      this.#pending = [];
    }
    for (const nal of nals) events.push(...this.#sequencer.push(nal));
    return events;
  }

  /** The end of the stream: the last pictures and every output still due. */
  flush(): H264Event[] {
    const events: H264Event[] = [];
    for (const nal of this.#pending) events.push(...this.#sequencer.push(nal));
    this.#pending = [];
    events.push(...this.#sequencer.flush());
    return events;
  }
}
