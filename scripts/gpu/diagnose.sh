#!/usr/bin/env bash
# What the H200-pair run of 2026-11-27 left open, looked at with stacks, on a
# machine with two or four GPUs (through scripts/gpu/device.sh, OUT set):
#   OUT=/tmp/gpu-out bash scripts/gpu/device.sh bash scripts/gpu/diagnose.sh
# 1. whether the reference driver built here loads there (the ICD loader's own trace);
# 2. the misuse fuzzer's seeds that ran their steps but did not exit (6, 7, 156) and
#    their neighbours, one GPU each, with every thread's stack of a process that hangs;
# 3. bench/multi-gpu-pipeline.mjs's Node side under the debugger: the backtrace of
#    the segmentation fault that ended it.
set -u; mkdir -p "$OUT"
{
  echo "== reference driver"
  ls -la cmake-build/lib/ 2>&1
  ldd cmake-build/lib/libocl_interop_refdriver.so 2>&1
  cat "$OCL_ICD_VENDORS"/*.icd
  OCL_ICD_DEBUG=7 node -e "console.log(require('./dist/index.js').getPlatforms().map((p) => p.name))" 2>&1 | tail -n 30
} > "$OUT/reference.log" 2>&1
tail -n 5 "$OUT/reference.log"
with_reference=""
node -e "process.exit(require('./dist/index.js').getPlatforms().some((p) => p.name.includes('reference')) ? 0 : 1)" && with_reference="--with-reference"
gpus=$(nvidia-smi -L | wc -l)
seeds=("6,7,1-5,8-20" "156,151-155,157-170" "21-40" "171-190")
for ((g = 0; g < gpus && g < 4; g++)); do
  CUDA_VISIBLE_DEVICES=$g timeout 280 node test/fuzz/misuse.mjs --platform NVIDIA --seeds "${seeds[$g]}" --steps 2000 --parallel 4 --stacks $with_reference > "$OUT/fuzz$g.log" 2>&1 &
done
wait
for log in "$OUT"/fuzz*.log; do tail -n 1 "$log"; done
debugger=$(command -v gdb || command -v cuda-gdb)
timeout 260 "$debugger" -batch -ex 'set pagination off' -ex run -ex 'thread apply all bt 25' --args \
  node bench/multi-gpu-pipeline.mjs --platform NVIDIA --slots 8,32 --frames 1000 --repeats 1 --mode both \
  > "$OUT/multi-gpu.log" 2>&1
grep -n -E "frames/s|aggregate|SIGSEGV|signal|exited" "$OUT/multi-gpu.log" | head -n 40
