import { chmodSync, copyFileSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProcess } from './helpers';

const script = resolve(__dirname, '../scripts/test-prerequisites.mjs');
const runuser = ['/usr/sbin/runuser', '/sbin/runuser'].find((path) => existsSync(path)) ?? 'runuser';

describe('npm test on a machine without the system packages', () => {
  it('passes here, where everything is installed', async () => {
    expect((await runProcess(process.execPath, [script])).status).toBe(0);
  });

  it('stops within seconds with one message naming what to install when it may not install it', async () => {
    // No tools on PATH, and (where this runs as root) an unprivileged user: nothing can be installed.
    // The user may not be able to read the checkout: the script runs from a copy it can read.
    const dir = mkdtempSync(join(tmpdir(), 'prerequisites-'));
    chmodSync(dir, 0o755);
    const copy = join(dir, 'test-prerequisites.mjs');
    copyFileSync(script, copy);
    chmodSync(copy, 0o644);
    const env = { PATH: '/nonexistent', HOME: '/tmp' };
    const asUser = process.getuid?.() === 0 ? [runuser, ['-u', 'nobody', '--', process.execPath, copy]] as const : [process.execPath, [copy]] as const;
    const started = Date.now();
    const result = await runProcess(asUser[0], asUser[1], { env, exactEnv: true, timeout: 20_000 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      'npm test needs Xvfb, CMake, a C++ compiler.',
      expect.stringMatching(/^Install them with: sudo apt-get install xvfb cmake g\+\+$|^Install them with your package manager/),
    ]);
  });
});
