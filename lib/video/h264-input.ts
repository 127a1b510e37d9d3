// A decode run's input side: bytes (Annex-B, or MP4 samples with their avcC
// extradata) split into NAL units and fed to the bitstream room's sequencer,
// which answers with pictures to decode and pictures to show. Packets (whole
// access units, as a demuxer gives them) carry their timestamp to the picture
// decoded from them.
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

/** One access unit as a demuxer gives it: its bytes, and the timestamp its frame carries. */
export interface VideoPacket {
  readonly data: Uint8Array;
  readonly timestamp?: number | bigint;
}

function isPacket(value: unknown): value is VideoPacket {
  if (typeof value !== 'object' || value === null || !((value as VideoPacket).data instanceof Uint8Array)) return false;
  const t = (value as VideoPacket).timestamp;
  return t === undefined || typeof t === 'number' || typeof t === 'bigint';
}

/** Checks one item of a decode() input: a Uint8Array, or a VideoPacket. */
export function checkChunk(value: unknown): Uint8Array | VideoPacket {
  if (value instanceof Uint8Array || isPacket(value)) return value;
  throw new TypeError(`every chunk must be a Uint8Array or a packet { data: Uint8Array, timestamp?: number | bigint }; got ${describeValue(value)}`);
}

export class H264Input {
  readonly format: 'annexb' | 'avcc';
  readonly #sequencer: H264Sequencer;
  readonly #lengthSize: number;
  #pending: Uint8Array[] = [];
  /** Annex-B: NAL units may run across chunks. */
  readonly #splitter: AnnexBSplitter | null;
  /** The timestamps of pictures decoded from packets, by decodeIndex, until taken. */
  readonly #timestamps = new Map<number, number | bigint>();
  /** Events made by a call a typed error ended: the next call returns them first. */
  #owed: H264Event[] = [];

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

  /**
   * The events of one chunk's NAL units, in order. A packet is one whole access unit: what came before it ends
   * there, and its picture goes out now with its timestamp (takeTimestamp()). When a typed error ends a call, the
   * events it had made come with the next call.
   */
  push(chunk: Uint8Array | VideoPacket): H264Event[] {
    return this.#run((events) => {
      this.#feedPending(events);
      const sequencer = this.#sequencer;
      const splitter = this.#splitter;
      const packet = !(chunk instanceof Uint8Array);
      const data = packet ? chunk.data : chunk;
      const timestamp = packet ? chunk.timestamp : undefined;
      if (!splitter) {
        // An MP4 sample is one access unit: its picture goes out now, not when the next sample begins.
        for (const nal of splitLengthPrefixed(data, this.#lengthSize)) this.#add(events, sequencer.push(nal), timestamp);
        this.#add(events, sequencer.endAccessUnit(), timestamp);
        return;
      }
      if (!packet) {
        for (const nal of splitter.push(data)) this.#add(events, sequencer.push(nal));
        return;
      }
      // A packet: what the chunks before it held ends here. Each unit goes to the sequencer (which copies what it
      // keeps) before the splitter is asked again.
      for (const nal of splitter.end()) this.#add(events, sequencer.push(nal));
      this.#add(events, sequencer.endAccessUnit());
      for (const nal of splitter.push(data)) this.#add(events, sequencer.push(nal), timestamp);
      for (const nal of splitter.end()) this.#add(events, sequencer.push(nal), timestamp);
      this.#add(events, sequencer.endAccessUnit(), timestamp);
    });
  }

  /** The avcC's parameter sets, before the first chunk's units (taken once, even when one of them fails). */
  #feedPending(events: H264Event[]): void {
    const pending = this.#pending;
    this.#pending = [];
    for (const nal of pending) this.#add(events, this.#sequencer.push(nal));
  }

  /** Runs `step` on the events a call ended by an error had made, and its own; on an error they are owed again. */
  #run(step: (events: H264Event[]) => void): H264Event[] {
    const events = this.#owed;
    this.#owed = [];
    try {
      step(events);
    } catch (error) {
      this.#owed = events;
      throw error;
    }
    return events;
  }

  /** Adds the sequencer's events, the pictures among them with `timestamp` where there is one. */
  #add(events: H264Event[], made: readonly H264Event[], timestamp?: number | bigint): void {
    for (const e of made) {
      if (timestamp !== undefined && e.type === 'picture') this.#timestamps.set(e.picture.decodeIndex, timestamp);
      events.push(e);
    }
  }

  /** The timestamp of the packet the picture `decodeIndex` came from (undefined if none), forgotten once taken. */
  takeTimestamp(decodeIndex: number): number | bigint | undefined {
    const t = this.#timestamps.get(decodeIndex);
    this.#timestamps.delete(decodeIndex);
    return t;
  }

  /** The pictures given out so far have been sent to the decoder: their data's memory may be reused (H264Sequencer.reclaim). */
  reclaim(): void {
    this.#sequencer.reclaim();
  }

  /** The end of the stream: the last pictures and every output still due. */
  flush(): H264Event[] {
    return this.#run((events) => {
      this.#feedPending(events);
      for (const nal of this.#splitter?.end() ?? []) this.#add(events, this.#sequencer.push(nal));
      this.#add(events, this.#sequencer.flush());
    });
  }
}
