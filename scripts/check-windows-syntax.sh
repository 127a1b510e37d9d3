#!/usr/bin/env bash
# Compiles every native/*.cc for win32-x64 with mingw-w64 (syntax and types
# only), so the Windows code paths (LoadLibrary, __stdcall entry points) keep
# compiling. The full Windows build and its tests under Wine are a separate job.
set -euo pipefail
cd "$(dirname "$0")/.."
cxx=${CXX_WIN:-x86_64-w64-mingw32-g++-posix}
command -v "$cxx" >/dev/null || { echo "$cxx not found: apt-get install g++-mingw-w64-x86-64-posix" >&2; exit 1; }
addon_api=$(node -p "require('node-addon-api').include_dir")
headers=node_modules/node-api-headers/include
for source in native/*.cc; do
  "$cxx" -std=c++17 -fsyntax-only -Wall -Werror -DNAPI_VERSION=8 -DNAPI_CPP_EXCEPTIONS -DNODE_API_SWALLOW_UNTHROWABLE_EXCEPTIONS -DNODE_ADDON_API_DISABLE_DEPRECATED \
    -I"$headers" -I"$addon_api" "$source"
done
echo "native/*.cc compile for win32-x64 (mingw-w64, $("$cxx" -dumpversion))"
