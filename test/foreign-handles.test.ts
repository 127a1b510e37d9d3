// Handles that are not what their handle type says, as a hostile peer may
// send them, refused by the reference driver as a real driver refuses them
// (so that CI shows what NVIDIA does): a memfd whose size its sender can still
// change (no F_SEAL_SHRINK, memfd_create(2) "File sealing") imported as memory
// (before: mapped, and the sender's ftruncate killed the importer with SIGBUS
// at its next acquire), and a descriptor that is not a sync file (the kernel
// answers SYNC_IOC_FILE_INFO only on one, <linux/sync_file.h>) imported as a
// 'sync-fd' semaphore (before: an eventfd was taken, and a wait on it never
// ended). Fresh processes, each bounded.
import { describe, expect, it } from 'vitest';
import { runNodeForValue } from './helpers';

const bounded = { timeout: 30_000 };
/** A fresh process's prelude: the reference driver's queue, libc through koffi, and `refusal(fn)`. */
const prelude = `
const fs = require('node:fs');
const koffi = require('koffi');
const libc = koffi.load('libc.so.6');
const memfd_create = libc.func('int memfd_create(const char *, unsigned int)');
const fcntl = libc.func('int fcntl(int, int, int)');
const eventfd = libc.func('int eventfd(unsigned int, int)');
const MFD_ALLOW_SEALING = 2, F_ADD_SEALS = 1033, F_SEAL_SHRINK = 2, F_SEAL_GROW = 4;
const platform = ocl.getPlatforms().find((p) => p.name === 'opencl-interop reference driver');
const device = platform.getDevices()[0];
const context = ocl.createContext({ devices: [device] });
const queue = context.createQueue();
const memory = ocl.getExternalMemory(platform);
const semaphores = ocl.getSemaphores(platform);
const refusal = (fn) => { try { fn(); return 'accepted'; } catch (e) { return e.name + ':' + e.code; } };
const isOpen = (fd) => { try { fs.fstatSync(fd); return true; } catch { return false; } };
`;

describe('the reference driver refuses handles that are not what their type says', () => {
  it("a memfd without F_SEAL_SHRINK imported as 'dma-buf' or 'opaque-fd' memory is CL_INVALID_PROPERTY (the fd stays the caller's); sealed, it imports, and its sender cannot shrink it", async () => {
    const { value } = await runNodeForValue(
      `${prelude}
      (async () => {
        const unsealed = memfd_create('peer memory', 0);
        fs.ftruncateSync(unsealed, 4096);
        const asDmaBuf = refusal(() => {
          const buffer = memory.importBuffer(context, { handleType: 'dma-buf', handle: unsealed, size: 4096 }, { duplicate: true });
          // What a hostile sender does next: shrink the file under the importer's mapping.
          fs.ftruncateSync(unsealed, 0);
          const scope = queue.acquire([buffer]);
          queue.fillBuffer(buffer, new Uint8Array([1])).release();
          scope.release();
          queue.finishSync();
          buffer.release();
        });
        const callerStillOwns = isOpen(unsealed);
        fs.closeSync(unsealed);
        const sealed = memfd_create('sealed memory', MFD_ALLOW_SEALING);
        fs.ftruncateSync(sealed, 4096);
        fcntl(sealed, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW);
        const buffer = memory.importBuffer(context, { handleType: 'dma-buf', handle: sealed, size: 4096 }, { duplicate: true });
        let shrink = 'shrunk';
        try { fs.ftruncateSync(sealed, 0); } catch (e) { shrink = e.code; }
        {
          const scope = queue.acquire([buffer]);
          await queue.fillBuffer(buffer, new Uint8Array([7]));
          scope.release();
        }
        await queue.finish();
        buffer.release();
        fs.closeSync(sealed);
        const opaque = memfd_create('peer opaque memory', 0);
        fs.ftruncateSync(opaque, 4096 + 4136);
        const header = Buffer.alloc(16);
        header.writeBigUInt64LE(BigInt(4096 + 4136), 0);
        header.writeBigUInt64LE(4096n, 8);
        fs.writeSync(opaque, header, 0, 16, 0);
        const asOpaque = refusal(() => memory.importBuffer(context, { handleType: 'opaque-fd', handle: opaque, size: 4096 }, { duplicate: true }).release());
        fs.closeSync(opaque);
        queue.release(); context.release();
        console.log(JSON.stringify({ asDmaBuf, callerStillOwns, shrink, asOpaque }));
      })();`,
      bounded,
    );
    expect(value).toEqual({
      asDmaBuf: 'OpenCLImportError:CL_INVALID_PROPERTY',
      callerStillOwns: true,
      shrink: 'EPERM',
      asOpaque: 'OpenCLImportError:CL_INVALID_PROPERTY',
    });
  });

  it("a descriptor that is not a sync file (an eventfd, a memfd) imported or re-imported as a 'sync-fd' semaphore is refused; the reference driver's own sync-fd exports import and signal as before", async () => {
    const { value } = await runNodeForValue(
      `${prelude}
      (async () => {
        const efd = eventfd(0, 0);
        const imported = refusal(() => {
          const s = semaphores.import(context, { handleType: 'sync-fd', handle: efd });
          // Before: accepted, and this wait never ended (nothing signals an eventfd the driver waits on).
          s.wait(queue).release();
          queue.finishSync();
          s.release();
        });
        const stillOwned = isOpen(efd);
        const mem = memfd_create('not a sync file', 0);
        fs.ftruncateSync(mem, 64);
        const asMemfd = refusal(() => semaphores.import(context, { handleType: 'sync-fd', handle: mem }).release());
        // The driver's own export: a stand-in it recognises, signaled when the semaphore is.
        const exporter = semaphores.create(context, { exportAs: 'sync-fd' });
        const fence = exporter.exportHandle();
        const fromExport = semaphores.import(context, fence);
        await exporter.signal(queue);
        await fromExport.wait(queue);
        const reimported = refusal(() => fromExport.reimportSyncFd(efd));
        fromExport.release(); exporter.release();
        fs.closeSync(efd); fs.closeSync(mem);
        queue.release(); context.release();
        console.log(JSON.stringify({ imported, stillOwned, asMemfd, reimported }));
      })();`,
      bounded,
    );
    expect(value).toEqual({
      imported: 'OpenCLImportError:CL_INVALID_PROPERTY',
      stillOwned: true,
      asMemfd: 'OpenCLImportError:CL_INVALID_PROPERTY',
      reimported: expect.stringMatching(/^OpenCL\w*Error:CL_INVALID_VALUE$/),
    });
  });
});
