// The five sharing extensions as data: their names and entry points.

export type SharingExtension =
  | 'cl_nv_d3d9_sharing'
  | 'cl_khr_d3d10_sharing'
  | 'cl_intel_dx9_media_sharing'
  | 'cl_khr_dx9_media_sharing'
  | 'cl_intel_va_api_media_sharing';

export const sharingExtensions: Readonly<Record<SharingExtension, readonly string[]>> = Object.freeze({
  cl_nv_d3d9_sharing: [
    'clGetDeviceIDsFromD3D9NV',
    'clCreateFromD3D9VertexBufferNV',
    'clCreateFromD3D9IndexBufferNV',
    'clCreateFromD3D9SurfaceNV',
    'clCreateFromD3D9TextureNV',
    'clCreateFromD3D9CubeTextureNV',
    'clCreateFromD3D9VolumeTextureNV',
    'clEnqueueAcquireD3D9ObjectsNV',
    'clEnqueueReleaseD3D9ObjectsNV',
  ],
  cl_khr_d3d10_sharing: [
    'clGetDeviceIDsFromD3D10KHR',
    'clCreateFromD3D10BufferKHR',
    'clCreateFromD3D10Texture2DKHR',
    'clCreateFromD3D10Texture3DKHR',
    'clEnqueueAcquireD3D10ObjectsKHR',
    'clEnqueueReleaseD3D10ObjectsKHR',
  ],
  cl_intel_dx9_media_sharing: [
    'clGetDeviceIDsFromDX9INTEL',
    'clCreateFromDX9MediaSurfaceINTEL',
    'clEnqueueAcquireDX9ObjectsINTEL',
    'clEnqueueReleaseDX9ObjectsINTEL',
  ],
  cl_khr_dx9_media_sharing: [
    'clGetDeviceIDsFromDX9MediaAdapterKHR',
    'clCreateFromDX9MediaSurfaceKHR',
    'clEnqueueAcquireDX9MediaSurfacesKHR',
    'clEnqueueReleaseDX9MediaSurfacesKHR',
  ],
  cl_intel_va_api_media_sharing: [
    'clGetDeviceIDsFromVA_APIMediaAdapterINTEL',
    'clCreateFromVA_APIMediaSurfaceINTEL',
    'clEnqueueAcquireVA_APIMediaSurfacesINTEL',
    'clEnqueueReleaseVA_APIMediaSurfacesINTEL',
  ],
});

export const sharingExtensionNames = Object.keys(sharingExtensions) as SharingExtension[];
