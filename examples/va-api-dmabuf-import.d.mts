import type { Context, Platform, VaDisplay, VaSurface } from '../dist/index.js';
export declare const bgraToNv12Source: string;
export declare function surfaceFromTextureInfo(
  display: VaDisplay,
  textureInfo: {
    pixelFormat: string;
    codedSize: { width: number; height: number };
    handle: { nativePixmap?: { planes: { fd: number; offset: number; stride: number; size: number }[]; modifier: string } };
  },
): VaSurface;
export declare function bgraToNV12(options: { platform: Platform; context: Context; frame: VaSurface; nv12: VaSurface }): Promise<void>;
