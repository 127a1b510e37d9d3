#!/usr/bin/env node
// An open PoCL (3.1) crash found on 2026-11-28, not yet kept off by the binding: a marker on queue A waits on a user
// event; a marker on queue B waits on A's; the user event fails; one more command on A. PoCL aborts within a few
// hundred rounds (pocl_update_event_running_unlocked / pocl_update_event_finished / pocl_lock_events_inorder
// assertions, or SIGSEGV), in 3 of 3 runs; with the user event completed instead, 0 of 2; without the last command,
// or with B's marker on A, 0 of 3; the events' releases play no part (this keeps them all).
//   OCL_ICD_VENDORS=$PWD/cmake-build/vendors node test/fuzz/repro-failed-cross-queue.mjs [--complete]
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ocl = createRequire(import.meta.url)(join(dirname(fileURLToPath(import.meta.url)), '../../dist/index.js'));
const platform = ocl.getPlatforms().find((p) => p.name === 'Portable Computing Language');
if (!platform) throw new Error('PoCL is not among the platforms (OCL_ICD_VENDORS)');
const context = ocl.createContext({ platform });
const queues = [context.createQueue(), context.createQueue()];
const status = process.argv.includes('--complete') ? 'complete' : -5;
const keep = [];
for (let round = 0; round < 2000; round++) {
  const [a, b] = [queues[round % 2], queues[(round + 1) % 2]];
  const gate = context.createUserEvent();
  const gated = a.enqueueMarker({ waitFor: [gate] });
  const behind = b.enqueueMarker({ waitFor: [gated] });
  gate.setStatus(status);
  keep.push(gate, gated, behind, a.enqueueMarker());
  if (round % 100 === 99) await queues[0].finish().catch(() => {});
}
await Promise.all(queues.map((q) => q.finish().catch(() => {})));
console.log('2000 rounds, no crash');
