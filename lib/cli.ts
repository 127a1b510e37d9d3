#!/usr/bin/env node
// npx opencl-interop info [--json] [--library PATH]
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
    else if (arg === '--library' && args.length) library = args.shift();
    else {
      console.error(`Unknown option: ${arg}\n\n${usage}`);
      return 2;
    }
  }
  // Registry files the ICD loader skips (or would crash on: loadOpenCL refuses those), named here.
  const registry = icdRegistryProblems();
  if (!json) for (const p of registry.filter((p) => !p.crashes)) console.error(`warning: ICD registry file ${p.file} ${p.problem}`);
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

process.exitCode = main(process.argv.slice(2));
