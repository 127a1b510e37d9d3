#!/usr/bin/env bash
# The benches of bench/ on a GPU machine, C beside Node in each, one after another, each under a time limit of its
# own, alone on the machine (nothing else should load the GPUs or the cores while they run). Each bench's output goes
# to $OUT/<part>.log (default OUT: build/gpu-bench) and its table is printed. What each measures and how to read it:
# bench/README.md.
#
#   bash scripts/gpu/run-benches.sh [PART ...]        (npm run bench:gpu -- [PART ...])
#
# PARTs (default: all of them, in this order):
#   calls      bench/run.mjs: per-call cost of the same call sequences from C and from Node, 64 MiB transfers
#   transfers  bench/transfers.mjs: what staging JavaScript memory costs against HostMemory
#   loop-lag   bench/loop-lag.mjs: the event loop's delay while 1000 awaited commands end
#   overlap    bench/overlap.mjs: uploads and readbacks on their own queues beside the kernel (C and Node)
#   pipeline   bench/external-pipeline.mjs: the 4K Vulkan -> OpenCL -> Vulkan frame pipeline (C and Node)
#   multi-gpu  bench/multi-gpu-pipeline.mjs: the same pipeline on every GPU from one process (needs 2 GPUs or more)
#   workers    bench/workers.mjs: streams in worker threads against the same streams in processes (C and Node)
#
# Needs the package built (npm run build) and the C benches (npm run build:driver, which builds cmake-build/bench/
# where the OpenCL and Vulkan headers are installed). BENCH_PLATFORM (default NVIDIA) picks the OpenCL platform by
# part of its name. On a GPU machine without Node or a Vulkan loader, run it through
# scripts/gpu/with-gpu-drivers.sh (scripts/README.md).
set -u
cd "$(dirname "$0")/../.."
out=${OUT:-build/gpu-bench}
platform=${BENCH_PLATFORM:-NVIDIA}
mkdir -p "$out"
parts=("$@")
[ "${#parts[@]}" -gt 0 ] || parts=(calls transfers loop-lag overlap pipeline multi-gpu workers)
gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
[ "$gpus" -ge 1 ] || gpus=1
status=0

# bench LIMIT PART COMMAND...: runs the command under LIMIT seconds into $out/PART.log, then prints the log.
bench() {
  local limit=$1 part=$2
  shift 2
  echo "=== $part: $*"
  timeout "$limit" "$@" > "$out/$part.log" 2>&1
  local code=$?
  cat "$out/$part.log"
  if [ "$code" -ne 0 ]; then
    echo "=== $part: exit status $code (124: it ran past its $limit s)"
    status=1
  fi
}

for part in "${parts[@]}"; do
  case "$part" in
  calls) bench 120 calls node bench/run.mjs --platform "$platform" --no-python ;;
  transfers) bench 120 transfers node bench/transfers.mjs --platform "$platform" ;;
  loop-lag) bench 60 loop-lag node bench/loop-lag.mjs --platform "$platform" --global 1048576 --loop 2000 ;;
  overlap)
    bench 90 overlap node bench/overlap.mjs --platform "$platform" --repeats 3
    bench 90 overlap-heavy node bench/overlap.mjs --platform "$platform" --kernel-iterations 16 --repeats 3
    ;;
  pipeline) bench 240 pipeline node bench/external-pipeline.mjs --platform "$platform" ;;
  multi-gpu)
    if [ "$gpus" -lt 2 ]; then
      echo "=== multi-gpu: skipped, one GPU on this machine"
    else
      bench 240 multi-gpu node bench/multi-gpu-pipeline.mjs --platform "$platform" --slots 8,32 --frames 1000 --repeats 1 --mode both --timing
    fi
    ;;
  workers)
    streams=1
    [ "$gpus" -ge 2 ] && streams=1,2
    [ "$gpus" -ge 4 ] && streams=1,2,4
    bench 300 workers node bench/workers.mjs --platform "$platform" --streams "$streams" --commands 20000 --repeats 5 --side both --c-wait handoff
    ;;
  *)
    echo "run-benches.sh: no part named $part (calls, transfers, loop-lag, overlap, pipeline, multi-gpu, workers)" >&2
    exit 2
    ;;
  esac
done
exit "$status"
