#!/usr/bin/env bash
# The README's quick start on a fresh Debian 12 machine: a bookworm chroot made
# with debootstrap (minbase) that has nothing but Node (copied from this
# machine: its node, npm and headers, as the nodejs.org tarball installs them),
# g++, make, cmake and python3. This checkout's committed HEAD is cloned into
# it and, as root inside it, the README's commands run:
#   npm install && npm run demo
#   npm test
# Each step's time and the test counts are printed and written to
# build/fresh-machine/summary.txt, with every step's log beside it.
#
# Usage (as root, on Linux with debootstrap and git; the Debian mirror and the
# npm registry must be reachable; where this machine's node trusts an extra CA
# through NODE_EXTRA_CA_CERTS, as behind a TLS-intercepting proxy, node in the
# chroot is given the same file):
#   scripts/fresh-machine.sh [--dir DIR] [--mirror URL] [--keep] [--test 'COMMAND']
#   --dir     where the chroot is made (default /var/tmp/opencl-interop-fresh;
#             it must not exist)
#   --mirror  the Debian mirror (default http://deb.debian.org/debian)
#   --keep    keep the chroot afterwards (it is unmounted either way)
#   --test    run COMMAND in the clone instead of `npm test`, e.g.
#             --test 'node scripts/test-prerequisites.mjs && npx vitest run test/vulkan.test.ts'
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
dir=/var/tmp/opencl-interop-fresh
mirror=http://deb.debian.org/debian
keep=0
test_command="npm test -- --reporter=default --reporter=json --outputFile=build/vitest-results.json"
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir="$2"; shift 2 ;;
    --mirror) mirror="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    --test) test_command="$2"; shift 2 ;;
    *) echo "fresh-machine.sh: unknown argument $1 (see the usage at the top of the script)" >&2; exit 2 ;;
  esac
done

fail() { echo "fresh-machine.sh: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || fail "run it as root (debootstrap, chroot and mount need root)"
command -v debootstrap >/dev/null || fail "debootstrap is not installed (apt-get install debootstrap)"
command -v git >/dev/null || fail "git is not installed"
node="$(command -v node)" || fail "node is not installed: it is copied from this machine"
[ ! -e "$dir" ] || fail "$dir exists: give another --dir, or remove it"
case "$dir" in /*) ;; *) fail "--dir must be an absolute path" ;; esac

# Node as the nodejs.org tarball lays it out: bin/node, lib/node_modules/npm,
# include/node (node-gyp builds the addon against these headers instead of
# downloading them, as a packaged Node does too).
node_real="$(readlink -f "$node")"
prefix="$(dirname "$(dirname "$node_real")")"
npm_dir="$prefix/lib/node_modules/npm"
[ -f "$npm_dir/bin/npm-cli.js" ] || fail "npm is not at $npm_dir"
[ -f "$prefix/include/node/node_api.h" ] || fail "Node's headers are not at $prefix/include/node"
commit="$(git -C "$repo" rev-parse HEAD)"
if [ -n "$(git -C "$repo" status --porcelain --untracked-files=no)" ]; then
  echo "fresh-machine.sh: note: uncommitted changes are not part of the run (it clones HEAD, $commit)"
fi

results="$repo/build/fresh-machine"
rm -rf "$results"
mkdir -p "$results"
summary="$results/summary.txt"
say() { echo "$*" | tee -a "$summary"; }

mounted=()
cleanup() {
  set +e
  # Whatever still runs inside (an Xvfb a test left, a stuck child) would keep the mounts busy.
  local pids=()
  for link in /proc/[0-9]*/root; do
    [ "$(readlink "$link" 2>/dev/null)" = "$dir" ] && pids+=("$(basename "$(dirname "$link")")")
  done
  if [ ${#pids[@]} -gt 0 ]; then
    echo "fresh-machine.sh: stopping processes still running in the chroot: ${pids[*]}"
    kill "${pids[@]}" 2>/dev/null; sleep 2; kill -9 "${pids[@]}" 2>/dev/null
  fi
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
    umount "${mounted[$i]}" 2>/dev/null || umount -l "${mounted[$i]}"
  done
  if [ -n "$(awk -v d="$dir" '$2 == d || index($2, d "/") == 1' /proc/mounts)" ]; then
    echo "fresh-machine.sh: something is still mounted under $dir; it is left in place" >&2
  elif [ $keep -eq 0 ]; then
    rm -rf "$dir"
  else
    echo "fresh-machine.sh: the chroot is kept in $dir"
  fi
}
trap cleanup EXIT
trap 'exit 143' TERM INT

elapsed() { local s=$1; printf '%dm%02ds' $((s / 60)) $((s % 60)); }
# step NAME COMMAND...: runs a step, its output in $results/NAME.log, and records its time and status.
step() {
  local name=$1; shift
  local start=$SECONDS status=0
  echo "== $name"
  "$@" > "$results/$name.log" 2>&1 || status=$?
  say "$name: $(elapsed $((SECONDS - start))), exit $status"
  if [ $status -ne 0 ]; then tail -40 "$results/$name.log"; fi
  return $status
}
# A network that intercepts TLS (an egress proxy with its own CA) is part of
# this machine's network, not of what the package needs: node inside is given
# the same extra CA file as node here, and nothing else.
ca_env=()
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then
  ca_env=(NODE_EXTRA_CA_CERTS=/usr/local/share/fresh-machine-extra-ca.crt)
fi
inside() {
  chroot "$dir" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 "${ca_env[@]}" \
    PATH=/usr/local/bin:/usr/local/sbin:/usr/bin:/usr/sbin:/bin:/sbin \
    npm_config_nodedir=/usr/local npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false \
    bash -c "$1"
}

say "fresh Debian 12 machine: $(date -u '+%Y-%m-%d %H:%M UTC'), commit $commit, $(nproc) cores, node $("$node" --version)"

step debootstrap debootstrap --variant=minbase bookworm "$dir" "$mirror"
for point in proc sys dev dev/pts dev/shm; do
  mkdir -p "$dir/$point"
  if [ "$point" = proc ]; then mount -t proc proc "$dir/proc"; else mount --bind "/$point" "$dir/$point"; fi
  mounted+=("$dir/$point")
done
cp -L /etc/resolv.conf "$dir/etc/resolv.conf"
# What an installed system has and debootstrap leaves out (vitest listens on localhost).
printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' > "$dir/etc/hosts"

# Node only: nothing else of this machine goes in.
mkdir -p "$dir/usr/local/bin" "$dir/usr/local/lib/node_modules" "$dir/usr/local/include"
cp "$node_real" "$dir/usr/local/bin/node"
cp -a "$npm_dir" "$dir/usr/local/lib/node_modules/npm"
cp -a "$prefix/include/node" "$dir/usr/local/include/node"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$dir/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$dir/usr/local/bin/npx"
if [ ${#ca_env[@]} -gt 0 ]; then cp -L "$NODE_EXTRA_CA_CERTS" "$dir/usr/local/share/fresh-machine-extra-ca.crt"; fi

step toolchain inside 'apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends g++ make cmake python3'
say "in the chroot: $(inside 'node --version; npm --version; g++ --version | head -1; cmake --version | head -1; python3 --version' | tr '\n' ' ')"
say "packages installed before npm: $(inside 'dpkg-query -W -f "\${Package}\n" | wc -l'); of those npm test needs: $(inside 'dpkg-query -W -f "\${Package}\n" ocl-icd-libopencl1 pocl-opencl-icd libva2 xvfb libvulkan1 mesa-vulkan-drivers vulkan-tools 2>/dev/null | wc -l')"

git clone -q "$repo" "$dir/root/opencl-interop"
git -C "$dir/root/opencl-interop" checkout -q "$commit"

status=0
step npm-install inside 'cd /root/opencl-interop && npm install' || status=$?
if [ $status -eq 0 ]; then step demo inside 'cd /root/opencl-interop && npm run demo' || status=$?; fi
if [ $status -eq 0 ]; then
  step test inside "cd /root/opencl-interop && $test_command" || status=$?
  json="$dir/root/opencl-interop/build/vitest-results.json"
  if [ -f "$json" ]; then
    cp "$json" "$results/"
    say "vitest: $(node -e '
      const r = require(process.argv[1]);
      console.log(`${r.numTotalTestSuites} suites, ${r.numTotalTests} tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped; files: ${r.testResults.length}, failed: ${r.testResults.filter((f) => f.status !== "passed").length}`);' "$json")"
  fi
  grep -E "tests passed, [0-9]+ tests failed" "$results/test.log" | sed 's/^/ctest: /' | tee -a "$summary" || true
  grep -A20 "The following tests did not run" "$results/test.log" | grep -E "^\s+[0-9]+ - " | sed 's/^ */ctest did not run: /' | tee -a "$summary" || true
  grep -E "^npm test: installing" "$results/test.log" | tee -a "$summary" || true
  grep -E "^ +(Test Files|Tests) " "$results/test.log" | sed 's/^ */vitest: /' | tee -a "$summary" || true
fi
say "result: $([ $status -eq 0 ] && echo passed || echo "FAILED (exit $status)"); logs in ${results#"$repo"/}/"
exit $status
