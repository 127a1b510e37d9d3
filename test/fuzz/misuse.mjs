#!/usr/bin/env node
// The misuse fuzzer: random call sequences through the public API, one seed
// per fresh process (test/fuzz/program.cjs): wrong argument types and kinds
// (kernel arguments on kernels with argument info), released objects, double
// release, acquire misuse, host memory detached, transferred or resized while
// commands use it, workers terminated at random points, commands held back by
// user events that are never set (blocking calls on them must throw, not
// hang), garbage collection in between, status waits (whenStatus of every
// status, on user events and commands), commands gated by a fresh user event
// on a queue that is then released, maps and unmaps among all of it, maps
// behind user events set to a negative status (through wait lists, markers
// of other queues and queue order, their queues released while the maps
// wait), mappings dropped without unmap and collected, waits behind the
// failure (which must end), 3D image commands behind user events. With the
// reference driver beside the compiling platform (--with-reference): its
// contexts, built-in kernels and, when its control API loads (koffi), its
// simulated VA surfaces and D3D9 textures. With --with-va: the VA module on
// the real libva with the software VA driver on Xvfb (displays opened,
// adopted and disposed in any order, plane transfers while OpenCL has a
// surface acquired, DMA-BUF export and import, fds closed or truncated).
//
// Every failure must be a typed error, a result checked against what OpenCL
// wrote must be right, and the process must end normally, by itself.
//
// Plain node, no vitest: it runs where only node, dist/ and build/Release are.
//   node test/fuzz/misuse.mjs --platform Portable --seeds 1-300 --steps 2000 --parallel 2 --with-reference --with-va
//   node test/fuzz/misuse.mjs --platform NVIDIA --seeds 1-300 --steps 2000 --parallel 4 --with-reference
// It prints a line per failed seed and a summary, and exits 1 on any failure.
// test/misuse.test.ts runs the same seeds under vitest (MISUSE_SEEDS=...).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { stacksOf, stacksUnderDebugger, threadsOf } from '../gpu/stacks.mjs';
import { startXvfb } from '../../examples/support/xvfb.mjs';

export { startXvfb };

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../..');
const programPath = resolve(here, 'program.cjs');

export const referenceDriverName = 'opencl-interop reference driver';
export const referenceDriverLibrary = resolve(repoRoot, 'cmake-build/lib/libocl_interop_refdriver.so');
export const softvaDir = resolve(repoRoot, 'cmake-build/va-drivers');
export const softvaName = 'ocl_interop_softva';

/** "7", "1-300" or "1-10,42": the seeds, in order. */
export function parseSeeds(text) {
  const seeds = [];
  for (const part of String(text).split(',')) {
    const range = /^\s*(\d+)\s*(?:-\s*(\d+))?\s*$/.exec(part);
    if (!range) throw new TypeError(`seeds: expected "N", "FROM-TO" or a comma-separated list of them, got ${JSON.stringify(text)}`);
    const from = Number(range[1]);
    const to = range[2] === undefined ? from : Number(range[2]);
    if (to < from) throw new RangeError(`seeds: the range ${part.trim()} ends before it starts`);
    for (let seed = from; seed <= to; seed++) seeds.push(seed);
  }
  return seeds;
}

/** How long a seed may run before it counts as a hang: generous, a busy 2-core machine is 10x slower than a quiet one. */
export function seedTimeoutMs(steps) {
  return Math.max(120_000, steps * 100);
}

/**
 * The OCL_ICD_VENDORS folder for a run with the reference driver: the given
 * one when it already lists the driver, else a temporary folder with the
 * system's vendors (or OCL_ICD_VENDORS's) and one line naming the driver
 * built in this checkout (its own cmake-build/vendors names the absolute path
 * of the machine that built it). Returns { vendors, cleanup }.
 */
export function vendorsWithReference(base = process.env.OCL_ICD_VENDORS || '/etc/OpenCL/vendors') {
  const icds = existsSync(base) ? readdirSync(base).filter((name) => name.endsWith('.icd')) : [];
  const lists = (name) => {
    const line = readFileSync(join(base, name), 'utf8').trim();
    return line.includes('libocl_interop_refdriver') && existsSync(line);
  };
  if (icds.some(lists)) return { vendors: base, cleanup() {} };
  if (!existsSync(referenceDriverLibrary)) {
    throw new Error(`the reference driver is not built (${referenceDriverLibrary}): run npm run build:driver, or carry cmake-build/lib`);
  }
  const vendors = mkdtempSync(join(tmpdir(), 'misuse-vendors-'));
  // Another checkout's line for the driver (an absolute path that is not there) is left out.
  for (const name of icds) {
    const text = readFileSync(join(base, name), 'utf8');
    if (!text.includes('libocl_interop_refdriver')) writeFileSync(join(vendors, name), text);
  }
  writeFileSync(join(vendors, 'ocl_interop_refdriver.icd'), `${referenceDriverLibrary}\n`);
  return { vendors, cleanup: () => rmSync(vendors, { recursive: true, force: true }) };
}

/** What --with-va needs that is missing (the software VA driver, Xvfb), or null. */
export function vaMissing() {
  if (!existsSync(resolve(softvaDir, `${softvaName}_drv_video.so`)))
    return `the software VA driver is not built (${softvaDir}): install libva-dev and run npm run build:driver`;
  const path = (process.env.PATH ?? '').split(':');
  if (!path.some((dir) => dir && existsSync(join(dir, 'Xvfb')))) return 'Xvfb is not installed (apt-get install xvfb)';
  return null;
}

/** The environment that makes a child's libva load the software VA driver on `display`. */
export function softvaEnv(display) {
  return { DISPLAY: display, LIBVA_DRIVER_NAME: softvaName, LIBVA_DRIVERS_PATH: softvaDir, OPENCL_INTEROP_VA_DEVICE: undefined };
}

const running = new Set();
process.once('exit', () => {
  for (const pid of running) signalGroup(pid, 'SIGKILL');
});
function signalGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // ended meanwhile
  }
}

/**
 * Runs one seed in a fresh process (its own process group, killed with
 * everything it started at timeoutMs). Resolves with { seed, status, signal,
 * stdout, stderr, timedOut, ms, steps: the step log's last lines, stepsRun,
 * exitMs: from its script's last line (the counts) to the process's end, or
 * null, slowExit: its threads (/proc) slowExitMs after that line if it was
 * still there }.
 * config: { steps, platform, reference, va, control }; env: added to this
 * process's environment (undefined removes a variable).
 */
export function runSeed(
  seed,
  config,
  {
    env = {},
    timeoutMs = seedTimeoutMs(config.steps),
    logDir,
    lastSteps = 40,
    stacks = false,
    exitGraceMs = 45_000,
    exitWaitMs = 0,
    debugCrashes = false,
    slowExitMs = 0,
  } = {},
) {
  const dir = logDir ?? mkdtempSync(join(tmpdir(), 'misuse-'));
  const log = join(dir, `seed-${seed}.log`);
  // The reference driver aborts on an unmap of a map that failed, as NVIDIA's faults there.
  const strict = config.reference ? { REFDRV_FAILED_MAP_UNMAP: 'abort' } : {};
  const childEnv = { ...process.env, ...strict, ...env, MISUSE_LOG: log };
  for (const [name, value] of Object.entries(childEnv)) if (value === undefined) delete childEnv[name];
  const started = Date.now();
  const childArgs = ['--expose-gc', programPath, JSON.stringify({ ...config, seed })];
  return new Promise((done) => {
    const child = spawn(process.execPath, childArgs, {
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    running.add(child.pid);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    let timedOut = false;
    let ended = false;
    let closed = false;
    let killed = false;
    let stacksTaken = Promise.resolve();
    const timers = [];
    let lastLineAt = 0;
    let closedAt = 0;
    let slowExit = null;
    const end = async (status, signal) => {
      if (ended) return;
      ended = true;
      closedAt ||= Date.now();
      for (const timer of timers) clearTimeout(timer);
      // A process that ends while its stacks are being taken (a slow exit, not a stuck one) still gets them in its report.
      await stacksTaken;
      running.delete(child.pid);
      const lines = existsSync(log) ? readFileSync(log, 'utf8').trimEnd().split('\n') : [];
      if (debugCrashes && ['SIGSEGV', 'SIGABRT', 'SIGBUS', 'SIGILL', 'SIGFPE'].includes(signal)) {
        const again = { ...childEnv, MISUSE_LOG: `${log}.again` };
        stderr += await stacksUnderDebugger(process.execPath, childArgs, repoRoot, timeoutMs, again);
        rmSync(again.MISUSE_LOG, { force: true });
      }
      if (logDir === undefined) rmSync(dir, { recursive: true, force: true });
      else rmSync(log, { force: true });
      done({
        seed,
        status,
        signal,
        stdout,
        stderr,
        timedOut,
        killed,
        ms: Date.now() - started,
        stepsRun: lines.length,
        steps: lines.slice(-lastSteps),
        exitMs: lastLineAt ? closedAt - lastLineAt : null,
        slowExit,
      });
    };
    // A hang: every thread's stack first when asked (gdb or cuda-gdb), then the process group is killed.
    const kill = async (why) => {
      if (timedOut || ended) return;
      timedOut = why;
      if (stacks) {
        stacksTaken = stacksOf(child.pid).then((text) => {
          stderr += `\n${why}; the stacks:${text}`;
        });
        await stacksTaken;
      }
      // Given --exit-wait, a process stuck at its exit gets that much longer to end by itself after its stacks.
      if (exitWaitMs && !closed) await new Promise((resolveWait) => timers.push(setTimeout(resolveWait, exitWaitMs)));
      if (closed) return;
      killed = true;
      signalGroup(child.pid, 'SIGKILL');
      timers.push(setTimeout(() => end(child.exitCode, child.signalCode ?? 'SIGKILL'), 5_000));
    };
    timers.push(setTimeout(() => kill(`still running after ${Math.round(timeoutMs / 1000)} s`), timeoutMs));
    // The counts line means the script ended: its own watchdog exits 30 s later (status 3) unless the process is stuck
    // where JavaScript no longer runs (in exit, in a driver's teardown).
    let exitWatch = false;
    child.stdout.on('data', () => {
      if (exitWatch || !/"ok":\d+/.test(stdout)) return;
      exitWatch = true;
      lastLineAt = Date.now();
      // Where the time goes in a slow exit: the threads' states from /proc (no debugger: attaching one changes it).
      if (slowExitMs)
        timers.push(
          setTimeout(() => {
            if (!closed) slowExit = `still there ${slowExitMs} ms after its last line; ${threadsOf(child.pid)}`;
          }, slowExitMs),
        );
      timers.push(setTimeout(() => kill(`the script ended but the process had not exited ${Math.round(exitGraceMs / 1000)} s later`), exitGraceMs));
    });
    child.on('error', (error) => {
      stderr += `could not start: ${error.message}\n`;
      end(null, null);
    });
    child.on('close', (status, signal) => {
      closed = true;
      closedAt = Date.now();
      end(status, signal);
    });
  });
}

// PoCL's compiler reports warnings on stderr in a line of its own.
const harmless = /^\d+ (?:warnings?|errors?)(?: and \d+ errors?)? generated\.\n?/gm;

/**
 * What went wrong with a seed, or null: { kind: 'crash' | 'hang' | 'untyped'
 * | 'wrong' | 'failed', detail }. A crash is a death by signal; a hang, a
 * process killed at its time-out or one that did not exit 30 s after its
 * script ended (status 3); untyped and wrong are what the program reported;
 * 'failed' is anything else (another status, unexpected stderr, too few steps).
 */
export function verdict(result) {
  const last = result.stdout.trim().split('\n').pop() ?? '';
  let reported;
  try {
    reported = JSON.parse(last);
  } catch {
    reported = undefined;
  }
  const stderr = result.stderr.replace(harmless, '');
  if (result.timedOut)
    return {
      kind: 'hang',
      detail: `${typeof result.timedOut === 'string' ? result.timedOut : `still running after ${Math.round(result.ms / 1000)} s`}, ${result.killed === false ? `then ended by itself (${result.signal ?? `status ${result.status}`}) ${Math.round(result.ms / 1000)} s after it started` : 'killed'}`,
    };
  if (result.signal)
    return { kind: 'crash', detail: `killed by ${result.signal}${stderr ? `: ${stderr.trim().split('\n').slice(-3).join(' | ')}` : ''}` };
  if (result.status === 3) return { kind: 'hang', detail: stderr.trim() };
  if (reported?.untyped) return { kind: 'untyped', detail: `step ${reported.step}: ${reported.untyped}` };
  if (reported?.wrong) return { kind: 'wrong', detail: reported.wrong };
  if (result.status !== 0)
    return { kind: 'failed', detail: `status ${result.status}${stderr ? `: ${stderr.trim().split('\n').slice(-5).join(' | ')}` : ''}` };
  if (stderr) return { kind: 'failed', detail: `printed on stderr: ${stderr.trim().slice(-2000)}` };
  if (!(reported?.ok > 100 && reported?.typed > 100)) return { kind: 'failed', detail: `too few steps ran or failed typed: ${last}` };
  return null;
}

/** The command line that replays one seed as the run did. */
export function replayCommand(seed, config) {
  const flags = [`--platform ${JSON.stringify(config.platform)}`, `--seeds ${seed}`, `--steps ${config.steps}`];
  if (config.reference) flags.push('--with-reference');
  if (config.va) flags.push('--with-va');
  if (config.control === false) flags.push('--without-control');
  return `node test/fuzz/misuse.mjs ${flags.join(' ')}`;
}

/** A failed seed's report: how it ended, how to replay it, what it printed and its last steps. */
export function failureReport(result, config, failure = verdict(result)) {
  return [
    `seed ${result.seed}: ${failure.kind}: ${failure.detail}`,
    `  replay: ${replayCommand(result.seed, config)}`,
    `  stdout: ${result.stdout.slice(-2000).trim()}`,
    `  stderr: ${result.stderr.slice(-4000).trim()}`,
    `  the last ${result.steps.length} of ${result.stepsRun} steps:`,
    ...result.steps.map((line) => `    ${line}`),
  ].join('\n');
}

/**
 * Runs seeds, `parallel` at a time, each in its own process. onResult(result,
 * failure) is called as each ends. Resolves with the results in seed order.
 */
export async function runSeeds(
  seeds,
  config,
  { parallel = 1, env = {}, timeoutMs, stacks = false, exitWaitMs, debugCrashes, slowExitMs, onResult } = {},
) {
  const results = new Array(seeds.length);
  let next = 0;
  const logDir = mkdtempSync(join(tmpdir(), 'misuse-'));
  try {
    await Promise.all(
      Array.from({ length: Math.min(parallel, seeds.length) }, async () => {
        while (next < seeds.length) {
          const index = next++;
          const result = await runSeed(seeds[index], config, { env, timeoutMs, logDir, stacks, exitWaitMs, debugCrashes, slowExitMs });
          results[index] = result;
          onResult?.(result, verdict(result));
        }
      }),
    );
  } finally {
    rmSync(logDir, { recursive: true, force: true });
  }
  return results;
}

/** The platform names a child process sees with `env` (the ICD loader reads OCL_ICD_VENDORS at its first use). */
export function platformNames(env = {}) {
  return new Promise((done, fail) => {
    const childEnv = { ...process.env, ...env };
    for (const [name, value] of Object.entries(childEnv)) if (value === undefined) delete childEnv[name];
    const code = `console.log(JSON.stringify(require(${JSON.stringify(resolve(repoRoot, 'dist/index.js'))}).getPlatforms().map((p) => p.name)))`;
    const child = spawn(process.execPath, ['-e', code], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.on('error', fail);
    child.on('close', (status, signal) => {
      if (status === 0) done(JSON.parse(stdout.trim().split('\n').pop()));
      else fail(new Error(`listing the platforms failed (${signal ?? `status ${status}`}): ${stderr.trim()}`));
    });
  });
}

/**
 * "Last line to exit" over a run's seeds: from each script's last line to its process's end (a script ends by
 * itself; what remains is the package's and the drivers' teardown). { count, p50, p99, max, over: seeds over `limitMs` }.
 */
export function exitTimes(results, limitMs = 2000) {
  const timed = results.filter((r) => r.exitMs != null).sort((a, b) => a.exitMs - b.exitMs);
  const at = (q) => (timed.length ? timed[Math.min(timed.length - 1, Math.ceil(q * timed.length) - 1)].exitMs : null);
  return {
    count: timed.length,
    p50: at(0.5),
    p99: at(0.99),
    max: timed.length ? timed[timed.length - 1].exitMs : null,
    over: timed.filter((r) => r.exitMs > limitMs).map((r) => r.seed),
  };
}

/** The counts of a run: seeds, and failures by kind with their seeds. */
export function summarize(results) {
  const summary = { seeds: results.length, passed: 0, crash: [], hang: [], untyped: [], wrong: [], failed: [] };
  for (const result of results) {
    const failure = verdict(result);
    if (failure) summary[failure.kind].push(result.seed);
    else summary.passed++;
  }
  return summary;
}

const usage = `usage: node test/fuzz/misuse.mjs [--platform NAME] [--seeds 1-300] [--steps 2000] [--parallel N]
                                [--with-reference] [--without-control] [--with-va] [--timeout SECONDS] [--stacks]
                                [--exit-wait SECONDS] [--debug-crashes]
  --platform NAME     the compiling platform: the first whose name contains NAME (default "Portable", PoCL)
  --with-reference    the reference driver's platform beside it (cmake-build/lib; OCL_ICD_VENDORS is made to list it)
  --without-control   without the reference driver's simulated VA and D3D9 resources (they need koffi: node_modules/koffi
                      and node_modules/@koromix; without --without-control they are used when koffi loads)
  --with-va           the VA module on libva, the software VA driver and Xvfb (implies --with-reference)
  --timeout SECONDS   a seed still running after this is a hang (default max(120, steps / 10)); so is one that has
                      not exited 45 s after its script ended
  --stacks            a hung seed's report gets every thread's stack (gdb, or cuda-gdb where only it is installed)
  --exit-wait SECONDS after a stuck exit's stacks, wait this much longer before the kill (tells a slow exit from a stuck one)
  --debug-crashes     a crashed seed runs again under gdb or cuda-gdb; its report gets the signal and every thread's stack
  --slow-exit SECONDS a seed still there this long after its script's last line is reported with its threads (/proc)
Each seed's line says how long its process took to end after its script's last line; the summary gives p50, p99 and
max of that over the run ("last line to exit", the time the package's and the drivers' teardown takes).
MISUSE_TRACE=1 prints each step of a seed to its stderr; MISUSE_WHY=1 adds the async resources to a hang's report.`;

function parseArgs(argv) {
  const options = {
    platform: 'Portable',
    seeds: '1-6',
    steps: 1500,
    parallel: 1,
    reference: false,
    va: false,
    control: undefined,
    timeout: undefined,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new TypeError(`${flag} needs a value`);
      return argv[++i];
    };
    const count = (name, text) => {
      const n = Number(text);
      if (!Number.isInteger(n) || n < 1) throw new RangeError(`${name}: expected a positive integer, got ${JSON.stringify(text)}`);
      return n;
    };
    if (flag === '--platform') options.platform = value();
    else if (flag === '--seeds') options.seeds = value();
    else if (flag === '--steps') options.steps = count(flag, value());
    else if (flag === '--parallel') options.parallel = count(flag, value());
    else if (flag === '--timeout') options.timeout = count(flag, value()) * 1000;
    else if (flag === '--with-reference') options.reference = true;
    else if (flag === '--stacks') options.stacks = true;
    else if (flag === '--exit-wait') options.exitWaitMs = count(flag, value()) * 1000;
    else if (flag === '--debug-crashes') options.debugCrashes = true;
    else if (flag === '--slow-exit') options.slowExitMs = count(flag, value()) * 1000;
    else if (flag === '--without-control') options.control = false;
    else if (flag === '--with-va') options.va = options.reference = true;
    else if (flag === '--help' || flag === '-h') options.help = true;
    else throw new TypeError(`unknown argument ${JSON.stringify(flag)}\n${usage}`);
  }
  return options;
}

async function main(argv) {
  let options;
  try {
    options = parseArgs(argv);
  } catch (error) {
    console.error(error.message);
    return 2;
  }
  if (options.help) {
    console.log(usage);
    return 0;
  }
  const seeds = parseSeeds(options.seeds);
  const config = { steps: options.steps, platform: options.platform, reference: options.reference, va: options.va, control: options.control };
  const env = {};
  const cleanups = [];
  try {
    if (config.reference) {
      const { vendors, cleanup } = vendorsWithReference();
      env.OCL_ICD_VENDORS = vendors;
      cleanups.push(cleanup);
    }
    if (config.va) {
      const missing = vaMissing();
      if (missing) {
        console.error(`--with-va: ${missing}`);
        return 2;
      }
      const xvfb = await startXvfb();
      cleanups.push(() => xvfb.stop());
      Object.assign(env, softvaEnv(xvfb.display));
    }
    const names = await platformNames(env);
    const missing = [
      !names.some((name) => name.includes(config.platform)) && `no platform's name contains "${config.platform}"`,
      config.reference && !names.includes(referenceDriverName) && `the reference driver (${referenceDriverLibrary}) did not load`,
    ].filter(Boolean);
    if (missing.length) {
      console.error(
        `${missing.join('; ')} (platforms: ${names.join(', ') || 'none'}; OCL_ICD_VENDORS=${env.OCL_ICD_VENDORS ?? process.env.OCL_ICD_VENDORS ?? '(unset: /etc/OpenCL/vendors)'})`,
      );
      return 2;
    }
    const started = Date.now();
    const label = `${config.platform}${config.reference ? ' + reference driver' : ''}${config.va ? ' + VA' : ''}`;
    console.log(`misuse fuzzer: ${seeds.length} seeds x ${config.steps} steps on ${label}, ${options.parallel} at a time`);
    let done = 0;
    const results = await runSeeds(seeds, config, {
      parallel: options.parallel,
      env,
      timeoutMs: options.timeout,
      stacks: options.stacks,
      exitWaitMs: options.exitWaitMs,
      debugCrashes: options.debugCrashes,
      slowExitMs: options.slowExitMs,
      onResult(result, failure) {
        done++;
        const exit = result.exitMs == null ? '' : `, exited ${result.exitMs} ms after its last line`;
        if (failure) console.log(`\n${failureReport(result, config, failure)}\n`);
        else if (process.stdout.isTTY) process.stdout.write(`\r${done}/${seeds.length} seeds`);
        else
          console.log(
            `seed ${result.seed} passed in ${(result.ms / 1000).toFixed(1)} s${exit} (${done}/${seeds.length}, ${Math.round((Date.now() - started) / 1000)} s)`,
          );
        if (result.slowExit) console.log(`seed ${result.seed}: ${result.slowExit}`);
      },
    });
    const summary = summarize(results);
    const seconds = Math.round((Date.now() - started) / 1000);
    const list = (seedsOf) => (seedsOf.length ? ` (seeds ${seedsOf.join(', ')})` : '');
    console.log(
      `\n${summary.seeds} seeds x ${config.steps} steps on ${label} in ${seconds} s: ${summary.passed} passed; ` +
        `${summary.crash.length} crashes${list(summary.crash)}, ${summary.hang.length} hangs${list(summary.hang)}, ` +
        `${summary.wrong.length} wrong results${list(summary.wrong)}, ${summary.untyped.length} untyped errors${list(summary.untyped)}, ` +
        `${summary.failed.length} other failures${list(summary.failed)}`,
    );
    const exits = exitTimes(results);
    if (exits.count)
      console.log(
        `last line to exit, ${exits.count} processes, ${options.parallel} at a time: p50 ${exits.p50} ms, p99 ${exits.p99} ms, max ${exits.max} ms; ` +
          `${exits.over.length} over 2 s${exits.over.length ? ` (seeds ${exits.over.join(', ')})` : ''}`,
      );
    return summary.passed === summary.seeds ? 0 : 1;
  } finally {
    for (const cleanup of cleanups) await cleanup();
  }
}

if (process.argv[1] && pathToFileURL(resolve(process.argv[1])).href === import.meta.url) {
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (error) => {
      console.error(error);
      process.exitCode = 2;
    },
  );
}
