// The seven sharing extensions as data: one record per extension, read by its
// facade (lib/interop/<ext>.ts), by the native layer (native/<ext>.cc gets
// `entryPoints` and resolves each name by its role; no entry point name is
// written anywhere else), by the errors module (error names) and by the info
// report. Values are the tokens of ../facts/sharing-tokens.ts (facts from the specs/headers).
import type { D3D9Family } from '../errors';
import * as T from '../facts/sharing-tokens';

/** Role -> entry point name. Every record has acquire and release; the sharing extensions have deviceIds too. */
export interface EntryPointNames {
  readonly acquire: string;
  readonly release: string;
  readonly [create: string]: string;
}

/** Where a device query / context starts from: the query's source token and the context property. */
export interface DeviceSource {
  readonly source: number;
  readonly contextProperty: number;
}

export interface ExtensionRecord {
  readonly name: string;
  /** In spec order; native/<ext>.cc looks each up by its role. */
  readonly entryPoints: EntryPointNames;
  /** The four status codes of the extension and their names (-1010..-1013 collide across the D3D9 family). */
  readonly errors: {
    readonly invalidDevice: number;
    readonly invalidResource: number;
    readonly alreadyAcquired: number;
    readonly notAcquired: number;
  };
  readonly errorNames: Readonly<Record<number, string>>;
  /** The D3D9 family, for the extensions whose -1010..-1013 collide. */
  readonly family?: D3D9Family;
  /** The acquire returns only once its wait list has ended on some driver: which, and so what an unset user event in it does. */
  readonly acquireWaitsOnHost?: string;
  readonly commandTypes: Readonly<Record<string, number>>;
  /** Device sources by the key the facade accepts ({ device }, { dxgiAdapter }, ...). */
  readonly deviceSources: Readonly<Record<string, DeviceSource>>;
  /** The two device-set tokens of the device query (none: cl_khr_external_memory uses ordinary contexts). */
  readonly deviceSets?: { readonly preferred: number; readonly all: number };
}

function errorsOf(names: Record<string, number>): Pick<ExtensionRecord, 'errors' | 'errorNames'> {
  const [invalidDevice, invalidResource, alreadyAcquired, notAcquired] = Object.values(names) as [number, number, number, number];
  return {
    errors: { invalidDevice, invalidResource, alreadyAcquired, notAcquired },
    errorNames: Object.fromEntries(Object.entries(names).map(([name, value]) => [value, name])),
  };
}

function record<R extends ExtensionRecord>(r: R): R {
  return Object.freeze(r);
}

export const nvD3D9Record = record({
  name: 'cl_nv_d3d9_sharing',
  entryPoints: {
    deviceIds: 'clGetDeviceIDsFromD3D9NV',
    vertexBuffer: 'clCreateFromD3D9VertexBufferNV',
    indexBuffer: 'clCreateFromD3D9IndexBufferNV',
    surface: 'clCreateFromD3D9SurfaceNV',
    texture: 'clCreateFromD3D9TextureNV',
    cubeTexture: 'clCreateFromD3D9CubeTextureNV',
    volumeTexture: 'clCreateFromD3D9VolumeTextureNV',
    acquire: 'clEnqueueAcquireD3D9ObjectsNV',
    release: 'clEnqueueReleaseD3D9ObjectsNV',
  },
  ...errorsOf({
    CL_INVALID_D3D9_DEVICE_NV: T.CL_INVALID_D3D9_DEVICE_NV,
    CL_INVALID_D3D9_RESOURCE_NV: T.CL_INVALID_D3D9_RESOURCE_NV,
    CL_D3D9_RESOURCE_ALREADY_ACQUIRED_NV: T.CL_D3D9_RESOURCE_ALREADY_ACQUIRED_NV,
    CL_D3D9_RESOURCE_NOT_ACQUIRED_NV: T.CL_D3D9_RESOURCE_NOT_ACQUIRED_NV,
  }),
  family: 'nv_d3d9',
  commandTypes: {
    CL_COMMAND_ACQUIRE_D3D9_OBJECTS_NV: T.CL_COMMAND_ACQUIRE_D3D9_OBJECTS_NV,
    CL_COMMAND_RELEASE_D3D9_OBJECTS_NV: T.CL_COMMAND_RELEASE_D3D9_OBJECTS_NV,
  },
  deviceSources: {
    device: { source: T.CL_D3D9_DEVICE_NV, contextProperty: T.CL_CONTEXT_D3D9_DEVICE_NV },
    adapterName: { source: T.CL_D3D9_ADAPTER_NAME_NV, contextProperty: T.CL_CONTEXT_D3D9_DEVICE_NV },
  },
  deviceSets: { preferred: T.CL_PREFERRED_DEVICES_FOR_D3D9_NV, all: T.CL_ALL_DEVICES_FOR_D3D9_NV },
} as const);

export const d3d10Record = record({
  name: 'cl_khr_d3d10_sharing',
  entryPoints: {
    deviceIds: 'clGetDeviceIDsFromD3D10KHR',
    buffer: 'clCreateFromD3D10BufferKHR',
    texture2D: 'clCreateFromD3D10Texture2DKHR',
    texture3D: 'clCreateFromD3D10Texture3DKHR',
    acquire: 'clEnqueueAcquireD3D10ObjectsKHR',
    release: 'clEnqueueReleaseD3D10ObjectsKHR',
  },
  ...errorsOf({
    CL_INVALID_D3D10_DEVICE_KHR: T.CL_INVALID_D3D10_DEVICE_KHR,
    CL_INVALID_D3D10_RESOURCE_KHR: T.CL_INVALID_D3D10_RESOURCE_KHR,
    CL_D3D10_RESOURCE_ALREADY_ACQUIRED_KHR: T.CL_D3D10_RESOURCE_ALREADY_ACQUIRED_KHR,
    CL_D3D10_RESOURCE_NOT_ACQUIRED_KHR: T.CL_D3D10_RESOURCE_NOT_ACQUIRED_KHR,
  }),
  commandTypes: {
    CL_COMMAND_ACQUIRE_D3D10_OBJECTS_KHR: T.CL_COMMAND_ACQUIRE_D3D10_OBJECTS_KHR,
    CL_COMMAND_RELEASE_D3D10_OBJECTS_KHR: T.CL_COMMAND_RELEASE_D3D10_OBJECTS_KHR,
  },
  deviceSources: {
    device: { source: T.CL_D3D10_DEVICE_KHR, contextProperty: T.CL_CONTEXT_D3D10_DEVICE_KHR },
    dxgiAdapter: { source: T.CL_D3D10_DXGI_ADAPTER_KHR, contextProperty: T.CL_CONTEXT_D3D10_DEVICE_KHR },
  },
  deviceSets: { preferred: T.CL_PREFERRED_DEVICES_FOR_D3D10_KHR, all: T.CL_ALL_DEVICES_FOR_D3D10_KHR },
} as const);

export const intelDX9Record = record({
  name: 'cl_intel_dx9_media_sharing',
  entryPoints: {
    deviceIds: 'clGetDeviceIDsFromDX9INTEL',
    mediaSurface: 'clCreateFromDX9MediaSurfaceINTEL',
    acquire: 'clEnqueueAcquireDX9ObjectsINTEL',
    release: 'clEnqueueReleaseDX9ObjectsINTEL',
  },
  ...errorsOf({
    CL_INVALID_DX9_DEVICE_INTEL: T.CL_INVALID_DX9_DEVICE_INTEL,
    CL_INVALID_DX9_RESOURCE_INTEL: T.CL_INVALID_DX9_RESOURCE_INTEL,
    CL_DX9_RESOURCE_ALREADY_ACQUIRED_INTEL: T.CL_DX9_RESOURCE_ALREADY_ACQUIRED_INTEL,
    CL_DX9_RESOURCE_NOT_ACQUIRED_INTEL: T.CL_DX9_RESOURCE_NOT_ACQUIRED_INTEL,
  }),
  family: 'intel_dx9',
  commandTypes: {
    CL_COMMAND_ACQUIRE_DX9_OBJECTS_INTEL: T.CL_COMMAND_ACQUIRE_DX9_OBJECTS_INTEL,
    CL_COMMAND_RELEASE_DX9_OBJECTS_INTEL: T.CL_COMMAND_RELEASE_DX9_OBJECTS_INTEL,
  },
  deviceSources: {
    d3d9Device: { source: T.CL_D3D9_DEVICE_INTEL, contextProperty: T.CL_CONTEXT_D3D9_DEVICE_INTEL },
    d3d9ExDevice: { source: T.CL_D3D9EX_DEVICE_INTEL, contextProperty: T.CL_CONTEXT_D3D9EX_DEVICE_INTEL },
    dxvaDevice: { source: T.CL_DXVA_DEVICE_INTEL, contextProperty: T.CL_CONTEXT_DXVA_DEVICE_INTEL },
  },
  deviceSets: { preferred: T.CL_PREFERRED_DEVICES_FOR_DX9_INTEL, all: T.CL_ALL_DEVICES_FOR_DX9_INTEL },
} as const);

export const khrDX9MediaRecord = record({
  name: 'cl_khr_dx9_media_sharing',
  entryPoints: {
    deviceIds: 'clGetDeviceIDsFromDX9MediaAdapterKHR',
    mediaSurface: 'clCreateFromDX9MediaSurfaceKHR',
    acquire: 'clEnqueueAcquireDX9MediaSurfacesKHR',
    release: 'clEnqueueReleaseDX9MediaSurfacesKHR',
  },
  ...errorsOf({
    CL_INVALID_DX9_MEDIA_ADAPTER_KHR: T.CL_INVALID_DX9_MEDIA_ADAPTER_KHR,
    CL_INVALID_DX9_MEDIA_SURFACE_KHR: T.CL_INVALID_DX9_MEDIA_SURFACE_KHR,
    CL_DX9_MEDIA_SURFACE_ALREADY_ACQUIRED_KHR: T.CL_DX9_MEDIA_SURFACE_ALREADY_ACQUIRED_KHR,
    CL_DX9_MEDIA_SURFACE_NOT_ACQUIRED_KHR: T.CL_DX9_MEDIA_SURFACE_NOT_ACQUIRED_KHR,
  }),
  family: 'khr_dx9_media',
  commandTypes: {
    CL_COMMAND_ACQUIRE_DX9_MEDIA_SURFACES_KHR: T.CL_COMMAND_ACQUIRE_DX9_MEDIA_SURFACES_KHR,
    CL_COMMAND_RELEASE_DX9_MEDIA_SURFACES_KHR: T.CL_COMMAND_RELEASE_DX9_MEDIA_SURFACES_KHR,
  },
  // The adapter type is the source; the query takes arrays of (type, adapter).
  deviceSources: {
    d3d9: { source: T.CL_ADAPTER_D3D9_KHR, contextProperty: T.CL_CONTEXT_ADAPTER_D3D9_KHR },
    d3d9ex: { source: T.CL_ADAPTER_D3D9EX_KHR, contextProperty: T.CL_CONTEXT_ADAPTER_D3D9EX_KHR },
    dxva: { source: T.CL_ADAPTER_DXVA_KHR, contextProperty: T.CL_CONTEXT_ADAPTER_DXVA_KHR },
  },
  deviceSets: { preferred: T.CL_PREFERRED_DEVICES_FOR_DX9_MEDIA_ADAPTER_KHR, all: T.CL_ALL_DEVICES_FOR_DX9_MEDIA_ADAPTER_KHR },
} as const);

export const intelVaApiRecord = record({
  name: 'cl_intel_va_api_media_sharing',
  entryPoints: {
    deviceIds: 'clGetDeviceIDsFromVA_APIMediaAdapterINTEL',
    surface: 'clCreateFromVA_APIMediaSurfaceINTEL',
    acquire: 'clEnqueueAcquireVA_APIMediaSurfacesINTEL',
    release: 'clEnqueueReleaseVA_APIMediaSurfacesINTEL',
  },
  ...errorsOf({
    CL_INVALID_VA_API_MEDIA_ADAPTER_INTEL: T.CL_INVALID_VA_API_MEDIA_ADAPTER_INTEL,
    CL_INVALID_VA_API_MEDIA_SURFACE_INTEL: T.CL_INVALID_VA_API_MEDIA_SURFACE_INTEL,
    CL_VA_API_MEDIA_SURFACE_ALREADY_ACQUIRED_INTEL: T.CL_VA_API_MEDIA_SURFACE_ALREADY_ACQUIRED_INTEL,
    CL_VA_API_MEDIA_SURFACE_NOT_ACQUIRED_INTEL: T.CL_VA_API_MEDIA_SURFACE_NOT_ACQUIRED_INTEL,
  }),
  commandTypes: {
    CL_COMMAND_ACQUIRE_VA_API_MEDIA_SURFACES_INTEL: T.CL_COMMAND_ACQUIRE_VA_API_MEDIA_SURFACES_INTEL,
    CL_COMMAND_RELEASE_VA_API_MEDIA_SURFACES_INTEL: T.CL_COMMAND_RELEASE_VA_API_MEDIA_SURFACES_INTEL,
  },
  deviceSources: {
    display: { source: T.CL_VA_API_DISPLAY_INTEL, contextProperty: T.CL_CONTEXT_VA_API_DISPLAY_INTEL },
  },
  deviceSets: { preferred: T.CL_PREFERRED_DEVICES_FOR_VA_API_INTEL, all: T.CL_ALL_DEVICES_FOR_VA_API_INTEL },
} as const);

/** The D3D11 records add their memory / image / context queries (NV defines no prefer-shared query). */
export interface D3D11Queries {
  readonly resource: number;
  readonly subresource: number;
  readonly preferSharedResources: number | undefined;
}

export const khrD3D11Record = record({
  name: 'cl_khr_d3d11_sharing',
  entryPoints: {
    deviceIds: 'clGetDeviceIDsFromD3D11KHR',
    buffer: 'clCreateFromD3D11BufferKHR',
    texture2D: 'clCreateFromD3D11Texture2DKHR',
    texture3D: 'clCreateFromD3D11Texture3DKHR',
    acquire: 'clEnqueueAcquireD3D11ObjectsKHR',
    release: 'clEnqueueReleaseD3D11ObjectsKHR',
  },
  ...errorsOf({
    CL_INVALID_D3D11_DEVICE_KHR: T.CL_INVALID_D3D11_DEVICE_KHR,
    CL_INVALID_D3D11_RESOURCE_KHR: T.CL_INVALID_D3D11_RESOURCE_KHR,
    CL_D3D11_RESOURCE_ALREADY_ACQUIRED_KHR: T.CL_D3D11_RESOURCE_ALREADY_ACQUIRED_KHR,
    CL_D3D11_RESOURCE_NOT_ACQUIRED_KHR: T.CL_D3D11_RESOURCE_NOT_ACQUIRED_KHR,
  }),
  commandTypes: {
    CL_COMMAND_ACQUIRE_D3D11_OBJECTS_KHR: T.CL_COMMAND_ACQUIRE_D3D11_OBJECTS_KHR,
    CL_COMMAND_RELEASE_D3D11_OBJECTS_KHR: T.CL_COMMAND_RELEASE_D3D11_OBJECTS_KHR,
  },
  deviceSources: {
    device: { source: T.CL_D3D11_DEVICE_KHR, contextProperty: T.CL_CONTEXT_D3D11_DEVICE_KHR },
    dxgiAdapter: { source: T.CL_D3D11_DXGI_ADAPTER_KHR, contextProperty: T.CL_CONTEXT_D3D11_DEVICE_KHR },
  },
  deviceSets: { preferred: T.CL_PREFERRED_DEVICES_FOR_D3D11_KHR, all: T.CL_ALL_DEVICES_FOR_D3D11_KHR },
  queries: {
    resource: T.CL_MEM_D3D11_RESOURCE_KHR,
    subresource: T.CL_IMAGE_D3D11_SUBRESOURCE_KHR,
    preferSharedResources: T.CL_CONTEXT_D3D11_PREFER_SHARED_RESOURCES_KHR,
  },
} as const);

// cl_nv_d3d11_sharing: names and values of OpenCV's cl_d3d11_ext.h (see ../facts/sharing-tokens.ts).
export const nvD3D11Record = record({
  name: 'cl_nv_d3d11_sharing',
  entryPoints: {
    deviceIds: 'clGetDeviceIDsFromD3D11NV',
    buffer: 'clCreateFromD3D11BufferNV',
    texture2D: 'clCreateFromD3D11Texture2DNV',
    texture3D: 'clCreateFromD3D11Texture3DNV',
    acquire: 'clEnqueueAcquireD3D11ObjectsNV',
    release: 'clEnqueueReleaseD3D11ObjectsNV',
  },
  ...errorsOf({
    CL_INVALID_D3D11_DEVICE_NV: T.CL_INVALID_D3D11_DEVICE_NV,
    CL_INVALID_D3D11_RESOURCE_NV: T.CL_INVALID_D3D11_RESOURCE_NV,
    CL_D3D11_RESOURCE_ALREADY_ACQUIRED_NV: T.CL_D3D11_RESOURCE_ALREADY_ACQUIRED_NV,
    CL_D3D11_RESOURCE_NOT_ACQUIRED_NV: T.CL_D3D11_RESOURCE_NOT_ACQUIRED_NV,
  }),
  commandTypes: {
    CL_COMMAND_ACQUIRE_D3D11_OBJECTS_NV: T.CL_COMMAND_ACQUIRE_D3D11_OBJECTS_NV,
    CL_COMMAND_RELEASE_D3D11_OBJECTS_NV: T.CL_COMMAND_RELEASE_D3D11_OBJECTS_NV,
  },
  deviceSources: {
    device: { source: T.CL_D3D11_DEVICE_NV, contextProperty: T.CL_CONTEXT_D3D11_DEVICE_NV },
    dxgiAdapter: { source: T.CL_D3D11_DXGI_ADAPTER_NV, contextProperty: T.CL_CONTEXT_D3D11_DEVICE_NV },
  },
  deviceSets: { preferred: T.CL_PREFERRED_DEVICES_FOR_D3D11_NV, all: T.CL_ALL_DEVICES_FOR_D3D11_NV },
  queries: {
    resource: T.CL_MEM_D3D11_RESOURCE_NV,
    subresource: T.CL_IMAGE_D3D11_SUBRESOURCE_NV,
    preferSharedResources: undefined,
  },
} as const);

/**
 * The bound extensions: this list of records, in the order the report and the
 * docs list them, is the one place they are listed. Everything else (the
 * name -> record table, the entry point table, the facade classes of
 * lib/interop/index.ts, SharingFacades) is derived from it.
 */
const records = [nvD3D9Record, d3d10Record, intelDX9Record, khrDX9MediaRecord, intelVaApiRecord, khrD3D11Record, nvD3D11Record] as const;

type RecordsByName = { readonly [R in (typeof records)[number] as R['name']]: R };

/** Extension name -> its record. */
export const sharingRecords: RecordsByName = Object.freeze(Object.fromEntries(records.map((r) => [r.name, r])) as unknown as RecordsByName);

export type SharingExtension = keyof typeof sharingRecords;

/** Extension -> its entry point names, in spec order. */
export const sharingExtensions: Readonly<Record<SharingExtension, readonly string[]>> = Object.freeze(
  Object.fromEntries(Object.entries(sharingRecords).map(([name, r]) => [name, Object.freeze(Object.values(r.entryPoints) as string[])])) as Record<
    SharingExtension,
    readonly string[]
  >,
);

export const sharingExtensionNames = Object.keys(sharingExtensions) as SharingExtension[];

// ---- The Khronos external memory and semaphore family. Ordinary contexts,
// no device query: memory and semaphores are imported from handles another
// API exported. Handle types are listed with the extension that defines them.

/**
 * What a successful import does with the handle (the spec's "Descriptions of
 * External Memory / Semaphore Handle Types"): file descriptors are
 * transferred to the OpenCL implementation; Windows handles are not (NT
 * handles stay the caller's to CloseHandle; a KMT handle holds no reference).
 */
export type HandleOwnership = 'transferred' | 'kept';

export interface ExternalHandleTypeRecord {
  readonly token: number;
  /** The extension that defines the handle type. */
  readonly extension: string;
  /** fd: a POSIX file descriptor (number); nt / kmt: a Windows HANDLE (bigint); name: a UTF-16 object name (string). */
  readonly handle: 'fd' | 'nt' | 'kmt' | 'name';
  readonly ownership: HandleOwnership;
}

function frozen<R extends object>(r: R): R {
  return Object.freeze(r);
}

/** What NVIDIA's (580) external-memory acquire and semaphore wait and signal do with their wait list. */
export const onlyAfterWaitList = "on NVIDIA's driver it returns only once its wait list has ended";

export const externalMemoryRecord = frozen({
  name: 'cl_khr_external_memory',
  entryPoints: {
    acquire: 'clEnqueueAcquireExternalMemObjectsKHR',
    release: 'clEnqueueReleaseExternalMemObjectsKHR',
  },
  /** Core in OpenCL 3.0: asked of the platform first, else the loader's export on a 3.0 platform. */
  creatingCalls: { buffer: 'clCreateBufferWithProperties', image: 'clCreateImageWithProperties' },
  // The spec has no codes of its own: a second acquire is implementation-defined and use without acquire is
  // undefined behaviour, so the binding refuses both before the driver, as CL_INVALID_OPERATION.
  errors: { invalidDevice: -33, invalidResource: -38, alreadyAcquired: -59, notAcquired: -59 },
  errorNames: { [-33]: 'CL_INVALID_DEVICE', [-38]: 'CL_INVALID_MEM_OBJECT', [-59]: 'CL_INVALID_OPERATION' },
  // NVIDIA's (580) returns only once its wait list has ended (test/gpu/gated-enqueues.test.mjs): behind a user
  // event that only the calling thread can set, it never returns. Refused on every driver, so that a script that
  // passes here does not hang there; the reference driver shows it with REFDRV_GATED_INTEROP=block.
  acquireWaitsOnHost: onlyAfterWaitList,
  commandTypes: {
    CL_COMMAND_ACQUIRE_EXTERNAL_MEM_OBJECTS_KHR: T.externalTokens.CL_COMMAND_ACQUIRE_EXTERNAL_MEM_OBJECTS_KHR,
    CL_COMMAND_RELEASE_EXTERNAL_MEM_OBJECTS_KHR: T.externalTokens.CL_COMMAND_RELEASE_EXTERNAL_MEM_OBJECTS_KHR,
  },
  deviceSources: {},
  handleTypes: {
    'opaque-fd': {
      token: T.externalTokens.CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR,
      extension: 'cl_khr_external_memory_opaque_fd',
      handle: 'fd',
      ownership: 'transferred',
    },
    'dma-buf': {
      token: T.externalTokens.CL_EXTERNAL_MEMORY_HANDLE_DMA_BUF_KHR,
      extension: 'cl_khr_external_memory_dma_buf',
      handle: 'fd',
      ownership: 'transferred',
    },
    'opaque-win32': {
      token: T.externalTokens.CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_WIN32_KHR,
      extension: 'cl_khr_external_memory_win32',
      handle: 'nt',
      ownership: 'kept',
    },
    'opaque-win32-kmt': {
      token: T.externalTokens.CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_WIN32_KMT_KHR,
      extension: 'cl_khr_external_memory_win32',
      handle: 'kmt',
      ownership: 'kept',
    },
    'opaque-win32-name': {
      token: T.externalTokens.CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_WIN32_NAME_KHR,
      extension: 'cl_khr_external_memory_win32',
      handle: 'name',
      ownership: 'kept',
    },
  },
  queries: {
    platformImportHandleTypes: T.externalTokens.CL_PLATFORM_EXTERNAL_MEMORY_IMPORT_HANDLE_TYPES_KHR,
    deviceImportHandleTypes: T.externalTokens.CL_DEVICE_EXTERNAL_MEMORY_IMPORT_HANDLE_TYPES_KHR,
    deviceAssumeLinearImageHandleTypes: T.externalTokens.CL_DEVICE_EXTERNAL_MEMORY_IMPORT_ASSUME_LINEAR_IMAGES_HANDLE_TYPES_KHR,
  },
  properties: { deviceHandleList: T.externalTokens.CL_MEM_DEVICE_HANDLE_LIST_KHR },
} as const);

export const semaphoreRecord = frozen({
  name: 'cl_khr_semaphore',
  entryPoints: {
    create: 'clCreateSemaphoreWithPropertiesKHR',
    wait: 'clEnqueueWaitSemaphoresKHR',
    signal: 'clEnqueueSignalSemaphoresKHR',
    info: 'clGetSemaphoreInfoKHR',
    release: 'clReleaseSemaphoreKHR',
    retain: 'clRetainSemaphoreKHR',
  },
  errorNames: { [T.externalTokens.CL_INVALID_SEMAPHORE_KHR]: 'CL_INVALID_SEMAPHORE_KHR' },
  commandTypes: {
    CL_COMMAND_SEMAPHORE_WAIT_KHR: T.externalTokens.CL_COMMAND_SEMAPHORE_WAIT_KHR,
    CL_COMMAND_SEMAPHORE_SIGNAL_KHR: T.externalTokens.CL_COMMAND_SEMAPHORE_SIGNAL_KHR,
  },
  types: { binary: T.externalTokens.CL_SEMAPHORE_TYPE_BINARY_KHR },
  queries: {
    platformTypes: T.externalTokens.CL_PLATFORM_SEMAPHORE_TYPES_KHR,
    deviceTypes: T.externalTokens.CL_DEVICE_SEMAPHORE_TYPES_KHR,
    context: T.externalTokens.CL_SEMAPHORE_CONTEXT_KHR,
    referenceCount: T.externalTokens.CL_SEMAPHORE_REFERENCE_COUNT_KHR,
    properties: T.externalTokens.CL_SEMAPHORE_PROPERTIES_KHR,
    payload: T.externalTokens.CL_SEMAPHORE_PAYLOAD_KHR,
    type: T.externalTokens.CL_SEMAPHORE_TYPE_KHR,
    devices: T.externalTokens.CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR,
  },
  properties: {
    type: T.externalTokens.CL_SEMAPHORE_TYPE_KHR,
    deviceHandleList: T.externalTokens.CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR,
  },
} as const);

export const externalSemaphoreRecord = frozen({
  name: 'cl_khr_external_semaphore',
  entryPoints: { exportHandle: 'clGetSemaphoreHandleForTypeKHR' },
  handleTypes: {
    'opaque-fd': {
      token: T.externalTokens.CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR,
      extension: 'cl_khr_external_semaphore_opaque_fd',
      handle: 'fd',
      ownership: 'transferred',
    },
    'sync-fd': {
      token: T.externalTokens.CL_SEMAPHORE_HANDLE_SYNC_FD_KHR,
      extension: 'cl_khr_external_semaphore_sync_fd',
      handle: 'fd',
      ownership: 'transferred',
    },
    'opaque-win32': {
      token: T.externalTokens.CL_SEMAPHORE_HANDLE_OPAQUE_WIN32_KHR,
      extension: 'cl_khr_external_semaphore_win32',
      handle: 'nt',
      ownership: 'kept',
    },
    'opaque-win32-kmt': {
      token: T.externalTokens.CL_SEMAPHORE_HANDLE_OPAQUE_WIN32_KMT_KHR,
      extension: 'cl_khr_external_semaphore_win32',
      handle: 'kmt',
      ownership: 'kept',
    },
    'opaque-win32-name': {
      token: T.externalTokens.CL_SEMAPHORE_HANDLE_OPAQUE_WIN32_NAME_KHR,
      extension: 'cl_khr_external_semaphore_win32',
      handle: 'name',
      ownership: 'kept',
    },
  },
  queries: {
    platformImportHandleTypes: T.externalTokens.CL_PLATFORM_SEMAPHORE_IMPORT_HANDLE_TYPES_KHR,
    platformExportHandleTypes: T.externalTokens.CL_PLATFORM_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR,
    deviceImportHandleTypes: T.externalTokens.CL_DEVICE_SEMAPHORE_IMPORT_HANDLE_TYPES_KHR,
    deviceExportHandleTypes: T.externalTokens.CL_DEVICE_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR,
    exportHandleTypes: T.externalTokens.CL_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR,
    exportable: T.externalTokens.CL_SEMAPHORE_EXPORTABLE_KHR,
  },
  properties: { exportHandleTypes: T.externalTokens.CL_SEMAPHORE_EXPORT_HANDLE_TYPES_KHR },
} as const);

export const externalSemaphoreSyncFdRecord = frozen({
  name: 'cl_khr_external_semaphore_sync_fd',
  entryPoints: { reimportSyncFd: 'clReImportSemaphoreSyncFdKHR' },
} as const);

/** The family's records: the extensions with entry points (the handle-type extensions are listed in their handleTypes). */
export const externalRecords = Object.freeze({
  cl_khr_external_memory: externalMemoryRecord,
  cl_khr_semaphore: semaphoreRecord,
  cl_khr_external_semaphore: externalSemaphoreRecord,
  cl_khr_external_semaphore_sync_fd: externalSemaphoreSyncFdRecord,
});

export type ExternalExtension = keyof typeof externalRecords;

/** Extension -> its entry point names (the creating calls of cl_khr_external_memory are core 3.0 and not listed). */
export const externalExtensions: Readonly<Record<ExternalExtension, readonly string[]>> = Object.freeze(
  Object.fromEntries(Object.entries(externalRecords).map(([name, r]) => [name, Object.freeze(Object.values(r.entryPoints) as string[])])) as Record<
    ExternalExtension,
    readonly string[]
  >,
);
