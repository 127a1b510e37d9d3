// Exported handles between processes: file descriptors sent over a Unix socket
// with SCM_RIGHTS (SOCK_SEQPACKET: each message and its descriptors arrive
// whole). The receiver owns what it receives exactly as an exporter's object
// owns a handle from exportMemory() (lib/ipc/received-handle.ts). The
// sender's handles stay the sender's: sending gives the receiver descriptors
// of its own (the kernel duplicates them), and the sender disposes its objects
// when it is done with them. The messages are lib/ipc/messages.ts's;
// native/ipc/handle_channel.cc is the thin twin.
import { type Stats, lstatSync, unlinkSync } from 'node:fs';
import { describeValue } from '../errors';
import { nativeAddon } from '../native-addon';
import { refuseCloning } from '../os-handle';
import { checkBoolean, checkInt, checkOptions } from '../validate';
import { HandleChannelError, type HandleChannelFailure, requireUnix, systemError } from './errors';
import {
  type HandleKind,
  MAGIC,
  MAX_DATA,
  MAX_HANDLES,
  MAX_MESSAGE,
  type ReceivedHandleType,
  type SendableHandle,
  closeAll,
  describeHandle,
  parseHeader,
} from './messages';
import type { NativeHandleChannel } from './native-types';
import { ReceivedHandle } from './received-handle';

export interface HandleSendOptions {
  /** A small JSON value sent with the handles (a frame layout, an index): at most 16 KiB as JSON. */
  data?: unknown;
}

/** The process at the other end of a channel when it connected (SO_PEERCRED, unix(7)). */
export interface HandlePeer {
  readonly pid: number;
  readonly uid: number;
  readonly gid: number;
}

export interface HandleListenOptions {
  /** Permissions of the socket file (connect() needs write permission): default 0o600, owner only; the umask applies, as to open(). */
  mode?: number;
  /**
   * The peers accept() takes: a list of user ids, or a function of the peer's
   * credentials. A peer refused is closed before anything it sent is read,
   * and accept() waits for the next one. Default: every peer the file's mode
   * lets connect.
   */
  allow?: readonly number[] | ((peer: HandlePeer) => boolean);
  /**
   * Where a socket file is left at `path` (its listener died), replace it when
   * nothing listens there; a live listener's is never touched (default false:
   * EADDRINUSE). The check connects once to the old socket.
   */
  replaceStale?: boolean;
}

export interface HandleReceiveOptions {
  /** The kinds of the handles expected, in order: anything else is a HandleChannelError ('wrong-kind'), closed. */
  expect?: readonly HandleKind[];
  /** Milliseconds to wait for a message (default: no limit). */
  timeout?: number;
}

/** What receive() gives: the handles, now this process's (typed by options.expect where given), and the data sent with them. */
export interface ReceivedHandles<H extends readonly ReceivedHandle[] = ReceivedHandle[]> {
  readonly handles: H;
  readonly data: unknown;
}

/**
 * One end of a Unix socket that carries exported handles between processes
 * (Linux: SOCK_SEQPACKET with SCM_RIGHTS). Make a connected pair and hand one
 * end to a child process (`stdio: [..., channel.fd]`, then
 * `HandleChannel.fromFd(3)` there), or meet at a path (`HandleChannel.listen`
 * / `HandleChannel.connect`). One send and one receive may be in flight at a
 * time each; further ones wait their turn.
 */
export class HandleChannel {
  #native: NativeHandleChannel | null;
  #peer: HandlePeer | null | undefined;
  #sending: Promise<unknown> = Promise.resolve();
  #receiving: Promise<unknown> = Promise.resolve();

  /** @internal */
  constructor(native: NativeHandleChannel) {
    this.#native = native;
    refuseCloning(
      this,
      'a HandleChannel owns its socket: make a pair and pass channel.fd to a child process (stdio), or connect() from the other thread',
    );
  }

  /** Two connected ends (socketpair). */
  static pair(): [HandleChannel, HandleChannel] {
    requireUnix('HandleChannel.pair()');
    const [a, b] = nativeAddon().ipcSocketPair();
    return [new HandleChannel(a), new HandleChannel(b)];
  }

  /**
   * Takes over an inherited descriptor of a connected Unix SOCK_SEQPACKET
   * socket (a child's end: fd 3 when passed as stdio[3]). The descriptor of
   * a live HandleChannel of this process is refused (a TypeError): two
   * channels would each close it.
   */
  static fromFd(fd: number): HandleChannel {
    requireUnix('HandleChannel.fromFd()');
    checkInt(fd, 'fd', 0, 0x7fffffff);
    const adopted = nativeAddon().ipcAdopt(fd);
    if (typeof adopted === 'string')
      throw new TypeError(`fd ${fd} must be a connected Unix SOCK_SEQPACKET socket (HandleChannel.pair() or listen()); ${adopted}`);
    return new HandleChannel(adopted);
  }

  /** Connects to a HandleChannel.listen() at `path`. */
  static connect(path: string): HandleChannel {
    requireUnix('HandleChannel.connect()');
    checkPath(path);
    try {
      return new HandleChannel(nativeAddon().ipcConnect(path));
    } catch (error) {
      throw systemError(error, `connecting to ${path}`);
    }
  }

  /**
   * Listens at `path` (a new Unix socket file, owner-only unless
   * options.mode says otherwise, removed by close()); accept() gives a
   * channel per process that connects and options.allow takes.
   */
  static listen(path: string, options?: HandleListenOptions): HandleListener {
    requireUnix('HandleChannel.listen()');
    checkPath(path);
    const o = checkOptions<HandleListenOptions>(options, 'options', ['mode', 'allow', 'replaceStale']);
    const mode = checkInt(o.mode, 'options.mode', 0, 0o777, 0o600);
    const allow = checkAllow(o.allow);
    const replaceStale = checkBoolean(o.replaceStale, 'options.replaceStale', false);
    const bind = (): NativeHandleChannel => nativeAddon().ipcListen(path, 16, mode);
    let native: NativeHandleChannel;
    try {
      native = bind();
    } catch (error) {
      if (!replaceStale || (error as { code?: string }).code !== 'EADDRINUSE' || !staleSocket(path)) throw systemError(error, `listening at ${path}`);
      try {
        unlinkSync(path);
        native = bind();
      } catch (again) {
        throw systemError(again, `listening at ${path} (replacing the stale socket file)`);
      }
    }
    return new HandleListener(native, path, allow);
  }

  /** The socket's descriptor (to pass to a child process); -1 once closed. */
  get fd(): number {
    return this.#native?.fd ?? -1;
  }

  /**
   * The process at the other end when it connected (SO_PEERCRED): its pid,
   * uid and gid; for a pair(), this process. null once closed.
   */
  get peer(): HandlePeer | null {
    if (this.#peer === undefined && this.#native) this.#peer = freezePeer(this.#native.peer());
    return this.#native ? (this.#peer ?? null) : null;
  }

  get closed(): boolean {
    return this.#native === null;
  }

  #live(): NativeHandleChannel {
    if (!this.#native) throw new HandleChannelError('closed', 'this HandleChannel was closed');
    return this.#native;
  }

  /**
   * Sends handles (and options.data) in one message. The receiver gets
   * descriptors of its own; the handles given stay the caller's (dispose them
   * when done). Resolves once the message is in the socket; rejects with a
   * HandleChannelError ('closed' when the peer is gone).
   */
  send(handles: readonly SendableHandle[], options?: HandleSendOptions): Promise<void> {
    const native = this.#live();
    requireUnix('send()');
    if (!Array.isArray(handles)) throw new TypeError(`handles must be an array of exported handles; got ${describeValue(handles)}`);
    if (handles.length > MAX_HANDLES) throw new RangeError(`handles holds ${handles.length} handles; at most ${MAX_HANDLES} go in one message`);
    const o = checkOptions<HandleSendOptions>(options, 'options', ['data']);
    const items = handles.map((h, i) => describeHandle(h, i));
    const fds = items.map((x) => x.fd);
    if (new Set(fds).size !== fds.length) throw new TypeError('handles names one descriptor twice');
    let text: string | undefined;
    try {
      text = o.data === undefined ? undefined : JSON.stringify(o.data);
    } catch (error) {
      throw new TypeError(`options.data must be a JSON value; ${(error as Error).message}`);
    }
    if (text !== undefined && text.length > MAX_DATA) throw new RangeError(`options.data is ${text.length} characters as JSON; at most ${MAX_DATA}`);
    const bytes = new TextEncoder().encode(JSON.stringify({ protocol: MAGIC, handles: items.map((x) => x.described), data: o.data }));
    if (bytes.byteLength > MAX_MESSAGE) throw new RangeError(`the message is ${bytes.byteLength} bytes; at most ${MAX_MESSAGE}`);
    const run = async (): Promise<void> => {
      for (;;) {
        if (this.#native !== native) throw new HandleChannelError('closed', 'this HandleChannel was closed before the handles were sent');
        let sent: number | null;
        try {
          sent = native.send(bytes, fds);
        } catch (error) {
          throw systemError(error, 'sending handles');
        }
        if (sent !== null) return;
        await waitOn(native, true, 'sending handles');
      }
    };
    const done = this.#sending.then(run, run);
    this.#sending = done.catch(() => {});
    return done;
  }

  /**
   * Receives one message: its handles (now this process's: import them, or
   * dispose them) and data. Rejects with a HandleChannelError, having closed
   * whatever arrived, for a truncated message, descriptors missing, kinds
   * other than options.expect, a message of another protocol, the peer
   * closing the channel, or options.timeout passing.
   */
  receive<const K extends readonly HandleKind[]>(
    options: HandleReceiveOptions & { expect: K },
  ): Promise<ReceivedHandles<{ -readonly [I in keyof K]: ReceivedHandle<K[I]> }>>;
  receive(options?: HandleReceiveOptions): Promise<ReceivedHandles>;
  receive(options?: HandleReceiveOptions): Promise<ReceivedHandles> {
    const native = this.#live();
    requireUnix('receive()');
    const o = checkOptions<HandleReceiveOptions>(options, 'options', ['expect', 'timeout']);
    let expect: HandleKind[] | undefined;
    if (o.expect !== undefined) {
      if (!Array.isArray(o.expect)) throw new TypeError(`options.expect must be an array of 'memory' | 'semaphore'; got ${describeValue(o.expect)}`);
      expect = o.expect.map((k, i) => {
        if (k !== 'memory' && k !== 'semaphore') throw new TypeError(`options.expect[${i}] must be 'memory' or 'semaphore'; got ${describeValue(k)}`);
        return k;
      });
    }
    const timeout = o.timeout === undefined ? undefined : checkInt(o.timeout, 'options.timeout', 0, 0x7fffffff);
    const run = async (): Promise<ReceivedHandles> => {
      const deadline = timeout === undefined ? undefined : Date.now() + timeout;
      for (;;) {
        if (this.#native !== native) throw new HandleChannelError('closed', 'this HandleChannel was closed before a message came');
        let got: ReturnType<NativeHandleChannel['receive']>;
        try {
          got = native.receive(MAX_MESSAGE + 1, MAX_HANDLES + 1);
        } catch (error) {
          throw systemError(error, 'receiving handles');
        }
        if (got !== null) return this.#accept(got, expect);
        if (deadline === undefined) {
          await waitOn(native, false, 'receiving handles');
        } else {
          const left = deadline - Date.now();
          let timer: NodeJS.Timeout | undefined;
          const expired = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), Math.max(0, left))));
          const outcome = await Promise.race([waitOn(native, false, 'receiving handles'), expired]);
          clearTimeout(timer);
          if (outcome === 'timeout') {
            // The wait still pending on the socket ends with the channel: close it so that nothing waits for ever.
            this.close();
            throw new HandleChannelError('timeout', `no message came within ${timeout} ms; the channel is closed`);
          }
        }
      }
    };
    const done = this.#receiving.then(run, run);
    this.#receiving = done.catch(() => {});
    return done;
  }

  #accept(
    got: { bytes: Uint8Array; fds: number[]; truncated: boolean; controlTruncated: boolean; ended: boolean },
    expect: HandleKind[] | undefined,
  ): ReceivedHandles {
    const fail = (reason: HandleChannelFailure, message: string): never => {
      closeAll(got.fds);
      throw new HandleChannelError(reason, message);
    };
    if (got.ended) fail('closed', 'the peer closed the channel before sending a message');
    if (got.bytes.byteLength === 0 && !got.truncated)
      fail('bad-message', `the message is empty (no bytes), not one of HandleChannel.send(); its ${got.fds.length} descriptor(s) are closed`);
    if (got.truncated || got.controlTruncated) {
      fail(
        'truncated',
        `the message was cut short (${got.truncated ? `more than ${MAX_MESSAGE} bytes` : `more than ${MAX_HANDLES} descriptors`}); the ${got.fds.length} descriptor(s) that arrived are closed`,
      );
    }
    const header = parseHeader(got.bytes);
    if (typeof header === 'string')
      return fail('bad-message', `the message is not one of HandleChannel.send(): ${header}; its ${got.fds.length} descriptor(s) are closed`);
    if (got.fds.length !== header.handles.length) {
      fail(
        'missing-handles',
        `the message describes ${header.handles.length} handle(s) and ${got.fds.length} descriptor(s) came with it; those are closed`,
      );
    }
    if (expect && (expect.length !== header.handles.length || expect.some((k, i) => header.handles[i]!.kind !== k))) {
      fail('wrong-kind', `expected handles of kinds [${expect.join(', ')}]; got [${header.handles.map((h) => h.kind).join(', ')}]; they are closed`);
    }
    const handles = header.handles.map(
      (h, i) => new ReceivedHandle(h.kind, h.handleType as ReceivedHandleType<HandleKind>, got.fds[i]!, h.size, h.dedicated, h.tiling),
    );
    return { handles, data: header.data };
  }

  /**
   * Closes this end: a pending send() or receive() of this end rejects with
   * reason 'closed', and so does the peer's receive. Idempotent.
   */
  close(): void {
    const native = this.#native;
    this.#native = null;
    native?.close();
  }

  [Symbol.dispose](): void {
    this.close();
  }
}

/** A native wait, its failure (a libuv status) a HandleChannelError. */
async function waitOn(native: NativeHandleChannel, writable: boolean, doing: string): Promise<void> {
  try {
    await native.wait(writable);
  } catch (error) {
    throw systemError(error, `${doing}: waiting for the socket`);
  }
}

function freezePeer(peer: { pid: number; uid: number; gid: number } | null): HandlePeer | null {
  return peer && Object.freeze({ pid: peer.pid, uid: peer.uid, gid: peer.gid });
}

function checkAllow(allow: unknown): ((peer: HandlePeer) => boolean) | undefined {
  if (allow === undefined) return undefined;
  if (typeof allow === 'function') return allow as (peer: HandlePeer) => boolean;
  if (!Array.isArray(allow))
    throw new TypeError(`options.allow must be an array of user ids or a function (peer) => boolean; got ${describeValue(allow)}`);
  const uids = new Set(allow.map((uid, i) => checkInt(uid, `options.allow[${i}]`, 0, 0xffffffff)));
  return (peer) => uids.has(peer.uid);
}

/** Whether `path` is a socket file nothing listens on (a connect is refused). */
function staleSocket(path: string): boolean {
  let stat: Stats;
  try {
    stat = lstatSync(path);
  } catch {
    return false;
  }
  if (!stat.isSocket()) return false;
  try {
    nativeAddon().ipcConnect(path).close();
    return false; // a listener is live there
  } catch (error) {
    return (error as { code?: string }).code === 'ECONNREFUSED';
  }
}

function checkPath(path: unknown): asserts path is string {
  if (typeof path !== 'string' || path.length === 0)
    throw new TypeError(`path must be a non-empty string (a Unix socket path); got ${describeValue(path)}`);
  if (path.includes('\0'))
    throw new TypeError(
      `path must not hold a NUL byte (a Unix socket path is a C string; a leading NUL names an abstract socket); got ${describeValue(path)}`,
    );
  if (Buffer.byteLength(path) > 107) throw new RangeError(`path must be at most 107 bytes (sun_path); got ${Buffer.byteLength(path)} bytes`);
}

/** A Unix socket path that HandleChannel.connect() reaches. */
export class HandleListener {
  readonly path: string;
  #native: NativeHandleChannel | null;
  readonly #inode: number;
  readonly #allow: ((peer: HandlePeer) => boolean) | undefined;
  #accepting: Promise<unknown> = Promise.resolve();

  /** @internal */
  constructor(native: NativeHandleChannel, path: string, allow?: (peer: HandlePeer) => boolean) {
    this.#native = native;
    this.#allow = allow;
    this.path = path;
    this.#inode = lstatSync(path).ino;
    refuseCloning(this, 'a HandleListener owns its socket: listen in the thread that accepts');
  }

  /**
   * The next process that connects and options.allow takes (peers refused
   * are closed unread). Accepts made at once are answered in turn; close()
   * rejects a pending one with reason 'closed'.
   */
  accept(): Promise<HandleChannel> {
    const run = async (): Promise<HandleChannel> => {
      for (;;) {
        const native = this.#native;
        if (!native) throw new HandleChannelError('closed', 'this HandleListener was closed');
        let peer: NativeHandleChannel | null;
        try {
          peer = native.accept();
        } catch (error) {
          throw systemError(error, `accepting at ${this.path}`);
        }
        if (!peer) {
          await waitOn(native, false, `accepting at ${this.path}`);
          continue;
        }
        const channel = new HandleChannel(peer);
        if (!this.#allow) return channel;
        let allowed: boolean;
        try {
          const credentials = channel.peer;
          allowed = credentials !== null && Boolean(this.#allow(credentials));
        } catch (error) {
          channel.close();
          throw error;
        }
        if (allowed) return channel;
        channel.close();
      }
    };
    const done = this.#accepting.then(run, run);
    this.#accepting = done.catch(() => {});
    return done;
  }

  /** Stops listening (a pending accept() rejects with reason 'closed') and removes the socket file (if it is still this listener's). Idempotent. */
  close(): void {
    const native = this.#native;
    this.#native = null;
    if (!native) return;
    native.close();
    try {
      if (lstatSync(this.path).ino === this.#inode) unlinkSync(this.path);
    } catch {
      // removed already
    }
  }

  [Symbol.dispose](): void {
    this.close();
  }
}
