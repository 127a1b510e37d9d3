// lib/os-handle.ts <-> native/os_handle.cc: the one room for the descriptors
// and Windows HANDLEs the binding closes, duplicates or checks, and the one
// rule for an object that owns a handle.
import { closeSync, fstatSync, openSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closeFd, closeOsHandle, closeOwned, closesHandleType, duplicateFd, isOpenFd, ownHandle } from '../lib/os-handle';
import { repoRoot, runNodeForValue } from './helpers';

describe.skipIf(process.platform === 'win32')('OS handles (POSIX file descriptors)', () => {
  it('isOpenFd tells an open descriptor from a closed one and from a number never opened', () => {
    const fd = openSync('/dev/null', 'r');
    expect(isOpenFd(fd)).toBe(true);
    closeSync(fd);
    expect(isOpenFd(fd)).toBe(false);
    expect(isOpenFd(0x7fffffff)).toBe(false);
    expect(() => isOpenFd(0x80000000)).toThrow(RangeError);
  });

  it('duplicateFd gives another descriptor of the same open file; closeFd says whether it was open', () => {
    const fd = openSync('/dev/null', 'r');
    const copy = duplicateFd(fd);
    expect(copy).not.toBe(fd);
    expect(fstatSync(copy).ino).toBe(fstatSync(fd).ino);
    expect(closeFd(copy)).toBe(true);
    expect(closeFd(copy)).toBe(false);
    closeSync(fd);
    expect(() => duplicateFd(fd)).toThrow(/fcntl\(F_DUPFD_CLOEXEC\) on fd \d+ failed/);
  });

  it("closeOsHandle never throws: a closed descriptor, sync-fd's -1, a Windows HANDLE off Windows", () => {
    const fd = openSync('/dev/null', 'r');
    closeOsHandle(fd);
    expect(isOpenFd(fd)).toBe(false);
    expect(() => closeOsHandle(fd)).not.toThrow();
    expect(() => closeOsHandle(-1)).not.toThrow();
    expect(() => closeOsHandle(0x1234n)).not.toThrow();
  });

  it('the owned-handle rule: closeOwned closes; a KMT handle is never closed', () => {
    expect(closesHandleType('opaque-win32-kmt')).toBe(false);
    expect(['opaque-fd', 'dma-buf', 'sync-fd', 'opaque-win32'].every(closesHandleType)).toBe(true);
    const owner = {};
    const fd = openSync('/dev/null', 'r');
    ownHandle(owner, fd, 'opaque-fd');
    closeOwned(owner, fd, 'opaque-fd');
    expect(isOpenFd(fd)).toBe(false);
  });

  it('garbage collection closes the descriptor of an owner dropped unclosed, and not one relinquished (fresh process)', async () => {
    const { value } = await runNodeForValue(
      `(async () => {
        const { openSync } = require('node:fs');
        const os = require(${JSON.stringify(resolve(repoRoot, 'dist/os-handle.js'))});
        const dropped = openSync('/dev/null', 'r');
        const handedOver = openSync('/dev/null', 'r');
        (() => {
          os.ownHandle({}, dropped, 'opaque-fd');
          const taken = {};
          os.ownHandle(taken, handedOver, 'opaque-fd');
          os.relinquishOwned(taken);
        })();
        for (let i = 0; i < 20 && os.isOpenFd(dropped); i++) { global.gc(); await new Promise((r) => setTimeout(r, 20)); }
        console.log(JSON.stringify([os.isOpenFd(dropped), os.isOpenFd(handedOver)]));
      })();`,
      { args: ['--expose-gc'] },
    );
    expect(value).toEqual([false, true]);
  });
});
