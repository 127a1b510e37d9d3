#!/usr/bin/env bash
# Run on the GPU machine, in the repository's root, with what
# scripts/gpu/pack-for-gpu-machine.sh gathered beside it: puts node and the Vulkan loader in
# place where they are missing, points the ICD loader at NVIDIA's OpenCL driver
# (and the reference driver, when built), points Vulkan at NVIDIA's ICD, then
# runs the given command:
#   bash scripts/gpu/with-gpu-drivers.sh node scripts/gpu/test.mjs --seeds 1-300
#   bash scripts/gpu/with-gpu-drivers.sh npm run test:gpu     (where the machine has npm)
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v node >/dev/null; then
  [ -f .node/node.xz ] || { echo "no node on this machine and no .node/node.xz (run scripts/gpu/pack-for-gpu-machine.sh on the build machine)" >&2; exit 2; }
  xz -dc .node/node.xz > /usr/local/bin/node && chmod +x /usr/local/bin/node
fi
if ! ldconfig -p | grep -q 'libvulkan.so.1 '; then
  for deb in .gl/*.deb; do [ -f "$deb" ] && dpkg -x "$deb" /; done
  ldconfig
fi
vendors="$PWD/build/gpu-vendors"
mkdir -p "$vendors"
rm -f "$vendors"/*.icd
for lib in /usr/local/nvidia/lib64/libnvidia-opencl.so.1 /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 /usr/lib64/libnvidia-opencl.so.1; do
  if [ -f "$lib" ]; then echo "$lib" > "$vendors/nvidia.icd"; break; fi
done
[ -f cmake-build/lib/libocl_interop_refdriver.so ] && echo "$PWD/cmake-build/lib/libocl_interop_refdriver.so" > "$vendors/reference.icd"
# Some ocl-icd builds leave a folder's second .icd out; its
# OCL_ICD_FILENAMES, which replaces the folders, loads every driver listed.
OCL_ICD_FILENAMES=$(cat "$vendors"/*.icd | paste -sd:)
export OCL_ICD_FILENAMES
export OCL_ICD_VENDORS="$vendors"
for json in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
  if [ -f "$json" ]; then export VK_DRIVER_FILES="$json"; break; fi
done
for json in /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json; do
  [ -f "$json" ] && export __EGL_VENDOR_LIBRARY_FILENAMES="$json"
done
export PATH="/usr/local/cuda/bin:$PATH"  # cuda-gdb, for the stacks of a process that does not exit
echo "node $(node --version); OpenCL vendors: $(cat "$vendors"/*.icd | tr '\n' ' '); Vulkan ICD: ${VK_DRIVER_FILES:-default}"
nvidia-smi --query-gpu=index,name,driver_version,pci.bus_id --format=csv,noheader 2>/dev/null || true
exec "$@"
