// The seven sharing extensions as data: one record per extension, read by its
// facade (lib/interop/<ext>.ts), by the native layer (native/<ext>.cc gets
// `entryPoints` and resolves each name by its role; no entry point name is
// written anywhere else), by the errors module (error names) and by the info
// report. Values are the tokens of ../facts/sharing-tokens.ts (facts from the specs/headers).
import type { D3D9Family } from '../errors';
import * as T from '../facts/sharing-tokens';

/** Role -> entry point name. Every record has deviceIds, acquire and release. */
export interface EntryPointNames {
  readonly deviceIds: string;
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
  readonly commandTypes: Readonly<Record<string, number>>;
  /** Device sources by the key the facade accepts ({ device }, { dxgiAdapter }, ...). */
  readonly deviceSources: Readonly<Record<string, DeviceSource>>;
  /** The two device-set tokens of the device query. */
  readonly deviceSets: { readonly preferred: number; readonly all: number };
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
  Object.fromEntries(
    Object.entries(sharingRecords).map(([name, r]) => [name, Object.freeze(Object.values(r.entryPoints) as string[])]),
  ) as Record<SharingExtension, readonly string[]>,
);

export const sharingExtensionNames = Object.keys(sharingExtensions) as SharingExtension[];
