#!/usr/bin/env node
// Decode an H.264 video on the GPU's video decode queue and run an OpenCL
// kernel on every frame, with no copy through host memory: each decoded
// picture lands in memory OpenCL imported (NV12), the kernel turns it into
// RGBA in OpenCL memory, and the frame goes back to the decoder.
//
//   node examples/video-decode-opencl.mjs FILE.h264|FILE.mp4 [--platform NAME] [--check N]
//
// FILE.h264: an Annex-B byte stream. FILE.mp4: its first H.264 track, taken
// apart by the small box reader below (avcC extradata + length-prefixed
// samples: what node-av's demuxer gives as packet.data and
// codecpar.extradata, which decoder.decode() takes the same way).
// --check N: also reads the RGBA of frame N back and prints its first pixels.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import * as ocl from '../dist/index.js';
import { nv12ToRgbaBuffersSource } from './vulkan-nv12-to-rgba.mjs';

/** The boxes of `bytes` between start and end: [{ type, start (payload), end }]. */
function boxes(bytes, start = 0, end = bytes.length) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = [];
  for (let at = start; at + 8 <= end; ) {
    let size = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    let header = 8;
    if (size === 1) {
      size = Number(view.getBigUint64(at + 8));
      header = 16;
    } else if (size === 0) size = end - at;
    if (size < header || at + size > end) throw new Error(`MP4: box ${type} at ${at} runs past its parent`);
    out.push({ type, start: at + header, end: at + size });
    at += size;
  }
  return out;
}
const child = (bytes, box, type) => boxes(bytes, box.start, box.end).find((b) => b.type === type);

/** The first H.264 track of an MP4: its avcC payload and its samples (length-prefixed NAL units), in decode order. */
export function demuxMp4(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const moov = boxes(bytes).find((b) => b.type === 'moov');
  if (!moov) throw new Error('MP4: no moov box');
  for (const trak of boxes(bytes, moov.start, moov.end).filter((b) => b.type === 'trak')) {
    const stbl = ['mdia', 'minf', 'stbl'].reduce((box, type) => box && child(bytes, box, type), trak);
    const stsd = stbl && child(bytes, stbl, 'stsd');
    if (!stsd) continue;
    // stsd: version/flags, entry count, then sample entries; avc1's fixed part is 78 bytes before its boxes.
    const entry = boxes(bytes, stsd.start + 8, stsd.end)[0];
    if (!entry || (entry.type !== 'avc1' && entry.type !== 'avc3')) continue;
    const avcC = boxes(bytes, entry.start + 78, entry.end).find((b) => b.type === 'avcC');
    if (!avcC) throw new Error('MP4: the avc1 entry has no avcC box');
    const sizes = [];
    const stsz = child(bytes, stbl, 'stsz');
    const fixed = view.getUint32(stsz.start + 4);
    const count = view.getUint32(stsz.start + 8);
    for (let i = 0; i < count; i++) sizes.push(fixed || view.getUint32(stsz.start + 12 + 4 * i));
    const co64 = child(bytes, stbl, 'co64');
    const stco = co64 ?? child(bytes, stbl, 'stco');
    const chunks = [];
    for (let i = 0, n = view.getUint32(stco.start + 4); i < n; i++)
      chunks.push(co64 ? Number(view.getBigUint64(stco.start + 8 + 8 * i)) : view.getUint32(stco.start + 8 + 4 * i));
    const stsc = child(bytes, stbl, 'stsc');
    const runs = [];
    for (let i = 0, n = view.getUint32(stsc.start + 4); i < n; i++) {
      const at = stsc.start + 8 + 12 * i;
      runs.push({ first: view.getUint32(at) - 1, perChunk: view.getUint32(at + 4) });
    }
    const samples = [];
    let sample = 0;
    for (let c = 0; c < chunks.length && sample < sizes.length; c++) {
      const run = runs.findLast((r) => r.first <= c);
      let offset = chunks[c];
      for (let k = 0; k < (run?.perChunk ?? 1) && sample < sizes.length; k++, sample++) {
        samples.push(bytes.subarray(offset, offset + sizes[sample]));
        offset += sizes[sample];
      }
    }
    return { extradata: bytes.subarray(avcC.start, avcC.end), samples };
  }
  throw new Error('MP4: no H.264 (avc1) track');
}

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: { platform: { type: 'string', default: 'NVIDIA' }, check: { type: 'string' } },
});
const file = positionals[0];
if (!file) {
  console.error('usage: node examples/video-decode-opencl.mjs FILE.h264|FILE.mp4 [--platform NAME] [--check N]');
  process.exit(2);
}
const platform = ocl.getPlatforms().find((p) => p.name.includes(args.platform));
if (!platform) throw new Error(`no OpenCL platform's name contains "${args.platform}"`);
const device = platform.getDevices('gpu')[0] ?? platform.getDevices()[0];
const context = ocl.createContext({ devices: [device] });
const queue = context.createQueue();
const program = context.createProgram(nv12ToRgbaBuffersSource);
await program.build();
const kernel = program.createKernel('nv12_to_rgba');

const bytes = readFileSync(file);
const mp4 = /\.(mp4|m4v|mov)$/i.test(file) ? demuxMp4(bytes) : null;
const decoder = ocl.createVideoDecoder({ context }); // the Vulkan device with the OpenCL device's UUID
console.log(`${decoder.support.device}: decode queue ${decoder.queueIndex} of ${decoder.support.decodeQueues}, frames ordered by ${decoder.sync}`);
const input = mp4 ? mp4.samples : bytes;
const options = mp4 ? { format: 'avcc', extradata: mp4.extradata } : undefined;

let rgba = null;
let frames = 0;
const started = performance.now();
for await (const frame of decoder.decode(input, options)) {
  rgba ??= context.createBuffer(frame.pitch * frame.height * 4);
  frame.wait(queue); // OpenCL waits for the decoder's copy (a semaphore, on NVIDIA)
  queue.enqueueAcquireShared(frame.memory).release();
  queue.enqueueKernel(kernel.setArgs(frame.planes[0], frame.planes[1], rgba, ['uint', frame.pitch / 4]), [frame.width / 4, frame.height]).release();
  queue.enqueueReleaseShared(frame.memory).release();
  if (args.check !== undefined && frames === Number(args.check)) {
    const pixels = new Uint32Array(4);
    await queue.readBuffer(rgba, pixels);
    console.log(`frame ${frames} (POC ${frame.poc}): first RGBA pixels ${[...pixels].map((p) => `0x${p.toString(16).padStart(8, '0')}`).join(' ')}`);
  }
  frame.release(queue); // the decoder's next write into it waits for this queue's work
  frames++;
}
await queue.finish();
const seconds = (performance.now() - started) / 1000;
console.log(`${frames} frames decoded and converted to RGBA in OpenCL: ${(frames / seconds).toFixed(1)} frames/s`);
await decoder.asyncDispose();
rgba?.release();
queue.release();
context.release();
