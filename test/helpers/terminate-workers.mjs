// The worker-termination stress, shared by test/lifetimes.test.ts (PoCL),
// test/windows/core.test.mjs (Windows node.exe under Wine) and
// scripts/device-check.mjs (GPU drivers): workers loop over native calls,
// some of which throw typed errors, and are terminated in the middle.

/** Source of a worker that loops over native calls on the named platform until terminated. */
export function nativeCallLoop(packagePath, platformName) {
  return `
    const ocl = require(${JSON.stringify(packagePath)});
    const p = ocl.getPlatforms().find((p) => p.name === ${JSON.stringify(platformName)});
    const ctx = ocl.createContext({ devices: [p.getDevices()[0]] });
    const q = ctx.createQueue();
    require('node:worker_threads').parentPort.postMessage('ready');
    for (;;) {
      try { ctx.createBuffer(0); } catch {}
      q.enqueueMarker().completed.then(() => {});
    }`;
}

/** Source of a script that starts four such workers, terminates them at staggered times and prints 'terminated'. */
export function terminateWorkersScript(packagePath, platformName) {
  return `
    const { Worker } = require('node:worker_threads');
    let terminated = 0;
    for (let i = 0; i < 4; i++) {
      const w = new Worker(${JSON.stringify(nativeCallLoop(packagePath, platformName))}, { eval: true });
      w.once('message', () => setTimeout(() => w.terminate().then(() => {
        if (++terminated === 4) console.log('terminated');
      }), 5 + 10 * i));
    }`;
}
