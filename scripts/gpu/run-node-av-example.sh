#!/usr/bin/env bash
# Run on the GPU machine, in the repository's root, with the .cache/node-av that
# scripts/gpu/pack-node-av.sh wrote beside what scripts/gpu/pack-for-gpu-machine.sh
# gathered: unpacks node-av into a temporary folder, links it into ./node_modules
# (where the example's import('node-av/lib') looks; the node_modules/node-gyp-build
# there stays as it is), runs examples/video-decode-node-av.mjs on the test MP4
# with the given options, and takes the links away again:
#   bash scripts/gpu/with-gpu-drivers.sh bash scripts/gpu/run-node-av-example.sh
#   bash scripts/gpu/with-gpu-drivers.sh bash scripts/gpu/run-node-av-example.sh --platform NVIDIA
set -euo pipefail
cd "$(dirname "$0")/../.."
archive=.cache/node-av/node-av.tar.xz
video=.cache/node-av/h264-720p.mp4
for file in "$archive" "$video"; do
  [ -f "$file" ] || { echo "no $file (run scripts/gpu/pack-node-av.sh on the build machine and carry .cache)" >&2; exit 2; }
done
links=(node_modules/node-av node_modules/@seydx/node-av-linux-x64)
for link in "${links[@]}"; do
  if [ -e "$link" ] && [ ! -L "$link" ]; then
    echo "$link is already installed here; run node examples/video-decode-node-av.mjs $video directly" >&2
    exit 2
  fi
done
unpacked=$(mktemp -d)
cleanup() {
  for link in "${links[@]}"; do [ -L "$link" ] && rm -f "$link"; done
  rmdir node_modules/@seydx 2>/dev/null || true
  rm -rf "$unpacked"
}
trap cleanup EXIT
xz -dc "$archive" | tar -C "$unpacked" -xf -
mkdir -p node_modules/@seydx
for link in "${links[@]}"; do ln -sfn "$unpacked/$link" "$link"; done
node examples/video-decode-node-av.mjs "$video" "$@"
