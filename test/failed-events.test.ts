import { describe, expect, it } from 'vitest';
import { runNode } from './helpers';

// Commands behind a user event that failed (clSetUserEventStatus with a
// negative status; OpenCL 3.0 5.11 and 5.13: what such a command does is the
// implementation's choice). The package counts such a command failed, by its
// wait list or by its in-order queue, directly or through other commands: its
// waitSync(), waitForEvents(), awaits, blocking transfers behind it and
// finishSync() end at once with CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
// and no synchronous wait goes to a driver for it (PoCL never ends some such
// commands; NVIDIA's runs them). Each in a fresh process.

const env = { OCL_ICD_VENDORS: process.env.OCL_ICD_VENDORS };

const behindAFailedEvent = `
  const platform = ocl.getPlatforms().find((p) => p.name === 'opencl-interop reference driver');
  const context = ocl.createContext({ platform });
  const queue = context.createQueue();
  const [a, b] = [context.createBuffer(4096), context.createBuffer(4096)];
  const [failing, later] = [context.createUserEvent(), context.createUserEvent()];
  // The driver holds the copy until 'later' is set; 'failing' fails it in the package's view at once.
  const copy = queue.copyBuffer(a, b, { waitFor: [failing, later] });
  const behind = queue.copyBuffer(b, a);
  failing.setStatus(-5);
  const lines = [];
  const attempt = (name, wait) => {
    try {
      wait();
      lines.push(name + ': returned');
    } catch (e) {
      lines.push(name + ': ' + e.name + ' ' + e.status);
    }
  };
  attempt('copy.waitSync()', () => copy.waitSync());
  attempt('behind.waitSync()', () => behind.waitSync());
  attempt('waitForEvents([behind])', () => ocl.waitForEvents([behind]));
  attempt('a blocking read on the queue', () => queue.readBuffer(a, new Uint8Array(16), { blocking: true }));
  attempt('finishSync()', () => queue.finishSync());
  attempt('a marker waiting on behind', () => queue.enqueueMarker({ waitFor: [behind] }));
  (async () => {
    const settled = (event) => Promise.race([
      event.then(() => 'complete', (e) => e.name + ' ' + e.status),
      new Promise((r) => setTimeout(() => r('still pending after 2 s'), 2000)),
    ]);
    lines.push('await behind: ' + (await settled(behind)));
    lines.push('await a marker after it: ' + (await settled(queue.enqueueMarker())));
    later.setStatus('complete');
    await queue.finish().catch(() => {});
    // The driver has ended them: later commands are not behind the failure.
    const after = queue.copyBuffer(a, b);
    after.waitSync();
    lines.push('a copy enqueued after the driver ended them: ' + after.status);
    queue.finishSync();
    lines.push('finishSync(): returned');
    console.log(JSON.stringify(lines));
  })();`;

describe('commands behind a user event that failed end at once with CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST (OpenCL 3.0 5.11), each in a fresh process', () => {
  for (const [mode, extra] of [
    ['the driver fails them, as PoCL does', {}],
    ["the driver runs them once the other event is set, as NVIDIA's does (REFDRV_FAILED_WAIT=run)", { REFDRV_FAILED_WAIT: 'run' }],
  ] as const) {
    it(`on its wait list and through its in-order queue: waits, blocking transfers and finishSync() end at once, awaits settle at once, a later command is refused; once the driver has ended them, new commands run (${mode})`, async () => {
      const result = await runNode(behindAFailedEvent, { env: { ...env, ...extra }, timeout: 60_000 });
      expect(result.signal, result.stderr).toBeNull();
      expect(result.stderr).toBe('');
      // Before: OpenCLStateError ("would block for ever", the other event unset) for each wait, and both awaits pending.
      expect(JSON.parse(result.stdout.trim().split('\n').pop()!)).toEqual([
        'copy.waitSync(): OpenCLCommandError -14',
        'behind.waitSync(): OpenCLCommandError -14',
        'waitForEvents([behind]): OpenCLCommandError -14',
        'a blocking read on the queue: OpenCLError -14',
        'finishSync(): OpenCLError -14',
        'a marker waiting on behind: OpenCLError -14',
        'await behind: OpenCLCommandError -14',
        'await a marker after it: OpenCLCommandError -14',
        'a copy enqueued after the driver ended them: complete',
        'finishSync(): returned',
      ]);
    });
  }

  it('on PoCL, the equivalent of the minimised hang (copies and maps on an in-order queue behind user events set to -5, a marker of another queue waiting on them, waits on both queues): every wait ends', async () => {
    const result = await runNode(
      `const platform = ocl.getPlatforms().find((p) => p.name === 'Portable Computing Language');
       const context = ocl.createContext({ platform });
       const [queue, side] = [context.createQueue(), context.createQueue()];
       const [a, b, c] = [context.createBuffer(4096), context.createBuffer(4096), context.createBuffer(4096)];
       const lines = [];
       const attempt = (name, wait) => {
         try {
           wait();
           lines.push(name + ': returned');
         } catch (e) {
           lines.push(name + ': ' + e.name);
         }
       };
       (async () => {
         for (let round = 0; round < 3; round++) {
           const [g1, g2] = [context.createUserEvent(), context.createUserEvent()];
           const first = queue.copyBuffer(a, b, { waitFor: [g1] });
           const maps = [queue.mapBuffer(c, { waitFor: [g2], access: 'read' }), queue.mapBuffer(a, { access: 'read' })].map((m) => m.catch(() => {}));
           const marker = side.enqueueMarker({ waitFor: [g1] });
           side.copyBuffer(b, c);
           g1.setStatus(-5);
           g2.setStatus(-5);
           await Promise.all(maps);
           for (let i = 0; i < 3; i++) {
             global.gc();
             await new Promise((r) => setTimeout(r, 10));
           }
           const copy = queue.copyBuffer(c, a);
           attempt('copy.waitSync()', () => copy.waitSync());
           attempt('marker.waitSync()', () => marker.waitSync());
           attempt('side.finishSync()', () => side.finishSync());
           await queue.finish().catch(() => {});
           attempt('queue.finishSync()', () => queue.finishSync());
         }
         console.log(JSON.stringify({ ended: lines.length }));
       })();`,
      { env, args: ['--expose-gc'], timeout: 60_000 },
    );
    // Before: still in clWaitForEvents when killed at its time-out (runNode rejects with ChildTimeoutError).
    expect(result.signal, result.stderr).toBeNull();
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout.trim().split('\n').pop()!)).toEqual({ ended: 12 });
  });
});
