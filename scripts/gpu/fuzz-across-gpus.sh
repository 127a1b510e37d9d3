#!/usr/bin/env bash
# The misuse fuzzer on every GPU of the machine, 4 at a time per GPU
# (CUDA_VISIBLE_DEVICES picks the GPU), NVIDIA as the compiling platform and
# the reference driver beside it where it loads; the seeds split evenly:
#   OUT=/tmp/gpu-out SEEDS=1-300 STEPS=2000 LIMIT=1800 bash scripts/gpu/with-gpu-drivers.sh bash scripts/gpu/fuzz-across-gpus.sh
# GPUS="1 2 3" picks the GPUs (default: every one; "1 1 1" runs three fuzzers of 4 on GPU 1, each with a log of its
# own); SEEDS may also be one range per GPU, "11-75 88-150 161-225".
# Each seed prints a line as it ends; a hung one, every thread's stack (--stacks).
set -u; mkdir -p "$OUT"
seeds=${SEEDS:-1-300}; steps=${STEPS:-2000}; limit=${LIMIT:-1800}
count=$(nvidia-smi -L 2>/dev/null | wc -l); [ "$count" -ge 1 ] || count=1
read -r -a gpus <<< "${GPUS:-$(seq -s ' ' 0 $((count - 1)))}"
read -r -a ranges <<< "$seeds"
with_reference=""
node -e "process.exit(require('./dist/index.js').getPlatforms().some((p) => p.name.includes('reference')) ? 0 : 1)" && with_reference="--with-reference"
echo "fuzzing seeds $seeds x $steps steps on GPU(s) ${gpus[*]} ${with_reference:-(NVIDIA alone: the reference driver did not load)}"
n=${#gpus[@]}
for ((k = 0; k < n; k++)); do
  if [ "${#ranges[@]}" -gt 1 ]; then
    part=${ranges[$k]:-}; [ -n "$part" ] || break
  else
    from=${seeds%-*}; to=${seeds#*-}; per=$(( (to - from + n) / n ))
    first=$(( from + k * per )); last=$(( first + per - 1 )); [ "$last" -gt "$to" ] && last=$to
    [ "$first" -gt "$to" ] && break
    part="$first-$last"
  fi
  CUDA_VISIBLE_DEVICES=${gpus[$k]} timeout "$limit" node test/fuzz/misuse.mjs --platform NVIDIA --seeds "$part" --steps "$steps" \
    --parallel 4 --stacks $with_reference > "$OUT/fuzz${gpus[$k]}-$k.log" 2>&1 &
done
wait
cat "$OUT"/fuzz*.log | grep -E "^seed [0-9]+ passed" | wc -l | sed 's/$/ seeds passed/'
grep -h -E "^seed [0-9]+: " "$OUT"/fuzz*.log | cut -c1-300
grep -h -E "seeds x .* steps on .* in " "$OUT"/fuzz*.log
