import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createContext, getPlatforms, type CommandQueue, type Context, type Device, type Platform } from '../../lib';

export const repoRoot = resolve(__dirname, '../..');

/**
 * PoCL, the real CPU driver every test run needs. A missing platform fails
 * the run (install pocl-opencl-icd); it is never skipped.
 */
export function pocl(): Platform {
  const platform = getPlatforms().find((p) => p.name === 'Portable Computing Language');
  if (!platform) {
    throw new Error(
      `PoCL is not among the platforms (${getPlatforms().map((p) => p.name).join(', ') || 'none'}): ` +
        'install ocl-icd-libopencl1 and pocl-opencl-icd',
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

/** Runs a CommonJS snippet in a fresh node process with the built package as `ocl`. */
export function runNode(code: string, options: { env?: NodeJS.ProcessEnv; args?: string[]; timeout?: number } = {}) {
  const prelude = `const ocl = require(${JSON.stringify(resolve(repoRoot, 'dist/index.js'))});\n`;
  // SNIPPET_DUMP=file keeps the last snippet, to replay a failure with plain node.
  if (process.env.SNIPPET_DUMP) writeFileSync(process.env.SNIPPET_DUMP, prelude + code);
  const result = spawnSync(process.execPath, [...(options.args ?? []), '-e', prelude + code], {
    encoding: 'utf8',
    env: { ...process.env, ...options.env },
    timeout: options.timeout ?? 60_000,
  });
  return { status: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr };
}

/**
 * runNode without blocking this process's event loop (long runs would starve
 * vitest's worker RPC).
 */
export function runNodeAsync(code: string, options: { env?: NodeJS.ProcessEnv; args?: string[]; timeout?: number } = {}) {
  const prelude = `const ocl = require(${JSON.stringify(resolve(repoRoot, 'dist/index.js'))});\n`;
  if (process.env.SNIPPET_DUMP) writeFileSync(process.env.SNIPPET_DUMP, prelude + code);
  return new Promise<{ status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((done) => {
    const child = spawn(process.execPath, [...(options.args ?? []), '-e', prelude + code], {
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGTERM'), options.timeout ?? 60_000);
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      done({ status, signal, stdout, stderr });
    });
  });
}

/**
 * A snippet body for runNode, run inside an async function where `ref` (the
 * reference driver's control API), `platform` (the reference driver), `va`
 * (its cl_intel_va_api_media_sharing facade) and `display` (a simulated VA
 * display) are defined.
 */
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
