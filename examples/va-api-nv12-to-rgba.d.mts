import type { Platform, VaSurface, Context } from '../dist/index.js';
export declare const nv12ToRgbaSource: string;
export declare function nv12ToRgba(options: { platform: Platform; surface: VaSurface; context?: Context }): Promise<Uint8Array>;
export declare function colorBarsNV12(width: number, height: number): { luma: Uint8Array; chroma: Uint8Array };
