// The external memory / semaphore family's part of `opencl-interop info`
// (lib/report.ts): each extension of the family, advertised where and its
// entry points resolved, and the handle types each device imports and exports.
import type { Device } from '../device';
import type { Platform } from '../platform';
import { type ExternalDeviceReport, type ExternalReport, extensionReport } from '../report';
import { type ExternalHandleTypeRecord, externalExtensions, externalMemoryRecord, externalSemaphoreRecord, semaphoreRecord } from './extensions';
import { handleTypeNames, optionalUints } from './external-handles';

const handleTypeExtensions = (table: Readonly<Record<string, ExternalHandleTypeRecord>>) => [
  ...new Set(Object.values(table).map((t) => t.extension)),
];

/** The family in the order a reader meets it: memory, its handle types, semaphores, theirs. */
const familyNames: readonly string[] = [
  ...new Set([
    externalMemoryRecord.name,
    ...handleTypeExtensions(externalMemoryRecord.handleTypes),
    semaphoreRecord.name,
    externalSemaphoreRecord.name,
    ...handleTypeExtensions(externalSemaphoreRecord.handleTypes),
  ]),
];

function handleTypes(device: Device, advertised: boolean, query: number, table: Readonly<Record<string, ExternalHandleTypeRecord>>): string[] {
  return advertised
    ? handleTypeNames(
        optionalUints(() => device.info(query)),
        table,
      )
    : [];
}

function deviceReport(device: Device): ExternalDeviceReport {
  const has = (name: string) => device.extensions.includes(name) || device.platform.extensions.includes(name);
  const semaphores = has(externalSemaphoreRecord.name);
  const q = externalSemaphoreRecord.queries;
  return {
    name: device.name,
    memoryImport: handleTypes(
      device,
      has(externalMemoryRecord.name),
      externalMemoryRecord.queries.deviceImportHandleTypes,
      externalMemoryRecord.handleTypes,
    ),
    semaphoreImport: handleTypes(device, semaphores, q.deviceImportHandleTypes, externalSemaphoreRecord.handleTypes),
    semaphoreExport: handleTypes(device, semaphores, q.deviceExportHandleTypes, externalSemaphoreRecord.handleTypes),
  };
}

/** @internal The family on one platform, for the info report. */
export function externalReport(platform: Platform): ExternalReport {
  const entryPoints: Readonly<Record<string, readonly string[]>> = externalExtensions;
  return {
    extensions: familyNames.map((name) => extensionReport(platform, name, entryPoints[name] ?? [])),
    devices: platform.getDevices().map(deviceReport),
  };
}
