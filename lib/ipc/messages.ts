// The handle channel's messages: what may be sent (an exported handle's
// shape, checked once per property) and what a received message must be (a
// JSON header naming the protocol and describing each descriptor that came
// with it). No I/O here: lib/ipc/handle-channel.ts sends and receives.
import { describeValue } from '../errors';
import { closeOsHandle } from '../os-handle';
import { checkInt } from '../validate';

/** Memory (an allocation another API imports) or a semaphore. */
export type HandleKind = 'memory' | 'semaphore';
const FD_TYPES: Readonly<Record<string, HandleKind | 'either'>> = { 'opaque-fd': 'either', 'dma-buf': 'memory', 'sync-fd': 'semaphore' };

/**
 * A handle to send: what exportMemory(), a semaphore's exportHandle(), or
 * OpenCL's semaphore export give, or a plain object of the same shape. The
 * kind is `kind` where given; otherwise memory for a handle with a size, a
 * semaphore for one without.
 */
export interface SendableHandle {
  readonly handleType: string;
  readonly handle: number | bigint | string;
  readonly size?: number;
  readonly dedicated?: boolean;
  readonly tiling?: 'linear' | 'optimal';
  readonly disposed?: boolean;
  readonly kind?: HandleKind;
}

/** The handle types of a kind that travel as file descriptors. */
export type ReceivedHandleType<K extends HandleKind> = K extends 'memory' ? 'opaque-fd' | 'dma-buf' : 'opaque-fd' | 'sync-fd';

/** @internal The protocol's name in every message's header. */
export const MAGIC = 'opencl-interop handles';
/** @internal The most handles one message carries, the most characters of its data as JSON, and the most bytes of its header. */
export const MAX_HANDLES = 64;
/** @internal */
export const MAX_DATA = 16 * 1024;
/** @internal */
export const MAX_MESSAGE = 64 * 1024;

/** @internal Closes what arrived with a message that is refused. */
export function closeAll(fds: readonly number[]): void {
  for (const fd of fds) {
    closeOsHandle(fd);
  }
}

/** @internal A handle as a message describes it. */
export interface DescribedHandle {
  kind: HandleKind;
  handleType: string;
  size: number;
  dedicated: boolean;
  tiling?: 'linear' | 'optimal';
}

/** @internal A handle to send, checked: its description and its descriptor. */
export function describeHandle(value: unknown, index: number): { described: DescribedHandle; fd: number } {
  const what = `handles[${index}]`;
  if (value === null || typeof value !== 'object')
    throw new TypeError(`${what} must be an exported handle ({ handleType, handle, size? }); got ${describeValue(value)}`);
  const h = value as SendableHandle;
  // Each property read once.
  const handleType = h.handleType,
    handle = h.handle,
    size = h.size,
    kind = h.kind,
    disposed = h.disposed,
    dedicated = h.dedicated,
    tiling = h.tiling;
  if (disposed === true) throw new TypeError(`${what} was disposed or relinquished: its handle is gone`);
  const fdKind = typeof handleType === 'string' ? FD_TYPES[handleType] : undefined;
  if (fdKind === undefined) {
    throw new TypeError(
      `${what}.handleType must be one of 'opaque-fd', 'dma-buf', 'sync-fd' (file descriptors: what SCM_RIGHTS carries); got ${describeValue(handleType)}`,
    );
  }
  if (typeof handle !== 'number' || !Number.isInteger(handle) || handle < 0 || handle > 0x7fffffff) {
    throw new TypeError(
      `${what}.handle must be an open file descriptor (an integer >= 0)${handle === -1 ? ' (-1, a sync fd of a fence already signaled, has no descriptor to send)' : ''}; got ${describeValue(handle)}`,
    );
  }
  if (size !== undefined) checkInt(size, `${what}.size`, 0);
  if (kind !== undefined && kind !== 'memory' && kind !== 'semaphore')
    throw new TypeError(`${what}.kind must be 'memory' or 'semaphore'; got ${describeValue(kind)}`);
  const resolved: HandleKind = kind ?? (fdKind !== 'either' ? fdKind : (size ?? 0) > 0 ? 'memory' : 'semaphore');
  if (fdKind !== 'either' && resolved !== fdKind)
    throw new TypeError(`${what} is a ${resolved} handle of type '${handleType}', which only ${fdKind} has`);
  if (resolved === 'memory' && !(typeof size === 'number' && size > 0))
    throw new TypeError(`${what} is memory: its size (bytes of the allocation) must be given`);
  if (tiling !== undefined && tiling !== 'linear' && tiling !== 'optimal')
    throw new TypeError(`${what}.tiling must be 'linear' or 'optimal'; got ${describeValue(tiling)}`);
  const described: DescribedHandle = { kind: resolved, handleType, size: resolved === 'memory' ? size! : 0, dedicated: dedicated === true };
  if (tiling !== undefined) described.tiling = tiling;
  return { described, fd: handle };
}

/** @internal Checks a message's header; a reason string when it is not one. */
export function parseHeader(bytes: Uint8Array): { handles: DescribedHandle[]; data: unknown } | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return 'it is not JSON text';
  }
  const message = parsed as { protocol?: unknown; handles?: unknown; data?: unknown };
  if (message === null || typeof message !== 'object' || message.protocol !== MAGIC) return `it does not name the protocol '${MAGIC}'`;
  if (!Array.isArray(message.handles) || message.handles.length > MAX_HANDLES) return 'its handle list is missing or too long';
  for (const h of message.handles as DescribedHandle[]) {
    const ok =
      h !== null &&
      typeof h === 'object' &&
      (h.kind === 'memory' || h.kind === 'semaphore') &&
      typeof h.handleType === 'string' &&
      h.handleType in FD_TYPES &&
      (FD_TYPES[h.handleType] === 'either' || FD_TYPES[h.handleType] === h.kind) &&
      Number.isSafeInteger(h.size) &&
      h.size >= 0 &&
      (h.kind === 'semaphore' || h.size > 0) &&
      typeof h.dedicated === 'boolean' &&
      (h.tiling === undefined || h.tiling === 'linear' || h.tiling === 'optimal');
    if (!ok) return `a handle's description is malformed: ${describeValue(h)}`;
  }
  return { handles: message.handles as DescribedHandle[], data: message.data };
}
