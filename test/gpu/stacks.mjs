// Every thread's stack of a hung process (used by support.mjs and scripts/gpu/test.mjs, which must not load the package).
import { spawn } from 'node:child_process';

/**
 * Every thread's stack of a running process, through gdb or cuda-gdb (the
 * GPU machine has cuda-gdb only); a note instead when neither is installed.
 */
export function stacksOf(pid) {
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
