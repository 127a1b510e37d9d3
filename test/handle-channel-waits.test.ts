// HandleChannel's waits (lib/ipc): a send and a receive in flight at once on
// one channel, two accepts at once on one listener, a pending receive or
// accept settled by close(), a zero-length message from a live peer (a
// SOCK_SEQPACKET datagram of no bytes, unix(7)) told from the peer's end, and
// every failure a HandleChannelError with a reason. Fresh processes, each
// bounded: a wait that never settles ends the process without its line.
import { describe, expect, it } from 'vitest';
import { runNodeForValue } from './helpers';

const bounded = { timeout: 30_000 };

describe('HandleChannel: waits', () => {
  it('a send that waits for room while a receive is pending, and a receive while sends wait: every message arrives, in order, and the receive gets its reply', async () => {
    const { value } = await runNodeForValue(
      `(async () => {
        const [a, b] = ocl.HandleChannel.pair();
        const reply = a.receive(); // pending: nothing to read on a yet
        const big = 'x'.repeat(15000);
        const sends = [];
        for (let i = 0; i < 40; i++) sends.push(a.send([], { data: big + i })); // the socket's buffer fills: later sends wait
        await new Promise((r) => setTimeout(r, 50));
        const lateReceive = b.receive(); // a receive on b while a's sends wait
        const got = [(await lateReceive).data.slice(big.length)];
        for (let i = 1; i < 40; i++) got.push((await b.receive()).data.slice(big.length));
        const sent = (await Promise.allSettled(sends)).map((s) => s.status === 'fulfilled' ? 'ok' : s.reason.name + ':' + s.reason.message);
        await b.send([], { data: 'reply' });
        const answer = (await reply).data;
        a.close(); b.close();
        console.log(JSON.stringify({ sent: [...new Set(sent)], inOrder: got.join(',') === [...Array(40).keys()].join(','), answer }));
      })();`,
      bounded,
    );
    expect(value).toEqual({ sent: ['ok'], inOrder: true, answer: 'reply' });
  });

  it('two accept() at once on one listener both resolve, each with its own peer', async () => {
    const { value } = await runNodeForValue(
      `(async () => {
        const { mkdtempSync, rmSync } = require('node:fs');
        const dir = mkdtempSync(require('node:path').join(require('node:os').tmpdir(), 'accept-'));
        const listener = ocl.HandleChannel.listen(dir + '/socket');
        const accepts = [listener.accept(), listener.accept()];
        const clients = [ocl.HandleChannel.connect(dir + '/socket'), ocl.HandleChannel.connect(dir + '/socket')];
        const outcome = await Promise.allSettled(accepts);
        const servers = outcome.filter((o) => o.status === 'fulfilled').map((o) => o.value);
        await clients[0].send([], { data: 'one' });
        await clients[1].send([], { data: 'two' });
        const data = (await Promise.all(servers.map((s) => s.receive()))).map((m) => m.data).sort();
        for (const c of [...clients, ...servers]) c.close();
        listener.close();
        rmSync(dir, { recursive: true });
        console.log(JSON.stringify({ outcome: outcome.map((o) => o.status === 'fulfilled' ? 'ok' : o.reason.name + ':' + o.reason.message), data }));
      })();`,
      bounded,
    );
    expect(value).toEqual({ outcome: ['ok', 'ok'], data: ['one', 'two'] });
  });

  it('close() settles a pending receive() and a pending accept() with reason closed', async () => {
    const { value } = await runNodeForValue(
      `(async () => {
        const { mkdtempSync, rmSync } = require('node:fs');
        const dir = mkdtempSync(require('node:path').join(require('node:os').tmpdir(), 'close-'));
        const [a, b] = ocl.HandleChannel.pair();
        const listener = ocl.HandleChannel.listen(dir + '/socket');
        const reason = (p) => p.then(() => 'resolved', (e) => e.name + ':' + e.reason);
        const receiving = reason(b.receive());
        const accepting = reason(listener.accept());
        setTimeout(() => { b.close(); listener.close(); }, 20);
        const settled = await Promise.all([receiving, accepting]);
        a.close();
        rmSync(dir, { recursive: true });
        console.log(JSON.stringify(settled));
      })();`,
      bounded,
    );
    expect(value).toEqual(['HandleChannelError:closed', 'HandleChannelError:closed']);
  });

  it("a zero-length message from a live peer is reason 'bad-message' and the channel goes on; the peer's end is 'closed'", async () => {
    const { value } = await runNodeForValue(
      `(async () => {
        // Raw datagrams, as another program on the socket may send them (libc through koffi, no protocol).
        const koffi = require('koffi');
        const libc = koffi.load('libc.so.6');
        const socketpair = libc.func('int socketpair(int, int, int, _Out_ int *sv)');
        const send = libc.func('long send(int, const void *buf, size_t, int)');
        const close = libc.func('int close(int)');
        const sv = [0, 0];
        if (socketpair(1 /* AF_UNIX */, 5 /* SOCK_SEQPACKET */, 0, sv) !== 0) throw new Error('socketpair failed');
        const channel = ocl.HandleChannel.fromFd(sv[1]);
        const raw = { send: (bytes) => send(sv[0], bytes, bytes.length, 0), close: () => close(sv[0]) };
        const outcomes = [];
        raw.send(Buffer.alloc(0));
        raw.send(Buffer.from(JSON.stringify({ protocol: 'opencl-interop handles', handles: [], data: 'after' })));
        try { await channel.receive(); outcomes.push('message'); } catch (e) { outcomes.push(e.name + ':' + e.reason); }
        outcomes.push((await channel.receive()).data);
        raw.close();
        try { await channel.receive(); outcomes.push('message'); } catch (e) { outcomes.push(e.name + ':' + e.reason); }
        channel.close();
        console.log(JSON.stringify({ outcomes }));
      })();`,
      bounded,
    );
    expect(value.outcomes).toEqual(['HandleChannelError:bad-message', 'after', 'HandleChannelError:closed']);
  });
});
