import { describe, expect, it } from 'vitest';
import { runNode } from './helpers';

// Maps whose map command failed (clEnqueueMapBuffer behind a user event set
// to a negative status; OpenCL 3.0 5.5.2 and 5.11: what such a command does is
// the implementation's choice). A map that failed mapped nothing, so nothing
// may unmap it: NVIDIA's driver (580) faults in clEnqueueUnmapMemObject given
// its pointer (the unmap of a mapping collected after its map failed was a
// SIGSEGV at the script's end), and PoCL (3.1) never ends such an unmap, nor
// the commands behind it on its queue. The reference driver aborts on one with
// REFDRV_FAILED_MAP_UNMAP=abort, as NVIDIA's faults. Each in a fresh process.

const env = { OCL_ICD_VENDORS: process.env.OCL_ICD_VENDORS, REFDRV_FAILED_MAP_UNMAP: 'abort' };

describe('a mapping whose map failed is never unmapped (clEnqueueMapBuffer, clEnqueueMapImage, clEnqueueUnmapMemObject), each in a fresh process', () => {
  it('maps behind a user event set to -5 (in waitFor, through the in-order queue, through a marker of another queue; a queue released and its mapping collected while the map waits), dropped and collected: no unmap reaches the driver; a completed mapping dropped beside them is still unmapped', async () => {
    const result = await runNode(
      `const platform = ocl.getPlatforms().find((p) => p.name === 'opencl-interop reference driver');
       const context = ocl.createContext({ platform });
       const queue = context.createQueue();
       const other = context.createQueue();
       const buffer = context.createBuffer(4096);
       const scratch = context.createBuffer(4096);
       const image = context.createImage({ format: { order: 'RGBA', type: 'UNORM_INT8' }, width: 8, height: 8 });
       const collect = async () => {
         for (let i = 0; i < 3; i++) {
           global.gc();
           await new Promise((r) => setTimeout(r, 20));
         }
       };
       (async () => {
         const results = [];
         for (const how of ['waitFor', 'in-order queue', 'marker', 'image', 'queue released']) {
           const gate = context.createUserEvent();
           const q = how === 'queue released' ? context.createQueue() : queue;
           let waitFor;
           if (how === 'in-order queue') queue.fillBuffer(scratch, new Uint8Array([1]), { waitFor: [gate] });
           else waitFor = how === 'marker' ? [other.enqueueMarker({ waitFor: [gate] })] : [gate];
           const map = how === 'image' ? q.mapImage(image, { waitFor }) : q.mapBuffer(buffer, { waitFor, access: 'read' });
           const outcome = map.then(() => 'mapped', (e) => e.name);
           if (how === 'queue released') {
             // The release abandons the mapping, and its record goes while the map still waits on the gate.
             q.release();
             await collect();
           }
           gate.setStatus(-5);
           results.push(how + ': ' + (await outcome));
         }
         // The queue's failed commands have ended in the driver (finish() rejects once they have, if the last
         // failed in the binding's view): the next ones are not behind them.
         await queue.finish().catch(() => {});
         // A map that completed, dropped unmapped: collected, it is unmapped.
         (await queue.mapBuffer(buffer, { access: 'read' })).bytes()[0];
         await collect();
         // Maps and unmaps settle the mappings collected while their maps had not ended.
         const last = await queue.mapBuffer(buffer);
         last.unmap();
         await queue.finish();
         await other.finish();
         await collect();
         results.push('maps left: ' + buffer.mapCount);
         console.log(JSON.stringify(results));
       })();`,
      { env, args: ['--expose-gc'] },
    );
    // Before: killed by SIGABRT (the reference driver's REFDRV_FAILED_MAP_UNMAP), where NVIDIA's faulted.
    expect(result.signal, result.stderr).toBeNull();
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const results: string[] = JSON.parse(result.stdout.trim().split('\n').pop()!);
    expect(results).toEqual([
      'waitFor: OpenCLCommandError',
      'in-order queue: OpenCLCommandError',
      'marker: OpenCLCommandError',
      'image: OpenCLCommandError',
      'queue released: OpenCLCommandError',
      // The reference driver counts a map when it is enqueued: the four of the buffer that failed stay counted, and nothing else.
      'maps left: 4',
    ]);
  });

  it('on PoCL, the commands of the queue after a map that failed and was collected end: waitSync() and finishSync() return (they waited for ever behind its unmap)', async () => {
    const result = await runNode(
      `const platform = ocl.getPlatforms().find((p) => p.name === 'Portable Computing Language');
       const context = ocl.createContext({ platform });
       const queue = context.createQueue();
       const [a, b] = [context.createBuffer(4096), context.createBuffer(4096)];
       const gate = context.createUserEvent();
       queue.copyBuffer(a, b, { waitFor: [gate] });
       const map = queue.mapBuffer(a, { waitFor: [gate] }).then(() => 'mapped', (e) => e.name);
       gate.setStatus(-5);
       (async () => {
         const lines = ['map: ' + (await map)];
         for (let i = 0; i < 3; i++) {
           global.gc();
           await new Promise((r) => setTimeout(r, 20));
         }
         const later = queue.copyBuffer(b, a);
         later.waitSync();
         lines.push('later: ' + later.status);
         queue.finishSync();
         lines.push('finished');
         console.log(JSON.stringify(lines));
       })();`,
      { env: { OCL_ICD_VENDORS: process.env.OCL_ICD_VENDORS }, args: ['--expose-gc'], timeout: 60_000 },
    );
    // Before: still in clWaitForEvents when killed at its time-out (runNode rejects with ChildTimeoutError).
    expect(result.signal, result.stderr).toBeNull();
    expect(JSON.parse(result.stdout.trim().split('\n').pop()!)).toEqual(['map: OpenCLCommandError', 'later: complete', 'finished']);
  });
});
