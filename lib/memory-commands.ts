// The commands on memory objects: transfers between host memory and buffers
// or images (staged by lib/staging.ts), copies and fills. Each checks its
// arguments and goes through the queue's submit() (lib/queue.ts), whose
// methods call these.
import type { Event, EnqueueOptions } from './event';
import { OpenCLError, contextMismatch, describeValue } from './errors';
import { CL } from './facts/cl-constants';
import { STATUS } from './facts/cl-status';
import { type CheckedHost, type HostData, checkHost } from './host-memory';
import type { QueueLink } from './links';
import { CLBuffer, CLImage, type MemObject, hostImageBytes } from './memory';
import type { TransferOptions } from './staging';
import { checkCount, checkTriple } from './validate';

type Triple = [number, number, number];

export interface BufferTransferOptions extends TransferOptions {
  offset?: number;
  /** Bytes to move; defaults to the host memory's byteLength. */
  size?: number;
}
export interface ImageRegionOptions extends EnqueueOptions {
  origin?: Triple;
  /** Defaults to the whole image from origin. */
  region?: Triple;
}
export interface ImageTransferOptions extends ImageRegionOptions {
  blocking?: boolean;
  /** Host row pitch in bytes (0: tightly packed). */
  rowPitch?: number;
  /** Host slice pitch in bytes (0: tightly packed). */
  slicePitch?: number;
}

/** What NVIDIA's (580) clEnqueueFillImage does with the wait list of a fill of a 3D image. */
const fill3dWaitsOnHost = "on NVIDIA's driver a fill of a 3D image returns only once its wait list has ended";

/** @internal A memory object argument of a command of `queue`: of the expected class, usable, of the queue's context. */
export function expectMem<T extends MemObject>(
  queue: QueueLink,
  value: unknown,
  type: abstract new (...args: never[]) => T,
  what: string,
  call: string,
): T {
  if (!(value instanceof type)) throw new TypeError(`${what} must be a ${type.name}; got ${describeValue(value)}`);
  value.checkCommandUse(what, call);
  if (value.context !== queue.context) throw contextMismatch(call, `the ${what}`);
  return value;
}

/** Copies bytes from a buffer into host memory. */
export function readBuffer(queue: QueueLink, buffer: CLBuffer, target: HostData, options: BufferTransferOptions): Event {
  expectMem(queue, buffer, CLBuffer, 'buffer', 'clEnqueueReadBuffer');
  const host = checkHost(target, 'target');
  const { offset, size } = bufferRange(buffer, host, options, 'target');
  return queue.stageTransfer('clEnqueueReadBuffer', 'read', host, size, options, (blocking, memory, waitList) =>
    queue.context.addon.enqueueReadBuffer(queue.slot, buffer.slot, blocking, offset, size, memory, waitList),
  );
}

/** Copies bytes from host memory into a buffer. */
export function writeBuffer(queue: QueueLink, buffer: CLBuffer, source: HostData, options: BufferTransferOptions): Event {
  expectMem(queue, buffer, CLBuffer, 'buffer', 'clEnqueueWriteBuffer');
  const host = checkHost(source, 'source');
  const { offset, size } = bufferRange(buffer, host, options, 'source');
  return queue.stageTransfer('clEnqueueWriteBuffer', 'write', host, size, options, (blocking, memory, waitList) =>
    queue.context.addon.enqueueWriteBuffer(queue.slot, buffer.slot, blocking, offset, size, memory, waitList),
  );
}

function bufferRange(buffer: CLBuffer, host: CheckedHost, options: BufferTransferOptions, what: string) {
  const available = host.byteLength;
  const offset = options.offset ?? 0;
  const size = options.size ?? available;
  checkCount(offset, 'offset');
  checkCount(size, 'size', 1);
  if (size > available) throw new RangeError(`${what} has ${available} bytes; size is ${size}`);
  if (offset + size > buffer.size) {
    throw new RangeError(`offset + size (${offset + size}) exceeds the buffer's ${buffer.size} bytes`);
  }
  return { offset, size };
}

/** Copies between buffers. */
export function copyBuffer(
  queue: QueueLink,
  source: CLBuffer,
  destination: CLBuffer,
  options: EnqueueOptions & { srcOffset?: number; dstOffset?: number; size?: number },
): Event {
  expectMem(queue, source, CLBuffer, 'source', 'clEnqueueCopyBuffer');
  expectMem(queue, destination, CLBuffer, 'destination', 'clEnqueueCopyBuffer');
  const srcOffset = options.srcOffset ?? 0;
  const dstOffset = options.dstOffset ?? 0;
  checkCount(srcOffset, 'srcOffset');
  checkCount(dstOffset, 'dstOffset');
  const size = options.size ?? Math.min(source.size - srcOffset, destination.size - dstOffset);
  checkCount(size, 'size', 1);
  if (srcOffset + size > source.size) throw new RangeError(`srcOffset + size (${srcOffset + size}) exceeds the source's ${source.size} bytes`);
  if (dstOffset + size > destination.size) {
    throw new RangeError(`dstOffset + size (${dstOffset + size}) exceeds the destination's ${destination.size} bytes`);
  }
  return queue.submit({ call: 'clEnqueueCopyBuffer', waitFor: options.waitFor }, (waitList) =>
    queue.context.addon.enqueueCopyBuffer(queue.slot, source.slot, destination.slot, srcOffset, dstOffset, size, waitList),
  );
}

/** Fills a buffer range with a repeated pattern of 1, 2, 4, ... 128 bytes; offset and size are multiples of it. */
export function fillBuffer(
  queue: QueueLink,
  buffer: CLBuffer,
  pattern: ArrayBufferView,
  options: EnqueueOptions & { offset?: number; size?: number },
): Event {
  expectMem(queue, buffer, CLBuffer, 'buffer', 'clEnqueueFillBuffer');
  if (!ArrayBuffer.isView(pattern)) throw new TypeError(`pattern must be a typed array; got ${describeValue(pattern)}`);
  const bytes = checkHost(pattern, 'pattern').byteLength;
  if (![1, 2, 4, 8, 16, 32, 64, 128].includes(bytes)) {
    throw new RangeError(`pattern must be 1, 2, 4, 8, 16, 32, 64 or 128 bytes long; got ${bytes}`);
  }
  const offset = options.offset ?? 0;
  checkCount(offset, 'offset');
  const size = options.size ?? buffer.size - offset;
  checkCount(size, 'size', 1);
  if (offset % bytes || size % bytes) {
    throw new RangeError(`offset (${offset}) and size (${size}) must be multiples of the pattern's ${bytes} bytes`);
  }
  if (offset + size > buffer.size) throw new RangeError(`offset + size (${offset + size}) exceeds the buffer's ${buffer.size} bytes`);
  return queue.submit({ call: 'clEnqueueFillBuffer', waitFor: options.waitFor }, (waitList) =>
    queue.context.addon.enqueueFillBuffer(queue.slot, buffer.slot, pattern, offset, size, waitList),
  );
}

/** The origin and region of an image command, checked against the image. */
export function imageRegion(image: CLImage, options: ImageRegionOptions): { origin: Triple; region: Triple } {
  const origin = options.origin !== undefined ? checkTriple(options.origin, 'origin', 0) : ([0, 0, 0] as Triple);
  const full = image.region;
  const region =
    options.region !== undefined
      ? checkTriple(options.region, 'region', 1)
      : ([full[0] - origin[0], full[1] - origin[1], full[2] - origin[2]] as Triple);
  for (let i = 0; i < 3; i++) {
    if (region[i]! < 1 || origin[i]! + region[i]! > full[i]!) {
      throw new RangeError(`origin + region ([${origin}] + [${region}]) is outside the image ([${full}])`);
    }
  }
  return { origin, region };
}

/** A read or write of an image region (readImage, writeImage). */
export function imageTransfer(
  queue: QueueLink,
  call: string,
  direction: 'read' | 'write',
  image: CLImage,
  data: HostData,
  what: string,
  options: ImageTransferOptions,
): Event {
  expectMem(queue, image, CLImage, 'image', call);
  const host = checkHost(data, what);
  const { origin, region } = imageRegion(image, options);
  const rowPitch = options.rowPitch ?? 0;
  const slicePitch = options.slicePitch ?? 0;
  const bytes = hostImageBytes(image, region, rowPitch, slicePitch, image.type !== CL.CL_MEM_OBJECT_IMAGE1D_ARRAY);
  if (host.byteLength < bytes) throw new RangeError(`${what} has ${host.byteLength} bytes; the region needs ${bytes}`);
  const addon = queue.context.addon;
  const run = direction === 'read' ? addon.enqueueReadImage : addon.enqueueWriteImage;
  return queue.stageTransfer(call, direction, host, bytes, options, (blocking, memory, waitList) =>
    run(queue.slot, image.slot, blocking, origin, region, rowPitch, slicePitch, memory, waitList),
  );
}

/** Copies a region between images of the same format. */
export function copyImage(
  queue: QueueLink,
  source: CLImage,
  destination: CLImage,
  options: EnqueueOptions & { srcOrigin?: Triple; dstOrigin?: Triple; region?: Triple },
): Event {
  expectMem(queue, source, CLImage, 'source', 'clEnqueueCopyImage');
  expectMem(queue, destination, CLImage, 'destination', 'clEnqueueCopyImage');
  const srcOrigin = options.srcOrigin !== undefined ? checkTriple(options.srcOrigin, 'srcOrigin', 0) : ([0, 0, 0] as Triple);
  const dstOrigin = options.dstOrigin !== undefined ? checkTriple(options.dstOrigin, 'dstOrigin', 0) : ([0, 0, 0] as Triple);
  const region = options.region !== undefined ? checkTriple(options.region, 'region', 1) : source.region;
  return queue.submit({ call: 'clEnqueueCopyImage', waitFor: options.waitFor }, (waitList) =>
    queue.context.addon.enqueueCopyImage(queue.slot, source.slot, destination.slot, srcOrigin, dstOrigin, region, waitList),
  );
}

/**
 * Fills an image region with one color: four floats for normalized and float
 * formats, four signed or unsigned integers for integer formats.
 */
export function fillImage(queue: QueueLink, image: CLImage, color: readonly number[], options: ImageRegionOptions): Event {
  expectMem(queue, image, CLImage, 'image', 'clEnqueueFillImage');
  if (!Array.isArray(color) || color.length !== 4 || !color.every((c) => typeof c === 'number')) {
    throw new TypeError(`color must be an array of four numbers; got ${describeValue(color)}`);
  }
  const type = image.channelType;
  const packed = type.startsWith('SIGNED_INT')
    ? new Int32Array(color)
    : type.startsWith('UNSIGNED_INT')
      ? new Uint32Array(color)
      : new Float32Array(color);
  const { origin, region } = imageRegion(image, options);
  // NVIDIA's (580) fill of a 3D image returns only once its wait list has ended (a 2D one at once): refused
  // behind an unset user event on every driver, as the external-memory acquire is.
  const blocking = image.type === CL.CL_MEM_OBJECT_IMAGE3D ? fill3dWaitsOnHost : undefined;
  return queue.submit({ call: 'clEnqueueFillImage', waitFor: options.waitFor, blocking }, (waitList) =>
    queue.context.addon.enqueueFillImage(queue.slot, image.slot, packed, origin, region, waitList),
  );
}

export function copyImageToBuffer(queue: QueueLink, image: CLImage, buffer: CLBuffer, options: ImageRegionOptions & { dstOffset?: number }): Event {
  expectMem(queue, image, CLImage, 'image', 'clEnqueueCopyImageToBuffer');
  expectMem(queue, buffer, CLBuffer, 'buffer', 'clEnqueueCopyImageToBuffer');
  const { origin, region } = imageRegion(image, options);
  const dstOffset = options.dstOffset ?? 0;
  checkCount(dstOffset, 'dstOffset');
  const throughParent = subBufferSide(queue, buffer, dstOffset, 'dstOffset', image, region, 'clEnqueueCopyImageToBuffer');
  return queue.submit({ call: 'clEnqueueCopyImageToBuffer', waitFor: options.waitFor }, (waitList) =>
    queue.context.addon.enqueueCopyImageToBuffer(queue.slot, image.slot, buffer.slot, origin, region, dstOffset, waitList, throughParent),
  );
}

export function copyBufferToImage(queue: QueueLink, buffer: CLBuffer, image: CLImage, options: ImageRegionOptions & { srcOffset?: number }): Event {
  expectMem(queue, buffer, CLBuffer, 'buffer', 'clEnqueueCopyBufferToImage');
  expectMem(queue, image, CLImage, 'image', 'clEnqueueCopyBufferToImage');
  const { origin, region } = imageRegion(image, options);
  const srcOffset = options.srcOffset ?? 0;
  checkCount(srcOffset, 'srcOffset');
  const throughParent = subBufferSide(queue, buffer, srcOffset, 'srcOffset', image, region, 'clEnqueueCopyBufferToImage');
  return queue.submit({ call: 'clEnqueueCopyBufferToImage', waitFor: options.waitFor }, (waitList) =>
    queue.context.addon.enqueueCopyBufferToImage(queue.slot, buffer.slot, image.slot, srcOffset, origin, region, waitList, throughParent),
  );
}

/**
 * A sub-buffer in a copy between an image and a buffer goes to the driver
 * as its parent buffer and an offset (true): PoCL 3.1 crashes on the JS
 * thread otherwise (its image<->buffer and rectangular copies put the
 * sub-buffer object itself in the command's migration list; its other
 * commands convert to the parent first). The parent is the same memory, so
 * any driver gets the same copy; what the driver would check on the
 * sub-buffer is checked here: the range fits in it, and its origin is
 * aligned for the queue's device (CL_MISALIGNED_SUB_BUFFER_OFFSET).
 */
function subBufferSide(queue: QueueLink, buffer: CLBuffer, offset: number, what: string, image: CLImage, region: Triple, call: string): boolean {
  if (buffer.parent === undefined) return false;
  const bytes = region[0] * region[1] * region[2] * image.elementSize;
  if (offset + bytes > buffer.size) {
    throw new RangeError(`${what} + the region's ${bytes} bytes (${offset + bytes}) exceeds the sub-buffer's ${buffer.size} bytes`);
  }
  const align = queue.device.memBaseAddrAlign / 8;
  const origin = buffer.offset;
  if (align > 0 && origin % align !== 0) {
    throw new OpenCLError(
      STATUS.CL_MISALIGNED_SUB_BUFFER_OFFSET,
      call,
      `the sub-buffer's origin (${origin}) is not a multiple of the device's CL_DEVICE_MEM_BASE_ADDR_ALIGN (${align} bytes)`,
    );
  }
  return true;
}
