// The Direct3D module (Windows): Direct3D 11, 10.1 and 9Ex devices and their
// resources as real COM objects, made, opened from shared handles, read and
// written from JavaScript, and taken by the sharing facades as they are. On
// other systems it imports, and each function throws Direct3DUnavailableError.
export { listAdapters, openclDeviceLuid, type AdapterChoice, type AdapterInfo } from './adapters';
export {
  createD3D11Device,
  D3D11Buffer,
  D3D11Device,
  D3D11Resource,
  D3D11Texture2D,
  D3D11Texture3D,
  type D3D11Bind,
  type D3D11BufferOptions,
  type D3D11DeviceOptions,
  type D3D11Share,
  type D3D11Texture2DOptions,
  type D3D11Texture3DOptions,
  type D3DFeatureLevel,
} from './d3d11';
export {
  createD3D10Device,
  D3D10Buffer,
  D3D10Device,
  D3D10Resource,
  D3D10Texture2D,
  D3D10Texture3D,
  type D3D10Bind,
  type D3D10BufferOptions,
  type D3D10DeviceOptions,
  type D3D10Share,
  type D3D10Texture2DOptions,
  type D3D10Texture3DOptions,
} from './d3d10';
export {
  createD3D9Device,
  listD3D9Adapters,
  D3D9CubeTexture,
  D3D9Device,
  D3D9DeviceManager,
  D3D9IndexBuffer,
  D3D9Resource,
  D3D9Surface,
  D3D9Texture,
  D3D9VertexBuffer,
  D3D9VolumeTexture,
  type D3D9AdapterInfo,
  type D3D9BufferOptions,
  type D3D9CubeOptions,
  type D3D9CubeTextureOptions,
  type D3D9Description,
  type D3D9IndexBufferOptions,
  type D3D9LevelOptions,
  type D3D9PlaneOptions,
  type D3D9Pool,
  type D3D9RenderTargetOptions,
  type D3D9Share,
  type D3D9SurfaceOptions,
  type D3D9TextureOptions,
  type D3D9Usage,
  type D3D9VolumeTextureOptions,
} from './d3d9';
export {
  DxgiDevice,
  DxgiResource,
  type CpuAccess,
  type DxgiResourceDescription,
  type DxgiUsage,
  type SubresourceOptions,
} from './dxgi';
export { Direct3DError, Direct3DFeatureError, Direct3DUnavailableError, HRESULT_NAMES, hresultName } from './errors';
export { d3d9FormatLabel, dxgiFormatLabel, type D3D9FormatInput, type DxgiFormatInput } from './texture-formats';
export { Direct3DObject, DxgiAdapter, SharedHandle, type SharedHandleInput } from './object';
