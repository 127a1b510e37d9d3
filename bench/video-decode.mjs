#!/usr/bin/env node
// H.264 decode on the GPU through the package (Vulkan Video, frames into
// OpenCL) against NVIDIA's own decode API (bench/nvdec_decode.c) in the same
// run, on the same streams:
//   decode      frames/s of N decoders at once (each decoding the whole file,
//               fed in 64 KiB chunks so that parsing is timed too; N = 1, 2,
//               4, 8), every frame released untouched
//   rgba        one decoder, each frame waited for by OpenCL, acquired, turned
//               into RGBA by a kernel (examples/vulkan-nv12-to-rgba.mjs's) in
//               OpenCL memory and released: against decode alone
//   pipeline    the same through a FramePipeline (decoder.pipelineSource, 4
//               slots, a host consumer awaiting each frame's OpenCL work)
//   nvdec       nvdec_decode_c --json --streams 1,2,4,8 on the same file
// Host CPU time per frame (the process's, all threads) beside each figure, and
// js_busy: the share of the wall time the JavaScript thread was busy (its
// event loop utilization; near 1, the thread sets the pace).
// Streams: bash bench/make-video-streams.sh .cache/video-streams (not committed).
//
//   node bench/video-decode.mjs [--dir .cache/video-streams] [--files 1080p,4k] [--decoders 1,2,4,8]
//                               [--repeat 3] [--in-flight 8] [--nvdec cmake-build/bench/nvdec_decode_c] [--no-nvdec] [--json]
//                               [--no-rgba] [--no-pipeline] [--queues own|shared] [--sync semaphores|host] [--threads]
//                               [--workers]
// --workers: each decoder on a worker thread of its own (bench/video-decode-workers.mjs) instead of all on this one.
// --threads (Linux): each record also gives the CPU microseconds a frame of the busiest threads, by name. The RGBA
// and pipeline records name how awaits learn of completion (the queue's `completion`: waiter or callback;
// OPENCL_INTEROP_COMPLETION overrides it).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import * as ocl from '../dist/index.js';
import { nv12ToRgbaBuffersSource } from '../examples/vulkan-nv12-to-rgba.mjs';
import { workersPass } from './video-decode-workers.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    dir: { type: 'string', default: join(root, '.cache/video-streams') },
    files: { type: 'string', default: '1080p,4k' },
    decoders: { type: 'string', default: '1,2,4,8' },
    repeat: { type: 'string', default: '3' },
    'in-flight': { type: 'string', default: '8' },
    nvdec: { type: 'string', default: join(root, 'cmake-build/bench/nvdec_decode_c') },
    'no-nvdec': { type: 'boolean', default: false },
    'no-rgba': { type: 'boolean', default: false },
    queues: { type: 'string' },
    sync: { type: 'string' },
    'no-pipeline': { type: 'boolean', default: false },
    platform: { type: 'string', default: process.env.OPENCL_INTEROP_GPU_PLATFORM || 'NVIDIA' },
    json: { type: 'boolean', default: false },
    threads: { type: 'boolean', default: false },
    workers: { type: 'boolean', default: false },
  },
});
const repeat = Number(args.repeat);
const inFlight = Number(args['in-flight']);
const counts = args.decoders.split(',').map(Number);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const emit = (record) => console.log(JSON.stringify(record));
/** The stream in 64 KiB chunks, as a file or a socket gives it: the bitstream is parsed while the clock runs. */
function* chunks(bytes, size = 1 << 16) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, Math.min(at + size, bytes.length));
}

const platform = ocl.getPlatforms().find((p) => p.name.includes(args.platform));
if (!platform) {
  console.error(`no OpenCL platform's name contains "${args.platform}"`);
  process.exit(2);
}
const device = platform.getDevices('gpu')[0] ?? platform.getDevices()[0];

/** CPU microseconds of each thread of this process so far, by thread name (Linux: /proc/self/task). */
function threadCpu() {
  const byName = new Map();
  if (!args.threads || process.platform !== 'linux') return byName;
  const tick = 1e6 / 100; // USER_HZ
  for (const task of readdirSync('/proc/self/task')) {
    try {
      const name = readFileSync(`/proc/self/task/${task}/comm`, 'utf8').trim();
      const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      byName.set(name, (byName.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) * tick);
    } catch {
      // the thread ended meanwhile
    }
  }
  return byName;
}

/** The busiest threads between two threadCpu() readings, in microseconds a frame. */
function threadsPerFrame(before, after, frames) {
  if (!args.threads) return undefined;
  const out = {};
  const rows = [...after].map(([name, us]) => [name, (us - (before.get(name) ?? 0)) / frames]).filter(([, us]) => us > 0);
  for (const [name, us] of rows.sort((a, b) => b[1] - a[1]).slice(0, 8)) out[name] = Number(us.toFixed(1));
  return out;
}

/** One pass of `n` decoders decoding `bytes` at once: wall seconds, frames, CPU microseconds. */
async function decodePass(contexts, bytes, n) {
  const decoders = contexts.slice(0, n).map(({ context }) => ocl.createVideoDecoder({ context, inFlight, queues: args.queues, sync: args.sync }));
  // An untimed first picture per decoder: sessions, DPB and frames made before the clock starts.
  const runs = decoders.map((d) => d.decode(chunks(bytes))[Symbol.asyncIterator]());
  const firsts = await Promise.all(runs.map((r) => r.next()));
  for (const f of firsts) f.value?.release();
  const threads0 = threadCpu();
  const cpu0 = process.cpuUsage();
  const elu0 = performance.eventLoopUtilization();
  const t0 = process.hrtime.bigint();
  const counted = await Promise.all(
    runs.map(async (run) => {
      let frames = 0;
      for (let r = await run.next(); !r.done; r = await run.next()) {
        r.value.release();
        frames++;
      }
      return frames;
    }),
  );
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = process.cpuUsage(cpu0);
  const jsBusy = performance.eventLoopUtilization(elu0).utilization;
  const frames = counted.reduce((a, b) => a + b, 0);
  const threads = threadsPerFrame(threads0, threadCpu(), frames);
  for (const d of decoders) await d.asyncDispose();
  return { seconds, frames, cpuUs: cpu.user + cpu.system, syncMode: decoders[0].sync, jsBusy, threads };
}

/** One pass of one decoder with the NV12 -> RGBA kernel on every frame. */
async function rgbaPass({ context, queue, kernel }, bytes) {
  const decoder = ocl.createVideoDecoder({ context, inFlight });
  const run = decoder.decode(chunks(bytes))[Symbol.asyncIterator]();
  let rgba = null;
  let frames = 0;
  let threads0 = null;
  let cpu0 = null;
  let t0 = 0n;
  for (let r = await run.next(); !r.done; r = await run.next()) {
    const frame = r.value;
    rgba ??= context.createBuffer(frame.pitch * frame.height * 4);
    frame.wait(queue);
    queue.enqueueAcquireShared(frame.memory).release();
    kernel.setArgs(frame.planes[0], frame.planes[1], rgba, ['uint', frame.pitch / 4]);
    queue.enqueueKernel(kernel, [frame.width / 4, frame.height]).release();
    queue.enqueueReleaseShared(frame.memory).release();
    frame.release(queue);
    if (cpu0 === null) {
      await queue.finish();
      threads0 = threadCpu();
      cpu0 = process.cpuUsage();
      t0 = process.hrtime.bigint();
    } else frames++;
  }
  await queue.finish();
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = process.cpuUsage(cpu0);
  const threads = threadsPerFrame(threads0, threadCpu(), frames);
  await decoder.asyncDispose();
  rgba?.release();
  return { seconds, frames, cpuUs: cpu.user + cpu.system, threads };
}

/** One pass of one decoder through a FramePipeline (decoder.pipelineSource) with the NV12 -> RGBA kernel on every frame. */
async function pipelinePass({ context, queue, kernel }, bytes) {
  const decoder = ocl.createVideoDecoder({ context, inFlight });
  const source = decoder.pipelineSource(queue, chunks(bytes));
  let rgba = null;
  let threads0 = null;
  let cpu0 = null;
  let t0 = 0n;
  let frames = 0;
  const pipeline = new ocl.FramePipeline({
    queue,
    slots: 4,
    produce: source.produce,
    process: source.process((frame) => {
      rgba ??= context.createBuffer(frame.pitch * frame.height * 4);
      kernel.setArgs(frame.planes[0], frame.planes[1], rgba, ['uint', frame.pitch / 4]);
      queue.enqueueKernel(kernel, [frame.width / 4, frame.height]).release();
    }),
    consume: {
      host: async (_slot, f, done) => {
        await done.completed;
        if (f === 0) {
          threads0 = threadCpu();
          cpu0 = process.cpuUsage();
          t0 = process.hrtime.bigint();
        } else frames++;
      },
    },
  });
  await source.run(pipeline);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = process.cpuUsage(cpu0);
  const threads = threadsPerFrame(threads0, threadCpu(), frames);
  pipeline.dispose();
  await decoder.asyncDispose();
  rgba?.release();
  return { seconds, frames, cpuUs: cpu.user + cpu.system, threads };
}

function nvdecRuns(file) {
  return new Promise((resolvePromise) => {
    if (args['no-nvdec']) return resolvePromise({ skipped: true });
    if (!existsSync(args.nvdec))
      return resolvePromise({
        error: `no ${args.nvdec} (npm run build:driver builds it where libnvcuvid's headers are not needed: it loads the library at run time)`,
      });
    const child = spawn(args.nvdec, [file, '--json', '--streams', counts.join(','), '--repeat', String(repeat)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (status) => {
      const lines = out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l));
      resolvePromise(status === 0 ? { lines } : { error: `exit ${status}: ${err.trim().split('\n').slice(-3).join(' / ')}`, lines });
    });
  });
}

const contexts = [];
for (let i = 0; i < Math.max(...counts); i++) {
  const context = ocl.createContext({ devices: [device] });
  contexts.push({ context, queue: context.createQueue() });
}
const program = contexts[0].context.createProgram(nv12ToRgbaBuffersSource);
await program.build();
contexts[0].kernel = program.createKernel('nv12_to_rgba');

for (const name of args.files.split(',')) {
  const file = join(args.dir, `${name}.h264`);
  if (!existsSync(file)) {
    console.error(`${file}: missing (bash bench/make-video-streams.sh ${args.dir})`);
    continue;
  }
  const bytes = readFileSync(file);
  const nvdec = await nvdecRuns(file);
  if (nvdec.error) console.error(`nvdec_decode_c: ${nvdec.error}`);
  const single = { fps: 0 };
  for (const n of counts) {
    const passes = [];
    for (let r = 0; r < repeat; r++)
      passes.push(args.workers ? await workersPass(bytes, n, { platform: args.platform, inFlight }) : await decodePass(contexts, bytes, n));
    const seconds = median(passes.map((p) => p.seconds));
    const frames = passes[0].frames;
    const cpuUs = passes.reduce((a, p) => a + p.cpuUs, 0) / passes.reduce((a, p) => a + p.frames, 0);
    const c = nvdec.lines?.find((l) => l.streams === n);
    const record = {
      bench: 'video_decode',
      file: name,
      decoders: n,
      ...(args.workers ? { threads: 'a worker each' } : { sync: passes[0].syncMode, queues: args.queues ?? 'default' }),
      frames,
      seconds: Number(seconds.toFixed(4)),
      aggregate_fps: Number((frames / seconds).toFixed(1)),
      cpu_us_per_frame: Number(cpuUs.toFixed(1)),
      ...(args.workers ? {} : { js_busy: Number(median(passes.map((p) => p.jsBusy)).toFixed(3)) }),
      ...(args.threads ? { thread_us_per_frame: passes[passes.length - 1].threads } : {}),
      nvdec_aggregate_fps: c?.aggregate_fps ?? null,
      nvdec_cpu_us_per_frame: c?.cpu_us_per_frame ?? null,
      ratio: c ? Number((frames / seconds / c.aggregate_fps).toFixed(3)) : null,
    };
    if (n === 1) single.fps = record.aggregate_fps;
    emit(record);
  }
  const rgbaRuns = [];
  for (let r = 0; r < repeat && !args['no-rgba']; r++) rgbaRuns.push(await rgbaPass(contexts[0], bytes));
  const seconds = median(rgbaRuns.map((p) => p.seconds));
  const frames = rgbaRuns[0]?.frames;
  if (rgbaRuns.length)
    emit({
      bench: 'video_decode_rgba',
      file: name,
      frames,
      seconds: Number(seconds.toFixed(4)),
      fps: Number((frames / seconds).toFixed(1)),
      cpu_us_per_frame: Number((rgbaRuns.reduce((a, p) => a + p.cpuUs, 0) / rgbaRuns.reduce((a, p) => a + p.frames, 0)).toFixed(1)),
      completion: contexts[0].queue.completion,
      ...(args.threads ? { thread_us_per_frame: rgbaRuns[rgbaRuns.length - 1].threads } : {}),
      decode_alone_fps: single.fps,
      ratio_to_decode_alone: single.fps ? Number((frames / seconds / single.fps).toFixed(3)) : null,
    });
  if (!args['no-pipeline']) {
    const runs = [];
    for (let r = 0; r < repeat; r++) runs.push(await pipelinePass(contexts[0], bytes));
    const s = median(runs.map((p) => p.seconds));
    emit({
      bench: 'video_decode_pipeline',
      file: name,
      frames: runs[0].frames,
      seconds: Number(s.toFixed(4)),
      fps: Number((runs[0].frames / s).toFixed(1)),
      cpu_us_per_frame: Number((runs.reduce((a, p) => a + p.cpuUs, 0) / runs.reduce((a, p) => a + p.frames, 0)).toFixed(1)),
      completion: contexts[0].queue.completion,
      ...(args.threads ? { thread_us_per_frame: runs[runs.length - 1].threads } : {}),
      decode_alone_fps: single.fps,
      ratio_to_decode_alone: single.fps ? Number((runs[0].frames / s / single.fps).toFixed(3)) : null,
    });
  }
}
for (const { context, queue } of contexts) {
  queue.release();
  context.release();
}
