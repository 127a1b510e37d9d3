// On the GPU: queue A runs a kernel of about 190 ms; queue B
// (same GPU, or a second GPU where there is one) writes 4 KiB, and that
// write's await must resolve within 2 ms of the write's completion, in every
// completion mode. Before each queue had its own waiting thread the waiter
// mode (then NVIDIA's default) resolved it only when A's kernel ended (189.7 ms).
//
// The write's completion is its profiling end (device clock), put on the
// host clock by an offset taken from 30 waited writes beforehand (the least
// host-after-wait minus device end). Each round prints its figures.
//
//   node --test test/gpu/await-streams.test.mjs
//   OPENCL_INTEROP_GPU_PLATFORM="opencl-interop reference driver" node --test test/gpu/await-streams.test.mjs
//
// The reference driver has no compiler: its long command is the built-in
// copy_buffer made to take 190 ms (REFDRV_COMMAND_DELAY_US=kernel=190000; it
// runs each queue on its own thread, as a GPU runs queues). Its commands and
// callbacks run on the cores this test runs on: the bound there is 50 ms, on
// any other platform 2 ms.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeRun, gpuPlatform, runFresh } from './support.mjs';

const devices = gpuPlatform().getDevices('gpu').length ? gpuPlatform().getDevices('gpu') : gpuPlatform().getDevices();

const source = (twoDevices) => `
(async () => {
  const devices = platform.getDevices('gpu').length ? platform.getDevices('gpu') : platform.getDevices();
  const deviceA = devices[0];
  const deviceB = devices[${twoDevices ? 1 : 0}];
  const contextA = ocl.createContext({ devices: [deviceA] });
  const contextB = ${twoDevices ? 'ocl.createContext({ devices: [deviceB] })' : 'contextA'};
  const queueA = contextA.createQueue(deviceA);
  const queueB = contextB.createQueue(deviceB, { profiling: true });

  // The long command, calibrated to about 190 ms.
  let enqueueLong;
  if (deviceA.compilerAvailable) {
    const program = contextA.createProgram('__kernel void spin(__global float* a, int n) { float x = 0.5f; for (int j = 0; j < n; j++) x = sin(x) * 0.5f + cos(x + j) * 0.5f; a[get_global_id(0)] = x; }');
    await program.build();
    const kernel = program.createKernel('spin').setArgs(contextA.createBuffer(4096), ['int', 1]);
    await queueA.enqueueKernel(kernel, 1);
    let n = 1 << 12;
    for (;;) {
      kernel.setArg(1, n, 'int');
      const started = performance.now();
      await queueA.enqueueKernel(kernel, 1);
      const ms = performance.now() - started;
      if (ms >= 50 || n >= 1 << 30) { n = Math.min(2 ** 31 - 1, Math.ceil(n * 190 / ms)); break; }
      n *= 4;
    }
    kernel.setArg(1, n, 'int');
    enqueueLong = () => queueA.enqueueKernel(kernel, 1);
  } else {
    // The reference driver: its built-in copy, slowed to 190 ms by REFDRV_COMMAND_DELAY_US (set below).
    const program = contextA.createProgramWithBuiltInKernels(['copy_buffer'], [deviceA]);
    const kernel = program.createKernel('copy_buffer').setArgs(contextA.createBuffer(4096), contextA.createBuffer(4096));
    enqueueLong = () => queueA.enqueueKernel(kernel, 4096);
  }

  const target = contextB.createBuffer(4096);
  const bytes = new Uint8Array(4096).fill(3);
  const now = () => process.hrtime.bigint();
  let offset;
  for (let i = 0; i < 30; i++) {
    const write = queueB.writeBuffer(target, bytes);
    write.waitSync();
    const after = now() - write.profiling.end;
    if (offset === undefined || after < offset) offset = after;
  }

  const rounds = [];
  for (let round = 0; round < 3; round++) {
    const long = enqueueLong();
    queueA.flush();
    const longStarted = now();
    let longEnded;
    const longAwait = long.then(() => (longEnded = now()));
    const enqueued = now();
    const write = queueB.writeBuffer(target, bytes);
    await write;
    const resolved = now();
    const longStatus = long.status;
    await longAwait;
    const completedAt = write.profiling.end + offset;
    const ms = (ns) => Number(ns) / 1e6;
    rounds.push({
      writeCompleteAfterMs: +ms(completedAt - enqueued).toFixed(3),
      awaitResolvedAfterMs: +ms(resolved - enqueued).toFixed(3),
      awaitLateByMs: +ms(resolved - completedAt).toFixed(3),
      longMs: +ms(longEnded - longStarted).toFixed(1),
      longStatusWhenWriteResolved: longStatus,
    });
  }
  console.log(JSON.stringify({ completion: queueB.completion, testDriver: platform.name === 'opencl-interop reference driver', devices: [deviceA.name, deviceB.name], twoDevices: ${twoDevices}, rounds }));
})();`;

for (const mode of ['poll', 'waiter', 'callback']) {
  for (const twoDevices of [false, true]) {
    const where = twoDevices ? 'queue A on GPU 0, queue B on GPU 1' : 'two queues on one GPU';
    const skip = twoDevices && devices.length < 2 ? `one device on this platform (${devices.length})` : false;
    describe(`await of a 4 KiB write while a ~190 ms kernel runs (${where}), OPENCL_INTEROP_COMPLETION=${mode}`, { skip }, () => {
      it('resolves within 2 ms of the write completing (50 ms on the reference driver), while the kernel still runs, in each of 3 rounds', async () => {
        const run = await runFresh(source(twoDevices), {
          timeoutMs: 60_000,
          env: { OPENCL_INTEROP_COMPLETION: mode, REFDRV_COMMAND_DELAY_US: 'kernel=190000' },
        });
        assert.equal(run.status, 0, describeRun(run));
        const result = JSON.parse(run.stdout.trim().split('\n').pop());
        console.log(JSON.stringify(result));
        assert.equal(result.completion, mode);
        const boundMs = result.testDriver ? 50 : 2;
        for (const round of result.rounds) {
          assert.ok(round.awaitLateByMs <= boundMs, `late by ${round.awaitLateByMs} ms (bound ${boundMs} ms): ${JSON.stringify(result)}`);
          assert.notEqual(
            round.longStatusWhenWriteResolved,
            'complete',
            `the write's await resolved only after the kernel: ${JSON.stringify(result)}`,
          );
        }
      });
    });
  }
}
