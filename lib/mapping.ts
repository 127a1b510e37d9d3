// Mapping: the map commands of a queue (queue.mapBuffer(), mapImage() and
// their Sync forms end here), the Mapping they return (host views that end
// at unmap) and the maps in flight by address. The twin of native/mapping.cc.
import { constants as bufferConstants } from 'node:buffer';
import { CL } from './facts/cl-constants';
import { OpenCLStateError, describeValue } from './errors';
import type { EnqueueOptions, Event } from './event';
import type { QueueLink } from './links';
import { type CLBuffer, type CLImage, type MapRange, type MemObject, isDetached } from './memory';
import { checkCount } from './validate';

type Triple = [number, number, number];

export type MapAccess = 'read' | 'write' | 'read-write' | 'write-invalidate';

/** What a buffer map takes. */
export type MapBufferOptions = EnqueueOptions & { access?: MapAccess; offset?: number; size?: number };

const mapBits: Record<MapAccess, number> = {
  read: CL.CL_MAP_READ,
  write: CL.CL_MAP_WRITE,
  'read-write': CL.CL_MAP_READ | CL.CL_MAP_WRITE,
  'write-invalidate': CL.CL_MAP_WRITE_INVALIDATE_REGION,
};

function mapFlags(access: MapAccess | undefined): bigint {
  const bits = Object.hasOwn(mapBits, access ?? 'read-write') ? mapBits[access ?? 'read-write'] : undefined;
  if (bits === undefined) throw new TypeError(`access must be one of ${Object.keys(mapBits).join(', ')}; got ${describeValue(access)}`);
  return BigInt(bits);
}

/**
 * @internal Enqueues the map of a buffer range (the buffer checked for the queue by the caller). Blocking: the bytes
 * are there when it returns.
 */
export function mapBuffer(queue: QueueLink, buffer: CLBuffer, blocking: boolean, options: MapBufferOptions): Mapping {
  const flags = mapFlags(options.access);
  const offset = options.offset ?? 0;
  checkCount(offset, 'offset');
  const size = options.size ?? buffer.size - offset;
  checkCount(size, 'size', 1);
  if (offset + size > buffer.size) throw new RangeError(`offset + size (${offset + size}) exceeds the buffer's ${buffer.size} bytes`);
  // A GPU's buffer can be larger than an ArrayBuffer can be (NVIDIA's: over 4 GiB); refused before anything is mapped.
  if (size > bufferConstants.MAX_LENGTH)
    throw new RangeError(
      `size: a mapping is at most ${bufferConstants.MAX_LENGTH} bytes here (buffer.constants.MAX_LENGTH, the largest ArrayBuffer); got ${size}${options.size === undefined ? ` (the buffer's ${buffer.size} bytes from offset ${offset})` : ''}: map it in parts with offset and size`,
    );
  const range = { start: offset, end: offset + size, writes: options.access !== 'read' };
  buffer.checkMapOverlap(range);
  let result!: ReturnType<QueueLink['context']['addon']['enqueueMapBuffer']>;
  const event = queue.submit({ call: 'clEnqueueMapBuffer', waitFor: options.waitFor, blocking }, (waitList) => {
    result = queue.context.addon.enqueueMapBuffer(queue.slot, buffer.slot, blocking, flags, offset, size, waitList);
    return result.event;
  });
  return new Mapping(buffer, queue, result.buffer, result.record, result.address, event, range);
}

/** @internal Enqueues the map of an image region (checked by the caller). */
export function mapImage(
  queue: QueueLink,
  image: CLImage,
  blocking: boolean,
  options: EnqueueOptions & { access?: MapAccess },
  checkedRegion: () => { origin: Triple; region: Triple },
): Mapping {
  const { access, waitFor } = options;
  const flags = mapFlags(access);
  const { origin, region } = checkedRegion();
  const range = { start: 0, end: Number.MAX_SAFE_INTEGER, writes: access !== 'read' };
  image.checkMapOverlap(range);
  let result!: ReturnType<QueueLink['context']['addon']['enqueueMapImage']>;
  const event = queue.submit({ call: 'clEnqueueMapImage', waitFor, blocking }, (waitList) => {
    result = queue.context.addon.enqueueMapImage(queue.slot, image.slot, blocking, flags, origin, region, waitList);
    return result.event;
  });
  return new Mapping(image, queue, result.buffer, result.record, result.address, event, range, result.rowPitch, result.slicePitch);
}

/** @internal Resolves once the map has completed; a map that failed is abandoned (it mapped nothing) and rejects. */
export async function mapped(mapping: Mapping): Promise<Mapping> {
  try {
    await mapping.event.completed;
  } catch (error) {
    mapping.abandon();
    throw error;
  }
  return mapping;
}

/**
 * Maps that wait on user events, by the address they map, until those are
 * set. A driver finds the mapping an unmap ends by its address, so no unmap is
 * enqueued while another map of its address is in flight (native/mapping.cc,
 * MapsInFlight): unmap() waits for such maps, and refuses when one of them
 * waits on a user event that is not set (it would wait for ever).
 */
const gatedMaps = new Map<bigint, Event[]>();

function noteGatedMap(address: bigint, event: Event): void {
  if (event.gates.length === 0) return;
  for (const [key, events] of gatedMaps) {
    const still = events.filter((e) => e.unsetGates().length > 0);
    if (still.length) gatedMaps.set(key, still);
    else gatedMaps.delete(key);
  }
  const list = gatedMaps.get(address);
  if (list) list.push(event);
  else gatedMaps.set(address, [event]);
}

/** Another map of `address` that waits on a user event not set yet, if any. */
function gatedMapAt(address: bigint, own: Event): Event | undefined {
  return gatedMaps.get(address)?.find((e) => e !== own && e.unsetGates().length > 0);
}

/**
 * A mapped region of a buffer or image. Unmapping detaches `buffer`, so no view
 * outlives the mapping. A mapping that is dropped without unmap() is unmapped
 * when its ArrayBuffer is garbage-collected, once its map has completed (a map
 * that failed mapped nothing and is never unmapped); until then the memory
 * stays valid even when the buffer, queue and context are released.
 */
export class Mapping {
  readonly memory: MemObject;
  readonly queue: QueueLink;
  /** The map command's event. */
  readonly event: Event;
  /** Row and slice pitch of a mapped image region (0 for buffers). */
  readonly rowPitch: number;
  readonly slicePitch: number;
  /** @internal */
  readonly range: MapRange;
  #buffer: ArrayBuffer | null;
  readonly #record: unknown;
  readonly #address: bigint;

  /** @internal */
  constructor(
    memory: MemObject,
    queue: QueueLink,
    buffer: ArrayBuffer,
    record: unknown,
    address: bigint,
    event: Event,
    range: MapRange,
    rowPitch = 0,
    slicePitch = 0,
  ) {
    this.memory = memory;
    this.queue = queue;
    this.#buffer = buffer;
    this.#record = record;
    this.#address = address;
    noteGatedMap(address, event);
    this.event = event;
    this.range = range;
    this.rowPitch = rowPitch;
    this.slicePitch = slicePitch;
    memory.mappings.add(this);
    queue.mappings.add(this);
  }

  get mapped(): boolean {
    return this.#buffer !== null && !isDetached(this.#buffer);
  }

  /** The mapped bytes. Throws once unmapped; views taken earlier become empty (detached). */
  get buffer(): ArrayBuffer {
    if (this.#buffer === null) throw new OpenCLStateError('this mapping has been unmapped');
    if (isDetached(this.#buffer)) {
      throw new OpenCLStateError("this mapping's ArrayBuffer was transferred away; it is unmapped when that copy is collected");
    }
    return this.#buffer;
  }

  /** A Uint8Array over the mapped bytes. */
  bytes(): Uint8Array {
    return new Uint8Array(this.buffer);
  }

  /**
   * Unmaps (clEnqueueUnmapMemObject) and detaches the buffer. When another map
   * of the same address is still in flight, waits for it first (drivers end
   * the earliest mapping of an address), or throws OpenCLStateError when that
   * map waits on a user event that is not set. A mapping whose map failed
   * mapped nothing: it is detached, and unmap() throws OpenCLStateError.
   */
  unmap(options: { waitFor?: readonly Event[] } = {}): Event {
    const buffer = this.buffer;
    if (this.event.outcome() === 'failed') {
      this.abandon();
      throw new OpenCLStateError(`the map of this mapping failed (${this.event.knownFailure()}): it mapped nothing, so there is nothing to unmap`);
    }
    const gated = gatedMapAt(this.#address, this.event);
    if (gated) {
      throw new OpenCLStateError(
        `another map of the same address (of this ${this.memory.kind} or one mapped from the same memory) waits on ${gated.unsetGates()[0]!.describe()}: ` +
          'drivers end the earliest mapping of an address, so this unmap would end that one before its map has run; set the user event (or let that map fail) first',
      );
    }
    const event = this.queue.submit({ call: 'clEnqueueUnmapMemObject', waitFor: options.waitFor }, (waitList) =>
      this.queue.context.addon.enqueueUnmap(buffer, this.#record, waitList),
    );
    this.#forget();
    return event;
  }

  [Symbol.dispose](): void {
    this.abandon();
  }

  /**
   * @internal Ends the mapping without waiting or throwing (release paths, a map that failed): detaching the buffer
   * hands the native record over, which unmaps once the map has completed and never after a map that failed.
   */
  abandon(): void {
    if (this.#buffer === null) return;
    this.queue.context.addon.detachArrayBuffer(this.#buffer);
    this.#forget();
  }

  #forget(): void {
    this.#buffer = null;
    this.memory.mappings.delete(this);
    this.queue.mappings.delete(this);
  }
}
