// d3d_interop_test.cpp - Windows smoke / conformance test of the reference
// driver over REAL Direct3D 9Ex / Direct3D 10 / DXVA objects.
//
//   refdrv_d3d_tests.exe [path\to\ocl_interop_refdriver.dll]
//
// Loads the driver DLL by path (default: next to the exe), creates a hidden
// window, a D3D9Ex device (software vertex processing, multithreaded), a
// plain D3D9 device, two D3D10 devices and a DXVA2 device manager, and checks
// every D3D9 (NV, Intel, KHR) and D3D10 entry point: device queries, context
// creation, creation from each resource kind, info queries, the specs' error
// codes, contents D3D -> CL at acquire and CL -> D3D at release, and that the
// Direct3D reference counts are back where they started once every CL object
// is released. One line per check, a summary, exit code 1 on any failure.
// Under Wine: xvfb-run ... wine64 refdrv_d3d_tests.exe > out.txt (a file).
#ifndef NOMINMAX
#define NOMINMAX
#endif
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#include <d3d9.h>
#include <d3d10.h>
#include <dxgi.h>
#include <dxva2api.h>
#include <dxvahd.h>

#include "tests/cl_api.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

namespace {

struct Api {
#define T_PTR(ret, name, args) ret(CL_API_CALL *name) args = nullptr;
  REFDRV_TEST_CORE_FUNCS(T_PTR)
  REFDRV_TEST_EXT_FUNCS(T_PTR)
#undef T_PTR
} cl;

int g_pass = 0, g_fail = 0, g_info = 0;

bool check(bool ok, const char *name, const char *fmt = nullptr, ...) {
  char detail[512] = "";
  if (fmt) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
  }
  printf("%s %s%s%s\n", ok ? "PASS" : "FAIL", name, detail[0] ? "  " : "", detail);
  fflush(stdout);
  (ok ? g_pass : g_fail)++;
  return ok;
}
void info(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  printf("INFO ");
  vprintf(fmt, ap);
  printf("\n");
  va_end(ap);
  fflush(stdout);
  g_info++;
}
bool expect(cl_int got, cl_int want, const char *name) { return check(got == want, name, "got %d, want %d", got, want); }

ULONG refs(IUnknown *p) {
  p->AddRef();
  return p->Release();
}
// reference counts settle when the driver's worker has dropped the last
// command's references: poll a little
bool refs_back(IUnknown *p, ULONG want, const char *name) {
  ULONG r = 0;
  for (int i = 0; i < 200; i++) {
    r = refs(p);
    if (r == want) break;
    Sleep(10);
  }
  return check(r == want, name, "refcount %lu, want %lu", r, want);
}

uint8_t pat(size_t i, int seed) { return uint8_t((i * 7 + (i >> 5) * 13 + seed * 31) & 0xff); }
std::vector<uint8_t> pattern(size_t n, int seed) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; i++) v[i] = pat(i, seed);
  return v;
}

// rows between a tightly packed vector and pitched memory
void put_rows(uint8_t *dst, size_t pitch, const uint8_t *src, size_t row, size_t rows) {
  for (size_t y = 0; y < rows; y++) memcpy(dst + y * pitch, src + y * row, row);
}
void get_rows(uint8_t *dst, const uint8_t *src, size_t pitch, size_t row, size_t rows) {
  for (size_t y = 0; y < rows; y++) memcpy(dst + y * row, src + y * pitch, row);
}

std::string hr_str(HRESULT hr) {
  char b[32];
  snprintf(b, sizeof b, "hr=0x%08lx", static_cast<unsigned long>(hr));
  return b;
}

// ------------------------------------------------------------ CL helpers --
cl_platform_id g_platform;
cl_device_id g_device;

cl_context make_ctx(cl_context_properties key, void *dev, cl_int *err) {
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(g_platform), key,
                                   reinterpret_cast<cl_context_properties>(dev), 0};
  return cl.clCreateContext(props, 1, &g_device, nullptr, nullptr, err);
}

struct ImgInfo {
  cl_image_format fmt{0, 0};
  size_t w = 0, h = 0, d = 0;
};
ImgInfo img_info(cl_mem m) {
  ImgInfo i;
  cl.clGetImageInfo(m, CL_IMAGE_FORMAT, sizeof i.fmt, &i.fmt, nullptr);
  cl.clGetImageInfo(m, CL_IMAGE_WIDTH, sizeof(size_t), &i.w, nullptr);
  cl.clGetImageInfo(m, CL_IMAGE_HEIGHT, sizeof(size_t), &i.h, nullptr);
  cl.clGetImageInfo(m, CL_IMAGE_DEPTH, sizeof(size_t), &i.d, nullptr);
  return i;
}
bool check_img(cl_mem m, cl_channel_order o, cl_channel_type t, size_t w, size_t h, size_t d, const char *name) {
  ImgInfo i = img_info(m);
  return check(i.fmt.image_channel_order == o && i.fmt.image_channel_data_type == t && i.w == w && i.h == h && i.d == d, name,
               "format 0x%x/0x%x %zux%zux%zu", i.fmt.image_channel_order, i.fmt.image_channel_data_type, i.w, i.h, i.d);
}

std::vector<uint8_t> read_img(cl_command_queue q, cl_mem m, size_t w, size_t h, size_t d, size_t bpp, cl_int *err) {
  std::vector<uint8_t> v(w * h * d * bpp);
  size_t o[3] = {0, 0, 0}, r[3] = {w, h, d};
  *err = cl.clEnqueueReadImage(q, m, CL_TRUE, o, r, 0, 0, v.data(), 0, nullptr, nullptr);
  return v;
}
cl_int write_img(cl_command_queue q, cl_mem m, size_t w, size_t h, size_t d, const std::vector<uint8_t> &v) {
  size_t o[3] = {0, 0, 0}, r[3] = {w, h, d};
  return cl.clEnqueueWriteImage(q, m, CL_TRUE, o, r, 0, 0, v.data(), 0, nullptr, nullptr);
}

// a pointer that is not a Direct3D object at all
struct Garbage {
  void *vtbl = reinterpret_cast<void *>(0x10);
  uint8_t bytes[64] = {};
} g_garbage;
void *const kBadPtrs[] = {reinterpret_cast<void *>(0x12345678), &g_garbage, reinterpret_cast<void *>(8)};

// ------------------------------------------------------------ D3D helpers --
HWND g_hwnd;
IDirect3D9Ex *g_d3d9ex;
IDirect3DDevice9Ex *g_dev9ex;  // the interop device (D3D9Ex)
IDirect3D9 *g_d3d9;
IDirect3DDevice9 *g_dev9;  // a second, plain D3D9 device
ID3D10Device *g_dev10, *g_dev10b;

bool create_devices() {
  WNDCLASSW wc = {};
  wc.lpfnWndProc = DefWindowProcW;
  wc.hInstance = GetModuleHandleW(nullptr);
  wc.lpszClassName = L"refdrv_d3d_tests";
  RegisterClassW(&wc);
  g_hwnd = CreateWindowExW(0, wc.lpszClassName, L"refdrv", WS_OVERLAPPEDWINDOW, 0, 0, 64, 64, nullptr, nullptr, wc.hInstance, nullptr);
  if (!check(g_hwnd != nullptr, "setup.window")) return false;
  HRESULT hr = Direct3DCreate9Ex(D3D_SDK_VERSION, &g_d3d9ex);
  if (!check(SUCCEEDED(hr), "setup.Direct3DCreate9Ex", "%s", hr_str(hr).c_str())) return false;
  D3DPRESENT_PARAMETERS pp = {};
  pp.Windowed = TRUE;
  pp.SwapEffect = D3DSWAPEFFECT_DISCARD;
  pp.BackBufferFormat = D3DFMT_X8R8G8B8;
  pp.BackBufferWidth = 64;
  pp.BackBufferHeight = 64;
  pp.hDeviceWindow = g_hwnd;
  hr = g_d3d9ex->CreateDeviceEx(D3DADAPTER_DEFAULT, D3DDEVTYPE_HAL, g_hwnd, D3DCREATE_SOFTWARE_VERTEXPROCESSING | D3DCREATE_MULTITHREADED, &pp,
                                nullptr, &g_dev9ex);
  if (!check(SUCCEEDED(hr), "setup.CreateDeviceEx", "%s", hr_str(hr).c_str())) return false;
  g_d3d9 = Direct3DCreate9(D3D_SDK_VERSION);
  D3DPRESENT_PARAMETERS pp2 = pp;
  hr = g_d3d9 ? g_d3d9->CreateDevice(D3DADAPTER_DEFAULT, D3DDEVTYPE_HAL, g_hwnd, D3DCREATE_SOFTWARE_VERTEXPROCESSING | D3DCREATE_MULTITHREADED, &pp2,
                                     &g_dev9)
              : E_FAIL;
  if (!check(SUCCEEDED(hr), "setup.CreateDevice(plain D3D9)", "%s", hr_str(hr).c_str())) return false;
  hr = D3D10CreateDevice(nullptr, D3D10_DRIVER_TYPE_HARDWARE, nullptr, 0, D3D10_SDK_VERSION, &g_dev10);
  if (!check(SUCCEEDED(hr), "setup.D3D10CreateDevice", "%s", hr_str(hr).c_str())) return false;
  hr = D3D10CreateDevice(nullptr, D3D10_DRIVER_TYPE_HARDWARE, nullptr, 0, D3D10_SDK_VERSION, &g_dev10b);
  return check(SUCCEEDED(hr), "setup.D3D10CreateDevice(second)", "%s", hr_str(hr).c_str());
}

// D3D9: fill / read a surface through LockRect or, for render targets,
// ColorFill-free paths (UpdateSurface / GetRenderTargetData)
bool d3d9_write_surface(IDirect3DDevice9 *dev, IDirect3DSurface9 *s, const std::vector<uint8_t> &v, size_t bpp) {
  D3DSURFACE_DESC d;
  s->GetDesc(&d);
  size_t row = d.Width * bpp;
  D3DLOCKED_RECT lr;
  if (SUCCEEDED(s->LockRect(&lr, nullptr, 0))) {
    put_rows(static_cast<uint8_t *>(lr.pBits), lr.Pitch, v.data(), row, d.Height);
    s->UnlockRect();
    return true;
  }
  IDirect3DSurface9 *sys = nullptr;
  if (FAILED(dev->CreateOffscreenPlainSurface(d.Width, d.Height, d.Format, D3DPOOL_SYSTEMMEM, &sys, nullptr))) return false;
  bool ok = false;
  if (SUCCEEDED(sys->LockRect(&lr, nullptr, 0))) {
    put_rows(static_cast<uint8_t *>(lr.pBits), lr.Pitch, v.data(), row, d.Height);
    sys->UnlockRect();
    ok = SUCCEEDED(dev->UpdateSurface(sys, nullptr, s, nullptr));
  }
  sys->Release();
  return ok;
}
std::vector<uint8_t> d3d9_read_surface(IDirect3DDevice9 *dev, IDirect3DSurface9 *s, size_t bpp) {
  D3DSURFACE_DESC d;
  s->GetDesc(&d);
  size_t row = d.Width * bpp;
  std::vector<uint8_t> v(row * d.Height);
  D3DLOCKED_RECT lr;
  if (SUCCEEDED(s->LockRect(&lr, nullptr, D3DLOCK_READONLY))) {
    get_rows(v.data(), static_cast<uint8_t *>(lr.pBits), lr.Pitch, row, d.Height);
    s->UnlockRect();
    return v;
  }
  IDirect3DSurface9 *sys = nullptr;
  if (FAILED(dev->CreateOffscreenPlainSurface(d.Width, d.Height, d.Format, D3DPOOL_SYSTEMMEM, &sys, nullptr))) return {};
  if (SUCCEEDED(dev->GetRenderTargetData(s, sys)) && SUCCEEDED(sys->LockRect(&lr, nullptr, D3DLOCK_READONLY))) {
    get_rows(v.data(), static_cast<uint8_t *>(lr.pBits), lr.Pitch, row, d.Height);
    sys->UnlockRect();
  } else {
    v.clear();
  }
  sys->Release();
  return v;
}

// NV12 / YV12: planes as packed vectors (Y, then NV12 UV / YV12 V, U)
bool d3d9_planar(IDirect3DSurface9 *s, std::vector<std::vector<uint8_t>> &planes, bool write) {
  D3DSURFACE_DESC d;
  s->GetDesc(&d);
  D3DLOCKED_RECT lr;
  if (FAILED(s->LockRect(&lr, nullptr, write ? 0 : D3DLOCK_READONLY))) return false;
  uint8_t *base = static_cast<uint8_t *>(lr.pBits);
  size_t p = lr.Pitch, w = d.Width, h = d.Height;
  struct P {
    size_t off, pitch, row, rows;
  };
  std::vector<P> ps;
  ps.push_back({0, p, w, h});
  if (d.Format == D3DFORMAT(MAKEFOURCC('N', 'V', '1', '2'))) {
    ps.push_back({p * h, p, w, h / 2});
  } else {
    ps.push_back({p * h, p / 2, w / 2, h / 2});
    ps.push_back({p * h + (p / 2) * (h / 2), p / 2, w / 2, h / 2});
  }
  planes.resize(ps.size());
  for (size_t i = 0; i < ps.size(); i++) {
    if (write) put_rows(base + ps[i].off, ps[i].pitch, planes[i].data(), ps[i].row, ps[i].rows);
    else {
      planes[i].resize(ps[i].row * ps[i].rows);
      get_rows(planes[i].data(), base + ps[i].off, ps[i].pitch, ps[i].row, ps[i].rows);
    }
  }
  s->UnlockRect();
  return true;
}

// D3D10: read a subresource through a staging copy
std::vector<uint8_t> d3d10_read(ID3D10Device *dev, ID3D10Resource *r, UINT sub, size_t row, size_t rows, size_t slices) {
  D3D10_RESOURCE_DIMENSION dim;
  r->GetType(&dim);
  ID3D10Resource *stg = nullptr;
  if (dim == D3D10_RESOURCE_DIMENSION_BUFFER) {
    D3D10_BUFFER_DESC d = {};
    d.ByteWidth = UINT(row);
    d.Usage = D3D10_USAGE_STAGING;
    d.CPUAccessFlags = D3D10_CPU_ACCESS_READ;
    ID3D10Buffer *b = nullptr;
    dev->CreateBuffer(&d, nullptr, &b);
    stg = b;
  } else if (dim == D3D10_RESOURCE_DIMENSION_TEXTURE2D) {
    D3D10_TEXTURE2D_DESC d;
    static_cast<ID3D10Texture2D *>(r)->GetDesc(&d);
    UINT mip = sub % d.MipLevels;
    d.Width = std::max(1u, d.Width >> mip);
    d.Height = std::max(1u, d.Height >> mip);
    d.MipLevels = d.ArraySize = 1;
    d.Usage = D3D10_USAGE_STAGING;
    d.BindFlags = 0;
    d.CPUAccessFlags = D3D10_CPU_ACCESS_READ;
    d.MiscFlags = 0;
    ID3D10Texture2D *t = nullptr;
    dev->CreateTexture2D(&d, nullptr, &t);
    stg = t;
  } else {
    D3D10_TEXTURE3D_DESC d;
    static_cast<ID3D10Texture3D *>(r)->GetDesc(&d);
    UINT mip = sub;
    d.Width = std::max(1u, d.Width >> mip);
    d.Height = std::max(1u, d.Height >> mip);
    d.Depth = std::max(1u, d.Depth >> mip);
    d.MipLevels = 1;
    d.Usage = D3D10_USAGE_STAGING;
    d.BindFlags = 0;
    d.CPUAccessFlags = D3D10_CPU_ACCESS_READ;
    d.MiscFlags = 0;
    ID3D10Texture3D *t = nullptr;
    dev->CreateTexture3D(&d, nullptr, &t);
    stg = t;
  }
  std::vector<uint8_t> v;
  if (!stg) return v;
  dev->CopySubresourceRegion(stg, 0, 0, 0, 0, r, sub, nullptr);
  v.resize(row * rows * slices);
  if (dim == D3D10_RESOURCE_DIMENSION_BUFFER) {
    void *p = nullptr;
    if (SUCCEEDED(static_cast<ID3D10Buffer *>(stg)->Map(D3D10_MAP_READ, 0, &p))) {
      memcpy(v.data(), p, row);
      static_cast<ID3D10Buffer *>(stg)->Unmap();
    } else v.clear();
  } else if (dim == D3D10_RESOURCE_DIMENSION_TEXTURE2D) {
    D3D10_MAPPED_TEXTURE2D m;
    if (SUCCEEDED(static_cast<ID3D10Texture2D *>(stg)->Map(0, D3D10_MAP_READ, 0, &m))) {
      get_rows(v.data(), static_cast<uint8_t *>(m.pData), m.RowPitch, row, rows);
      static_cast<ID3D10Texture2D *>(stg)->Unmap(0);
    } else v.clear();
  } else {
    D3D10_MAPPED_TEXTURE3D m;
    if (SUCCEEDED(static_cast<ID3D10Texture3D *>(stg)->Map(0, D3D10_MAP_READ, 0, &m))) {
      for (size_t z = 0; z < slices; z++)
        get_rows(v.data() + z * row * rows, static_cast<uint8_t *>(m.pData) + z * m.DepthPitch, m.RowPitch, row, rows);
      static_cast<ID3D10Texture3D *>(stg)->Unmap(0);
    } else v.clear();
  }
  stg->Release();
  return v;
}

bool same(const std::vector<uint8_t> &a, const std::vector<uint8_t> &b) { return !a.empty() && a == b; }
std::string first_diff(const std::vector<uint8_t> &a, const std::vector<uint8_t> &b) {
  if (a.size() != b.size()) return "sizes " + std::to_string(a.size()) + " vs " + std::to_string(b.size());
  for (size_t i = 0; i < a.size(); i++)
    if (a[i] != b[i]) return "byte " + std::to_string(i) + ": " + std::to_string(a[i]) + " vs " + std::to_string(b[i]);
  return "equal";
}
#define CHECK_SAME(got, want, name) check(same(got, want), name, "%s", first_diff(got, want).c_str())

std::vector<uint8_t> inverted(std::vector<uint8_t> v) {
  for (auto &b : v) b = uint8_t(255 - b);
  return v;
}

// run the built-in invert_image kernel: dst = invert(src)
cl_int run_invert(cl_context ctx, cl_command_queue q, cl_mem src, cl_mem dst, size_t w, size_t h) {
  cl_int err;
  cl_program p = cl.clCreateProgramWithBuiltInKernels(ctx, 1, &g_device, "invert_image", &err);
  if (!p) return err;
  cl_kernel k = cl.clCreateKernel(p, "invert_image", &err);
  if (k) {
    cl.clSetKernelArg(k, 0, sizeof(cl_mem), &src);
    cl.clSetKernelArg(k, 1, sizeof(cl_mem), &dst);
    size_t gsz[2] = {w, h};
    err = cl.clEnqueueNDRangeKernel(q, k, 2, nullptr, gsz, nullptr, 0, nullptr, nullptr);
    cl.clReleaseKernel(k);
  }
  cl.clReleaseProgram(p);
  return err;
}

cl_mem plain_image(cl_context ctx, cl_image_format f, size_t w, size_t h, std::vector<uint8_t> &host) {
  cl_image_desc d = {};
  d.image_type = CL_MEM_OBJECT_IMAGE2D;
  d.image_width = w;
  d.image_height = h;
  cl_int err;
  return cl.clCreateImage(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &f, &d, host.data(), &err);
}

// ================================================== cl_nv_d3d9_sharing ==
void test_nv() {
  IDirect3DDevice9 *dev = g_dev9ex;
  cl_int err;
  cl_uint n = 0;
  cl_device_id d = nullptr;
  err = cl.clGetDeviceIDsFromD3D9NV(g_platform, CL_D3D9_DEVICE_NV, dev, CL_PREFERRED_DEVICES_FOR_D3D9_NV, 1, &d, &n);
  check(err == CL_SUCCESS && n == 1 && d == g_device, "nv.get_device_ids.d3d9ex_device", "err %d n %u", err, n);
  err = cl.clGetDeviceIDsFromD3D9NV(g_platform, CL_D3D9_DEVICE_NV, g_dev9, CL_ALL_DEVICES_FOR_D3D9_NV, 0, nullptr, &n);
  check(err == CL_SUCCESS && n == 1, "nv.get_device_ids.plain_d3d9_device", "err %d", err);
  for (void *bad : kBadPtrs) {
    err = cl.clGetDeviceIDsFromD3D9NV(g_platform, CL_D3D9_DEVICE_NV, bad, CL_ALL_DEVICES_FOR_D3D9_NV, 0, nullptr, &n);
    expect(err, CL_DEVICE_NOT_FOUND, "nv.get_device_ids.garbage_pointer");
  }
  err = cl.clGetDeviceIDsFromD3D9NV(g_platform, CL_D3D9_DEVICE_NV, g_dev10, CL_ALL_DEVICES_FOR_D3D9_NV, 0, nullptr, &n);
  expect(err, CL_DEVICE_NOT_FOUND, "nv.get_device_ids.d3d10_device_is_not_d3d9");
  D3DADAPTER_IDENTIFIER9 ai;
  g_d3d9ex->GetAdapterIdentifier(D3DADAPTER_DEFAULT, 0, &ai);
  err = cl.clGetDeviceIDsFromD3D9NV(g_platform, CL_D3D9_ADAPTER_NAME_NV, ai.DeviceName, CL_ALL_DEVICES_FOR_D3D9_NV, 0, nullptr, &n);
  check(err == CL_SUCCESS && n == 1, "nv.get_device_ids.adapter_name", "'%s' err %d", ai.DeviceName, err);
  err = cl.clGetDeviceIDsFromD3D9NV(g_platform, CL_D3D9_ADAPTER_NAME_NV, const_cast<char *>("no such adapter"), CL_ALL_DEVICES_FOR_D3D9_NV, 0,
                                    nullptr, &n);
  expect(err, CL_DEVICE_NOT_FOUND, "nv.get_device_ids.unknown_adapter_name");

  for (void *bad : kBadPtrs) {
    cl_context c = make_ctx(CL_CONTEXT_D3D9_DEVICE_NV, bad, &err);
    check(!c && err == CL_INVALID_D3D9_DEVICE_NV, "nv.context.garbage_device", "err %d", err);
  }
  cl_context c10 = make_ctx(CL_CONTEXT_D3D9_DEVICE_NV, g_dev10, &err);
  check(!c10 && err == CL_INVALID_D3D9_DEVICE_NV, "nv.context.d3d10_device", "err %d", err);

  // resources
  IDirect3DSurface9 *surf = nullptr, *sysmem = nullptr, *other = nullptr, *r565 = nullptr;
  IDirect3DTexture9 *tex = nullptr, *dyntex = nullptr;
  IDirect3DCubeTexture9 *cube = nullptr;
  IDirect3DVolumeTexture9 *vol = nullptr;
  IDirect3DVertexBuffer9 *vb = nullptr;
  IDirect3DIndexBuffer9 *ib = nullptr;
  HRESULT hr = dev->CreateOffscreenPlainSurface(16, 8, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &surf, nullptr);
  hr |= dev->CreateOffscreenPlainSurface(16, 8, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &sysmem, nullptr);
  hr |= g_dev9->CreateOffscreenPlainSurface(16, 8, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &other, nullptr);
  hr |= dev->CreateTexture(16, 16, 2, D3DUSAGE_RENDERTARGET, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &tex, nullptr);
  hr |= dev->CreateTexture(8, 8, 1, D3DUSAGE_DYNAMIC, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &dyntex, nullptr);
  hr |= dev->CreateCubeTexture(8, 1, D3DUSAGE_RENDERTARGET, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &cube, nullptr);
  hr |= dev->CreateVolumeTexture(4, 4, 4, 1, D3DUSAGE_DYNAMIC, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &vol, nullptr);
  hr |= dev->CreateVertexBuffer(256, 0, 0, D3DPOOL_DEFAULT, &vb, nullptr);
  hr |= dev->CreateIndexBuffer(128, 0, D3DFMT_INDEX16, D3DPOOL_DEFAULT, &ib, nullptr);
  if (!check(SUCCEEDED(hr), "nv.setup.d3d9_resources", "%s", hr_str(hr).c_str())) return;
  HRESULT h565 = dev->CreateOffscreenPlainSurface(16, 8, D3DFMT_R5G6B5, D3DPOOL_DEFAULT, &r565, nullptr);
  IUnknown *objs[] = {dev, surf, tex, dyntex, cube, vol, vb, ib};
  ULONG start[8];
  for (int i = 0; i < 8; i++) start[i] = refs(objs[i]);

  cl_context ctx = make_ctx(CL_CONTEXT_D3D9_DEVICE_NV, dev, &err);
  if (!check(ctx && err == CL_SUCCESS, "nv.context.create", "err %d", err)) return;
  check(refs(dev) == start[0] + 1, "nv.context.adds_device_reference", "%lu -> %lu", start[0], refs(dev));
  cl_command_queue q = cl.clCreateCommandQueue(ctx, g_device, 0, &err);

  // --- surface ---
  auto p0 = pattern(16 * 8 * 4, 1), p1 = pattern(16 * 8 * 4, 2), p2 = pattern(16 * 8 * 4, 3);
  d3d9_write_surface(dev, surf, p0, 4);
  cl_mem ms = cl.clCreateFromD3D9SurfaceNV(ctx, CL_MEM_READ_WRITE, surf, &err);
  check(ms && err == CL_SUCCESS, "nv.surface.create", "err %d", err);
  check(refs(surf) == start[1] + 1, "nv.surface.create_adds_reference");
  check_img(ms, CL_RGBA, CL_UNORM_INT8, 16, 8, 0, "nv.surface.image_format_A8R8G8B8_is_RGBA");
  void *back = nullptr;
  err = cl.clGetMemObjectInfo(ms, CL_MEM_D3D9_RESOURCE_NV, sizeof back, &back, nullptr);
  check(err == CL_SUCCESS && back == surf, "nv.surface.info_resource");
  cl_mem ms2 = cl.clCreateFromD3D9SurfaceNV(ctx, CL_MEM_READ_WRITE, surf, &err);
  check(!ms2 && err == CL_INVALID_D3D9_RESOURCE_NV, "nv.surface.second_create_fails", "err %d", err);
  auto v = read_img(q, ms, 16, 8, 1, 4, &err);
  expect(err, CL_D3D9_RESOURCE_NOT_ACQUIRED_NV, "nv.surface.read_not_acquired");
  expect(cl.clEnqueueReleaseD3D9ObjectsNV(q, 1, &ms, 0, nullptr, nullptr), CL_D3D9_RESOURCE_NOT_ACQUIRED_NV, "nv.surface.release_not_acquired");
  // the acquire copies when it executes: after the user event, not at enqueue
  cl_event gate = cl.clCreateUserEvent(ctx, &err);
  err = cl.clEnqueueAcquireD3D9ObjectsNV(q, 1, &ms, 1, &gate, nullptr);
  expect(err, CL_SUCCESS, "nv.surface.acquire");
  expect(cl.clEnqueueAcquireD3D9ObjectsNV(q, 1, &ms, 0, nullptr, nullptr), CL_D3D9_RESOURCE_ALREADY_ACQUIRED_NV, "nv.surface.acquire_twice");
  d3d9_write_surface(dev, surf, p1, 4);  // D3D writes before the acquire executes
  cl.clSetUserEventStatus(gate, CL_COMPLETE);
  cl.clReleaseEvent(gate);
  v = read_img(q, ms, 16, 8, 1, 4, &err);
  check(err == CL_SUCCESS && same(v, p1), "nv.surface.d3d_to_cl_at_acquire_execution", "err %d %s", err, first_diff(v, p1).c_str());
  expect(write_img(q, ms, 16, 8, 1, p2), CL_SUCCESS, "nv.surface.write_image");
  expect(cl.clEnqueueReleaseD3D9ObjectsNV(q, 1, &ms, 0, nullptr, nullptr), CL_SUCCESS, "nv.surface.release");
  cl.clFinish(q);
  v = d3d9_read_surface(dev, surf, 4);
  CHECK_SAME(v, p2, "nv.surface.cl_to_d3d_after_release");
  // errors
  cl_mem bad = cl.clCreateFromD3D9SurfaceNV(ctx, CL_MEM_READ_WRITE, sysmem, &err);
  check(!bad && err == CL_INVALID_D3D9_RESOURCE_NV, "nv.surface.systemmem_pool_rejected", "err %d", err);
  bad = cl.clCreateFromD3D9SurfaceNV(ctx, CL_MEM_READ_WRITE, other, &err);
  check(!bad && err == CL_INVALID_D3D9_RESOURCE_NV, "nv.surface.other_device_rejected", "err %d", err);
  bad = cl.clCreateFromD3D9SurfaceNV(ctx, CL_MEM_READ_WRITE, reinterpret_cast<IDirect3DSurface9 *>(tex), &err);
  check(!bad && err == CL_INVALID_D3D9_RESOURCE_NV, "nv.surface.texture_is_not_a_surface", "err %d", err);
  IDirect3DSurface9 *lvl = nullptr;
  tex->GetSurfaceLevel(0, &lvl);
  bad = cl.clCreateFromD3D9SurfaceNV(ctx, CL_MEM_READ_WRITE, lvl, &err);
  check(!bad && err == CL_INVALID_D3D9_RESOURCE_NV, "nv.surface.texture_level_is_not_standalone", "err %d", err);
  lvl->Release();
  if (SUCCEEDED(h565)) {
    bad = cl.clCreateFromD3D9SurfaceNV(ctx, CL_MEM_READ_WRITE, r565, &err);
    check(!bad && err == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "nv.surface.unsupported_format_R5G6B5", "err %d", err);
  } else {
    info("D3DFMT_R5G6B5 offscreen surface not creatable (%s): unsupported-format check skipped", hr_str(h565).c_str());
  }
  bad = cl.clCreateFromD3D9SurfaceNV(ctx, 0, surf, &err);
  check(!bad && err == CL_INVALID_VALUE, "nv.surface.flags_zero", "err %d", err);
  for (void *bp : kBadPtrs) {
    bad = cl.clCreateFromD3D9SurfaceNV(ctx, CL_MEM_READ_WRITE, static_cast<IDirect3DSurface9 *>(bp), &err);
    check(!bad && err == CL_INVALID_D3D9_RESOURCE_NV, "nv.surface.garbage_pointer", "err %d", err);
  }
  bad = cl.clCreateFromD3D9SurfaceNV(ctx, CL_MEM_READ_WRITE, reinterpret_cast<IDirect3DSurface9 *>(ms), &err);
  check(!bad && err == CL_INVALID_D3D9_RESOURCE_NV, "nv.surface.cl_object_pointer", "err %d", err);

  // --- render-target texture level 1 (not lockable: staging copies) ---
  IDirect3DSurface9 *l1 = nullptr;
  tex->GetSurfaceLevel(1, &l1);
  auto t0 = pattern(8 * 8 * 4, 4), t1 = pattern(8 * 8 * 4, 5);
  check(d3d9_write_surface(dev, l1, t0, 4), "nv.texture.fill_level1_with_UpdateSurface");
  cl_mem mt = cl.clCreateFromD3D9TextureNV(ctx, CL_MEM_READ_WRITE, tex, 1, &err);
  check(mt && err == CL_SUCCESS, "nv.texture.create_level1", "err %d", err);
  check_img(mt, CL_RGBA, CL_UNORM_INT8, 8, 8, 0, "nv.texture.level1_is_8x8");
  UINT level = 99;
  err = cl.clGetImageInfo(mt, CL_IMAGE_D3D9_LEVEL_NV, sizeof level, &level, nullptr);
  check(err == CL_SUCCESS && level == 1, "nv.texture.info_level", "err %d level %u", err, level);
  err = cl.clGetImageInfo(mt, CL_IMAGE_D3D9_FACE_NV, sizeof level, &level, nullptr);
  expect(err, CL_INVALID_D3D9_RESOURCE_NV, "nv.texture.info_face_not_a_cube");
  bad = cl.clCreateFromD3D9TextureNV(ctx, CL_MEM_READ_WRITE, tex, 2, &err);
  check(!bad && err == CL_INVALID_VALUE, "nv.texture.bad_miplevel", "err %d", err);
  expect(cl.clEnqueueAcquireD3D9ObjectsNV(q, 1, &mt, 0, nullptr, nullptr), CL_SUCCESS, "nv.texture.acquire");
  v = read_img(q, mt, 8, 8, 1, 4, &err);
  check(err == CL_SUCCESS && same(v, t0), "nv.texture.d3d_to_cl_GetRenderTargetData", "err %d %s", err, first_diff(v, t0).c_str());
  write_img(q, mt, 8, 8, 1, t1);
  expect(cl.clEnqueueReleaseD3D9ObjectsNV(q, 1, &mt, 0, nullptr, nullptr), CL_SUCCESS, "nv.texture.release");
  cl.clFinish(q);
  v = d3d9_read_surface(dev, l1, 4);
  CHECK_SAME(v, t1, "nv.texture.cl_to_d3d_UpdateSurface");
  l1->Release();

  // --- dynamic texture (LockRect) + invert_image kernel ---
  auto dyn0 = pattern(8 * 8 * 4, 6);
  IDirect3DSurface9 *dl = nullptr;
  dyntex->GetSurfaceLevel(0, &dl);
  check(d3d9_write_surface(dev, dl, dyn0, 4), "nv.dynamic_texture.fill_with_LockRect");
  cl_mem md = cl.clCreateFromD3D9TextureNV(ctx, CL_MEM_READ_WRITE, dyntex, 0, &err);
  check(md && err == CL_SUCCESS, "nv.dynamic_texture.create", "err %d", err);
  cl.clEnqueueAcquireD3D9ObjectsNV(q, 1, &md, 0, nullptr, nullptr);
  v = read_img(q, md, 8, 8, 1, 4, &err);
  CHECK_SAME(v, dyn0, "nv.dynamic_texture.d3d_to_cl");
  auto src0 = pattern(8 * 8 * 4, 7);
  cl_mem src = plain_image(ctx, {CL_RGBA, CL_UNORM_INT8}, 8, 8, src0);
  expect(run_invert(ctx, q, src, md, 8, 8), CL_SUCCESS, "nv.dynamic_texture.invert_image_kernel");
  cl.clEnqueueReleaseD3D9ObjectsNV(q, 1, &md, 0, nullptr, nullptr);
  cl.clFinish(q);
  v = d3d9_read_surface(dev, dl, 4);
  CHECK_SAME(v, inverted(src0), "nv.dynamic_texture.kernel_result_visible_in_d3d");
  dl->Release();

  // --- cube face 3 ---
  IDirect3DSurface9 *f3 = nullptr;
  cube->GetCubeMapSurface(D3DCUBEMAP_FACE_NEGATIVE_Y, 0, &f3);
  auto c0 = pattern(8 * 8 * 4, 8);
  d3d9_write_surface(dev, f3, c0, 4);
  cl_mem mc = cl.clCreateFromD3D9CubeTextureNV(ctx, CL_MEM_READ_WRITE, cube, D3DCUBEMAP_FACE_NEGATIVE_Y, 0, &err);
  check(mc && err == CL_SUCCESS, "nv.cube.create_face3", "err %d", err);
  D3DCUBEMAP_FACES face = D3DCUBEMAP_FACE_POSITIVE_X;
  err = cl.clGetImageInfo(mc, CL_IMAGE_D3D9_FACE_NV, sizeof face, &face, nullptr);
  check(err == CL_SUCCESS && face == D3DCUBEMAP_FACE_NEGATIVE_Y, "nv.cube.info_face", "err %d face %d", err, face);
  bad = cl.clCreateFromD3D9CubeTextureNV(ctx, CL_MEM_READ_WRITE, cube, D3DCUBEMAP_FACES(6), 0, &err);
  check(!bad && err == CL_INVALID_VALUE, "nv.cube.bad_face", "err %d", err);
  cl.clEnqueueAcquireD3D9ObjectsNV(q, 1, &mc, 0, nullptr, nullptr);
  v = read_img(q, mc, 8, 8, 1, 4, &err);
  CHECK_SAME(v, c0, "nv.cube.d3d_to_cl");
  expect(run_invert(ctx, q, src, mc, 8, 8), CL_SUCCESS, "nv.cube.invert_image_kernel");
  cl.clEnqueueReleaseD3D9ObjectsNV(q, 1, &mc, 0, nullptr, nullptr);
  cl.clFinish(q);
  v = d3d9_read_surface(dev, f3, 4);
  CHECK_SAME(v, inverted(src0), "nv.cube.cl_to_d3d");
  IDirect3DSurface9 *f0 = nullptr;
  cube->GetCubeMapSurface(D3DCUBEMAP_FACE_POSITIVE_X, 0, &f0);
  auto other_face = d3d9_read_surface(dev, f0, 4);
  check(!same(other_face, inverted(src0)), "nv.cube.other_face_untouched");
  f0->Release();
  f3->Release();

  // --- volume texture (LockBox) ---
  auto vol0 = pattern(4 * 4 * 4 * 4, 9), vol1 = pattern(4 * 4 * 4 * 4, 10);
  D3DLOCKED_BOX lb;
  if (SUCCEEDED(vol->LockBox(0, &lb, nullptr, 0))) {
    for (int z = 0; z < 4; z++) put_rows(static_cast<uint8_t *>(lb.pBits) + z * lb.SlicePitch, lb.RowPitch, vol0.data() + z * 64, 16, 4);
    vol->UnlockBox(0);
  }
  cl_mem mv = cl.clCreateFromD3D9VolumeTextureNV(ctx, CL_MEM_READ_WRITE, vol, 0, &err);
  check(mv && err == CL_SUCCESS, "nv.volume.create", "err %d", err);
  check_img(mv, CL_RGBA, CL_UNORM_INT8, 4, 4, 4, "nv.volume.image3d_4x4x4");
  cl.clEnqueueAcquireD3D9ObjectsNV(q, 1, &mv, 0, nullptr, nullptr);
  v = read_img(q, mv, 4, 4, 4, 4, &err);
  CHECK_SAME(v, vol0, "nv.volume.d3d_to_cl_LockBox");
  write_img(q, mv, 4, 4, 4, vol1);
  cl.clEnqueueReleaseD3D9ObjectsNV(q, 1, &mv, 0, nullptr, nullptr);
  cl.clFinish(q);
  std::vector<uint8_t> vv(vol1.size());
  if (SUCCEEDED(vol->LockBox(0, &lb, nullptr, D3DLOCK_READONLY))) {
    for (int z = 0; z < 4; z++) get_rows(vv.data() + z * 64, static_cast<uint8_t *>(lb.pBits) + z * lb.SlicePitch, lb.RowPitch, 16, 4);
    vol->UnlockBox(0);
  }
  CHECK_SAME(vv, vol1, "nv.volume.cl_to_d3d");

  // --- vertex / index buffers (Lock) ---
  auto b0 = pattern(256, 11), b1 = pattern(256, 12);
  void *lp = nullptr;
  if (SUCCEEDED(vb->Lock(0, 0, &lp, 0))) {
    memcpy(lp, b0.data(), 256);
    vb->Unlock();
  }
  cl_mem mb = cl.clCreateFromD3D9VertexBufferNV(ctx, CL_MEM_READ_WRITE, vb, &err);
  check(mb && err == CL_SUCCESS, "nv.vertex_buffer.create", "err %d", err);
  size_t msize = 0;
  cl.clGetMemObjectInfo(mb, CL_MEM_SIZE, sizeof msize, &msize, nullptr);
  check(msize == 256, "nv.vertex_buffer.size", "%zu", msize);
  bad = cl.clCreateFromD3D9IndexBufferNV(ctx, CL_MEM_READ_WRITE, reinterpret_cast<IDirect3DIndexBuffer9 *>(vb), &err);
  check(!bad && err == CL_INVALID_D3D9_RESOURCE_NV, "nv.index_buffer.vertex_buffer_rejected", "err %d", err);
  cl_mem mi = cl.clCreateFromD3D9IndexBufferNV(ctx, CL_MEM_READ_WRITE, ib, &err);
  check(mi && err == CL_SUCCESS, "nv.index_buffer.create", "err %d", err);
  cl_mem both[2] = {mb, mi};
  expect(cl.clEnqueueAcquireD3D9ObjectsNV(q, 2, both, 0, nullptr, nullptr), CL_SUCCESS, "nv.buffers.acquire_two");
  std::vector<uint8_t> rb(256);
  err = cl.clEnqueueReadBuffer(q, mb, CL_TRUE, 0, 256, rb.data(), 0, nullptr, nullptr);
  CHECK_SAME(rb, b0, "nv.vertex_buffer.d3d_to_cl");
  cl.clEnqueueWriteBuffer(q, mb, CL_FALSE, 0, 256, b1.data(), 0, nullptr, nullptr);
  cl.clEnqueueWriteBuffer(q, mi, CL_FALSE, 0, 128, b1.data(), 0, nullptr, nullptr);
  cl.clEnqueueReleaseD3D9ObjectsNV(q, 2, both, 0, nullptr, nullptr);
  cl.clFinish(q);
  std::vector<uint8_t> gb(256), gi(128);
  if (SUCCEEDED(vb->Lock(0, 0, &lp, D3DLOCK_READONLY))) {
    memcpy(gb.data(), lp, 256);
    vb->Unlock();
  }
  if (SUCCEEDED(ib->Lock(0, 0, &lp, D3DLOCK_READONLY))) {
    memcpy(gi.data(), lp, 128);
    ib->Unlock();
  }
  CHECK_SAME(gb, b1, "nv.vertex_buffer.cl_to_d3d");
  CHECK_SAME(gi, std::vector<uint8_t>(b1.begin(), b1.begin() + 128), "nv.index_buffer.cl_to_d3d");

  // --- which path the driver had to take (what Direct3D allows here) ---
  {
    IDirect3DSurface9 *rl = nullptr;
    tex->GetSurfaceLevel(0, &rl);
    D3DLOCKED_RECT lr;
    HRESULT lhr = rl->LockRect(&lr, nullptr, D3DLOCK_READONLY);
    if (SUCCEEDED(lhr)) rl->UnlockRect();
    info("LockRect on a D3DUSAGE_RENDERTARGET texture level: %s (%s)", hr_str(lhr).c_str(),
         FAILED(lhr) ? "driver used GetRenderTargetData / UpdateSurface" : "lockable here");
    rl->Release();
  }
  // --- a non-lockable render target surface and a plain DEFAULT texture ---
  IDirect3DSurface9 *rt = nullptr;
  IDirect3DTexture9 *plain_tex = nullptr;
  HRESULT rhr = dev->CreateRenderTarget(8, 8, D3DFMT_A8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &rt, nullptr);
  HRESULT phr = dev->CreateTexture(8, 8, 1, 0, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &plain_tex, nullptr);
  if (check(SUCCEEDED(rhr) && SUCCEEDED(phr), "nv.setup.render_target_and_plain_texture")) {
    auto r0 = pattern(8 * 8 * 4, 13), r1 = pattern(8 * 8 * 4, 14);
    ULONG rt_start = refs(rt), pt_start = refs(plain_tex);
    d3d9_write_surface(dev, rt, r0, 4);
    cl_mem mr = cl.clCreateFromD3D9SurfaceNV(ctx, CL_MEM_READ_WRITE, rt, &err);
    check(mr && err == CL_SUCCESS, "nv.render_target.create", "err %d", err);
    cl.clEnqueueAcquireD3D9ObjectsNV(q, 1, &mr, 0, nullptr, nullptr);
    v = read_img(q, mr, 8, 8, 1, 4, &err);
    CHECK_SAME(v, r0, "nv.render_target.d3d_to_cl");
    write_img(q, mr, 8, 8, 1, r1);
    cl.clEnqueueReleaseD3D9ObjectsNV(q, 1, &mr, 0, nullptr, nullptr);
    cl.clFinish(q);
    CHECK_SAME(d3d9_read_surface(dev, rt, 4), r1, "nv.render_target.cl_to_d3d");
    cl.clReleaseMemObject(mr);
    refs_back(rt, rt_start, "nv.refcount.render_target");
    // plain texture: CL -> D3D works (UpdateSurface); D3D -> CL needs
    // StretchRect from a non-render-target texture, which Direct3D 9 may refuse
    IDirect3DSurface9 *pl = nullptr;
    plain_tex->GetSurfaceLevel(0, &pl);
    d3d9_write_surface(dev, pl, r0, 4);
    cl_mem mp = cl.clCreateFromD3D9TextureNV(ctx, CL_MEM_READ_WRITE, plain_tex, 0, &err);
    check(mp && err == CL_SUCCESS, "nv.plain_texture.create", "err %d", err);
    cl_event ea = nullptr, er = nullptr;
    cl.clEnqueueAcquireD3D9ObjectsNV(q, 1, &mp, 0, nullptr, &ea);
    cl.clWaitForEvents(1, &ea);
    cl_int st = 1;
    cl.clGetEventInfo(ea, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, nullptr);
    if (st == CL_COMPLETE) {
      v = read_img(q, mp, 8, 8, 1, 4, &err);
      CHECK_SAME(v, r0, "nv.plain_texture.d3d_to_cl_StretchRect");
    } else {
      info(
          "acquire of a plain (non-render-target, non-dynamic) DEFAULT texture: event status %d "
          "(Direct3D 9 gives no CPU read path for it here)",
          st);
    }
    write_img(q, mp, 8, 8, 1, r1);
    cl.clEnqueueReleaseD3D9ObjectsNV(q, 1, &mp, 0, nullptr, &er);
    cl.clWaitForEvents(1, &er);
    st = 1;
    cl.clGetEventInfo(er, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, nullptr);
    check(st == CL_COMPLETE, "nv.plain_texture.release_event_complete", "status %d", st);
    // read it back on the D3D side through a render target
    IDirect3DSurface9 *rb2 = nullptr;
    std::vector<uint8_t> pv;
    if (SUCCEEDED(dev->CreateRenderTarget(8, 8, D3DFMT_A8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &rb2, nullptr))) {
      HRESULT shr = dev->StretchRect(pl, nullptr, rb2, nullptr, D3DTEXF_NONE);
      if (SUCCEEDED(shr)) pv = d3d9_read_surface(dev, rb2, 4);
      else info("StretchRect from a plain texture level: %s", hr_str(shr).c_str());
      rb2->Release();
    }
    if (!pv.empty()) CHECK_SAME(pv, r1, "nv.plain_texture.cl_to_d3d_UpdateSurface");
    cl.clReleaseEvent(ea);
    cl.clReleaseEvent(er);
    cl.clReleaseMemObject(mp);
    pl->Release();
    refs_back(plain_tex, pt_start, "nv.refcount.plain_texture");
  }
  if (rt) rt->Release();
  if (plain_tex) plain_tex->Release();

  // wrong object kinds in acquire
  cl_mem plain = cl.clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, nullptr, &err);
  expect(cl.clEnqueueAcquireD3D9ObjectsNV(q, 1, &plain, 0, nullptr, nullptr), CL_INVALID_MEM_OBJECT, "nv.acquire.plain_buffer_rejected");
  cl.clReleaseMemObject(plain);

  // release everything: reference counts back to the start
  for (cl_mem m : {ms, mt, md, mc, mv, mb, mi, src}) cl.clReleaseMemObject(m);
  cl.clReleaseCommandQueue(q);
  cl.clReleaseContext(ctx);
  const char *names[] = {"nv.refcount.device", "nv.refcount.surface", "nv.refcount.texture",       "nv.refcount.dynamic_texture",
                         "nv.refcount.cube",   "nv.refcount.volume",  "nv.refcount.vertex_buffer", "nv.refcount.index_buffer"};
  for (int i = 0; i < 8; i++) refs_back(objs[i], start[i], names[i]);
  for (IUnknown *o : std::initializer_list<IUnknown *>{surf, sysmem, other, tex, dyntex, cube, vol, vb, ib}) o->Release();
  if (r565) r565->Release();
}

// ======================================= NV12 / YV12 media surfaces ==
struct Planar {
  IDirect3DSurface9 *s = nullptr;
  std::vector<std::vector<uint8_t>> planes;  // memory order
};
bool make_planar(IDirect3DDevice9 *dev, D3DFORMAT f, int seed, Planar *p, const char *name) {
  HRESULT hr = dev->CreateOffscreenPlainSurface(16, 8, f, D3DPOOL_DEFAULT, &p->s, nullptr);
  if (!check(SUCCEEDED(hr), name, "%s", hr_str(hr).c_str())) return false;
  bool nv12 = f == D3DFORMAT(MAKEFOURCC('N', 'V', '1', '2'));
  p->planes.clear();
  p->planes.push_back(pattern(16 * 8, seed));
  if (nv12) p->planes.push_back(pattern(16 * 4, seed + 1));
  else {
    p->planes.push_back(std::vector<uint8_t>(8 * 4, uint8_t(0x40 + seed)));  // V
    p->planes.push_back(std::vector<uint8_t>(8 * 4, uint8_t(0xa0 + seed)));  // U
    p->planes[1][0] = 1;
    p->planes[2][0] = 2;
  }
  return d3d9_planar(p->s, p->planes, true);
}

using CreatePlane = cl_mem (*)(cl_context, IDirect3DSurface9 *, UINT, cl_int *);
using AcqRel = cl_int (*)(cl_command_queue, cl_uint, cl_mem *, bool acquire);

// NV12 round trip through both planes; YV12 plane 1 = V, plane 2 = U for both
// extensions (the current KHR text and Intel's compute-runtime; see README)
void planar_checks(const char *ext, cl_context ctx, cl_command_queue q, IDirect3DDevice9 *dev, CreatePlane create, AcqRel acqrel,
                   cl_int invalid_resource) {
  std::string pre = std::string(ext) + ".";
  cl_int err;
  Planar nv;
  if (make_planar(dev, D3DFORMAT(MAKEFOURCC('N', 'V', '1', '2')), 20, &nv, (pre + "nv12.create_surface").c_str())) {
    ULONG start = refs(nv.s);
    cl_mem y = create(ctx, nv.s, 0, &err);
    check(y && err == CL_SUCCESS, (pre + "nv12.plane0").c_str(), "err %d", err);
    cl_mem uv = create(ctx, nv.s, 1, &err);
    check(uv && err == CL_SUCCESS, (pre + "nv12.plane1").c_str(), "err %d", err);
    check(refs(nv.s) == start + 2, (pre + "nv12.two_references").c_str());
    cl_mem p2 = create(ctx, nv.s, 2, &err);
    check(!p2 && err == CL_INVALID_VALUE, (pre + "nv12.plane2_invalid").c_str(), "err %d", err);
    cl_mem again = create(ctx, nv.s, 0, &err);
    check(!again && err == invalid_resource, (pre + "nv12.plane0_twice").c_str(), "err %d", err);
    if (y && uv) {
      check_img(y, CL_R, CL_UNORM_INT8, 16, 8, 0, (pre + "nv12.plane0_R_16x8").c_str());
      check_img(uv, CL_RG, CL_UNORM_INT8, 8, 4, 0, (pre + "nv12.plane1_RG_8x4").c_str());
      cl_mem both[2] = {y, uv};
      expect(acqrel(q, 2, both, true), CL_SUCCESS, (pre + "nv12.acquire_both").c_str());
      auto ry = read_img(q, y, 16, 8, 1, 1, &err);
      auto ruv = read_img(q, uv, 8, 4, 1, 2, &err);
      CHECK_SAME(ry, nv.planes[0], (pre + "nv12.y_d3d_to_cl").c_str());
      CHECK_SAME(ruv, nv.planes[1], (pre + "nv12.uv_d3d_to_cl").c_str());
      auto ny = pattern(16 * 8, 30), nuv = pattern(16 * 4, 31);
      write_img(q, y, 16, 8, 1, ny);
      write_img(q, uv, 8, 4, 1, nuv);
      expect(acqrel(q, 2, both, false), CL_SUCCESS, (pre + "nv12.release_both").c_str());
      cl.clFinish(q);
      std::vector<std::vector<uint8_t>> got;
      d3d9_planar(nv.s, got, false);
      CHECK_SAME(got[0], ny, (pre + "nv12.y_cl_to_d3d").c_str());
      CHECK_SAME(got[1], nuv, (pre + "nv12.uv_cl_to_d3d").c_str());
    }
    if (y) cl.clReleaseMemObject(y);
    if (uv) cl.clReleaseMemObject(uv);
    refs_back(nv.s, start, (pre + "nv12.refcount_back").c_str());
    nv.s->Release();
  }
  Planar yv;
  if (make_planar(dev, D3DFORMAT(MAKEFOURCC('Y', 'V', '1', '2')), 40, &yv, (pre + "yv12.create_surface").c_str())) {
    cl_mem p[3];
    for (UINT i = 0; i < 3; i++) {
      p[i] = create(ctx, yv.s, i, &err);
      check(p[i] && err == CL_SUCCESS, (pre + "yv12.plane" + std::to_string(i)).c_str(), "err %d", err);
    }
    if (p[0] && p[1] && p[2]) {
      check_img(p[1], CL_R, CL_UNORM_INT8, 8, 4, 0, (pre + "yv12.plane1_R_8x4").c_str());
      acqrel(q, 3, p, true);
      auto r1 = read_img(q, p[1], 8, 4, 1, 1, &err);
      // memory order Y, V, U: plane 1 = V
      CHECK_SAME(r1, yv.planes[1], (pre + "yv12.plane1_is_V").c_str());
      auto n2 = pattern(8 * 4, 50);
      write_img(q, p[2], 8, 4, 1, n2);
      acqrel(q, 3, p, false);
      cl.clFinish(q);
      std::vector<std::vector<uint8_t>> got;
      d3d9_planar(yv.s, got, false);
      CHECK_SAME(got[2], n2, (pre + "yv12.plane2_cl_to_d3d").c_str());
      CHECK_SAME(got[0], yv.planes[0], (pre + "yv12.y_untouched").c_str());
    }
    for (cl_mem m : p)
      if (m) cl.clReleaseMemObject(m);
    yv.s->Release();
  }
}

// Direct3D's own reading of an NV12 surface (StretchRect to RGB) against
// what the driver shares as plane 0 / plane 1: an independent check of the
// plane layout (Y at 0, UV at pitch*height).
void nv12_layout_crosscheck(cl_context ctx, cl_command_queue q, cl_mem (*create)(cl_context, IDirect3DSurface9 *, UINT, cl_int *),
                            cl_int (*acqrel)(cl_command_queue, cl_uint, cl_mem *, bool)) {
  IDirect3DSurface9 *s = nullptr, *rt = nullptr;
  HRESULT hr = g_dev9ex->CreateOffscreenPlainSurface(16, 8, D3DFORMAT(MAKEFOURCC('N', 'V', '1', '2')), D3DPOOL_DEFAULT, &s, nullptr);
  hr |= g_dev9ex->CreateRenderTarget(16, 8, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &rt, nullptr);
  if (FAILED(hr)) {
    info("NV12 cross-check: surfaces not creatable (%s)", hr_str(hr).c_str());
    return;
  }
  // Y = 128 everywhere in the top half and 64 in the bottom; U = 90 (blue-ish
  // low), V = 200 (red high)
  std::vector<std::vector<uint8_t>> planes(2);
  planes[0].assign(16 * 8, 128);
  for (size_t i = 16 * 4; i < 16 * 8; i++) planes[0][i] = 64;
  planes[1].resize(16 * 4);
  for (size_t i = 0; i < planes[1].size(); i += 2) {
    planes[1][i] = 90;
    planes[1][i + 1] = 200;
  }
  d3d9_planar(s, planes, true);
  hr = g_dev9ex->StretchRect(s, nullptr, rt, nullptr, D3DTEXF_NONE);
  std::vector<uint8_t> rgb = SUCCEEDED(hr) ? d3d9_read_surface(g_dev9ex, rt, 4) : std::vector<uint8_t>();
  if (rgb.empty()) {
    info("NV12 cross-check: StretchRect NV12 -> X8R8G8B8 not available (%s)", hr_str(hr).c_str());
  } else {
    // BGRX bytes; red must exceed blue (V > U), top brighter than bottom
    uint8_t b = rgb[0], g = rgb[1], r = rgb[2];
    uint8_t r2 = rgb[(16 * 7) * 4 + 2];
    info("NV12 cross-check: Direct3D converts (Y128,U90,V200) to R%u G%u B%u; bottom (Y64) R%u", r, g, b, r2);
    check(r > b + 40 && r > r2, "nv12.layout.direct3d_reads_the_planes_we_wrote");
  }
  cl_int err;
  cl_mem y = create(ctx, s, 0, &err), uv = create(ctx, s, 1, &err);
  if (y && uv) {
    cl_mem both[2] = {y, uv};
    acqrel(q, 2, both, true);
    auto ry = read_img(q, y, 16, 8, 1, 1, &err);
    auto ruv = read_img(q, uv, 8, 4, 1, 2, &err);
    acqrel(q, 2, both, false);
    cl.clFinish(q);
    CHECK_SAME(ry, planes[0], "nv12.layout.cl_plane0_is_y");
    CHECK_SAME(ruv, planes[1], "nv12.layout.cl_plane1_is_uv");
  }
  if (y) cl.clReleaseMemObject(y);
  if (uv) cl.clReleaseMemObject(uv);
  rt->Release();
  s->Release();
  // YV12: memory order Y, V, U (V = 200 in the first chroma plane)
  hr = g_dev9ex->CreateOffscreenPlainSurface(16, 8, D3DFORMAT(MAKEFOURCC('Y', 'V', '1', '2')), D3DPOOL_DEFAULT, &s, nullptr);
  hr |= g_dev9ex->CreateRenderTarget(16, 8, D3DFMT_X8R8G8B8, D3DMULTISAMPLE_NONE, 0, FALSE, &rt, nullptr);
  if (FAILED(hr)) return;
  planes.assign(3, {});
  planes[0].assign(16 * 8, 128);
  planes[1].assign(8 * 4, 200);
  planes[2].assign(8 * 4, 90);
  d3d9_planar(s, planes, true);
  hr = g_dev9ex->StretchRect(s, nullptr, rt, nullptr, D3DTEXF_NONE);
  rgb = SUCCEEDED(hr) ? d3d9_read_surface(g_dev9ex, rt, 4) : std::vector<uint8_t>();
  if (rgb.empty()) {
    info("YV12 cross-check: StretchRect YV12 -> X8R8G8B8 not available (%s)", hr_str(hr).c_str());
  } else {
    info("YV12 cross-check: Direct3D converts (Y128, first chroma plane 200, second 90) to R%u G%u B%u", rgb[2], rgb[1], rgb[0]);
    check(rgb[2] > rgb[0] + 40, "yv12.layout.direct3d_reads_V_then_U");
  }
  rt->Release();
  s->Release();
}

// ========================================= cl_intel_dx9_media_sharing ==
cl_context g_intel_ctx;
cl_mem intel_create(cl_context ctx, IDirect3DSurface9 *s, UINT plane, cl_int *err) {
  return cl.clCreateFromDX9MediaSurfaceINTEL(ctx, CL_MEM_READ_WRITE, s, nullptr, plane, err);
}
cl_int intel_acqrel(cl_command_queue q, cl_uint n, cl_mem *m, bool acquire) {
  return acquire ? cl.clEnqueueAcquireDX9ObjectsINTEL(q, n, m, 0, nullptr, nullptr)
                 : cl.clEnqueueReleaseDX9ObjectsINTEL(q, n, m, 0, nullptr, nullptr);
}

void test_intel() {
  cl_int err;
  cl_uint n = 0;
  err = cl.clGetDeviceIDsFromDX9INTEL(g_platform, CL_D3D9EX_DEVICE_INTEL, g_dev9ex, CL_PREFERRED_DEVICES_FOR_DX9_INTEL, 0, nullptr, &n);
  check(err == CL_SUCCESS && n == 1, "intel.get_device_ids.d3d9ex", "err %d", err);
  err = cl.clGetDeviceIDsFromDX9INTEL(g_platform, CL_D3D9EX_DEVICE_INTEL, g_dev9, CL_ALL_DEVICES_FOR_DX9_INTEL, 0, nullptr, &n);
  expect(err, CL_DEVICE_NOT_FOUND, "intel.get_device_ids.plain_d3d9_is_not_d3d9ex");
  err = cl.clGetDeviceIDsFromDX9INTEL(g_platform, CL_D3D9_DEVICE_INTEL, g_dev9, CL_ALL_DEVICES_FOR_DX9_INTEL, 0, nullptr, &n);
  check(err == CL_SUCCESS && n == 1, "intel.get_device_ids.d3d9", "err %d", err);
  err = cl.clGetDeviceIDsFromDX9INTEL(g_platform, CL_D3D9_DEVICE_INTEL, kBadPtrs[1], CL_ALL_DEVICES_FOR_DX9_INTEL, 0, nullptr, &n);
  expect(err, CL_DEVICE_NOT_FOUND, "intel.get_device_ids.garbage_pointer");
  cl_context bc = make_ctx(CL_CONTEXT_D3D9EX_DEVICE_INTEL, g_dev9, &err);
  check(!bc && err == CL_INVALID_DX9_DEVICE_INTEL, "intel.context.plain_d3d9_as_d3d9ex", "err %d", err);

  ULONG dev_start = refs(g_dev9ex);
  cl_context ctx = make_ctx(CL_CONTEXT_D3D9EX_DEVICE_INTEL, g_dev9ex, &err);
  if (!check(ctx && err == CL_SUCCESS, "intel.context.create", "err %d", err)) return;
  cl_command_queue q = cl.clCreateCommandQueue(ctx, g_device, 0, &err);
  planar_checks("intel", ctx, q, g_dev9ex, intel_create, intel_acqrel, CL_INVALID_DX9_RESOURCE_INTEL);
  nv12_layout_crosscheck(ctx, q, intel_create, intel_acqrel);

  // RGB surface: Intel's table maps A8R8G8B8 to CL_BGRA; info queries
  IDirect3DSurface9 *s = nullptr, *sys = nullptr;
  g_dev9ex->CreateOffscreenPlainSurface(8, 8, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &s, nullptr);
  g_dev9ex->CreateOffscreenPlainSurface(8, 8, D3DFMT_A8R8G8B8, D3DPOOL_SYSTEMMEM, &sys, nullptr);
  HANDLE fake_handle = reinterpret_cast<HANDLE>(0x1234);
  cl_mem m = cl.clCreateFromDX9MediaSurfaceINTEL(ctx, CL_MEM_READ_ONLY, s, fake_handle, 0, &err);
  check(m && err == CL_SUCCESS, "intel.rgb.create", "err %d", err);
  check_img(m, CL_BGRA, CL_UNORM_INT8, 8, 8, 0, "intel.rgb.A8R8G8B8_is_BGRA");
  void *res = nullptr;
  HANDLE h = nullptr;
  UINT plane = 9;
  cl.clGetMemObjectInfo(m, CL_MEM_DX9_RESOURCE_INTEL, sizeof res, &res, nullptr);
  cl.clGetMemObjectInfo(m, CL_MEM_DX9_SHARED_HANDLE_INTEL, sizeof h, &h, nullptr);
  cl.clGetImageInfo(m, CL_IMAGE_DX9_PLANE_INTEL, sizeof plane, &plane, nullptr);
  check(res == s && h == fake_handle && plane == 0, "intel.rgb.info_resource_handle_plane");
  auto v = read_img(q, m, 8, 8, 1, 4, &err);
  expect(err, CL_DX9_RESOURCE_NOT_ACQUIRED_INTEL, "intel.rgb.read_not_acquired");
  cl_mem bad = cl.clCreateFromDX9MediaSurfaceINTEL(ctx, CL_MEM_READ_WRITE, sys, nullptr, 0, &err);
  check(!bad && err == CL_INVALID_DX9_RESOURCE_INTEL, "intel.rgb.systemmem_rejected", "err %d", err);
  IDirect3DSurface9 *other = nullptr;
  g_dev9->CreateOffscreenPlainSurface(8, 8, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &other, nullptr);
  bad = cl.clCreateFromDX9MediaSurfaceINTEL(ctx, CL_MEM_READ_WRITE, other, nullptr, 0, &err);
  check(!bad && err == CL_INVALID_DX9_RESOURCE_INTEL, "intel.rgb.other_device_rejected", "err %d", err);
  bad = cl.clCreateFromDX9MediaSurfaceINTEL(ctx, CL_MEM_READ_WRITE, s, nullptr, 1, &err);
  check(!bad && err == CL_INVALID_VALUE, "intel.rgb.plane1_invalid", "err %d", err);
  cl.clReleaseMemObject(m);
  cl.clReleaseCommandQueue(q);
  cl.clReleaseContext(ctx);
  s->Release();
  sys->Release();
  other->Release();
  refs_back(g_dev9ex, dev_start, "intel.refcount.device");
}

// =========================================== cl_khr_dx9_media_sharing ==
cl_dx9_media_adapter_type_khr g_khr_type = CL_ADAPTER_D3D9EX_KHR;
cl_mem khr_create(cl_context ctx, IDirect3DSurface9 *s, UINT plane, cl_int *err) {
  cl_dx9_surface_info_khr si = {s, nullptr};
  return cl.clCreateFromDX9MediaSurfaceKHR(ctx, CL_MEM_READ_WRITE, g_khr_type, &si, plane, err);
}
cl_int khr_acqrel(cl_command_queue q, cl_uint n, cl_mem *m, bool acquire) {
  return acquire ? cl.clEnqueueAcquireDX9MediaSurfacesKHR(q, n, m, 0, nullptr, nullptr)
                 : cl.clEnqueueReleaseDX9MediaSurfacesKHR(q, n, m, 0, nullptr, nullptr);
}

void test_khr_dx9() {
  cl_int err;
  cl_uint n = 0;
  cl_dx9_media_adapter_type_khr types[2] = {CL_ADAPTER_D3D9EX_KHR, CL_ADAPTER_D3D9_KHR};
  void *adapters[2] = {g_dev9ex, g_dev9};
  err = cl.clGetDeviceIDsFromDX9MediaAdapterKHR(g_platform, 2, types, adapters, CL_PREFERRED_DEVICES_FOR_DX9_MEDIA_ADAPTER_KHR, 0, nullptr, &n);
  check(err == CL_SUCCESS && n == 1, "khr_dx9.get_device_ids.two_adapters", "err %d", err);
  void *bad_adapters[1] = {kBadPtrs[0]};
  err = cl.clGetDeviceIDsFromDX9MediaAdapterKHR(g_platform, 1, types, bad_adapters, CL_ALL_DEVICES_FOR_DX9_MEDIA_ADAPTER_KHR, 0, nullptr, &n);
  // an entry that is not an object of its adapter type is CL_INVALID_VALUE
  expect(err, CL_INVALID_VALUE, "khr_dx9.get_device_ids.garbage_pointer");
  void *d9[1] = {g_dev9};
  err = cl.clGetDeviceIDsFromDX9MediaAdapterKHR(g_platform, 1, types, d9, CL_ALL_DEVICES_FOR_DX9_MEDIA_ADAPTER_KHR, 0, nullptr, &n);
  expect(err, CL_INVALID_VALUE, "khr_dx9.get_device_ids.plain_d3d9_as_d3d9ex");

  ULONG dev_start = refs(g_dev9ex);
  cl_context ctx = make_ctx(CL_CONTEXT_ADAPTER_D3D9EX_KHR, g_dev9ex, &err);
  if (!check(ctx && err == CL_SUCCESS, "khr_dx9.context.create", "err %d", err)) return;
  cl_command_queue q = cl.clCreateCommandQueue(ctx, g_device, 0, &err);
  g_khr_type = CL_ADAPTER_D3D9EX_KHR;
  planar_checks("khr_dx9", ctx, q, g_dev9ex, khr_create, khr_acqrel, CL_INVALID_DX9_MEDIA_SURFACE_KHR);

  IDirect3DSurface9 *s = nullptr;
  g_dev9ex->CreateOffscreenPlainSurface(8, 8, D3DFMT_X8R8G8B8, D3DPOOL_DEFAULT, &s, nullptr);
  cl_dx9_surface_info_khr si = {s, nullptr};
  cl_mem m = cl.clCreateFromDX9MediaSurfaceKHR(ctx, CL_MEM_READ_WRITE, CL_ADAPTER_D3D9_KHR, &si, 0, &err);
  check(m && err == CL_SUCCESS, "khr_dx9.rgb.create_adapter_type_d3d9", "err %d", err);
  check_img(m, CL_BGRA, CL_UNORM_INT8, 8, 8, 0, "khr_dx9.rgb.X8R8G8B8_is_BGRA");
  cl_dx9_surface_info_khr got = {};
  cl_dx9_media_adapter_type_khr at = 0;
  cl_uint plane = 9;
  cl.clGetMemObjectInfo(m, CL_MEM_DX9_MEDIA_SURFACE_INFO_KHR, sizeof got, &got, nullptr);
  cl.clGetMemObjectInfo(m, CL_MEM_DX9_MEDIA_ADAPTER_TYPE_KHR, sizeof at, &at, nullptr);
  cl.clGetImageInfo(m, CL_IMAGE_DX9_MEDIA_PLANE_KHR, sizeof plane, &plane, nullptr);
  check(got.resource == s && got.shared_handle == nullptr && at == CL_ADAPTER_D3D9_KHR && plane == 0, "khr_dx9.rgb.info_surface_info_type_plane");
  cl_mem bad = cl.clCreateFromDX9MediaSurfaceKHR(ctx, CL_MEM_READ_WRITE, CL_ADAPTER_DXVA_KHR, &si, 0, &err);
  check(!bad && err == CL_INVALID_DX9_MEDIA_SURFACE_KHR, "khr_dx9.rgb.adapter_type_dxva_not_associated", "err %d", err);
  cl_dx9_surface_info_khr garbage = {static_cast<IDirect3DSurface9 *>(kBadPtrs[1]), nullptr};
  bad = cl.clCreateFromDX9MediaSurfaceKHR(ctx, CL_MEM_READ_WRITE, CL_ADAPTER_D3D9EX_KHR, &garbage, 0, &err);
  check(!bad && err == CL_INVALID_DX9_MEDIA_SURFACE_KHR, "khr_dx9.garbage_surface", "err %d", err);
  // acquire / release of a KHR object through the Intel entry point
  expect(cl.clEnqueueAcquireDX9ObjectsINTEL(q, 1, &m, 0, nullptr, nullptr), CL_INVALID_CONTEXT, "khr_dx9.intel_acquire_on_khr_context");
  expect(khr_acqrel(q, 1, &m, true), CL_SUCCESS, "khr_dx9.rgb.acquire");
  expect(khr_acqrel(q, 1, &m, true), CL_DX9_MEDIA_SURFACE_ALREADY_ACQUIRED_KHR, "khr_dx9.rgb.acquire_twice");
  expect(khr_acqrel(q, 1, &m, false), CL_SUCCESS, "khr_dx9.rgb.release");
  cl.clReleaseMemObject(m);
  cl.clReleaseCommandQueue(q);
  cl.clReleaseContext(ctx);
  s->Release();
  refs_back(g_dev9ex, dev_start, "khr_dx9.refcount.device");
}

// =========================================================== DXVA ==
void test_dxva() {
  HMODULE dxva2 = LoadLibraryW(L"dxva2.dll");
  using CreateMgr = HRESULT(WINAPI *)(UINT *, IDirect3DDeviceManager9 **);
  using CreateHD = HRESULT(WINAPI *)(IDirect3DDevice9Ex *, const DXVAHD_CONTENT_DESC *, DXVAHD_DEVICE_USAGE, PDXVAHDSW_Plugin, IDXVAHD_Device **);
  auto create_mgr =
      dxva2 ? reinterpret_cast<CreateMgr>(reinterpret_cast<void *>(GetProcAddress(dxva2, "DXVA2CreateDirect3DDeviceManager9"))) : nullptr;
  auto create_hd = dxva2 ? reinterpret_cast<CreateHD>(reinterpret_cast<void *>(GetProcAddress(dxva2, "DXVAHD_CreateDevice"))) : nullptr;
  // IDXVAHD_Device (what the specs name for the DXVA adapter type)
  IDXVAHD_Device *hd = nullptr;
  HRESULT hr = E_NOTIMPL;
  if (create_hd) {
    DXVAHD_CONTENT_DESC cd = {};
    cd.InputFrameFormat = DXVAHD_FRAME_FORMAT_PROGRESSIVE;
    cd.InputFrameRate = {30, 1};
    cd.InputWidth = cd.OutputWidth = 16;
    cd.InputHeight = cd.OutputHeight = 8;
    cd.OutputFrameRate = {30, 1};
    hr = create_hd(g_dev9ex, &cd, DXVAHD_DEVICE_USAGE_PLAYBACK_NORMAL, nullptr, &hd);
  }
  if (FAILED(hr) || !hd) {
    info("DXVAHD_CreateDevice is not available here (%s): IDXVAHD_Device contexts not tested", hr_str(hr).c_str());
  } else {
    cl_int err;
    ULONG start = refs(hd);
    cl_context ctx = make_ctx(CL_CONTEXT_DXVA_DEVICE_INTEL, hd, &err);
    check(ctx && err == CL_SUCCESS, "dxva.dxvahd.intel_context", "err %d", err);
    if (ctx) cl.clReleaseContext(ctx);
    refs_back(hd, start, "dxva.dxvahd.refcount");
    hd->Release();
  }
  // IDirect3DDeviceManager9 (DXVA2's device handle)
  IDirect3DDeviceManager9 *mgr = nullptr;
  UINT token = 0;
  hr = create_mgr ? create_mgr(&token, &mgr) : E_NOTIMPL;
  if (!check(SUCCEEDED(hr) && mgr, "dxva.device_manager.create", "%s", hr_str(hr).c_str())) return;
  hr = mgr->ResetDevice(g_dev9ex, token);
  if (!check(SUCCEEDED(hr), "dxva.device_manager.reset_device", "%s", hr_str(hr).c_str())) {
    mgr->Release();
    return;
  }
  cl_int err;
  cl_uint n = 0;
  cl_dx9_media_adapter_type_khr t = CL_ADAPTER_DXVA_KHR;
  void *a[1] = {mgr};
  err = cl.clGetDeviceIDsFromDX9MediaAdapterKHR(g_platform, 1, &t, a, CL_ALL_DEVICES_FOR_DX9_MEDIA_ADAPTER_KHR, 0, nullptr, &n);
  check(err == CL_SUCCESS && n == 1, "dxva.khr.get_device_ids", "err %d", err);
  err = cl.clGetDeviceIDsFromDX9INTEL(g_platform, CL_DXVA_DEVICE_INTEL, mgr, CL_ALL_DEVICES_FOR_DX9_INTEL, 0, nullptr, &n);
  check(err == CL_SUCCESS && n == 1, "dxva.intel.get_device_ids", "err %d", err);
  ULONG mgr_start = refs(mgr);
  cl_context ctx = make_ctx(CL_CONTEXT_ADAPTER_DXVA_KHR, mgr, &err);
  if (check(ctx && err == CL_SUCCESS, "dxva.khr.context", "err %d", err)) {
    cl_command_queue q = cl.clCreateCommandQueue(ctx, g_device, 0, &err);
    g_khr_type = CL_ADAPTER_DXVA_KHR;
    planar_checks("dxva.khr", ctx, q, g_dev9ex, khr_create, khr_acqrel, CL_INVALID_DX9_MEDIA_SURFACE_KHR);
    IDirect3DSurface9 *s = nullptr;
    g_dev9ex->CreateOffscreenPlainSurface(8, 8, D3DFMT_A8R8G8B8, D3DPOOL_DEFAULT, &s, nullptr);
    cl_dx9_surface_info_khr si = {s, nullptr};
    cl_mem bad = cl.clCreateFromDX9MediaSurfaceKHR(ctx, CL_MEM_READ_WRITE, CL_ADAPTER_D3D9EX_KHR, &si, 0, &err);
    check(!bad && err == CL_INVALID_DX9_MEDIA_SURFACE_KHR, "dxva.khr.adapter_type_d3d9ex_on_dxva_context", "err %d", err);
    s->Release();
    cl.clReleaseCommandQueue(q);
    cl.clReleaseContext(ctx);
  }
  cl_context ictx = make_ctx(CL_CONTEXT_DXVA_DEVICE_INTEL, mgr, &err);
  if (check(ictx && err == CL_SUCCESS, "dxva.intel.context", "err %d", err)) {
    cl_command_queue q = cl.clCreateCommandQueue(ictx, g_device, 0, &err);
    Planar nv;
    if (make_planar(g_dev9ex, D3DFORMAT(MAKEFOURCC('N', 'V', '1', '2')), 60, &nv, "dxva.intel.nv12_surface")) {
      cl_mem y = intel_create(ictx, nv.s, 0, &err);
      check(y && err == CL_SUCCESS, "dxva.intel.nv12_plane0", "err %d", err);
      if (y) {
        intel_acqrel(q, 1, &y, true);
        auto ry = read_img(q, y, 16, 8, 1, 1, &err);
        CHECK_SAME(ry, nv.planes[0], "dxva.intel.nv12_y_d3d_to_cl");
        intel_acqrel(q, 1, &y, false);
        cl.clFinish(q);
        cl.clReleaseMemObject(y);
      }
      nv.s->Release();
    }
    cl.clReleaseCommandQueue(q);
    cl.clReleaseContext(ictx);
  }
  refs_back(mgr, mgr_start, "dxva.refcount.device_manager");
  mgr->Release();
  g_khr_type = CL_ADAPTER_D3D9EX_KHR;
}

// ================================================ cl_khr_d3d10_sharing ==
void test_d3d10() {
  ID3D10Device *dev = g_dev10;
  cl_int err;
  cl_uint n = 0;
  err = cl.clGetDeviceIDsFromD3D10KHR(g_platform, CL_D3D10_DEVICE_KHR, dev, CL_PREFERRED_DEVICES_FOR_D3D10_KHR, 0, nullptr, &n);
  check(err == CL_SUCCESS && n == 1, "d3d10.get_device_ids.device", "err %d", err);
  IDXGIDevice *dxgi = nullptr;
  IDXGIAdapter *adapter = nullptr;
  if (SUCCEEDED(dev->QueryInterface(__uuidof(IDXGIDevice), reinterpret_cast<void **>(&dxgi))) && dxgi) {
    dxgi->GetAdapter(&adapter);
    dxgi->Release();
  }
  if (adapter) {
    err = cl.clGetDeviceIDsFromD3D10KHR(g_platform, CL_D3D10_DXGI_ADAPTER_KHR, adapter, CL_ALL_DEVICES_FOR_D3D10_KHR, 0, nullptr, &n);
    check(err == CL_SUCCESS && n == 1, "d3d10.get_device_ids.dxgi_adapter", "err %d", err);
    err = cl.clGetDeviceIDsFromD3D10KHR(g_platform, CL_D3D10_DEVICE_KHR, adapter, CL_ALL_DEVICES_FOR_D3D10_KHR, 0, nullptr, &n);
    expect(err, CL_DEVICE_NOT_FOUND, "d3d10.get_device_ids.adapter_is_not_a_device");
    adapter->Release();
  } else {
    check(false, "d3d10.get_device_ids.dxgi_adapter", "no adapter from IDXGIDevice");
  }
  err = cl.clGetDeviceIDsFromD3D10KHR(g_platform, CL_D3D10_DEVICE_KHR, g_dev9ex, CL_ALL_DEVICES_FOR_D3D10_KHR, 0, nullptr, &n);
  expect(err, CL_DEVICE_NOT_FOUND, "d3d10.get_device_ids.d3d9_device");
  err = cl.clGetDeviceIDsFromD3D10KHR(g_platform, CL_D3D10_DEVICE_KHR, kBadPtrs[0], CL_ALL_DEVICES_FOR_D3D10_KHR, 0, nullptr, &n);
  expect(err, CL_DEVICE_NOT_FOUND, "d3d10.get_device_ids.garbage_pointer");
  cl_context bc = make_ctx(CL_CONTEXT_D3D10_DEVICE_KHR, g_dev9ex, &err);
  check(!bc && err == CL_INVALID_D3D10_DEVICE_KHR, "d3d10.context.d3d9_device_rejected", "err %d", err);

  // resources
  auto b0 = pattern(256, 70);
  D3D10_SUBRESOURCE_DATA init = {b0.data(), 0, 0};
  D3D10_BUFFER_DESC bd = {256, D3D10_USAGE_DEFAULT, D3D10_BIND_VERTEX_BUFFER, 0, 0};
  ID3D10Buffer *buf = nullptr, *dyn = nullptr, *imm = nullptr;
  HRESULT hr = dev->CreateBuffer(&bd, &init, &buf);
  D3D10_BUFFER_DESC dd = {256, D3D10_USAGE_DYNAMIC, D3D10_BIND_VERTEX_BUFFER, D3D10_CPU_ACCESS_WRITE, 0};
  hr |= dev->CreateBuffer(&dd, &init, &dyn);
  D3D10_BUFFER_DESC id = {256, D3D10_USAGE_IMMUTABLE, D3D10_BIND_VERTEX_BUFFER, 0, 0};
  hr |= dev->CreateBuffer(&id, &init, &imm);
  // 2D: 16x8, 2 mips, 2 slices; subresource 3 = mip 1 of slice 1 (8x4)
  std::vector<std::vector<uint8_t>> tinit;
  D3D10_SUBRESOURCE_DATA tdata[4];
  for (UINT s = 0; s < 4; s++) {
    UINT w = (s % 2) ? 8 : 16, h = (s % 2) ? 4 : 8;
    tinit.push_back(pattern(w * h * 4, 80 + int(s)));
    tdata[s] = {tinit.back().data(), w * 4, 0};
  }
  for (UINT s = 0; s < 4; s++) tdata[s].pSysMem = tinit[s].data();
  D3D10_TEXTURE2D_DESC td = {};
  td.Width = 16;
  td.Height = 8;
  td.MipLevels = 2;
  td.ArraySize = 2;
  td.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
  td.SampleDesc.Count = 1;
  td.Usage = D3D10_USAGE_DEFAULT;
  td.BindFlags = D3D10_BIND_SHADER_RESOURCE | D3D10_BIND_RENDER_TARGET;
  ID3D10Texture2D *tex = nullptr, *stg = nullptr, *other = nullptr, *r10 = nullptr, *msaa = nullptr;
  hr |= dev->CreateTexture2D(&td, tdata, &tex);
  D3D10_TEXTURE2D_DESC sd = td;
  sd.MipLevels = sd.ArraySize = 1;
  sd.Usage = D3D10_USAGE_STAGING;
  sd.BindFlags = 0;
  sd.CPUAccessFlags = D3D10_CPU_ACCESS_READ | D3D10_CPU_ACCESS_WRITE;
  hr |= dev->CreateTexture2D(&sd, tdata, &stg);
  D3D10_TEXTURE2D_DESC od = td;
  od.MipLevels = od.ArraySize = 1;
  hr |= g_dev10b->CreateTexture2D(&od, nullptr, &other);
  D3D10_TEXTURE2D_DESC rd = od;
  rd.Format = DXGI_FORMAT_R10G10B10A2_UNORM;
  hr |= dev->CreateTexture2D(&rd, nullptr, &r10);
  auto v3 = pattern(4 * 4 * 2 * 4, 90);
  D3D10_SUBRESOURCE_DATA d3init = {v3.data(), 16, 64};
  D3D10_TEXTURE3D_DESC t3 = {4, 4, 2, 1, DXGI_FORMAT_R32_FLOAT, D3D10_USAGE_DEFAULT, D3D10_BIND_SHADER_RESOURCE, 0, 0};
  ID3D10Texture3D *tex3 = nullptr;
  hr |= dev->CreateTexture3D(&t3, &d3init, &tex3);
  if (!check(SUCCEEDED(hr), "d3d10.setup.resources", "%s", hr_str(hr).c_str())) return;
  UINT quality = 0;
  if (SUCCEEDED(dev->CheckMultisampleQualityLevels(DXGI_FORMAT_R8G8B8A8_UNORM, 4, &quality)) && quality) {
    D3D10_TEXTURE2D_DESC md = od;
    md.SampleDesc.Count = 4;
    md.BindFlags = D3D10_BIND_RENDER_TARGET;
    dev->CreateTexture2D(&md, nullptr, &msaa);
  }

  IUnknown *objs[] = {dev, buf, dyn, tex, stg, tex3};
  ULONG start[6];
  for (int i = 0; i < 6; i++) start[i] = refs(objs[i]);
  cl_context ctx = make_ctx(CL_CONTEXT_D3D10_DEVICE_KHR, dev, &err);
  if (!check(ctx && err == CL_SUCCESS, "d3d10.context.create", "err %d", err)) return;
  check(refs(dev) == start[0] + 1, "d3d10.context.adds_device_reference");
  cl_command_queue q = cl.clCreateCommandQueue(ctx, g_device, 0, &err);

  // --- DEFAULT buffer: staging copies both ways ---
  cl_mem mb = cl.clCreateFromD3D10BufferKHR(ctx, CL_MEM_READ_WRITE, buf, &err);
  check(mb && err == CL_SUCCESS, "d3d10.buffer.create", "err %d", err);
  check(refs(buf) == start[1] + 1, "d3d10.buffer.create_adds_reference");
  void *back = nullptr;
  err = cl.clGetMemObjectInfo(mb, CL_MEM_D3D10_RESOURCE_KHR, sizeof back, &back, nullptr);
  check(err == CL_SUCCESS && back == buf, "d3d10.buffer.info_resource_is_app_pointer");
  cl_mem bad = cl.clCreateFromD3D10BufferKHR(ctx, CL_MEM_READ_WRITE, buf, &err);
  check(!bad && err == CL_INVALID_D3D10_RESOURCE_KHR, "d3d10.buffer.second_create_fails", "err %d", err);
  bad = cl.clCreateFromD3D10BufferKHR(ctx, CL_MEM_READ_WRITE, imm, &err);
  check(!bad && err == CL_INVALID_D3D10_RESOURCE_KHR, "d3d10.buffer.immutable_rejected", "err %d", err);
  bad = cl.clCreateFromD3D10BufferKHR(ctx, CL_MEM_READ_WRITE, reinterpret_cast<ID3D10Buffer *>(tex), &err);
  check(!bad && err == CL_INVALID_D3D10_RESOURCE_KHR, "d3d10.buffer.texture_is_not_a_buffer", "err %d", err);
  std::vector<uint8_t> rb(256);
  err = cl.clEnqueueReadBuffer(q, mb, CL_TRUE, 0, 256, rb.data(), 0, nullptr, nullptr);
  expect(err, CL_D3D10_RESOURCE_NOT_ACQUIRED_KHR, "d3d10.buffer.read_not_acquired");
  expect(cl.clEnqueueAcquireD3D10ObjectsKHR(q, 1, &mb, 0, nullptr, nullptr), CL_SUCCESS, "d3d10.buffer.acquire");
  expect(cl.clEnqueueAcquireD3D10ObjectsKHR(q, 1, &mb, 0, nullptr, nullptr), CL_D3D10_RESOURCE_ALREADY_ACQUIRED_KHR, "d3d10.buffer.acquire_twice");
  err = cl.clEnqueueReadBuffer(q, mb, CL_TRUE, 0, 256, rb.data(), 0, nullptr, nullptr);
  CHECK_SAME(rb, b0, "d3d10.buffer.d3d_to_cl_CopyResource_staging");
  auto b1 = pattern(256, 71);
  cl.clEnqueueWriteBuffer(q, mb, CL_FALSE, 0, 256, b1.data(), 0, nullptr, nullptr);
  expect(cl.clEnqueueReleaseD3D10ObjectsKHR(q, 1, &mb, 0, nullptr, nullptr), CL_SUCCESS, "d3d10.buffer.release");
  expect(cl.clEnqueueReleaseD3D10ObjectsKHR(q, 1, &mb, 0, nullptr, nullptr), CL_D3D10_RESOURCE_NOT_ACQUIRED_KHR, "d3d10.buffer.release_twice");
  cl.clFinish(q);
  CHECK_SAME(d3d10_read(dev, buf, 0, 256, 1, 1), b1, "d3d10.buffer.cl_to_d3d_staging_copy");

  // --- DYNAMIC buffer: Map(WRITE_DISCARD) at release ---
  cl_mem mdy = cl.clCreateFromD3D10BufferKHR(ctx, CL_MEM_READ_WRITE, dyn, &err);
  check(mdy && err == CL_SUCCESS, "d3d10.dynamic_buffer.create", "err %d", err);
  cl.clEnqueueAcquireD3D10ObjectsKHR(q, 1, &mdy, 0, nullptr, nullptr);
  cl.clEnqueueReadBuffer(q, mdy, CL_TRUE, 0, 256, rb.data(), 0, nullptr, nullptr);
  CHECK_SAME(rb, b0, "d3d10.dynamic_buffer.d3d_to_cl");
  auto b2 = pattern(256, 72);
  cl.clEnqueueWriteBuffer(q, mdy, CL_FALSE, 0, 256, b2.data(), 0, nullptr, nullptr);
  cl.clEnqueueReleaseD3D10ObjectsKHR(q, 1, &mdy, 0, nullptr, nullptr);
  cl.clFinish(q);
  CHECK_SAME(d3d10_read(dev, dyn, 0, 256, 1, 1), b2, "d3d10.dynamic_buffer.cl_to_d3d_Map_WRITE_DISCARD");

  // --- Texture2D subresource 3 (mip 1, slice 1) ---
  cl_mem mt = cl.clCreateFromD3D10Texture2DKHR(ctx, CL_MEM_READ_WRITE, tex, 3, &err);
  check(mt && err == CL_SUCCESS, "d3d10.texture2d.create_subresource3", "err %d", err);
  check_img(mt, CL_RGBA, CL_UNORM_INT8, 8, 4, 0, "d3d10.texture2d.R8G8B8A8_UNORM_is_RGBA_8x4");
  UINT sub = 99;
  err = cl.clGetImageInfo(mt, CL_IMAGE_D3D10_SUBRESOURCE_KHR, sizeof sub, &sub, nullptr);
  check(err == CL_SUCCESS && sub == 3, "d3d10.texture2d.info_subresource", "err %d sub %u", err, sub);
  back = nullptr;
  cl.clGetMemObjectInfo(mt, CL_MEM_D3D10_RESOURCE_KHR, sizeof back, &back, nullptr);
  check(back == tex, "d3d10.texture2d.info_resource");
  err = cl.clGetImageInfo(mb, CL_IMAGE_D3D10_SUBRESOURCE_KHR, sizeof sub, &sub, nullptr);
  check(err != CL_SUCCESS, "d3d10.buffer.info_subresource_rejected", "err %d", err);
  bad = cl.clCreateFromD3D10Texture2DKHR(ctx, CL_MEM_READ_WRITE, tex, 4, &err);
  check(!bad && err == CL_INVALID_VALUE, "d3d10.texture2d.bad_subresource", "err %d", err);
  bad = cl.clCreateFromD3D10Texture2DKHR(ctx, CL_MEM_READ_WRITE, tex, 3, &err);
  check(!bad && err == CL_INVALID_D3D10_RESOURCE_KHR, "d3d10.texture2d.subresource_twice", "err %d", err);
  bad = cl.clCreateFromD3D10Texture2DKHR(ctx, CL_MEM_READ_WRITE, other, 0, &err);
  check(!bad && err == CL_INVALID_D3D10_RESOURCE_KHR, "d3d10.texture2d.other_device_rejected", "err %d", err);
  bad = cl.clCreateFromD3D10Texture2DKHR(ctx, CL_MEM_READ_WRITE, r10, 0, &err);
  check(!bad && err == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "d3d10.texture2d.R10G10B10A2_not_in_table", "err %d", err);
  if (msaa) {
    bad = cl.clCreateFromD3D10Texture2DKHR(ctx, CL_MEM_READ_WRITE, msaa, 0, &err);
    check(!bad && err == CL_INVALID_D3D10_RESOURCE_KHR, "d3d10.texture2d.multisampled_rejected", "err %d", err);
  } else {
    info("no 4x MSAA R8G8B8A8 support on this D3D10 device: multisample check skipped");
  }
  for (void *bp : kBadPtrs) {
    bad = cl.clCreateFromD3D10Texture2DKHR(ctx, CL_MEM_READ_WRITE, static_cast<ID3D10Texture2D *>(bp), 0, &err);
    check(!bad && err == CL_INVALID_D3D10_RESOURCE_KHR, "d3d10.texture2d.garbage_pointer", "err %d", err);
  }
  cl.clEnqueueAcquireD3D10ObjectsKHR(q, 1, &mt, 0, nullptr, nullptr);
  auto v = read_img(q, mt, 8, 4, 1, 4, &err);
  CHECK_SAME(v, tinit[3], "d3d10.texture2d.d3d_to_cl_CopySubresourceRegion");
  auto src0 = pattern(8 * 4 * 4, 73);
  cl_mem src = plain_image(ctx, {CL_RGBA, CL_UNORM_INT8}, 8, 4, src0);
  expect(run_invert(ctx, q, src, mt, 8, 4), CL_SUCCESS, "d3d10.texture2d.invert_image_kernel");
  cl.clEnqueueReleaseD3D10ObjectsKHR(q, 1, &mt, 0, nullptr, nullptr);
  cl.clFinish(q);
  CHECK_SAME(d3d10_read(dev, tex, 3, 32, 4, 1), inverted(src0), "d3d10.texture2d.kernel_result_visible_in_d3d");
  CHECK_SAME(d3d10_read(dev, tex, 2, 64, 8, 1), tinit[2], "d3d10.texture2d.other_subresource_untouched");

  // --- STAGING texture: direct Map both ways ---
  cl_mem ms = cl.clCreateFromD3D10Texture2DKHR(ctx, CL_MEM_READ_WRITE, stg, 0, &err);
  check(ms && err == CL_SUCCESS, "d3d10.staging_texture.create", "err %d", err);
  cl.clEnqueueAcquireD3D10ObjectsKHR(q, 1, &ms, 0, nullptr, nullptr);
  v = read_img(q, ms, 16, 8, 1, 4, &err);
  CHECK_SAME(v, tinit[0], "d3d10.staging_texture.d3d_to_cl_Map");
  auto s1 = pattern(16 * 8 * 4, 74);
  write_img(q, ms, 16, 8, 1, s1);
  cl.clEnqueueReleaseD3D10ObjectsKHR(q, 1, &ms, 0, nullptr, nullptr);
  cl.clFinish(q);
  std::vector<uint8_t> sv(s1.size());
  D3D10_MAPPED_TEXTURE2D mp;
  if (SUCCEEDED(stg->Map(0, D3D10_MAP_READ, 0, &mp))) {
    get_rows(sv.data(), static_cast<uint8_t *>(mp.pData), mp.RowPitch, 64, 8);
    stg->Unmap(0);
  }
  CHECK_SAME(sv, s1, "d3d10.staging_texture.cl_to_d3d_Map");

  // --- Texture3D (R32_FLOAT) ---
  cl_mem m3 = cl.clCreateFromD3D10Texture3DKHR(ctx, CL_MEM_READ_WRITE, tex3, 0, &err);
  check(m3 && err == CL_SUCCESS, "d3d10.texture3d.create", "err %d", err);
  check_img(m3, CL_R, CL_FLOAT, 4, 4, 2, "d3d10.texture3d.R32_FLOAT_is_R_FLOAT_4x4x2");
  bad = cl.clCreateFromD3D10Texture3DKHR(ctx, CL_MEM_READ_WRITE, tex3, 1, &err);
  check(!bad && err == CL_INVALID_VALUE, "d3d10.texture3d.bad_subresource", "err %d", err);
  bad = cl.clCreateFromD3D10Texture3DKHR(ctx, CL_MEM_READ_WRITE, reinterpret_cast<ID3D10Texture3D *>(tex), 0, &err);
  check(!bad && err == CL_INVALID_D3D10_RESOURCE_KHR, "d3d10.texture3d.texture2d_rejected", "err %d", err);
  cl.clEnqueueAcquireD3D10ObjectsKHR(q, 1, &m3, 0, nullptr, nullptr);
  v = read_img(q, m3, 4, 4, 2, 4, &err);
  CHECK_SAME(v, v3, "d3d10.texture3d.d3d_to_cl");
  auto w3 = pattern(v3.size(), 91);
  write_img(q, m3, 4, 4, 2, w3);
  cl.clEnqueueReleaseD3D10ObjectsKHR(q, 1, &m3, 0, nullptr, nullptr);
  cl.clFinish(q);
  CHECK_SAME(d3d10_read(dev, tex3, 0, 16, 4, 2), w3, "d3d10.texture3d.cl_to_d3d");

  // acquire of a D3D10 object through the NV entry point
  expect(cl.clEnqueueAcquireD3D9ObjectsNV(q, 1, &mb, 0, nullptr, nullptr), CL_INVALID_CONTEXT, "d3d10.nv_acquire_on_d3d10_context");

  for (cl_mem m : {mb, mdy, mt, ms, m3, src}) cl.clReleaseMemObject(m);
  cl.clReleaseCommandQueue(q);
  cl.clReleaseContext(ctx);
  const char *names[] = {"d3d10.refcount.device",    "d3d10.refcount.buffer",          "d3d10.refcount.dynamic_buffer",
                         "d3d10.refcount.texture2d", "d3d10.refcount.staging_texture", "d3d10.refcount.texture3d"};
  for (int i = 0; i < 6; i++) refs_back(objs[i], start[i], names[i]);
  for (IUnknown *o : std::initializer_list<IUnknown *>{buf, dyn, imm, tex, stg, other, r10, tex3}) o->Release();
  if (msaa) msaa->Release();
}

// the simulation's handles (control API) still work in the Windows build
void test_sim(HMODULE dll) {
  using CreateDev = int (*)(void *, int, void **);
  using CreateSurf = int (*)(void *, uint32_t, uint32_t, uint32_t, uint32_t, int, void **, void **);
  using Rel = int (*)(void *, uint32_t *);
  auto create_dev = reinterpret_cast<CreateDev>(reinterpret_cast<void *>(GetProcAddress(dll, "refdrv_d3d9_create_device")));
  auto create_surf = reinterpret_cast<CreateSurf>(reinterpret_cast<void *>(GetProcAddress(dll, "refdrv_d3d9_create_surface")));
  auto rel = reinterpret_cast<Rel>(reinterpret_cast<void *>(GetProcAddress(dll, "refdrv_release")));
  if (!check(create_dev && create_surf && rel, "sim.control_api_exported")) return;
  void *dev = nullptr, *surf = nullptr;
  create_dev(nullptr, 1, &dev);
  create_surf(dev, 21 /* A8R8G8B8 */, 8, 4, 0, 0, &surf, nullptr);
  cl_int err;
  cl_context ctx = make_ctx(CL_CONTEXT_D3D9_DEVICE_NV, dev, &err);
  check(ctx && err == CL_SUCCESS, "sim.nv_context_on_simulated_device", "err %d", err);
  if (ctx) {
    cl_mem m = cl.clCreateFromD3D9SurfaceNV(ctx, CL_MEM_READ_WRITE, static_cast<IDirect3DSurface9 *>(surf), &err);
    check(m && err == CL_SUCCESS, "sim.nv_create_from_simulated_surface", "err %d", err);
    cl_command_queue q = cl.clCreateCommandQueue(ctx, g_device, 0, &err);
    if (m) {
      expect(cl.clEnqueueAcquireD3D9ObjectsNV(q, 1, &m, 0, nullptr, nullptr), CL_SUCCESS, "sim.acquire");
      auto p = pattern(8 * 4 * 4, 99);
      expect(write_img(q, m, 8, 4, 1, p), CL_SUCCESS, "sim.write_image");
      expect(cl.clEnqueueReleaseD3D9ObjectsNV(q, 1, &m, 0, nullptr, nullptr), CL_SUCCESS, "sim.release");
      cl.clFinish(q);
      cl.clReleaseMemObject(m);
    }
    cl.clReleaseCommandQueue(q);
    cl.clReleaseContext(ctx);
  }
  uint32_t left = 99;
  rel(surf, &left);
  check(left == 0, "sim.surface_released", "refcount %u", left);
  rel(dev, &left);
  check(left == 0, "sim.device_released", "refcount %u", left);
}

}  // namespace

int main(int argc, char **argv) {
  std::string path;
  if (argc > 1) {
    path = argv[1];
  } else {
    char exe[MAX_PATH];
    GetModuleFileNameA(nullptr, exe, MAX_PATH);
    path = exe;
    size_t slash = path.find_last_of("\\/");
    path = (slash == std::string::npos ? std::string() : path.substr(0, slash + 1)) + "ocl_interop_refdriver.dll";
  }
  HMODULE dll = LoadLibraryA(path.c_str());
  if (!check(dll != nullptr, "setup.load_driver", "%s (error %lu)", path.c_str(), GetLastError())) return 1;
#define T_LOAD(ret, name, args) cl.name = reinterpret_cast<decltype(cl.name)>(reinterpret_cast<void *>(GetProcAddress(dll, #name)));
  REFDRV_TEST_CORE_FUNCS(T_LOAD)
#undef T_LOAD
  cl_uint np = 0;
  cl_int err = cl.clGetPlatformIDs ? cl.clGetPlatformIDs(1, &g_platform, &np) : CL_INVALID_OPERATION;
  if (!check(err == CL_SUCCESS && np >= 1, "setup.clGetPlatformIDs", "err %d", err)) return 1;
  cl.clGetDeviceIDs(g_platform, CL_DEVICE_TYPE_ALL, 1, &g_device, nullptr);
  int missing = 0;
#define T_EXT(ret, name, args)                                                                                   \
  cl.name = reinterpret_cast<decltype(cl.name)>(cl.clGetExtensionFunctionAddressForPlatform(g_platform, #name)); \
  if (!cl.name) missing++;
  REFDRV_TEST_SHARING_FUNCS(T_EXT)
#undef T_EXT
  check(missing == 0, "setup.all_27_extension_functions", "%d missing", missing);
  char ext[1024] = "";
  cl.clGetPlatformInfo(g_platform, CL_PLATFORM_EXTENSIONS, sizeof ext, ext, nullptr);
  check(strstr(ext, "cl_nv_d3d9_sharing") && strstr(ext, "cl_khr_d3d10_sharing") && strstr(ext, "cl_intel_dx9_media_sharing") &&
            strstr(ext, "cl_khr_dx9_media_sharing"),
        "setup.platform_extensions", "%s", ext);
  if (missing || !create_devices()) {
    printf("SUMMARY: %d passed, %d failed\n", g_pass, g_fail);
    return 1;
  }
  ULONG dev9ex_start = refs(g_dev9ex), dev10_start = refs(g_dev10);
  test_nv();
  test_intel();
  test_khr_dx9();
  test_dxva();
  test_d3d10();
  test_sim(dll);
  refs_back(g_dev9ex, dev9ex_start, "final.refcount.d3d9ex_device");
  refs_back(g_dev10, dev10_start, "final.refcount.d3d10_device");
  g_dev10b->Release();
  g_dev10->Release();
  g_dev9->Release();
  g_d3d9->Release();
  g_dev9ex->Release();
  g_d3d9ex->Release();
  DestroyWindow(g_hwnd);
  printf("SUMMARY: %d passed, %d failed, %d info\n", g_pass, g_fail, g_info);
  fflush(stdout);
  return g_fail ? 1 : 0;
}
