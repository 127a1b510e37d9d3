// A decode run's input side, for either codec: bytes (Annex-B, or MP4
// samples: NAL units after length fields, with their parameter sets from the
// extradata) split into NAL units and fed to a bitstream room's sequencer,
// which answers with pictures to decode and pictures to show. Packets (whole
// access units, as a demuxer gives them) carry their timestamp to the picture
// decoded from them. h264-input.ts and h265-input.ts give it their room's
// sequencer and extradata parser.
import { describeValue } from '../errors';
import { AnnexBSplitter, splitLengthPrefixed } from './h264/nal';

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

/** What NalInput needs of a room's sequencer. */
export interface NalSequencer<E> {
  push(nal: Uint8Array): E[];
  endAccessUnit(): E[];
  flush(): E[];
  reclaim(): void;
}

/** An event of a sequencer: pictures carry their decodeIndex. */
export type SequencerEvent = { readonly type: 'picture'; readonly picture: { readonly decodeIndex: number } } | { readonly type: 'output' };

/** How the bytes come: Annex-B (`lengthSize` 0, units up to `maxUnitBytes`), or length-prefixed after `parameterSets`. */
export interface NalFraming {
  readonly lengthSize: number;
  readonly parameterSets: readonly Uint8Array[];
  readonly maxUnitBytes: number;
}

export class NalInput<E extends SequencerEvent> {
  readonly #sequencer: NalSequencer<E>;
  readonly #lengthSize: number;
  #pending: Uint8Array[];
  /** Annex-B: NAL units may run across chunks. */
  readonly #splitter: AnnexBSplitter | null;
  /** The timestamps of pictures decoded from packets, by decodeIndex, until taken. */
  readonly #timestamps = new Map<number, number | bigint>();
  /** Events made by a call a typed error ended: the next call returns them first. */
  #owed: E[] = [];

  constructor(sequencer: NalSequencer<E>, framing: NalFraming) {
    this.#sequencer = sequencer;
    this.#lengthSize = framing.lengthSize;
    this.#pending = [...framing.parameterSets];
    // The sequencer copies what it keeps of each unit before push() returns; no unit is larger than its largest picture.
    this.#splitter = framing.lengthSize === 0 ? new AnnexBSplitter({ reuseBuffer: true, maxUnitBytes: framing.maxUnitBytes }) : null;
  }

  /**
   * The events of one chunk's NAL units, in order. A packet is one whole access unit: what came before it ends
   * there, and its picture goes out now with its timestamp (takeTimestamp()). When a typed error ends a call, the
   * events it had made come with the next call.
   */
  push(chunk: Uint8Array | VideoPacket): E[] {
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

  /** The extradata's parameter sets, before the first chunk's units (taken once, even when one of them fails). */
  #feedPending(events: E[]): void {
    const pending = this.#pending;
    this.#pending = [];
    for (const nal of pending) this.#add(events, this.#sequencer.push(nal));
  }

  /** Runs `step` on the events a call ended by an error had made, and its own; on an error they are owed again. */
  #run(step: (events: E[]) => void): E[] {
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
  #add(events: E[], made: readonly E[], timestamp?: number | bigint): void {
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

  /** The pictures given out so far have been sent to the decoder: their data's memory may be reused (the sequencer's reclaim()). */
  reclaim(): void {
    this.#sequencer.reclaim();
  }

  /** The end of the stream: the last pictures and every output still due. */
  flush(): E[] {
    return this.#run((events) => {
      this.#feedPending(events);
      for (const nal of this.#splitter?.end() ?? []) this.#add(events, this.#sequencer.push(nal));
      this.#add(events, this.#sequencer.flush());
    });
  }
}
