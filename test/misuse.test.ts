import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNode } from './helpers';
import { type Xvfb, requireSoftva, softvaEnv, startXvfb } from './helpers/va';
import { type FuzzConfig, failureReport, parseSeeds, runSeed, seedTimeoutMs, verdict } from './fuzz/misuse.mjs';

// The misuse fuzzer (test/fuzz/misuse.mjs: what it does; test/fuzz/program.cjs:
// the program of one seed) on PoCL, with the reference driver and the VA
// module on the software VA driver beside it, each seed in a fresh process.
// MISUSE_SEEDS=7-7 replays one seed; MISUSE_SEEDS=1-300 MISUSE_STEPS=2000 runs
// more, MISUSE_PARALLEL=2 two at a time; MISUSE_WHY=1 adds the async
// resources alive to the report of a process that does not exit. Without
// vitest, on any platform: node test/fuzz/misuse.mjs --help.

const seeds = parseSeeds(process.env.MISUSE_SEEDS || '1-6');
const config: FuzzConfig = {
  steps: Number(process.env.MISUSE_STEPS ?? 1500),
  platform: 'Portable Computing Language',
  reference: true,
  va: true,
  control: true,
};
// A seed still running after this is a hang (2000 steps take about 10 s on a quiet machine).
const seedTimeout = seedTimeoutMs(config.steps);

let xvfb: Xvfb;
beforeAll(async () => {
  requireSoftva();
  xvfb = await startXvfb();
});
afterAll(async () => {
  await xvfb?.stop();
});

// MISUSE_PARALLEL=N: N seeds at a time, each still in its own process.
const parallel = Math.max(1, Number(process.env.MISUSE_PARALLEL ?? 1) || 1);
let running = 0;
const waiting: (() => void)[] = [];
async function slot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= parallel) await new Promise<void>((go) => waiting.push(go));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

describe('found by the fuzzer (seeds 156 and 194 of 300 x 2000), each in a fresh process', () => {
  it('clEnqueueBarrierWithWaitList: on an out-of-order queue, commands after a barrier that waits on an unset user event wait on it too; blocking on them throws instead of hanging (PoCL and the reference driver)', async () => {
    const result = await runNode(
      `for (const name of ['Portable Computing Language', 'opencl-interop reference driver']) {
         const platform = ocl.getPlatforms().find((p) => p.name === name);
         const context = ocl.createContext({ platform });
         const queue = context.createQueue(undefined, { outOfOrder: true });
         const done = context.createUserEvent();
         done.setStatus('complete');
         const gate = context.createUserEvent();
         queue.enqueueMarker({ waitFor: [gate] });
         queue.enqueueBarrier();
         const later = queue.enqueueMarker({ waitFor: [done] });
         for (const wait of [() => ocl.waitForEvents([later]), () => later.waitSync()]) {
           try { wait(); console.log('returned'); } catch (e) { console.log(e.name); }
         }
         gate.setStatus('complete');
         later.waitSync();
         console.log(later.status);
       }`,
      { env: { OCL_ICD_VENDORS: process.env.OCL_ICD_VENDORS } },
    );
    expect(result.signal).toBeNull(); // before the fix: blocked in clWaitForEvents until killed at its time-out
    expect(result.stderr).toBe('');
    expect(result.stdout.trim().split('\n')).toEqual(Array(2).fill(['OpenCLStateError', 'OpenCLStateError', 'complete']).flat());
    expect(result.status).toBe(0);
  });
});

describe('maps of one address: no unmap is enqueued while another map of its address is in flight (clEnqueueUnmapMemObject, OpenCL 3.0 5.5.2: an unmap names its mapping by the address; PoCL ends the earliest mapping of that address), each in a fresh process', () => {
  // Before the fix, the unmap of a completed mapping ended a mapping of the
  // same address whose map was still gated by a user event (a released
  // queue's, or a second map for reading of the region), and that map then
  // ran on freed memory once the event was set: SIGSEGV, or
  // "pocl_driver_map_mem: Assertion 'map->host_ptr' failed". Waiting on those
  // maps was not enough: PoCL fails a command as soon as one event it waits
  // on fails, and its failed unmap frees the mapping all the same.
  const scenario = (body: string) => `
    const platform = ocl.getPlatforms().find((p) => p.name === 'Portable Computing Language');
    const context = ocl.createContext({ platform });
    const buffer = context.createBuffer(256);
    const queue = context.createQueue();
    queue.fillBuffer(buffer, new Uint8Array([7]));
    queue.finishSync();
    const settle = () => new Promise((r) => setTimeout(r, 50));
    const tryUnmap = (mapping) => { try { mapping.unmap(); console.log('unmapped'); } catch (e) { console.log(e.name); } };
    (async () => {
      ${body}
      await queue.finish();
      console.log('done');
    })();`;
  const cases: [string, string, string[]][] = [
    [
      "the misuse fuzzer's sequence: a map gated by a user event on a queue then released, the buffer mapped and unmapped on another queue (refused until the event is set)",
      `const q = context.createQueue();
       const gate = context.createUserEvent();
       const gated = q.mapBuffer(buffer, { waitFor: [gate] }).then((m) => m.mapped, (e) => e.name);
       q.release();
       const mapping = queue.mapBufferSync(buffer);
       tryUnmap(mapping);
       await settle();
       gate.setStatus('complete');
       console.log(await gated); // its queue was released: abandoned, unmapped
       tryUnmap(mapping);`,
      ['OpenCLStateError', 'false', 'unmapped', 'done'],
    ],
    [
      'two maps for reading of one region, the first gated by a user event: the second unmapped first',
      `const gate = context.createUserEvent();
       const q2 = context.createQueue(undefined, { outOfOrder: true });
       const first = queue.mapBuffer(buffer, { access: 'read', waitFor: [gate] });
       const second = q2.mapBufferSync(buffer, { access: 'read' });
       tryUnmap(second);
       await settle();
       gate.setStatus('complete');
       const mapping = await first;
       console.log(mapping.bytes()[0], mapping.bytes()[255]);
       tryUnmap(second);
       tryUnmap(mapping);`,
      ['OpenCLStateError', '7 7', 'unmapped', 'unmapped', 'done'],
    ],
    [
      'a mapping collected without unmap() while a map of its address waits on a user event (its unmap is deferred)',
      `const gate = context.createUserEvent();
       const first = queue.mapBuffer(buffer, { access: 'read', waitFor: [gate] });
       context.createQueue().mapBufferSync(buffer, { access: 'read' });
       for (let i = 0; i < 3; i++) { global.gc(); await settle(); }
       gate.setStatus('complete');
       const mapping = await first;
       console.log(mapping.bytes()[0]);
       tryUnmap(mapping);`,
      ['7', 'unmapped', 'done'],
    ],
    [
      'two maps of one address gated by user events on released queues, a third mapping unmapped; the later event fails first (PoCL fails a command as soon as one event it waits on fails)',
      `const [early, late] = [context.createUserEvent(), context.createUserEvent()];
       for (const gate of [early, late]) {
         const q = context.createQueue();
         q.mapBuffer(buffer, { waitFor: [gate] }).catch(() => {});
         q.release();
       }
       const mapping = queue.mapBufferSync(buffer);
       tryUnmap(mapping);
       await settle();
       late.setStatus(-5);
       await settle();
       tryUnmap(mapping);
       early.setStatus('complete');
       await settle();
       tryUnmap(mapping);`,
      ['OpenCLStateError', 'OpenCLStateError', 'unmapped', 'done'],
    ],
  ];
  it.each(cases)('%s', async (_name, body, expected) => {
    const result = await runNode(scenario(body), { args: ['--expose-gc'] });
    expect(result.signal).toBeNull(); // before the fix: SIGSEGV (or SIGABRT at PoCL's assertion) once a gate was set
    expect(result.stderr).toBe('');
    expect(result.stdout.trim().split('\n')).toEqual(expected);
    expect(result.status).toBe(0);
  });
});

describe('a command of queue B waits on a command of queue A behind a user event that fails: A takes no more commands (PoCL 3.1 miscounts A and aborts at its next command), in a fresh process', () => {
  const pattern = (after: string) => `
    const platform = ocl.getPlatforms().find((p) => p.name === 'Portable Computing Language');
    const context = ocl.createContext({ platform });
    const outcomes = new Set();
    (async () => {
      for (let round = 0; round < 300; round++) {
        const [a, b] = [context.createQueue(), context.createQueue()];
        const gate = context.createUserEvent();
        const gated = a.enqueueMarker({ waitFor: [gate] });
        const behind = b.enqueueMarker({ waitFor: [gated] });
        ${after}
        await a.finish();
        a.release();
        b.enqueueMarker().release(); // the waiting queue is not hurt
        await b.finish();
        b.release();
        for (const e of [gate, gated, behind]) e.release();
      }
      console.log(JSON.stringify([...outcomes]));
    })();`;

  it('the gate failed: the next command on A is an OpenCLStateError saying why and what to do; A finishes and releases; no abort in 300 rounds (before: SIGABRT or SIGSEGV)', async () => {
    // Two queues for as long as they take commands (before the fix, for all 300 rounds: PoCL aborted within them).
    const result = await runNode(`
      const platform = ocl.getPlatforms().find((p) => p.name === 'Portable Computing Language');
      const context = ocl.createContext({ platform });
      const outcomes = new Set();
      const keep = [];
      const queues = [context.createQueue(), context.createQueue()];
      (async () => {
        for (let round = 0; round < 300; round++) {
          // the two queues swap parts each round, as they did when PoCL aborted
          const [a, b] = [queues[round % 2], queues[(round + 1) % 2]];
          const gate = context.createUserEvent();
          const gated = a.enqueueMarker({ waitFor: [gate] });
          keep.push(gate, gated, b.enqueueMarker({ waitFor: [gated] }));
          gate.setStatus(-5);
          try {
            keep.push(a.enqueueMarker());
            outcomes.add('accepted');
          } catch (e) {
            outcomes.add(e.name + ': ' + e.message);
            await a.finish();
            a.release();
            queues[round % 2] = context.createQueue();
          }
          if (round % 50 === 49) await Promise.all(queues.map((q) => q.finish()));
        }
        await Promise.all(queues.map((q) => q.finish()));
        console.log(JSON.stringify([...outcomes]));
      })();`);
    expect(result.signal).toBeNull();
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout.trim())).toEqual([
      "OpenCLStateError: clEnqueueMarkerWithWaitList: this queue takes no more commands: a command of another queue waited on one of its commands when a user event set to -5 failed them, after which PoCL's bookkeeping of this queue is wrong and its next command aborts the process (refused on every driver). Create a new queue (context.createQueue()); this one can still be finished and released",
    ]);
    expect(result.status).toBe(0);
  });

  it('the gate completed (or released unset: it fails), the control: A goes on where it completed, and is refused where the release failed it', async () => {
    const completed = await runNode(
      pattern(`gate.setStatus('complete');
        try { a.enqueueMarker().release(); outcomes.add('accepted'); } catch (e) { outcomes.add(e.name); }`),
    );
    expect(completed.stderr).toBe('');
    expect(JSON.parse(completed.stdout.trim())).toEqual(['accepted']);
    const released = await runNode(
      pattern(`gate.release();
        try { a.enqueueMarker().release(); outcomes.add('accepted'); } catch (e) { outcomes.add(e.name); }`),
    );
    expect(released.signal).toBeNull();
    expect(JSON.parse(released.stdout.trim())).toEqual(['OpenCLStateError']);
  });
});

describe('a command waiting on a user event and on another command, the user event failed first: kept until the other command has ended (OpenCL 3.0 5.11, user events: commands waiting on a failed one fail), in a fresh process', () => {
  it('PoCL notifies the failed command when the other command ends; before the fix it had been freed: "PTHREAD ERROR in pocl_lock_events_inorder(): Invalid argument" and SIGABRT', async () => {
    const result = await runNode(
      `
      const platform = ocl.getPlatforms().find((p) => p.name === 'Portable Computing Language');
      const context = ocl.createContext({ platform });
      const [q1, q2] = [context.createQueue(), context.createQueue()];
      // Large enough that the fill is still running when the events are let go; three times, as the timing decides.
      const buffer = context.createBuffer(1 << 27);
      const settle = () => new Promise((r) => setTimeout(r, 50));
      (async () => {
        for (let round = 0; round < 3; round++) {
          const [failing, later] = [context.createUserEvent(), context.createUserEvent()];
          const fill = q1.fillBuffer(buffer, new Uint8Array([1]), { waitFor: [later] });
          const marker = q2.enqueueMarker({ waitFor: [failing, fill] });
          marker.completed.then(() => console.log('complete'), (e) => console.log(e.name));
          failing.setStatus(-5);
          await settle();
          marker.release();
          for (let i = 0; i < 3; i++) { global.gc(); await settle(); }
          later.setStatus('complete');
          await q1.finish();
          await settle();
          console.log(fill.status);
        }
      })();`,
      { args: ['--expose-gc'] },
    );
    expect(result.signal).toBeNull(); // before the fix: SIGABRT (one round crashed 4 of 6 runs)
    expect(result.stderr).toBe('');
    expect(result.stdout.trim().split('\n')).toEqual(Array(3).fill(['OpenCLCommandError', 'complete']).flat());
    expect(result.status).toBe(0);
  });
});

describe('no JavaScript call sequence crashes the process', () => {
  (parallel > 1 ? it.concurrent : it).each(seeds)(
    'random misuse, seed %i: only typed errors, right results, normal exit',
    async (seed) => {
      const result = await slot(() => runSeed(seed, config, { env: softvaEnv(xvfb.display), timeoutMs: seedTimeout }));
      const failure = verdict(result);
      const report = failure
        ? `${failureReport(result, config, failure)}\n  or: MISUSE_SEEDS=${seed}-${seed} MISUSE_STEPS=${config.steps} npx vitest run test/misuse.test.ts`
        : '';
      expect(failure, report).toBeNull();
    },
    (seedTimeout + 30_000) * Math.ceil(seeds.length / parallel),
  );
});
