// The frame pipeline's public types: its slots, its steps, its options and
// what a run reports. lib/pipeline/frame-pipeline.ts runs them;
// lib/pipeline/frame-slot.ts is one slot's part of a run.
import type { Event } from '../event';
import type { MemObject } from '../memory';
import type { CommandQueue } from '../queue';
import type { VulkanCommands } from '../vulkan/commands';
import type { VulkanDevice } from '../vulkan/device';
import type { VulkanSemaphore } from '../vulkan/semaphore';

/** One slot: its index, the resources made for it, and the Vulkan semaphores that order its steps (null when that side is not Vulkan). */
export interface FrameSlot<R = unknown> {
  readonly index: number;
  readonly resources: R;
  /** Signalled by a Vulkan producer, waited on by OpenCL. */
  readonly inputReady: VulkanSemaphore | null;
  /** Signalled by OpenCL, waited on by a Vulkan consumer. */
  readonly outputReady: VulkanSemaphore | null;
}

/**
 * A producer step: `{ vulkan }` returns the Vulkan commands that fill the
 * slot (recorded once, submitted many times; the pipeline submits them on
 * options.vulkan's queue signalling the slot's inputReady); `{ host }` fills
 * the slot itself and returns nothing (done, or enqueued on the pipeline's
 * in-order queue), an Event OpenCL's work waits for (an upload on another
 * queue of the same context), or a promise the pipeline awaits before
 * OpenCL's work. A returned Event becomes the pipeline's: it releases it once
 * OpenCL's work of the frame is enqueued behind it (do not release it
 * yourself; a released one is a FrameStepError). A host producer is called
 * only once the slot's previous frame is consumed; a Vulkan producer's
 * commands are ordered after it on the Vulkan queue.
 */
export type FrameProducer<R> =
  | { readonly vulkan: (slot: FrameSlot<R>, frame: number) => VulkanCommands; readonly host?: undefined }
  | { readonly host: (slot: FrameSlot<R>, frame: number) => void | Event | PromiseLike<unknown>; readonly vulkan?: undefined };

/**
 * A consumer step: `{ vulkan }` returns the Vulkan commands that take the
 * frame (submitted waiting on the slot's outputReady); `{ host }` is called
 * right after OpenCL's work is enqueued, with an Event that completes when
 * that work has, and returns nothing or a promise; the slot is reused once
 * both the event and the promise have settled. The Event is the pipeline's:
 * it is released then (do not release it, nor use it after the promise
 * settles). A host consumer may enqueue a read on the pipeline's queue (it
 * runs after the frame's work) and await it.
 */
export type FrameConsumer<R> =
  | { readonly vulkan: (slot: FrameSlot<R>, frame: number) => VulkanCommands; readonly host?: undefined }
  | { readonly host: (slot: FrameSlot<R>, frame: number, done: Event) => void | PromiseLike<unknown>; readonly vulkan?: undefined };

export interface FramePipelineOptions<R = unknown> {
  /** The in-order queue OpenCL's work of every frame is enqueued on. */
  queue: CommandQueue;
  /** How many frames may be in flight: 1 to 256. */
  slots: number;
  /** The Vulkan device of the Vulkan steps (required when produce or consume is `{ vulkan }`; the same GPU as the queue's device). */
  vulkan?: VulkanDevice;
  /** Makes a slot's resources once (slot.resources); ones with [Symbol.dispose] are disposed with the pipeline. */
  resources?: (index: number) => R;
  /** The shared objects (imported external memory, VA surfaces' images, Direct3D textures' images) acquired around OpenCL's work of each frame. */
  acquire?: (slot: FrameSlot<R>) => readonly MemObject[];
  produce: FrameProducer<R>;
  /**
   * OpenCL's work of a frame: enqueue it on options.queue (release the
   * events you do not need). It may return a promise: the frame's release,
   * signal and flush are enqueued once it settles (a rejection is a
   * FrameStepError). An Event it returns is not waited for.
   */
  process: (slot: FrameSlot<R>, frame: number) => void | PromiseLike<unknown>;
  consume: FrameConsumer<R>;
  /**
   * How a Vulkan step and OpenCL's work are ordered: 'semaphores' (Vulkan
   * binary semaphores exported as opaque fds and imported into OpenCL; no
   * host wait) or 'host' (the pipeline awaits the producer's submission
   * before OpenCL's work, and OpenCL's work before the consumer's
   * submission). Default: 'semaphores' where the Vulkan device exports and
   * the OpenCL device imports opaque-fd semaphores, else 'host'.
   */
  sync?: FrameSync;
  /**
   * Milliseconds a step's promise (a host producer's or consumer's, the
   * process step's, onConsumed's) may take before the run fails with a
   * FrameStepError whose cause is a TimeoutError (its late result is
   * dropped): 1 to 2^31-1. A host consumer's time includes the frame's
   * OpenCL work. Default: no limit.
   */
  stepTimeout?: number;
}

export type FrameSync = 'semaphores' | 'host';

export type FrameOrder = 'naive' | 'ahead';

/** Host milliseconds per phase, added to by run() when options.timing is given. */
export interface FrameTiming {
  produce?: number;
  opencl?: number;
  consume?: number;
  wait?: number;
  /** When an object: host milliseconds per OpenCL call of a frame (wait, acquire, kernels, release, signal, flush). */
  calls?: Record<string, number>;
}

export interface FrameRunOptions<R = unknown> {
  /**
   * How many frames: 0 or more, or Infinity with a host producer that ends
   * the run by calling pipeline.end() (a decoded stream, whose length is
   * known only at its end).
   */
  frames: number;
  /** 'ahead' (default) or 'naive'. */
  order?: FrameOrder;
  /** 'ahead' only: the consumer of frame f is submitted after OpenCL's work of frame f + lag (0 to slots - 1; default 0). */
  lag?: number;
  /** Called once frame's consumer has finished, before its slot is used again. */
  onConsumed?: (slot: FrameSlot<R>, frame: number) => void | PromiseLike<unknown>;
  timing?: FrameTiming;
}
