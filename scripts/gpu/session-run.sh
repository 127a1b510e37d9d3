#!/usr/bin/env bash
# The short run of the second 2026-11-27 session on four H200s (about 5 minutes; docs/testing.md,
# bench/README.md): test:gpu with the suite's files spread over the GPUs and a shorter lifetime
# part of the proof, the await cost against C, and the pipeline on every GPU (worker threads).
#   OUT=/tmp/gpu-out bash scripts/gpu/device.sh bash scripts/gpu/session-run.sh
set -u; mkdir -p "$OUT"
gpus=$(nvidia-smi -L 2>/dev/null | wc -l); [ "$gpus" -ge 1 ] || gpus=1
timeout 165 node scripts/gpu/test.mjs --only check,proof,suite --spread "$gpus" --proof-cycles 100 --out "$OUT" > "$OUT/tests.log" 2>&1
echo "test:gpu exit $?" >> "$OUT/tests.log"
timeout 45 node bench/run.mjs --platform NVIDIA --no-python --iterations 3000 --big-iterations 5 --repeats 3 > "$OUT/await.log" 2>&1
timeout 70 node bench/multi-gpu-pipeline.mjs --slots 8,32 --frames 1000 --repeats 1 --mode workers > "$OUT/multi-gpu.log" 2>&1
echo "multi-gpu exit $?" >> "$OUT/multi-gpu.log"
grep -E "ok  |FAIL|exit|PROOF" "$OUT/tests.log" | tail -20
grep -E -i "await|waiter|x C|ratio" "$OUT/await.log" | head -12
tail -n 25 "$OUT/multi-gpu.log"
