// Issue 22: on NVIDIA, processes that ended with Vulkan or OpenCL objects alive
// stayed for 30 s to minutes after their script ended while other processes
// loaded the driver (fuzzers on another GPU); alone they exit in about 1 s.
// Their main thread was inside vkDestroyDevice (a finalizer at the
// environment's teardown), in an ioctl of NVIDIA's driver. This asks, in fresh
// processes on GPU 0 while the load runs:
//   - how long the teardown calls take inside a script (vk.dispose(), context.release());
//   - whether a process that leaves its objects to the process's end (process.exit) exits promptly;
//   - whether a stalled exit goes on when its ioctl is interrupted (SIGSTOP + SIGCONT, what a debugger's attach does);
//   - what the other processes' threads are doing meanwhile (how many sit in an ioctl).
// Run it beside a load (scripts/gpu/finish-run.sh teardown starts one):
//   CUDA_VISIBLE_DEVICES=0 node scripts/gpu/teardown-under-load.mjs [--runs 2] [--budget 380] [--cases a,b]
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { prelude } from '../../test/gpu/support.mjs';
import { readProc, threadsOf } from '../../test/gpu/stacks.mjs';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '2' }, budget: { type: 'string', default: '380' }, cases: { type: 'string' } },
});
const runs = Number(values.runs);
const budgetMs = Number(values.budget) * 1000;
const started = Date.now();

const opencl = `const context = ocl.createContext({ devices: [device] }); const queue = context.createQueue(device); const buffer = context.createBuffer(4096);
await queue.writeBuffer(buffer, new Uint8Array(4096));`;
const vulkan = `const vk = vulkanDevice(); const vkBuffer = vk.createBuffer({ size: 4096 });`;
const timed = (what, code) => `{ const t = performance.now(); ${code}; console.log('${what}: ' + (performance.now() - t).toFixed(1) + ' ms'); }`;

const cases = {
  'vulkan-exit': { body: `${vulkan} process.exit(0);`, about: 'Vulkan objects alive, process.exit(0): no finalizers run' },
  'vulkan-alive': { body: vulkan, about: 'Vulkan objects alive to the natural end (finalizers destroy them)', interrupt: true },
  'vulkan-disposed': {
    body: `${timed('vulkanDevice() + createBuffer', 'globalThis.vk = vulkanDevice(); globalThis.vkBuffer = vk.createBuffer({ size: 4096 })')} ${timed('vkBuffer.dispose + vk.dispose + instance.dispose', 'vkBuffer.dispose(); vk.dispose(); vulkanInstance.dispose()')}`,
    about: 'Vulkan objects disposed by the script, timed',
  },
  'opencl-exit': { body: `${opencl} process.exit(0);`, about: 'OpenCL objects alive, process.exit(0)' },
  'opencl-alive': { body: opencl, about: 'OpenCL objects alive to the natural end', interrupt: true },
  'opencl-released': {
    body: `${timed('createContext + createQueue + createBuffer', 'globalThis.context = ocl.createContext({ devices: [device] }); globalThis.queue = context.createQueue(device); globalThis.buffer = context.createBuffer(4096)')} await queue.writeBuffer(buffer, new Uint8Array(4096)); ${timed('buffer + queue + context release', 'buffer.release(); queue.release(); context.release()')}`,
    about: 'OpenCL objects released by the script, timed',
  },
};
const chosen = values.cases ? values.cases.split(',') : Object.keys(cases);
const unknown = chosen.filter((name) => !Object.hasOwn(cases, name));
if (unknown.length) {
  console.error(`--cases: ${unknown.join(', ')} is not a case; the cases are ${Object.keys(cases).join(', ')}`);
  process.exit(2);
}

/** Threads of every other node process, counted by what they wait in (ioctl is system call 16). */
function othersWaiting(self) {
  const counts = new Map();
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p) && Number(p) !== self && Number(p) !== process.pid)) {
    const comm = readProc(`/proc/${pid}/comm`);
    if (comm !== 'node' && comm !== 'MainThread') continue;
    let tasks = [];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tasks) {
      const syscall = readProc(`/proc/${pid}/task/${tid}/syscall`).split(' ')[0];
      if (!syscall) continue;
      const key =
        syscall === '16' ? `ioctl/${readProc(`/proc/${pid}/task/${tid}/wchan`) || '-'}` : syscall === 'running' ? 'running' : `syscall ${syscall}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k}: ${n}`)
    .join(', ');
}

/**
 * One fresh process. Once its script has ended: 8 s later, if it is still there, its threads (/proc) and the other
 * processes' waits; with `interrupt`, at 15 s SIGSTOP + SIGCONT (an attach's interruption without a debugger);
 * killed 45 s after the end.
 */
function runOnce(c) {
  return new Promise((resolvePromise) => {
    const spawnedAt = Date.now();
    const child = spawn(
      process.execPath,
      ['-e', `${prelude}\nprocess.on('exit', () => console.log('script ended'));\n(async () => { ${c.body} })();`],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const notes = [];
    let stdout = '';
    let stderr = '';
    let endedAt = 0;
    const timers = [];
    const later = (ms, fn) => timers.push(setTimeout(fn, ms));
    const afterEnd = () => {
      later(8000, () => {
        notes.push(`still there 8 s after its script ended; its threads:\n${threadsOf(child.pid)}`);
        notes.push(`other node processes' threads: ${othersWaiting(child.pid)}`);
      });
      if (c.interrupt) {
        later(15000, () => {
          notes.push(`15 s after the end: SIGSTOP + SIGCONT`);
          child.kill('SIGSTOP');
          setTimeout(() => child.kill('SIGCONT'), 200);
        });
      }
      later(45000, () => {
        notes.push('killed 45 s after its script ended');
        child.kill('SIGKILL');
      });
    };
    later(60000, () => {
      if (!endedAt) {
        notes.push(`its script had not ended after 60 s; its threads:\n${threadsOf(child.pid)}`);
        child.kill('SIGKILL');
      }
    });
    child.stdout.on('data', (d) => {
      stdout += d;
      if (!endedAt && stdout.includes('script ended')) {
        endedAt = Date.now();
        afterEnd();
      }
    });
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status, signal) => {
      for (const t of timers) clearTimeout(t);
      const closedAt = Date.now();
      resolvePromise({ status, signal, stdout, stderr, notes, ms: closedAt - spawnedAt, exitMs: endedAt ? closedAt - endedAt : null });
    });
  });
}

for (const name of chosen) {
  const c = cases[name];
  for (let run = 1; run <= runs; run++) {
    if (Date.now() - started > budgetMs) {
      console.log(`(budget of ${values.budget} s spent: ${name} run ${run} and later not run)`);
      process.exit(0);
    }
    const r = await runOnce(c);
    const how = r.signal ? `killed by ${r.signal}` : `exit ${r.status}`;
    const exit = r.exitMs === null ? 'its script never ended' : `${r.exitMs} ms from the script's end to the process's`;
    console.log(`${name} run ${run} (${c.about}): ${how}, ${r.ms} ms in all, ${exit}`);
    for (const l of r.stdout.split('\n').filter((l) => l && l !== 'script ended')) console.log(`  ${l}`);
    if (r.status !== 0 && r.stderr) console.log(`  stderr: ${r.stderr.slice(-600)}`);
    for (const n of r.notes) console.log(`  ${n.replaceAll('\n', '\n  ')}`);
  }
}
