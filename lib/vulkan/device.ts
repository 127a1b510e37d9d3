// A logical device with one queue (compute + transfer): buffers, images,
// semaphores, recorded commands, and submission that costs one native call.
import type { NativeVkDevice, NativeVkSemaphore } from './native-types';
import { describeValue } from '../errors';
import { NativeHolder } from '../holder';
import { checkBoolean, checkChoice, checkInt, checkOptions } from '../validate';
import { VulkanCommands, VulkanRecorder, WAIT_STAGE_BITS, type VulkanRecordOptions, type VulkanWaitStage } from './commands';
import { VulkanDisposedError, VulkanNotSupportedError } from './errors';
import { MEMORY_HANDLE_BITS, SEMAPHORE_HANDLE_BITS, type VulkanMemoryHandleType, type VulkanSemaphoreHandleType } from './handles';
import type { VulkanPhysicalDevice } from './physical-device';
import { IMAGE_FORMATS, VulkanBuffer, VulkanImage, type VulkanImageFormat } from './memory';
import { VulkanSemaphore } from './semaphore';

export interface VulkanBufferOptions {
  /** Bytes. */
  size: number;
  /**
   * Handle types the memory may be exported as. Default: the platform's
   * opaque type ('opaque-fd', or 'opaque-win32' on Windows) where the device
   * exports it, else none. [] makes memory that is never exported.
   */
  exportTypes?: readonly VulkanMemoryHandleType[];
  /** Host-visible memory (default false: device-local where the device has it). */
  hostVisible?: boolean;
}

export interface VulkanImageOptions {
  width: number;
  height: number;
  /** 'rgba8' (VK_FORMAT_R8G8B8A8_UNORM) or 'nv12' (VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, where the device has it). */
  format: VulkanImageFormat;
  /** 'linear' (default: planes at offsets and pitches an importer can use) or 'optimal'. */
  tiling?: 'linear' | 'optimal';
  /** As for buffers. */
  exportTypes?: readonly VulkanMemoryHandleType[];
}

export interface VulkanSemaphoreOptions {
  /** Handle types it may be exported as. Default: the platform's opaque type where the device exports it, else none. */
  exportTypes?: readonly VulkanSemaphoreHandleType[];
}

export interface VulkanSubmitOptions {
  /** Binary semaphores the submission waits on before it runs. */
  wait?: readonly VulkanSemaphore[];
  /**
   * The pipeline stage the waits block: 'transfer', 'compute' or 'all'.
   * Default: the stages the commands run at (commands.waitStages); 'all' for
   * a submission without commands. A stage that leaves out some of the
   * commands' stages is refused (those operations would not wait).
   */
  waitStage?: VulkanWaitStage;
  /** Binary semaphores it signals when done. */
  signal?: readonly VulkanSemaphore[];
}

const IMAGE_USAGE = { transfer: 0x1 | 0x2 };
const FORMAT_FEATURE_TRANSFER = 0x4000 | 0x8000;

/** A submission prepared once (VulkanQueue.prepare) and submitted many times: one native call, no arrays made per submit. */
export class VulkanSubmission {
  readonly queue: VulkanQueue;
  readonly commands: VulkanCommands | null;
  readonly wait: readonly VulkanSemaphore[];
  readonly signal: readonly VulkanSemaphore[];
  /** The stage bits (VkPipelineStageFlags) its semaphore waits block. */
  readonly waitStageBits: number;
  readonly #waitNative: NativeVkSemaphore[] | undefined;
  readonly #signalNative: NativeVkSemaphore[] | undefined;

  /** @internal */
  constructor(queue: VulkanQueue, commands: VulkanCommands | null, wait: VulkanSemaphore[], signal: VulkanSemaphore[], waitStageBits: number) {
    this.queue = queue;
    this.commands = commands;
    this.waitStageBits = waitStageBits;
    this.wait = Object.freeze(wait);
    this.signal = Object.freeze(signal);
    this.#waitNative = wait.length ? wait.map((s) => s.native) : undefined;
    this.#signalNative = signal.length ? signal.map((s) => s.native) : undefined;
  }

  /** Submits it (vkQueueSubmit): the promise settles when the work is done, without blocking JavaScript. */
  submit(): Promise<void> {
    const device = this.queue.device.native;
    const commands = this.commands === null ? null : this.commands.native;
    const wait = this.wait,
      signal = this.signal;
    for (let i = 0; i < wait.length; i++) {
      wait[i]!.native;
      wait[i]!.checkWait();
    }
    for (let i = 0; i < signal.length; i++) {
      signal[i]!.native;
      signal[i]!.checkSignal();
    }
    const done = device.submit(commands, this.#waitNative, this.#signalNative, this.waitStageBits);
    for (let i = 0; i < wait.length; i++) wait[i]!.waited();
    for (let i = 0; i < signal.length; i++) signal[i]!.signaled();
    return done;
  }
}

/** The device's queue. */
export class VulkanQueue {
  readonly device: VulkanDevice;
  /** The queue family index. */
  readonly family: number;

  /** @internal */
  constructor(device: VulkanDevice, family: number) {
    this.device = device;
    this.family = family;
  }

  #semaphores(value: unknown, what: string): VulkanSemaphore[] {
    if (value === undefined) return [];
    if (!Array.isArray(value)) throw new TypeError(`${what} must be an array of VulkanSemaphore; got ${describeValue(value)}`);
    if (value.length > 16) throw new RangeError(`${what} holds ${value.length} semaphores; at most 16`);
    return value.map((s, i) => {
      if (!(s instanceof VulkanSemaphore)) throw new TypeError(`${what}[${i}] must be a VulkanSemaphore; got ${describeValue(s)}`);
      if (s.device !== this.device) throw new TypeError(`${what}[${i}] belongs to another VulkanDevice`);
      s.native;
      return s;
    });
  }

  #commands(commands: unknown): VulkanCommands | null {
    if (commands === null) return null;
    if (!(commands instanceof VulkanCommands))
      throw new TypeError(`commands must be VulkanCommands (device.record()) or null; got ${describeValue(commands)}`);
    if (commands.device !== this.device) throw new TypeError('commands were recorded on another VulkanDevice');
    commands.native;
    return commands;
  }

  /** Checks a submission once; its submit() is then the cheapest way to submit it again and again. */
  prepare(commands: VulkanCommands | null, options?: VulkanSubmitOptions): VulkanSubmission {
    this.device.native;
    const o = checkOptions<VulkanSubmitOptions>(options, 'options', ['wait', 'signal', 'waitStage']);
    const cmds = this.#commands(commands);
    if (cmds && cmds.length === 0) {
      throw new RangeError(
        'commands record no operations (the record() callback added none): there is nothing to submit; submit null to only wait on or signal semaphores',
      );
    }
    let waitStageBits = cmds ? cmds.stageBits : WAIT_STAGE_BITS.all;
    if (o.waitStage !== undefined) {
      const stage = checkChoice<VulkanWaitStage>(o.waitStage, 'options.waitStage', ['transfer', 'compute', 'all']);
      waitStageBits = WAIT_STAGE_BITS[stage];
      if (stage !== 'all' && cmds && cmds.stageBits & ~waitStageBits) {
        throw new RangeError(
          `options.waitStage '${stage}' leaves out the ${cmds.waitStages.filter((s) => s !== stage).join(' and ')} work of these commands, which would not wait; use 'all' or leave it out`,
        );
      }
    }
    const wait = this.#semaphores(o.wait, 'options.wait');
    const signal = this.#semaphores(o.signal, 'options.signal');
    for (const list of [wait, signal]) {
      for (let i = 1; i < list.length; i++)
        if (list.indexOf(list[i]!) !== i) throw new TypeError('a semaphore appears twice in options.wait or options.signal');
    }
    return new VulkanSubmission(this, cmds, wait, signal, waitStageBits);
  }

  /**
   * Submits recorded commands (or none: only the semaphore operations) with
   * wait and signal semaphores (vkQueueSubmit). The promise settles when the
   * work is done (a fence watched off the JavaScript thread); it rejects with
   * a VulkanError if the device is lost.
   */
  submit(commands: VulkanCommands | null, options?: VulkanSubmitOptions): Promise<void> {
    return this.prepare(commands, options).submit();
  }

  /** Resolves once everything submitted so far is done. */
  idle(): Promise<void> {
    return this.device.native.submit(null, undefined, undefined);
  }
}

function isThenable(value: unknown): boolean {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

function defaultTypes<T extends string>(available: readonly T[], platformType: T): T[] {
  return available.includes(platformType) ? [platformType] : [];
}

/**
 * A logical device: its queue, and the objects it makes.
 * dispose() lets go of the device: its buffers, images, semaphores and
 * commands keep it alive natively (and keep working, except that submitting
 * needs the device); work in flight finishes first.
 */
export class VulkanDevice extends NativeHolder<NativeVkDevice> {
  /** The physical device it was made on. */
  readonly physicalDevice: VulkanPhysicalDevice;
  readonly name: string;
  /** The device extensions enabled on it. */
  readonly extensions: readonly string[];
  /** Memory handle types its buffers and images can be exported as. */
  readonly memoryHandleTypes: readonly VulkanMemoryHandleType[];
  readonly semaphoreHandleTypes: readonly VulkanSemaphoreHandleType[];
  readonly queue: VulkanQueue;

  /** @internal */
  constructor(native: NativeVkDevice, physicalDevice: VulkanPhysicalDevice, extensions: string[]) {
    super(native);
    this.physicalDevice = physicalDevice;
    this.name = physicalDevice.name;
    this.extensions = Object.freeze(extensions);
    this.memoryHandleTypes = physicalDevice.memoryExport;
    this.semaphoreHandleTypes = physicalDevice.semaphoreExport;
    this.queue = new VulkanQueue(this, physicalDevice.queueFamily!);
  }

  /** @internal */
  protected disposedError(): Error {
    return new VulkanDisposedError('VulkanDevice');
  }

  /** Submissions not finished yet. */
  get pending(): number {
    return this.native.pending();
  }

  #memoryTypes(value: unknown, what: string): VulkanMemoryHandleType[] {
    if (value === undefined) return defaultTypes(this.memoryHandleTypes, process.platform === 'win32' ? 'opaque-win32' : 'opaque-fd');
    if (!Array.isArray(value)) throw new TypeError(`${what} must be an array of memory handle types; got ${describeValue(value)}`);
    return value.map((t, i) => {
      const type = checkChoice(t, `${what}[${i}]`, Object.keys(MEMORY_HANDLE_BITS) as VulkanMemoryHandleType[]);
      if (!this.memoryHandleTypes.includes(type)) {
        const s = this.physicalDevice.memoryHandleTypes.find((x) => x.handleType === type)!;
        const why = !s.exportable ? 'the driver cannot export memory as this type' : `the device lacks ${s.extensions.join(' + ')}`;
        throw new VulkanNotSupportedError(
          `memory export as '${type}'`,
          this.name,
          `${why} (it exports ${this.memoryHandleTypes.map((x) => `'${x}'`).join(', ') || 'none'})`,
        );
      }
      return type;
    });
  }

  /** An exportable buffer (transfer source/destination and storage usage). */
  createBuffer(options: VulkanBufferOptions): VulkanBuffer {
    const native = this.native;
    if (options === undefined) throw new TypeError('options must give the size');
    const o = checkOptions<VulkanBufferOptions>(options, 'options', ['size', 'exportTypes', 'hostVisible']);
    const size = checkInt(o.size, 'options.size', 1);
    const types = this.#memoryTypes(o.exportTypes, 'options.exportTypes');
    if (o.hostVisible !== undefined && typeof o.hostVisible !== 'boolean')
      throw new TypeError(`options.hostVisible must be a boolean; got ${describeValue(o.hostVisible)}`);
    const bits = types.reduce((m, t) => m | MEMORY_HANDLE_BITS[t], 0);
    return new VulkanBuffer(this, native.createBuffer(size, bits, o.hostVisible ?? false));
  }

  /** A 2D image in VK_IMAGE_LAYOUT_GENERAL (transfer source/destination usage), exportable. */
  createImage(options: VulkanImageOptions): VulkanImage {
    const native = this.native;
    if (options === undefined) throw new TypeError('options must give width, height and format');
    const o = checkOptions<VulkanImageOptions>(options, 'options', ['width', 'height', 'format', 'tiling', 'exportTypes']);
    const format = checkChoice(o.format, 'options.format', ['rgba8', 'nv12'] as const);
    const tiling = checkChoice(o.tiling, 'options.tiling', ['linear', 'optimal'] as const, 'linear');
    const width = checkInt(o.width, 'options.width', 1, 16384);
    const height = checkInt(o.height, 'options.height', 1, 16384);
    if (format === 'nv12' && (width % 2 || height % 2)) throw new RangeError(`an NV12 image needs an even width and height; got ${width}x${height}`);
    const types = this.#memoryTypes(o.exportTypes, 'options.exportTypes');
    const bits = types.reduce((m, t) => m | MEMORY_HANDLE_BITS[t], 0);
    const what = `a ${tiling} ${format} image${types.length ? ` exportable as ${types.map((t) => `'${t}'`).join(', ')}` : ''}`;
    if (format === 'nv12' && !this.physicalDevice.ycbcr) {
      throw new VulkanNotSupportedError(what, this.name, 'the device has no samplerYcbcrConversion, so no multi-planar formats');
    }
    for (const type of types.length ? types : [undefined]) {
      const support = native.imageSupport(IMAGE_FORMATS[format], tiling === 'linear', IMAGE_USAGE.transfer, type ? MEMORY_HANDLE_BITS[type] : 0);
      if (!support)
        throw new VulkanNotSupportedError(what, this.name, 'vkGetPhysicalDeviceImageFormatProperties2 says VK_ERROR_FORMAT_NOT_SUPPORTED');
      if ((support.features & FORMAT_FEATURE_TRANSFER) !== FORMAT_FEATURE_TRANSFER)
        throw new VulkanNotSupportedError(what, this.name, 'the format cannot be a transfer source and destination with this tiling');
      if (type && !(support.externalFeatures & 0x2))
        throw new VulkanNotSupportedError(what, this.name, `such images cannot be exported as '${type}'`);
      if (width > support.maxWidth || height > support.maxHeight)
        throw new VulkanNotSupportedError(what, this.name, `at most ${support.maxWidth}x${support.maxHeight}; asked ${width}x${height}`);
    }
    return new VulkanImage(
      this,
      native.createImage(IMAGE_FORMATS[format], width, height, tiling === 'linear', IMAGE_USAGE.transfer, bits),
      format,
      width,
      height,
      tiling,
    );
  }

  /** A binary semaphore, exportable. */
  createSemaphore(options?: VulkanSemaphoreOptions): VulkanSemaphore {
    const native = this.native;
    const o = checkOptions<VulkanSemaphoreOptions>(options, 'options', ['exportTypes']);
    let types: VulkanSemaphoreHandleType[];
    if (o.exportTypes === undefined) {
      types = defaultTypes(this.semaphoreHandleTypes, process.platform === 'win32' ? 'opaque-win32' : 'opaque-fd');
    } else {
      if (!Array.isArray(o.exportTypes))
        throw new TypeError(`options.exportTypes must be an array of semaphore handle types; got ${describeValue(o.exportTypes)}`);
      types = o.exportTypes.map((t, i) => {
        const type = checkChoice(t, `options.exportTypes[${i}]`, Object.keys(SEMAPHORE_HANDLE_BITS) as VulkanSemaphoreHandleType[]);
        if (!this.semaphoreHandleTypes.includes(type)) {
          const s = this.physicalDevice.semaphoreHandleTypes.find((x) => x.handleType === type)!;
          const why = !s.exportable ? 'the driver cannot export semaphores as this type' : `the device lacks ${s.extensions.join(' + ')}`;
          throw new VulkanNotSupportedError(
            `semaphore export as '${type}'`,
            this.name,
            `${why} (it exports ${this.semaphoreHandleTypes.map((x) => `'${x}'`).join(', ') || 'none'})`,
          );
        }
        return type;
      });
    }
    const bits = types.reduce((m, t) => m | SEMAPHORE_HANDLE_BITS[t], 0);
    return new VulkanSemaphore(this, native.createSemaphore(bits), types);
  }

  /**
   * Records a command sequence once (the callback adds its operations, synchronously); submit it with
   * queue.submit() as often as needed. An async callback (or one returning a promise) is a TypeError:
   * the operations after its first await would be lost.
   */
  record(build: (recorder: VulkanRecorder) => void, options?: VulkanRecordOptions): VulkanCommands {
    const native = this.native;
    if (typeof build !== 'function') throw new TypeError(`build must be a function (recorder) => void; got ${describeValue(build)}`);
    const tag = Object.prototype.toString.call(build);
    if (tag === '[object AsyncFunction]' || tag === '[object AsyncGeneratorFunction]' || tag === '[object GeneratorFunction]') {
      throw new TypeError(
        `build must be a synchronous function (recorder) => void: record() takes the operations added while it runs; got ${tag.slice(8, -1).replace(/^./, (c) => c.toLowerCase())}`,
      );
    }
    const o = checkOptions<VulkanRecordOptions>(options, 'options', ['queueOrdered']);
    const queueOrdered = checkBoolean(o.queueOrdered, 'options.queueOrdered', true);
    const recorder = new VulkanRecorder(this);
    let returned: unknown;
    try {
      returned = build(recorder);
    } finally {
      recorder.close();
    }
    if (isThenable(returned)) {
      // What it records after an await would throw 'recorder is closed' into a promise nobody awaits.
      if (returned instanceof Promise) returned.catch(() => {});
      throw new TypeError(
        'build returned a promise: record() takes only the operations added before the callback returns, so those after an await would be lost; ' +
          'record synchronously and await elsewhere (nothing was recorded)',
      );
    }
    if (this.disposed) throw new VulkanDisposedError('VulkanDevice');
    for (const used of recorder.uses) {
      if (used.disposed)
        throw new VulkanDisposedError(used.kind, 'was disposed inside the record() callback, after an operation used it (nothing was recorded)');
    }
    return new VulkanCommands(this, native.record(recorder.ops, queueOrdered), recorder.ops);
  }
}

declare module './links' {
  // VulkanDevice is what links.ts calls VulkanDeviceLink.
  interface VulkanDeviceLink extends VulkanDevice {}
}
