import { describe, expect, it } from 'vitest';
import { runNode } from './helpers';

// clEnqueueFillImage (OpenCL 3.0 5.3.6) of a 3D image behind an event that has
// not ended: NVIDIA's driver (580) returns from the enqueue only once the wait
// list has ended (a futex wait inside clEnqueueFillImage; a 2D image's fill
// returns in about 1 ms), so behind a user event that only the calling thread
// can set it never returns. The package refuses it before the driver, as it
// does the external-memory acquire and the semaphore commands; the reference
// driver blocks the same way with REFDRV_GATED_FILL_IMAGE3D=block. In a fresh
// process (a hang would be killed at its time-out).

describe('clEnqueueFillImage of a 3D image behind a user event that is not set (OpenCL 3.0 5.3.6), in a fresh process', () => {
  it('is refused with OpenCLStateError (in waitFor, the same event twice, a marker of another queue behind it, an earlier command of the in-order queue); a 2D fill is enqueued; once the event is set the 3D fill runs', async () => {
    const result = await runNode(
      `const platform = ocl.getPlatforms().find((p) => p.name === 'opencl-interop reference driver');
       const context = ocl.createContext({ platform });
       const queue = context.createQueue();
       const other = context.createQueue();
       const format = { order: 'RGBA', type: 'FLOAT' };
       const volume = context.createImage({ format, width: 8, height: 8, depth: 4 });
       const flat = context.createImage({ format, width: 8, height: 8 });
       const gate = context.createUserEvent();
       const lines = [];
       const attempt = (name, enqueue) => {
         try {
           enqueue();
           lines.push(name + ': enqueued');
         } catch (e) {
           lines.push(name + ': ' + e.name + (e.name === 'OpenCLStateError' ? ' ' + /would block for ever/.test(e.message) : ''));
         }
       };
       const colour = [0.5, 0.25, 0, 1];
       attempt('3D, waitFor a user event', () => queue.fillImage(volume, colour, { waitFor: [gate] }));
       attempt('3D, the same event twice', () => queue.fillImage(volume, colour, { waitFor: [gate, gate] }));
       attempt('3D, a marker of another queue behind it', () => queue.fillImage(volume, [NaN, 0, 0, 1], { waitFor: [other.enqueueMarker({ waitFor: [gate] })] }));
       attempt('2D, waitFor a user event', () => queue.fillImage(flat, colour, { waitFor: [gate] }));
       attempt('3D, behind the 2D fill on the in-order queue', () => queue.fillImage(volume, colour));
       gate.setStatus('complete');
       attempt('3D, the event set', () => queue.fillImage(volume, colour, { waitFor: [gate] }));
       const pixels = new Float32Array(8 * 8 * 4 * 4);
       queue.readImage(volume, pixels, { blocking: true });
       lines.push('pixel: ' + Array.from(pixels.slice(-4)).join(','));
       console.log(JSON.stringify(lines));`,
      { env: { OCL_ICD_VENDORS: process.env.OCL_ICD_VENDORS, REFDRV_GATED_FILL_IMAGE3D: 'block' }, timeout: 60_000 },
    );
    // Before: still inside clEnqueueFillImage when killed at its time-out (runNode rejects with ChildTimeoutError).
    expect(result.signal, result.stderr).toBeNull();
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout.trim().split('\n').pop()!)).toEqual([
      '3D, waitFor a user event: OpenCLStateError true',
      '3D, the same event twice: OpenCLStateError true',
      '3D, a marker of another queue behind it: OpenCLStateError true',
      '2D, waitFor a user event: enqueued',
      '3D, behind the 2D fill on the in-order queue: OpenCLStateError true',
      '3D, the event set: enqueued',
      'pixel: 0.5,0.25,0,1',
    ]);
  });
});
