// The test equipment's child processes (test/helpers): the suite must pass on
// a busy machine and never hang, every time. No test file blocks its vitest worker on a child process, and a
// child that hangs is killed, with what it started, and reported with what it
// printed.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChildTimeoutError, repoRoot, runNode, runProcess } from './helpers';

function testSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testSources(path);
    return /\.(ts|mts|cts)$/.test(entry.name) ? [path] : [];
  });
}

/** A process that has not ended (a zombie has: it waits only to be reaped). */
const running = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0] !== 'Z';
  } catch {
    return false;
  }
};

describe('child processes of the test suite', () => {
  it('no test file imports the blocking child_process calls (a worker blocked for 60 s fails the run: "Timeout calling onTaskUpdate")', () => {
    const files = testSources(join(repoRoot, 'test'));
    expect(files.length).toBeGreaterThan(20);
    const blocking = files.filter((file) =>
      /^(?:import|const|let)\s*\{[^}]*\b(?:spawnSync|execSync|execFileSync)\b[^}]*\}\s*(?:from\s*|=\s*require\()\s*['"](?:node:)?child_process['"]/m.test(
        readFileSync(file, 'utf8'),
      ),
    );
    // Snippets that run in a child process may block that child: they are indented strings here, not imports.
    expect(blocking.map((file) => relative(repoRoot, file))).toEqual([]);
  });

  it('a child still running at its time-out is killed with the processes it started; the error carries what it printed', async () => {
    const started = Date.now();
    const error = await runNode(
      `const { spawn } = require('node:child_process');
       const sleeper = spawn('sleep', ['600'], { stdio: 'inherit' });
       console.log('started, sleeper ' + sleeper.pid);
       console.error('a line on stderr');
       setInterval(() => {}, 1000);`,
      { timeout: 1500 },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChildTimeoutError);
    const timedOut = error as ChildTimeoutError;
    expect(timedOut.seconds).toBe(1.5);
    expect(timedOut.result.signal).toBe('SIGTERM');
    expect(timedOut.message).toMatch(
      /^a node snippet \(const \{ spawn \} = require\('node:child_process'\);; SNIPPET_DUMP=file keeps it\) was still running after 1\.5 s and was killed \(SIGTERM\)/,
    );
    expect(timedOut.message).toContain('--- its stdout:\nstarted, sleeper ');
    expect(timedOut.message).toContain('--- its stderr:\na line on stderr');
    // The grandchild held the output pipes: it was killed with its group, or the promise would still wait.
    const sleeper = Number(/sleeper (\d+)/.exec(timedOut.result.stdout)![1]);
    expect(running(sleeper)).toBe(false);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a child that ignores SIGTERM is killed with SIGKILL 5 s later', async () => {
    const error = await runNode(`process.on('SIGTERM', () => console.log('SIGTERM ignored')); console.log('waiting'); setInterval(() => {}, 1000);`, {
      timeout: 1000,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChildTimeoutError);
    expect((error as ChildTimeoutError).result.signal).toBe('SIGKILL');
    expect((error as ChildTimeoutError).result.stdout).toBe('waiting\nSIGTERM ignored\n');
  });

  it('any other ending resolves: the status, the signal, both outputs; stdin is a pipe at its end, as spawnSync gave it', async () => {
    const exited = await runProcess(process.execPath, [
      '-e',
      `console.log(require('node:fs').fstatSync(0).isFIFO() || require('node:fs').fstatSync(0).isSocket()); process.stdin.on('end', () => { console.error('eof'); process.exit(3); }).resume();`,
    ]);
    expect(exited).toEqual({ status: 3, signal: null, stdout: 'true\n', stderr: 'eof\n' });
    const crashed = await runNode(`process.kill(process.pid, 'SIGSEGV');`);
    expect([crashed.status, crashed.signal]).toEqual([null, 'SIGSEGV']);
    await expect(runProcess('/nonexistent/tool', [])).rejects.toThrow(/^\/nonexistent\/tool could not be started: spawn \/nonexistent\/tool ENOENT/);
  });
});
