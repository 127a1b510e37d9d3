import type { D3D11Device, D3D11Texture2D, Platform } from '../lib';

export declare function nv12Platform(platforms: Platform[]): Platform | undefined;
export declare function nv12TextureToRgba(args: {
  platform: Platform;
  device: D3D11Device;
  texture: D3D11Texture2D;
  width: number;
  height: number;
  arraySlice?: number;
}): Promise<Uint8Array>;
export declare function runNV12Example(options?: {
  out?: string;
  width?: number;
  height?: number;
}): Promise<
  | { platform: Platform; correct: boolean; lines: string[]; pixels: Uint8Array }
  | { platform: undefined; correct: true; skipped: string; lines: string[]; pixels: undefined }
>;
