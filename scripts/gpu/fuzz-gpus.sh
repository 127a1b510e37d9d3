#!/usr/bin/env bash
# The misuse fuzzer on every GPU of the machine, 4 at a time per GPU
# (CUDA_VISIBLE_DEVICES picks the GPU), NVIDIA as the compiling platform and
# the reference driver beside it where it loads; the seeds split evenly:
#   OUT=/tmp/gpu-out SEEDS=1-300 STEPS=2000 LIMIT=1800 bash scripts/gpu/device.sh bash scripts/gpu/fuzz-gpus.sh
# Each seed prints a line as it ends; a hung one, every thread's stack (--stacks).
set -u; mkdir -p "$OUT"
seeds=${SEEDS:-1-300}; steps=${STEPS:-2000}; limit=${LIMIT:-1800}
from=${seeds%-*}; to=${seeds#*-}
gpus=$(nvidia-smi -L 2>/dev/null | wc -l); [ "$gpus" -ge 1 ] || gpus=1
with_reference=""
node -e "process.exit(require('./dist/index.js').getPlatforms().some((p) => p.name.includes('reference')) ? 0 : 1)" && with_reference="--with-reference"
echo "fuzzing seeds $from-$to x $steps steps on $gpus GPU(s) ${with_reference:-(NVIDIA alone: the reference driver did not load)}"
per=$(( (to - from + gpus) / gpus ))
for ((g = 0; g < gpus; g++)); do
  first=$(( from + g * per )); last=$(( first + per - 1 )); [ "$last" -gt "$to" ] && last=$to
  [ "$first" -gt "$to" ] && break
  CUDA_VISIBLE_DEVICES=$g timeout "$limit" node test/fuzz/misuse.mjs --platform NVIDIA --seeds "$first-$last" --steps "$steps" \
    --parallel 4 --stacks $with_reference > "$OUT/fuzz$g.log" 2>&1 &
done
wait
cat "$OUT"/fuzz*.log | grep -E "^seed [0-9]+ passed" | wc -l | sed 's/$/ seeds passed/'
grep -h -E "^seed [0-9]+: " "$OUT"/fuzz*.log | cut -c1-300
grep -h -E "seeds x .* steps on .* in " "$OUT"/fuzz*.log
