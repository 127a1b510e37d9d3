export interface FreshRun {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  ms: number;
}
/** Runs `source` after the prelude in a fresh node; killed (with its stacks under OPENCL_INTEROP_GPU_STACKS=1) at timeoutMs. */
export function runFresh(
  source: string,
  options?: { timeoutMs?: number; env?: NodeJS.ProcessEnv; args?: string[]; onTimeout?: (pid: number) => Promise<unknown> },
): Promise<FreshRun>;
/** How a fresh run ended, with its output. */
export function describeRun(run: FreshRun): string;
