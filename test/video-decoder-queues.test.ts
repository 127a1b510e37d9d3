// Which decode queue each decoder's frames go to (lib/video/decode-queues.ts,
// no GPU): one queue of its own per decoder while decoders <= queues; with
// more decoders, a decoder with frames in flight stays on its queue (when it
// has room) and one with none takes the least loaded queue with room, the
// decoders with the fewest frames submitted served first; decoders sharing a
// queue take turns with those ahead of them, so that all keep level; a decoder
// that leaves ends its waits. simulate() runs whole streams through the queues.
import { describe, expect, it } from 'vitest';
import { VideoDecoderDisposedError } from '../lib';
import { DecodeQueues, type DecodeQueueClient, threadQueueUse } from '../lib/video/decode-queues';

/** Takes a queue that must be free now. */
function takeNow(queues: DecodeQueues, client: DecodeQueueClient): number {
  const q = queues.take(client);
  expect(typeof q).toBe('number');
  queues.submitted(client, q as number);
  return q as number;
}

/**
 * Decoders each decoding `frames` frames at once, with up to `ring` in flight, on `count` decode queues that run
 * their frames in the order submitted, one a tick, with no host latency: the tick the last frame is done.
 */
async function simulate(count: number, decoders: number, frames: number, ring = 8): Promise<{ ticks: number; finished: number[] }> {
  const queues = new DecodeQueues(count);
  const clients = Array.from({ length: decoders }, () => queues.join(true));
  const running: { client: DecodeQueueClient; queue: number }[][] = Array.from({ length: count }, () => []);
  const left = new Array<number>(decoders).fill(frames);
  const done = new Array<number>(decoders).fill(0);
  const finished = new Array<number>(decoders).fill(0);
  const asking = new Array<boolean>(decoders).fill(false);
  const ask = (i: number): void => {
    const client = clients[i]!;
    if (asking[i] || left[i] === 0 || client.inFlight >= ring) return;
    asking[i] = true;
    const submit = (queue: number): void => {
      queues.submitted(client, queue);
      running[queue]!.push({ client, queue });
      left[i]!--;
      asking[i] = false;
      ask(i);
    };
    const taken = queues.take(client);
    if (typeof taken === 'number') submit(taken);
    else void taken.then(submit);
  };
  let tick = 0;
  for (; done.some((d) => d < frames); tick++) {
    for (let i = 0; i < decoders; i++) ask(i);
    await new Promise((resolve) => setImmediate(resolve));
    for (const fifo of running) {
      const frame = fifo.shift();
      if (!frame) continue;
      const i = clients.indexOf(frame.client);
      queues.give(frame.client, frame.queue);
      if (++done[i]! === frames) finished[i] = tick + 1;
    }
    await new Promise((resolve) => setImmediate(resolve));
    if (tick > frames * decoders) throw new Error('the simulated decoders stopped');
  }
  return { ticks: tick, finished };
}

describe('decode queues shared by the decoders of a device', () => {
  it("decoders made with queues: 'own' keep their queue even when decoders outnumber queues", () => {
    const queues = new DecodeQueues(2);
    const [a, b, c] = [queues.join(false), queues.join(false), queues.join(false)];
    expect([a!.own, b!.own, c!.own]).toEqual([0, 1, 0]);
    for (let i = 0; i < 5; i++) {
      expect(takeNow(queues, a!)).toBe(0);
      expect(takeNow(queues, c!)).toBe(0);
    }
    expect(queues.load).toEqual([10, 0]);
  });

  it('while decoders <= queues each has a queue of its own, however many frames it has in flight', () => {
    const queues = new DecodeQueues(7);
    const clients = Array.from({ length: 7 }, () => queues.join(true));
    expect(clients.map((c) => c.own)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    for (const c of clients) for (let i = 0; i < 8; i++) expect(takeNow(queues, c)).toBe(c.own);
    expect(queues.load).toEqual([8, 8, 8, 8, 8, 8, 8]);
    expect(queues.spread).toBe(false);
  });

  it('with 8 decoders on 7 queues, frames go where there is room (at most 2 a queue) and the decoder that is behind goes first', async () => {
    const queues = new DecodeQueues(7);
    const clients = Array.from({ length: 8 }, () => queues.join(true));
    expect(clients.map((c) => c.own)).toEqual([0, 1, 2, 3, 4, 5, 6, 0]);
    expect(queues.spread).toBe(true);
    // Two rounds of one frame each for the first seven fill every queue (each stays on its last queue, as loaded as any).
    for (let i = 0; i < 2; i++) for (const c of clients.slice(0, 7)) expect(takeNow(queues, c)).toBe(c.own);
    expect(queues.load).toEqual([2, 2, 2, 2, 2, 2, 2]);
    const late = clients[7]!;
    const waiting = queues.take(late);
    expect(waiting).toBeInstanceOf(Promise);
    // Decoder 1 asks next, but decoder 7 has submitted fewer frames: the queue decoder 3 frees goes to 7.
    const second = queues.take(clients[1]!);
    expect(second).toBeInstanceOf(Promise);
    queues.give(clients[3]!, 3);
    await expect(waiting).resolves.toBe(3);
    expect(queues.load[3]).toBe(2);
    // Decoder 1 has frames in flight on queue 1: room on queue 5 is not for it, room on its own queue is.
    queues.give(clients[5]!, 5);
    queues.give(clients[1]!, 1);
    await expect(second).resolves.toBe(1);
    expect(queues.load).toEqual([2, 2, 2, 2, 2, 1, 2]);
  });

  it('a decoder with nothing in flight takes its last queue while that one is among the least loaded, else the least loaded', () => {
    const queues = new DecodeQueues(2);
    const [a, b, c] = [queues.join(true), queues.join(true), queues.join(true)];
    expect(takeNow(queues, b!)).toBe(1);
    expect(takeNow(queues, c!)).toBe(0);
    expect(takeNow(queues, a!)).toBe(0); // its own, as loaded as queue 1
    queues.give(a!, 0);
    queues.give(c!, 0);
    expect(takeNow(queues, a!)).toBe(0); // queue 0 is now the least loaded
    queues.give(a!, 0);
    expect(takeNow(queues, b!)).toBe(1); // b has a frame in flight there: it stays
    expect(takeNow(queues, a!)).toBe(0); // queue 1 is full
    queues.give(a!, 0);
    queues.give(b!, 1);
    queues.give(b!, 1);
    expect(takeNow(queues, c!)).toBe(0); // its last, among the least loaded
    expect(takeNow(queues, a!)).toBe(1); // queue 1 is less loaded than its last
    expect(queues.load).toEqual([1, 1]);
  });

  it('a decoder changes queue only with nothing of its own in flight', async () => {
    const queues = new DecodeQueues(2);
    const [a, b, c] = [queues.join(true), queues.join(true), queues.join(true)];
    expect(takeNow(queues, a!)).toBe(0);
    expect(takeNow(queues, b!)).toBe(1);
    expect(takeNow(queues, b!)).toBe(1);
    expect(takeNow(queues, c!)).toBe(0);
    // Queue 0 full; a has a frame in flight there, so it waits for room on queue 0 even when queue 1 frees.
    const next = queues.take(a!);
    expect(next).toBeInstanceOf(Promise);
    queues.give(b!, 1);
    expect(queues.load).toEqual([2, 1]);
    queues.give(c!, 0);
    await expect(next).resolves.toBe(0);
    // With nothing in flight, c may take any queue with room.
    expect(takeNow(queues, c!)).toBe(1);
  });

  it('when decoders no longer outnumber queues, a decoder with frames in flight on another queue stays there until they are done', () => {
    const queues = new DecodeQueues(2);
    const [a, b, c] = [queues.join(true), queues.join(true), queues.join(true)];
    expect([a!.own, b!.own, c!.own]).toEqual([0, 1, 0]);
    expect(takeNow(queues, b!)).toBe(1);
    expect(takeNow(queues, c!)).toBe(0);
    expect(takeNow(queues, a!)).toBe(0);
    queues.give(b!, 1);
    queues.give(a!, 0);
    expect(takeNow(queues, a!)).toBe(1); // nothing in flight: the least loaded queue
    queues.leave(b!);
    expect(queues.spread).toBe(false);
    expect(takeNow(queues, a!)).toBe(1); // its frame on queue 1 is in flight
    queues.give(a!, 1);
    queues.give(a!, 1);
    expect(takeNow(queues, a!)).toBe(a!.own);
  });

  it("a leaving decoder's queue goes to a shared decoder that shared its own queue with another", () => {
    const queues = new DecodeQueues(3);
    const [a, b, c, d] = [queues.join(true), queues.join(false), queues.join(true), queues.join(true)];
    expect([a!.own, b!.own, c!.own, d!.own]).toEqual([0, 1, 2, 0]);
    queues.leave(b!);
    expect([a!.own, c!.own, d!.own]).toEqual([1, 2, 0]);
    // 'own' decoders keep their queue: c leaves, nobody shares a queue, queue 2 stays free.
    queues.leave(c!);
    expect([a!.own, d!.own]).toEqual([1, 0]);
  });

  it('with 8 decoders on 7 queues, the decoders take turns sharing a queue, so that the run ends about when 7 queues working alone would end it', async () => {
    // Ideal: 8 x 300 frames over 7 queues = 343 ticks. Two decoders that keep sharing one queue end at 600.
    const { ticks, finished } = await simulate(7, 8, 300);
    expect(ticks).toBeLessThan(343 * 1.1);
    expect(Math.max(...finished) - Math.min(...finished)).toBeLessThan(40);
  });

  it('a decoder on its way to another queue takes whichever queue it may go to has room first, not the one it would like best', async () => {
    const queues = new DecodeQueues(4);
    const [a, b, c, d, e] = Array.from({ length: 5 }, () => queues.join(true));
    expect([a, b, c, d, e].map((x) => x!.own)).toEqual([0, 1, 2, 3, 0]);
    [b!.submitted, c!.submitted, d!.submitted] = [50, 60, 70]; // each alone on its queue, all far ahead of e
    for (const x of [b, c, d, a]) for (let i = 0; i < 2; i++) expect(takeNow(queues, x!)).toBe(x!.own);
    const waiting = queues.take(e!); // a decodes on queue 0, which e would share: e goes where a decoder ahead of it is alone
    expect(waiting).toBeInstanceOf(Promise);
    queues.give(c!, 2); // d, the furthest ahead, has no room; c has
    await expect(waiting).resolves.toBe(2);
  });

  it('with decoders <= queues, each decodes at a queue to itself', async () => {
    const { ticks } = await simulate(7, 7, 100);
    expect(ticks).toBeLessThanOrEqual(101);
  });

  it('a spare queue (no other decoder owns it, nothing in flight, not its last) goes to a shared decoder asking for one; none while decoders outnumber queues', () => {
    const queues = new DecodeQueues(3);
    const [a, b] = [queues.join(true), queues.join(false)];
    expect([queues.hasSpare(a!), queues.hasSpare(b!)]).toEqual([true, false]);
    expect(takeNow(queues, a!)).toBe(0);
    expect(queues.takeSpare(b!)).toBe(-1); // 'own' decoders never take one
    expect(queues.takeSpare(a!)).toBe(2); // queue 1 is b's, queue 0 its last
    queues.submitted(a!, 2);
    expect(queues.load).toEqual([1, 0, 1]);
    expect(queues.takeSpare(a!)).toBe(-1); // queue 0 has its frame in flight, queue 2 is its last
    queues.give(a!, 0);
    expect(queues.takeSpare(a!)).toBe(0); // its own queue, idle again
    expect(a!.inFlight).toBe(2);
    const c = queues.join(true);
    queues.join(true);
    expect(queues.spread).toBe(true);
    expect(queues.takeSpare(c)).toBe(-1);
    expect(queues.hasSpare(c)).toBe(false);
  });

  it('a decoder that leaves ends its wait with VideoDecoderDisposedError, and the device goes back to a queue per decoder', async () => {
    const queues = new DecodeQueues(1);
    const [a, b] = [queues.join(true), queues.join(true)];
    takeNow(queues, a!);
    takeNow(queues, a!);
    const waiting = queues.take(b!);
    queues.leave(b!);
    await expect(waiting).rejects.toBeInstanceOf(VideoDecoderDisposedError);
    expect(() => queues.take(b!)).toThrow(VideoDecoderDisposedError);
    expect(queues.spread).toBe(false);
    expect(takeNow(queues, a!)).toBe(0);
  });
});

describe('decoders of several threads (each with its own DecodeQueues) on one GPU: the process-wide QueueUse', () => {
  // On NVIDIA queue i of every VkDevice made on a GPU decodes on the same engine: threads that each took their
  // device's queue 0 shared one engine (seven worker threads decoded 1080p at one decoder's rate together).
  it("each thread's decoders own the queues fewest decoders of the process own, and their frames count everywhere", () => {
    const use = threadQueueUse(7);
    const threads = Array.from({ length: 7 }, () => new DecodeQueues(7, use));
    const clients = threads.map((queues) => queues.join(true));
    expect(clients.map((c) => c.own).sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    const q = takeNow(threads[2]!, clients[2]!);
    expect(use.counts()[2 * q + 1]).toBe(1);
    threads[2]!.give(clients[2]!, q);
    expect(use.counts()[2 * q + 1]).toBe(0);
    threads[3]!.leave(clients[3]!);
    expect(threads[5]!.join(true).own).toBe(clients[3]!.own);
  });

  it("a spare queue is one no decoder of any thread owns and none decodes on; a thread's first decoder starts at its process's place", () => {
    const use = threadQueueUse(3);
    const a = new DecodeQueues(3, use, 1);
    const b = new DecodeQueues(3, use, 1);
    const first = a.join(true);
    expect(first.own).toBe(1);
    const second = b.join(true);
    expect(second.own).toBe(2);
    expect(a.hasSpare(first)).toBe(true);
    takeNow(a, first);
    // Queue 0 is the only one nobody owns: b's decoder borrows it for a new sequence...
    expect(b.takeSpare(second)).toBe(0);
    // ...and while frames of b's are on it, it is no spare for a.
    expect(a.takeSpare(first)).toBe(-1);
    b.give(second, 0);
    expect(a.takeSpare(first)).toBe(0);
    const third = b.join(true);
    expect(third.own).toBe(0);
    a.give(first, 0);
    expect(a.hasSpare(first)).toBe(false);
    expect(a.takeSpare(first)).toBe(-1);
  });
});
