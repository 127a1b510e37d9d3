// A handle received from another process: an owned descriptor (the rule of
// lib/os-handle.ts's OwnedHandle) with the kind and description its message
// gave it.
import { OwnedHandle } from '../os-handle';
import { HandleChannelError } from './errors';
import type { HandleKind, ReceivedHandleType } from './messages';

/**
 * A handle received from another process: its descriptor is this process's.
 * Import it as you would an exporter's handle (importBuffer, importImage,
 * importPlanes, semaphores.import): the import calls relinquish(). Until then
 * this object owns it; dispose() (or `using`, or garbage collection) closes it.
 */
export class ReceivedHandle<K extends HandleKind = HandleKind> extends OwnedHandle<ReceivedHandleType<K>> {
  readonly kind: K;
  /** The file descriptor, in this process. */
  declare readonly handle: number;
  /** Memory: bytes of the allocation as the sender described it; semaphores: 0. */
  readonly size: number;
  readonly dedicated: boolean;
  readonly tiling?: 'linear' | 'optimal';

  /** @internal */
  constructor(
    kind: K,
    handleType: ReceivedHandleType<K>,
    handle: number,
    size: number,
    dedicated: boolean,
    tiling: 'linear' | 'optimal' | undefined,
  ) {
    super(handleType, handle);
    this.kind = kind;
    this.size = size;
    this.dedicated = dedicated;
    if (tiling !== undefined) this.tiling = tiling;
    this.own();
  }

  /** @internal */
  protected gone(relinquished: boolean): Error {
    return new HandleChannelError(
      'closed',
      `this received handle ${relinquished ? 'was relinquished already' : 'was disposed: its descriptor is closed'}`,
    );
  }
}
