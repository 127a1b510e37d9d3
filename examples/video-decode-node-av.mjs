#!/usr/bin/env node
// An MP4 demuxed by node-av, its H.264 track decoded on the GPU's video decode
// queue, and an OpenCL kernel run on every frame, with no copy through host
// memory. node-av (FFmpeg's demuxers) hands out the track's `avcC` extradata
// and its packets; the package's decoder takes exactly that.
//
//   npm install node-av
//   node examples/video-decode-node-av.mjs FILE.mp4 [--platform NAME]
//
// node-av's low-level FormatContext is used because it runs on Node.js 20;
// its higher-level Demuxer needs Node.js 22.
import { parseArgs } from 'node:util';
import * as ocl from '../dist/index.js';
import { nv12ToRgbaBuffersSource } from './vulkan-nv12-to-rgba.mjs';

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: { platform: { type: 'string', default: 'NVIDIA' } },
});
const file = positionals[0];
if (!file) {
  console.error('usage: node examples/video-decode-node-av.mjs FILE.mp4 [--platform NAME]');
  process.exit(2);
}
let av;
try {
  av = await import('node-av/lib');
} catch {
  console.error('this example needs node-av: npm install node-av');
  process.exit(2);
}

const AVMEDIA_TYPE_VIDEO = 0;
const AV_CODEC_ID_H264 = 27;
const format = new av.FormatContext();
await format.openInput(file);
await format.findStreamInfo();
const stream = format.streams.find((s) => s.codecpar.codecType === AVMEDIA_TYPE_VIDEO);
if (!stream || stream.codecpar.codecId !== AV_CODEC_ID_H264) throw new Error(`${file} has no H.264 video track`);
const extradata = stream.codecpar.extradata; // the avcC record: SPS, PPS and the NAL length size

/** The track's packets in decode order, each one access unit of length-prefixed NAL units, with its presentation time. */
async function* packets() {
  const packet = new av.Packet();
  packet.alloc();
  try {
    while ((await format.readFrame(packet)) >= 0) {
      if (packet.streamIndex === stream.index && packet.data) yield { data: Uint8Array.from(packet.data), timestamp: packet.pts };
      packet.unref();
    }
  } finally {
    packet.free();
  }
}

const platform = ocl.getPlatforms().find((p) => p.name.includes(args.platform));
if (!platform) throw new Error(`no OpenCL platform's name contains "${args.platform}"`);
const device = platform.getDevices('gpu')[0] ?? platform.getDevices()[0];
const context = ocl.createContext({ devices: [device] });
const queue = context.createQueue();
const program = context.createProgram(nv12ToRgbaBuffersSource);
await program.build();
const kernel = program.createKernel('nv12_to_rgba');
const decoder = ocl.createVideoDecoder({ context }); // the Vulkan device with the OpenCL device's UUID

let rgba = null;
let frames = 0;
let outOfOrder = 0;
let last = null;
const started = performance.now();
for await (const frame of decoder.decode(packets(), { format: 'avcc', extradata })) {
  rgba ??= context.createBuffer(frame.pitch * frame.height * 4);
  frame.wait(queue); // OpenCL waits for the decode
  queue.enqueueAcquireShared(frame.memory).release();
  queue.enqueueKernel(kernel.setArgs(frame.planes[0], frame.planes[1], rgba, ['uint', frame.pitch / 4]), [frame.width / 4, frame.height]).release();
  queue.enqueueReleaseShared(frame.memory).release();
  frame.release(queue); // the decoder's next write into this frame waits for the kernel
  // frame.timestamp: its packet's pts. Frames come in display order, so the times only grow.
  if (last !== null && frame.timestamp <= last) outOfOrder++;
  last = frame.timestamp;
  frames++;
}
await queue.finish();
const seconds = (performance.now() - started) / 1000;
const { num, den } = stream.timeBase;
console.log(
  `${frames} frames of ${file} demuxed by node-av, decoded on the GPU and converted to RGBA in OpenCL: ${(frames / seconds).toFixed(1)} frames/s`,
);
console.log(`presentation times: the last frame at ${((Number(last) * num) / den).toFixed(3)} s; ${outOfOrder} frames out of display order`);
await decoder.asyncDispose();
await format.closeInput();
rgba?.release();
queue.release();
context.release();
