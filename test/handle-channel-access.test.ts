// Who may reach a HandleChannel.listen() socket (unix(7)): the socket file is
// owner-only by default whatever the umask (connect needs write permission on
// it), options.mode widens it; each channel knows its peer's credentials
// (SO_PEERCRED: pid, uid, gid); options.allow refuses peers before anything
// they sent is read; a path with a NUL byte is refused before any socket is
// made; a stale socket file (its listener killed) is replaced on request,
// never a live listener's. Fresh processes.
import { describe, expect, it } from 'vitest';
import { runNodeForValue } from './helpers';

const bounded = { timeout: 30_000 };
/** A fresh process's prelude: a private folder, and the count of open descriptors. */
const prelude = `
const fs = require('node:fs');
const path = require('node:path');
const dir = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'access-'));
const openFds = () => fs.readdirSync('/proc/self/fd').length;
`;

describe('HandleChannel: access', () => {
  it('under umask 0 the socket file is owner-only (0600); options.mode widens it (0660)', async () => {
    const { value } = await runNodeForValue(
      `${prelude}
      process.umask(0);
      const a = ocl.HandleChannel.listen(dir + '/default');
      const b = ocl.HandleChannel.listen(dir + '/group', { mode: 0o660 });
      const modes = [dir + '/default', dir + '/group'].map((p) => (fs.statSync(p).mode & 0o777).toString(8));
      a.close(); b.close();
      fs.rmSync(dir, { recursive: true });
      console.log(JSON.stringify(modes));`,
      bounded,
    );
    expect(value).toEqual(['600', '660']);
  });

  it("each channel has its peer's pid, uid and gid (SO_PEERCRED): a child process that connects, and a pair's own process", async () => {
    const { value } = await runNodeForValue(
      `${prelude}
      (async () => {
        const { spawn } = require('node:child_process');
        const listener = ocl.HandleChannel.listen(dir + '/socket');
        const child = spawn(process.execPath, ['-e', \`
          const ocl = require(\${JSON.stringify(require.resolve(process.cwd() + '/dist/index.js'))});
          const c = ocl.HandleChannel.connect(\${JSON.stringify(dir + '/socket')});
          c.receive().catch(() => {}).then(() => c.close());\`], { stdio: 'inherit', cwd: process.cwd() });
        const server = await listener.accept();
        const peer = server.peer;
        const [a, b] = ocl.HandleChannel.pair();
        const own = a.peer;
        server.close();
        await new Promise((r) => child.on('exit', r));
        listener.close(); a.close(); b.close();
        fs.rmSync(dir, { recursive: true });
        console.log(JSON.stringify({
          peer: peer && { pid: peer.pid === child.pid, uid: peer.uid === process.getuid(), gid: peer.gid === process.getgid(), frozen: Object.isFrozen(peer) },
          own: own && { pid: own.pid === process.pid, uid: own.uid === process.getuid() },
          closed: a.peer,
        }));
      })();`,
      { ...bounded, cwd: process.cwd() },
    );
    expect(value).toEqual({ peer: { pid: true, uid: true, gid: true, frozen: true }, own: { pid: true, uid: true }, closed: null });
  });

  it('options.allow refuses a peer (by uid list or by function) before reading what it sent: the peer sees closed, accept() waits for the next one', async () => {
    const { value } = await runNodeForValue(
      `${prelude}
      (async () => {
        const me = process.getuid();
        const byUid = ocl.HandleChannel.listen(dir + '/uid', { allow: [me + 1] });
        let refusedAccepted = false;
        byUid.accept().then(() => (refusedAccepted = true), () => {});
        const client = ocl.HandleChannel.connect(dir + '/uid');
        await client.send([], { data: 'unread' }).catch(() => {}); // EPIPE when the refusal came first
        const seen = await client.receive({ timeout: 5000 }).then(() => 'message', (e) => e.reason);
        byUid.close();
        let calls = 0;
        const byFunction = ocl.HandleChannel.listen(dir + '/fn', { allow: (peer) => ++calls > 1 && peer.uid === me });
        const accepting = byFunction.accept();
        const first = ocl.HandleChannel.connect(dir + '/fn');
        const second = ocl.HandleChannel.connect(dir + '/fn');
        const server = await accepting;
        await second.send([], { data: 'second' });
        const got = (await server.receive()).data;
        const firstSees = await first.receive({ timeout: 5000 }).then(() => 'message', (e) => e.reason);
        for (const c of [client, first, second, server]) c.close();
        byFunction.close();
        const bad = [];
        for (const allow of ['root', [-1], 5]) {
          try { ocl.HandleChannel.listen(dir + '/bad', { allow }).close(); bad.push('listened'); } catch (e) { bad.push(e.name + ': ' + e.message); }
        }
        fs.rmSync(dir, { recursive: true });
        console.log(JSON.stringify({ seen, refusedAccepted, calls, got, firstSees, bad }));
      })();`,
      bounded,
    );
    expect(value).toMatchObject({ seen: 'closed', refusedAccepted: false, calls: 2, got: 'second', firstSees: 'closed' });
    expect(value.bad[0]).toMatch(/^TypeError: options\.allow must be an array of user ids or a function/);
    expect(value.bad[1]).toMatch(/^RangeError: options\.allow\[0\] must be an integer from 0/);
    expect(value.bad[2]).toMatch(/^TypeError: options\.allow must be/);
  });

  it('a path with a NUL byte (inside, or leading: an abstract socket) is a TypeError before any socket is made: no file, no descriptor', async () => {
    const { value } = await runNodeForValue(
      `${prelude}
      const before = openFds();
      const errors = [];
      for (const p of [dir + '/a\\0b', '\\0abstract']) {
        try { ocl.HandleChannel.listen(p).close(); errors.push('listened'); } catch (e) { errors.push(e.name + ': ' + e.message); }
        try { ocl.HandleChannel.connect(p).close(); errors.push('connected'); } catch (e) { errors.push(e.name + ': ' + e.message); }
      }
      const files = fs.readdirSync(dir);
      const leaked = openFds() - before;
      fs.rmSync(dir, { recursive: true });
      console.log(JSON.stringify({ errors, files, leaked }));`,
      bounded,
    );
    expect(value.files).toEqual([]);
    expect(value.leaked).toBe(0);
    expect(value.errors).toHaveLength(4);
    for (const error of value.errors) expect(error).toMatch(/^TypeError: path must not hold a NUL byte/);
  });

  it('a socket file left by a listener killed with SIGKILL: listen() is EADDRINUSE, { replaceStale: true } replaces it; a live listener is never replaced', async () => {
    const { value } = await runNodeForValue(
      `${prelude}
      (async () => {
        const { spawn } = require('node:child_process');
        const socket = dir + '/socket';
        const child = spawn(process.execPath, ['-e', \`
          const ocl = require(\${JSON.stringify(require.resolve(process.cwd() + '/dist/index.js'))});
          globalThis.listener = ocl.HandleChannel.listen(\${JSON.stringify(socket)});
          console.log('listening');
          setInterval(() => {}, 1000);\`], { stdio: ['ignore', 'pipe', 'inherit'], cwd: process.cwd() });
        await new Promise((r) => child.stdout.once('data', r));
        const whileLive = [];
        try { ocl.HandleChannel.listen(socket, { replaceStale: true }).close(); whileLive.push('replaced'); } catch (e) { whileLive.push(e.name + ':' + e.reason + ':' + e.code); }
        child.kill('SIGKILL');
        await new Promise((r) => child.on('exit', r));
        const left = fs.existsSync(socket);
        let plain;
        try { ocl.HandleChannel.listen(socket).close(); plain = 'listened'; } catch (e) { plain = e.name + ':' + e.code; }
        const listener = ocl.HandleChannel.listen(socket, { replaceStale: true });
        const accepting = listener.accept();
        const client = ocl.HandleChannel.connect(socket);
        await client.send([], { data: 'hi' });
        const got = (await (await accepting).receive()).data;
        client.close();
        const replacedAgain = [];
        try { ocl.HandleChannel.listen(socket, { replaceStale: true }).close(); replacedAgain.push('replaced'); } catch (e) { replacedAgain.push(e.name + ':' + e.code); }
        listener.close();
        fs.rmSync(dir, { recursive: true });
        console.log(JSON.stringify({ whileLive, left, plain, got, replacedAgain }));
      })();`,
      { ...bounded, cwd: process.cwd() },
    );
    expect(value).toEqual({
      whileLive: ['HandleChannelError:system:EADDRINUSE'],
      left: true,
      plain: 'HandleChannelError:EADDRINUSE',
      got: 'hi',
      replacedAgain: ['HandleChannelError:EADDRINUSE'],
    });
  });
});
