// cl_khr_d3d10_sharing: Direct3D 10 buffers, 2D and 3D textures.
#include "interop/direct3d_sharing.h"

namespace ocl {
namespace {

struct D3D10Names {
  static constexpr const char* kClass = "NativeD3D10Sharing";
  static constexpr const char* kObject = "D3D10 object";
};

}  // namespace

void InitD3D10(Napi::Env env, Napi::Object exports) { NativeDirect3DSharing<D3D10Names>::Init(env, exports); }

}  // namespace ocl
