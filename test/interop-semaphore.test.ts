// cl_khr_semaphore and cl_khr_external_semaphore (+ _opaque_fd, _sync_fd)
// through the public API: on the reference driver (through the ICD loader)
// every entry point and error, handle ownership counted in /proc/self/fd; on
// PoCL a typed "not supported" error that leaks no descriptor.
import { closeSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ExportedSemaphoreHandle,
  OpenCLError,
  OpenCLExtensionError,
  OpenCLHandleTypeError,
  OpenCLReleasedError,
  OpenCLStateError,
  Semaphore,
  Semaphores,
  externalTokens,
  getExternalMemory,
  getSemaphores,
} from '../lib';
import { pocl, runNode } from './helpers';
import {
  REF_NAME,
  collectedInFreshProcess,
  isOpen,
  openFds,
  payload,
  platform,
  ref,
  referenceQueue,
  refDevice as device,
  thrownBy,
} from './helpers/ref-driver';

describe('cl_khr_semaphore / cl_khr_external_semaphore on the reference driver', () => {
  const semaphores: Semaphores = getSemaphores(platform);
  const { context, queue } = referenceQueue();
  const { context: other, queue: otherQueue } = referenceQueue();

  it('resolves the facade once per platform (also platform.getSharing); queries: semaphore types, import and export handle types', () => {
    expect(semaphores).toBeInstanceOf(Semaphores);
    expect(getSemaphores(platform)).toBe(semaphores);
    expect(platform.getSharing('cl_khr_semaphore')).toBe(semaphores);
    expect(semaphores.extensions).toEqual([
      'cl_khr_semaphore',
      'cl_khr_external_semaphore',
      'cl_khr_external_semaphore_opaque_fd',
      'cl_khr_external_semaphore_sync_fd',
    ]);
    expect(semaphores.semaphoreTypes()).toEqual(['binary']);
    expect(semaphores.semaphoreTypes(device)).toEqual(['binary']);
    expect(semaphores.importHandleTypes()).toEqual(['opaque-fd', 'sync-fd']);
    expect(semaphores.importHandleTypes(device)).toEqual(['opaque-fd', 'sync-fd']);
    expect(semaphores.exportHandleTypes(device)).toEqual(['opaque-fd', 'sync-fd']);
    expect(() => semaphores.importHandleTypes(pocl().getDevices()[0]!)).toThrow(TypeError);
  });

  it('clCreateSemaphoreWithPropertiesKHR and clGetSemaphoreInfoKHR: a binary semaphore, unsignaled, its properties as given', () => {
    using semaphore = semaphores.create(context);
    expect(semaphore).toBeInstanceOf(Semaphore);
    expect(semaphore.type).toBe('binary');
    expect(semaphore.payload).toBe(0n);
    expect(semaphore.referenceCount).toBe(1);
    expect(semaphore.properties.slice(0, 2)).toEqual([BigInt(externalTokens.CL_SEMAPHORE_TYPE_KHR), 1n]);
    expect(semaphore.exportable).toBe(false);
    expect(semaphore.exportHandleTypes).toEqual([]);
    expect(semaphore.importedFrom).toBeNull();
    expect(semaphore.address).toBeTypeOf('bigint');
    using forDevice = semaphores.create(context, { device });
    expect(forDevice.device).toBe(device);
  });

  it('clEnqueueSignalSemaphoresKHR / clEnqueueWaitSemaphoresKHR: a signal on one queue, the wait on another consumes it', async () => {
    using semaphore = semaphores.create(context);
    const second = context.createQueue();
    const signaled = semaphore.signal(queue);
    const waited = semaphore.wait(second);
    const after = second.enqueueMarker();
    second.flush();
    queue.flush();
    await Promise.all([signaled, waited, after]);
    expect(semaphore.payload).toBe(0n); // the wait consumed the signal
    await semaphores.signal(queue, [semaphore]);
    expect(semaphore.payload).toBe(1n);
    await semaphores.wait(queue, [semaphore]);
    expect(semaphore.payload).toBe(0n);
    for (const event of [signaled, waited, after]) event.release();
    second.release();
  });

  it("opaque fd: exported (the handle is the caller's), imported in another context (the import takes it), one payload for both", async () => {
    const before = openFds();
    const exporter = semaphores.create(context, { exportAs: 'opaque-fd' });
    expect(exporter.exportable).toBe(true);
    expect(exporter.exportHandleTypes).toEqual(['opaque-fd']);
    const withPayload = openFds(); // the driver keeps the payload in a memfd of its own
    const handle = exporter.exportHandle();
    expect(handle).toBeInstanceOf(ExportedSemaphoreHandle);
    expect(handle.handleType).toBe('opaque-fd');
    expect(openFds()).toBe(withPayload + 1);
    // Another API's view of the payload: the same word.
    const view = exporter.exportHandle();
    const imported = semaphores.import(other, handle);
    expect(handle.disposed).toBe(true); // relinquished: the import took it
    // Relinquished twice, or after close(): refused, as a Vulkan exported handle refuses it.
    expect(() => handle.relinquish()).toThrow(OpenCLReleasedError);
    const closed = exporter.exportHandle();
    closed.close();
    expect(() => closed.relinquish()).toThrow(/exported semaphore handle \(closed or relinquished already\)/);
    expect(imported.importedFrom).toBe('opaque-fd');
    expect(imported.deviceListDropped).toBe(false);
    await exporter.signal(queue);
    expect(payload.semaphoreState(view.handle as number)).toBe(1);
    expect(imported.payload).toBe(1n);
    await imported.wait(otherQueue);
    expect(payload.semaphoreState(view.handle as number)).toBe(0);
    // Signaled by "the other API": OpenCL's wait sees it.
    payload.semaphoreState(view.handle as number, 'signal');
    await imported.wait(otherQueue);
    view.close();
    view.close();
    imported.release();
    exporter.release();
    expect(openFds()).toBe(before);
    expect(ref.liveObjects('semaphore')).toBe(0);
  });

  it('sync fd: exported after a signal, imported as a fence, re-imported (clReImportSemaphoreSyncFdKHR), -1 is a fence already signaled', async () => {
    const before = openFds();
    const exporter = semaphores.create(context, { exportAs: 'sync-fd' });
    await exporter.signal(queue);
    const fence = exporter.exportHandle(device);
    expect(fence.handleType).toBe('sync-fd');
    const imported = semaphores.import(other, fence, { device });
    expect(fence.disposed).toBe(true);
    expect(imported.device).toBe(device);
    await imported.wait(otherQueue);
    imported.reimportSyncFd(-1);
    await imported.wait(otherQueue);
    await exporter.signal(queue);
    imported.reimportSyncFd(exporter.exportHandle());
    await imported.wait(otherQueue);
    using signaled = semaphores.import(other, { handleType: 'sync-fd', handle: -1 });
    await signaled.wait(otherQueue);
    imported.release();
    exporter.release();
    expect(openFds()).toBe(before);
  });

  it('imported memory ordered by imported semaphores (the spec\'s "Example With Memory Sharing Using Acquire/Release"): OpenCL runs only after the other API signals, and signals back when its release is done', async () => {
    // "The other API": a DMA-BUF payload and two semaphores whose state words it reads and writes.
    const ready = semaphores.create(other, { exportAs: 'opaque-fd' });
    const done = semaphores.create(other, { exportAs: 'opaque-fd' });
    const readyView = ready.exportHandle();
    const doneView = done.exportHandle();
    const readyCl = semaphores.import(context, ready.exportHandle());
    const doneCl = semaphores.import(context, done.exportHandle());
    const fd = payload.dmaBuf(256);
    payload.write(fd, new Uint8Array(256).fill(1));
    const buffer = getExternalMemory(platform).importBuffer(context, { handleType: 'dma-buf', handle: fd, size: 256 }, { duplicate: true });

    const waited = readyCl.wait(queue);
    const scope = queue.acquire([buffer]);
    const copied = queue.copyBuffer(buffer, buffer, { srcOffset: 0, dstOffset: 128, size: 128 });
    const released = scope.release();
    const signaled = doneCl.signal(queue);
    queue.flush();
    await new Promise((r) => setTimeout(r, 50));
    expect(waited.status).not.toBe('complete');
    expect(payload.semaphoreState(doneView.handle as number)).toBe(0);

    const written = Uint8Array.from({ length: 256 }, (_, i) => (i < 128 ? i + 7 : 0));
    payload.write(fd, written);
    payload.semaphoreState(readyView.handle as number, 'signal');
    await signaled;
    expect(payload.semaphoreState(doneView.handle as number)).toBe(1);
    const seen = payload.read(fd, 256);
    expect(seen.subarray(128)).toEqual(written.subarray(0, 128)); // the copy ran after the other API's write
    for (const event of [waited, scope.event, copied, released, signaled]) event.release();
    buffer.release();
    closeSync(fd);
    for (const s of [readyCl, doneCl, ready, done]) s.release();
    readyView.close();
    doneView.close();
  });

  it("ownership: a failed import leaves the fd to the caller; duplicate keeps the caller's; counted in /proc/self/fd", () => {
    const notASemaphore = payload.dmaBuf();
    const before = openFds();
    let relinquished = 0;
    expect(() => semaphores.import(context, { handleType: 'opaque-fd', handle: notASemaphore, relinquish: () => relinquished++ })).toThrow(
      OpenCLError,
    );
    expect(relinquished).toBe(0);
    expect(isOpen(notASemaphore)).toBe(true);
    expect(() => semaphores.import(context, { handleType: 'opaque-fd', handle: notASemaphore }, { duplicate: true })).toThrow(OpenCLError);
    expect(openFds()).toBe(before);
    closeSync(notASemaphore);
    const exporter = semaphores.create(context, { exportAs: 'opaque-fd' });
    const handle = exporter.exportHandle();
    const copy = semaphores.import(context, handle, { duplicate: true });
    expect(handle.disposed).toBe(false);
    expect(isOpen(handle.handle as number)).toBe(true);
    copy.release();
    handle.close();
    expect(handle.disposed).toBe(true);
    exporter.release();
    expect(openFds()).toBe(before - 1);
  });

  it('typed errors: handle types the device cannot export or import, export without exportAs, re-import of a non-sync-fd semaphore, released and foreign semaphores', () => {
    const error = thrownBy(() => semaphores.create(context, { exportAs: 'opaque-win32' }));
    expect(error).toBeInstanceOf(OpenCLHandleTypeError);
    expect((error as OpenCLHandleTypeError).extension).toBe('cl_khr_external_semaphore_win32');
    expect((error as OpenCLHandleTypeError).supported).toEqual(['opaque-fd', 'sync-fd']);
    expect((error as Error).message).toMatch(/cannot export opaque-win32 handles; exportable: opaque-fd, sync-fd/);
    expect(() => semaphores.import(context, { handleType: 'opaque-win32-kmt', handle: 8n })).toThrow(
      /cannot import opaque-win32-kmt handles; importable: opaque-fd, sync-fd/,
    );
    expect(() => semaphores.create(context, { exportAs: 'bogus' as never })).toThrow(TypeError);
    expect(() => semaphores.import(context, { handleType: 'opaque-fd', handle: -1 })).toThrow(TypeError);
    expect(() => semaphores.import(context, { handleType: 'sync-fd', handle: 1.5 })).toThrow(TypeError);
    using plain = semaphores.create(context);
    expect(() => plain.exportHandle()).toThrow(/not created to be exported/);
    expect(() => plain.reimportSyncFd(-1)).toThrow(OpenCLError);
    try {
      plain.reimportSyncFd(-1);
    } catch (e) {
      expect((e as OpenCLError).code).toBe('CL_INVALID_SEMAPHORE_KHR');
    }
    expect(() => semaphores.wait(queue, [])).toThrow(TypeError);
    expect(() => semaphores.wait(queue, [{} as never])).toThrow(TypeError);
    expect(() => semaphores.signal(queue, [plain], { payloads: [1n, 2n] })).toThrow(TypeError);
    expect(() => plain.wait(otherQueue)).toThrow(/CL_INVALID_CONTEXT/);
    expect(() => semaphores.create({} as never)).toThrow(TypeError);
    expect(() => semaphores.create(context, { device: pocl().getDevices()[0]! })).toThrow(TypeError);
    const gone = semaphores.create(context);
    gone.release();
    gone.release();
    expect(gone.released).toBe(true);
    expect(() => gone.signal(queue)).toThrow(OpenCLReleasedError);
    expect(() => gone.payload).toThrow(OpenCLReleasedError);
  });

  it('an ExportedSemaphoreHandle dropped without close() is closed by garbage collection, as a VulkanExportedHandle is (fresh process)', async () => {
    const [before, after] = await collectedInFreshProcess(`
      const { fstatSync } = require('node:fs');
      const open = (fd) => { try { fstatSync(fd); return true; } catch { return false; } };
      const semaphore = ocl.getSemaphores(platform).create(context, { exportAs: 'opaque-fd' });
      const fds = [];
      for (let i = 0; i < 20; i++) fds.push(semaphore.exportHandle().handle);
      left = () => fds.filter(open).length;`);
    expect([before, after]).toEqual([20, 0]);
  });

  it('a semaphore dropped without release is released by garbage collection (fresh process)', async () => {
    const [before, after] = await collectedInFreshProcess(`
      for (let i = 0; i < 50; i++) ocl.getSemaphores(platform).create(context);
      left = () => ref.liveObjects('semaphore');`);
    expect([before, after]).toEqual([50, 0]);
  });
});

describe('cl_khr_semaphore "Waiting On and Signaling Semaphores": what only OpenCL can signal, the binding tracks', () => {
  const semaphores: Semaphores = getSemaphores(platform);
  const { context, queue } = referenceQueue();

  it('a wait on a semaphore made in OpenCL, never signaled and never exported, is an OpenCLStateError before the driver; a signal first makes it legal', async () => {
    using semaphore = semaphores.create(context);
    expect(semaphore.shared).toBe(false);
    expect(semaphore.signalPending).toBe(false);
    const error = thrownBy(() => semaphore.wait(queue));
    expect(error).toBeInstanceOf(OpenCLStateError);
    expect((error as Error).message).toMatch(/^semaphores\[0\]: a wait on a semaphore with no signal pending would never end/);
    expect((error as Error).message).toMatch(/Enqueue the signal first/);
    queue.finishSync(); // nothing was enqueued: returns
    const signaled = semaphore.signal(queue);
    expect(semaphore.signalPending).toBe(true);
    const waited = semaphore.wait(queue);
    expect(semaphore.signalPending).toBe(false);
    await Promise.all([signaled, waited]);
    expect(() => semaphore.wait(queue)).toThrow(OpenCLStateError); // the signal was consumed
  });

  it('a binary semaphore signaled twice without a wait between ("may lead to undefined behavior"; NVIDIA hangs) is refused', async () => {
    using semaphore = semaphores.create(context);
    const first = semaphore.signal(queue);
    const error = thrownBy(() => semaphores.signal(queue, [semaphore]));
    expect(error).toBeInstanceOf(OpenCLStateError);
    expect((error as Error).message).toMatch(/previous signal has not been waited on yet; signaling it again before a wait is undefined/);
    await semaphore.wait(queue);
    await semaphore.signal(queue);
    await semaphore.wait(queue);
    first.release();
  });

  it('a semaphore listed twice in one wait or signal is a TypeError naming both places (one wait consumes one signal: the second would never come)', async () => {
    using a = semaphores.create(context);
    using b = semaphores.create(context);
    await semaphores.signal(queue, [a, b]);
    expect(() => semaphores.wait(queue, [a, b, a])).toThrow(new TypeError('semaphores[2] is semaphores[0] again: list each semaphore once'));
    expect(() => semaphores.signal(queue, [b, b])).toThrow(TypeError);
    await semaphores.wait(queue, [a, b]);
  });

  it("a signal or a wait behind an unset user event is refused before the driver (NVIDIA's return only once their wait list has ended: never, there)", async () => {
    using semaphore = semaphores.create(context);
    const gate = context.createUserEvent();
    const refused =
      /^clEnqueueSignalSemaphoresKHR \(on NVIDIA's driver it returns only once its wait list has ended\) would block for ever: the command waits on a user event that is not set yet\. Set it first \(userEvent\.setStatus\(\)\), then enqueue this command\.$/;
    expect(() => semaphore.signal(queue, { waitFor: [gate] })).toThrow(refused);
    expect(semaphore.signalPending).toBe(false);
    expect(() => semaphore.wait(queue)).toThrow(OpenCLStateError); // nothing was signaled
    await semaphore.signal(queue);
    expect(() => semaphore.wait(queue, { waitFor: [gate] })).toThrow(/^clEnqueueWaitSemaphoresKHR \(on NVIDIA's driver/);
    gate.setStatus('complete');
    await semaphore.wait(queue, { waitFor: [gate] });
    gate.release();
  });

  it('exported or imported semaphores are not tracked: another API signals and waits on them too', async () => {
    using exporter = semaphores.create(context, { exportAs: 'opaque-fd' });
    const view = exporter.exportHandle();
    expect(exporter.shared).toBe(true);
    const waited = exporter.wait(queue); // the other API signals it
    payload.semaphoreState(view.handle as number, 'signal');
    await waited;
    using imported = semaphores.import(context, exporter.exportHandle());
    expect(imported.shared).toBe(true);
    payload.semaphoreState(view.handle as number, 'signal');
    await imported.wait(queue);
    view.close();
  });

  // The five forms of the issue, each in a fresh process: before the refusals each one never ended.
  const prelude = `
    const platform = ocl.getPlatforms().find((p) => p.name === ${JSON.stringify(REF_NAME)});
    const context = ocl.createContext({ devices: platform.getDevices() });
    const queue = context.createQueue();
    const semaphores = ocl.getSemaphores(platform);
    const s = semaphores.create(context);
    const refused = (fn) => { try { fn(); console.log('accepted'); } catch (e) { console.log(e.name); } };`;
  const forms: [string, string, string[]][] = [
    [
      'a wait nothing signals, then queue.finishSync()',
      'refused(() => s.wait(queue)); queue.finishSync(); console.log("returned");',
      ['OpenCLStateError', 'returned'],
    ],
    [
      'a wait nothing signals, then a blocking read',
      'refused(() => s.wait(queue)); const b = context.createBuffer(16); queue.readBuffer(b, new Uint8Array(16), { blocking: true }); console.log("returned");',
      ['OpenCLStateError', 'returned'],
    ],
    [
      'an awaited wait nothing signals',
      '(async () => { try { await s.wait(queue); console.log("resolved"); } catch (e) { console.log(e.name); } })();',
      ['OpenCLStateError'],
    ],
    [
      'semaphores.wait(queue, [s, s]) after one signal',
      's.signal(queue); refused(() => semaphores.wait(queue, [s, s])); queue.finishSync(); console.log("returned");',
      ['TypeError', 'returned'],
    ],
    [
      'a semaphore released with a gated wait pending whose gate then completes',
      'const gate = context.createUserEvent(); refused(() => s.wait(queue, { waitFor: [gate] })); s.release(); gate.setStatus("complete"); queue.finish().then(() => console.log("finished"));',
      ['OpenCLStateError', 'finished'],
    ],
  ];
  for (const [name, body, printed] of forms) {
    it(`fresh process: ${name}: a typed error, and the process exits`, async () => {
      const run = await runNode(prelude + body, { timeout: 30_000 });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout.trim().split('\n')).toEqual(printed);
    });
  }
});

describe('semaphores on PoCL: not supported, a typed error, no descriptor leaked', () => {
  it("getSemaphores names cl_khr_semaphore; the caller's fd stays open", () => {
    const platform = pocl();
    const before = openFds();
    const error = thrownBy(() => getSemaphores(platform));
    expect(error).toBeInstanceOf(OpenCLExtensionError);
    expect((error as OpenCLExtensionError).extension).toBe('cl_khr_semaphore');
    expect(() => platform.getSharing('cl_khr_semaphore')).toThrow(OpenCLExtensionError);
    expect(openFds()).toBe(before);
  });
});
