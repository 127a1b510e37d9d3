// Shared by the GPU test files (test/gpu/*.test.mjs). They use node:test and
// the built package (dist/) only, so they run where vitest is not installed:
// on a GPU machine (`npm run test:gpu`) and, against the reference driver and
// lavapipe, in CI (test/gpu-suite.test.ts runs them with
// OPENCL_INTEROP_GPU_PLATFORM set to the reference driver).
//
// OPENCL_INTEROP_GPU_PLATFORM: part of the platform's name (default "NVIDIA").
import { spawn } from 'node:child_process';
import { stacksOf } from './stacks.mjs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const distPath = resolve(here, '../../dist/index.js');
const require = createRequire(import.meta.url);
/** The package, as a user's `require('opencl-interop')` gets it. */
export const ocl = require(distPath);

export const platformName = process.env.OPENCL_INTEROP_GPU_PLATFORM || 'NVIDIA';

/** The platform under test, or null when no platform's name contains platformName. */
export function findGpuPlatform() {
  return ocl.getPlatforms().find((p) => p.name.includes(platformName)) ?? null;
}

/** The platform under test; throws a clear Error when it is missing. */
export function gpuPlatform() {
  const platform = findGpuPlatform();
  if (!platform) {
    const names = ocl.getPlatforms().map((p) => p.name);
    throw new Error(
      `no OpenCL platform's name contains "${platformName}" (platforms: ${names.join(', ') || 'none'}); set OPENCL_INTEROP_GPU_PLATFORM`,
    );
  }
  return platform;
}

/** Its first GPU device (or first device: the reference driver's is a CPU-typed device). */
export function gpuDevice(platform = gpuPlatform()) {
  return platform.getDevices('gpu')[0] ?? platform.getDevices()[0];
}

/** True when a Vulkan loader and a device matching the OpenCL device's UUID exist. */
export function vulkanMatches(device = gpuDevice()) {
  try {
    const instance = ocl.createVulkanInstance();
    try {
      const uuid = Buffer.from(device.uuidBytes ?? []).toString('hex');
      return instance.physicalDevices().some((p) => Buffer.from(p.deviceUUID).toString('hex') === uuid);
    } finally {
      instance.dispose();
    }
  } catch {
    return false;
  }
}

/**
 * The prelude every fresh process gets: `ocl`, `platform`, `device`, and
 * `vulkanDevice()` (a Vulkan device on the same GPU, by UUID).
 */
export const prelude = `
const ocl = require(${JSON.stringify(distPath)});
const platform = ocl.getPlatforms().find((p) => p.name.includes(${JSON.stringify(platformName)}));
if (!platform) { console.error('platform missing'); process.exit(90); }
const device = platform.getDevices('gpu')[0] ?? platform.getDevices()[0];
let vulkanInstance;
const vulkanDevice = () => (vulkanInstance ??= ocl.createVulkanInstance()).createDevice({ uuid: device.uuidBytes });
`;

const endMark = '\u0000script ended\n';

/**
 * runFresh's limits for a process whose exit is under test: on a loaded GPU every driver call can take seconds (a
 * Vulkan device 15 s beside 12 fuzzers), so the whole run has 2 minutes and the exit 20 s of its own.
 */
export const exitClock = { timeoutMs: 120_000, exitTimeoutMs: 20_000 };

/**
 * Runs `source` (CommonJS, after the prelude, top-level await allowed inside
 * an async IIFE the caller writes) in a fresh `node` process. Resolves with
 * { status, signal, stdout, stderr, timedOut, ms, exitMs }; a process alive
 * after timeoutMs is killed (SIGKILL) and reported with timedOut: true.
 * With exitTimeoutMs, the exit is timed on its own: a process still there
 * exitTimeoutMs after its 'exit' event is killed the same way, and exitMs is
 * the time from that event to its end (on a loaded GPU every driver call can
 * take seconds, so the whole run's time says little about the exit).
 */
export function runFresh(source, { timeoutMs = 20_000, exitTimeoutMs, env = {}, args = [], onTimeout } = {}) {
  return new Promise((resolvePromise) => {
    const started = Date.now();
    const marked = exitTimeoutMs ? `process.on('exit', () => require('node:fs').writeSync(2, ${JSON.stringify(endMark)}));\n` : '';
    const child = spawn(process.execPath, [...args, '-e', prelude + marked + source], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let endedAt = 0;
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => {
      stderr += d;
      if (exitTimeoutMs && !endedAt && stderr.includes(endMark)) {
        endedAt = Date.now();
        clearTimeout(timer);
        timer = setTimeout(stuck, exitTimeoutMs * scale);
      }
    });
    let timedOut = false;
    // OPENCL_INTEROP_GPU_TIMEOUT_SCALE: a busy machine's allowance (CI sets 3).
    const scale = Number(process.env.OPENCL_INTEROP_GPU_TIMEOUT_SCALE) || 1;
    // onTimeout(pid): awaited before the kill (OPENCL_INTEROP_GPU_STACKS=1 uses it to print every thread's stack).
    // A process that ends while its stacks are taken is reported with them.
    let stacksTaken = Promise.resolve();
    const stuck = () => {
      timedOut = true;
      stacksTaken = (async () => {
        if (onTimeout) await onTimeout(child.pid).catch(() => {});
        else if (process.env.OPENCL_INTEROP_GPU_STACKS === '1') stderr += await stacksOf(child.pid);
      })();
      stacksTaken.then(() => child.kill('SIGKILL'));
    };
    let timer = setTimeout(stuck, timeoutMs * scale);
    child.on('close', async (status, signal) => {
      clearTimeout(timer);
      const ended = Date.now();
      await stacksTaken;
      resolvePromise({
        status,
        signal,
        stdout,
        stderr: stderr.replace(endMark, ''),
        timedOut,
        ms: ended - started,
        exitMs: endedAt ? ended - endedAt : null,
      });
    });
  });
}

/** Formats a fresh process's result for an assertion message. */
export function describeRun(run) {
  const how = run.timedOut
    ? `still running after ${run.ms} ms (killed)${run.exitMs != null ? `, ${run.exitMs} ms after its 'exit' event` : ''}`
    : run.signal
      ? `killed by ${run.signal}`
      : `exit ${run.status}${run.exitMs != null ? ` (${run.exitMs} ms after its 'exit' event)` : ''}`;
  return `${how}\n--- stdout\n${run.stdout.slice(-4000)}\n--- stderr\n${run.stderr.slice(-4000)}`;
}
