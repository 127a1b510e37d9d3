#!/usr/bin/env bash
# The misuse fuzzer on two GPUs, 150 seeds each, 4 at a time per GPU (CUDA_VISIBLE_DEVICES picks the GPU), NVIDIA alone
# (the reference driver built elsewhere did not load on the H200 machine: add --with-reference where it does):
#   OUT=/tmp/gpu-out bash scripts/gpu/device.sh bash scripts/gpu/fuzz-two-gpus.sh
set -u; mkdir -p "$OUT"
CUDA_VISIBLE_DEVICES=0 timeout 1800 node test/fuzz/misuse.mjs --platform NVIDIA --seeds 1-150 --steps 2000 --parallel 4 > $OUT/fuzz0.log 2>&1 &
CUDA_VISIBLE_DEVICES=1 timeout 1800 node test/fuzz/misuse.mjs --platform NVIDIA --seeds 151-300 --steps 2000 --parallel 4 > $OUT/fuzz1.log 2>&1 &
wait
tail -n 3 "$OUT/fuzz0.log"; tail -n 3 "$OUT/fuzz1.log"
