// Frames in flight between Vulkan and OpenCL, ordered by semaphores: a small
// helper over the package's public API (lib/vulkan and the
// cl_khr_external_memory / cl_khr_semaphore facades).
//
// Each of N slots owns two binary semaphores that Vulkan makes and exports as
// opaque fds and OpenCL imports: "input ready" (Vulkan signals it after the
// producer, OpenCL waits on it) and "output ready" (OpenCL signals it after
// its work, Vulkan's consumer waits on it). One frame f in slot f mod N:
//
//   produce(f)  a Vulkan submission of the caller's commands, signalling input ready
//   opencl(f)   wait input ready, acquire the slot's imported memory, the
//               caller's kernels, release, signal output ready, flush
//   consume(f)  a Vulkan submission of the caller's commands after output ready
//
// The order of the submissions decides the speed ('ahead' is the fast one):
//   'naive'  produce(f), opencl(f), consume(f) for each frame in turn: the
//            producer of frame f+1 waits on the Vulkan queue behind the
//            consumer of frame f, which waits for OpenCL: one frame at a time.
//   'ahead'  produce(0..N-1) first, then for each frame opencl(f), consume(f),
//            produce(f+N): each slot's next frame is queued right after its
//            consumer, so N frames are in flight. With `lag` L (0 to N-1), the
//            consumer of frame f is submitted after the OpenCL work of frame
//            f+L: OpenCL's work is queued L frames early, so the host's time
//            for it is off the path each frame takes through the GPU.
// Nobody waits per frame: before it submits the consumer of frame f, the
// helper awaits the consumer of frame f-N (the same slot), which has usually
// finished long before.
//
//   const slots = new FrameSlots({ vulkan: vulkanDevice, queue: clQueue, count: 8 });
//   await slots.run({
//     frames: 1000,
//     acquire: (slot) => [nv12[slot.index], rgba[slot.index]],       // imported CL buffers
//     produce: (slot, frame) => produceCommands[slot.index],         // VulkanCommands
//     opencl: (slot, frame) => { kernel.setArg(...); clQueue.enqueueKernel(kernel, size).release(); },
//     consume: (slot, frame) => consumeCommands[slot.index],
//   });
//   slots.dispose();
import * as ocl from '../dist/index.js';

const ORDERS = ['naive', 'ahead'];

function check(condition, message, Type = TypeError) {
  if (!condition) throw new Type(message);
}

/** N slots of frames in flight between a Vulkan device and an OpenCL queue on the same GPU. */
export class FrameSlots {
  /**
   * @param {{ vulkan: import('../dist/index.js').VulkanDevice, queue: import('../dist/index.js').CommandQueue, count: number }} options
   */
  constructor(options) {
    check(options !== null && typeof options === 'object', 'options must be an object { vulkan, queue, count }');
    const { vulkan, queue, count } = options;
    check(vulkan instanceof ocl.VulkanDevice, 'options.vulkan must be a VulkanDevice');
    check(queue instanceof ocl.CommandQueue, 'options.queue must be a CommandQueue');
    check(Number.isInteger(count) && count >= 1 && count <= 256, `options.count must be an integer from 1 to 256; got ${count}`, RangeError);
    this.vulkan = vulkan;
    this.queue = queue;
    this.semaphores = ocl.getSemaphores(queue.context.platform);
    this.slots = [];
    try {
      for (let index = 0; index < count; index++) {
        const inputReady = vulkan.createSemaphore();
        const outputReady = vulkan.createSemaphore();
        const slot = { index, inputReady, outputReady, clInputReady: null, clOutputReady: null };
        this.slots.push(slot);
        slot.clInputReady = this.semaphores.import(queue.context, inputReady.exportHandle());
        slot.clOutputReady = this.semaphores.import(queue.context, outputReady.exportHandle());
      }
    } catch (error) {
      this.dispose();
      throw error;
    }
  }

  get count() {
    return this.slots.length;
  }

  /**
   * Runs `frames` frames through the slots, in `order` ('ahead' by default;
   * `lag`: see above).
   * produce(slot, frame) and consume(slot, frame) return the VulkanCommands
   * to submit (recorded once, submitted many times); acquire(slot) the
   * imported memory objects OpenCL acquires around opencl(slot, frame), which
   * enqueues the kernels on this.queue. onConsumed(slot, frame), if given, runs
   * once frame's consumer has finished (before the slot is used again).
   * timing, if given, adds the host's milliseconds per phase to its fields
   * produce, opencl, consume and wait (and, when timing.calls is an object,
   * per OpenCL call: wait, acquire, kernels, release, signal, flush).
   * Resolves when every frame is done.
   */
  async run(options) {
    check(options !== null && typeof options === 'object', 'options must be an object');
    const { frames, order = 'ahead', lag = 0, produce, opencl, consume, acquire, onConsumed, timing } = options;
    check(Number.isInteger(frames) && frames >= 0, `options.frames must be a non-negative integer; got ${frames}`, RangeError);
    check(ORDERS.includes(order), `options.order must be one of ${ORDERS.join(', ')}; got ${order}`);
    for (const [name, fn] of Object.entries({ produce, opencl, consume, acquire })) check(typeof fn === 'function', `options.${name} must be a function`);
    check(onConsumed === undefined || typeof onConsumed === 'function', 'options.onConsumed must be a function');
    const n = this.slots.length;
    check(Number.isInteger(lag) && lag >= 0 && lag < n && (lag === 0 || order === 'ahead'), `options.lag must be an integer from 0 to ${n - 1} (the ahead order only); got ${lag}`, RangeError);
    const queue = this.queue;
    const vkQueue = this.vulkan.queue;
    const now = timing ? () => performance.now() : () => 0;
    const t = timing ?? {};
    t.produce ??= 0;
    t.opencl ??= 0;
    t.consume ??= 0;
    t.wait ??= 0;

    // Per slot and run: prepared submissions (checked once; cached per commands object) and acquire lists.
    const state = this.slots.map((slot) => ({
      slot,
      produceSubmissions: new Map(),
      consumeSubmissions: new Map(),
      objects: null,
      waitList: [slot.clInputReady],
      signalList: [slot.clOutputReady],
      consumed: null, // the promise of the last consumer submitted
      consumedFrame: -1,
      produced: null, // the promise of the last producer submitted (a slot's run in queue order)
    }));
    for (const s of state) {
      const objects = acquire(s.slot);
      check(Array.isArray(objects) && objects.length > 0, `acquire(slot ${s.slot.index}) must return a non-empty array of imported memory objects`);
      s.objects = [...objects];
    }
    const prepared = (cache, commands, submitOptions) => {
      let submission = cache.get(commands);
      if (!submission) cache.set(commands, (submission = vkQueue.prepare(commands, submitOptions)));
      return submission;
    };
    const swallow = () => {};

    const produceFrame = (frame) => {
      const s = state[frame % n];
      const t0 = now();
      const promise = prepared(s.produceSubmissions, produce(s.slot, frame), { signal: [s.slot.inputReady] }).submit();
      promise.catch(swallow); // awaited at the end; a rejection must not be unhandled before then
      s.produced = promise;
      t.produce += now() - t0;
    };
    const calls = timing?.calls;
    if (calls) for (const key of ['wait', 'acquire', 'kernels', 'release', 'signal', 'flush']) calls[key] ??= 0;
    const openclFrame = calls
      ? (frame) => {
          const s = state[frame % n];
          const t0 = now();
          this.semaphores.wait(queue, s.waitList).release();
          const t1 = now();
          queue.enqueueAcquireShared(s.objects).release();
          const t2 = now();
          opencl(s.slot, frame);
          const t3 = now();
          queue.enqueueReleaseShared(s.objects).release();
          const t4 = now();
          this.semaphores.signal(queue, s.signalList).release();
          const t5 = now();
          queue.flush();
          const t6 = now();
          calls.wait += t1 - t0;
          calls.acquire += t2 - t1;
          calls.kernels += t3 - t2;
          calls.release += t4 - t3;
          calls.signal += t5 - t4;
          calls.flush += t6 - t5;
          t.opencl += t6 - t0;
        }
      : (frame) => {
          const s = state[frame % n];
          const t0 = now();
          this.semaphores.wait(queue, s.waitList).release();
          queue.enqueueAcquireShared(s.objects).release();
          opencl(s.slot, frame);
          queue.enqueueReleaseShared(s.objects).release();
          this.semaphores.signal(queue, s.signalList).release();
          queue.flush();
          t.opencl += now() - t0;
        };
    const consumeFrame = async (frame) => {
      const s = state[frame % n];
      if (s.consumed) {
        const t0 = now();
        await s.consumed;
        t.wait += now() - t0;
        if (onConsumed) await onConsumed(s.slot, s.consumedFrame);
      }
      const t0 = now();
      s.consumed = prepared(s.consumeSubmissions, consume(s.slot, frame), { wait: [s.slot.outputReady] }).submit();
      s.consumed.catch(swallow);
      s.consumedFrame = frame;
      t.consume += now() - t0;
    };

    if (order === 'ahead') for (let f = 0; f < n && f < frames; f++) produceFrame(f);
    for (let i = 0; i < frames + lag; i++) {
      if (order === 'naive') produceFrame(i);
      if (i < frames) openclFrame(i);
      const f = i - lag; // the frame consumed now
      if (f < 0) continue;
      await consumeFrame(f);
      if (order === 'ahead' && f + n < frames) produceFrame(f + n);
    }
    const t0 = now();
    for (const s of state) {
      await s.produced;
      if (s.consumed) {
        await s.consumed;
        if (onConsumed) await onConsumed(s.slot, s.consumedFrame);
        s.consumed = null;
      }
    }
    await queue.finish();
    t.wait += now() - t0;
  }

  /** Releases the OpenCL semaphores and disposes of the Vulkan ones (once no submission uses them). Idempotent. */
  dispose() {
    for (const slot of this.slots) {
      slot.clInputReady?.release();
      slot.clOutputReady?.release();
      slot.inputReady.dispose();
      slot.outputReady.dispose();
    }
    this.slots = [];
  }

  [Symbol.dispose]() {
    this.dispose();
  }
}
