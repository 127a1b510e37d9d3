// The handle channel's typed errors: what a transfer failed on (a reason, and
// the errno name where a system call failed).

/** What a channel's operation failed on. */
export type HandleChannelFailure =
  | 'closed' // the peer closed the channel (or died) before or during the transfer
  | 'truncated' // the message or its descriptors did not fit (MSG_TRUNC / MSG_CTRUNC); what arrived was closed
  | 'missing-handles' // the message describes handles whose descriptors did not come with it
  | 'wrong-kind' // the handles are not the kinds options.expect names
  | 'bad-message' // not a message of this protocol
  | 'timeout' // options.timeout passed first
  | 'system'; // a system call failed (errno in `code`)

/** A transfer over a HandleChannel failed. Whatever was received is closed before it is thrown. */
export class HandleChannelError extends Error {
  override name = 'HandleChannelError';
  readonly reason: HandleChannelFailure;
  /** The errno name where a system call failed ('EPIPE', 'ECONNREFUSED', ...). */
  readonly code: string | undefined;
  constructor(reason: HandleChannelFailure, message: string, options?: { code?: string; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
    this.code = options?.code;
  }
}

/** @internal A system call's error as a HandleChannelError: 'closed' where the peer is gone, else 'system'. */
export function systemError(error: unknown, doing: string): HandleChannelError {
  const code = (error as { code?: string }).code;
  if (code === 'EPIPE' || code === 'ECONNRESET' || code === 'ENOTCONN') {
    return new HandleChannelError('closed', `${doing}: the peer closed the channel (${code}); the handles stay yours`, { code, cause: error });
  }
  return new HandleChannelError('system', `${doing}: ${(error as Error).message}`, { code, cause: error });
}

/** @internal SCM_RIGHTS needs a Unix socket: a HandleChannelError elsewhere. */
export function requireUnix(what: string): void {
  if (process.platform === 'win32') {
    throw new HandleChannelError(
      'system',
      `${what}: handles travel between processes as file descriptors over a Unix socket (SCM_RIGHTS), which Windows does not have; duplicate NT handles into the other process instead`,
    );
  }
}
