// A consumer's view: compiled against the published declarations (dist/*.d.ts)
// with skipLibCheck off, so every declaration file the package ships must
// stand on its own.
import {
  CL_CONTEXT_VA_API_DISPLAY_INTEL,
  OpenCLError,
  allocateHostMemory,
  createContext,
  getPlatforms,
  predictSharedImage,
  openVaDisplay,
  VaDisplay,
  VaError,
  type CLImage,
  type VaApiSharing,
  type VaDmaBuf,
  type VaSurface,
  createD3D11Device,
  Direct3DError,
  type D3D11Texture2D,
  type SharedHandle,
  createVulkanInstance,
  formatUuid,
  uuidString,
  type VulkanDevice,
} from 'opencl-interop';

export function consumer(): void {
  const platform = getPlatforms()[0]!;
  const va: VaApiSharing = platform.getSharing('cl_intel_va_api_media_sharing');
  const context = createContext({ platform });
  const queue = context.createQueue();
  const image: CLImage = va.createFromSurface(context, 1, 0, { access: 'read' });
  queue.acquire([image]).release();
  const property: number = CL_CONTEXT_VA_API_DISPLAY_INTEL;
  const error: OpenCLError = new OpenCLError(-30, 'clCreateBuffer');
  predictSharedImage({ extension: 'cl_intel_va_api_media_sharing', width: 2, height: 2, plane: 0 });
  void (async () => {
    await using scope = queue.acquire([image]);
    const host = allocateHostMemory(64);
    await queue.readBuffer(context.createBuffer(64), host);
    await queue.writeBuffer(context.createBuffer(64), new Uint8Array(new SharedArrayBuffer(64)));
    void scope.event.commandTypeName;
  })();
  // The VA module: displays and surfaces go to the facade as they are.
  using display = openVaDisplay({ kind: 'x11' });
  const surface: VaSurface = display.createSurface({ width: 16, height: 16, format: 'NV12' });
  const [y, uv]: [CLImage, CLImage] = va.createFromNV12Surface(va.createContext(display), surface);
  surface.writePlane(0, new Uint8Array(256));
  const exported: VaDmaBuf = surface.exportDmaBuf({ layers: 'separate' });
  display.importDmaBuf({ format: 'BGRA', width: 4, height: 4, planes: [{ fd: exported.objects[0]!.fd, pitch: 16 }] });
  void [y, uv, VaDisplay.adopt(1n, { from: 'AVVAAPIDeviceContext' }), new VaError(6, 'vaSyncSurface').code];
  // @ts-expect-error: a VA surface is not a display
  va.createContext(surface);
  // @ts-expect-error: internal members are not in the published declarations
  void display.hold;
  // @ts-expect-error: internal members are not in the published declarations
  void context.addon;
  void [property, error];
}

// The Direct3D module: objects go to the facades as they are.
export function direct3d(): void {
  const platform = getPlatforms()[0]!;
  const d3d11 = platform.getSharing('cl_khr_d3d11_sharing');
  using device = createD3D11Device({ openclDevice: platform.getDevices()[0]! });
  const texture: D3D11Texture2D = device.createTexture2D({ width: 16, height: 16, format: 'DXGI_FORMAT_NV12', shared: 'nt' });
  const handle: SharedHandle = texture.createSharedHandle();
  const opened = device.openSharedResource(handle.toBytes());
  const context = d3d11.createContext(device);
  const { y, uv } = d3d11.createFromNV12Texture(context, texture);
  const bytes: Uint8Array = texture.read({ plane: 1 });
  void [y, uv, bytes, opened.comPointer, new Direct3DError(0x80004001, 'call').code];
}

// The Vulkan module: an object's device is the full VulkanDevice; one UUID formatter under two names.
export function vulkan(): void {
  using instance = createVulkanInstance();
  const clDevice = getPlatforms()[0]!.getDevices()[0]!;
  using device = instance.createDevice({ uuid: clDevice.uuidBytes! });
  const buffer = device.createBuffer({ size: 64 });
  const owner: VulkanDevice = buffer.device;
  const commands = owner.record((r) => r.fill(buffer, 0));
  void commands.device.queue.submit(commands, { signal: [owner.createSemaphore()] });
  const uuid: string = uuidString(device.physicalDevice.deviceUUID);
  const same: string = formatUuid(device.physicalDevice.deviceUUID);
  void [uuid === same, clDevice.uuid === uuid];
  // @ts-expect-error: internal members are not in the published declarations
  void buffer.native;
}
