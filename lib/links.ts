// The links from an object to the one it belongs to (a device's platform, a
// buffer's context, an event's queue, a kernel's program), as the modules
// below that owner see them. The owner's module completes its link
// (`interface ContextLink extends Context {}` in context.ts), so
// `buffer.context` has Context's full type while no module imports one that
// stands above it: data and imports flow one way, from the context down.

/** A device's platform: the Platform (platform.ts completes it). */
// biome-ignore lint/suspicious/noEmptyInterface: completed by declaration merging in the module that owns it
export interface PlatformLink {}

/** The context of a queue, memory object, program, sampler or event: the Context (context.ts completes it). */
// biome-ignore lint/suspicious/noEmptyInterface: completed by declaration merging in the module that owns it
export interface ContextLink {}

/** The queue of an event or a mapping: the CommandQueue (queue.ts completes it). */
// biome-ignore lint/suspicious/noEmptyInterface: completed by declaration merging in the module that owns it
export interface QueueLink {}

/** A kernel's program: the Program (program.ts completes it). */
// biome-ignore lint/suspicious/noEmptyInterface: completed by declaration merging in the module that owns it
export interface ProgramLink {}
