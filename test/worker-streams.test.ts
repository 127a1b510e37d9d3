// Worker threads do not serialize each other, and no
// completion is lost or delivered to the wrong thread. Each worker has its
// own context and queue and awaits 1000 commands: a write of its own stamp
// (worker, round) then a non-blocking read back; an await that resolved for
// another thread's or another command's completion would see the read's
// target not yet filled (or the write's command not complete). One more
// worker is terminated mid-stream; the others must finish. In a fresh
// process per completion mode (the mode is read once per queue).
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runNodeForValue } from './helpers';

const workers = (platformName: string) => `
const { Worker } = require('node:worker_threads');
const workerSource = \`
  const { parentPort, workerData } = require('node:worker_threads');
  const ocl = require(workerData.dist);
  (async () => {
    const platform = ocl.getPlatforms().find((p) => p.name === workerData.platform);
    const context = ocl.createContext({ devices: [platform.getDevices()[0]] });
    const queue = context.createQueue();
    const buffer = context.createBuffer(4096);
    const stamp = new Uint32Array(1024);
    const back = new Uint32Array(1024);
    let wrong = 0, incomplete = 0;
    for (let round = 0; round < 500; round++) {
      stamp.fill(workerData.id * 100000 + round);
      const write = queue.writeBuffer(buffer, stamp);
      await write;
      if (write.status !== 'complete') incomplete++;
      back.fill(0);
      const read = queue.readBuffer(buffer, back);
      await read;
      if (read.status !== 'complete') incomplete++;
      if (back[0] !== stamp[0] || back[1023] !== stamp[0]) wrong++;
      if (round === 50) parentPort.postMessage({ id: workerData.id, midway: true });
    }
    parentPort.postMessage({ id: workerData.id, awaited: 1000, wrong, incomplete });
  })();\`;
const start = (id) => new Worker(workerSource, { eval: true, workerData: { id, dist: ${JSON.stringify(resolve(__dirname, '../dist/index.js'))}, platform: ${JSON.stringify(platformName)} } });
const results = {};
let victimExit;
const finished = [1, 2, 3].map((id) => new Promise((resolve, reject) => {
  const worker = start(id);
  worker.on('message', (m) => { if (!m.midway) results[id] = m; });
  worker.on('error', reject);
  worker.on('exit', resolve);
}));
const victim = start(4);
victim.on('message', (m) => { if (m.midway) victim.terminate().then((code) => (victimExit = code)); });
victim.on('error', () => {});
Promise.all(finished).then(() => new Promise((r) => setTimeout(r, 50))).then(() => {
  console.log(JSON.stringify({ results, victimExit }));
});
`;

describe('worker threads, each with its own context and queue, 1000 awaited commands each', () => {
  for (const platform of ['opencl-interop reference driver', 'Portable Computing Language']) {
    it.each([['callback'], ['waiter'], ['poll']])(
      `${platform}: every completion reaches its own thread, and a worker terminated mid-stream leaves the others running (OPENCL_INTEROP_COMPLETION=%s)`,
      async (mode) => {
        const { value } = await runNodeForValue(workers(platform), { env: { OPENCL_INTEROP_COMPLETION: mode } });
        const expected = { awaited: 1000, wrong: 0, incomplete: 0 };
        expect(value).toEqual({ results: { 1: { id: 1, ...expected }, 2: { id: 2, ...expected }, 3: { id: 3, ...expected } }, victimExit: 1 });
      },
      300_000,
    );
  }
});
