// Every thread's stack of a hung process (used by support.mjs, scripts/gpu/test.mjs and the misuse fuzzer, which must
// not load the package).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';

const alive = (pid) => existsSync(`/proc/${pid}`) && !/^\S+ \(.*\) [ZX]/.test(readProc(`/proc/${pid}/stat`));
/** A /proc file's text, trimmed; empty when it cannot be read (the process or thread has ended). */
export function readProc(path) {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return '';
  }
}

/**
 * What each thread of a process is blocked in, read from /proc without
 * stopping it (a debugger's attach interrupts every blocking call, which can
 * itself free a thread that waits for a wake-up that was missed): its name,
 * state, kernel wait channel and system call (number and arguments: a futex
 * address, a file descriptor), and its kernel stack where readable (root).
 */
export function threadsOf(pid) {
  let tasks;
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return `(no /proc/${pid}: the process has ended)`;
  }
  const lines = tasks.map((tid) => {
    const dir = `/proc/${pid}/task/${tid}`;
    const state = /^\S+ \(.*\) (\S)/.exec(readProc(`${dir}/stat`))?.[1] ?? '?';
    const kernel = readProc(`${dir}/stack`)
      .split('\n')
      .map((l) => l.replace(/^\[<[0-9a-f]+>\] /, '').replace(/\+0x[0-9a-f/x]+$/, ''))
      .filter(Boolean)
      .slice(0, 6)
      .join(' < ');
    return `  ${tid} "${readProc(`${dir}/comm`)}" ${state} wchan=${readProc(`${dir}/wchan`) || '-'} syscall=${readProc(`${dir}/syscall`) || '-'}${kernel ? ` kernel: ${kernel}` : ''}`;
  });
  return `${tasks.length} threads:\n${lines.join('\n')}`;
}

/**
 * A hung process's threads from /proc, then (if it is still there 2 s later)
 * every thread's stack through gdb or cuda-gdb (the GPU machine has cuda-gdb
 * only), and whether the process ended while the debugger was attached.
 */
export async function stacksOf(pid) {
  const threads = threadsOf(pid);
  await new Promise((r) => setTimeout(r, 2000));
  if (!alive(pid)) return `\n--- threads (/proc)\n${threads}\n(it ended by itself within 2 s of this)\n`;
  const stacks = await debuggerStacks(pid);
  await new Promise((r) => setTimeout(r, 1000));
  const after = alive(pid)
    ? ''
    : '\n(it ended once the debugger had attached: a blocking call interrupted by the attach let it go on, as when a wake-up was missed)\n';
  return `\n--- threads (/proc)\n${threads}\n${stacks}${after}`;
}

function debuggerStacks(pid) {
  return new Promise((resolvePromise) => {
    const debuggers = ['gdb', 'cuda-gdb', '/usr/local/cuda/bin/cuda-gdb'];
    const tryNext = (i) => {
      if (i >= debuggers.length) return resolvePromise('\n(no gdb or cuda-gdb to print the stacks with)\n');
      const gdb = spawn(debuggers[i], ['-batch', '-p', String(pid), '-ex', 'thread apply all bt 30'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let missing = false;
      gdb.stdout.on('data', (d) => (out += d));
      gdb.stderr.on('data', (d) => (out += d));
      gdb.on('error', () => (missing = true));
      gdb.on('close', () => (missing ? tryNext(i + 1) : resolvePromise(`\n--- stacks (${debuggers[i]})\n${out}`)));
    };
    tryNext(0);
  });
}

/**
 * Runs `file args` under gdb or cuda-gdb (batch mode) and returns what the
 * debugger printed: where a crash happens again, the signal and every
 * thread's stack at it. A note instead when neither debugger is installed.
 * `env` is the whole environment of the program.
 */
export function stacksUnderDebugger(file, args, cwd, timeoutMs = 300_000, env = process.env) {
  return new Promise((resolvePromise) => {
    const debuggers = ['gdb', 'cuda-gdb', '/usr/local/cuda/bin/cuda-gdb'];
    const tryNext = (i) => {
      if (i >= debuggers.length) return resolvePromise('\n(no gdb or cuda-gdb to run it under for the stacks)\n');
      const commands = ['set pagination off', 'handle SIGPIPE SIGUSR1 SIGUSR2 nostop noprint', 'run', 'thread apply all bt 30'];
      const gdb = spawn(debuggers[i], ['-batch', ...commands.flatMap((c) => ['-ex', c]), '--args', file, ...args], {
        cwd,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let missing = false;
      const timer = setTimeout(() => gdb.kill('SIGKILL'), timeoutMs);
      gdb.stdout.on('data', (d) => (out += d));
      gdb.stderr.on('data', (d) => (out += d));
      gdb.on('error', () => (missing = true));
      gdb.on('close', () => {
        clearTimeout(timer);
        if (missing) return tryNext(i + 1);
        const signal = out.search(/received signal|Program terminated with signal/);
        resolvePromise(
          `\n--- under ${debuggers[i]} (${signal < 0 ? 'it did not crash this time' : 'it crashed again'})\n${signal < 0 ? out.slice(-2000) : out.slice(signal, signal + 60_000)}`,
        );
      });
    };
    tryNext(0);
  });
}
