// video-decode.mjs --workers: N decoders, each on a worker thread of its own
// (its own JavaScript thread, OpenCL context and Vulkan device), decoding the
// same stream at once. The decoders of different threads share the GPU's
// decode queues through the process-wide count of their use
// (lib/video/decode-queues.ts).
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

/** One pass of `n` worker threads, each decoding `bytes` in 64 KiB chunks: wall seconds, frames, CPU microseconds. */
export async function workersPass(bytes, n, { platform, inFlight }) {
  // Each gets a copy (structured clone): V8 reads a SharedArrayBuffer's bytes one by one (relaxed atomics), which the
  // parsing would pay.
  const workers = Array.from({ length: n }, () => new Worker(new URL(import.meta.url), { workerData: { bytes, platform, inFlight } }));
  const next = (worker) =>
    new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  try {
    // Each has decoded its first picture (sessions, DPB and frames made) before the clock starts.
    await Promise.all(workers.map(next));
    const cpu0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    const counted = workers.map(next);
    for (const worker of workers) worker.postMessage('go');
    const frames = (await Promise.all(counted)).reduce((a, b) => a + b, 0);
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const cpu = process.cpuUsage(cpu0);
    return { seconds, frames, cpuUs: cpu.user + cpu.system };
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

if (!isMainThread) {
  const ocl = await import('../dist/index.js');
  const { bytes, platform: name, inFlight } = workerData;
  const device = ocl
    .getPlatforms()
    .find((p) => p.name.includes(name))
    .getDevices('gpu')[0];
  const context = ocl.createContext({ devices: [device] });
  const decoder = ocl.createVideoDecoder({ context, inFlight });
  const chunks = function* () {
    for (let at = 0; at < bytes.length; at += 1 << 16) yield bytes.subarray(at, Math.min(at + (1 << 16), bytes.length));
  };
  const run = decoder.decode(chunks())[Symbol.asyncIterator]();
  (await run.next()).value?.release();
  parentPort.postMessage('ready');
  await new Promise((resolve) => parentPort.once('message', resolve));
  let frames = 1;
  for (let r = await run.next(); !r.done; r = await run.next()) {
    r.value.release();
    frames++;
  }
  await decoder.asyncDispose();
  context.release();
  parentPort.postMessage(frames - 1);
}
