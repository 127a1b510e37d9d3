// The sharing facades, one per (platform, extension), created lazily and
// cached (./facades.ts), and the hooks through which the core reaches them
// (lib/sharing-hooks.ts: the core never imports lib/interop/).
import type { Context } from '../context';
import { OpenCLExtensionError, registerErrorNames } from '../errors';
import type { Platform } from '../platform';
import { type SharingFacades, registerSharingHooks } from '../sharing-hooks';
import { D3D10Sharing } from './d3d10';
import { KhrD3D11Sharing, NvD3D11Sharing } from './d3d11';
import {
  type SharingExtension,
  d3d10Record,
  externalMemoryRecord,
  intelDX9Record,
  intelVaApiRecord,
  khrD3D11Record,
  khrDX9MediaRecord,
  nvD3D11Record,
  nvD3D9Record,
  externalRecords,
  semaphoreRecord,
  sharingExtensions,
  sharingRecords,
} from './extensions';
import { ExternalMemory } from './external-memory';
import { facadeOf } from './facades';
import { IntelDX9Sharing } from './intel-dx9';
import { KhrDX9MediaSharing } from './khr-dx9-media';
import { NvD3D9Sharing } from './nv-d3d9';
import { Semaphores } from './semaphore';
import { enqueueShared } from './sharing';
import { VaApiSharing } from './va-api';

// The facade class of each extension, keyed by its record's name: the seven
// classic sharing extensions (`records` of ./extensions.ts) and the external
// memory / semaphore family's two facades (`externalRecords`). The core's
// SharingFacades is derived from this table (filled in by declaration merging).
const constructors = {
  [nvD3D9Record.name]: NvD3D9Sharing,
  [d3d10Record.name]: D3D10Sharing,
  [intelDX9Record.name]: IntelDX9Sharing,
  [khrDX9MediaRecord.name]: KhrDX9MediaSharing,
  [intelVaApiRecord.name]: VaApiSharing,
  [khrD3D11Record.name]: KhrD3D11Sharing,
  [nvD3D11Record.name]: NvD3D11Sharing,
  [externalMemoryRecord.name]: ExternalMemory,
  [semaphoreRecord.name]: Semaphores,
} as const satisfies {
  readonly [K in SharingExtension | typeof externalMemoryRecord.name | typeof semaphoreRecord.name]: new (
    platform: Platform,
  ) => unknown;
};

type FacadeOf = { readonly [K in keyof typeof constructors]: InstanceType<(typeof constructors)[K]> };

declare module '../sharing-hooks' {
  interface SharingFacades extends FacadeOf {}
}
export type { SharingFacades };

/** The name of an extension that has a facade (getSharing's argument). */
type FacadeName = keyof SharingFacades & string;

/**
 * The facade of a sharing extension on a platform (the seven classic ones,
 * and cl_khr_external_memory / cl_khr_semaphore, whose facades
 * getExternalMemory() and getSemaphores() also give). Its entry points are
 * resolved for that platform on first use and cached. Throws
 * OpenCLExtensionError when the platform and its devices do not advertise
 * the extension, or some entry point does not resolve.
 */
export function getSharing<K extends FacadeName>(platform: Platform, extension: K): SharingFacades[K] {
  const create = Object.hasOwn(constructors, extension) ? (constructors[extension] as new (platform: Platform) => SharingFacades[K]) : undefined;
  if (!create) {
    throw new TypeError(`unknown sharing extension ${String(extension)}; one of ${Object.keys(constructors).join(', ')}`);
  }
  return facadeOf(platform, extension, create);
}

/** The facade of the extension a context was made for (by a facade's createContext). */
export function sharingOf(context: Context): SharingFacades[SharingExtension] {
  const extension = context.interop?.extension as SharingExtension | undefined;
  if (!extension) {
    throw new OpenCLExtensionError('(none)', context.platform.name, "this context was not created by a sharing extension's createContext");
  }
  return getSharing(context.platform, extension);
}

// Each record's error names, findable by its family, its name and each entry point.
for (const record of Object.values(sharingRecords)) {
  const scopes: string[] = [record.name, ...Object.values(record.entryPoints)];
  if ('family' in record && record.family) scopes.unshift(record.family);
  registerErrorNames(scopes, record.errorNames);
}

// The external memory / semaphore family: CL_INVALID_SEMAPHORE_KHR and the like, under each record's name and entry points.
for (const record of Object.values(externalRecords)) {
  if ('errorNames' in record) registerErrorNames([record.name, ...Object.values(record.entryPoints)], record.errorNames);
}

registerSharingHooks({
  enqueue: enqueueShared,
  facade: (platform, extension) => getSharing(platform as Platform, extension as FacadeName),
  facadeOf: sharingOf,
  entryPoints: sharingExtensions,
});
