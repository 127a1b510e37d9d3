#!/usr/bin/env bash
# "Last line to exit" with many processes on one GPU: the misuse fuzzer's seeds, PER_GPU at a time on one GPU, are
# both the load and what is measured. For each seed's process, the time from its script's last line (it has ended:
# nothing of it is alive in JavaScript) to the process's end, which is the package's and the drivers' teardown; p50,
# p99 and max over the run, and the threads (/proc) of any process still there 2 s after its last line, which say
# where the time goes. The goal: every process ends within 2 s of its last line at 8 processes a GPU.
#   bash scripts/gpu/with-gpu-drivers.sh bash scripts/gpu/measure-exit-latency.sh
# GPU (default 0), PER_GPU (default 8), SEEDS (default 1-64), STEPS (default 2000), PLATFORM (default NVIDIA);
# OUT: a folder for the log (default: printed only).
set -u
cd "$(dirname "$0")/../.."
gpu=${GPU:-0}; per_gpu=${PER_GPU:-8}; seeds=${SEEDS:-1-64}; steps=${STEPS:-2000}; platform=${PLATFORM:-NVIDIA}
with_reference=""
node -e "process.exit(require('./dist/index.js').getPlatforms().some((p) => p.name.includes('reference')) ? 0 : 1)" && with_reference="--with-reference"
echo "last line to exit: seeds $seeds x $steps steps, $per_gpu at a time on GPU $gpu ($platform${with_reference:+ and the reference driver})"
run() {
  CUDA_VISIBLE_DEVICES=$gpu node test/fuzz/misuse.mjs --platform "$platform" --seeds "$seeds" --steps "$steps" \
    --parallel "$per_gpu" --slow-exit 2 --stacks $with_reference
}
if [ -n "${OUT:-}" ]; then
  mkdir -p "$OUT"
  run 2>&1 | tee "$OUT/exit-latency.log" | grep -E "^seed [0-9]+: |seeds x .* steps on |^last line to exit"
else
  run 2>&1
fi
