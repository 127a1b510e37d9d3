#!/usr/bin/env bash
# Builds the addon with sanitizers and runs vitest against that build.
#
#   scripts/sanitize.sh [address|undefined|address,undefined] [vitest args...]
#   npm run test:sanitize -- [mode] [vitest args...]
#
# The mode defaults to address,undefined. The build goes to
# build-sanitize/<mode>/build/Release (its own node-gyp tree: build/Release,
# the normal build, is left alone) and the tests load it through
# node-gyp-build's OPENCL_INTEROP_PREBUILD override, which every child process
# inherits. The reference driver, the software VA driver, PoCL, libva and node
# are not instrumented; with AddressSanitizer preloaded their heap is still
# checked at every free and every intercepted libc call (memcpy, write, ...).
#
# Reports go to files in build-sanitize/<mode>/reports/ (one per process, so
# that those of the fresh processes tests spawn are kept too, whatever a test
# shows of their stderr); the first report stops its process with exit status 1
# (halt_on_error=1). The script prints the reports and fails when there is any. Leak detection is off: node
# and V8 keep much of their memory until exit by design.
# SANITIZE_SUPPRESSIONS=file adds a suppressions file (none is needed today).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mode=address,undefined
if [[ $# -gt 0 && $1 =~ ^(address|undefined)(,(address|undefined))?$ ]]; then
  mode=$1
  shift
fi
case "$mode" in
  address | undefined | address,undefined) ;;
  undefined,address) mode=address,undefined ;;
  *)
    echo "usage: scripts/sanitize.sh [address|undefined|address,undefined] [vitest args...]" >&2
    exit 2
    ;;
esac

dir="$root/build-sanitize/${mode/,/+}"
reports="$dir/reports"
mkdir -p "$dir"
# A node-gyp project of its own: the sources are the repository's.
# A changed binding.gyp (a new source) is configured again.
if ! cmp -s "$root/binding.gyp" "$dir/binding.gyp"; then
  cp "$root/binding.gyp" "$dir/binding.gyp"
  rm -f "$dir/build/Makefile"
fi
ln -sfn "$root/native" "$dir/native"

flags="-fsanitize=$mode -fno-omit-frame-pointer -g -O1"
node_gyp=${npm_config_node_gyp:-$(npm root -g)/npm/node_modules/node-gyp/bin/node-gyp.js}
if [[ -z ${npm_config_nodedir:-} ]]; then
  nodedir=$(npm config get nodedir 2>/dev/null || true)
  [[ -n $nodedir && $nodedir != undefined && $nodedir != null ]] && export npm_config_nodedir=$nodedir
fi
echo "sanitize.sh: building the addon with -fsanitize=$mode in ${dir#"$root"/}" >&2
(
  cd "$dir"
  export CFLAGS="$flags" CXXFLAGS="$flags" LDFLAGS="-fsanitize=$mode"
  # Configured once per mode; make rebuilds what changed.
  [[ -f build/Makefile ]] || node "$node_gyp" configure >"$dir/configure.log" 2>&1 || {
    cat "$dir/configure.log" >&2
    exit 1
  }
  node "$node_gyp" build -j 2 >"$dir/build.log" 2>&1 || {
    cat "$dir/build.log" >&2
    exit 1
  }
)

# The tests run the compiled package (dist/) in fresh processes and need the
# reference driver and the software VA driver (cmake-build/).
(cd "$root" && npm run --silent build:ts && npm run --silent build:driver)

rm -rf "$reports"
mkdir -p "$reports"
export OPENCL_INTEROP_PREBUILD="$dir"
common="halt_on_error=1:print_stacktrace=1"
suppress=""
if [[ -n ${SANITIZE_SUPPRESSIONS:-} ]]; then suppress=":suppressions=$(realpath "$SANITIZE_SUPPRESSIONS")"; fi
if [[ $mode == *address* ]]; then
  # Node is not instrumented: the runtime must be loaded before anything else.
  export LD_PRELOAD="$(gcc -print-file-name=libasan.so)${LD_PRELOAD:+:$LD_PRELOAD}"
  # use_sigaltstack=0: PoCL's first clGetPlatformIDs calls LLVM's
  # RemoveFileOnSignal, which installs a malloc'ed alternate signal stack on
  # the calling thread; where that thread exits (a worker), ASan then tries to
  # munmap that heap block as its own stack and aborts ("unable to unmap", in
  # __nptl_deallocate_tsd). Not a memory error; without ASan nothing is freed.
  export ASAN_OPTIONS="detect_leaks=0:use_sigaltstack=0:$common:log_path=$reports/asan:log_exe_name=1$suppress"
fi
if [[ $mode == *undefined* ]]; then
  export UBSAN_OPTIONS="$common:log_path=$reports/ubsan:log_exe_name=1$suppress"
fi

status=0
(cd "$root" && npx vitest run "$@") || status=$?

found=$(find "$reports" -type f | sort)
if [[ -n $found ]]; then
  echo "sanitize.sh: $(echo "$found" | wc -l) sanitizer report(s):" >&2
  for file in $found; do
    echo "--- $file" >&2
    head -n 40 "$file" >&2
  done
  exit 1
fi
echo "sanitize.sh: no sanitizer reports (-fsanitize=$mode); vitest exited $status" >&2
exit $status
