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
