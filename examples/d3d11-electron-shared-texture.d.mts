import type { D3D11Device, D3D11Sharing, D3D11Texture2D, Device, ImageFormat, Platform, SharedHandle } from '../lib';

export declare function d3d11SharingOf(platform: Platform): D3D11Sharing | undefined;
export declare function d3d11Platform(platforms: Platform[]): Platform | undefined;
export declare function invertTexture(args: {
  platform: Platform;
  device: D3D11Device;
  texture: D3D11Texture2D;
}): Promise<{ extension: string; format: ImageFormat; width: number; height: number }>;
export declare function processSharedTexture(args: {
  platform: Platform;
  handle: Uint8Array | bigint | SharedHandle;
  openclDevice?: Device;
}): Promise<{ extension: string; format: ImageFormat; width: number; height: number }>;
export declare function testPattern(width: number, height: number): Uint8Array;
export declare function runElectronExample(options?: {
  width?: number;
  height?: number;
}): Promise<{ platform: Platform; inverted: boolean; lines: string[]; path: string }>;
