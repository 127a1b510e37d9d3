#!/usr/bin/env bash
# Run on a build machine (Debian/Ubuntu x86-64, with Node): builds the package
# and gathers what a GPU machine without Node or a Vulkan loader needs, in
# folders git ignores:
#   .node/node.xz   this machine's node binary, compressed
#   .gl/*.deb       the Vulkan and GL loaders (libvulkan1 and the glvnd libraries)
# Copy (or carry) these with build/Release, dist, node_modules/node-gyp-build
# and cmake-build to the GPU machine, and run scripts/gpu/with-gpu-drivers.sh there.
set -euo pipefail
cd "$(dirname "$0")/../.."
npm run build:addon --silent
npm run build:ts --silent
npm run build:driver --silent
mkdir -p .node
xz -T2 -6 -c "$(command -v node)" > .node/node.xz
mkdir -p .gl /tmp/opencl-interop-apt/partial
apt_options=(-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/opencl-interop-apt)
apt-get "${apt_options[@]}" update -q
(cd .gl && apt-get "${apt_options[@]}" download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
du -sh .node .gl build/Release dist cmake-build node_modules/node-gyp-build
