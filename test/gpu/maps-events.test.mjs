// The misuse fuzzer's crashes on PoCL, replayed on the GPU
// driver, each in a fresh process: maps of one address with a map gated by a
// user event, and a command that waited on a failed user event and on
// another command still running. Whether two maps share an address is the
// driver's choice, so an unmap refused while the gated map waits is as right
// as one that goes through; the process must not crash, and the bytes must be
// the ones written.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeRun, gpuPlatform, runFresh } from './support.mjs';

const mapsOfOneAddress = `
const context = ocl.createContext({ platform });
const buffer = context.createBuffer(4096);
const queue = context.createQueue(device);
queue.fillBuffer(buffer, new Uint8Array([7]));
queue.finishSync();
const settle = () => new Promise((r) => setTimeout(r, 50));
const tryUnmap = (mapping) => { try { mapping.unmap(); return 'unmapped'; } catch (e) { return e.name; } };
(async () => {
  const results = [];
  for (const access of ['read-write', 'read']) {
    const q = context.createQueue(device);
    const gate = context.createUserEvent();
    const gated = q.mapBuffer(buffer, { access, waitFor: [gate] }).then((m) => m, (e) => e.name);
    if (access === 'read-write') q.release();
    const mapping = queue.mapBufferSync(buffer, { access: 'read' });
    const first = tryUnmap(mapping);
    await settle();
    gate.setStatus('complete');
    const other = await gated;
    const second = mapping.mapped ? tryUnmap(mapping) : 'unmapped';
    let bytes = null;
    if (typeof other === 'object' && other.mapped) { bytes = [other.bytes()[0], other.bytes()[4095]]; other.unmap(); }
    await queue.finish();
    results.push({ first, second, bytes });
  }
  console.log(JSON.stringify(results));
})();`;

test('maps of one address, one gated by a user event (its queue released, or a second map for reading): no crash; a refused unmap is OpenCLStateError and goes through once the event is set', async () => {
  const run = await runFresh(mapsOfOneAddress, { timeoutMs: 60_000 });
  assert.equal(run.signal, null, describeRun(run));
  assert.equal(run.status, 0, describeRun(run));
  const results = JSON.parse(run.stdout.trim().split('\n').pop());
  for (const { first, second, bytes } of results) {
    assert.ok(['unmapped', 'OpenCLStateError'].includes(first), describeRun(run));
    assert.equal(second, 'unmapped', describeRun(run));
    if (bytes) assert.deepEqual(bytes, [7, 7], describeRun(run));
  }
});

const failedGate = `
const context = ocl.createContext({ platform });
const [q1, q2] = [context.createQueue(device), context.createQueue(device)];
const buffer = context.createBuffer(1 << 27);
const settle = () => new Promise((r) => setTimeout(r, 50));
(async () => {
  const lines = [];
  for (let round = 0; round < 3; round++) {
    const [failing, later] = [context.createUserEvent(), context.createUserEvent()];
    const fill = q1.fillBuffer(buffer, new Uint8Array([1]), { waitFor: [later] });
    const marker = q2.enqueueMarker({ waitFor: [failing, fill] });
    marker.completed.then(() => lines.push('complete'), (e) => lines.push(e.name));
    failing.setStatus(-5);
    await settle();
    marker.release();
    later.setStatus('complete');
    await q1.finish();
    await settle();
    lines.push(fill.status);
  }
  console.log(JSON.stringify(lines));
})();`;

// Whether a command behind a failed event fails or runs is the implementation's choice: the reference driver and
// PoCL fail the marker; NVIDIA (580, H200) ran it, and the marker's promise ended failed in the first of three rounds
// (the package rejects the promise of a command behind a failed user event when it learns of the failure) and
// complete in the other two. The reference driver runs it too with REFDRV_FAILED_WAIT=run; either way nothing may
// crash and the fill must complete.
const onReference = gpuPlatform().name === 'opencl-interop reference driver';
for (const [mode, env, marker] of [
  ['', {}, onReference ? 'OpenCLCommandError' : undefined],
  ...(onReference ? [[' (REFDRV_FAILED_WAIT=run: the driver runs it, as NVIDIA did)', { REFDRV_FAILED_WAIT: 'run' }, undefined]] : []),
]) {
  test(`a command waiting on a user event and on another command, the user event failed first, its event released: no crash when the other command ends${mode}`, async () => {
    const run = await runFresh(failedGate, { timeoutMs: 60_000, env });
    assert.equal(run.signal, null, describeRun(run));
    assert.equal(run.status, 0, describeRun(run));
    const lines = JSON.parse(run.stdout.trim().split('\n').pop());
    assert.equal(lines.length, 6, describeRun(run));
    for (let round = 0; round < 3; round++) {
      const [markerEnd, fillStatus] = lines.slice(round * 2, round * 2 + 2);
      if (marker) assert.equal(markerEnd, marker, describeRun(run));
      else assert.ok(['OpenCLCommandError', 'complete'].includes(markerEnd), describeRun(run));
      assert.equal(fillStatus, 'complete', describeRun(run));
    }
  });
}

// A map behind a user event set to -5, its mapping dropped unmapped and collected: NVIDIA's driver (580) faulted in
// the unmap a collected mapping's record enqueued (3 of 3 runs of a script that released queues with maps gated,
// at its end after a garbage collection). The record enqueued the unmap at once, after its map: behind a map still
// waiting on the user event when the queue's release abandoned it, an unmap that NVIDIA's driver runs when the map
// fails (it runs commands behind failed events; clEnqueueUnmapMemObject given a map that has already failed returns
// the failure, -5, on an H200). Now a mapping is unmapped only once its map has completed, never after one that
// failed. Every platform of the process in turn (NVIDIA and, where it is built, the reference driver, as in the
// script that crashed); the reference driver aborts on such an unmap with REFDRV_FAILED_MAP_UNMAP=abort.
const failedMaps = `
const collect = async () => {
  for (let i = 0; i < 3; i++) {
    global.gc();
    await new Promise((r) => setTimeout(r, 20));
  }
};
(async () => {
  const lines = [];
  for (const p of ocl.getPlatforms()) {
    const context = ocl.createContext({ platform: p });
    const queue = context.createQueue();
    const other = context.createQueue();
    const buffer = context.createBuffer(1 << 16);
    const scratch = context.createBuffer(1 << 16);
    const image = context.createImage({ format: { order: 'RGBA', type: 'UNORM_INT8' }, width: 16, height: 16 });
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
      lines.push(how + ': ' + (await outcome));
    }
    await collect();
    await queue.finish().catch(() => {});
    await other.finish().catch(() => {});
    const last = await queue.mapBuffer(buffer);
    last.unmap();
    ocl.waitForEvents([queue.enqueueMarker()]);
    for (const o of [queue, other, buffer, scratch, image, context]) o.release();
  }
  await collect();
  console.log(JSON.stringify(lines));
})();`;

test('maps behind a user event set to -5 (waitFor, in-order queue, a marker of another queue, an image, a released queue), dropped and collected: no crash, no unmap of a map that failed', async () => {
  const run = await runFresh(failedMaps, {
    timeoutMs: 60_000,
    args: ['--expose-gc'],
    env: { REFDRV_FAILED_MAP_UNMAP: 'abort' },
  });
  assert.equal(run.signal, null, describeRun(run));
  assert.equal(run.status, 0, describeRun(run));
  const lines = JSON.parse(run.stdout.trim().split('\n').pop());
  assert.ok(lines.length >= 5, describeRun(run));
  for (const line of lines) assert.match(line, /: OpenCLCommandError$/, describeRun(run));
});
