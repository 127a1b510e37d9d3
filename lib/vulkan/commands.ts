// Command sequences recorded once and submitted many times: fills, copies and
// the shipped compute shader. The native layer puts a barrier between two
// operations only where one meets the other's writes (or writes what it read),
// orders the sequence after earlier transfer and compute work on the queue
// (unless told not to), and moves exported buffers and images from and to
// VK_QUEUE_FAMILY_EXTERNAL around it (native/vulkan/commands.cc says which
// spec rules this relies on).
import type { NativeVkCommands, NativeVkOp } from './native-types';
import { describeValue } from '../errors';
import { NativeHolder } from '../holder';
import { checkInt, checkOptions } from '../validate';
import type { VulkanDeviceLink } from './links';
import { VulkanDisposedError } from './errors';
import { VulkanBuffer, VulkanImage } from './memory';

export interface VulkanFillOptions {
  offset?: number;
  /** Bytes to fill (default: to the end of the buffer); a multiple of 4. */
  size?: number;
}
export interface VulkanCopyOptions {
  srcOffset?: number;
  dstOffset?: number;
  /** Bytes (default: what fits in both from the offsets). */
  size?: number;
}
export interface VulkanImageCopyOptions {
  plane?: number;
  /** Byte offset in the buffer (a multiple of the plane's texel size, and of 4). */
  bufferOffset?: number;
  /** Bytes between rows in the buffer (default: the plane's rowBytes); a multiple of the texel size. */
  bufferPitch?: number;
}
export interface NV12FrameOptions {
  /** The frame index the pattern is made for. */
  frame: number;
  width: number;
  height: number;
  /** Where the Y plane starts in the buffer (default 0) and its row pitch (default width). */
  yOffset?: number;
  yPitch?: number;
  /** Where the UV plane starts (default yOffset + yPitch * height) and its row pitch (default yPitch). */
  uvOffset?: number;
  uvPitch?: number;
}

/** @internal The plane offsets and pitches of an NV12 frame, checked. */
export function nv12Layout(o: NV12FrameOptions) {
  const width = checkInt(o.width, 'width', 4, 65536);
  const height = checkInt(o.height, 'height', 2, 65536);
  if (width % 4 || height % 2)
    throw new RangeError(`an NV12 test frame needs a width that is a multiple of 4 and an even height; got ${width}x${height}`);
  const frame = checkInt(o.frame, 'frame', 0, 0xffffffff);
  const yOffset = checkInt(o.yOffset ?? 0, 'yOffset', 0);
  const yPitch = checkInt(o.yPitch ?? width, 'yPitch', width);
  const uvOffset = checkInt(o.uvOffset ?? yOffset + yPitch * height, 'uvOffset', 0);
  const uvPitch = checkInt(o.uvPitch ?? yPitch, 'uvPitch', width);
  for (const [name, value] of [
    ['yOffset', yOffset],
    ['yPitch', yPitch],
    ['uvOffset', uvOffset],
    ['uvPitch', uvPitch],
  ] as const) {
    if (value % 4) throw new RangeError(`${name} must be a multiple of 4; got ${value}`);
  }
  const yEnd = yOffset + yPitch * (height - 1) + width;
  const uvEnd = uvOffset + uvPitch * (height / 2 - 1) + width;
  if (uvOffset < yEnd && yOffset < uvEnd) throw new RangeError('the Y and UV planes overlap');
  return { frame, width, height, yOffset, yPitch, uvOffset, uvPitch, end: Math.max(yEnd, uvEnd) };
}

export interface VulkanRecordOptions {
  /**
   * true (default): the sequence starts with a barrier that orders it after
   * the transfer and compute work submitted earlier on the queue (submission
   * order alone orders nothing in Vulkan). false: only the semaphores its
   * submission waits on order it; cheaper, and right only when those
   * semaphores are signalled after every earlier use of what it touches.
   */
  queueOrdered?: boolean;
}

/** Pipeline stages (VkPipelineStageFlagBits) a submission's semaphore waits can block. */
export type VulkanWaitStage = 'transfer' | 'compute' | 'all';
/** @internal */
export const WAIT_STAGE_BITS: Record<VulkanWaitStage, number> = { transfer: 0x1000, compute: 0x800, all: 0x10000 };

/** @internal The stages an operation runs at. */
export function opStage(op: NativeVkOp): number {
  return op.op === 'dispatch' ? WAIT_STAGE_BITS.compute : WAIT_STAGE_BITS.transfer;
}

/** Collects the operations of a command sequence; VulkanDevice.record() hands one to its callback. */
export class VulkanRecorder {
  readonly device: VulkanDeviceLink;
  /** @internal */
  readonly ops: NativeVkOp[] = [];
  /** @internal The buffers and images the operations use (checked again once the callback returns). */
  readonly uses: (VulkanBuffer | VulkanImage)[] = [];
  #closed = false;

  /** @internal */
  constructor(device: VulkanDeviceLink) {
    this.device = device;
  }

  /** @internal */
  close(): void {
    this.#closed = true;
  }

  #buffer(value: unknown, what: string): VulkanBuffer {
    if (this.#closed) throw new TypeError('this recorder is closed: record operations inside the record() callback');
    if (!(value instanceof VulkanBuffer)) throw new TypeError(`${what} must be a VulkanBuffer; got ${describeValue(value)}`);
    if (value.device !== this.device) throw new TypeError(`${what} belongs to another VulkanDevice`);
    value.native;
    this.uses.push(value);
    return value;
  }

  #image(value: unknown, what: string): VulkanImage {
    if (this.#closed) throw new TypeError('this recorder is closed: record operations inside the record() callback');
    if (!(value instanceof VulkanImage)) throw new TypeError(`${what} must be a VulkanImage; got ${describeValue(value)}`);
    if (value.device !== this.device) throw new TypeError(`${what} belongs to another VulkanDevice`);
    value.native;
    this.uses.push(value);
    return value;
  }

  /** Fills bytes of `buffer` with the 32-bit `value` repeated (vkCmdFillBuffer). */
  fill(buffer: VulkanBuffer, value: number, options?: VulkanFillOptions): this {
    const b = this.#buffer(buffer, 'buffer');
    const o = checkOptions<VulkanFillOptions>(options, 'options', ['offset', 'size']);
    const offset = checkInt(o.offset ?? 0, 'options.offset', 0, b.size);
    const size = checkInt(o.size ?? b.size - offset, 'options.size', 0, b.size - offset);
    if (offset % 4 || size % 4) throw new RangeError(`vkCmdFillBuffer needs an offset and size that are multiples of 4; got ${offset} and ${size}`);
    checkInt(value, 'value', 0, 0xffffffff);
    if (size > 0) this.ops.push({ op: 'fill', buffer: b.native, offset, size, value });
    return this;
  }

  /** Copies bytes from one buffer to another (vkCmdCopyBuffer). */
  copy(src: VulkanBuffer, dst: VulkanBuffer, options?: VulkanCopyOptions): this {
    const s = this.#buffer(src, 'src');
    const d = this.#buffer(dst, 'dst');
    const o = checkOptions<VulkanCopyOptions>(options, 'options', ['srcOffset', 'dstOffset', 'size']);
    const srcOffset = checkInt(o.srcOffset ?? 0, 'options.srcOffset', 0, s.size);
    const dstOffset = checkInt(o.dstOffset ?? 0, 'options.dstOffset', 0, d.size);
    const size = checkInt(
      o.size ?? Math.min(s.size - srcOffset, d.size - dstOffset),
      'options.size',
      0,
      Math.min(s.size - srcOffset, d.size - dstOffset),
    );
    if (s === d && srcOffset < dstOffset + size && dstOffset < srcOffset + size) throw new RangeError('the source and destination ranges overlap');
    if (size > 0) this.ops.push({ op: 'copy', src: s.native, dst: d.native, srcOffset, dstOffset, size });
    return this;
  }

  #imageCopy(kind: 'copyBufferToImage' | 'copyImageToBuffer', buffer: unknown, image: unknown, options: VulkanImageCopyOptions | undefined): this {
    const b = this.#buffer(buffer, 'buffer');
    const img = this.#image(image, 'image');
    const o = checkOptions<VulkanImageCopyOptions>(options, 'options', ['plane', 'bufferOffset', 'bufferPitch']);
    const plane = checkInt(o.plane ?? 0, 'options.plane', 0, img.planes.length - 1);
    const p = img.planes[plane]!;
    const bufferOffset = checkInt(o.bufferOffset ?? 0, 'options.bufferOffset', 0, b.size);
    const pitch = checkInt(o.bufferPitch ?? p.rowBytes, 'options.bufferPitch', p.rowBytes);
    if (bufferOffset % 4 || bufferOffset % p.texelBytes)
      throw new RangeError(`options.bufferOffset must be a multiple of 4 and of ${p.texelBytes}; got ${bufferOffset}`);
    if (pitch % p.texelBytes) throw new RangeError(`options.bufferPitch must be a multiple of the plane's ${p.texelBytes}-byte texels; got ${pitch}`);
    const needed = bufferOffset + pitch * (p.height - 1) + p.rowBytes;
    if (needed > b.size)
      throw new RangeError(
        `plane ${plane} (${p.height} rows of ${p.rowBytes} bytes, ${pitch} apart) at offset ${bufferOffset} needs ${needed} bytes; the buffer has ${b.size}`,
      );
    this.ops.push({ op: kind, buffer: b.native, image: img.native, plane, bufferOffset, rowLength: pitch / p.texelBytes });
    return this;
  }

  /** Copies a buffer's rows into one plane of an image (vkCmdCopyBufferToImage). */
  copyBufferToImage(buffer: VulkanBuffer, image: VulkanImage, options?: VulkanImageCopyOptions): this {
    return this.#imageCopy('copyBufferToImage', buffer, image, options);
  }

  /** Copies one plane of an image into a buffer's rows (vkCmdCopyImageToBuffer). */
  copyImageToBuffer(image: VulkanImage, buffer: VulkanBuffer, options?: VulkanImageCopyOptions): this {
    return this.#imageCopy('copyImageToBuffer', buffer, image, options);
  }

  /**
   * Writes test frame `frame` of an NV12 video into `buffer` at the given
   * plane offsets and pitches, with the shipped compute shader
   * (lib/vulkan/shaders/nv12-pattern.comp); nv12TestFrame() gives the same
   * bytes on the CPU.
   */
  nv12TestFrame(buffer: VulkanBuffer, options: NV12FrameOptions): this {
    const b = this.#buffer(buffer, 'buffer');
    if (options === null || typeof options !== 'object') throw new TypeError(`options must be an object; got ${describeValue(options)}`);
    checkOptions<NV12FrameOptions>(options, 'options', ['frame', 'width', 'height', 'yOffset', 'yPitch', 'uvOffset', 'uvPitch']);
    const l = nv12Layout(options);
    if (l.end > b.size) throw new RangeError(`the frame's planes end at byte ${l.end}; the buffer has ${b.size}`);
    const push = new Uint32Array([l.frame, l.width, l.height, l.yOffset, l.yPitch, l.uvOffset, l.uvPitch]);
    const groups: [number, number, number] = [Math.ceil(l.width / 4 / 16), Math.ceil(l.height / 16), 1];
    this.ops.push({ op: 'dispatch', shader: 'nv12-pattern', buffer: b.native, push, groups });
    return this;
  }
}

/**
 * A recorded command sequence: submit it as often as needed
 * (VulkanQueue.submit). It holds what it uses.
 * dispose() frees the command buffer once no submission in flight uses it.
 */
export class VulkanCommands extends NativeHolder<NativeVkCommands> {
  readonly device: VulkanDeviceLink;
  /** How many operations it records. */
  readonly length: number;
  /** The stages its operations run at: where a submission's semaphore waits block it by default. */
  readonly waitStages: readonly Exclude<VulkanWaitStage, 'all'>[];
  /** @internal VkPipelineStageFlags of its operations. */
  readonly stageBits: number;

  /** @internal */
  constructor(device: VulkanDeviceLink, native: NativeVkCommands, ops: readonly NativeVkOp[]) {
    super(native);
    this.device = device;
    this.length = ops.length;
    let bits = 0;
    for (const op of ops) bits |= opStage(op);
    this.stageBits = bits;
    this.waitStages = Object.freeze((['transfer', 'compute'] as const).filter((s) => bits & WAIT_STAGE_BITS[s]));
  }

  /** @internal */
  protected disposedError(): Error {
    return new VulkanDisposedError('VulkanCommands');
  }
}
