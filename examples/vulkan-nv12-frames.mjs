// Vulkan makes NV12 test frames on the GPU in exportable memory, several in
// flight, ordered by semaphores, and checks them byte for byte; then it exports
// a frame's memory as the handle an OpenCL import takes (cl_khr_external_memory).
//   node examples/vulkan-nv12-frames.mjs [width] [height] [slots] [frames]
// (defaults 1920 1080 4 64; 3840 2160 8 1000 for a 4K run on a GPU.)
import * as vk from '../dist/index.js';

const [width = 1920, height = 1080, slots = 4, frames = 64] = process.argv.slice(2).map(Number);
const pitch = Math.ceil(width / 256) * 256; // a row pitch an importer may ask for
const frameBytes = pitch * height * 1.5;

const instance = vk.createVulkanInstance();
for (const d of instance.physicalDevices()) {
  console.log(
    `${d.name} (${d.type}), UUID ${vk.uuidString(d.deviceUUID)}: memory export ${d.memoryExport.join(', ') || 'none'}; semaphore export ${d.semaphoreExport.join(', ') || 'none'}`,
  );
}
// To match an OpenCL device, pass its CL_DEVICE_UUID_KHR bytes: instance.createDevice({ uuid }).
const device = instance.createDevice();

// One buffer per slot and one command sequence per slot, recorded once.
const buffers = Array.from({ length: slots }, () => device.createBuffer({ size: frameBytes }));
const recorded = new Map(); // frame index -> commands, made per frame below (the frame index is recorded)
const order = Array.from({ length: slots }, () => device.createSemaphore({ exportTypes: [] }));

const started = performance.now();
const inFlight = [];
for (let frame = 0; frame < frames; frame++) {
  const slot = frame % slots;
  const commands = device.record((r) =>
    r.nv12TestFrame(buffers[slot], { frame, width, height, yPitch: pitch, uvOffset: pitch * height, uvPitch: pitch }),
  );
  recorded.set(frame, commands);
  // Each slot's frames in order; a second submit, waiting on the first's signal, stands for the consumer.
  inFlight.push(device.queue.submit(commands, { signal: [order[slot]] }));
  inFlight.push(device.queue.submit(null, { wait: [order[slot]] }).then(() => commands.dispose()));
  if (inFlight.length >= 2 * slots) await inFlight.splice(0, 2)[1];
}
await Promise.all(inFlight);
const elapsed = performance.now() - started;

// The last frame of each slot, read back and checked against the CPU's pattern.
let mismatches = 0;
for (let slot = 0; slot < slots; slot++) {
  const frame = frames - slots + slot;
  if (frame < 0) continue;
  const bytes = await buffers[frame % slots].read();
  const expected = vk.nv12TestFrame(frame, width, height, { yPitch: pitch, uvPitch: pitch });
  for (let row = 0; row < height; row++) {
    for (let x = 0; x < width; x++) if (bytes[row * pitch + x] !== expected.y[row * pitch + x]) mismatches++;
  }
  for (let row = 0; row < height / 2; row++) {
    for (let x = 0; x < width; x++) if (bytes[pitch * height + row * pitch + x] !== expected.uv[row * pitch + x]) mismatches++;
  }
}
console.log(
  `${frames} ${width}x${height} NV12 frames in ${slots} slots on ${device.name}: ${(frames / (elapsed / 1000)).toFixed(1)} frames/s, ${mismatches} mismatches`,
);

// What an OpenCL import gets (lib/interop takes this object as it is).
if (device.memoryHandleTypes.length) {
  const exported = buffers[0].exportMemory();
  console.log(`buffer 0 exported: ${exported.handleType} ${exported.handle}, ${exported.size} bytes${exported.dedicated ? ', dedicated' : ''}`);
  exported.dispose(); // an importer that takes the handle over calls exported.relinquish() instead
}
for (const b of buffers) b.dispose();
for (const s of order) s.dispose();
device.dispose();
instance.dispose();
if (mismatches) process.exitCode = 1;
