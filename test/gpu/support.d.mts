export interface FreshRun {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  ms: number;
  /** With exitTimeoutMs: ms from the process's 'exit' event to its end (null if the event never came). */
  exitMs: number | null;
}
/**
 * Runs `source` after the prelude in a fresh node; killed (with its stacks under OPENCL_INTEROP_GPU_STACKS=1) at
 * timeoutMs, or exitTimeoutMs after its 'exit' event.
 */
export function runFresh(
  source: string,
  options?: { timeoutMs?: number; exitTimeoutMs?: number; env?: NodeJS.ProcessEnv; args?: string[]; onTimeout?: (pid: number) => Promise<unknown> },
): Promise<FreshRun>;
/** runFresh's limits where the exit is under test: 2 minutes in all, 20 s from the 'exit' event. */
export const exitClock: { timeoutMs: number; exitTimeoutMs: number };
/** How a fresh run ended, with its output. */
export function describeRun(run: FreshRun): string;
