import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
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
  const result = spawnSync(process.execPath, [...(options.args ?? []), '-e', prelude + code], {
    encoding: 'utf8',
    env: { ...process.env, ...options.env },
    timeout: options.timeout ?? 60_000,
  });
  return { status: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr };
}
