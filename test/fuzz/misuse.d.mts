// Types of misuse.mjs (the misuse fuzzer's runner, shared by test/misuse.test.ts and its command line).

export declare const referenceDriverName: string;
export declare const referenceDriverLibrary: string;
export declare const softvaDir: string;
export declare const softvaName: string;

/** What one seed's process is told. */
export interface FuzzConfig {
  steps: number;
  /** Part of the compiling platform's name ("Portable" for PoCL, "NVIDIA"). */
  platform: string;
  /** The reference driver's platform joins in. */
  reference: boolean;
  /** The VA module on libva (needs reference, and softvaEnv in env). */
  va: boolean;
  /** The reference driver's control API (koffi): true required, false off, undefined when it loads. */
  control?: boolean;
}

export interface SeedResult {
  seed: number;
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Why it was counted as hung (its time-out, or a stuck exit), or false. */
  timedOut: boolean | string;
  /** Whether the runner killed it (false: it ended by itself, after its stacks were taken). */
  killed: boolean;
  ms: number;
  /** How many steps started. */
  stepsRun: number;
  /** The last steps started, as "index: op-number op-source". */
  steps: string[];
  /** Milliseconds from its script's last line (the counts) to the process's end; null when it printed none. */
  exitMs: number | null;
  /** Its threads (/proc), when it was still there slowExitMs after that line. */
  slowExit: string | null;
}

/** "Last line to exit" over a run: percentiles in milliseconds, and the seeds over the limit. */
export interface ExitTimes {
  count: number;
  p50: number | null;
  p99: number | null;
  max: number | null;
  over: number[];
}

export type FailureKind = 'crash' | 'hang' | 'untyped' | 'wrong' | 'failed';
export interface Failure {
  kind: FailureKind;
  detail: string;
}

export interface Summary {
  seeds: number;
  passed: number;
  crash: number[];
  hang: number[];
  untyped: number[];
  wrong: number[];
  failed: number[];
}

export declare function parseSeeds(text: string): number[];
export declare function seedTimeoutMs(steps: number): number;
export declare function vendorsWithReference(base?: string): { vendors: string; cleanup(): void };
export declare function vaMissing(): string | null;
export { startXvfb } from '../../examples/support/xvfb.mjs';
export declare function softvaEnv(display: string): Record<string, string | undefined>;
export declare function runSeed(
  seed: number,
  config: FuzzConfig,
  options?: {
    env?: Record<string, string | undefined>;
    timeoutMs?: number;
    logDir?: string;
    lastSteps?: number;
    /** A hung seed's report gets every thread's stack. */
    stacks?: boolean;
    /** How long after its script ended a process that has not exited counts as hung (default 45 s). */
    exitGraceMs?: number;
    /** After a stuck exit's stacks, how much longer to wait before the kill. */
    exitWaitMs?: number;
    /** A crashed seed runs again under gdb or cuda-gdb. */
    debugCrashes?: boolean;
    /** A process still there this long after its script's last line gets its threads (/proc) in slowExit. */
    slowExitMs?: number;
  },
): Promise<SeedResult>;
export declare function verdict(result: SeedResult): Failure | null;
export declare function replayCommand(seed: number, config: FuzzConfig): string;
export declare function failureReport(result: SeedResult, config: FuzzConfig, failure?: Failure | null): string;
export declare function runSeeds(
  seeds: number[],
  config: FuzzConfig,
  options?: {
    parallel?: number;
    env?: Record<string, string | undefined>;
    timeoutMs?: number;
    stacks?: boolean;
    exitWaitMs?: number;
    debugCrashes?: boolean;
    slowExitMs?: number;
    onResult?(result: SeedResult, failure: Failure | null): void;
  },
): Promise<SeedResult[]>;
export declare function summarize(results: SeedResult[]): Summary;
export declare function exitTimes(results: SeedResult[], limitMs?: number): ExitTimes;
