import { afterAll, describe, expect, it } from 'vitest';
import { type CommandQueue, type Context, createContext, waitForEvents } from '../lib';
import { pocl } from './helpers';
import { live, refDevice } from './helpers/ref-driver';

// A non-blocking read into a JavaScript array lands in a staging block and is
// copied into the array when the command is seen to end (docs/core.md, "Host
// memory"). Whether or not the caller keeps the read's Event, a later
// finish() / finishSync(), or a blocking wait of a later command of the
// in-order queue, returns only once the bytes are in the array.

const drivers = [
  ['PoCL', () => pocl().getDevices()[0]!],
  ['the reference driver', () => refDevice],
] as const;

/** A buffer of `regions` regions of `size` bytes, region r filled with r + 1. */
function filledBuffer(context: Context, queue: CommandQueue, regions: number, size: number) {
  const buffer = context.createBuffer(regions * size);
  const bytes = new Uint8Array(regions * size);
  for (let r = 0; r < regions; r++) bytes.fill(r + 1, r * size, (r + 1) * size);
  queue.writeBuffer(buffer, bytes, { blocking: true }).release();
  return buffer;
}

/** Targets that do not hold `r + 1` in every byte. */
const wrongTargets = (targets: readonly Uint8Array[]) => targets.filter((target, r) => !target.every((b) => b === r + 1)).length;

describe.each(drivers)("staged reads whose Event the caller released at once land before the queue's finish returns (%s)", (_, device) => {
  const context = createContext({ devices: [device()] });
  const queue = context.createQueue();
  afterAll(() => {
    queue.release();
    context.release();
  });

  it('finishSync(): 40 reads of 64 KiB, their events released or disposed, every target filled; nothing left pending', () => {
    const buffer = filledBuffer(context, queue, 40, 64 << 10);
    const targets = Array.from({ length: 40 }, () => new Uint8Array(64 << 10));
    for (let r = 0; r < 40; r++) {
      const event = queue.readBuffer(buffer, targets[r]!, { offset: r * (64 << 10) });
      if (r % 2) event.release();
      else event[Symbol.dispose]();
    }
    queue.finishSync();
    expect(wrongTargets(targets)).toBe(0);
    expect(queue.pendingTransfers).toBe(0);
    buffer.release();
  });

  it('finishSync(): image reads into one reused array, their events released, each checked after its finish', () => {
    const format = { order: 'RGBA', type: 'UNSIGNED_INT8' } as const;
    const images = [1, 2, 3].map((value) => {
      const image = context.createImage({ format, width: 32, height: 16 });
      queue.fillImage(image, [value, value, value, value]).release();
      return image;
    });
    const target = new Uint8Array(32 * 16 * 4);
    const wrong: number[] = [];
    for (let round = 0; round < 12; round++) {
      const value = (round % 3) + 1;
      queue.readImage(images[value - 1]!, target).release();
      queue.finishSync();
      if (!target.every((b) => b === value)) wrong.push(round);
    }
    expect(wrong).toEqual([]);
    for (const image of images) image.release();
  });

  it('waitSync() and waitForEvents() of a later command of the in-order queue: the released reads before it have landed', () => {
    const buffer = filledBuffer(context, queue, 8, 4096);
    const targets = Array.from({ length: 8 }, () => new Uint8Array(4096));
    for (let r = 0; r < 4; r++) queue.readBuffer(buffer, targets[r]!, { offset: r * 4096 }).release();
    const marker = queue.enqueueMarker();
    marker.waitSync();
    marker.release();
    for (let r = 4; r < 8; r++) queue.readBuffer(buffer, targets[r]!, { offset: r * 4096 }).release();
    const copy = context.createBuffer(16);
    const later = queue.copyBuffer(buffer, copy, { size: 16 });
    waitForEvents([later]);
    later.release();
    expect(wrongTargets(targets)).toBe(0);
    copy.release();
    buffer.release();
  });

  it('await finish(): 200 reads of 1 MiB into one reused array, each event released at once, each checked when its finish resolves', async () => {
    const size = 1 << 20;
    const buffer = filledBuffer(context, queue, 4, size);
    const target = new Uint8Array(size);
    let stale = 0;
    for (let round = 0; round < 200; round++) {
      const r = round % 4;
      queue.readBuffer(buffer, target, { offset: r * size }).release();
      await queue.finish();
      if (target[0] !== r + 1 || target[size - 1] !== r + 1) stale++;
    }
    expect(stale).toBe(0);
    expect(queue.pendingTransfers).toBe(0);
    buffer.release();
  });
});

describe('the handles staged reads keep for the queue let go once the bytes have landed (reference driver)', () => {
  it('100 reads, their events released at once, then finishSync(): no driver event is left alive', async () => {
    const before = live().event;
    const context = createContext({ devices: [refDevice] });
    const queue = context.createQueue();
    const buffer = filledBuffer(context, queue, 1, 4096);
    const target = new Uint8Array(4096);
    for (let i = 0; i < 100; i++) queue.readBuffer(buffer, target).release();
    queue.finishSync();
    expect(target.every((b) => b === 1)).toBe(true);
    // Their completion callbacks come later; each lets go of nothing twice.
    await new Promise((resolve) => setTimeout(resolve, 50));
    buffer.release();
    queue.release();
    context.release();
    expect(live().event).toBe(before);
  });
});
