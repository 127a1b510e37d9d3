// cl_khr_d3d11_sharing and cl_nv_d3d11_sharing: Direct3D 11 buffers, 2D and 3D
// textures. One class for both: the record gives the KHR or the NV entry point names.
#include "interop/direct3d_sharing.h"

namespace ocl {
namespace {
constexpr Direct3DNames kD3D11{"NativeD3D11Sharing", "D3D11 object"};
}  // namespace

void InitD3D11(Napi::Env env, Napi::Object exports) { NativeDirect3DSharing<kD3D11>::Init(env, exports); }

}  // namespace ocl
