// One owner per file descriptor: a channel's socket is never adopted twice,
// and no object that owns a descriptor (a received handle, an exported
// handle, a channel, a listener) or runs frames (a pipeline) is cloned to
// another thread (structuredClone / postMessage, HTML "StructuredSerialize":
// a DataCloneError) into a second object that would close the same number.
// Each double close shows as an unrelated file, opened in between under the
// freed number, found closed; fresh processes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FramePipeline, HandleChannel, createVulkanInstance, getSemaphores } from '../lib';
import { poclSetup, runNodeForValue } from './helpers';
import { platform, referenceQueue } from './helpers/ref-driver';

/** structuredClone(value)'s error: its name and message. */
function cloneError(value: unknown): { name: string; message: string } | 'cloned' {
  try {
    structuredClone(value);
    return 'cloned';
  } catch (error) {
    return { name: (error as Error).name, message: (error as Error).message };
  }
}

describe('a descriptor has one owner', () => {
  it("HandleChannel.fromFd() of a live channel's own descriptor is a TypeError; the descriptor stays that channel's, and no unrelated file is closed (fresh process)", async () => {
    const { value } = await runNodeForValue(`
      const fs = require('node:fs');
      const [a, b] = ocl.HandleChannel.pair();
      const number = a.fd;
      let adopted = null, refused = null;
      try { adopted = ocl.HandleChannel.fromFd(number); } catch (e) { refused = e.name + ': ' + e.message; }
      a.close();
      const unrelated = fs.openSync('/dev/null', 'r'); // takes the number a closed
      adopted?.close();
      let unrelatedOpen = true;
      try { fs.fstatSync(unrelated); } catch { unrelatedOpen = false; }
      b.close();
      console.log(JSON.stringify({ refused, sameNumber: unrelated === number, unrelatedOpen }));`);
    // Before: adopted, and closing the adopted channel closed the unrelated file.
    expect(value).toEqual({
      refused: expect.stringMatching(
        /^TypeError: fd \d+ must be a connected Unix SOCK_SEQPACKET socket .*; it is the descriptor of a live HandleChannel of this process/,
      ),
      sameNumber: true,
      unrelatedOpen: true,
    });
  });

  it('a ReceivedHandle posted to a worker is a DataCloneError: the worker gets no copy that closes the descriptor, and dispose() closes nothing unrelated (fresh process)', async () => {
    const { value } = await runNodeForValue(`
      const fs = require('node:fs');
      const { Worker } = require('node:worker_threads');
      (async () => {
        const [a, b] = ocl.HandleChannel.pair();
        const file = fs.openSync('/dev/null', 'r');
        await a.send([{ handleType: 'sync-fd', handle: file }]);
        fs.closeSync(file);
        const { handles: [received] } = await b.receive();
        const worker = new Worker(
          "const { parentPort } = require('node:worker_threads');" +
          "parentPort.once('message', (m) => { require('node:fs').closeSync(m.handle); parentPort.postMessage('closed ' + m.handle); });",
          { eval: true });
        let posted;
        try {
          worker.postMessage(received);
          posted = await new Promise((resolve) => worker.once('message', resolve));
        } catch (e) { posted = e.name + ': ' + e.message; }
        await worker.terminate();
        const number = received.handle;
        let unrelated = -1;
        if (posted.startsWith('closed')) unrelated = fs.openSync('/dev/null', 'r'); // takes the number the worker closed
        const stillOwned = received.owned;
        received.dispose();
        let unrelatedOpen = null;
        if (unrelated >= 0) { unrelatedOpen = true; try { fs.fstatSync(unrelated); } catch { unrelatedOpen = false; } }
        a.close(); b.close();
        console.log(JSON.stringify({ posted, stillOwned, unrelatedOpen, sameNumber: unrelated === number }));
      })();`);
    // Before: the worker closed the descriptor, then dispose() closed the unrelated file (unrelatedOpen false).
    expect(value).toMatchObject({
      posted: expect.stringMatching(/^DataCloneError: .*a ReceivedHandle owns file descriptor \d+/),
      stillOwned: true,
      unrelatedOpen: null,
    });
  });

  it('a ReceivedHandle relinquished and posted as a plain { handleType, handle } hands its descriptor over: the worker closes it, the main thread does not (fresh process)', async () => {
    const { value } = await runNodeForValue(`
      const fs = require('node:fs');
      const { Worker } = require('node:worker_threads');
      (async () => {
        const [a, b] = ocl.HandleChannel.pair();
        const file = fs.openSync('/dev/null', 'r');
        await a.send([{ handleType: 'sync-fd', handle: file }]);
        fs.closeSync(file);
        const { handles: [received] } = await b.receive();
        const worker = new Worker(
          "const { parentPort } = require('node:worker_threads');" +
          "parentPort.once('message', (m) => { require('node:fs').closeSync(m.handle); parentPort.postMessage('closed'); });",
          { eval: true });
        const { handleType, handle } = received;
        received.relinquish();
        worker.postMessage({ handleType, handle });
        await new Promise((resolve) => worker.once('message', resolve));
        await worker.terminate();
        const unrelated = fs.openSync('/dev/null', 'r');
        received.dispose();
        let unrelatedOpen = true;
        try { fs.fstatSync(unrelated); } catch { unrelatedOpen = false; }
        a.close(); b.close();
        console.log(JSON.stringify({ sameNumber: unrelated === handle, unrelatedOpen }));
      })();`);
    expect(value).toEqual({ sameNumber: true, unrelatedOpen: true });
  });

  it('channels, listeners, pipelines and exported handles refuse structuredClone with a DataCloneError that says why', async () => {
    const [a, b] = HandleChannel.pair();
    const dir = mkdtempSync(join(tmpdir(), 'clone-'));
    const listener = HandleChannel.listen(join(dir, 'socket'));
    const { context, queue } = poclSetup();
    const pipeline = new FramePipeline({ queue, slots: 2, produce: { host: () => {} }, process: () => {}, consume: { host: () => {} } });
    const instance = createVulkanInstance();
    const vk = instance.createDevice();
    const vkBuffer = vk.createBuffer({ size: 4096 });
    const ref = referenceQueue();
    const semaphore = getSemaphores(platform).create(ref.context, { exportAs: 'opaque-fd' });
    try {
      expect(cloneError(a)).toEqual({ name: 'DataCloneError', message: expect.stringMatching(/a HandleChannel owns its socket/) });
      expect(cloneError({ nested: [listener] })).toEqual({
        name: 'DataCloneError',
        message: expect.stringMatching(/a HandleListener owns its socket/),
      });
      expect(cloneError(pipeline)).toEqual({ name: 'DataCloneError', message: expect.stringMatching(/a FramePipeline/) });
      using exported = vkBuffer.exportMemory();
      expect(cloneError(exported)).toEqual({
        name: 'DataCloneError',
        message: expect.stringMatching(new RegExp(`a VulkanExportedHandle owns file descriptor ${exported.handle}`)),
      });
      expect(cloneError({ ...exported })).not.toBe('cloned'); // a spread copy would be a second owner too
      using semaphoreHandle = semaphore.exportHandle();
      expect(cloneError(semaphoreHandle)).toEqual({
        name: 'DataCloneError',
        message: expect.stringMatching(/an ExportedSemaphoreHandle owns file descriptor/),
      });
      // What they print and serialise as JSON is unchanged but for the reason.
      expect(JSON.parse(JSON.stringify(exported))).toEqual({
        handleType: 'opaque-fd',
        handle: exported.handle,
        size: exported.size,
        dedicated: false,
      });
    } finally {
      semaphore.release();
      ref.queue.release();
      ref.context.release();
      vkBuffer.dispose();
      vk.dispose();
      instance.dispose();
      pipeline.dispose();
      queue.release();
      context.release();
      listener.close();
      rmSync(dir, { recursive: true });
      a.close();
      b.close();
    }
  });
});
