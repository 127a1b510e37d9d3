#!/usr/bin/env bash
# Replays misuse-fuzzer seeds that failed, each as COPIES separate fuzzer processes on one GPU (at most 4 share a
# GPU, as in the run that found them), with the stacks of a stuck exit (then EXIT_WAIT more seconds to see whether
# it ends by itself) and a crash run again under gdb or cuda-gdb:
#   OUT=/tmp/gpu-out bash scripts/gpu/with-gpu-drivers.sh bash scripts/gpu/replay-fuzz-seeds.sh 0:52:4 1:120:4 2:273:4 3:6,7,156:1
# Each argument is GPU:SEEDS:COPIES[:STEPS]. LIMIT (default 420 s) bounds each process; STEPS (default 2000).
set -u; mkdir -p "$OUT"
limit=${LIMIT:-420}; steps=${STEPS:-2000}; exit_wait=${EXIT_WAIT:-90}
with_reference=""
node -e "process.exit(require('./dist/index.js').getPlatforms().some((p) => p.name.includes('reference')) ? 0 : 1)" && with_reference="--with-reference"
for spec in "$@"; do
  IFS=: read -r gpu seeds copies spec_steps <<< "$spec"
  for ((c = 1; c <= ${copies:-1}; c++)); do
    CUDA_VISIBLE_DEVICES=$gpu timeout "$limit" node test/fuzz/misuse.mjs --platform NVIDIA --seeds "$seeds" --steps "${spec_steps:-$steps}" \
      --parallel 4 --stacks --exit-wait "$exit_wait" --debug-crashes $with_reference > "$OUT/replay-gpu$gpu-${seeds//,/_}-$c.log" 2>&1 &
  done
done
wait
for log in "$OUT"/replay-*.log; do
  echo "== $(basename "$log"): $(grep -h -E "seeds x .* steps on .* in " "$log" || echo "no summary (the limit ended it)")"
  grep -h -E "^seed [0-9]+: " "$log" | cut -c1-300
done
