// The handle channel's native side (native/ipc/; not on Windows), as lib/ipc/
// sees it: one socket end and the addon's ipc* functions.

/** One end of a Unix SOCK_SEQPACKET socket (or a listening one): non-blocking calls, null for EAGAIN. */
export interface NativeHandleChannel {
  readonly fd: number;
  send(bytes: Uint8Array, fds: number[]): number | null;
  /** ended: no bytes, no fds, and the peer has shut down with nothing left queued (a datagram of no bytes from a live peer is not ended). */
  receive(
    maxBytes: number,
    maxFds: number,
  ): { bytes: Uint8Array; fds: number[]; truncated: boolean; controlTruncated: boolean; ended: boolean } | null;
  accept(): NativeHandleChannel | null;
  /** SO_PEERCRED: the process at the other end when it connected; null where not known. */
  peer(): { pid: number; uid: number; gid: number } | null;
  /** Resolves once readable (false) or writable (true), hung up, or closed by close(); one wait of each direction at a time. */
  wait(writable: boolean): Promise<void>;
  /** Closes the socket; pending waits resolve. */
  close(): void;
}

declare module '../addon' {
  interface Addon {
    // Handles between processes (native/ipc/; not on Windows).
    ipcSocketPair(): [NativeHandleChannel, NativeHandleChannel];
    ipcConnect(path: string): NativeHandleChannel;
    /** The socket file is made with `mode` less the umask. */
    ipcListen(path: string, backlog: number, mode: number): NativeHandleChannel;
    /** The channel, or why the fd is not a Unix SOCK_SEQPACKET socket. */
    ipcAdopt(fd: number): NativeHandleChannel | string;
  }
}
