// How the examples find OpenCL: the system's ICD loader with every installed
// driver plus the repository's reference driver, or, when no OpenCL is
// installed at all, the reference driver loaded by path. Real drivers are
// always preferred; the reference driver stands in for missing hardware.
import { existsSync, mkdtempSync, readdirSync, copyFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ocl from '../../dist/index.js';
import { referenceDriverPath } from './test-equipment.mjs';

export const REFERENCE_PLATFORM = 'opencl-interop reference driver';

/** A vendors folder with the system's .icd files plus the reference driver (ocl-icd reads OCL_ICD_VENDORS). */
function vendorsWithReference() {
  const dir = mkdtempSync(join(tmpdir(), 'opencl-interop-vendors-'));
  const system = '/etc/OpenCL/vendors';
  if (existsSync(system)) {
    for (const name of readdirSync(system).filter((n) => n.endsWith('.icd'))) copyFileSync(join(system, name), join(dir, name));
  }
  writeFileSync(join(dir, 'opencl-interop-reference.icd'), `${referenceDriverPath}\n`);
  return dir;
}

/**
 * Loads OpenCL for an example and returns { platforms, source }: source says
 * what was loaded, in words, for the example to print.
 */
export function openOpenCL() {
  const haveReference = existsSync(referenceDriverPath);
  if (haveReference && process.platform === 'linux' && !process.env.OCL_ICD_VENDORS && !process.env.OPENCL_INTEROP_LIBRARY) {
    process.env.OCL_ICD_VENDORS = vendorsWithReference();
  }
  try {
    const loaded = ocl.loadOpenCL();
    return { platforms: ocl.getPlatforms(), source: `the system's OpenCL (${loaded.path})` };
  } catch (error) {
    if (!(error instanceof ocl.OpenCLNotAvailableError) || !haveReference) throw error;
    ocl.loadOpenCL({ library: referenceDriverPath });
    const tried = error.attempts.map((a) => a.path).join(', ');
    return {
      platforms: ocl.getPlatforms(),
      source: `no OpenCL library could be loaded (tried ${tried}), so the reference driver was loaded by path (${referenceDriverPath})`,
    };
  }
}

/** The best platform for an extension: a real driver first, the reference driver otherwise. */
export function platformFor(platforms, extension) {
  const supporting = platforms.filter((p) => p.supports(extension));
  return supporting.find((p) => p.name !== REFERENCE_PLATFORM) ?? supporting[0];
}

export const isReference = (platform) => platform.name === REFERENCE_PLATFORM;

/**
 * Releases (OpenCL objects) or disposes (Direct3D objects, shared handles), in
 * reverse order, every object passed to `own` inside `fn`, even when fn throws
 * (the plain-JavaScript form of `using`, which Node 20 cannot parse).
 */
export async function withOwned(fn) {
  const owned = [];
  const own = (object) => (owned.push(object), object);
  try {
    return await fn(own);
  } finally {
    for (const object of owned.reverse()) {
      if (typeof object.release === 'function') object.release();
      else object.dispose();
    }
  }
}
