// Exported handles between processes (lib/ipc): HandleChannel over a Unix
// SOCK_SEQPACKET socket with SCM_RIGHTS (cmsg(3), unix(7) "SCM_RIGHTS"), on
// lavapipe (the producer's Vulkan) and the reference driver (the consumer's
// OpenCL). Descriptors are counted in /proc/self/fd around every case.
import { closeSync, openSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HandleChannel, HandleChannelError, ReceivedHandle, createContext, createVulkanInstance, getExternalMemory } from '../lib';
import { nativeAddon } from '../lib/native-addon';
import { repoRoot, runNode } from './helpers';
import { isOpen, openFds, payload, platform, refDevice } from './helpers/ref-driver';

const lavapipeUuid = (): string => {
  const instance = createVulkanInstance();
  try {
    return Buffer.from(instance.physicalDevices()[0]!.deviceUUID).toString('hex');
  } finally {
    instance.dispose();
  }
};

async function rejection(promise: Promise<unknown>): Promise<HandleChannelError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(HandleChannelError);
    return error as HandleChannelError;
  }
  throw new Error('it resolved');
}

describe('HandleChannel in one process: what travels, and who owns it', () => {
  it('memory and a semaphore fd travel with their description and data; the receiver owns new descriptors, the sender keeps its own', async () => {
    const before = openFds();
    const [a, b] = HandleChannel.pair();
    const memoryFd = payload.opaqueFd(4096);
    payload.write(memoryFd, new Uint8Array([1, 2, 3, 4]), { opaque: true });
    const semaphoreFd = payload.dmaBuf(64); // any descriptor: what SCM_RIGHTS carries is not inspected
    await a.send(
      [
        { handleType: 'opaque-fd', handle: memoryFd, size: 4096, tiling: 'linear' },
        { handleType: 'sync-fd', handle: semaphoreFd },
      ],
      { data: { frame: 7 } },
    );
    const { handles, data } = await b.receive({ expect: ['memory', 'semaphore'] });
    expect(data).toEqual({ frame: 7 });
    const [memory, semaphore] = handles;
    expect(memory).toBeInstanceOf(ReceivedHandle);
    expect(memory).toMatchObject({ kind: 'memory', handleType: 'opaque-fd', size: 4096, dedicated: false, tiling: 'linear', owned: true });
    expect(semaphore).toMatchObject({ kind: 'semaphore', handleType: 'sync-fd', size: 0 });
    expect(memory.handle).not.toBe(memoryFd);
    expect(payload.read(memory.handle, 4, { opaque: true })).toEqual(new Uint8Array([1, 2, 3, 4])); // the same file
    // Imported, the received descriptor is OpenCL's: released with the buffer, once.
    const context = createContext({ devices: [refDevice] });
    const buffer = getExternalMemory(platform).importBuffer(context, memory);
    expect(memory.owned).toBe(false);
    expect(memory.disposed).toBe(true);
    buffer.release();
    expect(isOpen(memory.handle)).toBe(false);
    const unrelated = openSync('/dev/null', 'r'); // may reuse the number: nothing may close it now
    memory.dispose();
    semaphore.dispose();
    semaphore.dispose();
    expect(isOpen(unrelated)).toBe(true);
    closeSync(unrelated);
    expect(isOpen(memoryFd)).toBe(true); // the sender's stays the sender's
    closeSync(memoryFd);
    closeSync(semaphoreFd);
    context.release();
    a.close();
    b.close();
    expect(openFds()).toBe(before);
  });

  it('a Vulkan export sent and received imports as the export itself would (lavapipe -> reference driver)', async () => {
    process.env.REFDRV_DEVICE_UUID = lavapipeUuid();
    try {
      const [a, b] = HandleChannel.pair();
      const instance = createVulkanInstance();
      const vk = instance.createDevice();
      const vkBuffer = vk.createBuffer({ size: 8192 });
      await vkBuffer.write(new Uint8Array(8192).fill(0x5a));
      const exported = vkBuffer.exportMemory();
      await a.send([exported]);
      exported.dispose();
      const { handles } = await b.receive({ expect: ['memory'] });
      const context = createContext({ devices: [refDevice] });
      const queue = context.createQueue();
      const clBuffer = getExternalMemory(platform).importBuffer(context, handles[0]);
      const seen = new Uint8Array(16);
      {
        await using _ = queue.acquire([clBuffer]);
        await queue.readBuffer(clBuffer, seen);
        await queue.fillBuffer(clBuffer, new Uint8Array([0xa5]), { size: 16 });
      }
      expect(seen.every((x) => x === 0x5a)).toBe(true);
      expect((await vkBuffer.read(0, 16)).every((x) => x === 0xa5)).toBe(true);
      clBuffer.release();
      queue.release();
      context.release();
      vkBuffer.dispose();
      vk.dispose();
      instance.dispose();
      a.close();
      b.close();
    } finally {
      delete process.env.REFDRV_DEVICE_UUID;
    }
  });

  it('bad handles and options are TypeErrors / RangeErrors before anything is sent', () => {
    using pair = (() => {
      const [a, b] = HandleChannel.pair();
      return { a, b, [Symbol.dispose]: () => (a.close(), b.close()) };
    })();
    const { a } = pair;
    expect(() => a.send('x' as never)).toThrow(TypeError);
    expect(() => a.send([{ handleType: 'opaque-win32', handle: 5n, size: 4 }])).toThrow(
      /handles\[0\]\.handleType must be one of 'opaque-fd', 'dma-buf', 'sync-fd'.*; got .*opaque-win32/,
    );
    expect(() => a.send([{ handleType: 'sync-fd', handle: -1 }])).toThrow(/a fence already signaled, has no descriptor to send/);
    expect(() => a.send([{ handleType: 'dma-buf', handle: 0 }])).toThrow(/is memory: its size/);
    expect(() => a.send([{ handleType: 'sync-fd', handle: 0, kind: 'memory', size: 4 }])).toThrow(/only semaphore has/);
    expect(() => a.send([{ handleType: 'opaque-fd', handle: 0, size: 4, disposed: true }])).toThrow(/was disposed/);
    expect(() =>
      a.send([
        { handleType: 'opaque-fd', handle: 0, size: 4 },
        { handleType: 'opaque-fd', handle: 0, size: 4 },
      ]),
    ).toThrow(/twice/);
    expect(() => a.send([], { data: 'x'.repeat(20000) })).toThrow(RangeError);
    expect(() => a.send([], { data: 1n })).toThrow(/options\.data must be a JSON value/);
    expect(() => a.send([], { tag: 1 } as never)).toThrow(/not an option/);
    expect(() => a.receive({ expect: ['buffer'] as never })).toThrow(/options\.expect\[0\] must be 'memory' or 'semaphore'/);
    expect(() => a.receive({ timeout: -1 })).toThrow(RangeError);
    expect(() => HandleChannel.fromFd(-1)).toThrow(RangeError);
    const file = openSync('/dev/null', 'r');
    expect(() => HandleChannel.fromFd(file)).toThrow(/fd \d+ must be a connected Unix SOCK_SEQPACKET socket .*it is not a socket/);
    closeSync(file);
    expect(() => HandleChannel.connect('x'.repeat(200))).toThrow(RangeError);
    expect(() => HandleChannel.connect('/nonexistent/socket')).toThrow(HandleChannelError);
  });

  it('a truncated message, descriptors missing, another protocol, unexpected kinds: typed errors, and every descriptor that arrived is closed', async () => {
    const before = openFds();
    const [raw, peer] = nativeAddon().ipcSocketPair();
    const b = new (HandleChannel as unknown as new (n: unknown) => HandleChannel)(peer);
    const fd = payload.dmaBuf(64);
    const header = (handles: unknown[]) => new TextEncoder().encode(JSON.stringify({ protocol: 'opencl-interop handles', handles }));
    const mem = { kind: 'memory', handleType: 'opaque-fd', size: 64, dedicated: false };
    raw.send(new Uint8Array(70_000), [fd]);
    expect((await rejection(b.receive())).reason).toBe('truncated');
    raw.send(header([mem, mem]), [fd]);
    expect((await rejection(b.receive())).message).toMatch(/describes 2 handle\(s\) and 1 descriptor\(s\) came with it/);
    raw.send(new TextEncoder().encode('{"hello":1}'), [fd]);
    expect((await rejection(b.receive())).reason).toBe('bad-message');
    raw.send(header([{ ...mem, handleType: 'sync-fd' }]), [fd]);
    expect((await rejection(b.receive())).reason).toBe('bad-message');
    raw.send(header([mem]), [fd]);
    const wrong = await rejection(b.receive({ expect: ['semaphore'] }));
    expect(wrong.reason).toBe('wrong-kind');
    expect(wrong.message).toMatch(/expected handles of kinds \[semaphore\]; got \[memory\]/);
    raw.send(header([mem]), []);
    expect((await rejection(b.receive())).reason).toBe('missing-handles');
    closeSync(fd);
    expect(openFds()).toBe(before + 2); // the two ends: whatever arrived is closed
    raw.close();
    const closed = await rejection(b.receive());
    expect(closed.reason).toBe('closed');
    b.close();
    expect(openFds()).toBe(before);
  });

  it('a receive that nothing answers ends at options.timeout; a listener at a path accepts, and close() removes its file', async () => {
    const [a, b] = HandleChannel.pair();
    const started = Date.now();
    const late = await rejection(b.receive({ timeout: 100 }));
    expect(late.reason).toBe('timeout');
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    expect(b.closed).toBe(true);
    a.close();
    const dir = mkdtempSync(join(tmpdir(), 'handles-'));
    const path = join(dir, 'socket');
    const listener = HandleChannel.listen(path);
    expect(() => HandleChannel.listen(path)).toThrow(/EADDRINUSE/);
    const accepted = listener.accept();
    const client = HandleChannel.connect(path);
    const server = await accepted;
    await client.send([], { data: 'hi' });
    expect((await server.receive()).data).toBe('hi');
    client.close();
    server.close();
    listener.close();
    expect(() => HandleChannel.connect(path)).toThrow(/ENOENT/);
    rmSync(dir, { recursive: true });
  });
});

describe('HandleChannel between processes (fresh processes; lavapipe producer, reference-driver consumer)', () => {
  it('examples/cross-process-frames.mjs: a Vulkan producer process fills NV12 frames, an OpenCL consumer process imports the handles once and checks every frame: 0 mismatches', async () => {
    const script = pathToFileURL(resolve(repoRoot, 'examples/cross-process-frames.mjs')).href;
    const run = await runNode(
      `import(${JSON.stringify(script)}).then(async (m) => {
         const report = await m.runCrossProcessFrames(['--platform', 'reference', '--width', '64', '--height', '32', '--frames', '24', '--slots', '3', '--check', 'all']);
         console.log(JSON.stringify(report));
       });`,
      { env: { REFDRV_DEVICE_UUID: lavapipeUuid() } },
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout.trim().split('\n').pop()!);
    expect(report).toMatchObject({ platform: 'opencl-interop reference driver', frames: 24, checkedFrames: 24, mismatches: 0, converted: false });
  });

  it('a consumer that dies before receiving leaves the producer fine: its send ends or rejects as "closed", its memory works, its descriptors are its own', async () => {
    const run = await runNode(
      `(async () => {
        const { spawn } = require('node:child_process');
        const fs = require('node:fs');
        const count = () => fs.readdirSync('/proc/self/fd').length;
        const [mine, theirs] = ocl.HandleChannel.pair();
        const child = spawn(process.execPath, ['-e', 'process.exit(3)'], { stdio: ['ignore', 'ignore', 'ignore', theirs.fd] });
        theirs.close();
        await new Promise((r) => child.on('exit', r));
        const inst = ocl.createVulkanInstance(); const dev = inst.createDevice();
        const buffer = dev.createBuffer({ size: 4096 });
        const before = count();
        const exported = buffer.exportMemory();
        const outcomes = [];
        for (let i = 0; i < 3; i++) {
          try { await mine.send([exported], { data: i }); outcomes.push('sent'); } catch (e) { outcomes.push(e.name + ':' + e.reason + ':' + e.code); }
        }
        exported.dispose();
        await buffer.write(new Uint8Array(4096).fill(9));
        const back = await buffer.read(0, 4);
        try { await mine.receive(); } catch (e) { outcomes.push('receive ' + e.reason); }
        const leaked = count() - before;
        mine.close();
        console.log(JSON.stringify({ outcomes, back: [...back], leaked }));
        buffer.dispose(); dev.dispose(); inst.dispose();
      })();`,
    );
    expect(run.stderr).toBe('');
    expect(run.signal).toBeNull();
    expect(run.status).toBe(0);
    const out = JSON.parse(run.stdout.trim().split('\n').pop()!);
    for (const o of out.outcomes.slice(0, 3)) expect(o).toMatch(/^(sent|HandleChannelError:closed:(EPIPE|ECONNRESET))$/);
    expect(out.outcomes).toContain('HandleChannelError:closed:EPIPE');
    expect(out.outcomes[3]).toBe('receive closed');
    expect(out.back).toEqual([9, 9, 9, 9]);
    expect(out.leaked).toBe(0);
  });

  it('a consumer killed while it holds received handles: the kernel closes them with it; the producer sees "closed" and exits cleanly', async () => {
    const run = await runNode(
      `(async () => {
        const { spawn } = require('node:child_process');
        const [mine, theirs] = ocl.HandleChannel.pair();
        const child = spawn(process.execPath, ['-e', \`
          const ocl = require(\${JSON.stringify(require.resolve(${JSON.stringify(resolve(repoRoot, 'dist/index.js'))}))});
          const ch = ocl.HandleChannel.fromFd(3);
          ch.receive({ expect: ['memory'] }).then(() => { console.log('got'); setInterval(() => {}, 1000); });
        \`], { stdio: ['ignore', 'pipe', 'inherit', theirs.fd] });
        theirs.close();
        const inst = ocl.createVulkanInstance(); const dev = inst.createDevice();
        const buffer = dev.createBuffer({ size: 4096 });
        const exported = buffer.exportMemory();
        await mine.send([exported]);
        await new Promise((r) => child.stdout.once('data', r));
        child.kill('SIGKILL');
        await new Promise((r) => child.on('exit', r));
        let outcome;
        try { await mine.receive(); outcome = 'message'; } catch (e) { outcome = e.reason; }
        exported.dispose();
        await buffer.write(new Uint8Array([1]));
        console.log(outcome, (await buffer.read(0, 1))[0]);
        mine.close(); buffer.dispose(); dev.dispose(); inst.dispose();
      })();`,
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe('closed 1');
  });
});
