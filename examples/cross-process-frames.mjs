// Video frames across two processes: a producer process (Vulkan only) writes
// NV12 frames into memory it exports; the handles travel once over a Unix
// socket (HandleChannel, SCM_RIGHTS); a consumer process (OpenCL only)
// imports them and converts each frame to RGBA (or, on a device without an
// OpenCL C compiler such as the reference driver, reads the NV12 bytes). Frames
// are handed over by small messages on the same channel: "slot s holds frame
// n" one way, "slot s is free" the other, `--slots` frames in flight. The
// consumer checks frames against the same pattern and conversion on the CPU
// (every frame with --check all, else the first and the last `--slots`) and
// prints frames/s and the mismatch count as JSON.
//
//   node examples/cross-process-frames.mjs [--platform NAME] [--width 3840] [--height 2160] [--frames 600] [--slots 8] [--check all|ends]
//
// Needs an OpenCL platform with cl_khr_external_memory_opaque_fd and a Vulkan
// device with the same UUID (NVIDIA's drivers on Linux; the reference driver
// with REFDRV_DEVICE_UUID set to lavapipe's in CI).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as ocl from '../dist/index.js';
import { nv12ToRgbaBuffersSource, rgbaOnCpu } from './vulkan-nv12-to-rgba.mjs';

const { values: args } = parseArgs({
  options: {
    role: { type: 'string', default: '' },
    platform: { type: 'string', default: 'NVIDIA' },
    width: { type: 'string', default: '3840' },
    height: { type: 'string', default: '2160' },
    frames: { type: 'string', default: '600' },
    slots: { type: 'string', default: '8' },
    check: { type: 'string', default: 'ends' },
  },
});
const width = Number(args.width),
  height = Number(args.height),
  frames = Number(args.frames),
  slotCount = Number(args.slots);
if (width % 4 || height % 2 || !(frames > 0) || !(slotCount > 0))
  throw new Error('--width must be a multiple of 4, --height even, --frames and --slots positive');
// The UV plane starts at a 4096-byte boundary: a sub-buffer origin every device accepts.
const ySize = width * height;
const uvOffset = Math.ceil(ySize / 4096) * 4096;
const frameBytes = uvOffset + ySize / 2;

/** The producer: Vulkan only. */
async function producer(channel) {
  // The consumer names its OpenCL device's UUID first: the Vulkan device must be the same GPU.
  const hello = await channel.receive({ expect: [] });
  const instance = ocl.createVulkanInstance();
  const vulkan = instance.createDevice({ uuid: Uint8Array.from(Buffer.from(hello.data.uuid, 'hex')) });
  const slots = Array.from({ length: slotCount }, () => vulkan.createBuffer({ size: frameBytes }));
  const exported = slots.map((b) => b.exportMemory('opaque-fd'));
  await channel.send(exported, { data: { width, height, uvOffset, frames, slots: slotCount } });
  for (const e of exported) e.dispose(); // the consumer has descriptors of its own now
  let free = slotCount;
  let wake = null;
  const acks = (async () => {
    for (let done = 0; done < frames; done++) {
      await channel.receive({ expect: [] });
      free++;
      wake?.();
    }
  })();
  for (let n = 0; n < frames; n++) {
    while (free === 0) await new Promise((resolve) => (wake = resolve));
    free--;
    const slot = n % slotCount;
    const commands = vulkan.record((r) => r.nv12TestFrame(slots[slot], { frame: n, width, height, yPitch: width, uvOffset, uvPitch: width }));
    await vulkan.queue.submit(commands);
    commands.dispose();
    await channel.send([], { data: { frame: n, slot } });
  }
  await acks;
  for (const b of slots) b.dispose();
  vulkan.dispose();
  instance.dispose();
}

/** The consumer: OpenCL only. */
async function consumer(channel) {
  const platform = ocl.getPlatforms().find((p) => p.name.includes(args.platform) && p.supports('cl_khr_external_memory'));
  if (!platform) throw new Error(`no OpenCL platform named like "${args.platform}" with cl_khr_external_memory`);
  const device = platform.getDevices()[0];
  await channel.send([], { data: { uuid: Buffer.from(device.uuidBytes).toString('hex') } });
  const context = ocl.createContext({ devices: [device] });
  const queue = context.createQueue();
  const memory = ocl.getExternalMemory(platform);
  const { handles, data: layout } = await channel.receive({ expect: Array(slotCount).fill('memory') });
  const imports = handles.map((h) =>
    memory.importPlanes(context, h, {
      format: 'NV12',
      width: layout.width,
      height: layout.height,
      planes: [
        { offset: 0, pitch: layout.width },
        { offset: layout.uvOffset, pitch: layout.width },
      ],
    }),
  );
  // Convert where the device compiles OpenCL C; otherwise read the NV12 bytes as they are.
  let kernel = null,
    rgba = null;
  if (device.compilerAvailable) {
    const program = context.createProgram(nv12ToRgbaBuffersSource);
    await program.build();
    kernel = program.createKernel('nv12_to_rgba');
    kernel.setArg(3, width / 4, 'uint');
    rgba = context.createBuffer(ySize * 4);
    kernel.setArg(2, rgba);
  }
  const checked = (n) => args.check === 'all' || n === 0 || n >= frames - slotCount;
  let mismatches = 0,
    checkedFrames = 0,
    started = 0;
  for (let n = 0; n < frames; n++) {
    const { data } = await channel.receive({ expect: [] });
    if (data.frame !== n) throw new Error(`frame ${data.frame} came where frame ${n} was due`);
    if (n === 0) started = performance.now();
    const frame = imports[data.slot];
    const check = checked(n);
    const seen = check ? new Uint8Array(kernel ? ySize * 4 : frameBytes) : null;
    queue.enqueueAcquireShared(frame.memory).release();
    const reads = [];
    if (kernel) {
      kernel.setArg(0, frame.planes[0]).setArg(1, frame.planes[1]);
      queue.enqueueKernel(kernel, [width / 4, height]).release();
    } else if (check) {
      reads.push(queue.readBuffer(frame.planes[0], seen.subarray(0, ySize)));
      reads.push(queue.readBuffer(frame.planes[1], seen.subarray(uvOffset, uvOffset + ySize / 2)));
    }
    const released = queue.enqueueReleaseShared(frame.memory);
    // A read's bytes are there once its own event completes (not merely a later command's).
    for (const read of [...reads, released]) {
      await read.completed;
      read.release();
    }
    // The slot is the producer's again; the RGBA result is the consumer's own.
    await channel.send([], { data: { free: data.slot } });
    if (!check) continue;
    checkedFrames++;
    if (kernel) {
      await queue.readBuffer(rgba, seen).completed;
      const got = new Uint32Array(seen.buffer),
        want = rgbaOnCpu(n, width, height);
      for (let i = 0; i < want.length; i++) if (got[i] !== want[i]) mismatches++;
    } else {
      const want = ocl.nv12TestFrame(n, width, height);
      for (let i = 0; i < ySize; i++) if (seen[i] !== want.y[i]) mismatches++;
      for (let i = 0; i < ySize / 2; i++) if (seen[uvOffset + i] !== want.uv[i]) mismatches++;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  for (const f of imports) f.release();
  rgba?.release();
  kernel?.release();
  queue.release();
  context.release();
  return {
    platform: platform.name,
    device: device.name,
    width,
    height,
    frames,
    slots: slotCount,
    converted: kernel !== null,
    checkedFrames,
    mismatches,
    framesPerSecond: Number(((frames - 1) / seconds).toFixed(1)),
  };
}

/** Runs both roles in child processes joined by a HandleChannel pair; resolves with the consumer's report. */
export async function runCrossProcessFrames(extraArgs = [], { env = process.env } = {}) {
  const [producerEnd, consumerEnd] = ocl.HandleChannel.pair();
  const self = fileURLToPath(import.meta.url);
  const start = (role, end) =>
    new Promise((resolve) => {
      const child = spawn(process.execPath, [self, '--role', role, ...extraArgs], { env, stdio: ['ignore', 'pipe', 'pipe', end.fd] });
      let stdout = '',
        stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (status, signal) => resolve({ role, status, signal, stdout, stderr }));
    });
  const running = [start('producer', producerEnd), start('consumer', consumerEnd)];
  // The children have their ends; this process keeps none open (a child that dies then ends the other's wait).
  producerEnd.close();
  consumerEnd.close();
  const [made, consumed] = await Promise.all(running);
  for (const r of [made, consumed]) {
    if (r.status !== 0) throw new Error(`the ${r.role} ended with ${r.signal ?? `status ${r.status}`}\n${r.stderr}${r.stdout}`);
  }
  return JSON.parse(consumed.stdout.trim().split('\n').pop());
}

if (args.role) {
  const channel = ocl.HandleChannel.fromFd(3);
  const result = args.role === 'producer' ? await producer(channel) : await consumer(channel);
  channel.close();
  if (result) console.log(JSON.stringify(result));
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const passOn = process.argv.slice(2);
  console.log(JSON.stringify(await runCrossProcessFrames(passOn)));
}
