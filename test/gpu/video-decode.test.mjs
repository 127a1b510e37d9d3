// H.264 decoded on the GPU's video decode queue (Vulkan Video) into OpenCL:
// every frame of every committed stream (test/fixtures/h264) read back through
// OpenCL and compared with FFmpeg's per-frame MD5 (its software decoder, NV12,
// cropping applied); unsupported streams refused before any GPU work; a decoder
// disposed with frames in flight, a worker terminated mid-decode and a process
// that ends holding frames, each in a fresh process. Where the device has no
// video decode queue (lavapipe + the reference driver in CI) asking for a
// decoder is the typed VideoDecodeUnsupportedError, and that is what runs.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { exitClock, gpuDevice, ocl, runFresh, vulkanMatches } from './support.mjs';
import { framemd5Reader, readBack } from './video-readback.mjs';

const fixtures = resolve(dirname(fileURLToPath(import.meta.url)), '../fixtures/h264');
const device = gpuDevice();

/** The decoder's answer on this device: a decoder, or the typed error. */
function probe() {
  const context = ocl.createContext({ devices: [device] });
  try {
    const decoder = ocl.createVideoDecoder({ context });
    decoder.dispose();
    return { ok: true };
  } catch (error) {
    return { ok: false, error };
  } finally {
    context.release();
  }
}
const answer = vulkanMatches(device) ? probe() : { ok: false, error: null };
const decodes = answer.ok;

/** FFmpeg's per-frame MD5s of a stream (its .framemd5). */
const expectedMd5s = framemd5Reader(fixtures);

/** Streams with FFmpeg's MD5s beside them. */
const streams = readdirSync(fixtures)
  .filter((f) => f.endsWith('.framemd5'))
  .map((f) => f.replace(/\.framemd5$/, ''))
  .filter((name) => readdirSync(fixtures).includes(`${name}.h264`))
  .sort();

/**
 * Decodes `bytes` and reads every frame back through OpenCL: [md5 of the packed NV12 bytes, ...] in display order.
 * The MD5 is FFmpeg's framemd5 of rawvideo NV12: Y rows of `width` bytes, then UV rows of `width` bytes (even sizes).
 */
async function decodeToMd5s(bytes, { context, queue, frames, inFlight, queues, stopAfter = Infinity, timestamps } = {}) {
  const decoder = ocl.createVideoDecoder({ context, frames, inFlight, queues });
  const md5s = [];
  try {
    for await (const frame of decoder.decode(bytes)) {
      timestamps?.push([frame.decodeIndex, frame.timestamp]);
      const back = readBack(queue, frame);
      await queue.finish();
      frame.release();
      md5s.push(await back.md5());
      if (md5s.length >= stopAfter) break;
    }
  } finally {
    await decoder.asyncDispose();
  }
  return md5s;
}

describe('H.264 decode on the GPU into OpenCL', () => {
  it('on a device without a video decode queue, asking for a decoder is a typed VideoDecodeUnsupportedError', {
    skip: decodes || answer.error === null ? 'this device decodes (or no Vulkan device matches)' : false,
  }, () => {
    assert.ok(answer.error instanceof ocl.VideoDecodeUnsupportedError, String(answer.error));
    assert.equal(answer.error.reason, 'no-decode-queue');
    assert.match(answer.error.message, /no video decode queue/);
  });

  describe('every committed stream equals FFmpeg frame by frame', { skip: !decodes && 'no video decode queue here' }, () => {
    for (const name of streams) {
      it(`${name}: every frame's NV12 bytes equal FFmpeg's (0 mismatched frames, so 0 mismatched bytes)`, async () => {
        const context = ocl.createContext({ devices: [device] });
        const queue = context.createQueue();
        try {
          const expected = expectedMd5s(name);
          const started = process.hrtime.bigint();
          const got = await decodeToMd5s(readFileSync(join(fixtures, `${name}.h264`)), { context, queue });
          const ms = Number(process.hrtime.bigint() - started) / 1e6;
          const mismatched = got.map((m, i) => (m === expected[i] ? -1 : i)).filter((i) => i >= 0);
          console.log(
            `# ${name}: ${got.length} frames of ${expected.length}, ${mismatched.length} mismatched${mismatched.length ? ` (first ${mismatched.slice(0, 8).join(', ')})` : ''}, ${ms.toFixed(0)} ms`,
          );
          assert.equal(got.length, expected.length, 'frames decoded');
          assert.deepEqual(mismatched, [], 'frames whose MD5 differs from FFmpeg');
        } finally {
          queue.release();
          context.release();
        }
      });
    }

    it('fed in chunks (997 bytes, 64 KiB: as a file or a socket gives a stream), every frame equals FFmpeg', async () => {
      const context = ocl.createContext({ devices: [device] });
      const queue = context.createQueue();
      try {
        for (const name of ['slices4', 'b-pyramid', '1080p'])
          for (const size of [997, 1 << 16]) {
            const bytes = readFileSync(join(fixtures, `${name}.h264`));
            const chunks = Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));
            const expected = expectedMd5s(name);
            const got = await decodeToMd5s(chunks, { context, queue });
            const mismatched = got.map((m, i) => (m === expected[i] ? -1 : i)).filter((i) => i >= 0);
            console.log(`# ${name} in chunks of ${size}: ${got.length} frames of ${expected.length}, ${mismatched.length} mismatched`);
            assert.equal(got.length, expected.length, `${name} in chunks of ${size}: frames decoded`);
            assert.deepEqual(mismatched, [], `${name} in chunks of ${size}: frames whose MD5 differs from FFmpeg`);
          }
      } finally {
        queue.release();
        context.release();
      }
    });

    it('one decoder, a stream with an IDR picture every 10 frames and one of IDR pictures only: new sequences start on a spare queue on a second session while the last one decodes, and every frame equals FFmpeg', {
      timeout: 120000,
    }, async () => {
      const context = ocl.createContext({ devices: [device] });
      const queue = context.createQueue();
      try {
        for (const [name, copies] of [
          ['1080p', 6],
          ['idr-only', 8],
        ]) {
          const one = readFileSync(join(fixtures, `${name}.h264`));
          const bytes = Buffer.concat(Array.from({ length: copies }, () => one));
          const expected = Array.from({ length: copies }, () => expectedMd5s(name)).flat();
          const decoder = ocl.createVideoDecoder({ context, inFlight: 8 });
          // Frames read back a few at a time, the decoder pulled on meanwhile, so that its frames stay in flight.
          const md5s = [];
          const pending = [];
          const finishOne = async () => md5s.push(await pending.shift().md5());
          try {
            for await (const frame of decoder.decode(bytes)) {
              pending.push(readBack(queue, frame));
              frame.release(queue);
              queue.flush();
              if (pending.length > 3) await finishOne();
            }
            while (pending.length) await finishOne();
            const mismatched = md5s.map((m, i) => (m === expected[i] ? -1 : i)).filter((i) => i >= 0);
            console.log(
              `# ${name} x${copies}: ${md5s.length} frames of ${expected.length}, ${mismatched.length} mismatched, ${decoder.sessions} sessions, ${decoder.spareStarts} sequences started on a spare queue`,
            );
            assert.equal(md5s.length, expected.length);
            assert.deepEqual(mismatched, []);
            assert.equal(decoder.sessions, 2);
            assert.ok(decoder.spareStarts > 0, 'no sequence started on a spare queue');
          } finally {
            await decoder.asyncDispose();
          }
        }
      } finally {
        queue.release();
        context.release();
      }
    });

    it("packets (one access unit each, with a timestamp): every frame equals FFmpeg and carries its packet's timestamp", async () => {
      const context = ocl.createContext({ devices: [device] });
      const queue = context.createQueue();
      try {
        const bytes = readFileSync(join(fixtures, 'b-pyramid.h264'));
        // Access units: each begins at a slice with first_mb_in_slice 0, or at SEI/SPS/PPS/AUD after a slice.
        const starts = [];
        for (let i = 0; i + 4 < bytes.length; i++) if (bytes[i] === 0 && bytes[i + 1] === 0 && bytes[i + 2] === 1) starts.push(i + 3);
        const units = [];
        let sawSlice = false;
        for (const at of starts) {
          const type = bytes[at] & 31;
          const slice = type === 1 || type === 5;
          const from = at - 3 - (at >= 4 && bytes[at - 4] === 0 ? 1 : 0);
          if (units.length === 0 || (sawSlice && (slice ? (bytes[at + 1] & 0x80) !== 0 : [6, 7, 8, 9].includes(type)))) {
            units.push(from);
            sawSlice = false;
          }
          sawSlice ||= slice;
        }
        const packets = units.map((from, i) => ({ data: bytes.subarray(from, units[i + 1] ?? bytes.length), timestamp: BigInt(i) * 3003n }));
        const timestamps = [];
        const got = await decodeToMd5s(packets, { context, queue, timestamps });
        const expected = expectedMd5s('b-pyramid');
        assert.equal(packets.length, expected.length);
        assert.deepEqual(got, expected);
        const wrong = timestamps.filter(([decodeIndex, timestamp]) => timestamp !== BigInt(decodeIndex) * 3003n);
        console.log(`# b-pyramid as ${packets.length} packets: ${got.length} frames equal FFmpeg, ${wrong.length} with another packet's timestamp`);
        assert.deepEqual(wrong, []);
      } finally {
        queue.release();
        context.release();
      }
    });

    it('more decoders than decode queues at once (queues: shared: the decoders take turns sharing a queue, each moving once its frames are done): every frame of every stream equals FFmpeg', {
      timeout: 180000,
    }, async () => {
      const probeContext = ocl.createContext({ devices: [device] });
      const queues = ocl.createVideoDecoder({ context: probeContext });
      const count = queues.support.decodeQueues + 2;
      queues.dispose();
      probeContext.release();
      const names = ['b-pyramid', 'ref4', 'main-b', 'ip-cabac'];
      const runs = Array.from({ length: count }, (_, i) => names[i % names.length]);
      const contexts = runs.map(() => {
        const context = ocl.createContext({ devices: [device] });
        return { context, queue: context.createQueue() };
      });
      try {
        const results = await Promise.all(
          runs.map((name, i) => decodeToMd5s(readFileSync(join(fixtures, `${name}.h264`)), { ...contexts[i], inFlight: 8, queues: 'shared' })),
        );
        const bad = [];
        results.forEach((got, i) => {
          const expected = expectedMd5s(runs[i]);
          const mismatched = got.filter((m, k) => m !== expected[k]).length + Math.abs(expected.length - got.length);
          if (mismatched) bad.push(`${i}:${runs[i]} ${mismatched}`);
        });
        console.log(
          `# ${count} decoders at once: ${results.reduce((a, r) => a + r.length, 0)} frames, mismatched streams: ${bad.join(', ') || 'none'}`,
        );
        assert.deepEqual(bad, []);
      } finally {
        for (const { context, queue } of contexts) {
          queue.release();
          context.release();
        }
      }
    });

    describe('decode -> OpenCL kernel -> consumer as a FramePipeline (decoder.pipelineSource)', () => {
      // Packs a frame's NV12 rows (pitch apart) into width-byte rows: FFmpeg's framemd5 layout.
      const packSource = `__kernel void pack(__global const uchar* y, __global const uchar* uv, __global uchar* out, uint pitch, uint width, uint height) {
        size_t x = get_global_id(0), r = get_global_id(1);
        if (r < height) out[r * width + x] = y[r * pitch + x];
        else out[r * width + x] = uv[(r - height) * pitch + x];
      }`;
      /** A pipeline over `name`'s frames: the kernel's output read back by the host consumer, hashed; `stopAt`: dispose at that frame. */
      async function pipelineMd5s(name, { slots = 3, lag = 0, stopAt = -1 } = {}) {
        const context = ocl.createContext({ devices: [device] });
        const queue = context.createQueue();
        const program = context.createProgram(packSource);
        await program.build();
        const kernel = program.createKernel('pack');
        const decoder = ocl.createVideoDecoder({ context });
        const md5s = [];
        let pipeline = null;
        try {
          const source = decoder.pipelineSource(queue, readFileSync(join(fixtures, `${name}.h264`)));
          let size = 0;
          pipeline = new ocl.FramePipeline({
            queue,
            slots,
            resources: () => ({ out: null, host: null }),
            produce: source.produce,
            process: source.process((frame, slot) => {
              size = (frame.width * frame.height * 3) / 2;
              slot.resources.out ??= context.createBuffer(size);
              slot.resources.host ??= new Uint8Array(size);
              kernel.setArgs(
                frame.planes[0],
                frame.planes[1],
                slot.resources.out,
                ['uint', frame.pitch],
                ['uint', frame.width],
                ['uint', frame.height],
              );
              queue.enqueueKernel(kernel, [frame.width, (frame.height * 3) / 2]).release();
            }),
            consume: {
              host: async (slot, f) => {
                // Blocking: a staged read whose Event is released at once may land after finish() resolves.
                queue.readBuffer(slot.resources.out, slot.resources.host, { blocking: true }).release();
                md5s[f] = createHash('md5').update(slot.resources.host).digest('hex');
                if (f === stopAt) pipeline.dispose();
              },
            },
          });
          let error = null;
          await source.run(pipeline, { lag }).catch((e) => {
            error = e;
          });
          return { md5s, error, produced: source.produced };
        } finally {
          pipeline?.dispose();
          for (const slot of pipeline?.slots ?? []) slot.resources.out?.release();
          await decoder.asyncDispose();
          kernel.release();
          program.release();
          queue.release();
          context.release();
        }
      }

      for (const [name, slots, lag] of [
        ['ref4', 3, 0],
        ['b-pyramid', 4, 2],
        ['crop-350x198', 2, 1],
      ]) {
        it(`${name}, ${slots} slots, lag ${lag}: every frame through the kernel in display order equals FFmpeg's`, async () => {
          if (!streams.includes(name)) return assert.fail(`no fixture ${name}`);
          const expected = expectedMd5s(name);
          const { md5s, error, produced } = await pipelineMd5s(name, { slots, lag });
          assert.equal(error, null, String(error));
          assert.equal(produced, expected.length, 'frames produced');
          const mismatched = md5s.map((m, i) => (m === expected[i] ? -1 : i)).filter((i) => i >= 0);
          console.log(`# pipeline ${name}: ${md5s.length} frames of ${expected.length}, ${mismatched.length} mismatched`);
          assert.deepEqual(mismatched, [], 'frames whose MD5 differs from FFmpeg');
        });
      }

      it('the pipeline disposed mid-run: FramePipelineDisposedError, the frames before it equal FFmpeg, the decoder disposes, a new run works', async () => {
        const expected = expectedMd5s('ref4');
        const { md5s, error } = await pipelineMd5s('ref4', { stopAt: 5 });
        assert.ok(error instanceof ocl.FramePipelineDisposedError, String(error));
        assert.deepEqual(md5s.slice(0, 6), expected.slice(0, 6));
        const again = await pipelineMd5s('ref4');
        assert.equal(again.error, null, String(again.error));
        assert.deepEqual(again.md5s, expected);
      });
    });

    it('unsupported streams (10-bit, 4:2:2, 4:4:4, MBAFF) are typed H264UnsupportedError before any picture is decoded', async () => {
      const context = ocl.createContext({ devices: [device] });
      const queue = context.createQueue();
      try {
        for (const [name, feature] of [
          ['unsupported-10bit', /bit_depth|profile/],
          ['unsupported-422', /chroma_format_idc|profile/],
          ['unsupported-444', /chroma_format_idc|profile/],
          ['unsupported-mbaff', /mbaff|interlaced/],
        ]) {
          const decoder = ocl.createVideoDecoder({ context });
          try {
            await assert.rejects(
              async () => {
                for await (const frame of decoder.decode(readFileSync(join(fixtures, `${name}.h264`)))) frame.release();
              },
              (error) => error instanceof ocl.H264UnsupportedError && feature.test(error.feature),
              name,
            );
            assert.equal(decoder.decoded, 0, `${name}: nothing reached the GPU`);
          } finally {
            decoder.dispose();
          }
        }
      } finally {
        queue.release();
        context.release();
      }
    });

    it('more decoders than decode queues, every third disposed after 3 frames with decodes in flight: the others move over the queues it left and equal FFmpeg', {
      timeout: 180000,
    }, async () => {
      const probeContext = ocl.createContext({ devices: [device] });
      const first = ocl.createVideoDecoder({ context: probeContext });
      const count = first.support.decodeQueues + 2;
      first.dispose();
      probeContext.release();
      const names = ['ref16', 'gaps', 'open-gop', 'b-pyramid'];
      const runs = Array.from({ length: count }, (_, i) => ({ name: names[i % names.length], stopAfter: i % 3 === 0 ? 3 : Infinity }));
      const contexts = runs.map(() => {
        const context = ocl.createContext({ devices: [device] });
        return { context, queue: context.createQueue() };
      });
      try {
        const results = await Promise.all(
          runs.map(({ name, stopAfter }, i) =>
            decodeToMd5s(readFileSync(join(fixtures, `${name}.h264`)), { ...contexts[i], inFlight: 8, queues: 'shared', stopAfter }),
          ),
        );
        const bad = [];
        results.forEach((got, i) => {
          const expected = expectedMd5s(runs[i].name).slice(0, runs[i].stopAfter);
          const mismatched = got.filter((m, k) => m !== expected[k]).length + Math.abs(expected.length - got.length);
          if (mismatched) bad.push(`${i}:${runs[i].name} ${mismatched}`);
        });
        console.log(
          `# ${count} decoders, ${runs.filter((r) => r.stopAfter < Infinity).length} stopped early: mismatched streams: ${bad.join(', ') || 'none'}`,
        );
        assert.deepEqual(bad, []);
      } finally {
        for (const { context, queue } of contexts) {
          queue.release();
          context.release();
        }
      }
    });

    it('more decoders than decode queues, each fed a 300-frame 1080p stream in 64 KiB chunks and releasing every frame untouched, three rounds: every run ends (decodes chained across decode queues by semaphores stopped the GPU)', {
      timeout: 200000,
    }, async () => {
      const stream = join(fixtures, '1080p.h264');
      const run = await runFresh(
        `(async () => {
          const one = require('node:fs').readFileSync(${JSON.stringify(stream)});
          const bytes = Buffer.concat(Array.from({ length: 30 }, () => one));
          const chunks = () => Array.from({ length: Math.ceil(bytes.length / 65536) }, (_, i) => bytes.subarray(i * 65536, (i + 1) * 65536));
          const probe = ocl.createContext({ devices: [device] });
          const first = ocl.createVideoDecoder({ context: probe });
          const count = first.support.decodeQueues + 1;
          first.dispose();
          probe.release();
          const contexts = Array.from({ length: count }, () => ocl.createContext({ devices: [device] }));
          for (let round = 0; round < 3; round++) {
            const decoders = contexts.map((context) => ocl.createVideoDecoder({ context, inFlight: 8, queues: 'shared' }));
            const frames = await Promise.all(decoders.map(async (decoder) => {
              let n = 0;
              for await (const frame of decoder.decode(chunks())) { frame.release(); n++; }
              return n;
            }));
            for (const d of decoders) await d.asyncDispose();
            console.log('round', round, count, 'decoders', frames.join(' '));
          }
          for (const c of contexts) c.release();
        })().catch((e) => { console.error(e); process.exit(3); });`,
        { timeoutMs: 150_000, exitTimeoutMs: 20_000 },
      );
      console.log(
        run.stdout
          .trim()
          .split('\n')
          .map((l) => `# ${l}`)
          .join('\n'),
      );
      assert.equal(run.timedOut, false, `the decoders stopped making progress: ${run.stdout}${run.stderr}`);
      assert.equal(run.status, 0, run.stderr);
      assert.equal(run.stdout.match(/^round \d+ \d+ decoders( 300)+$/gm)?.length, 3, run.stdout);
    });

    it('a decoder disposed with frames in flight and frames held: the process goes on and exits cleanly', async () => {
      const stream = join(fixtures, 'ref4.h264');
      const run = await runFresh(
        `(async () => {
          const context = ocl.createContext({ devices: [device] });
          const decoder = ocl.createVideoDecoder({ context, inFlight: 8 });
          const held = [];
          for await (const frame of decoder.decode(require('node:fs').readFileSync(${JSON.stringify(stream)}))) {
            held.push(frame);
            if (held.length === 3) break;
          }
          decoder.dispose();
          for (const f of held) f.release();
          console.log('disposed', held.length);
        })().catch((e) => { console.error(e); process.exit(3); });`,
        exitClock,
      );
      assert.equal(run.timedOut, false, run.stderr);
      assert.equal(run.status, 0, run.stderr);
      assert.match(run.stdout, /disposed 3/);
    });

    it('a process that ends holding frames, with decodes in flight: exit status 0, no crash, no hang', async () => {
      const stream = join(fixtures, '1080p.h264');
      const run = await runFresh(
        `(async () => {
          const context = ocl.createContext({ devices: [device] });
          const decoder = ocl.createVideoDecoder({ context, frames: 24, inFlight: 8 });
          const it = decoder.decode(require('node:fs').readFileSync(${JSON.stringify(stream)}));
          const first = await it.next();
          console.log('holding', first.value.width);
          process.exit(0);
        })().catch((e) => { console.error(e); process.exit(3); });`,
        exitClock,
      );
      assert.equal(run.timedOut, false, run.stderr);
      assert.equal(run.status, 0, run.stderr);
      assert.match(run.stdout, /holding 1920/);
    });

    it('a worker terminated mid-decode: the process and its main thread go on', async () => {
      const stream = join(fixtures, '1080p.h264');
      const run = await runFresh(
        `(async () => {
          const { Worker } = require('node:worker_threads');
          const source = ${JSON.stringify(`
            const ocl = require(${JSON.stringify(resolve(dirname(fileURLToPath(import.meta.url)), '../../dist/index.js'))});
            const { parentPort } = require('node:worker_threads');
            const platform = ocl.getPlatforms().find((p) => p.name.includes(process.env.OPENCL_INTEROP_GPU_PLATFORM || 'NVIDIA'));
            const device = platform.getDevices('gpu')[0] ?? platform.getDevices()[0];
            const context = ocl.createContext({ devices: [device] });
            (async () => {
              const decoder = ocl.createVideoDecoder({ context, inFlight: 8 });
              let n = 0;
              for await (const frame of decoder.decode(require('node:fs').readFileSync(${JSON.stringify(stream)}))) {
                frame.release();
                if (++n === 5) parentPort.postMessage('decoding');
              }
            })();
          `)};
          const worker = new Worker(source, { eval: true });
          await new Promise((resolve, reject) => { worker.once('message', resolve); worker.once('error', reject); });
          await worker.terminate();
          console.log('terminated; main thread alive');
        })().catch((e) => { console.error(e); process.exit(3); });`,
        exitClock,
      );
      assert.equal(run.timedOut, false, run.stderr);
      assert.equal(run.status, 0, run.stderr);
      assert.match(run.stdout, /main thread alive/);
    });

    describe('while a new sequence decodes on a spare queue (IDR pictures only, so every picture starts one)', () => {
      const stream = join(fixtures, 'idr-only.h264');
      /** Source that decodes idr-only x8 until a sequence has started on a spare queue and 3 frames are held. */
      const untilSpare = `
        const one = require('node:fs').readFileSync(${JSON.stringify(stream)});
        const bytes = Buffer.concat(Array.from({ length: 8 }, () => one));
        async function untilSpare(decoder, held) {
          for await (const frame of decoder.decode(bytes)) {
            held.push(frame);
            if (held.length > 3) held.shift().release();
            if (decoder.spareStarts > 0 && held.length === 3) return;
          }
          throw new Error('no sequence started on a spare queue');
        }`;

      it('a decoder disposed with frames held and decodes in flight on both queues: the process goes on and exits cleanly', async () => {
        const run = await runFresh(
          `${untilSpare}
          (async () => {
            const context = ocl.createContext({ devices: [device] });
            const decoder = ocl.createVideoDecoder({ context, inFlight: 8 });
            const held = [];
            await untilSpare(decoder, held);
            const sessions = decoder.sessions;
            decoder.dispose();
            for (const f of held) f.release();
            console.log('disposed', sessions, 'sessions', held.length, 'held');
          })().catch((e) => { console.error(e); process.exit(3); });`,
          exitClock,
        );
        assert.equal(run.timedOut, false, run.stderr);
        assert.equal(run.status, 0, run.stderr);
        assert.match(run.stdout, /disposed 2 sessions 3 held/);
      });

      it('a process that ends holding frames: exit status 0, no crash, no hang', async () => {
        const run = await runFresh(
          `${untilSpare}
          (async () => {
            const context = ocl.createContext({ devices: [device] });
            const decoder = ocl.createVideoDecoder({ context, inFlight: 8 });
            await untilSpare(decoder, []);
            console.log('holding on', decoder.sessions, 'sessions');
            process.exit(0);
          })().catch((e) => { console.error(e); process.exit(3); });`,
          exitClock,
        );
        assert.equal(run.timedOut, false, run.stderr);
        assert.equal(run.status, 0, run.stderr);
        assert.match(run.stdout, /holding on 2 sessions/);
      });

      it('a worker terminated there: the process and its main thread go on', async () => {
        const run = await runFresh(
          `(async () => {
            const { Worker } = require('node:worker_threads');
            const source = ${JSON.stringify(`
              const ocl = require(${JSON.stringify(resolve(dirname(fileURLToPath(import.meta.url)), '../../dist/index.js'))});
              const { parentPort } = require('node:worker_threads');
              const platform = ocl.getPlatforms().find((p) => p.name.includes(process.env.OPENCL_INTEROP_GPU_PLATFORM || 'NVIDIA'));
              const device = platform.getDevices('gpu')[0] ?? platform.getDevices()[0];
              const context = ocl.createContext({ devices: [device] });
              const one = require('node:fs').readFileSync(${JSON.stringify(stream)});
              const bytes = Buffer.concat(Array.from({ length: 64 }, () => one));
              (async () => {
                const decoder = ocl.createVideoDecoder({ context, inFlight: 8 });
                let told = false;
                for await (const frame of decoder.decode(bytes)) {
                  frame.release();
                  if (!told && decoder.spareStarts > 0) parentPort.postMessage('spare'), (told = true);
                }
                parentPort.postMessage('ended before the worker was terminated');
              })();
            `)};
            const worker = new Worker(source, { eval: true });
            const said = await new Promise((resolve, reject) => { worker.once('message', resolve); worker.once('error', reject); });
            await worker.terminate();
            console.log(said, '- terminated; main thread alive');
          })().catch((e) => { console.error(e); process.exit(3); });`,
          exitClock,
        );
        assert.equal(run.timedOut, false, run.stderr);
        assert.equal(run.status, 0, run.stderr);
        assert.match(run.stdout, /^spare - terminated; main thread alive/m);
      });
    });
  });
});
