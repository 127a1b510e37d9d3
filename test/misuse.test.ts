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
const config: FuzzConfig = { steps: Number(process.env.MISUSE_STEPS ?? 1500), platform: 'Portable Computing Language', reference: true, va: true, control: true };
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

describe('no JavaScript call sequence crashes the process', () => {
  (parallel > 1 ? it.concurrent : it).each(seeds)(
    'random misuse, seed %i: only typed errors, right results, normal exit',
    async (seed) => {
      const result = await slot(() => runSeed(seed, config, { env: softvaEnv(xvfb.display), timeoutMs: seedTimeout }));
      const failure = verdict(result);
      const report = failure ? `${failureReport(result, config, failure)}\n  or: MISUSE_SEEDS=${seed}-${seed} MISUSE_STEPS=${config.steps} npx vitest run test/misuse.test.ts` : '';
      expect(failure, report).toBeNull();
    },
    (seedTimeout + 30_000) * Math.ceil(seeds.length / parallel),
  );
});
