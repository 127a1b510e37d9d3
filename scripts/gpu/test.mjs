#!/usr/bin/env node
// `npm run test:gpu`: the package on a real GPU driver (NVIDIA's by default),
// where vitest is not needed: the device check (core OpenCL), the
// external-memory proof (Vulkan <-> OpenCL), the GPU suite (test/gpu: the
// mistakes and lifetimes that a real driver turned into hangs and crashes,
// each in a fresh process), and, given --seeds, the misuse fuzzer.
//
//   node scripts/gpu/test.mjs [--platform NAME] [--seeds A-B] [--steps N] [--parallel N]
//                             [--only check,proof,suite,fuzz] [--out DIR] [--spread GPUS] [--proof-cycles N]
//                             [--files NAME,NAME] [--step-limit SECONDS]
//
// --files runs only those files of the suite (external-mistakes, maps-events: names without .test.mjs);
// --step-limit is each step's limit (default 600 s for the check and the proof, 240 s a suite file), after which
// its every thread's stack is printed and it is killed.
//
// On a machine without Node or a Vulkan loader: scripts/gpu/pack-for-gpu-machine.sh on a
// build machine, carry what it lists, and run it through scripts/gpu/with-gpu-drivers.sh
// (docs/testing.md, "Testing on a GPU").
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stacksOf } from '../../test/gpu/stacks.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const known = ['platform', 'seeds', 'steps', 'parallel', 'only', 'out', 'spread', 'proof-cycles', 'files', 'step-limit'];
for (let i = 0; i < args.length; i += 2) {
  if (!args[i].startsWith('--') || !known.includes(args[i].slice(2))) {
    console.error(`unknown argument ${args[i]}: expected ${known.map((k) => `--${k}`).join(', ')}`);
    process.exit(2);
  }
}
const platform = option('platform', process.env.OPENCL_INTEROP_GPU_PLATFORM || 'NVIDIA');
const seeds = option('seeds', '');
const steps = option('steps', '2000');
const parallel = option('parallel', '4');
const only = option('only', 'check,proof,suite,fuzz').split(',');
const outDir = option('out', '');
// --spread N: the suite's files run N at a time, each on its own GPU (CUDA_VISIBLE_DEVICES), each printed as it ends;
// a file's cases that need two GPUs then skip.
const spread = Number(option('spread', '1'));
for (const part of only) {
  if (!['check', 'proof', 'suite', 'fuzz'].includes(part)) {
    console.error(`--only takes check, proof, suite and fuzz; got ${part}`);
    process.exit(2);
  }
}
const stepLimit = option('step-limit', '');
if (stepLimit && !(Number(stepLimit) > 0)) {
  console.error(`--step-limit takes a number of seconds; got ${stepLimit}`);
  process.exit(2);
}
const every = readdirSync(join(root, 'test/gpu'))
  .filter((f) => f.endsWith('.test.mjs'))
  .sort();
const named = option('files', '');
const files = named ? named.split(',').map((name) => `${name.replace(/\.test\.mjs$/, '')}.test.mjs`) : every;
const missing = files.filter((f) => !every.includes(f));
if (missing.length) {
  console.error(`--files: no ${missing.join(', ')} in test/gpu (it has ${every.map((f) => f.replace('.test.mjs', '')).join(', ')})`);
  process.exit(2);
}
const limitOf = (fallbackMs) => (stepLimit ? Number(stepLimit) * 1000 : fallbackMs);
if (seeds && !/^\d+-\d+$/.test(seeds)) {
  console.error(`--seeds takes a range A-B (such as 1-300); got ${seeds}`);
  process.exit(2);
}

const env = { ...process.env, OPENCL_INTEROP_GPU_PLATFORM: platform, CHECK_PLATFORM: platform, OPENCL_INTEROP_GPU_STACKS: '1' };
const driver = spawnSync('nvidia-smi', ['--query-gpu=name,driver_version', '--format=csv,noheader'], { encoding: 'utf8' });
const header = {
  date: new Date().toISOString(),
  platform,
  gpus: driver.status === 0 ? driver.stdout.trim().split('\n') : ['(no nvidia-smi)'],
  node: process.version,
};
console.log(`test:gpu ${JSON.stringify(header)}`);

// A step still running after limitMs is reported with every thread's stack and killed: one hang costs its own limit, not the run.
function run(name, command, commandArgs, limitMs = limitOf(600_000), { gpu, quiet = false } = {}) {
  return new Promise((resolvePromise) => {
    const started = Date.now();
    const title = `\n=== ${name}: ${command} ${commandArgs.join(' ')}${gpu === undefined ? '' : ` (CUDA_VISIBLE_DEVICES=${gpu})`}`;
    if (!quiet) console.log(title);
    const childEnv = gpu === undefined ? env : { ...env, CUDA_VISIBLE_DEVICES: String(gpu) };
    const child = spawn(command, commandArgs, { cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stacksTaken = Promise.resolve();
    const timer = setTimeout(() => {
      output += `\n${name}: still running after ${limitMs / 1000} s: stacks, then killed\n`;
      stacksTaken = stacksOf(child.pid).then((stacks) => {
        output += stacks;
        process.stdout.write(output.slice(output.lastIndexOf(`\n${name}: still running`)));
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          child.kill('SIGKILL');
        }
      });
    }, limitMs);
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
      if (!quiet) process.stdout.write(d);
    });
    child.stderr.on('data', (d) => {
      output += d;
      if (!quiet) process.stderr.write(d);
    });
    child.on('error', (error) => resolvePromise({ name, status: 127, seconds: 0, output: String(error) }));
    child.on('close', async (status, signal) => {
      clearTimeout(timer);
      await stacksTaken; // a step that ends while its stacks are taken keeps them in its report
      if (quiet) process.stdout.write(`${title}\n${output}`);
      resolvePromise({ name, status: status ?? 128, signal, seconds: Math.round((Date.now() - started) / 100) / 10, output });
    });
  });
}

const results = [];
if (only.includes('check')) results.push(await run('device check', process.execPath, ['scripts/device-check.mjs', platform]));
if (only.includes('proof')) {
  const cycles = option('proof-cycles', '');
  results.push(
    await run('external-memory proof', process.execPath, [
      'scripts/external-memory-proof.mjs',
      '--platform',
      platform,
      ...(cycles ? ['--cycles', cycles] : []),
    ]),
  );
}
if (only.includes('suite')) {
  const suiteRun = (file, gpu) =>
    run(
      `GPU suite: ${file}`,
      process.execPath,
      ['--test', '--test-reporter=spec', `test/gpu/${file}`],
      limitOf(240_000),
      spread > 1 ? { gpu, quiet: true } : {},
    );
  const queue = [...files];
  const ran = [];
  await Promise.all(
    Array.from({ length: Math.max(1, spread) }, async (_, gpu) => {
      while (queue.length) {
        const file = queue.shift();
        ran.push([files.indexOf(file), await suiteRun(file, gpu)]);
      }
    }),
  );
  results.push(...ran.sort((a, b) => a[0] - b[0]).map(([, result]) => result));
}
if (only.includes('fuzz') && seeds) {
  const fuzzer = join(root, 'test/fuzz/misuse.mjs');
  if (!existsSync(fuzzer)) results.push({ name: 'misuse fuzzer', status: 1, seconds: 0, output: `${fuzzer} is missing` });
  else {
    results.push(
      // The reference driver beside the GPU's when it is built (the process then has two drivers, as users' may);
      // each seed has its own time-out inside the fuzzer, so the run as a whole gets a long one.
      await run(
        'misuse fuzzer',
        process.execPath,
        [
          fuzzer,
          '--platform',
          platform,
          '--seeds',
          seeds,
          '--steps',
          steps,
          '--parallel',
          parallel,
          ...(existsSync(join(root, 'cmake-build/lib/libocl_interop_refdriver.so')) ? ['--with-reference'] : []),
        ],
        6 * 3600_000,
      ),
    );
  }
}

console.log(`\n=== test:gpu summary (${header.date}; ${header.gpus.join('; ')})`);
for (const r of results) {
  const counts = [...r.output.matchAll(/^(?:# |ℹ )(tests|pass|fail|skipped) (\d+)$/gm)].map((m) => `${m[1]} ${m[2]}`).join(', ');
  console.log(`  ${r.status === 0 ? 'ok  ' : 'FAIL'} ${r.name} (${r.seconds} s${counts ? `; ${counts}` : ''})`);
}
if (outDir) {
  mkdirSync(outDir, { recursive: true });
  writeFileSync(
    join(outDir, 'test-gpu.json'),
    JSON.stringify({ ...header, results: results.map(({ output, ...r }) => ({ ...r, tail: output.slice(-20000) })) }, null, 1),
  );
}
process.exitCode = results.every((r) => r.status === 0) ? 0 : 1;
