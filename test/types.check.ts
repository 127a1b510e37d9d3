// Compile-time checks of the public types (run by `npm run typecheck`, part of
// npm test). Each @ts-expect-error line must fail to compile; the others must compile.
import {
  type CLImage,
  type CommandQueue,
  type Context,
  type D3D10Sharing,
  type Event,
  type ExternalMemory,
  type Platform,
  type Semaphores,
  type VaApiSharing,
  getSharing,
  packArg,
} from '../lib';

declare const platform: Platform;
declare const context: Context;
declare const queue: CommandQueue;
declare const image: CLImage;

export function typed(): void {
  const va: VaApiSharing = platform.getSharing('cl_intel_va_api_media_sharing');
  const d3d10: D3D10Sharing = getSharing(platform, 'cl_khr_d3d10_sharing');
  // @ts-expect-error: the facade of one extension is not another's
  const wrong: D3D10Sharing = platform.getSharing('cl_intel_va_api_media_sharing');
  // @ts-expect-error: unknown extension names do not type-check
  platform.getSharing('cl_khr_gl_sharing');
  // One registry: getSharing gives the external memory / semaphore family's facades, typed.
  const memory: ExternalMemory = getSharing(platform, 'cl_khr_external_memory');
  const semaphores: Semaphores = getSharing(platform, 'cl_khr_semaphore');
  // @ts-expect-error: unknown extension names do not type-check here either
  getSharing(platform, 'cl_khr_gl_sharing');
  const planes: [CLImage, CLImage] = va.createFromNV12Surface(context, 7, { access: 'read' });
  // @ts-expect-error: access is one of three words
  va.createFromSurface(context, 7, 0, { access: 'rw' });
  // @ts-expect-error: native handles are bigint addresses, not numbers
  va.createContext(0x1234);
  d3d10.createFromTexture2D(context, 0x1000n, 0);
  const event: Event = queue.enqueueKernel(undefined as never, [16, 16], { localSize: [8, 8] });
  // @ts-expect-error: waitFor takes events
  queue.enqueueMarker({ waitFor: [42] });
  const bytes: Uint8Array = packArg('float4', [1, 2, 3, 4]);
  // @ts-expect-error: no such OpenCL C type
  packArg('float5', [1]);
  void [wrong, planes, event, bytes, image, memory, semaphores];
}
