#!/usr/bin/env node
// npx opencl-interop info [--json] [--library PATH]
import { mkdtempSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { OpenCLNotAvailableError } from './errors';
import './interop'; // registers the sharing extensions the report lists
import { externalReport } from './interop/external-report';
import { icdRegistryProblems, loadOpenCL } from './loader';
import { formatReport, systemReport } from './report';
import { videoReport } from './video/report';
import { vulkanReport } from './vulkan/report';

const usage = `Usage: opencl-interop info [--json] [--library PATH]

  info        list OpenCL platforms and devices (with their UUIDs); for
              each of the seven sharing extensions and of the external
              memory / semaphore family whether it is advertised and how
              many of its entry points resolve, and the handle types each
              device imports and exports; and whether Vulkan is available:
              its loader, its physical devices, and which of them match an
              OpenCL device by UUID ($OPENCL_INTEROP_VULKAN_LOADER names
              another Vulkan loader)
  --json      print the same as JSON
  --library   load this OpenCL library (ICD loader or driver) instead of the
              system's; $OPENCL_INTEROP_LIBRARY does the same`;

function main(argv: string[]): number {
  const args = [...argv];
  const command = args.shift();
  if (command === '--help' || command === '-h' || command === 'help') {
    console.log(usage);
    return 0;
  }
  if (command !== 'info') {
    console.error(command ? `Unknown command: ${command}\n\n${usage}` : usage);
    return 2;
  }
  let json = false;
  let library: string | undefined;
  while (args.length) {
    const arg = args.shift()!;
    if (arg === '--json') json = true;
    else if (arg === '--library') {
      const path = args.shift();
      if (path === undefined || path === '' || path.startsWith('--')) {
        console.error(`--library needs the path of an OpenCL library (an ICD loader or a driver)${path ? `; got ${path}` : ''}\n\n${usage}`);
        return 2;
      }
      library = path;
    } else {
      console.error(`Unknown option: ${arg}\n\n${usage}`);
      return 2;
    }
  }
  // Registry files the ICD loader skips, named here; those it would crash on (loadOpenCL refuses them) are left out.
  const registry = icdRegistryProblems();
  const fatal = registry.filter((p) => p.crashes);
  if (fatal.length && !library) leaveOut(fatal.map((p) => p.file));
  if (!json) {
    for (const p of registry) {
      console.error(`warning: ICD registry file ${p.file} ${p.problem}${p.crashes && !library ? ': skipped (the ICD loader crashes on it)' : ''}`);
    }
  }
  try {
    loadOpenCL(library ? { library } : {});
    const report = systemReport({ external: externalReport, vulkan: (platforms) => videoReport(vulkanReport(platforms)) });
    console.log(json ? JSON.stringify(registry.length ? { ...report, registryProblems: registry } : report, null, 2) : formatReport(report));
    return 0;
  } catch (error) {
    if (json) console.log(JSON.stringify({ error: { name: (error as Error).name, message: (error as Error).message } }, null, 2));
    else console.error((error as Error).message);
    return error instanceof OpenCLNotAvailableError ? 3 : 1;
  }
}

/**
 * Points the ICD loader at a folder of the registry's other files (links to them), for this process: ocl-icd reads
 * OCL_ICD_VENDORS (else /etc/OpenCL/vendors) at the first platform query, and crashes on a file that starts with a
 * NUL byte whatever OCL_ICD_FILENAMES says.
 */
function leaveOut(files: readonly string[]): void {
  const named = process.env.OCL_ICD_VENDORS;
  let folder = '/etc/OpenCL/vendors';
  if (named) {
    try {
      folder = statSync(named).isDirectory() ? named : '';
    } catch {
      folder = '';
    }
  }
  const kept = folder ? readdirSync(folder).filter((name) => name.endsWith('.icd') && !files.includes(join(folder, name))) : [];
  const replacement = mkdtempSync(join(tmpdir(), 'opencl-interop-icd-'));
  for (const name of kept) symlinkSync(join(folder, name), join(replacement, basename(name)));
  process.env.OCL_ICD_VENDORS = replacement;
  process.once('exit', () => rmSync(replacement, { recursive: true, force: true }));
}

process.exitCode = main(process.argv.slice(2));
