// Frames as a FramePipeline's producer (PipelineFrameSource, what
// decoder.pipelineSource() returns), on the reference driver with frames of
// its own that keep their data in OpenCL buffers (the decoder itself needs
// video hardware: test/gpu/video-decode.test.mjs runs it there): the run
// takes every frame in order and ends with the frames (run({ frames:
// Infinity }) and pipeline.end()), each frame is waited for on the pipeline's
// queue before the work and given back behind it exactly once, the work's
// result is each frame's own data, and a pipeline disposed mid-run stops the
// frames' iterator with every frame it took given back.
import { describe, expect, it } from 'vitest';
import { type CLBuffer, type CommandQueue, FramePipeline, FramePipelineDisposedError, PipelineFrameSource } from '../lib';
import { referenceQueue } from './helpers/ref-driver';

const { context, queue } = referenceQueue();

class FakeFrame {
  readonly memory = [] as const;
  readonly data: CLBuffer;
  waited: CommandQueue[] = [];
  released: (CommandQueue | undefined)[] = [];
  constructor(readonly index: number) {
    this.data = context.createBuffer(new Uint32Array([0xf00d0000 + index]));
  }
  wait(q: CommandQueue): void {
    this.waited.push(q);
  }
  release(q?: CommandQueue): void {
    this.released.push(q);
  }
}

/** `count` frames, one at a time (an await between them as a decoder's), with a record of whether return() was called. */
function frames(count: number) {
  const made: FakeFrame[] = [];
  let stopped = false;
  async function* source() {
    try {
      for (let i = 0; i < count; i++) {
        await new Promise((resolve) => setImmediate(resolve));
        const frame = new FakeFrame(i);
        made.push(frame);
        yield frame;
      }
    } finally {
      stopped = true;
    }
  }
  return { made, iterable: source(), stopped: () => stopped };
}

/** A pipeline of `slots` slots fed by `source`: each slot's output buffer gets the frame's data; the host consumer reads it. */
function pipelineOf(source: PipelineFrameSource<FakeFrame, { out: CLBuffer }>, slots: number, seen: number[], onFrame?: (f: number) => void) {
  return new FramePipeline<{ out: CLBuffer }>({
    queue,
    slots,
    resources: () => ({ out: context.createBuffer(4) }),
    produce: source.produce,
    process: source.process((frame, slot) => {
      queue.copyBuffer(frame.data, slot.resources.out).release();
    }),
    consume: {
      host: async (slot, f) => {
        const got = new Uint32Array(1);
        queue.readBuffer(slot.resources.out, got).release();
        await queue.finish();
        seen[f] = got[0]!;
        onFrame?.(f);
      },
    },
  });
}

describe('frames as a FramePipeline producer', () => {
  for (const [count, slots, lag] of [
    [7, 3, 0],
    [7, 3, 2],
    [1, 4, 0],
    [0, 2, 0],
  ] as const) {
    it(`${count} frames through ${slots} slots (lag ${lag}): in order, each frame's own data, each waited on and given back once on the pipeline's queue`, async () => {
      const f = frames(count);
      const source = new PipelineFrameSource<FakeFrame, { out: CLBuffer }>(f.iterable, queue);
      const seen: number[] = [];
      const pipeline = pipelineOf(source, slots, seen);
      try {
        await source.run(pipeline, { lag });
      } finally {
        pipeline.dispose();
      }
      expect(seen).toEqual(Array.from({ length: count }, (_, i) => 0xf00d0000 + i));
      expect(source.produced).toBe(count);
      for (const frame of f.made) {
        expect(frame.waited).toEqual([queue]);
        expect(frame.released).toEqual([queue]);
        frame.data.release();
      }
      expect(f.stopped()).toBe(true);
    });
  }

  it('disposed mid-run: the run rejects with FramePipelineDisposedError, the frames stop, every frame taken is given back', async () => {
    const f = frames(1000);
    const source = new PipelineFrameSource<FakeFrame, { out: CLBuffer }>(f.iterable, queue);
    const seen: number[] = [];
    let pipeline: FramePipeline<{ out: CLBuffer }> | null = null;
    pipeline = pipelineOf(source, 3, seen, (frame) => {
      if (frame === 10) pipeline!.dispose();
    });
    await expect(source.run(pipeline)).rejects.toBeInstanceOf(FramePipelineDisposedError);
    expect(f.stopped()).toBe(true);
    expect(f.made.length).toBeLessThan(20);
    expect(seen.slice(0, 11)).toEqual(Array.from({ length: 11 }, (_, i) => 0xf00d0000 + i));
    for (const frame of f.made) {
      expect(frame.released.length).toBe(1);
      frame.data.release();
    }
  });

  it('bad arguments are typed: frames that are not async iterable, work that is not a function, a second run', async () => {
    expect(() => new PipelineFrameSource(5 as never, queue)).toThrow(/frames must be an async iterable/);
    const source = new PipelineFrameSource<FakeFrame, { out: CLBuffer }>(frames(0).iterable, queue);
    expect(() => source.process(3 as never)).toThrow(/work must be a function/);
    const pipeline = pipelineOf(source, 2, []);
    await source.run(pipeline);
    await expect(source.run(pipeline)).rejects.toThrow(/has run already/);
    pipeline.dispose();
  });
});
