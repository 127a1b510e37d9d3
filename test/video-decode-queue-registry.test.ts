// The process-wide count of decoders and frames in flight on each decode
// queue of a GPU (native/video/decode_queue_registry.cc), which every
// thread's DecodeQueues reads (lib/video/decode-queues.ts): on NVIDIA queue i
// of every VkDevice made on a GPU decodes on the same engine, so decoders of
// different worker threads must see each other's queues. Through the addon,
// in worker threads of a fresh process, as the decoders use it.
import { describe, expect, it } from 'vitest';
import { nativeAddon } from '../lib/native-addon';
import { runNodeForValue } from './helpers';

describe('the decode queue registry: one per GPU and queue count, shared by every thread of the process', () => {
  it("a worker's additions are seen by the main thread, and taken back when the worker ends, even terminated", async () => {
    const { value } = await runNodeForValue(`
      const { Worker } = require('node:worker_threads');
      const addonPath = ${JSON.stringify(require.resolve('../dist/native-addon.js'))};
      const native = require(addonPath).nativeAddon();
      const uuid = new Uint8Array(16).fill(7);
      const id = native.vkVideoQueueRegistry(uuid, 3);
      native.vkVideoQueueAdd(id, 0, 1, 2);
      const worker = (body) => new Worker(\`
        const native = require(\${JSON.stringify(addonPath)}).nativeAddon();
        const { parentPort } = require('node:worker_threads');
        const id = native.vkVideoQueueRegistry(new Uint8Array(16).fill(7), 3);
        \${body}\`, { eval: true });
      (async () => {
        const ended = worker("native.vkVideoQueueAdd(id, 1, 1, 0); parentPort.postMessage(id);");
        const workerId = await new Promise((r) => ended.once('message', r));
        await new Promise((r) => ended.once('exit', r));
        const afterExit = Array.from(native.vkVideoQueueCounts(id));
        const stuck = worker("native.vkVideoQueueAdd(id, 2, 1, 8); parentPort.postMessage(Array.from(native.vkVideoQueueCounts(id))); setInterval(() => {}, 1000);");
        const seenInWorker = await new Promise((r) => stuck.once('message', r));
        const whileAlive = Array.from(native.vkVideoQueueCounts(id));
        await stuck.terminate();
        const afterTerminate = Array.from(native.vkVideoQueueCounts(id));
        const other = native.vkVideoQueueRegistry(uuid, 4);
        console.log(JSON.stringify({ sameId: workerId === id, seenInWorker, whileAlive, afterExit, afterTerminate, otherCounts: Array.from(native.vkVideoQueueCounts(other)) }));
      })();`);
    expect(value).toEqual({
      sameId: true,
      seenInWorker: [1, 2, 0, 0, 1, 8],
      whileAlive: [1, 2, 0, 0, 1, 8],
      afterExit: [1, 2, 0, 0, 0, 0],
      afterTerminate: [1, 2, 0, 0, 0, 0],
      otherCounts: [0, 0, 0, 0, 0, 0, 0, 0],
    });
  });

  it('bad arguments are typed errors', () => {
    const native = nativeAddon();
    expect(() => native.vkVideoQueueRegistry(new Uint8Array(15), 3)).toThrow(new TypeError('deviceUuid must be a Uint8Array of 16 bytes'));
    expect(() => native.vkVideoQueueRegistry(new Uint8Array(16), 0)).toThrow(new RangeError('queues must be 1 to 64'));
    const id = native.vkVideoQueueRegistry(new Uint8Array(16).fill(9), 2);
    expect(() => native.vkVideoQueueAdd(id, 2, 1, 0)).toThrow(new RangeError('no such decode queue'));
    expect(() => native.vkVideoQueueCounts(1 << 20)).toThrow(new RangeError('no such decode queue registry'));
  });
});
