// FramePipeline (lib/pipeline) with steps that misbehave: consumers finishing
// out of order, resources whose dispose throws, a process step that returns a
// promise (rejected, or with a `then` that throws), steps whose promise never
// settles (dispose() ends the run; options.stepTimeout fails it), a frozen
// options.timing, and a host producer's Event. Fresh processes on PoCL, each
// bounded: a run that never ends ends its process without its line.
import { describe, expect, it } from 'vitest';
import { runNodeForValue } from './helpers';

const bounded = { timeout: 60_000 };
/** A fresh process's prelude: PoCL's queue, and `pipeline(options)` with host steps that do nothing unless given. */
const prelude = `
const platform = ocl.getPlatforms().find((p) => p.name === 'Portable Computing Language');
const context = ocl.createContext({ devices: [platform.getDevices()[0]] });
const queue = context.createQueue();
const pipeline = (o) => new ocl.FramePipeline({ queue, produce: { host: () => {} }, process: () => {}, consume: { host: () => {} }, ...o });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const outcome = (p) => p.then(() => 'resolved', (e) => ({ name: e.name, step: e.step, frame: e.frame, framesDone: e.framesDone, cause: e.cause && (e.cause.name + ': ' + e.cause.message), message: e.message }));
`;

describe('FramePipeline: what the steps return and how they fail', () => {
  it('onConsumed comes in frame order, also for the frames in flight at the end of a run (3 slots, 10 frames; 4 slots, 9 frames, lag 2)', async () => {
    const { value } = await runNodeForValue(
      `${prelude}
      (async () => {
        const orders = [];
        for (const [slots, frames, lag] of [[3, 10, 0], [4, 9, 2], [2, 5, 1]]) {
          // Consumers of the later slots finish first.
          const p = pipeline({ slots, consume: { host: (slot) => sleep(5 * (slots - slot.index)) } });
          const seen = [];
          await p.run({ frames, lag, onConsumed: (_slot, frame) => void seen.push(frame) });
          p.dispose();
          orders.push(seen.join(' '));
        }
        queue.release(); context.release();
        console.log(JSON.stringify(orders));
      })();`,
      bounded,
    );
    expect(value).toEqual(['0 1 2 3 4 5 6 7 8 9', '0 1 2 3 4 5 6 7 8', '0 1 2 3 4']);
  });

  it('dispose() disposes every slot even when some throw, then throws an AggregateError of their errors; during a run, the run rejects with FramePipelineDisposedError (cause: that AggregateError) and asyncDispose() rejects with it', async () => {
    const { value } = await runNodeForValue(
      `${prelude}
      (async () => {
        const disposed = [];
        const resources = (i) => ({ [Symbol.dispose]() { disposed.push(i); if (i % 2 === 0) throw new RangeError('slot ' + i + ' would not go'); } });
        const idle = pipeline({ slots: 4, resources });
        let thrown;
        try { idle.dispose(); thrown = 'nothing'; } catch (e) { thrown = { name: e.name, errors: e.errors.map((x) => x.message), message: e.message }; }
        let again = 'nothing';
        try { idle.dispose(); } catch (e) { again = e.name; }
        const first = disposed.splice(0);
        const busy = pipeline({ slots: 3, resources, consume: { host: async (_s, f) => { if (f === 3) busy.dispose(); } } });
        const run = outcome(busy.run({ frames: 50 }));
        const asyncDispose = outcome(busy.asyncDispose());
        const ran = await run;
        const errorOfRun = ran.cause;
        console.log(JSON.stringify({ thrown, again, first, second: disposed, ran: { name: ran.name, cause: errorOfRun }, asyncDispose: (await asyncDispose).name }));
        queue.release(); context.release();
      })();`,
      bounded,
    );
    expect(value).toMatchObject({
      thrown: { name: 'AggregateError', errors: ['slot 0 would not go', 'slot 2 would not go'] },
      again: 'nothing',
      first: [0, 1, 2, 3],
      second: [0, 1, 2],
      ran: { name: 'FramePipelineDisposedError', cause: expect.stringMatching(/^AggregateError: /) },
      asyncDispose: 'AggregateError',
    });
    expect(value.thrown.message).toMatch(/2 of the 4 slots' resources failed to dispose/);
  });

  it("options.process's promise is awaited: a rejection, and a then getter that throws, are FrameStepErrors (no unhandled rejection ends the process); the release comes after what it enqueues once it settles", async () => {
    const { value } = await runNodeForValue(
      `${prelude}
      (async () => {
        const rejecting = pipeline({ slots: 2, process: async (_s, f) => { await sleep(1); if (f === 2) throw new Error('late boom'); } });
        const rejected = await outcome(rejecting.run({ frames: 5 }));
        rejecting.dispose();
        const thenGetter = pipeline({ slots: 2, process: () => ({ get then() { throw new TypeError('no then'); } }) });
        const badThen = await outcome(thenGetter.run({ frames: 3 }));
        thenGetter.dispose();
        // What an async process step enqueues after an await still precedes the frame's done event.
        const buffer = context.createBuffer(4);
        const order = [];
        const ordered = pipeline({
          slots: 2,
          process: async (_s, f) => { await sleep(2); queue.fillBuffer(buffer, new Uint8Array([f])).release(); },
          consume: { host: async (_s, f, done) => { await done; const b = new Uint8Array(1); await queue.readBuffer(buffer, b); order.push(b[0] === f); } },
        });
        await ordered.run({ frames: 4, order: 'naive' });
        ordered.dispose();
        buffer.release(); queue.release(); context.release();
        console.log(JSON.stringify({ rejected, badThen, order }));
      })();`,
      bounded,
    );
    expect(value.rejected).toMatchObject({ name: 'FrameStepError', step: 'process', frame: 2, cause: 'Error: late boom' });
    expect(value.badThen).toMatchObject({ name: 'FrameStepError', step: 'process', frame: 0, cause: 'TypeError: no then' });
    expect(value.order).toEqual([true, true, true, true]);
  });

  it('a step whose promise never settles: dispose() ends the run (FramePipelineDisposedError) and asyncDispose() resolves; options.stepTimeout fails such a step with a FrameStepError whose cause is a TimeoutError', async () => {
    const { value } = await runNodeForValue(
      `${prelude}
      (async () => {
        const results = {};
        for (const step of ['produce', 'process', 'consume', 'onConsumed']) {
          const never = () => new Promise(() => {});
          const o = { slots: 2 };
          if (step === 'produce') o.produce = { host: (_s, f) => (f === 2 ? never() : undefined) };
          if (step === 'process') o.process = (_s, f) => (f === 2 ? never() : undefined);
          if (step === 'consume') o.consume = { host: (_s, f) => (f === 2 ? never() : undefined) };
          const p = pipeline(o);
          const run = outcome(p.run({ frames: 6, onConsumed: step === 'onConsumed' ? (_s, f) => (f === 2 ? never() : undefined) : undefined }));
          await sleep(50);
          const disposed = p.asyncDispose().then(() => 'resolved', (e) => e.name);
          results[step] = { run: (await run).name, framesDone: (await run).framesDone, asyncDispose: await disposed };
          const timed = pipeline({ ...o, stepTimeout: 30 });
          const t = await outcome(timed.run({ frames: 6, onConsumed: step === 'onConsumed' ? (_s, f) => (f === 2 ? never() : undefined) : undefined }));
          results[step].timeout = { name: t.name, step: t.step, frame: t.frame, cause: t.cause };
          timed.dispose();
        }
        queue.release(); context.release();
        console.log(JSON.stringify(results));
      })();`,
      bounded,
    );
    for (const step of ['produce', 'process', 'consume', 'onConsumed']) {
      expect(value[step]).toMatchObject({
        run: 'FramePipelineDisposedError',
        asyncDispose: 'resolved',
        timeout: { name: 'FrameStepError', step, frame: 2, cause: expect.stringMatching(/^TimeoutError: the step did not settle within 30 ms/) },
      });
    }
  });

  it('run({ timing }) with a frozen object, a non-number total or frozen calls is a TypeError naming options.timing; stepTimeout is checked', async () => {
    const { value } = await runNodeForValue(
      `${prelude}
      (async () => {
        const p = pipeline({ slots: 2 });
        const messages = [];
        for (const timing of [Object.freeze({}), { produce: 'slow' }, { calls: Object.freeze({}) }, Object.freeze({ produce: 0, opencl: 0, consume: 0, wait: 0 })]) {
          messages.push(await p.run({ frames: 2, timing }).then(() => 'resolved', (e) => e.name + ': ' + e.message));
        }
        const timing = {};
        await p.run({ frames: 2, timing });
        p.dispose();
        for (const stepTimeout of [0, -1, 'soon']) {
          try { pipeline({ slots: 1, stepTimeout }).dispose(); messages.push('made'); } catch (e) { messages.push(e.name + ': ' + e.message); }
        }
        queue.release(); context.release();
        console.log(JSON.stringify({ messages, keys: Object.keys(timing).sort() }));
      })();`,
      bounded,
    );
    expect(value.keys).toEqual(['consume', 'opencl', 'produce', 'wait']);
    const [frozen, notNumber, frozenCalls, frozenFull, zero, negative, text] = value.messages;
    expect(frozen).toMatch(/^TypeError: options\.timing must be an object run\(\) can add its totals to/);
    expect(notNumber).toMatch(/^TypeError: options\.timing\.produce must be a number .*; got the string "slow"/);
    expect(frozenCalls).toMatch(/^TypeError: options\.timing\.calls must be an object run\(\) can add/);
    expect(frozenFull).toMatch(/^TypeError: options\.timing must be an object run\(\) can add its totals to/);
    expect(zero).toMatch(/^RangeError: options\.stepTimeout must be an integer from 1/);
    expect(negative).toMatch(/^RangeError: options\.stepTimeout/);
    expect(text).toMatch(/^RangeError: options\.stepTimeout .*got the string/);
  });

  it("a host producer's Event is the pipeline's: it is released once OpenCL's work waits on it; a released one is a FrameStepError of the produce step", async () => {
    const { value } = await runNodeForValue(
      `${prelude}
      (async () => {
        const uploads = context.createQueue();
        const buffer = context.createBuffer(16);
        const events = [];
        const p = pipeline({ slots: 2, produce: { host: () => { const e = uploads.fillBuffer(buffer, new Uint8Array([1])); uploads.flush(); events.push(e); return e; } } });
        await p.run({ frames: 4 });
        const releasedAfter = events.map((e) => e.released);
        const stale = pipeline({ slots: 2, produce: { host: () => { const e = uploads.enqueueMarker(); e.release(); return e; } } });
        const refused = await outcome(stale.run({ frames: 2 }));
        p.dispose(); stale.dispose();
        buffer.release(); uploads.release(); queue.release(); context.release();
        console.log(JSON.stringify({ releasedAfter, refused }));
      })();`,
      bounded,
    );
    expect(value.releasedAfter).toEqual([true, true, true, true]);
    expect(value.refused).toMatchObject({
      name: 'FrameStepError',
      step: 'produce',
      frame: 0,
      cause: expect.stringMatching(/^TypeError: options\.produce\.host\(\) returned an Event that was released/),
    });
  });
});
