// The VA module's native side (native/va/), as lib/va/ sees it: displays,
// surfaces, DMA-BUF descriptions and the addon's va* functions.

/** native/va/display.cc: one VADisplay (owned: opened here; else adopted). */
export interface NativeVaDisplay {
  readonly address: bigint;
  readonly owned: boolean;
  versions(): { libva: [number, number] | null; driver?: [number, number] };
  vendor(): string | null;
  profiles(): { profile: number; name: string | null; entrypoints: { entrypoint: number; name: string | null }[] }[];
  imageFormats(): NativeVaImageFormat[];
  surfaceAttributes(
    profile: number,
    entrypoint: number,
  ): {
    pixelFormats: number[];
    memoryTypes?: number;
    minWidth?: number;
    maxWidth?: number;
    minHeight?: number;
    maxHeight?: number;
  };
  createSurfaces(rtFormat: number, fourcc: number, width: number, height: number, count: number): NativeVaSurface[];
  importSurface(rtFormat: number, memoryType: 'prime2' | 'prime', descriptor: NativeVaImport): NativeVaSurface;
  /** Another handle on the same display (a context's hold on it). */
  share(): NativeVaDisplay;
  release(): void;
}
export interface NativeVaImageFormat {
  fourcc: number;
  byteOrder: number;
  bitsPerPixel: number;
  depth: number;
  redMask: number;
  greenMask: number;
  blueMask: number;
  alphaMask: number;
}
export interface NativeVaImport {
  fourcc: number;
  drmFormat: number;
  width: number;
  height: number;
  objects: { fd: number; size: number; modifier: bigint }[];
  planes: { object: number; offset: number; pitch: number }[];
}
export interface NativeVaPrime {
  fourcc: number;
  width: number;
  height: number;
  objects: { fd: number; size: number; modifier: bigint }[];
  layers: { drmFormat: number; planes: { object: number; offset: number; pitch: number }[] }[];
}
/** native/va/surface.cc: one VASurfaceID. */
export interface NativeVaSurface {
  readonly id: number;
  destroy(): void;
  sync(): void;
  status(): number;
  transfer(
    write: boolean,
    plane: number,
    data: ArrayBufferView,
    pitch: number,
    rowBytes: number,
    rows: number,
    mode: 'auto' | 'derive' | 'image',
    fourcc: number,
    width: number,
    height: number,
  ): 'derive' | 'image' | 'none';
  exportPrime(flags: number): NativeVaPrime;
}
type NativeVaOpen = { display: NativeVaDisplay } | { step: string; message: string; status?: number };
export type NativeVaLoad =
  | { ok: true; path: string; drm: string | null; x11: string | null; optional: { library: string; error: string }[] }
  | { ok: false; attempts: { path: string; error: string }[] };

declare module '../addon' {
  interface Addon {
    // The VA module (native/va/: loader.cc, display.cc, surface.cc).
    vaLoad(candidates: { libva: string[]; drm: string[]; x11: string[]; xlib: string[] }): NativeVaLoad;
    vaLoadedLibrary(): (NativeVaLoad & { ok: true }) | null;
    vaOpenDrm(path: string): NativeVaOpen;
    vaOpenX11(name: string | null): NativeVaOpen;
    vaAdopt(address: bigint, indirect: boolean): NativeVaOpen;
    /** Why no driver may be handed the address (a display this module terminated, or is terminating: libva frees it), or null. */
    vaTerminated(address: bigint): string | null;
  }
}
