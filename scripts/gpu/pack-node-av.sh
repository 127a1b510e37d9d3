#!/usr/bin/env bash
# Run on a build machine (Debian/Ubuntu x86-64, with Node, npm's registry and
# ffmpeg with libx264): gathers what examples/video-decode-node-av.mjs needs on
# a GPU machine without node_modules or a network, in a folder git ignores:
#   .cache/node-av/node-av.tar.xz  node-av (pinned below) and its linux-x64 FFmpeg
#                                  binary, as node_modules/..., without its docs,
#                                  types, source maps, WebRTC and ffmpeg-download deps
#   .cache/node-av/h264-720p.mp4   a short H.264 (High profile, B-frames) test file
# node-av stays out of package.json. Carry .cache/node-av (about 37 MB; not all of
# .cache) with build/Release, dist and node_modules/node-gyp-build, and run on the
# GPU machine:
#   bash scripts/gpu/with-gpu-drivers.sh bash scripts/gpu/run-node-av-example.sh
# Beside .node (24 MB) that passes 64 MiB: where the machine lacks node, a call
# before carries .node and .gl and runs with-gpu-drivers.sh true, which installs them.
set -euo pipefail
cd "$(dirname "$0")/../.."
NODE_AV_VERSION=6.1.1 # its low-level FormatContext (node-av/lib) runs on Node.js 20
PLATFORM_PACKAGE=@seydx/node-av-linux-x64
out=.cache/node-av
mkdir -p "$out"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# Both pinned, so the binary matches the JavaScript; no optional packages
# (other platforms, werift) and no install scripts (they download an ffmpeg CLI).
mkdir "$scratch/install"
(cd "$scratch/install" && echo '{"private":true}' > package.json &&
  npm install --silent --no-save --no-audit --no-fund --ignore-scripts --omit=optional \
    "node-av@$NODE_AV_VERSION" "$PLATFORM_PACKAGE@$NODE_AV_VERSION")

# node-av/lib loads only node-av's own dist and the platform package's
# node-av.node; unzipper serves the ffmpeg download alone, so it stays behind.
keep="$scratch/keep/node_modules"
mkdir -p "$keep/node-av" "$keep/$PLATFORM_PACKAGE"
cp "$scratch/install/node_modules/node-av/package.json" "$scratch/install/node_modules/node-av/LICENSE"* "$keep/node-av/"
(cd "$scratch/install/node_modules/node-av" && find dist -name '*.js' -print0 | tar --null -T - -cf -) | tar -C "$keep/node-av" -xf -
cp "$scratch/install/node_modules/$PLATFORM_PACKAGE/package.json" "$scratch/install/node_modules/$PLATFORM_PACKAGE/node-av.node" "$keep/$PLATFORM_PACKAGE/"
(cd "$scratch/keep" && node -e "import('node-av/lib').then((av) => process.exit(typeof av.FormatContext === 'function' ? 0 : 1))") ||
  { echo "the trimmed node-av does not load" >&2; exit 1; }
tar -C "$scratch/keep" --sort=name --owner=0 --group=0 --numeric-owner -cf - node_modules | xz --x86 --lzma2=preset=9e -T2 > "$out/node-av.tar.xz.part"
mv "$out/node-av.tar.xz.part" "$out/node-av.tar.xz"
size=$(stat -c %s "$out/node-av.tar.xz")
if [ "$size" -ge $((40 << 20)) ]; then
  echo "$out/node-av.tar.xz is $size bytes, over the 40 MiB a carry leaves room for" >&2
  exit 1
fi

ffmpeg -hide_banner -loglevel error -y -f lavfi -i testsrc2=size=1280x720:rate=30 -frames:v 60 \
  -c:v libx264 -profile:v high -pix_fmt yuv420p -movflags +faststart "$out/h264-720p.mp4"

echo "node-av $NODE_AV_VERSION ($PLATFORM_PACKAGE $NODE_AV_VERSION): $(du -sh "$scratch/keep" | cut -f1) unpacked"
ls -l "$out"
du -sh "$out"
