// cl_khr_d3d10_sharing: Direct3D 10 buffers, 2D and 3D textures.
#include "interop/direct3d_sharing.h"

namespace ocl {
namespace {
constexpr Direct3DNames kD3D10{"NativeD3D10Sharing", "D3D10 object"};
}  // namespace

void InitD3D10(Napi::Env env, Napi::Object exports) { NativeDirect3DSharing<kD3D10>::Init(env, exports); }

}  // namespace ocl
