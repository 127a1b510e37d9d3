// Xvfb for the VA examples when the machine has no VA display of its own, and
// for the benches, the VA tests and the misuse fuzzer: plain node, no
// TypeScript (xvfb.d.mts gives the tests its types).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * Starts Xvfb on a display number of its own; resolves { display, stop() }.
 * Xvfb's own choice (-displayfd alone) takes no lock file, and two servers
 * started at once (test files in parallel, a benchmark, fuzzers) could both
 * take :0, the second unlinking the first's socket. So each process starts
 * from a number of its own, skips numbers whose lock or socket exists, and
 * moves on when Xvfb finds the number taken; -displayfd still says when the
 * server is ready. -noreset: by default an X server resets when its last
 * client disconnects, and a test opening a display during that reset got
 * "no X server answered".
 */
export async function startXvfb() {
  let display = 10 + (process.pid % 500);
  const failures = [];
  for (let attempt = 0; attempt < 20; attempt++, display++) {
    while (existsSync(`/tmp/.X${display}-lock`) || existsSync(`/tmp/.X11-unix/X${display}`)) display++;
    try {
      return await startXvfbOn(display);
    } catch (error) {
      if (error.cannotStart) throw error;
      failures.push(`:${display}: ${error.message}`);
    }
  }
  throw new Error(`Xvfb did not start on any of 20 display numbers:\n${failures.join('\n')}`);
}

function startXvfbOn(number) {
  return new Promise((done, fail) => {
    const cannotStart = (error) =>
      Object.assign(new Error(`Xvfb could not be started (apt-get install xvfb): ${error.message}`), { cannotStart: true });
    let child;
    try {
      child = spawn('Xvfb', [`:${number}`, '-displayfd', '3', '-screen', '0', '64x64x24', '-nolisten', 'tcp', '-noreset'], {
        stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      fail(cannotStart(error));
      return;
    }
    let text = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`Xvfb did not start in 20 s: ${stderr}`));
    }, 20_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      fail(cannotStart(error));
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      fail(new Error(`Xvfb exited (${signal ?? code}) before it was ready: ${stderr.trim().split('\n').pop() ?? ''}`));
    });
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.stdio[3].setEncoding('utf8').on('data', (chunk) => {
      text += chunk;
      if (!text.includes('\n')) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      // A program that ends without stop() takes its server with it.
      const kill = () => child.kill('SIGTERM');
      process.once('exit', kill);
      done({
        display: `:${text.trim()}`,
        stop: () =>
          new Promise((stopped) => {
            process.removeListener('exit', kill);
            if (child.exitCode !== null || child.signalCode !== null) return stopped();
            child.once('exit', () => stopped());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}
