#!/usr/bin/env bash
# The H200-pair run of 2026-11-27 (docs/testing.md, bench/README.md): test:gpu, then the
# issue 23 benches, each under its own limit. Run through scripts/gpu/device.sh with OUT set to a folder:
#   OUT=/tmp/gpu-out bash scripts/gpu/device.sh bash scripts/gpu/streams-run.sh
set -u; mkdir -p "$OUT"
L=$OUT/tests.log
{ node dist/cli.js info; nvidia-smi -L; } > $OUT/info.log 2>&1
timeout 600 node scripts/gpu/test.mjs --only check,proof,suite --out $OUT > $L 2>&1; echo "test:gpu exit $?" >> $L
B=$OUT/bench1.log
{
echo "=== overlap"; timeout 60 node bench/overlap.mjs --platform "NVIDIA CUDA" --repeats 3
echo "=== overlap k16"; timeout 60 node bench/overlap.mjs --platform "NVIDIA CUDA" --kernel-iterations 16 --repeats 3
echo "=== run.mjs"; timeout 60 node bench/run.mjs --platform NVIDIA --no-python --iterations 3000 --big-iterations 5 --repeats 3
echo "=== workers"; timeout 60 node bench/workers.mjs --platform NVIDIA --streams 1,2,4
echo "=== cross-process"; timeout 40 node examples/cross-process-frames.mjs --platform NVIDIA --width 3840 --height 2160 --frames 600 --slots 8
echo "=== multi-gpu"; timeout 150 node bench/multi-gpu-pipeline.mjs --slots 8,32 --frames 1000 --repeats 1 --mode both
} > $B 2>&1
grep -E "ok  |FAIL|exit" $L | tail -15
