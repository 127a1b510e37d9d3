// JavaScript access to the reference driver's control API (refdriver_control.h)
// through the koffi FFI: tests and examples use it to create simulated D3D9,
// D3D10 and VA-API resources, read and write their bytes, and read reference
// counts and live-object counts. Handles travel as bigint, like every native
// handle in opencl-interop. Test equipment: not part of the npm package.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Where `npm run build:driver` puts the driver. */
export const referenceDriverPath = resolve(
  repoRoot,
  'cmake-build/lib',
  process.platform === 'win32' ? 'ocl_interop_refdriver.dll' : 'libocl_interop_refdriver.so',
);
/** The vendors folder that lists the reference driver next to the system's drivers. */
export const referenceVendorsPath = resolve(repoRoot, 'cmake-build/vendors');

const errors = {
  [-1]: 'REFDRV_E_INVALID_ARG',
  [-2]: 'REFDRV_E_BAD_HANDLE',
  [-3]: 'REFDRV_E_RANGE',
  [-4]: 'REFDRV_E_FORMAT',
  [-5]: 'REFDRV_E_UNKNOWN_KIND',
};
const deviceKinds = { d3d9: 0, d3d9ex: 1, dxva: 2 };

/** Opens the control API of the reference driver (the same library the ICD loader loads). */
export function openReferenceDriver(path = referenceDriverPath) {
  if (!existsSync(path)) throw new Error(`The reference driver is not built (${path}): run npm run build:driver`);
  const koffi = require('koffi');
  const lib = koffi.load(path);
  // void* parameters are declared as uint64_t: the same in the x86-64 ABIs, and they carry bigints.
  const fn = (signature) => lib.func(signature);
  const f = {
    d3d9Adapter: fn('int refdrv_d3d9_create_adapter(const char *name, int has_cl_device, _Out_ uint64_t *out)'),
    d3d9Device: fn('int refdrv_d3d9_create_device(uint64_t adapter, int kind, _Out_ uint64_t *out)'),
    d3d9Surface: fn(
      'int refdrv_d3d9_create_surface(uint64_t device, uint32_t fmt, uint32_t w, uint32_t h, uint32_t pool, int shared, _Out_ uint64_t *out, _Out_ uint64_t *handle)',
    ),
    d3d9Texture: fn(
      'int refdrv_d3d9_create_texture(uint64_t device, uint32_t fmt, uint32_t w, uint32_t h, uint32_t levels, uint32_t pool, _Out_ uint64_t *out)',
    ),
    d3d9Cube: fn(
      'int refdrv_d3d9_create_cube_texture(uint64_t device, uint32_t fmt, uint32_t edge, uint32_t levels, uint32_t pool, _Out_ uint64_t *out)',
    ),
    d3d9Volume: fn(
      'int refdrv_d3d9_create_volume_texture(uint64_t device, uint32_t fmt, uint32_t w, uint32_t h, uint32_t d, uint32_t levels, uint32_t pool, _Out_ uint64_t *out)',
    ),
    d3d9Vertex: fn('int refdrv_d3d9_create_vertex_buffer(uint64_t device, uint32_t size, uint32_t pool, _Out_ uint64_t *out)'),
    d3d9Index: fn('int refdrv_d3d9_create_index_buffer(uint64_t device, uint32_t size, uint32_t fmt, uint32_t pool, _Out_ uint64_t *out)'),
    d3d9Level: fn('int refdrv_d3d9_get_surface_level(uint64_t texture, uint32_t level, _Out_ uint64_t *out)'),
    dxgiAdapter: fn('int refdrv_dxgi_create_adapter(const char *name, int has_cl_device, _Out_ uint64_t *out)'),
    d3d10Device: fn('int refdrv_d3d10_create_device(uint64_t adapter, _Out_ uint64_t *out)'),
    d3d10Buffer: fn('int refdrv_d3d10_create_buffer(uint64_t device, uint32_t size, uint32_t usage, _Out_ uint64_t *out)'),
    d3d10Tex2D: fn(
      'int refdrv_d3d10_create_texture2d(uint64_t device, uint32_t w, uint32_t h, uint32_t mips, uint32_t array_size, uint32_t fmt, uint32_t usage, uint32_t samples, _Out_ uint64_t *out)',
    ),
    d3d10Tex3D: fn(
      'int refdrv_d3d10_create_texture3d(uint64_t device, uint32_t w, uint32_t h, uint32_t d, uint32_t mips, uint32_t fmt, uint32_t usage, _Out_ uint64_t *out)',
    ),
    d3d11Device: fn('int refdrv_d3d11_create_device(uint64_t adapter, _Out_ uint64_t *out)'),
    d3d11Buffer: fn('int refdrv_d3d11_create_buffer(uint64_t device, uint32_t size, uint32_t usage, _Out_ uint64_t *out)'),
    d3d11Tex2D: fn(
      'int refdrv_d3d11_create_texture2d(uint64_t device, uint32_t w, uint32_t h, uint32_t mips, uint32_t array_size, uint32_t fmt, uint32_t usage, uint32_t samples, _Out_ uint64_t *out)',
    ),
    d3d11Tex3D: fn(
      'int refdrv_d3d11_create_texture3d(uint64_t device, uint32_t w, uint32_t h, uint32_t d, uint32_t mips, uint32_t fmt, uint32_t usage, _Out_ uint64_t *out)',
    ),
    vaDisplay: fn('int refdrv_va_create_display(int has_cl_device, _Out_ uint64_t *out)'),
    vaSurface: fn('int refdrv_va_create_surface(uint64_t display, uint32_t w, uint32_t h, _Out_ uint32_t *id, _Out_ uint64_t *out)'),
    sharedHandle: fn('int refdrv_create_shared_handle(uint64_t resource, _Out_ uint64_t *out)'),
    layout: fn(
      'int refdrv_resource_layout(uint64_t resource, uint32_t sub, uint32_t plane, _Out_ uint64_t *w, _Out_ uint64_t *h, _Out_ uint64_t *d, _Out_ uint64_t *bpp, _Out_ uint64_t *row, _Out_ uint64_t *slice, _Out_ uint64_t *size)',
    ),
    read: fn('int refdrv_resource_read(uint64_t resource, uint32_t sub, uint32_t plane, int packed, _Out_ uint8_t *dst, uint64_t size)'),
    write: fn('int refdrv_resource_write(uint64_t resource, uint32_t sub, uint32_t plane, int packed, const uint8_t *src, uint64_t size)'),
    refcount: fn('int refdrv_refcount(uint64_t object, _Out_ uint32_t *count)'),
    addRef: fn('int refdrv_add_ref(uint64_t object, _Out_ uint32_t *count)'),
    release: fn('int refdrv_release(uint64_t object, _Out_ uint32_t *count)'),
    objectType: fn('int refdrv_object_type(uint64_t object, _Out_ int *type)'),
    live: fn('int refdrv_live_objects(const char *kind)'),
    waitIdle: fn('int refdrv_wait_idle(uint32_t timeout_ms)'),
    setDelay: fn('int refdrv_set_command_delay(const char *spec)'),
    getDelay: fn('int refdrv_command_delay(uint32_t type, _Out_ uint32_t *us)'),
    ...(process.platform === 'linux'
      ? {
          opaqueMemory: fn('int refdrv_create_opaque_fd_memory(uint64_t size, _Out_ int *fd)'),
          dmaBuf: fn('int refdrv_create_dma_buf(uint64_t size, _Out_ int *fd)'),
          payloadRead: fn('int refdrv_payload_read(int fd, int opaque, uint64_t offset, _Out_ uint8_t *dst, uint64_t size)'),
          payloadWrite: fn('int refdrv_payload_write(int fd, int opaque, uint64_t offset, const uint8_t *src, uint64_t size)'),
          semaphoreState: fn('int refdrv_opaque_semaphore_state(int fd, int op, _Out_ uint32_t *state)'),
        }
      : {}),
  };
  const linuxOnly = (name) => {
    if (!f.dmaBuf) throw new Error(`${name} needs Linux (memfd payloads)`);
  };
  const fdArg = (fd, what) => {
    if (!Number.isInteger(fd) || fd < 0) throw new TypeError(`${what}: fd must be a non-negative integer, got ${fd}`);
    return fd;
  };

  function check(status, what) {
    if (status !== 0) throw new Error(`${what} failed: ${errors[status] ?? status}`);
  }
  function out(call, what, ...args) {
    const result = [0];
    check(call(...args, result), what);
    return BigInt(result[0]);
  }
  const delayClasses = ['all', 'kernel', 'transfer', 'acquire', 'sync'];
  const maxDelayUs = 60_000_000;
  const delayValue = (value, what) => {
    if (!Number.isInteger(value) || value < 0 || value > maxDelayUs) {
      throw new TypeError(`setCommandDelay: ${what} must be an integer number of microseconds from 0 to ${maxDelayUs}, got ${String(value)}`);
    }
    return value;
  };
  const kindOf = (kind) => {
    const value = deviceKinds[kind];
    if (value === undefined) throw new TypeError(`kind must be one of ${Object.keys(deviceKinds).join(', ')}`);
    return value;
  };

  return {
    path,
    d3d9CreateAdapter: (name, hasClDevice = true) => out(f.d3d9Adapter, 'd3d9CreateAdapter', name, hasClDevice ? 1 : 0),
    /** kind: 'd3d9' (IDirect3DDevice9), 'd3d9ex' (IDirect3DDevice9Ex) or 'dxva' (IDXVAHD_Device). */
    d3d9CreateDevice: (kind = 'd3d9', adapter = 0n) => out(f.d3d9Device, 'd3d9CreateDevice', adapter, kindOf(kind)),
    d3d9CreateSurface(device, format, width, height, { pool = 0, shared = false } = {}) {
      const surface = [0];
      const handle = [0];
      check(f.d3d9Surface(device, format, width, height, pool, shared ? 1 : 0, surface, handle), 'd3d9CreateSurface');
      return { surface: BigInt(surface[0]), sharedHandle: BigInt(handle[0]) };
    },
    d3d9CreateTexture: (device, format, width, height, levels = 1, pool = 0) =>
      out(f.d3d9Texture, 'd3d9CreateTexture', device, format, width, height, levels, pool),
    d3d9CreateCubeTexture: (device, format, edge, levels = 1, pool = 0) =>
      out(f.d3d9Cube, 'd3d9CreateCubeTexture', device, format, edge, levels, pool),
    d3d9CreateVolumeTexture: (device, format, width, height, depth, levels = 1, pool = 0) =>
      out(f.d3d9Volume, 'd3d9CreateVolumeTexture', device, format, width, height, depth, levels, pool),
    d3d9CreateVertexBuffer: (device, size, pool = 0) => out(f.d3d9Vertex, 'd3d9CreateVertexBuffer', device, size, pool),
    d3d9CreateIndexBuffer: (device, size, format = 101, pool = 0) => out(f.d3d9Index, 'd3d9CreateIndexBuffer', device, size, format, pool),
    d3d9GetSurfaceLevel: (texture, level) => out(f.d3d9Level, 'd3d9GetSurfaceLevel', texture, level),
    dxgiCreateAdapter: (name, hasClDevice = true) => out(f.dxgiAdapter, 'dxgiCreateAdapter', name, hasClDevice ? 1 : 0),
    d3d10CreateDevice: (adapter = 0n) => out(f.d3d10Device, 'd3d10CreateDevice', adapter),
    d3d10CreateBuffer: (device, size, usage = 0) => out(f.d3d10Buffer, 'd3d10CreateBuffer', device, size, usage),
    d3d10CreateTexture2D: (device, { width, height, mipLevels = 1, arraySize = 1, format, usage = 0, sampleCount = 1 }) =>
      out(f.d3d10Tex2D, 'd3d10CreateTexture2D', device, width, height, mipLevels, arraySize, format, usage, sampleCount),
    d3d10CreateTexture3D: (device, { width, height, depth, mipLevels = 1, format, usage = 0 }) =>
      out(f.d3d10Tex3D, 'd3d10CreateTexture3D', device, width, height, depth, mipLevels, format, usage),
    d3d11CreateDevice: (adapter = 0n) => out(f.d3d11Device, 'd3d11CreateDevice', adapter),
    d3d11CreateBuffer: (device, size, usage = 0) => out(f.d3d11Buffer, 'd3d11CreateBuffer', device, size, usage),
    d3d11CreateTexture2D: (device, { width, height, mipLevels = 1, arraySize = 1, format, usage = 0, sampleCount = 1 }) =>
      out(f.d3d11Tex2D, 'd3d11CreateTexture2D', device, width, height, mipLevels, arraySize, format, usage, sampleCount),
    d3d11CreateTexture3D: (device, { width, height, depth, mipLevels = 1, format, usage = 0 }) =>
      out(f.d3d11Tex3D, 'd3d11CreateTexture3D', device, width, height, depth, mipLevels, format, usage),
    vaCreateDisplay: (hasClDevice = true) => out(f.vaDisplay, 'vaCreateDisplay', hasClDevice ? 1 : 0),
    /** An NV12 surface: { id: VASurfaceID, resource: handle for read/write/release }. */
    vaCreateSurface(display, width, height) {
      const id = [0];
      const resource = [0];
      check(f.vaSurface(display, width, height, id, resource), 'vaCreateSurface');
      return { id: id[0], resource: BigInt(resource[0]) };
    },
    createSharedHandle: (resource) => out(f.sharedHandle, 'createSharedHandle', resource),
    layout(resource, subresource = 0, plane = 0) {
      const o = [[0], [0], [0], [0], [0], [0], [0]];
      check(f.layout(resource, subresource, plane, ...o), 'layout');
      const [width, height, depth, bytesPerPixel, rowPitch, slicePitch, size] = o.map((v) => Number(v[0]));
      return { width, height, depth, bytesPerPixel, rowPitch, slicePitch, size };
    },
    /** The bytes of a subresource/plane, rows packed (packed=false: raw, with the row pitch). */
    read(resource, subresource = 0, plane = 0, packed = true) {
      const l = this.layout(resource, subresource, plane);
      const size = packed ? l.width * l.bytesPerPixel * l.height * l.depth : l.size;
      const bytes = new Uint8Array(size);
      check(f.read(resource, subresource, plane, packed ? 1 : 0, bytes, size), 'read');
      return bytes;
    },
    write(resource, subresource, plane, bytes, packed = true) {
      check(f.write(resource, subresource, plane, packed ? 1 : 0, bytes, bytes.byteLength), 'write');
    },
    refcount(object) {
      const count = [0];
      check(f.refcount(object, count), 'refcount');
      return count[0];
    },
    addRef(object) {
      const count = [0];
      check(f.addRef(object, count), 'addRef');
      return count[0];
    },
    release(object) {
      const count = [0];
      check(f.release(object, count), 'release');
      return count[0];
    },
    objectType(object) {
      const type = [0];
      check(f.objectType(object, type), 'objectType');
      return type[0];
    },
    /** Live objects of a kind: context, command_queue, mem, event, program, kernel, sampler, semaphore, cl, resource, all. */
    liveObjects(kind) {
      const n = f.live(kind);
      if (n < 0) throw new Error(`liveObjects(${kind}) failed: ${errors[n] ?? n}`);
      return n;
    },
    waitIdle: (timeoutMs = 10000) => check(f.waitIdle(timeoutMs), 'waitIdle'),
    /**
     * Slows commands enqueued from now on: each stays CL_RUNNING this many microseconds before
     * its work. `delays`: a number (every command) or { all, kernel, transfer, acquire, sync }
     * (a class's entry overrides `all`); 0 or {} clears. Replaces every delay set before.
     */
    setCommandDelay(delays) {
      let spec;
      if (typeof delays === 'number') spec = String(delayValue(delays, 'delays'));
      else if (delays !== null && typeof delays === 'object' && !Array.isArray(delays)) {
        const entries = Object.entries(delays);
        for (const [name, value] of entries) {
          if (!delayClasses.includes(name))
            throw new TypeError(`setCommandDelay: unknown command class '${name}' (expected one of ${delayClasses.join(', ')})`);
          delayValue(value, `delays.${name}`);
        }
        // 'all' first: the classes override it
        entries.sort(([a], [b]) => (a === 'all' ? -1 : b === 'all' ? 1 : 0));
        spec = entries.map(([name, value]) => `${name}=${value}`).join(',');
      } else {
        throw new TypeError(
          `setCommandDelay: delays must be a number of microseconds or an object of them per command class, got ${delays === null ? 'null' : typeof delays}`,
        );
      }
      check(f.setDelay(spec), 'setCommandDelay');
    },
    /** The delay (microseconds) a command of this CL_COMMAND_* type enqueued now gets. */
    commandDelay(commandType) {
      if (!Number.isInteger(commandType) || commandType < 0 || commandType > 0xffffffff) {
        throw new TypeError(`commandDelay: commandType must be a CL_COMMAND_* value (an unsigned 32-bit integer), got ${String(commandType)}`);
      }
      const us = [0];
      check(f.getDelay(commandType, us), 'commandDelay');
      return us[0];
    },
    /** A memfd payload in lavapipe's opaque-fd layout (header, bytes at 4096) of `size` bytes; the fd is yours. */
    createOpaqueFdMemory(size) {
      linuxOnly('createOpaqueFdMemory');
      const fd = [0];
      check(f.opaqueMemory(size, fd), 'createOpaqueFdMemory');
      return fd[0];
    },
    /** A memfd DMA-BUF payload of `size` bytes (offset 0); the fd is yours. */
    createDmaBuf(size) {
      linuxOnly('createDmaBuf');
      const fd = [0];
      check(f.dmaBuf(size, fd), 'createDmaBuf');
      return fd[0];
    },
    /** Reads payload bytes of a memory fd as the exporting API sees them (kind 'opaque' or 'dma-buf'). */
    payloadRead(fd, kind, offset, size) {
      linuxOnly('payloadRead');
      const bytes = new Uint8Array(size);
      check(f.payloadRead(fdArg(fd, 'payloadRead'), kind === 'opaque' ? 1 : 0, offset, bytes, size), 'payloadRead');
      return bytes;
    },
    payloadWrite(fd, kind, offset, bytes) {
      linuxOnly('payloadWrite');
      check(f.payloadWrite(fdArg(fd, 'payloadWrite'), kind === 'opaque' ? 1 : 0, offset, bytes, bytes.byteLength), 'payloadWrite');
    },
    /** The state word (0 / 1) of an exported opaque semaphore fd; op 'signal' / 'unsignal' change it first. */
    opaqueSemaphoreState(fd, op = 'read') {
      linuxOnly('opaqueSemaphoreState');
      const ops = { read: -1, unsignal: 0, signal: 1 };
      if (!(op in ops)) throw new TypeError(`op must be one of ${Object.keys(ops).join(', ')}, got ${op}`);
      const state = [0];
      check(f.semaphoreState(fdArg(fd, 'opaqueSemaphoreState'), ops[op], state), 'opaqueSemaphoreState');
      return state[0];
    },
  };
}
