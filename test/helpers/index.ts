import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createContext, getPlatforms, type CommandQueue, type Context, type Device, type Platform } from '../../lib';
import { packagesFor } from '../../scripts/test-prerequisites.mjs';

export const repoRoot = resolve(__dirname, '../..');

/**
 * PoCL, the real CPU driver every test run needs. A missing platform fails
 * the run (install pocl-opencl-icd); it is never skipped.
 */
export function pocl(): Platform {
  const platform = getPlatforms().find((p) => p.name === 'Portable Computing Language');
  if (!platform) {
    throw new Error(
      `PoCL is not among the platforms (${
        getPlatforms()
          .map((p) => p.name)
          .join(', ') || 'none'
      }): ` + 'install ocl-icd-libopencl1 and pocl-opencl-icd',
    );
  }
  return platform;
}

export interface Setup {
  platform: Platform;
  device: Device;
  context: Context;
  queue: CommandQueue;
}

export function poclSetup(queueOptions: { outOfOrder?: boolean; profiling?: boolean } = {}): Setup {
  const platform = pocl();
  const device = platform.getDevices()[0]!;
  const context = createContext({ devices: [device] });
  return { platform, device, context, queue: context.createQueue(device, queueOptions) };
}

/** How a child process ended and what it printed. */
export interface ChildResult {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface ChildOptions {
  /** Added to this process's environment (an undefined value removes a variable). */
  env?: NodeJS.ProcessEnv;
  /** The environment as given, instead of this process's with `env` added. */
  exactEnv?: boolean;
  cwd?: string;
  /** Milliseconds before the child (and any process it started) is killed; childTimeout unless given. */
  timeout?: number;
}

/**
 * How long a child process may run before it counts as hung. Generous: on a
 * busy 2-core machine a process that takes 2 s alone can take ten times as
 * long, and a hang is a hang at 2 minutes as at 20 s.
 */
export const childTimeout = 120_000;
/** Between SIGTERM and SIGKILL, and after SIGKILL before the streams are given up. */
const killGrace = 5_000;

const tail = (text: string, length = 6000) => (text.length > length ? `[... ${text.length - length} characters before]${text.slice(-length)}` : text);

/** A child process still running at its time-out: killed, and this error carries what it printed. */
export class ChildTimeoutError extends Error {
  constructor(
    readonly what: string,
    readonly seconds: number,
    readonly result: ChildResult,
  ) {
    super(
      `${what} was still running after ${seconds} s and was killed (${result.signal ?? `status ${result.status}`})\n` +
        `--- its stdout:\n${tail(result.stdout)}\n--- its stderr:\n${tail(result.stderr)}`,
    );
    this.name = 'ChildTimeoutError';
  }
}

// Children still running when this test process exits (a test abandoned at
// vitest's time-out, a worker torn down) are killed with it, with whatever
// they started: each child leads a process group of its own.
const running = new Set<number>();
process.once('exit', () => {
  for (const pid of running) signalGroup(pid, 'SIGKILL');
});

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ended meanwhile
  }
}

/** For a program the tests run by name that is not installed: which package has it (scripts/test-prerequisites.mjs). */
function notInstalled(file: string, error: NodeJS.ErrnoException): string | undefined {
  const packages = error.code === 'ENOENT' ? packagesFor(file) : undefined;
  return (
    packages && `${file} is not installed: apt-get install ${packages.join(' ')} (npm test installs it as root; see scripts/test-prerequisites.mjs)`
  );
}

/**
 * Runs a program without blocking this process's event loop: a vitest worker
 * blocked (spawnSync, execSync) for a minute loses its RPC to the runner
 * ("Timeout calling onTaskUpdate") and fails the run however its tests end.
 * A child still running at its time-out is killed, with the processes it
 * started, and the promise rejects with a ChildTimeoutError that carries
 * what it printed; any other ending resolves.
 */
export function runProcess(file: string, args: readonly string[], options: ChildOptions & { what?: string } = {}): Promise<ChildResult> {
  const timeout = options.timeout ?? childTimeout;
  const what = options.what ?? [file, ...args].map((word) => (word.length > 80 ? `${word.slice(0, 77)}...` : word)).join(' ');
  return new Promise((resolveRun, rejectRun) => {
    const child = spawn(file, args, {
      cwd: options.cwd,
      env: options.exactEnv ? options.env : { ...process.env, ...options.env },
      // stdin a pipe at its end, as spawnSync gives it (a test relies on fd 0 being a pipe).
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    child.stdin.on('error', () => {}).end();
    const pid = child.pid;
    if (pid !== undefined) running.add(pid);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    let timedOut = false;
    let ended = false;
    const timers: NodeJS.Timeout[] = [];
    const end = (status: number | null, signal: NodeJS.Signals | null, error?: Error) => {
      if (ended) return;
      ended = true;
      for (const timer of timers) clearTimeout(timer);
      if (pid !== undefined) running.delete(pid);
      const result = { status, signal, stdout, stderr };
      if (error) rejectRun(Object.assign(new Error(`${what} could not be started: ${notInstalled(file, error) ?? error.message}`), { cause: error }));
      else if (timedOut) rejectRun(new ChildTimeoutError(what, timeout / 1000, result));
      else resolveRun(result);
    };
    timers.push(
      setTimeout(() => {
        timedOut = true;
        if (pid === undefined) return;
        signalGroup(pid, 'SIGTERM');
        timers.push(
          setTimeout(() => {
            signalGroup(pid, 'SIGKILL');
            // A process outside the group may still hold the pipes: stop waiting for them.
            timers.push(setTimeout(() => end(child.exitCode, child.signalCode), killGrace));
          }, killGrace),
        );
      }, timeout),
    );
    child.on('error', (error) => end(null, null, error));
    child.on('close', (status, signal) => end(status, signal));
  });
}

/** runProcess for a tool that must succeed: its stdout, or an error with what it printed. */
export async function outputOf(file: string, args: readonly string[], options: ChildOptions = {}): Promise<string> {
  const result = await runProcess(file, args, options);
  if (result.status !== 0) {
    throw new Error(
      `${[file, ...args].join(' ')} ended with ${result.signal ?? `status ${result.status}`}\n--- its stdout:\n${tail(result.stdout)}\n--- its stderr:\n${tail(result.stderr)}`,
    );
  }
  return result.stdout;
}

/**
 * Runs a CommonJS snippet in a fresh node process with the built package as
 * `ocl` (see runProcess: it never blocks this process, and a child still
 * running at its time-out is killed and rejects with what it printed).
 */
export function runNode(code: string, options: ChildOptions & { args?: string[] } = {}): Promise<ChildResult> {
  const prelude = `const ocl = require(${JSON.stringify(resolve(repoRoot, 'dist/index.js'))});\n`;
  // SNIPPET_DUMP=file keeps the last snippet, to replay a failure with plain node.
  if (process.env.SNIPPET_DUMP) writeFileSync(process.env.SNIPPET_DUMP, prelude + code);
  const firstLine = code.trim().split('\n')[0]!.trim();
  return runProcess(process.execPath, [...(options.args ?? []), '-e', prelude + code], {
    ...options,
    what: `a node snippet (${firstLine.length > 60 ? `${firstLine.slice(0, 57)}...` : firstLine}; SNIPPET_DUMP=file keeps it)`,
  });
}

/**
 * Runs a snippet as runNode does; it must end with status 0 (no signal), and
 * the last line it printed is parsed as JSON: the snippet's value (undefined
 * when it printed nothing). Otherwise throws with what the process printed.
 */
// biome-ignore lint/suspicious/noExplicitAny: the snippet's JSON, as JSON.parse gives it
export async function runNodeForValue<T = any>(
  code: string,
  options: ChildOptions & { args?: string[] } = {},
): Promise<{ value: T; stderr: string }> {
  const result = await runNode(code, options);
  if (result.signal || result.status !== 0) {
    throw new Error(`the process ended with ${result.signal ?? `status ${result.status}`}\n${result.stderr}\n${result.stdout}`);
  }
  const last = result.stdout.trim().split('\n').pop() ?? '';
  return { value: last ? JSON.parse(last) : undefined, stderr: result.stderr };
}

/**
 * Collects what earlier tests of this worker left to the garbage collector
 * and lets its finalizers run, so that a count of live driver objects taken
 * next is not lowered later by their release.
 */
export async function collectGarbage(): Promise<void> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((done) => setTimeout(done, 5));
  }
}

/**
 * A snippet body for runNode, run inside an async function where `ref` (the
 * reference driver's control API), `platform` (the reference driver), `va`
 * (its cl_intel_va_api_media_sharing facade) and `display` (a simulated VA
 * display) are defined.
 */
export function withReferenceVa(body: string): string {
  const control = JSON.stringify(pathToFileURL(resolve(__dirname, '../driver/control.mjs')).href);
  return `
    (async () => {
      const { openReferenceDriver } = await import(${control});
      const ref = openReferenceDriver();
      const platform = ocl.getPlatforms().find((p) => p.name === 'opencl-interop reference driver');
      const va = platform.getSharing('cl_intel_va_api_media_sharing');
      const display = ref.vaCreateDisplay(true);
      ${body}
    })();`;
}
