// The decode queues (lib/video/decode-queues.ts, no GPU) under random
// decoders, as lib/video/decoder.ts drives them: decoders of either kind
// joining and leaving at random (some with frames in flight and waits
// pending), new coded video sequences starting on a spare queue on a second
// session, queues running their frames in order at random speeds. After every
// step: a frame goes to the queue of the other frames in flight of its
// session; while shared decoders outnumber the queues, no queue holds more
// than PER_QUEUE of their frames; the loads add up; a departed decoder's waits
// end with VideoDecoderDisposedError; and every run ends (no decoder waits
// forever while the queues have room).
import { describe, expect, it } from 'vitest';
import { VideoDecoderDisposedError } from '../lib';
import { type DecodeQueueClient, DecodeQueues } from '../lib/video/decode-queues';
import { mulberry32 } from './helpers/random.mjs';

interface Frame {
  readonly decoder: Decoder;
  readonly queue: number;
  readonly session: number;
  work: number;
}

interface Decoder {
  readonly client: DecodeQueueClient;
  readonly shared: boolean;
  /** Frames still to submit; the decoder leaves when it reaches 0 (or earlier, when `leaveAt` comes). */
  left: number;
  leaveAt: number;
  /** A new coded video sequence every `gop` frames. */
  readonly gop: number;
  submitted: number;
  session: number;
  asking: boolean;
  gone: boolean;
  disposedWaits: number;
}

async function run(seed: number): Promise<{ ticks: number; decoders: number; spareStarts: number; moves: number }> {
  const r = mulberry32(seed);
  const count = 1 + Math.floor(r() * 7);
  const queues = new DecodeQueues(count);
  const running: Frame[][] = Array.from({ length: count }, () => []);
  const decoders: Decoder[] = [];
  const ring = 1 + Math.floor(r() * 8);
  let spareStarts = 0;
  let moves = 0;
  const lastQueue = new Map<Decoder, number>();

  const inFlight = (d: Decoder, session?: number) =>
    running.flat().filter((f) => f.decoder === d && (session === undefined || f.session === session));
  const sharedCount = () => decoders.filter((d) => !d.gone && d.shared).length;

  const join = (): void => {
    const shared = r() < 0.8;
    const frames = 10 + Math.floor(r() * 120);
    decoders.push({
      client: queues.join(shared),
      shared,
      left: frames,
      leaveAt: r() < 0.2 ? Math.floor(r() * frames) : -1,
      gop: r() < 0.3 ? 1 + Math.floor(r() * 12) : 1000,
      submitted: 0,
      session: 0,
      asking: false,
      gone: false,
      disposedWaits: 0,
    });
  };

  const submit = (d: Decoder, queue: number, spare: boolean): void => {
    const others = inFlight(d, d.session);
    // A frame goes where its session's frames in flight are (nothing orders frames across queues).
    if (!spare) for (const f of others) expect(f.queue, `seed ${seed}: a frame on another queue than its session's`).toBe(queue);
    if (spare) expect(others, `seed ${seed}: a spare start with the new session busy`).toEqual([]);
    if (lastQueue.has(d) && lastQueue.get(d) !== queue) moves++;
    lastQueue.set(d, queue);
    queues.submitted(d.client, queue);
    running[queue]!.push({ decoder: d, queue, session: d.session, work: 1 + Math.floor(r() * 6) });
    d.left--;
    d.submitted++;
    d.asking = false;
    if (queues.spread && d.shared && decoders.every((x) => x.gone || x.shared))
      expect(queues.load[queue], `seed ${seed}: past PER_QUEUE while decoders share the queues`).toBeLessThanOrEqual(DecodeQueues.PER_QUEUE);
  };

  const leave = (d: Decoder): void => {
    d.gone = true;
    queues.leave(d.client);
  };

  const ask = (d: Decoder): void => {
    if (d.gone || d.asking || d.client.inFlight >= ring) return;
    if (d.left === 0 || d.submitted === d.leaveAt) {
      leave(d);
      return;
    }
    // decoder.ts: an IDR picture while the session's frames are in flight and the other session is idle.
    if (d.submitted % d.gop === 0 && inFlight(d, d.session).length > 0 && inFlight(d, 1 - d.session).length === 0) {
      const spare = queues.takeSpare(d.client);
      if (spare >= 0) {
        d.session = 1 - d.session;
        spareStarts++;
        submit(d, spare, true);
        return;
      }
    }
    d.asking = true;
    const taken = queues.take(d.client);
    if (typeof taken === 'number') {
      submit(d, taken, false);
      return;
    }
    taken.then(
      (queue) => {
        expect(d.gone, `seed ${seed}: a departed decoder was given a queue`).toBe(false);
        submit(d, queue, false);
      },
      (error: unknown) => {
        expect(error).toBeInstanceOf(VideoDecoderDisposedError);
        d.disposedWaits++;
      },
    );
  };

  for (let i = 0, n = 1 + Math.floor(r() * 10); i < n; i++) join();
  let tick = 0;
  for (; decoders.some((d) => !d.gone) || running.some((fifo) => fifo.length > 0); tick++) {
    if (r() < 0.02 && decoders.length < 16) join();
    // A decoder disposed at a random moment, frames in flight or a wait pending.
    if (r() < 0.01) {
      const live = decoders.filter((d) => !d.gone);
      if (live.length) leave(live[Math.floor(r() * live.length)]!);
    }
    for (const d of decoders) ask(d);
    await new Promise((resolve) => setImmediate(resolve));
    for (const fifo of running) {
      const head = fifo[0];
      if (!head || --head.work > 0) continue;
      fifo.shift();
      queues.give(head.decoder.client, head.queue);
    }
    await new Promise((resolve) => setImmediate(resolve));
    const load = running.map((fifo) => fifo.length);
    expect([...queues.load], `seed ${seed}: loads`).toEqual(load);
    for (const d of decoders) expect(d.client.inFlight, `seed ${seed}: a decoder's frames in flight`).toBe(inFlight(d).length);
    // Every queue idle and a decoder still waiting for one: it would wait forever.
    if (load.every((l) => l === 0)) {
      const stuck = decoders.filter((d) => !d.gone && d.asking);
      expect(stuck.length, `seed ${seed}: decoders waiting with every queue idle (tick ${tick}, ${sharedCount()} shared)`).toBe(0);
    }
    if (tick > 20000) throw new Error(`seed ${seed}: the decoders did not finish`);
  }
  return { ticks: tick, decoders: decoders.length, spareStarts, moves };
}

describe('decode queues under random decoders joining, leaving and starting sequences on spare queues', () => {
  it('150 runs: frames stay with their session, queues stay within PER_QUEUE while shared decoders outnumber them, loads add up, every run ends', async () => {
    let spareStarts = 0;
    let moves = 0;
    for (let seed = 1; seed <= 150; seed++) {
      const result = await run(seed);
      spareStarts += result.spareStarts;
      moves += result.moves;
    }
    // The runs reach both ways of changing queue.
    expect(spareStarts).toBeGreaterThan(0);
    expect(moves).toBeGreaterThan(0);
  }, 120000);
});
