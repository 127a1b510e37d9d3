// What the sharing extensions have in common (missing extension, regions, access), on the reference driver (test/driver).
// Test names cite the spec section they check (shared/specs/; the D3D10 and
// KHR DX9 media sections are those of the OpenCL 1.2 extension spec, 9.9 and
// 9.10, as the driver's own ctests name them).
import { describe, expect, it } from 'vitest';
import { OpenCLExtensionError, type SharingExtension, getSharing } from '../lib';
import { pocl } from './helpers';
import { ref, platform, refDevice } from './helpers/ref-driver';

describe('the sharing extensions on a platform without them (PoCL)', () => {
  it.each(['cl_nv_d3d9_sharing', 'cl_khr_d3d10_sharing', 'cl_intel_dx9_media_sharing', 'cl_khr_dx9_media_sharing'] as SharingExtension[])(
    'getSharing(pocl, %s) throws OpenCLExtensionError naming the extension and the platform',
    (extension) => {
      const p = pocl();
      let caught: unknown;
      try {
        getSharing(p, extension);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(OpenCLExtensionError);
      const error = caught as OpenCLExtensionError;
      expect(error.extension).toBe(extension);
      expect(error.platform).toBe('Portable Computing Language');
      expect(error.message).toContain(extension);
      expect(error.message).toContain('"Portable Computing Language"');
      expect(() => p.getSharing(extension)).toThrow(OpenCLExtensionError);
      // The reference driver has it: the same call succeeds there.
      expect(getSharing(platform, extension).name).toBe(extension);
    },
  );
});

describe('regions and arguments of shared objects', () => {
  it('a sub-buffer of a shared buffer may be used only while the buffer is acquired (9.9.x: objects must be acquired before use)', async () => {
    const d3d10 = getSharing(platform, 'cl_khr_d3d10_sharing');
    const device = ref.d3d10CreateDevice();
    const resource = ref.d3d10CreateBuffer(device, 256, 0);
    ref.write(
      resource,
      0,
      0,
      Uint8Array.from({ length: 256 }, (_, i) => i),
    );
    const context = d3d10.createContext(device);
    const queue = context.createQueue();
    const buffer = d3d10.createFromBuffer(context, resource);
    const align = refDevice.memBaseAddrAlign / 8;
    const region = buffer.createSubBuffer(align, 16, { access: 'read' });
    expect(region.sharedWith).toBe('cl_khr_d3d10_sharing');
    const out = new Uint8Array(16);
    expect(() => queue.readBuffer(region, out, { blocking: true })).toThrow(
      expect.objectContaining({ code: 'CL_D3D10_RESOURCE_NOT_ACQUIRED_KHR', call: 'clEnqueueReadBuffer' }),
    );
    expect(() => queue.acquire([region])).toThrow(
      /^objects\[0\] is a sub-buffer of .*: it is acquired and released through the memory it was made from/,
    );
    await queue.withAcquired([buffer], async () => {
      await queue.readBuffer(region, out).completed;
    });
    expect([...out]).toEqual(Array.from({ length: 16 }, (_, i) => (align + i) & 0xff));
    region.release(); // a region is never acquired itself
    buffer.release();
    queue.release();
    context.release();
    ref.release(resource);
    ref.release(device);
  });

  it('access must be one of the three modes: null, numbers and other strings are TypeErrors', () => {
    const va = getSharing(platform, 'cl_intel_va_api_media_sharing');
    const display = ref.vaCreateDisplay(true);
    const surface = ref.vaCreateSurface(display, 8, 8);
    const context = va.createContext(display);
    for (const access of [null, 4, 'Read', 'readwrite']) {
      expect(() => va.createFromSurface(context, surface.id, 0, { access: access as never })).toThrow(TypeError);
    }
    expect(ref.refcount(surface.resource)).toBe(1);
    context.release();
    ref.release(surface.resource);
    ref.release(display);
  });
});
